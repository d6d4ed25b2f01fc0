"""Benchmark: what a person waits for the first time, each beside its peer in one run.

Every measurement runs in a fresh Python process, as a person meets it: nothing imported
before. ``--before PYTHON`` times the same code under another interpreter too (e.g. one
whose opsstats is the main branch), so that before and after are measured in the same
run, beside the same peer; ``--before 'LABEL=PYTHON'`` names it (repeatable: e.g. main
at the branch point and main now). The processes run in an empty folder (so that ``python -c``
does not import a checkout from the working directory) with their compiled bytecode kept
in a cache made for the run (``PYTHONPYCACHEPREFIX``), as an installed package has it:
the first run of each command fills it and is not counted.

Sections (``--section NAME``, repeatable; all by default):

- ``import``: ``import opsstats`` (before and after) beside ``python -c pass``,
  ``import numpy`` and ``import sklearn``: the wall time of the process and the time of
  the import inside it, the number of modules loaded, the third-party packages among
  them and the resident memory after the import. The runs of the commands are
  interleaved (one of each, ``--repeat`` times), so that a change of the machine's load
  falls on all of them; medians.
- ``cli``: ``opsstats --help``, an argument error (``--confidence-level 2``) and a
  missing column (``--truth nope`` on a CSV of 3 rows), each the wall time of the
  ``opsstats`` script beside ``python -c pass``; the exit status, the first line printed
  and the third-party packages the same command loads.

- ``pr-auc-10k``: import opsstats and compute the PR AUC OPS (default DBT reference) of
  10,000 rows, against importing scikit-learn and computing ``average_precision_score``
  (the wall time of the whole process, interpreter start included).
- ``first-ops``: in one fresh process, the first curve OPS (PR AUC) at 5 random
  prevalences, each beside ``average_precision_score`` on the same rows.
- ``display``: ``OPSCurveDisplay.from_predictions`` on 228 rows (PR, ROC, gain and lift,
  the figure drawn on an Agg canvas), against scikit-learn's ``PrecisionRecallDisplay``
  and ``RocCurveDisplay`` (the gain and lift displays beside the PR one: scikit-learn has
  none);
  imports included, and the draw alone.

- ``compare``: ``compare`` of the PR AUC of 2, 3 and 10 classifiers on the same rows
  (the default method: the paired stratified bootstrap, 2,000 resamples) at 10,000 and
  100,000 rows (prevalence 0.1, continuous scores), beside the scikit-learn loop
  (``average_precision_score`` of each classifier on each of 2,000 stratified resampled
  row sets, timed on ``--peer-resamples`` of them and scaled to 2,000) and the floor of
  one single-curve bootstrap per classifier (``ScoreCurve.interval``, 2,000 resamples:
  each classifier's quantity on each resample, nothing paired). At 10,000 rows also the
  ROC AUC by ``method="bootstrap"`` beside R's pROC, which has no test of many
  classifiers: one ``roc.test(method="bootstrap", paired=TRUE)`` per pair
  (``benchmarks/proc_compare_timing.R``, timed with 100 resamples on one pair and scaled
  to 2,000 resamples and to the pairs), where R and pROC are installed. The process's
  first ``compare`` (imports on first use) is made on a small test set before the
  timings. At 100,000 rows each is one run; at 10,000 the median of ``--repeat``.
  ``--compare-rows`` chooses the rows of the PR AUC tables and ``--no-roc`` leaves out
  the table beside pROC (a shorter run on a loaded machine).

- ``report``: ``opsstats report FILE --truth y --score s`` on one Parquet file of
  continuous scores of 1e6, 3e6, 1e7 and 1e8 rows (``--rows``), before and after,
  beside the DuckDB floors (the counts per class, and per class and score): the wall
  time, the CPU time and the peak resident memory of each whole command in a fresh
  process, and how the report counted its curves (per distinct score, or in bins with
  the widths of the ranges it printed). Up to 1e7 rows ``--repeat`` interleaved rounds,
  beyond one. The files are written once into a temporary folder (about 9 bytes a row)
  and deleted after.

A section is one function ``section_<name>(ctx)`` that returns Markdown lines; add one
and list it in ``SECTIONS``. The machine's load average is printed beside each section.

Run: ``python benchmarks/bench_first_use.py [--before [LABEL=]/path/to/python] [--repeat 3]
[--section import] [--out benchmarks/results/bench_first_use.md]``
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: the empty working folder of the timed processes (``python -c`` puts its working folder
#: first on ``sys.path``, so that a checkout there would be imported instead of the
#: interpreter's opsstats), and their bytecode cache
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
    before: list[tuple[str, str]]  # other ones: (label, interpreter), e.g. main's
    repeat: int
    peer_resamples: int = 200  # the compare section's scikit-learn loop
    compare_rows: tuple[int, ...] = (10_000, 100_000)  # the compare section's PR AUC tables
    roc: bool = True  # the compare section's table beside pROC
    rows: tuple[int, ...] = ()  # the sizes of the ``report`` section


def _env() -> dict[str, str]:
    drop = {"PYTHONDONTWRITEBYTECODE", "PYTHONPATH"}
    env = {k: v for k, v in os.environ.items() if k not in drop}
    return {**env, "MPLBACKEND": "Agg", "PYTHONPYCACHEPREFIX": str(_WORK / "pycache")}


def _children_cpu() -> float:
    """CPU seconds (user and system) of this process's finished children."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_command(argv: list[str]) -> tuple[float, float, subprocess.CompletedProcess]:
    """Wall time and CPU time of one process ``argv`` in the empty folder, and what it
    printed. The CPU time moves little with the machine's load (the wall time does)."""
    cpu, t0 = _children_cpu(), time.perf_counter()
    out = subprocess.run(argv, capture_output=True, text=True, env=_env(), cwd=_WORK)
    return time.perf_counter() - t0, _children_cpu() - cpu, out


