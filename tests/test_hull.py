"""ROC convex hull, iso-performance lines, the optimal operating point, calibration by
the hull (PAV), Gini and the equal error rate (docs/method.md#vocabulary), against slow
obvious implementations, scipy.spatial.ConvexHull and scikit-learn's
IsotonicRegression."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy.spatial import ConvexHull
from sklearn.isotonic import IsotonicRegression
from test_partial_auc import _data

from opsstats import DirectedBinaryTree, ScoreCurve
from opsstats.curves.hull import (
    calibrate,
    calibrated_curve,
    iso_line,
    optimal_point,
    roc_hull,
    skew_ratio,
)


def _curves(seed: int, k: int = 2, n: int = 60, decimals: int = 1) -> list[ScoreCurve]:
    rng = np.random.default_rng(seed)
    out = []
    for j in range(k):
        y = rng.integers(0, 2, n)
        y[:2] = [0, 1]
        s = np.round(rng.normal(y * (0.5 + 0.5 * j), 1), decimals)
        out.append(ScoreCurve.from_scores(y, s))
    return out


def _slow_vertices(x: np.ndarray, y: np.ndarray) -> set[tuple[float, float]]:
    """A point is a vertex of the upper-left hull iff it is not (weakly) below a segment
    between two other distinct points (or the point (0, 0) / (1, 1)) spanning its FPR,
    nor dominated by a point with FPR <= and TPR >= (not the same point)."""
    pts = sorted(set(zip(x.tolist(), y.tolist(), strict=True)) | {(0.0, 0.0), (1.0, 1.0)})
    out = {(0.0, 0.0), (1.0, 1.0)}  # the hull runs from the origin to (1, 1)
    for p in pts:
        if p in out:
            continue
        dominated = any(
            q != p and q[0] <= p[0] and q[1] >= p[1] and (q[0] < p[0] or q[1] > p[1]) for q in pts
        )
        below = False
        for a, b in itertools.combinations(pts, 2):
            if a == p or b == p or a[0] == b[0]:
                continue
            lo, hi = (a, b) if a[0] < b[0] else (b, a)
            if lo[0] <= p[0] <= hi[0]:
                t = (p[0] - lo[0]) / (hi[0] - lo[0])
                if lo[1] + t * (hi[1] - lo[1]) >= p[1] - 1e-12:
                    below = True
                    break
        if not dominated and not below:
            out.add(p)
    return out


@pytest.mark.parametrize("seed", range(6))
def test_hull_vertices_against_slow_and_scipy(seed):
    curves = _curves(seed, k=1 + seed % 3, n=30 + 10 * seed)
    h = roc_hull(curves)
    got = {(round(a, 12), round(b, 12)) for a, b in h[h.vertex][["fpr", "tpr"]].to_numpy()}
    slow = {(round(a, 12), round(b, 12)) for a, b in _slow_vertices(h.fpr.values, h.tpr.values)}
    assert got == slow
    # scipy: the convex hull of the points with the corner (1, 0); its vertices other
    # than (1, 0) are the upper-left hull (the other edges run along TPR = 0 and FPR = 1)
    pts = np.vstack([h[["fpr", "tpr"]].drop_duplicates().to_numpy(), [[1.0, 0.0]]])
    ch = ConvexHull(pts)
    sp = {(round(a, 12), round(b, 12)) for a, b in pts[ch.vertices] if (a, b) != (1.0, 0.0)}
    assert got == sp


def test_on_hull_and_which_classifier():
    # a: ROC (0, 1/3) (1/3, 1/3) (1/3, 2/3) (2/3, 2/3) (2/3, 1) (1, 1)
    # b: ROC (0, 1/3) (0, 2/3) (1/3, 2/3) (2/3, 2/3) (1, 2/3) (1, 1)
    # hull: (0, 0) -> (0, 2/3) [b] -> (2/3, 1) [a] -> (1, 1)
    a = ScoreCurve.from_scores([1, 0, 1, 0, 1, 0], [0.9, 0.8, 0.7, 0.6, 0.5, 0.4])
    b = ScoreCurve.from_scores([1, 1, 0, 0, 0, 1], [0.9, 0.8, 0.7, 0.6, 0.5, 0.4])
    h = roc_hull([a, b])
    inner = h[h.vertex & (h.tpr > 0) & (h.fpr < 1)]
    got = sorted(
        (round(f, 6), round(t, 6), int(c)) for f, t, c in inner[["fpr", "tpr", "classifier"]].values
    )
    assert got == [(0.0, 0.666667, 1), (0.666667, 1.0, 0)]
    # points on an edge but not vertices: on_hull (b's (0, 1/3) on the FPR = 0 edge)
    edge = h[h.on_hull & ~h.vertex]
    assert ((edge.fpr == 0) & (edge.classifier == 1)).any()
    assert not h[(h.classifier == 0) & (h.fpr == 1 / 3)].on_hull.any()


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("prevalence, c_fp, c_fn", [(0.5, 1, 1), (0.1, 1, 5), (0.3, 4, 1)])
def test_optimal_point_is_the_least_cost_point(seed, prevalence, c_fp, c_fn):
    curves = _curves(seed, k=2)
    p = optimal_point(curves, prevalence, c_fp, c_fn)
    # brute force over every point of every curve
    costs = []
    for c in curves:
        roc = c.roc()
        costs.extend(prevalence * c_fn * (1 - roc.tpr) + (1 - prevalence) * c_fp * roc.fpr)
    assert p.expected_cost == pytest.approx(min(costs), abs=1e-12)
    assert p.skew_ratio == pytest.approx((1 - prevalence) / prevalence * c_fp / c_fn)


def test_iso_lines_hold_their_metric():
    rng = np.random.default_rng(0)
    P, N = 30, 90
    r = N / P
    for metric, value in (("accuracy", 0.8), ("precision", 0.4), ("cost", 0.3)):
        line = iso_line(metric, value, r)
        fpr = rng.uniform(0, 0.3, 20)
        tpr = line.tpr(fpr)
        tp, fp = tpr * P, fpr * N
        if metric == "accuracy":
            got = (tp + N - fp) / (P + N)
        elif metric == "precision":
            got = tp / (tp + fp)
        else:  # normalized expected cost (1 - TPR) + r FPR, unit costs
            got = (1 - tpr) + r * fpr
        assert np.allclose(got, value, atol=1e-12), metric


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: iso_line("f1", 0.5, 1.0), ValueError, "`metric` must be one of"),
        (lambda: iso_line("accuracy", 1.5, 1.0), ValueError, r"`value` of an accuracy"),
        (lambda: iso_line("precision", 1.0, 1.0), ValueError, r"`value` of a precision"),
        (lambda: iso_line("accuracy", 0.5, 0.0), ValueError, "`skew`"),
        (lambda: skew_ratio(1.0), ValueError, r"`prevalence` must be in \(0, 1\)"),
        (lambda: skew_ratio(1.5), ValueError, "`prevalence`"),
        (lambda: skew_ratio(0.5, cost_fp=-1), ValueError, "`cost_fp`"),
        (lambda: roc_hull([]), TypeError, "`curves` must be a ScoreCurve"),
        (lambda: optimal_point("x", 0.5), TypeError, "`curves`"),
    ],
)
def test_bad_hull_arguments(call, error, match):
    with pytest.raises(error, match=match):
        call()


@pytest.mark.parametrize("dataset", ["aSAH", "small_ties", "medium", "weak"])
def test_pav_calibration_matches_sklearn_isotonic(dataset):
    y, s = _data(dataset)
    curve = ScoreCurve.from_scores(y, s)
    cal = calibrate(curve)
    iso = IsotonicRegression(out_of_bounds="clip").fit(s, y)
    np.testing.assert_allclose(cal["calibrated"], iso.predict(cal["score"]), atol=1e-12)
    assert np.all(np.diff(cal["calibrated"]) >= 0)


@pytest.mark.parametrize("dataset", ["aSAH", "small_ties", "medium", "weak"])
def test_calibrated_curve_is_the_hull(dataset):
    y, s = _data(dataset)
    curve = ScoreCurve.from_scores(y, s)
    new = calibrated_curve(curve)
    h = roc_hull(curve)
    hv = h[h.vertex][["fpr", "tpr"]].to_numpy()
    roc = new.roc()[["fpr", "tpr"]].to_numpy()
    # every vertex of the hull is a point of the calibrated curve, and the calibrated
    # curve has no point strictly inside the hull
    for v in hv:
        assert np.any(np.all(np.abs(roc - v) < 1e-12, axis=1)), v
    inner = roc[:, 0] > 0  # (the FPR = 0 column is a vertical edge)
    assert np.all(np.interp(roc[inner, 0], hv[:, 0], hv[:, 1]) <= roc[inner, 1] + 1e-12)
    assert new.auc() >= curve.auc() - 1e-15
    assert new.auc() == pytest.approx(np.trapezoid(hv[:, 1], hv[:, 0]), abs=1e-12)


def test_gini_and_its_ops_equal_the_aucs():
    y, s = _data("medium")
    curve = ScoreCurve.from_scores(y, s)
    assert curve.gini() == pytest.approx(2 * curve.auc() - 1, abs=1e-15)
    ref = DirectedBinaryTree(depth=5, n_curves=4000)
    g, a = curve.ops("gini", reference=ref), curve.ops("roc_auc", reference=ref)
    assert g.estimate == a.estimate and g.standard_error == a.standard_error
    assert g.value == pytest.approx(2 * a.value - 1, abs=1e-15)
    gi, ai = (
        curve.interval("gini", method="bootstrap", rng=4),
        curve.interval("roc_auc", method="bootstrap", rng=4),
    )
    assert gi.ci.low == pytest.approx(2 * ai.ci.low - 1, abs=1e-12)


@pytest.mark.parametrize("dataset", ["aSAH", "small_ties", "medium", "weak", "perfect"])
def test_equal_error_rate_against_a_slow_crossing(dataset):
    y, s = _data(dataset)
    curve = ScoreCurve.from_scores(y, s)
    roc = curve.roc()
    # slow: walk the segments and solve FPR = 1 - TPR on the first one that crosses
    fpr, tpr = roc.fpr.to_numpy(), roc.tpr.to_numpy()
    want = None
    for k in range(1, fpr.size):
        d0, d1 = fpr[k - 1] - (1 - tpr[k - 1]), fpr[k] - (1 - tpr[k])
        if d1 >= 0:
            t = 1.0 if d1 == d0 else -d0 / (d1 - d0)
            want = fpr[k - 1] + t * (fpr[k] - fpr[k - 1])
            break
    assert curve.eer() == pytest.approx(want, abs=1e-12)
    # at the crossing FPR = FNR: the curve's TPR there is 1 - EER
    e = curve.eer()
    if dataset != "perfect":
        assert curve.value_at("recall", at={"fpr": e}) == pytest.approx(1 - e, abs=1e-9)


def test_eer_ops_is_lower_is_better():
    y, s = _data("medium")
    good = ScoreCurve.from_scores(y, s)
    bad = ScoreCurve.from_scores(y, -s)
    ref = DirectedBinaryTree(depth=5, n_curves=2000)
    assert good.ops("eer", reference=ref).estimate > bad.ops("eer", reference=ref).estimate
    with pytest.raises(TypeError, match="takes no metric parameters"):
        good.ops("gini", reference=ref, fpr_range=(0, 1))
