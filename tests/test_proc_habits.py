"""What a pROC user reaches for: a smoothed curve that prints briefly and whose area is a
method, Youden's J in the best threshold's ``youden`` column (pROC's sum under its own
name), ``interval("auc")``, the curve's ends as thresholds, the unpaired Venkatraman
test, the power of two partial AUCs, the best threshold within a partial-AUC range, and
case weights in the multi-class AUC.

pROC values: tests/reference/proc_habits.csv (``Rscript tests/reference/proc_habits.R``,
pROC 1.18.0; the R call is in each row's ``setup`` and ``r_call``), and the coords rows of
proc_vocabulary.csv.
"""

from __future__ import annotations

import itertools
import re
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import roc_auc_score, roc_curve
from test_partial_auc import REF, _data, _params, _vocabulary

from opsstats import ScoreCurve, compare_test_sets, comparison
from opsstats.comparison import power_roc_test_curves
from opsstats.curves.multiclass import multiclass_roc_auc, pairwise_auc


def _habits() -> pd.DataFrame:
    return pd.read_csv(REF / "proc_habits.csv", dtype=str, keep_default_na=False)


def _rows(quantity: str | None = None, params: str = "") -> pd.DataFrame:
    d = _habits()
    d = d[d["params"].str.contains(params, regex=False)]
    return d if quantity is None else d[d["quantity"] == quantity]


def _compare_data(dataset: str, a: str, b: str):
    """The two (y, scores) pairs of a proc_habits comparison, as R built them."""
    if dataset == "unpaired":
        d = pd.read_csv(REF / "data_compare" / "unpaired.csv")
        da, db = d[d["set"] == "a"], d[d["set"] == "b"]
        return (da["y_true"].to_numpy(), da["y_score"].to_numpy()), (
            db["y_true"].to_numpy(),
            db["y_score"].to_numpy(),
        )
    if dataset == "aSAH":
        d = pd.read_csv(REF / "data_compare" / "aSAH.csv")
        y = (d["outcome"] == "Poor").to_numpy()
        return (y, d[a].to_numpy(float)), (y, d[b].to_numpy(float))
    d = pd.read_csv(REF / "data_compare" / f"{dataset}.csv")
    y = d["y_true"].to_numpy()
    return (y, d[a].to_numpy(float)), (y, d[b].to_numpy(float))


# ---------------------------------------------------------------- smoothing
def test_smooth_prints_what_was_fitted_not_its_points():
    curve = ScoreCurve.from_scores(*_data("medium"))
    s = curve.smooth()
    assert s.alpha.size == 512
    assert len(repr(s)) < 200 and len(str(s)) < 400  # was 16,057 characters, 1,024 numbers
    text = " ".join(str(s).split())  # wrapped at the terminal's width (80 in the tests)
    assert f"AUC = {s.auc():.4f}" in text and "least squares over" in text
    assert "n_fit_points=" in repr(s) and "array(" not in repr(s)


def test_smooth_auc_is_a_method_as_score_curve_auc_is():
    curve = ScoreCurve.from_scores(*_data("medium"))
    s = curve.smooth()
    value = s.auc()  # R: auc(smooth(r, method="binormal")) (test_vocabulary_curves)
    assert type(value) is float and callable(curve.auc) and callable(s.auc)
    # the number it was still works, for one deprecation period, with a FutureWarning
    with pytest.warns(FutureWarning, match=r"smooth\(\)\.auc\(\)"):
        assert round(s.auc, 6) == round(value, 6)
    with pytest.warns(FutureWarning):
        assert f"{s.auc:.3f}" == f"{value:.3f}"
    with pytest.warns(FutureWarning):
        assert s.auc > 0.5
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert s.auc() == value  # calling it: no warning


