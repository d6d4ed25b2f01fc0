"""How far the raw value and the OPS of one fixed classifier move when only the
prevalence changes (docs/method.md#prevalence-invariance).

The classifier of the monitoring issue: negatives score N(0, 1), positives N(1.5, 1),
predicted positive at threshold 0.75 (alpha = beta = 0.2266) or 1.5 (alpha = 0.0668,
beta = 0.5). Its metrics are the registry's M(pi, alpha, beta) and their OPS the Uniform
reference's (exact), at pi in {0.02, 0.05, 0.1, 0.3, 0.5}: F1, MCC, accuracy, Cohen's
kappa, Fowlkes-Mallows, markedness (not invariant) and precision (invariant, for
contrast). For curves, the population ROC curve of a binormal classifier of separation
1.2 (positives N(1.2, 1)), read at 20,001 thresholds from -8 to 9.2 (a curve of expected
counts, ``ScoreCurve.from_counts``, standardized to each prevalence with
``at_prevalence``): its PR AUC (not invariant) and ROC AUC (invariant), their OPS against
the default DBT reference (100,000 curves, seed 20231; Monte Carlo s.e. at most 0.0012).

Also the share of 20,000 random pairs of (alpha, beta) points (uniform; seed 7) whose
order flips between prevalence 0.01 and 0.95, for every registered metric.

Run (the committed tables; about 20 CPU seconds, most of it the DBT's passes)::

    python benchmarks/prevalence_drift.py --out benchmarks/results/prevalence_drift.csv \\
        --md benchmarks/results/prevalence_drift.md

and the Markdown again from the CSV::

    python benchmarks/prevalence_drift.py --render benchmarks/results/prevalence_drift.csv \\
        --md benchmarks/results/prevalence_drift.md
"""

from __future__ import annotations

import argparse
import datetime
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy.stats import norm

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

import opsstats
from opsstats import ConfusionMatrix, ScoreCurve
from opsstats.metrics import available_metrics, get_metric, resolve_metric

PREVALENCES = (0.02, 0.05, 0.1, 0.3, 0.5)
SHIFT, THRESHOLDS, CURVE_SHIFT = 1.5, (0.75, 1.5), 1.2
METRICS = ("f1", "mcc", "accuracy", "cohen_kappa", "fowlkes_mallows", "markedness", "precision")


def population_curve(shift: float) -> ScoreCurve:
    """The binormal ROC curve at 20,001 thresholds: expected counts (per million) of
    each class between the midpoints of neighbouring thresholds."""
    t = np.linspace(-8, 8 + shift, 20_001)
    edges = np.r_[-np.inf, (t[1:] + t[:-1]) / 2, np.inf]
    positives = np.diff(norm.cdf(edges - shift)) * 1e6
    negatives = np.diff(norm.cdf(edges)) * 1e6
    return ScoreCurve.from_counts(t, positives, negatives)


def rows() -> list[dict[str, Any]]:
    out = []
    for thr in THRESHOLDS:
        alpha, beta = float(norm.sf(thr)), float(norm.cdf(thr - SHIFT))
        cm = ConfusionMatrix.from_rates(n=1.0, prevalence=0.5, alpha=alpha, beta=beta)
        for name in METRICS:
            for pi in PREVALENCES:
                r = cm.at_prevalence(pi).ops(name)
                out.append(
                    {
                        "table": "drift",
                        "classifier": f"threshold {thr:g} (alpha {alpha:.4f}, beta {beta:.4f})",
                        "quantity": get_metric(name).label,
                        "invariant": get_metric(name).prevalence_invariant,
                        "prevalence": pi,
                        "value": r.value,
                        "ops": r.estimate,
                        "ops_se": r.standard_error,
                    }
                )
    curve = population_curve(CURVE_SHIFT)
    for name in ("pr_auc", "roc_auc"):
        for pi in PREVALENCES:
            r = curve.at_prevalence(pi).ops(name)
            out.append(
                {
                    "table": "drift",
                    "classifier": f"binormal ROC curve, separation {CURVE_SHIFT:g}",
                    "quantity": r.metric,
                    "invariant": opsstats.curves.ops_prevalence_invariant(name),
                    "prevalence": pi,
                    "value": r.value,
                    "ops": r.estimate,
                    "ops_se": r.standard_error,
                }
            )
    pairs = np.random.default_rng(7).random((4, 20_000))
    for name in available_metrics():
        m = resolve_metric(name)
        with np.errstate(all="ignore"):
            signs = [
                np.sign(m(pi, pairs[0], pairs[1]) - m(pi, pairs[2], pairs[3]))
                for pi in (0.01, 0.95)
            ]
        ok = np.isfinite(signs[0]) & np.isfinite(signs[1])
        out.append(
            {
                "table": "flips",
                "classifier": "20,000 random pairs",
                "quantity": get_metric(name).label,
                "invariant": get_metric(name).prevalence_invariant,
                "prevalence": np.nan,
                "value": float(np.mean(signs[0][ok] * signs[1][ok] < 0)),
                "ops": np.nan,
                "ops_se": np.nan,
            }
        )
    return out


