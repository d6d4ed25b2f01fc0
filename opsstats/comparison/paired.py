"""Comparing classifiers on the same rows (paired): :func:`compare`, for every curve
quantity, every confusion-matrix metric and the OPS of each, by DeLong's test, McNemar's,
Venkatraman's, the paired jackknife or paired draws (docs/method.md#comparisons).
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations
from typing import TYPE_CHECKING, Any

import numpy as np

from .._lazy import lazy_module
from .._validation import check_choice
from ..confusion import ConfusionMatrix
from ..curves import ScoreCurve
from ..results import ConfidenceInterval
from ..uncertainty._draws import check_rng
from ..uncertainty.curve._options import _estimate
from ._inputs import _check_common, paired_predictions, paired_scores, thresholded_predictions
from .delong import _check_classes, _class_covariances, _paired_result, _t_p, _warn_zero
from .draw_tests import _from_draws
from .draws import _Generators, paired_confusion_draws, shared_curve_draws
from .jackknife import paired_jackknife
from .mcnemar import mcnemar_test
from .quantity import (
    SMALL_PAIRED_DRAWS_AUTO,
    _flag_error,
    _plans,
    _small_default,
    _Spec,
    _warn_small,
    check_threshold_use,
    default_metric,
    is_confusion_metric,
    needs_labels,
)
from .result import ComparisonResult, ComparisonTable, one_or_table
from .venkatraman import venkatraman_test

if TYPE_CHECKING:
    from scipy import stats
else:
    stats = lazy_module("scipy.stats")

__all__ = ["compare"]


def compare(
    y_true: Any,
    y_score: Any = None,
    *,
    y_pred: Any = None,
    threshold: Any = None,
    metric: Any = None,
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
        as ``"roc_auc"``, ``"pr_auc"``, or a metric read at an operating point ``at``),
        or, with ``threshold``, for a confusion-matrix metric.
    y_pred : dict {name: array-like of shape (n,)} or list of arrays, optional
        Predicted labels of two or more classifiers: for a confusion-matrix metric
        (``metric`` a registered name such as ``"f1"``). Give ``y_score`` or ``y_pred``.
    threshold : float, optional
        With ``y_score`` and a confusion-matrix metric: predict positive where
        ``score >= threshold``, for every classifier (as :func:`opsstats.evaluate`;
        a finite number, compared exactly with integer scores).
    metric : str, optional
        Default ``"roc_auc"`` with scores, ``"f1"`` with predicted labels (``y_pred``, or
        ``y_score`` with ``threshold``).
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

    Notes
    -----
    With three or more classifiers a curve quantity's bootstrap resamples or posterior
    draws are made once for all of them, each classifier's quantity (or OPS) is computed
    once per draw, and every pair's difference is read from those. Each pair's draws
    have the law of a comparison of the two alone; the pairs are dependent, which the
    Holm and Bonferroni adjustments allow (docs/method.md#comparisons).

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

    Scores with a threshold give the predicted labels (``score >= threshold``):

    >>> r = compare(y, {"A": [.1, .4, .8, .7, .3, .9, .6, .5, .8, .2],
    ...                 "B": [.2, .5, .6, .4, .1, .7, .3, .6, .9, .3]},
    ...             threshold=0.5, metric="f1", rng=1)
    >>> r.quantity, round(r.estimate_a, 4), round(r.estimate_b, 4)
    ('F1 score at threshold 0.5', 0.9091, 0.6)
    """
    (result,) = _compare(
        y_true,
        y_score,
        y_pred,
        (ops,),
        threshold=threshold,
        metric=metric,
        method=method,
        alternative=alternative,
        confidence_level=confidence_level,
        n_resamples=n_resamples,
        rope=rope,
        references=(reference,),
        at=at,
        rule=rule,
        prior=prior,
        adjust=adjust,
        pos_label=pos_label,
        rng=rng,
        params=params,
    )
    if isinstance(result, Exception):  # not reached: with one `ops`, its error is raised
        raise result
    return result


#: The methods whose test is read from draws (bootstrap resamples or posterior draws).
_DRAWS = ("bootstrap", "dirichlet")


