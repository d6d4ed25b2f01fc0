"""Confusion-matrix metrics across groups as arrays (opsstats/uncertainty/_cm_groups.py):
the same rows, bit for bit, as the per-group path of ``evaluate`` (``evaluate_unit``),
which the array path replaces when it covers the call."""

import warnings

import numpy as np
import pandas as pd
import pytest

import opsstats.grouped._arrays as grouped
from opsstats import BetaErrors, ConfusionMatrix, evaluate
from opsstats.metrics import available_metrics, register_metric, unregister_metric
from opsstats.uncertainty._cm_groups import _order_statistics, covered, group_point_columns
from opsstats.uncertainty._draws import unit_rng
from opsstats.uncertainty.methods import register_interval_method, unregister_interval_method


def _per_group(monkeypatch, df, **kw):
    """evaluate through the per-group path only (the reference implementation)."""
    with monkeypatch.context() as m:
        m.setattr(grouped, "covered", lambda *a: False)
        return evaluate(df, **kw)


def _data(seed=2, n=4000, groups=300):
    rng = np.random.default_rng(seed)
    g = rng.integers(0, groups, n).astype(float)
    g[rng.random(n) < 0.01] = np.nan  # a NaN group key (dropna=False keeps it)
    pi = rng.uniform(0.0, 1.0, groups)[np.nan_to_num(g).astype(int)]
    y = rng.random(n) < pi
    p = rng.random(n) < np.where(y, 0.7, 0.2)
    df = pd.DataFrame(
        {
            "y": y.astype(int),
            "p": p.astype(int),
            "s": rng.normal(y * 1.0, 1.0),
            "g": g,
            "h": rng.choice(["north", "south"], n),
        }
    )
    # edge groups: nothing predicted positive (precision 0/0), one cell only, one row
    extra = pd.DataFrame(
        {
            "y": [1, 1, 0, 0, 1, 0, 1],
            "p": [0, 0, 0, 0, 1, 1, 1],
            "s": [0.0] * 7,
            "g": [1000.0] * 4 + [1001.0] * 2 + [1002.0],
            "h": ["north"] * 7,
        }
    )
    return pd.concat([df, extra], ignore_index=True)


