"""Score-distribution measures (Chtcheprov, Krovvidy and Vera) against independent
computations.

- Each measure is checked against a slow, obvious numerical integration of its
  defining formula written with the empirical distribution functions (eqs. 5, 6, 9, 10,
  14, 15): ``scipy.integrate.quad`` over [0, 1] with the jump points as breakpoints, so
  that every piece is smooth and the quadrature is accurate to ~1e-12. RUI and PUI are
  checked as Lebesgue measures on a fine grid.
- Edge cases with known values (perfect separation, reversed classes, identical
  distributions).
- Table 1 of the paper reproduced by its own simulation, and the population values of
  the simulated distributions computed by quadrature of the truncated-normal CDFs.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from scipy import integrate, stats

from opsstats.curves import (
    KERNELS,
    ScoreCurve,
    aupc,
    aurc,
    dm,
    error_ratio,
    pui,
    rui,
    score_measures,
)

LN2 = math.log(2.0)
# K'(s) of eq. 6: the integrands of eq. 5 are [F-(s) - F+(s)] K'(s).
KERNEL_DERIVATIVES = {
    1: lambda s: 1.0,
    2: lambda s: 2.0 * s,
    3: lambda s: 3.0 * s * s,
    "entropy": lambda s: 1.0 / ((1.0 + s) * LN2),  # eq. 6b
    "log": lambda s: (1.0 + math.log1p(s)) / (2.0 * LN2),  # eq. 6c
}
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def unit_scores(draw, weighted: bool = False):
    n = draw(st.integers(2, 30))
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    assume(0 < y.sum() < n)
    if draw(st.booleans()):
        pool = [0.0, 0.1, 0.25, 0.5, 0.6, 0.9, 1.0]
        s = np.array(draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n)))
    else:
        s = np.array(draw(st.lists(st.floats(0, 1), min_size=n, max_size=n)))
    w = np.ones(n)
    if weighted:
        w = np.array(draw(st.lists(st.sampled_from([0.0, 0.5, 1.0, 3.0]), min_size=n, max_size=n)))
        assume(w[y == 1].sum() > 0 and w[y == 0].sum() > 0)
    return y, s.astype(float), w


# ------------------------------------------------------------ slow references
def ecdf(scores, weights):
    """The (weighted) empirical distribution function F(t) = P(S <= t), eq. 3."""
    total = weights.sum()
    return lambda t: float(weights[scores <= t].sum() / total)


def quad(f, breakpoints):
    pts = sorted({float(b) for b in breakpoints if 0.0 < b < 1.0})
    value, _ = integrate.quad(
        f, 0.0, 1.0, points=pts or None, limit=500, epsabs=1e-13, epsrel=1e-13
    )
    return value


def slow_measures(y, s, w):
    pos, neg = y == 1, y == 0
    Fp, Fm = ecdf(s[pos], w[pos]), ecdf(s[neg], w[neg])
    out = {}
    for kernel, dK in KERNEL_DERIVATIVES.items():
        out[kernel] = quad(lambda t, dK=dK: (Fm(t) - Fp(t)) * dK(t), s)  # eq. 5
    out["aurc"] = quad(lambda t: 1.0 - Fp(t), s)  # eq. 9
    b = w[pos].sum() / w[neg].sum()  # N+/N-
    top = s[w > 0].max()
    top_prec = w[pos & (s == top)].sum() / w[(s == top)].sum()

    def precision(t):  # eq. 10
        num = b * (1.0 - Fp(t))
        den = num + 1.0 - Fm(t)
        # 0/0 above the highest score: the left limit, the top block's precision
        return num / den if t < top else top_prec

    out["aupc"] = (1.0 + b) * quad(precision, s) - b  # eq. 14
    return out


# ---------------------------------------------------------------- measures
@SETTINGS
@given(unit_scores(weighted=True), st.booleans())
def test_measures_match_numerical_integration(data, weighted):
    y, s, w = data
    if not weighted:
        w = np.ones_like(w)
    curve = ScoreCurve.from_scores(y, s, sample_weight=w if weighted else None)
    want = slow_measures(y, s, w)
    for kernel in KERNELS:
        assert dm(curve, kernel) == pytest.approx(want[kernel], abs=1e-9)
    assert aurc(curve) == pytest.approx(want["aurc"], abs=1e-9)
    assert aupc(curve) == pytest.approx(want["aupc"], abs=1e-9)


@SETTINGS
@given(unit_scores(weighted=True))
def test_dm_is_a_difference_of_mean_kernel_values(data):
    # eq. 4 with empirical densities: DM = mean K(s+) - mean K(s-) (weighted means)
    y, s, w = data
    curve = ScoreCurve.from_scores(y, s, sample_weight=w)
    pos, neg = y == 1, y == 0
    for kernel, (_, K) in KERNELS.items():
        want = np.average(K(s[pos]), weights=w[pos]) - np.average(K(s[neg]), weights=w[neg])
        assert curve.dm(kernel) == pytest.approx(want, abs=1e-12)
    assert curve.aurc() == pytest.approx(np.average(s[pos], weights=w[pos]), abs=1e-12)


@SETTINGS
@given(unit_scores(weighted=True))
def test_rui_and_pui_are_lengths_of_intervals(data):
    y, s, w = data
    curve = ScoreCurve.from_scores(y, s, sample_weight=w)
    keep = w > 0
    pos, neg = (y == 1) & keep, (y == 0) & keep
    # eq. 8: RUI = 1 - length{t : F+(t) > 0}; eq. 13: PUI = length{t : F-(t) = 1}
    grid = (np.arange(200_000) + 0.5) / 200_000
    Fp = np.searchsorted(np.sort(s[pos]), grid, side="right")
    Fm = np.searchsorted(np.sort(s[neg]), grid, side="right")
    assert curve.rui() == pytest.approx(1.0 - np.mean(Fp > 0), abs=1e-5)
    assert curve.pui() == pytest.approx(np.mean(Fm == neg.sum()), abs=1e-5)
    assert curve.rui() == s[pos].min() and curve.pui() == 1.0 - s[neg].max()


@SETTINGS
@given(unit_scores(weighted=True), st.lists(st.floats(0, 1), min_size=1, max_size=10))
def test_error_ratio_matches_eq15(data, ts):
    y, s, w = data
    curve = ScoreCurve.from_scores(y, s, sample_weight=w)
    frame = error_ratio(curve)
    assert frame["threshold"].is_monotonic_increasing
    pos, neg = y == 1, y == 0
    Fp, Fm = ecdf(s[pos], w[pos]), ecdf(s[neg], w[neg])
    Np, Nm = w[pos].sum(), w[neg].sum()
    for t in ts + list(s):
        row = frame[frame["threshold"] <= t].iloc[-1]
        want = Nm / Np + Fp(t) - Nm / Np * Fm(t)  # eq. 15
        assert row["error_ratio"] == pytest.approx(want, abs=1e-12)
        # e(t): misclassification error of "positive where score > t"
        err = (w[pos & (s <= t)].sum() + w[neg & (s > t)].sum()) / (Np + Nm)
        assert row["error_rate"] == pytest.approx(err, abs=1e-12)


def test_score_measures_series():
    curve = ScoreCurve.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    series = score_measures(curve)
    assert list(series.index) == [
        "DM_1",
        "DM_2",
        "DM_3",
        "DM_entropy",
        "DM_log",
        "RUI",
        "AURC",
        "PUI",
        "AUPC",
    ]
    assert series["DM_1"] == curve.dm(1) and series["AUPC"] == curve.aupc()
    assert series.equals(curve.score_measures())
    assert rui(curve) == curve.rui() and pui(curve) == curve.pui()


# -------------------------------------------------------------- edge cases
def test_perfect_separation():
    # all positives above all negatives: DM_1 is the difference of the means (AUC = 1
    # whatever the gap: the DM measures see the gap, eq. 7 discussion)
    y = np.array([1, 1, 1, 0, 0])
    s = np.array([0.9, 0.8, 0.7, 0.3, 0.1])
    c = ScoreCurve.from_scores(y, s)
    assert c.auc() == 1.0
    assert c.dm(1) == pytest.approx(0.8 - 0.2, abs=1e-15)
    assert c.dm(2) == pytest.approx((0.81 + 0.64 + 0.49) / 3 - (0.09 + 0.01) / 2, abs=1e-15)
    assert c.rui() == 0.7 and c.pui() == pytest.approx(0.7, abs=1e-15)
    assert c.aurc() == pytest.approx(0.8, abs=1e-15)
    # precision 1 on [0.3, 1] (top-block limit above 0.9), 3/4 on [0.1, 0.3), 3/5 below
    integral = 0.7 * 1.0 + 0.2 * 0.75 + 0.1 * 0.6
    b = 3 / 2
    assert c.aupc() == pytest.approx((1 + b) * integral - b, abs=1e-14)


def test_ideal_reversed_and_uninformative_classifiers():
    ideal = ScoreCurve.from_scores([1, 1, 0, 0, 0], [1.0, 1.0, 0.0, 0.0, 0.0])
    for kernel in KERNELS:
        assert ideal.dm(kernel) == 1.0
    assert (ideal.aupc(), ideal.rui(), ideal.pui(), ideal.aurc()) == (1.0, 1.0, 1.0, 1.0)

    reverse = ScoreCurve.from_scores([1, 1, 0, 0, 0], [0.0, 0.0, 1.0, 1.0, 1.0])
    for kernel in KERNELS:
        assert reverse.dm(kernel) == -1.0
    # The paper says AUPC = -1 here; its own eq. 14 gives (1 + b) * 0 - b = -b with
    # b = N+/N- = 2/3 (the two agree only for balanced classes). We follow eq. 14.
    assert reverse.aupc() == pytest.approx(-2 / 3, abs=1e-15)

    same = ScoreCurve.from_scores([1, 1, 1, 0, 0, 0], [0.2, 0.5, 0.9, 0.2, 0.5, 0.9])
    for kernel in KERNELS:
        assert same.dm(kernel) == pytest.approx(0.0, abs=1e-15)
    assert same.aupc() == pytest.approx(0.0, abs=1e-15)  # Pr(t) = prevalence for all t


def test_error_ratio_ends():
    c = ScoreCurve.from_scores([1, 0, 0, 0, 1], [0.9, 0.8, 0.3, 0.2, 0.5])
    frame = c.error_ratio()
    assert frame["threshold"].iloc[0] == 0.0
    assert frame["error_ratio"].iloc[0] == pytest.approx(3 / 2)  # all positive: N-/N+
    assert frame["error_ratio"].iloc[-1] == 1.0  # all negative
    assert frame["threshold"].iloc[-1] == 0.9
    assert frame["error_rate"].iloc[-1] == pytest.approx(2 / 5)
    at_zero = ScoreCurve.from_scores([1, 0], [1.0, 0.0]).error_ratio()
    assert at_zero["threshold"].tolist() == [0.0, 1.0]  # no empty [0, 0) piece
    assert at_zero["error_ratio"].tolist() == [0.0, 1.0]


def test_from_counts_gives_the_same_measures():
    a = ScoreCurve.from_scores([0, 1, 1, 0, 1], [0.2, 0.2, 0.7, 0.5, 1.0])
    b = ScoreCurve.from_counts([1.0, 0.2, 0.5, 0.7], [1, 1, 0, 1], [0, 1, 1, 0])
    assert a.score_measures().equals(b.score_measures())


def test_errors():
    with pytest.raises(
        ValueError,
        match=r"need scores in \[0, 1\] \(`y_score` of from_scores, "
        r"`thresholds` of from_counts\); got scores from "
        r"-0.5 to 0.9",
    ):
        ScoreCurve.from_scores([0, 1], [-0.5, 0.9]).dm()
    over = ScoreCurve.from_scores([0, 1], [0.5, 1.5])
    for method in ("rui", "aurc", "pui", "aupc", "error_ratio", "score_measures"):
        with pytest.raises(ValueError, match=r"need scores in \[0, 1\]"):
            getattr(over, method)()
    curve = ScoreCurve.from_scores([0, 1], [0.5, 0.9])
    with pytest.raises(
        ValueError,
        match=r"`kernel` must be one of 1, 2, 3, 'entropy', "
        r"'log'; got 4",
    ):
        curve.dm(4)
    with pytest.raises(ValueError, match="`kernel` must be one of"):
        curve.dm(True)
    with pytest.raises(ValueError, match="`kernel` must be one of"):
        curve.dm("DM_1")


# ---------------------------------------------------------------- Table 1
# Chtcheprov et al., Section 4: scores are normal draws kept only inside [0, 1] until
# N+ = 8000 positives and N- = 10000 negatives are reached; means 1 (positives) and 0
# (negatives); sds (positives, negatives) per experiment below.
EXPERIMENTS = {1: (0.15, 0.05), 2: (0.35, 0.45), 3: (0.6, 0.8)}
TABLE1 = {  # published, rounded to 2 decimals
    "DM_1": (0.84, 0.38, 0.17),
    "DM_2": (0.78, 0.39, 0.17),
    "DM_3": (0.71, 0.36, 0.15),
    "DM_entropy": (0.85, 0.37, 0.16),
    "DM_log": (0.83, 0.39, 0.17),
    "AUC": (1.00, 0.88, 0.67),
    "AURC": (0.88, 0.73, 0.61),
    "AUPC": (0.93, 0.47, 0.22),
}
# Cells that do not reproduce, with what we get instead (see test_table1_departures).
DEPARTURES = {("AUPC", 1)}
N_SEEDS = 20


def truncated_normal(rng, mean, sd, size):
    """Normal draws rejected outside [0, 1] until `size` are kept."""
    kept, total = [], 0
    while total < size:
        x = rng.normal(mean, sd, size=2 * size)
        x = x[(x >= 0.0) & (x <= 1.0)]
        kept.append(x)
        total += x.size
    return np.concatenate(kept)[:size]


def simulate(experiment, seed):
    sd_pos, sd_neg = EXPERIMENTS[experiment]
    rng = np.random.default_rng([experiment, seed])
    s = np.concatenate(
        [truncated_normal(rng, 1.0, sd_pos, 8000), truncated_normal(rng, 0.0, sd_neg, 10000)]
    )
    y = np.repeat([1, 0], [8000, 10000])
    curve = ScoreCurve.from_scores(y, s)
    values = curve.score_measures()
    values["AUC"] = curve.auc()
    return values


@pytest.fixture(scope="module")
def table1_simulation():
    """Mean and single-run standard deviation of each measure over N_SEEDS runs."""
    out = {}
    for e in EXPERIMENTS:
        runs = np.array([simulate(e, seed)[list(TABLE1)].to_numpy() for seed in range(N_SEEDS)])
        for j, name in enumerate(TABLE1):
            out[name, e] = (runs[:, j].mean(), runs[:, j].std(ddof=1))
    return out


def population_values(experiment):
    """The measures of the truncated-normal distributions themselves, by quadrature of
    eqs. 5, 7, 9 and 14 with the exact CDFs (no sampling)."""
    sd_pos, sd_neg = EXPERIMENTS[experiment]
    Fp = stats.truncnorm(-1.0 / sd_pos, 0.0, loc=1.0, scale=sd_pos)
    Fm = stats.truncnorm(0.0, 1.0 / sd_neg, loc=0.0, scale=sd_neg)
    b = 8000 / 10000

    def q(f):
        return integrate.quad(f, 0.0, 1.0, limit=400, epsabs=1e-12)[0]

    out = {
        name: q(lambda t, dK=KERNEL_DERIVATIVES[k]: (Fm.cdf(t) - Fp.cdf(t)) * dK(t))
        for k, (name, _) in KERNELS.items()
    }
    out["AUC"] = q(lambda t: Fm.cdf(t) * Fp.pdf(t))
    out["AURC"] = Fp.mean()
    out["AUPC"] = (1 + b) * q(
        lambda t: b * Fp.sf(t) / (b * Fp.sf(t) + Fm.sf(t)) if Fp.sf(t) + Fm.sf(t) > 0 else 1.0
    ) - b
    return out


@pytest.mark.parametrize("experiment", list(EXPERIMENTS))
def test_simulation_estimates_the_population_values(table1_simulation, experiment):
    # Our simulation is a consistent estimate of the simulated distributions' measures:
    # the mean of 20 runs lies within 4 standard errors (sd / sqrt(20)) of them, plus
    # 1e-3 for the O(1/n) bias of the empirical AUPC near the 0/0 end.
    pop = population_values(experiment)
    for name in TABLE1:
        mean, sd = table1_simulation[name, experiment]
        se = sd / math.sqrt(N_SEEDS)
        assert abs(mean - pop[name]) <= 4 * se + 1e-3, (name, mean, pop[name])


@pytest.mark.parametrize("experiment", list(EXPERIMENTS))
def test_table1_reproduced(table1_simulation, experiment):
    # Tolerance. The published number is ONE simulation run X rounded to 2 decimals, so
    # |published - X| <= 0.005. Our estimate is the mean m of 20 runs; X - m has standard
    # deviation sd * sqrt(1 + 1/20), sd being the single-run spread over our 20 seeds.
    # Hence |published - m| <= 0.005 + 4 sd sqrt(1 + 1/20) (four standard deviations).
    for name, published in TABLE1.items():
        if (name, experiment) in DEPARTURES:
            continue
        mean, sd = table1_simulation[name, experiment]
        tol = 0.005 + 4 * sd * math.sqrt(1 + 1 / N_SEEDS)
        assert abs(published[experiment - 1] - mean) <= tol, (name, experiment, mean, sd)


def test_table1_departures(table1_simulation):
    """AUPC, experiment 1: the paper prints 0.93; eq. 14 computed exactly gives 0.946.

    The run-to-run spread is 0.0004, so the gap (0.016) is about 40 single-run standard
    deviations beyond rounding: not Monte Carlo error. The population value of the
    simulated distributions (quadrature of eq. 14 with the truncated-normal CDFs) is
    0.9458, which our simulation matches. We could not find a reading of eq. 14 that
    gives the printed value in all three experiments: numerical integration on a coarse
    grid that counts the 0/0 at t = 1 as precision 0 lowers AUPC by about
    (1 + b) / (2 M) for M grid intervals and brings experiments 1 and 2 to their
    printed values for M of about 50-60, but then experiment 3 falls to 0.20 (printed
    0.22). We keep the exact value of the paper's formula.
    """
    mean, sd = table1_simulation["AUPC", 1]
    assert abs(mean - 0.9459) <= 0.001 and sd < 0.001
    assert abs(population_values(1)["AUPC"] - 0.9458) <= 0.0005
    assert abs(TABLE1["AUPC"][0] - mean) > 0.005 + 4 * sd * math.sqrt(1 + 1 / N_SEEDS)
