"""The points of a curve as scikit-learn reports them: ``drop_intermediate`` (the
points of the ROC curve that are not corners, dropped) and the DET curve (FPR against
FNR, only the points scikit-learn's ``det_curve`` keeps), and a ROC curve of one-class
data, NaN on the axis of the missing class, for users who ask for scikit-learn's
convention (docs/method.md#vocabulary).
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

import numpy as np

from .._lazy import lazy_module
from .._validation import (
    check_1d,
    check_choice,
    check_same_length,
    check_sample_weight,
    check_scores,
)
from ..exceptions import UndefinedMetricWarning
from ._counting import class_mask, cumulate, weighted_blocks

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = lazy_module("pandas")

__all__ = ["ONE_CLASS", "check_one_class", "det_points", "intermediate_kept", "one_class_roc"]

#: What a ROC curve of one-class data does: raise (the default) or give NaN.
ONE_CLASS = ("error", "nan")


def intermediate_kept(tps: np.ndarray, fps: np.ndarray) -> np.ndarray:
    """Indices (into ``thresholds``) of the points scikit-learn's ``roc_curve(
    drop_intermediate=True)`` keeps: the first, the last, and every point where the
    curve turns (the second differences of FP or TP are not both 0)."""
    if tps.size <= 2:
        return np.arange(tps.size)
    turn = np.logical_or(np.diff(fps, 2), np.diff(tps, 2))
    return np.flatnonzero(np.concatenate(([True], turn, [True])))


def det_points(
    thresholds: np.ndarray, tps: np.ndarray, fps: np.ndarray, drop_intermediate: bool = False
) -> pd.DataFrame:
    """The DET curve as scikit-learn's ``det_curve``: the curve's points with the start
    (threshold ``inf``, nothing positive) prepended, from the last point with as few
    false positives as the start to the first with no false negatives, in increasing
    threshold order. ``drop_intermediate`` drops the points where the true positives
    change neither before nor after (horizontal runs), as scikit-learn does."""
    thr = np.concatenate(([np.inf], np.asarray(thresholds, dtype=float)))
    tp = np.concatenate(([0], tps))
    fp = np.concatenate(([0], fps))
    if drop_intermediate and fp.size > 2:
        keep = np.concatenate(([True], np.logical_or(np.diff(tp[:-1]), np.diff(tp[1:])), [True]))
        thr, tp, fp = thr[keep], tp[keep], fp[keep]
    first = int(np.searchsorted(fp, fp[0], side="right")) - 1
    last = int(np.searchsorted(tp, tp[-1])) + 1
    sl = slice(first, last)
    P, N = tp[-1], fp[-1]
    return pd.DataFrame(
        {
            "threshold": thr[sl][::-1],
            "fpr": (fp[sl] / N)[::-1],
            "fnr": ((P - tp[sl]) / P)[::-1],
        }
    )


def one_class_roc(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any = None,
    sample_weight: Any = None,
) -> pd.DataFrame:
    """The ROC points of data that hold one class only, as scikit-learn's
    ``roc_curve``: the rate of the absent class is NaN, with an
    :class:`~opsstats.exceptions.UndefinedMetricWarning`. (A :class:`ScoreCurve`
    needs both classes; this is for ``ScoreCurve.roc_points(..., one_class="nan")``.)"""
    t = check_1d("y_true", y_true)
    s = check_scores("y_score", y_score)
    n = check_same_length(y_true=t, y_score=s)
    w = check_sample_weight(sample_weight, n)
    is_pos = class_mask(t, pos_label)
    weights = np.ones(n) if w is None else w
    thr, tp, fp = cumulate(*weighted_blocks(s, is_pos, weights))
    tps = np.concatenate(([0.0], tp))
    fps = np.concatenate(([0.0], fp))
    P, N = tps[-1], fps[-1]
    missing = "negative" if N == 0 else "positive"
    warnings.warn(
        f"No {missing} samples in `y_true`: the {'false' if N == 0 else 'true'} positive "
        "rate is undefined (0/0) and returned as NaN, as scikit-learn does.",
        UndefinedMetricWarning,
        stacklevel=3,
    )
    with np.errstate(divide="ignore", invalid="ignore"):
        fpr = fps / N if N > 0 else np.full(tps.size, np.nan)
        tpr = tps / P if P > 0 else np.full(tps.size, np.nan)
    return pd.DataFrame(
        {"threshold": np.concatenate(([np.inf], thr.astype(float))), "fpr": fpr, "tpr": tpr}
    )


def check_one_class(value: Any) -> str:
    return check_choice("one_class", value, ONE_CLASS)
