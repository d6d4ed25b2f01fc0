"""The range of a curve quantity over the orders of the rows inside score bins: what a
curve counted per bin (``evaluate(bins=)``) can say about the curve of the unbinned
scores (`docs/method.md#binned-curves`).

Across bins the order of the rows is known; inside a bin it is not, and the unbinned
scores may also tie some of a bin's rows. Every such order draws, inside the bin's box
of the ROC plane (from the point (f, t) above the bin to (f + n_b, t + p_b)), a monotone
path, and each path lies between the one that goes up first (the bin's positives above
its negatives: ``E+``) and the one that goes right first (``E-``). A quantity that only
grows as the path rises (the ROC areas, the partial area, Gini, the gain trapezoid area,
the equal error rate, which falls, and a monotone metric at an operating point) therefore
takes its extremes at ``E+`` and ``E-``, computed by the geometry itself. The PR, lift
and step-gain areas also depend on how finely a run of one class is cut (one row at a
time or tied); their extremes are ``E+`` or ``E-`` with one run taken one row at a time,
whose difference from the tied run is the only term computed here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from .._lazy import lazy_module
from .._validation import check_same_length
from ..metrics import resolve_metric
from ._counting import check_counts, cumulate
from ._geometry import CurveArea, EqualErrorRate, Gini, OperatingPoint, ideal_auc
from ._partial import PartialArea
from .score_curve import ScoreCurve

if TYPE_CHECKING:
    from scipy import special
else:
    special = lazy_module("scipy.special")

__all__ = ["BinRange", "bin_bounds", "bin_bounds_of"]

#: Rows of one unit each (counted rows), or rows of any weight (weighted counts).
ROWS = ("unit", "any")


class BinRange(NamedTuple):
    """The range ``[low, high]`` of a curve quantity over every order of the rows inside
    the score bins; NaN with ``reason`` when no bound is derived. ``tight``: both ends
    are the value of some order (for rows of any weight: limits of such values)."""

    low: float
    high: float
    tight: bool
    reason: str = ""


def _none(reason: str) -> BinRange:
    return BinRange(np.nan, np.nan, False, reason)


def _arranged(p: np.ndarray, n: np.ndarray, first: str) -> ScoreCurve:
    """The curve of the bins (``p`` positives and ``n`` negatives each, from the top
    bin down, none empty) with each bin's positives above its negatives
    (``first="positives"``, E+) or below them (E-); the rows of one class of a bin stay
    tied. It is the curve ``ScoreCurve.from_counts`` builds with the upper part of the
    k-th bin from the bottom at the score 2k + 1 and the lower part at 2k (the same
    arrays), built without its sort: the parts come in order."""
    zero = np.zeros_like(p)
    upper, lower = ((p, zero), (zero, n)) if first == "positives" else ((zero, n), (p, zero))
    pos = np.column_stack([upper[0], lower[0]]).ravel()
    neg = np.column_stack([upper[1], lower[1]]).ravel()
    scores = (2.0 * np.arange(p.size - 1, -1, -1)[:, None] + [1.0, 0.0]).ravel()
    keep = (pos > 0) | (neg > 0)
    return ScoreCurve._trusted(*cumulate(scores[keep], pos[keep], neg[keep]))


def _harmonic(c: np.ndarray, k: np.ndarray, rows: str) -> np.ndarray:
    """sum_{j=1..k} 1 / (c + j) (unit rows), or its limit for rows of any weight, the
    integral of 1 / (c + s) over [0, k]; 0 where k = 0."""
    with np.errstate(divide="ignore", invalid="ignore"):
        if rows == "unit":
            out = special.digamma(c + k + 1) - special.digamma(c + 1)
        else:
            out = np.log((c + k) / c)
    return np.where(k > 0, out, 0.0)


def _run(
    rule: str, rows: str, k: np.ndarray, y0: np.ndarray, yk: np.ndarray, fine: np.ndarray
) -> np.ndarray:
    """A run of k rows of one class, the curve's height y going from y0 to yk: the area
    of the run one row at a time, minus that of the run tied (one segment of width k).
    ``fine`` is sum_{j=1..k} y_j for unit rows, the integral of y for rows of any
    weight (the limit of ever thinner rows)."""
    tied = k * yk if rule == "step" else k * (y0 + yk) / 2.0
    if rows == "unit" and rule == "trapezoid":
        fine = fine + (y0 - yk) / 2.0
    return np.where(k > 0, fine - tied, 0.0)


def _precision(t: np.ndarray, f: np.ndarray, totals: tuple[float, float]) -> np.ndarray:
    """The registry's precision at t true and f false positives of a curve with
    ``totals`` = (P, N) positives and negatives (t / (t + f)); 1 at t = f = 0, the limit
    along a run of positives from the start."""
    P, N = totals
    with np.errstate(divide="ignore", invalid="ignore"):
        value = resolve_metric("precision")(P / (P + N), f / N, (P - t) / P)
        return np.where(t + f > 0, value, 1.0)


def _positives_run(
    rule: str,
    rows: str,
    t: np.ndarray,
    f: np.ndarray,
    k: np.ndarray,
    totals: tuple[float, float],
) -> np.ndarray:
    """:func:`_run` for k positives from (t, f) on the precision: y_j = (t+j)/(t+f+j)."""
    fine = k - np.where(f > 0, f * _harmonic(t + f, k, rows), 0.0)
    return _run(rule, rows, k, _precision(t, f, totals), _precision(t + k, f, totals), fine)


def _negatives_run(
    rule: str,
    rows: str,
    t: np.ndarray,
    f: np.ndarray,
    k: np.ndarray,
    totals: tuple[float, float],
) -> np.ndarray:
    """:func:`_run` for k negatives from (t, f) on the precision: y_j = t/(t+f+j)."""
    fine = np.where(t > 0, t * _harmonic(t + f, k, rows), 0.0)
    zero = np.zeros_like(t)  # no true positives: the precision is 0 all along
    y0 = np.where(t > 0, _precision(t, f, totals), zero)
    yk = np.where(t > 0, _precision(t, f + k, totals), zero)
    return _run(rule, rows, k, y0, yk, fine)


def _area_runs(spec: CurveArea, rows: str, bins: tuple[np.ndarray, ...]) -> tuple[Any, Any]:
    """The terms (low, high) to add to the areas of E- and E+ (their extremes are those
    curves with one run per bin taken one row at a time: docs/method.md#binned-curves)."""
    p, n, t, f = bins
    big_p, total = p.sum(), p.sum() + n.sum()
    totals = (big_p, n.sum())
    rule = spec.rule
    if spec.curve == "pr" and rule == "step":  # per positive: the precision at its group
        return _positives_run(rule, rows, t, f + n, p, totals).sum() / big_p, 0.0
    if spec.curve == "pr":
        return 0.0, _positives_run(rule, rows, t, f, p, totals).sum() / big_p
    if spec.curve == "lift":  # per row (positive or negative): the precision at its group
        if rule == "step":
            low = _positives_run(rule, rows, t, f + n, p, totals)
            high = _negatives_run(rule, rows, t + p, f, n, totals)
        else:
            low = _negatives_run(rule, rows, t, f, n, totals)
            high = _positives_run(rule, rows, t, f, p, totals)
        return low.sum() / big_p, high.sum() / big_p
    if spec.curve == "gain" and rule == "step":  # per row: the TPR at its group
        fine = p * t + (p * (p + 1) / 2.0 if rows == "unit" else p * p / 2.0)
        low = _run("step", "any", p, t, t + p, fine)  # `fine` already for `rows`
        return low.sum() / (big_p * total), 0.0
    return 0.0, 0.0  # ROC (both rules), gain trapezoid: E- and E+ themselves


def _monotone(point: OperatingPoint) -> bool:
    """Whether the registry says the metric is monotone in alpha and in beta
    (``Metric.monotone``; every built-in metric is, checked on a grid by the tests;
    docs/method.md#binned-curves)."""
    return point.metric.monotone is True


def bin_bounds(
    quantity: Any, scores: Any, positives: Any, negatives: Any, *, rows: str = "unit"
) -> BinRange:
    """The range of a curve quantity over every order of the rows inside each score bin,
    which holds the value of the unbinned scores (`docs/method.md#binned-curves`).

    Parameters
    ----------
    quantity : CurveArea, OperatingPoint, PartialArea, Gini or EqualErrorRate
        A curve quantity, as a curve reference resolves it.
    scores, positives, negatives : array-like of shape (m,)
        The bins (any numbers that order them, higher is more positive) and their
        counts of positives and negatives.
    rows : {"unit", "any"}, default "unit"
        ``"unit"``: the counts are rows of one each. ``"any"``: weighted counts, whose
        rows may carry any weight; the range then holds for every split of a bin's
        weight into rows (wider where a run's fineness matters).

    Returns
    -------
    BinRange
        ``(low, high, tight, reason)``; NaN ends with the reason when no bound is
        derived (a metric not known to be monotone, a metric undefined at an extreme
        order, the start of the recall or rate axis).

    Notes
    -----
    Areas (docs/method.md#binned-curves has the proofs): the ROC areas (both rules),
    the gain trapezoid area, the partial ROC area, Gini and the equal error rate take
    their extremes at E+ and E-. PR (step): highest at E+, lowest at E- with each bin's
    positives one by one. PR (trapezoid): highest at E+ with the positives one by one,
    lowest at E-. Lift (step): highest at E+ with the negatives one by one, lowest at E-
    with the positives one by one. Lift (trapezoid): highest at E+ with the positives
    one by one, lowest at E- with the negatives one by one. Gain (step): highest at E+
    (the binned value), lowest at E- with the positives one by one. For ROC AUC the
    range is the binned AUC +- sum_b p_b n_b / (2 P N).

    Examples
    --------
    >>> from opsstats.curves._geometry import parse_area
    >>> lo, hi, tight, _ = bin_bounds(parse_area("roc_auc"), [0, 1], [1, 2], [2, 1])
    >>> round(lo, 4), round(hi, 4), tight  # binned AUC 0.6667 +- (1*2 + 2*1) / (2*3*3)
    (0.4444, 0.8889, True)
    """
    return bin_bounds_of([quantity], scores, positives, negatives, rows=rows)[0]


def bin_bounds_of(
    quantities: Sequence[Any], scores: Any, positives: Any, negatives: Any, *, rows: str = "unit"
) -> list[BinRange]:
    """:func:`bin_bounds` of several quantities of one binned curve, in their order: the
    bins' extreme orders (E+ and E-) are built once for all of them.

    Examples
    --------
    >>> from opsstats.curves._geometry import parse_area
    >>> roc, pr = bin_bounds_of([parse_area("roc_auc"), parse_area("pr_auc")],
    ...                         [0, 1], [1, 2], [2, 1])
    >>> roc == bin_bounds(parse_area("roc_auc"), [0, 1], [1, 2], [2, 1])
    True
    """
    if rows not in ROWS:
        raise ValueError(f"`rows` must be 'unit' or 'any'; got {rows!r}.")
    orders = _orders(scores, positives, negatives)
    return [_bounds(quantity, orders, rows) for quantity in quantities]


class _Orders(NamedTuple):
    """The non-empty bins from the top score down (their positives ``p`` and negatives
    ``n``, the true and false positives ``t`` and ``f`` above each) and the curves of the
    two extreme orders inside them, E+ (``up``) and E- (``down``)."""

    p: np.ndarray
    n: np.ndarray
    t: np.ndarray
    f: np.ndarray
    up: ScoreCurve
    down: ScoreCurve


def _orders(scores: Any, positives: Any, negatives: Any) -> _Orders:
    s = np.asarray(scores, dtype=float)
    positives = check_counts("positives", positives)
    negatives = check_counts("negatives", negatives)
    check_same_length(scores=s, positives=positives, negatives=negatives)
    for name, c in (("positives", positives), ("negatives", negatives)):
        if not c.sum() > 0:
            raise ValueError(
                f"`{name}` must have a positive total: a curve needs both classes; got a "
                f"total of {c.sum().item()!r}."
            )
    values, where = np.unique(-s, return_inverse=True)  # bins from the top score down
    p = np.bincount(where, weights=positives.astype(float), minlength=values.size)
    n = np.bincount(where, weights=negatives.astype(float), minlength=values.size)
    t = np.r_[0.0, np.cumsum(p)[:-1]]  # true and false positives above each bin
    f = np.r_[0.0, np.cumsum(n)[:-1]]
    keep = (p + n) > 0
    p, n, t, f = p[keep], n[keep], t[keep], f[keep]
    return _Orders(p, n, t, f, _arranged(p, n, "positives"), _arranged(p, n, "negatives"))


def _bounds(quantity: Any, orders: _Orders, rows: str) -> BinRange:
    """:func:`bin_bounds` of one quantity from the bins' extreme orders."""
    p, n, t, f, up, down = orders
    pi = up.prevalence
    if isinstance(quantity, OperatingPoint):
        if not _monotone(quantity):
            return _none(
                f"{quantity.metric.label} is not known to be monotone in the error rates "
                "(register it with monotone=True if it is)"
            )
        start = quantity.x == 0.0 and quantity.axis in ("recall", "rate")
        if start and np.isnan(quantity.metric(pi, 0.0, 1.0)):
            return _none(
                "at the start of the axis the value is read at the first group of "
                "tied rows, whose make-up the bins do not fix"
            )
    elif not isinstance(quantity, CurveArea | PartialArea | Gini | EqualErrorRate):
        return _none(f"{type(quantity).__name__} is not a curve quantity")
    a = float(quantity(pi, up.alpha, up.beta))
    b = float(quantity(pi, down.alpha, down.beta))
    if np.isnan(a) or np.isnan(b):
        return _none(f"{quantity.label} is undefined (0/0) at an extreme order")
    low, high = min(a, b), max(a, b)
    if isinstance(quantity, CurveArea):
        add_low, add_high = _area_runs(quantity, rows, (p, n, t, f))
        scale = ideal_auc(quantity.curve, pi) if quantity.normalized else 1.0
        low, high = b + float(add_low) / scale, a + float(add_high) / scale
    return BinRange(low, high, True)
