"""ScoreCurve: curves, areas, operating points and confusion matrices from scores.

References, each independent of the code under test:

- scikit-learn (``roc_curve(drop_intermediate=False)``, ``roc_auc_score``,
  ``precision_recall_curve``, ``average_precision_score``, ``confusion_matrix`` via
  ``ConfusionMatrix.from_predictions``), on hypothesis-generated data with heavy ties
  (scores drawn from a handful of values) and sample weights; tolerance 1e-12 (both
  sides are sums of at most a few hundred terms of size <= 1).
- R's pROC 1.18.0, ``as.numeric(auc(roc(y_true, y_score, levels=c(0,1),
  direction="<")))``, stored in ``tests/reference/proc_reference.csv`` with the R call
  beside each number; tolerance 1e-12.
- Slow, obvious implementations written here: the Mann-Whitney statistic as a double
  loop over (positive, negative) pairs with ties counted one half, and the eq. 9
  operating point as a walk along the curve's confusion matrices.
"""

from __future__ import annotations

import csv
import pickle
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm

from opsstats import ConfusionMatrix, UndefinedMetricWarning
from opsstats.curves import DEFAULT_RULE, ScoreCurve
from opsstats.curves._counting import class_sorted, weighted_blocks
from opsstats.curves._geometry import curve_area, parse_area, parse_at, value_at

TOL = 1e-12
REFERENCE = Path(__file__).parent / "reference"
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ------------------------------------------------------------------ data strategies
@st.composite
def scored_data(draw, weighted: bool = False, min_size: int = 2, max_size: int = 60):
    """(y_true, y_score, sample_weight) with both classes (of positive weight).

    Scores come either from a handful of values (heavy ties) or from continuous floats
    (every score distinct, which exercises the no-tie fast path).
    """
    n = draw(st.integers(min_size, max_size))
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    assume(0 < y.sum() < n)
    if draw(st.booleans()):
        values = draw(
            st.lists(
                st.floats(-3, 3, allow_nan=False, width=32), min_size=1, max_size=5, unique=True
            )
        )
        s = np.array(draw(st.lists(st.sampled_from(values), min_size=n, max_size=n)))
    else:
        s = np.array(draw(st.lists(st.floats(-1e3, 1e3, allow_nan=False), min_size=n, max_size=n)))
    w = None
    if weighted:
        w = np.array(
            draw(st.lists(st.sampled_from([0.0, 0.25, 1.0, 2.0, 3.7]), min_size=n, max_size=n))
        )
        assume(w[y == 1].sum() > 0 and w[y == 0].sum() > 0)
    return y, s.astype(float), w


# ------------------------------------------------------------- slow references
def mann_whitney(y, s, w=None):
    """P(S+ > S-) + P(S+ = S-)/2 over all (positive, negative) pairs: O(n^2)."""
    w = np.ones(len(y)) if w is None else w
    num = den = 0.0
    for i in range(len(y)):
        if y[i] != 1:
            continue
        for j in range(len(y)):
            if y[j] != 0:
                continue
            pair = w[i] * w[j]
            den += pair
            num += pair * (1.0 if s[i] > s[j] else 0.5 if s[i] == s[j] else 0.0)
    return num / den


def curve_points(y, s, w=None):
    """(tp, fp) of "predict positive where score >= t" for t = +inf and each distinct
    score, highest first: Fawcett's Algorithm 1 written as a plain loop."""
    w = np.ones(len(y)) if w is None else w
    points = [(0.0, 0.0)]
    for t in sorted(set(s[w > 0].tolist()), reverse=True):
        flagged = s >= t
        points.append(
            (float(np.sum(w * flagged * (y == 1))), float(np.sum(w * flagged * (y == 0))))
        )
    return points


def slow_value_at(y, s, w, x_name, u, metric):
    """Eq. 9 by a walk along the curve: find the first point with x >= u (on the FPR axis
    the last of the points at u), interpolate the counts linearly in x from the point
    before, compute the metric from counts."""
    w = np.ones(len(y)) if w is None else w
    P, N = float(np.sum(w * (y == 1))), float(np.sum(w * (y == 0)))
    pts = curve_points(y, s, w)

    def x_of(tp, fp):
        return {"recall": tp / P, "fpr": fp / N, "rate": (tp + fp) / (P + N)}[x_name]

    for k, (tp, fp) in enumerate(pts):  # noqa: B007 (k is read after the loop)
        if x_of(tp, fp) >= u:
            break
    if x_name == "fpr" and x_of(tp, fp) == u:
        # several points at FPR u: the last (most true positives), as pROC's coords
        while k + 1 < len(pts) and x_of(*pts[k + 1]) == u:
            k += 1
            tp, fp = pts[k]
    if k == 0 or x_of(tp, fp) == u:
        tp_u, fp_u = tp, fp
    else:
        tp0, fp0 = pts[k - 1]
        f = (u - x_of(tp0, fp0)) / (x_of(tp, fp) - x_of(tp0, fp0))
        tp_u, fp_u = tp0 + f * (tp - tp0), fp0 + f * (fp - fp0)
    fn_u, n = P - tp_u, P + N
    return {
        "precision": tp_u / (tp_u + fp_u),
        "f1": 2 * tp_u / (2 * tp_u + fp_u + fn_u),
        "lift": (tp_u / (tp_u + fp_u)) / (P / n),
        "recall": tp_u / P,
    }[metric]


