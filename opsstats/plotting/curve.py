"""A classifier's ROC, PR, lift or gain curve over the pointwise band of a curve
reference, with the chance level (Zhao et al., Figures 4a-7a with the reference added)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import (
    MAX_GRID_POINTS,
    check_choice,
    check_probability,
    check_real,
    check_size,
    describe,
)
from ..curves import ScoreCurve
from ..curves import _geometry as geo
from ..ops import default_reference
from ..reference.base import CurveReference
from ._axes import (
    CHANCE_COLOR,
    CLASSIFIER_COLOR,
    REFERENCE_COLOR,
    fmt,
    get_axes,
    legend_below,
    reference_name,
    style_axes,
)

__all__ = ["plot_curve"]

_AXES = {  # kind: (x column, y column, x label, y label, title)
    "roc": (
        "fpr",
        "tpr",
        "False positive rate (α)",
        "True positive rate (recall, 1 − β)",
        "ROC curve",
    ),
    "pr": ("recall", "precision", "Recall (1 − β)", "Precision", "Precision-recall curve"),
    "lift": ("rate", "lift", "Rate of positive predictions (share flagged)", "Lift", "Lift curve"),
    "gain": (
        "rate",
        "gain",
        "Rate of positive predictions (share flagged)",
        "Gain (true positive rate)",
        "Cumulative gain curve",
    ),
}
#: The y metric and x axis of each curve, as the reference's operating points.
_POINT = {
    "roc": ("recall", "fpr"),
    "pr": ("precision", "recall"),
    "lift": ("lift", "rate"),
    "gain": ("recall", "rate"),
}


def _check_band(band: Any) -> tuple[float, float] | None:
    if band is None:
        return None
    if not isinstance(band, tuple | list) or len(band) != 2:
        raise TypeError(
            "`band` must be a pair of quantiles (low, high) such as (0.05, 0.95), "
            f"or None; got {describe(band)}."
        )
    lo = check_probability("band[0]", band[0])
    hi = check_probability("band[1]", band[1])
    if not lo < hi:
        raise ValueError(f"`band` must be (low, high) with low < high; got {tuple(band)!r}.")
    return lo, hi


def reference_band(
    reference: CurveReference,
    kind: str,
    prevalence: float,
    x: np.ndarray,
    quantiles: tuple[float, ...],
) -> np.ndarray:
    """Pointwise quantiles of the reference curves' y at ``x``: the reference's own
    ``band`` (one pass over streamed curves) or, for references without one, quantiles
    of its sorted values at each operating point."""
    if hasattr(reference, "band"):
        return np.asarray(reference.band(kind, prevalence, x, quantiles=quantiles))
    metric, axis = _POINT[kind]
    return np.array(
        [
            np.quantile(
                reference.reference_values(geo.parse_at(metric, {axis: float(u)}), prevalence),
                quantiles,
            )
            for u in x
        ]
    ).T


def plot_curve(
    curve: Any,
    kind: str = "pr",
    *,
    reference: Any = None,
    band: Any = (0.05, 0.95),
    chance: bool = True,
    points: int = 50,
    threshold: float | None = None,
    ax: Any = None,
    **kwargs: Any,
) -> Any:
    """Plot a classifier's ROC, PR, lift or gain curve over a reference's pointwise band.

    The classifier's curve is drawn over the band between two pointwise quantiles of
    the reference curves (default the 5% and 95% of the Directed Binary Tree) and their
    pointwise median, at the classifier's prevalence, with the chance level: the
    diagonal for ROC and gain, precision = pi for PR, lift = 1 for lift. Where the
    median lies on the chance level (as the DBT's does), the two are one line, named so
    in the legend.

    Parameters
    ----------
    curve : ScoreCurve
        The classifier's curve (:meth:`ScoreCurve.from_scores`).
    kind : {"pr", "roc", "lift", "gain"}, default "pr"
    reference : CurveReference, optional
        Default :class:`~opsstats.reference.DirectedBinaryTree` (depth 9, 100,000
        curves), whose ROC, PR, lift and gain bands at the default ``points`` and
        common quantiles are read from a shipped table (docs/method.md#dbt-table);
        other bands are computed by a pass over the curves at the first use of a
        prevalence, then cached.
    band : (float, float) or None, default (0.05, 0.95)
        Pointwise quantiles of the reference's y bounding the shaded band; None draws
        neither the band nor the median.
    chance : bool, default True
        Draw the chance level.
    points : int, default 50
        Number of equally spaced x values in (0, 1] at which the band is computed (plus
        five values between 0.001 and ``1 / points``, where the band opens quickly).
    threshold : float, optional
        Mark the operating point of this score threshold (predict positive where
        score >= threshold, :meth:`ScoreCurve.confusion_matrix`), with its coordinates
        in the legend.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure (constrained layout) when None.
    **kwargs
        Passed to the classifier's line (:meth:`matplotlib.axes.Axes.plot`), e.g.
        ``color`` or ``label``.

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    TypeError
        If ``curve`` is not a ScoreCurve, or ``reference`` not a curve reference.
    ValueError
        For an unknown ``kind``, quantiles outside [0, 1] or a threshold that is not a
        finite number.

    Notes
    -----
    PR and lift curves are drawn as steps (precision and lift hold their value up to
    each point's recall or rate), which is the step rule their AUC uses; ROC and gain
    curves join their points with straight lines (the trapezoid rule). Precision and
    lift are 0/0 at the first point (nothing predicted positive); the curve starts at
    its limit along the first segment, as the areas do. The band is pointwise: at each
    x separately, a share ``band[1] - band[0]`` of the reference curves lies inside; it
    is not a band that whole curves stay inside.

    The legend goes below the Axes when the figure's layout makes room for it (the new
    figure's constrained layout does), so that ``savefig`` keeps it; on Axes of a figure
    without a layout engine it goes inside the Axes.

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> import numpy as np
    >>> from opsstats import DirectedBinaryTree, ScoreCurve
    >>> from opsstats.plotting import plot_curve
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(500) < 0.2
    >>> curve = ScoreCurve.from_scores(y, rng.normal(size=500) + y)
    >>> ax = plot_curve(curve, "pr", reference=DirectedBinaryTree(depth=5, n_curves=2000))
    >>> for text in ax.get_legend().get_texts():
    ...     print(text.get_text())  # doctest: +ELLIPSIS
    classifier, AUC(PR, step) = 0.4...
    chance: precision = π = 0.2..., also the DBT median
    DBT 5-95% pointwise band
    >>> plt.close(ax.figure)
    """
    if not isinstance(curve, ScoreCurve):
        raise TypeError(f"`curve` must be a ScoreCurve; got {describe(curve)}.")
    kind = check_choice("kind", kind, geo.CURVES)
    quantiles = _check_band(band)
    points = check_size("points", points, minimum=2, maximum=MAX_GRID_POINTS)
    if reference is None:
        reference = default_reference("curve")
    elif not isinstance(reference, CurveReference):
        raise TypeError(
            "`reference` must be a curve reference such as DirectedBinaryTree(); "
            f"got {describe(reference)}."
        )
    pi = curve.prevalence
    xcol, ycol, xlabel, ylabel, title = _AXES[kind]

    point = None if threshold is None else _operating_point(curve, kind, threshold)

    ax = get_axes(ax)
    chance_label = _CHANCE_LABEL[kind](pi) if chance else None
    merged = False  # the chance level and the reference's median drawn as one line
    if quantiles is not None:
        # operating points need x > 0; a few points near 0, where the band opens fast
        x = np.unique(
            np.r_[np.geomspace(1e-3, 1.0 / points, 5), np.linspace(0.0, 1.0, points + 1)[1:]]
        )
        lo, med, hi = reference_band(reference, kind, pi, x, (quantiles[0], 0.5, quantiles[1]))
        name = reference_name(reference)
        ax.fill_between(
            x,
            lo,
            hi,
            color=REFERENCE_COLOR,
            alpha=0.3,
            linewidth=0,
            zorder=1,
            label=f"{name} {100 * quantiles[0]:g}-{100 * quantiles[1]:g}% pointwise band",
        )
        chance_y = _chance_y(kind, pi, x)
        # the DBT's median curve lies on the chance level: one line, named for both
        on_chance = bool(np.all(np.abs(med - chance_y) <= 0.02 * max(1.0, float(np.max(hi)))))
        if on_chance and chance_label is not None:
            chance_label = f"{chance_label}, also the {name} median"
            merged = True
        else:
            ax.plot(
                x,
                med,
                color="0.45",
                linestyle="--",
                linewidth=1.3,
                zorder=2,
                label=f"{name} median" + (" (on the chance level)" if on_chance else ""),
            )
    if chance_label is not None:
        style = {"color": CHANCE_COLOR, "linewidth": 1.0, "zorder": 2, "label": chance_label}
        if merged:  # the median too: the median's dashes
            style.update(color="0.35", linestyle="--", linewidth=1.3)
        else:
            style.update(linestyle=":")
        ax.plot([0.0, 1.0], _chance_y(kind, pi, np.array([0.0, 1.0])), **style)

    frame = curve.curve(kind)
    xs = frame[xcol].to_numpy(dtype=float)
    ys = frame[ycol].to_numpy(dtype=float, copy=True)
    if kind in ("pr", "lift") and ys.size > 1 and np.isnan(ys[0]):
        ys[0] = ys[1]  # the limit along the first segment (see Notes)
    area = geo.parse_area(f"{kind}_auc")
    style = {
        "color": CLASSIFIER_COLOR,
        "linewidth": 1.8,
        "zorder": 3,
        "label": f"classifier, {area.label} = {curve.auc(kind):.3f}",
    }
    if kind in ("pr", "lift"):
        style["drawstyle"] = "steps-pre"
    style.update(kwargs)
    (line,) = ax.plot(xs, ys, **style)
    if point is not None:
        px, py, text = point
        ax.plot(
            [px],
            [py],
            linestyle="none",
            marker="o",
            markersize=7,
            markerfacecolor="white",
            markeredgecolor=line.get_color(),
            markeredgewidth=1.8,
            zorder=line.get_zorder(),  # listed after the curve, drawn over it
            clip_on=False,
            label=text,
        )

    ax.set_xlim(0, 1)
    if kind == "lift":
        ax.set_ylim(bottom=0)
    else:
        ax.set_ylim(0, 1.02)
    style_axes(
        ax,
        xlabel=xlabel,
        ylabel=ylabel,
        title=f"{title} (prevalence π = {pi:.3g}, n = {curve.n:g})",
    )
    # below the Axes, where it covers nothing, if the figure makes room for it
    legend_below(ax, inside=_INSIDE[kind], by_zorder=True)
    return ax


#: The chance level of each curve: its label and its y at x.
_CHANCE_LABEL = {
    "roc": lambda pi: "chance (random classifier)",
    "gain": lambda pi: "chance (random classifier)",
    "pr": lambda pi: f"chance: precision = π = {pi:.3g}",
    "lift": lambda pi: "chance: lift = 1",
}
#: Where a legend inside the Axes covers the least of a typical curve.
_INSIDE = {"roc": "lower right", "gain": "lower right", "pr": "upper right", "lift": "upper right"}


def _chance_y(kind: str, pi: float, x: np.ndarray) -> np.ndarray:
    return {"roc": x, "gain": x, "pr": np.full_like(x, pi), "lift": np.ones_like(x)}[kind]


def _operating_point(curve: Any, kind: str, threshold: Any) -> tuple[float, float, str]:
    """(x, y, legend text) of the curve's point at ``score >= threshold``."""
    threshold = check_real("threshold", threshold)
    cm = curve.confusion_matrix(threshold=threshold)
    (x,), (y,) = geo.curve_xy(kind, curve.prevalence, [cm.alpha], [cm.beta])
    xname, yname = _POINT_NAMES[kind]
    return (
        float(x),
        float(y),
        f"score ≥ {threshold:g}: {xname} {fmt(x)}, {yname} {fmt(y)}",
    )


#: The coordinates' names in the operating point's legend entry.
_POINT_NAMES = {
    "roc": ("FPR", "TPR"),
    "pr": ("recall", "precision"),
    "lift": ("rate", "lift"),
    "gain": ("rate", "gain"),
}
