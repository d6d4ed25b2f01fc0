"""Tidy evaluation across groups and test sets (in the spirit of R's yardstick).

``evaluate(data, truth=..., score=... or pred=..., metrics=..., by=...)`` returns one row
per group and metric: n, prevalence, the metric value with its interval, its OPS with
its interval, how they were made, and, where something is undefined, why. This is the
paper's General / Elder / Hospital comparison, and the model-monitoring use: the same
classifier over months with a changing prevalence.
"""

# evaluate dispatches; the work is in one module per concept: the metric specs (_specs),
# the checked options (_options), the pandas path (_frame), the count-table path of other
# engines, weights and bins (_tables; _binned: the notes of binned curves), many groups'
# confusion-matrix metrics as arrays (_arrays), the curve reference (_curve_reference),
# the rows of one unit (_unit).

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .._lazy import lazy_module
from .._validation import describe
from ..exceptions import UndefinedMetricWarning
from ..grouped_comparisons import _compare_groups
from ..uncertainty._draws import root_seed
from . import _result, _specs
from ._curve_reference import PREVALENCE_STEP as PREVALENCE_STEP
from ._frame import frame_rows
from ._options import parse_options
from ._result import comparison_class, evaluation_class, evaluation_title
from ._specs import MetricSpec as MetricSpec
from ._specs import default_metrics
from ._specs import parse_metrics as parse_metrics
from ._tables import table_rows
from ._unit import evaluate_unit as evaluate_unit

if TYPE_CHECKING:
    import pandas as pd

    from ._result import Evaluation, GroupComparison
else:
    pd = lazy_module("pandas")

__all__ = [
    "evaluate",
    "Evaluation",
    "GroupComparison",
    "COLUMNS",
    "STANDARD_COLUMNS",
    "DEFAULT_METRICS",
    "default_metrics",
]

# Bound here too, so that the API reference finds their descriptions in this module:
#: The columns of a tidy evaluation, after any group or label columns: ``metric``, ``n``,
#: ``prevalence``, ``value`` with ``value_ci_low`` and ``value_ci_high``, ``ops`` with
#: ``ops_se`` (its Monte Carlo s.e., 0 when exact), ``ops_ci_low`` and ``ops_ci_high``,
#: ``method``, ``reference``, ``reason``. With ``evaluate(..., prevalence=pi)`` the
#: :data:`STANDARD_COLUMNS` come before ``method``.
COLUMNS = _specs.COLUMNS

#: The columns ``evaluate(..., prevalence=pi)`` adds, before ``method``: the group's
#: metric standardized to the prevalence pi (its alpha and beta, or its ROC curve, at
#: pi: ``at_prevalence``), ``standard_prevalence`` (pi), ``standardized`` with
#: ``standardized_ci_low`` and ``standardized_ci_high``, and its OPS at pi,
#: ``standardized_ops`` with ``standardized_ops_se``, ``standardized_ops_ci_low`` and
#: ``standardized_ops_ci_high``. The intervals take the prevalence as fixed and draw
#: alpha and beta (or the curve) from the group's own rows, from the same draws as the
#: row's other intervals; a reason "standardized: ..." says when one is undefined
#: (docs/method.md#standardized-prevalence).
STANDARD_COLUMNS = _specs.STANDARD_COLUMNS

#: The default ``metrics`` of :func:`evaluate`, by what the data give: confusion-matrix
#: metrics need predicted labels, curve quantities need scores.
DEFAULT_METRICS = _specs.DEFAULT_METRICS


