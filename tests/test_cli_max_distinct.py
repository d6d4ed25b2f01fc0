"""`opsstats report`'s default `--max-distinct` (docs/method.md#command-line-engines): a
curve is counted per distinct score while every group has at most 100,000 distinct
scores, exactly as without the default; beyond, in as many equal-width bins, and the
report says so with the range of the unbinned value, which holds the value of the rows
(scikit-learn's). The memory this bounds is measured by benchmarks/bench_first_use.py
(section report), not here."""

from __future__ import annotations

import io
import re

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import average_precision_score, roc_auc_score

from opsstats import DirectedBinaryTree, cli
from opsstats.cli._arguments import DEFAULT_MAX_DISTINCT
from opsstats.grouped import _curve_reference
from tests.test_cli import assert_one_line_error, invoke

#: A small curve reference: the default's first pass takes seconds per prevalence, and
#: what is tested here is the counting of the curves, not the reference.
SMALL_DBT = DirectedBinaryTree(depth=5, n_curves=2000)


@pytest.fixture(autouse=True)
def small_reference(monkeypatch):
    monkeypatch.setattr(_curve_reference, "_default_curve_reference", lambda pis: SMALL_DBT)


def _rows(n_distinct: int, seed: int) -> pd.DataFrame:
    """Rows with exactly ``n_distinct`` distinct scores (continuous, one row each)."""
    rng = np.random.default_rng(seed)
    y = rng.random(n_distinct) < 0.3
    s = np.round(rng.normal(y * 1.2, 1), 9)
    while np.unique(s).size < n_distinct:  # a tie in 9 decimals: draw those rows again
        first = np.unique(s, return_index=True)[1]
        again = np.setdiff1d(np.arange(n_distinct), first)
        s[again] = np.round(rng.normal(y[again] * 1.2, 1), 9)
    return pd.DataFrame({"y": y.astype(int), "s": s})


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """Parquet files with the default's number of distinct scores and one more."""
    folder = tmp_path_factory.mktemp("distinct")
    out = {}
    for name, n in (("at", DEFAULT_MAX_DISTINCT), ("over", DEFAULT_MAX_DISTINCT + 1)):
        rows = _rows(n, seed=n)
        rows.to_parquet(folder / f"{name}.parquet")
        out[name] = (folder / f"{name}.parquet", rows)
    return out


def _body(text: str) -> str:
    """Without the title (which names the engine; wrapped at the width, so every line
    above the first rule) and the rules."""
    lines = text.splitlines()
    body = lines[next(i for i, line in enumerate(lines) if line and set(line) == {"="}) :]
    return "\n".join(line for line in body if set(line) - set("-="))


CURVES = ("--metric", "roc_auc", "--metric", "pr_auc")


def test_beyond_the_default_the_curves_are_binned_with_the_range(files):
    path, rows = files["over"]
    status, out, err = invoke("report", path, "--truth", "y", "--score", "s", *CURVES)
    assert status == 0, err
    text = " ".join(out.split())  # printed notes are wrapped at 100 columns
    said = f"scores in {DEFAULT_MAX_DISTINCT} equal-width bins (ties inside a bin)"
    assert text.count(said) == 2, out
    status, csv_out, err = invoke(
        "report", path, "--truth", "y", "--score", "s", *CURVES, "--format", "csv"
    )
    assert status == 0, err
    table = pd.read_csv(io.StringIO(csv_out))
    exact = {  # the rows' values, by scikit-learn
        "roc_auc": roc_auc_score(rows["y"], rows["s"]),
        "pr_auc": average_precision_score(rows["y"], rows["s"]),
    }
    for metric, value in exact.items():
        row = table[table["metric"] == metric].iloc[0]
        lo, hi = map(float, re.search(r"lies in \[([^,]+), ([^\]]+)\]", row["method"]).groups())
        assert lo <= value <= hi, (metric, lo, value, hi)
        assert lo <= row["value"] <= hi
        assert 0 < hi - lo < 1e-3, (metric, lo, hi)  # 100,000 bins: a narrow range
        assert row["value"] != value  # binned: the rows' order inside a bin is lost
    # pandas counts the same bins
    status, pandas_out, err = invoke(
        "report", path, "--truth", "y", "--score", "s", *CURVES, "--engine", "pandas"
    )
    assert status == 0, err
    assert _body(pandas_out) == _body(out)


