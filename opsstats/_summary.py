"""A printable summary: one table plus notes, as text, HTML or a DataFrame; the one
table printer of every result.

Numbers are kept at full precision in the table; they are rounded only when printed
(``digits``). Printed text follows the terminal's width (:func:`text_width`: ``COLUMNS``,
else the terminal, else 80 columns), a table too wide for it is printed in blocks of
columns, each with the row labels and the footnote key; an interval is printed as one
column (``0.5540-0.5910``).
"""

from __future__ import annotations

import functools
import html
import itertools
import re
import shutil
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

#: Prose (titles, notes, one-line results) wraps at the terminal's width, at most this
#: many columns (longer lines are hard to read); tables use the whole width.
TEXT_WIDTH = 100
#: The width when the output is not a terminal (a file, a pipe, a notebook, the code
#: boxes of the documentation), and the narrowest width used.
DEFAULT_WIDTH, MIN_WIDTH = 80, 40


def text_width() -> int:
    """The columns printed text may use: the terminal's width as
    ``shutil.get_terminal_size`` finds it (the ``COLUMNS`` environment variable
    first, then the terminal of standard output), ``DEFAULT_WIDTH`` (80) when
    there is none, and never below ``MIN_WIDTH`` (40)."""
    return max(MIN_WIDTH, shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns)


def _wrap(text: str, width: int, indent: str) -> list[str]:
    """``text`` as lines of at most ``width`` columns, broken at spaces only (a file
    name, a hyphenated word or a number stays whole, even when longer than the width),
    continued lines indented by ``indent``."""
    return textwrap.wrap(
        text, width, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False
    )


def wrap_line(text: str, width: int | None = None) -> str:
    """One line of text wrapped at ``width`` columns (default the terminal's, at most
    ``TEXT_WIDTH``), continued lines indented by four spaces (words are not broken:
    a longer word stays whole).

    Examples
    --------
    >>> print(wrap_line("word " * 20, width=40))
    word word word word word word word word
        word word word word word word word
        word word word word word
    """
    return "\n".join(_wrap(text, min(text_width(), TEXT_WIDTH) if width is None else width, "    "))


__all__ = [
    "Summary",
    "format_unit",
    "printable",
    "text_width",
    "unit_decimals",
    "whole_frame",
]

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


def _is_unit_formatted(value: object, digits: int) -> bool:
    """Whether :func:`_fmt` writes ``value`` by :func:`format_unit` (a finite float
    neither large nor tiny)."""
    if not isinstance(value, float | np.floating) or isinstance(value, bool | np.bool_):
        return False
    v = float(value)
    return bool(np.isfinite(v)) and 1e-3 <= abs(v) < 10**digits


#: The two ends of an interval, in the columns of a table: ``ci_low`` and ``ci_high``,
#: ``CI low`` and ``CI high``, with the same prefix (``ops_``, ``OPS ``, ...).
_INTERVAL_END = re.compile(r"^(?P<prefix>.*?)(?P<ci>ci|CI)(?P<sep>[_ ])low$")


def interval_pairs(columns: Any) -> list[tuple[Any, Any, str]]:
    """The interval columns of a table: ``(low, high, name)`` for each column ending
    in ``ci_low`` or ``CI low`` followed by its ``high`` twin; ``name`` is the printed
    column's (``"CI"``, ``"OPS CI"``, ``"value CI"``).

    Examples
    --------
    >>> interval_pairs(["value", "ci_low", "ci_high", "OPS CI low", "OPS CI high", "ops"])
    [('ci_low', 'ci_high', 'CI'), ('OPS CI low', 'OPS CI high', 'OPS CI')]
    """
    names = list(columns)
    pairs = []
    for low, high in itertools.pairwise(names):
        m = _INTERVAL_END.match(low) if isinstance(low, str) else None
        if m and high == f"{m['prefix']}{m['ci']}{m['sep']}high":
            prefix = m["prefix"].replace("_", " ")
            pairs.append((low, high, f"{prefix}CI"))
    return pairs


