"""Size and power of the test of "the classifier changed" (opsstats.classifier_change_test).

Does the standardized test reject at its 5% level when only the prevalence moved, and
how often does it detect a real change, beside the two comparisons a user might
otherwise run on the same data: the OPS comparison (``compare_test_sets(..., ops=True)``)
and the raw-metric comparison (``compare_test_sets(...)``), which a prevalence shift
alone is expected to trip (docs/method.md#classifier-change). Every test runs through
the public API and each rate is reported with its binomial Monte Carlo standard error.

Design. One binormal classifier: negatives' scores N(0, 1), positives' N(d, 1), d = 1.5.
Each repetition draws two independent test sets of n rows, "before" at prevalence pi0
and "after" at pi1 (the class sizes Binomial(n, pi)).

* Confusion-matrix metrics (F1, MCC, precision) at thresholds 0.75 (alpha = beta =
  0.227) and 1.5 (alpha = 0.067, beta = 0.5): the counts drawn directly (the positives
  caught Binomial(P, 1 - beta), the false positives Binomial(N, alpha), which is what
  thresholding simulated rows gives). Per repetition: the standardized test (to the
  before set's prevalence; the default method, each set's Dirichlet posterior, 2000
  draws) and the metric-free test of alpha and beta (``metric="error_rates"``, 2 df),
  which does not depend on the metric (repeated in each metric's row from the same
  data); on the first ``--cm-side-reps`` repetitions the OPS comparison (uniform
  reference) and the raw comparison.
* PR AUC (average precision): rows simulated and their curves built; the standardized
  test by its default method, the stratified permutation test (``--permutations``
  permutations: B + 1 a multiple of 20 makes P(p <= 0.05) = 5% under the null (less with ties),
  so the rejection rate estimates the size at any B), its interval of D each set's
  stratified bootstrap (``--pr-resamples`` resamples, percentile) and, from the same
  data, the MOVER interval (each set's own default interval combined; the default since
  this study);
  on the first ``--side-reps`` repetitions (``--side-reps-large`` in the 10,000- and
  50,000-row cells) the two comparisons by the default method for a curve area (each
  set's stratified bootstrap, ``--pr-resamples`` resamples), the OPS against a
  Directed Binary Tree reference of depth 8 and 20,000 curves (seed 1; the default has
  depth 9 and 100,000 curves: smaller here for the cost, its Monte Carlo error is below
  the study's). The OPS comparison costs 0.3-0.6 s a repetition (the reference's values
  made anew at each repetition's prevalences), ten times the standardized test: hence
  fewer repetitions of the comparisons, whose rates are far from 5% in most cells.

A test rejects when p <= 0.05.

Null (a pure prevalence shift, the classifier unchanged): prevalence pairs (pi0, pi1)
(0.02, 0.1), (0.05, 0.3), (0.1, 0.5) and (0.5, 0.02); n in {500, 2000, 10000, 50000}
(PR AUC: 500 and 2,000 for every pair, 10,000 (``--pr-reps-large`` repetitions) and
50,000 (``--pr-reps-huge``) for (0.05, 0.3) and (0.5, 0.02): its cost grows with the
rows, and the machine's two cores were shared by six sessions). Target: the
standardized test's rejection within 3.5%-6.5% where every expected count exceeds 5;
the table gives the smallest expected count per cell (of the eight cells of the two
confusion matrices, or of the smaller class for the PR AUC) and marks those below 5.

Power (pi0 = 0.05, pi1 = 0.3): the after set's beta up by 0.05 and by 0.10 at the same
alpha (its positives' mean lowered), for the confusion-matrix metrics (n in {2000,
10000}); the separation d of the after set down by 0.2 and by 0.4 for the PR AUC
(n = 2000).

Result (benchmarks/results/classifier_change.md). PR AUC, the permutation test: 4.0%-6.3%
over the 8 null cells of 500 and 2,000 rows at 1,000 repetitions (5.39% of all 8,000
tests), 4.3% and 5.1% in the two 10,000-row cells (1,000 repetitions), 5.0% and 4.0% in
the two 50,000-row cells (200 repetitions, s.e. 1.5%): none of the 12 outside
3.5%-6.5%; the MOVER interval of D covered 0 in 94.0%-96.7%, the percentile bootstrap
interval in 87.6%-95.5% (below 93% in 5 cells); power 32.2% and 81.4% against d down by
0.2 and 0.4 (500 repetitions). F1, MCC and precision at 1,000 repetitions: 3.6%-6.4%
in the 90 null cells with every expected count at least 5, none outside the band.

Runs (the committed output; CPU time in its header): the main run, the PR AUC's power
rows alone (which the main run reaches last), the confusion-matrix cells and the PR
AUC's cells of 10,000 rows and more, each later one with ``--merge`` of the CSV before
it (the Markdown lists the four commands; each CSV row names its own)::

    nice -n 10 python benchmarks/classifier_change_study.py --reps 1000 \
        --cm-side-reps 100 --pr-reps 1000 --side-reps 50 --pr-reps-large 1000 \
        --side-reps-large 30 --pr-power-reps 500 --pr-reps-huge 200 --pr-resamples 200 \
        --permutations 199 --seed 20261128 --jobs 2 --out OUT.csv --md OUT.md
    nice -n 10 python benchmarks/classifier_change_study.py --cells pr-power \
        --pr-power-reps 500 --side-reps 50 --pr-resamples 200 --permutations 199 \
        --seed 20261128 --jobs 1 --out POWER.csv --md POWER.md
    python benchmarks/classifier_change_study.py --cells cm --reps 1000 \
        --cm-side-reps 300 --seed 20261128 --jobs 2 --merge OUT.csv --out CM.csv
    python benchmarks/classifier_change_study.py --cells pr-large --pr-reps-large 1000 \
        --pr-reps-huge 200 --side-reps-large 30 --pr-resamples 200 --permutations 199 \
        --seed 20261128 --jobs 2 --merge CM.csv --out LARGE.csv

and the Markdown from the CSV without simulating::

    python benchmarks/classifier_change_study.py \
        --render benchmarks/results/classifier_change.csv \
        --md benchmarks/results/classifier_change.md
"""

