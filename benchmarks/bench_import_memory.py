"""Benchmark: the start of a worker process (import time and memory), before and after.

For each checkout given (a path to a source tree of opsstats), in fresh subprocesses:

- ``python -X importtime -c "import opsstats"``: the cumulative import time of opsstats
  (median of the runs) and whether scipy.stats is loaded;
- a first DBT OPS (``DirectedBinaryTree().ops("pr_auc", 0.6, prevalence=0.1)``): its wall
  time and the process's peak resident memory (``ru_maxrss``), beside the resident memory
  right after the import, and the OPS value (equal before and after: same curves).

Run: ``nice python benchmarks/bench_import_memory.py --before /tmp/ops-before --after .``
(``git worktree add /tmp/ops-before <commit>`` makes the "before" tree.)
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time

FIRST_OPS = """
import json, resource, time
t = time.perf_counter()
import opsstats
t_import = time.perf_counter() - t
rss_import = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
t = time.perf_counter()
r = opsstats.DirectedBinaryTree().ops("pr_auc", 0.6, prevalence=0.1)
t_ops = time.perf_counter() - t
import sys
print(json.dumps({"t_import": t_import, "rss_import": rss_import, "t_ops": t_ops,
                  "peak": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "ops": r.estimate, "scipy_stats": "scipy.stats" in sys.modules,
                  "file": opsstats.__file__}))
"""


def run(tree: str, code: list[str]) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.path.abspath(tree)}
    # run in the tree: `python -c` puts the working directory first on sys.path
    return subprocess.run(
        [sys.executable, *code],
        env=env,
        cwd=os.path.abspath(tree),
        capture_output=True,
        text=True,
        check=True,
    )


def import_time(tree: str) -> float:
    err = run(tree, ["-X", "importtime", "-c", "import opsstats"]).stderr
    (line,) = [x for x in err.splitlines() if re.search(r"\|\s+opsstats$", x)]
    return int(line.split("|")[1]) / 1e6  # cumulative microseconds -> s


def measure(tree: str, runs: int) -> dict:
    imports = [import_time(tree) for _ in range(runs)]
    first = [json.loads(run(tree, ["-c", FIRST_OPS]).stdout) for _ in range(runs)]
    return {
        "import": statistics.median(imports),
        "t_ops": statistics.median(f["t_ops"] for f in first),
        "peak": statistics.median(f["peak"] for f in first),
        "rss_import": statistics.median(f["rss_import"] for f in first),
        "ops": first[0]["ops"],
        "scipy_stats": first[0]["scipy_stats"],
        "file": first[0]["file"],
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--before", required=True)
    ap.add_argument("--after", default=".")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    before = measure(args.before, args.runs)
    after = measure(args.after, args.runs)
    for label, m, tree in (("before", before, args.before), ("after", after, args.after)):
        assert os.path.abspath(m["file"]).startswith(os.path.abspath(tree)), (label, m["file"])
    print(
        f"Run at {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} on a shared 2-core "
        f"machine (other jobs running); medians of {args.runs} fresh processes each."
    )
    print()
    print("| measure | before | after | after / before |")
    print("|---|---:|---:|---:|")
    rows = [
        ("`import opsstats`, cumulative (-X importtime), s", "import", "{:.3f}"),
        ("first DBT OPS (PR AUC at pi = 0.1), wall s", "t_ops", "{:.2f}"),
        ("peak resident memory of that process, MB", "peak", "{:.0f}"),
        ("resident memory after the import, MB", "rss_import", "{:.0f}"),
    ]
    for text, key, fmt in rows:
        b, a = before[key], after[key]
        print(f"| {text} | {fmt.format(b)} | {fmt.format(a)} | {a / b:.2f} |")
    print(
        f"| scipy.stats loaded by the import | {before['scipy_stats']} | {after['scipy_stats']} | |"
    )
    print(
        f"| the OPS | {before['ops']:.5f} | {after['ops']:.5f} | "
        f"{'equal' if before['ops'] == after['ops'] else 'DIFFERENT'} |"
    )
    print()
    print(
        f"Peak above the import: before {before['peak'] - before['rss_import']:.0f} MB, "
        f"after {after['peak'] - after['rss_import']:.0f} MB."
    )


if __name__ == "__main__":
    main()
