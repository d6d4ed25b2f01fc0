"""opsstats.monitor: a classifier across periods (docs/method.md#standardized-prevalence).

Every column is checked against an independent computation: the rows counted by hand
(numpy), evaluate's own columns, at_prevalence objects built from each period's rows,
compare_test_sets and decompose called directly with the same generators, statsmodels' Jeffreys
interval and a slow Holm adjustment written here. pandas, a lazy polars frame, a DuckDB
relation and a PySpark frame give identical tables."""

from __future__ import annotations

import warnings

import duckdb
import numpy as np
import pandas as pd
import polars as pl
import pytest
from statsmodels.stats.proportion import proportion_confint

from opsstats import (
    ConfusionMatrix,
    DirectedBinaryTree,
    ScoreCurve,
    compare_test_sets,
    decompose,
    evaluate,
)
from opsstats import monitor as monitor_
from opsstats.exceptions import UndefinedMetricWarning
from opsstats.monitoring import MONITOR_COLUMNS
from opsstats.uncertainty._draws import root_seed, unit_rng

REF = DirectedBinaryTree(depth=6, n_curves=3000, seed=4)
MONTHS = ["2024-01", "2024-02", "2024-03", "2024-04"]


def monitor(data, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        return monitor_(data, **kw)


@pytest.fixture(scope="module")
def frame() -> pd.DataFrame:
    """One classifier (positives N(1.5, 1)) for three months whose prevalences are 0.05,
    0.2 and 0.4, then a worse one (positives N(0.7, 1)) at 0.4; two segments."""
    rng = np.random.default_rng(0)
    month = np.repeat(MONTHS, 1500)
    pi = np.select([month == m for m in MONTHS[:3]], [0.05, 0.2, 0.4], 0.4)
    d = np.where(month == MONTHS[3], 0.7, 1.5)
    y = rng.random(month.size) < pi
    return pd.DataFrame(
        {
            "y": y.astype(int),
            "s": rng.normal(d * y, 1),
            "month": month,
            "seg": rng.choice(["east", "west"], month.size),
        }
    )


def _holm(p):
    """Holm's step-down adjustment written out (Holm 1979): sort, multiply the k-th
    smallest by (m - k), running maximum, cap at 1."""
    p = list(p)
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])
    out = [0.0] * m
    running = 0.0
    for k, i in enumerate(order):
        running = max(running, min(1.0, (m - k) * p[i]))
        out[i] = running
    return out


def test_columns_against_rows_evaluate_and_at_prevalence(frame):
    res = monitor(frame, truth="y", score="s", threshold=1.0, time="month", metrics=["f1"], rng=3)
    t = res.to_frame()
    assert list(t.columns) == ["month", *MONITOR_COLUMNS]
    assert t["month"].tolist() == MONTHS
    base = frame[frame["month"] == MONTHS[0]]
    pi0 = base["y"].mean()
    assert res.standard_prevalence == {(): pi0}
    ev = evaluate(
        frame,
        truth="y",
        score="s",
        threshold=1.0,
        metrics=["f1", "fpr", "fnr"],
        by="month",
        prevalence=pi0,
        rng=root_seed(3),
    )
    for month, row in zip(MONTHS, t.itertuples(index=False), strict=True):
        g = frame[frame["month"] == month]
        y, p = g["y"].to_numpy() == 1, g["s"].to_numpy() >= 1.0
        tp, fp, fn, tn = (int(np.sum(a & b)) for a, b in [(y, p), (~y, p), (y, ~p), (~y, ~p)])
        assert row.n == len(g) and row.prevalence == y.mean()
        assert row.alpha == fp / (fp + tn) and row.beta == fn / (fn + tp)
        assert row.value == pytest.approx(2 * tp / (2 * tp + fp + fn), abs=1e-15)
        cm = ConfusionMatrix(tp=tp, fp=fp, fn=fn, tn=tn).at_prevalence(pi0)
        assert row.standardized == pytest.approx(cm.metric("f1"), abs=1e-12)
        assert row.standard_prevalence == pi0
        # statsmodels' Jeffreys interval of the prevalence (0 < x < n here)
        low, high = proportion_confint(int(y.sum()), len(g), alpha=0.05, method="jeffreys")
        assert (row.prevalence_ci_low, row.prevalence_ci_high) == pytest.approx(
            (low, high), abs=1e-12
        )
        e = ev[ev["month"] == month].set_index("metric")
        for col in ("value_ci_low", "ops", "ops_ci_high", "standardized_ci_low"):
            assert getattr(row, col) == e.loc["f1", col]
        assert (row.alpha_ci_low, row.beta_ci_high) == (
            e.loc["fpr", "value_ci_low"],
            e.loc["fnr", "value_ci_high"],
        )