def evaluate(
    data: pd.DataFrame,
    *,
    truth: str,
    score: str | None = None,
    pred: str | None = None,
    threshold: float | None = None,
    metrics: Any = None,
    by: str | Sequence[str] | None = None,
    pos_label: Any = None,
    ci: str | None = "dirichlet",
    curve_ci: str = "auto",
    confidence_level: float = 0.95,
    n_resamples: int = 1000,
    point_reference: Any = None,
    curve_reference: Any = None,
    rng: Any = None,
    bins: int | None = None,
    max_distinct: int | None = None,
    weight: str | None = None,
    compare: str | None = None,
    id: str | None = None,
    prevalence: float | None = None,
) -> Evaluation | GroupComparison:
    """Evaluate a classifier on every group of a data frame: metrics, OPS and intervals.

    Parameters
    ----------
    data : pandas.DataFrame
        One row per instance.
    truth : str
        Column of true binary labels.
    score : str, optional
        Column of scores (higher means more likely positive). Needed for curve
        quantities; with ``threshold`` it also gives the predicted labels.
    pred : str, optional
        Column of predicted labels (instead of ``score`` + ``threshold``).
    threshold : float, optional
        Predict positive where ``score >= threshold``: a finite number (NaN and +-inf
        are refused; an integer is compared exactly with integer scores).
    metrics : list, optional
        Confusion-matrix metrics (``"f1"``, ``"mcc"``, ...), curve areas
        (``"roc_auc"``, ``"pr_auc"``, ``"lift_auc"``, ``"gain_auc"``, NAUC forms), and
        ``(metric, at)`` pairs for a metric read off the curve, e.g.
        ``("precision", {"recall": 0.9})``. By default, what the data given allow:
        ``("f1", "mcc")`` with predicted labels only (``pred``, or ``score`` with
        ``threshold``, and no curve), ``("roc_auc", "pr_auc")`` with scores only
        (``score`` without ``threshold``), all four with both (``score`` with
        ``threshold``, or ``score`` and ``pred``); see :data:`DEFAULT_METRICS`.
    by : str or list of str, optional
        Grouping columns (a subgroup, a month, a test set). None: the whole frame.
    pos_label : label, optional
        The positive class of ``truth`` (and ``pred``).
    ci : {"dirichlet", "bootstrap", None} or a registered method's name
        Interval method for confusion-matrix metrics and their OPS (a method registered
        with :func:`opsstats.uncertainty.methods.register_interval_method` too).
    curve_ci : {"auto", "bootstrap", "delong", "dirichlet", "jackknife"}
        Interval method for curve quantities when ``ci`` is not None. ``"auto"`` (the
        default, as :meth:`ScoreCurve.interval`): for the ROC and PR AUC the Dirichlet
        posterior of each class's scores when the smaller class has fewer than 100
        rows, else the logit-scale interval of DeLong's (ROC AUC) or the stratified
        jackknife's (PR AUC) variance; the percentile bootstrap otherwise. DeLong
        applies to the ROC AUC only and the jackknife to curve areas only; other curve
        quantities then use the bootstrap, and the ``method`` column says so.
    confidence_level : float, default 0.95
    n_resamples : int, default 1000
        Posterior draws or bootstrap resamples per interval.
    point_reference, curve_reference : optional
        References for confusion-matrix metrics (default ``Uniform()``) and curve
        quantities (default ``DirectedBinaryTree()``; with many distinct group
        prevalences, ``DirectedBinaryTree(prevalence_step=0.125)``, which interpolates
        curve areas in prevalence: docs/method.md#prevalence-grid).
    rng : None, int or numpy.random.Generator
        Seeds every group's draws: one integer is drawn from it, and each group's
        generator is derived from that integer and the group's key, so that a group's
        intervals do not depend on the other groups nor on the other metrics.
    bins : int, optional
        Curves from ``bins`` equal-width score bins counted by the engine instead of
        from every distinct score; each curve row's ``method`` then gives the exact
        range of the unbinned value (`docs/method.md#binned-curves`).
    max_distinct : int, optional
        Bin (into ``bins`` bins, default 1,000) only when some group has more distinct
        scores than this.
    weight : str, optional
        Column of non-negative frequency weights (``sample_weight``): every count is a
        sum of weights. Curve intervals need whole-number weights (a row with weight 3
        counts as three rows); with fractional weights a curve row keeps its value and
        OPS and says why it has no interval.
    compare : str, optional
        Compare instead of evaluating: the column whose values are compared (the
        classifiers of a long table, or months, sites), every pair within every group
        and metric, each metric's value and its OPS (:func:`compare_groups`, which has
        the options of :func:`opsstats.compare`; ``ci``, ``curve_ci``, ``bins``,
        ``max_distinct`` and ``weight`` do not apply). With ``id`` the levels are paired
        by that column of instance ids; without, they are independent test sets.
    id : str, optional
        With ``compare``: the column matching the rows of the compared classifiers.
    prevalence : float, optional
        Also give every group's metrics standardized to this prevalence (0 < pi < 1):
        the metric of the group's classifier (its alpha and beta, or its ROC curve) at
        pi, with its interval and its OPS at pi (:data:`STANDARD_COLUMNS`;
        ``ConfusionMatrix.at_prevalence``). Groups monitored over time, standardized to
        one prevalence, differ only through their classifiers. The intervals hold pi
        fixed and draw from each group's own rows (docs/method.md#standardized-prevalence),
        from the same draws as the row's other intervals.

    Returns
    -------
    Evaluation
        A pandas DataFrame (:class:`Evaluation`) that prints as a readable table with
        its notes and has ``summary()``, ``to_frame()`` and ``plot()`` (the forest plot
        of the OPS); with ``compare``, a :class:`GroupComparison`.
        One row per group and metric: the group columns, then ``metric``, ``n``,
        ``prevalence``, ``value``, ``value_ci_low``, ``value_ci_high``, ``ops``,
        ``ops_se`` (Monte Carlo s.e.; 0 when exact), ``ops_ci_low``, ``ops_ci_high``,
        ``method``, ``reference``, ``reason`` (why a row is NaN, or why it has no interval
        ("no interval: ..."); empty otherwise); with ``prevalence``, the
        :data:`STANDARD_COLUMNS` before ``method``.
        Groups with a class absent appear with NaN and the reason; nothing is dropped.
        ``attrs["confusion_matrices"]`` maps each group key to its confusion matrix when
        predicted labels were available.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from opsstats import evaluate
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(2000) < 0.2
    >>> df = pd.DataFrame({"y": y.astype(int), "s": rng.normal(y * 1.5, 1),
    ...                    "site": rng.choice(["A", "B"], 2000)})
    >>> out = evaluate(df, truth="y", score="s", threshold=1.0, metrics=["f1", "mcc"],
    ...                by="site", rng=1)
    >>> out[["site", "metric", "n"]].to_string(index=False)
    'site metric    n\\n   A     f1  960\\n   A    mcc  960\\n   B     f1 1040\\n   B    mcc 1040'
    >>> bool(((out["ops_ci_low"] <= out["ops"]) & (out["ops"] <= out["ops_ci_high"])).all())
    True
    """
    if compare is not None:
        return _compare(
            data,
            {
                "bins": bins,
                "max_distinct": max_distinct,
                "weight": weight,
                "prevalence": prevalence,
            },
            rng,
            truth=truth,
            compare_by=compare,
            score=score,
            pred=pred,
            threshold=threshold,
            metrics=metrics,
            by=by,
            id=id,
            confidence_level=confidence_level,
            n_resamples=n_resamples,
            point_reference=point_reference,
            curve_reference=curve_reference,
            pos_label=pos_label,
        )
    options = parse_options(
        data,
        truth=truth,
        score=score,
        pred=pred,
        threshold=threshold,
        metrics=metrics,
        by=by,
        pos_label=pos_label,
        ci=ci,
        curve_ci=curve_ci,
        confidence_level=confidence_level,
        n_resamples=n_resamples,
        point_reference=point_reference,
        curve_reference=curve_reference,
        rng=rng,
        bins=bins,
        max_distinct=max_distinct,
        weight=weight,
        id=id,
        prevalence=prevalence,
    )
    if options.counted_by_engine:
        rows, confusion = table_rows(data, options)
    else:
        rows, confusion = frame_rows(data, options)
    _warn_undefined(rows, options.by_cols)  # before attrs, which pandas deep-copies on a filter
    out = evaluation_class()(rows)
    out.attrs["confusion_matrices"] = confusion  # per group, for reports
    out.attrs["title"] = evaluation_title(truth, score, pred, options.threshold, options.by_cols)
    out.attrs["confidence_level"] = None if options.ci is None else options.confidence_level
    return out


