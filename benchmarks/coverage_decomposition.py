"""Coverage of the decomposition's intervals (opsstats.decompose, docs/method.md#decomposition).

Do the percentile intervals of the change of a metric between two independent test sets,
and of its two parts (the prevalence's and the classifier's), contain the population's
values at their nominal 95%? Every interval is made through the public API
(``decompose(before, after, metric=..., ops=...)``, its default ``ci="dirichlet"``), and
each coverage rate is reported with its binomial Monte Carlo standard error.

Design. One binormal classifier before: negatives' scores N(0, 1), positives' N(1.5, 1).
After: the same classifier ("none": a pure prevalence shift, the classifier part is 0 in
the population) or a worse one, positives N(1.0, 1) ("d -0.5"). Each repetition draws two
independent test sets of n rows, before at prevalence pi0 and after at pi1 (the class
sizes Binomial(n, pi)).

* Confusion-matrix metrics (F1, MCC, precision; the metric and its OPS against the
  uniform reference, ``ops=False`` and ``ops=True``) at threshold 1.0: alpha = 0.1587,
  beta = 0.3085 before (0.5 after the change). The counts are drawn directly (the
  positives caught Binomial(P, 1 - beta), the false positives Binomial(N, alpha): what
  thresholding simulated rows gives). The population's corners f(pi_j, theta_k) are the
  metrics' closed forms at the population (pi, alpha, beta), written out below (and
  checked against the registry), and their OPS the uniform reference's exact OPS at those
  values (a closed form or quadrature, itself tested against quadrature in the suite).
  Posterior draws: 2,000 (the default).
* Curve quantities (PR AUC, the step rule, i.e. average precision; ROC AUC): rows
  simulated and their curves built; ``ops=False``. Population values: the ROC AUC of the
  binormal curve, Phi(d / sqrt(2)); the PR AUC, the integral of precision over recall
  along the binormal curve at prevalence pi, by quadrature (scipy's quad over the
  threshold t: int pi R(t) / (pi R(t) + (1 - pi) F(t)) phi(t - d) dt, with R(t) =
  Phi(d - t), F(t) = Phi(-t)). Draws per interval: ``--curve-resamples``.

Prevalence pairs (pi0, pi1): (0.02, 0.1), (0.05, 0.3), (0.5, 0.1) for the confusion
matrices; (0.05, 0.3) and (0.5, 0.1) for the curves. n in {500, 2000, 10000}.

A cell's rate is flagged when it falls outside 93%-97% and every expected count exceeds
5 (the eight cells of the two population confusion matrices; for curves the smaller
class of either set), with the one-sided binomial p-value of its count were the true
coverage at the band's edge. The total's and the parts' intervals are judged
separately; a part whose interval is a single point by construction (the prevalence part
of the ROC AUC and of the OPS of precision: 0 in every draw and in the population, up to
rounding) is listed but not judged.

Run (the committed output; CPU time in its header): the confusion-matrix rows of the
first run, the curve rows of the second (all 12 curve cells at 200 repetitions; the
first had reached 2 of them at 100), the two CSVs' rows put together and rendered::

    nice -n 10 python benchmarks/coverage_decomposition.py --reps 1000 --curve-reps 100 \\
        --curve-resamples 500 --seed 20261128 --jobs 2 \\
        --out benchmarks/results/coverage_decomposition.csv \\
        --md benchmarks/results/coverage_decomposition.md
    python benchmarks/coverage_decomposition.py --kinds curve --curve-reps 200 \\
        --curve-resamples 500 --seed 20261128 --jobs 2 --out CURVE.csv

and the Markdown from the CSV without simulating::

    python benchmarks/coverage_decomposition.py \\
        --render benchmarks/results/coverage_decomposition.csv \\
        --md benchmarks/results/coverage_decomposition.md
"""

from __future__ import annotations

import argparse
import csv
import math
import platform
import sys
import time
import warnings
from concurrent.futures import ProcessPoolExecutor, as_completed
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
from scipy import integrate, stats

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import opsstats
from opsstats import ConfusionMatrix, ScoreCurve, Uniform, decompose
from opsstats.metrics import resolve_metric

