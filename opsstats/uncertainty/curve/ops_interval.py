"""The OPS of a curve quantity with an interval:
:func:`~opsstats.uncertainty.curve.curve_ops_interval`, which
:meth:`opsstats.curves.ScoreCurve.ops` calls.

For the OPS of a curve quantity at fixed prevalence, OPS is monotone in the quantity, so
the OPS interval is the quantity's interval, from the same draws, with its two ends
mapped through OPS (as :mod:`opsstats.uncertainty.confusion` does). A Monte Carlo reference (the Directed Binary Tree) estimates
each mapped end with its own Monte Carlo error, independent of the test-set sampling:
each end is moved outwards so that its distance from the OPS estimate becomes
``sqrt(h**2 + (z * se)**2)``, where h is the mapped half-width on that side and se the
reference's Monte Carlo standard error at that end (see
:func:`~opsstats.uncertainty.curve.curve_ops_interval`).

:func:`~opsstats.uncertainty.curve.curve_ops_intervals` does this for several quantities
of one curve at once, sharing one set of draws among those whose method draws.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from ..._lazy import lazy_module
from ..._validation import check_choice, check_confidence_level, check_resamples, describe
from ...ops import _check_reference, curve_ops
from ...reference.base import TIES
from ...results import ConfidenceInterval, OPSResult
from .._containing import EXTENDED, contain
from .._draws import check_rng
from ._cells import _cell_mode
from ._options import (
    DEFAULT_RESAMPLES,
    _check_logit_t,
    _check_options,
    _check_whole_counts,
    _draw_ends,
    _warn_no_width,
    check_curve,
    sampling_view,
    standardized_text,
)
from .auto import _auto, _finish
from .delong import _delong_interval
from .dirichlet import (
    _bias_extended,
    _check_bias_extended,
    _check_dirichlet_rows,
    _check_prior_use,
    _dirichlet_values,
    _run_dirichlet,
)
from .jackknife import _jackknife_interval
from .resampling import (
    _bootstrap_logit_t,
    _bootstrap_values,
    _prevalence_dependent,
    _run_bootstrap,
)

if TYPE_CHECKING:
    from scipy import special
else:
    special = lazy_module("scipy.special")

__all__ = ["curve_ops_interval", "curve_ops_intervals"]


def _widen(
    estimate: float, low: float, high: float, se_low: float, se_high: float, level: float
) -> tuple[float, float]:
    """Each end moved outwards so that its distance h from the estimate becomes
    sqrt(h**2 + (z se)**2): the sampling half-width and the reference's Monte Carlo
    error at that end, independent, combined in quadrature."""
    z = float(special.ndtri(0.5 + level / 2))
    h_low, h_high = max(estimate - low, 0.0), max(high - estimate, 0.0)
    low -= np.hypot(h_low, z * se_low) - h_low
    high += np.hypot(h_high, z * se_high) - h_high
    return max(float(low), 0.0), min(float(high), 1.0)


def curve_ops_interval(
    curve: Any,
    metric: Any,
    *,
    at: dict[str, float] | None = None,
    top_k: float | None = None,
    reference: Any = None,
    rule: str | None = None,
    ties: str = "strict",
    ci: str | None = None,
    confidence_level: float = 0.95,
    n_resamples: int = DEFAULT_RESAMPLES,
    interval: str | None = None,
    stratified: bool = True,
    rng: Any = None,
    progress: bool | None = None,
    prior: Any = None,
    **params: Any,
) -> OPSResult:
    """OPS of a curve quantity against a curve reference, with an interval when ``ci``
    is a method.

    See :meth:`opsstats.curves.ScoreCurve.ops` for the parameters.

    Notes
    -----
    The quantity's interval (bootstrap order statistics, or the DeLong ends) is mapped
    through OPS at the curve's prevalence; OPS is monotone in the quantity there, so
    this is the interval of the OPS of every resample (for a lower-is-better quantity
    the ends swap). A Monte Carlo reference estimates OPS at each mapped end with a
    standard error se = sqrt(p (1 - p) / G) that is independent of the test-set
    sampling; each end is moved outwards so that its distance h from the OPS estimate
    becomes sqrt(h**2 + (z se)**2), z the normal quantile of the confidence level,
    and clipped to [0, 1]. ``ci_method`` then ends with "reference Monte Carlo error
    added"; ``details["ci_without_reference_error"]`` keeps the mapped interval.

    Examples
    --------
    >>> from opsstats import DirectedBinaryTree, ScoreCurve
    >>> curve = ScoreCurve.from_scores([0, 0, 1, 0, 1, 1, 0, 1], [.1, .3, .35, .4, .8, .9, .2, .6])
    >>> r = curve_ops_interval(curve, "roc_auc", ci="delong",
    ...                        reference=DirectedBinaryTree(depth=4, n_curves=1000))
    >>> r.ci.low <= r.estimate <= r.ci.high
    True
    """
    check_curve(curve)
    if top_k is not None:
        if at is not None:
            raise TypeError(
                "give at most one of `at` and `top_k`; got "
                f"at={describe(at)}, top_k={describe(top_k)}."
            )
        at = {"rate": curve._check_top_k(top_k) / curve.n}
        top_k = None
    if ci is not None:
        level = check_confidence_level(confidence_level)
        method, kind, n = _check_options(ci, interval, n_resamples, stratified, progress, name="ci")
        check_rng(rng)
    curve = sampling_view(curve)  # a standardized curve: its origin's rows, pi fixed
    result = curve_ops(curve, metric, at=at, reference=reference, rule=rule, ties=ties, **params)
    if ci is None or np.isnan(result.estimate):
        return result
    ref = _check_reference(reference, "curve", "a curve quantity")
    quantity = ref._quantity(metric, at, rule, params)
    chosen = method == "auto"
    method, kind = _resolve_method(curve, quantity, method, kind, prior)
    return _with_interval(
        curve,
        quantity,
        result,
        ref,
        method,
        kind,
        n,
        level,
        stratified,
        rng,
        progress,
        prior,
        ties,
        chosen=chosen,
    )


def _resolve_method(
    curve: Any, quantity: Any, method: str, kind: str, prior: Any
) -> tuple[str, str]:
    """``"auto"`` made explicit, and the method's checks for this quantity and curve."""
    if method == "auto":
        method, kind = _auto(quantity, curve)
    _check_prior_use(prior, method, "ci")
    _check_dirichlet_rows(curve, method, "ci")
    _check_bias_extended(quantity, kind)
    if kind == "logit-t":
        _check_logit_t(quantity, curve.n_positive, curve.n_negative)
    return method, kind