@pytest.mark.parametrize(
    "ci, level, draws, prevalence",
    [
        ("dirichlet", 0.95, 1000, None),
        ("dirichlet", 0.9, 301, None),
        (None, 0.95, 1000, None),
        ("dirichlet", 0.95, 1000, 0.2),  # the standardized columns, same draws
        (None, 0.95, 1000, 0.001),
    ],
)
def test_every_closed_form_metric_equals_the_per_group_path(
    monkeypatch, ci, level, draws, prevalence
):
    df = _data()
    kw = {
        "truth": "y",
        "pred": "p",
        "metrics": list(available_metrics()),
        "by": "g",
        "ci": ci,
        "confidence_level": level,
        "n_resamples": draws,
        "rng": 7,
        "prevalence": prevalence,
    }
    assert covered(list(available_metrics()), ci, None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fast = evaluate(df, **kw)
        slow = _per_group(monkeypatch, df, **kw)
    pd.testing.assert_frame_equal(fast, slow, check_exact=True)
    # the edge groups went through (and are reported as by) the per-group path
    reasons = fast.set_index(["g", "metric"])["reason"]
    assert "Precision (PPV) is 0/0" in reasons[(1000.0, "precision")]
    assert reasons[(1002.0, "f1")].startswith("no negatives")
    cms, slow_cms = fast.attrs["confusion_matrices"], slow.attrs["confusion_matrices"]
    assert list(map(str, cms)) == list(map(str, slow_cms))  # one NaN key, not equal to itself
    assert list(cms.values()) == list(slow_cms.values())
    assert cms[(1000.0,)] == ConfusionMatrix(tp=0, fp=0, fn=2, tn=2)


def test_threshold_and_two_group_columns(monkeypatch):
    df = _data(seed=5)
    kw = {
        "truth": "y",
        "score": "s",
        "threshold": 0.5,
        "metrics": ["f1", "mcc", "fpr"],
        "by": ["h", "g"],
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fast = evaluate(df, rng=3, **kw)
        slow = _per_group(monkeypatch, df, rng=3, **kw)
    pd.testing.assert_frame_equal(fast, slow, check_exact=True)
    # lower-is-better (fpr): the OPS interval's ends are those of the value, swapped
    row = fast[fast.metric == "fpr"].dropna(subset=["ops_ci_low"]).iloc[0]
    assert row.ops_ci_low <= row.ops <= row.ops_ci_high
    assert row.value_ci_low <= row.value <= row.value_ci_high


def test_a_row_is_confusion_matrix_ops_with_the_groups_generator():
    # independent of evaluate: the row of group k is cm.ops(..., rng=unit_rng(root, k, ...))
    counts = np.array([[30, 12, 9, 149], [4, 0, 1, 95], [60, 40, 40, 860]])
    keys = [("a",), ("b",), (3,)]
    done, cols = group_point_columns(
        keys,
        counts,
        ["f1", "mcc"],
        ci="dirichlet",
        confidence_level=0.95,
        n_resamples=500,
        reference=None,
        root=11,
    )
    assert done.all()
    for g, key in enumerate(keys):
        cm = ConfusionMatrix(
            **dict(zip(("tp", "fp", "fn", "tn"), map(int, counts[g]), strict=True))
        )
        for name in ("f1", "mcc"):
            r = cm.ops(
                name, ci="dirichlet", n_resamples=500, rng=unit_rng(11, key, "confusion matrix")
            )
            iv = cm.interval(name, n_resamples=500, rng=unit_rng(11, key, "confusion matrix"))
            assert cols[name]["value"][g] == cm.metric(name) == iv.estimate
            assert cols[name]["ops"][g] == r.estimate
            assert (cols[name]["ops_ci_low"][g], cols[name]["ops_ci_high"][g]) == r.ci
            assert (cols[name]["value_ci_low"][g], cols[name]["value_ci_high"][g]) == iv.ci
    # the paper's Example 2 counts: F1 0.6 at prevalence 0.1 has OPS 0.957672
    assert round(float(cols["f1"]["ops"][2]), 6) == 0.957672


def test_what_the_array_path_does_not_cover():
    assert covered(["f1", "mcc"], "dirichlet", None)
    assert covered(["f1"], None, None)
    assert not covered(["f1"], "bootstrap", None)
    assert not covered(["f1"], "dirichlet", BetaErrors(2, 5, 2, 5))
    register_metric(
        "half_j", lambda p, a, b: (1 - a - b) / 2, direction="higher", range=(-0.5, 0.5)
    )
    try:
        assert not covered(["f1", "half_j"], "dirichlet", None)  # no closed form
    finally:
        unregister_metric("half_j")

    def draws(cm, n, rng):
        return rng.beta(cm.fp + 1, cm.tn + 1, n), rng.beta(cm.fn + 1, cm.tp + 1, n)

    register_interval_method("laplace_test", draws, description="Laplace test")
    try:
        assert not covered(["f1"], "laplace_test", None)
    finally:
        unregister_interval_method("laplace_test")


def test_uncovered_calls_still_give_the_per_group_rows(monkeypatch):
    df = _data(seed=9, n=1500, groups=40)
    kw = {"truth": "y", "pred": "p", "metrics": ["f1"], "by": "g", "rng": 1, "n_resamples": 200}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for extra in ({"ci": "bootstrap"}, {"point_reference": BetaErrors(2, 5, 2, 5)}):
            pd.testing.assert_frame_equal(
                evaluate(df, **kw, **extra), _per_group(monkeypatch, df, **kw, **extra)
            )


@pytest.mark.parametrize(
    "m, kth",
    [(1000, [24, 25, 974, 975]), (7, [0, 1, 5, 6]), (5, [1, 3]), (9, [0, 3, 4, 8]), (1, [0])],
)
def test_order_statistics_are_those_of_a_sort(m, kth):
    rng = np.random.default_rng(m)
    x = rng.integers(0, 5, (50, m)).astype(float)  # many ties
    x[0, :] = np.inf
    expected = np.sort(x, axis=1)[:, kth].T
    np.testing.assert_array_equal(_order_statistics(x.copy(), np.array(kth)), expected)
