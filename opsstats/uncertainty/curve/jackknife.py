"""``method="jackknife"``: the exact stratified jackknife of a curve quantity, and its
intervals.

The stratified (two-sample) jackknife variance of a curve area, V = V1 + V0, one
component per class, Vc = (m - 1) / m * sum (theta_(i) - mean)**2 over the m
leave-one-row-out values of class c (Arvesen 1969), all computed exactly in O(J) from
the at most 2J distinct leave-one-out curves (:func:`_jackknife`). For the trapezoid
ROC AUC, V is DeLong's variance exactly; for the PR AUC (average precision) it is the
same construction for a statistic with no closed-form variance. Intervals ``"normal"``
(clipped to [0, 1] for the ROC and PR areas) and ``"logit-t"``, ``expit(logit(est) -+
t * sqrt(V) / (est (1 - est)))`` with (k - 1) V**2 / (V1**2 + V0**2) degrees of
freedom, k the smaller class's size (Welch-Satterthwaite with k - 1 for each
component: each class's leave-one-out values also depend on the other class's rows, so
neither component carries more information than the smaller class). Areas only: a
value at an operating point is quantile-like, and the jackknife variance of a
non-smooth statistic is not consistent.

The leave-one-out values also give the bootstrap's BCa acceleration
(:mod:`~opsstats.uncertainty.curve.resampling`) and the bias estimate of the Dirichlet
posterior's bias-extended interval (:mod:`~opsstats.uncertainty.curve.dirichlet`).
Perfect separation is read off the counts (:func:`_separation`), not off a rounded area:
it puts the estimate exactly on its bound, where the logit-t intervals are one-sided
(:func:`_at_bound`), and it leaves a PR area with every negative on top a jackknife
variance of 0, and so no logit-t interval.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from ..._lazy import lazy_module
from ...curves import _geometry as geo
from ...curves._geometry import CurveArea
from ...curves._partial import PartialArea
from ._cells import _cell_mode, _Cells
from ._options import _check_whole_counts, _logit_t, _unit_area, _warn_no_width

if TYPE_CHECKING:
    from scipy import special
else:
    special = lazy_module("scipy.special")

__all__: list[str] = []


def _segments(
    quantity: CurveArea | PartialArea,
    pi: float,
    a0: np.ndarray,
    b0: np.ndarray,
    a1: np.ndarray,
    b1: np.ndarray,
) -> np.ndarray:
    """Each segment's share of an area: the area of the two-point curve (a0, b0) ->
    (a1, b1). Both rules (and the NAUC normalization) are sums over segments of a
    function of the segment's two ends, so shares add up to the area."""
    return quantity(pi, np.stack((a0, a1), axis=-1), np.stack((b0, b1), axis=-1))


class _Jackknife(NamedTuple):
    """Leave-one-out values per (cell, class) type of row, by class: ``values[c]`` and
    ``weights[c]`` (how many rows of that type) for c = 0 (positives), 1 (negatives).
    A value is NaN where leaving the row out makes the quantity undefined; a class of
    fewer than 2 rows has no entries (leaving its row out removes the class)."""

    values: tuple[np.ndarray, np.ndarray]
    weights: tuple[np.ndarray, np.ndarray]

    def pooled(self) -> tuple[np.ndarray, np.ndarray]:
        """Both classes' defined values and weights together (the BCa acceleration)."""
        v, w = np.concatenate(self.values), np.concatenate(self.weights)
        ok = ~np.isnan(v)
        return v[ok], w[ok]


