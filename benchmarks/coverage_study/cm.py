"""Part ``cm``: confusion-matrix quantities (the design is in "Part ``cm``" of the
docstring of ``benchmarks/coverage.py``).

The classifiers, the interval methods, the cells, the truths, the simulation of one cell
through the public API, and two exact computations for alpha and beta, without
simulation: the coverage of the Dirichlet interval (``_exact_rate_coverage``) and the
coverage floor of any interval (``_coverage_floor``)."""

from __future__ import annotations

import argparse
import collections
import dataclasses
import time
import warnings
from typing import Any

import numpy as np

from opsstats import ConfusionMatrix, UndefinedMetricWarning
from opsstats.metrics import resolve_metric
from opsstats.reference import Uniform

from .common import (
    ACCEPT_LOW,
    CM_NS,
    CM_PREVALENCES,
    CONFIDENCE_LEVEL,
    cell_rng,
    cell_selected,
    parse_cells,
    summarize,
)

CLASSIFIERS = {  # name -> (alpha, beta); see the module docstring
    "A": (0.10, 0.25),
    "B": (0.30, 0.40),
    "C": (0.02, 0.05),
}
CM_QUANTITIES = ("alpha", "beta", "f1", "mcc", "ops_f1", "ops_mcc")


@dataclasses.dataclass(frozen=True)
class CMMethod:
    key: str
    kwargs: dict[str, Any]  # for ConfusionMatrix.interval (``method=`` included)
    prevalence: str  # the estimand it targets: "fixed" or "random"
    default: bool = False
    binomial: bool = False  # only for alpha and beta
    note: str = ""

    def call(
        self, cm: ConfusionMatrix, quantity: str, rng: np.random.Generator, n_resamples: int
    ) -> tuple[float, float]:
        kw = dict(self.kwargs)
        if not self.binomial:
            kw.update(n_resamples=n_resamples, rng=rng)
        if quantity.startswith("ops_"):
            kw["ci"] = kw.pop("method")
            res = cm.ops(quantity[4:], **kw)
            if res.ci is None:  # no interval when the metric's estimate is 0/0
                raise ValueError("ops() gave no interval (metric estimate undefined)")
            return res.ci.low, res.ci.high
        res = cm.interval(quantity, **kw)
        return res.ci.low, res.ci.high


CM_METHODS = (
    CMMethod(
        "dirichlet",
        {"method": "dirichlet"},
        "fixed",
        default=True,
        note="equal-tailed, Jeffreys prior, prevalence fixed (default)",
    ),
    CMMethod(
        "dirichlet-hpd",
        {"method": "dirichlet", "interval": "hpd"},
        "fixed",
        note="HPD, Jeffreys prior, prevalence fixed",
    ),
    CMMethod(
        "dirichlet-random",
        {"method": "dirichlet", "prevalence": "random"},
        "random",
        note="equal-tailed, Jeffreys prior, prevalence random",
    ),
    CMMethod(
        "bootstrap",
        {"method": "bootstrap"},
        "fixed",
        default=True,
        note="stratified, percentile (default)",
    ),
    CMMethod(
        "bootstrap-bca", {"method": "bootstrap", "interval": "bca"}, "fixed", note="stratified, BCa"
    ),
    CMMethod(
        "bootstrap-unstratified",
        {"method": "bootstrap", "stratified": False},
        "random",
        note="not stratified, percentile",
    ),
    CMMethod(
        "clopper-pearson",
        {"method": "clopper-pearson"},
        "fixed",
        binomial=True,
        note="exact (alpha, beta only)",
    ),
    CMMethod(
        "wilson",
        {"method": "wilson"},
        "fixed",
        binomial=True,
        note="score interval (alpha, beta only)",
    ),
    CMMethod(
        "jeffreys",
        {"method": "jeffreys"},
        "fixed",
        binomial=True,
        note="Jeffreys with Brown-Cai-DasGupta boundary rule (alpha, beta only)",
    ),
)


def cm_make_cells(args: argparse.Namespace) -> list[dict[str, Any]]:
    filters = parse_cells(args.cells)
    names = [c.strip() for c in args.classifiers.split(",") if c.strip()]
    for c in names:
        if c not in CLASSIFIERS:
            raise SystemExit(f"--classifiers: unknown {c!r}; choose from {sorted(CLASSIFIERS)}")
    cells = []
    for ci, cname in enumerate(sorted(CLASSIFIERS)):
        if cname not in names:
            continue
        a, b = CLASSIFIERS[cname]
        for n in CM_NS:
            for pi in CM_PREVALENCES:
                if not cell_selected(filters, n, pi):
                    continue
                cells.append(
                    {
                        "cell": f"{cname} n={n} pi={pi:g}",
                        "classifier": cname,
                        "alpha": a,
                        "beta": b,
                        "n": n,
                        "prevalence": pi,
                        "spawn_key": (0, ci, n, round(pi * 10_000)),
                    }
                )
    return cells


