"""The (alpha, beta) unit square of a confusion-matrix metric: its level line and the
outperformed region, whose area is the OPS under the uniform reference (Zhao et al.,
Figure 1a and 1b)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._summary import format_unit
from .._validation import check_probability, describe
from ..metrics import resolve_metric
from ..reference.base import check_prevalence, check_values
from ..reference.uniform import Uniform
from ._axes import CHANCE_COLOR, fmt, get_axes, legend_below, literal, style_axes

__all__ = ["plot_unit_square"]

#: Grid points per side for the level line and the shaded region.
_GRID = 601


def _metric_on_grid(metric: Any, prevalence: float) -> tuple[np.ndarray, np.ndarray]:
    """(grid, M(pi, alpha, beta)) with alpha along the columns and beta along the rows;
    infinite values are replaced by finite stand-ins beyond every finite value, so that
    they fall on the right side of any level (NaN, where M is 0/0, stays masked)."""
    grid = np.linspace(0.0, 1.0, _GRID)
    z = np.asarray(metric(prevalence, grid[None, :], grid[:, None]), dtype=float)
    finite = z[np.isfinite(z)]
    span = float(finite.max() - finite.min()) if finite.size else 1.0
    top = (float(finite.max()) if finite.size else 0.0) + span + 1.0
    bottom = (float(finite.min()) if finite.size else 0.0) - span - 1.0
    z = np.where(np.isposinf(z), top, np.where(np.isneginf(z), bottom, z))
    return grid, z


def plot_unit_square(
    metric: Any, value: float, prevalence: float, *, ax: Any = None, **kwargs: Any
) -> Any:
    """Plot the (alpha, beta) unit square with a metric's level line and the region the
    value outperforms.

    Every classifier is a point (alpha, beta) = (FPR, FNR) of the unit square. The level
    line M(pi, alpha, beta) = value splits it into better and worse performances; the
    shaded part, {M < value} (``{M > value}`` for lower-is-better metrics), is what the
    value outperforms, and its area is the OPS under the uniform reference. The trivial
    classifiers (predict everything positive: alpha = 1, beta = 0; predict everything
    negative: alpha = 0, beta = 1) and the random classifiers (alpha + beta = 1) are
    marked.

    Parameters
    ----------
    metric : str or BoundMetric
        A registered confusion-matrix metric, e.g. ``"f1"``.
    value : float
        The observed metric value mu, inside the metric's range.
    prevalence : float
        Prevalence pi in (0, 1).
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure (constrained layout) when None. The legend goes
        below the Axes when the figure's layout makes room for it, else inside them.
    **kwargs
        Passed to the level line (:meth:`matplotlib.axes.Axes.plot`), e.g. ``color``;
        the shading takes the line's colour.

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    ValueError
        For an unknown metric, a prevalence outside (0, 1) or a value outside the
        metric's range.
    TypeError
        For a non-numeric value or prevalence.

    Notes
    -----
    The line and the region are drawn from the metric on a 601 x 601 grid; the OPS in
    the title is computed exactly by :class:`~opsstats.reference.Uniform` (closed form
    or quadrature), not from the grid.

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> from opsstats.plotting import plot_unit_square
    >>> ax = plot_unit_square("f1", 0.6, 0.1)       # the paper's Figure 1a
    >>> print(ax.get_title())
    F1 score = 0.6 at prevalence π = 0.1
    OPS = shaded area = 0.9577 (uniform reference)
    >>> ax.get_xlabel()
    'Type-I error α (false positive rate)'
    >>> plt.close(ax.figure)
    """
    from matplotlib.patches import PathPatch
    from matplotlib.path import Path

    bound = resolve_metric(metric)
    pi = float(check_prevalence(check_probability("prevalence", prevalence)))
    values = check_values(value, bound)
    if np.ndim(values) != 0:
        raise TypeError(f"`value` must be one number; got {describe(value)}.")
    mu = float(values)
    if not np.isfinite(mu):
        raise ValueError(f"`value` must be finite to draw its level line; got {value!r}.")

    ops = float(Uniform().ops(bound, mu, prevalence=pi).estimate)

    import contourpy

    grid, z = _metric_on_grid(bound, pi)
    masked = np.ma.masked_invalid(z)
    gen = contourpy.contour_generator(
        grid,
        grid,
        masked,
        line_type=contourpy.LineType.Separate,
        fill_type=contourpy.FillType.OuterCode,
    )

    ax = get_axes(ax, figsize=(5.6, 6.6), layout="compressed")  # a square Axes

    # the level line: the main artist, kwargs go here
    name = literal(bound.label)  # a registered metric's label is free text
    style = {"color": "C3", "linewidth": 2.0, "label": f"level line: {name} = {mu:g}"}
    style.update(kwargs)
    color = style["color"]
    first = True
    for line_points in gen.lines(mu):
        seg = np.asarray(line_points)
        if len(seg) < 2:
            continue
        (line,) = ax.plot(seg[:, 0], seg[:, 1], **style)
        color = line.get_color()
        if first:  # one legend entry for all the pieces of the line
            style["label"] = "_nolegend_"
            first = False

    # the outperformed region, one compound path
    finite = masked.compressed()
    below, above = float(finite.min()) - 1.0, float(finite.max()) + 1.0
    lower, upper = (below, mu) if bound.higher_is_better else (mu, above)
    filled = gen.filled(lower, upper)  # (points, codes) for FillType.OuterCode
    points, codes = filled[0], filled[1]
    paths = [
        Path(np.asarray(p), c)
        for p, c in zip(points, codes, strict=True)
        if p is not None and len(p)
    ]
    sign = "<" if bound.higher_is_better else ">"
    if paths:
        ax.add_patch(
            PathPatch(
                Path.make_compound_path(*paths),
                facecolor=color,
                alpha=0.25,
                edgecolor="none",
                zorder=0,
                gid="outperformed",
                label=f"outperformed: {name} {sign} {mu:g}",
            )
        )
    else:  # nothing is outperformed (the worst value): say so in the legend
        ax.fill(
            [],
            [],
            facecolor=color,
            alpha=0.25,
            edgecolor="none",
            label=f"outperformed: {name} {sign} {mu:g} (empty)",
        )

    # random classifiers and the trivial classifiers
    ax.plot(
        [0, 1],
        [1, 0],
        color=CHANCE_COLOR,
        linestyle=":",
        linewidth=1.0,
        label="random classifiers (α + β = 1)",
    )
    for (a, b), marker, which in (
        ((1.0, 0.0), "s", "predict all positive"),
        ((0.0, 1.0), "D", "predict all negative"),
    ):
        m = float(bound(pi, a, b))
        ax.plot(
            [a],
            [b],
            linestyle="none",
            marker=marker,
            markersize=8,
            clip_on=False,
            color=CHANCE_COLOR,
            zorder=5,
            label=f"{which} (α={a:g}, β={b:g}): {name} {fmt(m)}"
            if np.isnan(m)
            else f"{which} (α={a:g}, β={b:g}): {name} = {fmt(m)}",
        )

    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_aspect("equal")
    style_axes(
        ax,
        xlabel="Type-I error α (false positive rate)",
        ylabel="Type-II error β (false negative rate)",
        title=f"{bound.label} = {mu:g} at prevalence π = {pi:g}\n"
        f"OPS = shaded area = {format_unit([ops], 4)[0]} (uniform reference)",
    )
    legend_below(ax, inside="upper right")
    return ax
