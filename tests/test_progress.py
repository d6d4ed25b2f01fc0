"""The progress bars (opsstats/_progress.py): off when stderr is not a terminal, drawn
when it is one or when forced, switched by ``OPSSTATS_PROGRESS`` and ``progress=``, one
bar at a time, on the reference passes, the draws and the groups of ``evaluate``."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from opsstats import (
    BinormalCurves,
    ConfusionMatrix,
    ScoreCurve,
    _progress,
    compare_groups,
    evaluate,
    ops_prevalence_profile,
)
from opsstats._progress import counted, progress

ROOT = Path(__file__).resolve().parents[1]
CM = ConfusionMatrix(tp=40, fp=10, fn=12, tn=60)


class _Terminal(io.StringIO):
    """A stderr that says it is a terminal."""

    def isatty(self) -> bool:
        return True


@pytest.fixture
def stderr(monkeypatch):
    """Install a stderr (``stderr(terminal=...)``), no delay before a bar appears, and
    ``OPSSTATS_PROGRESS`` unset; returns the installed stream."""
    monkeypatch.delenv("OPSSTATS_PROGRESS", raising=False)
    monkeypatch.setattr(_progress, "DELAY", 0.0)

    def install(terminal: bool) -> io.StringIO:
        stream = _Terminal() if terminal else io.StringIO()
        monkeypatch.setattr(sys, "stderr", stream)
        return stream

    return install


def _last_line(text: str) -> str:
    """What a terminal shows last: the text after the last carriage return."""
    return text.rstrip("\n").split("\r")[-1].rstrip()


def test_auto_draws_in_a_terminal_and_not_elsewhere(stderr):
    """The same call, only stderr's isatty differs (the default, OPSSTATS_PROGRESS unset)."""
    err = stderr(terminal=True)
    CM.interval("f1", n_resamples=2_000, rng=0)
    assert _last_line(err.getvalue()).startswith("dirichlet [##############################]")
    assert "2000/2000" in err.getvalue()
    err = stderr(terminal=False)
    CM.interval("f1", n_resamples=2_000, rng=0)
    assert err.getvalue() == ""


def test_auto_waits_before_drawing(stderr, monkeypatch):
    """A quick operation draws nothing in a terminal: the bar appears after DELAY."""
    monkeypatch.setattr(_progress, "DELAY", 3600.0)
    err = stderr(terminal=True)
    with progress(3, None, "quick") as tick:
        tick(3)
    assert err.getvalue() == ""


@pytest.mark.parametrize(
    "setting, argument, terminal, drawn",
    [
        ("1", None, False, True),  # forced on: into a file or a pipe too
        ("0", None, True, False),  # switched off, even in a terminal
        ("", None, True, True),  # empty: auto
        ("auto", None, False, False),
        ("0", True, False, True),  # the argument wins for its call
        ("1", False, True, False),
    ],
)
def test_switch_and_argument(stderr, monkeypatch, setting, argument, terminal, drawn):
    err = stderr(terminal=terminal)
    monkeypatch.setenv("OPSSTATS_PROGRESS", setting)
    CM.interval("f1", n_resamples=1_000, rng=0, progress=argument)
    assert ("dirichlet [" in err.getvalue()) == drawn


def test_a_bad_setting_is_refused(stderr, monkeypatch):
    stderr(terminal=True)
    monkeypatch.setenv("OPSSTATS_PROGRESS", "yes")
    with pytest.raises(
        ValueError, match=r"OPSSTATS_PROGRESS must be 'auto', '0' or '1'; got 'yes'"
    ):
        CM.interval("f1", n_resamples=100, rng=0)


@pytest.mark.parametrize("value", [1, "yes", 0.5])
def test_a_bad_argument_is_refused(value):
    with pytest.raises(TypeError, match=r"`progress` must be True, False or None; got"):
        CM.interval("f1", n_resamples=100, rng=0, progress=value)


