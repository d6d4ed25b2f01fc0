"""The result of comparing two classifiers or two test sets: :class:`ComparisonResult`,
and of comparing several at once: :class:`ComparisonTable` (docs/method.md#comparisons).
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from .._lazy import lazy_module
from .._seam import upcall
from .._summary import TEXT_WIDTH, Summary, format_unit, text_width
from .._validation import check_choice, check_digits, check_probabilities
from ..results import ConfidenceInterval

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = lazy_module("pandas")

__all__ = ["ALTERNATIVES", "ComparisonResult", "ComparisonTable"]

#: The alternative hypotheses, about the difference ``A - B``.
ALTERNATIVES = ("two-sided", "greater", "less")

_ALTERNATIVE_TEXT = {
    "two-sided": "is not equal to 0",
    "greater": "is greater than 0",
    "less": "is less than 0",
}


def _fmt(x: Any, digits: int) -> str:
    if x is None:
        return "NA"
    x = float(x)
    if np.isnan(x):
        return "NaN"
    if abs(x) < 10 ** (-digits + 1) and x != 0:
        return f"{x:.{digits}g}"
    return format_unit([x], digits)[0]  # an OPS of 0.99983 as 0.99983, not 1.0000


def _p_text(p: float, digits: int) -> str:
    if np.isnan(p):
        return "p-value = NaN"
    if p < 2.2e-16:
        return "p-value < 2.2e-16"
    return f"p-value = {p:.{digits}g}"


@dataclass(frozen=True)
class ComparisonResult:
    """The difference ``A - B`` of a quantity between two classifiers (paired: the same
    rows) or two test sets (unpaired), with its interval, a test and how both were made.

    Attributes
    ----------
    estimate : float
        The observed difference ``estimate_a - estimate_b``.
    estimate_a, estimate_b : float
        The quantity of each side.
    ci : ConfidenceInterval
        Interval of the difference (NaN ends where the method gives none).
    confidence_level : float
    p_value : float
        Of the test of "no difference" against ``alternative`` (NaN where the method
        has no test, e.g. a posterior read-out alone).
    statistic : float
        The test statistic (``statistic_name`` says which: Z, D, chi-squared, ...).
    statistic_name : str
    alternative : {"two-sided", "greater", "less"}
        About ``A - B``: "greater" is the alternative that A is better on a
        higher-is-better quantity.
    quantity : str
        What was compared, e.g. ``"AUC(ROC, trapezoid)"`` or ``"OPS of F1 score"``.
    method : str
        How the test and the interval were made.
    names : tuple of str
        The two sides' names.
    paired : bool
    counts : dict
        Rows and classes of each side (or of the shared test set).
    df : float or None
        Degrees of freedom of a t statistic.
    probability_greater : float or None
        Posterior probability that ``A - B > 0`` (Bayesian methods).
    rope : tuple of float or None
        The region of practical equivalence given by the user.
    probability_rope : float or None
        Posterior probability that the difference lies inside ``rope``.
    n_resamples, n_undefined : int or None, int
        Draws or resamples made, and those where the difference was undefined (left out,
        counted here).
    draws : ndarray or None
        The defined draws of the difference.
    details : dict

    Examples
    --------
    >>> from opsstats import compare
    >>> r = compare([0, 0, 1, 1, 0, 1, 1, 0], {"A": [.1, .4, .8, .7, .3, .9, .6, .5],
    ...                                        "B": [.2, .5, .6, .4, .1, .7, .3, .6]})
    >>> round(r.estimate, 4), r.statistic_name
    (0.2812, 'T')
    """

    estimate: float
    estimate_a: float
    estimate_b: float
    ci: ConfidenceInterval
    confidence_level: float
    p_value: float
    statistic: float
    statistic_name: str
    alternative: str
    quantity: str
    method: str
    names: tuple[str, str] = ("A", "B")
    paired: bool = True
    counts: dict[str, Any] = field(default_factory=dict)
    df: float | None = None
    probability_greater: float | None = None
    rope: tuple[float, float] | None = None
    probability_rope: float | None = None
    n_resamples: int | None = None
    n_undefined: int = 0
    draws: Any = field(default=None, repr=False, compare=False)
    details: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def low(self) -> float:
        return self.ci.low

    @property
    def high(self) -> float:
        return self.ci.high

    def to_string(self, digits: int = 4) -> str:
        """The printed test, in the layout of R's ``htest`` (pROC's ``roc.test``),
        wrapped at the terminal's width (at most 100 columns)."""
        digits = check_digits(digits)
        line_width = min(text_width(), TEXT_WIDTH)  # the terminal's, at most 100 columns
        a, b = self.names
        lines = [
            "",
            *textwrap.wrap(
                self.method, line_width - 8, initial_indent="\t", subsequent_indent="\t"
            ),
            "",
            f"data:  {self.quantity} of {a} and {b}"
            + (" (same rows)" if self.paired else " (independent test sets)"),
        ]
        stat = []
        if self.statistic_name and not np.isnan(self.statistic):
            stat.append(f"{self.statistic_name} = {_fmt(self.statistic, digits)}")
        if self.df is not None:
            df = f"{self.df:g}" if float(self.df).is_integer() else _fmt(self.df, digits)
            stat.append(f"df = {df}")
        if not np.isnan(self.p_value):
            stat.append(_p_text(self.p_value, digits))
        if stat:
            lines.append(", ".join(stat))
        lines.append(
            f"alternative hypothesis: true difference in {self.quantity} ({a} - {b}) "
            f"{_ALTERNATIVE_TEXT[self.alternative]}"
        )
        if not np.isnan(self.ci.low) or not np.isnan(self.ci.high):
            lines.append(f"{100 * self.confidence_level:g} percent confidence interval:")
            lines.append(f" {_fmt(self.ci.low, digits)} {_fmt(self.ci.high, digits)}")
        if self.probability_greater is not None:
            lines.append(
                f"posterior probability that {a} - {b} > 0: "
                f"{_fmt(self.probability_greater, digits)}"
            )
        if self.probability_rope is not None and self.rope is not None:
            lines.append(
                f"posterior probability that the difference is in [{self.rope[0]:g}, "
                f"{self.rope[1]:g}]: {_fmt(self.probability_rope, digits)}"
            )
        if self.n_undefined:
            lines.append(f"undefined in {self.n_undefined} of {self.n_resamples} draws, left out")
        lines.append("sample estimates:")
        head = [f"{self.quantity} of {a}", f"{self.quantity} of {b}", "difference"]
        vals = [_fmt(v, digits) for v in (self.estimate_a, self.estimate_b, self.estimate)]
        width = [max(len(h), len(v)) for h, v in zip(head, vals, strict=True)]
        lines.append(" ".join(h.rjust(w) for h, w in zip(head, width, strict=True)))
        lines.append(" ".join(v.rjust(w) for v, w in zip(vals, width, strict=True)))
        return "\n".join(
            wrapped
            for line in lines
            for wrapped in (textwrap.wrap(line, line_width, subsequent_indent="    ") or [""])
        )

    def __str__(self) -> str:
        return self.to_string()

    def to_frame(self) -> pd.DataFrame:
        """One row: the two sides, their values, the difference, its interval and test."""
        row: dict[str, Any] = {
            "comparison": f"{self.names[0]} - {self.names[1]}",
            "a": self.names[0],
            "b": self.names[1],
            "quantity": self.quantity,
            "estimate_a": self.estimate_a,
            "estimate_b": self.estimate_b,
            "difference": self.estimate,
            "ci_low": self.ci.low,
            "ci_high": self.ci.high,
            "confidence_level": self.confidence_level,
            "statistic": self.statistic,
            "statistic_name": self.statistic_name,
            "df": np.nan if self.df is None else self.df,
            "p_value": self.p_value,
            "alternative": self.alternative,
            "paired": self.paired,
            "method": self.method,
            "n_resamples": self.n_resamples,
            "n_undefined": self.n_undefined,
        }
        if self.probability_greater is not None:
            row["p_a_greater"] = self.probability_greater
        if self.probability_rope is not None:
            row["p_rope"] = self.probability_rope
        row.update({f"n_{k}": v for k, v in self.counts.items()})
        return pd.DataFrame([row])

    def summary(self, digits: int = 4) -> Summary:
        """A :class:`~opsstats._summary.Summary` (text, HTML, DataFrame) of the comparison."""
        frame = self.to_frame().drop(columns=["method", "a", "b", "comparison"])
        table = frame.T.rename(columns={0: f"{self.names[0]} - {self.names[1]}"})
        notes = [f"Method: {self.method}."]
        if self.n_undefined:
            notes.append(
                f"The difference was undefined in {self.n_undefined} of "
                f"{self.n_resamples} draws; those were left out."
            )
        return Summary(
            title=f"Comparison of {self.quantity}: {self.names[0]} vs {self.names[1]}",
            table=table,
            notes=tuple(notes),
            digits=digits,
        )

    def _repr_html_(self) -> str:
        return self.summary().as_html()

    def plot(self, ax: Any = None, **kwargs: Any) -> Any:
        """The difference with its interval as a one-row forest plot, a line at 0;
        returns the Axes (:func:`opsstats.plotting.plot_forest`)."""
        return _forest(self.to_frame(), ax, kwargs)


