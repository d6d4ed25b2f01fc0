"""``zero_division=``: what a metric that is 0/0 returns, for users who need
scikit-learn's convention (docs/method.md#vocabulary).

``"warn"`` (the default) keeps the package's rule: NaN with an
:class:`~opsstats.exceptions.UndefinedMetricWarning` (scikit-learn's ``"warn"`` returns 0
with its warning instead). ``0``, ``1`` or ``numpy.nan`` return that value without a
warning, as scikit-learn's ``zero_division=0.0 / 1.0 / np.nan`` do.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

from .._validation import describe
from ..exceptions import UndefinedMetricWarning

__all__ = ["check_zero_division", "undefined"]


def check_zero_division(value: Any) -> str | float:
    """``"warn"``, 0.0, 1.0 or NaN."""
    if isinstance(value, str) and value == "warn":
        return "warn"
    number = isinstance(value, int | float) and not isinstance(value, bool)
    if number and (math.isnan(value) or value in (0, 1)):
        return float(value)
    raise ValueError(f"`zero_division` must be 'warn', 0, 1 or numpy.nan; got {describe(value)}.")


def undefined(value: float, zero_division: str | float, message: str, stacklevel: int) -> float:
    """``value`` itself when defined; else NaN with a warning (``"warn"``) or the
    ``zero_division`` value."""
    if not math.isnan(value):
        return value
    if zero_division == "warn":
        warnings.warn(message, UndefinedMetricWarning, stacklevel=stacklevel + 1)
        return value
    return float(zero_division)