from __future__ import annotations

import argparse
import csv
import platform
import sys
import time
import warnings
from concurrent.futures import ProcessPoolExecutor
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
from scipy import stats

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import opsstats
from opsstats import (
    ConfusionMatrix,
    DirectedBinaryTree,
    ScoreCurve,
    classifier_change_test,
    compare_test_sets,
)
from opsstats.classifier_change import _mover
from opsstats.results import ConfidenceInterval

D = 1.5
THRESHOLDS = (0.75, 1.5)
CM_METRICS = ("f1", "mcc", "precision")
PAIRS = ((0.02, 0.1), (0.05, 0.3), (0.1, 0.5), (0.5, 0.02))
NS = (500, 2000, 10000, 50000)
PR_NS = (500, 2000)
PR_LARGE_NS = (10000, 50000)
PR_LARGE_PAIRS = ((0.05, 0.3), (0.5, 0.02))
POWER_PAIR = (0.05, 0.3)
POWER_NS = (2000, 10000)
PR_POWER_NS = (2000,)
BETA_CHANGES = (0.05, 0.10)
D_CHANGES = (-0.2, -0.4)
LEVEL = 0.05
FIELDS = (
    "study",
    "metric",
    "threshold",
    "change",
    "pi_before",
    "pi_after",
    "n",
    "reps",
    "n_resamples",
    "min_expected",
    "undefined",
    "std_reject",
    "std_reject_se",
    "std_coverage",
    "std_coverage_mover",
    "mover_undefined",
    "n_permutations",
    "side_reps",
    "ops_reject",
    "ops_reject_se",
    "raw_reject",
    "raw_reject_se",
    "rates_reject",
    "rates_reject_se",
    "cpu_seconds",
    "command",
    "date",
    "versions",
)

_REF: DirectedBinaryTree | None = None


