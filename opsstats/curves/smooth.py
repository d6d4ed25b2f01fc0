"""Binormal smoothing of an empirical ROC curve, as pROC's ``smooth(method="binormal")``
(docs/method.md#vocabulary).

pROC's fit is not a maximum-likelihood binormal fit: it is the least-squares line
qnorm(sp) = c0 + c1 qnorm(se) through the empirical ROC points whose sensitivity and
specificity are both strictly between 0 and 1 (finite probits). The smoothed curve is
evaluated at n sensitivities se_k = k / (n - 1), k = 0..n-1, with sp_k =
Phi(c0 + c1 qnorm(se_k)); its AUC is Phi(c0 / sqrt(1 + c1^2)) exactly (the area under a
binormal curve), its partial areas and values at a fixed x are read off the n points
by the package's one geometry (trapezoids, linear interpolation), as pROC reads them.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from .._lazy import lazy_module
from .._summary import wrap_line
from .._validation import (
    MAX_BINS,
    check_choice,
    check_digits,
    check_instance,
    check_size,
    describe,
)
from . import _best as best
from . import _geometry as geo
from ._curve_interface import _CurveInterface
from ._partial import parse_partial

if TYPE_CHECKING:
    from scipy import stats
else:
    stats = lazy_module("scipy.stats")

__all__ = ["SMOOTH_METHODS", "BinormalSmooth", "binormal_smooth"]

#: Accepted ``method`` of :func:`binormal_smooth`.
SMOOTH_METHODS = ("binormal",)


_AUC_NUMBER = (
    "`BinormalSmooth.auc` is a method, as `ScoreCurve.auc()` is: call it, "
    "`smooth().auc()`. Using `smooth().auc` as a number still works but is deprecated "
    "and will stop working in a future release."
)


class _AUCMethod(float):
    """What ``BinormalSmooth.auc`` gives: the area, callable as the method ``auc()`` it
    now is (a plain float), and, for one deprecation period, usable as the number it
    was, with a ``FutureWarning`` on that use (arithmetic, comparison, formatting,
    rounding, printing)."""

    __slots__ = ()

    def __call__(self) -> float:
        return float.__float__(self)


def _deprecated_number_use(name: str) -> Any:
    method = getattr(float, name)

    def use(self: _AUCMethod, *args: Any) -> Any:
        warnings.warn(_AUC_NUMBER, FutureWarning, stacklevel=2)
        return method(self, *args)

    use.__name__ = name
    return use


for _name in (
    "__float__", "__format__", "__round__", "__repr__", "__str__", "__eq__", "__ne__",
    "__lt__", "__le__", "__gt__", "__ge__", "__add__", "__radd__", "__sub__", "__rsub__",
    "__mul__", "__rmul__", "__truediv__", "__rtruediv__", "__neg__", "__abs__",
):  # fmt: skip
    setattr(_AUCMethod, _name, _deprecated_number_use(_name))
_AUCMethod.__hash__ = float.__hash__  # type: ignore[method-assign]  # equal floats, equal hashes


@dataclass(frozen=True)
class BinormalSmooth:
    """A binormal smoothed ROC curve: qnorm(sp) = intercept + slope qnorm(se).

    ``alpha`` (FPR) and ``beta`` (FNR) hold the n points, increasing FPR. Printed, it
    says what was fitted and its area, as pROC's ``print(smooth(r))`` does, not the
    points.

    Examples
    --------
    >>> from opsstats import ScoreCurve
    >>> rng = np.random.default_rng(0)
    >>> y = np.repeat([0, 1], [300, 200])
    >>> s = ScoreCurve.from_scores(y, rng.normal(y, 1)).smooth()
    >>> round(s.auc(), 4)
    0.7631
    >>> print(s)  # doctest: +NORMALIZE_WHITESPACE
    Binormal smoothing of a ROC curve (pROC's smooth(method="binormal")): qnorm(sp) = 1.0079 - 0.9900
        qnorm(se), least squares over 495 ROC points; AUC = 0.7631; 512 curve points in .alpha (FPR) and
        .beta (FNR)
    """

    intercept: float
    slope: float
    n_fit_points: int
    alpha: np.ndarray = field(repr=False)
    beta: np.ndarray = field(repr=False)

    @property
    def auc(self) -> Any:
        """The area under the binormal line, Phi(c0 / sqrt(1 + c1^2)): call it,
        ``s.auc()``, as :meth:`ScoreCurve.auc` is called.

        (Before, ``auc`` was a number; that use still works for one deprecation period,
        with a ``FutureWarning``.)
        """
        return _AUCMethod(stats.norm.cdf(self.intercept / np.sqrt(1.0 + self.slope**2)))

    def to_string(self, digits: int = 4) -> str:
        """What was fitted, and its area, on one line."""
        digits = check_digits(digits)
        sign = "-" if self.slope < 0 else "+"
        return (
            f'Binormal smoothing of a ROC curve (pROC\'s smooth(method="binormal")): '
            f"qnorm(sp) = {self.intercept:.{digits}f} {sign} {abs(self.slope):.{digits}f} "
            f"qnorm(se), least squares over {self.n_fit_points} ROC points; AUC = "
            f"{self.auc():.{digits}f}; {self.alpha.size} curve points in .alpha (FPR) and "
            ".beta (FNR)"
        )

    def __str__(self) -> str:
        """:meth:`to_string` wrapped at 100 columns."""
        return wrap_line(self.to_string())

    def __repr__(self) -> str:
        return (
            f"BinormalSmooth(intercept={self.intercept!r}, slope={self.slope!r}, "
            f"n_fit_points={self.n_fit_points}, points={self.alpha.size}, "
            f"auc={self.auc():.6g})"
        )

    @property
    def method(self) -> str:
        return (
            f"binormal smoothing (pROC): least squares qnorm(sp) ~ qnorm(se) over "
            f"{self.n_fit_points} ROC points, {self.alpha.size} curve points"
        )

    def partial_auc(
        self, fpr_range: Any = None, tpr_range: Any = None, *, correct: bool = False
    ) -> float:
        """Partial area of the smoothed curve (trapezoids over its points), as
        :meth:`ScoreCurve.partial_auc`."""
        params = {"fpr_range": fpr_range, "tpr_range": tpr_range, "correct": correct}
        spec = parse_partial({k: v for k, v in params.items() if v is not None})
        return float(spec(0.5, self.alpha, self.beta))

    def value_at(self, metric: str, at: dict[str, float]) -> float:
        """A ROC quantity (``"recall"``, ``"specificity"``, ``"fpr"``) of the smoothed
        curve at a fixed FPR, specificity or recall, interpolated between its points."""
        point = geo.parse_at(metric, at)
        if point.axis == "rate" or point.metric.name not in ("recall", "specificity", "fpr"):
            raise ValueError(
                "a smoothed ROC curve knows sensitivity and specificity only: `metric` "
                "must be 'recall', 'specificity' or 'fpr' and `at` on the 'fpr', "
                f"'specificity' or 'recall' axis; got {describe(metric)} at {at!r}."
            )
        return float(geo.value_at(point, 0.5, self.alpha, self.beta))

    def best_point(self, method: str = "youden", weights: Any = (1.0, 0.5)) -> tuple[float, float]:
        """(sensitivity, specificity) of the best point of the smoothed curve (pROC's
        ``coords(s, x="best")``; the first optimum when tied)."""
        method, r = best.check_best(method, weights)
        se, sp = 1.0 - self.beta, 1.0 - self.alpha
        k = int(np.argmax(best.optimal(method, r, se, sp)))
        return float(se[k]), float(sp[k])


def binormal_smooth(curve: Any, method: str = "binormal", n: int = 512) -> BinormalSmooth:
    """The binormal smoothing of ``curve``'s ROC curve (pROC ``smooth(method=
    "binormal", n=512)``).

    Raises
    ------
    ValueError
        When fewer than 2 ROC points have finite probits, or they all share one
        sensitivity (pROC: "ROC curve not smoothable"), e.g. a perfectly separated
        curve.

    Examples
    --------
    >>> from opsstats import ScoreCurve
    >>> rng = np.random.default_rng(0)
    >>> y = np.repeat([0, 1], [300, 200])
    >>> s = binormal_smooth(ScoreCurve.from_scores(y, rng.normal(y, 1)))
    >>> round(s.auc(), 3), round(s.slope, 3)      # true binormal AUC Phi(1/sqrt(2)) = 0.760
    (0.763, -0.99)
    """
    check_instance("curve", curve, _CurveInterface, "a ScoreCurve")
    check_choice("method", method, SMOOTH_METHODS)
    # the grid and its curve: about ten float64 arrays of n points
    n = check_size("n", n, minimum=3, maximum=MAX_BINS, bytes_each=80)
    se = 1.0 - np.asarray(curve.beta, dtype=float)
    sp = 1.0 - np.asarray(curve.alpha, dtype=float)
    ok = (se > 0) & (se < 1) & (sp > 0) & (sp < 1)
    x, y = stats.norm.ppf(se[ok]), stats.norm.ppf(sp[ok])
    if x.size < 2 or np.ptp(x) == 0:
        raise ValueError(
            "the ROC curve cannot be smoothed: the binormal fit needs at least 2 points "
            f"with sensitivity and specificity strictly between 0 and 1 and distinct "
            f"sensitivities; this curve has {x.size} (pROC: not smoothable)."
        )
    slope, intercept = np.polyfit(x, y, 1)
    grid_se = np.linspace(0.0, 1.0, n)
    with np.errstate(invalid="ignore"):
        grid_sp = stats.norm.cdf(intercept + slope * stats.norm.ppf(grid_se))
    order = np.argsort(1.0 - grid_sp, kind="stable")
    alpha = (1.0 - grid_sp)[order]
    beta = (1.0 - grid_se)[order]
    alpha.flags.writeable = False
    beta.flags.writeable = False
    return BinormalSmooth(float(intercept), float(slope), int(x.size), alpha, beta)
