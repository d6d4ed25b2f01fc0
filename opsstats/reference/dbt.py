"""The Directed Binary Tree (DBT) distribution of curves (Zhao et al., section 3.3)."""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import Any

import numpy as np

from .._validation import check_positive_int
from ..curves._geometry import CurveArea, OperatingPoint
from .base import CurveReference

__all__ = ["DirectedBinaryTree", "dbt_curves"]

#: Curves per streamed chunk. Part of the reproducibility contract: chunk i of a
#: reference with seed s is drawn from ``SeedSequence([s, i])``, so the G curves (and
#: every OPS) depend only on (depth, G, seed), not on memory or call order.
CHUNK = 10_000
_WORKERS = max(1, min(4, os.cpu_count() or 1))


def dbt_curves(m: int, depth: int, rng: np.random.Generator, *,
               out: tuple[np.ndarray, np.ndarray] | None = None
               ) -> tuple[np.ndarray, np.ndarray]:
    """Draw ``m`` DBT curves of the given depth.

    Returns ``(alpha, beta)`` of shape ``(m, 2**depth + 1)``: the ``2**depth - 1`` tree
    nodes in in-order (alpha increasing, beta decreasing) with the endpoints
    (alpha, beta) = (0, 1) and (1, 0) added at positions 0 and ``2**depth``.

    The root draws alpha, beta ~ U[0, 1]; the left child of a node (alpha, beta) with
    ranges (lA, uA, lB, uB) draws alpha ~ U[lA, alpha), beta ~ U(beta, uB]; the right
    child alpha ~ U(alpha, uA], beta ~ U[lB, beta) (METHOD.md 2.2).

    Implementation: in the in-order layout with the endpoints at 0 and 2**depth, the
    node at position p of height h (p an odd multiple of 2**h) has as its ranges
    exactly the values at positions p - 2**h and p + 2**h (its bounding ancestors, or
    the endpoints). So the tree is drawn level by level, root first, in place. The
    arrays are stored positions-major (shape ``(2**depth + 1, m)``, returned as their
    transposed views) so that each level is a set of whole contiguous rows. ``out``
    passes two such buffers to reuse (streaming without new allocations).
    """
    top = 2 ** depth
    if out is None:
        out = (np.empty((top + 1, m)), np.empty((top + 1, m)))
    alpha, beta = out[0][:, :m], out[1][:, :m]
    alpha[0], alpha[top] = 0.0, 1.0
    beta[0], beta[top] = 1.0, 0.0
    u = np.empty((top // 2, m))
    for h in range(depth - 1, -1, -1):
        s = 2 ** h
        for arr in (alpha, beta):
            bounds = arr[0::2 * s]  # positions 0, 2s, ..., 2**depth: the ranges
            lo, hi = bounds[:-1], bounds[1:]
            draw = u[:lo.shape[0]]
            rng.random(out=draw)
            target = arr[s::2 * s]
            np.subtract(hi, lo, out=target)
            target *= draw
            target += lo
    return alpha.T, beta.T


class DirectedBinaryTree(CurveReference):
    """The Directed Binary Tree reference distribution of classifier curves.

    The paper's reference for scoring (curve) metrics: AUCs of ROC, PR, lift and gain
    curves, and values at an operating point (precision at recall u, lift at rate u).
    Each of the ``n_curves`` samples is a monotone sequence of ``2**depth - 1``
    (alpha, beta) pairs drawn down a binary tree, plus the endpoints (0, 1) and (1, 0).

    Parameters
    ----------
    depth : int, default 9
        Tree depth (511 interior points). Depths 4 to 11 agree within about 0.004.
    n_curves : int, default 100_000
        Number of reference curves G; the Monte Carlo standard error of an OPS p is
        sqrt(p (1 - p) / G), at most 0.0016 at the default.
    seed : int, default 20231
        Seed of the stream of curves. References with equal (depth, n_curves, seed) are
        identical and share one cache.
    cache_size : int, default 256
        Number of (quantity, prevalence) value vectors kept (each 8 * G bytes).

    Notes
    -----
    The curves are never held in memory: they are streamed in seeded chunks of
    10,000, and for each (quantity, prevalence) only the sorted vector of the G values
    is kept, so that the OPS of any number of observed values is a ``searchsorted``.
    ROC quantities (and operating points whose metric does not depend on prevalence)
    are cached once for every prevalence. Use :meth:`precompute` to compute many
    quantities (e.g. the 20 points of an OPRC) in one pass over the curves.

    The same AUC rule must be applied to the observed curve and to the reference
    curves; ``rule`` defaults to the curve's rule (trapezoid for ROC and gain, step for
    PR and lift) and is recorded in every result.

    When to use it: to standardize a curve metric the way the paper does. A random
    classifier's PR AUC (which equals pi) scores an OPS well below 0.5 (about 0.39 at
    pi = 0.1) under this reference, while a ROC AUC of 0.5 scores about 0.5; and
    "precision at recall 0.9" against this curve reference differs from the OPS of the
    single confusion matrix against :class:`~opsstats.reference.uniform.Uniform`.

    References
    ----------
    N. Zhao, T. Bui, J. Y. Yu, K. Dzieciolowski. Outperformance Score: A Universal
    Standardization Method for Confusion-Matrix-Based Classification Performance
    Metrics. Section 3.3 and eqs. (8)-(9).

    Examples
    --------
    >>> from opsstats.reference.dbt import DirectedBinaryTree
    >>> dbt = DirectedBinaryTree(n_curves=20_000)
    >>> r = dbt.ops("pr_auc", 0.6, prevalence=0.1)
    >>> round(r.estimate, 2), r.rule
    (0.96, 'step')
    """

    exact = False
    _shared: dict[tuple[int, int, int], OrderedDict] = {}
    _lock = threading.Lock()

    def __init__(self, depth: int = 9, n_curves: int = 100_000, *, seed: int = 20231,
                 cache_size: int = 256) -> None:
        self.depth = check_positive_int("depth", depth)
        if self.depth > 14:
            raise ValueError(f"`depth` must be at most 14 (2**14 - 1 points per curve); "
                             f"got {depth!r}.")
        self.n_curves = check_positive_int("n_curves", n_curves, minimum=100)
        self.seed = check_positive_int("seed", seed, minimum=0)
        self.cache_size = check_positive_int("cache_size", cache_size)
        key = (self.depth, self.n_curves, self.seed)
        with self._lock:
            self._cache = self._shared.setdefault(key, OrderedDict())

    @property
    def description(self) -> str:
        return (f"DirectedBinaryTree(depth={self.depth}, n_curves={self.n_curves}, "
                f"seed={self.seed})")

    @property
    def method(self) -> str:
        return f"Monte Carlo, {self.n_curves} DBT curves"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DirectedBinaryTree) and (
            (self.depth, self.n_curves, self.seed) == (other.depth, other.n_curves, other.seed))

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.depth, self.n_curves, self.seed))

    # ------------------------------------------------------------------ curves
    def _chunk(self, index: int, out: tuple[np.ndarray, np.ndarray] | None = None
               ) -> tuple[np.ndarray, np.ndarray]:
        m = min(CHUNK, self.n_curves - index * CHUNK)
        rng = np.random.default_rng(np.random.SeedSequence([self.seed, index]))
        return dbt_curves(m, self.depth, rng, out=out)

    def _buffers(self) -> tuple[np.ndarray, np.ndarray]:
        shape = (2 ** self.depth + 1, min(CHUNK, self.n_curves))
        return np.empty(shape), np.empty(shape)

    @property
    def n_chunks(self) -> int:
        return -(-self.n_curves // CHUNK)

    def iter_curves(self) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Stream the reference curves as ``(alpha, beta)`` chunks of up to 10,000.

        The chunks are views of two reused buffers: copy them to keep them."""
        buffers = self._buffers()
        for index in range(self.n_chunks):
            yield self._chunk(index, out=buffers)

    # ------------------------------------------------------------------ values
    def _key(self, quantity: CurveArea | OperatingPoint, prevalence: float) -> tuple:
        return (quantity.key, None if not _depends_on_prevalence(quantity) else prevalence)

    def precompute(self, quantities: Iterable[CurveArea | OperatingPoint],
                   prevalence: float) -> None:
        """Compute and cache several quantities at one prevalence in one pass."""
        todo = [q for q in quantities if self._key(q, prevalence) not in self._cache]
        if not todo:
            return
        local = threading.local()

        def work(index: int) -> list[np.ndarray]:
            if not hasattr(local, "buffers"):
                local.buffers = self._buffers()
            alpha, beta = self._chunk(index, out=local.buffers)
            return [np.asarray(q(prevalence, alpha, beta), dtype=float) for q in todo]

        # Chunks are independent (each has its own seed), so threads give the same
        # values as a serial pass; numpy releases the GIL in the array work.
        with ThreadPoolExecutor(max_workers=_WORKERS) as pool:
            per_chunk = list(pool.map(work, range(self.n_chunks)))
        parts = [[chunk[i] for chunk in per_chunk] for i in range(len(todo))]
        for q, chunks in zip(todo, parts, strict=True):
            values = np.concatenate(chunks)
            if np.isnan(values).any():  # pragma: no cover - a metric 0/0 on a curve point
                raise ValueError(f"{q.label} is undefined on {int(np.isnan(values).sum())} "
                                 "reference curves; it cannot be ranked against this "
                                 "reference.")
            values.sort()
            self._store(self._key(q, prevalence), values)

    def _store(self, key: tuple, values: np.ndarray) -> None:
        with self._lock:
            self._cache[key] = values
            self._cache.move_to_end(key)
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)

    def reference_values(self, quantity: CurveArea | OperatingPoint,
                         prevalence: float) -> np.ndarray:
        """Sorted values of ``quantity`` over the G reference curves at ``prevalence``."""
        key = self._key(quantity, prevalence)
        if key not in self._cache:
            self.precompute([quantity], prevalence)
        with self._lock:
            self._cache.move_to_end(key)
            return self._cache[key]

    def band(self, curve: str, prevalence: float, x: Any,
             quantiles: tuple[float, ...] = (0.05, 0.5, 0.95)) -> np.ndarray:
        """Pointwise quantiles of the reference curves' y at the given x values (for
        plotting a band, e.g. the 5-95% band of PR curves); shape (len(quantiles),
        len(x))."""
        from ..curves._geometry import parse_at

        y_metric = {"roc": "recall", "pr": "precision", "lift": "lift", "gain": "recall"}
        axis = {"roc": "fpr", "pr": "recall", "lift": "rate", "gain": "rate"}
        if curve not in y_metric:
            raise ValueError(f"`curve` must be one of 'roc', 'pr', 'lift', 'gain'; got {curve!r}.")
        points = [parse_at(y_metric[curve], {axis[curve]: float(u)}) for u in np.atleast_1d(x)]
        self.precompute(points, prevalence)
        return np.array([np.quantile(self.reference_values(p, prevalence), quantiles)
                         for p in points]).T


def _depends_on_prevalence(quantity: CurveArea | OperatingPoint) -> bool:
    """Whether a curve quantity changes with prevalence (ROC quantities do not).

    For operating points, probed numerically: the metric at the axis is evaluated at
    fixed random (alpha, beta) points under two prevalences.
    """
    if isinstance(quantity, CurveArea):
        return quantity.curve != "roc"
    if quantity.axis == "rate":
        return True
    return _metric_depends_on_prevalence(quantity.metric)


@lru_cache(maxsize=256)
def _metric_depends_on_prevalence(metric: Any) -> bool:
    probe = np.random.default_rng(0).uniform(0.01, 0.99, size=(2, 64))
    with np.errstate(all="ignore"):
        v1 = np.asarray(metric(0.17, probe[0], probe[1]))
        v2 = np.asarray(metric(0.71, probe[0], probe[1]))
    return not np.allclose(v1, v2, rtol=1e-13, atol=0, equal_nan=True)
