"""What is shared between calls cannot be corrupted (caches, the registry, threads).

* Caches hand out read-only arrays: a caller who writes into a reference's values gets
  an error, not every later OPS in the process wrong.
* A metric re-registered with ``overwrite=True`` is never served from a cache filled
  by the metric it replaced (caches key on the metric itself, not on its name).
* Eight threads sharing references (point and curve, small caches that evict all the
  time) get exactly the single-threaded numbers and no exception. On the code before
  these fixes this test failed: ``KeyError`` raised in ``reference/_streamed.py`` by
  ``OrderedDict.move_to_end`` on a key another thread had just evicted.
"""

from __future__ import annotations

import numpy as np
import pytest
from fuzz_cases import thread_stress

from opsstats import (
    BetaErrors,
    BinormalCurves,
    DirectedBinaryTree,
    EmpiricalCurves,
    EmpiricalPoints,
    ScoreCurve,
    Uniform,
)
from opsstats.metrics import register_metric, unregister_metric

N_THREADS = 8

_POOL_RNG = np.random.default_rng(17)
POINTS = EmpiricalPoints(_POOL_RNG.uniform(0, 0.6, 500), _POOL_RNG.uniform(0, 0.6, 500))
_CURVE = ScoreCurve.from_scores(_POOL_RNG.random(200) < 0.3, _POOL_RNG.normal(size=200))
CURVES = EmpiricalCurves(
    [
        ScoreCurve.from_scores(_POOL_RNG.random(60) < 0.4, _POOL_RNG.normal(size=60))
        for _ in range(30)
    ]
)


def _run_threads(tasks, calls_per_thread: int) -> None:
    """Eight threads call the tasks in their own random orders; every call must give the
    single-threaded number and raise nothing (tests/fuzz_cases.py's stress, which
    the census runs on the old code too)."""
    bad = thread_stress(tasks, calls_per_thread)
    total = N_THREADS * calls_per_thread
    assert not bad, f"{len(bad)} of {total} calls went wrong, e.g. {bad[:3]}"


def test_eight_threads_share_a_curve_reference():
    """The stress that broke the old cache: a Monte Carlo reference that keeps one value
    vector, two quantities asked for in turn by eight threads, so that every store evicts
    what another thread has just found cached. On the code before the fix this test
    failed in each of 8 runs: 11 to 29 of its 12,000 calls raised KeyError; now none
    does, and each call gives the single-threaded number."""
    dbt = DirectedBinaryTree(depth=2, n_curves=200, seed=404, cache_size=1)
    tasks = [(q, lambda q=q: dbt.ops(q, 0.5, prevalence=0.1)) for q in ("pr_auc", "gain_auc")]
    _run_threads(tasks, 1500)


def test_eight_threads_share_every_kind_of_reference():
    """Point and curve references, exact and Monte Carlo, with their caches (the Monte
    Carlo ones keep 3 of the 14 keys asked for): every call gives the single-threaded
    number."""
    dbt = DirectedBinaryTree(depth=2, n_curves=200, seed=409, cache_size=3)
    binormal = BinormalCurves(n_curves=200, n_points=9, seed=405, cache_size=3)
    beta = BetaErrors(2, 5, 3, 4)
    tasks = [("curve ops", lambda: _CURVE.ops("pr_auc", reference=dbt))]
    for pi in (0.1, 0.2, 0.35):
        for q in ("pr_auc", "roc_auc", "lift_auc", "gain_auc"):
            tasks.append((f"dbt {q} {pi}", lambda q=q, pi=pi: dbt.ops(q, 0.6, prevalence=pi)))
        tasks += [
            (
                f"dbt precision@recall {pi}",
                lambda pi=pi: dbt.ops("precision", 0.5, prevalence=pi, at={"recall": 0.7}),
            ),
            (f"binormal pr_auc {pi}", lambda pi=pi: binormal.ops("pr_auc", 0.5, prevalence=pi)),
            (
                f"uniform markedness {pi}",
                lambda pi=pi: Uniform().ops("markedness", 0.2, prevalence=pi),
            ),
            (f"beta f1 {pi}", lambda pi=pi: beta.ops("f1", 0.4, prevalence=pi)),
            (f"points mcc {pi}", lambda pi=pi: POINTS.ops("mcc", 0.3, prevalence=pi)),
            (f"curves pr_auc {pi}", lambda pi=pi: CURVES.ops("pr_auc", 0.5, prevalence=pi)),
        ]
    _run_threads(tasks, 150)


