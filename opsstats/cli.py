"""The ``opsstats`` command line.

``opsstats report FILE --truth COL (--score COL | --pred COL) ...`` evaluates a CSV or
Parquet file of predictions; ``opsstats example`` runs the full report on the bundled
affairs data.

Exit statuses: 0 on success; 2 for an error, printed as one line on stderr
(``opsstats: error: ...``) with nothing on stdout and no output file written; 130 when
interrupted (Ctrl-C, ``opsstats: interrupted``); 3 for an internal error (a bug in
opsstats, printed as one line asking to report it). Never a traceback.

How a subcommand is made: its parser calls ``add_output_options`` (and whatever
else it needs, e.g. the argument types ``finite_float``, ``resample_count``)
and sets ``run=`` to a function ``build(args) -> Output``. ``main`` parses the
arguments and hands ``build`` to ``run_command``, which checks the output paths
first (``check_outputs``), runs ``build`` with warnings turned into one line each,
writes the figure and the report whole or not at all (``StagedFiles``), prints
the report last, and turns every failure into one line and an exit status. A
subcommand reading a file of predictions uses ``read_table``,
``check_columns`` and ``parse_pos_label``.

``report`` reads through DuckDB by default (``default_engine``): one file with
``read_file_relation``, which makes ``check_columns``' checks by queries with the same
messages and types a CSV's columns as pandas would, a directory or a glob with
``read_relation``; only count tables come into Python. ``--engine pandas`` reads the
rows with ``read_table``, as does a pipe.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import gzip
import io
import math
import os
import re
import shutil
import signal
import stat
import sys
import tempfile
import threading
import warnings
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, NoReturn

import numpy as np
import pandas as pd

from . import plotting
from ._summary import printable
from ._validation import MAX_DIGITS
from .comparison import METHODS as COMPARE_METHODS
from .comparison import ComparisonResult, ComparisonTable, compare, compare_test_sets
from .curves.score_curve import ScoreCurve
from .examples import affairs_example
from .exceptions import UndefinedMetricWarning
from .frames import count_tables
from .plotting._axes import literal
from .report import EvaluationReport, report

__all__ = ["main"]

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


# ---------------------------------------------------------------------------------------
# reading the input


def read_table(path: str) -> pd.DataFrame:
    """A CSV (``.csv``, ``.csv.gz``, ``.txt``; ``.tsv``, ``.tsv.gz`` tab-separated) or
    Parquet (``.parquet``, ``.pq``) file, read as UTF-8 text or Parquet.

    Refused with a :class:`CommandError`: a missing file, a directory, another
    extension, a file that cannot be parsed, a header naming a column twice (pandas
    would rename the second ``y`` to ``y.1``), and data rows with more fields than the
    header (pandas would turn the first column into the index). Pipes and devices (a
    named pipe, ``/dev/stdin``) are read whole into memory first.
    """
    _check_file_name(path)
    p = Path(path)
    name = p.name.lower()
    with _InterruptNote() as interrupted:
        try:
            # a regular file is read where it is; a pipe once, into memory, as it cannot
            # be read twice (the header is read on its own first)
            source: Any = p if p.is_file() else io.BytesIO(p.read_bytes())
            if name.endswith(_PARQUET_SUFFIXES):
                return _read_parquet(source, path)
            return _read_csv(source, path, sep="\t" if ".tsv" in name else ",")
        except Exception as exc:
            if interrupted:  # pandas reports Ctrl-C inside its parser as a ParserError
                raise KeyboardInterrupt from None
            _reading_error(exc, path)


def _check_file_name(path: str) -> None:
    """Refuse an empty name, a missing file, a directory and an unknown extension."""
    if not path:
        raise CommandError("the file name is empty")
    p = Path(path)
    if not p.exists():
        raise CommandError(f"no such file: {path}")
    if p.is_dir():
        raise CommandError(f"{path} is a directory, not a CSV or Parquet file")
    if not p.name.lower().endswith(_CSV_SUFFIXES + _PARQUET_SUFFIXES):
        raise CommandError(f"{path}: unsupported file type; use .csv, .tsv or .parquet")


class _InterruptNote:
    """A list that Ctrl-C (SIGINT) appends to while inside; the interrupt is raised as
    usual. pandas' C parser turns a ``KeyboardInterrupt`` raised while it reads into a
    ``ParserError`` ("Calling read(nbytes) on source failed"), so an error there must be
    told apart from a file that cannot be parsed. Only in the main thread and only
    over Python's own handler (a handler of the caller's is left alone)."""

    def __enter__(self) -> list[bool]:
        self.noted: list[bool] = []
        self.active = (
            threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGINT) is signal.default_int_handler
        )
        if self.active:
            signal.signal(signal.SIGINT, self._note)
        return self.noted

    def _note(self, signum: int, frame: Any) -> None:
        self.noted.append(True)
        raise KeyboardInterrupt

    def __exit__(self, *exc: object) -> None:
        if self.active:
            signal.signal(signal.SIGINT, signal.default_int_handler)


def is_dataset(path: str) -> bool:
    """A directory, or a glob pattern (``*``, ``?``, ``[``) that is not the name of a
    file: read through DuckDB as a set of files."""
    p = Path(path)
    return p.is_dir() or (any(c in path for c in "*?[") and not p.exists())


def default_engine(path: str) -> str:
    """The engine ``report`` reads ``path`` with when ``--engine`` is not given: DuckDB
    for a regular file, a directory or a glob; pandas for a pipe or a device (e.g.
    ``/dev/stdin``), which can be read only once, and for a name that does not exist
    (whose error pandas' reader gives)."""
    if path and (is_dataset(path) or Path(path).is_file()):
        return "duckdb"
    return "pandas"


def _import_duckdb() -> Any:
    try:
        import duckdb
    except ImportError:  # an ordinary dependency, but it may have been removed
        raise CommandError("--engine duckdb needs DuckDB: pip install duckdb") from None
    return duckdb


def read_relation(path: str, connection: Any) -> Any:
    """A DuckDB relation over a Parquet or CSV file, a directory of Parquet files (read
    recursively) or a glob of either, on ``connection`` (which must outlive it): nothing
    is read until a query runs, and queries stream, so memory does not grow with the
    number of rows."""
    p = Path(path)
    if p.is_dir():
        if next(p.rglob("*.parquet"), None) is None:
            raise CommandError(
                f"{path} is a directory without Parquet files; give a CSV or Parquet file, "
                "or a directory or glob of Parquet files"
            )
        pattern, kind = str(p / "**" / "*.parquet"), "parquet"
    else:
        name = path.lower()
        if not any(c in path for c in "*?[") and not p.exists():
            raise CommandError(f"no such file: {path}")
        if name.endswith(_PARQUET_SUFFIXES):
            pattern, kind = path, "parquet"
        elif name.endswith(_CSV_SUFFIXES):
            pattern, kind = path, "csv"
        else:
            raise CommandError(f"{path}: unsupported file type; use .csv, .tsv or .parquet")
    reader = "read_parquet" if kind == "parquet" else "read_csv"
    try:
        relation = connection.sql(f"SELECT * FROM {reader}(?)", params=[pattern])
        _duplicates(relation.columns, path)
        return relation
    except CommandError:
        raise
    except Exception as exc:  # DuckDB's IO and parser errors
        raise CommandError(f"cannot read {path}: {one_line(exc) or type(exc).__name__}") from None


def _relation_pos_label(relation: Any, column: str, text: str | None) -> Any:
    """:func:`parse_pos_label` from the column's DuckDB type (no rows are read)."""
    if text is None or column not in relation.columns:
        return text
    kind = str(relation.types[relation.columns.index(column)]).upper()
    if kind == "BOOLEAN":
        sample = pd.DataFrame({column: pd.Series([True], dtype=bool)})
    elif kind in ("DOUBLE", "FLOAT", "REAL") or kind.startswith("DECIMAL"):
        sample = pd.DataFrame({column: [0.0]})
    elif "INT" in kind:
        sample = pd.DataFrame({column: [0]})
    else:
        return text
    return parse_pos_label(sample, column, text)


# ---------------------------------------------------------------------------------------
# reading one file through DuckDB: the checks of the pandas path, made by queries

#: pandas' default missing-value markers (``pandas.read_csv``'s ``na_values``); the
#: DuckDB reader of a CSV file reads them as missing values too.
CSV_MISSING = (
    "",
    "#N/A",
    "#N/A N/A",
    "#NA",
    "-1.#IND",
    "-1.#QNAN",
    "-NaN",
    "-nan",
    "1.#IND",
    "1.#QNAN",
    "<NA>",
    "N/A",
    "NA",
    "NULL",
    "NaN",
    "None",
    "n/a",
    "nan",
    "null",
)
#: The text of a CSV cell that pandas' reader takes as an integer, as a number, as a
#: boolean (regular expressions matched whole).
_INT_TEXT = r"[ \t]*[+-]?[0-9]+[ \t]*"
_NUMBER_TEXT = (
    r"[ \t]*[+-]?(([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?"
    r"|[iI][nN][fF]([iI][nN][iI][tT][yY])?)[ \t]*"
)
_BOOL_TEXT = ("True", "TRUE", "true", "False", "FALSE", "false")
#: DuckDB types whose cells hold several values.
_NESTED = ("list", "struct", "map", "array", "union")
#: DuckDB types that hold numbers (booleans too, as pandas counts them).
_NUMERIC = (
    "boolean",
    "tinyint",
    "smallint",
    "integer",
    "bigint",
    "hugeint",
    "utinyint",
    "usmallint",
    "uinteger",
    "ubigint",
    "uhugeint",
    "float",
    "double",
    "decimal",
)


def _sql_text(text: str) -> str:
    """A SQL string literal."""
    return "'" + text.replace("'", "''") + "'"


def _sql_name(name: str) -> str:
    """A SQL identifier."""
    return '"' + name.replace('"', '""') + '"'


def _duckdb_path(path: str) -> str:
    """The absolute path with DuckDB's glob characters escaped (``[*]``): DuckDB reads
    exactly that file, whatever its name holds."""
    return re.sub(r"([*?\[])", r"[\1]", os.path.abspath(path))


def _duckdb_error(exc: Exception, path: str) -> CommandError:
    """DuckDB's error reading ``path`` as one line, without its advice on its own
    options (``strict_mode``, ``ignore_errors``, ...) and the reader's settings."""
    text = str(exc)
    number = re.search(r"Line: (\d+)", text)
    if "not utf-8" in text.lower() or "invalid unicode" in text.lower():
        where = f"line {number.group(1)}" if number else "an invalid byte sequence"
        return CommandError(f"cannot read {path}: it is not UTF-8 text ({where}); save it as UTF-8")
    fields = re.search(
        r"CSV Error on Line: (\d+)\s+Original Line: (.*?)\s*"
        r"Expected Number of Columns: (\d+) Found: (\d+)",
        text,
        re.DOTALL,
    )
    if fields:
        line, original, expected, found = fields.groups()
        shown = repr(original) if len(original) <= 40 else repr(original[:37]) + "..."
        return CommandError(
            f"cannot read {path}: line {line} has {found} field(s), the header {expected} "
            f"({shown}); check the separator and the quoting"
        )
    if "unterminated quote" in text:
        where = f" on line {number.group(1)}" if number else ""
        return CommandError(
            f"cannot read {path}: a quoted value{where} is never closed; check the quoting"
        )
    if "state machine reached an invalid state" in text:
        return CommandError(
            f"cannot read {path}: it is not CSV as DuckDB reads it (RFC 4180: one kind of "
            "line ending throughout, quotes only around whole fields); fix the file, or "
            "read it with --engine pandas"
        )
    head = re.split(r"Possible (?:fixes|Solution)|\n\s*file = ", text)[0]
    head = re.sub(r"^[A-Za-z ]*Error: ", "", head.strip())
    return CommandError(f"cannot read {path}: {one_line(head) or type(exc).__name__}")


@dataclass
class _Column:
    """A column of the file that an option names: its SQL in the reader (``raw``), the
    SQL of its value typed as pandas' reader types it (``typed``), that DuckDB type, and
    what the first query found."""

    raw: str
    typed: str
    kind: str
    kind_id: str
    missing: int
    nan: bool = False  # NaN counts as missing (a float column of a Parquet file)


def read_file_relation(
    path: str,
    options: Mapping[str, str | Sequence[str] | None],
    connection: Any,
    *,
    numeric: Collection[str] = ("--score",),
    complete: Collection[str] = ("--truth", "--score", "--pred"),
) -> Any:
    """A DuckDB relation over one CSV or Parquet file (the extensions of
    :func:`read_table`) on ``connection`` (which must outlive it): the columns
    ``options`` names, typed as pandas' reader types them, after the checks
    :func:`check_columns` makes, with the same messages.

    Nothing is read into Python: the checks are queries that stream through the file
    (counts, and on failure the first offending data row, ``row_number() OVER ()``
    ``... LIMIT 1``), and so are the queries of the report. A CSV file is read with a
    fixed dialect (pandas': the separator of its extension, ``"`` quoting, the first
    non-blank line the header) rather than DuckDB's guess, every cell as text, with
    pandas' missing-value markers; each column's type is then that pandas would infer
    from all of its cells (integers, numbers, ``True``/``False``, else text). A header
    naming a column twice is refused (DuckDB would rename the second), and so is a row
    with more or fewer fields than the header.
    """
    _check_file_name(path)
    if not Path(path).is_file():
        raise CommandError(
            f"--engine duckdb reads a regular file; {path} is a pipe or a device, which "
            "can be read only once: use --engine pandas"
        )
    duckdb = _import_duckdb()
    try:
        if path.lower().endswith(_PARQUET_SUFFIXES):
            reader, refs = _parquet_reader(connection, path)
            text = False
        else:
            reader, refs = _csv_reader(path)
            text = True
        named: list[str] = []
        for names in options.values():
            for column in [] if names is None else [names] if isinstance(names, str) else names:
                if column in refs and column not in named:
                    named.append(column)
        _same_but_case(named, path)
        n, columns = _survey(connection, reader, refs, named, text)
        if n == 0:
            raise CommandError(f"{path} has no data rows")
        for option, names in options.items():
            if names is None:
                continue
            for column in [names] if isinstance(names, str) else names:
                if column not in refs:
                    raise CommandError(
                        f"{option} {column!r}: {path} has no such column; its columns: "
                        f"{_describe_names(list(refs))}"
                    )
                _check_relation_column(
                    connection,
                    reader,
                    columns[column],
                    f"{option} column {column!r}",
                    option,
                    numeric=numeric,
                    complete=complete,
                )
        select = ", ".join(f"{columns[c].typed} AS {_sql_name(c)}" for c in named)
        return connection.sql(f"SELECT {select} FROM {reader}")
    except CommandError:
        raise
    except duckdb.InterruptException:
        raise KeyboardInterrupt from None
    except duckdb.Error as exc:
        raise _duckdb_error(exc, path) from None


def _same_but_case(names: Sequence[str], path: str) -> None:
    seen: dict[str, str] = {}
    for name in names:
        other = seen.setdefault(name.lower(), name)
        if other != name:
            raise CommandError(
                f"{path}: the columns {other!r} and {name!r} differ only in case, which "
                "DuckDB does not tell apart: use --engine pandas"
            )


def _csv_reader(path: str) -> tuple[str, dict[str, str]]:
    """DuckDB's reader of a CSV file, every cell as text, and each column's SQL in it."""
    sep = "\t" if ".tsv" in Path(path).name.lower() else ","
    gz = path.lower().endswith(".gz")
    with _InterruptNote() as interrupted:
        try:
            header = pd.read_csv(
                path,
                sep=sep,
                header=None,
                nrows=1,
                dtype=str,
                keep_default_na=False,
                compression="gzip" if gz else None,
            )
            skip = _blank_lines(path, gz)
        except Exception as exc:
            if interrupted:
                raise KeyboardInterrupt from None
            _reading_error(exc, path)
    names = list(header.iloc[0]) if len(header) else []
    _duplicates(names, path)
    names = [str(name) if name else f"Unnamed: {i}" for i, name in enumerate(names)]  # pandas'
    inner = [f"c{i}" for i in range(len(names))]
    columns = ", ".join(f"{_sql_text(c)}: 'VARCHAR'" for c in inner)
    missing = ", ".join(map(_sql_text, CSV_MISSING))
    reader = (
        f"read_csv({_sql_text(_duckdb_path(path))}, columns = {{{columns}}}, header = true, "
        f"skip = {skip}, auto_detect = false, delim = {_sql_text(sep)}, quote = '\"', "
        f"escape = '\"', nullstr = [{missing}], strict_mode = true, null_padding = false, "
        f"compression = '{'gzip' if gz else 'none'}', encoding = 'utf-8')"
    )
    return reader, {name: _sql_name(c) for name, c in zip(names, inner, strict=True)}


def _blank_lines(path: str, gz: bool) -> int:
    """The blank lines before the header, which pandas skips."""
    n = 0
    with gzip.open(path, "rb") if gz else open(path, "rb") as f:
        while True:
            line = f.readline(1 << 16)
            if n == 0:
                line = line.removeprefix(b"\xef\xbb\xbf")
            if not line.endswith(b"\n") or line.strip():
                return n
            n += 1


def _parquet_reader(con: Any, path: str) -> tuple[str, dict[str, str]]:
    """DuckDB's reader of a Parquet file, and each column's SQL in it."""
    source = _sql_text(_duckdb_path(path))
    schema = _query(con, f"SELECT name, num_children FROM parquet_schema({source})")
    names: list[str] = []
    i = 1

    def past(i: int) -> int:  # the index past the subtree of the schema element i
        end = i + 1
        for _ in range(schema[i][1] or 0):
            end = past(end)
        return end

    for _ in range(schema[0][1] or 0 if schema else 0):
        names.append(str(schema[i][0]))
        i = past(i)
    _duplicates(names, path)
    reader = f"read_parquet({source})"
    inner = con.sql(f"SELECT * FROM {reader}").columns  # DuckDB's names, in the same order
    return reader, {name: _sql_name(c) for name, c in zip(names, inner, strict=True)}


def _survey(
    con: Any, reader: str, every: Mapping[str, str], named: Sequence[str], text: bool
) -> tuple[int, dict[str, _Column]]:
    """One query through the file: the number of rows and, per named column, its missing
    values and, for a CSV file, what its cells hold, from which its type follows. Every
    other column of a CSV file is read too (DuckDB checks the UTF-8 of the columns it
    reads; pandas refuses a file with a byte that is not UTF-8 anywhere)."""
    refs = {c: every[c] for c in named}
    parts = ["count(*)"]
    types = [] if text else con.sql(f"SELECT {', '.join(refs.values()) or 1} FROM {reader}").types
    for i, r in enumerate(refs.values()):
        if text:
            is_int = f"regexp_full_match({r}, {_sql_text(_INT_TEXT)})"
            value = f"TRY_CAST({r} AS HUGEINT)"
            parts += [
                f"count({r})",
                f"bool_and({is_int})",
                f"bool_and(regexp_full_match({r}, {_sql_text(_NUMBER_TEXT)}))",
                f"bool_and({r} IN ({', '.join(map(_sql_text, _BOOL_TEXT))}))",
                # an integer beyond int64; every integer within uint64
                f"bool_or({is_int} AND NOT coalesce({value} BETWEEN {-(2**63)} AND {2**63 - 1}, "
                "false))",
                f"bool_and(CASE WHEN {is_int} THEN coalesce({value} BETWEEN 0 AND {2**64 - 1}, "
                "false) END)",
            ]
        else:
            nan = str(types[i].id) in ("float", "double")
            parts.append(f"count({r}) - count_if(isnan({r}))" if nan else f"count({r})")
    if text:
        parts += [f"count({r})" for c, r in every.items() if c not in refs]
    row = _query(con, f"SELECT {', '.join(parts)} FROM {reader}")[0]
    n, values = int(row[0]), list(row[1:])
    columns = {}
    if text:
        for name, r in refs.items():
            count, is_int, is_number, is_bool, big, unsigned = values[:6]
            del values[:6]
            kind = _csv_kind(n, int(count), is_int, is_number, is_bool, big, unsigned)
            typed = r if kind == "VARCHAR" else f"CAST({r} AS {kind})"
            columns[name] = _Column(r, typed, kind, kind.lower(), n - int(count))
        return n, columns
    for (name, r), count, kind in zip(refs.items(), values, types, strict=True):
        kind_id = str(kind.id)
        missing = n - int(count)
        typed = f"CAST({r} AS DOUBLE)" if kind_id == "decimal" else r
        nan = kind_id in ("float", "double")
        columns[name] = _Column(r, typed, str(kind), kind_id, missing, nan=nan)
    return n, columns


def _csv_kind(
    n: int, count: int, is_int: Any, is_number: Any, is_bool: Any, big: Any, unsigned: Any
) -> str:
    """The DuckDB type of a CSV column as pandas' reader infers it from all its cells."""
    if count == 0:
        return "DOUBLE"  # no value: pandas reads NaN
    if is_int:
        if not big:
            return "BIGINT" if count == n else "DOUBLE"  # with missing values: float64
        return "UBIGINT" if unsigned and count == n else "VARCHAR"  # beyond 64 bits: text
    if is_number:  # with an integer beyond 64 bits pandas keeps text (or floats, when a
        return "VARCHAR" if big else "DOUBLE"  # decimal comes first): text, always
    if is_bool:
        return "BOOLEAN"
    return "VARCHAR"


def _first_row(con: Any, reader: str, condition: str, value: str = "NULL") -> tuple[int, Any]:
    """The number (from 1) of the first data row where ``condition`` holds, and
    ``value`` there; (0, None) if none. Streams, and stops at that row."""
    found = _query(
        con,
        f"SELECT n, v FROM (SELECT row_number() OVER () AS n, {value} AS v, {condition} AS bad "
        f"FROM {reader}) WHERE bad LIMIT 1",
    )
    return (int(found[0][0]), found[0][1]) if found else (0, None)


def _query(con: Any, sql: str) -> list[tuple[Any, ...]]:
    """The rows of a query that returns few."""
    rows: list[tuple[Any, ...]] = con.execute(sql).fetchall()
    return rows


def _check_relation_column(
    con: Any,
    reader: str,
    column: _Column,
    where: str,
    option: str,
    *,
    numeric: Collection[str],
    complete: Collection[str],
) -> None:
    """:func:`check_columns`' checks of one column, made by queries."""
    r = column.raw
    if column.kind_id in _NESTED:
        row, _ = _first_row(con, reader, f"{r} IS NOT NULL")
        if row:
            raise CommandError(
                f"{where} holds a list or a mapping in data row {row} ({column.kind}); each "
                "cell must be one value"
            )
    if option in complete and column.missing:
        nan = f" OR isnan({r})" if column.nan else ""
        row, _ = _first_row(con, reader, f"{r} IS NULL{nan}")
        raise CommandError(
            f"{where} has {column.missing} missing value(s), the first in data row {row}"
        )
    if option not in numeric:
        return
    if column.kind_id in _NUMERIC:
        return
    if column.kind_id != "varchar":
        raise CommandError(f"{where} must hold numbers; got type {column.kind}")
    number = f"regexp_full_match({r}, {_sql_text(_NUMBER_TEXT)})"
    row, value = _first_row(con, reader, f"{r} IS NOT NULL AND NOT {number}", r)
    if row:
        shown = repr(value)
        shown = shown if len(shown) <= 40 else shown[:37] + "..."
        raise CommandError(f"{where} must hold numbers; data row {row} holds {shown}")
    big = (
        f"regexp_full_match({r}, {_sql_text(_INT_TEXT)}) AND NOT coalesce(TRY_CAST({r} AS "
        f"HUGEINT) BETWEEN {-(2**63)} AND {2**63 - 1}, false)"
    )
    row, _ = _first_row(con, reader, big)
    if row:
        raise CommandError(
            f"{where} holds an integer beyond 64 bits in data row {row}, which no numeric "
            "type holds exactly; write the scores as decimals"
        )
    raise CommandError(
        f"{where} must hold numbers; it holds numbers written as text (type {column.kind}): "
        "check the file's separator and quoting"
    )


def _reading_error(exc: Exception, path: str) -> NoReturn:
    if isinstance(exc, CommandError):
        raise exc
    if isinstance(exc, UnicodeDecodeError):
        raise CommandError(
            f"cannot read {path}: it is not UTF-8 text ({exc.reason}); save it as UTF-8"
        ) from None
    # pandas and pyarrow parse errors of many types
    raise CommandError(f"cannot read {path}: {one_line(exc) or type(exc).__name__}") from None


def _duplicates(names: Sequence[Any], path: str) -> None:
    seen: dict[str, int] = {}
    twice = []
    for name in names:
        key = str(name)
        seen[key] = seen.get(key, 0) + 1
        if seen[key] == 2 and key:
            twice.append(key)
    if twice:
        raise CommandError(
            f"{path} names a column more than once: {', '.join(map(repr, twice))}; "
            "rename the columns so that each name is used once"
        )


def _read_csv(source: Any, path: str, sep: str) -> pd.DataFrame:
    compression = "gzip" if path.lower().endswith(".gz") else None
    header = pd.read_csv(
        source,
        sep=sep,
        header=None,
        nrows=1,
        dtype=str,
        keep_default_na=False,
        compression=compression,
    )
    _duplicates(list(header.iloc[0]) if len(header) else [], path)
    if isinstance(source, io.BytesIO):
        source.seek(0)
    data = pd.read_csv(source, sep=sep, compression=compression)
    if not isinstance(data.index, pd.RangeIndex):
        raise CommandError(
            f"cannot read {path}: its data rows have more fields than its header "
            f"({len(data.columns)} names); check the separator and the quoting"
        )
    return data


def _read_parquet(source: Any, path: str) -> pd.DataFrame:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise CommandError(
            "reading Parquet needs pyarrow: pip install 'opsstats[parquet]'"
        ) from None
    _duplicates(pq.read_schema(source).names, path)
    if isinstance(source, io.BytesIO):
        source.seek(0)
    return pd.read_parquet(source)


def _describe_columns(data: pd.DataFrame) -> str:
    return _describe_names(list(data.columns))


def _describe_names(columns: Sequence[Any]) -> str:
    names = [printable(str(c)) for c in columns]
    shown = ", ".join(names[:20])
    return shown + (f", ... ({len(names)} columns)" if len(names) > 20 else "")


def check_columns(
    data: pd.DataFrame,
    path: str,
    options: Mapping[str, str | Sequence[str] | None],
    *,
    numeric: Collection[str] = ("--score",),
    complete: Collection[str] = ("--truth", "--score", "--pred"),
) -> None:
    """Refuse, naming the option and the column: a file without rows; a column
    ``options`` names (``{"--truth": "y", "--group": ["site"], ...}``) that is not in
    the file; a cell holding a list, an array or a mapping (nested Parquet columns); a
    missing value in a column of an option in ``complete``; a value that is not a real
    number in a column of an option in ``numeric``."""
    if len(data) == 0:
        raise CommandError(f"{path} has no data rows")
    for option, names in options.items():
        if names is None:
            continue
        for column in [names] if isinstance(names, str) else names:
            if column not in data.columns:
                raise CommandError(
                    f"{option} {column!r}: {path} has no such column; its columns: "
                    f"{_describe_columns(data)}"
                )
            values = data[column]
            where = f"{option} column {column!r}"
            if values.dtype == object:
                nested = values.map(lambda v: isinstance(v, list | tuple | dict | set | np.ndarray))
                if nested.any():
                    row = int(np.flatnonzero(nested.to_numpy())[0]) + 1
                    raise CommandError(
                        f"{where} holds a list or a mapping in data row {row} "
                        f"({type(values.iloc[row - 1]).__name__}); each cell must be one value"
                    )
            if option in complete:
                missing = values.isna().to_numpy()
                if missing.any():
                    row = int(np.flatnonzero(missing)[0]) + 1
                    raise CommandError(
                        f"{where} has {int(missing.sum())} missing value(s), the first in "
                        f"data row {row}"
                    )
            if option in numeric:
                _check_numeric(values, where)


def _check_numeric(values: pd.Series, where: str) -> None:
    kind = values.dtype.kind
    if kind in "iufb":
        return
    if kind == "c":
        raise CommandError(f"{where} must hold real numbers; got complex numbers")
    converted = pd.to_numeric(values, errors="coerce")
    bad = (converted.isna() & values.notna()).to_numpy()
    if bad.any():
        row = int(np.flatnonzero(bad)[0]) + 1
        shown = repr(values.iloc[row - 1])
        shown = shown if len(shown) <= 40 else shown[:37] + "..."
        raise CommandError(f"{where} must hold numbers; data row {row} holds {shown}")
    for row, value in enumerate(values, start=1):  # pandas keeps what no dtype holds as text
        with contextlib.suppress(ValueError, TypeError):
            if abs(int(value)) >= 2**63:
                raise CommandError(
                    f"{where} holds an integer beyond 64 bits in data row {row}, which no "
                    "numeric type holds exactly; write the scores as decimals"
                )
    raise CommandError(
        f"{where} must hold numbers; it holds numbers written as text "
        f"(dtype {values.dtype}): check the file's separator and quoting"
    )


def parse_pos_label(data: pd.DataFrame, column: str, text: str | None) -> Any:
    """Match a ``--pos-label`` string to the column's type (integers, floats, booleans);
    strings stay strings."""
    if text is None or column not in data.columns:
        return text
    dtype = data[column].dtype
    if isinstance(dtype, pd.CategoricalDtype):
        dtype = dtype.categories.dtype
    kind = dtype.kind
    try:
        if kind in "iu":
            return whole_number(text)
        if kind == "f":
            return finite_float(text)
        if kind == "b":
            return {"true": True, "false": False, "1": True, "0": False}[text.lower()]
    except (argparse.ArgumentTypeError, KeyError):
        raise CommandError(
            f"--pos-label {text!r} is not a value of column {column!r} (dtype {dtype})"
        ) from None
    return text


# ---------------------------------------------------------------------------------------
# writing the outputs


@dataclass(frozen=True)
class Output:
    """What a subcommand made: the report as text (for stdout or ``--output``) and,
    for ``--plot``, a function drawing the figure on a matplotlib ``Figure``."""

    text: str
    draw: Callable[[Any], None] | None = None


def _check_target(option: str, path: str, *, figure: bool = False) -> Path:
    if not path:
        raise CommandError(f"{option}: the file name is empty")
    p = Path(path)
    if p.is_dir() or path.endswith(("/", os.sep)):
        raise CommandError(
            f"{option} {path} is a directory; give a file name, e.g. {p / 'report.png'}"
            if figure
            else f"{option} {path} is a directory; give a file name"
        )
    if p.exists() and not p.is_file():
        raise CommandError(f"{option} {path} is not a regular file")
    target = Path(os.path.realpath(p))  # through symbolic links: the link is kept
    if not target.parent.is_dir():
        raise CommandError(f"{option} {path}: no such directory: {target.parent}")
    if not os.access(target.parent, os.W_OK | os.X_OK):
        raise CommandError(f"{option} {path}: cannot write in {target.parent}")
    if figure:
        from matplotlib.backend_bases import FigureCanvasBase

        supported = sorted(FigureCanvasBase.get_supported_filetypes())
        suffix = target.suffix.lower().lstrip(".")
        if suffix not in supported:
            raise CommandError(
                f"{option} {path}: the file name must end in the format's extension "
                f"({', '.join('.' + s for s in supported)}), e.g. {p.stem or 'report'}.png"
            )
    return target


def check_outputs(args: argparse.Namespace, inputs: Sequence[str] = ()) -> dict[str, Path]:
    """The output files of ``--plot`` and ``--output``, checked before any work is done:
    not a directory, in an existing writable folder, not an input file, not each other;
    a figure's name ends in a format matplotlib writes."""
    targets: dict[str, Path] = {}
    if getattr(args, "plot", None) is not None:
        targets["--plot"] = _check_target("--plot", args.plot, figure=True)
    if getattr(args, "output", None) is not None:
        targets["--output"] = _check_target("--output", args.output)
    if len(set(targets.values())) < len(targets):
        raise CommandError("--plot and --output name the same file")
    for name in inputs:
        if name and Path(name).exists():
            for option, target in targets.items():
                if target.exists() and os.path.samefile(name, target):
                    raise CommandError(f"{option} {target} is the input file")
    return targets


class StagedFiles:
    """Files written whole or not at all: each is written to a temporary file in its
    target's folder, and :meth:`commit` renames them over their targets (atomic on one
    file system). Leaving the ``with`` block without a commit, by an error or Ctrl-C,
    removes every temporary file: no half-written file is ever left, and an existing
    target is unchanged. A replaced file keeps its permissions; a new one gets those
    of the umask."""

    def __init__(self) -> None:
        self._staged: list[tuple[str, Path]] = []

    def __enter__(self) -> StagedFiles:
        return self

    def __exit__(self, *exc: object) -> None:
        self.discard()

    def write(self, target: Path, writer: Callable[[IO[bytes]], object]) -> None:
        """Write ``target``'s future content with ``writer(binary_file)``."""
        try:
            fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
        except OSError as exc:
            raise CommandError(f"cannot write {target}: {exc.strerror or exc}") from None
        try:
            with os.fdopen(fd, "wb") as f:
                writer(f)
                f.flush()
                os.fsync(f.fileno())
            os.chmod(tmp, _mode(target))
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        self._staged.append((tmp, target))

    def commit(self) -> None:
        """Rename every temporary file over its target."""
        while self._staged:
            tmp, target = self._staged[0]
            try:
                os.replace(tmp, target)
            except OSError as exc:
                raise CommandError(f"cannot write {target}: {exc.strerror or exc}") from None
            self._staged.pop(0)

    def discard(self) -> None:
        """Remove the temporary files not yet renamed."""
        for tmp, _ in self._staged:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        self._staged.clear()


def _mode(target: Path) -> int:
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _save_figure(draw: Callable[[Any], None], target: Path, staged: StagedFiles) -> None:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7, 4.5))
    try:
        draw(fig)
    except (ValueError, TypeError) as exc:  # say which output failed
        raise CommandError(f"--plot: {one_line(exc)}") from None
    fmt = target.suffix.lower().lstrip(".")

    def save(f: IO[bytes]) -> None:
        try:
            fig.savefig(f, format=fmt, dpi=150, bbox_inches="tight")
        except Exception as exc:  # e.g. .pgf without LaTeX, an image too large
            raise CommandError(f"--plot: cannot write the figure: {one_line(exc)}") from None

    staged.write(target, save)


