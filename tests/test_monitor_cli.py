"""``opsstats monitor``: the numbers are :func:`opsstats.monitor`'s, the HTML report is one
self-contained file (no outside reference, its figures embedded), and bad input gives one
line and exit 2 (or, for a period with one class, a row with its reason)."""

from __future__ import annotations

import base64
import contextlib
import io
import json
import re
import warnings

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
import pytest

from opsstats import monitor
from opsstats._csv import to_csv
from opsstats.cli import main

MONTHS = ["2024-01", "2024-02", "2024-03"]


def invoke(*args) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main([str(a) for a in args])
    return status, out.getvalue(), err.getvalue()


def one_line_error(args: list, contains: str) -> None:
    status, out, err = invoke(*args)
    assert status == 2 and out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("opsstats: error: "), err
    assert contains in lines[0], lines[0]


@pytest.fixture(scope="module")
def data() -> pd.DataFrame:
    """Three months (prevalences 0.1, 0.3, 0.3), the third with a worse classifier; two
    segments."""
    rng = np.random.default_rng(7)
    month = np.repeat(MONTHS, 1200)
    y = rng.random(month.size) < np.where(month == MONTHS[0], 0.1, 0.3)
    d = np.where(month == MONTHS[2], 0.6, 1.5)
    return pd.DataFrame(
        {
            "month": month,
            "y": y.astype(int),
            "s": rng.normal(d * y, 1),
            "segment": rng.choice(["north", "south"], month.size),
        }
    )


@pytest.fixture(scope="module")
def path(data, tmp_path_factory):
    p = tmp_path_factory.mktemp("monitor") / "predictions.csv"
    data.to_csv(p, index=False)
    return p


COMMON = ["--truth", "y", "--score", "s", "--threshold", "1.0", "--time", "month"]


def test_csv_is_monitors_table(data, path):
    status, out, err = invoke(
        "monitor", path, *COMMON, "--metric", "f1", "--n-resamples", "200", "--format", "csv"
    )
    assert status == 0 and err == ""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = monitor(
            data, truth="y", score="s", threshold=1.0, time="month", metrics=["f1"],
            n_resamples=200, rng=0,
        )  # fmt: skip
    assert out == to_csv(res.to_frame())
    back = pd.read_csv(io.StringIO(out))
    assert back["classifier_changed"].tolist()[0] != back["classifier_changed"].tolist()[0]  # NaN
    assert back["classifier_changed"].tolist()[1:] == [False, True]


def test_json_and_text(path):
    status, out, _ = invoke("monitor", path, *COMMON, "--metric", "mcc", "--format", "json")
    doc = json.loads(out)
    assert status == 0 and doc["settings"]["baseline"] == "2024-01"
    assert [r["classifier_changed"] for r in doc["rows"]] == [None, False, True]
    status, out, _ = invoke("monitor", path, *COMMON, "--metric", "mcc", "--baseline", "2024-02")
    assert status == 0 and "baseline '2024-02'" in out
    assert max(len(line) for line in out.splitlines()) <= 100


def test_html_is_self_contained_and_embeds_its_figures(path, tmp_path):
    html = tmp_path / "report.html"
    plot = tmp_path / "plot.png"
    status, out, err = invoke(
        "monitor", path, *COMMON, "--group", "segment", "--metric", "f1", "--html", html,
        "--plot", plot,
    )  # fmt: skip
    assert status == 0 and "report written to" in err
    text = html.read_text(encoding="utf-8")
    assert "http" not in text.lower()
    # every src or href is embedded data; one figure per group, each a PNG
    refs = re.findall(r'(?:src|href)="([^"]*)"', text)
    assert refs and all(r.startswith("data:image/png;base64,") for r in refs)
    assert len(refs) == 2
    for r in refs:
        assert base64.b64decode(r.split(",", 1)[1]).startswith(b"\x89PNG\r\n\x1a\n")
    assert "<script" not in text and "@import" not in text and "url(" not in text
    assert "north" in text and "south" in text and "2024-03" in text
    # the title once in the page (its heading), the table under it with its own caption
    body = text.split("<body>", 1)[1]
    assert body.count("Monitoring across") == 1 and "<h1>Monitoring across" in body
    assert body.count("<strong>Per period and metric</strong>") == 1
    assert plot.read_bytes().startswith(b"\x89PNG")
    # --format html writes the same document to stdout
    status, out, _ = invoke("monitor", path, *COMMON, "--metric", "f1", "--format", "html")
    assert status == 0 and out.startswith("<!DOCTYPE html>") and "http" not in out


def test_no_time_column(path, tmp_path):
    html = tmp_path / "r.html"
    one_line_error(
        ["monitor", path, "--truth", "y", "--score", "s", "--time", "week", "--html", html],
        "--time 'week'",
    )
    assert not html.exists()


def test_one_period(data, tmp_path):
    p = tmp_path / "one.csv"
    data[data["month"] == MONTHS[0]].to_csv(p, index=False)
    one_line_error(["monitor", p, *COMMON], "has 1 period(s); monitoring needs 2 or more")


def test_period_with_one_class_is_a_row_with_its_reason(data, tmp_path):
    p = tmp_path / "oneclass.csv"
    d = data.copy()
    d.loc[d["month"] == MONTHS[1], "y"] = 0
    d.to_csv(p, index=False)
    status, out, err = invoke("monitor", p, *COMMON, "--metric", "f1", "--format", "csv")
    assert status == 0 and err == ""  # undefined rows are not warned about: the row says why
    back = pd.read_csv(io.StringIO(out), keep_default_na=False)
    row = back[back["month"] == MONTHS[1]].iloc[0]
    assert row["reason"].startswith("no positives") and row["p_value"] == ""


