"""What ``import opsstats`` and the command's quick answers load, in a fresh process.

``import opsstats``, ``opsstats --help`` and an argument error load numpy and the
package's own modules; the heavy third-party modules (scipy.stats, scipy.sparse, pandas,
narwhals, pyarrow, DuckDB, matplotlib, statsmodels, scikit-learn) are imported when first
needed (``opsstats/_lazy.py``). No timing here: ``benchmarks/bench_first_use.py`` times
them.
"""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import opsstats
from opsstats._lazy import _LazyModule, lazy_module

ROOT = Path(__file__).resolve().parents[1]

#: loaded only when first needed (scipy.special too: with numpy.testing and unittest,
#: which it brings, it takes longer to import than numpy itself)
HEAVY = (
    "scipy.stats",
    "scipy.sparse",
    "scipy.optimize",
    "scipy.special",
    "pandas",
    "pyarrow",
    "narwhals",
    "duckdb",
    "polars",
    "matplotlib",
    "statsmodels",
    "sklearn",
)

#: prints the heavy modules loaded by the code before it (and ``answer``, if it set one)
#: as JSON on the last line
REPORT = (
    "\nimport json, sys\n"
    f"print(json.dumps({{'heavy': sorted(m for m in {HEAVY!r} if m in sys.modules), "
    "'answer': globals().get('answer')}))\n"
)


def _fresh(code: str) -> dict:
    """``heavy``: the heavy modules in ``sys.modules`` after ``code`` runs in a fresh
    interpreter; ``answer``: what ``code`` put in ``answer``."""
    out = subprocess.run(
        [sys.executable, "-c", code + REPORT],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=False,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def _cli(*args: str) -> str:
    """Code that runs ``opsstats ARGS`` as ``python -m opsstats.cli`` does and keeps its
    exit status and the first line it printed (stdout, else stderr) in ``answer``."""
    return (
        "import contextlib, io, runpy, sys\n"
        f"sys.argv = ['opsstats', *{list(args)!r}]\n"
        "out, err = io.StringIO(), io.StringIO()\n"
        "with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):\n"
        "    try:\n"
        "        runpy.run_module('opsstats.cli', run_name='__main__')\n"
        "    except SystemExit as stop:\n"
        "        printed = (out.getvalue() or err.getvalue()).splitlines()\n"
        "        answer = [stop.code, printed[0] if printed else '']\n"
    )


def test_the_check_sees_a_loaded_module():
    """The check can fail: what the code imported is reported."""
    heavy = _fresh("import opsstats, pandas, scipy.stats")["heavy"]
    assert {"pandas", "scipy.stats"} <= set(heavy)


def test_import_opsstats_loads_no_heavy_module():
    assert _fresh("import opsstats")["heavy"] == []


def test_public_names_resolve_without_heavy_modules():
    """Reading the package's public names (as the API pages do) imports nothing heavy."""
    code = (
        "import opsstats, opsstats.curves, opsstats.reference, opsstats.metrics\n"
        "for m in (opsstats, opsstats.curves, opsstats.reference, opsstats.metrics):\n"
        "    [getattr(m, n) for n in m.__all__]\n"
    )
    assert _fresh(code)["heavy"] == []


@pytest.mark.parametrize(
    "args, status, first_line",
    [
        (["--help"], 0, "usage: opsstats"),
        (["report", "--help"], 0, "usage: opsstats report"),
        (["compare", "--help"], 0, "usage: opsstats compare"),
        (["report", "p.csv", "--truth", "y"], 2, "opsstats: error: "),  # no --score/--pred
        (
            ["report", "p.csv", "--truth", "y", "--score", "s", "--confidence-level", "2"],
            2,
            "opsstats: error: ",
        ),
        (["frobnicate"], 2, "opsstats: error: "),
    ],
)
def test_command_line_answers_without_heavy_modules(args, status, first_line):
    """``--help`` and an argument error answer before the heavy layers are imported."""
    out = _fresh(_cli(*args))
    assert out["heavy"] == [], args
    assert out["answer"][0] == status
    assert out["answer"][1].startswith(first_line), out["answer"]


def test_report_of_a_file_loads_only_what_it_uses(tmp_path):
    """The default report of a Parquet file (DuckDB counts it; ROC and PR AUC with
    intervals and OPS, its curves binned beyond --max-distinct) loads DuckDB, narwhals,
    pyarrow, pandas (its table) and scipy.special, and not scipy.stats, whose import
    alone cost several times the DuckDB floor of a million rows
    (benchmarks/results/bench_first_use.md)."""
    path = tmp_path / "scores.parquet"
    code = (
        "import numpy as np, pyarrow as pa, pyarrow.parquet as pq\n"
        "rng = np.random.default_rng(0)\n"
        "y = rng.random(400) < 0.3\n"
        f"pq.write_table(pa.table({{'y': y.astype(np.int8), 's': rng.normal(y, 1.0)}}), {str(path)!r})\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=300)
    out = _fresh(_cli("report", str(path), "--truth", "y", "--score", "s", "--max-distinct", "100"))
    assert out["answer"][0] == 0
    assert out["answer"][1].startswith("Evaluation of"), out["answer"]
    assert out["heavy"] == ["duckdb", "narwhals", "pandas", "pyarrow", "scipy.special"]


def test_lazy_modules_name_real_modules():
    """Every lazily imported module of every opsstats module exists: a misspelt name
    would fail only on first use."""
    names = set()
    for info in pkgutil.walk_packages(opsstats.__path__, "opsstats."):
        if info.name.startswith("opsstats.sklearn") or info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        names |= {v._lazy_name for v in vars(module).values() if isinstance(v, _LazyModule)}
    assert {"pandas", "narwhals", "scipy.stats", "scipy.special"} <= names
    for name in sorted(names):
        assert importlib.import_module(name).__name__ == name


def test_lazy_module_reads_sets_and_deletes_the_module_s_names():
    """The stand-in imports on the first read, and a name set through it (as
    ``monkeypatch.setattr(cli.pd, "read_csv", ...)`` does) is set on the module."""
    proxy = lazy_module("json.tool")  # a module nothing here imports
    was_loaded = "json.tool" in sys.modules
    assert "not imported yet" in repr(proxy)
    assert ("json.tool" in sys.modules) == was_loaded  # repr does not import
    assert proxy.main is importlib.import_module("json.tool").main
    assert "(imported)" in repr(proxy)
    proxy.planted = 42
    assert sys.modules["json.tool"].planted == 42 and proxy.planted == 42
    del proxy.planted
    assert not hasattr(sys.modules["json.tool"], "planted")
    with pytest.raises(AttributeError):
        proxy.no_such_name  # noqa: B018
