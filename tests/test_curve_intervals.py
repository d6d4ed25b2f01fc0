"""Intervals for a ScoreCurve (DeLong and the count-resampling bootstrap) and for its OPS.

References, each independent of the code under test:

- A slow, obvious DeLong written here: the placement matrix psi(X_i, Y_j) of every
  (positive, negative) pair (1, 1/2 for a tie, 0), its row and column means V10 and V01,
  ``var = var(V10) / m + var(V01) / n`` (DeLong et al. 1988, O(m n)).
- R's pROC 1.18.0 on the data sets of ``tests/reference/data`` (the R call beside each
  number in ``tests/reference/proc_reference.csv``): the AUC, ``var(r,
  method="delong")``, ``ci.auc(r, method="delong", conf.level=0.95 / 0.90)`` (tolerance
  1e-10: both are closed forms in double precision) and ``set.seed(1); ci.auc(r,
  method="bootstrap", boot.n=20000, boot.stratified=TRUE)`` (tolerance 0.01: both ends
  are Monte Carlo; pROC's own reruns with seeds 2-6 moved them by up to 0.006 on
  ``small_ties`` and 0.002 elsewhere, see ``tests/reference/README.md``).
- A naive bootstrap written here: resample rows with numpy, build a new curve with
  ``ScoreCurve.from_scores`` (a full sort per resample) and evaluate it. Same
  distribution as the count resampling, compared by means (within 4 Monte Carlo
  standard errors), standard deviations (within 10%) and a two-sample
  Kolmogorov-Smirnov test.
- ``scipy.stats.multinomial`` probabilities for the count sampler (chi-square test).
- Leave-one-out curves built from the rows with one row removed, for the jackknife.
- ``scipy.stats.bootstrap(method="BCa")`` (its own resampling and jackknife) for the
  BCa interval, within Monte Carlo tolerance.
"""

from __future__ import annotations

import csv
import warnings
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from opsstats import SmallCountWarning
from opsstats.curves import ScoreCurve
from opsstats.curves._geometry import parse_area, parse_at
from opsstats.reference.dbt import DirectedBinaryTree
from opsstats.uncertainty.curve import curve_interval, delong_roc
from opsstats.uncertainty.curve._cells import _Cells, _fill_curves
from opsstats.uncertainty.curve.jackknife import _jackknife
from opsstats.uncertainty.curve.resampling import _Multinomial

REFERENCE = Path(__file__).parent / "reference"
DATASETS = ("imbalanced", "medium", "perfect", "small_ties", "weak")
REF = DirectedBinaryTree(depth=4, n_curves=2000)  # small, fast Monte Carlo reference


def _data(name: str) -> tuple[np.ndarray, np.ndarray]:
    d = pd.read_csv(REFERENCE / "data" / f"{name}.csv")
    return d["y_true"].to_numpy(), d["y_score"].to_numpy()


def _curve(name: str) -> ScoreCurve:
    return ScoreCurve.from_scores(*_data(name))


def _proc() -> dict[tuple[str, str, str], float]:
    with open(REFERENCE / "proc_reference.csv", newline="") as fh:
        return {
            (r["dataset"], r["quantity"], r["conf_level"]): float(r["value"])
            for r in csv.DictReader(fh)
        }


PROC = _proc()