# ----------------------------------------------------------- best threshold
def test_best_threshold_prints_every_column_and_youden_is_j():
    curve = ScoreCurve.from_scores(*_data("aSAH"))
    best = curve.best_threshold()
    with pd.option_context("display.max_columns", 6, "display.width", 80):
        text = repr(best)  # a terminal's pandas shows "..." for the columns that do not fit
    assert "..." not in text
    assert all(c in text for c in best.columns)
    assert max(len(line) for line in text.splitlines()) <= 100
    # proc_vocabulary.csv, R: coords(r, x="best", best.method="youden",
    # best.weights=c(1, 0.5), ret="all") on aSAH s100b: youden 1.4397018970189701, pROC's
    # sum se + sp; Youden's J = se + sp - 1 is 0.4397...
    row = best.iloc[0]
    assert row["youden"] == pytest.approx(row["sensitivity"] + row["specificity"] - 1, abs=0)
    assert row["proc_youden"] == pytest.approx(1.4397018970189701, rel=1e-12)
    assert row["youden"] == pytest.approx(1.4397018970189701 - 1, rel=1e-12)
    assert type(best[["threshold"]]) is pd.DataFrame  # a selection is a plain frame


def _best_settings() -> list[tuple[str, str]]:
    rows = _rows("n_rows", "x=best")
    return list(zip(rows["dataset"], rows["params"], strict=True))


def test_best_settings_present():
    assert len(_best_settings()) == 80  # 4 sets x 5 ranges x 2 methods x 2 weights


@pytest.mark.parametrize("dataset, params", _best_settings())
def test_best_threshold_in_a_partial_auc_range_matches_proc(dataset, params):
    # R: r <- roc(..., partial.auc=c(hi, lo), partial.auc.focus=...);
    #    coords(r, x="best", best.method=..., best.weights=..., ret=c("threshold",
    #    "specificity", "sensitivity", "youden", "closest.topleft"), transpose=FALSE)
    p = _params(params)
    hi, lo = map(float, re.findall(r"[\d.]+", p["partial.auc"]))
    lo, hi = min(lo, hi), max(lo, hi)
    cost, prev = map(float, re.findall(r"[\d.]+", p["best.weights"]))
    curve = ScoreCurve.from_scores(*_data(dataset))
    rng = {"fpr_range": (1 - hi, 1 - lo)} if p["partial.auc.focus"] == "specificity" else {}
    rng = rng or {"tpr_range": (lo, hi)}
    rows = _rows(params=params)
    rows = rows[rows["dataset"] == dataset]
    n_rows = int(rows[rows["quantity"] == "n_rows"]["value"].iloc[0])
    if n_rows == 0:  # pROC: NULL, "No coordinates found"
        with pytest.raises(ValueError, match="no point of the curve has its"):
            curve.best_threshold(p["best.method"], (cost, prev), **rng)
        return
    got = curve.best_threshold(p["best.method"], (cost, prev), **rng)
    assert len(got) == n_rows
    columns = {
        "threshold": "threshold_midpoint",
        "specificity": "specificity",
        "sensitivity": "sensitivity",
        "youden": "proc_youden",
        "closest.topleft": "closest_topleft",
    }
    for i in range(n_rows):
        mine = rows[rows["params"] == f"{params};row={i + 1}"]
        assert set(mine["quantity"]) == set(columns)
        for _, row in mine.iterrows():
            have = float(got[columns[row["quantity"]]].iloc[i])
            assert have == pytest.approx(float(row["value"]), rel=1e-12, abs=1e-14)


def test_best_threshold_range_is_checked():
    curve = ScoreCurve.from_scores(*_data("medium"))
    with pytest.raises(TypeError, match="give exactly one of `fpr_range`"):
        curve.best_threshold(fpr_range=(0, 0.2), tpr_range=(0.8, 1))
    with pytest.raises(ValueError, match="`fpr_range` must span a non-empty interval"):
        curve.best_threshold(fpr_range=(0.2, 0.2))
    # every point of the curve is in [0, 1]: the unrestricted optimum
    pd.testing.assert_frame_equal(
        curve.best_threshold(fpr_range=(0, 1)), curve.best_threshold(), check_like=False
    )


# --------------------------------------------------- names and ends pROC uses
def test_auc_is_the_roc_auc_as_in_proc():
    curve = ScoreCurve.from_scores(*_data("small_ties"))
    assert curve.interval("auc", method="delong") == curve.interval("roc_auc", method="delong")
    assert curve.interval("auc", rng=0, n_resamples=300) == curve.interval(
        "roc_auc", rng=0, n_resamples=300
    )