# ------------------------------------------------------------- scikit-learn
@SETTINGS
@given(scored_data(weighted=False))
def test_roc_and_pr_curves_match_sklearn(data):
    y, s, _ = data
    curve = ScoreCurve.from_scores(y, s)
    fpr, tpr, thr = skm.roc_curve(y, s, drop_intermediate=False)
    roc = curve.roc()
    np.testing.assert_array_equal(roc["threshold"], thr)
    np.testing.assert_allclose(roc["fpr"], fpr, rtol=0, atol=TOL)
    np.testing.assert_allclose(roc["tpr"], tpr, rtol=0, atol=TOL)
    assert abs(curve.auc() - skm.roc_auc_score(y, s)) <= TOL

    precision, recall, thr_pr = skm.precision_recall_curve(y, s)
    pr = curve.pr()
    # sklearn: increasing thresholds, plus a final (recall 0, precision 1) point with no
    # threshold; ours: decreasing, with the 0/0 point (recall 0, precision NaN) first.
    np.testing.assert_array_equal(pr["threshold"].to_numpy()[1:][::-1], thr_pr)
    np.testing.assert_allclose(pr["recall"].to_numpy()[1:][::-1], recall[:-1], atol=TOL, rtol=0)
    np.testing.assert_allclose(
        pr["precision"].to_numpy()[1:][::-1], precision[:-1], atol=TOL, rtol=0
    )
    assert np.isnan(pr["precision"].iloc[0]) and pr["recall"].iloc[0] == 0
    assert abs(curve.auc("pr") - skm.average_precision_score(y, s)) <= TOL


@SETTINGS
@given(scored_data(weighted=True))
def test_weighted_curves_match_sklearn(data):
    y, s, w = data
    curve = ScoreCurve.from_scores(y, s, sample_weight=w)
    fpr, tpr, thr = skm.roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    roc = curve.roc()
    np.testing.assert_array_equal(roc["threshold"], thr)  # zero weights dropped alike
    np.testing.assert_allclose(roc["fpr"], fpr, rtol=0, atol=TOL)
    np.testing.assert_allclose(roc["tpr"], tpr, rtol=0, atol=TOL)
    assert abs(curve.auc() - skm.roc_auc_score(y, s, sample_weight=w)) <= TOL
    precision, recall, _ = skm.precision_recall_curve(y, s, sample_weight=w)
    pr = curve.pr()
    np.testing.assert_allclose(pr["recall"].to_numpy()[1:][::-1], recall[:-1], atol=TOL, rtol=0)
    np.testing.assert_allclose(
        pr["precision"].to_numpy()[1:][::-1], precision[:-1], atol=TOL, rtol=0
    )
    assert abs(curve.auc("pr") - skm.average_precision_score(y, s, sample_weight=w)) <= TOL
    assert curve.n == pytest.approx(w.sum(), rel=1e-12)
    assert curve.prevalence == pytest.approx(w[y == 1].sum() / w.sum(), rel=1e-12)


def test_large_continuous_data_match_sklearn():
    # Tens of thousands of rows, both class orders (positives the smaller and the larger
    # class: the merge places the smaller class into the larger one).
    rng = np.random.default_rng(7)
    for prevalence in (0.1, 0.8):
        y = (rng.random(30_000) < prevalence).astype(int)
        s = rng.normal(size=y.size) + y
        s[:500] = np.round(s[:500], 1)  # a few ties among continuous scores
        curve = ScoreCurve.from_scores(y, s)
        fpr, tpr, thr = skm.roc_curve(y, s, drop_intermediate=False)
        np.testing.assert_array_equal(curve.roc()["threshold"], thr)
        np.testing.assert_allclose(curve.alpha, fpr, atol=TOL, rtol=0)
        np.testing.assert_allclose(1 - curve.beta, tpr, atol=TOL, rtol=0)
        assert abs(curve.auc() - skm.roc_auc_score(y, s)) <= TOL
        assert abs(curve.auc("pr") - skm.average_precision_score(y, s)) <= TOL
        w = rng.exponential(size=y.size)
        w[:300] = 0.0
        weighted = ScoreCurve.from_scores(y, s, sample_weight=w)
        fpr, tpr, thr = skm.roc_curve(y, s, sample_weight=w, drop_intermediate=False)
        np.testing.assert_array_equal(weighted.roc()["threshold"], thr)
        np.testing.assert_allclose(weighted.alpha, fpr, atol=TOL, rtol=0)
        np.testing.assert_allclose(1 - weighted.beta, tpr, atol=TOL, rtol=0)
        assert abs(weighted.auc() - skm.roc_auc_score(y, s, sample_weight=w)) <= TOL
        assert abs(weighted.auc("pr") - skm.average_precision_score(y, s, sample_weight=w)) <= TOL


