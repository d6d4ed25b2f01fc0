"""What an install brings: the light ``test`` extra, the ``engines`` extra CI adds, and
the tests of a missing engine skipped with their reason (or refused under CI)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parents[1]


def test_the_test_extra_leaves_the_heavy_engines_to_their_own():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]

    def names(extra):
        return {re.split(r"[\[<>=]", r)[0] for r in extras[extra]}

    assert not names("test") & {"pyspark", "dask"}
    assert names("engines") == {"pyspark", "dask"}
    ci = (ROOT / ".ci" / "run").read_text()
    readme = (ROOT / "README.md").read_text()
    test_command = 'pip install ".[test]" && python -m pytest -q'
    assert test_command in readme and test_command in ci  # the README's, run by CI
    engines = ci.index('pip install --quiet ".[engines]"')
    assert engines < ci.index("export OPSSTATS_REQUIRE_ENGINES=1") < ci.index(test_command)


def _run_without_engines(env_extra):
    """The engine tests of tests/test_frames.py in a Python where PySpark and Dask
    cannot be imported (as after `pip install ".[test]"`)."""
    code = (
        "import sys; sys.modules['dask'] = None; sys.modules['pyspark'] = None; "
        "import pytest; sys.exit(pytest.main(['-q', '-p', 'no:cacheprovider', "
        "'tests/test_frames.py', '-k', 'dask or spark']))"
    )
    env = {k: v for k, v in os.environ.items() if k != "OPSSTATS_REQUIRE_ENGINES"}
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**env, **env_extra},
        timeout=900,
    )


def test_missing_engines_skip_saying_why_and_ci_refuses_them():
    run = _run_without_engines({})
    assert run.returncode == 0, run.stdout + run.stderr
    summary = run.stdout
    assert re.search(r"\d+ skipped", summary.splitlines()[-1]), summary
    assert "SKIPPED" in summary
    for name in ("PySpark", "Dask"):  # -rs: each reason in the summary
        assert f'{name} is not installed: pip install ".[engines]" runs this test' in summary
    run = _run_without_engines({"OPSSTATS_REQUIRE_ENGINES": "1"})
    assert run.returncode == 4, run.stdout + run.stderr  # pytest's usage error
    assert "OPSSTATS_REQUIRE_ENGINES=1 but not installed: PySpark, Dask" in run.stderr