def _tied(seed: int = 0, n: int = 80, prevalence: float = 0.3, levels: int = 7):
    """Scores from a handful of values (heavy ties across classes)."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < prevalence).astype(int)
    y[:2], y[2:4] = 1, 0
    s = np.round(rng.normal(y * 0.8, 1) * levels / 4) / levels
    return y, s


# ------------------------------------------------------------------------- DeLong
def slow_delong(y: np.ndarray, s: np.ndarray) -> tuple[float, float]:
    x, z = s[y == 1], s[y == 0]
    psi = (x[:, None] > z[None, :]) + 0.5 * (x[:, None] == z[None, :])
    v10, v01 = psi.mean(axis=1), psi.mean(axis=0)
    return psi.mean(), v10.var(ddof=1) / x.size + v01.var(ddof=1) / z.size


@pytest.mark.parametrize("data", [*(d for d in DATASETS if d != "perfect"), "tied0", "tied1"])
def test_delong_matches_slow_pairwise_delong(data):
    y, s = _tied(int(data[-1])) if data.startswith("tied") else _data(data)
    auc, var = slow_delong(y, s)
    d = delong_roc(ScoreCurve.from_scores(y, s))
    assert d.auc == pytest.approx(auc, abs=1e-13)
    assert d.variance == pytest.approx(var, rel=1e-11, abs=1e-16)
    assert d.variance == pytest.approx(d.s10 / d.n_positive + d.s01 / d.n_negative, rel=1e-15)


def test_delong_is_unchanged_by_reordering_rows_and_matches_counts_curve():
    y, s = _tied(3)
    order = np.random.default_rng(1).permutation(y.size)
    a = delong_roc(ScoreCurve.from_scores(y, s))
    b = delong_roc(ScoreCurve.from_scores(y[order], s[order]))
    values = np.unique(s)
    c = delong_roc(
        ScoreCurve.from_counts(
            values,
            [np.sum((s == v) & (y == 1)) for v in values],
            [np.sum((s == v) & (y == 0)) for v in values],
        )
    )
    assert a == b == c


@pytest.mark.parametrize("dataset", [d for d in DATASETS if d != "perfect"])
def test_delong_matches_proc(dataset):
    # r <- roc(y_true, y_score, levels=c(0,1), direction="<", quiet=TRUE)
    curve = _curve(dataset)
    r95 = curve.interval("roc_auc", method="delong")
    r90 = curve.interval("roc_auc", method="delong", confidence_level=0.9)
    assert r95.estimate == pytest.approx(PROC[dataset, "auc", ""], abs=1e-13)  # auc(r)
    # var(r, method="delong")
    assert r95.details["variance"] == pytest.approx(
        PROC[dataset, "var_delong", ""], rel=1e-10, abs=1e-15
    )
    for r, cl in ((r95, "0.95"), (r90, "0.90")):
        # ci.auc(r, method="delong", conf.level=cl)[1] and [3]
        assert r.ci.low == pytest.approx(PROC[dataset, "ci_delong_lower", cl], abs=1e-10)
        assert r.ci.high == pytest.approx(PROC[dataset, "ci_delong_upper", cl], abs=1e-10)
    assert r90.ci.low >= r95.ci.low and r90.ci.high <= r95.ci.high


def test_delong_perfect_separation_warns_and_matches_proc():
    curve = _curve("perfect")
    with pytest.warns(UserWarning, match="variance of the ROC AUC is 0"):
        r = curve.interval("roc_auc", method="delong")
    # pROC: var 0, ci.auc(r, method="delong") = 1-1 (and a warning that it is misleading)
    assert r.details["variance"] == PROC["perfect", "var_delong", ""] == 0
    assert (
        r.ci
        == (PROC["perfect", "ci_delong_lower", "0.95"], PROC["perfect", "ci_delong_upper", "0.95"])
        == (1.0, 1.0)
    )


def test_delong_is_clipped_to_unit_interval_and_says_so():
    curve = ScoreCurve.from_scores(
        [0, 0, 1, 1, 0, 1, 0, 1, 0, 0], [0.1, 0.4, 0.35, 0.8, 0.2, 0.5, 0.3, 0.7, 0.6, 0.15]
    )
    r = curve.interval("roc_auc", method="delong")
    se = np.sqrt(r.details["variance"])
    assert r.estimate + 1.959963984540054 * se > 1 and r.ci.high == 1.0
    assert r.ci.low == pytest.approx(r.estimate - 1.959963984540054 * se, abs=1e-15)
    assert r.to_string() == (
        "AUC(ROC, trapezoid) = 0.8750, 95% CI 0.6459-1.0000 (DeLong, Sun-Xu "
        "algorithm, clipped to [0, 1])"
    )
    # printed at the terminal's width (80 columns in the tests), continued lines indented
    assert str(r) == (
        "AUC(ROC, trapezoid) = 0.8750, 95% CI 0.6459-1.0000 (DeLong, Sun-Xu algorithm,\n"
        "    clipped to [0, 1])"
    )
    assert str(_curve("medium").interval("roc_auc", method="delong")) == (
        "AUC(ROC, trapezoid) = 0.7519, 95% CI 0.6968-0.8069 (DeLong, Sun-Xu algorithm)"
    )
    # the NAUC of the ROC curve is the AUC (ideal 1): same interval
    n = curve.interval("nroc_auc", method="delong")
    assert n.ci == r.ci and n.quantity == "NAUC(ROC, trapezoid)"


# ------------------------------------------------------------- count resampling
class _ForcedPoisson(_Multinomial):
    MIN_MEAN = 0.0
    MIN_TOTAL = 0


class _ForcedRows(_Multinomial):
    MIN_MEAN = np.inf


@pytest.mark.parametrize("sampler", [_ForcedRows, _ForcedPoisson])
def test_count_sampler_is_multinomial(sampler):
    counts = np.array([60, 25, 10, 5])  # total 100
    m = sampler(counts, np.array([0, 2, 3, 5]), 6)
    assert m.poisson == (sampler is _ForcedPoisson)
    draws = m.draw(40_000, np.random.default_rng(0))
    assert draws.shape == (40_000, 6) and np.all(draws.sum(axis=1) == 100)
    assert np.all(draws[:, [1, 4]] == 0)
    x = draws[:, [0, 2, 3, 5]]
    p = counts / 100
    se = np.sqrt(100 * p * (1 - p) / 40_000)
    assert np.all(np.abs(x.mean(axis=0) - 100 * p) < 4 * se)
    cov = np.cov(x.T)
    expected = 100 * (np.diag(p) - np.outer(p, p))
    assert np.allclose(cov, expected, rtol=0.05, atol=0.05)
    cumulative = m.draw_cumulative(1000, np.random.default_rng(1))
    again = m.draw(1000, np.random.default_rng(1))
    assert np.array_equal(cumulative, np.cumsum(again, axis=1))


@pytest.mark.parametrize("sampler", [_ForcedRows, _ForcedPoisson])
def test_count_sampler_chi_square_against_exact_pmf(sampler):
    counts = np.array([3, 2, 1])  # total 6: 28 outcomes
    m = sampler(counts, np.arange(3), 3)
    assert m.poisson == (sampler is _ForcedPoisson)
    x = m.draw(30_000, np.random.default_rng(5))
    outcomes, observed = np.unique(x, axis=0, return_counts=True)
    expected = 30_000 * stats.multinomial.pmf(outcomes, 6, counts / 6)
    assert outcomes.shape[0] == 28 and np.all(outcomes.sum(axis=1) == 6)
    chi2 = np.sum((observed - expected) ** 2 / expected)
    assert stats.chi2.sf(chi2, outcomes.shape[0] - 1) > 1e-3


def test_unchanged_resample_is_the_observed_curve_bit_for_bit():
    curve = ScoreCurve.from_scores(*_tied(2))
    cells = _Cells(curve, "reduced")
    alpha, beta = np.empty((1, cells.k + 1)), np.empty((1, cells.k + 1))
    _fill_curves(
        np.cumsum(cells.pos)[None], np.cumsum(cells.neg)[None], cells.P, cells.N, alpha, beta
    )
    a, b = curve._geometry_points()
    assert np.array_equal(alpha[0], a) and np.array_equal(beta[0], b)


def naive_bootstrap(y, s, value, n, seed, stratified=True):
    """Resample rows, re-sort (from_scores) and evaluate: the obvious bootstrap."""
    rng = np.random.default_rng(seed)
    pos, neg = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
    out = np.empty(n)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for i in range(n):
            if stratified:
                idx = np.concatenate((rng.choice(pos, pos.size), rng.choice(neg, neg.size)))
            else:
                idx = rng.integers(0, y.size, y.size)
                if y[idx].min() == y[idx].max():
                    out[i] = np.nan
                    continue
            out[i] = value(ScoreCurve.from_scores(y[idx], s[idx]))
    return out


QUANTITIES = {
    "roc": ("roc_auc", {}, lambda c: c.auc("roc")),
    "pr": ("pr_auc", {}, lambda c: c.auc("pr")),
    "pr-trap": ("pr_auc", {"rule": "trapezoid"}, lambda c: c.auc("pr", rule="trapezoid")),
    "lift": ("lift_auc", {}, lambda c: c.auc("lift")),
    "nlift-trap": ("nlift_auc", {"rule": "trapezoid"}, lambda c: c.nauc("lift", rule="trapezoid")),
    "gain": ("gain_auc", {}, lambda c: c.auc("gain")),
    "precision@recall": (
        "precision",
        {"at": {"recall": 0.6}},
        lambda c: c.value_at("precision", {"recall": 0.6}),
    ),
    "lift@rate": ("lift", {"at": {"rate": 0.2}}, lambda c: c.value_at("lift", {"rate": 0.2})),
}


def _continuous(seed: int = 0, n: int = 1000):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.1).astype(int)
    return y, rng.normal(y * 1.2, 1)


@pytest.mark.parametrize(
    "data, which",
    [
        *(("ties", q) for q in QUANTITIES),
        *(("continuous", q) for q in ("roc", "pr", "pr-trap", "precision@recall", "lift@rate")),
    ],
)
@pytest.mark.parametrize("stratified", [True, False])
def test_count_resampling_matches_naive_row_resampling(data, which, stratified):
    """Ties: 400 rows on 7 score values; continuous: 1000 rows, prevalence 0.1, all
    distinct. Both make the count sampler use Poisson conditioning for some class (and
    the continuous data one uniform integer per row for the positives)."""
    name, kw, value = QUANTITIES[which]
    y, s = _tied(7, n=400) if data == "ties" else _continuous()
    curve = ScoreCurve.from_scores(y, s)
    cells = _Cells(curve, "reduced")
    assert _Multinomial(cells.neg[cells.neg > 0], np.flatnonzero(cells.neg), cells.k).poisson
    B = 2000
    ours = curve_interval(
        curve, name, method="bootstrap", n_resamples=B, rng=11, stratified=stratified, **kw
    )
    naive = naive_bootstrap(y, s, value, B, seed=12, stratified=stratified)
    naive = naive[~np.isnan(naive)]
    assert ours.n_undefined == B - ours.draws.size == B - naive.size == 0
    a, b = ours.draws, naive
    se = np.sqrt(a.var() / a.size + b.var() / b.size)
    assert abs(a.mean() - b.mean()) < 4 * se
    assert a.std() == pytest.approx(b.std(), rel=0.1)
    assert stats.ks_2samp(a, b).pvalue > 1e-3
    for q in (0.1, 0.5, 0.9):
        # quantile s.e. ~ sqrt(q (1 - q) / B) / density: well below 0.25 sd here
        assert abs(np.quantile(a, q) - np.quantile(b, q)) < 0.25 * b.std() + 1e-12


@pytest.mark.parametrize("dataset", DATASETS)
@pytest.mark.filterwarnings("ignore:Every one of the 20000 draws:UserWarning")  # "perfect"
def test_stratified_bootstrap_matches_proc(dataset):
    # set.seed(1); ci.auc(r, method="bootstrap", boot.n=20000, boot.stratified=TRUE)
    # Monte Carlo on both sides: tolerance 0.01 (see the module docstring).
    r = _curve(dataset).interval("roc_auc", method="bootstrap", n_resamples=20_000, rng=2024)
    assert r.ci.low == pytest.approx(PROC[dataset, "ci_boot_lower", "0.95"], abs=0.01)
    assert r.ci.high == pytest.approx(PROC[dataset, "ci_boot_upper", "0.95"], abs=0.01)
    assert np.median(r.draws) == pytest.approx(PROC[dataset, "ci_boot_median", "0.95"], abs=0.01)
    assert r.method == "20000 stratified bootstrap resamples, percentile"
    assert r.prevalence_mode == "fixed" and r.n_undefined == 0


# ---------------------------------------------------------------------- jackknife
JACK_QUANTITIES = [
    parse_area("roc_auc"),
    parse_area("roc_auc", "step"),
    parse_area("pr_auc"),
    parse_area("pr_auc", "trapezoid"),
    parse_area("lift_auc"),
    parse_area("lift_auc", "trapezoid"),
    parse_area("ngain_auc"),
    parse_area("nlift_auc"),
    parse_at("precision", {"recall": 0.5}),
    parse_at("precision", {"fpr": 0.25}),
    parse_at("lift", {"rate": 0.3}),
    parse_at("recall", {"fpr": 0.1}),
    parse_at("f1", {"rate": 0.45}),
    parse_at("fdr", {"recall": 0.75}),
]


@pytest.mark.parametrize("quantity", JACK_QUANTITIES, ids=lambda q: q.key)
@pytest.mark.parametrize("seed", [0, 1])
def test_jackknife_equals_leave_one_out_curves(quantity, seed):
    """The O(J) leave-one-out values equal the quantity on curves rebuilt without each row
    (weighted by the rows of each (cell, class) type)."""
    y, s = _tied(seed, n=40, levels=5)
    if seed == 1:
        y[0], s[0] = 1, s.max() + 1.0  # a lone top positive: an empty first cell
    curve = ScoreCurve.from_scores(y, s)
    values, weights = _jackknife(curve, quantity).pooled()
    brute = []
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for i in range(y.size):
            keep = np.arange(y.size) != i
            c = ScoreCurve.from_scores(y[keep], s[keep])
            kind = getattr(quantity, "curve", None)
            pts = c._geometry_points(kind) if kind else c._geometry_points()
            brute.append(float(quantity(c.prevalence, *pts)))
    brute = np.sort(np.array(brute)[~np.isnan(brute)])
    ours = np.sort(np.repeat(values, weights.astype(int)))
    assert ours.size == brute.size
    assert np.allclose(ours, brute, rtol=1e-12, atol=1e-12)


def test_bca_matches_scipy_bootstrap():
    """Not stratified (scipy resamples rows freely); scipy's BCa, its own jackknife."""
    y, s = _data("medium")

    def auc(yy, ss):
        return ScoreCurve.from_scores(yy, ss).auc("roc")

    ref = stats.bootstrap(
        (y, s),
        auc,
        paired=True,
        vectorized=False,
        n_resamples=4000,
        method="BCa",
        rng=np.random.default_rng(0),
    )
    ours = _curve("medium").interval(
        "roc_auc", method="bootstrap", interval="bca", stratified=False, n_resamples=20_000, rng=1
    )
    assert ours.ci.low == pytest.approx(ref.confidence_interval.low, abs=0.006)
    assert ours.ci.high == pytest.approx(ref.confidence_interval.high, abs=0.006)
    assert ours.method == "20000 bootstrap resamples (not stratified), BCa"