# ------------------------------------------------------------- Mann-Whitney
@SETTINGS
@given(scored_data(weighted=True, max_size=40))
def test_roc_auc_is_mann_whitney_with_half_ties(data):
    y, s, w = data
    assert abs(ScoreCurve.from_scores(y, s).auc() - mann_whitney(y, s)) <= TOL
    assert abs(ScoreCurve.from_scores(y, s, sample_weight=w).auc() - mann_whitney(y, s, w)) <= TOL


def test_mann_whitney_fixed_example():
    # 2 positives, 2 negatives, one tied pair: (1 + 1 + 1 + 0.5) / 4.
    curve = ScoreCurve.from_scores([1, 1, 0, 0], [0.9, 0.5, 0.5, 0.1])
    assert curve.auc() == 0.875


# ---------------------------------------------------------------- pROC (R)
def _proc_rows():
    with open(REFERENCE / "proc_reference.csv", newline="") as fh:
        return [r for r in csv.DictReader(fh) if r["quantity"] == "auc"]


@pytest.mark.parametrize("row", _proc_rows(), ids=lambda r: r["dataset"])
def test_roc_auc_matches_proc(row):
    # R: r <- roc(y_true, y_score, levels=c(0,1), direction="<", quiet=TRUE)
    #    as.numeric(auc(r))        (pROC 1.18.0; see proc_reference.meta.txt)
    assert row["r_call"] == "as.numeric(auc(r))"
    data = pd.read_csv(REFERENCE / "data" / f"{row['dataset']}.csv")
    curve = ScoreCurve.from_scores(data["y_true"], data["y_score"])
    assert abs(curve.auc() - float(row["value"])) <= TOL


def test_all_proc_datasets_are_covered():
    assert {r["dataset"] for r in _proc_rows()} == {
        p.stem for p in (REFERENCE / "data").glob("*.csv")
    }


# ------------------------------------------------------------- from_counts
@SETTINGS
@given(scored_data(weighted=False), st.randoms(use_true_random=False))
def test_from_counts_is_identical_to_from_scores(data, rnd):
    y, s, _ = data
    values, inverse = np.unique(s, return_inverse=True)
    pos = np.bincount(inverse, weights=y, minlength=values.size).astype(int)
    neg = np.bincount(inverse, weights=1 - y, minlength=values.size).astype(int)
    # Shuffle the bins and split some of them into two rows (duplicates to merge), and
    # add an empty bin: it holds no rows, so it adds no threshold.
    rows = []
    for v, p, q in zip(values.tolist(), pos.tolist(), neg.tolist(), strict=True):
        if p + q > 1 and rnd.random() < 0.5:
            p1, q1 = rnd.randint(0, p), rnd.randint(0, q)
            rows += [(v, p1, q1), (v, p - p1, q - q1)]
        else:
            rows.append((v, p, q))
    rows.append((1e9, 0, 0))
    rnd.shuffle(rows)
    thr, p_col, n_col = map(np.array, zip(*rows, strict=True))
    a = ScoreCurve.from_counts(thr, p_col, n_col)
    b = ScoreCurve.from_scores(y, s)
    assert a == b
    for name in ("thresholds", "tps", "fps", "alpha", "beta"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name))
        assert getattr(a, name).dtype == getattr(b, name).dtype
    for kind in DEFAULT_RULE:
        assert a.auc(kind) == b.auc(kind)
    # float counts that are whole numbers are the same data
    assert ScoreCurve.from_counts(thr, p_col.astype(float), n_col.astype(float)) == b


@SETTINGS
@given(scored_data(weighted=True))
def test_from_counts_with_weight_totals_matches_weighted_scores(data):
    y, s, w = data
    values, inverse = np.unique(s, return_inverse=True)
    pos = np.bincount(inverse, weights=w * y, minlength=values.size)
    neg = np.bincount(inverse, weights=w * (1 - y), minlength=values.size)
    a = ScoreCurve.from_counts(values, pos, neg)
    b = ScoreCurve.from_scores(y, s, sample_weight=w)
    np.testing.assert_array_equal(a.thresholds, b.thresholds)
    np.testing.assert_allclose(a.tps, b.tps, rtol=1e-13)
    np.testing.assert_allclose(a.fps, b.fps, rtol=1e-13)
    assert abs(a.auc() - b.auc()) <= TOL and abs(a.auc("pr") - b.auc("pr")) <= TOL


