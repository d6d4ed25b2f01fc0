"""ConfusionMatrix: printing, summary, metrics(), equality and hashing, weighted counts."""

from __future__ import annotations

import copy
import math
import pickle
import re
import warnings

import numpy as np
import pandas as pd
import pytest

from opsstats import ConfusionMatrix, UndefinedMetricWarning
from opsstats.metrics import available_metrics, get_metric

# Table 3 of the AUC-consistency paper, GBM column (see test_paper_table3.py)
GBM = {"tp": 339, "fp": 164, "fn": 223, "tn": 517}


@pytest.fixture
def cm():
    return ConfusionMatrix(**GBM)


# ----------------------------------------------------------------------- repr


def test_repr(cm):
    assert repr(cm) == "ConfusionMatrix(tp=339, fp=164, fn=223, tn=517)"
    assert eval(repr(cm)) == cm


def test_repr_of_numpy_and_whole_float_counts():
    # numpy integers and whole floats are stored (and shown) as Python ints
    cm = ConfusionMatrix(tp=np.int64(3), fp=2.0, fn=np.float32(1.0), tn=np.uint8(4))
    assert repr(cm) == "ConfusionMatrix(tp=3, fp=2, fn=1, tn=4)"
    assert all(type(v) is int for v in cm.as_dict().values())
    assert cm.is_integer


def test_repr_of_weighted_counts():
    cm = ConfusionMatrix(tp=1.5, fp=2, fn=0.25, tn=3)
    assert repr(cm) == "ConfusionMatrix(tp=1.5, fp=2, fn=0.25, tn=3)"
    assert not cm.is_integer
    assert eval(repr(cm)) == cm


# ------------------------------------------------------------------ properties


def test_parametrization(cm):
    # Zhao et al. eq. 2: pi = (TP+FN)/n, alpha = FP/(FP+TN), beta = FN/(TP+FN)
    assert cm.n == 1243 and cm.positives == 562 and cm.negatives == 681
    assert cm.prevalence == 562 / 1243
    assert cm.alpha == 164 / 681
    assert cm.beta == 223 / 562
    assert cm.rates() == (562 / 1243, 164 / 681, 223 / 562)
    assert cm.as_dict() == GBM


def test_rates_with_a_class_absent():
    cm = ConfusionMatrix(tp=0, fp=4, fn=0, tn=6)
    assert cm.prevalence == 0.0 and math.isnan(cm.beta) and cm.alpha == 0.4
    # the error rate of the absent class gets the placeholder 0 (its cells are 0)
    assert cm.rates() == (0.0, 0.4, 0.0)


# --------------------------------------------------------------------- summary

SUMMARY = (
    "Confusion matrix (n = 1243, prevalence = 0.4521)\n"
    "================================================\n"
    "                                         value\n"
    "kind   quantity\n"
    "count  TP                                  339\n"
    "       FP                                  164\n"
    "       FN                                  223\n"
    "       TN                                  517\n"
    "       n                                  1243\n"
    "rate   prevalence                       0.4521\n"
    "       alpha (FPR)                      0.2408\n"
    "       beta (FNR)                       0.3968\n"
    "metric Recall (TPR)                     0.6032\n"
    "       Specificity (TNR)                0.7592\n"
    "       False positive rate              0.2408\n"
    "       False negative rate              0.3968\n"
    "       Precision (PPV)                  0.6740\n"
    "       Negative predictive value        0.6986\n"
    "       False discovery rate             0.3260\n"
    "       False omission rate              0.3014\n"
    "       Accuracy                         0.6887\n"
    "       Error rate                       0.3113\n"
    "       Balanced accuracy                0.6812\n"
    "       Informedness (Youden's J)        0.3624\n"
    "       Markedness                       0.3726\n"
    "       F1 score                         0.6366\n"
    "       F-beta score (beta=1)            0.6366\n"
    "       Matthews correlation coefficient 0.3675\n"
    "       Cohen's kappa                    0.3657\n"
    "       G-mean                           0.6767\n"
    "       Fowlkes-Mallows index            0.6376\n"
    "       Jaccard index                    0.4669\n"
    "       Diagnostic odds ratio            4.7923\n"
    "       Positive likelihood ratio (LR+)  2.5048\n"
    "       Negative likelihood ratio (LR-)  0.5227\n"
    "       Lift                             1.4906\n"
    "       Prevalence threshold             0.3872\n"
    "------------------------------------------------\n"
    # notes are wrapped at the terminal's width (80 columns in the tests), continued
    # lines indented by 4
    "Metrics are point values from the counts; see cm.interval() and cm.ops() for\n"
    "    intervals and outperformance scores."
)


def test_summary_text_snapshot(cm):
    # Values cross-checked with Table 3 of the paper (3 decimals) and by hand:
    # LR+ = (339/562)/(164/681) = 2.5048, lift = (339/503)/(562/1243) = 1.4906.
    summary = cm.summary()
    assert str(summary) == SUMMARY
    assert repr(summary) == SUMMARY
    assert summary.as_text() == SUMMARY


