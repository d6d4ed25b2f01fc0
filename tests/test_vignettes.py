"""Every vignette runs: ``vignettes/*.md`` executed cell by cell, without Jupyter.

A vignette is a MyST Markdown notebook (Jupytext's ``myst`` format). Its python
``{code-cell}`` blocks are executed in order in one namespace per vignette, as a kernel
would run them, in a temporary working directory with matplotlib's Agg backend. A cell's
last expression is displayed as a notebook would display it (``repr`` and, where the
object has one, ``_repr_html_``), so that a broken rich display fails here too. A cell
tagged ``raises-exception`` must raise; any other cell must not. A failure names the
vignette and the cell number (1-based, counting code cells only) and its first line.

The docs build (``sphinx-build -W``, MyST-NB) runs the same files in a Jupyter kernel;
this test keeps them from rotting in the ordinary test run, which has no kernel.
"""

from __future__ import annotations

import ast
import os
import re
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

VIGNETTES_DIR = Path(__file__).resolve().parent.parent / "vignettes"
VIGNETTES = sorted(VIGNETTES_DIR.glob("*.md"))

# ```{code-cell} ipython3   (3 or more backticks or colons; the language is optional)
_FENCE = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|:{3,})\{code-cell\}\s*(?P<lang>\S*)\s*$")
_PYTHON = {"", "python", "python3", "ipython", "ipython3"}


@dataclass(frozen=True)
class Cell:
    number: int  # 1-based among the vignette's code cells
    line: int  # line of the opening fence in the file (1-based)
    source: str
    tags: tuple[str, ...]
    language: str


def _tag_list(text: str) -> list[str]:
    return [t.strip().strip("'\"") for t in text.strip().strip("[]").split(",") if t.strip()]


def _options(body: list[str]) -> tuple[dict[str, object], list[str]]:
    """Split a directive body into its options and its content.

    MyST allows options either as a YAML block between ``---`` lines or as
    ``:key: value`` lines at the top of the body. Only ``tags`` matters here; it is read
    in the two forms MyST and Jupytext write (``tags: [a, b]`` and a ``- a`` list), so
    that the test needs no YAML parser.
    """
    opts: dict[str, object] = {}
    if body and body[0].strip() == "---":
        try:
            end = next(i for i in range(1, len(body)) if body[i].strip() == "---")
        except StopIteration:
            raise ValueError("an options block opened with --- is never closed") from None
        block, rest = body[1:end], body[end + 1 :]
        for k, line in enumerate(block):
            m = re.match(r"^(\w[\w-]*):\s*(.*)$", line)
            if not m:
                continue
            value = m.group(2)
            if m.group(1) == "tags" and not value:  # a YAML list on the next lines
                items = []
                for item in block[k + 1 :]:
                    if not (im := re.match(r"^\s*-\s*(.+)$", item)):
                        break
                    items.append(im.group(1))
                value = "[" + ", ".join(items) + "]"
            opts[m.group(1)] = value
        body = rest
    else:
        i = 0
        while i < len(body) and (m := re.match(r"^:(\w[\w-]*):\s*(.*)$", body[i])):
            opts[m.group(1)] = m.group(2)
            i += 1
        body = body[i:]
    if "tags" in opts:
        opts["tags"] = _tag_list(str(opts["tags"]))
    return opts, body


def parse_cells(text: str) -> list[Cell]:
    """The ``{code-cell}`` blocks of a MyST Markdown notebook, in order."""
    lines = text.splitlines()
    cells: list[Cell] = []
    i = 0
    # skip the front matter (YAML between the first two --- lines)
    if lines and lines[0].strip() == "---":
        i = next((k + 1 for k in range(1, len(lines)) if lines[k].strip() == "---"), len(lines))
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, start = m.group("fence"), i
        close = re.compile(rf"^ {{0,3}}{re.escape(fence[0])}{{{len(fence)},}}\s*$")
        j = i + 1
        while j < len(lines) and not close.match(lines[j]):
            j += 1
        if j == len(lines):
            raise ValueError(f"line {start + 1}: the code cell opened here is never closed")
        opts, body = _options(lines[i + 1 : j])
        tags = opts.get("tags") or ()
        cells.append(
            Cell(
                number=len(cells) + 1,
                line=start + 1,
                source=textwrap.dedent("\n".join(body)),
                tags=tuple(str(t) for t in tags),
                language=m.group("lang"),
            )
        )
        i = j + 1
    return cells


def _python_source(cell: Cell) -> str:
    """The cell as plain Python: IPython line magics (``%...``) and shell escapes
    (``!...``) are dropped, as they only tune the kernel; cell magics are refused."""
    if cell.source.lstrip().startswith("%%"):
        raise ValueError(
            "cell magics (%%...) cannot be run without a kernel; write the cell in plain Python"
        )
    return "\n".join(
        line for line in cell.source.splitlines() if not line.lstrip().startswith(("%", "!"))
    )


def _display(value: object) -> None:
    """What a notebook does with a cell's last value."""
    if value is None:
        return
    repr(value)
    html = getattr(value, "_repr_html_", None)
    if callable(html) and not isinstance(value, type):
        html()


def run_cell(source: str, namespace: dict, filename: str) -> None:
    """Execute a cell in ``namespace``, displaying its last expression."""
    tree = ast.parse(source, filename=filename)
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
    exec(compile(tree, filename, "exec"), namespace)
    if last is not None:
        _display(eval(compile(last, filename, "eval"), namespace))


