"""Operating points at many x values at once (``values_at``, what a reference's band and
standardized curve use) equal ``value_at`` at each x bit for bit, and eq. 9 written out
point by point (docs/method.md#operating-points)."""

import numpy as np
import pytest

from opsstats.curves._geometry import parse_at, value_at, values_at
from opsstats.metrics import resolve_metric
from opsstats.reference.dbt import dbt_curves

XS = [0.5, 0.0, 0.001, 0.02, 0.25, 0.5, 0.9, 1.0]  # unsorted, repeated, both ends


def curves():
    a, b = dbt_curves(400, 5, np.random.default_rng(3))
    # a second set with ties: points on a 0.05 lattice, some of them repeated
    a2 = np.maximum.accumulate(np.round(a * 20) / 20, axis=1)
    b2 = np.minimum.accumulate(np.round(b * 20) / 20, axis=1)
    return {"dbt": (a, b), "ties": (a2, b2)}


def eq9_by_hand(metric, axis, u, pi, alpha, beta):
    """Eq. 9 on one curve, point by point: the first point with x >= u (the last of the
    points at x == u on the FPR and specificity axes) and its predecessor."""
    spec = axis == "specificity"
    x = {
        "recall": 1 - beta,
        "fpr": alpha,
        "specificity": -(1 - alpha),
        "rate": pi * (1 - beta) + (1 - pi) * alpha,
    }[axis]
    u = -u if spec else u
    r = next((j for j in range(x.size) if x[j] >= u), x.size - 1)
    left = max(r - 1, 0)
    t = (u - x[left]) / (x[r] - x[left]) if x[r] > x[left] else 1.0
    t = 1.0 if x[r] == u else min(max(t, 0.0), 1.0)
    if axis in ("fpr", "specificity") and x[r] == u:
        r = max(j for j in range(x.size) if x[j] <= u)
    a_hat = alpha[left] + t * (alpha[r] - alpha[left])
    b_hat = beta[left] + t * (beta[r] - beta[left])
    value = float(metric(pi, a_hat, b_hat))
    if np.isnan(value) and u == 0 and axis in ("recall", "rate"):
        value = float(metric(pi, alpha[1], beta[1]))
    return value


@pytest.mark.parametrize("name", ["precision", "recall", "lift", "f1", "fpr", "mcc"])
@pytest.mark.parametrize("axis", ["recall", "fpr", "rate", "specificity"])
def test_values_at_equals_value_at_bit_for_bit(name, axis):
    metric = resolve_metric(name)
    for alpha, beta in curves().values():
        for pi in (0.01, 0.3):
            with np.errstate(all="ignore"):
                many = values_at(metric, axis, XS, pi, alpha, beta)
                for i, u in enumerate(XS):
                    one = value_at(parse_at(name, {axis: u}), pi, alpha, beta)
                    np.testing.assert_array_equal(many[i], one)
            # and eq. 9 by hand on a few curves
            for row in (0, 7, 123):
                for i, u in enumerate(XS):
                    with np.errstate(all="ignore"):
                        hand = eq9_by_hand(metric, axis, u, pi, alpha[row], beta[row])
                    assert many[i, row] == pytest.approx(hand, rel=1e-12, nan_ok=True), (row, u)


def test_values_at_of_one_curve_and_nan_rows():
    alpha = np.array([0.0, 0.2, 0.5, 1.0])
    beta = np.array([1.0, 0.4, 0.1, 0.0])
    v = values_at(resolve_metric("precision"), "recall", [0.6, 0.3], 0.1, alpha, beta)
    assert v.shape == (2, 1)
    # precision at recall 0.6 on the first segment past (0.2, 0.4): (alpha, beta) = (0.2, 0.4)
    assert v[0, 0] == pytest.approx(0.1 * 0.6 / (0.1 * 0.6 + 0.9 * 0.2))
    # a row with NaN coordinates (never a reference curve) is counted as value_at counts it
    a2 = np.vstack([alpha, [0.0, np.nan, 0.5, 1.0]])
    b2 = np.vstack([beta, beta])
    with np.errstate(all="ignore"):
        many = values_at(resolve_metric("precision"), "fpr", [0.3], 0.1, a2, b2)[0]
        one = value_at(parse_at("precision", {"fpr": 0.3}), 0.1, a2, b2)
    np.testing.assert_array_equal(many, one)
