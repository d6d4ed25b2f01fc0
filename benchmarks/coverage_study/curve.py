"""Part ``curve``: ROC AUC and PR AUC from simulated scores (the design is in "Part
``curve``" of the docstring of ``benchmarks/coverage.py``).

The binormal classifiers, the interval methods, the population average precision
(``population_ap``), the cells, and the simulation of one cell through the public
API."""

from __future__ import annotations

import argparse
import collections
import dataclasses
import time
import warnings
from typing import Any

import numpy as np

from opsstats import UndefinedMetricWarning
from opsstats.curves import CurveArea, ScoreCurve
from opsstats.reference import DirectedBinaryTree

from .common import CM_NS, CM_PREVALENCES, cell_selected, parse_cells, summarize

SHIFTS = {"mu=1": 1.0, "mu=2": 2.0}  # binormal classifiers, name -> shift mu (see docstring)
CURVE_QUANTITIES = ("roc_auc", "pr_auc", "ops_roc_auc", "ops_pr_auc")
CURVE_AREAS = {
    "roc_auc": CurveArea("roc", "trapezoid", False),
    "pr_auc": CurveArea("pr", "step", False),
}
#: replicates per cell whose ``ops(...).details["value_ci"]`` is compared with a separate
#: ``ScoreCurve.interval`` call with the same seed (see the docstring, "Methods")
CURVE_API_CHECKS = 3
#: prevalences per ``DirectedBinaryTree.precompute`` pass (bounds its temporaries)
PRECOMPUTE_BATCH = 40


@dataclasses.dataclass(frozen=True)
class CurveMethod:
    key: str
    kwargs: dict[str, Any]  # for ScoreCurve.ops (``ci=`` included)
    prevalence: str  # the estimand it targets: "fixed" or "random"
    default: bool = False
    roc_only: bool = False
    note: str = ""

    def applies(self, kind: str) -> bool:
        return kind == "roc_auc" or not self.roc_only

    def interval_kwargs(self) -> dict[str, Any]:
        """The same interval for ScoreCurve.interval (``method=`` for ``ci=``)."""
        kw = dict(self.kwargs)
        kw["method"] = kw.pop("ci")
        return kw


CURVE_METHODS = (
    CurveMethod(
        "auto",
        {"ci": "auto"},
        "fixed",
        default=True,
        note='the default (`method="auto"`): where the smaller class has fewer '
        "than 100 rows, the Dirichlet posterior of each class's scores "
        "(`dirichlet`; for the PR AUC bias-extended, its lower end moved down "
        "by the jackknife's estimate of the upward bias, leaving out one "
        "positive at a time); from 100 rows on, the "
        "logit-t interval of DeLong's "
        "variance for the ROC AUC (`delong-logit-t`) and of the jackknife's "
        "for the PR AUC (`jackknife-logit-t`)",
    ),
    CurveMethod(
        "dirichlet",
        {"ci": "dirichlet"},
        "fixed",
        note="the Dirichlet posterior of each class's scores (Bayesian bootstrap, "
        "a Jeffreys pseudo-row of each class tied above the highest score and "
        'another below the lowest), equal-tailed (`ci="dirichlet"`; for the '
        "PR AUC the default below 100 rows before the bias extension)",
    ),
    CurveMethod(
        "delong-logit-t",
        {"ci": "delong", "interval": "logit-t"},
        "fixed",
        roc_only=True,
        note="DeLong's variance on the logit scale, bias-corrected, Welch-"
        "Satterthwaite t (ROC AUC only; the ROC AUC default before the "
        "Dirichlet posterior)",
    ),
    CurveMethod(
        "jackknife-logit-t",
        {"ci": "jackknife", "interval": "logit-t"},
        "fixed",
        note="the stratified jackknife variance on the logit scale, t with (k - 1) "
        "V**2 / (V1**2 + V0**2) df, k the smaller class (the PR AUC default "
        "before the Dirichlet posterior)",
    ),
    CurveMethod(
        "delong",
        {"ci": "delong"},
        "fixed",
        roc_only=True,
        note="DeLong's normal interval, Sun-Xu algorithm, clipped to [0, 1] (ROC "
        'AUC only; `ci="delong"`, as pROC)',
    ),
    CurveMethod(
        "bootstrap", {"ci": "bootstrap"}, "fixed", note='stratified, percentile (`ci="bootstrap"`)'
    ),
    CurveMethod(
        "bootstrap-bca", {"ci": "bootstrap", "interval": "bca"}, "fixed", note="stratified, BCa"
    ),
    CurveMethod(
        "bootstrap-logit-t",
        {"ci": "bootstrap", "interval": "logit-t"},
        "fixed",
        note="stratified, logit scale, standard error from the central 68% of the "
        "resamples, t with min(P, N) - 1 df (the PR AUC default before the "
        "jackknife)",
    ),
    CurveMethod(
        "jackknife",
        {"ci": "jackknife"},
        "fixed",
        note='stratified jackknife variance, normal, clipped to [0, 1] (`ci="jackknife"`)',
    ),
    CurveMethod(
        "bootstrap-unstratified",
        {"ci": "bootstrap", "stratified": False},
        "random",
        roc_only=True,
        note="not stratified, percentile (ROC AUC only)",
    ),
)


