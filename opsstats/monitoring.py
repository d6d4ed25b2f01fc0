"""Monitoring a classifier across periods: :func:`monitor` and its result
:class:`MonitorResult` (docs/method.md#standardized-prevalence).

Per period (and group): the class balance and the error rates, and per metric its raw
value, its value at the baseline's prevalence (the same classifier standardized, so that
a change of the class balance alone cannot move it) and its OPS, each with an interval;
and the test of "the classifier changed" against the baseline period: the difference of
the metric standardized to the baseline's prevalence (:func:`opsstats.classifier_change_test`:
:func:`opsstats.compare_test_sets` on the two periods' ``at_prevalence`` objects), Holm-adjusted
across periods; and the raw change split into the prevalence's and the classifier's
parts (:func:`opsstats.decompose`).

The counting is :func:`opsstats.evaluate`'s (any engine it takes: pandas, polars, DuckDB,
PySpark, ...): the columns come from ``evaluate(..., by=[time, *by], prevalence=pi)``
and the periods' confusion matrices and curves for the test from the same engine's count
tables (:func:`opsstats.frames.count_tables`).
"""

from __future__ import annotations

import math
import numbers
import warnings
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ._seam import upcall
from ._summary import Summary
from ._validation import check_confidence_level, check_digits, check_probability, describe
from .classifier_change import classifier_change_test
from .comparison import ComparisonResult, adjust_p_values
from .confusion import ConfusionMatrix
from .curves.score_curve import ScoreCurve
from .decomposition import decompose
from .exceptions import UndefinedMetricWarning
from .frames import count_tables
from .grouped import evaluate
from .grouped._specs import MetricSpec, default_metrics, parse_metrics
from .uncertainty._draws import root_seed, unit_rng
from .uncertainty.proportion import binomial_interval

if TYPE_CHECKING:  # pandas is imported where it is used (importing opsstats stays light)
    import pandas as pd

__all__ = ["monitor", "MonitorResult", "MONITOR_COLUMNS"]

#: The columns of :meth:`MonitorResult.to_frame`, after the time and group columns (one
#: row per period, group and metric):
#:
#: - ``metric``, ``n`` (rows, or the sum of weights), ``prevalence`` with
#:   ``prevalence_ci_low``/``prevalence_ci_high`` (Jeffreys interval of the period's
#:   positives among its rows; NaN with fractional weights);
#: - ``alpha`` (false positive rate) and ``beta`` (false negative rate) with their
#:   intervals (those of ``fpr`` and ``fnr`` as :func:`opsstats.evaluate` gives them; NaN without
#:   predicted labels);
#: - ``value`` (the raw metric) with its interval, ``ops`` (its OPS at the period's own
#:   prevalence) with its interval;
#: - ``standard_prevalence`` (the baseline's prevalence), ``standardized`` (the metric of
#:   the period's classifier at that prevalence, ``at_prevalence``) with its interval,
#:   ``standardized_ops`` with its interval;
#: - ``change`` (the period's standardized value minus the baseline period's, both at the
#:   baseline's prevalence) with ``change_ci_low``/``change_ci_high``, ``p_value`` (the
#:   unadjusted test of "no change of the classifier"), ``p_adjusted`` (Holm across the
#:   periods, within the group and metric), ``classifier_changed`` (``p_adjusted`` below
#:   ``1 - confidence_level``; missing for the baseline and for undefined rows);
#: - ``prevalence_part`` and ``classifier_part`` with their intervals: the raw metric's
#:   change from the baseline period (``value`` minus the baseline's) split symmetrically
#:   into the part due to the prevalence and the part due to the classifier
#:   (:func:`opsstats.decompose` of the two periods; they add up to the change);
#: - ``baseline`` (True on the baseline period's rows), ``method`` (how the intervals and
#:   the test were made), ``reason`` (why a row has NaN; empty otherwise).
MONITOR_COLUMNS = [
    "metric",
    "n",
    "prevalence",
    "prevalence_ci_low",
    "prevalence_ci_high",
    "alpha",
    "alpha_ci_low",
    "alpha_ci_high",
    "beta",
    "beta_ci_low",
    "beta_ci_high",
    "value",
    "value_ci_low",
    "value_ci_high",
    "ops",
    "ops_ci_low",
    "ops_ci_high",
    "standard_prevalence",
    "standardized",
    "standardized_ci_low",
    "standardized_ci_high",
    "standardized_ops",
    "standardized_ops_ci_low",
    "standardized_ops_ci_high",
    "change",
    "change_ci_low",
    "change_ci_high",
    "p_value",
    "p_adjusted",
    "classifier_changed",
    "prevalence_part",
    "prevalence_part_ci_low",
    "prevalence_part_ci_high",
    "classifier_part",
    "classifier_part_ci_low",
    "classifier_part_ci_high",
    "baseline",
    "method",
    "reason",
]

