"""Forest plot of per-group or per-label OPS with intervals, from a tidy evaluation
table (:func:`opsstats.evaluate`, ``MultiLabel.evaluate``)."""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING, Any

import numpy as np

from .._lazy import lazy_module
from .._summary import format_unit, printable
from .._validation import check_real, describe
from ..curves import _geometry as geo
from ..grouped import parse_metrics
from ..metrics import resolve_metric
from ._axes import CLASSIFIER_COLOR, NULL_STYLE, get_axes, literal, style_axes

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = lazy_module("pandas")

__all__ = ["plot_forest"]


def metric_text(name: Any) -> str:
    """How a figure names a metric of a tidy table: the registry's label of a metric,
    a curve area or an operating point, or the text itself (a name the registry does
    not know).

    Examples
    --------
    >>> metric_text("balanced_accuracy"), metric_text("pr_auc")
    ('Balanced accuracy', 'AUC(PR, step)')
    >>> metric_text("precision@recall=0.9"), metric_text("my score")
    ('Precision (PPV) at recall = 0.9', 'my score')
    """
    text = str(name)
    try:
        (spec,) = parse_metrics([text])
        if spec.at is not None:
            return geo.parse_at(spec.name, spec.at).label
        if spec.kind == "curve":
            return geo.parse_area(spec.name).label
        return resolve_metric(spec.name).label
    except (ValueError, TypeError, KeyError):
        return text


def _row_labels(frame: Any, label: Any) -> tuple[list[str], list[str]]:
    """Text of each row, and the columns it is made of: the given column(s), or every
    column before ``metric`` (the group or label columns), with the metric added when
    the table holds several (metrics by their labels, :func:`metric_text`)."""
    if label is None:
        cols = list(frame.columns)
        lead = cols[: cols.index("metric")] if "metric" in cols else []
        if "metric" in cols and (not lead or frame["metric"].nunique() > 1):
            lead = [*lead, "metric"]
        if not lead:
            return [str(i) for i in frame.index], []
    else:
        lead = [label] if isinstance(label, str) else list(label)
    texts = frame[lead].copy()
    if "metric" in lead:
        texts["metric"] = [metric_text(m) for m in texts["metric"]]
    rows = texts.itertuples(index=False)
    return [" · ".join(_cell(v) for v in row) for row in rows], lead


def _cell(value: Any) -> str:
    """A label cell: whole floats without their ".0" (group codes such as 1.0)."""
    if isinstance(value, float | np.floating) and float(value).is_integer():
        return f"{float(value):g}"
    return str(value)


def _check_frame(frame: Any, label: Any, estimate: str, low: str, high: str) -> None:
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(
            f"`frame` must be a pandas DataFrame (a tidy evaluation table); got {describe(frame)}."
        )
    if len(frame) == 0:
        raise ValueError("`frame` must have at least one row; got an empty DataFrame.")
    if (label is not None and not isinstance(label, str)) and (
        not isinstance(label, list | tuple) or not all(isinstance(c, str) for c in label)
    ):
        raise TypeError(
            f"`label` must be a column name or a list of column names; got {describe(label)}."
        )
    needed = [("estimate", estimate), ("low", low), ("high", high)]
    if label is not None:
        needed += [("label", c) for c in ([label] if isinstance(label, str) else list(label))]
    for arg, column in needed:
        if not isinstance(column, str) or column not in frame.columns:
            raise ValueError(
                f"`{arg}` must name a column of `frame`; got {describe(column)}, columns "
                f"are {', '.join(map(repr, frame.columns))}."
            )
    for c in (estimate, low, high):
        if not pd.api.types.is_numeric_dtype(frame[c]):
            raise TypeError(
                f"column {describe(c)} of `frame` must be numeric; got dtype {frame[c].dtype}."
            )


def _common_interval_method(frame: Any, defined: np.ndarray) -> str | None:
    if "method" not in frame.columns or not defined.any():
        return None
    methods = frame.loc[defined, "method"].dropna().astype(str).unique()
    if len(methods) != 1 or not methods[0]:
        return None
    text = methods[0]
    return text.split("interval: ", 1)[1] if "interval: " in text else text


