"""Operating points at the curve's ends, ties at the requested x as pROC's ``coords``
resolves them, and ``direction`` ("<", ">", "auto" as pROC): against pROC 1.18
(tests/reference/proc_vocabulary.csv, docs/method.md#vocabulary)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from test_partial_auc import _data, _params, _vocabulary

from opsstats import ScoreCurve
from opsstats.reference.dbt import DirectedBinaryTree


def _coords_rows() -> pd.DataFrame:
    d = _vocabulary()
    rows = d[
        d["params"].str.contains("input=spec|input=sens")
        & (d["monte_carlo"] == "false")
        & d["quantity"].isin(["sensitivity", "specificity"])
        & ~d["params"].str.contains("binormal")
    ]
    return rows


def test_coords_rows_present():
    assert len(_coords_rows()) == 120  # 6 sets x 2 inputs x 5 values x 2 columns


@pytest.mark.parametrize(
    "dataset, quantity, params, value",
    list(_coords_rows()[["dataset", "quantity", "params", "value"]].itertuples(index=False)),
)
def test_value_at_matches_proc_coords(dataset, quantity, params, value):
    # R: coords(r, x=x, input="specificity"/"sensitivity", ret=c("threshold",
    #    "specificity", "sensitivity"), transpose=FALSE)
    p = _params(params)
    curve = ScoreCurve.from_scores(*_data(dataset))
    x = float(p["x"])
    if p["input"] == "specificity":
        # matched in specificity units, as pROC: 1 - 0.9 is not the FPR 15/150
        got = (
            curve.value_at("specificity", at={"specificity": x})
            if quantity == "specificity"
            else curve.value_at("recall", at={"specificity": x})
        )
    else:
        got = (
            curve.value_at("specificity", at={"recall": x})
            if quantity == "specificity"
            else curve.value_at("recall", at={"recall": x})
        )
    assert got == pytest.approx(float(value), rel=1e-12, abs=1e-14)


def test_ties_at_both_ends_on_asah():
    curve = ScoreCurve.from_scores(*_data("aSAH"))
    # pROC: sensitivity at specificity 0 is 1 (threshold -Inf), not 40/41
    assert curve.value_at("recall", at={"fpr": 1.0}) == 1.0
    assert curve.value_at("recall", at={"specificity": 0.0}) == 1.0
    # sensitivity at specificity 1: the largest TPR among the points with FPR 0 (12/41)
    roc = curve.roc()
    assert curve.value_at("recall", at={"fpr": 0.0}) == roc.loc[roc.fpr == 0, "tpr"].max()
    assert curve.value_at("recall", at={"fpr": 0.0}) == pytest.approx(12 / 41, rel=1e-14)
    # specificity at sensitivity 0: the origin (specificity 1), as pROC's threshold Inf
    assert curve.value_at("specificity", at={"recall": 0.0}) == 1.0


def test_precision_at_recall_zero_where_defined():
    # the top block holds positives only: precision there (1 on aSAH)
    curve = ScoreCurve.from_scores(*_data("aSAH"))
    assert curve.value_at("precision", at={"recall": 0.0}) == 1.0
    # a top block of 1 positive and 2 negatives tied: precision 1/3 (the ray's value)
    c = ScoreCurve.from_scores([1, 0, 0, 1, 0], [0.9, 0.9, 0.9, 0.5, 0.1])
    assert c.value_at("precision", at={"recall": 0.0}) == pytest.approx(1 / 3)
    assert c.value_at("lift", at={"rate": 0.0}) == pytest.approx((1 / 3) / 0.4)
    # the top score is a negative alone: the points at recall 0 have precision 0
    c = ScoreCurve.from_scores([0, 1, 0, 1, 0], [0.9, 0.8, 0.7, 0.5, 0.1])
    assert c.value_at("precision", at={"recall": 0.0}) == 0.0
    # the value is the limit of eq. 9 as recall -> 0 from the right
    small = c.value_at("precision", at={"recall": 1e-9})
    assert small == pytest.approx(0.0, abs=1e-8)


def test_ops_at_the_ends_under_dbt():
    curve = ScoreCurve.from_scores(*_data("aSAH"))
    ref = DirectedBinaryTree(depth=4, n_curves=1000)
    r = curve.ops("recall", at={"fpr": 0.0}, reference=ref)
    assert 0 <= r.estimate <= 1 and r.value == pytest.approx(12 / 41)
    r = curve.ops("precision", at={"recall": 0.0}, reference=ref)
    assert r.value == 1.0


def test_direction_greater_is_the_negated_scores_and_matches_proc():
    y, s = _data("aSAH")
    gt = ScoreCurve.from_scores(y, s, direction=">")
    neg = ScoreCurve.from_scores(y, -s)
    assert np.array_equal(gt.tps, neg.tps) and np.array_equal(gt.thresholds, neg.thresholds)
    assert gt.direction == ">" and "direction='>'" in repr(gt)
    d = _vocabulary()
    row = d[(d["dataset"] == "aSAH") & (d["params"] == "predictor=s100b;direction=>")]
    assert gt.auc() == pytest.approx(float(row["value"].iloc[0]), rel=1e-12)  # auc(r) in R
    assert gt != neg  # the direction is part of the curve


def test_direction_auto_is_announced_and_follows_the_medians():
    y, s = _data("aSAH")
    with pytest.warns(UserWarning, match=r"direction='auto' chose direction='>'"):
        c = ScoreCurve.from_scores(y, -s, direction="auto")
    assert c.direction == "> (auto)" and c.auc() == pytest.approx(0.7313685636856369)
    assert "direction = '> (auto)'" in str(c.summary())
    with pytest.warns(UserWarning, match=r"chose direction='<'"):
        c = ScoreCurve.from_scores(y, s, direction="auto")
    assert c.direction == "< (auto)" and "(auto)" in repr(c)
    # pROC: median(controls) > median(cases) gives ">"; equal medians give "<"
    with pytest.warns(UserWarning, match=r"chose direction='<'"):
        ScoreCurve.from_scores([0, 0, 1, 1], [1.0, 2.0, 1.0, 2.0], direction="auto")


def test_direction_bad_input_and_score_measures():
    with pytest.raises(ValueError, match="`direction` must be one of '<', '>', 'auto'"):
        ScoreCurve.from_scores([0, 1], [0.1, 0.2], direction="<=")
    with pytest.raises(ValueError, match=r"`y_score` with `direction='>'`"):
        ScoreCurve.from_scores([0, 1], np.array([0, 2**64 - 1], dtype=np.uint64), direction=">")
    c = ScoreCurve.from_scores([0, 1, 1], [0.9, 0.2, 0.1], direction=">")
    with pytest.raises(ValueError, match="direction '<'"):
        c.dm()


@pytest.mark.parametrize("at", [{"fpr": -0.1}, {"recall": 1.5}, {"rate": float("nan")}])
def test_at_outside_the_unit_interval(at):
    curve = ScoreCurve.from_scores([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4])
    key = next(iter(at))
    with pytest.raises(ValueError, match=rf"`at\['{key}'\]`"):
        curve.value_at("precision", at=at)


def test_direction_is_announced_in_ops_and_interval_results():
    y, s = _data("aSAH")
    with pytest.warns(UserWarning, match="direction='auto'"):
        c = ScoreCurve.from_scores(y, -s, direction="auto")
    ref = DirectedBinaryTree(depth=4, n_curves=500)
    r = c.ops("roc_auc", reference=ref)
    assert r.method.endswith("scores' direction > (auto)") and "direction > (auto)" in str(r)
    i = c.interval("roc_auc", method="delong")
    assert "scores' direction > (auto)" in i.method
    plain = ScoreCurve.from_scores(y, s)
    assert "direction" not in plain.ops("roc_auc", reference=ref).method
    assert i.ci == plain.interval("roc_auc", method="delong").ci  # same curve, same numbers
