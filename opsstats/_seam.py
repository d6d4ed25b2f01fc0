"""The one seam through which the data objects reach the layers built on them.

The layers of opsstats (``docs/architecture.md``) import downwards only: the data
objects (:class:`~opsstats.ConfusionMatrix`, :class:`~opsstats.ScoreCurve`, the result
objects, :class:`~opsstats.MultiLabel`'s results) sit below the references, the OPS, the
intervals and the plots. Users still like ``cm.ops("f1")``, ``curve.interval("roc_auc")``
and ``result.plot()``, so those methods stay, and do their work here: each calls
``upcall(name)``, which imports the implementing function of the higher layer on first
use, by the dotted path in :data:`UPCALLS`.

This table is the only place where a lower layer reaches up. ``tests/test_architecture.py``
checks that every entry resolves to a callable of a layer above every module that calls
it, and the import-linter contract in ``pyproject.toml`` that no module imports upwards
otherwise. A new facade method adds its entry here and calls ``upcall``; it does not
import the higher layer itself.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache
from typing import Any

__all__ = ["UPCALLS", "upcall"]

#: name -> "module:function" of the higher layer that does the work
UPCALLS: dict[str, str] = {
    # ConfusionMatrix.ops, .interval, .plot
    "confusion_ops": "opsstats.uncertainty.confusion:confusion_ops",
    "confusion_interval": "opsstats.uncertainty.confusion:confusion_interval",
    "plot_unit_square": "opsstats.plotting.unit_square:plot_unit_square",
    # ScoreCurve.ops, .interval, .plot
    "curve_ops": "opsstats.uncertainty.curve:curve_ops_interval",
    "curve_interval": "opsstats.uncertainty.curve:curve_interval",
    "plot_curve": "opsstats.plotting.curve:plot_curve",
    # OPSResult.plot, IntervalResult.plot
    "plot_distribution": "opsstats.plotting.distribution:plot_distribution",
    # MultiLabelResult.plot, ComparisonResult.plot, evaluate's tables' plot
    "plot_forest": "opsstats.plotting.forest:plot_forest",
    # PrevalenceProfile.plot
    "plot_prevalence_profile": "opsstats.plotting.prevalence_profile:plot_prevalence_profile",
    # MonitorResult.plot
    "plot_monitor": "opsstats.plotting.monitor:plot_monitor",
    # Decomposition.plot
    "plot_decomposition": "opsstats.plotting.decomposition:plot_decomposition",
}


@cache
def upcall(name: str) -> Callable[..., Any]:
    """The function registered under ``name`` in :data:`UPCALLS`, imported on first use.

    Examples
    --------
    >>> upcall("confusion_ops").__name__
    'confusion_ops'
    """
    module, _, attr = UPCALLS[name].partition(":")
    function: Callable[..., Any] = getattr(importlib.import_module(module), attr)
    return function
