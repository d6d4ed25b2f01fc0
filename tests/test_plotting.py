"""Plots: the artists each function draws, on the Agg backend.

Each plot is checked through its artists (axis labels, limits, legend entries, the
numbers of lines, collections and patches) and, where a plot shows a number, against
the package's own computation of it: the shaded area of the unit square against the
exact uniform OPS (Zhao et al., Example 2: F1 = 0.6 at pi = 0.1 -> 0.957672), the band
and the standardized curve against the reference. Small DBT references (depth 5, 2,000
curves) keep the whole file fast.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import warnings
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.container import ErrorbarContainer
from matplotlib.patches import PathPatch

from opsstats import (
    BetterThanChance,
    ConfusionMatrix,
    DirectedBinaryTree,
    EmpiricalCurves,
    ScoreCurve,
    Uniform,
)
from opsstats.metrics import resolve_metric
from opsstats.ops import standardized_curve
from opsstats.plotting import (
    plot_curve,
    plot_distribution,
    plot_forest,
    plot_ops_function,
    plot_standardized_curve,
    plot_unit_square,
)

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def dbt():
    return DirectedBinaryTree(depth=5, n_curves=2000)


@pytest.fixture(scope="module")
def curve():
    rng = np.random.default_rng(7)
    y = rng.random(400) < 0.25
    return ScoreCurve.from_scores(y, rng.normal(size=400) + 1.2 * y)


def legend_texts(ax):
    return [t.get_text() for t in ax.get_legend().get_texts()]


def extent_in_saved_image(fig, artist) -> tuple[float, float, float, float]:
    """Save ``fig`` as an ordinary ``savefig`` does (no ``bbox_inches``) on the Agg
    backend, and return ``artist``'s extent in the image's pixels, (x0, y0, x1, y1)
    from the lower left, after checking the image is the figure's size."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    buf.seek(0)
    height, width = matplotlib.image.imread(buf).shape[:2]
    assert (width, height) == (round(fig.bbox.width), round(fig.bbox.height))
    box = artist.get_window_extent(fig.canvas.get_renderer())
    return box.x0, box.y0, box.x1, box.y1


def assert_inside_image(fig, artist) -> None:
    x0, y0, x1, y1 = extent_in_saved_image(fig, artist)
    width, height = fig.bbox.width, fig.bbox.height
    assert -0.5 <= x0 <= x1 <= width + 0.5 and -0.5 <= y0 <= y1 <= height + 0.5, (
        (x0, y0, x1, y1),
        (width, height),
    )


def polygon_area(patch: PathPatch) -> float:
    """Area of a compound path patch (shoelace formula over its closed polygons)."""
    total = 0.0
    for poly in patch.get_path().to_polygons():
        x, y = poly[:, 0], poly[:, 1]
        total += 0.5 * (np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))
    return abs(total)


# --------------------------------------------------------------------- import
def test_import_opsstats_does_not_import_matplotlib():
    code = (
        "import sys, opsstats, opsstats.plotting; "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] == 'matplotlib'); "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_no_function_calls_show(monkeypatch, dbt, curve):
    def fail(*args, **kwargs):
        raise AssertionError("plt.show() was called")

    monkeypatch.setattr(plt, "show", fail)
    cm = ConfusionMatrix(tp=45, fp=30, fn=15, tn=210)
    frame = pd.DataFrame(
        {"g": ["a"], "metric": ["f1"], "ops": [0.7], "ops_ci_low": [0.6], "ops_ci_high": [0.8]}
    )
    plot_ops_function("f1", (0.2,))
    plot_unit_square("f1", 0.5, 0.2)
    plot_curve(curve, "roc", reference=dbt)
    plot_standardized_curve(curve, points=[0.5], reference=dbt)
    plot_forest(frame)
    plot_distribution(cm.interval("f1", rng=0, n_resamples=500))


@pytest.mark.parametrize(
    "call",
    [
        lambda ax, d, c: plot_ops_function("f1", (0.2,), ax=ax),
        lambda ax, d, c: plot_unit_square("f1", 0.5, 0.2, ax=ax),
        lambda ax, d, c: plot_curve(c, "pr", reference=d, ax=ax),
        lambda ax, d, c: plot_standardized_curve(c, points=[0.5], reference=d, ax=ax),
        lambda ax, d, c: plot_forest(
            pd.DataFrame({"ops": [0.5], "ops_ci_low": [0.4], "ops_ci_high": [0.6]}), ax=ax
        ),
        lambda ax, d, c: plot_distribution(
            ConfusionMatrix(tp=5, fp=3, fn=2, tn=20).interval("f1", rng=0, n_resamples=300), ax=ax
        ),
    ],
)
def test_given_axes_is_used_and_returned(call, dbt, curve):
    _fig, (left, right) = plt.subplots(1, 2)
    out = call(right, dbt, curve)
    assert out is right
    assert right.has_data() or right.texts
    assert not left.has_data()
    assert len(plt.get_fignums()) == 1


def test_no_axes_makes_a_new_figure_each_time():
    a = plot_ops_function("recall", (0.3,))
    b = plot_ops_function("recall", (0.3,))
    assert a.figure is not b.figure


@pytest.mark.parametrize(
    "call",
    [
        lambda: plot_ops_function("f1", ax="axes"),
        lambda: plot_unit_square("f1", 0.5, 0.2, ax=plt.figure()),
    ],
)
def test_ax_of_the_wrong_type(call):
    with pytest.raises(TypeError, match="`ax` must be a matplotlib Axes or None"):
        call()