def run(python: str, code: str) -> tuple[float, dict]:
    """Wall time of ``python -c code`` and the JSON it prints on its last line."""
    wall, _, out = run_command([python, "-c", code])
    if out.returncode != 0:
        raise RuntimeError(f"{python} failed:\n{out.stderr[-2000:]}")
    return wall, json.loads(out.stdout.strip().splitlines()[-1])


def pythons(ctx: Context) -> list[tuple[str, str]]:
    """(label, interpreter): each ``--before`` one, then ``after``."""
    return [*ctx.before, ("after", ctx.python)]


def median_of(ctx: Context, python: str, code: str) -> tuple[float, dict]:
    """Median wall time over ``ctx.repeat`` fresh processes, and the medians of what they
    print."""
    runs = [run(python, code) for _ in range(ctx.repeat)]
    walls = [w for w, _ in runs]
    keys = runs[0][1].keys()
    inner = {k: statistics.median(r[k] for _, r in runs) for k in keys}
    return statistics.median(walls), inner


def ratio_rows(label: str, timed: list[tuple[str, float]], peer: float) -> list[str]:
    return [f"| {label} ({who}) | {t:.3f} | {peer:.3f} | {t / peer:.2f} |" for who, t in timed]


def _before(text: str) -> tuple[str, str]:
    """``--before``: ``LABEL=PYTHON`` or ``PYTHON`` (labelled "before")."""
    label, sep, python = text.rpartition("=")
    return (f"before, {label}" if sep else "before", python)


def load() -> str:
    return f"{os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else "unknown"


def interleaved(ctx: Context, commands: dict[str, list[str]]) -> dict[str, list[tuple]]:
    """Each command run once not counted, then ``ctx.repeat`` rounds of one run of each:
    name -> [(wall time, CPU time, completed process), ...]."""
    for argv in commands.values():
        run_command(argv)
    runs: dict[str, list[tuple]] = {name: [] for name in commands}
    for _ in range(ctx.repeat):
        for name, argv in commands.items():
            runs[name].append(run_command(argv))
    return runs