_SPLIT_COLUMNS = MONITOR_COLUMNS[
    MONITOR_COLUMNS.index("prevalence_part") : MONITOR_COLUMNS.index("baseline")
]

#: The columns of :meth:`MonitorResult.summary`'s table (besides time, group and metric).
_SUMMARY_COLUMNS = {
    "prevalence": "prev",
    "value": "value",
    "prevalence_part": "by prev",
    "classifier_part": "by clf",
    "standardized": "std",
    "ops": "OPS",
    "change": "std chg",
    "p_adjusted": "p adj",
    "classifier_changed": "changed",
}


@dataclass(frozen=True)
class MonitorResult:
    """A classifier monitored across periods (:func:`monitor`).

    Attributes
    ----------
    table : pandas.DataFrame
        One row per period, group and metric: the time column, the group columns, then
        :data:`MONITOR_COLUMNS`.
    time : str
        The time column.
    by : tuple of str
        The group columns (empty without groups).
    metrics : tuple of str
        The metrics monitored, as the table's ``metric`` column writes them.
    baseline : object
        The baseline period (the test compares every period with it).
    standard_prevalence : dict
        Per group key (``()`` without groups), the prevalence every period of the group
        is standardized to: the baseline period's, or the number given as ``baseline``
        (NaN when the baseline period of the group has a class absent).
    confidence_level : float
    adjust : str
        The adjustment of the p-values across periods (``"holm"``).
    method : str
        How the numbers were made, in words.
    """

    table: pd.DataFrame
    time: str
    by: tuple[str, ...]
    metrics: tuple[str, ...]
    baseline: Any
    standard_prevalence: dict[tuple, float]
    confidence_level: float
    adjust: str
    method: str
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def periods(self) -> list[Any]:
        """The periods in order."""
        return list(dict.fromkeys(self.table[self.time]))

    @property
    def groups(self) -> list[tuple]:
        """The group keys in order (``[()]`` without groups)."""
        if not self.by:
            return [()]
        keys = self.table[list(self.by)].itertuples(index=False, name=None)
        return list(dict.fromkeys(keys))

    def to_frame(self) -> pd.DataFrame:
        """The tidy table (a copy): one row per period, group and metric."""
        return self.table.copy()

    def flagged(self) -> pd.DataFrame:
        """The rows whose test says the classifier changed (``classifier_changed``)."""
        return self.table[self.table["classifier_changed"].fillna(False).astype(bool)].copy()

    def to_string(self, digits: int = 4) -> str:
        """One line: the periods, the baseline and how many period/metric pairs are
        flagged."""
        digits = check_digits(digits)
        flagged = self.flagged()
        tested = int(self.table["p_adjusted"].notna().sum())
        groups = f", {len(self.groups)} groups" if self.by else ""
        return (
            f"{len(self.periods)} periods of {self.time!r}{groups}, baseline "
            f"{describe(self.baseline)}: {len(flagged)} of {tested} tests flag a change "
            f"of the classifier ({self.adjust}-adjusted p < "
            f"{1 - self.confidence_level:.{max(2, digits - 2)}g})"
        )

    def __str__(self) -> str:
        return self.summary().as_text()

    def summary(self, digits: int = 4) -> Summary:
        """The main columns (prevalence, raw value, standardized value, OPS, change,
        adjusted p-value, flag) per period, group and metric, with how each was made, as
        a :class:`~opsstats._summary.Summary` (text with ``str()``, HTML in notebooks,
        ``.to_frame()`` for a DataFrame); the full table is :meth:`to_frame`."""
        digits = check_digits(digits)
        index = [self.time, *self.by, "metric"]
        table = self.table[[*index, *_SUMMARY_COLUMNS]].rename(columns=_SUMMARY_COLUMNS)
        flags = self.table["classifier_changed"]
        table["changed"] = [
            "" if missing else ("YES" if v else "no")
            for v, missing in zip(flags.astype(object), flags.isna(), strict=True)
        ]
        level = 1 - self.confidence_level
        notes = [
            self.to_string(digits),
            "prev: the period's prevalence; value: the raw metric; by prev, by clf: its "
            "change from the baseline period split into the prevalence's part and the "
            "classifier's (decompose); std: the metric of the period's classifier at the "
            "baseline's prevalence "
            + _prevalences_text(self.standard_prevalence, digits)
            + "; OPS: the raw metric's OPS at the period's own prevalence; std chg: std minus "
            "the baseline period's std; p adj: the test of no change of the classifier "
            f"(classifier_change_test), {self.adjust}-adjusted across periods; changed: "
            f"p adj < {level:g}.",
            "A change of the class balance alone moves value (and the OPS of metrics that "
            "are not prevalence-invariant, docs/method.md#prevalence-invariance) but not "
            "std, std chg, by clf or the test: those differ only through the classifier.",
            self.method,
        ]
        reasons = self.table[self.table["reason"] != ""]
        for _, r in reasons.drop_duplicates([self.time, *self.by, "reason"]).head(8).iterrows():
            where = ", ".join(describe(r[c]) for c in (self.time, *self.by))
            notes.append(f"{where}: {r['reason']}")
        return Summary(
            title=f"Monitoring across {self.time!r}",
            table=table.set_index(index),
            notes=tuple(notes),
            digits=digits,
        )

    def _repr_html_(self) -> str:
        return self.summary().as_html()

    def plot(self, ax: Any = None, *, group: Any = None, **kwargs: Any) -> Any:
        """One panel per metric (the raw value, the standardized value and the OPS over
        the periods, with interval bands; periods whose test flags a change marked) and a
        panel of the prevalence (:func:`opsstats.plotting.monitor.plot_monitor`).

        Parameters
        ----------
        ax : sequence of matplotlib Axes, optional
            One per metric and one for the prevalence (a new figure when None).
        group : tuple or value, optional
            The group to draw (default the first).
        **kwargs
            Passed to the lines (``ax.plot``).

        Returns
        -------
        numpy.ndarray of matplotlib Axes
        """
        return upcall("plot_monitor")(self, ax=ax, group=group, **kwargs)


