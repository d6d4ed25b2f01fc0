"""An independent, high-precision OPS of markedness under the uniform reference.

For checking :func:`opsstats.reference._uniform_closed_forms._ops_markedness` where
float arithmetic is hardest (prevalences down to 1e-12): everything here is computed
with Python's :mod:`decimal` at 50 significant digits and shares nothing with the
closed form but the definition of the metric in counts,

    markedness = TP / (TP + FP) + TN / (TN + FN) - 1,
    TP = pi x, FP = (1 - pi) a, FN = pi (1 - x), TN = (1 - pi)(1 - a),

with x = 1 - beta and a = alpha. OPS = Pr{markedness < mu} for alpha, beta iid U[0, 1]
is the integral over a of the length of {x in [0, 1] : markedness < mu}. Markedness
increases in x at fixed a, so that length is the boundary x*(a), found by bisection to
1e-30; the edges where x* reaches 1 (mu > 0) or 0 (mu < 0) are found by bisection too,
and the integral over a is a composite 8-point Gauss-Legendre rule on pieces graded
geometrically towards both ends of each stretch (the boundary has square-root
behaviour at the ends). Slow (about a second per value) and exact to about 1e-15.
"""

from __future__ import annotations

import itertools
from decimal import Decimal, localcontext

import numpy as np

_DIGITS = 50
_NODES, _WEIGHTS = np.polynomial.legendre.leggauss(8)


def _markedness(p: Decimal, a: Decimal, x: Decimal) -> Decimal:
    q = 1 - p
    tp, fp, fn, tn = p * x, q * a, p * (1 - x), q * (1 - a)
    return tp / (tp + fp) + tn / (tn + fn) - 1


def _bisect(f, lo: Decimal, hi: Decimal, iterations: int = 110) -> Decimal:
    """The point where the increasing predicate f (False at lo, True at hi) flips."""
    for _ in range(iterations):
        mid = (lo + hi) / 2
        if f(mid):
            hi = mid
        else:
            lo = mid
    return (lo + hi) / 2


def _x_star(p: Decimal, a: Decimal, mu: Decimal) -> Decimal:
    """The length of {x : markedness(p, a, x) < mu}: 0, 1 or the boundary."""
    eps = Decimal(10) ** -40
    if _markedness(p, a, 1 - eps) < mu:
        return Decimal(1)
    if _markedness(p, a, eps) >= mu:
        return Decimal(0)
    return _bisect(lambda x: _markedness(p, a, x) >= mu, eps, 1 - eps)


def _graded(lo: Decimal, hi: Decimal, levels: int = 14) -> list[Decimal]:
    """Cut points of [lo, hi], graded by halves towards both ends."""
    mid = (lo + hi) / 2
    left = [lo + (mid - lo) / Decimal(2) ** k for k in range(levels, -1, -1)]
    right = [hi - (hi - mid) / Decimal(2) ** k for k in range(1, levels + 1)]
    return [lo, *left, *right, hi]


def _integral(f, lo: Decimal, hi: Decimal) -> Decimal:
    total = Decimal(0)
    cuts = _graded(lo, hi)
    for a, b in itertools.pairwise(cuts):
        if b <= a:
            continue
        half, centre = (b - a) / 2, (a + b) / 2
        for t, w in zip(_NODES, _WEIGHTS, strict=True):
            total += Decimal(float(w)) * half * f(centre + half * Decimal(float(t)))
    return total


def markedness_ops(prevalence: float, mu: float) -> float:
    """OPS of markedness ``mu`` at ``prevalence`` under Uniform, to about 1e-15."""
    with localcontext() as ctx:
        ctx.prec = _DIGITS
        p, m = Decimal(prevalence), Decimal(mu)
        q = 1 - p
        eps = Decimal(10) ** -40
        if m > 0:
            # x* = 1 (the whole column counts) where markedness(a, x = 1) = p / (p + q a)
            # is below mu: a > a1
            if _markedness(p, eps, 1 - eps) <= m:
                a1 = Decimal(0)
            elif _markedness(p, 1 - eps, 1 - eps) >= m:
                a1 = Decimal(1)
            else:
                a1 = _bisect(lambda a: _markedness(p, a, 1 - eps) < m, eps, 1 - eps)
            inner = _integral(lambda a: _x_star(p, a, m), Decimal(0), a1) if a1 > 0 else 0
            return float(inner + (1 - a1))
        # mu <= 0: x* = 0 where markedness(a, x = 0) = -p / (1 - q a) is at least mu: a < a0
        if _markedness(p, eps, eps) < m:
            a0 = Decimal(0)
        elif _markedness(p, 1 - eps, eps) >= m:
            a0 = Decimal(1)
        else:
            a0 = _bisect(lambda a: _markedness(p, a, eps) < m, eps, 1 - eps)
        del q
        return float(_integral(lambda a: _x_star(p, a, m), a0, Decimal(1)) if a0 < 1 else 0)
