"""MultiLabel.from_frame on every engine: the engine counts the distinct joint rows (one
GROUP BY, opsstats.frames.joint_counts) and everything computed from them equals the
array builders (from_predictions, from_scores) on the same rows, to 1e-12, intervals
with the same rng included; weights; and the same errors as evaluate's frame path."""

import time
import warnings

import duckdb
import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest
from engines import dask_frame, engine_params

from opsstats import UndefinedMetricWarning
from opsstats.frames import joint_counts
from opsstats.multilabel import MultiLabel
from opsstats.reference.dbt import DirectedBinaryTree

pytestmark = pytest.mark.filterwarnings("ignore:Dask support is moving:FutureWarning")

SMALL_DBT = DirectedBinaryTree(depth=5, n_curves=3000, seed=2)
LABELS = ["a", "b", "c"]
TRUTH, PRED, SCORE = LABELS, ["pa", "pb", "pc"], ["sa", "sb", "sc"]

ENGINES = {
    "pandas": lambda df: df,
    "polars": pl.from_pandas,
    "polars lazy": lambda df: pl.from_pandas(df).lazy(),
    "pyarrow": lambda df: pa.Table.from_pandas(df, preserve_index=False),
    "duckdb": lambda df: duckdb.from_df(df),
    "dask": dask_frame,
}
NUMERIC = ["n", "prevalence", "value", "ops", "ops_se", "ops_ci_low", "ops_ci_high", "weight"]


def _data(n=1500, seed=0):
    """Three labels (one boolean truth column, the others 0/1), predictions, scores with
    ties, integer weights with zeros and fractional weights."""
    rng = np.random.default_rng(seed)
    y = rng.random((n, 3)) < [0.1, 0.3, 0.5]
    y[:, 1] |= y[:, 0] & (rng.random(n) < 0.5)  # dependent labels
    p = np.where(rng.random(y.shape) < 0.8, y, ~y)
    s = np.round(np.where(y, rng.normal(1, 1, y.shape), rng.normal(0, 1, y.shape)), 1)
    df = pd.DataFrame({"a": y[:, 0].astype(int), "b": y[:, 1].astype(int), "c": y[:, 2]})
    for j, lab in enumerate(LABELS):
        df["p" + lab] = p[:, j].astype(int)
        df["s" + lab] = s[:, j]
    df["w"] = rng.integers(0, 4, n)
    df["fw"] = rng.random(n) * 2
    return df, y, p, s


def assert_same_result(ref, out):
    """Two MultiLabelOPS: estimate, interval and per-label table to 1e-12."""
    assert out.estimate == pytest.approx(ref.estimate, abs=1e-12, nan_ok=True)
    assert (ref.ci is None) == (out.ci is None)
    if ref.ci is not None:
        assert out.ci.low == pytest.approx(ref.ci.low, abs=1e-12)
        assert out.ci.high == pytest.approx(ref.ci.high, abs=1e-12)
    assert out.excluded == ref.excluded and out.ci_method == ref.ci_method
    assert list(out.table["label"]) == list(ref.table["label"])
    np.testing.assert_allclose(
        out.table[NUMERIC].to_numpy(float),
        ref.table[NUMERIC].to_numpy(float),
        rtol=1e-12,
        atol=1e-12,
    )
    assert list(out.table["method"]) == list(ref.table["method"])
    assert list(out.table["reason"]) == list(ref.table["reason"])
    if ref.micro is not None:
        assert out.micro.estimate == pytest.approx(ref.micro.estimate, abs=1e-12)


def assert_same_tables(ref: pd.DataFrame, out: pd.DataFrame) -> None:
    assert list(ref.columns) == list(out.columns) and len(ref) == len(out)
    num = ref.select_dtypes("number").columns
    np.testing.assert_allclose(
        out[num].to_numpy(float), ref[num].to_numpy(float), rtol=1e-12, atol=1e-12
    )
    for col in ref.columns.difference(num):
        a, b = ref[col].tolist(), out[col].tolist()
        assert [None if pd.isna(x) else x for x in a] == [None if pd.isna(x) else x for x in b]


