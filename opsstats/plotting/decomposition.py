"""The decomposition of a change between two test sets (:func:`opsstats.decompose`) as a
waterfall."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import describe
from ._axes import CLASSIFIER_COLOR, get_axes, literal, style_axes

__all__ = ["plot_decomposition"]

#: The prevalence part's colour (the classifier part is the classifier's colour).
PREVALENCE_COLOR = "C1"
#: The before and after values' bars.
VALUE_COLOR = "0.6"


def plot_decomposition(decomposition: Any, ax: Any = None, **kwargs: Any) -> Any:
    """A waterfall of the change of a metric: the before value, the prevalence part and
    the classifier part as floating bars (each from where the previous one ends, with
    its interval as a whisker at its end), and the after value.

    Parameters
    ----------
    decomposition : Decomposition
    ax : matplotlib Axes, optional
        Where to draw (a new figure when None).
    **kwargs
        Passed to every bar (``ax.bar``).

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> from opsstats import ConfusionMatrix, decompose
    >>> d = decompose(ConfusionMatrix(tp=50, fp=60, fn=50, tn=840),
    ...               ConfusionMatrix(tp=160, fp=30, fn=140, tn=420), metric="f1", rng=0)
    >>> ax = plot_decomposition(d)
    >>> [t.get_text() for t in ax.get_xticklabels()]
    ['before', 'prevalence part', 'classifier part', 'after']
    """
    if not all(hasattr(decomposition, k) for k in ("corners", "prevalence_part", "total")):
        raise TypeError(
            f"`decomposition` must be a Decomposition (opsstats.decompose); got "
            f"{describe(decomposition)}."
        )
    d = decomposition
    ax = get_axes(ax, figsize=(7.0, 4.5))
    before, after = d.before_value, d.after_value
    steps = [
        ("before", 0.0, before, None, VALUE_COLOR),
        ("prevalence part", before, d.prevalence_part, d.prevalence_part_ci, PREVALENCE_COLOR),
        (
            "classifier part",
            before + d.prevalence_part,
            d.classifier_part,
            d.classifier_part_ci,
            CLASSIFIER_COLOR,
        ),
        ("after", 0.0, after, None, VALUE_COLOR),
    ]
    x = np.arange(len(steps))
    for i, (_, base, height, ci, color) in enumerate(steps):
        ax.bar(x[i], height, bottom=base, width=0.6, color=color, edgecolor="0.2", **kwargs)
        end = base + height
        if ci is not None and np.isfinite(ci.low):
            ax.errorbar(
                x[i],
                end,
                yerr=[[max(height - ci.low, 0.0)], [max(ci.high - height, 0.0)]],
                color="0.1",
                capsize=6,
                linewidth=1.2,
            )
        if 0 < i < 3:  # a part: its value beside the bar, clear of the whisker
            where, offset, ha, va = (x[i] + 0.3, base + height / 2), (4, 0), "left", "center"
            text = f"{height:+.3f}"
        else:
            where, offset, ha, va = (x[i], max(base, end)), (0, 4), "center", "bottom"
            text = f"{height:.3f}"
        ax.annotate(
            text,
            where,
            xytext=offset,
            textcoords="offset points",
            ha=ha,
            va=va,
            fontsize="small",
        )
    for i in range(len(steps) - 1):  # connectors: where each bar ends, the next begins
        level = steps[i][1] + steps[i][2]
        ax.plot([x[i] + 0.3, x[i + 1] - 0.3], [level, level], color="0.4", linewidth=0.8)
    ax.axhline(0.0, color="0.3", linewidth=0.8)
    ax.set_xticks(x, [s[0] for s in steps])
    ends = [v for s in steps for v in (s[1], s[1] + s[2])]
    ends += [s[1] + c for s in steps if s[3] is not None for c in s[3] if np.isfinite(c)]
    low, high = min(0.0, *ends), max(0.0, *ends)
    pad = 0.12 * (high - low or 1.0)
    ax.set_ylim(low - (pad if low < 0 else 0), high + pad)
    level = d.confidence_level
    ci_text = (
        f" [{d.total_ci.low:+.3f}, {d.total_ci.high:+.3f}]\nwhiskers: the parts' "
        f"{100 * level:g}% intervals"
        if d.total_ci is not None and level is not None
        else ""
    )
    style_axes(
        ax,
        xlabel=f"prevalence {d.before_prevalence:.3g} -> {d.after_prevalence:.3g}",
        ylabel=literal(d.metric),
        title=f"Change of {d.metric}: {d.total:+.3f}{ci_text}",
    )
    ax.grid(False, axis="x")
    return ax
