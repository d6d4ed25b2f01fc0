"""A printable summary: one table plus notes, as text, HTML or a DataFrame.

Numbers are kept at full precision in the table; they are rounded only when printed
(``digits``).
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ._validation import check_digits

__all__ = ["Summary"]


def _fmt(value: object, digits: int) -> str:
    if isinstance(value, bool | np.bool_):
        return str(bool(value))
    if isinstance(value, int | np.integer):
        return f"{int(value):d}"
    if isinstance(value, float | np.floating):
        v = float(value)
        if np.isnan(v):
            return "NaN"
        if np.isinf(v):
            return "Inf" if v > 0 else "-Inf"
        return f"{v:.{digits}g}" if abs(v) >= 10**digits or abs(v) < 1e-3 else f"{v:.{digits}f}"
    return str(value)


@dataclass(frozen=True)
class Summary:
    """A titled table with notes that renders as text, HTML and a DataFrame.

    Parameters
    ----------
    title : str
    table : pandas.DataFrame
    notes : tuple of str
        Lines printed under the table: how each number was made.
    digits : int
        Digits after the decimal point when printed, 0 to 17.
    """

    title: str
    table: pd.DataFrame
    notes: tuple[str, ...] = field(default=())
    digits: int = 4

    def __post_init__(self) -> None:
        check_digits(self.digits)

    def to_frame(self) -> pd.DataFrame:
        """The table at full precision (a copy)."""
        return self.table.copy()

    def _formatted(self, digits: int | None) -> pd.DataFrame:
        d = self.digits if digits is None else check_digits(digits)
        return self.table.apply(lambda col: col.map(lambda v: _fmt(v, d)))

    def as_text(self, digits: int | None = None) -> str:
        """Plain text for a terminal."""
        body = self._formatted(digits).to_string()
        width = max(len(line) for line in body.splitlines()) if body else len(self.title)
        lines = [self.title, "=" * max(width, len(self.title)), body]
        if self.notes:
            lines.append("-" * max(width, len(self.title)))
            lines.extend(self.notes)
        return "\n".join(lines)

    def as_html(self, digits: int | None = None) -> str:
        """An HTML fragment for notebooks."""
        table = self._formatted(digits).to_html(escape=True, border=0)
        notes = "".join(f"<li>{html.escape(n)}</li>" for n in self.notes)
        notes_html = f"<ul>{notes}</ul>" if notes else ""
        return f"<div><strong>{html.escape(self.title)}</strong>{table}{notes_html}</div>"

    def __str__(self) -> str:
        return self.as_text()

    def __repr__(self) -> str:
        return self.as_text()

    def _repr_html_(self) -> str:
        return self.as_html()
