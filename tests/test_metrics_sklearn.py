"""Every built-in metric against scikit-learn, on hypothesis-generated confusion matrices.

The reference is ``sklearn.metrics`` (version installed in the test environment),
called on label vectors built from the four counts. Where sklearn has no function for
a metric, the metric is checked against its textbook definition written with sklearn's
own quantities (e.g. G-mean = sqrt(recall * specificity) from two ``recall_score``
calls). Tolerance 1e-12 (absolute): these are closed forms.

0/0 conventions. opsstats returns NaN with an ``UndefinedMetricWarning`` wherever the
count definition of a metric is 0/0 (``UNDEFINED_WHEN`` below states each condition
independently). Where sklearn can be asked for NaN (``zero_division=np.nan``,
``replace_undefined_by=np.nan``) both must be NaN; where sklearn substitutes a number
the test says which number sklearn returns and checks that we return NaN and warn.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm

from opsstats import ConfusionMatrix, UndefinedMetricWarning
from opsstats.metrics import available_metrics, get_metric

TOL = 1e-12
FBETAS = (0.1, 0.5, 1.0, 2.0, 3.7)

# ------------------------------------------------------------------ count definitions
# When each metric's count definition is 0/0 (an independent statement of the
# registry's ``undefined`` field). Arguments: tp, fp, fn, tn.


def _no_pos(tp, fp, fn, tn):
    return tp + fn == 0


def _no_neg(tp, fp, fn, tn):
    return fp + tn == 0


def _a_class_absent(tp, fp, fn, tn):
    return tp + fn == 0 or fp + tn == 0


UNDEFINED_WHEN = {
    "recall": _no_pos,
    "fnr": _no_pos,
    "specificity": _no_neg,
    "fpr": _no_neg,
    "precision": lambda tp, fp, fn, tn: tp + fp == 0,
    "fdr": lambda tp, fp, fn, tn: tp + fp == 0,
    "npv": lambda tp, fp, fn, tn: tn + fn == 0,
    "false_omission_rate": lambda tp, fp, fn, tn: tn + fn == 0,
    "accuracy": lambda *c: False,
    "error_rate": lambda *c: False,
    "balanced_accuracy": _a_class_absent,
    "informedness": _a_class_absent,
    "g_mean": _a_class_absent,
    "markedness": lambda tp, fp, fn, tn: tp + fp == 0 or tn + fn == 0,
    "f1": lambda tp, fp, fn, tn: tp + fp + fn == 0,
    "fbeta": lambda tp, fp, fn, tn: tp + fp + fn == 0,
    "jaccard": lambda tp, fp, fn, tn: tp + fp + fn == 0,
    # MCC: one of the four margins is empty
    "mcc": lambda tp, fp, fn, tn: (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn) == 0,
    # kappa: chance agreement 1, i.e. everything in one cell on the diagonal
    "cohen_kappa": lambda tp, fp, fn, tn: fp + fn + tn == 0 or tp + fp + fn == 0,
    "fowlkes_mallows": lambda tp, fp, fn, tn: tp + fp == 0 or tp + fn == 0,
    # TP TN / (FP FN): 0/0 only when both products vanish (x/0 with x > 0 is +inf)
    "diagnostic_odds_ratio": lambda tp, fp, fn, tn: tp * tn == 0 and fp * fn == 0,
    # TPR / FPR and FNR / TNR: a class absent, or both rates 0
    "lr_plus": lambda tp, fp, fn, tn: _a_class_absent(tp, fp, fn, tn) or tp + fp == 0,
    "lr_minus": lambda tp, fp, fn, tn: _a_class_absent(tp, fp, fn, tn) or fn + tn == 0,
    # PPV / prevalence
    "lift": lambda tp, fp, fn, tn: tp + fp == 0 or tp + fn == 0,
    # sqrt(FPR) / (sqrt(TPR) + sqrt(FPR))
    "prevalence_threshold": lambda tp, fp, fn, tn: _a_class_absent(tp, fp, fn, tn) or tp + fp == 0,
}

# --------------------------------------------------------------------- building data

# Counts of 0..50 (zero cells are common) and, now and then, large counts up to 1e6.
_cell = st.one_of(st.integers(0, 50), st.integers(0, 50), st.integers(0, 10**6))
_counts = st.tuples(_cell, _cell, _cell, _cell)  # (tp, fp, fn, tn)

# Up to this many rows the label vectors are built row by row; above it the same
# vectors are passed in compressed form, one row per cell with the count as
# ``sample_weight`` (sklearn sums weights into its confusion matrix; integer sums
# below 2**53 are exact), which keeps 4e6-row examples fast.
_MAX_EXPANDED = 2_000


def labels_from_counts(tp, fp, fn, tn, *, expand=None):
    """(y_true, y_pred, sample_weight) with these counts; labels 1 = positive, 0 = negative."""
    counts = np.array([tp, fp, fn, tn])
    yt = np.array([1, 0, 1, 0])
    yp = np.array([1, 1, 0, 0])
    if expand is None:
        expand = counts.sum() <= _MAX_EXPANDED
    if expand:
        return np.repeat(yt, counts), np.repeat(yp, counts), None
    keep = counts > 0  # a zero-weight row would still make its label "present"
    return yt[keep], yp[keep], counts[keep].astype(float)


def sklearn_values(yt, yp, w):
    """sklearn's value for each of our metrics (fbeta keyed by beta)."""
    kw = {"sample_weight": w}
    nan = np.nan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # sklearn's own undefined-metric warnings
        recall = skm.recall_score(yt, yp, pos_label=1, zero_division=nan, **kw)
        spec = skm.recall_score(yt, yp, pos_label=0, zero_division=nan, **kw)
        prec = skm.precision_score(yt, yp, pos_label=1, zero_division=nan, **kw)
        npv = skm.precision_score(yt, yp, pos_label=0, zero_division=nan, **kw)
        # rows normalized: [[TNR, FPR], [FNR, TPR]]; columns normalized:
        # [[NPV, FDR], [FOR, PPV]]. sklearn turns a 0/0 row or column into 0.
        by_true = skm.confusion_matrix(yt, yp, labels=[0, 1], normalize="true", **kw)
        by_pred = skm.confusion_matrix(yt, yp, labels=[0, 1], normalize="pred", **kw)
        lr_plus, lr_minus = skm.class_likelihood_ratios(
            yt, yp, labels=[0, 1], replace_undefined_by=nan, **kw
        )
        out = {
            "recall": recall,
            "specificity": spec,
            "precision": prec,
            "npv": npv,
            "fpr": by_true[0, 1],
            "fnr": by_true[1, 0],
            "fdr": by_pred[0, 1],
            "false_omission_rate": by_pred[1, 0],
            "accuracy": skm.accuracy_score(yt, yp, **kw),
            "error_rate": skm.zero_one_loss(yt, yp, **kw),
            "balanced_accuracy": skm.balanced_accuracy_score(yt, yp, **kw),
            "informedness": skm.balanced_accuracy_score(yt, yp, adjusted=True, **kw),
            "f1": skm.f1_score(yt, yp, pos_label=1, zero_division=nan, **kw),
            # jaccard_score accepts zero_division only in {0, 1, "warn"}: pass 0
            "jaccard": skm.jaccard_score(yt, yp, pos_label=1, zero_division=0, **kw),
            "mcc": skm.matthews_corrcoef(yt, yp, **kw),
            "cohen_kappa": skm.cohen_kappa_score(yt, yp, replace_undefined_by=nan, **kw),
            "lr_plus": lr_plus,
            "lr_minus": lr_minus,
        }
        # Not in sklearn as functions: their definitions from sklearn's quantities.
        # (sklearn.metrics.fowlkes_mallows_score is the pair-counting index for
        # clusterings, a different quantity: TP there counts pairs of samples.)
        counts = skm.confusion_matrix(yt, yp, labels=[0, 1], **kw)
        prevalence = counts[1].sum() / counts.sum()
        recall, spec, prec, npv = map(np.float64, (recall, spec, prec, npv))
        # FPR straight from the normalized matrix (1 - specificity would lose digits
        # when FP << TN), NaN without negatives (where sklearn's row is 0)
        fpr = np.float64(by_true[0, 1]) if counts[0].sum() > 0 else np.float64(nan)
        with np.errstate(divide="ignore", invalid="ignore"):
            out.update(
                {
                    "g_mean": np.sqrt(recall * spec),
                    "fowlkes_mallows": np.sqrt(prec * recall),
                    "markedness": prec + npv - 1,
                    "lift": prec / prevalence,
                    "prevalence_threshold": np.sqrt(fpr) / (np.sqrt(recall) + np.sqrt(fpr)),
                    # DOR = LR+ / LR- (Glas et al. 2003, doi:10.1016/S0895-4356(03)00177-X)
                    "diagnostic_odds_ratio": np.float64(lr_plus) / np.float64(lr_minus),
                }
            )
        for beta in FBETAS:
            out[("fbeta", beta)] = skm.fbeta_score(
                yt, yp, beta=beta, pos_label=1, zero_division=nan, **kw
            )
    return {k: float(v) for k, v in out.items()}


