"""Intervals from draws: equal-tailed (percentile), HPD and BCa; rng; the progress bar of
the draws (``opsstats/_progress.py``)."""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any

import numpy as np

from .._lazy import lazy_module
from .._progress import progress
from .._validation import check_rng

if TYPE_CHECKING:
    from scipy import special
else:
    special = lazy_module("scipy.special")

__all__ = [
    "check_rng",
    "root_seed",
    "unit_rng",
    "quantile_positions",
    "at_positions",
    "equal_tailed",
    "hpd",
    "bca_levels",
    "progress",
]


def root_seed(rng: Any) -> int:
    """One 63-bit integer drawn from ``rng`` (checked by :func:`check_rng`): the root from
    which a call that evaluates several units (groups, labels) derives each unit's
    generator with :func:`unit_rng`."""
    return int(check_rng(rng).integers(0, 2**63 - 1))


def _plain(value: Any) -> Any:
    if value is None or type(value).__name__ in ("NAType", "NaTType"):
        return float("nan")  # every engine's missing key is one group, as NaN is
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, tuple):
        return tuple(_plain(v) for v in value)
    return value


def unit_rng(root: int, *key: Any) -> np.random.Generator:
    """The generator of one unit of a call (a group's key, a label, a method): a
    function of the call's root seed and the unit's key only.

    So a unit's draws do not depend on the order in which the units are evaluated, nor
    on which other units or metrics the call computes: a group's intervals are the same
    whether it is evaluated alone or with others, and with one metric or ten. Keys are
    compared by their repr after numpy scalars become Python ones (``np.int64(3)`` and
    ``3`` are one group) and missing values NaN (None, ``pd.NA`` and ``NaT`` are the
    missing key of NaN).

    Examples
    --------
    >>> a = unit_rng(7, ("north",), "point").random()
    >>> b = unit_rng(7, ("north",), "point").random()
    >>> c = unit_rng(7, ("south",), "point").random()
    >>> a == b, a == c
    (True, False)
    """
    digest = hashlib.sha256(repr(_plain(tuple(key))).encode("utf-8", "backslashreplace"))
    words = np.frombuffer(digest.digest()[:16], dtype=np.uint32).tolist()
    return np.random.default_rng(np.random.SeedSequence([root, *words]))


def quantile_positions(m: int, levels: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Order-statistic positions of the linear-interpolation quantile (numpy's default,
    Hyndman-Fan type 7) of m sorted draws: (lower index, upper index, weight)."""
    h = (m - 1) * np.asarray(levels, dtype=float)
    lo = np.floor(h).astype(int)
    hi = np.minimum(lo + 1, m - 1)
    return lo, hi, h - lo


def at_positions(sorted_values: np.ndarray, positions: tuple) -> np.ndarray:
    """Quantiles of sorted draws at positions from :func:`quantile_positions`.

    Draws may be infinite (LR+ and the diagnostic odds ratio with a zero count): where
    both neighbours are the same infinity, or the weight is 0, the quantile is that
    neighbour (numpy's ``inf - inf`` would make it NaN)."""
    lo, hi, w = positions
    low, high = sorted_values[lo], sorted_values[hi]
    with np.errstate(invalid="ignore"):
        between = low + w * (high - low)
    return np.where((low == high) | (w == 0), low, between)


def equal_tailed(sorted_draws: np.ndarray, confidence_level: float) -> tuple[float, float]:
    """The equal-tailed (percentile) interval of sorted draws."""
    tail = (1 - confidence_level) / 2
    lo, hi = at_positions(sorted_draws, quantile_positions(sorted_draws.size, [tail, 1 - tail]))
    return float(lo), float(hi)


def hpd(sorted_draws: np.ndarray, confidence_level: float) -> tuple[float, float]:
    """The shortest interval containing ``ceil(confidence_level * m)`` of the m sorted
    draws (highest posterior density for a unimodal posterior)."""
    m = sorted_draws.size
    k = min(m, int(np.ceil(confidence_level * m)))
    widths = sorted_draws[k - 1 :] - sorted_draws[: m - k + 1]
    i = int(np.argmin(widths))
    return float(sorted_draws[i]), float(sorted_draws[i + k - 1])


def bca_levels(
    sorted_draws: np.ndarray,
    estimate: float,
    jackknife: np.ndarray,
    weights: np.ndarray,
    confidence_level: float,
) -> tuple[float, float]:
    """The two adjusted percentile levels of the BCa interval (Efron 1987).

    ``jackknife`` holds the leave-one-out estimates of the distinct row types and
    ``weights`` how many rows of each type there are (for a confusion matrix: four
    types), so the acceleration is computed exactly without per-row work.

    When every draw lies on one side of the estimate, the bias correction z0 is
    infinite and BCa is undefined; the percentile levels are returned instead.
    """
    m = sorted_draws.size
    # Draws equal to the estimate are ties, counted half below. The estimate may be
    # computed in extended precision and the draws in float64, so "equal" allows a few
    # units in the last place.
    tol = 8 * np.finfo(float).eps * max(1.0, abs(estimate))
    below = np.searchsorted(sorted_draws, estimate - tol, side="left")
    ties = np.searchsorted(sorted_draws, estimate + tol, side="right") - below
    tail = (1 - confidence_level) / 2
    share = (below + 0.5 * ties) / m
    if share <= 0 or share >= 1:
        # every draw on one side of the estimate: z0 is infinite and BCa undefined;
        # the percentile levels are returned (documented in the Notes)
        return tail, 1 - tail
    z0 = special.ndtri(share)
    mean = np.sum(weights * jackknife) / np.sum(weights)
    d = mean - jackknife
    num = np.sum(weights * d**3)
    den = 6.0 * np.sum(weights * d**2) ** 1.5
    acc = num / den if den > 0 else 0.0
    z = special.ndtri(np.array([tail, 1 - tail]))
    with np.errstate(divide="ignore", invalid="ignore"):
        levels = special.ndtr(z0 + (z0 + z) / (1 - acc * (z0 + z)))
    if not np.all(np.isfinite(levels)):
        return tail, 1 - tail
    return float(levels[0]), float(levels[1])
