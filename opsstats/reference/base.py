"""The reference-distribution interface shared by every reference.

A reference distribution is a distribution of classifier performances: of one
(alpha, beta) pair for *point* references (confusion-matrix metrics), of a monotone
curve of (alpha, beta) pairs for *curve* references (AUCs and operating points). The
outperformance score of an observed value mu at prevalence pi is

    OPS(mu; pi) = Pr{ M(pi, A, B) < mu }      (higher-is-better metrics)
    OPS(mu; pi) = Pr{ M(pi, A, B) > mu }      (lower-is-better metrics)

with ``ties="mid"`` adding half of Pr{ M = mu } (docs/method.md#outperformance-score).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

import numpy as np

from .._validation import check_1d, check_choice, check_real_array, describe
from ..curves._geometry import CurveArea, CurveQuantity, OperatingPoint, resolve_quantity
from ..metrics import BoundMetric, Metric, resolve_metric
from ..results import OPSResult

__all__ = ["ReferenceDistribution", "PointReference", "CurveReference"]

TIES = ("strict", "mid")


def check_prevalence(prevalence: Any, name: str = "prevalence") -> np.ndarray:
    """Prevalence(s) strictly inside (0, 1): OPS is undefined at 0 and 1 (``name``: the
    caller's argument, e.g. ``prevalences``)."""
    if prevalence is None:
        raise TypeError(
            f"`{name}` is required: OPS is defined relative to the test set's prevalence."
        )
    arr = check_real_array(name, prevalence)
    if not np.all(np.isfinite(arr)):
        raise ValueError(
            f"`{name}` must be finite; got "
            f"{describe(float(arr[~np.isfinite(arr)].flat[0]))}"
            + ("." if arr.ndim == 0 else f" in {describe(prevalence)}.")
        )
    bad = (arr <= 0) | (arr >= 1)
    if bad.any():
        v = float(arr[bad].flat[0])
        raise ValueError(
            f"`{name}` must be in the open interval (0, 1); got {v!r}. OPS is "
            "undefined when one class is absent: every classifier then has the "
            "same alpha or beta undefined, so there is nothing to rank against."
        )
    return arr


def check_one_prevalence(prevalence: Any) -> float:
    """One prevalence strictly inside (0, 1) (:func:`check_prevalence` of a scalar)."""
    arr = check_prevalence(prevalence)
    if arr.ndim != 0:
        raise TypeError(f"`prevalence` must be one number in (0, 1); got {describe(prevalence)}.")
    return float(arr)


def check_values(value: Any, quantity: Any) -> np.ndarray:
    """Observed metric value(s): finite or infinite where the metric's range allows it,
    not NaN, and inside the metric's range."""
    arr = check_real_array("value", value)
    if np.isnan(arr).any():
        raise ValueError(
            "`value` must not be NaN: the metric is undefined for the data, so "
            f"it has no outperformance score; got {int(np.isnan(arr).sum())} NaN value(s)."
        )
    lo, hi = value_range(quantity)
    bad = (arr < lo - 1e-12) | (arr > hi + 1e-12)
    if bad.any():
        v = float(arr[bad].flat[0])
        raise ValueError(
            f"`value` must be in the range of {quantity.label}, [{lo:g}, {hi:g}]; got {v!r}."
        )
    return arr


def value_range(quantity: Any) -> tuple[float, float]:
    """The range of a metric, curve area or operating-point value (may depend on pi
    for NAUC/lift; the loosest bounds are returned)."""
    if isinstance(quantity, CurveArea):
        return (0.0, np.inf) if quantity.curve == "lift" and not quantity.normalized else (0.0, 1.0)
    if isinstance(quantity, OperatingPoint):
        return quantity.metric.range
    return quantity.range


class ReferenceDistribution(ABC):
    """Abstract base class of reference distributions.

    Subclasses implement :meth:`_ops`, returning estimates and Monte Carlo standard
    errors for an array of values at one prevalence; the base class handles metric
    lookup, validation, broadcasting over values and prevalences, and the result
    object.

    Examples
    --------
    >>> from opsstats import DirectedBinaryTree, Uniform
    >>> [isinstance(r, ReferenceDistribution) for r in (Uniform(), DirectedBinaryTree())]
    [True, True]
    """

    #: ``"point"`` (one (alpha, beta)) or ``"curve"`` (a monotone curve).
    kind: str = "point"
    #: Whether OPS is computed exactly (closed form / quadrature) or by Monte Carlo.
    exact: bool = True

    @property
    @abstractmethod
    def description(self) -> str:
        """One line saying what this reference is (used in printed results)."""

    @property
    def method(self) -> str:
        """How OPS is computed, for printed results."""
        return "exact" if self.exact else "Monte Carlo"

    @abstractmethod
    def _quantity(self, metric: Any, at: Any, rule: str | None, params: dict[str, Any]) -> Any:
        """Resolve the metric argument into the quantity this reference ranks."""

    @abstractmethod
    def _ops(
        self, quantity: Any, values: np.ndarray, prevalence: float, ties: str
    ) -> tuple[np.ndarray, np.ndarray]:
        """(estimate, standard error) for ``values`` at one prevalence."""

    def _method_for(self, quantity: Any, prevalence: Any = None) -> str:
        """How OPS of this quantity is computed (e.g. closed form or quadrature), at
        these prevalences when they are given."""
        return self.method

    def _ops_many(
        self, quantity: Any, values: np.ndarray, prevalences: np.ndarray, ties: str
    ) -> tuple[np.ndarray, np.ndarray]:
        """(estimate, standard error) for 1-D ``values`` with their own prevalences.
        The default groups by prevalence; references that vectorize over prevalence
        override it."""
        est = np.empty(values.shape)
        se = np.empty(values.shape)
        for pi in np.unique(prevalences):
            mask = prevalences == pi
            est[mask], se[mask] = self._ops(quantity, values[mask], float(pi), ties)
        return est, se

    def ops(
        self,
        metric: str | Metric | BoundMetric,
        value: Any,
        *,
        prevalence: Any,
        at: dict[str, float] | None = None,
        rule: str | None = None,
        ties: str = "strict",
        **params: Any,
    ) -> OPSResult:
        """Outperformance score of metric value(s) at a prevalence.

        Parameters
        ----------
        metric : str
            A registered metric name (point references; curve references with
            ``at``), or a curve quantity ``"roc_auc"``, ``"pr_auc"``, ``"lift_auc"``,
            ``"gain_auc"`` or its NAUC form ``"nroc_auc"``, ... (curve references).
        value : float or array-like
            Observed metric value(s); vectorized.
        prevalence : float or array-like
            Test-set prevalence(s) in (0, 1); broadcast against ``value``.
        at : dict, optional
            Operating point of a curve, ``{"recall": u}``, ``{"fpr": u}`` or
            ``{"rate": u}`` with u in (0, 1].
        rule : {"trapezoid", "step"}, optional
            AUC rule for curve areas; default: the curve's rule (docs/method.md#auc-rules).
        ties : {"strict", "mid"}
            ``"strict"`` counts reference values strictly worse (the paper);
            ``"mid"`` adds half of the ties.
        **params
            Metric parameters, e.g. ``beta=2`` for ``"fbeta"``.

        Returns
        -------
        OPSResult
            ``estimate`` (float or array), ``standard_error`` (0 when exact) and how
            the number was made.
        """
        ties = check_choice("ties", ties, TIES)
        quantity = self._quantity(metric, at, rule, params)
        values = check_values(value, quantity)
        prev = check_prevalence(prevalence)
        try:
            v_b, p_b = np.broadcast_arrays(values, prev)
        except ValueError:
            raise ValueError(
                "`value` and `prevalence` must broadcast to one shape (equal shapes, or "
                f"one of them a scalar); got shapes {values.shape} and {prev.shape}."
            ) from None
        est, se = self._ops_many(quantity, v_b.ravel(), p_b.ravel(), ties)
        est, se = est.reshape(v_b.shape), se.reshape(v_b.shape)
        scalar = v_b.ndim == 0
        return OPSResult(
            estimate=float(est) if scalar else est,
            value=float(v_b) if scalar else v_b.copy(),
            prevalence=float(p_b) if scalar else p_b.copy(),
            metric=quantity.label,
            reference=self.description,
            method=self._method_for(quantity, p_b),
            standard_error=float(se) if scalar else se,
            rule=getattr(quantity, "rule", None),
            ties=ties,
        )

    def __repr__(self) -> str:
        return self.description


class PointReference(ReferenceDistribution):
    """A distribution of one (alpha, beta): ranks confusion-matrix metrics.

    Examples
    --------
    >>> from opsstats import Uniform
    >>> ref = Uniform()
    >>> isinstance(ref, PointReference), ref.kind, ref.exact
    (True, 'point', True)
    """

    kind = "point"

    def _quantity(
        self, metric: Any, at: Any, rule: str | None, params: dict[str, Any]
    ) -> BoundMetric:
        if at is not None:
            raise ValueError(
                f"{type(self).__name__} is a reference for single confusion "
                "matrices; an operating point `at` on a curve needs a curve "
                "reference such as DirectedBinaryTree()."
            )
        if rule is not None:
            raise ValueError(
                "`rule` applies to curve areas; a point reference ranks confusion-matrix "
                f"metrics; got {describe(rule)}."
            )
        return resolve_metric(metric, **params)


class CurveReference(ReferenceDistribution):
    """A distribution of monotone (alpha, beta) curves: ranks AUCs and operating points.

    Subclasses implement :meth:`reference_values` (the sorted vector of the quantity
    over the reference's curves at one prevalence); OPS is then a ``searchsorted``.

    Examples
    --------
    >>> from opsstats import DirectedBinaryTree
    >>> ref = DirectedBinaryTree(depth=4, n_curves=1000)
    >>> isinstance(ref, CurveReference), ref.kind, ref.exact
    (True, 'curve', False)
    """

    kind = "curve"

    def _quantity(
        self, metric: Any, at: Any, rule: str | None, params: dict[str, Any]
    ) -> CurveQuantity:
        return resolve_quantity(metric, at, rule, params)

    @abstractmethod
    def reference_values(
        self, quantity: CurveArea | OperatingPoint, prevalence: float
    ) -> np.ndarray:
        """Sorted values of ``quantity`` over the reference curves at ``prevalence``."""

    def _ops(
        self, quantity: Any, values: np.ndarray, prevalence: float, ties: str
    ) -> tuple[np.ndarray, np.ndarray]:
        ref = self.reference_values(quantity, prevalence)
        return rank_in_sorted(ref, values, quantity.higher_is_better, ties)


def rank_in_sorted(
    ref: np.ndarray, values: np.ndarray, higher_is_better: bool, ties: str
) -> tuple[np.ndarray, np.ndarray]:
    """OPS of ``values`` against a sorted reference sample (NaN-free), with the
    binomial Monte Carlo standard error sqrt(p (1 - p) / G)."""
    g = ref.size
    below = np.searchsorted(ref, values, side="left")
    above = g - np.searchsorted(ref, values, side="right")
    if higher_is_better:
        count = below + (0.5 * (g - below - above) if ties == "mid" else 0)
    else:
        count = above + (0.5 * (g - below - above) if ties == "mid" else 0)
    p = count / g
    return p, np.sqrt(p * (1 - p) / g)


def as_sample(values: Any, name: str) -> np.ndarray:
    """A 1-D float sample for empirical references."""
    return np.sort(check_1d(name, values, numeric=True).astype(float))