def plot_forest(
    frame: Any,
    *,
    label: Any = None,
    estimate: str = "ops",
    low: str = "ops_ci_low",
    high: str = "ops_ci_high",
    null: float | None = 0.5,
    annotate: bool = True,
    title: str | None = None,
    xlabel: str | None = None,
    ax: Any = None,
    **kwargs: Any,
) -> Any:
    """Forest plot of per-group or per-label OPS with their intervals.

    One row per row of ``frame``, top to bottom in the frame's order: the estimate as
    a point with its interval as a horizontal bar. Rows whose estimate is NaN (a group
    with a class absent, an undefined metric) are kept as a gap with their ``reason``
    written in the row, never dropped. A dotted vertical line marks ``null`` (OPS = 0.5,
    the middle of the reference), as the x label says. Metrics are named by their labels
    in the registry (``balanced_accuracy``: "Balanced accuracy").

    Parameters
    ----------
    frame : pandas.DataFrame
        A tidy evaluation table: optional group or label columns, then ``metric``,
        ``n``, ``prevalence``, ``value``, ``value_ci_low``, ``value_ci_high``, ``ops``,
        ``ops_se``, ``ops_ci_low``, ``ops_ci_high``, ``method``, ``reference``,
        ``reason``. Only ``estimate``, ``low``, ``high`` (and ``label``) are required.
    label : str or list of str, optional
        Column(s) naming the rows. Default: the columns before ``metric`` (the group or
        label columns), plus ``metric`` when the table holds more than one metric.
    estimate, low, high : str, default "ops", "ops_ci_low", "ops_ci_high"
        Columns of the estimate and its interval; ``"value"``, ``"value_ci_low"``,
        ``"value_ci_high"`` plot the metric values instead.
    null : float or None, default 0.5
        Where to draw the vertical reference line; None for none.
    annotate : bool, default True
        Write "estimate (low-high)" at the right of each row.
    title, xlabel : str, optional
        The title and the x label. Default: what is plotted, of which metric, with the
        intervals' method (when the rows share one) in the title and the meaning of
        the dotted line in the x label.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure (constrained layout, its height growing with the
        rows) when None.
    **kwargs
        Passed to the estimates and their interval bars
        (:meth:`matplotlib.axes.Axes.errorbar`), e.g. ``color``.

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    TypeError
        If ``frame`` is not a DataFrame or a plotted column is not numeric.
    ValueError
        If ``frame`` is empty or lacks a column.

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> import pandas as pd
    >>> from opsstats.plotting import plot_forest
    >>> frame = pd.DataFrame({
    ...     "group": ["young", "middle", "old"], "metric": "F1 score",
    ...     "ops": [0.82, float("nan"), 0.64], "ops_ci_low": [0.75, float("nan"), 0.51],
    ...     "ops_ci_high": [0.88, float("nan"), 0.76],
    ...     "reason": ["", "no positives: OPS is undefined", ""]})
    >>> ax = plot_forest(frame)
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['young', 'middle', 'old']
    >>> print(ax.get_xlabel())
    OPS (o-value) of F1 score
    dotted line: OPS = 0.5, the middle of the reference
    >>> plt.close(ax.figure)
    """
    _check_frame(frame, label, estimate, low, high)
    if null is not None:
        null = check_real("null", null)
    names, label_columns = _row_labels(frame, label)
    est = frame[estimate].to_numpy(dtype=float)
    lo = frame[low].to_numpy(dtype=float)
    hi = frame[high].to_numpy(dtype=float)
    n = len(frame)
    y = np.arange(n)[::-1].astype(float)  # first row on top
    defined = ~np.isnan(est)

    ax = get_axes(ax, figsize=(6.4, max(2.4, 0.5 * n + 1.4)))
    from matplotlib.transforms import blended_transform_factory

    if null is not None:
        ax.axvline(float(null), **NULL_STYLE)
    # interval bars where both ends are known; bare points otherwise
    has_ci = defined & ~np.isnan(lo) & ~np.isnan(hi)
    err = np.vstack([np.where(has_ci, est - lo, 0.0), np.where(has_ci, hi - est, 0.0)])
    style = {
        "color": CLASSIFIER_COLOR,
        "fmt": "o",
        "markersize": 6,
        "capsize": 3,
        "elinewidth": 1.5,
        "zorder": 3,
    }
    style.update(kwargs)
    ax.errorbar(est[defined], y[defined], xerr=err[:, defined], **style)

    row_text = blended_transform_factory(ax.transAxes, ax.transData)
    reasons = frame["reason"].tolist() if "reason" in frame.columns else [""] * n
    for i in np.flatnonzero(~defined):
        reason = reasons[i] if isinstance(reasons[i], str) and reasons[i] else "no reason given"
        lines = textwrap.wrap(  # narrow enough to stay between the row labels and notes
            f"not defined: {printable(reason)}",
            44,
            max_lines=3,
            break_on_hyphens=False,
            placeholder=" [...]",
        )
        text = "\n".join(literal(line) for line in lines)
        ax.text(
            0.5,
            y[i],
            text,
            transform=row_text,
            ha="center",
            va="center",
            fontsize="x-small",
            style="italic",
            color="0.3",
            gid="reason",
            zorder=4,
            bbox={"facecolor": "white", "edgecolor": "none", "alpha": 0.85, "pad": 1.5},
        )
    if annotate:
        for i in np.flatnonzero(defined):
            e, *ends = format_unit([est[i], *((lo[i], hi[i]) if has_ci[i] else ())], 3)
            text = e + (f" ({ends[0]}-{ends[1]})" if has_ci[i] else "")
            ax.text(
                1.02,
                y[i],
                text,
                transform=row_text,
                ha="left",
                va="center",
                fontsize="small",
                clip_on=False,
                gid="annotation",
            )

    ax.set_yticks(y)
    ax.set_yticklabels([literal(name) for name in names])
    ax.set_ylim(-0.7, n - 0.3)
    if estimate == "ops":
        ax.set_xlim(0, 1)
    metrics = frame["metric"].dropna().unique() if "metric" in frame.columns else []
    one = metric_text(metrics[0]) if len(metrics) == 1 else None
    if estimate == "ops":
        what = "OPS (o-value)" + (f" of {one}" if one else "")
    elif estimate == "value":
        what = one or "metric value"
    else:
        what = estimate + (f" of {one}" if one else "")
    if title is None:
        title = what
        method = _common_interval_method(frame, defined & has_ci)
        if method:
            # narrow enough to stay above the Axes beside long row labels
            title += "\n" + textwrap.fill(f"interval: {method}", 56, break_on_hyphens=False)
    if xlabel is None:
        xlabel = what
        if null is not None:
            middle = estimate == "ops" and float(null) == 0.5
            xlabel += (
                "\ndotted line: OPS = 0.5, the middle of the reference"
                if middle
                else f"\ndotted line at {float(null):g}"
            )
    style_axes(ax, xlabel=xlabel, ylabel=" · ".join(label_columns), title=title)
    ax.grid(False, axis="y")
    return ax
