"""The automatic choice of a curve interval's method and interval, per quantity and class
size.

``method="auto"`` (the default), for the ROC and PR areas: the Dirichlet posterior when
the smaller class has fewer than ``DIRICHLET_BELOW`` (100) rows (equal-tailed for the
ROC areas, bias-extended for the PR areas); from there on DeLong's logit-t interval for
the ROC AUC and the jackknife's for the other areas, deterministic and milliseconds at
millions of rows. The percentile bootstrap for every other quantity. The coverage
studies (``benchmarks/coverage.py --part curve`` and ``benchmarks/coverage_shapes.py``)
found the logit-t intervals' coverage with small classes to depend on the shape of the
score distributions (70% to 100% with 1 to 20 rows of a class); below 100 rows the
Dirichlet posterior covered the ROC AUC 93.7% to 99.6% across five shapes, and its
bias-extended interval the PR AUC 90.0% to 100% (the equal-tailed one as little as 60%).

Every interval the default chooses, and every Dirichlet posterior interval, contains its
estimate: where the draws' interval leaves it out (a perfectly separated test set: the
AUC 1, every draw below it) it is extended to the estimate, and the method string says
so, and says when the default chose the posterior for a small class (:func:`_finish`;
docs/method.md#containing-the-estimate).
"""

from __future__ import annotations

from typing import Any

from .._containing import contain
from ._options import _unit_area

__all__: list[str] = []

#: ``method="auto"`` for a ROC or PR area: the Dirichlet posterior when the smaller class
#: has fewer rows than this, the deterministic logit-t interval (DeLong's variance for
#: the ROC AUC, the jackknife's for the other areas) from this size on, where both cover
#: within 93%-97% in the coverage studies and the logit-t interval costs milliseconds
#: where the posterior's draws cost seconds (n = 1e6)
DIRICHLET_BELOW = 100


def _auto(quantity: Any, curve: Any) -> tuple[str, str]:
    """The method and interval of ``method="auto"`` for this quantity on this curve: the
    ones the coverage studies found closest to nominal (``benchmarks/results/
    coverage_curve.md`` and ``coverage_shapes.md``)."""
    if _unit_area(quantity):
        if min(curve.n_positive, curve.n_negative) < DIRICHLET_BELOW:
            kind = "bias-extended" if quantity.curve == "pr" else "equal-tailed"
            return "dirichlet", kind
        if quantity.curve == "roc" and quantity.rule == "trapezoid":
            return "delong", "logit-t"
        return "jackknife", "logit-t"
    return "bootstrap", "percentile"


def _finish(
    curve: Any,
    low: float,
    high: float,
    estimate: float,
    text: str,
    method: str,
    chosen: bool,
) -> tuple[float, float, str]:
    """The interval's ends and its method string, finished: an interval ``chosen`` by
    ``method="auto"`` or made by the Dirichlet posterior extended to the estimate where
    it lies outside (said in the text), and the text saying when the default chose the
    posterior because the smaller class has fewer than ``DIRICHLET_BELOW`` rows."""
    if chosen or method == "dirichlet":
        low, high, note = contain(low, high, estimate)
        text += note
    if chosen and method == "dirichlet":
        p, n = curve.n_positive, curve.n_negative
        smaller = f"{p:g} positives" if p <= n else f"{n:g} negatives"
        text += f"; the default below {DIRICHLET_BELOW} rows in the smaller class (here {smaller})"
    return low, high, text
