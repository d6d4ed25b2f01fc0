"""DeLong's test of two ROC AUCs: correlated (the same rows, DeLong et al. 1988 by the
algorithm of Sun and Xu 2014) and unpaired (two test sets, as pROC's ``roc.test``), with
the interval of the difference (docs/method.md#comparisons).

The structural components of each curve come from
:func:`opsstats.uncertainty.curve.delong_components`, the single-curve DeLong code; here
they are indexed by each row's score so that the covariance of two curves on the same
rows can be formed.
"""

from __future__ import annotations

import os
import warnings
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

import numpy as np

from .._lazy import lazy_module
from .._validation import check_confidence_level, check_instance
from ..curves import ScoreCurve
from ..results import ConfidenceInterval
from ..uncertainty.curve import delong_components_from_counts, delong_roc
from ..uncertainty.curve._options import sampling_view
from ._inputs import caller_stacklevel, check_alternative, paired_scores, ranked_counts
from .result import ComparisonResult

if TYPE_CHECKING:
    import pandas as pd
    from scipy import special, stats
else:
    pd = lazy_module("pandas")
    special = lazy_module("scipy.special")
    stats = lazy_module("scipy.stats")

__all__ = ["delong_covariance", "delong_test", "delong_unpaired", "satterthwaite_df"]


#: From this many rows the classifiers' placements are computed in parallel threads.
_THREADED_ROWS = 100_000


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
    aucs, c10, c01 = _class_covariances(is_pos, scores)
    return aucs, c10 + c01


