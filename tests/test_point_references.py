"""BetaErrors and BetterThanChance: exact OPS through the quadrature engine, checked
against the uniform reference and against Monte Carlo."""

from __future__ import annotations

import numpy as np
import pytest

from opsstats.metrics import available_metrics, register_metric, resolve_metric, unregister_metric
from opsstats.reference.base import PointReference
from opsstats.reference.beta import BetaErrors
from opsstats.reference.better_than_chance import BetterThanChance
from opsstats.reference.uniform import Uniform

N_MC = 1_000_000
LEVELS = [0.1, 0.45, 0.85]


def _mc_check(ref, draws_a, draws_b, names, prevalences, pilot_a, pilot_b):
    """Exact OPS vs the proportion of reference draws worse than the value, within 4
    binomial standard errors; values at quantiles of an independent pilot sample."""
    n = draws_a.size
    for pi in prevalences:
        for name in names:
            m = resolve_metric(name)
            values = np.nanquantile(m(pi, pilot_a, pilot_b), LEVELS)
            values = values[np.isfinite(values)]
            exact = np.atleast_1d(ref.ops(name, values, prevalence=pi).estimate)
            sample = m(pi, draws_a, draws_b)
            with np.errstate(invalid="ignore"):
                worse = (
                    (sample[:, None] < values) if m.higher_is_better else (sample[:, None] > values)
                )
            mc = worse.mean(axis=0)
            se = np.sqrt(np.maximum(exact * (1 - exact), 1e-12) / n)
            z = np.abs(exact - mc) / se
            assert np.all(z < 4), (name, pi, values, exact, mc, z)


# --------------------------------------------------------------------------------------
# BetaErrors
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("pi", [0.07, 0.5, 0.9])
def test_beta_one_one_is_uniform(pi):
    ref = BetaErrors(1, 1, 1, 1)
    uni = Uniform()
    for name in available_metrics():
        m = resolve_metric(name)
        lo, hi = m.range
        mu = np.array([0.0, 0.2, 0.9, 3.0, 50.0]) if np.isinf(hi) else np.linspace(lo, hi, 7)
        np.testing.assert_allclose(
            ref.ops(name, mu, prevalence=pi).estimate,
            uni.ops(name, mu, prevalence=pi).estimate,
            atol=1e-9,
            err_msg=name,
        )


def test_beta_2_5_against_monte_carlo():
    rng = np.random.default_rng(11)
    ref = BetaErrors(2, 5, 2, 5)
    a, b = rng.beta(2, 5, size=N_MC), rng.beta(2, 5, size=N_MC)
    pa, pb = rng.beta(2, 5, size=20_000), rng.beta(2, 5, size=20_000)
    _mc_check(
        ref,
        a,
        b,
        [
            "f1",
            "mcc",
            "markedness",
            "precision",
            "g_mean",
            "lr_minus",
            "prevalence_threshold",
            "balanced_accuracy",
        ],
        [0.1, 0.6],
        pa,
        pb,
    )


def test_beta_unbounded_densities_against_monte_carlo():
    # shapes < 1: densities unbounded at the ends (probability coordinates are used)
    rng = np.random.default_rng(12)
    ref = BetaErrors(0.5, 0.5, 0.7, 3)
    a, b = rng.beta(0.5, 0.5, size=N_MC), rng.beta(0.7, 3, size=N_MC)
    pa, pb = rng.beta(0.5, 0.5, size=20_000), rng.beta(0.7, 3, size=20_000)
    _mc_check(ref, a, b, ["f1", "mcc", "fowlkes_mallows", "accuracy"], [0.2], pa, pb)


def test_beta_asymmetric_mixed_shapes_against_monte_carlo():
    rng = np.random.default_rng(13)
    ref = BetaErrors(3, 1.5, 0.8, 1.2)  # alpha: bounded density; beta: unbounded
    a, b = rng.beta(3, 1.5, size=N_MC), rng.beta(0.8, 1.2, size=N_MC)
    pa, pb = rng.beta(3, 1.5, size=20_000), rng.beta(0.8, 1.2, size=20_000)
    _mc_check(ref, a, b, ["mcc", "npv", "diagnostic_odds_ratio"], [0.35], pa, pb)


def test_informative_reference_is_harder_to_beat():
    # Beta(2, 8) x Beta(3, 7) puts its mass on good classifiers: same value, lower OPS
    good = BetaErrors(2, 8, 3, 7)
    for name, mu in [("f1", 0.6), ("mcc", 0.4), ("balanced_accuracy", 0.8)]:
        assert float(good.ops(name, mu, prevalence=0.1)) < float(
            Uniform().ops(name, mu, prevalence=0.1)
        )


def test_beta_description_method_equality():
    ref = BetaErrors(2, 5, 1.5, 3)
    assert ref.description == "BetaErrors(alpha ~ Beta(2, 5), beta ~ Beta(1.5, 3))"
    res = ref.ops("mcc", 0.3, prevalence=0.2)
    assert res.method == (
        "exact (adaptive Gauss-Kronrod quadrature, tol 1e-10, closed-form level set)"
    )
    assert res.standard_error == 0.0 and res.reference == ref.description
    assert (
        ref.ops("f1", 0.3, prevalence=0.2).method
        == "exact (adaptive Gauss-Kronrod quadrature, tol 1e-10)"
    )
    assert ref == BetaErrors(2.0, 5.0, 1.5, 3.0) and ref != BetaErrors(2, 5, 1.5, 4)
    assert hash(ref) == hash(BetaErrors(2, 5, 1.5, 3))
    assert isinstance(ref, PointReference) and ref.exact