def _reference() -> DirectedBinaryTree:
    global _REF
    if _REF is None:
        _REF = DirectedBinaryTree(depth=8, n_curves=20_000, seed=1)
    return _REF


def _rates(threshold: float, d: float = D) -> tuple[float, float]:
    """(alpha, beta) of the binormal classifier at the threshold."""
    return float(stats.norm.sf(threshold)), float(stats.norm.cdf(threshold - d))


def _min_expected_cm(n: int, pis: tuple[float, float], rates: list[tuple[float, float]]) -> float:
    cells = []
    for pi, (a, b) in zip(pis, rates, strict=True):
        cells += [n * pi * (1 - b), n * pi * b, n * (1 - pi) * a, n * (1 - pi) * (1 - a)]
    return float(min(cells))


def _rate(hits: list[bool]) -> tuple[float, float]:
    m = len(hits)
    if not m:
        return float("nan"), float("nan")
    r = float(np.mean(hits))
    return r, float(np.sqrt(r * (1 - r) / m))


def _cm_cell(task: dict) -> list[dict]:
    """One (threshold, pair, n, change) cell: every confusion-matrix metric on the same
    simulated matrices."""
    rng = np.random.default_rng(task["seed"])
    n, pis, t, change = task["n"], task["pis"], task["threshold"], task["change"]
    a, b = _rates(t)
    rates = [(a, b), (a, min(1.0, b + change))]
    start = time.process_time()
    out = {m: {"std": [], "cover": [], "ops": [], "raw": []} for m in CM_METRICS}
    rates_hits: list[bool] = []
    undefined = 0
    for rep in range(task["reps"]):
        cms = []
        for pi, (al, be) in zip(pis, rates, strict=True):
            pos = int(rng.binomial(n, pi))
            tp = int(rng.binomial(pos, 1 - be))
            fp = int(rng.binomial(n - pos, al))
            cms.append(ConfusionMatrix(tp=tp, fp=fp, fn=pos - tp, tn=n - pos - fp))
        if min(cm.positives for cm in cms) == 0 or min(cm.negatives for cm in cms) == 0:
            undefined += 1  # a class absent: no test
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            rr = classifier_change_test(cms[0], cms[1], metric="error_rates")
            rates_hits.append(rr.p_value <= LEVEL)
            for m in CM_METRICS:
                r = classifier_change_test(cms[0], cms[1], metric=m, rng=rng)
                out[m]["std"].append(r.p_value <= LEVEL)
                out[m]["cover"].append(r.ci.low <= 0 <= r.ci.high)
                if rep < task["side_reps"]:  # the comparisons on the first `side_reps`
                    sets = {"after": cms[1], "before": cms[0]}
                    o = compare_test_sets(sets, metric=m, ops=True, rng=rng)
                    w = compare_test_sets(sets, metric=m, rng=rng)
                    out[m]["ops"].append(o.p_value <= LEVEL)
                    out[m]["raw"].append(w.p_value <= LEVEL)
    seconds = time.process_time() - start
    rates_r = _rate(rates_hits)
    rows = []
    for m in CM_METRICS:
        std, ops, raw = _rate(out[m]["std"]), _rate(out[m]["ops"]), _rate(out[m]["raw"])
        rows.append(
            {
                "study": "null" if change == 0 else "power",
                "metric": m,
                "threshold": t,
                "change": f"beta +{change:g}" if change else "none",
                "pi_before": pis[0],
                "pi_after": pis[1],
                "n": n,
                "reps": task["reps"],
                "n_resamples": 2000,
                "min_expected": round(_min_expected_cm(n, pis, rates), 2),
                "undefined": undefined,
                "std_reject": std[0],
                "std_reject_se": std[1],
                "std_coverage": _rate(out[m]["cover"])[0],
                "std_coverage_mover": float("nan"),
                "mover_undefined": "",
                "n_permutations": "",
                "side_reps": len(out[m]["ops"]),
                "ops_reject": ops[0],
                "ops_reject_se": ops[1],
                "raw_reject": raw[0],
                "raw_reject_se": raw[1],
                "rates_reject": rates_r[0],
                "rates_reject_se": rates_r[1],
                "cpu_seconds": round(seconds / len(CM_METRICS), 1),
            }
        )
    return rows


