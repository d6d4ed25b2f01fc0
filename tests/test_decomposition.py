"""decompose: the change of a metric between two test sets split into the prevalence's
part and the classifier's (docs/method.md#decomposition). The corners are checked
against the registry's closed form and scikit-learn on reweighted rows, the split against
a Shapley computation over the orderings of the two factors written here, the intervals
against draws made here with the same generator, and their coverage by simulation."""

from __future__ import annotations

import itertools
import math

import matplotlib
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import average_precision_score

from opsstats import (
    ConfusionMatrix,
    Decomposition,
    DirectedBinaryTree,
    ScoreCurve,
    Uniform,
    decompose,
)
from opsstats.curves._geometry import resolve_quantity
from opsstats.decomposition import _curve_draws
from opsstats.metrics import resolve_metric

matplotlib.use("Agg")

SMALL_DBT = DirectedBinaryTree(depth=5, n_curves=1000, seed=3)
METRICS = ["f1", "mcc", "precision", "accuracy", "recall", "npv", "kappa", "fowlkes_mallows"]
counts = st.integers(1, 5000)


def _corners_flat(d: Decomposition) -> list[float]:
    return [d.corners[0][0], d.corners[0][1], d.corners[1][0], d.corners[1][1]]


def _shapley(f, pis, thetas):
    """Shapley values of the two factors (prevalence, classifier) by their definition:
    each factor's change in f when it moves from before to after, averaged over the two
    orders in which the factors can move."""
    parts = {"prevalence": 0.0, "classifier": 0.0}
    for order in itertools.permutations(parts):
        state = {"prevalence": 0, "classifier": 0}
        for factor in order:
            old = f(pis[state["prevalence"]], thetas[state["classifier"]])
            state[factor] = 1
            new = f(pis[state["prevalence"]], thetas[state["classifier"]])
            parts[factor] += (new - old) / math.factorial(2)
    return parts


# ------------------------------------------------------------------ exactness
@settings(max_examples=200, deadline=None)
@given(
    st.tuples(counts, counts, counts, counts),
    st.tuples(counts, counts, counts, counts),
    st.sampled_from(METRICS),
    st.booleans(),
)
def test_parts_add_up_to_the_total(c0, c1, metric, ops):
    before, after = (ConfusionMatrix(tp=c[0], fp=c[1], fn=c[2], tn=c[3]) for c in (c0, c1))
    d = decompose(before, after, metric=metric, ops=ops, ci=None)
    corners = np.array(_corners_flat(d))
    if not np.isfinite(corners).all():
        return
    ulp = np.spacing(np.max(np.abs(corners)))
    assert abs(d.total - (d.prevalence_part + d.classifier_part)) <= 4 * ulp
    assert d.total == d.after_value - d.before_value


@settings(max_examples=150, deadline=None)
@given(
    st.tuples(counts, counts, counts, counts),
    st.integers(1, 7),
    st.integers(1, 7),
    st.sampled_from(METRICS),
    st.booleans(),
)
def test_classifier_part_exactly_zero_for_the_same_alpha_and_beta(c, kp, kn, metric, ops):
    tp, fp, fn, tn = c
    before = ConfusionMatrix(tp=tp, fp=fp, fn=fn, tn=tn)
    # the same alpha and beta (the same fractions), other class sizes
    after = ConfusionMatrix(tp=kp * tp, fp=kn * fp, fn=kp * fn, tn=kn * tn)
    assert after.alpha == before.alpha and after.beta == before.beta
    d = decompose(before, after, metric=metric, ops=ops, ci=None)
    if np.isfinite(d.total):
        assert d.classifier_part == 0.0
        assert d.prevalence_part == d.total