def test_at_the_default_the_curves_are_exact_as_without_it(files):
    path, rows = files["at"]
    status, out, err = invoke("report", path, "--truth", "y", "--score", "s", "--threshold", "0.5")
    assert status == 0, err
    assert "bins" not in out
    status, never, err = invoke(
        "report", path, "--truth", "y", "--score", "s", "--threshold", "0.5",
        "--max-distinct", "none",
    )  # fmt: skip
    assert status == 0, err
    assert out == never
    status, csv_out, err = invoke(
        "report", path, "--truth", "y", "--score", "s", *CURVES, "--format", "csv", "--ci", "none"
    )
    assert status == 0, err
    table = pd.read_csv(io.StringIO(csv_out)).set_index("metric")["value"]
    assert table["roc_auc"] == pytest.approx(roc_auc_score(rows["y"], rows["s"]), abs=1e-12)
    assert table["pr_auc"] == pytest.approx(
        average_precision_score(rows["y"], rows["s"]), abs=1e-12
    )


def test_the_options_choose_the_counting(files):
    """--max-distinct M bins beyond M into M bins, or into --bins; --bins alone bins
    always; --max-distinct none never, but for --bins; bad values are one line."""
    path, _ = files["at"]
    common = ("report", path, "--truth", "y", "--score", "s", "--metric", "roc_auc")

    def counted(*options: str) -> str:
        status, out, err = invoke(*common, *options)
        assert status == 0, err
        found = re.search(r"scores in (\d+) equal-width bins", " ".join(out.split()))
        return found.group(1) if found else "exact"

    assert counted("--max-distinct", "50000") == "50000"
    assert counted("--max-distinct", "50000", "--bins", "300") == "300"
    assert counted("--max-distinct", "1e5", "--bins", "300") == "exact"
    assert counted("--bins", "300") == "300"
    assert counted("--max-distinct", "none", "--bins", "300") == "300"
    assert counted("--max-distinct", "None") == "exact"
    for bad, says in (
        ("0", "must be a positive whole number or 'none'; got 0"),
        ("-3", "must be a positive whole number or 'none'; got -3"),
        ("lots", "expected a whole number; got 'lots'"),
    ):
        line = assert_one_line_error(*invoke(*common, "--max-distinct", bad))
        assert line.endswith(f"argument --max-distinct: {says}"), line


def test_a_binned_curve_is_drawn_without_the_threshold(files, tmp_path, monkeypatch):
    """--plot draws the curve the report counted: binned beyond the default, without
    the operating point of --threshold (a binned curve has no point there); exact at
    the default, with it."""
    drawn = []
    real = cli.plotting.plot_curve

    def plot_curve(curve, *args, **kwargs):
        drawn.append((curve.thresholds.size, kwargs.get("threshold")))
        return real(curve, *args, reference=SMALL_DBT, **kwargs)

    monkeypatch.setattr(cli.plotting, "plot_curve", plot_curve)
    for name in ("over", "at"):
        path, _ = files[name]
        status, _, err = invoke(
            "report", path, "--truth", "y", "--score", "s", "--threshold", "0.5",
            "--metric", "pr_auc", "--ci", "none", "--plot", tmp_path / f"{name}.png",
        )  # fmt: skip
        assert status == 0, err
    (binned_points, binned_mark), (exact_points, exact_mark) = drawn
    assert binned_points <= DEFAULT_MAX_DISTINCT and binned_mark is None
    assert exact_points == DEFAULT_MAX_DISTINCT and exact_mark == 0.5
