"""Fixtures shared by the test modules, and the check that CI has every engine."""

from __future__ import annotations

import engines
import pytest


def pytest_configure(config):
    """Under ``OPSSTATS_REQUIRE_ENGINES=1`` (.ci/run) a missing optional engine stops the
    run instead of skipping its tests (tests/engines.py)."""
    if engines.REQUIRED and engines.missing():
        raise pytest.UsageError(
            "OPSSTATS_REQUIRE_ENGINES=1 but not installed: "
            + ", ".join(engines.OPTIONAL[m] for m in engines.missing())
            + ' (pip install ".[test,engines]")'
        )


@pytest.fixture(scope="session")
def spark():
    """One local PySpark session (``local[2]``) for every test that needs one: starting
    one takes about ten seconds. Skipped, saying why, without PySpark."""
    pytest.importorskip("pyspark", reason=engines.reason("pyspark"))
    from pyspark.sql import SparkSession

    session = (
        SparkSession.builder.master("local[2]")
        .appName("opsstats-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()
