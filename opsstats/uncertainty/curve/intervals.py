"""The interval of a curve quantity: :func:`~opsstats.uncertainty.curve.curve_interval`,
which :meth:`opsstats.curves.ScoreCurve.interval` calls.

It checks the options, resolves the quantity (an area, or a metric at an operating
point), lets ``method="auto"`` choose the method (:mod:`~opsstats.uncertainty.curve.auto`)
and runs it: :mod:`~opsstats.uncertainty.curve.delong`,
:mod:`~opsstats.uncertainty.curve.jackknife`, :mod:`~opsstats.uncertainty.curve.dirichlet`
or :mod:`~opsstats.uncertainty.curve.resampling`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..._validation import check_confidence_level
from ...results import ConfidenceInterval, IntervalResult
from .._draws import check_rng
from ._options import (
    DEFAULT_RESAMPLES,
    _check_logit_t,
    _check_options,
    _draw_ends,
    _estimate,
    _resolve,
    _warn_no_width,
    check_curve,
    sampling_view,
    standardized_text,
)
from .auto import _auto, _finish
from .delong import _check_delong_quantity, _delong_interval, delong_roc
from .dirichlet import (
    _bias_extended,
    _check_bias_extended,
    _check_dirichlet_rows,
    _check_prior_use,
    _run_dirichlet,
)
from .jackknife import _jackknife_interval
from .resampling import _bootstrap_logit_t, _run_bootstrap

__all__ = ["curve_interval"]


def curve_interval(
    curve: Any,
    name: Any,
    *,
    method: str = "auto",
    confidence_level: float = 0.95,
    n_resamples: int = DEFAULT_RESAMPLES,
    interval: str | None = None,
    stratified: bool = True,
    rng: Any = None,
    progress: bool | None = None,
    at: dict[str, float] | None = None,
    top_k: float | None = None,
    rule: str | None = None,
    prior: Any = None,
    **params: Any,
) -> IntervalResult:
    """Confidence interval for an area or an operating-point value of a score curve.

    See :meth:`opsstats.curves.ScoreCurve.interval` for the parameters.

    Examples
    --------
    >>> from opsstats import ScoreCurve
    >>> curve = ScoreCurve.from_scores([0, 0, 1, 0, 1, 1, 0, 1], [.1, .3, .35, .4, .8, .9, .2, .6])
    >>> r = curve_interval(curve, "roc_auc", method="delong")
    >>> round(r.estimate, 4), r.method   # 15 of the 16 (positive, negative) pairs ordered
    (0.9375, 'DeLong, Sun-Xu algorithm, clipped to [0, 1]')
    """
    check_curve(curve)
    level = check_confidence_level(confidence_level)
    method, kind, n = _check_options(method, interval, n_resamples, stratified, progress)
    check_rng(rng)  # validated whichever method runs
    quantity = _resolve(curve, name, at, top_k, rule, params)
    curve = sampling_view(curve)  # a standardized curve: its origin's rows, pi fixed
    note = standardized_text(curve)
    chosen = method == "auto"
    if chosen:
        method, kind = _auto(quantity, curve)
    prior = _check_prior_use(prior, method)
    _check_dirichlet_rows(curve, method, "method")
    _check_bias_extended(quantity, kind)
    if kind == "logit-t":
        _check_logit_t(quantity, curve.n_positive, curve.n_negative)
    if method == "delong":
        # DeLong's AUC is the Mann-Whitney statistic, the trapezoid ROC AUC (equal to
        # curve.auc() up to rounding): the interval is centred on it, as pROC's is.
        _check_delong_quantity(quantity)
        d = delong_roc(curve)
        estimate = d.auc
        low, high, text, d = _delong_interval(curve, quantity, level, estimate, d, kind)
        low, high, text = _finish(curve, low, high, estimate, text, method, chosen)
        return IntervalResult(
            estimate=estimate,
            ci=ConfidenceInterval(low, high),
            confidence_level=level,
            quantity=quantity.label,
            method=text + note,
            prevalence_mode="fixed",
            details={
                "variance": d.variance,
                "standard_error": float(np.sqrt(d.variance)),
                "s10": d.s10,
                "s01": d.s01,
                "auc": d.auc,
                "interval": kind,
            },
        )
    estimate = _estimate(curve, quantity)
    if method == "jackknife":
        low, high, text, details = _jackknife_interval(curve, quantity, level, estimate, kind)
        low, high, text = _finish(curve, low, high, estimate, text, method, chosen)
        return IntervalResult(
            estimate=estimate,
            ci=ConfidenceInterval(low, high),
            confidence_level=level,
            quantity=quantity.label,
            method=text + note,
            prevalence_mode="fixed",
            details=details,
        )
    if method == "dirichlet":
        boot = _run_dirichlet(curve, quantity, n, level, prior, rng, progress)
    else:
        boot = _run_bootstrap(curve, quantity, kind, n, level, estimate, stratified, rng, progress)
    values = boot.sorted_values
    description = boot.description
    details = {"levels": boot.levels, "interval": kind}
    if kind == "logit-t":
        low, high, description = _bootstrap_logit_t(curve, quantity, boot, estimate, level)
    elif kind == "bias-extended":
        low, high, description, details["bias_extension"] = _bias_extended(
            curve, quantity, boot, estimate
        )
    else:
        low, high = _draw_ends(boot)
        _warn_no_width(
            curve,
            quantity,
            low,
            high,
            f"Every one of the {n} draws ({boot.description}) gives {quantity.label} = {low:g}",
            stacklevel=4,
        )
    low, high, description = _finish(curve, low, high, estimate, description, method, chosen)
    return IntervalResult(
        estimate=estimate,
        ci=ConfidenceInterval(low, high),
        confidence_level=level,
        quantity=quantity.label,
        method=description + note,
        n_resamples=n,
        n_undefined=int(n - values.size),
        prevalence_mode=boot.prevalence_mode,
        draws=values,
        details=details,
    )
