"""`opsstats report` through DuckDB, the default engine for files: a directory or glob of
Parquet files, or one CSV or Parquet file, gives the report of the same rows read by
pandas (--engine pandas; same numbers, same layout); bad input is one line on stderr and
exit 2, for one file the same line as pandas'."""

from __future__ import annotations

import csv
import os
import subprocess
import sys

import duckdb
import numpy as np
import pandas as pd
import pytest

from opsstats import DirectedBinaryTree, ScoreCurve, cli
from opsstats.cli import _duckdb_file
from tests.test_cli import ROOT, assert_one_line_error, invoke, opts


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    root = tmp_path_factory.mktemp("dataset")
    rng = np.random.default_rng(0)
    frames = []
    for day in (1, 2, 3):
        n = 2000
        y = rng.random(n) < 0.05 * day
        df = pd.DataFrame(
            {
                "y": y.astype(int),
                "s": np.round(rng.normal(y * 1.5, 1), 3),
                "seg": rng.choice(["a", "b"], n),
            }
        )
        (root / f"day={day}").mkdir()
        df.to_parquet(root / f"day={day}" / "part.parquet")
        frames.append(df.assign(day=day))
    whole = pd.concat(frames, ignore_index=True)
    whole.to_csv(root / "all.csv", index=False)
    return root


def _rule(lines: list[str]) -> int:
    """Where the rule under the title is (the title wraps at the terminal's width)."""
    return next(i for i, line in enumerate(lines) if line and set(line) == {"="})


def _title(text: str) -> str:
    """The title, its lines joined (it is broken at spaces only)."""
    lines = text.splitlines()
    return " ".join(lines[: _rule(lines)])


def _body(text: str) -> str:
    """Without the title and the rules, whose widths follow the title's."""
    lines = text.splitlines()
    lines = lines[_rule(lines) + 1 :]
    return "\n".join(line for line in lines if set(line) - set("-="))


@pytest.mark.parametrize(
    "options",
    [
        "--threshold 0.5 --group seg --group day --metric f1 --metric mcc",
        "--group day --metric roc_auc --metric pr_auc --ci none",
        "--threshold 0.2 --metric precision",
    ],
)
def test_directory_and_glob_equal_the_pandas_report(dataset, options):
    status, pandas_out, err = invoke(
        "report",
        dataset / "all.csv",
        "--truth",
        "y",
        "--score",
        "s",
        "--engine",
        "pandas",
        *options.split(),
    )
    assert status == 0, err
    for source in (str(dataset), str(dataset / "day=*" / "*.parquet")):
        status, out, err = invoke(
            "report", source, "--truth", "y", "--score", "s", *options.split()
        )
        assert status == 0, err
        assert "(counted by DuckDB)" in _title(out)
        assert _body(out) == _body(pandas_out)
    status, out, err = invoke(
        "report",
        dataset / "all.csv",
        "--truth",
        "y",
        "--score",
        "s",
        "--engine",
        "duckdb",
        *options.split(),
    )
    assert status == 0, err
    assert "(counted by DuckDB)" in _title(out)
    assert _body(out) == _body(pandas_out)


@pytest.mark.parametrize(
    ("args", "starts"),
    [
        (["--truth", "nope", "--score", "s"], "--truth names a column"),
        (["--truth", "y", "--score", "seg"], "--score (column 'seg') must be numeric"),
        (["--truth", "seg", "--score", "s"], "--pos-label must be given"),
    ],
)
def test_bad_input_is_one_line(dataset, args, starts):
    assert_one_line_error(*invoke("report", dataset, *args), starts=starts)


def test_no_files_and_bad_types(dataset, tmp_path):
    assert_one_line_error(
        *invoke("report", tmp_path / "none" / "*.parquet", "--truth", "y", "--score", "s"),
        starts="cannot read",
    )
    (tmp_path / "empty").mkdir()
    assert_one_line_error(
        *invoke("report", tmp_path / "empty", "--truth", "y", "--score", "s"),
        starts=f"{tmp_path / 'empty'} is a directory without Parquet files",
    )
    (tmp_path / "x.json").write_text("{}")
    assert_one_line_error(
        *invoke(
            "report", tmp_path / "x.json", "--truth", "y", "--score", "s", "--engine", "duckdb"
        ),
        starts=f"{tmp_path / 'x.json'}: unsupported file type",
    )


