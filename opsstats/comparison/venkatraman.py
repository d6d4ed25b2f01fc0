"""Venkatraman and Begg's (1996) permutation test that two paired ROC curves are equal
everywhere, as R pROC's ``roc.test(method="venkatraman", paired=TRUE)``
(docs/method.md#comparisons). (pROC's unpaired form is not offered.)

Unlike a test of AUCs, the statistic measures the area between the two curves' error
curves, so it also sees curves that cross with equal areas. The tests are two-sided only.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._validation import check_resamples
from ..curves import ScoreCurve
from ..results import ConfidenceInterval
from ..uncertainty._draws import check_rng
from ._inputs import paired_scores
from .result import ComparisonResult

__all__ = ["venkatraman_test"]


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