def _cm_truths(
    n: int, pi: float, a: float, b: float, positives: np.ndarray
) -> dict[str, dict[str, np.ndarray]]:
    """truth[quantity][target] per replicate (NaN where not estimable)."""
    reps = positives.size
    pi_hat = positives / n
    both_present = (positives > 0) & (positives < n)
    out: dict[str, dict[str, np.ndarray]] = {
        "alpha": {"both": np.full(reps, a)},
        "beta": {"both": np.full(reps, b)},
    }
    uniform = Uniform()
    for m in ("f1", "mcc"):
        metric = resolve_metric(m)
        cond = np.full(reps, np.nan)
        cond[both_present] = metric(pi_hat[both_present], a, b)
        pop = np.full(reps, float(metric(pi, a, b)))
        out[m] = {"conditional": cond, "population": pop}
        ops_cond = np.full(reps, np.nan)
        ops_cond[both_present] = uniform.ops(
            m, cond[both_present], prevalence=pi_hat[both_present]
        ).estimate
        ops_pop = np.full(reps, float(uniform.ops(m, pop[0], prevalence=pi).estimate))
        out[f"ops_{m}"] = {"conditional": ops_cond, "population": ops_pop}
    return out


def _class_totals(n: int, pi: float, rate: str, positives: str) -> tuple[np.ndarray, np.ndarray]:
    """The class totals t the interval for alpha (t = N) or beta (t = P) is computed from,
    and their probabilities, as the study draws them (P ~ Binomial(n, pi), or fixed at
    round(n pi)); t = 0 (quantity undefined) and totals of probability below 1e-12 left
    out, the probabilities renormalized over the rest."""
    from scipy import stats

    if positives == "fixed":
        totals = np.array([round(n * pi)])
        weights = np.array([1.0])
    else:
        totals = np.arange(n + 1)
        weights = stats.binom.pmf(totals, n, pi)
    if rate == "alpha":
        totals = n - totals
    keep = (totals > 0) & (weights > 1e-12)
    return totals[keep], weights[keep] / weights[keep].sum()


def _exact_rate_coverage(n: int, pi: float, p: float, rate: str, positives: str) -> float:
    """Coverage of the interval the Dirichlet method estimates for alpha or beta,
    computed exactly rather than simulated.

    Given the class totals, the Dirichlet interval for alpha (beta) is the equal-tailed
    interval of Beta(x + 1/2, t - x + 1/2), x = FP (FN), t = N (P); the method finds
    its ends from draws, this uses the Beta quantiles themselves. The coverage is then
    a sum over t (Binomial(n, pi) positives, or fixed) and x ~ Binomial(t, p), with t = 0
    left out as in the study. Terms of probability below 1e-12 are skipped.
    """
    from scipy import stats

    covered = 0.0
    for t, w in zip(*_class_totals(n, pi, rate, positives), strict=True):
        lo_x, hi_x = stats.binom.ppf([1e-12, 1 - 1e-12], t, p)
        x = np.arange(int(max(lo_x - 1, 0)), int(min(hi_x + 1, t)) + 1)
        tail = (1 - CONFIDENCE_LEVEL) / 2
        lo = stats.beta.ppf(tail, x + 0.5, t - x + 0.5)
        hi = stats.beta.ppf(1 - tail, x + 0.5, t - x + 0.5)
        covered += w * np.sum(stats.binom.pmf(x, t, p) * ((lo <= p) & (p <= hi)))
    return float(covered)


#: outcomes of a binomial with probability below this are not enumerated by
#: ``_coverage_floor``: their total is counted as if they could all be left out
FLOOR_TINY = 1e-9
#: at most this many outcomes are enumerated (2**22 subsets); with more, the floor of
#: that class total is taken as the bound itself (a valid, weaker, floor)
FLOOR_MAX_OUTCOMES = 22


def _coverage_floor(
    n: int, pi: float, p: float, rate: str, positives: str, bound: float = ACCEPT_LOW
) -> float:
    """A lower bound, exact and without simulation, on the coverage that *any* interval
    for alpha or beta can have in a cell if it covers the truth with probability at least
    ``bound`` given each class total.

    Why: the prevalence-fixed methods condition on the class totals (a user's test set
    has the totals it has), so their coverage given the totals is what they promise.
    Given the total t, an interval procedure covers p for a set S of outcomes x in
    0..t, with coverage sum over S of Binomial(t, p) probabilities; the smallest such sum
    that is at least ``bound`` is found by enumerating which outcomes can be left out
    (their probabilities summing to at most 1 - ``bound``). The cell's floor averages
    that over t as the study draws it. Where the floor is above 97%, no interval, of any
    construction, can be inside the 93%-97% band in that cell without covering less
    than 93% given some class total: a test set with one positive gives beta's interval
    two possible outcomes, so its coverage given t = 1 is 0, beta, 1 - beta or 1.

    The bound is conservative in two places, both towards a lower floor: outcomes of
    probability below ``FLOOR_TINY`` are counted as left out, and a class total with more
    than ``FLOOR_MAX_OUTCOMES`` outcomes that could be left out contributes ``bound``.
    """
    from scipy import stats

    budget = 1.0 - bound
    floor = 0.0
    for t, w in zip(*_class_totals(n, pi, rate, positives), strict=True):
        pmf = stats.binom.pmf(np.arange(t + 1), t, p)
        tiny = float(pmf[pmf < FLOOR_TINY].sum())
        droppable = pmf[(pmf >= FLOOR_TINY) & (pmf <= budget)]
        if len(droppable) > FLOOR_MAX_OUTCOMES:
            floor += w * bound
            continue
        sums = np.zeros(1)  # totals of the subsets of droppable outcomes
        for q in droppable:
            sums = np.concatenate([sums, sums + q])
            sums = sums[sums <= budget]
        floor += w * max(bound, 1.0 - float(sums.max()) - tiny)
    return floor


