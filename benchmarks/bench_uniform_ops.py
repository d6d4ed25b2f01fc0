"""Benchmark: exact OPS under the uniform reference (targets for MCC: one
value < 1 ms, 10,000 values at one prevalence < 50 ms).

Three routes are timed in the same run, each through the same public or engine call:

- ``Uniform().ops`` -- the public call; MCC has a closed form
  (``_uniform_closed_forms._ops_mcc``), so this is the route users get;
- the quadrature engine with MCC's closed-form level set beta*(alpha) (the route
  ``BetaErrors`` and ``BetterThanChance`` take for MCC);
- the generic quadrature engine with no per-metric help (the route of any metric
  without a closed form, e.g. markedness or a user metric).

Run: ``python benchmarks/bench_uniform_ops.py``. Times are medians of repeated runs,
after one warm-up call that fills the per-(metric, prevalence) profile cache; the
first (cold) call is timed separately.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from opsstats.metrics import resolve_metric
from opsstats.reference import _quadrature as quad
from opsstats.reference import _uniform_closed_forms as cf
from opsstats.reference.uniform import Uniform

PI = 0.1
REPEATS_ONE = 200
REPEATS_MANY = 5


def median_time(fn, repeats):
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def fmt(seconds):
    return f"{seconds * 1e3:9.3f} ms"


def main():
    ref = Uniform()
    mcc = resolve_metric("mcc")
    design = quad.UniformSquare()
    one = np.array([0.4])
    many = np.linspace(-1, 1, 10_000)
    level_set = lambda a, mu: cf.mcc_level_set(PI, a, mu)  # noqa: E731

    t0 = time.perf_counter()
    quad.exact_ops(mcc, one, PI, design)  # cold: builds the profile
    cold = time.perf_counter() - t0

    routes = {
        "Uniform().ops (closed form)": (
            lambda: ref.ops("mcc", 0.4, prevalence=PI),
            lambda: ref.ops("mcc", many, prevalence=PI),
        ),
        "quadrature + closed-form level set": (
            lambda: quad.exact_ops(mcc, one, PI, design, level_set=level_set),
            lambda: quad.exact_ops(mcc, many, PI, design, level_set=level_set),
        ),
        "generic quadrature (root finder)": (
            lambda: quad.exact_ops(mcc, one, PI, design),
            lambda: quad.exact_ops(mcc, many, PI, design),
        ),
    }
    print(
        f"Exact uniform OPS of MCC at prevalence {PI} (targets: 1 value < 1 ms, "
        "10,000 values < 50 ms)"
    )
    print(f"{'route':40s} {'1 value':>12s} {'10,000 values':>14s}")
    for name, (f_one, f_many) in routes.items():
        f_one()
        f_many()
        print(
            f"{name:40s} {fmt(median_time(f_one, REPEATS_ONE)):>12s} "
            f"{fmt(median_time(f_many, REPEATS_MANY)):>14s}"
        )
    print(
        f"first call of the engine for a new (metric, prevalence): {fmt(cold)} "
        "(monotonicity profile on a grid, then cached)"
    )

    # The three routes agree (each is an independent computation of the same area).
    a = ref.ops("mcc", many, prevalence=PI).estimate
    b = quad.exact_ops(mcc, many, PI, design, level_set=level_set)
    c = quad.exact_ops(mcc, many, PI, design)
    print(
        f"max |closed form - level-set quadrature| = {np.max(np.abs(a - b)):.2e}; "
        f"max |closed form - generic quadrature| = {np.max(np.abs(a - c)):.2e}"
    )

    # A metric with no closed form at all: markedness, through the generic engine.
    mk = "markedness"
    ref.ops(mk, 0.2, prevalence=PI)
    t_one = median_time(lambda: ref.ops(mk, 0.2, prevalence=PI), REPEATS_ONE // 4)
    t_many = median_time(lambda: ref.ops(mk, many, prevalence=PI), REPEATS_MANY)
    print(f"{'markedness via Uniform().ops (generic)':40s} {fmt(t_one):>12s} {fmt(t_many):>14s}")


if __name__ == "__main__":
    main()
