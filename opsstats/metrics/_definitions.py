"""The built-in confusion-matrix metrics.

Each formula is written once, through the four cell fractions

    tp = pi (1 - beta),  fn = pi beta,  fp = (1 - pi) alpha,  tn = (1 - pi)(1 - alpha)

(counts divided by n), so that a metric's 0/0 cases are exactly those of its usual
count definition: with a class absent (pi = 0 or 1) the missing error rate is given
any finite placeholder by the caller, its two cells are exactly 0, and a metric that
needs that class comes out 0/0 = NaN while one that does not (accuracy, precision)
keeps its count value. References: Powers (2011), doi:10.48550/arXiv.2010.16061;
Chicco & Jurman (2020), doi:10.1186/s12864-019-6413-7; T. Xie, "Evaluation metrics for
classification" (notes, 2022); J. Li, "Area under the ROC Curve has the Most Consistent
Evaluation for Binary Classification" (Appendix A, Table 3: tests/test_paper_table3.py).

Each entry also says whether its OPS under a prevalence-free reference is the same at
every prevalence for fixed (alpha, beta) (``prevalence_invariant``: the metric orders the
(alpha, beta) plane alike at every prevalence; docs/method.md#prevalence-invariance) and
that it is monotone in the error rates (``monotone``, true of every one). The tests
check both on grids and random points (tests/test_prevalence_invariance.py,
tests/test_binned_curves.py).
"""

from __future__ import annotations

import numbers

import numpy as np

from .._validation import describe
from ._registry import Metric, register_metric


def _cells(p, a, b):
    """(tp, fp, fn, tn) as fractions of n."""
    return p * (1 - b), (1 - p) * a, p * b, (1 - p) * (1 - a)


def _tpr(p, a, b):
    tp, _fp, fn, _tn = _cells(p, a, b)
    return tp / (tp + fn)


def _tnr(p, a, b):
    _tp, fp, _fn, tn = _cells(p, a, b)
    return tn / (tn + fp)


def _fpr(p, a, b):
    _tp, fp, _fn, tn = _cells(p, a, b)
    return fp / (fp + tn)


def _fnr(p, a, b):
    tp, _fp, fn, _tn = _cells(p, a, b)
    return fn / (fn + tp)


def _ppv(p, a, b):
    tp, fp, _fn, _tn = _cells(p, a, b)
    return tp / (tp + fp)


def _npv(p, a, b):
    _tp, _fp, fn, tn = _cells(p, a, b)
    return tn / (tn + fn)


def _fdr(p, a, b):
    tp, fp, _fn, _tn = _cells(p, a, b)
    return fp / (tp + fp)


def _for(p, a, b):
    _tp, _fp, fn, tn = _cells(p, a, b)
    return fn / (fn + tn)


def _accuracy(p, a, b):
    tp, _fp, _fn, tn = _cells(p, a, b)
    return tp + tn


def _error_rate(p, a, b):
    _tp, fp, fn, _tn = _cells(p, a, b)
    return fp + fn


def _balanced_accuracy(p, a, b):
    return (_tpr(p, a, b) + _tnr(p, a, b)) / 2


def _informedness(p, a, b):
    return _tpr(p, a, b) + _tnr(p, a, b) - 1


def _markedness(p, a, b):
    return _ppv(p, a, b) + _npv(p, a, b) - 1


def _fbeta_weight(beta):
    """w = beta^2 / (1 + beta^2), the weight of FN (1 - w that of FP), and 1 - w, both
    without overflow or rounding to 0: for beta = 1e200 beta^2 is inf, but w is 1 and
    1 - w = 1 / (1 + beta^2) is 0, the limit (recall)."""
    beta = abs(float(beta))
    if beta >= 1.0:
        inv = (1.0 / beta) ** 2  # 0 for huge beta, exactly the limit
        return 1.0 / (1.0 + inv), inv / (1.0 + inv)
    b2 = beta * beta
    return b2 / (1.0 + b2), 1.0 / (1.0 + b2)


