"""Confusion-matrix metrics, their exact OPS and Dirichlet intervals for many groups at
once, as arrays over groups.

:func:`opsstats.evaluate` with predicted labels and thousands of groups spent its time
in per-group Python (a ``ConfusionMatrix``, a ``_Draws``, a reference call per metric
and group). Here the groups' four counts are one ``(G, 4)`` array, and every step is an
array operation over the groups, computing the same numbers as the per-group path
(``evaluate_unit``), bit for bit:

- metric values through the registry's vectorized functions, in extended precision
  exactly as :meth:`ConfusionMatrix.metric` evaluates them (``_rates_extended``);
- their OPS under the Uniform reference through its closed forms, which broadcast over
  prevalence (docs/method.md#uniform-reference);
- the Dirichlet posterior draws of alpha and beta from each group's own generator
  (:func:`~opsstats.uncertainty._draws.unit_rng` of the call's root seed and the group's
  key, as today), one ``(G, n)`` array; the equal-tailed quantiles from a partition of
  each row at the order statistics the quantile needs (the values a full sort puts
  there), and the OPS interval as the metric interval's ends mapped through OPS
  (docs/method.md#intervals).

The draws stay one generator call per group: numpy's Beta sampler cannot draw from
10,000 generators in one call, and drawing from one shared generator would change every
interval. Everything after the draws is vectorized.

What this path does not cover is left to the per-group path, group by group
(:func:`covered`): other references than Uniform, metrics without a Uniform closed form,
the bootstrap and registered interval methods, a class absent, a metric that is 0/0 for
the counts or NaN in some draw.
"""

from __future__ import annotations

import os
import warnings
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from ..exceptions import UndefinedMetricWarning
from ..metrics import BoundMetric
from ..ops import _check_reference
from ..reference._quadrature import snap_probability
from ..reference._uniform_closed_forms import closed_form
from ..reference.base import value_range
from ..reference.uniform import Uniform
from ._containing import contain_many
from ._draws import at_positions, quantile_positions, unit_rng
from .confusion import _KIND_LABEL, _prior
from .methods import get_interval_method

__all__ = ["covered", "group_point_columns"]

_WORKERS = max(1, min(2, os.cpu_count() or 1))
#: The prior and prevalence mode :func:`opsstats.evaluate` draws with.
_PRIOR, _PREVALENCE = "jeffreys", "fixed"


def covered(names: list[str], ci: str | None, reference: Any) -> bool:
    """Whether :func:`group_point_columns` computes these metrics as the per-group path
    does: the Uniform reference (exact closed forms), ``ci`` None or ``"dirichlet"``."""
    ref = _check_reference(reference, "point", "a confusion-matrix metric")
    if type(ref) is not Uniform:
        return False
    if ci is not None and (ci != "dirichlet" or get_interval_method(ci) is not None):
        return False
    return all(closed_form(ref._quantity(name, None, None, {})) is not None for name in names)


def _values_extended(
    metric: BoundMetric, counts: np.ndarray, prevalence: float | None = None
) -> np.ndarray:
    """The metric of each row of counts, as ``ConfusionMatrix.metric`` computes it: the
    registry's function on (pi, alpha, beta) in ``np.longdouble``, then float64; with
    ``prevalence``, at that prevalence (as the standardized matrix,
    ``at_prevalence``, computes it)."""
    ld = np.longdouble
    tp, fp, fn, tn = (counts[:, j].astype(ld) for j in range(4))
    pos, neg = tp + fn, fp + tn
    with np.errstate(divide="ignore", invalid="ignore"):
        a = np.where(neg > 0, fp / np.where(neg > 0, neg, 1), ld(0))
        b = np.where(pos > 0, fn / np.where(pos > 0, pos, 1), ld(0))
        pi = pos / (pos + neg) if prevalence is None else ld(prevalence)
        return np.asarray(metric(pi, a, b), dtype=ld).astype(float)


def _order_statistics(x: np.ndarray, kth: np.ndarray) -> np.ndarray:
    """The values a sort of each row puts at the sorted positions ``kth``, shape
    (len(kth), rows); ``x`` is reordered in place.

    A quantile needs the order statistics at l, l + 1 for each tail: one partition at
    the outer two positions, and the inner ones are the least and the greatest value
    between them (half the work of partitioning at all four)."""
    first, last = int(kth[0]), int(kth[-1])
    inner = kth[1:-1]
    if not set(inner.tolist()) <= {first + 1, last - 1}:
        x.partition(kth, axis=1)
        return x[:, kth].T
    x.partition([first, last] if last > first else [first], axis=1)
    out = np.empty((kth.size, x.shape[0]))
    out[0], out[-1] = x[:, first], x[:, last]
    for i, k in enumerate(inner.tolist(), start=1):
        between = x[:, first + 1 : last]
        out[i] = between.min(axis=1) if k == first + 1 else between.max(axis=1)
    return out