def _class_covariances(
    is_pos: np.ndarray, scores: list[np.ndarray]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The AUCs and the two class parts of DeLong's covariance, ``S10 / m`` and
    ``S01 / n``."""
    if is_pos.size >= _THREADED_ROWS and len(scores) > 1:
        # each classifier's sort releases the GIL: the classifiers in parallel threads
        with ThreadPoolExecutor(max_workers=min(len(scores), os.cpu_count() or 1)) as pool:
            placed = list(pool.map(lambda s: _row_placements(is_pos, s), scores))
    else:
        placed = [_row_placements(is_pos, s) for s in scores]
    x = np.vstack([v10 for v10, _ in placed])
    y = np.vstack([v01 for _, v01 in placed])
    m, n = x.shape[1], y.shape[1]
    aucs = x.mean(axis=1)
    s10 = np.atleast_2d(np.cov(x, ddof=1))
    s01 = np.atleast_2d(np.cov(y, ddof=1))
    return aucs, s10 / m, s01 / n


#: The reference distributions of DeLong's statistic: pROC's (the normal for paired
#: curves, Student's t with pROC's df over the rows for unpaired ones) and Student's t
#: with the Welch-Satterthwaite df of the class parts (docs/method.md#comparisons).
DISTRIBUTIONS = ("proc", "t")


def satterthwaite_df(parts: list[tuple[float, int]]) -> float:
    """Welch-Satterthwaite degrees of freedom of a sum of variance estimates.

    Parameters
    ----------
    parts : list of (variance, rows)
        Each term ``s_k^2 / r_k`` of the variance and the rows ``r_k`` of the class it
        was estimated from (``r_k - 1`` degrees of freedom).

    Returns
    -------
    float
        ``(sum v_k)**2 / sum(v_k**2 / (r_k - 1))``; when a class has fewer than 3 rows
        (its variance then rests on two placement values), the conservative
        ``min(r_k) - 1`` instead, which the Satterthwaite value can exceed by far when
        those two values happen to agree. NaN when the variance is 0.

    Examples
    --------
    >>> round(satterthwaite_df([(0.004, 20), (0.001, 980)]), 2)
    29.65
    >>> satterthwaite_df([(0.004, 2), (0.001, 98)])
    1.0
    """
    total = sum(v for v, _ in parts)
    if not total > 0:
        return float("nan")
    smallest = min(r for _, r in parts)
    if smallest < 3:
        return float(smallest - 1)
    return float(total**2 / sum(v**2 / (r - 1) for v, r in parts))


def _check_distribution(distribution: Any) -> str:
    if distribution not in DISTRIBUTIONS:
        raise ValueError(
            f"`distribution` must be one of {', '.join(map(repr, DISTRIBUTIONS))}; got "
            f"{distribution!r}."
        )
    return str(distribution)


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
        stacklevel=caller_stacklevel(),
    )


def delong_test(
    y_true: Any,
    y_score: Any,
    *,
    alternative: str = "two-sided",
    confidence_level: float = 0.95,
    pos_label: Any = None,
    distribution: str = "proc",
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
    distribution : {"proc", "t"}, default "proc"
        The reference distribution of the statistic. ``"proc"``: the standard normal,
        as pROC. ``"t"``: Student's t with the Welch-Satterthwaite df of the two class
        parts of the variance (:func:`satterthwaite_df`), the default of
        :func:`opsstats.compare` (``method="auto"``): with few rows in a class the
        normal reference rejects a true null too often (18.2% at the 5% level with 2
        positives, 7.6% with 10, in the size study), the t reference does not.

    Returns
    -------
    ComparisonResult
        ``statistic`` Z = (A1 - A2) / sd (named T with the t reference) and its p-value;
        ``ci`` the interval ``(A1 - A2) -+ q sd``, q the normal (or t) quantile,
        two-sided whatever the alternative, as pROC's.

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
    distribution = _check_distribution(distribution)
    aucs, c10, c01 = _class_covariances(is_pos, list(scores.values()))
    parts = (c10, c01) if distribution == "t" else None
    return _paired_result(aucs, c10 + c01, names, alternative, level, m, n, parts)


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
    parts: tuple[np.ndarray, np.ndarray] | None = None,
) -> ComparisonResult:
    """The paired result; with the class parts ``(S10 / m, S01 / n)`` of the covariance,
    Student's t with their Satterthwaite df instead of the normal."""
    diff = float(aucs[0] - aucs[1])
    var = float(cov[0, 0] + cov[1, 1] - 2 * cov[0, 1])
    sd = float(np.sqrt(max(var, 0.0)))
    if sd > 0:
        z = diff / sd
    else:
        _warn_zero("DeLong's test")
        z = float("nan")
    if parts is None:
        df = None
        half = float(special.ndtri(0.5 + level / 2)) * sd
        p_value = _normal_p(z, alternative)
        how = "Wald interval of the difference"
    else:
        df = satterthwaite_df([(_contrast(parts[0]), m), (_contrast(parts[1]), n)])
        half = float(stats.t.ppf(0.5 + level / 2, df)) * sd if sd > 0 else float("nan")
        p_value = _t_p(z, df, alternative)
        how = "Student's t with the Satterthwaite df of the class parts; t interval"
    return ComparisonResult(
        estimate=diff,
        estimate_a=float(aucs[0]),
        estimate_b=float(aucs[1]),
        ci=ConfidenceInterval(diff - half, diff + half),
        confidence_level=level,
        p_value=p_value,
        statistic=z,
        statistic_name="Z" if df is None else "T",
        alternative=alternative,
        quantity="AUC(ROC, trapezoid)",
        method=f"DeLong's test for two correlated ROC curves (Sun-Xu algorithm); {how}",
        names=(str(names[0]), str(names[1])),
        paired=True,
        counts={"rows": m + n, "positive": m, "negative": n},
        df=df,
        details={
            "variance": var,
            "standard_error": sd,
            "var_a": float(cov[0, 0]),
            "var_b": float(cov[1, 1]),
            "covariance": float(cov[0, 1]),
        },
    )


def _contrast(part: np.ndarray) -> float:
    """The variance of A - B from one class's 2 x 2 part."""
    return float(part[0, 0] + part[1, 1] - 2 * part[0, 1])


def delong_unpaired(
    curve_a: ScoreCurve,
    curve_b: ScoreCurve,
    *,
    alternative: str = "two-sided",
    confidence_level: float = 0.95,
    names: tuple[str, str] = ("A", "B"),
    distribution: str = "proc",
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
    distribution : {"proc", "t"}, default "proc"
        ``"proc"``: pROC's df, below. ``"t"``: the Welch-Satterthwaite df of the four
        class parts ``S10 / m`` and ``S01 / n`` of the two variances
        (:func:`satterthwaite_df`); pROC's df counts the rows, so with 2 positives in a
        test set of 100 it is near 100 and the test rejects a true null 27% of the
        time at the 5% level (size study); the class parts' df is near 1 there.

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
    check_instance("curve_a", curve_a, ScoreCurve)
    check_instance("curve_b", curve_b, ScoreCurve)
    alternative = check_alternative(alternative)
    level = check_confidence_level(confidence_level)
    distribution = _check_distribution(distribution)
    # a standardized curve's rows are its origin's (the ROC AUC has no prevalence)
    curve_a, curve_b = sampling_view(curve_a), sampling_view(curve_b)
    da, db = delong_roc(curve_a), delong_roc(curve_b)
    diff = da.auc - db.auc
    v = da.variance + db.variance
    na, nb = int(curve_a.n), int(curve_b.n)
    if v > 0:
        stat = diff / np.sqrt(v)
        if distribution == "proc":
            df = v**2 / (da.variance**2 / (na - 1) + db.variance**2 / (nb - 1))
            how = "t, pROC's df"
        else:
            df = satterthwaite_df(
                [(d.s10 / d.n_positive, d.n_positive) for d in (da, db)]
                + [(d.s01 / d.n_negative, d.n_negative) for d in (da, db)]
            )
            how = "t, the Satterthwaite df of the class parts"
        half = float(stats.t.ppf(0.5 + level / 2, df)) * np.sqrt(v)
    else:
        _warn_zero("DeLong's unpaired test")
        stat = df = half = float("nan")
        how = "t"
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
        method=f"DeLong's test for two ROC curves of independent test sets ({how}); "
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
