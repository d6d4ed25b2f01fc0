"""The ROC convex hull over the classifiers' ROC curves, with iso-performance lines and
the operating point of least expected cost (the evaluation-metrics notes, sections
2.3-2.4; docs/method.md#vocabulary)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..curves import hull as rh
from ._axes import CHANCE_COLOR, add_legend, get_axes, literal, style_axes

__all__ = ["plot_hull"]


def plot_hull(
    curves: Any,
    *,
    prevalence: float | None = None,
    cost_fp: float = 1.0,
    cost_fn: float = 1.0,
    iso: Any = None,
    names: Any = None,
    ax: Any = None,
    **kwargs: Any,
) -> Any:
    """Draw the ROC curves, their convex hull and, with ``prevalence``, the iso-cost
    line through the operating point of least expected cost and that point.

    Parameters
    ----------
    curves : ScoreCurve or list of ScoreCurve
    prevalence : float, optional
        The prevalence the operating point is chosen for (with ``cost_fp`` and
        ``cost_fn``): adds the iso-cost line of slope r_s = (1 - pi) / pi * c_FP / c_FN
        touching the hull and marks the chosen point.
    cost_fp, cost_fn : float
        Costs of a false positive and of a false negative.
    iso : list of (metric, value), optional
        Further iso-performance lines (:func:`opsstats.curves.hull.iso_line`) for the
        same skew ratio, e.g. ``[("accuracy", 0.8), ("precision", 0.5)]``; needs
        ``prevalence``.
    names : list of str, optional
        The classifiers' names for the legend.
    ax : matplotlib Axes, optional
    **kwargs
        Passed to the hull's line.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from opsstats import ScoreCurve
    >>> c = ScoreCurve.from_scores([1, 0, 1, 1, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.5, 0.4])
    >>> ax = plot_hull(c, prevalence=0.5, iso=[("accuracy", 0.75)])
    >>> [t.get_text() for t in ax.get_legend().get_texts()][:2]
    ['classifier 1', 'ROC convex hull']
    """
    curve_list = rh._curves(curves)
    labels = (
        [f"classifier {i + 1}" for i in range(len(curve_list))]
        if names is None
        else [literal(n) for n in names]
    )
    if len(labels) != len(curve_list):
        raise ValueError(
            f"`names` must name each of the {len(curve_list)} curves; got {len(labels)} names."
        )
    if iso is not None and prevalence is None:
        raise ValueError("`iso` lines need `prevalence` (and the costs) for their skew ratio.")
    ax = get_axes(ax)
    for i, (c, name) in enumerate(zip(curve_list, labels, strict=True)):
        roc = c.roc()
        ax.plot(roc["fpr"], roc["tpr"], color=f"C{i}", linewidth=1.0, alpha=0.8, label=name)
    hull = rh.roc_hull(curve_list)
    v = hull[hull["vertex"]]
    options = {"color": "k", "linewidth": 2.0, "linestyle": "--", "label": "ROC convex hull"}
    options.update(kwargs)
    ax.plot(v["fpr"], v["tpr"], zorder=3, **options)
    ax.plot([0, 1], [0, 1], color=CHANCE_COLOR, linewidth=0.8, linestyle=":", label="chance")
    if prevalence is not None:
        point = rh.optimal_point(curve_list, prevalence, cost_fp, cost_fn)
        r = float(point["skew_ratio"])
        xs = np.linspace(0.0, 1.0, 2)
        b = float(point["tpr"]) - r * float(point["fpr"])
        ax.plot(xs, r * xs + b, color="C3", linewidth=1.2, label=f"iso-cost line (r_s = {r:.3g})")
        ax.plot(
            [point["fpr"]],
            [point["tpr"]],
            "o",
            color="C3",
            markersize=8,
            zorder=4,
            label=(
                f"least expected cost: {labels[int(point['classifier'])]}, "
                f"threshold {float(point['threshold']):.4g}"
            ),
        )
        for k, (metric, value) in enumerate(iso or []):
            skew = r if metric == "cost" else (1 - prevalence) / prevalence
            line = rh.iso_line(metric, value, skew)
            ax.plot(
                xs,
                line.tpr(xs),
                color=f"C{4 + k}",
                linewidth=0.9,
                linestyle="-.",
                label=f"iso-{metric} {value:g}",
            )
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.0)
    ax.set_aspect("equal")
    style_axes(
        ax,
        xlabel="False positive rate (α)",
        ylabel="True positive rate (1 − β)",
        title="ROC convex hull",
    )
    add_legend(ax, loc="lower right")
    return ax