def population_ap(mu: float, prevalence: float) -> float:
    """Average precision (the step-rule PR AUC) of the binormal population: negatives
    N(0, 1), positives N(mu, 1), at prevalence p.

    AP = integral of precision over recall = integral over thresholds t of
    prec(t) phi(t - mu) dt, prec(t) = 1 / (1 + (1 - p) / p * FPR(t) / TPR(t)) with
    FPR(t) = Phi(-t), TPR(t) = Phi(mu - t); the ratio is taken in logs (``log_ndtr``), so
    the integrand is accurate in both tails. Adaptive quadrature to about 1e-12.
    """
    from scipy import integrate, special, stats

    log_odds = np.log1p(-prevalence) - np.log(prevalence)

    def integrand(x: float) -> float:  # x = t - mu
        log_ratio = special.log_ndtr(-(x + mu)) - special.log_ndtr(-x)
        return stats.norm.pdf(x) / (1.0 + np.exp(log_odds + log_ratio))

    value, _ = integrate.quad(integrand, -np.inf, np.inf, epsabs=1e-13, epsrel=1e-12, limit=200)
    return float(value)


def curve_make_cells(args: argparse.Namespace) -> list[dict[str, Any]]:
    filters = parse_cells(args.cells)
    names = [s.strip() for s in args.shifts.split(",") if s.strip()]
    for s in names:
        if s not in SHIFTS:
            raise SystemExit(f"--shifts: unknown {s!r}; choose from {', '.join(SHIFTS)}")
    cells = []
    for si, sname in enumerate(SHIFTS):
        if sname not in names:
            continue
        for n in CM_NS:
            for pi in CM_PREVALENCES:
                if not cell_selected(filters, n, pi):
                    continue
                cells.append(
                    {
                        "cell": f"{sname} n={n} pi={pi:g}",
                        "classifier": sname,
                        "shift": SHIFTS[sname],
                        "n": n,
                        "prevalence": pi,
                        "spawn_key": (1, si, n, round(pi * 10_000)),
                    }
                )
    # the most expensive cells first, so that two workers finish together
    return sorted(cells, key=lambda c: -c["n"] * min(c["prevalence"], 0.5))


def _simulate_scores(
    n: int, positives: int, mu: float, seed: np.random.SeedSequence
) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = np.zeros(n, dtype=np.int8)
    y[:positives] = 1
    s = rng.standard_normal(n)
    s[:positives] += mu
    return y, s