# ---------------------------------------------------------------- OPS function
def test_ops_function_f1_is_figure_1c():
    ax = plot_ops_function("f1")
    lines = ax.get_lines()
    assert len(lines) == 5
    assert ax.get_xlabel() == "F1 score"
    assert ax.get_ylabel() == "OPS (o-value)"
    assert ax.get_xlim() == (0.0, 1.0)
    assert ax.get_legend().get_title().get_text() == "prevalence π"
    assert legend_texts(ax) == ["0.1", "0.2", "0.3", "0.4", "0.5"]
    x, y = lines[0].get_data()
    i = int(np.argmin(np.abs(x - 0.6)))
    assert x[i] == pytest.approx(0.6)
    assert y[i] == pytest.approx(0.957672, abs=1e-6)  # Example 2, pi = 0.1
    # lower prevalence: higher OPS at the same F1 (Figure 1c)
    at_06 = [line.get_ydata()[i] for line in lines]
    assert np.all(np.diff(at_06) < 0)
    np.testing.assert_allclose(
        lines[4].get_ydata(), Uniform().ops("f1", x, prevalence=0.5).estimate, atol=1e-12
    )


def test_titles_show_symbols_not_ascii_spellings(dbt, curve):
    """The references' one-line descriptions are ASCII for printing; a figure shows
    their symbols."""
    ax = plot_ops_function("f1", (0.2,))
    assert ax.get_title() == "OPS function of F1 score\nreference: Uniform(α, β) on [0, 1]²"
    ax = plot_ops_function("f1", (0.2,), reference=BetterThanChance())
    assert ax.get_title().endswith("(α, β) uniform on {α + β ≤ 1}")
    ax = plot_standardized_curve(curve, points=[0.5], reference=dbt)
    assert ax.get_title().endswith("DirectedBinaryTree(depth=5, n_curves=2000, seed=20231)")
    assert not [t for ax in map(plt.figure, plt.get_fignums()) for t in _texts(ax) if "^" in t]


def _texts(fig) -> list[str]:
    return [t.get_text() for t in fig.findobj(matplotlib.text.Text)]


def test_ops_function_kwargs_reach_every_line():
    ax = plot_ops_function("f1", (0.1, 0.3), color="red", linewidth=3)
    assert all(line.get_color() == "red" and line.get_linewidth() == 3 for line in ax.get_lines())


def test_ops_function_scalar_prevalence_and_explicit_values():
    ax = plot_ops_function("recall", 0.3, values=[0.0, 0.25, 1.0])
    (line,) = ax.get_lines()
    np.testing.assert_allclose(line.get_ydata(), [0.0, 0.25, 1.0])  # OPS(recall) = recall


def test_ops_function_lower_is_better_decreases():
    ax = plot_ops_function("fpr", (0.3,))
    x, y = ax.get_lines()[0].get_data()
    assert np.all(np.diff(y) <= 0)
    np.testing.assert_allclose(y, 1 - x, atol=1e-12)
    assert ax.get_legend()._loc == 1  # upper right, away from the falling line


def test_ops_function_unbounded_metrics():
    ax = plot_ops_function("lift", (0.2, 0.5))
    lo, hi = ax.get_xlim()
    assert lo == 0 and 1 < hi < np.inf and ax.get_xscale() == "linear"
    ax = plot_ops_function("diagnostic_odds_ratio", (0.2, 0.5))
    assert ax.get_xscale() == "log"  # heavy right tail
    # the DOR does not depend on prevalence: the legend says the lines coincide
    assert "coincide" in ax.get_legend().get_title().get_text()


def test_ops_function_bound_metric_parameters():
    ax = plot_ops_function(resolve_metric("fbeta", beta=2), (0.3,))
    assert ax.get_xlabel() == "F-beta score (beta=2)"


def test_ops_function_curve_quantities_figure_3(dbt):
    ax = plot_ops_function("pr_auc", (0.1, 0.5), reference=dbt)
    assert ax.get_xlabel() == "AUC(PR, step)"
    assert "DirectedBinaryTree(depth=5, n_curves=2000" in ax.get_title()
    for line, pi in zip(ax.get_lines(), (0.1, 0.5), strict=True):
        x, y = line.get_data()
        assert np.all(np.diff(y) >= 0)
        np.testing.assert_array_equal(y, dbt.ops("pr_auc", x, prevalence=pi).estimate)
    ax = plot_ops_function("precision", (0.1, 0.3), at={"recall": 0.8}, reference=dbt)
    assert ax.get_xlabel() == "Precision (PPV) at recall = 0.8"
    assert len(ax.get_lines()) == 2


def test_ops_function_default_reference_by_quantity(monkeypatch, dbt):
    import opsstats.ops

    asked = []

    def fake(kind):
        asked.append(kind)
        return dbt if kind == "curve" else Uniform()

    monkeypatch.setattr(opsstats.ops, "default_reference", fake)
    plot_ops_function("pr_auc", (0.2,))
    plot_ops_function("precision", (0.2,), at={"recall": 0.5})
    plot_ops_function("precision", (0.2,))
    assert asked == ["curve", "curve", "point"]


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"metric": "f2"}, ValueError, "unknown metric 'f2'"),
        (
            {"metric": "f1", "prevalences": (0.1, 1.5)},
            ValueError,
            r"`prevalences` must be in the open interval \(0, 1\); got 1.5",
        ),
        ({"metric": "f1", "prevalences": 0.0}, ValueError, "open interval"),
        (
            {"metric": "f1", "prevalences": "0.1"},
            TypeError,
            r"`prevalences` must be a number or a sequence of numbers in \(0, 1\); got '0.1'",
        ),
        ({"metric": "f1", "prevalences": ["a"]}, TypeError, "`prevalences` must be numeric"),
        ({"metric": "f1", "prevalences": []}, ValueError, "`prevalences` must not be empty"),
        (
            {"metric": "f1", "values": [0.5, 1.5]},
            ValueError,
            r"`value` must be in the range of F1 score, \[0, 1\]; got 1.5",
        ),
        ({"metric": "f1", "reference": "uniform"}, TypeError, "`reference` must be a reference"),
        (
            {"metric": "precision", "at": {"recall": 0.8}, "reference": Uniform()},
            ValueError,
            "needs a curve reference",
        ),
    ],
)
def test_ops_function_errors(kwargs, error, match):
    with pytest.raises(error, match=match):
        plot_ops_function(**kwargs)


