"""A printable summary: one table plus notes, as text, HTML or a DataFrame.

Numbers are kept at full precision in the table; they are rounded only when printed
(``digits``).
"""

from __future__ import annotations

import functools
import html
import re
import textwrap
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ._lazy import lazy_module
from ._validation import check_digits

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = lazy_module("pandas")

#: Printed text fits this many columns: a wider table is printed in blocks of columns
#: (pandas' ``line_width``), titles and notes are wrapped.
TEXT_WIDTH = 100


def wrap_line(text: str) -> str:
    """One line of text wrapped at ``TEXT_WIDTH`` columns, continued lines indented
    by four spaces (words are not broken: a longer word stays whole).

    Examples
    --------
    >>> print(wrap_line("word " * 30))  # doctest: +NORMALIZE_WHITESPACE
    word word word word word word word word word word word word word word word word word word word
        word word word word word word word word word word word
    """
    return "\n".join(
        textwrap.wrap(
            text,
            TEXT_WIDTH,
            subsequent_indent="    ",
            break_long_words=False,
            break_on_hyphens=False,
        )
    )


__all__ = ["Summary", "whole_frame", "format_unit", "printable", "unit_decimals"]

#: The most decimals :func:`unit_decimals` asks for (float64 resolves about 16).
MAX_DECIMALS = 15


def unit_decimals(values: Any, digits: int) -> int:
    """The decimals to print numbers of [0, 1] with, together (an estimate and its
    interval's ends): ``digits``, or more where one of them lies within
    ``10 ** -(digits - 1)`` (at most 0.1) of 0 or 1 without being 0 or 1, so that it
    shows two significant digits of its distance to that end.

    The rule for every OPS (and every value of [0, 1]) the package prints: an OPS of a
    good model is 0.998, models differ in the fourth decimal, and at 3 decimals 0.99962
    and an interval 0.99931-0.99987 would print as ``1.000 (1.000-1.000)``, an interval
    of no width at a value the model does not reach. 0 and 1 themselves, and values
    outside (0, 1), keep ``digits``; at most ``MAX_DECIMALS``.

    Examples
    --------
    >>> unit_decimals([0.95, 0.93, 0.97], 3), unit_decimals([0.9983], 3)
    (3, 4)
    >>> unit_decimals([0.99962, 0.99931, 0.99987], 3), unit_decimals([1.0, 0.98], 3)
    (5, 3)
    """
    k = digits
    near = min(0.1, 10.0 ** -(digits - 1))
    for v in np.ravel(np.asarray(values, dtype=float)):
        if 0.0 < v < 1.0:
            gap = min(v, 1.0 - v)
            if gap < near:
                k = max(k, min(MAX_DECIMALS, int(np.floor(-np.log10(gap))) + 2))
    return k


def format_unit(values: Any, digits: int) -> list[str]:
    """Numbers of [0, 1] as text with the decimals of :func:`unit_decimals`, all alike
    (NaN as ``nan``).

    Examples
    --------
    >>> format_unit([0.99962, 0.99931, 0.99987], 3)
    ['0.99962', '0.99931', '0.99987']
    >>> format_unit([0.9927, 0.9983], 4)
    ['0.9927', '0.9983']
    """
    k = unit_decimals(values, digits)
    return [f"{float(v):.{k}f}" for v in np.ravel(np.asarray(values, dtype=float))]


def whole_frame(*args: Any, **kwargs: Any) -> pd.DataFrame:
    """A DataFrame (``pd.DataFrame(*args, **kwargs)``) that prints every one of its
    columns, in blocks of columns at most ``TEXT_WIDTH`` wide, as R prints a data.frame,
    where pandas would print ``...`` for the columns that do not fit a terminal: for the
    small tables a user prints whole (the best threshold's row). Anything derived from it
    (a selection, a copy) is a plain DataFrame again. Its class, ``WholeFrame`` of this
    module, is made on first use, so that importing the package does not import pandas.

    Examples
    --------
    >>> wide = whole_frame({f"column_{i}": [0.5] for i in range(12)})
    >>> with pd.option_context("display.max_columns", 4):
    ...     "..." in repr(wide), "..." in repr(pd.DataFrame(wide))
    (False, True)
    """
    return _whole_frame_class()(*args, **kwargs)


