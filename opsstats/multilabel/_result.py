"""The result of ``MultiLabel.ops``: :class:`~opsstats.multilabel.MultiLabelOPS`, the
per-label OPS of one metric and their aggregate, with its text, HTML and DataFrame
summaries and its forest plot."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from .._lazy import lazy_module
from .._seam import upcall
from .._summary import Summary, format_unit
from .._validation import check_digits
from ..results import ConfidenceInterval, OPSResult

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = lazy_module("pandas")


@dataclass(frozen=True)
class MultiLabelOPS:
    """Per-label OPS of one metric and their aggregate.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per label (the tidy columns of :func:`opsstats.evaluate`, plus
        ``weight``, the label's weight in the aggregate, 0 for excluded labels).
    average : str or None
    estimate : float
        The aggregate OPS (NaN when ``average`` is None).
    ci : ConfidenceInterval or None
    ci_method : str or None
    standard_error : float
        Monte Carlo standard error of the aggregate (0 for exact references). For curve
        references the labels share one set of reference curves, so their errors are
        positively correlated; the reported value is the bound sum_l w_l s.e._l.
    excluded : tuple
        Labels left out of the aggregate (undefined OPS), with a warning.
    micro : OPSResult or None
        OPS of the pooled (micro) confusion matrix: a different quantity, the OPS of
        one confusion matrix that adds up every label's counts.

    Examples
    --------
    >>> import numpy as np
    >>> from opsstats import MultiLabel
    >>> rng = np.random.default_rng(0)
    >>> Y = rng.random((400, 2)) < [0.2, 0.5]
    >>> res = MultiLabel.from_predictions(Y, Y).ops("f1", average="macro")
    >>> res.estimate, list(res.table["ops"])
    (1.0, [1.0, 1.0])
    """

    metric: str
    table: pd.DataFrame
    average: str | None
    estimate: float
    reference: str
    standard_error: float = 0.0
    ci: ConfidenceInterval | None = None
    confidence_level: float | None = None
    ci_method: str | None = None
    excluded: tuple = ()
    micro: OPSResult | None = None
    details: dict[str, Any] = field(default_factory=dict)

    def to_frame(self) -> pd.DataFrame:
        """The per-label table (a copy)."""
        return self.table.copy()

    def to_string(self, digits: int = 4) -> str:
        digits = check_digits(digits)
        if self.average is None:
            return f"OPS of {self.metric} for {len(self.table)} labels (no aggregate)"
        ends = [] if self.ci is None else [self.ci.low, self.ci.high]
        est, *ci = format_unit([self.estimate, *ends], digits)  # 0.99983, not 1.0000
        text = (
            f"{self.average} OPS({self.metric}) over {len(self.table) - len(self.excluded)}"
            f" labels = {est}"
        )
        if self.ci is not None:
            text += (
                f", {100 * cast(float, self.confidence_level):g}% CI {ci[0]}-{ci[1]} "
                f"({self.ci_method})"
            )
        text += f" [{self.reference}]"
        if self.excluded:
            text += f"; excluded (undefined): {', '.join(map(str, self.excluded))}"
        return text

    def __str__(self) -> str:
        return self.to_string()

    def summary(self, digits: int = 4) -> Summary:
        notes = [self.to_string(digits)]
        if self.micro is not None:
            pooled = (
                f" It pools every label, including those left out of the aggregate "
                f"({', '.join(map(str, self.excluded))})."
                if self.excluded
                else ""
            )
            notes.append(
                f"Micro (pooled confusion matrix), a different quantity: {self.micro}.{pooled}"
            )
        if self.ci_method:
            notes.append(f"Intervals: {self.ci_method}.")
        cols = [
            "label",
            "n",
            "prevalence",
            "value",
            "ops",
            "ops_ci_low",
            "ops_ci_high",
            "weight",
            "reason",
        ]
        return Summary(
            title=f"Per-label OPS of {self.metric}",
            table=self.table[cols].set_index("label"),
            notes=tuple(notes),
            digits=digits,
        )

    def _repr_html_(self) -> str:
        return self.summary().as_html()

    def plot(self, ax: Any = None, **kwargs: Any) -> Any:
        """Forest plot of the per-label OPS with their intervals
        (:func:`opsstats.plotting.plot_forest`); returns the Axes."""
        return upcall("plot_forest")(self.table, label="label", ax=ax, **kwargs)
