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
from typing import Any, ClassVar, cast

import numpy as np

from .._progress import progress
from .._validation import (
    MAX_CURVES,
    MAX_GRID_POINTS,
    check_1d,
    check_choice,
    check_positive_int,
    check_real,
    check_size,
)
from ..curves._geometry import (
    CurveArea,
    CurveQuantity,
    OperatingPoint,
    curve_areas,
    parse_at,
    values_at,
)
from ._interpolation import cubic_weights, expit, logit
from .base import CurveReference, check_one_prevalence, check_prevalence, rank_in_sorted

__all__ = ["StreamedCurveReference", "CHUNK", "CACHE_BYTES", "buffer_bytes", "pass_bytes"]

#: Curves per streamed chunk. Part of the reproducibility contract: chunk i of a
#: reference with seed s is drawn from ``SeedSequence([s, i])``, so the G curves (and
#: every OPS) depend only on the reference's parameters and seed, not on memory,
#: threads or call order.
CHUNK = 10_000
_WORKERS = max(1, min(2, os.cpu_count() or 1))
SLICE = 2_000


#: Bytes of sorted value vectors one shared cache keeps at most (besides its count
#: limit, ``cache_size``); the newest vector is always kept.
CACHE_BYTES = 512 * 2**20
#: Bytes of value vectors one pass over the curves computes at once: more quantities
#: than that are computed in several passes.
PASS_BYTES = 256 * 2**20
#: Bytes of evaluation temporaries per slice of curves (about 8 MB, see :data:`SLICE`).
_SLICE_BYTES = SLICE * 513 * 8


