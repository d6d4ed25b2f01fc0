"""Third-party modules imported when first used, so that ``import opsstats`` stays quick.

``import opsstats`` loads numpy and the package's own modules; scipy (its ``stats``,
``special``, ``sparse``, ``optimize``), pandas and narwhals are imported the first time
one of their attributes is read, matplotlib, DuckDB, pyarrow, statsmodels and
scikit-learn inside the functions that need them. A module that uses one of the first
group names it at its top as usual, with the real import for the type checker::

    from typing import TYPE_CHECKING

    from ._lazy import lazy_module

    if TYPE_CHECKING:
        import pandas as pd
    else:
        pd = lazy_module("pandas")

and then writes ``pd.DataFrame(...)`` as before. What needs no attribute does not
import: an ``isinstance`` test against a pandas class in a path that numpy arrays take
asks first whether pandas is in ``sys.modules`` (an object cannot be a pandas Series if
pandas was never imported). ``tests/test_import.py`` checks in a fresh process that
``import opsstats`` and ``opsstats --help`` load none of these modules;
``benchmarks/bench_first_use.py`` times them.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

__all__ = ["lazy_module"]


class _LazyModule:
    """Stands for the module ``name`` and imports it when an attribute is first read."""

    __slots__ = ("_lazy_module", "_lazy_name")

    def __init__(self, name: str) -> None:
        self._lazy_name = name
        self._lazy_module: ModuleType | None = None

    def _load(self) -> ModuleType:
        module = self._lazy_module
        if module is None:
            module = self._lazy_module = importlib.import_module(self._lazy_name)
        return module

    def __getattr__(self, attr: str) -> Any:
        # called only for names the proxy itself lacks, i.e. every name of the module
        if attr.startswith("_lazy_"):  # a slot not set yet (no __init__, as in a copy)
            raise AttributeError(attr)
        return getattr(self._load(), attr)

    def __setattr__(self, attr: str, value: Any) -> None:
        # the module's names are set on the module (``monkeypatch.setattr(x.pd, ...)``
        # patches pandas, as it did when ``x.pd`` was pandas itself)
        if attr in _LazyModule.__slots__:
            object.__setattr__(self, attr, value)
        else:
            setattr(self._load(), attr, value)

    def __delattr__(self, attr: str) -> None:
        delattr(self._load(), attr)

    def __repr__(self) -> str:
        state = "imported" if self._lazy_module is not None else "not imported yet"
        return f"<module {self._lazy_name!r}, imported on first use ({state})>"


def lazy_module(name: str) -> Any:
    """A stand-in for the module ``name`` that imports it when an attribute is first read.

    Parameters
    ----------
    name : str
        The module's full name, e.g. ``"scipy.stats"``.

    Returns
    -------
    object
        Reading an attribute imports the module (once; later reads look it up in the
        module) and returns the module's attribute; setting or deleting one sets or
        deletes the module's.

    Examples
    --------
    >>> from opsstats._lazy import lazy_module
    >>> fractions = lazy_module("fractions")
    >>> fractions
    <module 'fractions', imported on first use (not imported yet)>
    >>> fractions.Fraction(3, 6)
    Fraction(1, 2)
    >>> fractions
    <module 'fractions', imported on first use (imported)>
    """
    return _LazyModule(name)