def test_the_numbers_do_not_depend_on_the_bar(stderr):
    stderr(terminal=True)
    shown = CM.interval("f1", n_resamples=1_000, rng=3, progress=True)
    hidden = CM.interval("f1", n_resamples=1_000, rng=3, progress=False)
    assert shown.ci == hidden.ci and shown.estimate == hidden.estimate


def test_one_bar_at_a_time(stderr):
    """Inside an open bar, the operations' own bars stay silent, and the outer one ends
    on its own line."""
    err = stderr(terminal=True)
    with progress(2, True, "outer") as tick:
        CM.interval("f1", n_resamples=500, rng=0, progress=True)
        tick()
        CM.interval("f1", n_resamples=500, rng=1, progress=True)
        tick()
    text = err.getvalue()
    assert "dirichlet" not in text
    assert _last_line(text) == "outer [##############################] 2/2, 0 s"
    assert text.endswith("\n") and text.count("\n") == 1


def test_counted_yields_every_item_and_counts_them(stderr):
    err = stderr(terminal=True)
    assert list(counted(iter(range(5)), 5, "items")) == [0, 1, 2, 3, 4]
    assert "items [##############################] 5/5" in err.getvalue()
    err = stderr(terminal=True)
    assert list(counted(["one"], 1, "items")) == ["one"]  # no bar over a single item
    assert err.getvalue() == ""


def test_time_left_is_estimated_from_the_rate(stderr, monkeypatch):
    """1 of 4 items done in 10 s: about 30 s left (a clock that the test moves)."""
    clock = iter([100.0, 110.0, 110.0])
    monkeypatch.setattr(_progress.time, "monotonic", lambda: next(clock))
    err = stderr(terminal=True)
    bar = _progress._Bar(4, "work", 0.0)  # drawn at 100 s: 0/4
    bar.tick()  # at 110 s: 1/4
    assert (
        _last_line(err.getvalue())
        == "work [#######-----------------------] 1/4, 10 s, about 30 s left"
    )


def test_a_reference_pass_reports_its_chunks(stderr, monkeypatch):
    """A streamed reference's pass over 3 chunks of 10,000 curves draws 0/3 to 3/3."""
    err = stderr(terminal=False)
    monkeypatch.setenv("OPSSTATS_PROGRESS", "1")
    BinormalCurves(n_curves=30_000, n_points=20, seed=1).ops("pr_auc", 0.6, prevalence=0.2)
    text = err.getvalue()
    assert "BinormalCurves, 30,000 curves [" in text
    # redrawn at most every 0.1 s: the first and the last state, in order between them
    drawn = [int(s.split("] ")[1][0]) for s in text.strip().split("\r")]
    assert drawn[0] == 0 and drawn[-1] == 3 and drawn == sorted(drawn)


def test_evaluate_reports_its_groups(stderr, monkeypatch):
    rng = np.random.default_rng(0)
    y = rng.random(600) < 0.3
    df = pd.DataFrame(
        {"y": y.astype(int), "s": rng.normal(y * 1.0, 1.0), "g": np.repeat(list("abc"), 200)}
    )
    err = stderr(terminal=False)
    monkeypatch.setenv("OPSSTATS_PROGRESS", "1")
    # a bootstrap interval: the per-group path (the arrays over groups take the Dirichlet)
    out = evaluate(
        df, truth="y", score="s", threshold=0.5, metrics=["f1"], by="g", ci="bootstrap", rng=0
    )
    assert len(out) == 3  # a row per group
    assert _last_line(err.getvalue()).startswith(
        "evaluate, groups [##############################] 3/3"
    )


