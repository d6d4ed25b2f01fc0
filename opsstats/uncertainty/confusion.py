"""Intervals for a confusion matrix: alpha, beta, any registered metric and its OPS.

Three families (docs/method.md#intervals):

* ``"dirichlet"``: the Dirichlet-multinomial posterior of the cell probabilities.
  Under a Dirichlet(TP + a_tp, FP + a_fp, FN + a_fn, TN + a_tn), the prevalence, alpha
  and beta are independent:

      alpha ~ Beta(FP + a_fp, TN + a_tn),   beta ~ Beta(FN + a_fn, TP + a_tp),
      pi ~ Beta(TP + FN + a_tp + a_fn, FP + TN + a_fp + a_tn).

  With the prevalence fixed (the default: OPS standardizes against the test set's
  own prevalence) only alpha and beta are drawn; with ``prevalence="random"`` pi is
  drawn too and each draw is standardized against its own pi.
* ``"bootstrap"``: resampling the test set. For a confusion matrix this is exactly
  resampling its four counts: two binomials when stratified by class (the default,
  prevalence fixed), a multinomial when not. No per-row work.
* ``"clopper-pearson"``, ``"wilson"``, ``"jeffreys"``: the classical binomial intervals,
  for alpha, beta and the rates that are one of them (recall, specificity, FPR, FNR).

For a metric at fixed prevalence, OPS is monotone in the metric, so the OPS interval is
the metric's interval, from the same draws, mapped through OPS: its ends are the OPS of
the metric interval's ends (``OPS(value_ci.low) == ops_ci.low`` exactly, for a
higher-is-better metric); otherwise OPS is computed for every draw.
``interval_from_draws`` and ``ops_from_draws`` make both from draws already made, which is how :func:`opsstats.evaluate` gives every metric of a group intervals
from the group's one set of draws.
"""

from __future__ import annotations

import copy
import re
import warnings
from dataclasses import replace
from typing import Any, cast

import numpy as np

from .._validation import (
    check_choice,
    check_confidence_level,
    check_count,
    check_instance,
    check_real,
    check_resamples,
    describe,
)
from ..confusion import ConfusionMatrix
from ..exceptions import SmallCountWarning, UndefinedMetricWarning
from ..metrics import BoundMetric
from ..metrics._registry import bind
from ..ops import _check_reference, confusion_matrix_ops
from ..results import ConfidenceInterval, IntervalResult, OPSResult
from ._containing import contain, snap_many
from ._draws import (
    at_positions,
    bca_levels,
    check_rng,
    equal_tailed,
    hpd,
    progress,
    quantile_positions,
)
from .methods import get_interval_method, interval_methods
from .proportion import BINOMIAL_METHODS, binomial_interval, method_label

__all__ = ["confusion_interval", "confusion_ops"]
PRIORS = {"jeffreys": 0.5, "bayes-laplace": 1.0}
DEFAULT_DRAWS = 10_000
# binomial intervals apply to these quantities: name -> (rate, complement?)
_RATE_OF = {
    "alpha": ("alpha", False),
    "beta": ("beta", False),
    "fpr": ("alpha", False),
    "fnr": ("beta", False),
    "specificity": ("alpha", True),
    "recall": ("beta", True),
}


class _Quantity:
    """alpha, beta or a bound metric, evaluated on (pi, alpha, beta) arrays."""

    def __init__(self, name: Any, params: dict[str, Any]) -> None:
        if isinstance(name, str) and name.strip().lower() in ("alpha", "beta"):
            self.name = name.strip().lower()
            self.label = "alpha (FPR)" if self.name == "alpha" else "beta (FNR)"
            self.metric = None
            if params:
                raise TypeError(f"`{self.name}` takes no parameters; got {sorted(params)}.")
        else:
            self.metric = bind(name, params, "name")
            self.name = self.metric.name
            self.label = self.metric.label

    def of(self, cm: Any) -> float:
        """The point estimate from the counts, exactly as ``cm.metric`` computes it."""
        if self.metric is None:
            return float(cm.alpha if self.name == "alpha" else cm.beta)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMetricWarning)
            return float(cm.metric(self.metric))

    def __call__(self, pi: Any, a: Any, b: Any) -> np.ndarray:
        if self.metric is None:
            return np.asarray(a if self.name == "alpha" else b, dtype=float)
        return np.asarray(self.metric(pi, a, b), dtype=float)