def cm_run_cell(spec: dict[str, Any], options: dict[str, Any]) -> list[dict[str, Any]]:
    t0, c0 = time.perf_counter(), time.process_time()
    reps, n_res, seed = options["reps"], options["n_resamples"], options["seed"]
    n, pi, a, b = spec["n"], spec["prevalence"], spec["alpha"], spec["beta"]
    sim, draws = cell_rng(seed, spec["spawn_key"])
    # --- simulate the test sets (vectorized)
    if options["positives"] == "fixed":
        pos = np.full(reps, round(n * pi))
    else:
        pos = sim.binomial(n, pi, reps)
    neg = n - pos
    tp = sim.binomial(pos, 1 - b)
    fp = sim.binomial(neg, a)
    fn, tn = pos - tp, neg - fp
    truths = _cm_truths(n, pi, a, b, pos)
    absent = {"alpha": neg == 0, "beta": pos == 0}
    for q in ("f1", "mcc", "ops_f1", "ops_mcc"):
        absent[q] = (pos == 0) | (neg == 0)
    # --- intervals, one test set at a time, through the public API
    pairs = [
        (q, m)
        for q in CM_QUANTITIES
        for m in CM_METHODS
        if not (m.binomial and q not in ("alpha", "beta"))
    ]
    low = {(q, m.key): np.full(reps, np.nan) for q, m in pairs}
    high = {(q, m.key): np.full(reps, np.nan) for q, m in pairs}
    # why a method gave no interval, and warnings the package emitted, per (q, method)
    reasons = collections.defaultdict(collections.Counter)
    warned = collections.defaultdict(collections.Counter)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.simplefilter("ignore", UndefinedMetricWarning)  # expected: NaN estimates
        for i in range(reps):
            cm = ConfusionMatrix(tp=int(tp[i]), fp=int(fp[i]), fn=int(fn[i]), tn=int(tn[i]))
            for q, m in pairs:
                if absent[q][i]:
                    continue
                del caught[:]
                try:
                    lo, hi = m.call(cm, q, draws, n_res)
                except ValueError as exc:
                    reasons[q, m.key][str(exc)[:100]] += 1
                    continue
                finally:
                    for w in caught:
                        warned[q, m.key][f"{w.category.__name__}: {w.message}"[:100]] += 1
                if not (np.isfinite(lo) and np.isfinite(hi)):
                    reasons[q, m.key]["NaN interval (undefined in every draw)"] += 1
                low[q, m.key][i], high[q, m.key][i] = lo, hi
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    e_tp, e_fn = n * pi * (1 - b), n * pi * b
    e_fp, e_tn = n * (1 - pi) * a, n * (1 - pi) * (1 - a)
    min_expected = {"alpha": min(e_fp, e_tn), "beta": min(e_tp, e_fn)}
    for q in ("f1", "mcc", "ops_f1", "ops_mcc"):
        min_expected[q] = min(e_tp, e_fn, e_fp, e_tn)
    exact = {
        q: _exact_rate_coverage(n, pi, a if q == "alpha" else b, q, options["positives"])
        for q in ("alpha", "beta")
    }
    rows = []
    for q, m in pairs:
        for target, truth in truths[q].items():
            matched = target == "both" or (target == "conditional") == (m.prevalence == "fixed")
            s = summarize(low[q, m.key], high[q, m.key], truth, absent[q])
            rows.append(
                {
                    "part": "cm",
                    "cell": spec["cell"],
                    "quantity": q,
                    "method": m.key,
                    "is_default": m.default,
                    "target": target,
                    "matched": matched,
                    **s,
                    "n_resamples": None if m.binomial else n_res,
                    "seed": seed,
                    "cell_seconds": round(seconds, 2),
                    "cell_cpu_seconds": round(cpu, 2),
                    "exact_coverage": exact[q]
                    if q in exact and m.key in ("dirichlet", "dirichlet-random")
                    else np.nan,
                    "classifier": spec["classifier"],
                    "alpha": a,
                    "beta": b,
                    "n": n,
                    "prevalence": pi,
                    "positives": options["positives"],
                    "min_expected_count": round(min_expected[q], 4),
                    "undefined_reasons": "; ".join(
                        f"{k} ({v})" for k, v in reasons[q, m.key].items()
                    ),
                    "warnings": "; ".join(f"{k} ({v})" for k, v in warned[q, m.key].items()),
                }
            )
    return rows
