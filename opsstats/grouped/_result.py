"""What :func:`~opsstats.grouped.evaluate` returns: the tidy table as a pandas DataFrame
that users index as before, and that has what every result has: a readable print,
``summary()`` (text, HTML, DataFrame), ``to_frame()`` and ``plot()``.

:class:`Evaluation` holds one row per group and metric, :class:`GroupComparison` one row
per group, quantity and pair (``evaluate(..., compare=COLUMN)``). Both stay DataFrames:
indexing, filtering and every pandas method work as on the table they subclass, and a
frame derived from one is one too. A frame that has lost the columns its summary reads
prints as pandas prints it; ``plot`` with pandas' arguments (``x=``, ``y=``, ``kind=``,
or ``.plot.bar()``) is pandas' plot.

The two classes subclass pandas' DataFrame, so they are made on first use
(:func:`evaluation_class`, :func:`comparison_class`: ``import opsstats`` does not import
pandas); their methods are written here, in :class:`_EvaluationMethods` and
:class:`_ComparisonMethods`. ``from opsstats.grouped import Evaluation`` makes them (the
module's ``__getattr__``); they are named as classes of this module, so that they
pickle.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from .._lazy import lazy_module
from .._seam import upcall
from .._summary import Summary
from ._specs import COLUMNS

if TYPE_CHECKING:
    import pandas as pd
    from pandas import DataFrame as _Frame  # the methods below are a DataFrame's
else:
    pd = lazy_module("pandas")
    _Frame = object

__all__ = [
    "Evaluation",
    "GroupComparison",
    "comparison_class",
    "counts_frame",
    "evaluation_class",
    "evaluation_summary",
    "evaluation_title",
]

#: The columns of a table of comparisons the summary reads (after any group columns).
_COMPARISON_COLUMNS = (
    "metric",
    "ops",
    "comparison",
    "quantity",
    "estimate_a",
    "estimate_b",
    "difference",
    "ci_low",
    "ci_high",
    "confidence_level",
    "p_value",
    "p_holm",
    "method",
    "reason",
)

#: What the OPS is, printed under every evaluation.
_OPS_NOTE = (
    "OPS (o-value): the percentile rank of the value among the reference's performances "
    "at the test set's prevalence; 0.5 is the reference's median, higher is better."
)


def evaluation_title(
    truth: Any, score: Any, pred: Any, threshold: Any, by: list[str] | None = None
) -> str:
    """What was evaluated against what, e.g. "Evaluation of scores 's' at threshold 0.5
    against 'y'" (by the groups ``by`` when given)."""
    what = (
        f"column {pred!r}"
        if pred is not None
        else f"scores {score!r}" + (f" at threshold {threshold:g}" if threshold is not None else "")
    )
    groups = f" by {', '.join(map(repr, by))}" if by else ""
    return f"Evaluation of {what} against {truth!r}{groups}"


def group_columns(frame: pd.DataFrame) -> list[str]:
    """The group (or label) columns of a tidy table: those before ``metric``."""
    columns = list(frame.columns)
    return columns[: columns.index("metric")] if "metric" in columns else []


def _where(by: list[str], key: Any) -> str:
    values = key if isinstance(key, tuple) else (key,)
    return ", ".join(f"{c}={v}" for c, v in zip(by, values, strict=True))


def _footnotes(methods: pd.Series) -> tuple[list[str], list[str]]:
    """Each row's footnote mark (``[k]``, empty for none) and the notes they refer to,
    one per distinct method in order of appearance."""
    distinct = [m for m in dict.fromkeys(methods) if isinstance(m, str) and m]
    number = {m: i + 1 for i, m in enumerate(distinct)}
    marks = [f"[{number[m]}]" if m in number else "" for m in methods]
    return marks, [f"[{number[m]}] {m}" for m in distinct]


def counts_frame(confusion: dict[Any, Any], by: list[str]) -> pd.DataFrame | None:
    """TP, FP, FN, TN per group from ``{group key: ConfusionMatrix}`` (None when no
    predicted labels were evaluated)."""
    if not confusion:
        return None
    index = pd.MultiIndex.from_tuples(list(confusion), names=by) if by else None
    return pd.DataFrame([cm.as_dict() for cm in confusion.values()], index=index)