D_BEFORE = 1.5
CHANGES = (0.0, -0.5)
THRESHOLD = 1.0
CM_METRICS = ("f1", "mcc", "precision")
CURVE_METRICS = ("pr_auc", "roc_auc")
CM_PAIRS = ((0.02, 0.1), (0.05, 0.3), (0.5, 0.1))
CURVE_PAIRS = ((0.05, 0.3), (0.5, 0.1))
NS = (500, 2000, 10000)
LEVEL = 0.95
BAND = (0.93, 0.97)
PARTS = ("total", "prevalence_part", "classifier_part")
FIELDS = (
    "kind",
    "metric",
    "ops",
    "change",
    "pi_before",
    "pi_after",
    "n",
    "part",
    "population",
    "reps",
    "n_resamples",
    "min_expected",
    "undefined",
    "covered",
    "coverage",
    "coverage_se",
    "below",
    "above",
    "mean_width",
    "cpu_seconds",
    "command",
    "date",
    "versions",
)


# ------------------------------------------------------------------ population values
def rates(d: float) -> tuple[float, float]:
    """(alpha, beta) of the binormal classifier with separation d at THRESHOLD."""
    return float(stats.norm.sf(THRESHOLD)), float(stats.norm.cdf(THRESHOLD - d))


def closed_form(metric: str, pi: float, a: float, b: float) -> float:
    """The metric at the population (pi, alpha, beta), written out from its definition
    (not the registry's code): TP = pi (1 - b), FN = pi b, FP = (1 - pi) a,
    TN = (1 - pi)(1 - a) as shares of the rows."""
    tp, fn, fp, tn = pi * (1 - b), pi * b, (1 - pi) * a, (1 - pi) * (1 - a)
    if metric == "precision":
        return tp / (tp + fp)
    if metric == "f1":
        return 2 * tp / (2 * tp + fp + fn)
    if metric == "mcc":
        return (tp * tn - fp * fn) / math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
    raise ValueError(metric)


def curve_value(metric: str, pi: float, d: float) -> float:
    """The binormal population curve's quantity (separation d) at prevalence pi."""
    if metric == "roc_auc":
        return float(stats.norm.cdf(d / math.sqrt(2)))

    def precision_density(t: float) -> float:
        # precision pi R / (pi R + (1 - pi) F) with log R, log F: no 0/0 in the tails
        ratio = math.exp(stats.norm.logsf(t) - stats.norm.logsf(t - d))
        return stats.norm.pdf(t - d) / (1 + (1 - pi) / pi * ratio)

    value, err = integrate.quad(precision_density, -np.inf, np.inf, epsabs=1e-12, epsrel=1e-12)
    assert err < 1e-8, err
    return float(value)


def population_parts(g: list[list[float]]) -> dict[str, float]:
    """total, prevalence part, classifier part from corners g[k][j] = f(pi_j, theta_k)
    (docs/method.md#decomposition), written out."""
    return {
        "total": g[1][1] - g[0][0],
        "prevalence_part": ((g[0][1] - g[0][0]) + (g[1][1] - g[1][0])) / 2,
        "classifier_part": ((g[1][0] - g[0][0]) + (g[1][1] - g[0][1])) / 2,
    }


def cm_population(metric: str, ops: bool, pis: tuple, ds: tuple) -> dict[str, float]:
    corners = []
    for d in ds:
        a, b = rates(d)
        row = []
        for pi in pis:
            value = closed_form(metric, pi, a, b)
            registry = float(resolve_metric(metric)(pi, a, b))
            assert abs(value - registry) < 1e-12, (metric, value, registry)
            row.append(Uniform().ops(metric, value, prevalence=pi).estimate if ops else value)
        corners.append(row)
    return population_parts(corners)


def curve_population(metric: str, pis: tuple, ds: tuple) -> dict[str, float]:
    return population_parts([[curve_value(metric, pi, d) for pi in pis] for d in ds])


# ------------------------------------------------------------------ simulation
def min_expected_cm(n: int, pis: tuple, ds: tuple) -> float:
    cells = []
    for pi, d in zip(pis, ds, strict=True):
        a, b = rates(d)
        cells += [n * pi * (1 - b), n * pi * b, n * (1 - pi) * a, n * (1 - pi) * (1 - a)]
    return float(min(cells))


def _slot(tally: dict, key: tuple) -> dict:
    """The counts of one (metric, ops, part)."""
    return tally.setdefault(
        key, {"covered": 0, "below": 0, "above": 0, "m": 0, "undefined": 0, "width": 0.0}
    )


def _undefined(tally: dict, metric: str, ops: bool) -> None:
    """A repetition without a decomposition (a class absent from a test set)."""
    for part in PARTS:
        _slot(tally, (metric, ops, part))["undefined"] += 1