def _uniform_ops(metric: BoundMetric, values: np.ndarray, pis: np.ndarray) -> np.ndarray:
    """The Uniform reference's exact OPS of each value at its prevalence (closed form)."""
    f = closed_form(metric)
    assert f is not None  # covered() admits closed-form metrics only
    return np.asarray(snap_probability(np.asarray(f(pis, values), dtype=float)), dtype=float)


#: Groups per block: the draws of a block take 2 x 8 x BLOCK x n_resamples bytes
#: (33 MB at the default 1,000 draws), so memory does not grow with the groups.
BLOCK = 2048


def group_point_columns(
    keys: list[tuple],
    counts: np.ndarray,
    names: list[str],
    **options: Any,
) -> tuple[np.ndarray, dict[str, dict[str, Any]]]:
    """:func:`_block` over blocks of :data:`BLOCK` groups, joined; the blocks in two
    threads (numpy's draws and array operations release the GIL, and each group's draws
    come from its own generator, so the result does not depend on the threads)."""
    counts = np.asarray(counts)
    # at most BLOCK groups a block, and at least one block per thread
    size = max(1, min(BLOCK, -(-len(keys) // _WORKERS)))
    starts = range(0, max(len(keys), 1), size)

    def block(i: int) -> tuple[np.ndarray, dict[str, dict[str, Any]]]:
        return _block(keys[i : i + size], counts[i : i + size], names, **options)

    if len(starts) == 1:
        parts = [block(0)]
    else:
        with ThreadPoolExecutor(max_workers=_WORKERS) as pool:
            parts = list(pool.map(block, starts))
    done = np.concatenate([d for d, _ in parts])
    columns = {
        name: {
            k: np.concatenate([cols[name][k] for _, cols in parts])
            if isinstance(v, np.ndarray)
            else v
            for k, v in parts[0][1][name].items()
        }
        for name in names
    }
    return done, columns


def _block(
    keys: list[tuple],
    counts: np.ndarray,
    names: list[str],
    *,
    ci: str | None,
    confidence_level: float,
    n_resamples: int,
    reference: Any,
    root: int,
    standard_prevalence: float | None = None,
) -> tuple[np.ndarray, dict[str, dict[str, Any]]]:
    """Rows of the tidy table for G groups' confusion-matrix metrics, as columns.

    Parameters
    ----------
    keys : list of tuple
        The G groups' keys (they seed each group's draws).
    counts : array of shape (G, 4)
        TP, FP, FN, TN per group (whole numbers).
    names : list of str
        Metric names with a Uniform closed form (see :func:`covered`).
    ci, confidence_level, n_resamples, reference, root, standard_prevalence
        As :func:`opsstats.evaluate` passes them to ``evaluate_unit``; with
        ``standard_prevalence`` the standardized columns too, from the same draws.

    Returns
    -------
    done : bool array of shape (G,)
        The groups computed here; the others go through the per-group path.
    columns : dict
        Per metric name, the tidy table's columns for the groups in ``done`` (arrays of
        length ``done.sum()``, strings shared by every group).
    """
    ref = _check_reference(reference, "point", "a confusion-matrix metric")
    counts = np.asarray(counts)
    pos = counts[:, 0] + counts[:, 2]
    n = counts.sum(axis=1)
    done = (pos > 0) & (pos < n)  # a class absent: no OPS (the per-group path says why)
    metrics = [ref._quantity(name, None, None, {}) for name in names]
    lo_hi = [(float(lo), float(hi)) for lo, hi in (value_range(m) for m in metrics)]
    std = standard_prevalence
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        values = [_values_extended(m, counts) for m in metrics]
        std_values = [] if std is None else [_values_extended(m, counts, std) for m in metrics]
    for v, (lo, hi) in zip(values + std_values, lo_hi + lo_hi[: len(std_values)], strict=True):
        done &= ~np.isnan(v) & (v >= lo - 1e-12) & (v <= hi + 1e-12)
    c, keys_done = counts[done], [k for k, d in zip(keys, done, strict=True) if d]
    pis = (c[:, 0] + c[:, 2]) / c.sum(axis=1)
    values = [v[done] for v in values]
    estimates = [_uniform_ops(m, v, pis) for m, v in zip(metrics, values, strict=True)]
    std_pis = np.full(len(c), np.nan if std is None else std)
    std_values = [v[done] for v in std_values]
    std_estimates = []
    if std is not None:
        std_estimates = [
            _uniform_ops(m, v, std_pis) for m, v in zip(metrics, std_values, strict=True)
        ]
    base = {
        "n": c.sum(axis=1),
        "prevalence": pis,
    }
    columns: dict[str, dict[str, Any]] = {}
    for m, name, v, est in zip(metrics, names, values, estimates, strict=True):
        columns[name] = {
            **base,
            "value": v,
            "ops": est,
            "ops_se": np.zeros(v.shape),
            "method": ref._method_for(m),
            "reference": ref.description,
            "reason": "",
        }
    for name, v, est in zip(names[: len(std_values)], std_values, std_estimates, strict=True):
        columns[name].update(
            standard_prevalence=std,
            standardized=v,
            standardized_ops=est,
            standardized_ops_se=np.zeros(v.shape),
        )
    if ci is None:
        return done, columns

    # the draws: one generator per group, as _Draws makes them
    cells, prior_label = _prior(_PRIOR)
    a = np.empty((len(c), n_resamples))
    b = np.empty((len(c), n_resamples))

    for g in range(len(c)):
        rng = unit_rng(root, keys_done[g], "confusion matrix")
        tp, fp, fn, tn = (float(x) for x in c[g])
        a[g] = rng.beta(fp + cells["fp"], tn + cells["tn"], n_resamples)
        b[g] = rng.beta(fn + cells["fn"], tp + cells["tp"], n_resamples)
    description = (
        f"Dirichlet-multinomial, {prior_label}, {n_resamples} draws, prevalence {_PREVALENCE}"
    )
    ci_method = f"{description}, {_KIND_LABEL['equal-tailed']}"
    defined = np.ones(len(c), dtype=bool)
    ops = [columns[name]["ops"] for name in names]
    for name, (low, high, o0, o1, notes) in zip(
        names, _intervals(metrics, values, ops, pis, a, b, confidence_level, defined), strict=True
    ):
        text = f"{columns[name]['method']}; interval: {ci_method}"
        columns[name].update(
            value_ci_low=low,
            value_ci_high=high,
            ops_ci_low=o0,
            ops_ci_high=o1,
            method=np.array([text + note for note in notes], dtype=object) if any(notes) else text,
        )
    if std is not None:  # the same draws at the standard prevalence
        for name, (low, high, o0, o1, _notes) in zip(
            names,
            _intervals(
                metrics, std_values, std_estimates, std_pis, a, b, confidence_level, defined
            ),
            strict=True,
        ):
            columns[name].update(
                standardized_ci_low=low,
                standardized_ci_high=high,
                standardized_ops_ci_low=o0,
                standardized_ops_ci_high=o1,
            )
    if not defined.all():  # hand these groups to the per-group path too
        idx = np.flatnonzero(done)
        done[idx[~defined]] = False
        for col in columns.values():
            for k, val in col.items():
                if isinstance(val, np.ndarray):
                    col[k] = val[defined]
    return done, columns


def _intervals(
    metrics: list[Any],
    values: list[np.ndarray],
    ops: list[np.ndarray],
    pis: np.ndarray,
    a: np.ndarray,
    b: np.ndarray,
    confidence_level: float,
    defined: np.ndarray,
) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
    """Per metric, the value interval's ends and the OPS interval's (low, high, OPS of
    low, OPS of high), each extended to its estimate (``values``, ``ops``), and each
    group's note of the extension (docs/method.md#containing-the-estimate), from the
    draws ``a``, ``b`` of alpha and beta (G, n) at the prevalences ``pis`` (one per
    group), as ``interval_from_draws`` and ``ops_from_draws`` compute them; ``defined``
    is cleared (in place) where a group needs the per-group path (a NaN draw, an end
    outside the metric's range)."""
    n_resamples = a.shape[1]
    tail = (1 - confidence_level) / 2
    lo_i, hi_i, w = quantile_positions(n_resamples, [tail, 1 - tail])
    kth = np.unique(np.concatenate([lo_i, hi_i]))
    ends = []
    for m, v in zip(metrics, values, strict=True):
        # the prevalence as a column: elementwise the same arithmetic as np.full(n, pi)
        draws = np.asarray(m(pis[:, None], a, b), dtype=float)
        if draws.shape != a.shape:
            draws = np.array(np.broadcast_to(draws, a.shape))
        defined &= ~np.isnan(draws).any(axis=1)  # NaN draws: the per-group path
        draws[np.isnan(draws)] = np.inf
        stats = _order_statistics(draws, kth)
        low, high = at_positions(
            stats, (np.searchsorted(kth, lo_i), np.searchsorted(kth, hi_i), w[:, None])
        )
        # as interval_from_draws: snapped to the estimate, then extended to it
        ends.append(contain_many(low, high, v))
    out = []
    for m, o, (low, high, notes) in zip(metrics, ops, ends, strict=True):
        lo, hi = (float(x) for x in value_range(m))
        e0, e1 = (low, high) if m.higher_is_better else (high, low)
        # ref.ops checks the ends are in the metric's range; outside it, the per-group path
        defined &= (np.minimum(e0, e1) >= lo - 1e-12) & (np.maximum(e0, e1) <= hi + 1e-12)
        with np.errstate(invalid="ignore"):
            o0 = _uniform_ops(m, np.where(defined, e0, lo), pis)
            o1 = _uniform_ops(m, np.where(defined, e1, lo), pis)
        # as ops_from_draws: the mapped ends snapped to the OPS and contained, said once
        o0, o1, ops_notes = contain_many(o0, o1, o)
        said = [a + ("" if a.endswith(b) else b) for a, b in zip(notes, ops_notes, strict=True)]
        out.append((low, high, o0, o1, np.array(said, dtype=object)))
    return out
