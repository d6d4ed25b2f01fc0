"""Coverage study: do the 95% intervals of opsstats contain the truth 95% of the time?

The main evidence that the intervals of issue 5 (METHOD.md 3.2) are honest. Test sets
are simulated from a known classifier, every interval method is run on each through the
public API (``ConfusionMatrix.interval`` and ``ConfusionMatrix.ops``; for curves
``ScoreCurve.ops`` and ``ScoreCurve.interval``: the code users run, not a
re-implementation), and the proportion of intervals containing the true
value is reported with its binomial standard error, the mean width, and how often the
quantity or interval was undefined.

Run (the committed table)::

    python benchmarks/coverage.py --part cm --reps 1000 --seed 20240605 --jobs 2 \
        --out benchmarks/results/coverage_cm.csv --md benchmarks/results/coverage_cm.md

(about 10 min of CPU time: 36 cells of about 18 s each, two worker processes), a quick
look at two cells::

    python benchmarks/coverage.py --part cm --reps 200 --cells 200:0.1,1000:0.1

The curve part (ROC AUC, PR AUC and their OPS from simulated scores; see its section
below for the cost)::

    python benchmarks/coverage.py --part curve --reps 1000 --n-resamples 1000 \
        --seed 20240605 --jobs 2 --out benchmarks/results/coverage_curve.csv \
        --md benchmarks/results/coverage_curve.md

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
rather than to the simulation. Beside each alpha or beta entry outside the band, the
rendering prints the cell's ``floor`` (``_coverage_floor``, exact): the lowest coverage
any interval can have there if it covers at least 93% given each class total; where it
is above 97%, no interval can be inside the band without undercovering some test sets.
``min_expected_count`` is the smallest expected count a
quantity depends on (alpha: E[FP], E[TN]; beta: E[TP], E[FN]; the metrics: all four),
the variable that orders where intervals fail.

Randomness. Each (part, classifier, n, pi) cell has its own ``SeedSequence`` built
from ``--seed`` and the cell, so a cell gives the same numbers whether it is run alone
(``--cells``), with others, or in another worker (``--jobs``).

Part ``curve``: ROC AUC and PR AUC from simulated scores
=========================================================

Cells: the same grid, n in {50, 200, 1000, 10000} x pi in {0.5, 0.1, 0.02}, for two
binormal classifiers (``--shifts``): negatives score N(0, 1), positives N(mu, 1), with

* ``mu=1`` (the main case): population ROC AUC Phi(1 / sqrt 2) = 0.760, average
  precision 0.753, 0.293 and 0.080 at pi = 0.5, 0.1, 0.02: a useful, clearly imperfect
  ranker, well inside (0, 1) on both curves;
* ``mu=2``: ROC AUC 0.921, average precision 0.922, 0.665, 0.375: a strong ranker,
  where the ROC AUC is near its bound and its sampling distribution skewed.

Simulation. As in part ``cm``: P ~ Binomial(n, pi) positives (``--positives binomial``,
the default; ``fixed`` sets P = round(n pi)), N = n - P, then the scores. Test sets with
a class absent have no curve and are counted in ``n_absent``. Every test set has its own
child ``SeedSequence`` for its scores and one for its resamples, so a cell's numbers do
not depend on the order in which its test sets are processed.

The estimands. The population ROC AUC Phi(mu / sqrt 2) does not depend on the
prevalence: one target (``target = "both"``), which the empirical ROC AUC (the
Mann-Whitney statistic) estimates without bias. The PR AUC (average precision, the step
rule; the package default) does depend on it. Its population value at prevalence p is

    AP(p) = integral over thresholds t of prec(t) phi(t - mu) dt,
    prec(t) = p TPR(t) / (p TPR(t) + (1 - p) FPR(t)),  TPR = Phi(mu - t), FPR = Phi(-t),

computed by adaptive quadrature (``population_ap``, about 1e-12) and checked against
the step-rule AP of huge samples (mu = 1, pi = 0.1: 0.292836 by quadrature against
0.29277 +- 0.00018, the mean +- s.e. of six samples of 10^7 rows; mu = 2, pi = 0.02:
0.375238 against 0.37569 +- 0.00049). As in part ``cm`` there are two targets:
``conditional``, AP(pi_hat) at the test set's own prevalence pi_hat = P / n, which the
stratified (prevalence-fixed) bootstrap estimates and against which it is scored; and
``population``, AP(pi), shown to make the point that the estimand matters. The target
is the population AP, *not* the mean of the finite-sample estimator: average precision
is biased upwards on small test sets (see the Notes of ``ScoreCurve.interval``), and
how much of an undercoverage that bias explains is reported separately (below).

OPS targets, against the package's default reference ``DirectedBinaryTree()`` (depth 9,
100,000 curves; trapezoid ROC AUC, step PR AUC, as for the observed curve): OPS of the
population ROC AUC (prevalence-free), and OPS of AP(pi_hat) standardized at pi_hat
(``conditional``; ``population``: OPS of AP(pi) at pi), all computed against the *same*
100,000 reference curves, so that the reference's own Monte Carlo error does not
separate estimate from truth. The OPS intervals still add that error by design
(``curve_ops_interval``): it can only widen them, and here by a negligible amount (the
Monte Carlo s.e. is at most 0.0016, the sampling half-widths are 0.02 or more).

The reference at pi_hat. With P ~ Binomial the observed prevalence, and so the
reference value vector of the PR AUC, varies between test sets: up to about 350
distinct prevalences in a cell at n = 10000. Rather than fixing the class counts (which
would remove the variation of P that part ``cm`` keeps), each cell computes its distinct
prevalences first and fills the reference's cache in batched passes
(``DirectedBinaryTree.precompute`` with up to 40 prevalences per pass over the curves;
about 0.6 s of CPU per prevalence); every ``ops`` call is then a ``searchsorted``. The
reference used is ``DirectedBinaryTree(cache_size=...)``: the default reference (equal
parameters, equal values), with a cache large enough for the cell. The CSV records the
number of prevalences and the CPU time of the precomputation per cell.

Methods (``CURVE_METHODS``): ``auto`` (the default of ``ScoreCurve.interval`` and
``ScoreCurve.ops(ci="auto")``: the Dirichlet posterior of each class's scores where the
smaller class has fewer than 100 rows, equal-tailed for the ROC AUC and bias-extended for
the PR AUC (the lower end moved down by the jackknife's estimate of its upward bias,
leaving out one positive at a time at the test set's prevalence), from
100 on DeLong's logit-t interval for the ROC
AUC and the stratified jackknife's logit-t interval for the PR AUC; the one held to the
93%-97% band), ``dirichlet`` (the Dirichlet posterior at every size), ``delong-logit-t``
and ``jackknife-logit-t`` (the logit-t intervals at every size: for the ROC AUC and the
PR AUC respectively, the defaults before the Dirichlet posterior), ``delong`` (DeLong's normal interval by the Sun-Xu algorithm, clipped to [0, 1];
ROC AUC only; ``ci="delong"``), ``bootstrap`` (stratified, percentile:
``ci="bootstrap"``, the default before ``auto``), ``bootstrap-bca`` (stratified, BCa),
``bootstrap-logit-t`` (stratified, logit scale, t: the PR AUC default of ``auto`` before
the jackknife), ``jackknife`` (the stratified jackknife's normal interval,
``ci="jackknife"``) and ``bootstrap-unstratified`` (percentile; ROC AUC only: ``ops``
refuses it for the prevalence-dependent PR AUC, and issue 5 asks for the stratified
methods there).

The committed CSV was made in runs on the same simulated test sets: ``delong``,
``bootstrap``, ``bootstrap-bca`` and ``bootstrap-unstratified`` by the command at the
top of this docstring, then other methods with ``--methods ... --merge CSV``
(``merge_runs`` checks that the design is the same and keeps the other methods' rows;
the Markdown names every command). Each method
is run once per test set and curve kind as ``ScoreCurve.ops(kind, ci=..., ...)``, whose
result carries the OPS interval and, in ``details["value_ci"]``, the quantity's own
interval from the *same* resamples (the OPS interval is that interval mapped through
OPS, plus the reference error). All bootstrap calls of a test set use the same seed, so
the percentile and BCa intervals come from the same resamples, as a user's would. On
the first ``CURVE_API_CHECKS`` test sets of each cell every method is also run through
``ScoreCurve.interval`` with the same seed and the two intervals compared
(``api_check_max_diff``: 0 up to rounding).

Accuracy and cost. ``--n-resamples 1000`` resamples per bootstrap interval (the
committed run): the Monte Carlo error of a 2.5% quantile from 1000 resamples changes
the expected coverage by far less than its own standard error at 1000 test sets. The
curve bootstrap resamples counts over the sorted distinct scores, so its cost grows
with the number of distinct thresholds: at n = 10000, pi = 0.5 the five bootstrap
intervals of a test set (ROC percentile, BCa, unstratified; PR percentile, BCa; their
OPS come with them) take about 0.8 s of CPU, at pi = 0.02 about 0.1 s, at n <= 1000
a few tens of milliseconds. The committed run (24 cells, 1000 test sets each, all at
1000 test sets: no cell needed fewer) took 63 min of CPU (``mu=1`` 33 min, of which
9 min filling the reference; ``mu=2`` 30 min; the largest cell, n = 10000, pi = 0.5,
16 min), 52 min of wall clock with two worker processes on a two-core machine shared
with other work. Cells are run most expensive first. The reference's cache is shared
by all ``DirectedBinaryTree`` instances of a worker process, so prevalences an earlier
cell of the same worker needed are not computed again: the precompute time of a cell
depends on the order of the cells, its numbers do not.

Bias. Per (quantity, target) the CSV has ``mean_estimate``, ``truth_mean``, ``bias``
(the mean of estimate - target over the test sets where it is defined), ``sd_estimate``
(their standard deviation), ``coverage_if_only_bias`` = Phi(1.96 - b) - Phi(-1.96 - b),
b = bias / sd (the coverage of a normal interval of the right width centred on a
normal estimate with this bias: what the bias alone allows) and ``coverage_vs_mean``,
the coverage of the target moved by the cell's mean bias (about the estimator's mean;
with P ~ Binomial the bias varies somewhat with P, which this ignores). An interval
that covers ``vs mean`` at about 95% but the target less often is short by the bias of
the estimate, not by its width.

Undefined. ``n_absent``: a class absent (no curve, no estimate). ``n_undefined``: the
method gave no interval (DeLong with fewer than two rows of a class, which happens at
n = 50, pi = 0.02; every reason is recorded). With a single positive the stratified
bootstrap *is* defined (it resamples the one positive every time) and is scored as
such. ``min_expected_count`` is n min(pi, 1 - pi), the expected size of the smaller
class, the variable that orders where intervals fail.

Adding a part
=============

A part is a :class:`Part` in ``PARTS``: a function that lists its cells from the
command-line options, a function that runs one cell and returns CSV rows (dicts with
the shared columns of ``SHARED_COLUMNS`` plus any of its own), and a function that
renders its Markdown sections (``curve_make_cells``, ``curve_run_cell`` and
``curve_render`` are an example); the command line, the cell filter, the parallel
runner, the CSV writer and the Markdown header are shared.
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
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

import opsstats
from opsstats import ConfusionMatrix, UndefinedMetricWarning
from opsstats.curves import CurveArea, ScoreCurve
from opsstats.metrics import resolve_metric
from opsstats.reference import DirectedBinaryTree, Uniform

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


def _class_totals(n: int, pi: float, rate: str, positives: str
                  ) -> tuple[np.ndarray, np.ndarray]:
    """The class totals t the interval for alpha (t = N) or beta (t = P) is computed from,
    and their probabilities, as the study draws them (P ~ Binomial(n, pi), or fixed at
    round(n pi)); t = 0 (quantity undefined) and totals of probability below 1e-12 left
    out, the probabilities renormalized over the rest."""
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
    return totals[keep], weights[keep] / weights[keep].sum()


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

    covered = 0.0
    for t, w in zip(*_class_totals(n, pi, rate, positives), strict=True):
        lo_x, hi_x = stats.binom.ppf([1e-12, 1 - 1e-12], t, p)
        x = np.arange(int(max(lo_x - 1, 0)), int(min(hi_x + 1, t)) + 1)
        tail = (1 - CONFIDENCE_LEVEL) / 2
        lo = stats.beta.ppf(tail, x + 0.5, t - x + 0.5)
        hi = stats.beta.ppf(1 - tail, x + 0.5, t - x + 0.5)
        covered += w * np.sum(stats.binom.pmf(x, t, p) * ((lo <= p) & (p <= hi)))
    return float(covered)


#: outcomes of a binomial with probability below this are not enumerated by
#: ``_coverage_floor``: their total is counted as if they could all be left out
FLOOR_TINY = 1e-9
#: at most this many outcomes are enumerated (2**22 subsets); with more, the floor of
#: that class total is taken as the bound itself (a valid, weaker, floor)
FLOOR_MAX_OUTCOMES = 22


def _coverage_floor(n: int, pi: float, p: float, rate: str, positives: str,
                    bound: float = ACCEPT_LOW) -> float:
    """A lower bound, exact and without simulation, on the coverage that *any* interval
    for alpha or beta can have in a cell if it covers the truth with probability at least
    ``bound`` given each class total.

    Why: the prevalence-fixed methods condition on the class totals (a user's test set
    has the totals it has), so their coverage given the totals is what they promise.
    Given the total t, an interval procedure covers p for a set S of outcomes x in
    0..t, with coverage sum over S of Binomial(t, p) probabilities; the smallest such sum
    that is at least ``bound`` is found by enumerating which outcomes can be left out
    (their probabilities summing to at most 1 - ``bound``). The cell's floor averages
    that over t as the study draws it. Where the floor is above 97%, no interval, of any
    construction, can be inside the 93%-97% band in that cell without covering less
    than 93% given some class total: a test set with one positive gives beta's interval
    two possible outcomes, so its coverage given t = 1 is 0, beta, 1 - beta or 1.

    The bound is conservative in two places, both towards a lower floor: outcomes of
    probability below ``FLOOR_TINY`` are counted as left out, and a class total with more
    than ``FLOOR_MAX_OUTCOMES`` outcomes that could be left out contributes ``bound``.
    """
    from scipy import stats

    budget = 1.0 - bound
    floor = 0.0
    for t, w in zip(*_class_totals(n, pi, rate, positives), strict=True):
        pmf = stats.binom.pmf(np.arange(t + 1), t, p)
        tiny = float(pmf[pmf < FLOOR_TINY].sum())
        droppable = pmf[(pmf >= FLOOR_TINY) & (pmf <= budget)]
        if len(droppable) > FLOOR_MAX_OUTCOMES:
            floor += w * bound
            continue
        sums = np.zeros(1)              # totals of the subsets of droppable outcomes
        for q in droppable:
            sums = np.concatenate([sums, sums + q])
            sums = sums[sums <= budget]
        floor += w * max(bound, 1.0 - float(sums.max()) - tiny)
    return floor


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


def _left_out_table(left: pd.DataFrame) -> str:
    """The "test sets left out" table shared by every part: per cell and quantity, the
    test sets with a class absent and the intervals a method did not give, with why."""
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
    return "\n".join(lines) + "\n" if len(lines) > 2 else "None.\n"


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
               "it is defined*. The default is `dirichlet` (equal-tailed, Jeffreys prior, "
               "prevalence fixed): `ConfusionMatrix.interval`, `evaluate`, `report` and "
               "the command line use it unless told otherwise. Beside it, `bootstrap` "
               "with its own default options (stratified percentile), which opsstats "
               "never uses unasked (`method=\"bootstrap\"` or `ci=\"bootstrap\"`) and "
               "which warns (`SmallCountWarning`) when a count is below 5. Each against its "
               "matched (conditional) target. Coverage in %, over the test sets where the "
               "quantity and interval are defined; **bold v** below 93, **bold ^** above 97. "
               f"Binomial s.e. of a coverage near 95% over {n_reps} test sets: "
               f"{100 * np.sqrt(0.95 * 0.05 / n_reps):.2f} points.\n")
    defaults = matched[matched["is_default"]]
    cols = [(q, m) for q in CM_QUANTITIES for m in ("dirichlet", "bootstrap")]
    out.append(_coverage_by_cell(
        defaults, defaults, cols,
        lambda q, m: f"{QUANTITY_LABEL[q]} {'Dir' if m == 'dirichlet' else 'Boot'}"))
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

    # --- undefined counts, and the warnings the package emitted
    out += _left_out_sections(
        df, f"Per cell, of {n_reps} test sets: `absent` = a class the quantity needs is "
        "absent (P = 0 or N = 0; the quantity is not estimable and its conditional value is "
        "undefined or trivial); `no interval`: the method gave none. Coverage above is over "
        "the rest. Only cells and methods with something left out are listed.\n",
        "None (UndefinedMetricWarning for 0/0 point estimates is expected and was not "
        "recorded).\n", lambda warned: warned, "quantity", "intervals affected (all cells)",
        lambda q: QUANTITY_LABEL[q])
    return "\n".join(out)


def _warning_kind(text: str) -> str:
    """A recorded warning (cut at 100 characters) without the object and counts it
    names, so that the warnings table has one line per kind of warning, not one per
    confusion matrix or curve."""
    cut = len(text) >= 100
    text = re.sub(r"(ConfusionMatrix|ScoreCurve)\([^)]*\)?", r"\1(...)", text)
    text = re.sub(r"\bis \d+ \(<", "is k (<", text)
    text = re.sub(r"^(SmallCountWarning: )\d+ rows in the smaller class \(P = \d+, N = \d+\)",
                  r"\1k rows in the smaller class (P, N)", text)
    if not cut:
        return text
    return text + " ..." if text.endswith("(...)") else re.sub(r"\s+\S*$", " ...", text)


def _coverage_by_cell(cells: pd.DataFrame, rows: pd.DataFrame,
                      columns: Sequence[tuple[str, str]], title: Callable[[str, str], str],
                      extra: tuple[str, Callable[[pd.Series], str]] | None = None) -> str:
    """The acceptance table: one line per cell of ``cells``, the flagged coverage of each
    (quantity, method) of ``columns`` from ``rows`` (blank where absent), and an optional
    ``extra`` column (header, value of the cell's row) after the cell's label."""
    head = ["classifier \\| n \\| pi"] + ([extra[0]] if extra else [])
    lines = ["| " + " | ".join(head + [title(q, m) for q, m in columns]) + " |",
             "|" + "---|" * (len(head) + len(columns))]
    for _, c in _cell_order(cells).drop_duplicates("cell").iterrows():
        sub = rows[rows["cell"] == c["cell"]].set_index(["quantity", "method"])
        first = [_row_label(c)] + ([extra[1](c)] if extra else [])
        lines.append("| " + " | ".join(first + [
            _flag(sub.loc[k, "coverage"]) if k in sub.index else "" for k in columns]) + " |")
    return "\n".join(lines) + "\n"


def _left_out_sections(df: pd.DataFrame, intro: str, none: str,
                       counted: Callable[[pd.DataFrame], pd.DataFrame], key: str,
                       count_label: str, label: Callable[[str], str]) -> list[str]:
    """The "Test sets left out" and "Warnings emitted" sections: the left-out table of
    the matched-target rows, then the table of the warnings recorded on the rows
    ``counted`` keeps (or ``none`` when no row recorded one)."""
    left = _cell_order(df[df["target"] != "population"])
    warned = left[left["warnings"].apply(lambda w: isinstance(w, str) and w != "")]
    return ["## Test sets left out\n", intro, _left_out_table(left),
            "## Warnings emitted by opsstats during the study\n",
            none if warned.empty else _warnings_table(counted(warned), key, count_label,
                                                      label)]


def _warnings_table(warned: pd.DataFrame, key: str, count_label: str,
                    label: Callable[[str], str]) -> str:
    """Markdown table of the warnings recorded in the rows' ``warnings`` column
    ("<text> (<count>)" joined by "; "), summed per (``key`` column, method, kind)."""
    total: collections.Counter[tuple[str, str, str]] = collections.Counter()
    for _, r in warned.iterrows():
        for part in r["warnings"].split("; "):
            m = re.match(r"(.*) \((\d+)\)$", part)
            if m:
                total[r[key], r["method"], _warning_kind(m.group(1))] += int(m.group(2))
    lines = [f"| {key} | method | warning | {count_label} |", "|---|---|---|---|"]
    for (k, meth, text), count in sorted(total.items()):
        lines.append(f"| {label(k)} | {meth} | {text} | {count} |")
    return "\n".join(lines) + "\n"


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


_FOR_EACH = ("For each: the coverage +- its s.e.; `p`, the exact one-sided binomial p-value "
             "of the band edge it fell past (p >= 0.01: compatible with sampling noise "
             "around a coverage inside the band); ")


def _outside_band(defaults: pd.DataFrame) -> tuple[pd.DataFrame, int]:
    """The default entries outside 93%-97%, with ``p_band``, and the number defined."""
    bad = defaults[(defaults["coverage"] < ACCEPT_LOW) | (defaults["coverage"] > ACCEPT_HIGH)]
    return (bad.assign(p_band=bad.apply(_outside_p, axis=1)) if len(bad) else bad,
            int(defaults["coverage"].notna().sum()))


class _Outside(NamedTuple):
    below: int        # entries below the band
    above: int        # entries above it
    real: int         # of them, beyond sampling noise (p < 0.01)
    worst: float      # the largest min_expected_count among those
    larger: int       # entries of the method with a larger min_expected_count
    larger_out: int   # of them, outside the band


def _outside_counts(sub: pd.DataFrame, mine: pd.DataFrame) -> _Outside:
    """``sub``: one method's entries outside the band (with ``p_band``); ``mine``: all
    its entries."""
    real = sub[sub["p_band"] < 0.01]
    worst = float(real["min_expected_count"].max()) if len(real) else np.nan
    larger = mine[mine["min_expected_count"] > worst]
    out = (larger["coverage"] < ACCEPT_LOW) | (larger["coverage"] > ACCEPT_HIGH)
    return _Outside(int((sub["coverage"] < ACCEPT_LOW).sum()),
                    int((sub["coverage"] > ACCEPT_HIGH).sum()), len(real), worst,
                    len(larger), int(out.sum()))


def _row_floor(r: pd.Series) -> float:
    """``_coverage_floor`` of an alpha or beta row's cell."""
    return _coverage_floor(int(r["n"]), float(r["prevalence"]), float(r[r["quantity"]]),
                           r["quantity"], r["positives"])


def _acceptance_summary(defaults: pd.DataFrame) -> str:
    bad, n_total = _outside_band(defaults)
    if bad.empty:
        return f"All {n_total} default entries are within 93%-97%."
    lines = [(f"{len(bad)} of {n_total} default entries are outside 93%-97%. {_FOR_EACH}`min E`, the smallest expected count the quantity "
              "depends on (alpha: E[FP], E[TN]; beta: E[TP], E[FN]; the metrics: all "
              "four); the share of test sets with the truth below / above the interval; "
              "for alpha and beta, the exact coverage of the Dirichlet interval (no "
              "simulation) and the cell's `floor`: the lowest coverage any interval, of "
              "any construction, can have in the cell if it covers at least 93% given "
              "each possible class total (exact, by enumerating the binomial outcomes; "
              "`_coverage_floor`). Where the floor is above 97%, the band cannot be "
              "reached there without undercovering the test sets of some class total.")]
    for method in ("dirichlet", "bootstrap"):
        sub = bad[bad["method"] == method]
        mine = defaults[(defaults["method"] == method) & defaults["coverage"].notna()]
        if sub.empty:
            lines += ["", f"`{method}`: all {len(mine)} entries within 93%-97%."]
            continue
        o = _outside_counts(sub, mine)
        text = (f"`{method}`: {len(sub)} of {len(mine)} outside ({o.below} below, "
                f"{o.above} above); {o.real} of them beyond sampling noise (p < 0.01)")
        if o.real:
            text += (f", all in cells with `min E` <= {o.worst:.3g}; of the {o.larger} "
                     f"entries with `min E` > {o.worst:.3g}, {o.larger_out} are outside "
                     "the band")
        lines += ["", text + ".", ""]
        for _, r in _cell_order(sub).iterrows():
            ex = (f"; exact {100 * r['exact_coverage']:.1f}%"
                  if np.isfinite(r.get("exact_coverage", np.nan)) else "")
            if r["quantity"] in ("alpha", "beta"):
                ex += f"{', ' if ex else '; '}floor {100 * _row_floor(r):.1f}%"
            lines.append(f"- {QUANTITY_LABEL[r['quantity']]}, {_row_label(r)}: "
                         f"{100 * r['coverage']:.1f}% +- {100 * r['coverage_se']:.1f}, "
                         f"p = {r['p_band']:.2g}, min E = {r['min_expected_count']:.3g}; "
                         f"below / above {100 * r['miss_low']:.1f}% / "
                         f"{100 * r['miss_high']:.1f}%{ex}; {r['n_defined']} defined")
    return "\n".join(lines)


# =====================================================================================
# Part "curve": ROC AUC and PR AUC from simulated scores
# =====================================================================================

SHIFTS = {"mu=1": 1.0, "mu=2": 2.0}   # binormal classifiers, name -> shift mu (see docstring)
CURVE_QUANTITIES = ("roc_auc", "pr_auc", "ops_roc_auc", "ops_pr_auc")
QUANTITY_LABEL.update({"roc_auc": "ROC AUC", "pr_auc": "PR AUC",
                       "ops_roc_auc": "OPS(ROC AUC)", "ops_pr_auc": "OPS(PR AUC)"})
CURVE_AREAS = {"roc_auc": CurveArea("roc", "trapezoid", False),
               "pr_auc": CurveArea("pr", "step", False)}
#: replicates per cell whose ``ops(...).details["value_ci"]`` is compared with a separate
#: ``ScoreCurve.interval`` call with the same seed (see the docstring, "Methods")
CURVE_API_CHECKS = 3
#: prevalences per ``DirectedBinaryTree.precompute`` pass (bounds its temporaries)
PRECOMPUTE_BATCH = 40


@dataclasses.dataclass(frozen=True)
class CurveMethod:
    key: str
    kwargs: dict[str, Any]        # for ScoreCurve.ops (``ci=`` included)
    prevalence: str               # the estimand it targets: "fixed" or "random"
    default: bool = False
    roc_only: bool = False
    note: str = ""

    def applies(self, kind: str) -> bool:
        return kind == "roc_auc" or not self.roc_only

    def interval_kwargs(self) -> dict[str, Any]:
        """The same interval for ScoreCurve.interval (``method=`` for ``ci=``)."""
        kw = dict(self.kwargs)
        kw["method"] = kw.pop("ci")
        return kw


CURVE_METHODS = (
    CurveMethod("auto", {"ci": "auto"}, "fixed", default=True,
                note="the default (`method=\"auto\"`): where the smaller class has fewer "
                     "than 100 rows, the Dirichlet posterior of each class's scores "
                     "(`dirichlet`; for the PR AUC bias-extended, its lower end moved down "
                     "by the jackknife's estimate of the upward bias, leaving out one "
                     "positive at a time); from 100 rows on, the "
                     "logit-t interval of DeLong's "
                     "variance for the ROC AUC (`delong-logit-t`) and of the jackknife's "
                     "for the PR AUC (`jackknife-logit-t`)"),
    CurveMethod("dirichlet", {"ci": "dirichlet"}, "fixed",
                note="the Dirichlet posterior of each class's scores (Bayesian bootstrap, "
                     "a Jeffreys pseudo-row of each class tied above the highest score and "
                     "another below the lowest), equal-tailed (`ci=\"dirichlet\"`; for the "
                     "PR AUC the default below 100 rows before the bias extension)"),
    CurveMethod("delong-logit-t", {"ci": "delong", "interval": "logit-t"}, "fixed",
                roc_only=True,
                note="DeLong's variance on the logit scale, bias-corrected, Welch-"
                     "Satterthwaite t (ROC AUC only; the ROC AUC default before the "
                     "Dirichlet posterior)"),
    CurveMethod("jackknife-logit-t", {"ci": "jackknife", "interval": "logit-t"}, "fixed",
                note="the stratified jackknife variance on the logit scale, t with (k - 1) "
                     "V**2 / (V1**2 + V0**2) df, k the smaller class (the PR AUC default "
                     "before the Dirichlet posterior)"),
    CurveMethod("delong", {"ci": "delong"}, "fixed", roc_only=True,
                note="DeLong's normal interval, Sun-Xu algorithm, clipped to [0, 1] (ROC "
                     "AUC only; `ci=\"delong\"`, as pROC)"),
    CurveMethod("bootstrap", {"ci": "bootstrap"}, "fixed",
                note="stratified, percentile (`ci=\"bootstrap\"`)"),
    CurveMethod("bootstrap-bca", {"ci": "bootstrap", "interval": "bca"}, "fixed",
                note="stratified, BCa"),
    CurveMethod("bootstrap-logit-t", {"ci": "bootstrap", "interval": "logit-t"}, "fixed",
                note="stratified, logit scale, standard error from the central 68% of the "
                     "resamples, t with min(P, N) - 1 df (the PR AUC default before the "
                     "jackknife)"),
    CurveMethod("jackknife", {"ci": "jackknife"}, "fixed",
                note="stratified jackknife variance, normal, clipped to [0, 1] "
                     "(`ci=\"jackknife\"`)"),
    CurveMethod("bootstrap-unstratified", {"ci": "bootstrap", "stratified": False}, "random",
                roc_only=True, note="not stratified, percentile (ROC AUC only)"),
)


def population_ap(mu: float, prevalence: float) -> float:
    """Average precision (the step-rule PR AUC) of the binormal population: negatives
    N(0, 1), positives N(mu, 1), at prevalence p.

    AP = integral of precision over recall = integral over thresholds t of
    prec(t) phi(t - mu) dt, prec(t) = 1 / (1 + (1 - p) / p * FPR(t) / TPR(t)) with
    FPR(t) = Phi(-t), TPR(t) = Phi(mu - t); the ratio is taken in logs (``log_ndtr``), so
    the integrand is accurate in both tails. Adaptive quadrature to about 1e-12.
    """
    from scipy import integrate, special, stats

    log_odds = np.log1p(-prevalence) - np.log(prevalence)

    def integrand(x: float) -> float:          # x = t - mu
        log_ratio = special.log_ndtr(-(x + mu)) - special.log_ndtr(-x)
        return stats.norm.pdf(x) / (1.0 + np.exp(log_odds + log_ratio))

    value, _ = integrate.quad(integrand, -np.inf, np.inf, epsabs=1e-13, epsrel=1e-12,
                              limit=200)
    return float(value)


def curve_make_cells(args: argparse.Namespace) -> list[dict[str, Any]]:
    filters = parse_cells(args.cells)
    names = [s.strip() for s in args.shifts.split(",") if s.strip()]
    for s in names:
        if s not in SHIFTS:
            raise SystemExit(f"--shifts: unknown {s!r}; choose from {', '.join(SHIFTS)}")
    cells = []
    for si, sname in enumerate(SHIFTS):
        if sname not in names:
            continue
        for n in CM_NS:
            for pi in CM_PREVALENCES:
                if not cell_selected(filters, n, pi):
                    continue
                cells.append({"cell": f"{sname} n={n} pi={pi:g}", "classifier": sname,
                              "shift": SHIFTS[sname], "n": n, "prevalence": pi,
                              "spawn_key": (1, si, n, round(pi * 10_000))})
    # the most expensive cells first, so that two workers finish together
    return sorted(cells, key=lambda c: -c["n"] * min(c["prevalence"], 0.5))


def _simulate_scores(n: int, positives: int, mu: float, seed: np.random.SeedSequence
                     ) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = np.zeros(n, dtype=np.int8)
    y[:positives] = 1
    s = rng.standard_normal(n)
    s[:positives] += mu
    return y, s


def curve_run_cell(spec: dict[str, Any], options: dict[str, Any]) -> list[dict[str, Any]]:
    from scipy.special import ndtr

    t0, c0 = time.perf_counter(), time.process_time()
    reps, n_res, seed = options["reps"], options["n_resamples"], options["seed"]
    n, pi, mu = spec["n"], spec["prevalence"], spec["shift"]
    root = np.random.SeedSequence(seed, spawn_key=spec["spawn_key"])
    pos_seq, score_seq, draw_seq = root.spawn(3)
    if options["positives"] == "fixed":
        pos = np.full(reps, round(n * pi))
    else:
        pos = np.random.default_rng(pos_seq).binomial(n, pi, reps)
    score_seeds, draw_seeds = score_seq.spawn(reps), draw_seq.spawn(reps)
    present = (pos > 0) & (pos < n)
    pi_hat = pos / n                       # == ScoreCurve.prevalence, P / (P + N)

    # --- truths (see the docstring, "The estimands")
    auc_true = float(ndtr(mu / np.sqrt(2)))
    prevalences = sorted({float(p) for p in pi_hat[present]} | {float(pi)})
    ap_at = {p: population_ap(mu, p) for p in prevalences}
    dbt = DirectedBinaryTree(cache_size=len(prevalences) + 8)   # the default reference
    c_ref = time.process_time()
    dbt.precompute([CURVE_AREAS["roc_auc"]], pi)
    for i in range(0, len(prevalences), PRECOMPUTE_BATCH):
        dbt.precompute([CURVE_AREAS["pr_auc"]], prevalences[i:i + PRECOMPUTE_BATCH])
    ref_cpu = time.process_time() - c_ref
    ops_pr_at = {p: float(dbt.ops("pr_auc", ap_at[p], prevalence=p).estimate)
                 for p in prevalences}
    ops_roc_true = float(dbt.ops("roc_auc", auc_true, prevalence=pi).estimate)
    nan = np.full(reps, np.nan)
    cond_ap = nan.copy()
    cond_ops_pr = nan.copy()
    for i in np.flatnonzero(present):
        cond_ap[i], cond_ops_pr[i] = ap_at[pi_hat[i]], ops_pr_at[pi_hat[i]]
    truths = {
        "roc_auc": {"both": np.full(reps, auc_true)},
        "ops_roc_auc": {"both": np.full(reps, ops_roc_true)},
        "pr_auc": {"conditional": cond_ap, "population": np.full(reps, ap_at[float(pi)])},
        "ops_pr_auc": {"conditional": cond_ops_pr,
                       "population": np.full(reps, ops_pr_at[float(pi)])},
    }

    # --- intervals, one test set at a time, through the public API
    methods = [m for m in CURVE_METHODS
               if options.get("methods") is None or m.key in options["methods"]]
    pairs = [(q, m) for q in CURVE_QUANTITIES for m in methods
             if m.applies(q.removeprefix("ops_"))]
    low = {(q, m.key): nan.copy() for q, m in pairs}
    high = {(q, m.key): nan.copy() for q, m in pairs}
    estimate = {q: nan.copy() for q in CURVE_QUANTITIES}
    reasons = collections.defaultdict(collections.Counter)
    warned = collections.defaultdict(collections.Counter)
    one_sided: collections.Counter[tuple[str, str]] = collections.Counter()
    api_diff = 0.0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        for i in np.flatnonzero(present):
            y, s = _simulate_scores(n, int(pos[i]), mu, score_seeds[i])
            curve = ScoreCurve.from_scores(y, s)
            for kind in ("roc_auc", "pr_auc"):
                for m in methods:
                    if not m.applies(kind):
                        continue
                    del caught[:]
                    try:
                        res = curve.ops(kind, reference=dbt, n_resamples=n_res,
                                        rng=np.random.default_rng(draw_seeds[i]), **m.kwargs)
                    except ValueError as exc:   # the message without its counts
                        for q in (kind, f"ops_{kind}"):
                            reasons[q, m.key][str(exc).split("; got")[0][:100]] += 1
                        continue
                    finally:
                        for w in caught:
                            text = f"{w.category.__name__}: {w.message}"[:100]
                            for q in (kind, f"ops_{kind}"):
                                warned[q, m.key][text] += 1
                    estimate[kind][i] = res.value
                    estimate[f"ops_{kind}"][i] = res.estimate
                    if res.ci is None:
                        for q in (kind, f"ops_{kind}"):
                            reasons[q, m.key]["ops() gave no interval (estimate undefined)"] += 1
                        continue
                    value_ci = res.details["value_ci"]
                    if "one-sided" in res.ci_method:     # perfect separation (logit-t)
                        one_sided[kind, m.key] += 1
                        one_sided[f"ops_{kind}", m.key] += 1
                    for q, ci in ((kind, value_ci), (f"ops_{kind}", res.ci)):
                        if not (np.isfinite(ci.low) and np.isfinite(ci.high)):
                            reasons[q, m.key]["NaN interval (undefined in every resample)"] += 1
                        low[q, m.key][i], high[q, m.key][i] = ci.low, ci.high
                    if i < CURVE_API_CHECKS:   # the same interval from ScoreCurve.interval
                        alone = curve.interval(kind, n_resamples=n_res,
                                               rng=np.random.default_rng(draw_seeds[i]),
                                               **m.interval_kwargs()).ci
                        api_diff = max(api_diff, abs(alone.low - value_ci.low),
                                       abs(alone.high - value_ci.high))
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0

    # --- rows
    rows = []
    absent = ~present
    for q, m in pairs:
        for target, truth in truths[q].items():
            matched = target == "both" or (target == "conditional") == (m.prevalence == "fixed")
            s = summarize(low[q, m.key], high[q, m.key], truth, absent)
            # bias of the point estimate against this target, over the present test sets,
            # and the coverage the interval would have if the truth were moved by it
            err = estimate[q][present] - truth[present]
            err = err[np.isfinite(err)]
            bias = float(err.mean()) if err.size else np.nan
            sd = float(err.std(ddof=1)) if err.size > 1 else np.nan
            shifted = summarize(low[q, m.key], high[q, m.key], truth + bias, absent)
            z = 1.959963984540054
            rows.append({
                "part": "curve", "cell": spec["cell"], "quantity": q, "method": m.key,
                "is_default": m.default, "target": target, "matched": matched, **s,
                "n_resamples": None if m.key == "delong" else n_res, "seed": seed,
                "cell_seconds": round(seconds, 2), "cell_cpu_seconds": round(cpu, 2),
                "classifier": spec["classifier"], "shift": mu, "n": n, "prevalence": pi,
                "positives": options["positives"],
                "min_expected_count": round(min(n * pi, n * (1 - pi)), 4),
                "truth_population": float(truths[q].get("population", truth)[0]),
                "truth_mean": float(np.nanmean(truth[present])) if present.any() else np.nan,
                "mean_estimate": float(np.nanmean(estimate[q][present]))
                if present.any() else np.nan,
                "bias": bias, "sd_estimate": sd,
                "coverage_if_only_bias": float(ndtr(z - bias / sd) - ndtr(-z - bias / sd))
                if sd and np.isfinite(sd) and sd > 0 else np.nan,
                "coverage_vs_mean": shifted["coverage"],
                "n_prevalences": len(prevalences),
                "reference_cpu_seconds": round(ref_cpu, 2),
                "api_check_max_diff": api_diff,
                "n_one_sided": one_sided[q, m.key],
                "undefined_reasons": "; ".join(
                    f"{k} ({v})" for k, v in reasons[q, m.key].items()),
                "warnings": "; ".join(f"{k} ({v})" for k, v in warned[q, m.key].items())})
    return rows


# --------------------------------------------------------------- curve: rendering
CURVE_DEFAULT_COLUMNS = (("roc_auc", "auto"), ("pr_auc", "auto"), ("ops_roc_auc", "auto"),
                         ("ops_pr_auc", "auto"))
#: shown beside the defaults in the acceptance table: the explicit methods' own defaults
CURVE_COMPARISON_COLUMNS = (("roc_auc", "delong-logit-t"), ("pr_auc", "jackknife-logit-t"),
                            ("roc_auc", "delong"), ("roc_auc", "bootstrap"),
                            ("pr_auc", "bootstrap"))
_SHORT = {"auto": "default", "delong": "DeLong", "bootstrap": "Boot", "bootstrap-bca": "BCa",
          "bootstrap-unstratified": "Unstr", "bootstrap-logit-t": "Boot logit-t",
          "jackknife": "Jack", "dirichlet": "Dirichlet", "delong-logit-t": "former default",
          "jackknife-logit-t": "former default"}


def _num(x: float, fmt: str = ".4f") -> str:
    return format(x, fmt) if np.isfinite(x) else "-"


def curve_render(df: pd.DataFrame) -> str:
    df = df[df["part"] == "curve"].copy()
    out = []
    matched = df[df["matched"]]
    n_reps = int(df["reps"].max())
    shifts = df.drop_duplicates("classifier").sort_values("classifier")
    out.append(f"- test sets: positives {df['positives'].iloc[0]} (P ~ Binomial(n, pi) or "
               "P = round(n pi)); scores: negatives N(0, 1), positives N(mu, 1)")
    for _, r in shifts.iterrows():
        pr = df[(df["classifier"] == r["classifier"]) & (df["quantity"] == "pr_auc")
                & (df["target"] == "population")].drop_duplicates("prevalence")
        auc = df[(df["classifier"] == r["classifier"]) & (df["quantity"] == "roc_auc")]
        roc = df[(df["classifier"] == r["classifier"]) & (df["quantity"] == "ops_roc_auc")]
        aps = ", ".join(f"{x['truth_population']:.4f} at pi = {x['prevalence']:g}"
                        for _, x in pr.sort_values("prevalence", ascending=False).iterrows())
        out.append(f"- classifier `{r['classifier']}`: shift mu = {r['shift']:g}; population "
                   f"ROC AUC Phi(mu / sqrt 2) = {auc['truth_population'].iloc[0]:.4f} "
                   f"(OPS {roc['truth_population'].iloc[0]:.4f}); population PR AUC (average "
                   f"precision) {aps}")
    out.append("- methods: " + "; ".join(f"`{m.key}` {m.note}" for m in CURVE_METHODS))
    out.append("- reference for OPS: `DirectedBinaryTree()` (depth 9, 100,000 curves, seed "
               "20231; the package default), step rule for PR, trapezoid for ROC\n")

    # --- acceptance: the defaults
    out.append("## Acceptance: the default methods\n")
    out.append("Issue 5: *every method used as a default must cover within 93%-97% wherever "
               "it is defined*. The default is `method=\"auto\"` (`ScoreCurve.interval`, "
               "`ScoreCurve.ops(ci=\"auto\")`, and the curve intervals of `evaluate`, "
               "`report` and the command line): where the smaller class has fewer than 100 "
               "rows, the Dirichlet posterior of each class's scores (the Bayesian bootstrap "
               "of each class with a Jeffreys pseudo-row tied with the other class's above "
               "the highest score and another below the lowest; 1000 draws here; "
               "equal-tailed for the ROC AUC; for the PR AUC with its lower end moved down "
               "by "
               "the jackknife's estimate of average precision's upward small-sample bias, "
               "leaving out one positive at a time at the test set's prevalence); from "
               "100 rows on, the "
               "logit-t interval: for the ROC AUC DeLong's "
               "variance on the logit scale, bias-corrected, with a Welch-Satterthwaite t "
               "quantile, for the PR AUC the stratified jackknife variance on the logit scale "
               "with t on (k - 1) V^2 / (V1^2 + V0^2) degrees of freedom "
               "(`opsstats.uncertainty.curve`). Each is scored against its matched "
               "target: the population ROC AUC, the population PR AUC at the test set's own "
               "prevalence, and their OPS at that prevalence. Coverage in %, over the test "
               "sets where the quantity and interval are defined (both need 2 rows of each "
               "class); **bold v** below 93, **bold ^** above 97. `E[min class]` is "
               "n min(pi, 1 - pi), the expected size of the smaller class. For comparison, "
               "the last columns give the logit-t intervals at every size (`former default`: "
               "the defaults before the Dirichlet posterior), and the explicit methods with "
               "their own defaults, `ci=\"delong\"` (DeLong's normal interval, as pROC) and "
               "`ci=\"bootstrap\"` (stratified percentile). Binomial s.e. of a "
               f"coverage near 95% over {n_reps} test sets: "
               f"{100 * np.sqrt(0.95 * 0.05 / n_reps):.2f} points.\n")
    defaults = matched[matched["is_default"]]
    out.append(_coverage_by_cell(
        defaults, matched, CURVE_DEFAULT_COLUMNS + CURVE_COMPARISON_COLUMNS,
        lambda q, m: f"{QUANTITY_LABEL[q]} {_SHORT[m]}",
        ("E[min class]", lambda c: f"{c['min_expected_count']:g}")))
    out.append(_curve_band_thresholds(defaults) + "\n")
    out.append(_curve_reading(defaults) + "\n")
    out.append(_curve_acceptance_summary(defaults) + "\n")

    # --- bias
    out.append("## How much of the undercoverage is bias\n")
    out.append("Per quantity, against the matched target, over the test sets where it is "
               "defined: `truth`, the mean target value (the population value; for the PR "
               "AUC at the test set's own prevalence, averaged); `bias`, the mean of "
               "estimate - target; `sd`, the standard deviation of estimate - target; "
               "`only bias`, the coverage a normal interval of the right width (+-1.96 sd) "
               "centred on the estimate would have with this bias, "
               "Phi(1.96 - bias/sd) - Phi(-1.96 - bias/sd): the coverage the bias alone "
               "allows. Then, per method, its coverage of the target and (`vs mean`) of the "
               "target moved by the cell's mean bias, i.e. of about the estimator's own "
               "mean: where `vs mean` is near 95% and the coverage is not, the shortfall is "
               "the bias of the estimate, not the width of the interval. The ROC AUC (the "
               "Mann-Whitney statistic) is unbiased.\n")
    for q in CURVE_QUANTITIES:
        sub = _cell_order(matched[matched["quantity"] == q])
        methods = [m.key for m in CURVE_METHODS
                   if m.key in set(sub["method"]) and m.key != "bootstrap-unstratified"]
        out.append(f"### {QUANTITY_LABEL[q]}\n")
        head = ("| classifier \\| n \\| pi | truth | bias | sd | bias/sd | only bias | "
                + " | ".join(f"{m} | {m} vs mean" for m in methods) + " |")
        lines = [head, "|---|" + "---|" * (5 + 2 * len(methods))]
        for cell, cs in sub.groupby("cell", sort=False):
            r = cs.iloc[0]
            by_m = cs.set_index("method")
            entries = []
            for m in methods:
                if m in by_m.index:
                    entries += [_flag(by_m.loc[m, "coverage"]),
                                _num(100 * by_m.loc[m, "coverage_vs_mean"], ".1f")]
                else:
                    entries += ["", ""]
            lines.append(f"| {_row_label(r)} | {_num(r['truth_mean'])} | "
                         f"{_num(r['bias'], '+.4f')} | {_num(r['sd_estimate'])} | "
                         f"{_num(r['bias'] / r['sd_estimate'], '+.2f')} | "
                         f"{_num(100 * r['coverage_if_only_bias'], '.1f')} | "
                         + " | ".join(entries) + " |")
        out.append("\n".join(lines) + "\n")

    # --- per quantity: coverage and width, all methods, matched target
    for q in CURVE_QUANTITIES:
        sub = matched[matched["quantity"] == q]
        methods = [m.key for m in CURVE_METHODS if m.key in set(sub["method"])]
        target = {"roc_auc": "the population ROC AUC (one target)",
                  "ops_roc_auc": "the OPS of the population ROC AUC (one target: ROC "
                                 "quantities do not depend on prevalence)",
                  "pr_auc": "the population PR AUC at the test set's own prevalence",
                  "ops_pr_auc": "the OPS of the population PR AUC at the test set's own "
                                "prevalence, standardized at that prevalence"}[q]
        out.append(f"## {QUANTITY_LABEL[q]}\n")
        out.append(f"Coverage (%) of {target}.\n")
        out.append(_pivot(sub, _defined_note, methods) + "\n")
        out.append(f"Mean width of the {QUANTITY_LABEL[q]} intervals (defined test sets).\n")
        out.append(_pivot(sub, lambda r: f"{r['mean_width']:.4g}"
                          if np.isfinite(r["mean_width"]) else "-", methods) + "\n")
        missed = sub[sub["coverage"] < ACCEPT_LOW]
        if len(missed):
            out.append("Where a method is below 93%, which side (% of defined test sets with "
                       "the truth below the interval / above it):\n")
            out.append(_pivot(missed, lambda r: f"{100 * r['miss_low']:.1f} / "
                              f"{100 * r['miss_high']:.1f}",
                              [m for m in methods if m in set(missed["method"])]) + "\n")

    # --- wrong target
    out.append("## The estimand matters: the PR AUC at the population prevalence\n")
    out.append("The same (stratified, prevalence-fixed) intervals scored against the PR AUC "
               "and its OPS at the *population* prevalence pi instead of the test set's own "
               "P / n. The PR AUC moves with the prevalence, so an interval that conditions on "
               "the class totals does not target this value (the ROC AUC does not depend on "
               "the prevalence: its two targets coincide). Coverage (%).\n")
    for q in ("pr_auc", "ops_pr_auc"):
        sub = df[(df["quantity"] == q) & (df["target"] == "population")]
        out.append(f"### {QUANTITY_LABEL[q]} (population target)\n")
        out.append(_pivot(sub, _defined_note, ["bootstrap", "bootstrap-bca"]) + "\n")

    # --- undefined counts, and the warnings the package emitted (one call gives a
    # quantity and its OPS: the warnings are counted on the quantity's rows only)
    out += _left_out_sections(
        df, f"Per cell, of {n_reps} test sets: `absent` = a class is absent (P = 0 or N = 0: "
        "no curve); `no interval`: the method gave none (DeLong's variance needs 2 rows of "
        "each class). Coverage above is over the rest. Only cells with something left out "
        "are listed.\n", "None (UndefinedMetricWarning is ignored).\n",
        lambda warned: warned[~warned["quantity"].str.startswith("ops_")], "classifier",
        "calls affected (all cells)", str)

    # --- checks and cost
    cells = _cell_order(df.drop_duplicates("cell"))
    out.append("## Checks and cost\n")
    out.append(f"- The quantity's interval is read from `ScoreCurve.ops(..., ci=...)` "
               "(`details[\"value_ci\"]`), which makes the OPS interval from the same "
               "resamples. On the first "
               f"{CURVE_API_CHECKS} test sets of every cell each method was also run through "
               "`ScoreCurve.interval` with the same seed: largest difference of an interval "
               f"end, over all cells: {cells['api_check_max_diff'].max():.3g}.")
    out.append("- The population PR AUC is computed by quadrature (`population_ap`); it agrees "
               "with the step-rule PR AUC of very large samples: mu = 1, pi = 0.1: 0.292836 "
               "by quadrature, 0.29277 +- 0.00018 (mean +- s.e. of six samples of 10^7 rows); "
               "mu = 2, pi = 0.02: 0.375238, 0.37569 +- 0.00049.")
    diffs = []
    for kind in ("roc_auc", "pr_auc"):
        a = matched[matched["quantity"] == kind].set_index(["cell", "method"])["coverage"]
        b = matched[matched["quantity"] == f"ops_{kind}"].set_index(
            ["cell", "method"])["coverage"]
        diffs.append((b - a).dropna())
    diff = 100 * pd.concat(diffs)
    out.append("- The OPS truth is the OPS of the population value against the *same* "
               "reference (its 100,000 curves), so the reference's Monte Carlo error does not "
               "separate estimate from truth; the OPS intervals still add it (by design), which "
               "can only widen them. Coverage of the OPS minus coverage of the quantity, same "
               f"test sets and resamples, over the {len(diff)} (cell, method) pairs: mean "
               f"{diff.mean():+.2f} points, range {diff.min():+.1f} to {diff.max():+.1f} "
               f"(largest: {diff.idxmax()[0]}, {diff.idxmax()[1]}), i.e. the OPS interval "
               "is the quantity's mapped through OPS plus a little; most where the sampling "
               "half-width is smallest (n = 10000, pi = 0.5).")
    lines = ["", ("Cost per cell (CPU seconds). The reference's cache is shared by the "
                  "`DirectedBinaryTree` instances of a worker process, so values an earlier "
                  "cell of the same worker computed (the same P / n) are reused: the "
                  "precompute time depends on the order of the cells, the results do not."),
             "", ("| classifier \\| n \\| pi | cell CPU s | of it, reference precompute "
                  "CPU s | prevalences needed |"), "|---|---|---|---|"]
    for _, c in cells.iterrows():
        lines.append(f"| {_row_label(c)} | {c['cell_cpu_seconds']:.0f} | "
                     f"{c['reference_cpu_seconds']:.0f} | {int(c['n_prevalences'])} |")
    out.append("\n".join(lines) + "\n")
    return "\n".join(out)


def _curve_band_thresholds(defaults: pd.DataFrame) -> str:
    """Per default (quantity, method) and classifier: the smallest E[min class] from
    which every cell is inside 93%-97%."""
    classifiers = sorted(set(defaults["classifier"]))
    lines = [("Where the defaults are inside the band: per quantity, method and classifier, "
              "the smallest `E[min class]` from which *every* cell (of this grid) covers "
              "within 93%-97%, and the cells below it that are inside too."), "",
             "| quantity | method | " + " | ".join(classifiers) + " |",
             "|---|---|" + "---|" * len(classifiers)]
    for q, method in CURVE_DEFAULT_COLUMNS:
        entries = []
        for c in classifiers:
            sub = defaults[(defaults["quantity"] == q) & (defaults["method"] == method)
                           & (defaults["classifier"] == c) & defaults["coverage"].notna()]
            inside = (sub["coverage"] >= ACCEPT_LOW) & (sub["coverage"] <= ACCEPT_HIGH)
            threshold = None
            for e in sorted(set(sub["min_expected_count"]), reverse=True):
                if inside[sub["min_expected_count"] >= e].all():
                    threshold = e
            if threshold is None:
                entries.append("none")
                continue
            extra = sub[inside & (sub["min_expected_count"] < threshold)]
            text = f">= {threshold:g}"
            if len(extra):
                text += " (and " + ", ".join(f"n = {int(r['n'])}, pi = {r['prevalence']:g}"
                                             for _, r in _cell_order(extra).iterrows()) + ")"
            entries.append(text)
        lines.append(f"| {QUANTITY_LABEL[q]} | {method} | " + " | ".join(entries) + " |")
    return "\n".join(lines)


def _where_dirichlet(rows: pd.DataFrame) -> str:
    """", where the default is the Dirichlet posterior" when every row's cell expects
    fewer than 100 rows in the smaller class (the posterior's range in ``auto``)."""
    return (", where the default is the Dirichlet posterior"
            if rows["min_expected_count"].max() < 100 else "")


def _curve_reading(defaults: pd.DataFrame) -> str:
    """Why the defaults miss, from the rows: the side of the misses and the bias."""
    out = ["Why, from the same rows:", ""]
    outside = defaults[(defaults["coverage"] < ACCEPT_LOW)
                       | (defaults["coverage"] > ACCEPT_HIGH)]
    for q in ("roc_auc", "pr_auc"):
        sub = outside[outside["quantity"] == q]
        below, above = sub[sub["coverage"] < ACCEPT_LOW], sub[sub["coverage"] > ACCEPT_HIGH]
        if len(below):
            low = (below["miss_low"] * below["n_defined"]).sum()
            high = (below["miss_high"] * below["n_defined"]).sum()
            out.append(
                f"- {QUANTITY_LABEL[q]}, below the band ({len(below)} entries, all with "
                f"E[min class] <= {below['min_expected_count'].max():g}"
                f"{_where_dirichlet(below)}): {100 * low / (low + high):.0f}% of their "
                "misses have the truth *below* the interval, i.e. the interval too high. "
                + ("Average precision is biased upwards with few positives at low "
                   "prevalence, and the posterior is centred near the estimate (see the "
                   "bias bullet below)." if q == "pr_auc" else
                   "With few rows in the smaller class the AUC's sampling distribution is "
                   "skewed."))
        if len(above):
            out.append(
                f"- {QUANTITY_LABEL[q]}, above the band ({len(above)} entries, all with "
                f"E[min class] <= {above['min_expected_count'].max():g}"
                f"{_where_dirichlet(above)}): the price of an interval that stays honest "
                "with a handful of rows of a class. Its four Jeffreys pseudo-rows (weight "
                "1/2 each, at both ends of the score scale) weigh as much as a row of the "
                "smaller class and widen the interval most when that class has few rows: "
                + "; ".join(f"{_row_label(r)} {100 * r['coverage']:.1f}%"
                            for _, r in _cell_order(above).iterrows())
                + ". The shapes study (`coverage_shapes.md`) shows the risk of a narrower "
                "interval there: the logit-t intervals, narrower at these sizes, fall well "
                "below 93% for other score shapes (to 70% for the ROC AUC and 84% for the "
                "PR AUC).")
    pr = outside[(outside["quantity"] == "pr_auc") & (outside["coverage"] < ACCEPT_LOW)]
    if len(pr):
        explained = pr[(pr["coverage_vs_mean"] >= ACCEPT_LOW)
                       | (pr["coverage_if_only_bias"] <= pr["coverage"] + 0.01)]
        rest = pr.drop(explained.index)
        out.append(
            f"- PR AUC, bias ({len(pr)} default entries outside): average precision is "
            "biased upwards on small test sets (bias / sd up to "
            f"{(pr['bias'] / pr['sd_estimate']).max():+.2f} in these cells, most at low "
            f"prevalence). In {len(explained)} of them the bias accounts for the shortfall "
            "(the coverage of the estimator's mean is >= 93%, or a correctly sized interval "
            "with this bias would cover no better): "
            + "; ".join(f"{_row_label(r)} ({100 * r['coverage']:.1f}% -> "
                        f"{100 * r['coverage_vs_mean']:.1f}% vs mean, only-bias "
                        f"{100 * r['coverage_if_only_bias']:.1f}%)"
                        for _, r in _cell_order(explained).iterrows())
            + (". In the others the intervals are too short as well (few positives, or a "
               "strong classifier near the bound, as above): "
               + "; ".join(f"{_row_label(r)} ({100 * r['coverage']:.1f}%, only-bias "
                           f"{100 * r['coverage_if_only_bias']:.1f}%)"
                           for _, r in _cell_order(rest).iterrows()) if len(rest) else "")
            + ".")
    out.append("- The OPS intervals are the quantity's intervals mapped through OPS (same "
               "resamples), so they miss where the quantity's intervals miss (see the checks at the "
               "end for the small widening by the reference's Monte Carlo error).")
    return "\n".join(out)


def _curve_acceptance_summary(defaults: pd.DataFrame) -> str:
    bad, n_total = _outside_band(defaults)
    if bad.empty:
        return f"All {n_total} default entries are within 93%-97%."
    lines = [(f"{len(bad)} of {n_total} default entries are outside 93%-97%. {_FOR_EACH}`E[min class]`; the share of test sets with the "
              "truth below / above the interval; bias / sd of the estimate (see the bias "
              "section) and the coverage of the target moved by the mean bias (`vs mean`).")]
    for q, method in CURVE_DEFAULT_COLUMNS:
        sub = bad[(bad["quantity"] == q) & (bad["method"] == method)]
        mine = defaults[(defaults["quantity"] == q) & (defaults["method"] == method)
                        & defaults["coverage"].notna()]
        label = f"{QUANTITY_LABEL[q]}, `{method}`"
        if sub.empty:
            lines += ["", f"{label}: all {len(mine)} cells within 93%-97%."]
            continue
        o = _outside_counts(sub, mine)
        text = (f"{label}: {len(sub)} of {len(mine)} cells outside ({o.below} below, "
                f"{o.above} above); {o.real} of them beyond sampling noise (p < 0.01)")
        if o.real:
            text += (f", all in cells with E[min class] <= {o.worst:g}; of the {o.larger} "
                     f"cells with more, {o.larger_out} outside the band")
        lines += ["", text + ".", ""]
        for _, r in _cell_order(sub).iterrows():
            lines.append(f"- {_row_label(r)}: {100 * r['coverage']:.1f}% +- "
                         f"{100 * r['coverage_se']:.1f}, p = {r['p_band']:.2g}, "
                         f"E[min class] = {r['min_expected_count']:g}; below / above "
                         f"{100 * r['miss_low']:.1f}% / {100 * r['miss_high']:.1f}%; "
                         f"bias/sd {r['bias'] / r['sd_estimate']:+.2f}, vs mean "
                         f"{100 * r['coverage_vs_mean']:.1f}%; {r['n_defined']} defined")
    return "\n".join(lines)


# =====================================================================================
# Registry of parts. To add one, write make_cells / run_cell / render and list it here.
# =====================================================================================

PARTS: dict[str, Part] = {
    "cm": Part("cm", "confusion-matrix quantities: alpha, beta, F1, MCC, OPS(F1), OPS(MCC)",
               cm_make_cells, cm_run_cell, cm_render),
    "curve": Part("curve", "ROC AUC and PR AUC from simulated scores, and their OPS",
                  curve_make_cells, curve_run_cell, curve_render),
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


def _run_lines(df: pd.DataFrame) -> list[str]:
    """How the rows were made: one block per run (a merged CSV holds several)."""
    runs = list(dict.fromkeys(df["run_command"]))
    out = []
    for command in runs:
        rows = df[df["run_command"] == command]
        r = rows.iloc[0]
        cells = rows.drop_duplicates("cell")
        methods = ""
        if len(runs) > 1:
            methods = (" (rows of " + ", ".join(f"`{m}`" for m in dict.fromkeys(rows["method"]))
                       + ")")
        out += [
            f"- command{methods}: `{command}`",
            f"- date: {r['run_date']}",
            (f"- runtime: {r['run_wall_seconds'] / 60:.1f} min wall clock with "
             f"{r['run_jobs']} worker process(es) on {r['run_cpus']} CPUs; the cells "
             f"took {cells['cell_cpu_seconds'].sum() / 60:.1f} min of CPU time in all "
             f"({cells['cell_seconds'].sum() / 60:.1f} min wall inside the workers: the "
             "machine was shared, so the CPU time is the better measure of the cost)")]
    if len(runs) > 1:
        out.append("- the runs share the design (`--merge` checks seed, test sets, "
                   "resamples and cells), so every method was run on the same simulated test "
                   "sets with the same resampling seeds")
    return out


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
        *_run_lines(df),
        *(f"- opsstats {v}, numpy {n}, Python {py}" for v, n, py in
          df[["opsstats_version", "numpy_version", "python_version"]]
          .drop_duplicates().itertuples(index=False)),
        (f"- {int(df['reps'].max())} simulated test sets per cell, "
         f"{int(df['n_resamples'].max())} draws or resamples per interval, confidence level "
         f"{first['confidence_level']:g}, seed {first['seed']}"),
        "",
    ]
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text("\n".join(header) + "\n" + part.render(df))
    print(f"wrote {path}")


def merge_runs(new: pd.DataFrame, old: pd.DataFrame, options: dict[str, Any]
               ) -> pd.DataFrame:
    """The rows of ``new`` plus those of ``old`` for the methods ``new`` did not run.

    Both runs must share the design (seed, test sets, resamples, positives), so the rows
    describe the same simulated test sets; ``is_default`` is set from today's
    ``CURVE_METHODS``. Every row keeps its own run's command, date and versions.
    """
    for col, value in (("seed", options["seed"]), ("reps", options["reps"]),
                       ("positives", options["positives"])):
        if set(old[col].unique()) != {value}:
            raise SystemExit(f"--merge: the earlier run has {col} "
                             f"{sorted(old[col].unique())}, this run {value!r}")
    if set(old["n_resamples"].dropna().astype(int)) != {options["n_resamples"]}:
        raise SystemExit("--merge: the earlier run used other numbers of resamples")
    old = old[~old["method"].isin(options["methods"])].copy()
    missing = set(new["cell"]) ^ set(old["cell"])
    if missing:
        raise SystemExit(f"--merge: the runs differ in their cells: {sorted(missing)}")
    defaults = {m.key: m.default for m in CURVE_METHODS}
    old["is_default"] = old["method"].map(defaults).fillna(False).astype(bool)
    merged = pd.concat([old, new], ignore_index=True)
    order = {c: i for i, c in enumerate(dict.fromkeys(new["cell"]))}
    return merged.sort_values("cell", key=lambda c: c.map(order), kind="stable")


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
    parser.add_argument("--shifts", default="mu=1,mu=2",
                        help="curve part: binormal classifiers to run, from " + ", ".join(
                            f"{k} (positives N({v:g}, 1))" for k, v in SHIFTS.items()))
    parser.add_argument("--positives", choices=("binomial", "fixed"), default="binomial",
                        help="cm and curve parts: P ~ Binomial(n, pi) (default) or "
                             "P = round(n pi)")
    parser.add_argument("--methods", default=None,
                        help="curve part: run only these methods (comma-separated keys of "
                             "CURVE_METHODS: " + ", ".join(m.key for m in CURVE_METHODS) + ")")
    parser.add_argument("--merge", default=None, metavar="CSV",
                        help="curve part, with --methods: take the rows of the other methods "
                             "from this earlier CSV of the same design (same cells, seed, "
                             "test sets and resamples: the same simulated test sets), so "
                             "that a changed or added method needs no rerun of the others")
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
               "positives": args.positives, "methods": None}
    if args.methods:
        keys = [k.strip() for k in args.methods.split(",") if k.strip()]
        unknown = sorted(set(keys) - {m.key for m in CURVE_METHODS})
        if args.part != "curve" or unknown:
            parser.error(f"--methods applies to --part curve, with keys from "
                         f"{', '.join(m.key for m in CURVE_METHODS)}; got {args.methods!r}")
        options["methods"] = keys
    if args.merge and not args.methods:
        parser.error("--merge needs --methods")
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
    cells_time = df.drop_duplicates("cell")          # this run's cells
    if args.merge:
        df = merge_runs(df, pd.read_csv(args.merge), options)
    print_tables(df)
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
