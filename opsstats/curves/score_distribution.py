"""Score-distribution measures of Chtcheprov, Krovvidy and Vera.

The measures describe how the scores of the positive and negative classes are spread
over [0, 1], through their (empirical, possibly weighted) distribution functions F+ and
F-: the score distance measures DM (eqs. 4-6), the recall unit interval RUI (eq. 8), the
area under the recall-threshold curve AURC (eq. 9), the precision unit interval PUI
(eq. 13), the normalized area under the precision-threshold curve AUPC (eq. 14) and the
error-ratio curve (eq. 15).

Each function takes a :class:`~opsstats.curves.ScoreCurve` (its thresholds are the
distinct scores, its counts give the class masses at each score), and the same
functions are methods of the curve: ``curve.dm("entropy")`` is ``dm(curve, "entropy")``.
For raw data build the curve first: ``ScoreCurve.from_scores(y_true, y_score)``. Every
measure is computed exactly from the step functions F+ and F- (no numerical
integration) and needs scores in [0, 1].

References
----------
.. [1] A. Chtcheprov, S. Krovvidy and H. Vera, "Analysis of binary classification
   metrics using empirical distributions of prediction scores".
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from .._lazy import lazy_module
from .._validation import check_instance, describe
from ..metrics import resolve_metric
from . import _geometry as geo
from ._curve_interface import _CurveInterface

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from .score_curve import ScoreCurve
else:
    pd = lazy_module("pandas")

__all__ = ["KERNELS", "dm", "rui", "aurc", "pui", "aupc", "error_ratio", "score_measures"]

_LN2 = math.log(2.0)

#: The kernels K(s) of the DM measures (eq. 6): K(0) = 0, K(1) = 1, K increasing.
KERNELS: dict[int | str, tuple[str, Callable[[np.ndarray], np.ndarray]]] = {
    1: ("DM_1", lambda s: s),
    2: ("DM_2", lambda s: s**2),
    3: ("DM_3", lambda s: s**3),
    "entropy": ("DM_entropy", lambda s: np.log1p(s) / _LN2),
    "log": ("DM_log", lambda s: (1.0 + s) * np.log1p(s) / (2.0 * _LN2)),
}


def _unit_scores(curve: ScoreCurve) -> np.ndarray:
    """The curve's distinct scores (decreasing), checked to lie in [0, 1]."""
    check_instance("curve", curve, _CurveInterface, "a ScoreCurve")
    thr = curve.thresholds
    if curve.direction.startswith(">"):
        raise ValueError(
            "the score-distribution measures need scores where higher means positive "
            f"(direction '<'); this curve has direction {curve.direction!r}."
        )
    if thr[-1] < 0.0 or thr[0] > 1.0:
        raise ValueError(
            "the score-distribution measures need scores in [0, 1] "
            "(`y_score` of from_scores, `thresholds` of from_counts); got scores "
            f"from {float(thr[-1])!r} to {float(thr[0])!r}."
        )
    return thr


def _masses(curve: ScoreCurve) -> tuple[np.ndarray, np.ndarray]:
    """Counts (weights) of positives and negatives at each distinct score."""
    return (
        np.diff(curve.tps, prepend=0).astype(float),
        np.diff(curve.fps, prepend=0).astype(float),
    )


