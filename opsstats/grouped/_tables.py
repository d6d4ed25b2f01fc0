"""The count-table path of :func:`~opsstats.grouped.evaluate`: the frame's engine counts
(:func:`opsstats.frames.count_tables`; pandas too, when binning or weighting) and only the
count tables come into Python; each group's confusion matrix from its cells and its curve
from :meth:`ScoreCurve.from_counts`, with the same rows as from the rows themselves."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from .._lazy import lazy_module
from .._progress import counted
from ..confusion import ConfusionMatrix
from ..curves.score_curve import ScoreCurve
from ..frames import count_tables
from ._arrays import _count_rows, arrays_cover
from ._binned import _note_bin_bounds
from ._curve_reference import resolve_curve_reference
from ._options import Options
from ._unit import evaluate_unit

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = lazy_module("pandas")


def table_rows(data: Any, options: Options) -> tuple[pd.DataFrame, dict[tuple, ConfusionMatrix]]:
    """The tidy table of a frame counted by its engine, and each group's confusion
    matrix when there are predicted labels."""
    by_cols, specs, labelled = options.by_cols, options.specs, options.labelled
    # the engine counts (pandas too, when binning); only the count tables come here
    tables = count_tables(
        data,
        truth=options.truth,
        score=options.score,
        pred=options.pred,
        threshold=options.threshold,
        by=by_cols,
        pos_label=options.pos_label,
        curves=any(sp.kind == "curve" for sp in specs),
        bins=options.bins,
        max_distinct=options.max_distinct,
        weight=options.weight,
    )
    keys, cells, classes = tables.keys, tables.cells, tables.class_counts
    curve_specs = options.curve_specs
    if curve_specs:
        pis = classes[:, 0] / classes.sum(axis=1)
        if options.prevalence is not None:  # the standardized curves' prevalence too
            pis = np.append(pis, options.prevalence)
        reference = resolve_curve_reference(options.curve_reference, curve_specs, pis)
        options = replace(options, curve_reference=reference)
    confusion: dict[tuple, ConfusionMatrix] = {}
    if arrays_cover(options, weighted=tables.weighted):
        out = _count_rows(keys, cells, specs, confusion, by_cols, **options.point_options())
        return out, confusion
    rows: list[dict[str, Any]] = []
    for g, key in enumerate(counted(keys, len(keys), "evaluate, groups")):
        cm = curve = None
        positives, negatives = (c.item() for c in classes[g])  # int, or float weights
        if labelled:
            tp, fp, fn, tn = (c.item() for c in cells[g])
            cm = confusion[key] = ConfusionMatrix(tp=tp, fp=fp, fn=fn, tn=tn)
        if tables.scores is not None and curve_specs and positives and negatives:
            curve = ScoreCurve.from_counts(*tables.scores[g])
        unit = evaluate_unit(
            specs,
            cm=cm,
            curve=curve,
            key=key,
            class_counts=(positives, negatives),
            **options.unit_options(),
        )
        if tables.bins is not None and tables.scores is not None and curve is not None:
            _note_bin_bounds(
                unit, specs, tables.scores[g], tables.bins, options.curve_reference, tables.weighted
            )
        rows.extend({**dict(zip(by_cols, key, strict=True)), **r} for r in unit)
    return pd.DataFrame(rows, columns=[*by_cols, *options.columns]), confusion