def test_ops_function_curve_reference_needs_curve_quantity(dbt):
    with pytest.raises(ValueError, match="unknown curve quantity 'f1'"):
        plot_ops_function("f1", reference=dbt)


# ----------------------------------------------------------------- unit square
def test_unit_square_f1_is_figure_1a():
    ax = plot_unit_square("f1", 0.6, 0.1)
    title = ax.get_title()
    assert "F1 score = 0.6 at prevalence π = 0.1" in title
    assert "OPS = shaded area = 0.9577" in title
    assert ax.get_xlabel() == "Type-I error α (false positive rate)"
    assert ax.get_ylabel() == "Type-II error β (false negative rate)"
    assert ax.get_xlim() == (0.0, 1.0) and ax.get_ylim() == (0.0, 1.0)
    assert ax.get_aspect() == 1.0
    # the shaded region: one compound path whose area is the exact OPS
    (patch,) = [p for p in ax.patches if p.get_gid() == "outperformed"]
    assert isinstance(patch, PathPatch)
    assert polygon_area(patch) == pytest.approx(0.957672, abs=2e-3)
    # the level line lies on F1 = 0.6
    level = [ln for ln in ax.get_lines() if ln.get_label().startswith("level line")]
    assert len(level) == 1
    a, b = level[0].get_data()
    np.testing.assert_allclose(resolve_metric("f1")(0.1, a, b), 0.6, atol=1e-3)
    texts = legend_texts(ax)
    assert texts[:3] == [
        "level line: F1 score = 0.6",
        "outperformed: F1 score < 0.6",
        "random classifiers (α + β = 1)",
    ]
    # trivial classifiers: F1 of predicting all positive is 2 pi / (1 + pi) = 0.182
    assert texts[3] == "predict all positive (α=1, β=0): F1 score = 0.182"
    assert texts[4] == "predict all negative (α=0, β=1): F1 score = 0.000"
    markers = {
        ln.get_marker(): ln.get_xydata().tolist()
        for ln in ax.get_lines()
        if ln.get_marker() not in ("None", None, "")
    }
    assert markers == {"s": [[1.0, 0.0]], "D": [[0.0, 1.0]]}
    assert len(ax.get_lines()) == 4


def test_unit_square_f1_at_balance_is_figure_1b():
    ax = plot_unit_square("f1", 0.6, 0.5)
    (patch,) = [p for p in ax.patches if p.get_gid() == "outperformed"]
    ops = Uniform().ops("f1", 0.6, prevalence=0.5).estimate
    assert f"{ops:.4f}" in ax.get_title()
    assert polygon_area(patch) == pytest.approx(ops, abs=2e-3)
    assert "F1 score = 0.667" in legend_texts(ax)[3]  # worse than predicting all positive


def test_unit_square_lower_is_better_shades_above():
    ax = plot_unit_square("fpr", 0.2, 0.3)
    (patch,) = [p for p in ax.patches if p.get_gid() == "outperformed"]
    assert polygon_area(patch) == pytest.approx(0.8, abs=1e-3)
    assert patch.get_path().vertices[:, 0].min() >= 0.2 - 1e-9
    assert "outperformed: False positive rate > 0.2" in legend_texts(ax)


def test_unit_square_legend_is_in_an_ordinary_save():
    ax = plot_unit_square("f1", 0.6, 0.1)
    assert_inside_image(ax.figure, ax.get_legend())
    assert_inside_image(ax.figure, ax.title)
    assert extent_in_saved_image(ax.figure, ax.get_legend())[3] <= ax.get_window_extent().y0


def test_unit_square_kwargs_reach_the_level_line():
    ax = plot_unit_square("mcc", 0.3, 0.2, color="green", linewidth=4)
    level = [ln for ln in ax.get_lines() if ln.get_color() == "green"]
    assert level and all(ln.get_linewidth() == 4 for ln in level)
    (patch,) = [p for p in ax.patches if p.get_gid() == "outperformed"]
    assert matplotlib.colors.same_color(patch.get_facecolor()[:3], "green")


def test_unit_square_undefined_trivial_classifier_and_unbounded_metric():
    ax = plot_unit_square("precision", 0.5, 0.3)
    assert legend_texts(ax)[4] == ("predict all negative (α=0, β=1): Precision (PPV) undefined")
    ax = plot_unit_square("diagnostic_odds_ratio", 3.0, 0.2)
    (patch,) = [p for p in ax.patches if p.get_gid() == "outperformed"]
    ops = Uniform().ops("diagnostic_odds_ratio", 3.0, prevalence=0.2).estimate
    assert polygon_area(patch) == pytest.approx(ops, abs=2e-3)


@pytest.mark.parametrize(
    "args, error, match",
    [
        (("f3", 0.5, 0.2), ValueError, "unknown metric 'f3'"),
        (("f1", 0.5, 1.0), ValueError, r"`prevalence` must be in the open interval \(0, 1\)"),
        (("f1", 0.5, 0.0), ValueError, "open interval"),
        (("f1", 0.5, -0.2), ValueError, r"`prevalence` must be in \[0, 1\]"),
        (("f1", 0.5, "0.2"), TypeError, "`prevalence` must be a real number"),
        (("f1", 1.5, 0.2), ValueError, r"`value` must be in the range of F1 score, \[0, 1\]"),
        (("mcc", -1.2, 0.2), ValueError, "range of Matthews"),
        (("f1", float("nan"), 0.2), ValueError, "`value` must not be NaN"),
        (("f1", "high", 0.2), TypeError, "`value` must be a number"),
        (("lift", float("inf"), 0.2), ValueError, "`value` must be finite"),
    ],
)
def test_unit_square_errors(args, error, match):
    with pytest.raises(error, match=match):
        plot_unit_square(*args)


