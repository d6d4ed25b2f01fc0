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
from opsstats.comparison._permutation import stratified_permutation_test
from opsstats.curves._geometry import resolve_quantity

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
    assert "stratified permutation test" in pr.method and "B = 1999" in pr.method
    assert "MOVER" in pr.method and pr.details["n_permutations"] == 1999
    assert pr.details["interval"] == "mover"
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


def _slow_permutations(before, after, curve, at, rule, pi, n_perm, seed, alternative):
    """The slow obvious stratified permutation test: per permutation the two sets' rows
    rebuilt, each one's ScoreCurve standardized to pi (``at_prevalence``) and its
    quantity read by the public methods. The permutations are drawn with the engine's
    generator calls, so that both see the same ones: per class (positives, then
    negatives) how many of its pooled rows at each distinct pooled score (decreasing) go
    to the after set, ``Generator.multivariate_hypergeometric(..., method="count")``;
    rows of one class and one score are exchangeable, so the after set takes the first
    ones of each."""
    rng = np.random.default_rng(seed)
    (y0, s0), (y1, s1) = before, after
    y, s = np.r_[y0, y1].astype(bool), np.r_[s0, s1]
    scores = np.unique(s)[::-1]
    drawn = []
    for rows, ones in ((s[y], int(y1.sum())), (s[~y], int((1 - y1).sum()))):
        per_score = np.array([np.sum(rows == v) for v in scores])
        drawn.append(rng.multivariate_hypergeometric(per_score, ones, size=n_perm, method="count"))

    def split(cls, counts):
        rows = s[y] if cls == 0 else s[~y]
        take = np.concatenate(
            [np.arange(np.sum(rows == v)) < c for v, c in zip(scores, counts, strict=True)]
        )
        ordered = np.concatenate([rows[rows == v] for v in scores])
        return ordered[take], ordered[~take]

    def value(p, n):
        c = ScoreCurve.from_scores(np.r_[np.ones(p.size), np.zeros(n.size)], np.r_[p, n])
        std = c.at_prevalence(pi)
        return std.value_at(curve, at=at) if at else std.auc(curve, rule=rule)

    observed = value(s1[y1 == 1], s1[y1 == 0]) - value(s0[y0 == 1], s0[y0 == 0])
    null = []
    for i in range(n_perm):
        (pa, pb), (na, nb) = split(0, drawn[0][i]), split(1, drawn[1][i])
        null.append(value(pa, na) - value(pb, nb))
    null = np.array(null)
    tol = np.sqrt(np.finfo(float).eps) * max(1.0, abs(observed))
    extreme = {
        "two-sided": np.abs(null) >= abs(observed) - tol,
        "greater": null >= observed - tol,
        "less": null <= observed + tol,
    }[alternative]
    return observed, null, (1 + extreme.sum()) / (n_perm + 1)


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize(
    "metric, at, rule, curve",
    [
        ("pr_auc", None, None, "pr"),
        ("pr_auc", None, "trapezoid", "pr"),
        ("roc_auc", None, None, "roc"),
        ("lift_auc", None, None, "lift"),
        ("precision", {"recall": 0.8}, None, "precision"),
    ],
)
def test_permutation_against_the_slow_implementation(metric, at, rule, curve, ties):
    rng = np.random.default_rng(31)
    sets = []
    for n, pi in ((70, 0.15), (90, 0.5)):
        y = (rng.random(n) < pi).astype(int)
        s = rng.normal(size=n) + 1.5 * y
        sets.append((y, np.round(s, 1) if ties else s))
    pi = float(sets[0][0].mean())
    for alternative in ("two-sided", "greater", "less"):
        r = classifier_change_test(
            *sets, metric=metric, at=at, rule=rule, method="permutation",
            alternative=alternative, n_permutations=60, n_resamples=100, rng=7,
        )  # fmt: skip
        observed, null, p = _slow_permutations(*sets, curve, at, rule, pi, 60, 7, alternative)
        assert r.statistic == pytest.approx(observed, abs=1e-12)
        assert r.estimate == pytest.approx(observed, abs=1e-12)
        np.testing.assert_allclose(r.details["permutation_differences"], null, rtol=0, atol=1e-12)
        assert r.p_value == p and r.details["n_permutations"] == 60


