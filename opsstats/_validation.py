"""Input validation shared by the public entry points.

Every public function validates its arguments through these helpers so that error
messages have one form: the argument in backticks, what was expected, what was
received ("`confidence_level` must be in the open interval (0, 1); got 1.5."). A
received object is described by its type and shape (:func:`describe`), never by the
repr of a large object.

The rules they enforce (docs/method.md#inputs-and-limits):

* Numbers are real: complex values, strings and booleans are refused where a number is
  expected, NaN everywhere, and infinity wherever the quantity must be finite (counts,
  scores, weights and thresholds among them).
* Integers are exact. Whole-number counts are kept as Python ``int`` up to
  :data:`MAX_COUNT` (2**63 - 1, what numpy's count arrays hold) and refused above it;
  integer scores and thresholds keep their integer dtype, so that scores above 2**53
  are sorted and tied as integers, not through float. Float counts and weights must be
  finite, and so must their sums (an overflow to inf is refused, not carried along).
* Sizes are bounded. Every argument that sets how much is drawn or allocated
  (``n_resamples``, ``n_curves``, ``n_points``, ``depth``, grid ``points``, ...) goes
  through :func:`check_size`, which estimates the memory the call would allocate and
  refuses it up front, with the estimate and the limit in the message, when the value
  is above its maximum or the estimate above :data:`MEMORY_LIMIT`. The limits are the
  constants below; this is the one place where they are set.
"""

from __future__ import annotations

import math
import numbers
import sys
from typing import TYPE_CHECKING, Any

import numpy as np

from ._describe import describe, format_bytes
from ._lazy import lazy_module

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = lazy_module("pandas")

__all__ = [
    "check_rng",
    "MEMORY_LIMIT",
    "MAX_COUNT",
    "MAX_RESAMPLES",
    "MAX_CURVES",
    "MAX_DEPTH",
    "MAX_CURVE_POINTS",
    "MAX_GRID_POINTS",
    "MAX_DIGITS",
    "describe",
    "format_bytes",
    "check_real",
    "check_count",
    "check_threshold",
    "threshold_for",
    "check_probability",
    "check_choice",
    "check_1d",
    "check_scores",
    "check_real_array",
    "check_sample_weight",
    "check_weights",
    "check_array",
    "check_probabilities",
    "check_instance",
    "check_same_length",
    "check_confidence_level",
    "check_positive_int",
    "check_size",
    "check_resamples",
    "check_digits",
    "check_pair",
]

# ---------------------------------------------------------------------------- limits
#: Memory (bytes) that one call may plan to allocate for draws, reference curves or
#: grids; :func:`check_size` refuses a call whose estimate is above it.
MEMORY_LIMIT = 2 * 2**30
#: The largest whole-number count (int64): counts are exact integers up to here.
MAX_COUNT = 2**63 - 1
#: Posterior draws or bootstrap resamples of one interval.
MAX_RESAMPLES = 10_000_000
#: Curves of a Monte Carlo curve reference (``n_curves``).
MAX_CURVES = 10_000_000
#: Depth of the Directed Binary Tree: 2**12 - 1 = 4,095 points per curve. A pass over
#: its curves holds two (points x 10,000) buffers per worker thread; at this depth (one
#: worker) the pass peaks at about 1 GB resident, 971 MB measured with 100,000 curves
#: (benchmarks/results/dbt_memory.md; the old maximum, 14, needed 6.5 GB).
MAX_DEPTH = 12
#: Points per reference curve (``BinormalCurves(n_points=)``), endpoints included: the
#: same as the deepest tree's.
MAX_CURVE_POINTS = 2**MAX_DEPTH + 1
#: Points of a standardized curve, of a plotted curve or OPS function, histogram bins.
MAX_GRID_POINTS = 1_000
#: Score bins of a binned curve (evaluate(bins=)): a curve of this many points is cheap.
MAX_BINS = 1_000_000
#: Digits of printed numbers (a float64 carries 17 significant digits).
MAX_DIGITS = 17


