"""ScoreCurve.at_prevalence: the same ROC curve at a stated prevalence
(docs/method.md#standardized-prevalence).

Its ROC points are the original's exactly; every area, operating point and confusion
matrix is that of the original rows reweighted to the prevalence (class weights;
scikit-learn's weighted average precision and ROC AUC as independent oracles), to
1e-12; its intervals resample the original's rows and read the quantity at the fixed
prevalence (the jackknife checked against leave-one-row-out curves built here, the
bootstrap against resampled curves built here from the same draws), and two test sets
of one classifier standardized to one prevalence compare as exactly equal.
"""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest
from scipy import integrate, special, stats
from scipy.stats import norm
from sklearn.metrics import average_precision_score, roc_auc_score

from opsstats import ConfusionMatrix, DirectedBinaryTree, ScoreCurve, compare_test_sets
from opsstats.curves._geometry import parse_area
from opsstats.uncertainty.curve._cells import _Cells
from opsstats.uncertainty.curve.resampling import _Multinomial

PREVALENCES = (0.01, 0.1, 0.5, 0.9)


def _data(n=400, pi=0.1, shift=1.2, seed=0, ties=False):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < pi
    s = rng.normal(shift * y, 1)
    return y, (np.round(s, 1) if ties else s)


def _weights(y, pi0, pi):
    return np.where(y, pi / pi0, (1 - pi) / (1 - pi0))


def _close(got, want, tol=1e-12):
    return abs(got - want) <= tol * max(1.0, abs(want))


def test_roc_points_kept_exactly_and_counts_rescaled():
    y, s = _data()
    curve = ScoreCurve.from_scores(y, s)
    for pi in PREVALENCES:
        std = curve.at_prevalence(pi)
        assert std.alpha is curve.alpha and std.beta is curve.beta
        assert std.roc().equals(curve.roc()) and std.det().equals(curve.det())
        assert std.roc(drop_intermediate=True).equals(curve.roc(drop_intermediate=True))
        assert std.prevalence == pi and std.n == curve.n and std.origin is curve
        assert np.array_equal(std.thresholds, curve.thresholds)
        assert np.allclose(std.tps, curve.tps * curve.n * pi / curve.n_positive, rtol=1e-15)
        assert np.allclose(std.fps, curve.fps * curve.n * (1 - pi) / curve.n_negative, rtol=1e-15)
        assert std.auc("roc") == curve.auc("roc") and std.gini() == curve.gini()
    assert curve.at_prevalence(0.7).at_prevalence(0.2) == curve.at_prevalence(0.2)


AREAS = [
    ("roc", None),
    ("roc", "step"),
    ("pr", None),
    ("pr", "trapezoid"),
    ("lift", None),
    ("lift", "trapezoid"),
    ("gain", None),
    ("gain", "step"),
]


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("pi", PREVALENCES)
def test_every_quantity_is_that_of_the_reweighted_rows(pi, ties):
    """Areas (both rules, NAUC), the partial area, Gini, the EER, values at operating
    points (recall, FPR, rate, top K) and confusion matrices at a threshold and for the
    top K: the standardized curve's equal the curve of the rows reweighted to pi."""
    y, s = _data(ties=ties)
    curve = ScoreCurve.from_scores(y, s)
    own = np.random.default_rng(9).uniform(0.5, 2, y.size)
    weighted = ScoreCurve.from_scores(y, s, sample_weight=own)
    for origin, base in ((curve, np.ones(y.size)), (weighted, own)):
        std = origin.at_prevalence(pi)
        rows = ScoreCurve.from_scores(y, s, sample_weight=base * _weights(y, origin.prevalence, pi))
        for kind, rule in AREAS:
            assert _close(std.auc(kind, rule), rows.auc(kind, rule)), (kind, rule)
            assert _close(std.nauc(kind, rule), rows.nauc(kind, rule)), (kind, rule)
        assert _close(std.partial_auc(fpr_range=(0, 0.3)), rows.partial_auc(fpr_range=(0, 0.3)))
        assert _close(std.eer(), rows.eer())
        for metric, at in [
            # x values that fall on no curve point: at a point of a vertical run the
            # value depends on which of its equal x the rows' rounding puts first
            ("precision", {"recall": 0.537}),
            ("f1", {"fpr": 0.213}),
            ("lift", {"rate": 0.1037}),
            ("mcc", {"specificity": 0.903}),
        ]:
            assert _close(std.value_at(metric, at), rows.value_at(metric, at)), (metric, at)
        assert _close(std.value_at("precision", top_k=40), rows.value_at("precision", top_k=40))
        for cm in (
            std.confusion_matrix(threshold=0.8),
            std.confusion_matrix(top_k=40),
            std.confusion_matrix(top_k=40, ties="include"),
        ):
            assert cm.origin is not None and cm.prevalence == pi
        assert std.confusion_matrix(threshold=0.8) == (
            origin.confusion_matrix(threshold=0.8).at_prevalence(pi)
        )
        for kw in ({"threshold": 0.8}, {"top_k": 40}, {"top_k": 40, "ties": "exclude"}):
            got, want = std.confusion_matrix(**kw), rows.confusion_matrix(**kw)
            for name in ("f1", "precision", "mcc", "accuracy"):
                assert _close(got.metric(name), want.metric(name)), (kw, name)


