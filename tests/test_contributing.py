"""The recipes of CONTRIBUTING.md run: each Python block under a "Recipe" heading is
executed in a fresh namespace, and its own assertions check its numbers against
independent values."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

GUIDE = Path(__file__).resolve().parents[1] / "CONTRIBUTING.md"


def _recipes() -> dict[str, str]:
    text = GUIDE.read_text()
    sections = re.split(r"^## ", text, flags=re.M)
    out = {}
    for section in sections:
        title = section.splitlines()[0] if section else ""
        if title.startswith("Recipe"):
            blocks = re.findall(r"```python\n(.*?)```", section, flags=re.S)
            out[title] = "\n".join(blocks)
    return out


def test_three_recipes():
    titles = list(_recipes())
    assert len(titles) == 3 and all(_recipes()[t].strip() for t in titles), titles


@pytest.mark.parametrize("title", list(_recipes()))
def test_recipe_runs(title):
    code = _recipes()[title]
    exec(compile(code, f"CONTRIBUTING.md ({title})", "exec"), {"__name__": "recipe"})