# ---------------------------------------------------------- reproducibility, nesting
@pytest.mark.parametrize(
    "kw",
    [
        {},
        {"stratified": False},
        {"interval": "bca"},
        {"at": {"recall": 0.5}},
        {"rule": "trapezoid"},
    ],
)
def test_same_rng_same_interval_bit_for_bit(kw):
    name = "precision" if "at" in kw else "pr_auc"
    curve = _curve("small_ties")
    a = curve.interval(name, method="bootstrap", rng=42, n_resamples=500, **kw)
    b = curve.interval(
        name, method="bootstrap", rng=np.random.default_rng(42), n_resamples=500, **kw
    )
    assert a.ci == b.ci and np.array_equal(a.draws, b.draws)
    c = curve.interval(name, method="bootstrap", rng=43, n_resamples=500, **kw)
    assert not np.array_equal(a.draws, c.draws)


@pytest.mark.parametrize(
    "kw",
    [
        {"method": "delong"},
        {"method": "delong", "interval": "logit-t"},
        {},
        {"method": "bootstrap"},
        {"method": "bootstrap", "interval": "bca"},
        {"method": "bootstrap", "stratified": False},
        {"method": "bootstrap", "interval": "logit-t"},
    ],
)
def test_ninety_inside_ninety_five(kw):
    curve = _curve("weak")
    if kw.get("method") != "delong":
        kw = {**kw, "rng": 5}
    r95 = curve.interval("roc_auc", **kw)
    r90 = curve.interval("roc_auc", confidence_level=0.9, **kw)
    assert r95.ci.low <= r90.ci.low <= r90.estimate <= r90.ci.high <= r95.ci.high