def test_integer_weights_give_integer_counts():
    c = ScoreCurve.from_scores([1, 0, 1, 0], [0.9, 0.8, 0.3, 0.1], sample_weight=[2, 1, 3, 1])
    assert c.is_integer and c.tps.dtype == np.int64
    assert c == ScoreCurve.from_counts([0.9, 0.8, 0.3, 0.1], [2, 0, 3, 0], [0, 1, 0, 1])
    assert not ScoreCurve.from_scores([1, 0], [0.9, 0.1], sample_weight=[0.5, 1]).is_integer


# ------------------------------------------------------------ structure
def test_endpoints_and_shapes():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 200)
    s = rng.integers(0, 10, 200) / 10
    c = ScoreCurve.from_scores(y, s)
    J = c.thresholds.size
    assert np.unique(s).size == J
    assert c.alpha.shape == c.beta.shape == (J + 1,)
    assert (c.alpha[0], c.beta[0]) == (0.0, 1.0)
    assert (c.alpha[-1], c.beta[-1]) == (1.0, 0.0)
    assert np.all(np.diff(c.thresholds) < 0)
    assert np.all(np.diff(c.alpha) >= 0) and np.all(np.diff(c.beta) <= 0)
    assert c.n == 200 and c.n_positive == y.sum() and c.n_negative == 200 - y.sum()
    assert c.prevalence == y.mean()
    for kind, cols in {
        "roc": ("fpr", "tpr"),
        "pr": ("recall", "precision"),
        "lift": ("rate", "lift"),
        "gain": ("rate", "gain"),
    }.items():
        frame = c.curve(kind)
        assert list(frame.columns) == ["threshold", *cols] and len(frame) == J + 1
        assert frame["threshold"].iloc[0] == np.inf
    gain = c.gain()
    np.testing.assert_allclose(gain["rate"].to_numpy()[1:], (c.tps + c.fps) / c.n, atol=TOL)
    np.testing.assert_allclose(gain["gain"].to_numpy()[1:], c.tps / c.n_positive, atol=TOL)
    lift = c.lift()
    np.testing.assert_allclose(
        lift["lift"].to_numpy()[1:], c.tps / (c.tps + c.fps) / c.prevalence, atol=1e-12
    )


def test_nauc_uses_the_ideal_auc():
    c = ScoreCurve.from_scores([0, 1, 0, 0, 1, 0, 0, 0, 0, 1], np.arange(10) / 10)
    pi = 0.3
    assert c.nauc("roc") == c.auc("roc")
    assert c.nauc("lift") == pytest.approx(c.auc("lift") / (1 + np.log(1 / pi)), rel=1e-14)
    assert c.nauc("gain") == pytest.approx(c.auc("gain") / (1 - pi / 2), rel=1e-14)
    perfect = ScoreCurve.from_scores([0, 0, 0, 1], [0.1, 0.2, 0.3, 0.9])
    for kind in ("roc", "pr", "gain"):
        assert perfect.nauc(kind) == pytest.approx(1.0, abs=1e-14)
    # The ideal lift AUC 1 + ln(1/pi) is the area under 1/q on [pi, 1] (plus pi * 1/pi);
    # the step rule on the perfect classifier's few points (q = 1/4, 1/2, 3/4, 1) gives
    # the right-endpoint sum 1/4 * (4 + 2 + 4/3 + 1), less than the ideal.
    assert perfect.auc("lift") == pytest.approx(0.25 * (4 + 2 + 4 / 3 + 1), rel=1e-14)


@SETTINGS
@given(scored_data(weighted=True), st.booleans(), st.floats(0.01, 1.0))
def test_reduced_points_give_the_full_curves_results(data, weighted, u):
    # auc() and value_at() hand the geometry the curve without the interior points of
    # negatives-only runs; the results must be those of the full (alpha, beta).
    y, s, w = data
    curve = ScoreCurve.from_scores(y, s, sample_weight=w if weighted else None)
    pi, a, b = curve.prevalence, curve.alpha, curve.beta
    ra, rb = curve._geometry_points()
    assert ra.size <= a.size and (ra[0], rb[0], ra[-1], rb[-1]) == (0.0, 1.0, 1.0, 0.0)
    with np.errstate(invalid="ignore"):
        for kind in ("roc", "pr", "gain", "lift"):
            for rule in ("trapezoid", "step"):
                spec = parse_area(f"{kind}_auc", rule)
                full = curve_area(spec, pi, a, b)
                assert curve.auc(kind, rule) == pytest.approx(full, rel=1e-12, abs=1e-12)
    for axis in ("recall", "fpr", "rate"):
        for metric in ("precision", "lift", "f1", "mcc", "recall", "fpr"):
            point = parse_at(metric, {axis: u})
            full = float(value_at(point, pi, a, b))
            got = float(value_at(point, pi, ra, rb))
            assert got == pytest.approx(full, rel=1e-12, abs=1e-12) or (
                np.isnan(got) and np.isnan(full)
            )


