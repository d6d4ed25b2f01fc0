"""A scikit-learn style display: a ROC, PR, lift or gain curve over the reference band,
with the OPS of its area and the interval in the legend."""

from __future__ import annotations

from typing import Any

import numpy as np

from opsstats._labels import check_label_kinds
from opsstats._validation import check_1d, check_choice, check_instance, describe
from opsstats.curves._geometry import CURVES
from opsstats.curves.score_curve import ScoreCurve
from opsstats.ops import _check_reference
from opsstats.plotting._axes import ops_label
from opsstats.plotting.curve import plot_curve
from opsstats.plotting.standardized_curve import plot_standardized_curve

from ._response import scores_of

__all__ = ["OPSCurveDisplay"]


class OPSCurveDisplay:
    """A classifier's curve over the reference band, with the OPS of its area.

    Build it with :meth:`from_estimator` or :meth:`from_predictions` (as scikit-learn's
    ``RocCurveDisplay``), then :meth:`plot` draws it and stores ``ax_``, ``figure_`` and
    ``line_``. Several classifiers go on one Axes by passing ``ax=`` (and ``band=None``
    after the first, to draw the band once). The legend goes below the Axes of the
    figure the display makes (constrained layout), so that ``figure_.savefig(...)``
    keeps it; on Axes of a figure without a layout engine it goes inside them.

    Parameters
    ----------
    curve : ScoreCurve
    kind : {"pr", "roc", "lift", "gain"}
    ops : OPSResult
        The OPS of the curve's area, with its interval.
    name : str, optional
        The classifier's name in the legend.
    reference : CurveReference, optional
        The reference of the band and the OPS (default the DBT).

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> import numpy as np
    >>> from opsstats import DirectedBinaryTree
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(400) < 0.2
    >>> d = OPSCurveDisplay.from_predictions(y, rng.normal(y * 1.2, 1), kind="roc",
    ...     name="model", reference=DirectedBinaryTree(depth=5, n_curves=2000), rng=0)
    >>> d.line_.get_label()  # doctest: +ELLIPSIS
    'model: AUC(ROC, trapezoid) = 0.8..., OPS 0.9... (95% CI 0.9...-0.9...)'
    """

    def __init__(
        self,
        curve: ScoreCurve,
        kind: str,
        ops: Any,
        name: str | None = None,
        reference: Any = None,
    ):
        self.curve = check_instance("curve", curve, ScoreCurve)
        if reference is not None:
            _check_reference(reference, "curve", "a curve's OPS")
        self.reference = reference
        self.kind = check_choice("kind", kind, CURVES)
        self.ops = ops
        self.name = name

    @classmethod
    def from_predictions(
        cls,
        y_true: Any,
        y_score: Any,
        *,
        kind: str = "pr",
        pos_label: Any = None,
        sample_weight: Any = None,
        name: str | None = None,
        reference: Any = None,
        confidence_level: float = 0.95,
        rng: Any = None,
        ax: Any = None,
        plot: bool = True,
        **kwargs: Any,
    ) -> OPSCurveDisplay:
        """From true labels and scores; draws it unless ``plot=False`` (``kwargs`` go to
        :meth:`plot`)."""
        kind = check_choice("kind", kind, CURVES)
        curve = ScoreCurve.from_scores(
            y_true, y_score, pos_label=pos_label, sample_weight=sample_weight
        )
        ops = curve.ops(
            f"{kind}_auc",
            reference=reference,
            ci="auto",
            confidence_level=confidence_level,
            rng=rng,
        )
        display = cls(curve, kind, ops, name, reference)
        if plot:
            display.plot(ax=ax, **kwargs)
        return display

    @classmethod
    def from_estimator(
        cls,
        estimator: Any,
        X: Any,
        y: Any,
        *,
        kind: str = "pr",
        pos_label: Any = None,
        response_method: Any = ("predict_proba", "decision_function"),
        name: str | None = None,
        **kwargs: Any,
    ) -> OPSCurveDisplay:
        """From a fitted classifier and test data (the scores as scikit-learn's
        displays take them: the positive class's column of ``predict_proba``, or
        ``decision_function``)."""
        y = check_1d("y", y)
        classes = list(getattr(estimator, "classes_", []))
        pos = classes[-1] if pos_label is None and classes else pos_label
        if classes and pos not in classes:
            raise ValueError(
                f"`pos_label` must be one of the estimator's classes {describe(classes)}; got "
                f"{describe(pos_label)}."
            )
        scores = scores_of(estimator, X, pos, response_method)
        if len(scores) != len(y):
            raise ValueError(
                f"`X` and `y` must have one row per instance; got {len(scores)} and {len(y)}."
            )
        check_label_kinds([("y", y)])
        positive = y == pos
        if positive.all() or not positive.any():
            raise ValueError(
                f"`y` must hold both classes (the positive class {describe(pos)} and another); "
                f"got {describe(np.unique(y).tolist())}."
            )
        return cls.from_predictions(
            y, scores, kind=kind, pos_label=pos, name=name or type(estimator).__name__, **kwargs
        )

    def plot(
        self,
        ax: Any = None,
        *,
        name: str | None = None,
        band: Any = (0.05, 0.95),
        standardized: bool = False,
        **kwargs: Any,
    ) -> OPSCurveDisplay:
        """Draw the curve over the band; returns the display with ``ax_``, ``figure_``
        and ``line_`` set.

        ``standardized=True`` draws the standardized curve instead: the OPS of the
        precision along the recall (OPRC) for ``kind="pr"``, the OPS of the lift along
        the rate for ``kind="lift"`` (:func:`opsstats.plotting.plot_standardized_curve`).
        """
        ci = self.ops.ci
        label = ops_label(
            name or self.name or "classifier",
            self.ops.metric,
            self.ops.value,
            self.ops.estimate,
            None if ci is None else (ci.low, ci.high),
            self.ops.confidence_level,
        )
        if standardized:
            return self._plot_standardized(ax, label, kwargs)
        before = len(ax.get_lines()) if ax is not None else 0
        if ax is not None:  # another model on these Axes: its own colour, one chance line
            shown = sum(", OPS " in line.get_label() for line in ax.get_lines())
            kwargs.setdefault("color", f"C{shown}")
            kwargs.setdefault("chance", False)
        self.ax_ = plot_curve(
            self.curve,
            self.kind,
            reference=self.reference,
            band=band,
            ax=ax,
            label=label,
            **kwargs,
        )
        self.figure_ = self.ax_.figure
        self.line_ = next(
            line for line in self.ax_.get_lines()[before:] if line.get_label() == label
        )
        return self

    def _plot_standardized(self, ax: Any, label: str, kwargs: dict[str, Any]) -> OPSCurveDisplay:
        if self.kind not in ("pr", "lift"):
            raise ValueError(
                f"`standardized` curves are drawn for kind 'pr' (OPRC) and 'lift'; got "
                f"{self.kind!r}."
            )
        metric, axis = ("precision", "recall") if self.kind == "pr" else ("lift", "rate")
        if ax is not None:
            shown = sum(", OPS " in str(c.get_label()) for c in ax.containers)
            kwargs.setdefault("color", f"C{shown}")
        self.ax_ = plot_standardized_curve(
            self.curve, metric, axis, reference=self.reference, ax=ax, label=label, **kwargs
        )
        self.figure_ = self.ax_.figure
        # the label gets a second line: the bars' largest half-width
        self.line_ = next(
            c for c in self.ax_.containers if c.get_label().startswith(label + "\n")
        ).lines[0]
        return self