def test_the_test_is_compare_test_sets_of_standardized_objects(frame):
    res = monitor(frame, truth="y", score="s", threshold=1.0, time="month", metrics=["mcc"], rng=5)
    t = res.to_frame()
    seed = root_seed(5)

    def cm_of(month):
        g = frame[frame["month"] == month]
        y, p = g["y"].to_numpy() == 1, g["s"].to_numpy() >= 1.0
        return ConfusionMatrix(
            tp=int(np.sum(y & p)), fp=int(np.sum(~y & p)), fn=int(np.sum(y & ~p)),
            tn=int(np.sum(~y & ~p)),
        )  # fmt: skip

    pi0 = res.standard_prevalence[()]
    base = cm_of(MONTHS[0]).at_prevalence(pi0)
    p_values = []
    for month in MONTHS[1:]:
        direct = compare_test_sets(
            {"period": cm_of(month).at_prevalence(pi0), "baseline": base},
            metric="mcc",
            n_resamples=1000,
            rng=unit_rng(seed, (month,), "mcc", "monitor test"),
        )
        row = t[t["month"] == month].iloc[0]
        assert row["change"] == direct.estimate
        assert (row["change_ci_low"], row["change_ci_high"]) == tuple(direct.ci)
        assert row["p_value"] == direct.p_value
        # the change is the difference of the two standardized values
        assert row["change"] == pytest.approx(
            row["standardized"] - t.iloc[0]["standardized"], abs=1e-12
        )
        p_values.append(direct.p_value)
        # the raw change split by decompose of the two periods, with the same generator
        split = decompose(
            cm_of(MONTHS[0]),
            cm_of(month),
            metric="mcc",
            n_resamples=1000,
            rng=unit_rng(seed, (month,), "mcc", "monitor decomposition"),
        )
        assert row["prevalence_part"] == split.prevalence_part
        assert row["classifier_part"] == split.classifier_part
        assert (row["classifier_part_ci_low"], row["prevalence_part_ci_high"]) == (
            split.classifier_part_ci.low,
            split.prevalence_part_ci.high,
        )
        assert row["prevalence_part"] + row["classifier_part"] == pytest.approx(
            row["value"] - t.iloc[0]["value"], abs=1e-12
        )
    assert t["p_adjusted"].iloc[1:].tolist() == pytest.approx(_holm(p_values), abs=1e-15)
    assert t["classifier_changed"].iloc[1:].tolist() == [p < 0.05 for p in _holm(p_values)]
    assert t["baseline"].tolist() == [True, False, False, False]
    assert pd.isna(t["classifier_changed"].iloc[0]) and t["change"].iloc[0] == 0.0
    assert t["classifier_part"].iloc[0] == 0.0 and t["prevalence_part"].iloc[0] == 0.0


def test_prevalence_drift_alone_not_flagged_real_change_flagged(frame):
    """The class balance moves from 0.05 to 0.4 in months 2 and 3 with the classifier
    unchanged; month 4's classifier is worse. Raw F1 moves a lot (0.2 or more) in months
    2-3, all of it the prevalence's part; the test flags month 4 only, where the
    classifier's part is negative with an interval below 0."""
    res = monitor(frame, truth="y", score="s", threshold=1.0, time="month", metrics=["f1"], rng=1)
    t = res.to_frame()
    assert t["value"].iloc[2] - t["value"].iloc[0] > 0.2
    assert (t["classifier_part_ci_low"].iloc[1:3] < 0).all()
    assert (t["classifier_part_ci_high"].iloc[1:3] > 0).all()
    assert t["classifier_part_ci_high"].iloc[3] < 0
    assert t["classifier_changed"].iloc[1:].tolist() == [False, False, True]
    assert len(res.flagged()) == 1 and res.flagged()["month"].iloc[0] == MONTHS[3]


@pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas:FutureWarning")
@pytest.mark.parametrize("engine", ["polars-lazy", "duckdb", "spark"])
def test_pandas_and_other_engines_identical(frame, engine, request):
    """The same table from a lazy polars frame, a DuckDB relation and a PySpark frame
    (local[2]) as from pandas: the engines count, only count tables come into Python."""
    if engine == "polars-lazy":
        data = pl.from_pandas(frame).lazy()
    elif engine == "duckdb":
        connection = duckdb.connect()
        data = connection.from_df(frame)
    else:
        data = request.getfixturevalue("spark").createDataFrame(frame)
    kw = {
        "truth": "y",
        "score": "s",
        "threshold": 1.0,
        "time": "month",
        "by": "seg",
        "metrics": ["f1", "roc_auc"],
        "curve_reference": REF,
        "n_resamples": 300,
        "rng": 2,
    }
    a = monitor(frame, **kw).to_frame()
    b = monitor(data, **kw).to_frame()
    pd.testing.assert_frame_equal(a, b)
    assert len(a) == 4 * 2 * 2


def test_groups_each_standardized_to_its_own_baseline_and_independent(frame):
    kw = {
        "truth": "y",
        "score": "s",
        "threshold": 1.0,
        "time": "month",
        "metrics": ["f1"],
        "rng": 4,
    }
    res = monitor(frame, by="seg", **kw)
    t = res.to_frame()
    for seg in ("east", "west"):
        sub = frame[frame["seg"] == seg]
        pi = sub[sub["month"] == MONTHS[0]]["y"].mean()
        assert res.standard_prevalence[(seg,)] == pi
        rows = t[t["seg"] == seg]
        assert (rows["standard_prevalence"] == pi).all()
        # a group's rows: the same as the group monitored alone with its key as a group
        alone = monitor(sub, by="seg", **kw).to_frame()
        pd.testing.assert_frame_equal(rows.reset_index(drop=True), alone)


def test_curve_quantities(frame):
    res = monitor(
        frame,
        truth="y",
        score="s",
        time="month",
        metrics=["roc_auc", "pr_auc"],
        curve_reference=REF,
        n_resamples=200,
        rng=0,
    )
    t = res.to_frame()
    assert t["alpha"].isna().all()  # scores without a threshold: no alpha, beta
    pi0 = res.standard_prevalence[()]
    for month in MONTHS:
        g = frame[frame["month"] == month]
        curve = ScoreCurve.from_scores(g["y"].to_numpy() == 1, g["s"].to_numpy())
        roc = t[(t["month"] == month) & (t["metric"] == "roc_auc")].iloc[0]
        pr = t[(t["month"] == month) & (t["metric"] == "pr_auc")].iloc[0]
        assert roc["standardized"] == pytest.approx(roc["value"], abs=1e-12)  # invariant
        assert pr["standardized"] == pytest.approx(curve.at_prevalence(pi0).auc("pr"), abs=1e-12)
    roc_flags = t[t["metric"] == "roc_auc"]["classifier_changed"].tolist()
    assert roc_flags[1:] == [False, False, True]


def test_period_with_one_class_is_a_row_with_its_reason(frame):
    data = frame.copy()
    data.loc[(data["month"] == MONTHS[1]) & (data["y"] == 1), "y"] = 0
    with pytest.warns(UndefinedMetricWarning, match="no positives"):
        res = monitor_(
            data, truth="y", score="s", threshold=1.0, time="month", metrics=["mcc"], rng=0
        )
    t = res.to_frame()
    row = t[t["month"] == MONTHS[1]].iloc[0]
    assert row["prevalence"] == 0 and np.isnan(row["p_value"]) and "no positives" in row["reason"]
    assert pd.isna(row["classifier_changed"])
    # the other periods are tested, and adjusted among themselves (two tests)
    assert t["p_adjusted"].notna().sum() == 2


def test_baseline_choices(frame):
    kw = {
        "truth": "y",
        "score": "s",
        "threshold": 1.0,
        "time": "month",
        "metrics": ["f1"],
        "rng": 0,
    }
    res = monitor(frame, baseline=MONTHS[2], **kw)
    t = res.to_frame()
    assert res.baseline == MONTHS[2] and t["baseline"].tolist() == [False, False, True, False]
    pi2 = frame[frame["month"] == MONTHS[2]]["y"].mean()
    assert (t["standard_prevalence"] == pi2).all()
    fixed = monitor(frame, baseline=0.3, **kw)
    assert fixed.baseline == MONTHS[0] and (fixed.table["standard_prevalence"] == 0.3).all()
    with pytest.raises(ValueError, match="`baseline` must be one of the periods"):
        monitor(frame, baseline="2023-12", **kw)