def _threshold_rows() -> pd.DataFrame:
    d = _vocabulary()
    return d[d["params"].str.contains("input=threshold") & d["quantity"].isin(["tp", "fp"])]


def test_threshold_rows_present():
    rows = _threshold_rows()
    assert {"x=Inf", "x=-Inf"} <= {p.split(";")[-1] for p in rows["params"]}


def _threshold_settings() -> list[tuple[str, str]]:
    rows = _threshold_rows()
    return sorted(set(zip(rows["dataset"], rows["params"], strict=True)))


@pytest.mark.parametrize("dataset, params", _threshold_settings())
def test_confusion_matrix_at_a_threshold_matches_proc_coords(dataset, params):
    # R: coords(r, x=t, input="threshold", ret=c("tp", "fp", ...)), t a score, a midpoint,
    # Inf (nothing positive) or -Inf (everything positive)
    x = float(_params(params)["x"])
    cm = ScoreCurve.from_scores(*_data(dataset)).confusion_matrix(threshold=x)
    rows = _threshold_rows()
    rows = rows[(rows["dataset"] == dataset) & (rows["params"] == params)]
    for _, row in rows.iterrows():
        # pROC reads the counts back from its rates: 905.99999999999989 for 906
        want = float(row["value"])
        assert getattr(cm, row["quantity"]) == pytest.approx(want, abs=1e-9), (x, row["quantity"])


def test_the_curve_ends_are_thresholds_as_in_scikit_learn():
    y, s = _data("medium")
    curve = ScoreCurve.from_scores(y, s)
    fpr, tpr, thr = roc_curve(y, s)
    assert thr[0] == np.inf  # scikit-learn's first threshold
    for t, f, r in ((thr[0], fpr[0], tpr[0]), (-np.inf, 1.0, 1.0)):
        cm = curve.confusion_matrix(threshold=t)
        assert (cm.fp / cm.negatives, cm.tp / cm.positives) == (f, r)
    with pytest.raises(ValueError, match="`threshold` must be a finite number"):
        curve.confusion_matrix(threshold=np.nan)
    # integer scores: the ends too (no ceil(inf))
    ints = ScoreCurve.from_scores([0, 1, 1, 0], np.array([1, 5, 3, 2], dtype=np.int64))
    assert ints.confusion_matrix(threshold=-np.inf).tp == 2
    assert ints.confusion_matrix(threshold=np.inf).fp == 0


# ------------------------------------------------------- unpaired Venkatraman
def _venkatraman_rows() -> list[tuple[str, str, str, float, float]]:
    stat = _rows("statistic", "method=venkatraman;paired=FALSE")
    out = []
    for _, r in stat.iterrows():
        p = _params(r["params"])
        pv = _rows("p_value", r["params"])
        pv = pv[pv["dataset"] == r["dataset"]]
        out.append(
            (r["dataset"], p["roc1"], p["roc2"], float(r["value"]), float(pv["value"].iloc[0]))
        )
    return out


def test_venkatraman_rows_present():
    assert len(_venkatraman_rows()) == 3


@pytest.mark.parametrize("dataset, a, b, e, p_proc", _venkatraman_rows())
def test_unpaired_venkatraman_matches_proc(dataset, a, b, e, p_proc):
    # R: set.seed(1); roc.test(r1, r2, method="venkatraman", paired=FALSE, boot.n=20000)
    set_a, set_b = _compare_data(dataset, a, b)
    n = 5000
    r = comparison.venkatraman_unpaired_test({a: set_a, b: set_b}, n_resamples=n, rng=2)
    assert r.statistic == pytest.approx(e, rel=1e-12)  # deterministic
    # p: two Monte Carlo estimates of one permutation p-value, 5000 and 20000 permutations
    se = np.sqrt(p_proc * (1 - p_proc) * (1 / n + 1 / 20000))
    assert abs(r.p_value - p_proc) < 4 * se + 1 / n, (r.p_value, p_proc, se)
    assert r.paired is False and np.isnan(r.ci.low) and r.statistic_name == "E"
    # through compare_test_sets, as pROC's roc.test(..., paired=FALSE)
    via = compare_test_sets({a: set_a, b: set_b}, method="venkatraman", n_resamples=n, rng=2)
    assert via.statistic == r.statistic and via.p_value == r.p_value


