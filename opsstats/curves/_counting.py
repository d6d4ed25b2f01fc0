"""From raw data to the counts of a :class:`~opsstats.curves.score_curve.ScoreCurve`.

Pure array functions: the rows ``(y_true, y_score, sample_weight)`` or aggregated
per-score counts go in; the distinct scores in decreasing order (the thresholds; tied
scores form one threshold, Fawcett 2006, Algorithm 1) and the cumulative numbers of
positives and negatives scoring at or above each come out, checked, with counts stored
as ``int64`` when they are whole numbers. The class mask and ``pos_label``, the
O(n log n) sort into tie blocks with and without weights, the exact integer counts and
the checks of given counts live here; the curve object only stores what they return.
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np

from .._labels import infer_pos_label, positive_mask
from .._validation import (
    MAX_COUNT,
    check_1d,
    check_same_length,
    check_sample_weight,
    check_scores,
    describe,
)
from ._direction import orient

__all__ = [
    "EXACT_INT",
    "score_counts",
    "aggregated_counts",
    "check_cumulative",
    "cumulate",
    "class_mask",
    "check_both_classes",
    "unweighted_counts",
    "weighted_blocks",
    "class_sorted",
    "merge_sorted",
    "as_counts",
    "check_counts",
    "check_total",
    "scalar",
]

# Counts are stored as int64 when they are whole numbers. Float sums of whole numbers
# are exact below 2**53, so converting them then loses nothing. Integer counts are
# exact up to 2**63 - 1 (MAX_COUNT); a total above it is refused. Integer scores keep
# their integer dtype (docs/method.md#inputs-and-limits).
EXACT_INT = 2.0**53


# ------------------------------------------------------------------ the constructors
def score_counts(
    y_true: Any,
    y_score: Any,
    *,
    pos_label: Any = None,
    sample_weight: Any = None,
    direction: str = "<",
) -> tuple[np.ndarray, np.ndarray, np.ndarray, str]:
    """Thresholds and cumulative TP and FP counts of raw rows (``ScoreCurve.from_scores``),
    and the direction used (:func:`opsstats.curves._direction.orient`: for ``">"`` the
    counts are those of the negated scores).

    Rows of weight 0 are dropped. Without weights the counts come from
    :func:`unweighted_counts`, already cumulated; with weights from the per-block sums
    of :func:`weighted_blocks`, cumulated by :func:`cumulate`.
    """
    t = check_1d("y_true", y_true)
    s = check_scores("y_score", y_score)
    n = check_same_length(y_true=t, y_score=s)
    w = check_sample_weight(sample_weight, n)
    is_pos = class_mask(t, pos_label)
    check_both_classes(is_pos, None)
    if w is not None:
        keep = w != 0
        if not keep.all():
            s, is_pos, w = s[keep], is_pos[keep], w[keep]
            check_both_classes(is_pos, w)

    s, chosen = orient(s, is_pos, direction)
    if w is None:
        return (*unweighted_counts(s, is_pos), chosen)
    return (*cumulate(*weighted_blocks(s, is_pos, w)), chosen)


def aggregated_counts(
    thresholds: Any, positives: Any, negatives: Any
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Thresholds and cumulative TP and FP counts of per-score counts in any order
    (``ScoreCurve.from_counts``): checked, rows without data dropped, repeated scores
    merged."""
    thr = check_scores("thresholds", thresholds)
    pos = check_counts("positives", positives)
    neg = check_counts("negatives", negatives)
    check_same_length(thresholds=thr, positives=pos, negatives=neg)
    check_total(pos, neg, ("positives", "negatives"))
    for name, c in (("positives", pos), ("negatives", neg)):
        if not c.sum() > 0:
            raise ValueError(
                f"`{name}` must have a positive total: a curve needs both "
                f"classes; got a total of {scalar(c.sum())!r}."
            )
    keep = (pos > 0) | (neg > 0)
    if not keep.all():
        thr, pos, neg = thr[keep], pos[keep], neg[keep]
    order = np.argsort(thr, kind="stable")[::-1]
    thr = thr[order]
    starts = np.flatnonzero(np.concatenate(([True], thr[1:] != thr[:-1])))
    return cumulate(
        thr[starts], np.add.reduceat(pos[order], starts), np.add.reduceat(neg[order], starts)
    )


