"""docs/method.md is the package's mathematical contract, cited as docs/method.md#<anchor>.

Two checks keep the citations honest:

1. every ``docs/method.md#<anchor>`` cited anywhere in the repository (code, tests,
   benchmarks, docs, vignettes, README) is an anchor that docs/method.md defines, and
   each anchor works both in the Sphinx site and on GitHub: a MyST target line
   ``(<anchor>)=`` directly above a heading whose GitHub slug is ``<anchor>``;
2. no file outside ``docs/`` cites the project specification's file, which is not in the
   repository (the package's code, docs and tests must stand on their own).
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
METHOD = ROOT / "docs" / "method.md"

#: The anchors fixed project-wide (code and tests cite them): they must stay defined.
REQUIRED = (
    "parametrization",
    "outperformance-score",
    "uniform-reference",
    "dbt-reference",
    "auc-rules",
    "operating-points",
    "empirical-curves",
    "other-references",
    "intervals",
    "multi-label",
    "published-values",
    "departures-from-the-paper",
    "inputs-and-limits",
)

#: The specification's file name, spelled in two pieces so that this file does not
#: mention it itself.
SPEC_NAME = "METHOD" + ".md"

#: Folders that are not source: version control, caches, and what the builds write
#: (the docs' .gitignore: _build, api, the vignettes' mirror, jupyter_execute).
_SKIP_DIRS = {".git", "__pycache__", ".hypothesis", ".ci-venv", "build", "dist"}
_SKIP_PATHS = ("docs/_build", "docs/api", "docs/vignettes", "docs/jupyter_execute")
_TEXT_SUFFIXES = {
    ".py",
    ".md",
    ".rst",
    ".txt",
    ".toml",
    ".cfg",
    ".cff",
    ".R",
    ".yml",
    ".yaml",
    ".ipynb",
    ".json",
    ".csv",
    ".in",
}

CITATION = re.compile(r"docs/method\.md#([A-Za-z0-9_-]+)")
# Inside docs/, pages link to the method page relatively: [text](method.md#anchor)
RELATIVE = re.compile(r"\]\((?:\./)?method\.md#([A-Za-z0-9_-]+)\)")
TARGET = re.compile(r"^\(([A-Za-z0-9_-]+)\)=\s*$")


def github_slug(title: str) -> str:
    """The anchor GitHub gives a Markdown heading (github-slugger): lower case,
    punctuation other than '-' and '_' removed, spaces made '-'."""
    return re.sub(r"[^\w\- ]", "", title.strip().lower()).replace(" ", "-")


def method_anchors() -> dict[str, str]:
    """anchor -> the heading below its MyST target line in docs/method.md."""
    lines = METHOD.read_text(encoding="utf-8").splitlines()
    anchors = {}
    for i, line in enumerate(lines):
        m = TARGET.match(line)
        if m:
            nxt = next((x for x in lines[i + 1 :] if x.strip()), "")
            anchors[m.group(1)] = nxt
    return anchors


def repository_files() -> list[Path]:
    out = []
    for path in ROOT.rglob("*"):
        rel = path.relative_to(ROOT)
        if (
            not path.is_file()
            or path.suffix not in _TEXT_SUFFIXES
            or _SKIP_DIRS.intersection(rel.parts)
            or any(p.endswith(".egg-info") for p in rel.parts)
            or any(rel.as_posix().startswith(s + "/") for s in _SKIP_PATHS)
        ):
            continue
        out.append(path)
    return sorted(out)


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return ""


def test_required_anchors_are_defined_and_work_on_github():
    anchors = method_anchors()
    missing = [a for a in REQUIRED if a not in anchors]
    assert not missing, f"docs/method.md does not define {missing}"
    bad = []
    for anchor, heading in anchors.items():
        if not re.match(r"^#{1,6} ", heading):
            bad.append(f"({anchor})= is not directly above a heading: {heading!r}")
        elif github_slug(heading.lstrip("#")) != anchor:
            bad.append(
                f"({anchor})= is above {heading!r}, whose GitHub anchor is "
                f"#{github_slug(heading.lstrip('#'))}"
            )
    assert not bad, "\n".join(bad)


def test_headings_have_unique_github_anchors():
    """GitHub numbers repeated slugs (-1, -2): an anchor must be the first of its name."""
    text = METHOD.read_text(encoding="utf-8")
    slugs = [
        github_slug(line.lstrip("#")) for line in text.splitlines() if re.match(r"^#{1,6} ", line)
    ]
    repeated = sorted({s for s in slugs if slugs.count(s) > 1})
    assert not repeated, f"headings with the same GitHub anchor: {repeated}"


def test_every_cited_anchor_is_defined():
    anchors = method_anchors()
    files = repository_files()
    assert ROOT / "README.md" in files and METHOD in files
    undefined = []
    for path in files:
        rel = path.relative_to(ROOT).as_posix()
        for n, line in enumerate(_read(path).splitlines(), 1):
            found = CITATION.findall(line)
            if rel.startswith("docs/"):
                found += RELATIVE.findall(line)
            undefined += [f"{rel}:{n}: #{a}" for a in found if a not in anchors]
    assert not undefined, (
        "citations of docs/method.md anchors that it does not define "
        f"(defined: {sorted(anchors)}):\n" + "\n".join(undefined)
    )


def test_no_citation_of_the_specification_outside_docs():
    offenders = []
    for path in repository_files():
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith("docs/"):
            continue
        hits = [
            f"{rel}:{n}: {line.strip()}"
            for n, line in enumerate(_read(path).splitlines(), 1)
            if SPEC_NAME in line
        ]
        offenders.extend(hits)
    assert not offenders, (
        f"{SPEC_NAME} is not in the repository; cite "
        "docs/method.md#<anchor> instead:\n" + "\n".join(offenders)
    )


def test_no_control_characters_in_the_docs():
    """A Python string written without r"" turns \\a, \\b, \\r of LaTeX into control
    characters (it happened to \\alpha, \\beta and \\rho on the method page)."""
    root = Path(__file__).resolve().parents[1]
    files = [root / "README.md", *root.glob("docs/*.md"), *root.glob("vignettes/*.md")]
    bad = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\r]")
    found = [
        f"{f.name}:{i}"
        for f in files
        for i, line in enumerate(f.read_text().split("\n"), 1)
        if bad.search(line)
    ]
    assert not found, found
