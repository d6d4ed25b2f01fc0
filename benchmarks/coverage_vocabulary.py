"""Coverage of the intervals of pROC's vocabulary: the partial ROC AUC (stratified
bootstrap percentile, exact jackknife normal) and the sensitivity at a fixed threshold
(the ci.thresholds bootstrap), on binormal data whose true values are known.

Design: positives N(mu, 1), negatives N(0, 1), mu = 1.2; prevalence 0.3; n = 100, 300,
1000 rows; partial AUC over FPR 0-0.2, raw (McClish is affine, so it covers alike).
True pAUC = integral_0^0.2 Phi(mu + Phi^-1(f)) df (quadrature); true sensitivity at the
threshold 1.0 = Phi(mu - 1.0). Each cell: ``--reps`` test sets (default 1000),
bootstrap 1000 resamples; coverage with its binomial standard error. About 3 CPU
minutes at the defaults.

``--part best``: the best (Youden) threshold re-selected in every resample and the
sensitivity and specificity there (pROC's ``ci.coords(x="best")``,
:func:`opsstats.uncertainty.curve.best.best_threshold_interval`), against the true
optimum of the binormal model, t* = mu / 2, se = Phi(mu / 2), sp = Phi(mu / 2).

Run: python benchmarks/coverage_vocabulary.py --reps 1000 --out benchmarks/results/coverage_vocabulary.md
     python benchmarks/coverage_vocabulary.py --part best --reps 500 --out benchmarks/results/coverage_vocabulary_best.md
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from scipy import integrate, stats

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from opsstats import ScoreCurve
from opsstats.uncertainty.curve.best import best_threshold_interval, threshold_interval

MU, PREV, FPR_HI, THRESHOLD = 1.2, 0.3, 0.2, 1.0


def true_pauc() -> float:
    return integrate.quad(
        lambda f: stats.norm.cdf(MU + stats.norm.ppf(f)) if f > 0 else 0.0, 0, FPR_HI, epsabs=1e-13
    )[0]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=1000)
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=20261124)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--part", choices=("pauc", "best"), default="pauc")
    args = ap.parse_args()
    if args.part == "best":
        best_part(args)
        return
    rng = np.random.default_rng(args.seed)
    target_pauc = true_pauc()
    target_se = float(stats.norm.cdf(MU - THRESHOLD))
    rows = []
    t0 = time.perf_counter()
    for n in (100, 300, 1000):
        n_pos = round(PREV * n)
        hits = {
            "pAUC bootstrap percentile": 0,
            "pAUC jackknife normal": 0,
            "se at threshold, bootstrap (ci.thresholds)": 0,
        }
        for _ in range(args.reps):
            y = np.repeat([1, 0], [n_pos, n - n_pos])
            s = np.concatenate([rng.normal(MU, 1, n_pos), rng.normal(0, 1, n - n_pos)])
            c = ScoreCurve.from_scores(y, s)
            b = c.interval(
                "roc_pauc",
                fpr_range=(0, FPR_HI),
                method="bootstrap",
                n_resamples=args.resamples,
                rng=rng,
            )
            j = c.interval("roc_pauc", fpr_range=(0, FPR_HI), method="jackknife")
            t = threshold_interval(c, [THRESHOLD], n_resamples=args.resamples, rng=rng)
            hits["pAUC bootstrap percentile"] += b.ci.low <= target_pauc <= b.ci.high
            hits["pAUC jackknife normal"] += j.ci.low <= target_pauc <= j.ci.high
            lo, hi = t["sensitivity_low"].iloc[0], t["sensitivity_high"].iloc[0]
            hits["se at threshold, bootstrap (ci.thresholds)"] += lo <= target_se <= hi
        for name, h in hits.items():
            p = h / args.reps
            rows.append((name, n, n_pos, p, np.sqrt(p * (1 - p) / args.reps)))
    elapsed = time.perf_counter() - t0
    lines = [
        "# Coverage of the intervals of pROC's vocabulary (nominal 95%)",
        "",
        f"Binormal scores, positives N({MU}, 1), negatives N(0, 1), prevalence {PREV}; "
        f"true pAUC(FPR 0-{FPR_HI}) = {target_pauc:.6f}, true sensitivity at threshold "
        f"{THRESHOLD} = {target_se:.6f}. {args.reps} test sets per row, "
        f"{args.resamples} bootstrap resamples, seed {args.seed}; {elapsed:.0f} s.",
        "",
        "| interval | n | positives | coverage | s.e. |",
        "|---|---:|---:|---:|---:|",
    ]
    lines += [f"| {r[0]} | {r[1]} | {r[2]} | {r[3]:.3f} | {r[4]:.3f} |" for r in rows]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        args.out.write_text(text)


def best_part(args: argparse.Namespace) -> None:
    rng = np.random.default_rng(args.seed)
    truth = {
        "threshold": MU / 2,
        "sensitivity": stats.norm.cdf(MU / 2),
        "specificity": stats.norm.cdf(MU / 2),
    }
    rows = []
    t0 = time.perf_counter()
    for n in (100, 300, 1000):
        n_pos = round(PREV * n)
        hits = dict.fromkeys(truth, 0)
        for _ in range(args.reps):
            y = np.repeat([1, 0], [n_pos, n - n_pos])
            s = np.concatenate([rng.normal(MU, 1, n_pos), rng.normal(0, 1, n - n_pos)])
            r = best_threshold_interval(
                ScoreCurve.from_scores(y, s), n_resamples=args.resamples, rng=rng
            )
            for name, value in truth.items():
                hits[name] += r.loc[name, "low"] <= value <= r.loc[name, "high"]
        for name, h in hits.items():
            p = h / args.reps
            rows.append((name, n, n_pos, p, np.sqrt(p * (1 - p) / args.reps)))
    elapsed = time.perf_counter() - t0
    lines = [
        '# Coverage of the re-selected best threshold\'s bootstrap (pROC ci.coords(x="best"))',
        "",
        f"Binormal scores, positives N({MU}, 1), negatives N(0, 1), prevalence {PREV}; "
        f"Youden's optimum t* = {MU / 2}, se = sp = {truth['sensitivity']:.6f}. "
        f"{args.reps} test sets per row, {args.resamples} resamples, ties at random, "
        f"seed {args.seed}; {elapsed:.0f} s. Nominal 95%.",
        "",
        "| quantity at the best threshold | n | positives | coverage | s.e. |",
        "|---|---:|---:|---:|---:|",
    ]
    lines += [f"| {r[0]} | {r[1]} | {r[2]} | {r[3]:.3f} | {r[4]:.3f} |" for r in rows]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        args.out.write_text(text)


if __name__ == "__main__":
    main()
