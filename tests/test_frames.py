"""evaluate on every engine: the count tables computed by the engine (opsstats.frames)
give the rows of the pandas path, to 1e-12, with groups (missing keys too), thresholds,
predicted labels and curves; and the same errors for bad input."""

import warnings

import duckdb
import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest
from engines import dask_frame, engine_params

from opsstats import ConfusionMatrix, ScoreCurve, evaluate
from opsstats.frames import count_tables, is_frame

pytestmark = pytest.mark.filterwarnings("ignore:Dask support is moving:FutureWarning")

ENGINES = {
    "polars": pl.from_pandas,
    "polars lazy": lambda df: pl.from_pandas(df).lazy(),
    "pyarrow": lambda df: pa.Table.from_pandas(df, preserve_index=False),
    "duckdb": lambda df: duckdb.from_df(df),
    "dask": dask_frame,
}


def _data(n=3000, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.2
    return pd.DataFrame(
        {
            "y": y.astype(int),
            "s": np.round(rng.normal(y * 1.5, 1), 2),  # ties
            "p": (rng.random(n) < 0.3).astype(int),
            "g": rng.choice(["a", "b", None], n),
            "h": rng.choice([1, 2], n),
        }
    )


CASES = {
    "threshold by g (missing keys)": {"score": "s", "threshold": 0.5, "by": "g"},
    "cm metrics by g, h (array path)": {
        "score": "s",
        "threshold": 0.5,
        "metrics": ["f1", "mcc", "precision"],
        "by": ["g", "h"],
    },
    "pred": {"pred": "p", "metrics": ["f1", "accuracy"], "by": "h"},
    "curves only": {"score": "s", "by": "h"},
    "no groups": {"score": "s", "threshold": 0.25},
}


def assert_same(ref: pd.DataFrame, out: pd.DataFrame) -> None:
    assert list(ref.columns) == list(out.columns)
    assert len(ref) == len(out)
    num = ref.select_dtypes("number").columns
    np.testing.assert_allclose(
        out[num].to_numpy(float), ref[num].to_numpy(float), rtol=0, atol=1e-12
    )
    for col in ref.columns.difference(num):
        a, b = ref[col].tolist(), out[col].tolist()
        assert [None if pd.isna(x) else x for x in a] == [None if pd.isna(x) else x for x in b]


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("engine", engine_params(ENGINES))
def test_every_engine_gives_the_pandas_rows(engine, case):
    df = _data()
    kw = CASES[case]
    ref = evaluate(df, truth="y", rng=3, n_resamples=200, **kw)
    out = evaluate(ENGINES[engine](df), truth="y", rng=3, n_resamples=200, **kw)
    assert_same(ref, out)


def test_count_tables_equal_direct_counts():
    df = _data(500, seed=1)
    t = count_tables(pl.from_pandas(df), truth="y", score="s", threshold=0.5, by=["h"], curves=True)
    assert t.keys == [(1,), (2,)]
    for g, h in enumerate((1, 2)):
        sub = df[df.h == h]
        y, pred = sub.y == 1, sub.s >= 0.5
        direct = [(y & pred).sum(), (~y & pred).sum(), (y & ~pred).sum(), (~y & ~pred).sum()]
        assert t.cells[g].tolist() == direct
        assert t.class_counts[g].tolist() == [y.sum(), (~y).sum()]
        s, pos, neg = t.scores[g]  # a row per (score, class): summed per score here
        got = pd.DataFrame({"s": s, "pos": pos, "neg": neg}).groupby("s").sum()
        by_score = sub.groupby("s")["y"].agg(["sum", "count"])
        np.testing.assert_array_equal(got.index.to_numpy(), by_score.index.to_numpy())
        np.testing.assert_array_equal(got["pos"].to_numpy(), by_score["sum"].to_numpy())
        np.testing.assert_array_equal(
            got["neg"].to_numpy(), (by_score["count"] - by_score["sum"]).to_numpy()
        )


def test_is_frame():
    assert is_frame(pl.DataFrame({"a": [1]}))
    assert not is_frame([1, 2, 3])
    with pytest.raises(TypeError, match=r"`data` must be a data frame .*got \[1, 2\]"):
        evaluate([1, 2], truth="y", score="s")


BAD = {
    "missing column": ({"truth": "zz", "score": "s"}, ValueError, r"`truth` names a column"),
    "non-numeric score": ({"truth": "y", "score": "g"}, (TypeError, ValueError), r"`score`"),
    "three labels": ({"truth": "t3", "score": "s"}, ValueError, r"`truth`"),
    "missing labels": ({"truth": "g", "score": "s"}, ValueError, r"missing value"),
    "NaN score": ({"truth": "y", "score": "sn"}, ValueError, r"`score` .* finite"),
}


@pytest.mark.parametrize("case", list(BAD))
@pytest.mark.parametrize("engine", engine_params(["pandas", *ENGINES]))
def test_bad_input_same_errors(engine, case):
    df = _data(200)
    df["t3"] = np.arange(200) % 3
    df["sn"] = df["s"].where(df.index != 7)
    kw, exc, pattern = BAD[case]
    data = df if engine == "pandas" else ENGINES[engine](df)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(exc, match=pattern):
            evaluate(data, **kw)


def test_empty_frame():
    df = _data(10).iloc[:0]
    with pytest.raises(ValueError, match="must not be empty"):
        evaluate(pl.from_pandas(df), truth="y", score="s")


@pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas:FutureWarning")
@pytest.mark.parametrize("case", list(CASES))
def test_spark_gives_the_pandas_rows(spark, case):
    df = _data()
    kw = CASES[case]
    ref = evaluate(df, truth="y", rng=3, n_resamples=200, **kw)
    out = evaluate(spark.createDataFrame(df), truth="y", rng=3, n_resamples=200, **kw)
    assert_same(ref, out)


@pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas:FutureWarning")
@pytest.mark.parametrize("case", list(BAD))
def test_spark_bad_input_same_errors(spark, case):
    df = _data(200)
    df["t3"] = np.arange(200) % 3
    df["sn"] = df["s"].where(df.index != 7)
    kw, exc, pattern = BAD[case]
    with pytest.raises(exc, match=pattern):
        evaluate(spark.createDataFrame(df), **kw)


@pytest.mark.parametrize("engine", engine_params(["pandas", *ENGINES]))
def test_weights_every_engine_equals_the_weighted_objects(engine):
    """Integer frequency weights: each group's rows equal ConfusionMatrix.from_predictions
    and ScoreCurve.from_scores with sample_weight (an independent path), on every engine."""
    df = _data(1500, seed=4)
    df["w"] = np.random.default_rng(5).integers(0, 4, len(df))
    data = df if engine == "pandas" else ENGINES[engine](df)
    out = evaluate(
        data,
        truth="y",
        score="s",
        threshold=0.5,
        by="h",
        weight="w",
        metrics=["f1", "mcc", "roc_auc", "pr_auc"],
        rng=2,
        n_resamples=200,
    )
    for h in (1, 2):
        sub = df[df["h"] == h]
        cm = ConfusionMatrix.from_predictions(sub["y"], sub["s"] >= 0.5, sample_weight=sub["w"])
        curve = ScoreCurve.from_scores(sub["y"], sub["s"], sample_weight=sub["w"])
        rows = out[out["h"] == h].set_index("metric")
        assert rows.loc["f1", "value"] == pytest.approx(cm.metric("f1"), abs=1e-12)
        assert rows.loc["mcc", "ops"] == pytest.approx(cm.ops("mcc").estimate, abs=1e-12)
        assert rows.loc["roc_auc", "value"] == pytest.approx(curve.auc("roc"), abs=1e-12)
        assert rows.loc["pr_auc", "value"] == pytest.approx(curve.auc("pr"), abs=1e-12)
        assert rows.loc["f1", "n"] == sub["w"].sum()
    if engine != "pandas":
        ref = evaluate(
            df,
            truth="y",
            score="s",
            threshold=0.5,
            by="h",
            weight="w",
            metrics=["f1", "mcc", "roc_auc", "pr_auc"],
            rng=2,
            n_resamples=200,
        )
        assert_same(ref, out)


def test_fractional_weights_keep_values_and_say_why_curves_have_no_interval():
    df = _data(800, seed=6)
    df["w"] = np.random.default_rng(7).random(len(df)) * 2
    out = evaluate(pl.from_pandas(df), truth="y", score="s", threshold=0.5, weight="w", rng=0)
    cm = ConfusionMatrix.from_predictions(df["y"], df["s"] >= 0.5, sample_weight=df["w"])
    f1 = out.set_index("metric").loc["f1"]
    assert f1["value"] == pytest.approx(cm.metric("f1"), rel=1e-12)
    assert f1["ops_ci_low"] < f1["ops"] < f1["ops_ci_high"]  # Dirichlet takes real counts
    roc = out.set_index("metric").loc["roc_auc"]
    assert np.isfinite(roc["ops"]) and "whole-number counts" in roc["reason"]


@pytest.mark.parametrize(
    ("column", "exc", "match"),
    [
        ("neg", ValueError, "non-negative"),
        ("nan", ValueError, "finite"),
        ("g", TypeError, "`weight`"),
    ],
)
@pytest.mark.parametrize("engine", ["pandas", "polars", "duckdb"])
def test_bad_weights(engine, column, exc, match):
    df = _data(50)
    df["neg"] = -1.0
    df["nan"] = np.where(np.arange(50) == 3, np.nan, 1.0)
    data = df if engine == "pandas" else ENGINES[engine](df)
    with pytest.raises(exc, match=match):
        evaluate(data, truth="y", score="s", weight=column)


@pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas:FutureWarning")
def test_spark_weights_give_the_pandas_rows(spark):
    df = _data(1500, seed=4)
    df["w"] = np.random.default_rng(5).integers(0, 4, len(df))
    kw = {"truth": "y", "score": "s", "threshold": 0.5, "by": "h", "weight": "w", "rng": 2}
    ref = evaluate(df, n_resamples=200, **kw)
    assert_same(ref, evaluate(spark.createDataFrame(df), n_resamples=200, **kw))
