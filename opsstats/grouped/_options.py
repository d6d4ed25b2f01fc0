"""The options of one call of :func:`~opsstats.grouped.evaluate`, checked once: the
columns, how predicted labels are made, the metrics, the interval methods, the seed and
the binning, in one immutable object that the two engine paths read. The checks run in a
fixed order, so that the same bad input always raises the same error first."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .._lazy import lazy_module
from .._validation import (
    MAX_BINS,
    MAX_COUNT,
    check_choice,
    check_confidence_level,
    check_probability,
    check_resamples,
    check_size,
    check_threshold,
    describe,
)
from ..frames import is_frame
from ..ops import _check_reference
from ..uncertainty._draws import root_seed
from ..uncertainty.curve import METHODS as CURVE_METHODS
from ..uncertainty.methods import registered_interval_methods
from ._specs import MetricSpec, columns, default_metrics, parse_metrics

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = lazy_module("pandas")


@dataclass(frozen=True)
class Options:
    """The checked arguments of :func:`~opsstats.grouped.evaluate` (outside its compare
    mode); ``ci`` ``"delong"`` is already resolved to the Dirichlet for
    confusion-matrix metrics and DeLong for curves."""

    native: bool  # a pandas DataFrame, whose rows are read here
    truth: str
    score: str | None
    pred: str | None
    threshold: float | None
    by: tuple[str, ...]
    pos_label: Any
    weight: str | None
    specs: tuple[MetricSpec, ...]
    labelled: bool  # predicted labels: `pred`, or `score` with `threshold`
    ci: str | None
    curve_ci: str
    confidence_level: float
    n_resamples: int
    point_reference: Any
    curve_reference: Any  # None: the default, chosen for the groups' prevalences
    root: int  # the root seed of every unit's generator
    bins: int | None
    max_distinct: int | None
    prevalence: float | None = None  # standardize every group to it (at_prevalence)

    @property
    def by_cols(self) -> list[str]:
        return list(self.by)

    @property
    def columns(self) -> list[str]:
        """The table's columns after the group columns (the standardized ones with
        ``prevalence``)."""
        return columns(self.prevalence is not None)

    @property
    def curve_specs(self) -> list[MetricSpec]:
        return [sp for sp in self.specs if sp.kind == "curve"]

    @property
    def counted_by_engine(self) -> bool:
        """Whether the engine counts (pandas too, when binning or weighting) and only the
        count tables come into Python, rather than the rows of a pandas DataFrame."""
        return (
            not self.native
            or self.bins is not None
            or self.max_distinct is not None
            or self.weight is not None
        )

    def unit_options(self) -> dict[str, Any]:
        """The options of :func:`~opsstats.grouped._unit.evaluate_unit`."""
        return {
            "ci": self.ci,
            "curve_ci": self.curve_ci,
            "confidence_level": self.confidence_level,
            "n_resamples": self.n_resamples,
            "point_reference": self.point_reference,
            "curve_reference": self.curve_reference,
            "root": self.root,
            "standard_prevalence": self.prevalence,
        }

    def point_options(self) -> dict[str, Any]:
        """The options of :func:`~opsstats.grouped._arrays._count_rows`."""
        return {
            "ci": self.ci,
            "confidence_level": self.confidence_level,
            "n_resamples": self.n_resamples,
            "reference": self.point_reference,
            "root": self.root,
            "standard_prevalence": self.prevalence,
        }


def parse_options(
    data: Any,
    *,
    truth: str,
    score: str | None,
    pred: str | None,
    threshold: float | None,
    metrics: Any,
    by: Any,
    pos_label: Any,
    ci: str | None,
    curve_ci: str,
    confidence_level: float,
    n_resamples: int,
    point_reference: Any,
    curve_reference: Any,
    rng: Any,
    bins: int | None,
    max_distinct: int | None,
    weight: str | None,
    id: str | None,
    prevalence: float | None = None,
) -> Options:
    """:func:`~opsstats.grouped.evaluate`'s arguments (without ``compare``), checked in
    this order: ``id``, ``data``, the columns, ``pred`` / ``score`` / ``threshold``,
    ``metrics``, ``ci``, ``curve_ci``, ``confidence_level``, ``n_resamples``, ``rng`` (one
    integer drawn from it), curve quantities without ``score``, ``bins``,
    ``max_distinct``, ``prevalence``."""
    if id is not None:
        raise ValueError(
            "`id` pairs the rows of compared classifiers; give `compare` with it (got `id` "
            f"{describe(id)} without `compare`)."
        )
    native = isinstance(data, pd.DataFrame)
    if not native and not is_frame(data):
        raise TypeError(
            "`data` must be a data frame (pandas, polars, pyarrow, DuckDB, PySpark or Dask); "
            f"got {describe(data)}."
        )
    by_cols = [] if by is None else ([by] if isinstance(by, str) else list(by))
    _check_columns(
        data,
        native,
        [
            ("truth", truth),
            ("score", score),
            ("pred", pred),
            ("weight", weight),
            *(("by", c) for c in by_cols),
        ],
    )
    threshold = _check_labels(score, pred, threshold)
    labelled = pred is not None or threshold is not None
    if metrics is None:
        metrics = default_metrics(labels=labelled, scores=score is not None)
    specs = parse_metrics(metrics)
    ci, curve_ci = _check_methods(ci, curve_ci)
    if point_reference is not None:  # checked whether or not a metric of its kind is asked
        _check_reference(point_reference, "point", "confusion-matrix metrics", "point_reference")
    if curve_reference is not None:
        _check_reference(curve_reference, "curve", "curve quantities", "curve_reference")
    confidence_level = check_confidence_level(confidence_level)
    n_resamples = check_resamples(n_resamples)
    root = root_seed(rng)
    if score is None and any(s.kind == "curve" for s in specs):
        raise ValueError(
            "curve quantities ("
            + ", ".join(s.label for s in specs if s.kind == "curve")
            + ") need `score`."
        )
    if bins is not None:
        bins = check_size("bins", bins, minimum=2, maximum=MAX_BINS)
    if max_distinct is not None:
        max_distinct = check_size("max_distinct", max_distinct, minimum=1, maximum=MAX_COUNT)
    if prevalence is not None:
        prevalence = check_probability("prevalence", prevalence, open_low=True, open_high=True)
    return Options(
        native=native,
        truth=truth,
        score=score,
        pred=pred,
        threshold=threshold,
        by=tuple(by_cols),
        pos_label=pos_label,
        weight=weight,
        specs=tuple(specs),
        labelled=labelled,
        ci=ci,
        curve_ci=curve_ci,
        confidence_level=confidence_level,
        n_resamples=n_resamples,
        point_reference=point_reference,
        curve_reference=curve_reference,
        root=root,
        bins=bins,
        max_distinct=max_distinct,
        prevalence=prevalence,
    )


def _check_columns(data: Any, native: bool, columns: list[tuple[str, Any]]) -> None:
    """Each (argument, column) names a column: a string or an integer, and for a pandas
    DataFrame one of its columns (other engines check theirs when they count)."""
    for arg, col in columns:
        if col is None:
            continue
        if not isinstance(col, str | int) or isinstance(col, bool):
            raise TypeError(f"`{arg}` must be a column name; got {describe(col)}.")
        if native and col not in data.columns:
            shown = ", ".join(map(str, list(data.columns)[:20]))
            more = f", ... ({len(data.columns)} in all)" if len(data.columns) > 20 else ""
            raise ValueError(
                f"`{arg}` names a column that is not in `data`: {describe(col)}; "
                f"columns: {shown}{more}."
            )


def _check_labels(score: str | None, pred: str | None, threshold: Any) -> float | None:
    """Predicted labels from ``pred`` or from ``score`` with ``threshold`` (checked and
    returned), never both; ``score`` or ``pred`` at least."""
    if pred is not None and threshold is not None:
        raise ValueError(
            f"give `pred` or `score` with `threshold`, not both; got `pred` {describe(pred)} "
            f"and `threshold` {describe(threshold)}."
        )
    if threshold is not None:
        if score is None:
            raise ValueError("`threshold` needs `score`.")
        threshold = check_threshold(threshold)
    if score is None and pred is None:
        raise ValueError("give `score` (with `threshold` for confusion-matrix metrics) or `pred`.")
    return threshold


def _check_methods(ci: str | None, curve_ci: str) -> tuple[str | None, str]:
    """The interval methods of confusion-matrix metrics and of curve quantities."""
    if ci is not None:
        ci = check_choice(
            "ci", ci, ("dirichlet", "bootstrap", "delong", *registered_interval_methods())
        )
    curve_ci = check_choice("curve_ci", curve_ci, CURVE_METHODS)
    if ci == "delong":  # DeLong for curves, the default for confusion-matrix metrics
        ci, curve_ci = "dirichlet", "delong"
    return ci, curve_ci