def _is_real_scalar(value: Any) -> bool:
    if isinstance(value, bool | np.bool_):
        return False
    return isinstance(value, numbers.Real) or (
        isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind in "iuf"
    )


# --------------------------------------------------------------------------- scalars
def check_rng(rng: Any, name: str = "rng") -> np.random.Generator:
    """``rng`` (None, int, SeedSequence, Generator) as a Generator; ``name``: the caller's."""
    if isinstance(rng, bool):
        raise TypeError(f"`{name}` must be None, an int seed or a numpy Generator; got {rng!r}.")
    if isinstance(rng, numbers.Integral) and rng < 0:
        raise ValueError(
            f"`{name}` must be None, a non-negative int seed or a numpy Generator; got "
            f"{describe(rng)}."
        )
    try:
        return np.random.default_rng(rng)
    except (TypeError, ValueError):
        raise TypeError(
            f"`{name}` must be None, an int seed or a numpy Generator; got {describe(rng)}."
        ) from None


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
    try:
        x = float(value)
    except OverflowError:
        raise ValueError(
            f"`{name}` must be a finite number; got {describe(value)}, beyond float range."
        ) from None
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
    """A finite non-negative count: an exact ``int`` when it is a whole number.

    Integers (Python or numpy) are kept exactly, up to :data:`MAX_COUNT`; larger ones
    are refused. Whole floats below 2**53 (where every integer is a float) become
    ``int``; other floats stay floats. ``integer=True`` is for the places where a count
    must be a whole number (binomial resampling, exact intervals).
    """
    if not _is_real_scalar(value):
        raise TypeError(f"`{name}` must be a non-negative number; got {describe(value)}.")
    if isinstance(value, numbers.Integral) or (
        isinstance(value, np.ndarray) and value.dtype.kind in "iu"
    ):
        k = int(value)
        if k < 0:
            raise ValueError(f"`{name}` must be a finite non-negative number; got {k!r}.")
        if k > MAX_COUNT:
            alternative = "" if integer else ", or a float"
            raise ValueError(
                f"`{name}` must be a whole number at most 2**63 - 1 ({MAX_COUNT:,}, the "
                f"largest exact count){alternative}; got {describe(value)}."
            )
        return k
    x = float(value)
    if not np.isfinite(x) or x < 0:
        raise ValueError(f"`{name}` must be a finite non-negative number; got {value!r}.")
    if x == int(x) and x < 2.0**53:
        return int(x)
    if integer:
        what = "a whole number" if x != int(x) else "a whole number below 2**53 (exact)"
        raise ValueError(f"`{name}` must be {what}; got {value!r}.")
    return x


def check_threshold(value: Any, *, name: str = "threshold", ends: bool = False) -> int | float:
    """A finite real threshold (predict positive where score >= threshold).

    The one check of every threshold (``evaluate``, ``MultiLabel.from_scores``,
    ``ScoreCurve.confusion_matrix``): NaN, infinite, complex, boolean and non-numeric
    values are refused, since scores are finite numbers and a threshold outside their
    range is a mistake more often than a wish. Integers are returned as ``int``, so
    that integer scores above 2**53 are compared exactly. With ``ends`` (a curve's
    thresholds), +inf and -inf are accepted: the curve's two ends, nothing and
    everything predicted positive, the first threshold of scikit-learn's
    ``roc_curve`` and pROC's ``coords``.
    """
    if isinstance(value, numbers.Integral) and not isinstance(value, bool | np.bool_):
        return int(value)
    if not _is_real_scalar(value):
        raise TypeError(f"`{name}` must be a real number; got {describe(value)}.")
    x = float(value)
    if ends and np.isinf(x):
        return x
    if not np.isfinite(x):
        raise ValueError(
            f"`{name}` must be a finite number (scores are finite, so a threshold of "
            f"nan or +-inf predicts every row alike); got {x!r}."
        )
    return x


