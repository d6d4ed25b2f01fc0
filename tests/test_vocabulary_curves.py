"""Binormal smoothing (pROC smooth), drop_intermediate and the DET curve (scikit-learn),
zero_division and one-class ROC points (scikit-learn's conventions on request);
docs/method.md#vocabulary."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import sklearn.exceptions
from scipy import integrate, stats
from sklearn.metrics import det_curve, precision_score, recall_score, roc_curve
from test_partial_auc import _data, _params, _vocabulary

from opsstats import ConfusionMatrix, ScoreCurve, UndefinedMetricWarning
from opsstats.curves.smooth import binormal_smooth

SETS = ["aSAH", "small_ties", "medium", "imbalanced", "weak", "perfect"]


def _smooth_rows():
    d = _vocabulary()
    rows = d[d["params"].str.contains("method=binormal") & (d["quantity"] != "error")]
    return list(rows[["dataset", "quantity", "params", "value"]].itertuples(index=False))


def test_smooth_rows_present():
    assert len(_smooth_rows()) == 65  # 5 curves x 13 values


@pytest.mark.parametrize("dataset, quantity, params, value", _smooth_rows())
def test_binormal_smooth_matches_proc(dataset, quantity, params, value):
    # R: s <- smooth(r, method="binormal"); auc(s), coef(s$model), nrow(s$model$model),
    #    auc(s, partial.auc=c(1, 0.8)), coords(s, x, input=...), coords(s, x="best")
    p = _params(params)
    y, s = _data(dataset)
    if dataset == "aSAH" and p["predictor"] == "wfns":
        import pandas as pd
        from test_partial_auc import REF

        s = pd.read_csv(REF / "data_compare" / "aSAH.csv")["wfns"].to_numpy(float)
    sm = ScoreCurve.from_scores(y, s).smooth()
    want = float(value)
    if quantity == "auc":
        got, tol = sm.auc(), 1e-12
    elif quantity == "coef_intercept":
        got, tol = sm.intercept, 1e-9
    elif quantity == "coef_slope":
        got, tol = sm.slope, 1e-9
    elif quantity == "n_fit_points":
        got, tol = sm.n_fit_points, 0
    elif quantity == "pauc":
        got, tol = sm.partial_auc(fpr_range=(0, 0.2)), 1e-9
    elif "input" in p:
        x = float(p["x"])
        got = (
            sm.value_at("recall", {"specificity": x})
            if p["input"] == "specificity"
            else sm.value_at("specificity", {"recall": x})
        )
        tol = 1e-9
    else:  # x="best"
        se, sp = sm.best_point()
        got, tol = (se if quantity == "sensitivity" else sp), 1e-9
    assert got == pytest.approx(want, rel=tol, abs=1e-12)


def test_perfect_curve_cannot_be_smoothed_as_in_proc():
    # R: smooth(roc(perfect)) -> error "ROC curve not smoothable (not enough points)."
    with pytest.raises(ValueError, match="cannot be smoothed"):
        ScoreCurve.from_scores(*_data("perfect")).smooth()


def test_smooth_auc_is_the_binormal_area_by_integration():
    sm = ScoreCurve.from_scores(*_data("medium")).smooth(n=20001)

    area, _ = integrate.quad(
        lambda f: (
            stats.norm.cdf((stats.norm.ppf(1 - f) - sm.intercept) / sm.slope)
            if 0 < f < 1
            else float(f >= 1)
        ),
        0,
        1,
    )
    assert sm.auc() == pytest.approx(area, abs=1e-8)
    assert sm.partial_auc(fpr_range=(0, 1)) == pytest.approx(sm.auc(), abs=1e-6)


def test_bad_smooth_arguments():
    curve = ScoreCurve.from_scores(*_data("medium"))
    with pytest.raises(ValueError, match="`method` must be one of 'binormal'"):
        curve.smooth("density")
    with pytest.raises(ValueError, match="`n`"):
        binormal_smooth(curve, n=2)
    with pytest.raises(ValueError, match="a smoothed ROC curve knows"):
        curve.smooth().value_at("precision", {"recall": 0.5})


@pytest.mark.parametrize("dataset", SETS)
def test_drop_intermediate_matches_sklearn(dataset):
    y, s = _data(dataset)
    fpr, tpr, thr = roc_curve(y, s, drop_intermediate=True)
    got = ScoreCurve.from_scores(y, s).roc(drop_intermediate=True)
    np.testing.assert_array_equal(got["threshold"], thr)
    np.testing.assert_allclose(got["fpr"], fpr, rtol=0, atol=1e-15)
    np.testing.assert_allclose(got["tpr"], tpr, rtol=0, atol=1e-15)
    full = ScoreCurve.from_scores(y, s)
    assert len(got) <= len(full.roc())
    # dropped points lie on straight segments: the area is unchanged
    assert np.trapezoid(got["tpr"], got["fpr"]) == pytest.approx(full.auc(), abs=1e-14)


@pytest.mark.parametrize("dataset", SETS)
@pytest.mark.parametrize("drop", [False, True])
def test_det_matches_sklearn(dataset, drop):
    y, s = _data(dataset)
    fpr, fnr, thr = det_curve(y, s, drop_intermediate=drop)
    got = ScoreCurve.from_scores(y, s).det(drop_intermediate=drop)
    np.testing.assert_array_equal(got["threshold"], thr)
    np.testing.assert_allclose(got["fpr"], fpr, rtol=0, atol=1e-15)
    np.testing.assert_allclose(got["fnr"], fnr, rtol=0, atol=1e-15)


def test_drop_intermediate_bad_input():
    c = ScoreCurve.from_scores([0, 1], [0.1, 0.2])
    with pytest.raises(TypeError, match="`drop_intermediate` must be True or False"):
        c.roc(drop_intermediate="yes")
    with pytest.raises(TypeError, match="`drop_intermediate` must be True or False"):
        c.det(drop_intermediate=1)


@pytest.mark.parametrize("zd", [0, 1, 0.0, 1.0, np.nan])
def test_zero_division_matches_sklearn(zd):
    y_true, y_pred = [1, 1, 0, 0], [0, 0, 0, 0]  # no predicted positive: precision 0/0
    cm = ConfusionMatrix.from_predictions(y_true, y_pred)
    want = precision_score(y_true, y_pred, zero_division=zd)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning with an explicit value
        got = cm.metric("precision", zero_division=zd)
    assert (np.isnan(got) and np.isnan(want)) or got == want
    # recall is defined: zero_division changes nothing
    assert cm.metric("recall", zero_division=zd) == recall_score(y_true, y_pred)


def test_zero_division_default_stays_nan_with_a_warning():
    cm = ConfusionMatrix(tp=0, fp=0, fn=2, tn=2)
    with pytest.warns(UndefinedMetricWarning, match="undefined"):
        assert np.isnan(cm.metric("precision"))
    c = ScoreCurve.from_scores([0, 1, 0, 1], [0.9, 0.9, 0.1, 0.1])
    with pytest.warns(UndefinedMetricWarning):
        assert np.isnan(c.value_at("npv", at={"recall": 1.0}))
    assert c.value_at("npv", at={"recall": 1.0}, zero_division=1) == 1.0


@pytest.mark.parametrize("bad", ["nan", 0.5, -1, True, None])
def test_zero_division_bad_input(bad):
    cm = ConfusionMatrix(tp=1, fp=0, fn=2, tn=2)
    with pytest.raises(ValueError, match=r"`zero_division` must be 'warn', 0, 1 or numpy\.nan"):
        cm.metric("precision", zero_division=bad)


@pytest.mark.parametrize("y", [[1, 1, 1, 1], [0, 0, 0, 0]])
def test_one_class_roc_points_as_sklearn(y):
    s = [0.2, 0.7, 0.7, 0.1]

    with pytest.warns(sklearn.exceptions.UndefinedMetricWarning):
        fpr, tpr, thr = roc_curve(y, s, drop_intermediate=False)
    with pytest.warns(UndefinedMetricWarning, match="No (negative|positive) samples"):
        got = ScoreCurve.roc_points(y, s, one_class="nan")
    np.testing.assert_array_equal(got["threshold"], thr)
    np.testing.assert_array_equal(got["fpr"], fpr)  # NaN where sklearn has NaN
    np.testing.assert_array_equal(got["tpr"], tpr)


def test_one_class_default_is_an_error_and_bad_choice():
    with pytest.raises(ValueError, match=r"both classes|two classes|one class"):
        ScoreCurve.roc_points([1, 1], [0.2, 0.3])
    with pytest.raises(ValueError, match="`one_class` must be one of 'error', 'nan'"):
        ScoreCurve.roc_points([1, 0], [0.2, 0.3], one_class="warn")
    # two classes: the ordinary curve, whatever one_class says
    got = ScoreCurve.roc_points([1, 0, 1], [0.2, 0.3, 0.9], one_class="nan")
    assert got.equals(ScoreCurve.from_scores([1, 0, 1], [0.2, 0.3, 0.9]).roc())
