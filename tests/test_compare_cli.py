"""``opsstats compare``: paired and unpaired comparisons from a file, outputs, and the
same one-line errors (exit 2, nothing on stdout) as ``opsstats report``."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import pandas as pd
import pytest

from opsstats import compare
from opsstats.cli import main

DATA = Path(__file__).parent / "reference" / "data_compare"
ASAH = DATA / "aSAH.csv"


def invoke(*args: str) -> tuple[int, str, str]:
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
    assert "Traceback" not in err


def test_paired_delong_text_is_procs_numbers():
    status, out, err = invoke(
        "compare",
        ASAH,
        "--truth",
        "outcome",
        "--pos-label",
        "Poor",
        "--score",
        "s100b",
        "--score",
        "ndka",
        "--method",
        "delong",
    )
    assert status == 0 and err == ""
    # roc.test(r1, r2, method="delong", paired=TRUE): Z 1.3908, p 0.1643, CI -0.0489 0.2877
    assert "Z = 1.3908, p-value = 0.1643" in out
    assert " -0.0489 0.2877" in out


def test_three_classifiers_csv_and_json():
    status, out, _ = invoke(
        "compare",
        ASAH,
        "--truth",
        "outcome",
        "--pos-label",
        "Poor",
        "--score",
        "s100b",
        "--score",
        "ndka",
        "--score",
        "wfns",
        "--format",
        "csv",
    )
    assert status == 0
    frame = pd.read_csv(io.StringIO(out))
    d = pd.read_csv(ASAH)
    y = d["outcome"] == "Poor"
    ref = compare(y, {"s100b": d["s100b"], "ndka": d["ndka"], "wfns": d["wfns"]}).to_frame()
    pd.testing.assert_series_equal(frame["p_holm"], ref["p_holm"], check_exact=False, rtol=1e-12)
    status, out, _ = invoke(
        "compare",
        ASAH,
        "--truth",
        "outcome",
        "--pos-label",
        "Poor",
        "--score",
        "s100b",
        "--score",
        "ndka",
        "--format",
        "json",
    )
    assert json.loads(out)[0]["comparison"] == "s100b - ndka"


def test_predictions_and_between(tmp_path):
    d = pd.read_csv(DATA / "unpaired.csv")
    d["pred"] = (d["y_score"] > 0.5).astype(int)
    path = tmp_path / "months.csv"
    d.to_csv(path, index=False)
    status, out, _ = invoke(
        "compare",
        path,
        "--truth",
        "y_true",
        "--pred",
        "pred",
        "--between",
        "set",
        "--ops",
        "--rope",
        "-0.05",
        "0.05",
    )
    assert status == 0
    assert "OPS of F1 score of a and b (independent test sets)" in out
    assert "posterior probability that the difference is in [-0.05, 0.05]" in out
    status, out, _ = invoke(
        "compare", path, "--truth", "y_true", "--score", "y_score", "--between", "set"
    )
    assert "D = 0.4780" in out  # roc.test(r1, r2, paired=FALSE): D 0.477996


def test_plot(tmp_path):
    target = tmp_path / "cmp.png"
    status, _, err = invoke(
        "compare",
        ASAH,
        "--truth",
        "outcome",
        "--pos-label",
        "Poor",
        "--score",
        "s100b",
        "--score",
        "ndka",
        "--plot",
        target,
    )
    assert status == 0 and target.stat().st_size > 0 and "figure written" in err


def test_plot_help_describes_the_comparison_figure():
    """``--plot`` of ``compare`` draws the differences, not the report's figure."""
    status, out, _ = invoke("compare", "--help")
    assert status == 0
    text = " ".join(out.split())
    plot = text[text.index("--plot OUT.png also write") :]
    assert "the difference of each pair with its interval (forest plot)" in plot
    assert "PR curve" not in plot and "unit square" not in plot and "group" not in plot
    status, out, _ = invoke("report", "--help")
    text = " ".join(out.split())
    assert "operating point of --threshold" in text[text.index("--plot OUT.png also write") :]


@pytest.mark.parametrize(
    "args, contains",
    [
        (["--score", "s100b", "--score", "nope"], "--score 'nope'"),
        (["--score", "s100b"], "give --score at least twice"),
        (["--score", "s100b", "--score", "s100b"], "named twice"),
        (["--score", "s100b", "--score", "ndka", "--metric", "nope"], "unknown curve quantity"),
        (["--pred", "gender", "--pred", "gender2"], "--pred 'gender2'"),
        (["--score", "s100b", "--score", "ndka", "--method", "mcnemar"], "method='mcnemar'"),
        (["--score", "s100b", "--score", "ndka", "--between", "gender"], "give one --score"),
        (["--score", "s100b", "--score", "ndka", "--n-resamples", "5"], "--n-resamples"),
    ],
)
def test_one_line_errors(args, contains):
    one_line_error(["compare", ASAH, "--truth", "outcome", "--pos-label", "Poor", *args], contains)


def test_class_absent_in_a_test_set(tmp_path):
    d = pd.DataFrame(
        {
            "y": [1, 0, 1, 0, 0, 0, 0],
            "s": [0.9, 0.1, 0.8, 0.2, 0.3, 0.4, 0.5],
            "month": ["jan"] * 4 + ["feb"] * 3,
        }
    )
    path = tmp_path / "m.csv"
    d.to_csv(path, index=False)
    one_line_error(
        ["compare", path, "--truth", "y", "--score", "s", "--between", "month"], "test set 'feb'"
    )
