"""Benchmark: curve intervals (bootstrap and DeLong) against scikit-learn and pROC, and a
Dirichlet confusion-matrix interval.

At n = 1e5 rows (prevalence 0.1, binormal continuous scores: positives N(1.5, 1),
negatives N(0, 1), all distinct), in one run:

1. **Stratified bootstrap, 2000 resamples, of ROC AUC and PR AUC** (two intervals,
   each from its own 2000 resamples), from the raw arrays (the curve is built inside
   the timing): ``curve.interval("roc_auc", method="bootstrap", n_resamples=2000)``
   and ``curve.interval("pr_auc", method="bootstrap", n_resamples=2000)`` (the
   percentile interval; ``interval="logit-t"`` reads the same resamples), against

   - a plain scikit-learn loop: resample rows within each class (``rng.integers``),
     then ``roc_auc_score`` + ``average_precision_score`` on the resampled rows. It is
     timed on ``--sk-resamples`` (default 100) resamples and **extrapolated linearly to
     2000** (each resample costs the same: two sorts of n rows);
   - pROC, where ``Rscript`` is found: ``ci.auc(r, method="bootstrap", boot.n=...,
     boot.stratified=TRUE)`` through ``benchmarks/proc_timing.R --csv`` on the same data
     (written to a temporary CSV). pROC bootstraps the ROC AUC only, so it is compared
     with our ROC AUC interval alone. It is timed with ``--proc-resamples`` (default
     200) resamples and **extrapolated linearly to 2000**. The times are those the R
     script prints (``system.time`` inside R): R's startup and the CSV read excluded.

2. **DeLong interval of the ROC AUC from raw scores**, the curve's construction
   included (``ScoreCurve.from_scores`` + ``curve.interval("roc_auc",
   method="delong")``), against pROC's ``ci.auc(r, method="delong")`` as the R script
   times it (median of 3; this excludes building the ROC object, which the script times
   separately as ``roc()+auc()`` and which is shown for information).

3. **Dirichlet interval of a confusion-matrix metric and of its OPS**, 10,000 draws
   (the default): ``cm.interval("f1")`` and ``cm.ops("f1", ci="dirichlet")`` (uniform
   reference, closed form), each timed alone; target under 100 ms.

4. **The default interval of the PR AUC** (``curve.interval("pr_auc")``: with 10,000
   positives, the stratified jackknife on the logit scale), from raw scores, the
   curve's construction included. No resampling: one pass over the at most 2J distinct
   leave-one-out curves.

5. **The default intervals with 50 positives** among the other rows (fewer than 100 in
   a class: the Dirichlet posterior, 2000 draws), ROC AUC and PR AUC, from raw scores.
   Each draw is over the at most 2P + 3 cells left after merging the runs of
   negatives, so the cost is the curve's sort plus about 2000 x 100 weights.

Targets: bootstrap of ROC AUC + PR AUC at least 25x faster than the scikit-learn loop;
DeLong no slower than pROC's ``ci.auc(method="delong")``; each Dirichlet call under
100 ms. Timings are wall-clock (``time.perf_counter``): ours is timed ``--repeat`` times before
and again after the scikit-learn loop and the R script, and the best run is used (the
median is shown too). On this machine (a 2-core VM shared with other jobs) single
timings vary by up to 2x with the load; the ratios are of timings taken in the same run.

Run from the repository root::

    python benchmarks/bench_curve_ci.py
    python benchmarks/bench_curve_ci.py --no-r --repeat 3

Measured output (2-core VM, 2026-11-22 17:28 UTC, R 4.2.2 + pROC 1.18.0, 5-minute load
average about 0.6)::

    numpy 2.4.6, scikit-learn 1.9.1, Python 3.11.7; n = 1e+05, prevalence 0.1, continuous scores

    1. Stratified bootstrap, 2000 resamples
       ours  ROC AUC: AUC(ROC, trapezoid) = 0.8547, 95% CI 0.8510-0.8584 (2000 stratified bootstrap resamples, percentile)
       ours  PR AUC : AUC(PR, step) = 0.4792, 95% CI 0.4699-0.4884 (2000 stratified bootstrap resamples, percentile)
       scikit-learn loop (100 resamples): ROC AUC 95% 0.8510-0.8583, AP 0.4702-0.4880
                                                      best s  median s  runs
       ours, ROC AUC + PR AUC (curve built inside)     1.827     1.901  4
       ours, ROC AUC only                              1.059     1.080  4
       scikit-learn loop, extrapolated from 100        81.08
       scikit-learn loop / ours = 44.4 (target >= 25)
       pROC ci.auc(bootstrap), ROC AUC, extrapolated from 200 resamples: 65.53 s (95% CI 0.8508-0.8582 from 200)
       pROC bootstrap / ours (ROC AUC only) = 61.9

    2. DeLong interval of the ROC AUC, from raw scores
       ours: AUC(ROC, trapezoid) = 0.8547, 95% CI 0.8510-0.8585 (DeLong, Sun-Xu algorithm)
       ours (from_scores + interval): best 4.3 ms, median 4.4 ms of 10 runs
       ours, the default (logit scale, t): AUC(ROC, trapezoid) = 0.8547, 95% CI 0.8509-0.8585 (DeLong, Sun-Xu algorithm, logit scale, bias-corrected, t with 1.26e+04 df)
       ours, the default (from_scores + interval): best 4.3 ms, median 4.6 ms of 10 runs
       pROC ci.auc(method='delong'): median of 3 11.0 ms (runs 13, 11, 11 ms; roc()+auc() 35 ms not included); CI 0.850955-0.858514
       pROC / ours = 2.6 (target >= 1); same interval to 1e-9: True

    3. Dirichlet, 10000 draws, ConfusionMatrix(tp=850, fp=1200, fn=150, tn=7800)
       F1 score = 0.5574, 95% CI 0.5416-0.5725 (Dirichlet-multinomial, Jeffreys prior, 10000 draws, prevalence fixed, equal-tailed)
       OPS(F1 score = 0.5574 at prevalence 0.1) = 0.9459, 95% CI 0.9409-0.9503 (Dirichlet-multinomial, Jeffreys prior, 10000 draws, prevalence fixed, equal-tailed) [Uniform(alpha, beta) on [0, 1]^2; exact (closed form)]
       cm.interval('f1'): best 1.0 ms, median 1.0 ms; cm.ops('f1', ci='dirichlet'): best 1.2 ms, median 1.2 ms (target < 100 ms each)

    4. The default interval of the PR AUC (stratified jackknife, logit scale, t), from raw scores
       AUC(PR, step) = 0.4792, 95% CI 0.4698-0.4887 (stratified jackknife (leave one row out), logit scale, t with 1.793e+04 df)
       from_scores + interval: best 4.2 ms, median 4.3 ms of 10 runs (no resampling; compare section 1's bootstrap)

    5. The default intervals with 50 positives among 99950 negatives (the Dirichlet posterior, 2000 draws), from raw scores
       AUC(ROC, trapezoid) = 0.8576, 95% CI 0.7800-0.8996 (Dirichlet posterior of each class's scores (Bayesian bootstrap, Jeffreys pseudo-rows at both ends), 2000 draws, equal-tailed)
       from_scores + interval: best 13.1 ms, median 13.4 ms of 5 runs
       AUC(PR, step) = 0.0290, 95% CI 0.0047-0.0968 (Dirichlet posterior of each class's scores (Bayesian bootstrap, Jeffreys pseudo-rows at both ends), 2000 draws, equal-tailed, lower end extended by the jackknife bias estimate over the positives (0.00173))
       from_scores + interval: best 9.2 ms, median 9.5 ms of 5 runs

Notes. Our bootstrap's cost per resample is the shared curve geometry on about 17,000
(ROC) or 10,000 (average precision) cells, plus the multinomial counts: not a sort of
n rows. The DeLong interval costs one O(n log n) sort (building the curve, about 2 ms)
and a few O(J) passes (about 1.5 ms); pROC's figure excludes building its ROC object.
The default interval (logit scale, t) adds one t quantile to DeLong's, about 0.2 ms.
The default PR AUC interval (section 4) is one pass over the at most 2J distinct
leave-one-out curves: about 4 ms, against about 0.8 s for the PR half of section 1's
2000-resample bootstrap. The Dirichlet posterior of section 5 draws 2000 weightings of
the about 2 x 50 + 3 cells left after merging the runs of negatives: about 10 ms with
the curve's sort of 1e5 rows included.
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
from pathlib import Path

import numpy as np
import sklearn
from sklearn.metrics import average_precision_score, roc_auc_score

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout

from opsstats import ConfusionMatrix
from opsstats.curves import ScoreCurve

B = 2000
FEW = 50  # positives in section 5


def make_data(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.1  # prevalence 0.1
    s = rng.normal(size=n) + 1.5 * y  # continuous, all distinct
    return y, s


def best_and_median(f, repeat: int) -> tuple[float, float, object]:
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = f()
        times.append(time.perf_counter() - t0)
    return min(times), float(np.median(times)), out


def timed(f) -> float:
    t0 = time.perf_counter()
    f()
    return time.perf_counter() - t0


def ours_bootstrap(y, s, seed=1):
    curve = ScoreCurve.from_scores(y, s)
    roc = curve.interval("roc_auc", method="bootstrap", n_resamples=B, rng=seed)
    pr = curve.interval("pr_auc", method="bootstrap", n_resamples=B, rng=seed + 1)
    return roc, pr


def ours_bootstrap_roc(y, s, seed=1):
    return ScoreCurve.from_scores(y, s).interval(
        "roc_auc", method="bootstrap", n_resamples=B, rng=seed
    )


def sklearn_loop(y, s, resamples: int, seed: int = 2):
    """The plain loop: stratified row resampling, then the two scikit-learn scores."""
    rng = np.random.default_rng(seed)
    pos, neg = np.flatnonzero(y), np.flatnonzero(~y)
    roc = np.empty(resamples)
    ap = np.empty(resamples)
    for i in range(resamples):
        idx = np.concatenate(
            (pos[rng.integers(0, pos.size, pos.size)], neg[rng.integers(0, neg.size, neg.size)])
        )
        roc[i] = roc_auc_score(y[idx], s[idx])
        ap[i] = average_precision_score(y[idx], s[idx])
    return roc, ap


def ours_delong(y, s):
    return ScoreCurve.from_scores(y, s).interval("roc_auc", method="delong")


def ours_default_roc(y, s):
    """The default interval of the ROC AUC: DeLong's variance, logit scale, t."""
    return ScoreCurve.from_scores(y, s).interval("roc_auc")


