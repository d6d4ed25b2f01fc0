"""The opsstats command, end to end through subprocess: outputs and error paths."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from opsstats import ConfusionMatrix


def run(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "opsstats.cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
    )


@pytest.fixture(scope="module")
def predictions(tmp_path_factory):
    rng = np.random.default_rng(0)
    n = 1500
    site = rng.choice(["north", "south"], n)
    y = rng.random(n) < np.where(site == "north", 0.15, 0.4)
    score = rng.normal(np.where(y, 1.3, 0.0), 1.0)
    df = pd.DataFrame(
        {
            "truth": np.where(y, "sick", "well"),
            "y": y.astype(int),
            "score": score,
            "pred": (score >= 0.8).astype(int),
            "site": site,
        }
    )
    folder = tmp_path_factory.mktemp("cli")
    df.to_csv(folder / "pred.csv", index=False)
    df.to_parquet(folder / "pred.parquet")
    (folder / "empty.csv").write_text("")
    (folder / "notes.xlsx").write_text("x")
    return folder, df


def test_report_text_matches_the_python_objects(predictions):
    folder, df = predictions
    r = run(
        "report",
        str(folder / "pred.csv"),
        "--truth",
        "y",
        "--pred",
        "pred",
        "--metric",
        "f1",
        "--metric",
        "mcc",
        "--ci",
        "none",
    )
    assert r.returncode == 0, r.stderr
    cm = ConfusionMatrix.from_predictions(df["y"], df["pred"])
    assert r.stdout.startswith(f"Evaluation of {folder / 'pred.csv'}\n")
    assert f"Counts TP={cm.tp}, FP={cm.fp}, FN={cm.fn}, TN={cm.tn}." in r.stdout
    f1_line = next(line for line in r.stdout.splitlines() if line.startswith("f1"))
    assert f"{cm.metric('f1'):.4f}" in f1_line and f"{cm.ops('f1').estimate:.4f}" in f1_line


def test_report_csv_and_json_are_the_tidy_table(predictions):
    folder, df = predictions
    args = [
        "report",
        str(folder / "pred.parquet"),
        "--truth",
        "truth",
        "--pos-label",
        "sick",
        "--score",
        "score",
        "--threshold",
        "0.8",
        "--metric",
        "f1",
        "--group",
        "site",
        "--n-resamples",
        "500",
        "--seed",
        "3",
    ]
    csv = run(*args, "--format", "csv")
    assert csv.returncode == 0, csv.stderr
    from io import StringIO

    table = pd.read_csv(StringIO(csv.stdout))
    assert list(table["site"]) == ["north", "south"]
    for _, row in table.iterrows():
        g = df[df["site"] == row["site"]]
        cm = ConfusionMatrix.from_predictions(g["y"], (g["score"] >= 0.8).astype(int))
        assert row["value"] == pytest.approx(cm.metric("f1"), abs=1e-12)
        assert row["ops_ci_low"] <= row["ops"] <= row["ops_ci_high"]
    js = json.loads(run(*args, "--format", "json").stdout)
    assert js["settings"]["n_resamples"] == 500 and len(js["rows"]) == 2
    assert js["rows"][0]["ops"] == pytest.approx(table.loc[0, "ops"], abs=1e-12)
    html = run(*args, "--format", "html").stdout
    assert html.startswith("<div><strong>Evaluation of") and "<table" in html


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ["report", "{folder}/missing.csv", "--truth", "y", "--pred", "pred"],
            "opsstats: error: no such file: {folder}/missing.csv",
        ),
        (
            ["report", "{folder}/empty.csv", "--truth", "y", "--pred", "pred"],
            "opsstats: error: cannot read {folder}/empty.csv: No columns to parse from file",
        ),
        (
            ["report", "{folder}/notes.xlsx", "--truth", "y", "--pred", "pred"],
            "opsstats: error: {folder}/notes.xlsx: unsupported file type; use .csv, .tsv or .parquet",
        ),
        (
            ["report", "{folder}/pred.csv", "--truth", "label", "--pred", "pred"],
            "opsstats: error: `truth` names a column that is not in `data`: 'label'; columns: "
            "truth, y, score, pred, site.",
        ),
        (
            ["report", "{folder}/pred.csv", "--truth", "score", "--pred", "pred"],
            "opsstats: error: `truth` and `pred` together must hold binary labels (at most two "
            "distinct values)",
        ),
        (
            ["report", "{folder}/pred.csv", "--truth", "truth", "--pred", "pred"],
            "opsstats: error: labels must be all strings or all numbers",
        ),
        (
            ["report", "{folder}/pred.csv", "--truth", "y", "--pred", "pred", "--metric", "f7"],
            "opsstats: error: unknown metric 'f7'",
        ),
        (
            [
                "report",
                "{folder}/pred.csv",
                "--truth",
                "y",
                "--score",
                "score",
                "--metric",
                "precision@recall",
            ],
            "opsstats: error: an operating point is written metric@axis=value",
        ),
        (
            ["report", "{folder}/pred.csv", "--truth", "y", "--pred", "pred", "--ci", "magic"],
            "opsstats: error: argument --ci: invalid choice: 'magic'",
        ),
        (
            ["report", "{folder}/pred.csv", "--truth", "y"],
            "opsstats: error: one of the arguments --score --pred is required",
        ),
        (
            ["report", "{folder}/pred.csv", "--truth", "y", "--pred", "pred", "--n-resamples", "5"],
            "opsstats: error: --n-resamples must be at least 100; got 5",
        ),
        (
            [
                "report",
                "{folder}/pred.csv",
                "--truth",
                "y",
                "--pred",
                "pred",
                "--confidence-level",
                "1.5",
            ],
            "opsstats: error: `confidence_level` must be in the open interval (0, 1); got 1.5.",
        ),
        (["frobnicate"], "opsstats: error: argument command: invalid choice: 'frobnicate'"),
    ],
)
def test_errors_are_one_line_with_nonzero_exit(predictions, args, message):
    folder, _ = predictions
    r = run(*[a.format(folder=folder) for a in args])
    assert r.returncode == 2
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith(message.format(folder=folder)), lines[0]
    assert "Traceback" not in r.stderr


def test_example_runs_and_reports_three_test_sets():
    r = run("example", "--ci", "none", "--format", "csv")
    assert r.returncode == 0, r.stderr
    from io import StringIO

    table = pd.read_csv(StringIO(r.stdout))
    assert set(table["test_set"]) == {"general", "recent marriages", "unhappy marriages"}
    assert set(table["metric"]) == {
        "f1",
        "mcc",
        "precision",
        "recall",
        "balanced_accuracy",
        "roc_auc",
        "pr_auc",
    }
    prev = table.groupby("test_set")["prevalence"].first()
    assert prev["recent marriages"] < prev["general"] < prev["unhappy marriages"]
    assert table["ops"].notna().all()