def test_classifier_part_exactly_zero_for_the_same_roc_curve():
    rng = np.random.default_rng(5)
    neg, pos = rng.normal(size=400), rng.normal(1.2, 1.0, size=60)
    # the same class-conditional rows, positives repeated 5 times, negatives twice
    before = ScoreCurve.from_scores(np.r_[np.zeros(400), np.ones(60)], np.r_[neg, pos])
    after = ScoreCurve.from_scores(
        np.r_[np.zeros(800), np.ones(300)], np.r_[np.tile(neg, 2), np.tile(pos, 5)]
    )
    np.testing.assert_array_equal(before.alpha, after.alpha)
    np.testing.assert_array_equal(before.beta, after.beta)
    for metric, at in (("pr_auc", None), ("roc_auc", None), ("f1", {"recall": 0.5})):
        d = decompose(before, after, metric=metric, at=at, rng=0, n_resamples=200)
        assert d.classifier_part == 0.0
        assert d.prevalence_part == d.total
        assert d.classifier_part_ci.low < 0 < d.classifier_part_ci.high
    roc = decompose(before, after, metric="roc_auc", ci=None)
    assert roc.total == 0.0 and roc.prevalence_part == 0.0


# ---------------------------------------------------------------- the corners
def test_corners_are_the_closed_form_at_each_prevalence():
    before = ConfusionMatrix(tp=50, fp=60, fn=50, tn=840)
    after = ConfusionMatrix(tp=170, fp=40, fn=130, tn=660)
    for name in ("f1", "mcc", "precision"):
        m = resolve_metric(name)
        d = decompose(before, after, metric=name, ci=None)
        for k, cm in enumerate((before, after)):
            for j, pi in enumerate((before.prevalence, after.prevalence)):
                closed = float(m(pi, cm.alpha, cm.beta))
                assert d.corners[k][j] == pytest.approx(closed, rel=1e-12, abs=1e-15)
                assert d.corners[k][j] == cm.at_prevalence(pi).metric(name)
        ops = decompose(before, after, metric=name, ops=True, ci=None)
        for k in (0, 1):
            for j, pi in enumerate((before.prevalence, after.prevalence)):
                expected = Uniform().ops(m, d.corners[k][j], prevalence=pi).estimate
                assert ops.corners[k][j] == pytest.approx(float(expected), abs=1e-12)
    # the F1 at the before and after sets themselves
    d = decompose(before, after, metric="f1", ci=None)
    assert d.before_value == pytest.approx(before.metric("f1"), rel=1e-12)
    assert d.after_value == pytest.approx(after.metric("f1"), rel=1e-12)


def test_curve_corners_equal_reweighted_rows_in_scikit_learn():
    rng = np.random.default_rng(11)
    y0 = (rng.random(600) < 0.1).astype(int)
    s0 = rng.normal(size=600) + 1.3 * y0
    y1 = (rng.random(500) < 0.4).astype(int)
    s1 = rng.normal(size=500) + 0.9 * y1
    d = decompose((y0, s0), (y1, s1), metric="pr_auc", ci=None)
    pis = (y0.mean(), y1.mean())
    for k, (y, s) in enumerate(((y0, s0), (y1, s1))):
        for j, pi in enumerate(pis):
            own = y.mean()
            w = np.where(y == 1, pi / own, (1 - pi) / (1 - own))
            # sklearn.metrics.average_precision_score(y, s, sample_weight=w): the step
            # PR area of the rows reweighted to prevalence pi
            assert d.corners[k][j] == pytest.approx(
                average_precision_score(y, s, sample_weight=w), abs=1e-12
            )


