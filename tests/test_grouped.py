"""Tidy grouped evaluation: equal to the single objects per group, NaN rows with
reasons, errors."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from opsstats import ConfusionMatrix, ScoreCurve, UndefinedMetricWarning
from opsstats.grouped import COLUMNS, evaluate
from opsstats.reference.dbt import DirectedBinaryTree

SMALL_DBT = DirectedBinaryTree(depth=5, n_curves=3000, seed=3)


@pytest.fixture(scope="module")
def frame():
    rng = np.random.default_rng(0)
    n = 3000
    month = rng.choice(["2026-01", "2026-02", "2026-03"], n)
    prev = pd.Series(month).map({"2026-01": 0.1, "2026-02": 0.2, "2026-03": 0.35}).to_numpy()
    y = rng.random(n) < prev
    s = rng.normal(np.where(y, 1.2, 0.0), 1.0)
    return pd.DataFrame(
        {"month": month, "y": y.astype(int), "score": s, "site": rng.choice(["north", "south"], n)}
    )


def test_rows_equal_the_single_objects_per_group(frame):
    out = evaluate(
        frame,
        truth="y",
        score="score",
        threshold=0.6,
        metrics=["f1", "mcc", "pr_auc", ("precision", {"recall": 0.8})],
        by="month",
        ci=None,
        curve_reference=SMALL_DBT,
    )
    assert list(out.columns) == ["month", *COLUMNS]
    assert len(out) == 3 * 4
    for month, g in frame.groupby("month"):
        cm = ConfusionMatrix.from_predictions(g["y"], (g["score"] >= 0.6).astype(int))
        curve = ScoreCurve.from_scores(g["y"], g["score"])
        rows = out[out["month"] == month].set_index("metric")
        assert rows.loc["f1", "ops"] == cm.ops("f1").estimate
        assert rows.loc["mcc", "value"] == cm.metric("mcc")
        assert rows.loc["pr_auc", "ops"] == curve.ops("pr_auc", reference=SMALL_DBT).estimate
        assert (
            rows.loc["precision@recall=0.8", "ops"]
            == curve.ops("precision", at={"recall": 0.8}, reference=SMALL_DBT).estimate
        )
        assert rows.loc["f1", "n"] == len(g)
        assert rows.loc["f1", "prevalence"] == pytest.approx(g["y"].mean())


def test_intervals_by_group_and_two_grouping_columns(frame):
    out = evaluate(
        frame,
        truth="y",
        score="score",
        threshold=0.6,
        metrics=["f1"],
        by=["month", "site"],
        ci="dirichlet",
        n_resamples=2000,
        rng=1,
    )
    assert len(out) == 6
    assert (out["ops_ci_low"] <= out["ops"]).all() and (out["ops"] <= out["ops_ci_high"]).all()
    assert (out["value_ci_low"] <= out["value"]).all()
    assert out["method"].str.contains("Dirichlet-multinomial, Jeffreys prior, 2000 draws").all()
    again = evaluate(
        frame,
        truth="y",
        score="score",
        threshold=0.6,
        metrics=["f1"],
        by=["month", "site"],
        ci="dirichlet",
        n_resamples=2000,
        rng=1,
    )
    pd.testing.assert_frame_equal(out, again)


def test_group_with_a_class_absent_is_kept_with_a_reason(frame):
    df = frame.copy()
    df.loc[df["month"] == "2026-02", "y"] = 0
    with pytest.warns(UndefinedMetricWarning, match="month='2026-02' / f1: no positives"):
        out = evaluate(df, truth="y", pred="y", metrics=["f1"], by="month", ci=None)
    row = out[out["month"] == "2026-02"].iloc[0]
    assert np.isnan(row["ops"]) and row["reason"].startswith("no positives")
    assert row["n"] == (df["month"] == "2026-02").sum()


def test_repeated_index_labels_are_fine(frame):
    # positions locate a group's rows: a frame glued from parts (repeated index labels)
    # gives the rows of the same frame with a fresh index
    glued = pd.concat([frame.iloc[:1500], frame.iloc[1500:]]).set_axis(
        np.r_[np.arange(1500), np.arange(1500)]
    )
    kw = {
        "truth": "y",
        "score": "score",
        "threshold": 0.6,
        "metrics": ["f1", "roc_auc"],
        "by": "month",
        "ci": "dirichlet",
        "n_resamples": 500,
        "rng": 2,
        "curve_reference": SMALL_DBT,
    }
    pd.testing.assert_frame_equal(evaluate(glued, **kw), evaluate(frame, **kw))


def test_group_without_an_interval_keeps_its_value_and_ops(frame):
    # one positive: the default curve interval (logit-t) needs two rows of each class,
    # so that group's row keeps the ROC AUC and its OPS and says why there is no interval
    df = frame.copy()
    march = np.flatnonzero(df["month"] == "2026-03")
    df.loc[march, "y"] = 0
    df.loc[march[0], "y"] = 1
    out = evaluate(
        df,
        truth="y",
        score="score",
        metrics=["roc_auc"],
        by="month",
        n_resamples=500,
        rng=0,
        curve_reference=SMALL_DBT,
    )
    row = out[out["month"] == "2026-03"].iloc[0]
    g = df.iloc[march]
    curve = ScoreCurve.from_scores(g["y"], g["score"])
    assert row["value"] == curve.auc("roc")
    assert row["ops"] == curve.ops("roc_auc", reference=SMALL_DBT).estimate
    assert np.isnan(row["ops_ci_low"]) and np.isnan(row["value_ci_low"])
    assert row["reason"].startswith(
        "no interval: the Dirichlet posterior (`ci='dirichlet'`, "
        "the default below 100 rows of a class) needs at least "
        "2 positives and 2 negatives"
    )
    other = out[out["month"] != "2026-03"]
    assert other["ops_ci_low"].notna().all() and (other["reason"] == "").all()


def test_predicted_labels_column_and_pos_label(frame):
    df = frame.assign(
        truth=np.where(frame["y"] == 1, "sick", "well"),
        pred=np.where(frame["score"] >= 0.6, "sick", "well"),
    )
    out = evaluate(df, truth="truth", pred="pred", pos_label="sick", metrics=["recall"], ci=None)
    cm = ConfusionMatrix.from_predictions(df["truth"], df["pred"], pos_label="sick")
    assert out.loc[0, "value"] == cm.metric("recall")
    need = evaluate(df, truth="truth", pred="pred", pos_label="sick", metrics=["f1"], ci=None)
    assert need.loc[0, "reason"] == ""


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        (
            {"truth": "nope", "score": "score", "threshold": 0.5},
            ValueError,
            "`truth` names a column that is not in `data`: 'nope'",
        ),
        (
            {"truth": "y", "score": "score", "threshold": 0.5, "by": "region"},
            ValueError,
            "`by` names a column that is not in `data`: 'region'",
        ),
        (
            {"truth": "y", "pred": "y", "score": "score", "threshold": 0.5},
            ValueError,
            "give `pred` or `score` with `threshold`, not both",
        ),
        (
            {"truth": "y", "pred": "y", "metrics": ["pr_auc"]},
            ValueError,
            "curve quantities \\(pr_auc\\) need `score`",
        ),
        ({"truth": "y", "score": "score", "metrics": ["f3"]}, ValueError, "unknown metric 'f3'"),
        (
            {"truth": "y", "score": "score", "metrics": [42]},
            TypeError,
            "each entry of `metrics` must be a name or a \\(name, at\\) pair",
        ),
        (
            {"truth": "y", "score": "score", "metrics": [("pr_auc", {"recall": 0.5})]},
            ValueError,
            "`at` applies to a metric read off a curve",
        ),
        (
            {"truth": "y", "score": "score", "threshold": 0.5, "ci": "exact"},
            ValueError,
            "`ci` must be one of 'dirichlet', 'bootstrap', 'delong'; got 'exact'",
        ),
        (
            {"truth": "y", "score": "score", "threshold": 0.5, "n_resamples": 5},
            ValueError,
            "`n_resamples` must be an integer >= 100",
        ),
        ({"truth": "y", "metrics": ["f1"]}, ValueError, "give `score`"),
    ],
)
def test_errors(frame, kwargs, exc, match):
    with pytest.raises(exc, match=match):
        evaluate(frame, **kwargs)


def test_data_must_be_a_frame():
    with pytest.raises(TypeError, match=r"`data` must be a data frame \(pandas, polars, .*; got"):
        evaluate({"y": [1, 0]}, truth="y", pred="y")


def test_curve_ci_jackknife_for_areas_and_bootstrap_for_operating_points(frame):
    out = evaluate(
        frame,
        truth="y",
        score="score",
        metrics=["pr_auc", ("precision", {"recall": 0.8})],
        by="month",
        curve_ci="jackknife",
        n_resamples=300,
        rng=2,
        curve_reference=SMALL_DBT,
    )
    for month, g in frame.groupby("month"):
        curve = ScoreCurve.from_scores(g["y"], g["score"])
        rows = out[out["month"] == month].set_index("metric")
        iv = curve.interval("pr_auc", method="jackknife")
        assert (
            rows.loc["pr_auc", "value_ci_low"],
            rows.loc["pr_auc", "value_ci_high"],
        ) == pytest.approx(tuple(iv.ci), rel=1e-12)
        assert (
            "; interval: stratified jackknife (leave one row out), normal"
            in rows.loc["pr_auc", "method"]
        )
        assert rows.loc["precision@recall=0.8", "method"].endswith(
            "(the jackknife applies to curve areas only)"
        )


# ------------------------------------- what evaluate returns: a readable DataFrame


def test_evaluate_prints_readably_and_has_summary_to_frame_plot(frame):
    """print(evaluate(..., by="month")) shows every group and metric (not "month ...
    reason"), within 80 columns, with the report's layout; the result is still the
    DataFrame users index, and has summary(), to_frame() and plot()."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from opsstats.report import report

    kw = {
        "truth": "y",
        "score": "score",
        "threshold": 0.6,
        "metrics": ["f1", "roc_auc"],
        "by": "month",
    }
    out = evaluate(frame, rng=0, curve_reference=SMALL_DBT, **kw)
    text = str(out)
    lines = text.splitlines()
    assert lines[0] == "Evaluation of scores 'score' at threshold 0.6 against 'y' by 'month'"
    assert max(map(len, lines)) <= 80 and "..." not in text
    for month in ("2026-01", "2026-02", "2026-03"):
        assert month in text
    assert repr(out) == text and "<table" in out._repr_html_()
    # the report's table, row for row (its title adds n)
    rep = report(frame, rng=0, curve_reference=SMALL_DBT, **kw)
    assert text.splitlines()[1:] == str(rep).splitlines()[1:]
    # every printed number is the table's, rounded: F1 and OPS of the first row
    first = out.iloc[0]
    assert f"{first['value']:.4f}" in lines[4] and f"{first['ops']:.4f}" in lines[4]
    assert f"{first['value_ci_low']:.4f}-{first['value_ci_high']:.4f}" in lines[4]
    # still the DataFrame: columns, filters, arithmetic, pandas' output
    assert isinstance(out, pd.DataFrame) and list(out.columns) == ["month", *COLUMNS]
    f1 = out[out["metric"] == "f1"]
    assert len(f1) == 3 and f1["ops"].between(0, 1).all()
    assert out.to_csv(index=False) == pd.DataFrame(out).to_csv(index=False)
    part = out[["month", "metric", "ops"]]
    assert str(part) == pd.DataFrame(part).to_string()  # a part prints as pandas prints it
    plain = out.to_frame()
    assert type(plain) is pd.DataFrame
    pd.testing.assert_frame_equal(plain, pd.DataFrame(out))
    # summary(): text, HTML and the readable table at full precision
    summary = out.summary(digits=3)
    assert summary.to_frame()["OPS"].tolist() == out["ops"].tolist()
    assert f"{first['ops']:.3f}" in summary.as_text()
    # plot(): the forest plot of the OPS, one row per row; pandas' plot with its arguments
    ax = out.plot()
    assert next(t.get_text() for t in ax.get_yticklabels()).startswith("2026-01")
    assert len(ax.get_yticks()) == len(out)
    plt.close(ax.figure)
    ax = out.plot(x="n", y="ops", kind="scatter")
    assert ax.get_xlabel() == "n"
    plt.close(ax.figure)
    ax = out.plot.scatter(x="n", y="ops")
    plt.close(ax.figure)
    with pytest.raises(ValueError, match=r"summary\(\) needs the columns .* lacks 'n'"):
        part.summary()


def test_evaluation_pickles_and_is_made_on_first_use(frame):
    """Evaluation and GroupComparison are DataFrame subclasses made on first use (so
    that import opsstats imports no pandas: tests/test_import.py): the class evaluate
    returns is the one the module names, isinstance works, and a pickled result comes
    back as the same class with its table, attrs and printed view; a derived frame keeps
    the class."""
    import pickle
    import subprocess
    import sys

    from opsstats.grouped import Evaluation, GroupComparison, _result

    kw = {"truth": "y", "score": "score", "threshold": 0.6, "metrics": ["f1"], "by": "month"}
    out = evaluate(frame, rng=0, **kw)
    assert type(out) is Evaluation and isinstance(out, pd.DataFrame)
    assert Evaluation is _result.Evaluation and Evaluation.__module__ == "opsstats.grouped._result"
    back = pickle.loads(pickle.dumps(out))
    assert type(back) is Evaluation
    pd.testing.assert_frame_equal(back.to_frame(), out.to_frame(), check_exact=True)
    assert str(back) == str(out) and back.attrs["title"] == out.attrs["title"]
    assert back.attrs["confusion_matrices"] == out.attrs["confusion_matrices"]
    assert type(out[out["month"] == "2026-01"]) is Evaluation
    compared = evaluate(frame.assign(model="A"), compare="month", rng=0, **{**kw, "by": None})
    assert type(compared) is GroupComparison and not isinstance(compared, Evaluation)
    again = pickle.loads(pickle.dumps(compared))
    assert type(again) is GroupComparison and str(again) == str(compared)
    # in a fresh process: reading the name makes the class (and imports pandas then)
    code = (
        "import sys, opsstats.grouped as g\n"
        "before = 'pandas' in sys.modules\n"
        "cls = g.Evaluation\n"
        "print(before, 'pandas' in sys.modules, cls.__name__, cls.__mro__[1].__name__)"
    )
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert ran.stdout.split() == ["False", "True", "Evaluation", "_EvaluationMethods"]


def test_evaluate_at_a_prevalence_prints_the_standardized_columns(frame):
    """evaluate(..., prevalence=pi) prints the value and OPS at pi with their intervals
    and Monte Carlo s.e., named by pi, in blocks within 80 columns, and says what they
    are; every printed number is the table's."""
    out = evaluate(
        frame,
        truth="y",
        score="score",
        threshold=0.6,
        metrics=["f1", "roc_auc"],
        by="month",
        prevalence=0.5,
        rng=0,
        curve_reference=SMALL_DBT,
    )
    text = str(out)
    assert max(map(len, text.splitlines())) <= 80
    view = out.summary().to_frame()
    for column, source in [
        ("value at 0.5", "standardized"),
        ("at 0.5 CI low", "standardized_ci_low"),
        ("OPS at 0.5", "standardized_ops"),
        ("OPS at 0.5 CI high", "standardized_ops_ci_high"),
        ("MC s.e. at 0.5", "standardized_ops_se"),  # the DBT's OPS of the ROC AUC
    ]:
        assert view[column].tolist() == out[source].tolist(), column
    for header in ("value at 0.5", "at 0.5 CI", "OPS at 0.5", "OPS at 0.5 CI"):
        assert f" {header} " in text or text.count(f" {header}\n")
    for _, row in out.iterrows():  # the interval cells, rounded
        assert f"{row['standardized_ci_low']:.4f}-{row['standardized_ci_high']:.4f}" in text
        assert f"{row['standardized_ops_ci_low']:.4f}-{row['standardized_ops_ci_high']:.4f}" in text
    words = " ".join(text.split())
    assert "At 0.5: each group's metric standardized to prevalence 0.5" in words
    # without prevalence= the table has none of them
    plain = evaluate(frame, truth="y", score="score", threshold=0.6, metrics=["f1"], rng=0)
    assert "at 0.5" not in str(plain) and "standardized" not in str(plain)
