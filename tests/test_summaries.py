"""Snapshots of printed results: each line says the number and how it was made. The
numbers inside the snapshots are checked against independent computations too."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from statsmodels.stats.proportion import proportion_confint

from opsstats import ConfusionMatrix, DirectedBinaryTree
from opsstats.report import report

CM = ConfusionMatrix(tp=45, fp=30, fn=15, tn=210)


def _printed(result) -> str:
    """The result's one line (``to_string``), checked against its print: the same words,
    wrapped at 100 columns with continued lines indented by 4."""
    line, printed = result.to_string(), str(result)
    assert printed.split() == line.split()
    assert all(len(row) <= 100 for row in printed.splitlines())
    assert all(row.startswith("    ") for row in printed.splitlines()[1:])
    return line


def test_ops_result_line():
    text = _printed(CM.ops("mcc"))
    assert text == (
        "OPS(Matthews correlation coefficient = 0.5774 at prevalence 0.2) = 0.9309 "
        "[Uniform(alpha, beta) on [0, 1]^2; exact (closed form)]"
    )
    # by hand: (45*210 - 30*15) / sqrt(75*60*225*240)
    assert f"{9000 / np.sqrt(75 * 60 * 225 * 240):.4f}" == "0.5774"


def test_ops_result_with_interval_line():
    assert _printed(CM.ops("f1", ci="dirichlet", rng=0)) == (
        "OPS(F1 score = 0.6667 at prevalence 0.2) = 0.9375, 95% CI 0.8905-0.9634 "
        "(Dirichlet-multinomial, Jeffreys prior, 10000 draws, prevalence fixed, "
        "equal-tailed) [Uniform(alpha, beta) on [0, 1]^2; exact (closed form)]"
    )
    # the OPS of F1 = 2/3 at pi = 0.2 by the paper's eq. 7 (mu > 2 pi / (1 + pi))
    mu, pi = 2 / 3, 0.2
    eq7 = (1 + pi) * mu / (2 * pi * (2 - mu)) - ((1 + pi) * mu - 2 * pi) ** 2 / (
        2 * pi * (1 - pi) * mu * (2 - mu)
    )
    assert f"{eq7:.4f}" == "0.9375"


def test_interval_result_lines():
    assert _printed(CM.interval("f1", method="bootstrap", rng=0)) == (
        "F1 score = 0.6667, 95% CI 0.5816-0.7465 (stratified bootstrap, 10000 resamples, "
        "percentile)"
    )
    assert str(CM.interval("beta", method="wilson")) == (
        "beta (FNR) = 0.2500, 95% CI 0.1578-0.3723 (Wilson score)"
    )
    lo, hi = proportion_confint(15, 60, method="wilson")
    assert (f"{lo:.4f}", f"{hi:.4f}") == ("0.1578", "0.3723")


def test_monte_carlo_result_line():
    ref = DirectedBinaryTree(depth=4, n_curves=1000, seed=1)
    r = ref.ops("pr_auc", 0.5, prevalence=0.2)
    assert _printed(r) == (
        "OPS(AUC(PR, step) = 0.5 at prevalence 0.2) = 0.8350 "
        "[DirectedBinaryTree(depth=4, n_curves=1000, seed=1); Monte Carlo, "
        "1000 DBT curves; step rule; MC s.e. 0.012]"
    )
    assert r.standard_error == pytest.approx(np.sqrt(0.835 * 0.165 / 1000))


REPORT = """\
Evaluation of column 'p' against 'y' (n = 100)
====================================================================
              n prevalence  value            CI    OPS        OPS CI
g metric how
a f1     [1] 50     0.3000 0.7143 0.4899-0.8525 0.9238 0.6985-0.9809
  recall [1] 50     0.3000 0.6667 0.4285-0.8452 0.6667 0.4285-0.8452
b f1     [1] 50     0.3000 0.7407 0.5159-0.8659 0.9382 0.7376-0.9843
  recall [1] 50     0.3000 0.6667 0.4097-0.8619 0.6667 0.4097-0.8619
--------------------------------------------------------------------
Counts g=a: TP=10, FP=3, FN=5, TN=32.
Counts g=b: TP=10, FP=2, FN=5, TN=33.
[1] exact (closed form); interval: Dirichlet-multinomial, Jeffreys prior, 500
    draws, prevalence fixed, equal-tailed
