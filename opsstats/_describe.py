"""How a received value is described in an error message (the one form every message of
:mod:`opsstats._validation` uses): scalars and short strings by their repr, arrays, data
frames and other sized objects by their type, shape and dtype, never by their content."""

from __future__ import annotations

import itertools
import math
import numbers
from typing import TYPE_CHECKING, Any

import numpy as np

from ._lazy import lazy_module

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = lazy_module("pandas")  # the doctests' frames

__all__ = ["describe", "format_bytes"]

_SCALAR_REPR = 60  # characters of a repr shown in a message


def format_bytes(n: float) -> str:
    """A byte count for messages: ``"512 B"``, ``"3.1 MiB"``, ``"22 GiB"``."""
    for unit, size in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= size:
            value = n / size
            return f"{value:.2g} {unit}" if value < 10 else f"{value:,.0f} {unit}"
    return f"{n:.0f} B"


def _short(text: str) -> str:
    return text if len(text) <= _SCALAR_REPR else text[: _SCALAR_REPR - 3] + "..."


def _type_name(value: Any) -> str:
    t = type(value)
    module = t.__module__.split(".")[0]
    if module in ("builtins", "numpy", "opsstats"):
        return t.__name__
    return f"{module} {t.__name__}"


def describe(value: Any) -> str:
    """A short, readable description of a received value for error messages.

    Scalars and short strings are shown as their repr; arrays, data frames and other
    sized objects by their type, shape (or length) and dtype, never by their content, so
    that a message about a 200,000-row frame stays one line.

    Examples
    --------
    >>> describe(1.5), describe("abc"), describe(None)
    ('1.5', "'abc'", 'None')
    >>> describe(np.zeros((3, 2)))
    'an array of shape (3, 2) and dtype float64'
    >>> describe(pd.DataFrame({"a": range(200_000)}))
    'a pandas DataFrame of shape (200000, 1)'
    >>> describe(list(range(1000)))
    'a list of 1000 items'
    >>> describe(2**1030)
    'an integer of 311 digits'
    """
    if value is None or isinstance(value, bool | np.bool_):
        return repr(bool(value)) if value is not None else "None"
    if isinstance(value, np.generic) and not isinstance(value, np.void):
        value = value.item()  # np.float64(0.5) is shown as 0.5, np.str_('a') as 'a'
    if isinstance(value, numbers.Integral):
        bits = int(value).bit_length()
        if bits <= 64:
            return repr(value)
        digits = len(str(abs(int(value)))) if bits < 4000 else int(bits * math.log10(2)) + 1
        return f"an integer of {digits} digits"
    if isinstance(value, numbers.Number):
        return _short(repr(value))
    if isinstance(value, str | bytes):
        return _short(repr(value))
    if isinstance(value, np.ndarray):
        return f"an array of shape {value.shape} and dtype {value.dtype}"
    shape = getattr(value, "shape", None)
    if isinstance(shape, tuple) and not callable(shape):
        dtype = getattr(value, "dtype", None)
        suffix = f" and dtype {dtype}" if dtype is not None and not callable(dtype) else ""
        return f"a {_type_name(value)} of shape {shape}{suffix}"
    if isinstance(value, list | tuple | set | frozenset | dict):
        items = list(itertools.islice(value.items() if isinstance(value, dict) else value, 9))
        flat = [x for item in items for x in (item if isinstance(value, dict) else (item,))]
        if len(value) <= 8 and all(
            x is None or isinstance(x, numbers.Number | str | bytes) for x in flat
        ):
            text = repr(value)
            if len(text) <= _SCALAR_REPR:
                return text
        return f"a {type(value).__name__} of {len(value)} items"
    if hasattr(value, "__len__") and not isinstance(value, type):
        try:
            return f"a {_type_name(value)} of length {len(value)}"
        except TypeError:
            pass
    if type(value).__module__.split(".")[0] in ("builtins", "opsstats"):
        return _short(repr(value))
    return f"a {_type_name(value)} object"