def dm(curve: ScoreCurve, kernel: int | str = 1) -> float:
    """Score distance measure DM[K] (Chtcheprov et al., eqs. 4-6).

    Parameters
    ----------
    curve : ScoreCurve
        Scores in [0, 1].
    kernel : {1, 2, 3, "entropy", "log"}, default 1
        K(s) = s, s^2, s^3 (DM_1, DM_2, DM_3, eq. 6a), ln(1+s)/ln 2 (DM_entropy, eq. 6b)
        or (1+s) ln(1+s)/(2 ln 2) (DM_log, eq. 6c).

    Returns
    -------
    float
        In [-1, 1]; 0 when the two classes' scores have the same distribution, 1 when
        every positive scores 1 and every negative 0.

    Notes
    -----
    Eq. 5 defines DM = int_0^1 [F-(s) - F+(s)] K'(s) ds. With empirical distribution
    functions the integrand is a step function times K': on each piece between two
    consecutive distinct scores v_j <= s < v_{j+1}, F- - F+ is a constant c_j, so the
    piece contributes exactly c_j [K(v_{j+1}) - K(v_j)]. Summing the pieces by parts
    (each score v contributes int_v^1 K'(s) ds = K(1) - K(v)) gives eq. 4 in closed form,

        DM = mean K(s+) - mean K(s-),

    the difference of the classes' mean kernel values (weighted means with
    ``sample_weight``), which is what is computed: exact, with no integration grid.
    DM_1 is the difference of the mean scores.

    Examples
    --------
    >>> from opsstats.curves import ScoreCurve
    >>> curve = ScoreCurve.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> round(curve.dm(), 4)                  # (0.35 + 0.8)/2 - (0.1 + 0.4)/2
    0.325
    >>> round(curve.dm(2), 5)                 # (0.35**2 + 0.8**2)/2 - (0.1**2 + 0.4**2)/2
    0.29625
    >>> round(curve.dm("entropy"), 4)
    0.329
    """
    if isinstance(kernel, bool | np.bool_) or kernel not in KERNELS:
        raise ValueError(
            f"`kernel` must be one of {', '.join(map(repr, KERNELS))}; got {describe(kernel)}."
        )
    v = _unit_scores(curve)
    pos, neg = _masses(curve)
    k = KERNELS[kernel][1](v)
    return float(k @ pos / curve.n_positive - k @ neg / curve.n_negative)


def rui(curve: ScoreCurve) -> float:
    """Recall unit interval RUI = t_R (Chtcheprov et al., eq. 8).

    Recall as a function of the threshold, Re(t) = 1 - F+(t), equals 1 on [0, t_R),
    where t_R is the lowest positive score; RUI = 1 - lambda(supp F+) = t_R, the length
    of that interval.

    Examples
    --------
    >>> from opsstats.curves import ScoreCurve
    >>> ScoreCurve.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]).rui()
    0.35
    """
    thr = _unit_scores(curve)
    last = int(np.searchsorted(curve.tps, curve.tps[-1], side="left"))  # lowest positive
    return float(thr[last])


def aurc(curve: ScoreCurve) -> float:
    """Area under the recall-threshold curve (Chtcheprov et al., eq. 9).

    AURC = int_0^1 Re(s) ds = int_0^1 [1 - F+(s)] ds, which for scores in [0, 1] is
    exactly the mean positive score (weighted with ``sample_weight``).

    Examples
    --------
    >>> from opsstats.curves import ScoreCurve
    >>> ScoreCurve.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]).aurc()
    0.575
    """
    v = _unit_scores(curve)
    pos, _ = _masses(curve)
    return float(v @ pos / curve.n_positive)


def pui(curve: ScoreCurve) -> float:
    """Precision unit interval PUI (Chtcheprov et al., eq. 13).

    PUI = lambda{t in [0, 1] : F-(t) = 1} = 1 - (the highest negative score): the length
    of the threshold interval where no negative scores above the threshold.

    Examples
    --------
    >>> from opsstats.curves import ScoreCurve
    >>> ScoreCurve.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]).pui()
    0.6
    """
    thr = _unit_scores(curve)
    first = int(np.searchsorted(curve.fps, 0, side="right"))  # highest negative score
    return float(1.0 - thr[first])