def _prior(prior: Any) -> tuple[dict[str, float], str]:
    """Cell pseudo-counts and a label from ``"jeffreys"``, ``"bayes-laplace"``, a
    positive number (symmetric) or a dict with keys tp, fp, fn, tn."""
    if isinstance(prior, str):
        key = check_choice("prior", prior.lower(), tuple(PRIORS))
        a = PRIORS[key]
        name = "Jeffreys" if key == "jeffreys" else "Bayes-Laplace"
        return dict.fromkeys(("tp", "fp", "fn", "tn"), a), f"{name} prior"
    if isinstance(prior, dict):
        if set(prior) != {"tp", "fp", "fn", "tn"}:
            raise ValueError(
                "`prior` as a dict must have exactly the keys 'tp', 'fp', 'fn', "
                f"'tn'; got {sorted(prior)}."
            )
        cells = {
            k: check_real(f"prior[{k!r}]", v, low=0.0, low_open=True) for k, v in prior.items()
        }
        text = ", ".join(f"{k}={v:g}" for k, v in cells.items())
        return cells, f"Dirichlet({text}) prior"
    try:
        a = check_real("prior", prior, low=0.0, low_open=True)
    except TypeError:
        raise TypeError(
            "`prior` must be 'jeffreys', 'bayes-laplace', a positive number or "
            f"a dict of cell pseudo-counts; got {describe(prior)}."
        ) from None
    return dict.fromkeys(("tp", "fp", "fn", "tn"), a), f"Dirichlet({a:g}) prior"


def _rates_from_counts(tp, fp, fn, tn):
    """(pi, alpha, beta) of count arrays, with the registry's placeholder 0 for an
    undefined error rate (so metrics that need the absent class come out 0/0)."""
    n = tp + fp + fn + tn
    pos, neg = tp + fn, fp + tn
    with np.errstate(divide="ignore", invalid="ignore"):
        pi = pos / n
        a = np.where(neg > 0, fp / np.where(neg > 0, neg, 1), 0.0)
        b = np.where(pos > 0, fn / np.where(pos > 0, pos, 1), 0.0)
    return pi, a, b