def _with_interval(
    curve: Any,
    quantity: Any,
    result: OPSResult,
    ref: Any,
    method: str,
    kind: str,
    n: int,
    level: float,
    stratified: bool,
    rng: Any,
    progress: bool | None,
    prior: Any,
    ties: str,
    values: np.ndarray | None = None,
    chosen: bool = False,
) -> OPSResult:
    """``result`` with the interval of its OPS: the quantity's interval by ``method`` and
    ``kind`` (from the draws ``values`` when they are given, already made for it;
    finished as :func:`~opsstats.uncertainty.curve.auto._finish` finishes it when
    ``chosen`` by ``"auto"``), mapped through OPS at the curve's prevalence, its ends
    widened by the reference's Monte Carlo error."""
    prior = "jeffreys" if prior is None else prior
    pi = curve.prevalence
    estimate = float(result.estimate)
    extra: dict[str, Any] = {"interval": kind}

    def map_ends(low_v: float, high_v: float) -> tuple[float, float, float, float]:
        """OPS and its reference s.e. at the two ends of the quantity's interval."""
        if not (np.isfinite(low_v) and np.isfinite(high_v)):
            return (float("nan"),) * 4
        ends = np.array([low_v, high_v] if quantity.higher_is_better else [high_v, low_v])
        r = ref.ops(quantity, ends, prevalence=pi, ties=ties)
        o = np.asarray(r.estimate, dtype=float)
        e = np.asarray(r.standard_error, dtype=float)
        return float(o[0]), float(o[1]), float(e[0]), float(e[1])

    n_defined: int | None = None
    if method == "delong":
        low_v, high_v, text, d = _delong_interval(curve, quantity, level, result.value, kind=kind)
        extra.update(variance=d.variance, standard_error_value=float(np.sqrt(d.variance)))
        mode = "fixed"
    elif method == "jackknife":
        low_v, high_v, text, info = _jackknife_interval(curve, quantity, level, result.value, kind)
        extra.update(variance=info["variance"], standard_error_value=info["standard_error"])
        mode = "fixed"
    else:
        if (
            method == "bootstrap"
            and kind != "logit-t"
            and not stratified
            and _prevalence_dependent(quantity)
        ):
            raise ValueError(
                f"`stratified=False` resamples the prevalence, and OPS of "
                f"{quantity.label} depends on it: every resample would need the "
                "reference at its own prevalence. Use stratified=True (the "
                "prevalence fixed, as OPS standardizes against the test set's "
                "own prevalence)."
            )
        if method == "dirichlet":
            boot = _run_dirichlet(curve, quantity, n, level, prior, rng, progress, values=values)
        else:
            boot = _run_bootstrap(
                curve,
                quantity,
                kind,
                n,
                level,
                result.value,
                stratified,
                rng,
                progress,
                values=values,
            )
        if kind == "logit-t":
            low_v, high_v, text = _bootstrap_logit_t(curve, quantity, boot, result.value, level)
        elif kind == "bias-extended":
            low_v, high_v, text, extra["bias_extension"] = _bias_extended(
                curve, quantity, boot, result.value
            )
        else:
            low_v, high_v = _draw_ends(boot)
            text = boot.description
            _warn_no_width(
                curve,
                quantity,
                low_v,
                high_v,
                f"Every one of the {n} draws ({boot.description}) gives {quantity.label} "
                f"= {low_v:g}",
            )
        n_defined, mode = boot.sorted_values.size, boot.prevalence_mode
    low_v, high_v, text = _finish(curve, low_v, high_v, result.value, text, method, chosen)
    # OPS is monotone in the quantity at the curve's prevalence: the OPS interval is the
    # quantity's interval with its ends mapped through OPS (from the same draws)
    text += standardized_text(curve)
    value_ci = ConfidenceInterval(float(low_v), float(high_v))
    low, high, se_low, se_high = map_ends(low_v, high_v)
    if chosen or method == "dirichlet":  # the OPS of the value is the OPS, up to rounding
        low, high, note = contain(low, high, estimate)
        text += "" if text.endswith(note) or EXTENDED in text else note
    mapped = ConfidenceInterval(float(low), float(high))
    if np.isfinite(low) and (se_low > 0 or se_high > 0):
        low, high = _widen(estimate, low, high, se_low, se_high, level)
        text += "; reference Monte Carlo error added"
    details = {
        **result.details,
        "value_ci": value_ci,
        "ci_without_reference_error": mapped,
        "reference_standard_error_at_ends": (float(se_low), float(se_high)),
        "prevalence_mode": mode,
        **extra,
    }
    if n_defined is not None:
        details.update(n_resamples=n, n_undefined=int(n - n_defined))
    return replace(
        result,
        ci=ConfidenceInterval(float(low), float(high)),
        confidence_level=level,
        ci_method=text,
        details=details,
    )