def check_cumulative(
    thresholds: Any, tps: Any, fps: Any
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Checked arrays of given cumulative counts (``ScoreCurve(thresholds, tps, fps)``):
    thresholds as float64, the counts through :func:`as_counts` (both float64 when only
    one is whole). Possibly the caller's arrays: copy before storing."""
    thr = check_scores("thresholds", thresholds)
    tp = as_counts(check_1d("tps", tps, numeric=True), "tps")
    fp = as_counts(check_1d("fps", fps, numeric=True), "fps")
    check_same_length(thresholds=thr, tps=tp, fps=fp)
    if thr.size > 1 and not np.all(thr[1:] < thr[:-1]):
        i = int(np.flatnonzero(thr[1:] >= thr[:-1])[0])
        raise ValueError(
            f"`thresholds` must be strictly decreasing (distinct scores, "
            f"highest first); got {float(thr[i])!r} then "
            f"{float(thr[i + 1])!r} at positions {i} and {i + 1}."
        )
    for name, c in (("tps", tp), ("fps", fp)):
        if c[0] < 0 or (c.size > 1 and np.any(c[1:] < c[:-1])):
            raise ValueError(
                f"`{name}` must be non-negative and non-decreasing "
                "(cumulative counts at decreasing thresholds)."
            )
    check_total(tp[-1:], fp[-1:], ("tps", "fps"))
    total = tp + fp
    if total[0] <= 0 or (total.size > 1 and np.any(total[1:] <= total[:-1])):
        raise ValueError(
            "`tps + fps` must be strictly increasing from a positive first "
            "value: every threshold must hold some data."
        )
    if tp[-1] <= 0 or fp[-1] <= 0:
        which, last = ("tps", tp[-1]) if tp[-1] <= 0 else ("fps", fp[-1])
        raise ValueError(
            f"`{which}` must end with a positive total: a curve needs both "
            f"classes; got {which}[-1] = {last.item()!r}."
        )
    if tp.dtype != fp.dtype:
        tp, fp = tp.astype(np.float64), fp.astype(np.float64)
    return thr, tp, fp


def cumulate(
    thresholds: np.ndarray, pos: np.ndarray, neg: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The curve's arrays from per-threshold counts (thresholds strictly decreasing, each
    with a positive total), cumulated here: the path shared by :func:`aggregated_counts`
    and weighted :func:`score_counts`. (Unweighted :func:`score_counts` cumulates the
    integer counts in :func:`unweighted_counts`; integer sums are exact, so the results
    are identical.)"""
    tp = as_counts(np.cumsum(pos))
    fp = as_counts(np.cumsum(neg))
    if tp.dtype != fp.dtype:
        tp, fp = tp.astype(np.float64), fp.astype(np.float64)
    return np.ascontiguousarray(thresholds), tp, fp


# ----------------------------------------------------------------------- the classes
def class_mask(y_true: np.ndarray, pos_label: Any) -> np.ndarray:
    """Boolean mask of the positive class.

    Same labels rule and messages as :func:`opsstats._labels.positive_mask` (it calls
    the same :func:`~opsstats._labels.infer_pos_label`), but for numeric and boolean
    labels the label set is found from the minimum and maximum in four linear passes
    instead of ``np.unique``, which sorts: at n = 1e7 that sort alone costs as much as
    building the whole curve.
    """
    arr = y_true
    if arr.dtype.kind in "biuf":
        lo, hi = arr.min(), arr.max()
        is_hi = arr == hi
        n_hi = int(np.count_nonzero(is_hi))
        labels = None
        if n_hi == arr.size:
            labels = [hi.item()]
        elif n_hi + int(np.count_nonzero(arr == lo)) == arr.size:
            labels = [lo.item(), hi.item()]
        if labels is not None:
            pos = infer_pos_label(labels, pos_label, "`y_true`")
            if pos == labels[-1]:
                return is_hi
            if len(labels) == 2 and pos == labels[0]:
                return ~is_hi
            return arr == pos
    return positive_mask(arr, name="y_true", pos_label=pos_label)[0]


def check_both_classes(is_pos: np.ndarray, w: np.ndarray | None) -> None:
    n_pos = int(np.count_nonzero(is_pos))
    if 0 < n_pos < is_pos.size:
        return
    if w is not None:
        if not is_pos.size:
            raise ValueError("`sample_weight` must not be all zero.")
        raise ValueError(
            "`sample_weight` must give both classes a positive total weight; "
            f"got only {'positive' if n_pos else 'negative'} rows with "
            "non-zero weight."
        )
    which = "positive" if n_pos else "negative"
    raise ValueError(
        f"`y_true` must contain both classes; got only the {which} class ({is_pos.size} rows)."
    )


# -------------------------------------------------------------- sorting into blocks
def unweighted_counts(
    s: np.ndarray, is_pos: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct scores (decreasing) and cumulative TP and FP counts, without weights.

    All scores are sorted once (``np.sort``: no index array, the fastest sort numpy
    has) and so are the scores of the smaller class. Each row of the smaller class is
    then located in the sorted scores by ``searchsorted(side="left")``, i.e. at the
    first position of its tie block, and counted there (``bincount``). A cumulative sum
    in decreasing order gives, at the last row of each tie block, the number of
    smaller-class rows scoring at or above that block's score; the larger class fills
    the other rows. Integer arithmetic throughout: exact.
    """
    m = s.size
    n_pos = int(np.count_nonzero(is_pos))
    pos_small = n_pos <= m - n_pos
    small = s[is_pos] if pos_small else s[~is_pos]
    small.sort()
    asc = np.sort(s)
    at = np.searchsorted(asc, small, side="left")
    del small
    small_ge = np.bincount(at, minlength=m)
    del at
    np.cumsum(small_ge[::-1], out=small_ge[::-1])  # in place: no second array
    small_ge = small_ge[::-1]
    desc = asc[::-1]  # a view: no copy
    new_block = desc[1:] != desc[:-1]
    if np.count_nonzero(new_block) == m - 1:  # all distinct: no gathers
        thresholds = desc
        large_ge = np.arange(1, m + 1, dtype=np.int64)
    else:
        last = np.append(np.flatnonzero(new_block), m - 1)  # last row of each block
        thresholds = desc[last]
        small_ge = small_ge[last]
        large_ge = last + 1
    large_ge -= small_ge
    return (thresholds, small_ge, large_ge) if pos_small else (thresholds, large_ge, small_ge)


def weighted_blocks(
    s: np.ndarray, is_pos: np.ndarray, w: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct scores (decreasing) and the weight of positives and negatives at each.

    Float scores: one sort of the complex numbers s + i w (positives) and s - i w
    (negatives). numpy orders complex numbers by real part, then imaginary, so the
    weights travel with their scores and the class with the sign bit of the weight
    (``signbit`` tells -0.0 from 0.0): about twice as fast as an ``argsort`` of each
    class with gathers and a merge at 1e7 rows. Integer scores, which float64 may not
    hold exactly, take that older path (:func:`class_sorted`). The weights of each tie
    block are then summed per class (``np.add.reduceat``), in the sorted order (any
    order is as good inside a block); :func:`cumulate` cumulates them.
    """
    if s.dtype.kind == "f" and s.dtype.itemsize <= 8:
        z = np.empty(s.size, dtype=np.complex128)
        z.real = s
        z.imag = np.where(is_pos, w, -w)
        z.sort()
        desc_z = z[::-1]  # decreasing scores, a view
        del z
        desc = desc_z.real.astype(s.dtype)
        positive = ~np.signbit(desc_z.imag)
        weight = np.abs(desc_z.imag)
        del desc_z
    else:
        desc, positive, weight = class_sorted(s, is_pos, w)
    w_pos = np.where(positive, weight, 0.0)
    w_neg = np.where(positive, 0.0, weight)
    del positive, weight
    m = desc.size
    new_block = desc[1:] != desc[:-1]
    if np.count_nonzero(new_block) == m - 1:
        return desc, w_pos, w_neg
    last = np.append(np.flatnonzero(new_block), m - 1)
    starts = np.concatenate(([0], last[:-1] + 1))
    return desc[last], np.add.reduceat(w_pos, starts), np.add.reduceat(w_neg, starts)


def class_sorted(
    s: np.ndarray, is_pos: np.ndarray, w: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Scores in decreasing order with their class mask and weights: each class
    ``argsort``-ed so that its weights travel with its scores, the two merged in O(n)
    (:func:`merge_sorted`)."""
    spos, sneg, wpos, wneg = s[is_pos], s[~is_pos], w[is_pos], w[~is_pos]
    o = np.argsort(spos)
    spos, wpos = spos[o], wpos[o]
    o = np.argsort(sneg)
    sneg, wneg = sneg[o], wneg[o]
    merged, from_pos, mw = merge_sorted(spos, sneg, wpos, wneg)
    return merged[::-1].copy(), from_pos[::-1], cast(np.ndarray, mw)[::-1]


def merge_sorted(
    small: np.ndarray,
    large: np.ndarray,
    w_small: np.ndarray | None = None,
    w_large: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Merge two ascending arrays in O(n): the merged values, a mask of the entries
    that came from ``small`` and the merged weights.

    The k-th entry of ``small`` lands at position k + #{large < small[k]} (one
    ``searchsorted`` of the smaller array into the larger); the entries of ``large``
    fill the other positions in order. Ties between the two arrays end up adjacent,
    which is all the curve needs (a tie block is one threshold).
    """
    n = small.size + large.size
    at = np.searchsorted(large, small, side="left")
    at += np.arange(small.size)
    from_small = np.zeros(n, dtype=bool)
    from_small[at] = True
    merged = np.empty(n, dtype=np.result_type(small, large))
    merged[at] = small
    from_large = ~from_small
    merged[from_large] = large
    weights = None
    if w_small is not None:
        weights = np.empty(n, dtype=np.float64)
        weights[at] = w_small
        weights[from_large] = w_large
    return merged, from_small, weights


# ------------------------------------------------------------------------ the counts
def as_counts(x: np.ndarray, name: str = "counts") -> np.ndarray:
    """int64 when every count is a whole number (exactly representable), else float64.

    Unsigned counts above 2**63 - 1 are refused (they would wrap negative in int64)."""
    if x.dtype.kind == "u" and x.size and int(x.max()) > MAX_COUNT:
        i = int(np.argmax(x > MAX_COUNT))
        raise ValueError(
            f"`{name}` must hold counts at most 2**63 - 1 ({MAX_COUNT:,}); got "
            f"{describe(x[i].item())} at position {i}."
        )
    if x.dtype.kind in "iub":
        return x.astype(np.int64, copy=False)
    x = x.astype(np.float64, copy=False)
    if x.size and not np.all(np.mod(x[-64:], 1.0) == 0):  # the usual weighted sums: at once
        return x
    if x.size and np.all(np.mod(x, 1.0) == 0) and np.abs(x).max() < EXACT_INT:
        return x.astype(np.int64)
    return x


def check_counts(name: str, values: Any) -> np.ndarray:
    """Non-negative counts (or weight totals) per row: whole numbers as int64 (exact),
    others as float64."""
    arr = check_1d(name, values, numeric=True)
    if (arr < 0).any():
        i = int(np.flatnonzero(arr < 0)[0])
        raise ValueError(
            f"`{name}` must be non-negative counts; got {arr[i].item()!r} at position {i}."
        )
    return as_counts(arr, name) if arr.dtype.kind in "iu" else arr


def check_total(pos: np.ndarray, neg: np.ndarray, names: tuple[str, str]) -> None:
    """The counts of both classes must add up to a number the curve can hold: at most
    2**63 - 1 for whole-number counts (int64 sums would wrap), finite for floats."""
    with np.errstate(over="ignore"):
        approx = float(np.sum(pos, dtype=np.float64)) + float(np.sum(neg, dtype=np.float64))
    if not np.isfinite(approx):
        raise ValueError(
            f"`{names[0]}` and `{names[1]}` must have a finite total; got counts that add "
            "up to more than a float can hold: scale them down."
        )
    if pos.dtype.kind in "iu" and neg.dtype.kind in "iu" and approx > 2.0**62:
        exact = sum(int(v) for v in pos.tolist()) + sum(int(v) for v in neg.tolist())
        if exact > MAX_COUNT:
            raise ValueError(
                f"`{names[0]}` and `{names[1]}` must add up to at most 2**63 - 1 "
                f"({MAX_COUNT:,}), the largest exact count; got a total of "
                f"{describe(exact)}."
            )


def scalar(x: Any) -> int | float:
    """A count as a Python int (from a numpy integer) or float."""
    return int(x) if isinstance(x, np.integer) else float(x)