def test_compare_groups_reports_its_comparisons(stderr, monkeypatch):
    """One bar over the (group, metric) comparisons, each every pair of its levels; the
    bootstraps inside it draw none of their own."""
    rng = np.random.default_rng(2)
    y = rng.random(600) < 0.5  # over 100 of each class in each group: no SmallCountWarning
    rows = pd.DataFrame({"id": np.arange(600), "y": y.astype(int), "g": np.repeat(["a", "b"], 300)})
    long = pd.concat(
        [
            rows.assign(model=m, s=rng.normal(shift * y, 1.0))
            for m, shift in zip("ABC", (1, 0.6, 0.3), strict=True)
        ]
    )
    err = stderr(terminal=False)
    monkeypatch.setenv("OPSSTATS_PROGRESS", "1")
    out = compare_groups(
        long,
        truth="y",
        score="s",
        compare_by="model",
        id="id",
        by="g",
        metrics=["roc_auc", "pr_auc"],
        method="bootstrap",
        n_resamples=100,
        rng=0,
    )
    assert len(out) == 2 * 2 * 3  # groups x metrics x pairs of three models
    assert _last_line(err.getvalue()).startswith(
        "compare_groups, comparisons [##############################] 4/4"
    )
    assert "bootstrap [" not in err.getvalue()
    # evaluate(..., compare=) goes through the same loop: values and OPS of each
    err = stderr(terminal=False)
    evaluate(long, truth="y", score="s", compare="model", id="id", by="g", metrics=["roc_auc"])
    assert _last_line(err.getvalue()).startswith(
        "compare_groups, comparisons [##############################] 2/2"
    )
    # and one comparison draws no bar over itself (its draws' bar instead)
    err = stderr(terminal=False)
    compare_groups(
        long,
        truth="y",
        score="s",
        compare_by="model",
        id="id",
        method="bootstrap",
        n_resamples=200,
        rng=0,
    )
    assert "compare_groups, comparisons [" not in err.getvalue()
    assert "paired bootstrap [" in err.getvalue()


def test_a_prevalence_profile_reports_its_prevalences(stderr, monkeypatch):
    err = stderr(terminal=False)
    monkeypatch.setenv("OPSSTATS_PROGRESS", "1")
    profile = ops_prevalence_profile(CM, "f1", [0.1, 0.2, 0.5], ci="bootstrap", n_resamples=200)
    assert len(profile.table) == 4  # the three and the matrix's own prevalence
    # one bar over the prevalences; the bootstraps inside it draw none of their own
    assert _last_line(err.getvalue()).startswith(
        "prevalence profile [##############################] 4/4"
    )
    assert "bootstrap [" not in err.getvalue()


def test_curve_bootstrap_reports_progress(stderr):
    err = stderr(terminal=True)
    rng = np.random.default_rng(1)
    y = rng.random(300) < 0.4
    ScoreCurve.from_scores(y, rng.normal(y * 1.0, 1.0)).interval(
        "roc_auc", method="bootstrap", n_resamples=400, rng=0
    )
    assert "bootstrap [" in err.getvalue() and "400/400" in err.getvalue()


def test_the_command_line_draws_no_bar_into_a_pipe(tmp_path):
    """``opsstats report`` with stderr a pipe (not a terminal): nothing but the report."""
    path = tmp_path / "p.csv"
    rng = np.random.default_rng(2)
    y = rng.random(400) < 0.3
    pd.DataFrame({"y": y.astype(int), "s": rng.normal(y * 1.0, 1.0), "g": [0, 1] * 200}).to_csv(
        path, index=False
    )
    env = {k: v for k, v in os.environ.items() if k != "OPSSTATS_PROGRESS"}
    args = [sys.executable, "-m", "opsstats.cli", "report", str(path), "--truth", "y"]
    args += ["--score", "s", "--threshold", "0.5", "--group", "g", "--metric", "f1"]
    args += ["--ci", "bootstrap"]
    args += ["--n-resamples", "200", "--seed", "0"]
    quiet = subprocess.run(args, capture_output=True, text=True, env=env, cwd=ROOT, timeout=600)
    assert quiet.returncode == 0 and quiet.stderr == "", quiet.stderr
    forced = subprocess.run(
        args,
        capture_output=True,
        text=True,
        env={**env, "OPSSTATS_PROGRESS": "1"},
        cwd=ROOT,
        timeout=600,
    )
    assert forced.returncode == 0 and "evaluate, groups [" in forced.stderr
    assert forced.stdout == quiet.stdout
