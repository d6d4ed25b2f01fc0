"""The coordinates of a :class:`~opsstats.curves.ScoreCurve`'s curves as tables.

The points of the ROC, precision-recall, lift and gain curves (``curve``, ``roc``,
``pr``, ``lift``, ``gain``), of scikit-learn's ``roc_curve`` (``roc_points``) and
``det_curve`` (``det``), and the binormal smoothing of the ROC curve (``smooth``): the
methods of the mixin :class:`_CurveCoordinates`, which ``ScoreCurve`` inherits and which
holds no state. The coordinates come from the shared geometry of
:mod:`opsstats.curves._geometry` (docs/method.md#empirical-curves) and from
``opsstats.curves._points``. The examples name ``ScoreCurve``, which the repository's
``conftest.py`` puts in their namespace (this module cannot import the class that
inherits from it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._lazy import lazy_module
from .._validation import check_1d, check_choice, describe
from . import _geometry as geo
from . import _points as points
from ._counting import class_mask
from ._curve_interface import _CurveInterface
from .smooth import BinormalSmooth, binormal_smooth

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = lazy_module("pandas")

__all__: list[str] = []

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


class _CurveCoordinates(_CurveInterface):
    """The curves of a ``ScoreCurve`` as DataFrames of points (a mixin without state)."""

    __slots__ = ()

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
        if drop_intermediate:  # the turns of the ROC curve: of the origin's counts
            src = self._rate_source()
            rows = np.concatenate(([0], 1 + points.intermediate_kept(src._tps, src._fps)))
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
        src = self._rate_source()  # FPR and FNR: of a standardized curve's origin
        return points.det_points(
            src._thresholds,
            src._tps,
            src._fps,
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
