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


def test_threshold_makes_the_predicted_labels():
    """--threshold T compares the confusion-matrix metric of score >= T, paired and
    between test sets: the numbers of compare and compare_test_sets with `threshold`,
    whose estimates are scikit-learn's F1 of the thresholded scores."""
    from sklearn.metrics import f1_score

    from opsstats import compare_test_sets

    data = pd.read_csv(DATA / "paired_n200.csv")
    status, out, err = invoke(
        "compare", DATA / "paired_n200.csv", "--truth", "y_true", "--score", "score_a",
        "--score", "score_b", "--threshold", "0.4", "--format", "csv",
    )  # fmt: skip
    assert status == 0, err
    row = pd.read_csv(io.StringIO(out)).iloc[0]
    y = data["y_true"].to_numpy()
    a, b = data["score_a"].to_numpy(), data["score_b"].to_numpy()
    assert row["quantity"] == "F1 score at threshold 0.4"  # F1: the default with --threshold
    # f1_score(y, a >= 0.4), f1_score(y, b >= 0.4): scikit-learn
    assert row["estimate_a"] == pytest.approx(f1_score(y, a >= 0.4), abs=1e-15)
    assert row["estimate_b"] == pytest.approx(f1_score(y, b >= 0.4), abs=1e-15)
    api = compare(y, {"score_a": a, "score_b": b}, threshold=0.4, rng=0)
    assert (row["ci_low"], row["ci_high"]) == (api.ci.low, api.ci.high)

    sets = pd.read_csv(DATA / "unpaired.csv")
    status, out, err = invoke(
        "compare", DATA / "unpaired.csv", "--truth", "y_true", "--score", "y_score",
        "--between", "set", "--metric", "f1", "--ops", "--threshold", "0.5",
        "--format", "csv",
    )  # fmt: skip
    assert status == 0, err
    row = pd.read_csv(io.StringIO(out)).iloc[0]
    api = compare_test_sets(
        {k: (g["y_true"].to_numpy(), g["y_score"].to_numpy()) for k, g in sets.groupby("set")},
        metric="f1",
        ops=True,
        threshold=0.5,
        rng=0,
    )
    assert row["quantity"] == "OPS of F1 score at threshold 0.5"
    assert (row["difference"], row["ci_low"], row["ci_high"]) == (
        api.estimate,
        api.ci.low,
        api.ci.high,
    )


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ["--score", "y_score", "--between", "set", "--metric", "f1", "--ops"],
            "--metric f1 needs --threshold or --pred",
        ),
        (
            ["--pred", "y_true", "--between", "set", "--threshold", "0.5"],
            "--threshold makes predicted labels from --score; --pred gives them",
        ),
        (
            ["--score", "y_score", "--between", "set", "--metric", "pr_auc", "--threshold", "1"],
            "--threshold makes predicted labels (scores >= threshold) for a confusion-matrix "
            "metric; metric 'pr_auc' is a curve quantity, read from the scores themselves: "
            "drop --threshold.",
        ),
    ],
)
def test_threshold_errors_name_the_flags(args, message):
    status, out, err = invoke("compare", DATA / "unpaired.csv", "--truth", "y_true", *args)
    assert (status, out) == (2, "")
    assert err == f"opsstats: error: {message}\n"
