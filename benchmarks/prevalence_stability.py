"""How far do raw metrics and their OPS move when only the prevalence changes?

One fixed classifier: negatives score N(0, 1), positives N(1.5, 1), threshold 0.75, so
at the threshold alpha = 1 - Phi(0.75) = 0.2266 and beta = Phi(-0.75) = 0.2266, and the
score distributions are fixed. It is evaluated, with :func:`opsstats.evaluate`, on test
sets whose prevalences are 0.09, 0.19, 0.30 and 0.50 (the paper's General / Elder /
Hospital prevalences, plus a balanced set), each of ``--n`` rows, and the spread
(max - min across the four sets) of raw F1, MCC and PR AUC is compared with the spread
of their OPS. The "population" columns are the values at n = infinity: the metric
from the known (alpha, beta) for F1 and MCC, and a 2,000,000-row test set for PR AUC.

OPS is not exactly prevalence-invariant; the point is to measure how much steadier it
is. Run: ``python benchmarks/prevalence_stability.py --out benchmarks/results/prevalence_stability.md``
"""

from __future__ import annotations

import argparse
import time
import warnings
from datetime import date

import numpy as np
import pandas as pd
from scipy.stats import norm

import opsstats
from opsstats import ConfusionMatrix, ScoreCurve, evaluate

PREVALENCES = (0.09, 0.19, 0.30, 0.50)
SHIFT, THRESHOLD = 1.5, 0.75


def test_sets(n: int, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    frames = []
    for pi in PREVALENCES:
        pos = round(n * pi)
        y = np.r_[np.ones(pos, int), np.zeros(n - pos, int)]
        s = np.r_[rng.normal(SHIFT, 1, pos), rng.normal(0, 1, n - pos)]
        frames.append(pd.DataFrame({"test_set": f"pi={pi:.2f}", "y": y, "score": s}))
    return pd.concat(frames, ignore_index=True)


def population(metric: str) -> dict[str, tuple[float, float]]:
    alpha, beta = norm.sf(THRESHOLD), norm.cdf(THRESHOLD - SHIFT)
    out = {}
    for pi in PREVALENCES:
        if metric == "pr_auc":
            rng = np.random.default_rng(99)
            pos = round(2_000_000 * pi)
            s = np.r_[rng.normal(SHIFT, 1, pos), rng.normal(0, 1, 2_000_000 - pos)]
            y = np.r_[np.ones(pos, int), np.zeros(2_000_000 - pos, int)]
            curve = ScoreCurve.from_scores(y, s)
            out[f"pi={pi:.2f}"] = (curve.auc("pr"), curve.ops("pr_auc").estimate)
        else:
            cm = ConfusionMatrix.from_rates(n=1, prevalence=pi, alpha=alpha, beta=beta)
            out[f"pi={pi:.2f}"] = (cm.metric(metric), cm.ops(metric).estimate)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=20_000, help="rows per test set")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=None, help="write a Markdown report here")
    args = ap.parse_args()
    t0 = time.perf_counter()
    df = test_sets(args.n, args.seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table = evaluate(
            df,
            truth="y",
            score="score",
            threshold=THRESHOLD,
            metrics=["f1", "mcc", "pr_auc"],
            by="test_set",
            ci="dirichlet",
            curve_ci="bootstrap",
            n_resamples=1000,
            rng=args.seed,
        )
    lines = [
        "# Prevalence stability of raw metrics and their OPS",
        "",
        f"opsstats {opsstats.__version__}, {date.today()}, command: "
        f"`python benchmarks/prevalence_stability.py --n {args.n} --seed {args.seed}`.",
        f"One classifier (negatives N(0,1), positives N({SHIFT},1), threshold "
        f"{THRESHOLD}: alpha = beta = {norm.sf(THRESHOLD):.4f}) on four test sets of "
        f"{args.n} rows; intervals 95%, 1000 draws/resamples. References: Uniform for F1 "
        "and MCC, DirectedBinaryTree() for PR AUC.",
        "",
    ]
    summary = []
    for metric in ("f1", "mcc", "pr_auc"):
        rows = table[table["metric"] == metric].set_index("test_set")
        pop = population(metric)
        lines += [
            f"## {metric}",
            "",
            "| test set | value | 95% CI | OPS | 95% CI | population value | population OPS |",
            "|---|---|---|---|---|---|---|",
        ]
        for ts, r in rows.iterrows():
            lines.append(
                f"| {ts} | {r['value']:.4f} | {r['value_ci_low']:.4f}-"
                f"{r['value_ci_high']:.4f} | {r['ops']:.4f} | {r['ops_ci_low']:.4f}-"
                f"{r['ops_ci_high']:.4f} | {pop[ts][0]:.4f} | {pop[ts][1]:.4f} |"
            )
        raw_spread = rows["value"].max() - rows["value"].min()
        ops_spread = rows["ops"].max() - rows["ops"].min()
        pop_raw = np.ptp([v[0] for v in pop.values()])
        pop_ops = np.ptp([v[1] for v in pop.values()])
        summary.append((metric, raw_spread, ops_spread, pop_raw, pop_ops))
        lines += [
            "",
            f"Spread (max - min) across the four test sets: raw {raw_spread:.4f}, "
            f"OPS {ops_spread:.4f}; in the population: raw {pop_raw:.4f}, OPS "
            f"{pop_ops:.4f}.",
            "",
        ]
    lines += [
        "## Summary",
        "",
        "| metric | raw spread | OPS spread | population raw spread | population OPS spread |",
        "|---|---|---|---|---|",
    ]
    lines += [f"| {m} | {a:.4f} | {b:.4f} | {c:.4f} | {d:.4f} |" for m, a, b, c, d in summary]
    lines += ["", f"Runtime {time.perf_counter() - t0:.1f} s."]
    text = "\n".join(lines)
    print(text)
    if args.out:
        with open(args.out, "w") as fh:
            fh.write(text + "\n")


if __name__ == "__main__":
    main()
