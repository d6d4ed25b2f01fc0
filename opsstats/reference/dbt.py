"""The Directed Binary Tree (DBT) distribution of curves (Zhao et al., section 3.3)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import MAX_CURVES, MAX_DEPTH, check_instance, check_size
from ._dbt_table import load_table
from ._streamed import CHUNK, StreamedCurveReference, pass_bytes

__all__ = ["DirectedBinaryTree", "dbt_curves"]

#: (depth, n_curves, seed) of the reference whose shipped table the package carries.
_TABLED = (9, 100_000, 20231)


def dbt_curves(
    m: int,
    depth: int,
    rng: np.random.Generator,
    *,
    out: tuple[np.ndarray, np.ndarray] | None = None,
    columns: tuple[int, int] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Draw ``m`` DBT curves of the given depth (with ``columns=(c0, c1)``, only the
    curves c0 to c1 - 1 of them, exactly as the full draw makes them).

    Returns ``(alpha, beta)`` of shape ``(m, 2**depth + 1)``: the ``2**depth - 1`` tree
    nodes in in-order (alpha increasing, beta decreasing) with the endpoints
    (alpha, beta) = (0, 1) and (1, 0) added at positions 0 and ``2**depth``.

    The root draws alpha, beta ~ U[0, 1]; the left child of a node (alpha, beta) with
    ranges (lA, uA, lB, uB) draws alpha ~ U[lA, alpha), beta ~ U(beta, uB]; the right
    child alpha ~ U(alpha, uA], beta ~ U[lB, beta) (docs/method.md#dbt-reference).

    Implementation: in the in-order layout with the endpoints at 0 and 2**depth, the
    node at position p of height h (p an odd multiple of 2**h) has as its ranges
    exactly the values at positions p - 2**h and p + 2**h (its bounding ancestors, or
    the endpoints). So the tree is drawn level by level, root first, in place. The
    arrays are stored positions-major (shape ``(2**depth + 1, m)``, returned as their
    transposed views) so that each level is a set of whole contiguous rows. ``out``
    passes two such buffers to reuse (streaming without new allocations).

    ``columns`` draws a slice of the m curves in a fraction of the memory: each level's
    uniforms are drawn row by row (a row holds one uniform per curve), and the generator
    is advanced past the other curves' uniforms (``bit_generator.advance``; one 64-bit
    output per float64 uniform), so that the slice's curves are those of the full draw.

    Examples
    --------
    >>> import numpy as np
    >>> alpha, beta = dbt_curves(5, 3, np.random.default_rng(0))
    >>> alpha.shape
    (5, 9)
    >>> bool((np.diff(alpha, axis=1) >= 0).all() and (np.diff(beta, axis=1) <= 0).all())
    True
    """
    depth = check_size("depth", depth, maximum=MAX_DEPTH)
    check_instance("rng", rng, np.random.Generator)
    # two (points x m) arrays and the (points / 2 x m) uniforms of a level
    m = check_size("m", m, maximum=MAX_CURVES, bytes_each=2.5 * 8 * (2**depth + 1))
    top = 2**depth
    c0, c1 = (0, m) if columns is None else columns
    k = c1 - c0
    if out is None:
        out = (np.empty((top + 1, k)), np.empty((top + 1, k)))
    alpha, beta = out[0][:, :k], out[1][:, :k]
    alpha[0], alpha[top] = 0.0, 1.0
    beta[0], beta[top] = 1.0, 0.0
    u = np.empty((top // 2, k))
    for h in range(depth - 1, -1, -1):
        s = 2**h
        for arr in (alpha, beta):
            bounds = arr[0 :: 2 * s]  # positions 0, 2s, ..., 2**depth: the ranges
            lo, hi = bounds[:-1], bounds[1:]
            draw = u[: lo.shape[0]]
            _uniforms(rng, draw, m, c0)
            target = arr[s :: 2 * s]
            np.subtract(hi, lo, out=target)
            target *= draw
            target += lo
    return alpha.T, beta.T


def _uniforms(rng: np.random.Generator, out: np.ndarray, m: int, c0: int) -> None:
    """Fill ``out`` (rows x k) with the uniforms that a draw of rows x m puts in its
    columns c0 to c0 + k - 1."""
    k = out.shape[1]
    if k == m:
        rng.random(out=out)
        return
    bg: Any = rng.bit_generator  # PCG64 (np.random.default_rng): it has advance()
    after = m - c0 - k
    for row in out:
        if c0:
            bg.advance(c0)
        rng.random(out=row)
        if after:
            bg.advance(after)


class DirectedBinaryTree(StreamedCurveReference):
    """The Directed Binary Tree reference distribution of classifier curves.

    The paper's reference for scoring (curve) metrics: AUCs of ROC, PR, lift and gain
    curves, and values at an operating point (precision at recall u, lift at rate u).
    Each of the ``n_curves`` samples is a monotone sequence of ``2**depth - 1``
    (alpha, beta) pairs drawn down a binary tree, plus the endpoints (0, 1) and (1, 0).

    Parameters
    ----------
    depth : int, default 9
        Tree depth (511 interior points), at most 12 (4,095 points; a pass over the
        curves then holds about 1 GB, measured in
        ``benchmarks/results/dbt_memory.md``). Depths 4 to 11 agree within about 0.004.
    n_curves : int, default 100_000
        Number of reference curves G; the Monte Carlo standard error of an OPS p is
        sqrt(p (1 - p) / G), at most 0.0016 at the default.
    seed : int, default 20231
        Seed of the stream of curves. References with equal (depth, n_curves, seed) are
        identical and share one cache.
    cache_size : int, default 256
        Number of (quantity, prevalence) value vectors kept (each 8 * G bytes).
    prevalence_step : float, optional
        For many distinct prevalences: each curve's area (PR, lift and gain AUC, NAUC
        forms) is computed on a grid of logit(prevalence) with this step and
        interpolated (cubic) in between, so that an additional prevalence costs an
        interpolation instead of a pass over the curves; ROC quantities and operating
        points stay exact. 0.125 keeps each curve's area within about 1e-6 and the OPS
        within a quarter of its Monte Carlo standard error
        (docs/method.md#prevalence-grid). None (the default): every prevalence exact.

    Notes
    -----
    The curves are never held in memory: they are streamed in seeded chunks of
    10,000, and for each (quantity, prevalence) only the sorted vector of the G values
    is kept, so that the OPS of any number of observed values is a ``searchsorted``.
    ROC quantities (and operating points whose metric does not depend on prevalence)
    are cached once for every prevalence. Use :meth:`precompute` to compute many
    quantities (e.g. the 20 points of an OPRC) in one pass over the curves.

    With the defaults (and no ``prevalence_step``) the ROC, PR, lift and gain AUC, the
    Gini coefficient, metrics at the recalls of a plot's band and of a standardized
    curve (0.9 among them) and the ROC, PR, lift and gain bands are read from a shipped
    table of these curves instead, at any prevalence from 0.001 to 0.999 (the lift AUC
    to 0.99; ROC quantities and the bands: any), within a quarter of the Monte Carlo
    standard error of a pass (at most 0.22 of it, measured: docs/method.md#dbt-table);
    a value within about 1e-9 of one of the outermost areas is ranked against that
    curve's area, computed. The result's ``method`` says so.

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

    def __init__(
        self,
        depth: int = 9,
        n_curves: int = 100_000,
        *,
        seed: int = 20231,
        cache_size: int = 256,
        prevalence_step: float | None = None,
    ) -> None:
        self.depth = check_size(
            "depth",
            depth,
            maximum=MAX_DEPTH,
            bytes_each=0.0,
            overhead=pass_bytes(2 ** min(int(depth), 40) + 1, CHUNK)
            if isinstance(depth, int) and not isinstance(depth, bool)
            else 0.0,
            what=" for a pass over its curves",
        )
        super().__init__(n_curves, seed, cache_size, prevalence_step)

    @property
    def description(self) -> str:
        step = "" if self.prevalence_step is None else f", prevalence_step={self.prevalence_step:g}"
        return (
            f"DirectedBinaryTree(depth={self.depth}, n_curves={self.n_curves}, seed={self.seed}"
            f"{step})"
        )

    @property
    def method(self) -> str:
        return f"Monte Carlo, {self.n_curves} DBT curves"

    @property
    def n_points(self) -> int:
        return 2**self.depth + 1

    def _params(self) -> tuple:
        return (self.depth,)

    def _table(self) -> Any:
        """The shipped table (docs/method.md#dbt-table) when these are its curves: the
        default depth, G and seed, and no ``prevalence_step``."""
        if self.prevalence_step is not None or (self.depth, self.n_curves, self.seed) != _TABLED:
            return None  # the table is not read for other references
        table = load_table()
        return table if table is not None and table.matches(self, CHUNK) else None

    def _draw(
        self,
        m: int,
        rng: np.random.Generator,
        out: tuple[np.ndarray, np.ndarray],
        columns: tuple[int, int] | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        return dbt_curves(m, self.depth, rng, out=out, columns=columns)
