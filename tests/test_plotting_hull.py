"""plot_hull: the curves, their hull, the iso-cost line and the chosen point (Agg)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest
from test_partial_auc import _data

from opsstats import ScoreCurve
from opsstats.curves.hull import optimal_point, roc_hull
from opsstats.plotting import plot_hull


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def test_plot_hull_draws_the_hull_line_and_point():
    y, s = _data("aSAH")
    a, b = ScoreCurve.from_scores(y, s), ScoreCurve.from_scores(y, -s, direction=">")
    ax = plot_hull([a, b], prevalence=0.3, cost_fp=1, cost_fn=4, names=["s100b", "copy"])
    hull = roc_hull([a, b])
    lines = {line.get_label(): line for line in ax.get_lines()}
    h = lines["ROC convex hull"]
    np.testing.assert_allclose(h.get_xdata(), hull[hull.vertex].fpr)
    np.testing.assert_allclose(h.get_ydata(), hull[hull.vertex].tpr)
    p = optimal_point([a, b], 0.3, 1, 4)
    point = next(v for k, v in lines.items() if k.startswith("least expected cost"))
    assert point.get_xdata()[0] == p.fpr and point.get_ydata()[0] == p.tpr
    iso = next(v for k, v in lines.items() if k.startswith("iso-cost"))
    slope = np.diff(iso.get_ydata())[0] / np.diff(iso.get_xdata())[0]
    assert slope == pytest.approx(p.skew_ratio)
    # the iso-cost line passes through the chosen point
    assert np.interp(p.fpr, iso.get_xdata(), iso.get_ydata()) == pytest.approx(p.tpr)
    assert [t.get_text() for t in ax.get_legend().get_texts()][:2] == ["s100b", "copy"]


def test_plot_hull_iso_lines_and_given_axes():
    y, s = _data("medium")
    _fig, ax0 = plt.subplots()
    ax = plot_hull(ScoreCurve.from_scores(y, s), prevalence=0.2, iso=[("accuracy", 0.8)], ax=ax0)
    assert ax is ax0
    iso = next(line for line in ax.get_lines() if line.get_label() == "iso-accuracy 0.8")
    # TPR = r FPR + (1 + r) acc - r with r = N / P = 4
    assert iso.get_ydata()[0] == pytest.approx(5 * 0.8 - 4)


def test_plot_hull_bad_input():
    c = ScoreCurve.from_scores([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4])
    with pytest.raises(ValueError, match="`iso` lines need `prevalence`"):
        plot_hull(c, iso=[("accuracy", 0.5)])
    with pytest.raises(ValueError, match="`names` must name each"):
        plot_hull([c, c], names=["one"])
    with pytest.raises(TypeError, match="`ax` must be a matplotlib Axes"):
        plot_hull(c, ax="axes")