# ---------------------------------------------------------------------- curves
@pytest.mark.parametrize(
    "kind, xlabel, ylabel, chance",
    [
        ("pr", "Recall (1 − β)", "Precision", "chance: precision = π = "),
        (
            "roc",
            "False positive rate (α)",
            "True positive rate (recall, 1 − β)",
            "chance (random classifier)",
        ),
        ("lift", "Rate of positive predictions (share flagged)", "Lift", "chance: lift = 1"),
        (
            "gain",
            "Rate of positive predictions (share flagged)",
            "Gain (true positive rate)",
            "chance (random classifier)",
        ),
    ],
)
def test_curve_artists(kind, xlabel, ylabel, chance, dbt, curve):
    ax = plot_curve(curve, kind, reference=dbt)
    assert ax.get_xlabel() == xlabel and ax.get_ylabel() == ylabel
    assert ax.get_xlim() == (0.0, 1.0)
    assert ax.get_ylim()[0] == 0.0
    assert f"prevalence π = {curve.prevalence:.3g}" in ax.get_title()
    texts = legend_texts(ax)
    assert len(texts) == 3
    assert texts[0].startswith(f"classifier, AUC({'lift' if kind == 'lift' else kind.upper()}")
    assert texts[0].endswith(f"= {curve.auc(kind):.3f}")
    # the DBT's median lies on the chance level: one line, named for both, so that
    # neither hides the other
    assert texts[1].startswith(chance) and texts[1].endswith(", also the DBT median")
    assert texts[2] == "DBT 5-95% pointwise band"
    assert len(ax.get_lines()) == 2  # classifier, chance = median
    assert sum(isinstance(c, PolyCollection) for c in ax.collections) == 1  # the band


def test_curve_data_band_and_chance(dbt, curve):
    ax = plot_curve(curve, "pr", reference=dbt, points=20)
    lines = {ln.get_label(): ln for ln in ax.get_lines()}
    classifier = next(v for k, v in lines.items() if k.startswith("classifier"))
    pr = curve.pr()
    x, y = classifier.get_data()
    np.testing.assert_array_equal(x, pr["recall"])
    np.testing.assert_array_equal(y[1:], pr["precision"][1:])
    assert y[0] == y[1]  # the 0/0 first point takes its limit along the first segment
    assert classifier.get_drawstyle() == "steps-pre"
    band = next(c for c in ax.collections if isinstance(c, PolyCollection))
    verts = band.get_paths()[0].vertices
    bx = np.unique(verts[:, 0])
    assert bx.size == 24 and bx[-1] == 1.0 and bx[0] == pytest.approx(1e-3)  # 4 + 20
    lo, med, hi = dbt.band("pr", curve.prevalence, bx, quantiles=(0.05, 0.5, 0.95))
    assert verts[:, 1].min() == pytest.approx(lo.min())
    assert verts[:, 1].max() == pytest.approx(hi.max())
    # the DBT's median is pi at every recall (within 0.02): drawn as the chance line
    np.testing.assert_allclose(med, curve.prevalence, atol=0.02)
    chance = next(v for k, v in lines.items() if k.startswith("chance"))
    assert chance.get_label().endswith("also the DBT median")
    assert chance.get_linestyle() == "--"  # the median's dashes
    np.testing.assert_allclose(chance.get_ydata(), curve.prevalence)
    assert not any(k.startswith("DBT median") for k in lines)


def test_curve_median_apart_from_chance_when_it_is_not_on_it(curve):
    """A reference whose median is not the chance level keeps two lines."""
    rng = np.random.default_rng(3)
    pool = []
    for _ in range(40):  # good classifiers only: their median ROC is far above chance
        y = rng.random(200) < 0.3
        pool.append(ScoreCurve.from_scores(y, rng.normal(size=200) + 2.5 * y))
    ax = plot_curve(curve, "roc", reference=EmpiricalCurves(pool), points=10)
    texts = legend_texts(ax)
    assert "empirical pool median" in texts
    assert "chance (random classifier)" in texts
    chance = next(ln for ln in ax.get_lines() if ln.get_label().startswith("chance"))
    assert chance.get_linestyle() == ":"


def test_curve_options(dbt, curve):
    ax = plot_curve(curve, "roc", reference=dbt, band=None, chance=False)
    assert not ax.collections
    assert len(ax.get_lines()) == 1
    assert len(legend_texts(ax)) == 1
    ax = plot_curve(
        curve,
        "lift",
        reference=dbt,
        band=(0.25, 0.75),
        chance=False,
        color="purple",
        label="model A",
    )
    assert legend_texts(ax)[0] == "model A"
    assert "DBT 25-75% pointwise band" in legend_texts(ax)
    assert ax.get_lines()[-1].get_color() == "purple"


def test_curve_reference_without_band_method(curve):
    rng = np.random.default_rng(1)
    pool = []
    for _ in range(30):
        y = rng.random(100) < 0.3
        pool.append(ScoreCurve.from_scores(y, rng.normal(size=100) + y))
    ax = plot_curve(curve, "roc", reference=EmpiricalCurves(pool), points=10)
    assert "empirical pool 5-95% pointwise band" in legend_texts(ax)


