"""The curve's rows as counts per (cell, class), and batches of curves over those cells:
what the bootstrap (:mod:`.resampling`), the Dirichlet posterior (:mod:`.dirichlet`) and
the jackknife (:mod:`.jackknife`) share.

The rows of one distinct score and one class are exchangeable, so a resample, a posterior
draw or a test set with one row left out is described by a count (or weight) per
(threshold, class) cell, and its curve by their cumulative sums over the *same*
thresholds: nothing is sorted again. :class:`_Cells` merges the thresholds that can be
merged exactly for the quantity at hand (:func:`_cell_mode`); :func:`_fill_curves` turns
cumulative counts into (alpha, beta) curves, and :func:`_batches` sizes the batches of
curves by the data alone, so that the same ``rng`` gives the same draws on any machine.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...curves._geometry import CurveArea

__all__: list[str] = []

#: Floats per (B, J) batch of resampled curves: about 2 MB per array, so the geometry's
#: temporaries stay in cache and on the heap. The batch size depends only on the data
#: (the number of cells), so the same ``rng`` gives the same draws on any machine;
#: changing this constant changes the draws.
_CHUNK_ELEMENTS = 1 << 18


class _Cells:
    """Rows per (cell, class) over the curve's distinct thresholds (decreasing).

    ``mode="full"``: one cell per threshold (the lift area needs every point).
    ``mode="reduced"``: a run of thresholds that add negatives only is one cell, its
    last threshold (as :meth:`ScoreCurve._geometry_points` does; valid for every area
    but the lift area and for every eq. 9 operating point).
    ``mode="step_pr"``: for the step-rule PR area (average precision) only, a run of
    negatives-only thresholds is merged into the *next* threshold: such points have
    zero recall width, so their terms y_k (x_k - x_{k-1}) are 0, and dropping a point
    of zero width leaves the width of the next one unchanged. Merged cells resample
    exactly, since a sum of multinomial cells is a multinomial cell.
    """

    def __init__(self, curve: Any, mode: str) -> None:
        tps = np.asarray(curve.tps, dtype=np.int64)
        fps = np.asarray(curve.fps, dtype=np.int64)
        J = tps.size
        if mode == "step_pr" and J > 1:
            gains = np.empty(J, dtype=bool)
            gains[0] = tps[0] > 0
            np.greater(tps[1:], tps[:-1], out=gains[1:])
            gains[-1] = True
            keep = np.flatnonzero(gains)
            tps, fps = tps[keep], fps[keep]
        elif mode == "reduced" and J > 1:
            # Same rule as ScoreCurve._geometry_points: drop threshold k when the steps
            # into k and into k + 1 both add no positives.
            flat = np.empty(J, dtype=bool)
            flat[0] = tps[0] == 0
            np.equal(tps[1:], tps[:-1], out=flat[1:])
            keep = np.flatnonzero(np.append(~(flat[:-1] & flat[1:]), True))
            tps, fps = tps[keep], fps[keep]
        self.pos = np.diff(tps, prepend=0)
        self.neg = np.diff(fps, prepend=0)
        self.P = int(tps[-1])
        self.N = int(fps[-1])
        self.k = self.pos.size


def _cell_mode(quantity: Any) -> str:
    if isinstance(quantity, CurveArea):
        if quantity.curve == "lift":
            return "full"
        if quantity.curve == "pr" and quantity.rule == "step":
            return "step_pr"
    return "reduced"


def _fill_curves(
    tp: np.ndarray, fp: np.ndarray, P: Any, N: Any, alpha: np.ndarray, beta: np.ndarray
) -> None:
    """(alpha, beta) of resampled curves into (b, k + 1) buffers, from per-cell counts
    already cumulated (in place, integers: exact), with the same operations as
    ScoreCurve.alpha / .beta, so that an unchanged resample gives the observed curve
    bit for bit."""
    alpha[:, 0] = 0.0
    beta[:, 0] = 1.0
    np.divide(fp, N, out=alpha[:, 1:])
    np.subtract(P, tp, out=beta[:, 1:])
    np.divide(beta[:, 1:], P, out=beta[:, 1:])


def _evaluate(
    quantity: Any, pi: float, alpha: np.ndarray, beta: np.ndarray, prevalences: Any
) -> np.ndarray:
    """The quantity on each curve (row) of a batch: at the prevalence ``pi``, or, when
    ``prevalences`` is an array (one prevalence per row, drawn with the curves), each row
    at its own (NaN where that is 0 or 1: a class absent). Rows that share a prevalence
    are evaluated together."""
    if prevalences is None:
        return np.asarray(quantity(pi, alpha, beta), dtype=float)
    at = np.asarray(prevalences, dtype=float)
    out = np.full(at.shape, np.nan)
    inside = (at > 0) & (at < 1)
    for p in np.unique(at[inside]):
        rows = np.flatnonzero(at == p)
        out[rows] = quantity(float(p), alpha[rows], beta[rows])
    return out


def _batches(n: int, k: int) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """The batch size for n curves of k cells (it depends only on the data, so the same
    ``rng`` gives the same draws), the (batch, k + 1) alpha and beta buffers and the n
    values to fill."""
    batch = max(1, min(n, _CHUNK_ELEMENTS // (k + 1)))
    return batch, np.empty((batch, k + 1)), np.empty((batch, k + 1)), np.empty(n)