@pytest.mark.parametrize("pi", PREVALENCES)
def test_against_scikit_learn_on_reweighted_rows(pi):
    """scikit-learn's weighted average precision (the step PR AUC) and ROC AUC."""
    y, s = _data()
    std = ScoreCurve.from_scores(y, s).at_prevalence(pi)
    w = _weights(y, y.mean(), pi)
    assert _close(std.auc("pr"), average_precision_score(y, s, sample_weight=w))
    assert _close(std.auc("roc"), roc_auc_score(y, s, sample_weight=w))


def test_own_prevalence_pickle_equality_and_printing():
    y, s = _data()
    curve = ScoreCurve.from_scores(y, s)
    own = curve.at_prevalence(curve.prevalence)
    for kind in ("roc", "pr", "lift", "gain"):
        assert _close(own.auc(kind), curve.auc(kind))
    std = curve.at_prevalence(0.3)
    for clone in (pickle.loads(pickle.dumps(std)), copy.deepcopy(std)):
        assert clone == std and clone.origin == curve and clone.prevalence == 0.3
    view = std._sampling_view()
    assert pickle.loads(pickle.dumps(view)) == view and view != std and view != curve
    assert std != curve and std != curve.at_prevalence(0.31)
    assert repr(std) == f"{curve!r}.at_prevalence(0.3)"
    text = " ".join(str(std).split())
    assert "at prevalence 0.3000 (standardized from 0.1050, n = 400; the original's" in text
    summary = " ".join(str(std.summary()).split())
    assert "resample the original's 42 positives and 358 negatives" in summary
    with pytest.raises(ValueError, match=r"`prevalence` must be in \(0, 1\); got 1.0"):
        curve.at_prevalence(1.0)
    with pytest.raises(TypeError, match="`prevalence` must be a real number; got"):
        curve.at_prevalence("0.3")


def test_the_sampling_view_is_the_origins_rows_at_the_prevalence():
    y, s = _data()
    curve = ScoreCurve.from_scores(y, s)
    view = curve.at_prevalence(0.3)._sampling_view()
    assert view.tps is curve.tps and view.fps is curve.fps and view.is_integer
    assert view.prevalence == 0.3 and view.n_positive == curve.n_positive
    assert view.auc("pr") == curve.at_prevalence(0.3).auc("pr")
    assert curve._sampling_view() is curve and view._sampling_view() is view


# -------------------------------------------------------------------------- intervals
def _loo_curves(y, s):
    for i in range(y.size):
        keep = np.arange(y.size) != i
        yield y[i], ScoreCurve.from_scores(y[keep], s[keep])


@pytest.mark.parametrize("pi", [0.05, 0.5])
def test_jackknife_is_leave_one_original_row_out_at_the_prevalence(pi):
    """The stratified jackknife variance of the standardized PR AUC: each original row
    left out in turn, the remaining rows' curve standardized to pi (not read at its own
    prevalence), V = sum over classes (m - 1)/m sum (theta_i - mean)^2; the normal and
    logit-t intervals from it."""
    y, s = _data(n=160, pi=0.3, seed=2)
    std = ScoreCurve.from_scores(y, s).at_prevalence(pi)
    loo = {True: [], False: []}
    for cls, c in _loo_curves(y, s):
        loo[bool(cls)].append(c.at_prevalence(pi).auc("pr"))
    parts = []
    for values in loo.values():
        v = np.array(values)
        parts.append((v.size - 1) / v.size * np.sum((v - v.mean()) ** 2))
    variance = sum(parts)
    estimate = std.auc("pr")
    r = std.interval("pr_auc", method="jackknife")
    assert r.details["variance"] == pytest.approx(variance, rel=1e-10)
    z = norm.ppf(0.975)
    assert np.allclose(r.ci, [estimate - z * variance**0.5, estimate + z * variance**0.5])
    t = std.interval("pr_auc", method="jackknife", interval="logit-t")
    k = min(int(y.sum()), int((~y).sum()))
    df = (k - 1) * variance**2 / (parts[0] ** 2 + parts[1] ** 2)
    half = stats.t.ppf(0.975, df) * variance**0.5 / (estimate * (1 - estimate))
    centre = special.logit(estimate)
    assert np.allclose(t.ci, special.expit([centre - half, centre + half]), rtol=1e-10)