def test_area_rules_can_be_chosen():
    c = ScoreCurve.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    assert c.auc("roc", rule="step") == 0.5 * 0 + 0.5 * 1.0 * 0 + 0.75  # right-endpoint sum
    assert c.auc("gain", rule="step") == 0.75


def test_trapezoid_pr_and_lift_auc_use_the_first_segment_limit():
    """At (alpha, beta) = (0, 1) precision and lift are 0/0; the geometry uses their
    limit along the first segment (the next point's y). By hand for this curve:
    PR points (recall, precision) (0, 1*), (.5, 1), (.5, 1/2), (1, 2/3), (1, 1/2):
    trapezoid area .5 * 1 + .5 * (1/2 + 2/3) / 2 = 19/24; lift points (q, lift)
    (0, 2*), (.25, 2), (.5, 1), (.75, 4/3), (1, 1): area 35/24."""
    c = ScoreCurve.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    assert c.auc("pr", rule="trapezoid") == pytest.approx(19 / 24, abs=1e-15)
    assert c.auc("lift", rule="trapezoid") == pytest.approx(35 / 24, abs=1e-15)


def test_immutable_and_picklable():
    c = ScoreCurve.from_scores([0, 1, 1, 0], [0.2, 0.9, 0.4, 0.4])
    with pytest.raises(AttributeError, match="immutable"):
        c.foo = 1
    for name in ("thresholds", "tps", "fps", "alpha", "beta"):
        with pytest.raises(ValueError, match="read-only"):
            getattr(c, name)[0] = 5
    assert pickle.loads(pickle.dumps(c)) == c
    # the constructor copies: the caller's arrays stay writeable
    thr, tp, fp = np.array([0.9, 0.4, 0.2]), np.array([1, 2, 2]), np.array([0, 1, 2])
    d = ScoreCurve(thr, tp, fp)
    assert d == c and thr.flags.writeable
    assert repr(c) == "ScoreCurve(n=4, n_positive=2, n_negative=2, thresholds=3, roc_auc=0.875)"


def test_labels_and_pos_label():
    s = [0.9, 0.2, 0.6, 0.4]
    ref = ScoreCurve.from_scores([1, 0, 1, 0], s)
    assert ScoreCurve.from_scores([True, False, True, False], s) == ref
    assert ScoreCurve.from_scores([1, -1, 1, -1], s) == ref
    assert ScoreCurve.from_scores([1.0, 0.0, 1.0, 0.0], s) == ref
    assert ScoreCurve.from_scores(["a", "b", "a", "b"], s, pos_label="a") == ref
    assert ScoreCurve.from_scores([0, 1, 0, 1], s, pos_label=0) == ref
    assert ScoreCurve.from_scores(pd.Series([2, 5, 2, 5]), pd.Series(s), pos_label=2) == ref


# --------------------------------------------------------- operating points
@SETTINGS
@given(
    scored_data(weighted=True, max_size=40),
    st.floats(0.01, 1.0),
    st.sampled_from(
        [
            ("recall", "precision"),
            ("recall", "f1"),
            ("fpr", "recall"),
            ("rate", "lift"),
            ("rate", "precision"),
        ]
    ),
    st.booleans(),
)
def test_value_at_matches_slow_eq9(data, u, axis_metric, weighted):
    y, s, w = data
    w = w if weighted else None
    x_name, metric = axis_metric
    curve = ScoreCurve.from_scores(y, s, sample_weight=w)
    got = curve.value_at(metric, at={x_name: u})
    want = slow_value_at(y, s, w, x_name, u, metric)
    assert got == pytest.approx(want, rel=1e-10, abs=1e-12)


def test_value_at_top_k_is_rate_and_matches_confusion_matrix():
    rng = np.random.default_rng(11)
    y = rng.integers(0, 2, 300)
    s = rng.integers(0, 20, 300)  # heavy ties: top_k often lands inside a block
    curve = ScoreCurve.from_scores(y, s)
    for k in (1, 7, 50, 149, 150, 299, 300):
        lift = curve.value_at("lift", top_k=k)
        assert lift == curve.value_at("lift", at={"rate": k / 300})
        cm = curve.confusion_matrix(top_k=k)
        assert cm.tp + cm.fp == pytest.approx(k, abs=1e-9)
        assert cm.metric("lift") == pytest.approx(lift, rel=1e-12)
        assert cm.metric("precision") == pytest.approx(
            curve.value_at("precision", top_k=k), rel=1e-12
        )


def test_value_at_precision_example_by_hand():
    # Sorted: 0.8(+) 0.5(+) 0.4(-) 0.35(+) 0.2(-) 0.1(-). Recall 0.9 lies between the
    # points (tp, fp) = (2, 1) [recall 2/3] and (3, 1) [recall 1]: t = 0.7, so
    # tp = 2.7, fp = 1 and precision = 2.7 / 3.7.
    curve = ScoreCurve.from_scores([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.5])
    assert curve.value_at("precision", at={"recall": 0.9}) == pytest.approx(2.7 / 3.7, rel=1e-14)
    assert curve.value_at("fbeta", at={"recall": 0.9}, beta=2) == pytest.approx(
        5 * 2.7 / (5 * 2.7 + 4 * 0.3 + 1), rel=1e-14
    )


