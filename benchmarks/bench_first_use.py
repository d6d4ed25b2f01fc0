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

- ``report``: ``opsstats report FILE --truth y --score s`` on one Parquet file of
  continuous scores of 1e6, 3e6, 1e7 and 1e8 rows (``--rows``), before and after,
  beside the DuckDB floors (the counts per class, and per class and score): the wall
  time and the peak resident memory of each whole command in a fresh process, and how
  the report counted its curves (per distinct score, or in bins with the widths of the
  ranges it printed). Up to 1e7 rows ``--repeat`` interleaved rounds, beyond one. The files are written once into a temporary folder (about 9 bytes
  a row) and deleted after.

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
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

#: the empty working folder of the timed processes, and their bytecode cache
_WORK = Path(tempfile.mkdtemp(prefix="bench-first-use-"))

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
    rows: tuple[int, ...] = ()  # the sizes of the ``report`` section


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


def _env() -> dict[str, str]:
    drop = {"PYTHONDONTWRITEBYTECODE", "PYTHONPATH"}
    env = {k: v for k, v in os.environ.items() if k not in drop}
    return {**env, "MPLBACKEND": "Agg", "PYTHONPYCACHEPREFIX": str(_WORK / "pycache")}


def run_command(argv: list[str]) -> tuple[float, subprocess.CompletedProcess]:
    """Wall time of one process ``argv`` in the empty folder, and what it printed."""
    t0 = time.perf_counter()
    out = subprocess.run(argv, capture_output=True, text=True, env=_env(), cwd=_WORK)
    return time.perf_counter() - t0, out


def _load_now() -> str:
    return f"{os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else "unknown"


def _script(python: str) -> list[str]:
    """The ``opsstats`` script beside ``python``, else ``python -m opsstats.cli``."""
    script = Path(python).parent / "opsstats"
    return [str(script)] if script.exists() else [python, "-m", "opsstats.cli"]


#: The rows of the ``report`` section's files, and the most at which ``--before`` runs.
REPORT_ROWS = (10**6, 3 * 10**6, 10**7, 10**8)
BEFORE_MAX_ROWS = 10**7

#: Runs a command (its arguments) and prints, as JSON on its last line, its wall time,
#: its peak resident memory (getrusage of the children: the command's own, as it is the
#: only child), its exit status and what it printed.
_PEAK = """
import json, resource, subprocess, sys, time
t0 = time.perf_counter()
out = subprocess.run(sys.argv[1:], capture_output=True, text=True)
wall = time.perf_counter() - t0
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(json.dumps({"wall": wall, "peak": peak, "status": out.returncode,
                  "stdout": out.stdout, "stderr": out.stderr[-2000:]}))
"""

#: The DuckDB floors: the same file read by DuckDB with the command line's settings (a
#: 1 GB memory limit, spilling to a temporary directory), counts kept inside DuckDB.
_DUCKDB_FLOOR = """
import sys, tempfile, duckdb
with tempfile.TemporaryDirectory() as spill:
    con = duckdb.connect(config={"memory_limit": "1GB", "temp_directory": spill})
    print(con.execute(sys.argv[2], [sys.argv[1]]).fetchall())
"""
_FLOORS = {
    "DuckDB floor: counts per class (`GROUP BY y`)": (
        "SELECT y, count(*) FROM read_parquet(?) GROUP BY y"
    ),
    "DuckDB floor: counts per class and score (`GROUP BY y, s`)": (
        "SELECT count(*), sum(n) FROM (SELECT y, s, count(*) AS n FROM read_parquet(?) "
        "GROUP BY y, s)"
    ),
}