class VignetteError(AssertionError):
    """A vignette cell failed, or a ``raises-exception`` cell did not raise."""


def run_vignette(path: Path, workdir: Path) -> int:
    """Run every python code cell of ``path`` in ``workdir``; return how many ran."""
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    cells = [c for c in parse_cells(path.read_text(encoding="utf-8")) if c.language in _PYTHON]
    namespace: dict = {
        "__name__": "__main__",
        "display": lambda *objs, **kw: [_display(o) for o in objs],
    }
    old = os.getcwd()
    os.chdir(workdir)
    try:
        for cell in cells:
            where = (
                f"{path.name}, code cell {cell.number} (line {cell.line}: "
                f"{cell.source.strip().splitlines()[0] if cell.source.strip() else ''})"
            )
            try:
                run_cell(_python_source(cell), namespace, f"<{path.name} cell {cell.number}>")
            except Exception as exc:
                if "raises-exception" in cell.tags:
                    continue
                raise VignetteError(f"{where} raised {type(exc).__name__}: {exc}") from exc
            if "raises-exception" in cell.tags:
                raise VignetteError(f"{where} is tagged raises-exception but raised nothing")
    finally:
        os.chdir(old)
        plt.close("all")
    return len(cells)


# --------------------------------------------------------------------------- tests
def test_vignettes_are_found():
    """The parametrized test below would be skipped, not failed, with no vignettes."""
    assert VIGNETTES, f"no vignettes (*.md) found in {VIGNETTES_DIR}"


@pytest.mark.parametrize("path", VIGNETTES, ids=[p.stem for p in VIGNETTES])
def test_vignette_runs(path: Path, tmp_path: Path):
    n = run_vignette(path, tmp_path)
    assert n > 0, f"{path.name} has no python code cells to run"


# ------------------------------------------------------------ the runner's own tests
_TOY = """---
jupytext:
  text_representation:
    format_name: myst
kernelspec:
  name: python3
---
# Toy

```{code-cell} ipython3
x = 1
```

Text with ```` ``` ```` and a plain block:

```python
raise RuntimeError("not a code cell: never run")
```

````{code-cell} ipython3
---
tags: [hide-input]
---
%matplotlib inline
y = x + 1
open("made-here.txt", "w").write("ok")
y
````

```{code-cell} ipython3
:tags: [raises-exception]
1 / 0
```
"""


def test_parse_cells_reads_fences_options_and_tags():
    cells = parse_cells(_TOY)
    assert [c.number for c in cells] == [1, 2, 3]
    assert [c.line for c in cells] == [10, 20, 30]
    assert cells[0].source == "x = 1"
    assert cells[1].tags == ("hide-input",)
    assert cells[1].source.splitlines()[0] == "%matplotlib inline"
    assert cells[2].tags == ("raises-exception",)
    assert all(c.language == "ipython3" for c in cells)


def test_runner_shares_one_namespace_and_works_in_the_given_folder(tmp_path):
    path = tmp_path / "toy.md"
    path.write_text(_TOY, encoding="utf-8")
    work = tmp_path / "work"
    work.mkdir()
    assert run_vignette(path, work) == 3
    assert (work / "made-here.txt").read_text() == "ok"
    assert Path.cwd() != work


def test_runner_names_the_vignette_and_cell_that_fails(tmp_path):
    path = tmp_path / "broken.md"
    path.write_text(_TOY.replace("y = x + 1", "y = undefined_name + 1"), encoding="utf-8")
    with pytest.raises(
        VignetteError,
        match=r"broken\.md, code cell 2 \(line 20: "
        r"%matplotlib inline\) raised NameError",
    ):
        run_vignette(path, tmp_path)


def test_runner_requires_raises_exception_cells_to_raise(tmp_path):
    path = tmp_path / "calm.md"
    path.write_text(_TOY.replace("1 / 0", "1 / 1"), encoding="utf-8")
    with pytest.raises(
        VignetteError,
        match=r"calm\.md, code cell 3 .* tagged "
        r"raises-exception but raised nothing",
    ):
        run_vignette(path, tmp_path)


def test_runner_displays_the_last_expression():
    class BadHTML:
        def _repr_html_(self):
            raise ValueError("broken rich display")

    with pytest.raises(ValueError, match="broken rich display"):
        run_cell("x = 1\nobj", {"obj": BadHTML()}, "<display>")
    run_cell("obj = None\nobj", {}, "<display>")  # None is not displayed


def test_tags_as_a_yaml_list_and_magics_are_dropped(tmp_path):
    text = (
        "```{code-cell} ipython3\n---\ntags:\n  - raises-exception\n  - hide-output\n"
        "---\n%load_ext autoreload\n!echo hi\nraise KeyError('expected')\n```\n"
    )
    (cell,) = parse_cells(text)
    assert cell.tags == ("raises-exception", "hide-output")
    assert _python_source(cell) == "raise KeyError('expected')"
    path = tmp_path / "tagged.md"
    path.write_text(text, encoding="utf-8")
    assert run_vignette(path, tmp_path) == 1


def test_unclosed_cell_is_an_error():
    with pytest.raises(ValueError, match="line 1: the code cell opened here is never closed"):
        parse_cells("```{code-cell} ipython3\nx = 1\n")