def test_two_curves_on_one_axes(dbt, curve):
    ax = plot_curve(curve, "roc", reference=dbt, label="first")
    plot_curve(
        curve, "roc", reference=dbt, band=None, chance=False, ax=ax, color="C1", label="second"
    )
    texts = legend_texts(ax)
    assert "first" in texts and "second" in texts


@pytest.mark.parametrize("kind", ["roc", "pr", "lift", "gain"])
def test_curve_legend_is_in_an_ordinary_save(kind, dbt, curve):
    """The legend, below the Axes, is inside the image ``fig.savefig`` writes without
    ``bbox_inches="tight"``: the new figure's constrained layout makes room for it."""
    ax = plot_curve(curve, kind, reference=dbt)
    legend = ax.get_legend()
    assert_inside_image(ax.figure, legend)
    # below the Axes, covering none of the band
    _, _, _, top = extent_in_saved_image(ax.figure, legend)
    assert top <= ax.get_window_extent().y0


def test_curve_legend_on_axes_of_a_figure_without_layout(dbt, curve):
    """On the Axes of a plain figure (no layout engine), whose savefig would cut off a
    legend below the Axes, the legend goes inside them; with constrained layout, below."""
    fig, ax = plt.subplots()
    plot_curve(curve, "roc", reference=dbt, ax=ax)
    assert_inside_image(fig, ax.get_legend())
    x0, y0, x1, y1 = extent_in_saved_image(fig, ax.get_legend())
    box = ax.get_window_extent()
    assert box.x0 <= x0 and x1 <= box.x1 and box.y0 <= y0 and y1 <= box.y1
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.8), layout="constrained")
    for ax in axes:
        plot_curve(curve, "pr", reference=dbt, ax=ax)
        assert_inside_image(fig, ax.get_legend())
        assert extent_in_saved_image(fig, ax.get_legend())[3] <= ax.get_window_extent().y0


@pytest.mark.parametrize("kind", ["roc", "pr", "lift", "gain"])
def test_curve_marks_the_operating_point_of_a_threshold(kind, dbt, curve):
    ax = plot_curve(curve, kind, reference=dbt, threshold=0.4)
    (point,) = [ln for ln in ax.get_lines() if ln.get_label().startswith("score ≥ 0.4")]
    cm = curve.confusion_matrix(threshold=0.4)
    # the point from the counts, independently of the curve geometry
    rate = (cm.tp + cm.fp) / cm.n
    recall = cm.tp / (cm.tp + cm.fn)
    expected = {
        "roc": (cm.fp / (cm.fp + cm.tn), recall),
        "pr": (recall, cm.tp / (cm.tp + cm.fp)),
        "lift": (rate, cm.tp / (cm.tp + cm.fp) / cm.prevalence),
        "gain": (rate, recall),
    }[kind]
    np.testing.assert_allclose(np.ravel(point.get_data()), expected, rtol=1e-12)
    names = {"roc": "FPR {:.3f}, TPR {:.3f}", "pr": "recall {:.3f}, precision {:.3f}"}
    names |= {"lift": "rate {:.3f}, lift {:.3f}", "gain": "rate {:.3f}, gain {:.3f}"}
    assert point.get_label() == "score ≥ 0.4: " + names[kind].format(*expected)
    texts = legend_texts(ax)
    assert texts.index(point.get_label()) == 1  # right after the classifier's curve


def test_curve_threshold_must_be_finite(dbt, curve):
    with pytest.raises(ValueError, match="`threshold` must be finite"):
        plot_curve(curve, "pr", reference=dbt, threshold=float("inf"))
    assert not plt.get_fignums()  # checked before any figure is made


@pytest.mark.parametrize(
    "args, kwargs, error, match",
    [
        (("scores",), {}, TypeError, "`curve` must be a ScoreCurve"),
        ((None, "prc"), {}, ValueError, "`kind` must be one of 'roc', 'pr', 'lift', 'gain'"),
        ((None,), {"band": (0.95, 0.05)}, ValueError, "low < high"),
        ((None,), {"band": (0.05,)}, TypeError, "`band` must be a pair"),
        ((None,), {"band": (0.05, 1.5)}, ValueError, r"`band\[1\]` must be in \[0, 1\]"),
        ((None,), {"reference": Uniform()}, TypeError, "`reference` must be a curve reference"),
        ((None,), {"points": 1}, ValueError, "`points` must be an integer >= 2"),
    ],
)
def test_curve_errors(args, kwargs, error, match, curve, dbt):
    args = tuple(curve if a is None else a for a in args)
    kwargs.setdefault("reference", dbt)
    with pytest.raises(error, match=match):
        plot_curve(*args, **kwargs)


# --------------------------------------------------------- standardized curves
def test_oprc_artists(dbt, curve):
    ax = plot_standardized_curve(curve, reference=dbt)
    assert ax.get_title().startswith(
        "OPS(precision)-recall curve (OPRC)\nreference: DirectedBinaryTree(depth=5"
    )
    assert ax.get_xlabel() == "Recall (1 − β)"
    assert ax.get_ylabel() == "OPS of Precision (PPV)"
    assert ax.get_ylim() == (-0.02, 1.02)
    (bars,) = ax.containers
    assert isinstance(bars, ErrorbarContainer) and bars.has_yerr
    frame = standardized_curve(curve, "precision", axis="recall", points=20, reference=dbt)
    x, y = bars[0].get_data()
    # the default grid is 20 interior points k/21: all drawn as informative points
    np.testing.assert_allclose(x, np.arange(1, 21) / 21)
    np.testing.assert_allclose(x, frame["recall"])
    np.testing.assert_allclose(y, frame["ops"])
    (segments,) = bars[2]
    half = np.array([seg[1, 1] - seg[0, 1] for seg in segments.get_segments()]) / 2
    np.testing.assert_allclose(half, 1.96 * frame["standard_error"])
    texts = legend_texts(ax)
    assert texts[0].startswith("classifier (π = ")
    # the bars are often narrower than the markers: the legend gives their largest width
    widest = 1.96 * frame["standard_error"].max()
    assert texts[0].endswith(f")\nbars ± 1.96 Monte Carlo s.e., at most ± {widest:.2g}")
    assert texts[1] == "OPS = 0.5 (middle of the reference)"
    null = [ln for ln in ax.get_lines() if ln.get_label().startswith("OPS = 0.5")]
    np.testing.assert_array_equal(null[0].get_ydata(), [0.5, 0.5])


