"""McNemar's test against statsmodels.stats.contingency_tables.mcnemar, and the
Agresti-Min interval against its closed form."""

from __future__ import annotations

import numpy as np
import pytest
from statsmodels.stats.contingency_tables import mcnemar

from opsstats.comparison import compare, mcnemar_test


def _rows(n11: int, n10: int, n01: int, n00: int, seed: int = 0):
    """Truth and two predictions whose (A right?, B right?) table is the given one."""
    right_a = np.repeat([1, 1, 0, 0], [n11, n10, n01, n00]).astype(bool)
    right_b = np.repeat([1, 0, 1, 0], [n11, n10, n01, n00]).astype(bool)
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, right_a.size)
    pred_a = np.where(right_a, y, 1 - y)
    pred_b = np.where(right_b, y, 1 - y)
    return y, pred_a, pred_b


TABLES = [(10, 5, 12, 20), (30, 0, 3, 7), (50, 18, 9, 40), (5, 1, 1, 5), (100, 40, 22, 60)]


@pytest.mark.parametrize("table", TABLES)
@pytest.mark.parametrize("exact, correction", [(True, True), (False, True), (False, False)])
def test_matches_statsmodels(table, exact, correction):
    y, pa, pb = _rows(*table)
    r = mcnemar_test(y, {"A": pa, "B": pb}, exact=exact, correction=correction)
    n11, n10, n01, n00 = table
    # statsmodels: mcnemar([[n11, n10], [n01, n00]], exact=..., correction=...)
    ref = mcnemar([[n11, n10], [n01, n00]], exact=exact, correction=correction)
    if n10 == n01 and not exact and correction:
        # statsmodels gives (|0| - 1)**2 / (b + c) > 0 here; R's mcnemar.test drops the
        # correction when b == c (statistic 0, p 1), and so do we
        assert r.statistic == 0.0 and r.p_value == 1.0
        return
    assert r.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert r.p_value == pytest.approx(ref.pvalue, rel=1e-12)
    assert r.estimate == pytest.approx((n10 - n01) / sum(table), rel=1e-12)
    assert r.counts["a_only_right"] == n10 and r.counts["b_only_right"] == n01


def test_one_sided_exact_is_the_binomial_tail():
    from scipy.stats import binomtest

    y, pa, pb = _rows(10, 12, 3, 20)
    r = mcnemar_test(y, [pa, pb], exact=True, alternative="greater")
    assert r.p_value == pytest.approx(binomtest(12, 15, 0.5, alternative="greater").pvalue)
    r = mcnemar_test(y, [pa, pb], exact=True, alternative="less")
    assert r.p_value == pytest.approx(binomtest(12, 15, 0.5, alternative="less").pvalue)


def test_agresti_min_interval():
    # Agresti and Min (2005): Wald interval after adding 1/2 to each cell
    y, pa, pb = _rows(50, 18, 9, 40)
    r = mcnemar_test(y, [pa, pb])
    b, c, n = 18.5, 9.5, 119.0
    d = (b - c) / n
    se = np.sqrt((b + c) - (b - c) ** 2 / n) / n
    assert r.ci.low == pytest.approx(d - 1.959963984540054 * se, rel=1e-12)
    assert r.ci.high == pytest.approx(d + 1.959963984540054 * se, rel=1e-12)


def test_via_compare_and_error_rate():
    y, pa, pb = _rows(50, 18, 9, 40)
    acc = compare(y, y_pred={"A": pa, "B": pb}, metric="accuracy", method="mcnemar")
    err = compare(y, y_pred={"A": pa, "B": pb}, metric="error_rate", method="mcnemar")
    assert acc.p_value == err.p_value and err.estimate == -acc.estimate
    assert err.ci.low == pytest.approx(-acc.ci.high)
    with pytest.raises(ValueError, match="method='mcnemar'"):
        compare(y, y_pred={"A": pa, "B": pb}, metric="f1", method="mcnemar")


def test_no_discordant_rows_is_undefined():
    y, pa, pb = _rows(10, 0, 0, 5)
    r = mcnemar_test(y, [pa, pb])
    assert np.isnan(r.p_value) and r.estimate == 0.0


def test_bad_predictions():
    with pytest.raises(ValueError, match="same length"):
        mcnemar_test([0, 1, 1], {"A": [0, 1], "B": [0, 1, 1]})
    with pytest.raises(ValueError, match="labels of `y_true`"):
        mcnemar_test([0, 1, 1], {"A": [0, 1, 2], "B": [0, 1, 1]})
    with pytest.raises(TypeError, match="`exact`"):
        mcnemar_test([0, 1, 1], {"A": [0, 1, 1], "B": [0, 1, 1]}, exact="yes")