def test_summary_digits(cm):
    text = cm.summary(digits=2).as_text()
    assert re.search(r"\n       Matthews correlation coefficient +0\.37\n", text)
    assert re.search(r"\n       Diagnostic odds ratio +4\.79\n", text)
    assert re.search(r"\ncount  TP +339\n", text)  # counts stay whole
    # MCC = 0.36745715...
    assert re.search(
        r"Matthews correlation coefficient +0\.367457\n", cm.summary().as_text(digits=6)
    )


def test_summary_to_frame(cm):
    frame = cm.summary().to_frame()
    assert isinstance(frame, pd.DataFrame)
    assert list(frame.columns) == ["value"]
    assert frame.index.names == ["kind", "quantity"]
    assert len(frame) == 8 + len(available_metrics())
    # full precision, not the printed rounding
    values = frame["value"]
    assert values[("count", "TP")] == 339 and values[("count", "n")] == 1243
    assert values[("rate", "prevalence")] == cm.prevalence
    assert values[("rate", "alpha (FPR)")] == cm.alpha
    assert values[("rate", "beta (FNR)")] == cm.beta
    metrics = frame.loc["metric", "value"]
    labels = [get_metric(name).bind().label for name in available_metrics()]
    assert list(metrics.index) == labels
    for name, label in zip(available_metrics(), labels, strict=True):
        assert metrics[label] == cm.metric(name), name
    # a copy: changing it does not change the summary
    frame.iloc[0, 0] = -1
    assert cm.summary().to_frame().iloc[0, 0] == 339


def test_summary_html(cm):
    html = cm.summary()._repr_html_()
    assert html.startswith("<div>") and html.endswith("</div>")
    assert "<strong>Confusion matrix (n = 1243, prevalence = 0.4521)</strong>" in html
    assert html.count("<table") == 1 and "</table>" in html
    # cells are kept whole (an interval or a p-value does not break at its hyphen)
    assert '<div style="overflow-x: auto"><table style="white-space: nowrap"' in html
    assert "<th>Matthews correlation coefficient</th>" in html
    assert "<td>0.3675</td>" in html
    assert "<th>Cohen's kappa</th>" in html
    assert "<li>Metrics are point values from the counts" in html


def test_summary_of_a_matrix_with_undefined_metrics():
    cm = ConfusionMatrix(tp=0, fp=4, fn=0, tn=6)
    with warnings.catch_warnings():
        warnings.simplefilter("error", UndefinedMetricWarning)  # summary does not warn
        summary = cm.summary()
    text = str(summary)
    unwrapped = " ".join(text.split())  # notes are wrapped at 100 columns
    assert "metric Recall (TPR)                        NaN\n" in text
    assert "       Specificity (TNR)                0.6000\n" in text
    assert (
        "NaN: undefined (0/0) for these counts: recall, fnr, balanced_accuracy, "
        "informedness, mcc, g_mean, fowlkes_mallows, diagnostic_odds_ratio, lr_plus, "
        "lr_minus, lift, prevalence_threshold."
    ) in unwrapped
    frame = summary.to_frame()
    assert math.isnan(frame.loc[("rate", "beta (FNR)"), "value"])
    assert frame.loc[("metric", "Precision (PPV)"), "value"] == 0.0


# --------------------------------------------------------------------- metrics()


def test_metrics_index_is_the_registry(cm):
    values = cm.metrics()
    assert isinstance(values, pd.Series)
    assert list(values.index) == available_metrics()
    assert values.dtype == np.float64 and values.name == "value"
    for name in available_metrics():
        assert values[name] == cm.metric(name), name
    assert values["fbeta"] == values["f1"]  # F-beta at its default beta = 1
    assert values["f1"] == pytest.approx(678 / 1065, rel=1e-15)


def test_metric_aliases_and_bound_metrics(cm):
    assert cm.metric("TPR") == cm.metric("sensitivity") == cm.metric("recall") == 339 / 562
    assert cm.metric("Youden-J") == cm.metric("informedness")
    assert cm.metric(get_metric("mcc")) == cm.metric("mcc")
    bound = get_metric("fbeta").bind(beta=2)
    assert cm.metric(bound) == cm.metric("fbeta", beta=2) == pytest.approx(1695 / 2751, rel=1e-15)


def test_metric_warning_names_metric_and_counts():
    cm = ConfusionMatrix(tp=0, fp=0, fn=5, tn=20)
    with pytest.warns(
        UndefinedMetricWarning,
        match=r"Precision \(PPV\) is undefined \(0/0: no predicted positives "
        r"\(TP \+ FP = 0\)\) for ConfusionMatrix\(tp=0, fp=0, fn=5, "
        r"tn=20\); returning NaN\.",
    ):
        assert math.isnan(cm.metric("precision"))


# ------------------------------------------------------------- equality and hash


