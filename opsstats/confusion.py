"""The binary confusion matrix and its (n, prevalence, alpha, beta) parametrization."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from ._labels import positive_mask
from ._lazy import lazy_module
from ._seam import upcall
from ._summary import Summary, wrap_line
from ._validation import (
    check_1d,
    check_count,
    check_probability,
    check_real,
    check_same_length,
    check_sample_weight,
    describe,
)
from .exceptions import UndefinedMetricWarning
from .metrics import BoundMetric, Metric, available_metrics, get_metric
from .metrics._registry import bind
from .metrics._zero_division import check_zero_division, undefined

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = lazy_module("pandas")

__all__ = ["ConfusionMatrix"]


def _restore(tp: float, fp: float, fn: float, tn: float) -> ConfusionMatrix:
    """Unpickle a :class:`ConfusionMatrix` (see ``ConfusionMatrix.__reduce__``)."""
    return ConfusionMatrix(tp=tp, fp=fp, fn=fn, tn=tn)


def _restore_standardized(origin: ConfusionMatrix, prevalence: float) -> ConfusionMatrix:
    """Unpickle a standardized :class:`ConfusionMatrix`: its origin at the prevalence."""
    return origin.at_prevalence(prevalence)


def standardized_note(prevalence: float, origin_prevalence: float, n: float) -> str:
    """How a standardized object says what it is (repr aside): the prevalence it is at,
    the one it was standardized from and whose class sizes carry its uncertainty."""
    return (
        f"at prevalence {prevalence:.4f} (standardized from {origin_prevalence:.4f}, "
        f"n = {n:g}; the original's class sizes carry the uncertainty)"
    )


class _Standardizable:
    """What a confusion matrix and a curve share as objects that ``at_prevalence`` can
    standardize (docs/method.md#standardized-prevalence): the :attr:`origin` they were
    made from, a repr that makes them again (``<origin>.at_prevalence(pi)``) and a str
    that says where they come from. The class defines ``_origin``, ``_standard`` (the
    prevalence), ``prevalence``, ``n`` and ``_counts_repr()``."""

    __slots__ = ()
    _origin: Any
    _standard: float | None
    prevalence: Any
    n: Any
    _counts_repr: Callable[[], str]  # each class's counts, as its repr writes them

    @property
    def origin(self) -> Any:
        """The object this one was standardized from (``at_prevalence``); None for one
        made from counts."""
        return self._origin

    def __repr__(self) -> str:
        if self._origin is not None:  # how to make it again: its origin at the prevalence
            return f"{self._origin!r}.at_prevalence({self._standard!r})"
        return self._counts_repr()

    def __str__(self) -> str:
        if self._origin is None:
            return self._counts_repr()
        note = standardized_note(self.prevalence, self._origin.prevalence, self.n)
        return wrap_line(f"{self._counts_repr()} {note}")


class ConfusionMatrix(_Standardizable):
    """An immutable binary confusion matrix.

    Parameters
    ----------
    tp, fp, fn, tn : int or float
        The four counts: true positives, false positives, false negatives, true
        negatives. Non-negative and finite; whole numbers are stored as ``int``,
        weighted counts (from ``sample_weight``) as ``float``.

    Notes
    -----
    With ``n = tp + fp + fn + tn``, the matrix is re-parametrized as

        prevalence pi = (tp + fn) / n,  alpha = fp / (fp + tn),  beta = fn / (tp + fn)

    (Type-I and Type-II error rates; Zhao et al., eq. 2). For 0 < pi < 1 this is a
    one-to-one map; when a class is absent the corresponding error rate is undefined
    (NaN) and every metric that needs it is NaN with an
    :class:`~opsstats.exceptions.UndefinedMetricWarning`.

    :meth:`at_prevalence` gives the same classifier (the same alpha and beta) at another
    prevalence, a *standardized* matrix: its counts are re-expressed, its intervals
    still rest on this matrix's class sizes (docs/method.md#standardized-prevalence).

    Examples
    --------
    >>> from opsstats import ConfusionMatrix
    >>> cm = ConfusionMatrix(tp=339, fp=164, fn=223, tn=517)
    >>> cm
    ConfusionMatrix(tp=339, fp=164, fn=223, tn=517)
    >>> round(cm.prevalence, 4), round(cm.alpha, 4), round(cm.beta, 4)
    (0.4521, 0.2408, 0.3968)
    >>> round(cm.metric("f1"), 4)
    0.6366
    >>> round(cm.metric("fbeta", beta=2), 4)
    0.6161
    """

    __slots__ = ("_fn", "_fp", "_origin", "_standard", "_tn", "_tp")
    _tp: int | float
    _fp: int | float
    _fn: int | float
    _tn: int | float
    # a standardized matrix: the matrix it was made from, and its prevalence (else None)
    _origin: ConfusionMatrix | None
    _standard: float | None

    def __init__(self, *, tp: float, fp: float, fn: float, tn: float) -> None:
        counts = {k: check_count(k, v) for k, v in (("tp", tp), ("fp", fp), ("fn", fn), ("tn", tn))}
        total = sum(counts.values())
        if total <= 0:
            raise ValueError(
                "a confusion matrix needs at least one observation; got tp + fp + fn + tn = 0."
            )
        if isinstance(total, float) and not np.isfinite(total):
            raise ValueError(
                "the counts `tp`, `fp`, `fn` and `tn` must have a finite sum; got counts "
                f"that add up to more than a float can hold ({', '.join(map(describe, counts.values()))})."
            )
        for k, v in counts.items():
            object.__setattr__(self, "_" + k, v)
        object.__setattr__(self, "_origin", None)
        object.__setattr__(self, "_standard", None)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(
            f"ConfusionMatrix is immutable: cannot set `{name}`; build a new one instead."
        )

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"ConfusionMatrix is immutable: cannot delete `{name}`.")

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # pickle and copy rebuild through the constructor: the default protocol sets
        # the slots one by one, which __setattr__ refuses
        if self._origin is not None:
            return _restore_standardized, (self._origin, self._standard)
        return _restore, (self._tp, self._fp, self._fn, self._tn)

    # ----------------------------------------------------------------- builders
    @classmethod
    def from_predictions(
        cls, y_true: Any, y_pred: Any, *, pos_label: Any = None, sample_weight: Any = None
    ) -> ConfusionMatrix:
        """Count a confusion matrix from true and predicted labels.

        Parameters
        ----------
        y_true, y_pred : array-like of shape (n,)
            Binary labels (numpy arrays, lists or pandas Series).
        pos_label : label, optional
            The positive class. Defaults to 1 for {0, 1} or {-1, 1} labels and True
            for booleans; required otherwise.
        sample_weight : array-like of shape (n,), optional
            Non-negative weights; the counts are then weighted sums (floats).

        Returns
        -------
        ConfusionMatrix

        Examples
        --------
        >>> ConfusionMatrix.from_predictions([1, 0, 1, 1, 0], [1, 1, 0, 1, 0])
        ConfusionMatrix(tp=2, fp=1, fn=1, tn=1)
        >>> ConfusionMatrix.from_predictions(["a", "b", "a"], ["a", "a", "a"], pos_label="a")
        ConfusionMatrix(tp=2, fp=1, fn=0, tn=0)
        """
        t = check_1d("y_true", y_true)
        p = check_1d("y_pred", y_pred)
        n = check_same_length(y_true=t, y_pred=p)
        w = check_sample_weight(sample_weight, n)
        if w is not None and not w.sum() > 0:
            raise ValueError(
                "`sample_weight` must have a positive sum; got weights that are all 0."
            )
        truth, pos = positive_mask(
            t, name="y_true", pos_label=pos_label, other=p, other_name="y_pred"
        )
        pred = p == pos
        tp: float
        fp: float
        fn: float
        tn: float
        if w is None:
            tp = int(np.count_nonzero(truth & pred))
            fp = int(np.count_nonzero(~truth & pred))
            fn = int(np.count_nonzero(truth & ~pred))
            tn = n - tp - fp - fn
        else:
            tp = float(w[truth & pred].sum())
            fp = float(w[~truth & pred].sum())
            fn = float(w[truth & ~pred].sum())
            tn = float(w[~truth & ~pred].sum())
        return cls(tp=tp, fp=fp, fn=fn, tn=tn)

    @classmethod
    def from_rates(
        cls, *, n: float, prevalence: float, alpha: float, beta: float
    ) -> ConfusionMatrix:
        """The confusion matrix with size ``n``, prevalence and error rates.

        The counts are ``n pi (1 - beta)``, ``n (1 - pi) alpha``, ``n pi beta`` and
        ``n (1 - pi)(1 - alpha)``, not rounded (floats unless they are whole). When
        each of the four is within a relative ``1e-9`` of a whole number below 2**53
        (rates computed from integer counts), they are returned as those integers;
        otherwise none is rounded, so that the counts always sum to ``n``. The
        tolerance is per cell and relative: a tiny cell (``n pi beta = 1e-7``) is never
        snapped to 0.

        Examples
        --------
        >>> ConfusionMatrix.from_rates(n=1000, prevalence=0.1, alpha=0.2, beta=0.3)
        ConfusionMatrix(tp=70, fp=180, fn=30, tn=720)
        """
        n = check_real("n", n, low=0.0, low_open=True)
        pi = check_probability("prevalence", prevalence)
        a = check_probability("alpha", alpha)
        b = check_probability("beta", beta)

        cells: tuple[float, ...] = (
            n * pi * (1 - b),
            n * (1 - pi) * a,
            n * pi * b,
            n * (1 - pi) * (1 - a),
        )
        # Snap all four or none: snapping one cell but not its complement would make
        # the counts sum to 160.9999998 instead of n. The tolerance is relative to each
        # cell, so a cell of 1e-7 (a tiny beta) stays 1e-7: only a cell that is a
        # whole number up to rounding (0 exactly, or within 1e-9 of its value) snaps.
        if all(x < 2.0**53 for x in cells):
            whole = tuple(round(x) for x in cells)
            if all(abs(x - r) <= 1e-9 * x for x, r in zip(cells, whole, strict=True)):
                cells = whole
        tp, fp, fn, tn = cells
        return cls(tp=tp, fp=fp, fn=fn, tn=tn)

    # ------------------------------------------------------------ standardizing
    def at_prevalence(self, prevalence: float) -> ConfusionMatrix:
        """The same classifier (the same alpha and beta) at another prevalence.

        Parameters
        ----------
        prevalence : float
            The prevalence pi to standardize to, 0 < pi < 1.

        Returns
        -------
        ConfusionMatrix
            A *standardized* matrix with the same n: counts ``n pi (1 - beta)``,
            ``n (1 - pi) alpha``, ``n pi beta``, ``n (1 - pi)(1 - alpha)`` (floats);
            :attr:`alpha` and :attr:`beta` exactly this matrix's, :attr:`prevalence`
            exactly ``prevalence``. Every metric is the registry's M(pi, alpha, beta),
            the metric of these rows reweighted to the prevalence (positives by
            pi / pi0, negatives by (1 - pi) / (1 - pi0)). Its intervals and OPS
            intervals hold the prevalence fixed and draw alpha and beta from *this*
            matrix's counts (its class sizes, not the re-expressed ones: standardizing
            10 positives to pi = 0.5 adds no certainty); methods that draw the
            prevalence (``prevalence="random"``, the unstratified bootstrap) are
            refused. It remembers this matrix and says so in its repr, its str and its
            summary; ``at_prevalence`` of it starts again from this matrix
            (docs/method.md#standardized-prevalence).

        Raises
        ------
        ValueError
            If ``prevalence`` is not in (0, 1), or this matrix has a class absent
            (alpha or beta undefined).

        Examples
        --------
        >>> cm = ConfusionMatrix(tp=45, fp=30, fn=15, tn=210)
        >>> std = cm.at_prevalence(0.5)
        >>> std
        ConfusionMatrix(tp=45, fp=30, fn=15, tn=210).at_prevalence(0.5)
        >>> print(std)
        ConfusionMatrix(tp=112.5, fp=18.75, fn=37.5, tn=131.25) at prevalence 0.5000
            (standardized from 0.2000, n = 300; the original's class sizes carry the
            uncertainty)
        >>> std.alpha == cm.alpha, std.beta == cm.beta, std.prevalence
        (True, True, 0.5)
        >>> round(std.metric("precision"), 4), round(cm.metric("precision"), 4)
        (0.8571, 0.6)
        """
        origin = self if self._origin is None else self._origin
        pi = check_probability("prevalence", prevalence, open_low=True, open_high=True)
        if not origin.positives > 0 or not origin.negatives > 0:
            raise ValueError(
                f"`at_prevalence` needs both classes, so that alpha and beta are defined; "
                f"got {origin!r}, which has no "
                f"{'positives' if not origin.positives > 0 else 'negatives'}."
            )
        n, a, b = origin.n, origin.alpha, origin.beta
        out = object.__new__(ConfusionMatrix)
        cells = (n * pi * (1 - b), n * (1 - pi) * a, n * pi * b, n * (1 - pi) * (1 - a))
        for k, v in zip(("_tp", "_fp", "_fn", "_tn"), cells, strict=True):
            object.__setattr__(out, k, float(v))
        object.__setattr__(out, "_origin", origin)
        object.__setattr__(out, "_standard", pi)
        return out

    def _sampling_view(self) -> tuple[ConfusionMatrix, float | None]:
        """What intervals draw from: the matrix whose counts carry the uncertainty (this
        one, or the origin of a standardized one) and the prevalence fixed in every
        draw (None: the counts' own; docs/method.md#standardized-prevalence)."""
        if self._origin is None:
            return self, None
        return self._origin, self._standard

    # --------------------------------------------------------------- properties
    tp = property(lambda self: self._tp, doc="True positives.")
    fp = property(lambda self: self._fp, doc="False positives.")
    fn = property(lambda self: self._fn, doc="False negatives.")
    tn = property(lambda self: self._tn, doc="True negatives.")

    @property
    def n(self) -> float:
        """Number of observations (sum of weights when weighted); a standardized
        matrix's is its origin's."""
        if self._origin is not None:
            return self._origin.n
        return self._tp + self._fp + self._fn + self._tn

    @property
    def positives(self) -> float:
        """Actual positives, TP + FN."""
        return self._tp + self._fn

    @property
    def negatives(self) -> float:
        """Actual negatives, FP + TN."""
        return self._fp + self._tn

    @property
    def prevalence(self) -> float:
        """pi = (TP + FN) / n; exactly the prevalence asked for, for a standardized
        matrix."""
        if self._standard is not None:
            return self._standard
        return self.positives / self.n

    @property
    def alpha(self) -> float:
        """Type-I error rate (FPR) FP / (FP + TN); NaN without actual negatives. A
        standardized matrix returns its origin's exactly."""
        if self._origin is not None:
            return self._origin.alpha
        return self._fp / self.negatives if self.negatives > 0 else float("nan")

    @property
    def beta(self) -> float:
        """Type-II error rate (FNR) FN / (TP + FN); NaN without actual positives. A
        standardized matrix returns its origin's exactly."""
        if self._origin is not None:
            return self._origin.beta
        return self._fn / self.positives if self.positives > 0 else float("nan")

    @property
    def is_integer(self) -> bool:
        """Whether all four counts are whole numbers."""
        return all(isinstance(v, int) for v in (self._tp, self._fp, self._fn, self._tn))

    def as_dict(self) -> dict[str, float]:
        """The counts as ``{"tp": ..., "fp": ..., "fn": ..., "tn": ...}``."""
        return {"tp": self._tp, "fp": self._fp, "fn": self._fn, "tn": self._tn}

    def rates(self) -> tuple[float, float, float]:
        """(prevalence, alpha, beta) with a finite placeholder (0) for an undefined
        error rate, which is the form the metric registry evaluates: the cells that
        multiply a placeholder are exactly zero (see ``opsstats.metrics``)."""
        if self._origin is not None:
            return self.prevalence, self.alpha, self.beta
        a = self.alpha if self.negatives > 0 else 0.0
        b = self.beta if self.positives > 0 else 0.0
        return self.prevalence, a, b

    def _rates_extended(self) -> tuple[Any, Any, Any]:
        """:meth:`rates` in extended precision (``np.longdouble``), for evaluating
        metrics. The registry rebuilds the cells as pi (1 - beta), (1 - pi)(1 - alpha):
        in float64, 1 - beta keeps only about 16 - log10(FN/TP) digits (TP = 1,
        FN = 1e6 leaves 10), which put metric values 1e-11 off. Where ``longdouble``
        is wider than float64 (x86-64: 64-bit mantissa) the values are then correct
        to float64 rounding for counts of any realistic size; elsewhere it is float64.
        """
        ld = np.longdouble
        if self._origin is not None:  # the origin's error rates at the prevalence asked
            _, a, b = self._origin._rates_extended()
            return ld(self.prevalence), a, b
        tp, fp, fn, tn = ld(self._tp), ld(self._fp), ld(self._fn), ld(self._tn)
        pos, neg = tp + fn, fp + tn
        a = fp / neg if neg > 0 else ld(0)
        b = fn / pos if pos > 0 else ld(0)
        return pos / (pos + neg), a, b

    def _evaluate(self, bound: BoundMetric) -> float:
        try:
            return float(bound(*self._rates_extended()))
        except TypeError:
            # a user metric built on functions without extended-precision loops
            # (e.g. some scipy.special ufuncs): evaluate in float64
            return float(bound(*self.rates()))

    # ------------------------------------------------------------------ metrics
    def metric(
        self, name: str | Metric | BoundMetric, *, zero_division: Any = "warn", **params: Any
    ) -> float:
        """The value of a registered metric.

        Parameters
        ----------
        name : str
            A metric name or alias (see :func:`opsstats.metrics.available_metrics`).
        zero_division : {"warn", 0, 1, numpy.nan}, default "warn"
            Where the metric is 0/0: ``"warn"`` returns NaN with an
            :class:`~opsstats.exceptions.UndefinedMetricWarning`; a number returns it
            without a warning (scikit-learn's ``zero_division``).
        **params
            The metric's parameters, e.g. ``beta=2`` for ``"fbeta"``.

        Returns
        -------
        float
            NaN, with an :class:`~opsstats.exceptions.UndefinedMetricWarning`, where
            the metric is 0/0 for these counts (unless ``zero_division`` says otherwise).

        Examples
        --------
        >>> ConfusionMatrix(tp=0, fp=0, fn=3, tn=7).metric("precision", zero_division=0)
        0.0
        """
        zd = check_zero_division(zero_division)
        bound = bind(name, params, "name")
        return undefined(
            self._evaluate(bound),
            zd,
            f"{bound.label} is undefined (0/0: {bound.metric.undefined}) for "
            f"{self!r}; returning NaN.",
            stacklevel=2,
        )

    def metrics(self) -> pd.Series:
        """Every registered metric (parameters at their defaults), as a Series.

        The index is the metric names of :func:`opsstats.metrics.available_metrics`,
        so that ``cm.metrics()[name] == cm.metric(name)``. Undefined metrics are NaN;
        one warning lists them all.
        """
        values, undefined = {}, []
        for name in available_metrics():
            bound = get_metric(name).bind()
            v = self._evaluate(bound)
            values[name] = v
            if np.isnan(v):
                undefined.append(name)
        if undefined:
            warnings.warn(
                f"undefined (0/0) for {self!r}, returned as NaN: {', '.join(undefined)}.",
                UndefinedMetricWarning,
                stacklevel=2,
            )
        return pd.Series(values, name="value", dtype=float)

    # ------------------------------------------------------ OPS and intervals
    def ops(
        self,
        metric: str | Metric | BoundMetric,
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
    ) -> Any:
        """Outperformance score (o-value) of a metric, optionally with an interval.

        Parameters
        ----------
        metric : str
            A registered metric name or alias.
        reference : PointReference, optional
            The reference distribution; default :class:`~opsstats.reference.Uniform`
            (alpha, beta independent U[0, 1], the paper's choice), exact.
        ci : {None, "dirichlet", "bootstrap"} or a registered method's name
            Add an interval for the OPS made by this method (see :meth:`interval`).
        confidence_level, n_resamples, interval, prior, prevalence, stratified, rng, progress
            Interval options, as in :meth:`interval`.
        ties : {"strict", "mid"}
        **params
            Metric parameters (``beta=2`` for ``"fbeta"``).

        Returns
        -------
        OPSResult
            ``estimate``; ``ci`` and ``ci_method`` when asked for. A metric that is
            0/0 for these counts gives NaN with an ``UndefinedMetricWarning``.

        Raises
        ------
        ValueError
            If a class is absent (prevalence 0 or 1): OPS is then undefined.

        Examples
        --------
        >>> cm = ConfusionMatrix.from_rates(n=1000, prevalence=0.1, alpha=0.05, beta=0.3)
        >>> print(cm.ops("f1").to_string(digits=3))  # doctest: +ELLIPSIS
        OPS(F1 score = 0.651 at prevalence 0.1) = 0.969 [Uniform(alpha, beta)...]
        >>> r = cm.ops("f1", ci="dirichlet", rng=1)
        >>> r.ci.low < r.estimate < r.ci.high
        True
        """
        return upcall("confusion_ops")(
            self,
            metric,
            reference=reference,
            ci=ci,
            confidence_level=confidence_level,
            n_resamples=n_resamples,
            interval=interval,
            prior=prior,
            prevalence=prevalence,
            stratified=stratified,
            rng=rng,
            progress=progress,
            ties=ties,
            **params,
        )

    def interval(
        self,
        name: str | Metric | BoundMetric,
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
    ) -> Any:
        """Confidence or credible interval for alpha, beta or a metric.

        Parameters
        ----------
        name : str
            ``"alpha"``, ``"beta"`` or a registered metric.
        method : {"dirichlet", "bootstrap", "clopper-pearson", "wilson", "jeffreys"}
            ``"dirichlet"`` (default): Dirichlet-multinomial posterior; alpha and beta
            are independent Betas given the class totals. ``"bootstrap"``: resampling the
            test set, done exactly by resampling the counts (two binomials when
            stratified, a multinomial when not). The binomial methods apply to alpha,
            beta and the rates recall, specificity, fpr, fnr. A method registered with
            :func:`opsstats.uncertainty.methods.register_interval_method` is accepted by
            its name (draws of alpha and beta given the class totals).
        confidence_level : float, default 0.95
        n_resamples : int, default 10,000
            Posterior draws or bootstrap resamples.
        interval : str, optional
            ``"equal-tailed"`` (default) or ``"hpd"`` for ``"dirichlet"`` and registered
            methods;
            ``"percentile"`` (default) or ``"bca"`` for ``"bootstrap"``.
        prior : "jeffreys", "bayes-laplace", float or dict
            Dirichlet prior: 1/2 (default), 1, a symmetric value, or pseudo-counts
            ``{"tp": .., "fp": .., "fn": .., "tn": ..}``.
        prevalence : {"fixed", "random"}
            For ``"dirichlet"``: condition on the class totals (default) or draw the
            prevalence too.
        stratified : bool, default True
            For ``"bootstrap"``: resample within each class (prevalence fixed).
        rng : None, int or numpy.random.Generator
            The same ``rng`` gives the same interval, bit for bit.
        progress : bool or None
            A progress bar of the draws on stderr: True from the start, False none,
            None (the default) as the environment variable ``OPSSTATS_PROGRESS`` says
            (by default a bar in a terminal once the draws have run for a second).
        **params
            Metric parameters.

        Returns
        -------
        IntervalResult
            ``estimate`` (from the counts), ``ci``, ``method`` (how it was made) and the
            number of draws where the metric was undefined (left out, reported).

        Notes
        -----
        A Dirichlet interval is extended to the point estimate when the estimate lies
        outside it, which happens at a count of 0 (e.g. precision 0 with TP = 0): Brown,
        Cai and DasGupta's boundary rule for the Jeffreys binomial interval; the method
        string then ends "extended to contain the estimate"
        (docs/method.md#containing-the-estimate). The draws in ``result.draws`` are in
        draw order.

        Equal-tailed Dirichlet intervals with the Jeffreys prior reach their nominal
        coverage closely for alpha and beta (they are the Jeffreys binomial intervals up
        to Monte Carlo error); Clopper-Pearson is conservative. Percentile bootstrap
        intervals undercover on small test sets. The coverage study in
        ``benchmarks/coverage.py`` and the vignette *How sure are we?* give the numbers.

        Examples
        --------
        >>> cm = ConfusionMatrix(tp=45, fp=30, fn=15, tn=210)
        >>> r = cm.interval("f1", rng=0)
        >>> print(r.to_string(digits=3))  # doctest: +ELLIPSIS
        F1 score = 0.667, 95% CI 0.5...-0.7... (Dirichlet-multinomial, Jeffreys prior, 10000 draws, prevalence fixed, equal-tailed)
        >>> cm.interval("alpha", method="clopper-pearson").ci  # doctest: +ELLIPSIS
        ConfidenceInterval(low=0.0859..., high=0.1736...)
        """
        return upcall("confusion_interval")(
            self,
            name,
            method=method,
            confidence_level=confidence_level,
            n_resamples=n_resamples,
            interval=interval,
            prior=prior,
            prevalence=prevalence,
            stratified=stratified,
            rng=rng,
            progress=progress,
            **params,
        )

    def plot(self, metric: str = "f1", ax: Any = None, **kwargs: Any) -> Any:
        """The (alpha, beta) unit square with the metric's level line through this
        matrix and the outperformed region shaded; its area is the OPS under the uniform
        reference (the paper's Figure 1a-b; :func:`opsstats.plotting.plot_unit_square`).
        Returns the Axes."""
        return upcall("plot_unit_square")(
            metric, self.metric(bind(metric, {}, "metric")), self.prevalence, ax=ax, **kwargs
        )

    # ---------------------------------------------------------------- printing
    def _counts_repr(self) -> str:
        return (
            f"ConfusionMatrix(tp={self._tp!r}, fp={self._fp!r}, fn={self._fn!r}, tn={self._tn!r})"
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ConfusionMatrix):
            return NotImplemented
        return (
            self.as_dict() == other.as_dict()
            and self._standard == other._standard
            and self._origin == other._origin
        )

    def __hash__(self) -> int:
        return hash((*self.as_dict().values(), self._standard))

    def summary(self, digits: int = 4) -> Summary:
        """The counts, the parametrization and every metric, as a :class:`Summary`
        (``str()`` for text, ``_repr_html_`` in notebooks, ``.to_frame()`` for a
        DataFrame)."""
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMetricWarning)
            values = self.metrics()
        rows = [
            ("count", "TP", self._tp),
            ("count", "FP", self._fp),
            ("count", "FN", self._fn),
            ("count", "TN", self._tn),
            ("count", "n", self.n),
            ("rate", "prevalence", self.prevalence),
            ("rate", "alpha (FPR)", self.alpha),
            ("rate", "beta (FNR)", self.beta),
        ]
        for name, v in values.items():
            # the label states the parameters used, e.g. "F-beta score (beta=1)"
            rows.append(("metric", get_metric(name).bind().label, v))
        table = pd.DataFrame(rows, columns=["kind", "quantity", "value"], dtype=object).set_index(
            ["kind", "quantity"]
        )
        notes = []
        if values.isna().any():
            notes.append(
                "NaN: undefined (0/0) for these counts: "
                + ", ".join(values.index[values.isna()])
                + "."
            )
        notes.append(
            "Metrics are point values from the counts; see cm.interval() and "
            "cm.ops() for intervals and outperformance scores."
        )
        title = f"Confusion matrix (n = {self.n:g}, prevalence = {self.prevalence:.4g})"
        if self._origin is not None:
            origin = self._origin
            title = "Confusion matrix " + standardized_note(
                self.prevalence, origin.prevalence, self.n
            )
            notes.append(
                f"Standardized from {origin!r}: the same alpha and beta at prevalence "
                f"{self.prevalence:.4g}, counts re-expressed with the same n; intervals "
                f"draw alpha and beta from the original's {origin.positives:g} positives "
                f"and {origin.negatives:g} negatives, the prevalence fixed."
            )
        return Summary(
            title=title,
            table=table,
            notes=tuple(notes),
            digits=digits,
        )
