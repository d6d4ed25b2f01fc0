"""scikit-learn scorers of OPS and of the registry's metrics.

A scorer built here is an ordinary ``sklearn.metrics.make_scorer`` scorer: scikit-learn
chooses the response (``predict`` for confusion-matrix metrics, ``predict_proba`` or
``decision_function`` for curve quantities, the positive class's column for a binary
problem) and passes it with the fold's true labels to :func:`ops_score` or
:func:`metric_score`, so each fold is scored at its own prevalence.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from sklearn.metrics import make_scorer

from opsstats._labels import check_label_kinds
from opsstats._validation import (
    check_array,
    check_choice,
    check_same_length,
    check_threshold,
    describe,
    threshold_for,
)
from opsstats.confusion import ConfusionMatrix
from opsstats.curves._geometry import parse_area
from opsstats.curves.score_curve import ScoreCurve
from opsstats.grouped import MetricSpec, parse_metrics
from opsstats.metrics import get_metric
from opsstats.ops import _check_reference

__all__ = ["make_metric_scorer", "make_ops_scorer", "metric_score", "ops_score"]

AVERAGES = ("binary", "macro", "weighted")
_CURVE_RESPONSE = ("predict_proba", "decision_function")


def _spec(metric: Any) -> MetricSpec:
    specs = parse_metrics([metric], "metric")
    if len(specs) != 1:
        raise ValueError(f"`metric` must name one metric; got {describe(metric)}.")
    return specs[0]


def _one_vs_rest(y_true: np.ndarray, y_pred: np.ndarray) -> tuple[list[Any], np.ndarray]:
    """The classes (sorted) and each class's share of the true labels."""
    classes = sorted(set(np.unique(y_true).tolist()) | set(np.unique(y_pred).tolist()))
    support = np.array([np.mean(y_true == c) for c in classes])
    return classes, support


def _binary_value(
    spec: MetricSpec,
    y_true: Any,
    y_response: Any,
    *,
    ops: bool,
    pos_label: Any,
    reference: Any,
    sample_weight: Any,
) -> float:
    if spec.kind == "curve":
        curve = ScoreCurve.from_scores(
            y_true, y_response, pos_label=pos_label, sample_weight=sample_weight
        )
        if ops:
            return float(curve.ops(spec.name, at=spec.at, reference=reference).estimate)
        if spec.at is not None:
            return float(curve.value_at(spec.name, spec.at))
        area = parse_area(spec.name)
        read = curve.nauc if area.normalized else curve.auc
        return float(read(area.curve, area.rule))
    cm = ConfusionMatrix.from_predictions(
        y_true, y_response, pos_label=pos_label, sample_weight=sample_weight
    )
    if ops:
        if not 0 < cm.prevalence < 1:
            raise ValueError(
                "`y_true` must hold both classes for an OPS (it ranks the metric at the "
                f"fold's prevalence, which must be strictly between 0 and 1); got "
                f"prevalence {cm.prevalence:g}."
            )
        return float(cm.ops(spec.name, reference=reference).estimate)
    return float(cm.metric(spec.name))


