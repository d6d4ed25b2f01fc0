"""The scores of a fitted classifier's positive class, as scikit-learn's displays and
scorers take them."""

from __future__ import annotations

from typing import Any

import numpy as np

from opsstats._validation import describe

__all__ = ["scores_of"]


def scores_of(est: Any, X: Any, pos: Any, response_method: Any) -> np.ndarray:
    """The scores of the positive class ``pos``: its column of ``predict_proba``, or
    ``decision_function`` (negated when ``pos`` is the first class), the first method of
    ``response_method`` the estimator has."""
    methods = (response_method,) if isinstance(response_method, str) else response_method
    for name in methods:
        if hasattr(est, name):
            out = np.asarray(getattr(est, name)(X))
            if name == "predict_proba":
                return out[:, list(est.classes_).index(pos)]
            if out.ndim == 1:
                return out if pos == est.classes_[-1] else -out
            return out[:, list(est.classes_).index(pos)]
    raise TypeError(
        f"the estimator has none of the methods `response_method` names ({methods}); got "
        f"{describe(est)}."
    )
