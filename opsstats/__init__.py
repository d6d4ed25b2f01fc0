"""opsstats: outperformance scores (o-values) of classifiers, with honest uncertainty.

The outperformance score (OPS, also called the o-value) of a classifier's metric value
is its percentile rank within a reference distribution of possible performances at the
test set's prevalence (Zhao, Bui, Yu and Dzieciolowski).
"""

from . import curves, metrics, reference
from ._citation import cite
from ._version import __version__
from .classifier_change import ErrorRatesChange, classifier_change_test
from .comparison import ComparisonResult, compare, compare_test_sets
from .confusion import ConfusionMatrix
from .curves import ScoreCurve
from .decomposition import Decomposition, decompose
from .exceptions import SmallCountWarning, UndefinedMetricWarning
from .grouped import evaluate
from .grouped_comparisons import compare_groups
from .monitoring import MonitorResult, monitor
from .multilabel import MultiLabel
from .profile import PrevalenceProfile, ops_prevalence_profile
from .reference import (
    BetaErrors,
    BetterThanChance,
    BinormalCurves,
    DirectedBinaryTree,
    EmpiricalCurves,
    EmpiricalPoints,
    Uniform,
)
from .results import ConfidenceInterval, IntervalResult, OPSResult

__all__ = [
    "ConfusionMatrix",
    "ScoreCurve",
    "MultiLabel",
    "evaluate",
    "compare",
    "compare_test_sets",
    "compare_groups",
    "monitor",
    "MonitorResult",
    "ComparisonResult",
    "ops_prevalence_profile",
    "PrevalenceProfile",
    "decompose",
    "Decomposition",
    "classifier_change_test",
    "ErrorRatesChange",
    "cite",
    "Uniform",
    "BetaErrors",
    "BetterThanChance",
    "EmpiricalPoints",
    "DirectedBinaryTree",
    "BinormalCurves",
    "EmpiricalCurves",
    "OPSResult",
    "IntervalResult",
    "ConfidenceInterval",
    "UndefinedMetricWarning",
    "SmallCountWarning",
    "curves",
    "metrics",
    "reference",
    "__version__",
]
