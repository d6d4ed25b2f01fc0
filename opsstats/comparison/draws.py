"""Draws of a quantity for classifiers on the same rows (paired) or on test sets
(unpaired), from which the differences' intervals and tests are read
(docs/method.md#comparisons).

Paired, curves: the rows of one class that share every classifier's thresholds (merged
as the single-curve engines merge them for the quantity at hand, ``_Cells`` of
``opsstats.uncertainty.curve._cells``) are exchangeable, so a paired resample is
described by a count per *joint* cell (class, threshold of each classifier). The
stratified bootstrap draws those counts Multinomial per class (the single-curve count
sampler :class:`~opsstats.uncertainty.curve.resampling._Multinomial`), and the paired
Dirichlet posterior draws one Gamma(rows) weight per joint cell, plus the pseudo-rows of
the single-curve posterior (:mod:`opsstats.uncertainty.curve.dirichlet`), one pair above
every score and one below, shared by the classifiers: one set of weights for all. Each
classifier's curve is the joint cells summed per its own thresholds (then cumulated in
its threshold order), evaluated by the shared curve geometry. k classifiers are drawn
once, over the joint cells of all k (``shared_curve_draws``), and every pair is read
from those draws (``_Generators``: whose generator draws, when a quantity and its OPS
are compared at once).

Paired, confusion matrices: the joint table of (truth, prediction A, prediction B), eight
cells. Per class (the prevalence fixed) the four cells (A, B) get a Dirichlet posterior
(prior ``a`` per cell, Jeffreys 1/2 by default) or a multinomial resample.

Unpaired: each test set's own single-sample draws, independent of the others':
:func:`~opsstats.uncertainty.curve.resampling._bootstrap_values` and
:func:`~opsstats.uncertainty.curve.dirichlet._dirichlet_values` for curves, the
confusion matrix's draws (:mod:`opsstats.uncertainty.confusion`) otherwise.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

import numpy as np

from .._lazy import lazy_module
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

if TYPE_CHECKING:
    from scipy import sparse
else:
    sparse = lazy_module("scipy.sparse")

__all__: list[str] = []


class _Generators:
    """The generator of each method that draws, in a call that compares a quantity and
    its OPS at once: the first such method draws from the call's generator, any other
    from a copy of that generator's state on entry. So each method's draws are those it
    makes in a call of its own with the same ``rng`` (the quantity and its OPS, compared
    by one method, share its draws)."""

    def __init__(self, rng: np.random.Generator, several: bool) -> None:
        self.rng = rng
        self.initial = copy.deepcopy(rng) if several else rng
        self.given: dict[str, np.random.Generator] = {}

    def __call__(self, method: str) -> np.random.Generator:
        if method not in self.given:
            self.given[method] = copy.deepcopy(self.initial) if self.given else self.rng
        return self.given[method]


class _JointClass:
    """One class's rows as counts per joint cell: the rows that share a (merged)
    threshold in every classifier, given each row's threshold index ``idx[m]`` in
    classifier m (of ``widths[m]`` thresholds).

    The joint cells are in the lexicographic order of their threshold indices (for two
    classifiers the order of ``ia * jb + ib``), whatever the number of classifiers."""

    def __init__(self, idx: list[np.ndarray], widths: list[int]) -> None:
        # each step refines the joint cells of the classifiers so far by the next one's
        # index, then ranks them (a rank is below the rows, so rank * width stays far
        # inside int64); for two classifiers the key is ia * jb + ib
        key = idx[0].astype(np.int64)
        for m in range(1, len(idx)):
            key = key * widths[m] + idx[m]
            if m < len(idx) - 1:
                key = np.unique(key, return_inverse=True)[1].astype(np.int64)
        _, first, counts = np.unique(key, return_index=True, return_counts=True)
        self.counts = counts.astype(np.int64)
        self.k = counts.size
        self.total = int(counts.sum())
        # per classifier: the (threshold <- joint cell) indicator, sparse (J, k), rows
        # in the order of the thresholds and each row's cells in increasing order (each
        # threshold's sum adds its cells in that order)
        ones = np.ones(self.k)
        cols = np.arange(self.k)
        self.maps = [
            sparse.csr_matrix((ones, (where[first], cols)), shape=(j, self.k))
            for where, j in zip(idx, widths, strict=True)
        ]

    def cumulative(self, x: np.ndarray, side: int) -> np.ndarray:
        """(b, J) cumulative counts (or weights) over one classifier's thresholds from the
        (k, b) per-joint-cell counts ``x`` (C order, floating point): the joint cells
        summed per threshold, then cumulated (exact for counts below 2**53). A
        transposed view of a (J, b) array."""
        per = self.maps[side] @ x
        np.cumsum(per, axis=0, out=per)
        return per.T


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
    show_progress: bool | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The quantity of A and of B on n paired draws (NaN where undefined): the stratified
    bootstrap of the rows (``method="bootstrap"``) or the paired Dirichlet posterior
    (``"dirichlet"``); :func:`shared_curve_draws` of the two."""
    va, vb = shared_curve_draws(
        is_pos, [score_a, score_b], quantity, method, n, rng, prior, show_progress
    )
    return va, vb


def shared_curve_draws(
    is_pos: np.ndarray,
    scores: list[np.ndarray],
    quantity: Any,
    method: str,
    n: int,
    rng: np.random.Generator,
    prior: Any = "jeffreys",
    show_progress: bool | None = None,
    curves: list[ScoreCurve] | None = None,
) -> np.ndarray:
    """The quantity of each of k classifiers on the same n draws, shape (k, n) (NaN
    where undefined): each draw (a stratified bootstrap resample of the rows, or a
    paired Dirichlet posterior draw of their weights) is made once, over the joint cells
    of all k classifiers, and each classifier's quantity is computed once per draw.

    Per classifier, and per pair, the draws have the law of the two-classifier draws:
    a joint cell of any two of the classifiers is a union of joint cells of all k, and
    summing Multinomial counts (or Gamma weights) over the finer cells gives the
    Multinomial counts (Gamma weights) of the coarser ones. For two classifiers the
    draws are those of the two-classifier engine, from the same ``rng``.
    ``curves``: the classifiers' curves when already built."""
    if curves is None:
        curves = [ScoreCurve.from_scores(is_pos, s, pos_label=True) for s in scores]
    idx, widths = [], []
    for c, s in zip(curves, scores, strict=True):
        cells, where = row_cells(c, is_pos, s, quantity)
        idx.append(where)
        widths.append(cells.k)
    pos = _JointClass([i[is_pos] for i in idx], widths)
    neg = _JointClass([i[~is_pos] for i in idx], widths)
    pi = curves[0].prevalence
    fix = _first_limit_fix(quantity)
    width = max(widths) + 3
    batch, alpha_buf, beta_buf, _ = _batches(n, max(pos.k + neg.k, width))
    out = np.empty((len(scores), n))
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
            # one (k, b) copy of each class's draws in floating point, for every classifier
            xp = np.ascontiguousarray(xp.T, dtype=float)
            xn = np.ascontiguousarray(xn.T, dtype=float)
            for side, j in enumerate(widths):
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
    return out


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
    show_progress: bool | None = None,
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
