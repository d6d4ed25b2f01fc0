"""Comparing one quantity between independent test sets (unpaired):
:func:`compare_test_sets`, for every curve quantity, every confusion-matrix metric and the
OPS of each, by DeLong's unpaired test, each set's own draws or, for two ROC curves,
Venkatraman's permutation test (docs/method.md#comparisons).
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from typing import Any

import numpy as np

from .._validation import check_choice, describe
from ..confusion import ConfusionMatrix
from ..curves import ScoreCurve
from ..uncertainty._draws import check_rng
from ..uncertainty.curve._options import _estimate
from ._inputs import _check_common
from .delong import delong_unpaired
from .draw_tests import _from_draws
from .draws import _Generators, unpaired_confusion_draws, unpaired_curve_draws
from .quantity import (
    SMALL_DELONG,
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
from .venkatraman import venkatraman_unpaired_test

__all__ = ["compare_test_sets"]


def compare_test_sets(
    test_sets: Any,
    *,
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
    """Compare one quantity (or its OPS) between independent test sets (unpaired): two
    months of monitoring, two sites.

    Parameters
    ----------
    test_sets : dict {name: (y_true, y_score or y_pred), or a curve or matrix}
        Two or more test sets. For a curve quantity (an area such as ``"roc_auc"``, or
        a metric ``at`` an operating point) the second array holds scores; for a
        confusion-matrix metric (``"f1"``, ...) predicted labels, or scores with
        ``threshold``. A test set may also be given as its :class:`~opsstats.ScoreCurve`
        (for a curve quantity, or a confusion-matrix metric with ``threshold``) or its
        :class:`~opsstats.ConfusionMatrix` (for a confusion-matrix metric), standardized
        ones (``at_prevalence``) included: those are drawn from their original rows
        with the prevalence fixed at the stated one, so that two test sets standardized
        to one prevalence differ only through their classifiers
        (docs/method.md#standardized-prevalence).
    threshold : float, optional
        With a confusion-matrix metric: the second arrays are scores, and each set's
        predicted labels are ``score >= threshold`` (as :func:`opsstats.evaluate`).
    metric : str, optional
        Default ``"f1"`` with ``threshold``, else ``"roc_auc"``.
    ops, alternative, confidence_level, n_resamples, rope, reference, at, rule, prior,
    adjust, pos_label, rng, **params
        As in :func:`compare`.
    method : {"auto", "delong", "delong-t", "bootstrap", "dirichlet", "venkatraman"}
        ``"auto"``: for the ROC AUC ``"delong-t"``, DeLong's unpaired statistic on t with
        the Satterthwaite df of the four class parts (``"delong"``: pROC's df over the
        rows), and below 10 rows in a class of either set each set's Dirichlet
        posterior; the stratified bootstrap of each set for another curve quantity or an
        OPS of one; the Dirichlet posterior of each set's confusion matrix for a
        confusion-matrix metric and its OPS. ``"venkatraman"``: Venkatraman's
        permutation test that the two sets' ROC curves are equal (pROC's
        ``roc.test(method="venkatraman", paired=FALSE)``;
        :func:`~opsstats.comparison.venkatraman_unpaired_test`), two-sided, no interval.

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

    Scores and a threshold, as :func:`opsstats.evaluate` takes them:

    >>> jan = ([0, 0, 1, 1, 0, 1, 0, 0], [.2, .6, .7, .9, .1, .8, .3, .4])
    >>> feb = ([0, 1, 0, 0, 0, 1, 0, 0, 0, 0], [.1, .7, .2, .6, .3, .4, .2, .1, .3, .5])
    >>> r = compare_test_sets({"jan": jan, "feb": feb}, threshold=0.5, ops=True, rng=0)
    >>> r.quantity
    'OPS of F1 score at threshold 0.5'
    """
    (result,) = _compare_test_sets(
        test_sets,
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


def _compare_test_sets(
    test_sets: Any,
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
    """:func:`compare_test_sets` of the quantity (``ops`` False) and of its OPS (True),
    one result per entry of ``flags``, as :func:`.paired._compare` does for
    :func:`compare`: each test set drawn once per method, for every pair it is in and
    for both flags (its OPS draws its value draws mapped through the reference).
    ``threshold`` and ``metric`` None: as in :func:`compare_test_sets`."""
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
    generators = _Generators(check_rng(rng), several=len(flags) > 1)
    if metric is None:
        metric = default_metric(labelled=threshold is not None)
    kind = "confusion" if is_confusion_metric(metric, at) else "curve"
    threshold = check_threshold_use(threshold, kind == "confusion", metric)
    plans = _plans(
        flags, metric, kind, references, at, rule, params, method, paired=False, threshold=threshold
    )
    specs = [plan[0] for plan in plans if not isinstance(plan, Exception)]
    if not specs:  # every flag refused: nothing to draw
        return [plan for plan in plans if isinstance(plan, Exception)]
    try:
        sides = {
            str(name): _side(name, value, kind, specs[0], pos_label)
            for name, value in test_sets.items()
        }
    except (ValueError, TypeError) as exc:
        return [plan if isinstance(plan, Exception) else _flag_error(exc, flags) for plan in plans]
    given = {str(name): value for name, value in test_sets.items()}
    smaller = min(min(_class_sizes(v)) for v in sides.values())
    drawn: dict[str, dict[str, tuple[np.ndarray, np.ndarray]]] = {}  # method -> set -> draws
    out: list[ComparisonResult | ComparisonTable | Exception] = []
    for plan in plans:
        if isinstance(plan, Exception):
            out.append(plan)
            continue
        spec, how = plan
        small = method == "auto" and how == "delong-t" and smaller < SMALL_DELONG
        if small:
            how = "dirichlet"
        _warn_small(int(smaller), how, kind, paired=False)
        results = []
        mapped: dict[str, tuple[float, np.ndarray]] = {}  # set -> (value, draws), compared
        try:
            if how == "venkatraman":
                _check_venkatraman(given, alternative)
            for a, b in combinations(list(sides), 2):
                sa, sb = sides[a], sides[b]
                if how == "venkatraman":
                    results.append(
                        venkatraman_unpaired_test(
                            {a: given[a], b: given[b]},
                            n_resamples=n,
                            pos_label=pos_label,
                            rng=generators(how),
                        )
                    )
                    continue
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
                known = drawn.setdefault(how, {})
                for name in (a, b):
                    s = sides[name]
                    if name not in known:  # each set drawn once, for every pair and flag
                        known[name] = _set_draws(s, spec.quantity, kind, how, n, generators, prior)
                    if name not in mapped:  # and mapped once to the compared scale
                        est, v = known[name]
                        value = float(spec.to_ops(est, s.prevalence)[0])
                        mapped[name] = value, spec.to_ops(v, s.prevalence)
                (val_a, draws_a), (val_b, draws_b) = mapped[a], mapped[b]
                counts = {
                    "rows_a": int(sa.n),
                    "positive_a": int(_class_sizes(sa)[0]),
                    "rows_b": int(sb.n),
                    "positive_b": int(_class_sizes(sb)[0]),
                }
                results.append(
                    _from_draws(
                        val_a,
                        val_b,
                        draws_a,
                        draws_b,
                        method=how,
                        spec=spec,
                        names=(a, b),
                        paired=False,
                        counts=counts,
                        level=level,
                        alternative=alternative,
                        rope=rope_pair,
                        chosen=method == "auto",
                    )
                )
        except (ValueError, TypeError) as exc:
            out.append(_flag_error(exc, flags))
            continue
        if small:  # the default chose each set's posterior for a small class
            results = _small_default(results, int(smaller), SMALL_DELONG)
        out.append(one_or_table(results, adjust))
    return out


def _check_venkatraman(given: dict[str, Any], alternative: str) -> None:
    """Refuse what Venkatraman's unpaired test cannot take: a test set given as a curve
    (its ranks need the rows) or a one-sided alternative."""
    for name, value in given.items():
        if not isinstance(value, tuple | list):  # ranks need the rows, not a curve
            raise TypeError(
                f"`test_sets[{name!r}]` must be a pair (y_true, y_score) for "
                "method='venkatraman' (the permutation test ranks the rows); got "
                f"{describe(value)}."
            )
    if alternative != "two-sided":
        raise ValueError(f"Venkatraman's test is two-sided only; got alternative={alternative!r}.")


def _set_draws(
    side: Any,
    quantity: Any,
    kind: str,
    how: str,
    n: int,
    generators: _Generators,
    prior: Any,
) -> tuple[np.ndarray, np.ndarray]:
    """One test set's observed quantity (an array of one) and its n draws."""
    if kind == "curve":
        est = np.array([_estimate(side, quantity)])
        return est, unpaired_curve_draws(side, quantity, how, n, generators(how), prior)
    with np.errstate(divide="ignore", invalid="ignore"):
        est = np.array([float(quantity(side.prevalence, side.alpha, side.beta))])
        al, be = unpaired_confusion_draws(side, how, n, generators(how), prior)
        return est, np.asarray(quantity(side.prevalence, al, be), float)