def _tally(rows: dict, key: tuple, result, population: dict[str, float]) -> None:
    for part in PARTS:
        ci = getattr(result, f"{part}_ci")
        t = _slot(rows, (*key, part))
        if ci is None or not (np.isfinite(ci.low) and np.isfinite(ci.high)):
            t["undefined"] += 1
            continue
        p = population[part]
        t["m"] += 1
        t["width"] += ci.high - ci.low
        if p < ci.low:
            t["above"] += 1  # the interval lies above the population value
        elif p > ci.high:
            t["below"] += 1
        else:
            t["covered"] += 1


def _rows(tally: dict, populations: dict, meta: dict, seconds: float) -> list[dict]:
    out = []
    for (metric, ops, part), t in tally.items():
        m = t["m"]
        rate = t["covered"] / m if m else float("nan")
        out.append(
            {
                **meta,
                "metric": metric,
                "ops": ops,
                "part": part,
                "population": populations[(metric, ops)][part],
                "undefined": t["undefined"],
                "covered": t["covered"],
                "coverage": rate,
                "coverage_se": math.sqrt(rate * (1 - rate) / m) if m else float("nan"),
                "below": t["below"],
                "above": t["above"],
                "mean_width": t["width"] / m if m else float("nan"),
                "cpu_seconds": round(seconds / len(tally), 2),
            }
        )
    return out


def _meta(kind: str, task: dict, n_resamples: int, min_expected: float) -> dict:
    """The columns that describe a cell."""
    return {
        "kind": kind,
        "change": f"d {task['change']:+g}" if task["change"] else "none",
        "pi_before": task["pis"][0],
        "pi_after": task["pis"][1],
        "n": task["n"],
        "reps": task["reps"],
        "n_resamples": n_resamples,
        "min_expected": round(min_expected, 2),
    }


def cm_cell(task: dict) -> list[dict]:
    """One (pair, n, change) cell: every confusion-matrix metric, raw and OPS, on the
    same simulated matrices."""
    rng = np.random.default_rng(task["seed"])
    n, pis, change = task["n"], task["pis"], task["change"]
    ds = (D_BEFORE, D_BEFORE + change)
    populations = {(m, o): cm_population(m, o, pis, ds) for m in CM_METRICS for o in (False, True)}
    tally: dict = {}
    start = time.process_time()
    for _ in range(task["reps"]):
        cms = []
        for pi, d in zip(pis, ds, strict=True):
            a, b = rates(d)
            pos = int(rng.binomial(n, pi))
            tp = int(rng.binomial(pos, 1 - b))
            fp = int(rng.binomial(n - pos, a))
            cms.append(ConfusionMatrix(tp=tp, fp=fp, fn=pos - tp, tn=n - pos - fp))
        for (metric, ops), population in populations.items():
            if min(min(cm.positives, cm.negatives) for cm in cms) == 0:
                _undefined(tally, metric, ops)
                continue
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                r = decompose(cms[0], cms[1], metric=metric, ops=ops, rng=rng)
            _tally(tally, (metric, ops), r, population)
    meta = _meta("cm", task, 2000, min_expected_cm(n, pis, ds))
    return _rows(tally, populations, meta, time.process_time() - start)


def curve_cell(task: dict) -> list[dict]:
    """One (pair, n, change) cell: the PR AUC and the ROC AUC on the same curves."""
    rng = np.random.default_rng(task["seed"])
    n, pis, change, k = task["n"], task["pis"], task["change"], task["resamples"]
    ds = (D_BEFORE, D_BEFORE + change)
    populations = {(m, False): curve_population(m, pis, ds) for m in CURVE_METRICS}
    tally: dict = {}
    start = time.process_time()
    for _ in range(task["reps"]):
        curves = []
        for pi, d in zip(pis, ds, strict=True):
            y = rng.random(n) < pi
            curves.append((y, rng.standard_normal(n) + d * y))
        both = all(y.any() and not y.all() for y, _ in curves)
        c0, c1 = (ScoreCurve.from_scores(y.astype(int), s) for y, s in curves) if both else (0, 0)
        for metric in CURVE_METRICS:
            if not both:
                _undefined(tally, metric, False)
                continue
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                r = decompose(c0, c1, metric=metric, n_resamples=k, rng=rng)
            _tally(tally, (metric, False), r, populations[(metric, False)])
    meta = _meta("curve", task, k, min(n * min(p, 1 - p) for p in pis))
    return _rows(tally, populations, meta, time.process_time() - start)


def _run(task: dict) -> list[dict]:
    return curve_cell(task) if task["kind"] == "curve" else cm_cell(task)


