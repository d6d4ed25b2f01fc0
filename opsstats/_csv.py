"""The one CSV writer of the package: a table as CSV text that is safe to open in a
spreadsheet (``EvaluationReport.to_csv``, the ``--format csv`` of every command).

Numbers are written as numbers, unchanged (full ``repr`` precision, negative values
included, ``inf`` for infinity) and missing values as empty fields. Every text field
(the header, group values, names, methods, reasons) is quoted, and a text field that a
spreadsheet would run as a formula gets a leading single quote (OWASP, "CSV
Injection"): ``=HYPERLINK(...)`` is shown as text instead of being run. A program
reading the file gets those fields with the quote; the table itself keeps the values.
"""

from __future__ import annotations

import math
import numbers
from typing import TYPE_CHECKING, Any

from ._lazy import lazy_module

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = lazy_module("pandas")

__all__ = ["csv_text", "to_csv"]

#: A text cell starting with one of these is read as a formula by Excel, LibreOffice and
#: Google Sheets (OWASP, "CSV Injection"; ASVS 5.0 requirement 1.2.10 adds NUL); line
#: feed is added because some importers drop a leading blank line of a cell.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n", "\x00")


def csv_text(value: Any) -> Any:
    """A text cell made safe to open in a spreadsheet: a string starting with ``=``,
    ``+``, ``-``, ``@``, tab, carriage return, line feed or NUL gets a leading single
    quote (OWASP's advice against CSV formula injection); anything else is returned as
    it is.

    Examples
    --------
    >>> print(csv_text('=HYPERLINK("http://example.com")'), csv_text("-2+3"), csv_text("north"))
    '=HYPERLINK("http://example.com") '-2+3 north
    >>> csv_text(-2.5)
    -2.5
    """
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def _field(value: Any) -> str:
    """One CSV field: a number as a number (full precision, never quoted or altered),
    a missing value as an empty field, anything else as quoted text made safe by
    :func:`csv_text`."""
    if hasattr(value, "item") and not isinstance(value, str):
        value = value.item()  # numpy scalars
    if value is None or value is pd.NA or value is pd.NaT:
        return ""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        return "" if math.isnan(value) else repr(float(value))
    text = csv_text(str(value))
    return '"' + text.replace('"', '""') + '"'


def to_csv(frame: pd.DataFrame) -> str:
    """The frame as CSV text (header and rows, no index), every field written by the
    rules above.

    Examples
    --------
    >>> print(to_csv(pd.DataFrame({"group": ["-2+3", "north"], "value": [-0.5, None]})))
    "group","value"
    "'-2+3",-0.5
    "north",
    <BLANKLINE>
    """
    lines = [",".join(_field(str(c)) for c in frame.columns)]
    for row in frame.itertuples(index=False):
        lines.append(",".join(_field(value) for value in row))
    return "\n".join(lines) + "\n"