def curve_ops_intervals(
    curve: Any,
    quantities: list[tuple[Any, str]],
    *,
    reference: Any,
    confidence_level: float,
    n_resamples: int,
    rng_for: Callable[[str, str], np.random.Generator],
    ties: str = "strict",
) -> list[OPSResult | ValueError]:
    """The OPS of several quantities of one curve, each with its interval, the
    quantities whose method draws (the bootstrap, the Dirichlet posterior) sharing one
    set of draws per method and cell layout.

    ``quantities`` holds (quantity, method) pairs (``method`` as ``ci`` of
    :meth:`ScoreCurve.ops`, ``"auto"`` included); ``rng_for(method, cells)`` gives the
    generator of each set of draws, so that a quantity's interval depends only on the
    draws of its own method and layout, not on which other quantities are asked for.
    Used by :func:`opsstats.evaluate` for each group. A quantity whose interval cannot
    be made gets the ``ValueError`` that says why, in its place.
    """
    check_curve(curve)
    level = check_confidence_level(confidence_level)
    ref = _check_reference(reference, "curve", "a curve quantity")
    # the options every quantity shares, refused here (a quantity's own ValueError is
    # what goes in its place)
    n_resamples = check_resamples(n_resamples)
    ties = check_choice("ties", ties, TIES)
    curve = sampling_view(curve)  # a standardized curve: its origin's rows, pi fixed
    plans: list[Any] = []
    for q, ci in quantities:
        try:
            method, kind, n = _check_options(ci, None, n_resamples, True, False, name="ci")
            quantity = ref._quantity(q, None, None, {})
            result = curve_ops(curve, quantity, reference=ref, ties=ties)
            if np.isnan(result.estimate):
                plans.append(result)
                continue
            chosen = method == "auto"
            method, kind = _resolve_method(curve, quantity, method, kind, None)
            plans.append((quantity, result, method, kind, n, chosen))
        except ValueError as exc:
            plans.append(exc)
    # one set of draws per (method, cell layout), for every quantity that draws
    shared: dict[tuple[str, str], list[int]] = {}
    for i, plan in enumerate(plans):
        if isinstance(plan, tuple) and plan[2] in ("bootstrap", "dirichlet"):
            shared.setdefault((plan[2], _cell_mode(plan[0])), []).append(i)
    values: dict[int, np.ndarray] = {}
    for (method, mode), members in shared.items():
        qs = [plans[i][0] for i in members]
        generator = rng_for(method, mode)
        try:
            if method == "dirichlet":
                _check_whole_counts(curve, "The curve Dirichlet posterior")
                drawn = _dirichlet_values(curve, qs, n_resamples, 0.5, generator, False)
            else:
                _check_whole_counts(curve, "The curve bootstrap")
                drawn = _bootstrap_values(curve, qs, n_resamples, generator, True, False)
        except ValueError as exc:
            for i in members:
                plans[i] = exc
            continue
        for j, i in enumerate(members):
            values[i] = drawn[j]
    out: list[OPSResult | ValueError] = []
    for i, plan in enumerate(plans):
        if not isinstance(plan, tuple):
            out.append(plan)
            continue
        quantity, result, method, kind, n, chosen = plan
        try:
            out.append(
                _with_interval(
                    curve,
                    quantity,
                    result,
                    ref,
                    method,
                    kind,
                    n,
                    level,
                    True,
                    None,
                    False,
                    None,
                    ties,
                    values=values.get(i),
                    chosen=chosen,
                )
            )
        except ValueError as exc:
            out.append(exc)
    return out