def test_unpaired_venkatraman_against_the_proc_formula_by_hand():
    """E for two tiny sets, from pROC's venkatraman.unpaired.stat written out with R's
    approxfun semantics (a slow transcription: no shared code)."""
    ya, sa = np.array([0, 1, 0, 1, 1]), np.array([0.1, 0.8, 0.4, 0.3, 0.9])
    yb, sb = np.array([1, 0, 0, 1]), np.array([0.7, 0.2, 0.6, 0.5])
    mp = (ya.sum() + yb.sum()) / (2 * ya.size)  # pROC: length(D1) + length(D1)

    def curve(y, s):
        r = np.argsort(np.argsort(s, kind="stable"), kind="stable") + 1
        n = y.size
        fx = np.array([np.sum(r[y == 1] <= x) for x in range(1, n + 1)]) / y.sum()
        gx = np.array([np.sum(r[y == 0] <= x) for x in range(1, n + 1)]) / (n - y.sum())
        return mp * fx + (1 - mp) * gx, mp * fx + (1 - mp) * (1 - gx)

    (rp, re_), (sp, se_) = curve(ya, sa), curve(yb, sb)

    def approxfun(xs, ys, x):
        if x < xs.min() or x > xs.max():
            return np.nan
        return float(np.interp(x, xs, ys))

    x = np.sort(np.r_[rp, sp])
    y = np.array([abs(approxfun(rp, re_, v) - approxfun(sp, se_, v)) for v in x])
    e = np.nansum((y[1:] + y[:-1]) * np.diff(x) / 2)
    got = comparison.venkatraman_unpaired_test(
        {"a": (ya, sa), "b": (yb, sb)}, n_resamples=200, rng=0
    )
    assert got.statistic == pytest.approx(e, rel=1e-12)
    assert 0 <= got.p_value <= 1


def test_unpaired_venkatraman_is_two_sided_and_for_roc_curves():
    (ya, sa), (yb, sb) = _compare_data("unpaired", "a", "b")
    with pytest.raises(ValueError, match="two-sided only"):
        compare_test_sets({"a": (ya, sa), "b": (yb, sb)}, method="venkatraman", alternative="less")
    with pytest.raises(ValueError, match="`method='venkatraman'` tests that two ROC curves"):
        compare_test_sets({"a": (ya, sa), "b": (yb, sb)}, metric="pr_auc", method="venkatraman")
    with pytest.raises(TypeError, match="exactly 2 test sets"):
        comparison.venkatraman_unpaired_test({"a": (ya, sa)})
    # a curve object has lost the rows' order the ranks are taken in
    with pytest.raises(TypeError, match=r"a pair \(y_true, y_score\) for method='venkatraman'"):
        compare_test_sets(
            {"a": ScoreCurve.from_scores(ya, sa), "b": (yb, sb)}, method="venkatraman"
        )


# ------------------------------------------------------- power of partial AUCs
def _power_rows() -> pd.DataFrame:
    d = _rows(params="form=two_roc;method=obuchowski")
    return d[d["quantity"].isin(["ncases", "ncontrols", "power", "sig_level"])]


def _power_settings() -> list[tuple[str, str, str]]:
    d = _power_rows()
    return sorted(set(zip(d["dataset"], d["params"], d["alternative"], strict=True)))


def test_power_rows_present():
    assert len(_power_settings()) == 4 * 2 * 5  # sets x alternatives x solve directions


