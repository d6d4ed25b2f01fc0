"""Many groups' confusion-matrix metrics as arrays over groups: the rows
:func:`~opsstats.grouped._unit.evaluate_unit` gives each group, the same numbers, from the
groups' counts at once (:mod:`opsstats.uncertainty._cm_groups`); the groups it leaves go
through :func:`~opsstats.grouped._unit.evaluate_unit`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .._lazy import lazy_module
from .._progress import counted
from ..confusion import ConfusionMatrix
from ..uncertainty._cm_groups import covered, group_point_columns
from ._options import Options
from ._specs import MetricSpec
from ._specs import columns as table_columns
from ._unit import evaluate_unit

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = lazy_module("pandas")


def arrays_cover(options: Options, weighted: bool = False) -> bool:
    """Whether the arrays give this evaluation's rows: groups, predicted labels,
    confusion-matrix metrics only, counts of rows (not weights), and metrics, interval
    method and reference that :func:`~opsstats.uncertainty._cm_groups.covered` covers
    (the standardized columns of ``prevalence`` too)."""
    return bool(
        options.by
        and options.labelled
        and all(sp.kind == "point" for sp in options.specs)
        and not weighted  # the array path counts rows
        and covered([sp.name for sp in options.specs], options.ci, options.point_reference)
    )


def _array_rows(
    groups: Any,
    truth: np.ndarray,
    predicted: np.ndarray,
    specs: Sequence[MetricSpec],
    confusion: dict[tuple, ConfusionMatrix],
    by_cols: list[str],
    **options: Any,
) -> pd.DataFrame:
    """:func:`_count_rows` of the groups of a pandas groupby: the counts by one
    ``np.bincount`` over (group, cell)."""
    codes = groups.ngroup().to_numpy()
    keys = [k if isinstance(k, tuple) else (k,) for k in groups.size().index]
    cell = 2 * (~truth).astype(np.int64) + (~predicted)  # tp 0, fp 1, fn 2, tn 3
    counts = np.bincount(4 * codes + np.array([0, 2, 1, 3])[cell], minlength=4 * len(keys))
    return _count_rows(keys, counts.reshape(len(keys), 4), specs, confusion, by_cols, **options)


def _count_rows(
    keys: list[tuple],
    counts: np.ndarray,
    specs: Sequence[MetricSpec],
    confusion: dict[tuple, ConfusionMatrix],
    by_cols: list[str],
    **options: Any,
) -> pd.DataFrame:
    """The rows :func:`evaluate_unit` gives each group, from the groups' (G, 4) counts
    (tp, fp, fn, tn) through
    :func:`~opsstats.uncertainty._cm_groups.group_point_columns`, as columns; the groups
    it leaves (a class absent, a metric 0/0, ...) go through :func:`evaluate_unit`."""
    done, columns = group_point_columns(keys, counts, [sp.name for sp in specs], **options)
    cols = table_columns(options.get("standard_prevalence") is not None)
    for key, c in zip(keys, counts.tolist(), strict=True):
        confusion[key] = ConfusionMatrix(tp=c[0], fp=c[1], fn=c[2], tn=c[3])
    m, kept = len(specs), np.flatnonzero(done)
    # the groups done here: column by column, each (group, metric) as _row makes it
    table: dict[str, Any] = {
        c: [keys[g][j] for g in kept for _ in range(m)] for j, c in enumerate(by_cols)
    }
    for col in cols:
        per_spec = [columns[sp.name].get(col, np.nan) for sp in specs]
        if col == "metric":
            table[col] = [sp.label for sp in specs] * len(kept)
        elif any(isinstance(v, np.ndarray) for v in per_spec):
            table[col] = np.column_stack(
                [np.broadcast_to(v, (len(kept),)) for v in per_spec]
            ).ravel()
        else:
            table[col] = per_spec * len(kept)
    frames = [(m * kept, pd.DataFrame(table, columns=[*by_cols, *cols]))]
    # the others through the per-group path
    rows: list[dict[str, Any]] = []
    order: list[int] = []
    for g in counted(np.flatnonzero(~done), int((~done).sum()), "evaluate, groups"):
        unit = evaluate_unit(
            specs,
            cm=confusion[keys[g]],
            ci=options["ci"],
            confidence_level=options["confidence_level"],
            n_resamples=options["n_resamples"],
            point_reference=options["reference"],
            root=options["root"],
            key=keys[g],
            standard_prevalence=options.get("standard_prevalence"),
        )
        group = dict(zip(by_cols, keys[g], strict=True))
        rows.extend({**group, **r} for r in unit)
        order.append(m * g)
    if rows:
        frames.append((np.array(order), pd.DataFrame(rows, columns=[*by_cols, *cols])))
    frames = [(o, f) for o, f in frames if len(f)]
    if len(frames) < 2:
        return frames[0][1] if frames else pd.DataFrame(rows, columns=[*by_cols, *cols])
    position = np.concatenate([np.repeat(o, m) + np.tile(np.arange(m), len(o)) for o, _ in frames])
    both = pd.concat([f for _, f in frames], ignore_index=True)
    return both.iloc[np.argsort(position, kind="stable")].reset_index(drop=True)
