"""The best threshold of a curve: Youden's J and the point closest to the top-left
corner, with weights for costs and prevalence, as pROC's ``coords(x="best",
best.method=, best.weights=)`` (docs/method.md#vocabulary).

With ``weights = (cost, prevalence)`` (pROC's ``best.weights``: the cost of a false
negative relative to a false positive, and the prevalence the threshold is meant for)
r = (1 - prevalence) / (cost * prevalence); Youden's criterion se + r * sp is maximized
(pROC's ``youden`` column, which ScoreCurve.best_threshold calls ``proc_youden``; Youden's
J = se + sp - 1 is its ``youden``), the squared distance
(1 - se)**2 + r * (1 - sp)**2 to the corner minimized. Every tied optimum is returned.
se and sp are computed from the counts (tp / P, (N - fp) / N) so that ties between
points are found exactly.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import check_choice, check_real, describe
from ._partial import parse_partial

__all__ = [
    "BEST_METHODS",
    "check_best",
    "criterion",
    "in_range",
    "optimal",
    "proc_thresholds",
    "range_text",
]

#: Accepted ``method`` names of the best threshold (with ``_`` for ``.``).
BEST_METHODS = ("youden", "closest.topleft")


def check_best(method: Any, weights: Any) -> tuple[str, float]:
    """The method and r = (1 - prevalence) / (cost * prevalence) of ``weights``."""
    if isinstance(method, str):
        method = method.replace("_", ".").replace("-", ".")
    method = check_choice("method", method, BEST_METHODS)
    if isinstance(weights, str) or np.ndim(weights) != 1 or len(weights) != 2:
        raise TypeError(
            "`weights` must be a pair (cost, prevalence), as pROC's best.weights, "
            f"e.g. (1, 0.5); got {describe(weights)}."
        )
    cost = check_real("weights[0]", weights[0], low=0.0, low_open=True)
    prevalence = check_real(
        "weights[1]", weights[1], low=0.0, high=1.0, low_open=True, high_open=True
    )
    return method, (1.0 - prevalence) / (cost * prevalence)


def in_range(se: Any, sp: Any, fpr_range: Any, tpr_range: Any) -> np.ndarray:
    """The points whose FPR (``fpr_range``) or TPR (``tpr_range``) lies in the range,
    ends included, compared as pROC compares them for a roc object with a partial AUC:
    the specificity in ``[1 - high, 1 - low]``, or the sensitivity in ``[low, high]``
    (all points when both ranges are None; the ranges checked as
    :meth:`ScoreCurve.partial_auc` checks them)."""
    se, sp = np.asarray(se, dtype=float), np.asarray(sp, dtype=float)
    if fpr_range is None and tpr_range is None:
        return np.ones(se.shape, dtype=bool)
    params = {"fpr_range": fpr_range, "tpr_range": tpr_range}
    area = parse_partial({k: v for k, v in params.items() if v is not None})
    if area.axis == "fpr":
        return (sp >= 1.0 - area.high) & (sp <= 1.0 - area.low)
    return (se >= area.low) & (se <= area.high)


def range_text(fpr_range: Any, tpr_range: Any) -> str:
    """The range in words, for messages."""
    if fpr_range is not None:
        return f"false positive rate in {tuple(fpr_range)!r}"
    return f"true positive rate in {tuple(tpr_range)!r}"


def criterion(method: str, r: float, se: Any, sp: Any) -> np.ndarray:
    """pROC's ``youden`` (se + r sp) or ``closest.topleft`` ((1 - se)**2 + r (1 - sp)**2)."""
    se, sp = np.asarray(se, dtype=float), np.asarray(sp, dtype=float)
    if method == "youden":
        return se + r * sp
    return (1.0 - se) ** 2 + r * (1.0 - sp) ** 2


def optimal(method: str, r: float, se: Any, sp: Any, valid: Any = None) -> np.ndarray:
    """Boolean mask of the optima along the last axis (maximum of Youden's criterion,
    minimum of the distance), among the ``valid`` points."""
    c = criterion(method, r, se, sp)
    if method != "youden":
        c = -c
    if valid is not None:
        c = np.where(valid, c, -np.inf)
    return c == c.max(axis=-1, keepdims=True)


def proc_thresholds(thresholds: np.ndarray) -> np.ndarray:
    """pROC's threshold of each curve point (J + 1 of them: ``inf``, then the midpoint
    between each distinct score and the next lower one, and ``-inf`` for the last
    point, where every row is positive). The rule "score >= midpoint" gives the same
    counts as "score >= the distinct score"."""
    thr = np.asarray(thresholds, dtype=float)
    mid = np.empty(thr.size + 1)
    mid[0] = np.inf
    mid[1:-1] = (thr[:-1] + thr[1:]) / 2.0
    mid[-1] = -np.inf
    return mid