@pytest.mark.parametrize("dataset, params, alternative", _power_settings())
def test_power_of_partial_aucs_matches_proc(dataset, params, alternative):
    # R: r1, r2 <- roc(..., partial.auc=c(hi, lo), partial.auc.focus="specificity");
    #    power.roc.test(r1, r2, power=..., [kappa=, sig.level=NULL,] method="obuchowski")
    p = _params(params)
    hi, lo = map(float, re.findall(r"[\d.]+", p["partial.auc"]))
    (y, sa), (_, sb) = _compare_data(dataset, p["roc1"], p["roc2"])
    kwargs = {"sig_level": 0.05, "power": None}
    if p["solve"] == "n":
        kwargs["power"] = float(p["power"])
    elif p["solve"] == "sig.level":
        kwargs = {"sig_level": None, "power": float(p["power"])}
    if "kappa" in p:
        kwargs["kappa"] = float(p["kappa"])

    def power():
        return power_roc_test_curves(
            y,
            {p["roc1"]: sa, p["roc2"]: sb},
            method="obuchowski",
            fpr_range=(1 - hi, 1 - lo),
            alternative=alternative.replace(".", "-"),
            **kwargs,
        )

    rows = _power_rows()
    rows = rows[
        (rows["dataset"] == dataset)
        & (rows["params"] == params)
        & (rows["alternative"] == alternative)
    ]
    assert len(rows)
    if (rows["value"] == "NA").all():  # pROC: NaN, "NaNs produced"; here a clear error
        assert rows["note"].str.contains("NaNs produced").all()
        with pytest.raises(ValueError, match="under the null, 2 V1 - 2 C = -"):
            power()
        return
    r = power()
    for _, row in rows.iterrows():
        want = float(row["value"])
        have = getattr(r, row["quantity"])
        assert have == pytest.approx(want, rel=1e-9, abs=1e-12), row["quantity"]


def test_power_of_partial_aucs_delta_matches_proc():
    # R: as.numeric(r1$auc) - as.numeric(r2$auc), the partial areas (uncorrected)
    for _, row in _rows("delta").iterrows():
        p = _params(row["params"])
        hi, lo = map(float, re.findall(r"[\d.]+", p["partial.auc"]))
        (y, sa), (_, sb) = _compare_data(row["dataset"], p["roc1"], p["roc2"])
        fpr = (1 - hi, 1 - lo)
        d = ScoreCurve.from_scores(y, sa).partial_auc(fpr_range=fpr) - ScoreCurve.from_scores(
            y, sb
        ).partial_auc(fpr_range=fpr)
        assert d == pytest.approx(float(row["value"]), rel=1e-12)


def test_power_of_partial_aucs_refuses_what_proc_refuses():
    # R: DeLong, the sensitivity focus and the McClish correction are errors (rows "error")
    refused = _rows("error", "form=two_roc")
    assert len(refused) == 3 and refused["note"].str.startswith("error:").all()
    (y, sa), (_, sb) = _compare_data("paired_n200", "score_a", "score_b")
    with pytest.raises(ValueError, match="method='obuchowski'"):
        power_roc_test_curves(y, {"a": sa, "b": sb}, power=0.8, fpr_range=(0, 0.2))
    with pytest.raises(ValueError, match="`fpr_range` needs two classifiers"):
        power_roc_test_curves(y, {"a": sa}, method="obuchowski", fpr_range=(0, 0.2))


def test_power_of_partial_aucs_matches_the_older_proc_rows():
    # proc_compare.csv: aSAH ndka vs wfns, partial.auc=c(1, 0.9), power 0.9 -> ncases
    d = pd.read_csv(REF / "proc_compare.csv", dtype=str, keep_default_na=False)
    d = d[
        d["params"].str.contains("partial.auc=c(1,0.9)", regex=False)
        & d["params"].str.contains("method=obuchowski;solve=n")
    ]
    (y, sa), (_, sb) = _compare_data("aSAH", "ndka", "wfns")
    r = power_roc_test_curves(
        y, {"ndka": sa, "wfns": sb}, method="obuchowski", fpr_range=(0, 0.1), power=0.9
    )
    for q in ("ncases", "ncontrols"):
        want = float(d[d["quantity"] == q]["value"].iloc[0])
        assert getattr(r, q) == pytest.approx(want, rel=1e-12)


# ------------------------------------------------------ weighted multi-class AUC
def _weighted_auc(pos_scores, pos_w, neg_scores, neg_w) -> float:
    """The weighted Mann-Whitney statistic over every (positive, negative) pair."""
    num = den = 0.0
    for s1, w1 in zip(pos_scores, pos_w, strict=True):
        for s0, w0 in zip(neg_scores, neg_w, strict=True):
            num += w1 * w0 * ((s1 > s0) + 0.5 * (s1 == s0))
            den += w1 * w0
    return num / den


