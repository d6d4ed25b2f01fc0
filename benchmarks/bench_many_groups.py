"""Benchmark: many groups with distinct prevalences.

Two timings, each beside its peers in the same run:

1. Confusion-matrix metrics: 10,000 groups over 1e6 rows, F1, MCC and precision with
   their OPS (exact, Uniform reference) and Dirichlet intervals (1000 draws), through
   ``evaluate`` (target: under 2 s); beside one ``np.bincount`` over (group, cell) (the
   floor: the counts alone) and a pandas groupby + scikit-learn loop that computes the
   three metric values only (no OPS, no intervals). The array path is checked to give
   the same table as the per-group path on a sample of groups.
2. Curve quantities: 10,000 groups with distinct prevalences, ROC AUC and PR AUC with
   their OPS (default DBT reference, G = 100,000) and default intervals (target: under
   60 s); beside the pandas + scikit-learn loop (roc_auc_score and
   average_precision_score, values only). ``evaluate`` interpolates the PR AUC reference
   in prevalence (docs/method.md#prevalence-grid); on a sample of groups the
   interpolated OPS is compared with the direct one (a pass over the reference per
   prevalence) and the difference printed beside the Monte Carlo standard error.

Run: ``nice python benchmarks/bench_many_groups.py [--groups 10000] [--rows 1000000]``
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
import pandas as pd
from sklearn.metrics import (
    average_precision_score,
    f1_score,
    matthews_corrcoef,
    precision_score,
    roc_auc_score,
)

import opsstats.grouped._arrays as grouped
from opsstats import DirectedBinaryTree, evaluate


def make_data(rows: int, groups: int, seed: int = 0) -> pd.DataFrame:
    """Groups of unequal sizes with prevalences spread over 0.5% to 30%."""
    rng = np.random.default_rng(seed)
    size = rng.dirichlet(np.full(groups, 5.0)) * rows
    g = np.repeat(np.arange(groups), np.maximum(1, np.round(size).astype(int)))[:rows]
    prevalence = rng.uniform(0.005, 0.30, groups)[g]
    y = rng.random(g.size) < prevalence
    score = rng.normal(np.where(y, 1.3, 0.0), 1.0)
    return pd.DataFrame({"group": g, "y": y.astype(np.int8), "score": score})


def timed(f):
    t = time.perf_counter()
    out = f()
    return out, time.perf_counter() - t


def confusion_part(df: pd.DataFrame) -> None:
    metrics = ["f1", "mcc", "precision"]
    kw = {
        "truth": "y",
        "score": "score",
        "threshold": 0.8,
        "metrics": metrics,
        "by": "group",
        "rng": 1,
    }
    out, t_ops = timed(lambda: evaluate(df, **kw))
    _, t_noci = timed(lambda: evaluate(df, ci=None, **kw))

    def floor():
        codes = df["group"].to_numpy()
        cell = 2 * (1 - df["y"].to_numpy()) + (df["score"].to_numpy() < 0.8)
        return np.bincount(4 * codes + cell, minlength=4 * (codes.max() + 1))

    _, t_floor = timed(floor)

    def sklearn_loop():
        rows = []
        for key, g in df.groupby("group", sort=True):
            y, p = g["y"].to_numpy(), (g["score"].to_numpy() >= 0.8).astype(int)
            rows.append(
                (
                    key,
                    f1_score(y, p, zero_division=np.nan),
                    matthews_corrcoef(y, p),
                    precision_score(y, p, zero_division=np.nan),
                )
            )
        return rows

    sk_rows, t_sk = timed(sklearn_loop)
    groups = df["group"].nunique()
    print(f"## Confusion-matrix metrics: {groups} groups, {len(df):,} rows, F1 / MCC / precision")
    print()
    print("| what | seconds | ratio to evaluate with intervals |")
    print("|---|---:|---:|")
    print(
        f"| opsstats evaluate: values, exact OPS, Dirichlet intervals (1000 draws) "
        f"| {t_ops:.2f} | 1 |"
    )
    print(
        f"| opsstats evaluate, ci=None: values and exact OPS | {t_noci:.2f} | "
        f"{t_noci / t_ops:.2f} |"
    )
    print(
        f"| np.bincount over (group, cell): the counts only (floor) | {t_floor:.3f} | "
        f"{t_floor / t_ops:.3f} |"
    )
    print(
        f"| pandas groupby + scikit-learn loop: the three values only | {t_sk:.2f} | "
        f"{t_sk / t_ops:.2f} |"
    )
    print()
    print(
        f"Target under 2 s: {'met' if t_ops < 2 else 'NOT met'} ({t_ops:.2f} s; before "
        "this change 63-75 s with intervals, 17 s without)."
    )
    # the same table as the per-group path, on a sample of groups
    sample = df[df["group"].isin(np.arange(0, groups, max(1, groups // 200)))]
    fast = evaluate(sample, **kw)
    covered = grouped.covered
    grouped.covered = lambda *a: False
    try:
        slow, t_slow = timed(lambda: evaluate(sample, **kw))
    finally:
        grouped.covered = covered
    same = fast.equals(slow)
    n_sample = sample["group"].nunique()
    print(
        f"Array path vs per-group path on {n_sample} groups: identical tables: {same} "
        f"(per-group path {t_slow:.2f} s for them, about "
        f"{t_slow / n_sample * groups:.0f} s for all {groups})."
    )
    ours = out.set_index(["group", "metric"])["value"]
    diffs = [
        abs(ours[(k, name)] - v)
        for k, *vals in sk_rows
        for name, v in zip(metrics, vals, strict=True)
        if not (np.isnan(v) or np.isnan(ours[(k, name)]))
    ]
    print(
        f"Values vs scikit-learn (all groups, three metrics): largest difference {max(diffs):.1e}."
    )
    print()


def curve_part(df: pd.DataFrame, n_direct: int) -> None:
    groups = df["group"].nunique()
    pis = df.groupby("group")["y"].mean()
    distinct = pis[(pis > 0) & (pis < 1)].nunique()
    out, t_ops = timed(
        lambda: evaluate(
            df, truth="y", score="score", metrics=["roc_auc", "pr_auc"], by="group", rng=1
        )
    )

    def sklearn_loop():
        rows = []
        for key, g in df.groupby("group", sort=True):
            y, s = g["y"].to_numpy(), g["score"].to_numpy()
            if 0 < y.mean() < 1:
                rows.append((key, roc_auc_score(y, s), average_precision_score(y, s)))
        return rows

    _, t_sk = timed(sklearn_loop)
    print(
        f"## Curve quantities: {groups} groups ({distinct} distinct prevalences in (0, 1)), "
        f"{len(df):,} rows, ROC AUC and PR AUC"
    )
    print()
    print("| what | seconds | ratio to evaluate |")
    print("|---|---:|---:|")
    print(
        f"| opsstats evaluate: values, OPS against the DBT (G = 100,000), default "
        f"intervals | {t_ops:.1f} | 1 |"
    )
    print(
        f"| pandas groupby + scikit-learn loop: the two values only | {t_sk:.1f} | "
        f"{t_sk / t_ops:.2f} |"
    )
    print()
    print(
        f"Target under 60 s: {'met' if t_ops < 60 else 'NOT met'} ({t_ops:.1f} s). Without "
        f"the grid, the PR AUC reference alone would take one pass per distinct prevalence, "
        f"about {distinct * 0.55 / 60:.0f} min at 0.55 s a pass."
    )
    pr = out[(out.metric == "pr_auc") & out.ops.notna()]
    print(f"PR AUC reference: {pr['reference'].iloc[0]}")
    # interpolated vs direct on a sample of groups
    rng = np.random.default_rng(3)
    rows = pr.iloc[np.sort(rng.choice(len(pr), size=min(n_direct, len(pr)), replace=False))]
    direct = DirectedBinaryTree()
    t = time.perf_counter()
    res = direct.ops("pr_auc", rows["value"].to_numpy(), prevalence=rows["prevalence"].to_numpy())
    t_direct = time.perf_counter() - t
    diff = np.abs(rows["ops"].to_numpy() - res.estimate)
    se = res.standard_error
    ratio = np.where(se > 0, diff / np.where(se > 0, se, 1), np.where(diff > 0, np.inf, 0))
    print()
    print(
        f"Interpolated vs direct PR AUC OPS on {len(rows)} groups (direct: {t_direct:.1f} s, "
        f"{t_direct / len(rows):.2f} s a prevalence):"
    )
    print()
    print(
        "| group | prevalence | PR AUC | OPS interpolated | OPS direct | abs. difference | "
        "MC s.e. | difference / s.e. |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for (_key, r), d, o, s_, q in zip(rows.iterrows(), diff, res.estimate, se, ratio, strict=True):
        print(
            f"| {r['group']} | {r['prevalence']:.4f} | {r['value']:.4f} | {r['ops']:.5f} | "
            f"{o:.5f} | {d:.1e} | {s_:.1e} | {q:.3f} |"
        )
    print()
    print(
        f"Largest difference / s.e.: {ratio.max():.3f} (must stay below 0.25: "
        f"{'met' if ratio.max() < 0.25 else 'NOT met'})."
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--groups", type=int, default=10_000)
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--direct", type=int, default=20, help="groups for the direct OPS check")
    ap.add_argument("--part", choices=("cm", "curve", "both"), default="both")
    args = ap.parse_args()
    df = make_data(args.rows, args.groups)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # warm-up: first-call imports and caches are not part of the timings
        small = make_data(5000, 20, seed=1)
        evaluate(small, truth="y", score="score", threshold=0.8, by="group", rng=1)
        evaluate(small, truth="y", score="score", metrics=["roc_auc"], by="group", rng=1)
        print(
            f"Run at {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} on a shared "
            "2-core machine (other jobs running: timings are upper bounds)."
        )
        print()
        if args.part in ("cm", "both"):
            confusion_part(df)
        if args.part in ("curve", "both"):
            curve_part(df, args.direct)


if __name__ == "__main__":
    main()
