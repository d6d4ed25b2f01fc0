"""A classifier monitored across periods (:func:`opsstats.monitor`): one panel per metric
(raw, standardized and OPS over time with interval bands, flagged periods marked) and a
panel of the prevalence."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._validation import describe
from ._axes import CLASSIFIER_COLOR, add_legend, literal, pyplot, style_axes

__all__ = ["plot_monitor"]

#: Colours of the three series of a metric's panel.
SERIES = (
    ("value", "raw value", "C1", "--"),
    ("standardized", "at the baseline's prevalence", CLASSIFIER_COLOR, "-"),
    ("ops", "OPS", "C2", ":"),
)
#: The colour marking a period whose test flags a change of the classifier.
FLAG_COLOR = "C3"


def _group_rows(result: Any, group: Any) -> tuple[Any, str]:
    table = result.table
    if not result.by:
        return table, ""
    groups = result.groups
    if group is None:
        group = groups[0]
    key = group if isinstance(group, tuple) else (group,)
    if key not in groups:
        raise ValueError(
            f"`group` must be one of the groups ({', '.join(describe(g) for g in groups[:6])}"
            f"{' ...' if len(groups) > 6 else ''}); got {describe(group)}."
        )
    mask = np.ones(len(table), dtype=bool)
    for col, value in zip(result.by, key, strict=True):
        mask &= (table[col] == value).to_numpy()
    where = ", ".join(f"{c} = {v}" for c, v in zip(result.by, key, strict=True))
    return table[mask], where


def plot_monitor(result: Any, ax: Any = None, *, group: Any = None, **kwargs: Any) -> Any:
    """One panel per metric (its raw value, its value at the baseline's prevalence and
    its OPS over the periods, each with its interval as a band; the periods whose test
    flags a change of the classifier marked with a red triangle and a shaded column), and
    under them a panel of the prevalence with its interval.

    Parameters
    ----------
    result : MonitorResult
    ax : sequence of matplotlib Axes, optional
        One per metric and one for the prevalence (a new figure when None).
    group : optional
        The group to draw when the result has groups (default the first).
    **kwargs
        Passed to every line (``ax.plot``).

    Returns
    -------
    numpy.ndarray of matplotlib Axes
        The metrics' panels, then the prevalence's.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from opsstats import monitor
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(4000) < np.repeat([0.1, 0.3], 2000)
    >>> df = pd.DataFrame({"m": np.repeat(["jan", "feb"], 2000), "y": y,
    ...                    "s": rng.normal(1.5 * y, 1)})
    >>> res = monitor(df, truth="y", score="s", threshold=1.0, time="m", metrics=["f1"], rng=0)
    >>> axes = plot_monitor(res)
    >>> [a.get_ylabel() for a in axes]
    ['f1', 'prevalence']
    """
    table = getattr(result, "table", None)
    if table is None or "standardized" not in getattr(table, "columns", ()):
        raise TypeError(f"`result` must be a MonitorResult (monitor); got {describe(result)}.")
    rows, where = _group_rows(result, group)
    metrics = list(result.metrics)
    n_panels = len(metrics) + 1
    if ax is None:
        plt = pyplot()
        _, axes = plt.subplots(
            n_panels,
            1,
            sharex=True,
            figsize=(10.0, 2.1 * len(metrics) + 1.9),
            layout="constrained",
            height_ratios=[2.0] * len(metrics) + [1.3],
        )
        axes = np.atleast_1d(axes)
    else:
        axes = np.asarray(list(ax) if isinstance(ax, Sequence) else ax, dtype=object).ravel()
        if len(axes) != n_panels:
            raise ValueError(
                f"`ax` must hold {n_panels} Axes (one per metric and one for the "
                f"prevalence); got {len(axes)}."
            )
    periods = list(dict.fromkeys(rows[result.time]))
    x = np.arange(len(periods))
    level = f"{100 * result.confidence_level:g}%"
    for a, metric in zip(axes[:-1], metrics, strict=True):
        m = rows[rows["metric"] == metric].set_index(result.time).reindex(periods)
        for col, label, color, style in SERIES:
            y = m[col].to_numpy(float)
            low = m[f"{col}_ci_low"].to_numpy(float)
            high = m[f"{col}_ci_high"].to_numpy(float)
            a.fill_between(x, low, high, color=color, alpha=0.15, linewidth=0)
            a.plot(x, y, style, marker="o", ms=3.5, color=color, label=label, **kwargs)
        flagged = m["classifier_changed"].fillna(False).astype(bool).to_numpy()
        for xi in x[flagged]:
            a.axvspan(xi - 0.4, xi + 0.4, color=FLAG_COLOR, alpha=0.12, linewidth=0)
        if flagged.any():
            top = np.nanmax(m[["value", "standardized", "ops"]].to_numpy(float)[flagged], axis=1)
            a.plot(
                x[flagged],
                top,
                "v",
                color=FLAG_COLOR,
                ms=8,
                linestyle="none",
                label=f"classifier changed ({result.adjust}-adjusted p < "
                f"{1 - result.confidence_level:g})",
            )
        base = m["baseline"].fillna(False).astype(bool).to_numpy()
        for xi in x[base]:
            a.axvline(xi, color="0.4", linewidth=0.8, linestyle="-.", zorder=0)
        style_axes(a, xlabel="", ylabel=metric)
    add_legend(
        axes[0],
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
        title=f"bands: {level} intervals",
    )
    p = rows.drop_duplicates(result.time).set_index(result.time).reindex(periods)
    pa = axes[-1]
    pa.fill_between(
        x,
        p["prevalence_ci_low"].to_numpy(float),
        p["prevalence_ci_high"].to_numpy(float),
        color="0.5",
        alpha=0.25,
        linewidth=0,
    )
    pa.plot(x, p["prevalence"].to_numpy(float), "-o", color="0.25", ms=3.5, **kwargs)
    style_axes(pa, xlabel=result.time, ylabel="prevalence")
    pa.set_xticks(x, [literal(str(t)) for t in periods], rotation=45 if len(x) > 8 else 0)
    title = f"Monitoring: baseline {result.baseline}" + (f" ({where})" if where else "")
    axes[0].set_title(literal(title), fontsize="medium")
    return axes
