"""ops_prevalence_profile: one classifier's raw value and OPS across prevalences
(docs/method.md#prevalence-invariance). Each point is checked against the standardized
object computed here (at_prevalence, then the reference's OPS of the registry's closed
form); the invariant quantities are flat, the others move as the issue measured."""

from __future__ import annotations

import matplotlib
import numpy as np
import pytest
from scipy.special import logit

from opsstats import (
    ConfusionMatrix,
    DirectedBinaryTree,
    PrevalenceProfile,
    ScoreCurve,
    Uniform,
    ops_prevalence_profile,
)
from opsstats.metrics import resolve_metric
from opsstats.profile import DEFAULT_PREVALENCES

matplotlib.use("Agg")

#: alpha 0.067, beta 0.5 (the issue's classifier at threshold 1.5) at prevalence 0.1
CM = ConfusionMatrix(tp=50, fp=60, fn=50, tn=840)
REF = DirectedBinaryTree(depth=6, n_curves=3000, seed=8)


def test_each_point_is_the_standardized_matrix():
    prof = ops_prevalence_profile(CM, "f1", [0.02, 0.3, 0.5])
    assert isinstance(prof, PrevalenceProfile)
    t = prof.table
    assert t["prevalence"].tolist() == [0.02, 0.1, 0.3, 0.5]  # the own prevalence added
    assert t["observed"].tolist() == [False, True, False, False]
    f1 = resolve_metric("f1")
    for _, row in t.iterrows():
        pi = row["prevalence"]
        value = float(f1(pi, CM.alpha, CM.beta))
        assert row["value"] == pytest.approx(value, rel=1e-12)
        assert row["ops"] == float(Uniform().ops(f1, row["value"], prevalence=pi).estimate)
        assert row["ops_se"] == 0
    # the numbers: 0.932, 0.916, 0.840 (0.841 at this matrix's alpha), 0.703
    assert t["ops"].round(3).tolist() == [0.932, 0.916, 0.841, 0.703]
    assert prof.invariant is False and prof.ops_range == t["ops"].max() - t["ops"].min()
    assert prof.observed_prevalence == CM.prevalence


def test_default_grid_and_invariant_metrics_are_flat():
    prof = ops_prevalence_profile(CM, "precision")
    p = prof.table["prevalence"].to_numpy()
    assert p.size == 26 and p[0] == pytest.approx(0.01) and p[-1] == pytest.approx(0.99)
    inner = np.delete(p, np.flatnonzero(p == CM.prevalence))
    assert np.allclose(np.diff(logit(inner)), np.diff(logit(inner))[0])
    assert prof.invariant is True and prof.ops_range < 1e-9
    assert prof.table["value"].is_monotonic_increasing  # the raw value does move


def test_intervals_use_the_same_draws_at_every_prevalence():
    """With ``ci`` every point's intervals come from one seed: the same draws of alpha
    and beta, so an invariant metric's OPS interval is the same at every prevalence
    (to the percentile's interpolation) and the matrix's own interval is the
    standardized matrix's."""
    prof = ops_prevalence_profile(CM, "precision", [0.02, 0.5], ci="dirichlet", rng=3)
    t = prof.table
    assert np.allclose(t["ops_ci_low"], t["ops_ci_low"].iloc[0], atol=1e-6)
    assert np.allclose(t["ops_ci_high"], t["ops_ci_high"].iloc[0], atol=1e-6)
    seed = int(np.random.default_rng(3).integers(0, 2**63 - 1))
    for _, row in t.iterrows():
        std = CM.at_prevalence(row["prevalence"])
        iv = std.interval("precision", n_resamples=1000, rng=seed).ci
        assert (row["value_ci_low"], row["value_ci_high"]) == iv
        assert row["value_ci_low"] <= row["value"] <= row["value_ci_high"]
    assert prof.confidence_level == 0.95


def test_curves():
    rng = np.random.default_rng(2)
    y = rng.random(1500) < 0.1
    curve = ScoreCurve.from_scores(y, rng.normal(1.2 * y, 1))
    grid = [0.02, 0.3, 0.5]
    pr = ops_prevalence_profile(curve, "pr_auc", grid, reference=REF)
    for _, row in pr.table.iterrows():
        want = curve.at_prevalence(row["prevalence"]).ops("pr_auc", reference=REF)
        assert (row["value"], row["ops"], row["ops_se"]) == (
            want.value,
            want.estimate,
            want.standard_error,
        )
    assert pr.invariant is False and pr.ops_range > 0.01
    roc = ops_prevalence_profile(curve, "roc_auc", grid, reference=REF)
    assert roc.invariant is True and roc.ops_range == 0.0
    at = ops_prevalence_profile(curve, "f1", grid, at={"recall": 0.5}, reference=REF)
    assert at.invariant is True and at.ops_range == 0.0
    rate = ops_prevalence_profile(curve, "precision", grid, at={"rate": 0.1}, reference=REF)
    assert rate.invariant is False
    # a standardized curve stands for its origin
    same = ops_prevalence_profile(curve.at_prevalence(0.4), "pr_auc", grid, reference=REF)
    assert same.table.equals(pr.table)
    with_ci = ops_prevalence_profile(curve, "pr_auc", grid, reference=REF, ci="auto", rng=1)
    t = with_ci.table
    assert ((t["ops_ci_low"] <= t["ops"]) & (t["ops"] <= t["ops_ci_high"])).all()
    assert "prevalence fixed at each prevalence" in with_ci.method


def test_summary_frame_plot():
    prof = ops_prevalence_profile(CM, "mcc", [0.02, 0.5], ci="dirichlet", rng=0)
    frame = prof.to_frame()
    frame.loc[0, "ops"] = -1
    assert prof.table.loc[0, "ops"] != -1
    text = str(prof.summary())
    assert "Prevalence profile of Matthews correlation coefficient" in text
    assert "not invariant" in text and all(len(line) <= 100 for line in text.splitlines())
    assert "<table" in prof._repr_html_()
    ax = prof.plot()
    assert ax.get_xscale() == "logit" and ax.get_ylabel() == "OPS"
    assert len(ax.figure.axes) == 2  # the raw value on a twin axis
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "observed prevalence 0.1" in labels and "raw value" in labels
    matplotlib.pyplot.close("all")


@pytest.mark.parametrize(
    "obj, kw, exc, match",
    [
        ("cm", {"prevalences": [0.0, 0.5]}, ValueError, r"`prevalences` must lie in \(0, 1\)"),
        ("cm", {"prevalences": [0.5, 1.0]}, ValueError, r"`prevalences` must lie in \(0, 1\)"),
        ("cm", {"prevalences": ["a"]}, TypeError, "`prevalences`"),
        ("cm", {"at": {"recall": 0.5}}, ValueError, "`at` is an operating point of a curve"),
        ((1, 2), {}, TypeError, "`obj` must be a ConfusionMatrix or a ScoreCurve; got"),
        ("one class", {}, ValueError, "`obj` must have both classes"),
    ],
)
def test_bad_input(obj, kw, exc, match):
    obj = {"cm": CM, "one class": ConfusionMatrix(tp=0, fp=3, fn=0, tn=5)}.get(obj, obj)
    with pytest.raises(exc, match=match):
        ops_prevalence_profile(obj, "f1", **kw)


def test_default_grid_is_in_logit():
    assert len(DEFAULT_PREVALENCES) == 25
    assert np.allclose(logit(DEFAULT_PREVALENCES), np.linspace(logit(0.01), logit(0.99), 25))