def _fbeta(p, a, b, beta=1.0):
    # (1 + b2) TP / ((1 + b2) TP + b2 FN + FP), divided through by 1 + b2: the weights
    # w = b2 / (1 + b2) and 1 - w stay in [0, 1] for every beta, so a huge beta gives
    # recall (not inf / inf = NaN, a false 0/0) and a tiny one precision; 0/0 only when
    # TP + FP + FN = 0, the registry's convention. F1 (w = 1/2) is unchanged.
    tp, fp, fn, _tn = _cells(p, a, b)
    w_fn, w_fp = _fbeta_weight(beta)
    return tp / (tp + w_fn * fn + w_fp * fp)


def _f1(p, a, b):
    return _fbeta(p, a, b, beta=1.0)


def _check_fbeta(beta=1.0):
    if isinstance(beta, bool) or not isinstance(beta, numbers.Real):
        raise TypeError(
            f"`beta` (the F-beta weight) must be a positive number; got {describe(beta)}."
        )
    if not (np.isfinite(beta) and beta > 0):
        raise ValueError(
            f"`beta` (the F-beta weight) must be a finite positive number; got {describe(beta)}."
        )


def _one_minus_sum(a, b):
    """1 - a - b to within one rounding of its exact value for the given a and b: the
    complement of the larger is exact when it is at least 1/2 (Sterbenz), and when
    a + b is near 1 the larger is (so the difference then is exact or rounded once);
    when both are below 1/2 there is no cancellation."""
    big, small = np.maximum(a, b), np.minimum(a, b)  # in the inputs' precision
    return (1 - big) - small


def _cross(p, a, b):
    """tp tn - fp fn = pi (1 - pi) (1 - alpha - beta), without subtracting the two
    nearly equal products (near 1e-12 of each other at counts near 1e6 and a metric
    near 0, where their difference kept only about seven digits)."""
    return p * (1 - p) * _one_minus_sum(a, b)


def _mcc(p, a, b):
    tp, fp, fn, tn = _cells(p, a, b)
    r = _cross(p, a, b) / np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
    # |MCC| <= 1 (it is a correlation), but at alpha = beta = 0 (or 1) the rounded
    # square root can give 1 + 2e-16: keep the value inside the declared range
    return np.clip(r, -1.0, 1.0)


def _cohen_kappa(p, a, b):
    # (p_o - p_e) / (1 - p_e) with p_o = tp + tn and p_e = (tp+fp)(tp+fn) + (tn+fn)(tn+fp),
    # rewritten without differences of nearly equal numbers (when p_o and p_e are both
    # near 1 those lose all but a few digits: 7 digits at tp=0, fp=fn=1, tn=38062):
    # p_o - p_e = 2 (tp tn - fp fn) and 1 - p_e = (tp+fp)(fp+tn) + (tp+fn)(fn+tn), the
    # first from pi (1 - pi) (1 - alpha - beta) (_cross). 0/0 exactly when p_e = 1
    # (everything in TP, or everything in TN).
    tp, fp, fn, tn = _cells(p, a, b)
    return 2 * _cross(p, a, b) / ((tp + fp) * (fp + tn) + (tp + fn) * (fn + tn))


def _g_mean(p, a, b):
    return np.sqrt(_tpr(p, a, b) * _tnr(p, a, b))


def _fowlkes_mallows(p, a, b):
    return np.sqrt(_ppv(p, a, b) * _tpr(p, a, b))


def _jaccard(p, a, b):
    tp, fp, fn, _tn = _cells(p, a, b)
    return tp / (tp + fp + fn)


def _dor(p, a, b):
    tp, fp, fn, tn = _cells(p, a, b)
    return (tp * tn) / (fp * fn)


def _lr_plus(p, a, b):
    return _tpr(p, a, b) / _fpr(p, a, b)


def _lr_minus(p, a, b):
    return _fnr(p, a, b) / _tnr(p, a, b)


def _lift(p, a, b):
    tp, _fp, fn, _tn = _cells(p, a, b)
    return _ppv(p, a, b) / (tp + fn)


def _prevalence_threshold(p, a, b):
    s_fpr = np.sqrt(_fpr(p, a, b))
    return s_fpr / (np.sqrt(_tpr(p, a, b)) + s_fpr)


_INF = float("inf")

