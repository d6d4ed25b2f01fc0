"""Empirical references: a pool of observed performances (e.g. a leaderboard)."""

from __future__ import annotations

import threading
import warnings
from collections.abc import Iterable
from typing import Any

import numpy as np

from .._validation import check_1d, describe
from ..curves._geometry import CurveArea, OperatingPoint
from ..exceptions import UndefinedMetricWarning
from ..metrics import BoundMetric
from .base import CurveReference, PointReference, check_one_prevalence, rank_in_sorted

__all__ = ["EmpiricalPoints", "EmpiricalCurves"]


def _sorted_defined(values: np.ndarray, label: str, what: str) -> np.ndarray:
    nan = np.isnan(values)
    if nan.all():
        raise ValueError(
            f"{label} is undefined (0/0) for every member of the pool; it "
            "cannot be ranked against it."
        )
    if nan.any():
        warnings.warn(
            f"{label} is undefined (0/0) for {int(nan.sum())} of the {nan.size} "
            f"{what} of the pool; they are left out of the reference.",
            UndefinedMetricWarning,
            stacklevel=4,
        )
    return np.sort(values[~nan])


class EmpiricalPoints(PointReference):
    """A pool of observed (alpha, beta) pairs as the reference for confusion-matrix
    metrics: OPS is the fraction of the pool that the observed value outperforms.

    Parameters
    ----------
    alpha, beta : array-like of shape (m,)
        Type-I and Type-II error rates of the pool's classifiers (e.g. the entries of a
        leaderboard on comparable tasks).

    Notes
    -----
    When to use it: to answer "how does this classifier rank among the classifiers
    people actually build for this kind of problem?", rather than among all possible
    ones (:class:`~opsstats.reference.uniform.Uniform`). Each pool member is
    re-standardized at the observed prevalence through its (alpha, beta), so pools from
    test sets of other prevalences can be used.

    The OPS is exact with respect to the pool. ``standard_error`` is the binomial
    standard error sqrt(p (1 - p) / m), the uncertainty of the OPS as an estimate for
    the population of classifiers that the pool samples. Members for which the metric
    is undefined are left out with an :class:`~opsstats.UndefinedMetricWarning`.

    Examples
    --------
    >>> from opsstats.reference.empirical import EmpiricalPoints
    >>> pool = EmpiricalPoints(alpha=[0.1, 0.2, 0.3, 0.4], beta=[0.4, 0.3, 0.2, 0.1])
    >>> pool.ops("recall", 0.75, prevalence=0.2).estimate
    0.5
    """

    exact = False

    def __init__(self, alpha: Any, beta: Any) -> None:
        a = check_1d("alpha", alpha, numeric=True).astype(float)
        b = check_1d("beta", beta, numeric=True).astype(float)
        if a.shape != b.shape:
            raise ValueError(
                f"`alpha` and `beta` must have the same length; got {a.size} and {b.size}."
            )
        for name, arr in (("alpha", a), ("beta", b)):
            if ((arr < 0) | (arr > 1)).any():
                raise ValueError(
                    f"`{name}` must hold error rates in [0, 1]; got "
                    f"{float(arr[(arr < 0) | (arr > 1)][0])!r}."
                )
        a.flags.writeable = False  # the pool is fixed: its cached values depend on it
        b.flags.writeable = False
        self.alpha, self.beta = a, b
        self._cache: dict[tuple, np.ndarray] = {}
        self._lock = threading.Lock()

    @classmethod
    def from_confusion_matrices(cls, matrices: Iterable[Any]) -> EmpiricalPoints:
        """A pool from :class:`~opsstats.ConfusionMatrix` objects (both classes present)."""
        mats = list(matrices)
        if not mats or not all(hasattr(m, "alpha") and hasattr(m, "beta") for m in mats):
            raise TypeError(
                "`matrices` must be a non-empty iterable of ConfusionMatrix; got "
                f"{describe(matrices)}."
            )
        bad = [i for i, m in enumerate(mats) if np.isnan(m.alpha) or np.isnan(m.beta)]
        if bad:
            raise ValueError(
                f"`matrices` must have both classes present in every matrix; "
                f"matrix {bad[0]} ({describe(mats[bad[0]])}) has a class absent."
            )
        return cls([m.alpha for m in mats], [m.beta for m in mats])

    @property
    def size(self) -> int:
        return self.alpha.size

    @property
    def description(self) -> str:
        return f"EmpiricalPoints(pool of {self.size})"

    @property
    def method(self) -> str:
        return f"empirical pool of {self.size} confusion matrices"

    def reference_values(self, metric: BoundMetric, prevalence: float) -> np.ndarray:
        """Sorted defined values of ``metric`` over the pool at ``prevalence``
        (read-only: cached and shared by later calls)."""
        metric, prevalence = (
            self._quantity(metric, None, None, {}),
            check_one_prevalence(prevalence),
        )
        key = (metric.cache_key, prevalence)
        with self._lock:
            values = self._cache.get(key)
        if values is None:
            values = _sorted_defined(
                np.asarray(metric(prevalence, self.alpha, self.beta), dtype=float),
                metric.label,
                "confusion matrices",
            )
            values.flags.writeable = False
            with self._lock:
                values = self._cache.setdefault(key, values)
        return values

    def _ops(
        self, quantity: BoundMetric, values: np.ndarray, prevalence: float, ties: str
    ) -> tuple[np.ndarray, np.ndarray]:
        return rank_in_sorted(
            self.reference_values(quantity, prevalence), values, quantity.higher_is_better, ties
        )


