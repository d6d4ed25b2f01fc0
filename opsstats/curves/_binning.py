"""The range of a curve quantity over the orders of the rows inside score bins: what a
curve counted per bin (``evaluate(bins=)``) can say about the curve of the unbinned
scores (`docs/method.md#binned-curves`)."""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy import special

from .score_curve import ScoreCurve

__all__ = ["bin_bounds"]


def _split(scores: np.ndarray, positives: np.ndarray, negatives: np.ndarray) -> ScoreCurve:
    """The curve with each bin's positives just above its negatives (ties kept)."""
    rank = np.searchsorted(np.unique(scores), scores).astype(float)
    return ScoreCurve.from_counts(
        np.r_[rank + 0.5, rank],
        np.r_[positives, np.zeros_like(positives)],
        np.r_[np.zeros_like(negatives), negatives],
    )


def bin_bounds(quantity: Any, scores: Any, positives: Any, negatives: Any) -> tuple[float, float]:
    """The range of the ROC AUC or the PR AUC (step rule) over every order of the rows
    inside each score bin, which holds the value of the unbinned scores; NaN for other
    quantities (no bound derived).

    ROC AUC: the binned AUC counts each (positive, negative) pair inside a bin as one
    half, the unbinned pair 0, 1/2 or 1, so the range is the binned AUC
    +- sum_b p_b n_b / (2 P N). PR AUC (average precision): highest with each bin's
    positives tied above its negatives (the geometry's value of that curve), lowest with
    the bin's negatives above its positives taken one by one: the sum over k = 1..p_b of
    (a + k) / (c + k), which is p_b - (c - a) (psi(c + p_b + 1) - psi(c + 1)), with a the
    true positives above the bin and c the rows above it plus the bin's negatives.

    Examples
    --------
    >>> from opsstats.curves._geometry import parse_area
    >>> lo, hi = bin_bounds(parse_area("roc_auc"), [0, 1], [1, 2], [2, 1])
    >>> round(lo, 4), round(hi, 4)  # binned AUC 0.6667 +- (1*2 + 2*1) / (2*3*3)
    (0.4444, 0.8889)
    """
    s = np.asarray(scores, dtype=float)
    p_rows = np.asarray(positives, dtype=float)
    n_rows = np.asarray(negatives, dtype=float)
    name = getattr(quantity, "name", "")
    if name == "roc_auc":
        binned = ScoreCurve.from_counts(s, p_rows, n_rows)
        auc = float(quantity(binned.prevalence, binned.alpha, binned.beta))
        values, where = np.unique(s, return_inverse=True)
        p = np.bincount(where, weights=p_rows, minlength=values.size)
        n = np.bincount(where, weights=n_rows, minlength=values.size)
        half = float(np.sum(p * n) / (2 * p.sum() * n.sum()))
        return auc - half, auc + half
    if name == "pr_auc" and getattr(quantity, "rule", "") == "step":
        best = _split(s, p_rows, n_rows)
        high = float(quantity(best.prevalence, best.alpha, best.beta))
        values, where = np.unique(-s, return_inverse=True)  # bins from the top score down
        p = np.bincount(where, weights=p_rows, minlength=values.size)
        n = np.bincount(where, weights=n_rows, minlength=values.size)
        tp0 = np.r_[0.0, np.cumsum(p)[:-1]]  # true and false positives above each bin
        fp0 = np.r_[0.0, np.cumsum(n)[:-1]]
        c = tp0 + fp0 + n
        terms = p - (c - tp0) * (special.digamma(c + p + 1) - special.digamma(c + 1))
        return float(np.sum(terms) / p.sum()), high
    return np.nan, np.nan
