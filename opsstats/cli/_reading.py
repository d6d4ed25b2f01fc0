"""Reading the input: a CSV or Parquet file into pandas with the strict checks, the
choice of engine, and a DuckDB relation over a directory or glob of files."""

from __future__ import annotations

import argparse
import contextlib
import io
import signal
import threading
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import numpy as np

from .._lazy import lazy_module
from .._summary import printable
from ._arguments import (
    _CSV_SUFFIXES,
    _PARQUET_SUFFIXES,
    CommandError,
    finite_float,
    one_line,
    whole_number,
)

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = lazy_module("pandas")

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


def csv_header(source: Any, path: str, sep: str) -> list[str]:
    """The names of a CSV file's header line as written (pandas' parser, nothing else
    read), refused when one is used twice (pandas would rename the second ``y`` to
    ``y.1``, DuckDB to ``y_1``)."""
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
    names = list(header.iloc[0]) if len(header) else []
    _duplicates(names, path)
    return names


def _read_csv(source: Any, path: str, sep: str) -> pd.DataFrame:
    compression = "gzip" if path.lower().endswith(".gz") else None
    csv_header(source, path, sep)
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


def _describe_names(columns: Sequence[Any]) -> str:
    names = [printable(str(c)) for c in columns]
    shown = ", ".join(names[:20])
    return shown + (f", ... ({len(names)} columns)" if len(names) > 20 else "")


def no_such_column(option: str, column: str, path: str, names: Sequence[Any]) -> CommandError:
    """The error of an option naming a column the file (its columns ``names``) lacks."""
    return CommandError(
        f"{option} {column!r}: {path} has no such column; its columns: {_describe_names(names)}"
    )


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
                raise no_such_column(option, column, path, list(data.columns))
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
