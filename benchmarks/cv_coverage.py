"""Coverage of cross_evaluate's combined intervals, by simulation.

The data: five standard normal features, a logistic model with prevalence about 0.15. The
procedure: ``LogisticRegression()`` fitted on the training rows and predicting at 0.5. The
target of a K-fold cross-validation of n rows is the expected performance of the
procedure trained on n (K - 1) / K rows: the mean, over ``--truth-fits`` independent
training sets of that size, of the OPS of F1 (and MCC) of the fitted model's population
rates at the population prevalence, computed on one independent sample of 200,000 rows
(with its Monte Carlo standard error). Each repetition draws n rows, runs
``cross_evaluate`` with an unstratified ``KFold`` (fold prevalences vary), and checks
whether the ``mean`` (Nadeau-Bengio corrected t) and ``pooled`` intervals of the OPS
cover the target.

    PYTHONPATH=. python benchmarks/cv_coverage.py --reps 400 --write

writes benchmarks/results/cv_coverage.md.
"""

from __future__ import annotations

import argparse
import time
import warnings
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import KFold

from opsstats import ConfusionMatrix
from opsstats.sklearn import cross_evaluate

BETA = np.array([1.0, -0.8, 0.6, 0.4, 0.0])
INTERCEPT = -2.3
METRICS = ("f1", "mcc")


def draw(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    X = rng.normal(size=(n, BETA.size))
    p = 1 / (1 + np.exp(-(INTERCEPT + X @ BETA)))
    return X, (rng.random(n) < p).astype(int)


def target(n_train: int, fits: int, rng: np.random.Generator) -> dict[str, tuple[float, float]]:
    """Expected OPS of the procedure trained on n_train rows, with its MC s.e."""
    X_big, y_big = draw(200_000, rng)
    values: dict[str, list[float]] = {m: [] for m in METRICS}
    for _ in range(fits):
        X, y = draw(n_train, rng)
        pred = LogisticRegression().fit(X, y).predict(X_big)
        cm = ConfusionMatrix.from_predictions(y_big, pred)
        for m in METRICS:
            values[m].append(cm.ops(m).estimate)
    return {
        m: (float(np.mean(v)), float(np.std(v, ddof=1) / np.sqrt(len(v))))
        for m, v in values.items()
    }


def run(n: int, k: int, reps: int, fits: int, seed: int) -> list[dict]:
    rng = np.random.default_rng(seed)
    truth = target(n * (k - 1) // k, fits, rng)
    hits = {(m, c): 0 for m in METRICS for c in ("mean", "pooled")}
    widths = {key: [] for key in hits}
    undefined = 0
    for r in range(reps):
        X, y = draw(n, rng)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = cross_evaluate(
                LogisticRegression(),
                X,
                y,
                cv=KFold(k, shuffle=True, random_state=r),
                metrics=list(METRICS),
                rng=r,
                n_resamples=500,
            )
        for _, row in res.combined.iterrows():
            key = (row["metric"], row["combine"])
            lo, hi = row["ops_ci_low"], row["ops_ci_high"]
            if not (np.isfinite(lo) and np.isfinite(hi)):
                undefined += 1
                continue
            hits[key] += lo <= truth[row["metric"]][0] <= hi
            widths[key].append(hi - lo)
    out = []
    for (m, c), h in hits.items():
        cov = h / reps
        out.append(
            {
                "n": n,
                "k": k,
                "metric": m,
                "combine": c,
                "target": truth[m][0],
                "target_se": truth[m][1],
                "coverage": cov,
                "coverage_se": np.sqrt(cov * (1 - cov) / reps),
                "mean_width": float(np.mean(widths[(m, c)])),
                "undefined": undefined,
            }
        )
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=400)
    ap.add_argument("--fits", type=int, default=300)
    ap.add_argument("--sizes", type=int, nargs="+", default=[200, 1000])
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    start = time.time()
    rows = []
    for i, n in enumerate(args.sizes):
        rows += run(n, 5, args.reps, args.fits, seed=100 + i)
    lines = [
        "# Coverage of cross_evaluate's combined OPS intervals",
        "",
        f"`PYTHONPATH=. python benchmarks/cv_coverage.py --reps {args.reps} --fits {args.fits}"
        f" --sizes {' '.join(map(str, args.sizes))} --write` ({time.time() - start:.0f} s). "
        "Logistic data (5 features, prevalence about 0.15), `LogisticRegression()` at 0.5, "
        "unstratified 5-fold `KFold` (fold prevalences vary). Target: the expected OPS of the "
        f"procedure trained on 4n/5 rows ({args.fits} independent fits, each scored on "
        "200,000 fresh rows; its MC s.e. beside it). Nominal 95%.",
        "",
        "| n | metric | combine | target (s.e.) | coverage (s.e.) | mean width |",
        "|---:|---|---|---|---|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['n']} | {r['metric']} | {r['combine']} | {r['target']:.4f} ({r['target_se']:.4f})"
            f" | {100 * r['coverage']:.1f}% ({100 * r['coverage_se']:.1f}) | {r['mean_width']:.4f} |"
        )
    text = "\n".join(lines) + "\n"
    print(text)
    if args.write:
        Path(__file__).parent.joinpath("results", "cv_coverage.md").write_text(text)


if __name__ == "__main__":
    main()