def _prevalences_text(prevalences: dict[tuple, float], digits: int) -> str:
    values = [v for v in prevalences.values() if not math.isnan(v)]
    if not values:
        return "(undefined)"
    if len(set(values)) == 1:
        return f"({values[0]:.{digits}g})"
    return "(per group)"


def _check_names(time: Any, by: Any) -> list[str]:
    if not isinstance(time, str):
        raise TypeError(f"`time` must be the name of a column (a str); got {describe(time)}.")
    if by is None:
        by_cols: list[str] = []
    elif isinstance(by, str):
        by_cols = [by]
    else:
        by_cols = list(by)
    for b in by_cols:
        if not isinstance(b, str):
            raise TypeError(f"`by` must be column names (str); got {describe(b)}.")
    if time in by_cols:
        raise ValueError(f"`by` must not contain the `time` column {time!r}.")
    return by_cols


def _baseline_period(periods: list[Any], baseline: Any) -> tuple[Any, float | None]:
    """The baseline period and the fixed prevalence (None: the baseline period's)."""
    if baseline is None:
        return periods[0], None
    for p in periods:
        try:
            if p == baseline:
                return p, None
        except (TypeError, ValueError):
            continue
    real = isinstance(baseline, numbers.Real) and not isinstance(baseline, bool)
    if real and 0 < float(baseline) < 1:
        return periods[0], check_probability(
            "baseline", float(baseline), open_low=True, open_high=True
        )
    shown = ", ".join(describe(p) for p in periods[:6]) + (" ..." if len(periods) > 6 else "")
    raise ValueError(
        f"`baseline` must be one of the periods ({shown}) or a prevalence in (0, 1) to "
        f"standardize to; got {describe(baseline)}."
    )


