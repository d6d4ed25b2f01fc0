"""The committed study outputs are what their scripts render from the committed rows:
re-rendering each CSV under benchmarks/results/ gives its Markdown byte for byte. This
keeps refactoring of the study scripts honest (a change that alters a rendered table
fails here) and the Markdown from drifting away from its data."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"

#: coverage_cm.md carries one hand-written note (which commits made the rows, which
#: script rendered them) that the CSV does not hold; it is the only allowed difference.
_PROVENANCE = re.compile(
    r" \(run with the script as of commit [0-9a-f]+ against the package "
    r"at commit [0-9a-f]+; rendered by the current script\)"
)


@pytest.mark.parametrize(
    "script, name",
    [
        ("coverage.py", "coverage_cm"),
        ("coverage.py", "coverage_curve"),
        ("coverage.py", "coverage_curve_replication"),
        ("coverage_shapes.py", "coverage_shapes"),
        ("compare_size.py", "compare_size"),
        ("prevalence_drift.py", "prevalence_drift"),
        ("classifier_change_study.py", "classifier_change"),
        ("coverage_decomposition.py", "coverage_decomposition"),
    ],
)
def test_rendering_the_committed_rows_gives_the_committed_markdown(tmp_path, script, name):
    out = tmp_path / f"{name}.md"
    subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / script),
            "--render",
            str(RESULTS / f"{name}.csv"),
            "--md",
            str(out),
        ],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    committed = (RESULTS / f"{name}.md").read_text()
    if name == "coverage_cm":
        assert len(_PROVENANCE.findall(committed)) == 1
        committed = _PROVENANCE.sub("", committed)
    assert out.read_text() == committed


def test_method_md_copies_the_drift_tables():
    """docs/method.md#prevalence-invariance shows the committed drift tables: every row
    of their three tables is a line of the page."""
    drift = (RESULTS / "prevalence_drift.md").read_text().split("\n## ")[1:4]
    method = (ROOT / "docs" / "method.md").read_text().splitlines()
    rows = [line for block in drift for line in block.splitlines() if line.startswith("| ")]
    assert len(rows) == 3 + 7 + 7 + 2
    assert all(row in method for row in rows)
