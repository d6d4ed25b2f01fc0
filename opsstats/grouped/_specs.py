"""What :func:`~opsstats.grouped.evaluate` reports: metric specs (a confusion-matrix
metric, a curve area, or a metric at an operating point of the curve), parsed and checked
from what a user writes, the default metrics for the data given, and the columns of the
tidy table."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .._validation import describe
from ..curves._geometry import CURVES
from ..metrics._registry import lookup

_AREAS = {f"{p}{c}_auc" for p in ("", "n") for c in CURVES}

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

#: The columns ``evaluate(..., prevalence=pi)`` adds (before ``method``): the metric of
#: each group standardized to the prevalence pi (its alpha and beta, or its ROC curve, at
#: pi), with its interval and its OPS at pi (docs/method.md#standardized-prevalence).
STANDARD_COLUMNS = [
    "standard_prevalence",
    "standardized",
    "standardized_ci_low",
    "standardized_ci_high",
    "standardized_ops",
    "standardized_ops_se",
    "standardized_ops_ci_low",
    "standardized_ops_ci_high",
]


def columns(standardized: bool) -> list[str]:
    """The columns of a tidy evaluation, with the standardized ones or without."""
    if not standardized:
        return COLUMNS
    at = COLUMNS.index("method")
    return [*COLUMNS[:at], *STANDARD_COLUMNS, *COLUMNS[at:]]


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


def parse_metrics(metrics: Any, argument: str = "metrics") -> list[MetricSpec]:
    """``["f1", "pr_auc", ("precision", {"recall": 0.9}), "lift@rate=0.05"]`` to specs
    (checked; messages name ``argument``, ``"metric"`` for a caller of one)."""
    entry = "each entry of `metrics`" if argument == "metrics" else f"`{argument}`"
    if isinstance(metrics, str) or (
        isinstance(metrics, tuple) and len(metrics) == 2 and isinstance(metrics[1], dict)
    ):
        metrics = [metrics]
    if isinstance(metrics, tuple):
        metrics = list(metrics)
    if not isinstance(metrics, Sequence) or not metrics:
        raise TypeError(
            f"`{argument}` must be a non-empty list of metric names or "
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
                f"{entry} must be a name or a (name, at) pair "
                f"such as ('precision', {{'recall': 0.9}}); got {describe(m)}."
            )
        key = name.strip().lower()
        if key not in _AREAS:
            key = lookup(key, argument).name  # raises for unknown names, listing valid ones
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
