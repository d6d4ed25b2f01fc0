"""The opsstats command, end to end: outputs, error paths, and hostile input (formula
injection, control characters, infinite values in JSON, figures, duplicated headers).

Most runs call ``opsstats.cli.main`` in this process (``invoke``: stdout, stderr and the
exit status captured; an exception escaping ``main`` fails the test, so "no traceback"
is checked by every run); where the process itself matters (stderr and the exit status
of the interpreter, Ctrl-C, warnings printed by Python) the command runs in a
subprocess (``run``). The fuzz of the same command is ``tests/test_cli_fuzz.py``.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import re
import signal
import stat
import subprocess
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
import pytest
from cli_fuzz_cases import HOSTILE_GROUPS, classify_interrupted, run_interrupted

from opsstats import ConfusionMatrix, DirectedBinaryTree, ScoreCurve, cli
from opsstats.cli import StagedFiles, main
from opsstats.report import report

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str, cwd=None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "opsstats.cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=300,
    )


def opts(text: str) -> list[str]:
    """Command-line options written as one string: ``opts("--ci none")``."""
    return text.split()


def invoke(*args: str) -> tuple[int, str, str]:
    """``main(args)`` in this process: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main([str(a) for a in args])
    return status, out.getvalue(), err.getvalue()


def assert_one_line_error(status: int, stdout: str, stderr: str, starts: str = "") -> str:
    """Exit 2, nothing on stdout, one line on stderr starting ``opsstats: error: ``."""
    assert status == 2, (status, stderr)
    assert stdout == ""
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("opsstats: error: " + starts), lines[0]
    assert "Traceback" not in stderr
    return lines[0]


def files_in(folder: Path) -> set[str]:
    return {p.name for p in folder.iterdir()}


_FIELD = re.compile(r'"(?:[^"]|"")*"|[^,\n]*')


def raw_fields(text: str) -> list[str]:
    """Every field of a CSV text as written (quoted fields with their quotes)."""
    fields, pos = [], 0
    while pos < len(text):
        match = _FIELD.match(text, pos)
        fields.append(match.group())
        pos = match.end() + 1  # past the comma or the line end
    return fields


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
            "code": np.where(site == "north", -1, -2),
        }
    )
    folder = tmp_path_factory.mktemp("cli")
    df.to_csv(folder / "pred.csv", index=False)
    df.to_parquet(folder / "pred.parquet")
    (folder / "empty.csv").write_text("")
    (folder / "notes.xlsx").write_text("x")
    return folder, df


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    """Every hostile group value (formulas, mathtext, control characters, HTML) with
    both classes, and a numeric group column of negative codes."""
    rows = []
    for k, g in enumerate(HOSTILE_GROUPS):
        for i in range(24):
            y = int(i % 3 == 0)
            rows.append({"y": y, "p": y if i % 5 else 1 - y, "g": g, "code": -(k % 3) - 1})
    df = pd.DataFrame(rows)
    folder = tmp_path_factory.mktemp("hostile")
    df.to_csv(folder / "hostile.csv", index=False, quoting=csv.QUOTE_NONNUMERIC)
    assert pd.read_csv(folder / "hostile.csv")["g"].tolist() == df["g"].tolist()
    return folder / "hostile.csv", df


# ------------------------------------------------------------------- outputs


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
    assert r.stderr == ""
    cm = ConfusionMatrix.from_predictions(df["y"], df["pred"])
    # one file goes through DuckDB by default, and the title says so
    assert r.stdout.startswith(f"Evaluation of {folder / 'pred.csv'} (counted by DuckDB)\n")
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
    status, out, err = invoke(*args, "--format", "csv")
    assert status == 0, err
    table = pd.read_csv(io.StringIO(out))
    assert list(table["site"]) == ["north", "south"]
    for _, row in table.iterrows():
        g = df[df["site"] == row["site"]]
        cm = ConfusionMatrix.from_predictions(g["y"], (g["score"] >= 0.8).astype(int))
        assert row["value"] == pytest.approx(cm.metric("f1"), abs=1e-12)
        assert row["ops_ci_low"] <= row["ops"] <= row["ops_ci_high"]
    js = json.loads(invoke(*args, "--format", "json")[1])
    assert js["settings"]["n_resamples"] == 500 and len(js["rows"]) == 2
    assert js["settings"]["pos_label"] == "sick"
    assert js["rows"][0]["ops"] == pytest.approx(table.loc[0, "ops"], abs=1e-12)
    html = invoke(*args, "--format", "html")[1]
    assert html.startswith("<div><strong>Evaluation of") and "<table" in html


def test_example_runs_and_reports_three_test_sets():
    r = run("example", "--ci", "none", "--format", "csv")
    assert r.returncode == 0, r.stderr
    table = pd.read_csv(io.StringIO(r.stdout))
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