def test_oprc_end_point_is_drawn_apart(dbt, curve):
    # recall 1 given explicitly: every DBT curve has precision pi there
    ax = plot_standardized_curve(curve, reference=dbt, points=[0.25, 0.5, 0.75, 1.0])
    (bars,) = ax.containers
    x, _ = bars[0].get_data()
    np.testing.assert_allclose(x, [0.25, 0.5, 0.75])
    assert legend_texts(ax)[1].startswith("recall = 1: all reference curves equal there")


def test_ops_lift_curve(dbt, curve):
    ax = plot_standardized_curve(
        curve, "lift", axis="rate", points=[0.1, 0.3, 0.5], reference=dbt, color="black"
    )
    assert ax.get_title().startswith("OPS(lift) curve")
    assert ax.get_xlabel() == "Rate of positive predictions (share flagged)"
    (bars,) = ax.containers
    assert bars[0].get_color() == "black"
    assert len(bars[0].get_xdata()) == 3
    assert len(legend_texts(ax)) == 2  # no degenerate point on this grid


def test_standardized_curve_ci(dbt, curve):
    with pytest.raises(TypeError, match="`ci` must be None or the name"):
        plot_standardized_curve(curve, points=[0.5], reference=dbt, ci=True)
    ax = plot_standardized_curve(
        curve, points=[0.3, 0.6, 1.0], reference=dbt, ci="bootstrap", rng=0
    )
    (band,) = [c for c in ax.collections if isinstance(c, PolyCollection)]
    assert "95% interval" in band.get_label()
    r = curve.ops("precision", at={"recall": 0.6}, reference=dbt, ci="bootstrap", rng=0)
    ys = band.get_paths()[0].vertices[:, 1]
    assert np.isclose(ys, r.ci.low).any() and np.isclose(ys, r.ci.high).any()
    # no interval at the degenerate point recall = 1
    assert band.get_paths()[0].vertices[:, 0].max() == pytest.approx(0.6)


def test_standardized_curve_errors(dbt):
    with pytest.raises(TypeError, match="`curve` must be a ScoreCurve"):
        plot_standardized_curve([0.1, 0.2], reference=dbt)


def test_standardized_curve_bad_axis(dbt, curve):
    with pytest.raises(ValueError, match="`axis` must be one of 'recall'"):
        plot_standardized_curve(curve, axis="threshold", reference=dbt)


# ---------------------------------------------------------------------- forest
def tidy(**overrides):
    frame = pd.DataFrame(
        {
            "group": ["young", "middle", "old", "oldest"],
            "metric": "F1 score",
            "n": [120, 80, 60, 5],
            "prevalence": [0.2, 0.3, 0.4, 0.0],
            "value": [0.6, 0.5, 0.55, np.nan],
            "value_ci_low": [0.5, 0.4, 0.45, np.nan],
            "value_ci_high": [0.7, 0.6, 0.65, np.nan],
            "ops": [0.81, 0.62, 0.55, np.nan],
            "ops_se": [0.0, 0.0, 0.0, np.nan],
            "ops_ci_low": [0.74, 0.51, 0.41, np.nan],
            "ops_ci_high": [0.87, 0.72, 0.68, np.nan],
            "method": "exact (closed form); interval: Dirichlet-multinomial, Jeffreys prior",
            "reference": "Uniform(alpha, beta) on [0, 1]^2",
            "reason": ["", "", "", "no positives: OPS is undefined with one class absent"],
        }
    )
    return frame.assign(**overrides)


def test_forest_artists():
    ax = plot_forest(tidy())
    assert [t.get_text() for t in ax.get_yticklabels()] == ["young", "middle", "old", "oldest"]
    assert list(ax.get_yticks()) == [3, 2, 1, 0]  # first row on top
    assert ax.get_xlim() == (0.0, 1.0)
    # the x label says what the dotted line is
    assert ax.get_xlabel() == (
        "OPS (o-value) of F1 score\ndotted line: OPS = 0.5, the middle of the reference"
    )
    assert ax.get_ylabel() == "group"
    assert ax.get_title() == (
        "OPS (o-value) of F1 score\ninterval: Dirichlet-multinomial, Jeffreys prior"
    )
    (bars,) = ax.containers
    x, y = bars[0].get_data()
    np.testing.assert_array_equal(x, [0.81, 0.62, 0.55])
    np.testing.assert_array_equal(y, [3, 2, 1])  # the NaN row is a gap, not dropped
    (segments,) = bars[2]
    ends = np.array([seg[:, 0] for seg in segments.get_segments()])
    np.testing.assert_allclose(ends, [[0.74, 0.87], [0.51, 0.72], [0.41, 0.68]])
    (reason,) = [t for t in ax.texts if t.get_gid() == "reason"]
    # wrapped narrow enough to stay between the row labels and the notes on the right
    assert reason.get_text() == (
        "not defined: no positives: OPS is undefined\nwith one class absent"
    )
    assert reason.get_position()[1] == 0  # in the NaN row
    notes = [t.get_text() for t in ax.texts if t.get_gid() == "annotation"]
    assert notes == ["0.810 (0.740-0.870)", "0.620 (0.510-0.720)", "0.550 (0.410-0.680)"]
    null = [ln for ln in ax.get_lines() if list(ln.get_xdata()) == [0.5, 0.5]]
    assert len(null) == 1