def _jackknife(curve: Any, quantity: Any, fixed_prevalence: bool = False) -> _Jackknife:
    """Leave-one-out values of the quantity for every (cell, class) type of row and how
    many rows each type has, in O(k) geometry work (no per-row curves).

    Each leave-one-out curve is read at its own prevalence (one row fewer), or, with
    ``fixed_prevalence`` or for a standardized curve's sampling view (whose prevalence
    is a stated constant), at the curve's (the bias estimate of :func:`_bias_extended`:
    a change of prevalence is not a bias).

    Leaving out a positive of cell c (point index c; point 0 is the origin) shifts the
    cumulative positives of cells >= c down by one and makes P one smaller: the
    leave-one-out curve is curve A (the original counts, new totals) on points 0..c-1
    and curve S (the shifted counts, new totals) on points c..k; likewise for a
    negative. An area is then prefix(A) + segment(A_{c-1}, S_c) + suffix(S), prefix and
    suffix sums of per-segment shares. An operating point depends on the first point
    with x >= u and its left neighbour: that pair lies in A, in S or straddles the
    junction (A_{c-1}, S_c), and each case is evaluated by the shared geometry.
    """
    cells = _Cells(curve, _cell_mode(quantity))
    T, F = np.cumsum(cells.pos), np.cumsum(cells.neg)
    P, N = cells.P, cells.N
    fixed_prevalence = fixed_prevalence or getattr(curve, "origin", None) is not None
    values, weights = [np.empty(0), np.empty(0)], [np.empty(0), np.empty(0)]
    with np.errstate(divide="ignore", invalid="ignore"):
        for cls, positive in enumerate((True, False)):
            counts = cells.pos if positive else cells.neg
            if (P if positive else N) < 2:  # the class would vanish: undefined
                continue
            p2, n2 = (P - 1, N) if positive else (P, N - 1)
            pi2 = curve.prevalence if fixed_prevalence else p2 / (p2 + n2)
            a_A = np.concatenate(([0.0], F / n2))
            b_A = np.concatenate(([1.0], (p2 - T) / p2))
            if positive:
                a_S, b_S = a_A, np.concatenate(([1.0], (p2 - (T - 1)) / p2))
            else:
                a_S, b_S = np.concatenate(([0.0], (F - 1) / n2)), b_A
            c = np.flatnonzero(counts) + 1  # point index of each cell with rows
            if isinstance(quantity, CurveArea | PartialArea):
                seg_A = _segments(quantity, pi2, a_A[:-1], b_A[:-1], a_A[1:], b_A[1:])
                seg_S = _segments(quantity, pi2, a_S[:-1], b_S[:-1], a_S[1:], b_S[1:])
                prefix_A = np.concatenate(([0.0], np.cumsum(seg_A)))  # points 0..j
                suffix_S = np.concatenate((np.cumsum(seg_S[::-1])[::-1], [0.0]))
                cross = _segments(quantity, pi2, a_A[c - 1], b_A[c - 1], a_S[c], b_S[c])
                loo = prefix_A[c - 1] + cross + suffix_S[c]
            else:
                u = geo.axis_value(quantity)
                x_A = geo.x_coordinate(quantity.axis, pi2, a_A, b_A)
                x_S = geo.x_coordinate(quantity.axis, pi2, a_S, b_S)
                r_A = int(np.count_nonzero(x_A < u))  # first A point with x >= u
                r_S = int(np.count_nonzero(x_S[1:] < u)) + 1  # first S point (>= 1)
                v_A = float(geo.value_at(quantity, pi2, a_A, b_A))
                v_S = float(geo.value_at(quantity, pi2, a_S, b_S))
                in_A = r_A < c
                in_S = ~in_A & (r_S > c)
                loo = np.where(in_A, v_A, v_S)
                across = ~in_A & ~in_S
                if across.any():
                    cc = c[across]
                    loo[across] = geo.value_at(
                        quantity,
                        pi2,
                        np.stack((a_A[cc - 1], a_S[cc]), axis=-1),
                        np.stack((b_A[cc - 1], b_S[cc]), axis=-1),
                    )
            values[cls] = np.asarray(loo, dtype=float)
            weights[cls] = counts[c - 1].astype(float)
    return _Jackknife((values[0], values[1]), (weights[0], weights[1]))


def _separation(curve: Any) -> int:
    """+1 when every positive outscores every negative, -1 when every negative outscores
    every positive, else 0: read off the counts, since a rounded area can be 1 - 1e-16.
    At +1 a ROC or PR area is exactly 1; at -1 the ROC area is exactly 0."""
    tps, fps = np.asarray(curve.tps), np.asarray(curve.fps)
    if fps[np.argmax(tps >= tps[-1])] == 0:
        return 1
    if tps[np.argmax(fps >= fps[-1])] == 0:
        return -1
    return 0


def _at_bound(curve: Any, quantity: Any, estimate: float) -> float:
    """The estimate, set exactly to the bound it sits on at perfect separation (1 for a
    ROC or PR area; 0 for a ROC area with every negative on top), so that the logit-t
    interval's one-sided rule finds it."""
    separated = _separation(curve)
    if separated > 0:
        return 1.0
    if separated < 0 and quantity.curve == "roc":
        return 0.0
    return estimate