@pytest.mark.parametrize("count_method_rows", [10**8, 1])
def test_permutation_p_value_converges_to_the_exact_one(monkeypatch, count_method_rows):
    """Two tiny test sets: every one of the C(5, 2) C(7, 3) = 350 ways of reassigning
    the pooled rows enumerated (itertools.combinations) gives the exact permutation
    p-value of the PR AUC difference; 20,000 random permutations come within 3.3
    binomial s.e. of it (a failure by chance once in about 1,000 seeds), with numpy's
    "count" draws (below 10**8 rows) and its "marginals" draws (from there on: forced
    here by lowering the limit)."""
    from itertools import combinations

    from opsstats.comparison import _permutation

    monkeypatch.setattr(_permutation, "_COUNT_METHOD_ROWS", count_method_rows)

    before = (np.array([1, 1, 1, 0, 0, 0, 0]), np.array([0.9, 0.4, 0.35, 0.8, 0.2, 0.1, 0.5]))
    after = (np.array([1, 1, 0, 0, 0]), np.array([0.95, 0.3, 0.6, 0.25, 0.05]))
    pi = 3 / 7
    y, s = np.r_[before[0], after[0]].astype(bool), np.r_[before[1], after[1]]
    pos, neg = s[y], s[~y]

    def ap(p, n):
        c = ScoreCurve.from_scores(np.r_[np.ones(len(p)), np.zeros(len(n))], np.r_[p, n])
        return c.at_prevalence(pi).auc("pr")

    d_obs = ap(after[1][:2], after[1][2:]) - ap(before[1][:3], before[1][3:])
    ds = []
    for ip in combinations(range(5), 2):
        for ineg in combinations(range(7), 3):
            rest_p = [pos[i] for i in range(5) if i not in ip]
            rest_n = [neg[i] for i in range(7) if i not in ineg]
            ds.append(ap(pos[list(ip)], neg[list(ineg)]) - ap(rest_p, rest_n))
    exact = np.mean(np.abs(ds) >= abs(d_obs) - 1e-12)
    r = classifier_change_test(
        before, after, metric="pr_auc", n_permutations=20_000, n_resamples=100, rng=11
    )
    assert len(ds) == 350 and r.statistic == pytest.approx(d_obs, abs=1e-12)
    assert abs(r.p_value - exact) <= 3.3 * np.sqrt(exact * (1 - exact) / 20_000) + 1 / 20_001


def test_permutation_from_counts_equals_the_rows():
    """A ScoreCurve of whole counts per distinct score (from_counts) is permuted as its
    rows: the same statistic, permutations and p-value as from the expanded rows."""
    b = ScoreCurve.from_counts([0.9, 0.7, 0.5, 0.2], [3, 2, 1, 0], [1, 2, 5, 9])
    a = ScoreCurve.from_counts([0.8, 0.7, 0.3, 0.1], [4, 3, 2, 1], [0, 3, 3, 4])

    def rows(c):
        counts = np.diff(c.tps, prepend=0), np.diff(c.fps, prepend=0)
        y = np.r_[np.ones(counts[0].sum()), np.zeros(counts[1].sum())]
        return y, np.r_[np.repeat(c.thresholds, counts[0]), np.repeat(c.thresholds, counts[1])]

    kw = {"metric": "pr_auc", "n_permutations": 99, "n_resamples": 100}
    r1 = classifier_change_test(b, a, rng=5, **kw)
    r2 = classifier_change_test(rows(b), rows(a), rng=5, **kw)
    assert (r1.statistic, r1.p_value) == (r2.statistic, r2.p_value)
    np.testing.assert_array_equal(
        r1.details["permutation_differences"], r2.details["permutation_differences"]
    )


def test_permutation_size_quick():
    """The permutation test is exact: 200 pairs of test sets of one binormal classifier
    (d = 1.5) at prevalences 0.05 and 0.3, 400 rows each, B = 99: P(p <= 0.05) is
    5/100 exactly, so the rejections are Binomial(200, 0.05); the band 2-22 holds
    them with probability 1 - 6e-4 (scipy.stats.binom.cdf(1, 200, 0.05) +
    binom.sf(22, 200, 0.05)). The percentile bootstrap test it replaces rejected 13% in
    one cell of the study."""
    rng = np.random.default_rng(20261128)
    reject = 0
    for _ in range(200):
        sets = []
        for pi in (0.05, 0.3):
            y = (rng.random(400) < pi).astype(int)
            y[:2] = (1, 0)  # both classes present
            sets.append((y, rng.normal(size=400) + 1.5 * y))
        r = classifier_change_test(*sets, metric="pr_auc", n_permutations=99, n_resamples=100,
                                   rng=rng)  # fmt: skip
        reject += r.p_value <= 0.05
    assert stats.binom.cdf(1, 200, 0.05) + stats.binom.sf(22, 200, 0.05) < 1e-3
    assert 2 <= reject <= 22, reject


