"""opsstats.comparison: paired and unpaired comparisons from draws, tables of many
classifiers, results, and bad input."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats
from test_compare_delong import PROC, _params, load_pair

from opsstats import ConfusionMatrix, ScoreCurve
from opsstats.comparison import (
    ComparisonResult,
    ComparisonTable,
    adjust_p_values,
    compare,
    compare_test_sets,
    delong_test,
)
from opsstats.reference import DirectedBinaryTree

SMALL_DBT = DirectedBinaryTree(depth=4, n_curves=2000)

# the small-class warnings are checked by test_small_class_warnings
pytestmark = pytest.mark.filterwarnings("ignore::opsstats.SmallCountWarning")


def _boot_cases():
    rows = PROC[
        PROC["params"].str.contains("method=bootstrap")
        & ~PROC["params"].str.contains("partial")
        & PROC["quantity"].isin(["statistic", "p_value"])
    ]
    out = []
    for (dataset, params, alt), g in rows.groupby(["dataset", "params", "alternative"]):
        p = _params(params)
        stat = g[g["quantity"] == "statistic"]["value"].astype(float)
        pv = g[g["quantity"] == "p_value"]["value"].astype(float)
        out.append(
            (dataset, p["roc1"], p["roc2"], p["paired"] == "TRUE", alt, stat.mean(), pv.mean())
        )
    return out


BOOT = _boot_cases()


@pytest.mark.parametrize(
    "dataset, roc1, roc2, paired, alt, d_ref, p_ref",
    BOOT,
    ids=[f"{c[0]}-{c[1]}-{c[4]}" for c in BOOT],
)
def test_bootstrap_test_matches_proc_within_monte_carlo_error(
    dataset, roc1, roc2, paired, alt, d_ref, p_ref
):
    # set.seed(s); roc.test(r1, r2, method="bootstrap", paired=..., boot.n=2000): D and p,
    # averaged over the recorded seeds. With 20000 resamples here the Monte Carlo error
    # of D is about 0.7% of D and pROC's 2000-resample values spread by up to 0.067
    # (tests/reference/README.md), so 0.08 and 0.03 are three times the larger error.
    y1, s1, y2, s2 = load_pair(dataset, roc1, roc2)
    if paired:
        r = compare(
            y1,
            {roc1: s1, roc2: s2},
            method="bootstrap",
            n_resamples=20000,
            alternative=alt.replace(".", "-"),
            rng=7,
        )
    else:
        r = compare_test_sets(
            {roc1: (y1, s1), roc2: (y2, s2)},
            method="bootstrap",
            n_resamples=20000,
            alternative=alt.replace(".", "-"),
            rng=7,
        )
    assert r.statistic == pytest.approx(d_ref, abs=0.08)
    assert r.p_value == pytest.approx(p_ref, abs=0.03)
    assert r.paired == paired


def _slow_paired_bootstrap(y, s1, s2, n, seed):
    """Row indices resampled within each class, both AUCs on the same rows."""
    rng = np.random.default_rng(seed)
    pos, neg = np.flatnonzero(y), np.flatnonzero(~y)

    def auc(idx_p, idx_n, s):
        x, z = s[idx_p][:, None], s[idx_n][None, :]
        return ((x > z) + 0.5 * (x == z)).mean()

    out = []
    for _ in range(n):
        ip, i_n = rng.choice(pos, pos.size), rng.choice(neg, neg.size)
        out.append(auc(ip, i_n, s1) - auc(ip, i_n, s2))
    return np.array(out)


def test_paired_bootstrap_matches_slow_row_resampling():
    y, s1, _, s2 = load_pair("paired_n60_ties", "score_a", "score_b")
    y = y.astype(bool)
    slow = _slow_paired_bootstrap(y, s1, s2, 3000, 1)
    r = compare(y, {"a": s1, "b": s2}, method="bootstrap", n_resamples=20000, rng=2)
    # sd of the difference: Monte Carlo relative error about 1/sqrt(2 * 3000) = 1.3%
    assert np.std(r.draws, ddof=1) == pytest.approx(np.std(slow, ddof=1), rel=0.06)
    assert np.mean(r.draws) == pytest.approx(np.mean(slow), abs=0.006)
    # and both near DeLong's standard error of the difference
    d = delong_test(y, {"a": s1, "b": s2})
    assert np.std(r.draws, ddof=1) == pytest.approx(d.details["standard_error"], rel=0.1)


def test_paired_dirichlet_shares_the_weights():
    y, s1, _, s2 = load_pair("paired_n200", "score_a", "score_b")
    same = compare(y, {"a": s1, "b": s1}, method="dirichlet", n_resamples=500, rng=0)
    assert np.all(same.draws == 0) and same.estimate == 0
    r = compare(
        y, {"a": s1, "b": s2}, method="dirichlet", n_resamples=4000, rng=0, rope=(-0.01, 0.01)
    )
    # the marginal posterior sd of the difference is near DeLong's standard error
    d = delong_test(y, {"a": s1, "b": s2})
    assert np.std(r.draws, ddof=1) == pytest.approx(d.details["standard_error"], rel=0.12)
    assert r.probability_greater == pytest.approx(np.mean(r.draws > 0))
    assert r.probability_rope == pytest.approx(np.mean(np.abs(r.draws) <= 0.01))
    assert "posterior probability that a - b > 0" in str(r)


@pytest.mark.parametrize("metric", ["pr_auc", "lift_auc", "roc_auc"])
def test_other_curve_quantities_paired(metric):
    y, s1, _, s2 = load_pair("paired_n200", "score_a", "score_b")
    r = compare(y, {"a": s1, "b": s2}, metric=metric, method="bootstrap", n_resamples=400, rng=0)
    ca, cb = ScoreCurve.from_scores(y, s1), ScoreCurve.from_scores(y, s2)
    kind = metric.split("_")[0]
    assert r.estimate_a == pytest.approx(ca.auc(kind), rel=1e-12)
    assert r.estimate_b == pytest.approx(cb.auc(kind), rel=1e-12)
    assert r.ci.low < r.estimate < r.ci.high and r.n_undefined == 0


def test_paired_operating_point_and_its_ops():
    y, s1, _, s2 = load_pair("paired_n200", "score_a", "score_b")
    at = {"recall": 0.8}
    r = compare(y, {"a": s1, "b": s2}, metric="precision", at=at, n_resamples=300, rng=0)
    assert r.estimate_a == pytest.approx(ScoreCurve.from_scores(y, s1).value_at("precision", at=at))
    o = compare(
        y,
        {"a": s1, "b": s2},
        metric="precision",
        at=at,
        ops=True,
        reference=SMALL_DBT,
        n_resamples=300,
        rng=0,
    )
    ref_a = ScoreCurve.from_scores(y, s1).ops("precision", at=at, reference=SMALL_DBT)
    assert o.estimate_a == pytest.approx(ref_a.estimate)
    assert o.quantity.startswith("OPS of")


def _slow_joint_posterior_mean(y, pa, pb, a=0.5):
    """Posterior mean of accuracy(A) - accuracy(B) under Dirichlet(counts + a) per class,
    the prevalence fixed: a linear function of the cell probabilities."""
    out = 0.0
    for cls in (True, False):
        m = y == cls
        cells = [
            np.sum(pa[m] & pb[m]),
            np.sum(pa[m] & ~pb[m]),
            np.sum(~pa[m] & pb[m]),
            np.sum(~pa[m] & ~pb[m]),
        ]
        p = (np.array(cells) + a) / (sum(cells) + 4 * a)
        # P(A right) - P(B right) within the class
        diff = (p[1] - p[2]) if cls else (p[2] - p[1])
        out += m.mean() * diff
    return out


def test_joint_table_posterior_mean_accuracy():
    rng = np.random.default_rng(4)
    y = rng.random(300) < 0.2
    pa = np.where(rng.random(300) < 0.85, y, ~y)
    pb = np.where(rng.random(300) < 0.8, y, ~y)
    r = compare(y, y_pred={"A": pa, "B": pb}, metric="accuracy", n_resamples=20000, rng=1)
    assert r.estimate == pytest.approx(np.mean(pa == y) - np.mean(pb == y))
    post = _slow_joint_posterior_mean(y, pa, pb)
    assert np.mean(r.draws) == pytest.approx(post, abs=4 * np.std(r.draws) / np.sqrt(20000))
    mc = compare(y, y_pred={"A": pa, "B": pb}, metric="accuracy", method="mcnemar")
    # posterior sd near the Agresti-Min standard error
    assert np.std(r.draws) == pytest.approx((mc.ci.high - mc.ci.low) / 3.92, rel=0.1)


def test_paired_confusion_ops_and_bootstrap():
    rng = np.random.default_rng(5)
    y = rng.random(400) < 0.3
    pa = np.where(rng.random(400) < 0.85, y, ~y)
    pb = np.where(rng.random(400) < 0.85, y, ~y)
    r = compare(y, y_pred={"A": pa, "B": pb}, metric="f1", ops=True, n_resamples=2000, rng=0)
    cma = ConfusionMatrix.from_predictions(y, pa)
    assert r.estimate_a == pytest.approx(cma.ops("f1").estimate, rel=1e-9)
    b = compare(
        y, y_pred={"A": pa, "B": pb}, metric="f1", method="bootstrap", n_resamples=2000, rng=0
    )
    assert b.probability_greater is None and b.estimate_a == pytest.approx(cma.metric("f1"))


def test_unpaired_ops_and_metric():
    rng = np.random.default_rng(6)
    sets = {}
    for name, n, pi in (("jan", 500, 0.3), ("feb", 800, 0.1)):
        y = rng.random(n) < pi
        sets[name] = (y, np.where(rng.random(n) < 0.85, y, ~y))
    r = compare_test_sets(sets, metric="f1", ops=True, n_resamples=2000, rng=0)
    cms = [ConfusionMatrix.from_predictions(*v) for v in sets.values()]
    assert r.estimate == pytest.approx(cms[0].ops("f1").estimate - cms[1].ops("f1").estimate)
    assert not r.paired and r.counts["rows_b"] == 800
    raw = compare_test_sets(sets, metric="f1", n_resamples=2000, rng=0)
    assert raw.estimate == pytest.approx(cms[0].metric("f1") - cms[1].metric("f1"))


def test_unpaired_curve_quantity_ops():
    y1, s1, y2, s2 = load_pair("unpaired", "a", "b")
    r = compare_test_sets(
        {"a": (y1, s1), "b": (y2, s2)},
        metric="pr_auc",
        ops=True,
        reference=SMALL_DBT,
        n_resamples=300,
        rng=0,
    )
    a = ScoreCurve.from_scores(y1, s1).ops("pr_auc", reference=SMALL_DBT).estimate
    b = ScoreCurve.from_scores(y2, s2).ops("pr_auc", reference=SMALL_DBT).estimate
    assert r.estimate == pytest.approx(a - b)


def test_many_classifiers_table_and_adjustment():
    y, s1, _, s2 = load_pair("aSAH", "s100b", "ndka")
    _, s3, _, _ = load_pair("aSAH", "wfns", "s100b")
    t = compare(y, {"s100b": s1, "ndka": s2, "wfns": s3})
    assert isinstance(t, ComparisonTable)
    frame = t.to_frame()
    assert frame["comparison"].tolist() == ["s100b - ndka", "s100b - wfns", "ndka - wfns"]
    p = frame["p_value"].to_numpy()
    # Holm by hand: sorted p times (3, 2, 1), running maximum
    order = np.argsort(p)
    holm = np.maximum.accumulate(p[order] * np.array([3, 2, 1]))
    np.testing.assert_allclose(frame["p_holm"].to_numpy()[order], np.minimum(holm, 1))
    np.testing.assert_allclose(frame["p_bonferroni"], np.minimum(p * 3, 1))
    assert (frame["p_adjusted"] == frame["p_holm"]).all()
    assert "Holm" in str(t)


def test_adjust_matches_statsmodels():
    from statsmodels.stats.multitest import multipletests

    p = np.array([0.001, 0.2, 0.03, 0.04, 0.5, 0.012])
    for method in ("holm", "bonferroni"):
        np.testing.assert_allclose(adjust_p_values(p, method), multipletests(p, method=method)[1])
    assert np.isnan(adjust_p_values([0.1, np.nan], "holm")[1])


def test_result_summary_frame_and_plot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    y, s1, _, s2 = load_pair("aSAH", "s100b", "ndka")
    r = compare(y, {"s100b": s1, "ndka": s2})
    assert isinstance(r, ComparisonResult)
    frame = r.summary().to_frame()
    assert frame.loc["difference"].iloc[0] == pytest.approx(r.estimate)
    assert "<table" in r._repr_html_()
    ax = r.plot()
    assert [t.get_text() for t in ax.get_yticklabels()] == ["s100b - ndka"]
    plt.close(ax.figure)
    t = compare(y, {"s100b": s1, "ndka": s2, "x": s1[::-1].copy()})
    ax = t.plot()
    assert len(ax.get_yticklabels()) == 3
    plt.close(ax.figure)


def test_forest_plot_of_comparisons_says_what_it_shows():
    """Title: the quantity once, how the rows pair, the interval's method in short (not
    "difference of difference in ..." over a four-line method); the x label says what
    the difference is and what the dotted line at 0 means."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    y, s1, _, s2 = load_pair("aSAH", "s100b", "ndka")
    t = compare(y, {"s100b": s1, "ndka": s2, "x": s1[::-1].copy()})
    ax = t.plot()
    assert ax.get_title() == (
        "Differences in AUC(ROC, trapezoid) (same rows)\n95% intervals: DeLong's test for "
        "two correlated ROC curves\n(Sun-Xu algorithm)"
    )
    assert ax.get_xlabel() == (
        "difference in AUC(ROC, trapezoid) (first − second)\ndotted line at 0: no difference"
    )
    assert len([ln for ln in ax.get_lines() if list(ln.get_xdata()) == [0.0, 0.0]]) == 1
    plt.close(ax.figure)
    r = compare(y, {"s100b": s1, "ndka": s2}, metric="pr_auc", rng=1, n_resamples=200)
    title = r.plot().get_title()
    assert title.startswith("Differences in AUC(PR, step) (same rows)\n95% intervals: paired")
    assert len(title.splitlines()) <= 3 and "p-value" not in title
    months = {"jan": (y[:60], s1[:60]), "feb": (y[60:], s1[60:])}
    ax = compare_test_sets(months, metric="roc_auc").plot()
    assert ax.get_title().startswith("Differences in AUC(ROC, trapezoid) (independent test sets)")
    plt.close("all")


