"""The command line's exit statuses, its one-line error and the types of its arguments
(argparse prints "argument --x: <message>" as one line, exit status 2)."""

from __future__ import annotations

import argparse
import math
import re
from typing import Any, NoReturn

from .._summary import printable
from .._validation import MAX_DIGITS

FORMATS = ("text", "csv", "json", "html")
CI_CHOICES = ("dirichlet", "bootstrap", "delong", "none")

#: Exit statuses.
EXIT_OK, EXIT_ERROR, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 2, 3, 130

#: Bounds of ``--n-resamples``. Every interval holds its draws in memory (at least
#: ``BYTES_PER_DRAW`` bytes each: the four cell probabilities of a Dirichlet draw as
#: float64; more for curves), so the bound is on memory: a million draws need at least
#: 32 MB per interval, and take a percentile's Monte Carlo error far below any digit
#: that is printed.
MIN_RESAMPLES, MAX_RESAMPLES, BYTES_PER_DRAW = 100, 1_000_000, 32

#: ``report --max-distinct``'s default: a curve is counted per distinct score up to this
#: many distinct scores in a group, else in as many equal-width bins, so that memory does
#: not grow with the rows (docs/method.md#command-line-engines).
DEFAULT_MAX_DISTINCT = 100_000

#: The most rows a forest plot (--plot with groups) draws.
MAX_FOREST_ROWS = 400

#: The longest error or warning line printed (a message quoting a garbled header of a
#: binary file could be megabytes long).
MAX_MESSAGE = 1000

_CSV_SUFFIXES = (".csv", ".csv.gz", ".txt", ".tsv", ".tsv.gz")
_PARQUET_SUFFIXES = (".parquet", ".pq")


