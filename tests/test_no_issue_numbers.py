"""No code, docstring, test, study or document names an issue number of the tracker: it
names what the thing is ("the fuzz cases of the thresholds", not the number of the issue
that asked for them). The tracker's numbers mean nothing to a reader of the package, and
they go stale."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORD = "iss" + "ue"  # built here, so that this file does not match itself
#: the word, then a number: with a space, a hyphen, an underscore or a hash between
PATTERN = re.compile(WORD + r"[ _-]?#?\d", re.IGNORECASE)
FOLDERS = ("opsstats", "tests", "benchmarks", "scripts", "docs", "vignettes")
SUFFIXES = {".py", ".md", ".txt", ".R", ".toml", ".cfg", ".rst", ".ipynb", ".yml", ".yaml"}


def _ignored(paths):
    """The paths git ignores (build outputs such as the docs' copy of the vignettes)."""
    try:
        done = subprocess.run(
            ["git", "check-ignore", "--stdin"],
            input="\n".join(str(p) for p in paths),
            capture_output=True,
            text=True,
            cwd=ROOT,
            check=False,
        )
    except OSError:  # no git: every file is checked
        return set()
    return {Path(line) for line in done.stdout.splitlines()}


def _files():
    for folder in FOLDERS:
        paths = [
            path
            for path in sorted((ROOT / folder).rglob("*"))
            if path.suffix in SUFFIXES and "_build" not in path.parts and path.is_file()
        ]
        ignored = _ignored(paths)
        yield from (path for path in paths if path not in ignored)
    for name in ("README.md", "CONTRIBUTING.md", "pyproject.toml"):
        yield ROOT / name


def test_no_file_names_an_issue_number():
    found = [
        f"{path.relative_to(ROOT)}:{i}: {line.strip()[:80]}"
        for path in _files()
        for i, line in enumerate(path.read_text(errors="replace").splitlines(), 1)
        if PATTERN.search(line)
    ]
    assert found == []


def test_the_check_can_fail():
    for text in (f"the fuzz cases of {WORD} 17", f"{WORD.title()} #5: every", f"{WORD}-19 a"):
        assert PATTERN.search(text), text
    assert not PATTERN.search(f"an {WORD} with the data")
