"""Benchmark: a weighted ScoreCurve at 1e7 rows (target: within 1.5x of the
unweighted path).

Times, in one run and on the same data (continuous scores, 30% positives, exponential
weights): ``np.argsort`` of the scores (the yardstick of earlier benchmarks),
``ScoreCurve.from_scores`` without and with ``sample_weight``, the same weighted call
with integer-valued scores in an int64 array (which take the path of every weighted
call before this change: an ``argsort`` per class, gathers and a merge), and
scikit-learn's ``roc_curve`` with ``sample_weight`` (the peer). The weighted curve is
checked against scikit-learn's. Best of ``--repeat`` runs.

Run: ``nice python benchmarks/bench_weighted_curve.py [--rows 10000000]``
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from sklearn.metrics import roc_curve

from opsstats import ScoreCurve


def best(f, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=10_000_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    n = args.rows
    y = (rng.random(n) < 0.3).astype(np.int8)
    s = rng.normal(y * 1.0, 1.0)
    w = rng.exponential(1.0, n)

    t_argsort = best(lambda: np.argsort(s), args.repeat)
    t_plain = best(lambda: ScoreCurve.from_scores(y, s), args.repeat)
    t_weighted = best(lambda: ScoreCurve.from_scores(y, s, sample_weight=w), args.repeat)
    s_int = np.round(s * 2**20).astype(np.int64)  # the same order, as integers
    t_before = best(lambda: ScoreCurve.from_scores(y, s_int, sample_weight=w), args.repeat)
    t_sk = best(lambda: roc_curve(y, s, sample_weight=w, drop_intermediate=False), 1)

    curve = ScoreCurve.from_scores(y, s, sample_weight=w).roc()
    fpr, tpr, thr = roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    same_thr = np.array_equal(curve["threshold"].to_numpy(), thr)
    err = max(
        np.abs(curve["fpr"].to_numpy() - fpr).max(), np.abs(curve["tpr"].to_numpy() - tpr).max()
    )

    print(
        f"Run at {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} on a shared 2-core "
        f"machine (other jobs running); {n:,} rows, best of {args.repeat} "
        "(scikit-learn: one run)."
    )
    print()
    print("| what | seconds | / np.argsort | / unweighted from_scores |")
    print("|---|---:|---:|---:|")
    for text, t in (
        ("np.argsort(scores)", t_argsort),
        ("ScoreCurve.from_scores, unweighted", t_plain),
        (
            "ScoreCurve.from_scores, sample_weight (this change: one complex sort)",
            t_weighted,
        ),
        (
            "the same, int64 scores (the path before this change: argsort per class, merge)",
            t_before,
        ),
        ("sklearn.metrics.roc_curve, sample_weight", t_sk),
    ):
        print(f"| {text} | {t:.2f} | {t / t_argsort:.2f} | {t / t_plain:.2f} |")
    print()
    ratio = t_weighted / t_plain
    print(
        f"Weighted / unweighted: {ratio:.2f} (target at most 1.5: "
        f"{'met' if ratio <= 1.5 else 'NOT met'}); by the path before this change "
        f"{t_before / t_plain:.2f}."
    )
    print(
        f"Weighted curve vs scikit-learn's roc_curve: thresholds identical: {same_thr}; "
        f"largest |difference| in FPR and TPR: {err:.1e}."
    )


if __name__ == "__main__":
    main()
