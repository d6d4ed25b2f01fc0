"""Comparisons in a tidy table: the classifiers (or test sets) named by one column of a
data frame compared within every group of others, each pair of each metric a row
(``compare_groups``, and ``evaluate(..., compare=COLUMN)``; docs/method.md#comparisons).

With an ``id`` column the rows of the compared levels are matched by it and compared as
paired (:func:`opsstats.compare`: the same instances scored by each classifier);
without one, each level is an independent test set (:func:`opsstats.compare_test_sets`:
two months, two sites). A comparison that cannot be made (a class absent in a group, a
level missing) is a row with NaN and its reason, never dropped.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ._labels import positive_mask
from ._lazy import lazy_module
from ._progress import counted
from ._validation import (
    check_1d,
    check_choice,
    check_confidence_level,
    check_resamples,
    check_scores,
    check_threshold,
    describe,
)
from .comparison import METHODS
from .comparison._inputs import check_alternative
from .comparison.paired import _compare
from .comparison.result import ComparisonResult, ComparisonTable
from .comparison.unpaired import _compare_test_sets
from .exceptions import SmallCountWarning
from .metrics import resolve_metric
from .ops import _check_reference
from .uncertainty._draws import root_seed, unit_rng

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = lazy_module("pandas")

__all__ = ["compare_groups"]


def _is_curve(metric: Any) -> bool:
    """A curve quantity (compared from scores), or a registered confusion-matrix metric
    (compared from predicted labels)."""
    if isinstance(metric, tuple):
        return True  # (metric, at): a value read off the curve
    try:
        resolve_metric(metric)
    except (ValueError, KeyError, TypeError):
        return True
    return False


def _columns(data: pd.DataFrame, named: dict[str, Any]) -> None:
    for arg, col in named.items():
        if col is not None and col not in data.columns:
            raise ValueError(
                f"`{arg}` must name a column of `data`; got {describe(col)}, columns are "
                f"{', '.join(map(repr, map(str, data.columns)))}."
            )


def compare_groups(
    data: pd.DataFrame,
    *,
    truth: str,
    compare_by: str,
    score: str | None = None,
    pred: str | None = None,
    threshold: float | None = None,
    metrics: Any = None,
    by: str | Sequence[str] | None = None,
    id: str | None = None,
    ops: bool = False,
    method: str = "auto",
    alternative: str = "two-sided",
    confidence_level: float = 0.95,
    n_resamples: int = 2000,
    point_reference: Any = None,
    curve_reference: Any = None,
    pos_label: Any = None,
    rng: Any = None,
) -> pd.DataFrame:
    """Every pair of the levels of ``compare_by``, for every metric, within every group.

    Parameters
    ----------
    data : pandas.DataFrame
        Long format: one row per instance and compared level (a model, a month).
    truth : str
        Column of true binary labels.
    compare_by : str
        Column whose values are compared: the classifiers (with ``id``) or the test sets.
    score, pred, threshold
        Scores (curve quantities; with ``threshold`` also predicted labels
        ``score >= threshold``) or predicted labels (confusion-matrix metrics).
    metrics : list, optional
        As :func:`opsstats.evaluate`: names (``"roc_auc"``, ``"f1"``, ...) and
        ``(metric, at)`` pairs. Default: ``["roc_auc"]`` with scores only, ``["f1"]``
        with predicted labels only, both with both.
    by : str or list of str, optional
        Grouping columns; the comparisons are made within each group.
    id : str, optional
        Column of instance ids. Given: the levels are matched by it and compared as
        **paired** (each level must hold every id of its group exactly once, with the
        same true label). Not given: the levels are **independent test sets**.
    ops : bool, default False
        Compare the OPS of each metric instead of its value.
    method, alternative, confidence_level, n_resamples, pos_label
        As :func:`opsstats.compare`.
    point_reference, curve_reference : optional
        The OPS references of confusion-matrix metrics and of curve quantities (as
        :func:`opsstats.evaluate`; defaults Uniform and the DBT).
    rng : None, int or numpy.random.Generator
        One integer is drawn from it; each (group, metric) comparison's generator is
        derived from that integer and its key, so that a row does not depend on the
        other groups or metrics.

    Returns
    -------
    pandas.DataFrame
        One row per group, metric and pair: the group columns, ``metric``, then the
        columns of :meth:`ComparisonResult.to_frame` (``a``, ``b``, ``estimate_a``,
        ``estimate_b``, ``difference``, ``ci_low``, ``ci_high``, ``statistic``,
        ``p_value``, ``method``, counts, ...) with ``p_holm`` and ``p_bonferroni``
        adjusted over the pairs of that group and metric, and ``reason`` (why a row is
        NaN; empty otherwise).

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(600) < 0.3
    >>> rows = pd.DataFrame({"id": np.arange(600), "y": y.astype(int)})
    >>> long = pd.concat([rows.assign(model="A", s=rng.normal(1.2 * y, 1)),
    ...                   rows.assign(model="B", s=rng.normal(0.6 * y, 1))])
    >>> out = compare_groups(long, truth="y", score="s", compare_by="model", id="id")
    >>> out[["metric", "a", "b", "paired"]].to_string(index=False)
    ' metric a b  paired\\nroc_auc A B    True'
    >>> bool(out["difference"].iloc[0] > 0 and out["p_value"].iloc[0] < 0.05)
    True
    """
    return _compare_groups(
        data,
        (ops,),
        truth=truth,
        compare_by=compare_by,
        score=score,
        pred=pred,
        threshold=threshold,
        metrics=metrics,
        by=by,
        id=id,
        method=method,
        alternative=alternative,
        confidence_level=confidence_level,
        n_resamples=n_resamples,
        point_reference=point_reference,
        curve_reference=curve_reference,
        pos_label=pos_label,
        rng=rng,
    )[0]


def _compare_groups(
    data: pd.DataFrame,
    flags: tuple[bool, ...],
    *,
    truth: str,
    compare_by: str,
    score: str | None = None,
    pred: str | None = None,
    threshold: float | None = None,
    metrics: Any = None,
    by: str | Sequence[str] | None = None,
    id: str | None = None,
    method: str = "auto",
    alternative: str = "two-sided",
    confidence_level: float = 0.95,
    n_resamples: int = 2000,
    point_reference: Any = None,
    curve_reference: Any = None,
    pos_label: Any = None,
    rng: Any = None,
) -> list[pd.DataFrame]:
    """:func:`compare_groups` of the values (``ops`` False) and of the OPS (True), one
    table per entry of ``flags``: each comparison's draws made once and mapped to both
    (``evaluate(..., compare=COLUMN)``), with the rows and numbers of separate calls."""
    if not isinstance(data, pd.DataFrame):
        raise TypeError(
            "`data` must be a pandas DataFrame for comparisons (a paired comparison needs "
            f"the rows); got {describe(data)}."
        )
    by_cols = [] if by is None else ([by] if isinstance(by, str) else list(by))
    _columns(
        data,
        {"truth": truth, "compare_by": compare_by, "score": score, "pred": pred, "id": id}
        | {f"by[{i}]": c for i, c in enumerate(by_cols)},
    )
    if score is None and pred is None:
        raise ValueError("give `score` (scores) or `pred` (predicted labels).")
    # the options every comparison shares, checked once here (a bad one would otherwise
    # be the reason of every row)
    threshold = None if threshold is None else check_threshold(threshold)
    alternative = check_alternative(alternative)
    confidence_level = check_confidence_level(confidence_level)
    n_resamples = check_resamples(n_resamples)
    for arg, col in (("truth", truth), ("compare_by", compare_by), ("pred", pred)):
        if col is not None:
            check_1d(arg, data[col], label=f"`{arg}` (column {describe(col)})")
    if score is not None:
        check_scores("score", data[score], label=f"`score` (column {describe(score)})")
    if metrics is None:
        metrics = (["roc_auc"] if score is not None else []) + (
            ["f1"] if pred is not None or threshold is not None else []
        )
    elif isinstance(metrics, str | tuple):
        metrics = [metrics]
    metrics = list(metrics)
    check_choice("method", method, METHODS)
    if point_reference is not None:  # checked up front, not in every row's reason
        _check_reference(point_reference, "point", "confusion-matrix metrics", "point_reference")
    if curve_reference is not None:
        _check_reference(curve_reference, "curve", "curve quantities", "curve_reference")
    if pos_label is not None:
        positive_mask(data[truth], name="truth", pos_label=pos_label)
    root = root_seed(rng)
    groups = [((), data)] if not by_cols else data.groupby(by_cols, sort=True, dropna=False)
    frames: list[list[pd.DataFrame]] = [[] for _ in flags]
    # one bar over the comparisons (each group and metric: every pair of its levels)
    units = [
        (key if isinstance(key, tuple) else (key,), group, metric)
        for key, group in groups
        for metric in metrics
    ]
    for key, group, metric in counted(units, len(units), "compare_groups, comparisons"):
        ones = _one(
            group,
            key,
            metric,
            by_cols,
            flags,
            truth=truth,
            compare_by=compare_by,
            score=score,
            pred=pred,
            threshold=threshold,
            id=id,
            options={
                "method": method,
                "alternative": alternative,
                "confidence_level": confidence_level,
                "n_resamples": n_resamples,
                "references": (point_reference, curve_reference),
                "pos_label": pos_label,
                "rng": unit_rng(root, key, repr(metric), "comparison"),
            },
        )
        for rows, one in zip(frames, ones, strict=True):
            rows.append(one)
    return [pd.concat(rows, ignore_index=True) for rows in frames]


def _one(
    group, key, metric, by_cols, flags, *, truth, compare_by, score, pred, threshold, id, options
):
    """The rows of one group and metric, one frame per entry of ``flags``."""
    curve = _is_curve(metric)
    name, at = (metric[0], metric[1]) if isinstance(metric, tuple) else (metric, None)
    head = {**dict(zip(by_cols, key, strict=True)), "metric": str(name)}
    if isinstance(at, dict):
        head["metric"] = f"{name} at " + ", ".join(f"{k} {v:g}" for k, v in at.items())
    heads = [{**head, "ops": flag} for flag in flags]
    point_ref, curve_ref = options.pop("references")
    # the reference ranks the OPS; the values have none
    options["references"] = tuple((curve_ref if curve else point_ref) if f else None for f in flags)
    if curve and score is None:
        return [_failed(h, f"{head['metric']} needs scores (`score`)") for h in heads]
    if not curve and pred is None and threshold is None:
        reason = f"{head['metric']} needs predicted labels (`pred`, or `threshold`)"
        return [_failed(h, reason) for h in heads]
    # scores (a curve quantity, or labels made by compare's `threshold`) or labels
    from_scores = curve or pred is None
    column = score if from_scores else pred
    labels = {} if curve or pred is not None else {"threshold": threshold}
    # in sorted order, whatever the order of the rows
    levels = list(pd.Series(pd.unique(group[compare_by])).sort_values())
    if len(levels) < 2:
        reason = f"`compare_by` ({compare_by!r}) has {len(levels)} level(s) in this group"
        return [_failed(h, reason) for h in heads]

    def values(part: pd.DataFrame) -> np.ndarray:
        return part[column].to_numpy()

    common = {"metric": name, "at": at, "rule": None, "rope": None, "prior": "jeffreys"}
    common |= {"adjust": "holm", "params": {}, **options}
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("ignore", SmallCountWarning)
            warnings.simplefilter("always", UserWarning)
            if id is not None:
                y, columns = _paired(group, truth, compare_by, id, levels, values)
                scores, preds = (columns, None) if from_scores else (None, columns)
                results = _compare(y, scores, preds, flags, **labels, **common)
            else:
                sets = {
                    str(level): (part[truth].to_numpy(), values(part))
                    for level, part in group.groupby(compare_by, sort=True)
                }
                results = _compare_test_sets(sets, flags, **labels, **common)
    except (ValueError, TypeError) as exc:
        return [_failed(h, str(exc)) for h in heads]
    # a difference, interval or test left undefined says why: the warnings of its
    # comparison (kept in the row, and passed on once)
    notes = list(dict.fromkeys(str(w.message) for w in caught))
    for w in caught:
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    frames = []
    for h, result in zip(heads, results, strict=True):
        if isinstance(result, Exception):
            frames.append(_failed(h, str(result)))
            continue
        frame = _frame(result)
        for k, v in reversed(h.items()):
            frame.insert(0, k, v)
        undefined = frame[["difference", "ci_low", "ci_high", "p_value"]].isna().any(axis=1)
        frame["reason"] = np.where(undefined, "; ".join(notes), "")
        frames.append(frame)
    return frames


def _paired(group, truth, compare_by, id, levels, values):
    """The levels' columns matched by id, and the shared true labels."""
    ids = None
    columns: dict[str, np.ndarray] = {}
    y = None
    for level in levels:
        part = group[group[compare_by] == level]
        if part[id].duplicated().any():
            raise ValueError(
                f"`id` ({id!r}) must be unique within each level of `compare_by`; level "
                f"{level!r} repeats {int(part[id].duplicated().sum())} id(s)."
            )
        part = part.set_index(id)
        if ids is None:
            ids = part.index
        elif not part.index.sort_values().equals(ids.sort_values()):
            raise ValueError(
                f"a paired comparison needs every id in every level: level {level!r} has "
                f"{len(part)} ids, {len(part.index.difference(ids))} of them not in level "
                f"{levels[0]!r}, which has {len(ids)}."
            )
        part = part.loc[ids]
        t = part[truth].to_numpy()
        if y is None:
            y = t
        elif not np.array_equal(pd.Series(t).astype(str), pd.Series(y).astype(str)):
            raise ValueError(
                f"`truth` must agree across the levels of a paired comparison; it differs "
                f"between {levels[0]!r} and {level!r} for "
                f"{int(np.sum(pd.Series(t).astype(str) != pd.Series(y).astype(str)))} id(s)."
            )
        columns[str(level)] = values(part)
    return y, columns


def _frame(result: ComparisonResult | ComparisonTable) -> pd.DataFrame:
    if isinstance(result, ComparisonTable):
        return result.to_frame()
    frame = result.to_frame()
    frame["p_holm"] = frame["p_bonferroni"] = frame["p_adjusted"] = frame["p_value"]
    return frame


def _failed(head: dict[str, Any], reason: str) -> pd.DataFrame:
    return pd.DataFrame([{**head, "difference": np.nan, "p_value": np.nan, "reason": reason}])
