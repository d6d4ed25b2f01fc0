"""Interpolation in s = logit(prevalence) on a grid of nodes k * h: the Lagrange weights
that the prevalence grid (docs/method.md#prevalence-grid) and the shipped table of the
default DBT reference (docs/method.md#dbt-table) read their nodes with."""

from __future__ import annotations

import numpy as np

__all__ = ["logit", "expit", "cubic_weights", "quintic_weights"]


def logit(p: np.ndarray) -> np.ndarray:
    """log(p / (1 - p)), accurate near 0 and 1."""
    return np.log(p) - np.log1p(-p)


def expit(s: float) -> float:
    """The prevalence at s = logit(prevalence)."""
    return float(1.0 / (1.0 + np.exp(-s)))


def cubic_weights(t: float) -> tuple[float, float, float, float]:
    """Weights of the nodes j - 1, j, j + 1, j + 2 of the cubic Lagrange polynomial
    through them, at j + t (0 <= t < 1); (0, 1, 0, 0) at t = 0.

    Examples
    --------
    >>> [round(w, 4) for w in cubic_weights(0.5)]
    [-0.0625, 0.5625, 0.5625, -0.0625]
    """
    return (
        -t * (t - 1) * (t - 2) / 6,
        (t + 1) * (t - 1) * (t - 2) / 2,
        -(t + 1) * t * (t - 2) / 2,
        (t + 1) * t * (t - 1) / 6,
    )


def quintic_weights(t: float) -> tuple[float, ...]:
    """Weights of the nodes j - 2, ..., j + 3 of the degree-5 Lagrange polynomial
    through them, at j + t (0 <= t < 1); exactly (0, 0, 1, 0, 0, 0) at t = 0.

    Examples
    --------
    >>> sum(quintic_weights(0.3))  # doctest: +ELLIPSIS
    1.0...
    >>> quintic_weights(0.0)
    (0.0, 0.0, 1.0, 0.0, 0.0, 0.0)
    """
    offsets = (-2, -1, 0, 1, 2, 3)
    out = []
    for i in offsets:
        w = 1.0
        for k in offsets:
            if k != i:
                w *= (t - k) / (i - k)
        out.append(float(w) + 0.0)  # -0.0 as 0.0
    return tuple(out)