def _pr_cell(task: dict) -> list[dict]:
    rng = np.random.default_rng(task["seed"])
    n, pis, change, k = task["n"], task["pis"], task["change"], task["resamples"]
    b, side = task["permutations"], task["side_reps"]
    ref = _reference()  # its values at each prevalence made on first use, then kept
    start = time.process_time()
    hits: dict[str, list[bool]] = {"std": [], "cover": [], "mover": [], "ops": [], "raw": []}
    undefined = mover_undefined = 0
    for rep in range(task["reps"]):
        curves = []
        for pi, d in zip(pis, (D, D + change), strict=True):
            y = rng.random(n) < pi
            s = rng.standard_normal(n) + d * y
            curves.append((y, s))
        if any(y.all() or not y.any() for y, _ in curves):
            undefined += 1
            continue
        c0, c1 = (ScoreCurve.from_scores(y.astype(int), s) for y, s in curves)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = classifier_change_test(
                c0, c1, metric="pr_auc", n_resamples=k, n_permutations=b, rng=rng
            )
            pi0 = c0.prevalence
            sets = {"after": c1.at_prevalence(pi0), "before": c0.at_prevalence(pi0)}
            options = {"metric": "pr_auc", "confidence_level": 0.95, "n_resamples": k,
                       "at": None, "rule": None, "rng": rng}  # fmt: skip
            try:  # each set's own interval: the Dirichlet posterior needs 2 rows a class
                mover: ConfidenceInterval | None = _mover(sets, options)[0]
            except ValueError:
                mover = None
            if rep < side:  # the OPS and raw comparisons on the first `side` repetitions
                raw_sets = {"after": c1, "before": c0}
                o = compare_test_sets(
                    raw_sets, metric="pr_auc", ops=True, reference=ref, n_resamples=k, rng=rng
                )
                w = compare_test_sets(raw_sets, metric="pr_auc", n_resamples=k, rng=rng)
                hits["ops"].append(o.p_value <= LEVEL)
                hits["raw"].append(w.p_value <= LEVEL)
        hits["std"].append(r.p_value <= LEVEL)
        hits["cover"].append(r.ci.low <= 0 <= r.ci.high)
        if mover is None:
            mover_undefined += 1
        else:
            hits["mover"].append(mover.low <= 0 <= mover.high)
    seconds = time.process_time() - start
    std, ops, raw = _rate(hits["std"]), _rate(hits["ops"]), _rate(hits["raw"])
    return [
        {
            "study": "null" if change == 0 else "power",
            "metric": "pr_auc",
            "threshold": "",
            "change": f"d {change:+g}" if change else "none",
            "pi_before": pis[0],
            "pi_after": pis[1],
            "n": n,
            "reps": task["reps"],
            "n_resamples": k,
            "min_expected": round(min(n * min(p, 1 - p) for p in pis), 2),
            "undefined": undefined,
            "std_reject": std[0],
            "std_reject_se": std[1],
            "std_coverage": _rate(hits["cover"])[0],
            "std_coverage_mover": _rate(hits["mover"])[0],
            "mover_undefined": mover_undefined,
            "n_permutations": b,
            "side_reps": len(hits["ops"]),
            "ops_reject": ops[0],
            "ops_reject_se": ops[1],
            "raw_reject": raw[0],
            "raw_reject_se": raw[1],
            "rates_reject": float("nan"),
            "rates_reject_se": float("nan"),
            "cpu_seconds": round(seconds, 1),
        }
    ]


#: The columns that name a cell (a row of the tables).
CELL_KEY = ("study", "metric", "threshold", "change", "pi_before", "pi_after", "n")