def test_bootstrap_is_the_origins_resampled_rows_at_the_prevalence():
    """The same generator drives the engine's multinomial sampler over the original's
    cells; each drawn curve, built here with ScoreCurve and standardized to pi, gives
    the PR AUC whose percentiles are the interval."""
    y, s = _data(n=300, pi=0.2, seed=4)
    curve = ScoreCurve.from_scores(y, s)
    pi, n = 0.6, 400
    r = curve.at_prevalence(pi).interval("pr_auc", method="bootstrap", rng=8, n_resamples=n)
    cells = _Cells(curve, "step_pr")
    has_pos, has_neg = np.flatnonzero(cells.pos), np.flatnonzero(cells.neg)
    rng = np.random.default_rng(8)
    tp = _Multinomial(cells.pos[has_pos], has_pos, cells.k).draw_cumulative(n, rng)
    fp = _Multinomial(cells.neg[has_neg], has_neg, cells.k).draw_cumulative(n, rng)
    thresholds = np.arange(cells.k, 0, -1.0)
    values = []
    for i in range(n):
        pos, neg = np.diff(tp[i], prepend=0), np.diff(fp[i], prepend=0)
        keep = (pos + neg) > 0
        drawn = ScoreCurve.from_counts(thresholds[keep], pos[keep], neg[keep])
        values.append(drawn.at_prevalence(pi).auc("pr"))
    assert np.allclose(r.ci, np.quantile(values, [0.025, 0.975]), rtol=0, atol=1e-12)
    assert "prevalence fixed at 0.6000 (standardized)" in r.method


def test_roc_intervals_are_the_originals():
    """The ROC AUC does not depend on the prevalence: every method gives the
    original's interval (same generator), whatever the standardized prevalence."""
    y, s = _data(n=300, seed=5)
    curve = ScoreCurve.from_scores(y, s)
    std = curve.at_prevalence(0.5)
    for method in ("delong", "jackknife", "bootstrap", "dirichlet"):
        a = std.interval("roc_auc", method=method, rng=1, n_resamples=500)
        b = curve.interval("roc_auc", method=method, rng=1, n_resamples=500)
        assert a.ci == b.ci, method


def test_the_unstratified_bootstrap_is_refused():
    y, s = _data()
    std = ScoreCurve.from_scores(y, s).at_prevalence(0.5)
    with pytest.raises(ValueError, match="`stratified=False` resamples the prevalence"):
        std.interval("roc_auc", method="bootstrap", stratified=False)


def _population_ap(pi: float, shift: float) -> float:
    """The step PR AUC (average precision) of the binormal population at prevalence
    pi: the integral of the precision over the recall, by quadrature over the
    threshold c (recall Phi(shift - c), FPR Phi(-c))."""

    def integrand(c):
        r, f = norm.cdf(shift - c), norm.cdf(-c)
        return pi * r / (pi * r + (1 - pi) * f) * norm.pdf(c - shift)

    return integrate.quad(integrand, -12, 12 + shift, epsabs=1e-12, limit=200)[0]


def test_quick_coverage_of_the_standardized_pr_auc():
    """Data at pi0 = 0.05 (n = 4,000, positives N(1.2, 1)), standardized to pi1 = 0.5:
    the default interval (the jackknife's logit-t at about 200 positives) covers the
    population PR AUC at 0.5 (quadrature) in 200 simulated test sets within a loose
    band [0.88, 0.99] (96.0% here; the full study: benchmarks/results/coverage_standardized.md)."""
    truth = _population_ap(0.5, 1.2)
    rng = np.random.default_rng(20240605)
    hits, reps = 0, 200
    for _ in range(reps):
        y = rng.random(4000) < 0.05
        curve = ScoreCurve.from_scores(y, rng.normal(1.2 * y, 1))
        lo, hi = curve.at_prevalence(0.5).interval("pr_auc").ci
        hits += lo <= truth <= hi
    assert 0.88 <= hits / reps <= 0.99, hits / reps