def evaluation_summary(
    table: pd.DataFrame,
    *,
    by: list[str],
    title: str,
    counts: pd.DataFrame | None = None,
    confidence_level: float | None = None,
    digits: int = 4,
) -> Summary:
    """The readable form of a tidy evaluation (:func:`opsstats.evaluate`,
    :class:`opsstats.report.EvaluationReport`): one row per group and metric with n,
    prevalence, the value and its OPS with their intervals, the Monte Carlo standard
    error where there is one, and a footnote mark per way of making them; the notes
    give the counts, the methods, the references, the level and why a row is NaN."""
    t = table
    marks, method_notes = _footnotes(t["method"])
    index = [*by, "metric"]
    view = pd.DataFrame(
        {
            "n": t["n"].astype(object),
            "prevalence": t["prevalence"],
            "value": t["value"],
            "CI low": t["value_ci_low"],
            "CI high": t["value_ci_high"],
            "OPS": t["ops"],
            "OPS CI low": t["ops_ci_low"],
            "OPS CI high": t["ops_ci_high"],
            "MC s.e.": t["ops_se"],
            "how": marks,
        }
    )
    standard = _standardized_view(t)
    for c in standard.columns:
        view[c] = standard[c]
    for c in index:
        view[c] = t[c]
    view = view.set_index(index)
    view = view.drop(
        columns=[
            c for c in view.columns if c.startswith("MC s.e.") and view[c].fillna(0).eq(0).all()
        ]
    )
    view = view.drop(
        columns=[c for c in view.columns if " CI " in f" {c}" and view[c].isna().all()]
    )
    notes = []
    if counts is not None:
        for key, row in counts.iterrows():
            where = f"{_where(by, key)}: " if by else ""
            notes.append(
                f"Counts {where}TP={row['tp']}, FP={row['fp']}, FN={row['fn']}, TN={row['tn']}."
            )
    notes += method_notes
    refs = [r for r in dict.fromkeys(t["reference"]) if isinstance(r, str) and r]
    notes.append("References: " + "; ".join(refs) + ".")
    if confidence_level is not None:
        notes.append(f"Intervals are {100 * confidence_level:g}% intervals.")
    if len(standard.columns):
        notes.append(_standard_note(t))
    undefined = t["ops"].isna()
    if len(standard.columns):
        undefined |= t["standardized_ops"].isna()
    for _, r in t[undefined].iterrows():
        where = ", ".join(f"{c}={r[c]}" for c in by)
        notes.append(f"NaN {('(' + where + ') ') if where else ''}{r['metric']}: {r['reason']}.")
    notes.append(_OPS_NOTE)
    return Summary(title=title, table=view, notes=tuple(notes), digits=digits, key="how")


def _at(table: pd.DataFrame) -> str:
    """The prevalence the table is standardized to, as printed (``"0.5"``)."""
    pis = [f"{float(p):g}" for p in dict.fromkeys(table["standard_prevalence"].dropna())]
    return ", ".join(pis) or "pi"


def _standardized_view(table: pd.DataFrame) -> pd.DataFrame:
    """The printed columns of ``evaluate(..., prevalence=pi)``'s standardized values
    (none without them): the value at pi with its interval, its OPS at pi with its
    interval and Monte Carlo s.e., named by pi (``value at 0.5``, ``at 0.5 CI``, ...)."""
    if "standardized" not in table.columns:
        return pd.DataFrame(index=table.index)
    at = f"at {_at(table)}"
    return pd.DataFrame(
        {
            f"value {at}": table["standardized"],
            f"{at} CI low": table["standardized_ci_low"],
            f"{at} CI high": table["standardized_ci_high"],
            f"OPS {at}": table["standardized_ops"],
            f"OPS {at} CI low": table["standardized_ops_ci_low"],
            f"OPS {at} CI high": table["standardized_ops_ci_high"],
            f"MC s.e. {at}": table["standardized_ops_se"],
        }
    )


def _standard_note(table: pd.DataFrame) -> str:
    """What the columns "at pi" hold."""
    at = _at(table)
    return (
        f"At {at}: each group's metric standardized to prevalence {at} (its alpha and beta, "
        f"or its ROC curve, at {at}: at_prevalence), its interval from the same draws with "
        f"the prevalence fixed, and its OPS against the reference at {at} "
        "(docs/method.md#standardized-prevalence)."
    )