def _compare(
    y_true: Any,
    y_score: Any,
    y_pred: Any,
    flags: tuple[bool, ...],
    *,
    threshold: Any = None,
    metric: Any,
    method: str,
    alternative: str,
    confidence_level: float,
    n_resamples: int,
    rope: Any,
    references: tuple[Any, ...],
    at: Any,
    rule: Any,
    prior: Any,
    adjust: str,
    pos_label: Any,
    rng: Any,
    params: dict[str, Any],
) -> list[ComparisonResult | ComparisonTable | Exception]:
    """:func:`compare` of the quantity (``ops`` False) and of its OPS (True), one result
    per entry of ``flags``, in their order, from one set of draws wherever the methods
    agree: the OPS draws are the value draws mapped through the reference, as in two
    calls of :func:`compare` with generators of the same seed.

    ``references``: the reference of each flag's OPS (None for the values).

    A flag whose quantity, method or computation is refused gets its ``ValueError`` or
    ``TypeError`` in its place, as its own call would have raised it (with a single
    flag it is raised). The generators: :class:`.draws._Generators`.

    ``threshold``: with scores and a confusion-matrix metric, the predicted labels are
    ``score >= threshold``; ``metric`` None is the default of :func:`compare`."""
    if (y_score is None) == (y_pred is None):
        raise TypeError(
            "give exactly one of `y_score` (scores, for a curve quantity, or with "
            "`threshold` for a confusion-matrix metric) and `y_pred` (predicted labels, for "
            "a confusion-matrix metric); got " + ("neither." if y_score is None else "both.")
        )
    if y_pred is not None and threshold is not None:
        raise ValueError("give `y_pred`, or `y_score` with `threshold`, not both.")
    if metric is None:
        metric = default_metric(labelled=y_pred is not None or threshold is not None)
    alternative, level, n, rope_pair = _check_common(
        alternative, confidence_level, n_resamples, rope, prior
    )
    check_choice("adjust", adjust, ("holm", "bonferroni"))
    generators = _Generators(check_rng(rng), several=len(flags) > 1)
    from_scores = y_score is not None and is_confusion_metric(metric, at)
    if from_scores and threshold is None:
        raise needs_labels(metric, "`y_pred`")
    threshold = check_threshold_use(threshold, from_scores, metric)
    kind = "curve" if y_score is not None and not from_scores else "confusion"
    plans = _plans(
        flags, metric, kind, references, at, rule, params, method, paired=True, threshold=threshold
    )
    try:
        if kind == "curve":
            is_pos, columns = paired_scores(y_true, y_score, pos_label)
        elif from_scores:
            is_pos, columns = thresholded_predictions(y_true, y_score, threshold, pos_label)
        else:
            is_pos, columns = paired_predictions(y_true, y_pred, pos_label)
    except (ValueError, TypeError) as exc:
        return [plan if isinstance(plan, Exception) else _flag_error(exc, flags) for plan in plans]
    m, n_neg = int(is_pos.sum()), int((~is_pos).sum())
    counts = {"rows": m + n_neg, "positive": m, "negative": n_neg}
    tail = method == "auto"  # the auto bootstrap's test is its interval's (tail) p-value
    small = min(m, n_neg) < SMALL_PAIRED_DRAWS_AUTO
    pairs = list(combinations(list(columns), 2))
    drawn: dict[str, Any] = {}  # the draws of each method, shared by the flags
    out: list[ComparisonResult | ComparisonTable | Exception] = []
    for plan in plans:
        if isinstance(plan, Exception):
            out.append(plan)
            continue
        spec, how = plan
        if method == "auto" and how == "bootstrap" and small and spec.is_area and not spec.ops:
            how = "jackknife-t"
        _warn_small(min(m, n_neg), how, kind, paired=True, tail=tail)
        try:
            if how in _DRAWS and kind == "curve":
                if how not in drawn:
                    drawn[how] = _curve_draws(
                        is_pos, columns, spec.quantity, how, n, generators(how), prior
                    )
                results = _curve_pairs(
                    drawn[how],
                    list(columns),
                    spec,
                    how,
                    level,
                    alternative,
                    rope_pair,
                    counts,
                    tail,
                )
            elif how in _DRAWS:
                if how not in drawn:  # per pair: a shared joint table would change the prior
                    drawn[how] = [
                        paired_confusion_draws(
                            is_pos, columns[a], columns[b], how, n, generators(how), prior
                        )
                        for a, b in pairs
                    ]
                results = [
                    _paired_confusion(
                        is_pos, a, b, columns, spec, how, d, level, alternative, rope_pair, counts
                    )
                    for (a, b), d in zip(pairs, drawn[how], strict=True)
                ]
            else:
                results = [
                    _pair_test(
                        how, is_pos, a, b, columns, spec, level, alternative, counts, n, generators
                    )
                    for a, b in pairs
                ]
        except (ValueError, TypeError) as exc:
            out.append(_flag_error(exc, flags))
            continue
        if method == "auto" and how == "jackknife-t":  # chosen for a small class
            results = _small_default(results, min(m, n_neg), SMALL_PAIRED_DRAWS_AUTO)
        out.append(one_or_table(results, adjust))
    return out