def ours(cm: ConfusionMatrix, name: str, **params) -> tuple[float, bool]:
    """Our value and whether an UndefinedMetricWarning was issued."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = cm.metric(name, **params)
    undefined = [w for w in caught if issubclass(w.category, UndefinedMetricWarning)]
    others = [w for w in caught if not issubclass(w.category, UndefinedMetricWarning)]
    assert not others, [str(w.message) for w in others]
    if undefined:
        text = str(undefined[0].message)
        # the warning names the metric and carries the counts
        assert "undefined" in text and repr(cm) in text
    return value, bool(undefined)


def _same(a: float, b: float, *, relative: bool = False) -> bool:
    """Both NaN, equal infinities, or within TOL (times max(1, |b|) if ``relative``)."""
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= TOL * (max(1.0, abs(b)) if relative else 1.0)


# What sklearn returns where the count definition is 0/0 and sklearn cannot be asked
# for NaN; ``None``: sklearn returns NaN (we asked it to).
def _sklearn_convention(name, tp, fp, fn, tn, sk):
    if name == "mcc":
        return 0.0  # matthews_corrcoef returns 0.0 when a margin is empty
    if name in ("fpr", "fnr", "fdr", "false_omission_rate"):
        return 0.0  # confusion_matrix(normalize=...) replaces 0/0 by 0
    if name == "jaccard":
        return 0.0  # zero_division=0 (NaN is not accepted by jaccard_score)
    if name == "balanced_accuracy" and tp + fn + fp + tn > 0:
        # sklearn averages the recalls of the classes present in y_true (with a
        # warning), i.e. returns the recall of the one class present
        return tn / (tn + fp) if tp + fn == 0 else tp / (tp + fn)
    if name == "informedness":
        return sk  # "adjusted" with chance 1/(number of classes present) = 1: -inf or NaN
    return None


def check_against_sklearn(tp, fp, fn, tn, expand=None):
    cm = ConfusionMatrix(tp=tp, fp=fp, fn=fn, tn=tn)
    sk = sklearn_values(*labels_from_counts(tp, fp, fn, tn, expand=expand))
    checked = set()
    for key, sk_value in sk.items():
        name, params = (key[0], {"beta": key[1]}) if isinstance(key, tuple) else (key, {})
        value, warned = ours(cm, name, **params)
        checked.add(name)
        undefined = UNDEFINED_WHEN[name](tp, fp, fn, tn)
        where = f"{name}{params or ''} at tp={tp}, fp={fp}, fn={fn}, tn={tn}"
        # NaN exactly where the count definition is 0/0, and then a warning
        assert math.isnan(value) == undefined, (where, value)
        assert warned == undefined, where
        if undefined:
            convention = _sklearn_convention(name, tp, fp, fn, tn, sk_value)
            if convention is None:
                assert math.isnan(sk_value), (where, sk_value)
            else:
                assert _same(sk_value, convention), (where, sk_value, convention)
        elif name in ("lr_plus", "lr_minus", "diagnostic_odds_ratio") and math.isinf(value):
            # x/0 with x > 0: we return +inf (the limit; no warning). sklearn's
            # class_likelihood_ratios returns NaN (its ``replace_undefined_by``) when
            # FP = 0 (LR+) or TN = 0 (LR-), even with a positive numerator.
            assert value == math.inf, where
            if name == "lr_plus":
                assert fp == 0 and tp > 0 and math.isnan(sk_value), (where, sk_value)
            elif name == "lr_minus":
                assert tn == 0 and fn > 0 and math.isnan(sk_value), (where, sk_value)
            else:
                assert fp * fn == 0 and tp * tn > 0, where
        elif name == "diagnostic_odds_ratio" and not (math.isfinite(sk_value)):
            # LR+ or LR- is NaN/0 in sklearn's convention; check the count definition
            assert value == pytest.approx(tp * tn / (fp * fn), rel=1e-12, abs=TOL), where
        else:
            # Unbounded metrics (LR+, LR-, DOR, lift) reach 1e6 and more here: for
            # them 1e-12 is relative (an absolute 1e-12 on 286 would ask for 2 ulp).
            relative = get_metric(name).range[1] == math.inf
            assert _same(value, sk_value, relative=relative), (where, value, sk_value)
    return checked


def test_every_builtin_metric_is_compared():
    covered = set(UNDEFINED_WHEN)
    checked = check_against_sklearn(5, 3, 2, 7)
    assert checked == covered
    missing = set(available_metrics()) - covered
    assert not missing, f"add a scikit-learn comparison for {sorted(missing)}"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_counts)
def test_metrics_agree_with_sklearn(counts):
    tp, fp, fn, tn = counts
    assume(tp + fn > 0 and fp + tn > 0)  # both classes present
    check_against_sklearn(tp, fp, fn, tn)


@pytest.mark.parametrize(
    "counts",
    [
        (1, 0, 0, 1),  # perfect
        (0, 1, 1, 0),  # always wrong
        (3, 0, 2, 5),  # no false positives: LR+ = DOR = inf
        (0, 0, 4, 6),  # no predicted positives: precision, MCC, ... 0/0
        (4, 6, 0, 0),  # no predicted negatives
        (5, 5, 5, 5),  # random: MCC = kappa = informedness = 0
        (1, 1, 758_244, 2),  # extreme ratios between cells
        (1, 0, 0, 1_000_000),  # chance agreement close to 1 (kappa)
        (1_000_000, 1, 0, 1),
    ],
)
def test_metrics_agree_with_sklearn_fixed_cases(counts):
    check_against_sklearn(*counts)


def test_large_counts_as_real_label_vectors():
    # The compressed (sample_weight) form against genuine label vectors of 150,000
    # rows: same sklearn numbers, same agreement.
    counts = (60_000, 3, 40_000, 50_017)
    expanded = sklearn_values(*labels_from_counts(*counts, expand=True))
    compressed = sklearn_values(*labels_from_counts(*counts, expand=False))
    for key in expanded:
        assert _same(expanded[key], compressed[key]), key
    check_against_sklearn(*counts, expand=True)


# ------------------------------------------------------------------ one class absent

_absent = st.one_of(
    # no actual positives (prevalence 0)
    st.tuples(st.just(0), st.integers(0, 60), st.just(0), st.integers(0, 60)),
    # no actual negatives (prevalence 1)
    st.tuples(st.integers(0, 60), st.just(0), st.integers(0, 60), st.just(0)),
).filter(lambda c: sum(c) > 0)


@settings(max_examples=100, deadline=None)
@given(_absent)
def test_one_class_absent(counts):
    tp, fp, fn, tn = counts
    cm = ConfusionMatrix(tp=tp, fp=fp, fn=fn, tn=tn)
    assert cm.prevalence in (0.0, 1.0)
    # the metrics that need the absent class are NaN with a warning, and agree with
    # sklearn where sklearn can return NaN (check_against_sklearn documents the rest)
    check_against_sklearn(tp, fp, fn, tn)
    yt, yp, _ = labels_from_counts(tp, fp, fn, tn)
    # those that do not need it keep their count value and agree with sklearn
    acc, warned = ours(cm, "accuracy")
    assert not warned and acc == pytest.approx((tp + tn) / (tp + fp + fn + tn), abs=TOL)
    assert acc == pytest.approx(skm.accuracy_score(yt, yp), abs=TOL)
    prec, warned = ours(cm, "precision")
    if tp + fp > 0:
        assert not warned and prec == pytest.approx(tp / (tp + fp), abs=TOL)
        assert prec == pytest.approx(skm.precision_score(yt, yp, zero_division=np.nan), abs=TOL)
    else:
        assert warned and math.isnan(prec)
    if cm.prevalence == 0:
        assert math.isnan(cm.beta)
        for name in ("recall", "fnr", "balanced_accuracy", "mcc", "g_mean", "lr_plus"):
            value, warned = ours(cm, name)
            assert math.isnan(value) and warned, name
        if fp + tn > 0:  # the negative class is present
            spec, warned = ours(cm, "specificity")
            assert not warned and spec == pytest.approx(tn / (fp + tn), abs=TOL)
    else:
        assert math.isnan(cm.alpha)
        for name in ("specificity", "fpr", "balanced_accuracy", "mcc", "g_mean", "lr_minus"):
            value, warned = ours(cm, name)
            assert math.isnan(value) and warned, name
        rec, warned = ours(cm, "recall")
        assert not warned and rec == pytest.approx(tp / (tp + fn), abs=TOL)


def test_metrics_series_warns_once_listing_the_undefined():
    cm = ConfusionMatrix(tp=0, fp=4, fn=0, tn=6)
    with pytest.warns(UndefinedMetricWarning, match=r"recall.*mcc") as record:
        values = cm.metrics()
    assert len([w for w in record if w.category is UndefinedMetricWarning]) == 1
    assert math.isnan(values["recall"]) and values["specificity"] == pytest.approx(0.6)
    assert values["accuracy"] == pytest.approx(0.6) and values["precision"] == 0.0


# ------------------------------------------------------------------ from_predictions

_labels01 = st.lists(st.tuples(st.integers(0, 1), st.integers(0, 1)), min_size=1, max_size=60)


@settings(max_examples=100, deadline=None)
@given(_labels01, st.data())
def test_from_predictions_weighted_matches_sklearn(pairs, data):
    yt = np.array([p[0] for p in pairs])
    yp = np.array([p[1] for p in pairs])
    w = np.array(
        data.draw(
            st.lists(
                st.floats(0, 10, allow_nan=False, allow_infinity=False),
                min_size=len(pairs),
                max_size=len(pairs),
            )
        )
    )
    assume(w.sum() > 0)
    cm = ConfusionMatrix.from_predictions(yt, yp, sample_weight=w)
    tn, fp, fn, tp = skm.confusion_matrix(yt, yp, labels=[0, 1], sample_weight=w).ravel()
    for ours_, theirs in zip((cm.tp, cm.fp, cm.fn, cm.tn), (tp, fp, fn, tn), strict=True):
        assert ours_ == pytest.approx(theirs, rel=1e-12, abs=1e-12 * w.sum())
    # unweighted: integer counts, exactly sklearn's
    cm1 = ConfusionMatrix.from_predictions(yt, yp)
    tn, fp, fn, tp = skm.confusion_matrix(yt, yp, labels=[0, 1]).ravel()
    assert (cm1.tp, cm1.fp, cm1.fn, cm1.tn) == (tp, fp, fn, tn)
    assert all(isinstance(v, int) for v in cm1.as_dict().values())


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["spam", "ham"]), st.sampled_from(["spam", "ham"])),
        min_size=1,
        max_size=60,
    ),
    st.sampled_from(["spam", "ham"]),
)
def test_from_predictions_string_labels_match_sklearn(pairs, pos):
    yt = [p[0] for p in pairs]
    yp = [p[1] for p in pairs]
    assume(pos in yt or pos in yp)  # pos_label must be one of the labels present
    neg = "ham" if pos == "spam" else "spam"
    cm = ConfusionMatrix.from_predictions(yt, yp, pos_label=pos)
    tn, fp, fn, tp = skm.confusion_matrix(yt, yp, labels=[neg, pos]).ravel()
    assert (cm.tp, cm.fp, cm.fn, cm.tn) == (tp, fp, fn, tn)
    # and the metrics follow sklearn with the same pos_label
    value, _ = ours(cm, "precision")
    assert _same(value, float(skm.precision_score(yt, yp, pos_label=pos, zero_division=np.nan)))
    value, _ = ours(cm, "recall")
    assert _same(value, float(skm.recall_score(yt, yp, pos_label=pos, zero_division=np.nan)))


def test_from_predictions_fixed_weighted_example():
    y_true = ["pos", "neg", "pos", "pos", "neg", "neg"]
    y_pred = ["pos", "pos", "neg", "pos", "neg", "neg"]
    w = [0.5, 2.0, 1.25, 1.0, 3.0, 0.25]
    cm = ConfusionMatrix.from_predictions(y_true, y_pred, pos_label="pos", sample_weight=w)
    # tp = 0.5 + 1.0, fp = 2.0, fn = 1.25, tn = 3.0 + 0.25
    assert cm == ConfusionMatrix(tp=1.5, fp=2.0, fn=1.25, tn=3.25)
    assert isinstance(cm.fn, float)
    tn, fp, fn, tp = skm.confusion_matrix(
        y_true, y_pred, labels=["neg", "pos"], sample_weight=w
    ).ravel()
    assert (cm.tp, cm.fp, cm.fn, cm.tn) == (tp, fp, fn, tn)
    assert cm.metric("f1") == pytest.approx(
        skm.f1_score(y_true, y_pred, pos_label="pos", sample_weight=w), abs=TOL
    )
