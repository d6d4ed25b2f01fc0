"""The uniform reference: paper values, closed forms vs quadrature vs independent
computations, Monte Carlo for every registered metric, properties and errors."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate, optimize

from opsstats.metrics import available_metrics, register_metric, resolve_metric, unregister_metric
from opsstats.reference import _uniform_closed_forms as cf
from opsstats.reference._quadrature import UniformSquare, exact_ops
from opsstats.reference.beta import BetaErrors
from opsstats.reference.uniform import Uniform

U = Uniform()
SQUARE = UniformSquare()


def quad_ops(name, values, prevalence, ties="strict", **params):
    """The generic engine, without closed forms or closed-form level sets."""
    m = resolve_metric(name, **params)
    return exact_ops(m, np.asarray(values, float), prevalence, SQUARE, ties=ties)


def closed(name, values, prevalence, **params):
    return cf.closed_form(resolve_metric(name, **params))(prevalence, np.asarray(values, float))


# --------------------------------------------------------------------------------------
# The paper's numbers
# --------------------------------------------------------------------------------------


def test_paper_example_2_f1_closed_form():
    # Example 2 (docs/method.md#published-values): F1 = 0.6 at pi = 0.1 -> 0.957672
    # (closed form, eq. 7; docs/method.md#uniform-reference)
    res = U.ops("f1", 0.6, prevalence=0.1)
    assert res.estimate == pytest.approx(0.957672, abs=1e-6)
    assert res.method == "exact (closed form)"
    assert res.standard_error == 0.0


def test_paper_mcc_exact_area():
    # The authors' worked example (docs/method.md#published-values): MCC = 0.4 at
    # pi = 0.1 -> 0.894998
    assert float(quad_ops("mcc", [0.4], 0.1)[0]) == pytest.approx(0.894998, abs=1e-6)
    assert float(U.ops("mcc", 0.4, prevalence=0.1)) == pytest.approx(0.894998, abs=1e-6)


# Table 5 of the paper (XGBoost, t = 0.19): prevalence, F1, OPS(F1), MCC, OPS(MCC).
TABLE5 = [
    ("heart, general", 0.091, 0.408, 0.892, 0.348, 0.874),
    ("heart, elder", 0.19, 0.453, 0.799, 0.3, 0.779),
    ("heart, hospital", 0.3, 0.614, 0.85, 0.468, 0.859),
    ("loan, general", 0.112, 0.361, 0.825, 0.268, 0.798),
    ("loan, low-income", 0.203, 0.475, 0.806, 0.316, 0.787),
    ("loan, risky", 0.3, 0.514, 0.735, 0.344, 0.78),
]


@pytest.mark.parametrize("row", TABLE5, ids=[r[0] for r in TABLE5])
def test_paper_table5(row):
    # The published inputs are rounded to 3 decimals; the OPS at the rounded inputs
    # matches every cell to 1e-3 (largest gap 0.0009, F1 of the loan general set, whose
    # OPS moves by +-0.0013 over the rounding interval of its inputs).
    _, pi, f1, ops_f1, mcc, ops_mcc = row
    assert float(U.ops("f1", f1, prevalence=pi)) == pytest.approx(ops_f1, abs=1e-3)
    assert float(U.ops("mcc", mcc, prevalence=pi)) == pytest.approx(ops_mcc, abs=1e-3)
    # and through the quadrature engine (MCC has no closed form in the paper)
    assert float(quad_ops("mcc", [mcc], pi)[0]) == pytest.approx(ops_mcc, abs=1e-3)


def test_table5_vectorized_over_prevalence():
    pis = np.array([r[1] for r in TABLE5])
    res = U.ops("f1", [r[2] for r in TABLE5], prevalence=pis)
    np.testing.assert_allclose(res.estimate, [r[3] for r in TABLE5], atol=1e-3)
    assert res.estimate.shape == (6,)


# --------------------------------------------------------------------------------------
# Sanity facts (docs/method.md#uniform-reference)
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("pi", [0.05, 0.3, 0.5, 0.8])
def test_random_classifier_mcc_zero_is_median(pi):
    assert float(U.ops("mcc", 0.0, prevalence=pi)) == pytest.approx(0.5, abs=1e-12)
    assert float(quad_ops("mcc", [0.0], pi)[0]) == pytest.approx(0.5, abs=1e-10)
    # every random classifier (alpha + beta = 1) has MCC 0
    a = np.linspace(0.05, 0.95, 7)
    np.testing.assert_allclose(resolve_metric("mcc")(pi, a, 1 - a), 0.0, atol=1e-12)


@pytest.mark.parametrize("pi", [0.1, 0.5, 0.9])
def test_trivial_positive_classifier_f1(pi):
    f1 = float(resolve_metric("f1")(pi, 1.0, 0.0))
    assert f1 == pytest.approx(2 * pi / (1 + pi), abs=1e-15)
    # eq. 7 at mu = c: (1 + pi) c / (2 pi (2 - c)) = (1 + pi) / 2
    assert float(U.ops("f1", f1, prevalence=pi)) == pytest.approx((1 + pi) / 2, abs=1e-12)
    assert float(quad_ops("f1", [f1], pi)[0]) == pytest.approx((1 + pi) / 2, abs=1e-10)


def test_recall_ops_is_the_value():
    mu = np.linspace(0, 1, 11)
    np.testing.assert_allclose(U.ops("recall", mu, prevalence=0.2).estimate, mu, atol=1e-15)
    np.testing.assert_allclose(quad_ops("recall", mu, 0.2), mu, atol=1e-10)


@pytest.mark.parametrize("name", available_metrics())
def test_range_ends_are_exact(name):
    m = resolve_metric(name)
    lo, hi = m.range
    worst, best = (lo, hi) if m.higher_is_better else (hi, lo)
    for pi in (0.1, 0.5):
        res = U.ops(name, [worst, best], prevalence=pi).estimate
        assert res[0] == 0.0
        # Pr{M worse than its best value} = 1: the best value is taken on a null set
        assert res[1] == 1.0
        q = quad_ops(name, [worst, best], pi)
        assert q[0] == 0.0 and q[1] == 1.0


def test_an_exact_ops_within_1e_13_of_an_end_reads_the_end():
    # docs/method.md#uniform-reference: the OPS of F1 = mu at pi = 0.5 is 3 mu / 4 near 0
    # (the half-plane cut 2 TP / (2 TP + FP + FN) < mu); below 1e-13 it reads 0, above
    # it keeps its value, and the same near 1 from the other side (FPR: OPS = 1 - mu)
    small = U.ops("f1", [1e-16, 1e-11], prevalence=0.5).estimate
    assert small[0] == 0.0
    assert small[1] == pytest.approx(0.75e-11, rel=1e-9)
    near_one = U.ops("fpr", [1e-14, 1e-11], prevalence=0.5).estimate
    assert near_one[0] == 1.0 and near_one[1] == pytest.approx(1 - 1e-11, abs=1e-15)


# --------------------------------------------------------------------------------------
# Closed forms vs quadrature (each verifies the other), and quadrature vs an
# independent computation
# --------------------------------------------------------------------------------------


def _grid(m):
    lo, hi = m.range
    if np.isinf(hi):
        return np.array([0.0, 1e-3, 0.2, 0.5, 0.9, 1.0, 1.1, 2.0, 5.0, 30.0, 1e4, np.inf])
    return np.linspace(lo, hi, 23)


@pytest.mark.parametrize("name", sorted(cf.CLOSED_FORMS))
def test_closed_form_matches_quadrature(name):
    params = {"beta": 2.0} if name == "fbeta" else {}
    m = resolve_metric(name, **params)
    mu = _grid(m)
    for pi in (0.02, 0.1, 0.3, 0.5, 0.77, 0.95):
        np.testing.assert_allclose(
            closed(name, mu, pi, **params), quad_ops(name, mu, pi, **params), atol=1e-9, rtol=0
        )


def test_fbeta_one_is_f1_and_paper_formula():
    mu = np.linspace(0, 1, 101)
    for pi in (0.05, 0.5, 0.9):
        np.testing.assert_allclose(
            closed("fbeta", mu, pi, beta=1.0), closed("f1", mu, pi), atol=1e-13
        )


def test_mcc_level_set_path_matches_generic_path():
    mu = np.linspace(-1, 1, 41)
    for pi in (0.01, 0.3, 0.9):
        ls = lambda a, v, pi=pi: cf.mcc_level_set(pi, a, v)  # noqa: E731
        fast = exact_ops(resolve_metric("mcc"), mu, pi, SQUARE, level_set=ls)
        np.testing.assert_allclose(fast, quad_ops("mcc", mu, pi), atol=1e-12)


def test_mcc_level_set_is_on_the_level_set():
    rng = np.random.default_rng(3)
    pi = 0.2
    a = rng.uniform(size=2000)
    mu = rng.uniform(-1, 1, size=2000)
    b = cf.mcc_level_set(pi, a, mu)
    interior = (b > 0) & (b < 1)
    got = resolve_metric("mcc")(pi, a[interior], b[interior])
    np.testing.assert_allclose(got, mu[interior], atol=1e-12)


def _independent_ops(name, mu, pi):
    """scipy.integrate.quad over alpha of the measure of {beta : M < mu} (or > for
    lower-is-better), the boundary by scipy.optimize.brentq: independent of the
    engine's Gauss-Kronrod rule and root finder."""
    m = resolve_metric(name)
    s = 1.0 if m.higher_is_better else -1.0

    def f(b, a):
        return s * (float(m(pi, a, b)) - mu)

    def h(a):
        f0, f1 = f(1e-15, a), f(1 - 1e-15, a)
        if f0 < 0:
            return 1.0
        if f1 >= 0:
            return 0.0
        return 1.0 - optimize.brentq(f, 1e-15, 1 - 1e-15, args=(a,), xtol=1e-15, rtol=1e-15)

    val, _err = integrate.quad(h, 0, 1, epsabs=1e-12, epsrel=1e-12, limit=400)
    return val


