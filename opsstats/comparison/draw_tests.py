"""The difference of two quantities read from their draws (paired or unpaired): the
equal-tailed interval, pROC's bootstrap test D, the posterior tail probability, and the
percentile interval expanded to Student's t with the p-value that inverts it
(docs/method.md#comparisons).
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

import numpy as np

from .._lazy import lazy_module
from ..results import ConfidenceInterval
from ..uncertainty._containing import contain
from ..uncertainty._draws import equal_tailed
from .delong import _normal_p
from .quantity import _Spec
from .result import ComparisonResult

if TYPE_CHECKING:
    from scipy import stats
else:
    stats = lazy_module("scipy.stats")

__all__: list[str] = []

_HOW = {
    "bootstrap": "stratified bootstrap",
    "dirichlet": "Dirichlet posterior",
}


def posterior_p_value(draws: np.ndarray, alternative: str) -> float:
    """The posterior tail probability of "no difference" from m draws of ``A - B``:
    ``P(d <= 0)`` for "greater", ``P(d >= 0)`` for "less", twice the smaller of the two
    for "two-sided" (capped at 1; draws exactly 0 count one half to each side), each
    estimated as (k + 1) / (m + 1) from the k draws on that side, so that it is never 0
    (at least 1 / (m + 1): the resolution of m draws). The two-sided value is below
    ``1 - level`` when 0 is well outside the equal-tailed interval of that level, so
    test and interval agree.

    Examples
    --------
    >>> posterior_p_value(np.array([-0.1, 0.2, 0.3, 0.4]), "two-sided")
    0.8
    >>> posterior_p_value(np.array([0.1, 0.2, 0.3, 0.4]), "greater")
    0.2
    """
    d = np.asarray(draws, dtype=float)
    m = d.size
    zero = np.sum(d == 0) / 2
    # (k + 1) / (m + 1): never 0 from finitely many draws (the Monte Carlo resolution)
    below = float((np.sum(d < 0) + zero + 1) / (m + 1))
    above = float((np.sum(d > 0) + zero + 1) / (m + 1))
    if alternative == "greater":
        return below
    if alternative == "less":
        return above
    return min(1.0, 2 * min(below, above))


def expanded_level(level: float, df: int) -> float:
    """The percentile level that widens a bootstrap interval to Student's t on ``df``
    degrees of freedom: ``2 Phi(t_df^{-1}((1 + level) / 2)) - 1`` (the t half of
    Hesterberg's expanded percentile interval; docs/method.md#comparisons).

    Examples
    --------
    >>> round(expanded_level(0.95, 9), 4)  # 10 rows in the smaller class
    0.9763
    """
    return float(2 * stats.norm.cdf(stats.t.ppf((1 + level) / 2, df)) - 1)


def expanded_p_value(draws: np.ndarray, alternative: str, df: int) -> float:
    """The p-value that inverts the expanded percentile interval: each tail share s of
    the draws beyond 0 (as :func:`posterior_p_value`) read as a normal tail and referred
    to Student's t on ``df``, ``T_df(Phi^{-1}(s))``; two-sided twice the smaller.

    Examples
    --------
    >>> d = np.r_[-np.ones(30), np.ones(970)]  # 3% of the draws below 0
    >>> round(expanded_p_value(d, "greater", 9), 4)  # share 31/1001 = 0.031; t's tails
    0.0474
    """
    if alternative == "two-sided":
        one = min(posterior_p_value(draws, "greater"), posterior_p_value(draws, "less"))
        return min(1.0, 2 * float(stats.t.cdf(stats.norm.ppf(one), df)))
    return float(stats.t.cdf(stats.norm.ppf(posterior_p_value(draws, alternative)), df))


def _from_draws(
    est_a: float,
    est_b: float,
    draws_a: np.ndarray,
    draws_b: np.ndarray,
    *,
    method: str,
    spec: _Spec,
    names: tuple[str, str],
    paired: bool,
    counts: dict[str, Any],
    level: float,
    alternative: str,
    rope: tuple[float, float] | None,
    tail: bool = False,
    chosen: bool = False,
    classifiers: int = 2,
) -> ComparisonResult:
    """The difference, its equal-tailed interval over the draws of the difference and
    the test: for the bootstrap D = difference / sd(draws) with a normal p-value (pROC's
    bootstrap test) or, with ``tail`` (the default method's), the percentile interval
    expanded to t on k - 1 df and the tail p-value that inverts it; for the posterior
    the posterior tail probability (:func:`posterior_p_value`) with the posterior
    probabilities. An interval ``chosen`` by ``method="auto"`` (or ``tail``), and every
    posterior interval, is extended to the observed difference where it lies outside
    (docs/method.md#containing-the-estimate), and the method says so. ``classifiers``:
    how many classifiers share the paired draws."""
    n = draws_a.size
    d = draws_a - draws_b
    ok = np.isfinite(d)
    defined = np.sort(d[ok])
    diff = est_a - est_b
    what = (
        f"paired {_HOW[method]} (one set of "
        + ("resampled rows" if method == "bootstrap" else "weights")
        + (" for both)" if classifiers == 2 else f" for all {classifiers} classifiers)")
        if paired
        else f"{_HOW[method]} of each test set, independently"
    )
    if method == "dirichlet":
        text = (
            f"{what}, {n} draws; p-value the posterior tail probability beyond 0, "
            "equal-tailed interval"
        )
    elif tail:
        df = max(1, min(counts["positive"], counts["negative"]) - 1)
        text = (
            f"{what}, {n} draws; percentile interval expanded to Student's t on {df} df "
            "(the smaller class's rows less one), p-value the share of drawn differences "
            "beyond 0 referred to the same t (the interval inverted)"
        )
    else:
        text = (
            f"{what}, {n} draws; test D = difference / sd of the drawn differences, "
            "normal; equal-tailed interval"
        )
    bayes = method == "dirichlet"
    p_value = float("nan")
    if defined.size >= 2 and np.isfinite(diff):
        sd = float(np.std(defined, ddof=1))
        stat = diff / sd if sd > 0 else float("nan")
        if tail:
            low, high = equal_tailed(defined, expanded_level(level, df))
            p_value = expanded_p_value(defined, alternative, df)
        else:
            low, high = equal_tailed(defined, level)
            p_value = (
                posterior_p_value(defined, alternative) if bayes else _normal_p(stat, alternative)
            )
            if not bayes and not sd > 0:
                warnings.warn(
                    f"{spec.label}: every drawn difference is {diff:g} (the two agree on "
                    "every resample), so the statistic D and its p-value are undefined (NaN).",
                    UserWarning,
                    stacklevel=4,
                )
        if chosen or tail or bayes:
            low, high, note = contain(low, high, diff)
            text += note
    else:
        stat, low, high = float("nan"), float("nan"), float("nan")
        text += "; undefined: fewer than 2 defined draws or an undefined estimate"
    p_greater = float(np.mean(defined > 0)) if bayes and defined.size else None
    p_rope = (
        float(np.mean((defined >= rope[0]) & (defined <= rope[1])))
        if bayes and rope is not None and defined.size
        else None
    )
    return ComparisonResult(
        estimate=float(diff),
        estimate_a=float(est_a),
        estimate_b=float(est_b),
        ci=ConfidenceInterval(low, high),
        confidence_level=level,
        p_value=p_value,
        statistic=float(stat),
        statistic_name="D",
        alternative=alternative,
        quantity=spec.label,
        method=text,
        names=names,
        paired=paired,
        counts=counts,
        probability_greater=p_greater,
        rope=rope if p_rope is not None else None,
        probability_rope=p_rope,
        n_resamples=n,
        n_undefined=int(n - defined.size),
        draws=defined,
    )