def test_split_against_shapley_values_by_hand():
    before = ConfusionMatrix(tp=30, fp=80, fn=20, tn=870)
    after = ConfusionMatrix(tp=110, fp=35, fn=90, tn=765)

    def f1_by_hand(pi, theta):  # F1 = 2 TP / (2 TP + FP + FN) per unit of n
        alpha, beta = theta
        tp, fp, fn = pi * (1 - beta), (1 - pi) * alpha, pi * beta
        return 2 * tp / (2 * tp + fp + fn)

    thetas = [(cm.fp / (cm.fp + cm.tn), cm.fn / (cm.fn + cm.tp)) for cm in (before, after)]
    pis = [(cm.tp + cm.fn) / 1000 for cm in (before, after)]
    parts = _shapley(f1_by_hand, pis, thetas)
    d = decompose(before, after, metric="f1", ci=None)
    assert d.prevalence_part == pytest.approx(parts["prevalence"], abs=1e-14)
    assert d.classifier_part == pytest.approx(parts["classifier"], abs=1e-14)
    assert d.total == pytest.approx(f1_by_hand(pis[1], thetas[1]) - f1_by_hand(pis[0], thetas[0]))


def test_pairs_and_threshold_give_the_counted_matrices():
    rng = np.random.default_rng(2)
    y0, y1 = (rng.random(300) < 0.2).astype(int), (rng.random(300) < 0.5).astype(int)
    s0, s1 = rng.normal(size=300) + y0, rng.normal(size=300) + y1
    d = decompose((y0, s0), (y1, s1), metric="f1", threshold=0.5, ci=None)
    cms = [
        ConfusionMatrix.from_predictions(y, (s >= 0.5).astype(int)) for y, s in ((y0, s0), (y1, s1))
    ]
    assert d.details["before"] == cms[0] and d.details["after"] == cms[1]
    same = decompose(cms[0], cms[1], metric="f1", ci=None)
    assert same.corners == d.corners
    labels = decompose((y0, (s0 >= 0.5).astype(int)), (y1, (s1 >= 0.5).astype(int)), metric="f1")
    assert labels.corners == d.corners


def test_standardized_inputs_keep_their_prevalence_fixed():
    before = ConfusionMatrix(tp=40, fp=90, fn=20, tn=850)
    after = ConfusionMatrix(tp=150, fp=60, fn=90, tn=700)
    d = decompose(before.at_prevalence(0.2), after.at_prevalence(0.2), metric="f1", rng=1)
    m = resolve_metric("f1")
    assert d.before_prevalence == d.after_prevalence == 0.2
    assert d.prevalence_part == 0.0 and tuple(d.prevalence_part_ci) == (0.0, 0.0)
    assert d.classifier_part == pytest.approx(
        float(m(0.2, after.alpha, after.beta) - m(0.2, before.alpha, before.beta)), rel=1e-12
    )
    assert "prevalence fixed at 0.2000 (standardized)" in d.method


# ------------------------------------------------------------------- intervals
def test_dirichlet_intervals_equal_draws_by_hand():
    before = ConfusionMatrix(tp=25, fp=70, fn=15, tn=890)
    after = ConfusionMatrix(tp=120, fp=50, fn=60, tn=770)
    n = 500
    d = decompose(before, after, metric="mcc", n_resamples=n, rng=7)
    rng = np.random.default_rng(7)
    draws = []
    for cm in (before, after):  # Jeffreys: 1/2 per cell; _Draws' order alpha, beta, pi
        a = rng.beta(cm.fp + 0.5, cm.tn + 0.5, n)
        b = rng.beta(cm.fn + 0.5, cm.tp + 0.5, n)
        pi = rng.beta(cm.tp + cm.fn + 1, cm.fp + cm.tn + 1, n)
        draws.append((pi, a, b))
    m = resolve_metric("mcc")
    g = {(k, j): m(draws[j][0], draws[k][1], draws[k][2]) for k in (0, 1) for j in (0, 1)}
    total = g[1, 1] - g[0, 0]
    prevalence = ((g[0, 1] - g[0, 0]) + (g[1, 1] - g[1, 0])) / 2
    classifier = ((g[1, 0] - g[0, 0]) + (g[1, 1] - g[0, 1])) / 2
    for ci, values in (
        (d.total_ci, total),
        (d.prevalence_part_ci, prevalence),
        (d.classifier_part_ci, classifier),
    ):
        assert np.allclose(ci, np.quantile(values, [0.025, 0.975]), rtol=0, atol=1e-12)
    assert d.n_undefined == 0 and d.n_resamples == n and d.confidence_level == 0.95


