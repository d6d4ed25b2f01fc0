"""Result objects: frozen, with the numbers and how they were made."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple, cast

import numpy as np

from ._lazy import lazy_module
from ._seam import upcall
from ._summary import Summary, format_unit, wrap_line
from ._validation import check_digits

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = lazy_module("pandas")

__all__ = ["ConfidenceInterval", "OPSResult", "IntervalResult"]


class ConfidenceInterval(NamedTuple):
    """A (low, high) confidence or credible interval.

    Examples
    --------
    >>> ci = ConfidenceInterval(0.12, 0.34)
    >>> ci.low, ci.high
    (0.12, 0.34)
    """

    low: float
    high: float


class _PlotsDraws:
    """``plot()`` for results that carry draws (posterior or bootstrap)."""

    def plot(self, ax: Any = None, **kwargs: Any) -> Any:
        """The posterior or bootstrap distribution of the draws, with the estimate and
        the interval marked (:func:`opsstats.plotting.plot_distribution`); returns the
        Axes."""
        return upcall("plot_distribution")(self, ax=ax, **kwargs)


def _num(x: Any, digits: int) -> str:
    return f"{x:.{digits}g}" if isinstance(x, float) else str(x)


@dataclass(frozen=True)
class OPSResult(_PlotsDraws):
    """The outperformance score of an observed metric value.

    Attributes
    ----------
    estimate : float or ndarray
        The OPS (o-value), in [0, 1]; higher is better.
    value : float or ndarray
        The observed metric value that was ranked.
    prevalence : float or ndarray
        The test set's prevalence the value was standardized against.
    metric : str
        What was ranked, e.g. ``"F1 score"`` or ``"AUC(PR, step)"``.
    reference : str
        The reference distribution, e.g. ``"Uniform(alpha, beta)"``.
    method : str
        ``"exact"`` or ``"Monte Carlo"`` (with details).
    standard_error : float or ndarray
        Monte Carlo standard error of ``estimate`` (0 when exact).
    rule : str or None
        The AUC rule, for curve areas.
    ties : str
        ``"strict"`` or ``"mid"``.
    ci : ConfidenceInterval or None
        Interval for the OPS when one was asked for.
    confidence_level : float or None
    ci_method : str or None
        How the interval was made.
    details : dict
        Further facts (draws, undefined resamples, ...).

    Examples
    --------
    >>> from opsstats import Uniform
    >>> r = Uniform().ops("recall", 0.8, prevalence=0.3)
    >>> r.estimate, r.standard_error, r.is_exact
    (0.8, 0.0, True)
    """

    estimate: Any
    value: Any
    prevalence: Any
    metric: str
    reference: str
    method: str
    standard_error: Any = 0.0
    rule: str | None = None
    ties: str = "strict"
    ci: ConfidenceInterval | None = None
    confidence_level: float | None = None
    ci_method: str | None = None
    details: dict[str, Any] = field(default_factory=dict)

    def __float__(self) -> float:
        return float(self.estimate)

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return np.asarray(self.estimate, dtype=dtype)

    @property
    def is_exact(self) -> bool:
        return bool(np.all(np.asarray(self.standard_error) == 0))

    def _how(self, digits: int) -> str:
        parts = [self.reference, self.method]
        if self.rule:
            parts.append(f"{self.rule} rule")
        if (
            not self.is_exact
            and np.ndim(self.standard_error) == 0
            and np.isfinite(self.standard_error)
        ):
            parts.append(f"MC s.e. {self.standard_error:.2g}")
        if self.ties != "strict":
            parts.append(f"ties {self.ties}")
        return "; ".join(parts)

    def to_string(self, digits: int = 4) -> str:
        """One line that says the number and how it was made; the OPS and its interval
        with ``digits`` decimals, more where one is within ``10 ** -(digits - 1)`` of 0
        or 1 (:func:`~opsstats._summary.unit_decimals`): 0.99983 prints as 0.99983."""
        digits = check_digits(digits)
        if np.ndim(self.estimate) != 0:
            n = np.size(self.estimate)
            return f"OPS of {n} values of {self.metric} ({self._how(digits)}); see .to_frame()"
        # the OPS and its interval with decimals enough to tell them from 0 and 1
        ends = [] if self.ci is None else [self.ci.low, self.ci.high]
        est, *ci = format_unit([self.estimate, *ends], digits)
        line = (
            f"OPS({self.metric} = {_num(self.value, digits)} at prevalence "
            f"{_num(self.prevalence, digits)}) = {est}"
        )
        if self.ci is not None:
            line += (
                f", {100 * cast(float, self.confidence_level):g}% CI {ci[0]}-{ci[1]} "
                f"({self.ci_method})"
            )
        return f"{line} [{self._how(digits)}]"

    def __str__(self) -> str:
        """:meth:`to_string` wrapped at the terminal's width, at most 100 columns."""
        return wrap_line(self.to_string())

    def to_frame(self) -> pd.DataFrame:
        """One row per value: value, prevalence, ops, standard_error (and the interval)."""
        frame = pd.DataFrame(
            {
                "metric": self.metric,
                "value": np.atleast_1d(self.value),
                "prevalence": np.atleast_1d(self.prevalence),
                "ops": np.atleast_1d(self.estimate),
                "standard_error": np.atleast_1d(self.standard_error),
            }
        )
        if self.ci is not None:
            frame["ci_low"], frame["ci_high"] = self.ci.low, self.ci.high
            frame["confidence_level"] = self.confidence_level
            frame["ci_method"] = self.ci_method
        frame["reference"] = self.reference
        frame["method"] = self.method
        if self.rule:
            frame["rule"] = self.rule
        return frame

    def summary(self, digits: int = 4) -> Summary:
        """A :class:`~opsstats._summary.Summary` of this result."""
        notes = [f"Reference: {self.reference}.", f"Method: {self.method}."]
        if not self.is_exact:
            notes.append(
                "standard_error is the Monte Carlo standard error of the OPS "
                "from the finite reference sample."
            )
        if self.ci is not None:
            notes.append(f"Interval: {self.ci_method}.")
        return Summary(
            title=f"Outperformance score of {self.metric}",
            table=self.to_frame().drop(columns=["reference", "method"]),
            notes=tuple(notes),
            digits=digits,
        )

    def _repr_html_(self) -> str:
        return self.summary().as_html()


