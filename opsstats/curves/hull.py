"""The ROC convex hull of one or several classifiers, iso-performance lines, the
optimal operating point for given costs and prevalence, and calibration by the hull
(docs/method.md#vocabulary; the evaluation-metrics notes, sections 2.3-2.7, after
Provost and Fawcett 2001 and Fawcett 2006).

* The ROC convex hull (ROCCH) is the upper-left boundary of the convex hull of every
  classifier's ROC points with (0, 0) and (1, 1): the points no mixture of other points
  beats for any skew. A point of a curve is *on* the hull when it is a vertex or lies on
  an edge.
* The skew ratio r_s = (N / P) (c_FP / c_FN) (class ratio times cost ratio). The
  expected cost pi c_FN (1 - TPR) + (1 - pi) c_FP FPR is constant along the lines
  TPR = r_s FPR + b (iso-cost lines), accuracy along TPR = r_s FPR + b with the class
  ratio alone (iso-accuracy), precision along TPR = r_s p / (1 - p) FPR (iso-precision,
  through the origin). The point of least expected cost is the hull vertex that the
  iso-cost line of slope r_s touches first when slid down from the top-left corner.
* Calibration by the hull: isotonic regression of the labels on the scores by
  pool-adjacent-violators (PAV). Each pooled block of scores gets the share of positives
  in it; the ROC curve of the calibrated scores is the convex hull of the original
  curve (its concavities become straight segments).

The notes print the skew-sensitive accuracy as (TPR + (1 - r_s) FPR) / (1 + r_s); from
the counts it is (TPR + r_s (1 - FPR)) / (1 + r_s), which is used here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from .._lazy import lazy_module
from .._validation import check_choice, check_instance, check_probability, check_real, describe
from .score_curve import ScoreCurve

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = lazy_module("pandas")

__all__ = [
    "ISO_METRICS",
    "IsoLine",
    "calibrate",
    "calibrated_curve",
    "iso_line",
    "optimal_point",
    "roc_hull",
    "skew_ratio",
]

#: Metrics with iso-performance lines in ROC space.
ISO_METRICS = ("accuracy", "precision", "cost")

_EPS = 1e-12


def _curves(curves: Any) -> list[ScoreCurve]:
    if isinstance(curves, ScoreCurve):
        return [curves]
    if isinstance(curves, Sequence) and curves and all(isinstance(c, ScoreCurve) for c in curves):
        return list(curves)
    raise TypeError(
        f"`curves` must be a ScoreCurve or a non-empty list of ScoreCurves; got {describe(curves)}."
    )


def _points(curves: list[ScoreCurve]) -> pd.DataFrame:
    frames = []
    for i, c in enumerate(curves):
        roc = c.roc()
        roc["classifier"] = i
        frames.append(roc)
    return pd.concat(frames, ignore_index=True)


def _upper_hull(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Indices of the upper hull's vertices (Andrew's monotone chain over the points
    sorted by x, then y, ascending): from (0, 0) up the FPR = 0 axis and round to
    (1, 1); collinear and repeated points are not vertices."""
    order = np.lexsort((y, x))
    hull: list[int] = []
    for i in order:
        while len(hull) >= 2:
            a, b = hull[-2], hull[-1]
            cross = (x[b] - x[a]) * (y[i] - y[a]) - (y[b] - y[a]) * (x[i] - x[a])
            if cross >= -_EPS:  # no clockwise turn at b: b is not a vertex
                hull.pop()
            else:
                break
        if hull and x[hull[-1]] == x[i] and y[hull[-1]] == y[i]:
            continue  # the same point again
        hull.append(i)
    return np.array(hull)


