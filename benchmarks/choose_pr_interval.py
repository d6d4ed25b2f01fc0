"""How the PR AUC default below 100 rows of a class was chosen: variants of the
Dirichlet posterior interval on seven score shapes.

The equal-tailed Dirichlet posterior interval (``ScoreCurve.interval("pr_auc",
method="dirichlet")``) was the PR AUC default below 100 rows of the smaller class until a
check on score shapes it had not been chosen on: with positives less spread than the
negatives it covered 62% with 5 positives among 2000 negatives. Average precision is
biased upwards with few positives (each term i / (i + FP_i) counts the positive itself
and is a convex function of small counts), by an amount set by the upper tails of the
scores. The remedy is to extend the interval by an estimate of that bias; this script
compares, on the same test sets and draws, two such estimates and no extension:

* ``T``: equal-tailed, Jeffreys pseudo-rows (weight 1/2; ``prior="jeffreys"``);
* ``T_jack``: the same draws, lower end moved down by the jackknife bias estimate over
  the positives at the test set's prevalence, b_J = max(0, (P - 1)(mean of the
  leave-one-positive-out values - estimate)) (``interval="bias-extended"``: the default
  adopted);
* ``T_boot``: lower end down by b = max(0, mean of the draws - estimate), the Bayesian
  bootstrap's bias estimate (the default before ``T_jack``), and ``T_boot2`` by 2 b;
* ``T_jack_up``: ``T_jack`` with the upper end also moved up, by max(0, estimate - mean
  of the draws): the draws' shortfall below the estimate, where the pseudo-rows pull a
  strong classifier's draws down (tried for the settings where the truth lies above the
  interval; not adopted);
* ``Q``, ``Q_jack``, ``Q_boot``: the same with pseudo-rows of weight 1/4 (``prior=0.25``).

Beside the coverage, per setting: the estimator's actual bias (mean of estimate - truth
over the test sets), and the mean of each bias estimate (``b_boot`` from the Jeffreys
draws, ``b_jack``), the evidence for which estimate to trust.

Shapes (negatives N(0, 1) unless said): the five of ``coverage_shapes.py`` (binormal,
unequal, subgroup, narrow, t3) and two more: ``expon``, negatives Exp(1) and positives
Exp(scale k), k = AUC / (1 - AUC); ``rounded``, binormal scores rounded to a grid of 0.5
(ties; the population AP of the discrete distribution, cells in decreasing order). Each
at population ROC AUC 0.7602 and 0.9214, in the small-class settings of the shapes
study: n in {50, 200, 1000} x pi with E = n min(pi, 1 - pi) < 100 (grid, P ~
Binomial(n, pi)), and P in {5, 10, 20, 50} positives among 2000 negatives.

Run (the committed output, about 10 CPU-minutes)::

    python benchmarks/choose_pr_interval.py --reps 1000 --jobs 2 \\
        --md benchmarks/results/choose_pr_interval.md
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy import integrate, special, stats

sys.path.insert(0, str(Path(__file__).resolve().parent))
from coverage_shapes import AUCS, BAND, shapes_for

from opsstats import ScoreCurve

GRID = ((50, 0.5), (50, 0.1), (50, 0.02), (200, 0.1), (200, 0.02), (1000, 0.02))
FIXED_POSITIVES = (5, 10, 20, 50)
FIXED_NEGATIVES = 2000
DRAWS = 1000
VARIANTS = ("T", "T_jack", "T_jack_up", "T_boot", "T_boot2", "Q", "Q_jack", "Q_boot")


@dataclass(frozen=True)
class Expon:
    """Negatives Exp(1), positives Exp(scale k): ROC AUC k / (1 + k)."""

    name: str
    k: float

    def ap(self, p: float) -> float:
        # S_X(t) = exp(-t / k), S_Y(t) = exp(-t), f_X(t) = exp(-t / k) / k
        def integrand(t: float) -> float:
            return np.exp(-t / self.k) / self.k / (1 + (1 - p) / p * np.exp(-t + t / self.k))

        return float(integrate.quad(integrand, 0, np.inf, epsabs=1e-13, limit=400)[0])

    def simulate(
        self, n: int, positives: int, rng: np.random.Generator
    ) -> tuple[np.ndarray, np.ndarray]:
        y = np.zeros(n, dtype=np.int8)
        y[:positives] = 1
        s = rng.standard_exponential(n)
        s[:positives] *= self.k
        return y, s


@dataclass(frozen=True)
class Rounded:
    """Binormal scores (positives N(mu, 1)) rounded to multiples of h."""

    name: str
    mu: float
    h: float = 0.5

    def _masses(self, loc: float) -> np.ndarray:
        centres = np.arange(12.0 + self.mu, -12.0, -self.h)  # decreasing
        centres = np.round(centres / self.h) * self.h
        return stats.norm.cdf(centres + self.h / 2, loc) - stats.norm.cdf(centres - self.h / 2, loc)

    def ap(self, p: float) -> float:
        """Step-rule AP of the discrete distributions: each tied cell is one threshold."""
        pos, neg = self._masses(self.mu), self._masses(0.0)
        tpr, fpr = np.cumsum(pos), np.cumsum(neg)
        ok = tpr > 0
        precision = np.zeros_like(tpr)
        precision[ok] = p * tpr[ok] / (p * tpr[ok] + (1 - p) * fpr[ok])
        return float(np.sum(pos * precision))

    def simulate(
        self, n: int, positives: int, rng: np.random.Generator
    ) -> tuple[np.ndarray, np.ndarray]:
        y = np.zeros(n, dtype=np.int8)
        y[:positives] = 1
        s = rng.standard_normal(n)
        s[:positives] += self.mu
        return y, np.round(s / self.h) * self.h


def all_shapes() -> list[tuple[float, Any]]:
    out = []
    for auc in AUCS:
        out += [(auc, s) for s in shapes_for(auc)]
        out += [
            (auc, Expon("expon", auc / (1 - auc))),
            (auc, Rounded("rounded", float(np.sqrt(2) * special.ndtri(auc)))),
        ]
    return out


def run_cell(job: tuple[float, Any, int, float, int | None, int, int]) -> dict[str, Any]:
    auc, shape, n, pi, fixed, reps, seed = job
    t0 = time.process_time()
    rng = np.random.default_rng(seed)
    hits = {v: [] for v in VARIANTS}
    bias = {"actual": [], "b_boot": [], "b_jack": []}
    truth_at: dict[int, float] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(reps):
            P = fixed if fixed else int(rng.binomial(n, pi))
            if min(P, n - P) < 2:
                continue
            if P not in truth_at:
                truth_at[P] = shape.ap(P / n)
            truth = truth_at[P]
            curve = ScoreCurve.from_scores(*shape.simulate(n, P, rng))
            for prior, tag in ((0.5, "T"), (0.25, "Q")):
                r = curve.interval(
                    "pr_auc",
                    method="dirichlet",
                    interval="bias-extended",
                    prior=prior,
                    n_resamples=DRAWS,
                    rng=rng,
                )
                b = max(0.0, float(np.mean(r.draws)) - r.estimate)
                q_lo, q_hi = np.quantile(r.draws, [0.025, 0.975])
                short = max(0.0, r.estimate - float(np.mean(r.draws)))
                ends = {
                    tag: (q_lo, q_hi),
                    f"{tag}_jack": tuple(r.ci),
                    f"{tag}_jack_up": (r.ci.low, min(r.ci.high + short, 1.0)),
                    f"{tag}_boot": (max(q_lo - b, 0.0), q_hi),
                    f"{tag}_boot2": (max(q_lo - 2 * b, 0.0), q_hi),
                }
                for key, (low, high) in ends.items():
                    if key in hits:
                        hits[key].append(low <= truth <= high)
                if tag == "T":
                    bias["actual"].append(r.estimate - truth)
                    bias["b_boot"].append(b)
                    bias["b_jack"].append(r.details["bias_extension"])
    row = {
        "auc": round(auc, 4),
        "shape": shape.name,
        "n": n,
        "prevalence": pi,
        "positives": fixed if fixed else np.nan,
        "defined": len(hits["T"]),
    }
    row.update({v: 100 * float(np.mean(h)) for v, h in hits.items()})
    row.update({k: float(np.mean(v)) for k, v in bias.items()})
    row["cpu_seconds"] = time.process_time() - t0
    return row


def render(df: pd.DataFrame, reps: int) -> str:
    seconds = df["cpu_seconds"].sum()
    se = 100 * np.sqrt(0.95 * 0.05 / reps)
    lines = [
        "# Choosing the PR AUC interval below 100 rows of a class",
        "",
        "Generated by `benchmarks/choose_pr_interval.py` (see its docstring). "
        f"{reps} test sets per setting, {DRAWS} draws per interval, "
        f"{seconds / 60:.1f} CPU-min; binomial s.e. of a coverage near 95%: {se:.2f} points.",
        "",
        "## Summary over all settings",
        "",
        f"Coverage in % of the 95% intervals; band {BAND[0]:g}-{BAND[1]:g}.",
        "",
        "| variant | below 93 | below 90 | above 97 | above 99 | lowest | median | "
        "mean abs(coverage - 95) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for v in VARIANTS:
        c = df[v]
        lines.append(
            f"| {v} | {int((c < 93).sum())} | {int((c < 90).sum())} | "
            f"{int((c > 97).sum())} | {int((c > 99).sum())} | {c.min():.1f} | "
            f"{c.median():.1f} | {np.mean(np.abs(c - 95)):.2f} |"
        )
    ratio = {k: df[k] / df["actual"] for k in ("b_boot", "b_jack")}
    sizable = df["actual"] > 0.001  # a bias worth estimating
    lines += [
        "",
        f'{len(df)} settings. `T_jack` (interval="bias-extended", Jeffreys) is '
        "the default adopted.",
        "",
        "## The bias estimates",
        "",
        "Per setting, the actual bias of the estimate (mean of estimate - truth) and "
        "the mean of each bias estimate over the same test sets (columns `bias`, "
        "`b_boot`, `b_jack` below). Over the "
        f"{int(sizable.sum())} settings with an actual bias above 0.001, the ratio "
        "estimate / actual bias:",
        "",
        "| estimate | median ratio | lowest | highest | settings with ratio > 3 |",
        "|---|---|---|---|---|",
    ]
    for k, v in ratio.items():
        v = v[sizable]
        lines.append(
            f"| {k} | {v.median():.2f} | {v.min():.2f} | {v.max():.2f} | {int((v > 3).sum())} |"
        )
    lines += [
        "",
        "## Every setting",
        "",
        "| ROC AUC | shape | n | pi | P | " + " | ".join(VARIANTS) + " | bias | b_boot | b_jack |",
        "|---|---|---|---|---|" + "---|" * (len(VARIANTS) + 3),
    ]
    for r in df.itertuples():
        p = "" if np.isnan(r.positives) else f"{int(r.positives)}"
        lines.append(
            f"| {r.auc:.4f} | {r.shape} | {r.n} | {r.prevalence:.4g} | {p} | "
            + " | ".join(f"{getattr(r, v):.1f}" for v in VARIANTS)
            + f" | {r.actual:+.4f} | {r.b_boot:.4f} | {r.b_jack:+.4f} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reps", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=20261123)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--md", help="Markdown output (default: print)")
    args = ap.parse_args(argv)
    jobs = []
    for auc, shape in all_shapes():
        for n, pi in GRID:
            jobs.append((auc, shape, n, pi, None))
        for p in FIXED_POSITIVES:
            jobs.append((auc, shape, p + FIXED_NEGATIVES, p / (p + FIXED_NEGATIVES), p))
    seeds = np.random.SeedSequence(args.seed).generate_state(len(jobs))
    jobs = [(*j, args.reps, int(s)) for j, s in zip(jobs, seeds, strict=True)]
    with multiprocessing.Pool(args.jobs) as pool:
        rows = pool.map(run_cell, jobs, chunksize=1)
    text = render(pd.DataFrame(rows), args.reps)
    if args.md:
        Path(args.md).write_text(text)
    else:
        print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
