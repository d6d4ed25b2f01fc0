"""Size and coverage of the default comparisons of opsstats.comparison under the null.

Is the rejection rate of each default test at the 5% level near 5%, and does the default
95% interval of the difference contain the true difference (0) 95% of the time, when the
two classifiers (or test sets) are equally good? Test sets are simulated, every test is
run through the public API (``opsstats.compare``, ``opsstats.compare_test_sets``; the
unpaired OPS test through ``unpaired_ops_tests``, the same computation for many test
sets at once, checked against ``compare_test_sets`` in tests/test_compare.py), and each
rate is reported with its binomial Monte Carlo standard error.

Designs (each over n in {100, 1000, 10000} x prevalence pi in {0.5, 0.1, 0.02}; the
class counts fixed at round(pi n), at least 2 positives):

* ``paired_auc``: two classifiers on the same rows, scores bivariate normal per class,
  unit variances, correlation 0.5, means 0 (negatives) and 1 (positives) for both:
  equal population ROC AUC Phi(1/sqrt 2) = 0.760. Default test: DeLong's paired
  statistic on Student's t with the Satterthwaite df of the class parts, t interval
  (``method="auto"``, ``"delong-t"``).
* ``paired_f1_ops``: the same scores thresholded at 0.8 (alpha = 0.212, beta = 0.421
  for both): equal population OPS of F1, errors correlated. Default: the Dirichlet
  posterior of the joint (truth, A, B) table (Jeffreys), 2000 draws, two-sided
  posterior tail p-value,
  equal-tailed interval.
* ``unpaired_auc``: a test set of n rows at pi and an independent one of n rows at
  prevalence 0.25, the same binormal classifier (AUC 0.760). Default: DeLong's unpaired
  statistic on t with the Satterthwaite df of the four class parts, t interval; below
  10 rows in a class, each set's Dirichlet posterior (2000 draws, posterior tail
  p-value).
* ``unpaired_f1_ops``: a test set of n rows at pi, classifier alpha = 0.10, beta = 0.20,
  and one of n rows at prevalence 0.25 whose beta is solved so that the population OPS
  of F1 (uniform reference) is the same: equal OPS at different prevalences (the F1
  values differ). Default: each set's Dirichlet posterior, 2000 draws, posterior tail
  p-value.

* ``paired_auc_dirichlet`` (not a default; n in {100, 1000} only, its cost growing
  with n): the ``paired_auc`` data compared by ``method="dirichlet"``, the paired
  Bayesian bootstrap, 2000 draws.

* ``paired_pr_auc_three`` (n in {100, 1000} only): three classifiers of the
  ``paired_auc`` kind (scores trivariate normal per class, unit variances, every
  correlation 0.5, means 0 and 1), compared by the default as one table; the rates are
  those of its pair A - B, whose draws the three classifiers share (one set of resampled
  rows for all three), beside ``paired_pr_auc``, where the two are compared alone.

* ``paired_auc_proc`` and ``unpaired_auc_proc`` (not defaults): the ``paired_auc`` and
  ``unpaired_auc`` data compared by ``method="delong"``, pROC's tests, beside the
  defaults that replace them.

* ``paired_pr_auc``: the ``paired_auc`` data, PR AUC (step rule, average precision;
  equal in the population, the two scores having the same distributions), the default
  for a curve area other than the ROC AUC: from 10 rows in the smaller class the paired
  stratified bootstrap, 2000 resamples, percentile interval expanded to Student's t on
  k - 1 df (k the smaller class), and the tail p-value that inverts it; below 10 the paired stratified jackknife on t (``"jackknife-t"``).

Rates undefined in a repetition (a statistic with zero variance, a metric 0/0 in every
draw) are counted in ``undefined`` and left out of the rates.

Run (the committed table; about 22 minutes here, two thirds of it the paired PR AUC
bootstrap at n = 10000, and 8.6 CPU minutes more for ``paired_pr_auc_three``;
``--designs`` runs some of the designs)::

    nice -n 10 python benchmarks/compare_size.py --reps 1000 --seed 20261124 \
        --out benchmarks/results/compare_size.csv --md benchmarks/results/compare_size.md

and the Markdown from the CSV without simulating::

    python benchmarks/compare_size.py --render benchmarks/results/compare_size.csv \
        --md benchmarks/results/compare_size.md
"""