def roc_hull(curves: Any) -> pd.DataFrame:
    """The ROC convex hull of one or several curves, and which points lie on it.

    Parameters
    ----------
    curves : ScoreCurve or list of ScoreCurve

    Returns
    -------
    pandas.DataFrame
        Every ROC point of every curve: ``classifier`` (its index in ``curves``),
        ``threshold``, ``fpr``, ``tpr``, ``vertex`` (a vertex of the hull) and
        ``on_hull`` (a vertex or on an edge, within 1e-12), sorted by FPR, then TPR.
        ``df[df.vertex]`` is the hull from (0, 0) to (1, 1).

    Examples
    --------
    >>> c = ScoreCurve.from_scores([1, 0, 1, 1, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.5, 0.4])
    >>> h = roc_hull(c)
    >>> h[h.vertex][["fpr", "tpr"]].round(3).values.tolist()
    [[0.0, 0.0], [0.0, 0.333], [0.333, 1.0], [1.0, 1.0]]
    """
    pts = _points(_curves(curves))
    x, y = pts["fpr"].to_numpy(float), pts["tpr"].to_numpy(float)
    hull = _upper_hull(x, y)
    hx, hy = x[hull], y[hull]
    vertex = np.zeros(x.size, bool)
    vertex[hull] = True
    # on an edge: the hull's TPR at the point's FPR (its highest, on the FPR = 0 axis)
    # equals the point's TPR
    on_edge = np.abs(np.interp(x, hx, hy) - y) <= _EPS
    on_edge |= (x == 0) & (y <= hy[hx == 0].max())
    pts["vertex"] = vertex
    pts["on_hull"] = vertex | on_edge
    # among duplicated vertices (the same point on two curves or thresholds) one is kept
    return pts.sort_values(["fpr", "tpr"], kind="stable").reset_index(drop=True)


def skew_ratio(prevalence: float, cost_fp: float = 1.0, cost_fn: float = 1.0) -> float:
    """r_s = ((1 - pi) / pi) (c_FP / c_FN): class ratio N / P times cost ratio."""
    pi = check_probability("prevalence", prevalence)
    if not 0 < pi < 1:
        raise ValueError(f"`prevalence` must be in (0, 1) for a skew ratio; got {pi!r}.")
    c_fp = check_real("cost_fp", cost_fp, low=0.0, low_open=True)
    c_fn = check_real("cost_fn", cost_fn, low=0.0, low_open=True)
    return (1.0 - pi) / pi * c_fp / c_fn


@dataclass(frozen=True)
class IsoLine:
    """The iso-performance line TPR = slope FPR + intercept in ROC space."""

    metric: str
    value: float
    slope: float
    intercept: float

    def tpr(self, fpr: Any) -> np.ndarray:
        return self.slope * np.asarray(fpr, dtype=float) + self.intercept


def iso_line(metric: str, value: float, skew: float) -> IsoLine:
    """The iso-performance line of ``metric`` = ``value`` for the skew ratio ``skew``.

    ``"accuracy"`` (skew = N / P): TPR = r FPR + (1 + r) acc - r.
    ``"precision"`` (skew = N / P): TPR = r p / (1 - p) FPR.
    ``"cost"``: the normalized expected cost (c_FN (1 - TPR) + r c_FN FPR) / c_FN ... in
    units of pi c_FN: value = (1 - TPR) + r FPR, so TPR = r FPR + 1 - value (skew = the
    skew ratio with costs).

    Examples
    --------
    >>> line = iso_line("accuracy", 0.8, 4.0)     # N = 4 P
    >>> float(line.tpr(0.1))                      # TPR 0.4 + 0.6 ... at FPR 0.1
    0.4
    """
    metric = check_choice("metric", metric, ISO_METRICS)
    r = check_real("skew", skew, low=0.0, low_open=True)
    v = check_real("value", value)
    if metric == "accuracy":
        if not 0 <= v <= 1:
            raise ValueError(f"`value` of an accuracy must be in [0, 1]; got {v!r}.")
        return IsoLine(metric, v, r, (1 + r) * v - r)
    if metric == "precision":
        if not 0 <= v < 1:
            raise ValueError(
                f"`value` of a precision must be in [0, 1) for a line of finite slope; got {v!r}."
            )
        return IsoLine(metric, v, r * v / (1 - v), 0.0)
    if v < 0:
        raise ValueError(f"`value` of an expected cost must be >= 0; got {v!r}.")
    return IsoLine(metric, v, r, 1.0 - v)


