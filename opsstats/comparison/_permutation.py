"""The stratified permutation test of a curve quantity between two independent test sets
standardized to one prevalence: :func:`stratified_permutation_test`
(docs/method.md#classifier-change).

H0: each class's score distribution is the same in both test sets (the prevalences may
differ). Given the pooled scores of each class, every way of handing P_b of the pooled
positives to the before set and P_a to the after set (and likewise the negatives) is then
equally likely, so the permutation distribution of any statistic is its exact null
distribution given the pooled data, whatever the sample sizes.

Engine. The pooled distinct scores are sorted once (decreasing). A permutation is, per
class, how many of the class's pooled rows at each distinct score go to the after set:
Multivariate hypergeometric (the class's pooled counts per score, the after set's class
size drawn without replacement; numpy's ``Generator.multivariate_hypergeometric``), and
rows of one class and one score are exchangeable, so these counts describe the
permutation fully. The after set's cumulative counts are their cumulative sums over the
sorted scores (the before set's, the pooled counts less these), read at the ends of the
cells of the quantity's curve geometry (the cells of the bootstrap, :class:`_Cells`: a
merged cell is exact for every assignment, as it is for every resample). A block of
permutations is one (b, J) array of counts, b chosen so that a block holds about 2**22
counts. Each set's (alpha, beta) curves over the cells go to the shared geometry at the
standardized prevalence, as the bootstrap's do.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .._validation import MAX_RESAMPLES, check_choice, check_size
from ..curves import ScoreCurve
from ..uncertainty.curve._cells import _cell_mode, _Cells, _fill_curves
from ..uncertainty.curve.resampling import _drop_leading_empty, _first_limit_fix

__all__: list[str] = []

#: Counts (one per pooled distinct score, class and permutation) per block.
_BLOCK_COUNTS = 1 << 22
#: numpy's "count" method draws in time and memory proportional to the class's rows;
#: from this many rows on, its "marginals" method (proportional to the distinct scores).
_COUNT_METHOD_ROWS = 10**8
#: Differences within this distance of the observed one (relative to max(1, |D|)) count
#: as reaching it: rounding in the sums must not decide a tie (R's coin package uses
#: the same tolerance, sqrt of the machine epsilon).
TIE_TOLERANCE = float(np.sqrt(np.finfo(float).eps))
#: Bytes per permutation and pooled distinct score held at once: both classes' drawn
#: counts and their cumulative sums (int64), and both sets' alpha and beta (float64).
_BYTES_PER_SCORE = 64


class PermutationTest(NamedTuple):
    """The observed difference (after - before), the p-value, the permutations made
    and those whose difference was undefined (left out), and the defined differences."""

    statistic: float
    p_value: float
    n_permutations: int
    n_undefined: int
    null: np.ndarray


def check_permutable(curve: Any, name: str) -> ScoreCurve:
    """The curve whose rows are permuted (a standardized curve's origin): whole counts
    only, since a permutation hands whole rows from one set to the other."""
    origin = curve._rate_source()
    if not origin.is_integer:
        raise ValueError(
            f"`{name}` must have whole-number counts for the permutation test (it hands "
            f"whole rows between the test sets); got weighted counts in {curve!r}. Use "
            "method='bootstrap' (which needs whole counts too) on unweighted rows, or "
            "weights that are whole numbers (counts)."
        )
    return origin


def _pooled(before: ScoreCurve, after: ScoreCurve, mode: str) -> tuple[np.ndarray, ...]:
    """The pooled distinct scores (decreasing): per score the pooled positives and
    negatives (shape (2, J)), the after set's (2, J), and the index of each cell's last
    score (the cells of the quantity's geometry)."""
    if before.direction.split()[0] != after.direction.split()[0]:
        raise ValueError(
            "the two test sets' curves must rank scores in the same direction; got "
            f"{before.direction!r} (before) and {after.direction!r} (after)."
        )
    thr = np.concatenate([before.thresholds, after.thresholds])
    pos = np.concatenate([np.diff(c.tps, prepend=0) for c in (before, after)])
    neg = np.concatenate([np.diff(c.fps, prepend=0) for c in (before, after)])
    is_after = np.repeat([False, True], [before.thresholds.size, after.thresholds.size])
    distinct, where = np.unique(thr, return_inverse=True)
    order = distinct.size - 1 - where  # decreasing scores: index 0 the highest
    pooled = np.zeros((2, distinct.size), dtype=np.int64)
    np.add.at(pooled[0], order, pos)
    np.add.at(pooled[1], order, neg)
    observed = np.zeros((2, distinct.size), dtype=np.int64)
    np.add.at(observed[0], order[is_after], pos[is_after])
    np.add.at(observed[1], order[is_after], neg[is_after])
    cum = np.cumsum(pooled, axis=1)
    cells = _Cells(ScoreCurve._trusted(distinct[::-1].copy(), cum[0], cum[1]), mode)
    ends = np.searchsorted(cum[0] + cum[1], np.cumsum(cells.pos + cells.neg))
    return pooled, observed, ends


def _drawn_cumulative(
    per_score: np.ndarray, ones: int, b: int, ends: np.ndarray, rng: np.random.Generator
) -> np.ndarray:
    """b permutations of one class: how many of its pooled rows at each score go to the
    after set (``ones`` in all; multivariate hypergeometric), cumulated over the scores
    and read at the cells' ends, shape (b, cells)."""
    if int(per_score.sum()) < _COUNT_METHOD_ROWS:
        drawn = rng.multivariate_hypergeometric(per_score, ones, size=b, method="count")
    else:
        drawn = rng.multivariate_hypergeometric(per_score, ones, size=b, method="marginals")
    np.cumsum(drawn, axis=1, out=drawn)
    return drawn[:, ends]


def _values(quantity: Any, pi: float, tp: np.ndarray, fp: np.ndarray, P: int, N: int) -> np.ndarray:
    """The quantity at prevalence ``pi`` of each curve (row) given by its cumulative
    counts over the pooled cells."""
    b, k = tp.shape
    alpha, beta = np.empty((b, k + 1)), np.empty((b, k + 1))
    _fill_curves(tp, fp, P, N, alpha, beta)
    if _first_limit_fix(quantity):
        alpha, beta = _drop_leading_empty(tp, fp, alpha, beta)
    return np.asarray(quantity(pi, alpha, beta), dtype=float)


def _differences(
    quantity: Any,
    pi: float,
    tp_after: np.ndarray,
    fp_after: np.ndarray,
    pos_cum: np.ndarray,
    neg_cum: np.ndarray,
) -> np.ndarray:
    """D = quantity(after) - quantity(before) for each row of the after set's cumulative
    counts (the before set's are the pooled less these)."""
    P_a, N_a = int(tp_after[0, -1]), int(fp_after[0, -1])
    P_b, N_b = int(pos_cum[-1]) - P_a, int(neg_cum[-1]) - N_a
    with np.errstate(divide="ignore", invalid="ignore"):
        after = _values(quantity, pi, tp_after, fp_after, P_a, N_a)
        before = _values(quantity, pi, pos_cum - tp_after, neg_cum - fp_after, P_b, N_b)
    return after - before


def stratified_permutation_test(
    before: Any,
    after: Any,
    quantity: Any,
    prevalence: float,
    n_permutations: int,
    rng: np.random.Generator,
    alternative: str = "two-sided",
) -> PermutationTest:
    """The stratified permutation test of D = quantity(after at pi) - quantity(before at
    pi) = 0 (docs/method.md#classifier-change).

    Parameters
    ----------
    before, after : ScoreCurve
        The two test sets (standardized ones are read through their origins' rows);
        whole-number counts.
    quantity : curve quantity
        An area, a partial area or a metric at an operating point
        (:func:`opsstats.curves._geometry.resolve_quantity`).
    prevalence : float
        pi, the prevalence both sets are standardized to.
    n_permutations : int
        B, at least 19.
    rng : numpy.random.Generator
    alternative : {"two-sided", "greater", "less"}
        About D. The p-value is (1 + #{permutations at least as extreme}) / (B + 1) with
        "as extreme" |D_b| >= |D| (two-sided), D_b >= D ("greater") or D_b <= D
        ("less"), up to :data:`TIE_TOLERANCE`; permutations whose D_b is undefined are
        left out (B counts the defined ones).

    Returns
    -------
    PermutationTest

    Examples
    --------
    >>> import numpy as np
    >>> from opsstats import ScoreCurve
    >>> from opsstats.curves._geometry import resolve_quantity
    >>> b = ScoreCurve.from_scores([0, 0, 1, 1, 0, 1], [.1, .4, .35, .8, .2, .5])
    >>> a = ScoreCurve.from_scores([0, 1, 0, 1, 0, 0, 0], [.3, .9, .2, .6, .1, .7, .4])
    >>> t = stratified_permutation_test(b, a, resolve_quantity("pr_auc", None, None, {}),
    ...                                 0.5, 199, np.random.default_rng(0))
    >>> t.statistic == a.at_prevalence(0.5).auc("pr") - b.at_prevalence(0.5).auc("pr")
    True
    >>> t.p_value, t.n_permutations  # the same PR AUC at 0.5: every permutation as extreme
    (1.0, 199)
    """
    alternative = check_choice("alternative", alternative, ("two-sided", "greater", "less"))
    b0 = check_permutable(before, "before")
    b1 = check_permutable(after, "after")
    pooled, observed_counts, ends = _pooled(b0, b1, _cell_mode(quantity))
    J = pooled.shape[1]
    block = max(1, _BLOCK_COUNTS // J)
    B = check_size(
        "n_permutations",
        n_permutations,
        minimum=19,
        maximum=MAX_RESAMPLES,
        bytes_each=8.0,
        overhead=_BYTES_PER_SCORE * J * float(min(block, n_permutations)),
        what=" for the permutations of the pooled rows",
    )
    pos_cum, neg_cum = np.cumsum(pooled, axis=1)[:, ends]
    tp_obs, fp_obs = np.cumsum(observed_counts, axis=1)[:, ends]
    observed = float(_differences(quantity, prevalence, tp_obs[None], fp_obs[None], pos_cum,
                                  neg_cum)[0])  # fmt: skip
    ones = int(observed_counts[0].sum()), int(observed_counts[1].sum())
    null = np.empty(B)
    for start in range(0, B, block):
        b = min(block, B - start)
        tp = _drawn_cumulative(pooled[0], ones[0], b, ends, rng)
        fp = _drawn_cumulative(pooled[1], ones[1], b, ends, rng)
        null[start : start + b] = _differences(quantity, prevalence, tp, fp, pos_cum, neg_cum)
    defined = null[np.isfinite(null)]
    tol = TIE_TOLERANCE * max(1.0, abs(observed))
    if not np.isfinite(observed) or defined.size == 0:
        p_value = float("nan")
    elif alternative == "greater":
        p_value = (1 + np.count_nonzero(defined >= observed - tol)) / (defined.size + 1)
    elif alternative == "less":
        p_value = (1 + np.count_nonzero(defined <= observed + tol)) / (defined.size + 1)
    else:
        p_value = (1 + np.count_nonzero(np.abs(defined) >= abs(observed) - tol)) / (
            defined.size + 1
        )
    return PermutationTest(observed, float(p_value), B, int(B - defined.size), defined)
