"""The areas under a :class:`~opsstats.curves.ScoreCurve`'s curves.

The areas under the ROC, precision-recall, lift and gain curves and their normalized
forms (``auc``, ``nauc``), the partial ROC area (``partial_auc``), the Gini coefficient
(``gini``) and the equal error rate (``eer``): the methods of the mixin
:class:`_CurveAreas`, which ``ScoreCurve`` inherits and which holds no state. Each is
computed by the shared geometry of :mod:`opsstats.curves._geometry`
(docs/method.md#auc-rules), the same code that evaluates the reference curves. The
examples name ``ScoreCurve``, which the repository's ``conftest.py`` puts in their
namespace (this module cannot import the class that inherits from it).
"""

from __future__ import annotations

from typing import Any

from .._validation import check_choice
from . import _geometry as geo
from ._curve_interface import _CurveInterface
from ._partial import parse_partial

__all__: list[str] = []


class _CurveAreas(_CurveInterface):
    """The areas of a ``ScoreCurve`` (a mixin without state)."""

    __slots__ = ()

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
