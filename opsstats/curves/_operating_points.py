"""Operating points of a :class:`~opsstats.curves.score_curve.ScoreCurve`: the counts at
a threshold or for the top K rows, as functions of the curve's arrays.

``thresholds`` (strictly decreasing) and the cumulative counts ``tps`` and ``fps`` go
in; the true and false positives of one rule come out, from which the curve builds its
confusion matrix. A top K that ends inside a block of tied scores is resolved by one of
:data:`TOP_K_TIES`; ``"interpolate"`` gives the expected counts of a random order of the
block, the matrix whose metrics the eq. 9 interpolation in the rate reads off the curve
(docs/method.md#operating-points).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import check_positive_int, check_real, threshold_for
from ._counting import scalar

__all__ = [
    "TOP_K_TIES",
    "check_top_k",
    "counts_at_position",
    "counts_at_threshold",
    "counts_at_top_k",
    "top_k_position",
]

#: How ``confusion_matrix(top_k=K)`` treats a tie block that straddles the K-th row.
TOP_K_TIES = ("interpolate", "include", "exclude")


def check_top_k(top_k: Any, n: int | float, is_integer: bool) -> float:
    """K of a top-K rule: a positive integer for whole counts, a positive real (weight
    units) otherwise; at most ``n``, the number of rows (total weight)."""
    k: float
    if is_integer:
        k = check_positive_int("top_k", top_k)
    else:
        k = check_real("top_k", top_k, low=0.0, low_open=True)
    if k > n:
        raise ValueError(
            f"`top_k` must be at most the number of rows n = {n!r} "
            f"(the total weight for weighted data); got {top_k!r}."
        )
    return k


def counts_at_threshold(
    thresholds: np.ndarray, tps: np.ndarray, fps: np.ndarray, t: float
) -> tuple[int | float, int | float]:
    """(TP, FP) of the rule "predict positive where score >= t".

    The comparison is exact whatever the sizes (integer scores are compared with
    ``ceil(t)`` in integers, see :func:`opsstats._validation.threshold_for`)."""
    at: Any = threshold_for(thresholds.dtype, t)
    if thresholds.dtype.kind in "iu":
        if at > int(thresholds[0]):
            return 0, 0
        if at <= int(thresholds[-1]):
            return scalar(tps[-1]), scalar(fps[-1])
        at = np.asarray(at, dtype=thresholds.dtype)
    k = thresholds.size - int(np.searchsorted(thresholds[::-1], at, "left"))
    return (scalar(tps[k - 1]), scalar(fps[k - 1])) if k else (0, 0)


def top_k_position(tps: np.ndarray, fps: np.ndarray, K: float, ties: str) -> tuple[int, float]:
    """Where the K highest-scoring rows end: the first tie block j reaching K and the
    share f of it taken (1 the whole block, 0 none, between them the fraction
    (K - before) / (block size) of ``"interpolate"``), a block straddling the K-th row
    resolved by ``ties`` (one of :data:`TOP_K_TIES`)."""
    total = tps + fps
    j = int(np.searchsorted(total, K, side="left"))  # first block reaching K
    if total[j] == K or ties == "include":
        return j, 1.0
    if ties == "exclude":
        return j, 0.0
    before = total[j - 1] if j else 0
    return j, float((K - before) / (total[j] - before))


def counts_at_position(
    tps: np.ndarray, fps: np.ndarray, j: int, f: float
) -> tuple[int | float, int | float]:
    """(TP, FP) after the blocks before j and the share f of block j
    (:func:`top_k_position`): whole counts where f is 0 or 1."""
    tp_prev, fp_prev = (scalar(tps[j - 1]), scalar(fps[j - 1])) if j else (0, 0)
    if f == 1.0:
        return scalar(tps[j]), scalar(fps[j])
    if f == 0.0:
        return tp_prev, fp_prev
    return tp_prev + f * (scalar(tps[j]) - tp_prev), fp_prev + f * (scalar(fps[j]) - fp_prev)


def counts_at_top_k(
    tps: np.ndarray, fps: np.ndarray, K: float, ties: str
) -> tuple[int | float, int | float]:
    """(TP, FP) of the K highest-scoring rows, a tie block straddling the K-th row
    resolved by ``ties`` (one of :data:`TOP_K_TIES`)."""
    return counts_at_position(tps, fps, *top_k_position(tps, fps, K, ties))
