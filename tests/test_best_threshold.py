"""Best threshold (pROC coords(x="best")) and bootstrap intervals for a threshold and
the coordinates at it (pROC ci.thresholds, ci.coords, ci.se, ci.sp), against pROC 1.18
(tests/reference/proc_vocabulary.csv; docs/method.md#vocabulary)."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from test_partial_auc import _data, _params, _vocabulary

from opsstats import ScoreCurve
from opsstats.uncertainty.curve.best import best_threshold_interval, threshold_interval

_COLUMNS = {
    "threshold": "threshold_midpoint",
    "sensitivity": "sensitivity",
    "specificity": "specificity",
    "tp": "tp",
    "fp": "fp",
    "tn": "tn",
    "fn": "fn",
    "youden": "proc_youden",  # pROC's youden column is se + r sp; ours is Youden's J
    "closest.topleft": "closest_topleft",
}


def _best_rows() -> pd.DataFrame:
    d = _vocabulary()
    return d[
        d["params"].str.contains("x=best;best.method")
        & (d["monte_carlo"] == "false")
        & ~d["params"].str.contains("binormal|fun=")
    ]


def _settings() -> list[tuple[str, str]]:
    rows = _best_rows()
    rows = rows[rows["quantity"] == "n_rows"]
    return list(zip(rows["dataset"], rows["params"], strict=True))


def test_settings_present():
    assert len(_settings()) == 24  # 6 sets x 2 methods x 2 weights


@pytest.mark.parametrize("dataset, params", _settings())
def test_best_threshold_matches_proc_coords_best(dataset, params):
    # R: coords(r, x="best", best.method=..., best.weights=c(cost, prevalence),
    #    ret="all", transpose=FALSE): every tied optimum, increasing threshold
    p = _params(params)
    cost, prev = map(float, re.findall(r"[\d.]+", p["best.weights"]))
    got = ScoreCurve.from_scores(*_data(dataset)).best_threshold(p["best.method"], (cost, prev))
    rows = _best_rows()
    rows = rows[(rows["dataset"] == dataset) & rows["params"].str.startswith(params)]
    n_rows = int(rows[rows["quantity"] == "n_rows"]["value"].iloc[0])
    assert len(got) == n_rows
    for i in range(n_rows):
        mine = rows[rows["params"] == f"{params};row={i + 1}"]
        for _, row in mine[mine["quantity"].isin(list(_COLUMNS))].iterrows():
            want = float(row["value"])  # Python reads pROC's "Inf" / "-Inf"
            have = float(got[_COLUMNS[row["quantity"]]].iloc[i])
            assert have == pytest.approx(want, rel=1e-12, abs=1e-14), (row["quantity"], i)


def test_weak_has_tied_optima_and_youden_is_j():
    curve = ScoreCurve.from_scores(*_data("weak"))
    b = curve.best_threshold()
    assert len(b) == 2 and np.allclose(b["threshold_midpoint"], [0.105, 0.125], rtol=1e-14)
    # Youden's J = se + sp - 1 (0.1133 here); pROC's column, the sum, is J + 1 (1.1133)
    np.testing.assert_allclose(b["youden"], b["sensitivity"] + b["specificity"] - 1, rtol=0)
    np.testing.assert_allclose(b["proc_youden"], b["youden"] + 1, rtol=1e-15)
    assert b["youden"].iloc[0] == pytest.approx(1.113333333333333 - 1, rel=1e-12)  # pROC 1.1133
    # the same points by brute force over every threshold rule "score >= t"
    y, s = _data("weak")
    P, N = (y == 1).sum(), (y == 0).sum()
    j = [((s[y == 1] >= t).sum() / P + (s[y == 0] < t).sum() / N, t) for t in np.unique(s)]
    best = max(v for v, _ in j)
    assert sorted(t for v, t in j if v == best) == sorted(b["threshold"])


def _mc(params: str, quantity: str) -> tuple[float, float]:
    d = _vocabulary()
    v = d[(d["params"] == params) & (d["quantity"] == quantity)]["value"].astype(float)
    assert len(v) == 5
    return float(v.mean()), float(v.max() - v.min())


def test_threshold_interval_matches_proc_ci_thresholds():
    curve = ScoreCurve.from_scores(*_data("aSAH"))
    # R: set.seed(s); ci.thresholds(r, thresholds=t, boot.n=2000)
    t = [0.1, 0.2, 0.3, 0.5]
    best = float(curve.best_threshold()["threshold_midpoint"].iloc[0])
    assert best == pytest.approx(0.205)  # pROC's "best" on aSAH
    got = threshold_interval(curve, [*t, best], n_resamples=4000, rng=7)
    settings = [f"predictor=s100b;fun=ci.thresholds;threshold={x:g};boot.n=2000" for x in t]
    settings.append("predictor=s100b;fun=ci.thresholds;thresholds=best;boot.n=2000")
    for i, params in enumerate(settings):
        for ours, theirs in (("sensitivity", "se"), ("specificity", "sp")):
            for end, q in (("low", "lower"), ("median", "median"), ("high", "upper")):
                want, spread = _mc(params, f"{theirs}_{q}")
                have = got[f"{ours}_{end}"].iloc[i]
                # one step of 1/41 (cases) or 1/72 (controls) on the grid, plus spread
                assert have == pytest.approx(want, abs=max(3 * spread, 0.03)), (params, q)


@pytest.mark.parametrize(
    "dataset, ties", [("aSAH", "random"), ("aSAH", "stop"), ("weak", "random")]
)
def test_best_threshold_interval_matches_proc_ci_coords(dataset, ties):
    # R: set.seed(s); ci.coords(r, x="best", best.method="youden", best.policy=...,
    #    ret=c("threshold", "specificity", "sensitivity"), boot.n=2000)
    curve = ScoreCurve.from_scores(*_data(dataset))
    pred = "s100b" if dataset == "aSAH" else "y_score"
    params = (
        f"predictor={pred};fun=ci.coords;x=best;best.method=youden;best.policy={ties};boot.n=2000"
    )
    got = best_threshold_interval(curve, ties=ties, n_resamples=4000, rng=3)
    for name in ("threshold", "sensitivity", "specificity"):
        for end, q in (("low", "lower"), ("median", "median"), ("high", "upper")):
            want, spread = _mc(params, f"{name}_{q}")
            assert got.loc[name, end] == pytest.approx(want, abs=max(3 * spread, 0.05)), (name, q)
    if dataset == "aSAH":
        assert got.loc["threshold", "estimate"] == pytest.approx(0.205)
    else:  # two tied optima on the full curve: no single estimate
        assert np.isnan(got.loc["threshold", "estimate"]) and got.attrs["n_optima"] == 2
        assert got.attrs["n_tied_resamples"] > 0


def test_ties_stop_raises_where_proc_aborts():
    # pROC: best.policy="stop" aborts on weak for every seed
    curve = ScoreCurve.from_scores(*_data("weak"))
    with pytest.raises(ValueError, match="`ties='stop'`"):
        best_threshold_interval(curve, ties="stop", rng=1)


@pytest.mark.parametrize("dataset", ["aSAH", "medium"])
def test_ci_se_and_ci_sp_through_curve_interval(dataset):
    # R: set.seed(s); ci.se(r, specificities=c(0.5, 0.9), boot.n=2000), ci.sp(...)
    curve = ScoreCurve.from_scores(*_data(dataset))
    pred = "s100b" if dataset == "aSAH" else "y_score"
    for x in (0.5, 0.9):
        se = curve.interval(
            "recall", at={"specificity": x}, method="bootstrap", n_resamples=4000, rng=5
        )
        sp = curve.interval(
            "specificity", at={"recall": x}, method="bootstrap", n_resamples=4000, rng=5
        )
        for r, fun, key in ((se, "ci.se", "specificity"), (sp, "ci.sp", "sensitivity")):
            params = f"predictor={pred};fun={fun};{key}={x:g};boot.n=2000"
            prefix = "se" if fun == "ci.se" else "sp"
            low, s1 = _mc(params, f"{prefix}_lower")
            high, s2 = _mc(params, f"{prefix}_upper")
            assert r.ci.low == pytest.approx(low, abs=max(3 * s1, 0.03)), params
            assert r.ci.high == pytest.approx(high, abs=max(3 * s2, 0.03)), params


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"method": "closest"}, ValueError, "`method` must be one of 'youden', 'closest.topleft'"),
        ({"weights": (1, 1.0)}, ValueError, r"`weights\[1\]`"),
        ({"weights": (0, 0.5)}, ValueError, r"`weights\[0\]`"),
        ({"weights": (1,)}, TypeError, "`weights` must be a pair"),
        ({"weights": "1,0.5"}, TypeError, "`weights` must be a pair"),
    ],
)
def test_bad_best_arguments(kwargs, error, match):
    curve = ScoreCurve.from_scores([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4])
    with pytest.raises(error, match=match):
        curve.best_threshold(**kwargs)
    with pytest.raises(error, match=match):
        best_threshold_interval(curve, **kwargs)


def test_bad_interval_arguments():
    curve = ScoreCurve.from_scores([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4])
    with pytest.raises(ValueError, match="`ties` must be one of 'random', 'stop'"):
        best_threshold_interval(curve, ties="omit")
    with pytest.raises(ValueError, match="`thresholds` must hold at least one"):
        threshold_interval(curve, [])
    with pytest.raises(ValueError, match="`thresholds` must not hold NaN"):
        threshold_interval(curve, [np.nan])
    with pytest.raises(ValueError, match="`confidence_level`"):
        threshold_interval(curve, [0.2], confidence_level=1.5)
    with pytest.raises((ValueError, TypeError), match="`n_resamples`"):
        best_threshold_interval(curve, n_resamples=0)
    weighted = ScoreCurve.from_scores([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], sample_weight=[0.5] * 4)
    with pytest.raises(ValueError, match="whole-number counts"):
        threshold_interval(weighted, [0.2])