@pytest.mark.parametrize(
    "name, mu, pi",
    [
        ("markedness", 0.3, 0.05),
        ("markedness", -0.2, 0.8),
        ("fowlkes_mallows", 0.45, 0.1),
        ("g_mean", 0.6, 0.3),
        ("prevalence_threshold", 0.35, 0.2),
        ("mcc", 0.05, 0.01),
    ],
)
def test_quadrature_vs_independent_computation(name, mu, pi):
    assert float(quad_ops(name, [mu], pi)[0]) == pytest.approx(
        _independent_ops(name, mu, pi), abs=1e-7
    )


def test_quadrature_vs_dblquad_markedness():
    # A second independent check with scipy.integrate.dblquad: beta from 0 to the
    # brentq boundary, for a metric without a closed form.
    m = resolve_metric("markedness")
    pi, mu = 0.3, 0.25

    def bstar(a):
        f = lambda b: float(m(pi, a, b)) - mu  # noqa: E731
        if f(0.0) < 0:
            return 0.0
        if f(1 - 1e-15) >= 0:
            return 1.0
        return optimize.brentq(f, 0.0, 1 - 1e-15, xtol=1e-15)

    val, _ = integrate.dblquad(
        lambda b, a: 1.0, 0, 1, bstar, lambda a: 1.0, epsabs=1e-11, epsrel=1e-11
    )
    assert float(U.ops("markedness", mu, prevalence=pi)) == pytest.approx(val, abs=1e-7)