@pytest.mark.parametrize("engine", engine_params(ENGINES))
def test_predictions_every_engine_equal_the_arrays(engine):
    df, y, p, _s = _data()
    ml = MultiLabel.from_frame(ENGINES[engine](df), truth=TRUTH, pred=PRED)
    ref = MultiLabel.from_predictions(y, p, labels=LABELS)
    assert ml.labels == LABELS and ml.n == ref.n == len(df)
    assert len(ml.truth) < 70  # the distinct joint patterns, not the rows
    assert ml.confusion_matrices() == ref.confusion_matrices() and ml.micro() == ref.micro()
    for kw in (
        {"average": "weighted", "ci": "bootstrap"},
        {"average": "macro", "ci": "dirichlet"},
        {"metric": "mcc", "average": None},
    ):
        kw = {"metric": "f1", **kw}
        assert_same_result(
            ref.ops(**kw, n_resamples=300, rng=4), ml.ops(**kw, n_resamples=300, rng=4)
        )
    assert_same_tables(
        ref.evaluate(["f1", "precision"], ci="dirichlet", n_resamples=200, rng=2),
        ml.evaluate(["f1", "precision"], ci="dirichlet", n_resamples=200, rng=2),
    )


@pytest.mark.parametrize("engine", engine_params(ENGINES))
def test_scores_every_engine_equal_the_arrays(engine):
    df, y, _p, s = _data()
    ml = MultiLabel.from_frame(ENGINES[engine](df), truth=TRUTH, score=SCORE, threshold=0.5)
    ref = MultiLabel.from_scores(y, s, labels=LABELS, threshold=0.5)
    assert ml.curves() == ref.curves() and ml.confusion_matrices() == ref.confusion_matrices()
    for kw in (
        {"metric": "roc_auc", "ci": "bootstrap", "reference": SMALL_DBT},
        {"metric": "precision", "at": {"recall": 0.8}, "reference": SMALL_DBT, "ci": "bootstrap"},
        {"metric": "f1", "ci": "bootstrap"},
    ):
        assert_same_result(
            ref.ops(**kw, n_resamples=200, rng=5), ml.ops(**kw, n_resamples=200, rng=5)
        )
    assert_same_tables(
        ref.evaluate(["f1", "roc_auc"], ci="dirichlet", curve_reference=SMALL_DBT, rng=2),
        ml.evaluate(["f1", "roc_auc"], ci="dirichlet", curve_reference=SMALL_DBT, rng=2),
    )


@pytest.mark.parametrize("engine", engine_params(ENGINES))
def test_weights_every_engine_equal_sample_weight(engine):
    """Integer weights (zeros included): estimates and both intervals equal the arrays
    with sample_weight; fractional weights: estimates and Dirichlet intervals, and the
    row bootstrap refused as on the arrays."""
    df, y, p, s = _data(seed=1)
    data = ENGINES[engine](df)
    ml = MultiLabel.from_frame(data, truth=TRUTH, pred=PRED, weight="w")
    ref = MultiLabel.from_predictions(y, p, labels=LABELS, sample_weight=df["w"])
    assert ml.n == ref.n == df["w"].sum()
    for ci in ("bootstrap", "dirichlet"):
        assert_same_result(
            ref.ops("f1", ci=ci, n_resamples=300, rng=6),
            ml.ops("f1", ci=ci, n_resamples=300, rng=6),
        )
    mls = MultiLabel.from_frame(data, truth=TRUTH, score=SCORE, weight="w")
    refs = MultiLabel.from_scores(y, s, labels=LABELS, sample_weight=df["w"])
    assert mls.curves() == refs.curves()
    kw = {"reference": SMALL_DBT, "ci": "bootstrap", "n_resamples": 200, "rng": 6}
    assert_same_result(refs.ops("pr_auc", **kw), mls.ops("pr_auc", **kw))

    frac = MultiLabel.from_frame(data, truth=TRUTH, pred=PRED, weight="fw")
    frac_ref = MultiLabel.from_predictions(y, p, labels=LABELS, sample_weight=df["fw"])
    assert_same_result(
        frac_ref.ops("f1", ci="dirichlet", n_resamples=300, rng=6),
        frac.ops("f1", ci="dirichlet", n_resamples=300, rng=6),
    )
    with pytest.raises(ValueError, match="needs whole-number `sample_weight`"):
        frac.ops("f1", ci="bootstrap")


