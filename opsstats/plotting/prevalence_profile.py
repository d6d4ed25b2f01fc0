"""The prevalence profile of a classifier (:func:`opsstats.ops_prevalence_profile`): its
OPS and its raw value against the prevalence."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._lazy import lazy_module
from .._validation import describe
from ._axes import CHANCE_COLOR, CLASSIFIER_COLOR, get_axes, literal, style_axes

if TYPE_CHECKING:
    from scipy import special
else:
    special = lazy_module("scipy.special")

__all__ = ["plot_prevalence_profile"]

#: The raw value's colour (the OPS is the classifier's colour).
VALUE_COLOR = "C1"
#: Prevalences labelled on the log-odds axis (those inside the profile's range).
_TICKS = (0.001, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95, 0.98, 0.99, 0.999)


def plot_prevalence_profile(profile: Any, ax: Any = None, **kwargs: Any) -> Any:
    """The OPS (left axis, solid) and the raw value (right axis, dashed) of one
    classifier against the prevalence on a log-odds axis, with the observed prevalence
    marked by a vertical line, the reference's Monte Carlo error as a band of
    +-1.96 s.e. around the OPS, and the intervals, if the profile has them, as lighter
    bands.

    Parameters
    ----------
    profile : PrevalenceProfile
    ax : matplotlib Axes, optional
        Where to draw the OPS (a new figure when None); the raw value goes on a twin
        Axes sharing its x axis.
    **kwargs
        Passed to the OPS line (``ax.plot``).

    Returns
    -------
    matplotlib Axes
        The OPS's Axes (the raw value's twin is the figure's other Axes).

    Examples
    --------
    >>> from opsstats import ConfusionMatrix, ops_prevalence_profile
    >>> prof = ops_prevalence_profile(ConfusionMatrix(tp=50, fp=60, fn=50, tn=840), "f1")
    >>> ax = plot_prevalence_profile(prof)
    >>> ax.get_xscale(), ax.get_ylabel()
    ('logit', 'OPS')
    """
    table = getattr(profile, "table", None)
    if table is None or "ops" not in getattr(table, "columns", ()):
        raise TypeError(
            f"`profile` must be a PrevalenceProfile (ops_prevalence_profile); got "
            f"{describe(profile)}."
        )
    ax = get_axes(ax, figsize=(7.5, 5.0))
    x = table["prevalence"].to_numpy(float)
    ops = table["ops"].to_numpy(float)
    se = table["ops_se"].to_numpy(float)
    level = profile.confidence_level
    if "ops_ci_low" in table:
        ax.fill_between(
            x,
            table["ops_ci_low"].to_numpy(float),
            table["ops_ci_high"].to_numpy(float),
            color=CLASSIFIER_COLOR,
            alpha=0.12,
            linewidth=0,
            label=f"OPS, {100 * level:g}% interval" if level else "OPS interval",
        )
    if np.any(se > 0):
        z = float(special.ndtri(0.975))
        ax.fill_between(
            x,
            np.clip(ops - z * se, 0, 1),
            np.clip(ops + z * se, 0, 1),
            color=CLASSIFIER_COLOR,
            alpha=0.3,
            linewidth=0,
            label="reference Monte Carlo error (+-1.96 s.e.)",
        )
    line = {"color": CLASSIFIER_COLOR, "linewidth": 1.8, "label": "OPS", **kwargs}
    ax.plot(x, ops, **line)
    ax.axvline(
        profile.observed_prevalence,
        color=CHANCE_COLOR,
        linestyle=":",
        linewidth=1.0,
        label=f"observed prevalence {profile.observed_prevalence:.3g}",
    )
    ax.set_xscale("logit")
    ticks = [t for t in _TICKS if x.min() * (1 - 1e-9) <= t <= x.max() * (1 + 1e-9)]
    ticks = ticks or list(x[[0, -1]])
    ax.set_xticks(ticks, [f"{t:g}" for t in ticks])
    ax.xaxis.set_minor_formatter(_blank())
    ax.set_ylim(-0.02, 1.02)
    says = {True: "invariant (proved)", False: "not invariant", None: "invariance not known"}
    style_axes(
        ax,
        xlabel="prevalence (log-odds scale)",
        ylabel="OPS",
        title=f"{profile.metric} of one classifier across prevalences: OPS "
        f"{says[profile.invariant]}, range {profile.ops_range:.3g}",
    )
    right = ax.twinx()
    value = table["value"].to_numpy(float)
    if "value_ci_low" in table:
        right.fill_between(
            x,
            table["value_ci_low"].to_numpy(float),
            table["value_ci_high"].to_numpy(float),
            color=VALUE_COLOR,
            alpha=0.1,
            linewidth=0,
            label=f"raw value, {100 * level:g}% interval" if level else "raw value interval",
        )
    right.plot(x, value, color=VALUE_COLOR, linestyle="--", linewidth=1.5, label="raw value")
    right.set_ylabel(literal(profile.metric), color=VALUE_COLOR)
    right.tick_params(axis="y", colors=VALUE_COLOR)
    handles, labels = ax.get_legend_handles_labels()
    more, more_labels = right.get_legend_handles_labels()
    # under the plot: no line of either Axes crosses it
    ax.legend(
        handles + more,
        labels + more_labels,
        fontsize="small",
        loc="upper center",
        bbox_to_anchor=(0.5, -0.16),
        ncol=3,
        frameon=False,
    )
    return ax


def _blank() -> Any:
    from matplotlib.ticker import NullFormatter

    return NullFormatter()