# --------------------------------------------------------------------------------------
# Monte Carlo: every registered metric
# --------------------------------------------------------------------------------------

MC_DRAWS = 1_000_000


@pytest.fixture(scope="module")
def uniform_draws():
    rng = np.random.default_rng(20240611)
    return rng.uniform(size=MC_DRAWS), rng.uniform(size=MC_DRAWS)


@pytest.mark.parametrize("pi", [0.05, 0.3, 0.5, 0.8])
def test_exact_ops_agrees_with_monte_carlo_for_every_metric(uniform_draws, pi):
    """1e6 uniform (alpha, beta) draws; values at quantiles 0.07, 0.3, 0.55, 0.9 of the
    metric's reference distribution, taken from an independent pilot sample so that
    the checked proportion is not the pilot's own quantile. Agreement within 4 binomial
    standard errors."""
    a, b = uniform_draws
    pilot = np.random.default_rng(7).uniform(size=(2, 20_000))
    levels = [0.07, 0.3, 0.55, 0.9]
    checked = 0
    for name in available_metrics():
        m = resolve_metric(name)
        sample = m(pi, a, b)
        pilot_vals = m(pi, pilot[0], pilot[1])
        values = np.nanquantile(pilot_vals, levels)
        values = values[np.isfinite(values)]
        exact = np.atleast_1d(U.ops(name, values, prevalence=pi).estimate)
        with np.errstate(invalid="ignore"):
            if m.higher_is_better:
                mc = (sample[:, None] < values).mean(axis=0)
            else:
                mc = (sample[:, None] > values).mean(axis=0)
        se = np.sqrt(np.maximum(exact * (1 - exact), 1e-12) / MC_DRAWS)
        z = np.abs(exact - mc) / se
        assert np.all(z < 4), (name, pi, values, exact, mc, z)
        checked += values.size
    assert checked >= 3 * len(available_metrics())


