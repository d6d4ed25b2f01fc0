"""Binned curves (evaluate(bins=)): the exact value of the unbinned scores always lies in
the range the binned result reports, for every curve quantity with a bound; each bound is
the minimum and maximum over every order (ties included) of the rows inside the bins,
checked by enumerating the orders; for the ROC AUC the range is the binned AUC
+- sum_b pos_b neg_b / (2 P N)."""

import itertools
import re
import warnings
from decimal import ROUND_CEILING, ROUND_FLOOR

import duckdb
import numpy as np
import pandas as pd
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from opsstats import DirectedBinaryTree, ScoreCurve, evaluate, frames
from opsstats.curves._binning import _arranged, bin_bounds, bin_bounds_of
from opsstats.curves._geometry import CurveArea, EqualErrorRate, Gini, parse_area, parse_at
from opsstats.curves._partial import PartialArea
from opsstats.grouped._binned import _outward
from opsstats.metrics import available_metrics, register_metric, resolve_metric, unregister_metric
from opsstats.report import report

REF = DirectedBinaryTree(depth=5, n_curves=500)


def _range(method: str) -> tuple[float, float]:
    lo, hi = re.search(r"lies in \[([^,]+), ([^\]]+)\]", method).groups()
    return float(lo), float(hi)


@settings(max_examples=150, deadline=None)
@given(
    n=st.integers(10, 300),
    prevalence=st.floats(0.05, 0.95),
    shift=st.floats(-1, 3),
    bins=st.integers(2, 40),
    digits=st.sampled_from([None, 1, 2]),
    seed=st.integers(0, 2**32 - 1),
)
def test_the_unbinned_value_lies_in_the_reported_range(n, prevalence, shift, bins, digits, seed):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < prevalence
    if y.all() or not y.any():
        y[0] = not y[0]
    s = rng.normal(y * shift, 1)
    if digits is not None:
        s = np.round(s, digits)  # ties in the unbinned scores too
    df = pd.DataFrame({"y": y.astype(int), "s": s})
    out = evaluate(
        df,
        truth="y",
        score="s",
        metrics=["roc_auc", "pr_auc"],
        bins=bins,
        ci=None,
        curve_reference=REF,
    )
    curve = ScoreCurve.from_scores(y, s)
    for _, row in out.iterrows():
        exact = curve.auc("roc") if row["metric"] == "roc_auc" else curve.auc("pr")
        lo, hi = _range(row["method"])
        assert lo - 1e-6 <= exact <= hi + 1e-6, (row["metric"], lo, exact, hi)
        assert lo - 1e-6 <= row["value"] <= hi + 1e-6


def test_roc_range_is_the_half_pair_bound():
    rng = np.random.default_rng(3)
    s = rng.integers(0, 12, 400).astype(float)  # scores that are their own bins
    pos = rng.integers(0, 5, 12)
    neg = rng.integers(1, 9, 12)
    scores = np.arange(12.0)
    curve = ScoreCurve.from_counts(scores, pos, neg)
    lo, hi, tight, _ = bin_bounds(parse_area("roc_auc"), scores, pos, neg)
    assert tight
    half = float(np.sum(pos * neg) / (2 * pos.sum() * neg.sum()))
    assert (lo, hi) == pytest.approx((curve.auc("roc") - half, curve.auc("roc") + half), abs=1e-12)
    assert s.size == 400


def test_max_distinct_bins_only_when_needed():
    rng = np.random.default_rng(0)
    y = rng.random(3000) < 0.3
    df = pl.DataFrame({"y": y.astype(int), "s": np.round(rng.normal(y * 1.0, 1), 1)})
    few = evaluate(
        df,
        truth="y",
        score="s",
        metrics=["roc_auc"],
        ci=None,
        max_distinct=1000,
        curve_reference=REF,
    )
    assert "bins" not in few["method"].iloc[0]  # about 70 distinct scores: exact
    many = evaluate(
        df,
        truth="y",
        score="s",
        metrics=["roc_auc"],
        ci=None,
        max_distinct=10,
        bins=20,
        curve_reference=REF,
    )
    assert "20 equal-width bins" in many["method"].iloc[0]


