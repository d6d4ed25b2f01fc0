"""Each label on its own: the private base class of :class:`~opsstats.multilabel.MultiLabel`
that gives the number of rows, each label's class totals, confusion matrix and curve, the
pooled (micro) confusion matrix, and the tidy per-label table of several metrics
(``MultiLabel.evaluate``); and a count as a Python number."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._lazy import lazy_module
from .._validation import check_choice, check_confidence_level, check_resamples
from ..confusion import ConfusionMatrix
from ..curves.score_curve import ScoreCurve
from ..grouped import COLUMNS, evaluate_unit, evaluation_class, parse_metrics
from ..ops import _check_reference, default_reference
from ..uncertainty._draws import root_seed

if TYPE_CHECKING:
    import pandas as pd

    from ..grouped import Evaluation
else:
    pd = lazy_module("pandas")


class _PerLabel:
    """The per-label quantities of :class:`~opsstats.multilabel.MultiLabel` (its private
    base class), computed from the rows it holds."""

    labels: list[Any]
    truth: np.ndarray
    pred: np.ndarray | None
    score: np.ndarray | None
    sample_weight: np.ndarray | None

    @property
    def n(self) -> int | float:
        """The number of rows: the total weight when weighted (an ``int`` when whole)."""
        if self.sample_weight is None:
            return int(self.truth.shape[0])
        return _scalar(self.sample_weight.sum())

    def _class_totals(self) -> tuple[np.ndarray, np.ndarray]:
        """Positives and negatives per label (sums of weights when weighted)."""
        if self.sample_weight is None:
            pos = self.truth.sum(0)
            return pos, self.truth.shape[0] - pos
        w = self.sample_weight
        return w @ self.truth, w @ ~self.truth

    def confusion_matrices(self) -> dict[Any, ConfusionMatrix]:
        """One confusion matrix per label (needs predicted labels)."""
        if self.pred is None:
            raise ValueError(
                "confusion-matrix metrics need predicted labels: build with "
                "`from_predictions`, or `from_scores(..., threshold=t)`."
            )
        t, p = self.truth, self.pred
        if self.sample_weight is None:
            counts = [(t & p).sum(0), (~t & p).sum(0), (t & ~p).sum(0), (~t & ~p).sum(0)]
            counts = [c.astype(int) for c in counts]
        else:
            w = self.sample_weight[:, None]
            counts = [
                (w * (t & p)).sum(0),
                (w * (~t & p)).sum(0),
                (w * (t & ~p)).sum(0),
                (w * (~t & ~p)).sum(0),
            ]
        return {
            lab: ConfusionMatrix(
                tp=counts[0][j].item(),
                fp=counts[1][j].item(),
                fn=counts[2][j].item(),
                tn=counts[3][j].item(),
            )
            for j, lab in enumerate(self.labels)
        }

    def curves(self) -> dict[Any, Any]:
        """One :class:`~opsstats.ScoreCurve` per label with both classes (needs scores)."""
        if self.score is None:
            raise ValueError("curve quantities need scores: build with `from_scores`.")
        out = {}
        pos, neg = self._class_totals()
        for j, lab in enumerate(self.labels):
            if pos[j] > 0 and neg[j] > 0:
                out[lab] = ScoreCurve.from_scores(
                    self.truth[:, j], self.score[:, j], sample_weight=self.sample_weight
                )
        return out

    def micro(self) -> ConfusionMatrix:
        """The pooled (micro) confusion matrix: every label's counts added up."""
        cms = self.confusion_matrices().values()
        return ConfusionMatrix(
            tp=sum(c.tp for c in cms),
            fp=sum(c.fp for c in cms),
            fn=sum(c.fn for c in cms),
            tn=sum(c.tn for c in cms),
        )

    def evaluate(
        self,
        metrics: Any = ("f1",),
        *,
        ci: str | None = None,
        confidence_level: float = 0.95,
        n_resamples: int = 1000,
        point_reference: Any = None,
        curve_reference: Any = None,
        rng: Any = None,
    ) -> Evaluation:
        """The tidy per-label table for several metrics (label column first), each label
        evaluated on its own, as :func:`opsstats.evaluate` does for groups: an
        :class:`~opsstats.grouped.Evaluation`, which prints as a readable table and has
        ``summary()``, ``to_frame()`` and ``plot()``."""
        specs = parse_metrics(metrics)
        if ci is not None:
            ci = check_choice("ci", ci, ("dirichlet", "bootstrap"))
        confidence_level = check_confidence_level(confidence_level)
        n_resamples = check_resamples(n_resamples)
        if point_reference is not None:  # checked whether or not a metric of its kind is asked
            _check_reference(
                point_reference, "point", "confusion-matrix metrics", "point_reference"
            )
        if curve_reference is not None:
            _check_reference(curve_reference, "curve", "curve quantities", "curve_reference")
        root = root_seed(rng)
        cms = self.confusion_matrices() if self.pred is not None else {}
        curves = self.curves() if self.score is not None else {}
        curve_specs = [(sp.name, sp.at) if sp.at else sp.name for sp in specs if sp.kind == "curve"]
        if curve_specs and curves:  # every label in one pass over the reference curves
            if curve_reference is None:
                curve_reference = default_reference("curve")
            if hasattr(curve_reference, "precompute"):
                curve_reference.precompute(curve_specs, [c.prevalence for c in curves.values()])
        rows = []
        pos, neg = self._class_totals()
        for j, lab in enumerate(self.labels):
            weighted = self.sample_weight is not None
            for r in evaluate_unit(
                specs,
                cm=cms.get(lab),
                curve=curves.get(lab),
                ci=ci,
                confidence_level=confidence_level,
                n_resamples=n_resamples,
                point_reference=point_reference,
                curve_reference=curve_reference,
                root=root,
                key=(lab,),
                truth=None if weighted else self.truth[:, j],
                class_counts=(_scalar(pos[j]), _scalar(neg[j])) if weighted else None,
            ):
                rows.append({"label": lab, **r})
        out = evaluation_class()(pd.DataFrame(rows, columns=["label", *COLUMNS]))
        out.attrs["confusion_matrices"] = {(lab,): cm for lab, cm in cms.items()}
        out.attrs["title"] = f"Per-label evaluation of {len(self.labels)} labels"
        out.attrs["confidence_level"] = None if ci is None else confidence_level
        return out


def _scalar(x: Any) -> int | float:
    """A count as a Python number: ``int`` when it is a whole number."""
    value = x.item() if isinstance(x, np.generic) else x
    if isinstance(value, float) and value.is_integer() and abs(value) < 2.0**53:
        return int(value)
    return value