def _multiclass(name: str):
    d = pd.read_csv(REF / "data_multiclass" / f"{name}.csv")
    cols = sorted(c for c in d.columns if c.startswith("p_"))
    return d["y_true"].to_numpy(), d[cols].to_numpy(), d["score"].to_numpy()


@pytest.mark.parametrize("name", ["multiclass3", "multiclass4"])
def test_weighted_multiclass_auc_against_a_slow_weighted_implementation(name):
    y, p, score = _multiclass(name)
    w = np.random.default_rng(5).uniform(0.2, 3.0, y.size)
    k = np.unique(y).size
    a = {}
    for i, j in itertools.permutations(range(k), 2):
        a[i, j] = _weighted_auc(p[y == i, i], w[y == i], p[y == j, i], w[y == j])
    pairs = list(itertools.combinations(range(k), 2))
    hand_till = np.mean([(a[i, j] + a[j, i]) / 2 for i, j in pairs])
    assert multiclass_roc_auc(y, p, sample_weight=w) == pytest.approx(hand_till, rel=1e-12)
    size = np.array([w[y == i].sum() for i in range(k)])
    ovo_w = np.average(
        [(a[i, j] + a[j, i]) / 2 for i, j in pairs], weights=[size[i] + size[j] for i, j in pairs]
    )
    got = multiclass_roc_auc(y, p, multi_class="ovo", average="weighted", sample_weight=w)
    assert got == pytest.approx(ovo_w, rel=1e-12)
    ovr = [_weighted_auc(p[y == i, i], w[y == i], p[y != i, i], w[y != i]) for i in range(k)]
    for average, want in (("macro", np.mean(ovr)), ("weighted", np.average(ovr, weights=size))):
        got = multiclass_roc_auc(y, p, multi_class="ovr", average=average, sample_weight=w)
        assert got == pytest.approx(want, rel=1e-12)
    table = pairwise_auc(y, p, sample_weight=w)
    for row in table.itertuples():
        assert row.auc == pytest.approx(a[row.positive, row.negative], rel=1e-12)
    # the univariate form (pROC's multiclass.roc of one predictor): each pair weighted
    uni = np.mean(
        [_weighted_auc(score[y == j], w[y == j], score[y == i], w[y == i]) for i, j in pairs]
    )
    assert multiclass_roc_auc(y, score, sample_weight=w) == pytest.approx(uni, rel=1e-12)


def test_weighted_one_vs_rest_matches_scikit_learn():
    y, p, _ = _multiclass("multiclass3")  # rows sum to 1 (scikit-learn requires it)
    w = np.random.default_rng(6).uniform(0.2, 3.0, y.size)
    for average in ("macro", "weighted"):
        want = roc_auc_score(y, p, multi_class="ovr", average=average, sample_weight=w)
        got = multiclass_roc_auc(y, p, multi_class="ovr", average=average, sample_weight=w)
        assert got == pytest.approx(want, rel=1e-12)


def test_integer_weights_are_repeated_rows():
    y, p, _ = _multiclass("multiclass4")
    w = np.random.default_rng(7).integers(0, 4, y.size)
    rep = np.repeat(np.arange(y.size), w)
    for mc, av in (("ovo", "macro"), ("ovo", "weighted"), ("ovr", "weighted")):
        want = multiclass_roc_auc(y[rep], p[rep], multi_class=mc, average=av)
        got = multiclass_roc_auc(y, p, multi_class=mc, average=av, sample_weight=w)
        assert got == pytest.approx(want, rel=1e-12)


def test_bad_multiclass_weights():
    y, p, _ = _multiclass("multiclass3")
    with pytest.raises(ValueError, match="`sample_weight` must have one weight per row"):
        multiclass_roc_auc(y, p, sample_weight=np.ones(3))
    with pytest.raises(ValueError, match="`sample_weight` must be non-negative"):
        multiclass_roc_auc(y, p, sample_weight=-np.ones(y.size))
