"""Draws of a quantity for two classifiers on the same rows (paired) or on two test sets
(unpaired), from which the difference's interval and test are read
(docs/method.md#comparisons).

Paired, curves: the rows of one class that share both classifiers' thresholds (merged as
the single-curve engines merge them for the quantity at hand, ``_Cells`` of
``opsstats.uncertainty.curve._cells``) are exchangeable, so a paired resample is
described by a count per *joint* cell (class, threshold of A, threshold of B). The
stratified bootstrap draws those counts Multinomial per class (the single-curve count sampler
:class:`~opsstats.uncertainty.curve.resampling._Multinomial`), and the paired Dirichlet
posterior draws one Gamma(rows) weight per joint cell, plus the pseudo-rows of the
single-curve posterior (:mod:`opsstats.uncertainty.curve.dirichlet`), one pair above
every score and one below, shared by both classifiers: one set of weights for both. Each
classifier's curve is its joint cells summed over the other's thresholds (a cumulative
sum in its own threshold order), evaluated by the shared curve geometry.

Paired, confusion matrices: the joint table of (truth, prediction A, prediction B), eight
cells. Per class (the prevalence fixed) the four cells (A, B) get a Dirichlet posterior
(prior ``a`` per cell, Jeffreys 1/2 by default) or a multinomial resample.

Unpaired: each side's own single-sample draws, independent of the other's:
:func:`~opsstats.uncertainty.curve.resampling._bootstrap_values` and
:func:`~opsstats.uncertainty.curve.dirichlet._dirichlet_values` for curves, the
confusion matrix's draws (:mod:`opsstats.uncertainty.confusion`) otherwise.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy import sparse

from ..confusion import ConfusionMatrix
from ..curves import ScoreCurve
from ..uncertainty._draws import progress
from ..uncertainty.confusion import PRIORS, _Draws
from ..uncertainty.curve._cells import _batches, _cell_mode, _Cells, _fill_curves
from ..uncertainty.curve._options import sampling_view
from ..uncertainty.curve.dirichlet import _curve_prior, _dirichlet_values
from ..uncertainty.curve.resampling import (
    _bootstrap_values,
    _drop_leading_empty,
    _first_limit_fix,
    _Multinomial,
)
from ._inputs import ranked_counts

__all__: list[str] = []


class _JointClass:
    """One class's rows as counts per joint cell (threshold index of A, of B)."""

    def __init__(self, ia: np.ndarray, ib: np.ndarray, ja: int, jb: int) -> None:
        key = ia.astype(np.int64) * jb + ib
        cells, counts = np.unique(key, return_counts=True)
        self.counts = counts.astype(np.int64)
        self.k = cells.size
        self.total = int(counts.sum())
        # per classifier: the (joint cell -> its threshold) indicator, sparse (k, J)
        ones = np.ones(self.k)
        rows = np.arange(self.k)
        self.maps = [
            sparse.csr_matrix((ones, (rows, idx)), shape=(self.k, j))
            for idx, j in ((cells // jb, ja), (cells % jb, jb))
        ]

    def cumulative(self, x: np.ndarray, side: int) -> np.ndarray:
        """(b, J) cumulative counts (or weights) over one classifier's thresholds from the
        (b, k) per-joint-cell counts ``x``: the joint cells summed per threshold, then
        cumulated (in floating point: exact for counts below 2**53)."""
        per = np.asarray((self.maps[side].T @ x.T).T, dtype=float)
        np.cumsum(per, axis=1, out=per)
        return per


def row_cells(
    curve: ScoreCurve, is_pos: np.ndarray, scores: np.ndarray, quantity: Any
) -> tuple[_Cells, np.ndarray]:
    """The single-curve engines' cells of the curve for this quantity (thresholds merged
    exactly, :class:`~opsstats.uncertainty.curve._cells._Cells`) and each row's cell
    index, in row order."""
    cells = _Cells(curve, _cell_mode(quantity))
    total = np.asarray(curve.tps) + np.asarray(curve.fps)
    keep = np.searchsorted(total, np.cumsum(cells.pos + cells.neg))
    # a merged threshold belongs to the next threshold kept
    return cells, np.searchsorted(keep, ranked_counts(is_pos, scores)[2])


def paired_curve_draws(
    is_pos: np.ndarray,
    score_a: np.ndarray,
    score_b: np.ndarray,
    quantity: Any,
    method: str,
    n: int,
    rng: np.random.Generator,
    prior: Any = "jeffreys",
    show_progress: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """The quantity of A and of B on n paired draws (NaN where undefined): the stratified
    bootstrap of the rows (``method="bootstrap"``) or the paired Dirichlet posterior
    (``"dirichlet"``)."""
    curves = [ScoreCurve.from_scores(is_pos, s, pos_label=True) for s in (score_a, score_b)]
    idx, widths = [], []
    for c, s in zip(curves, (score_a, score_b), strict=True):
        cells, where = row_cells(c, is_pos, s, quantity)
        idx.append(where)
        widths.append(cells.k)
    ja, jb = widths
    pos = _JointClass(idx[0][is_pos], idx[1][is_pos], ja, jb)
    neg = _JointClass(idx[0][~is_pos], idx[1][~is_pos], ja, jb)
    pi = curves[0].prevalence
    fix = _first_limit_fix(quantity)
    width = max(ja, jb) + 3
    batch, alpha_buf, beta_buf, _ = _batches(n, max(pos.k + neg.k, width))
    out = np.empty((2, n))
    if method == "bootstrap":
        samplers = [_Multinomial(c.counts, np.arange(c.k), c.k) for c in (pos, neg)]
    else:
        a, _ = _curve_prior(prior)
    with (
        progress(n, show_progress, f"paired {method}") as tick,
        np.errstate(divide="ignore", invalid="ignore"),
    ):
        for start in range(0, n, batch):
            b = min(batch, n - start)
            if method == "bootstrap":
                xp = samplers[0].draw(b, rng)
                xn = samplers[1].draw(b, rng)
            else:
                xp = _gamma(pos.counts, b, rng)
                xn = _gamma(neg.counts, b, rng)
                ends = rng.standard_gamma(a, size=(4, b))  # top and bottom, each class
            for side, j in enumerate((ja, jb)):
                tp = pos.cumulative(xp, side)
                fp = neg.cumulative(xn, side)
                if method == "bootstrap":
                    alpha, beta = alpha_buf[:b, : j + 1], beta_buf[:b, : j + 1]
                    _fill_curves(tp, fp, pos.total, neg.total, alpha, beta)
                    if fix:
                        alpha, beta = _drop_leading_empty(tp, fp, alpha, beta)
                else:
                    tp = _with_ends(tp, ends[0], ends[1])
                    fp = _with_ends(fp, ends[2], ends[3])
                    alpha, beta = alpha_buf[:b, : j + 3], beta_buf[:b, : j + 3]
                    _fill_curves(tp, fp, tp[:, -1:], fp[:, -1:], alpha, beta)
                out[side, start : start + b] = quantity(pi, alpha, beta)
            tick(b)
    return out[0], out[1]


def _gamma(counts: np.ndarray, b: int, rng: np.random.Generator) -> np.ndarray:
    """(b, k) Gamma(count) weights of the joint cells (exponential for a single row)."""
    w = np.empty((b, counts.size))
    one = np.flatnonzero(counts == 1)
    many = np.flatnonzero(counts > 1)
    w[:, one] = rng.standard_exponential((b, one.size))
    w[:, many] = rng.standard_gamma(counts[many].astype(float), size=(b, many.size))
    return w


def _with_ends(cum: np.ndarray, top: np.ndarray, bottom: np.ndarray) -> np.ndarray:
    """Cumulative weights with a pseudo-row above every score and one below."""
    out = np.empty((cum.shape[0], cum.shape[1] + 2))
    out[:, 0] = top
    np.add(cum, top[:, None], out=out[:, 1:-1])
    out[:, -1] = out[:, -2] + bottom
    return out


def unpaired_curve_draws(
    curve: ScoreCurve,
    quantity: Any,
    method: str,
    n: int,
    rng: np.random.Generator,
    prior: Any = "jeffreys",
    show_progress: bool = False,
) -> np.ndarray:
    """The quantity on n draws of one test set: its stratified bootstrap or its
    Dirichlet posterior (the single-curve engines); a standardized curve's draws are
    its origin's rows at its prevalence (its sampling view)."""
    curve = sampling_view(curve)
    if method == "bootstrap":
        return _bootstrap_values(curve, [quantity], n, rng, True, show_progress)[0]
    a, _ = _curve_prior(prior)
    return _dirichlet_values(curve, [quantity], n, a, rng, show_progress)[0]


def _cm_prior(prior: Any) -> float:
    if isinstance(prior, str):
        return PRIORS[prior.lower()]
    return float(prior)


def paired_confusion_draws(
    is_pos: np.ndarray,
    pred_a: np.ndarray,
    pred_b: np.ndarray,
    method: str,
    n: int,
    rng: np.random.Generator,
    prior: Any = "jeffreys",
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(alpha_A, beta_A, alpha_B, beta_B), n draws each, from the joint 8-cell table of
    (truth, prediction A, prediction B), the prevalence fixed.

    Per class the cells (A, B) in the order (1, 1), (1, 0), (0, 1), (0, 0) are drawn as
    Dirichlet(counts + a) (``"dirichlet"``) or Multinomial(class size, counts / size)
    (``"bootstrap"``)."""
    rates = []
    for cls in (is_pos, ~is_pos):
        a, b = pred_a[cls], pred_b[cls]
        counts = np.array(
            [np.sum(a & b), np.sum(a & ~b), np.sum(~a & b), np.sum(~a & ~b)], dtype=float
        )
        if method == "dirichlet":
            p = rng.dirichlet(counts + _cm_prior(prior), size=n)
        else:
            p = rng.multinomial(int(counts.sum()), counts / counts.sum(), size=n) / counts.sum()
        rates.append((p[:, 0] + p[:, 1], p[:, 0] + p[:, 2]))  # P(A says 1), P(B says 1)
    (tpr_a, tpr_b), (fpr_a, fpr_b) = rates
    return fpr_a, 1.0 - tpr_a, fpr_b, 1.0 - tpr_b


def unpaired_confusion_draws(
    cm: ConfusionMatrix, method: str, n: int, rng: np.random.Generator, prior: Any = "jeffreys"
) -> tuple[np.ndarray, np.ndarray]:
    """(alpha, beta) of n draws of one confusion matrix (its Dirichlet posterior or its
    stratified bootstrap), the prevalence fixed."""
    d = _Draws(
        cm, method, n, rng, prior=prior, prevalence="fixed", stratified=True, show_progress=False
    )
    return d.a, d.b