def test_bootstrap_intervals_draw_the_prevalence():
    before = ConfusionMatrix(tp=25, fp=70, fn=15, tn=890)
    after = ConfusionMatrix(tp=120, fp=50, fn=60, tn=770)
    d = decompose(before, after, metric="f1", ci="bootstrap", n_resamples=400, rng=3)
    assert "bootstrap (not stratified)" in d.method
    # the prevalence part's interval has width: the prevalences are resampled
    assert d.prevalence_part_ci.high - d.prevalence_part_ci.low > 0.01
    for ci, est in (
        (d.total_ci, d.total),
        (d.prevalence_part_ci, d.prevalence_part),
        (d.classifier_part_ci, d.classifier_part),
    ):
        assert ci.low < est < ci.high


def test_interval_coverage_quick():
    """Data drawn from known populations (the class counts binomial); the intervals of
    the three parts cover their population values. 200 repetitions: s.e. about 1.5%
    at 95%, band 90%-99.5%."""
    m = resolve_metric("f1")
    pops = [(0.1, 0.08, 0.30), (0.3, 0.10, 0.36)]  # (prevalence, alpha, beta)
    g = [[float(m(pops[j][0], *pops[k][1:])) for j in (0, 1)] for k in (0, 1)]
    truth = (
        g[1][1] - g[0][0],
        ((g[0][1] - g[0][0]) + (g[1][1] - g[1][0])) / 2,
        ((g[1][0] - g[0][0]) + (g[1][1] - g[0][1])) / 2,
    )
    rng = np.random.default_rng(20261127)
    hits = np.zeros(3)
    reps = 200
    for _ in range(reps):
        cms = []
        for pi, alpha, beta in pops:
            pos = rng.binomial(1500, pi)
            fn, fp = rng.binomial(pos, beta), rng.binomial(1500 - pos, alpha)
            cms.append(ConfusionMatrix(tp=pos - fn, fp=fp, fn=fn, tn=1500 - pos - fp))
        d = decompose(*cms, metric="f1", n_resamples=1000, rng=rng)
        for i, ci in enumerate((d.total_ci, d.prevalence_part_ci, d.classifier_part_ci)):
            hits[i] += ci.low <= truth[i] <= ci.high
    coverage = hits / reps
    assert np.all((coverage >= 0.90) & (coverage <= 0.995)), coverage


def test_curve_intervals_both_methods():
    rng = np.random.default_rng(4)
    y0 = (rng.random(800) < 0.08).astype(int)
    y1 = (rng.random(800) < 0.3).astype(int)
    before, after = (y0, rng.normal(size=800) + 1.2 * y0), (y1, rng.normal(size=800) + 1.2 * y1)
    for ci in ("dirichlet", "bootstrap"):
        d = decompose(before, after, metric="pr_auc", ci=ci, n_resamples=300, rng=1)
        for c, est in (
            (d.total_ci, d.total),
            (d.prevalence_part_ci, d.prevalence_part),
            (d.classifier_part_ci, d.classifier_part),
        ):
            assert c.low < est < c.high
        assert ("Beta(P + 1, N + 1)" if ci == "dirichlet" else "Binomial") in d.method
    # the ROC AUC does not depend on the prevalence: its prevalence part is 0 in every draw
    roc = decompose(before, after, metric="roc_auc", n_resamples=200, rng=1)
    assert roc.prevalence_part == 0.0 and tuple(roc.prevalence_part_ci) == (0.0, 0.0)