def test_undefined_resamples_are_counted_and_reported():
    # 2 positives in 20 rows: a non-stratified resample has no positive with probability
    # (18/20)^20 = 0.1216, and then no curve.
    y = np.array([1, 1] + [0] * 18)
    s = np.linspace(0, 1, 20)[::-1]
    with pytest.warns(UserWarning, match=r"the interval \[1, 1\] has no width"):
        r = ScoreCurve.from_scores(y, s).interval(
            "pr_auc", method="bootstrap", stratified=False, n_resamples=4000, rng=0
        )
    p = 0.9**20
    assert abs(r.n_undefined - 4000 * p) < 4 * np.sqrt(4000 * p * (1 - p))
    assert r.draws.size == 4000 - r.n_undefined
    assert f"undefined in {r.n_undefined} of 4000 resamples, left out" in str(r)
    assert r.prevalence_mode == "random"
    # a metric that is 0/0 in some stratified resamples: the negative predictive value
    # where 95% of the rows are flagged (TN + FN = 0 when the tail holds only tied rows)
    y2 = np.array([1, 0, 1, 0, 0, 0, 1, 0, 0, 0])
    s2 = np.array([9, 8, 7, 6, 5, 4, 3, 2, 1, 1.0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r2 = ScoreCurve.from_scores(y2, s2).interval(
            "npv", method="bootstrap", at={"rate": 1.0}, n_resamples=200, rng=0
        )
    assert r2.n_undefined == 200 and np.isnan(r2.ci.low)


def test_progress_bar_on_stderr(capsys):
    _curve("small_ties").interval(
        "roc_auc", method="bootstrap", progress=True, n_resamples=300, rng=0
    )
    assert "bootstrap [" in capsys.readouterr().err


def test_top_k_is_the_rate_point():
    curve = _curve("medium")
    a = curve.interval("lift", method="bootstrap", top_k=50, n_resamples=300, rng=3)
    b = curve.interval("lift", method="bootstrap", at={"rate": 50 / 500}, n_resamples=300, rng=3)
    assert a.ci == b.ci and a.estimate == curve.value_at("lift", top_k=50)


# ---------------------------------------------------------------------------- OPS
def test_ops_bootstrap_interval_maps_the_value_interval_and_adds_mc_error():
    curve = _curve("medium")
    r = curve.ops("pr_auc", reference=REF, ci="bootstrap", n_resamples=1000, rng=4)
    iv = curve.interval("pr_auc", method="bootstrap", n_resamples=1000, rng=4)
    mapped = r.details["ci_without_reference_error"]
    # the value interval's ends mapped through OPS, exactly; close to the quantiles of
    # the OPS of every resample (up to the reference's steps of 1/G)
    ends = REF.ops("pr_auc", list(iv.ci), prevalence=curve.prevalence).estimate
    assert tuple(mapped) == tuple(ends)
    ops_all = REF.ops("pr_auc", iv.draws, prevalence=curve.prevalence).estimate
    assert mapped == pytest.approx(
        tuple(np.quantile(ops_all, [0.025, 0.975])), abs=2 / REF.n_curves
    )
    assert r.details["value_ci"] == iv.ci
    # the Monte Carlo error of the reference widens both ends, in quadrature
    se_low, se_high = r.details["reference_standard_error_at_ends"]
    z = 1.959963984540054
    est = r.estimate
    assert r.ci.low == pytest.approx(est - np.hypot(est - mapped.low, z * se_low), abs=1e-12)
    assert r.ci.high == pytest.approx(
        min(1.0, est + np.hypot(mapped.high - est, z * se_high)), abs=1e-12
    )
    assert r.ci.low < mapped.low and r.ci.high > mapped.high
    assert r.ci.low <= r.estimate <= r.ci.high
    assert r.ci_method == (
        "1000 stratified bootstrap resamples, percentile; reference Monte Carlo error added"
    )
    assert r.details["n_resamples"] == 1000 and r.details["n_undefined"] == 0
    assert "95% CI" in r.to_string() and "reference Monte Carlo error added" in r.to_string()


def test_ops_delong_maps_the_ends():
    curve = _curve("weak")
    r = curve.ops("roc_auc", reference=REF, ci="delong")
    iv = curve.interval("roc_auc", method="delong")
    ends = REF.ops("roc_auc", list(iv.ci), prevalence=curve.prevalence)
    assert r.details["ci_without_reference_error"] == pytest.approx(tuple(ends.estimate), abs=1e-15)
    assert r.details["variance"] == iv.details["variance"]
    assert r.ci.low < ends.estimate[0] and r.ci.high > ends.estimate[1]
    assert r.ci.low <= r.estimate <= r.ci.high
    assert r.ci_method == "DeLong, Sun-Xu algorithm; reference Monte Carlo error added"


def test_ops_lower_is_better_point_swaps_ends():
    curve = _curve("medium")
    r = curve.ops(
        "fdr",
        at={"recall": 0.7},
        reference=REF,
        ci="bootstrap",
        n_resamples=500,
        rng=8,
        interval="bca",
    )
    iv = curve.interval(
        "fdr", method="bootstrap", at={"recall": 0.7}, n_resamples=500, rng=8, interval="bca"
    )
    ops_all = REF.ops("fdr", iv.draws, prevalence=curve.prevalence, at={"recall": 0.7})
    lv = iv.details["levels"]
    expected = np.quantile(ops_all.estimate, [1 - lv[1], 1 - lv[0]])
    assert r.details["ci_without_reference_error"] == pytest.approx(tuple(expected), abs=1e-12)
    assert r.ci.low <= r.estimate <= r.ci.high


def test_ops_without_ci_is_unchanged_and_same_rng_same_ops_interval():
    curve = _curve("small_ties")
    plain = curve.ops("roc_auc", reference=REF)
    assert plain.ci is None and plain == curve.ops("roc_auc", reference=REF, ci=None)
    a = curve.ops("roc_auc", reference=REF, ci="bootstrap", rng=1, n_resamples=300)
    b = curve.ops("roc_auc", reference=REF, ci="bootstrap", rng=1, n_resamples=300)
    assert a.ci == b.ci and a.estimate == plain.estimate
    # ROC quantities do not depend on the prevalence: the non-stratified bootstrap is fine
    c = curve.ops(
        "roc_auc", reference=REF, ci="bootstrap", rng=1, n_resamples=300, stratified=False
    )
    assert c.details["prevalence_mode"] == "random"


# ------------------------------------------------------------------------- errors
@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        (
            {"method": "bca"},
            ValueError,
            "`method` must be one of 'auto', 'bootstrap', 'delong', 'dirichlet', 'jackknife'; "
            "got 'bca'",
        ),
        (
            {"method": "bootstrap", "interval": "hpd"},
            ValueError,
            "`interval` must be one of 'percentile', 'bca', 'logit-t'; got 'hpd'",
        ),
        (
            {"interval": "bca"},
            ValueError,
            "`interval` chooses the interval of an explicit method; `method='auto'` chooses both",
        ),
        (
            {"stratified": False},
            ValueError,
            "`stratified=False` chooses an unstratified bootstrap; `method='auto'` uses",
        ),
        (
            {"method": "bootstrap", "interval": "logit-t", "rule": "step", "beta": 2},
            TypeError,
            "curve areas take no metric parameters",
        ),
        (
            {"interval": "bca", "method": "delong"},
            ValueError,
            "`interval='bca'` does not apply to `method='delong'`",
        ),
        (
            {"method": "bootstrap", "interval": "normal"},
            ValueError,
            "`interval='normal'` does not apply to `method='bootstrap'`",
        ),
        ({"n_resamples": 10}, ValueError, "`n_resamples` must be an integer >= 100; got 10"),
        ({"n_resamples": 1e4}, TypeError, "`n_resamples` must be an integer; got 10000.0"),
        (
            {"confidence_level": 1.5},
            ValueError,
            r"`confidence_level` must be in the open interval \(0, 1\); got 1.5",
        ),
        ({"confidence_level": "95%"}, TypeError, "`confidence_level` must be a real number"),
        ({"rng": "seed"}, TypeError, "`rng` must be None, an int seed or a numpy Generator"),
        ({"stratified": "yes"}, TypeError, "`stratified` must be True or False; got 'yes'"),
        ({"progress": 1}, TypeError, "`progress` must be True, False or None; got 1"),
        ({"rule": "simpson"}, ValueError, "`rule` must be one of 'trapezoid', 'step'"),
        ({"beta": 2}, TypeError, r"curve areas take no metric parameters; got \['beta'\]"),
        ({"at": {"recall": 0.5}, "top_k": 3}, TypeError, "give at most one of `at` and `top_k`"),
        ({"top_k": 0}, ValueError, "`top_k` must be an integer >= 1; got 0"),
    ],
)
def test_interval_errors(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        _curve("small_ties").interval("roc_auc", **kwargs)


@pytest.mark.parametrize(
    "name, kwargs, exc, match",
    [
        ("aoc", {}, ValueError, "unknown curve quantity 'aoc'"),  # ("auc" is the ROC AUC)
        (
            "pr_auc",
            {"method": "delong"},
            ValueError,
            (
                r"`method='delong'` gives an interval for the ROC AUC with the trapezoid rule .* "
                r"got AUC\(PR, step\). Use method='bootstrap'"
            ),
        ),
        (
            "roc_auc",
            {"method": "delong", "rule": "step"},
            ValueError,
            r"only; got AUC\(ROC, step\)",
        ),
        ("precision", {"method": "delong", "at": {"recall": 0.5}}, ValueError, "ROC AUC"),
        (
            "precision",
            {"at": {"recall": 0.5}, "rule": "step"},
            ValueError,
            "`rule` applies to curve areas",
        ),
        ("precision", {"at": {"depth": 0.5}}, ValueError, "the key of `at` must be one of"),
    ],
)
def test_quantity_errors(name, kwargs, exc, match):
    with pytest.raises(exc, match=match):
        _curve("small_ties").interval(name, **kwargs)


def test_weighted_curves_and_tiny_classes_are_refused():
    weighted = ScoreCurve.from_scores(
        [0, 1, 0, 1, 1], [0.1, 0.2, 0.3, 0.4, 0.5], sample_weight=[1.5, 1, 1, 2, 1]
    )
    for method in ("delong", "bootstrap"):
        with pytest.raises(
            ValueError, match=r"needs whole-number counts .* non-integer `sample_weight`"
        ):
            weighted.interval("roc_auc", method=method)
    # integer weights are frequency weights: the same as repeated rows
    freq = ScoreCurve.from_scores([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], sample_weight=[2, 1, 1, 3])
    rows = ScoreCurve.from_scores([0, 0, 1, 0, 1, 1, 1], [0.1, 0.1, 0.2, 0.3, 0.4, 0.4, 0.4])
    assert (
        freq.interval("roc_auc", method="delong").ci == rows.interval("roc_auc", method="delong").ci
    )
    one = ScoreCurve.from_scores([1, 0, 0], [0.9, 0.2, 0.1])
    with pytest.raises(ValueError, match=r"at least 2 positives and 2 negatives .* got 1 positive"):
        one.interval("roc_auc", method="delong")


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        (
            {"ci": "bayes"},
            ValueError,
            "`ci` must be one of 'auto', 'bootstrap', 'delong', 'dirichlet', 'jackknife'; "
            "got 'bayes'",
        ),
        ({"ci": "bootstrap", "interval": "hpd"}, ValueError, "`interval` must be one of"),
        ({"ci": "bootstrap", "n_resamples": 5}, ValueError, "`n_resamples` must be an integer"),
        (
            {"ci": "bootstrap", "stratified": False},
            ValueError,
            r"`stratified=False` resamples the prevalence, and OPS of AUC\(PR, step\) depends on it",
        ),
        ({"ci": "delong"}, ValueError, "`method='delong'` gives an interval for the ROC AUC"),
        ({"ci": "bootstrap", "confidence_level": 0}, ValueError, "`confidence_level` must be in"),
        (
            {"ci": "bootstrap", "progress": "no"},
            TypeError,
            "`progress` must be True, False or None",
        ),
    ],
)
def test_ops_interval_errors(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        _curve("small_ties").ops("pr_auc", reference=REF, **kwargs)


# ------------------------------------------------- logit-t intervals and "auto"
@pytest.mark.filterwarnings("ignore::opsstats.SmallCountWarning")  # P = 4 and 7 here
@pytest.mark.parametrize(
    "seed, n_pos, n_neg, shift, scale",
    [(0, 7, 40, 1.0, 2.0), (1, 25, 25, 0.5, 1.0), (2, 4, 300, 2.0, 1.0), (3, 60, 9, 1.0, 0.5)],
)
def test_delong_logit_t_is_brunner_munzel_on_the_logit_scale(seed, n_pos, n_neg, shift, scale):
    # The Welch-Satterthwaite t of DeLong's variance is the Brunner-Munzel test: its
    # statistic and p-value for H0: AUC = 1/2 reproduce scipy.stats.brunnermunzel, an
    # independent implementation (Brunner and Munzel 2000), to 1e-12.
    rng = np.random.default_rng(seed)
    xp, xn = rng.normal(shift, scale, n_pos), rng.normal(0, 1, n_neg)
    curve = ScoreCurve.from_scores(np.r_[np.ones(n_pos), np.zeros(n_neg)], np.r_[xp, xn])
    d = delong_roc(curve)
    v1, v2 = d.s10 / n_pos, d.s01 / n_neg
    df = (v1 + v2) ** 2 / (v1**2 / (n_pos - 1) + v2**2 / (n_neg - 1))
    t_stat = (d.auc - 0.5) / np.sqrt(d.variance)
    bm = stats.brunnermunzel(xn, xp)  # scipy: statistic for P(X_neg < X_pos)
    assert t_stat == pytest.approx(bm.statistic, rel=1e-12, abs=1e-12)
    assert 2 * stats.t.sf(abs(t_stat), df) == pytest.approx(bm.pvalue, rel=1e-10)
    # the interval: expit(logit(auc) - b -+ t_{df, 0.975} sqrt(var) / (auc (1 - auc))),
    # b = logit''(auc) var / 2, the second-order bias of logit(auc)
    r = curve.interval("roc_auc", method="delong", interval="logit-t")
    a = d.auc
    half = stats.t.ppf(0.975, df) * np.sqrt(d.variance) / (a * (1 - a))
    second_derivative = (2 * a - 1) / (a * (1 - a)) ** 2  # of log(a / (1 - a))
    logit = np.log(a / (1 - a)) - second_derivative * d.variance / 2
    expected = 1 / (1 + np.exp(-(logit - half))), 1 / (1 + np.exp(-(logit + half)))
    assert r.ci.low == pytest.approx(expected[0], rel=1e-12)
    assert r.ci.high == pytest.approx(expected[1], rel=1e-12)
    assert r.method == (
        f"DeLong, Sun-Xu algorithm, logit scale, bias-corrected, t with {df:.4g} df"
    )


def test_bootstrap_logit_t_from_the_percentile_draws():
    # Slow, obvious version: the same resamples (same rng) as the percentile interval;
    # se = half the spread of the central 68.27% of their logits; t with min(P, N) - 1 df.
    curve = _curve("imbalanced")
    pct = curve.interval("pr_auc", method="bootstrap", n_resamples=1000, rng=9)
    r = curve.interval("pr_auc", method="bootstrap", interval="logit-t", n_resamples=1000, rng=9)
    assert np.array_equal(r.draws, pct.draws)
    p = np.clip(pct.draws, 1e-12, 1 - 1e-12)
    lo16, hi84 = np.quantile(np.log(p / (1 - p)), [stats.norm.cdf(-1), stats.norm.cdf(1)])
    df = min(curve.n_positive, curve.n_negative) - 1
    half = stats.t.ppf(0.975, df) * (hi84 - lo16) / 2
    centre = np.log(r.estimate / (1 - r.estimate))
    assert r.ci.low == pytest.approx(1 / (1 + np.exp(-(centre - half))), rel=1e-12)
    assert r.ci.high == pytest.approx(1 / (1 + np.exp(-(centre + half))), rel=1e-12)
    assert r.method == (f"1000 stratified bootstrap resamples, logit scale, t with {df} df")


def test_logit_t_at_perfect_separation_is_one_sided():
    # AUC = 1 has no logit: [((1 - level) / 2) ** (1 / k), 1], k the smaller class
    curve = ScoreCurve.from_scores([0, 0, 0, 0, 1, 1, 1], [0.1, 0.2, 0.3, 0.4, 0.7, 0.8, 0.9])
    for name, method in (("roc_auc", "delong"), ("pr_auc", "jackknife")):
        with pytest.warns(SmallCountWarning):
            r = curve.interval(name, method=method, interval="logit-t")
        with pytest.warns(SmallCountWarning):
            r90 = curve.interval(name, method=method, interval="logit-t", confidence_level=0.9)
        assert r.estimate == 1.0
        assert r.ci.low == pytest.approx(0.025 ** (1 / 3), rel=1e-14) and r.ci.high == 1.0
        assert r.method.endswith("perfect separation: one-sided")
        assert r90.ci.low == pytest.approx(0.05 ** (1 / 3), rel=1e-14)
    worst = ScoreCurve.from_scores([1, 1, 0, 0, 0], [0.1, 0.2, 0.3, 0.4, 0.5])
    with pytest.warns(SmallCountWarning):
        r = worst.interval("roc_auc", method="delong", interval="logit-t")
    assert (r.estimate, r.ci.low) == (0.0, 0.0)
    assert r.ci.high == pytest.approx(1 - 0.025 ** (1 / 2), rel=1e-14)


def test_auto_chooses_per_quantity_and_says_so():
    curve = _curve("medium")
    assert curve.interval("roc_auc").method.startswith("DeLong, Sun-Xu algorithm, logit")
    pr = curve.interval("pr_auc")
    assert pr == curve.interval("pr_auc", method="jackknife", interval="logit-t")
    assert pr.method.startswith("stratified jackknife (leave one row out), logit scale, t")
    # no resampling: no rng consumed, the same interval whatever the seed
    assert curve.interval("pr_auc", rng=1) == curve.interval("pr_auc", rng=2) == pr
    assert curve.interval("roc_auc", rule="step") == curve.interval(
        "roc_auc", rule="step", method="jackknife", interval="logit-t"
    )
    # quantities not bounded by [0, 1] (lift), or not studied (operating-point values):
    # the stratified percentile bootstrap
    for name, kw in (("lift_auc", {}), ("precision", {"at": {"recall": 0.5}})):
        auto = curve.interval(name, rng=0, n_resamples=300, **kw)
        explicit = curve.interval(name, method="bootstrap", rng=0, n_resamples=300, **kw)
        assert auto == explicit and auto.method.endswith("percentile")


@pytest.mark.parametrize("n_small", [2, 99, 100])
def test_auto_draws_the_dirichlet_posterior_below_100_rows_of_a_class(n_small):
    rng = np.random.default_rng(n_small)
    y = np.r_[np.ones(n_small), np.zeros(400)]
    curve = ScoreCurve.from_scores(y, rng.normal(y, 1))
    for name, former, kind in (
        ("roc_auc", "delong", "equal-tailed"),
        ("pr_auc", "jackknife", "bias-extended"),
    ):
        auto = curve.interval(name, rng=5, n_resamples=300)
        if n_small < 100:
            explicit = curve.interval(
                name, method="dirichlet", interval=kind, rng=5, n_resamples=300
            )
            # the same interval, and the printed method says why the default chose it
            assert auto.method == (
                f"{explicit.method}; the default below 100 rows in the smaller class "
                f"(here {n_small} positives)"
            )
            assert replace(auto, method=explicit.method) == explicit
            assert auto.method.startswith("Dirichlet posterior of each class's scores")
        else:
            assert auto == curve.interval(name, method=former, interval="logit-t")
        ops = curve.ops(name, reference=REF, ci="auto", rng=5, n_resamples=300)
        assert tuple(ops.details["value_ci"]) == pytest.approx(tuple(auto.ci), rel=1e-12)


def test_auto_needs_two_rows_of_each_class():
    one = ScoreCurve.from_scores([1, 0, 0, 0], [0.9, 0.2, 0.1, 0.5])
    for name in ("roc_auc", "pr_auc"):
        with pytest.raises(ValueError, match="needs at least 2 positives and 2 negatives"):
            one.interval(name)
    # the percentile bootstrap still resamples, when asked for explicitly
    with pytest.warns(UserWarning, match="has no width and is misleading"):
        assert np.isfinite(one.interval("pr_auc", method="bootstrap", rng=0).ci.low)


@pytest.mark.parametrize("n_small, warns", [(2, True), (9, True), (10, False)])
def test_logit_t_warns_below_ten_rows_of_a_class(n_small, warns):
    rng = np.random.default_rng(n_small)
    y = np.r_[np.ones(n_small), np.zeros(60)]
    curve = ScoreCurve.from_scores(y, rng.normal(y, 1))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        curve.interval("roc_auc", method="delong", interval="logit-t")
        curve.interval("pr_auc", method="jackknife", interval="logit-t")
        curve.interval("roc_auc", method="delong")  # the normal interval: no warning
        curve.interval("roc_auc", rng=0, n_resamples=200)  # the default: the posterior
    small = [w for w in caught if issubclass(w.category, SmallCountWarning)]
    assert len(small) == (2 if warns else 0)
    if warns:
        assert str(small[0].message).startswith(
            f"{n_small} rows in the smaller class (P = {n_small}, N = 60): with fewer "
            "than 10 the logit-t interval's coverage is uncertain"
        )


@pytest.mark.parametrize("name", ["roc_auc", "pr_auc"])
def test_ops_auto_maps_the_logit_t_ends(name):
    curve = _curve("medium")
    r = curve.ops(name, reference=REF, ci="auto", n_resamples=500, rng=4)
    iv = curve.interval(name, n_resamples=500, rng=4)
    # the ops estimate is the curve's area, DeLong's the Mann-Whitney sum: equal to 1e-15
    assert tuple(r.details["value_ci"]) == pytest.approx(tuple(iv.ci), rel=1e-13)
    ends = REF.ops(name, list(r.details["value_ci"]), prevalence=curve.prevalence).estimate
    assert tuple(r.details["ci_without_reference_error"]) == pytest.approx(tuple(ends), abs=1e-15)
    assert r.ci.low <= ends[0] and r.ci.high >= ends[1]
    assert r.ci_method.startswith(iv.method)


# ---------------------------------------------------------------- jackknife method
def slow_two_sample_jackknife(y, s, area):
    """Leave each row out, rebuild the curve, and combine per class:
    V_c = (m - 1) / m * sum (theta_(i) - mean)**2 over the m rows of class c."""
    parts = []
    for cls in (1, 0):
        rows = np.flatnonzero(y == cls)
        loo = np.array([area(np.delete(y, i), np.delete(s, i)) for i in rows])
        m = rows.size
        parts.append((m - 1) / m * np.sum((loo - loo.mean()) ** 2))
    return parts


@pytest.mark.parametrize("data", ["medium", "imbalanced", "tied"])
def test_jackknife_variance_of_the_roc_auc_is_delongs(data):
    # For the Mann-Whitney AUC the two-sample jackknife variance equals DeLong's
    # s10 / P + s01 / N (each component separately), with ties too.
    curve = ScoreCurve.from_scores(*_tied(3)) if data == "tied" else _curve(data)
    d = delong_roc(curve)
    r = curve.interval("roc_auc", method="jackknife")
    assert r.details["variance_positives"] == pytest.approx(d.s10 / d.n_positive, rel=1e-10)
    assert r.details["variance_negatives"] == pytest.approx(d.s01 / d.n_negative, rel=1e-10)
    normal = curve.interval("roc_auc", method="delong")
    assert tuple(r.ci) == pytest.approx(tuple(normal.ci), rel=1e-9)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_jackknife_pr_auc_against_sklearn_leave_one_out(seed):
    # Independent source: scikit-learn's average_precision_score on every curve with one
    # row left out (continuous scores: AP is the step-rule PR AUC).
    from sklearn.metrics import average_precision_score

    rng = np.random.default_rng(seed)
    y = (rng.random(70) < (0.15, 0.3, 0.5)[seed]).astype(int)
    y[:2], y[2:4] = 1, 0
    s = rng.normal(1.2 * y, 1)
    v1, v0 = slow_two_sample_jackknife(y, s, average_precision_score)
    ap = average_precision_score(y, s)
    r = ScoreCurve.from_scores(y, s).interval("pr_auc", method="jackknife", interval="logit-t")
    assert r.estimate == pytest.approx(ap, rel=1e-12)
    assert r.details["variance_positives"] == pytest.approx(v1, rel=1e-9)
    assert r.details["variance_negatives"] == pytest.approx(v0, rel=1e-9)
    k = min(y.sum(), (1 - y).sum())
    df = (k - 1) * (v1 + v0) ** 2 / (v1**2 + v0**2)
    half = stats.t.ppf(0.975, df) * np.sqrt(v1 + v0) / (ap * (1 - ap))
    centre = np.log(ap / (1 - ap))
    assert r.ci.low == pytest.approx(1 / (1 + np.exp(-(centre - half))), rel=1e-9)
    assert r.ci.high == pytest.approx(1 / (1 + np.exp(-(centre + half))), rel=1e-9)
    assert r.details["df"] == pytest.approx(df, rel=1e-9)
    assert r.method.endswith(f"logit scale, t with {df:.4g} df")
    normal = ScoreCurve.from_scores(y, s).interval("pr_auc", method="jackknife")
    z = stats.norm.ppf(0.975) * np.sqrt(v1 + v0)
    assert tuple(normal.ci) == pytest.approx((ap - z, min(ap + z, 1.0)), rel=1e-9)


def test_jackknife_separation_and_its_undefined_cases():
    sep = ScoreCurve.from_scores([0] * 6 + [1] * 3, np.arange(9.0))
    with pytest.warns(SmallCountWarning):
        r = sep.interval("pr_auc", method="jackknife", interval="logit-t")
    assert (r.estimate, r.ci.high) == (1.0, 1.0)
    assert r.ci.low == pytest.approx(0.025 ** (1 / 3), rel=1e-14)
    assert r.method.endswith("perfect separation: one-sided")
    # every negative on top: each class's leave-one-out values are all equal, the
    # variance 0, and the PR interval undefined (said, not a zero-width interval)
    reverse = ScoreCurve.from_scores([1] * 3 + [0] * 6, np.arange(9.0))
    with (
        pytest.warns(SmallCountWarning),
        pytest.warns(UserWarning, match="Every negative scores above every positive"),
    ):
        r = reverse.interval("pr_auc", method="jackknife", interval="logit-t")
    assert np.isnan(r.ci.low) and np.isnan(r.ci.high)
    with pytest.warns(SmallCountWarning):
        roc = reverse.interval("roc_auc", method="jackknife", interval="logit-t")
    assert roc.ci.low == 0.0 and roc.ci.high == pytest.approx(1 - 0.025 ** (1 / 3))


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (
            {"name": "precision", "at": {"recall": 0.5}},
            "the jackknife applies to curve areas; a value at an operating point",
        ),
        (
            {"name": "lift_auc", "interval": "logit-t"},
            "`interval='logit-t'` needs a quantity with values in \\[0, 1\\]",
        ),
        (
            {"name": "roc_auc", "interval": "bca"},
            "`interval='bca'` does not apply to `method='jackknife'`",
        ),
    ],
)
def test_jackknife_errors(kwargs, match):
    curve = _curve("medium")
    with pytest.raises(ValueError, match=match):
        curve.interval(method="jackknife", **kwargs)