def threshold_for(dtype: Any, threshold: int | float) -> int | float:
    """The value to compare scores of ``dtype`` with, so that ``scores >= value`` is
    exactly ``scores >= threshold`` (numpy compares an int64 array with a float, or a
    float array with a large int, in float64, which rounds above 2**53).

    Integer scores: ``ceil(threshold)``, a Python int (numpy compares those exactly,
    whatever their size). Float scores and an integer threshold: the smallest float at
    or above it.

    Examples
    --------
    >>> s = np.array([2**53 + 3], dtype=np.int64)
    >>> bool((s >= float(2**53 + 4))[0]), bool((s >= threshold_for(s.dtype, float(2**53 + 4)))[0])
    (True, False)
    """
    kind = np.dtype(dtype).kind
    if kind in "iu":
        return threshold if isinstance(threshold, int) else math.ceil(threshold)
    if isinstance(threshold, int):
        try:
            f = float(threshold)
        except OverflowError:
            return math.inf if threshold > 0 else -math.inf
        if f < threshold:  # rounded down: the next float up is the first one >= threshold
            f = float(np.nextafter(f, math.inf))
        return f
    return threshold


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
        raise ValueError(
            f"`confidence_level` must be in the open interval (0, 1); got {describe(value)}."
        )
    return x


def check_positive_int(name: str, value: Any, *, minimum: int = 1) -> int:
    """An integer >= ``minimum`` (bools refused)."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Integral):
        raise TypeError(f"`{name}` must be an integer; got {describe(value)}.")
    if value < minimum:
        raise ValueError(f"`{name}` must be an integer >= {minimum}; got {describe(value)}.")
    return int(value)


def check_size(
    name: str,
    value: Any,
    *,
    maximum: int,
    minimum: int = 1,
    bytes_each: float = 0.0,
    overhead: float = 0.0,
    what: str = "",
) -> int:
    """A size argument (how many draws, curves, points, ...): an integer from
    ``minimum`` to ``maximum`` whose memory estimate, ``overhead + bytes_each * value``
    bytes, is within :data:`MEMORY_LIMIT`.

    The estimate is of what the call allocates at once (``what`` says for what, e.g.
    " for the draws of 3 labels"); the message states it and the limit, so that a
    call that would take tens of GB is refused before it starts.

    Examples
    --------
    >>> check_size("n_resamples", 2000, maximum=MAX_RESAMPLES, bytes_each=48)
    2000
    >>> check_size("n_resamples", 10**9, maximum=MAX_RESAMPLES, bytes_each=24)
    Traceback (most recent call last):
    ...
    ValueError: `n_resamples` must be at most 10,000,000 and need at most 2 GiB of memory; got 1,000,000,000, which would need about 22 GiB.
    """
    n = check_positive_int(name, value, minimum=minimum)
    need = overhead + bytes_each * n
    if n > maximum or need > MEMORY_LIMIT:
        raise ValueError(
            f"`{name}` must be at most {maximum:,} and need at most "
            f"{format_bytes(MEMORY_LIMIT)} of memory{what}; got {n:,}, which would need "
            f"about {format_bytes(need)}."
        )
    return n


def check_resamples(value: Any, *, bytes_each: float = 64.0, what: str = "") -> int:
    """``n_resamples``: an integer from 100 to :data:`MAX_RESAMPLES` whose draws
    (``bytes_each`` bytes each: the draws and the values computed from them) fit in
    :data:`MEMORY_LIMIT`."""
    return check_size(
        "n_resamples",
        value,
        minimum=100,
        maximum=MAX_RESAMPLES,
        bytes_each=bytes_each,
        what=what,
    )


def check_digits(value: Any, name: str = "digits") -> int:
    """Digits of a printed number: an integer from 0 to :data:`MAX_DIGITS`."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Integral):
        raise TypeError(
            f"`{name}` must be an integer from 0 to {MAX_DIGITS}; got {describe(value)}."
        )
    if not 0 <= int(value) <= MAX_DIGITS:
        raise ValueError(
            f"`{name}` must be an integer from 0 to {MAX_DIGITS} (a float carries 17 "
            f"significant digits); got {describe(value)}."
        )
    return int(value)