References: Uniform(alpha, beta) on [0, 1]^2.
Intervals are 95% intervals.
OPS (o-value): the percentile rank of the value among the reference's
    performances at the test set's prevalence; 0.5 is the reference's median,
    higher is better."""


def test_report_snapshot_and_formats():
    df = pd.DataFrame(
        {
            "y": [1] * 30 + [0] * 70,
            "p": [1] * 20 + [0] * 10 + [1] * 5 + [0] * 65,
            "g": ["a", "b"] * 50,
        }
    )
    rep = report(df, truth="y", pred="p", metrics=["f1", "recall"], by="g", n_resamples=500, rng=0)
    assert str(rep) == REPORT
    # counts by hand: rows alternate a, b; group a gets the even positions
    a = df[df["g"] == "a"]
    assert ConfusionMatrix.from_predictions(a["y"], a["p"]).as_dict() == {
        "tp": 10,
        "fp": 3,
        "fn": 5,
        "tn": 32,
    }
    assert f"{20 / 28:.4f}" == "0.7143"  # F1 of group a: 2 TP / (2 TP + FP + FN)
    html = rep._repr_html_()
    assert html.count("<tr") >= 5 and "Dirichlet-multinomial" in html
    frame = rep.to_frame()
    assert frame.shape[0] == 4 and frame["value"].iloc[0] == pytest.approx(20 / 28)
    assert rep.render("csv").splitlines()[0].startswith('"g","metric","n","prevalence","value"')
    with pytest.raises(ValueError, match="`fmt` must be one of 'text', 'csv', 'json', 'html'"):
        rep.render("pdf")


def test_rounding_only_when_printed():
    rep = report(
        pd.DataFrame({"y": [1, 0, 1, 0, 1, 1, 0, 0], "p": [1, 0, 0, 0, 1, 1, 1, 0]}),
        truth="y",
        pred="p",
        metrics=["f1"],
        ci=None,
    )
    assert rep.table["value"].iloc[0] == 0.75  # full precision in the table
    assert "0.750" in rep.render("text", digits=3) and "0.7500" not in rep.render("text", 3)


# --------------------------------------------------------- tables that fit the terminal

WIDE_80 = """\
Evaluation of scores 's' at threshold 0.5 against 'y' (n = 240)
=========================================================================
                                 n prevalence  value            CI    OPS
hospital metric            how
Elder    f1                [1] 120     0.3250 0.6337 0.5375-0.7038 0.8507
         balanced_accuracy [1] 120     0.3250 0.7251 0.6318-0.7901 0.8488
         roc_auc           [2] 120     0.3250 0.8343 0.7601-0.9085 0.9220
General  f1                [1] 120     0.3833 0.6857 0.6008-0.7587 0.8637
         balanced_accuracy [1] 120     0.3833 0.7359 0.6569-0.8036 0.8605
         roc_auc           [2] 120     0.3833 0.7792 0.6891-0.8694 0.8685

                                      OPS CI MC s.e.
hospital metric            how
Elder    f1                [1] 0.7379-0.9074       0
         balanced_accuracy [1] 0.7288-0.9119       0
         roc_auc           [2] 0.8434-0.9706  0.0060
General  f1                [1] 0.7643-0.9231       0
         balanced_accuracy [1] 0.7646-0.9228       0
         roc_auc           [2] 0.7683-0.9452  0.0076
-------------------------------------------------------------------------
Counts hospital=Elder: TP=32, FP=30, FN=7, TN=51.
Counts hospital=General: TP=36, FP=23, FN=10, TN=51.
[1] exact (closed form); interval: Dirichlet-multinomial, Jeffreys prior, 500
    draws, prevalence fixed, equal-tailed
[2] Monte Carlo, 2000 DBT curves; interval: DeLong, Sun-Xu algorithm; reference
    Monte Carlo error added
References: Uniform(alpha, beta) on [0, 1]^2; DirectedBinaryTree(depth=4,
    n_curves=2000, seed=1).
Intervals are 95% intervals.
OPS (o-value): the percentile rank of the value among the reference's
    performances at the test set's prevalence; 0.5 is the reference's median,
    higher is better."""

WIDE_200 = """\
Evaluation of scores 's' at threshold 0.5 against 'y' (n = 240)
===============================================================================================
                                 n prevalence  value            CI    OPS        OPS CI MC s.e.
hospital metric            how
Elder    f1                [1] 120     0.3250 0.6337 0.5375-0.7038 0.8507 0.7379-0.9074       0
         balanced_accuracy [1] 120     0.3250 0.7251 0.6318-0.7901 0.8488 0.7288-0.9119       0
         roc_auc           [2] 120     0.3250 0.8343 0.7601-0.9085 0.9220 0.8434-0.9706  0.0060
General  f1                [1] 120     0.3833 0.6857 0.6008-0.7587 0.8637 0.7643-0.9231       0
         balanced_accuracy [1] 120     0.3833 0.7359 0.6569-0.8036 0.8605 0.7646-0.9228       0
         roc_auc           [2] 120     0.3833 0.7792 0.6891-0.8694 0.8685 0.7683-0.9452  0.0076
