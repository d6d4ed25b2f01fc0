"""Venkatraman and Begg's (1996) permutation test that two paired ROC curves are equal
everywhere, as R pROC's ``roc.test(method="venkatraman", paired=TRUE)``, and
Venkatraman's (2000) test for two curves of independent test sets, as
``roc.test(method="venkatraman", paired=FALSE)`` (docs/method.md#comparisons).

Unlike a test of AUCs, the statistic measures the area between the two curves' error
curves, so it also sees curves that cross with equal areas. The tests are two-sided only.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import check_1d, check_resamples, check_same_length, check_scores, describe
from ..curves import ScoreCurve
from ..curves._counting import check_both_classes, class_mask
from ..results import ConfidenceInterval
from ..uncertainty._draws import check_rng
from ._inputs import paired_scores
from .result import ComparisonResult

__all__ = ["venkatraman_test", "venkatraman_unpaired_test"]


def _ranks(values: np.ndarray) -> np.ndarray:
    """Ranks 1..n along the last axis, ties in order of appearance (R's
    ``rank(ties.method="first")``)."""
    order = np.argsort(values, axis=-1, kind="stable")
    ranks = np.empty(values.shape, dtype=np.int64)
    np.put_along_axis(ranks, order, np.arange(1, values.shape[-1] + 1), axis=-1)
    return ranks


def _paired_stat(r: np.ndarray, s: np.ndarray, is_pos: np.ndarray) -> np.ndarray:
    """E = sum over x = 1..n of |(FN_S(x) + FP_S(x)) - (FN_R(x) + FP_R(x))|, FN(x) the
    positives ranked at or below x, FP(x) the negatives ranked above x; rows of ranks."""
    n = is_pos.size
    n_neg = n - int(is_pos.sum())
    total = []
    for ranks in (r, s):
        at = np.zeros(ranks.shape, dtype=np.int64)  # the class at each rank
        np.put_along_axis(
            at, ranks - 1, np.broadcast_to(is_pos, ranks.shape).astype(np.int64), axis=-1
        )
        fn = np.cumsum(at, axis=-1)
        fp = n_neg - (np.arange(1, n + 1) - fn)
        total.append(fn + fp)
    return np.abs(total[1] - total[0]).sum(axis=-1)


def venkatraman_test(
    y_true: Any,
    y_score: Any,
    *,
    n_resamples: int = 2000,
    pos_label: Any = None,
    rng: Any = None,
) -> ComparisonResult:
    """Venkatraman and Begg's (1996) permutation test that two classifiers scored on the
    same rows have the same ROC curve (two-sided).

    Parameters
    ----------
    y_true : array-like of shape (n,)
    y_score : dict {name: array-like} or list of two arrays
    n_resamples : int, default 2000
        Permutations.
    pos_label : label, optional
    rng : None, int or numpy.random.Generator

    Returns
    -------
    ComparisonResult
        ``statistic`` E (deterministic; it depends on the order of tied rows, ranked in
        order of appearance as pROC does), ``p_value`` the share of permutations with a
        statistic at least E (pROC's estimate, without +1); ``estimate`` the AUC
        difference, for information; no interval.

    Notes
    -----
    Each permutation jitters both ranks by U(-1/2, 1/2), swaps the two classifiers'
    ranks on a random half of the rows, and ranks again, exactly as pROC 1.18.

    References
    ----------
    .. [1] E. S. Venkatraman and C. B. Begg, "A distribution-free procedure for comparing
       receiver operating characteristic curves from a paired experiment",
       Biometrika 83(4), 835-848 (1996).

    Examples
    --------
    >>> r = venkatraman_test([0, 0, 1, 1, 0, 1, 1, 0], {"A": [.1, .4, .8, .7, .3, .9, .6, .5],
    ...                                                 "B": [.2, .5, .6, .4, .1, .7, .3, .6]},
    ...                      n_resamples=500, rng=0)
    >>> r.statistic
    10.0
    """
    n_perm = check_resamples(n_resamples)
    generator = check_rng(rng)
    is_pos, scores = paired_scores(y_true, y_score, pos_label)
    if len(scores) != 2:
        raise ValueError(f"`y_score` must hold exactly 2 classifiers; got {len(scores)}.")
    (na, sa), (nb, sb) = scores.items()
    r, s = _ranks(sa), _ranks(sb)
    e = float(_paired_stat(r, s, is_pos))
    n = is_pos.size
    batch = max(1, min(n_perm, (1 << 20) // n))
    hits = 0
    for start in range(0, n_perm, batch):
        b = min(batch, n_perm - start)
        r2 = r + generator.random((b, n)) - 0.5
        s2 = s + generator.random((b, n)) - 0.5
        q = generator.random((b, n)) < 0.5
        r3 = np.where(q, r2, s)
        s3 = np.where(q, s2, r)
        hits += int(np.sum(_paired_stat(_ranks(r3), _ranks(s3), is_pos) >= e))
    aucs = [ScoreCurve.from_scores(is_pos, v, pos_label=True).auc() for v in (sa, sb)]
    return ComparisonResult(
        estimate=aucs[0] - aucs[1],
        estimate_a=aucs[0],
        estimate_b=aucs[1],
        ci=ConfidenceInterval(float("nan"), float("nan")),
        confidence_level=0.95,
        p_value=hits / n_perm,
        statistic=e,
        statistic_name="E",
        alternative="two-sided",
        quantity="AUC(ROC, trapezoid)",
        method=f"Venkatraman and Begg's permutation test that the two ROC curves are equal, "
        f"{n_perm} permutations (the estimate is the AUC difference, for information)",
        names=(na, nb),
        paired=True,
        counts={"rows": n, "positive": int(is_pos.sum()), "negative": int((~is_pos).sum())},
        n_resamples=n_perm,
    )


# ------------------------------------------------------------------ unpaired
def _approx(x: np.ndarray, y: np.ndarray, at: np.ndarray) -> np.ndarray:
    """R's ``approxfun(x, y)(at)``: linear interpolation through the points sorted by x,
    the y of tied x averaged, NaN outside [min x, max x] (``rule = 1``)."""
    order = np.argsort(x, kind="stable")
    xs, ys = x[order], y[order]
    knots, first, counts = np.unique(xs, return_index=True, return_counts=True)
    if knots.size < xs.size:  # ties: the mean of their y
        ys = np.add.reduceat(ys, first) / counts
    return np.interp(at, knots, ys, left=np.nan, right=np.nan)


def _error_curve(ranks: np.ndarray, is_pos: np.ndarray, mp: float) -> tuple[np.ndarray, ...]:
    """Over x = 1..n: the mixture distribution p(x) = mp F(x) + (1 - mp) G(x) of the
    ranks and the error rate e(x) = mp F(x) + (1 - mp) (1 - G(x)) of the rule "positive
    above rank x", F and G the positives' and negatives' empirical distributions of the
    ranks (pROC's ``R.p`` and ``R.exp``)."""
    at = np.zeros(ranks.size)
    at[ranks - 1] = is_pos
    f = np.cumsum(at) / is_pos.sum()
    g = np.cumsum(1.0 - at) / (~is_pos).sum()
    return mp * f + (1 - mp) * g, mp * f + (1 - mp) * (1 - g)


def _unpaired_stat(
    r: np.ndarray, s: np.ndarray, pos_r: np.ndarray, pos_s: np.ndarray, mp: float
) -> float:
    """E = the integral over the mixture probability of |e_R - e_S|, the two error
    curves interpolated linearly (trapezoids at the sorted union of their knots, where
    both are defined), as pROC's ``venkatraman.unpaired.stat``."""
    rp, re = _error_curve(r, pos_r, mp)
    sp, se = _error_curve(s, pos_s, mp)
    x = np.sort(np.concatenate([rp, sp]))
    y = np.abs(_approx(rp, re, x) - _approx(sp, se, x))
    terms = (y[1:] + y[:-1]) * (x[1:] - x[:-1]) / 2
    return float(np.nansum(terms))


def _one_set(name: str, value: Any, pos_label: Any) -> tuple[np.ndarray, np.ndarray]:
    """One test set's positive mask and scores, checked."""
    if not isinstance(value, tuple | list) or len(value) != 2:
        raise TypeError(
            f"`test_sets[{name!r}]` must be a pair (y_true, y_score); got {describe(value)}."
        )
    t = check_1d(f"test_sets[{name!r}][0]", value[0])
    scores = check_scores(f"test_sets[{name!r}][1]", value[1])
    check_same_length(**{f"test_sets[{name!r}][0]": t, f"test_sets[{name!r}][1]": scores})
    is_pos = class_mask(t, pos_label)
    check_both_classes(is_pos, None)
    return is_pos, scores


def venkatraman_unpaired_test(
    test_sets: Any,
    *,
    n_resamples: int = 2000,
    pos_label: Any = None,
    rng: Any = None,
) -> ComparisonResult:
    """Venkatraman's (2000) permutation test that two independent test sets come from
    classifiers with the same ROC curve (two-sided), as pROC's
    ``roc.test(r1, r2, method="venkatraman", paired=FALSE)``.

    Parameters
    ----------
    test_sets : dict {name: (y_true, y_score)}
        Exactly two test sets.
    n_resamples : int, default 2000
        Permutations.
    pos_label : label, optional
    rng : None, int or numpy.random.Generator

    Returns
    -------
    ComparisonResult
        ``statistic`` E (deterministic; the rows of a set are ranked by score, ties in
        order of appearance, as pROC does), ``p_value`` the share of permutations with
        a statistic at least E (pROC's estimate, without +1); ``estimate`` the AUC
        difference, for information; no interval.

    Notes
    -----
    Each set's scores are replaced by their ranks 1..n. E is the area between the two
    sets' error curves e(x) = mp F(x) + (1 - mp)(1 - G(x)), each a function of the
    mixture p(x) = mp F(x) + (1 - mp) G(x), with F, G the ranks' distribution among the
    positives and the negatives; mp is pROC's mixing proportion (P_1 + P_2) / (2 n_1),
    whose denominator is the first set's size twice (pROC 1.18's
    ``length(D1) + length(D1)``; the pooled prevalence (P_1 + P_2) / (n_1 + n_2) when
    the sets are the same size), kept so that E is pROC's. Each permutation jitters
    the ranks by U(-1/2, 1/2), pools the two sets' negatives and, apart, their
    positives, deals them back at random in the original numbers and ranks again
    (docs/method.md#comparisons).

    References
    ----------
    .. [1] E. S. Venkatraman, "A permutation test to compare receiver operating
       characteristic curves", Biometrics 56(4), 1134-1138 (2000).

    Examples
    --------
    pROC 1.18 on the same sets, ``set.seed(1); roc.test(roc(y_a, s_a), roc(y_b, s_b),
    method="venkatraman", paired=FALSE, boot.n=2000)``: E = 0.0410156, p = 0.958.

    >>> a = ([0, 0, 1, 1, 0, 1, 1, 0], [.1, .4, .8, .35, .3, .9, .6, .5])
    >>> b = ([0, 1, 1, 0, 0, 1], [.2, .5, .6, .55, .1, .7])
    >>> r = venkatraman_unpaired_test({"a": a, "b": b}, n_resamples=2000, rng=0)
    >>> round(r.statistic, 6), r.p_value, r.paired
    (0.041016, 0.957, False)
    """
    n_perm = check_resamples(n_resamples)
    generator = check_rng(rng)
    if not isinstance(test_sets, dict) or len(test_sets) != 2:
        raise TypeError(
            "`test_sets` must be a dict of exactly 2 test sets {name: (y_true, y_score)}; "
            f"got {describe(test_sets)}."
        )
    (na, va), (nb, vb) = test_sets.items()
    pos_a, sa = _one_set(str(na), va, pos_label)
    pos_b, sb = _one_set(str(nb), vb, pos_label)
    n, m = pos_a.size, pos_b.size
    mp = (int(pos_a.sum()) + int(pos_b.sum())) / (n + n)  # pROC's denominator, see Notes
    r, s = _ranks(sa), _ranks(sb)
    e = _unpaired_stat(r, s, pos_a, pos_b, mp)
    neg_idx = [np.flatnonzero(~pos_a), np.flatnonzero(~pos_b)]
    pos_idx = [np.flatnonzero(pos_a), np.flatnonzero(pos_b)]
    batch = max(1, min(n_perm, (1 << 20) // (n + m)))
    hits = 0
    for start in range(0, n_perm, batch):
        b = min(batch, n_perm - start)
        r2 = r + generator.random((b, n)) - 0.5
        s2 = s + generator.random((b, m)) - 0.5
        for idx_a, idx_b in (neg_idx, pos_idx):  # pool one class of both sets, deal it back
            pooled = np.concatenate([r2[:, idx_a], s2[:, idx_b]], axis=1)
            dealt = np.take_along_axis(pooled, generator.random(pooled.shape).argsort(axis=1), 1)
            r2[:, idx_a], s2[:, idx_b] = dealt[:, : idx_a.size], dealt[:, idx_a.size :]
        ra, sb2 = _ranks(r2), _ranks(s2)
        hits += sum(_unpaired_stat(ra[i], sb2[i], pos_a, pos_b, mp) >= e for i in range(b))
    aucs = [
        ScoreCurve.from_scores(p, v, pos_label=True).auc() for p, v in ((pos_a, sa), (pos_b, sb))
    ]
    return ComparisonResult(
        estimate=aucs[0] - aucs[1],
        estimate_a=aucs[0],
        estimate_b=aucs[1],
        ci=ConfidenceInterval(float("nan"), float("nan")),
        confidence_level=0.95,
        p_value=hits / n_perm,
        statistic=e,
        statistic_name="E",
        alternative="two-sided",
        quantity="AUC(ROC, trapezoid)",
        method=f"Venkatraman's permutation test that the ROC curves of two independent test "
        f"sets are equal, {n_perm} permutations (the estimate is the AUC difference, for "
        "information)",
        names=(str(na), str(nb)),
        paired=False,
        counts={
            "rows_a": n,
            "positive_a": int(pos_a.sum()),
            "rows_b": m,
            "positive_b": int(pos_b.sum()),
        },
        n_resamples=n_perm,
    )