# ------------------------------------------------------- confusion matrices
@SETTINGS
@given(scored_data(weighted=True, max_size=40), st.booleans())
def test_confusion_matrix_at_threshold_matches_from_predictions(data, weighted):
    y, s, w = data
    w = w if weighted else None
    curve = ScoreCurve.from_scores(y, s, sample_weight=w)
    # (a threshold must be finite: +-inf are refused, tested in TestErrors)
    candidates = [*list(np.unique(s)), s.min() - 1, s.max() + 1, float(np.mean(s))]
    for t in candidates:
        got = curve.confusion_matrix(threshold=t)
        want = ConfusionMatrix.from_predictions(y, (s >= t).astype(int), sample_weight=w)
        for cell in ("tp", "fp", "fn", "tn"):
            assert getattr(got, cell) == pytest.approx(getattr(want, cell), rel=1e-12, abs=1e-12)


def test_top_k_tie_rules():
    # desc: 0.9(+) | 0.7(-) 0.7(+) 0.7(-) | 0.1(-): K = 2 falls inside the 0.7 block.
    curve = ScoreCurve.from_scores([1, 0, 1, 0, 0], [0.9, 0.7, 0.7, 0.7, 0.1])
    inc = curve.confusion_matrix(top_k=2, ties="include")
    exc = curve.confusion_matrix(top_k=2, ties="exclude")
    mid = curve.confusion_matrix(top_k=2)
    assert inc == curve.confusion_matrix(threshold=0.7)
    assert exc == curve.confusion_matrix(threshold=0.8)
    # one of the three tied rows (1 positive, 2 negatives) taken at random
    assert (mid.tp, mid.fp) == pytest.approx((1 + 1 / 3, 2 / 3), rel=1e-15)
    assert mid.fn == pytest.approx(2 / 3) and mid.tn == pytest.approx(2 + 1 / 3)
    # K on a block boundary: every rule gives the threshold's whole counts
    for ties in ("interpolate", "include", "exclude"):
        assert curve.confusion_matrix(top_k=4, ties=ties) == curve.confusion_matrix(threshold=0.7)
        assert curve.confusion_matrix(top_k=5, ties=ties) == ConfusionMatrix(tp=2, fp=3, fn=0, tn=0)
        assert curve.confusion_matrix(top_k=1, ties=ties) == ConfusionMatrix(tp=1, fp=0, fn=1, tn=3)


def test_undefined_value_warns():
    # lift at rate u is defined everywhere on (0, 1]; markedness at a point with no
    # predicted negatives is 0/0.
    curve = ScoreCurve.from_scores([1, 0, 1, 0], [0.9, 0.8, 0.3, 0.1])
    with pytest.warns(UndefinedMetricWarning, match="Markedness"):
        assert np.isnan(curve.value_at("markedness", at={"rate": 1.0}))


# ------------------------------------------------------------------ summary
def test_summary_text_and_frame():
    curve = ScoreCurve.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    summary = curve.summary()
    frame = summary.to_frame()
    assert frame.loc[("area", "AUC(ROC, trapezoid)"), "value"] == 0.75
    assert frame.loc[("data", "prevalence"), "value"] == 0.5
    text = str(summary)
    assert text.splitlines()[0] == "Score curve (n = 4, prevalence = 0.5)"
    assert re.search(r"\n +AUC\(PR, step\) +0\.8333\n", text), text
    assert "<strong>" in summary._repr_html_()
    out_of_range = ScoreCurve.from_scores([0, 1], [-2.0, 3.0], sample_weight=[0.5, 1.0])
    notes = out_of_range.summary().notes
    assert "Counts are weighted sums of `sample_weight`." in notes
    assert any("need scores in [0, 1]" in n for n in notes)