def _write_scores(path: Path, rows: int, seed: int = 0) -> None:
    """``rows`` rows of continuous scores as one Parquet file (y: int8 at prevalence 0.1;
    s: float64, the logistic of a normal shifted by 1.5 for positives, all distinct),
    written 5 million rows at a time."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(seed)
    schema = pa.schema([("y", pa.int8()), ("s", pa.float64())])
    with pq.ParquetWriter(path, schema) as writer:
        for start in range(0, rows, 5_000_000):
            m = min(5_000_000, rows - start)
            y = rng.random(m) < 0.1
            s = 1 / (1 + np.exp(-(rng.normal(0.0, 1.0, m) + 1.5 * y - 1.5)))
            writer.write_table(pa.table({"y": y.astype(np.int8), "s": s}, schema=schema))


def _peak(argv: list[str]) -> dict:
    """Wall time, peak resident memory (MB), exit status and output of one command in a
    fresh process."""
    _, out = run_command([sys.executable, "-c", _PEAK, *argv])
    if out.returncode != 0:
        raise RuntimeError(out.stderr[-2000:])
    return json.loads(out.stdout.strip().splitlines()[-1])


def _ranges(printed: str) -> str:
    """The widths of the ranges of the unbinned values a report printed, or 'exact'."""
    text = " ".join(printed.split())
    found = re.findall(
        r"(\d+) equal-width bins \(ties inside a bin\): the unbinned value "
        r"lies in \[([^,]+), ([^\]]+)\]",
        text,
    )
    if not found:
        return "exact"
    widths = ", ".join(f"{float(hi) - float(lo):.1e}" for _, lo, hi in found)
    return f"{found[0][0]} bins; ranges {widths} wide"


def _report_argv(python: str, path: Path) -> list[str]:
    return [*_script(python), "report", str(path), "--truth", "y", "--score", "s"]


def section_report(ctx: Context) -> list[str]:
    """``opsstats report`` on Parquet files of continuous scores (ROC and PR AUC with
    intervals and OPS, the defaults), before and after, beside the DuckDB floors."""
    root = Path(tempfile.mkdtemp(prefix="bench-report-", dir=_WORK))
    need = 9 * max(ctx.rows) * 3 + 5 * 2**30  # the file, DuckDB's spill, a margin
    free = shutil.disk_usage(root).free
    if free < need:
        raise RuntimeError(f"{root}: {free / 2**30:.1f} GB free, {need / 2**30:.1f} GB needed")
    lines = [
        "## `opsstats report` on a file of continuous scores: memory and time",
        "",
        "One Parquet file of continuous scores per size (prevalence 0.1, every score "
        "distinct), written once into a temporary folder and deleted after; `opsstats "
        "report FILE --truth y --score s` (its defaults: ROC and PR AUC with intervals "
        "and OPS) and the DuckDB floors, each in a fresh process whose peak resident "
        "memory is read by a wrapper (`getrusage(RUSAGE_CHILDREN)`: the whole command). "
        f"{ctx.repeat} interleaved round(s) up to {BEFORE_MAX_ROWS:.0e} rows, one round "
        "beyond: the median time and the largest peak. "
        f"'before' runs up to {BEFORE_MAX_ROWS:.0e} rows (its exact curves hold every "
        "distinct score: see its peak there). 'load' is the load average at the start and "
        "at the end of a size's runs. Target: peak memory independent of the rows and "
        "under 600 MB, time within 5x the floor per class and score.",
        "",
        "| rows | what | seconds | / floor per score | peak MB | curves | load |",
        "|---:|---|---:|---:|---:|---|---|",
    ]
    try:
        _write_scores(root / "warm.parquet", 1000)  # fills the bytecode cache, not counted
        for _, python in pythons(ctx):
            _peak(_report_argv(python, root / "warm.parquet"))
        for rows in ctx.rows:
            path = root / f"scores_{rows}.parquet"
            _write_scores(path, rows)
            commands = {
                f"`opsstats report` ({who})": _report_argv(python, path)
                for who, python in pythons(ctx)
                if who == "after" or rows <= BEFORE_MAX_ROWS
            }
            for name, sql in _FLOORS.items():
                commands[name] = [ctx.python, "-c", _DUCKDB_FLOOR, str(path), sql]
            start = _load_now()
            runs: dict[str, list[dict]] = {name: [] for name in commands}
            for _ in range(ctx.repeat if rows <= BEFORE_MAX_ROWS else 1):
                for name, argv in commands.items():
                    done = _peak(argv)
                    if done["status"] != 0:
                        raise RuntimeError(f"{name} failed:\n{done['stderr']}")
                    runs[name].append(done)
            floor = statistics.median(r["wall"] for r in runs[list(_FLOORS)[1]])
            for name, done in runs.items():
                wall = statistics.median(r["wall"] for r in done)
                peak = max(r["peak"] for r in done)
                curves = _ranges(done[-1]["stdout"]) if name.startswith("`ops") else ""
                lines.append(
                    f"| {rows:.0e} | {name} | {wall:.1f} | {wall / floor:.2f} "
                    f"| {peak:.0f} | {curves} | {start} to {_load_now()} |"
                )
                print(lines[-1], file=sys.stderr, flush=True)
            path.unlink()
    finally:
        shutil.rmtree(root, ignore_errors=True)
    lines.append("")
    return lines


SECTIONS: dict[str, Callable[[Context], list[str]]] = {
    "pr-auc-10k": section_pr_auc_10k,
    "first-ops": section_first_ops,
    "display": section_display,
    "report": section_report,
}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--section", action="append", choices=list(SECTIONS))
    parser.add_argument("--python", default=sys.executable, help="interpreter timed (after)")
    parser.add_argument("--before", help="another interpreter timed beside it (before)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--rows",
        type=lambda text: tuple(int(float(r)) for r in text.split(",")),
        default=REPORT_ROWS,
        help="rows of the report section's files, comma-separated (default 1e6,3e6,1e7,1e8)",
    )
    parser.add_argument("--out", help="also write the Markdown here")
    args = parser.parse_args(argv)
    ctx = Context(args.python, args.before, args.repeat, rows=args.rows)
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
    shutil.rmtree(_WORK, ignore_errors=True)


if __name__ == "__main__":
    main()
