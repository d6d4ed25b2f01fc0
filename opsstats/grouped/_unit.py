"""The rows of one unit (a group, a label, a test set) in the tidy table of
:func:`~opsstats.grouped.evaluate`: its columns, each metric's value, OPS and intervals,
and a row with NaN and the reason for whatever cannot be computed."""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any, cast

import numpy as np

from ..confusion import ConfusionMatrix
from ..exceptions import UndefinedMetricWarning
from ..metrics import get_metric
from ..ops import _check_reference, confusion_matrix_ops, curve_ops
from ..uncertainty._draws import unit_rng
from ..uncertainty.confusion import _Draws, _Quantity, interval_from_draws, ops_from_draws
from ..uncertainty.curve import curve_ops_intervals
from ._specs import COLUMNS, STANDARD_COLUMNS, MetricSpec


def _row(spec: MetricSpec, n: float, prevalence: float, **values: Any) -> dict[str, Any]:
    row: dict[str, Any] = dict.fromkeys(COLUMNS, np.nan)
    row.update(metric=spec.label, n=n, prevalence=prevalence, method="", reference="", reason="")
    row.update(values)
    return row


def evaluate_unit(
    specs: Sequence[MetricSpec],
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
    standard_prevalence: float | None = None,
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

    With ``standard_prevalence`` each row also has the :data:`STANDARD_COLUMNS`: the
    metric of the unit's matrix or curve standardized to that prevalence
    (``at_prevalence``), its interval and its OPS at it, from the same draws (the same
    draws of alpha and beta at the fixed prevalence; for curves the same generators
    over the same rows).
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
                standard_prevalence,
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
                standard_prevalence,
            )
        )
    if standard_prevalence is not None:
        for row in rows.values():
            row.setdefault("standard_prevalence", standard_prevalence)
            for col in STANDARD_COLUMNS[1:]:
                row.setdefault(col, np.nan)
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
    standard_prevalence: float | None = None,
) -> dict[int, dict[str, Any]]:
    """The confusion-matrix metrics of one unit, with intervals from one set of draws
    (the standardized ones too, from the same draws at the fixed prevalence)."""
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
        if standard_prevalence is not None:
            _standardize_point(
                out[i], spec, cm, standard_prevalence, draws, kind, confidence_level, ref
            )
    return out


def _standardize_point(
    row: dict[str, Any],
    spec: MetricSpec,
    cm: ConfusionMatrix,
    pi: float,
    draws: Any,
    kind: str,
    confidence_level: float,
    ref: Any,
) -> None:
    """The standardized columns of a confusion-matrix metric's row: the metric of
    ``cm.at_prevalence(pi)``, its OPS at pi, and their intervals from ``draws`` (the
    unit's draws of alpha and beta) with the prevalence fixed at pi."""
    std = cm.at_prevalence(pi)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        result = confusion_matrix_ops(std, spec.name, reference=ref)
        value_iv = None
        if draws is not None:
            quantity = _Quantity(spec.name, {})
            at_pi = draws.at_prevalence(pi)
            value_iv = interval_from_draws(std, quantity, at_pi, kind, confidence_level).ci
            result = ops_from_draws(
                std, quantity, result, at_pi, kind, confidence_level, ref, "strict"
            )
    _standard_values(row, pi, result, value_iv, result.details.get("undefined", ""))


def _standard_values(
    row: dict[str, Any], pi: float, result: Any, value_iv: Any, undefined: str
) -> None:
    """The standardized columns of ``row`` from the standardized object's OPS result
    (with its interval, if any) and its value interval; a reason when undefined."""
    row.update(
        standard_prevalence=pi,
        standardized=result.value,
        standardized_ops=result.estimate,
        standardized_ops_se=result.standard_error,
    )
    if result.ci is not None:
        row.update(standardized_ops_ci_low=result.ci.low, standardized_ops_ci_high=result.ci.high)
    if value_iv is not None:
        row.update(standardized_ci_low=value_iv.low, standardized_ci_high=value_iv.high)
    if undefined:
        row["reason"] = "; ".join(filter(None, (row["reason"], f"standardized: {undefined}")))


def _curve_rows(
    items: list[tuple[int, MetricSpec]],
    curve: Any,
    curve_ci: str | None,
    confidence_level: float,
    n_resamples: int,
    reference: Any,
    rng_for: Any,
    standard_prevalence: float | None = None,
) -> dict[int, dict[str, Any]]:
    """The curve quantities of one unit; those whose interval method draws share one
    set of draws per method and cell layout. With ``standard_prevalence``, the same for
    the curve standardized to it, from the same generators (the same draws of the
    same rows: its sampling view has the curve's cells)."""
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
        results = _curve_results(
            curve, quantities, ref, curve_ci, confidence_level, n_resamples, rng_for
        )
        standard: list[Any] = [None] * len(items)
        if standard_prevalence is not None:
            standard = _curve_results(
                curve.at_prevalence(standard_prevalence),
                quantities,
                ref,
                curve_ci,
                confidence_level,
                n_resamples,
                rng_for,
            )
        for (i, spec), result, std, note in zip(items, results, standard, notes, strict=True):
            result, no_interval = result
            value_iv = result.details.get("value_ci")
            reason = result.details.get("undefined", "")
            if no_interval:
                reason = "; ".join(filter(None, (reason, f"no interval: {no_interval}")))
            out[i] = _result_row(spec, curve.n, curve.prevalence, result, value_iv, reason, note)
            if std is not None and standard_prevalence is not None:
                std, no_interval = std
                undefined = std.details.get("undefined", "")
                if no_interval:
                    undefined = "; ".join(filter(None, (undefined, f"no interval: {no_interval}")))
                _standard_values(
                    out[i], standard_prevalence, std, std.details.get("value_ci"), undefined
                )
    return out


def _curve_results(
    curve: Any,
    quantities: list[tuple[Any, str]],
    ref: Any,
    curve_ci: str | None,
    confidence_level: float,
    n_resamples: int,
    rng_for: Any,
) -> list[tuple[Any, str]]:
    """Each quantity's OPS result (with its interval when ``curve_ci`` is a method) and
    why it has no interval ("" when it has one or none was asked for)."""
    if curve_ci is None:
        return [(curve_ops(curve, q, reference=ref), "") for q, _ in quantities]
    results = curve_ops_intervals(
        curve,
        quantities,
        reference=ref,
        confidence_level=confidence_level,
        n_resamples=n_resamples,
        rng_for=rng_for,
    )
    out = []
    for (q, _), result in zip(quantities, results, strict=True):
        if isinstance(result, ValueError):  # no interval here (e.g. one row of a class):
            out.append((curve_ops(curve, q, reference=ref), str(result)))  # say why
        else:
            out.append((result, ""))
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
