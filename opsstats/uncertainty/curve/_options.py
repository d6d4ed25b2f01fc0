"""What every curve interval method shares: the names of the methods and of their
intervals, the checks of the options, the logit-t interval, the result of a run of
draws and the observed value.

The options are checked once, before any method runs (:func:`_check_options`). Every
method needs whole-number counts (unweighted rows, or integer frequency weights;
:func:`_check_whole_counts`).

The logit-t intervals (of DeLong's variance, of the jackknife's and of the bootstrap)
are ``expit(logit(estimate) -+ t * se)`` for a ROC or PR area (:func:`_logit_t`). At an
estimate of exactly 0 or 1, where no logit exists, the logit-t intervals are one-sided:
``[((1 - level) / 2) ** (1 / k), 1]``, k the smaller class's size. With fewer than
``SMALL_CLASS`` rows in the smaller class they warn (:func:`_check_logit_t`).
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from ..._lazy import lazy_module
from ..._progress import check_progress
from ..._validation import check_choice, check_instance, check_resamples, describe
from ...curves import _geometry as geo
from ...curves._geometry import CurveArea, CurveQuantity
from ...curves.score_curve import ScoreCurve
from ...exceptions import SmallCountWarning
from .._draws import at_positions, quantile_positions

if TYPE_CHECKING:
    from scipy import special
else:
    special = lazy_module("scipy.special")

__all__ = ["METHODS"]

METHODS = ("auto", "bootstrap", "delong", "dirichlet", "jackknife")

DEFAULT_RESAMPLES = 2000

_KINDS = {
    "bootstrap": ("percentile", "bca", "logit-t"),
    "delong": ("normal", "logit-t"),
    "dirichlet": ("equal-tailed", "bias-extended"),
    "jackknife": ("normal", "logit-t"),
}

#: Below this many rows in the smaller class the logit-t intervals warn
#: (SmallCountWarning): with so few rows their coverage depends on the shape of the
#: score distributions (benchmarks/results/coverage_shapes.md)
SMALL_CLASS = 10


# ------------------------------------------------------------------------ options
def _check_bool(name: str, value: Any) -> bool:
    if not isinstance(value, bool | np.bool_):
        raise TypeError(f"`{name}` must be True or False; got {describe(value)}.")
    return bool(value)


def _check_options(
    method: Any,
    interval: Any,
    n_resamples: Any,
    stratified: Any,
    show_progress: Any,
    name: str = "method",
) -> tuple[str, str, int]:
    method = check_choice(name, method, METHODS)
    if method == "auto":
        if interval is not None:
            raise ValueError(
                f"`interval` chooses the interval of an explicit method; "
                f"`{name}='auto'` chooses both (see ScoreCurve.interval). Give "
                f"`{name}='bootstrap'`, `{name}='delong'`, "
                f"`{name}='dirichlet'` or `{name}='jackknife'` with "
                f"`interval={describe(interval)}`."
            )
        check_resamples(n_resamples)
        if not _check_bool("stratified", stratified):
            raise ValueError(
                f"`stratified=False` chooses an unstratified bootstrap; "
                f"`{name}='auto'` uses the Dirichlet posterior of each class "
                "for the ROC and PR areas and the stratified bootstrap "
                f"otherwise, both with the prevalence fixed. Give "
                f"`{name}='bootstrap'` with `stratified=False`."
            )
        check_progress(show_progress)
        return method, "", int(n_resamples)
    kinds = _KINDS[method]
    if interval is None:
        kind = kinds[0]
    else:
        if (
            isinstance(interval, str)
            and interval in set().union(*_KINDS.values())
            and interval not in kinds
        ):
            raise ValueError(
                f"`interval={interval!r}` does not apply to `{name}={method!r}`; "
                f"`interval` must be one of {', '.join(map(repr, kinds))}."
            )
        kind = check_choice("interval", interval, kinds)
    n = check_resamples(n_resamples)
    if not _check_bool("stratified", stratified) and method == "dirichlet":
        raise ValueError(
            f"`{name}='dirichlet'` draws each class's scores from its own "
            "posterior, the prevalence fixed; `stratified=False` (the "
            f"prevalence resampled) is the bootstrap's. Give `{name}='bootstrap'` "
            "with `stratified=False`."
        )
    check_progress(show_progress)
    return method, kind, n


def _resolve(
    curve: Any, name: Any, at: Any, top_k: Any, rule: Any, params: dict[str, Any]
) -> CurveQuantity:
    """The curve quantity: an area, or a metric read off the curve at a point."""
    if top_k is not None:
        if at is not None:
            raise TypeError(
                "give at most one of `at` and `top_k`; got "
                f"at={describe(at)}, top_k={describe(top_k)}."
            )
        at = {"rate": curve._check_top_k(top_k) / curve.n}
    return geo.resolve_quantity(name, at, rule, params)


def check_curve(curve: Any, name: str = "curve") -> Any:
    """The curve argument of an interval function: a ScoreCurve (a plain array of
    scores is named as what it is, not met by an AttributeError)."""
    return check_instance(name, curve, ScoreCurve)


def sampling_view(curve: Any) -> Any:
    """What an interval resamples: a standardized curve's sampling view (its origin's
    counts, its prevalence fixed: docs/method.md#standardized-prevalence), else the
    curve itself. Every entry point of this package calls it first."""
    view = getattr(curve, "_sampling_view", None)
    return view() if callable(view) else curve


def standardized_text(curve: Any) -> str:
    """The note a standardized curve's interval method ends with ("" otherwise)."""
    if getattr(curve, "origin", None) is None:
        return ""
    return f", prevalence fixed at {curve.prevalence:.4f} (standardized)"