class _Draws:
    """Draws of (pi, alpha, beta) from the posterior or the bootstrap distribution."""

    def __init__(
        self,
        cm: Any,
        method: str,
        n: int,
        rng: np.random.Generator,
        *,
        prior: Any,
        prevalence: str,
        stratified: bool,
        show_progress: bool | None,
    ) -> None:
        self.cm = cm
        self.method = method
        self.n = n
        # a standardized matrix draws from its origin's counts, its prevalence fixed
        cm, fixed = _sampling_view(cm, method, prevalence, stratified)
        fixed_text = "fixed" if fixed is None else f"fixed at {fixed:.4f} (standardized)"
        pi_fixed = cm.prevalence if fixed is None else fixed
        registered = get_interval_method(method)
        with progress(n, show_progress, method) as tick:
            if registered is not None:  # opsstats.uncertainty.methods
                self.a, self.b = registered.draws(cm, n, rng)
                self.pi = np.full(n, pi_fixed)
                self.description = f"{registered.description}, {n} draws, prevalence {fixed_text}"
                self.prevalence_mode = "fixed"
            elif method == "dirichlet":
                cells, prior_label = _prior(prior)
                self.a = rng.beta(cm.fp + cells["fp"], cm.tn + cells["tn"], n)
                self.b = rng.beta(cm.fn + cells["fn"], cm.tp + cells["tp"], n)
                if prevalence == "random":
                    self.pi = rng.beta(
                        cm.tp + cm.fn + cells["tp"] + cells["fn"],
                        cm.fp + cm.tn + cells["fp"] + cells["tn"],
                        n,
                    )
                else:
                    self.pi = np.full(n, pi_fixed)
                how = fixed_text if prevalence == "fixed" else prevalence
                self.description = (
                    f"Dirichlet-multinomial, {prior_label}, {n} draws, prevalence {how}"
                )
                self.prevalence_mode = prevalence
            else:
                for k in ("tp", "fp", "fn", "tn"):
                    check_count(k, getattr(cm, k), integer=True)
                smallest = min(cm.tp, cm.fp, cm.fn, cm.tn)
                if smallest < 5:
                    warnings.warn(
                        f"a count of {cm!r} is {smallest} (< 5): bootstrap intervals cover "
                        "well below their nominal level with counts this small (coverage "
                        "study, benchmarks/results/coverage_cm.md); method='dirichlet' "
                        "stays at or above it.",
                        SmallCountWarning,
                        stacklevel=4,
                    )
                if stratified:
                    pos, neg = cm.tp + cm.fn, cm.fp + cm.tn
                    tp = rng.binomial(pos, cm.tp / pos, n) if pos else np.zeros(n)
                    fp = rng.binomial(neg, cm.fp / neg, n) if neg else np.zeros(n)
                    counts = (tp, fp, pos - tp, neg - fp)
                    self.description = f"stratified bootstrap, {n} resamples"
                    if fixed is not None:
                        self.description += f", prevalence {fixed_text}"
                    self.prevalence_mode = "fixed"
                else:
                    counts = tuple(
                        rng.multinomial(
                            int(cm.n), np.array([cm.tp, cm.fp, cm.fn, cm.tn], dtype=float) / cm.n, n
                        ).T
                    )
                    self.description = f"bootstrap (not stratified), {n} resamples"
                    self.prevalence_mode = "random"
                self.pi, self.a, self.b = _rates_from_counts(
                    *(np.asarray(c, dtype=float) for c in counts)
                )
                if fixed is not None:
                    self.pi = np.full(n, fixed)
            tick(n)

    @property
    def prevalence_fixed(self) -> bool:
        return self.prevalence_mode == "fixed"

    def at_prevalence(self, prevalence: float) -> _Draws:
        """These draws of alpha and beta with the prevalence fixed at ``prevalence`` in
        every draw: the draws of the matrix standardized to it (its sampling view is
        this matrix's counts), for intervals of the standardized metrics from the very
        draws of the unstandardized ones (:func:`opsstats.evaluate`)."""
        if not self.prevalence_fixed:
            raise ValueError(
                f"standardized draws need the prevalence fixed; these draw it ({self.description})."
            )
        out = copy.copy(self)
        out.pi = np.full(self.n, float(prevalence))
        origin = self.cm if self.cm.origin is None else self.cm.origin
        out.cm = origin.at_prevalence(prevalence)
        head = re.sub(r", prevalence fixed( at \S+ \(standardized\))?$", "", self.description)
        out.description = f"{head}, prevalence fixed at {prevalence:.4f} (standardized)"
        return out


def _sampling_view(cm: Any, method: str, prevalence: str, stratified: bool) -> tuple[Any, Any]:
    """The matrix whose counts the draws come from and the prevalence fixed in every
    draw (None: the counts' own): a standardized matrix's origin and its prevalence.
    Methods that draw the prevalence are refused for a standardized matrix: its
    prevalence is a stated constant, not an estimate (docs/method.md#standardized-prevalence).
    """
    source, fixed = cm._sampling_view()
    if fixed is not None:
        draws_pi = (method == "dirichlet" and prevalence == "random") or (
            method == "bootstrap" and not stratified
        )
        if draws_pi:
            what, default = (
                ("`prevalence='random'`", "`prevalence='fixed'`")
                if method == "dirichlet"
                else ("`stratified=False`", "`stratified=True`")
            )
            raise ValueError(
                f"{what} draws the prevalence, and a standardized matrix's prevalence is "
                f"the stated {fixed!r}, not an estimate; its intervals draw alpha and beta "
                f"from the original counts with the prevalence fixed ({default}, the "
                "default)."
            )
    return source, fixed


def _finish(lo: float, hi: float, estimate: float, method: str) -> tuple[float, float, str]:
    """The ends of a draws' interval, snapped to the estimate within a few ulps (the
    estimate is computed in extended precision, the draws in float64); a Dirichlet
    interval (the default) then extended to the estimate where it lies outside, with the
    text that says so (:func:`~opsstats.uncertainty._containing.contain`). That happens
    at a count of 0 (or a full class): the estimate sits on the boundary (precision 0
    with TP = 0, alpha 0 with FP = 0) where the posterior has little mass; Brown, Cai
    and DasGupta's boundary rule for the Jeffreys binomial interval (lower end 0 when
    x = 0), applied to every metric."""
    if method != "dirichlet":
        low, high = snap_many(lo, hi, estimate)
        return float(low), float(high), ""
    return contain(lo, hi, estimate)