def monitor(
    data: Any,
    *,
    truth: str,
    score: str | None = None,
    pred: str | None = None,
    threshold: float | None = None,
    time: str,
    baseline: Any = None,
    metrics: Any = None,
    by: str | list[str] | None = None,
    pos_label: Any = None,
    weight: str | None = None,
    confidence_level: float = 0.95,
    n_resamples: int = 1000,
    point_reference: Any = None,
    curve_reference: Any = None,
    adjust: str = "holm",
    rng: Any = None,
) -> MonitorResult:
    """Monitor a classifier across periods: did it change, or only the class balance?

    Every period's metrics are given three ways: raw (they move with the class balance),
    standardized to the baseline's prevalence (the period's classifier, its alpha and
    beta or its ROC curve, at that prevalence: ``at_prevalence``; a change of the class
    balance alone cannot move it) and as OPS (which removes the class balance's effect
    exactly only for the prevalence-invariant metrics,
    docs/method.md#prevalence-invariance). The test of "the classifier changed" compares
    each period's standardized metric with the baseline period's
    (:func:`opsstats.classifier_change_test`: :func:`opsstats.compare_test_sets` on the two
    ``at_prevalence`` objects, each period's own rows, the prevalence held fixed), and
    the p-values are Holm-adjusted across the periods within each group and metric. The
    raw metric's change from the baseline period is split into the part due to the
    prevalence and the part due to the classifier (:func:`opsstats.decompose`).

    Parameters
    ----------
    data : data frame
        One row per instance: pandas, or any engine :func:`opsstats.evaluate` takes (polars,
        DuckDB, PySpark, ...; only count tables come into Python).
    truth, score, pred, threshold, pos_label, weight
        As in :func:`opsstats.evaluate`.
    time : str
        The column of periods (a month, a week): sorted as values, one evaluation each.
        At least two periods; no missing values.
    baseline : optional
        The baseline period (default the first in sorted order): the test compares every
        period with it, and every period is standardized to its prevalence (in each
        group, that group's). A number in (0, 1) that is not a period instead fixes the
        prevalence to standardize to, and the baseline period is the first.
    metrics : list, optional
        As in :func:`opsstats.evaluate` (default F1 and MCC with predicted labels, the ROC and PR
        AUC with scores).
    by : str or list of str, optional
        Group columns (a segment, a site): every group monitored on its own.
    confidence_level : float, default 0.95
        Of every interval; a period is flagged when its adjusted p-value is below
        ``1 - confidence_level``.
    n_resamples : int, default 1000
        Draws per interval and per test.
    point_reference, curve_reference : optional
        As in :func:`opsstats.evaluate`.
    adjust : {"holm"}
        The adjustment across periods.
    rng : None, int or numpy.random.Generator

    Returns
    -------
    MonitorResult
        ``to_frame()`` (:data:`MONITOR_COLUMNS`), ``summary()``, ``plot()``.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from opsstats import monitor
    >>> rng = np.random.default_rng(0)
    >>> month = np.repeat(["2024-01", "2024-02", "2024-03"], 3000)
    >>> y = rng.random(9000) < np.repeat([0.05, 0.15, 0.3], 3000)  # the balance drifts
    >>> s = rng.normal(1.5 * y, 1.0)                                # the classifier does not
    >>> df = pd.DataFrame({"month": month, "y": y.astype(int), "s": s})
    >>> res = monitor(df, truth="y", score="s", threshold=1.0, time="month",
    ...               metrics=["f1"], rng=0)
    >>> res.table[["month", "value", "standardized"]].round(2).to_string(index=False)
    '  month  value  standardized\\n2024-01   0.31          0.31\\n2024-02   0.58          0.33\\n2024-03   0.68          0.31'
    >>> res.table["classifier_changed"].tolist()
    [<NA>, False, False]
    """
    import pandas as pd

    by_cols = _check_names(time, by)
    if adjust != "holm":
        raise ValueError(f"`adjust` must be 'holm'; got {describe(adjust)}.")
    check_confidence_level(confidence_level)
    labelled = pred is not None or (score is not None and threshold is not None)
    specs = parse_metrics(
        default_metrics(labels=labelled, scores=score is not None) if metrics is None else metrics
    )
    keys_cols = [time, *by_cols]
    # the count tables (the engine's): the periods, their class sizes, the test's objects
    try:
        tables = count_tables(
            data,
            truth=truth,
            score=score,
            pred=pred,
            threshold=threshold,
            by=keys_cols,
            pos_label=pos_label,
            curves=any(sp.kind == "curve" for sp in specs),
            weight=weight,
        )
    except ValueError as exc:  # the time column is one of count_tables' `by`: say `time`
        missing = f"`by` names a column that is not in `data`: {describe(time)};"
        if str(exc).startswith(missing):
            raise ValueError("`time`" + str(exc)[len("`by`") :]) from None
        raise
    keys = [tuple(k) for k in tables.keys]
    if any(_missing(k[0]) for k in keys):
        raise ValueError(f"`time` column {time!r} has missing values; give every row a period.")
    if any(_missing(v) for k in keys for v in k[1:]):
        raise ValueError("`by` columns have missing values; give every row a group.")
    periods = list(dict.fromkeys(k[0] for k in keys))
    if len(periods) < 2:
        raise ValueError(
            f"`time` column {time!r} has {len(periods)} period(s); monitoring needs 2 or more."
        )
    base_period, fixed = _baseline_period(periods, baseline)
    groups = list(dict.fromkeys(k[1:] for k in keys))
    index = {k: i for i, k in enumerate(keys)}
    classes = tables.class_counts

    standard: dict[tuple, float] = {}
    base_reason: dict[tuple, str] = {}
    for g in groups:
        i = index.get((base_period, *g))
        if i is None:
            base_reason[g] = f"the baseline period {describe(base_period)} has no rows here"
        elif not (classes[i, 0] > 0 and classes[i, 1] > 0):
            base_reason[g] = (
                f"the baseline period {describe(base_period)} has "
                f"{'no positives' if classes[i, 0] <= 0 else 'no negatives'} here"
            )
        standard[g] = (
            fixed
            if fixed is not None
            else (
                float(classes[i, 0] / (classes[i, 0] + classes[i, 1]))
                if i is not None and g not in base_reason
                else math.nan
            )
        )

    seed = root_seed(rng)
    extra = [n for n in ("fpr", "fnr") if labelled]
    asked = [sp.label for sp in specs]
    eval_metrics = [*specs, *(MetricSpec(n) for n in extra if n not in asked)]
    common = {
        "truth": truth,
        "score": score,
        "pred": pred,
        "threshold": threshold,
        "metrics": eval_metrics,
        "by": keys_cols,
        "pos_label": pos_label,
        "weight": weight,
        "confidence_level": confidence_level,
        "n_resamples": n_resamples,
        "point_reference": point_reference,
        "curve_reference": curve_reference,
        "rng": seed,
    }
    # one evaluation per prevalence to standardize to (one without groups); a group's
    # rows do not depend on the other groups (each group's generator is its key's)
    evaluated: dict[float, pd.DataFrame] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        for pi in sorted({p for p in standard.values() if not math.isnan(p)}):
            evaluated[pi] = evaluate(data, prevalence=pi, **common)
        if any(math.isnan(p) for p in standard.values()):
            evaluated[math.nan] = evaluate(data, **common)

    rows: list[dict[str, Any]] = []
    for g in groups:
        pi_star = standard[g]
        frame = evaluated[pi_star if not math.isnan(pi_star) else math.nan]
        by_key = {
            k: part
            for k, part in frame.groupby(keys_cols, sort=False, dropna=False)
            if (k if isinstance(k, tuple) else (k,))[1:] == g
        }
        for sp in specs:
            group_rows = _group_rows(
                g,
                sp,
                periods=periods,
                by_key=by_key,
                index=index,
                tables=tables,
                base_period=base_period,
                pi_star=pi_star,
                base_reason=base_reason.get(g, ""),
                seed=seed,
                time=time,
                by_cols=by_cols,
                confidence_level=confidence_level,
                n_resamples=n_resamples,
            )
            rows.extend(group_rows)
    table = pd.DataFrame(rows, columns=[*keys_cols, *MONITOR_COLUMNS])
    table["classifier_changed"] = table["classifier_changed"].astype("boolean")
    undefined = table[table["reason"] != ""]
    if len(undefined):
        where = "; ".join(
            f"{', '.join(describe(r[c]) for c in keys_cols)} / {r['metric']}: {r['reason']}"
            for _, r in undefined.head(3).iterrows()
        )
        more = f" (and {len(undefined) - 3} more)" if len(undefined) > 3 else ""
        warnings.warn(
            f"{len(undefined)} row(s) kept with NaN and a reason: {where}{more}.",
            UndefinedMetricWarning,
            stacklevel=2,
        )
    method = (
        f"Intervals: {confidence_level:.0%}, {n_resamples} draws each, as evaluate gives "
        "them (standardized: the period's own class sizes, the prevalence fixed); the "
        "prevalence's: Jeffreys. Test: classifier_change_test of the baseline period and the "
        "period at the baseline's prevalence (compare_test_sets of their at_prevalence "
        f"objects, independent draws of each); p-values {adjust}-adjusted across the periods "
        "of each group and metric. Parts: decompose of the baseline period and the period "
        "(each drawn with its prevalence)."
    )
    return MonitorResult(
        table=table,
        time=time,
        by=tuple(by_cols),
        metrics=tuple(asked),
        baseline=base_period,
        standard_prevalence=standard,
        confidence_level=confidence_level,
        adjust=adjust,
        method=method,
        details={"fixed_prevalence": fixed},
    )