def _pair_test(
    how: str,
    is_pos: np.ndarray,
    a: str,
    b: str,
    columns: dict[str, np.ndarray],
    spec: _Spec,
    level: float,
    alternative: str,
    counts: dict[str, int],
    n: int,
    generators: _Generators,
) -> ComparisonResult:
    """One pair by a method that does not read its test from draws: DeLong's, on the
    normal or on t, Venkatraman's permutation test, McNemar's, the jackknife-t."""
    m, n_neg = counts["positive"], counts["negative"]
    if how in ("delong", "delong-t"):
        _check_classes(m, n_neg)
        aucs, c10, c01 = _class_covariances(is_pos, [columns[a], columns[b]])
        parts = (c10, c01) if how == "delong-t" else None
        return _paired_result(aucs, c10 + c01, (a, b), alternative, level, m, n_neg, parts)
    if how == "venkatraman":
        if alternative != "two-sided":
            raise ValueError(
                f"Venkatraman's test is two-sided only; got alternative={alternative!r}."
            )
        return venkatraman_test(
            is_pos,
            {a: columns[a], b: columns[b]},
            n_resamples=n,
            pos_label=True,
            rng=generators(how),
        )
    if how == "mcnemar":
        pred = {a: np.where(columns[a], 1, 0), b: np.where(columns[b], 1, 0)}
        r = mcnemar_test(
            is_pos.astype(int), pred, alternative=alternative, confidence_level=level, pos_label=1
        )
        r = _negate(r) if spec.quantity.name == "error_rate" else r
        if spec.threshold is not None:  # the labels came from scores: say at which threshold
            r = replace(r, quantity=f"{r.quantity} at threshold {spec.threshold:g}")
        return r
    _check_classes(m, n_neg)  # "jackknife-t"
    return _paired_jackknife(is_pos, a, b, columns, spec, level, alternative, counts)


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


def _curve_draws(
    is_pos: np.ndarray,
    columns: dict[str, np.ndarray],
    quantity: Any,
    how: str,
    n: int,
    rng: np.random.Generator,
    prior: Any,
) -> tuple[float, np.ndarray, np.ndarray]:
    """The prevalence, each classifier's observed quantity (k,) and its draws (k, n):
    one set of draws for all k classifiers (:func:`.draws.shared_curve_draws`)."""
    scores = list(columns.values())
    curves = [ScoreCurve.from_scores(is_pos, s, pos_label=True) for s in scores]
    est = np.array([_estimate(c, quantity) for c in curves])
    draws = shared_curve_draws(is_pos, scores, quantity, how, n, rng, prior, curves=curves)
    return curves[0].prevalence, est, draws


def _curve_pairs(
    drawn: tuple[float, np.ndarray, np.ndarray],
    names: list[str],
    spec: _Spec,
    how: str,
    level: float,
    alternative: str,
    rope: Any,
    counts: dict[str, int],
    tail: bool,
) -> list[ComparisonResult]:
    """Every pair's difference from the shared draws, each classifier's draws mapped to
    the compared scale (its OPS, with ``spec.ops``) once."""
    pi, est, draws = drawn
    est = spec.to_ops(est, pi)
    mapped = [spec.to_ops(d, pi) for d in draws]
    return [
        _from_draws(
            float(est[i]),
            float(est[j]),
            mapped[i],
            mapped[j],
            method=how,
            spec=spec,
            names=(names[i], names[j]),
            paired=True,
            counts=counts,
            level=level,
            alternative=alternative,
            rope=rope,
            tail=tail,
            classifiers=len(names),
        )
        for i, j in combinations(range(len(names)), 2)
    ]


def _paired_confusion(
    is_pos, a, b, columns, spec, how, draws, level, alternative, rope, counts
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
        aa, ba, ab, bb = draws
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
