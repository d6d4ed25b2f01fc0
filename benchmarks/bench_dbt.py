"""Benchmark: the Directed Binary Tree reference at its defaults (depth 9, G = 100,000).

Targets: first OPS of a new (metric, prevalence) < 2 s; repeated OPS < 1 ms;
peak memory < 1 GB. Each case runs in a fresh Python process so that the first-call time
and the peak resident memory (``ru_maxrss``) are its own.

Run: ``python benchmarks/bench_dbt.py``
"""

from __future__ import annotations

import json
import subprocess
import sys

CASE = r"""
import json, resource, time
import numpy as np
from opsstats.reference.dbt import DirectedBinaryTree
metric, at, pi = {metric!r}, {at!r}, {pi!r}
dbt = DirectedBinaryTree()
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t = time.perf_counter()
first = dbt.ops(metric, {value!r}, prevalence=pi, at=at)
t_first = time.perf_counter() - t
reps = []
for v in np.linspace(0.2, 0.8, 200):
    t = time.perf_counter()
    dbt.ops(metric, float(v) * {scale!r}, prevalence=pi, at=at)
    reps.append(time.perf_counter() - t)
t = time.perf_counter()
dbt.ops(metric, np.linspace(0.01, 0.99, 10_000) * {scale!r}, prevalence=pi, at=at)
t_vec = time.perf_counter() - t
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps(dict(first=t_first, repeated_median=float(np.median(reps)),
                      vector_10000=t_vec, peak_mb=peak / 1024, import_mb=base / 1024,
                      ops=first.estimate)))
"""

CASES = [
    ("pr_auc", None, 0.091, 0.354, 1.0),
    ("roc_auc", None, 0.1, 0.8, 1.0),
    ("precision", {"recall": 0.9}, 0.19, 0.264, 1.0),
    ("lift_auc", None, 0.3, 1.806, 3.0),
    ("lift", {"rate": 500 / 9000}, 0.091, 4.61, 5.0),
]


def main() -> None:
    print("DirectedBinaryTree(depth=9, n_curves=100000): one fresh process per case")
    print(
        f"{'quantity':<28}{'first (s)':>10}{'repeat (ms)':>13}{'10k values (ms)':>17}"
        f"{'peak RSS (MB)':>15}{'OPS':>8}"
    )
    worst_first = worst_rep = worst_mem = 0.0
    for metric, at, pi, value, scale in CASES:
        code = CASE.format(metric=metric, at=at, pi=pi, value=value, scale=scale)
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        ).stdout
        r = json.loads(out)
        label = metric + (f" at {at}" if at else "") + f", pi={pi}"
        print(
            f"{label:<28}{r['first']:>10.3f}{1e3 * r['repeated_median']:>13.3f}"
            f"{1e3 * r['vector_10000']:>17.2f}{r['peak_mb']:>15.0f}{r['ops']:>8.4f}"
        )
        worst_first = max(worst_first, r["first"])
        worst_rep = max(worst_rep, r["repeated_median"])
        worst_mem = max(worst_mem, r["peak_mb"])
    print()
    print(
        f"worst first OPS {worst_first:.2f} s (target < 2 s): "
        f"{'met' if worst_first < 2 else 'NOT met'}"
    )
    print(
        f"worst repeated OPS {1e3 * worst_rep:.3f} ms (target < 1 ms): "
        f"{'met' if worst_rep < 1e-3 else 'NOT met'}"
    )
    print(
        f"worst peak resident memory {worst_mem:.0f} MB, interpreter and imports included "
        f"(target < 1024 MB): {'met' if worst_mem < 1024 else 'NOT met'}"
    )


if __name__ == "__main__":
    main()