from __future__ import annotations

import argparse
import csv
import platform
import sys
import time
import warnings
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
from scipy import optimize, stats

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import opsstats
from opsstats import Uniform, compare, compare_test_sets
from opsstats.comparison import unpaired_ops_tests

NS = (100, 1000, 10000)
PREVALENCES = (0.5, 0.1, 0.02)
DESIGNS = (
    "paired_auc",
    "paired_f1_ops",
    "unpaired_auc",
    "unpaired_f1_ops",
    "paired_auc_dirichlet",
    "paired_pr_auc",
    "paired_auc_proc",
    "unpaired_auc_proc",
    "paired_pr_auc_three",
)
#: designs run on fewer sizes (their cost grows with n: one weight per row and draw)
DESIGN_NS = {"paired_auc_dirichlet": (100, 1000), "paired_pr_auc_three": (100, 1000)}
OTHER_PREVALENCE = 0.25
THRESHOLD = 0.8
FIELDS = (
    "design",
    "n",
    "prevalence",
    "smaller_class",
    "reps",
    "undefined",
    "rejection",
    "rejection_se",
    "coverage",
    "coverage_se",
    "mean_width",
    "seconds",
    "command",
    "date",
    "versions",
)


def _classes(n: int, pi: float) -> np.ndarray:
    pos = max(2, round(pi * n))
    y = np.zeros(n, bool)
    y[:pos] = True
    return y