def test_jackknife_needs_two_rows_per_class_and_whole_counts():
    one = ScoreCurve.from_scores([1, 0, 0, 0], [0.9, 0.2, 0.1, 0.5])
    with pytest.raises(
        ValueError,
        match=r"the jackknife needs at least 2 positives and 2 "
        "negatives .*; got 1 positive\\(s\\) and 3",
    ):
        one.interval("lift_auc", method="jackknife")
    weighted = ScoreCurve.from_scores(
        [1, 1, 0, 0, 0], [0.9, 0.4, 0.5, 0.1, 0.2], sample_weight=[1.5, 1, 1, 1, 2]
    )
    with pytest.raises(ValueError, match="The jackknife needs whole-number counts"):
        weighted.interval("pr_auc", method="jackknife")


def test_ops_jackknife_maps_the_ends():
    curve = _curve("medium")
    r = curve.ops("pr_auc", reference=REF, ci="jackknife")
    iv = curve.interval("pr_auc", method="jackknife")
    assert tuple(r.details["value_ci"]) == pytest.approx(tuple(iv.ci), rel=1e-13)
    ends = REF.ops("pr_auc", list(iv.ci), prevalence=curve.prevalence).estimate
    assert tuple(r.details["ci_without_reference_error"]) == pytest.approx(tuple(ends), abs=1e-15)
    assert r.details["variance"] == pytest.approx(iv.details["variance"], rel=1e-13)
    assert r.ci_method.startswith(iv.method)
    assert "n_resamples" not in r.details