def write_outputs(output: Output, targets: Mapping[str, Path]) -> str | None:
    """Write the figure (``--plot``) and the report (``--output``) whole or not at all;
    return the text for stdout (None when it went to ``--output``)."""
    text = output.text if output.text.endswith("\n") else output.text + "\n"
    with StagedFiles() as staged:
        if "--plot" in targets:
            if output.draw is None:
                raise CommandError("--plot: this command draws no figure")
            _save_figure(output.draw, targets["--plot"], staged)
        if "--output" in targets:
            data = text.encode("utf-8")
            staged.write(targets["--output"], lambda f: f.write(data))
        staged.commit()
    return None if "--output" in targets else text


# ---------------------------------------------------------------------------------------
# running a command


@contextlib.contextmanager
def collect_warnings() -> Iterator[list[str]]:
    """Warnings raised inside, each message once, as one line (:func:`one_line`), whatever
    the filters of the caller (``-W error`` included); rows left undefined are not warned
    about (the report gives their reasons)."""
    shown: list[str] = []

    def show(message: Any, *args: Any, **kwargs: Any) -> None:
        line = one_line(message)
        if line not in shown:
            shown.append(line)

    with warnings.catch_warnings():
        # every warning shown (never turned into an error by the caller's filters)...
        warnings.simplefilter("always")
        # ...but the undefined rows, whose reasons the report gives (checked first)
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        warnings.showwarning = show
        yield shown