def test_curve_ops_intervals_rank_each_draw_at_its_drawn_prevalence():
    """OPS of a prevalence-dependent curve quantity under the default reference: each
    corner's draw ranked at its own set's drawn prevalence (corners (theta0, pi0) and
    (theta1, pi0) at the before set's, the others at the after set's), one value at a
    time here, from the same draws (the same generator through the same draw function)."""
    rng = np.random.default_rng(11)
    y0 = (rng.random(600) < 0.1).astype(int)
    y1 = (rng.random(600) < 0.4).astype(int)
    before = ScoreCurve.from_scores(y0, rng.normal(size=600) + 1.2 * y0)
    after = ScoreCurve.from_scores(y1, rng.normal(size=600) + 0.9 * y1)
    ref = DirectedBinaryTree()
    n = 150
    for metric, at in (("pr_auc", None), ("precision", {"recall": 0.5})):
        d = decompose(before, after, metric=metric, at=at, ops=True, n_resamples=n, rng=5)
        q = resolve_quantity(metric, at, None, {})
        draws, _, pis = _curve_draws((before, after), q, "dirichlet", n, np.random.default_rng(5))
        g = {
            (k, j): np.array(
                [ref.ops(q, draws[2 * k + j][i], prevalence=pis[j][i]).estimate for i in range(n)]
            )
            for k in (0, 1)
            for j in (0, 1)
        }
        parts = (
            g[1, 1] - g[0, 0],
            ((g[0, 1] - g[0, 0]) + (g[1, 1] - g[1, 0])) / 2,
            ((g[1, 0] - g[0, 0]) + (g[1, 1] - g[0, 1])) / 2,
        )
        intervals = (d.total_ci, d.prevalence_part_ci, d.classifier_part_ci)
        for ci, values in zip(intervals, parts, strict=True):
            assert np.allclose(ci, np.quantile(values, [0.025, 0.975]), rtol=0, atol=1e-12)
        assert "each draw's OPS at its drawn prevalence, from the shipped table" in d.method
        assert d.n_undefined == 0
        if metric == "pr_auc":  # its OPS moves with the prevalence: a part with width
            assert d.prevalence_part_ci.high - d.prevalence_part_ci.low > 0.005
            assert d.prevalence_part_ci.low < d.prevalence_part < d.prevalence_part_ci.high
        else:  # precision at a fixed recall: its OPS does not, in every draw up to the
            # rounding of the mapped values (docs/method.md#prevalence-invariance)
            assert max(map(abs, d.prevalence_part_ci)) <= 2e-5


def test_curve_ops_intervals_refused_where_the_table_does_not_reach():
    """Where the shipped table does not hold the quantity (a recall it does not store),
    at the sets' prevalences or at a drawn one, the interval would need a pass over the
    100,000 curves per drawn prevalence: refused with the reason; without intervals the
    decomposition is made."""
    rng = np.random.default_rng(2)
    y = (rng.random(2000) < 0.3).astype(int)
    pair = (y, rng.normal(size=2000) + y)
    with pytest.raises(ValueError, match="does not hold it at these prevalences"):
        decompose(pair, pair, metric="precision", at={"recall": 0.37}, ops=True)
    rare = np.zeros(2000, dtype=int)
    rare[:3] = 1  # prevalence 0.0015: its drawn prevalences reach below the table's 0.001
    with pytest.raises(ValueError, match=r"a drawn prevalence, 0\.000"):
        decompose((rare, rng.normal(size=2000) + rare), pair, metric="pr_auc", ops=True, rng=0)
    d = decompose(pair, pair, metric="precision", at={"recall": 0.37}, ops=True, ci=None)
    assert d.classifier_part == 0.0 and d.total_ci is None


