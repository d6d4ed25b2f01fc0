"""Outperformance scores of confusion matrices and curves, and standardized curves.

The functions here take an observed object, compute its metric value with the *same*
definition the reference uses (the registry for confusion-matrix metrics; the same
curve geometry and AUC rule for curves), and rank it against a reference
distribution. ``ConfusionMatrix.ops`` and ``ScoreCurve.ops`` call them.
"""

from __future__ import annotations

import numbers
import warnings
from typing import TYPE_CHECKING, Any

import numpy as np

from ._lazy import lazy_module
from ._validation import (
    MAX_GRID_POINTS,
    check_1d,
    check_choice,
    check_instance,
    check_size,
    describe,
)
from .confusion import ConfusionMatrix
from .curves._geometry import X_AXES, parse_at
from .curves.score_curve import ScoreCurve
from .exceptions import UndefinedMetricWarning
from .reference.base import CurveReference, PointReference, ReferenceDistribution
from .reference.dbt import DirectedBinaryTree
from .reference.uniform import Uniform
from .results import OPSResult

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = lazy_module("pandas")

__all__ = ["confusion_matrix_ops", "curve_ops", "standardized_curve", "default_reference"]


def default_reference(kind: str) -> ReferenceDistribution:
    """The paper's references: ``Uniform()`` for confusion-matrix metrics and
    ``DirectedBinaryTree()`` (depth 9, G = 100,000, fixed seed) for curve metrics.

    Examples
    --------
    >>> default_reference("point")
    Uniform(alpha, beta) on [0, 1]^2
    >>> default_reference("curve")
    DirectedBinaryTree(depth=9, n_curves=100000, seed=20231)
    """
    if check_choice("kind", kind, ("point", "curve")) == "point":
        return Uniform()
    return DirectedBinaryTree()


def _check_reference(
    reference: Any, kind: str, what: str, argument: str = "reference"
) -> ReferenceDistribution:
    """The reference of ``kind`` ("point" or "curve"), the default one for None; the
    message names the caller's ``argument`` (``point_reference`` of evaluate)."""
    if reference is None:
        return default_reference(kind)
    expected = PointReference if kind == "point" else CurveReference
    if not isinstance(reference, expected):
        other = (
            "a point reference such as Uniform()"
            if kind == "point"
            else "a curve reference such as DirectedBinaryTree()"
        )
        raise TypeError(f"`{argument}` for {what} must be {other}; got {describe(reference)}.")
    return reference


def _undefined(result_kwargs: dict[str, Any], reason: str) -> OPSResult:
    warnings.warn(
        f"OPS of {result_kwargs['metric']} is undefined ({reason}); returning NaN.",
        UndefinedMetricWarning,
        stacklevel=4,
    )
    return OPSResult(
        estimate=float("nan"),
        standard_error=float("nan"),
        details={"undefined": reason},
        **result_kwargs,
    )


def confusion_matrix_ops(
    cm: Any, metric: Any, *, reference: Any = None, ties: str = "strict", **params: Any
) -> OPSResult:
    """OPS of a confusion matrix's metric against a point reference (default
    :class:`~opsstats.reference.uniform.Uniform`).

    A metric that is 0/0 for the counts has no OPS: NaN with an
    :class:`~opsstats.UndefinedMetricWarning` whose reason is kept in
    ``result.details["undefined"]``. A class absent (prevalence 0 or 1) is an error.

    Examples
    --------
    >>> from opsstats import ConfusionMatrix
    >>> r = confusion_matrix_ops(ConfusionMatrix(tp=60, fp=40, fn=40, tn=860), "f1")
    >>> round(r.estimate, 4), r.method
    (0.9577, 'exact (closed form)')
    """
    check_instance("cm", cm, ConfusionMatrix)
    ref = _check_reference(reference, "point", "a confusion-matrix metric")
    quantity = ref._quantity(metric, None, None, params)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        value = cm.metric(quantity)
    if np.isnan(value) and 0 < cm.prevalence < 1:
        return _undefined(
            {
                "value": value,
                "prevalence": cm.prevalence,
                "metric": quantity.label,
                "reference": ref.description,
                "method": ref._method_for(quantity, cm.prevalence),
                "ties": ties,
            },
            f"{quantity.label} is 0/0 for {cm!r}: {quantity.metric.undefined}",
        )
    return ref.ops(quantity, value, prevalence=cm.prevalence, ties=ties)