@pytest.mark.parametrize("engine", ["duckdb", "polars"])
def test_max_distinct_counts_the_distinct_scores_of_each_group(engine):
    """The decision is the exact count's, whether DuckDB's estimate (HyperLogLog) is
    beside the limit (the exact count decides) or far from it (the estimate does), and
    whatever the engine; without groups the distinct scores of both classes together
    count (240 here, 120 per class)."""
    rng = np.random.default_rng(1)
    frame = pd.DataFrame(
        {
            "y": np.repeat([1, 0], 120),
            "s": rng.permutation(240) / 7.0,  # 240 distinct, 120 in each class
            "g": np.tile(["a", "b", "c"], 80),  # 80 distinct each
        }
    )
    data = duckdb.from_df(frame) if engine == "duckdb" else pl.from_pandas(frame)
    lf = frames._lazy(data)
    exact = {(): frame["s"].nunique(), ("g",): frame.groupby("g")["s"].nunique().max()}
    assert exact == {(): 240, ("g",): 80}
    for by, most in exact.items():
        for limit in (1, most // 3, most // 2, most - 1, most, most + 1, 2 * most, 4 * most):
            assert frames._more_distinct(lf, "s", list(by), limit) == (most > limit), (by, limit)
    table = frames.count_tables(data, truth="y", score="s", curves=True, max_distinct=200)
    assert table.bins == frames.DEFAULT_BINS  # 240 > 200, although each class has 120


@pytest.mark.parametrize(
    ("kwargs", "exc", "match"),
    [
        ({"bins": 1}, ValueError, "`bins`"),
        ({"bins": "ten"}, TypeError, "`bins`"),
        ({"bins": 10**9}, ValueError, "`bins`"),
        ({"max_distinct": 0}, ValueError, "`max_distinct`"),
    ],
)
def test_bad_bins(kwargs, exc, match):
    df = pd.DataFrame({"y": [0, 1, 0, 1], "s": [0.1, 0.4, 0.35, 0.8]})
    with pytest.raises(exc, match=match):
        evaluate(df, truth="y", score="s", **kwargs)


#: Every kind of curve quantity: the areas (both rules, raw and normalized), Gini, the
#: equal error rate, partial areas, and metrics at operating points on every axis.
QUANTITIES = [
    CurveArea(c, r, z)
    for c in ("roc", "pr", "lift", "gain")
    for r in ("trapezoid", "step")
    for z in (False, True)
]
QUANTITIES += [
    Gini(),
    EqualErrorRate(),
    PartialArea("fpr", 0.0, 0.2),
    PartialArea("fpr", 0.1, 0.6),
    PartialArea("tpr", 0.3, 0.9, correct=True),
    PartialArea("tpr", 0.8, 1.0),
]
QUANTITIES += [
    parse_at(m, {axis: u})
    for m in ("precision", "recall", "f1", "mcc", "npv", "lift", "specificity", "cohen_kappa")
    for axis in ("recall", "fpr", "rate", "specificity")
    for u in (0.0, 0.25, 0.5, 0.9, 1.0)
]


def _value(quantity, curve):
    return float(quantity(curve.prevalence, curve.alpha, curve.beta))


def _inside(value, lo, hi, tol=1e-12):
    return (lo == value or lo - tol <= value) and (hi == value or value <= hi + tol)


@settings(max_examples=200, deadline=None)
@given(
    n=st.integers(4, 40),
    prevalence=st.floats(0.1, 0.9),
    shift=st.floats(-1, 3),
    bins=st.integers(2, 8),
    digits=st.sampled_from([None, 0, 1]),
    weighted=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_every_bound_holds_the_unbinned_value(n, prevalence, shift, bins, digits, weighted, seed):
    """(a) For every quantity with a bound, the value of the raw scores (ties included;
    with fractional weights, the bound for rows of any weight) lies in [lo, hi]."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < prevalence
    y[0], y[1] = True, False
    s = rng.normal(y * shift, 1)
    if digits is not None:
        s = np.round(s, digits)
    w = rng.uniform(0.05, 3, n) if weighted else None
    edges = np.linspace(s.min(), s.max(), bins + 1)
    b = np.clip(np.searchsorted(edges, s, side="right") - 1, 0, bins - 1)  # equal width
    ones = np.ones(n) if w is None else w
    pos = np.bincount(b, weights=ones * y, minlength=bins)
    neg = np.bincount(b, weights=ones * ~y, minlength=bins)
    curve = ScoreCurve.from_scores(y, s, sample_weight=w)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for q in QUANTITIES:
            lo, hi, _, reason = bin_bounds(
                q, np.arange(bins), pos, neg, rows="any" if weighted else "unit"
            )
            if np.isnan(lo):
                assert reason
                continue
            exact = _value(q, curve)
            assert _inside(exact, lo, hi), (q.label, lo, exact, hi)
            binned = ScoreCurve.from_counts(np.arange(bins), pos, neg)
            assert _inside(_value(q, binned), lo, hi), q.label


def _groups(p, n):
    """Every sequence of groups of tied rows, (positives, negatives) each, that a bin
    with p positives and n negatives can be ordered into."""
    if p == 0 and n == 0:
        yield ()
        return
    for k in range(p + 1):
        for m in range(n + 1):
            if k + m:
                for rest in _groups(p - k, n - m):
                    yield ((k, m), *rest)


def _orders(pos, neg):
    """The curve of every order (ties included) of the rows inside the bins (bin 0 on
    top), each tie group given its own sub-score."""
    for combo in itertools.product(*(list(_groups(p, n)) for p, n in zip(pos, neg, strict=True))):
        sub = [g for bin_groups in combo for g in bin_groups][::-1]  # lowest first
        yield ScoreCurve.from_counts(np.arange(len(sub)), [k for k, _ in sub], [m for _, m in sub])


@pytest.mark.parametrize(
    ("pos", "neg"),
    [
        ([2], [2]),
        ([1], [2]),
        ([3], [2]),
        ([1, 2], [2, 0]),
        ([2, 1], [1, 2]),
        ([0, 2], [2, 1]),
        ([2, 0, 1], [0, 2, 1]),
        ([1, 1, 1], [1, 1, 1]),
        ([2, 1, 0], [1, 0, 2]),
        ([0, 3], [3, 0]),
        ([2, 2], [2, 2]),
    ],
)
def test_bounds_are_the_extremes_over_every_order(pos, neg):
    """(b) Tightness: the minimum and maximum over every order of the rows inside the
    bins (strict orders and ties) equal the bounds, for every quantity with a bound;
    those of every quantity at once (``bin_bounds_of``, the bins' extreme orders built
    once, as a report's curve rows share them) are the same as one at a time."""
    curves = list(_orders(pos, neg))
    scores = np.arange(len(pos))[::-1]  # bin 0 on top
    bounded = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        together = bin_bounds_of(QUANTITIES, scores, pos, neg)
        for q, shared in zip(QUANTITIES, together, strict=True):
            lo, hi, tight, reason = bin_bounds(q, scores, pos, neg)
            assert np.array_equal(shared[:2], (lo, hi), equal_nan=True), q.label
            assert shared[2:] == (tight, reason), q.label
            if np.isnan(lo):
                assert reason and not tight
                continue
            bounded += 1
            values = np.array([_value(q, c) for c in curves])
            assert not np.isnan(values).any(), q.label
            assert tight
            for got, want in ((values.min(), lo), (values.max(), hi)):
                assert got == want or abs(got - want) < 1e-12, (
                    q.label,
                    values.min(),
                    lo,
                    values.max(),
                    hi,
                )
    assert bounded >= 100


@pytest.mark.parametrize("name", available_metrics())
def test_builtin_metrics_are_monotone_in_the_error_rates(name):
    """The bounds at operating points take a metric's extremes at the two extreme
    orders for the metrics the registry says are monotone in alpha and in beta: every
    built-in one, checked here on a grid."""
    metric = resolve_metric(name)
    assert metric.monotone is True
    g = np.linspace(0, 1, 201)
    a, b = np.meshgrid(g, g, indexing="ij")
    with np.errstate(all="ignore"):
        for pi in (0.01, 0.2, 0.5, 0.9):
            v = np.asarray(metric(pi, a, b), dtype=float)
            for d in (np.diff(v, axis=0), np.diff(v, axis=1)):
                d = d[np.isfinite(d)]
                assert (d <= 1e-12).all() or (d >= -1e-12).all(), (name, pi)


def test_roc_summaries_and_partial_areas_follow_the_auc():
    """Gini is 2 AUC - 1 on both ends; the range of the ROC AUC is the same for both
    rules (the step rule counts tied pairs in full, inside the range)."""
    pos, neg = np.array([3, 1, 4, 0, 2]), np.array([0, 5, 2, 3, 4])
    scores = np.arange(5.0)
    auc = bin_bounds(parse_area("roc_auc"), scores, pos, neg)
    gini = bin_bounds(Gini(), scores, pos, neg)
    assert (gini.low, gini.high) == pytest.approx((2 * auc.low - 1, 2 * auc.high - 1), abs=1e-12)
    step = bin_bounds(parse_area("roc_auc", "step"), scores, pos, neg)
    assert (step.low, step.high) == pytest.approx((auc.low, auc.high), abs=1e-12)


def _binned_frame(seed=5, n=600):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    return pd.DataFrame({"y": y.astype(int), "s": rng.normal(y * 1.2, 1)}), y


EVALUATED = [
    "roc_auc",
    "pr_auc",
    "lift_auc",
    "gain_auc",
    "nroc_auc",
    "npr_auc",
    "nlift_auc",
    "ngain_auc",
    "precision@recall=0.5",
    "recall@fpr=0.1",
    "f1@rate=0.2",
    "mcc@specificity=0.9",
]


def test_evaluate_prints_the_range_of_every_quantity():
    """(c) Each binned curve row's `method` carries its range, which holds the value of
    the unbinned scores and the binned value."""
    df, y = _binned_frame()
    out = evaluate(
        df, truth="y", score="s", metrics=EVALUATED, bins=12, ci=None, curve_reference=REF
    )
    curve = ScoreCurve.from_scores(y, df["s"].to_numpy())
    ref = REF
    assert len(out) == len(EVALUATED)
    for spec_name, (_, row) in zip(EVALUATED, out.iterrows(), strict=True):
        assert "scores in 12 equal-width bins (ties inside a bin): " in row["method"]
        lo, hi = _range(row["method"])
        name, _, point = spec_name.partition("@")
        at = None if not point else {point.split("=")[0]: float(point.split("=")[1])}
        exact = _value(ref._quantity(name, at, None, {}), curve)
        assert lo <= exact <= hi, (spec_name, lo, exact, hi)  # printed ends round outward
        assert lo <= row["value"] <= hi


@settings(max_examples=300, deadline=None)
@given(st.floats(-1e6, 1e6, allow_nan=False))
def test_printed_ends_round_outward(value):
    low, high = float(_outward(value, ROUND_FLOOR)), float(_outward(value, ROUND_CEILING))
    assert low <= value <= high
    # one unit in the 6th significant digit, at most 1e-5 |value| (up to float error:
    # 1e-8 rounds up to 1.00001e-08, whose distance is 1e-13 (1 + 4e-11) in floats)
    assert abs(high - low) <= 1e-5 * abs(value) * (1 + 1e-9)


def test_weighted_rows_print_the_range_for_rows_of_any_weight():
    df, y = _binned_frame(seed=6)
    df["w"] = np.random.default_rng(6).uniform(0.1, 2.0, len(df))
    out = evaluate(
        df,
        truth="y",
        score="s",
        metrics=["pr_auc", "lift_auc"],
        bins=8,
        weight="w",
        ci=None,
        curve_reference=REF,
    )
    curve = ScoreCurve.from_scores(y, df["s"].to_numpy(), sample_weight=df["w"].to_numpy())
    for name, (_, row) in zip(["pr", "lift"], out.iterrows(), strict=True):
        assert "(for rows of any weight)" in row["method"]
        lo, hi = _range(row["method"])
        assert lo - 1e-6 <= curve.auc(name) <= hi + 1e-6


def test_thin_weighted_rows_need_the_bound_for_rows_of_any_weight():
    """A bin of one negative and ten positives of weight 0.1 below it: the average
    precision, 0.3312, is below the unit-row bound 0.5 and inside the bound for rows of
    any weight, 1 - ln 2 = 0.3069 (the integral of s / (1 + s) over [0, 1])."""
    y = np.r_[0, np.ones(10)]
    curve = ScoreCurve.from_scores(y, np.r_[100, np.arange(10)], sample_weight=np.r_[1, [0.1] * 10])
    exact = curve.auc("pr")
    assert exact == pytest.approx(0.331228596824572, abs=1e-12)
    assert bin_bounds(parse_area("pr_auc"), [0], [1], [1]).low == pytest.approx(0.5, abs=1e-12)
    low = bin_bounds(parse_area("pr_auc"), [0], [1], [1], rows="any").low
    assert low == pytest.approx(1 - np.log(2), abs=1e-12) and low < exact


def test_no_bound_is_said_with_its_reason():
    """A registered metric is not known to be monotone: its row says no bound is
    derived, and why."""
    register_metric("tp_share_test", lambda p, a, b: p * (1 - b), direction="higher", range=(0, 1))
    try:
        df, _ = _binned_frame()
        out = evaluate(
            df,
            truth="y",
            score="s",
            metrics=["tp_share_test@recall=0.5", "precision@recall=0"],
            bins=10,
            ci=None,
            curve_reference=REF,
        )
    finally:
        unregister_metric("tp_share_test")
    first, start = out["method"]
    assert "no bound on the unbinned value is derived (" in first
    assert "not known to be monotone in the error rates" in first
    assert "at the start of the axis" in start


def test_a_metric_registered_as_monotone_gets_its_bound():
    """The bounds read the registry's ``monotone``: the same metric registered with
    monotone=True gets a range, which holds the value of the unbinned scores."""
    register_metric(
        "tp_share_test",
        lambda p, a, b: p * (1 - b),
        direction="higher",
        range=(0, 1),
        monotone=True,
    )
    try:
        df, y = _binned_frame()
        out = evaluate(
            df,
            truth="y",
            score="s",
            metrics=["tp_share_test@rate=0.3"],
            bins=10,
            ci=None,
            curve_reference=REF,
        )
        exact = ScoreCurve.from_scores(y, df["s"]).value_at("tp_share_test", {"rate": 0.3})
    finally:
        unregister_metric("tp_share_test")
    low, high = _range(out["method"].iloc[0])
    assert low <= exact <= high and low < high


def test_report_text_and_summary_print_the_range():
    df, _ = _binned_frame()
    rep = report(
        df,
        truth="y",
        score="s",
        metrics=["pr_auc", "lift_auc"],
        bins=10,
        ci=None,
        curve_reference=REF,
    )
    for text in (str(rep), rep.summary().as_text(), rep.summary().as_html()):
        text = " ".join(text.split())  # printed notes are wrapped at 100 columns
        assert (
            text.count(
                "scores in 10 equal-width bins (ties inside a bin): the unbinned value lies in ["
            )
            == 2
        )


@pytest.mark.parametrize("seed", range(6))
def test_extreme_orders_are_the_curves_from_counts(seed):
    """The curves of the bins' extreme orders, built in order without a sort, are the
    arrays (values and types) ``ScoreCurve.from_counts`` builds from the same parts at
    the scores 2k + 1 (a bin's upper part) and 2k (its lower part), k counted from the
    bottom bin: whole and fractional counts, bins with one class only."""
    rng = np.random.default_rng(seed)
    m = int(rng.integers(1, 300))
    p = rng.poisson(rng.uniform(0.2, 3), m).astype(float)
    n = rng.poisson(rng.uniform(0.2, 3), m).astype(float)
    if seed % 2:  # weight totals
        p, n = p * rng.uniform(0, 2, m), n * rng.uniform(0, 2, m)
    p, n = p[(p + n) > 0], n[(p + n) > 0]
    p[0], n[-1] = p[0] + 1, n[-1] + 1  # both classes present
    k = np.arange(p.size)[::-1]  # from the top bin down
    zero = np.zeros_like(p)
    for first, (upper, lower) in {
        "positives": ((p, zero), (zero, n)),
        "negatives": ((zero, n), (p, zero)),
    }.items():
        want = ScoreCurve.from_counts(
            np.r_[2.0 * k + 1, 2.0 * k], np.r_[upper[0], lower[0]], np.r_[upper[1], lower[1]]
        )
        got = _arranged(p, n, first)
        for a, b in ((got.thresholds, want.thresholds), (got.tps, want.tps), (got.fps, want.fps)):
            assert a.dtype == b.dtype and np.array_equal(a, b), first
