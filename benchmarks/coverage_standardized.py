"""Coverage study of standardized intervals: data at one prevalence, the interval of a
metric standardized to another (docs/method.md#standardized-prevalence).

A test set is simulated at prevalence pi0 from a known classifier, standardized with
``at_prevalence(pi1)`` and its interval asked for through the public API (the code users
run); the interval should contain the true value at pi1, M(pi1, alpha, beta) for a
confusion-matrix metric and the population's PR AUC at pi1 for a curve, 95% of the time.

Part ``cm``: the binormal classifier of the monitoring issue (negatives N(0, 1),
positives N(1.5, 1)) at threshold 0.75 (alpha = beta = 0.2266) and 1.5 (alpha = 0.0668,
beta = 0.5); n in {200, 1000, 10000}, pi0 in {0.05, 0.3}, pi1 in {0.02, 0.1, 0.5}. P ~
Binomial(n, pi0), FN ~ Binomial(P, beta), FP ~ Binomial(N, alpha). Quantities: F1, MCC,
precision, accuracy by the default method (Dirichlet posterior of alpha and beta from the
original counts, Jeffreys prior, 10,000 draws, the prevalence fixed at pi1, equal-tailed),
and the OPS of F1 under the Uniform reference (the F1 interval's ends mapped through the
OPS at pi1; its truth the OPS of the true F1 at pi1).

Part ``curve``: positives N(1.2, 1); n in {1000, 10000}, pi0 in {0.05, 0.3}, pi1 in
{0.02, 0.1, 0.5}; the PR AUC (step rule, average precision) by the default method
(``ScoreCurve.interval`` with ``method="auto"``: the Dirichlet posterior of each class's
scores, bias-extended, below 100 rows in the smaller class, else the jackknife's
logit-t interval; 2,000 draws), its truth the population's average precision at pi1,
the integral of the precision over the recall by quadrature.

Columns: ``coverage`` (share of defined intervals containing the truth) with its binomial
standard error ``se``, ``width`` (mean), ``undefined`` (test sets without an interval:
a class absent, or the metric 0/0 in every draw), ``min_expected`` (the smallest
expected count of the original test set: of the four cells for a matrix, of the smaller
class for a curve) and ``eligible`` (every expected count above 5: where the target is
93%-97%).

Run (the committed tables)::

    python benchmarks/coverage_standardized.py --reps 1000 --seed 20240605 --jobs 1 \\
        --out benchmarks/results/coverage_standardized.csv \\
        --md benchmarks/results/coverage_standardized.md

and the Markdown again from the CSV without simulating::

    python benchmarks/coverage_standardized.py --render \\
        benchmarks/results/coverage_standardized.csv \\
        --md benchmarks/results/coverage_standardized.md

The committed run's CPU time is in the Markdown (per cell and in all).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import datetime
import shlex
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy import integrate
from scipy.stats import norm

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

import opsstats
from opsstats import ConfusionMatrix, ScoreCurve, Uniform
from opsstats.metrics import resolve_metric

LEVEL = 0.95
SHIFT_CM, SHIFT_CURVE = 1.5, 1.2
THRESHOLDS = (0.75, 1.5)
CM_SIZES, CURVE_SIZES = (200, 1000, 10000), (1000, 10000)
PI0S, PI1S = (0.05, 0.3), (0.02, 0.1, 0.5)
CM_QUANTITIES = ("f1", "mcc", "precision", "accuracy", "ops_f1")


def population_ap(pi: float, shift: float) -> float:
    """The binormal population's average precision (the step PR AUC) at prevalence pi:
    the integral over thresholds c of precision(c) times the positives' density, recall
    Phi(shift - c) and FPR Phi(-c)."""

    def integrand(c: float) -> float:
        r, f = norm.cdf(shift - c), norm.cdf(-c)
        return pi * r / (pi * r + (1 - pi) * f) * norm.pdf(c - shift)

    return float(integrate.quad(integrand, -12, 12 + shift, epsabs=1e-12, limit=200)[0])


def cells() -> list[dict[str, Any]]:
    out = []
    for thr in THRESHOLDS:
        for n in CM_SIZES:
            for pi0 in PI0S:
                for pi1 in PI1S:
                    out.append(
                        {
                            "part": "cm",
                            "classifier": f"threshold {thr:g}",
                            "threshold": thr,
                            "n": n,
                            "pi0": pi0,
                            "pi1": pi1,
                        }
                    )
    for n in CURVE_SIZES:
        for pi0 in PI0S:
            for pi1 in PI1S:
                out.append(
                    {
                        "part": "curve",
                        "classifier": f"binormal d={SHIFT_CURVE:g}",
                        "n": n,
                        "pi0": pi0,
                        "pi1": pi1,
                    }
                )
    for i, c in enumerate(out):
        c["cell"] = i
    return out


def _cm_cell(cell: dict[str, Any], reps: int, rng: np.random.Generator) -> list[dict[str, Any]]:
    alpha, beta = float(norm.sf(cell["threshold"])), float(norm.cdf(cell["threshold"] - SHIFT_CM))
    n, pi0, pi1 = cell["n"], cell["pi0"], cell["pi1"]
    truth = {m: float(resolve_metric(m)(pi1, alpha, beta)) for m in CM_QUANTITIES[:-1]}
    truth["ops_f1"] = float(Uniform().ops("f1", truth["f1"], prevalence=pi1).estimate)
    hits = dict.fromkeys(CM_QUANTITIES, 0)
    defined = dict.fromkeys(CM_QUANTITIES, 0)
    width = dict.fromkeys(CM_QUANTITIES, 0.0)
    for _ in range(reps):
        P = int(rng.binomial(n, pi0))
        fn, fp = int(rng.binomial(P, beta)), int(rng.binomial(n - P, alpha))
        if P == 0 or n == P:
            continue  # a class absent: no alpha or beta, no standardized matrix
        std = ConfusionMatrix(tp=P - fn, fp=fp, fn=fn, tn=n - P - fp).at_prevalence(pi1)
        for m in CM_QUANTITIES:
            seed = int(rng.integers(2**63 - 1))
            r = (
                std.ops("f1", ci="dirichlet", rng=seed)
                if m == "ops_f1"
                else std.interval(m, rng=seed)
            )
            lo, hi = r.ci
            if np.isnan(lo):
                continue
            defined[m] += 1
            hits[m] += lo <= truth[m] <= hi
            width[m] += hi - lo
    expected = min(
        n * pi0 * (1 - beta), n * pi0 * beta, n * (1 - pi0) * alpha, n * (1 - pi0) * (1 - alpha)
    )
    return [
        _row(cell, m, truth[m], hits[m], defined[m], width[m], reps, expected)
        for m in CM_QUANTITIES
    ]


def _curve_cell(cell: dict[str, Any], reps: int, rng: np.random.Generator) -> list[dict[str, Any]]:
    n, pi0, pi1 = cell["n"], cell["pi0"], cell["pi1"]
    truth = population_ap(pi1, SHIFT_CURVE)
    hits = defined = 0
    width = 0.0
    methods: dict[str, int] = {}
    for _ in range(reps):
        y = rng.random(n) < pi0
        if y.all() or not y.any():
            continue
        std = ScoreCurve.from_scores(y, rng.normal(SHIFT_CURVE * y, 1)).at_prevalence(pi1)
        try:
            r = std.interval("pr_auc", rng=int(rng.integers(2**63 - 1)))
        except ValueError:  # fewer than 2 rows of a class: no posterior
            continue
        lo, hi = r.ci
        if np.isnan(lo):
            continue
        key = r.method.split(" (")[0].split(",")[0]
        methods[key] = methods.get(key, 0) + 1
        defined += 1
        hits += lo <= truth <= hi
        width += hi - lo
    row = _row(cell, "pr_auc", truth, hits, defined, width, reps, n * min(pi0, 1 - pi0))
    row["methods"] = "; ".join(f"{k}: {v}" for k, v in sorted(methods.items()))
    return [row]


def _row(cell, quantity, truth, hits, defined, width, reps, expected) -> dict[str, Any]:
    cov = hits / defined if defined else float("nan")
    return {
        "part": cell["part"],
        "classifier": cell["classifier"],
        "n": cell["n"],
        "pi0": cell["pi0"],
        "pi1": cell["pi1"],
        "quantity": quantity,
        "truth": truth,
        "reps": reps,
        "defined": defined,
        "undefined": reps - defined,
        "covered": hits,
        "coverage": cov,
        "se": float(np.sqrt(cov * (1 - cov) / defined)) if defined else float("nan"),
        "width": width / defined if defined else float("nan"),
        "min_expected": float(expected),
        "eligible": bool(expected > 5),
        "methods": "",
    }


def run_cell(cell: dict[str, Any], reps: int, seed: int) -> list[dict[str, Any]]:
    rng = np.random.default_rng(np.random.SeedSequence([seed, cell["cell"]]))
    t0, c0 = time.perf_counter(), time.process_time()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rows = (_cm_cell if cell["part"] == "cm" else _curve_cell)(cell, reps, rng)
    for r in rows:
        r["cell_seconds"] = time.perf_counter() - t0
        r["cell_cpu_seconds"] = time.process_time() - c0
    return rows


# ------------------------------------------------------------------------- Markdown
def _pct(x: float) -> str:
    return "" if np.isnan(x) else f"{100 * x:.1f}"


def write_markdown(df: pd.DataFrame, path: str) -> None:
    meta = df.iloc[0]
    lines = [
        "# Coverage of standardized intervals (`at_prevalence`)",
        "",
        "Data simulated at prevalence pi0, standardized to pi1 with `at_prevalence`, the "
        "95% interval of the default method asked for; coverage of the true value at pi1 "
        "(docs/method.md#standardized-prevalence). Design and estimands: the docstring of "
        "`benchmarks/coverage_standardized.py`.",
        "",
        f"Run: `{meta['command']}` on {meta['date']}, opsstats {meta['version']}; "
        f"{int(meta['reps'])} simulated test sets per cell, seed {int(meta['seed'])}; "
        f"{df.groupby(['part', 'classifier', 'n', 'pi0', 'pi1'])['cell_cpu_seconds'].first().sum() / 60:.1f} "
        "CPU minutes in all.",
        "",
        "Coverage in %, with its binomial standard error (`se`, in points). `*` marks a "
        "cell where some expected count of the original test set is 5 or below "
        "(`min_expected`), where the 93%-97% target does not apply.",
    ]
    eligible = df[df["eligible"]]
    inside = ((eligible["coverage"] >= 0.93) & (eligible["coverage"] <= 0.97)).sum()
    lines += [
        "",
        f"Eligible rows (every expected count above 5): {len(eligible)}; coverage within "
        f"93%-97%: {inside}; lowest {_pct(eligible['coverage'].min())}%, highest "
        f"{_pct(eligible['coverage'].max())}%.",
    ]
    for part, title in (("cm", "Confusion-matrix metrics"), ("curve", "PR AUC of a curve")):
        sub = df[df["part"] == part]
        if sub.empty:
            continue
        lines += ["", f"## {title}", ""]
        head = "| classifier | n | pi0 | pi1 | min expected | quantity | coverage | se | width | undefined |"
        if part == "curve":
            head += " method (test sets) |"
        lines += [head, "|" + "---|" * (head.count("|") - 1)]
        for _, r in sub.iterrows():
            star = "" if r["eligible"] else " *"
            cells_ = [
                r["classifier"],
                f"{int(r['n'])}",
                f"{r['pi0']:g}",
                f"{r['pi1']:g}",
                f"{r['min_expected']:.1f}{star}",
                r["quantity"],
                _pct(r["coverage"]),
                f"{100 * r['se']:.1f}" if not np.isnan(r["se"]) else "",
                f"{r['width']:.4f}" if not np.isnan(r["width"]) else "",
                f"{int(r['undefined'])}",
            ]
            if part == "curve":
                cells_.append(str(r["methods"]) if isinstance(r["methods"], str) else "")
            lines.append("| " + " | ".join(cells_) + " |")
    Path(path).write_text("\n".join(lines) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=20240605)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--part", choices=("cm", "curve", "all"), default="all")
    parser.add_argument("--out", default=None, help="CSV output path")
    parser.add_argument("--md", default=None, help="Markdown output path")
    parser.add_argument(
        "--render",
        default=None,
        metavar="CSV",
        help="do not simulate: re-render --md from a CSV this script wrote",
    )
    args = parser.parse_args(argv)
    if args.render:
        if not args.md:
            parser.error("--render needs --md")
        write_markdown(pd.read_csv(args.render, keep_default_na=False, na_values=[""]), args.md)
        return 0
    todo = [c for c in cells() if args.part in ("all", c["part"])]
    command = "python " + " ".join(
        shlex.quote(a) for a in ["benchmarks/coverage_standardized.py", *(argv or sys.argv[1:])]
    )
    started = datetime.datetime.now().astimezone()
    rows: dict[int, list[dict[str, Any]]] = {}
    if args.jobs == 1:
        for c in todo:
            rows[c["cell"]] = run_cell(c, args.reps, args.seed)
            print(
                f"cell {c['cell']}: {rows[c['cell']][0]['cell_cpu_seconds']:.0f} s CPU", flush=True
            )
    else:
        with concurrent.futures.ProcessPoolExecutor(args.jobs) as pool:
            futures = {pool.submit(run_cell, c, args.reps, args.seed): c for c in todo}
            for fut in concurrent.futures.as_completed(futures):
                c = futures[fut]
                rows[c["cell"]] = fut.result()
                print(
                    f"cell {c['cell']}: {rows[c['cell']][0]['cell_cpu_seconds']:.0f} s CPU",
                    flush=True,
                )
    df = pd.DataFrame([r for c in todo for r in rows[c["cell"]]])
    df["command"] = command
    df["date"] = started.date().isoformat()
    df["version"] = opsstats.__version__
    df["seed"] = args.seed
    if args.out:
        df.to_csv(args.out, index=False, float_format="%.10g")
    if args.md:
        write_markdown(
            pd.read_csv(args.out, keep_default_na=False, na_values=[""]) if args.out else df,
            args.md,
        )
    print(
        df[
            ["part", "classifier", "n", "pi0", "pi1", "quantity", "coverage", "se", "eligible"]
        ].to_string()
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