def _score(
    y_true: Any,
    y_response: Any,
    *,
    metric: Any,
    ops: bool,
    reference: Any = None,
    pos_label: Any = None,
    average: str = "binary",
    threshold: float | None = None,
    sample_weight: Any = None,
) -> float:
    spec = _spec(metric)
    average = check_choice("average", average, AVERAGES)
    threshold = None if threshold is None else check_threshold(threshold)
    y_true = check_array("y_true", y_true)
    check_label_kinds([("y_true", y_true)])
    y_response = check_array("y_response", y_response, numeric=threshold is not None)
    check_same_length(y_true=y_true, y_response=y_response)
    if threshold is not None and spec.kind == "point":
        y_response = y_response >= threshold_for(y_response.dtype, threshold)
        if pos_label is None:
            labels = np.unique(y_true)
            pos_label = labels[-1] if labels.size == 2 else pos_label
        y_true = y_true == pos_label if pos_label is not None else y_true
        pos_label = True
    options = {"ops": ops, "reference": reference, "sample_weight": sample_weight}
    if average == "binary":
        return _binary_value(spec, y_true, y_response, pos_label=pos_label, **options)
    if spec.kind == "curve" and y_true.ndim != 2:
        raise ValueError(
            f"`average` {average!r} applies to multi-class predictions and to multi-label "
            f"estimators; {spec.label!r} is a curve quantity of one class's scores."
        )
    if y_true.ndim == 2:  # multi-label: each label's column against its own truth
        if y_response.shape != y_true.shape:
            raise ValueError(
                f"`y_true` and the predictions of a multi-label estimator must have one "
                f"shape; got {y_true.shape} and {y_response.shape}."
            )
        support = y_true.mean(axis=0) if average == "weighted" else np.ones(y_true.shape[1])
        values = np.array(
            [
                _binary_value(spec, y_true[:, j], y_response[:, j], pos_label=pos_label, **options)
                for j in range(y_true.shape[1])
            ]
        )
    else:
        classes, support = _one_vs_rest(y_true, y_response)
        values = np.array(
            [
                _binary_value(spec, y_true == c, y_response == c, pos_label=True, **options)
                for c in classes
            ]
        )
    if average == "macro":
        return float(np.mean(values))
    return float(np.sum(values * support) / np.sum(support))


def ops_score(y_true: Any, y_response: Any, *, metric: Any, **kwargs: Any) -> float:
    """The OPS of ``metric`` on one fold: a scikit-learn score function.

    Parameters
    ----------
    y_true : array-like
        True labels of the fold.
    y_response : array-like
        Predicted labels (confusion-matrix metrics), or scores of the positive class
        (curve quantities; with ``threshold``, scores turned into predicted labels).
    metric : str or (str, dict)
        A registered metric (``"f1"``, ``"mcc"``, ...), a curve area (``"roc_auc"``,
        ``"pr_auc"``, ...) or a metric at an operating point
        (``"precision@recall=0.9"``).
    reference : optional
        The reference distribution (default: ``Uniform()`` for confusion-matrix metrics,
        the DBT for curve quantities).
    pos_label : label, optional
        The positive class, as in scikit-learn.
    average : {"binary", "macro", "weighted"}
        For multi-class predicted labels: the OPS of each class against the rest,
        averaged (``"weighted"``: by the classes' shares of the true labels). For a
        multi-label estimator (``y_true`` of shape (n, labels)): the OPS of each label's
        column, averaged (``"weighted"``: by the labels' prevalences); curve quantities
        then take each label's column of scores.
    threshold : float, optional
        Predict positive where the score is at least ``threshold`` (confusion-matrix
        metrics from scores).
    sample_weight : array-like, optional

    Returns
    -------
    float
        The OPS at the fold's own prevalence.

    Notes
    -----
    Saturation: a good model beats nearly every reference classifier, so its OPS is
    close to 1 (0.99 and above), and models differ in the third or fourth decimal
    (mean OPS(F1) over a grid of ``C``: 0.9927, 0.9983, 0.9985, 0.9978). Compare
    candidates by ``1 - OPS`` (the share of the reference that beats each) on a log
    scale, or print four decimals or more: the package's printed results do
    (:func:`opsstats._summary.unit_decimals`), scikit-learn's ``cv_results_`` rounded
    to 3 decimals does not. A difference smaller than the folds' spread of the OPS does
    not choose between models; there the raw metric, or the OPS against a stronger
    reference (vignette 05), may.

    Examples
    --------
    >>> ops_score([0, 1, 1, 0, 1], [0, 1, 0, 0, 1], metric="f1")  # doctest: +ELLIPSIS
    0.8...
    """
    return _score(y_true, y_response, metric=metric, ops=True, **kwargs)