def _merged(rows: list[dict], earlier: Path | None) -> list[dict]:
    """This run's rows, then an earlier CSV's rows of the cells this run did not compute
    (their own command and date kept, so the rendered header names both runs)."""
    if earlier is None:
        return rows
    done = {tuple(str(r[k]) for k in CELL_KEY) for r in rows}
    with open(earlier, newline="") as f:
        kept = [r for r in csv.DictReader(f) if tuple(r[k] for k in CELL_KEY) not in done]
    return rows + kept


def _run(task: dict) -> list[dict]:
    return _pr_cell(task) if task["kind"] == "pr" else _cm_cell(task)


def tasks(args: argparse.Namespace) -> list[dict]:
    out = []

    def seed(*key: float) -> list[int]:
        return [args.seed, *(round(1000 * abs(k)) for k in key), len(out)]

    for t in THRESHOLDS:
        for pis in PAIRS:
            for n in NS:
                out.append(
                    {"kind": "cm", "threshold": t, "pis": pis, "n": n, "change": 0.0,
                     "reps": args.reps, "side_reps": args.cm_side_reps, "seed": seed(t, *pis, n)}
                )  # fmt: skip
        for change in BETA_CHANGES:
            for n in POWER_NS:
                out.append(
                    {"kind": "cm", "threshold": t, "pis": POWER_PAIR, "n": n, "change": change,
                     "reps": args.reps, "side_reps": args.cm_side_reps, "seed": seed(t, n, change)}
                )  # fmt: skip
    pr = {"kind": "pr", "resamples": args.pr_resamples, "permutations": args.permutations}
    for pis in PAIRS:
        for n in PR_NS:
            out.append(
                {**pr, "pis": pis, "n": n, "change": 0.0, "reps": args.pr_reps,
                 "side_reps": min(args.pr_reps, args.side_reps), "seed": seed(*pis, n)}
            )  # fmt: skip
    for n, reps in zip(PR_LARGE_NS, (args.pr_reps_large, args.pr_reps_huge), strict=True):
        for pis in PR_LARGE_PAIRS:
            if reps:
                out.append(
                    {**pr, "pis": pis, "n": n, "change": 0.0, "reps": reps,
                     "side_reps": min(reps, args.side_reps_large), "seed": seed(*pis, n)}
                )  # fmt: skip
    for change in D_CHANGES:
        for n in PR_POWER_NS:
            out.append(
                {**pr, "pis": POWER_PAIR, "n": n, "change": change, "reps": args.pr_power_reps,
                 "side_reps": min(args.pr_power_reps, args.side_reps), "seed": seed(n, change)}
            )  # fmt: skip
    return out


# ------------------------------------------------------------------ rendering
def _pct(rate: str, se: str) -> str:
    r = float(rate)
    if not np.isfinite(r):
        return ""
    return f"{100 * r:.1f}% ({100 * float(se):.1f})"


def _flag(row: dict) -> str:
    r = float(row["std_reject"])
    if not np.isfinite(r):
        return "undefined"
    if float(row["min_expected"]) < 5:
        return "(expected count < 5)"
    if 0.035 <= r <= 0.065:
        return ""
    m = int(row["reps"]) - int(row["undefined"])
    edge = 0.065 if r > 0.065 else 0.035
    k = round(r * m)
    p = stats.binom.sf(k - 1, m, edge) if r > edge else stats.binom.cdf(k, m, edge)
    return f"**outside** (p = {p:.2f} at {100 * edge:g}%)"


_NAMES = {"f1": "F1", "mcc": "MCC", "precision": "precision", "pr_auc": "PR AUC"}


def _outside(rows: list[dict]) -> tuple[int, int, float]:
    """Null cells with every expected count >= 5: how many, how many outside the band,
    and how many a true 5% would put outside it by chance (binomial, each cell's own
    repetitions)."""
    cells = [
        r
        for r in rows
        if r["study"] == "null"
        and float(r["min_expected"]) >= 5
        and np.isfinite(float(r["std_reject"]))
    ]
    out = sum(not 0.035 <= float(r["std_reject"]) <= 0.065 for r in cells)
    expected = 0.0
    for r in cells:
        m = int(r["reps"]) - int(r["undefined"])
        # outside: a count below 3.5% of m or above 6.5% of m
        expected += stats.binom.cdf(np.ceil(0.035 * m) - 1, m, LEVEL) + stats.binom.sf(
            np.floor(0.065 * m), m, LEVEL
        )
    return len(cells), out, float(expected)