# ----------------------------------------------------------------------------- sections
#: appended to a timed command: its time, the modules and the third-party packages it
#: loaded (scipy's subpackages named) and its resident memory, as JSON on the last line
_AFTER = """
inside = time.perf_counter() - t0
inside_cpu = time.process_time() - c0
import json, resource, sys
top = {m.split(".")[0] for m in sys.modules} - set(sys.stdlib_module_names) - {"opsstats"}
top = {p for p in top if getattr(sys.modules.get(p), "__file__", None)}  # not cython_runtime
scipy = sorted(m[6:] for m in sys.modules if m.count(".") == 1 and m.startswith("scipy."))
packages = [
    "scipy (" + ", ".join(s for s in scipy if s[0] != "_" and s != "version") + ")"
    if p == "scipy" else p
    for p in sorted(p for p in top if p[0] != "_")
]
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"inside": inside, "inside_cpu": inside_cpu, "modules": len(sys.modules), "packages": packages,
                  "rss": rss}))
"""


def _timed(statement: str) -> str:
    """Python code that runs ``statement`` and prints what ``_AFTER`` says."""
    start = "import time\nt0, c0 = time.perf_counter(), time.process_time()\n"
    return start + statement + "\n" + _AFTER


def section_import(ctx: Context) -> list[str]:
    commands = {
        "`python -c pass`": [ctx.python, "-c", _timed("pass")],
        "`import numpy`": [ctx.python, "-c", _timed("import numpy")],
        "`import sklearn`": [ctx.python, "-c", _timed("import sklearn")],
    }
    for who, python in pythons(ctx):
        commands[f"`import opsstats` ({who})"] = [python, "-c", _timed("import opsstats")]
    start = load()
    runs = interleaved(ctx, commands)
    stats = {}
    for name, done in runs.items():
        for _, _, out in done:
            if out.returncode != 0:
                raise RuntimeError(f"{name} failed:\n{out.stderr[-2000:]}")
        printed = [json.loads(out.stdout.strip().splitlines()[-1]) for *_, out in done]
        stats[name] = {
            "wall": statistics.median(w for w, _, _ in done),
            "inside": statistics.median(p["inside"] for p in printed),
            "inside_cpu": statistics.median(p["inside_cpu"] for p in printed),
            "modules": statistics.median(p["modules"] for p in printed),
            "rss": statistics.median(p["rss"] for p in printed),
            "packages": printed[-1]["packages"],
        }
    numpy = stats["`import numpy`"]
    lines = [
        "## Import",
        "",
        f"Fresh processes, {ctx.repeat} interleaved rounds, medians; load average {start} "
        f"at the start, {load()} at the end. 'import' is the time of the import statement "
        "inside the process (wall clock, and the CPU time of the process during it, which "
        "moves less with the load), 'process' the wall time of the whole process "
        "(interpreter start included), 'modules' the number in `sys.modules` after it. "
        "Target: `import opsstats` under 0.3 s on a quiet machine and at most 3x "
        "`import numpy`.",
        "",
        "| what | import s | / import numpy | import CPU s | / numpy's CPU | process s "
        "| modules | resident MB | third-party packages loaded |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for name, s in stats.items():
        lines.append(
            f"| {name} | {s['inside']:.3f} | {s['inside'] / numpy['inside']:.2f} "
            f"| {s['inside_cpu']:.3f} | {s['inside_cpu'] / numpy['inside_cpu']:.2f} "
            f"| {s['wall']:.3f} | {s['modules']:.0f} | {s['rss']:.0f} "
            f"| {', '.join(s['packages']) or 'none'} |"
        )
    lines.append("")
    return lines


def _script(python: str) -> list[str]:
    """The ``opsstats`` script beside ``python``, else ``python -m opsstats.cli``."""
    script = Path(python).parent / "opsstats"
    return [str(script)] if script.exists() else [python, "-m", "opsstats.cli"]


def _cli_packages(python: str, args: list[str]) -> list[str]:
    """The third-party packages ``opsstats ARGS`` loads (run through runpy)."""
    statement = (
        "import contextlib, io, runpy\n"
        f"sys.argv = ['opsstats', *{args!r}]\n"
        "with contextlib.redirect_stdout(io.StringIO()), "
        "contextlib.redirect_stderr(io.StringIO()):\n"
        "    try:\n"
        "        runpy.run_module('opsstats.cli', run_name='__main__')\n"
        "    except SystemExit:\n"
        "        pass"
    )
    return run(python, "import sys\n" + _timed(statement))[1]["packages"]


def section_cli(ctx: Context) -> list[str]:
    csv = _WORK / "preds.csv"
    csv.write_text("y,s\n1,0.8\n0,0.3\n1,0.4\n")
    report = ["report", str(csv), "--truth"]
    cases = {
        "`opsstats --help`": ["--help"],
        "argument error (`--confidence-level 2`)": [
            *report,
            *["y", "--score", "s", "--confidence-level", "2"],
        ],
        "missing column (`--truth nope`)": [*report, "nope", "--score", "s"],
    }
    commands = {"`python -c pass`": [ctx.python, "-c", "pass"]}
    for case, args in cases.items():
        for who, python in pythons(ctx):
            commands[f"{case} ({who})"] = [*_script(python), *args]
    start = load()
    runs = interleaved(ctx, commands)
    peer = statistics.median(w for w, _, _ in runs["`python -c pass`"])
    peer_cpu = statistics.median(c for _, c, _ in runs["`python -c pass`"])
    lines = [
        "## The command line's first answers",
        "",
        f"Wall time and CPU time (user and system) of the `opsstats` script in fresh "
        f"processes, {ctx.repeat} interleaved rounds, medians; load average {start} at the "
        f"start, {load()} at the end; beside `python -c pass` (the interpreter's start). "
        "The CPU time moves less with the load than the wall time. The packages are those the same "
        "command loads (run once more through `runpy` to see them). Target: `--help` and "
        "an argument error under 0.5 s on a quiet machine.",
        "",
        "| what | seconds | `python -c pass` | ratio | CPU s | `pass` CPU s | exit "
        "| first line printed | third-party packages loaded |",
        "|---|---:|---:|---:|---:|---:|---:|---|---|",
    ]
    for case, args in cases.items():
        for who, python in pythons(ctx):
            done = runs[f"{case} ({who})"]
            wall = statistics.median(w for w, _, _ in done)
            cpu = statistics.median(c for _, c, _ in done)
            out = done[-1][2]
            first = (out.stdout or out.stderr).strip().splitlines()[0]
            first = first.replace(str(_WORK), "…").replace("|", "\\|")[:60]
            packages = ", ".join(_cli_packages(python, args))
            lines.append(
                f"| {case} ({who}) | {wall:.3f} | {peer:.3f} | {wall / peer:.2f} "
                f"| {cpu:.3f} | {peer_cpu:.3f} | {out.returncode} | {first} | {packages} |"
            )
    lines.append("")
    return lines


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


def section_table(ctx: Context) -> list[str]:
    """The shipped DBT table's first use, in CPU time, step by step."""
    code = (
        "import time, json\n"
        "from opsstats.reference._dbt_table import TABLE_PATH, load_table\n"
        "from opsstats.reference.dbt import DirectedBinaryTree\n"
        "from opsstats.reference._streamed import CHUNK\n"
        "from opsstats.curves._geometry import parse_area\n"
        "q = parse_area('pr_auc')\n"
        "c = [time.process_time()]\n"
        "table = load_table(); c.append(time.process_time())\n"
        "ref = DirectedBinaryTree(); table.matches(ref, CHUNK); c.append(time.process_time())\n"
        "table.values(q, 0.0731); c.append(time.process_time())\n"
        "table.values(q, 0.1234); c.append(time.process_time())\n"
        "ref.ops(q, 0.3, prevalence=0.2345); c.append(time.process_time())\n"
        "d = [b - a for a, b in zip(c, c[1:])]\n"
        "print(json.dumps({'read': d[0], 'fingerprint': d[1], 'first': d[2], 'next': d[3],\n"
        "                  'ops': d[4], 'mb': TABLE_PATH.stat().st_size / 1e6}))\n"
    )
    steps = [
        ("read", "reading the table (`load_table`)"),
        ("fingerprint", "checking the fingerprint of the curves"),
        ("first", "the PR AUC's sorted values at a first prevalence (decoding its entry)"),
        ("next", "the same at another prevalence"),
        ("ops", "`ref.ops('pr_auc', ...)` at a third prevalence"),
    ]
    found = {who: median_of(ctx, python, code)[1] for who, python in pythons(ctx)}
    lines = [
        "## The shipped DBT table's first use",
        "",
        f"CPU time (`time.process_time`) of each step in a fresh process, medians of "
        f"{ctx.repeat} processes; load average {load()} at the start.",
        "",
        "| step | " + " | ".join(f"CPU s ({who})" for who in found) + " |",
        "|---|" + "---:|" * len(found),
    ]
    for key, label in steps:
        lines.append(f"| {label} | " + " | ".join(f"{r[key]:.4f}" for r in found.values()) + " |")
    lines.append(
        "| the file's size, MB | " + " | ".join(f"{r['mb']:.2f}" for r in found.values()) + " |"
    )
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
    # the gain and lift displays have no scikit-learn counterpart: beside the PR display
    peers = {
        "pr": "PrecisionRecallDisplay",
        "roc": "RocCurveDisplay",
        "gain": "PrecisionRecallDisplay",
        "lift": "PrecisionRecallDisplay",
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


def medians_of(ctx: Context, python: str, code: str, repeat: int | None = None) -> dict:
    """The medians of what ``repeat`` (default ``ctx.repeat``) fresh processes print."""
    runs = [run(python, code)[1] for _ in range(ctx.repeat if repeat is None else repeat)]
    return {k: statistics.median(r[k] for r in runs) for k in runs[0]}


# ----------------------------------------------------------------------------- compare
#: classifiers compared, rows, and the resamples of every bootstrap
_MODELS = (2, 3, 10)
_RESAMPLES = 2000

_SCORES = """
import json, os, time, warnings
import numpy as np
warnings.simplefilter("ignore")
rng = np.random.default_rng(20261127)
n = {n}
y = np.zeros(n, bool)
y[: n // 10] = True
z = rng.standard_normal((n, 10))
scores = [z[:, i] + (1.0 - 0.05 * i) * y for i in range(10)]
out = {{"load": os.getloadavg()[0]}}
few = slice(0, n, n // 400)  # 400 rows of both classes, for the first (warm-up) call
"""

_OURS = """
from opsstats import compare
small = {{f"m{{i}}": s[few] for i, s in enumerate(scores[:3])}}
compare(y[few], small, metric="pr_auc", n_resamples=100, rng=0)  # imports on first use
for k in {models}:
    cols = {{f"m{{i}}": s for i, s in enumerate(scores[:k])}}
    t0 = time.perf_counter()
    compare(y, cols, metric={metric!r}, method={method!r}, n_resamples={resamples}, rng=0)
    out[str(k)] = time.perf_counter() - t0
print(json.dumps(out))
"""

_SKLEARN = """
from sklearn.metrics import average_precision_score
pos, neg = np.flatnonzero(y), np.flatnonzero(~y)
average_precision_score(y[few], scores[0][few])
for k in {models}:
    t0 = time.perf_counter()
    for _ in range({peer}):
        rows = np.concatenate([rng.choice(pos, pos.size), rng.choice(neg, neg.size)])
        truth = y[rows]
        for s in scores[:k]:
            average_precision_score(truth, s[rows])
    out[str(k)] = (time.perf_counter() - t0) * {resamples} / {peer}
print(json.dumps(out))
"""

_FLOOR = """
from opsstats import ScoreCurve
ScoreCurve.from_scores(y[few], scores[0][few]).interval(
    "pr_auc", method="bootstrap", n_resamples=100, rng=0
)
for k in {models}:
    t0 = time.perf_counter()
    for s in scores[:k]:
        curve = ScoreCurve.from_scores(y, s)
        curve.interval("pr_auc", method="bootstrap", n_resamples={resamples}, rng=0)
    out[str(k)] = time.perf_counter() - t0
print(json.dumps(out))
"""


def _proc_pair(n: int) -> dict | None:
    """pROC's paired bootstrap test of two ROC AUCs (100 resamples) on the first two
    classifiers, or None without R and pROC."""
    if shutil.which("Rscript") is None:
        return None
    import numpy as np  # third-party: only this section needs it in this process

    rng = np.random.default_rng(20261127)  # the data of _SCORES
    y = np.zeros(n, bool)
    y[: n // 10] = True
    z = rng.standard_normal((n, 10))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "pair.csv"
        pair = np.column_stack([y, z[:, 0] + y, z[:, 1] + 0.95 * y])
        header = "y_true,score_a,score_b"
        np.savetxt(
            path, pair, fmt=["%d", "%.17g", "%.17g"], delimiter=",", header=header, comments=""
        )
        cmd = ["Rscript", str(ROOT / "benchmarks" / "proc_compare_timing.R"), "--csv", str(path)]
        cmd += ["--method", "bootstrap", "--boot_n", "100"]
        done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return None
    return json.loads(done.stdout.strip().splitlines()[-1])


def section_compare(ctx: Context) -> list[str]:
    models = list(_MODELS)
    lines = [
        "## Comparing many classifiers",
        "",
        f"`compare(y, scores, metric='pr_auc', n_resamples={_RESAMPLES}, rng=0)` of the "
        f"first {', '.join(map(str, models[:-1]))} and {models[-1]} of ten classifiers on "
        "the same rows (prevalence 0.1, continuous scores; the default "
        "method, the paired stratified bootstrap), timed inside fresh processes. Peer: the "
        f"scikit-learn loop ({ctx.peer_resamples} stratified resampled row sets, each "
        f"classifier's `average_precision_score` on each, scaled to {_RESAMPLES}); floor: "
        f"one single-curve bootstrap of {_RESAMPLES} resamples per classifier. "
        f"'/ {models[0]}' is the time over that of {models[0]} classifiers (the target: at most "
        "6 for 10).",
        "",
    ]
    for n in ctx.compare_rows:
        lines += _pr_auc_table(ctx, n, repeat=ctx.repeat if n <= 10_000 else 1)
    return lines + (_roc_auc_table(ctx, ctx.compare_rows[0]) if ctx.roc else [])


def _pr_auc_table(ctx: Context, n: int, repeat: int) -> list[str]:
    """The PR AUC of the classifiers beside the scikit-learn loop and the floor."""
    models = list(_MODELS)
    data = _SCORES.format(n=n)
    fmt = {"models": models, "resamples": _RESAMPLES, "peer": ctx.peer_resamples}
    ours = _OURS.format(metric="pr_auc", method="auto", **fmt)
    timed = {who: medians_of(ctx, py, data + ours, repeat) for who, py in pythons(ctx)}
    peer = medians_of(ctx, ctx.python, data + _SKLEARN.format(**fmt), repeat)
    floor = medians_of(ctx, ctx.python, data + _FLOOR.format(**fmt), repeat)
    who_all = list(timed)
    lines = [
        f"### PR AUC, {n:,} rows ({'median of ' + str(repeat) if repeat > 1 else 'one run'})",
        "",
        "| classifiers (pairs) | "
        + " | ".join(f"opsstats {w} s | {w} / {models[0]}" for w in who_all)
        + " | scikit-learn loop s | loop / after | floor s | after / floor |",
        "|---|" + "---|---|" * len(who_all) + "---|---|---|---|",
    ]
    for k in models:
        cells = " | ".join(
            f"{timed[w][str(k)]:.2f} | {timed[w][str(k)] / timed[w][str(models[0])]:.1f}"
            for w in who_all
        )
        after = timed["after"][str(k)]
        lines.append(
            f"| {k} ({k * (k - 1) // 2}) | {cells} | {peer[str(k)]:.1f} | "
            f"{peer[str(k)] / after:.1f} | {floor[str(k)]:.2f} | {after / floor[str(k)]:.2f} |"
        )
    loads = ", ".join(f"{w} {timed[w]['load']:.1f}" for w in who_all)
    return [
        *lines,
        "",
        f"Load average (1 min) at the start of the runs: {loads}, scikit-learn "
        f"{peer['load']:.1f}, floor {floor['load']:.1f}.",
        "",
    ]


def _roc_auc_table(ctx: Context, n: int) -> list[str]:
    """The ROC AUC by the bootstrap beside pROC's roc.test of each pair."""
    models = list(_MODELS)
    data = _SCORES.format(n=n)
    ours = _OURS.format(metric="roc_auc", method="bootstrap", models=models, resamples=_RESAMPLES)
    timed = {who: medians_of(ctx, py, data + ours) for who, py in pythons(ctx)}
    start = load()
    proc = _proc_pair(n)
    who_all = list(timed)
    lines = [
        f"### ROC AUC, `method='bootstrap'`, {n:,} rows, beside pROC (median of {ctx.repeat})",
        "",
        "| classifiers (pairs) | "
        + " | ".join(f"opsstats {w} s" for w in who_all)
        + " | pROC s (pairs x one roc.test) | pROC / after |",
        "|---|" + "---|" * len(who_all) + "---|---|",
    ]
    for k in models:
        pairs = k * (k - 1) // 2
        cells = " | ".join(f"{timed[w][str(k)]:.2f}" for w in who_all)
        if proc is None:
            lines.append(f"| {k} ({pairs}) | {cells} | not installed | |")
            continue
        t_proc = proc["seconds_test"] * _RESAMPLES / 100 * pairs
        lines.append(
            f"| {k} ({pairs}) | {cells} | {t_proc:.1f} | {t_proc / timed['after'][str(k)]:.1f} |"
        )
    loads = ", ".join(f"{w} {timed[w]['load']:.1f}" for w in who_all)
    return [
        *lines,
        "",
        f"pROC: {proc['tool'] if proc else 'not installed'}; one roc.test of 100 resamples "
        + (f"took {proc['seconds_test']:.2f} s, " if proc else "")
        + f"scaled to {_RESAMPLES} resamples and to the pairs. Load average (1 min) at the "
        f"start of the runs: {loads}, pROC {start}.",
        "",
    ]


# ----------------------------------------------------------------------------- report
#: The rows of the ``report`` section's files, and the most at which ``--before`` runs.
REPORT_ROWS = (10**6, 3 * 10**6, 10**7, 10**8)
BEFORE_MAX_ROWS = 10**7

#: Runs a command (its arguments) and prints, as JSON on its last line, its wall time,
#: its CPU time (user and system, every thread) and peak resident memory (getrusage of
#: the children: the command's own, as it is the only child), its exit status and what
#: it printed.
_PEAK = """
import json, resource, subprocess, sys, time
t0 = time.perf_counter()
out = subprocess.run(sys.argv[1:], capture_output=True, text=True)
wall = time.perf_counter() - t0
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"wall": wall, "cpu": usage.ru_utime + usage.ru_stime,
                  "peak": usage.ru_maxrss / 1024, "status": out.returncode,
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
    """Wall time, CPU time, peak resident memory (MB), exit status and output of one
    command in a fresh process."""
    _, _, out = run_command([sys.executable, "-c", _PEAK, *argv])
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
        "beyond: the median times and the largest peak. 'CPU s' is the command's CPU "
        "time (user and system, all its threads, from the same `getrusage`), which "
        "moves less with the machine's load than the wall time. "
        f"'before' runs up to {BEFORE_MAX_ROWS:.0e} rows (its exact curves hold every "
        "distinct score: see its peak there). 'load' is the load average at the start and "
        "at the end of a size's runs. Target: peak memory independent of the rows and "
        "under 600 MB, time within 5x the floor per class and score (the CPU ratio where "
        "the load makes the wall ratio noise).",
        "",
        "| rows | what | seconds | / floor per score | CPU s | / floor's CPU | peak MB "
        "| curves | load |",
        "|---:|---|---:|---:|---:|---:|---:|---|---|",
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
            start = load()
            runs: dict[str, list[dict]] = {name: [] for name in commands}
            for _ in range(ctx.repeat if rows <= BEFORE_MAX_ROWS else 1):
                for name, argv in commands.items():
                    done = _peak(argv)
                    if done["status"] != 0:
                        raise RuntimeError(f"{name} failed:\n{done['stderr']}")
                    runs[name].append(done)
            floor = statistics.median(r["wall"] for r in runs[list(_FLOORS)[1]])
            floor_cpu = statistics.median(r["cpu"] for r in runs[list(_FLOORS)[1]])
            for name, done in runs.items():
                wall = statistics.median(r["wall"] for r in done)
                cpu = statistics.median(r["cpu"] for r in done)
                peak = max(r["peak"] for r in done)
                curves = _ranges(done[-1]["stdout"]) if name.startswith("`ops") else ""
                lines.append(
                    f"| {rows:.0e} | {name} | {wall:.1f} | {wall / floor:.2f} | {cpu:.2f} "
                    f"| {cpu / floor_cpu:.2f} | {peak:.0f} | {curves} | {start} to {load()} |"
                )
                print(lines[-1], file=sys.stderr, flush=True)
            path.unlink()
    finally:
        shutil.rmtree(root, ignore_errors=True)
    lines.append("")
    return lines


SECTIONS: dict[str, Callable[[Context], list[str]]] = {
    "import": section_import,
    "cli": section_cli,
    "pr-auc-10k": section_pr_auc_10k,
    "first-ops": section_first_ops,
    "table": section_table,
    "display": section_display,
    "compare": section_compare,
    "report": section_report,
}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--section", action="append", choices=list(SECTIONS))
    parser.add_argument("--python", default=sys.executable, help="interpreter timed (after)")
    parser.add_argument(
        "--before",
        action="append",
        default=[],
        help="another interpreter timed beside it: PYTHON or LABEL=PYTHON (repeatable)",
    )
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--peer-resamples", type=int, default=200)
    parser.add_argument(
        "--compare-rows",
        type=lambda text: tuple(int(float(r)) for r in text.split(",")),
        default=(10_000, 100_000),
        help="rows of the compare section's PR AUC tables, comma-separated (default 1e4,1e5)",
    )
    parser.add_argument(
        "--no-roc", action="store_true", help="compare section: leave out the table beside pROC"
    )
    parser.add_argument(
        "--rows",
        type=lambda text: tuple(int(float(r)) for r in text.split(",")),
        default=REPORT_ROWS,
        help="rows of the report section's files, comma-separated (default 1e6,3e6,1e7,1e8)",
    )
    parser.add_argument("--out", help="also write the Markdown here")
    args = parser.parse_args(argv)
    ctx = Context(
        args.python,
        [_before(b) for b in args.before],
        args.repeat,
        args.peer_resamples,
        args.compare_rows,
        not args.no_roc,
        args.rows,
    )
    argv_text = " ".join(sys.argv[1:] if argv is None else argv)
    lines = [
        "# First use: opsstats beside its peers",
        "",
        f"`python benchmarks/bench_first_use.py {argv_text}` on {platform.machine()}, "
        f"{os.cpu_count()} cores, load average {load()} at the start; Python "
        f"{platform.python_version()}; run at {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}. "
        "Times in seconds.",
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