def check_pair(name: str, value: Any) -> tuple[float, float]:
    """A pair (low, high) of finite reals with low < high."""
    expected = f"`{name}` must be a pair (low, high) of finite numbers with low < high"
    if isinstance(value, str | bytes) or not isinstance(value, tuple | list | np.ndarray):
        raise TypeError(f"{expected}; got {describe(value)}.")
    if len(value) != 2:
        raise ValueError(f"{expected}; got {len(value)} value(s): {describe(value)}.")
    lo = check_real(f"{name}[0]", value[0])
    hi = check_real(f"{name}[1]", value[1])
    if not lo < hi:
        raise ValueError(f"{expected}; got ({lo!r}, {hi!r}).")
    return lo, hi


def check_choice(name: str, value: Any, choices: tuple[str, ...]) -> str:
    """One of a fixed set of option strings, exactly (no silent fuzzy matching)."""
    if not isinstance(value, str):
        raise TypeError(
            f"`{name}` must be one of {', '.join(map(repr, choices))}; got {describe(value)}."
        )
    if value not in choices:
        raise ValueError(
            f"`{name}` must be one of {', '.join(map(repr, choices))}; got {describe(value)}."
        )
    return value


# ---------------------------------------------------------------------------- arrays
def _is_pandas(values: Any) -> bool:
    # without pandas imported nothing is a pandas object: numpy input does not import it
    return "pandas" in sys.modules and isinstance(
        values, pd.Series | pd.Index | pd.api.extensions.ExtensionArray
    )


def _from_pandas(what: str, values: Any) -> np.ndarray:
    """A numpy array from a pandas object; missing values (``<NA>``, ``NaN``,
    ``None``, ``NaT``) in nullable or object columns refused by position."""
    dtype = values.dtype
    if isinstance(dtype, pd.api.extensions.ExtensionDtype) or dtype.kind == "O":
        missing = np.asarray(pd.isna(values), dtype=bool)
        if missing.ndim == 1 and missing.any():
            raise ValueError(
                f"{what} must not contain missing values; got {int(missing.sum())} "
                f"missing value(s) (<NA>, NaN or None), the first at position "
                f"{int(np.flatnonzero(missing)[0])}."
            )
        numpy_dtype = getattr(dtype, "numpy_dtype", None)
        if isinstance(dtype, pd.api.extensions.ExtensionDtype) and numpy_dtype is not None:
            try:
                return np.asarray(values.to_numpy(dtype=numpy_dtype))
            except (TypeError, ValueError):
                pass
    return np.asarray(values.to_numpy())


def _as_array(what: str, values: Any) -> np.ndarray:
    if _is_pandas(values):
        return _from_pandas(what, values)
    if hasattr(values, "to_numpy") and not isinstance(values, np.ndarray):
        try:  # polars, pyarrow and other frames' columns
            return np.asarray(values.to_numpy())
        except Exception:
            pass
    try:
        return np.asarray(values)
    except ValueError:
        raise ValueError(
            f"{what} must be a 1-D array of scalars; got {describe(values)} whose rows "
            "have different lengths (a ragged or nested sequence)."
        ) from None


def _is_nested_type(t: type) -> bool:
    return not issubclass(t, str | bytes) and (
        issubclass(t, list | tuple | dict | set | np.ndarray) or hasattr(t, "__len__")
    )


def _nested(arr: np.ndarray) -> int | None:
    """Position of the first element of an object array that is itself a sequence."""
    items = arr.tolist()
    nested = {t for t in set(map(type, items)) if _is_nested_type(t)}
    if not nested:
        return None
    return next(i for i, v in enumerate(items) if type(v) in nested)


