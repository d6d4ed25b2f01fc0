"""Reading and checking the label matrices of :class:`~opsstats.multilabel.MultiLabel`:
indicator and score matrices (numpy arrays or DataFrames, whose column names become the
label names) and the column lists of ``MultiLabel.from_frame``; each refusal names the
argument, what was expected and what was received."""

from __future__ import annotations

import contextlib
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

import numpy as np

from .._lazy import lazy_module
from .._validation import check_scores, describe

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = lazy_module("pandas")


def _matrix(name: str, values: Any, labels: Any) -> tuple[np.ndarray, list[Any]]:
    if values is None or isinstance(values, str | bytes | dict) or np.isscalar(values):
        raise TypeError(
            f"`{name}` must be a 2-D indicator or score matrix (n rows x L labels); got "
            f"{describe(values)}."
        )
    if isinstance(values, pd.DataFrame):
        names = list(values.columns)
        missing = values.isna().to_numpy()
        if missing.any():
            i, j = (int(k[0]) for k in np.nonzero(missing))
            raise ValueError(
                f"`{name}` must not contain missing values; got {int(missing.sum())} "
                f"(<NA>, NaN or None), the first in row {i} of column {describe(names[j])}."
            )
        arr = values.to_numpy()
        if arr.dtype == object:  # nullable or mixed columns: one numpy dtype if they agree
            with contextlib.suppress(TypeError, ValueError):
                arr = np.asarray(values.astype(np.result_type(*values.dtypes)).to_numpy())
    else:
        try:
            arr = np.asarray(values)
        except ValueError:
            raise ValueError(
                f"`{name}` must be a 2-D matrix (n rows x L labels); got {describe(values)} "
                "whose rows have different lengths."
            ) from None
        names = None
    if arr.ndim == 1:
        arr = arr[:, None]
    if arr.ndim != 2:
        raise ValueError(
            f"`{name}` must be a 2-D indicator matrix (n rows x L labels); got "
            f"an array of shape {arr.shape}."
        )
    if 0 in arr.shape:
        raise ValueError(
            f"`{name}` must have at least one row and one label (column); got an array of "
            f"shape {arr.shape}."
        )
    if labels is not None:
        if isinstance(labels, str | bytes) or not hasattr(labels, "__len__"):
            raise TypeError(f"`labels` must be a list of label names; got {describe(labels)}.")
        names = list(labels)
        for i, v in enumerate(names):
            if not isinstance(v, Hashable) or isinstance(v, tuple | frozenset):
                raise TypeError(
                    f"`labels` must hold one name (a string or a number) per column; got "
                    f"{describe(v)} at position {i}."
                )
        if len(names) != arr.shape[1]:
            raise ValueError(
                f"`labels` must name the {arr.shape[1]} columns of `{name}`; got "
                f"{len(names)} names."
            )
    if names is None:
        names = list(range(arr.shape[1]))
    if len(set(names)) != len(names):
        repeated = next(v for v in names if names.count(v) > 1)
        raise ValueError(
            f"label names must be unique; got {describe(names)} with {describe(repeated)} "
            "more than once."
        )
    return arr, names


def _columns(name: str, value: Any) -> list[Any]:
    """A list of column names (one name alone is a list of one)."""
    cols = [value] if isinstance(value, str) else value
    if isinstance(cols, pd.Index | np.ndarray):
        cols = cols.tolist()
    if not isinstance(cols, list | tuple) or not cols:
        raise TypeError(f"`{name}` must be a list of column names; got {describe(value)}.")
    for c in cols:
        if not isinstance(c, str | int) or isinstance(c, bool):
            raise TypeError(f"`{name}` must be a list of column names; got {describe(c)} in it.")
    return list(cols)


def _indicator(name: str, arr: np.ndarray) -> np.ndarray:
    if arr.dtype.kind == "b":
        return arr
    if arr.dtype.kind == "O" and np.asarray(pd.isna(arr), dtype=bool).any():
        raise ValueError(f"`{name}` must not contain missing values (<NA>, NaN or None).")
    if arr.dtype.kind not in "iuf":
        raise TypeError(f"`{name}` must hold 0/1 or booleans; got dtype {arr.dtype}.")
    if arr.dtype.kind == "f" and np.isnan(arr).any():
        raise ValueError(f"`{name}` must not contain NaN.")
    bad = ~np.isin(arr, (0, 1))
    if bad.any():
        raise ValueError(f"`{name}` must hold 0/1 indicators; got {arr[bad].flat[0].item()!r}.")
    return arr.astype(bool)


def _scores(name: str, arr: np.ndarray, labels: list[Any]) -> np.ndarray:
    """Score matrix: each column finite real numbers (integers kept exact)."""
    cols = [
        check_scores(name, arr[:, j], label=f"`{name}` (column {describe(labels[j])})")
        for j in range(arr.shape[1])
    ]
    return np.column_stack(cols) if cols else np.empty(arr.shape)
