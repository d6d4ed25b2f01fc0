"""Comparing classifiers on the same rows (paired): :func:`compare`, for every curve
quantity, every confusion-matrix metric and the OPS of each, by DeLong's test, McNemar's,
Venkatraman's, the paired jackknife or paired draws (docs/method.md#comparisons).
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations
from typing import Any

import numpy as np
from scipy import stats

from .._validation import check_choice
from ..confusion import ConfusionMatrix
from ..curves import ScoreCurve
from ..results import ConfidenceInterval
from ..uncertainty._draws import check_rng
from ..uncertainty.curve._options import _estimate
from ._inputs import _check_common, paired_predictions, paired_scores, thresholded_predictions
from .delong import _check_classes, _class_covariances, _paired_result, _t_p, _warn_zero
from .draw_tests import _from_draws
from .draws import paired_confusion_draws, paired_curve_draws
from .jackknife import paired_jackknife
from .mcnemar import mcnemar_test
from .quantity import (
    SMALL_PAIRED_DRAWS_AUTO,
    _method,
    _Spec,
    _warn_small,
    check_threshold_use,
    default_metric,
    is_confusion_metric,
    needs_labels,
)
from .result import ComparisonResult, ComparisonTable
from .venkatraman import venkatraman_test

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
    generator = check_rng(rng)
    from_scores = y_score is not None and is_confusion_metric(metric, at)
    if from_scores and threshold is None:
        raise needs_labels(metric, "`y_pred`")
    threshold = check_threshold_use(threshold, from_scores, metric)
    kind = "curve" if y_score is not None and not from_scores else "confusion"
    spec = _Spec(metric, kind, ops, reference, at, rule, params, threshold)
    how = _method(method, spec, paired=True)
    if kind == "curve":
        is_pos, columns = paired_scores(y_true, y_score, pos_label)
    elif from_scores:
        is_pos, columns = thresholded_predictions(y_true, y_score, threshold, pos_label)
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
            if threshold is not None:  # the labels came from scores: say at which threshold
                r = replace(r, quantity=f"{r.quantity} at threshold {threshold:g}")
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