def test_help_and_usage_errors_return_their_status_from_main():
    status, out, _ = invoke("--help")
    assert status == 0 and "Exit status: 0 on success, 2 for an error" in out
    assert_one_line_error(*invoke("report"), "the following arguments are required")


# --------------------------------------------------------------- error paths

ERRORS = [  # (command with {folder}, the start of its one-line error)
    ("report {folder}/missing.csv --truth y --pred pred", "no such file: {folder}/missing.csv"),
    (  # a directory is a Parquet dataset for DuckDB (tests/test_cli_engines.py), not pandas
        "report {folder} --truth y --pred pred --engine pandas",
        "{folder} is a directory, not a CSV or Parquet file",
    ),
    (
        "report {folder}/empty.csv --truth y --pred pred",
        "cannot read {folder}/empty.csv: No columns to parse from file",
    ),
    ("report {folder}/header.csv --truth y --pred p", "{folder}/header.csv has no data rows"),
    (
        "report {folder}/notes.xlsx --truth y --pred pred",
        "{folder}/notes.xlsx: unsupported file type; use .csv, .tsv or .parquet",
    ),
    (
        "report {folder}/pred.csv --truth label --pred pred",
        "--truth 'label': {folder}/pred.csv has no such column; its columns: truth, y, "
        "score, pred, site, code",
    ),
    (
        "report {folder}/pred.csv --truth y --score site",
        "--score column 'site' must hold numbers; data row 1 holds ",
    ),
    (
        "report {folder}/pred.csv --truth score --pred pred",
        "--truth and --pred together must hold binary labels (at most two distinct values)",
    ),
    (
        "report {folder}/three.csv --truth y --pred p",
        "--truth and --pred together must hold binary labels (at most two distinct values); "
        "got 3 distinct values: 0, 1, 2.",
    ),
    (
        "report {folder}/pred.csv --truth truth --pred pred",
        "labels must be all strings or all numbers",
    ),
    (
        "report {folder}/pred.csv --truth y --pred pred --pos-label x",
        "--pos-label 'x' is not a value of column 'y' (dtype int64)",
    ),
    (
        "report {folder}/pred.csv --truth y --pred pred --pos-label 7",
        "--pos-label must be one of the labels present in --truth and --pred together; got 7",
    ),
    ("report {folder}/pred.csv --truth y --pred pred --metric f7", "unknown metric 'f7'"),
    (
        "report {folder}/pred.csv --truth y --score score --metric precision@recall",
        "an operating point is written metric@axis=value",
    ),
    (
        "report {folder}/pred.csv --truth y --pred pred --ci magic",
        "argument --ci: invalid choice: 'magic'",
    ),
    ("report {folder}/pred.csv --truth y", "one of the arguments --score --pred is required"),
    (
        "report {folder}/pred.csv --truth y --score score --threshold nan",
        "argument --threshold: expected a finite number; got 'nan'",
    ),
    (
        "report {folder}/pred.csv --truth y --score score --threshold=-inf",
        "argument --threshold: expected a finite number; got '-inf'",
    ),
    (
        "report {folder}/pred.csv --truth y --score score --threshold x",
        "argument --threshold: expected a number; got 'x'",
    ),
    (
        "report {folder}/pred.csv --truth y --pred pred --n-resamples 5",
        "argument --n-resamples: must be at least 100; got 5",
    ),
    (
        "report {folder}/pred.csv --truth y --pred pred --n-resamples 1e9",
        "argument --n-resamples: must be at most 1_000_000; got 1e9: every interval holds "
        "its draws in memory (at least 32 bytes each), which would take at least 29.8 GiB, "
        "against a limit of 30.5 MiB",
    ),
    (
        "report {folder}/pred.csv --truth y --pred pred --n-resamples 2.5",
        "argument --n-resamples: expected a whole number; got '2.5'",
    ),
    (
        "report {folder}/pred.csv --truth y --pred pred --digits 100000",
        "argument --digits: must be from 0 to 17",
    ),
    (
        "report {folder}/pred.csv --truth y --pred pred --digits=-1",
        "argument --digits: must be from 0 to 17",
    ),
    (
        "report {folder}/pred.csv --truth y --pred pred --seed=-1",
        "argument --seed: must be a non-negative integer; got -1",
    ),
    (
        "report {folder}/pred.csv --truth y --pred pred --confidence-level 1.5",
        "argument --confidence-level: must be in the open interval (0, 1); got 1.5",
    ),
    ("frobnicate", "argument command: invalid choice: 'frobnicate'"),
]