# ------------------------------------------------------------------ bad input
def test_bad_input_messages():
    y = [0, 1, 0, 1, 1, 0]
    s = [0.1, 0.8, 0.3, 0.7, 0.6, 0.2]
    with pytest.raises(
        ValueError, match=r"`y_true` and `y_score\['B'\]` must have the same length"
    ):
        compare(y, {"A": s, "B": s[:-1]})
    with pytest.raises(TypeError, match="exactly one of `y_score`"):
        compare(y)
    with pytest.raises(ValueError, match="at least 2 classifiers"):
        compare(y, {"A": s})
    with pytest.raises(TypeError, match="`y_score` must be a dict"):
        compare(y, s)
    with pytest.raises(ValueError, match="`y_true` must contain both classes"):
        compare([1] * 6, {"A": s, "B": s})
    with pytest.raises(ValueError, match="unknown metric 'no_such_metric'"):
        compare(y, y_pred={"A": y, "B": y}, metric="no_such_metric")
    with pytest.raises(ValueError, match="unknown curve quantity 'no_such_area'"):
        compare(y, {"A": s, "B": s}, metric="no_such_area")
    with pytest.raises(ValueError, match="`method`"):
        compare(y, {"A": s, "B": s}, method="magic")
    with pytest.raises(ValueError, match="method='delong'"):
        compare(y, {"A": s, "B": s}, metric="pr_auc", method="delong")
    with pytest.raises(ValueError, match="`alternative`"):
        compare(y, {"A": s, "B": s}, alternative="bigger")
    with pytest.raises(ValueError, match="`rope`"):
        compare(y, {"A": s, "B": s}, rope=(0.1, -0.1))
    with pytest.raises(ValueError, match=r"test set .feb.*both classes"):
        compare_test_sets({"jan": (y, s), "feb": ([0] * 6, s)})
    with pytest.raises(TypeError, match="test_sets"):
        compare_test_sets([(y, s), (y, s)])


