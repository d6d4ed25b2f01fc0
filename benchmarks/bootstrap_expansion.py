"""How wide must the paired bootstrap's percentile interval be with few rows in a class?

The coverage of the 95% percentile interval of a paired PR AUC difference (the
``paired_pr_auc`` design of benchmarks/compare_size.py: two classifiers with equal
population PR AUC, scores bivariate normal per class, correlation 0.5) from the same
2000 stratified bootstrap draws per repetition, read at the level of each widening rule
(k the rows of the smaller class):

* ``plain``: the level itself (0.95);
* ``t``: Student's t on k - 1 df, level 2 Phi(t_{k-1}(0.975)) - 1 (opsstats' default);
* ``t_and_sqrt``: Hesterberg's (2015) expanded percentile, sqrt(k / (k - 1)) t_{k-1};
* ``sqrt``: sqrt(k / (k - 1)) z only.

Coverage near 95% (and not above 97%, or the test that inverts the interval rejects
fewer than 3.5% of true nulls) chooses the rule; docs/method.md#comparisons. Beside it,
from the same draws, the rejection rate at 5% of pROC's bootstrap test
D = difference / sd(drawn differences) on the normal (``method="bootstrap"``).

Below 10 positives the default is the jackknife-t (benchmarks/compare_size.py), and the
rows there show why the bootstrap is not used. Run (the committed output; about 10 CPU
minutes)::

    nice -n 10 python benchmarks/bootstrap_expansion.py --reps 1000 --seed 20261127 \
        > benchmarks/results/bootstrap_expansion.md
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

import numpy as np
from scipy import stats

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import opsstats
from opsstats import ScoreCurve
from opsstats.comparison.draws import paired_curve_draws
from opsstats.curves._geometry import parse_area

#: 2, 4, 6, 10, 20, 50 and 100 positives
CELLS = ((100, 0.02), (100, 0.04), (100, 0.06), (100, 0.1), (1000, 0.02), (100, 0.5), (1000, 0.1))


def levels(k: int, level: float = 0.95) -> dict[str, float]:
    t = stats.t.ppf((1 + level) / 2, k - 1)
    c = np.sqrt(k / (k - 1))
    z = stats.norm.ppf((1 + level) / 2)
    return {
        "plain": level,
        "t": 2 * stats.norm.cdf(t) - 1,
        "t_and_sqrt": 2 * stats.norm.cdf(c * t) - 1,
        "sqrt": 2 * stats.norm.cdf(c * z) - 1,
    }


def run(n: int, pi: float, reps: int, rng: np.random.Generator) -> tuple[int, dict, dict, int]:
    y = np.zeros(n, bool)
    y[: round(pi * n)] = True
    k = int(min(y.sum(), n - y.sum()))
    rules = levels(k)
    covered = dict.fromkeys(rules, 0)
    area = parse_area("pr_auc")
    rejected_d = 0
    for _ in range(reps):
        z = rng.standard_normal((n, 2))
        z[:, 1] = 0.5 * z[:, 0] + np.sqrt(0.75) * z[:, 1]
        s = z + y[:, None]
        va, vb = paired_curve_draws(y, s[:, 0], s[:, 1], area, "bootstrap", 2000, rng)
        d = (va - vb)[np.isfinite(va - vb)]
        a, b = (ScoreCurve.from_scores(y, s[:, j]) for j in (0, 1))
        diff = area(a.prevalence, a.alpha, a.beta) - area(b.prevalence, b.alpha, b.beta)
        sd = np.std(d, ddof=1)
        rejected_d += bool(sd > 0 and abs(diff / sd) > stats.norm.ppf(0.975))
        for rule, lev in rules.items():
            lo, hi = np.quantile(d, [(1 - lev) / 2, (1 + lev) / 2])
            covered[rule] += bool(lo <= 0 <= hi)
    return k, rules, covered, rejected_d


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=20261127)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    print("# Widening the paired bootstrap's percentile interval (PR AUC, 95%)\n")
    print(
        f"`python benchmarks/bootstrap_expansion.py --reps {args.reps} --seed {args.seed}`; "
        f"opsstats {opsstats.__version__}, numpy {np.__version__}, Python "
        f"{platform.python_version()}. Coverage in % of {args.reps} repetitions "
        f"(binomial s.e. about {100 * np.sqrt(0.95 * 0.05 / args.reps):.2f} points); "
        "the level each rule reads in brackets.\n"
    )
    print(
        "| n | prevalence | smaller class k | plain | t (default) | t and sqrt | sqrt | "
        "pROC's D rejects (%) | seconds |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n, pi in CELLS:
        t0 = time.perf_counter()
        k, rules, covered, rejected_d = run(n, pi, args.reps, rng)
        cells = " | ".join(
            f"{100 * covered[r] / args.reps:.1f} ({rules[r]:.4f})"
            for r in ("plain", "t", "t_and_sqrt", "sqrt")
        )
        print(
            f"| {n} | {pi} | {k} | {cells} | {100 * rejected_d / args.reps:.1f} | "
            f"{time.perf_counter() - t0:.0f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
