"""DeLong's paired and unpaired tests of two ROC AUCs against R's pROC 1.18
(tests/reference/proc_compare.csv; the R call of each value is in its ``r_call``
column), and against a slow pairwise computation written here."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from opsstats import ScoreCurve
from opsstats.comparison import delong_covariance, delong_test, delong_unpaired

REF = Path(__file__).parent / "reference"
PROC = pd.read_csv(REF / "proc_compare.csv", keep_default_na=False)


def _params(text: str) -> dict[str, str]:
    return dict(item.split("=", 1) for item in text.split(";"))


def load_pair(dataset: str, roc1: str, roc2: str):
    """(y1, s1, y2, s2) for the two curves of a row, as the row's R ``setup`` builds them."""
    if dataset == "aSAH":
        d = pd.read_csv(REF / "data_compare" / "aSAH.csv")
        y = (d["outcome"] == "Poor").to_numpy()
        if roc2 == "s100b[1:100]":
            return y, d["s100b"].to_numpy(float), y[:100], d["s100b"].to_numpy(float)[:100]
        return y, d[roc1].to_numpy(float), y, d[roc2].to_numpy(float)
    if dataset == "unpaired":
        d = pd.read_csv(REF / "data_compare" / "unpaired.csv")
        a, b = d[d["set"] == roc1], d[d["set"] == roc2]
        return (
            a["y_true"].to_numpy(),
            a["y_score"].to_numpy(float),
            b["y_true"].to_numpy(),
            b["y_score"].to_numpy(float),
        )
    d = pd.read_csv(REF / "data_compare" / f"{dataset}.csv")
    y = d["y_true"].to_numpy()
    return y, d[roc1].to_numpy(float), y, d[roc2].to_numpy(float)


def _cases(kind: str):
    rows = PROC[
        PROC["params"].str.contains("method=delong") & ~PROC["params"].str.contains("form=")
    ]
    rows = rows[rows["quantity"] != "error"]
    out = []
    for (dataset, params, level, alt), g in rows.groupby(
        ["dataset", "params", "conf_level", "alternative"], sort=False
    ):
        p = _params(params)
        if kind == "paired" and p.get("paired") == "TRUE":
            out.append((dataset, p["roc1"], p["roc2"], float(level), alt, g))
        elif kind == "unpaired" and p.get("paired") == "FALSE":
            out.append((dataset, p["roc1"], p["roc2"], 0.95, alt, g))
        elif kind == "cov" and "paired" not in p:
            out.append((dataset, p["roc1"], p["roc2"], None, alt, g))
    return out


def _ids(cases):
    return [f"{c[0]}-{c[1]}-{c[2]}-{c[3]}-{c[4]}" for c in cases]


PAIRED = _cases("paired")
UNPAIRED = _cases("unpaired")
COV = _cases("cov")


def test_reference_rows_found():
    # every deterministic DeLong row of the CSV is used below
    assert len(PAIRED) == 6 * 3 * 2  # 6 pairs (3 aSAH, 3 simulated) x 3 alternatives x 2 levels
    assert len(UNPAIRED) == 3 * 3
    assert len(COV) == 6


@pytest.mark.parametrize("dataset, roc1, roc2, level, alt, rows", PAIRED, ids=_ids(PAIRED))
def test_paired_delong_matches_proc(dataset, roc1, roc2, level, alt, rows):
    # roc.test(r1, r2, method="delong", paired=TRUE, alternative=alt, conf.level=level)
    y, s1, _, s2 = load_pair(dataset, roc1, roc2)
    r = delong_test(y, {roc1: s1, roc2: s2}, alternative=alt, confidence_level=level)
    got = {
        "statistic": r.statistic,
        "p_value": r.p_value,
        "estimate_auc1": r.estimate_a,
        "estimate_auc2": r.estimate_b,
        "conf_int_lower": r.ci.low,
        "conf_int_upper": r.ci.high,
    }
    for _, row in rows.iterrows():
        assert got[row["quantity"]] == pytest.approx(float(row["value"]), rel=1e-9, abs=1e-12)
    assert r.names == (roc1, roc2) and r.paired


