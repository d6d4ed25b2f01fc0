"""OPS near 0 and 1 printed with decimals enough to tell them apart and from the ends:
one rule (:func:`opsstats._summary.unit_decimals`) for the result objects' ``to_string``,
the summaries' tables, the comparisons and the displays' labels."""

from __future__ import annotations

import re

import matplotlib
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from opsstats import ConfusionMatrix, OPSResult, ScoreCurve, compare
from opsstats._summary import Summary
from opsstats.results import ConfidenceInterval, IntervalResult

matplotlib.use("Agg")


def _numbers(text: str) -> list[str]:
    return re.findall(r"\d+\.\d+", text)


@settings(max_examples=500, deadline=None)
@given(
    st.floats(0, 1, exclude_min=True, exclude_max=True),
    st.floats(0, 1, exclude_min=True, exclude_max=True),
    st.integers(1, 6),
)
def test_a_value_inside_the_unit_interval_never_prints_as_an_end(x, y, digits):
    from opsstats._summary import format_unit, unit_decimals

    low, high = min(x, y), max(x, y)
    printed = format_unit([low, high], digits)
    k = unit_decimals([low, high], digits)
    assert k >= digits and all(len(p.split(".")[1]) == k for p in printed)
    for v, p in zip((low, high), printed, strict=True):
        gap = min(v, 1 - v)
        if gap >= 10.0**-15:  # below float64's resolution of 1 nothing can show it
            assert float(p) not in (0.0, 1.0), (v, p)
            assert abs(float(p) - v) <= 0.5 * 10.0**-k + 1e-15
        if gap < min(0.1, 10.0 ** -(digits - 1)) and gap >= 1e-13:
            # two significant digits of the distance to the nearer end
            assert abs(min(float(p), 1 - float(p)) - gap) <= 0.05 * gap + 0.5 * 10.0**-k


def test_ends_and_ordinary_values_keep_the_digits_asked_for():
    from opsstats._summary import format_unit

    assert format_unit([1.0, 0.0, 0.5, 0.95], 3) == ["1.000", "0.000", "0.500", "0.950"]
    assert format_unit([1.0, 0.9995], 3) == ["1.00000", "0.99950"]  # 1 exactly, beside
    assert format_unit([float("nan"), 0.3], 2) == ["nan", "0.30"]


def test_the_grid_of_the_issue_is_told_apart():
    # mean OPS(F1) over a grid of C, as scikit-learn's cv_results_ gave them, printed
    # as the package prints an OPS (3 decimals asked for)
    means = [0.9927, 0.9983, 0.9985, 0.9978]
    printed = [
        OPSResult(m, 0.9, 0.3, "F1 score", "r", "exact").to_string(3).split(") = ")[1][:6]
        for m in means
    ]
    assert printed == ["0.9927", "0.9983", "0.9985", "0.9978"]


def test_an_ops_result_near_one_prints_its_interval():
    r = OPSResult(
        estimate=0.99962,
        value=0.91,
        prevalence=0.1,
        metric="lift",
        reference="DirectedBinaryTree()",
        method="Monte Carlo",
        ci=ConfidenceInterval(0.99931, 0.99987),
        confidence_level=0.95,
        ci_method="test",
    )
    text = r.to_string(digits=3)  # was "= 1.000, 95% CI 0.999-1.000"
    assert "= 0.99962, 95% CI 0.99931-0.99987" in text
    assert "1.000-1.000" not in r.to_string(digits=2)
    iv = IntervalResult(0.99962, ConfidenceInterval(0.99931, 0.99987), 0.95, "AUC", "test")
    assert iv.to_string(digits=3).startswith("AUC = 0.99962, 95% CI 0.99931-0.99987")


def test_a_confusion_matrix_of_a_good_classifier():
    cm = ConfusionMatrix(tp=98, fp=1, fn=2, tn=899)
    r = cm.ops("f1", ci="dirichlet", rng=0)
    assert 1 - r.estimate < 1e-4 and r.ci.high < 1  # an OPS of 0.99995, not 1
    text = r.to_string()  # was "= 1.0000, 95% CI 0.9996-1.0000"
    est, low, high = _numbers(text.split(" = ", 2)[2])[:3]
    assert (float(est), float(low), float(high)) == pytest.approx(
        (r.estimate, r.ci.low, r.ci.high), abs=1e-7
    )
    assert "1.0000" not in text
    table = cm.ops("f1").summary().as_text()  # the summary's table: the same rule
    assert f"{cm.ops('f1').estimate:.7f}"[:7] in table and " 1.0000 " not in table


def test_a_comparison_of_two_good_classifiers():
    rng = np.random.default_rng(3)
    y = np.r_[np.ones(100, int), np.zeros(900, int)]
    a = np.where(rng.random(1000) < 0.005, 1 - y, y)
    b = np.where(rng.random(1000) < 0.008, 1 - y, y)
    r = compare(y, y_pred={"A": a, "B": b}, metric="f1", ops=True, rng=0)
    text = r.to_string()
    last = text.splitlines()[-1].split()
    assert float(last[0]) == pytest.approx(r.estimate_a, abs=5e-6) and last[0] != "1.0000"


def test_the_display_label_of_a_saturated_ops():
    from opsstats.sklearn import OPSCurveDisplay

    curve = ScoreCurve.from_scores([0, 0, 1, 1, 0, 1], [0.1, 0.2, 0.7, 0.8, 0.3, 0.9])
    ops = OPSResult(
        estimate=0.99962,
        value=2.0,
        prevalence=0.5,
        metric="AUC(lift, step)",
        reference="r",
        method="m",
        ci=ConfidenceInterval(0.99931, 0.99987),
        confidence_level=0.95,
    )
    d = OPSCurveDisplay(curve, "lift", ops, name="model").plot()
    label = d.line_.get_label()  # was "OPS 1.000 (95% CI 1.000-1.000)"
    assert "OPS 0.99962 (95% CI 0.99931-0.99987)" in label
    matplotlib.pyplot.close(d.figure_)


def test_summary_cells():
    s = Summary("t", pd.DataFrame({"ops": [0.99983, 0.5, 1.0, 0.0004]}))
    text = s.as_text()
    assert "0.99983" in text and "0.5000" in text and "1.0000" in text and "0.0004" in text
