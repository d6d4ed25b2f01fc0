"""The OPS of a curve quantity with an interval:
:func:`~opsstats.uncertainty.curve.curve_ops_interval`, which
:meth:`opsstats.curves.ScoreCurve.ops` calls.

For the OPS of a curve quantity at fixed prevalence, OPS is monotone in the quantity, so
the OPS interval is the quantity's interval mapped through OPS (on the bootstrap's order
statistics, as :mod:`opsstats.uncertainty.confusion` does; on the two ends of a DeLong
or jackknife interval). A Monte Carlo reference (the Directed Binary Tree) estimates
each mapped end with its own Monte Carlo error, independent of the test-set sampling:
each end is moved outwards so that its distance from the OPS estimate becomes
``sqrt(h**2 + (z * se)**2)``, where h is the mapped half-width on that side and se the
reference's Monte Carlo standard error at that end (see
:func:`~opsstats.uncertainty.curve.curve_ops_interval`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, cast

import numpy as np
from scipy.special import ndtri

from ..._validation import check_confidence_level, describe
from ...ops import _check_reference, curve_ops
from ...results import ConfidenceInterval, OPSResult
from .._draws import check_rng, quantile_positions
from ._options import DEFAULT_RESAMPLES, _check_logit_t, _check_options, _draw_ends
from .auto import _auto
from .delong import _delong_interval
from .dirichlet import (
    _bias_extended,
    _check_bias_extended,
    _check_dirichlet_rows,
    _check_prior_use,
    _run_dirichlet,
)
from .jackknife import _jackknife_interval
from .resampling import _bootstrap_logit_t, _prevalence_dependent, _run_bootstrap

__all__ = ["curve_ops_interval"]


def _widen(
    estimate: float, low: float, high: float, se_low: float, se_high: float, level: float
) -> tuple[float, float]:
    """Each end moved outwards so that its distance h from the estimate becomes
    sqrt(h**2 + (z se)**2): the sampling half-width and the reference's Monte Carlo
    error at that end, independent, combined in quadrature."""
    z = float(ndtri(0.5 + level / 2))
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
    progress: bool = False,
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
    result = curve_ops(curve, metric, at=at, reference=reference, rule=rule, ties=ties, **params)
    if ci is None or np.isnan(result.estimate):
        return result
    ref = _check_reference(reference, "curve", "a curve quantity")
    quantity = ref._quantity(metric, at, rule, params)
    pi = curve.prevalence
    estimate = float(result.estimate)
    extra: dict[str, Any] = {"interval": kind}
    if method == "auto":
        method, kind = _auto(quantity, curve)
        extra["interval"] = kind
    prior = _check_prior_use(prior, method, "ci")
    _check_dirichlet_rows(curve, method, "ci")
    _check_bias_extended(quantity, kind)
    if kind == "logit-t":
        _check_logit_t(quantity, curve.n_positive, curve.n_negative)

    def map_ends(low_v: float, high_v: float) -> tuple[float, float, float, float]:
        """OPS and its reference s.e. at the two ends of the quantity's interval."""
        if not (np.isfinite(low_v) and np.isfinite(high_v)):
            return (float("nan"),) * 4
        ends = np.array([low_v, high_v] if quantity.higher_is_better else [high_v, low_v])
        r = ref.ops(quantity, ends, prevalence=pi, ties=ties)
        o = np.asarray(r.estimate, dtype=float)
        e = np.asarray(r.standard_error, dtype=float)
        return float(o[0]), float(o[1]), float(e[0]), float(e[1])

    if method == "delong":
        low_v, high_v, text, d = _delong_interval(curve, quantity, level, result.value, kind=kind)
        low, high, se_low, se_high = map_ends(low_v, high_v)
        n_defined, value_ci = None, ConfidenceInterval(low_v, high_v)
        extra.update(variance=d.variance, standard_error_value=float(np.sqrt(d.variance)))
        mode = "fixed"
    elif method == "jackknife":
        low_v, high_v, text, info = _jackknife_interval(curve, quantity, level, result.value, kind)
        low, high, se_low, se_high = map_ends(low_v, high_v)
        n_defined, value_ci = None, ConfidenceInterval(low_v, high_v)
        extra.update(variance=info["variance"], standard_error_value=info["standard_error"])
        mode = "fixed"
    elif kind in ("logit-t", "bias-extended"):
        if kind == "logit-t":
            boot = _run_bootstrap(
                curve, quantity, kind, n, level, result.value, stratified, rng, progress
            )
            low_v, high_v, text = _bootstrap_logit_t(curve, quantity, boot, result.value, level)
        else:
            boot = _run_dirichlet(curve, quantity, n, level, prior, rng, progress)
            low_v, high_v, text, extra["bias_extension"] = _bias_extended(
                curve, quantity, boot, result.value
            )
        low, high, se_low, se_high = map_ends(low_v, high_v)
        n_defined, value_ci = boot.sorted_values.size, ConfidenceInterval(low_v, high_v)
        mode = boot.prevalence_mode
    else:
        if not stratified and _prevalence_dependent(quantity):
            raise ValueError(
                f"`stratified=False` resamples the prevalence, and OPS of "
                f"{quantity.label} depends on it: every resample would need the "
                "reference at its own prevalence. Use stratified=True (the "
                "prevalence fixed, as OPS standardizes against the test set's "
                "own prevalence)."
            )
        if method == "dirichlet":
            boot = _run_dirichlet(curve, quantity, n, level, prior, rng, progress)
        else:
            boot = _run_bootstrap(
                curve, quantity, kind, n, level, result.value, stratified, rng, progress
            )
        text, mode = boot.description, boot.prevalence_mode
        values = boot.sorted_values
        m = values.size
        n_defined = m
        if m == 0:
            low = high = se_low = se_high = float("nan")
            value_ci = ConfidenceInterval(float("nan"), float("nan"))
        else:
            value_ci = ConfidenceInterval(*_draw_ends(boot))
            levels = boot.levels
            higher = quantity.higher_is_better
            if not higher:  # OPS decreases in the value: its quantile q is the value's 1-q
                levels = (1 - levels[1], 1 - levels[0])
            lo_i, hi_i, w = quantile_positions(m, levels)
            idx = np.unique(np.r_[lo_i, hi_i])
            src = idx if higher else m - 1 - idx
            r = ref.ops(quantity, values[src], prevalence=pi, ties=ties)
            ops_at = dict(zip(idx.tolist(), np.atleast_1d(r.estimate).tolist(), strict=True))
            se_at = dict(zip(idx.tolist(), np.atleast_1d(r.standard_error).tolist(), strict=True))

            def interp(table: dict, e: int) -> float:
                return table[lo_i[e]] + w[e] * (table[hi_i[e]] - table[lo_i[e]])

            low, high = interp(ops_at, 0), interp(ops_at, 1)
            se_low, se_high = interp(se_at, 0), interp(se_at, 1)
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
    if method in ("bootstrap", "dirichlet"):
        details.update(n_resamples=n, n_undefined=int(n - cast(int, n_defined)))
    return replace(
        result,
        ci=ConfidenceInterval(float(low), float(high)),
        confidence_level=level,
        ci_method=text,
        details=details,
    )
