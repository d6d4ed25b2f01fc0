"""Multi-label and multi-class evaluation: per-label OPS and their aggregates.

OPS is comparable across labels with different prevalences, so per-label OPS can be
averaged where raw F1 or PR AUC cannot (Zhao et al., section 5;
docs/method.md#multi-label).
"""

# One concept per module; each imports only the modules below it (pyproject's contract):
#   _data        MultiLabel and its constructors (from arrays, from a data frame of any
#                engine, one-vs-rest from a multi-class problem)
#   _aggregate   one metric's per-label OPS and their aggregate (MultiLabel.ops)
#   _draws       the interval draws of the aggregate: Dirichlet per label, the row
#                bootstrap over the distinct joint rows
#   _per_label   each label on its own: confusion matrices, curves, the pooled matrix,
#                the tidy table of several metrics (MultiLabel.evaluate)
#   _result      MultiLabelOPS, the result of MultiLabel.ops
#   _matrices    reading and checking the label and score matrices

from ._aggregate import AVERAGES
from ._data import MultiLabel
from ._result import MultiLabelOPS

__all__ = ["MultiLabel", "MultiLabelOPS", "AVERAGES"]
