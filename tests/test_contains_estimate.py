"""Every default interval contains its estimate (docs/method.md#containing-the-estimate).

An interval read off draws can leave out the observed value (a perfectly separated test
set: the ROC AUC is 1 and every posterior draw below it). The defaults of every family
are checked here on small and degenerate test sets, where that happens: perfect
separation either way, all scores tied, two rows in a class, a few tied levels.
Families: confusion-matrix metrics and their OPS, curve quantities and their OPS, the
differences of paired and unpaired comparisons, multi-label aggregates, and the rows
of ``evaluate``.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from opsstats import (
    ConfusionMatrix,
    DirectedBinaryTree,
    MultiLabel,
    ScoreCurve,
    compare,
    compare_test_sets,
    evaluate,
)

EXTENDED = "; extended to contain the estimate"  # what the method string then says
SMALL_DBT = DirectedBinaryTree(depth=4, n_curves=2000, seed=3)
DRAWS = 200
SETTINGS = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)


def _inside(estimate: float, low: float, high: float, what: str) -> None:
    """low <= estimate <= high; an undefined estimate has no interval to check, and a
    defined estimate must have a defined interval."""
    if np.isnan(estimate):
        return
    assert np.isfinite(low) and np.isfinite(high), (what, estimate, low, high)
    assert low <= estimate <= high, (what, estimate, low, high)


@st.composite
def scored(draw, max_rows: int = 8):
    """(y, score): 2 to ``max_rows`` rows of each class, in one of five shapes."""
    n_pos = draw(st.integers(2, max_rows))
    n_neg = draw(st.integers(2, max_rows))
    shape = draw(st.sampled_from(["separated", "reversed", "tied", "levels", "random"]))
    y = np.r_[np.ones(n_pos, dtype=int), np.zeros(n_neg, dtype=int)]
    if shape == "separated":  # every positive above every negative: AUC 1
        s = np.r_[np.arange(n_pos) + n_neg, np.arange(n_neg)].astype(float)
    elif shape == "reversed":  # AUC 0
        s = np.r_[np.arange(n_pos), np.arange(n_neg) + n_pos].astype(float)
    elif shape == "tied":  # one score for all: AUC 1/2
        s = np.zeros(n_pos + n_neg)
    else:
        k = 3 if shape == "levels" else 50
        s = np.array(draw(st.lists(st.integers(0, k), min_size=y.size, max_size=y.size)), float)
    return y, s


def test_the_first_hour_example_contains_its_estimate():
    """40 perfectly separated positives: the default interval was 0.92-0.9995 around an
    AUC of 1; it now reaches 1, and says that it was extended and why the default chose
    a small-sample method."""
    y = np.r_[np.ones(40), np.zeros(60)]
    curve = ScoreCurve.from_scores(y, np.r_[np.linspace(1, 2, 40), np.linspace(0, 0.9, 60)])
    r = curve.interval("roc_auc", rng=0)
    assert r.estimate == 1.0 and r.ci.high == 1.0 and 0.9 < r.ci.low < 0.95
    assert np.quantile(r.draws, 0.975) < 1.0  # the posterior's own interval left 1 out
    assert r.method.endswith(
        f"{EXTENDED}; the default below 100 rows in the smaller class (here 40 positives)"
    )
    assert "extended to contain the estimate" in r.to_string()
    ops = curve.ops("roc_auc", ci="auto", reference=SMALL_DBT, rng=0)
    _inside(ops.estimate, *ops.ci, "OPS")
    assert EXTENDED in ops.ci_method and "the default below 100 rows" in ops.ci_method
    # an explicit method that is not the default is the method as published, unextended
    with pytest.warns(UserWarning, match="has no width"):
        boot = curve.interval("roc_auc", method="bootstrap", rng=0, n_resamples=DRAWS)
    assert EXTENDED not in boot.method and boot.ci == (1.0, 1.0)


def test_contain_against_a_direct_check():
    from opsstats.uncertainty._containing import contain, contain_many

    rng = np.random.default_rng(0)
    low, high = np.sort(rng.random((2, 200)), axis=0)
    est = rng.random(200)
    low[:5] = np.nan
    lo, hi, notes = contain_many(low, high, est)
    for i in range(200):
        one = contain(low[i], high[i], est[i])
        assert (lo[i], hi[i], notes[i]) == pytest.approx(one, nan_ok=True) or (
            np.isnan(one[0]) and np.isnan(lo[i]) and notes[i] == one[2]
        )
        if np.isfinite(low[i]):
            assert lo[i] == min(low[i], est[i]) and hi[i] == max(high[i], est[i])
            assert (notes[i] == EXTENDED) == (not low[i] <= est[i] <= high[i])
    # within 8 ulps an end is the estimate: nothing to say
    assert contain(0.5 + 2e-16, 0.9, 0.5) == (0.5, 0.9, "")


@SETTINGS
@given(scored())
def test_curve_defaults_contain_their_estimates(data):
    y, s = data
    curve = ScoreCurve.from_scores(y, s)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the small-sample and no-width warnings
        for name, at in (
            ("roc_auc", None),
            ("pr_auc", None),
            ("lift_auc", None),
            ("precision", {"recall": 0.5}),
        ):
            r = curve.interval(name, at=at, rng=1, n_resamples=DRAWS)
            _inside(r.estimate, *r.ci, f"{name} {at}")
        for name in ("roc_auc", "pr_auc"):
            o = curve.ops(name, ci="auto", reference=SMALL_DBT, rng=1, n_resamples=DRAWS)
            _inside(o.estimate, *o.ci, f"OPS {name}")
            _inside(o.value, *o.details["value_ci"], f"value of OPS {name}")


def test_a_confusion_matrix_interval_says_it_was_extended():
    """TP = 0: precision and F1 are 0, every posterior draw above 0; the boundary rule
    moves the lower end to 0 (as before) and now says so, for the OPS too."""
    cm = ConfusionMatrix(tp=0, fp=5, fn=5, tn=10)
    r = cm.interval("f1", rng=0)
    assert r.estimate == 0.0 and r.ci.low == 0.0 and np.min(r.draws) > 0
    assert r.method == (
        "Dirichlet-multinomial, Jeffreys prior, 10000 draws, prevalence fixed, equal-tailed"
        + EXTENDED
    )
    o = cm.ops("f1", ci="dirichlet", rng=0)
    assert o.ci.low == o.estimate and o.ci_method == r.method
    inside = cm.interval("alpha", rng=0)  # FP = 5 of 15: nothing to extend, nothing said
    assert inside.method.endswith("equal-tailed")


@SETTINGS
@given(st.integers(0, 6), st.integers(0, 6), st.integers(0, 6), st.integers(0, 6))
def test_confusion_defaults_contain_their_estimates(tp, fp, fn, tn):
    if tp + fn == 0 or fp + tn == 0:
        return  # a class absent: no OPS (tested where it is refused)
    cm = ConfusionMatrix(tp=tp, fp=fp, fn=fn, tn=tn)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the small-sample and no-width warnings
        for name in ("alpha", "beta", "precision", "f1", "mcc", "npv"):
            r = cm.interval(name, rng=2, n_resamples=DRAWS)
            _inside(r.estimate, *r.ci, name)
        for name in ("f1", "precision", "mcc"):
            o = cm.ops(name, ci="dirichlet", rng=2, n_resamples=DRAWS)
            if np.isfinite(o.ci.low):
                _inside(o.estimate, *o.ci, f"OPS {name}")


def _compared(r, caught, what: str) -> None:
    """A comparison's interval contains the difference; or the difference has no
    interval, and the result or a warning says why (DeLong's variance 0 when both
    classifiers separate the classes)."""
    if np.isfinite(r.ci.low) or np.isnan(r.estimate):
        _inside(r.estimate, *r.ci, f"{what}: {r.method}")
        return
    reasons = [str(w.message) for w in caught] + [r.method]
    assert any("undefined" in text for text in reasons), (what, r, reasons)


@SETTINGS
@given(scored(), st.integers(0, 2**16), st.booleans())
def test_comparison_defaults_contain_their_differences(data, seed, mirrored):
    y, s = data
    # a second classifier: the first's scores mirrored (a separated test set against a
    # reversed one: a difference of 1, every posterior draw below it) or shuffled
    other = -s if mirrored else np.random.default_rng(seed).permutation(s)
    pred = {"A": (s >= np.median(s)).astype(int), "B": (other >= np.median(other)).astype(int)}
    sets = {"a": (y, s), "b": (y[::-1].copy(), other)}
    for metric in ("roc_auc", "pr_auc"):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            r = compare(y, {"A": s, "B": other}, metric=metric, rng=3, n_resamples=DRAWS)
        _compared(r, caught, f"paired {metric}")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            r = compare_test_sets(sets, metric=metric, rng=3, n_resamples=DRAWS)
        _compared(r, caught, f"unpaired {metric}")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = compare(y, y_pred=pred, metric="f1", rng=3, n_resamples=DRAWS)
    _compared(r, caught, "paired F1")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = compare_test_sets(
            {"a": (y, pred["A"]), "b": (y, pred["B"])},
            metric="f1",
            ops=True,
            rng=3,
            n_resamples=DRAWS,
        )
    _compared(r, caught, "unpaired OPS of F1")


@SETTINGS
@given(scored(), st.sampled_from(["bootstrap", "dirichlet"]))
def test_multilabel_aggregates_contain_their_estimates(data, ci):
    y, s = data
    labels = np.c_[y, y[::-1]]
    pred = np.c_[s >= np.median(s), s[::-1] >= np.median(s)].astype(int)
    ml = MultiLabel.from_predictions(labels, pred)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the small-sample and no-width warnings
        if np.isnan(ml.ops("f1").estimate):
            return  # no aggregate: no interval
        r = ml.ops("f1", ci=ci, rng=4, n_resamples=DRAWS)
    _inside(r.estimate, *r.ci, "aggregate")
    for row in r.table.itertuples():
        if np.isfinite(row.ops_ci_low):
            _inside(row.ops, row.ops_ci_low, row.ops_ci_high, f"label {row.label}")


@SETTINGS
@given(scored())
def test_evaluate_rows_contain_their_estimates(data):
    y, s = data
    df = pd.DataFrame({"y": y, "s": s, "g": np.arange(y.size) % 2})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the small-sample and no-width warnings
        out = pd.concat(
            evaluate(
                df,
                truth="y",
                score="s",
                threshold=float(np.median(s)),
                metrics=["f1", "precision", "roc_auc", "pr_auc"],
                by=by,
                curve_reference=SMALL_DBT,
                n_resamples=DRAWS,
                rng=5,
            )
            for by in (None, "g")
        )
    for row in out.itertuples():
        if np.isfinite(row.ops_ci_low):
            _inside(row.ops, row.ops_ci_low, row.ops_ci_high, f"OPS {row.metric}")
        if np.isfinite(row.value_ci_low):
            _inside(row.value, row.value_ci_low, row.value_ci_high, row.metric)