def test_cached_reference_values_are_read_only():
    dbt = DirectedBinaryTree(depth=4, n_curves=1000, seed=406)
    before = dbt.ops("pr_auc", 0.6, prevalence=0.1).estimate
    for ref in (dbt, BinormalCurves(n_curves=500, n_points=17, seed=407), CURVES):
        values = ref.reference_values(ref._quantity("pr_auc", None, None, {}), 0.1)
        assert not values.flags.writeable
        with pytest.raises(ValueError, match="read-only"):
            values[:] = 0
    values = POINTS.reference_values(POINTS._quantity("f1", None, None, {}), 0.2)
    with pytest.raises(ValueError, match="read-only"):
        values[0] = 1.0
    assert dbt.ops("pr_auc", 0.6, prevalence=0.1).estimate == before
    # a pool's own arrays, and a curve's, are read-only too
    for arr in (POINTS.alpha, POINTS.beta, _CURVE.alpha, *_CURVE._geometry_points()):
        assert not arr.flags.writeable
    # the band of a reference is a fresh array, the caller's to change
    band = dbt.band("pr", 0.1, [0.5])
    band[:] = 0
    assert dbt.ops("pr_auc", 0.6, prevalence=0.1).estimate == before


def test_overwritten_metric_is_not_served_from_the_caches():
    """After register_metric(name, ..., overwrite=True), every reference computes the
    new metric (the Monte Carlo and empirical caches key on the metric object)."""
    name = "shared_state_recall_like"
    register_metric(name, lambda p, a, b: 1 - b, direction="higher", range=(0, 1))
    try:
        dbt = DirectedBinaryTree(depth=4, n_curves=1000, seed=408)
        at = {"fpr": 0.3}
        old = {
            "dbt": dbt.ops(name, 0.5, prevalence=0.2, at=at).estimate,
            "points": POINTS.ops(name, 0.5, prevalence=0.2).estimate,
            "curves": CURVES.ops(name, 0.5, prevalence=0.2, at=at).estimate,
            "uniform": Uniform().ops(name, 0.5, prevalence=0.2).estimate,
        }
        # now the "same" name means alpha (lower alpha: higher value) instead of 1 - beta
        register_metric(
            name, lambda p, a, b: 1 - a, direction="higher", range=(0, 1), overwrite=True
        )
        new = {
            "dbt": dbt.ops(name, 0.5, prevalence=0.2, at=at).estimate,
            "points": POINTS.ops(name, 0.5, prevalence=0.2).estimate,
            "curves": CURVES.ops(name, 0.5, prevalence=0.2, at=at).estimate,
            "uniform": Uniform().ops(name, 0.5, prevalence=0.2).estimate,
        }
        # the new metric at fpr = 0.3 is 0.7 on every curve: 0.5 beats none of them
        assert new["dbt"] == 0.0 and new["curves"] == 0.0
        assert old["dbt"] > 0.0 and old["curves"] > 0.0
        # on the pool: the share of members with 1 - alpha < 0.5, i.e. alpha > 0.5
        assert new["points"] == pytest.approx(np.mean(1 - POINTS.alpha < 0.5))
        assert old["points"] == pytest.approx(np.mean(1 - POINTS.beta < 0.5))
        assert new["uniform"] == pytest.approx(0.5, abs=1e-9)
    finally:
        unregister_metric(name)
