"""Operating points of a :class:`~opsstats.curves.ScoreCurve`.

A metric read off the curve at a fixed recall, FPR, rate or top K (``value_at``, Zhao et
al., eq. 9), the confusion matrix at a threshold or for the top K rows
(``confusion_matrix``) and the best threshold by Youden's J or the closest point to the
top-left corner (``best_threshold``): the methods of the mixin
:class:`_CurveOperatingPoints`, which ``ScoreCurve`` inherits and which holds no state.
The counts at a threshold or for the top K rows are read off the curve by
``opsstats.curves._operating_points``, the best threshold found by
``opsstats.curves._best``. The examples name ``ScoreCurve``, which the repository's
``conftest.py`` puts in their namespace (this module cannot import the class that
inherits from it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._lazy import lazy_module
from .._summary import whole_frame
from .._validation import check_choice, check_threshold, describe
from ..confusion import ConfusionMatrix
from ..metrics._zero_division import check_zero_division, undefined
from . import _best as best
from . import _geometry as geo
from . import _operating_points as op
from ._curve_interface import _CurveInterface
from ._operating_points import TOP_K_TIES

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = lazy_module("pandas")

__all__: list[str] = []


class _CurveOperatingPoints(_CurveInterface):
    """Values and confusion matrices at operating points of a ``ScoreCurve``, and its best
    threshold (a mixin without state)."""

    __slots__ = ()

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
            Predict positive where score >= threshold. ``inf`` and ``-inf`` are the
            curve's two ends, nothing and everything positive (``inf`` is the first
            threshold of scikit-learn's ``roc_curve`` and of pROC's ``coords``); NaN is
            refused.
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
            For a standardized curve (:meth:`at_prevalence`), its origin's matrix at
            the threshold (or at the K rows of this curve's weights) standardized to
            the curve's prevalence.

        Examples
        --------
        >>> curve = ScoreCurve.from_scores([1, 0, 1, 0, 0], [0.9, 0.7, 0.7, 0.7, 0.1])
        >>> curve.confusion_matrix(threshold=0.7)
        ConfusionMatrix(tp=2, fp=2, fn=0, tn=1)
        >>> curve.confusion_matrix(threshold=np.inf)  # the curve's first point
        ConfusionMatrix(tp=0, fp=0, fn=2, tn=3)
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
        src = self._rate_source()  # a standardized curve: its origin's counts, then pi
        if threshold is not None:
            t = check_threshold(threshold, ends=True)
            if isinstance(t, float) and np.isinf(t):  # the ends: nothing, everything positive
                tp, fp = (0, 0) if t > 0 else (op.scalar(src._tps[-1]), op.scalar(src._fps[-1]))
            else:
                tp, fp = op.counts_at_threshold(src._thresholds, src._tps, src._fps, t)
        else:
            # K rows (weight) of this curve, the block and share found on its counts
            j, f = op.top_k_position(self._tps, self._fps, self._check_top_k(top_k), ties)
            tp, fp = op.counts_at_position(src._tps, src._fps, j, f)
        P, N = src.n_positive, src.n_negative
        cm = ConfusionMatrix(tp=tp, fp=fp, fn=P - tp, tn=N - fp)
        return cm if self._standard is None else cm.at_prevalence(self._standard)

    def best_threshold(
        self,
        method: str = "youden",
        weights: Any = (1.0, 0.5),
        *,
        fpr_range: Any = None,
        tpr_range: Any = None,
    ) -> pd.DataFrame:
        """The best threshold(s): Youden's J or the point closest to the top-left corner,
        as pROC's ``coords(x="best", best.method=, best.weights=)``, optionally among the
        points of a partial-AUC range only.

        Parameters
        ----------
        method : {"youden", "closest.topleft"}
            Maximize se + r sp (Youden's J + 1 for r = 1) or minimize (1 - se)**2 +
            r (1 - sp)**2.
        weights : (cost, prevalence), default (1, 0.5)
            pROC's ``best.weights``: the cost of a false negative relative to a false
            positive and the prevalence; r = (1 - prevalence) / (cost * prevalence).
        fpr_range, tpr_range : (low, high), optional
            Search only the points whose false positive rate (or true positive rate)
            lies in ``[low, high]``, ends included: what pROC's ``coords(r, x="best")``
            does for a roc object made with ``partial.auc=`` (``fpr_range=(0, 0.2)`` is
            ``partial.auc=c(1, 0.8)``, ``partial.auc.focus="specificity"``;
            ``tpr_range=(0.8, 1)`` is the same with ``"sensitivity"``), the ranges of
            :meth:`partial_auc`. At most one of the two.

        Returns
        -------
        pandas.DataFrame
            One row per tied optimum, in increasing threshold order (as pROC), which
            prints every column: ``threshold`` (predict positive where score >= it;
            ``inf`` for nothing positive), ``threshold_midpoint`` (pROC's threshold:
            midway to the next lower score, ``-inf`` for everything positive),
            ``sensitivity``, ``specificity``, ``tp``, ``fp``, ``tn``, ``fn``, ``youden``
            (Youden's J, sensitivity + specificity - 1), ``proc_youden`` (pROC's
            ``youden`` column, the criterion maximized: se + r sp, J + 1 for the
            default weights) and ``closest_topleft`` ((1 - se)**2 + r (1 - sp)**2, as
            pROC's column).

        Raises
        ------
        ValueError
            When no point of the curve lies in the range (pROC returns NULL with a
            warning).

        Notes
        -----
        docs/method.md#vocabulary. Before, the ``youden`` column held pROC's sum
        se + r sp; it is now Youden's J, and the sum is ``proc_youden``. Bootstrap
        intervals for the threshold and the coordinates at it:
        :func:`opsstats.uncertainty.curve.best.best_threshold_interval` (pROC's
        ``ci.coords(x="best")``) and
        :func:`opsstats.uncertainty.curve.best.threshold_interval` (``ci.thresholds``).

        Examples
        --------
        >>> curve = ScoreCurve.from_scores([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.5])
        >>> curve.best_threshold()[["threshold", "sensitivity", "specificity", "youden"]]
           threshold  sensitivity  specificity    youden
        0       0.35     1.000000     0.666667  0.666667
        1       0.50     0.666667     1.000000  0.666667
        >>> curve.best_threshold(fpr_range=(0, 0.1))[["threshold", "sensitivity", "youden"]]
           threshold  sensitivity    youden
        0        0.5     0.666667  0.666667
        """
        method, r = best.check_best(method, weights)
        P, N = self.n_positive, self.n_negative
        tp = np.concatenate(([0], self._tps))
        fp = np.concatenate(([0], self._fps))
        src = self._rate_source()  # sensitivity and specificity: of the origin's counts
        se = np.concatenate(([0], src._tps)) / src.n_positive
        sp = (src.n_negative - np.concatenate(([0], src._fps))) / src.n_negative
        valid = best.in_range(se, sp, fpr_range, tpr_range)
        if not valid.any():
            raise ValueError(
                f"no point of the curve has its {best.range_text(fpr_range, tpr_range)}, so "
                "there is no best threshold there (pROC returns NULL); widen the range."
            )
        rows = np.flatnonzero(best.optimal(method, r, se, sp, valid))[::-1]  # increasing threshold
        thr = np.concatenate(([np.inf], self._thresholds.astype(float)))
        return whole_frame(
            {
                "threshold": thr[rows],
                "threshold_midpoint": best.proc_thresholds(self._thresholds)[rows],
                "sensitivity": se[rows],
                "specificity": sp[rows],
                "tp": tp[rows],
                "fp": fp[rows],
                "tn": (N - fp)[rows],
                "fn": (P - tp)[rows],
                "youden": se[rows] + sp[rows] - 1.0,
                "proc_youden": best.criterion("youden", r, se[rows], sp[rows]),
                "closest_topleft": best.criterion("closest.topleft", r, se[rows], sp[rows]),
            }
        )
