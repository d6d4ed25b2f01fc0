"""Multi-label and multi-class OPS: per-label results equal the single-label objects,
aggregation, the row bootstrap against a naive one, coverage, errors."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from opsstats import ConfusionMatrix, ScoreCurve, UndefinedMetricWarning, Uniform
from opsstats.multilabel import MultiLabel
from opsstats.reference.dbt import DirectedBinaryTree

SMALL_DBT = DirectedBinaryTree(depth=5, n_curves=3000, seed=2)


def _data(n=2000, prevalences=(0.05, 0.2, 0.4), flip=0.15, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.random((n, len(prevalences))) < np.asarray(prevalences)
    p = np.where(rng.random(y.shape) < 1 - flip, y, ~y)
    s = np.where(y, rng.normal(1.0, 1.0, y.shape), rng.normal(0.0, 1.0, y.shape))
    return y, p, s


def test_per_label_results_equal_single_label_objects():
    y, p, s = _data()
    ml = MultiLabel.from_predictions(
        pd.DataFrame(y, columns=["x", "y", "z"]), pd.DataFrame(p, columns=["x", "y", "z"])
    )
    res = ml.ops("mcc", average=None)
    assert list(res.table["label"]) == ["x", "y", "z"]
    for j in range(3):
        cm = ConfusionMatrix.from_predictions(y[:, j], p[:, j])
        single = cm.ops("mcc")
        assert res.table.loc[j, "ops"] == single.estimate
        assert res.table.loc[j, "value"] == single.value
    mls = MultiLabel.from_scores(y, s)
    res = mls.ops("pr_auc", average=None, reference=SMALL_DBT)
    for j in range(3):
        single = ScoreCurve.from_scores(y[:, j], s[:, j]).ops("pr_auc", reference=SMALL_DBT)
        assert res.table.loc[j, "ops"] == single.estimate
        assert res.table.loc[j, "ops_se"] == single.standard_error
    at = {"recall": 0.8}
    res = mls.ops("precision", at=at, average=None, reference=SMALL_DBT)
    single = ScoreCurve.from_scores(y[:, 1], s[:, 1]).ops("precision", at=at, reference=SMALL_DBT)
    assert res.table.loc[1, "ops"] == single.estimate


def test_averages_and_weights():
    y, p, _ = _data()
    ml = MultiLabel.from_predictions(y, p)
    ops = ml.ops("f1", average=None).table["ops"].to_numpy()
    support = y.sum(0)
    assert ml.ops("f1", average="macro").estimate == pytest.approx(ops.mean())
    assert ml.ops("f1", average="weighted").estimate == pytest.approx(
        np.sum(ops * support) / support.sum()
    )
    assert ml.ops("f1", average="prevalence").estimate == pytest.approx(
        np.sum(ops * y.mean(0)) / y.mean(0).sum()
    )
    assert ml.ops("f1", weights=[1, 0, 3]).estimate == pytest.approx((ops[0] + 3 * ops[2]) / 4)
    none = ml.ops("f1", average=None)
    assert np.isnan(none.estimate) and "no aggregate" in str(none)


def test_micro_is_the_pooled_matrix_and_a_different_quantity():
    y, p, _ = _data()
    ml = MultiLabel.from_predictions(y, p)
    pooled = ConfusionMatrix.from_predictions(y.ravel(), p.ravel())
    assert ml.micro() == pooled
    res = ml.ops("f1")
    assert res.micro.estimate == pooled.ops("f1").estimate
    assert "Micro (pooled confusion matrix), a different quantity" in str(res.summary())


def test_multiclass_one_vs_rest():
    rng = np.random.default_rng(3)
    y = rng.choice(["cat", "dog", "eel"], 600, p=[0.6, 0.3, 0.1])
    pred = np.where(rng.random(600) < 0.7, y, rng.choice(["cat", "dog", "eel"], 600))
    ml = MultiLabel.from_multiclass(y, pred)
    assert ml.labels == ["cat", "dog", "eel"]
    for c in ml.labels:
        cm = ConfusionMatrix.from_predictions(y == c, pred == c)
        assert ml.confusion_matrices()[c] == cm
    scores = pd.DataFrame(rng.dirichlet([1, 1, 1], 600), columns=["cat", "dog", "eel"])
    mls = MultiLabel.from_multiclass(y, y_score=scores)
    c = mls.curves()["dog"]
    assert c == ScoreCurve.from_scores(y == "dog", scores["dog"])


def test_undefined_label_is_kept_with_reason_and_left_out_with_warning():
    y, p, _ = _data(prevalences=(0.1, 0.0, 0.3))
    ml = MultiLabel.from_predictions(y, p, labels=["a", "never", "c"])
    with pytest.warns(UndefinedMetricWarning, match="undefined for label\\(s\\) never"):
        res = ml.ops("f1")
    row = res.table.set_index("label").loc["never"]
    assert np.isnan(row["ops"]) and "no positives" in row["reason"] and row["weight"] == 0
    assert res.excluded == ("never",)
    assert res.estimate == pytest.approx(res.table["ops"].iloc[[0, 2]].mean())


def test_row_bootstrap_matches_a_naive_row_bootstrap():
    """The pattern-compressed bootstrap (one multinomial over joint row patterns) has the
    distribution of resampling rows: compare mean and sd of the macro OPS draws with a
    naive loop over resampled rows (Monte Carlo: within 10% of the sd)."""
    y, p, _ = _data(n=800)
    ml = MultiLabel.from_predictions(y, p)
    ours = ml.ops("f1", ci="bootstrap", n_resamples=4000, rng=1).details["draws"]
    rng = np.random.default_rng(2)
    uni = Uniform()
    pis = y.mean(0)
    naive = []
    for _ in range(1500):
        idx = rng.integers(0, 800, 800)
        vals = []
        for j in range(3):
            cm = ConfusionMatrix.from_predictions(y[idx, j], p[idx, j])
            # prevalence held at the observed value, as the method documents
            f1 = ConfusionMatrix.from_rates(
                n=1, prevalence=pis[j], alpha=cm.alpha, beta=cm.beta
            ).metric("f1")
            vals.append(uni.ops("f1", f1, prevalence=pis[j]).estimate)
        naive.append(np.mean(vals))
    naive = np.array(naive)
    assert abs(ours.mean() - naive.mean()) < 0.1 * naive.std()
    assert ours.std() == pytest.approx(naive.std(), rel=0.1)


def test_same_rng_same_interval_and_dirichlet_option():
    y, p, _ = _data()
    ml = MultiLabel.from_predictions(y, p)
    a = ml.ops("f1", ci="bootstrap", rng=7)
    b = ml.ops("f1", ci="bootstrap", rng=7)
    assert a.ci == b.ci and a.ci.low < a.estimate < a.ci.high
    d = ml.ops("f1", ci="dirichlet", rng=7)
    assert "labels assumed independent" in d.ci_method
    assert d.ci.low < d.estimate < d.ci.high
    assert (d.table["ops_ci_low"] <= d.table["ops"]).all()


def test_macro_ops_bootstrap_coverage_small():
    """A small version of benchmarks/multilabel_coverage.py: L = 3 independent labels,
    n = 600, 200 test sets. The truth is the macro OPS at each label's observed
    prevalence, OPS(F1(pi_hat, alpha, beta); pi_hat) averaged; the 95% row-bootstrap
    interval must cover consistently with >= 93% (one-sided binomial test, 0.001)."""
    rng = np.random.default_rng(5)
    prev, alpha, beta = (
        np.array([0.1, 0.25, 0.5]),
        np.array([0.1, 0.2, 0.15]),
        np.array([0.3, 0.2, 0.25]),
    )
    uni = Uniform()
    hits = 0
    reps = 200
    for _ in range(reps):
        y = rng.random((600, 3)) < prev
        flip = np.where(y, rng.random(y.shape) < beta, rng.random(y.shape) < alpha)
        p = y ^ flip
        pis = y.mean(0)
        truth = np.mean(
            [
                uni.ops(
                    "f1",
                    ConfusionMatrix.from_rates(
                        n=1, prevalence=pis[j], alpha=alpha[j], beta=beta[j]
                    ).metric("f1"),
                    prevalence=pis[j],
                ).estimate
                for j in range(3)
            ]
        )
        r = MultiLabel.from_predictions(y, p).ops("f1", ci="bootstrap", n_resamples=500, rng=rng)
        hits += r.ci.low <= truth <= r.ci.high
    assert stats.binomtest(hits, reps, 0.93, alternative="less").pvalue > 0.001, hits / reps


@pytest.mark.parametrize(
    "build, exc, match",
    [
        (
            lambda: MultiLabel.from_predictions(np.zeros((5, 2)), np.zeros((5, 3))),
            ValueError,
            "must have the same shape; got \\(5, 2\\) and \\(5, 3\\)",
        ),
        (
            lambda: MultiLabel.from_predictions(np.full((3, 2), 2), np.zeros((3, 2))),
            ValueError,
            "`y_true` must hold 0/1 indicators; got 2",
        ),
        (
            lambda: MultiLabel.from_predictions(np.zeros((3, 2)), np.zeros((3, 2)), labels=["a"]),
            ValueError,
            "`labels` must name the 2 columns",
        ),
        (
            lambda: MultiLabel.from_predictions(
                np.zeros((3, 2)), np.zeros((3, 2)), labels=["a", "a"]
            ),
            ValueError,
            "must be unique",
        ),
        (
            lambda: MultiLabel.from_multiclass(["a", "b"], ["a", "c"], classes=["a", "b"]),
            ValueError,
            "`y_pred` holds classes not in `classes`: \\['c'\\]",
        ),
        (
            lambda: MultiLabel.from_scores(np.zeros((3, 2)), np.full((3, 2), np.nan)),
            ValueError,
            r"`y_score` \(column 0\) must contain only finite numbers",
        ),
    ],
)
def test_builder_errors(build, exc, match):
    with pytest.raises(exc, match=match):
        build()


def test_ops_errors():
    y, p, s = _data(n=300)
    ml = MultiLabel.from_predictions(y, p)
    with pytest.raises(ValueError, match="`average` must be one of 'macro', 'weighted'"):
        ml.ops("f1", average="micro")
    with pytest.raises(ValueError, match=r"`weights` must be non-negative; got -1 at position 1"):
        ml.ops("f1", weights=[1, -1, 0])
    with pytest.raises(ValueError, match="`ci` must be one of 'bootstrap', 'dirichlet'"):
        ml.ops("f1", ci="delong")
    with pytest.raises(ValueError, match="unknown metric 'f2'"):
        ml.ops("f2")
    with pytest.raises(ValueError, match="need scores"):
        ml.ops("pr_auc")
    mls = MultiLabel.from_scores(y, s)
    with pytest.raises(ValueError, match="need predicted labels"):
        mls.ops("f1")
    with pytest.raises(ValueError, match="`ci='dirichlet'` applies to confusion-matrix"):
        mls.ops("roc_auc", ci="dirichlet", reference=SMALL_DBT)
    w = MultiLabel.from_predictions(y, p, sample_weight=np.full(300, 0.5))
    with pytest.raises(ValueError, match="needs whole-number `sample_weight`"):
        w.ops("f1", ci="bootstrap")
    with pytest.raises(ValueError, match="needs whole-number `sample_weight`"):
        MultiLabel.from_scores(y, s, sample_weight=np.full(300, 0.5)).ops(
            "roc_auc", ci="bootstrap", reference=SMALL_DBT
        )


def test_evaluate_table_for_several_metrics():
    y, _p, s = _data(n=500)
    ml = MultiLabel.from_scores(y, s, threshold=0.5, labels=["a", "b", "c"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        table = ml.evaluate(["f1", "roc_auc"], curve_reference=SMALL_DBT)
    assert list(table["label"]) == ["a", "a", "b", "b", "c", "c"]
    cm = ConfusionMatrix.from_predictions(y[:, 1], s[:, 1] >= 0.5)
    assert table.query("label == 'b' and metric == 'f1'")["ops"].item() == cm.ops("f1").estimate


def test_whole_number_weights_are_repeated_rows():
    """Frequency weights: a weight of k is k copies of the row, for the estimates and,
    with the same rng, for the bootstrap draws (points and curves), because the row
    bootstrap draws one multinomial over the sorted distinct rows."""
    y, _p, s = _data(n=300)
    w = np.random.default_rng(4).integers(0, 4, 300)
    rep = np.repeat(np.arange(300), w)
    weighted = MultiLabel.from_scores(y, s, threshold=0.5, sample_weight=w)
    copies = MultiLabel.from_scores(y[rep], s[rep], threshold=0.5)
    assert weighted.n == copies.n == int(w.sum())
    assert weighted.confusion_matrices() == copies.confusion_matrices()
    assert weighted.curves() == copies.curves()
    for metric, ref in (("f1", None), ("roc_auc", SMALL_DBT)):
        a = weighted.ops(metric, reference=ref, ci="bootstrap", n_resamples=200, rng=3)
        b = copies.ops(metric, reference=ref, ci="bootstrap", n_resamples=200, rng=3)
        assert a.estimate == b.estimate and a.ci == b.ci
        cols = ["n", "prevalence", "value", "ops", "ops_ci_low", "ops_ci_high", "support"]
        np.testing.assert_array_equal(a.table[cols].to_numpy(float), b.table[cols].to_numpy(float))
    # the rows' order does not matter either
    perm = np.random.default_rng(5).permutation(300)
    shuffled = MultiLabel.from_scores(y[perm], s[perm], threshold=0.5, sample_weight=w[perm])
    assert (
        shuffled.ops("roc_auc", reference=SMALL_DBT, ci="bootstrap", n_resamples=200, rng=3).ci
        == weighted.ops("roc_auc", reference=SMALL_DBT, ci="bootstrap", n_resamples=200, rng=3).ci
    )


def test_curve_bootstrap_matches_a_naive_row_bootstrap():
    """The curve bootstrap draws one multinomial over the distinct joint rows, which has
    the distribution of resampling the n rows: mean and sd of the macro ROC AUC OPS
    draws against a naive loop over resampled rows (Monte Carlo: within 15% of the sd)."""
    y, _p, s = _data(n=400, prevalences=(0.2, 0.4))
    s = np.round(s, 1)  # ties: fewer distinct rows than rows
    ml = MultiLabel.from_scores(y, s)
    ours = ml.ops("roc_auc", reference=SMALL_DBT, ci="bootstrap", n_resamples=1500, rng=1)
    rng = np.random.default_rng(2)
    pis = y.mean(0)
    naive = []
    for _ in range(600):
        idx = rng.integers(0, 400, 400)
        vals = []
        for j in range(2):
            auc = ScoreCurve.from_scores(y[idx, j], s[idx, j]).auc()
            vals.append(SMALL_DBT.ops("roc_auc", auc, prevalence=pis[j]).estimate)
        naive.append(np.mean(vals))
    naive = np.array(naive)
    draws = ours.details["draws"]
    assert abs(draws.mean() - naive.mean()) < 0.15 * naive.std()
    assert draws.std() == pytest.approx(naive.std(), rel=0.15)