# ------------------------------------------------------------------------- comparing
def _shifted(y, s, times):
    """The same rows with every positive repeated ``times`` times: the same
    class-conditional rows at another prevalence (a pure prevalence shift)."""
    pos = np.flatnonzero(y)
    idx = np.concatenate([np.flatnonzero(~y), np.repeat(pos, times)])
    return y[idx], s[idx]


def test_two_test_sets_of_one_classifier_standardized_compare_equal():
    """Identical class-conditional rows at prevalences 0.05 and 0.24, both standardized
    to 0.3: the difference is exactly 0 (alpha, beta and the ROC curve are identical),
    and its interval from the two sets' independent draws lies around 0."""
    y, s = _data(n=3000, pi=0.05, shift=1.5, seed=6)
    y2, s2 = _shifted(y, s, 6)
    a, b = ScoreCurve.from_scores(y, s), ScoreCurve.from_scores(y2, s2)
    assert a.prevalence < 0.06 < 0.2 < b.prevalence
    pair = {"a": a.at_prevalence(0.3), "b": b.at_prevalence(0.3)}
    for metric, method in (("pr_auc", "auto"), ("roc_auc", "bootstrap"), ("roc_auc", "auto")):
        r = compare_test_sets(pair, metric=metric, method=method, rng=1)
        assert r.ci.low < 0 < r.ci.high, (metric, r.ci)
        assert r.counts["positive_a"] == a.n_positive and r.counts["positive_b"] == b.n_positive
        if method == "auto" and metric == "roc_auc":
            # DeLong's AUC is the Mann-Whitney mean of each set's placements: the same
            # number summed over six times the positives, equal to rounding
            assert abs(r.estimate) < 1e-15
        else:
            assert r.estimate == 0.0, (metric, method, r.estimate)
    ca, cb = a.confusion_matrix(threshold=0.75), b.confusion_matrix(threshold=0.75)
    assert ca.alpha == cb.alpha and ca.beta == cb.beta
    for ops in (False, True):
        r = compare_test_sets(
            {"a": ca.at_prevalence(0.3), "b": cb.at_prevalence(0.3)}, metric="f1", ops=ops, rng=1
        )
        assert r.estimate == 0.0 and r.ci.low < 0 < r.ci.high, (ops, r.ci)
    # raw F1 at their own prevalences: a difference that is the prevalence alone
    raw = compare_test_sets({"a": ca, "b": cb}, metric="f1", rng=1)
    assert raw.ci.high < 0


def test_compare_test_sets_refuses_the_wrong_object():
    y, s = _data()
    curve = ScoreCurve.from_scores(y, s)
    cm = curve.confusion_matrix(threshold=0.5)
    with pytest.raises(TypeError, match=r"`test_sets\['a'\]` must be a ConfusionMatrix"):
        compare_test_sets({"a": curve, "b": cm}, metric="f1")
    with pytest.raises(TypeError, match=r"`test_sets\['b'\]` must be a ScoreCurve"):
        compare_test_sets({"a": curve, "b": cm}, metric="roc_auc")
    assert isinstance(cm, ConfusionMatrix)


def test_ops_of_a_standardized_curve_is_ranked_at_its_prevalence():
    y, s = _data(n=1000, seed=3)
    curve = ScoreCurve.from_scores(y, s)
    ref = DirectedBinaryTree(depth=5, n_curves=2000, seed=3)
    for pi in (0.05, 0.5):
        std = curve.at_prevalence(pi)
        r = std.ops("pr_auc", reference=ref)
        value = float(parse_area("pr_auc")(pi, curve.alpha, curve.beta))
        assert r.value == value and r.prevalence == pi
        assert r.estimate == ref.ops("pr_auc", value, prevalence=pi).estimate
        # an invariant quantity: the OPS of the ROC AUC and of precision at a recall
        assert (
            std.ops("roc_auc", reference=ref).estimate
            == curve.ops("roc_auc", reference=ref).estimate
        )
        assert (
            std.ops("precision", at={"recall": 0.5}, reference=ref).estimate
            == curve.ops("precision", at={"recall": 0.5}, reference=ref).estimate
        )