def comparison_summary(table: pd.DataFrame, *, by: list[str], title: str, digits: int) -> Summary:
    """The readable form of a table of comparisons (``evaluate(..., compare=COLUMN)``):
    per group, metric (its value or its OPS) and pair the two values, the difference
    with its interval, the p-value and its Holm adjustment, and a footnote mark per
    method; the notes say what each metric row compares (its label and threshold)."""
    t = table
    marks, method_notes = _footnotes(t["method"])
    metric = [("OPS " if o else "") + str(m) for m, o in zip(t["metric"], t["ops"], strict=True)]
    view = pd.DataFrame(
        {
            "value A": t["estimate_a"],
            "value B": t["estimate_b"],
            "A - B": t["difference"],
            "CI low": t["ci_low"],
            "CI high": t["ci_high"],
            "p": t["p_value"],
            "p Holm": t["p_holm"],
            "how": marks,
        }
    )
    for c in by:
        view[c] = t[c]
    view["metric"] = metric
    view["pair"] = t["comparison"].fillna("")
    view = view.set_index([*by, "metric", "pair"])
    compared = dict.fromkeys(
        f"{m}: {q}" for m, q in zip(metric, t["quantity"], strict=True) if isinstance(q, str) and q
    )
    notes = ["Compared: " + "; ".join(compared) + "." if compared else "", *method_notes]
    levels = sorted({float(v) for v in t["confidence_level"].dropna()})
    if levels:
        notes.append("Intervals are " + ", ".join(f"{100 * v:g}%" for v in levels) + " intervals.")
    notes.append("p Holm: Holm's step-down adjustment over the pairs of each group and metric.")
    for _, r in t[t["difference"].isna()].iterrows():
        where = ", ".join(f"{c}={r[c]}" for c in by)
        notes.append(f"NaN {('(' + where + ') ') if where else ''}{r['metric']}: {r['reason']}.")
    notes.append("Every column (statistics, df, counts, paired or not): .to_frame().")
    return Summary(
        title=title, table=view, notes=tuple(n for n in notes if n), digits=digits, key="how"
    )


class _TidyMethods(_Frame):
    """What :class:`Evaluation` and :class:`GroupComparison` add to a DataFrame: a tidy
    table that prints its summary (a subclass says which columns it needs and how it is
    summarized and drawn). Not a DataFrame itself: the classes made by
    :func:`_classes` put pandas' DataFrame after it."""

    _needed: tuple[str, ...] = ()

    @property
    def _constructor(self) -> Any:
        return type(self)

    def _readable(self) -> bool:
        """It still has the columns its summary reads."""
        return set(self._needed) <= set(self.columns) and len(self) > 0

    #: The readable summary at ``digits`` digits, and the forest plot: each subclass
    #: defines both (typed declarations, not method bodies).
    _summary: Callable[[int], Summary]
    _forest: Callable[..., Any]

    def summary(self, digits: int = 4) -> Summary:
        """The readable table and its notes (:class:`~opsstats._summary.Summary`: text
        with ``str``, HTML in a notebook, the table with ``to_frame()``), numbers shown
        with ``digits`` digits (0 to 17)."""
        if not self._readable():
            missing = [c for c in self._needed if c not in self.columns]
            raise ValueError(
                "summary() needs the columns of the table evaluate returns; this one "
                + (f"lacks {', '.join(map(repr, missing))}." if missing else "has no rows.")
            )
        return self._summary(digits)

    def to_frame(self) -> pd.DataFrame:
        """The table as a plain pandas DataFrame at full precision (a copy)."""
        return pd.DataFrame(self, copy=True)

    @property
    def plot(self) -> Any:
        """``plot(ax=None, **kwargs)``: the forest plot of the table, returning the
        Axes; with pandas' arguments (``x=``, ``y=``, ``kind=``), and as
        ``plot.bar()``, ``plot.line()``, ..., pandas' plot of the frame."""
        return _classes()["_TidyPlot"](self)

    def __repr__(self) -> str:
        return self._summary(4).as_text() if self._readable() else super().__repr__()

    def __str__(self) -> str:
        return self.__repr__()

    def _repr_html_(self) -> str | None:
        return self._summary(4).as_html() if self._readable() else super()._repr_html_()


