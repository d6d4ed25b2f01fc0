"""Benchmark: building a ScoreCurve and reading ROC AUC, PR AUC and a point value,
against numpy's ``argsort`` of the same scores and against scikit-learn.

For n = 1e5, 1e6 and 1e7 rows (prevalence 0.1, float64 continuous scores, boolean
labels) it times, in the same run and interleaved so that all three see the same
machine load:

- ours:    ``ScoreCurve.from_scores(y, s)`` then ``.auc("roc")``, ``.auc("pr")`` and
           ``.value_at("precision", at={"recall": 0.9})``;
- argsort: ``np.argsort(s)`` (numpy's default quicksort), the cost of one sort with an
           index array;
- sklearn: ``roc_curve(y, s)`` + ``roc_auc_score(y, s)`` + ``average_precision_score(y,
           s)``;

reporting the best of ``--repeat`` runs (and the median) and the ratios, plus the peak
memory allocated during each (``tracemalloc``, which numpy reports to) relative to the
input's size (scores float64 + labels). It also checks that our two AUCs equal
scikit-learn's. Targets at n = 1e7: no slower than the argsort, at least 8x faster than
the three scikit-learn calls, peak memory under 10x the input.

Run from the repository root::

    python benchmarks/bench_curve.py                 # all sizes (about 2 minutes)
    python benchmarks/bench_curve.py --sizes 1e5 1e6 --repeat 3

Notes on this machine (a 2-core VM shared with other jobs): first touches of freshly
mapped memory are slow and irregular here, so single timings vary by up to 2x; the best
of several runs is the stable figure. ``OPENBLAS_CORETYPE`` may be set in the
environment; it does not affect sorting. Timings are wall-clock
(``time.perf_counter``).

Measured output (2-core VM, 2026-11-22).

Full run, while other jobs kept the 2 cores busy (load average 2.9)::

    numpy 2.4.6, scikit-learn 1.9.1, Python 3.11.7

    n = 1e+05 (input 1 MiB: float64 scores + bool labels); ROC AUC 0.854734, AP 0.479241, precision@recall0.9 0.194858
                 best s  median s  runs  peak mem
      ours        0.004     0.008     5      3.8x
      argsort     0.002     0.002     5      0.9x
      sklearn     0.126     0.129     5      8.9x
      argsort / ours = 0.40 (target >= 1 at 1e7); sklearn / ours = 31.6 (target >= 8); ours peak memory 3.8x input (target < 10)

    n = 1e+06 (input 9 MiB: float64 scores + bool labels); ROC AUC 0.856365, AP 0.479389, precision@recall0.9 0.196856
                 best s  median s  runs  peak mem
      ours        0.050     0.054     5      3.7x
      argsort     0.039     0.041     5      0.9x
      sklearn     0.972     1.028     5      8.9x
      argsort / ours = 0.78 (target >= 1 at 1e7); sklearn / ours = 19.5 (target >= 8); ours peak memory 3.7x input (target < 10)

    n = 1e+07 (input 86 MiB: float64 scores + bool labels); ROC AUC 0.855631, AP 0.478218, precision@recall0.9 0.194759
                 best s  median s  runs  peak mem
      ours        0.533     0.899     5      3.7x
      argsort     0.709     1.013     5      0.9x
      sklearn    14.059    16.323     2      8.9x
      argsort / ours = 1.33 (target >= 1 at 1e7); sklearn / ours = 26.4 (target >= 8); ours peak memory 3.7x input (target < 10)

``--sizes 1e7`` alone, on a quieter machine (load average 0.75)::

    n = 1e+07 (input 86 MiB: float64 scores + bool labels); ROC AUC 0.855631, AP 0.478218, precision@recall0.9 0.194759
                 best s  median s  runs  peak mem
      ours        0.339     0.345     5      3.7x
      argsort     0.676     0.703     5      0.9x
      sklearn    11.817    12.250     2      8.9x
      argsort / ours = 1.99 (target >= 1 at 1e7); sklearn / ours = 34.8 (target >= 8); ours peak memory 3.7x input (target < 10)
"""

