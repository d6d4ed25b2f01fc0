"""Count tables from any data frame, computed where the data live.

Every statistic of :func:`opsstats.evaluate` depends on the rows only through counts:
per group, the four cells of the confusion matrix, and per group and distinct score the
numbers of positives and negatives (what :meth:`ScoreCurve.from_counts` takes). Those of
:class:`opsstats.MultiLabel` depend on them through the distinct joint rows (the truth
and the prediction or score of every label) with their counts (:func:`joint_counts`).
This module asks the frame's own engine for those counts, through narwhals (one layer over
pandas, polars eager and lazy, pyarrow, DuckDB, PySpark and Dask), so that only the count
table crosses into Python: no per-row Python work and no copy of the rows.

The checks are those of the pandas path (`docs/method.md#inputs-and-limits`), made on
what the engine reports about the columns: their types, the numbers of missing and
non-finite values, and the distinct labels, which are few.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from opsstats._labels import positive_mask
from opsstats._validation import MAX_BINS, MAX_COUNT, check_size, check_threshold, describe

from ._lazy import lazy_module

if TYPE_CHECKING:
    import narwhals as nw
    import pandas as pd
else:
    nw = lazy_module("narwhals")
    pd = lazy_module("pandas")

__all__ = ["CountTables", "count_tables", "JointCounts", "joint_counts", "is_frame"]

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


def _column_list(arg: str, columns: Any) -> list[Any]:
    """Column names: a list, or one name alone (a list of one); empty for None."""
    if columns is None:
        return []
    cols = [columns] if isinstance(columns, str) else columns
    if not isinstance(cols, list | tuple) or not all(
        isinstance(c, str | int) and not isinstance(c, bool) for c in cols
    ):
        raise TypeError(f"`{arg}` must be a list of column names; got {describe(columns)}.")
    return list(cols)


def _check_frame(data: Any) -> Any:
    if not is_frame(data):
        raise TypeError(
            "`data` must be a data frame (pandas, polars, pyarrow, DuckDB, PySpark or Dask); "
            f"got {describe(data)}."
        )
    return data


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


def _distinct(lf: Any, col: str) -> np.ndarray:
    """A column's distinct values (missing ones included), by a GROUP BY, whose memory
    grows with the distinct values only (narwhals' ``unique()`` numbers the rows of each
    value in a window, which holds every row)."""
    return _collect(lf.group_by(col, drop_null_keys=False).agg(nw.len().alias(_N)))[col].to_numpy()


def _check_labels(lf: Any, arg: str, col: str) -> np.ndarray:
    """The distinct values of a label column, refused with missing values."""
    what = _label(arg, col)
    missing = _collect(lf.select(_count(nw.col(col).is_null()).alias("m")))["m"].iloc[0]
    try:
        values = _distinct(lf, col)
    except TypeError:  # lists or other unhashable cells: no GROUP BY
        raise TypeError(
            f"{what} must hold one scalar label per row; got lists or other unhashable values."
        ) from None
    nan = int(pd.isna(values).sum()) if values.dtype.kind in "fO" else 0
    if int(missing) or nan:
        raise ValueError(
            f"{what} must not contain missing values; got missing value(s) (<NA>, NaN or None)."
        )
    if values.dtype.kind == "O":
        values = np.asarray(values.tolist())
    return values


def _check_scores(lf: Any, schema: dict[str, Any], *cols: str) -> None:
    """Numeric (or boolean) score columns of finite numbers, checked in one query."""
    checks = []
    for i, col in enumerate(cols):
        dtype = schema[col]
        if dtype == nw.Boolean:
            continue
        if not dtype.is_numeric():
            raise TypeError(f"{_label('score', col)} must be numeric; got dtype {dtype}.")
        checks.append(_count(nw.col(col).is_null()).alias(f"null{i}"))
        if dtype.is_float():
            checks.append(_count(~nw.col(col).is_finite()).alias(f"bad{i}"))
    if not checks:
        return
    row = _collect(lf.select(*checks)).iloc[0]
    for i, col in enumerate(cols):
        bad = int(row.get(f"null{i}", 0) or 0) + int(row.get(f"bad{i}", 0) or 0)
        if bad:
            raise ValueError(
                f"{_label('score', col)} must contain only finite numbers; got {bad} missing, "
                "NaN or infinite value(s)."
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
        Bin (into ``bins`` bins, default 1,000) only when some group (all rows without
        ``by``) has more distinct scores than this.
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
    by = [by] if isinstance(by, str) else list(by)
    lf = _lazy(_check_frame(data))
    if threshold is not None:
        threshold = check_threshold(threshold)
    if bins is not None:
        bins = check_size("bins", bins, minimum=2, maximum=MAX_BINS)
    if max_distinct is not None:
        max_distinct = check_size("max_distinct", max_distinct, minimum=1, maximum=MAX_COUNT)
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
            if _more_distinct(marked, score, by, max_distinct):
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


def _more_distinct(lf: Any, score: str, by: list[str], limit: int) -> bool:
    """Whether some group (all rows without ``by``) has more than ``limit`` distinct
    scores. An exact count holds every distinct score, as many as the rows for
    continuous scores; so a DuckDB relation is first asked for HyperLogLog estimates
    (``approx_count_distinct``: one pass, a few kB per group; relative error a few
    percent): an estimate above twice the limit answers yes, every one below half of it
    no, and only between them, or on another engine, the exact count decides, which then
    holds at most about twice the limit per group."""
    if lf.implementation is nw.Implementation.DUCKDB:
        estimate = f"approx_count_distinct({_sql_name(score)})"
        found = lf.to_native().aggregate(estimate, ", ".join(map(_sql_name, by))).fetchall()
        most = max((row[0] for row in found), default=0)
        if most > 2 * limit:
            return True
        if most < limit / 2:
            return False
    unique = nw.col(score).n_unique().alias(_N)
    counted = lf.group_by(by, drop_null_keys=False).agg(unique) if by else lf.select(unique)
    return int(_collect(counted)[_N].max()) > limit


def _sql_name(name: str) -> str:
    """A SQL identifier."""
    return '"' + name.replace('"', '""') + '"'


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


@dataclass(frozen=True)
class JointCounts:
    """The distinct joint rows of a multi-label frame with their counts.

    Attributes
    ----------
    truth : numpy.ndarray of shape (K, L), bool
        Each distinct row's true labels.
    pred : numpy.ndarray of shape (K, L), bool, or None
        Its predicted labels, when ``pred`` columns were given.
    score : numpy.ndarray of shape (K, L) or None
        Its scores, when ``score`` columns were given (one numpy dtype for all labels).
    counts : numpy.ndarray of shape (K,)
        How many rows have it (int64), or their total weight (float64) with ``weight``.
    """

    truth: np.ndarray
    pred: np.ndarray | None
    score: np.ndarray | None
    counts: np.ndarray


def _check_indicators(lf: Any, schema: dict[str, Any], named: list[tuple[str, str]]) -> None:
    """0/1 or boolean columns without missing values, all checked in one query (and a
    second one only for the distinct values of a column to refuse)."""
    checks = []
    for i, (_arg, col) in enumerate(named):
        dtype = schema[col]
        gap = nw.col(col).is_null()
        if dtype.is_float():  # NaN is missing too (pandas calls it null already)
            gap = gap | nw.col(col).is_nan()
        checks.append(_count(gap).alias(f"null{i}"))
        if dtype.is_numeric() and dtype != nw.Boolean:
            checks.append(_count((nw.col(col) != 0) & (nw.col(col) != 1)).alias(f"bad{i}"))
    row = _collect(lf.select(*checks)).iloc[0]
    for i, (arg, col) in enumerate(named):
        what, dtype = _label(arg, col), schema[col]
        missing = int(row[f"null{i}"] or 0)
        if missing:
            raise ValueError(
                f"{what} must not contain missing values; got {missing} missing value(s) "
                "(<NA>, NaN or None)."
            )
        if dtype == nw.Boolean:
            continue
        if not dtype.is_numeric():
            raise TypeError(f"{what} must hold 0/1 indicators or booleans; got dtype {dtype}.")
        if int(row[f"bad{i}"] or 0):
            values = np.sort(_distinct(lf, col))
            shown = ", ".join(map(repr, values[:6].tolist())) + (", ..." if len(values) > 6 else "")
            if len(values) > 2:
                raise ValueError(
                    f"{what} must hold binary labels (0/1 indicators or booleans); got "
                    f"{len(values)} distinct values: {shown}."
                )
            raise ValueError(f"{what} must hold 0/1 indicators or booleans; got values {shown}.")


def joint_counts(
    data: Any,
    *,
    truth: Sequence[str],
    pred: Sequence[str] | None = None,
    score: Sequence[str] | None = None,
    weight: str | None = None,
) -> JointCounts:
    """The distinct joint rows of L labels with their counts, in one ``GROUP BY``.

    Parameters
    ----------
    data : data frame
        pandas, polars (eager or lazy), pyarrow, DuckDB, PySpark or Dask.
    truth : sequence of str
        The L columns of true labels (0/1 or booleans).
    pred, score : sequence of str, optional
        The L columns of predicted labels (0/1 or booleans) or of scores (finite
        numbers), in the order of ``truth``.
    weight : str, optional
        A column of non-negative frequency weights: the counts are sums of weights.

    Returns
    -------
    JointCounts
        The rows in the engine's order (unsorted). With scores the table has one row
        per distinct joint (truth, score) row, up to one per row of ``data`` when the
        scores are continuous (docs/method.md#data-frames-and-engines).

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame({"a": [1, 1, 0, 1], "b": [0, 0, 1, 0],
    ...                    "pa": [1, 1, 0, 0], "pb": [0, 0, 0, 0]})
    >>> j = joint_counts(df, truth=["a", "b"], pred=["pa", "pb"])
    >>> order = j.counts.argsort()
    >>> j.truth[order].astype(int).tolist(), j.pred[order].astype(int).tolist()
    ([[0, 1], [1, 0], [1, 0]], [[0, 0], [0, 0], [1, 0]])
    >>> j.counts[order].tolist()
    [1, 1, 2]
    """
    truth, pred_cols, score_cols = (
        _column_list(arg, c) for arg, c in (("truth", truth), ("pred", pred), ("score", score))
    )
    lf = _lazy(_check_frame(data))
    named = [("truth", c) for c in truth] + [("pred", c) for c in pred_cols]
    named += [("score", c) for c in score_cols]
    schema = _check_columns(lf, [*named, *([("weight", weight)] if weight is not None else [])])
    _check_indicators(lf, schema, [(a, c) for a, c in named if a != "score"])
    _check_scores(lf, schema, *score_cols)
    if weight is not None:
        _check_weights(lf, schema, weight)

    def flag(col: str) -> Any:
        return nw.col(col) if schema[col] == nw.Boolean else nw.col(col) == 1

    columns = {f"__opsstats_t{j}": flag(c) for j, c in enumerate(truth)}
    columns |= {f"__opsstats_p{j}": flag(c) for j, c in enumerate(pred_cols)}
    columns |= {f"__opsstats_s{j}": nw.col(c) for j, c in enumerate(score_cols)}
    keys = list(columns)
    if weight is not None:
        columns[_W] = nw.col(weight).cast(nw.Float64)
    size = nw.len() if weight is None else nw.col(_W).sum()
    tab = _collect(lf.select(**columns).group_by(keys, drop_null_keys=False).agg(size.alias(_N)))
    if not len(tab):
        raise ValueError(f"{_label('truth', truth[0])} must not be empty.")

    def matrix(prefix: str, cols: list[str], dtype: Any = None) -> np.ndarray | None:
        if not cols:
            return None
        return np.column_stack(
            [tab[f"__opsstats_{prefix}{j}"].to_numpy(dtype=dtype) for j in range(len(cols))]
        )

    scores = matrix("s", score_cols)
    if scores is not None and scores.dtype == object:  # e.g. nullable columns: one dtype
        scores = np.column_stack([np.asarray(c.tolist()) for c in scores.T])
    truth_matrix = matrix("t", truth, bool)
    assert truth_matrix is not None  # `truth` names at least one column
    return JointCounts(
        truth=truth_matrix,
        pred=matrix("p", pred_cols, bool),
        score=scores,
        counts=tab[_N].to_numpy(dtype=np.int64 if weight is None else np.float64),
    )
