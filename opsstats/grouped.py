"""Tidy evaluation across groups and test sets (in the spirit of R's yardstick).

``evaluate(data, truth=..., score=... or pred=..., metrics=..., by=...)`` returns one row
per group and metric: n, prevalence, the metric value with its interval, its OPS with
its interval, how they were made, and, where something is undefined, why. This is the
paper's General / Elder / Hospital comparison, and the model-monitoring use: the same
classifier over months with a changing prevalence.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal
from typing import Any, cast

import numpy as np
import pandas as pd

from ._labels import positive_mask
from ._validation import (
    MAX_BINS,
    MAX_COUNT,
    check_1d,
    check_choice,
    check_confidence_level,
    check_resamples,
    check_scores,
    check_size,
    check_threshold,
    describe,
    threshold_for,
)
from .confusion import ConfusionMatrix
from .curves._binning import bin_bounds
from .curves._geometry import CURVES, parse_area, parse_at
from .curves.score_curve import ScoreCurve
from .exceptions import UndefinedMetricWarning
from .frames import CountTables, count_tables, is_frame
from .grouped_comparisons import _compare_groups
from .metrics import get_metric
from .ops import _check_reference, confusion_matrix_ops, curve_ops, default_reference
from .reference.dbt import DirectedBinaryTree
from .uncertainty._cm_groups import covered, group_point_columns
from .uncertainty._draws import root_seed, unit_rng
from .uncertainty.confusion import _Draws, _Quantity, interval_from_draws, ops_from_draws
from .uncertainty.curve import METHODS as CURVE_METHODS
from .uncertainty.curve import curve_ops_intervals
from .uncertainty.methods import registered_interval_methods

__all__ = ["evaluate", "COLUMNS", "DEFAULT_METRICS", "default_metrics"]

#: The columns of a tidy evaluation, after any group or label columns.
COLUMNS = [
    "metric",
    "n",
    "prevalence",
    "value",
    "value_ci_low",
    "value_ci_high",
    "ops",
    "ops_se",
    "ops_ci_low",
    "ops_ci_high",
    "method",
    "reference",
    "reason",
]

_AREAS = {f"{p}{c}_auc" for p in ("", "n") for c in CURVES}


@dataclass(frozen=True)
class MetricSpec:
    """What to evaluate: a confusion-matrix metric, a curve area, or a metric at an
    operating point of the curve."""

    name: str
    at: dict[str, float] | None = None

    @property
    def kind(self) -> str:
        if self.at is not None or self.name in _AREAS:
            return "curve"
        return "point"

    @property
    def label(self) -> str:
        if self.at is None:
            return self.name
        ((axis, u),) = self.at.items()
        return f"{self.name}@{axis}={u:g}"


def _parse_point(text: str) -> tuple[str, dict[str, float] | None]:
    """``"precision@recall=0.9"`` (the label a tidy table prints) to a name and ``at``."""
    if "@" not in text:
        return text, None
    name, _, point = text.partition("@")
    axis, eq, u = point.partition("=")
    try:
        if not eq:
            raise ValueError
        return name, {axis.strip(): float(u)}
    except ValueError:
        raise ValueError(
            f"an operating point is written metric@axis=value, e.g. "
            f"'precision@recall=0.9'; got {describe(text)}."
        ) from None


def parse_metrics(metrics: Any) -> list[MetricSpec]:
    """``["f1", "pr_auc", ("precision", {"recall": 0.9}), "lift@rate=0.05"]`` to specs
    (checked)."""
    if isinstance(metrics, str) or (
        isinstance(metrics, tuple) and len(metrics) == 2 and isinstance(metrics[1], dict)
    ):
        metrics = [metrics]
    if isinstance(metrics, tuple):
        metrics = list(metrics)
    if not isinstance(metrics, Sequence) or not metrics:
        raise TypeError(
            "`metrics` must be a non-empty list of metric names or "
            f"(name, at) pairs; got {describe(metrics)}."
        )
    specs = []
    for m in metrics:
        if isinstance(m, MetricSpec):
            specs.append(m)
            continue
        if isinstance(m, tuple) and len(m) == 2 and isinstance(m[1], dict):
            name, at = m
        elif isinstance(m, str):
            name, at = _parse_point(m)
        else:
            raise TypeError(
                "each entry of `metrics` must be a name or a (name, at) pair "
                f"such as ('precision', {{'recall': 0.9}}); got {describe(m)}."
            )
        key = name.strip().lower()
        if key not in _AREAS:
            key = get_metric(key).name  # raises for unknown names, listing valid ones
        elif at is not None:
            raise ValueError(
                f"`at` applies to a metric read off a curve, not to the area {describe(name)}."
            )
        specs.append(MetricSpec(key, None if at is None else dict(at)))
    return specs


#: The default ``metrics`` of :func:`evaluate`, by what the data give: confusion-matrix
#: metrics need predicted labels, curve quantities need scores.
DEFAULT_METRICS = {
    "labels": ("f1", "mcc"),
    "scores": ("roc_auc", "pr_auc"),
}


def default_metrics(*, labels: bool, scores: bool) -> tuple[str, ...]:
    """The metrics :func:`evaluate` reports when none are asked for: F1 and MCC when
    predicted labels are given, the ROC and PR AUC when scores are, all four with
    both.

    Examples
    --------
    >>> default_metrics(labels=True, scores=False)
    ('f1', 'mcc')
    >>> default_metrics(labels=False, scores=True)
    ('roc_auc', 'pr_auc')
    """
    return (DEFAULT_METRICS["labels"] if labels else ()) + (
        DEFAULT_METRICS["scores"] if scores else ()
    )


def _counts(t: np.ndarray, p: np.ndarray) -> ConfusionMatrix:
    return ConfusionMatrix(
        tp=int(np.count_nonzero(t & p)),
        fp=int(np.count_nonzero(~t & p)),
        fn=int(np.count_nonzero(t & ~p)),
        tn=int(np.count_nonzero(~t & ~p)),
    )


def _row(spec: MetricSpec, n: float, prevalence: float, **values: Any) -> dict[str, Any]:
    row: dict[str, Any] = dict.fromkeys(COLUMNS, np.nan)
    row.update(metric=spec.label, n=n, prevalence=prevalence, method="", reference="", reason="")
    row.update(values)
    return row


def evaluate_unit(
    specs: list[MetricSpec],
    *,
    cm: ConfusionMatrix | None = None,
    curve: Any = None,
    ci: str | None = "dirichlet",
    curve_ci: str = "auto",
    confidence_level: float = 0.95,
    n_resamples: int = 1000,
    point_reference: Any = None,
    curve_reference: Any = None,
    root: int = 0,
    key: tuple = (),
    truth: np.ndarray | None = None,
    class_counts: tuple[float, float] | None = None,
) -> list[dict[str, Any]]:
    """Rows of the tidy table for one unit (a group, a label, a test set).

    Confusion-matrix metrics need ``cm``; curve quantities need ``curve``. Every
    quantity that cannot be computed gets a row with NaN and the reason; ``truth`` (the
    unit's true labels), or ``class_counts`` (its positives and negatives), gives n and
    the prevalence when there is neither.

    Intervals: every confusion-matrix metric of the unit takes its value interval and
    its OPS interval from one set of draws of the unit's confusion matrix, the OPS
    interval being the value interval's ends mapped through OPS; the curve quantities
    whose method draws share one set of draws per method and cell layout. Each set's
    generator is derived from the call's ``root`` seed and the unit's ``key``
    (:func:`~opsstats.uncertainty._draws.unit_rng`), so a row's interval does not
    depend on the order of the units nor on which other metrics are asked for.
    """
    source = cm if cm is not None else curve
    if source is not None:
        n, pi = source.n, float(source.prevalence)
    elif truth is not None and truth.size:
        n, pi = int(truth.size), float(np.mean(truth))
    elif class_counts is not None and class_counts[0] + class_counts[1]:
        total = class_counts[0] + class_counts[1]  # rows, or a sum of weights
        n, pi = (int(total) if float(total).is_integer() else total), class_counts[0] / total
    else:
        n, pi = np.nan, np.nan
    one_class = not np.isnan(pi) and not 0 < pi < 1
    rows: dict[int, dict[str, Any]] = {}
    point: list[int] = []
    on_curve: list[int] = []
    for i, spec in enumerate(specs):
        obj = cm if spec.kind == "point" else curve
        if one_class:
            rows[i] = _one_class_row(spec, obj, n, pi)
        elif obj is None:
            need = (
                "predicted labels (`pred`, or `score` with `threshold`)"
                if spec.kind == "point"
                else "scores (`score`)"
            )
            rows[i] = _row(spec, n, pi, reason=f"{spec.label} needs {need}")
        else:
            (point if spec.kind == "point" else on_curve).append(i)
    if point:
        rows.update(
            _point_rows(
                [(i, specs[i]) for i in point],
                cast(ConfusionMatrix, cm),
                ci,
                confidence_level,
                n_resamples,
                point_reference,
                unit_rng(root, key, "confusion matrix"),
            )
        )
    if on_curve:
        rows.update(
            _curve_rows(
                [(i, specs[i]) for i in on_curve],
                curve,
                None if ci is None else curve_ci,
                confidence_level,
                n_resamples,
                curve_reference,
                lambda method, cells: unit_rng(root, key, "curve", method, cells),
            )
        )
    return [rows[i] for i in range(len(specs))]


def _one_class_row(spec: MetricSpec, obj: Any, n: float, pi: float) -> dict[str, Any]:
    """A unit with one class absent: no OPS (there is nothing to rank against), but the
    metric's value where the registry defines it (F1 of an all-positive group is
    2 TP / (2 TP + FN), 0 when nothing is predicted positive: 0/0 only when
    TP + FP + FN = 0)."""
    absent = "positives" if pi == 0 else "negatives"
    reason = f"no {absent}: OPS is undefined with one class absent"
    value = np.nan
    if spec.kind == "point" and obj is not None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMetricWarning)
            value = obj.metric(spec.name)
        if np.isnan(value):
            metric = get_metric(spec.name)
            reason += f"; {metric.label} is 0/0 ({metric.undefined})"
    elif spec.kind == "curve":
        reason += "; curve quantities need both classes"
    else:
        reason += f"; {spec.label} needs predicted labels (`pred`, or `score` with `threshold`)"
    return _row(spec, n, pi, value=value, reason=reason)


def _point_rows(
    items: list[tuple[int, MetricSpec]],
    cm: ConfusionMatrix,
    ci: str | None,
    confidence_level: float,
    n_resamples: int,
    reference: Any,
    rng: np.random.Generator,
) -> dict[int, dict[str, Any]]:
    """The confusion-matrix metrics of one unit, with intervals from one set of draws."""
    ref = _check_reference(reference, "point", "a confusion-matrix metric")
    out: dict[int, dict[str, Any]] = {}
    draws: Any = None
    no_draws = ""
    if ci is not None:
        try:
            draws = _Draws(
                cm,
                ci,
                n_resamples,
                rng,
                prior="jeffreys",
                prevalence="fixed",
                stratified=True,
                show_progress=False,
            )
        except ValueError as exc:  # e.g. a bootstrap that needs whole counts
            no_draws = str(exc)
    kind = "percentile" if ci == "bootstrap" else "equal-tailed"  # registered: equal-tailed
    for i, spec in items:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMetricWarning)
            try:
                result = confusion_matrix_ops(cm, spec.name, reference=ref)
            except ValueError as exc:
                out[i] = _row(spec, cm.n, cm.prevalence, reason=str(exc))
                continue
            value_iv = None
            if draws is not None:
                quantity = _Quantity(spec.name, {})
                value_iv = interval_from_draws(cm, quantity, draws, kind, confidence_level).ci
                result = ops_from_draws(
                    cm, quantity, result, draws, kind, confidence_level, ref, "strict"
                )
        reason = result.details.get("undefined", "")
        if no_draws:
            reason = "; ".join(filter(None, (reason, f"no interval: {no_draws}")))
        out[i] = _result_row(spec, cm.n, cm.prevalence, result, value_iv, reason, "")
    return out


def _curve_rows(
    items: list[tuple[int, MetricSpec]],
    curve: Any,
    curve_ci: str | None,
    confidence_level: float,
    n_resamples: int,
    reference: Any,
    rng_for: Any,
) -> dict[int, dict[str, Any]]:
    """The curve quantities of one unit; those whose interval method draws share one
    set of draws per method and cell layout."""
    ref = _check_reference(reference, "curve", "a curve quantity")
    out: dict[int, dict[str, Any]] = {}
    quantities: list[tuple[Any, str]] = []
    notes: list[str] = []
    for _, spec in items:
        q = ref._quantity(spec.name, spec.at, None, {})
        method, note = curve_ci or "auto", ""
        if method == "delong" and not (spec.name == "roc_auc" and spec.at is None):
            method, note = "bootstrap", " (DeLong applies to the ROC AUC only)"
        elif method == "jackknife" and spec.at is not None:
            method, note = "bootstrap", " (the jackknife applies to curve areas only)"
        quantities.append((q, method))
        notes.append(note)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        if curve_ci is None:
            results: list[Any] = [curve_ops(curve, q, reference=ref) for q, _ in quantities]
        else:
            results = curve_ops_intervals(
                curve,
                quantities,
                reference=ref,
                confidence_level=confidence_level,
                n_resamples=n_resamples,
                rng_for=rng_for,
            )
        for (i, spec), (q, _), result, note in zip(items, quantities, results, notes, strict=True):
            no_interval = ""
            if isinstance(result, ValueError):  # no interval here (e.g. one row of a class):
                no_interval = str(result)  # keep the value and its OPS, say why
                result = curve_ops(curve, q, reference=ref)
            value_iv = result.details.get("value_ci")
            reason = result.details.get("undefined", "")
            if no_interval:
                reason = "; ".join(filter(None, (reason, f"no interval: {no_interval}")))
            out[i] = _result_row(spec, curve.n, curve.prevalence, result, value_iv, reason, note)
    return out


def _result_row(
    spec: MetricSpec,
    n: float,
    pi: float,
    result: Any,
    value_iv: Any,
    reason: str,
    note: str,
) -> dict[str, Any]:
    out = {
        "value": result.value,
        "ops": result.estimate,
        "ops_se": result.standard_error,
        "method": result.method
        if result.ci is None
        else f"{result.method}; interval: {result.ci_method}{note}",
        "reference": result.reference,
        "reason": reason,
    }
    if result.ci is not None:
        out.update(ops_ci_low=result.ci.low, ops_ci_high=result.ci.high)
    if value_iv is not None:
        out.update(value_ci_low=value_iv.low, value_ci_high=value_iv.high)
    return _row(spec, n, pi, **out)


def evaluate(
    data: pd.DataFrame,
    *,
    truth: str,
    score: str | None = None,
    pred: str | None = None,
    threshold: float | None = None,
    metrics: Any = None,
    by: str | Sequence[str] | None = None,
    pos_label: Any = None,
    ci: str | None = "dirichlet",
    curve_ci: str = "auto",
    confidence_level: float = 0.95,
    n_resamples: int = 1000,
    point_reference: Any = None,
    curve_reference: Any = None,
    rng: Any = None,
    bins: int | None = None,
    max_distinct: int | None = None,
    weight: str | None = None,
    compare: str | None = None,
    id: str | None = None,
) -> pd.DataFrame:
    """Evaluate a classifier on every group of a data frame: metrics, OPS and intervals.

    Parameters
    ----------
    data : pandas.DataFrame
        One row per instance.
    truth : str
        Column of true binary labels.
    score : str, optional
        Column of scores (higher means more likely positive). Needed for curve
        quantities; with ``threshold`` it also gives the predicted labels.
    pred : str, optional
        Column of predicted labels (instead of ``score`` + ``threshold``).
    threshold : float, optional
        Predict positive where ``score >= threshold``: a finite number (NaN and +-inf
        are refused; an integer is compared exactly with integer scores).
    metrics : list, optional
        Confusion-matrix metrics (``"f1"``, ``"mcc"``, ...), curve areas
        (``"roc_auc"``, ``"pr_auc"``, ``"lift_auc"``, ``"gain_auc"``, NAUC forms), and
        ``(metric, at)`` pairs for a metric read off the curve, e.g.
        ``("precision", {"recall": 0.9})``. By default, what the data given allow:
        ``("f1", "mcc")`` with predicted labels only (``pred``, or ``score`` with
        ``threshold``, and no curve), ``("roc_auc", "pr_auc")`` with scores only
        (``score`` without ``threshold``), all four with both (``score`` with
        ``threshold``, or ``score`` and ``pred``); see :data:`DEFAULT_METRICS`.
    by : str or list of str, optional
        Grouping columns (a subgroup, a month, a test set). None: the whole frame.
    pos_label : label, optional
        The positive class of ``truth`` (and ``pred``).
    ci : {"dirichlet", "bootstrap", None} or a registered method's name
        Interval method for confusion-matrix metrics and their OPS (a method registered
        with :func:`opsstats.uncertainty.methods.register_interval_method` too).
    curve_ci : {"auto", "bootstrap", "delong", "dirichlet", "jackknife"}
        Interval method for curve quantities when ``ci`` is not None. ``"auto"`` (the
        default, as :meth:`ScoreCurve.interval`): for the ROC and PR AUC the Dirichlet
        posterior of each class's scores when the smaller class has fewer than 100
        rows, else the logit-scale interval of DeLong's (ROC AUC) or the stratified
        jackknife's (PR AUC) variance; the percentile bootstrap otherwise. DeLong
        applies to the ROC AUC only and the jackknife to curve areas only; other curve
        quantities then use the bootstrap, and the ``method`` column says so.
    confidence_level : float, default 0.95
    n_resamples : int, default 1000
        Posterior draws or bootstrap resamples per interval.
    point_reference, curve_reference : optional
        References for confusion-matrix metrics (default ``Uniform()``) and curve
        quantities (default ``DirectedBinaryTree()``; with many distinct group
        prevalences, ``DirectedBinaryTree(prevalence_step=0.125)``, which interpolates
        curve areas in prevalence: docs/method.md#prevalence-grid).
    rng : None, int or numpy.random.Generator
        Seeds every group's draws: one integer is drawn from it, and each group's
        generator is derived from that integer and the group's key, so that a group's
        intervals do not depend on the other groups nor on the other metrics.
    bins : int, optional
        Curves from ``bins`` equal-width score bins counted by the engine instead of
        from every distinct score; each curve row's ``method`` then gives the exact
        range of the unbinned value (`docs/method.md#binned-curves`).
    max_distinct : int, optional
        Bin (into ``bins`` bins, default 1,000) only when some group has more distinct
        scores than this.
    weight : str, optional
        Column of non-negative frequency weights (``sample_weight``): every count is a
        sum of weights. Curve intervals need whole-number weights (a row with weight 3
        counts as three rows); with fractional weights a curve row keeps its value and
        OPS and says why it has no interval.
    compare : str, optional
        Compare instead of evaluating: the column whose values are compared (the
        classifiers of a long table, or months, sites), every pair within every group
        and metric, each metric's value and its OPS (:func:`compare_groups`, which has
        the options of :func:`opsstats.compare`; ``ci``, ``curve_ci``, ``bins``,
        ``max_distinct`` and ``weight`` do not apply). With ``id`` the levels are paired
        by that column of instance ids; without, they are independent test sets.
    id : str, optional
        With ``compare``: the column matching the rows of the compared classifiers.

    Returns
    -------
    pandas.DataFrame
        One row per group and metric: the group columns, then ``metric``, ``n``,
        ``prevalence``, ``value``, ``value_ci_low``, ``value_ci_high``, ``ops``,
        ``ops_se`` (Monte Carlo s.e.; 0 when exact), ``ops_ci_low``, ``ops_ci_high``,
        ``method``, ``reference``, ``reason`` (why a row is NaN, or why it has no interval
        ("no interval: ..."); empty otherwise).
        Groups with a class absent appear with NaN and the reason; nothing is dropped.
        ``attrs["confusion_matrices"]`` maps each group key to its confusion matrix when
        predicted labels were available.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from opsstats import evaluate
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(2000) < 0.2
    >>> df = pd.DataFrame({"y": y.astype(int), "s": rng.normal(y * 1.5, 1),
    ...                    "site": rng.choice(["A", "B"], 2000)})
    >>> out = evaluate(df, truth="y", score="s", threshold=1.0, metrics=["f1", "mcc"],
    ...                by="site", rng=1)
    >>> out[["site", "metric", "n"]].to_string(index=False)
    'site metric    n\\n   A     f1  960\\n   A    mcc  960\\n   B     f1 1040\\n   B    mcc 1040'
    >>> bool(((out["ops_ci_low"] <= out["ops"]) & (out["ops"] <= out["ops_ci_high"])).all())
    True
    """
    if compare is not None:
        unused = {"bins": bins, "max_distinct": max_distinct, "weight": weight}
        if any(v is not None for v in unused.values()):
            raise ValueError(
                "`compare` compares the rows of a pandas DataFrame; "
                + ", ".join(f"`{k}`" for k, v in unused.items() if v is not None)
                + " do not apply to it."
            )
        common = {
            "truth": truth,
            "compare_by": compare,
            "score": score,
            "pred": pred,
            "threshold": threshold,
            "metrics": metrics,
            "by": by,
            "id": id,
            "confidence_level": confidence_level,
            "n_resamples": n_resamples,
            "point_reference": point_reference,
            "curve_reference": curve_reference,
            "pos_label": pos_label,
            "rng": root_seed(rng),
        }
        # one set of draws per comparison, mapped to the values and to the OPS
        return pd.concat(_compare_groups(data, (False, True), **common), ignore_index=True)
    if id is not None:
        raise ValueError("`id` pairs the rows of compared classifiers; give `compare` with it.")
    native = isinstance(data, pd.DataFrame)
    if not native and not is_frame(data):
        raise TypeError(
            "`data` must be a data frame (pandas, polars, pyarrow, DuckDB, PySpark or Dask); "
            f"got {describe(data)}."
        )
    by_cols = [] if by is None else ([by] if isinstance(by, str) else list(by))
    for arg, col in [
        ("truth", truth),
        ("score", score),
        ("pred", pred),
        ("weight", weight),
        *(("by", c) for c in by_cols),
    ]:
        if col is None:
            continue
        if not isinstance(col, str | int) or isinstance(col, bool):
            raise TypeError(f"`{arg}` must be a column name; got {describe(col)}.")
        if native and col not in data.columns:
            shown = ", ".join(map(str, list(data.columns)[:20]))
            more = f", ... ({len(data.columns)} in all)" if len(data.columns) > 20 else ""
            raise ValueError(
                f"`{arg}` names a column that is not in `data`: {describe(col)}; "
                f"columns: {shown}{more}."
            )
    if pred is not None and threshold is not None:
        raise ValueError("give `pred` or `score` with `threshold`, not both.")
    if threshold is not None:
        if score is None:
            raise ValueError("`threshold` needs `score`.")
        threshold = check_threshold(threshold)
    if score is None and pred is None:
        raise ValueError("give `score` (with `threshold` for confusion-matrix metrics) or `pred`.")
    labelled = pred is not None or threshold is not None
    if metrics is None:
        metrics = default_metrics(labels=labelled, scores=score is not None)
    specs = parse_metrics(metrics)
    if ci is not None:
        ci = check_choice(
            "ci", ci, ("dirichlet", "bootstrap", "delong", *registered_interval_methods())
        )
    curve_ci = check_choice("curve_ci", curve_ci, CURVE_METHODS)
    if ci == "delong":  # DeLong for curves, the default for confusion-matrix metrics
        ci, curve_ci = "dirichlet", "delong"
    confidence_level = check_confidence_level(confidence_level)
    n_resamples = check_resamples(n_resamples)
    root = root_seed(rng)
    if score is None and any(s.kind == "curve" for s in specs):
        raise ValueError(
            "curve quantities ("
            + ", ".join(s.label for s in specs if s.kind == "curve")
            + ") need `score`."
        )

    options = {
        "ci": ci,
        "curve_ci": curve_ci,
        "confidence_level": confidence_level,
        "n_resamples": n_resamples,
        "point_reference": point_reference,
        "curve_reference": curve_reference,
        "root": root,
    }
    if bins is not None:
        bins = check_size("bins", bins, minimum=2, maximum=MAX_BINS)
    if max_distinct is not None:
        max_distinct = check_size("max_distinct", max_distinct, minimum=1, maximum=MAX_COUNT)
    if not native or bins is not None or max_distinct is not None or weight is not None:
        # the engine counts (pandas too, when binning); only the count tables come here
        tables = count_tables(
            data,
            truth=truth,
            score=score,
            pred=pred,
            threshold=threshold,
            by=by_cols,
            pos_label=pos_label,
            curves=any(sp.kind == "curve" for sp in specs),
            bins=bins,
            max_distinct=max_distinct,
            weight=weight,
        )
        return _evaluate_tables(tables, specs, by_cols, labelled, **options)

    # positions, not labels, locate a group's rows: any index (repeated labels too) works
    frame = data[
        list(dict.fromkeys(c for c in (truth, score, pred, *by_cols) if c is not None))
    ].reset_index(drop=True)
    groups = (
        [((), frame)]
        if not by_cols
        else frame.groupby(by_cols, sort=True, dropna=False, observed=True)
    )

    truth_values = check_1d("truth", frame[truth], label=f"`truth` (column {describe(truth)})")
    pred_values = (
        None
        if pred is None
        else check_1d("pred", frame[pred], label=f"`pred` (column {describe(pred)})")
    )
    all_truth, pos = positive_mask(
        truth_values,
        name="truth",
        pos_label=pos_label,
        other=pred_values,
        other_name="pred",
    )
    all_pred = None if pred_values is None else pred_values == pos
    all_score = (
        None
        if score is None
        else check_scores("score", frame[score], label=f"`score` (column {describe(score)})")
    )
    curve_specs = [sp for sp in specs if sp.kind == "curve"]
    if curve_specs and score is not None:
        # one pass over the reference curves serves every group's prevalence
        group_pis = (
            pd.Series(all_truth, index=frame.index)
            .groupby([frame[c] for c in by_cols], dropna=False, observed=True)
            .mean()
            if by_cols
            else pd.Series([all_truth.mean()])
        )
        pis = [p for p in group_pis.to_numpy(dtype=float) if 0 < p < 1]
        if curve_reference is None:
            curve_reference = _default_curve_reference(pis)
        if hasattr(curve_reference, "precompute"):
            _precompute(curve_reference, curve_specs, np.asarray(pis))
    rows: list[dict[str, Any]] = []
    confusion: dict[tuple, ConfusionMatrix] = {}
    if (
        by_cols
        and labelled
        and all(sp.kind == "point" for sp in specs)
        and covered([sp.name for sp in specs], ci, point_reference)
    ):
        # many groups' confusion-matrix metrics as arrays over groups (same numbers)
        predicted = (
            all_pred
            if all_score is None or threshold is None
            else all_score >= threshold_for(all_score.dtype, threshold)
        )
        out = _array_rows(
            cast(Any, groups),
            all_truth,
            cast(np.ndarray, predicted),
            specs,
            confusion,
            by_cols,
            ci=ci,
            confidence_level=confidence_level,
            n_resamples=n_resamples,
            reference=point_reference,
            root=root,
        )
        _warn_undefined(out, by_cols)  # before attrs, which pandas deep-copies on a filter
        out.attrs["confusion_matrices"] = confusion
        return out
    for key, g in groups:
        key = key if isinstance(key, tuple) else (key,)
        rows_of_group = frame.index.get_indexer(g.index) if by_cols else slice(None)
        t = all_truth[rows_of_group]
        cm = curve = None
        if all_pred is not None:
            cm = _counts(t, all_pred[rows_of_group])
        if all_score is not None:
            s = all_score[rows_of_group]
            if threshold is not None:
                cm = _counts(t, s >= threshold_for(s.dtype, threshold))
            if any(sp.kind == "curve" for sp in specs) and 0 < t.mean() < 1:
                curve = ScoreCurve.from_scores(t, s)
        if cm is not None and labelled:
            confusion[key] = cm
        unit_rows = evaluate_unit(
            specs,
            cm=cm,
            curve=curve,
            ci=ci,
            curve_ci=curve_ci,
            confidence_level=confidence_level,
            n_resamples=n_resamples,
            point_reference=point_reference,
            curve_reference=curve_reference,
            root=root,
            key=key,
            truth=t,
        )
        for r in unit_rows:
            rows.append({**dict(zip(by_cols, key, strict=True)), **r})
    out = pd.DataFrame(rows, columns=[*by_cols, *COLUMNS])
    out.attrs["confusion_matrices"] = confusion  # per group, for reports
    _warn_undefined(out, by_cols)
    return out


def _precompute(reference: Any, curve_specs: list[MetricSpec], pis: np.ndarray) -> None:
    """One pass over a curve reference for every group's prevalence (where it can)."""
    if hasattr(reference, "precompute"):
        reference.precompute(
            [
                parse_area(sp.name) if sp.at is None else parse_at(sp.name, sp.at)
                for sp in curve_specs
            ],
            [p for p in pis if 0 < p < 1],
        )


