"""Count tables from any data frame, computed where the data live.

Every statistic of :func:`opsstats.evaluate` depends on the rows only through counts:
per group, the four cells of the confusion matrix, and per group and distinct score the
numbers of positives and negatives (what :meth:`ScoreCurve.from_counts` takes). This
module asks the frame's own engine for those counts, through narwhals (one layer over
pandas, polars eager and lazy, pyarrow, DuckDB, PySpark and Dask), so that only the count
table crosses into Python: no per-row Python work and no copy of the rows.

The checks are those of the pandas path (`docs/method.md#inputs-and-limits`), made on
what the engine reports about the columns: their types, the numbers of missing and
non-finite values, and the distinct labels, which are few.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import narwhals as nw
import numpy as np
import pandas as pd

from opsstats._labels import positive_mask
from opsstats._validation import describe

__all__ = ["CountTables", "count_tables", "is_frame"]

_POS, _PRED, _N, _W = "__opsstats_pos", "__opsstats_pred", "__opsstats_n", "__opsstats_w"


def is_frame(data: Any) -> bool:
    """Whether narwhals knows ``data`` as a data frame (eager or lazy) of some engine."""
    try:
        nw.from_native(data)
    except TypeError:
        return False
    return True


@dataclass(frozen=True)
class CountTables:
    """What the engine returned: group keys and counts, as numpy arrays.

    Attributes
    ----------
    keys : list of tuple
        The groups, sorted as ``pandas.DataFrame.groupby(sort=True, dropna=False)``
        sorts them (missing keys last).
    cells : numpy.ndarray of shape (G, 4), int64
        tp, fp, fn, tn per group (zeros when there are no predicted labels).
    class_counts : numpy.ndarray of shape (G, 2), int64
        Positives and negatives per group.
    scores : list of (scores, positives, negatives) or None
        Per group, the distinct scores with their counts of positives and negatives,
        when scores were asked for.
    pos_label : object
        The positive class, as the pandas path infers it.
    bins : int or None
        The number of equal-width score bins when ``scores`` counts bins (their numbers
        stand for the scores), None when it counts distinct scores.
    weighted : bool
        Whether the counts are sums of frequency weights.
    """

    keys: list[tuple]
    cells: np.ndarray
    class_counts: np.ndarray
    scores: list[tuple[np.ndarray, np.ndarray, np.ndarray]] | None
    pos_label: Any
    bins: int | None = None
    weighted: bool = False


def _lazy(data: Any) -> Any:
    frame = nw.from_native(data)
    return frame.lazy() if isinstance(frame, nw.DataFrame) else frame


def _collect(lf: Any) -> pd.DataFrame:
    """A (small) query result as a pandas frame. narwhals collects through pyarrow,
    which is optional: without it, through the engine's own conversion to pandas
    (DuckDB's ``df()``), so that a DuckDB relation needs no pyarrow."""
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        out: pd.DataFrame = lf.collect(backend="pandas").to_pandas()
    else:
        out = lf.collect().to_pandas()
    return out


def _count(flag: Any) -> Any:
    """How many rows a boolean expression flags (Spark sums numbers only)."""
    return flag.cast(nw.Int64).sum()


def _label(arg: str, col: str) -> str:
    return f"`{arg}` (column {describe(col)})"


def _check_columns(lf: Any, named: list[tuple[str, str]]) -> dict[str, Any]:
    schema = dict(lf.collect_schema())
    for arg, col in named:
        if col not in schema:
            cols = list(schema)
            shown = ", ".join(map(str, cols[:20]))
            more = f", ... ({len(cols)} in all)" if len(cols) > 20 else ""
            raise ValueError(
                f"`{arg}` names a column that is not in `data`: {describe(col)}; "
                f"columns: {shown}{more}."
            )
    return schema


def _check_labels(lf: Any, arg: str, col: str) -> np.ndarray:
    """The distinct values of a label column, refused with missing values."""
    what = _label(arg, col)
    missing = _collect(lf.select(_count(nw.col(col).is_null()).alias("m")))["m"].iloc[0]
    # a GROUP BY, whose memory grows with the distinct values only (narwhals' unique()
    # numbers the rows of each value in a window, which holds every row)
    values = _collect(lf.group_by(col, drop_null_keys=False).agg(nw.len().alias(_N)))[col]
    values = values.to_numpy()
    nan = int(pd.isna(values).sum()) if values.dtype.kind in "fO" else 0
    if int(missing) or nan:
        raise ValueError(
            f"{what} must not contain missing values; got missing value(s) (<NA>, NaN or None)."
        )
    if values.dtype.kind == "O":
        values = np.asarray(values.tolist())
    return values


def _check_scores(lf: Any, schema: dict[str, Any], col: str) -> None:
    what = _label("score", col)
    dtype = schema[col]
    if dtype == nw.Boolean:
        return
    if not dtype.is_numeric():
        raise TypeError(f"{what} must be numeric; got dtype {dtype}.")
    checks = [_count(nw.col(col).is_null()).alias("null")]
    if dtype.is_float():
        checks.append(_count(~nw.col(col).is_finite()).alias("bad"))
    row = _collect(lf.select(*checks)).iloc[0]
    bad = int(row["null"]) + int(row.get("bad", 0) or 0)
    if bad:
        raise ValueError(
            f"{what} must contain only finite numbers; got {bad} missing, NaN or infinite value(s)."
        )


def _check_weights(lf: Any, schema: dict[str, Any], col: str) -> None:
    what = _label("weight", col)
    dtype = schema[col]
    if dtype == nw.Boolean or not dtype.is_numeric():
        raise TypeError(f"{what} must hold non-negative numbers; got dtype {dtype}.")
    value = nw.col(col).cast(nw.Float64)
    row = _collect(
        lf.select(
            _count(value.is_null()).alias("null"),
            _count(~value.is_finite()).alias("bad"),
            _count(value < 0).alias("negative"),
        )
    ).iloc[0]
    if int(row["null"]) or int(row["bad"] or 0):
        raise ValueError(
            f"{what} must contain only finite numbers; got "
            f"{int(row['null']) + int(row['bad'] or 0)} missing, NaN or infinite value(s)."
        )
    if int(row["negative"] or 0):
        raise ValueError(
            f"{what} must be non-negative; got {int(row['negative'])} negative value(s)."
        )


def count_tables(
    data: Any,
    *,
    truth: str,
    score: str | None = None,
    pred: str | None = None,
    threshold: float | None = None,
    by: Sequence[str] = (),
    pos_label: Any = None,
    curves: bool = False,
    bins: int | None = None,
    max_distinct: int | None = None,
    weight: str | None = None,
) -> CountTables:
    """The count tables of :func:`opsstats.evaluate`, computed by the frame's engine.

    Parameters
    ----------
    data : data frame
        pandas, polars (eager or lazy), pyarrow, DuckDB, PySpark or Dask.
    truth, score, pred, threshold, by, pos_label
        As in :func:`opsstats.evaluate` (``threshold``: predict positive where
        ``score >= threshold``).
    curves : bool
        Also count positives and negatives per group and distinct score.
    bins : int, optional
        Count per score bin instead: ``bins`` equal-width bins between the smallest and
        the largest score, computed by the engine (`docs/method.md#binned-curves`).
    max_distinct : int, optional
        Bin (into ``bins`` bins, default 1,000) only when some group has more distinct
        scores than this.
    weight : str, optional
        A column of non-negative frequency weights: the counts are sums of weights.

    Returns
    -------
    CountTables

    Examples
    --------
    >>> import polars as pl
    >>> t = count_tables(pl.DataFrame({"y": [0, 1, 1, 0], "s": [0.1, 0.8, 0.3, 0.3]}),
    ...                  truth="y", score="s", threshold=0.5, curves=True)
    >>> t.cells.tolist(), t.class_counts.tolist()
    ([[1, 0, 1, 2]], [[2, 2]])
    >>> s, pos, neg = t.scores[0]  # a row per (score, class) present
    >>> sorted(zip(s.tolist(), pos.tolist(), neg.tolist()))
    [(0.1, 0, 1), (0.3, 0, 1), (0.3, 1, 0), (0.8, 1, 0)]
    """
    by = list(by)
    lf = _lazy(data)
    named = [("truth", truth), ("score", score), ("pred", pred), ("weight", weight)]
    named += [("by", c) for c in by]
    schema = _check_columns(lf, [(a, c) for a, c in named if c is not None])
    truth_values = _check_labels(lf, "truth", truth)
    pred_values = None if pred is None else _check_labels(lf, "pred", pred)
    if score is not None:
        _check_scores(lf, schema, score)
    if weight is not None:
        _check_weights(lf, schema, weight)
    size = nw.len() if weight is None else nw.col(_W).sum()
    dtype = np.int64 if weight is None else np.float64
    _, pos = positive_mask(
        truth_values, name="truth", pos_label=pos_label, other=pred_values, other_name="pred"
    )
    pos_value = pos.item() if isinstance(pos, np.generic) else pos
    flags = {_POS: nw.col(truth) == pos_value}
    if pred is not None:
        flags[_PRED] = nw.col(pred) == pos_value
    elif threshold is not None and score is not None:
        flags[_PRED] = nw.col(score) >= threshold
    if weight is not None:
        flags[_W] = nw.col(weight).cast(nw.Float64)  # a plain column: a simple sum
    marked = lf.with_columns(**flags)
    labelled = _PRED in flags
    cells_tab = _collect(
        marked.group_by([*by, _POS, *([_PRED] if labelled else [])], drop_null_keys=False).agg(
            size.alias(_N)
        )
    )
    if not len(cells_tab):
        raise ValueError(f"{_label('truth', truth)} must not be empty.")
    keys, codes = _keys(cells_tab, by)
    g = len(keys)
    positive = cells_tab[_POS].to_numpy(dtype=bool)
    predicted = cells_tab[_PRED].to_numpy(dtype=bool) if labelled else np.zeros_like(positive)
    cell = np.where(positive, np.where(predicted, 0, 2), np.where(predicted, 1, 3))
    n = cells_tab[_N].to_numpy(dtype=dtype)
    cells = np.bincount(4 * codes + cell, weights=n, minlength=4 * g).astype(dtype)
    cells = cells.reshape(g, 4)
    if not labelled:
        cells[:] = 0
    class_counts = np.bincount(2 * codes + (~positive), weights=n, minlength=2 * g).astype(dtype)
    per_score, n_bins = None, None
    if curves and score is not None:
        if max_distinct is not None:
            distinct = _collect(
                marked.group_by(by or [_POS], drop_null_keys=False).agg(
                    nw.col(score).n_unique().alias(_N)
                )
            )[_N].max()
            if int(distinct) > max_distinct:
                n_bins = bins or DEFAULT_BINS
        elif bins is not None:
            n_bins = bins
        column = score
        if n_bins is not None:
            marked, column = _binned(marked, score, n_bins), _BIN
        tab = _collect(
            marked.group_by([*by, column, _POS], drop_null_keys=False).agg(size.alias(_N))
        )
        per_score = _per_score(tab, by, keys, column, dtype)
    return CountTables(
        keys, cells, class_counts.reshape(g, 2), per_score, pos, n_bins, weight is not None
    )


DEFAULT_BINS = 1000
_BIN = "__opsstats_bin"


def _binned(lf: Any, score: str, bins: int) -> Any:
    """The frame with each row's bin number (0 to bins - 1): equal-width bins between
    the smallest and the largest score, computed by the engine."""
    ends = _collect(lf.select(nw.col(score).min().alias("lo"), nw.col(score).max().alias("hi")))
    lo, hi = float(ends["lo"].iloc[0]), float(ends["hi"].iloc[0])
    width = (hi - lo) / bins if hi > lo else 1.0
    position = ((nw.col(score).cast(nw.Float64) - lo) / width).floor()
    return lf.with_columns(
        nw.when(position >= bins).then(bins - 1).otherwise(position).cast(nw.Int64).alias(_BIN)
    )


def _keys(tab: pd.DataFrame, by: list[str]) -> tuple[list[tuple], np.ndarray]:
    """The sorted group keys of a collected table and each row's group number."""
    if not by:
        return [()], np.zeros(len(tab), dtype=np.int64)
    grouped = tab.groupby(by, sort=True, dropna=False, observed=True)
    keys = [k if isinstance(k, tuple) else (k,) for k in grouped.size().index]
    return keys, grouped.ngroup().to_numpy()


def _per_score(
    tab: pd.DataFrame, by: list[str], keys: list[tuple], score: str, dtype: Any = np.int64
) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    if by:  # the rows' groups among ``keys`` (NaN keys match NaN keys)
        index = pd.MultiIndex.from_tuples(keys, names=by)
        codes = index.get_indexer(pd.MultiIndex.from_frame(tab[by]))
    else:
        codes = np.zeros(len(tab), dtype=np.int64)
    values = tab[score].to_numpy()
    if values.dtype.kind == "b":
        values = values.astype(np.float64)
    positive = tab[_POS].to_numpy(dtype=bool)
    n = tab[_N].to_numpy(dtype=dtype)
    order = np.argsort(codes, kind="stable")
    bounds = np.searchsorted(codes[order], np.arange(len(keys) + 1))
    out = []
    for i in range(len(keys)):
        rows = order[bounds[i] : bounds[i + 1]]
        s, p = values[rows], positive[rows]
        out.append((s, np.where(p, n[rows], 0), np.where(p, 0, n[rows])))
    return out
