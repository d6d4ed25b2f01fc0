"""opsstats: outperformance scores (o-values) of classifiers, with honest uncertainty.

The outperformance score (OPS, also called the o-value) of a classifier's metric value
is its percentile rank within a reference distribution of possible performances at the
test set's prevalence (Zhao, Bui, Yu and Dzieciolowski).
"""

from . import metrics
from .confusion import ConfusionMatrix
from .exceptions import UndefinedMetricWarning

__version__ = "0.1.0"

__all__ = ["ConfusionMatrix", "UndefinedMetricWarning", "metrics", "__version__"]
