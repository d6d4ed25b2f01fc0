"""The pandas path of :func:`~opsstats.grouped.evaluate`: the rows of a pandas DataFrame
read and checked here, grouped, and each group's confusion matrix and curve built from
its rows (many groups' confusion-matrix metrics as arrays over groups)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from .._labels import positive_mask
from .._lazy import lazy_module
from .._progress import counted
from .._validation import check_1d, check_scores, describe, threshold_for
from ..confusion import ConfusionMatrix
from ..curves.score_curve import ScoreCurve
from ._arrays import _array_rows, arrays_cover
from ._curve_reference import resolve_curve_reference
from ._options import Options
from ._unit import evaluate_unit

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = lazy_module("pandas")


def _counts(t: np.ndarray, p: np.ndarray) -> ConfusionMatrix:
    return ConfusionMatrix(
        tp=int(np.count_nonzero(t & p)),
        fp=int(np.count_nonzero(~t & p)),
        fn=int(np.count_nonzero(t & ~p)),
        tn=int(np.count_nonzero(~t & ~p)),
    )


def frame_rows(
    data: pd.DataFrame, options: Options
) -> tuple[pd.DataFrame, dict[tuple, ConfusionMatrix]]:
    """The tidy table of a pandas DataFrame's rows, and each group's confusion matrix
    when there are predicted labels."""
    truth, score, pred, threshold = options.truth, options.score, options.pred, options.threshold
    by_cols, specs = options.by_cols, options.specs
    # positions, not labels, locate a group's rows: any index (repeated labels too) works
    frame = data[
        list(dict.fromkeys(c for c in (truth, score, pred, *by_cols) if c is not None))
    ].reset_index(drop=True)
    groups = (
        [((), frame)]
        if not by_cols
        else frame.groupby(by_cols, sort=True, dropna=False, observed=True)
    )
    all_truth, all_pred, all_score = _checked_columns(frame, options)
    curve_specs = options.curve_specs
    if curve_specs and score is not None:
        # one pass over the reference curves serves every group's prevalence
        group_pis = (
            pd.Series(all_truth, index=frame.index)
            .groupby([frame[c] for c in by_cols], dropna=False, observed=True)
            .mean()
            if by_cols
            else pd.Series([all_truth.mean()])
        )
        pis = group_pis.to_numpy(dtype=float)
        if options.prevalence is not None:  # the standardized curves' prevalence too
            pis = np.append(pis, options.prevalence)
        reference = resolve_curve_reference(options.curve_reference, curve_specs, pis)
        options = replace(options, curve_reference=reference)
    rows: list[dict[str, Any]] = []
    confusion: dict[tuple, ConfusionMatrix] = {}
    if arrays_cover(options):
        # many groups' confusion-matrix metrics as arrays over groups (same numbers)
        predicted = (
            all_pred
            if all_score is None or threshold is None
            else all_score >= threshold_for(all_score.dtype, threshold)
        )
        out = _array_rows(
            cast(Any, groups),
            all_truth,
            cast(np.ndarray, predicted),
            specs,
            confusion,
            by_cols,
            **options.point_options(),
        )
        return out, confusion
    for key, g in counted(groups, len(groups), "evaluate, groups"):
        key = key if isinstance(key, tuple) else (key,)
        rows_of_group = frame.index.get_indexer(g.index) if by_cols else slice(None)
        t = all_truth[rows_of_group]
        cm = curve = None
        if all_pred is not None:
            cm = _counts(t, all_pred[rows_of_group])
        if all_score is not None:
            s = all_score[rows_of_group]
            if threshold is not None:
                cm = _counts(t, s >= threshold_for(s.dtype, threshold))
            if any(sp.kind == "curve" for sp in specs) and 0 < t.mean() < 1:
                curve = ScoreCurve.from_scores(t, s)
        if cm is not None and options.labelled:
            confusion[key] = cm
        unit_rows = evaluate_unit(
            specs, cm=cm, curve=curve, key=key, truth=t, **options.unit_options()
        )
        for r in unit_rows:
            rows.append({**dict(zip(by_cols, key, strict=True)), **r})
    return pd.DataFrame(rows, columns=[*by_cols, *options.columns]), confusion


def _checked_columns(
    frame: pd.DataFrame, options: Options
) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None]:
    """The true labels as a positive mask, the predicted labels as one (None without
    ``pred``), the scores (None without ``score``); checked in this order."""
    truth, score, pred = options.truth, options.score, options.pred
    truth_values = check_1d("truth", frame[truth], label=f"`truth` (column {describe(truth)})")
    pred_values = (
        None
        if pred is None
        else check_1d("pred", frame[pred], label=f"`pred` (column {describe(pred)})")
    )
    all_truth, pos = positive_mask(
        truth_values,
        name="truth",
        pos_label=options.pos_label,
        other=pred_values,
        other_name="pred",
    )
    all_pred = None if pred_values is None else pred_values == pos
    all_score = (
        None
        if score is None
        else check_scores("score", frame[score], label=f"`score` (column {describe(score)})")
    )
    return all_truth, all_pred, all_score
