"""Intervals for a confusion matrix, against independent sources: statsmodels for the
binomial intervals, exact Beta/binomial quantiles for the Dirichlet and bootstrap
draws, scipy.stats.bootstrap for BCa, and a small coverage simulation."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.proportion import proportion_confint

from opsstats import ConfusionMatrix, SmallCountWarning, UndefinedMetricWarning
from opsstats.metrics import get_metric
from opsstats.reference.empirical import EmpiricalPoints
from opsstats.uncertainty.proportion import binomial_interval

CM = ConfusionMatrix(tp=45, fp=30, fn=15, tn=210)


@pytest.mark.parametrize("x, n", [(0, 10), (3, 10), (10, 10), (8, 20), (164, 681), (1, 1000)])
@pytest.mark.parametrize(
    "ours, theirs", [("clopper-pearson", "beta"), ("wilson", "wilson"), ("jeffreys", "jeffreys")]
)
@pytest.mark.parametrize("level", [0.9, 0.95])
def test_binomial_intervals_match_statsmodels(x, n, ours, theirs, level):
    # statsmodels.stats.proportion.proportion_confint(x, n, alpha=1 - level, method=theirs)
    lo, hi = binomial_interval(x, n, method=ours, confidence_level=level)
    s_lo, s_hi = proportion_confint(x, n, alpha=1 - level, method=theirs)
    if ours == "jeffreys" and x == 0:  # Brown-Cai-DasGupta boundary rule: lower end 0
        assert lo == 0.0 and s_lo > 0
        s_lo = 0.0
    if ours == "jeffreys" and x == n:
        assert hi == 1.0 and s_hi < 1
        s_hi = 1.0
    assert lo == pytest.approx(s_lo, abs=1e-12) and hi == pytest.approx(s_hi, abs=1e-12)


def test_exact_methods_on_the_matrix_map_rates_and_complements():
    lo, hi = proportion_confint(30, 240, method="beta")
    r = CM.interval("alpha", method="clopper-pearson")
    assert r.ci == pytest.approx((lo, hi), abs=1e-12)
    assert r.method == "Clopper-Pearson exact" and r.n_resamples is None
    spec = CM.interval("specificity", method="clopper-pearson")
    assert spec.ci == pytest.approx((1 - hi, 1 - lo), abs=1e-12)
    lo_b, hi_b = proportion_confint(15, 60, method="wilson")
    assert CM.interval("recall", method="wilson").ci == pytest.approx((1 - hi_b, 1 - lo_b))
    with pytest.raises(ValueError, match="for F1 score use 'dirichlet' or 'bootstrap'"):
        CM.interval("f1", method="wilson")


def test_dirichlet_alpha_interval_is_the_beta_posterior():
    """Prevalence fixed, Jeffreys prior: alpha ~ Beta(FP + 1/2, TN + 1/2), so the
    equal-tailed interval is its 2.5% and 97.5% quantiles, up to Monte Carlo error
    (200,000 draws: quantile s.e. about 1e-4 here)."""
    r = CM.interval("alpha", n_resamples=200_000, rng=0)
    exact = stats.beta.ppf([0.025, 0.975], 30.5, 210.5)
    assert r.ci == pytest.approx(tuple(exact), abs=6e-4)
    r1 = CM.interval("beta", prior="bayes-laplace", n_resamples=200_000, rng=0)
    assert r1.ci == pytest.approx(tuple(stats.beta.ppf([0.025, 0.975], 16, 46)), abs=1e-3)
    user = CM.interval(
        "beta", prior={"tp": 2, "fp": 1, "fn": 3, "tn": 1}, n_resamples=200_000, rng=0
    )
    assert user.ci == pytest.approx(tuple(stats.beta.ppf([0.025, 0.975], 18, 47)), abs=1e-3)
    assert "Dirichlet(tp=2, fp=1, fn=3, tn=1) prior" in user.method


def test_dirichlet_random_prevalence_draws_pi():
    """With prevalence random, pi ~ Beta(TP + FN + 1, FP + TN + 1) (Jeffreys)."""
    r = CM.interval("prevalence_threshold", prevalence="random", n_resamples=1000, rng=0)
    assert r.prevalence_mode == "random"
    # precision depends on pi: its posterior is wider when pi is random
    fixed = CM.interval("precision", n_resamples=50_000, rng=1)
    rand = CM.interval("precision", prevalence="random", n_resamples=50_000, rng=1)
    assert (rand.ci.high - rand.ci.low) > (fixed.ci.high - fixed.ci.low)


def test_stratified_bootstrap_of_alpha_is_binomial():
    """Stratified bootstrap: FP* ~ Binomial(N, FP / N), so alpha* quantiles are those of
    the binomial (discrete: the percentile bounds land on its support)."""
    r = CM.interval("alpha", method="bootstrap", n_resamples=100_000, rng=2)
    q = stats.binom.ppf([0.025, 0.975], 240, 30 / 240) / 240
    assert r.ci.low == pytest.approx(q[0], abs=1 / 240 + 1e-12)
    assert r.ci.high == pytest.approx(q[1], abs=1 / 240 + 1e-12)
    assert r.prevalence_mode == "fixed" and "stratified bootstrap, 100000 resamples" in r.method


def test_bca_matches_scipy_bootstrap_on_rows():
    """Not stratified, BCa: the same procedure as scipy.stats.bootstrap(method='BCa') on
    the rows (its jackknife over rows equals ours over the four row types). Both are
    Monte Carlo: agreement within 0.01."""
    cm = ConfusionMatrix(tp=18, fp=7, fn=6, tn=69)
    y_true = np.repeat([1, 0, 1, 0], [18, 7, 6, 69])
    y_pred = np.repeat([1, 1, 0, 0], [18, 7, 6, 69])

    def f1(t, p, axis=-1):
        tp = np.sum((t == 1) & (p == 1), axis=axis)
        return 2 * tp / (np.sum(t == 1, axis=axis) + np.sum(p == 1, axis=axis))

    ref = stats.bootstrap(
        (y_true, y_pred),
        f1,
        paired=True,
        vectorized=True,
        n_resamples=20_000,
        method="BCa",
        rng=np.random.default_rng(0),
    )
    ours = cm.interval(
        "f1", method="bootstrap", interval="bca", stratified=False, n_resamples=20_000, rng=0
    )
    assert ours.ci.low == pytest.approx(ref.confidence_interval.low, abs=0.01)
    assert ours.ci.high == pytest.approx(ref.confidence_interval.high, abs=0.01)
    assert "BCa" in ours.method


def test_hpd_is_shortest_and_inside_probability():
    r = CM.interval("mcc", interval="hpd", n_resamples=20_000, rng=3)
    et = CM.interval("mcc", n_resamples=20_000, rng=3)
    assert (r.ci.high - r.ci.low) <= (et.ci.high - et.ci.low) + 1e-12
    inside = np.mean((r.draws >= r.ci.low) & (r.draws <= r.ci.high))
    assert inside == pytest.approx(0.95, abs=1 / 20_000 + 1e-12)


def test_same_rng_same_interval_bit_for_bit_and_nesting():
    for method in ("dirichlet", "bootstrap"):
        a = CM.interval("f1", method=method, rng=42)
        b = CM.interval("f1", method=method, rng=np.random.default_rng(42))
        assert a.ci == b.ci
        c = CM.interval("f1", method=method, rng=43)
        assert a.ci != c.ci
        ninety = CM.interval("f1", method=method, rng=42, confidence_level=0.9)
        assert a.ci.low <= ninety.ci.low <= ninety.ci.high <= a.ci.high


def test_undefined_resamples_are_counted_and_reported():
    cm = ConfusionMatrix(tp=1, fp=0, fn=9, tn=40)  # precision undefined when TP* = FP* = 0
    with pytest.warns(SmallCountWarning, match="is 0 \\(< 5\\): bootstrap intervals cover"):
        r = cm.interval("precision", method="bootstrap", n_resamples=5000, rng=0)
    expected = 5000 * stats.binom.pmf(0, 10, 0.1)  # P(TP* = 0); FP* is always 0
    assert abs(r.n_undefined - expected) < 5 * np.sqrt(expected)
    assert r.draws.size == 5000 - r.n_undefined
    assert f"undefined in {r.n_undefined} of 5000 resamples, left out" in str(r)


def test_ops_interval_is_the_value_interval_mapped_through_ops():
    """At fixed prevalence the OPS interval is the metric interval, from the same draws,
    with its ends mapped through OPS: OPS(value's low end) is the OPS interval's low end,
    exactly (the high end for a lower-is-better metric). It agrees with the quantiles of
    the OPS of every draw up to the reference's step (an empirical pool of 2000: OPS
    moves in steps of 1/2000, and interpolating between order statistics of a step
    function can land between two steps)."""
    rng = np.random.default_rng(5)
    pool = EmpiricalPoints(rng.uniform(0, 0.5, 2000), rng.uniform(0, 0.5, 2000))
    for method, metric in (("dirichlet", "f1"), ("bootstrap", "fpr")):
        r = CM.ops(metric, reference=pool, ci=method, n_resamples=4000, rng=9)
        metric_iv = CM.interval(metric, method=method, n_resamples=4000, rng=9)
        mapped = pool.ops(metric, list(metric_iv.ci), prevalence=CM.prevalence).estimate
        if get_metric(metric).higher_is_better:
            assert (r.ci.low, r.ci.high) == (mapped[0], mapped[1])
        else:
            assert (r.ci.low, r.ci.high) == (mapped[1], mapped[0])
        ops_all = pool.ops(metric, metric_iv.draws, prevalence=CM.prevalence).estimate
        expected = np.quantile(ops_all, [0.025, 0.975])
        assert r.ci == pytest.approx(tuple(expected), abs=1 / 2000)
        assert r.ci_method == metric_iv.method
        assert r.ci.low <= r.estimate <= r.ci.high


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        ({"method": "bayes"}, ValueError, "`method` must be one of 'dirichlet', 'bootstrap'"),
        (
            {"interval": "bca"},
            ValueError,
            "`interval` must be one of 'equal-tailed', 'hpd'; got 'bca'",
        ),
        (
            {"method": "bootstrap", "interval": "hpd"},
            ValueError,
            "`interval` must be one of 'percentile', 'bca'; got 'hpd'",
        ),
        ({"prior": "flat"}, ValueError, "`prior` must be one of 'jeffreys', 'bayes-laplace'"),
        ({"prior": -1}, ValueError, r"`prior` must be in \(0, inf"),
        ({"prior": {"tp": 1}}, ValueError, "must have exactly the keys"),
        ({"prior": [1, 2]}, TypeError, "`prior` must be 'jeffreys', 'bayes-laplace'"),
        ({"prevalence": "variable"}, ValueError, "`prevalence` must be one of 'fixed', 'random'"),
        ({"n_resamples": 10}, ValueError, "`n_resamples` must be an integer >= 100; got 10"),
        ({"n_resamples": 1e4}, TypeError, "`n_resamples` must be an integer; got 10000.0"),
        (
            {"confidence_level": 1.5},
            ValueError,
            r"`confidence_level` must be in the open interval \(0, 1\); got 1.5",
        ),
        ({"rng": "seed"}, TypeError, "`rng` must be None, an int seed or a numpy Generator"),
        ({"method": "bootstrap", "stratified": "yes"}, TypeError, "`stratified` must be True"),
    ],
)
def test_interval_errors(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        CM.interval("f1", **kwargs)


def test_bootstrap_needs_whole_counts():
    weighted = ConfusionMatrix(tp=4.5, fp=2.0, fn=1.0, tn=10.0)
    with pytest.raises(ValueError, match=r"`tp` must be a whole number; got 4.5"):
        weighted.interval("f1", method="bootstrap")
    assert np.isfinite(weighted.interval("f1", rng=0).ci.low)  # Dirichlet accepts weights


def test_progress_bar_on_stderr(capsys):
    CM.interval("f1", progress=True, n_resamples=500, rng=0)
    assert "dirichlet [" in capsys.readouterr().err


def _coverage(method, quantity, truth_fn, n, pi, alpha, beta, reps, rng):
    hits = 0
    for _ in range(reps):
        pos = rng.binomial(n, pi)
        tp = rng.binomial(pos, 1 - beta)
        fp = rng.binomial(n - pos, alpha)
        cm = ConfusionMatrix(tp=tp, fp=fp, fn=pos - tp, tn=n - pos - fp)
        r = cm.interval(quantity, method=method, n_resamples=2000, rng=rng)
        hits += r.ci.low <= truth_fn(cm) <= r.ci.high
    return hits / reps


@pytest.mark.parametrize("method", ["dirichlet", "jeffreys", "clopper-pearson"])
def test_small_coverage_study_for_alpha(method):
    """A small fast version of benchmarks/coverage.py: 400 test sets of n = 300 at
    pi = 0.2, alpha = 0.15. Coverage of the 95% interval for alpha must be consistent
    with at least 93% (one-sided binomial test at the 0.001 level) and not absurdly
    conservative (<= 0.995)."""
    rng = np.random.default_rng(11)
    cov = _coverage(method, "alpha", lambda cm: 0.15, 300, 0.2, 0.15, 0.3, 400, rng)
    p_low = stats.binomtest(round(cov * 400), 400, 0.93, alternative="less").pvalue
    assert p_low > 0.001, cov
    assert cov <= 0.995


def test_bca_counts_resamples_equal_to_the_estimate_as_ties():
    """The estimate comes from cm.metric (extended precision), the resamples from float64:
    the resamples equal to the observed table differ from it by an ulp and must still
    count half below (found by the coverage study). With ties counted, the BCa bias
    correction z0 here equals the one computed from the float64 estimate."""
    from scipy.special import ndtri

    from opsstats.uncertainty._draws import bca_levels

    cm = ConfusionMatrix(tp=3, fp=5, fn=2, tn=40)
    est_ext = cm.metric("f1")
    est_64 = 6 / (6 + 5 + 2)
    draws = np.sort(np.r_[np.full(67, est_64), np.linspace(0.1, 0.9, 933)])
    jack, w = np.array([0.4, 0.5, 0.45, 0.46]), np.array([3.0, 5, 2, 40])
    assert bca_levels(draws, est_ext, jack, w, 0.95) == bca_levels(draws, est_64, jack, w, 0.95)
    below = np.sum(draws < est_64 - 1e-12) + 0.5 * np.sum(np.abs(draws - est_64) < 1e-12)
    assert np.isfinite(ndtri(below / draws.size))


def test_bca_with_every_resample_on_one_side_falls_back_quietly():
    cm = ConfusionMatrix(tp=3, fp=0, fn=0, tn=47)  # every resample has MCC = 1
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        with pytest.warns(SmallCountWarning):
            r = cm.interval("mcc", method="bootstrap", interval="bca", rng=0)
    assert r.ci.low <= r.estimate <= r.ci.high


def test_ops_interval_when_the_point_estimate_is_undefined():
    """MCC is 0/0 with TP = FP = 0, so its OPS is NaN with a reason; the interval from
    the draws is still given, as interval() gives one for the metric."""
    cm = ConfusionMatrix(tp=0, fp=0, fn=5, tn=40)
    with pytest.warns(UndefinedMetricWarning):
        r = cm.ops("mcc", ci="dirichlet", rng=0)
    assert np.isnan(r.estimate) and "0/0" in r.details["undefined"]
    assert 0 <= r.ci.low < r.ci.high <= 1
    assert "MC s.e." not in str(r)


def test_dirichlet_boundary_rule_keeps_the_estimate_inside():
    """A count of 0 puts the estimate on the boundary, where the Jeffreys posterior has
    little mass: the interval is extended to it, as the Jeffreys binomial interval's
    boundary rule does (lower end 0 when x = 0)."""
    cm = ConfusionMatrix(tp=0, fp=3, fn=8, tn=166)
    for name in ("precision", "recall", "f1"):
        r = cm.interval(name, rng=0)
        assert r.estimate == 0.0 and r.ci.low == 0.0 < r.ci.high
    alpha0 = ConfusionMatrix(tp=5, fp=0, fn=5, tn=50)
    d = alpha0.interval("alpha", n_resamples=200_000, rng=1)
    j = alpha0.interval("alpha", method="jeffreys")
    assert d.ci.low == j.ci.low == 0.0 and d.ci.high == pytest.approx(j.ci.high, abs=2e-3)


def test_draws_are_returned_in_draw_order():
    r = CM.interval("f1", rng=3)
    assert not np.all(np.diff(r.draws) >= 0)  # not sorted
    again = CM.interval("f1", rng=3)
    np.testing.assert_array_equal(r.draws, again.draws)


def test_ops_interval_when_every_draw_is_undefined():
    """TP = FP = 0: precision is 0/0 in every stratified resample (found by the coverage
    study); the result says so instead of failing."""
    cm = ConfusionMatrix(tp=0, fp=0, fn=3, tn=47)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = cm.ops("precision", ci="bootstrap", rng=0)
    assert np.isnan(r.estimate) and np.isnan(r.ci.low) and np.isnan(r.ci.high)
    assert r.details["n_undefined"] == 10_000
    assert "undefined (0/0) in all 10000 draws, so there is no interval" in r.ci_method


def test_infinite_draws_give_an_infinite_end_not_nan():
    """LR+ is infinite in every bootstrap resample that draws no false positive: with one
    FP among 101 negatives that is e**-1 of them, so the upper 2.5% quantile lies between
    two infinite draws; it is infinite, not NaN (inf - inf)."""
    cm = ConfusionMatrix(tp=40, fp=1, fn=10, tn=100)
    with pytest.warns(SmallCountWarning):
        r = cm.interval("lr_plus", method="bootstrap", rng=0)
    share_infinite = np.isinf(r.draws).mean()
    assert 0.3 < share_infinite < 0.45  # about (100/101)**101 = 0.362
    assert r.ci.high == np.inf and np.isfinite(r.ci.low) and r.ci.low > 1
    assert r.ci.low == pytest.approx(np.quantile(r.draws, 0.025), rel=1e-12)  # finite neighbours