@pytest.mark.parametrize("dataset, roc1, roc2, level, alt, rows", UNPAIRED, ids=_ids(UNPAIRED))
def test_unpaired_delong_matches_proc(dataset, roc1, roc2, level, alt, rows):
    # roc.test(r1, r2, method="delong", paired=FALSE, alternative=alt)
    y1, s1, y2, s2 = load_pair(dataset, roc1, roc2)
    r = delong_unpaired(
        ScoreCurve.from_scores(y1, s1), ScoreCurve.from_scores(y2, s2), alternative=alt
    )
    got = {
        "statistic": r.statistic,
        "df": r.df,
        "p_value": r.p_value,
        "estimate_auc1": r.estimate_a,
        "estimate_auc2": r.estimate_b,
    }
    for _, row in rows.iterrows():
        if row["quantity"] == "has_conf_int":
            continue  # pROC gives none; ours inverts the t test (checked below)
        assert got[row["quantity"]] == pytest.approx(float(row["value"]), rel=1e-9, abs=1e-12)
    # the interval inverts the test: 0 is outside exactly when the two-sided p < 1 - level
    if alt == "two-sided":
        outside = not (r.ci.low <= 0 <= r.ci.high)
        assert outside == (r.p_value < 0.05)


@pytest.mark.parametrize("dataset, roc1, roc2, level, alt, rows", COV, ids=_ids(COV))
def test_delong_covariance_matches_proc(dataset, roc1, roc2, level, alt, rows):
    # var(r1), var(r2), cov(r1, r2, method="delong")
    y, s1, _, s2 = load_pair(dataset, roc1, roc2)
    _, cov = delong_covariance(y, {"1": s1, "2": s2})
    got = {"var_auc1": cov.iloc[0, 0], "var_auc2": cov.iloc[1, 1], "cov_auc12": cov.iloc[0, 1]}
    for _, row in rows.iterrows():
        assert got[row["quantity"]] == pytest.approx(float(row["value"]), rel=1e-9, abs=1e-14)


def _slow_delong(y, scores):
    """DeLong et al. (1988) straight from the definition: psi over every pair."""
    y = np.asarray(y, bool)
    v10, v01 = [], []
    for s in scores:
        x, z = s[y][:, None], s[~y][None, :]
        psi = (x > z) + 0.5 * (x == z)
        v10.append(psi.mean(axis=1))
        v01.append(psi.mean(axis=0))
    v10, v01 = np.array(v10), np.array(v01)
    return v10.mean(axis=1), np.cov(v10) / v10.shape[1] + np.cov(v01) / v01.shape[1]


def test_covariance_of_three_matches_the_definition():
    rng = np.random.default_rng(3)
    y = rng.random(80) < 0.3
    scores = [np.round(rng.normal(size=80) + k * y, 1) for k in (0.5, 1.0, 1.5)]
    auc, cov = delong_covariance(y, scores)
    a_slow, c_slow = _slow_delong(y, scores)
    np.testing.assert_allclose(auc.to_numpy(), a_slow, rtol=1e-13)
    np.testing.assert_allclose(cov.to_numpy(), c_slow, rtol=1e-11, atol=1e-16)


def _slow_parts(y, s):
    """One classifier's placements, from the definition."""
    y = np.asarray(y, bool)
    x, z = s[y][:, None], s[~y][None, :]
    psi = (x > z) + 0.5 * (x == z)
    return psi.mean(axis=1), psi.mean(axis=0)


@pytest.mark.parametrize("positives", [2, 3, 7, 40])
def test_paired_t_reference_matches_the_definition(positives):
    """distribution="t": Welch (1947) / Satterthwaite (1946) df of the two class parts of
    var(A - B), each from the placement differences' sample variance; df = m - 1 when a
    class has 2 rows. Reference: the definition with scipy.stats.t."""
    from scipy import stats

    rng = np.random.default_rng(positives)
    n = 120
    y = np.r_[np.ones(positives, bool), np.zeros(n - positives, bool)]
    a = np.round(rng.normal(size=n) + y, 1)
    b = np.round(0.5 * a + rng.normal(size=n) + 0.5 * y, 1)
    (a10, a01), (b10, b01) = _slow_parts(y, a), _slow_parts(y, b)
    d10, d01 = a10 - b10, a01 - b01
    v1, v0 = d10.var(ddof=1) / d10.size, d01.var(ddof=1) / d01.size
    if positives < 3:
        df = positives - 1
    else:
        df = (v1 + v0) ** 2 / (v1**2 / (d10.size - 1) + v0**2 / (d01.size - 1))
    t = (d10.mean()) / np.sqrt(v1 + v0)
    r = delong_test(y, {"a": a, "b": b}, distribution="t", confidence_level=0.9)
    assert r.df == pytest.approx(df, rel=1e-12)
    assert r.statistic == pytest.approx(t, rel=1e-12)
    assert r.p_value == pytest.approx(2 * stats.t.sf(abs(t), df), rel=1e-10)
    half = stats.t.ppf(0.95, df) * np.sqrt(v1 + v0)
    assert r.ci.low == pytest.approx(d10.mean() - half, rel=1e-10)
    assert r.ci.high == pytest.approx(d10.mean() + half, rel=1e-10)
    assert r.statistic_name == "T" and "Satterthwaite" in r.method