def test_forest_labels_several_metrics_and_options():
    frame = pd.concat([tidy(), tidy(metric="MCC")], ignore_index=True)
    ax = plot_forest(frame, color="red", annotate=False, null=None)
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels[:2] == ["young · F1 score", "middle · F1 score"]
    assert labels[4] == "young · Matthews correlation coefficient"  # the registry's label
    assert ax.get_ylabel() == "group · metric"
    assert ax.get_xlabel() == "OPS (o-value)"  # two metrics, no dotted line
    assert not [t for t in ax.texts if t.get_gid() == "annotation"]
    assert not ax.get_lines() or all(list(ln.get_xdata()) != [0.5, 0.5] for ln in ax.get_lines())
    assert ax.containers[0][0].get_color() == "red"
    ax = plot_forest(tidy(), label=["group", "n"])
    assert next(t.get_text() for t in ax.get_yticklabels()) == "young · 120"


def test_forest_values_missing_interval_and_reason():
    frame = tidy(value_ci_low=[0.5, np.nan, 0.45, np.nan]).drop(columns="reason")
    ax = plot_forest(frame, estimate="value", low="value_ci_low", high="value_ci_high")
    assert ax.get_xlabel() == "F1 score\ndotted line at 0.5"
    assert ax.get_title().startswith("F1 score\ninterval: ")
    (bars,) = ax.containers
    (segments,) = bars[2]
    widths = [np.ptp(seg[:, 0]) for seg in segments.get_segments()]
    assert widths[1] == 0  # no interval: a bare point
    (reason,) = [t for t in ax.texts if t.get_gid() == "reason"]
    assert reason.get_text() == "not defined: no reason given"


def test_forest_of_a_real_tidy_table():
    from opsstats import evaluate

    rng = np.random.default_rng(3)
    data = pd.DataFrame(
        {
            "truth": rng.random(600) < 0.3,
            "score": rng.random(600),
            "site": rng.choice(["A", "B", "C"], 600),
        }
    )
    data.loc[data["site"] == "C", "truth"] = False  # no positives at site C
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        frame = evaluate(
            data,
            truth="truth",
            score="score",
            threshold=0.5,
            metrics=("f1",),
            by="site",
            n_resamples=200,
            rng=0,
        )
    ax = plot_forest(frame)
    assert [t.get_text() for t in ax.get_yticklabels()] == ["A", "B", "C"]
    (reason,) = [t for t in ax.texts if t.get_gid() == "reason"]
    assert "no positives" in reason.get_text()
    assert ax.get_title().startswith("OPS (o-value) of F1 score\n")  # not "f1"
    for annotation in [t for t in ax.texts if t.get_gid() == "annotation"]:
        assert_inside_image(ax.figure, annotation)  # right of the Axes, in the image


def test_forest_names_metrics_by_their_labels():
    """A tidy table holds the metrics' identifiers; the figure shows their labels."""
    from opsstats import evaluate

    rng = np.random.default_rng(4)
    y = rng.random(400) < 0.3
    data = pd.DataFrame({"y": y, "s": rng.normal(y * 1.0, 1), "g": rng.choice(["a", "b"], 400)})
    metrics = ["balanced_accuracy", "pr_auc", "precision@recall=0.5", "mcc"]
    frame = evaluate(
        data,
        truth="y",
        score="s",
        threshold=0.3,
        metrics=metrics,
        by="g",
        ci=None,
        rng=0,
        curve_reference=DirectedBinaryTree(depth=5, n_curves=2000),
    )
    labels = [t.get_text() for t in plot_forest(frame).get_yticklabels()]
    assert labels[:4] == [
        "a · Balanced accuracy",
        "a · AUC(PR, step)",
        "a · Precision (PPV) at recall = 0.5",
        "a · Matthews correlation coefficient",
    ]
    one = plot_forest(frame[frame["metric"] == "balanced_accuracy"])
    assert one.get_title() == "OPS (o-value) of Balanced accuracy"


@pytest.mark.parametrize(
    "frame, kwargs, error, match",
    [
        ([[0.5, 0.4, 0.6]], {}, TypeError, "`frame` must be a pandas DataFrame"),
        (tidy().iloc[:0], {}, ValueError, "`frame` must have at least one row"),
        (
            tidy().drop(columns=["ops_ci_low"]),
            {},
            ValueError,
            "`low` must name a column of `frame`; got 'ops_ci_low', columns are 'group'",
        ),
        (
            tidy(),
            {"label": "site"},
            ValueError,
            "`label` must name a column of `frame`; got 'site'",
        ),
        (tidy(), {"label": 3}, TypeError, "`label` must be a column name"),
        (tidy(ops=["a", "b", "c", "d"]), {}, TypeError, "column 'ops' of `frame` must be numeric"),
    ],
)
def test_forest_errors(frame, kwargs, error, match):
    with pytest.raises(error, match=match):
        plot_forest(frame, **kwargs)


# ---------------------------------------------------------------- distribution
def test_distribution_of_an_interval():
    cm = ConfusionMatrix(tp=45, fp=30, fn=15, tn=210)
    result = cm.interval("f1", rng=0, n_resamples=2000)
    ax = plot_distribution(result)
    assert ax.get_xlabel() == "F1 score"
    assert ax.get_ylabel() == "density"
    assert ax.get_title().startswith("F1 score\nDirichlet-multinomial")
    assert len(ax.patches) == 1  # one step-filled histogram
    assert legend_texts(ax) == [
        "2000 draws",
        f"estimate {result.estimate:.3f}",
        f"95% interval {result.ci.low:.3f}-{result.ci.high:.3f}",
    ]
    marks = [c for c in ax.collections if isinstance(c, LineCollection)]
    assert len(marks) == 2
    xs = sorted(seg[0, 0] for c in marks for seg in c.get_segments())
    np.testing.assert_allclose(xs, sorted([result.ci.low, result.estimate, result.ci.high]))
    # the histogram integrates to one (a density)
    heights, _edges = np.histogram(result.draws, bins=50, density=True)
    assert ax.get_ylim()[1] == pytest.approx(1.45 * heights.max())