def _evaluate_tables(
    tables: CountTables,
    specs: list[MetricSpec],
    by_cols: list[str],
    labelled: bool,
    **options: Any,
) -> pd.DataFrame:
    """:func:`evaluate` from count tables (:func:`opsstats.frames.count_tables`): the
    same rows as from the rows themselves, each group's confusion matrix from its cells
    and its curve from :meth:`ScoreCurve.from_counts`."""
    keys, cells, classes = tables.keys, tables.cells, tables.class_counts
    curve_specs = [sp for sp in specs if sp.kind == "curve"]
    if curve_specs:
        pis = classes[:, 0] / classes.sum(axis=1)
        if options["curve_reference"] is None:
            options["curve_reference"] = _default_curve_reference([p for p in pis if 0 < p < 1])
        _precompute(options["curve_reference"], curve_specs, pis)
    confusion: dict[tuple, ConfusionMatrix] = {}
    if (
        by_cols
        and labelled
        and not curve_specs
        and not tables.weighted  # the array path counts rows
        and covered([sp.name for sp in specs], options["ci"], options["point_reference"])
    ):
        out = _count_rows(keys, cells, specs, confusion, by_cols, **_point_options(options))
        _warn_undefined(out, by_cols)
        out.attrs["confusion_matrices"] = confusion
        return out
    rows: list[dict[str, Any]] = []
    for g, key in enumerate(keys):
        cm = curve = None
        positives, negatives = (c.item() for c in classes[g])  # int, or float weights
        if labelled:
            tp, fp, fn, tn = (c.item() for c in cells[g])
            cm = confusion[key] = ConfusionMatrix(tp=tp, fp=fp, fn=fn, tn=tn)
        if tables.scores is not None and curve_specs and positives and negatives:
            curve = ScoreCurve.from_counts(*tables.scores[g])
        unit = evaluate_unit(
            specs, cm=cm, curve=curve, key=key, class_counts=(positives, negatives), **options
        )
        if tables.bins is not None and tables.scores is not None and curve is not None:
            _note_bin_bounds(unit, specs, tables.scores[g], tables.bins, options, tables.weighted)
        rows.extend({**dict(zip(by_cols, key, strict=True)), **r} for r in unit)
    out = pd.DataFrame(rows, columns=[*by_cols, *COLUMNS])
    out.attrs["confusion_matrices"] = confusion
    _warn_undefined(out, by_cols)
    return out


