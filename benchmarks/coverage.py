"""Coverage study: do the 95% intervals of opsstats contain the truth 95% of the time?

The main evidence that the intervals of issue 5 (METHOD.md 3.2) are honest. Test sets
are simulated from a known classifier, every interval method is run on each through the
public API (``ConfusionMatrix.interval`` and ``ConfusionMatrix.ops``: the code users
run, not a re-implementation), and the proportion of intervals containing the true
value is reported with its binomial standard error, the mean width, and how often the
quantity or interval was undefined.

Run (the committed table)::

    python benchmarks/coverage.py --part cm --reps 1000 --seed 20240605 --jobs 2 \
        --out benchmarks/results/coverage_cm.csv --md benchmarks/results/coverage_cm.md

(about 10 min of CPU time: 36 cells of about 18 s each, two worker processes), a quick
look at two cells::

    python benchmarks/coverage.py --part cm --reps 200 --cells 200:0.1,1000:0.1

and the Markdown again from a CSV, without simulating (every row carries how the run was
made: command, date, runtime, versions)::

    python benchmarks/coverage.py --render benchmarks/results/coverage_cm.csv \
        --md benchmarks/results/coverage_cm.md

Part ``cm``: confusion-matrix quantities
=========================================

Cells: n in {50, 200, 1000, 10000} x prevalence pi in {0.5, 0.1, 0.02}, for each of
three fixed classifiers (``--classifiers``; true Type-I error alpha, Type-II error beta):

* ``A`` alpha = 0.10, beta = 0.25 (TPR 0.75, FPR 0.10; informedness 0.65): a useful,
  imperfect screening classifier, the main case. Its error rates sit away from 0 and 1,
  so the study measures the intervals rather than boundary artefacts, while the
  expected error counts are still small in the small cells (n = 50, pi = 0.02: one
  positive on average, FN ~ 0.25), which stresses discreteness. At pi = 0.1 its F1 is
  0.57, MCC 0.53 and OPS(F1) 0.95, the upper range where OPS compresses.
* ``B`` alpha = 0.30, beta = 0.40 (informedness 0.30): a weak classifier; at
  pi = 0.02, F1 0.07 and MCC 0.09, metrics near the bottom of their range (OPS about
  0.75).
* ``C`` alpha = 0.02, beta = 0.05: a strong classifier (OPS above 0.99); FP and FN
  counts are often 0 or 1, the boundary case where binomial-type intervals are most
  discrete.

Simulation. Test instances are i.i.d. from a population with prevalence pi, so the
number of positives is P ~ Binomial(n, pi) (``--positives binomial``, the default; the
natural data-generating process, and it makes a class absent with a realistic
frequency: at n = 50, pi = 0.02, P = 0 in 36% of test sets). Then
TP ~ Binomial(P, 1 - beta), FP ~ Binomial(N, alpha), N = n - P.
``--positives fixed`` sets P = round(n pi) instead (then pi_hat = pi always).

The estimand. Every metric is M(pi, alpha, beta) (METHOD.md 1). alpha and beta are the
classifier's, whatever the test set. For a metric and its OPS there are two targets:

* ``conditional``: M(pi_hat, alpha, beta) with pi_hat = P / n the test set's own
  prevalence, and OPS standardized at pi_hat. This is what the prevalence-fixed methods
  estimate: they condition on the class totals (Dirichlet with prevalence fixed draws
  only alpha and beta; the stratified bootstrap keeps P and N) and OPS standardizes
  against the test set's prevalence by definition (METHOD.md 3.2).
* ``population``: M(pi, alpha, beta) at the population prevalence, what the
  prevalence-random methods estimate (Dirichlet with ``prevalence="random"``, the
  unstratified bootstrap).

A method is scored against its *matched* target (column ``matched``); the CSV also
has every method against the other target, to show what happens when the estimand is
confused. For alpha and beta the two targets coincide (``target = "both"``).
Averaging over P ~ Binomial, the conditional coverage reported is the average of the
coverage given the class totals: a fixed-prevalence method that is exact given
(P, N) is exact here too.

Undefined. A quantity needs a class to be present: alpha the negatives, beta the
positives, F1, MCC and their OPS both (with no positives beta is not identified, MCC and
OPS are 0/0 or undefined, and F1 is 0 identically, so the conditional F1 target is the
trivial 0 and its interval [0, 0]: not an inference about the classifier). Such test
sets are counted in ``n_absent`` and left out. Of the rest, test sets where a method
returns no interval (a NaN end, or a ``ValueError``; e.g. ``ops(ci=...)`` returns no
interval when the metric's point estimate is 0/0) are counted in ``n_undefined`` and
left out; the reasons are printed. ``coverage`` is over the remaining ``n_defined``
test sets, and ``n_absent + n_undefined + n_defined = reps`` always.

Methods (``CM_METHODS``): ``dirichlet`` (equal-tailed, Jeffreys prior, prevalence
fixed: the default), ``dirichlet-hpd``, ``dirichlet-random`` (prevalence random),
``bootstrap`` (stratified percentile: the bootstrap default), ``bootstrap-bca``
(stratified), ``bootstrap-unstratified`` (percentile), and for alpha and beta the
exact ``clopper-pearson``, ``wilson`` and ``jeffreys`` intervals. Quantities: alpha,
beta, F1, MCC, OPS(F1), OPS(MCC), OPS under the Uniform reference (exact).

Accuracy. ``--n-resamples`` (default 2000) draws or resamples per interval: the Monte
Carlo error of a 2.5% quantile from 2000 draws moves each interval's posterior or
bootstrap mass by about +-0.5 percentage point, which changes the expected coverage by
much less than the coverage's own standard error (0.7 point at 1000 replicates). A
truth is "inside" if low - tol <= truth <= high + tol with tol = 1e-12 (1 + |truth|),
so that an endpoint equal to the truth up to rounding (bootstrap endpoints are ratios
of counts, the truth is computed from (pi, alpha, beta)) counts as inside.

Checks beside the simulation. For alpha and beta, ``exact_coverage`` is the coverage
of the interval the Dirichlet method estimates by Monte Carlo (the Beta(x + 1/2,
t - x + 1/2) quantiles), computed exactly by summing over the class totals and counts;
the simulated coverage must agree with it within its standard error, and it shows
which deviations from 95% belong to the interval itself (discreteness at small counts)
rather than to the simulation. ``min_expected_count`` is the smallest expected count a
quantity depends on (alpha: E[FP], E[TN]; beta: E[TP], E[FN]; the metrics: all four),
the variable that orders where intervals fail.

Randomness. Each (part, classifier, n, pi) cell has its own ``SeedSequence`` built
from ``--seed`` and the cell, so a cell gives the same numbers whether it is run alone
(``--cells``), with others, or in another worker (``--jobs``).

Adding a part
=============

A part is a :class:`Part` in ``PARTS``: a function that lists its cells from the
command-line options, a function that runs one cell and returns CSV rows (dicts with
the shared columns of ``SHARED_COLUMNS`` plus any of its own), and a function that
renders its Markdown sections. A ``curve`` part (ROC AUC and PR AUC from simulated
scores) is added by writing those three functions and one entry in ``PARTS``; the
command line, the cell filter, the parallel runner, the CSV writer and the Markdown
header are shared.
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import dataclasses
import datetime
import io
import os
import platform
import re
import shlex
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

import opsstats
from opsstats import ConfusionMatrix, UndefinedMetricWarning
from opsstats.metrics import resolve_metric
from opsstats.reference import Uniform

CONFIDENCE_LEVEL = 0.95
ACCEPT_LOW, ACCEPT_HIGH = 0.93, 0.97   # issue 5: defaults must cover within 93%-97%
TOL = 1e-12
CSV_FLOAT_FORMAT = "%.6g"

# Columns every part writes (a part may add its own after these).
SHARED_COLUMNS = [
    "part", "cell", "quantity", "method", "is_default", "target", "matched",
    "reps", "n_absent", "n_undefined", "n_defined", "coverage", "coverage_se",
    "miss_low", "miss_high", "mean_width", "median_width", "n_resamples", "seed",
    "cell_seconds", "cell_cpu_seconds",
]


# =====================================================================================
# Shared machinery: parts, cells, summaries
# =====================================================================================

@dataclasses.dataclass(frozen=True)
class Part:
    """One section of the study.

    ``make_cells(args)`` returns picklable cell specs (dicts with at least ``"cell"``,
    a short label, and ``"spawn_key"``, a tuple of ints identifying the cell);
    ``run_cell(spec, options)`` returns a list of CSV rows; ``render(frame)`` returns
    Markdown text for the part's rows.
    """

    name: str
    description: str
    make_cells: Callable[[argparse.Namespace], list[dict[str, Any]]]
    run_cell: Callable[[dict[str, Any], dict[str, Any]], list[dict[str, Any]]]
    render: Callable[[pd.DataFrame], str]


def summarize(low: np.ndarray, high: np.ndarray, truth: np.ndarray, absent: np.ndarray,
              ) -> dict[str, Any]:
    """Coverage summary of one (quantity, method, target) over the replicates.

    ``low``/``high`` are NaN where the method gave no interval; ``absent`` marks the
    replicates where the quantity is not estimable (a class it needs is absent).
    """
    reps = truth.size
    undefined = ~absent & ~(np.isfinite(low) & np.isfinite(high))
    ok = ~absent & ~undefined
    n_def = int(ok.sum())
    out = {"reps": reps, "n_absent": int(absent.sum()), "n_undefined": int(undefined.sum()),
           "n_defined": n_def}
    if n_def == 0:
        return {**out, "coverage": np.nan, "coverage_se": np.nan, "miss_low": np.nan,
                "miss_high": np.nan, "mean_width": np.nan, "median_width": np.nan}
    t, lo, hi = truth[ok], low[ok], high[ok]
    if np.isnan(t).any():    # a NaN truth would silently count as covered
        raise RuntimeError("undefined true value in a replicate counted as defined")
    tol = TOL * (1 + np.abs(t))
    below = t < lo - tol          # interval entirely above the truth
    above = t > hi + tol          # interval entirely below the truth
    cov = (n_def - int(below.sum()) - int(above.sum())) / n_def   # k / m: 930/1000 == 0.93
    width = hi - lo
    return {**out, "coverage": cov, "coverage_se": float(np.sqrt(cov * (1 - cov) / n_def)),
            "miss_low": below.mean(), "miss_high": above.mean(),
            "mean_width": float(width.mean()), "median_width": float(np.median(width))}


def cell_rng(seed: int, spawn_key: tuple[int, ...]) -> tuple[np.random.Generator, ...]:
    """(simulation rng, interval rng) of a cell, independent of every other cell."""
    ss = np.random.SeedSequence(seed, spawn_key=spawn_key)
    sim, draws = ss.spawn(2)
    return np.random.default_rng(sim), np.random.default_rng(draws)


def parse_cells(text: str | None) -> list[tuple[str, str]] | None:
    """``"200:0.1,1000:*"`` -> [("200", "0.1"), ("1000", "*")] (None: every cell)."""
    if not text:
        return None
    out = []
    for token in text.split(","):
        token = token.strip()
        if token.count(":") != 1:
            raise SystemExit(f"--cells: expected tokens like 200:0.1 or 1000:* ; got {token!r}")
        n, p = token.split(":")
        out.append((n.strip(), p.strip()))
    return out


def cell_selected(filters: list[tuple[str, str]] | None, n: int, pi: float) -> bool:
    if filters is None:
        return True
    return any((fn == "*" or int(fn) == n) and (fp == "*" or float(fp) == pi)
               for fn, fp in filters)


# =====================================================================================
# Part "cm": confusion-matrix quantities
# =====================================================================================

CM_NS = (50, 200, 1000, 10_000)
CM_PREVALENCES = (0.5, 0.1, 0.02)
CLASSIFIERS = {            # name -> (alpha, beta); see the module docstring
    "A": (0.10, 0.25),
    "B": (0.30, 0.40),
    "C": (0.02, 0.05),
}
CM_QUANTITIES = ("alpha", "beta", "f1", "mcc", "ops_f1", "ops_mcc")
QUANTITY_LABEL = {"alpha": "alpha", "beta": "beta", "f1": "F1", "mcc": "MCC",
                  "ops_f1": "OPS(F1)", "ops_mcc": "OPS(MCC)"}


@dataclasses.dataclass(frozen=True)
class CMMethod:
    key: str
    kwargs: dict[str, Any]        # for ConfusionMatrix.interval (``method=`` included)
    prevalence: str               # the estimand it targets: "fixed" or "random"
    default: bool = False
    binomial: bool = False        # only for alpha and beta
    note: str = ""

    def call(self, cm: ConfusionMatrix, quantity: str, rng: np.random.Generator,
             n_resamples: int) -> tuple[float, float]:
        kw = dict(self.kwargs)
        if not self.binomial:
            kw.update(n_resamples=n_resamples, rng=rng)
        if quantity.startswith("ops_"):
            kw["ci"] = kw.pop("method")
            res = cm.ops(quantity[4:], **kw)
            if res.ci is None:    # no interval when the metric's estimate is 0/0
                raise ValueError("ops() gave no interval (metric estimate undefined)")
            return res.ci.low, res.ci.high
        res = cm.interval(quantity, **kw)
        return res.ci.low, res.ci.high


CM_METHODS = (
    CMMethod("dirichlet", {"method": "dirichlet"}, "fixed", default=True,
             note="equal-tailed, Jeffreys prior, prevalence fixed (default)"),
    CMMethod("dirichlet-hpd", {"method": "dirichlet", "interval": "hpd"}, "fixed",
             note="HPD, Jeffreys prior, prevalence fixed"),
    CMMethod("dirichlet-random", {"method": "dirichlet", "prevalence": "random"}, "random",
             note="equal-tailed, Jeffreys prior, prevalence random"),
    CMMethod("bootstrap", {"method": "bootstrap"}, "fixed", default=True,
             note="stratified, percentile (default)"),
    CMMethod("bootstrap-bca", {"method": "bootstrap", "interval": "bca"}, "fixed",
             note="stratified, BCa"),
    CMMethod("bootstrap-unstratified", {"method": "bootstrap", "stratified": False},
             "random", note="not stratified, percentile"),
    CMMethod("clopper-pearson", {"method": "clopper-pearson"}, "fixed", binomial=True,
             note="exact (alpha, beta only)"),
    CMMethod("wilson", {"method": "wilson"}, "fixed", binomial=True,
             note="score interval (alpha, beta only)"),
    CMMethod("jeffreys", {"method": "jeffreys"}, "fixed", binomial=True,
             note="Jeffreys with Brown-Cai-DasGupta boundary rule (alpha, beta only)"),
)


def cm_make_cells(args: argparse.Namespace) -> list[dict[str, Any]]:
    filters = parse_cells(args.cells)
    names = [c.strip() for c in args.classifiers.split(",") if c.strip()]
    for c in names:
        if c not in CLASSIFIERS:
            raise SystemExit(f"--classifiers: unknown {c!r}; choose from {sorted(CLASSIFIERS)}")
    cells = []
    for ci, cname in enumerate(sorted(CLASSIFIERS)):
        if cname not in names:
            continue
        a, b = CLASSIFIERS[cname]
        for n in CM_NS:
            for pi in CM_PREVALENCES:
                if not cell_selected(filters, n, pi):
                    continue
                cells.append({"cell": f"{cname} n={n} pi={pi:g}", "classifier": cname,
                              "alpha": a, "beta": b, "n": n, "prevalence": pi,
                              "spawn_key": (0, ci, n, round(pi * 10_000))})
    return cells


def _cm_truths(n: int, pi: float, a: float, b: float, positives: np.ndarray
               ) -> dict[str, dict[str, np.ndarray]]:
    """truth[quantity][target] per replicate (NaN where not estimable)."""
    reps = positives.size
    pi_hat = positives / n
    both_present = (positives > 0) & (positives < n)
    out: dict[str, dict[str, np.ndarray]] = {
        "alpha": {"both": np.full(reps, a)}, "beta": {"both": np.full(reps, b)}}
    uniform = Uniform()
    for m in ("f1", "mcc"):
        metric = resolve_metric(m)
        cond = np.full(reps, np.nan)
        cond[both_present] = metric(pi_hat[both_present], a, b)
        pop = np.full(reps, float(metric(pi, a, b)))
        out[m] = {"conditional": cond, "population": pop}
        ops_cond = np.full(reps, np.nan)
        ops_cond[both_present] = uniform.ops(m, cond[both_present],
                                             prevalence=pi_hat[both_present]).estimate
        ops_pop = np.full(reps, float(uniform.ops(m, pop[0], prevalence=pi).estimate))
        out[f"ops_{m}"] = {"conditional": ops_cond, "population": ops_pop}
    return out


def _exact_rate_coverage(n: int, pi: float, p: float, rate: str, positives: str) -> float:
    """Coverage of the interval the Dirichlet method estimates for alpha or beta,
    computed exactly rather than simulated.

    Given the class totals, the Dirichlet interval for alpha (beta) is the equal-tailed
    interval of Beta(x + 1/2, t - x + 1/2), x = FP (FN), t = N (P); the method finds
    its ends from draws, this uses the Beta quantiles themselves. The coverage is then
    a sum over t (Binomial(n, pi) positives, or fixed) and x ~ Binomial(t, p), with t = 0
    left out as in the study. Terms of probability below 1e-12 are skipped.
    """
    from scipy import stats

    if positives == "fixed":
        totals = np.array([round(n * pi)])
        weights = np.array([1.0])
    else:
        totals = np.arange(n + 1)
        weights = stats.binom.pmf(totals, n, pi)
    if rate == "alpha":
        totals = n - totals
    keep = (totals > 0) & (weights > 1e-12)
    covered = 0.0
    for t, w in zip(totals[keep], weights[keep], strict=True):
        lo_x, hi_x = stats.binom.ppf([1e-12, 1 - 1e-12], t, p)
        x = np.arange(int(max(lo_x - 1, 0)), int(min(hi_x + 1, t)) + 1)
        tail = (1 - CONFIDENCE_LEVEL) / 2
        lo = stats.beta.ppf(tail, x + 0.5, t - x + 0.5)
        hi = stats.beta.ppf(1 - tail, x + 0.5, t - x + 0.5)
        covered += w * np.sum(stats.binom.pmf(x, t, p) * ((lo <= p) & (p <= hi)))
    return float(covered / weights[keep].sum())


def cm_run_cell(spec: dict[str, Any], options: dict[str, Any]) -> list[dict[str, Any]]:
    t0, c0 = time.perf_counter(), time.process_time()
    reps, n_res, seed = options["reps"], options["n_resamples"], options["seed"]
    n, pi, a, b = spec["n"], spec["prevalence"], spec["alpha"], spec["beta"]
    sim, draws = cell_rng(seed, spec["spawn_key"])
    # --- simulate the test sets (vectorized)
    if options["positives"] == "fixed":
        pos = np.full(reps, round(n * pi))
    else:
        pos = sim.binomial(n, pi, reps)
    neg = n - pos
    tp = sim.binomial(pos, 1 - b)
    fp = sim.binomial(neg, a)
    fn, tn = pos - tp, neg - fp
    truths = _cm_truths(n, pi, a, b, pos)
    absent = {"alpha": neg == 0, "beta": pos == 0}
    for q in ("f1", "mcc", "ops_f1", "ops_mcc"):
        absent[q] = (pos == 0) | (neg == 0)
    # --- intervals, one test set at a time, through the public API
    pairs = [(q, m) for q in CM_QUANTITIES for m in CM_METHODS
             if not (m.binomial and q not in ("alpha", "beta"))]
    low = {(q, m.key): np.full(reps, np.nan) for q, m in pairs}
    high = {(q, m.key): np.full(reps, np.nan) for q, m in pairs}
    # why a method gave no interval, and warnings the package emitted, per (q, method)
    reasons = collections.defaultdict(collections.Counter)
    warned = collections.defaultdict(collections.Counter)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.simplefilter("ignore", UndefinedMetricWarning)  # expected: NaN estimates
        for i in range(reps):
            cm = ConfusionMatrix(tp=int(tp[i]), fp=int(fp[i]), fn=int(fn[i]), tn=int(tn[i]))
            for q, m in pairs:
                if absent[q][i]:
                    continue
                del caught[:]
                try:
                    lo, hi = m.call(cm, q, draws, n_res)
                except ValueError as exc:
                    reasons[q, m.key][str(exc)[:100]] += 1
                    continue
                finally:
                    for w in caught:
                        warned[q, m.key][f"{w.category.__name__}: {w.message}"[:100]] += 1
                if not (np.isfinite(lo) and np.isfinite(hi)):
                    reasons[q, m.key]["NaN interval (undefined in every draw)"] += 1
                low[q, m.key][i], high[q, m.key][i] = lo, hi
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    e_tp, e_fn = n * pi * (1 - b), n * pi * b
    e_fp, e_tn = n * (1 - pi) * a, n * (1 - pi) * (1 - a)
    min_expected = {"alpha": min(e_fp, e_tn), "beta": min(e_tp, e_fn)}
    for q in ("f1", "mcc", "ops_f1", "ops_mcc"):
        min_expected[q] = min(e_tp, e_fn, e_fp, e_tn)
    exact = {q: _exact_rate_coverage(n, pi, a if q == "alpha" else b, q, options["positives"])
             for q in ("alpha", "beta")}
    rows = []
    for q, m in pairs:
        for target, truth in truths[q].items():
            matched = target == "both" or (target == "conditional") == (m.prevalence == "fixed")
            s = summarize(low[q, m.key], high[q, m.key], truth, absent[q])
            rows.append({"part": "cm", "cell": spec["cell"], "quantity": q, "method": m.key,
                         "is_default": m.default, "target": target, "matched": matched, **s,
                         "n_resamples": None if m.binomial else n_res, "seed": seed,
                         "cell_seconds": round(seconds, 2), "cell_cpu_seconds": round(cpu, 2),
                         "exact_coverage": exact[q] if q in exact and m.key in (
                             "dirichlet", "dirichlet-random") else np.nan,
                         "classifier": spec["classifier"], "alpha": a, "beta": b, "n": n,
                         "prevalence": pi, "positives": options["positives"],
                         "min_expected_count": round(min_expected[q], 4),
                         "undefined_reasons": "; ".join(
                             f"{k} ({v})" for k, v in reasons[q, m.key].items()),
                         "warnings": "; ".join(
                             f"{k} ({v})" for k, v in warned[q, m.key].items())})
    return rows


# ------------------------------------------------------------------ cm: rendering
def _flag(cov: float) -> str:
    if not np.isfinite(cov):
        return "-"
    text = f"{100 * cov:.1f}"
    if cov < ACCEPT_LOW:
        return f"**{text}** v"
    if cov > ACCEPT_HIGH:
        return f"**{text}** ^"
    return text


def _cell_order(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.sort_values(["classifier", "n", "prevalence"],
                             ascending=[True, True, False], kind="stable")


def _row_label(r: pd.Series) -> str:
    return f"{r['classifier']} | {int(r['n'])} | {r['prevalence']:g}"


def _pivot(frame: pd.DataFrame, value: Callable[[pd.Series], str], methods: list[str]
           ) -> str:
    """Markdown table: rows cells, columns methods."""
    frame = _cell_order(frame)
    cells = frame.drop_duplicates("cell")
    header = "| classifier \\| n \\| pi | " + " | ".join(methods) + " |"
    sep = "|---|" + "---|" * len(methods)
    lines = [header, sep]
    for _, c in cells.iterrows():
        sub = frame[frame["cell"] == c["cell"]].set_index("method")
        entries = [value(sub.loc[m]) if m in sub.index else "" for m in methods]
        lines.append(f"| {_row_label(c)} | " + " | ".join(entries) + " |")
    return "\n".join(lines)


def _defined_note(r: pd.Series) -> str:
    return _flag(r["coverage"])


def cm_render(df: pd.DataFrame) -> str:
    df = df[df["part"] == "cm"].copy()
    out = []
    matched = df[df["matched"]]
    methods_all = [m.key for m in CM_METHODS]
    n_reps = int(df["reps"].max())
    out.append(f"- test sets: positives {df['positives'].iloc[0]} (P ~ Binomial(n, pi) or "
               "P = round(n pi)), TP ~ Binomial(P, 1 - beta), FP ~ Binomial(N, alpha)")
    out.append("- classifiers: " + "; ".join(
        f"{k}: alpha = {CLASSIFIERS[k][0]}, beta = {CLASSIFIERS[k][1]}"
        for k in sorted(set(df["classifier"]))))
    out.append("- methods: " + "; ".join(f"`{m.key}` {m.note}" for m in CM_METHODS) + "\n")

    # --- acceptance: the defaults
    out.append("## Acceptance: the default methods\n")
    out.append("Issue 5: *every method used as a default must cover within 93%-97% wherever "
               "it is defined*. Defaults: `dirichlet` (equal-tailed, Jeffreys prior, "
               "prevalence fixed) and `bootstrap` (stratified percentile), each against its "
               "matched (conditional) target. Coverage in %, over the test sets where the "
               "quantity and interval are defined; **bold v** below 93, **bold ^** above 97. "
               f"Binomial s.e. of a coverage near 95% over {n_reps} test sets: "
               f"{100 * np.sqrt(0.95 * 0.05 / n_reps):.2f} points.\n")
    defaults = matched[matched["is_default"]]
    cols = [(q, m) for q in CM_QUANTITIES for m in ("dirichlet", "bootstrap")]
    header = ("| classifier \\| n \\| pi | "
              + " | ".join(f"{QUANTITY_LABEL[q]} {'Dir' if m == 'dirichlet' else 'Boot'}"
                           for q, m in cols) + " |")
    lines = [header, "|---|" + "---|" * len(cols)]
    for _, c in _cell_order(defaults).drop_duplicates("cell").iterrows():
        sub = defaults[defaults["cell"] == c["cell"]].set_index(["quantity", "method"])
        lines.append(f"| {_row_label(c)} | " + " | ".join(
            _flag(sub.loc[k, "coverage"]) if k in sub.index else "" for k in cols) + " |")
    out.append("\n".join(lines) + "\n")
    out.append(_acceptance_summary(defaults) + "\n")
    out.append(_calibration_summary(matched) + "\n")

    # --- per quantity: coverage and width, all methods, matched target
    for q in CM_QUANTITIES:
        sub = matched[matched["quantity"] == q]
        methods = [m for m in methods_all if m in set(sub["method"])]
        if q in ("alpha", "beta"):   # the Dirichlet interval's exact coverage, beside it
            ex = sub[sub["method"] == "dirichlet"].copy()
            ex["method"], ex["coverage"] = "dirichlet (exact)", ex["exact_coverage"]
            ex["mean_width"] = np.nan
            sub = pd.concat([sub, ex])
            methods.insert(1, "dirichlet (exact)")
        out.append(f"## {QUANTITY_LABEL[q]}\n")
        target = ("alpha and beta are the classifier's: one target" if q in ("alpha", "beta")
                  else "each method against its matched target: conditional "
                  "M(pi_hat, alpha, beta) for prevalence-fixed methods, population "
                  "M(pi, alpha, beta) for `dirichlet-random` and `bootstrap-unstratified`")
        out.append(f"Coverage (%), {target}."
                   + (" `dirichlet (exact)`: the coverage of the interval `dirichlet` "
                      "estimates by Monte Carlo (Beta(x + 1/2, t - x + 1/2) quantiles), "
                      "computed exactly by summing over the class totals and counts, "
                      "without simulation: the simulated `dirichlet` column should agree "
                      "with it within its standard error." if q in ("alpha", "beta") else "")
                   + "\n")
        out.append(_pivot(sub, _defined_note, methods) + "\n")
        out.append(f"Mean width of the {QUANTITY_LABEL[q]} intervals (defined test sets).\n")
        out.append(_pivot(sub, lambda r: f"{r['mean_width']:.4g}"
                          if np.isfinite(r["mean_width"]) else "-", methods) + "\n")
        both = sub[sub["method"].isin(["dirichlet", "bootstrap"])]
        lopsided = both[(both["coverage"] < ACCEPT_LOW)]
        if len(lopsided):
            out.append("Where the defaults miss, which side (% of defined test sets with "
                       "the truth below the interval / above it):\n")
            out.append(_pivot(lopsided, lambda r: f"{100 * r['miss_low']:.1f} / "
                              f"{100 * r['miss_high']:.1f}",
                              [m for m in ("dirichlet", "bootstrap")
                               if m in set(lopsided["method"])]) + "\n")

    # --- wrong target: fixed-prevalence methods against the population value
    out.append("## The estimand matters: coverage of the population value M(pi, alpha, beta)\n")
    out.append("The same intervals scored against the metric at the *population* prevalence "
               "instead of the test set's own. Prevalence-fixed methods (`dirichlet`, "
               "`bootstrap`) do not target this value; `dirichlet-random` and "
               "`bootstrap-unstratified` do. Coverage (%).\n")
    cols_m = ["dirichlet", "bootstrap", "dirichlet-random", "bootstrap-unstratified"]
    for q in ("f1", "mcc", "ops_f1", "ops_mcc"):
        sub = df[(df["quantity"] == q) & (df["target"] == "population")]
        out.append(f"### {QUANTITY_LABEL[q]} (population target)\n")
        out.append(_pivot(sub, _defined_note, cols_m) + "\n")

    # --- undefined counts
    out.append("## Test sets left out\n")
    out.append(f"Per cell, of {n_reps} test sets: `absent` = a class the quantity needs is "
               "absent (P = 0 or N = 0; the quantity is not estimable and its conditional "
               "value is undefined or trivial); `no interval`: the method gave none. "
               "Coverage above is over the rest. Only cells and methods with something left "
               "out are listed.\n")
    left = _cell_order(df[df["target"] != "population"])
    lines = [("| classifier \\| n \\| pi | quantity | absent | no interval (method: count) "
              "| why |"), "|---|---|---|---|---|"]
    for _, sub in left.groupby(["cell", "quantity"], sort=False):
        absent = int(sub["n_absent"].iloc[0])
        undef = sub[sub["n_undefined"] > 0]
        if absent == 0 and undef.empty:
            continue
        counts = ", ".join(f"{r['method']}: {r['n_undefined']}" for _, r in undef.iterrows())
        why = sorted({re.sub(r" \(\d+\)$", "", part) for text in undef["undefined_reasons"]
                      if isinstance(text, str) for part in text.split("; ") if part})
        lines.append(f"| {_row_label(sub.iloc[0])} | {QUANTITY_LABEL[sub['quantity'].iloc[0]]}"
                     f" | {absent} | {counts or '-'} | {'; '.join(why) or '-'} |")
    out.append("\n".join(lines) + "\n" if len(lines) > 2 else "None.\n")

    # --- warnings the package emitted (UndefinedMetricWarning is expected and ignored)
    out.append("## Warnings emitted by opsstats during the study\n")
    warned = left[left["warnings"].apply(lambda w: isinstance(w, str) and w != "")]
    if warned.empty:
        out.append("None (UndefinedMetricWarning for 0/0 point estimates is expected and was "
                   "not recorded).\n")
    else:
        total: collections.Counter[tuple[str, str, str]] = collections.Counter()
        for _, r in warned.iterrows():
            for part in r["warnings"].split("; "):
                m = re.match(r"(.*) \((\d+)\)$", part)
                if m:
                    total[r["quantity"], r["method"], m.group(1)] += int(m.group(2))
        lines = ["| quantity | method | warning | intervals affected (all cells) |",
                 "|---|---|---|---|"]
        for (q, meth, text), k in sorted(total.items()):
            lines.append(f"| {QUANTITY_LABEL[q]} | {meth} | {text} | {k} |")
        out.append("\n".join(lines) + "\n")
    return "\n".join(out)


def _calibration_summary(matched: pd.DataFrame) -> str:
    """Per method, over the entries whose smallest expected count exceeds a threshold:
    mean coverage, range, and the spread of z = (coverage - 0.95) / s.e.(0.95), which is
    about 1 when the coverage is 95% and the entries differ only by sampling noise."""
    lines = ["### Calibration across cells", "",
             ("Per method (matched target), over the entries (cell x quantity) whose "
              "smallest expected count `min E` is above 5 (and 20): their number, mean "
              "coverage, lowest and highest, and the standard deviation of "
              "z = (coverage - 95%) / s.e. (about 1 if every entry covers 95% and differs "
              "from it only by simulation noise; larger if coverage varies between cells)."),
             "", "| method | min E > | entries | mean coverage % | lowest | highest | sd(z) |",
             "|---|---|---|---|---|---|---|"]
    nominal = CONFIDENCE_LEVEL
    for method in [m.key for m in CM_METHODS]:
        for threshold in (5, 20):
            sub = matched[(matched["method"] == method)
                          & (matched["min_expected_count"] > threshold)
                          & matched["coverage"].notna()]
            if sub.empty:
                continue
            z = (sub["coverage"] - nominal) / np.sqrt(nominal * (1 - nominal) / sub["n_defined"])
            lines.append(f"| {method} | {threshold} | {len(sub)} | "
                         f"{100 * sub['coverage'].mean():.2f} | {100 * sub['coverage'].min():.1f} "
                         f"| {100 * sub['coverage'].max():.1f} | {z.std():.2f} |")
    ex = matched[(matched["method"] == "dirichlet") & matched["exact_coverage"].notna()]
    if len(ex):
        z = (ex["coverage"] - ex["exact_coverage"]) / np.sqrt(
            ex["exact_coverage"] * (1 - ex["exact_coverage"]) / ex["n_defined"])
        lines += ["", f"Simulated against exact coverage of the `dirichlet` interval for alpha "
                  f"and beta ({len(ex)} entries, every cell): mean difference "
                  f"{100 * (ex['coverage'] - ex['exact_coverage']).mean():+.2f} points, "
                  f"sd(z) {z.std():.2f}, largest |z| {z.abs().max():.2f}"
                  + (": consistent with simulation noise alone (the Monte Carlo interval "
                     "has the coverage of the exact Beta-quantile interval)."
                     if abs(z.mean()) < 3 / np.sqrt(len(ex)) and z.std() < 1.5 else
                     ": NOT consistent with simulation noise alone; check.")]
    return "\n".join(lines)


def _outside_p(r: pd.Series) -> float:
    """One-sided exact binomial p-value that the coverage is inside the band, against
    the side it fell out of (small: outside beyond sampling noise)."""
    from scipy.stats import binomtest

    k = round(r["coverage"] * r["n_defined"])
    if r["coverage"] < ACCEPT_LOW:
        return binomtest(k, int(r["n_defined"]), ACCEPT_LOW, alternative="less").pvalue
    return binomtest(k, int(r["n_defined"]), ACCEPT_HIGH, alternative="greater").pvalue


def _acceptance_summary(defaults: pd.DataFrame) -> str:
    bad = defaults[(defaults["coverage"] < ACCEPT_LOW) | (defaults["coverage"] > ACCEPT_HIGH)]
    n_total = int(defaults["coverage"].notna().sum())
    if bad.empty:
        return f"All {n_total} default entries are within 93%-97%."
    bad = bad.assign(p_band=bad.apply(_outside_p, axis=1))
    lines = [(f"{len(bad)} of {n_total} default entries are outside 93%-97%. For each: the "
              "coverage +- its s.e.; `p`, the exact one-sided binomial p-value of the band "
              "edge it fell past (p >= 0.01: compatible with sampling noise around a "
              "coverage inside the band); `min E`, the smallest expected count the quantity "
              "depends on (alpha: E[FP], E[TN]; beta: E[TP], E[FN]; the metrics: all "
              "four); the share of test sets with the truth below / above the interval; "
              "for alpha and beta, the exact coverage of the Dirichlet interval (no "
              "simulation).")]
    for method in ("dirichlet", "bootstrap"):
        sub = bad[bad["method"] == method]
        mine = defaults[(defaults["method"] == method) & defaults["coverage"].notna()]
        if sub.empty:
            lines += ["", f"`{method}`: all {len(mine)} entries within 93%-97%."]
            continue
        real = sub[sub["p_band"] < 0.01]
        text = (f"`{method}`: {len(sub)} of {len(mine)} outside "
                f"({int((sub['coverage'] < ACCEPT_LOW).sum())} below, "
                f"{int((sub['coverage'] > ACCEPT_HIGH).sum())} above); {len(real)} of them "
                "beyond sampling noise (p < 0.01)")
        if len(real):
            worst = real["min_expected_count"].max()
            above = mine[mine["min_expected_count"] > worst]
            n_out = int(((above["coverage"] < ACCEPT_LOW)
                         | (above["coverage"] > ACCEPT_HIGH)).sum())
            text += (f", all in cells with `min E` <= {worst:.3g}; of the {len(above)} "
                     f"entries with `min E` > {worst:.3g}, {n_out} are outside the band")
        lines += ["", text + ".", ""]
        for _, r in _cell_order(sub).iterrows():
            ex = (f"; exact {100 * r['exact_coverage']:.1f}%"
                  if np.isfinite(r.get("exact_coverage", np.nan)) else "")
            lines.append(f"- {QUANTITY_LABEL[r['quantity']]}, {_row_label(r)}: "
                         f"{100 * r['coverage']:.1f}% +- {100 * r['coverage_se']:.1f}, "
                         f"p = {r['p_band']:.2g}, min E = {r['min_expected_count']:.3g}; "
                         f"below / above {100 * r['miss_low']:.1f}% / "
                         f"{100 * r['miss_high']:.1f}%{ex}; {r['n_defined']} defined")
    return "\n".join(lines)


# =====================================================================================
# Registry of parts. To add one, write make_cells / run_cell / render and list it here.
# =====================================================================================

PARTS: dict[str, Part] = {
    "cm": Part("cm", "confusion-matrix quantities: alpha, beta, F1, MCC, OPS(F1), OPS(MCC)",
               cm_make_cells, cm_run_cell, cm_render),
}


# =====================================================================================
# Command line
# =====================================================================================

def print_tables(df: pd.DataFrame) -> None:
    pd.set_option("display.width", 200)
    pd.set_option("display.max_columns", 30)
    for part, sub in df.groupby("part", sort=False):
        m = sub[sub["matched"]].copy()
        m["cov%"] = (100 * m["coverage"]).round(1)
        for q, qs in m.groupby("quantity", sort=False):
            table = qs.pivot_table(index="cell", columns="method", values="cov%",
                                   sort=False)
            print(f"\n[{part}] {QUANTITY_LABEL.get(q, q)}: coverage % (matched target)")
            print(table.to_string())


def write_markdown(df: pd.DataFrame, path: str) -> None:
    """The Markdown rendering of a run's rows (from memory or from its CSV)."""
    first = df.iloc[0]
    part = PARTS[first["part"]]
    cells = df.drop_duplicates("cell")
    header = [
        f"# Coverage study, part `{part.name}`: {part.description}",
        "",
        ("Generated by `benchmarks/coverage.py` from the rows of its CSV (see the script's "
         "docstring for the design, the estimands and what counts as undefined). Do not "
         "edit by hand: re-render with `python benchmarks/coverage.py --render CSV --md "
         "MD`."),
        "",
        f"- command: `{first['run_command']}`",
        f"- date: {first['run_date']}",
        (f"- runtime: {first['run_wall_seconds'] / 60:.1f} min wall clock with "
         f"{first['run_jobs']} worker process(es) on {first['run_cpus']} CPUs; the cells "
         f"took {cells['cell_cpu_seconds'].sum() / 60:.1f} min of CPU time in all "
         f"({cells['cell_seconds'].sum() / 60:.1f} min wall inside the workers: the machine "
         "was shared, so the CPU time is the better measure of the cost)"),
        (f"- opsstats {first['opsstats_version']}, numpy {first['numpy_version']}, "
         f"Python {first['python_version']}"),
        (f"- {int(df['reps'].max())} simulated test sets per cell, "
         f"{int(df['n_resamples'].max())} draws or resamples per interval, confidence level "
         f"{first['confidence_level']:g}, seed {first['seed']}"),
        "",
    ]
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text("\n".join(header) + "\n" + part.render(df))
    print(f"wrote {path}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--part", choices=sorted(PARTS), default="cm",
                        help="which section of the study to run (default: cm)")
    parser.add_argument("--reps", type=int, default=1000,
                        help="simulated test sets per cell (default 1000)")
    parser.add_argument("--seed", type=int, default=20240605)
    parser.add_argument("--n-resamples", type=int, default=2000,
                        help="draws / bootstrap resamples per interval (default 2000)")
    parser.add_argument("--cells", default=None,
                        help="restrict to cells n:pi, comma-separated; '*' matches any "
                             "(e.g. 200:0.1,1000:*)")
    parser.add_argument("--classifiers", default="A,B,C",
                        help="cm part: classifiers to run, from " + ", ".join(
                            f"{k} (alpha={v[0]}, beta={v[1]})" for k, v in CLASSIFIERS.items()))
    parser.add_argument("--positives", choices=("binomial", "fixed"), default="binomial",
                        help="cm part: P ~ Binomial(n, pi) (default) or P = round(n pi)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (cells)")
    parser.add_argument("--out", default=None, help="CSV output path")
    parser.add_argument("--md", default=None, help="Markdown output path")
    parser.add_argument("--render", default=None, metavar="CSV",
                        help="do not simulate: re-render --md from a CSV this script wrote")
    args = parser.parse_args(argv)
    if args.render:
        if not args.md:
            parser.error("--render needs --md")
        write_markdown(pd.read_csv(args.render), args.md)
        return 0
    if args.reps < 1 or args.n_resamples < 100 or args.jobs < 1:
        parser.error("--reps >= 1, --n-resamples >= 100 and --jobs >= 1 are required")

    part = PARTS[args.part]
    cells = part.make_cells(args)
    if not cells:
        parser.error("--cells selects no cell")
    options = {"reps": args.reps, "n_resamples": args.n_resamples, "seed": args.seed,
               "positives": args.positives}
    command = "python " + " ".join(shlex.quote(a) for a in
                                   [os.path.relpath(__file__), *(argv or sys.argv[1:])])
    started = datetime.datetime.now().astimezone()
    t0 = time.perf_counter()
    print(f"{part.name}: {len(cells)} cells x {args.reps} test sets, {args.jobs} job(s)",
          flush=True)
    rows: list[dict[str, Any]] = []
    results: dict[str, list[dict[str, Any]]] = {}
    if args.jobs == 1:
        for spec in cells:
            results[spec["cell"]] = part.run_cell(spec, options)
            print(f"  {spec['cell']}: {results[spec['cell']][0]['cell_seconds']:.1f} s "
                  f"({results[spec['cell']][0]['cell_cpu_seconds']:.1f} s CPU)",
                  flush=True)
    else:
        with concurrent.futures.ProcessPoolExecutor(args.jobs) as pool:
            futures = {pool.submit(part.run_cell, spec, options): spec for spec in cells}
            for fut in concurrent.futures.as_completed(futures):
                spec = futures[fut]
                results[spec["cell"]] = fut.result()
                print(f"  {spec['cell']}: {results[spec['cell']][0]['cell_seconds']:.1f} s "
                  f"({results[spec['cell']][0]['cell_cpu_seconds']:.1f} s CPU)",
                      flush=True)
    for spec in cells:                      # the cell order, whatever finished first
        rows.extend(results[spec["cell"]])
    wall = time.perf_counter() - t0
    df = pd.DataFrame(rows)
    df = df[SHARED_COLUMNS + [c for c in df.columns if c not in SHARED_COLUMNS]]
    # how the run was made, on every row, so that the CSV alone re-renders the Markdown
    df = df.assign(run_command=command, run_date=f"{started:%Y-%m-%d %H:%M %Z}",
                   run_wall_seconds=round(wall, 1), run_jobs=args.jobs,
                   run_cpus=os.cpu_count(), opsstats_version=opsstats.__version__,
                   numpy_version=np.__version__, python_version=platform.python_version(),
                   confidence_level=CONFIDENCE_LEVEL)
    print_tables(df)
    cells_time = df.drop_duplicates("cell")
    print(f"\nwall time {wall:.1f} s; per-cell times sum to "
          f"{cells_time['cell_seconds'].sum():.1f} s wall, "
          f"{cells_time['cell_cpu_seconds'].sum():.1f} s CPU ({args.jobs} job(s), "
          f"{os.cpu_count()} CPUs)")
    # the Markdown is rendered from the rows as the CSV stores them, so that --render
    # gives the same file
    text = df.to_csv(index=False, float_format=CSV_FLOAT_FORMAT)
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(text)
        print(f"wrote {args.out}")
    if args.md:
        write_markdown(pd.read_csv(io.StringIO(text)), args.md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