def ours_default_pr(y, s):
    """The default interval of the PR AUC: the stratified jackknife, logit scale, t."""
    return ScoreCurve.from_scores(y, s).interval("pr_auc")


def run_proc(y, s, boot_n: int) -> dict | None:
    rscript = shutil.which("Rscript")
    if rscript is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "data.csv"
        np.savetxt(
            path,
            np.column_stack((y.astype(int), s)),
            delimiter=",",
            header="y_true,y_score",
            comments="",
            fmt=("%d", "%.17g"),
        )
        out = subprocess.run(
            [
                rscript,
                str(ROOT / "benchmarks" / "proc_timing.R"),
                "--csv",
                str(path),
                "--boot_n",
                str(boot_n),
                "--seed",
                "1",
            ],
            capture_output=True,
            text=True,
            check=True,
        )
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=float, default=1e5)
    parser.add_argument(
        "--repeat", type=int, default=2, help="timed runs of ours before and again after the others"
    )
    parser.add_argument("--sk-resamples", type=int, default=100)
    parser.add_argument("--proc-resamples", type=int, default=200)
    parser.add_argument("--no-r", action="store_true", help="skip pROC")
    args = parser.parse_args()
    n = int(args.n)
    print(
        f"numpy {np.__version__}, scikit-learn {sklearn.__version__}, Python "
        f"{platform.python_version()}; n = {n:.0e}, prevalence 0.1, continuous scores"
    )
    y, s = make_data(n)
    ours_bootstrap(*make_data(2000))  # imports and first-call costs
    ours_delong(*make_data(2000))

    # ---- 1. bootstrap; ours is timed before and after the others (best of all runs),
    # so that a change in the machine's load does not favour either side
    runs = [timed(lambda: ours_bootstrap(y, s)) for _ in range(args.repeat)]
    runs_roc = [timed(lambda: ours_bootstrap_roc(y, s)) for _ in range(args.repeat)]
    runs_dl = [timed(lambda: ours_delong(y, s)) for _ in range(5)]
    runs_auto = [timed(lambda: ours_default_roc(y, s)) for _ in range(5)]
    t0 = time.perf_counter()
    sk_roc, sk_ap = sklearn_loop(y, s, args.sk_resamples)
    t_sk = (time.perf_counter() - t0) * B / args.sk_resamples
    proc = None if args.no_r else run_proc(y, s, args.proc_resamples)
    runs += [timed(lambda: ours_bootstrap(y, s)) for _ in range(args.repeat)]
    runs_roc += [timed(lambda: ours_bootstrap_roc(y, s)) for _ in range(args.repeat)]
    runs_dl += [timed(lambda: ours_delong(y, s)) for _ in range(5)]
    runs_auto += [timed(lambda: ours_default_roc(y, s)) for _ in range(5)]
    roc, pr = ours_bootstrap(y, s)
    dl = ours_delong(y, s)
    t_ours, m_ours = min(runs), float(np.median(runs))
    t_roc, m_roc = min(runs_roc), float(np.median(runs_roc))
    t_d, m_d = min(runs_dl), float(np.median(runs_dl))
    print(f"\n1. Stratified bootstrap, {B} resamples")
    print(f"   ours  ROC AUC: {roc}")
    print(f"   ours  PR AUC : {pr}")
    print(
        f"   scikit-learn loop ({args.sk_resamples} resamples): ROC AUC 95% "
        f"{np.quantile(sk_roc, 0.025):.4f}-{np.quantile(sk_roc, 0.975):.4f}, AP "
        f"{np.quantile(sk_ap, 0.025):.4f}-{np.quantile(sk_ap, 0.975):.4f}"
    )
    print(f"   {'':44s} {'best s':>8s} {'median s':>9s}  runs")
    print(
        f"   {'ours, ROC AUC + PR AUC (curve built inside)':44s} {t_ours:8.3f} "
        f"{m_ours:9.3f}  {len(runs)}"
    )
    print(f"   {'ours, ROC AUC only':44s} {t_roc:8.3f} {m_roc:9.3f}  {len(runs_roc)}")
    print(f"   {'scikit-learn loop, extrapolated from ' + str(args.sk_resamples):44s} {t_sk:8.2f}")
    ratio_sk = t_sk / t_ours
    print(f"   scikit-learn loop / ours = {ratio_sk:.1f} (target >= 25)")
    if proc is not None:
        t_pb = proc["ci_bootstrap_seconds"] * B / proc["boot_n"]
        print(
            f"   pROC ci.auc(bootstrap), ROC AUC, extrapolated from {proc['boot_n']} "
            f"resamples: {t_pb:.2f} s (95% CI {proc['ci_bootstrap'][0]:.4f}-"
            f"{proc['ci_bootstrap'][1]:.4f} from {proc['boot_n']})"
        )
        print(f"   pROC bootstrap / ours (ROC AUC only) = {t_pb / t_roc:.1f}")

    # ---- 2. DeLong
    print("\n2. DeLong interval of the ROC AUC, from raw scores")
    print(f"   ours: {dl}")
    print(
        f"   ours (from_scores + interval): best {1e3 * t_d:.1f} ms, median "
        f"{1e3 * m_d:.1f} ms of {len(runs_dl)} runs"
    )
    t_a, m_a = min(runs_auto), float(np.median(runs_auto))
    print(f"   ours, the default (logit scale, t): {ours_default_roc(y, s)}")
    print(
        f"   ours, the default (from_scores + interval): best {1e3 * t_a:.1f} ms, "
        f"median {1e3 * m_a:.1f} ms of {len(runs_auto)} runs"
    )
    if proc is not None:
        t_pd = proc["ci_delong_seconds"]
        print(
            f"   pROC ci.auc(method='delong'): median of 3 {1e3 * t_pd:.1f} ms (runs "
            f"{', '.join(f'{1e3 * v:.0f}' for v in proc['ci_delong_runs'])} ms; "
            f"roc()+auc() {1e3 * proc['roc_auc_seconds']:.0f} ms not included); CI "
            f"{proc['ci_delong'][0]:.6f}-{proc['ci_delong'][1]:.6f}"
        )
        ok = (
            abs(proc["ci_delong"][0] - dl.ci.low) < 1e-9
            and abs(proc["ci_delong"][1] - dl.ci.high) < 1e-9
        )
        print(f"   pROC / ours = {t_pd / t_d:.1f} (target >= 1); same interval to 1e-9: {ok}")

    # ---- 3. Dirichlet
    cm = ConfusionMatrix(tp=850, fp=1200, fn=150, tn=7800)
    cm.interval("f1", rng=0)
    cm.ops("f1", ci="dirichlet", rng=0)
    t_i, m_i, r_i = best_and_median(lambda: cm.interval("f1", rng=0), 5)
    t_o, m_o, r_o = best_and_median(lambda: cm.ops("f1", ci="dirichlet", rng=0), 5)
    print(f"\n3. Dirichlet, 10000 draws, {cm!r}")
    print(f"   {r_i}\n   {r_o}")
    print(
        f"   cm.interval('f1'): best {1e3 * t_i:.1f} ms, median {1e3 * m_i:.1f} ms; "
        f"cm.ops('f1', ci='dirichlet'): best {1e3 * t_o:.1f} ms, median "
        f"{1e3 * m_o:.1f} ms (target < 100 ms each)"
    )

    # ---- 4. the default PR AUC interval
    ours_default_pr(y, s)
    t_j, m_j, r_j = best_and_median(lambda: ours_default_pr(y, s), 10)
    print(
        "\n4. The default interval of the PR AUC (stratified jackknife, logit scale, t), "
        "from raw scores"
    )
    print(f"   {r_j}")
    print(
        f"   from_scores + interval: best {1e3 * t_j:.1f} ms, median {1e3 * m_j:.1f} ms "
        f"of 10 runs (no resampling; compare section 1's bootstrap)"
    )

    # ---- 5. the default with fewer than 100 rows in a class: the Dirichlet posterior
    n = y.size
    y_few = np.zeros(n, dtype=np.int8)
    y_few[:FEW] = 1
    s_few = np.random.default_rng(3).standard_normal(n) + 1.5 * y_few
    print(
        f"\n5. The default intervals with {FEW} positives among {n - FEW:.0f} negatives (the "
        "Dirichlet posterior, 2000 draws), from raw scores"
    )
    for name in ("roc_auc", "pr_auc"):

        def run(name=name):
            return ScoreCurve.from_scores(y_few, s_few).interval(name, rng=0)

        run()
        t_d, m_d, r_d = best_and_median(run, 5)
        print(f"   {r_d}")
        print(
            f"   from_scores + interval: best {1e3 * t_d:.1f} ms, median {1e3 * m_d:.1f} ms "
            "of 5 runs"
        )


if __name__ == "__main__":
    main()
