"""DeLong's test of two ROC AUCs: correlated (the same rows, DeLong et al. 1988 by the
algorithm of Sun and Xu 2014) and unpaired (two test sets, as pROC's ``roc.test``), with
the interval of the difference (docs/method.md#comparisons).

The structural components of each curve come from
:func:`opsstats.uncertainty.curve.delong_components`, the single-curve DeLong code; here
they are indexed by each row's score so that the covariance of two curves on the same
rows can be formed.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats
from scipy.special import ndtri

from .._validation import check_confidence_level
from ..curves import ScoreCurve
from ..results import ConfidenceInterval
from ..uncertainty.curve import delong_components_from_counts, delong_roc
from ._inputs import check_alternative, paired_scores, ranked_counts
from .result import ComparisonResult

__all__ = ["delong_covariance", "delong_test", "delong_unpaired"]


def _row_placements(is_pos: np.ndarray, scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """V10 of every positive row and V01 of every negative row, in row order: the
    single-curve components per distinct score, indexed by each row's score."""
    tps, fps, idx = ranked_counts(is_pos, scores)
    _, _, v10, v01, _, _ = delong_components_from_counts(tps, fps)
    return v10[idx[is_pos]], v01[idx[~is_pos]]


def delong_covariance(y_true: Any, y_score: Any, *, pos_label: Any = None) -> tuple[Any, Any]:
    """The ROC AUCs of several classifiers scored on the same rows, and DeLong's
    covariance matrix of those AUCs.

    Parameters
    ----------
    y_true : array-like of shape (n,)
    y_score : dict {name: array-like of shape (n,)} or list of arrays
        Two or more classifiers' scores (higher: more likely positive).
    pos_label : label, optional

    Returns
    -------
    auc : pandas.Series
        The AUC (Mann-Whitney statistic, ties one half) of each classifier.
    covariance : pandas.DataFrame
        ``S10 / m + S01 / n``, S10 and S01 the sample covariance matrices (divisor m - 1,
        n - 1) of the positives' and negatives' placement values: pROC's
        ``var(roc, method="delong")`` on the diagonal and ``cov(roc1, roc2,
        method="delong")`` off it.

    Examples
    --------
    >>> auc, cov = delong_covariance([0, 0, 1, 1, 0, 1], {"A": [.1, .4, .35, .8, .2, .5],
    ...                                                    "B": [.2, .1, .5, .6, .3, .4]})
    >>> auc.round(4).tolist()
    [0.8889, 1.0]
    """
    is_pos, scores = paired_scores(y_true, y_score, pos_label)
    aucs, cov = _covariance(is_pos, list(scores.values()))
    names = list(scores)
    return pd.Series(aucs, index=names, name="auc"), pd.DataFrame(cov, index=names, columns=names)


