"""`opsstats report` through DuckDB: a directory or glob of Parquet files, or a CSV with
--engine duckdb, gives the report of the same rows read by pandas (same numbers, same
layout); bad input is one line on stderr and exit 2."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from opsstats import DirectedBinaryTree, ScoreCurve, cli
from tests.test_cli import assert_one_line_error, invoke, opts


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


def _body(text: str) -> str:
    """Without the title and the rules, whose widths follow the title's."""
    lines = text.splitlines()[1:]
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
        "report", dataset / "all.csv", "--truth", "y", "--score", "s", *options.split()
    )
    assert status == 0, err
    for source in (str(dataset), str(dataset / "day=*" / "*.parquet")):
        status, out, err = invoke(
            "report", source, "--truth", "y", "--score", "s", *options.split()
        )
        assert status == 0, err
        assert "(counted by DuckDB)" in out.splitlines()[0]
        assert _body(out) == _body(pandas_out)
    status, _, err = invoke(
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
    assert _body(out) == _body(pandas_out)


@pytest.mark.parametrize(
    ("args", "starts"),
    [
        (["--truth", "nope", "--score", "s"], "`truth` names a column"),
        (["--truth", "y", "--score", "seg"], "`score` (column 'seg') must be numeric"),
        (["--truth", "seg", "--score", "s"], "`pos_label` must be given"),
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
    assert "scores in 20 equal-width bins (ties inside a bin): the unbinned value lies in [" in out
    assert_one_line_error(
        *invoke("report", dataset, "--truth", "y", "--score", "s", "--bins", "1"),
        starts="`bins` must be an integer >= 2",
    )
