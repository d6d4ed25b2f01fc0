"""The partial area under the ROC curve over a false-positive-rate (specificity) or a
true-positive-rate (sensitivity) range, raw or McClish-standardized
(docs/method.md#vocabulary).

Over an FPR range [f1, f2] the partial area is the integral of TPR over FPR, the ROC
curve drawn as straight lines between its points (the trapezoid rule) and cut at both
ends by linear interpolation, as pROC's ``auc(partial.auc=, partial.auc.focus=
"specificity")`` and scikit-learn's ``roc_auc_score(max_fpr=)`` compute it. Over a TPR
range [s1, s2] it is the integral of the specificity 1 - FPR over TPR (pROC's
``partial.auc.focus="sensitivity"``). The McClish standardization maps it to
(1 + (A - A_min) / (A_max - A_min)) / 2, A_max = s2 - s1 (resp. f2 - f1) the area of the
perfect curve and A_min the area under the chance diagonal over the same range: 0.5 for a
chance curve, 1 for a perfect one, the same formula for both foci (pROC, scikit-learn).

:class:`PartialArea` is a curve quantity like :class:`~opsstats.curves._geometry.
CurveArea`: called with (prevalence, alpha, beta) arrays of shape (J,) or (G, J) it
returns one value per curve, so that the observed curve, its resamples and the reference
curves are all measured by this one function. The area is a sum over the curve's
segments of a function of each segment's two ends (the part of the segment inside the
range), which the exact jackknife relies on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import check_probability, describe

__all__ = ["PARTIAL_NAME", "PartialArea", "parse_partial"]

#: The name of the partial ROC area among the curve quantities.
PARTIAL_NAME = "roc_pauc"


def _check_range(name: str, value: Any) -> tuple[float, float]:
    """Two probabilities, in either order, with a non-empty interval between them."""
    if isinstance(value, str) or np.ndim(value) != 1 or len(value) != 2:
        raise TypeError(
            f"`{name}` must be a pair (low, high) of numbers in [0, 1], e.g. (0, 0.2); "
            f"got {describe(value)}."
        )
    a = check_probability(f"{name}[0]", value[0])
    b = check_probability(f"{name}[1]", value[1])
    lo, hi = min(a, b), max(a, b)
    if hi <= lo:
        raise ValueError(
            f"`{name}` must span a non-empty interval (low < high); got {tuple(value)!r}."
        )
    return float(lo), float(hi)


@dataclass(frozen=True, slots=True)
class PartialArea:
    """The partial ROC area over ``low <= x <= high`` on the ``axis`` ``"fpr"`` (integral
    of TPR) or ``"tpr"`` (integral of 1 - FPR), McClish-standardized if ``correct``.

    Examples
    --------
    >>> import numpy as np
    >>> q = PartialArea("fpr", 0.0, 0.5)
    >>> q.label
    'pAUC(ROC, FPR 0-0.5)'
    >>> alpha, beta = np.array([0.0, 0.0, 1.0]), np.array([1.0, 0.5, 0.0])  # TPR 0.5, 1
    >>> float(q(0.3, alpha, beta))           # 0.5 * (0.5 + 0.75) / 2
    0.3125
    >>> float(PartialArea("fpr", 0.0, 0.5, correct=True)(0.3, alpha, beta))
    0.75
    """

    axis: str
    low: float
    high: float
    correct: bool = False

    curve = "roc"
    rule = "trapezoid"
    direction = "higher"
    higher_is_better = True

    @property
    def name(self) -> str:
        return PARTIAL_NAME

    @property
    def label(self) -> str:
        what = f"{self.axis.upper()} {self.low:g}-{self.high:g}"
        return f"pAUC(ROC, {what}{', McClish' if self.correct else ''})"

    @property
    def key(self) -> str:
        return f"{PARTIAL_NAME}[{self.axis}={self.low!r},{self.high!r},correct={self.correct}]"

    @property
    def cache_key(self) -> str:
        return self.key

    @property
    def min_area(self) -> float:
        """The area under the chance diagonal over the range."""
        lo, hi = self.low, self.high
        if self.axis == "fpr":  # integral of x
            return (lo + hi) * (hi - lo) / 2.0
        return ((1.0 - hi) + (1.0 - lo)) * (hi - lo) / 2.0  # integral of 1 - x

    @property
    def max_area(self) -> float:
        """The area of the perfect curve over the range: its width."""
        return self.high - self.low

    @property
    def range(self) -> tuple[float, float]:
        """The values the quantity can take."""
        if not self.correct:
            return (0.0, self.max_area)
        return (self.standardize(0.0), 1.0)

    def standardize(self, raw: Any) -> Any:
        """McClish's standardization of raw partial areas."""
        lo, hi = self.min_area, self.max_area
        return (1.0 + (np.asarray(raw, dtype=float) - lo) / (hi - lo)) / 2.0

    def __call__(self, prevalence: float, alpha: Any, beta: Any) -> np.ndarray:
        alpha = np.asarray(alpha, dtype=float)
        beta = np.asarray(beta, dtype=float)
        if self.axis == "fpr":
            x, y = alpha, 1.0 - beta
        else:
            x, y = 1.0 - beta, 1.0 - alpha
        x0, x1, y0, y1 = x[..., :-1], x[..., 1:], y[..., :-1], y[..., 1:]
        xl = np.clip(x0, self.low, self.high)
        xr = np.clip(x1, self.low, self.high)
        dx = x1 - x0
        with np.errstate(divide="ignore", invalid="ignore"):
            slope = np.where(dx > 0, (y1 - y0) / dx, 0.0)
        yl = y0 + slope * (xl - x0)
        yr = y0 + slope * (xr - x0)
        raw = np.where(xr > xl, (xr - xl) * (yl + yr) / 2.0, 0.0).sum(axis=-1)
        return self.standardize(raw) if self.correct else raw


def parse_partial(params: dict[str, Any], rule: str | None = None) -> PartialArea:
    """``fpr_range=(f1, f2)`` or ``tpr_range=(s1, s2)``, with ``correct=False`` (raw) or
    True (McClish), to a :class:`PartialArea`."""
    unknown = sorted(set(params) - {"fpr_range", "tpr_range", "correct"})
    if unknown:
        raise TypeError(
            f"the partial ROC area takes `fpr_range`, `tpr_range` and `correct`; got "
            f"the unknown parameter(s) {', '.join(map(repr, unknown))}."
        )
    if rule is not None and rule != "trapezoid":
        raise ValueError(
            f"`rule` of the partial ROC area must be 'trapezoid' (the rule of pROC and "
            f"scikit-learn); got {describe(rule)}."
        )
    fpr, tpr = params.get("fpr_range"), params.get("tpr_range")
    if (fpr is None) == (tpr is None):
        raise TypeError(
            "give exactly one of `fpr_range` (e.g. (0, 0.2): specificity 0.8-1) and "
            f"`tpr_range` (e.g. (0.8, 1)); got fpr_range={describe(fpr)}, "
            f"tpr_range={describe(tpr)}."
        )
    correct = params.get("correct", False)
    if not isinstance(correct, bool | np.bool_):
        raise TypeError(f"`correct` must be True or False; got {describe(correct)}.")
    axis, name, value = ("fpr", "fpr_range", fpr) if fpr is not None else ("tpr", "tpr_range", tpr)
    lo, hi = _check_range(name, value)
    return PartialArea(axis, lo, hi, bool(correct))