def _missing(value: Any) -> bool:
    if value is None:
        return True
    try:
        return bool(value != value)  # NaN, NaT
    except (TypeError, ValueError):
        return type(value).__name__ == "NAType"


def _period_object(tables: Any, i: int, spec: MetricSpec) -> ConfusionMatrix | ScoreCurve:
    if spec.kind == "curve":
        return ScoreCurve.from_counts(*tables.scores[i])
    tp, fp, fn, tn = (c.item() for c in tables.cells[i])
    return ConfusionMatrix(tp=tp, fp=fp, fn=fn, tn=tn)


def _group_rows(
    g: tuple,
    spec: MetricSpec,
    *,
    periods: list[Any],
    by_key: dict[Any, Any],
    index: dict[tuple, int],
    tables: Any,
    base_period: Any,
    pi_star: float,
    base_reason: str,
    seed: int,
    time: str,
    by_cols: list[str],
    confidence_level: float,
    n_resamples: int,
) -> list[dict[str, Any]]:
    """The rows of one group and metric, one per period, with the test against the
    baseline period and the Holm adjustment across the periods."""
    classes = tables.class_counts
    out: list[dict[str, Any]] = []
    base_i = index.get((base_period, *g))
    base_obj = None
    if base_i is not None and not base_reason:
        base_obj = _period_object(tables, base_i, spec)
    for t in periods:
        key = (t, *g)
        i = index.get(key)
        if i is None:  # the group has no rows in this period: a row that says so
            empty: dict[str, Any] = dict.fromkeys(MONITOR_COLUMNS, math.nan)
            empty.update(zip([time, *by_cols], key, strict=True))
            empty.update(
                metric=spec.label,
                n=0,
                classifier_changed=None,
                baseline=t == base_period,
                method="",
                reason="no rows of this group in this period",
            )
            out.append(empty)
            continue
        part = by_key[key]
        r = part[part["metric"] == spec.label].iloc[0]
        row: dict[str, Any] = dict(zip([time, *by_cols], key, strict=True))
        pos, neg = (c.item() for c in classes[i])
        n = pos + neg
        row.update(
            metric=spec.label,
            n=r["n"],
            prevalence=r["prevalence"],
        )
        if n > 0 and float(pos).is_integer() and float(neg).is_integer():
            # rows, or whole-number frequency weights (a row of weight 3 is three rows)
            low, high = binomial_interval(
                int(pos), int(n), method="jeffreys", confidence_level=confidence_level
            )
        else:  # fractional weights: no binomial interval
            low = high = math.nan
        row.update(prevalence_ci_low=low, prevalence_ci_high=high)
        for name, col in (("fpr", "alpha"), ("fnr", "beta")):
            rr = part[part["metric"] == name]
            if len(rr):
                row[col] = rr["value"].iloc[0]
                row[f"{col}_ci_low"] = rr["value_ci_low"].iloc[0]
                row[f"{col}_ci_high"] = rr["value_ci_high"].iloc[0]
            else:
                row[col] = row[f"{col}_ci_low"] = row[f"{col}_ci_high"] = math.nan
        for c in ("value", "value_ci_low", "value_ci_high", "ops", "ops_ci_low", "ops_ci_high"):
            row[c] = r[c]
        for c in (
            "standard_prevalence",
            "standardized",
            "standardized_ci_low",
            "standardized_ci_high",
            "standardized_ops",
            "standardized_ops_ci_low",
            "standardized_ops_ci_high",
        ):
            row[c] = r[c] if c in r.index else math.nan
        if math.isnan(pi_star):
            row["standard_prevalence"] = math.nan
        reason = str(r["reason"])
        row.update(dict.fromkeys(_SPLIT_COLUMNS, math.nan))
        row.update(
            change=math.nan,
            change_ci_low=math.nan,
            change_ci_high=math.nan,
            p_value=math.nan,
            classifier_changed=None,
            baseline=t == base_period,
            method=str(r["method"]),
        )
        if base_reason:
            reason = "; ".join(x for x in (reason, base_reason) if x)
        elif t == base_period:
            row.update(change=0.0, prevalence_part=0.0, classifier_part=0.0)
        elif not (pos > 0 and neg > 0):
            reason = reason or f"{'no positives' if pos <= 0 else 'no negatives'} in this period"
        elif base_obj is not None:
            obj = _period_object(tables, i, spec)
            test, why = _test(
                base_obj,
                obj,
                spec,
                prevalence=pi_star,
                confidence_level=confidence_level,
                n_resamples=n_resamples,
                rng=unit_rng(seed, key, spec.label, "monitor test"),
            )
            row.update(
                _split(
                    base_obj,
                    obj,
                    spec,
                    confidence_level=confidence_level,
                    n_resamples=n_resamples,
                    rng=unit_rng(seed, key, spec.label, "monitor decomposition"),
                )
            )
            if test is None:
                reason = "; ".join(x for x in (reason, why) if x)
            else:
                row.update(
                    change=test.estimate,
                    change_ci_low=test.ci.low,
                    change_ci_high=test.ci.high,
                    p_value=test.p_value,
                )
                row["method"] = f"{row['method']}; test: {test.method}"
        row["reason"] = reason
        out.append(row)
    p = np.array([r["p_value"] for r in out], dtype=float)
    adjusted = adjust_p_values(p, method="holm")
    for r, a in zip(out, adjusted, strict=True):
        r["p_adjusted"] = a
        if not math.isnan(a):
            r["classifier_changed"] = bool(a < 1 - confidence_level)
    return out