@pytest.fixture(scope="module")
def error_files(predictions):
    folder, _ = predictions
    (folder / "header.csv").write_text("y,p\n")
    (folder / "three.csv").write_text("y,p\n0,0\n1,1\n2,1\n")
    return folder


@pytest.mark.parametrize("engine", [[], ["--engine", "pandas"]], ids=["default", "pandas"])
@pytest.mark.parametrize("command, message", ERRORS)
def test_errors_are_one_line_with_exit_status_2(error_files, command, message, engine):
    """The same line from DuckDB (the default for a file) and from pandas."""
    folder = error_files
    argv = [a.format(folder=folder) for a in command.split()]
    assert_one_line_error(*invoke(*argv, *engine), message.format(folder=folder))


@pytest.mark.parametrize(
    "command, message",
    [ERRORS[i] for i in (0, 5, 6, 16, 20, 22)],
    ids=["missing", "column", "score", "threshold", "resamples", "digits"],
)
def test_errors_end_to_end(error_files, command, message):
    """The same errors through the interpreter: one line, status 2, no traceback."""
    folder = error_files
    r = run(*[a.format(folder=folder) for a in command.split()])
    assert_one_line_error(r.returncode, r.stdout, r.stderr, message.format(folder=folder))


def test_error_messages_escape_control_characters(predictions):
    folder, _ = predictions
    line = assert_one_line_error(
        *invoke("report", folder / "pred.csv", "--truth", "y\x1b[2J\nFORGED", "--pred", "pred")
    )
    assert "\x1b" not in line and "\\x1b[2J" in line


# ---------------------------------------------------- CSV formula injection


def test_csv_output_neutralizes_formulas_and_keeps_numbers(hostile):
    path, df = hostile
    args = ["--truth", "y", "--pred", "p", "--metric", "f1", "--metric", "mcc"]
    status, out, err = invoke(
        "report", path, *args, "--group", "g", "--group", "code", "--ci", "none", "--format", "csv"
    )
    assert status == 0, err
    expected = report(
        df, truth="y", pred="p", metrics=["f1", "mcc"], by=["g", "code"], ci=None
    ).table
    records = list(csv.reader(io.StringIO(out)))
    assert records[0][:3] == ["g", "code", "metric"]
    for record, g in zip(records[1:], expected["g"], strict=True):
        # OWASP: a text field starting with = + - @ tab or CR gets a leading quote
        assert record[0] == ("'" + g if g.startswith(("=", "+", "-", "@", "\t", "\r")) else g)
    for raw in raw_fields(out):  # text quoted, numbers bare
        assert raw.startswith('"') or raw == "" or float(raw) == float(raw), raw
    back = pd.read_csv(io.StringIO(out))
    # numbers are never altered: the negative codes stay an integer column
    assert back["code"].dtype.kind == "i" and (back["code"] < 0).all()
    assert back["code"].tolist() == expected["code"].tolist()
    for column in ("n", "prevalence", "value", "ops", "ops_se"):
        assert back[column].tolist() == expected[column].tolist(), column  # exactly


def test_to_csv_neutralizes_every_text_field_and_round_trips_numbers():
    df = pd.DataFrame(
        {
            "y": [1, 0, 1, 0, 1, 0, 1, 1],
            "p": [1, 0, 1, 0, 0, 0, 1, 1],
            "=cmd": ["-x", "-x", "-x", "-x", "@b", "@b", "@b", "@b"],
        }
    )
    rep = report(df, truth="y", pred="p", metrics=["f1", "lr_plus", "npv"], by="=cmd", ci=None)
    text = rep.to_csv()
    header = next(csv.reader(io.StringIO(text)))
    assert header[0] == "'=cmd" and text.startswith('"\'=cmd","metric",')
    back = pd.read_csv(io.StringIO(text))
    assert set(back["'=cmd"]) == {"'-x", "'@b"}
    # an infinite LR+ (FP = 0) is written as inf and read back as inf; NaN as an empty field
    assert np.isinf(rep.table["value"]).any()
    for column in ("value", "ops", "prevalence"):
        np.testing.assert_array_equal(back[column].to_numpy(), rep.table[column].to_numpy())
    # no intervals: empty fields, not quoted empty strings; text quoted, numbers bare
    assert ",,," in text
    bare = [raw for raw in raw_fields(text) if not raw.startswith('"')]
    assert bare and all(raw == "" or float(raw) == float(raw) or raw == "inf" for raw in bare)


