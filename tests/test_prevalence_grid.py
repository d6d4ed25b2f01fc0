"""Curve areas interpolated in prevalence (docs/method.md#prevalence-grid): each curve's
area at the grid's nodes, cubic interpolation in logit(prevalence) in between; checked
against the direct computation (the same reference without a grid)."""

import numpy as np
import pandas as pd
import pytest

from opsstats import DirectedBinaryTree, evaluate
from opsstats.curves._geometry import parse_area
from opsstats.grouped import PREVALENCE_STEP
from opsstats.grouped._curve_reference import _default_curve_reference

G = 5000


@pytest.fixture(scope="module")
def pair():
    # the same curves (depth, G, seed), one interpolating and one direct
    return (
        DirectedBinaryTree(n_curves=G, seed=77, prevalence_step=PREVALENCE_STEP),
        DirectedBinaryTree(n_curves=G, seed=77),
    )


@pytest.mark.parametrize("name", ["pr_auc", "npr_auc", "lift_auc", "gain_auc"])
def test_each_curves_area_is_within_1e_5_of_the_direct_one(pair, name):
    grid, direct = pair
    q = parse_area(name)
    rng = np.random.default_rng(1)
    for pi in rng.uniform(0.003, 0.6, 3):
        interpolated = grid.interpolated_values(q, pi)
        (exact,) = direct._one_pass([(q, float(pi))])  # curve order, unsorted
        err = np.abs(interpolated - exact)
        assert err.max() < 1e-5, (name, pi, err.max())  # measured: about 1e-6
        scale = np.abs(exact).max()
        assert err.max() < 1e-5 * scale


def test_ops_within_a_quarter_of_the_monte_carlo_standard_error(pair):
    grid, direct = pair
    rng = np.random.default_rng(2)
    pis = rng.uniform(0.005, 0.3, 25)
    for name, values in (
        ("pr_auc", rng.uniform(0.02, 0.95, 25)),
        ("lift_auc", rng.uniform(0.5, 8.0, 25)),
    ):
        a = grid.ops(name, values, prevalence=pis)
        b = direct.ops(name, values, prevalence=pis)
        assert np.all(np.abs(a.estimate - b.estimate) <= b.standard_error / 4), name
        assert (a.estimate != 0.5).any() and np.ptp(b.estimate) > 0.5  # not a trivial range
        assert a.method.endswith("interpolated in logit(prevalence) (step 0.125)")
        assert "interpolated" not in b.method


def test_exact_where_the_value_does_not_depend_on_prevalence(pair):
    grid, direct = pair
    pis = np.array([0.01, 0.2, 0.4])
    for name, at in (("roc_auc", None), ("precision", {"recall": 0.9})):
        a = grid.ops(name, 0.7 if at is None else 0.3, prevalence=pis, at=at)
        b = direct.ops(name, 0.7 if at is None else 0.3, prevalence=pis, at=at)
        np.testing.assert_array_equal(a.estimate, b.estimate)
        assert a.method == b.method


def test_the_grid_is_stated_and_checked():
    ref = DirectedBinaryTree(n_curves=1000, prevalence_step=0.25)
    assert ref.description.endswith("prevalence_step=0.25)")
    assert ref != DirectedBinaryTree(n_curves=1000)
    with pytest.raises(ValueError, match="prevalence_step"):
        DirectedBinaryTree(prevalence_step=0.0)
    with pytest.raises(TypeError, match="prevalence_step"):
        DirectedBinaryTree(prevalence_step="fine")
    with pytest.raises(ValueError, match="does not interpolate"):
        DirectedBinaryTree(n_curves=1000).interpolated_values("pr_auc", 0.1)


def test_evaluate_interpolates_when_the_grid_is_cheaper():
    # 3 prevalences: 3 direct passes, fewer than a grid's nodes
    assert _default_curve_reference([0.1, 0.2, 0.3]).prevalence_step is None
    # 200 prevalences within 0.05..0.3: about 40 nodes
    many = list(np.linspace(0.05, 0.3, 200))
    ref = _default_curve_reference(many)
    assert ref.prevalence_step == PREVALENCE_STEP
    assert ref.grid_nodes(np.array(many)).size < 50


def test_evaluate_with_the_grid_agrees_with_the_direct_reference():
    rng = np.random.default_rng(4)
    g = np.repeat(np.arange(30), 120)
    y = rng.random(g.size) < rng.uniform(0.05, 0.4, 30)[g]
    df = pd.DataFrame({"y": y.astype(int), "s": rng.normal(y * 1.2, 1.0), "g": g})
    kw = {"truth": "y", "score": "s", "metrics": ["pr_auc", "roc_auc"], "by": "g", "rng": 1}
    grid = evaluate(
        df, curve_reference=DirectedBinaryTree(depth=6, n_curves=3000, prevalence_step=0.125), **kw
    )
    direct = evaluate(df, curve_reference=DirectedBinaryTree(depth=6, n_curves=3000), **kw)
    quarter = direct["ops_se"] / 4
    for col in ("ops", "ops_ci_low", "ops_ci_high"):
        assert (np.abs(grid[col] - direct[col]) <= quarter + 1e-15).all(), col
    np.testing.assert_array_equal(grid["value"], direct["value"])  # the data's side: same
    pr = grid[grid.metric == "pr_auc"]
    assert pr["method"].str.contains(r"interpolated in logit\(prevalence\)").all()
    assert not grid[grid.metric == "roc_auc"]["method"].str.contains("interpolated").any()


@pytest.mark.parametrize("name", ["pr_auc", "npr_auc", "lift_auc", "gain_auc", "roc_auc"])
@pytest.mark.parametrize("rule", ["step", "trapezoid"])
def test_areas_at_many_prevalences_equal_the_areas_one_by_one(name, rule):
    """curve_areas (segment widths shared by the prevalences, as the grid's pass uses
    it) gives each prevalence's area bit for bit, ties (zero-width segments) included,
    and the step PR AUC equals average precision summed by hand."""
    from opsstats.curves._geometry import CurveArea, curve_area, curve_areas

    rng = np.random.default_rng(5)
    a = np.sort(np.r_[0.0, rng.choice([0.1, 0.3, 0.3, 0.6], 12), 1.0])
    b = np.sort(np.r_[0.0, rng.choice([0.2, 0.5, 0.5, 0.9], 12), 1.0])[::-1]
    alpha, beta = np.vstack([a, a**2]), np.vstack([b, b])
    spec = parse_area(name)
    spec = CurveArea(spec.curve, rule, spec.normalized)
    pis = [0.004, 0.05, 0.3, 0.8]
    many = curve_areas(spec, pis, alpha, beta)
    for pi, values in zip(pis, many, strict=True):
        np.testing.assert_array_equal(values, curve_area(spec, pi, alpha, beta))
    if name == "pr_auc" and rule == "step":
        tpr = 1 - beta[0]
        for pi, values in zip(pis, many, strict=True):
            q = pi * tpr + (1 - pi) * alpha[0]
            ap = sum(
                (tpr[k] - tpr[k - 1]) * pi * tpr[k] / q[k]
                for k in range(1, tpr.size)
                if tpr[k] > tpr[k - 1]
            )
            assert values[0] == pytest.approx(ap, abs=1e-14)
