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
from typing import Any

import numpy as np
import pandas as pd

from ._labels import positive_mask
from ._validation import (
    check_choice,
    check_confidence_level,
    check_positive_int,
    describe,
)
from .confusion import ConfusionMatrix
from .curves._geometry import CURVES, parse_area, parse_at
from .curves.score_curve import ScoreCurve
from .exceptions import UndefinedMetricWarning
from .metrics import get_metric
from .ops import default_reference
from .uncertainty._draws import check_rng
from .uncertainty.curve import METHODS as CURVE_METHODS
from .uncertainty.methods import registered_interval_methods

__all__ = ["evaluate", "COLUMNS"]

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
            f"'precision@recall=0.9'; got {text!r}."
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
                f"`at` applies to a metric read off a curve, not to the area {name!r}."
            )
        specs.append(MetricSpec(key, None if at is None else dict(at)))
    return specs


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
    rng: np.random.Generator | None = None,
) -> list[dict[str, Any]]:
    """Rows of the tidy table for one unit (a group, a label, a test set).

    Confusion-matrix metrics need ``cm``; curve quantities need ``curve``. Every
    quantity that cannot be computed gets a row with NaN and the reason.
    """
    rows = []
    source = cm if cm is not None else curve
    n = source.n if source is not None else np.nan
    pi = float(source.prevalence) if source is not None else np.nan
    for spec in specs:
        if source is not None and not 0 < pi < 1:
            absent = "positives" if pi == 0 else "negatives"
            rows.append(
                _row(
                    spec,
                    n,
                    pi,
                    reason=f"no {absent}: OPS and most metrics are undefined with one class absent",
                )
            )
            continue
        obj = cm if spec.kind == "point" else curve
        if obj is None:
            need = (
                "predicted labels (`pred`, or `score` with `threshold`)"
                if spec.kind == "point"
                else "scores (`score`)"
            )
            rows.append(_row(spec, n, pi, reason=f"{spec.label} needs {need}"))
            continue
        try:
            rows.append(
                _evaluate_one(
                    spec,
                    obj,
                    n,
                    pi,
                    ci=ci,
                    curve_ci=curve_ci,
                    confidence_level=confidence_level,
                    n_resamples=n_resamples,
                    point_reference=point_reference,
                    curve_reference=curve_reference,
                    rng=rng,
                )
            )
        except ValueError as exc:  # e.g. a bootstrap that needs whole counts
            rows.append(_row(spec, n, pi, reason=str(exc)))
    return rows