@functools.cache
def _whole_frame_class() -> type[pd.DataFrame]:
    """The class of :func:`whole_frame`, made once, named as a class of this module
    (``opsstats._summary.WholeFrame``, which :func:`__getattr__` finds: it pickles)."""

    class WholeFrame(pd.DataFrame):
        def __repr__(self) -> str:
            return self.to_string(line_width=TEXT_WIDTH)

    WholeFrame.__qualname__ = "WholeFrame"
    return WholeFrame


def __getattr__(name: str) -> Any:
    if name == "WholeFrame":  # the class of whole_frame, made (and pandas imported) now
        return _whole_frame_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: Characters that would move the cursor, end a line, or change how a terminal shows what
#: follows: the C0 and C1 controls (newline, carriage return, tab, escape, ...), DEL, the
#: Unicode line and paragraph separators and the bidirectional formatting controls; and
#: lone surrogates (undecodable bytes of a file name), which no encoder can write.
_CONTROL = re.compile(
    "[\x00-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(match: re.Match[str]) -> str:
    ch = match.group()
    if ch in _NAMED:
        return _NAMED[ch]
    return f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else f"\\u{ord(ch):04x}"


def printable(text: str) -> str:
    r"""``text`` with every control character written as a visible escape (``\n``,
    ``\r``, ``\t``, ``\x1b``, ``\u2028``, ...), so that a value read from a file (a group
    name, a column name) can neither start a new line of a printed report nor send
    commands to a terminal.

    Examples
    --------
    >>> print(printable("north\nCounts TP=0\x1b[2J"))
    north\nCounts TP=0\x1b[2J
    """
    return _CONTROL.sub(_escape, text)


def _printable_label(value: Any) -> Any:
    return printable(value) if isinstance(value, str) else value


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
        if abs(v) >= 10**digits or abs(v) < 1e-3:
            return f"{v:.{digits}g}"
        return format_unit([v], digits)[0]  # 0.99983 as 0.99983, not 1.0000
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
        """The cells as text, and the row and column labels, with control characters
        escaped (:func:`printable`): the title and notes are escaped where printed."""
        d = self.digits if digits is None else check_digits(digits)
        table = self.table.apply(lambda col: col.map(lambda v: printable(_fmt(v, d))))
        table = table.rename(index=_printable_label, columns=_printable_label)
        if table.index.nlevels > 1:
            table.index = table.index.set_names([_printable_label(n) for n in table.index.names])
        else:
            table.index = table.index.rename(_printable_label(table.index.name))
        return table

    def as_text(self, digits: int | None = None) -> str:
        """Plain text for a terminal, at most ``TEXT_WIDTH`` (100) columns: a wider
        table is printed in blocks of columns (pandas' ``line_width``), the title and the
        notes are wrapped (continued lines indented by four spaces). Control characters in
        any text are escaped."""
        body = self._formatted(digits).to_string(line_width=TEXT_WIDTH)
        title = textwrap.wrap(printable(self.title), TEXT_WIDTH) or [""]
        lines = [*title, *body.splitlines()]
        rule = min(TEXT_WIDTH, max(len(line) for line in lines))
        lines = [*title, "=" * rule, body]
        if self.notes:
            lines.append("-" * rule)
            for note in self.notes:
                lines.extend(textwrap.wrap(printable(note), TEXT_WIDTH, subsequent_indent="    "))
        return "\n".join(lines)

    def as_html(self, digits: int | None = None) -> str:
        """An HTML fragment for notebooks; text is HTML-escaped and its control
        characters written as visible escapes."""
        table = self._formatted(digits).to_html(escape=True, border=0)
        notes = "".join(f"<li>{html.escape(printable(n))}</li>" for n in self.notes)
        notes_html = f"<ul>{notes}</ul>" if notes else ""
        title = html.escape(printable(self.title))
        return f"<div><strong>{title}</strong>{table}{notes_html}</div>"

    def __str__(self) -> str:
        return self.as_text()

    def __repr__(self) -> str:
        return self.as_text()

    def _repr_html_(self) -> str:
        return self.as_html()