-----------------------------------------------------------------------------------------------
Counts hospital=Elder: TP=32, FP=30, FN=7, TN=51.
Counts hospital=General: TP=36, FP=23, FN=10, TN=51.
[1] exact (closed form); interval: Dirichlet-multinomial, Jeffreys prior, 500 draws, prevalence
    fixed, equal-tailed
[2] Monte Carlo, 2000 DBT curves; interval: DeLong, Sun-Xu algorithm; reference Monte Carlo error
    added
References: Uniform(alpha, beta) on [0, 1]^2; DirectedBinaryTree(depth=4, n_curves=2000, seed=1).
Intervals are 95% intervals.
OPS (o-value): the percentile rank of the value among the reference's performances at the test set's
    prevalence; 0.5 is the reference's median, higher is better."""


def _wide_report():
    """Two hospitals, two confusion-matrix metrics and the ROC AUC (DeLong's interval,
    closed form; a small DBT, whose Monte Carlo error gives the MC s.e. column)."""
    rng = np.random.default_rng(5)
    n = 240
    y = rng.random(n) < 0.35
    df = pd.DataFrame(
        {
            "y": y.astype(int),
            "s": np.round(rng.normal(1.2 * y, 1), 1),
            "hospital": np.where(np.arange(n) % 2, "General", "Elder"),
        }
    )
    rep = report(
        df,
        truth="y",
        score="s",
        threshold=0.5,
        metrics=["f1", "balanced_accuracy", "roc_auc"],
        by="hospital",
        n_resamples=500,
        rng=0,
        curve_ci="delong",
        curve_reference=DirectedBinaryTree(depth=4, n_curves=2000, seed=1),
    )
    return df, rep


@pytest.mark.parametrize("columns, snapshot", [(80, WIDE_80), (200, WIDE_200)])
def test_tables_follow_the_terminal_width(monkeypatch, columns, snapshot):
    """COLUMNS=80: the table in two blocks of columns, each with the row labels and the
    footnote key; COLUMNS=200: one block; the intervals one column each; every line
    within the width, prose within 100 columns."""
    from sklearn.metrics import roc_auc_score

    monkeypatch.setenv("COLUMNS", str(columns))
    df, rep = _wide_report()
    text = str(rep)
    assert text == snapshot
    lines = text.splitlines()
    assert max(map(len, lines)) <= columns
    table = lines[2 : lines.index("-" * len(lines[1]))]
    blocks = "\n".join(table).split("\n\n")
    assert len(blocks) == (2 if columns == 80 else 1)
    for block in blocks:  # the key is with the labels of every block
        assert block.splitlines()[1].split() == ["hospital", "metric", "how"]
        assert block.count("[1]") == 4 and block.count("[2]") == 2
    notes = lines[lines.index("-" * len(lines[1])) + 1 :]
    assert max(map(len, notes)) <= min(columns, 100)
    # the numbers: F1 = 2 TP / (2 TP + FP + FN) from the printed counts, and
    # roc_auc_score(y, s) of scikit-learn for each hospital
    assert f"{64 / (64 + 30 + 7):.4f}" == "0.6337" and "0.6337" in text
    for _name, g in df.groupby("hospital"):
        assert f"{roc_auc_score(g['y'], g['s']):.4f}" in text


def test_without_a_terminal_tables_fit_80_columns(monkeypatch):
    """No COLUMNS and no terminal (a pipe, a notebook, the documentation): 80 columns."""
    import subprocess
    import sys

    monkeypatch.delenv("COLUMNS")
    here = str(Path(__file__).resolve().parent)
    code = (
        f"import sys; sys.path.insert(0, {here!r}); from test_summaries import _wide_report; "
        "print(_wide_report()[1])"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=600
    ).stdout
    assert out.rstrip("\n") == WIDE_80


def test_interval_column_ends_share_their_decimals():
    # An end near 1 needs more decimals (0.99980); its partner is written with as many
    # (0.99810, not 0.9981), so a column reads as one interval.
    from opsstats._summary import _interval_column, format_unit

    low = pd.Series([0.9981, 0.5, -0.01, 0.0005])
    high = pd.Series([0.9998, 0.6, 0.02, 0.9])
    cells = _interval_column(low, high, 4).tolist()
    assert cells[0] == "0.99810 to 0.99980"  # ' to ': the column has a negative end
    assert cells[0].split(" to ") == format_unit([0.9981, 0.9998], 4)
    assert cells[1] == "0.5000 to 0.6000"
    assert cells[2] == "-0.0100 to 0.0200"
    assert cells[3] == "0.0005 to 0.9000"  # below 1e-3: significant digits, as alone
    positive = _interval_column(pd.Series([0.9981]), pd.Series([0.9998]), 4).tolist()
    assert positive == ["0.99810-0.99980"]