def test_fbeta_parameter_against_monte_carlo(uniform_draws):
    a, b = uniform_draws
    m = resolve_metric("fbeta", beta=0.5)
    for pi in (0.1, 0.6):
        sample = m(pi, a, b)
        for mu in (0.2, 0.5, 0.8):
            exact = float(U.ops("fbeta", mu, prevalence=pi, beta=0.5))
            se = np.sqrt(exact * (1 - exact) / MC_DRAWS)
            assert abs(exact - np.mean(sample < mu)) < 4 * se


# --------------------------------------------------------------------------------------
# User metrics, ties, orientation
# --------------------------------------------------------------------------------------


@pytest.fixture
def user_metrics():
    f1 = resolve_metric("f1")
    names = []

    def reg(name, func, **kw):
        register_metric(name, func, **kw)
        names.append(name)

    reg(
        "test_three_f1_plus_one",
        lambda p, a, b: 3 * f1(p, a, b) + 1,
        direction="higher",
        range=(1, 4),
    )
    reg(
        "test_clipped_recall",
        lambda p, a, b: np.minimum(2 * (1 - b), 1.0),
        direction="higher",
        range=(0, 1),
    )
    # monotone in alpha only: the engine exchanges the roles of alpha and beta
    reg(
        "test_wiggly",
        lambda p, a, b: (1 - a) + 0.1 * np.sin(6 * b),
        direction="higher",
        range=(-0.1, 1.1),
    )
    reg(
        "test_not_monotone",
        lambda p, a, b: (a - 0.5) ** 2 + (b - 0.5) ** 2,
        direction="lower",
        range=(0, 0.5),
    )
    yield
    for n in names:
        unregister_metric(n)


def test_user_metric_affine_invariance(user_metrics):
    mu = np.linspace(0.01, 0.99, 25)
    for pi in (0.1, 0.5):
        res = U.ops("test_three_f1_plus_one", 3 * mu + 1, prevalence=pi)
        assert res.method == "exact (adaptive Gauss-Kronrod quadrature, tol 1e-10)"
        np.testing.assert_allclose(res.estimate, U.ops("f1", mu, prevalence=pi).estimate, atol=1e-9)


def test_ties_on_a_flat_region(user_metrics):
    # min(2 recall, 1) = 1 on {beta <= 1/2}, an area of 1/2: Pr{M < 1} = 1/2 and
    # mid-ranks add half of Pr{M = 1} = 1/4.
    assert float(U.ops("test_clipped_recall", 1.0, prevalence=0.3)) == pytest.approx(0.5, abs=1e-10)
    assert float(U.ops("test_clipped_recall", 1.0, prevalence=0.3, ties="mid")) == pytest.approx(
        0.75, abs=1e-10
    )
    # below the flat part the metric is continuous: both conventions agree
    assert float(U.ops("test_clipped_recall", 0.6, prevalence=0.3, ties="mid")) == pytest.approx(
        0.3, abs=1e-10
    )
    assert float(U.ops("test_clipped_recall", 0.6, prevalence=0.3)) == pytest.approx(0.3, abs=1e-10)


def test_mid_ties_equal_strict_for_continuous_metrics():
    mu = np.linspace(-0.9, 0.9, 7)
    np.testing.assert_allclose(
        quad_ops("markedness", mu, 0.3, ties="mid"), quad_ops("markedness", mu, 0.3), atol=1e-10
    )
    np.testing.assert_allclose(
        U.ops("f1", [0.3, 0.7], prevalence=0.2, ties="mid").estimate,
        U.ops("f1", [0.3, 0.7], prevalence=0.2).estimate,
        atol=0,
    )


