"""The layers of docs/architecture.md hold: the import-linter contracts in pyproject.toml
pass, they catch an upward import when one is planted, the one seam (opsstats/_seam.py)
only reaches upwards, and no module imports opsstats code inside a function."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import tomllib

from opsstats import _seam

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "opsstats"


def _lint(root: Path) -> subprocess.CompletedProcess[str]:
    """Run import-linter on the package under ``root`` with the project's contracts."""
    return subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from importlinter.cli import lint_imports; "
            "sys.exit(lint_imports(config_filename='pyproject.toml', no_cache=True))",
        ],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
        env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"},
    )


def _tiers() -> dict[str, int]:
    """Top-level module -> tier number (0 = the highest) from the first contract."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    layers = config["tool"]["importlinter"]["contracts"][0]["layers"]
    return {
        name.strip(): rank for rank, line in enumerate(layers) for name in re.split(r"[:|]", line)
    }


def _top(module: str) -> str:
    return module.split(".")[1]


def test_import_contracts_are_kept():
    result = _lint(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


@pytest.mark.parametrize(
    "module, planted, broken",
    [
        ("confusion.py", "from .uncertainty import confusion", True),  # up a tier
        ("plotting/_axes.py", "from .. import report", True),  # up inside a tier
        ("comparison/draw_tests.py", "from . import paired", True),  # up inside comparison/
        ("curves/_geometry.py", "from .. import confusion", False),  # same tier, allowed
        ("ops.py", "from .reference import uniform", False),  # down, allowed
        ("curves/_curve_areas.py", "from . import score_curve", True),  # a mixin imports its class
        ("curves/_curve_areas.py", "from . import _curve_inference", True),  # or another mixin
    ],
)
def test_contracts_catch_a_planted_upward_import(tmp_path, module, planted, broken):
    """The check can fail: a copy of the package with one more import is linted."""
    shutil.copytree(PACKAGE, tmp_path / "opsstats", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    target = tmp_path / "opsstats" / module
    target.write_text(target.read_text() + f"\n{planted} as _planted  # noqa: E402\n")
    result = _lint(tmp_path)
    assert (result.returncode != 0) == broken, result.stdout + result.stderr


@pytest.mark.parametrize(
    "module, planted",
    [
        ("curves/_partial.py", "from . import _geometry"),  # _geometry imports _partial
        ("curves/score_distribution.py", "from . import score_curve"),  # at run time now
    ],
)
def test_the_acyclic_contract_catches_a_planted_cycle(tmp_path, module, planted):
    """No import cycle anywhere in the package: a cycle that every layers contract allows
    (modules those contracts do not order) is caught by the acyclic contract alone, which
    names the package; with that contract removed, the same copy passes. The one mutual
    import of the package (score_distribution names ScoreCurve for the type checker) is
    not a cycle: ``exclude_type_checking_imports``."""
    shutil.copytree(PACKAGE, tmp_path / "opsstats", ignore=shutil.ignore_patterns("__pycache__"))
    config = (ROOT / "pyproject.toml").read_text()
    assert 'type = "acyclic_siblings"' in config
    assert "exclude_type_checking_imports = true" in config
    target = tmp_path / "opsstats" / module
    target.write_text(target.read_text() + f"\n{planted} as _planted  # noqa: E402\n")
    (tmp_path / "pyproject.toml").write_text(config)
    result = _lint(tmp_path)
    assert result.returncode != 0
    assert "No cycles are allowed in opsstats.curves" in result.stdout, result.stdout
    assert "1 broken" in result.stdout  # the acyclic contract only
    without = re.sub(
        r'\[\[tool\.importlinter\.contracts\]\]\nname = "No import cycle[^\n]*\n'
        r'type = "acyclic_siblings"\nancestors = \["opsstats"\]\n',
        "",
        config,
    )
    assert without != config
    (tmp_path / "pyproject.toml").write_text(without)
    assert _lint(tmp_path).returncode == 0


def test_seam_targets_resolve_and_lie_above_their_callers():
    tiers = _tiers()
    callers: dict[str, set[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        for name in re.findall(r'upcall\("([a-z_]+)"\)', path.read_text()):
            module = "opsstats." + ".".join(path.relative_to(PACKAGE).with_suffix("").parts)
            callers.setdefault(name, set()).add(module)
    assert set(callers) == set(_seam.UPCALLS), "every entry is used, every use has an entry"
    for name, target in _seam.UPCALLS.items():
        assert callable(_seam.upcall(name)), name
        target_tier = tiers[_top(target.partition(":")[0])]
        for caller in callers[name]:
            # a smaller number is a higher tier: the seam only ever reaches upwards
            assert target_tier < tiers[_top(caller)], (name, caller, target)


def _deferred_imports(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for sub in ast.walk(node):
                if isinstance(sub, ast.ImportFrom) and (
                    sub.level > 0 or (sub.module or "").startswith("opsstats")
                ):
                    found.append(f"{path.relative_to(ROOT)}:{sub.lineno}")
    return found


def test_no_deferred_imports_of_opsstats_modules():
    """Imports of the package's own modules sit at the top of each module, so the import
    graph the contracts check is the whole graph; upward calls go through the seam."""
    found = [hit for path in sorted(PACKAGE.rglob("*.py")) for hit in _deferred_imports(path)]
    assert found == []


#: the most lines a module of the package may have (docs/architecture.md: one concept per
#: module; a module that grows past it holds several and is split)
MAX_MODULE_LINES = 800


def _long_modules(package: Path, limit: int) -> list[str]:
    return [
        f"{path.relative_to(package.parent)}: {n} lines"
        for path in sorted(package.rglob("*.py"))
        if (n := len(path.read_text().splitlines())) > limit
    ]


def test_no_module_is_over_800_lines(tmp_path):
    assert _long_modules(PACKAGE, MAX_MODULE_LINES) == []
    # the check sees a long module
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "long.py").write_text("x = 1\n" * (MAX_MODULE_LINES + 1))
    assert _long_modules(tmp_path / "pkg", MAX_MODULE_LINES) == ["pkg/long.py: 801 lines"]
