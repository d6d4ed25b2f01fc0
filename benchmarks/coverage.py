"""Coverage study: do the 95% intervals of opsstats contain the truth 95% of the time?

The main evidence that the intervals (docs/method.md#intervals) are honest.
Test sets are simulated from a known classifier, every interval method is run on each
through the public API (``ConfusionMatrix.interval`` and ``ConfusionMatrix.ops``; for curves
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

The estimand. Every metric is M(pi, alpha, beta) (docs/method.md#parametrization).
alpha and beta are the classifier's, whatever the test set. For a metric and its OPS
there are two targets:

* ``conditional``: M(pi_hat, alpha, beta) with pi_hat = P / n the test set's own
  prevalence, and OPS standardized at pi_hat. This is what the prevalence-fixed methods
  estimate: they condition on the class totals (Dirichlet with prevalence fixed draws
  only alpha and beta; the stratified bootstrap keeps P and N) and OPS standardizes
  against the test set's prevalence by definition (docs/method.md#intervals).
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
refuses it for the prevalence-dependent PR AUC, whose intervals are the stratified
methods).

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

Code
====

The study is the package ``coverage_study`` beside this script, one concept a module
(its ``__init__`` lists them): ``common`` (the shared design, the coverage summary, the
cells' seeds and filter), ``render`` (Markdown helpers of both parts), ``cm`` and
``cm_render`` (part ``cm``), ``curve`` and ``curve_render`` (part ``curve``), ``parts``
(``Part`` and ``PARTS``) and ``runs`` (merging runs, the console tables, the Markdown
file). This script is the command line.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import datetime
import io
import os
import platform
import shlex
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from coverage_study.cm import CLASSIFIERS
from coverage_study.common import CONFIDENCE_LEVEL, CSV_FLOAT_FORMAT, SHARED_COLUMNS
from coverage_study.curve import CURVE_METHODS, SHIFTS
from coverage_study.parts import PARTS
from coverage_study.runs import merge_runs, print_tables, write_markdown

import opsstats


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--part",
        choices=sorted(PARTS),
        default="cm",
        help="which section of the study to run (default: cm)",
    )
    parser.add_argument(
        "--reps", type=int, default=1000, help="simulated test sets per cell (default 1000)"
    )
    parser.add_argument("--seed", type=int, default=20240605)
    parser.add_argument(
        "--n-resamples",
        type=int,
        default=2000,
        help="draws / bootstrap resamples per interval (default 2000)",
    )
    parser.add_argument(
        "--cells",
        default=None,
        help="restrict to cells n:pi, comma-separated; '*' matches any (e.g. 200:0.1,1000:*)",
    )
    parser.add_argument(
        "--classifiers",
        default="A,B,C",
        help="cm part: classifiers to run, from "
        + ", ".join(f"{k} (alpha={v[0]}, beta={v[1]})" for k, v in CLASSIFIERS.items()),
    )
    parser.add_argument(
        "--shifts",
        default="mu=1,mu=2",
        help="curve part: binormal classifiers to run, from "
        + ", ".join(f"{k} (positives N({v:g}, 1))" for k, v in SHIFTS.items()),
    )
    parser.add_argument(
        "--positives",
        choices=("binomial", "fixed"),
        default="binomial",
        help="cm and curve parts: P ~ Binomial(n, pi) (default) or P = round(n pi)",
    )
    parser.add_argument(
        "--methods",
        default=None,
        help="curve part: run only these methods (comma-separated keys of "
        "CURVE_METHODS: " + ", ".join(m.key for m in CURVE_METHODS) + ")",
    )
    parser.add_argument(
        "--merge",
        default=None,
        metavar="CSV",
        help="curve part, with --methods: take the rows of the other methods "
        "from this earlier CSV of the same design (same cells, seed, "
        "test sets and resamples: the same simulated test sets), so "
        "that a changed or added method needs no rerun of the others",
    )
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (cells)")
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
        write_markdown(pd.read_csv(args.render), args.md)
        return 0
    if args.reps < 1 or args.n_resamples < 100 or args.jobs < 1:
        parser.error("--reps >= 1, --n-resamples >= 100 and --jobs >= 1 are required")

    part = PARTS[args.part]
    cells = part.make_cells(args)
    if not cells:
        parser.error("--cells selects no cell")
    options = {
        "reps": args.reps,
        "n_resamples": args.n_resamples,
        "seed": args.seed,
        "positives": args.positives,
        "methods": None,
    }
    if args.methods:
        keys = [k.strip() for k in args.methods.split(",") if k.strip()]
        unknown = sorted(set(keys) - {m.key for m in CURVE_METHODS})
        if args.part != "curve" or unknown:
            parser.error(
                f"--methods applies to --part curve, with keys from "
                f"{', '.join(m.key for m in CURVE_METHODS)}; got {args.methods!r}"
            )
        options["methods"] = keys
    if args.merge and not args.methods:
        parser.error("--merge needs --methods")
    command = "python " + " ".join(
        shlex.quote(a) for a in [os.path.relpath(__file__), *(argv or sys.argv[1:])]
    )
    started = datetime.datetime.now().astimezone()
    t0 = time.perf_counter()
    print(
        f"{part.name}: {len(cells)} cells x {args.reps} test sets, {args.jobs} job(s)", flush=True
    )
    rows: list[dict[str, Any]] = []
    results: dict[str, list[dict[str, Any]]] = {}
    if args.jobs == 1:
        for spec in cells:
            results[spec["cell"]] = part.run_cell(spec, options)
            print(
                f"  {spec['cell']}: {results[spec['cell']][0]['cell_seconds']:.1f} s "
                f"({results[spec['cell']][0]['cell_cpu_seconds']:.1f} s CPU)",
                flush=True,
            )
    else:
        with concurrent.futures.ProcessPoolExecutor(args.jobs) as pool:
            futures = {pool.submit(part.run_cell, spec, options): spec for spec in cells}
            for fut in concurrent.futures.as_completed(futures):
                spec = futures[fut]
                results[spec["cell"]] = fut.result()
                print(
                    f"  {spec['cell']}: {results[spec['cell']][0]['cell_seconds']:.1f} s "
                    f"({results[spec['cell']][0]['cell_cpu_seconds']:.1f} s CPU)",
                    flush=True,
                )
    for spec in cells:  # the cell order, whatever finished first
        rows.extend(results[spec["cell"]])
    wall = time.perf_counter() - t0
    df = pd.DataFrame(rows)
    df = df[SHARED_COLUMNS + [c for c in df.columns if c not in SHARED_COLUMNS]]
    # how the run was made, on every row, so that the CSV alone re-renders the Markdown
    df = df.assign(
        run_command=command,
        run_date=f"{started:%Y-%m-%d %H:%M %Z}",
        run_wall_seconds=round(wall, 1),
        run_jobs=args.jobs,
        run_cpus=os.cpu_count(),
        opsstats_version=opsstats.__version__,
        numpy_version=np.__version__,
        python_version=platform.python_version(),
        confidence_level=CONFIDENCE_LEVEL,
    )
    cells_time = df.drop_duplicates("cell")  # this run's cells
    if args.merge:
        df = merge_runs(df, pd.read_csv(args.merge), options)
    print_tables(df)
    print(
        f"\nwall time {wall:.1f} s; per-cell times sum to "
        f"{cells_time['cell_seconds'].sum():.1f} s wall, "
        f"{cells_time['cell_cpu_seconds'].sum():.1f} s CPU ({args.jobs} job(s), "
        f"{os.cpu_count()} CPUs)"
    )
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