def test_metric_monotone_in_alpha_only(user_metrics, uniform_draws):
    a, b = uniform_draws
    m = resolve_metric("test_wiggly")
    sample = m(0.4, a, b)
    for mu in (0.1, 0.5, 0.95):
        exact = float(U.ops("test_wiggly", mu, prevalence=0.4))
        se = np.sqrt(exact * (1 - exact) / MC_DRAWS)
        assert abs(exact - np.mean(sample < mu)) < 4 * se
    # exact: Pr{1 - A + 0.1 sin(6 B) < mu} = E_B[clip(mu - 0.1 sin(6B), 0, 1)]
    mu = 0.5
    want, _ = integrate.quad(lambda t: np.clip(mu - 0.1 * np.sin(6 * t), 0, 1), 0, 1, epsabs=1e-13)
    assert float(U.ops("test_wiggly", mu, prevalence=0.4)) == pytest.approx(want, abs=1e-9)


def test_metric_monotone_in_neither_rate_is_refused(user_metrics):
    with pytest.raises(ValueError, match="monotone in neither"):
        U.ops("test_not_monotone", 0.1, prevalence=0.3)


# --------------------------------------------------------------------------------------
# Properties
# --------------------------------------------------------------------------------------

NAMES = available_metrics()


def _value_in_range(m, t):
    lo, hi = m.range
    if np.isinf(hi):
        return t / (1 - t) if t < 1 else np.inf
    return lo + (hi - lo) * t


@settings(max_examples=40, deadline=None)
@given(
    name=st.sampled_from(NAMES), pi=st.floats(0.01, 0.99), t1=st.floats(0, 1), t2=st.floats(0, 1)
)
def test_property_bounded_and_monotone(name, pi, t1, t2):
    m = resolve_metric(name)
    v = sorted([_value_in_range(m, t1), _value_in_range(m, t2)])
    o = U.ops(name, v, prevalence=pi).estimate
    assert np.all((o >= 0) & (o <= 1))
    # OPS is "higher is better": non-decreasing in the value for higher-is-better
    # metrics, non-increasing for lower-is-better ones.
    if m.higher_is_better:
        assert o[0] <= o[1] + 1e-12
    else:
        assert o[0] >= o[1] - 1e-12


@settings(max_examples=25, deadline=None)
@given(
    name=st.sampled_from(
        ["markedness", "mcc", "g_mean", "lr_plus", "diagnostic_odds_ratio", "prevalence_threshold"]
    ),
    pi=st.floats(0.02, 0.98),
    t=st.lists(st.floats(0, 1), min_size=2, max_size=5),
)
def test_property_quadrature_bounded_and_monotone(name, pi, t):
    m = resolve_metric(name)
    v = np.sort([_value_in_range(m, x) for x in t])
    o = quad_ops(name, v, pi)
    assert np.all((o >= 0) & (o <= 1))
    d = np.diff(o)
    assert np.all(d >= -1e-9) if m.higher_is_better else np.all(d <= 1e-9)


@settings(max_examples=30, deadline=None)
@given(pi=st.floats(0.01, 0.99), mu=st.floats(0, 1))
def test_property_lift_is_precision_over_pi(pi, mu):
    # lift = precision / pi: same OPS (paper section 3.1); also through quadrature
    a = float(U.ops("precision", mu, prevalence=pi))
    assert float(U.ops("lift", mu / pi, prevalence=pi)) == pytest.approx(a, abs=1e-12)
    assert float(quad_ops("lift", [mu / pi], pi)[0]) == pytest.approx(a, abs=1e-9)


def test_lift_above_its_prevalence_bound():
    # lift <= 1 / pi at prevalence pi: any larger value beats every reference classifier
    assert float(U.ops("lift", 1 / 0.2 + 1, prevalence=0.2)) == 1.0


# --------------------------------------------------------------------------------------
# Errors and printing
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("pi", [0.0, 1.0])
def test_prevalence_zero_or_one(pi):
    with pytest.raises(ValueError, match="OPS is undefined when one class is absent"):
        U.ops("f1", 0.5, prevalence=pi)


def test_value_outside_range():
    with pytest.raises(ValueError, match=r"range of F1 score, \[0, 1\]; got 1.2"):
        U.ops("f1", 1.2, prevalence=0.3)
    with pytest.raises(ValueError, match=r"range of Matthews"):
        U.ops("mcc", -1.5, prevalence=0.3)
    with pytest.raises(ValueError, match="NaN"):
        U.ops("mcc", np.nan, prevalence=0.3)