# ------------------------------------------------------------------- errors
class TestErrors:
    def test_y_true_single_class(self):
        with pytest.raises(
            ValueError,
            match=r"`y_true` must contain both classes; got only "
            r"the negative class \(3 rows\)",
        ):
            ScoreCurve.from_scores([0, 0, 0], [0.1, 0.2, 0.3])
        with pytest.raises(
            ValueError, match="`y_true` must contain both classes; got only the positive class"
        ):
            ScoreCurve.from_scores([1, 1], [0.1, 0.2])

    def test_y_true_not_binary(self):
        with pytest.raises(ValueError, match="at most two distinct values"):
            ScoreCurve.from_scores([0, 1, 2], [0.1, 0.2, 0.3])
        with pytest.raises(ValueError, match="`pos_label` must be given"):
            ScoreCurve.from_scores(["a", "b"], [0.1, 0.2])
        with pytest.raises(ValueError, match="`pos_label` must be one of the labels"):
            ScoreCurve.from_scores([0, 1], [0.1, 0.2], pos_label=3)
        with pytest.raises(ValueError, match="`y_true` must not contain NaN"):
            ScoreCurve.from_scores([0, np.nan, 1], [0.1, 0.2, 0.3])

    def test_y_score(self):
        with pytest.raises(
            ValueError,
            match=r"`y_score` must contain only finite numbers; "
            r"got 1 NaN or infinite value\(s\), the first at "
            r"position 1",
        ):
            ScoreCurve.from_scores([0, 1, 1], [0.1, np.nan, 0.3])
        with pytest.raises(ValueError, match="`y_score` must contain only finite numbers"):
            ScoreCurve.from_scores([0, 1], [0.1, np.inf])
        with pytest.raises(TypeError, match="`y_score` must be numeric"):
            ScoreCurve.from_scores([0, 1], ["a", "b"])
        with pytest.raises(ValueError, match="`y_score` must be 1-dimensional"):
            ScoreCurve.from_scores([0, 1], [[0.1, 0.2], [0.3, 0.4]])

    def test_lengths(self):
        with pytest.raises(
            ValueError, match="`y_true` and `y_score` must have the same length; got 3 and 2"
        ):
            ScoreCurve.from_scores([0, 1, 1], [0.1, 0.2])

    def test_sample_weight(self):
        with pytest.raises(
            ValueError, match=r"`sample_weight` must be non-negative; got .*-1.* at position 1"
        ):
            ScoreCurve.from_scores([0, 1], [0.1, 0.2], sample_weight=[1, -1])
        with pytest.raises(
            ValueError,
            match=r"`sample_weight` must have one weight per row "
            r"\(2\); got 3",
        ):
            ScoreCurve.from_scores([0, 1], [0.1, 0.2], sample_weight=[1, 1, 1])
        with pytest.raises(
            ValueError,
            match="`sample_weight` must give both classes a "
            "positive total weight; got only negative",
        ):
            ScoreCurve.from_scores([0, 1, 0], [0.1, 0.2, 0.3], sample_weight=[1, 0, 1])
        with pytest.raises(ValueError, match="`sample_weight` must not be all zero"):
            ScoreCurve.from_scores([0, 1], [0.1, 0.2], sample_weight=[0, 0])
        with pytest.raises(ValueError, match="`sample_weight` must contain only finite"):
            ScoreCurve.from_scores([0, 1], [0.1, 0.2], sample_weight=[1, np.nan])

    def test_from_counts(self):
        with pytest.raises(
            ValueError, match="`positives` must be non-negative counts; got -1 at position 1"
        ):
            ScoreCurve.from_counts([0.1, 0.2], [1, -1], [1, 1])
        with pytest.raises(ValueError, match="`negatives` must have a positive total"):
            ScoreCurve.from_counts([0.1, 0.2], [1, 1], [0, 0])
        with pytest.raises(
            ValueError, match="`thresholds` and `negatives` must have the same length"
        ):
            ScoreCurve.from_counts([0.1, 0.2], [1, 1], [1])
        with pytest.raises(ValueError, match="`thresholds` must contain only finite"):
            ScoreCurve.from_counts([0.1, np.nan], [1, 1], [1, 1])
        with pytest.raises(ValueError, match="`negatives` must contain only finite"):
            ScoreCurve.from_counts([0.1, 0.2], [1, 1], [1, np.inf])

    def test_constructor(self):
        with pytest.raises(ValueError, match="`thresholds` must be strictly decreasing"):
            ScoreCurve([0.1, 0.5], [1, 2], [0, 1])
        with pytest.raises(ValueError, match="`fps` must be non-negative and non-decreasing"):
            ScoreCurve([0.5, 0.1], [1, 2], [1, 0])
        with pytest.raises(ValueError, match="`tps` must end with a positive total"):
            ScoreCurve([0.5, 0.1], [0, 0], [1, 2])
        with pytest.raises(ValueError, match=r"`tps \+ fps` must be strictly increasing"):
            ScoreCurve([0.5, 0.1], [1, 1], [1, 1])
        with pytest.raises(
            ValueError, match="`thresholds` and `fps` must have the same length; got 2 and 1"
        ):
            ScoreCurve([0.5, 0.1], [1, 2], [1])

    def test_areas(self):
        c = ScoreCurve.from_scores([0, 1], [0.1, 0.2])
        with pytest.raises(
            ValueError, match="`kind` must be one of 'roc', 'pr', 'lift', 'gain'; got 'ROC'"
        ):
            c.auc("ROC")
        with pytest.raises(
            ValueError, match="`rule` must be one of 'trapezoid', 'step'; got 'simpson'"
        ):
            c.auc("pr", rule="simpson")
        with pytest.raises(ValueError, match="`kind` must be one of"):
            c.nauc("precision")
        with pytest.raises(ValueError, match="`kind` must be one of"):
            c.curve("det")

    def test_value_at(self):
        c = ScoreCurve.from_scores([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4])
        with pytest.raises(TypeError, match="give exactly one of `at`"):
            c.value_at("precision")
        with pytest.raises(TypeError, match="give exactly one of `at`"):
            c.value_at("precision", at={"recall": 0.5}, top_k=2)
        with pytest.raises(
            ValueError,
            match=r"`top_k` must be at most the number of rows "
            r"n = 4",
        ):
            c.value_at("precision", top_k=5)
        with pytest.raises(ValueError, match="`top_k` must be an integer >= 1; got 0"):
            c.value_at("precision", top_k=0)
        with pytest.raises(TypeError, match="`top_k` must be an integer"):
            c.value_at("precision", top_k=1.5)
        with pytest.raises(ValueError, match="the key of `at` must be one of"):
            c.value_at("precision", at={"precision": 0.5})
        with pytest.raises(ValueError, match=r"`at\['recall'\]` must be in \[0, 1\]"):
            c.value_at("precision", at={"recall": -0.01})
        with pytest.raises(ValueError, match=r"unknown metric|not a registered|no metric"):
            c.value_at("precisionn", at={"recall": 0.5})
        w = ScoreCurve.from_scores([0, 1], [0.1, 0.2], sample_weight=[0.5, 0.5])
        assert w.value_at("recall", top_k=0.5) == 1.0  # weight units for weighted data
        with pytest.raises(ValueError, match="`top_k` must be in"):
            w.value_at("recall", top_k=-1.0)

    def test_confusion_matrix(self):
        c = ScoreCurve.from_scores([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4])
        with pytest.raises(TypeError, match="give exactly one of `threshold` and `top_k`"):
            c.confusion_matrix()
        with pytest.raises(TypeError, match="give exactly one of `threshold` and `top_k`"):
            c.confusion_matrix(threshold=0.2, top_k=1)
        with pytest.raises(
            ValueError,
            match="`ties` must be one of 'interpolate', 'include', 'exclude'; got 'random'",
        ):
            c.confusion_matrix(top_k=1, ties="random")
        with pytest.raises(ValueError, match=r"`threshold` must be a finite number .*; got"):
            c.confusion_matrix(threshold=np.nan)
        # +inf and -inf are the curve's two ends: nothing, everything predicted positive
        assert c.confusion_matrix(threshold=np.inf) == ConfusionMatrix(tp=0, fp=0, fn=2, tn=2)
        assert c.confusion_matrix(threshold=-np.inf) == ConfusionMatrix(tp=2, fp=2, fn=0, tn=0)
        with pytest.raises(TypeError, match="`threshold` must be a real number"):
            c.confusion_matrix(threshold="0.2")
        with pytest.raises(ValueError, match="`top_k` must be at most"):
            c.confusion_matrix(top_k=10)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64])