def test_bad_arguments(path):
    one_line_error(["monitor", path, *COMMON, "--baseline", "2023-12"], "--baseline '2023-12'")
    one_line_error(
        ["monitor", path, "--truth", "y", "--pred", "y", "--threshold", "1", "--time", "month"],
        "--threshold applies to --score",
    )
    one_line_error(["monitor", path, "--truth", "y", "--score", "s"], "--time")


# ---------------------------------------------------------------------------------------
# the engines: DuckDB (the default for a file, a directory or a glob) and pandas


@pytest.fixture(scope="module")
def files(data, tmp_path_factory):
    """The data as one Parquet file with the period written four ways (text, an integer,
    a date, a timestamp), as a CSV file, and as a directory of Parquet files (one per
    month)."""
    folder = tmp_path_factory.mktemp("monitor_engines")
    d = data.copy()
    d["month_int"] = d["month"].str.replace("-", "").astype(int)
    d["month_date"] = pd.to_datetime(d["month"] + "-01").dt.date
    d["month_time"] = pd.to_datetime(d["month"] + "-01")
    d.to_parquet(folder / "all.parquet", index=False)
    d.drop(columns=["month_date", "month_time"]).to_csv(folder / "all.csv", index=False)
    (folder / "months").mkdir()
    for m, part in d.groupby("month"):
        part.to_parquet(folder / "months" / f"part-{m}.parquet", index=False)
    return folder


ENGINE_CASES = {
    "labels, groups, baseline": (
        "month", ["--threshold", "1.0", "--group", "segment", "--metric", "f1", "--metric",
                  "mcc", "--baseline", "2024-02"],
    ),
    "curves": ("month", ["--metric", "roc_auc", "--metric", "pr_auc"]),
    "integer periods": ("month_int", ["--threshold", "1.0", "--metric", "f1", "--baseline",
                                      "202403"]),
    "date periods": ("month_date", ["--threshold", "1.0", "--metric", "f1", "--baseline",
                                    "2024-02-01"]),
    "timestamp periods": ("month_time", ["--threshold", "1.0", "--metric", "precision"]),
}  # fmt: skip


@pytest.mark.parametrize("case", list(ENGINE_CASES))
def test_duckdb_and_pandas_give_the_same_tables(files, case):
    """Every format's output through DuckDB (the default; a Parquet file, a CSV file, a
    directory of Parquet files) is the output of --engine pandas on the Parquet file, and
    that is :func:`opsstats.monitor`'s table on the rows (test_csv_is_monitors_table)."""
    time, options = ENGINE_CASES[case]
    sources = [files / "all.parquet", files / "months"]
    if time in ("month", "month_int"):  # a CSV file has no dates: those are text in it
        sources.append(files / "all.csv")
    args = ["--truth", "y", "--score", "s", "--time", time, *options, "--n-resamples", "200"]
    for fmt in ("csv", "json", "text"):
        status, expected, err = invoke(
            "monitor", files / "all.parquet", *args, "--format", fmt, "--engine", "pandas"
        )
        assert status == 0 and err == "", err
        for source in sources:
            status, out, err = invoke("monitor", source, *args, "--format", fmt)
            assert status == 0 and err == "", (source, err)
            assert out == expected, (source, fmt)
    back = pd.read_csv(io.StringIO(invoke("monitor", files / "months", *args, "--format",
                                          "csv")[1]))  # fmt: skip
    assert len(back) == 3 * len([o for o in options if o == "--metric"]) * (
        2 if "--group" in options else 1
    )


BAD_ENGINE_CASES = {
    "no time column": (["--time", "week"], "--time 'week': {path} has no such column"),
    "missing period": (["--time", "gappy"], "--time column 'gappy' has 1 missing value(s), "
                       "the first in data row 5"),
    "bad baseline": (["--time", "month", "--baseline", "2023-12"],
                     "--baseline '2023-12' is not a period of --time column 'month' "
                     "('2024-01', '2024-02', '2024-03') nor a prevalence in (0, 1)"),
    "one period": (["--time", "one"], "`time` column 'one' has 1 period(s); monitoring needs "
                   "2 or more"),
    "no truth column": (["--time", "month", "--truth", "z"], "--truth 'z': {path} has no "
                        "such column"),
}  # fmt: skip


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
@pytest.mark.parametrize("case", list(BAD_ENGINE_CASES))
def test_duckdb_and_pandas_refuse_bad_input_with_the_same_line(data, tmp_path, suffix, case):
    d = data.copy()
    d["gappy"] = d["month"].where(d.index != 4)
    d["one"] = "2024-01"
    path = tmp_path / f"bad{suffix}"
    if suffix == ".csv":
        d.to_csv(path, index=False)
    else:
        d.to_parquet(path, index=False)
    options, says = BAD_ENGINE_CASES[case]
    args = ["monitor", path, "--truth", "y", "--score", "s", *options]
    lines = []
    for engine in ("duckdb", "pandas"):
        status, out, err = invoke(*args, "--engine", engine)
        assert status == 2 and out == "" and len(err.splitlines()) == 1, (engine, err)
        lines.append(err)
    assert lines[0] == lines[1]
    assert says.format(path=path) in lines[0], lines[0]


def test_duckdb_memory_limit(files, monkeypatch):
    """--memory-limit (default 1 GB) is DuckDB's, as for report; the output does not
    change with it."""
    from opsstats.cli import _duckdb_file

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
    args = ["monitor", files / "all.parquet", *COMMON, "--metric", "f1", "--n-resamples", "100"]
    status, default_out, err = invoke(*args)
    assert status == 0, err
    status, small_out, err = invoke(*args, "--memory-limit", "0.1")
    assert status == 0 and small_out == default_out
    assert [c["memory_limit"] for c in seen] == ["1.0GB", "0.1GB"]