def test_permutation_interval_mover():
    """From 100 rows of each class on, each set's default interval is the jackknife's
    logit-t (no draws), so the MOVER interval is checked against them exactly."""
    rng = np.random.default_rng(4)
    sets = []
    for pi in (0.2, 0.4):
        y = (rng.random(1000) < pi).astype(int)
        sets.append((y, rng.normal(size=1000) + 1.2 * y))
    r = classifier_change_test(*sets, metric="pr_auc", n_resamples=200, rng=2)  # the default
    pi = float(sets[0][0].mean())
    ends = [
        ScoreCurve.from_scores(*s).at_prevalence(pi).interval("pr_auc", n_resamples=200)
        for s in (sets[1], sets[0])
    ]
    (a, la, ua), (b, lb, ub) = ((e.estimate, e.ci.low, e.ci.high) for e in ends)
    # Zou and Donner (2008), eq. for a difference of independent estimates
    assert r.ci.low == pytest.approx(a - b - np.sqrt((a - la) ** 2 + (ub - b) ** 2), abs=1e-12)
    assert r.ci.high == pytest.approx(a - b + np.sqrt((ua - a) ** 2 + (b - lb) ** 2), abs=1e-12)
    assert "MOVER" in r.method and r.details["interval"] == "mover"


def test_permutation_interval_percentile_and_the_mover_fallback():
    """``interval="percentile"`` is compare_test_sets' bootstrap interval of the same
    standardized sets (the permutations drawn first from the same generator); a set of
    one positive, whose own default interval (the Dirichlet posterior) is refused, gets
    the percentile interval and the method says so."""
    rng = np.random.default_rng(8)
    sets = []
    for pi in (0.1, 0.4):
        y = (rng.random(300) < pi).astype(int)
        sets.append((y, rng.normal(size=300) + 1.2 * y))
    kw = {"metric": "pr_auc", "n_resamples": 200, "n_permutations": 99}
    r = classifier_change_test(*sets, interval="percentile", rng=3, **kw)
    g = np.random.default_rng(3)
    curves = [ScoreCurve.from_scores(*s) for s in sets]
    pi = curves[0].prevalence
    stratified_permutation_test(
        curves[0], curves[1], resolve_quantity("pr_auc", None, None, {}), pi, 99, g
    )
    ref = compare_test_sets(
        {"after": curves[1].at_prevalence(pi), "before": curves[0].at_prevalence(pi)},
        metric="pr_auc", method="bootstrap", n_resamples=200, rng=g,
    )  # fmt: skip
    assert r.ci == ref.ci and "percentile interval" in r.method
    one = (np.r_[1, np.zeros(199, int)], np.r_[2.0, rng.normal(size=199)])
    f = classifier_change_test(one, sets[1], rng=3, **kw)
    assert "MOVER refused" in f.method and "percentile interval" in f.method
    assert np.isfinite(f.ci.low) and np.isfinite(f.p_value)


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"prevalence": 1.0}, ValueError, "`prevalence`"),
        ({"metric": "error_rates", "prevalence": 0.2}, ValueError, "needs none"),
        ({"metric": "error_rates", "alternative": "greater"}, ValueError, "`alternative`"),
        ({"before": BEFORE.at_prevalence(0.3), "metric": "error_rates"}, ValueError, "whole"),
        ({"before": [1, 2, 3]}, TypeError, "`before` must be"),
        ({"metric": "pr_auc"}, TypeError, "`before` must be a ScoreCurve"),
        ({"method": "permutation"}, ValueError, "confusion-matrix metric"),
        ({"method": "permuted"}, ValueError, "`method`"),
        ({"interval": "mover"}, ValueError, "`interval`"),
        (
            {
                "before": ScoreCurve.from_scores(
                    [0, 1, 1], [0.1, 0.5, 0.9], sample_weight=[1, 0.5, 2]
                ),
                "after": ScoreCurve.from_scores([0, 1, 0], [0.2, 0.6, 0.4]),
                "metric": "pr_auc",
            },
            ValueError,
            "whole-number counts",
        ),
        (
            {
                "before": ScoreCurve.from_scores([0, 1, 1], [0.1, 0.5, 0.9]),
                "after": ScoreCurve.from_scores([0, 1, 0], [0.2, 0.6, 0.4]),
                "metric": "pr_auc",
                "n_permutations": 10,
            },
            ValueError,
            "`n_permutations`",
        ),
    ],
)
def test_bad_input(kwargs, error, match):
    args = {"before": BEFORE, "after": AFTER, "metric": "f1", **kwargs}
    with pytest.raises(error, match=match):
        classifier_change_test(args.pop("before"), args.pop("after"), **args)