def test_constant_scores_warn_and_give_half():
    y = [0, 1, 0, 1, 1, 0, 1, 0]
    s = [0.1, 0.8, 0.3, 0.7, 0.6, 0.2, 0.4, 0.5]
    with pytest.warns(UserWarning, match="'B' gives every row the same score"):
        r = compare(y, {"A": s, "B": [0.5] * 8})
    assert r.estimate_b == 0.5 and np.isfinite(r.p_value)


def test_class_absent_in_resamples_is_counted():
    # unstratified resampling is not offered; a metric 0/0 in some draws is counted
    y = np.array([1, 1, 0, 0, 0, 0, 0, 0, 0, 0] * 3, bool)
    pa = np.zeros(30, bool)
    pa[0] = True
    pb = np.zeros(30, bool)
    r = compare(
        y, y_pred={"A": pa, "B": pb}, metric="precision", method="bootstrap", n_resamples=500, rng=0
    )
    # B predicts no positive: precision is 0/0 in every draw, so nothing is defined
    assert r.n_undefined == 500 and np.isnan(r.ci.low) and np.isnan(r.estimate)
    assert "undefined" in r.method
    r = compare(
        y, y_pred={"A": pa, "B": pa}, metric="precision", method="bootstrap", n_resamples=500, rng=0
    )
    assert 0 < r.n_undefined < 500  # A's one positive prediction drawn or not
    assert f"undefined in {r.n_undefined} of 500 draws" in str(r)


