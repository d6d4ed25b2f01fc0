"""Coverage of the macro-OPS interval for multi-label data.

L = 4 labels with independent data: prevalences (0.05, 0.15, 0.30, 0.50), error rates
alpha = (0.10, 0.20, 0.15, 0.25), beta = (0.30, 0.20, 0.25, 0.15). For each test set of
n rows, the 95% intervals of the macro OPS of F1 (Uniform reference) by the row
bootstrap (the default; keeps the dependence between labels) and by per-label
Dirichlet draws (assumes independent labels, true here) are checked against the truth.

The truth is the estimand of both methods, the macro OPS at each label's observed
prevalence: mean_l OPS(F1(pi_hat_l, alpha_l, beta_l); pi_hat_l). Test sets in which a
label has no positives are counted and reported (the aggregate then leaves that label
out, which changes the estimand; they are excluded from the coverage and the count is
printed).

Run: ``python benchmarks/multilabel_coverage.py --reps 1000 --out benchmarks/results/multilabel_coverage.md``
"""

from __future__ import annotations

import argparse
import time
import warnings
from datetime import date

import numpy as np

import opsstats
from opsstats import ConfusionMatrix, MultiLabel, Uniform

PREV = np.array([0.05, 0.15, 0.30, 0.50])
ALPHA = np.array([0.10, 0.20, 0.15, 0.25])
BETA = np.array([0.30, 0.20, 0.25, 0.15])


def truth(pis: np.ndarray) -> float:
    uni = Uniform()
    return float(
        np.mean(
            [
                uni.ops(
                    "f1",
                    ConfusionMatrix.from_rates(
                        n=1, prevalence=pis[j], alpha=ALPHA[j], beta=BETA[j]
                    ).metric("f1"),
                    prevalence=pis[j],
                ).estimate
                for j in range(len(PREV))
            ]
        )
    )


def run(n: int, reps: int, resamples: int, rng: np.random.Generator) -> dict[str, object]:
    hits = {"bootstrap": 0, "dirichlet": 0}
    width = {"bootstrap": 0.0, "dirichlet": 0.0}
    skipped = 0
    for _ in range(reps):
        y = rng.random((n, len(PREV))) < PREV
        if (y.sum(0) == 0).any() or (y.sum(0) == n).any():
            skipped += 1
            continue
        flip = np.where(y, rng.random(y.shape) < BETA, rng.random(y.shape) < ALPHA)
        ml = MultiLabel.from_predictions(y, y ^ flip)
        target = truth(y.mean(0))
        for method in hits:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                r = ml.ops("f1", ci=method, n_resamples=resamples, rng=rng)
            hits[method] += r.ci.low <= target <= r.ci.high
            width[method] += r.ci.high - r.ci.low
    used = reps - skipped
    return {
        "n": n,
        "used": used,
        "skipped": skipped,
        **{f"{m}_coverage": hits[m] / used for m in hits},
        **{f"{m}_se": np.sqrt(hits[m] / used * (1 - hits[m] / used) / used) for m in hits},
        **{f"{m}_width": width[m] / used for m in hits},
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=1000)
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--sizes", type=int, nargs="+", default=[300, 1000, 5000])
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    t0 = time.perf_counter()
    results = [run(n, args.reps, args.resamples, rng) for n in args.sizes]
    lines = [
        "# Coverage of the 95% interval of the macro OPS(F1), 4 labels",
        "",
        f"opsstats {opsstats.__version__}, {date.today()}, command: `python "
        f"benchmarks/multilabel_coverage.py --reps {args.reps} --resamples "
        f"{args.resamples} --sizes {' '.join(map(str, args.sizes))} --seed {args.seed}`.",
        f"Prevalences {PREV.tolist()}, alpha {ALPHA.tolist()}, beta {BETA.tolist()}; "
        "labels independent. Truth: macro OPS at the observed prevalences.",
        "",
        "| n | test sets used | skipped (a label without positives) | row bootstrap "
        "coverage (s.e.) | mean width | Dirichlet per label coverage (s.e.) | "
        "mean width |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in results:
        lines.append(
            f"| {r['n']} | {r['used']} | {r['skipped']} | "
            f"{100 * r['bootstrap_coverage']:.1f}% ({100 * r['bootstrap_se']:.1f}) | "
            f"{r['bootstrap_width']:.4f} | {100 * r['dirichlet_coverage']:.1f}% "
            f"({100 * r['dirichlet_se']:.1f}) | {r['dirichlet_width']:.4f} |"
        )
    lines += ["", f"Runtime {time.perf_counter() - t0:.0f} s."]
    text = "\n".join(lines)
    print(text)
    if args.out:
        with open(args.out, "w") as fh:
            fh.write(text + "\n")


if __name__ == "__main__":
    main()
