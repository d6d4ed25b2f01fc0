"""MCC and Cohen's kappa near 0 at counts near 1e6: no cancellation.

Both have the numerator TP TN - FP FN, a difference of two products that agree to about
12 digits when the metric is near 0 and the counts near 1e6. The registry computes it
as pi (1 - pi) (1 - alpha - beta) (``opsstats/metrics/_definitions.py``), so that the
only rounding left is that of the rates themselves. The references are exact: the
formula evaluated in ``Fraction`` arithmetic on the very (pi, alpha, beta) the registry
receives (its forward error), and the counts' own MCC and kappa in ``Fraction`` (and a
60-digit square root).
"""

from __future__ import annotations

from decimal import Decimal, getcontext
from fractions import Fraction

import numpy as np
import pytest

from opsstats import ConfusionMatrix
from opsstats.metrics import get_metric

getcontext().prec = 60
EXTENDED = np.finfo(np.longdouble).eps < np.finfo(np.float64).eps


def _near_zero_counts(seed: int, n: int = 200) -> list[tuple[int, int, int, int]]:
    """Counts near 1e6 whose TP TN - FP FN is a few units of TP (metrics near 1e-7)."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        tp, fp, fn = (int(v) for v in rng.integers(500_000, 2_000_000, 3))
        tn = round(fp * fn / tp) + int(rng.integers(-3, 4))
        if tp * tn != fp * fn:
            out.append((tp, fp, fn, tn))
    return out


def _decimal(x: Fraction) -> Decimal:
    return Decimal(x.numerator) / Decimal(x.denominator)


def _exact(name: str, tp: Fraction, fp: Fraction, fn: Fraction, tn: Fraction) -> Decimal:
    cross = tp * tn - fp * fn
    if name == "mcc":
        den = (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)
        return _decimal(cross) / _decimal(den).sqrt()
    return _decimal(2 * cross / ((tp + fp) * (fp + tn) + (tp + fn) * (fn + tn)))


def _relative_error(got: float | np.longdouble, exact: Decimal) -> float:
    value = _decimal(Fraction(*got.as_integer_ratio()))
    return float(abs(value - exact) / abs(exact))


@pytest.mark.parametrize("name", ["mcc", "cohen_kappa"])
@pytest.mark.parametrize("dtype", [np.float64, np.longdouble])
def test_the_registry_formula_is_accurate_for_its_inputs(name, dtype):
    """Forward error: the registry's value against the same formula in exact arithmetic
    on the same (pi, alpha, beta). The two products' difference lost 4.4e-8 (float64)
    and 1.6e-11 (longdouble) of relative accuracy here; a stable form keeps a few
    units of the last place."""
    metric = get_metric(name)
    eps = float(np.finfo(dtype).eps)
    worst = 0.0
    for tp, fp, fn, tn in _near_zero_counts(1):
        pos, neg = dtype(tp + fn), dtype(fp + tn)
        p, a, b = pos / (pos + neg), dtype(fp) / neg, dtype(fn) / pos
        fp_, fa, fb = (Fraction(*x.as_integer_ratio()) for x in (p, a, b))
        cells = (fp_ * (1 - fb), (1 - fp_) * fa, fp_ * fb, (1 - fp_) * (1 - fa))
        exact = _exact("mcc" if name == "mcc" else "kappa", *cells)
        worst = max(worst, _relative_error(metric.func(p, a, b), exact))
    assert worst < 8 * eps, worst


@pytest.mark.parametrize("name", ["mcc", "cohen_kappa"])
def test_confusion_matrix_values_match_the_counts_exactly_computed(name):
    """Through ConfusionMatrix (rates in extended precision where the platform has it):
    the counts' own MCC and kappa, exact. Near 0 the rates' rounding is what is left:
    1e-7 of the value at most in float64 (metrics near 1e-7, so about 1e-14 absolute),
    far less in extended precision."""
    tol = 2e-9 if EXTENDED else 1e-6
    for tp, fp, fn, tn in _near_zero_counts(2, 100):
        cm = ConfusionMatrix(tp=tp, fp=fp, fn=fn, tn=tn)
        exact = _exact("mcc" if name == "mcc" else "kappa", *map(Fraction, (tp, fp, fn, tn)))
        assert _relative_error(cm.metric(name), exact) < tol, (tp, fp, fn, tn)


def test_the_usual_values_are_unchanged():
    """Away from 0: scikit-learn's matthews_corrcoef and cohen_kappa_score of the rows."""
    from sklearn.metrics import cohen_kappa_score, matthews_corrcoef

    y = [1] * 30 + [0] * 70
    p = [1] * 22 + [0] * 8 + [1] * 11 + [0] * 59
    cm = ConfusionMatrix.from_predictions(y, p)
    assert cm.metric("mcc") == pytest.approx(matthews_corrcoef(y, p), rel=1e-14)
    assert cm.metric("cohen_kappa") == pytest.approx(cohen_kappa_score(y, p), rel=1e-14)