@dataclass(frozen=True)
class IntervalResult(_PlotsDraws):
    """A point estimate with a confidence (or credible) interval, and how it was made.

    Attributes
    ----------
    estimate : float
        The point estimate from the data (not the mean of the draws).
    ci : ConfidenceInterval
        (low, high).
    confidence_level : float
    quantity : str
        What the interval is for, e.g. ``"F1 score"`` or ``"alpha (FPR)"``.
    method : str
        How the interval was made, e.g. ``"Dirichlet-multinomial, Jeffreys prior,
        10000 draws, prevalence fixed, equal-tailed"``.
    n_resamples : int or None
        Number of draws or bootstrap resamples (None for closed-form intervals).
    n_undefined : int
        Draws or resamples in which the quantity was undefined (0/0); they are left
        out of the interval and reported here, never silently dropped.
    prevalence_mode : str or None
        ``"fixed"`` or ``"random"`` (None where it does not apply).
    draws : ndarray or None
        The defined draws (posterior or bootstrap distribution), for plots.
    details : dict

    Examples
    --------
    >>> from opsstats import ConfusionMatrix
    >>> r = ConfusionMatrix(tp=40, fp=10, fn=10, tn=140).interval("beta", method="wilson")
    >>> round(r.estimate, 2), round(r.ci.low, 4), r.method
    (0.2, 0.1124, 'Wilson score')
    """

    estimate: float
    ci: ConfidenceInterval
    confidence_level: float
    quantity: str
    method: str
    n_resamples: int | None = None
    n_undefined: int = 0
    prevalence_mode: str | None = None
    draws: Any = field(default=None, repr=False, compare=False)
    details: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def low(self) -> float:
        return self.ci.low

    @property
    def high(self) -> float:
        return self.ci.high

    def to_string(self, digits: int = 4) -> str:
        """E.g. ``F1 score = 0.6366, 95% CI 0.6051-0.6667 (Dirichlet-multinomial, ...)``;
        more decimals where a number of (0, 1) is near 0 or 1
        (:func:`~opsstats._summary.unit_decimals`)."""
        digits = check_digits(digits)
        est, low, high = format_unit([self.estimate, self.ci.low, self.ci.high], digits)
        text = (
            f"{self.quantity} = {est}, "
            f"{100 * self.confidence_level:g}% CI {low}-{high} ({self.method})"
        )
        if self.n_undefined:
            text += (
                f"; undefined in {self.n_undefined} of {self.n_resamples} "
                f"{'draws' if 'draws' in self.method else 'resamples'}, left out"
            )
        return text

    def __str__(self) -> str:
        """:meth:`to_string` wrapped at the terminal's width, at most 100 columns."""
        return wrap_line(self.to_string())

    def to_frame(self) -> pd.DataFrame:
        """One row: quantity, estimate, ci_low, ci_high, confidence_level, method, ..."""
        return pd.DataFrame(
            [
                {
                    "quantity": self.quantity,
                    "estimate": self.estimate,
                    "ci_low": self.ci.low,
                    "ci_high": self.ci.high,
                    "confidence_level": self.confidence_level,
                    "method": self.method,
                    "n_resamples": self.n_resamples,
                    "n_undefined": self.n_undefined,
                    "prevalence_mode": self.prevalence_mode,
                }
            ]
        )

    def summary(self, digits: int = 4) -> Summary:
        notes = [f"Interval: {self.method}."]
        if self.n_undefined:
            notes.append(
                f"The quantity was undefined (0/0) in {self.n_undefined} of "
                f"{self.n_resamples}; those were left out of the interval."
            )
        return Summary(
            title=f"Interval for {self.quantity}",
            table=self.to_frame().drop(columns=["method"]),
            notes=tuple(notes),
            digits=digits,
        )

    def _repr_html_(self) -> str:
        return self.summary().as_html()