def _interval_from(
    values: np.ndarray,
    kind: str,
    level: float,
    estimate: float,
    jackknife: tuple[np.ndarray, np.ndarray] | None,
) -> tuple[tuple[float, float], np.ndarray]:
    """(low, high) and the sorted defined values."""
    defined = np.sort(values[~np.isnan(values)])
    if defined.size == 0:
        return (float("nan"), float("nan")), defined
    if kind == "hpd":
        return hpd(defined, level), defined
    if kind == "bca":
        jk = cast(tuple[np.ndarray, np.ndarray], jackknife)  # given with kind="bca"
        lv = bca_levels(defined, estimate, jk[0], jk[1], level)
        lo, hi = at_positions(defined, quantile_positions(defined.size, lv))
        return (float(lo), float(hi)), defined
    return equal_tailed(defined, level), defined


def _jackknife(cm: Any, quantity: _Quantity) -> tuple[np.ndarray, np.ndarray]:
    """Leave-one-out estimates for the four row types, weighted by their counts (of the
    origin of a standardized matrix, each at the standardized prevalence)."""
    cm, fixed = cm._sampling_view()
    base = np.array([cm.tp, cm.fp, cm.fn, cm.tn], dtype=float)
    counts = base - np.eye(4)
    counts = np.where(counts < 0, 0, counts)
    pi, a, b = _rates_from_counts(*counts.T)
    values = quantity(pi if fixed is None else np.full(4, fixed), a, b)
    weights = np.where(base > 0, base, 0.0)
    ok = ~np.isnan(values) & (weights > 0)
    return values[ok], weights[ok]


def _check_options(
    method: str, interval: str | None, prevalence: str, n_resamples: Any, name: str = "method"
) -> tuple[str, str, int]:
    method = check_choice(name, method, interval_methods())
    prevalence = check_choice("prevalence", prevalence, ("fixed", "random"))
    if get_interval_method(method) is not None and prevalence != "fixed":
        raise ValueError(
            f"`prevalence={prevalence!r}` is not available with the registered method "
            f"{method!r}: it draws alpha and beta given the class totals (prevalence fixed)."
        )
    if method == "dirichlet" or get_interval_method(method) is not None:
        kinds = ("equal-tailed", "hpd")
    elif method == "bootstrap":
        kinds = ("percentile", "bca")
    else:
        kinds = ("exact",)  # type: ignore[assignment]  # one kind for the binomial methods
    kind = kinds[0] if interval is None else check_choice("interval", interval, kinds)
    n = DEFAULT_DRAWS if n_resamples is None else check_resamples(n_resamples)
    return method, kind, n


_KIND_LABEL = {
    "equal-tailed": "equal-tailed",
    "hpd": "HPD",
    "percentile": "percentile",
    "bca": "BCa",
}


def confusion_interval(
    cm: Any,
    name: Any,
    *,
    method: str = "dirichlet",
    confidence_level: float = 0.95,
    n_resamples: int | None = None,
    interval: str | None = None,
    prior: Any = "jeffreys",
    prevalence: str = "fixed",
    stratified: bool = True,
    rng: Any = None,
    progress: bool | None = None,
    **params: Any,
) -> IntervalResult:
    """Interval for alpha, beta or a metric of a confusion matrix.

    See :meth:`opsstats.ConfusionMatrix.interval` for the parameters.

    Examples
    --------
    >>> from opsstats import ConfusionMatrix
    >>> r = confusion_interval(ConfusionMatrix(tp=40, fp=10, fn=10, tn=140), "alpha",
    ...                        method="clopper-pearson")
    >>> round(r.ci.low, 4), round(r.ci.high, 4)
    (0.0324, 0.1192)
    """
    check_instance("cm", cm, ConfusionMatrix)
    cl = check_confidence_level(confidence_level)
    method, kind, n = _check_options(method, interval, prevalence, n_resamples)
    quantity = _Quantity(name, params)
    estimate = quantity.of(cm)
    if method in BINOMIAL_METHODS:
        return _binomial(cm, quantity, method, cl, estimate)
    if isinstance(stratified, bool) is False:
        raise TypeError(f"`stratified` must be True or False; got {describe(stratified)}.")
    draws = _Draws(
        cm,
        method,
        n,
        check_rng(rng),
        prior=prior,
        prevalence=prevalence,
        stratified=stratified,
        show_progress=progress,
    )
    return interval_from_draws(cm, quantity, draws, kind, cl)


