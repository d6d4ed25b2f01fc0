"""Which OPS do not depend on the prevalence (docs/method.md#prevalence-invariance).

The registry's ``prevalence_invariant`` attribute is checked numerically for every
metric that claims it: the order of random (alpha, beta) pairs is the same at six
prevalences from 0.001 to 0.999 (the theorem's condition), and the package's OPS at a
fixed (alpha, beta) is the same at those prevalences to 1e-9 under each point reference
(its conclusion). The metrics that do not claim it are shown to flip pairs and to move
their OPS. For curve quantities, :func:`opsstats.curves.ops_prevalence_invariant` is
checked under the DBT reference at three prevalences."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import norm

from opsstats import BetaErrors, BetterThanChance, DirectedBinaryTree, EmpiricalPoints, Uniform
from opsstats.curves import ScoreCurve, ops_prevalence_invariant
from opsstats.curves._geometry import parse_area
from opsstats.metrics import (
    available_metrics,
    get_metric,
    metric_table,
    register_metric,
    resolve_metric,
    unregister_metric,
)

PREVALENCES = (0.001, 0.01, 0.2, 0.5, 0.9, 0.999)
INVARIANT = [m for m in available_metrics() if get_metric(m).prevalence_invariant]
NOT_INVARIANT = [m for m in available_metrics() if get_metric(m).prevalence_invariant is False]
#: (alpha, beta) of a few classifiers: the issue's binormal one at thresholds 1.5 and
#: 0.75 (negatives N(0, 1), positives N(1.5, 1)), a weak one, a strong one
CLASSIFIERS = [
    (float(norm.sf(1.5)), 0.5),
    (float(norm.sf(0.75)), float(norm.cdf(-0.75))),
    (0.3, 0.4),
    (0.02, 0.05),
]


def test_the_registry_classifies_every_built_in_metric():
    """Sixteen invariant (the prevalence-free rates and ratios, and the
    prevalence-separable precision, NPV, FDR, FOR and lift), nine not."""
    assert sorted(INVARIANT) == sorted(
        [
            "recall",
            "specificity",
            "fpr",
            "fnr",
            "balanced_accuracy",
            "informedness",
            "g_mean",
            "lr_plus",
            "lr_minus",
            "diagnostic_odds_ratio",
            "prevalence_threshold",
            "precision",
            "fdr",
            "lift",
            "npv",
            "false_omission_rate",
        ]
    )
    assert sorted(NOT_INVARIANT) == sorted(
        [
            "accuracy",
            "error_rate",
            "f1",
            "fbeta",
            "jaccard",
            "fowlkes_mallows",
            "mcc",
            "cohen_kappa",
            "markedness",
        ]
    )
    assert all(get_metric(m).monotone is True for m in available_metrics())
    table = metric_table()
    assert table["prevalence invariant"].tolist() == [
        get_metric(m).prevalence_invariant for m in available_metrics()
    ]
    assert table.loc[["precision", "f1"], "prevalence invariant"].tolist() == [True, False]
    assert table["monotone"].tolist() == [True] * len(table)


def _signs(name: str, pi: float, pairs: np.ndarray) -> np.ndarray:
    m = resolve_metric(name)
    with np.errstate(all="ignore"):
        first = np.asarray(m(pi, pairs[0], pairs[1]), dtype=float)
        second = np.asarray(m(pi, pairs[2], pairs[3]), dtype=float)
    return np.sign(first - second)


@pytest.mark.parametrize("name", INVARIANT)
def test_an_invariant_metric_orders_the_plane_alike_at_every_prevalence(name):
    """The theorem's condition: M(pi, a, b) = h_pi(g(a, b)), h_pi strictly monotone the
    same way for every pi, so every pair of (alpha, beta) points is ordered alike at
    every prevalence (20,000 random pairs, six prevalences)."""
    pairs = np.random.default_rng(7).random((4, 20_000))
    signs = np.array([_signs(name, pi, pairs) for pi in PREVALENCES])
    defined = np.isfinite(signs).all(axis=0)
    assert defined.mean() > 0.99
    assert (signs[:, defined] == signs[0, defined]).all(), name


@pytest.mark.parametrize("name", INVARIANT)
@pytest.mark.parametrize(
    "reference",
    [Uniform(), BetaErrors(2, 5, 3, 4), BetterThanChance()],
    ids=["Uniform", "BetaErrors", "BetterThanChance"],
)
def test_an_invariant_metric_has_the_same_ops_at_every_prevalence(name, reference):
    """The theorem's conclusion, on the package's own (exact) OPS: the same to 1e-9 at
    the six prevalences, for four classifiers."""
    metric = resolve_metric(name)
    for alpha, beta in CLASSIFIERS:
        ops = [
            float(reference.ops(metric, float(metric(pi, alpha, beta)), prevalence=pi).estimate)
            for pi in PREVALENCES
        ]
        assert max(ops) - min(ops) <= 1e-9, (name, alpha, beta, ops)


@pytest.mark.parametrize("name", INVARIANT)
def test_an_invariant_metric_has_the_same_ops_under_a_pool_of_classifiers(name):
    """EmpiricalPoints: the same set of pool members outperformed at every prevalence,
    so the same OPS exactly (the pool's points are random: no ties)."""
    rng = np.random.default_rng(3)
    pool = EmpiricalPoints(rng.random(500), rng.random(500))
    metric = resolve_metric(name)
    for alpha, beta in CLASSIFIERS:
        ops = {
            float(pool.ops(metric, float(metric(pi, alpha, beta)), prevalence=pi).estimate)
            for pi in PREVALENCES
        }
        assert len(ops) == 1, (name, alpha, beta, ops)


@pytest.mark.parametrize("name", NOT_INVARIANT)
def test_the_other_metrics_flip_pairs_and_move_their_ops(name):
    """Between prevalences 0.01 and 0.95 at least 5% of random pairs change order (the
    docs' table: 6.9% for MCC to 48% for accuracy), and the Uniform OPS of the issue's
    classifier (alpha 0.067, beta 0.5) moves by more than 0.01 across the six
    prevalences."""
    pairs = np.random.default_rng(7).random((4, 20_000))
    low, high = _signs(name, 0.01, pairs), _signs(name, 0.95, pairs)
    ok = np.isfinite(low) & np.isfinite(high)
    assert np.mean(low[ok] * high[ok] < 0) > 0.05
    metric, (alpha, beta) = resolve_metric(name), CLASSIFIERS[0]
    ops = [
        float(Uniform().ops(metric, float(metric(pi, alpha, beta)), prevalence=pi).estimate)
        for pi in PREVALENCES
    ]
    assert max(ops) - min(ops) > 0.01, (name, ops)


def test_the_issue_numbers():
    """OPS(F1) of the unchanged classifier (alpha 0.067, beta 0.5) is 0.932 at
    prevalence 0.02, 0.916 at 0.1, 0.840 at 0.3 and 0.703 at 0.5 (issue's values,
    Uniform reference); OPS(MCC) 0.912, 0.902, 0.876, 0.850."""
    alpha, beta = CLASSIFIERS[0]
    for name, want in (("f1", (0.932, 0.916, 0.840, 0.703)), ("mcc", (0.912, 0.902, 0.876, 0.850))):
        metric = resolve_metric(name)
        got = [
            round(
                float(
                    Uniform().ops(metric, float(metric(pi, alpha, beta)), prevalence=pi).estimate
                ),
                3,
            )
            for pi in (0.02, 0.1, 0.3, 0.5)
        ]
        assert tuple(got) == want, (name, got)


def test_registered_metrics_are_unknown_unless_declared():
    m = register_metric(
        "half_recall_inv", lambda p, a, b: (1 - b) / 2, direction="higher", range=(0, 0.5)
    )
    try:
        assert m.prevalence_invariant is None and m.monotone is None
        assert metric_table().loc["half_recall_inv", "prevalence invariant"] is None
        assert ops_prevalence_invariant("half_recall_inv", {"recall": 0.5}) is None
    finally:
        unregister_metric("half_recall_inv")
    m = register_metric(
        "half_recall_inv",
        lambda p, a, b: (1 - b) / 2,
        direction="higher",
        range=(0, 0.5),
        prevalence_invariant=True,
        monotone=True,
    )
    try:
        assert m.prevalence_invariant is True and resolve_metric("half_recall_inv").monotone
        assert ops_prevalence_invariant("half_recall_inv", {"fpr": 0.2}) is True
    finally:
        unregister_metric("half_recall_inv")
    for flag in ("prevalence_invariant", "monotone"):
        with pytest.raises(TypeError, match=f"`{flag}` must be True, False or None; got"):
            register_metric(
                "bad_flag", lambda p, a, b: b, direction="lower", range=(0, 1), **{flag: "yes"}
            )
    assert "bad_flag" not in available_metrics()


# ------------------------------------------------------------------ curve quantities
CURVE_CASES = [
    ("roc_auc", None, {}, True),
    ("nroc_auc", None, {}, True),
    ("roc_auc", None, {"rule": "step"}, True),
    ("roc_pauc", None, {"fpr_range": (0.0, 0.2)}, True),
    ("gini", None, {}, True),
    ("eer", None, {}, True),
    ("precision", {"recall": 0.5}, {}, True),
    ("lift", {"recall": 0.3}, {}, True),
    ("npv", {"fpr": 0.2}, {}, True),
    ("f1", {"recall": 0.5}, {}, True),  # not invariant itself, but monotone
    ("mcc", {"specificity": 0.9}, {}, True),
    ("pr_auc", None, {}, False),
    ("pr_auc", None, {"rule": "trapezoid"}, False),
    ("npr_auc", None, {}, False),
    ("lift_auc", None, {}, False),
    ("lift_auc", None, {"rule": "trapezoid"}, False),
    # the trapezoid gain area is pi / 2 + (1 - pi) ROC AUC: invariant; the step one not
    ("gain_auc", None, {}, True),
    ("ngain_auc", None, {}, True),
    ("gain_auc", None, {"rule": "step"}, False),
    ("precision", {"rate": 0.2}, {}, False),
    ("recall", {"rate": 0.2}, {}, False),
]


@pytest.fixture(scope="module")
def dbt_and_curve():
    rng = np.random.default_rng(11)
    y = rng.random(600) < 0.3
    curve = ScoreCurve.from_scores(y, rng.normal(1.2 * y, 1))
    return DirectedBinaryTree(depth=6, n_curves=4000, seed=5), curve


def test_the_trapezoid_gain_area_is_affine_in_the_roc_auc(dbt_and_curve):
    """Why its OPS is invariant: gain AUC = pi / 2 + (1 - pi) ROC AUC (trapezoid rules),
    to rounding, at any prevalence."""
    _, curve = dbt_and_curve
    for pi in (0.02, 0.3, 0.9):
        gain = float(parse_area("gain_auc")(pi, curve.alpha, curve.beta))
        assert abs(gain - (pi / 2 + (1 - pi) * curve.auc())) < 1e-15


@pytest.mark.parametrize(
    "metric, at, kw, invariant", CURVE_CASES, ids=[f"{c[0]}-{c[1]}-{c[2]}" for c in CURVE_CASES]
)
def test_curve_quantities_under_the_dbt_at_three_prevalences(
    dbt_and_curve, metric, at, kw, invariant
):
    """The same curve's quantity evaluated and ranked at three prevalences: the DBT's
    OPS is the same number exactly where the function says invariant, and differs (by
    more than 0.005; the DBT is one fixed set of curves, so this is no Monte Carlo
    noise) where it says not."""
    ref, curve = dbt_and_curve
    assert ops_prevalence_invariant(metric, at, **kw) is invariant
    rule = kw.pop("rule", None)
    quantity = ref._quantity(metric, at, rule, kw)
    ops = []
    for pi in (0.02, 0.3, 0.9):
        with np.errstate(all="ignore"):
            value = float(quantity(pi, *curve._geometry_points(getattr(quantity, "curve", None))))
        ops.append(float(ref.ops(quantity, value, prevalence=pi).estimate))
    if invariant:
        assert len(set(ops)) == 1, ops
    else:
        assert max(ops) - min(ops) > 0.005, ops


@pytest.mark.parametrize(
    "group",
    [("precision", "lr_plus", "lift", "fdr"), ("npv", "lr_minus", "false_omission_rate")],
)
@pytest.mark.parametrize(
    "reference", [Uniform(), BetaErrors(2, 5, 3, 4)], ids=["Uniform", "BetaErrors"]
)
def test_separable_metrics_share_the_ops_of_a_likelihood_ratio(group, reference):
    """An independent check of the separable class: precision, lift and FDR are
    monotone in g = alpha / (1 - beta) = 1 / LR+ at every prevalence, so their OPS is
    the OPS of LR+ (a function of alpha and beta alone); NPV and FOR likewise that of
    LR- = beta / (1 - alpha). Equal to 1e-9 at three prevalences."""
    for alpha, beta in CLASSIFIERS:
        for pi in (0.01, 0.3, 0.9):
            ops = [
                float(
                    reference.ops(
                        resolve_metric(m), float(resolve_metric(m)(pi, alpha, beta)), prevalence=pi
                    ).estimate
                )
                for m in group
            ]
            assert max(ops) - min(ops) <= 1e-9, (group, alpha, beta, pi, ops)