def _note_bin_bounds(
    unit: list[dict[str, Any]],
    specs: list[MetricSpec],
    counts: tuple[np.ndarray, np.ndarray, np.ndarray],
    bins: int,
    options: dict[str, Any],
    weighted: bool = False,
) -> None:
    """Say in each curve row's method that the curve was binned, with the range of the
    unbinned value over the orders inside the bins (docs/method.md#binned-curves)."""
    ref = _check_reference(options["curve_reference"], "curve", "a curve quantity")
    for row, spec in zip(unit, specs, strict=True):
        if spec.kind != "curve" or np.isnan(row["value"]):
            continue
        quantity = ref._quantity(spec.name, spec.at, None, {})
        lo, hi, _, reason = bin_bounds(quantity, *counts, rows="any" if weighted else "unit")
        where = (
            f"the unbinned value lies in [{_outward(lo, ROUND_FLOOR)}, "
            f"{_outward(hi, ROUND_CEILING)}]" + (" (for rows of any weight)" if weighted else "")
            if not np.isnan(lo)
            else f"no bound on the unbinned value is derived ({reason})"
        )
        row["method"] = (
            f"{row['method']}; scores in {bins} equal-width bins (ties inside a bin): {where}"
        )


def _outward(value: float, rounding: str) -> str:
    """``value`` to 6 significant digits, rounded down (``ROUND_FLOOR``) or up, so that
    a printed range still holds what the exact one holds."""
    if not np.isfinite(value) or value == 0:
        return f"{value:.6g}"
    exact = Decimal(value)
    return f"{float(exact.quantize(Decimal(1).scaleb(exact.adjusted() - 5), rounding)):.6g}"