def _distinct(pair: Any) -> int:
    """The distinct values of a test set's two arrays together."""
    values: set[Any] = set()
    for array in pair:
        values.update(np.asarray(array).ravel().tolist())
    return len(values)


def _holds_scores(pair: Any) -> bool:
    """The second array holds numbers other than the two labels (scores, not predicted
    labels): more than two distinct values with the labels."""
    second = np.asarray(pair[1])
    return second.dtype.kind in "iuf" and _distinct(pair) > 2


def _side(name: Any, value: Any, kind: str, spec: _Spec, pos_label: Any) -> Any:
    """One test set as a curve (curve quantities) or a confusion matrix: given as one
    (standardized ones included; a curve read at ``threshold``), or counted from its pair
    (y_true, y_score or y_pred; scores at ``threshold``); both classes present."""
    threshold = spec.threshold
    given: type = ScoreCurve if kind == "curve" else ConfusionMatrix
    if isinstance(value, ConfusionMatrix) and threshold is not None:
        raise ValueError(
            f"`test_sets[{name!r}]` is a ConfusionMatrix, whose labels are already predicted: "
            "`threshold` applies to scores (pairs (y_true, y_score) or curves); drop it."
        )
    if isinstance(value, ScoreCurve) and kind == "confusion" and threshold is not None:
        value = value.confusion_matrix(threshold=threshold)
    if isinstance(value, ScoreCurve | ConfusionMatrix) and not isinstance(value, given):
        raise TypeError(
            f"`test_sets[{name!r}]` must be a {given.__name__} or a pair (y_true, "
            f"{'y_score' if kind == 'curve' else 'y_pred'}) for {spec.label}; got "
            f"{describe(value)}."
        )
    if isinstance(value, given):
        side = value
    elif not isinstance(value, tuple | list) or len(value) != 2:
        raise TypeError(
            f"`test_sets[{name!r}]` must be a pair (y_true, y_score or y_pred) or a "
            f"{given.__name__}; got {describe(value)}."
        )
    else:
        if kind == "confusion" and threshold is None and _holds_scores(value):
            raise needs_labels(
                spec.metric,
                "predicted labels as each test set's second array; test set "
                f"{describe(name)} holds scores ({_distinct(value)} distinct values with its "
                "labels)",
            )
        try:
            if kind == "curve" or threshold is not None:
                side = ScoreCurve.from_scores(value[0], value[1], pos_label=pos_label)
                if threshold is not None:
                    side = side.confusion_matrix(threshold=threshold)
            else:
                side = ConfusionMatrix.from_predictions(value[0], value[1], pos_label=pos_label)
        except (ValueError, TypeError) as exc:
            raise type(exc)(f"test set {name!r}: {exc}") from None
    if min(_class_sizes(side)) <= 0:
        raise ValueError(f"test set {name!r}: `y_true` must contain both classes; got only one.")
    return side


def _class_sizes(side: Any) -> tuple[float, float]:
    """The positives and negatives whose rows the draws come from: a standardized
    object's origin's (docs/method.md#standardized-prevalence)."""
    if isinstance(side, ScoreCurve):
        view = side._sampling_view()
        return float(view.n_positive), float(view.n_negative)
    source = side._sampling_view()[0]
    return float(source.positives), float(source.negatives)
