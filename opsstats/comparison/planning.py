"""Planning the test set for the OPS of a confusion-matrix metric: the size that gives an
interval of a wanted half-width, and the power to detect an OPS difference between two
independent test sets; both by simulation, each number with its Monte Carlo standard
error (docs/method.md#comparisons).

The simulated test sets have the prevalence fixed (``round(prevalence * n)`` positives)
and TP ~ Binomial(P, 1 - beta), FP ~ Binomial(N, alpha). Each gets the default interval
of :func:`opsstats.compare_test_sets` for the OPS: the Dirichlet posterior (Jeffreys),
whose alpha and beta are independent Beta variables, drawn for every simulated test set
at once (:func:`unpaired_ops_tests`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import (
    MAX_COUNT,
    MAX_RESAMPLES,
    check_1d,
    check_confidence_level,
    check_real,
    check_same_length,
    check_size,
    describe,
)
from ..metrics import resolve_metric
from ..ops import _check_reference
from ..uncertainty._containing import contain_many
from ..uncertainty._draws import check_rng

__all__ = ["PlanResult", "ops_power", "ops_sample_size", "unpaired_ops_tests"]


@dataclass(frozen=True)
class PlanResult:
    """A planned test-set size or a power, with its Monte Carlo standard error.

    Attributes
    ----------
    n : int
        Rows of the (each) test set.
    value : float
        The expected half-width (:func:`ops_sample_size`) or the power
        (:func:`ops_power`) at ``n``.
    standard_error : float
        Its Monte Carlo standard error over ``n_sims`` simulated test sets.
    target : float
        What was asked for (the half-width; the significance level for a power).
    method : str
    details : dict
    """

    n: int
    value: float
    standard_error: float
    target: float
    method: str
    details: dict[str, Any]

    def __str__(self) -> str:
        what = self.details.get("what", "value")
        return (
            f"n = {self.n}: {what} = {self.value:.4f} (MC s.e. {self.standard_error:.2g}); "
            f"{self.method}"
        )


def _counts(n: int, pi: float, alpha: float, beta: float, sims: int, rng: np.random.Generator):
    pos = round(pi * n)
    neg = n - pos
    tp = rng.binomial(pos, 1 - beta, sims)
    fp = rng.binomial(neg, alpha, sims)
    return tp, fp, pos - tp, neg - fp


#: Bytes per (simulated test set, posterior draw): the two error rates drawn, the metric
#: and its OPS on them, and the copies the quantiles and the differences take.
_BYTES_PER_DRAW = 96
#: The largest test set :func:`ops_sample_size` tries.
_MAX_N = 10**8


def _draw_sizes(n_sims: Any, n_draws: Any, sims: str = "n_sims") -> tuple[int, int]:
    """``n_draws`` and ``n_sims`` (or the number of test sets), refused up front when
    their draws, ``n_sims * n_draws`` at once, would not fit in memory."""
    n_draws = check_size(
        "n_draws", n_draws, minimum=2, maximum=MAX_RESAMPLES, bytes_each=2 * _BYTES_PER_DRAW
    )
    n_sims = check_size(
        sims,
        n_sims,
        minimum=1 if sims != "n_sims" else 2,
        maximum=MAX_RESAMPLES,
        bytes_each=n_draws * _BYTES_PER_DRAW,
        what=f" for {n_draws:,} posterior draws each",
    )
    return n_sims, n_draws


def _check_counts(name: str, counts: Any) -> tuple[np.ndarray, ...]:
    """(tp, fp, fn, tn) of S test sets with the same class sizes: four 1-D arrays of
    one length, finite and non-negative."""
    if not isinstance(counts, tuple | list) or len(counts) != 4:
        raise TypeError(
            f"`{name}` must be a tuple (tp, fp, fn, tn) of four arrays of counts; got "
            f"{describe(counts)}."
        )
    arrays = {}
    for cell, values in zip(("tp", "fp", "fn", "tn"), counts, strict=True):
        arr = check_1d(f"{name}[{cell}]", values, numeric=True)
        if (arr < 0).any():
            i = int(np.flatnonzero(arr < 0)[0])
            raise ValueError(
                f"`{name}[{cell}]` must hold non-negative counts; got {arr[i].item()!r} at "
                f"position {i}."
            )
        arrays[f"{name}[{cell}]"] = arr.astype(float)
    check_same_length(**arrays)
    tp, fp, fn, tn = arrays.values()
    for what, size in (("positives (tp + fn)", tp + fn), ("negatives (fp + tn)", fp + tn)):
        if np.any(size != size[0]):
            raise ValueError(
                f"`{name}` must hold test sets of one size: every set's {what} the same; "
                f"got {describe(np.unique(size).tolist())}."
            )
        if size[0] <= 0:
            raise ValueError(f"`{name}` must hold test sets with {what} > 0; got 0.")
    return tp, fp, fn, tn


def _posterior_ops(
    counts: tuple[np.ndarray, ...],
    metric: Any,
    ref: Any,
    n_draws: int,
    rng: np.random.Generator,
    ops: bool,
) -> tuple[np.ndarray, np.ndarray]:
    """(observed, draws) of the metric's OPS (or value) for every simulated test set:
    shapes (S,) and (S, n_draws); Jeffreys Dirichlet posterior, prevalence fixed."""
    tp, fp, fn, tn = (np.asarray(c, dtype=float) for c in counts)
    s = tp.size
    pi = (tp[0] + fn[0]) / (tp[0] + fn[0] + fp[0] + tn[0])
    a = rng.beta(fp[:, None] + 0.5, tn[:, None] + 0.5, (s, n_draws))
    b = rng.beta(fn[:, None] + 0.5, tp[:, None] + 0.5, (s, n_draws))
    with np.errstate(divide="ignore", invalid="ignore"):
        obs = np.asarray(metric(pi, fp / (fp + tn), fn / (fn + tp)), dtype=float)
        draws = np.asarray(metric(pi, a, b), dtype=float)
    if not ops:
        return obs, draws
    out_obs, out_draws = np.full(obs.shape, np.nan), np.full(draws.shape, np.nan)
    for src, dst in ((obs, out_obs), (draws, out_draws)):
        ok = np.isfinite(src)
        if ok.any():
            dst[ok] = ref.ops(metric, src[ok], prevalence=pi).estimate
    return out_obs, out_draws


def unpaired_ops_tests(
    counts_a: tuple[np.ndarray, ...],
    counts_b: tuple[np.ndarray, ...],
    metric: Any = "f1",
    *,
    ops: bool = True,
    reference: Any = None,
    n_draws: int = 2000,
    confidence_level: float = 0.95,
    rng: Any = None,
) -> dict[str, np.ndarray]:
    """The default unpaired comparison of :func:`opsstats.compare_test_sets` for a
    confusion-matrix metric (Dirichlet posterior of each test set, two-sided posterior
    tail p-value, equal-tailed interval), for many pairs of test sets at once.

    Parameters
    ----------
    counts_a, counts_b : tuple of arrays (tp, fp, fn, tn)
        S test sets on each side; within a side every set has the same class sizes.
    metric : str
    ops : bool, default True
    reference, n_draws, confidence_level, rng

    Returns
    -------
    dict with arrays of length S: ``estimate``, ``ci_low``, ``ci_high`` (extended to the
    estimate where it lies outside, as the default's interval is), ``statistic``,
    ``p_value`` (two-sided), ``p_greater``, ``extended`` (whether the interval was).

    Examples
    --------
    >>> r = unpaired_ops_tests(([40], [10], [10], [140]), ([30], [20], [20], [130]), rng=0)
    >>> bool(r["estimate"][0] > 0)
    True
    """
    level = check_confidence_level(confidence_level)
    counts_a, counts_b = _check_counts("counts_a", counts_a), _check_counts("counts_b", counts_b)
    if counts_a[0].size != counts_b[0].size:
        raise ValueError(
            f"`counts_a` and `counts_b` must hold the same number of test sets (pairs); got "
            f"{counts_a[0].size} and {counts_b[0].size}."
        )
    _, n_draws = _draw_sizes(2 * counts_a[0].size, n_draws, sims="counts_a")
    generator = check_rng(rng)
    ref = _check_reference(reference, "point", "a confusion-matrix metric") if ops else None
    m = ref._quantity(metric, None, None, {}) if ref is not None else resolve_metric(metric)
    oa, da = _posterior_ops(counts_a, m, ref, n_draws, generator, ops)
    ob, db = _posterior_ops(counts_b, m, ref, n_draws, generator, ops)
    d = da - db
    est = oa - ob
    with np.errstate(invalid="ignore", divide="ignore"):
        sd = np.nanstd(d, axis=1, ddof=1)
        z = est / sd
        low, high = np.nanquantile(d, [(1 - level) / 2, (1 + level) / 2], axis=1)
    low, high, notes = contain_many(low, high, est)
    m = np.sum(np.isfinite(d), axis=1)
    below = (np.sum(d < 0, axis=1) + np.sum(d == 0, axis=1) / 2 + 1) / (m + 1)
    below = np.minimum(below, 1 - 1 / (m + 1))
    p = np.minimum(1.0, 2 * np.minimum(below, 1 - below))
    p = np.where(np.isfinite(est) & np.isfinite(sd), p, np.nan)
    return {
        "estimate": est,
        "ci_low": low,
        "ci_high": high,
        "statistic": z,
        "p_value": p,
        "p_greater": np.nanmean(d > 0, axis=1),
        "extended": notes != "",
    }


def ops_sample_size(
    metric: Any,
    *,
    prevalence: float,
    alpha: float,
    beta: float,
    half_width: float,
    confidence_level: float = 0.95,
    reference: Any = None,
    n_sims: int = 200,
    n_draws: int = 1000,
    rng: Any = None,
) -> PlanResult:
    """The test-set size whose interval of the OPS of ``metric`` has an expected
    half-width of at most ``half_width``, for a classifier with error rates (alpha,
    beta) at ``prevalence``; by simulation.

    Parameters
    ----------
    metric : str
        A confusion-matrix metric, e.g. ``"f1"``.
    prevalence, alpha, beta : float in (0, 1)
    half_width : float
        The wanted expected half-width (high - low) / 2 of the OPS interval.
    confidence_level : float, default 0.95
    reference : PointReference, optional
        Default Uniform.
    n_sims, n_draws : int
        Simulated test sets per size tried, posterior draws per test set.
    rng : None, int or Generator

    Returns
    -------
    PlanResult
        ``n`` and the simulated expected half-width there (``value``) with its Monte
        Carlo standard error.

    Notes
    -----
    Half-widths shrink about as 1/sqrt(n): from n0 = 400 each step sets
    n <- n (h(n) / half_width)**2 from the simulated expected half-width h(n), five
    times, then rounds up to the next 10 and checks h(n) there. The answer is accurate
    to the Monte Carlo error stated with it.

    Examples
    --------
    >>> r = ops_sample_size("f1", prevalence=0.2, alpha=0.1, beta=0.2, half_width=0.05,
    ...                     rng=0, n_sims=50, n_draws=400)
    >>> 50 <= r.n <= 1000 and abs(r.value - 0.05) < 0.01
    True
    """
    pi = check_real("prevalence", prevalence, low=0, high=1, low_open=True, high_open=True)
    a = check_real("alpha", alpha, low=0, high=1)
    b = check_real("beta", beta, low=0, high=1)
    hw = check_real("half_width", half_width, low=0, low_open=True)
    level = check_confidence_level(confidence_level)
    n_sims, n_draws = _draw_sizes(n_sims, n_draws)
    generator = check_rng(rng)
    ref = _check_reference(reference, "point", "a confusion-matrix metric")
    m = ref._quantity(metric, None, None, {})

    def half(n: int) -> tuple[float, float]:
        counts = _counts(n, pi, a, b, n_sims, generator)
        _, draws = _posterior_ops(counts, m, ref, n_draws, generator, True)
        lo, hi = np.nanquantile(draws, [(1 - level) / 2, (1 + level) / 2], axis=1)
        w = (hi - lo) / 2
        return float(np.nanmean(w)), float(np.nanstd(w, ddof=1) / np.sqrt(n_sims))

    n = 400
    for _ in range(5):
        h, _ = half(n)
        n = int(min(max(n * (h / hw) ** 2, 10), _MAX_N))
    n = int(np.ceil(n / 10) * 10)
    h, se = half(n)
    if n >= _MAX_N and h - 2 * se > hw:
        raise ValueError(
            f"`half_width` {hw:g} is not reached by a test set of up to {_MAX_N:,} rows: "
            f"there the expected half-width is {h:.3g} (MC s.e. {se:.2g}); ask for a "
            "wider interval."
        )
    return PlanResult(
        n=n,
        value=h,
        standard_error=se,
        target=hw,
        method=(
            f"simulation: {n_sims} test sets of n rows at prevalence {pi:g}, alpha {a:g}, "
            f"beta {b:g}; Dirichlet (Jeffreys) interval of the OPS, {n_draws} draws each"
        ),
        details={"what": "expected half-width", "metric": m.label},
    )


def ops_power(
    metric: Any,
    *,
    n: int,
    prevalence: float,
    alpha: float,
    beta: float,
    prevalence_b: float,
    alpha_b: float,
    beta_b: float,
    n_b: int | None = None,
    sig_level: float = 0.05,
    reference: Any = None,
    n_sims: int = 1000,
    n_draws: int = 1000,
    rng: Any = None,
) -> PlanResult:
    """The power of the default unpaired test (:func:`opsstats.compare_test_sets`) to
    detect the OPS difference between a test set of ``n`` rows at (prevalence, alpha,
    beta) and one of ``n_b`` rows at (prevalence_b, alpha_b, beta_b); by simulation.

    Returns
    -------
    PlanResult
        ``value`` the rejection rate at two-sided level ``sig_level``, with its Monte
        Carlo standard error; ``details["ops_difference"]`` the population OPS
        difference.

    Examples
    --------
    >>> r = ops_power("f1", n=1000, prevalence=0.3, alpha=0.1, beta=0.2,
    ...               prevalence_b=0.1, alpha_b=0.2, beta_b=0.3, n_sims=100, rng=0)
    >>> r.value > 0.5
    True
    """
    n = check_size("n", n, minimum=2, maximum=MAX_COUNT)  # rows: binomial counts
    n_b = n if n_b is None else check_size("n_b", n_b, minimum=2, maximum=MAX_COUNT)
    sig = check_real("sig_level", sig_level, low=0, high=1, low_open=True, high_open=True)
    n_sims, n_draws = _draw_sizes(n_sims, n_draws)
    generator = check_rng(rng)
    ref = _check_reference(reference, "point", "a confusion-matrix metric")
    m = ref._quantity(metric, None, None, {})
    sides = []
    for name, (p_, a_, b_) in {
        "": (prevalence, alpha, beta),
        "_b": (prevalence_b, alpha_b, beta_b),
    }.items():
        sides.append(
            (
                check_real(f"prevalence{name}", p_, low=0, high=1, low_open=True, high_open=True),
                check_real(f"alpha{name}", a_, low=0, high=1),
                check_real(f"beta{name}", b_, low=0, high=1),
            )
        )
    ca = _counts(n, *sides[0], n_sims, generator)
    cb = _counts(n_b, *sides[1], n_sims, generator)
    r = unpaired_ops_tests(ca, cb, m, reference=ref, n_draws=n_draws, rng=generator)
    reject = r["p_value"] < sig
    power = float(np.mean(reject))
    true = [float(ref.ops(m, m(p_, a_, b_), prevalence=p_).estimate) for p_, a_, b_ in sides]
    return PlanResult(
        n=n,
        value=power,
        standard_error=float(np.sqrt(power * (1 - power) / n_sims)),
        target=sig,
        method=(
            f"simulation: {n_sims} pairs of test sets ({n} and {n_b} rows); unpaired "
            f"Dirichlet test of the OPS difference at two-sided level {sig:g}, "
            f"{n_draws} draws each"
        ),
        details={
            "what": "power",
            "n_b": n_b,
            "ops_difference": true[0] - true[1],
            "metric": m.label,
            "undefined": int(np.sum(np.isnan(r["p_value"]))),
        },
    )
