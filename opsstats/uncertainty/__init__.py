"""Uncertainty from finite test sets: intervals for alpha, beta, metrics and their OPS."""

from .confusion import confusion_interval, confusion_ops
from .curve import DeLongResult, curve_interval, curve_ops_interval, delong_roc
from .proportion import binomial_interval

__all__ = [
    "binomial_interval",
    "confusion_interval",
    "confusion_ops",
    "curve_interval",
    "curve_ops_interval",
    "delong_roc",
    "DeLongResult",
]
