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
#: the timed processes' working folder, empty: ``python -c`` puts its working folder
#: first on ``sys.path``, so that a checkout there would be imported instead of the
#: interpreter's opsstats (``--before``'s included)
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
    peer_resamples: int = 200  # the compare section's scikit-learn loop
    compare_rows: tuple[int, ...] = (10_000, 100_000)  # the compare section's PR AUC tables
    roc: bool = True  # the compare section's table beside pROC


def run(python: str, code: str) -> tuple[float, dict]:
    """Wall time of ``python -c code`` and the JSON it prints on its last line."""
    env = {**os.environ, "MPLBACKEND": "Agg", "PYTHONDONTWRITEBYTECODE": "1"}
    t0 = time.perf_counter()
    out = subprocess.run(
        [python, "-c", code], capture_output=True, text=True, env=env, check=False, cwd=_WORK
    )
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


def medians_of(ctx: Context, python: str, code: str, repeat: int | None = None) -> dict:
    """The medians of what ``repeat`` (default ``ctx.repeat``) fresh processes print."""
    runs = [run(python, code)[1] for _ in range(ctx.repeat if repeat is None else repeat)]
    return {k: statistics.median(r[k] for r in runs) for k in runs[0]}


def load() -> float:
    return os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")


# ----------------------------------------------------------------------------- sections
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
        f"start of the runs: {loads}, pROC {start:.1f}.",
        "",
    ]


SECTIONS: dict[str, Callable[[Context], list[str]]] = {
    "pr-auc-10k": section_pr_auc_10k,
    "first-ops": section_first_ops,
    "display": section_display,
    "compare": section_compare,
}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--section", action="append", choices=list(SECTIONS))
    parser.add_argument("--python", default=sys.executable, help="interpreter timed (after)")
    parser.add_argument("--before", help="another interpreter timed beside it (before)")
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
    parser.add_argument("--out", help="also write the Markdown here")
    args = parser.parse_args(argv)
    ctx = Context(
        args.python,
        args.before,
        args.repeat,
        args.peer_resamples,
        args.compare_rows,
        not args.no_roc,
    )
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