def _jackknife_interval(
    curve: Any, quantity: Any, level: float, estimate: float, kind: str
) -> tuple[float, float, str, dict[str, Any]]:
    """The stratified (two-sample) jackknife interval: ``"normal"`` or ``"logit-t"``.

    The variance is V = V1 + V0, one component per class: with the leave-one-row-out
    values theta_(i) of the m rows of a class and their mean, Vc = (m - 1) / m *
    sum (theta_(i) - mean)**2 (Arvesen 1969). For the trapezoid ROC AUC this is
    exactly DeLong's variance s10 / P + s01 / N. ``"logit-t"`` is ``expit(logit(est) -+
    t * sqrt(V) / (est (1 - est)))`` with (k - 1) (V1 + V0)**2 / (V1**2 + V0**2) degrees
    of freedom, k the smaller class's size: the Welch-Satterthwaite form with each
    component given k - 1 degrees of freedom, since each class's leave-one-out values
    are functions of the other class's rows too (between k - 1 and 2 (k - 1)).
    """
    _check_whole_counts(curve, "The jackknife")
    if not isinstance(quantity, CurveArea | PartialArea):
        raise ValueError(
            "the jackknife applies to curve areas; a value at an operating "
            f"point ({quantity.label}) is a non-smooth, quantile-like "
            "statistic whose jackknife variance is not consistent. Use "
            "method='bootstrap'."
        )
    P, N = round(curve.n_positive), round(curve.n_negative)
    if min(P, N) < 2:
        raise ValueError(
            "the jackknife needs at least 2 positives and 2 negatives (leaving "
            "out the only row of a class removes the class); got "
            f"{P} positive(s) and {N} negative(s)."
        )
    jack = _jackknife(curve, quantity)
    parts = []
    for values, weights in zip(jack.values, jack.weights, strict=True):
        m = weights.sum()
        mean = np.sum(weights * values) / m
        parts.append(float((m - 1) / m * np.sum(weights * (values - mean) ** 2)))
    v1, v0 = parts
    variance = v1 + v0
    details = {
        "variance": variance,
        "standard_error": float(np.sqrt(variance)),
        "variance_positives": v1,
        "variance_negatives": v0,
        "interval": kind,
    }
    text = "stratified jackknife (leave one row out)"
    if np.isnan(variance):
        warnings.warn(
            f"{quantity.label} is undefined on a curve with one row left out "
            f"of {curve!r}: the jackknife variance and interval are undefined "
            "(NaN). Use method='bootstrap'.",
            UserWarning,
            stacklevel=4,
        )
        return float("nan"), float("nan"), text, details
    if kind == "logit-t":
        k = min(P, N)
        if quantity.curve != "roc" and _separation(curve) < 0:
            # every row of a class is interchangeable: each class's leave-one-out values
            # are equal and the variance is 0 up to rounding
            warnings.warn(
                f"Every negative scores above every positive on {curve!r}: the "
                f"jackknife variance of {quantity.label} is 0 and the logit-t "
                "interval undefined (NaN).",
                UserWarning,
                stacklevel=4,
            )
            return float("nan"), float("nan"), text, details
        estimate = _at_bound(curve, quantity, estimate)
        df = (k - 1) * variance**2 / (v1 * v1 + v0 * v0) if variance > 0 else float("nan")
        se_logit = (
            np.sqrt(variance) / (estimate * (1 - estimate)) if 0 < estimate < 1 else float("nan")
        )
        low, high, how = _logit_t(estimate, se_logit, df, level, k)
        if np.isnan(low):
            warnings.warn(
                f"The jackknife variance of {quantity.label} is 0 on {curve!r}: "
                "the logit-t interval is undefined (NaN).",
                UserWarning,
                stacklevel=4,
            )
        details["df"] = df
        return low, high, f"{text}, logit scale, {how}", details
    half = float(special.ndtri(0.5 + level / 2)) * np.sqrt(variance)
    low, high = estimate - half, estimate + half
    if variance == 0:
        _warn_no_width(
            curve,
            quantity,
            low,
            high,
            f"The jackknife variance of {quantity.label} is 0 (every row of a class "
            "leaves it unchanged: every positive scores above every negative, or every "
            "one below)",
        )
    if _unit_area(quantity) and (low < 0.0 or high > 1.0):
        low, high = max(low, 0.0), min(high, 1.0)
        text += ", clipped to [0, 1]"
    return float(low), float(high), f"{text}, normal", details
