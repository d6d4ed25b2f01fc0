"""The DuckDB connection of ``report`` and ``monitor`` and their relation over a file, a
directory or a glob; one file read through DuckDB with the checks of the pandas path,
made by queries with the same messages; a CSV's columns typed as pandas types them."""

from __future__ import annotations

import atexit
import contextlib
import gzip
import os
import re
import shutil
import tempfile
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ._arguments import _PARQUET_SUFFIXES, CommandError, one_line
from ._reading import (
    _check_file_name,
    _duplicates,
    _import_duckdb,
    _InterruptNote,
    _reading_error,
    csv_header,
    is_dataset,
    no_such_column,
    read_relation,
)

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


def open_duckdb(
    path: str,
    options: Mapping[str, str | Sequence[str] | None],
    memory_limit: float,
    *,
    complete: Collection[str] = ("--truth", "--score", "--pred"),
) -> tuple[Any, Any]:
    """``(relation, connection)``: a DuckDB relation over ``path`` on a new in-memory
    connection (which must outlive it), its buffers held to ``memory_limit`` GB and what
    does not fit spilled to a temporary directory removed at exit. One file is checked
    as the pandas path checks it (:func:`read_file_relation`, the columns ``options``
    names, those of ``complete`` without missing values); a directory or a glob is read
    by :func:`read_relation`."""
    if not path:
        raise CommandError("the file name is empty")
    spill = tempfile.mkdtemp(prefix="opsstats-duckdb-")
    atexit.register(shutil.rmtree, spill, ignore_errors=True)
    connection = _import_duckdb().connect(
        config={"memory_limit": f"{memory_limit}GB", "temp_directory": spill}
    )
    if is_dataset(path):
        return read_relation(path, connection), connection
    return read_file_relation(path, options, connection, complete=complete), connection


@contextlib.contextmanager
def duckdb_errors(path: str) -> Iterator[None]:
    """DuckDB's errors while it reads ``path`` as one line (:func:`_duckdb_error`); its
    interruption (Ctrl-C) as ``KeyboardInterrupt``."""
    duckdb = _import_duckdb()
    try:
        yield
    except duckdb.InterruptException:
        raise KeyboardInterrupt from None
    except duckdb.Error as exc:
        raise _duckdb_error(exc, path) from None


def distinct_values(relation: Any, option: str, column: str, path: str) -> list[Any]:
    """The distinct values of the column ``option`` names in a DuckDB relation over
    ``path`` (a query; only they come into Python); a column the relation lacks is
    refused as :func:`check_columns` refuses it."""
    if column not in relation.columns:
        raise no_such_column(option, column, path, list(relation.columns))
    with duckdb_errors(path):
        return [row[0] for row in relation.project(_sql_name(column)).distinct().fetchall()]


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
                    raise no_such_column(option, column, path, list(refs))
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
            names = csv_header(path, path, sep)
            skip = _blank_lines(path, gz)
        except Exception as exc:
            if interrupted:
                raise KeyboardInterrupt from None
            _reading_error(exc, path)
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