def _forest(frame: pd.DataFrame, ax: Any, kwargs: dict[str, Any]) -> Any:
    """The differences as a forest plot: the quantity and how the rows were paired in
    the title, the intervals' method in short (up to its first ";") beneath it."""
    quantity = " / ".join(dict.fromkeys(frame["quantity"]))
    paired = "same rows" if frame["paired"].all() else "independent test sets"
    level = " / ".join(f"{100 * c:g}%" for c in dict.fromkeys(frame["confidence_level"]))
    methods = "; ".join(dict.fromkeys(m.split(";")[0] for m in frame["method"]))
    method = textwrap.fill(
        f"{level} intervals: {methods}", 64, max_lines=2, placeholder=" ...", break_on_hyphens=False
    )
    title = f"Differences in {quantity} ({paired})\n{method}"
    return upcall("plot_forest")(
        frame,
        label="comparison",
        estimate="difference",
        low="ci_low",
        high="ci_high",
        null=0.0,
        title=title,
        xlabel=f"difference in {quantity} (first − second)\ndotted line at 0: no difference",
        ax=ax,
        **kwargs,
    )


@dataclass(frozen=True)
class ComparisonTable:
    """All pairwise comparisons of several classifiers: one :class:`ComparisonResult`
    per pair, with p-values adjusted for multiplicity (Holm by default, and Bonferroni).

    Attributes
    ----------
    results : tuple of ComparisonResult
    adjust : str
        The adjustment whose p-values are in ``p_adjusted``.

    Examples
    --------
    >>> from opsstats import compare
    >>> y = [0, 0, 1, 1, 0, 1, 1, 0, 1, 0]
    >>> t = compare(y, {"A": [.1, .4, .8, .7, .3, .9, .6, .5, .8, .2],
    ...                 "B": [.2, .5, .6, .4, .1, .7, .3, .6, .9, .3],
    ...                 "C": [.5, .5, .5, .6, .4, .6, .5, .5, .6, .4]})
    >>> t.to_frame()["comparison"].tolist()
    ['A - B', 'A - C', 'B - C']
    """

    results: tuple[ComparisonResult, ...]
    adjust: str = "holm"

    def to_frame(self) -> pd.DataFrame:
        """One row per pair with ``p_holm``, ``p_bonferroni`` and ``p_adjusted``."""
        frame = pd.concat([r.to_frame() for r in self.results], ignore_index=True)
        p = frame["p_value"].to_numpy(dtype=float)
        frame["p_holm"] = adjust_p_values(p, "holm")
        frame["p_bonferroni"] = adjust_p_values(p, "bonferroni")
        frame["p_adjusted"] = frame[f"p_{self.adjust}"]
        return frame

    def summary(self, digits: int = 4) -> Summary:
        frame = self.to_frame()
        cols = [
            "comparison",
            "estimate_a",
            "estimate_b",
            "difference",
            "ci_low",
            "ci_high",
            "statistic",
            "p_value",
            "p_holm",
            "p_bonferroni",
        ]
        methods = frame["method"].unique()
        return Summary(
            title=f"Pairwise comparisons of {self.results[0].quantity}",
            table=frame[cols].set_index("comparison"),
            notes=(
                f"Method: {'; '.join(methods)}.",
                f"p_holm: Holm's step-down adjustment over {len(frame)} comparisons; "
                "p_bonferroni: Bonferroni's.",
            ),
            digits=digits,
        )

    def __str__(self) -> str:
        return self.summary().as_text()

    def _repr_html_(self) -> str:
        return self.summary().as_html()

    def plot(self, ax: Any = None, **kwargs: Any) -> Any:
        """Forest plot of the differences with their intervals, a line at 0."""
        return _forest(self.to_frame(), ax, kwargs)


