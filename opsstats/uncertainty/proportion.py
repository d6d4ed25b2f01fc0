"""Exact and score intervals for a binomial proportion: the baseline for alpha and beta.

alpha = FP / (FP + TN) and beta = FN / (TP + FN) are binomial proportions given the
class totals. Their classical intervals are the baseline every other method in this
package is compared with (docs/method.md#intervals).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .._lazy import lazy_module
from .._validation import check_choice, check_confidence_level, check_count

if TYPE_CHECKING:
    from scipy import special
else:
    special = lazy_module("scipy.special")

__all__ = ["binomial_interval", "BINOMIAL_METHODS"]

BINOMIAL_METHODS = ("clopper-pearson", "wilson", "jeffreys")
_LABELS = {
    "clopper-pearson": "Clopper-Pearson exact",
    "wilson": "Wilson score",
    "jeffreys": "Jeffreys",
}


def binomial_interval(
    successes: int, trials: int, *, method: str = "clopper-pearson", confidence_level: float = 0.95
) -> tuple[float, float]:
    """Two-sided interval for a binomial proportion.

    Parameters
    ----------
    successes, trials : int
        Whole numbers, 0 <= successes <= trials, trials > 0.
    method : {"clopper-pearson", "wilson", "jeffreys"}
        ``"clopper-pearson"``: the exact interval from Beta quantiles (conservative:
        coverage at least the nominal level). ``"wilson"``: the score interval (coverage
        close to nominal on average, below it at some proportions). ``"jeffreys"``: the
        equal-tailed Beta(x + 1/2, n - x + 1/2) posterior interval, with the lower end
        set to 0 when x = 0 and the upper to 1 when x = n (Brown, Cai and DasGupta 2001).
    confidence_level : float, default 0.95

    Returns
    -------
    (float, float)

    Notes
    -----
    The three agree with ``statsmodels.stats.proportion.proportion_confint`` with
    ``method="beta"``, ``"wilson"`` and ``"jeffreys"``, except the Jeffreys interval
    at x = 0 and x = n, where statsmodels keeps the plain Beta quantile and this
    function applies Brown, Cai and DasGupta's boundary modification (0 or 1), without
    which the interval's coverage collapses near p = 0 and p = 1.

    References
    ----------
    L. D. Brown, T. T. Cai and A. DasGupta (2001). Interval estimation for a binomial
    proportion. Statistical Science 16(2), 101-133. doi:10.1214/ss/1009213286

    Examples
    --------
    >>> lo, hi = binomial_interval(8, 20, method="wilson")
    >>> round(lo, 4), round(hi, 4)
    (0.2188, 0.6134)
    """
    method = check_choice("method", method, BINOMIAL_METHODS)
    cl = check_confidence_level(confidence_level)
    x = check_count("successes", successes, integer=True)
    n = check_count("trials", trials, integer=True)
    if n == 0:
        raise ValueError(
            "`trials` must be positive: the proportion is undefined (0/0) without trials; got 0."
        )
    if x > n:
        raise ValueError(f"`successes` must be at most `trials` ({n}); got {x}.")
    from scipy.stats import beta as beta_dist  # imported here: scipy.stats is slow to load

    tail = (1 - cl) / 2
    if method == "clopper-pearson":
        lo = 0.0 if x == 0 else float(beta_dist.ppf(tail, x, n - x + 1))
        hi = 1.0 if x == n else float(beta_dist.ppf(1 - tail, x + 1, n - x))
        return lo, hi
    if method == "jeffreys":
        lo = 0.0 if x == 0 else float(beta_dist.ppf(tail, x + 0.5, n - x + 0.5))
        hi = 1.0 if x == n else float(beta_dist.ppf(1 - tail, x + 0.5, n - x + 0.5))
        return lo, hi
    z = float(special.ndtri(1 - tail))
    p = x / n
    denom = 1 + z * z / n
    center = (p + z * z / (2 * n)) / denom
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return float(max(0.0, center - half)), float(min(1.0, center + half))


def method_label(method: str) -> str:
    return _LABELS[method]
