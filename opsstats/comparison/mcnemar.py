"""McNemar's test of two classifiers' paired error rates, with the Agresti-Min interval
of the difference in accuracy (docs/method.md#comparisons)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._lazy import lazy_module
from .._validation import check_confidence_level
from ..results import ConfidenceInterval
from ._inputs import check_alternative, named_columns, paired_predictions
from .result import ComparisonResult

if TYPE_CHECKING:
    from scipy import special, stats
else:
    special = lazy_module("scipy.special")
    stats = lazy_module("scipy.stats")

__all__ = ["mcnemar_test"]


def _p_value(b: int, c: int, kind: str, correction: bool, alternative: str) -> tuple[float, float]:
    """(statistic, p) of McNemar's test on the discordant counts b (A right, B wrong)
    and c (A wrong, B right)."""
    m = b + c
    if m == 0:
        return float("nan"), float("nan")
    if kind == "exact":
        stat = float(min(b, c))
        if alternative == "two-sided":
            p = min(1.0, 2.0 * float(stats.binom.cdf(min(b, c), m, 0.5)))
        elif alternative == "greater":  # A better: b large
            p = float(stats.binom.sf(b - 1, m, 0.5))
        else:
            p = float(stats.binom.cdf(b, m, 0.5))
        return stat, p
    d = abs(b - c) - (1.0 if correction else 0.0)
    d = max(d, 0.0)
    stat = d * d / m
    if alternative == "two-sided":
        return stat, float(stats.chi2.sf(stat, 1))
    z = np.sign(b - c) * d / np.sqrt(m)
    return stat, float(stats.norm.sf(z) if alternative == "greater" else stats.norm.cdf(z))


def mcnemar_test(
    y_true: Any,
    y_pred: Any,
    *,
    exact: bool | None = None,
    correction: bool = True,
    alternative: str = "two-sided",
    confidence_level: float = 0.95,
    pos_label: Any = None,
) -> ComparisonResult:
    """McNemar's test that two classifiers' predictions on the same rows are equally
    often right (their paired error rates are equal).

    Parameters
    ----------
    y_true : array-like of shape (n,)
    y_pred : dict {name: array-like} or list of two arrays
        The two classifiers' predicted labels, A first.
    exact : bool, optional
        The exact binomial test on the discordant pairs; default: exact when fewer than
        25 rows are discordant, the chi-squared test otherwise.
    correction : bool, default True
        Edwards' continuity correction of the chi-squared statistic,
        ``(|b - c| - 1)**2 / (b + c)``; with b == c the statistic is 0 (as R's
        ``mcnemar.test``, which drops the correction there; statsmodels gives
        1 / (b + c)).
    alternative : {"two-sided", "greater", "less"}
        About accuracy(A) - accuracy(B).
    confidence_level : float, default 0.95
    pos_label : label, optional

    Returns
    -------
    ComparisonResult
        ``estimate`` the difference in accuracy (b - c) / n, with b the rows A gets right
        and B wrong and c the reverse; ``statistic`` min(b, c) (exact) or the
        chi-squared statistic, as ``statsmodels.stats.contingency_tables.mcnemar``;
        ``ci`` the Agresti-Min (2005) interval: the Wald interval of the difference
        after adding 1/2 to each of the four cells of the (A right?, B right?) table.

    References
    ----------
    .. [1] Q. McNemar, "Note on the sampling error of the difference between correlated
       proportions or percentages", Psychometrika 12(2), 153-157 (1947).
    .. [2] A. Agresti and Y. Min, "Simple improved confidence intervals for comparing
       matched proportions", Statistics in Medicine 24(5), 729-740 (2005).

    Examples
    --------
    >>> r = mcnemar_test([1, 1, 0, 0, 1, 0, 1, 0], {"A": [1, 1, 0, 0, 1, 0, 0, 1],
    ...                                             "B": [0, 1, 1, 0, 0, 0, 0, 1]})
    >>> r.statistic, round(r.p_value, 4), r.estimate
    (0.0, 0.25, 0.375)
    """
    alternative = check_alternative(alternative)
    level = check_confidence_level(confidence_level)
    if exact is not None and not isinstance(exact, bool):
        raise TypeError(f"`exact` must be True, False or None; got {exact!r}.")
    if not isinstance(correction, bool):
        raise TypeError(f"`correction` must be True or False; got {correction!r}.")
    named = named_columns("y_pred", y_pred)
    if len(named) != 2:
        raise ValueError(f"`y_pred` must hold exactly 2 classifiers; got {len(named)}.")
    is_pos, preds = paired_predictions(y_true, named, pos_label)
    (na, pa), (nb, pb) = preds.items()
    right_a, right_b = pa == is_pos, pb == is_pos
    b = int(np.sum(right_a & ~right_b))
    c = int(np.sum(~right_a & right_b))
    n = is_pos.size
    kind = ("exact" if b + c < 25 else "chi2") if exact is None else ("exact" if exact else "chi2")
    stat, p = _p_value(b, c, kind, correction, alternative)
    # Agresti-Min: 1/2 added to each of the four cells
    bs, cs, ns = b + 0.5, c + 0.5, n + 2.0
    d_adj = (bs - cs) / ns
    se = np.sqrt(max((bs + cs) - (bs - cs) ** 2 / ns, 0.0)) / ns
    half = float(special.ndtri(0.5 + level / 2)) * se
    acc_a, acc_b = float(right_a.mean()), float(right_b.mean())
    if kind == "exact":
        how = "McNemar's exact test (binomial on the discordant rows)"
    else:
        how = "McNemar's chi-squared test" + (
            " with continuity correction" if correction else " without continuity correction"
        )
    return ComparisonResult(
        estimate=(b - c) / n,
        estimate_a=acc_a,
        estimate_b=acc_b,
        ci=ConfidenceInterval(max(d_adj - half, -1.0), min(d_adj + half, 1.0)),
        confidence_level=level,
        p_value=p,
        statistic=stat,
        statistic_name="min(b, c)" if kind == "exact" else "McNemar's chi-squared",
        alternative=alternative,
        quantity="Accuracy",
        method=f"{how}; Agresti-Min interval of the difference",
        names=(str(na), str(nb)),
        paired=True,
        counts={"rows": n, "positive": int(is_pos.sum()), "a_only_right": b, "b_only_right": c},
        df=None if kind == "exact" else 1.0,
    )
