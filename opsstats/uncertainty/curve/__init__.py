"""Intervals for a :class:`~opsstats.curves.ScoreCurve`: its areas, its operating-point
values and their outperformance scores (METHOD.md 3.2).

Four methods, and a default that picks per quantity and class size:

* ``"delong"``: DeLong, DeLong and Clarke-Pearson's (1988) asymptotic variance of the ROC
  AUC (the Mann-Whitney statistic, ties counted one half), computed by the O(n log n)
  algorithm of Sun and Xu (2014). The curve already holds the data sorted once, as
  cumulative counts per distinct score, so the midranks of Sun and Xu come from those
  counts with no further sort (:func:`~opsstats.uncertainty.curve.delong_roc`). Two
  intervals: ``"normal"``, ``auc -+ z * sqrt(var)`` clipped to [0, 1] as pROC's
  ``ci.auc`` does, and ``"logit-t"``, ``expit(logit(auc) - b -+ t * sqrt(var) / (auc (1 -
  auc)))`` with t on the Welch-Satterthwaite degrees of freedom of the two variance
  components: the Brunner-Munzel (2000) small-sample t approximation (DeLong's variance
  is theirs; the statistic reproduces ``scipy.stats.brunnermunzel``) on the logit
  scale, which keeps the interval inside (0, 1) and follows the skew of the AUC near
  its bounds (Pohar Perme and Manevski 2019); ``b = (2 auc - 1) var / (2 (auc (1 -
  auc))**2)`` removes the second-order (delta-method) bias of ``logit(auc)``, which
  otherwise leaves the interval too high when the AUC is near 1 and a class is small.
* ``"jackknife"``: the stratified (two-sample) jackknife variance of a curve area,
  V = V1 + V0, one component per class, Vc = (m - 1) / m * sum (theta_(i) - mean)**2
  over the m leave-one-row-out values of class c (Arvesen 1969), all computed exactly
  in O(J) from the at most 2J distinct leave-one-out curves (:func:`_jackknife`). For
  the trapezoid ROC AUC, V is DeLong's variance exactly; for the PR AUC (average
  precision) it is the same construction for a statistic with no closed-form
  variance. Intervals ``"normal"`` (clipped to [0, 1] for the ROC and PR areas) and
  ``"logit-t"``, ``expit(logit(est) -+ t * sqrt(V) / (est (1 - est)))`` with
  (k - 1) V**2 / (V1**2 + V0**2) degrees of freedom, k the smaller class's size
  (Welch-Satterthwaite with k - 1 for each component: each class's leave-one-out
  values also depend on the other class's rows, so neither component carries more
  information than the smaller class). Areas only: a value at an operating point is
  quantile-like, and the jackknife variance of a non-smooth statistic is not
  consistent.
* ``"dirichlet"``: the Dirichlet posterior of each class's score distribution: the
  Bayesian bootstrap (Rubin 1981) of each class, Gamma(1) weights on its rows normalized
  within the class (the prevalence fixed), plus four pseudo-rows of weight Gamma(a): a
  positive and a negative tied above the highest score, and another pair tied below the
  lowest (a = 1/2, Jeffreys, by default). The equal-tailed interval of the quantity over
  the draws of the weighted curve. The pseudo-rows are what a small class needs: with
  placements of 0 or 1 the ROC AUC's posterior tends to the Jeffreys Beta posterior of a
  proportion, and a separated test set needs no special rule. A cell's rows share one
  Gamma(rows) weight, over the same merged cells as the bootstrap (:func:`_dirichlet_values`).
  Interval ``"bias-extended"``: the equal-tailed interval with its lower end moved down
  by the jackknife estimate of the estimator's upward small-sample bias, leaving out one
  positive at a time at the test set's prevalence (:func:`_bias_extended`); for average
  precision with few positives, whose bias depends on the scores' upper tails.
* ``"bootstrap"``: resampling the test set's (score, label) rows. The rows of one
  distinct score and one class are exchangeable, so a bootstrap resample is fully
  described by how many rows of each (threshold, class) cell it draws: stratified (the
  default, prevalence fixed) the positives' multiplicities over the thresholds are
  Multinomial(P, positives per threshold / P) and independently the negatives' are
  Multinomial(N, negatives per threshold / N); not stratified, all rows' multiplicities
  are Multinomial(n, cell counts / n). Cumulative sums of the drawn counts give each
  resample's curve over the *same* thresholds, so nothing is sorted per resample and a
  batch of B resampled curves is a (B, J) array of (alpha, beta) that the shared curve
  geometry (:mod:`opsstats.curves._geometry`) evaluates in one call.

Exact reductions keep the batch small (:class:`_Cells`). Thresholds inside a run that
adds negatives only are merged into one cell, as :meth:`ScoreCurve._geometry_points`
does for the observed curve: along such a run every area except the lift area, and
every eq. 9 operating point, depends only on the run's two ends, and the merged cell's
resampled count is Multinomial with the summed probability (the aggregation property
of the multinomial). At prevalence 0.1 with continuous scores that leaves about a fifth
of the thresholds; for the step-rule PR area (average precision), whose negatives-only
points have zero width, only the thresholds that add positives remain. The
multinomial counts are drawn by :class:`_Multinomial`, which costs about one uniform
draw per cell rather than one per row (see its Notes). Percentile and BCa intervals;
the BCa jackknife leaves out one row of each (cell, class) type, at most 2J distinct
curves, evaluated exactly in O(J) (:func:`_jackknife`). Resamples where the quantity
is undefined (a class absent without stratification, or a 0/0 metric) are counted in
``n_undefined`` and left out, never dropped silently. Every method needs whole-number
counts (unweighted rows, or integer frequency weights).

The bootstrap's ``"logit-t"`` interval is ``expit(logit(estimate) -+ t * se)``, se half
the spread of the central 68.27% of the resamples' logits (a standard deviation that
resamples at 0 or 1 cannot make infinite) and t with min(P, N) - 1 degrees of freedom.
At an estimate of exactly 0 or 1, where no logit exists, the logit-t intervals are
one-sided: ``[((1 - level) / 2) ** (1 / k), 1]``, k the smaller class's size.

``method="auto"`` (the default), for the ROC and PR areas: the Dirichlet posterior when
the smaller class has fewer than ``DIRICHLET_BELOW`` (100) rows (equal-tailed for the ROC
areas, bias-extended for the PR areas); from there on DeLong's
logit-t interval for the ROC AUC and the jackknife's for the other areas, deterministic
and milliseconds at millions of rows. The percentile bootstrap for every other quantity.
The coverage studies (``benchmarks/coverage.py --part curve`` and
``benchmarks/coverage_shapes.py``) found the logit-t intervals' coverage with small
classes to depend on the shape of the score distributions (70% to 100% with 1 to 20
rows of a class); below 100 rows the Dirichlet posterior covered the ROC AUC 93.7% to
99.6% across five shapes, and its bias-extended interval the PR AUC 90.0% to 100%
(the equal-tailed one as little as 60%).

For the OPS of a curve quantity at fixed prevalence, OPS is monotone in the quantity,
so the OPS interval is the quantity's interval mapped through OPS (on the bootstrap's
order statistics, as :mod:`opsstats.uncertainty.confusion` does; on the two ends of a
DeLong or jackknife interval). A Monte Carlo reference (the Directed Binary Tree) estimates each
mapped end with its own Monte Carlo error, independent of the test-set sampling: each
end is moved outwards so that its distance from the OPS estimate becomes
``sqrt(h**2 + (z * se)**2)``, where h is the mapped half-width on that side and se the
reference's Monte Carlo standard error at that end (see
:func:`~opsstats.uncertainty.curve.curve_ops_interval`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
from scipy.special import ndtri

from ..._validation import check_confidence_level, describe
from ...ops import _check_reference, curve_ops
from ...results import ConfidenceInterval, IntervalResult, OPSResult
from .._draws import check_rng, quantile_positions
from ._options import (
    DEFAULT_RESAMPLES,
    METHODS,
    _check_logit_t,
    _check_options,
    _draw_ends,
    _estimate,
    _resolve,
    _unit_area,
)
from .delong import DeLongResult, _check_delong_quantity, _delong_interval, delong_roc
from .dirichlet import (
    _bias_extended,
    _check_bias_extended,
    _check_dirichlet_rows,
    _check_prior_use,
    _run_dirichlet,
)
from .jackknife import _jackknife_interval
from .resampling import _bootstrap_logit_t, _prevalence_dependent, _run_bootstrap

__all__ = ["METHODS", "DeLongResult", "curve_interval", "curve_ops_interval", "delong_roc"]

#: ``method="auto"`` for a ROC or PR area: the Dirichlet posterior when the smaller class
#: has fewer rows than this, the deterministic logit-t interval (DeLong's variance for
#: the ROC AUC, the jackknife's for the other areas) from this size on, where both cover
#: within 93%-97% in the coverage studies and the logit-t interval costs milliseconds
#: where the posterior's draws cost seconds (n = 1e6)
DIRICHLET_BELOW = 100


# -------------------------------------------------------------------------- auto
def _auto(quantity: Any, curve: Any) -> tuple[str, str]:
    """The method and interval of ``method="auto"`` for this quantity on this curve: the
    ones the coverage studies found closest to nominal (``benchmarks/results/
    coverage_curve.md`` and ``coverage_shapes.md``)."""
    if _unit_area(quantity):
        if min(curve.n_positive, curve.n_negative) < DIRICHLET_BELOW:
            kind = "bias-extended" if quantity.curve == "pr" else "equal-tailed"
            return "dirichlet", kind
        if quantity.curve == "roc" and quantity.rule == "trapezoid":
            return "delong", "logit-t"
        return "jackknife", "logit-t"
    return "bootstrap", "percentile"


# --------------------------------------------------------------------- intervals
def curve_interval(curve: Any, name: Any, *, method: str = "auto",
                   confidence_level: float = 0.95, n_resamples: int = DEFAULT_RESAMPLES,
                   interval: str | None = None, stratified: bool = True, rng: Any = None,
                   progress: bool = False, at: dict[str, float] | None = None,
                   top_k: float | None = None, rule: str | None = None,
                   prior: Any = None, **params: Any) -> IntervalResult:
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
    level = check_confidence_level(confidence_level)
    method, kind, n = _check_options(method, interval, n_resamples, stratified, progress)
    check_rng(rng)       # validated whichever method runs
    quantity = _resolve(curve, name, at, top_k, rule, params)
    if method == "auto":
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
        return IntervalResult(
            estimate=estimate, ci=ConfidenceInterval(low, high), confidence_level=level,
            quantity=quantity.label, method=text, prevalence_mode="fixed",
            details={"variance": d.variance, "standard_error": float(np.sqrt(d.variance)),
                     "s10": d.s10, "s01": d.s01, "auc": d.auc, "interval": kind})
    estimate = _estimate(curve, quantity)
    if method == "jackknife":
        low, high, text, details = _jackknife_interval(curve, quantity, level, estimate,
                                                       kind)
        return IntervalResult(
            estimate=estimate, ci=ConfidenceInterval(low, high), confidence_level=level,
            quantity=quantity.label, method=text, prevalence_mode="fixed", details=details)
    if method == "dirichlet":
        boot = _run_dirichlet(curve, quantity, n, level, prior, rng, progress)
    else:
        boot = _run_bootstrap(curve, quantity, kind, n, level, estimate, stratified, rng,
                              progress)
    values = boot.sorted_values
    description = boot.description
    details: dict[str, Any] = {"levels": boot.levels, "interval": kind}
    if kind == "logit-t":
        low, high, description = _bootstrap_logit_t(curve, quantity, boot, estimate,
                                                    level)
    elif kind == "bias-extended":
        low, high, description, details["bias_extension"] = _bias_extended(
            curve, quantity, boot, estimate)
    else:
        low, high = _draw_ends(boot)
    return IntervalResult(
        estimate=estimate, ci=ConfidenceInterval(low, high), confidence_level=level,
        quantity=quantity.label, method=description, n_resamples=n,
        n_undefined=int(n - values.size), prevalence_mode=boot.prevalence_mode,
        draws=values, details=details)


def _widen(estimate: float, low: float, high: float, se_low: float, se_high: float,
           level: float) -> tuple[float, float]:
    """Each end moved outwards so that its distance h from the estimate becomes
    sqrt(h**2 + (z se)**2): the sampling half-width and the reference's Monte Carlo
    error at that end, independent, combined in quadrature."""
    z = float(ndtri(0.5 + level / 2))
    h_low, h_high = max(estimate - low, 0.0), max(high - estimate, 0.0)
    low -= np.hypot(h_low, z * se_low) - h_low
    high += np.hypot(h_high, z * se_high) - h_high
    return max(float(low), 0.0), min(float(high), 1.0)


def curve_ops_interval(curve: Any, metric: Any, *, at: dict[str, float] | None = None,
                       top_k: float | None = None, reference: Any = None,
                       rule: str | None = None, ties: str = "strict", ci: str | None = None,
                       confidence_level: float = 0.95,
                       n_resamples: int = DEFAULT_RESAMPLES, interval: str | None = None,
                       stratified: bool = True, rng: Any = None, progress: bool = False,
                       prior: Any = None, **params: Any) -> OPSResult:
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
            raise TypeError("give at most one of `at` and `top_k`; got "
                            f"at={describe(at)}, top_k={describe(top_k)}.")
        at = {"rate": curve._check_top_k(top_k) / curve.n}
        top_k = None
    if ci is not None:
        level = check_confidence_level(confidence_level)
        method, kind, n = _check_options(ci, interval, n_resamples, stratified, progress,
                                         name="ci")
        check_rng(rng)
    result = curve_ops(curve, metric, at=at, reference=reference, rule=rule, ties=ties,
                       **params)
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
        low_v, high_v, text, d = _delong_interval(curve, quantity, level, result.value,
                                                  kind=kind)
        low, high, se_low, se_high = map_ends(low_v, high_v)
        n_defined, value_ci = None, ConfidenceInterval(low_v, high_v)
        extra.update(variance=d.variance, standard_error_value=float(np.sqrt(d.variance)))
        mode = "fixed"
    elif method == "jackknife":
        low_v, high_v, text, info = _jackknife_interval(curve, quantity, level,
                                                        result.value, kind)
        low, high, se_low, se_high = map_ends(low_v, high_v)
        n_defined, value_ci = None, ConfidenceInterval(low_v, high_v)
        extra.update(variance=info["variance"], standard_error_value=info["standard_error"])
        mode = "fixed"
    elif kind in ("logit-t", "bias-extended"):
        if kind == "logit-t":
            boot = _run_bootstrap(curve, quantity, kind, n, level, result.value,
                                  stratified, rng, progress)
            low_v, high_v, text = _bootstrap_logit_t(curve, quantity, boot, result.value,
                                                     level)
        else:
            boot = _run_dirichlet(curve, quantity, n, level, prior, rng, progress)
            low_v, high_v, text, extra["bias_extension"] = _bias_extended(
                curve, quantity, boot, result.value)
        low, high, se_low, se_high = map_ends(low_v, high_v)
        n_defined, value_ci = boot.sorted_values.size, ConfidenceInterval(low_v, high_v)
        mode = boot.prevalence_mode
    else:
        if not stratified and _prevalence_dependent(quantity):
            raise ValueError(f"`stratified=False` resamples the prevalence, and OPS of "
                             f"{quantity.label} depends on it: every resample would need the "
                             "reference at its own prevalence. Use stratified=True (the "
                             "prevalence fixed, as OPS standardizes against the test set's "
                             "own prevalence).")
        if method == "dirichlet":
            boot = _run_dirichlet(curve, quantity, n, level, prior, rng, progress)
        else:
            boot = _run_bootstrap(curve, quantity, kind, n, level, result.value, stratified,
                                  rng, progress)
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
            if not higher:   # OPS decreases in the value: its quantile q is the value's 1-q
                levels = (1 - levels[1], 1 - levels[0])
            lo_i, hi_i, w = quantile_positions(m, levels)
            idx = np.unique(np.r_[lo_i, hi_i])
            src = idx if higher else m - 1 - idx
            r = ref.ops(quantity, values[src], prevalence=pi, ties=ties)
            ops_at = dict(zip(idx.tolist(), np.atleast_1d(r.estimate).tolist(), strict=True))
            se_at = dict(zip(idx.tolist(), np.atleast_1d(r.standard_error).tolist(),
                             strict=True))

            def interp(table: dict, e: int) -> float:
                return table[lo_i[e]] + w[e] * (table[hi_i[e]] - table[lo_i[e]])

            low, high = interp(ops_at, 0), interp(ops_at, 1)
            se_low, se_high = interp(se_at, 0), interp(se_at, 1)
    mapped = ConfidenceInterval(float(low), float(high))
    if np.isfinite(low) and (se_low > 0 or se_high > 0):
        low, high = _widen(estimate, low, high, se_low, se_high, level)
        text += "; reference Monte Carlo error added"
    details = {**result.details, "value_ci": value_ci, "ci_without_reference_error": mapped,
               "reference_standard_error_at_ends": (float(se_low), float(se_high)),
               "prevalence_mode": mode, **extra}
    if method in ("bootstrap", "dirichlet"):
        details.update(n_resamples=n, n_undefined=int(n - n_defined))
    return replace(result, ci=ConfidenceInterval(float(low), float(high)),
                   confidence_level=level, ci_method=text, details=details)