def test_unpaired_t_reference_matches_the_definition():
    from scipy import stats

    rng = np.random.default_rng(11)
    ya = np.r_[np.ones(6, bool), np.zeros(60, bool)]
    yb = np.r_[np.ones(30, bool), np.zeros(50, bool)]
    sa, sb = rng.normal(size=66) + ya, np.round(rng.normal(size=80) + yb, 1)
    parts = []
    for y, s in ((ya, sa), (yb, sb)):
        v10, v01 = _slow_parts(y, s)
        parts += [(v10.var(ddof=1) / v10.size, v10.size), (v01.var(ddof=1) / v01.size, v01.size)]
    v = sum(p for p, _ in parts)
    df = v**2 / sum(p**2 / (k - 1) for p, k in parts)
    auc_a, auc_b = _slow_parts(ya, sa)[0].mean(), _slow_parts(yb, sb)[0].mean()
    r = delong_unpaired(
        ScoreCurve.from_scores(ya, sa), ScoreCurve.from_scores(yb, sb), distribution="t"
    )
    assert r.df == pytest.approx(df, rel=1e-12)
    assert r.statistic == pytest.approx((auc_a - auc_b) / np.sqrt(v), rel=1e-12)
    assert r.p_value == pytest.approx(2 * stats.t.sf(abs(r.statistic), df), rel=1e-10)
    with pytest.raises(ValueError, match="`distribution` must be one of 'proc', 't'"):
        delong_unpaired(
            ScoreCurve.from_scores(ya, sa), ScoreCurve.from_scores(yb, sb), distribution="normal"
        )


def test_printed_like_proc():
    y, s1, _, s2 = load_pair("aSAH", "s100b", "ndka")
    text = str(delong_test(y, {"s100b": s1, "ndka": s2}))
    assert "DeLong's test for two correlated ROC curves" in text
    assert "Z = 1.3908, p-value = 0.1643" in text
    assert "95 percent confidence interval:\n -0.0489 0.2877" in text
    assert max(len(line) for line in text.splitlines()) <= 100


def test_perfect_curves_have_no_statistic():
    y = [0, 0, 0, 1, 1, 1]
    with pytest.warns(UserWarning, match="variance of the difference is 0"):
        r = delong_test(y, {"A": [1, 2, 3, 4, 5, 6], "B": [1, 2, 3, 7, 8, 9]})
    assert np.isnan(r.statistic) and np.isnan(r.p_value) and r.estimate == 0.0


def _venkatraman_cases():
    rows = PROC[
        PROC["params"].str.contains("method=venkatraman")
        & PROC["params"].str.contains("paired=TRUE")
        & PROC["quantity"].isin(["statistic", "p_value"])
    ]
    out = []
    for (dataset, params), g in rows.groupby(["dataset", "params"]):
        p = _params(params)
        e = g[g["quantity"] == "statistic"]["value"].astype(float).iloc[0]
        pv = g[g["quantity"] == "p_value"]["value"].astype(float)
        out.append((dataset, p["roc1"], p["roc2"], e, pv.mean(), np.ptp(pv)))
    return out


@pytest.mark.parametrize("dataset, roc1, roc2, e, p_mean, p_spread", _venkatraman_cases())
def test_venkatraman_paired_matches_proc(dataset, roc1, roc2, e, p_mean, p_spread):
    # set.seed(s); roc.test(r1, r2, method="venkatraman", paired=TRUE, boot.n=2000):
    # E is deterministic; p is Monte Carlo (binomial s.e. at most 0.011 with 2000
    # permutations), compared with 4 binomial standard errors
    from opsstats.comparison import venkatraman_test

    y, s1, _, s2 = load_pair(dataset, roc1, roc2)
    r = venkatraman_test(y, {roc1: s1, roc2: s2}, n_resamples=2000, rng=11)
    assert r.statistic == e
    se = np.sqrt(p_mean * (1 - p_mean) / 2000) + np.sqrt(p_mean * (1 - p_mean) / 10000)
    assert r.p_value == pytest.approx(p_mean, abs=4 * se + 1e-3)