# --------------------------------------------------------- result and errors
def test_result_outputs():
    d = decompose(
        ConfusionMatrix(tp=12, fp=60, fn=13, tn=915),
        ConfusionMatrix(tp=150, fp=40, fn=160, tn=650),
        metric="mcc",
        rng=0,
        n_resamples=300,
    )
    frame = d.to_frame()
    assert frame["part"].tolist() == ["total", "prevalence", "classifier"]
    assert frame["estimate"].tolist() == [d.total, d.prevalence_part, d.classifier_part]
    assert frame["ci_low"].tolist() == [
        d.total_ci.low,
        d.prevalence_part_ci.low,
        d.classifier_part_ci.low,
    ]
    text = str(d.summary())
    assert "docs/method.md#decomposition" in text and "Dirichlet-multinomial" in text
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80  # the tests' width (conftest.py)
    # one block: each part's estimate and its interval as one column ("a to b": an end
    # is negative), at 4 decimals
    assert lines[3].split() == ["estimate", "CI"] and lines[4] == "part"
    parts = zip(
        ("total", "prevalence", "classifier"),
        (d.total, d.prevalence_part, d.classifier_part),
        (d.total_ci, d.prevalence_part_ci, d.classifier_part_ci),
        strict=True,
    )
    for line, (part, estimate, ci) in zip(lines[5:8], parts, strict=True):
        assert line.split() == [part, f"{estimate:.4f}", f"{ci.low:.4f}", "to", f"{ci.high:.4f}"]
    assert "<table" in d._repr_html_()
    assert str(d).startswith("Matthews correlation coefficient: 0.2527 at prevalence 0.025")
    with pytest.raises(AttributeError):
        d.total = 0.0  # type: ignore[misc]
    ax = d.plot()
    assert [t.get_text() for t in ax.get_xticklabels()] == [
        "before",
        "prevalence part",
        "classifier part",
        "after",
    ]
    bars = ax.patches
    assert len(bars) == 4
    assert bars[0].get_height() == pytest.approx(d.before_value)
    assert bars[3].get_height() == pytest.approx(d.after_value)
    assert bars[2].get_y() + bars[2].get_height() == pytest.approx(d.after_value, abs=1e-12)
    no_ci = decompose(d.details["before"], d.details["after"], metric="mcc", ci=None)
    assert no_ci.total_ci is None and "estimate" in no_ci.summary().to_frame().columns


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"before": "x"}, TypeError, "`before` must be a ConfusionMatrix, a ScoreCurve or a pair"),
        (
            {"after": ScoreCurve.from_scores([0, 1, 0, 1], [0.1, 0.9, 0.3, 0.4])},
            TypeError,
            "`after` must be a ConfusionMatrix",
        ),
        ({"ci": "delong"}, ValueError, "`ci`"),
        ({"ops": 1}, TypeError, "`ops` must be True or False"),
        ({"after": ConfusionMatrix(tp=0, fp=3, fn=0, tn=9)}, ValueError, "both classes"),
        ({"reference": Uniform()}, ValueError, "give `ops=True`"),
        ({"n_resamples": 5}, ValueError, "n_resamples"),
    ],
)
def test_bad_input(kwargs, error, match):
    args = {
        "before": ConfusionMatrix(tp=5, fp=3, fn=2, tn=9),
        "after": ConfusionMatrix(tp=7, fp=2, fn=4, tn=6),
        "metric": "f1",
        **kwargs,
    }
    with pytest.raises(error, match=match):
        decompose(args.pop("before"), args.pop("after"), **args)


def test_curve_errors():
    pair = ([0, 1, 0, 1, 1, 0], [0.1, 0.9, 0.3, 0.4, 0.8, 0.2])
    with pytest.raises(ValueError, match="`threshold` turns scores into labels"):
        decompose(pair, pair, metric="pr_auc", threshold=0.5)
    with pytest.raises(ValueError, match="reads no shipped table"):
        decompose(pair, pair, metric="pr_auc", ops=True, reference=SMALL_DBT)
    with pytest.raises(ValueError, match="`before`"):
        decompose(([0, 0, 0], [0.1, 0.2, 0.3]), pair, metric="pr_auc")
    weighted = ScoreCurve.from_scores(pair[0], pair[1], sample_weight=[0.5, 1, 1, 2, 1, 1.5])
    with pytest.raises(ValueError, match="whole-number counts"):
        decompose(weighted, weighted, metric="pr_auc")
    assert decompose(weighted, weighted, metric="pr_auc", ci=None).classifier_part == 0.0