def one_or_table(
    results: list[ComparisonResult], adjust: str
) -> ComparisonResult | ComparisonTable:
    """The result of a single pair, or the table of several (adjusted by ``adjust``)."""
    return results[0] if len(results) == 1 else ComparisonTable(tuple(results), adjust)


def adjust_p_values(p_values: Any, method: str = "holm") -> np.ndarray:
    """Holm's step-down or Bonferroni's adjustment of p-values (NaN kept, not counted).

    ``p_values`` is a 1-D array of numbers in [0, 1] (NaN for a test that could not be
    made); ``method`` is ``"holm"`` or ``"bonferroni"``.

    Examples
    --------
    >>> adjust_p_values([0.01, 0.04, 0.03], "holm").round(4).tolist()
    [0.03, 0.06, 0.06]
    >>> adjust_p_values([0.01, 0.04, 0.03], "bonferroni").round(4).tolist()
    [0.03, 0.12, 0.09]
    """
    method = check_choice("method", method, ("holm", "bonferroni"))
    p = check_probabilities("p_values", p_values, allow_nan=True)
    out = np.full(p.shape, np.nan)
    ok = np.flatnonzero(~np.isnan(p))
    m = ok.size
    if m == 0:
        return out
    q = p[ok]
    if method == "bonferroni":
        out[ok] = np.minimum(q * m, 1.0)
        return out
    order = np.argsort(q, kind="stable")
    stepped = np.maximum.accumulate(q[order] * (m - np.arange(m)))
    res = np.empty(m)
    res[order] = np.minimum(stepped, 1.0)
    out[ok] = res
    return out