def run_command(build: Callable[[argparse.Namespace], Output], args: argparse.Namespace) -> int:
    """Run a subcommand's ``build(args)`` and write what it returns; return the exit
    status. On failure nothing is printed on stdout and no output file is written: one
    line goes to stderr (``opsstats: error: ...``, status 2; ``opsstats: interrupted``,
    status 130 for Ctrl-C; an internal error, status 3). On success, warnings go to
    stderr, one line each (``opsstats: warning: ...``), then the report to stdout."""
    try:
        with collect_warnings() as shown:
            targets = check_outputs(args, [getattr(args, "file", "")])
            output = build(args)
            text = write_outputs(output, targets)
        for line in shown:
            print(f"opsstats: warning: {line}", file=sys.stderr)
        if text is not None:
            sys.stdout.write(text)
            sys.stdout.flush()
        if "--plot" in targets:
            print(f"figure written to {printable(args.plot)}", file=sys.stderr)
    except KeyboardInterrupt:
        print("opsstats: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # e.g. `opsstats report ... | head`: the reader left
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except MemoryError:
        print(
            "opsstats: error: not enough memory (fewer --n-resamples, or a smaller file)",
            file=sys.stderr,
        )
        return EXIT_ERROR
    except (CommandError, ValueError, TypeError, KeyError, OverflowError, OSError) as exc:
        print(f"opsstats: error: {one_line(exc) or type(exc).__name__}", file=sys.stderr)
        return EXIT_ERROR
    except Exception as exc:  # never a traceback; say it is ours
        print(
            f"opsstats: internal error ({type(exc).__name__}: {one_line(exc)}); please report it",
            file=sys.stderr,
        )
        return EXIT_INTERNAL
    return EXIT_OK


# ---------------------------------------------------------------------------------------
# the subcommands


def add_output_options(p: argparse.ArgumentParser) -> None:
    """``--format``, ``--output``, ``--plot`` and ``--digits``."""
    p.add_argument("--format", choices=FORMATS, default="text", help="output format (default text)")
    p.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="write the report to FILE instead of standard output (whole or not at all: "
        "a temporary file beside it is renamed when complete)",
    )
    p.add_argument(
        "--plot",
        metavar="OUT.png",
        help="also write a figure (format from the extension: .png, .pdf, .svg, ...): the "
        "OPS of each group with intervals (forest plot) when there are groups, else the "
        "PR curve over the reference band (scores) or the unit square of the first "
        "metric (predicted labels)",
    )
    p.add_argument(
        "--digits",
        type=digit_count,
        default=4,
        help=f"digits when printed, 0 to {MAX_DIGITS} (default 4; CSV and JSON keep full "
        "precision)",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="opsstats",
        description="Outperformance scores (o-values) of classifier metrics, with intervals.",
        epilog="Exit status: 0 on success, 2 for an error (one line on stderr), 130 if "
        "interrupted.",
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    rep = sub.add_parser("report", help="evaluate a CSV or Parquet file of predictions")
    rep.add_argument("file", help="a .csv, .tsv or .parquet file, one row per instance")
    rep.add_argument("--truth", required=True, metavar="COL", help="column of true labels")
    what = rep.add_mutually_exclusive_group(required=True)
    what.add_argument("--score", metavar="COL", help="column of scores")
    what.add_argument("--pred", metavar="COL", help="column of predicted labels")
    rep.add_argument(
        "--threshold",
        type=finite_float,
        metavar="T",
        help="predict positive where score >= T (confusion-matrix metrics)",
    )
    rep.add_argument(
        "--metric",
        action="append",
        metavar="NAME",
        help="metric to report (repeatable): a registered metric (f1, mcc, "
        "...), a curve area (roc_auc, pr_auc, lift_auc, gain_auc) or an "
        "operating point such as precision@recall=0.9; default: F1, MCC, "
        "precision, recall, balanced accuracy and/or ROC and PR AUC",
    )
    rep.add_argument(
        "--group",
        action="append",
        metavar="COL",
        help="grouping column (repeatable): one evaluation per group",
    )
    rep.add_argument(
        "--pos-label",
        metavar="LABEL",
        help="the positive class of --truth (and --pred) when it is not 1/True",
    )
    rep.add_argument(
        "--ci",
        choices=CI_CHOICES,
        default="dirichlet",
        help="interval method (default dirichlet; curves use, for the ROC "
        "and PR AUC, the Dirichlet posterior of each class's scores below "
        "100 rows of the smaller class (for the PR AUC with the lower "
        "end extended by its bias estimate) and the logit-scale DeLong or "
        "jackknife interval from 100 on, the percentile bootstrap "
        "otherwise, or DeLong's normal interval for the ROC AUC with --ci "
        "delong; none for no intervals)",
    )
    rep.add_argument(
        "--confidence-level", type=open_unit_float, default=0.95, help="(default 0.95)"
    )
    rep.add_argument(
        "--n-resamples",
        type=resample_count,
        default=1000,
        help=f"draws per interval, {MIN_RESAMPLES} to {MAX_RESAMPLES:_} (default 1000)",
    )
    rep.add_argument("--seed", type=seed_value, default=0, help="random seed (default 0)")
    rep.add_argument(
        "--engine",
        choices=("pandas", "duckdb"),
        default=None,
        help="how the file is read: duckdb (the default for a file, a directory or a glob "
        "of Parquet or CSV files) counts in DuckDB, embedded, and brings only the count "
        "tables into memory, so memory does not grow with the number of rows; pandas (the "
        "default for a pipe such as /dev/stdin, which can be read only once) reads the "
        "rows into memory",
    )
    rep.add_argument(
        "--memory-limit",
        type=memory_size,
        default=1.0,
        metavar="GB",
        help="DuckDB's memory limit in GB (default 1); beyond it DuckDB spills to a "
        "temporary directory",
    )
    rep.add_argument(
        "--bins",
        type=whole_number,
        metavar="K",
        help="curves from K equal-width score bins (counted by the engine); each curve "
        "row then states the range of the unbinned value",
    )
    rep.add_argument(
        "--max-distinct",
        type=whole_number,
        metavar="M",
        help="bin (into --bins bins, default 1000) only when a group has more than M "
        "distinct scores",
    )
    add_output_options(rep)
    rep.set_defaults(run=_report)

    add_compare_parser(sub)

    ex = sub.add_parser("example", help="the full report on the bundled affairs data")
    ex.add_argument(
        "--threshold",
        type=finite_float,
        default=0.5,
        help="score threshold for the confusion-matrix metrics (default 0.5)",
    )
    ex.add_argument("--ci", choices=CI_CHOICES, default="dirichlet")
    add_output_options(ex)
    ex.set_defaults(run=_example)
    return parser


def _report(args: argparse.Namespace) -> Output:
    if (args.engine or default_engine(args.file)) == "duckdb":
        return _report_in_duckdb(args)
    data = read_table(args.file)
    check_columns(data, args.file, _report_columns(args))
    rep = _run_report(args, data, parse_pos_label(data, args.truth, args.pos_label), "")
    return Output(
        rep.render(args.format, digits=args.digits),
        lambda fig: draw_report(fig, rep, data),
    )


def _run_report(args: argparse.Namespace, data: Any, pos_label: Any, note: str) -> Any:
    """The report of ``report``'s options on ``data`` (a pandas frame or a relation)."""
    return report(
        data,
        truth=args.truth,
        score=args.score,
        pred=args.pred,
        threshold=args.threshold,
        metrics=args.metric,
        by=args.group,
        pos_label=pos_label,
        ci=None if args.ci == "none" else args.ci,
        confidence_level=args.confidence_level,
        n_resamples=args.n_resamples,
        rng=args.seed,
        title=f"Evaluation of {args.file}{note}",
        bins=args.bins,
        max_distinct=args.max_distinct,
    )


def _report_columns(args: argparse.Namespace) -> dict[str, Any]:
    return {
        "--truth": args.truth,
        "--score": args.score,
        "--pred": args.pred,
        "--group": args.group,
    }


def _report_in_duckdb(args: argparse.Namespace) -> Output:
    """``report`` with the counting done by DuckDB (opsstats/frames.py): the rows never
    come into Python, so memory does not grow with their number. One file is checked as
    the pandas path checks it (:func:`read_file_relation`); the PR curve of ``--plot`` is
    built from DuckDB's count per distinct score (per bin with ``--bins``)."""
    if not args.file:
        raise CommandError("the file name is empty")
    # in memory; the relations need it alive. DuckDB's buffers are held to the limit,
    # and what does not fit is spilled to a temporary directory removed at exit
    spill = tempfile.mkdtemp(prefix="opsstats-duckdb-")
    atexit.register(shutil.rmtree, spill, ignore_errors=True)
    connection = _import_duckdb().connect(
        config={"memory_limit": f"{args.memory_limit}GB", "temp_directory": spill}
    )
    if is_dataset(args.file):
        relation = read_relation(args.file, connection)
    else:
        relation = read_file_relation(args.file, _report_columns(args), connection)
    pos_label = _relation_pos_label(relation, args.truth, args.pos_label)
    with _duckdb_errors(args.file):
        rep = _run_report(args, relation, pos_label, " (counted by DuckDB)")

    def curve() -> ScoreCurve:
        with _duckdb_errors(args.file):
            tables = count_tables(
                relation,
                truth=args.truth,
                score=args.score,
                pos_label=pos_label,
                curves=True,
                bins=args.bins,
                max_distinct=args.max_distinct,
            )
        assert tables.scores is not None
        return ScoreCurve.from_counts(*tables.scores[0])

    def draw(fig: Any, connection: Any = connection) -> None:  # the connection kept
        draw_report(fig, rep, None, curve=curve)

    return Output(rep.render(args.format, digits=args.digits), draw)


@contextlib.contextmanager
def _duckdb_errors(path: str) -> Iterator[None]:
    """DuckDB's errors while it reads ``path`` as one line (:func:`_duckdb_error`); its
    interruption (Ctrl-C) as ``KeyboardInterrupt``."""
    duckdb = _import_duckdb()
    try:
        yield
    except duckdb.InterruptException:
        raise KeyboardInterrupt from None
    except duckdb.Error as exc:
        raise _duckdb_error(exc, path) from None


def _example(args: argparse.Namespace) -> Output:
    ex = affairs_example(threshold=args.threshold)
    rep = ex.report(ci=None if args.ci == "none" else args.ci)
    data = ex.test_sets
    return Output(
        rep.render(args.format, digits=args.digits),
        lambda fig: draw_report(fig, rep, data),
    )


def draw_report(
    fig: Any,
    rep: EvaluationReport,
    data: pd.DataFrame | None,
    *,
    curve: Callable[[], ScoreCurve] | None = None,
) -> None:
    """The figure of a report: the forest plot of every group's OPS with groups; else
    the PR curve of the positive class (``pos_label``) over the reference band when
    there are scores, or the unit square of the first metric with a finite value. The
    curve is that of the rows of ``data``, or ``curve()`` (e.g. from an engine's count
    table); the other figures need neither."""
    table = rep.table
    if rep.by:
        if len(table) > MAX_FOREST_ROWS:
            raise CommandError(
                f"--plot: a forest plot of {len(table)} rows (groups x metrics) would be "
                f"unreadable; at most {MAX_FOREST_ROWS}: choose fewer --metric or --group"
            )
        fig.set_size_inches(7, max(4.5, 0.3 * len(table) + 1.6))
        plotting.plot_forest(table, ax=fig.subplots())
        return
    score = rep.settings.get("score")
    if score is not None:
        if curve is not None:
            pr = curve()
        else:
            assert data is not None
            pr = ScoreCurve.from_scores(
                data[rep.settings["truth"]], data[score], pos_label=rep.settings.get("pos_label")
            )
        ax = plotting.plot_curve(pr, "pr", ax=fig.subplots())
        pos_label = rep.settings.get("pos_label")
        if pos_label is not None:  # say which class's curve it is
            which = literal(f"positive class: {rep.settings['truth']} = {pos_label}")
            ax.set_title(f"{ax.get_title()}\n{which}", fontsize="medium")
        return
    finite = table[np.isfinite(table["value"].to_numpy(dtype=float))]
    if finite.empty:
        raise CommandError("--plot: nothing to plot: no metric has a finite value")
    first = finite.iloc[0]
    fig.set_size_inches(5.6, 6.6)
    plotting.plot_unit_square(
        first["metric"], first["value"], first["prevalence"], ax=fig.subplots()
    )


# ---------------------------------------------------------------------------------------
# opsstats compare


def add_compare_parser(sub: Any) -> None:
    """``opsstats compare FILE --truth COL (--score COL --score COL ... | --pred COL ...)``,
    or one ``--score``/``--pred`` with ``--between COL`` for independent test sets."""
    cmp = sub.add_parser(
        "compare",
        help="compare classifiers on the same rows, or test sets (--between)",
    )
    cmp.add_argument("file", help="a .csv, .tsv or .parquet file, one row per instance")
    cmp.add_argument("--truth", required=True, metavar="COL", help="column of true labels")
    what = cmp.add_mutually_exclusive_group(required=True)
    what.add_argument(
        "--score",
        action="append",
        metavar="COL",
        help="column of a classifier's scores (repeat for each classifier)",
    )
    what.add_argument(
        "--pred",
        action="append",
        metavar="COL",
        help="column of a classifier's predicted labels (repeat for each classifier)",
    )
    cmp.add_argument(
        "--between",
        metavar="COL",
        help="compare the test sets this column defines (e.g. a month), one --score or "
        "--pred, independent (unpaired) comparisons",
    )
    cmp.add_argument(
        "--metric",
        metavar="NAME",
        help="what to compare (default roc_auc with --score, f1 with --pred)",
    )
    cmp.add_argument("--ops", action="store_true", help="compare the OPS of the metric")
    cmp.add_argument(
        "--method",
        choices=COMPARE_METHODS,
        default="auto",
        help="default auto: DeLong's statistic on Student's t (Satterthwaite df) for the "
        "ROC AUC (delong: pROC's reference distribution), the paired bootstrap for other "
        "curve quantities, the Dirichlet posterior for confusion-matrix metrics",
    )
    cmp.add_argument("--alternative", choices=("two-sided", "greater", "less"), default="two-sided")
    cmp.add_argument(
        "--rope",
        nargs=2,
        type=finite_float,
        metavar=("LOW", "HIGH"),
        help="region of practical equivalence of the difference (Dirichlet method)",
    )
    cmp.add_argument("--adjust", choices=("holm", "bonferroni"), default="holm")
    cmp.add_argument("--pos-label", metavar="LABEL", help="the positive class of --truth")
    cmp.add_argument(
        "--confidence-level", type=open_unit_float, default=0.95, help="(default 0.95)"
    )
    cmp.add_argument(
        "--n-resamples",
        type=resample_count,
        default=2000,
        help=f"draws, {MIN_RESAMPLES} to {MAX_RESAMPLES:_} (default 2000)",
    )
    cmp.add_argument("--seed", type=seed_value, default=0, help="random seed (default 0)")
    add_output_options(cmp)
    cmp.set_defaults(run=_compare)


def _compare(args: argparse.Namespace) -> Output:
    data = read_table(args.file)
    columns = args.score or args.pred
    check_columns(
        data,
        args.file,
        {
            "--truth": args.truth,
            "--score": args.score,
            "--pred": args.pred,
            "--between": args.between,
        },
        complete=("--truth", "--score", "--pred", "--between"),
    )
    option = "--score" if args.score else "--pred"
    if len(set(columns)) < len(columns):
        raise CommandError(f"{option}: a column is named twice")
    metric = args.metric or ("roc_auc" if args.score else "f1")
    pos_label = parse_pos_label(data, args.truth, args.pos_label)
    common: dict[str, Any] = {
        "metric": metric,
        "ops": args.ops,
        "method": args.method,
        "alternative": args.alternative,
        "confidence_level": args.confidence_level,
        "n_resamples": args.n_resamples,
        "rope": args.rope,
        "adjust": args.adjust,
        "pos_label": pos_label,
        "rng": args.seed,
    }
    if args.between is not None:
        if len(columns) != 1:
            raise CommandError(f"--between compares test sets: give one {option}")
        groups = {
            str(k): (g[args.truth].to_numpy(), g[columns[0]].to_numpy())
            for k, g in data.groupby(args.between, sort=True)
        }
        if len(groups) < 2:
            raise CommandError(
                f"--between {args.between!r} has {len(groups)} value(s); 2 or more needed"
            )
        result = compare_test_sets(groups, **common)
    else:
        if len(columns) < 2:
            raise CommandError(f"give {option} at least twice (the classifiers to compare)")
        arrays = {c: data[c].to_numpy() for c in columns}
        y = data[args.truth].to_numpy()
        if args.score:
            result = compare(y, arrays, **common)
        else:
            result = compare(y, y_pred=arrays, **common)
    return Output(
        render_comparison(result, args.format, args.digits),
        lambda fig: result.plot(ax=fig.subplots()),
    )


def render_comparison(result: ComparisonResult | ComparisonTable, fmt: str, digits: int) -> str:
    """The comparison as text (R's printed test, or the table of pairs), CSV, JSON or
    HTML."""
    if fmt == "text":
        if isinstance(result, ComparisonResult):
            return result.to_string(digits)
        return result.summary(digits).as_text()
    if fmt == "html":
        return result.summary(digits).as_html()
    frame = result.to_frame()
    if fmt == "csv":
        return frame.to_csv(index=False, quoting=1)
    return frame.to_json(orient="records", indent=2)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``opsstats`` command with ``argv`` (default ``sys.argv[1:]``) and return its
    exit status: 0 on success, 2 for an error (printed as one line on stderr), 130 when
    interrupted, 3 for an internal error.

    Examples
    --------
    >>> import os, tempfile
    >>> import pandas as pd
    >>> path = os.path.join(tempfile.mkdtemp(), "predictions.csv")
    >>> pd.DataFrame({"y": [1, 0, 1, 0, 1], "p": [1, 0, 0, 0, 1]}).to_csv(path, index=False)
    >>> main(["report", path, "--truth", "y", "--pred", "p", "--metric", "recall",
    ...       "--ci", "none", "--format", "csv"])  # doctest: +ELLIPSIS
    "metric","n","prevalence","value",...
    0
    """
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help (status 0) or a usage error, printed as one line (2)
        return exc.code if isinstance(exc.code, int) else EXIT_ERROR
    return run_command(args.run, args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