def test_batch_unpaired_test_is_compare_test_sets():
    from opsstats.comparison import unpaired_ops_tests

    a, b = (60, 30, 40, 870), (45, 80, 5, 870)
    sets = {}
    for name, (tp, fp, fn, tn) in (("a", a), ("b", b)):
        y = np.repeat([1, 0, 1, 0], [tp, fp, fn, tn])
        p = np.repeat([1, 1, 0, 0], [tp, fp, fn, tn])
        sets[name] = (y, p)
    r = compare_test_sets(sets, metric="f1", ops=True, n_resamples=20000, rng=0)
    batch = unpaired_ops_tests(
        tuple([v] for v in a), tuple([v] for v in b), "f1", n_draws=20000, rng=1
    )
    assert batch["estimate"][0] == pytest.approx(r.estimate, rel=1e-12)
    assert batch["p_value"][0] == pytest.approx(r.p_value, abs=0.01)
    assert batch["ci_low"][0] == pytest.approx(r.ci.low, abs=0.005)
    assert batch["ci_high"][0] == pytest.approx(r.ci.high, abs=0.005)


def test_posterior_p_value_agrees_with_the_interval():
    y, s1, _, s2 = load_pair("aSAH", "s100b", "wfns")
    r = compare(y, {"a": s1, "b": s2}, method="dirichlet", n_resamples=4000, rng=3)
    outside = not (r.ci.low <= 0 <= r.ci.high)
    assert outside == (r.p_value < 0.05)
    m = r.draws.size
    k = min(np.sum(r.draws < 0), np.sum(r.draws > 0))
    assert r.p_value == pytest.approx(2 * (k + 1) / (m + 1))


@pytest.mark.filterwarnings("error::opsstats.SmallCountWarning")
def test_small_class_warnings():
    from opsstats import SmallCountWarning

    y, s1, _, s2 = load_pair("paired_n60_ties", "score_a", "score_b")
    with pytest.warns(SmallCountWarning, match="paired draws of two curves"):
        compare(y, {"a": s1, "b": s2}, method="bootstrap", n_resamples=100, rng=0)
    compare(y, {"a": s1, "b": s2})  # DeLong with 18 positives: no warning
    few = np.array([1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0] * 2, bool)
    sa = np.linspace(0, 1, few.size)
    sb = sa[::-1].copy()
    with pytest.warns(SmallCountWarning, match="pROC's reference distribution rejects"):
        compare(few, {"a": sa, "b": sb}, method="delong")
    with pytest.warns(SmallCountWarning, match="pROC's reference distribution rejects"):
        compare_test_sets({"a": (few, sa), "b": (few, sb)}, method="delong")
    # the defaults with 6 positives: DeLong's statistic on t (paired), the Dirichlet
    # posteriors (unpaired, fewer than 10 rows in a class): no warning
    r = compare(few, {"a": sa, "b": sb})
    assert r.statistic_name == "T" and r.df is not None
    r = compare_test_sets({"a": (few, sa), "b": (few, sb)}, rng=0)
    assert "Dirichlet" in r.method


