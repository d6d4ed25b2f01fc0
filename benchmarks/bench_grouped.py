"""Benchmark: grouped evaluation of 100 groups x 5 metrics with 1000-draw intervals on
1e6 rows (target: under 10 s).

The 5 metrics are confusion-matrix metrics (F1, MCC, precision, recall, balanced
accuracy) with Dirichlet-multinomial intervals of 1000 draws for each metric and its OPS
(exact Uniform reference). A second, separate timing adds a curve quantity (PR AUC
against the default DBT reference, no interval): its cost is dominated by one pass over
the 100,000 reference curves per distinct group prevalence, which the run reports.

Run: ``python benchmarks/bench_grouped.py [--rows 1000000] [--groups 100]``
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
import pandas as pd

from opsstats import evaluate


def make_data(rows: int, groups: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    g = rng.integers(0, groups, rows)
    prevalence = 0.05 + 0.4 * (g / max(1, groups - 1))  # groups differ in prevalence
    y = rng.random(rows) < prevalence
    score = rng.normal(np.where(y, 1.3, 0.0), 1.0)
    return pd.DataFrame({"group": g, "y": y.astype(np.int8), "score": score})


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--groups", type=int, default=100)
    ap.add_argument(
        "--curve-groups", type=int, default=10, help="groups for the PR AUC timing (default 10)"
    )
    args = ap.parse_args()
    df = make_data(args.rows, args.groups)
    metrics = ["f1", "mcc", "precision", "recall", "balanced_accuracy"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t = time.perf_counter()
        out = evaluate(
            df,
            truth="y",
            score="score",
            threshold=0.8,
            metrics=metrics,
            by="group",
            ci="dirichlet",
            n_resamples=1000,
            rng=1,
        )
        elapsed = time.perf_counter() - t
    print(
        f"{args.groups} groups x {len(metrics)} metrics, 1000-draw Dirichlet intervals "
        f"(metric and OPS), {args.rows:,} rows: {elapsed:.2f} s "
        f"(target < 10 s: {'met' if elapsed < 10 else 'NOT met'})"
    )
    print(f"  rows in the output: {len(out)}; NaN OPS: {int(out['ops'].isna().sum())}")
    print(out.groupby("metric")[["value", "ops"]].agg(["min", "max"]).round(3).to_string())

    small = df[df["group"] < args.curve_groups]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t = time.perf_counter()
        evaluate(small, truth="y", score="score", metrics=["pr_auc"], by="group", ci=None)
        curve_time = time.perf_counter() - t
    print(
        f"\nPR AUC against DirectedBinaryTree() for {args.curve_groups} groups "
        f"({len(small):,} rows, {args.curve_groups} distinct prevalences): "
        f"{curve_time:.2f} s, {curve_time / args.curve_groups:.2f} s per group "
        "(one evaluation of the 100,000 reference curves per prevalence, shared "
        "generation)"
    )


if __name__ == "__main__":
    main()
