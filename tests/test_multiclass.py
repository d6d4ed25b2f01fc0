"""Multi-class ROC AUC (Hand-Till, OvO, OvR), Gorodkin's R_K and weighted Cohen's kappa,
against pROC 1.18's multiclass.roc (tests/reference/proc_vocabulary.csv) and
scikit-learn (docs/method.md#vocabulary)."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import cohen_kappa_score, matthews_corrcoef, roc_auc_score
from test_partial_auc import REF, _params, _vocabulary

from opsstats.curves.multiclass import multiclass_roc_auc, pairwise_auc
from opsstats.metrics.multiclass import cohen_kappa, multiclass_mcc


def _mc(name: str) -> tuple[np.ndarray, np.ndarray, pd.DataFrame]:
    d = pd.read_csv(REF / "data_multiclass" / f"{name}.csv")
    cols = [c for c in d.columns if c.startswith("p_")]
    return d["y_true"].to_numpy(), d[cols].to_numpy(), d


def _rows(dataset: str, params_start: str) -> pd.DataFrame:
    v = _vocabulary()
    return v[(v["dataset"] == dataset) & v["params"].str.startswith(params_start)]


@pytest.mark.parametrize("dataset", ["multiclass3", "multiclass4"])
def test_hand_till_matches_proc_multiclass_roc(dataset):
    # R: multiclass.roc(d$y_true, P)  (P: probability matrix, columns named by class)
    y, P, _ = _mc(dataset)
    rows = _rows(dataset, "form=multivariate")
    auc = float(rows[rows["quantity"] == "auc"]["value"].iloc[0])
    assert multiclass_roc_auc(y, P) == pytest.approx(auc, rel=1e-12)
    assert multiclass_roc_auc(y, P, multi_class="hand_till") == pytest.approx(auc, rel=1e-12)
    table = pairwise_auc(y, P)
    for _, row in rows[rows["quantity"] == "pair_auc"].iterrows():
        p = _params(row["params"])
        got = table[
            (table["positive"] == int(p["positive_class"]))
            & (table["negative"] == int(p["other_class"]))
        ]["auc"].iloc[0]
        assert got == pytest.approx(float(row["value"]), rel=1e-12)  # auc(mr$rocs[[...]])


@pytest.mark.parametrize("dataset", ["multiclass3", "multiclass4"])
@pytest.mark.parametrize("predictor", ["score", "p_0"])
@pytest.mark.parametrize("direction", ["auto", "<"])
def test_univariate_form_matches_proc(dataset, predictor, direction):
    # R: multiclass.roc(d$y_true, d[[predictor]], direction=...): one roc per pair of
    # levels, the lower level the controls; "auto" per pair by the medians
    y, _, d = _mc(dataset)
    rows = _rows(dataset, f"form=univariate;predictor={predictor};direction={direction}")
    auc = float(rows[rows["quantity"] == "auc"]["value"].iloc[0])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = multiclass_roc_auc(y, d[predictor], direction=direction)
        table = pairwise_auc(y, d[predictor], direction=direction)
    assert got == pytest.approx(auc, rel=1e-12)
    K = np.unique(y).size
    # "auto" is announced for every pair (twice: two calls), never silent
    assert len(caught) == (2 * K * (K - 1) // 2 if direction == "auto" else 0)
    for _, row in rows[rows["quantity"] == "pair_direction_lt"].iterrows():
        p = _params(row["params"])
        mine = table[
            (table["negative"] == int(p["control"])) & (table["positive"] == int(p["case"]))
        ]
        assert mine["direction"].iloc[0].startswith("<" if row["value"] == "1" else ">")
    pair = rows[rows["quantity"] == "pair_auc"]
    assert np.allclose(sorted(table["auc"]), sorted(pair["value"].astype(float)), rtol=1e-12)


@pytest.mark.parametrize("dataset", ["multiclass3", "multiclass4"])
@pytest.mark.parametrize("multi_class", ["ovo", "ovr"])
@pytest.mark.parametrize("average", ["macro", "weighted"])
def test_matches_sklearn_roc_auc_score(dataset, multi_class, average):
    y, P, _ = _mc(dataset)
    P = P / P.sum(axis=1, keepdims=True)  # sklearn refuses rows not summing to 1
    want = roc_auc_score(y, P, multi_class=multi_class, average=average)
    got = multiclass_roc_auc(y, P, multi_class=multi_class, average=average)
    assert got == pytest.approx(want, rel=1e-12)


def test_string_labels_and_column_order():
    y, P, _ = _mc("multiclass3")
    names = np.array(["a", "b", "c"])[y]
    base = multiclass_roc_auc(y, P)
    assert multiclass_roc_auc(names, P) == pytest.approx(base, rel=1e-14)
    # columns given in another order, said so by `labels`
    assert multiclass_roc_auc(names, P[:, [2, 0, 1]], labels=["c", "a", "b"]) == pytest.approx(
        base, rel=1e-14
    )


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"multi_class": "ova"}, "`multi_class` must be one of 'ovo', 'ovr', 'hand_till'"),
        ({"average": "micro"}, "`average` must be one of 'macro', 'weighted'"),
        ({"labels": [0, 1, 2, 3]}, "`y_true` must hold every class of `labels`.*class 3"),
        ({"labels": [0, 1]}, "`y_true` holds the class 2, which `labels` lacks"),
        ({"multi_class": "hand_till", "average": "weighted"}, "Hand and Till's M"),
        ({"direction": "auto"}, "`direction` applies to a single score column"),
    ],
)
def test_bad_multiclass_arguments(kwargs, match):
    y, P, _ = _mc("multiclass3")
    with pytest.raises(ValueError, match=match):
        multiclass_roc_auc(y, P, **kwargs)


def test_bad_score_shapes():
    y, P, _ = _mc("multiclass3")
    with pytest.raises(ValueError, match="one column per class"):
        multiclass_roc_auc(y, P[:, :2])
    with pytest.raises(ValueError, match="`y_true` and `y_score` must have one row per instance"):
        multiclass_roc_auc(y[:-1], P)
    with pytest.raises(ValueError, match="at least 3 classes"):
        multiclass_roc_auc(y[y < 2], P[y < 2][:, :2])
    bad = P.copy()
    bad[0, 0] = np.nan
    with pytest.raises(ValueError, match="`y_score`"):
        multiclass_roc_auc(y, bad)


def _predictions(seed: int, K: int, n: int = 200) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, K, n)
    pred = np.where(rng.random(n) < 0.6, y, rng.integers(0, K, n))
    return y, pred


@pytest.mark.parametrize("seed, K", [(0, 3), (1, 4), (2, 5), (3, 2)])
def test_mcc_and_kappa_match_sklearn(seed, K):
    y, pred = _predictions(seed, K)
    assert multiclass_mcc(y, pred) == pytest.approx(matthews_corrcoef(y, pred), rel=1e-12)
    for weights in (None, "linear", "quadratic"):
        want = cohen_kappa_score(y, pred, weights=weights)
        assert cohen_kappa(y, pred, weights=weights) == pytest.approx(want, rel=1e-12)
    w = np.random.default_rng(seed).uniform(0.1, 2.0, y.size)
    assert multiclass_mcc(y, pred, sample_weight=w) == pytest.approx(
        matthews_corrcoef(y, pred, sample_weight=w), rel=1e-12
    )
    assert cohen_kappa(y, pred, weights="linear", sample_weight=w) == pytest.approx(
        cohen_kappa_score(y, pred, weights="linear", sample_weight=w), rel=1e-12
    )


def test_mcc_gorodkin_by_hand_and_degenerate_cases():
    # C = [[2, 1], [0, 3]] (binary): MCC = (2*3 - 1*0) / sqrt(3*3*2*4)
    y, pred = [0, 0, 0, 1, 1, 1], [0, 0, 1, 1, 1, 1]
    assert multiclass_mcc(y, pred) == pytest.approx(6 / np.sqrt(72), rel=1e-14)
    assert multiclass_mcc([0, 1, 2], [1, 1, 1]) == 0.0  # one predicted class: 0 (sklearn)
    assert np.isnan(cohen_kappa([1, 1], [1, 1]))  # no expected disagreement: NaN (sklearn)
    # labels fix the order of the classes, which the weighted kappa depends on
    y, pred = _predictions(4, 3)
    want = cohen_kappa_score(y, pred, weights="linear", labels=[2, 0, 1])
    assert cohen_kappa(y, pred, weights="linear", labels=[2, 0, 1]) == pytest.approx(want)


def test_bad_mcc_and_kappa_arguments():
    with pytest.raises(ValueError, match="`weights` must be one of 'linear', 'quadratic'"):
        cohen_kappa([0, 1], [0, 1], weights="cubic")
    with pytest.raises(ValueError, match="`y_pred` holds the class 3"):
        multiclass_mcc([0, 1, 2], [0, 1, 3], labels=[0, 1, 2])
    with pytest.raises(ValueError, match="same length"):
        multiclass_mcc([0, 1, 2], [0, 1])
    with pytest.raises(ValueError, match="`y_true` must not be empty"):
        cohen_kappa([], [])