def test_venkatraman_through_compare():
    y, s1, _, s2 = load_pair("aSAH", "s100b", "ndka")
    r = compare(y, {"s100b": s1, "ndka": s2}, method="venkatraman", n_resamples=500, rng=0)
    assert r.statistic == 692.0 and r.statistic_name == "E"  # pROC's E, deterministic
    assert np.isnan(r.ci.low)
    with pytest.raises(ValueError, match="two-sided only"):
        compare(y, {"a": s1, "b": s2}, method="venkatraman", alternative="greater")
    with pytest.raises(ValueError, match="method='venkatraman'"):
        compare(y, {"a": s1, "b": s2}, metric="pr_auc", method="venkatraman")


@pytest.mark.parametrize("columns", [80, 200])
def test_printed_lines_fit_the_terminal(monkeypatch, columns):
    """The printed test wraps at the terminal's width, at most 100 columns."""
    monkeypatch.setenv("COLUMNS", str(columns))
    rng = np.random.default_rng(0)
    y = rng.random(300) < 0.3
    long = {
        "classifier number one": rng.normal(size=300) + y,
        "classifier number two": rng.normal(size=300) + y,
    }
    for kwargs in (
        {},
        {"metric": "pr_auc", "n_resamples": 200},
        {"method": "dirichlet", "n_resamples": 200, "rope": (-0.01, 0.01)},
    ):
        text = str(compare(y, long, rng=0, **kwargs))
        assert max(len(line.expandtabs()) for line in text.splitlines()) <= min(columns, 100)


def _slow_paired_jackknife(y, sa, sb, metric):
    """Arvesen's stratified jackknife of A - B straight from its definition: every row
    deleted from both classifiers in turn, each area recomputed by the public API."""
    y = np.asarray(y, bool)

    def area(keep, s):
        return ScoreCurve.from_scores(y[keep], s[keep]).auc(
            *(("pr", "step") if metric == "pr_auc" else ("roc", "trapezoid"))
        )

    full = np.ones(y.size, bool)
    diff = area(full, sa) - area(full, sb)
    parts = []
    for cls in (True, False):
        loo = []
        for i in np.flatnonzero(y == cls):
            keep = full.copy()
            keep[i] = False
            loo.append(area(keep, sa) - area(keep, sb))
        loo = np.array(loo)
        k = loo.size
        parts.append(((k - 1) / k * np.sum((loo - loo.mean()) ** 2), k))
    return diff, parts


@pytest.mark.parametrize("metric", ["pr_auc", "roc_auc"])
@pytest.mark.parametrize("positives", [3, 12])
def test_jackknife_t_matches_row_deletion(metric, positives):
    from scipy import stats

    rng = np.random.default_rng(positives)
    n = 60
    y = np.r_[np.ones(positives, bool), np.zeros(n - positives, bool)]
    sa = np.round(rng.normal(size=n) + y, 1)  # ties, within and across classes
    sb = np.round(0.6 * sa + rng.normal(size=n) + 0.5 * y, 1)
    diff, parts = _slow_paired_jackknife(y, sa, sb, metric)
    v = parts[0][0] + parts[1][0]
    df = v**2 / sum(p**2 / (k - 1) for p, k in parts)
    r = compare(y, {"a": sa, "b": sb}, metric=metric, method="jackknife-t", confidence_level=0.9)
    assert r.estimate == pytest.approx(diff, abs=1e-12)
    assert r.details["variance"] == pytest.approx(v, rel=1e-10)
    assert r.df == pytest.approx(df, rel=1e-10)
    assert r.p_value == pytest.approx(2 * stats.t.sf(abs(diff) / np.sqrt(v), df), rel=1e-8)
    half = stats.t.ppf(0.95, df) * np.sqrt(v)
    assert (r.ci.low, r.ci.high) == pytest.approx((diff - half, diff + half), rel=1e-9)
    if metric == "roc_auc":  # the jackknife variance of the ROC AUC is DeLong's
        d = delong_test(y, {"a": sa, "b": sb}, distribution="t", confidence_level=0.9)
        assert d.details["variance"] == pytest.approx(v, rel=1e-10)
        assert d.p_value == pytest.approx(r.p_value, rel=1e-8)