def optimal_point(
    curves: Any, prevalence: float, cost_fp: float = 1.0, cost_fn: float = 1.0
) -> pd.Series:
    """The operating point of least expected cost among the curves' points, read off the
    hull: the vertex maximizing TPR - r_s FPR (the first when tied).

    Returns
    -------
    pandas.Series
        ``classifier``, ``threshold``, ``fpr``, ``tpr``, ``expected_cost`` (per row:
        pi c_FN (1 - TPR) + (1 - pi) c_FP FPR) and ``skew_ratio``.

    Examples
    --------
    >>> c = ScoreCurve.from_scores([1, 0, 1, 1, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.5, 0.4])
    >>> p = optimal_point(c, prevalence=0.5)
    >>> float(p.threshold), round(float(p.expected_cost), 4)
    (0.6, 0.1667)
    """
    r = skew_ratio(prevalence, cost_fp, cost_fn)
    hull = roc_hull(curves)
    v = hull[hull["vertex"]]
    gain = v["tpr"].to_numpy() - r * v["fpr"].to_numpy()
    best = v.iloc[int(np.argmax(gain))].copy()
    pi = float(prevalence)
    best["expected_cost"] = pi * cost_fn * (1 - best["tpr"]) + (1 - pi) * cost_fp * best["fpr"]
    best["skew_ratio"] = r
    return best[["classifier", "threshold", "fpr", "tpr", "expected_cost", "skew_ratio"]]


def _pav(pos: np.ndarray, neg: np.ndarray) -> np.ndarray:
    """Pool-adjacent-violators on blocks in increasing score order: the share of
    positives of each pooled block, non-decreasing, one value per input block."""
    values: list[float] = []
    weights: list[float] = []
    sizes: list[int] = []
    for p, n in zip(pos.tolist(), neg.tolist(), strict=True):
        values.append(p / (p + n))
        weights.append(p + n)
        sizes.append(1)
        while len(values) > 1 and values[-2] >= values[-1]:
            w = weights[-2] + weights[-1]
            v = (values[-2] * weights[-2] + values[-1] * weights[-1]) / w
            k = sizes[-2] + sizes[-1]
            del values[-1], weights[-1], sizes[-1]
            values[-1], weights[-1], sizes[-1] = v, w, k
    return np.repeat(values, sizes)


def calibrate(curve: ScoreCurve) -> pd.DataFrame:
    """Isotonic (PAV) calibration of the curve's scores: the calibrated probability of
    each distinct score (increasing order).

    Returns
    -------
    pandas.DataFrame
        ``score`` (increasing), ``calibrated`` (non-decreasing, in [0, 1]), ``positives``,
        ``negatives``.

    Examples
    --------
    >>> c = ScoreCurve.from_scores([1, 0, 1, 1, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.5, 0.4])
    >>> calibrate(c)["calibrated"].round(3).tolist()
    [0.0, 0.0, 0.667, 0.667, 0.667, 1.0]
    """
    check_instance("curve", curve, ScoreCurve)
    pos = np.diff(np.asarray(curve.tps), prepend=0)[::-1].astype(float)
    neg = np.diff(np.asarray(curve.fps), prepend=0)[::-1].astype(float)
    return pd.DataFrame(
        {
            "score": np.asarray(curve.thresholds)[::-1],
            "calibrated": _pav(pos, neg),
            "positives": pos,
            "negatives": neg,
        }
    )


def calibrated_curve(curve: ScoreCurve) -> ScoreCurve:
    """The curve of the calibrated scores (tied where PAV pooled them): its ROC curve is
    the convex hull of ``curve``'s, its AUC the area under the hull."""
    cal = calibrate(curve)
    return ScoreCurve.from_counts(cal["calibrated"], cal["positives"], cal["negatives"])
