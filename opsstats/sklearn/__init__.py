"""OPS where models are chosen: scikit-learn scorers and cross-validated evaluation.

:func:`make_ops_scorer` turns the OPS of any confusion-matrix metric or curve quantity
into a scikit-learn scorer (for ``cross_validate``, ``GridSearchCV``,
``TunedThresholdClassifierCV``, ``permutation_importance``), each fold scored at its own
prevalence; :func:`make_metric_scorer` does the same for the registry's metrics that
scikit-learn lacks (NPV, specificity, markedness, ...). :func:`cross_evaluate` runs a
cross-validation and returns the metrics and their OPS per fold and combined, with an
interval for the combined estimate (`docs/method.md#cross-validation`).

scikit-learn is an optional dependency: ``pip install "opsstats[sklearn]"``.
"""

try:
    import sklearn  # noqa: F401
except ImportError as exc:  # pragma: no cover - exercised in a subprocess by the tests
    raise ImportError(
        'opsstats.sklearn needs scikit-learn, an optional dependency: pip install "opsstats[sklearn]"'
    ) from exc

from .cross_validation import cross_evaluate
from .display import OPSCurveDisplay
from .scorers import make_metric_scorer, make_ops_scorer, metric_score, ops_score

__all__ = [
    "OPSCurveDisplay",
    "cross_evaluate",
    "make_metric_scorer",
    "make_ops_scorer",
    "metric_score",
    "ops_score",
]