def interval_from_draws(
    cm: Any, quantity: _Quantity, draws: _Draws, kind: str, cl: float
) -> IntervalResult:
    """The interval of ``quantity`` from draws already made (``interval`` ``kind``):
    what :func:`confusion_interval` returns, and what :func:`opsstats.evaluate` uses for
    every metric of a group from the group's one set of draws."""
    estimate = quantity.of(cm)
    values = quantity(draws.pi, draws.a, draws.b)
    jack = _jackknife(cm, quantity) if kind == "bca" else None
    (lo, hi), defined = _interval_from(values, kind, cl, estimate, jack)
    lo, hi, note = _finish(lo, hi, estimate, draws.method)
    n = draws.n
    return IntervalResult(
        estimate=estimate,
        ci=ConfidenceInterval(lo, hi),
        confidence_level=cl,
        quantity=quantity.label,
        method=f"{draws.description}, {_KIND_LABEL[kind]}{note}",
        n_resamples=n,
        n_undefined=int(n - defined.size),
        prevalence_mode=draws.prevalence_mode,
        draws=values[~np.isnan(values)],
    )  # in draw order, so draws can be paired


def _binomial(
    cm: Any, quantity: _Quantity, method: str, cl: float, estimate: float
) -> IntervalResult:
    rate, complement = _RATE_OF.get(quantity.name, (None, False))
    if rate is None:
        raise ValueError(
            f"`method={method!r}` gives intervals for a binomial proportion: "
            "alpha, beta, recall, specificity, fpr or fnr; for "
            f"{quantity.label} use 'dirichlet' or 'bootstrap'."
        )
    cm = cm._sampling_view()[0]  # a standardized matrix: its origin's counts
    x, trials = (cm.fp, cm.fp + cm.tn) if rate == "alpha" else (cm.fn, cm.tp + cm.fn)
    try:
        lo, hi = binomial_interval(x, trials, method=method, confidence_level=cl)
    except ValueError as exc:
        raise ValueError(f"no {method} interval for {quantity.label} of {cm!r}: {exc}") from None
    if complement:
        lo, hi = 1 - hi, 1 - lo
    return IntervalResult(
        estimate=estimate,
        ci=ConfidenceInterval(lo, hi),
        confidence_level=cl,
        quantity=quantity.label,
        method=method_label(method),
    )


def confusion_ops(
    cm: Any,
    metric: Any,
    *,
    reference: Any = None,
    ci: str | None = None,
    confidence_level: float = 0.95,
    n_resamples: int | None = None,
    interval: str | None = None,
    prior: Any = "jeffreys",
    prevalence: str = "fixed",
    stratified: bool = True,
    rng: Any = None,
    progress: bool | None = None,
    ties: str = "strict",
    **params: Any,
) -> OPSResult:
    """OPS of a confusion matrix's metric, with an interval when ``ci`` is a method.

    See :meth:`opsstats.ConfusionMatrix.ops`.

    Examples
    --------
    >>> from opsstats import ConfusionMatrix
    >>> r = confusion_ops(ConfusionMatrix(tp=40, fp=10, fn=10, tn=140), "f1", ci="dirichlet",
    ...                   rng=0)
    >>> r.ci.low < r.estimate < r.ci.high
    True
    """
    result = confusion_matrix_ops(cm, metric, reference=reference, ties=ties, **params)
    if ci is None:
        return result
    # an OPS that is 0/0 for the observed counts (NaN, with its reason) still gets an
    # interval from the draws, as interval() gives one for the metric
    if ci in BINOMIAL_METHODS:
        raise ValueError(
            f"`ci={ci!r}` is an interval for a proportion, not for an OPS; "
            "use 'dirichlet' or 'bootstrap'."
        )
    cl = check_confidence_level(confidence_level)
    method, kind, n = _check_options(ci, interval, prevalence, n_resamples, "ci")

    ref = _check_reference(reference, "point", "a confusion-matrix metric")
    quantity = _Quantity(metric, params)
    draws = _Draws(
        cm,
        method,
        n,
        check_rng(rng),
        prior=prior,
        prevalence=prevalence,
        stratified=stratified,
        show_progress=progress,
    )
    return ops_from_draws(cm, quantity, result, draws, kind, cl, ref, ties)


