"""Bootstrap intervals for a threshold and for the coordinates at it, as pROC's
``ci.thresholds`` and ``ci.coords(x="best")`` (docs/method.md#vocabulary).

Stratified resampling of the rows (cases and controls apart, as pROC's default
``boot.stratified=TRUE``), drawn as multinomial counts over the curve's distinct scores:
a resample is fully described by how many rows of each (score, class) cell it draws.
The interval ends and the middle value are R's ``quantile()`` (type 7, numpy's default
"linear") of the resampled values, so they are pROC's numbers up to Monte Carlo error;
the middle value is the median of the resamples, not the estimate.

* :func:`threshold_interval` keeps the thresholds fixed (``ci.thresholds``): the
  sensitivity and specificity of the rule "score >= t" in each resample.
* :func:`best_threshold_interval` selects the best threshold again in every resample
  (``ci.coords(x="best")``): the threshold (pROC's: midway between the resample's own
  neighbouring distinct scores) and the sensitivity and specificity there. Resamples
  with tied optima take one of them at random (``ties="random"``, pROC's
  ``best.policy="random"``) or stop with an error (``"stop"``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import numpy as np

from ..._lazy import lazy_module
from ..._progress import counted
from ..._validation import (
    check_choice,
    check_confidence_level,
    check_real_array,
    check_resamples,
)
from ...curves import _best as best
from .._draws import check_rng
from ._options import _check_whole_counts, sampling_view

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = lazy_module("pandas")

__all__ = ["BEST_TIES", "best_threshold_interval", "threshold_interval"]

#: What ``best_threshold_interval`` does with tied optima in a resample.
BEST_TIES = ("random", "stop")

_BATCH_ELEMENTS = 1 << 20


def _resamples(curve: Any, n: int, rng: np.random.Generator) -> Iterator[tuple[np.ndarray, ...]]:
    """Batches of stratified resamples: per-cell counts of positives and negatives over
    the curve's distinct scores (decreasing), shape (b, J) each."""
    tps, fps = np.asarray(curve.tps, dtype=np.int64), np.asarray(curve.fps, dtype=np.int64)
    pos, neg = np.diff(tps, prepend=0), np.diff(fps, prepend=0)
    P, N = int(tps[-1]), int(fps[-1])
    batch = max(1, min(n, _BATCH_ELEMENTS // pos.size))
    for start in counted(range(0, n, batch), -(-n // batch), "bootstrap, batches"):
        b = min(batch, n - start)
        yield rng.multinomial(P, pos / P, size=b), rng.multinomial(N, neg / N, size=b)


def _quantiles(values: np.ndarray, level: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    tail = (1.0 - level) / 2.0
    q = np.quantile(values, [tail, 0.5, 1.0 - tail], axis=-1)  # R's type 7
    return q[0], q[1], q[2]


def _check(curve: Any, confidence_level: Any, n_resamples: Any) -> tuple[float, int]:
    # the rows of a standardized curve are its origin's (sensitivity and specificity at
    # a threshold do not depend on the prevalence)
    _check_whole_counts(sampling_view(curve), "The bootstrap of a threshold")
    return check_confidence_level(confidence_level), check_resamples(n_resamples)


def _method(n: int, level: float) -> str:
    return (
        f"{n} stratified bootstrap resamples, percentile ({level:.0%}; median of the "
        "resamples in the middle, as pROC)"
    )


def threshold_interval(
    curve: Any,
    thresholds: Any,
    *,
    confidence_level: float = 0.95,
    n_resamples: int = 2000,
    rng: Any = None,
) -> pd.DataFrame:
    """Sensitivity and specificity at fixed thresholds, with bootstrap intervals
    (pROC ``ci.thresholds``).

    Parameters
    ----------
    curve : ScoreCurve
    thresholds : float or array-like
        Predict positive where score >= t (for pROC's ``"best"``, pass
        ``curve.best_threshold()["threshold_midpoint"]``).
    confidence_level : float, default 0.95
    n_resamples : int, default 2000
    rng : None, int or numpy.random.Generator

    Returns
    -------
    pandas.DataFrame
        One row per threshold: ``threshold``, and for ``sensitivity`` and
        ``specificity`` the estimate and ``_low``, ``_median``, ``_high``;
        ``attrs["method"]`` says how it was made.

    Examples
    --------
    >>> from opsstats import ScoreCurve
    >>> rng = np.random.default_rng(0)
    >>> y = np.repeat([0, 1], 50)
    >>> curve = ScoreCurve.from_scores(y, rng.normal(y, 1))
    >>> t = threshold_interval(curve, [0.5], rng=1)
    >>> t[["threshold", "sensitivity", "sensitivity_low", "sensitivity_high"]].round(2)
       threshold  sensitivity  sensitivity_low  sensitivity_high
    0        0.5         0.66             0.52              0.78
    """
    curve = sampling_view(curve)
    level, n = _check(curve, confidence_level, n_resamples)
    t = np.atleast_1d(check_real_array("thresholds", thresholds)).ravel()
    if t.size == 0:
        raise ValueError("`thresholds` must hold at least one threshold; got none.")
    if np.isnan(t).any():
        raise ValueError("`thresholds` must not hold NaN; got NaN.")
    generator = check_rng(rng)
    scores = np.asarray(curve.thresholds, dtype=float)
    k = np.searchsorted(-scores, -t, side="right")  # distinct scores >= t
    P, N = curve.n_positive, curve.n_negative
    tp0 = np.concatenate(([0], np.asarray(curve.tps)))[k]
    fp0 = np.concatenate(([0], np.asarray(curve.fps)))[k]
    se, sp = np.empty((t.size, n)), np.empty((t.size, n))
    done = 0
    for pos, neg in _resamples(curve, n, generator):
        ctp = np.concatenate((np.zeros((pos.shape[0], 1), np.int64), np.cumsum(pos, 1)), 1)
        cfp = np.concatenate((np.zeros((neg.shape[0], 1), np.int64), np.cumsum(neg, 1)), 1)
        b = pos.shape[0]
        se[:, done : done + b] = (ctp[:, k] / P).T
        sp[:, done : done + b] = ((N - cfp[:, k]) / N).T
        done += b
    out = {"threshold": t, "sensitivity": tp0 / P}
    for name, values in (("sensitivity", se), ("specificity", sp)):
        if name == "specificity":
            out["specificity"] = (N - fp0) / N
        low, med, high = _quantiles(values, level)
        out |= {f"{name}_low": low, f"{name}_median": med, f"{name}_high": high}
    frame = pd.DataFrame(out)
    frame.attrs["method"] = _method(n, level)
    return frame


def best_threshold_interval(
    curve: Any,
    method: str = "youden",
    weights: Any = (1.0, 0.5),
    *,
    ties: str = "random",
    confidence_level: float = 0.95,
    n_resamples: int = 2000,
    rng: Any = None,
) -> pd.DataFrame:
    """The best threshold and the sensitivity and specificity there, each with a
    bootstrap interval, the best threshold chosen again in every resample (pROC
    ``ci.coords(x="best", best.method=, best.weights=, best.policy=)``).

    Parameters
    ----------
    curve : ScoreCurve
    method, weights
        As :meth:`ScoreCurve.best_threshold`.
    ties : {"random", "stop"}, default "random"
        A resample with several optima: take one at random, or raise ``ValueError``
        (pROC's ``best.policy``; its ``"omit"`` fails in pROC 1.18 and is not offered).
    confidence_level, n_resamples, rng
        As :func:`threshold_interval`.

    Returns
    -------
    pandas.DataFrame
        Rows ``threshold`` (pROC's midpoint threshold), ``sensitivity``,
        ``specificity``; columns ``estimate`` (on the curve; NaN for a tied threshold
        or coordinate, with the number of tied optima in ``attrs["n_optima"]``),
        ``low``, ``median``, ``high``; ``attrs["method"]``, ``attrs["n_tied_resamples"]``.

    Examples
    --------
    >>> from opsstats import ScoreCurve
    >>> rng = np.random.default_rng(0)
    >>> y = np.repeat([0, 1], 50)
    >>> curve = ScoreCurve.from_scores(y, np.round(rng.normal(y, 1), 2))
    >>> r = best_threshold_interval(curve, rng=1)
    >>> list(r.index), list(r.columns)
    (['threshold', 'sensitivity', 'specificity'], ['estimate', 'low', 'median', 'high'])
    """
    method, r = best.check_best(method, weights)
    ties = check_choice("ties", ties, BEST_TIES)
    curve = sampling_view(curve)
    level, n = _check(curve, confidence_level, n_resamples)
    generator = check_rng(rng)
    scores = np.asarray(curve.thresholds, dtype=float)
    J = scores.size
    P, N = curve.n_positive, curve.n_negative
    thr_out, se_out, sp_out = np.empty(n), np.empty(n), np.empty(n)
    n_tied, done = 0, 0
    idx = np.arange(J + 1)
    for pos, neg in _resamples(curve, n, generator):
        b = pos.shape[0]
        zeros = np.zeros((b, 1), np.int64)
        ctp = np.concatenate((zeros, np.cumsum(pos, 1)), 1)
        cfp = np.concatenate((zeros, np.cumsum(neg, 1)), 1)
        se, sp = ctp / P, (N - cfp) / N
        # the resample's own curve: the origin and one point per score it drew
        present = np.concatenate((np.ones((b, 1), bool), (pos + neg) > 0), 1)
        is_opt = best.optimal(method, r, se, sp, valid=present)
        counts = is_opt.sum(axis=1)
        tied = counts > 1
        n_tied += int(tied.sum())
        if ties == "stop" and tied.any():
            raise ValueError(
                f"`ties='stop'`: a bootstrap resample has {int(counts.max())} tied best "
                "thresholds (pROC's best.policy='stop' aborts there too); use "
                "ties='random'."
            )
        keys = np.where(is_opt, generator.random((b, J + 1)), -1.0)
        pick = np.argmax(keys, axis=1)
        rows = np.arange(b)
        # pROC's threshold: midway between the chosen score and the next lower score
        # the resample drew (-inf when none; +inf at the origin)
        nxt = np.where(present, idx, J + 1)
        nxt = np.minimum.accumulate(nxt[:, ::-1], axis=1)[:, ::-1]  # next present >= i
        nxt = np.concatenate((nxt[:, 1:], np.full((b, 1), J + 1)), 1)[rows, pick]
        padded = np.concatenate(([np.inf], scores, [-np.inf]))
        here = padded[pick]
        lower = np.where(nxt <= J, padded[np.minimum(nxt, J)], -np.inf)
        with np.errstate(invalid="ignore"):
            thr = np.where(
                pick == 0, np.inf, np.where(np.isinf(lower), -np.inf, (here + lower) / 2)
            )
        thr_out[done : done + b] = thr
        se_out[done : done + b] = se[rows, pick]
        sp_out[done : done + b] = sp[rows, pick]
        done += b
    found = curve.best_threshold(method, weights)
    est = [
        float(found[c].iloc[0]) if len(found) == 1 else np.nan
        for c in ("threshold_midpoint", "sensitivity", "specificity")
    ]
    table = {}
    for name, values, e in zip(
        ("threshold", "sensitivity", "specificity"), (thr_out, se_out, sp_out), est, strict=True
    ):
        low, med, high = _quantiles(values, level)
        table[name] = {"estimate": e, "low": float(low), "median": float(med), "high": float(high)}
    frame = pd.DataFrame(table).T[["estimate", "low", "median", "high"]]
    frame.attrs["method"] = _method(n, level) + f"; best threshold ({method}) re-selected in each"
    frame.attrs["n_optima"] = len(found)
    frame.attrs["n_tied_resamples"] = n_tied
    return frame