def _point_options(options: dict[str, Any]) -> dict[str, Any]:
    """The options of :func:`_count_rows` from those of :func:`evaluate_unit`."""
    return {
        "ci": options["ci"],
        "confidence_level": options["confidence_level"],
        "n_resamples": options["n_resamples"],
        "reference": options["point_reference"],
        "root": options["root"],
    }


#: The step in logit(prevalence) of the grid on which the default curve reference
#: interpolates curve areas when there are many distinct prevalences
#: (docs/method.md#prevalence-grid).
PREVALENCE_STEP = 0.125


def _default_curve_reference(pis: list[float]) -> Any:
    """The default curve reference (the DBT), interpolating in prevalence when its grid
    needs fewer passes over the curves than the distinct prevalences would."""
    grid = DirectedBinaryTree(prevalence_step=PREVALENCE_STEP)
    if grid.grid_nodes(np.unique(pis)).size < len(set(pis)):
        return grid
    return default_reference("curve")


def _array_rows(
    groups: Any,
    truth: np.ndarray,
    predicted: np.ndarray,
    specs: list[MetricSpec],
    confusion: dict[tuple, ConfusionMatrix],
    by_cols: list[str],
    **options: Any,
) -> pd.DataFrame:
    """:func:`_count_rows` of the groups of a pandas groupby: the counts by one
    ``np.bincount`` over (group, cell)."""
    codes = groups.ngroup().to_numpy()
    keys = [k if isinstance(k, tuple) else (k,) for k in groups.size().index]
    cell = 2 * (~truth).astype(np.int64) + (~predicted)  # tp 0, fp 1, fn 2, tn 3
    counts = np.bincount(4 * codes + np.array([0, 2, 1, 3])[cell], minlength=4 * len(keys))
    return _count_rows(keys, counts.reshape(len(keys), 4), specs, confusion, by_cols, **options)