def curve_ops(
    curve: Any,
    metric: Any,
    *,
    at: dict[str, float] | None = None,
    reference: Any = None,
    rule: str | None = None,
    ties: str = "strict",
    **params: Any,
) -> OPSResult:
    """OPS of a curve quantity (an AUC, or a metric at an operating point) against a
    curve reference (default :class:`~opsstats.reference.dbt.DirectedBinaryTree`).

    The observed value is computed from the curve's (alpha, beta) points with the same
    geometry and AUC ``rule`` as the reference curves, so that the two are comparable.

    Examples
    --------
    >>> from opsstats import DirectedBinaryTree, ScoreCurve
    >>> curve = ScoreCurve.from_scores([0, 0, 1, 0, 1, 1], [0.1, 0.3, 0.35, 0.4, 0.8, 0.9])
    >>> r = curve_ops(curve, "roc_auc", reference=DirectedBinaryTree(depth=4, n_curves=1000))
    >>> round(r.value, 4), r.rule
    (0.8889, 'trapezoid')
    """
    check_instance("curve", curve, ScoreCurve)
    ref = _check_reference(reference, "curve", "a curve quantity")
    quantity = ref._quantity(metric, at, rule, params)
    pi = curve.prevalence
    with np.errstate(divide="ignore", invalid="ignore"):
        value = float(quantity(pi, curve.alpha, curve.beta))
    if np.isnan(value):
        return _undefined(
            {
                "value": value,
                "prevalence": pi,
                "metric": quantity.label,
                "reference": ref.description,
                "method": ref._method_for(quantity, pi),
                "rule": getattr(quantity, "rule", None),
                "ties": ties,
            },
            f"{quantity.label} is 0/0 on this curve",
        )
    return ref.ops(quantity, value, prevalence=pi, ties=ties)


def _grid(points: Any, reference: Any) -> np.ndarray:
    """The points of a standardized curve: ``k / (points + 1)`` for an integer, or the
    given points, each in (0, 1]; at most :data:`~opsstats._validation.MAX_GRID_POINTS`,
    and few enough that their reference values (8 bytes per reference curve and point)
    fit in memory."""
    per_point = 8.0 * getattr(reference, "n_curves", getattr(reference, "size", 1))
    what = f" for the values of {reference.description} at every point"
    if isinstance(points, numbers.Number) or np.ndim(points) == 0:
        k = check_size("points", points, maximum=MAX_GRID_POINTS, bytes_each=per_point, what=what)
        return np.arange(1, k + 1) / (k + 1)
    grid = check_1d("points", points, numeric=True).astype(float)
    check_size("points", grid.size, maximum=MAX_GRID_POINTS, bytes_each=per_point, what=what)
    outside = (grid <= 0) | (grid > 1)
    if outside.any():
        i = int(np.flatnonzero(outside)[0])
        raise ValueError(
            f"`points` must lie in (0, 1] (operating points on the axis); got "
            f"{float(grid[i])!r} at position {i}."
        )
    return grid


def standardized_curve(
    curve: Any,
    metric: str = "precision",
    *,
    axis: str = "recall",
    points: Any = 20,
    reference: Any = None,
    ties: str = "strict",
) -> pd.DataFrame:
    """A standardized curve: the OPS of ``metric`` at a grid of points on ``axis``.

    With the defaults this is the paper's OPS(precision)-recall curve (OPRC, Figures
    4b and 5b); ``metric="lift", axis="rate"`` gives the OPS(lift) curve (Figures 6b
    and 7b).

    Parameters
    ----------
    curve : ScoreCurve
    metric : str
        The y-metric read off the curve at each point.
    axis : {"recall", "fpr", "rate"}
    points : int or array-like
        Number of equally spaced interior points ``k / (points + 1)`` (default 20, as
        the paper's figures; an integer from 1 to 1,000), or the points themselves, in
        (0, 1]. The end x = 1 is left out by
        default: every reference curve ends at (alpha, beta) = (1, 0), so the OPS there
        says nothing about the classifier (1 or 0 by the tie rule).
    reference : CurveReference, optional
        Default :class:`~opsstats.reference.dbt.DirectedBinaryTree`.

    Returns
    -------
    pandas.DataFrame
        Columns ``axis``, ``value`` (the observed metric), ``ops``,
        ``standard_error``; one row per point.

    Examples
    --------
    >>> from opsstats import DirectedBinaryTree, ScoreCurve
    >>> curve = ScoreCurve.from_scores([0, 0, 1, 0, 1, 1], [0.1, 0.3, 0.35, 0.4, 0.8, 0.9])
    >>> oprc = standardized_curve(curve, points=4,
    ...                           reference=DirectedBinaryTree(depth=4, n_curves=1000))
    >>> list(oprc.columns), oprc["recall"].tolist()
    (['recall', 'value', 'ops', 'standard_error'], [0.2, 0.4, 0.6, 0.8])
    """
    check_instance("curve", curve, ScoreCurve)
    ref = _check_reference(reference, "curve", "a standardized curve")
    axis = check_choice("axis", axis, tuple(X_AXES))
    grid = _grid(points, ref)
    quantities = [parse_at(metric, {axis: float(u)}) for u in grid]
    if hasattr(ref, "precompute"):
        ref.precompute(quantities, curve.prevalence)
    rows = []
    for u, q in zip(grid, quantities, strict=True):
        r = curve_ops(curve, q.metric, at={axis: float(u)}, reference=ref, ties=ties)
        rows.append(
            {axis: u, "value": r.value, "ops": r.estimate, "standard_error": r.standard_error}
        )
    frame = pd.DataFrame(rows)
    frame.attrs["metric"] = quantities[0].metric.label
    frame.attrs["reference"] = ref.description
    return frame
