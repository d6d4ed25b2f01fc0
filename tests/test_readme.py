"""The README's Python examples run as written, and print what their comments say."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt

README = Path(__file__).resolve().parents[1] / "README.md"


def _python_blocks() -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", README.read_text(encoding="utf-8"), re.S | re.M)


def test_readme_python_blocks_run():
    blocks = _python_blocks()
    assert len(blocks) >= 2
    namespace: dict = {"__name__": "__main__"}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        for block in blocks:
            exec(compile(block, str(README), "exec"), namespace)
    plt.close("all")
    printed = out.getvalue()
    # the printed result a comment quotes (up to its "..."), and the promises of the text
    words = " ".join(printed.split())  # printed lines are wrapped at the terminal's width
    for quoted in re.findall(r"^# (OPS\(.*?)\.\.\.\)$", "\n".join(blocks), re.M):
        assert quoted in words, quoted
    table = namespace["table"]
    assert all(callable(getattr(table, m)) for m in ("summary", "to_frame", "plot"))
    assert "month" in printed and "Counts month=feb" in printed
    assert max(map(len, printed.splitlines())) <= 100