def test_a_label_with_one_class_absent():
    """The undefined label's row (n, prevalence, support, reason) and the warning are the
    arrays', weighted too."""
    df, y, p, _s = _data(400, seed=2)
    df["a"], y[:, 0] = 0, False
    for weight, sw in ((None, None), ("w", df["w"])):
        ml = MultiLabel.from_frame(pl.from_pandas(df), truth=TRUTH, pred=PRED, weight=weight)
        ref = MultiLabel.from_predictions(y, p, labels=LABELS, sample_weight=sw)
        with pytest.warns(UndefinedMetricWarning, match="undefined for label\\(s\\) a"):
            out = ml.ops("f1", ci="bootstrap", n_resamples=200, rng=1)
        with pytest.warns(UndefinedMetricWarning):
            expected = ref.ops("f1", ci="bootstrap", n_resamples=200, rng=1)
        assert_same_result(expected, out)
        row = out.table.set_index("label").loc["a"]
        assert "no positives" in row["reason"] and row["support"] == 0


def test_labels_and_joint_counts():
    df, y, p, _s = _data(300, seed=3)
    ml = MultiLabel.from_frame(pl.from_pandas(df), truth=TRUTH, pred=PRED, labels=["x", "y", "z"])
    assert ml.labels == ["x", "y", "z"]
    same = MultiLabel.from_frame(df, truth=pd.Index(TRUTH), pred=np.array(PRED))
    renamed = dict(zip(LABELS, ml.confusion_matrices().values(), strict=True))
    assert same.labels == LABELS and same.confusion_matrices() == renamed
    counted = joint_counts(duckdb.from_df(df), truth=TRUTH, pred=PRED, weight="w")
    rows = pd.DataFrame(np.hstack([y, p]).astype(int)).assign(w=df["w"])
    direct = rows.groupby(list(range(6)))["w"].sum()
    got = pd.Series(
        counted.counts,
        index=pd.MultiIndex.from_arrays(
            list(np.hstack([counted.truth, counted.pred]).T.astype(int))
        ),
    ).sort_index()
    np.testing.assert_array_equal(
        got.index.to_frame().to_numpy(), direct.index.to_frame().to_numpy()
    )
    np.testing.assert_array_equal(got.to_numpy(), direct.to_numpy())


def _bad_data():
    df, *_ = _data(200)
    df["t3"] = np.arange(200) % 3
    df["t12"] = np.arange(200) % 2 + 1
    df["tg"] = np.where(np.arange(200) % 2 == 0, "yes", "no")
    df["tm"] = np.where(np.arange(200) == 5, np.nan, df["a"])
    df["sn"] = df["sa"].where(df.index != 7)
    df["sg"] = "x"
    df["neg"] = -1.0
    return df


BAD = {
    "missing column": (
        {"truth": ["a", "zz", "c"], "pred": PRED},
        ValueError,
        r"`truth` names a column that is not in `data`: 'zz'",
    ),
    "missing score column": (
        {"truth": TRUTH, "score": ["sa", "sb", "nope"]},
        ValueError,
        r"`score` names a column that is not in `data`: 'nope'",
    ),
    "non-numeric score": (
        {"truth": TRUTH, "score": ["sa", "sg", "sc"]},
        TypeError,
        r"`score` \(column 'sg'\) must be numeric",
    ),
    "three labels": (
        {"truth": ["a", "t3", "c"], "pred": PRED},
        ValueError,
        r"`truth` \(column 't3'\) must hold binary labels .*3 distinct values: 0, 1, 2",
    ),
    "1/2 labels": (
        {"truth": TRUTH, "pred": ["pa", "t12", "pc"]},
        ValueError,
        r"`pred` \(column 't12'\) must hold 0/1 indicators or booleans; got values 1, 2",
    ),
    "string labels": (
        {"truth": ["tg", "b", "c"], "pred": PRED},
        TypeError,
        r"`truth` \(column 'tg'\) must hold 0/1 indicators or booleans; got dtype",
    ),
    "missing labels": (
        {"truth": ["a", "b", "tm"], "pred": PRED},
        ValueError,
        r"`truth` \(column 'tm'\) must not contain missing values; got 1 missing",
    ),
    "NaN score": (
        {"truth": TRUTH, "score": ["sn", "sb", "sc"]},
        ValueError,
        r"`score` \(column 'sn'\) must contain only finite numbers",
    ),
    "negative weight": (
        {"truth": TRUTH, "pred": PRED, "weight": "neg"},
        ValueError,
        r"`weight` \(column 'neg'\) must be non-negative",
    ),
}