def _count_rows(
    keys: list[tuple],
    counts: np.ndarray,
    specs: list[MetricSpec],
    confusion: dict[tuple, ConfusionMatrix],
    by_cols: list[str],
    **options: Any,
) -> pd.DataFrame:
    """The rows :func:`evaluate_unit` gives each group, from the groups' (G, 4) counts
    (tp, fp, fn, tn) through
    :func:`~opsstats.uncertainty._cm_groups.group_point_columns`, as columns; the groups
    it leaves (a class absent, a metric 0/0, ...) go through :func:`evaluate_unit`."""
    done, columns = group_point_columns(keys, counts, [sp.name for sp in specs], **options)
    for key, c in zip(keys, counts.tolist(), strict=True):
        confusion[key] = ConfusionMatrix(tp=c[0], fp=c[1], fn=c[2], tn=c[3])
    m, kept = len(specs), np.flatnonzero(done)
    # the groups done here: column by column, each (group, metric) as _row makes it
    table: dict[str, Any] = {
        c: [keys[g][j] for g in kept for _ in range(m)] for j, c in enumerate(by_cols)
    }
    for col in COLUMNS:
        per_spec = [columns[sp.name].get(col, np.nan) for sp in specs]
        if col == "metric":
            table[col] = [sp.label for sp in specs] * len(kept)
        elif any(isinstance(v, np.ndarray) for v in per_spec):
            table[col] = np.column_stack(
                [np.broadcast_to(v, (len(kept),)) for v in per_spec]
            ).ravel()
        else:
            table[col] = per_spec * len(kept)
    frames = [(m * kept, pd.DataFrame(table, columns=[*by_cols, *COLUMNS]))]
    # the others through the per-group path
    rows: list[dict[str, Any]] = []
    order: list[int] = []
    for g in np.flatnonzero(~done):
        unit = evaluate_unit(
            specs,
            cm=confusion[keys[g]],
            ci=options["ci"],
            confidence_level=options["confidence_level"],
            n_resamples=options["n_resamples"],
            point_reference=options["reference"],
            root=options["root"],
            key=keys[g],
        )
        group = dict(zip(by_cols, keys[g], strict=True))
        rows.extend({**group, **r} for r in unit)
        order.append(m * g)
    if rows:
        frames.append((np.array(order), pd.DataFrame(rows, columns=[*by_cols, *COLUMNS])))
    frames = [(o, f) for o, f in frames if len(f)]
    if len(frames) < 2:
        return frames[0][1] if frames else pd.DataFrame(rows, columns=[*by_cols, *COLUMNS])
    position = np.concatenate([np.repeat(o, m) + np.tile(np.arange(m), len(o)) for o, _ in frames])
    both = pd.concat([f for _, f in frames], ignore_index=True)
    return both.iloc[np.argsort(position, kind="stable")].reset_index(drop=True)


def _warn_undefined(out: pd.DataFrame, by_cols: list[str]) -> None:
    bad = out[out["ops"].isna()]
    if len(bad):
        where = "; ".join(
            f"{', '.join(f'{c}={describe(r[c])}' for c in by_cols) or 'all rows'} / {r['metric']}: "
            f"{r['reason']}"
            for _, r in bad.head(5).iterrows()
        )
        more = f" (and {len(bad) - 5} more)" if len(bad) > 5 else ""
        warnings.warn(
            f"OPS is undefined for {len(bad)} row(s), kept with NaN and a reason: {where}{more}.",
            UndefinedMetricWarning,
            stacklevel=3,
        )
