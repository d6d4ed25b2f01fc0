"""Standardized curves: OPS of a metric at a grid of operating points, the paper's
OPS(precision)-recall curve (OPRC, Figures 4b and 5b) and OPS(lift) curve (Figures 6b
and 7b)."""

from __future__ import annotations

import textwrap
from typing import Any

import numpy as np

from .._validation import check_confidence_level, describe
from ..curves import ScoreCurve
from ..curves._geometry import parse_at
from ..metrics import resolve_metric
from ..ops import default_reference, standardized_curve
from ..uncertainty._draws import check_rng
from ._axes import (
    CLASSIFIER_COLOR,
    NULL_STYLE,
    add_legend,
    get_axes,
    literal,
    reference_text,
    style_axes,
)

__all__ = ["plot_standardized_curve"]

_AXIS_LABEL = {
    "recall": "Recall (1 − β)",
    "fpr": "False positive rate (α)",
    "rate": "Rate of positive predictions (share flagged)",
}
#: Monte Carlo error bars: +- this many standard errors (a 95% normal interval).
_Z = 1.96


def _title(metric_name: str, axis: str, label: str) -> str:
    if metric_name == "precision" and axis == "recall":
        return "OPS(precision)-recall curve (OPRC)"
    if metric_name == "lift" and axis == "rate":
        return "OPS(lift) curve"
    return f"Standardized curve: OPS of {label} along {axis}"


def _curve_intervals(
    curve: Any,
    metric: Any,
    axis: str,
    grid: np.ndarray,
    reference: Any,
    ci: str,
    confidence_level: float,
    rng: Any,
    ties: str,
) -> tuple[np.ndarray, np.ndarray, str]:
    """Per-point intervals from ``ScoreCurve.ops(..., ci=...)``: (low, high, method)."""
    lows, highs, method = [], [], ""
    for u in grid:
        r = curve.ops(
            metric,
            at={axis: float(u)},
            reference=reference,
            ci=ci,
            confidence_level=confidence_level,
            rng=rng,
            ties=ties,
        )
        if r.ci is None:
            lows.append(np.nan)
            highs.append(np.nan)
            continue
        lows.append(r.ci.low)
        highs.append(r.ci.high)
        level = f"{100 * r.confidence_level:g}% " if r.confidence_level else ""
        method = f"{level}interval ({r.ci_method})" if r.ci_method else f"{level}interval"
    return np.asarray(lows, float), np.asarray(highs, float), method


def _degenerate(
    reference: Any, metric: Any, axis: str, grid: np.ndarray, prevalence: float
) -> np.ndarray:
    """Points where every reference curve has the same value, so that the OPS there is
    0, 1 or 1/2 whatever the classifier does: at recall 1 every DBT curve has precision
    pi (it reaches recall 1 only at its end point), and at rate 1 every curve has lift 1.
    The values are cached by the reference after the standardized curve."""
    out = np.zeros(grid.size, dtype=bool)
    for i, u in enumerate(grid):
        values = reference.reference_values(parse_at(metric, {axis: float(u)}), prevalence)
        out[i] = values.size > 0 and values[0] == values[-1]
    return out