class CommandError(Exception):
    """An error to print as one line (exit status 2)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit 2 (argparse's default code)
        self.exit(EXIT_ERROR, f"opsstats: error: {one_line(message)}\n")


#: The library's argument names, as its messages write them (in backticks), and the
#: command line's options that give them: the one translation of the messages the
#: command prints (errors and warnings), so that they name what the user typed.
FLAGS = {
    "truth": "--truth",
    "y_true": "--truth",
    "score": "--score",
    "y_score": "--score",
    "pred": "--pred",
    "y_pred": "--pred",
    "threshold": "--threshold",
    "metric": "--metric",
    "metrics": "--metric",
    "by": "--group",
    "pos_label": "--pos-label",
    "ci": "--ci",
    "confidence_level": "--confidence-level",
    "n_resamples": "--n-resamples",
    "rng": "--seed",
    "bins": "--bins",
    "max_distinct": "--max-distinct",
    "ops": "--ops",
    "method": "--method",
    "alternative": "--alternative",
    "rope": "--rope",
    "adjust": "--adjust",
    "digits": "--digits",
    "compare_by": "--between",
}
# `name`, `name=` or `name[key]`, in backticks
_ARGUMENT = re.compile(r"`(?P<name>\w+)=?(?P<key>\[[^\]`]*\])?`")


def flag_names(message: str) -> str:
    """A library message with its argument names written as the command's options
    (:data:`FLAGS`): "`pos_label` must be ..." becomes "--pos-label must be ...",
    "`y_score['a']`" becomes "--score 'a'"; other backticked names are kept.

    Examples
    --------
    >>> flag_names("give `threshold=` or `y_pred`; `pos_label` must be 1; `data` is fine")
    'give --threshold or --pred; --pos-label must be 1; `data` is fine'
    """

    def flag(match: re.Match[str]) -> str:
        name, key = match.group("name"), match.group("key")
        if name not in FLAGS:
            return match.group()
        return FLAGS[name] + (f" {key[1:-1]}" if key else "")

    return _ARGUMENT.sub(flag, message)


def one_line(message: Any) -> str:
    """A message as one printable line: its lines joined, control characters escaped
    (:func:`opsstats._summary.printable`), at most :data:`MAX_MESSAGE` characters."""
    text = " ".join(line.strip() for line in str(message).splitlines() if line.strip())
    text = printable(text)
    if len(text) > MAX_MESSAGE:
        text = text[: MAX_MESSAGE - 6] + " [...]"
    return text


# ---------------------------------------------------------------------------------------
# argument types: argparse prints "argument --x: <message>" as one line, exit status 2


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number; got {text!r}") from None


def finite_float(text: str) -> float:
    """A finite number (``nan``, ``inf`` and non-numbers refused)."""
    value = _number(text)
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"expected a finite number; got {text!r}")
    return value


def open_unit_float(text: str) -> float:
    """A number in the open interval (0, 1), e.g. a confidence level."""
    value = finite_float(text)
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"must be in the open interval (0, 1); got {text}")
    return value


def memory_size(text: str) -> float:
    """A memory limit in GB, from 0.05 (50 MB) to 1024."""
    value = finite_float(text)
    if not 0.05 <= value <= 1024:
        raise argparse.ArgumentTypeError(
            f"expected a memory limit in GB from 0.05 to 1024; got {text}"
        )
    return value


def whole_number(text: str) -> int:
    """An integer, written as one (``1000``, ``1_000``) or as a whole float (``1e5``)."""
    try:
        return int(text)
    except ValueError:
        pass
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or not value.is_integer():
        raise argparse.ArgumentTypeError(f"expected a whole number; got {text!r}")
    return int(value)


def distinct_limit(text: str) -> int:
    """``--max-distinct``: a positive whole number, or ``none`` (never bin), returned as
    0 (None stands for the option not given)."""
    if text.strip().lower() == "none":
        return 0
    n = whole_number(text)
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be a positive whole number or 'none'; got {text}")
    return n


def _size(n_bytes: float) -> str:
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n_bytes >= scale:
            return f"{n_bytes / scale:.3g} {unit}"
    return f"{n_bytes:.0f} bytes"


def resample_count(text: str) -> int:
    """``--n-resamples``: from :data:`MIN_RESAMPLES` to :data:`MAX_RESAMPLES`, refused up
    front beyond, with the memory the draws would take."""
    n = whole_number(text)
    if n < MIN_RESAMPLES:
        raise argparse.ArgumentTypeError(f"must be at least {MIN_RESAMPLES}; got {text}")
    if n > MAX_RESAMPLES:
        raise argparse.ArgumentTypeError(
            f"must be at most {MAX_RESAMPLES:_}; got {text}: every interval holds its draws "
            f"in memory (at least {BYTES_PER_DRAW} bytes each), which would take at least "
            f"{_size(n * BYTES_PER_DRAW)}, against a limit of "
            f"{_size(MAX_RESAMPLES * BYTES_PER_DRAW)}"
        )
    return n


def digit_count(text: str) -> int:
    """``--digits``: from 0 to :data:`opsstats._validation.MAX_DIGITS`, the library's
    rule for every printed number."""
    n = whole_number(text)
    if not 0 <= n <= MAX_DIGITS:
        raise argparse.ArgumentTypeError(
            f"must be from 0 to {MAX_DIGITS} (a float carries 17 significant digits); got {text}"
        )
    return n


def seed_value(text: str) -> int:
    """``--seed``: a non-negative integer."""
    n = whole_number(text)
    if n < 0:
        raise argparse.ArgumentTypeError(f"must be a non-negative integer; got {text}")
    return n


def add_engine_arguments(p: argparse.ArgumentParser) -> None:
    """How ``report`` and ``monitor`` read their file: ``--engine`` (default: DuckDB for
    a file, a directory or a glob, pandas for a pipe; ``_reading.default_engine``) and
    DuckDB's ``--memory-limit``."""
    p.add_argument(
        "--engine",
        choices=("pandas", "duckdb"),
        default=None,
        help="how the file is read: duckdb (the default for a file, a directory or a glob "
        "of Parquet or CSV files) counts in DuckDB, embedded, and brings only the count "
        "tables into memory, so memory does not grow with the number of rows; pandas (the "
        "default for a pipe such as /dev/stdin, which can be read only once) reads the "
        "rows into memory",
    )
    p.add_argument(
        "--memory-limit",
        type=memory_size,
        default=1.0,
        metavar="GB",
        help="DuckDB's memory limit in GB (default 1); beyond it DuckDB spills to a "
        "temporary directory",
    )


def add_input_arguments(p: argparse.ArgumentParser) -> None:
    """The file and its columns, as ``report`` and ``monitor`` read them: the file, the
    truth, the scores or the predicted labels, and the threshold."""
    p.add_argument("file", help="a .csv, .tsv or .parquet file, one row per instance")
    p.add_argument("--truth", required=True, metavar="COL", help="column of true labels")
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument("--score", metavar="COL", help="column of scores")
    what.add_argument("--pred", metavar="COL", help="column of predicted labels")
    p.add_argument(
        "--threshold",
        type=finite_float,
        metavar="T",
        help="predict positive where score >= T (confusion-matrix metrics)",
    )
