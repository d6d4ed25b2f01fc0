"""Peak memory of a pass over the Directed Binary Tree's curves, by depth.

Each depth runs in a fresh subprocess, which builds ``DirectedBinaryTree(depth=d)``
(100,000 curves, the default) and computes the OPS of a PR AUC and of a precision at
recall 0.9 (one pass over the curves for both); the subprocess reports its peak
resident set size (``resource.getrusage``, ``ru_maxrss``) and the Python baseline
before the pass. The documented maximum depth (``opsstats._validation.MAX_DEPTH``) must
stay within the memory the docs state (about 1 GB; the limit a call may plan is
``MEMORY_LIMIT`` = 2 GiB). Run from the repository root::

    PYTHONPATH=. python benchmarks/dbt_memory.py [--depths 9 10 11 12] [--write]

``--write`` writes ``benchmarks/results/dbt_memory.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULT = ROOT / "benchmarks" / "results" / "dbt_memory.md"

CHILD = r"""
import json, resource, sys, time
import numpy as np
from opsstats import DirectedBinaryTree
from opsstats.reference._streamed import pass_bytes
depth = int(sys.argv[1])
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
ref = DirectedBinaryTree(depth=depth)
t = time.perf_counter()
ref.precompute(["pr_auc", ("precision", {"recall": 0.9})], 0.1)
r = ref.ops("pr_auc", 0.5, prevalence=0.1).estimate
seconds = time.perf_counter() - t
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"depth": depth, "points": ref.n_points, "base_kib": base, "peak_kib": peak,
                  "estimate_bytes": pass_bytes(ref.n_points, ref.n_curves),
                  "seconds": seconds, "ops": float(r)}))
"""


def measure(depth: int) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(depth)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depths", type=int, nargs="+", default=[9, 10, 11, 12])
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    rows = [measure(d) for d in args.depths]
    lines = [
        "# Peak memory of a pass over the DBT's curves",
        "",
        f"`PYTHONPATH=. python benchmarks/dbt_memory.py --depths "
        f"{' '.join(map(str, args.depths))} --write`, {time.strftime('%Y-%m-%d')}, "
        f"Python {platform.python_version()}, {os.cpu_count()} CPUs. 100,000 curves; one "
        "pass computes the PR AUC and the precision at recall 0.9 at prevalence 0.1. Peak "
        "RSS of a fresh process (`ru_maxrss`), the interpreter with numpy, scipy, pandas "
        "and opsstats loaded before the pass included; the estimate is "
        "`opsstats.reference._streamed.pass_bytes`, what the reference checks against "
        "`MEMORY_LIMIT` (2 GiB) before it starts.",
        "",
        "| depth | points per curve | peak RSS (MB) | before the pass (MB) | estimate (MB) | seconds |",
        "|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['depth']} | {r['points']:,} | {r['peak_kib'] / 1024:,.0f} | "
            f"{r['base_kib'] / 1024:,.0f} | {r['estimate_bytes'] / 2**20:,.0f} | "
            f"{r['seconds']:.1f} |"
        )
    text = "\n".join(lines) + "\n"
    print(text)
    if args.write:
        RESULT.write_text(text)


if __name__ == "__main__":
    main()
