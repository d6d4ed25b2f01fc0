"""Metrics of a K-class confusion matrix: Gorodkin's R_K (the multi-class Matthews
correlation coefficient) and Cohen's kappa, unweighted or with linear or quadratic
disagreement weights (docs/method.md#vocabulary).

These are not functions of (prevalence, alpha, beta), so they live beside the binary
registry rather than in it; for K = 2 both equal the registry's MCC and kappa.

With C the K x K matrix of counts (rows true class, columns predicted), s = sum C,
c = trace C, t_k and p_k the true and predicted totals of class k:

* R_K = (c s - sum_k p_k t_k) / sqrt((s^2 - sum_k p_k^2) (s^2 - sum_k t_k^2))
  (Gorodkin 2004), 0 where a factor of the denominator is 0 (as scikit-learn).
* kappa = 1 - sum_ij w_ij C_ij / sum_ij w_ij E_ij with E = t p^T / s the counts expected
  under independence and w_ij = 1 - [i = j] (unweighted), ``abs(i - j)`` (linear) or
  (i - j)^2 (quadratic) for classes in the order of ``labels`` (Cohen 1960, 1968).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._labels import check_label_kinds
from .._validation import check_1d, check_choice, check_same_length, check_sample_weight, describe

__all__ = ["KAPPA_WEIGHTS", "class_confusion", "class_index", "cohen_kappa", "multiclass_mcc"]

#: Accepted ``weights`` of Cohen's kappa (None: unweighted).
KAPPA_WEIGHTS = ("linear", "quadratic")


def class_confusion(
    y_true: Any, y_pred: Any, *, labels: Any = None, sample_weight: Any = None
) -> tuple[np.ndarray, np.ndarray]:
    """The K x K confusion matrix (rows true, columns predicted) and its classes (sorted
    union of both label arrays unless ``labels`` is given)."""
    t = check_1d("y_true", y_true)
    p = check_1d("y_pred", y_pred)
    n = check_same_length(y_true=t, y_pred=p)
    w = check_sample_weight(sample_weight, n)
    check_label_kinds([("y_true", t), ("y_pred", p)])  # '1' and 1 are different classes
    if labels is None:
        classes = np.unique(np.concatenate((t, p)))
    else:
        classes = check_1d("labels", labels)
        if np.unique(classes).size != classes.size:
            raise ValueError(f"`labels` must not repeat a class; got {describe(labels)}.")
        known = set(classes.tolist())
        for name, arr in (("y_true", t), ("y_pred", p)):
            stray = [v for v in arr.tolist() if v not in known]
            if stray:
                raise ValueError(f"`{name}` holds the class {stray[0]!r}, which `labels` lacks.")
    ti, pi = class_index(t, classes), class_index(p, classes)
    K = classes.size
    C = np.bincount(ti * K + pi, weights=w, minlength=K * K).reshape(K, K).astype(float)
    return C, classes


def class_index(values: np.ndarray, classes: np.ndarray) -> np.ndarray:
    """The position of each value in ``classes`` (every value is one of them): a
    binary search over the sorted classes, or a dictionary for mixed object labels."""
    if values.dtype.kind != "O" and classes.dtype.kind != "O":
        order = np.argsort(classes, kind="stable")
        return order[np.searchsorted(classes[order], values)]
    index = {c: k for k, c in enumerate(classes.tolist())}
    return np.array([index[v] for v in values.tolist()], dtype=np.intp)


def multiclass_mcc(
    y_true: Any, y_pred: Any, *, labels: Any = None, sample_weight: Any = None
) -> float:
    """Gorodkin's R_K, the Matthews correlation coefficient of K classes.

    Examples
    --------
    >>> multiclass_mcc([0, 1, 2, 2, 1, 0], [0, 2, 2, 2, 1, 1])  # sklearn matthews_corrcoef
    0.5222329678670935
    """
    C, _ = class_confusion(y_true, y_pred, labels=labels, sample_weight=sample_weight)
    s, c = C.sum(), np.trace(C)
    t, p = C.sum(axis=1), C.sum(axis=0)
    cov_tp = c * s - p @ t
    cov_pp = s * s - p @ p
    cov_tt = s * s - t @ t
    if cov_pp * cov_tt == 0:
        return 0.0
    return float(cov_tp / np.sqrt(cov_pp * cov_tt))


def cohen_kappa(
    y_true: Any,
    y_pred: Any,
    *,
    weights: str | None = None,
    labels: Any = None,
    sample_weight: Any = None,
) -> float:
    """Cohen's kappa, unweighted or with ``weights="linear"`` or ``"quadratic"``
    disagreement weights over the classes in the order of ``labels``.

    Returns NaN, as scikit-learn, when the expected disagreement is 0 (every row in
    one class, for both raters).

    Examples
    --------
    >>> round(cohen_kappa([0, 1, 2, 2, 1, 0], [0, 2, 2, 2, 1, 1]), 6)
    0.5
    >>> round(cohen_kappa([0, 1, 2, 2, 1, 0], [0, 2, 2, 2, 1, 1], weights="quadratic"), 6)  # sklearn
    0.75
    """
    if weights is not None:
        weights = check_choice("weights", weights, KAPPA_WEIGHTS)
    C, classes = class_confusion(y_true, y_pred, labels=labels, sample_weight=sample_weight)
    K = classes.size
    E = np.outer(C.sum(axis=1), C.sum(axis=0)) / C.sum()
    i, j = np.indices((K, K))
    if weights is None:
        W = (i != j).astype(float)
    elif weights == "linear":
        W = np.abs(i - j).astype(float)
    else:
        W = ((i - j) ** 2).astype(float)
    expected = float((W * E).sum())
    if expected == 0:
        return float("nan")
    return float(1.0 - (W * C).sum() / expected)