@pytest.mark.parametrize(
    "args, exc, match",
    [
        ((0, 1, 1, 1), ValueError, r"`a_alpha` must be in \(0, inf\); got 0.0"),
        ((1, -2, 1, 1), ValueError, r"`b_alpha` must be in \(0, inf\); got -2.0"),
        ((1, 1, np.inf, 1), ValueError, r"`a_beta` must be finite"),
        ((1, 1, 1, np.nan), ValueError, r"`b_beta` must be finite"),
        ((1, 1, "2", 1), TypeError, r"`a_beta` must be a real number; got '2'"),
        ((True, 1, 1, 1), TypeError, r"`a_alpha` must be a real number"),
    ],
)
def test_beta_bad_parameters(args, exc, match):
    with pytest.raises(exc, match=match):
        BetaErrors(*args)


# --------------------------------------------------------------------------------------
# BetterThanChance
# --------------------------------------------------------------------------------------


def _triangle(rng, n):
    """Uniform on {a + b <= 1}: reflect the square's upper triangle onto the lower one."""
    a, b = rng.uniform(size=n), rng.uniform(size=n)
    up = a + b > 1
    a[up], b[up] = 1 - b[up], 1 - a[up]
    return a, b


def test_better_than_chance_against_monte_carlo_every_metric():
    rng = np.random.default_rng(21)
    a, b = _triangle(rng, N_MC)
    pa, pb = _triangle(rng, 20_000)
    _mc_check(BetterThanChance(), a, b, available_metrics(), [0.05, 0.5], pa, pb)


def test_better_than_chance_random_classifier_scores_zero():
    ref = BetterThanChance()
    for pi in (0.1, 0.5, 0.8):
        assert float(ref.ops("mcc", 0.0, prevalence=pi)) == 0.0
        assert float(ref.ops("informedness", 0.0, prevalence=pi)) == 0.0
        assert float(ref.ops("balanced_accuracy", 0.5, prevalence=pi)) == 0.0


def test_better_than_chance_halves_the_better_half():
    # For MCC >= 0 the worse-than-mu region contains the whole worse-than-chance
    # triangle (area 1/2 of the square), so OPS_btc = 2 OPS_uniform - 1.
    mu = np.linspace(0, 1, 11)
    for pi in (0.1, 0.4):
        np.testing.assert_allclose(
            BetterThanChance().ops("mcc", mu, prevalence=pi).estimate,
            2 * Uniform().ops("mcc", mu, prevalence=pi).estimate - 1,
            atol=1e-9,
        )
        # informedness is uniform-like: Pr{1 - A - B < mu | A + B <= 1} = 1 - (1 - mu)^2
        np.testing.assert_allclose(
            BetterThanChance().ops("informedness", mu, prevalence=pi).estimate,
            1 - (1 - mu) ** 2,
            atol=1e-9,
        )


def test_better_than_chance_description():
    ref = BetterThanChance()
    res = ref.ops("f1", [0.2, 0.5], prevalence=0.3)
    assert res.reference == "BetterThanChance: (alpha, beta) uniform on {alpha + beta <= 1}"
    assert res.method == "exact (adaptive Gauss-Kronrod quadrature, tol 1e-10)"
    assert ref == BetterThanChance() and ref != Uniform()


# --------------------------------------------------------------------------------------
# Shared behaviour: user metrics, orientation, errors
# --------------------------------------------------------------------------------------


@pytest.fixture
def alpha_only_metric():
    register_metric(
        "test_pr_wiggle",
        lambda p, a, b: (1 - a) + 0.05 * np.cos(9 * b),
        direction="higher",
        range=(-0.05, 1.05),
    )
    yield "test_pr_wiggle"
    unregister_metric("test_pr_wiggle")


def test_exchanged_roles_on_the_triangle_and_beta(alpha_only_metric):
    rng = np.random.default_rng(31)
    a, b = _triangle(rng, N_MC)
    pa, pb = _triangle(rng, 20_000)
    _mc_check(BetterThanChance(), a, b, [alpha_only_metric], [0.3], pa, pb)
    a, b = rng.beta(2, 3, size=N_MC), rng.beta(4, 2, size=N_MC)
    pa, pb = rng.beta(2, 3, size=20_000), rng.beta(4, 2, size=20_000)
    _mc_check(BetaErrors(2, 3, 4, 2), a, b, [alpha_only_metric], [0.3], pa, pb)


@pytest.mark.parametrize("ref", [BetaErrors(2, 5, 2, 5), BetterThanChance()], ids=["beta", "btc"])
def test_errors(ref):
    with pytest.raises(ValueError, match="OPS is undefined when one class is absent"):
        ref.ops("f1", 0.5, prevalence=1.0)
    with pytest.raises(ValueError, match=r"range of F1 score"):
        ref.ops("f1", -0.1, prevalence=0.5)
    with pytest.raises(ValueError, match="curve reference"):
        ref.ops("precision", 0.5, prevalence=0.5, at={"recall": 0.8})
    with pytest.raises(ValueError, match=r"(?i)valid names"):
        ref.ops("not_a_metric", 0.5, prevalence=0.5)


def test_vectorized_over_values_and_prevalences():
    # prevalence broadcasts against the last axis of value
    ref = BetterThanChance()
    res = ref.ops("mcc", [[0.1, 0.2], [0.3, 0.4]], prevalence=[0.1, 0.5])
    assert res.estimate.shape == (2, 2)
    assert res.estimate[1, 0] == pytest.approx(
        float(ref.ops("mcc", 0.3, prevalence=0.1)), abs=1e-12
    )
    assert res.estimate[1, 1] == pytest.approx(
        float(ref.ops("mcc", 0.4, prevalence=0.5)), abs=1e-12
    )