def ops_from_draws(
    cm: Any,
    quantity: _Quantity,
    result: OPSResult,
    draws: _Draws,
    kind: str,
    cl: float,
    ref: Any,
    ties: str,
) -> OPSResult:
    """``result`` (the OPS of the observed value) with its interval from draws already
    made.

    At fixed prevalence with an equal-tailed, percentile or BCa interval, OPS is
    monotone in the metric, so the OPS interval is the metric's interval (exactly as
    :func:`interval_from_draws` gives it from the same draws) mapped through OPS:
    ``ops_ci.low == OPS(value_ci.low)`` for a higher-is-better metric (the ends swap for
    a lower-is-better one). Otherwise (HPD, or the prevalence drawn too) the OPS of
    every draw is computed and its interval taken.
    """
    n = draws.n
    values = quantity(draws.pi, draws.a, draws.b)
    defined_pi = (draws.pi > 0) & (draws.pi < 1)
    values = np.where(defined_pi, values, np.nan)
    if np.isnan(values).all():  # undefined in every draw: no interval, said so
        return replace(
            result,
            ci=ConfidenceInterval(float("nan"), float("nan")),
            confidence_level=cl,
            ci_method=f"{draws.description}: the metric is "
            f"undefined (0/0) in all {n} draws, so there is no interval",
            details={
                **result.details,
                "n_resamples": n,
                "n_undefined": n,
                "prevalence_mode": draws.prevalence_mode,
                "draws": None,
            },
        )
    metric = cast(BoundMetric, quantity.metric)  # OPS needs a metric, not alpha or beta
    if draws.prevalence_fixed and kind != "hpd":
        # OPS is monotone in the metric at fixed prevalence: map the metric's interval
        value_ci = interval_from_draws(cm, quantity, draws, kind, cl)
        lo_v, hi_v = value_ci.ci
        ends = np.array([lo_v, hi_v] if metric.higher_is_better else [hi_v, lo_v])
        ops_at = np.asarray(
            ref.ops(metric, ends, prevalence=cm.prevalence, ties=ties).estimate, dtype=float
        )
        # the OPS of the value's estimate is the OPS estimate up to rounding: snapped (and
        # for the Dirichlet contained) as the value interval was, said once
        low, high, note = _finish(float(ops_at[0]), float(ops_at[1]), result.estimate, draws.method)
        how = value_ci.method if value_ci.method.endswith(note) else value_ci.method + note
        n_defined = n - value_ci.n_undefined
        ops_draws = None
    else:
        if kind == "bca":
            raise ValueError(
                "`interval='bca'` for an OPS needs the prevalence fixed (stratified bootstrap)."
            )
        ok = ~np.isnan(values)
        ops_draws = np.full(values.shape, np.nan)
        if ok.any():
            ops_draws[ok] = ref.ops(metric, values[ok], prevalence=draws.pi[ok], ties=ties).estimate
        (low, high), defined = _interval_from(ops_draws, kind, cl, result.estimate, None)
        low, high, note = _finish(float(low), float(high), result.estimate, draws.method)
        how = f"{draws.description}, {_KIND_LABEL[kind]}{note}"
        n_defined = defined.size
        ops_draws = ops_draws[~np.isnan(ops_draws)]  # in draw order
    return replace(
        result,
        ci=ConfidenceInterval(float(low), float(high)),
        confidence_level=cl,
        ci_method=how,
        details={
            **result.details,
            "n_resamples": n,
            "n_undefined": int(n - n_defined),
            "prevalence_mode": draws.prevalence_mode,
            "draws": ops_draws,
        },
    )
