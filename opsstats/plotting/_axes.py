"""Shared plumbing of the plots: matplotlib imported lazily, Axes obtained or created,
one look for every figure.

``import opsstats`` (and ``import opsstats.plotting``) must not import matplotlib: every
function here imports it when it is called.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from .._summary import format_unit, printable
from .._validation import describe

__all__ = [
    "pyplot",
    "get_axes",
    "style_axes",
    "add_legend",
    "legend_below",
    "ops_label",
    "reference_name",
    "reference_text",
    "literal",
    "CLASSIFIER_COLOR",
    "REFERENCE_COLOR",
    "CHANCE_COLOR",
    "NULL_STYLE",
]

#: The classifier being evaluated.
CLASSIFIER_COLOR = "C0"
#: The reference distribution (bands, medians).
REFERENCE_COLOR = "0.55"
#: Chance levels and trivial classifiers.
CHANCE_COLOR = "0.25"
#: The OPS = 0.5 line: a classifier in the middle of the reference.
NULL_STYLE = {"color": "0.35", "linestyle": ":", "linewidth": 1.0, "zorder": 1}


def pyplot() -> Any:
    """``matplotlib.pyplot``, imported on first use with a clear error if it is missing."""
    try:
        import matplotlib.pyplot as plt
    except ImportError as exc:  # pragma: no cover - matplotlib is a dependency
        raise ImportError(
            "opsstats plots need matplotlib; install it with `pip install matplotlib`."
        ) from exc
    return plt


def get_axes(
    ax: Any = None,
    *,
    figsize: tuple[float, float] | None = None,
    layout: str = "constrained",
) -> Any:
    """``ax`` itself, checked, or the Axes of a new figure when ``ax`` is None.

    A new figure (rather than ``plt.gca()``) so that two calls never draw over each
    other by accident; pass ``ax=`` to overlay plots. The new figure has constrained
    layout, which makes room for everything drawn outside the Axes (a legend below them,
    the annotations of a forest plot), so that ``fig.savefig(...)`` keeps it without
    ``bbox_inches="tight"``; ``layout="compressed"`` for Axes of a fixed aspect, which
    constrained layout fits only after several draws.
    """
    if ax is None:
        _, ax = pyplot().subplots(figsize=figsize, layout=layout)
        return ax
    from matplotlib.axes import Axes

    if not isinstance(ax, Axes):
        raise TypeError(f"`ax` must be a matplotlib Axes or None; got {describe(ax)}.")
    return ax


def literal(text: Any, *, newlines: bool = False) -> str:
    r"""``text`` as matplotlib should show it, character for character: every ``$`` is
    escaped (``\$``), so that a group name such as ``"$x^2$"`` is not read as mathtext,
    and control characters are written as visible escapes (``\x1b``; ``\n`` too unless ``newlines``, for text
    whose line breaks are meant). Every text a plot builds from data (group and label
    values, column and metric names, reasons, method descriptions) goes through here;
    text passed by the caller (``label=`` in ``**kwargs``) is drawn as given.

    Examples
    --------
    >>> print(literal("$x^2$ site\n2"))
    \$x^2\$ site\n2
    """
    text = str(text)
    if newlines:
        text = "\n".join(printable(line) for line in text.split("\n"))
    else:
        text = printable(text)
    return text.replace("$", r"\$")


def style_axes(
    ax: Any, *, xlabel: str, ylabel: str, title: str | None = None, grid: bool = True
) -> Any:
    """Axis labels, an optional title and a light grid: the common look. The texts are
    drawn literally (:func:`literal`; line breaks in the title kept)."""
    ax.set_xlabel(literal(xlabel, newlines=True))
    ax.set_ylabel(literal(ylabel, newlines=True))
    if title:
        ax.set_title(literal(title, newlines=True), fontsize="medium")
    if grid:
        ax.grid(True, linewidth=0.5, alpha=0.35)
        ax.set_axisbelow(True)
    return ax


def add_legend(ax: Any, *, by_zorder: bool = False, **kwargs: Any) -> Any:
    """A legend of every labelled artist (None when there is nothing to show);
    ``by_zorder`` lists the artists drawn on top first (the classifier before the
    reference and the chance level)."""
    handles, labels = ax.get_legend_handles_labels()
    if not handles:
        return None
    if by_zorder:
        order = sorted(range(len(handles)), key=lambda i: -_zorder(handles[i]))
        handles = [handles[i] for i in order]
        labels = [labels[i] for i in order]
    options = {"fontsize": "small", "framealpha": 0.92}
    options.update(kwargs)
    return ax.legend(handles, labels, **options)


def legend_below(ax: Any, *, inside: str, by_zorder: bool = False) -> Any:
    """A legend below the Axes where the figure makes room for it, else inside them.

    Below the Axes a legend covers nothing, but it is in the saved image only when the
    figure's layout engine (constrained or tight) makes room for it: the figures made by
    :func:`get_axes` have constrained layout. On a figure without one (e.g.
    ``plt.subplots()`` without ``layout=``), whose ``savefig`` would cut off a legend
    below the Axes, it goes inside them at ``inside`` (a matplotlib ``loc``). Below, the
    entries take two columns when they are short enough to fit side by side in the
    Axes' share of the figure's width (a column of a grid of subplots), else one.
    """
    from matplotlib.layout_engine import ConstrainedLayoutEngine, TightLayoutEngine

    engine = ax.figure.get_layout_engine()
    if not isinstance(engine, ConstrainedLayoutEngine | TightLayoutEngine):
        return add_legend(ax, by_zorder=by_zorder, loc=inside)
    labels = ax.get_legend_handles_labels()[1]
    # two columns of "small" text (about 0.075 in a character) and their handles, in the
    # width of the figure's column of subplots that holds these Axes
    spec = ax.get_subplotspec()
    columns = spec.get_gridspec().ncols if spec is not None else 1
    width = ax.figure.get_figwidth() * (spec.colspan.stop - spec.colspan.start if spec else 1)
    longest = max((len(line) for label in labels for line in label.split("\n")), default=0)
    ncol = 2 if 2 * (0.075 * longest + 0.6) <= width / columns else 1
    # anchored a fixed distance below the Axes (not a fraction of their height, which
    # the layout changes while it makes room for the legend)
    from matplotlib.transforms import ScaledTranslation

    below = ScaledTranslation(0.0, -_below_xlabel(ax) / 72.0, ax.figure.dpi_scale_trans)
    return add_legend(
        ax,
        by_zorder=by_zorder,
        loc="upper center",
        bbox_to_anchor=(0.5, 0.0),
        bbox_transform=ax.transAxes + below,
        borderaxespad=0.0,
        ncol=ncol,
    )


def _below_xlabel(ax: Any) -> float:
    """Points from the bottom of the Axes to below their x tick labels and x label."""
    import matplotlib as mpl

    rc = mpl.rcParams
    ticks = ax.xaxis.get_major_ticks()
    tick_size = ticks[0].label1.get_size() if ticks else 10.0
    lines = ax.get_xlabel().count("\n") + 1 if ax.get_xlabel() else 0
    return (
        rc["xtick.major.size"]
        + rc["xtick.major.pad"]
        + 1.25 * tick_size
        + rc["axes.labelpad"]
        + 1.25 * ax.xaxis.label.get_size() * lines
        + 3.0
    )


def _zorder(handle: Any) -> float:
    """An artist's zorder; a container's (error bars) is that of its first artist."""
    if hasattr(handle, "get_zorder"):
        return float(handle.get_zorder())
    children = [c for c in getattr(handle, "get_children", list)() if c is not None]
    return float(children[0].get_zorder()) if children else 0.0


def reference_name(reference: Any) -> str:
    """A short name of a reference for legends ("DBT", "Uniform", ...)."""
    name = type(reference).__name__
    return {
        "DirectedBinaryTree": "DBT",
        "BinormalCurves": "binormal",
        "EmpiricalCurves": "empirical pool",
    }.get(name, name)


#: ASCII spellings in the references' one-line descriptions (printed in text results)
#: and what a figure shows instead.
_FIGURE_SYMBOLS = ((r"\balpha\b", "α"), (r"\bbeta\b", "β"), (r"\^2\b", "²"), (r"<=", "≤"))


def reference_text(description: str) -> str:
    """A reference's description as a figure shows it: Greek letters and symbols
    instead of their ASCII spellings (still to be drawn literally, as :func:`style_axes`
    does with titles).

    Examples
    --------
    >>> print(reference_text("Uniform(alpha, beta) on [0, 1]^2"))
    Uniform(α, β) on [0, 1]²
    >>> print(reference_text("BetaErrors(alpha ~ Beta(2, 8), beta ~ Beta(2, 8))"))
    BetaErrors(α ~ Beta(2, 8), β ~ Beta(2, 8))
    """
    text = str(description)
    for pattern, symbol in _FIGURE_SYMBOLS:
        text = re.sub(pattern, symbol, text)
    return text


def ops_label(
    name: str,
    quantity: str,
    value: float,
    ops: float,
    ci: tuple[float, float] | None = None,
    confidence_level: float | None = None,
) -> str:
    """The legend entry of a classifier's curve with the OPS of its area:
    ``"name: AUC(PR, step) = 0.594, OPS 0.813 (95% CI 0.772-0.850)"``; the interval is
    left out when ``ci`` is None or not finite. The OPS and its interval's ends are
    printed with the decimals that tell them from 0 and 1
    (:func:`opsstats._summary.unit_decimals`: a good model's OPS is 0.999, and
    ``1.000 (1.000-1.000)`` would say nothing).

    Examples
    --------
    >>> ops_label("model", "AUC(PR, step)", 0.5944, 0.8127, (0.7721, 0.8503), 0.95)
    'model: AUC(PR, step) = 0.594, OPS 0.813 (95% CI 0.772-0.850)'
    >>> ops_label("lift", "AUC(lift)", 3.1, 0.99962, (0.99931, 0.99987), 0.95)
    'lift: AUC(lift) = 3.100, OPS 0.99962 (95% CI 0.99931-0.99987)'
    """
    finite = ci is not None and bool(np.all(np.isfinite(ci)))
    shown = [ops, *(ci if finite and ci is not None else ())]
    text = format_unit(shown, 3) if np.isfinite(ops) else [fmt(ops), *format_unit(shown[1:], 3)]
    interval = ""
    if finite:
        level = f"{confidence_level:.0%} " if confidence_level else ""
        interval = f" ({level}CI {text[1]}-{text[2]})"
    return f"{name}: {quantity} = {fmt(value)}, OPS {text[0]}{interval}"


def fmt(x: float, digits: int = 3) -> str:
    """A number for a label: fixed decimals, or ``"undefined"`` for NaN."""
    x = float(x)
    if np.isnan(x):
        return "undefined"
    if np.isinf(x):
        return "inf" if x > 0 else "-inf"
    return f"{x:.{digits}f}"