def test_html_and_json_outputs_need_no_neutralizing(hostile):
    """HTML escapes markup (and, like text, shows control characters as escapes); JSON
    escapes control characters itself and keeps every value exactly."""
    path, _ = hostile
    base = ["report", path, "--truth", "y", "--pred", "p", "--metric", "f1", "--ci", "none"]
    status, html, err = invoke(*base, "--group", "g", "--format", "html")
    assert status == 0, err
    assert "<script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert not any(ch in html for ch in "\r\t\x1b")
    status, out, err = invoke(*base, "--group", "g", "--format", "json")
    assert status == 0, err
    assert not any(ch in out for ch in "\r\t\x1b")
    rows = json.loads(out, parse_constant=pytest.fail)["rows"]
    assert {r["g"] for r in rows} == set(HOSTILE_GROUPS)  # data, exactly


# ----------------------------------------------------------------------- --plot


@pytest.mark.parametrize("engine", [[], ["--engine", "pandas"]], ids=["duckdb", "pandas"])
def test_plot_draws_the_curve_of_the_positive_class(predictions, tmp_path, monkeypatch, engine):
    """The PR curve of the positive class, from the rows (pandas) or from DuckDB's count
    per distinct score (the default for a file): the curve of the rows either way."""
    folder, df = predictions
    drawn = []
    real = cli.plotting.plot_curve
    small_dbt = DirectedBinaryTree(depth=5, n_curves=2000)

    def plot_curve(curve, *args, **kwargs):
        drawn.append(curve)  # drawn over a small reference: the default's band takes ~10 s
        return real(curve, *args, reference=small_dbt, **kwargs)

    monkeypatch.setattr(cli.plotting, "plot_curve", plot_curve)
    for truth, pos, positive in (
        ("y", "0", df["y"] == 0),
        ("truth", "well", df["truth"] == "well"),
    ):
        out = tmp_path / f"curve_{truth}.png"
        args = ["report", folder / "pred.csv", "--truth", truth, "--pos-label", pos, *engine]
        args += opts("--score score --ci none")
        status, _, err = invoke(*args, "--plot", out)
        assert status == 0, err
        curve = drawn[-1]
        assert curve.prevalence == pytest.approx(positive.mean())
        expected = ScoreCurve.from_scores(positive, df["score"])
        assert curve == expected
        assert curve.auc("pr") == pytest.approx(expected.auc("pr"), abs=1e-12)
        table = pd.read_csv(io.StringIO(invoke(*args, "--format", "csv")[1]))
        assert table.set_index("metric").loc["pr_auc", "value"] == pytest.approx(curve.auc("pr"))
        assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("engine", [[], ["--engine", "pandas"]], ids=["duckdb", "pandas"])
def test_plot_of_scores_marks_the_threshold_and_gives_the_ops(
    predictions, tmp_path, monkeypatch, engine
):
    """The PR curve of ``report --threshold T --plot``: the operating point of T marked
    where the report's own counts put it, and the OPS of the PR AUC with its interval,
    as the report prints them, in the legend."""
    folder, df = predictions
    drawn = []
    real = cli.plotting.plot_curve
    small_dbt = DirectedBinaryTree(depth=5, n_curves=2000)

    def plot_curve(curve, *args, **kwargs):
        drawn.append(real(curve, *args, reference=small_dbt, **kwargs))
        return drawn[-1]

    monkeypatch.setattr(cli.plotting, "plot_curve", plot_curve)
    args = ["report", folder / "pred.csv", *engine, *opts("--truth y --score score")]
    args += opts("--threshold 0.8 --metric pr_auc --metric f1 --n-resamples 200")
    status, _, err = invoke(*args, "--plot", tmp_path / "pr.png")
    assert status == 0, err
    ax = drawn[-1]
    table = pd.read_csv(io.StringIO(invoke(*args, "--format", "csv")[1])).set_index("metric")
    pr = table.loc["pr_auc"]
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert texts[0] == (
        f"classifier: AUC(PR, step) = {pr['value']:.3f}, OPS {pr['ops']:.3f} "
        f"(95% CI {pr['ops_ci_low']:.3f}-{pr['ops_ci_high']:.3f})"
    )
    y, flagged = df["y"].to_numpy() == 1, df["score"].to_numpy() >= 0.8
    tp, fp = np.sum(y & flagged), np.sum(~y & flagged)
    recall, precision = tp / y.sum(), tp / (tp + fp)
    assert texts[1] == f"score ≥ 0.8: recall {recall:.3f}, precision {precision:.3f}"
    (point,) = [ln for ln in ax.get_lines() if ln.get_label() == texts[1]]
    np.testing.assert_allclose(np.ravel(point.get_data()), [recall, precision], rtol=1e-12)
    # with --bins DuckDB's curve is one of score bins, which has no point at the
    # threshold: none is drawn; the pandas path draws the curve of the rows, with it
    status, _, err = invoke(*args, "--bins", "20", "--plot", tmp_path / "binned.png")
    assert status == 0, err
    marked = [t.get_text() for t in drawn[-1].get_legend().get_texts() if "score ≥" in t.get_text()]
    assert marked == ([] if not engine else [texts[1]])


