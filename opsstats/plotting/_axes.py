"""Shared plumbing of the plots: matplotlib imported lazily, Axes obtained or created,
one look for every figure.

``import opsstats`` (and ``import opsstats.plotting``) must not import matplotlib: every
function here imports it when it is called.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._summary import printable
from .._validation import describe

__all__ = [
    "pyplot",
    "get_axes",
    "style_axes",
    "add_legend",
    "reference_name",
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


def get_axes(ax: Any = None, *, figsize: tuple[float, float] | None = None) -> Any:
    """``ax`` itself, checked, or the Axes of a new figure when ``ax`` is None.

    A new figure (rather than ``plt.gca()``) so that two calls never draw over each
    other by accident; pass ``ax=`` to overlay plots.
    """
    if ax is None:
        _, ax = pyplot().subplots(figsize=figsize)
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


def fmt(x: float, digits: int = 3) -> str:
    """A number for a label: fixed decimals, or ``"undefined"`` for NaN."""
    x = float(x)
    if np.isnan(x):
        return "undefined"
    if np.isinf(x):
        return "inf" if x > 0 else "-inf"
    return f"{x:.{digits}f}"
