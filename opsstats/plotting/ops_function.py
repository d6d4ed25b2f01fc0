"""The OPS function of a metric, mu -> OPS(mu; pi), for several prevalences
(Zhao et al., Figure 1c for F1 and Figure 3 for PR-curve quantities)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import ops as ops_module
from .._validation import MAX_GRID_POINTS, check_1d, check_size, describe
from ..curves._geometry import CurveArea, parse_area
from ..reference.base import (
    CurveReference,
    ReferenceDistribution,
    check_prevalence,
    value_range,
)
from ._axes import add_legend, get_axes, reference_text, style_axes

__all__ = ["plot_ops_function"]

_GRID = 501
#: Where a metric's range is unbounded, the x axis stops at this quantile of the
#: metric's reference distribution (the largest over the prevalences drawn).
_UPPER_QUANTILE = 0.99


def _is_curve_quantity(metric: Any, at: Any) -> bool:
    if at is not None or isinstance(metric, CurveArea):
        return True
    if not isinstance(metric, str):
        return False
    try:
        parse_area(metric)
    except ValueError:
        return False
    return True


def _reference_for(metric: Any, at: Any, reference: Any) -> ReferenceDistribution:
    if reference is None:
        return ops_module.default_reference("curve" if _is_curve_quantity(metric, at) else "point")
    if not isinstance(reference, ReferenceDistribution):
        raise TypeError(
            "`reference` must be a reference distribution such as Uniform() or "
            f"DirectedBinaryTree(), or None; got {describe(reference)}."
        )
    return reference


def _default_grid(
    quantity: Any, reference: Any, prevalences: np.ndarray
) -> tuple[np.ndarray, bool]:
    """(x grid, log scale?) across the metric's range. An unbounded end is cut at the
    1% or 99% quantile of the metric under the reference (under Uniform for point
    references), the most extreme over the prevalences; a heavy right tail (99% quantile
    over 20 times the median, e.g. the diagnostic odds ratio) is drawn on a log scale."""
    lo, hi = value_range(quantity)
    if np.isfinite(lo) and np.isfinite(hi):
        return np.linspace(lo, hi, _GRID), False
    samples = []
    for pi in prevalences:
        if isinstance(reference, CurveReference):
            v = reference.reference_values(quantity, float(pi))
        else:
            mid = (np.arange(200) + 0.5) / 200
            v = np.asarray(quantity(float(pi), mid[:, None], mid[None, :])).ravel()
        v = v[np.isfinite(v)]
        if v.size:
            samples.append(v)
    if not samples:
        raise ValueError(
            f"{quantity.label} has no finite values under the reference; pass "
            "the x grid as `values=`."
        )
    if not np.isfinite(lo):
        lo = min(float(np.quantile(s, 1 - _UPPER_QUANTILE)) for s in samples)
    log = False
    if not np.isfinite(hi):
        hi = max(float(np.quantile(s, _UPPER_QUANTILE)) for s in samples)
        median = max(float(np.median(s)) for s in samples)
        log = lo >= 0 and median > 0 and hi > 20 * median
    if not hi > lo:  # a degenerate sample: widen around it
        hi = lo + 1.0
    if log:
        start = max(min(float(np.quantile(s, 1 - _UPPER_QUANTILE)) for s in samples), hi * 1e-6)
        return np.geomspace(start, hi, _GRID), True
    return np.linspace(lo, hi, _GRID), False


def plot_ops_function(
    metric: Any,
    prevalences: Any = (0.1, 0.2, 0.3, 0.4, 0.5),
    *,
    reference: Any = None,
    at: dict[str, float] | None = None,
    rule: str | None = None,
    values: Any = None,
    ax: Any = None,
    **kwargs: Any,
) -> Any:
    """Plot the OPS function mu -> OPS(mu; pi) of a metric for several prevalences.

    One line per prevalence: the share of the reference's performances that a metric
    value mu outperforms. With the defaults and ``"f1"`` this is the paper's Figure 1c;
    with ``"pr_auc"``, or ``"precision"`` and ``at={"recall": 0.8}``, against the
    Directed Binary Tree it is Figure 3.

    Parameters
    ----------
    metric : str, BoundMetric or CurveArea
        A registered confusion-matrix metric (``"f1"``; a bound metric such as
        ``resolve_metric("fbeta", beta=2)`` for parameters), a curve area
        (``"pr_auc"``, ``"roc_auc"``, ``"lift_auc"``, ``"npr_auc"``, ...) or, with ``at``,
        a metric read off a curve at an operating point.
    prevalences : sequence of float, default (0.1, 0.2, 0.3, 0.4, 0.5)
        Prevalences in (0, 1); one line each (at most 1,000).
    reference : ReferenceDistribution, optional
        Default :class:`~opsstats.reference.Uniform` for confusion-matrix metrics and
        :class:`~opsstats.reference.DirectedBinaryTree` (depth 9, 100,000 curves) for
        curve quantities (an area, or ``at`` given).
    at : dict, optional
        Operating point on a curve, e.g. ``{"recall": 0.8}`` (needs a curve reference).
    rule : {"trapezoid", "step"}, optional
        AUC rule of a curve area; default the curve's rule (step for PR and lift).
    values : array-like, optional
        The metric values mu to evaluate (the x grid; at most 1,000). Default: 501 equally spaced
        values across the metric's range. An unbounded end of the range is cut at the
        99% (or 1%) quantile of the metric under the reference (under Uniform for
        point references); a heavy right tail (the 99% quantile more than 20 times the
        median, as for the diagnostic odds ratio) is drawn on a log x axis.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure when None.
    **kwargs
        Passed to every line (:meth:`matplotlib.axes.Axes.plot`), e.g. ``linewidth``;
        ``color`` overrides the per-prevalence colours.

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    ValueError
        For an unknown metric, a prevalence outside (0, 1), ``values`` outside the
        metric's range, or a curve quantity with a point reference (and vice versa).
    TypeError
        For a reference or ``ax`` of the wrong type.

    Notes
    -----
    Under :class:`~opsstats.reference.Uniform` each line is exact (closed form or
    quadrature). Under a curve reference it is the empirical distribution function of
    the reference's sorted values at each prevalence, computed once per
    (quantity, prevalence) and cached by the reference, so redrawing is cheap; its Monte
    Carlo error is at most 0.5 / sqrt(G) (0.0016 for G = 100,000).

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> from opsstats.plotting import plot_ops_function
    >>> ax = plot_ops_function("f1", prevalences=(0.1, 0.5))
    >>> ax.get_xlabel(), len(ax.get_lines())
    ('F1 score', 2)
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['0.1', '0.5']
    >>> plt.close(ax.figure)
    """
    ref = _reference_for(metric, at, reference)
    quantity = ref._quantity(metric, at, rule, {})
    if isinstance(prevalences, str | bytes):
        raise TypeError(
            "`prevalences` must be a number or a sequence of numbers in (0, 1); "
            f"got {describe(prevalences)}."
        )
    if np.ndim(prevalences) == 0:
        prevalences = [prevalences]
    pis = check_1d("prevalences", prevalences, numeric=True)
    check_prevalence(pis, "prevalences")
    per_curve = 8.0 * getattr(ref, "n_curves", 1)  # a reference vector per prevalence
    check_size("prevalences", pis.size, maximum=MAX_GRID_POINTS, bytes_each=per_curve)
    if values is None:
        grid, log = _default_grid(quantity, ref, pis)
    else:
        grid, log = np.sort(check_1d("values", values, numeric=True).astype(float)), False
        check_size("values", grid.size, maximum=MAX_GRID_POINTS, bytes_each=8.0 * pis.size)
    # one vectorized call: every (value, prevalence) pair
    ops = np.asarray(
        ref.ops(metric, grid[None, :], prevalence=pis[:, None], at=at, rule=rule).estimate
    )

    ax = get_axes(ax)
    from matplotlib import colormaps

    colors = ["C0"] if pis.size == 1 else colormaps["viridis"](np.linspace(0.0, 0.8, pis.size))
    for pi, color, y in zip(pis, colors, ops, strict=True):
        style = {"color": color, "label": f"{pi:g}", "linewidth": 1.8}
        style.update(kwargs)
        ax.plot(grid, y, **style)
    if log:
        ax.set_xscale("log")
    ax.set_xlim(float(grid.min()), float(grid.max()))
    ax.set_ylim(-0.02, 1.02)
    style_axes(
        ax,
        xlabel=quantity.label,
        ylabel="OPS (o-value)",
        title=f"OPS function of {quantity.label}\nreference: {reference_text(ref.description)}",
    )
    # metrics that ignore prevalence (recall, DOR, ROC AUC) draw one line five times
    same = pis.size > 1 and bool(np.allclose(ops, ops[:1], rtol=0, atol=1e-9))
    add_legend(
        ax,
        title="prevalence π" + (" (lines coincide)" if same else ""),
        loc="lower right" if quantity.higher_is_better else "upper right",
    )
    return ax