def _interval_column(low: pd.Series, high: pd.Series, digits: int) -> pd.Series:
    """Two ends as one column: ``0.5540-0.5910``, or ``-0.0120 to 0.0340`` for a
    column with a negative end (where a hyphen would read as a minus sign); ``NaN``
    where both ends are undefined."""
    lo, hi = pd.to_numeric(low, errors="coerce"), pd.to_numeric(high, errors="coerce")
    sep = " to " if bool(((lo < 0) | (hi < 0)).any()) else "-"

    def cell(a: Any, b: Any) -> str:
        if pd.isna(a) and pd.isna(b):
            return "NaN"
        ends = [_fmt(a, digits), _fmt(b, digits)]
        if all(_is_unit_formatted(v, digits) for v in (a, b)):
            ends = format_unit([a, b], digits)  # both ends with the same decimals
        return printable(f"{ends[0]}{sep}{ends[1]}")

    return pd.Series([cell(a, b) for a, b in zip(low, high, strict=True)], index=low.index)


def _index_columns(index: pd.Index) -> tuple[list[list[str]], list[str]]:
    """The row labels as text, one list per level, an outer level's value written only
    where it changes (as pandas prints a MultiIndex), and the levels' names."""
    rows = [tuple(str(v) for v in (key if isinstance(key, tuple) else (key,))) for key in index]
    levels = index.nlevels
    columns: list[list[str]] = [[] for _ in range(levels)]
    previous: tuple[str, ...] = ()
    for row in rows:
        same = 0  # the leading levels equal to the previous row's
        while same < levels - 1 and previous[same : same + 1] == row[same : same + 1]:
            same += 1
        for level in range(levels):
            columns[level].append("" if level < same else row[level])
        previous = row
    names = ["" if n is None else str(n) for n in index.names]
    return columns, names