def test_logit_t_separation_is_read_off_the_counts():
    # 3 positives above 7 negatives: OPS's value of the ROC AUC rounds to 1 - 1e-16 (its
    # geometry runs through the prevalence), which once gave the bootstrap logit-t
    # interval a NaN (every resample at 1, spread 0); separation is now read off the
    # counts, so every logit-t interval is the one-sided [0.025^(1/3), 1].
    curve = ScoreCurve.from_scores([1] * 3 + [0] * 7, np.r_[10.0:13.0, 0.0:7.0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SmallCountWarning)
        assert curve.ops("roc_auc", reference=REF).value < 1.0  # the rounding
        for kw in (
            {"ci": "bootstrap", "interval": "logit-t", "rng": 0},
            {"ci": "jackknife", "interval": "logit-t"},
            {"ci": "delong"},
        ):
            for name in ("roc_auc", "pr_auc"):
                if kw["ci"] == "delong":
                    if name == "pr_auc":
                        continue
                    kw = {**kw, "interval": "logit-t"}
                r = curve.ops(name, reference=REF, **kw)
                assert r.details["value_ci"].low == pytest.approx(0.025 ** (1 / 3), rel=1e-14)
                assert r.details["value_ci"].high == 1.0
                assert "perfect separation: one-sided" in r.ci_method


# ------------------------------------------------------- Dirichlet posterior method
class _MeanWeights:
    """A stand-in generator whose Gamma(s) draws are their means s: the posterior's
    weights are then the cells' row counts and the pseudo-rows' prior weight a."""

    def standard_gamma(self, shape, size=None):
        return np.broadcast_to(np.asarray(shape, dtype=float), size).copy()

    def standard_exponential(self, size=None):
        return np.ones(size)


def _weighted_with_pseudo_rows(y, s, a):
    """The data plus a pseudo-positive and a pseudo-negative tied above every score and
    another pair tied below, each of weight a; negatives rescaled so that the weighted
    prevalence is the data's P / n (the posterior keeps the prevalence fixed)."""
    P, N = int(np.sum(y)), int(np.size(y) - np.sum(y))
    top, bottom = np.max(s) + 1.0, np.min(s) - 1.0
    yy = np.r_[y, 1, 0, 1, 0]
    ss = np.r_[s, top, top, bottom, bottom]
    c = (P + 2 * a) * N / (P * (N + 2 * a))
    w = np.where(yy == 1, 1.0, c)
    w[-4:] *= a
    return yy, ss, w


@pytest.mark.parametrize("data", ["medium", "small_ties", "imbalanced"])
@pytest.mark.parametrize("a", [0.5, 1.0])
def test_dirichlet_functional_is_the_weighted_curve_with_pseudo_rows(data, a):
    """With every weight at its mean (rows 1, pseudo-rows a), one 'draw' is the area of
    the weighted curve with the four pseudo-rows: scikit-learn's roc_auc_score and
    average_precision_score with sample_weight (an independent computation)."""
    from sklearn.metrics import average_precision_score, roc_auc_score

    from opsstats.curves._geometry import CurveArea
    from opsstats.uncertainty.curve.dirichlet import _dirichlet_values

    y, s = _data(data)
    curve = ScoreCurve.from_scores(y, s)
    yy, ss, w = _weighted_with_pseudo_rows(y, s, a)
    for quantity, ref in (
        (CurveArea("roc", "trapezoid", False), roc_auc_score),
        (CurveArea("pr", "step", False), average_precision_score),
    ):
        got = _dirichlet_values(curve, [quantity], 3, a, _MeanWeights(), False)[0]
        assert got == pytest.approx(np.full(3, ref(yy, ss, sample_weight=w)), rel=1e-12)


def slow_dirichlet_draws(y, s, a, n, rng, metric):
    """Row by row: Dirichlet(1, ..., 1, a, a) weights for each class's rows and its two
    pseudo-rows, the metric of the weighted sample (prevalence fixed at P / n)."""
    P, N = int(np.sum(y)), int(np.size(y) - np.sum(y))
    top, bottom = np.max(s) + 1.0, np.min(s) - 1.0
    yy = np.r_[y[y == 1], 1, 1, y[y == 0], 0, 0]
    ss = np.r_[s[y == 1], top, bottom, s[y == 0], top, bottom]
    out = np.empty(n)
    for i in range(n):
        wp = rng.dirichlet(np.r_[np.ones(P), a, a]) * P
        wn = rng.dirichlet(np.r_[np.ones(N), a, a]) * N
        out[i] = metric(yy, ss, sample_weight=np.r_[wp, wn])
    return out


@pytest.mark.parametrize("name", ["roc_auc", "pr_auc"])
def test_dirichlet_draws_follow_the_row_by_row_posterior(name):
    """The fast draws (Gamma weights per merged cell) and a slow row-by-row Dirichlet
    posterior through scikit-learn have the same distribution: two-sample
    Kolmogorov-Smirnov test on 3000 draws each (tied scores included)."""
    from sklearn.metrics import average_precision_score, roc_auc_score

    from opsstats.uncertainty.curve.dirichlet import _dirichlet_values

    y, s = _data("small_ties")
    curve = ScoreCurve.from_scores(y, s)
    quantity = parse_area(name)
    fast = _dirichlet_values(curve, [quantity], 3000, 0.5, np.random.default_rng(5), False)[0]
    metric = roc_auc_score if name == "roc_auc" else average_precision_score
    slow = slow_dirichlet_draws(y, s, 0.5, 3000, np.random.default_rng(6), metric)
    assert stats.ks_2samp(fast, slow).pvalue > 0.01
    # the test can tell: without the pseudo-rows (the plain Bayesian bootstrap) the
    # distribution differs
    plain = slow_dirichlet_draws(y, s, 1e-9, 3000, np.random.default_rng(7), metric)
    assert stats.ks_2samp(fast, plain).pvalue < 1e-6


def test_dirichlet_interval_is_the_quantiles_of_its_draws_and_reproducible():
    curve = _curve("medium")
    r = curve.interval("pr_auc", method="dirichlet", rng=3, n_resamples=500)
    assert r == curve.interval("pr_auc", method="dirichlet", rng=3, n_resamples=500)
    assert r.ci != curve.interval("pr_auc", method="dirichlet", rng=4, n_resamples=500).ci
    assert r.draws.size == 500 and r.n_undefined == 0 and r.prevalence_mode == "fixed"
    assert tuple(r.ci) == pytest.approx(tuple(np.quantile(r.draws, [0.025, 0.975])), rel=1e-12)
    assert r.method == (
        "Dirichlet posterior of each class's scores (Bayesian bootstrap, "
        "Jeffreys pseudo-rows at both ends), 500 draws, equal-tailed"
    )
    laplace = curve.interval(
        "pr_auc", method="dirichlet", prior="bayes-laplace", rng=3, n_resamples=500
    )
    assert "Bayes-Laplace pseudo-rows" in laplace.method
    assert (
        curve.interval("pr_auc", method="dirichlet", prior=0.5, rng=3, n_resamples=500).ci == r.ci
    )
    assert (
        "0.25 pseudo-rows"
        in curve.interval("pr_auc", method="dirichlet", prior=0.25, rng=3, n_resamples=500).method
    )


def test_dirichlet_separated_test_set_keeps_an_interval_below_one():
    """No special case: the pseudo-rows make a perfectly separated test set's posterior
    reach well below 1, as the equal-tailed Jeffreys interval of k successes out of k
    does; its draws' upper quantile stays below the observed area, 1, and the interval is
    extended to it, as the Jeffreys interval's boundary rule extends it to x / n = 1
    (docs/method.md#containing-the-estimate)."""
    curve = ScoreCurve.from_scores([0, 0, 0, 0, 1, 1, 1], [0.1, 0.2, 0.3, 0.4, 0.7, 0.8, 0.9])
    for name in ("roc_auc", "pr_auc"):
        r = curve.interval(name, method="dirichlet", rng=0)
        assert r.estimate == 1.0 and r.ci.high == 1.0
        assert 0.95 < np.quantile(r.draws, 0.975, method="linear") < 1.0
        assert r.method.endswith("; extended to contain the estimate")
        assert 0.3 < r.ci.low < 0.9


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        (
            {"method": "delong", "prior": "jeffreys"},
            ValueError,
            "`prior` sets the pseudo-rows of `method='dirichlet'`",
        ),
        (
            {"method": "dirichlet", "prior": "flat"},
            ValueError,
            "`prior` must be one of 'jeffreys', 'bayes-laplace'; got 'flat'",
        ),
        ({"method": "dirichlet", "prior": -1.0}, ValueError, "`prior` must be"),
        (
            {"method": "dirichlet", "prior": [0.5]},
            TypeError,
            "`prior` must be 'jeffreys', 'bayes-laplace' or a positive number",
        ),
        (
            {"method": "dirichlet", "stratified": False},
            ValueError,
            "`stratified=False` \\(the prevalence resampled\\) is the bootstrap's",
        ),
        (
            {"method": "dirichlet", "interval": "bca"},
            ValueError,
            "`interval='bca'` does not apply to `method='dirichlet'`",
        ),
    ],
)
def test_dirichlet_errors(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        _curve("medium").interval("roc_auc", rng=0, **kwargs)


def test_dirichlet_needs_whole_counts():
    weighted = ScoreCurve.from_scores(
        [0, 1, 0, 1], [0.1, 0.6, 0.3, 0.8], sample_weight=[1.5, 1, 1, 2]
    )
    with pytest.raises(ValueError, match="The curve Dirichlet posterior needs whole-number"):
        weighted.interval("roc_auc", method="dirichlet")


@pytest.mark.parametrize("name", ["roc_auc", "pr_auc"])
def test_ops_dirichlet_maps_the_draws(name):
    curve = _curve("medium")
    # 401 draws: the 2.5% and 97.5% quantiles are the 11th and 391st order statistics
    # exactly, so their OPS are OPS at the interval's ends
    r = curve.ops(name, reference=REF, ci="dirichlet", n_resamples=401, rng=4)
    iv = curve.interval(name, method="dirichlet", n_resamples=401, rng=4)
    assert tuple(r.details["value_ci"]) == pytest.approx(tuple(iv.ci), rel=1e-12)
    assert r.details["n_resamples"] == 401 and r.details["n_undefined"] == 0
    ends = REF.ops(name, list(iv.ci), prevalence=curve.prevalence).estimate
    assert tuple(r.details["ci_without_reference_error"]) == pytest.approx(tuple(ends), abs=1e-12)
    assert r.ci_method.startswith(iv.method)


def _weak_few_positives():
    """8 positives among 400 negatives, weakly separated: average precision biased
    upwards."""
    rng = np.random.default_rng(11)
    y = np.r_[np.ones(8), np.zeros(400)]
    return ScoreCurve.from_scores(y, rng.normal(size=408) + 1.2 * y), y


def _ap_at(y, s, prevalence):
    """Average precision (step rule) at a given prevalence, the slow obvious way (no
    ties): each positive's precision pi TPR / (pi TPR + (1 - pi) FPR) at its own score."""
    order = np.argsort(-np.asarray(s))
    y = np.asarray(y)[order]
    tpr = np.cumsum(y)[y == 1] / y.sum()
    fpr = np.cumsum(1 - y)[y == 1] / (1 - y).sum()
    return float(np.mean(prevalence * tpr / (prevalence * tpr + (1 - prevalence) * fpr)))


def test_bias_extended_moves_the_lower_end_down_by_the_jackknife_bias():
    curve, y = _weak_few_positives()
    s = np.random.default_rng(11).normal(size=408) + 1.2 * y
    plain = curve.interval("pr_auc", method="dirichlet", rng=3, n_resamples=500)
    ext = curve.interval(
        "pr_auc", method="dirichlet", interval="bias-extended", rng=3, n_resamples=500
    )
    np.testing.assert_array_equal(ext.draws, plain.draws)  # the same posterior draws
    # Quenouille's jackknife over the 8 positives, each left out in turn by deleting its
    # row, every average precision read at the test set's prevalence 8 / 408
    pi = y.mean()
    assert _ap_at(y, s, pi) == pytest.approx(plain.estimate, rel=1e-12)
    loo = [_ap_at(np.delete(y, i), np.delete(s, i), pi) for i in np.flatnonzero(y)]
    b = 7 * (np.mean(loo) - plain.estimate)
    assert 0.03 < b < 0.04 < plain.ci.low  # b = 0.0347: a real shift, not rounding
    assert ext.details["bias_extension"] == pytest.approx(b, rel=1e-10)
    assert ext.ci.low == pytest.approx(plain.ci.low - b, abs=1e-12)
    assert ext.ci.high == plain.ci.high and ext.estimate == plain.estimate
    assert ext.method == (
        plain.method + ", lower end extended by the jackknife bias "
        f"estimate over the positives ({ext.details['bias_extension']:.3g})"
    )
    # below 100 rows of a class this is the PR AUC default (the ROC AUC's stays plain),
    # whose method says it chose the posterior for the small class
    note = "; the default below 100 rows in the smaller class (here 8 positives)"
    auto = curve.interval("pr_auc", rng=3, n_resamples=500)
    assert auto.method == ext.method + note and replace(auto, method=ext.method) == ext
    auto = curve.interval("roc_auc", rng=3, n_resamples=500)
    explicit = curve.interval("roc_auc", method="dirichlet", rng=3, n_resamples=500)
    assert replace(auto, method=auto.method.replace(note, "")) == explicit


def test_jackknife_bias_of_average_precision_is_never_negative():
    """Every arrangement of 2-4 positives among 4-10 rows (no ties): the bias estimate
    the extension uses is >= 0 up to rounding, so only the lower end ever moves."""
    from itertools import combinations

    from opsstats.curves._geometry import CurveArea
    from opsstats.uncertainty.curve.jackknife import _jackknife

    quantity = CurveArea("pr", "step", False)
    lowest = 0.0
    for n in range(4, 11):
        for p in range(2, min(5, n - 1)):
            for ranks in combinations(range(n), p):
                y = np.zeros(n)
                y[list(ranks)] = 1
                s = -np.arange(n, dtype=float)
                jack = _jackknife(ScoreCurve.from_scores(y, s), quantity, fixed_prevalence=True)
                loo = [_ap_at(np.delete(y, i), np.delete(s, i), p / n) for i in ranks]
                # the O(k) jackknife agrees with deleting each positive's row
                per_row = np.repeat(jack.values[0], jack.weights[0].astype(int))
                np.testing.assert_allclose(np.sort(per_row), np.sort(loo), rtol=1e-12)
                lowest = min(lowest, (p - 1) * (np.mean(loo) - _ap_at(y, s, p / n)))
    assert lowest > -1e-12


def test_bias_extended_never_narrows_and_stops_at_zero():
    # three positives among 60 negatives, one on top: b = 0.0778 > the plain low end 0.0698
    y = np.r_[np.ones(3), np.zeros(60)]
    curve = ScoreCurve.from_scores(y, np.round(np.random.default_rng(3).normal(size=63) + y, 3))
    plain = curve.interval("pr_auc", method="dirichlet", rng=3, n_resamples=500)
    ext = curve.interval(
        "pr_auc", method="dirichlet", interval="bias-extended", rng=3, n_resamples=500
    )
    assert plain.ci.low - ext.details["bias_extension"] < 0 == ext.ci.low
    # a separated test set: the draws fall below the estimate 1, no extension
    sep = ScoreCurve.from_scores([0, 0, 0, 0, 1, 1, 1], [0.1, 0.2, 0.3, 0.4, 0.7, 0.8, 0.9])
    plain = sep.interval("pr_auc", method="dirichlet", rng=0)
    ext = sep.interval("pr_auc", method="dirichlet", interval="bias-extended", rng=0)
    assert ext.details["bias_extension"] == 0.0 and ext.ci == plain.ci


def test_ops_bias_extended_maps_the_extended_ends():
    curve, _ = _weak_few_positives()
    iv = curve.interval(
        "pr_auc", method="dirichlet", interval="bias-extended", n_resamples=401, rng=4
    )
    r = curve.ops(
        "pr_auc", reference=REF, ci="dirichlet", interval="bias-extended", n_resamples=401, rng=4
    )
    assert tuple(r.details["value_ci"]) == pytest.approx(tuple(iv.ci), rel=1e-12)
    assert r.details["bias_extension"] == iv.details["bias_extension"]
    assert r.details["n_resamples"] == 401 and r.details["n_undefined"] == 0
    ends = REF.ops("pr_auc", list(iv.ci), prevalence=curve.prevalence).estimate
    assert tuple(r.details["ci_without_reference_error"]) == pytest.approx(tuple(ends), abs=1e-12)
    assert r.ci_method.startswith(iv.method)
    auto = curve.ops("pr_auc", reference=REF, ci="auto", n_resamples=401, rng=4)
    note = "; the default below 100 rows in the smaller class (here 8 positives)"
    assert auto.ci_method == r.ci_method.replace(iv.method, iv.method + note)
    assert replace(auto, ci_method=r.ci_method) == r


@pytest.mark.parametrize("name, kw", [("lift_auc", {}), ("precision", {"at": {"recall": 0.5}})])
def test_bias_extended_only_for_the_roc_and_pr_areas(name, kw):
    curve = _curve("medium")
    with pytest.raises(
        ValueError, match="`interval='bias-extended'` applies to the ROC and PR areas"
    ):
        curve.interval(name, method="dirichlet", interval="bias-extended", rng=0, **kw)
    with pytest.raises(ValueError, match="`interval='bias-extended'` applies"):
        curve.ops(name, reference=REF, ci="dirichlet", interval="bias-extended", rng=0, **kw)
    # the ROC area accepts it (the extension is 0 when the draws fall below the estimate)
    r = curve.interval(
        "roc_auc", method="dirichlet", interval="bias-extended", rng=0, n_resamples=200
    )
    assert r.details["bias_extension"] >= 0.0


def test_dirichlet_class_weights_draw_the_documented_stream():
    """The cumulative weights of one class: Gamma(a), Gamma(count) per cell (a standard
    exponential for one row, 0 for none), Gamma(a), drawn in that order from the
    generator; the path without a scatter (every cell one row) draws the same stream."""
    from opsstats.uncertainty.curve.dirichlet import _class_weights

    def by_hand(counts, b, a, rng):
        w = np.zeros((b, counts.size + 2))
        w[:, 0] = rng.standard_gamma(a, size=b)
        one, many = np.flatnonzero(counts == 1), np.flatnonzero(counts > 1)
        w[:, 1 + one] = rng.standard_exponential((b, one.size))
        w[:, 1 + many] = rng.standard_gamma(counts[many].astype(float), size=(b, many.size))
        w[:, -1] = rng.standard_gamma(a, size=b)
        return np.cumsum(w, axis=1)

    r = np.random.default_rng(1)
    for t in range(40):
        k = int(r.integers(1, 30))
        counts = np.ones(k, int) if t % 2 else r.choice([0, 1, 1, 2, 5], size=k)
        seed = int(r.integers(2**32))
        g1, g2 = np.random.default_rng(seed), np.random.default_rng(seed)
        np.testing.assert_array_equal(
            _class_weights(counts, 23, 0.5, g1), by_hand(counts, 23, 0.5, g2)
        )
        assert g1.random() == g2.random()  # the same number of draws taken
