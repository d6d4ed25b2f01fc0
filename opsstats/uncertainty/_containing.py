"""An interval that contains its estimate: the rule every default interval is finished
with (docs/method.md#containing-the-estimate).

An interval read off draws (a posterior's equal-tailed interval, a percentile bootstrap)
can leave out the observed value: at a boundary (a count of 0, a perfectly separated
test set whose ROC AUC is 1 while every posterior draw is below 1) or where the sampling
distribution is skewed about it. A table whose estimate lies outside its interval is
not one a reader can use, so the intervals the package chooses by default (and every
Dirichlet posterior interval) are extended to the estimate where it lies outside them:
Brown, Cai and DasGupta's boundary rule for the Jeffreys binomial interval (the lower
end 0 when x = 0), applied to every quantity. The method string then says so (:func:`contain`); :func:`contain_many` does the same for arrays
of groups, with the same text per group.

Ends within a few units in the last place of the estimate are first set to it
(:func:`snap_many`): an estimate computed in extended precision and draws in float64
can otherwise differ by one unit in the last place, which is no reason to say anything.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__: list[str] = []


def snap_many(lo: Any, hi: Any, estimate: Any) -> tuple[np.ndarray, np.ndarray]:
    """Ends within 8 units in the last place of the estimate set to it, elementwise."""
    lo, hi, estimate = (np.asarray(x, dtype=float) for x in (lo, hi, estimate))
    with np.errstate(invalid="ignore"):
        tol = 8 * np.finfo(float).eps * np.maximum(1.0, np.abs(estimate))
        finite = np.isfinite(estimate)
        return (
            np.where(finite & (np.abs(lo - estimate) <= tol), estimate, lo),
            np.where(finite & (np.abs(hi - estimate) <= tol), estimate, hi),
        )


#: The method string's ending when an end was moved (an OPS interval mapped from an
#: extended value interval says the same: the OPS of the value's estimate is the OPS).
EXTENDED = "; extended to contain the estimate"


def contain(low: float, high: float, estimate: float) -> tuple[float, float, str]:
    """``(low, high)`` extended to ``estimate`` where it lies outside them, and the text
    the method string ends with ('' when the interval already contained it, or where
    the estimate or an end is NaN, which no rule can fix).

    Examples
    --------
    >>> contain(0.9218, 0.9995, 1.0)
    (0.9218, 1.0, '; extended to contain the estimate')
    >>> contain(0.2, 0.4, 0.3)
    (0.2, 0.4, '')
    """
    lo, hi = (float(x) for x in snap_many(low, high, estimate))
    estimate = float(estimate)
    if not (np.isfinite(estimate) and np.isfinite(lo) and np.isfinite(hi)):
        return lo, hi, ""
    return min(lo, estimate), max(hi, estimate), EXTENDED if lo > estimate or hi < estimate else ""


def contain_many(low: Any, high: Any, estimate: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`contain` elementwise over groups: the ends, and each group's text (an
    object array of str, '' where nothing was moved), the same as :func:`contain`
    gives each group alone."""
    lo, hi = snap_many(low, high, estimate)
    est = np.broadcast_to(np.asarray(estimate, dtype=float), lo.shape)
    ok = np.isfinite(est) & np.isfinite(lo) & np.isfinite(hi)
    notes = np.full(lo.shape, "", dtype=object)
    notes[ok & ((lo > est) | (hi < est))] = EXTENDED
    return (
        np.where(ok, np.minimum(lo, est), lo),
        np.where(ok, np.maximum(hi, est), hi),
        notes,
    )