def test_plot_draws_the_curve_from_the_count_table(dataset, tmp_path, monkeypatch):
    """Without groups, the PR curve of a directory is built from DuckDB's count per
    distinct score: the curve of the rows (all.csv read by pandas); with groups, the
    forest plot."""
    drawn = []
    real = cli.plotting.plot_curve
    small_dbt = DirectedBinaryTree(depth=5, n_curves=2000)

    def plot_curve(curve, *args, **kwargs):
        drawn.append(curve)  # over a small reference: the default's band takes ~10 s
        return real(curve, *args, reference=small_dbt, **kwargs)

    monkeypatch.setattr(cli.plotting, "plot_curve", plot_curve)
    options = opts("--truth y --score s --metric roc_auc --ci none --plot")
    status, _, err = invoke("report", dataset, *options, tmp_path / "f.png")
    assert status == 0, err
    assert (tmp_path / "f.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    rows = pd.read_csv(dataset / "all.csv")
    assert drawn[-1] == ScoreCurve.from_scores(rows["y"], rows["s"])
    status, _, err = invoke(
        "report",
        dataset,
        "--truth",
        "y",
        "--score",
        "s",
        "--threshold",
        "0.5",
        "--metric",
        "f1",
        "--group",
        "day",
        "--plot",
        tmp_path / "g.png",
    )
    assert status == 0, err
    assert (tmp_path / "g.png").stat().st_size > 0


def test_cli_bins_print_the_range(dataset):
    status, out, err = invoke(
        "report",
        dataset,
        "--truth",
        "y",
        "--score",
        "s",
        "--metric",
        "roc_auc",
        "--bins",
        "20",
        "--ci",
        "none",
    )
    assert status == 0, err
    out = " ".join(out.split())  # printed notes are wrapped at 100 columns
    assert "scores in 20 equal-width bins (ties inside a bin): the unbinned value lies in [" in out
    status, out, err = invoke(
        "report",
        dataset,
        "--truth",
        "y",
        "--score",
        "s",
        *("--metric", "pr_auc", "--metric", "lift_auc", "--metric", "gain_auc"),
        *("--metric", "precision@recall=0.5", "--metric", "recall@fpr=0.1"),
        "--bins",
        "20",
        "--ci",
        "none",
    )
    assert status == 0, err
    out = " ".join(out.split())
    assert out.count("equal-width bins (ties inside a bin): the unbinned value lies in [") == 5
    assert_one_line_error(
        *invoke("report", dataset, "--truth", "y", "--score", "s", "--bins", "1"),
        starts="--bins must be an integer >= 2",
    )


# ------------------------------------------- one file: DuckDB (the default) and pandas


@pytest.fixture(scope="module")
def single(tmp_path_factory):
    """One CSV and one Parquet file of the same rows: integer, string and boolean
    labels, groups of strings, integers and booleans, groups with missing values, and a
    label column with a missing value."""
    folder = tmp_path_factory.mktemp("single")
    rng = np.random.default_rng(3)
    n = 600
    y = rng.random(n) < 0.3
    s = np.round(rng.normal(y * 1.2, 1), 3)
    site = rng.choice(["north", "south", "=east"], n)
    df = pd.DataFrame(
        {
            "y": y.astype(int),
            "s": s,
            "lab": np.where(y, "sick", "well"),
            "flag": y,
            "pflag": s > 0.5,
            "p": (s > 0.5).astype(int),
            "site": site,
            "code": rng.choice([-1, -2, 7], n),
            "site_na": np.where(rng.random(n) < 0.1, None, site),
            "code_na": np.where(rng.random(n) < 0.1, np.nan, rng.choice([1.0, 2.0], n)),
            "y_na": np.where(np.arange(n) == 17, np.nan, y.astype(float)),
        }
    )
    df.to_csv(folder / "rows.csv", index=False)
    df.to_parquet(folder / "rows.parquet")
    return folder


SINGLE_OPTIONS = [
    "--truth y --score s --threshold 0.5 --group site --group code --metric f1 --metric mcc",
    "--truth lab --pos-label sick --score s --metric roc_auc --metric pr_auc --ci none",
    "--truth lab --pos-label well --score s --threshold 0 --metric precision --group site",
    "--truth flag --pos-label false --pred pflag --metric f1 --metric recall",
    "--truth flag --score s --threshold 0.5 --metric balanced_accuracy --group site_na",
    "--truth y --pos-label 0 --pred p --metric f1 --group code_na --ci bootstrap --n-resamples 200",
    "--truth y --score s --bins 20 --metric roc_auc --metric pr_auc --ci none --group site",
    "--truth y --score s --threshold 0.5 --metric f1 --format csv --group site_na",
]


@pytest.mark.parametrize("name", ["rows.csv", "rows.parquet"])
@pytest.mark.parametrize("options", SINGLE_OPTIONS)
def test_one_file_by_default_equals_the_pandas_report(single, name, options):
    """A single file goes through DuckDB by default: the same report, line for line, as
    --engine pandas, but for the title's note."""
    args = ["report", single / name, *options.split()]
    status, out, err = invoke(*args)
    pandas_status, pandas_out, pandas_err = invoke(*args, "--engine", "pandas")
    assert status == pandas_status == 0, (err, pandas_err)
    assert err == pandas_err
    if "--format" not in options:
        assert _title(out) == f"Evaluation of {single / name} (counted by DuckDB)"
        assert _title(pandas_out) == f"Evaluation of {single / name}"
        out, pandas_out = _body(out), _body(pandas_out)
    assert out == pandas_out


@pytest.mark.parametrize("name", ["rows.csv", "rows.parquet"])
@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            "--truth y_na --score s",
            "--truth column 'y_na' has 1 missing value(s), the first in data row 18",
        ),
        ("--truth y --score lab", "--score column 'lab' must hold numbers; data row 1 holds "),
        (
            "--truth label --score s",
            "--truth 'label': {path} has no such column; its columns: "
            "y, s, lab, flag, pflag, p, site, code, site_na, code_na, y_na",
        ),
        ("--truth y --score s --group nope", "--group 'nope': {path} has no such column"),
        (
            "--truth y --score s --pos-label x",
            "--pos-label 'x' is not a value of column 'y' (dtype int64)",
        ),
        (
            "--truth flag --score s --pos-label maybe",
            "--pos-label 'maybe' is not a value of column 'flag' (dtype bool)",
        ),
        ("--truth lab --score s --pos-label ill", "--pos-label must be one of the labels"),
        ("--truth lab --pos-label sick --pred p", "labels must be all strings or all numbers"),
    ],
)
def test_one_file_errors_equal_the_pandas_errors(single, name, options, message):
    path = single / name
    args = ["report", path, *options.split()]
    line = assert_one_line_error(*invoke(*args), message.format(path=path))
    assert line == assert_one_line_error(*invoke(*args, "--engine", "pandas"))


