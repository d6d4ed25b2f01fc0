"""Properties every registered metric must have (hypothesis).

(a) counts -> (n, prevalence, alpha, beta) -> ``ConfusionMatrix.from_rates`` -> counts;
(b) no metric improves when alpha or beta increases (direction from the registry);
(c) every value lies within the metric's declared ``range``;
(d) a user-registered metric works through ``ConfusionMatrix.metric`` and ``metrics()``;
(e) metrics do not depend on n: multiplying all counts by a constant changes nothing.

(b) and (c) loop over ``available_metrics()``, so a newly registered metric is
checked without editing this file.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
import scipy.special
from hypothesis import given, settings
from hypothesis import strategies as st

from opsstats import ConfusionMatrix, UndefinedMetricWarning
from opsstats.metrics import (
    available_metrics,
    get_metric,
    register_metric,
    resolve_metric,
    unregister_metric,
)

# Every metric at its default parameters, plus F-beta at other weights.
BOUND = [get_metric(name).bind() for name in available_metrics()] + [
    resolve_metric("fbeta", beta=b) for b in (0.25, 0.5, 2.0, 4.0)
]
IDS = [b.key for b in BOUND]

_cell = st.one_of(st.integers(0, 50), st.integers(0, 10**6))
_int_counts = st.tuples(_cell, _cell, _cell, _cell).filter(lambda c: sum(c) > 0)
_weight = st.one_of(st.just(0.0), st.floats(1e-3, 1e3), st.integers(0, 50).map(float))
_float_counts = st.tuples(_weight, _weight, _weight, _weight).filter(lambda c: sum(c) > 0)


def _quiet(cm: ConfusionMatrix, bound) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        return cm.metric(bound)


# ------------------------------------------------------------- (a) round trip


def _round_trip(cm: ConfusionMatrix) -> ConfusionMatrix:
    # rates() gives 0 in place of the error rate of an absent class (its cells are 0
    # whatever the placeholder), so matrices with a class absent round-trip too
    prevalence, alpha, beta = cm.rates()
    return ConfusionMatrix.from_rates(n=cm.n, prevalence=prevalence, alpha=alpha, beta=beta)


@settings(max_examples=300, deadline=None)
@given(_int_counts)
def test_integer_counts_round_trip_exactly(counts):
    tp, fp, fn, tn = counts
    cm = ConfusionMatrix(tp=tp, fp=fp, fn=fn, tn=tn)
    back = _round_trip(cm)
    # exactly the same integers (from_rates rounds counts within 1e-9 n of a whole number)
    assert (back.tp, back.fp, back.fn, back.tn) == counts
    assert back.is_integer and back == cm


@settings(max_examples=300, deadline=None)
@given(_float_counts)
def test_weighted_counts_round_trip(counts):
    cm = ConfusionMatrix(tp=counts[0], fp=counts[1], fn=counts[2], tn=counts[3])
    back = _round_trip(cm)
    n = cm.n
    for name, c, b in zip(
        ("tp", "fp", "fn", "tn"), counts, (back.tp, back.fp, back.fn, back.tn), strict=True
    ):
        if isinstance(b, int) and not float(c).is_integer():
            # from_rates snapped a count within 1e-9 n of a whole number to it
            assert abs(b - c) <= 1e-9 * max(1.0, n), (name, c, b)
        else:
            # Relative to n: from_rates rebuilds TP as n pi (1 - beta), and 1 - beta
            # carries an absolute (not relative) error of a few ulp, so a cell much
            # smaller than its class is exact to 1e-12 n, not to 1e-12 of itself.
            assert b == pytest.approx(c, rel=1e-12, abs=1e-12 * n), (name, c, b)


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 10**6), st.floats(0, 1), st.floats(0, 1), st.floats(0, 1))
def test_rates_round_trip(n, prevalence, alpha, beta):
    cm = ConfusionMatrix.from_rates(n=n, prevalence=prevalence, alpha=alpha, beta=beta)
    assert cm.n == pytest.approx(n, rel=1e-12)
    assert cm.prevalence == pytest.approx(prevalence, rel=1e-9, abs=1e-9)
    if cm.negatives > 0 and cm.negatives == pytest.approx(n * (1 - prevalence), rel=1e-9):
        assert cm.alpha == pytest.approx(alpha, abs=1e-9 * n / cm.negatives)
    if cm.positives > 0 and cm.positives == pytest.approx(n * prevalence, rel=1e-9):
        assert cm.beta == pytest.approx(beta, abs=1e-9 * n / cm.positives)


# ------------------------------------------------------ (b) monotone, (c) in range

# The open unit cube, kept 1e-12 away from its faces: nearer, the cells underflow to
# 0 and a metric becomes 0/0 in floating point, which is not the property tested.
_open = st.floats(1e-12, 1 - 1e-12)
_sorted_rates = st.lists(_open, min_size=2, max_size=6, unique=True).map(sorted)


def _worse_or_equal(bound, values: np.ndarray) -> np.ndarray:
    """Whether each value is no better than the one before (tolerance 1e-12, relative
    above 1 for the unbounded metrics)."""
    prev, nxt = values[:-1], values[1:]
    tol = 1e-12 * np.maximum(1.0, np.abs(prev))
    if bound.higher_is_better:
        return (nxt <= prev + tol) | (nxt == prev)  # == for two equal infinities
    return (nxt >= prev - tol) | (nxt == prev)


@settings(max_examples=300, deadline=None)
@given(_open, _open, _sorted_rates)
def test_no_metric_improves_when_alpha_increases(prevalence, beta, alphas):
    alphas = np.array(alphas)
    for bound in BOUND:
        values = bound(prevalence, alphas, beta)
        assert not np.isnan(values).any(), (bound.key, prevalence, alphas, beta, values)
        ok = _worse_or_equal(bound, values)
        assert ok.all(), (bound.key, bound.direction, prevalence, beta, alphas, values)


@settings(max_examples=300, deadline=None)
@given(_open, _open, _sorted_rates)
def test_no_metric_improves_when_beta_increases(prevalence, alpha, betas):
    betas = np.array(betas)
    for bound in BOUND:
        values = bound(prevalence, alpha, betas)
        assert not np.isnan(values).any(), (bound.key, prevalence, alpha, betas, values)
        ok = _worse_or_equal(bound, values)
        assert ok.all(), (bound.key, bound.direction, prevalence, alpha, betas, values)


def test_monotonicity_check_can_fail():
    # the check above is not vacuous: a metric with the wrong declared direction fails
    recall = get_metric("recall").bind()
    assert not _worse_or_equal(recall, recall(0.3, 0.2, np.array([0.5, 0.1]))).all()
    fpr = get_metric("fpr").bind()
    assert not _worse_or_equal(fpr, fpr(0.3, np.array([0.5, 0.1]), 0.2)).all()


@settings(max_examples=300, deadline=None)
@given(_open, _open, _open)
def test_every_metric_lies_in_its_range(prevalence, alpha, beta):
    for bound in BOUND:
        lo, hi = bound.range
        value = float(bound(prevalence, alpha, beta))
        # exact: no rounding slack (e.g. accuracy tp + tn never exceeds 1 here)
        assert lo <= value <= hi, (bound.key, prevalence, alpha, beta, value)


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from([0.0, 1.0]) | _open,
    st.sampled_from([0.0, 1.0]) | _open,
    st.sampled_from([0.0, 1.0]) | _open,
)
def test_range_holds_on_the_closed_cube_where_defined(prevalence, alpha, beta):
    # on the faces a metric may be 0/0 (NaN) but never outside its range
    for bound in BOUND:
        lo, hi = bound.range
        value = float(bound(prevalence, alpha, beta))
        assert math.isnan(value) or lo <= value <= hi, (bound.key, prevalence, alpha, beta, value)


@settings(max_examples=200, deadline=None)
@given(_int_counts)
def test_confusion_matrix_values_lie_in_range(counts):
    tp, fp, fn, tn = counts
    cm = ConfusionMatrix(tp=tp, fp=fp, fn=fn, tn=tn)
    for bound in BOUND:
        lo, hi = bound.range
        value = _quiet(cm, bound)
        assert math.isnan(value) or lo <= value <= hi, (bound.key, counts, value)


# ------------------------------------------------------------- (d) user metrics


def _cost(p, a, b, w=0.5):
    """Weighted error w alpha + (1 - w) beta: lower is better, in [0, 1]."""
    return w * a + (1 - w) * b


def _check_w(w=0.5):
    if not 0 <= w <= 1:
        raise ValueError(f"`w` must be in [0, 1]; got {w!r}.")


@pytest.fixture
def user_metric():
    metric = register_metric(
        "test_weighted_error",
        _cost,
        direction="lower",
        range=(0, 1),
        aliases=("test_wer",),
        label="Weighted error",
        params={"w": 0.5},
        param_check=_check_w,
        formula="w FP/(FP+TN) + (1-w) FN/(FN+TP)",
    )
    try:
        yield metric
    finally:
        unregister_metric("test_weighted_error")


def test_user_metric_through_confusion_matrix(user_metric):
    cm = ConfusionMatrix(tp=30, fp=10, fn=20, tn=40)  # alpha = 0.2, beta = 0.4
    assert cm.metric("test_weighted_error") == pytest.approx(0.5 * 0.2 + 0.5 * 0.4, abs=1e-15)
    assert cm.metric("Test-WER", w=0.25) == pytest.approx(0.25 * 0.2 + 0.75 * 0.4, abs=1e-15)
    assert cm.metric(user_metric) == cm.metric("test_weighted_error")
    with pytest.raises(ValueError, match=r"`w` must be in \[0, 1\]; got 2"):
        cm.metric("test_weighted_error", w=2)
    values = cm.metrics()
    assert list(values.index) == available_metrics()
    assert values["test_weighted_error"] == pytest.approx(0.3, abs=1e-15)
    assert "Weighted error (w=0.5)" in str(cm.summary())


def test_user_metric_is_gone_after_unregistering():
    register_metric("test_tmp_metric", lambda p, a, b: 1 - a, direction="higher", range=(0, 1))
    try:
        cm = ConfusionMatrix(tp=1, fp=1, fn=1, tn=3)
        assert cm.metric("test_tmp_metric") == pytest.approx(0.75)
        assert "test_tmp_metric" in cm.metrics().index
    finally:
        unregister_metric("test_tmp_metric")
    assert "test_tmp_metric" not in available_metrics()
    assert "test_tmp_metric" not in ConfusionMatrix(tp=1, fp=1, fn=1, tn=3).metrics().index
    with pytest.raises(ValueError, match="unknown metric 'test_tmp_metric'"):
        ConfusionMatrix(tp=1, fp=1, fn=1, tn=3).metric("test_tmp_metric")


def test_user_metric_without_extended_precision_loops():
    # scipy.special.ndtr has no long-double loop: ConfusionMatrix falls back to float64
    register_metric(
        "test_probit_recall",
        lambda p, a, b: scipy.special.ndtr(1 - b),
        direction="higher",
        range=(0, 1),
    )
    try:
        cm = ConfusionMatrix(tp=30, fp=10, fn=20, tn=40)
        assert cm.metric("test_probit_recall") == pytest.approx(scipy.special.ndtr(0.6), rel=1e-15)
        assert cm.metrics()["test_probit_recall"] == pytest.approx(scipy.special.ndtr(0.6))
    finally:
        unregister_metric("test_probit_recall")


# --------------------------------------------------------- (e) scale invariance


@settings(max_examples=300, deadline=None)
@given(_int_counts, st.sampled_from([2, 7, 1000, 0.5, 0.1, 3.75, 1e-3]))
def test_metrics_do_not_depend_on_n(counts, factor):
    tp, fp, fn, tn = counts
    cm = ConfusionMatrix(tp=tp, fp=fp, fn=fn, tn=tn)
    scaled = ConfusionMatrix(tp=tp * factor, fp=fp * factor, fn=fn * factor, tn=tn * factor)
    assert scaled.n == pytest.approx(cm.n * factor, rel=1e-15)
    for bound in BOUND:
        v, w = _quiet(cm, bound), _quiet(scaled, bound)
        if math.isnan(v) or math.isinf(v):
            assert v == w or (math.isnan(v) and math.isnan(w)), (bound.key, counts, v, w)
        else:
            assert w == pytest.approx(v, rel=1e-12, abs=1e-12), (bound.key, counts, factor)
