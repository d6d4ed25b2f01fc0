"""Curve references whose curves are drawn in seeded chunks and never held.

For each (quantity, prevalence) only the sorted vector of the G values is kept, so
the OPS of any number of observed values is a ``searchsorted``
(docs/method.md#dbt-reference).
"""

from __future__ import annotations

import os
import threading
from abc import abstractmethod
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from typing import Any, ClassVar

import numpy as np

from .._validation import check_positive_int
from ..curves._geometry import CurveArea, OperatingPoint, parse_at
from .base import CurveReference

__all__ = ["StreamedCurveReference", "CHUNK"]

#: Curves per streamed chunk. Part of the reproducibility contract: chunk i of a
#: reference with seed s is drawn from ``SeedSequence([s, i])``, so the G curves (and
#: every OPS) depend only on the reference's parameters and seed, not on memory,
#: threads or call order.
CHUNK = 10_000
_WORKERS = max(1, min(2, os.cpu_count() or 1))
SLICE = 2_000


class StreamedCurveReference(CurveReference):
    """Base of Monte Carlo curve references drawn in seeded chunks.

    Subclasses define :attr:`n_points` (points per curve, endpoints included),
    :meth:`_draw` and :meth:`_params` (the parameters that identify the
    distribution; references with equal parameters share one cache).
    """

    exact = False
    _shared: ClassVar[dict[tuple, OrderedDict]] = {}
    _lock = threading.Lock()

    def __init__(self, n_curves: int, seed: int, cache_size: int) -> None:
        self.n_curves = check_positive_int("n_curves", n_curves, minimum=100)
        self.seed = check_positive_int("seed", seed, minimum=0)
        self.cache_size = check_positive_int("cache_size", cache_size)
        key = (type(self).__name__, *self._params(), self.n_curves, self.seed)
        with self._lock:
            self._cache = self._shared.setdefault(key, OrderedDict())

    @property
    @abstractmethod
    def n_points(self) -> int:
        """Points per curve, the endpoints (0, 1) and (1, 0) included."""

    @abstractmethod
    def _params(self) -> tuple:
        """The distribution's parameters (besides n_curves and seed)."""

    @abstractmethod
    def _draw(
        self, m: int, rng: np.random.Generator, out: tuple[np.ndarray, np.ndarray]
    ) -> tuple[np.ndarray, np.ndarray]:
        """Draw m curves into ``out`` (two buffers of shape (n_points, CHUNK)) and
        return (alpha, beta) of shape (m, n_points) ordered by decreasing threshold."""

    @property
    def method(self) -> str:
        return f"Monte Carlo, {self.n_curves} curves"

    def __eq__(self, other: object) -> bool:
        if type(self) is not type(other):
            return False
        assert isinstance(other, StreamedCurveReference)  # narrowed for the type checker
        return (self._params(), self.n_curves, self.seed) == (
            other._params(),
            other.n_curves,
            other.seed,
        )

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._params(), self.n_curves, self.seed))

    # ------------------------------------------------------------------ curves
    @property
    def n_chunks(self) -> int:
        return -(-self.n_curves // CHUNK)

    def _buffers(self) -> tuple[np.ndarray, np.ndarray]:
        shape = (self.n_points, min(CHUNK, self.n_curves))
        return np.empty(shape), np.empty(shape)

    def _chunk(
        self, index: int, out: tuple[np.ndarray, np.ndarray]
    ) -> tuple[np.ndarray, np.ndarray]:
        m = min(CHUNK, self.n_curves - index * CHUNK)
        rng = np.random.default_rng(np.random.SeedSequence([self.seed, index]))
        return self._draw(m, rng, out)

    def iter_curves(self) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Stream the reference curves as ``(alpha, beta)`` chunks of up to 10,000
        curves, each of shape ``(m, n_points)``.

        The chunks are views of two reused buffers: copy them to keep them."""
        buffers = self._buffers()
        for index in range(self.n_chunks):
            yield self._chunk(index, buffers)

    # ------------------------------------------------------------------ values
    def _key(self, quantity: CurveArea | OperatingPoint, prevalence: float) -> tuple:
        return (quantity.key, prevalence if depends_on_prevalence(quantity) else None)

    def _as_quantity(self, item: Any) -> CurveArea | OperatingPoint:
        """A quantity from the spellings ``ops`` accepts: ``"pr_auc"``,
        ``("precision", {"recall": 0.9})``, or a ready CurveArea / OperatingPoint."""
        if isinstance(item, CurveArea | OperatingPoint):
            return item
        if isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], dict):
            return self._quantity(item[0], item[1], None, {})
        return self._quantity(item, None, None, {})

    def precompute(
        self,
        quantities: Iterable[Any] = (),
        prevalence: Any = None,
        *,
        pairs: Iterable[tuple[Any, float]] = (),
    ) -> None:
        """Compute and cache quantities in one pass over the curves.

        Parameters
        ----------
        quantities : iterable
            Curve quantities as ``ops`` spells them (``"pr_auc"``,
            ``("precision", {"recall": 0.9})``) or CurveArea / OperatingPoint objects;
            each is computed at every prevalence in ``prevalence``.
        prevalence : float or iterable of float
        pairs : iterable of (quantity, prevalence)
            Explicit pairs, for when each prevalence needs its own quantity (e.g. lift
            at the top K = 500 of test sets of different sizes).

        Examples
        --------
        >>> from opsstats import DirectedBinaryTree
        >>> ref = DirectedBinaryTree(depth=4, n_curves=1000)
        >>> ref.precompute(["pr_auc", ("precision", {"recall": 0.9})], [0.1, 0.3])
        >>> ref.precompute(pairs=[(("lift", {"rate": 500 / 9000}), 0.091),
        ...                       (("lift", {"rate": 500 / 10000}), 0.112)])
        """
        todo: dict[tuple, tuple[CurveArea | OperatingPoint, float]] = {}
        grid = (
            np.empty(0)
            if prevalence is None
            else np.atleast_1d(np.asarray(prevalence, dtype=float))
        )
        wanted = [(self._as_quantity(q), float(pi)) for q in quantities for pi in grid]
        wanted += [(self._as_quantity(q), float(pi)) for q, pi in pairs]
        if list(quantities) and prevalence is None:
            raise TypeError("`prevalence` is required with `quantities`.")
        for q, pi in wanted:
            key = self._key(q, pi)
            if key not in self._cache:
                todo[key] = (q, pi)
            else:  # asked for again: refresh it, so this call does not evict it
                with self._lock:
                    self._cache.move_to_end(key)
        if not todo:
            return
        pairs = list(todo.values())
        local = threading.local()

        def work(index: int) -> list[np.ndarray]:
            if not hasattr(local, "buffers"):
                local.buffers = self._buffers()
            alpha, beta = self._chunk(index, local.buffers)
            # Evaluate on slices of SLICE curves: temporaries of about 8 MB stay on the
            # heap, where 41 MB ones would be mapped and page-faulted afresh each time.
            return [
                np.concatenate(
                    [
                        np.asarray(q(pi, alpha[i : i + SLICE], beta[i : i + SLICE]), dtype=float)
                        for i in range(0, alpha.shape[0], SLICE)
                    ]
                )
                for q, pi in pairs
            ]

        # Chunks are independent (each has its own seed), so threads give the same
        # values as a serial pass; numpy releases the GIL in the array work.
        with ThreadPoolExecutor(max_workers=_WORKERS) as pool:
            per_chunk = list(pool.map(work, range(self.n_chunks)))
        for i, (key, (q, pi)) in enumerate(todo.items()):
            values = np.concatenate([chunk[i] for chunk in per_chunk])
            n_nan = int(np.isnan(values).sum())
            if n_nan:
                raise ValueError(
                    f"{q.label} is undefined (0/0) on {n_nan} of the "
                    f"{values.size} reference curves at prevalence "
                    f"{pi:g}; it cannot be ranked against {self!r}."
                )
            values.sort()
            self._store(key, values)

    def _ops_many(
        self, quantity: Any, values: np.ndarray, prevalences: np.ndarray, ties: str
    ) -> tuple[np.ndarray, np.ndarray]:
        # every distinct prevalence in one pass over the curves, then the ranks
        self.precompute([quantity], np.unique(prevalences))
        return super()._ops_many(quantity, values, prevalences, ties)

    def _store(self, key: tuple, values: np.ndarray) -> None:
        with self._lock:
            self._cache[key] = values
            self._cache.move_to_end(key)
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)

    def reference_values(
        self, quantity: CurveArea | OperatingPoint, prevalence: float
    ) -> np.ndarray:
        key = self._key(quantity, prevalence)
        if key not in self._cache:
            self.precompute([quantity], prevalence)
        with self._lock:
            self._cache.move_to_end(key)
            return self._cache[key]

    def band(
        self,
        curve: str,
        prevalence: float,
        x: Any,
        quantiles: tuple[float, ...] = (0.05, 0.5, 0.95),
    ) -> np.ndarray:
        """Pointwise quantiles of the reference curves' y at the given x values (e.g. the
        5-95% band of PR curves for a plot); shape ``(len(quantiles), len(x))``."""
        y_metric = {"roc": "recall", "pr": "precision", "lift": "lift", "gain": "recall"}
        axis = {"roc": "fpr", "pr": "recall", "lift": "rate", "gain": "rate"}
        if curve not in y_metric:
            raise ValueError(f"`curve` must be one of 'roc', 'pr', 'lift', 'gain'; got {curve!r}.")
        points = [parse_at(y_metric[curve], {axis[curve]: float(u)}) for u in np.atleast_1d(x)]
        self.precompute(points, prevalence)
        return np.array(
            [np.quantile(self.reference_values(p, prevalence), quantiles) for p in points]
        ).T


def depends_on_prevalence(quantity: CurveArea | OperatingPoint) -> bool:
    """Whether a curve quantity changes with prevalence (ROC quantities do not).

    For an operating point on the recall or FPR axis this is probed numerically: the
    metric is evaluated at fixed random (alpha, beta) points under two prevalences.
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