def check_1d(
    name: str,
    values: Any,
    *,
    numeric: bool = False,
    allow_empty: bool = False,
    label: str | None = None,
) -> np.ndarray:
    """A 1-D array from a list, numpy array, pandas Series (nullable dtypes too) or
    another library's column.

    Numeric arrays are checked to be real (not complex, not strings) and free of NaN
    and infinite values; label arrays for missing values (None, NaN, ``<NA>``). Rows
    that are themselves sequences (a ragged list, a Parquet list column) are refused.
    ``label`` replaces "`name`" in messages (e.g. "`score` (column 's')").
    """
    what = label or f"`{name}`"
    if values is None:
        raise TypeError(f"{what} must be array-like; got None.")
    if (
        isinstance(values, str | bytes | dict | set | frozenset)
        or np.isscalar(values)
        or isinstance(values, numbers.Number)
    ):
        raise TypeError(f"{what} must be a 1-D array-like; got {describe(values)}.")
    arr = _as_array(what, values)
    if arr.ndim == 2 and 1 in arr.shape:
        arr = arr.reshape(-1)
    if arr.ndim != 1:
        raise ValueError(f"{what} must be 1-dimensional; got an array of shape {arr.shape}.")
    if arr.size == 0 and not allow_empty:
        raise ValueError(f"{what} must not be empty.")
    if arr.dtype.kind == "O":
        i = _nested(arr)
        if i is not None:
            raise ValueError(
                f"{what} must hold one scalar per row; got {describe(arr[i])} at position "
                f"{i} (a list or array column?)."
            )
        missing = np.asarray(pd.isna(arr), dtype=bool)
        if missing.any():
            raise ValueError(
                f"{what} must not contain missing values; got {int(missing.sum())} "
                f"missing value(s) (<NA>, NaN or None), the first at position "
                f"{int(np.flatnonzero(missing)[0])}."
            )
    if numeric:
        arr = _numeric(what, arr)
    elif arr.dtype.kind == "f":
        bad = np.isnan(arr)
        if bad.any():
            raise ValueError(
                f"{what} must not contain NaN; got {int(bad.sum())} NaN value(s), "
                f"the first at position {int(np.flatnonzero(bad)[0])}."
            )
    return arr


def _numeric(what: str, arr: np.ndarray) -> np.ndarray:
    """Real numbers: bool as 0/1, integers kept exactly, objects converted (Python
    ints to int64 where they fit), complex, strings and dates refused; finite."""
    kind = arr.dtype.kind
    if kind == "b":
        arr = arr.astype(float)
    elif kind == "c":
        raise TypeError(f"{what} must hold real numbers; got complex dtype {arr.dtype}.")
    elif kind in "USMmV":
        example = f" (e.g. {describe(arr[0])})" if arr.size else ""
        raise TypeError(f"{what} must be numeric; got dtype {arr.dtype}{example}.")
    elif kind == "O":
        items = arr.tolist()
        for i, v in enumerate(items):
            if isinstance(v, bool | np.bool_) or not isinstance(v, numbers.Real):
                kind_of = "complex" if isinstance(v, numbers.Complex) else "non-numeric"
                raise TypeError(
                    f"{what} must be numeric; got a {kind_of} value {describe(v)} at "
                    f"position {i} (dtype object)."
                )
        if all(isinstance(v, numbers.Integral) for v in items):
            for dtype in (np.int64, np.uint64):
                try:
                    return np.array(items, dtype=dtype)
                except OverflowError:
                    continue
            big = next(i for i, v in enumerate(items) if abs(int(v)) > MAX_COUNT)
            raise ValueError(
                f"{what} must hold integers that fit in 64 bits (or floats); got "
                f"{describe(items[big])} at position {big}."
            )
        try:
            arr = np.array(items, dtype=float)
        except OverflowError:
            big = next(
                i
                for i, v in enumerate(items)
                if isinstance(v, numbers.Integral) and int(v).bit_length() > 1023
            )
            raise ValueError(
                f"{what} must hold numbers within float range; got {describe(items[big])} "
                f"at position {big}."
            ) from None
    if arr.dtype.kind == "f":
        if arr.dtype != np.float64 and arr.dtype.itemsize < 8:
            arr = arr.astype(np.float64)
        bad = ~np.isfinite(arr)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise ValueError(
                f"{what} must contain only finite numbers; got "
                f"{int(bad.sum())} NaN or infinite value(s), the first "
                f"at position {i} ({arr[i].item()!r})."
            )
    return arr