def _slice(n_points: int) -> int:
    """Curves per evaluation slice: :data:`SLICE` at 513 points per curve (the default
    depth), fewer for longer curves so that temporaries stay about 8 MB. Slicing only
    groups the evaluation; the values do not depend on it."""
    return max(1, _SLICE_BYTES // (8 * n_points))


def _workers(n_points: int, n_curves: int) -> int:
    """Threads of a pass: two, unless each would hold more than 512 MiB of buffers (trees
    deeper than 11), so that a pass at the deepest tree allowed stays near 1 GB."""
    per_worker = buffer_bytes(n_points, n_curves)
    return 1 if per_worker > 512 * 2**20 else _WORKERS


def pass_bytes(n_points: int, n_curves: int) -> float:
    """Memory a pass over the curves holds at once, besides its value vectors: the
    buffers of every worker."""
    return _workers(n_points, n_curves) * buffer_bytes(n_points, n_curves)


def buffer_bytes(n_points: int, n_curves: int) -> float:
    """Memory one worker of a pass holds: the alpha and beta buffers of a chunk, the
    tree's uniforms (half a buffer) and the evaluation temporaries of a slice."""
    m = min(CHUNK, n_curves)
    return 8.0 * n_points * m * 2.5 + 8 * _SLICE_BYTES


class _Shared:
    """The sorted value vectors of every reference with the same parameters: an LRU map
    under a lock, and the keys some thread is computing (others wait for them rather
    than compute them again)."""

    def __init__(self) -> None:
        self.values: OrderedDict[tuple, np.ndarray] = OrderedDict()
        self.pending: dict[tuple, threading.Event] = {}
        self.lock = threading.Lock()
        self.nbytes = 0
        #: value vectors at the nodes of prevalence grids, in curve order (not sorted),
        #: by (quantity, step, node), and the last interpolated vectors
        self.grid: OrderedDict[tuple, np.ndarray] = OrderedDict()
        self.interpolated: OrderedDict[tuple, np.ndarray] = OrderedDict()

    def store(self, key: tuple, values: np.ndarray, cache_size: int) -> None:
        values.flags.writeable = False  # handed out as is: nobody may write into it
        with self.lock:
            old = self.values.pop(key, None)
            if old is not None:
                self.nbytes -= old.nbytes
            self.values[key] = values
            self.nbytes += values.nbytes
            while len(self.values) > 1 and (
                len(self.values) > cache_size or self.nbytes > CACHE_BYTES
            ):
                _, dropped = self.values.popitem(last=False)
                self.nbytes -= dropped.nbytes


class StreamedCurveReference(CurveReference):
    """Base of Monte Carlo curve references drawn in seeded chunks.

    Subclasses define :attr:`n_points` (points per curve, endpoints included),
    :meth:`_draw` and :meth:`_params` (the parameters that identify the
    distribution; references with equal parameters share one cache).

    The cache is safe under concurrent use: lookups and stores hold its lock, a vector
    being computed by one thread is waited for by the others, and values are returned
    as computed (never read back after another thread may have evicted them). Vectors
    are read-only. Keys hold the metric object itself, so that a metric registered
    again under the same name (``overwrite=True``) is never served the old values.
    """

    exact = False
    _shared: ClassVar[dict[tuple, _Shared]] = {}
    _lock = threading.Lock()

    def __init__(
        self, n_curves: int, seed: int, cache_size: int, prevalence_step: float | None = None
    ) -> None:
        n_points = self.n_points
        self.prevalence_step = (
            None
            if prevalence_step is None
            else check_real("prevalence_step", prevalence_step, low=0.01, high=1.0)
        )
        self.n_curves = check_size(
            "n_curves",
            n_curves,
            minimum=100,
            maximum=MAX_CURVES,
            bytes_each=16.0,  # a value vector and its sort
            overhead=pass_bytes(n_points, CHUNK),
            what=f" for a pass over curves of {n_points} points",
        )
        self.seed = check_positive_int("seed", seed, minimum=0)
        self.cache_size = check_positive_int("cache_size", cache_size)
        key = (type(self).__name__, *self._params(), self.n_curves, self.seed)
        with self._lock:
            self._cache = self._shared.setdefault(key, _Shared())

    @property
    @abstractmethod
    def n_points(self) -> int:
        """Points per curve, the endpoints (0, 1) and (1, 0) included."""

    @abstractmethod
    def _params(self) -> tuple:
        """The distribution's parameters (besides n_curves and seed)."""

    @abstractmethod
    def _draw(
        self,
        m: int,
        rng: np.random.Generator,
        out: tuple[np.ndarray, np.ndarray],
        columns: tuple[int, int] | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """Draw m curves into ``out`` (two buffers of shape (n_points, CHUNK)) and
        return (alpha, beta) of shape (m, n_points) ordered by decreasing threshold;
        with ``columns=(c0, c1)``, only the curves c0 to c1 - 1 of the m (the same
        curves as in the full draw), into buffers of at least c1 - c0 columns."""

    @property
    def method(self) -> str:
        return f"Monte Carlo, {self.n_curves} curves"

    def __eq__(self, other: object) -> bool:
        if type(self) is not type(other):
            return False
        assert isinstance(other, StreamedCurveReference)  # narrowed for the type checker
        return (self._params(), self.n_curves, self.seed, self.prevalence_step) == (
            other._params(),
            other.n_curves,
            other.seed,
            other.prevalence_step,
        )

    def __hash__(self) -> int:
        return hash(
            (type(self).__name__, self._params(), self.n_curves, self.seed, self.prevalence_step)
        )

    def _method_for(self, quantity: Any, prevalence: Any = None) -> str:
        if self._interpolates(quantity):
            # docs/method.md#prevalence-grid
            step = self.prevalence_step
            return f"{self.method}, interpolated in logit(prevalence) (step {step:g})"
        table = self._table()
        note = None if table is None or prevalence is None else table.note(quantity, prevalence)
        return self.method if note is None else f"{self.method}, {note}"

    def _table(self) -> Any:
        """The shipped table of this reference's values, or None: computed by passes
        over the curves (docs/method.md#dbt-table)."""
        return None

    # ------------------------------------------------------------------ curves
    @property
    def n_chunks(self) -> int:
        return -(-self.n_curves // CHUNK)

    def _buffers(self) -> tuple[np.ndarray, np.ndarray]:
        shape = (self.n_points, min(CHUNK, self.n_curves))
        return np.empty(shape), np.empty(shape)

    def _chunk(
        self,
        index: int,
        out: tuple[np.ndarray, np.ndarray],
        columns: tuple[int, int] | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """Chunk ``index`` (or the curves ``columns`` of it) drawn into ``out``."""
        m = min(CHUNK, self.n_curves - index * CHUNK)
        rng = np.random.default_rng(np.random.SeedSequence([self.seed, index]))
        return self._draw(m, rng, out, columns)

    def iter_curves(self) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Stream the reference curves as ``(alpha, beta)`` chunks of up to 10,000
        curves, each of shape ``(m, n_points)``.

        The chunks are views of two reused buffers: copy them to keep them."""
        buffers = self._buffers()
        for index in range(self.n_chunks):
            yield self._chunk(index, buffers)

    # ------------------------------------------------------------------ values
    def _key(self, quantity: CurveQuantity, prevalence: float) -> tuple:
        return (quantity.cache_key, prevalence if depends_on_prevalence(quantity) else None)

    def _as_quantity(self, item: Any) -> CurveQuantity:
        """A quantity from the spellings ``ops`` accepts: ``"pr_auc"``,
        ``("precision", {"recall": 0.9})``, or a ready CurveArea / OperatingPoint."""
        if isinstance(item, CurveQuantity):
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
        quantities = list(quantities)
        if quantities and prevalence is None:
            raise TypeError("`prevalence` is required with `quantities`.")
        grid = (
            np.empty(0)
            if prevalence is None
            else np.atleast_1d(check_prevalence(prevalence)).ravel()
        )
        wanted = [(self._as_quantity(q), float(pi)) for q in quantities for pi in grid]
        wanted += [(self._as_quantity(q), check_one_prevalence(pi)) for q, pi in pairs]
        by_grid: dict[Any, tuple[Any, list[float]]] = {}
        for q, pi in wanted:
            if self._interpolates(q):
                by_grid.setdefault(q.cache_key, (q, []))[1].append(pi)
        self._values([(q, pi) for q, pi in wanted if not self._interpolates(q)])
        for q, pis in by_grid.values():
            self._grid(q, self.grid_nodes(np.asarray(pis)))

    def _values(self, wanted: list[tuple[CurveQuantity, float]]) -> dict[tuple, np.ndarray]:
        """The sorted value vectors of the (quantity, prevalence) pairs, by key: from
        the cache, from another thread computing them, or computed here in one pass
        (several if they are many), and stored."""
        shared = self._cache
        todo_all = {self._key(q, pi): (q, pi) for q, pi in wanted}
        found: dict[tuple, np.ndarray] = {}
        table = self._table()
        if table is not None:  # what the shipped table holds needs no pass
            for key, (q, pi) in todo_all.items():
                if table.covers(q, pi):
                    found[key] = table.values(q, pi)
        while len(found) < len(todo_all):
            todo: dict[tuple, tuple[CurveQuantity, float]] = {}
            waits: list[threading.Event] = []
            with shared.lock:
                for key, pair in todo_all.items():
                    if key in found:
                        continue
                    cached = shared.values.get(key)
                    if cached is not None:
                        shared.values.move_to_end(key)
                        found[key] = cached
                    elif key in shared.pending:
                        waits.append(shared.pending[key])
                    else:
                        shared.pending[key] = threading.Event()
                        todo[key] = pair
            if todo:
                try:
                    found.update(self._compute(todo))
                finally:
                    with shared.lock:
                        for key in todo:
                            shared.pending.pop(key).set()
            for event in waits:  # computed by another thread: read it on the next round
                event.wait()
        return found

    def _compute(self, todo: dict[tuple, tuple[CurveQuantity, float]]) -> dict[tuple, np.ndarray]:
        """Value vectors of the pairs in ``todo``, in passes of at most ``PASS_BYTES`` of
        values, each stored in the cache and returned."""
        per_pass = max(1, int(PASS_BYTES // (8 * self.n_curves)))
        items = list(todo.items())
        out: dict[tuple, np.ndarray] = {}
        for start in range(0, len(items), per_pass):
            batch = items[start : start + per_pass]
            for (key, (q, pi)), values in zip(
                batch, self._one_pass([pair for _, pair in batch]), strict=True
            ):
                n_nan = int(np.isnan(values).sum())
                if n_nan:
                    raise ValueError(
                        f"{q.label} is undefined (0/0) on {n_nan} of the "
                        f"{values.size} reference curves at prevalence "
                        f"{pi:g}; it cannot be ranked against {self!r}."
                    )
                values.sort()
                self._cache.store(key, values, self.cache_size)
                out[key] = values
        return out

    def _one_pass(self, pairs: list[tuple[CurveQuantity, float]]) -> list[np.ndarray]:
        """The values of every pair over the G curves, in one pass over the chunks."""
        local = threading.local()
        step = _slice(self.n_points)
        # the pairs of one curve area at several prevalences are evaluated together
        # (curve_areas: the ROC and PR curves' segment widths computed once), and so are
        # the operating points of one metric and axis at one prevalence (values_at: a
        # band's tens of x values in one search per curve point)
        together: dict[Any, list[int]] = {}
        for i, (q, pi) in enumerate(pairs):
            if isinstance(q, CurveArea):
                group: Any = q.cache_key
            elif isinstance(q, OperatingPoint):
                group = ("at", q.metric.key, q.metric.metric, q.axis, pi)
            else:
                group = ("", i)
            together.setdefault(group, []).append(i)

        def work(index: int) -> list[np.ndarray]:
            m = min(CHUNK, self.n_curves - index * CHUNK)
            if not hasattr(local, "buffers"):
                shape = (self.n_points, min(step, m))
                local.buffers = (np.empty(shape), np.empty(shape))
            # The chunk is drawn and evaluated a slice of curves at a time (the slice's
            # curves are those of the whole chunk's draw): buffers of about 8 MB, where
            # a whole chunk's are 41 MB each, and temporaries that stay on the heap.
            parts: list[list[np.ndarray]] = [[] for _ in pairs]
            for c0 in range(0, m, step):
                alpha, beta = self._chunk(index, local.buffers, (c0, min(m, c0 + step)))
                for members in together.values():
                    q = pairs[members[0]][0]
                    if isinstance(q, CurveArea):
                        values = curve_areas(q, [pairs[i][1] for i in members], alpha, beta)
                    elif isinstance(q, OperatingPoint):
                        xs = [cast(OperatingPoint, pairs[i][0]).x for i in members]
                        values = list(
                            values_at(q.metric, q.axis, xs, pairs[members[0]][1], alpha, beta)
                        )
                    else:
                        values = [q(pairs[members[0]][1], alpha, beta)]
                    for i, v in zip(members, values, strict=True):
                        parts[i].append(np.asarray(v, dtype=float))
            return [np.concatenate(part) for part in parts]

        # Chunks are independent (each has its own seed), so threads give the same
        # values as a serial pass; numpy releases the GIL in the array work.
        workers = _workers(self.n_points, self.n_curves)
        label = f"{type(self).__name__}, {self.n_curves:,} curves"
        with progress(self.n_chunks, None, label) as tick, ThreadPoolExecutor(workers) as pool:
            per_chunk = []
            for values in pool.map(work, range(self.n_chunks)):  # in order, as they finish
                per_chunk.append(values)
                tick()
        return [np.concatenate([chunk[i] for chunk in per_chunk]) for i in range(len(pairs))]

    # ------------------------------------------------------------------ prevalence grid
    def _interpolates(self, quantity: Any) -> bool:
        """Whether this reference interpolates the quantity's values in prevalence: with
        a ``prevalence_step``, for the curve areas that depend on prevalence (each
        curve's area is a smooth function of logit(prevalence); an operating point's is
        not, where the neighbouring points change)."""
        return (
            self.prevalence_step is not None
            and isinstance(quantity, CurveArea)
            and depends_on_prevalence(quantity)
        )

    def grid_nodes(self, pis: np.ndarray) -> np.ndarray:
        """The grid nodes k (at logit(prevalence) = k * step) that the cubic
        interpolation at these prevalences reads: floor - 1 to floor + 2."""
        if self.prevalence_step is None:
            raise ValueError(
                f"{self!r} has no prevalence grid: grid nodes need `prevalence_step` (a "
                "DirectedBinaryTree's option); got none."
            )
        pis = np.atleast_1d(check_prevalence(pis))
        j = np.floor(logit(pis) / self.prevalence_step).astype(np.int64)
        return np.unique(np.concatenate([j - 1, j, j + 1, j + 2]))

    def _grid(self, quantity: CurveArea, nodes: np.ndarray) -> dict[int, np.ndarray]:
        """Each curve's value at the grid nodes (curve order), computed in one pass for
        the nodes not already kept."""
        h = cast(float, self.prevalence_step)
        shared = self._cache
        key = (quantity.cache_key, h)
        with shared.lock:
            have = {int(k): shared.grid.get((key[0], h, int(k))) for k in nodes}
        missing = [k for k, v in have.items() if v is None]
        per_pass = max(1, int(PASS_BYTES // (8 * self.n_curves)))
        for start in range(0, len(missing), per_pass):
            batch = missing[start : start + per_pass]
            pairs: list[tuple[CurveQuantity, float]] = [(quantity, expit(k * h)) for k in batch]
            for k, (_, pi), values in zip(batch, pairs, self._one_pass(pairs), strict=True):
                if np.isnan(values).any():
                    raise ValueError(
                        f"{quantity.label} is undefined (0/0) on some reference curves at "
                        f"prevalence {pi:g}; it cannot be ranked against {self!r}."
                    )
                values.flags.writeable = False
                have[k] = values
                with shared.lock:
                    shared.grid[(key[0], h, k)] = values
                    while len(shared.grid) > 1 and (
                        len(shared.grid) * 8 * self.n_curves > CACHE_BYTES
                    ):
                        shared.grid.popitem(last=False)
        return cast(dict[int, np.ndarray], have)

    def interpolated_values(self, quantity: Any, prevalence: float) -> np.ndarray:
        """Each reference curve's value of ``quantity`` at ``prevalence`` (curve order,
        unsorted), by cubic Lagrange interpolation in logit(prevalence) between the four
        nearest nodes of the grid of step ``prevalence_step``
        (docs/method.md#prevalence-grid)."""
        quantity = self._as_quantity(quantity)
        pi = check_one_prevalence(prevalence)
        if not self._interpolates(quantity):
            raise ValueError(
                f"{self!r} does not interpolate {quantity.label} in prevalence (it needs "
                "`prevalence_step` and a curve area that depends on prevalence)."
            )
        h = cast(float, self.prevalence_step)
        memo = (quantity.cache_key, h, pi)
        with self._cache.lock:
            found = self._cache.interpolated.get(memo)
        if found is not None:
            return found
        s = logit(np.array([pi]))[0] / h
        j = int(np.floor(s))
        weights = cubic_weights(s - j)
        grid = self._grid(quantity, np.arange(j - 1, j + 3))
        out = weights[0] * grid[j - 1]
        for w, k in zip(weights[1:], (j, j + 1, j + 2), strict=True):
            out += w * grid[k]
        out.flags.writeable = False
        with self._cache.lock:
            self._cache.interpolated[memo] = out
            while len(self._cache.interpolated) > 4:
                self._cache.interpolated.popitem(last=False)
        return out

    def _ops_interpolated(
        self, quantity: Any, values: np.ndarray, prevalences: np.ndarray, ties: str
    ) -> tuple[np.ndarray, np.ndarray]:
        pis = np.unique(prevalences)
        self._grid(quantity, self.grid_nodes(pis))  # every node needed, in one pass
        est = np.empty(values.shape)
        se = np.empty(values.shape)
        g = self.n_curves
        for pi in pis:
            mask = prevalences == pi
            ref = self.interpolated_values(quantity, float(pi))
            v = values[mask]
            below = (ref[None, :] < v[:, None]).sum(axis=1)
            above = (ref[None, :] > v[:, None]).sum(axis=1)
            count = below if quantity.higher_is_better else above
            if ties == "mid":
                count = count + 0.5 * (g - below - above)
            p = count / g
            est[mask], se[mask] = p, np.sqrt(p * (1 - p) / g)  # as rank_in_sorted
        return est, se

    def _ops_many(
        self, quantity: Any, values: np.ndarray, prevalences: np.ndarray, ties: str
    ) -> tuple[np.ndarray, np.ndarray]:
        if self._interpolates(quantity):
            return self._ops_interpolated(quantity, values, prevalences, ties)
        # every distinct prevalence in one pass over the curves, then the ranks
        pis = np.unique(prevalences)
        found = self._values([(quantity, float(pi)) for pi in pis])
        table = self._table()
        est = np.empty(values.shape)
        se = np.empty(values.shape)
        for pi in pis:
            mask = prevalences == pi
            ref = found[self._key(quantity, float(pi))]
            placed = None if table is None else table.placed_curves(quantity, float(pi))
            if placed is not None:  # an area whose tail curves the table holds
                ref = self._settle(cast(CurveArea, quantity), float(pi), ref, values[mask], *placed)
            est[mask], se[mask] = rank_in_sorted(ref, values[mask], quantity.higher_is_better, ties)
        return est, se

    def _settle(
        self,
        quantity: CurveArea,
        prevalence: float,
        ref: np.ndarray,
        values: np.ndarray,
        placed: np.ndarray,
        margin: float,
    ) -> np.ndarray:
        """The sorted values ``ref`` read from a table, with the curves it holds at its
        ends (``placed``: their indices in the stream, at the first and last
        ``placed.size // 2`` positions) computed where one lies within ``margin`` of an
        observed value: there the table's rounding and interpolation could put the curve
        on the wrong side of the value (docs/method.md#dbt-table). Each such curve is
        drawn alone and its value computed as a pass computes it."""
        g, t = ref.size, placed.size // 2
        lo = np.searchsorted(ref, values - margin, side="left")
        hi = np.searchsorted(ref, values + margin, side="right")
        near = (hi > lo) & ((lo < t) | (hi > g - t))
        if not near.any():
            return ref
        positions = np.unique(
            np.concatenate([np.arange(a, b) for a, b in zip(lo[near], hi[near], strict=True)])
        )
        positions = positions[(positions < t) | (positions >= g - t)]
        index = np.where(positions < t, positions, positions - (g - 2 * t))
        settled = ref.copy()
        settled[positions] = self._curve_values(quantity, prevalence, placed[index])
        settled.sort()
        return settled

    def _curve_values(
        self, quantity: CurveArea, prevalence: float, curves: np.ndarray
    ) -> np.ndarray:
        """The areas ``quantity`` of the curves with these indices in the stream, each
        drawn alone (the same curve as in its chunk, ``_chunk``'s columns)."""
        out = np.empty(len(curves))
        buffers = (np.empty((self.n_points, 1)), np.empty((self.n_points, 1)))
        for j, curve in enumerate(curves):
            index, column = divmod(int(curve), CHUNK)
            alpha, beta = self._chunk(index, buffers, (column, column + 1))
            (value,) = curve_areas(quantity, [prevalence], alpha, beta)
            out[j] = float(value[0])
        return out

    def reference_values(self, quantity: CurveQuantity, prevalence: float) -> np.ndarray:
        """Sorted values of ``quantity`` over the reference curves at ``prevalence``
        (read-only: the array is shared by every reference with these parameters)."""
        quantity = self._as_quantity(quantity)
        pi = check_one_prevalence(prevalence)
        return self._values([(quantity, pi)])[self._key(quantity, pi)]

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
        curve = check_choice("curve", curve, tuple(y_metric))
        xs = check_1d("x", np.atleast_1d(x) if np.ndim(x) == 0 else x, numeric=True)
        check_size(
            "x",
            xs.size,
            maximum=MAX_GRID_POINTS,
            bytes_each=8.0 * self.n_curves,
            what=" for the reference values at every x",
        )
        points = [parse_at(y_metric[curve], {axis[curve]: float(u)}) for u in xs]
        pi = check_one_prevalence(prevalence)
        table = self._table()
        if table is not None:
            tabled = table.band(curve, pi, xs.astype(float), tuple(map(float, quantiles)))
            if tabled is not None:
                return tabled
        found = self._values([(p, pi) for p in points])
        return np.array([np.quantile(found[self._key(p, pi)], quantiles) for p in points]).T


def depends_on_prevalence(quantity: CurveQuantity) -> bool:
    """Whether a curve quantity changes with prevalence (ROC quantities do not).

    For an operating point on the recall or FPR axis this is probed numerically: the
    metric is evaluated at fixed random (alpha, beta) points under two prevalences.
    """
    if not isinstance(quantity, OperatingPoint):  # an area or a ROC summary
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