_BUILTINS = [
    Metric(
        "recall",
        _tpr,
        "higher",
        (0, 1),
        ("tpr", "sensitivity", "hit_rate", "true_positive_rate"),
        "Recall (TPR)",
        "no actual positives (TP + FN = 0)",
        formula="TP / (TP + FN) = 1 - beta",
        prevalence_invariant=True,
        monotone=True,
    ),
    Metric(
        "specificity",
        _tnr,
        "higher",
        (0, 1),
        ("tnr", "selectivity", "true_negative_rate"),
        "Specificity (TNR)",
        "no actual negatives (TN + FP = 0)",
        formula="TN / (TN + FP) = 1 - alpha",
        prevalence_invariant=True,
        monotone=True,
    ),
    Metric(
        "fpr",
        _fpr,
        "lower",
        (0, 1),
        ("false_positive_rate", "fall_out", "type_i_error"),
        "False positive rate",
        "no actual negatives (TN + FP = 0)",
        formula="FP / (FP + TN) = alpha",
        prevalence_invariant=True,
        monotone=True,
    ),
    Metric(
        "fnr",
        _fnr,
        "lower",
        (0, 1),
        ("false_negative_rate", "miss_rate", "type_ii_error"),
        "False negative rate",
        "no actual positives (TP + FN = 0)",
        formula="FN / (FN + TP) = beta",
        prevalence_invariant=True,
        monotone=True,
    ),
    Metric(
        "precision",
        _ppv,
        "higher",
        (0, 1),
        ("ppv", "positive_predictive_value"),
        "Precision (PPV)",
        "no predicted positives (TP + FP = 0)",
        formula="TP / (TP + FP)",
        prevalence_invariant=True,
        monotone=True,
    ),
    Metric(
        "npv",
        _npv,
        "higher",
        (0, 1),
        ("negative_predictive_value",),
        "Negative predictive value",
        "no predicted negatives (TN + FN = 0)",
        formula="TN / (TN + FN)",
        prevalence_invariant=True,
        monotone=True,
    ),
    Metric(
        "fdr",
        _fdr,
        "lower",
        (0, 1),
        ("false_discovery_rate",),
        "False discovery rate",
        "no predicted positives (TP + FP = 0)",
        formula="FP / (TP + FP) = 1 - precision",
        prevalence_invariant=True,
        monotone=True,
    ),
    Metric(
        "false_omission_rate",
        _for,
        "lower",
        (0, 1),
        ("for",),
        "False omission rate",
        "no predicted negatives (TN + FN = 0)",
        formula="FN / (FN + TN) = 1 - NPV",
        prevalence_invariant=True,
        monotone=True,
    ),
    Metric(
        "accuracy",
        _accuracy,
        "higher",
        (0, 1),
        ("acc",),
        "Accuracy",
        "never (n > 0)",
        formula="(TP + TN) / n",
        prevalence_invariant=False,
        monotone=True,
    ),
    Metric(
        "error_rate",
        _error_rate,
        "lower",
        (0, 1),
        ("misclassification_rate",),
        "Error rate",
        "never (n > 0)",
        formula="(FP + FN) / n",
        prevalence_invariant=False,
        monotone=True,
    ),
    Metric(
        "balanced_accuracy",
        _balanced_accuracy,
        "higher",
        (0, 1),
        ("ba",),
        "Balanced accuracy",
        "a class is absent",
        formula="(TPR + TNR) / 2",
        prevalence_invariant=True,
        monotone=True,
    ),
    Metric(
        "informedness",
        _informedness,
        "higher",
        (-1, 1),
        ("youden_j", "bookmaker_informedness", "bm", "youden"),
        "Informedness (Youden's J)",
        "a class is absent",
        formula="TPR + TNR - 1 = 1 - alpha - beta",
        prevalence_invariant=True,
        monotone=True,
    ),
    Metric(
        "markedness",
        _markedness,
        "higher",
        (-1, 1),
        ("mk", "deltap"),
        "Markedness",
        "no predicted positives or no predicted negatives",
        formula="PPV + NPV - 1",
        prevalence_invariant=False,
        monotone=True,
    ),
    Metric(
        "f1",
        _f1,
        "higher",
        (0, 1),
        ("f1_score", "f_measure", "dice"),
        "F1 score",
        "no true positives, false positives or false negatives (TP + FP + FN = 0)",
        formula="2 TP / (2 TP + FP + FN)",
        prevalence_invariant=False,
        monotone=True,
    ),
    Metric(
        "fbeta",
        _fbeta,
        "higher",
        (0, 1),
        ("f_beta", "fbeta_score"),
        "F-beta score",
        "TP + FP + FN = 0",
        params={"beta": 1.0},
        param_check=_check_fbeta,
        formula="(1 + beta^2) TP / ((1 + beta^2) TP + beta^2 FN + FP)",
        prevalence_invariant=False,
        monotone=True,
    ),
    Metric(
        "mcc",
        _mcc,
        "higher",
        (-1, 1),
        ("matthews_corrcoef", "phi", "matthews"),
        "Matthews correlation coefficient",
        "a row or column of the confusion matrix is empty",
        formula="(TP TN - FP FN) / sqrt((TP+FP)(TP+FN)(TN+FP)(TN+FN))",
        prevalence_invariant=False,
        monotone=True,
    ),
    Metric(
        "cohen_kappa",
        _cohen_kappa,
        "higher",
        (-1, 1),
        ("kappa", "cohens_kappa"),
        "Cohen's kappa",
        "the chance agreement is 1 (one class in both truth and prediction)",
        formula="(p_o - p_e) / (1 - p_e)",
        prevalence_invariant=False,
        monotone=True,
    ),
    Metric(
        "g_mean",
        _g_mean,
        "higher",
        (0, 1),
        ("gmean", "geometric_mean"),
        "G-mean",
        "a class is absent",
        formula="sqrt(TPR TNR)",
        prevalence_invariant=True,
        monotone=True,
    ),
    Metric(
        "fowlkes_mallows",
        _fowlkes_mallows,
        "higher",
        (0, 1),
        ("fm", "fmi"),
        "Fowlkes-Mallows index",
        "no actual or no predicted positives",
        formula="sqrt(PPV TPR) = TP / sqrt((TP+FP)(TP+FN))",
        prevalence_invariant=False,
        monotone=True,
    ),
    Metric(
        "jaccard",
        _jaccard,
        "higher",
        (0, 1),
        ("threat_score", "csi", "iou", "critical_success_index"),
        "Jaccard index",
        "TP + FP + FN = 0",
        formula="TP / (TP + FP + FN)",
        prevalence_invariant=False,
        monotone=True,
    ),
    Metric(
        "diagnostic_odds_ratio",
        _dor,
        "higher",
        (0, _INF),
        ("dor",),
        "Diagnostic odds ratio",
        "TP TN = FP FN = 0 (infinite when only FP FN = 0)",
        formula="(TP TN) / (FP FN)",
        prevalence_invariant=True,
        monotone=True,
    ),
    Metric(
        "lr_plus",
        _lr_plus,
        "higher",
        (0, _INF),
        ("positive_likelihood_ratio", "plr"),
        "Positive likelihood ratio (LR+)",
        "a class is absent, or TPR = FPR = 0 (infinite when only FPR = 0)",
        formula="TPR / FPR",
        prevalence_invariant=True,
        monotone=True,
    ),
    Metric(
        "lr_minus",
        _lr_minus,
        "lower",
        (0, _INF),
        ("negative_likelihood_ratio", "nlr"),
        "Negative likelihood ratio (LR-)",
        "a class is absent, or FNR = TNR = 0 (infinite when only TNR = 0)",
        formula="FNR / TNR",
        prevalence_invariant=True,
        monotone=True,
    ),
    Metric(
        "lift",
        _lift,
        "higher",
        (0, _INF),
        (),
        "Lift",
        "no predicted positives or no actual positives",
        formula="PPV / prevalence",
        prevalence_invariant=True,
        monotone=True,
    ),
    Metric(
        "prevalence_threshold",
        _prevalence_threshold,
        "lower",
        (0, 1),
        ("pt",),
        "Prevalence threshold",
        "a class is absent, or TPR = FPR = 0",
        formula="sqrt(FPR) / (sqrt(TPR) + sqrt(FPR))",
        prevalence_invariant=True,
        monotone=True,
    ),
]

for _m in _BUILTINS:
    register_metric(_m)
