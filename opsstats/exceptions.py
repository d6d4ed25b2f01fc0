"""Warnings raised by opsstats."""

from __future__ import annotations

__all__ = ["UndefinedMetricWarning"]


class UndefinedMetricWarning(UserWarning):
    """A metric is undefined (0/0) for the data; the value returned is NaN.

    The message names the metric and gives the counts (or the reason) that make it
    undefined, e.g. ``precision is undefined (0/0: no predicted positives) for
    ConfusionMatrix(tp=0, fp=0, fn=5, tn=20); returning NaN``.
    """
