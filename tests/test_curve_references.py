"""Binormal and empirical references, checked against independent computations."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import norm

from opsstats import ConfusionMatrix, UndefinedMetricWarning
from opsstats.curves._geometry import parse_area
from opsstats.reference.binormal import BinormalCurves
from opsstats.reference.empirical import EmpiricalCurves, EmpiricalPoints


def test_binormal_roc_auc_ops_against_closed_form_monte_carlo():
    """Under the binormal family, ROC AUC = Phi(a / sqrt(1 + b^2)) with a ~ U(-3, 3),
    log b ~ N(0, 0.5^2). An independent Monte Carlo of that closed form (1e6 draws)
    must agree with the reference's OPS within 4 combined standard errors plus the
    discretization of the curves (trapezoid on 513 points: < 1e-4 in AUC)."""
    ref = BinormalCurves(n_curves=50_000, seed=3)
    rng = np.random.default_rng(123)
    a = rng.uniform(-3, 3, 1_000_000)
    b = np.exp(rng.normal(0, 0.5, 1_000_000))
    auc = norm.cdf(a / np.sqrt(1 + b * b))
    for mu in (0.3, 0.5, 0.75, 0.9, 0.97):
        expected = (auc < mu).mean()
        got = ref.ops("roc_auc", mu, prevalence=0.2)
        se = np.sqrt(got.standard_error**2 + expected * (1 - expected) / 1e6)
        # density of AUC near mu times the 1e-4 discretization bias
        slack = 1e-4 * ((auc < mu + 1e-3).mean() - (auc < mu - 1e-3).mean()) / 2e-3
        assert abs(got.estimate - expected) <= 4 * se + slack


def test_binormal_curves_are_monotone_and_reproducible():
    ref = BinormalCurves(n_curves=500, seed=1)
    a, b = next(ref.iter_curves())
    assert a.shape == (500, 513)
    assert (np.diff(a, axis=1) >= 0).all() and (np.diff(b, axis=1) <= 0).all()
    v1 = ref.reference_values(parse_area("pr_auc"), 0.1)
    v2 = BinormalCurves(n_curves=500, seed=1).reference_values(parse_area("pr_auc"), 0.1)
    np.testing.assert_array_equal(v1, v2)


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        ({"separation": (1.0, -1.0)}, ValueError, "`separation` must be a pair \\(low, high\\)"),
        ({"log_slope_sd": -0.1}, ValueError, "`log_slope_sd` must be in \\[0, inf\\); got -0.1"),
        ({"n_points": 2}, ValueError, "`n_points` must be an integer >= 3; got 2"),
        ({"n_curves": 5}, ValueError, "`n_curves` must be an integer >= 100; got 5"),
    ],
)
def test_binormal_errors(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        BinormalCurves(**kwargs)


def test_empirical_points_is_a_plain_count():
    rng = np.random.default_rng(0)
    alpha, beta = rng.uniform(0, 0.6, 300), rng.uniform(0, 0.6, 300)
    pool = EmpiricalPoints(alpha, beta)
    pi = 0.15
    for mu in (0.2, 0.35, 0.5):
        # slow, obvious: F1 of every member at pi from its counts per 1000 rows
        f1 = [
            ConfusionMatrix.from_rates(n=1000, prevalence=pi, alpha=a, beta=b).metric("f1")
            for a, b in zip(alpha, beta, strict=True)
        ]
        expected = np.mean(np.array(f1) < mu)
        r = pool.ops("f1", mu, prevalence=pi)
        assert r.estimate == pytest.approx(expected, abs=1e-12)
        assert r.standard_error == pytest.approx(np.sqrt(expected * (1 - expected) / 300))
    # lower-is-better: counts members with a larger error rate
    assert pool.ops("fpr", 0.3, prevalence=pi).estimate == pytest.approx(np.mean(alpha > 0.3))


def test_empirical_points_from_matrices_and_undefined_members():
    mats = [
        ConfusionMatrix(tp=5, fp=0, fn=5, tn=10),
        ConfusionMatrix(tp=0, fp=0, fn=10, tn=10),
        ConfusionMatrix(tp=8, fp=2, fn=2, tn=8),
    ]
    pool = EmpiricalPoints.from_confusion_matrices(mats)
    np.testing.assert_allclose(pool.alpha, [0.0, 0.0, 0.2])
    with pytest.warns(UndefinedMetricWarning, match="undefined \\(0/0\\) for 1 of the 3"):
        r = pool.ops("precision", 0.9, prevalence=0.5)
    assert r.estimate == 0.5  # of the 2 defined members (1.0, 0.8), one is below 0.9
    with pytest.raises(ValueError, match="must have both classes present"):
        EmpiricalPoints.from_confusion_matrices([ConfusionMatrix(tp=1, fp=0, fn=0, tn=0)])
    with pytest.raises(ValueError, match=r"`alpha` must hold error rates in \[0, 1\]; got 1.5"):
        EmpiricalPoints([1.5], [0.1])
    with pytest.raises(ValueError, match="`alpha` and `beta` must have the same length"):
        EmpiricalPoints([0.1, 0.2], [0.1])


def test_empirical_curves_against_direct_computation():
    rng = np.random.default_rng(1)
    curves = []
    for _ in range(40):
        k = rng.integers(3, 30)
        a = np.sort(rng.uniform(0, 1, k))
        b = np.sort(rng.uniform(0, 1, k))[::-1]
        curves.append((a, b))  # endpoints added by the reference
    pool = EmpiricalCurves(curves)
    auc = np.array([np.trapezoid(1 - np.r_[1, b, 0], np.r_[0, a, 1]) for a, b in curves])
    for mu in (0.3, 0.5, 0.7):
        assert pool.ops("roc_auc", mu, prevalence=0.3).estimate == pytest.approx(
            np.mean(auc < mu), abs=1e-12
        )
    # ties="mid": rank an exact member value
    mu = np.sort(auc)[10]
    assert pool.ops("roc_auc", mu, prevalence=0.3, ties="mid").estimate == pytest.approx(
        (10 + 0.5) / 40
    )


def test_empirical_curves_errors():
    with pytest.raises(ValueError, match="ordered by decreasing threshold"):
        EmpiricalCurves([([0.5, 0.2], [0.5, 0.7])])
    with pytest.raises(ValueError, match="at least one curve"):
        EmpiricalCurves([])