def _compare(data: Any, unused: dict[str, Any], rng: Any, **common: Any) -> GroupComparison:
    """``evaluate(..., compare=COLUMN)``: every pair of the column's levels within every
    group and metric, each metric's value and then its OPS (:func:`compare_groups`); the
    options of evaluating alone (``unused``) must not be given."""
    if any(v is not None for v in unused.values()):
        raise ValueError(
            "`compare` compares the rows of a pandas DataFrame; "
            + ", ".join(f"`{k}`" for k, v in unused.items() if v is not None)
            + " do not apply to it."
        )
    common["rng"] = root_seed(rng)
    out = comparison_class()(
        pd.concat(_compare_groups(data, (False, True), **common), ignore_index=True)
    )
    by = common["by"]
    by = [] if by is None else ([by] if isinstance(by, str) else list(by))
    out.attrs["title"] = f"Comparisons of the levels of {common['compare_by']!r}" + (
        f" within {', '.join(map(repr, by))}" if by else ""
    )
    return out


def _warn_undefined(out: pd.DataFrame, by_cols: list[str]) -> None:
    bad = out[out["ops"].isna()]
    if len(bad):
        where = "; ".join(
            f"{', '.join(f'{c}={describe(r[c])}' for c in by_cols) or 'all rows'} / {r['metric']}: "
            f"{r['reason']}"
            for _, r in bad.head(5).iterrows()
        )
        more = f" (and {len(bad) - 5} more)" if len(bad) > 5 else ""
        warnings.warn(
            f"OPS is undefined for {len(bad)} row(s), kept with NaN and a reason: {where}{more}.",
            UndefinedMetricWarning,
            stacklevel=3,  # the caller of evaluate
        )


def __getattr__(name: str) -> Any:
    if name in ("Evaluation", "GroupComparison"):  # made (and pandas imported) now
        return getattr(_result, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