def test_distribution_of_an_ops_and_kwargs():
    cm = ConfusionMatrix(tp=45, fp=30, fn=15, tn=210)
    result = cm.ops("f1", ci="dirichlet", interval="hpd", rng=1, n_resamples=1000)
    ax = plot_distribution(result, bins=20, color="orange")
    assert ax.get_xlabel() == "OPS of F1 score"
    assert matplotlib.colors.same_color(ax.patches[0].get_facecolor()[:3], "orange")
    boot = cm.interval("f1", method="bootstrap", rng=1, n_resamples=500)
    ax = plot_distribution(boot)
    assert legend_texts(ax)[0] == "500 bootstrap resamples"


def test_distribution_errors():
    cm = ConfusionMatrix(tp=45, fp=30, fn=15, tn=210)
    with pytest.raises(ValueError, match="has no interval, hence no draws"):
        plot_distribution(cm.ops("f1"))
    mapped = cm.ops("f1", ci="dirichlet", rng=0, n_resamples=500)  # mapped, no OPS draws
    with pytest.raises(ValueError, match="made without keeping OPS draws"):
        plot_distribution(mapped)
    with pytest.raises(ValueError, match="computed in closed form, not from draws"):
        plot_distribution(cm.interval("alpha", method="clopper-pearson"))
    with pytest.raises(ValueError, match="must hold one OPS; got 2 values"):
        plot_distribution(Uniform().ops("f1", [0.3, 0.5], prevalence=0.2))
    with pytest.raises(TypeError, match="`result` must be an IntervalResult or an OPSResult"):
        plot_distribution(np.array([0.1, 0.2]))
    with pytest.raises(ValueError, match="`bins` must be an integer >= 1"):
        plot_distribution(cm.interval("f1", rng=0, n_resamples=200), bins=0)


# ------------------------------------------------------------ text from data
def test_text_from_data_is_drawn_literally(dbt, curve):
    """Group names, column names, reasons and a registered metric's label are drawn as
    they are (hostile names): ``$...$`` is never read as mathtext (the broken
    ``$\\sqrt{$`` would fail when drawn, ``$5 to $`` would turn italic) and control
    characters are shown as escapes, whichever function draws them."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.cbook import is_math_text
    from matplotlib.text import Text

    from opsstats.metrics import register_metric, unregister_metric

    hostile = "$\\sqrt{$ costs $5 to $6\x1b"
    shown = "\\$\\sqrt{\\$ costs \\$5 to \\$6\\x1b"
    register_metric(
        "dollar_recall",
        lambda p, a, b: 1 - b,
        direction="higher",
        range=(0, 1),
        label=f"{hostile} recall",
    )
    try:
        frame = pd.DataFrame(
            {
                "$g$": [hostile, "b\nc"],
                "metric": ["dollar_recall", "dollar_recall"],
                "ops": [0.7, np.nan],
                "ops_ci_low": [0.6, np.nan],
                "ops_ci_high": [0.8, np.nan],
                "reason": ["", f"undefined: {hostile}"],
            }
        )
        axes = [
            plot_forest(frame),
            plot_unit_square("dollar_recall", 0.7, 0.3),
            plot_ops_function("dollar_recall", prevalences=(0.2, 0.4)),
        ]
        for ax in axes:
            FigureCanvasAgg(ax.figure).draw()  # raises on a mathtext parse error
            texts = [t.get_text() for t in ax.figure.findobj(Text)]
            assert not [t for t in texts if is_math_text(t)]
            assert not [t for t in texts if "\x1b" in t]
            assert any(shown in t for t in texts), texts
        forest = axes[0]
        assert [t.get_text() for t in forest.get_yticklabels()] == [shown, "b\\nc"]
        assert forest.get_ylabel() == "\\$g\\$"
    finally:
        unregister_metric("dollar_recall")


def test_score_curve_plot_is_procs_plot_roc():
    """curve.plot(): the ROC curve with its AUC in the legend (scikit-learn's
    roc_auc_score), over the reference band; kind="pr" the PR curve with its average
    precision (average_precision_score); band=None the curve alone."""
    from sklearn.metrics import average_precision_score, roc_auc_score

    rng = np.random.default_rng(4)
    y = rng.random(300) < 0.3
    s = rng.normal(1.0 * y, 1)
    curve = ScoreCurve.from_scores(y, s)
    small = DirectedBinaryTree(depth=5, n_curves=2000)
    ax = curve.plot(reference=small)
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert texts[0] == f"classifier, AUC(ROC, trapezoid) = {roc_auc_score(y, s):.3f}"
    assert any("pointwise band" in t for t in texts)
    assert ax.get_xlabel().startswith("False positive rate")
    line = next(ln for ln in ax.get_lines() if ln.get_label().startswith("classifier"))
    fpr, tpr = line.get_data()
    assert np.allclose(np.trapezoid(tpr, fpr), roc_auc_score(y, s))
    plt.close(ax.figure)
    ax = curve.plot("pr", band=None, color="C3")
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert texts[0] == f"classifier, AUC(PR, step) = {average_precision_score(y, s):.3f}"
    assert not any("band" in t for t in texts)
    plt.close(ax.figure)
    with pytest.raises(ValueError, match="`kind` must be one of"):
        curve.plot("det")