def test_bad_input(frame):
    kw = {"truth": "y", "score": "s", "threshold": 1.0, "metrics": ["f1"]}
    with pytest.raises(ValueError, match="1 period"):
        monitor(frame[frame["month"] == MONTHS[0]], time="month", **kw)
    with pytest.raises(TypeError, match="`time` must be the name of a column"):
        monitor(frame, time=3, **kw)
    with pytest.raises(ValueError, match="`time` names a column that is not in `data`: 'nope'"):
        monitor(frame, time="nope", **kw)
    with pytest.raises(ValueError, match="`by` must not contain the `time` column"):
        monitor(frame, time="month", by="month", **kw)
    with pytest.raises(ValueError, match="`adjust` must be 'holm'"):
        monitor(frame, time="month", adjust="bonferroni", **kw)
    with_missing = frame.assign(month=frame["month"].where(frame.index % 7 != 0, None))
    with pytest.raises(ValueError, match="missing values"):
        monitor(with_missing, time="month", **kw)


def test_summary_and_plot(frame):
    res = monitor(
        frame, truth="y", score="s", threshold=1.0, time="month", metrics=["f1", "mcc"], rng=0
    )
    text = str(res)
    assert max(len(line) for line in text.splitlines()) <= 80  # the tests' width (conftest)
    # nine columns do not fit 80 with the row labels: a second block, with them again
    body = text.split("\n-" + "-" * 20)[0].split("=" * 20 + "\n")[1]
    blocks = [b.splitlines() for b in body.split("\n\n")]
    assert len(blocks) == 2 and blocks[1][0].split() == ["changed"]
    labels = [[ln.split()[:2] for ln in b[2:]] for b in blocks]
    assert blocks[0][1].split() == blocks[1][1].split() == ["month", "metric"]
    assert labels[0] == labels[1] and labels[0][0] == ["2024-01", "f1"] and len(labels[0]) == 8
    assert "YES" in text and "2024-04" in text
    assert "<table" in res._repr_html_()
    assert list(res.summary().to_frame().columns) == [
        "prev", "value", "by prev", "by clf", "std", "OPS", "std chg", "p adj", "changed",
    ]  # fmt: skip
    axes = res.plot()
    assert [a.get_ylabel() for a in axes] == ["f1", "mcc", "prevalence"]
    # one flag marker per flagged period on each metric's panel
    for a, metric in zip(axes[:2], ["f1", "mcc"], strict=True):
        n_flagged = int(res.flagged()["metric"].eq(metric).sum())
        markers = [ln for ln in a.get_lines() if ln.get_marker() == "v"]
        assert sum(len(ln.get_xdata()) for ln in markers) == n_flagged >= 1
    with pytest.raises(ValueError, match="`ax` must hold 3 Axes"):
        res.plot(ax=axes[:2])
    import matplotlib.pyplot as plt

    plt.close("all")


def test_group_without_rows_in_a_period_is_a_row_with_its_reason(frame):
    data = frame[~((frame["seg"] == "west") & (frame["month"] == MONTHS[2]))]
    res = monitor(
        data, truth="y", score="s", threshold=1.0, time="month", by="seg", metrics=["f1"], rng=0
    )
    t = res.to_frame()
    row = t[(t["seg"] == "west") & (t["month"] == MONTHS[2])].iloc[0]
    assert row["n"] == 0 and np.isnan(row["value"]) and pd.isna(row["classifier_changed"])
    assert row["reason"] == "no rows of this group in this period"
    # the group's other periods are tested and adjusted among themselves (two tests)
    assert t[t["seg"] == "west"]["p_adjusted"].notna().sum() == 2
    with pytest.raises(ValueError, match="`by` columns have missing values"):
        monitor(
            frame.assign(seg=frame["seg"].where(frame.index % 5 != 0, None)),
            truth="y",
            score="s",
            threshold=1.0,
            time="month",
            by="seg",
            metrics=["f1"],
        )


def test_whole_number_weights_are_rows(frame):
    """Frequency weights of 2 on every row: the same table as the rows written twice."""
    kw = {"truth": "y", "score": "s", "threshold": 1.0, "time": "month", "metrics": ["f1"]}
    weighted = monitor(frame.assign(w=2), weight="w", rng=0, **kw).to_frame()
    doubled = monitor(pd.concat([frame, frame], ignore_index=True), rng=0, **kw).to_frame()
    for col in ("n", "prevalence", "prevalence_ci_low", "value", "standardized", "change"):
        assert weighted[col].tolist() == pytest.approx(doubled[col].tolist(), abs=1e-12), col