def tasks(args: argparse.Namespace) -> list[dict]:
    out: list[dict] = []
    for kind, pairs in (("cm", CM_PAIRS), ("curve", CURVE_PAIRS)):
        for n in NS:  # the cheap cells first: an interrupted run keeps them
            for pis in pairs:
                for change in CHANGES:
                    out.append(
                        {"kind": kind, "pis": pis, "n": n, "change": change,
                         "reps": args.curve_reps if kind == "curve" else args.reps,
                         "resamples": args.curve_resamples,
                         "seed": [args.seed, len(out)]}
                    )  # fmt: skip
    return out


# ------------------------------------------------------------------ rendering
def judged(row: dict) -> bool:
    """Whether the row's interval is held to the band: not the prevalence part of the ROC
    AUC and of the OPS of precision, a single point (0, up to rounding) by construction
    (docs/method.md#prevalence-invariance)."""
    invariant = row["metric"] == "roc_auc" or (
        row["metric"] == "precision" and _is_true(row["ops"])
    )
    return not (invariant and row["part"] == "prevalence_part")


def flag(row: dict) -> str:
    """Empty inside the band; else why not judged, or flagged with the edge p-value."""
    r = float(row["coverage"])
    if not np.isfinite(r):
        return "undefined"
    if not judged(row):
        return "(a point by construction)"
    if float(row["min_expected"]) <= 5:
        return "(expected count <= 5)"
    if BAND[0] <= r <= BAND[1]:
        return ""
    m = int(row["reps"]) - int(row["undefined"])
    k = int(row["covered"])
    edge = BAND[1] if r > BAND[1] else BAND[0]
    p = stats.binom.sf(k - 1, m, edge) if r > edge else stats.binom.cdf(k, m, edge)
    return f"**outside** (p = {p:.2g} at {100 * edge:g}%)"


_NAMES = {"f1": "F1", "mcc": "MCC", "precision": "precision", "pr_auc": "PR AUC",
          "roc_auc": "ROC AUC"}  # fmt: skip
_PART_NAMES = {"total": "total", "prevalence_part": "prevalence", "classifier_part": "classifier"}


def _is_true(value: object) -> bool:
    return str(value) == "True"


def render(rows: list[dict]) -> str:
    cpu = sum(float(r["cpu_seconds"]) for r in rows)
    cpu_cm = sum(float(r["cpu_seconds"]) for r in rows if r["kind"] == "cm")
    reps = sorted({(r["kind"], int(r["reps"]), int(r["n_resamples"])) for r in rows})
    reps_text = "; ".join(
        f"{'curves' if kind == 'curve' else 'confusion matrices'}: {k} repetitions, {b} "
        "draws per interval"
        for kind, k, b in reps
    )
    held = [r for r in rows if flag(r) in ("",) or flag(r).startswith("**")]
    out = [r for r in held if flag(r).startswith("**")]
    lines = [
        "# Coverage of the decomposition's intervals",
        "",
        "Written by `benchmarks/coverage_decomposition.py` (its docstring has the design). "
        "Binormal classifier before (negatives N(0, 1), positives N(1.5, 1)); after the "
        "same (`none`) or positives N(1.0, 1) (`d -0.5`); two independent test sets of n "
        "rows per repetition, before at prevalence pi0 and after at pi1. Each row: how often "
        "the 95% percentile interval of `decompose(before, after, metric=..., ops=...)` "
        '(default `ci="dirichlet"`) contained the population\'s value of the total change, '
        "of the prevalence part or of the classifier part, with its binomial Monte Carlo "
        "s.e. in parentheses; `below`/`above`: the intervals that missed with the "
        "population value above their upper end / below their lower end; the mean width.",
        "",
        f"Repetitions per cell: {reps_text}. CPU time of the simulation: {cpu / 60:.1f} min "
        f"({cpu_cm / 60:.1f} min the confusion matrices).",
        "",
        *(
            f"Run: `{r['command']}` on {r['date']} ({r['versions']})."
            for r in {row["command"]: row for row in rows}.values()
        ),
        "",
        f"Band: {100 * BAND[0]:g}%-{100 * BAND[1]:g}% where every expected count exceeds 5 "
        "(the eight cells of the two population confusion matrices; for curves the smaller "
        "class of either set); beside a flag, p is the one-sided binomial p-value of the "
        "count were the true coverage at the band's edge. "
        f"{len(out)} of the {len(held)} judged rows fall outside the band.",
        "",
    ]
    ran = {
        (r["kind"], float(r["pi_before"]), float(r["pi_after"]), int(r["n"]), r["change"])
        for r in rows
    }
    design = [
        (kind, *pis, n, f"d {change:+g}" if change else "none")
        for kind, pairs in (("cm", CM_PAIRS), ("curve", CURVE_PAIRS))
        for pis in pairs
        for n in NS
        for change in CHANGES
    ]
    missing = [cell for cell in design if cell not in ran]
    if missing:
        lines += [
            f"Not run: {len(missing)} of the design's {len(design)} cells, the run stopped "
            "before them: "
            + "; ".join(f"{k} {p0:g} -> {p1:g} n={n} {c}" for k, p0, p1, n, c in missing)
            + ".",
            "",
        ]
    for kind, title in (("cm", "Confusion-matrix metrics"), ("curve", "Curve quantities")):
        metrics = CM_METRICS if kind == "cm" else CURVE_METRICS
        for metric in metrics:
            for ops in (False, True):
                sub = [
                    r for r in rows
                    if r["kind"] == kind and r["metric"] == metric and _is_true(r["ops"]) == ops
                ]  # fmt: skip
                if not sub:
                    continue
                what = f"OPS of {_NAMES[metric]} (uniform reference)" if ops else _NAMES[metric]
                lines += [f"## {title}: {what}", ""]
                head = (
                    "| change | pi0 -> pi1 | n | min expected | part | population | coverage "
                    "| | below | above | mean width | undefined |"
                )
                lines += [head, "|" + "---|" * (head.count("|") - 1)]
                for r in sub:
                    cov = float(r["coverage"])
                    cells = [
                        r["change"],
                        f"{float(r['pi_before']):g} -> {float(r['pi_after']):g}",
                        r["n"],
                        f"{float(r['min_expected']):g}",
                        _PART_NAMES[r["part"]],
                        f"{float(r['population']):+.4f}",
                        f"{100 * cov:.1f}% ({100 * float(r['coverage_se']):.1f})"
                        if np.isfinite(cov)
                        else "",
                        flag(r),
                        r["below"],
                        r["above"],
                        f"{float(r['mean_width']):.4f}",
                        r["undefined"],
                    ]
                    lines.append("| " + " | ".join(str(c) for c in cells) + " |")
                lines.append("")
    return "\n".join(lines)


