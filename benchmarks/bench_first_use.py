"""Benchmark: what a person waits for the first time, each beside its peer in one run.

Every measurement runs in a fresh Python process (``python -c``), as a person meets it:
nothing imported, nothing cached. ``--before PYTHON`` times the same opsstats code under
another interpreter too (e.g. one whose opsstats is the main branch), so that before
and after are measured in the same run, beside the same peer.

Sections (``--section NAME``, repeatable; all by default):

- ``pr-auc-10k``: import opsstats and compute the PR AUC OPS (default DBT reference) of
  10,000 rows, against importing scikit-learn and computing ``average_precision_score``
  (the wall time of the whole process, interpreter start included).
- ``first-ops``: in one fresh process, the first curve OPS (PR AUC) at 5 random
  prevalences, each beside ``average_precision_score`` on the same rows.
- ``display``: ``OPSCurveDisplay.from_predictions`` on 228 rows (PR, ROC and gain, the
  figure drawn on an Agg canvas), against scikit-learn's ``PrecisionRecallDisplay`` and
  ``RocCurveDisplay`` (the gain display beside the PR one: scikit-learn has none);
  imports included, and the draw alone.

A section is one function ``section_<name>(ctx)`` that returns Markdown lines; add one
and list it in ``SECTIONS``.

Run: ``python benchmarks/bench_first_use.py [--before /path/to/python] [--repeat 3]
[--section display] [--out benchmarks/results/bench_first_use.md]``
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

_DATA = """
import numpy as np
rng = np.random.default_rng({seed})
y = rng.random({n}) < {pi}
s = rng.normal(y * 1.2, 1.0)
"""


@dataclass
class Context:
    python: str  # the interpreter whose opsstats is timed ("after")
    before: str | None  # another one ("before"), or None
    repeat: int


def run(python: str, code: str) -> tuple[float, dict]:
    """Wall time of ``python -c code`` and the JSON it prints on its last line."""
    env = {**os.environ, "MPLBACKEND": "Agg", "PYTHONDONTWRITEBYTECODE": "1"}
    t0 = time.perf_counter()
    out = subprocess.run([python, "-c", code], capture_output=True, text=True, env=env, check=False)
    wall = time.perf_counter() - t0
    if out.returncode != 0:
        raise RuntimeError(f"{python} failed:\n{out.stderr[-2000:]}")
    return wall, json.loads(out.stdout.strip().splitlines()[-1])


def median_of(ctx: Context, python: str, code: str) -> tuple[float, dict]:
    """Median wall time over ``ctx.repeat`` fresh processes, and the medians of what they
    print."""
    runs = [run(python, code) for _ in range(ctx.repeat)]
    walls = [w for w, _ in runs]
    keys = runs[0][1].keys()
    inner = {k: statistics.median(r[k] for _, r in runs) for k in keys}
    return statistics.median(walls), inner


def pythons(ctx: Context) -> list[tuple[str, str]]:
    out = [("after", ctx.python)]
    if ctx.before:
        out.insert(0, ("before", ctx.before))
    return out


def ratio_rows(label: str, timed: list[tuple[str, float]], peer: float) -> list[str]:
    return [f"| {label} ({who}) | {t:.3f} | {peer:.3f} | {t / peer:.2f} |" for who, t in timed]


# ----------------------------------------------------------------------------- sections
def section_pr_auc_10k(ctx: Context) -> list[str]:
    data = _DATA.format(seed=1, n=10_000, pi=0.1)
    ops = (
        "import time, json\nt0 = time.perf_counter()\nimport opsstats\n"
        + data
        + "r = opsstats.ScoreCurve.from_scores(y, s).ops('pr_auc')\n"
        "print(json.dumps({'inside': time.perf_counter() - t0, 'ops': r.estimate}))\n"
    )
    peer = (
        "import time, json\nt0 = time.perf_counter()\n"
        "from sklearn.metrics import average_precision_score\n"
        + data
        + "v = average_precision_score(y, s)\n"
        "print(json.dumps({'inside': time.perf_counter() - t0, 'ap': v}))\n"
    )
    peer_wall, peer_inner = median_of(ctx, ctx.python, peer)
    lines = [
        "## Import and the PR AUC OPS of 10,000 rows",
        "",
        f"Wall time of a fresh process (median of {ctx.repeat}), against importing "
        "scikit-learn and `average_precision_score` (the target: at most 1x).",
        "",
        "| what | seconds | scikit-learn | ratio |",
        "|---|---|---|---|",
    ]
    timed, inside = [], []
    for who, python in pythons(ctx):
        wall, inner = median_of(ctx, python, ops)
        timed.append((who, wall))
        inside.append((who, inner["inside"]))
    lines += ratio_rows("import opsstats + PR AUC OPS", timed, peer_wall)
    lines += ratio_rows("the same, inside the process", inside, peer_inner["inside"])
    lines.append("")
    return lines


def section_first_ops(ctx: Context) -> list[str]:
    code = (
        "import time, json\nimport numpy as np\nimport opsstats\n"
        "from sklearn.metrics import average_precision_score\n"
        "rng = np.random.default_rng(5)\nout = []\n"
        "for pi in np.exp(rng.uniform(np.log(0.002), np.log(0.6), 5)):\n"
        "    y = rng.random(10_000) < pi\n    s = rng.normal(y * 1.2, 1.0)\n"
        "    t0 = time.perf_counter()\n"
        "    r = opsstats.ScoreCurve.from_scores(y, s).ops('pr_auc')\n"
        "    t1 = time.perf_counter()\n"
        "    average_precision_score(y, s)\n"
        "    t2 = time.perf_counter()\n"
        "    out.append([float(y.mean()), t1 - t0, t2 - t1])\n"
        "print(json.dumps({'rows': out}))\n"
    )
    lines = [
        "## First curve OPS at 5 random prevalences",
        "",
        "One fresh process; for each prevalence (log-uniform in 0.2%-60%), 10,000 rows: "
        "`ScoreCurve.from_scores(y, s).ops('pr_auc')` (the first OPS at that prevalence) "
        "beside `average_precision_score` on the same rows.",
        "",
        "| prevalence | "
        + " | ".join(f"OPS s ({who})" for who, _ in pythons(ctx))
        + " | scikit-learn s |",
        "|---|" + "---|" * len(pythons(ctx)) + "---|",
    ]
    results = {who: run(python, code)[1]["rows"] for who, python in pythons(ctx)}
    first = results["after"]
    for i, (pi, _, peer) in enumerate(first):
        cells = " | ".join(f"{results[who][i][1]:.3f}" for who, _ in pythons(ctx))
        lines.append(f"| {pi:.4f} | {cells} | {peer:.4f} |")
    lines.append("")
    return lines


def section_display(ctx: Context) -> list[str]:
    data = _DATA.format(seed=2, n=228, pi=0.25)
    lines = [
        "## A display of 228 rows",
        "",
        f"Fresh processes (median of {ctx.repeat}): imports, the display made and its "
        "figure drawn on an Agg canvas; 'draw' is the display alone, after the imports "
        "(the target: at most 1.5x scikit-learn's `PrecisionRecallDisplay`).",
        "",
        "| what | seconds | scikit-learn | ratio |",
        "|---|---|---|---|",
    ]
    # the gain display has no scikit-learn counterpart: beside the PR display
    peers = {
        "pr": "PrecisionRecallDisplay",
        "roc": "RocCurveDisplay",
        "gain": "PrecisionRecallDisplay",
    }
    for kind, peer_name in peers.items():
        ops = (
            "import time, json\nt0 = time.perf_counter()\nimport matplotlib\n"
            "matplotlib.use('Agg')\nimport matplotlib.pyplot as plt\n"
            "from opsstats.sklearn import OPSCurveDisplay\n" + data + "t1 = time.perf_counter()\n"
            f"d = OPSCurveDisplay.from_predictions(y, s, kind='{kind}', rng=0)\n"
            "d.figure_.canvas.draw()\nt2 = time.perf_counter()\n"
            "print(json.dumps({'all': t2 - t0, 'draw': t2 - t1}))\n"
        )
        peer = (
            "import time, json\nt0 = time.perf_counter()\nimport matplotlib\n"
            "matplotlib.use('Agg')\nimport matplotlib.pyplot as plt\n"
            f"from sklearn.metrics import {peer_name}\n" + data + "t1 = time.perf_counter()\n"
            f"d = {peer_name}.from_predictions(y, s)\n"
            "d.figure_.canvas.draw()\nt2 = time.perf_counter()\n"
            "print(json.dumps({'all': t2 - t0, 'draw': t2 - t1}))\n"
        )
        _, p = median_of(ctx, ctx.python, peer)
        timed_all, timed_draw = [], []
        for who, python in pythons(ctx):
            _, o = median_of(ctx, python, ops)
            timed_all.append((who, o["all"]))
            timed_draw.append((who, o["draw"]))
        lines += ratio_rows(f"{kind}: imports + display", timed_all, p["all"])
        lines += ratio_rows(f"{kind}: display only", timed_draw, p["draw"])
    lines.append("")
    return lines


SECTIONS: dict[str, Callable[[Context], list[str]]] = {
    "pr-auc-10k": section_pr_auc_10k,
    "first-ops": section_first_ops,
    "display": section_display,
}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--section", action="append", choices=list(SECTIONS))
    parser.add_argument("--python", default=sys.executable, help="interpreter timed (after)")
    parser.add_argument("--before", help="another interpreter timed beside it (before)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", help="also write the Markdown here")
    args = parser.parse_args(argv)
    ctx = Context(args.python, args.before, args.repeat)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    argv_text = " ".join(sys.argv[1:] if argv is None else argv)
    lines = [
        "# First use: opsstats beside its peers",
        "",
        f"`python benchmarks/bench_first_use.py {argv_text}` on {platform.machine()}, "
        f"{os.cpu_count()} cores, load average {load:.1f} at the start; Python "
        f"{platform.python_version()}. Times in seconds.",
        "",
    ]
    print("\n".join(lines), flush=True)
    for name in args.section or list(SECTIONS):
        part = SECTIONS[name](ctx)
        print("\n".join(part), flush=True)
        lines += part
    if args.out:
        with open(args.out, "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