def test_unknown_metric_lists_valid_names():
    with pytest.raises(ValueError, match=r"(?i)unknown metric 'f2'.*valid names: .*mcc"):
        U.ops("f2", 0.5, prevalence=0.3)


def test_at_is_refused():
    with pytest.raises(ValueError, match="curve reference"):
        U.ops("precision", 0.4, prevalence=0.1, at={"recall": 0.9})


def test_ties_option_checked():
    with pytest.raises(ValueError, match="`ties` must be one of 'strict', 'mid'"):
        U.ops("f1", 0.5, prevalence=0.3, ties="average")


def test_printed_result_says_how():
    assert U.ops("mcc", 0.4, prevalence=0.1).to_string() == (  # str() wraps it
        "OPS(Matthews correlation coefficient = 0.4 at prevalence 0.1) = 0.8950 "
        "[Uniform(alpha, beta) on [0, 1]^2; exact (closed form)]"
    )
    res = U.ops("markedness", [0.1, 0.2], prevalence=0.1)
    assert res.method == "exact (closed form)"  # the closed form, not the quadrature
    register_metric(
        "markedness_like_user_metric", lambda p, a, b: 1 - a - b, direction="higher", range=(-1, 1)
    )
    try:
        res = U.ops("markedness_like_user_metric", [0.1, 0.2], prevalence=0.1)
        assert res.method == "exact (adaptive Gauss-Kronrod quadrature, tol 1e-10)"
    finally:
        unregister_metric("markedness_like_user_metric")
    assert res.is_exact
    assert Uniform() == U and hash(U) == hash(Uniform())


@pytest.mark.parametrize("k", [3, 5, 8, 9, 10, 12])
def test_markedness_closed_form_at_tiny_prevalence(k):
    """Markedness at tiny prevalence: the quadrature took 40 s at prevalence 1e-8 and over 15 minutes
    at 1e-9; the closed form is checked against a 50-digit decimal computation from the
    count definition (benchmarks/markedness_reference.py: bisection and graded
    Gauss-Legendre, independent of the closed form) at mu = pi, 0.5 and -0.5."""
    from benchmarks.markedness_reference import markedness_ops

    pi = 10.0**-k
    for mu in (pi, 0.5, -0.5):
        exact = markedness_ops(pi, mu)
        assert abs(U.ops("markedness", mu, prevalence=pi).estimate - exact) <= 2e-16
        # the quadrature engine, with the closed-form level set (BetaErrors(1, 1, 1, 1) is
        # the uniform distribution without the closed forms)
        beta = BetaErrors(1, 1, 1, 1).ops("markedness", mu, prevalence=pi).estimate
        assert abs(beta - exact) <= 1e-15


def test_quadrature_refuses_what_it_cannot_resolve():
    """A user metric evaluated with too few digits (markedness written out anew, without
    its level set, at prevalence 1e-9) is refused within the piece budget, not integrated
    for a quarter of an hour."""
    from opsstats.metrics import get_metric

    func = get_metric("markedness").func
    register_metric(
        "markedness_rough_user_metric",
        lambda p, a, b: func(p, a, b),
        direction="higher",
        range=(-1, 1),
    )
    try:
        with pytest.raises(ValueError, match=r"did not reach its tolerance .* within 2048"):
            U.ops("markedness_rough_user_metric", 1e-9, prevalence=1e-9)
    finally:
        unregister_metric("markedness_rough_user_metric")


def test_fowlkes_mallows_ops_of_a_tiny_value_does_not_overflow():
    """FM = mu = 1e-160: mu^2 is subnormal and p (1 - mu^2) / (mu^2 q) overflows to inf, the
    right end (the level set ends at alpha = 1); no overflow warning may escape (hypothesis
    found one in test_property_bounded_and_monotone). By hand, for small mu the level set
    is x*(a) ~ sqrt(mu^2 q a / p), so OPS ~ int_0^1 x*(a) da = (2/3) mu sqrt(q / p)."""
    import warnings

    from opsstats.reference._uniform_closed_forms import _ops_fowlkes_mallows

    p, mu = 0.3, 1e-160
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        o = float(_ops_fowlkes_mallows(p, mu))
        U.ops("fowlkes_mallows", [mu, 0.0], prevalence=p)
    assert o == pytest.approx(2 / 3 * mu * np.sqrt((1 - p) / p), rel=1e-9)
