"""Benchmark: comparing two paired classifiers, opsstats against R's pROC ``roc.test``.

In one run, on simulated paired scores (per class bivariate normal, unit variances,
correlation 0.5; positives' means 1.0 and 0.9; prevalence 0.1; continuous, all distinct),
written to a temporary CSV that both tools read:

1. **DeLong's paired test at n = 1e6**: ``opsstats.compare(y, {"A": a, "B": b})`` from the
   raw arrays (both curves built inside the timing) against pROC's
   ``roc.test(r1, r2, method="delong", paired=TRUE)`` (median of 3), whose time excludes
   building the two roc objects (``roc()``, timed separately and shown). Target: faster.
   Two ratios are printed: from the raw data (pROC's ``roc()`` + ``roc.test``), which
   is what both tools do for a user with two score columns, and ``roc.test`` alone on
   roc objects pROC has already built (sorted), against ours, which sorts inside (the
   two classifiers' placements in two threads from 100,000 rows).
2. **The paired stratified bootstrap, 2000 resamples, at n = 1e5**:
   ``compare(..., method="bootstrap", n_resamples=2000)`` against pROC's
   ``roc.test(r1, r2, method="bootstrap", paired=TRUE)`` timed with ``--proc-resamples``
   (default 100) resamples and **extrapolated linearly to 2000** (each resample costs the
   same: two roc curves of n rows). Target: at least 20x faster.

Times are wall-clock (``time.perf_counter`` for ours, best of ``--repeat``; R's
``system.time`` inside the R script, so R's startup and the CSV read are excluded). On a
shared 2-core machine single timings vary with the load; the ratios are of timings taken
in the same run. The statistics of both tools are printed beside the times: DeLong's Z
agrees to 1e-9, the bootstrap D within Monte Carlo error.

Run from the repository root (the committed output is
``benchmarks/results/bench_compare.txt``)::

    nice -n 10 python benchmarks/bench_compare.py | tee benchmarks/results/bench_compare.txt
"""

from __future__ import annotations

import argparse
import json
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import opsstats
from opsstats import compare


def simulate(n: int, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = np.zeros(n, dtype=int)
    y[: n // 10] = 1
    z = rng.standard_normal((n, 2))
    z[:, 1] = 0.5 * z[:, 0] + np.sqrt(0.75) * z[:, 1]
    return pd.DataFrame({"y_true": y, "score_a": z[:, 0] + y, "score_b": z[:, 1] + 0.9 * y})


def best(fn, repeat: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return min(times), out


def proc(csv: Path, method: str, boot_n: int) -> dict | None:
    if shutil.which("Rscript") is None:
        return None
    cmd = [
        "Rscript",
        str(ROOT / "benchmarks" / "proc_compare_timing.R"),
        "--csv",
        str(csv),
        "--method",
        method,
        "--boot_n",
        str(boot_n),
    ]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--proc-resamples", type=int, default=100)
    ap.add_argument("--no-r", action="store_true")
    args = ap.parse_args()
    print(
        f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC; opsstats {opsstats.__version__}, "
        f"numpy {np.__version__}, Python {platform.python_version()}; "
        f"load average {' '.join(f'{x:.2f}' for x in __import__('os').getloadavg())}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        # 1. DeLong at n = 1e6
        d = simulate(10**6, 1)
        path = Path(tmp) / "paired_1e6.csv"
        d.to_csv(path, index=False)
        y, a, b = (d[c].to_numpy() for c in ("y_true", "score_a", "score_b"))
        t_ours, r = best(lambda: compare(y, {"A": a, "B": b}), args.repeat)
        print("\n1. DeLong paired test, n = 1e6 (prevalence 0.1)")
        print(
            f"   opsstats.compare (curves built inside): {t_ours:8.3f} s   Z = {r.statistic:.10f}"
        )
        pr = None if args.no_r else proc(path, "delong", 0)
        if pr:
            print(
                f"   {pr['tool']} roc.test(delong):           {pr['seconds_test']:8.3f} s   "
                f"Z = {pr['statistic']:.10f}  (+ {pr['seconds_roc']:.3f} s for the two roc())"
            )
            print(
                f"   ratio pROC / opsstats: {pr['seconds_test'] / t_ours:.1f}x (roc.test alone), "
                f"{(pr['seconds_test'] + pr['seconds_roc']) / t_ours:.1f}x (with roc())"
            )
        # 2. bootstrap at n = 1e5
        d = simulate(10**5, 2)
        path = Path(tmp) / "paired_1e5.csv"
        d.to_csv(path, index=False)
        y, a, b = (d[c].to_numpy() for c in ("y_true", "score_a", "score_b"))
        t_ours, r = best(
            lambda: compare(y, {"A": a, "B": b}, method="bootstrap", n_resamples=2000, rng=0),
            args.repeat,
        )
        print("\n2. Paired stratified bootstrap, 2000 resamples, n = 1e5 (prevalence 0.1)")
        print(f"   opsstats.compare(method='bootstrap'):   {t_ours:8.3f} s   D = {r.statistic:.4f}")
        pr = None if args.no_r else proc(path, "bootstrap", args.proc_resamples)
        if pr:
            k = 2000 / args.proc_resamples
            t_proc = pr["seconds_test"] * k
            print(
                f"   {pr['tool']} roc.test(bootstrap), {args.proc_resamples} resamples: "
                f"{pr['seconds_test']:.3f} s -> {t_proc:.1f} s for 2000 (x{k:g}); "
                f"D = {pr['statistic']:.4f}"
            )
            print(f"   ratio pROC / opsstats: {t_proc / t_ours:.1f}x (target >= 20x)")


if __name__ == "__main__":
    main()