def test_plot_with_string_labels_end_to_end(predictions, tmp_path):
    folder, _ = predictions
    out = tmp_path / "labels.png"
    options = "--truth truth --pos-label sick --score score --threshold 0.8 --group site"
    r = run("report", str(folder / "pred.csv"), *options.split(), "--plot", str(out))
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("Evaluation of") and r.stderr == f"figure written to {out}\n"
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert files_in(tmp_path) == {"labels.png"}


def test_plot_of_mathtext_and_control_character_group_names(hostile, tmp_path):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.cbook import is_math_text
    from matplotlib.figure import Figure

    path, df = hostile
    out = tmp_path / "groups.png"
    status, _, err = invoke(
        "report", path, *opts("--truth y --pred p --metric f1 --ci none --group g --plot"), out
    )
    assert status == 0, err
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # the figure the command drew: every group name shown literally, none as mathtext
    rep = report(df, truth="y", pred="p", metrics=["f1"], by="g", ci=None)
    fig = Figure()
    cli.draw_report(fig, rep, df)
    FigureCanvasAgg(fig).draw()  # "$\\sqrt{$" as mathtext would not even parse
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert not any(is_math_text(label) for label in labels)
    from opsstats._summary import printable

    assert [label.replace("\\$", "$") for label in labels] == [printable(g) for g in rep.table["g"]]


@pytest.mark.parametrize(
    "plot, message",
    [
        ("{tmp}", "--plot {tmp} is a directory; give a file name, e.g. {tmp}/report.png"),
        ("{tmp}/", "--plot {tmp}/ is a directory"),
        ("{tmp}/figure", "--plot {tmp}/figure: the file name must end in the format's extension"),
        ("{tmp}/figure.doc", "--plot {tmp}/figure.doc: the file name must end in"),
        ("{tmp}/no/such/f.png", "--plot {tmp}/no/such/f.png: no such directory: {tmp}/no/such"),
        ("", "--plot: the file name is empty"),
    ],
)
def test_plot_target_is_checked_before_any_work(predictions, tmp_path, plot, message):
    folder, _ = predictions
    target = plot.format(tmp=tmp_path)
    assert_one_line_error(
        *invoke("report", folder / "pred.csv", "--truth", "y", "--pred", "pred", "--plot", target),
        message.format(tmp=tmp_path),
    )
    assert files_in(tmp_path) == set()
    assert not Path(f"{tmp_path}.png").exists()  # the old code wrote /tmp.png for /tmp


def test_plot_failure_leaves_no_report_and_the_old_file(tmp_path):
    (tmp_path / "one_class.csv").write_text("y,p\n1,1\n1,0\n1,1\n")
    old = tmp_path / "figure.png"
    old.write_bytes(b"the previous figure")
    line = assert_one_line_error(
        *invoke(
            "report",
            tmp_path / "one_class.csv",
            *opts("--truth y --pred p --metric f1 --ci none --plot"),
            old,
        )
    )
    assert line.startswith("opsstats: error: --plot: ")
    assert old.read_bytes() == b"the previous figure"
    assert files_in(tmp_path) == {"one_class.csv", "figure.png"}


def test_plot_is_written_atomically(predictions, tmp_path, monkeypatch):
    """A figure that fails half-way through being written leaves no file behind and the
    previous figure as it was; nothing is printed."""
    from matplotlib.figure import Figure

    folder, _ = predictions
    old = tmp_path / "figure.png"
    old.write_bytes(b"the previous figure")

    def half_then_fail(self, f, **kwargs):
        f.write(b"\x89PNG half a figure")
        raise RuntimeError("disk full")

    monkeypatch.setattr(Figure, "savefig", half_then_fail)
    line = assert_one_line_error(
        *invoke(
            "report",
            folder / "pred.csv",
            *opts("--truth y --pred pred --metric f1 --ci none --plot"),
            old,
        )
    )
    assert line == "opsstats: error: --plot: cannot write the figure: disk full"
    assert old.read_bytes() == b"the previous figure"
    assert files_in(tmp_path) == {"figure.png"}