def render(rows: list[dict]) -> str:
    # a confusion-matrix cell's CPU time is shared equally by its metrics' rows
    cpu = sum(float(r["cpu_seconds"]) for r in rows)
    cpu_cm = sum(float(r["cpu_seconds"]) for r in rows if r["metric"] in CM_METRICS)
    pr_rows = [r for r in rows if r["metric"] == "pr_auc"]
    cm_reps = sorted({int(r["reps"]) for r in rows if r["metric"] in CM_METRICS})
    cm_side = sorted(
        {int(r.get("side_reps") or r["reps"]) for r in rows if r["metric"] in CM_METRICS}
    )
    pr_reps = sorted({(int(r["n"]), int(r["reps"]), int(r["side_reps"])) for r in pr_rows})
    perms = sorted({str(r["n_permutations"]) for r in pr_rows})
    boots = sorted({str(r["n_resamples"]) for r in pr_rows})
    pr_text = "; ".join(
        f"{n:,} rows: {k} repetitions (the OPS and raw comparisons on the first {side})"
        for n, k, side in pr_reps
    )
    lines = [
        '# The test of "the classifier changed": size and power',
        "",
        "Written by `benchmarks/classifier_change_study.py` (its docstring has the design). "
        "Binormal classifier (negatives N(0, 1), positives N(1.5, 1)); two independent test "
        "sets per repetition, before at prevalence pi0 and after at pi1. Columns: the "
        "rejection rate at the 5% level (p <= 0.05), with its binomial Monte Carlo s.e. in "
        "parentheses, of the standardized test (`classifier_change_test`, both sets "
        "standardized to pi0, its default method), of the OPS comparison "
        "(`compare_test_sets(..., ops=True)`) and of the raw comparison "
        "(`compare_test_sets(...)`) on the same data, and for the confusion-matrix metrics "
        'of the test of alpha and beta (`metric="error_rates"`, the same in each metric\'s '
        "rows). `coverage`: the standardized test's 95% interval of D containing 0 (null "
        "only; s.e. 0.69 points near 95% at 1,000 repetitions).",
        "",
        "The standardized test of F1, MCC and precision is each set's Dirichlet posterior "
        f"(2,000 draws), {', '.join(map(str, cm_reps))} repetitions per cell"
        + (
            ". "
            if cm_side == cm_reps
            else f" (the OPS and raw comparisons on the first {', '.join(map(str, cm_side))}). "
        )
        + "The PR AUC's "
        "is the stratified permutation test (each class's pooled rows reassigned to the two "
        f"sets at random, each set's class sizes kept), B = {', '.join(perms)} permutations "
        "(the study's choice; the default is 1,999): with p = (1 + #{|D_b| >= |D|}) / "
        "(B + 1) and B + 1 a multiple of 20, P(p <= 0.05) is 5% under the null (less with "
        "tied differences), "
        "at any B, so its rejection rate estimates its size. Two intervals of D on the same "
        f"data: `coverage`, each set's stratified bootstrap ({', '.join(boots)} resamples), "
        'percentile (`interval="percentile"`, the default when this study began), and '
        "`MOVER`: Zou and Donner's combination of each set's own default interval "
        "(`ScoreCurve.interval`, method 'auto': the Dirichlet posterior, bias-extended, "
        "below 100 rows of a class, with as many draws as resamples; the jackknife's "
        'logit-t from 100 on), `interval="mover"`, made the default from this study\'s '
        "coverage (a test set with one row of a class, where the posterior is refused, is "
        "left out of `MOVER`'s rate and counted in the CSV's `mover_undefined`). PR AUC "
        f"repetitions: {pr_text}. CPU time of the simulation: {cpu / 60:.1f} min "
        f"({cpu_cm / 60:.1f} min the confusion-matrix metrics).",
        "",
        *(
            f"Run: `{r['command']}` on {r['date']} ({r['versions']})."
            for r in {row["command"]: row for row in rows}.values()
        ),
        *(
            [
                "",
                "The rows come from these runs, of one design: each row of the CSV names "
                "its run in its `command` column (a run with `--cells` computes some cells "
                "and, with `--merge`, keeps an earlier run's rows of the others).",
            ]
            if len({row["command"] for row in rows}) > 1
            else []
        ),
        "",
        "Under the null only the prevalence moved: the standardized test's target is "
        "3.5%-6.5% where every expected count (the eight cells of the two confusion "
        "matrices, or the smaller class for the PR AUC) is at least 5; cells below are "
        "marked and not held to it. Beside a flag, p is the one-sided binomial p-value of "
        "the count were the true rate at the band's edge. The OPS and raw comparisons test "
        "another hypothesis (equal OPS, equal metric) which a prevalence shift makes "
        "false for F1, MCC and the PR AUC: their high rates there are expected, and are "
        "what the standardized test avoids. Precision's OPS does not depend on the "
        "prevalence at a fixed classifier (docs/method.md#prevalence-invariance), so its "
        "OPS comparison keeps its level.",
        "",
    ]
    for label, metrics in (("F1, MCC and precision", CM_METRICS), ("PR AUC", ("pr_auc",))):
        n_cells, n_out, expected = _outside([r for r in rows if r["metric"] in metrics])
        if n_cells:
            lines.append(
                f"**{label}**: {n_out} of the {n_cells} null cells with every expected count "
                f"at least 5 fall outside 3.5%-6.5%; a true 5% would put {expected:.1f} "
                "outside by chance (binomial, each cell's repetitions: at 1,000 the s.e. of "
                "a 5% rate is 0.69% and a cell falls outside with probability 2.4%; at 300, "
                "1.3% and 23%)."
            )
            lines.append("")
    lines += [
        "Under a real change (Power) the after set's classifier is worse and its prevalence "
        "moved too: the OPS and raw comparisons' rates there mix both, and are power only "
        "where their null rows are near 5% (precision's OPS).",
        "",
    ]
    for study, title in (("null", "Null: a prevalence shift alone"), ("power", "Power")):
        for metric in (*CM_METRICS, "pr_auc"):
            sub = [r for r in rows if r["study"] == study and r["metric"] == metric]
            if not sub:
                continue
            cm = metric != "pr_auc"
            lines += [f"## {title}: {_NAMES[metric]}", ""]
            head = "| " + ("threshold | " if cm else "") + "change | pi0 -> pi1 | n | reps | "
            head += "min expected | standardized | | "
            if study == "null":
                head += "coverage | " + ("" if cm else "MOVER | ")
            head += "reps of the comparisons | "
            head += "OPS comparison | raw comparison | "
            head += "alpha and beta | " if cm else ""
            head += "undefined |"
            lines += [head, "|" + "---|" * (head.count("|") - 1)]
            for r in sub:
                cells = [r["threshold"]] if cm else []
                cells += [
                    r["change"],
                    f"{float(r['pi_before']):g} -> {float(r['pi_after']):g}",
                    r["n"],
                    r["reps"],
                    f"{float(r['min_expected']):g}",
                    _pct(r["std_reject"], r["std_reject_se"]),
                    _flag(r) if study == "null" else "",
                ]
                if study == "null":
                    cells.append(f"{100 * float(r['std_coverage']):.1f}%")
                    if not cm:
                        cells.append(f"{100 * float(r['std_coverage_mover']):.1f}%")
                cells.append(r.get("side_reps") or r["reps"])
                cells += [
                    _pct(r["ops_reject"], r["ops_reject_se"]),
                    _pct(r["raw_reject"], r["raw_reject_se"]),
                ]
                if cm:
                    cells.append(_pct(r["rates_reject"], r["rates_reject_se"]))
                cells.append(r["undefined"])
                lines.append("| " + " | ".join(str(c) for c in cells) + " |")
            lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=300)
    ap.add_argument("--pr-reps", type=int, default=100)
    ap.add_argument("--pr-reps-large", type=int, default=100, help="PR AUC, 10,000 rows")
    ap.add_argument("--pr-power-reps", type=int, default=100, help="PR AUC, power rows")
    ap.add_argument("--pr-reps-huge", type=int, default=0, help="PR AUC, 50,000 rows")
    ap.add_argument(
        "--cm-side-reps", type=int, default=300,
        help="repetitions of the confusion-matrix metrics' OPS and raw comparisons",
    )  # fmt: skip
    ap.add_argument(
        "--side-reps", type=int, default=100,
        help="repetitions of the PR AUC's OPS and raw comparisons (up to 2,000 rows)",
    )  # fmt: skip
    ap.add_argument(
        "--side-reps-large", type=int, default=100,
        help="repetitions of the OPS and raw comparisons in the 10,000- and 50,000-row cells",
    )  # fmt: skip
    ap.add_argument("--pr-resamples", type=int, default=200)
    ap.add_argument("--permutations", type=int, default=199)
    ap.add_argument("--seed", type=int, default=20261127)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--md", type=Path)
    ap.add_argument("--render", type=Path, help="render the Markdown from this CSV only")
    ap.add_argument("--cells", choices=("all", "pr-power", "cm", "pr-large"), default="all")
    ap.add_argument(
        "--merge",
        type=Path,
        help="keep this earlier CSV's rows of the cells this run does not compute",
    )
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
    command = "python benchmarks/classifier_change_study.py " + " ".join(sys.argv[1:])
    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    versions = (
        f"opsstats {opsstats.__version__}, numpy {np.__version__}, "
        f"Python {platform.python_version()}"
    )

    # the PR AUC's null cells of up to 2,000 rows first, then of 10,000, the confusion-
    # matrix metrics, the PR AUC's power, its 50,000-row cells: a run cut short keeps these
    # in that order
    def order(t: dict) -> int:
        if t["kind"] == "cm":
            return 2
        if t["change"]:
            return 3
        return 0 if t["n"] <= 2000 else 1 if t["n"] <= 10000 else 4

    todo = sorted(tasks(args), key=order)
    if args.cells == "pr-power":  # a second run of the PR AUC's power rows alone
        todo = [t for t in todo if t["kind"] == "pr" and t["change"]]
    if args.cells == "cm":  # the confusion-matrix metrics' cells alone
        todo = [t for t in todo if t["kind"] == "cm"]
    if args.cells == "pr-large":  # the PR AUC's null cells of 10,000 rows and more
        todo = [t for t in todo if t["kind"] == "pr" and not t["change"] and t["n"] > 2000]
    rows: list[dict] = []
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for result in pool.map(_run, todo):
            for row in result:
                row.update(command=command, date=stamp, versions=versions)
                rows.append(row)
                print(
                    f"{row['study']:5s} {row['metric']:9s} t={row['threshold']!s:4s} "
                    f"{row['change']:9s} {row['pi_before']:g}->{row['pi_after']:g} "
                    f"n={row['n']:6d} std {100 * row['std_reject']:5.1f}% "
                    f"ops {100 * row['ops_reject']:5.1f}% raw {100 * row['raw_reject']:5.1f}% "
                    f"({row['cpu_seconds']} s)",
                    flush=True,
                )
            if args.out:  # the rows so far, so that an interrupted run keeps them
                with open(args.out, "w", newline="") as f:
                    w = csv.DictWriter(f, fieldnames=FIELDS)
                    w.writeheader()
                    w.writerows(_merged(rows, args.merge))
    rows = _merged(rows, args.merge)
    text = render(rows)
    if args.md:
        args.md.write_text(text)
    else:
        print(text)


if __name__ == "__main__":
    main()