def test_one_file_is_not_read_into_python(single, monkeypatch):
    """Through DuckDB the rows stay in the engine: pandas parses only the header line of
    a CSV file (its names) and nothing of a Parquet file."""

    def refused(*args, **kwargs):
        raise AssertionError("the rows were read by pandas")

    rows_read = []
    real = cli.pd.read_csv

    def read_csv(*args, **kwargs):
        rows_read.append(kwargs.get("nrows"))
        return real(*args, **kwargs)

    monkeypatch.setattr(cli, "read_table", refused)
    monkeypatch.setattr(cli.pd, "read_parquet", refused)
    monkeypatch.setattr(cli.pd, "read_csv", read_csv)
    for name in ("rows.csv", "rows.parquet"):
        status, out, err = invoke(
            "report", single / name, *opts("--truth y --score s --group site --ci none")
        )
        assert status == 0, err
        assert "(counted by DuckDB)" in _title(out)
    assert rows_read == [1]


CELLS = {  # a CSV column's cells, and the type pandas' reader gives it
    "integers": ["1", "0", "-3", "+4", " 7 ", "007", "1\t"],
    "integers and a missing value": ["1", "", "0"],
    "numbers": ["1.5", "1.", ".5", "1e5", "1E-3", "-0", " 2.5 "],
    "infinities": ["inf", "-Inf", "+INFINITY", "infinity", "1"],
    "booleans": ["True", "false", "TRUE", "False", "true", "FALSE"],
    "booleans and a missing value": ["True", "NA", "False"],
    "text": ["a", "1", "True", "2.5"],
    "missing-value markers": [*cli.CSV_MISSING, "x"],
    "not numbers to pandas": ["0x10", "1_000", "1d5", "1e", ".", "1,5"],
    "64-bit unsigned": ["9223372036854775808", "1"],
    "64-bit unsigned and a negative": ["9223372036854775808", "-1"],
    "beyond 64 bits": ["18446744073709551616", "1"],
    "beyond 64 bits, then a decimal": ["18446744073709551616", "0.5"],
    "the ends of int64": ["-9223372036854775808", "9223372036854775807"],
    "every cell missing": ["", "nan", "NA"],
}