def test_staged_files_are_whole_or_absent(tmp_path):
    kept = tmp_path / "kept.txt"
    kept.write_text("old")
    os.chmod(kept, 0o640)
    # an interruption while writing: the temporary files go, the target stays
    with pytest.raises(KeyboardInterrupt):
        _stage(kept, tmp_path / "other.txt", lambda f: (f.write(b"half"), _interrupt()))
    assert kept.read_text() == "old" and files_in(tmp_path) == {"kept.txt"}
    # an error after staging but before the commit: nothing is renamed
    with pytest.raises(ValueError, match="later failure"):
        _stage(kept, tmp_path / "other.txt", lambda f: f.write(b"whole"), fail=True)
    assert kept.read_text() == "old" and files_in(tmp_path) == {"kept.txt"}
    # committed: replaced whole, permissions kept; a new file gets the umask's
    with StagedFiles() as staged:
        staged.write(kept, lambda f: f.write(b"new"))
        staged.write(tmp_path / "new.txt", lambda f: f.write(b"fresh"))
        staged.commit()
    assert kept.read_text() == "new" and stat.S_IMODE(kept.stat().st_mode) == 0o640
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE((tmp_path / "new.txt").stat().st_mode) == 0o666 & ~umask
    assert files_in(tmp_path) == {"kept.txt", "new.txt"}


def _interrupt():
    raise KeyboardInterrupt


def _stage(first, second, writer, fail=False):
    with StagedFiles() as staged:
        staged.write(first, lambda f: f.write(b"new"))
        staged.write(second, writer)
        if fail:
            raise ValueError("later failure")
        staged.commit()


def test_output_option_writes_the_report_whole(predictions, tmp_path):
    folder, _ = predictions
    args = ["report", folder / "pred.csv", "--truth", "y", "--pred", "pred", "--ci", "none"]
    _, stdout, _ = invoke(*args, "--format", "json")
    target = tmp_path / "report.json"
    assert invoke(*args, "--format", "json", "--output", target) == (0, "", "")
    assert target.read_text() == stdout
    # a failing run writes nothing and keeps the previous file
    assert_one_line_error(*invoke(*args, "--metric", "f7", "--output", target), "unknown metric")
    assert target.read_text() == stdout and files_in(tmp_path) == {"report.json"}
    assert_one_line_error(
        *invoke(*args, "--output", folder / "pred.csv"),
        f"--output {folder / 'pred.csv'} is the input",
    )
    assert_one_line_error(
        *invoke(*args, "--output", tmp_path / "r.png", "--plot", tmp_path / "r.png"),
        "--plot and --output name the same",
    )


# -------------------------------------------------------- strict JSON, infinities


def test_json_infinite_values_are_null_with_their_sign(tmp_path):
    path = tmp_path / "perfect.csv"
    df = pd.DataFrame({"y": [1, 0] * 10, "p": [1, 0] * 10})
    df.to_csv(path, index=False)
    metrics = ["lr_plus", "dor", "lr_minus", "f1"]
    status, out, err = invoke(
        "report",
        path,
        *opts("--truth y --pred p"),
        *(f"--metric={m}" for m in metrics),
        *opts("--format json --n-resamples 200"),
    )
    assert status == 0, err
    assert "Infinity" not in out and "NaN" not in out

    def refuse(name):
        raise ValueError(f"not JSON: {name}")

    rows = json.loads(out, parse_constant=refuse)["rows"]
    table = report(df, truth="y", pred="p", metrics=metrics, n_resamples=200).table
    assert np.isinf(table["value"]).sum() == 2  # LR+ and DOR with FP = 0
    for row, (_, expected) in zip(rows, table.iterrows(), strict=True):
        for key, value in expected.items():
            if isinstance(value, float) and np.isinf(value):
                assert row[key] is None and row["infinite"][key] == ("inf" if value > 0 else "-inf")
                assert float(row["infinite"][key]) == value
            elif isinstance(value, float) and np.isnan(value):
                assert row[key] is None and key not in row["infinite"]
            else:
                assert row[key] == value, key
        assert set(row["infinite"]) <= set(expected.index)


# --------------------------------------------------- Ctrl-C, warnings, lines, headers


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs a named pipe (POSIX)")
def test_ctrl_c_prints_one_line_and_exits_130(tmp_path):
    outcome = run_interrupted(tmp_path, str(ROOT))
    assert outcome.status == 130, outcome
    assert outcome.stderr == "opsstats: interrupted\n" and outcome.stdout == ""
    assert classify_interrupted(outcome) == ("ok", "")