def metric_score(y_true: Any, y_response: Any, *, metric: Any, **kwargs: Any) -> float:
    """The value of ``metric`` on one fold (same arguments as :func:`ops_score`, without
    ``reference``).

    Examples
    --------
    >>> metric_score([0, 1, 1, 0, 1], [0, 1, 0, 0, 1], metric="npv")
    0.6666666666666666
    """
    return _score(y_true, y_response, metric=metric, ops=False, **kwargs)


def _response(spec: MetricSpec, threshold: float | None, response_method: Any) -> Any:
    if response_method is not None:
        return response_method
    if spec.kind == "curve" or threshold is not None:
        return _CURVE_RESPONSE
    return "predict"


def make_ops_scorer(
    metric: Any,
    *,
    reference: Any = None,
    pos_label: Any = None,
    average: str = "binary",
    threshold: float | None = None,
    response_method: Any = None,
) -> Any:
    """A scikit-learn scorer of the OPS of ``metric``, each fold at its own prevalence.

    Parameters
    ----------
    metric, reference, pos_label, average, threshold
        As in :func:`ops_score`.
    response_method : str or tuple of str, optional
        What scikit-learn asks the estimator for: by default ``"predict"`` for a
        confusion-matrix metric, and ``("predict_proba", "decision_function")`` for a
        curve quantity or a metric with ``threshold``.

    Returns
    -------
    scorer
        A ``sklearn.metrics.make_scorer`` scorer (greater is better: an OPS is a
        percentile rank of performance).

    Notes
    -----
    Saturation: a good model beats nearly every reference classifier, so its OPS is
    close to 1 (0.99 and above), and models differ in the third or fourth decimal
    (mean OPS(F1) over a grid of ``C``: 0.9927, 0.9983, 0.9985, 0.9978). Compare
    candidates by ``1 - OPS`` (the share of the reference that beats each) on a log
    scale, or print four decimals or more: the package's printed results do
    (:func:`opsstats._summary.unit_decimals`), scikit-learn's ``cv_results_`` rounded
    to 3 decimals does not. A difference smaller than the folds' spread of the OPS does
    not choose between models; there the raw metric, or the OPS against a stronger
    reference (vignette 05), may.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import cross_val_score
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> scores = cross_val_score(LogisticRegression(max_iter=5000), X, y, cv=3,
    ...                          scoring=make_ops_scorer("mcc"))
    >>> bool(((scores > 0.9) & (scores <= 1)).all())
    True
    """
    spec = _spec(metric)
    check_choice("average", average, AVERAGES)
    threshold = None if threshold is None else check_threshold(threshold)
    if reference is not None:
        kind = spec.kind
        _check_reference(
            reference, kind, "a curve quantity" if kind == "curve" else "a confusion-matrix metric"
        )
    return make_scorer(
        ops_score,
        response_method=_response(spec, threshold, response_method),
        metric=metric,
        reference=reference,
        pos_label=pos_label,
        average=average,
        threshold=threshold,
    )


def make_metric_scorer(
    metric: Any,
    *,
    pos_label: Any = None,
    average: str = "binary",
    threshold: float | None = None,
    response_method: Any = None,
) -> Any:
    """A scikit-learn scorer of a registered metric's value (NPV, specificity,
    markedness, informedness, ...; any metric of the registry or curve quantity).

    ``greater_is_better`` follows the metric's direction in the registry, so that a
    lower-is-better metric (FPR, FNR) is negated as scikit-learn expects.

    Examples
    --------
    >>> scorer = make_metric_scorer("fpr")
    >>> scorer._sign
    -1
    """
    spec = _spec(metric)
    check_choice("average", average, AVERAGES)
    threshold = None if threshold is None else check_threshold(threshold)
    higher = True if spec.kind == "curve" else get_metric(spec.name).higher_is_better
    return make_scorer(
        metric_score,
        response_method=_response(spec, threshold, response_method),
        greater_is_better=higher,
        metric=metric,
        pos_label=pos_label,
        average=average,
        threshold=threshold,
    )