def _order(row: dict) -> tuple:
    kind = 0 if row["kind"] == "cm" else 1
    metrics = CM_METRICS if row["kind"] == "cm" else CURVE_METRICS
    pairs = CM_PAIRS if row["kind"] == "cm" else CURVE_PAIRS
    return (
        kind,
        metrics.index(row["metric"]),
        _is_true(row["ops"]),
        CHANGES.index(0.0 if row["change"] == "none" else float(row["change"][2:])),
        pairs.index((float(row["pi_before"]), float(row["pi_after"]))),
        int(row["n"]),
        PARTS.index(row["part"]),
    )


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=1000)
    ap.add_argument("--curve-reps", type=int, default=100)
    ap.add_argument("--curve-resamples", type=int, default=500)
    ap.add_argument("--seed", type=int, default=20261128)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--kinds", default="cm,curve", help="which kinds of cells to run")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--md", type=Path)
    ap.add_argument("--render", type=Path, help="render the Markdown from this CSV only")
    args = ap.parse_args(argv)
    if args.render:
        with open(args.render, newline="") as f:
            rows = list(csv.DictReader(f))
        text = render(rows)
        if args.md:
            args.md.write_text(text)
        else:
            print(text)
        return
    command = "python benchmarks/coverage_decomposition.py " + " ".join(sys.argv[1:])
    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    versions = (
        f"opsstats {opsstats.__version__}, numpy {np.__version__}, "
        f"Python {platform.python_version()}"
    )
    kinds = set(args.kinds.split(","))
    todo = [t for t in tasks(args) if t["kind"] in kinds]
    rows: list[dict] = []
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(_run, t) for t in todo]
        for future in as_completed(futures):
            for row in future.result():
                row.update(command=command, date=stamp, versions=versions)
                rows.append(row)
            r = rows[-1]
            print(
                f"{r['kind']:5s} {r['change']:6s} {r['pi_before']:g}->{r['pi_after']:g} "
                f"n={r['n']:6d} done ({len(rows)} rows)",
                flush=True,
            )
            rows.sort(key=_order)
            if args.out:  # the rows so far, so that an interrupted run keeps them
                with open(args.out, "w", newline="") as f:
                    w = csv.DictWriter(f, fieldnames=FIELDS)
                    w.writeheader()
                    w.writerows(rows)
    text = render(rows)
    if args.md:
        args.md.write_text(text)
    else:
        print(text)


if __name__ == "__main__":
    main()