def test_default_paired_curve_area_by_class_size():
    """auto: the jackknife-t below 10 rows of a class; from 10 on the paired bootstrap
    with the tail p-value that inverts its percentile interval."""
    rng = np.random.default_rng(3)
    y = np.r_[np.ones(6, bool), np.zeros(94, bool)]
    sa, sb = rng.normal(size=100) + y, rng.normal(size=100) + y
    r = compare(y, {"a": sa, "b": sb}, metric="pr_auc", rng=0)
    assert "jackknife" in r.method and r.statistic_name == "T"
    y = np.r_[np.ones(30, bool), np.zeros(70, bool)]
    sa, sb = rng.normal(size=100) + y, rng.normal(size=100) + 0.5 * y
    r = compare(y, {"a": sa, "b": sb}, metric="pr_auc", n_resamples=999, rng=0)
    assert "expanded to Student's t on 29 df" in r.method
    # from the same draws: the percentile interval at level 2 Phi(t_29(0.975)) - 1 and
    # the tail share 2 (k + 1) / (B + 1) (k draws on the far side) read through t_29
    rng0 = np.random.default_rng(0)
    from opsstats.comparison.draws import paired_curve_draws
    from opsstats.curves._geometry import parse_area

    da, db = paired_curve_draws(y, sa, sb, parse_area("pr_auc"), "bootstrap", 999, rng0)
    d = np.sort(da - db)
    k = min(np.sum(d < 0), np.sum(d > 0)) + np.sum(d == 0) / 2
    share = (k + 1) / 1000
    assert r.p_value == pytest.approx(min(1, 2 * stats.t.cdf(stats.norm.ppf(share), 29)))
    assert r.p_value > min(1, 2 * share)  # t's tails are wider than the normal's
    level = 2 * stats.norm.cdf(stats.t.ppf(0.975, 29)) - 1
    lo, hi = np.quantile(d, [(1 - level) / 2, (1 + level) / 2])
    assert (r.ci.low, r.ci.high) == pytest.approx((lo, hi), abs=1e-15)
    # the interval at the level whose tail is the p-value's share ends at 0
    edge = 1 - r.p_value
    r_edge = compare(
        y, {"a": sa, "b": sb}, metric="pr_auc", n_resamples=999, rng=0, confidence_level=edge
    )
    assert r_edge.ci.low == pytest.approx(0, abs=np.ptp(d) / 50) or r_edge.ci.high == pytest.approx(
        0, abs=np.ptp(d) / 50
    )
    with pytest.raises(ValueError, match="method='jackknife-t'"):
        compare(y, {"a": sa, "b": sb}, metric="pr_auc", ops=True, method="jackknife-t")


# ------------------------------------------------ confusion-matrix metrics from scores


def _scored(n=400, seed=7):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(int)
    return y, rng.normal(1.2 * y, 1), rng.normal(0.6 * y, 1)


def test_paired_threshold_is_the_predicted_labels_comparison():
    """compare(y, scores, threshold=t) is compare(y, y_pred=scores >= t) with the label
    saying so; the estimates are scikit-learn's F1 of the thresholded scores."""
    from sklearn.metrics import f1_score

    y, sa, sb = _scored()
    r = compare(y, {"A": sa, "B": sb}, threshold=0.4, metric="f1", rng=3)
    ref = compare(y, y_pred={"A": (sa >= 0.4) * 1, "B": (sb >= 0.4) * 1}, metric="f1", rng=3)
    assert r.quantity == "F1 score at threshold 0.4" and ref.quantity == "F1 score"
    # f1_score(y, sa >= 0.4) and f1_score(y, sb >= 0.4), scikit-learn
    assert r.estimate_a == pytest.approx(f1_score(y, sa >= 0.4), abs=1e-15)
    assert r.estimate_b == pytest.approx(f1_score(y, sb >= 0.4), abs=1e-15)
    for field in ("estimate", "p_value", "probability_greater"):
        assert getattr(r, field) == getattr(ref, field)
    assert tuple(r.ci) == tuple(ref.ci)
    # with a threshold, the default metric is F1; OPS and McNemar take it too
    assert compare(y, {"A": sa, "B": sb}, threshold=0.4, rng=3).estimate == r.estimate
    m = compare(y, {"A": sa, "B": sb}, threshold=0.4, metric="accuracy", method="mcnemar")
    assert m.quantity == "Accuracy at threshold 0.4"
    assert m.estimate == pytest.approx(np.mean((sa >= 0.4) == y) - np.mean((sb >= 0.4) == y))
    o = compare(y, {"A": sa, "B": sb}, threshold=0.4, metric="f1", ops=True, rng=3)
    assert o.quantity == "OPS of F1 score at threshold 0.4"


def test_unpaired_threshold_is_the_predicted_labels_comparison():
    """The README's compare_test_sets(..., metric="f1", ops=True) on scores: with
    `threshold` it is the comparison of the thresholded labels."""
    from sklearn.metrics import f1_score

    y1, s1, _ = _scored(300, 1)
    y2, s2, _ = _scored(500, 2)
    sets = {"jan": (y1, s1), "feb": (y2, s2)}
    labels = {"jan": (y1, (s1 >= 0.5) * 1), "feb": (y2, (s2 >= 0.5) * 1)}
    r = compare_test_sets(sets, metric="f1", threshold=0.5, rng=0)
    ref = compare_test_sets(labels, metric="f1", rng=0)
    assert r.quantity == "F1 score at threshold 0.5"
    assert r.estimate == ref.estimate and tuple(r.ci) == tuple(ref.ci)
    # f1_score(y1, s1 >= 0.5) - f1_score(y2, s2 >= 0.5), scikit-learn
    assert r.estimate == pytest.approx(f1_score(y1, s1 >= 0.5) - f1_score(y2, s2 >= 0.5))
    ops = compare_test_sets(sets, metric="f1", ops=True, threshold=0.5, rng=0)
    assert ops.estimate == compare_test_sets(labels, metric="f1", ops=True, rng=0).estimate
    # the default metric with a threshold is F1
    assert compare_test_sets(sets, threshold=0.5, rng=0).estimate == r.estimate


