"""The test of "the classifier changed" between two test sets, which a change of the
prevalence alone cannot trip: :func:`classifier_change_test` and, for its metric-free
form on the error rates, :class:`ErrorRatesChange` (docs/method.md#classifier-change).

H0: the class-conditional behaviour (alpha and beta at a threshold, or each class's score
distribution) is the same in both test sets; the prevalences may differ. The statistic
is the difference of the metric with both sets standardized to one prevalence pi*, D =
M(pi*, theta_after) - M(pi*, theta_before), compared by :func:`opsstats.compare_test_sets`
on the two ``at_prevalence(pi*)`` objects (each drawn from its own rows with the
prevalence fixed at pi*) or, for a curve quantity other than the ROC AUC, by the
stratified permutation test (exact under H0). Under H0, D = 0 in the population
whatever the metric.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from ._summary import Summary, wrap_line
from ._validation import (
    MAX_RESAMPLES,
    check_choice,
    check_confidence_level,
    check_digits,
    check_probability,
    check_size,
)
from .comparison import METHODS, ComparisonResult, ComparisonTable, compare_test_sets
from .comparison._permutation import stratified_permutation_test
from .curves._geometry import CurveArea, resolve_quantity
from .decomposition import read_test_sets
from .results import ConfidenceInterval
from .uncertainty._draws import check_rng

__all__ = ["classifier_change_test", "ErrorRatesChange"]

#: The metric-free form on confusion matrices: alpha and beta, a 2-df test.
ERROR_RATES = "error_rates"
#: The stratified permutation test of a curve quantity (docs/method.md#classifier-change).
PERMUTATION = "permutation"
#: The intervals of D with the permutation test (the first is the default).
INTERVALS = ("mover", "percentile")
#: The options of compare_test_sets that are not the metric's parameters.
_OWN_OPTIONS = ("metric", "alternative", "confidence_level", "n_resamples", "at", "rule",
                "prior", "rng")  # fmt: skip


@dataclass(frozen=True)
class ErrorRatesChange:
    """The change of alpha (FPR) and beta (FNR) between two test sets: two independent
    2x2 tables (the negatives' and the positives'), Pearson's chi-squared test of each
    and their sum on 2 degrees of freedom (docs/method.md#classifier-change).

    Attributes
    ----------
    estimate : tuple of float
        (alpha_after - alpha_before, beta_after - beta_before).
    before, after : tuple of float
        (alpha, beta) of each test set.
    ci : tuple of ConfidenceInterval
        Newcombe's hybrid score intervals of the two differences.
    confidence_level : float
    p_value : float
        Of the joint test (chi-squared on ``df`` degrees of freedom).
    statistic : float
        X-squared, the sum of the two tables' Pearson statistics.
    df : int
        2, or 1 when one table has no errors in either set (its statistic is 0 and it
        adds no degree of freedom).
    p_values : tuple of float
        Of each table's 1-df test (alpha, beta), unadjusted.
    statistics : tuple of float
    alternative : str
        "two-sided".
    quantity : str
    method : str
    counts : dict

    Examples
    --------
    >>> from opsstats import ConfusionMatrix, classifier_change_test
    >>> jan = ConfusionMatrix(tp=40, fp=60, fn=20, tn=880)
    >>> feb = ConfusionMatrix(tp=120, fp=30, fn=80, tn=770)
    >>> r = classifier_change_test(jan, feb, metric="error_rates")
    >>> round(r.statistic, 3), r.df, round(r.p_value, 4)
    (6.975, 2, 0.0306)
    """

    estimate: tuple[float, float]
    before: tuple[float, float]
    after: tuple[float, float]
    ci: tuple[ConfidenceInterval, ConfidenceInterval]
    confidence_level: float
    p_value: float
    statistic: float
    df: int
    p_values: tuple[float, float]
    statistics: tuple[float, float]
    alternative: str = "two-sided"
    quantity: str = "alpha (FPR) and beta (FNR)"
    method: str = ""
    counts: dict[str, Any] = field(default_factory=dict)

    def to_frame(self) -> Any:
        """One row per error rate: before, after, difference, interval, its 1-df test;
        the joint test in the columns ``statistic``, ``df``, ``p_value``."""
        import pandas as pd

        return pd.DataFrame(
            {
                "rate": ["alpha", "beta"],
                "before": list(self.before),
                "after": list(self.after),
                "difference": list(self.estimate),
                "ci_low": [c.low for c in self.ci],
                "ci_high": [c.high for c in self.ci],
                "statistic_1df": list(self.statistics),
                "p_value_1df": list(self.p_values),
                "statistic": self.statistic,
                "df": self.df,
                "p_value": self.p_value,
            }
        )

    def to_string(self, digits: int = 4) -> str:
        """One line: the joint test and the two differences."""
        digits = check_digits(digits)
        parts = [
            f"{name} {d:+.{digits}f} [{c.low:+.{digits}f}, {c.high:+.{digits}f}]"
            for name, d, c in zip(("alpha", "beta"), self.estimate, self.ci, strict=True)
        ]
        return (
            f"Change of alpha and beta (after - before): {'; '.join(parts)}; X-squared = "
            f"{self.statistic:.{digits}g}, df = {self.df}, p-value = {self.p_value:.{digits}g}"
        )

    def __str__(self) -> str:
        return wrap_line(self.to_string())

    def summary(self, digits: int = 4) -> Summary:
        """The table and how it was made, as a :class:`~opsstats._summary.Summary`."""
        table = self.to_frame().set_index("rate").drop(columns=["statistic", "df", "p_value"])
        notes = (
            f"Joint test: X-squared = {self.statistic:.{check_digits(digits)}g} on "
            f"{self.df} df, p-value = {self.p_value:.{digits}g}.",
            f"{self.method}.",
        )
        return Summary(
            title="Did the classifier change? Its error rates before and after",
            table=table,
            notes=notes,
            digits=digits,
        )

    def _repr_html_(self) -> str:
        return self.summary().as_html()


def _pearson(x0: float, n0: float, x1: float, n1: float) -> float:
    """Pearson's chi-squared statistic (no continuity correction) of the 2x2 table
    [[x0, n0 - x0], [x1, n1 - x1]]; 0 when a column is empty (no evidence either way)."""
    x, n = x0 + x1, n0 + n1
    if x == 0 or x == n:
        return 0.0
    p = x / n
    return float((x0 - n0 * p) ** 2 * n / (n0 * n1 * p * (1 - p)))


def _error_rates_test(before: Any, after: Any, level: float) -> ErrorRatesChange:
    from scipy import stats
    from statsmodels.stats.proportion import confint_proportions_2indep

    for name, cm in (("before", before), ("after", after)):
        if cm.origin is not None or not cm.is_integer:
            raise ValueError(
                f"`{name}` must be a confusion matrix of whole counts (not standardized, "
                f"not weighted) for the test of the error rates; got {cm!r}."
            )
    tables = [  # (errors, class size) of the negatives (alpha) and the positives (beta)
        ((before.fp, before.negatives), (after.fp, after.negatives)),
        ((before.fn, before.positives), (after.fn, after.positives)),
    ]
    stats_, ps, cis, df = [], [], [], 0
    for (x0, n0), (x1, n1) in tables:
        x2 = _pearson(x0, n0, x1, n1)
        empty = x0 + x1 in (0, n0 + n1)
        df += 0 if empty else 1
        stats_.append(x2)
        ps.append(1.0 if empty else float(stats.chi2.sf(x2, 1)))
        low, high = confint_proportions_2indep(
            x1, n1, x0, n0, method="newcomb", compare="diff", alpha=1 - level
        )
        cis.append(ConfidenceInterval(float(low), float(high)))
    total = float(sum(stats_))
    p_value = float(stats.chi2.sf(total, df)) if df else 1.0
    return ErrorRatesChange(
        estimate=(after.alpha - before.alpha, after.beta - before.beta),
        before=(before.alpha, before.beta),
        after=(after.alpha, after.beta),
        ci=(cis[0], cis[1]),
        confidence_level=level,
        p_value=p_value,
        statistic=total,
        df=df,
        p_values=(ps[0], ps[1]),
        statistics=(stats_[0], stats_[1]),
        method=(
            "Pearson's chi-squared test of each 2x2 table (the negatives: false positives "
            "before and after; the positives: false negatives), no continuity correction; "
            "their sum on the tables' df (the two are independent given the class sizes); "
            "Newcombe's hybrid score interval of each difference"
        ),
        counts={
            "rows_before": before.n,
            "positive_before": before.positives,
            "rows_after": after.n,
            "positive_after": after.positives,
        },
    )


def classifier_change_test(
    before: Any,
    after: Any,
    *,
    metric: Any,
    prevalence: float | None = None,
    method: str = "auto",
    alternative: str = "two-sided",
    confidence_level: float = 0.95,
    n_resamples: int = 2000,
    at: dict[str, float] | None = None,
    rule: str | None = None,
    prior: Any = "jeffreys",
    threshold: float | None = None,
    pos_label: Any = None,
    n_permutations: int = 1999,
    interval: str | None = None,
    rng: Any = None,
    **params: Any,
) -> ComparisonResult | ErrorRatesChange:
    """Test whether the classifier changed between two test sets, in a way that a change
    of the prevalence alone cannot trip (docs/method.md#classifier-change).

    H0: the same class-conditional behaviour in both sets (alpha and beta, or each
    class's score distribution); the prevalences may differ. The statistic is the
    difference of the metric with both sets standardized to one prevalence pi*:
    D = M(pi*, theta_after) - M(pi*, theta_before), compared by
    :func:`opsstats.compare_test_sets` on ``after.at_prevalence(pi*)`` and
    ``before.at_prevalence(pi*)`` (each drawn from its own rows, the prevalence fixed).
    Under a pure prevalence shift D is 0 in the population whatever the metric, which is
    not so for the raw metric or (for most metrics) its OPS.

    Parameters
    ----------
    before, after : ConfusionMatrix, ScoreCurve or (y_true, y)
        The two test sets, as :func:`opsstats.decompose` takes them.
    metric : str
        A registered metric (``"f1"``, ``"mcc"``, ``"precision"``, ...), a curve quantity
        (``"pr_auc"``, ``"roc_auc"``: the ROC AUC does not depend on the prevalence, and
        is compared by DeLong's unpaired test), or ``"error_rates"``: the metric-free
        test of alpha and beta (two independent 2x2 tables, Pearson's chi-squared on
        2 df; returns an :class:`ErrorRatesChange`).
    prevalence : float, optional
        pi*, in (0, 1). Default: the ``before`` set's observed prevalence, treated as a
        constant.
    method : str, default "auto"
        ``"auto"``: for a confusion-matrix metric each matrix's Dirichlet posterior, for
        the ROC AUC (which does not depend on the prevalence) DeLong's unpaired test on
        t, as :func:`opsstats.compare_test_sets`; for every other curve quantity (the PR
        AUC, another area, a metric at an operating point) ``"permutation"``.
        ``"permutation"``: the stratified permutation test of D, exact under H0 (each
        class's pooled rows reassigned to the two sets at random, each set's class
        sizes kept; curve quantities of whole-number counts only: weighted curves are
        refused). The methods of :func:`opsstats.compare_test_sets` (``"bootstrap"``,
        ``"dirichlet"``, ``"delong-t"``, ...) as there.
    alternative : {"two-sided", "greater", "less"}
        About D = after - before. The permutation p-value is (1 + #{permutations at
        least as extreme}) / (B + 1): two-sided ``|D_b| >= |D|``, "greater" ``D_b >= D``,
        "less" ``D_b <= D``.
    confidence_level, n_resamples, at, rule, prior, rng, **params
        As in :func:`opsstats.compare_test_sets`; with the permutation test
        ``n_resamples`` is the resamples (or draws) of the interval of D.
    n_permutations : int, default 1999
        B, the permutations of the permutation test (at least 19). Under H0
        P(p <= 0.05) <= 5%, equal when B + 1 is a multiple of 20 and no two differences
        tie.
    interval : {"mover", "percentile"}, optional
        The interval of D with the permutation test. ``"mover"`` (the default): the
        MOVER combination (Zou and Donner 2008) of each set's own default interval
        (``ScoreCurve.interval`` with ``method="auto"``); where one is refused (a class
        of one row), the percentile interval, and ``method`` says so. ``"percentile"``:
        each set's stratified bootstrap, percentile interval of the difference (it
        covered 0 in as little as 89% in the study).
    threshold, pos_label
        As in :func:`opsstats.decompose`.

    Returns
    -------
    ComparisonResult or ErrorRatesChange
        The difference (``names = ("after", "before")``), its interval, ``p_value``,
        ``statistic``, ``method``; ``details["prevalence"]`` is pi*. For
        ``"error_rates"``, an :class:`ErrorRatesChange`.

    Raises
    ------
    TypeError, ValueError
        As :func:`opsstats.decompose` for the test sets; ValueError for a prevalence
        outside (0, 1).

    Notes
    -----
    Size under a pure prevalence shift (``benchmarks/results/classifier_change.md``,
    binormal classifier, 500 to 50,000 rows, prevalences 0.02 to 0.5): 3.6%-6.4% (mean
    5.0%) at the 5% level for F1, MCC and precision in the 90 cells where every expected
    count is at least 5 (1,000 repetitions per cell); for the PR AUC (the
    permutation test, B = 199) 4.0%-6.3% over 12 cells of 500 to 50,000 rows (1,000
    repetitions, 200 at 50,000 rows), none outside 3.5%-6.5% (each set's stratified
    bootstrap, the default before, gave 1%-13%). The MOVER interval of D covered 0 in 94.0%-96.7% of those
    cells, the percentile bootstrap interval in 87.6%-94.9%
    (docs/method.md#classifier-change).

    Examples
    --------
    The same classifier (alpha 0.067, beta 0.5) at prevalences 0.05 and 0.3: its F1
    moves from 0.36 to 0.60, its standardized F1 not at all.

    >>> from opsstats import ConfusionMatrix, classifier_change_test
    >>> before = ConfusionMatrix(tp=50, fp=127, fn=50, tn=1773)
    >>> after = ConfusionMatrix(tp=300, fp=94, fn=300, tn=1306)
    >>> r = classifier_change_test(before, after, metric="f1", rng=0)
    >>> r.quantity, round(r.estimate, 4), r.p_value > 0.05
    ('F1 score at prevalence 0.05', -0.0007, True)

    A curve quantity is tested by the stratified permutation test:

    >>> import numpy as np
    >>> g = np.random.default_rng(0)
    >>> y0, y1 = (g.random(400) < 0.1).astype(int), (g.random(400) < 0.4).astype(int)
    >>> sets = [(y, g.normal(size=400) + 1.5 * y) for y in (y0, y1)]
    >>> r = classifier_change_test(*sets, metric="pr_auc", n_permutations=199, rng=1)
    >>> r.method.split(" (")[0], r.details["n_permutations"], r.details["interval"]
    ('stratified permutation test', 199, 'mover')
    """
    level = check_confidence_level(confidence_level)
    if isinstance(metric, str) and metric.strip().lower() == ERROR_RATES:
        alternative = check_choice("alternative", alternative, ("two-sided",))
        if prevalence is not None:
            raise ValueError(
                "`prevalence` standardizes a metric; the test of the error rates needs none; "
                f"got {prevalence!r}."
            )
        _, b0, b1 = read_test_sets(before, after, "f1", None, None, threshold, pos_label)
        return _error_rates_test(b0, b1, level)
    method = check_choice("method", method, (*METHODS, PERMUTATION))
    n_permutations = check_size("n_permutations", n_permutations, minimum=19, maximum=MAX_RESAMPLES)
    kind, b0, b1 = read_test_sets(before, after, metric, at, rule, threshold, pos_label)
    pi = (
        float(b0.prevalence)
        if prevalence is None
        else check_probability("prevalence", prevalence, open_low=True, open_high=True)
    )
    quantity = resolve_quantity(metric, at, rule, dict(params)) if kind == "curve" else None
    if method == "auto" and quantity is not None and not _is_roc_auc(quantity):
        method = PERMUTATION
    if method != PERMUTATION and interval is not None:
        raise ValueError(
            "`interval` chooses the interval of the permutation test's difference "
            f"(method='permutation'); got interval={interval!r} with method={method!r}."
        )
    generator = check_rng(rng)
    sets = {"after": b1.at_prevalence(pi), "before": b0.at_prevalence(pi)}
    options = dict(
        metric=metric,
        alternative=alternative,
        confidence_level=level,
        n_resamples=n_resamples,
        at=at,
        rule=rule,
        prior=prior,
        rng=generator,
        **params,
    )
    result: ComparisonResult | ComparisonTable
    if method == PERMUTATION:
        if quantity is None:
            raise ValueError(
                "`method` 'permutation' permutes the rows of two score curves (a curve "
                f"quantity); {metric!r} is a confusion-matrix metric: use method='auto' "
                "(each matrix's Dirichlet posterior). Got method='permutation'."
            )
        result = _permutation(sets, quantity, pi, interval, n_permutations, generator, options)
    else:
        result = compare_test_sets(sets, method=method, **options)
    assert isinstance(result, ComparisonResult)  # two test sets: one comparison
    method_text = (
        f"{result.method}; both test sets standardized to prevalence {pi:.4g} "
        f"({'as given' if prevalence is not None else 'the before set' + chr(39) + 's'}), "
        "each drawn from "
        "its own rows with the prevalence fixed"
    )
    return replace(
        result,
        quantity=f"{result.quantity} at prevalence {pi:.4g}",
        method=method_text,
        details={
            **result.details,
            "prevalence": pi,
            "before": b0,
            "after": b1,
            "prevalence_before": float(b0.prevalence),
            "prevalence_after": float(b1.prevalence),
        },
    )


def _is_roc_auc(quantity: Any) -> bool:
    """The ROC AUC (trapezoid rule), which does not depend on the prevalence: its default
    stays DeLong's unpaired test on t."""
    return (
        isinstance(quantity, CurveArea)
        and quantity.curve == "roc"
        and quantity.rule == "trapezoid"
        and not quantity.normalized
    )


def _permutation(
    sets: dict[str, Any],
    quantity: Any,
    pi: float,
    interval: str | None,
    n_permutations: int,
    rng: Any,
    options: dict[str, Any],
) -> ComparisonResult:
    """The stratified permutation test of D, with its interval: the MOVER combination of
    each set's own default interval (``"mover"``; where a set's interval is refused, as
    the Dirichlet posterior refuses a class of one row, the percentile interval, and the
    method says so) or each set's stratified bootstrap, percentile (``"percentile"``)
    (docs/method.md#classifier-change)."""
    interval = check_choice("interval", INTERVALS[0] if interval is None else interval, INTERVALS)
    test = stratified_permutation_test(
        sets["before"], sets["after"], quantity, pi, n_permutations, rng, options["alternative"]
    )
    boot = compare_test_sets(sets, method="bootstrap", **options)
    assert isinstance(boot, ComparisonResult)
    ci = boot.ci
    how = (
        f"each test set's stratified bootstrap, {boot.n_resamples} resamples, "
        "percentile interval of the difference"
    )
    if interval == "mover":
        try:
            ci, how = _mover(sets, options)
        except ValueError as exc:  # a set's own interval refused (e.g. 1 row of a class)
            how += f" (MOVER refused: {exc})"
    side = {"two-sided": "|D_b| >= |D|", "greater": "D_b >= D", "less": "D_b <= D"}
    undefined = f", {test.n_undefined} undefined left out" if test.n_undefined else ""
    text = (
        f"stratified permutation test (each class's pooled rows reassigned to the two sets "
        f"at random, each set's class sizes kept), B = {test.n_permutations} "
        f"permutations{undefined}, p = (1 + #{{{side[options['alternative']]}}}) / (B + 1); "
        f"interval: {how}"
    )
    return replace(
        boot,
        ci=ci,
        p_value=test.p_value,
        statistic=test.statistic,
        statistic_name="D",
        method=text,
        details={
            **boot.details,
            "test": PERMUTATION,
            "interval": interval,
            "n_permutations": test.n_permutations,
            "n_permutations_undefined": test.n_undefined,
            "permutation_differences": test.null,
        },
    )


def _mover(sets: dict[str, Any], options: dict[str, Any]) -> tuple[ConfidenceInterval, str]:
    """MOVER (Zou and Donner 2008): the interval of a difference of two independent
    estimates from each one's own interval, [D - sqrt((a - l_a)^2 + (u_b - b)^2),
    D + sqrt((u_a - a)^2 + (b - l_b)^2)], each set's interval its curve's default
    (``ScoreCurve.interval`` with ``method="auto"``)."""
    ends = []
    how = []
    for name in ("after", "before"):
        r = sets[name].interval(
            options["metric"],
            confidence_level=options["confidence_level"],
            n_resamples=options["n_resamples"],
            at=options["at"],
            rule=options["rule"],
            rng=options["rng"],
            **{k: v for k, v in options.items() if k not in _OWN_OPTIONS},
        )
        ends.append((float(r.estimate), float(r.ci.low), float(r.ci.high)))
        how.append(f"{name}: {r.method}")
    (a, la, ua), (b, lb, ub) = ends
    d = a - b
    low = d - float(np.hypot(a - la, ub - b))
    high = d + float(np.hypot(ua - a, b - lb))
    text = "MOVER (Zou and Donner 2008) of each set's own interval (" + "; ".join(how) + ")"
    return ConfidenceInterval(low, high), text