def _test(
    before: Any,
    after: Any,
    spec: MetricSpec,
    *,
    prevalence: float,
    confidence_level: float,
    n_resamples: int,
    rng: np.random.Generator,
) -> tuple[Any, str]:
    """The difference of the metric standardized to ``prevalence`` (period minus
    baseline: :func:`opsstats.classifier_change_test`) with its interval and p-value, or
    None and why not."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = classifier_change_test(
                before,
                after,
                metric=spec.name,
                at=spec.at,
                prevalence=prevalence,
                confidence_level=confidence_level,
                n_resamples=n_resamples,
                rng=rng,
            )
    except ValueError as exc:
        return None, f"no test: {exc}"
    assert isinstance(result, ComparisonResult)  # a metric, not the error rates
    if not np.isfinite(result.p_value):
        return None, "no test: the difference is undefined"
    return result, ""


def _split(
    before: Any,
    after: Any,
    spec: MetricSpec,
    *,
    confidence_level: float,
    n_resamples: int,
    rng: np.random.Generator,
) -> dict[str, float]:
    """The raw change split into the prevalence's and the classifier's parts
    (:func:`opsstats.decompose`), as columns; NaN when undefined."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            d = decompose(
                before,
                after,
                metric=spec.name,
                at=spec.at,
                confidence_level=confidence_level,
                n_resamples=n_resamples,
                rng=rng,
            )
    except ValueError:
        return {}
    out = {}
    for part in ("prevalence_part", "classifier_part"):
        ci = getattr(d, f"{part}_ci")
        out[part] = getattr(d, part)
        out[f"{part}_ci_low"] = math.nan if ci is None else ci.low
        out[f"{part}_ci_high"] = math.nan if ci is None else ci.high
    return out