def test_confusion_metric_of_scores_says_what_to_give():
    y, sa, sb = _scored()
    with pytest.raises(
        ValueError,
        match=r"^metric 'f1' needs predicted labels: give `threshold=` \(scores >= threshold "
        r"are positive\) or `y_pred`\.$",
    ):
        compare(y, {"A": sa, "B": sb}, metric="f1")
    with pytest.raises(
        ValueError,
        match=r"metric 'f1' needs predicted labels: give `threshold=` .* or predicted labels "
        r"as each test set's second array; test set 'jan' holds scores \(402 distinct",
    ):
        compare_test_sets({"jan": (y, sa), "feb": (y, sb)}, metric="f1", ops=True)
    with pytest.raises(ValueError, match=r"give `y_pred`, or `y_score` with `threshold`, not"):
        compare(y, y_pred={"A": y, "B": y}, threshold=0.5)
    with pytest.raises(ValueError, match=r"metric 'roc_auc' is a curve quantity.*drop `thre"):
        compare(y, {"A": sa, "B": sb}, metric="roc_auc", threshold=0.5)
    with pytest.raises(ValueError, match=r"metric 'pr_auc' is a curve quantity"):
        compare_test_sets({"jan": (y, sa), "feb": (y, sb)}, metric="pr_auc", threshold=0.5)
    with pytest.raises(ValueError, match=r"`threshold` must be a finite number"):
        compare(y, {"A": sa, "B": sb}, metric="f1", threshold=np.nan)


# ---------------------------------------------------------------- many classifiers
def _three(seed=8, n=240, decimals=1):
    """Tied scores (rounded) of three classifiers on the same rows."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    s = np.round(rng.normal(size=(3, n)) + np.array([[1.0], [0.6], [0.8]]) * y, decimals)
    return y, s


def test_joint_cells_of_three_classifiers_partition_the_rows():
    from opsstats.comparison.draws import _JointClass, row_cells
    from opsstats.curves._geometry import parse_area

    y, s = _three()
    q = parse_area("pr_auc")
    made = [row_cells(ScoreCurve.from_scores(y, v), y, v, q) for v in s]
    for cls in (y, ~y):
        joint = _JointClass([where[cls] for _, where in made], [c.k for c, _ in made])
        # by hand: the distinct tuples of the rows' cells, in lexicographic order
        rows = [tuple(int(w[i]) for _, w in made) for i in np.flatnonzero(cls)]
        keys = sorted(set(rows))
        counts = [rows.count(key) for key in keys]
        assert joint.counts.tolist() == counts and joint.total == int(cls.sum())
        # each classifier's observed cumulative counts from the joint cells' counts
        x = joint.counts.astype(float)[:, None]
        for m, (cells, _) in enumerate(made):
            own = cells.pos if cls is y else cells.neg
            np.testing.assert_array_equal(joint.cumulative(x, m)[0], np.cumsum(own))


@pytest.mark.parametrize(
    "metric, at, rule, method, ops",
    [
        ("pr_auc", None, None, "bootstrap", False),
        ("pr_auc", None, None, "auto", True),
        ("pr_auc", None, "trapezoid", "bootstrap", False),
        ("pr_auc", None, None, "dirichlet", False),
        ("roc_auc", None, None, "bootstrap", False),
        ("lift_auc", None, None, "dirichlet", False),
        ("precision", {"recall": 0.8}, None, "bootstrap", True),
    ],
)
def test_a_pair_of_a_table_is_the_two_classifier_compare_on_the_same_draws(
    metric, at, rule, method, ops
):
    """C scores every row as A does (2 A: the same order, so the same cells): the joint
    cells of (A, B, C) are those of (A, B), so the table's draws are those of
    compare(A, B) with the same rng, and its pair A - B that comparison's result."""
    y, s = _three()
    a, b = s[0], s[1]
    kw = {"metric": metric, "at": at, "rule": rule, "method": method, "n_resamples": 300}
    kw |= {"ops": ops, "reference": SMALL_DBT if ops else None}
    table = compare(y, {"A": a, "B": b, "C": 2 * a}, rng=5, **kw)
    two = compare(y, {"A": a, "B": b}, rng=5, **kw)
    got = table.results[0]
    assert got.names == ("A", "B") and "for all 3 classifiers" in got.method
    assert got.method.replace("for all 3 classifiers", "for both") == two.method
    for field in ("estimate", "estimate_a", "estimate_b", "p_value", "statistic"):
        assert getattr(got, field) == pytest.approx(getattr(two, field), abs=1e-12), field
    assert (got.ci.low, got.ci.high) == pytest.approx((two.ci.low, two.ci.high), abs=1e-12)
    np.testing.assert_allclose(got.draws, two.draws, rtol=0, atol=1e-12)
    assert np.all(table.results[1].draws == 0)  # A - C: the same curve in every draw


