"""Benchmark: the vocabulary of pROC and scikit-learn against scikit-learn, in the same run.

- partial AUC: ``ScoreCurve.from_scores(y, s).partial_auc(fpr_range=(0, 0.1),
  correct=True)`` against ``roc_auc_score(y, s, max_fpr=0.1)`` (n = 1e5, 1e6);
- multi-class AUC: ``multiclass_roc_auc(y, P, multi_class="ovo")`` (Hand-Till) and
  ``"ovr"`` against ``roc_auc_score(y, P, multi_class=...)`` (n = 1e5, K = 5);
- DET curve: ``ScoreCurve.det()`` (curve built in the timing) against ``det_curve``;
- Gorodkin R_K and quadratic kappa against ``matthews_corrcoef`` and
  ``cohen_kappa_score(weights="quadratic")`` (n = 1e6, K = 5).

Best of ``--repeat`` wall-clock runs, the ratio sklearn / ours (> 1: we are faster) and
a check that the values agree. Target: no slower than scikit-learn (ratio >= 1).

Run: python benchmarks/bench_vocabulary.py --repeat 5 > benchmarks/results/bench_vocabulary.md
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from sklearn.metrics import cohen_kappa_score, det_curve, matthews_corrcoef, roc_auc_score

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from opsstats import ScoreCurve
from opsstats.curves.multiclass import multiclass_roc_auc
from opsstats.metrics.multiclass import cohen_kappa, multiclass_mcc


def best(f, repeat):
    times, value = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        value = f()
        times.append(time.perf_counter() - t)
    return min(times), value


def row(name, ours, peer, repeat, check):
    t_o, v_o = best(ours, repeat)
    t_p, v_p = best(peer, repeat)
    ok = check(v_o, v_p)
    print(f"| {name} | {t_o:.4f} | {t_p:.4f} | {t_p / t_o:.2f} | {'yes' if ok else 'NO'} |")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    close = lambda a, b: abs(a - b) < 1e-10  # noqa: E731
    print("| task | ours s | sklearn s | sklearn / ours | same value |")
    print("|---|---:|---:|---:|---|")
    for n in (10**5, 10**6):
        y = rng.random(n) < 0.1
        s = rng.normal(y * 1.0, 1)
        row(
            f"partial AUC FPR 0-0.1 McClish, n={n:.0e}",
            lambda y=y, s=s: ScoreCurve.from_scores(y, s).partial_auc(
                fpr_range=(0, 0.1), correct=True
            ),
            lambda y=y, s=s: roc_auc_score(y, s, max_fpr=0.1),
            args.repeat,
            close,
        )
        row(
            f"DET curve, n={n:.0e}",
            lambda y=y, s=s: ScoreCurve.from_scores(y, s).det(),
            lambda y=y, s=s: det_curve(y, s),
            args.repeat,
            lambda a, b: np.allclose(a["fpr"], b[0]) and np.allclose(a["fnr"], b[1]),
        )
    n, K = 10**5, 5
    y = rng.integers(0, K, n)
    logits = rng.normal(0, 1, (n, K)) + 1.5 * np.eye(K)[y]
    P = np.exp(logits) / np.exp(logits).sum(1, keepdims=True)
    for mc in ("ovo", "ovr"):
        row(
            f"multi-class AUC {mc}, n={n:.0e}, K={K}",
            lambda mc=mc: multiclass_roc_auc(y, P, multi_class=mc),
            lambda mc=mc: roc_auc_score(y, P, multi_class=mc),
            args.repeat,
            close,
        )
    n = 10**6
    yt = rng.integers(0, K, n)
    yp = np.where(rng.random(n) < 0.6, yt, rng.integers(0, K, n))
    row(
        f"Gorodkin R_K, n={n:.0e}",
        lambda: multiclass_mcc(yt, yp),
        lambda: matthews_corrcoef(yt, yp),
        args.repeat,
        close,
    )
    row(
        f"quadratic kappa, n={n:.0e}",
        lambda: cohen_kappa(yt, yp, weights="quadratic"),
        lambda: cohen_kappa_score(yt, yp, weights="quadratic"),
        args.repeat,
        close,
    )


if __name__ == "__main__":
    main()
