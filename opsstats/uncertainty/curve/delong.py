"""``method="delong"``: DeLong's variance of the ROC AUC and its intervals.

DeLong, DeLong and Clarke-Pearson's (1988) asymptotic variance of the ROC AUC (the
Mann-Whitney statistic, ties counted one half), computed by the O(n log n) algorithm of
Sun and Xu (2014). The curve already holds the data sorted once, as cumulative counts
per distinct score, so the midranks of Sun and Xu come from those counts with no further
sort (:func:`~opsstats.uncertainty.curve.delong_roc`). Two intervals: ``"normal"``,
``auc -+ z * sqrt(var)`` clipped to [0, 1] as pROC's ``ci.auc`` does, and ``"logit-t"``,
``expit(logit(auc) - b -+ t * sqrt(var) / (auc (1 - auc)))`` with t on the
Welch-Satterthwaite degrees of freedom of the two variance components: the
Brunner-Munzel (2000) small-sample t approximation (DeLong's variance is theirs; the
statistic reproduces ``scipy.stats.brunnermunzel``) on the logit scale, which keeps the
interval inside (0, 1) and follows the skew of the AUC near its bounds (Pohar Perme and
Manevski 2019); ``b = (2 auc - 1) var / (2 (auc (1 - auc))**2)`` removes the
second-order (delta-method) bias of ``logit(auc)``, which otherwise leaves the interval
too high when the AUC is near 1 and a class is small.

For the ROC AUC with the trapezoid rule only; the interval is centred on the
Mann-Whitney statistic, as pROC's is.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from ..._lazy import lazy_module
from ...curves._geometry import CurveArea
from ...curves._partial import PartialArea
from ._options import _check_whole_counts, _logit_t, _warn_no_width, sampling_view

if TYPE_CHECKING:
    from scipy import special
else:
    special = lazy_module("scipy.special")

__all__ = ["DeLongResult", "delong_components", "delong_components_from_counts", "delong_roc"]


class DeLongResult(NamedTuple):
    """DeLong's estimate of the ROC AUC and of its variance.

    ``variance = s10 / n_positive + s01 / n_negative``, where s10 and s01 are the
    sample variances (divisor m - 1) of the structural components V10 of the positives
    and V01 of the negatives.

    Examples
    --------
    >>> from opsstats import ScoreCurve
    >>> curve = ScoreCurve.from_scores([0, 0, 1, 0, 1, 1, 0, 1], [.1, .3, .35, .4, .8, .9, .2, .6])
    >>> d = delong_roc(curve)
    >>> round(d.auc, 4), d.variance > 0
    (0.9375, True)
    """

    auc: float
    variance: float
    s10: float
    s01: float
    n_positive: int
    n_negative: int


def delong_roc(curve: Any) -> DeLongResult:
    """DeLong's variance of the ROC AUC by the algorithm of Sun and Xu (2014).

    Parameters
    ----------
    curve : ScoreCurve
        With whole-number counts and at least two rows of each class.

    Returns
    -------
    DeLongResult
        ``auc`` (the Mann-Whitney statistic, ties one half), ``variance``, ``s10``,
        ``s01`` and the class sizes.

    Raises
    ------
    ValueError
        For weighted (non-integer) counts, or fewer than two positives or negatives
        (a sample variance needs two values).

    Notes
    -----
    With m positives X_i and n negatives Y_j, Sun and Xu write DeLong's structural
    components through midranks: T_Z is a row's midrank among all m + n rows, T_X its
    midrank among the positives and T_Y among the negatives (ascending scores, tied
    rows sharing the mean of their ranks), and

        V10(X_i) = (T_Z(X_i) - T_X(X_i)) / n,    V01(Y_j) = 1 - (T_Z(Y_j) - T_Y(Y_j)) / m.

    A :class:`~opsstats.curves.ScoreCurve` has sorted the rows once already: at its k-th
    distinct score, ``tps[k]`` positives and ``fps[k]`` negatives score at or above it,
    of which ``pos_k`` and ``neg_k`` score exactly it. So every row of that score has
    the midranks

        T_Z = m + n - tps[k] - fps[k] + (pos_k + neg_k + 1) / 2
        T_X = m - tps[k] + (pos_k + 1) / 2,     T_Y = n - fps[k] + (neg_k + 1) / 2,

    and the components are computed once per distinct score and weighted by its
    counts: O(J) after the curve's single O(n log n) sort, with no re-sort. V10 is the
    share of negatives a positive outscores (ties one half), V01 the share of positives
    that outscore a negative; both average to the AUC, and

        var = S10 / m + S01 / n,

    S10 and S01 their sample variances (DeLong et al. 1988): the variance pROC reports
    as ``var(roc, method="delong")``.

    References
    ----------
    .. [1] E. R. DeLong, D. M. DeLong and D. L. Clarke-Pearson, "Comparing the areas
       under two or more correlated receiver operating characteristic curves: a
       nonparametric approach", Biometrics 44(3), 837-845 (1988).
       https://doi.org/10.2307/2531595
    .. [2] X. Sun and W. Xu, "Fast implementation of DeLong's algorithm for comparing
       the areas under correlated receiver operating characteristic curves", IEEE
       Signal Processing Letters 21(11), 1389-1393 (2014).
       https://doi.org/10.1109/LSP.2014.2337313
    .. [3] X. Robin et al., "pROC: an open-source package for R and S+ to analyze and
       compare ROC curves", BMC Bioinformatics 12, 77 (2011).
       https://doi.org/10.1186/1471-2105-12-77

    Examples
    --------
    >>> from opsstats.curves import ScoreCurve
    >>> curve = ScoreCurve.from_scores([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.5])
    >>> d = delong_roc(curve)
    >>> round(d.auc, 6), round(d.variance, 6)
    (0.888889, 0.024691)
    """
    pos, neg, v10, v01, m, n_neg = delong_components(curve)
    # weighted sums by einsum, not np.dot: BLAS's threaded ddot costs milliseconds on a
    # busy machine for what einsum's loop does in microseconds
    auc = float(np.einsum("i,i->", pos, v10) / m)
    v10 -= auc
    v10 *= v10
    v01 -= auc
    v01 *= v01
    s10 = float(np.einsum("i,i->", pos, v10) / (m - 1))
    s01 = float(np.einsum("i,i->", neg, v01) / (n_neg - 1))
    return DeLongResult(auc, s10 / m + s01 / n_neg, s10, s01, m, n_neg)


def delong_components(
    curve: Any,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int, int]:
    """DeLong's structural components per distinct score of the curve (Sun and Xu).

    Returns ``(pos, neg, v10, v01, m, n)``: per distinct score (in the curve's
    decreasing order) the numbers of positives and negatives with that score, the
    component V10 of a positive with that score (the share of negatives it outscores,
    ties one half) and V01 of a negative (the share of positives that outscore it), and
    the class sizes. Every row of a score shares its class's component, so the rows'
    placement values are these arrays indexed by each row's score: what DeLong's test
    of two correlated curves (:mod:`opsstats.comparison`) needs for the covariance.
    ``v10`` and ``v01`` are fresh arrays the caller may overwrite.

    Examples
    --------
    >>> from opsstats.curves import ScoreCurve
    >>> curve = ScoreCurve.from_scores([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.5])
    >>> pos, neg, v10, v01, m, n = delong_components(curve)
    >>> v10[pos > 0].tolist(), v01[neg > 0].tolist()
    ([1.0, 1.0, 0.6666666666666666], [0.6666666666666667, 1.0, 1.0])
    """
    curve = sampling_view(curve)  # the ROC curve of a standardized one: its origin's
    _check_whole_counts(curve, "DeLong's variance")
    return delong_components_from_counts(curve.tps, curve.fps)


def delong_components_from_counts(
    tps: Any, fps: Any
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int, int]:
    """:func:`delong_components` from a curve's cumulative whole-number counts ``tps``,
    ``fps`` (per distinct score, decreasing), for callers that counted them already."""
    tps = np.asarray(tps, dtype=np.int64)
    fps = np.asarray(fps, dtype=np.int64)
    m, n_neg = int(tps[-1]), int(fps[-1])
    if m < 2 or n_neg < 2:
        raise ValueError(
            "DeLong's variance needs at least 2 positives and 2 negatives (its "
            f"components' sample variances); got {m} positive(s) and {n_neg} "
            "negative(s)."
        )
    # Five float buffers, updated in place: at n = 1e5 fresh temporaries would cost more
    # in page faults than the arithmetic.
    J = tps.size
    pos, neg = np.empty(J), np.empty(J)  # rows at each distinct score
    pos[0], neg[0] = tps[0], fps[0]
    np.subtract(tps[1:], tps[:-1], out=pos[1:])
    np.subtract(fps[1:], fps[:-1], out=neg[1:])
    # midranks (ascending order) of the rows at each distinct score, from the counts
    t_z = np.add(pos, neg)  # T_Z = m + n - tps - fps + (c + 1) / 2
    t_z += 1.0
    t_z *= 0.5
    t_z += m + n_neg
    t_z -= tps
    t_z -= fps
    t_x = np.add(pos, 1.0)  # T_X = m - tps + (pos + 1) / 2
    t_x *= 0.5
    t_x += m
    t_x -= tps
    t_y = np.add(neg, 1.0)  # T_Y = n - fps + (neg + 1) / 2
    t_y *= 0.5
    t_y += n_neg
    t_y -= fps
    v10 = np.subtract(t_z, t_x, out=t_x)  # V10 = (T_Z - T_X) / n
    v10 /= n_neg
    v01 = np.subtract(t_z, t_y, out=t_y)  # V01 = 1 - (T_Z - T_Y) / m
    v01 /= m
    np.subtract(1.0, v01, out=v01)
    return pos, neg, v10, v01, m, n_neg


def _check_delong_quantity(quantity: Any) -> None:
    if not (
        isinstance(quantity, CurveArea) and quantity.curve == "roc" and quantity.rule == "trapezoid"
    ):
        raise ValueError(
            "`method='delong'` gives an interval for the ROC AUC with the "
            "trapezoid rule (the Mann-Whitney statistic) only; got "
            f"{quantity.label}. Use method='bootstrap'"
            + (
                " or method='jackknife' (its two-sample jackknife variance is DeLong's "
                "for the full AUC); pROC refuses DeLong for a partial AUC too."
                if isinstance(quantity, PartialArea)
                else "."
            )
        )


def _delong_interval(
    curve: Any,
    quantity: Any,
    level: float,
    estimate: float,
    d: DeLongResult | None = None,
    kind: str = "normal",
) -> tuple[float, float, str, DeLongResult]:
    _check_delong_quantity(quantity)
    if d is None:
        d = delong_roc(curve)
    if kind == "logit-t":
        # Welch-Satterthwaite degrees of freedom of s10 / m + s01 / n: the Brunner-Munzel
        # t approximation (DeLong's variance is theirs), on the logit scale
        v1, v2 = d.s10 / d.n_positive, d.s01 / d.n_negative
        denom = v1 * v1 / (d.n_positive - 1) + v2 * v2 / (d.n_negative - 1)
        df = (v1 + v2) ** 2 / denom if denom > 0 else float("nan")
        # the Mann-Whitney sum, not a rounded area: a perfectly separated test set has
        # auc == 1.0 exactly (every V10 is 1), so the one-sided rule is found reliably
        a = d.auc
        se_logit, shift = float("nan"), 0.0
        if 0 < a < 1:
            se_logit = np.sqrt(d.variance) / (a * (1 - a))
            # second-order bias of logit(auc): E logit(auc) - logit(AUC) is about
            # logit''(AUC) var / 2 = (2 AUC - 1) var / (2 (AUC (1 - AUC))**2)
            shift = (2 * a - 1) * d.variance / (2 * (a * (1 - a)) ** 2)
        low, high, how = _logit_t(a, se_logit, df, level, min(d.n_positive, d.n_negative), shift)
        if np.isnan(low):
            warnings.warn(
                f"DeLong's variance of the ROC AUC is 0 on {curve!r} (every row "
                "tied with every row of the other class): the logit-t interval is "
                "undefined (NaN).",
                UserWarning,
                stacklevel=4,
            )
        if shift:
            how = f"bias-corrected, {how}"
        return low, high, f"DeLong, Sun-Xu algorithm, logit scale, {how}", d
    half = float(special.ndtri(0.5 + level / 2)) * np.sqrt(d.variance)
    low, high = estimate - half, estimate + half
    if d.variance == 0:
        _warn_no_width(
            curve,
            quantity,
            estimate,
            estimate,
            "DeLong's variance of the ROC AUC is 0 (every positive scores above every "
            "negative, or every one below)",
        )
    text = "DeLong, Sun-Xu algorithm"
    if low < 0.0 or high > 1.0:
        text += ", clipped to [0, 1]"
    return max(low, 0.0), min(high, 1.0), text, d
