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
off them by ``opsstats.curves._operating_points``. This module holds the class: its
construction, its counts and their properties, the score-distribution measures, equality,
the repr and the summary. Its other methods are inherited from mixins without state, one
module per group: the curves' coordinates (``_curve_coordinates``), the areas
(``_curve_areas``), the operating points and the best threshold
(``_curve_operating_points``), OPS and intervals (``_curve_inference``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._lazy import lazy_module
from .._seam import upcall
from .._summary import Summary
from .._validation import check_probability
from ..confusion import _Standardizable, standardized_note
from . import _geometry as geo
from . import score_distribution as sd
from ._counting import aggregated_counts, check_cumulative, scalar, score_counts
from ._curve_areas import _CurveAreas
from ._curve_coordinates import _CurveCoordinates
from ._curve_inference import _CurveInference
from ._curve_operating_points import _CurveOperatingPoints
from ._operating_points import TOP_K_TIES

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = lazy_module("pandas")

__all__ = ["ScoreCurve", "TOP_K_TIES"]


def _fmt_count(x: int | float) -> str:
    return str(x) if isinstance(x, int) else f"{x:g}"


def _restore_standardized(origin: ScoreCurve, prevalence: float, view: bool) -> ScoreCurve:
    """Unpickle a standardized curve (or its sampling view): its origin at the
    prevalence (see ``ScoreCurve.__reduce__``)."""
    out = origin.at_prevalence(prevalence)
    return out._sampling_view() if view else out


class ScoreCurve(
    _CurveCoordinates, _CurveAreas, _CurveOperatingPoints, _CurveInference, _Standardizable
):
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

    :meth:`at_prevalence` gives the same curve (the same ROC points) at another
    prevalence, a *standardized* curve whose intervals still rest on this curve's rows
    (docs/method.md#standardized-prevalence).
    """

    __slots__ = ("_cache", "_direction", "_fps", "_origin", "_standard", "_thresholds", "_tps")
    _direction: str
    _thresholds: np.ndarray
    _tps: np.ndarray
    _fps: np.ndarray
    _cache: dict[str, Any]
    # a standardized curve (or its sampling view): the curve it was made from and its
    # prevalence; None for a curve of counts
    _origin: ScoreCurve | None
    _standard: float | None

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
        object.__setattr__(self, "_origin", None)
        object.__setattr__(self, "_standard", None)

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
        if self._origin is not None:
            return (_restore_standardized, (self._origin, self._standard, self._is_view))
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

    # ------------------------------------------------------------ standardizing
    def at_prevalence(self, prevalence: float) -> ScoreCurve:
        """The same classifier (the same ROC curve) at another prevalence.

        Parameters
        ----------
        prevalence : float
            The prevalence pi to standardize to, 0 < pi < 1.

        Returns
        -------
        ScoreCurve
            A *standardized* curve with the same thresholds and n: the cumulative
            counts scaled, ``tps`` by n pi / P and ``fps`` by n (1 - pi) / N (floats);
            :attr:`alpha`, :attr:`beta` (the ROC points) exactly this curve's,
            :attr:`prevalence` exactly ``prevalence``. Every area, operating point and
            OPS is the curve's at pi, the value of these rows reweighted to the
            prevalence (positives by pi / pi0, negatives by (1 - pi) / (1 - pi0));
            :meth:`confusion_matrix` gives this curve's matrix standardized to pi. Its
            intervals hold the prevalence fixed and resample (or draw) *this* curve's
            rows (its class sizes, not the re-expressed ones); the unstratified
            bootstrap, which resamples the prevalence, is refused. It remembers this
            curve (:attr:`origin`) and says so in its repr, str and summary;
            ``at_prevalence`` of it starts again from this curve
            (docs/method.md#standardized-prevalence).

        Raises
        ------
        ValueError
            If ``prevalence`` is not in (0, 1).

        Examples
        --------
        >>> curve = ScoreCurve.from_scores([0, 0, 1, 1, 0, 1], [.1, .4, .35, .8, .2, .5])
        >>> std = curve.at_prevalence(0.1)
        >>> std
        ScoreCurve(n=6, n_positive=3, n_negative=3, thresholds=6, roc_auc=0.8889).at_prevalence(0.1)
        >>> bool((std.alpha == curve.alpha).all()), std.auc() == curve.auc()
        (True, True)
        >>> round(curve.auc("pr"), 4), round(std.auc("pr"), 4)
        (0.9167, 0.75)
        """
        origin = self if self._origin is None else self._origin
        pi = check_probability("prevalence", prevalence, open_low=True, open_high=True)
        n, P, N = origin.n, origin.n_positive, origin.n_negative
        tps = origin._tps * (n * pi / P)
        fps = origin._fps * (n * (1 - pi) / N)
        return origin._standardized(tps, fps, pi)

    def _standardized(self, tps: np.ndarray, fps: np.ndarray, pi: float) -> ScoreCurve:
        """This curve's thresholds with the counts ``tps``, ``fps``, as the curve
        standardized to ``pi`` (or, with this curve's own counts, its sampling view)."""
        out = type(self)._trusted(self._thresholds, tps, fps, self._direction)
        object.__setattr__(out, "_origin", self)
        object.__setattr__(out, "_standard", pi)
        return out

    @property
    def _is_view(self) -> bool:
        return self._origin is not None and self._tps is self._origin._tps

    def _sampling_view(self) -> ScoreCurve:
        """What intervals resample: for a standardized curve, a curve with its origin's
        (integer) counts whose :attr:`prevalence` is the standardized one, so that the
        bootstrap, the Dirichlet posterior, the jackknife and DeLong run on the
        origin's rows and evaluate the quantity at that prevalence; else this curve
        (docs/method.md#standardized-prevalence)."""
        if self._origin is None or self._is_view:
            return self
        view = self._cache.get("view")
        if view is None:
            origin = self._origin
            view = self._cache["view"] = origin._standardized(
                origin._tps,
                origin._fps,
                float(self._standard),  # type: ignore[arg-type]
            )
        return view

    def _rate_source(self) -> ScoreCurve:
        """The curve whose counts give the error rates exactly: the origin of a
        standardized curve, else this one."""
        return self if self._origin is None else self._origin

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
        """P + N (the total weight when weighted); a standardized curve's is its
        origin's."""
        if self._origin is not None:
            return self._origin.n
        return self.n_positive + self.n_negative

    @property
    def prevalence(self) -> float:
        """pi = P / (P + N); exactly the prevalence asked for, for a standardized
        curve."""
        if self._standard is not None:
            return self._standard
        return self.n_positive / self.n

    @property
    def is_integer(self) -> bool:
        """Whether the counts are whole numbers (stored as int64)."""
        return self._tps.dtype.kind == "i"

    @property
    def alpha(self) -> np.ndarray:
        """Type-I error FP / N at ``(+inf, *thresholds)``, shape (J + 1,): starts at 0 and
        ends at 1 (both endpoints included, see the class Notes). Read-only. A
        standardized curve returns its origin's."""
        if self._origin is not None:
            return self._origin.alpha
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
        ends at 0 (both endpoints included, see the class Notes). Read-only. A
        standardized curve returns its origin's."""
        if self._origin is not None:
            return self._origin.beta
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
        A standardized curve uses its origin's points.
        """
        if self._origin is not None:
            return self._origin._geometry_points(curve)
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
            and self._standard == other._standard
            and self._is_view == other._is_view
            and (self._origin is None) == (other._origin is None)
            and (self._origin is None or self._origin == other._origin)
        )

    __hash__ = None  # type: ignore[assignment]

    def _counts_repr(self) -> str:
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
        ===============================================
                                                  value
        kind               quantity
        data               n                          4
                           positives                  2
                           negatives                  2
                           prevalence            0.5000
                           distinct thresholds        4
        area               AUC(ROC, trapezoid)   0.7500
                           AUC(PR, step)         0.8333
                           AUC(lift, step)       1.3333
                           AUC(GAIN, trapezoid)  0.6250
                           NAUC(lift, step)      0.7875
                           NAUC(GAIN, trapezoid) 0.8333
        score distribution DM_1                  0.3250
                           DM_2                  0.2963
                           DM_3                  0.2449
                           DM_entropy            0.3290
                           DM_log                0.3200
                           RUI                   0.3500
                           AURC                  0.5750
                           PUI                   0.6000
                           AUPC                  0.6833
        -----------------------------------------------
        Ties form one threshold (Fawcett 2006); each curve runs from (alpha, beta) = (0,
            1) to (1, 0).
        Area rules: trapezoid for ROC and gain, step (right-endpoint sum; average
            precision for PR) for PR and lift.
        Score-distribution measures: Chtcheprov, Krovvidy and Vera, eqs. 6, 8, 9, 13,
            14.
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
        if not self._rate_source().is_integer:
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
        title = f"Score curve (n = {self.n:g}, prevalence = {self.prevalence:.4g})"
        if self._origin is not None:
            origin = self._origin
            title = "Score curve " + standardized_note(self.prevalence, origin.prevalence, self.n)
            notes.append(
                f"Standardized from {origin!r}: the same ROC curve at prevalence "
                f"{self.prevalence:.4g}, counts re-expressed with the same n; intervals "
                f"resample the original's {_fmt_count(origin.n_positive)} positives and "
                f"{_fmt_count(origin.n_negative)} negatives, the prevalence fixed."
            )
        return Summary(
            title=title,
            table=table,
            notes=tuple(notes),
            digits=digits,
        )

    def plot(
        self,
        kind: str = "roc",
        *,
        reference: Any = None,
        band: Any = (0.05, 0.95),
        ax: Any = None,
        **kwargs: Any,
    ) -> Any:
        """The curve (pROC's ``plot(roc)``), its area in the legend, over the pointwise
        band of a curve reference and the chance level
        (:func:`opsstats.plotting.plot_curve`); returns the Axes.

        Parameters
        ----------
        kind : {"roc", "pr", "lift", "gain"}, default "roc"
        reference : CurveReference, optional
            Default the Directed Binary Tree (its first band at a prevalence takes a few
            seconds, then it is cached).
        band : (float, float) or None, default (0.05, 0.95)
            Pointwise quantiles of the reference's curves; None for the curve alone.
        ax : matplotlib.axes.Axes, optional
        **kwargs
            Passed to :func:`opsstats.plotting.plot_curve` (``chance``, ``points``) and
            the curve's line (``color``, ``label``, ...).

        Examples
        --------
        >>> import matplotlib; matplotlib.use("Agg")
        >>> import matplotlib.pyplot as plt
        >>> curve = ScoreCurve.from_scores([0, 0, 1, 1, 0, 1], [.1, .4, .35, .8, .2, .7])
        >>> ax = curve.plot(band=None)
        >>> [t.get_text() for t in ax.get_legend().get_texts()]
        ['classifier, AUC(ROC, trapezoid) = 0.889', 'chance (random classifier)']
        >>> plt.close(ax.figure)
        """
        return upcall("plot_curve")(self, kind, reference=reference, band=band, ax=ax, **kwargs)
