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