def write_markdown(df: pd.DataFrame, path: str) -> None:
    meta = df.iloc[0]
    lines = [
        "# The prevalence drift of one classifier's raw metrics and their OPS",
        "",
        "One classifier held fixed (its alpha and beta, or its ROC curve), only the "
        "prevalence moving (docs/method.md#prevalence-invariance). Made by "
        f"`{meta['command']}` on {meta['date']} (opsstats {meta['version']}, "
        f"{meta['cpu_seconds']:.0f} s CPU); design in the script's docstring.",
        "",
        "Raw value / OPS at each prevalence; the last column is the range of the OPS. "
        "Confusion-matrix metrics: the Uniform reference, exact; curves: the default DBT "
        "(100,000 curves; Monte Carlo s.e. at most 0.0012 here).",
    ]
    drift = df[df["table"] == "drift"]
    for classifier, block in drift.groupby("classifier", sort=False):
        lines += ["", f"## {classifier}", ""]
        head = "| quantity | invariant | " + " | ".join(f"pi = {p:g}" for p in PREVALENCES)
        lines += [head + " | OPS range |", "|" + "---|" * (len(PREVALENCES) + 3)]
        for quantity, q in block.groupby("quantity", sort=False):
            q = q.set_index("prevalence")
            cells = [f"{q.loc[p, 'value']:.3f} / {q.loc[p, 'ops']:.3f}" for p in PREVALENCES]
            says = str(q["invariant"].iloc[0])
            lines.append(
                f"| {quantity} | {says} | "
                + " | ".join(cells)
                + f" | {q['ops'].max() - q['ops'].min():.3f} |"
            )
    flips = df[df["table"] == "flips"]
    lines += [
        "",
        "## Pairs whose order flips between prevalence 0.01 and 0.95",
        "",
        "20,000 random pairs of (alpha, beta) points, uniform on the unit square (seed 7): "
        "the share whose order by the metric at prevalence 0.01 is the reverse of their "
        "order at 0.95. Zero for every metric the registry calls invariant.",
        "",
        "| metric | invariant | share flipped |",
        "|---|---|---|",
    ]
    for _, r in flips.iterrows():
        lines.append(f"| {r['quantity']} | {r['invariant']} | {r['value']:.4f} |")
    Path(path).write_text("\n".join(lines) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=None, help="CSV output path")
    parser.add_argument("--md", default=None, help="Markdown output path")
    parser.add_argument("--render", default=None, metavar="CSV")
    args = parser.parse_args(argv)
    if args.render:
        if not args.md:
            parser.error("--render needs --md")
        write_markdown(pd.read_csv(args.render, keep_default_na=False, na_values=[""]), args.md)
        return 0
    c0 = time.process_time()
    df = pd.DataFrame(rows())
    df["command"] = "python benchmarks/prevalence_drift.py " + " ".join(argv or sys.argv[1:])
    df["date"] = datetime.date.today().isoformat()
    df["version"] = opsstats.__version__
    df["cpu_seconds"] = time.process_time() - c0
    if args.out:
        df.to_csv(args.out, index=False, float_format="%.10g")
    if args.md:
        source = pd.read_csv(args.out, keep_default_na=False, na_values=[""]) if args.out else df
        write_markdown(source, args.md)
    print(
        df[df["table"] == "drift"]
        .pivot_table(index=["classifier", "quantity"], columns="prevalence", values="ops")
        .round(3)
        .to_string()
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