def _check_whole_counts(curve: Any, what: str) -> None:
    check_curve(curve)
    if not curve.is_integer:
        raise ValueError(
            f"{what} needs whole-number counts (unweighted rows, or integer "
            "frequency weights, which count as repeated rows); this curve's "
            "counts are sums of non-integer `sample_weight`. For weighted data "
            "there is no resampling model or DeLong variance to apply."
        )


def _unit_area(quantity: Any) -> bool:
    """A ROC or PR area (not normalized): values in [0, 1]."""
    return (
        isinstance(quantity, CurveArea)
        and not quantity.normalized
        and quantity.curve in ("roc", "pr")
    )


# ------------------------------------------------------------------------ logit-t
def _check_logit_t(quantity: Any, n_positive: int, n_negative: int) -> None:
    if not _unit_area(quantity):
        raise ValueError(
            "`interval='logit-t'` needs a quantity with values in [0, 1]: the "
            f"ROC or PR AUC; got {quantity.label}. Use the bootstrap's "
            "'percentile' or 'bca', or the jackknife's 'normal'."
        )
    if min(n_positive, n_negative) < 2:
        raise ValueError(
            "the logit-t interval needs at least 2 positives and 2 negatives "
            "(a standard error from one row of a class is not defined); got "
            f"{n_positive} positive(s) and {n_negative} negative(s). Use "
            "method='bootstrap' with interval='percentile' to resample anyway."
        )
    if min(n_positive, n_negative) < SMALL_CLASS:
        warnings.warn(
            f"{int(min(n_positive, n_negative))} rows in the smaller class "
            f"(P = {n_positive:g}, N = {n_negative:g}): with fewer than "
            f"{SMALL_CLASS} the logit-t interval's coverage is uncertain (in the "
            "coverage studies it covered 70% to 100% for a nominal 95% with 1 "
            "to 20 rows expected in a class, depending on the shape of the "
            "score distributions; method='dirichlet', the default below 100 "
            "rows, covered the ROC AUC 93.7% to 99.6% of the time; see "
            "benchmarks/results/coverage_shapes.md).",
            SmallCountWarning,
            stacklevel=4,
        )


def _logit_t(
    estimate: float,
    se_logit: float,
    df: float,
    level: float,
    smaller_class: int,
    shift: float = 0.0,
) -> tuple[float, float, str]:
    """``expit(logit(estimate) - shift -+ t_df * se_logit)``; at the bounds, one-sided.

    An estimate of exactly 1 (every positive outscores every negative) or 0 has no
    logit: the interval is then ``[((1 - level) / 2) ** (1 / k), 1]`` (or its mirror),
    k the smaller class's size: the Clopper-Pearson lower bound of a proportion observed
    k times out of k, as if each row of that class were, independently, perfectly
    ranked.
    """
    tail = (1.0 - level) / 2.0
    if estimate >= 1.0:
        return tail ** (1.0 / smaller_class), 1.0, "perfect separation: one-sided"
    if estimate <= 0.0:
        return 0.0, 1.0 - tail ** (1.0 / smaller_class), "perfect separation: one-sided"
    if not (se_logit > 0 and np.isfinite(se_logit) and df > 0):
        return float("nan"), float("nan"), "standard error 0: undefined"
    # the t quantile by scipy.special.stdtrit, which scipy.stats.t.ppf calls (the same
    # numbers) without the second or so of importing scipy.stats
    half = float(special.stdtrit(df, 1.0 - tail)) * se_logit
    centre = float(np.log(estimate) - np.log1p(-estimate)) - shift
    return (
        float(special.expit(centre - half)),
        float(special.expit(centre + half)),
        f"t with {df:.4g} df",
    )


# ------------------------------------------------------------- estimate and draws
def _estimate(curve: Any, quantity: Any) -> float:
    """The observed value, by the same reduced points as ScoreCurve.auc / .value_at."""
    with np.errstate(divide="ignore", invalid="ignore"):
        points = curve._geometry_points(quantity.curve if isinstance(quantity, CurveArea) else None)
        return float(quantity(curve.prevalence, *points))


class _Bootstrap(NamedTuple):
    sorted_values: np.ndarray
    levels: tuple[float, float]
    n: int
    description: str
    prevalence_mode: str


def _draw_ends(boot: _Bootstrap) -> tuple[float, float]:
    """The interval's ends read off the sorted draws at ``boot.levels`` (NaN if none)."""
    values = boot.sorted_values
    if values.size == 0:
        return float("nan"), float("nan")
    low, high = at_positions(values, quantile_positions(values.size, boot.levels))
    return float(low), float(high)


def _warn_no_width(
    curve: Any, quantity: Any, low: float, high: float, source: str, stacklevel: int = 5
) -> None:
    """Every method's warning for an interval of no width, in DeLong's words: a test set
    whose positives all outscore its negatives (or whose resamples all give one value)
    has a degenerate sampling distribution, and the interval [v, v] it gives is
    misleading. ``source`` says what is degenerate ("The jackknife variance of ... is
    0", "Every one of the 2000 resamples gives ...")."""
    if np.isfinite(low) and low == high:
        warnings.warn(
            f"{source} on {curve!r}: the interval [{low:g}, {high:g}] has no width and is "
            "misleading.",
            UserWarning,
            stacklevel=stacklevel,
        )