def test_equality_and_hash():
    a = ConfusionMatrix(tp=3, fp=1, fn=2, tn=4)
    b = ConfusionMatrix(tp=3.0, fp=np.int64(1), fn=2, tn=4.0)
    c = ConfusionMatrix(tp=3, fp=2, fn=1, tn=4)  # FP and FN exchanged
    assert a == b and hash(a) == hash(b)
    assert a != c and not (a == c)  # noqa: SIM201 (both operators are tested)
    assert a != (3, 1, 2, 4) and a != GBM
    assert len({a, b, c}) == 2
    assert {a: "x"}[b] == "x"
    w1 = ConfusionMatrix(tp=1.5, fp=0.5, fn=2, tn=4)
    w2 = ConfusionMatrix(tp=1.5, fp=0.5, fn=2.0, tn=4)
    assert w1 == w2 and hash(w1) == hash(w2) and w1 != a


def test_pickle_and_copy_round_trip(cm):
    weighted = ConfusionMatrix(tp=1.5, fp=0.5, fn=2, tn=4)
    for obj in (cm, weighted):
        for clone in (pickle.loads(pickle.dumps(obj)), copy.copy(obj), copy.deepcopy(obj)):
            assert clone == obj and repr(clone) == repr(obj)
            assert clone.metric("mcc") == obj.metric("mcc")


# -------------------------------------------------------------- weighted counts


def test_weighted_counts_from_predictions():
    y_true = [1, 0, 1, 1, 0, 0, 1]
    y_pred = [1, 1, 0, 1, 0, 0, 1]
    w = [0.5, 2.0, 1.25, 1.0, 3.0, 0.25, 2.0]
    cm = ConfusionMatrix.from_predictions(y_true, y_pred, sample_weight=w)
    assert cm == ConfusionMatrix(tp=3.5, fp=2.0, fn=1.25, tn=3.25)
    assert repr(cm) == "ConfusionMatrix(tp=3.5, fp=2, fn=1.25, tn=3.25)"
    assert cm.n == 10.0 and cm.prevalence == 4.75 / 10
    assert cm.alpha == 2.0 / 5.25 and cm.beta == 1.25 / 4.75
    assert cm.metric("precision") == 3.5 / 5.5
    assert cm.metric("f1") == pytest.approx(7 / (7 + 2 + 1.25), rel=1e-15)


def test_unit_and_integral_weights_give_integer_counts():
    y_true, y_pred = [1, 0, 1, 0], [1, 1, 0, 0]
    plain = ConfusionMatrix.from_predictions(y_true, y_pred)
    assert plain == ConfusionMatrix(tp=1, fp=1, fn=1, tn=1) and plain.is_integer
    ones = ConfusionMatrix.from_predictions(y_true, y_pred, sample_weight=np.ones(4))
    assert ones == plain and ones.is_integer
    twos = ConfusionMatrix.from_predictions(y_true, y_pred, sample_weight=[2, 2, 2, 2])
    assert repr(twos) == "ConfusionMatrix(tp=2, fp=2, fn=2, tn=2)"
    # weights scale the counts; no metric changes
    assert twos.metrics().equals(plain.metrics())


def test_zero_weights_drop_rows():
    y_true, y_pred = [1, 0, 1, 0, 1], [1, 1, 0, 0, 1]
    cm = ConfusionMatrix.from_predictions(y_true, y_pred, sample_weight=[1, 0, 1, 1, 0])
    assert cm == ConfusionMatrix(tp=1, fp=0, fn=1, tn=1)


def test_from_predictions_label_conventions():
    assert ConfusionMatrix.from_predictions(
        [True, False, True], [True, True, False]
    ) == ConfusionMatrix(tp=1, fp=1, fn=1, tn=0)
    # {-1, 1}: 1 is positive
    assert ConfusionMatrix.from_predictions([-1, 1, 1], [1, 1, -1]) == ConfusionMatrix(
        tp=1, fp=1, fn=1, tn=0
    )
    # pandas Series and column vectors are accepted
    s = pd.Series(["no", "yes", "yes"])
    assert ConfusionMatrix.from_predictions(
        s, np.array([["yes"], ["yes"], ["no"]]), pos_label="yes"
    ) == ConfusionMatrix(tp=1, fp=1, fn=1, tn=0)


def test_from_rates(cm):
    assert ConfusionMatrix.from_rates(
        n=1000, prevalence=0.1, alpha=0.2, beta=0.3
    ) == ConfusionMatrix(tp=70, fp=180, fn=30, tn=720)
    back = ConfusionMatrix.from_rates(
        n=cm.n, prevalence=cm.prevalence, alpha=cm.alpha, beta=cm.beta
    )
    assert back == cm and back.is_integer
    # rates that do not give whole counts are not rounded, and the counts sum to n
    odd = ConfusionMatrix.from_rates(n=10, prevalence=0.33, alpha=0.1, beta=0.5)
    assert odd.tp == pytest.approx(1.65) and not odd.is_integer
    assert odd.n == pytest.approx(10, rel=1e-15)
    tiny = ConfusionMatrix.from_rates(n=161, prevalence=0.0, alpha=1e-9, beta=0.0)
    assert tiny.n == pytest.approx(161, rel=1e-15) and tiny.fp == pytest.approx(1.61e-7)
