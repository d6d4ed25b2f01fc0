"""The entry points: :func:`compare` (classifiers on the same rows) and
:func:`compare_test_sets` (one quantity on independent test sets), for every curve
quantity, every confusion-matrix metric and the OPS of each (docs/method.md#comparisons).
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from itertools import combinations
from typing import Any

import numpy as np
from scipy import stats

from .._validation import (
    check_choice,
    check_confidence_level,
    check_pair,
    check_resamples,
    describe,
)
from ..confusion import ConfusionMatrix
from ..curves import ScoreCurve
from ..curves._geometry import CurveArea, resolve_quantity
from ..curves._partial import PartialArea
from ..exceptions import SmallCountWarning
from ..metrics import resolve_metric
from ..ops import _check_reference
from ..results import ConfidenceInterval
from ..uncertainty._draws import check_rng, equal_tailed
from ..uncertainty.curve._options import _estimate
from ..uncertainty.curve.dirichlet import _curve_prior
from ._inputs import check_alternative, paired_predictions, paired_scores
from .delong import (
    _check_classes,
    _class_covariances,
    _normal_p,
    _paired_result,
    _t_p,
    _warn_zero,
    delong_unpaired,
)
from .draws import (
    paired_confusion_draws,
    paired_curve_draws,
    unpaired_confusion_draws,
    unpaired_curve_draws,
)
from .jackknife import paired_jackknife
from .mcnemar import mcnemar_test
from .result import ComparisonResult, ComparisonTable
from .venkatraman import venkatraman_test

__all__ = ["METHODS", "compare", "compare_test_sets"]

METHODS = (
    "auto",
    "delong",
    "delong-t",
    "jackknife-t",
    "bootstrap",
    "dirichlet",
    "mcnemar",
    "venkatraman",
)

_HOW = {
    "bootstrap": "stratified bootstrap",
    "dirichlet": "Dirichlet posterior",
}


class _Spec:
    """What is compared: a curve quantity or a confusion-matrix metric, or its OPS."""

    def __init__(
        self, metric: Any, kind: str, ops: bool, reference: Any, at: Any, rule: Any, params: Any
    ) -> None:
        if not isinstance(ops, bool):
            raise TypeError(f"`ops` must be True or False; got {describe(ops)}.")
        self.kind, self.ops = kind, ops
        if kind == "curve":
            self.ref = _check_reference(reference, "curve", "a curve quantity") if ops else None
            self.quantity: Any = resolve_quantity(metric, at, rule, dict(params))
        else:
            if at is not None or rule is not None:
                raise ValueError(
                    "`at` and `rule` apply to curve quantities (with `y_score`); "
                    "predictions (`y_pred`) give a confusion-matrix metric."
                )
            self.ref = (
                _check_reference(reference, "point", "a confusion-matrix metric") if ops else None
            )
            if reference is not None and not ops:
                raise ValueError("`reference` ranks an OPS; give `ops=True` with it.")
            self.quantity = resolve_metric(metric, **params)
        if kind == "curve" and reference is not None and not ops:
            raise ValueError("`reference` ranks an OPS; give `ops=True` with it.")
        label = self.quantity.label
        self.label = f"OPS of {label}" if ops else label

    @property
    def is_roc_auc(self) -> bool:
        q = self.quantity
        return (
            self.kind == "curve"
            and not self.ops
            and isinstance(q, CurveArea)
            and q.curve == "roc"
            and q.rule == "trapezoid"
            and not q.normalized
        )

    @property
    def is_area(self) -> bool:
        """A curve area (a smooth statistic, whose jackknife variance is consistent)."""
        return self.kind == "curve" and isinstance(self.quantity, CurveArea | PartialArea)

    def to_ops(self, values: np.ndarray, prevalence: float) -> np.ndarray:
        """OPS of the values at the prevalence (NaN kept)."""
        if self.ref is None:
            return values
        out = np.full(values.shape, np.nan)
        ok = np.isfinite(values)
        if ok.any():
            out[ok] = self.ref.ops(self.quantity, values[ok], prevalence=prevalence).estimate
        return out


def _method(method: Any, spec: _Spec, paired: bool) -> str:
    method = check_choice("method", method, METHODS)
    if method == "auto":
        if spec.is_roc_auc:
            return "delong-t"
        return "bootstrap" if spec.kind == "curve" else "dirichlet"
    if method in ("delong", "delong-t") and not spec.is_roc_auc:
        raise ValueError(
            f"`method={method!r}` compares ROC AUCs (trapezoid rule, not their OPS); got "
            f"{spec.label}. Use method='bootstrap' or 'dirichlet'."
        )
    if method == "jackknife-t" and not (paired and spec.is_area and not spec.ops):
        raise ValueError(
            "`method='jackknife-t'` compares two curve areas (not their OPS, not a value "
            f"at an operating point) on the same rows; got {spec.label}"
            + ("" if paired else " on independent test sets")
            + "."
        )
    if method == "venkatraman" and not (paired and spec.is_roc_auc):
        raise ValueError(
            "`method='venkatraman'` tests that two ROC curves of the same rows are equal; "
            f"got {spec.label}" + ("" if paired else " on independent test sets") + "."
        )
    if method == "mcnemar" and not (
        paired
        and spec.kind == "confusion"
        and not spec.ops
        and spec.quantity.name in ("accuracy", "error_rate")
    ):
        raise ValueError(
            "`method='mcnemar'` tests paired accuracies (or error rates) of predictions "
            f"on the same rows; got {spec.label}"
            + ("" if paired else " on independent test sets")
            + ". Use method='dirichlet' or 'bootstrap'."
        )
    return method


#: Below these many rows in the smaller class the size study
#: (benchmarks/results/compare_size.md) found the test rejecting a true null more often
#: than its level: DeLong's test, and the paired draws (bootstrap, Dirichlet) of a curve.
SMALL_DELONG = 10
SMALL_PAIRED_DRAWS = 100
#: Below this many rows in the smaller class the default paired comparison of a curve
#: area is the jackknife-t, not the bootstrap, whose percentile interval covers 73.7% with 2
#: positives, 86.5% expanded to t (benchmarks/results/bootstrap_expansion.md).
SMALL_PAIRED_DRAWS_AUTO = 10


def _warn_small(smaller: int, how: str, kind: str, paired: bool, tail: bool = False) -> None:
    if how == "delong" and smaller < SMALL_DELONG:
        text = (
            f"{smaller} rows in the smaller class: with fewer than {SMALL_DELONG}, "
            "DeLong's test with pROC's reference distribution rejects a true null more "
            "often than its level (at 5%: 18.2% paired and 27.2% unpaired with 2 positives "
            "in the size study, benchmarks/results/compare_size.md); the default "
            "method='auto' refers it to Student's t with the df of the class parts."
        )
    elif (
        how in ("bootstrap", "dirichlet")
        and kind == "curve"
        and paired
        and (smaller < (SMALL_PAIRED_DRAWS_AUTO if tail else SMALL_PAIRED_DRAWS))
    ):
        limit = SMALL_PAIRED_DRAWS_AUTO if tail else SMALL_PAIRED_DRAWS
        text = (
            f"{smaller} rows in the smaller class: with fewer than {limit}, the paired "
            "draws of two curves reject a true null more often than their level, and "
            "their interval covers less than its level (benchmarks/results/"
            "bootstrap_expansion.md: the 95% interval of the paired bootstrap of a PR AUC "
            "difference covers 73.7% with 2 positives, 86.5% expanded to t); "
            + (
                "no small-sample method is known for an OPS or a value at an operating "
                "point (the default uses the jackknife-t for a curve area)."
                if tail
                else "the default method='auto' uses the jackknife-t (DeLong's test on t "
                "for the ROC AUC) below 10 rows of a class and the bootstrap expanded to "
                "t from 10 on."
            )
        )
    else:
        return
    warnings.warn(text, SmallCountWarning, stacklevel=3)


def _check_common(
    alternative: Any, confidence_level: Any, n_resamples: Any, rope: Any, prior: Any
) -> tuple[str, float, int, tuple[float, float] | None]:
    alternative = check_alternative(alternative)
    level = check_confidence_level(confidence_level)
    n = check_resamples(n_resamples)
    rope_pair = None if rope is None else check_pair("rope", rope)
    _curve_prior(prior)
    return alternative, level, n, rope_pair


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
) -> ComparisonResult:
    """The difference, its equal-tailed interval over the draws of the difference and
    the test: for the bootstrap D = difference / sd(draws) with a normal p-value (pROC's
    bootstrap test) or, with ``tail`` (the default method's), the percentile interval
    expanded to t on k - 1 df and the tail p-value that inverts it; for the posterior
    the posterior tail probability (:func:`posterior_p_value`) with the posterior
    probabilities."""
    n = draws_a.size
    d = draws_a - draws_b
    ok = np.isfinite(d)
    defined = np.sort(d[ok])
    diff = est_a - est_b
    what = (
        f"paired {_HOW[method]} (one set of "
        + ("resampled rows" if method == "bootstrap" else "weights")
        + " for both)"
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


def compare(
    y_true: Any,
    y_score: Any = None,
    *,
    y_pred: Any = None,
    metric: Any = "roc_auc",
    ops: bool = False,
    method: str = "auto",
    alternative: str = "two-sided",
    confidence_level: float = 0.95,
    n_resamples: int = 2000,
    rope: Any = None,
    reference: Any = None,
    at: dict[str, float] | None = None,
    rule: str | None = None,
    prior: Any = "jeffreys",
    adjust: str = "holm",
    pos_label: Any = None,
    rng: Any = None,
    **params: Any,
) -> ComparisonResult | ComparisonTable:
    """Compare classifiers on the same test set (paired): the difference of a quantity,
    with its interval and a test; for more than two classifiers every pair, with Holm
    (default) or Bonferroni adjusted p-values.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        True labels, shared by every classifier.
    y_score : dict {name: array-like of shape (n,)} or list of arrays, optional
        Scores of two or more classifiers: for a curve quantity (``metric`` an area such
        as ``"roc_auc"``, ``"pr_auc"``, or a metric read at an operating point ``at``).
    y_pred : dict {name: array-like of shape (n,)} or list of arrays, optional
        Predicted labels of two or more classifiers: for a confusion-matrix metric
        (``metric`` a registered name such as ``"f1"``). Give ``y_score`` or ``y_pred``.
    metric : str, default "roc_auc"
    ops : bool, default False
        Compare the outperformance scores of the quantity instead of its values.
    method : {"auto", "delong", "delong-t", "jackknife-t", "bootstrap", "dirichlet", \
"mcnemar", "venkatraman"}
        ``"auto"``: for the ROC AUC ``"delong-t"``, DeLong's statistic on Student's t
        with the Satterthwaite df of the class parts (``"delong"``: on the normal, as
        pROC). For another curve area: from 10 rows in the smaller class the paired
        stratified bootstrap, its percentile interval expanded to Student's t on k - 1
        df (k the rows of the smaller class) and the tail p-value that inverts it,
        below 10 ``"jackknife-t"``, the paired stratified jackknife on t. For a value at
        an operating point and any OPS of a curve quantity: the paired bootstrap. For a
        confusion-matrix metric and its OPS: the Dirichlet posterior of the joint
        (truth, A, B) table. ``"bootstrap"`` asked for by name tests with pROC's D.
        ``"mcnemar"``: McNemar's test of paired accuracies. ``"venkatraman"``:
        Venkatraman and Begg's permutation test that the two ROC curves are equal.
    alternative : {"two-sided", "greater", "less"}
        About ``A - B`` (``"greater"``: A is higher).
    confidence_level : float, default 0.95
    n_resamples : int, default 2000
        Draws of the bootstrap or the posterior.
    rope : (float, float), optional
        Region of practical equivalence of the difference: with ``"dirichlet"``,
        ``probability_rope`` is the posterior probability that the difference lies in it.
    reference : optional
        The reference distribution of the OPS (default: the Directed Binary Tree for
        curves, Uniform for confusion matrices).
    at, rule, **params
        The operating point, the AUC rule and the metric's parameters.
    prior : "jeffreys", "bayes-laplace" or a positive number
        Pseudo-counts of the Dirichlet posterior (per joint cell of a confusion table,
        per end pseudo-row of a curve).
    adjust : {"holm", "bonferroni"}
        The adjusted p-values of a table (both are in it; this one is ``p_adjusted``).
    pos_label : label, optional
    rng : None, int or numpy.random.Generator

    Returns
    -------
    ComparisonResult
        For two classifiers.
    ComparisonTable
        For three or more: every pair, in the order given.

    Examples
    --------
    >>> from opsstats import compare
    >>> y = [0, 0, 1, 1, 0, 1, 1, 0, 1, 0]
    >>> r = compare(y, {"A": [.1, .4, .8, .7, .3, .9, .6, .5, .8, .2],
    ...                 "B": [.2, .5, .6, .4, .1, .7, .3, .6, .9, .3]})
    >>> round(r.estimate, 2), r.method.split(" (")[0]
    (0.2, "DeLong's test for two correlated ROC curves")
    >>> r = compare(y, y_pred={"A": [0, 0, 1, 1, 0, 1, 0, 0, 1, 1],
    ...                        "B": [0, 1, 1, 0, 0, 1, 0, 1, 1, 0]}, metric="f1", rng=1)
    >>> round(r.estimate, 2), 0 < r.probability_greater < 1
    (0.2, True)
    """
    if (y_score is None) == (y_pred is None):
        raise TypeError(
            "give exactly one of `y_score` (scores, for a curve quantity) and `y_pred` "
            "(predicted labels, for a confusion-matrix metric)."
        )
    alternative, level, n, rope_pair = _check_common(
        alternative, confidence_level, n_resamples, rope, prior
    )
    check_choice("adjust", adjust, ("holm", "bonferroni"))
    generator = check_rng(rng)
    kind = "curve" if y_score is not None else "confusion"
    spec = _Spec(metric, kind, ops, reference, at, rule, params)
    how = _method(method, spec, paired=True)
    if kind == "curve":
        is_pos, columns = paired_scores(y_true, y_score, pos_label)
    else:
        is_pos, columns = paired_predictions(y_true, y_pred, pos_label)
    m, n_neg = int(is_pos.sum()), int((~is_pos).sum())
    counts = {"rows": m + n_neg, "positive": m, "negative": n_neg}
    tail = method == "auto"  # the auto bootstrap's test is its interval's (tail) p-value
    small = min(m, n_neg) < SMALL_PAIRED_DRAWS_AUTO
    if method == "auto" and how == "bootstrap" and small and spec.is_area and not spec.ops:
        how = "jackknife-t"
    _warn_small(min(m, n_neg), how, kind, paired=True, tail=tail)
    results = []
    for a, b in combinations(list(columns), 2):
        if how in ("delong", "delong-t"):
            _check_classes(m, n_neg)
            aucs, c10, c01 = _class_covariances(is_pos, [columns[a], columns[b]])
            parts = (c10, c01) if how == "delong-t" else None
            results.append(
                _paired_result(aucs, c10 + c01, (a, b), alternative, level, m, n_neg, parts)
            )
        elif how == "venkatraman":
            if alternative != "two-sided":
                raise ValueError(
                    f"Venkatraman's test is two-sided only; got alternative={alternative!r}."
                )
            results.append(
                venkatraman_test(
                    is_pos,
                    {a: columns[a], b: columns[b]},
                    n_resamples=n,
                    pos_label=True,
                    rng=generator,
                )
            )
        elif how == "mcnemar":
            pred = {
                a: np.where(columns[a], 1, 0),
                b: np.where(columns[b], 1, 0),
            }
            r = mcnemar_test(
                is_pos.astype(int),
                pred,
                alternative=alternative,
                confidence_level=level,
                pos_label=1,
            )
            if spec.quantity.name == "error_rate":
                r = _negate(r)
            results.append(r)
        elif how == "jackknife-t":
            _check_classes(m, n_neg)
            results.append(
                _paired_jackknife(is_pos, a, b, columns, spec, level, alternative, counts)
            )
        elif kind == "curve":
            results.append(
                _paired_curve(
                    is_pos,
                    a,
                    b,
                    columns,
                    spec,
                    how,
                    n,
                    generator,
                    prior,
                    level,
                    alternative,
                    rope_pair,
                    counts,
                    tail,
                )
            )
        else:
            results.append(
                _paired_confusion(
                    is_pos,
                    a,
                    b,
                    columns,
                    spec,
                    how,
                    n,
                    generator,
                    prior,
                    level,
                    alternative,
                    rope_pair,
                    counts,
                )
            )
    if len(results) == 1:
        return results[0]
    return ComparisonTable(tuple(results), adjust)


def _negate(r: ComparisonResult) -> ComparisonResult:
    """A comparison of accuracies as one of error rates (1 - accuracy)."""
    flip = {"greater": "less", "less": "greater", "two-sided": "two-sided"}
    return ComparisonResult(
        estimate=-r.estimate,
        estimate_a=1 - r.estimate_a,
        estimate_b=1 - r.estimate_b,
        ci=ConfidenceInterval(-r.ci.high, -r.ci.low),
        confidence_level=r.confidence_level,
        p_value=r.p_value,
        statistic=r.statistic,
        statistic_name=r.statistic_name,
        alternative=flip[r.alternative],
        quantity="Error rate",
        method=r.method,
        names=r.names,
        paired=True,
        counts=r.counts,
        df=r.df,
    )


def _paired_jackknife(is_pos, a, b, columns, spec, level, alternative, counts) -> ComparisonResult:
    est_a, est_b, var, var_pos, df = paired_jackknife(is_pos, columns[a], columns[b], spec.quantity)
    diff = est_a - est_b
    sd = float(np.sqrt(var)) if var > 0 else float("nan")
    if not sd > 0:
        _warn_zero("The paired jackknife")
    stat = diff / sd
    half = float(stats.t.ppf(0.5 + level / 2, df)) * sd
    return ComparisonResult(
        estimate=float(diff),
        estimate_a=est_a,
        estimate_b=est_b,
        ci=ConfidenceInterval(diff - half, diff + half),
        confidence_level=level,
        p_value=_t_p(stat, df, alternative),
        statistic=float(stat),
        statistic_name="T",
        alternative=alternative,
        quantity=spec.label,
        method="paired stratified jackknife (the rows left out one at a time, from both "
        "curves); Student's t with the Satterthwaite df of the class parts; t interval",
        names=(a, b),
        paired=True,
        counts=counts,
        df=df,
        details={"variance": var, "variance_positives": var_pos, "standard_error": sd},
    )


def _paired_curve(
    is_pos, a, b, columns, spec, how, n, rng, prior, level, alternative, rope, counts, tail
) -> ComparisonResult:
    sa, sb = columns[a], columns[b]
    curves = [ScoreCurve.from_scores(is_pos, s, pos_label=True) for s in (sa, sb)]
    q = spec.quantity
    pi = curves[0].prevalence
    est = np.array([_estimate(c, q) for c in curves])
    va, vb = paired_curve_draws(is_pos, sa, sb, q, how, n, rng, prior)
    est = spec.to_ops(est, pi)
    va, vb = spec.to_ops(va, pi), spec.to_ops(vb, pi)
    return _from_draws(
        float(est[0]),
        float(est[1]),
        va,
        vb,
        method=how,
        spec=spec,
        names=(a, b),
        paired=True,
        counts=counts,
        level=level,
        alternative=alternative,
        rope=rope,
        tail=tail,
    )


def _paired_confusion(
    is_pos, a, b, columns, spec, how, n, rng, prior, level, alternative, rope, counts
) -> ComparisonResult:
    pa, pb = columns[a], columns[b]
    metric = spec.quantity
    cms = [
        ConfusionMatrix(
            tp=int(np.sum(p & is_pos)),
            fp=int(np.sum(p & ~is_pos)),
            fn=int(np.sum(~p & is_pos)),
            tn=int(np.sum(~p & ~is_pos)),
        )
        for p in (pa, pb)
    ]
    pi = cms[0].prevalence
    with np.errstate(divide="ignore", invalid="ignore"):
        est = np.array([float(metric(pi, cm.alpha, cm.beta)) for cm in cms])
        aa, ba, ab, bb = paired_confusion_draws(is_pos, pa, pb, how, n, rng, prior)
        va, vb = np.asarray(metric(pi, aa, ba), float), np.asarray(metric(pi, ab, bb), float)
    est = spec.to_ops(est, pi)
    va, vb = spec.to_ops(va, pi), spec.to_ops(vb, pi)
    return _from_draws(
        float(est[0]),
        float(est[1]),
        va,
        vb,
        method=how,
        spec=spec,
        names=(a, b),
        paired=True,
        counts=counts,
        level=level,
        alternative=alternative,
        rope=rope,
    )


def compare_test_sets(
    test_sets: Any,
    *,
    metric: Any = "roc_auc",
    ops: bool = False,
    method: str = "auto",
    alternative: str = "two-sided",
    confidence_level: float = 0.95,
    n_resamples: int = 2000,
    rope: Any = None,
    reference: Any = None,
    at: dict[str, float] | None = None,
    rule: str | None = None,
    prior: Any = "jeffreys",
    adjust: str = "holm",
    pos_label: Any = None,
    rng: Any = None,
    **params: Any,
) -> ComparisonResult | ComparisonTable:
    """Compare one quantity (or its OPS) between independent test sets (unpaired): two
    months of monitoring, two sites.

    Parameters
    ----------
    test_sets : dict {name: (y_true, y_score or y_pred)}
        Two or more test sets. For a curve quantity (an area such as ``"roc_auc"``, or
        a metric ``at`` an operating point) the second array holds scores; for a
        confusion-matrix metric (``"f1"``, ...) predicted labels.
    metric, ops, alternative, confidence_level, n_resamples, rope, reference, at, rule,
    prior, adjust, pos_label, rng, **params
        As in :func:`compare`.
    method : {"auto", "delong", "delong-t", "bootstrap", "dirichlet"}
        ``"auto"``: for the ROC AUC ``"delong-t"``, DeLong's unpaired statistic on t with
        the Satterthwaite df of the four class parts (``"delong"``: pROC's df over the
        rows), and below 10 rows in a class of either set each set's Dirichlet
        posterior; the stratified bootstrap of each set for another curve quantity or an
        OPS of one; the Dirichlet posterior of each set's confusion matrix for a
        confusion-matrix metric and its OPS.

    Returns
    -------
    ComparisonResult or ComparisonTable

    Notes
    -----
    The test sets may have different prevalences. A metric such as F1 depends on the
    prevalence, so its difference between such sets mixes a change of the classifier
    with the change of prevalence; the OPS (``ops=True``) ranks each value against the
    reference at its own set's prevalence, which removes that part
    (docs/method.md#comparisons).

    Examples
    --------
    >>> jan = ([0, 0, 1, 1, 0, 1, 0, 0], [0, 1, 1, 1, 0, 1, 0, 0])
    >>> feb = ([0, 1, 0, 0, 0, 1, 0, 0, 0, 0], [0, 1, 0, 1, 0, 0, 0, 0, 0, 1])
    >>> r = compare_test_sets({"jan": jan, "feb": feb}, metric="f1", ops=True, rng=0)
    >>> r.paired, r.quantity
    (False, 'OPS of F1 score')
    """
    if not isinstance(test_sets, Mapping):
        raise TypeError(
            "`test_sets` must be a dict {name: (y_true, y_score or y_pred)}; got "
            f"{describe(test_sets)}."
        )
    if len(test_sets) < 2:
        raise ValueError(f"`test_sets` must hold at least 2 test sets; got {len(test_sets)}.")
    alternative, level, n, rope_pair = _check_common(
        alternative, confidence_level, n_resamples, rope, prior
    )
    check_choice("adjust", adjust, ("holm", "bonferroni"))
    generator = check_rng(rng)
    try:
        kind = "curve" if at is not None else ("confusion" if _is_metric(metric) else "curve")
    except TypeError:
        kind = "curve"
    spec = _Spec(metric, kind, ops, reference, at, rule, params)
    how = _method(method, spec, paired=False)
    sides: dict[str, Any] = {}
    for name, value in test_sets.items():
        if not isinstance(value, tuple | list) or len(value) != 2:
            raise TypeError(
                f"`test_sets[{name!r}]` must be a pair (y_true, y_score or y_pred); got "
                f"{describe(value)}."
            )
        try:
            if kind == "curve":
                sides[str(name)] = ScoreCurve.from_scores(value[0], value[1], pos_label=pos_label)
            else:
                sides[str(name)] = ConfusionMatrix.from_predictions(
                    value[0], value[1], pos_label=pos_label
                )
        except (ValueError, TypeError) as exc:
            raise type(exc)(f"test set {name!r}: {exc}") from None
        side = sides[str(name)]
        if not 0 < _positives(side) < side.n:
            raise ValueError(
                f"test set {name!r}: `y_true` must contain both classes; got only one."
            )
    smaller = min(min(_positives(v), v.n - _positives(v)) for v in sides.values())
    if method == "auto" and how == "delong-t" and smaller < SMALL_DELONG:
        how = "dirichlet"
    _warn_small(int(smaller), how, kind, paired=False)
    results = []
    for a, b in combinations(list(sides), 2):
        sa, sb = sides[a], sides[b]
        if how in ("delong", "delong-t"):
            results.append(
                delong_unpaired(
                    sa,
                    sb,
                    alternative=alternative,
                    confidence_level=level,
                    names=(a, b),
                    distribution="proc" if how == "delong" else "t",
                )
            )
            continue
        vals, draws = [], []
        for s in (sa, sb):
            if kind == "curve":
                est = np.array([_estimate(s, spec.quantity)])
                v = unpaired_curve_draws(s, spec.quantity, how, n, generator, prior)
            else:
                q = spec.quantity
                with np.errstate(divide="ignore", invalid="ignore"):
                    est = np.array([float(q(s.prevalence, s.alpha, s.beta))])
                    al, be = unpaired_confusion_draws(s, how, n, generator, prior)
                    v = np.asarray(q(s.prevalence, al, be), float)
            vals.append(float(spec.to_ops(est, s.prevalence)[0]))
            draws.append(spec.to_ops(v, s.prevalence))
        counts = {
            "rows_a": int(sa.n),
            "positive_a": int(_positives(sa)),
            "rows_b": int(sb.n),
            "positive_b": int(_positives(sb)),
        }
        results.append(
            _from_draws(
                vals[0],
                vals[1],
                draws[0],
                draws[1],
                method=how,
                spec=spec,
                names=(a, b),
                paired=False,
                counts=counts,
                level=level,
                alternative=alternative,
                rope=rope_pair,
            )
        )
    if len(results) == 1:
        return results[0]
    return ComparisonTable(tuple(results), adjust)


def _is_metric(metric: Any) -> bool:
    """A registered confusion-matrix metric (else a curve quantity such as an area)."""
    if not isinstance(metric, str):
        return not isinstance(metric, CurveArea)
    try:
        resolve_metric(metric)
    except (ValueError, KeyError):
        return False
    return True


def _positives(side: Any) -> float:
    return float(side.n_positive if isinstance(side, ScoreCurve) else side.positives)