def test_weighted_counts_by_one_sort_match_argsort_and_sklearn(dtype):
    # float scores are sorted with their signed weights as complex numbers
    # (curves/_counting.py weighted_blocks), integer ones by an argsort per class
    # (class_sorted): both must give each score's weight per class, ties and all, and
    # the curve scikit-learn's roc_curve gives
    rng = np.random.default_rng(11)
    n = 20_000
    y = (rng.random(n) < 0.3).astype(int)
    s = np.round(rng.normal(y * 1.0, 1.0) * 20).astype(dtype)  # many ties
    w = rng.exponential(1.0, n)
    w[::7] = 0.0  # zero weights (of either class)
    w[::11] = 2.0  # equal weights inside tie blocks
    thr, wpos, wneg = weighted_blocks(s, y == 1, w)
    assert thr.dtype == s.dtype
    np.testing.assert_array_equal(thr, np.unique(s)[::-1])
    for got, cls in ((wpos, 1), (wneg, 0)):  # per score and class, summed by pandas
        want = pd.Series(w * (y == cls)).groupby(s).sum().sort_index(ascending=False)
        np.testing.assert_allclose(got, want.to_numpy(), rtol=1e-12, atol=0)
    desc, positive, weight = class_sorted(s, y == 1, w)
    np.testing.assert_array_equal(desc, np.sort(s)[::-1])
    assert positive.sum() == (y == 1).sum() and weight.sum() == pytest.approx(w.sum())
    keep = w > 0
    curve = ScoreCurve.from_scores(y, s, sample_weight=w)
    fpr, tpr, thresholds = skm.roc_curve(
        y[keep], s[keep], sample_weight=w[keep], drop_intermediate=False
    )
    roc = curve.roc()
    np.testing.assert_array_equal(roc["threshold"], thresholds)
    np.testing.assert_allclose(roc["fpr"], fpr, rtol=0, atol=TOL)
    np.testing.assert_allclose(roc["tpr"], tpr, rtol=0, atol=TOL)
    assert abs(curve.auc() - skm.roc_auc_score(y, s, sample_weight=w)) <= TOL