@pytest.mark.parametrize("case", list(BAD))
@pytest.mark.parametrize("engine", engine_params(ENGINES))
def test_bad_input_clear_errors(engine, case):
    kw, exc, pattern = BAD[case]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(exc, match=pattern):
            MultiLabel.from_frame(ENGINES[engine](_bad_data()), **kw)


@pytest.mark.parametrize(
    "kw, exc, match",
    [
        (
            {"truth": TRUTH, "pred": PRED[:2]},
            ValueError,
            "one column per column of `truth` \\(3\\)",
        ),
        ({"truth": TRUTH, "pred": PRED, "score": SCORE}, ValueError, "not both"),
        ({"truth": TRUTH}, ValueError, "give `pred` or `score`"),
        ({"truth": TRUTH, "pred": PRED, "threshold": 0.5}, ValueError, "`threshold` needs"),
        ({"truth": [1.5], "pred": ["pa"]}, TypeError, "`truth` must be a list of column names"),
        ({"truth": TRUTH, "pred": PRED, "labels": ["x"]}, ValueError, "`labels` must name the 3"),
        ({"truth": ["a", "a"], "pred": ["pa", "pb"]}, ValueError, "must be unique"),
    ],
)
def test_argument_errors(kw, exc, match):
    df, *_ = _data(50)
    with pytest.raises(exc, match=match):
        MultiLabel.from_frame(pl.from_pandas(df), **kw)


def test_not_a_frame_and_empty():
    with pytest.raises(TypeError, match=r"`data` must be a data frame .*got \[1, 2\]"):
        MultiLabel.from_frame([1, 2], truth=["a"], pred=["pa"])
    df, *_ = _data(10)
    with pytest.raises(ValueError, match="must not be empty"):
        MultiLabel.from_frame(pl.from_pandas(df.iloc[:0]), truth=TRUTH, pred=PRED)


@pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas:FutureWarning")
def test_spark_equals_the_arrays(spark):
    """One small frame through PySpark local[2]: predictions, weighted scores, and the
    bootstrap intervals of both, equal to the arrays."""
    df, y, p, s = _data(600, seed=4)
    data = spark.createDataFrame(df.drop(columns="fw"))
    start = time.perf_counter()
    ml = MultiLabel.from_frame(data, truth=TRUTH, pred=PRED)
    mls = MultiLabel.from_frame(data, truth=TRUTH, score=SCORE, weight="w")
    assert time.perf_counter() - start < 120
    ref = MultiLabel.from_predictions(y, p, labels=LABELS)
    refs = MultiLabel.from_scores(y, s, labels=LABELS, sample_weight=df["w"])
    assert_same_result(
        ref.ops("f1", ci="bootstrap", n_resamples=200, rng=1),
        ml.ops("f1", ci="bootstrap", n_resamples=200, rng=1),
    )
    kw = {"reference": SMALL_DBT, "ci": "bootstrap", "n_resamples": 200, "rng": 1}
    assert_same_result(refs.ops("roc_auc", **kw), mls.ops("roc_auc", **kw))


@pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas:FutureWarning")
@pytest.mark.parametrize(
    "case", ["missing column", "non-numeric score", "three labels", "missing labels"]
)
def test_spark_bad_input_clear_errors(spark, case):
    kw, exc, pattern = BAD[case]
    with pytest.raises(exc, match=pattern):
        MultiLabel.from_frame(spark.createDataFrame(_bad_data()), **kw)