def check_real_array(name: str, value: Any) -> np.ndarray:
    """A real number or an array of real numbers (any shape), as float64; NaN and
    infinity are left to the caller. Strings, booleans, complex values, ragged
    sequences and non-numeric objects are refused."""
    if isinstance(value, str | bytes | bool | np.bool_) or value is None:
        raise TypeError(f"`{name}` must be a number or an array of numbers; got {describe(value)}.")
    if isinstance(value, numbers.Number) and not isinstance(value, numbers.Real):
        raise TypeError(f"`{name}` must be real; got the complex number {describe(value)}.")
    try:
        arr = np.asarray(value.to_numpy() if _is_pandas(value) else value)
    except ValueError:
        raise ValueError(
            f"`{name}` must be a number or a rectangular array of numbers; got "
            f"{describe(value)} whose rows have different lengths."
        ) from None
    kind = arr.dtype.kind
    if kind == "c":
        raise TypeError(f"`{name}` must be real; got complex dtype {arr.dtype}.")
    if kind == "O":
        flat = arr.ravel().tolist()
        for v in flat:
            if isinstance(v, bool | np.bool_) or not isinstance(v, numbers.Real):
                raise TypeError(
                    f"`{name}` must be a number or an array of numbers; got "
                    f"{describe(value)} holding {describe(v)}."
                )
        try:
            return np.asarray(flat, dtype=float).reshape(arr.shape)
        except OverflowError:
            raise ValueError(
                f"`{name}` must hold numbers within float range; got {describe(value)}."
            ) from None
    if kind not in "iuf":
        raise TypeError(f"`{name}` must be a number or an array of numbers; got {describe(value)}.")
    return arr.astype(float, copy=False)


def check_scores(name: str, values: Any, *, label: str | None = None) -> np.ndarray:
    """Scores (or thresholds): finite real numbers, kept exact.

    Integer scores stay integers (int64, or uint64 above 2**63), so that scores above
    2**53 are sorted and tied exactly; booleans become 0.0/1.0 and every float becomes
    float64 (``longdouble`` scores are refused rather than rounded).
    """
    arr = check_1d(name, values, numeric=True, label=label)
    kind = arr.dtype.kind
    if kind == "i":
        return arr.astype(np.int64, copy=False)
    if kind == "u":
        if arr.dtype.itemsize < 8 or arr.size == 0 or int(arr.max()) <= MAX_COUNT:
            return arr.astype(np.int64)
        return arr.astype(np.uint64, copy=False)
    if arr.dtype.itemsize > 8:
        as64 = arr.astype(np.float64)
        if not np.array_equal(as64, arr):
            raise TypeError(
                f"{label or f'`{name}`'} must be float64 or integer scores; got dtype "
                f"{arr.dtype} whose values float64 would round."
            )
        return as64
    return arr.astype(np.float64, copy=False)


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