def curve_run_cell(spec: dict[str, Any], options: dict[str, Any]) -> list[dict[str, Any]]:
    from scipy.special import ndtr

    t0, c0 = time.perf_counter(), time.process_time()
    reps, n_res, seed = options["reps"], options["n_resamples"], options["seed"]
    n, pi, mu = spec["n"], spec["prevalence"], spec["shift"]
    root = np.random.SeedSequence(seed, spawn_key=spec["spawn_key"])
    pos_seq, score_seq, draw_seq = root.spawn(3)
    if options["positives"] == "fixed":
        pos = np.full(reps, round(n * pi))
    else:
        pos = np.random.default_rng(pos_seq).binomial(n, pi, reps)
    score_seeds, draw_seeds = score_seq.spawn(reps), draw_seq.spawn(reps)
    present = (pos > 0) & (pos < n)
    pi_hat = pos / n  # == ScoreCurve.prevalence, P / (P + N)

    # --- truths (see the docstring, "The estimands")
    auc_true = float(ndtr(mu / np.sqrt(2)))
    prevalences = sorted({float(p) for p in pi_hat[present]} | {float(pi)})
    ap_at = {p: population_ap(mu, p) for p in prevalences}
    dbt = DirectedBinaryTree(cache_size=len(prevalences) + 8)  # the default reference
    c_ref = time.process_time()
    dbt.precompute([CURVE_AREAS["roc_auc"]], pi)
    for i in range(0, len(prevalences), PRECOMPUTE_BATCH):
        dbt.precompute([CURVE_AREAS["pr_auc"]], prevalences[i : i + PRECOMPUTE_BATCH])
    ref_cpu = time.process_time() - c_ref
    ops_pr_at = {p: float(dbt.ops("pr_auc", ap_at[p], prevalence=p).estimate) for p in prevalences}
    ops_roc_true = float(dbt.ops("roc_auc", auc_true, prevalence=pi).estimate)
    nan = np.full(reps, np.nan)
    cond_ap = nan.copy()
    cond_ops_pr = nan.copy()
    for i in np.flatnonzero(present):
        cond_ap[i], cond_ops_pr[i] = ap_at[pi_hat[i]], ops_pr_at[pi_hat[i]]
    truths = {
        "roc_auc": {"both": np.full(reps, auc_true)},
        "ops_roc_auc": {"both": np.full(reps, ops_roc_true)},
        "pr_auc": {"conditional": cond_ap, "population": np.full(reps, ap_at[float(pi)])},
        "ops_pr_auc": {
            "conditional": cond_ops_pr,
            "population": np.full(reps, ops_pr_at[float(pi)]),
        },
    }

    # --- intervals, one test set at a time, through the public API
    methods = [
        m for m in CURVE_METHODS if options.get("methods") is None or m.key in options["methods"]
    ]
    pairs = [(q, m) for q in CURVE_QUANTITIES for m in methods if m.applies(q.removeprefix("ops_"))]
    low = {(q, m.key): nan.copy() for q, m in pairs}
    high = {(q, m.key): nan.copy() for q, m in pairs}
    estimate = {q: nan.copy() for q in CURVE_QUANTITIES}
    reasons = collections.defaultdict(collections.Counter)
    warned = collections.defaultdict(collections.Counter)
    one_sided: collections.Counter[tuple[str, str]] = collections.Counter()
    api_diff = 0.0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        for i in np.flatnonzero(present):
            y, s = _simulate_scores(n, int(pos[i]), mu, score_seeds[i])
            curve = ScoreCurve.from_scores(y, s)
            for kind in ("roc_auc", "pr_auc"):
                for m in methods:
                    if not m.applies(kind):
                        continue
                    del caught[:]
                    try:
                        res = curve.ops(
                            kind,
                            reference=dbt,
                            n_resamples=n_res,
                            rng=np.random.default_rng(draw_seeds[i]),
                            **m.kwargs,
                        )
                    except ValueError as exc:  # the message without its counts
                        for q in (kind, f"ops_{kind}"):
                            reasons[q, m.key][str(exc).split("; got")[0][:100]] += 1
                        continue
                    finally:
                        for w in caught:
                            text = f"{w.category.__name__}: {w.message}"[:100]
                            for q in (kind, f"ops_{kind}"):
                                warned[q, m.key][text] += 1
                    estimate[kind][i] = res.value
                    estimate[f"ops_{kind}"][i] = res.estimate
                    if res.ci is None:
                        for q in (kind, f"ops_{kind}"):
                            reasons[q, m.key]["ops() gave no interval (estimate undefined)"] += 1
                        continue
                    value_ci = res.details["value_ci"]
                    if "one-sided" in res.ci_method:  # perfect separation (logit-t)
                        one_sided[kind, m.key] += 1
                        one_sided[f"ops_{kind}", m.key] += 1
                    for q, ci in ((kind, value_ci), (f"ops_{kind}", res.ci)):
                        if not (np.isfinite(ci.low) and np.isfinite(ci.high)):
                            reasons[q, m.key]["NaN interval (undefined in every resample)"] += 1
                        low[q, m.key][i], high[q, m.key][i] = ci.low, ci.high
                    if i < CURVE_API_CHECKS:  # the same interval from ScoreCurve.interval
                        alone = curve.interval(
                            kind,
                            n_resamples=n_res,
                            rng=np.random.default_rng(draw_seeds[i]),
                            **m.interval_kwargs(),
                        ).ci
                        api_diff = max(
                            api_diff, abs(alone.low - value_ci.low), abs(alone.high - value_ci.high)
                        )
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0

    # --- rows
    rows = []
    absent = ~present
    for q, m in pairs:
        for target, truth in truths[q].items():
            matched = target == "both" or (target == "conditional") == (m.prevalence == "fixed")
            s = summarize(low[q, m.key], high[q, m.key], truth, absent)
            # bias of the point estimate against this target, over the present test sets,
            # and the coverage the interval would have if the truth were moved by it
            err = estimate[q][present] - truth[present]
            err = err[np.isfinite(err)]
            bias = float(err.mean()) if err.size else np.nan
            sd = float(err.std(ddof=1)) if err.size > 1 else np.nan
            shifted = summarize(low[q, m.key], high[q, m.key], truth + bias, absent)
            z = 1.959963984540054
            rows.append(
                {
                    "part": "curve",
                    "cell": spec["cell"],
                    "quantity": q,
                    "method": m.key,
                    "is_default": m.default,
                    "target": target,
                    "matched": matched,
                    **s,
                    "n_resamples": None if m.key == "delong" else n_res,
                    "seed": seed,
                    "cell_seconds": round(seconds, 2),
                    "cell_cpu_seconds": round(cpu, 2),
                    "classifier": spec["classifier"],
                    "shift": mu,
                    "n": n,
                    "prevalence": pi,
                    "positives": options["positives"],
                    "min_expected_count": round(min(n * pi, n * (1 - pi)), 4),
                    "truth_population": float(truths[q].get("population", truth)[0]),
                    "truth_mean": float(np.nanmean(truth[present])) if present.any() else np.nan,
                    "mean_estimate": float(np.nanmean(estimate[q][present]))
                    if present.any()
                    else np.nan,
                    "bias": bias,
                    "sd_estimate": sd,
                    "coverage_if_only_bias": float(ndtr(z - bias / sd) - ndtr(-z - bias / sd))
                    if sd and np.isfinite(sd) and sd > 0
                    else np.nan,
                    "coverage_vs_mean": shifted["coverage"],
                    "n_prevalences": len(prevalences),
                    "reference_cpu_seconds": round(ref_cpu, 2),
                    "api_check_max_diff": api_diff,
                    "n_one_sided": one_sided[q, m.key],
                    "undefined_reasons": "; ".join(
                        f"{k} ({v})" for k, v in reasons[q, m.key].items()
                    ),
                    "warnings": "; ".join(f"{k} ({v})" for k, v in warned[q, m.key].items()),
                }
            )
    return rows