@pytest.mark.parametrize("method", ["bootstrap", "dirichlet"])
def test_every_pair_with_the_first_classifier_when_each_row_is_a_cell(method):
    """Distinct scores and the lift area (one cell per threshold): every row is a joint
    cell of any set of classifiers with A first, so each pair (A, X) of the table draws
    as compare(A, X) with the same rng does."""
    y, s = _three(decimals=12)
    cols = {"A": s[0], "B": s[1], "C": s[2]}
    kw = {"metric": "lift_auc", "method": method, "n_resamples": 200}
    table = compare(y, cols, rng=3, **kw)
    for got in table.results[:2]:
        two = compare(y, {n: cols[n] for n in got.names}, rng=3, **kw)
        np.testing.assert_allclose(got.draws, two.draws, rtol=0, atol=1e-12)
        assert (got.p_value, got.ci.low, got.ci.high) == pytest.approx(
            (two.p_value, two.ci.low, two.ci.high), abs=1e-12
        )


def test_shared_draws_give_each_pair_the_law_of_row_resampling():
    """Each pair of a table of three tied classifiers, against the slow resampling of
    rows (its own draws): the same mean and sd of the difference of ROC AUCs."""
    y, s = _three()
    table = compare(
        y, {"A": s[0], "B": s[1], "C": s[2]}, method="bootstrap", n_resamples=20000, rng=2
    )
    for r, (i, j) in zip(table.results, [(0, 1), (0, 2), (1, 2)], strict=True):
        slow = _slow_paired_bootstrap(y, s[i], s[j], 3000, 1 + i + j)
        # relative Monte Carlo error of the slow sd about 1/sqrt(2 * 3000) = 1.3%
        assert np.std(r.draws, ddof=1) == pytest.approx(np.std(slow, ddof=1), rel=0.06)
        assert np.mean(r.draws) == pytest.approx(np.mean(slow), abs=4 * np.std(slow) / 50)


def test_many_classifiers_draw_once(monkeypatch):
    """Ten classifiers: one call of the shared draws (all ten, each classifier's quantity
    once per draw), and each of the 45 pairs' draws the difference of two of its rows."""
    from opsstats.comparison import paired

    calls = []
    real = paired.shared_curve_draws

    def spy(is_pos, scores, *args, **kwargs):
        calls.append(real(is_pos, scores, *args, **kwargs))
        return calls[-1]

    monkeypatch.setattr(paired, "shared_curve_draws", spy)
    rng = np.random.default_rng(6)
    y = rng.random(300) < 0.2
    cols = {f"m{i}": rng.normal(size=300) + y * (1 - 0.1 * i) for i in range(10)}
    table = compare(y, cols, metric="pr_auc", n_resamples=200, rng=0)
    assert len(calls) == 1 and calls[0].shape == (10, 200) and len(table.results) == 45
    names = list(cols)
    for r in table.results:
        i, j = names.index(r.names[0]), names.index(r.names[1])
        np.testing.assert_array_equal(r.draws, np.sort(calls[0][i] - calls[0][j]))


def test_unpaired_sets_are_drawn_once(monkeypatch):
    """Three test sets: each set drawn once for the pairs it is in, and the pair (a, b)
    drawn as compare_test_sets of the two does (a first, then b)."""
    from opsstats.comparison import unpaired

    calls = []
    real = unpaired.unpaired_curve_draws

    def spy(curve, *args, **kwargs):
        calls.append(curve.n)
        return real(curve, *args, **kwargs)

    monkeypatch.setattr(unpaired, "unpaired_curve_draws", spy)
    rng = np.random.default_rng(9)
    sets = {}
    for name, n in (("a", 150), ("b", 200), ("c", 120)):
        yy = rng.random(n) < 0.3
        sets[name] = (yy, rng.normal(size=n) + yy)
    kw = {"metric": "pr_auc", "n_resamples": 300}
    table = compare_test_sets(sets, rng=4, **kw)
    assert calls == [150, 200, 120]
    two = compare_test_sets({k: sets[k] for k in "ab"}, rng=4, **kw)
    got = table.results[0]
    assert (got.p_value, got.ci.low, got.ci.high) == pytest.approx(
        (two.p_value, two.ci.low, two.ci.high), abs=1e-12
    )
    np.testing.assert_array_equal(got.draws, two.draws)


def test_warnings_point_at_the_caller():
    """The warnings of compare and compare_test_sets name the line that called them."""
    import warnings

    from opsstats import SmallCountWarning

    few = np.array([1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0] * 2, bool)
    sa = np.linspace(0, 1, few.size)
    separated = few.astype(float)
    calls = [
        (SmallCountWarning, lambda: compare(few, {"a": sa, "b": sa[::-1]}, method="delong")),
        (
            SmallCountWarning,
            lambda: compare_test_sets({"a": (few, sa), "b": (few, sa)}, method="delong"),
        ),
        (
            SmallCountWarning,
            lambda: compare(few, {"a": sa, "b": sa[::-1]}, method="bootstrap", rng=0),
        ),
        (UserWarning, lambda: compare(few, {"a": sa, "b": np.zeros(few.size)})),
        (UserWarning, lambda: compare(few, {"a": separated, "b": separated + 1})),  # DeLong
        (UserWarning, lambda: compare(few, {"a": separated, "b": separated + 1}, method="delong")),
        (
            UserWarning,
            lambda: compare(few, {"a": separated, "b": separated}, method="jackknife-t"),
        ),
    ]
    for category, call in calls:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            call()
        mine = [w for w in caught if issubclass(w.category, category)]
        assert mine and all(w.filename == __file__ for w in mine), [
            (w.filename, str(w.message)[:60]) for w in caught
        ]