def aupc(curve: ScoreCurve) -> float:
    """Normalized area under the precision-threshold curve (Chtcheprov et al., eq. 14).

    AUPC = (int_0^1 Pr(t) dt - Pr(0)) / (1 - Pr(0)) = (1 + b) int_0^1 Pr(t) dt - b, with
    b = N+ / N- and Pr(0) = b / (1 + b), the prevalence.

    Notes
    -----
    Pr(t) (eq. 10) is the precision of predicting positive where score > t; with
    empirical F+ and F- it is a step function. With the distinct scores
    d_1 > d_2 > ... > d_J and d_{J+1} = 0, on the piece d_{k+1} <= t < d_k it is the
    precision of the rule "score >= d_k" (so Pr = prevalence below the lowest score).
    Above the highest score, on [d_1, 1], Pr is 0/0 (nothing predicted positive); it is
    given the value of its left limit, the precision of the top tie block, which is the
    empirical form of the paper's L'Hospital limit (eq. 11): (1 + f-/(b f+))^{-1} with
    the densities replaced by the class masses at d_1. So, exactly,

        int_0^1 Pr = sum_k Pr_k (d_k - d_{k+1}) + Pr_1 (1 - d_1),

    with the precisions Pr_k of the curve's points (:func:`~opsstats.curves._geometry.
    curve_xy`). When the highest score is 1 the 0/0 piece has no width. AUPC is 0 when
    the classes' scores have the same distribution and 1 for f+ = delta(1), f- =
    delta(0); for the reverse, f+ = delta(0), f- = delta(1), it is -b (not -1 as the
    paper states, unless the classes are balanced).

    Examples
    --------
    >>> from opsstats.curves import ScoreCurve
    >>> round(ScoreCurve.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]).aupc(), 4)
    0.6833
    >>> ScoreCurve.from_scores([0, 1], [0.0, 1.0]).aupc()
    1.0
    """
    d = _unit_scores(curve)
    pi = curve.prevalence
    _, precision = geo.curve_xy("pr", pi, curve.alpha, curve.beta)
    precision = precision[1:]  # drop the 0/0 point at +inf
    width = d - np.append(d[1:], 0.0)
    integral = precision @ width + precision[0] * (1.0 - d[0])
    return float((integral - pi) / (1.0 - pi))


def error_ratio(curve: ScoreCurve) -> pd.DataFrame:
    """The error-ratio curve e_r(t) = e(t) / e_tr (Chtcheprov et al., eq. 15).

    e(t) is the misclassification error of predicting positive where score > t and e_tr
    = N+ / (N+ + N-) the error of predicting every row negative (the prevalence):
    e_r(t) = N-/N+ + F+(t) - (N-/N+) F-(t).

    Returns
    -------
    pandas.DataFrame
        Columns ``threshold``, ``error_rate``, ``error_ratio``, one row per piece of the
        step function, by increasing threshold: row k holds for ``threshold[k] <= t <
        threshold[k + 1]`` (the last row up to t = 1, where e_r = 1). The first row starts
        at t = 0 (every row predicted positive, e_r = N-/N+) unless the lowest score is
        0.

    Examples
    --------
    >>> from opsstats.curves import ScoreCurve
    >>> ScoreCurve.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]).error_ratio()
       threshold  error_rate  error_ratio
    0       0.00        0.50          1.0
    1       0.10        0.25          0.5
    2       0.35        0.50          1.0
    3       0.40        0.25          0.5
    4       0.80        0.50          1.0
    """
    d = _unit_scores(curve)
    pi = curve.prevalence
    # The piece starting at d_k predicts "score >= d_{k-1}" positive: the curve point
    # before d_k; the piece starting at 0 predicts every row positive (the last point).
    err = np.asarray(resolve_metric("error_rate")(pi, curve.alpha, curve.beta))[::-1]
    start = np.concatenate(([0.0], d[::-1]))
    if d[-1] == 0.0:  # the piece [0, 0) is empty
        start, err = start[1:], err[1:]
    return pd.DataFrame({"threshold": start, "error_rate": err, "error_ratio": err / pi})


def score_measures(curve: ScoreCurve) -> pd.Series:
    """Every scalar score-distribution measure: DM_1, DM_2, DM_3, DM_entropy, DM_log,
    RUI, AURC, PUI and AUPC, as a Series.

    Examples
    --------
    >>> from opsstats.curves import ScoreCurve
    >>> ScoreCurve.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]).score_measures().round(4)
    DM_1          0.3250
    DM_2          0.2962
    DM_3          0.2449
    DM_entropy    0.3290
    DM_log        0.3200
    RUI           0.3500
    AURC          0.5750
    PUI           0.6000
    AUPC          0.6833
    dtype: float64
    """
    values: dict[str, Any] = {name: dm(curve, k) for k, (name, _) in KERNELS.items()}
    values.update(RUI=rui(curve), AURC=aurc(curve), PUI=pui(curve), AUPC=aupc(curve))
    return pd.Series(values, dtype=float)