def check_weights(
    name: str,
    values: Any,
    n: int,
    *,
    per: str = "row",
    positive_sum: bool = False,
    scale: bool = False,
) -> np.ndarray:
    """Non-negative finite weights, one per ``per`` (``n`` of them), as float64.

    Their sum must be finite (an overflow to inf is refused, not carried along), or,
    with ``scale``, the weights are divided by the largest first, which keeps their
    proportions and any sum finite (weights that only matter relative to each other,
    such as an average's). ``positive_sum`` refuses weights that are all zero.
    """
    w = check_1d(name, values, numeric=True)
    if len(w) != n:
        raise ValueError(f"`{name}` must have one weight per {per} ({n}); got {len(w)}.")
    if (w < 0).any():
        i = int(np.flatnonzero(w < 0)[0])
        raise ValueError(f"`{name}` must be non-negative; got {w[i].item()!r} at position {i}.")
    w = w.astype(float, copy=False)
    largest = float(w.max()) if w.size else 0.0
    if positive_sum and largest <= 0:
        raise ValueError(f"`{name}` must have a positive sum; got {n} zero weight(s).")
    if scale and largest > 0:
        return w / largest
    with np.errstate(over="ignore"):
        total = float(np.sum(w))
    if not np.isfinite(total):
        raise ValueError(
            f"`{name}` must have a finite sum; got weights that add up to more than "
            f"a float can hold (the largest is {largest:g}): scale them down."
        )
    return w


def check_sample_weight(sample_weight: Any, n: int) -> np.ndarray | None:
    """Non-negative finite weights of length ``n`` (or None) with a finite sum."""
    if sample_weight is None:
        return None
    return check_weights("sample_weight", sample_weight, n)


def check_array(
    name: str,
    values: Any,
    *,
    numeric: bool = False,
    label: str | None = None,
) -> np.ndarray:
    """A 1-D array (as :func:`check_1d`) or a 2-D one (rows x columns, each column
    checked as :func:`check_1d`): labels or scores of one or several outputs (a
    multi-class score matrix, a multi-label estimator's predictions). Ragged rows,
    missing values, more dimensions and empty inputs are refused."""
    what = label or f"`{name}`"
    scalar = np.isscalar(values) or isinstance(values, numbers.Number)
    if values is None or scalar or isinstance(values, str | bytes | dict | set | frozenset):
        raise TypeError(f"{what} must be a 1-D or 2-D array-like; got {describe(values)}.")
    arr = _as_array(what, values)
    if arr.ndim != 2:
        return check_1d(name, values, numeric=numeric, label=label)
    if arr.size == 0:
        raise ValueError(f"{what} must not be empty; got an array of shape {arr.shape}.")
    columns = [
        check_1d(name, arr[:, j], numeric=numeric, label=f"{what} (column {j})")
        for j in range(arr.shape[1])
    ]
    return np.column_stack(columns)


def check_probabilities(name: str, values: Any, *, allow_nan: bool = False) -> np.ndarray:
    """A 1-D array of probabilities (p-values, levels): real numbers in [0, 1], NaN
    kept where ``allow_nan`` (a value that could not be computed)."""
    arr = check_real_array(name, values)
    if arr.ndim != 1:
        raise ValueError(
            f"`{name}` must be a 1-D array of numbers in [0, 1]; got {describe(values)}."
        )
    bad = ~((arr >= 0) & (arr <= 1)) & ~(np.isnan(arr) if allow_nan else False)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        allowed = " (or NaN)" if allow_nan else ""
        raise ValueError(
            f"`{name}` must hold numbers in [0, 1]{allowed}; got {arr[i].item()!r} at position {i}."
        )
    return arr


def check_instance(
    name: str, value: Any, types: type | tuple[type, ...], expected: str | None = None
) -> Any:
    """``value`` is an instance of ``types`` (described as ``expected``, by default "a
    ScoreCurve" from the class names): the check of an argument that must be one of
    the package's objects, so that a plain array given where a curve is expected is
    named, not met later by an AttributeError."""
    if not isinstance(value, types):
        classes = types if isinstance(types, tuple) else (types,)
        wanted = expected or " or ".join(f"a {c.__name__}" for c in classes)
        raise TypeError(f"`{name}` must be {wanted}; got {describe(value)}.")
    return value