def render_table(table: pd.DataFrame, width: int) -> str:
    """A table of text cells as aligned columns at most ``width`` wide: the row labels
    (left-aligned) then the columns (right-aligned), one space apart; a table wider
    than ``width`` is printed in blocks of columns separated by a blank line, each with
    the row labels and the column names (a single column wider than ``width`` is a block
    of its own). The names of the row labels take a line of their own when there are
    any.

    Examples
    --------
    >>> t = pd.DataFrame({"a": ["1.00", "2.00"], "bb": ["x", "y"]}, index=["r1", "r2"])
    >>> print(render_table(t, 80))
          a bb
    r1 1.00  x
    r2 2.00  y
    >>> print(render_table(t, 8))
          a
    r1 1.00
    r2 2.00
    <BLANKLINE>
       bb
    r1  x
    r2  y
    """
    labels, names = _index_columns(table.index)
    label_widths = [max([len(n), *map(len, col)]) for n, col in zip(names, labels, strict=True)]
    cells = [[str(v) for v in table.iloc[:, j]] for j in range(table.shape[1])]
    headers = [str(c) for c in table.columns]
    widths = [max([len(h), *map(len, col)]) for h, col in zip(headers, cells, strict=True)]
    lead = sum(label_widths) + len(label_widths) - 1  # the labels, one space apart
    blocks: list[list[int]] = []
    used = lead
    for j, w in enumerate(widths):
        if blocks and used + 1 + w <= width:
            blocks[-1].append(j)
            used += 1 + w
        else:
            blocks.append([j])
            used = lead + 1 + w
    if not blocks:
        blocks = [[]]
    out = []
    for block in blocks:
        lines = [" " * lead + "".join(" " + headers[j].rjust(widths[j]) for j in block)]
        if any(names):
            lines.append(" ".join(n.ljust(w) for n, w in zip(names, label_widths, strict=True)))
        for i in range(len(table)):
            label = " ".join(col[i].ljust(w) for col, w in zip(labels, label_widths, strict=True))
            lines.append(label + "".join(" " + cells[j][i].rjust(widths[j]) for j in block))
        out.append("\n".join(line.rstrip() for line in lines))
    return "\n\n".join(out)


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
    key : str, optional
        The column of footnote marks (``[1]``) that refer to the notes: printed with
        the row labels, so that every block of a wide table has it.

    Examples
    --------
    >>> import pandas as pd
    >>> table = pd.DataFrame({"value": [0.61], "CI low": [0.55], "CI high": [0.66],
    ...                       "how": ["[1]"]}, index=pd.Index(["f1"], name="metric"))
    >>> print(Summary("A title", table, notes=("[1] how it was made",), key="how"))
    A title
    ===============================
                value            CI
    metric how
    f1     [1] 0.6100 0.5500-0.6600
    -------------------------------
    [1] how it was made
    """

    title: str
    table: pd.DataFrame
    notes: tuple[str, ...] = field(default=())
    digits: int = 4
    key: str | None = None

    def __post_init__(self) -> None:
        check_digits(self.digits)

    def to_frame(self) -> pd.DataFrame:
        """The table at full precision (a copy)."""
        return self.table.copy()

    def _formatted(self, digits: int | None) -> pd.DataFrame:
        """The cells as text, each interval's two ends as one column
        (:func:`interval_pairs`), and the row and column labels, with control
        characters escaped (:func:`printable`): the title and notes are escaped where
        printed."""
        d = self.digits if digits is None else check_digits(digits)
        table = self.table.apply(lambda col: col.map(lambda v: printable(_fmt(v, d))))
        for low, high, name in interval_pairs(self.table.columns):
            at = table.columns.get_loc(low)
            merged = _interval_column(self.table[low], self.table[high], d)
            table = table.drop(columns=[low, high])
            table.insert(at, name, merged, allow_duplicates=True)
        table = table.rename(index=_printable_label, columns=_printable_label)
        if table.index.nlevels > 1:
            table.index = table.index.set_names([_printable_label(n) for n in table.index.names])
        else:
            table.index = table.index.rename(_printable_label(table.index.name))
        return table

    def as_text(self, digits: int | None = None, width: int | None = None) -> str:
        """Plain text for a terminal, ``width`` columns (default :func:`text_width`, the
        terminal's, 80 when there is none): a wider table is printed in blocks of
        columns (``render_table``), each with the row labels and the footnote key;
        the title and the notes are wrapped at the width, at most ``TEXT_WIDTH``
        (continued lines indented by four spaces). Control characters in any text are
        escaped."""
        width = text_width() if width is None else max(MIN_WIDTH, int(width))
        prose = min(width, TEXT_WIDTH)
        table = self._formatted(digits)
        key = None if self.key is None else _printable_label(self.key)
        if key is not None and key in table.columns:
            table = table.set_index(key, append=True)
        body = render_table(table, width)
        title = _wrap(printable(self.title), prose, "") or [""]
        lines = [*title, *body.splitlines()]
        rule = min(width, max(len(line) for line in lines))
        lines = [*title, "=" * rule, body]
        if self.notes:
            lines.append("-" * rule)
            for note in self.notes:
                lines.extend(_wrap(printable(note), prose, "    "))
        return "\n".join(lines)

    def as_html(self, digits: int | None = None) -> str:
        """An HTML fragment for notebooks; text is HTML-escaped and its control
        characters written as visible escapes."""
        table = self._formatted(digits).to_html(escape=True, border=0)
        # a number never breaks across lines in a narrow cell (an interval
        # "0.0055-0.0530" at its hyphen, a p-value "1.9e-17" at its exponent's): the
        # table keeps its cells whole and scrolls sideways when wider than the page
        nowrap = '<table style="white-space: nowrap"'
        table = f'<div style="overflow-x: auto">{table.replace("<table", nowrap, 1)}</div>'
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
