"""evaluate(..., prevalence=pi): every group's metrics standardized to one prevalence
(docs/method.md#standardized-prevalence), on every engine path.

Each group's standardized columns are its matrix's (or curve's) ``at_prevalence(pi)``
value and OPS, with the interval the standardized object gives from the group's own
generator (the same draws as the row's other intervals); the pandas rows, a lazy
engine's count tables and the many-groups arrays give the same table (the arrays bit
for bit as the per-group path: tests/test_cm_groups.py)."""

from __future__ import annotations

import warnings

import duckdb
import numpy as np
import pandas as pd
import polars as pl
import pytest

from opsstats import ConfusionMatrix, DirectedBinaryTree, ScoreCurve, evaluate
from opsstats.grouped import COLUMNS, STANDARD_COLUMNS
from opsstats.uncertainty._draws import root_seed, unit_rng

REF = DirectedBinaryTree(depth=6, n_curves=3000, seed=4)
PI = 0.2


@pytest.fixture(scope="module")
def frame() -> pd.DataFrame:
    """One classifier (positives N(1.5, 1)) over three months whose prevalences are
    0.05, 0.2 and 0.4."""
    rng = np.random.default_rng(0)
    month = np.repeat(["a", "b", "c"], 1500)
    y = rng.random(month.size) < np.select([month == "a", month == "b"], [0.05, 0.2], 0.4)
    return pd.DataFrame({"y": y.astype(int), "s": rng.normal(1.5 * y, 1), "m": month})


def _evaluate(data, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return evaluate(data, truth="y", score="s", by="m", rng=1, curve_reference=REF, **kw)


def test_columns_and_values_are_each_groups_standardized_objects(frame):
    metrics = ["f1", "mcc", "precision", "pr_auc", "roc_auc", ("precision", {"recall": 0.5})]
    out = _evaluate(frame, threshold=1.0, metrics=metrics, prevalence=PI)
    at = COLUMNS.index("method")
    assert list(out.columns) == ["m", *COLUMNS[:at], *STANDARD_COLUMNS, *COLUMNS[at:]]
    assert (out["standard_prevalence"] == PI).all()
    root = root_seed(1)
    for key, g in frame.groupby("m"):
        rows = out[out["m"] == key].set_index("metric")
        y, s = g["y"].to_numpy() == 1, g["s"].to_numpy()
        std_cm = ConfusionMatrix.from_predictions(y, s >= 1.0).at_prevalence(PI)
        for name in ("f1", "mcc", "precision"):
            r = rows.loc[name]
            want = std_cm.ops(
                name,
                ci="dirichlet",
                n_resamples=1000,
                rng=unit_rng(root, (key,), "confusion matrix"),
            )
            iv = std_cm.interval(
                name, n_resamples=1000, rng=unit_rng(root, (key,), "confusion matrix")
            )
            assert r["standardized"] == want.value == std_cm.metric(name)
            assert r["standardized_ops"] == want.estimate
            assert (r["standardized_ops_ci_low"], r["standardized_ops_ci_high"]) == want.ci
            assert (r["standardized_ci_low"], r["standardized_ci_high"]) == iv.ci
        std_curve = ScoreCurve.from_scores(y, s).at_prevalence(PI)
        for label, q, at_ in (
            ("pr_auc", "pr_auc", None),
            ("roc_auc", "roc_auc", None),
            ("precision@recall=0.5", "precision", {"recall": 0.5}),
        ):
            r = rows.loc[label]
            want = std_curve.ops(q, at=at_, reference=REF)
            assert r["standardized"] == want.value and r["standardized_ops"] == want.estimate
            assert r["standardized_ops_se"] == want.standard_error
        # the class sizes are >= 100 here: the areas' intervals are deterministic
        # (DeLong's and the jackknife's logit-t), so they can be compared directly
        if min(y.sum(), (~y).sum()) >= 100:
            iv = std_curve.interval("pr_auc")
            got = rows.loc["pr_auc", ["standardized_ci_low", "standardized_ci_high"]]
            # to rounding: the OPS path reads the value off all the curve's points
            assert np.allclose(got.to_numpy(float), iv.ci, rtol=0, atol=1e-12)
        # invariant quantities: the standardized OPS is the OPS itself; its interval
        # too, up to the percentile's linear interpolation between two neighbouring
        # draws, done on the metric's scale at each prevalence (1e-9 here)
        for label in ("precision", "roc_auc", "precision@recall=0.5"):
            r = rows.loc[label]
            assert r["standardized_ops"] == pytest.approx(r["ops"], abs=1e-9)
            for end in ("low", "high"):
                std_end = r[f"standardized_ops_ci_{end}"]
                assert std_end == pytest.approx(r[f"ops_ci_{end}"], abs=1e-6)


def test_engines_and_the_many_groups_path_give_the_same_table(frame):
    """Pandas rows, a lazy polars frame and DuckDB (count tables) give identical tables;
    with predicted labels only, the many-groups arrays give the standardized columns
    too, and the other columns are those of the same call without ``prevalence``."""
    kw = {"threshold": 1.0, "metrics": ["f1", "mcc", "roc_auc"], "prevalence": PI}
    pandas = _evaluate(frame, **kw)
    for data in (pl.from_pandas(frame).lazy(), duckdb.from_df(frame)):
        other = _evaluate(data, **kw)
        pd.testing.assert_frame_equal(other, pandas, check_dtype=False)
    labels = frame.assign(p=(frame["s"] >= 1.0).astype(int))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        plain = evaluate(labels, truth="y", pred="p", by="m", metrics=["f1", "mcc"], rng=3)
        std = evaluate(
            labels, truth="y", pred="p", by="m", metrics=["f1", "mcc"], rng=3, prevalence=PI
        )
    pd.testing.assert_frame_equal(std[plain.columns], plain)
    for key, g in labels.groupby("m"):
        cm = ConfusionMatrix.from_predictions(g["y"], g["p"]).at_prevalence(PI)
        rows = std[std["m"] == key].set_index("metric")
        assert rows.loc["f1", "standardized"] == cm.metric("f1")


def test_one_class_group_and_bad_prevalence(frame):
    df = pd.concat([frame, pd.DataFrame({"y": [0, 0, 0], "s": [0.1, 2.0, -1.0], "m": "d"})])
    out = _evaluate(df, threshold=1.0, metrics=["f1", "roc_auc"], prevalence=PI)
    d = out[out["m"] == "d"]
    assert d["standardized"].isna().all() and d["standardized_ops"].isna().all()
    assert (d["standard_prevalence"] == PI).all()
    assert d["reason"].str.contains("no positives").all()
    for bad, exc, match in (
        (0, ValueError, r"`prevalence` must be in \(0, 1\); got 0.0"),
        (1.5, ValueError, r"`prevalence` must be in \(0, 1\); got 1.5"),
        ("0.2", TypeError, "`prevalence` must be a real number; got"),
    ):
        with pytest.raises(exc, match=match):
            evaluate(frame, truth="y", score="s", threshold=1.0, prevalence=bad)
    with pytest.raises(ValueError, match="`prevalence` do not apply"):
        evaluate(frame, truth="y", score="s", compare="m", prevalence=0.3)


def test_without_prevalence_the_table_is_unchanged(frame):
    out = _evaluate(frame, threshold=1.0, metrics=["f1"])
    assert list(out.columns) == ["m", *COLUMNS]
