"""The optional engines of the tests: PySpark and Dask.

The ``test`` extra leaves them out (PySpark alone installs 490 MB); the ``engines``
extra installs them. Where one is missing, its tests are skipped with the reason
printed in the summary (``-rs`` in pytest's options); ``.ci/run`` installs both and sets
``OPSSTATS_REQUIRE_ENGINES=1``, under which a missing engine stops the run
(``tests/conftest.py``), so that CI runs every engine test.
"""

from __future__ import annotations

import importlib.util
import os
from typing import Any

import pytest

#: The module of each optional engine and its name.
OPTIONAL = {"pyspark": "PySpark", "dask": "Dask"}

#: Set by .ci/run: every optional engine must be installed.
REQUIRED = os.environ.get("OPSSTATS_REQUIRE_ENGINES") == "1"


def installed(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def reason(module: str) -> str:
    return (
        f'{OPTIONAL[module]} is not installed: pip install ".[engines]" runs this test '
        "(.ci/run does)"
    )


def missing() -> list[str]:
    """The optional engines not installed."""
    return [m for m in OPTIONAL if not installed(m)]


def needs(module: str) -> pytest.MarkDecorator:
    """Skip the test, saying why, when ``module`` is not installed."""
    return pytest.mark.skipif(not installed(module), reason=reason(module))


def engine_params(names: Any) -> list[Any]:
    """Parameters of a test over engines: Dask's skipped, saying why, when it is not
    installed."""
    return [pytest.param(n, marks=needs("dask")) if n == "dask" else n for n in names]


def dask_frame(df: Any) -> Any:
    """A Dask data frame of ``df`` in three partitions (Dask imported here, on use)."""
    import dask.dataframe as dd

    return dd.from_pandas(df, npartitions=3)
