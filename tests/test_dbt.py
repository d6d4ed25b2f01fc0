"""The Directed Binary Tree reference: the paper's Tables 6-9 and worked examples, the
sampler against a slow obvious implementation, caching, determinism, errors."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from opsstats.curves._geometry import parse_area, parse_at
from opsstats.reference.dbt import DirectedBinaryTree, dbt_curves

# Published values: Zhao et al., "Outperformance Score", Tables 6-9 (metric value,
# prevalence, published OPS). The tolerance is the 0.005: Monte Carlo error
# (G = 100,000: s.e. <= 0.0013 at these OPS) plus the rounding of the published inputs.
TOL = 0.005

# (prevalence, AUC(PRC), OPS, precision at recall 0.9, OPS)
TABLE_6_7 = [
    (0.091, 0.354, 0.869, 0.183, 0.901),  # Heart disease, general set
    (0.19, 0.42, 0.797, 0.264, 0.815),  # Heart disease, elder set
    (0.3, 0.688, 0.909, 0.495, 0.902),  # Heart disease, hospital set
    (0.112, 0.316, 0.808, 0.151, 0.784),  # Loan default, general set
    # Table 7's last two precision-at-recall OPS (0.784, 0.813) are transposed in the
    # paper: they match only when exchanged (docs/method.md#departures-from-the-paper).
    # Listed here exchanged.
    (0.203, 0.485, 0.838, 0.278, 0.813),  # Loan default, low-income set
    (0.3, 0.581, 0.832, 0.376, 0.784),  # Loan default, risky set
]

# (prevalence, test-set size n, AUC(lift), OPS, lift at K = 500, OPS)
TABLE_8_9 = [
    (0.091, 9000, 2.278, 0.915, 4.61, 0.84),
    (0.19, 9043, 1.745, 0.841, 2.937, 0.782),
    (0.3, 9206, 1.806, 0.929, 2.766, 0.852),
    (0.112, 10000, 1.915, 0.849, 3.843, 0.805),
    (0.203, 10108, 1.807, 0.869, 3.387, 0.832),
    (0.3, 10063, 1.621, 0.857, 2.627, 0.821),
]


@pytest.fixture(scope="module")
def dbt():
    return DirectedBinaryTree()  # the defaults: depth 9, G = 100,000, fixed seed


@pytest.mark.parametrize("pi, auc, ops_auc, prec, ops_prec", TABLE_6_7)
def test_tables_6_7_pr_auc_and_precision_at_recall(dbt, pi, auc, ops_auc, prec, ops_prec):
    dbt.precompute([parse_area("pr_auc"), parse_at("precision", {"recall": 0.9})], pi)
    r = dbt.ops("pr_auc", auc, prevalence=pi)
    assert r.rule == "step"
    assert abs(r.estimate - ops_auc) <= TOL
    p = dbt.ops("precision", prec, prevalence=pi, at={"recall": 0.9})
    assert abs(p.estimate - ops_prec) <= TOL


def test_table_7_transposition_is_real(dbt):
    """As printed (not exchanged), the last two entries are off by more than 0.02."""
    low_income = dbt.ops("precision", 0.278, prevalence=0.203, at={"recall": 0.9}).estimate
    risky = dbt.ops("precision", 0.376, prevalence=0.3, at={"recall": 0.9}).estimate
    assert abs(low_income - 0.784) > 0.02 and abs(risky - 0.813) > 0.02


@pytest.mark.parametrize("pi, n, lift_auc, ops_auc, lift, ops_lift", TABLE_8_9)
def test_tables_8_9_lift(dbt, pi, n, lift_auc, ops_auc, lift, ops_lift):
    at = {"rate": 500 / n}  # the top K = 500 of n
    dbt.precompute([parse_area("lift_auc"), parse_at("lift", at)], pi)
    r = dbt.ops("lift_auc", lift_auc, prevalence=pi)
    assert r.rule == "step"
    assert abs(r.estimate - ops_auc) <= TOL
    assert abs(dbt.ops("lift", lift, prevalence=pi, at=at).estimate - ops_lift) <= TOL


@pytest.mark.parametrize(
    "metric, value, at, published",
    [
        # docs/method.md#published-values, the authors' worked examples at pi = 0.1 (Monte
        # Carlo, +-0.002)
        ("pr_auc", 0.6, None, 0.962),
        ("precision", 0.4, {"recall": 0.9}, 0.973),
        ("lift_auc", 2.5, None, 0.955),
        ("lift", 4.0, {"rate": 0.2}, 0.948),
    ],
)
def test_worked_examples(dbt, metric, value, at, published):
    r = dbt.ops(metric, value, prevalence=0.1, at=at)
    assert abs(r.estimate - published) <= 0.004
    assert r.standard_error == pytest.approx(np.sqrt(r.estimate * (1 - r.estimate) / 100_000))


def test_random_classifier_readings(dbt):
    """What users misread (docs/method.md#published-values): a random classifier's PR
    AUC (= pi) is well below 0.5 (about 0.39 at pi = 0.1); ROC AUC 0.5 is about 0.5."""
    assert abs(dbt.ops("pr_auc", 0.1, prevalence=0.1).estimate - 0.39) < 0.01
    assert abs(dbt.ops("roc_auc", 0.5, prevalence=0.1).estimate - 0.5) < 0.01


def test_nauc_and_lift_precision_invariance(dbt):
    """OPS(AUC) = OPS(NAUC) and OPS(lift) = OPS(precision) (affine in the metric)."""
    pi = 0.091
    values = np.linspace(1.2, 3.3, 7)  # lift AUC <= ideal = 3.397 at pi = 0.091
    ideal = 1 + np.log(1 / pi)
    auc = dbt.ops("lift_auc", values, prevalence=pi).estimate
    nauc = dbt.ops("nlift_auc", values / ideal, prevalence=pi).estimate
    np.testing.assert_array_equal(auc, nauc)
    at = {"rate": 0.05}
    prec = np.linspace(0.2, 0.8, 7)
    np.testing.assert_array_equal(
        dbt.ops("precision", prec, prevalence=pi, at=at).estimate,
        dbt.ops("lift", prec / pi, prevalence=pi, at=at).estimate,
    )


def _naive_dbt(m, depth, rng):
    """Slow, obvious sampler: explicit ranges down the tree, then in-order traversal."""
    curves_a, curves_b = [], []
    for _ in range(m):
        nodes = {}

        def grow(k, la, ua, lb, ub, level):
            if level == depth:
                return
            a = rng.uniform(la, ua)
            b = rng.uniform(lb, ub)
            nodes[k] = (a, b)
            grow(2 * k + 1, la, a, b, ub, level + 1)  # left: alpha below, beta above
            grow(2 * k + 2, a, ua, lb, b, level + 1)  # right: alpha above, beta below

        grow(0, 0.0, 1.0, 0.0, 1.0, 0)
        order = []

        def inorder(k):
            if k in nodes:
                inorder(2 * k + 1)
                order.append(nodes[k])
                inorder(2 * k + 2)

        inorder(0)
        curves_a.append([0.0] + [a for a, _ in order] + [1.0])
        curves_b.append([1.0] + [b for _, b in order] + [0.0])
    return np.array(curves_a), np.array(curves_b)


def test_sampler_matches_naive_implementation():
    """Node by node, the in-place sampler has the distribution of the explicit one
    (two-sample Kolmogorov-Smirnov at every position, depth 3, 4000 curves each)."""
    a_fast, b_fast = dbt_curves(4000, 3, np.random.default_rng(1))
    a_slow, b_slow = _naive_dbt(4000, 3, np.random.default_rng(2))
    assert a_fast.shape == a_slow.shape == (4000, 9)
    pvalues = [
        stats.ks_2samp(x[:, j], y[:, j]).pvalue
        for x, y in ((a_fast, a_slow), (b_fast, b_slow))
        for j in range(1, 8)
    ]
    # 14 tests: a Bonferroni-corrected 0.001 level
    assert min(pvalues) > 0.001 / 14
    np.testing.assert_array_equal(a_fast[:, 0], 0.0)
    np.testing.assert_array_equal(b_fast[:, -1], 0.0)
    assert (np.diff(a_fast, axis=1) >= 0).all() and (np.diff(b_fast, axis=1) <= 0).all()


def test_root_and_first_children_means():
    a, b = dbt_curves(100_000, 2, np.random.default_rng(3))
    # positions: 0 endpoint, 1 left child, 2 root, 3 right child, 4 endpoint
    se = 0.3 / np.sqrt(100_000)
    assert abs(a[:, 2].mean() - 0.5) < 4 * se
    assert abs(a[:, 1].mean() - 0.25) < 4 * se  # U[0, root): mean 1/4
    assert abs(a[:, 3].mean() - 0.75) < 4 * se
    assert abs(b[:, 1].mean() - 0.75) < 4 * se  # U(root, 1]: mean 3/4
    assert abs(b[:, 3].mean() - 0.25) < 4 * se


def test_determinism_and_serial_equals_threaded():
    ref = DirectedBinaryTree(depth=5, n_curves=25_000, seed=7)
    q = parse_area("pr_auc")
    threaded = ref.reference_values(q, 0.2)
    serial = np.sort(np.concatenate([q(0.2, a, b) for a, b in ref.iter_curves()]))
    np.testing.assert_array_equal(threaded, serial)
    other = DirectedBinaryTree(depth=5, n_curves=25_000, seed=8)
    assert not np.array_equal(other.reference_values(q, 0.2), threaded)
    again = DirectedBinaryTree(depth=5, n_curves=25_000, seed=7)
    assert (
        again.ops("pr_auc", 0.5, prevalence=0.2).estimate
        == ref.ops("pr_auc", 0.5, prevalence=0.2).estimate
    )


def test_roc_quantities_cached_once_for_every_prevalence():
    ref = DirectedBinaryTree(depth=4, n_curves=2000, seed=11)
    q = parse_area("roc_auc")
    v1 = ref.reference_values(q, 0.1)
    v2 = ref.reference_values(q, 0.7)
    assert v1 is v2
    point = parse_at("recall", {"fpr": 0.2})
    assert ref.reference_values(point, 0.1) is ref.reference_values(point, 0.4)
    prec = parse_at("precision", {"recall": 0.5})
    assert ref.reference_values(prec, 0.1) is not ref.reference_values(prec, 0.4)


def test_ops_is_rank_against_reference_values():
    ref = DirectedBinaryTree(depth=4, n_curves=5000, seed=3)
    q = parse_area("gain_auc")
    values = ref.reference_values(q, 0.25)
    mu = np.array([values[0] - 0.01, values[100], 0.6, values[-1] + 1e-9])
    expected = np.array([(values < m).mean() for m in mu])
    np.testing.assert_array_equal(ref.ops("gain_auc", mu, prevalence=0.25).estimate, expected)


def test_ties_mid_on_a_reference_with_atoms():
    """Precision at recall 1 of a DBT curve is read at the endpoint (1, 0): always the
    prevalence, an atom of mass 1. Strict gives 0 at that value, mid gives 1/2."""
    ref = DirectedBinaryTree(depth=3, n_curves=1000, seed=1)
    strict = ref.ops("precision", 0.3, prevalence=0.3, at={"recall": 1.0})
    mid = ref.ops("precision", 0.3, prevalence=0.3, at={"recall": 1.0}, ties="mid")
    assert strict.estimate == 0.0 and mid.estimate == 0.5


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(0, 1), min_size=2, max_size=20), st.sampled_from([0.05, 0.3, 0.6]))
def test_ops_in_unit_interval_and_monotone(values, pi):
    ref = DirectedBinaryTree(depth=4, n_curves=2000, seed=5)
    v = np.sort(np.array(values))
    est = ref.ops("pr_auc", v, prevalence=pi).estimate
    assert ((est >= 0) & (est <= 1)).all()
    assert (np.diff(est) >= 0).all()


def test_result_says_how_it_was_made(dbt):
    text = dbt.ops("pr_auc", 0.354, prevalence=0.091).to_string()  # str() wraps it
    assert text.startswith("OPS(AUC(PR, step) = 0.354 at prevalence 0.091) = 0.86")
    assert "DirectedBinaryTree(depth=9, n_curves=100000" in text
    assert "Monte Carlo" in text and "MC s.e." in text
    frame = dbt.ops("pr_auc", [0.3, 0.5], prevalence=0.091).to_frame()
    assert list(frame["value"]) == [0.3, 0.5] and frame["rule"].eq("step").all()


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        (
            {"metric": "pr_auc", "value": 0.5, "prevalence": 0.0},
            ValueError,
            r"`prevalence` must be in the open interval \(0, 1\); got 0.0. OPS is undefined",
        ),
        ({"metric": "pr_auc", "value": 0.5, "prevalence": 1.0}, ValueError, "one class is absent"),
        (
            {"metric": "pr_auc", "value": 1.5, "prevalence": 0.1},
            ValueError,
            r"`value` must be in the range of AUC\(PR, step\), \[0, 1\]; got 1.5",
        ),
        ({"metric": "pr_auc", "value": float("nan"), "prevalence": 0.1}, ValueError, "NaN"),
        (
            {"metric": "pr_aux", "value": 0.5, "prevalence": 0.1},
            ValueError,
            "`metric` must be a curve quantity, roc_auc, pr_auc.*unknown curve quantity 'pr_aux'",
        ),
        (
            {"metric": "f1", "value": 0.5, "prevalence": 0.1},
            ValueError,
            "`metric` must be a curve quantity.*at=.*unknown curve quantity 'f1'",
        ),
        (
            {"metric": "precision", "value": 0.5, "prevalence": 0.1, "at": {"recall": -0.1}},
            ValueError,
            r"`at\['recall'\]` must be in \[0, 1\]; got -0.1",
        ),
        (
            {"metric": "precision", "value": 0.5, "prevalence": 0.1, "at": {"recall": 1.2}},
            ValueError,
            r"`at\['recall'\]` must be in \[0, 1\]; got 1.2",
        ),
        (
            {"metric": "precision", "value": 0.5, "prevalence": 0.1, "at": {"thr": 0.5}},
            ValueError,
            "the key of `at` must be one of 'recall'",
        ),
        (
            {"metric": "precision", "value": 0.5, "prevalence": 0.1, "at": 0.5},
            TypeError,
            "`at` must be a one-entry dict",
        ),
        (
            {"metric": "precsion", "value": 0.5, "prevalence": 0.1, "at": {"recall": 0.5}},
            ValueError,
            "unknown metric 'precsion'. Did you mean 'precision'",
        ),
        (
            {"metric": "pr_auc", "value": 0.5, "prevalence": 0.1, "rule": "simpson"},
            ValueError,
            "`rule` must be one of 'trapezoid', 'step'; got 'simpson'",
        ),
        (
            {"metric": "pr_auc", "value": 0.5, "prevalence": 0.1, "ties": "average"},
            ValueError,
            "`ties` must be one of 'strict', 'mid'; got 'average'",
        ),
        (
            {"metric": "pr_auc", "value": "0.5", "prevalence": 0.1},
            TypeError,
            "`value` must be a number",
        ),
    ],
)
def test_errors(kwargs, exc, match):
    ref = DirectedBinaryTree(depth=3, n_curves=500, seed=1)
    metric = kwargs.pop("metric")
    value = kwargs.pop("value")
    with pytest.raises(exc, match=match):
        ref.ops(metric, value, **kwargs)


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        ({"depth": 0}, ValueError, "`depth` must be an integer >= 1; got 0"),
        ({"depth": 20}, ValueError, "`depth` must be at most 12"),
        ({"depth": 2.5}, TypeError, "`depth` must be an integer; got 2.5"),
        ({"n_curves": 10}, ValueError, "`n_curves` must be an integer >= 100; got 10"),
        ({"seed": -1}, ValueError, "`seed` must be an integer >= 0; got -1"),
    ],
)
def test_constructor_errors(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        DirectedBinaryTree(**kwargs)


def test_trapezoid_rule_is_applied_to_the_reference_curves_too():
    """The rule is a parameter and the same rule is applied to the reference curves:
    trapezoid PR AUCs of the DBT curves are finite (the 0/0 point at the origin takes
    its limit along the first segment) and the result records the rule."""
    ref = DirectedBinaryTree(depth=5, n_curves=2000, seed=4)
    trap = ref.reference_values(parse_area("pr_auc", "trapezoid"), 0.2)
    step = ref.reference_values(parse_area("pr_auc", "step"), 0.2)
    assert np.isfinite(trap).all() and not np.array_equal(trap, step)
    r = ref.ops("pr_auc", 0.5, prevalence=0.2, rule="trapezoid")
    assert r.rule == "trapezoid" and r.estimate == np.mean(trap < 0.5)


def test_precompute_takes_ops_spellings_pairs_and_one_pass_for_many_prevalences():
    ref = DirectedBinaryTree(depth=4, n_curves=1000, seed=21)
    ref.precompute(["pr_auc", ("precision", {"recall": 0.9})], [0.1, 0.3])
    ref.precompute(pairs=[(("lift", {"rate": 0.05}), 0.09), ("gain_auc", 0.2)])
    keys = set(ref._cache.values)
    assert ("pr_auc[step]", 0.1) in keys and ("gain_auc[trapezoid]", 0.2) in keys
    # an operating point's key holds its metric object too (see test_shared_state.py)
    assert any(
        isinstance(k[0], tuple) and k[0][0].startswith("lift") and k[1] == 0.09 for k in keys
    )
    calls = []
    original = ref._chunk

    def counting(index, out, columns=None):
        calls.append(index)
        return original(index, out, columns)

    ref._chunk = counting
    r = ref.ops("lift_auc", [2.0, 2.0, 2.0], prevalence=[0.1, 0.2, 0.3])
    assert len(calls) == ref.n_chunks  # one pass for the three prevalences
    np.testing.assert_array_equal(
        r.estimate, [ref.ops("lift_auc", 2.0, prevalence=p).estimate for p in (0.1, 0.2, 0.3)]
    )
    with pytest.raises(TypeError, match="`prevalence` is required with `quantities`"):
        ref.precompute(["pr_auc"])


def test_curve_coordinates_equal_the_registry_metrics():
    """The curve geometry keeps direct expressions for precision and lift (the DBT hot
    path: routing them through the registry measured 35-75% slower per slice); they
    must equal the registry's metrics, the single definition."""
    from opsstats.curves._geometry import curve_xy
    from opsstats.metrics import resolve_metric

    a, b = dbt_curves(300, 5, np.random.default_rng(9))
    for pi in (0.02, 0.3, 0.9):
        for curve, metric in (
            ("pr", "precision"),
            ("lift", "lift"),
            ("roc", "recall"),
            ("gain", "recall"),
        ):
            _, y = curve_xy(curve, pi, a[:, 1:], b[:, 1:])  # past the 0/0 first point
            np.testing.assert_allclose(
                y, resolve_metric(metric)(pi, a[:, 1:], b[:, 1:]), rtol=1e-12, atol=0
            )


def test_precompute_refreshes_cached_entries_it_is_asked_for():
    """A value asked for again is refreshed, so the same call does not evict it
    (found by the curve coverage study)."""
    ref = DirectedBinaryTree(depth=3, n_curves=1000, seed=71, cache_size=3)
    q = parse_area("pr_auc")
    ref.precompute([q], [0.1, 0.2])
    ref.precompute([q], [0.1, 0.3, 0.4])
    assert sorted(k[1] for k in ref._cache.values) == [0.1, 0.3, 0.4]


def test_a_slice_of_a_chunk_is_those_curves_of_the_whole_draw():
    # the pass draws each chunk a slice of curves at a time (less memory): the slice's
    # curves must be exactly the full draw's (the generator advanced past the others)
    def rng():
        return np.random.default_rng(np.random.SeedSequence([5, 3]))

    alpha, beta = dbt_curves(1000, 6, rng())
    for c0, c1 in [(0, 300), (300, 700), (700, 1000), (999, 1000)]:
        a, b = dbt_curves(1000, 6, rng(), columns=(c0, c1))
        np.testing.assert_array_equal(a, alpha[c0:c1])
        np.testing.assert_array_equal(b, beta[c0:c1])
    ref = DirectedBinaryTree(depth=5, n_curves=12_000, seed=3)
    q = parse_area("pr_auc")
    (values,) = ref._one_pass([(q, 0.1)])
    whole = np.concatenate([q(0.1, a, b) for a, b in ref.iter_curves()])
    np.testing.assert_array_equal(values, whole)
