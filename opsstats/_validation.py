"""Input validation shared by the public entry points.

Every public function validates its arguments through these helpers so that error
messages have one form: the argument in backticks, what was expected, what was
received ("`confidence_level` must be in the open interval (0, 1); got 1.5.").
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

__all__ = [
    "describe",
    "check_real",
    "check_count",
    "check_probability",
    "check_choice",
    "check_1d",
    "check_sample_weight",
    "check_same_length",
    "check_confidence_level",
    "check_positive_int",
]


def describe(value: Any) -> str:
    """A short, readable description of a received value for error messages."""
    if isinstance(value, np.ndarray):
        return f"an array of shape {value.shape} and dtype {value.dtype}"
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return text


def _is_real_scalar(value: Any) -> bool:
    if isinstance(value, bool | np.bool_):
        return False
    return isinstance(value, numbers.Real) or (
        isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind in "iuf"
    )


def check_real(
    name: str,
    value: Any,
    *,
    low: float | None = None,
    high: float | None = None,
    low_open: bool = False,
    high_open: bool = False,
) -> float:
    """A finite real scalar, optionally within bounds; returns a float."""
    if not _is_real_scalar(value):
        raise TypeError(f"`{name}` must be a real number; got {describe(value)}.")
    x = float(value)
    if not np.isfinite(x):
        raise ValueError(f"`{name}` must be finite; got {x!r}.")
    bad_low = low is not None and (x <= low if low_open else x < low)
    bad_high = high is not None and (x >= high if high_open else x > high)
    if bad_low or bad_high:
        # an unbounded end is always open: "(0, inf)", never "(0, inf]"
        lo = "(" if low_open or low is None else "["
        hi = ")" if high_open or high is None else "]"
        lo_s = "-inf" if low is None else f"{low:g}"
        hi_s = "inf" if high is None else f"{high:g}"
        raise ValueError(f"`{name}` must be in {lo}{lo_s}, {hi_s}{hi}; got {x!r}.")
    return x


def check_count(name: str, value: Any, *, integer: bool = False) -> float | int:
    """A finite non-negative count; an ``int`` when it is integral.

    ``integer=True`` is for the places where a count must be a whole number
    (binomial resampling, exact intervals).
    """
    if not _is_real_scalar(value):
        raise TypeError(f"`{name}` must be a non-negative number; got {describe(value)}.")
    x = float(value)
    if not np.isfinite(x) or x < 0:
        raise ValueError(f"`{name}` must be a finite non-negative number; got {value!r}.")
    if x == int(x):
        return int(x)
    if integer:
        raise ValueError(f"`{name}` must be a whole number; got {value!r}.")
    return x


def check_probability(
    name: str, value: Any, *, open_low: bool = False, open_high: bool = False
) -> float:
    """A scalar in [0, 1] (ends optionally open)."""
    return check_real(name, value, low=0.0, high=1.0, low_open=open_low, high_open=open_high)


def check_confidence_level(value: Any) -> float:
    """`confidence_level` in the open interval (0, 1)."""
    if not _is_real_scalar(value):
        raise TypeError(
            f"`confidence_level` must be a real number in (0, 1); got {describe(value)}."
        )
    x = float(value)
    if not (0.0 < x < 1.0):
        raise ValueError(f"`confidence_level` must be in the open interval (0, 1); got {value!r}.")
    return x


def check_positive_int(name: str, value: Any, *, minimum: int = 1) -> int:
    """An integer >= ``minimum`` (bools refused)."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Integral):
        raise TypeError(f"`{name}` must be an integer; got {describe(value)}.")
    if value < minimum:
        raise ValueError(f"`{name}` must be an integer >= {minimum}; got {value!r}.")
    return int(value)


def check_choice(name: str, value: Any, choices: tuple[str, ...]) -> str:
    """One of a fixed set of option strings, exactly (no silent fuzzy matching)."""
    if not isinstance(value, str):
        raise TypeError(
            f"`{name}` must be one of {', '.join(map(repr, choices))}; got {describe(value)}."
        )
    if value not in choices:
        raise ValueError(f"`{name}` must be one of {', '.join(map(repr, choices))}; got {value!r}.")
    return value


def check_1d(
    name: str, values: Any, *, numeric: bool = False, allow_empty: bool = False
) -> np.ndarray:
    """A 1-D array from a list, numpy array or pandas Series.

    Numeric arrays are checked for NaN and infinite values; label arrays for missing
    values (None/NaN).
    """
    if values is None:
        raise TypeError(f"`{name}` must be array-like; got None.")
    if isinstance(values, str | bytes) or np.isscalar(values):
        raise TypeError(f"`{name}` must be a 1-D array-like; got {describe(values)}.")
    arr = np.asarray(values.to_numpy() if hasattr(values, "to_numpy") else values)
    if arr.ndim == 2 and 1 in arr.shape:
        arr = arr.reshape(-1)
    if arr.ndim != 1:
        raise ValueError(f"`{name}` must be 1-dimensional; got an array of shape {arr.shape}.")
    if arr.size == 0 and not allow_empty:
        raise ValueError(f"`{name}` must not be empty.")
    if numeric:
        if arr.dtype.kind == "b":
            arr = arr.astype(float)
        if arr.dtype.kind not in "iuf":
            try:
                arr = arr.astype(float)
            except (TypeError, ValueError):
                raise TypeError(f"`{name}` must be numeric; got dtype {arr.dtype}.") from None
        if arr.dtype.kind == "f":
            bad = ~np.isfinite(arr)
            if bad.any():
                i = int(np.flatnonzero(bad)[0])
                raise ValueError(
                    f"`{name}` must contain only finite numbers; got "
                    f"{int(bad.sum())} NaN or infinite value(s), the first "
                    f"at position {i} ({arr[i].item()!r})."
                )
    elif arr.dtype.kind == "f":
        bad = np.isnan(arr)
        if bad.any():
            raise ValueError(
                f"`{name}` must not contain NaN; got {int(bad.sum())} NaN value(s), "
                f"the first at position {int(np.flatnonzero(bad)[0])}."
            )
    elif arr.dtype.kind == "O":
        missing = np.array([v is None or (isinstance(v, float) and np.isnan(v)) for v in arr])
        if missing.any():
            raise ValueError(
                f"`{name}` must not contain missing values; got "
                f"{int(missing.sum())}, the first at position "
                f"{int(np.flatnonzero(missing)[0])}."
            )
    return arr


def check_same_length(**arrays: np.ndarray | None) -> int:
    """All given arrays have the same length; returns it."""
    named = [(k, len(v)) for k, v in arrays.items() if v is not None]
    first_name, first_len = named[0]
    for other, length in named[1:]:
        if length != first_len:
            raise ValueError(
                f"`{first_name}` and `{other}` must have the same length; "
                f"got {first_len} and {length}."
            )
    return first_len


def check_sample_weight(sample_weight: Any, n: int) -> np.ndarray | None:
    """Non-negative finite weights of length ``n`` (or None)."""
    if sample_weight is None:
        return None
    w = check_1d("sample_weight", sample_weight, numeric=True)
    if len(w) != n:
        raise ValueError(f"`sample_weight` must have one weight per row ({n}); got {len(w)}.")
    if (w < 0).any():
        i = int(np.flatnonzero(w < 0)[0])
        raise ValueError(
            f"`sample_weight` must be non-negative; got {w[i].item()!r} at position {i}."
        )
    return w.astype(float, copy=False)
