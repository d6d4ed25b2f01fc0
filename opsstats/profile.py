"""The prevalence profile of a classifier: the raw value and the OPS of one metric of
the same classifier (its alpha and beta, or its ROC curve) across prevalences,
:func:`ops_prevalence_profile` and its result :class:`PrevalenceProfile`
(docs/method.md#prevalence-invariance).

Every point is the object standardized to that prevalence (``at_prevalence``) and its
``ops``: one code path, the one users call.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ._lazy import lazy_module
from ._progress import counted
from ._seam import upcall
from ._summary import Summary
from ._validation import (
    MAX_GRID_POINTS,
    check_1d,
    check_digits,
    check_rng,
    check_size,
    describe,
)
from .confusion import ConfusionMatrix
from .curves import ScoreCurve
from .curves._geometry import ops_prevalence_invariant
from .metrics import get_metric
from .ops import _check_reference

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = lazy_module("pandas")

__all__ = ["PrevalenceProfile", "ops_prevalence_profile", "DEFAULT_PREVALENCES"]

#: The default grid: 25 prevalences equally spaced in logit from 0.01 to 0.99 (the
#: object's own prevalence is added).
DEFAULT_PREVALENCES = tuple(  # the logistic function in numpy: no scipy.special at import
    float(p) for p in 1.0 / (1.0 + np.exp(-np.linspace(np.log(1 / 99), np.log(99), 25)))
)


@dataclass(frozen=True)
class PrevalenceProfile:
    """The raw value and the OPS of one metric of one classifier across prevalences.

    Attributes
    ----------
    metric : str
        What was ranked, e.g. ``"F1 score"``.
    table : pandas.DataFrame
        One row per prevalence (increasing): ``prevalence``, ``value`` (the metric of
        the classifier at that prevalence), ``ops``, ``ops_se`` (the reference's Monte
        Carlo standard error, 0 when exact), ``observed`` (True at the object's own
        prevalence) and, with ``ci``, ``value_ci_low``, ``value_ci_high``,
        ``ops_ci_low``, ``ops_ci_high``.
    observed_prevalence : float
        The prevalence of the data (of the original, for a standardized object).
    invariant : bool or None
        Whether the metric's OPS is proved not to depend on the prevalence (the
        registry's ``prevalence_invariant`` for a confusion-matrix metric,
        :func:`opsstats.curves.ops_prevalence_invariant` for a curve quantity; None:
        not known).
    ops_range : float
        The measured range (largest minus smallest) of the OPS over the prevalences,
        whatever ``invariant`` says.
    reference : str
    method : str
        How every point was made.
    confidence_level : float or None

    Examples
    --------
    >>> from opsstats import ConfusionMatrix, ops_prevalence_profile
    >>> cm = ConfusionMatrix(tp=50, fp=60, fn=50, tn=840)
    >>> prof = ops_prevalence_profile(cm, "f1", [0.02, 0.1, 0.3, 0.5])
    >>> prof.table[["prevalence", "value", "ops"]].round(3)
       prevalence  value    ops
    0        0.02  0.210  0.932
    1        0.10  0.476  0.916
    2        0.30  0.604  0.841
    3        0.50  0.638  0.703
    >>> prof.invariant, round(prof.ops_range, 3)
    (False, 0.229)
    """

    metric: str
    table: pd.DataFrame
    observed_prevalence: float
    invariant: bool | None
    ops_range: float
    reference: str
    method: str
    confidence_level: float | None = None
    details: dict[str, Any] = field(default_factory=dict)

    def to_frame(self) -> pd.DataFrame:
        """The table (a copy)."""
        return self.table.copy()

    def to_string(self, digits: int = 4) -> str:
        """One line: the metric, the range of its OPS and whether it is invariant."""
        digits = check_digits(digits)
        ops = self.table["ops"]
        says = {
            True: "invariant (proved)",
            False: "not invariant",
            None: "invariance not known",
        }[self.invariant]
        return (
            f"OPS of {self.metric} of one classifier at {len(self.table)} prevalences from "
            f"{self.table['prevalence'].min():.{digits}g} to "
            f"{self.table['prevalence'].max():.{digits}g}: {ops.min():.{digits}f} to "
            f"{ops.max():.{digits}f} (range {self.ops_range:.{digits}f}; {says}) "
            f"[{self.reference}]"
        )

    def __str__(self) -> str:
        return self.to_string()

    def summary(self, digits: int = 4) -> Summary:
        """The table with how it was made, as a :class:`~opsstats._summary.Summary`
        (text with ``str()``, HTML in notebooks, ``.to_frame()`` for a DataFrame)."""
        notes = [self.to_string(digits), f"Each point: {self.method}."]
        if self.invariant is True:
            notes.append(
                "Proved: the OPS of this quantity does not depend on the prevalence at a "
                "fixed classifier under a prevalence-free reference; the measured range is "
                "rounding or Monte Carlo error (docs/method.md#prevalence-invariance)."
            )
        elif self.invariant is False:
            notes.append(
                "This OPS moves with the prevalence at a fixed classifier: compare it "
                "across test sets only at one prevalence, e.g. standardized with "
                "at_prevalence (docs/method.md#prevalence-invariance)."
            )
        return Summary(
            title=f"Prevalence profile of {self.metric} (observed prevalence "
            f"{self.observed_prevalence:.4g})",
            table=self.table.set_index("prevalence"),
            notes=tuple(notes),
            digits=digits,
        )

    def _repr_html_(self) -> str:
        return self.summary().as_html()

    def plot(self, ax: Any = None, **kwargs: Any) -> Any:
        """The OPS (left axis) and the raw value (right axis) against the prevalence on
        a log-odds axis, the observed prevalence marked, the Monte Carlo error (and the
        intervals, if any) as bands (:func:`opsstats.plotting.plot_prevalence_profile`);
        returns the Axes of the OPS."""
        return upcall("plot_prevalence_profile")(self, ax=ax, **kwargs)


def _prevalences(prevalences: Any, own: float) -> np.ndarray:
    """The grid: the default or the given prevalences, each in (0, 1), with ``own``
    added, sorted and distinct."""
    if prevalences is None:
        grid = np.array(DEFAULT_PREVALENCES)
    else:
        grid = check_1d("prevalences", prevalences, numeric=True).astype(float)
        check_size("prevalences", grid.size, maximum=MAX_GRID_POINTS)
        bad = ~((grid > 0) & (grid < 1))
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise ValueError(
                f"`prevalences` must lie in (0, 1); got {float(grid[i])!r} at position {i}."
            )
    return np.unique(np.append(grid, own))


def ops_prevalence_profile(
    obj: ConfusionMatrix | ScoreCurve,
    metric: Any,
    prevalences: Any = None,
    *,
    at: dict[str, float] | None = None,
    reference: Any = None,
    ci: str | None = None,
    confidence_level: float = 0.95,
    n_resamples: int = 1000,
    rng: Any = None,
    **params: Any,
) -> PrevalenceProfile:
    """The raw value and the OPS of one metric of one classifier across prevalences.

    The classifier is held fixed (a confusion matrix's alpha and beta, or a curve's ROC
    curve) and only the prevalence moves: each point is ``obj.at_prevalence(pi)`` and
    its ``ops(metric, ...)``. For a quantity whose OPS is prevalence-invariant the OPS
    is flat (proved: docs/method.md#prevalence-invariance); for the others the profile
    shows how far it moves.

    Parameters
    ----------
    obj : ConfusionMatrix or ScoreCurve
        The classifier (a standardized one stands for its original).
    metric : str
        A registered metric for a confusion matrix; for a curve, what
        :meth:`ScoreCurve.ops` takes (an area, ``"gini"``, ``"eer"``, ``"roc_pauc"``, or
        a registered metric with ``at``).
    prevalences : array-like, optional
        The prevalences, each in (0, 1), at most 1,000. Default: 25 points equally
        spaced in logit from 0.01 to 0.99 (:data:`DEFAULT_PREVALENCES`). The object's own
        prevalence is always added.
    at : dict, optional
        The operating point of a metric read off a curve, e.g. ``{"recall": 0.5}``.
    reference : optional
        The reference (default: ``Uniform()`` for a matrix, ``DirectedBinaryTree()`` for
        a curve).
    ci : str, optional
        Add intervals made by this method (``ci`` of :meth:`ConfusionMatrix.ops` or
        :meth:`ScoreCurve.ops`); they hold each prevalence fixed and draw from the
        object's own rows, the same draws at every prevalence (one seed from ``rng``).
    confidence_level : float, default 0.95
    n_resamples : int, default 1000
    rng : None, int or numpy.random.Generator
    **params
        Metric parameters (``beta=2`` for ``"fbeta"``, ``fpr_range=`` for
        ``"roc_pauc"``) and, for a curve area, ``rule=``.

    Returns
    -------
    PrevalenceProfile
        ``table`` (``prevalence``, ``value``, ``ops``, ``ops_se``, ``observed`` and the
        intervals with ``ci``), ``invariant``, ``ops_range``, ``method``; ``summary()``,
        ``to_frame()``, ``plot()``.

    Raises
    ------
    TypeError
        If ``obj`` is neither a ConfusionMatrix nor a ScoreCurve.
    ValueError
        If a prevalence is outside (0, 1), or the object has a class absent.

    Examples
    --------
    The issue's classifier (negatives N(0, 1), positives N(1.5, 1), threshold 1.5:
    alpha 0.067, beta 0.5): its F1 rises with the prevalence and its OPS falls; its
    precision's OPS does not move.

    >>> from opsstats import ConfusionMatrix, ops_prevalence_profile
    >>> cm = ConfusionMatrix.from_rates(n=10_000, prevalence=0.1, alpha=0.0668, beta=0.5)
    >>> f1 = ops_prevalence_profile(cm, "f1", [0.02, 0.3, 0.5])
    >>> f1.table["ops"].round(3).tolist(), f1.invariant
    ([0.932, 0.916, 0.84, 0.703], False)
    >>> p = ops_prevalence_profile(cm, "precision", [0.02, 0.3, 0.5])
    >>> p.table["ops"].round(4).tolist(), p.invariant, p.ops_range < 1e-9
    ([0.9332, 0.9332, 0.9332, 0.9332], True, True)
    >>> ax = f1.plot()
    """
    if not isinstance(obj, ConfusionMatrix | ScoreCurve):
        raise TypeError(f"`obj` must be a ConfusionMatrix or a ScoreCurve; got {describe(obj)}.")
    origin = obj if obj.origin is None else obj.origin
    curve = isinstance(origin, ScoreCurve)
    if curve:
        ref = _check_reference(reference, "curve", "a curve quantity")
        quantity = ref._quantity(metric, at, params.pop("rule", None), params)
        invariant = ops_prevalence_invariant(quantity)
        metric_arg: Any = quantity
        options: dict[str, Any] = {}
    else:
        if at is not None:
            raise ValueError(
                "`at` is an operating point of a curve; a confusion matrix's metric has none."
            )
        ref = _check_reference(reference, "point", "a confusion-matrix metric")
        quantity = ref._quantity(metric, None, None, params)
        invariant = get_metric(quantity.name).prevalence_invariant
        metric_arg, options = quantity, {}
    own = float(origin.prevalence)
    if not 0 < own < 1:
        raise ValueError(
            f"`obj` must have both classes (a prevalence profile moves the prevalence of a "
            f"classifier with defined alpha and beta); got {obj!r}."
        )
    grid = _prevalences(prevalences, own)
    if hasattr(ref, "precompute"):  # one pass over the reference curves for every point
        ref.precompute([quantity], grid.tolist())
    seed = None
    if ci is not None:
        seed = int(check_rng(rng).integers(0, 2**63 - 1))
        options = {
            "ci": ci,
            "confidence_level": confidence_level,
            "n_resamples": n_resamples,
        }
    rows = []
    method = ""
    for pi in counted(grid, grid.size, "prevalence profile"):
        std = origin.at_prevalence(float(pi))
        # the same seed at every prevalence: the same draws of the same rows
        r = std.ops(metric_arg, reference=ref, **options, rng=seed)
        row = {
            "prevalence": float(pi),
            "value": float(r.value),
            "ops": float(r.estimate),
            "ops_se": float(r.standard_error),
            "observed": bool(pi == own),
        }
        if ci is not None:
            if curve:
                value_ci = r.details.get("value_ci")
            else:
                value_ci = std.interval(
                    metric_arg,
                    method=ci,
                    confidence_level=confidence_level,
                    n_resamples=n_resamples,
                    rng=seed,
                ).ci
            nan = (float("nan"), float("nan"))
            low, high = value_ci if value_ci is not None else nan
            o_low, o_high = r.ci if r.ci is not None else nan
            row.update(value_ci_low=low, value_ci_high=high, ops_ci_low=o_low, ops_ci_high=o_high)
        rows.append(row)
        method = r.method if r.ci_method is None else f"{r.method}; interval: {r.ci_method}"
    method = re.sub(r"fixed at \S+ \(standardized\)", "fixed at each prevalence", method)
    table = pd.DataFrame(rows)
    ops = table["ops"].to_numpy()
    ops_range = float(np.nanmax(ops) - np.nanmin(ops)) if np.isfinite(ops).any() else float("nan")
    how = (
        f"{type(origin).__name__}.at_prevalence(pi), then its OPS against "
        f"{ref.description} ({method})"
    )
    return PrevalenceProfile(
        metric=quantity.label,
        table=table,
        observed_prevalence=own,
        invariant=invariant,
        ops_range=ops_range,
        reference=ref.description,
        method=how,
        confidence_level=confidence_level if ci is not None else None,
        details={"origin": origin},
    )