class _EvaluationMethods(_TidyMethods):
    """The tidy table of :func:`opsstats.evaluate`: one row per group and metric, a
    pandas DataFrame (index it, filter it, write it as before) that prints as a
    readable table with its notes.

    ``summary()`` gives that table as text, HTML or a DataFrame, ``to_frame()`` the
    plain DataFrame, ``plot()`` the forest plot of the OPS with their intervals
    (:func:`opsstats.plotting.plot_forest`; ``plot(x=..., y=...)`` and ``plot.bar()``
    are pandas' plots). ``attrs`` holds the confusion matrices per group, the title and
    the confidence level of the intervals.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from opsstats import evaluate
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(600) < 0.3
    >>> df = pd.DataFrame({"y": y.astype(int), "s": rng.normal(1.5 * y, 1)})
    >>> out = evaluate(df, truth="y", score="s", threshold=0.8, metrics=["f1"], rng=1)
    >>> round(float(out["value"].iloc[0]), 4), type(out.to_frame()).__name__
    (0.6832, 'DataFrame')
    >>> print(out.summary().as_text(width=80))  # doctest: +ELLIPSIS
    Evaluation of scores 's' at threshold 0.8 against 'y'
    ===================================================================
                 n prevalence  value            CI    OPS        OPS CI
    metric how
    f1     [1] 600     0.2667 0.6832 0.6298-0.7276 0.9189 0.8845-0.9417
    -------------------------------------------------------------------
    Counts TP=124, FP=79, FN=36, TN=361.
    [1] exact (closed form); interval: Dirichlet-multinomial, Jeffreys prior, 1000
        draws, prevalence fixed, equal-tailed
    ...
    >>> out[["metric", "n"]]  # a part of the table prints as pandas prints it
      metric    n
    0     f1  600
    """

    _needed = tuple(COLUMNS)  # the tidy table's, after any group columns

    def _summary(self, digits: int) -> Summary:
        by = group_columns(self)
        title = self.attrs.get("title") or "Evaluation"
        return evaluation_summary(
            self,
            by=by,
            title=title,
            counts=counts_frame(self.attrs.get("confusion_matrices") or {}, by),
            confidence_level=self.attrs.get("confidence_level"),
            digits=digits,
        )

    def _forest(self, **kwargs: Any) -> Any:
        return upcall("plot_forest")(pd.DataFrame(self), **kwargs)


class _ComparisonMethods(_TidyMethods):
    """The table of ``evaluate(..., compare=COLUMN)``: one row per group, quantity and
    pair of the compared levels (every column of :meth:`ComparisonResult.to_frame`
    with the adjusted p-values), a pandas DataFrame that prints the columns a reader
    needs: the two values, the difference with its interval, the p-value and Holm's,
    and how each was made. ``to_frame()`` has every column; ``plot()`` is the forest
    plot of the differences, a line at 0."""

    _needed = _COMPARISON_COLUMNS

    def _summary(self, digits: int) -> Summary:
        by = group_columns(self)
        title = self.attrs.get("title") or "Comparisons"
        return comparison_summary(self, by=by, title=title, digits=digits)

    def _forest(self, **kwargs: Any) -> Any:
        by = group_columns(self)
        frame = pd.DataFrame(self).assign(
            metric=lambda f: np.where(f["ops"], "OPS of ", "") + f["metric"].astype(str)
        )
        kwargs.setdefault("label", [*by, "metric", "comparison"])
        return upcall("plot_forest")(
            frame, estimate="difference", low="ci_low", high="ci_high", null=0.0, **kwargs
        )


@functools.cache
def _classes() -> dict[str, type]:
    """The classes, made once (pandas imported now): :class:`Evaluation` and
    :class:`GroupComparison` (the methods above, then pandas' DataFrame) and the plot
    accessor of both, named as classes of this module (found by :func:`__getattr__`:
    they pickle)."""

    class _TidyPlot(pd.plotting.PlotAccessor):
        """pandas' plot accessor, whose call without pandas' arguments draws the
        table's forest plot (``frame.plot()``, ``frame.plot(ax=ax)``);
        ``frame.plot(x=..., y=...)``, ``frame.plot(kind=...)`` and
        ``frame.plot.bar()`` are pandas' own."""

        _PANDAS = frozenset({"x", "y", "kind"})

        def __call__(self, *args: Any, **kwargs: Any) -> Any:
            frame = self._parent
            if args or self._PANDAS & kwargs.keys() or not frame._readable():
                return super().__call__(*args, **kwargs)
            return frame._forest(**kwargs)

    class Evaluation(_EvaluationMethods, pd.DataFrame):
        __doc__ = _EvaluationMethods.__doc__

    class GroupComparison(_ComparisonMethods, pd.DataFrame):
        __doc__ = _ComparisonMethods.__doc__

    made: dict[str, type] = {
        "Evaluation": Evaluation,
        "GroupComparison": GroupComparison,
        "_TidyPlot": _TidyPlot,
    }
    for name, cls in made.items():
        cls.__qualname__ = cls.__name__ = name
        cls.__module__ = __name__
    return made


def evaluation_class() -> type[Evaluation]:
    """:class:`Evaluation`, made on first use."""
    return _classes()["Evaluation"]


def comparison_class() -> type[GroupComparison]:
    """:class:`GroupComparison`, made on first use."""
    return _classes()["GroupComparison"]


if TYPE_CHECKING:  # for the type checker, the classes are their methods (and a DataFrame)
    Evaluation = _EvaluationMethods
    GroupComparison = _ComparisonMethods


def __getattr__(name: str) -> Any:
    if name in ("Evaluation", "GroupComparison"):  # made (and pandas imported) now
        return _classes()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
