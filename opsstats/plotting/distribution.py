"""The posterior or bootstrap distribution behind an interval: the draws as a
histogram, with the estimate and the interval marked."""

from __future__ import annotations

import textwrap
from typing import Any

import numpy as np

from .._summary import format_unit
from .._validation import MAX_GRID_POINTS, check_size, describe
from ..results import IntervalResult, OPSResult
from ._axes import CHANCE_COLOR, CLASSIFIER_COLOR, add_legend, get_axes, style_axes

__all__ = ["plot_distribution"]


def _draws_of(result: Any) -> tuple[np.ndarray, float, Any, float | None, str, str]:
    """(draws, estimate, ci, confidence_level, quantity, method) of a result."""
    if isinstance(result, IntervalResult):
        if result.draws is None:
            raise ValueError(
                f"`result` has no draws to plot: its interval ({result.method}) is computed "
                "in closed form, not from draws (as DeLong, Clopper-Pearson, Wilson and "
                "Jeffreys intervals are). Use a draw-based method such as 'dirichlet' or "
                "'bootstrap'."
            )
        return (
            result.draws,
            result.estimate,
            result.ci,
            result.confidence_level,
            result.quantity,
            result.method,
        )
    if isinstance(result, OPSResult):
        if np.ndim(result.estimate) != 0:
            raise ValueError(
                f"`result` must hold one OPS; got {np.size(result.estimate)} "
                "values (plot them one at a time)."
            )
        if result.ci is None:
            raise ValueError(
                "`result` has no interval, hence no draws to plot; ask for one, e.g. "
                "`cm.ops('f1', ci='dirichlet', interval='hpd')`."
            )
        draws = result.details.get("draws") if isinstance(result.details, dict) else None
        if draws is None:
            raise ValueError(
                f"`result` has no draws to plot: its interval ({result.ci_method}) was made "
                "without keeping OPS draws (at fixed prevalence OPS is monotone in the "
                "metric, so the metric's interval is mapped through the OPS function; "
                "DeLong intervals have no draws at all). Plot the metric's own draws with "
                "`plot_distribution(cm.interval(metric))`, or ask for OPS draws with "
                "`interval='hpd'` or `prevalence='random'`."
            )
        return (
            draws,
            float(result.estimate),
            result.ci,
            result.confidence_level,
            f"OPS of {result.metric}",
            result.ci_method or "",
        )
    raise TypeError(
        f"`result` must be an IntervalResult or an OPSResult with draws; got {describe(result)}."
    )


def plot_distribution(result: Any, *, bins: int = 50, ax: Any = None, **kwargs: Any) -> Any:
    """Plot the posterior or bootstrap draws behind an interval.

    A histogram (as a density) of the draws of an
    :class:`~opsstats.results.IntervalResult` (``.draws``) or of an
    :class:`~opsstats.results.OPSResult` (``.details["draws"]``), with the point
    estimate as a solid line and the interval's ends as dashed lines.

    Parameters
    ----------
    result : IntervalResult or OPSResult
        A result made by a draw-based method (Dirichlet-multinomial posterior or
        bootstrap).
    bins : int, default 50
        Number of histogram bins.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure when None.
    **kwargs
        Passed to the histogram (:meth:`matplotlib.axes.Axes.hist`), e.g. ``color``.

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    ValueError
        If the result kept no draws: closed-form intervals (DeLong, Clopper-Pearson,
        Wilson, Jeffreys), or OPS intervals mapped from the metric's interval (the
        default for a confusion matrix at fixed prevalence), or no finite draws.
    TypeError
        If ``result`` is not a result object.

    Notes
    -----
    The draws are the defined ones: draws where the quantity was 0/0 were left out of
    the interval and are counted in the result (``n_undefined``), and they are left out
    here too. The estimate is the value from the data, which need not be the centre of
    the draws.

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> from opsstats import ConfusionMatrix
    >>> from opsstats.plotting import plot_distribution
    >>> cm = ConfusionMatrix(tp=45, fp=30, fn=15, tn=210)
    >>> ax = plot_distribution(cm.interval("f1", rng=0))
    >>> ax.get_xlabel()
    'F1 score'
    >>> [t.get_text() for t in ax.get_legend().get_texts()]  # doctest: +ELLIPSIS
    ['10000 draws', 'estimate 0.667', '95% interval 0.5...-0.7...']
    >>> plt.close(ax.figure)
    """
    draws, estimate, ci, level, quantity, method = _draws_of(result)
    bins = check_size("bins", bins, maximum=MAX_GRID_POINTS)
    draws = np.asarray(draws, dtype=float).ravel()
    draws = draws[np.isfinite(draws)]
    if draws.size == 0:
        raise ValueError("`result` has no finite draws to plot.")

    ax = get_axes(ax)
    kind = "bootstrap resamples" if "bootstrap" in method.lower() else "draws"
    style = {
        "bins": bins,
        "density": True,
        "histtype": "stepfilled",
        "alpha": 0.55,
        "color": CLASSIFIER_COLOR,
        "label": f"{draws.size} {kind}",
    }
    style.update(kwargs)
    heights, _, _ = ax.hist(draws, **style)
    # the markers stop at the tallest bar, leaving the top of the axes to the legend
    top = float(np.max(heights)) if np.size(heights) else 1.0
    ax.vlines(
        float(estimate),
        0,
        top,
        color=CHANCE_COLOR,
        linewidth=2.0,
        zorder=3,
        label=f"estimate {format_unit([estimate, *(ci or ())], 3)[0]}",
    )
    if ci is not None:
        low, high = format_unit([estimate, ci.low, ci.high], 3)[1:]
        pct = f"{100 * level:g}% " if level else ""
        ax.vlines(
            [ci.low, ci.high],
            0,
            top,
            color=CHANCE_COLOR,
            linestyle="--",
            linewidth=1.3,
            zorder=3,
            label=f"{pct}interval {low}-{high}",
        )
    ax.set_ylim(0, 1.45 * top)
    if method:
        title = f"{quantity}\n" + textwrap.fill(method, 80, break_on_hyphens=False)
    else:
        title = quantity
    style_axes(ax, xlabel=quantity, ylabel="density", title=title)
    add_legend(ax, loc="upper right")
    return ax