def _covariance(is_pos: np.ndarray, scores: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    v10s, v01s = [], []
    for s in scores:
        v10, v01 = _row_placements(is_pos, s)
        v10s.append(v10)
        v01s.append(v01)
    x, y = np.vstack(v10s), np.vstack(v01s)
    m, n = x.shape[1], y.shape[1]
    aucs = x.mean(axis=1)
    s10 = np.atleast_2d(np.cov(x, ddof=1))
    s01 = np.atleast_2d(np.cov(y, ddof=1))
    return aucs, s10 / m + s01 / n


def _normal_p(z: float, alternative: str) -> float:
    if np.isnan(z):
        return float("nan")
    if alternative == "two-sided":
        return float(2 * stats.norm.sf(abs(z)))
    return float(stats.norm.sf(z) if alternative == "greater" else stats.norm.cdf(z))


def _t_p(t: float, df: float, alternative: str) -> float:
    if np.isnan(t) or np.isnan(df):
        return float("nan")
    if alternative == "two-sided":
        return float(2 * stats.t.sf(abs(t), df))
    return float(stats.t.sf(t, df) if alternative == "greater" else stats.t.cdf(t, df))


def _warn_zero(what: str) -> None:
    warnings.warn(
        f"{what}: the variance of the difference is 0 (both classifiers separate the "
        "classes perfectly, or their placements are identical), so the statistic and "
        "p-value are undefined (NaN).",
        UserWarning,
        stacklevel=4,
    )


def delong_test(
    y_true: Any,
    y_score: Any,
    *,
    alternative: str = "two-sided",
    confidence_level: float = 0.95,
    pos_label: Any = None,
) -> ComparisonResult:
    """DeLong's test of two correlated ROC AUCs (the same rows scored twice).

    Parameters
    ----------
    y_true : array-like of shape (n,)
    y_score : dict {name: array-like} or list of two arrays
        The two classifiers' scores, A first.
    alternative : {"two-sided", "greater", "less"}
        About AUC(A) - AUC(B).
    confidence_level : float, default 0.95
    pos_label : label, optional

    Returns
    -------
    ComparisonResult
        ``statistic`` Z = (A1 - A2) / sd, normal p-value; ``ci`` the Wald interval
        ``(A1 - A2) -+ z sd``, two-sided whatever the alternative, as pROC's.

    Notes
    -----
    With the placement values of each curve (the structural components V10 of the
    positives and V01 of the negatives, docs/method.md#comparisons), ``var(A1 - A2) =
    L S L'``, ``S = S10 / m + S01 / n``, ``L = (1, -1)``. It reproduces pROC 1.18's
    ``roc.test(r1, r2, method="delong", paired=TRUE)``: Z, p and ``conf.int``
    (``tests/reference/proc_compare.csv``).

    References
    ----------
    .. [1] E. R. DeLong, D. M. DeLong and D. L. Clarke-Pearson, "Comparing the areas
       under two or more correlated receiver operating characteristic curves: a
       nonparametric approach", Biometrics 44(3), 837-845 (1988).
    .. [2] X. Sun and W. Xu, "Fast implementation of DeLong's algorithm for comparing
       the areas under correlated receiver operating characteristic curves", IEEE
       Signal Processing Letters 21(11), 1389-1393 (2014).

    Examples
    --------
    >>> r = delong_test([0, 0, 1, 1, 0, 1, 1, 0], {"A": [.1, .4, .8, .7, .3, .9, .6, .5],
    ...                                           "B": [.2, .5, .6, .4, .1, .7, .3, .6]})
    >>> round(r.statistic, 4), round(r.p_value, 4)
    (1.3466, 0.1781)
    """
    alternative = check_alternative(alternative)
    level = check_confidence_level(confidence_level)
    is_pos, scores = paired_scores(y_true, y_score, pos_label)
    if len(scores) != 2:
        raise ValueError(
            f"`y_score` must hold exactly 2 classifiers for one test; got {len(scores)} "
            "(use opsstats.comparison.compare for all pairs)."
        )
    names = tuple(scores)
    m, n = int(is_pos.sum()), int((~is_pos).sum())
    _check_classes(m, n)
    aucs, cov = _covariance(is_pos, list(scores.values()))
    return _paired_result(aucs, cov, names, alternative, level, m, n)


def _check_classes(m: int, n: int) -> None:
    if m < 2 or n < 2:
        raise ValueError(
            "DeLong's test needs at least 2 positives and 2 negatives (sample "
            f"covariances of the placement values); got {m} positive(s) and {n} "
            "negative(s)."
        )


def _paired_result(
    aucs: np.ndarray,
    cov: np.ndarray,
    names: tuple[str, ...],
    alternative: str,
    level: float,
    m: int,
    n: int,
) -> ComparisonResult:
    diff = float(aucs[0] - aucs[1])
    var = float(cov[0, 0] + cov[1, 1] - 2 * cov[0, 1])
    sd = float(np.sqrt(max(var, 0.0)))
    if sd > 0:
        z = diff / sd
    else:
        _warn_zero("DeLong's test")
        z = float("nan")
    half = float(ndtri(0.5 + level / 2)) * sd
    return ComparisonResult(
        estimate=diff,
        estimate_a=float(aucs[0]),
        estimate_b=float(aucs[1]),
        ci=ConfidenceInterval(diff - half, diff + half),
        confidence_level=level,
        p_value=_normal_p(z, alternative),
        statistic=z,
        statistic_name="Z",
        alternative=alternative,
        quantity="AUC(ROC, trapezoid)",
        method="DeLong's test for two correlated ROC curves (Sun-Xu algorithm); "
        "Wald interval of the difference",
        names=(str(names[0]), str(names[1])),
        paired=True,
        counts={"rows": m + n, "positive": m, "negative": n},
        details={
            "variance": var,
            "standard_error": sd,
            "var_a": float(cov[0, 0]),
            "var_b": float(cov[1, 1]),
            "covariance": float(cov[0, 1]),
        },
    )


def delong_unpaired(
    curve_a: ScoreCurve,
    curve_b: ScoreCurve,
    *,
    alternative: str = "two-sided",
    confidence_level: float = 0.95,
    names: tuple[str, str] = ("A", "B"),
) -> ComparisonResult:
    """DeLong's test of two ROC AUCs from independent test sets, as pROC's unpaired
    ``roc.test``: a t statistic ``D = (A1 - A2) / sqrt(V1 + V2)``.

    Parameters
    ----------
    curve_a, curve_b : ScoreCurve
        The two test sets' curves (whole-number counts, 2 rows of each class).
    alternative : {"two-sided", "greater", "less"}
    confidence_level : float, default 0.95
    names : tuple of str

    Returns
    -------
    ComparisonResult
        ``statistic`` D with ``df = (V1 + V2)**2 / (V1**2 / (N1 - 1) + V2**2 / (N2 - 1))``,
        N the number of rows of each test set (pROC's choice, not the class sizes); p
        from Student's t. ``ci`` is ``(A1 - A2) -+ t_df sqrt(V1 + V2)``, the interval
        that inverts this test (pROC gives none).

    Examples
    --------
    >>> a = ScoreCurve.from_scores([0, 0, 1, 1, 0, 1], [.1, .4, .35, .8, .2, .5])
    >>> b = ScoreCurve.from_scores([0, 1, 1, 0, 0, 1, 0], [.3, .4, .2, .1, .5, .9, .6])
    >>> r = delong_unpaired(a, b)
    >>> r.statistic_name, round(r.estimate, 4)
    ('D', 0.3056)
    """
    alternative = check_alternative(alternative)
    level = check_confidence_level(confidence_level)
    da, db = delong_roc(curve_a), delong_roc(curve_b)
    diff = da.auc - db.auc
    v = da.variance + db.variance
    na, nb = int(curve_a.n), int(curve_b.n)
    if v > 0:
        stat = diff / np.sqrt(v)
        df = v**2 / (da.variance**2 / (na - 1) + db.variance**2 / (nb - 1))
        half = float(stats.t.ppf(0.5 + level / 2, df)) * np.sqrt(v)
    else:
        _warn_zero("DeLong's unpaired test")
        stat = df = half = float("nan")
    return ComparisonResult(
        estimate=float(diff),
        estimate_a=da.auc,
        estimate_b=db.auc,
        ci=ConfidenceInterval(float(diff - half), float(diff + half)),
        confidence_level=level,
        p_value=_t_p(float(stat), float(df), alternative),
        statistic=float(stat),
        statistic_name="D",
        alternative=alternative,
        quantity="AUC(ROC, trapezoid)",
        method="DeLong's test for two ROC curves of independent test sets (t, pROC's df); "
        "t interval of the difference",
        names=(str(names[0]), str(names[1])),
        paired=False,
        counts={
            "rows_a": na,
            "positive_a": int(curve_a.n_positive),
            "rows_b": nb,
            "positive_b": int(curve_b.n_positive),
        },
        df=float(df),
        details={"var_a": da.variance, "var_b": db.variance},
    )