def test_the_missing_value_markers_are_pandas():
    from pandas._libs.parsers import STR_NA_VALUES

    assert set(cli.CSV_MISSING) == set(STR_NA_VALUES)


@pytest.mark.parametrize("cells", CELLS.values(), ids=CELLS)
def test_csv_columns_are_typed_as_pandas_types_them(tmp_path, cells):
    """DuckDB reads every cell of a CSV file as text and types each column from all of
    its cells by pandas' rules: the same values, of the same kind (integer, unsigned,
    float, boolean, text)."""
    path = tmp_path / "cells.csv"
    with open(path, "w", newline="") as f:
        csv.writer(f).writerows([["a", "b"], *([c, i] for i, c in enumerate(cells))])
    expected = pd.read_csv(path)["a"]
    connection = duckdb.connect()
    got = _duckdb_file.read_file_relation(str(path), {"--group": ["a"]}, connection).df()["a"]

    def kind(values):  # pandas keeps booleans and a missing value as objects
        if values.dtype.kind in "iufb":
            return values.dtype.kind
        return "b" if all(isinstance(v, bool) for v in values.dropna()) else "text"

    def shown(values):
        return [None if pd.isna(v) else str(v) for v in values]

    assert (kind(got), shown(got)) == (kind(expected), shown(expected))


@pytest.mark.parametrize("name", ["rows.csv", "rows.parquet"])
def test_duckdb_needs_no_pyarrow(single, name):
    """pyarrow is optional (the parquet extra): without it the DuckDB path brings its
    count tables to pandas through DuckDB's own conversion, with the same report."""
    block = (
        "import sys; sys.modules['pyarrow'] = None; from opsstats.cli import main; "
        "sys.exit(main(sys.argv[1:]))"
    )
    for options in (SINGLE_OPTIONS[0], SINGLE_OPTIONS[1], SINGLE_OPTIONS[4]):
        args = ["report", str(single / name), *options.split()]
        r = subprocess.run(
            [sys.executable, "-c", block, *args],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            timeout=300,
        )
        assert r.returncode == 0, r.stderr
        assert r.stdout == invoke(*args)[1]


def test_duckdb_memory_limit(dataset, monkeypatch):
    """DuckDB's buffers are held to --memory-limit (default 1 GB), spilling to a
    temporary directory; the report does not change; a bad limit is one line."""
    seen = []
    real = _duckdb_file._import_duckdb()

    class Recording:
        Error, InterruptException = real.Error, real.InterruptException

        def __getattr__(self, name):
            return getattr(real, name)

        def connect(self, *args, **kwargs):
            seen.append(kwargs.get("config"))
            return real.connect(*args, **kwargs)

    monkeypatch.setattr(_duckdb_file, "_import_duckdb", lambda: Recording())
    common = ["report", dataset, "--truth", "y", "--score", "s", "--group", "day"]
    status, default_out, err = invoke(*common)
    assert status == 0, err
    status, small_out, err = invoke(*common, "--memory-limit", "0.1")
    assert status == 0, err
    assert small_out == default_out
    assert [c["memory_limit"] for c in seen] == ["1.0GB", "0.1GB"]
    assert all(os.path.basename(c["temp_directory"]).startswith("opsstats-duckdb-") for c in seen)
    for bad, says in (
        ("0", "expected a memory limit in GB from 0.05 to 1024; got 0"),
        ("-1", "expected a memory limit in GB from 0.05 to 1024; got -1"),
        ("nan", "expected a finite number; got 'nan'"),
        ("lots", "expected a number; got 'lots'"),
    ):
        line = assert_one_line_error(*invoke(*common, "--memory-limit", bad))
        assert line.endswith(f"argument --memory-limit: {says}"), line
