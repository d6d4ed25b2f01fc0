"""The metric registry: confusion-matrix metrics as functions of (prevalence, alpha, beta).

>>> from opsstats.metrics import get_metric
>>> f1 = get_metric("F1")
>>> round(float(f1(0.1, 1.0, 0.0)), 4)   # trivial positive classifier: 2 pi / (1 + pi)
0.1818
"""

from . import _definitions  # noqa: F401  (registers the built-in metrics)
from ._registry import (
    BoundMetric,
    Metric,
    available_metrics,
    get_metric,
    metric_table,
    register_metric,
    resolve_metric,
    unregister_metric,
)

__all__ = [
    "Metric",
    "BoundMetric",
    "register_metric",
    "unregister_metric",
    "get_metric",
    "resolve_metric",
    "available_metrics",
    "metric_table",
]
