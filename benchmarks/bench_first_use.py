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
- ``display``: ``OPSCurveDisplay.from_predictions`` on 228 rows (PR, ROC and gain, the
  figure drawn on an Agg canvas), against scikit-learn's ``PrecisionRecallDisplay`` and
  ``RocCurveDisplay`` (the gain display beside the PR one: scikit-learn has none);
  imports included, and the draw alone.

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
import resource
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
    before: list[tuple[str, str]]  # other ones: (label, interpreter), e.g. main's
    repeat: int


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
    "import": section_import,
    "cli": section_cli,
    "pr-auc-10k": section_pr_auc_10k,
    "first-ops": section_first_ops,
    "display": section_display,
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
    parser.add_argument("--out", help="also write the Markdown here")
    args = parser.parse_args(argv)
    ctx = Context(args.python, [_before(b) for b in args.before], args.repeat)
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


if __name__ == "__main__":
    main()
