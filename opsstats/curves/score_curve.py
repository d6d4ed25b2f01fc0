"""The empirical curves of a scoring classifier: :class:`ScoreCurve`.

A :class:`ScoreCurve` holds, for every distinct score (threshold) in decreasing order,
the cumulative (weighted) numbers of positives and negatives scoring at or above it
(Fawcett 2006, Algorithm 1: tied scores form one threshold). Every confusion matrix
along the curve, the ROC, precision-recall, lift and gain curves, their areas and their
values at fixed operating points follow from these counts through the shared geometry
of :mod:`opsstats.curves._geometry` (docs/method.md#auc-rules and
docs/method.md#empirical-curves), the same code that evaluates the reference curves
an observed curve is compared with.

The counts are made from raw data, or checked when given, by
``opsstats.curves._counting``; the counts at a threshold or for the top K rows are read
off them by ``opsstats.curves._operating_points``. This module holds the class.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pandas as pd

from .._seam import upcall
from .._summary import Summary
from .._validation import check_1d, check_choice, check_threshold, describe
from ..confusion import ConfusionMatrix
from ..metrics._zero_division import check_zero_division, undefined
from . import _best as best
from . import _geometry as geo
from . import _operating_points as op
from . import _points as points
from . import score_distribution as sd
from ._counting import aggregated_counts, check_cumulative, class_mask, scalar, score_counts
from ._operating_points import TOP_K_TIES
from ._partial import parse_partial
from .smooth import BinormalSmooth, binormal_smooth

__all__ = ["ScoreCurve", "TOP_K_TIES"]

#: Column names (x, y) of each curve's DataFrame.
_COLUMNS = {
    "roc": ("fpr", "tpr"),
    "pr": ("recall", "precision"),
    "lift": ("rate", "lift"),
    "gain": ("rate", "gain"),
}


# --------------------------------------------------------------------------- helpers
def _check_flag(name: str, value: Any) -> bool:
    if not isinstance(value, bool | np.bool_):
        raise TypeError(f"`{name}` must be True or False; got {describe(value)}.")
    return bool(value)


def _fmt_count(x: int | float) -> str:
    return str(x) if isinstance(x, int) else f"{x:g}"


class ScoreCurve:
    """The empirical ROC, precision-recall, lift and gain curves of a scoring classifier.

    Build it from raw data with :meth:`from_scores` or from aggregated counts with
    :meth:`from_counts`; the constructor takes counts that are already cumulated.

    Parameters
    ----------
    thresholds : array-like of shape (J,)
        The distinct scores, strictly decreasing.
    tps, fps : array-like of shape (J,)
        Cumulative (weighted) numbers of positives and negatives scoring at or above
        each threshold: non-decreasing, non-negative, with ``tps + fps`` strictly
        increasing (every threshold holds some data) and both totals ``tps[-1]``,
        ``fps[-1]`` positive (both classes present).

    Notes
    -----
    The curve is stored as one row per distinct score: ``tps[k]`` and ``fps[k]`` are
    the true and false positives of the rule "predict positive where score >=
    thresholds[k]". With P = ``n_positive`` and N = ``n_negative`` its error rates are
    alpha = FP / N and beta = FN / P (Zhao et al., eq. 2), and every curve is drawn in
    the (prevalence, alpha, beta) parametrization by the shared functions of
    :mod:`opsstats.curves._geometry`.

    :attr:`alpha` and :attr:`beta` have J + 1 entries and include both endpoints
    (docs/method.md#empirical-curves): entry 0 is (alpha, beta) = (0, 1), the
    threshold +inf above every score (nothing predicted positive); entry k >= 1 belongs to
    ``thresholds[k - 1]``; the last entry, at the lowest score, where every row is
    predicted positive, is exactly (1, 0). The DataFrames of :meth:`roc`, :meth:`pr`,
    :meth:`lift` and :meth:`gain` have the same J + 1 rows, the first with threshold
    ``inf`` (as in scikit-learn's ``roc_curve``).

    Counts are stored as ``int64`` when they are whole numbers (always without
    ``sample_weight``) and as ``float64`` otherwise; integer scores keep an integer
    dtype, so that scores above 2**53 are sorted and tied exactly
    (docs/method.md#inputs-and-limits). The object is immutable; its arrays, and every
    array it hands out, are read-only.

    References
    ----------
    .. [1] T. Fawcett, "An introduction to ROC analysis", Pattern Recognition Letters
       27(8), 861-874 (2006). https://doi.org/10.1016/j.patrec.2005.10.010
    .. [2] Zhao, Bui, Yu and Dzieciolowski, "Outperformance score: a universal
       standardization method for confusion-matrix-based classification performance
       metrics" (see docs/method.md).

    Examples
    --------
    >>> from opsstats.curves import ScoreCurve
    >>> curve = ScoreCurve.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> curve
    ScoreCurve(n=4, n_positive=2, n_negative=2, thresholds=4, roc_auc=0.75)
    >>> curve.thresholds
    array([0.8 , 0.4 , 0.35, 0.1 ])
    >>> curve.tps, curve.fps
    (array([1, 1, 2, 2]), array([0, 1, 1, 2]))
    >>> curve.alpha, curve.beta
    (array([0. , 0. , 0.5, 0.5, 1. ]), array([1. , 0.5, 0.5, 0. , 0. ]))
    >>> round(curve.auc("pr"), 4)           # average precision (step rule)
    0.8333
    """

    __slots__ = ("_cache", "_direction", "_fps", "_thresholds", "_tps")
    _direction: str
    _thresholds: np.ndarray
    _tps: np.ndarray
    _fps: np.ndarray
    _cache: dict[str, Any]

    def __init__(self, thresholds: Any, tps: Any, fps: Any) -> None:
        thr, tp, fp = check_cumulative(thresholds, tps, fps)
        # Own copies: the caller's arrays must stay writeable and unaliased.
        self._set(thr.copy(), tp.copy(), fp.copy())

    def _set(self, thr: np.ndarray, tp: np.ndarray, fp: np.ndarray, direction: str = "<") -> None:
        for name, arr in (("_thresholds", thr), ("_tps", tp), ("_fps", fp)):
            arr.flags.writeable = False
            object.__setattr__(self, name, arr)
        object.__setattr__(self, "_direction", direction)
        object.__setattr__(self, "_cache", {})  # alpha and beta, made on first use

    @classmethod
    def _trusted(
        cls, thresholds: np.ndarray, tps: np.ndarray, fps: np.ndarray, direction: str = "<"
    ) -> ScoreCurve:
        """A curve from arrays that are already valid and owned (no checks, no copies)."""
        self = object.__new__(cls)
        self._set(thresholds, tps, fps, direction)
        return self

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("ScoreCurve is immutable.")

    def __reduce__(self) -> tuple[Any, ...]:
        if self._direction != "<":
            return (type(self)._trusted, (*self._arrays(), self._direction))
        return (type(self), (self._thresholds, self._tps, self._fps))

    def _arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return self._thresholds.copy(), self._tps.copy(), self._fps.copy()

    # ----------------------------------------------------------------- builders
    @classmethod
    def from_scores(
        cls,
        y_true: Any,
        y_score: Any,
        *,
        pos_label: Any = None,
        sample_weight: Any = None,
        direction: str = "<",
    ) -> ScoreCurve:
        """The curve of scores ``y_score`` for binary labels ``y_true``.

        Parameters
        ----------
        y_true : array-like of shape (n,)
            Binary labels (numpy array, list or pandas Series); both classes present.
        y_score : array-like of shape (n,)
            Finite scores; higher means more likely positive.
        pos_label : label, optional
            The positive class. Defaults to 1 for {0, 1} and {-1, 1} labels and True for
            booleans; required otherwise.
        sample_weight : array-like of shape (n,), optional
            Non-negative weights. Rows of weight 0 are dropped (they change no count and
            add no threshold, as in scikit-learn).
        direction : {"<", ">", "auto"}, default "<"
            ``"<"``: higher scores mean the positive class. ``">"``: lower scores do; the
            curve is that of ``-y_score`` (its :attr:`thresholds` are the negated
            scores). ``"auto"``: as pROC, ``">"`` when the negatives' median score is
            above the positives', else ``"<"``; the choice is announced in a
            ``UserWarning`` and kept in :attr:`direction` and the repr. Choosing it
            from the data being evaluated biases the AUC upwards.

        Returns
        -------
        ScoreCurve

        Raises
        ------
        ValueError
            If ``y_true`` holds more than two labels or only one class (or one class has
            zero total weight), ``y_score`` holds NaN or infinite values, the lengths
            differ, or a weight is negative.

        Notes
        -----
        O(n log n) sorting, then linear passes (Fawcett 2006, Algorithm 1, without a
        Python loop). Without weights the scores are sorted with ``np.sort`` (all rows,
        and the smaller class apart) and the smaller class's rows are counted at their
        places in the sorted scores with one ``searchsorted``: no index array is sorted,
        which makes it about twice as fast as numpy's ``argsort`` alone. With weights
        each class is ``argsort``-ed so that its weights travel with it, and the two
        are merged in O(n). Tied scores form one threshold whatever their classes.

        Examples
        --------
        >>> curve = ScoreCurve.from_scores(["spam", "ham", "spam", "ham", "ham"],
        ...                                [0.9, 0.2, 0.6, 0.6, 0.1], pos_label="spam")
        >>> curve.thresholds, curve.tps, curve.fps
        (array([0.9, 0.6, 0.2, 0.1]), array([1, 2, 2, 2]), array([0, 1, 2, 3]))
        >>> round(curve.auc(), 6)               # the tie at 0.6 counts one half: 5.5 / 6
        0.916667
        >>> ScoreCurve.from_scores([1, 0, 1], [0.3, 0.2, 0.9],
        ...                        sample_weight=[2.0, 0.5, 1.0]).tps
        array([1., 3., 3.])
        """
        *arrays, chosen = score_counts(
            y_true, y_score, pos_label=pos_label, sample_weight=sample_weight, direction=direction
        )
        thr, tps, fps = arrays
        return cls._trusted(thr, tps, fps, chosen + (" (auto)" if direction == "auto" else ""))

    @classmethod
    def from_counts(cls, thresholds: Any, positives: Any, negatives: Any) -> ScoreCurve:
        """The curve from aggregated data: the numbers of positives and negatives at
        each score (a histogram per score bin, a database ``GROUP BY score``).

        Parameters
        ----------
        thresholds : array-like of shape (m,)
            Scores, in any order; repeated scores are merged (their counts added).
        positives, negatives : array-like of shape (m,)
            Non-negative counts (or weight totals) of positives and negatives with that
            score. Rows where both are 0 hold no data and are dropped.

        Returns
        -------
        ScoreCurve
            The same object :meth:`from_scores` builds from the raw rows (identical
            arrays for whole-number counts).

        Raises
        ------
        ValueError
            If a count is negative or not finite, a score is NaN or infinite, the
            lengths differ, or one class has a total of 0.

        Examples
        --------
        >>> a = ScoreCurve.from_counts([0.35, 0.1, 0.8, 0.4], [1, 0, 1, 0], [0, 1, 0, 1])
        >>> b = ScoreCurve.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
        >>> a == b
        True
        >>> ScoreCurve.from_counts([0.2, 0.7, 0.2], [1, 5, 2], [10, 1, 3]).tps
        array([5, 8])
        """
        return cls._trusted(*aggregated_counts(thresholds, positives, negatives))

    # --------------------------------------------------------------- properties
    @property
    def thresholds(self) -> np.ndarray:
        """The distinct scores, decreasing, shape (J,) (read-only): float64, or int64
        (uint64 above 2**63) for integer scores, which are kept exact."""
        return self._thresholds

    @property
    def direction(self) -> str:
        """``"<"`` (higher scores mean positive) or ``">"`` (the curve of the negated
        scores), followed by ``" (auto)"`` when ``direction="auto"`` chose it."""
        return self._direction

    @property
    def tps(self) -> np.ndarray:
        """Cumulative true positives (positives scoring >= each threshold), shape (J,)."""
        return self._tps

    @property
    def fps(self) -> np.ndarray:
        """Cumulative false positives (negatives scoring >= each threshold), shape (J,)."""
        return self._fps

    @property
    def n_positive(self) -> int | float:
        """P, the number (total weight) of positives."""
        return scalar(self._tps[-1])

    @property
    def n_negative(self) -> int | float:
        """N, the number (total weight) of negatives."""
        return scalar(self._fps[-1])

    @property
    def n(self) -> int | float:
        """P + N (the total weight when weighted)."""
        return self.n_positive + self.n_negative

    @property
    def prevalence(self) -> float:
        """pi = P / (P + N)."""
        return self.n_positive / self.n

    @property
    def is_integer(self) -> bool:
        """Whether the counts are whole numbers (stored as int64)."""
        return self._tps.dtype.kind == "i"

    @property
    def alpha(self) -> np.ndarray:
        """Type-I error FP / N at ``(+inf, *thresholds)``, shape (J + 1,): starts at 0 and
        ends at 1 (both endpoints included, see the class Notes). Read-only."""
        out = self._cache.get("alpha")
        if out is None:
            out = np.empty(self._fps.size + 1)
            out[0] = 0.0
            np.divide(self._fps, self._fps[-1], out=out[1:])
            out.flags.writeable = False
            self._cache["alpha"] = out
        return out

    @property
    def beta(self) -> np.ndarray:
        """Type-II error FN / P at ``(+inf, *thresholds)``, shape (J + 1,): starts at 1 and
        ends at 0 (both endpoints included, see the class Notes). Read-only."""
        out = self._cache.get("beta")
        if out is None:
            out = np.empty(self._tps.size + 1)
            out[0] = 1.0
            np.subtract(self._tps[-1], self._tps, out=out[1:])
            out[1:] /= self._tps[-1]
            out.flags.writeable = False
            self._cache["beta"] = out
        return out

    def _geometry_points(self, curve: str | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(alpha, beta) handed to the shared geometry for areas and operating points.

        Interior points of runs of thresholds that add negatives only (a horizontal run
        of the ROC curve) are left out, except for the lift area. Along such a run beta
        is constant and alpha, recall and the rate q move linearly, so nothing the
        geometry computes from them changes: ROC and gain are straight there (any rule
        gives the same area over the run), the PR curve has zero-width segments there,
        and the eq. 9 interpolation at any x in the run gives the same (alpha, beta)
        from the run's two ends. Only lift = TPR / q is not linear in q along a run, so
        the lift area uses every point. At prevalence 0.1 with continuous scores this
        keeps about a fifth of the points: the geometry runs several times faster.
        """
        if curve == "lift":
            return self.alpha, self.beta
        out = self._cache.get("reduced")
        if out is None:
            tps = self._tps
            # flat[k]: the step into thresholds[k] adds no positives (k = 0 is the step
            # from the start point (0, 1), where tp = 0).
            flat = np.empty(tps.size, dtype=bool)
            flat[0] = tps[0] == 0
            np.equal(tps[1:], tps[:-1], out=flat[1:])
            inner = flat[:-1] & flat[1:]  # thresholds[k] inside a run, k < J - 1
            n_drop = int(np.count_nonzero(inner))
            if n_drop == 0:
                out = (self.alpha, self.beta)
            else:
                keep = np.flatnonzero(~inner)  # thresholds kept (besides the last)
                J = tps.size
                a = np.empty(J - n_drop + 1)
                b = np.empty(J - n_drop + 1)
                a[0], b[0] = 0.0, 1.0
                np.divide(self._fps[keep], self._fps[-1], out=a[1:-1])
                np.subtract(tps[-1], tps[keep], out=b[1:-1])
                b[1:-1] /= tps[-1]
                a[-1], b[-1] = 1.0, 0.0
                a.flags.writeable = False
                b.flags.writeable = False
                out = (a, b)
            self._cache["reduced"] = out
        return out

    # ------------------------------------------------------------------- curves
    def curve(self, kind: str = "roc", *, drop_intermediate: bool = False) -> pd.DataFrame:
        """The points of the ROC, PR, lift or gain curve as a DataFrame.

        Parameters
        ----------
        kind : {"roc", "pr", "lift", "gain"}
        drop_intermediate : bool, default False
            Keep only the first point and the points where the ROC curve turns, as
            scikit-learn's ``roc_curve(drop_intermediate=True)`` (the dropped points lie
            on straight segments of the ROC curve; areas do not change for ROC and gain).

        Returns
        -------
        pandas.DataFrame
            J + 1 rows ordered by decreasing threshold, the first at threshold ``inf``
            (nothing predicted positive). Columns ``threshold`` and the curve's x and y:
            ``fpr, tpr`` (ROC), ``recall, precision`` (PR), ``rate, lift`` (lift) or
            ``rate, gain`` (gain; gain = TPR, rate = share predicted positive). y is NaN
            where it is 0/0 (precision and lift at the first row).
        """
        kind = check_choice("kind", kind, geo.CURVES)
        _check_flag("drop_intermediate", drop_intermediate)
        x, y = geo.curve_xy(kind, self.prevalence, self.alpha, self.beta)
        xname, yname = _COLUMNS[kind]
        frame = pd.DataFrame(
            {
                "threshold": np.concatenate((np.array([np.inf]), self._thresholds)),
                xname: x,
                yname: y,
            }
        )
        if drop_intermediate:
            rows = np.concatenate(([0], 1 + points.intermediate_kept(self._tps, self._fps)))
            frame = frame.iloc[rows].reset_index(drop=True)
        return frame

    def det(self, drop_intermediate: bool = False) -> pd.DataFrame:
        """The detection error tradeoff (DET) curve: columns ``threshold, fpr, fnr``,
        the points scikit-learn's ``det_curve(drop_intermediate=)`` returns, in
        increasing threshold order.

        Examples
        --------
        >>> ScoreCurve.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]).det()
           threshold  fpr  fnr
        0       0.35  0.5  0.0
        1       0.40  0.5  0.5
        2       0.80  0.0  0.5
        """
        return points.det_points(
            self._thresholds,
            self._tps,
            self._fps,
            _check_flag("drop_intermediate", drop_intermediate),
        )

    def smooth(self, method: str = "binormal", n: int = 512) -> BinormalSmooth:
        """The binormal smoothing of the ROC curve, as pROC's ``smooth(method=
        "binormal")`` (:func:`opsstats.curves.smooth.binormal_smooth`)."""
        return binormal_smooth(self, method, n)

    @classmethod
    def roc_points(
        cls,
        y_true: Any,
        y_score: Any,
        *,
        pos_label: Any = None,
        sample_weight: Any = None,
        drop_intermediate: bool = False,
        one_class: str = "error",
    ) -> pd.DataFrame:
        """The ROC points of raw data, as scikit-learn's ``roc_curve``.

        ``one_class="nan"`` gives, for data with one class only, the points with the
        absent class's rate NaN and an :class:`~opsstats.exceptions.UndefinedMetricWarning`
        (scikit-learn's behaviour); the default ``"error"`` refuses such data, as
        :meth:`from_scores` does (a curve, its areas and their OPS need both classes).

        Examples
        --------
        >>> import warnings
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     ScoreCurve.roc_points([1, 1], [0.2, 0.7], one_class="nan")
           threshold  fpr  tpr
        0        inf  NaN  0.0
        1        0.7  NaN  0.5
        2        0.2  NaN  1.0
        """
        one_class = points.check_one_class(one_class)
        if one_class == "nan":
            y = check_1d("y_true", y_true)
            mask = class_mask(y, pos_label)
            if mask.all() or not mask.any():
                return points.one_class_roc(
                    y, y_score, pos_label=pos_label, sample_weight=sample_weight
                )
        curve = cls.from_scores(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
        return curve.roc(drop_intermediate=drop_intermediate)

    def roc(self, drop_intermediate: bool = False) -> pd.DataFrame:
        """The ROC curve: columns ``threshold, fpr, tpr`` (see :meth:`curve`).

        Examples
        --------
        >>> ScoreCurve.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]).roc()
           threshold  fpr  tpr
        0        inf  0.0  0.0
        1       0.80  0.0  0.5
        2       0.40  0.5  0.5
        3       0.35  0.5  1.0
        4       0.10  1.0  1.0
        """
        return self.curve("roc", drop_intermediate=drop_intermediate)

    def pr(self) -> pd.DataFrame:
        """The precision-recall curve: columns ``threshold, recall, precision``.

        Examples
        --------
        >>> ScoreCurve.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]).pr()
           threshold  recall  precision
        0        inf     0.0        NaN
        1       0.80     0.5   1.000000
        2       0.40     0.5   0.500000
        3       0.35     1.0   0.666667
        4       0.10     1.0   0.500000
        """
        return self.curve("pr")

    def lift(self) -> pd.DataFrame:
        """The lift curve: columns ``threshold, rate, lift`` (rate = share of rows
        predicted positive, lift = precision / prevalence)."""
        return self.curve("lift")

    def gain(self) -> pd.DataFrame:
        """The cumulative gain curve: columns ``threshold, rate, gain`` (gain = TPR)."""
        return self.curve("gain")

    # -------------------------------------------------------------------- areas
    def _area(self, kind: str, rule: str | None, normalized: bool) -> float:
        kind = check_choice("kind", kind, geo.CURVES)
        spec = geo.parse_area(f"{'n' if normalized else ''}{kind}_auc", rule)
        return float(geo.curve_area(spec, self.prevalence, *self._geometry_points(kind)))

    def auc(self, kind: str = "roc", rule: str | None = None) -> float:
        """The area under the ROC, PR, lift or gain curve.

        Parameters
        ----------
        kind : {"roc", "pr", "lift", "gain"}, default "roc"
        rule : {"trapezoid", "step"}, optional
            Default per curve (``DEFAULT_RULE``): trapezoid for ROC and gain, step (the
            right-endpoint sum) for PR and lift. Compare an observed AUC only with
            reference AUCs made with the same rule (docs/method.md#auc-rules).

        Returns
        -------
        float

        Notes
        -----
        The trapezoid ROC AUC is the Mann-Whitney statistic with ties counted one half
        (Fawcett 2006, Algorithm 2); the step PR AUC is average precision, as in
        scikit-learn's ``average_precision_score``. The area is computed by the shared
        :func:`~opsstats.curves._geometry.curve_area`; except for lift it is handed the
        curve without the interior points of runs of negatives-only thresholds, where
        the curve is straight or of zero width, which gives the same area faster.

        Examples
        --------
        >>> curve = ScoreCurve.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
        >>> curve.auc(), curve.auc("pr"), curve.auc("gain"), curve.auc("gain", rule="step")
        (0.75, 0.8333333333333333, 0.625, 0.75)
        """
        return self._area(kind, rule, normalized=False)

    def nauc(self, kind: str = "roc", rule: str | None = None) -> float:
        """The normalized area AUC / ideal AUC (1 for ROC and PR, 1 + ln(1/pi) for
        lift, 1 - pi/2 for gain; Zhao et al., Table 3). Parameters as :meth:`auc`.

        Examples
        --------
        >>> curve = ScoreCurve.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
        >>> round(curve.nauc("lift"), 4), round(curve.nauc("gain"), 4)
        (0.7875, 0.8333)
        """
        return self._area(kind, rule, normalized=True)

    def partial_auc(
        self, fpr_range: Any = None, tpr_range: Any = None, *, correct: bool = False
    ) -> float:
        """The partial area under the ROC curve over an FPR or a TPR range.

        Parameters
        ----------
        fpr_range : (low, high), optional
            FPR range, e.g. ``(0, 0.2)`` for specificity 0.8 to 1 (pROC
            ``partial.auc=c(1, 0.8), partial.auc.focus="specificity"``; scikit-learn
            ``max_fpr=0.2``): the integral of TPR over it.
        tpr_range : (low, high), optional
            Instead: a TPR (sensitivity) range, the integral of the specificity 1 - FPR
            over it (pROC ``partial.auc.focus="sensitivity"``).
        correct : bool, default False
            McClish's standardization (1 + (A - A_min) / (A_max - A_min)) / 2: 0.5 for
            chance, 1 for a perfect curve (pROC ``partial.auc.correct=TRUE``;
            scikit-learn's ``roc_auc_score(max_fpr=)`` always applies it). Below the
            diagonal it is below 0.5 (pROC returns NA there unless
            ``allow.invalid.partial.auc.correct=TRUE``).

        Returns
        -------
        float

        Notes
        -----
        The trapezoid ROC curve cut by linear interpolation at both ends of the range
        (``opsstats.curves._partial.PartialArea``, docs/method.md#vocabulary). Its
        OPS, intervals and reference values: ``curve.ops("roc_pauc", fpr_range=...)``,
        ``curve.interval("roc_pauc", fpr_range=..., correct=True)``.

        Examples
        --------
        >>> curve = ScoreCurve.from_scores([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.5])
        >>> round(curve.partial_auc(fpr_range=(0, 0.5)), 6)    # 2/3 * 1/3 + 1 * 1/6 = 7/18
        0.388889
        >>> round(curve.partial_auc(fpr_range=(0, 0.5), correct=True), 6)  # A_min 1/8, A_max 1/2
        0.851852
        """
        spec = parse_partial(
            {"fpr_range": fpr_range, "tpr_range": tpr_range, "correct": correct}
            if fpr_range is not None or tpr_range is not None
            else {"correct": correct}
        )
        return float(spec(self.prevalence, *self._geometry_points()))

    def gini(self) -> float:
        """The Gini coefficient 2 AUC - 1 (trapezoid ROC AUC); its OPS is the AUC's
        (``curve.ops("gini")``).

        Examples
        --------
        >>> ScoreCurve.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]).gini()
        0.5
        """
        return float(geo.SUMMARIES["gini"](self.prevalence, *self._geometry_points()))

    def eer(self) -> float:
        """The equal error rate: the FPR (= FNR) where the ROC curve, straight between its
        points, crosses TPR = 1 - FPR (``curve.ops("eer")``, lower is better).

        Examples
        --------
        >>> ScoreCurve.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]).eer()
        0.5
        """
        return float(geo.SUMMARIES["eer"](self.prevalence, *self._geometry_points()))

    def best_threshold(self, method: str = "youden", weights: Any = (1.0, 0.5)) -> pd.DataFrame:
        """The best threshold(s): Youden's J or the point closest to the top-left corner,
        as pROC's ``coords(x="best", best.method=, best.weights=)``.

        Parameters
        ----------
        method : {"youden", "closest.topleft"}
            Maximize se + r sp (Youden's J + 1 for r = 1) or minimize (1 - se)**2 +
            r (1 - sp)**2.
        weights : (cost, prevalence), default (1, 0.5)
            pROC's ``best.weights``: the cost of a false negative relative to a false
            positive and the prevalence; r = (1 - prevalence) / (cost * prevalence).

        Returns
        -------
        pandas.DataFrame
            One row per tied optimum, in increasing threshold order (as pROC):
            ``threshold`` (predict positive where score >= it; ``inf`` for nothing
            positive), ``threshold_midpoint`` (pROC's threshold: midway to the next
            lower score, ``-inf`` for everything positive), ``sensitivity``,
            ``specificity``, ``tp``, ``fp``, ``tn``, ``fn``, ``youden`` (se + r sp) and
            ``closest_topleft`` ((1 - se)**2 + r (1 - sp)**2), as pROC's columns.

        Notes
        -----
        docs/method.md#vocabulary. Bootstrap intervals for the threshold and the
        coordinates at it: :func:`opsstats.uncertainty.curve.best.best_threshold_interval`
        (pROC's ``ci.coords(x="best")``) and
        :func:`opsstats.uncertainty.curve.best.threshold_interval` (``ci.thresholds``).

        Examples
        --------
        >>> curve = ScoreCurve.from_scores([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.5])
        >>> curve.best_threshold()[["threshold", "sensitivity", "specificity", "youden"]]
           threshold  sensitivity  specificity    youden
        0       0.35     1.000000     0.666667  1.666667
        1       0.50     0.666667     1.000000  1.666667
        """
        method, r = best.check_best(method, weights)
        P, N = self.n_positive, self.n_negative
        tp = np.concatenate(([0], self._tps))
        fp = np.concatenate(([0], self._fps))
        se, sp = tp / P, (N - fp) / N
        rows = np.flatnonzero(best.optimal(method, r, se, sp))[::-1]  # increasing threshold
        thr = np.concatenate(([np.inf], self._thresholds.astype(float)))
        return pd.DataFrame(
            {
                "threshold": thr[rows],
                "threshold_midpoint": best.proc_thresholds(self._thresholds)[rows],
                "sensitivity": se[rows],
                "specificity": sp[rows],
                "tp": tp[rows],
                "fp": fp[rows],
                "tn": (N - fp)[rows],
                "fn": (P - tp)[rows],
                "youden": best.criterion("youden", r, se[rows], sp[rows]),
                "closest_topleft": best.criterion("closest.topleft", r, se[rows], sp[rows]),
            }
        )

    # ---------------------------------------------------------- operating points
    def _check_top_k(self, top_k: Any) -> float:
        return op.check_top_k(top_k, self.n, self.is_integer)

    def value_at(
        self,
        metric: Any,
        at: dict[str, float] | None = None,
        *,
        top_k: float | None = None,
        zero_division: Any = "warn",
        **params: Any,
    ) -> float:
        """A metric read off the curve at a fixed x (Zhao et al., eq. 9).

        Parameters
        ----------
        metric : str or BoundMetric
            A registered confusion-matrix metric, e.g. ``"precision"`` or ``"lift"``.
        at : dict, optional
            One entry fixing the x coordinate: ``{"recall": u}`` (aliases ``"tpr"``,
            ``"sensitivity"``), ``{"fpr": u}`` or ``{"rate": u}`` (share of rows predicted
            positive), u in (0, 1].
        top_k : int, optional
            Instead of ``at``: the top K rows, i.e. ``at={"rate": K / n}`` (K in weight
            units for weighted data).
        zero_division : {"warn", 0, 1, numpy.nan}, default "warn"
            Where the metric is 0/0: NaN with a warning, or this value (scikit-learn's
            convention), as :meth:`ConfusionMatrix.metric`.
        **params
            The metric's parameters (e.g. ``beta=2`` for ``"fbeta"``).

        Returns
        -------
        float
            NaN, with an :class:`~opsstats.exceptions.UndefinedMetricWarning`, where the
            metric is 0/0 (unless ``zero_division`` says otherwise).

        Notes
        -----
        The neighbouring points x_l <= u <= x_r are found, alpha and beta are
        interpolated linearly in x and the metric is computed from the interpolated
        (alpha, beta) (:func:`opsstats.curves._geometry.value_at`, the same code that
        evaluates the reference curves). For ``rate`` this is the metric of the expected
        confusion matrix when the K-th row falls in a tie block whose order is random:
        ``confusion_matrix(top_k=K)`` returns that matrix. The OPS of such a value uses
        the *curve* (DBT) reference, not the uniform reference of a single confusion
        matrix: the two differ for the same operating point.

        Examples
        --------
        >>> curve = ScoreCurve.from_scores([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.5])
        >>> round(curve.value_at("precision", at={"recall": 0.9}), 4)   # 2.7 / 3.7
        0.7297
        >>> curve.value_at("lift", top_k=2)
        2.0
        """
        if (at is None) == (top_k is None):
            raise TypeError(
                "give exactly one of `at` (e.g. {'recall': 0.9}) and `top_k`; "
                f"got at={describe(at)}, top_k={describe(top_k)}."
            )
        if top_k is not None:
            at = {"rate": self._check_top_k(top_k) / self.n}
        zd = check_zero_division(zero_division)
        point = geo.parse_at(metric, at, **params)
        return undefined(
            float(geo.value_at(point, self.prevalence, *self._geometry_points())),
            zd,
            f"{point.label} is undefined (0/0: {point.metric.metric.undefined}) "
            f"on {self!r}; returning NaN.",
            stacklevel=2,
        )

    def confusion_matrix(
        self,
        *,
        threshold: float | None = None,
        top_k: float | None = None,
        ties: str = "interpolate",
    ) -> ConfusionMatrix:
        """The confusion matrix at a threshold or for the top K rows.

        Parameters
        ----------
        threshold : float, optional
            Predict positive where score >= threshold; a finite number (NaN and +-inf
            are refused: a threshold above every score predicts nothing positive).
        top_k : int, optional
            Predict the K highest-scoring rows positive (K in weight units for weighted
            data).
        ties : {"interpolate", "include", "exclude"}, default "interpolate"
            For ``top_k``, when the K-th row falls inside a block of tied scores (so no
            threshold flags exactly K rows):

            - ``"interpolate"``: the expected counts when the tie block is ordered at
              random and K rows are taken: the counts before the block plus the fraction
              (K - before) / (block size) of the block's positives and negatives. The
              counts can be fractional; the matrix is exactly the one whose metrics
              :meth:`value_at` returns for ``top_k=K`` (eq. 9 interpolation in the rate).
            - ``"include"``: the whole block (the threshold at the K-th row's score: at
              least K rows flagged).
            - ``"exclude"``: none of the block (fewer than K rows flagged).

            Both give realizable thresholds with whole counts. Without ties (or when K
            ends a block) the three agree.

        Returns
        -------
        ConfusionMatrix

        Examples
        --------
        >>> curve = ScoreCurve.from_scores([1, 0, 1, 0, 0], [0.9, 0.7, 0.7, 0.7, 0.1])
        >>> curve.confusion_matrix(threshold=0.7)
        ConfusionMatrix(tp=2, fp=2, fn=0, tn=1)
        >>> curve.confusion_matrix(top_k=2)        # 1 of the 3 tied rows, at random
        ConfusionMatrix(tp=1.3333333333333333, fp=0.6666666666666666,
                        fn=0.6666666666666667, tn=2.3333333333333335)
        >>> curve.confusion_matrix(top_k=2, ties="include")
        ConfusionMatrix(tp=2, fp=2, fn=0, tn=1)
        >>> curve.confusion_matrix(top_k=2, ties="exclude")
        ConfusionMatrix(tp=1, fp=0, fn=1, tn=3)
        """
        if (threshold is None) == (top_k is None):
            raise TypeError(
                "give exactly one of `threshold` and `top_k`; got "
                f"threshold={describe(threshold)}, top_k={describe(top_k)}."
            )
        ties = check_choice("ties", ties, TOP_K_TIES)
        if threshold is not None:
            tp, fp = op.counts_at_threshold(
                self._thresholds, self._tps, self._fps, check_threshold(threshold)
            )
        else:
            tp, fp = op.counts_at_top_k(self._tps, self._fps, self._check_top_k(top_k), ties)
        P, N = self.n_positive, self.n_negative
        return ConfusionMatrix(tp=tp, fp=fp, fn=P - tp, tn=N - fp)

    def ops(
        self,
        metric: Any,
        *,
        at: dict[str, float] | None = None,
        top_k: float | None = None,
        reference: Any = None,
        rule: str | None = None,
        ties: str = "strict",
        ci: str | None = None,
        confidence_level: float = 0.95,
        n_resamples: int = 2000,
        interval: str | None = None,
        stratified: bool = True,
        rng: Any = None,
        progress: bool = False,
        prior: Any = None,
        **params: Any,
    ) -> Any:
        """Outperformance score (o-value) of a curve quantity against a curve reference,
        optionally with an interval.

        Parameters
        ----------
        metric : str
            An area (``"roc_auc"``, ``"pr_auc"``, ``"lift_auc"``, ``"gain_auc"`` or their
            ``"n..."`` NAUC forms), the partial ROC area ``"roc_pauc"`` (with
            ``fpr_range=`` or ``tpr_range=`` and ``correct=``, as :meth:`partial_auc`),
            ``"gini"``, ``"eer"`` (equal error rate) or, with ``at``/``top_k``, a
            registered metric read off the curve (eq. 9), e.g. ``"precision"`` with
            ``at={"recall": 0.9}``.
        at, top_k
            The operating point, as in :meth:`value_at`.
        reference : CurveReference, optional
            Default: the paper's Directed Binary Tree (depth 9, 100,000 curves).
        rule : {"trapezoid", "step"}, optional
            AUC rule, applied to this curve and to the reference curves alike.
        ties : {"strict", "mid"}
        ci : {None, "auto", "bootstrap", "delong"}
            Add an interval for the OPS made by this method (see :meth:`interval`;
            ``"auto"`` chooses per quantity as there; ``"delong"`` for the ROC AUC only).
        confidence_level, n_resamples, interval, stratified, rng, progress
            Interval options, as in :meth:`interval`.
        **params
            Metric parameters.

        Returns
        -------
        OPSResult
            See :func:`opsstats.ops.curve_ops`. This is the *curve* (DBT) reference; the
            OPS of a single confusion matrix (:meth:`ConfusionMatrix.ops`) uses the uniform
            reference and differs for the same operating point. With ``ci``, also ``ci``
            and ``ci_method``.

        Notes
        -----
        At the curve's prevalence OPS is monotone in the quantity, so the OPS interval is
        the quantity's interval mapped through OPS. A Monte Carlo reference adds its own
        error at each mapped end: the end moves outwards so that its distance h from the
        OPS estimate becomes sqrt(h**2 + (z se)**2), se the reference's Monte Carlo
        standard error there; ``ci_method`` then ends with "reference Monte Carlo error
        added" (:func:`opsstats.uncertainty.curve.curve_ops_interval`). The non-stratified
        bootstrap resamples the prevalence, so it is refused for quantities whose OPS
        depends on the prevalence (all but ROC quantities).

        Examples
        --------
        >>> from opsstats.reference.dbt import DirectedBinaryTree
        >>> curve = ScoreCurve.from_scores([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.5])
        >>> ref = DirectedBinaryTree(depth=4, n_curves=2000)
        >>> r = curve.ops("roc_auc", reference=ref)
        >>> 0.5 < r.estimate < 1
        True
        >>> r = curve.ops("roc_auc", reference=ref, ci="delong")
        >>> r.ci_method
        'DeLong, Sun-Xu algorithm, clipped to [0, 1]; reference Monte Carlo error added'
        >>> r.ci.low <= r.estimate <= r.ci.high
        True
        """
        return self._announce(
            upcall("curve_ops")(
                self,
                metric,
                at=at,
                top_k=top_k,
                reference=reference,
                rule=rule,
                ties=ties,
                ci=ci,
                confidence_level=confidence_level,
                n_resamples=n_resamples,
                interval=interval,
                stratified=stratified,
                rng=rng,
                progress=progress,
                prior=prior,
                **params,
            )
        )

    def interval(
        self,
        name: Any,
        *,
        method: str = "auto",
        confidence_level: float = 0.95,
        n_resamples: int = 2000,
        interval: str | None = None,
        stratified: bool = True,
        rng: Any = None,
        progress: bool = False,
        at: dict[str, float] | None = None,
        top_k: float | None = None,
        rule: str | None = None,
        prior: Any = None,
        **params: Any,
    ) -> Any:
        """Confidence interval for an area or an operating-point value of the curve.

        Parameters
        ----------
        name : str
            An area (``"roc_auc"``, ``"pr_auc"``, ``"lift_auc"``, ``"gain_auc"``, NAUC
            forms ``"nroc_auc"``, ...), ``"roc_pauc"`` (with ``fpr_range=`` or
            ``tpr_range=`` and ``correct=``), ``"gini"``, ``"eer"`` or, with
            ``at``/``top_k``, a registered metric read off the curve (eq. 9).
        method : {"auto", "bootstrap", "delong", "dirichlet", "jackknife"}
            ``"auto"`` (default): the method the coverage studies found nearest to
            nominal for the quantity (see Notes). For the ROC and PR AUC (and the other
            [0, 1] areas): with fewer than 100 rows in the smaller class, the Dirichlet
            posterior of each class's scores (``"dirichlet"``; for the PR areas with
            ``interval="bias-extended"``); from 100 rows on, the
            logit-scale interval of DeLong's variance for the ROC AUC (``"delong"`` with
            ``interval="logit-t"``) and of the stratified jackknife's for the other areas
            (``"jackknife"`` with ``interval="logit-t"``), which costs milliseconds at
            millions of rows. For everything else the stratified percentile bootstrap.
            ``"bootstrap"``: resampling the (score, label) rows, done by resampling
            counts over the sorted distinct scores (no sort per resample).
            ``"delong"``: DeLong's interval for the ROC AUC (trapezoid rule), by the
            O(n log n) algorithm of Sun and Xu (2014). ``"dirichlet"``: the Bayesian
            bootstrap of each class (Dirichlet weights on its rows) with a pseudo-row of
            each class above the highest score and another below the lowest (weight
            ``prior``); the prevalence fixed. ``"jackknife"``: the
            two-sample jackknife variance of a curve area (leave one row out, per class;
            DeLong's variance for the ROC AUC), exact in O(n).
        confidence_level : float, default 0.95
        n_resamples : int, default 2000
            Bootstrap resamples or posterior draws (at least 100; not used by
            ``"delong"`` or ``"jackknife"``).
        interval : str, optional
            For an explicit ``method`` (not with ``"auto"``): ``"percentile"``
            (default), ``"bca"`` or ``"logit-t"`` for the bootstrap; ``"normal"``
            (default, as pROC) or ``"logit-t"`` for DeLong and for the jackknife;
            ``"equal-tailed"`` (default) or ``"bias-extended"`` for the Dirichlet
            posterior: the equal-tailed interval with its lower end moved down by
            b = max(0, (P - 1)(mean of the leave-one-positive-out estimates -
            estimate)), the jackknife estimate of the estimator's upward small-sample
            bias [8]_, each leave-one-out curve read at the test set's prevalence
            (``details["bias_extension"]``). The average precision of a few positives
            is biased upwards, by an amount that depends on the upper tails of the
            scores; below 100 rows the equal-tailed PR AUC interval covered as little
            as 60% in the shapes study (``benchmarks/results/coverage_shapes.md``), the
            extended one at least 90.0%.
        stratified : bool, default True
            Resample within each class (prevalence fixed). Not stratified, resamples
            where a class is absent are undefined and counted in ``n_undefined``.
        rng : None, int or numpy.random.Generator
            The same ``rng`` gives the same interval, bit for bit. The default is
            random below 100 rows of a class (posterior draws): pass ``rng`` to make it
            reproducible.
        progress : bool
            Show a progress bar on stderr.
        at, top_k
            The operating point, as in :meth:`value_at`.
        rule : {"trapezoid", "step"}, optional
            AUC rule (default per curve, as in :meth:`auc`).
        prior : {"jeffreys", "bayes-laplace"} or float, optional
            The weight of each of the Dirichlet posterior's four pseudo-rows: 1/2
            (Jeffreys, the default), 1 or a positive number. Only with the Dirichlet
            posterior.
        **params
            Metric parameters.

        Returns
        -------
        IntervalResult
            ``estimate`` (this curve's value), ``ci``, ``method`` (how it was made),
            ``n_undefined`` resamples (left out, reported) and the bootstrap's or the
            posterior's ``draws``;
            for DeLong, ``details["variance"]`` (DeLong's variance of the AUC); for the
            jackknife, ``details["variance"]`` and its two components
            ``"variance_positives"``, ``"variance_negatives"`` (and ``"df"``).

        Raises
        ------
        ValueError
            For weighted curves (non-integer counts): no method applies. For
            ``method="delong"`` with anything but the trapezoid ROC AUC, for
            ``method="jackknife"`` with a value at an operating point, or for either
            (and any logit-t interval, and the Dirichlet posterior) with fewer than 2
            rows of a class.

        Notes
        -----
        The DeLong ``"normal"`` interval is ``auc -+ z sqrt(var)``, **clipped to [0,
        1]** as pROC's ``ci.auc`` does (the method then says so); it equals pROC's to
        about 1e-15. When every positive outscores every negative its variance is 0 and
        the interval [1, 1] is misleading (a warning says so).

        ``"logit-t"`` intervals are ``expit(logit(estimate) -+ t * se)`` with se the
        standard error on the logit scale: for DeLong ``sqrt(var) / (auc (1 - auc))``
        and t with the Welch-Satterthwaite degrees of freedom of ``s10 / m + s01 / n``
        (the Brunner-Munzel t approximation, whose statistic this reproduces; the logit
        scale as recommended by Pohar Perme and Manevski), the centre moved by the
        second-order bias of ``logit(auc)``, ``(2 auc - 1) var / (2 (auc (1 - auc))**2)``
        (the method says "bias-corrected"); for the jackknife, ``sqrt(V) / (est (1 -
        est))`` with V = V1 + V0 its two-sample variance and t with (k - 1) V**2 /
        (V1**2 + V0**2) degrees of freedom, k the smaller class's size; for the
        bootstrap, half the spread of the central 68.27% of the resamples' logits and t
        with min(P, N) - 1 degrees of freedom. At an estimate of exactly 1 (every
        positive outscores every negative) or 0 there is no logit, and the interval is
        one-sided, ``[((1 - level) / 2) ** (1 / k), 1]``, k the smaller class's size.
        All need two rows of each class.

        The Dirichlet posterior gives each class's rows the weights of a flat
        Dirichlet (Gamma(1) per row, normalized within the class: the Bayesian bootstrap
        of Rubin 1981), plus a pseudo-positive and a pseudo-negative tied above the
        highest score and another pair tied below the lowest, each of weight ``prior``
        (Gamma(1/2) for Jeffreys): the posterior under a Dirichlet process prior whose
        base measure sits at the two ends of the score scale. Each draw is the
        quantity of the weighted curve at the test set's prevalence. Where every
        positive's placement is 0 or 1 (it outscores every negative or none) the ROC
        AUC's posterior tends, as the negatives grow many, to the Jeffreys Beta
        posterior of a proportion of the positives, so a
        perfectly separated test set gets an interval reaching well below 1 with no
        special rule; with many rows the pseudo-rows weigh nothing and the interval is
        the Bayesian bootstrap's. Rows of one (distinct score, class) cell share one
        Gamma(rows) weight, and a run of negatives-only thresholds is one cell, so a
        draw costs O(cells), at most about 2P + 3 with P positives the smaller class.

        Why these defaults: with few rows in a class the AUCs' sampling distributions
        are skewed, and DeLong's normal interval and the percentile bootstrap
        undercover (in the coverage study, ``benchmarks/results/coverage_curve.md``,
        binormal scores, DeLong's normal interval covered the ROC AUC 76% of the time
        at n = 50, pi = 0.1, shift 2). The logit-t intervals repair much of that for
        binormal scores, but not for others: with 10 positives among 2000 negatives and
        a ROC AUC of 0.92 they covered about 77% when 15% of the positives scored like
        negatives (``benchmarks/results/coverage_shapes.md``). For the ROC AUC the
        Dirichlet posterior covered 93.7% to 99.6% below 100 rows of the smaller class,
        across five shapes and both AUCs: never below the band, above it (conservative)
        mostly with positives less spread than the negatives or heavy tails. For the PR AUC
        the equal-tailed posterior fell to 60% with few positives less spread than the
        negatives, because average precision is then biased upwards by more than the
        posterior's spread; the default below 100 rows, the same posterior with its lower
        end extended by the jackknife's estimate of that bias, covered 90.0% to 100%
        there. From 100 rows of each class on, both are near
        nominal and the logit-t interval is used because it is
        deterministic and fast. The studies report every method's coverage cell by
        cell.

        The bootstrap draws each resample's multiplicities of the rows of every
        (distinct score, class) cell: stratified, Multinomial(P, .) over the positives'
        cells and Multinomial(N, .) over the negatives'; cumulative sums give the
        resampled curves over the same thresholds, evaluated as one (B, J) batch by the
        same geometry as the curve itself. BCa uses the exact jackknife over the at most
        2J distinct leave-one-out curves, computed in O(J).

        References
        ----------
        .. [1] E. R. DeLong, D. M. DeLong and D. L. Clarke-Pearson, Biometrics 44(3),
           837-845 (1988). https://doi.org/10.2307/2531595
        .. [2] X. Sun and W. Xu, IEEE Signal Processing Letters 21(11), 1389-1393
           (2014). https://doi.org/10.1109/LSP.2014.2337313
        .. [3] B. Efron, Journal of the American Statistical Association 82(397),
           171-185 (1987). https://doi.org/10.1080/01621459.1987.10478410
        .. [4] E. Brunner and U. Munzel, "The nonparametric Behrens-Fisher problem:
           asymptotic theory and a small-sample approximation", Biometrical Journal
           42(1), 17-25 (2000).
        .. [5] M. Pohar Perme and D. Manevski, "Confidence intervals for the
           Mann-Whitney test", Statistical Methods in Medical Research (2019).
           https://doi.org/10.1177/0962280218814556
        .. [6] J. N. Arvesen, "Jackknifing U-statistics", The Annals of Mathematical
           Statistics 40(6), 2076-2100 (1969). https://doi.org/10.1214/aoms/1177697287
        .. [7] D. B. Rubin, "The Bayesian bootstrap", The Annals of Statistics 9(1),
           130-134 (1981). https://doi.org/10.1214/aos/1176345338
        .. [8] M. H. Quenouille, "Notes on bias in estimation", Biometrika 43(3/4),
           353-360 (1956). https://doi.org/10.1093/biomet/43.3-4.353

        Examples
        --------
        >>> curve = ScoreCurve.from_scores([0, 0, 1, 1, 0, 1, 0, 1, 0, 0],
        ...                                [0.1, 0.4, 0.35, 0.8, 0.2, 0.5, 0.3, 0.7, 0.6, 0.15])
        >>> print(curve.interval("roc_auc", method="delong"))
        AUC(ROC, trapezoid) = 0.8750, 95% CI 0.6459-1.0000 (DeLong, Sun-Xu algorithm, clipped to [0, 1])
        >>> r = curve.interval("roc_auc", method="delong")
        >>> round(r.details["variance"], 6)
        0.013657
        >>> print(curve.interval("roc_auc", rng=0))  # the default, 4 positives: Dirichlet
        AUC(ROC, trapezoid) = 0.8750, 95% CI 0.4254-0.9598 (Dirichlet posterior of each class's scores (Bayesian bootstrap, Jeffreys pseudo-rows at both ends), 2000 draws, equal-tailed)
        >>> print(curve.interval("roc_auc", method="delong", interval="logit-t"))
        AUC(ROC, trapezoid) = 0.8750, 95% CI 0.2766-0.9820 (DeLong, Sun-Xu algorithm, logit scale, bias-corrected, t with 7.726 df)
        >>> print(curve.interval("pr_auc", method="jackknife", interval="logit-t"))
        AUC(PR, step) = 0.8542, 95% CI 0.2309-0.9913 (stratified jackknife (leave one row out), logit scale, t with 5.15 df)
        >>> print(curve.interval("pr_auc", method="bootstrap", rng=0))  # doctest: +ELLIPSIS
        AUC(PR, step) = 0.8542, 95% CI 0.6...-1.0000 (2000 stratified bootstrap resamples, percentile)
        >>> r = curve.interval("precision", at={"recall": 0.5}, rng=0, method="bootstrap",
        ...                    interval="bca")
        >>> r.method
        '2000 stratified bootstrap resamples, BCa'
        """
        return self._announce(
            upcall("curve_interval")(
                self,
                name,
                method=method,
                confidence_level=confidence_level,
                n_resamples=n_resamples,
                interval=interval,
                stratified=stratified,
                rng=rng,
                progress=progress,
                at=at,
                top_k=top_k,
                rule=rule,
                prior=prior,
                **params,
            )
        )

    def _announce(self, result: Any) -> Any:
        """The result of ``ops`` or ``interval``, its method saying the scores' direction
        when it is not the default "<" (docs/method.md#vocabulary)."""
        if self._direction == "<":
            return result
        note = f"; scores' direction {self._direction}"
        return dataclasses.replace(result, method=result.method + note)

    # ------------------------------------------------- score-distribution measures
    def dm(self, kernel: int | str = 1) -> float:
        """Score distance measure DM_1, DM_2, DM_3, DM_entropy or DM_log
        (:func:`opsstats.curves.score_distribution.dm`)."""
        return sd.dm(self, kernel)

    def rui(self) -> float:
        """Recall unit interval (:func:`opsstats.curves.score_distribution.rui`)."""
        return sd.rui(self)

    def aurc(self) -> float:
        """Area under the recall-threshold curve, the mean positive score
        (:func:`opsstats.curves.score_distribution.aurc`)."""
        return sd.aurc(self)

    def pui(self) -> float:
        """Precision unit interval (:func:`opsstats.curves.score_distribution.pui`)."""
        return sd.pui(self)

    def aupc(self) -> float:
        """Normalized area under the precision-threshold curve
        (:func:`opsstats.curves.score_distribution.aupc`)."""
        return sd.aupc(self)

    def error_ratio(self) -> pd.DataFrame:
        """The error-ratio curve (:func:`opsstats.curves.score_distribution.error_ratio`)."""
        return sd.error_ratio(self)

    def score_measures(self) -> pd.Series:
        """All score-distribution measures (:func:`opsstats.curves.score_distribution.
        score_measures`)."""
        return sd.score_measures(self)

    # ----------------------------------------------------------------- printing
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ScoreCurve):
            return NotImplemented
        return (
            np.array_equal(self._thresholds, other._thresholds)
            and np.array_equal(self._tps, other._tps)
            and np.array_equal(self._fps, other._fps)
            and self._direction == other._direction
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"ScoreCurve(n={_fmt_count(self.n)}, "
            f"n_positive={_fmt_count(self.n_positive)}, "
            f"n_negative={_fmt_count(self.n_negative)}, "
            f"thresholds={self._thresholds.size}, roc_auc={self.auc('roc'):.4g}"
            + (f", direction={self._direction!r})" if self._direction != "<" else ")")
        )

    def summary(self, digits: int = 4) -> Summary:
        """Counts, prevalence, areas under the four curves and, for scores in [0, 1], the
        score-distribution measures, as a :class:`~opsstats._summary.Summary` (text with
        ``str()``, HTML in notebooks, ``.to_frame()`` for a DataFrame).

        Examples
        --------
        >>> print(ScoreCurve.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]).summary())
        Score curve (n = 4, prevalence = 0.5)
        ================================================
                                                   value
        kind               quantity
        data               n                           4
                           positives                   2
                           negatives                   2
                           prevalence             0.5000
                           distinct thresholds         4
        area               AUC(ROC, trapezoid)    0.7500
                           AUC(PR, step)          0.8333
                           AUC(lift, step)        1.3333
                           AUC(GAIN, trapezoid)   0.6250
                           NAUC(lift, step)       0.7875
                           NAUC(GAIN, trapezoid)  0.8333
        score distribution DM_1                   0.3250
                           DM_2                   0.2963
                           DM_3                   0.2449
                           DM_entropy             0.3290
                           DM_log                 0.3200
                           RUI                    0.3500
                           AURC                   0.5750
                           PUI                    0.6000
                           AUPC                   0.6833
        ------------------------------------------------
        Ties form one threshold (Fawcett 2006); each curve runs from (alpha, beta) = (0, 1)
        to (1, 0).
        Area rules: trapezoid for ROC and gain, step (right-endpoint sum; average precision
        for PR) for PR and lift.
        Score-distribution measures: Chtcheprov, Krovvidy and Vera, eqs. 6, 8, 9, 13, 14.
        """
        rows: list[tuple[str, str, Any]] = [
            ("data", "n", self.n),
            ("data", "positives", self.n_positive),
            ("data", "negatives", self.n_negative),
            ("data", "prevalence", self.prevalence),
            ("data", "distinct thresholds", self._thresholds.size),
        ]
        specs = [geo.parse_area(f"{k}_auc") for k in geo.CURVES]
        specs += [geo.parse_area(f"n{k}_auc") for k in ("lift", "gain")]
        for spec in specs:
            rows.append(
                (
                    "area",
                    spec.label,
                    float(
                        geo.curve_area(spec, self.prevalence, *self._geometry_points(spec.curve))
                    ),
                )
            )
        notes = [
            "Ties form one threshold (Fawcett 2006); each curve runs from (alpha, beta) "
            "= (0, 1) to (1, 0).",
            "Area rules: trapezoid for ROC and gain, step (right-endpoint sum; average "
            "precision for PR) for PR and lift.",
        ]
        if not self.is_integer:
            notes.append("Counts are weighted sums of `sample_weight`.")
        if self._direction != "<":
            notes.append(
                f"direction = {self._direction!r}: "
                + (
                    "lower scores mean positive; thresholds are the negated scores."
                    if self._direction.startswith(">")
                    else "higher scores mean positive."
                )
            )
        if self._direction == "<" and self._thresholds[-1] >= 0.0 and self._thresholds[0] <= 1.0:
            for name, value in self.score_measures().items():
                rows.append(("score distribution", name, float(value)))
            notes.append(
                "Score-distribution measures: Chtcheprov, Krovvidy and Vera, eqs. 6, 8, 9, 13, 14."
            )
        else:
            notes.append("Score-distribution measures omitted: they need scores in [0, 1].")
        # object dtype keeps the counts whole numbers (a float column would print 4.0000)
        table = pd.DataFrame(
            {
                "kind": [r[0] for r in rows],
                "quantity": [r[1] for r in rows],
                "value": pd.Series([r[2] for r in rows], dtype=object),
            }
        ).set_index(["kind", "quantity"])
        return Summary(
            title=f"Score curve (n = {self.n:g}, prevalence = {self.prevalence:.4g})",
            table=table,
            notes=tuple(notes),
            digits=digits,
        )