class EmpiricalCurves(CurveReference):
    """A pool of observed curves as the reference for curve metrics.

    Parameters
    ----------
    curves : iterable
        Objects with ``alpha`` and ``beta`` arrays ordered by decreasing threshold
        (e.g. :class:`~opsstats.curves.ScoreCurve`), or ``(alpha, beta)`` pairs. The
        endpoints (0, 1) and (1, 0) are added where missing.

    Notes
    -----
    When to use it: to rank a classifier's AUC or operating point among the curves of
    other real classifiers (models on a leaderboard, or past versions of a model),
    re-standardized at the observed prevalence. ``standard_error`` is the binomial
    sqrt(p (1 - p) / m) for a pool of m curves.

    Examples
    --------
    >>> from opsstats.reference.empirical import EmpiricalCurves
    >>> pool = EmpiricalCurves([([0.0, 0.2, 1.0], [1.0, 0.3, 0.0]),
    ...                         ([0.0, 0.5, 1.0], [1.0, 0.5, 0.0])])
    >>> pool.ops("roc_auc", 0.6, prevalence=0.5).estimate
    0.5
    """

    exact = False

    def __init__(self, curves: Iterable[Any]) -> None:
        self._curves: list[tuple[np.ndarray, np.ndarray]] = []
        if isinstance(curves, str | bytes | dict) or not isinstance(curves, Iterable):
            raise TypeError(
                "`curves` must be an iterable of ScoreCurve objects or (alpha, beta) pairs; "
                f"got {describe(curves)}."
            )
        for i, c in enumerate(curves):
            if hasattr(c, "alpha") and hasattr(c, "beta"):
                a, b = c.alpha, c.beta
            elif isinstance(c, tuple | list) and len(c) == 2:
                a, b = c
            else:
                raise TypeError(
                    f"`curves[{i}]` must be a ScoreCurve or an (alpha, beta) pair of arrays; "
                    f"got {describe(c)}."
                )
            a = check_1d(f"curves[{i}].alpha", a, numeric=True).astype(float)
            b = check_1d(f"curves[{i}].beta", b, numeric=True).astype(float)
            for name, arr in (("alpha", a), ("beta", b)):
                outside = (arr < 0) | (arr > 1)
                if outside.any():
                    j = int(np.flatnonzero(outside)[0])
                    raise ValueError(
                        f"`curves[{i}].{name}` must hold error rates in [0, 1]; got "
                        f"{float(arr[j])!r} at position {j}."
                    )
            if a.shape != b.shape:
                raise ValueError(
                    f"`curves[{i}]` must have alpha and beta of the same length; "
                    f"got {a.size} and {b.size}."
                )
            if (np.diff(a) < 0).any() or (np.diff(b) > 0).any():
                raise ValueError(
                    f"`curves[{i}]` must be ordered by decreasing threshold "
                    "(alpha non-decreasing, beta non-increasing)."
                )
            if a[0] != 0 or b[0] != 1:
                a, b = np.r_[0.0, a], np.r_[1.0, b]
            if a[-1] != 1 or b[-1] != 0:
                a, b = np.r_[a, 1.0], np.r_[b, 0.0]
            a.flags.writeable = False
            b.flags.writeable = False
            self._curves.append((a, b))
        if not self._curves:
            raise ValueError("`curves` must hold at least one curve; got none.")
        self._cache: dict[tuple, np.ndarray] = {}
        self._lock = threading.Lock()

    @property
    def size(self) -> int:
        return len(self._curves)

    @property
    def description(self) -> str:
        return f"EmpiricalCurves(pool of {self.size})"

    @property
    def method(self) -> str:
        return f"empirical pool of {self.size} curves"

    def reference_values(
        self, quantity: CurveArea | OperatingPoint, prevalence: float
    ) -> np.ndarray:
        """Sorted defined values of ``quantity`` over the pool at ``prevalence``
        (read-only: cached and shared by later calls)."""
        if not isinstance(quantity, CurveArea | OperatingPoint):
            quantity = self._quantity(quantity, None, None, {})
        prevalence = check_one_prevalence(prevalence)
        key = (quantity.cache_key, prevalence)
        with self._lock:
            values = self._cache.get(key)
        if values is None:
            with np.errstate(divide="ignore", invalid="ignore"):
                raw = np.array([float(quantity(prevalence, a, b)) for a, b in self._curves])
            values = _sorted_defined(raw, quantity.label, "curves")
            values.flags.writeable = False
            with self._lock:
                values = self._cache.setdefault(key, values)
        return values
