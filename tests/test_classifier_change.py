"""classifier_change_test: the test of "the classifier changed" that a prevalence shift
alone cannot trip (docs/method.md#classifier-change). The metric form is
compare_test_sets on the two sets standardized to one prevalence; the error-rate form is
checked against scipy's chi-squared test of each 2x2 table and Newcombe's published
interval; a quick size check under a pure prevalence shift (the full study is
benchmarks/classifier_change_study.py)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from opsstats import (
    ComparisonResult,
    ConfusionMatrix,
    ErrorRatesChange,
    ScoreCurve,
    classifier_change_test,
    compare_test_sets,
)

BEFORE = ConfusionMatrix(tp=50, fp=127, fn=50, tn=1773)
AFTER = ConfusionMatrix(tp=300, fp=94, fn=300, tn=1306)


def test_metric_form_is_compare_test_sets_on_the_standardized_sets():
    for metric, pi in (("f1", None), ("mcc", 0.2), ("precision", 0.5)):
        r = classifier_change_test(BEFORE, AFTER, metric=metric, prevalence=pi, rng=3)
        star = BEFORE.prevalence if pi is None else pi
        ref = compare_test_sets(
            {"after": AFTER.at_prevalence(star), "before": BEFORE.at_prevalence(star)},
            metric=metric,
            rng=3,
        )
        assert isinstance(r, ComparisonResult)
        assert (r.estimate, r.ci, r.p_value, r.statistic) == (
            ref.estimate,
            ref.ci,
            ref.p_value,
            ref.statistic,
        )
        assert r.names == ("after", "before") and r.details["prevalence"] == star
        assert r.quantity == f"{ref.quantity} at prevalence {star:.4g}"
        assert f"standardized to prevalence {star:.4g}" in r.method


def test_a_prevalence_shift_alone_gives_exactly_zero():
    # the same alpha and beta (the same fractions) at prevalences 0.05 and 0.3
    before = ConfusionMatrix(tp=40, fp=114, fn=60, tn=1786)
    same = ConfusionMatrix(tp=240, fp=84, fn=360, tn=1316)
    assert before.beta == same.beta and before.alpha == same.alpha
    for metric in ("f1", "mcc", "precision", "accuracy"):
        r = classifier_change_test(before, same, metric=metric, rng=0)
        assert r.estimate == 0.0
        assert r.ci.low < 0 < r.ci.high and r.p_value > 0.5
    raw = compare_test_sets({"after": same, "before": before}, metric="f1", rng=0)
    assert raw.p_value < 1e-3  # the raw F1 moves with the prevalence


def test_curves_pr_auc_and_roc_auc():
    rng = np.random.default_rng(9)
    y0 = (rng.random(1500) < 0.05).astype(int)
    y1 = (rng.random(1500) < 0.3).astype(int)
    before = (y0, rng.normal(size=1500) + 1.2 * y0)
    after = (y1, rng.normal(size=1500) + 1.2 * y1)
    pr = classifier_change_test(before, after, metric="pr_auc", n_resamples=300, rng=1)
    curves = [ScoreCurve.from_scores(*s) for s in (before, after)]
    assert pr.estimate == pytest.approx(
        curves[1].at_prevalence(y0.mean()).auc("pr") - curves[0].auc("pr"), abs=1e-12
    )
    assert "stratified bootstrap" in pr.method
    roc = classifier_change_test(before, after, metric="roc_auc")
    raw = compare_test_sets({"after": after, "before": before}, metric="roc_auc")
    # the ROC AUC does not depend on the prevalence: standardizing changes nothing
    assert roc.estimate == pytest.approx(raw.estimate, abs=1e-15)
    assert roc.p_value == pytest.approx(raw.p_value, rel=1e-12)
    assert "DeLong" in roc.method


def test_error_rates_against_scipy():
    jan = ConfusionMatrix(tp=40, fp=60, fn=20, tn=880)
    feb = ConfusionMatrix(tp=120, fp=30, fn=80, tn=770)
    r = classifier_change_test(jan, feb, metric="error_rates")
    assert isinstance(r, ErrorRatesChange)
    # scipy.stats.chi2_contingency(table, correction=False) of each 2x2 table
    x_alpha = stats.chi2_contingency([[60, 880], [30, 770]], correction=False)[0]
    x_beta = stats.chi2_contingency([[20, 40], [80, 120]], correction=False)[0]
    assert r.statistics == pytest.approx((x_alpha, x_beta), rel=1e-12)
    assert r.statistic == pytest.approx(x_alpha + x_beta, rel=1e-12)
    assert r.df == 2 and r.p_value == pytest.approx(stats.chi2.sf(x_alpha + x_beta, 2), rel=1e-12)
    assert r.estimate == (feb.alpha - jan.alpha, feb.beta - jan.beta)
    frame = r.to_frame()
    assert frame["rate"].tolist() == ["alpha", "beta"] and "Joint test" in str(r.summary())


def test_error_rates_newcombe_interval_and_degenerate_table():
    # Newcombe (1998), Stat Med 17:873, Table II, example (a): 56/70 - 48/80, method 10
    # (hybrid score): 0.0524 to 0.3339. Here as beta: 56 of 70 positives missed after,
    # 48 of 80 before.
    before = ConfusionMatrix(tp=32, fp=5, fn=48, tn=95)
    after = ConfusionMatrix(tp=14, fp=5, fn=56, tn=95)
    r = classifier_change_test(before, after, metric="error_rates")
    assert (round(r.ci[1].low, 4), round(r.ci[1].high, 4)) == (0.0524, 0.3339)
    # no false positive in either set: that table adds no degree of freedom
    clean = classifier_change_test(
        ConfusionMatrix(tp=32, fp=0, fn=48, tn=100),
        ConfusionMatrix(tp=14, fp=0, fn=56, tn=100),
        metric="error_rates",
    )
    assert clean.df == 1 and clean.statistics[0] == 0.0
    assert clean.p_value == pytest.approx(stats.chi2.sf(clean.statistics[1], 1), rel=1e-12)


def test_size_quick_under_a_pure_prevalence_shift():
    """200 pairs of test sets of one classifier (binormal, threshold 0.75) at
    prevalences 0.05 and 0.3, 2,000 rows each: the standardized F1 test rejects at
    about 5% (band 1%-10%, s.e. 1.5%), the raw F1 comparison nearly always."""
    rng = np.random.default_rng(20261127)
    reject, raw = 0, 0
    reps = 200
    for i in range(reps):
        sets = []
        for pi in (0.05, 0.3):
            y = rng.random(2000) < pi
            s = rng.normal(size=2000) + 1.5 * y
            sets.append(ConfusionMatrix.from_predictions(y.astype(int), (s >= 0.75).astype(int)))
        r = classifier_change_test(sets[0], sets[1], metric="f1", n_resamples=1000, rng=rng)
        reject += r.p_value < 0.05
        if i < 20:
            c = compare_test_sets({"a": sets[1], "b": sets[0]}, metric="f1", rng=rng)
            raw += c.p_value < 0.05
    assert 0.01 <= reject / reps <= 0.10, reject / reps
    assert raw == 20


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"prevalence": 1.0}, ValueError, "`prevalence`"),
        ({"metric": "error_rates", "prevalence": 0.2}, ValueError, "needs none"),
        ({"metric": "error_rates", "alternative": "greater"}, ValueError, "`alternative`"),
        ({"before": BEFORE.at_prevalence(0.3), "metric": "error_rates"}, ValueError, "whole"),
        ({"before": [1, 2, 3]}, TypeError, "`before` must be"),
        ({"metric": "pr_auc"}, TypeError, "`before` must be a ScoreCurve"),
    ],
)
def test_bad_input(kwargs, error, match):
    args = {"before": BEFORE, "after": AFTER, "metric": "f1", **kwargs}
    with pytest.raises(error, match=match):
        classifier_change_test(args.pop("before"), args.pop("after"), **args)
