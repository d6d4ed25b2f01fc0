"""Exact OPS for point references with a density: the generic quadrature engine.

For a point reference whose (A, B) has a density, the outperformance score

    OPS(mu; pi) = Pr{ M(pi, A, B) < mu }          (higher-is-better metrics)

is the probability of a region of the (alpha, beta) plane. This module computes it to
about 1e-10 for any metric that is monotone in one of the two error rates at fixed
other rate (every built-in metric is; a user metric is checked on a grid before use).

How (the comments below point back to these steps):

1. *Unit-square coordinates.* Each reference is described by a map of the unit square
   (s, c) -> (alpha, beta): alpha = x(s) is either F_A^{-1}(s) (probability
   coordinates, weight 1) or s itself weighted by the density of A when that density
   is bounded; beta = y(c | alpha) is increasing in c (the conditional inverse
   distribution function, or beta itself weighted through its distribution
   function). Then OPS = int_0^1 weight(s) Pr{G < v | alpha = x(s)} ds with
   G = s_M * M(pi, alpha, beta), s_M = +1 for higher-is-better and -1 for
   lower-is-better metrics (v = s_M * mu). Probability coordinates keep the integrand
   bounded where a Beta density is not.
2. *Monotone inner variable.* If G is monotone in c at fixed s, {c : G < v} is an
   interval [0, c*) or (c*, 1] and its probability h(s) is found by a bracketed root
   finder for the boundary c*(s) (Chandrupatla's method, vectorized over every
   (value, node) pair at once, with bisection as its safeguard). The bracket is kept
   on the *predicate* G < v, not on the sign of G - v, so that a metric that is flat at
   the level v on a region of positive area (a clipped or saturating metric) gives the
   exact boundary of {G < v} and ties are counted correctly. If G is not monotone in c
   but is in s, the roles of alpha and beta are exchanged; if it is monotone in
   neither, the engine refuses (``ValueError``) rather than return a wrong number.
3. *Outer integral.* OPS = int_0^1 weight(s) h(s) ds, where h jumps in slope at the
   "kinks" s at which c*(s) reaches 0 or 1 (the level set {G = v} leaves the square
   through an edge). These are found by the same root finder along the edges c = 0 and
   c = 1, the interval [0, 1] is split there, and each piece is integrated by the
   15-point Gauss-Kronrod rule, bisecting every piece whose error estimate
   |K15 - G7| exceeds ``tol`` times its width (so the total error is at most about
   ``tol``).
4. *Optional closed-form level set.* A metric may supply ``beta*(alpha; mu, pi)``, the
   boundary of {beta : M < mu} at fixed alpha, in closed form; it replaces the root
   finder in step 2. Every closed-form boundary is checked at run time (the metric is
   evaluated at it) and the nodes where the check fails go through the root finder.

Limitations. Monotonicity is checked on a 129 x 129 grid (and the edges on 1025
points), so a user metric that is non-monotone only between grid points would not be
caught; the error estimate |K15 - G7| is conservative for smooth pieces but, like every
quadrature rule, can in principle be fooled by a feature narrower than a piece's node
spacing that neither rule sees. Every built-in metric is checked against closed forms
or independent computations in the tests.

References
----------
Chandrupatla, T. R. (1997). A new hybrid quadratic/bisection algorithm for finding
the zero of a nonlinear function without using derivatives. Advances in Engineering
Software 28, 145-149. doi:10.1016/S0965-9978(96)00051-8
Piessens, R., de Doncker-Kapenga, E., Ueberhuber, C. W. and Kahaner, D. K. (1983).
QUADPACK: a subroutine package for automatic integration. Springer.
doi:10.1007/978-3-642-61786-7
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from .._lazy import lazy_module
from ..metrics import BoundMetric

if TYPE_CHECKING:
    from scipy import special
else:
    special = lazy_module("scipy.special")

__all__ = [
    "Design",
    "UniformSquare",
    "IndependentBeta",
    "ChanceTriangle",
    "exact_ops",
    "snap_probability",
    "DEFAULT_TOL",
]

#: Target absolute error of the outer integral (step 3 of the module docstring).
DEFAULT_TOL = 1e-10
#: Subintervals (each one 15-point rule) a value may need at once: a smooth integrand
#: needs a few dozen. Beyond this the integrand is not what the rule can resolve (a
#: metric evaluated with too few digits, say) and the engine refuses rather than run
#: for hours (markedness at prevalence 1e-9 ran for over 15 minutes before it had a
#: closed-form level set).
MAX_PIECES = 2_048

# 15-point Gauss-Kronrod rule and its embedded 7-point Gauss rule on [-1, 1]
# (QUADPACK qk15). Nodes in increasing order; the Gauss nodes are the odd positions.
_XK_HALF = np.array(
    [
        0.991455371120812639206854697526329,
        0.949107912342758524526189684047851,
        0.864864423359769072789712788640926,
        0.741531185599394439863864773280788,
        0.586087235467691130294144845693013,
        0.405845151377397166906606412076961,
        0.207784955007898467600689403773245,
        0.0,
    ]
)
_WK_HALF = np.array(
    [
        0.022935322010529224963732008058970,
        0.063092092629978553290700663189204,
        0.104790010322250183839876322541518,
        0.140653259715525918745189590510238,
        0.169004726639267902826583426598550,
        0.190350578064785409913256402421014,
        0.204432940075298892414161999234649,
        0.209482141084727828012999174891714,
    ]
)
_WG_HALF = np.array(
    [
        0.129484966168869693270611432679082,
        0.279705391489276667901467771423780,
        0.381830050505118944950369775488975,
        0.417959183673469387755102040816327,
    ]
)
_XK = np.concatenate([-_XK_HALF[:-1], _XK_HALF[::-1]])
_WK = np.concatenate([_WK_HALF[:-1], _WK_HALF[::-1]])
_WG = np.zeros(15)
_WG[1::2] = np.concatenate([_WG_HALF[:-1], _WG_HALF[::-1]])
# Nodes and weights mapped to [0, 1]; the rule difference K15 - G7 as one weight vector.
_NODES01 = (_XK + 1) / 2
_WK01 = _WK / 2
_WDIFF01 = (_WK - _WG) / 2

_EPS = np.finfo(float).eps


# ---------------------------------------------------------------------------------------
# Reference designs: (u, w) in the unit square -> (alpha, beta)
# ---------------------------------------------------------------------------------------


class Design(ABC):
    """A point reference with a density, as a map of the unit square onto (alpha, beta).

    The outer rate is x = ``outer(s)`` for s in [0, 1] with Jacobian ``weight(x)`` (either
    probability coordinates, x = F_A^{-1}(s) and weight 1, or x = s weighted by the
    density of A); the inner rate is y = ``inner(c, x)``, increasing in c in [0, 1], with
    ``inner_mass(c, x)`` = Pr{inner coordinate <= c | outer = x} (c itself in probability
    coordinates; the conditional distribution function of the inner rate when c = y).
    So OPS = int_0^1 weight(x(s)) Pr{G < v | x(s)} ds. With ``swap=True`` the roles of
    the two rates are exchanged (s drives beta, c drives alpha).
    ``inner_coord(beta, alpha)`` inverts ``inner`` (unswapped), for closed-form level sets.
    """

    key: tuple = ()
    #: whether weight(x) is identically 1 (probability coordinates for the outer rate)
    unit_weight: bool = True

    @abstractmethod
    def outer(self, s: np.ndarray, swap: bool = False) -> np.ndarray:
        """See the class docstring."""

    def weight(self, x: np.ndarray, swap: bool = False) -> np.ndarray | float:
        return 1.0

    @abstractmethod
    def inner(self, c: np.ndarray, x: np.ndarray, swap: bool = False) -> np.ndarray:
        """See the class docstring."""

    def inner_mass(self, c: np.ndarray, x: np.ndarray, swap: bool = False) -> np.ndarray:
        return c

    @abstractmethod
    def inner_coord(self, beta: np.ndarray, alpha: np.ndarray) -> np.ndarray:
        """See the class docstring."""

    def to_ab(
        self, s: np.ndarray, c: np.ndarray, swap: bool = False
    ) -> tuple[np.ndarray, np.ndarray]:
        x = self.outer(s, swap)
        y = self.inner(c, x, swap)
        return (y, x) if swap else (x, y)


class UniformSquare(Design):
    """A, B independent U[0, 1] (the paper's reference)."""

    key = ("uniform",)

    def outer(self, s, swap=False):
        return s

    def inner(self, c, x, swap=False):
        return c

    def inner_coord(self, beta, alpha):
        return np.clip(beta, 0.0, 1.0)


class IndependentBeta(Design):
    """A ~ Beta(a_alpha, b_alpha), B ~ Beta(a_beta, b_beta), independent.

    A rate whose Beta density is bounded (both shapes >= 1) is integrated in its own
    coordinate with the density as weight (smooth); one whose density is unbounded, in
    probability coordinates, where the integrand stays in [0, 1] (the inverse
    distribution function is then smooth at the ends, u^(1/a) with 1/a > 1).
    """

    def __init__(self, a_alpha: float, b_alpha: float, a_beta: float, b_beta: float):
        self.params = (a_alpha, b_alpha, a_beta, b_beta)
        self.key = ("beta", *self.params)
        self._prob = (min(a_alpha, b_alpha) < 1, min(a_beta, b_beta) < 1)

    def _ab(self, which: int) -> tuple[float, float]:
        return self.params[2 * which], self.params[2 * which + 1]

    def _outer_index(self, swap):
        return 1 if swap else 0

    @property
    def unit_weight(self) -> bool:  # type: ignore[override]
        return self._prob[0] and self._prob[1]

    def outer(self, s, swap=False):
        i = self._outer_index(swap)
        return special.betaincinv(*self._ab(i), s) if self._prob[i] else s

    def weight(self, x, swap=False):
        i = self._outer_index(swap)
        if self._prob[i]:
            return 1.0
        a, b = self._ab(i)
        return (
            np.exp((a - 1) * np.log(x) + (b - 1) * np.log1p(-x) - special.betaln(a, b))
            if (a != 1 or b != 1)
            else 1.0
        )

    def inner(self, c, x, swap=False):
        i = 1 - self._outer_index(swap)
        return special.betaincinv(*self._ab(i), c) if self._prob[i] else c

    def inner_mass(self, c, x, swap=False):
        i = 1 - self._outer_index(swap)
        return c if self._prob[i] else special.betainc(*self._ab(i), np.clip(c, 0.0, 1.0))

    def inner_coord(self, beta, alpha):
        beta = np.clip(beta, 0.0, 1.0)
        return special.betainc(*self._ab(1), beta) if self._prob[1] else beta


class ChanceTriangle(Design):
    """(A, B) uniform on the better-than-chance triangle {alpha + beta <= 1}.

    A has density 2 (1 - alpha) (the outer weight) and B given A = alpha is uniform on
    [0, 1 - alpha]; the design is symmetric in the two rates.
    """

    key = ("triangle",)
    unit_weight = False

    def outer(self, s, swap=False):
        return s

    def weight(self, x, swap=False):
        return 2.0 * (1.0 - x)

    def inner(self, c, x, swap=False):
        return (1.0 - x) * c

    def inner_coord(self, beta, alpha):
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.clip(np.where(alpha < 1, beta / (1.0 - alpha), 1.0), 0.0, 1.0)


# ---------------------------------------------------------------------------------------
# The oriented function G(u, w) and its profile
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Profile:
    """What the grid check found about G on the unit square (cached per metric,
    prevalence and design)."""

    swap: bool  # alpha and beta exchanged (G monotone in alpha only)
    inner_dir: int  # -1: G non-increasing in w; +1: non-decreasing
    edge_dirs: tuple[int | None, int | None]  # monotone direction of G(u, 0), G(u, 1)


#: Profiles by (metric function, parameters, direction, prevalence, design): the metric's
#: function itself, not its name, so a metric registered again is profiled again. The
#: profiles are frozen; the lock makes lookups and stores safe under threads.
_PROFILE_CACHE: OrderedDict[tuple, _Profile] = OrderedDict()
_PROFILE_CACHE_SIZE = 512
_PROFILE_LOCK = threading.Lock()


class _Oriented:
    """G(u, w) = s * M(pi, alpha, beta) on the unit square (module docstring, step 1),
    with s = +1 for higher-is-better and -1 for lower-is-better metrics."""

    def __init__(self, metric: BoundMetric, prevalence: float, design: Design, swap: bool):
        self.sign = 1.0 if metric.higher_is_better else -1.0
        self.label = metric.label
        self.func, self.params = metric.metric.func, metric.params
        self.prevalence, self.design, self.swap = prevalence, design, swap

    def outer(self, u: np.ndarray) -> np.ndarray:
        return self.design.outer(u, self.swap)

    def gx(self, x: np.ndarray, w: np.ndarray) -> np.ndarray:
        """G at outer value x (= outer(u), precomputed) and inner coordinate w."""
        y = self.design.inner(w, x, self.swap)
        a, b = (y, x) if self.swap else (x, y)
        # The registry's BoundMetric.__call__ does the same; calling the function
        # directly saves its per-call conversions in this hot loop.
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            out = np.asarray(self.func(self.prevalence, a, b, **self.params), dtype=float)
        if out.shape != np.shape(a):
            out = np.broadcast_to(out, np.shape(a)).astype(float)
        return -out if self.sign < 0 else out

    def __call__(self, u: np.ndarray, w: np.ndarray) -> np.ndarray:
        u, w = np.broadcast_arrays(np.asarray(u, float), np.asarray(w, float))
        return self.gx(self.outer(u), w)


def _direction(diffs: np.ndarray, scale: np.ndarray) -> int | None:
    """-1 / +1 / 0 (constant) from differences along an axis; None if both signs occur
    beyond rounding."""
    with np.errstate(invalid="ignore"):
        tol = 1e-9 * (1.0 + np.where(np.isfinite(scale), np.abs(scale), 0.0))
        up = bool(np.any(diffs > tol))
        down = bool(np.any(diffs < -tol))
    if up and down:
        return None
    return 1 if up else (-1 if down else 0)


def _grid_directions(g: Callable, n: int = 129) -> tuple[int | None, int | None]:
    """Monotone direction of G in w (at fixed u) and in u (at fixed w) on a grid."""
    t = np.linspace(0.0, 1.0, n)
    t[0], t[-1] = 1e-9, 1 - 1e-9  # the open square: edges may be 0/0 (measure zero)
    uu, ww = np.meshgrid(t, t, indexing="ij")
    vals = g(uu, ww)
    with np.errstate(invalid="ignore"):
        in_w = _direction(np.diff(vals, axis=1), vals[:, :-1])
        in_u = _direction(np.diff(vals, axis=0), vals[:-1, :])
    return in_w, in_u


def _profile(metric: BoundMetric, prevalence: float, design: Design) -> _Profile:
    key: tuple[Any, ...] | None = (
        metric.metric.func,
        metric.param_items,
        metric.direction,
        prevalence,
        design.key,
    )
    try:
        with _PROFILE_LOCK:  # lookup and refresh in one step: no other thread in between
            prof = _PROFILE_CACHE[key]  # type: ignore[index]  # None only after a TypeError
            _PROFILE_CACHE.move_to_end(key)  # type: ignore[arg-type]
        return prof
    except KeyError:
        pass
    except TypeError:  # unhashable parameter values: no caching
        key = None
    swap = False
    in_w, _ = _grid_directions(_Oriented(metric, prevalence, design, False))
    if in_w is None:
        swap = True
        in_w, _ = _grid_directions(_Oriented(metric, prevalence, design, True))
        if in_w is None:
            raise ValueError(
                f"the exact OPS engine needs {metric.label} to be monotone in beta at fixed "
                f"alpha, or in alpha at fixed beta, on the reference's support; at prevalence "
                f"{prevalence:g} it is monotone in neither (checked on a grid), so its level "
                "sets can't be integrated exactly. Use a Monte Carlo or empirical reference "
                "for this metric."
            )
    g = _Oriented(metric, prevalence, design, swap)
    t = np.linspace(0.0, 1.0, 1025)
    t[0], t[-1] = 1e-12, 1 - 1e-12
    edge_dirs = []
    for w_edge in (0.0, 1.0):
        e = g(t, np.full_like(t, w_edge))
        with np.errstate(invalid="ignore"):
            edge_dirs.append(_direction(np.diff(e), e[:-1]))
    prof = _Profile(
        swap=swap, inner_dir=1 if in_w == 1 else -1, edge_dirs=(edge_dirs[0], edge_dirs[1])
    )
    if key is not None:
        with _PROFILE_LOCK:
            _PROFILE_CACHE[key] = prof
            if len(_PROFILE_CACHE) > _PROFILE_CACHE_SIZE:
                _PROFILE_CACHE.popitem(last=False)
    return prof


# ---------------------------------------------------------------------------------------
# Step 2: the boundary of a monotone predicate, vectorized (Chandrupatla's method)
# ---------------------------------------------------------------------------------------


def _pred(vals: np.ndarray, v: np.ndarray, strict: bool) -> np.ndarray:
    return vals < v if strict else vals <= v


def _eval_edge(fn: Callable[..., np.ndarray], x: np.ndarray, inward: float) -> np.ndarray:
    """fn(x), re-evaluated a hair inside the square where it is 0/0 on the edge (the
    edge itself has measure zero; only the limit from inside matters)."""
    vals = fn(x)
    bad = np.isnan(vals)
    if bad.any():
        vals = vals.copy()
        vals[bad] = fn(x[bad] + inward * 1e-13, bad)
    return vals


def boundary(
    fn: Callable[[np.ndarray, np.ndarray | slice], np.ndarray],
    v: np.ndarray,
    x_false: np.ndarray,
    x_true: np.ndarray,
    f_false: np.ndarray,
    f_true: np.ndarray,
    strict: bool,
    xtol: float = 1e-14,
    maxiter: int = 200,
) -> np.ndarray:
    """Boundary of a monotone predicate fn(x) < v (or <=) between x_false (predicate
    false) and x_true (predicate true), elementwise.

    ``fn(x, idx)`` evaluates the function at points ``x`` for the elements ``idx`` (an
    index array into the original problem). Chandrupatla's inverse quadratic steps are
    taken when his criterion says they are safe, bisection otherwise; the bracket always
    keeps one point where the predicate is false and one where it is true, so the
    answer is the exact boundary of {fn < v} (to ``xtol``) even where fn is flat at v.
    """
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        n = v.size
        out = np.empty(n)
        idx = np.arange(n)
        # x1: latest point; x2: other end of the bracket; x3: the point dropped last.
        x1, f1, p1 = x_false.astype(float), f_false - v, np.zeros(n, bool)
        x2, f2 = x_true.astype(float), f_true - v
        x3, f3 = x2.copy(), f2.copy()
        vv = v
        # First step: false position (secant) where the function values allow it.
        t = f1 / (f1 - f2)
        t = np.where(np.isfinite(t), np.clip(t, 0.05, 0.95), 0.5)
        for _ in range(maxiter):
            xt = x1 + t * (x2 - x1)
            ft_raw = fn(xt, idx)
            pt = _pred(ft_raw, vv, strict)
            ft = ft_raw - vv
            same = pt == p1
            x3 = np.where(same, x1, x2)
            f3 = np.where(same, f1, f2)
            x2 = np.where(same, x2, x1)
            f2 = np.where(same, f2, f1)
            x1, f1, p1 = xt, ft, pt
            tol = 4 * _EPS * np.abs(x1) + xtol
            width = np.abs(x2 - x1)
            done = width <= 2 * tol
            n_done = np.count_nonzero(done)
            # Compact the active set only when a quarter of it has converged: a converged
            # element that keeps iterating only shrinks its bracket, which is harmless,
            # and fancy-indexing a dozen arrays every iteration costs more than that.
            if n_done and 4 * n_done >= done.size:
                out[idx[done]] = 0.5 * (x1[done] + x2[done])
                keep = ~done
                if not keep.any():
                    return out
                idx, vv = idx[keep], vv[keep]
                x1, x2, x3 = x1[keep], x2[keep], x3[keep]
                f1, f2, f3, p1 = f1[keep], f2[keep], f3[keep], p1[keep]
                tol, width = tol[keep], width[keep]
            # Chandrupatla's criterion for inverse quadratic interpolation.
            xi = (x1 - x2) / (x3 - x2)
            phi = (f1 - f2) / (f3 - f2)
            ok = (phi * phi < xi) & ((1 - phi) ** 2 < 1 - xi)
            t_iqi = f1 / (f2 - f1) * f3 / (f2 - f3) + (x3 - x1) / (x2 - x1) * f1 / (
                f3 - f1
            ) * f2 / (f3 - f2)
            t = np.where(ok & np.isfinite(t_iqi), t_iqi, 0.5)
            tl = np.minimum(tol / width, 0.5)
            t = np.clip(t, tl, 1 - tl)
    # Not converged within maxiter (only possible for pathological functions): the
    # bracket still holds the boundary; return its middle.
    out[idx] = 0.5 * (x1 + x2)  # pragma: no cover
    return out  # pragma: no cover


# ---------------------------------------------------------------------------------------
# Steps 2-4: h(u) and the adaptive outer integral
# ---------------------------------------------------------------------------------------


class _Problem:
    """Area of {(u, w) : G(u, w) < v} (or <= v) for an array of levels v."""

    def __init__(
        self,
        g: _Oriented,
        prof: _Profile,
        v: np.ndarray,
        strict: bool,
        level_set: Callable | None,
        design: Design,
        sign: float,
        metric_fn: Callable | None,
    ):
        self.g, self.prof, self.v, self.strict = g, prof, v, strict
        self.level_set, self.design, self.sign = level_set, design, sign
        self.metric_fn = metric_fn
        self.n_root = 0  # nodes that went through the root finder (diagnostics)

    # -- h(u): length of {w : G(u, w) < v} ------------------------------------------
    def h(self, u: np.ndarray, v: np.ndarray) -> np.ndarray:
        if self.level_set is not None:
            hv, bad = self._h_level_set(u, v)
            if bad.any():
                hv[bad] = self._h_root(u[bad], v[bad])
            return hv
        return self._h_root(u, v)

    def _h_level_set(self, u: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """h from the metric's closed-form boundary beta*(alpha), with its run-time
        check (step 4). Only used for a non-swapped design with G non-increasing in w."""
        alpha = self.design.outer(u)
        mu = self.sign * v
        b_star = cast(Callable[..., np.ndarray], self.level_set)(alpha, mu)
        w_star = self.design.inner_coord(b_star, alpha)
        hv = 1.0 - self.design.inner_mass(w_star, alpha)
        if not self.design.unit_weight:
            hv = hv * self.design.weight(alpha)
        # Check: at an interior boundary the metric equals mu; at a clipped one the
        # predicate holds on the whole (or none of the) inner interval.
        beta_at = self.design.inner(w_star, alpha)
        m_at = cast(Callable[..., np.ndarray], self.metric_fn)(alpha, beta_at)
        with np.errstate(invalid="ignore", over="ignore"):
            interior = (w_star > 0) & (w_star < 1)
            resid_ok = np.abs(m_at - mu) <= 1e-8 * (1.0 + np.abs(mu))
            g_at = self.sign * m_at
            at0 = _pred(g_at, v, self.strict)  # G < v on all of [0, 1]
            at1 = ~_pred(g_at, v, self.strict)  # G < v nowhere
        good = np.where(interior, resid_ok, np.where(w_star <= 0, at0, at1))
        good &= np.isfinite(hv)
        return hv, ~good

    def _h_root(self, u: np.ndarray, v: np.ndarray) -> np.ndarray:
        gx, strict = self.g.gx, self.strict
        self.n_root += u.size
        x = self.g.outer(u)  # once per node: the root finder moves w only
        f0 = _eval_edge(lambda w, sel=slice(None): gx(x[sel], w), np.zeros_like(u), 1.0)
        f1 = _eval_edge(lambda w, sel=slice(None): gx(x[sel], w), np.ones_like(u), -1.0)
        p0, p1 = _pred(f0, v, strict), _pred(f1, v, strict)
        hv = np.empty(u.size)
        if self.prof.inner_dir < 0:  # {G < v} = (w*, 1]
            hv[p0] = 1.0
            hv[~p0 & ~p1] = 0.0
            mid = ~p0 & p1
            xf, xt, ff, ft = 0.0, 1.0, f0, f1
        else:  # {G < v} = [0, w*)
            hv[p1] = 1.0
            hv[~p1 & ~p0] = 0.0
            mid = p0 & ~p1
            xf, xt, ff, ft = 1.0, 0.0, f1, f0
        if mid.any():
            xm = x[mid]
            k = int(mid.sum())
            w_star = boundary(
                lambda w, idx: gx(xm[idx], w),
                v[mid],
                np.full(k, xf),
                np.full(k, xt),
                ff[mid],
                ft[mid],
                strict,
            )
            mass = self.design.inner_mass(w_star, xm, self.g.swap)
            hv[mid] = 1.0 - mass if self.prof.inner_dir < 0 else mass
        if not self.design.unit_weight:
            hv = hv * self.design.weight(x, self.g.swap)
        return hv

    # -- kinks: u where w*(u) reaches 0 or 1 ------------------------------------------
    def kinks(self) -> list[np.ndarray]:
        out = []
        n = self.v.size
        for w_edge, direction in zip((0.0, 1.0), self.prof.edge_dirs, strict=True):
            if not direction:  # constant (0) or not monotone (None): no kink
                continue

            def edge(u, idx=slice(None), w_edge=w_edge):
                return self.g(u, np.full(np.shape(u), w_edge))

            e0 = _eval_edge(edge, np.zeros(n), 1.0)
            e1 = _eval_edge(edge, np.ones(n), -1.0)
            p0, p1 = _pred(e0, self.v, self.strict), _pred(e1, self.v, self.strict)
            k = np.full(n, np.nan)
            flip = p0 != p1
            if flip.any():
                xf = np.where(p0[flip], 1.0, 0.0)
                ff = np.where(p0[flip], e1[flip], e0[flip])
                ft = np.where(p0[flip], e0[flip], e1[flip])
                k[flip] = boundary(
                    lambda u, idx: edge(u), self.v[flip], xf, 1.0 - xf, ff, ft, self.strict
                )
            out.append(k)
        return out

    # -- step 3: adaptive Gauss-Kronrod over u ------------------------------------------
    def integrate(self, tol: float, max_rounds: int = 60) -> np.ndarray:
        n = self.v.size
        cuts = [np.zeros(n), np.ones(n), *self.kinks()]
        pts = np.sort(np.column_stack(cuts), axis=1)  # NaN (no kink) sorts last
        vid_l, a_l, b_l = [], [], []
        for j in range(pts.shape[1] - 1):
            a, b = pts[:, j], pts[:, j + 1]
            ok = np.isfinite(b) & (b > a)
            vid_l.append(np.flatnonzero(ok))
            a_l.append(a[ok])
            b_l.append(b[ok])
        vid = np.concatenate(vid_l)
        a = np.concatenate(a_l)
        b = np.concatenate(b_l)
        total = np.zeros(n)
        for _ in range(max_rounds):
            if vid.size == 0:
                break
            width = b - a
            u = a[:, None] + width[:, None] * _NODES01
            hv = self.h(u.ravel(), np.repeat(self.v[vid], 15)).reshape(u.shape)
            est = width * (hv @ _WK01)
            err = width * np.abs(hv @ _WDIFF01)
            # A piece narrower than 1e-13 contributes at most its width (h in [0, 1]).
            acc = (err <= tol * width) | (width < 1e-13)
            total += np.bincount(vid[acc], weights=est[acc], minlength=n)
            rest = ~acc
            vid, a, b = vid[rest], a[rest], b[rest]
            if vid.size > MAX_PIECES * n:
                raise ValueError(
                    f"the exact OPS of {self.g.label} at prevalence {self.g.prevalence:g} "
                    f"did not reach its tolerance ({tol:g}) within {MAX_PIECES} "
                    "subintervals per value: the metric's values are too rough or too "
                    "imprecise in float on this reference's support (at a tiny "
                    "prevalence, say). Use a Monte Carlo or empirical reference for it."
                )
            mid = 0.5 * (a + b)
            vid = np.concatenate([vid, vid])
            a, b = np.concatenate([a, mid]), np.concatenate([mid, b])
        if vid.size:  # pragma: no cover  (pieces narrower than 1e-13 are always accepted,
            # which bisection reaches after ~43 rounds)
            raise RuntimeError("adaptive quadrature did not converge; please report this.")
        return total


def snap_probability(p: np.ndarray) -> np.ndarray:
    """Clip to [0, 1]; a probability within 1e-13 of 0 or 1 becomes exactly 0 or 1.

    Sums of quadrature weights (and closed forms such as the F1 formula at mu = 1) carry
    rounding of a few ulps; 1e-13 is far below the 1e-10 target error, and an OPS at the
    end of a metric's range should read exactly 0 or 1.
    """
    p = np.clip(p, 0.0, 1.0)
    return np.where(p < 1e-13, 0.0, np.where(p > 1 - 1e-13, 1.0, p))


def exact_ops(
    metric: BoundMetric,
    values: np.ndarray,
    prevalence: float,
    design: Design,
    *,
    ties: str = "strict",
    level_set: Callable | None = None,
    tol: float = DEFAULT_TOL,
) -> np.ndarray:
    """Exact OPS of ``values`` of ``metric`` at ``prevalence`` under ``design``.

    Parameters
    ----------
    metric : BoundMetric
        Any registered metric (monotone in alpha or in beta; checked).
    values : ndarray
        Observed metric values (may be +-inf where the metric's range allows).
    prevalence : float
        In (0, 1).
    design : Design
        The reference distribution as a map of the unit square.
    ties : {"strict", "mid"}
        ``"mid"`` adds half of Pr{M = mu} (positive only where M is constant on a
        region of positive area, e.g. a clipped metric).
    level_set : callable, optional
        ``level_set(alpha, mu) -> beta*``: the closed-form boundary of
        {beta : M(pi, alpha, beta) < mu} (step 4 of the module docstring); checked at
        run time, the root finder is the fallback.
    tol : float
        Target absolute error.

    Returns
    -------
    ndarray
        OPS in [0, 1], same shape as ``values``.
    """
    values = np.asarray(values, dtype=float)
    shape = values.shape
    mu = values.ravel()
    sign = 1.0 if metric.higher_is_better else -1.0
    v = sign * mu
    prof = _profile(metric, prevalence, design)
    g = _Oriented(metric, prevalence, design, prof.swap)
    use_ls = level_set is not None and not prof.swap and prof.inner_dir < 0
    metric_fn = None
    if use_ls:
        func, params = metric.metric.func, metric.params

        def metric_fn(a: np.ndarray, b: np.ndarray) -> np.ndarray:
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                return np.asarray(func(prevalence, a, b, **params), dtype=float)

    def area(strict: bool) -> np.ndarray:
        prob = _Problem(g, prof, v, strict, level_set if use_ls else None, design, sign, metric_fn)
        return prob.integrate(tol)

    out = area(True)
    if ties == "mid":
        out = 0.5 * (out + area(False))
    out = snap_probability(out)
    return out.reshape(shape)


def exact_ops_info(metric: BoundMetric, prevalence: float, design: Design) -> dict[str, Any]:
    """Diagnostics: how the engine sees ``metric`` (orientation, monotone edges)."""
    prof = _profile(metric, prevalence, design)
    return {"swap": prof.swap, "inner_dir": prof.inner_dir, "edge_dirs": prof.edge_dirs}