@pytest.fixture
def default_sigint():
    """Python's own SIGINT handler for the test, whatever the suite was started with: a
    process started in the background by a shell without job control (``cmd &`` in a
    script, ``nohup``) inherits SIGINT ignored, and then Python installs no handler and
    opsstats rightly leaves the disposition alone."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


@pytest.mark.parametrize("engine", [["--engine", "pandas"], []], ids=["pandas", "duckdb"])
def test_ctrl_c_inside_the_csv_parser_is_an_interruption(
    predictions, monkeypatch, engine, default_sigint
):
    """pandas' C parser turns a KeyboardInterrupt raised by its read callback into a
    ParserError ("Calling read(nbytes) on source failed"); the command still reports an
    interruption, not a file it cannot read. The stand-in parser signals this process
    and converts the interrupt as pandas does. pandas parses the whole file with
    --engine pandas, and the header (its names, checked for duplicates) with DuckDB."""
    folder, _ = predictions

    def parser_interrupted(*args, **kwargs):
        try:
            os.kill(os.getpid(), signal.SIGINT)  # the handler raises as kill returns
        except KeyboardInterrupt:
            raise pd.errors.ParserError(
                "Error tokenizing data. C error: Calling read(nbytes) on source failed."
            ) from None
        raise AssertionError("SIGINT was not delivered")

    monkeypatch.setattr(cli.pd, "read_csv", parser_interrupted)
    status, out, err = invoke(
        "report", folder / "pred.csv", "--truth", "y", "--pred", "pred", *engine
    )
    assert (status, out, err) == (130, "", "opsstats: interrupted\n")
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # restored

    # without an interrupt, the same error is a file that cannot be read
    def parser_failing(*args, **kwargs):
        raise pd.errors.ParserError("bad")

    monkeypatch.setattr(cli.pd, "read_csv", parser_failing)
    assert_one_line_error(
        *invoke("report", folder / "pred.csv", "--truth", "y", "--pred", "p", *engine),
        f"cannot read {folder / 'pred.csv'}: bad",
    )


def test_warnings_while_plotting_are_one_line_each(tmp_path):
    """A glyph no font has (a private-use character in a group name) makes matplotlib
    warn while saving the figure: one line, prefixed, with nothing else on stderr."""
    df = pd.DataFrame({"y": [1, 0, 1, 0] * 5, "p": [1, 0, 0, 0] * 5, "g": ["\ue000 a", "b"] * 10})
    df.to_csv(tmp_path / "glyph.csv", index=False)
    r = run(
        "report",
        str(tmp_path / "glyph.csv"),
        *opts("--truth y --pred p --group g --metric f1 --ci none --plot"),
        str(tmp_path / "glyph.png"),
    )
    assert r.returncode == 0, r.stderr
    lines = r.stderr.splitlines()
    warned = [line for line in lines if line.startswith("opsstats: warning: ")]
    assert warned and all("Glyph 57344" in line for line in warned), lines
    assert len(warned) == 1  # the same message once
    assert lines[-1] == f"figure written to {tmp_path / 'glyph.png'}" and len(lines) == 2


def test_warnings_of_the_report_are_one_line_each(predictions):
    folder, df = predictions
    small = folder / "small.csv"
    df.iloc[:12].to_csv(small, index=False)
    r = run(
        "report",
        str(small),
        *opts("--truth y --pred pred --metric f1 --ci bootstrap --n-resamples 200"),
    )
    assert r.returncode == 0, r.stderr
    lines = r.stderr.splitlines()
    assert lines and all(line.startswith("opsstats: warning: ") for line in lines), lines
    assert any("bootstrap" in line for line in lines)


@pytest.mark.parametrize(
    "char, shown", [("\n", "\\n"), ("\r", "\\r"), ("\t", "\\t"), ("\x1b", "\\x1b")]
)
@pytest.mark.parametrize("fmt", ["text", "html"])
def test_control_characters_cannot_forge_report_lines(tmp_path, monkeypatch, char, shown, fmt):
    monkeypatch.chdir(tmp_path)  # the same title for both files

    def write(name, group):
        df = pd.DataFrame(
            {"y": [1, 0, 1, 0, 1, 0], "p": [1, 0, 0, 0, 1, 1], "g": [group, "plain"] * 3}
        )
        (tmp_path / name).mkdir()
        df.to_csv(tmp_path / name / "r.csv", index=False, quoting=csv.QUOTE_NONNUMERIC)
        monkeypatch.chdir(tmp_path / name)
        status, out, err = invoke(
            *opts("report r.csv --truth y --pred p --group g --metric f1 --ci none --format"), fmt
        )
        assert status == 0, err
        return out

    forged = write("forged.csv", f"a{char}Counts g=b: TP=999")
    stand_in = "a" + "_" * len(shown)  # as wide as the escape
    plain = write("plain.csv", f"{stand_in}Counts g=b: TP=999")
    assert char == "\n" or char not in forged
    assert forged.count("\n") == plain.count("\n")  # no extra line
    assert not any(line.startswith("Counts g=b: TP=999") for line in forged.splitlines())
    assert f"a{shown}Counts g=b: TP=999" in forged
    assert forged.replace(f"a{shown}", stand_in) == plain  # the same report otherwise


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_duplicated_headers_are_refused(tmp_path, fmt):
    if fmt == "csv":
        path = tmp_path / "dup.csv"
        path.write_text("y,s,y,s,g\n1,0.9,0,0.1,a\n0,0.2,1,0.3,a\n1,0.7,1,0.8,b\n0,0.1,0,0.2,b\n")
    else:
        import pyarrow as pa
        import pyarrow.parquet as pq

        path = tmp_path / "dup.parquet"
        columns = [pa.array([1, 0, 1, 0]), pa.array([0.9, 0.2, 0.7, 0.1]), pa.array([0, 1, 1, 0])]
        pq.write_table(pa.Table.from_arrays(columns, names=["y", "s", "y"]), path)
    line = assert_one_line_error(
        *invoke("report", path, "--truth", "y", "--score", "s", "--ci", "none"),
        f"{path} names a column more than once: 'y'",
    )
    if fmt == "csv":
        assert line.endswith("'y', 's'; rename the columns so that each name is used once")


# ---------------------------------------------- the first hour: what a newcomer types


@pytest.fixture(scope="module")
def probabilities(tmp_path_factory) -> Path:
    """Probabilities in [0, 1] of a logistic model, string labels."""
    rng = np.random.default_rng(29)
    y = rng.random(500) < 0.3
    p = 1 / (1 + np.exp(-rng.normal(2.0 * y - 1, 1)))
    path = tmp_path_factory.mktemp("first_hour") / "probabilities.csv"
    pd.DataFrame({"y": np.where(y, "ill", "well"), "p": p, "yes": y.astype(int)}).to_csv(
        path, index=False
    )
    return path


@pytest.mark.parametrize("engine", [(), ("--engine", "pandas")], ids=["duckdb", "pandas"])
def test_point_metric_of_scores_needs_a_threshold(probabilities, engine):
    """No table of NaN: exit 2 and what to give, before the file is read."""
    args = ("report", probabilities, "--truth", "yes", "--score", "p", *engine)
    assert invoke(*args, "--metric", "roc_auc", "--metric", "mcc") == (
        2,
        "",
        "opsstats: error: --metric mcc needs --threshold or --pred\n",
    )
    # a metric read off the curve needs no threshold
    status, out, err = invoke(*args, "--metric", "precision@recall=0.5", "--ci", "none")
    assert (status, err) == (0, "") and "precision@recall=0.5" in out


@pytest.mark.parametrize(
    "threshold, side",
    [("30", "negative: no score is >= 30"), ("-1", "positive: every score is >= -1")],
)
def test_threshold_predicting_one_class_warns(probabilities, threshold, side):
    status, out, err = invoke(
        "report", probabilities, "--truth", "yes", "--score", "p", "--threshold", threshold,
        "--metric", "recall", "--ci", "none", "--format", "csv",
    )  # fmt: skip
    assert status == 0
    assert err == (
        f"opsstats: warning: --threshold {threshold} predicts every row {side} in the "
        "--score column p; is the threshold on the scores' scale?\n"
    )
    recall = pd.read_csv(io.StringIO(out))["value"].iloc[0]
    assert recall == (0.0 if threshold == "30" else 1.0)  # nothing (everything) flagged
    status, _, err = invoke(
        "report", probabilities, "--truth", "yes", "--score", "p", "--threshold", "0.5",
        "--metric", "recall", "--ci", "none",
    )  # fmt: skip
    assert (status, err) == (0, "")


def test_errors_name_the_options_not_python_arguments(probabilities):
    status, out, err = invoke(
        "report", probabilities, "--truth", "y", "--score", "p", "--pos-label", "sick"
    )
    line = assert_one_line_error(status, out, err, "--pos-label must be one of the labels")
    assert "`" not in line and "pos_label" not in line
    # every option of the translation table is an option of a subcommand
    parser = cli.build_parser()
    options = {
        option
        for action in parser._subparsers._group_actions
        for sub in action.choices.values()
        for a in sub._actions
        for option in a.option_strings
    }
    assert set(cli._arguments.FLAGS.values()) <= options


def test_version_and_close_metric_names(probabilities):
    import opsstats

    assert invoke("--version") == (0, f"opsstats {opsstats.__version__}\n", "")
    status, out, err = invoke(
        "report", probabilities, "--truth", "yes", "--score", "p", "--threshold", "0.5",
        "--metric", "f1score",
    )  # fmt: skip
    line = assert_one_line_error(status, out, err, "unknown metric 'f1score'. Did you mean")
    assert "Did you mean 'f1'? " in line  # a metric's name, not the alias 'for'


def test_ci_help_is_short():
    parser = cli.build_parser()
    (report_parser,) = [
        a.choices["report"] for a in parser._subparsers._group_actions if "report" in a.choices
    ]
    (ci,) = [a for a in report_parser._actions if "--ci" in a.option_strings]
    assert len(ci.help) <= 120, ci.help