def plot_standardized_curve(
    curve: Any,
    metric: str = "precision",
    axis: str = "recall",
    *,
    points: Any = 20,
    reference: Any = None,
    ci: str | None = None,
    confidence_level: float = 0.95,
    rng: Any = None,
    ties: str = "strict",
    ax: Any = None,
    **kwargs: Any,
) -> Any:
    """Plot a standardized curve: the OPS of ``metric`` at points along ``axis``.

    With the defaults this is the paper's OPS(precision)-recall curve (OPRC): the OPS
    of the precision at recall 0.05, 0.10, ..., 1 against the Directed Binary Tree, a
    standardized PR curve. ``metric="lift", axis="rate"`` gives the OPS(lift) curve, a
    standardized lift curve (OPS(lift) equals OPS(precision) at the same rate). Each
    point carries Monte Carlo error bars of +- 1.96 standard errors (often narrower than
    the markers: the legend gives their largest half-width); a dotted line marks
    OPS = 0.5, the middle of the reference.

    Parameters
    ----------
    curve : ScoreCurve
    metric : str, default "precision"
        The metric read off the curve at each point (eq. 9 of the paper).
    axis : {"recall", "fpr", "rate"}, default "recall"
    points : int or array-like, default 20
        Number of equally spaced points in (0, 1], or the points themselves.
    reference : CurveReference, optional
        Default :class:`~opsstats.reference.DirectedBinaryTree` (depth 9, 100,000
        curves).
    ci : str, optional
        Draw a band of intervals for the OPS at each point, made by
        ``ScoreCurve.ops(..., ci=ci)`` (e.g. ``"bootstrap"``). Needs a version of
        :meth:`ScoreCurve.ops` that has a ``ci`` option. Points where the reference
        is degenerate (see Notes) get no interval.
    confidence_level : float, default 0.95
        Of the ``ci`` band.
    rng : None, int or numpy.random.Generator
        Randomness of the ``ci`` intervals. An int gives every point the same
        resamples, so the band is smooth along the curve and reproducible.
    ties : {"strict", "mid"}, default "strict"
        How reference values equal to the classifier's count (see
        :func:`opsstats.ops.standardized_curve`).
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure when None.
    **kwargs
        Passed to the OPS points and their error bars
        (:meth:`matplotlib.axes.Axes.errorbar`), e.g. ``color``; a ``label`` gets a
        second line with the largest half-width of the bars.

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    TypeError
        If ``curve`` is not a ScoreCurve, or ``ci`` is not a string.
    ValueError
        For an unknown metric or axis, or points outside (0, 1].

    Notes
    -----
    The error bars are the Monte Carlo error of the reference only (a finite number of
    reference curves); they say nothing of the sampling error of the test set, which is
    what ``ci`` adds.

    Points where the reference is degenerate, every reference curve having the same
    value, are drawn as open markers apart from the line, with their own legend entry:
    their OPS (0, 1, or 0.5 with ``ties="mid"``) says nothing about the classifier. Under
    the Directed Binary Tree this is the point x = 1, when a grid includes it (the
    default grid of 20 interior points does not): its curves reach recall 1 only at
    their end point, where precision is pi, and every curve has lift 1 at rate 1.

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> import numpy as np
    >>> from opsstats import DirectedBinaryTree, ScoreCurve
    >>> from opsstats.plotting import plot_standardized_curve
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(500) < 0.2
    >>> curve = ScoreCurve.from_scores(y, rng.normal(size=500) + y)
    >>> ax = plot_standardized_curve(curve, reference=DirectedBinaryTree(depth=5, n_curves=2000))
    >>> print(ax.get_title())
    OPS(precision)-recall curve (OPRC)
    reference: DirectedBinaryTree(depth=5, n_curves=2000, seed=20231)
    >>> ax.get_ylabel()
    'OPS of Precision (PPV)'
    >>> plt.close(ax.figure)
    """
    if not isinstance(curve, ScoreCurve):
        raise TypeError(f"`curve` must be a ScoreCurve; got {describe(curve)}.")
    if ci is not None and not isinstance(ci, str):
        raise TypeError(
            f"`ci` must be None or the name of an interval method such as "
            f"'bootstrap'; got {describe(ci)}."
        )
    confidence_level = check_confidence_level(confidence_level)  # checked, used or not
    check_rng(rng)
    if reference is None:
        reference = default_reference("curve")
    frame = standardized_curve(
        curve, metric, axis=axis, points=points, reference=reference, ties=ties
    )
    axis_name = frame.columns[0]
    x = frame[axis_name].to_numpy(dtype=float)
    ops = frame["ops"].to_numpy(dtype=float)
    se = frame["standard_error"].to_numpy(dtype=float)
    bound = resolve_metric(metric)
    flat = _degenerate(reference, metric, axis_name, x, curve.prevalence)

    ok = ~flat
    if ci is not None:  # before drawing: a failing interval leaves no half-made figure
        low, high, method = _curve_intervals(
            curve, metric, axis_name, x[ok], reference, ci, confidence_level, rng, ties
        )

    ax = get_axes(ax)
    ax.axhline(0.5, label="OPS = 0.5 (middle of the reference)", **NULL_STYLE)
    if ci is not None:
        ax.fill_between(
            x[ok],
            low,
            high,
            color=kwargs.get("color", CLASSIFIER_COLOR),
            alpha=0.2,
            linewidth=0,
            zorder=1,
            label=literal(
                textwrap.fill(method or f"{ci} interval", 60, break_on_hyphens=False),
                newlines=True,
            ),
        )
    style = {
        "color": CLASSIFIER_COLOR,
        "marker": "o",
        "markersize": 4,
        "linewidth": 1.5,
        "capsize": 2.5,
        "elinewidth": 1.0,
        "zorder": 3,
    }
    style.update(kwargs)
    # the bars are often narrower than the markers: the label says how wide they are at
    # most, under the caller's label too
    head = style.get("label", f"classifier (π = {curve.prevalence:.3g})")
    widest = _Z * float(np.max(se[ok], initial=0.0))
    style["label"] = f"{head}\nbars ± {_Z:g} Monte Carlo s.e., at most ± {widest:.2g}"
    bars = ax.errorbar(x[ok], ops[ok], yerr=_Z * se[ok], **style)
    if flat.any():
        color = bars[0].get_color()
        where = ", ".join(f"{u:g}" for u in x[flat])
        ax.plot(
            x[flat],
            ops[flat],
            linestyle="none",
            marker="o",
            markersize=6,
            markerfacecolor="white",
            markeredgecolor=color,
            zorder=3,
            clip_on=False,
            label=literal(
                f"{axis_name} = {where}: all reference curves equal there\n(OPS not informative)",
                newlines=True,
            ),
        )
    ax.set_xlim(0, 1.02)
    ax.set_ylim(-0.02, 1.02)
    style_axes(
        ax,
        xlabel=_AXIS_LABEL.get(axis_name, axis_name),
        ylabel=f"OPS of {bound.label}",
        title=f"{_title(bound.name, axis_name, bound.label)}\n"
        f"reference: {reference_text(frame.attrs.get('reference', reference.description))}",
    )
    add_legend(ax, by_zorder=True, loc="best")
    return ax