from __future__ import annotations

import argparse
import gc
import platform
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np
import sklearn
from sklearn.metrics import average_precision_score, roc_auc_score, roc_curve

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from opsstats.curves import ScoreCurve


def make_data(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.1  # prevalence 0.1, boolean labels
    s = rng.normal(size=n) + 1.5 * y  # float64, continuous (all distinct)
    return y, s


def ours(y: np.ndarray, s: np.ndarray) -> tuple[float, float, float]:
    curve = ScoreCurve.from_scores(y, s)
    return (curve.auc("roc"), curve.auc("pr"), curve.value_at("precision", at={"recall": 0.9}))


def numpy_argsort(y: np.ndarray, s: np.ndarray) -> None:
    np.argsort(s)


def scikit_learn(y: np.ndarray, s: np.ndarray) -> tuple[float, float]:
    roc_curve(y, s)
    return roc_auc_score(y, s), average_precision_score(y, s)


def timed(f, y, s) -> float:
    gc.collect()
    t0 = time.perf_counter()
    f(y, s)
    return time.perf_counter() - t0


def peak_bytes(f, y, s) -> int:
    """Peak memory allocated during f(y, s), beyond what was held before."""
    gc.collect()
    tracemalloc.start()
    base, _ = tracemalloc.get_traced_memory()
    tracemalloc.reset_peak()
    f(y, s)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak - base


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", type=float, default=[1e5, 1e6, 1e7])
    parser.add_argument(
        "--repeat",
        type=int,
        default=5,
        help="timed runs of ours and argsort (scikit-learn: fewer at 1e7)",
    )
    args = parser.parse_args()
    print(
        f"numpy {np.__version__}, scikit-learn {sklearn.__version__}, Python "
        f"{platform.python_version()}"
    )
    ours(*make_data(1000))  # imports, first-call costs
    for n in map(int, args.sizes):
        y, s = make_data(n)
        input_bytes = y.nbytes + s.nbytes
        roc, pr, p90 = ours(y, s)
        sk_roc, sk_ap = scikit_learn(y, s)
        assert abs(roc - sk_roc) < 1e-12 and abs(pr - sk_ap) < 1e-12, (roc, sk_roc, pr, sk_ap)
        sk_repeat = args.repeat if n < 5_000_000 else max(2, args.repeat // 2)
        times: dict[str, list[float]] = {"ours": [], "argsort": [], "sklearn": []}
        for r in range(args.repeat):  # interleaved
            times["ours"].append(timed(ours, y, s))
            times["argsort"].append(timed(numpy_argsort, y, s))
            if r < sk_repeat:
                times["sklearn"].append(timed(scikit_learn, y, s))
        best = {k: min(v) for k, v in times.items()}
        med = {k: float(np.median(v)) for k, v in times.items()}
        mem = {
            k: peak_bytes(f, y, s) / input_bytes
            for k, f in (("ours", ours), ("argsort", numpy_argsort), ("sklearn", scikit_learn))
        }
        print(
            f"\nn = {n:.0e} (input {input_bytes / 2**20:.0f} MiB: float64 scores + bool "
            f"labels); ROC AUC {roc:.6f}, AP {pr:.6f}, precision@recall0.9 {p90:.6f}"
        )
        print(f"  {'':8s} {'best s':>8s} {'median s':>9s} {'runs':>5s} {'peak mem':>9s}")
        for k in times:
            print(f"  {k:8s} {best[k]:8.3f} {med[k]:9.3f} {len(times[k]):5d} {mem[k]:8.1f}x")
        print(
            f"  argsort / ours = {best['argsort'] / best['ours']:.2f} (target >= 1 at "
            f"1e7); sklearn / ours = {best['sklearn'] / best['ours']:.1f} (target >= 8); "
            f"ours peak memory {mem['ours']:.1f}x input (target < 10)"
        )


if __name__ == "__main__":
    main()