def _scores(y: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    z = rng.standard_normal((y.size, 2))
    z[:, 1] = 0.5 * z[:, 0] + np.sqrt(0.75) * z[:, 1]
    return z + y[:, None]


def _three_scores(y: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Three columns, every correlation 0.5: sqrt(1/2) (common + own) per column."""
    z = rng.standard_normal((y.size, 4))
    return np.sqrt(0.5) * (z[:, :1] + z[:, 1:]) + y[:, None]


def _paired(design: str, n: int, pi: float, reps: int, rng: np.random.Generator):
    y = _classes(n, pi)
    out = []
    for _ in range(reps):
        s = _three_scores(y, rng) if design == "paired_pr_auc_three" else _scores(y, rng)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if design == "paired_pr_auc_three":
                table = compare(
                    y, {"A": s[:, 0], "B": s[:, 1], "C": s[:, 2]}, metric="pr_auc", rng=rng
                )
                r = table.results[0]  # A - B
            elif design == "paired_auc":
                r = compare(y, {"A": s[:, 0], "B": s[:, 1]})
            elif design == "paired_auc_proc":
                r = compare(y, {"A": s[:, 0], "B": s[:, 1]}, method="delong")
            elif design == "paired_pr_auc":
                r = compare(y, {"A": s[:, 0], "B": s[:, 1]}, metric="pr_auc", rng=rng)
            elif design == "paired_auc_dirichlet":
                r = compare(y, {"A": s[:, 0], "B": s[:, 1]}, method="dirichlet", rng=rng)
            else:
                pred = s > THRESHOLD
                r = compare(
                    y, y_pred={"A": pred[:, 0], "B": pred[:, 1]}, metric="f1", ops=True, rng=rng
                )
        out.append((r.p_value, r.ci.low, r.ci.high))
    return np.array(out, dtype=float)


def _equal_ops_beta(alpha: float, beta: float, pi: float, pi_b: float) -> float:
    ref = Uniform()
    target = float(
        ref.ops(
            "f1", opsstats.metrics.resolve_metric("f1")(pi, alpha, beta), prevalence=pi
        ).estimate
    )

    def gap(b: float) -> float:
        v = opsstats.metrics.resolve_metric("f1")(pi_b, alpha, b)
        return float(ref.ops("f1", v, prevalence=pi_b).estimate) - target

    return float(optimize.brentq(gap, 1e-9, 1 - 1e-9, xtol=1e-13))


def _unpaired(design: str, n: int, pi: float, reps: int, rng: np.random.Generator):
    ya, yb = _classes(n, pi), _classes(n, OTHER_PREVALENCE)
    if design in ("unpaired_auc", "unpaired_auc_proc"):
        how = "delong" if design == "unpaired_auc_proc" else "auto"
        out = []
        for _ in range(reps):
            sa = rng.standard_normal(n) + ya
            sb = rng.standard_normal(n) + yb
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                r = compare_test_sets({"a": (ya, sa), "b": (yb, sb)}, method=how, rng=rng)
            out.append((r.p_value, r.ci.low, r.ci.high))
        return np.array(out, dtype=float)
    alpha, beta = 0.10, 0.20
    beta_b = _equal_ops_beta(alpha, beta, pi, OTHER_PREVALENCE)
    sides = []
    for y, b in ((ya, beta), (yb, beta_b)):
        pos, neg = int(y.sum()), int((~y).sum())
        tp = rng.binomial(pos, 1 - b, reps)
        fp = rng.binomial(neg, alpha, reps)
        sides.append((tp, fp, pos - tp, neg - fp))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = unpaired_ops_tests(sides[0], sides[1], "f1", n_draws=2000, rng=rng)
    return np.column_stack([r["p_value"], r["ci_low"], r["ci_high"]])


def run_cell(design: str, n: int, pi: float, reps: int, seed: int) -> dict:
    rng = np.random.default_rng([seed, DESIGNS.index(design), n, int(pi * 1000)])
    start = time.process_time()
    res = (
        _paired(design, n, pi, reps, rng)
        if design.startswith("paired")
        else _unpaired(design, n, pi, reps, rng)
    )
    p, lo, hi = res.T
    ok = np.isfinite(p) & np.isfinite(lo) & np.isfinite(hi)
    m = int(ok.sum())
    reject = float(np.mean(p[ok] < 0.05)) if m else float("nan")
    cover = float(np.mean((lo[ok] <= 0) & (hi[ok] >= 0))) if m else float("nan")
    smaller = min(max(2, round(pi * n)), n - max(2, round(pi * n)))
    return {
        "design": design,
        "n": n,
        "prevalence": pi,
        "smaller_class": smaller,
        "reps": reps,
        "undefined": reps - m,
        "rejection": reject,
        "rejection_se": float(np.sqrt(reject * (1 - reject) / m)) if m else float("nan"),
        "coverage": cover,
        "coverage_se": float(np.sqrt(cover * (1 - cover) / m)) if m else float("nan"),
        "mean_width": float(np.mean(hi[ok] - lo[ok])) if m else float("nan"),
        "seconds": round(time.process_time() - start, 1),
    }


_TITLES = {
    "paired_auc": "Paired ROC AUC: DeLong's statistic on t (Satterthwaite df), t interval",
    "paired_f1_ops": "Paired OPS of F1: Dirichlet posterior of the joint (truth, A, B) table",
    "unpaired_auc": "Unpaired ROC AUC (prevalence pi vs 0.25): DeLong's t (Satterthwaite df "
    "of the class parts); below 10 rows in a class, the Dirichlet posteriors",
    "unpaired_f1_ops": "Unpaired OPS of F1 (prevalence pi vs 0.25, equal OPS): Dirichlet",
    "paired_auc_dirichlet": "Paired ROC AUC, not a default: the paired Dirichlet posterior",
    "paired_auc_proc": "Paired ROC AUC, not a default: pROC's DeLong test (normal), Wald interval",
    "unpaired_auc_proc": "Unpaired ROC AUC, not a default: pROC's DeLong test (t, pROC's df "
    "over the rows)",
    "paired_pr_auc_three": "Paired PR AUC, the pair A - B of a table of three classifiers "
    "(the draws shared by the three): the default, as for two",
    "paired_pr_auc": "Paired PR AUC (average precision): the paired stratified bootstrap, "
    "percentile interval expanded to t on k - 1 df, tail p-value; below 10 rows in a class, "
    "the jackknife-t",
}


def _edge_p(rate: float, m: int, edge: float) -> str:
    """How compatible a rate outside the band is with its nearer edge: the one-sided
    binomial p-value of the count at the edge's rate."""
    k = round(rate * m)
    p = stats.binom.sf(k - 1, m, edge) if rate > edge else stats.binom.cdf(k, m, edge)
    return f"p = {p:.2f} at {100 * edge:g}%"


def _flag(rate: float, low: float, high: float, smaller: int, kind: str, m: int) -> str:
    if not np.isfinite(rate):
        return "undefined"
    if smaller >= 10:
        if low <= rate <= high:
            return ""
        return f"**outside** ({_edge_p(rate, m, high if rate > high else low)})"
    if kind == "rejection":
        if rate <= high:
            return "(few rows)"
        return f"**above {100 * high:g}%, few rows** ({_edge_p(rate, m, high)})"
    if rate >= low:
        return "(few rows)"
    return f"**below {100 * low:g}%, few rows** ({_edge_p(rate, m, low)})"


def render(rows: list[dict]) -> str:
    lines = [
        "# Size and coverage of the default comparisons under the null",
        "",
        "Written by `benchmarks/compare_size.py` (its docstring has the design). Each cell: "
        f"{rows[0]['reps']} simulated repetitions; rejection rate of the default test at "
        "the 5% level and coverage of the default 95% interval of the difference (true "
        "difference 0), each with its Monte Carlo standard error. Target: rejection "
        "3.5%-6.5% and coverage 93%-97% where the smaller class has at least 10 rows; "
        "below that, rejection not above 6.5% and coverage not below 93%.",
        "",
        *(
            f"Run: `{r['command']}` on {r['date']} ({r['versions']})."
            for r in {row["command"]: row for row in rows}.values()
        ),
        "",
        "Flags: **outside** marks a rate outside its band where the smaller class has at "
        "least 10 rows; below 10 rows only a rejection above 6.5% or a coverage below 93% is "
        "flagged. Beside a flag, p is the one-sided binomial p-value of the count were the "
        "true rate at the band's edge: p above 0.01 is compatible with the edge. The tests with pROC's reference distributions (`method=\"delong\"`) and "
        "the paired draws of two curves asked for explicitly warn (`SmallCountWarning`) "
        "where they are known to reject too often: below 10 rows of the smaller class for "
        "DeLong, below 100 for the paired bootstrap or Dirichlet posterior of a curve.",
        "",
    ]
    for design in DESIGNS:
        sub = [r for r in rows if r["design"] == design]
        if not sub:
            continue
        lines += [
            f"## {_TITLES[design]}",
            "",
            "| n | prevalence | smaller class | rejection (s.e.) | | coverage (s.e.) | | "
            "mean width | undefined |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        for r in sub:
            rej, cov = float(r["rejection"]), float(r["coverage"])
            sm = int(r["smaller_class"])
            m = int(r["reps"]) - int(r["undefined"])
            lines.append(
                f"| {int(r['n'])} | {float(r['prevalence']):g} | {sm} | "
                f"{100 * rej:.1f}% ({100 * float(r['rejection_se']):.1f}) | "
                f"{_flag(rej, 0.035, 0.065, sm, 'rejection', m)} | "
                f"{100 * cov:.1f}% ({100 * float(r['coverage_se']):.1f}) | "
                f"{_flag(cov, 0.93, 0.97, sm, 'coverage', m)} | "
                f"{float(r['mean_width']):.4f} | {int(r['undefined'])} |"
            )
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=20261124)
    ap.add_argument("--designs", default=",".join(DESIGNS))
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
    command = "python benchmarks/compare_size.py " + " ".join(sys.argv[1:])
    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    versions = (
        f"opsstats {opsstats.__version__}, numpy {np.__version__}, "
        f"Python {platform.python_version()}"
    )
    rows = []
    for design in args.designs.split(","):
        for n in DESIGN_NS.get(design, NS):
            for pi in PREVALENCES:
                row = run_cell(design, n, pi, args.reps, args.seed)
                row.update(command=command, date=stamp, versions=versions)
                rows.append(row)
                print(
                    f"{design:16s} n={n:6d} pi={pi:<5g} reject {100 * row['rejection']:5.1f}% "
                    f"cover {100 * row['coverage']:5.1f}% undefined {row['undefined']} "
                    f"({row['seconds']} s)",
                    flush=True,
                )
    if args.out:
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