def _evaluate_one(
    spec: MetricSpec,
    obj: Any,
    n: float,
    pi: float,
    *,
    ci: str | None,
    curve_ci: str,
    confidence_level: float,
    n_resamples: int,
    point_reference: Any,
    curve_reference: Any,
    rng: np.random.Generator | None,
) -> dict[str, Any]:
    if spec.kind == "point":
        method = ci
        note = ""
        ref = point_reference
        kwargs: dict[str, Any] = {}
        interval_kwargs: dict[str, Any] = {"method": ci} if ci else {}
    else:
        method = None if ci is None else curve_ci
        note = ""
        if method == "delong" and not (spec.name == "roc_auc" and spec.at is None):
            method, note = "bootstrap", " (DeLong applies to the ROC AUC only)"
        elif method == "jackknife" and spec.at is not None:
            method, note = "bootstrap", " (the jackknife applies to curve areas only)"
        ref = curve_reference
        kwargs = {"at": spec.at} if spec.at else {}
        interval_kwargs = {"method": method, **kwargs} if method else {}
    no_interval = ""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        if method is None:
            result = obj.ops(spec.name, reference=ref, **kwargs)
            value_iv = None
        else:
            try:
                result = obj.ops(
                    spec.name,
                    reference=ref,
                    ci=method,
                    confidence_level=confidence_level,
                    n_resamples=n_resamples,
                    rng=rng,
                    **kwargs,
                )
                # a curve's OPS result carries its quantity's interval from the same
                # draws; a confusion matrix's is computed alongside
                value_iv = result.details.get("value_ci") if spec.kind != "point" else None
                if value_iv is None:
                    value_iv = obj.interval(
                        spec.name,
                        confidence_level=confidence_level,
                        n_resamples=n_resamples,
                        rng=rng,
                        **interval_kwargs,
                    ).ci
            except ValueError as exc:  # no interval here (e.g. one row of a class):
                no_interval = str(exc)  # keep the value and its OPS, say why
                result = obj.ops(spec.name, reference=ref, **kwargs)
                value_iv = None
    reason = result.details.get("undefined", "") if isinstance(result.details, dict) else ""
    if no_interval:
        reason = "; ".join(filter(None, (reason, f"no interval: {no_interval}")))
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
    metrics: Any = ("f1", "mcc", "pr_auc"),
    by: str | Sequence[str] | None = None,
    pos_label: Any = None,
    ci: str | None = "dirichlet",
    curve_ci: str = "auto",
    confidence_level: float = 0.95,
    n_resamples: int = 1000,
    point_reference: Any = None,
    curve_reference: Any = None,
    rng: Any = None,
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
        Predict positive where ``score >= threshold``.
    metrics : list
        Confusion-matrix metrics (``"f1"``, ``"mcc"``, ...), curve areas
        (``"roc_auc"``, ``"pr_auc"``, ``"lift_auc"``, ``"gain_auc"``, NAUC forms), and
        ``(metric, at)`` pairs for a metric read off the curve, e.g.
        ``("precision", {"recall": 0.9})``.
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
        quantities (default ``DirectedBinaryTree()``).
    rng : None, int or numpy.random.Generator

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
    if not isinstance(data, pd.DataFrame):
        raise TypeError(f"`data` must be a pandas DataFrame; got {describe(data)}.")
    specs = parse_metrics(metrics)
    by_cols = [] if by is None else ([by] if isinstance(by, str) else list(by))
    for arg, col in [
        ("truth", truth),
        ("score", score),
        ("pred", pred),
        *(("by", c) for c in by_cols),
    ]:
        if col is not None and col not in data.columns:
            raise ValueError(
                f"`{arg}` names a column that is not in `data`: {col!r}; "
                f"columns: {', '.join(map(str, data.columns))}."
            )
    if pred is not None and threshold is not None:
        raise ValueError("give `pred` or `score` with `threshold`, not both.")
    if threshold is not None:
        if score is None:
            raise ValueError("`threshold` needs `score`.")
        threshold = float(threshold)
    if ci is not None:
        ci = check_choice(
            "ci", ci, ("dirichlet", "bootstrap", "delong", *registered_interval_methods())
        )
    curve_ci = check_choice("curve_ci", curve_ci, CURVE_METHODS)
    if ci == "delong":  # DeLong for curves, the default for confusion-matrix metrics
        ci, curve_ci = "dirichlet", "delong"
    confidence_level = check_confidence_level(confidence_level)
    n_resamples = check_positive_int("n_resamples", n_resamples, minimum=100)
    generator = check_rng(rng)
    if score is None and any(s.kind == "curve" for s in specs):
        raise ValueError(
            "curve quantities ("
            + ", ".join(s.label for s in specs if s.kind == "curve")
            + ") need `score`."
        )
    if score is None and pred is None:
        raise ValueError("give `score` (with `threshold` for confusion-matrix metrics) or `pred`.")

    # positions, not labels, locate a group's rows: any index (repeated labels too) works
    frame = data[
        list(dict.fromkeys(c for c in (truth, score, pred, *by_cols) if c is not None))
    ].reset_index(drop=True)
    groups = (
        [((), frame)]
        if not by_cols
        else frame.groupby(by_cols, sort=True, dropna=False, observed=True)
    )

    all_truth, pos = positive_mask(
        frame[truth].to_numpy(),
        name="truth",
        pos_label=pos_label,
        other=None if pred is None else frame[pred].to_numpy(),
        other_name="pred",
    )
    all_pred = None if pred is None else frame[pred].to_numpy() == pos
    curve_specs = [sp for sp in specs if sp.kind == "curve"]
    if curve_specs and score is not None:
        # one pass over the reference curves serves every group's prevalence
        if curve_reference is None:
            curve_reference = default_reference("curve")
        if hasattr(curve_reference, "precompute"):
            group_pis = (
                pd.Series(all_truth, index=frame.index)
                .groupby([frame[c] for c in by_cols], dropna=False, observed=True)
                .mean()
                if by_cols
                else pd.Series([all_truth.mean()])
            )
            pis = [p for p in group_pis.to_numpy(dtype=float) if 0 < p < 1]
            curve_reference.precompute(
                [
                    parse_area(sp.name) if sp.at is None else parse_at(sp.name, sp.at)
                    for sp in curve_specs
                ],
                pis,
            )
    rows = []
    confusion: dict[tuple, ConfusionMatrix] = {}
    for key, g in groups:
        key = key if isinstance(key, tuple) else (key,)
        rows_of_group = frame.index.get_indexer(g.index) if by_cols else slice(None)
        t = all_truth[rows_of_group]
        cm = curve = None
        if all_pred is not None:
            p = all_pred[rows_of_group]
            cm = ConfusionMatrix(
                tp=int(np.sum(t & p)),
                fp=int(np.sum(~t & p)),
                fn=int(np.sum(t & ~p)),
                tn=int(np.sum(~t & ~p)),
            )
        if score is not None:
            s = g[score].to_numpy(dtype=float)
            if np.isnan(s).any():
                raise ValueError(f"`score` column {score!r} has missing values in group {key!r}.")
            if threshold is not None:
                p = s >= threshold
                cm = ConfusionMatrix(
                    tp=int(np.sum(t & p)),
                    fp=int(np.sum(~t & p)),
                    fn=int(np.sum(t & ~p)),
                    tn=int(np.sum(~t & ~p)),
                )
            if any(sp.kind == "curve" for sp in specs) and 0 < t.mean() < 1:
                curve = ScoreCurve.from_scores(t, s)
        if curve is None and cm is None:
            cm = ConfusionMatrix(tp=int(t.sum()), fp=0, fn=0, tn=int((~t).sum()))
        if cm is not None and (pred is not None or threshold is not None):
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
            rng=generator,
        )
        for r in unit_rows:
            rows.append({**dict(zip(by_cols, key, strict=True)), **r})
    out = pd.DataFrame(rows, columns=[*by_cols, *COLUMNS])
    out.attrs["confusion_matrices"] = confusion  # per group, for reports
    _warn_undefined(out, by_cols)
    return out


def _warn_undefined(out: pd.DataFrame, by_cols: list[str]) -> None:
    bad = out[out["ops"].isna()]
    if len(bad):
        where = "; ".join(
            f"{', '.join(f'{c}={r[c]!r}' for c in by_cols) or 'all rows'} / {r['metric']}: "
            f"{r['reason']}"
            for _, r in bad.head(5).iterrows()
        )
        more = f" (and {len(bad) - 5} more)" if len(bad) > 5 else ""
        warnings.warn(
            f"OPS is undefined for {len(bad)} row(s), kept with NaN and a reason: {where}{more}.",
            UndefinedMetricWarning,
            stacklevel=3,
        )
