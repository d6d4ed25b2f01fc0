"""The evaluation report: one classifier on one or several test sets, as a person reads it.

Counts, prevalence, the chosen metrics with intervals, their OPS with intervals, curve
AUCs with OPS, and the references and methods used, as text, HTML, CSV, JSON or a tidy
DataFrame. It is built on :func:`opsstats.evaluate`, so every number in it is the one
the tidy table holds.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ._csv import to_csv
from ._lazy import lazy_module
from ._summary import Summary
from ._validation import check_digits
from .grouped import evaluate
from .grouped._result import counts_frame, evaluation_summary, evaluation_title
from .plotting import plot_forest

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = lazy_module("pandas")

__all__ = ["EvaluationReport", "report", "json_rows"]

_POINT_DEFAULT = ["f1", "mcc", "precision", "recall", "balanced_accuracy"]
_CURVE_DEFAULT = ["roc_auc", "pr_auc"]


def _json_value(value: Any) -> tuple[Any, str | None]:
    """A JSON-ready value and, for an infinite number (written as null), its sign."""
    if hasattr(value, "item") and not isinstance(value, str):
        value = value.item()  # numpy scalars
    if value is pd.NA:  # a missing value of a nullable column (a boolean flag)
        return None, None
    if isinstance(value, float):
        if math.isnan(value):
            return None, None
        if math.isinf(value):
            return None, "inf" if value > 0 else "-inf"
    return value, None


def json_rows(table: pd.DataFrame) -> list[dict[str, Any]]:
    """A table's rows ready for strict JSON: NaN and missing values as None, an
    infinite number as None named with its sign in the row's ``infinite`` object
    (:meth:`EvaluationReport.to_json` says more)."""
    rows = []
    for record in table.to_dict("records"):
        row: dict[str, Any] = {}
        infinite: dict[str, str] = {}
        for key, value in record.items():
            row[str(key)], sign = _json_value(value)
            if sign is not None:
                infinite[str(key)] = sign
        row["infinite"] = infinite
        rows.append(row)
    return rows


@dataclass(frozen=True)
class EvaluationReport:
    """An evaluation of one classifier on one or several test sets (groups).

    Attributes
    ----------
    table : pandas.DataFrame
        The tidy table of :func:`opsstats.evaluate` (full precision).
    by : list of str
        Grouping columns (empty for a single test set).
    title : str
    settings : dict
        How it was made: truth, score or pred columns, threshold, interval method,
        confidence level, draws.
    counts : pandas.DataFrame or None
        TP, FP, FN, TN per group (when predicted labels were available).

    Examples
    --------
    >>> import pandas as pd
    >>> rep = report(pd.DataFrame({"y": [1, 0, 1, 0, 1, 0], "p": [1, 0, 0, 0, 1, 1]}),
    ...              truth="y", pred="p", metrics=["recall"], ci=None)
    >>> rep.by, rep.table["value"].round(4).tolist()
    ([], [0.6667])
    """

    table: pd.DataFrame
    by: list[str]
    title: str
    settings: dict[str, Any] = field(default_factory=dict)
    counts: pd.DataFrame | None = None

    def to_frame(self) -> pd.DataFrame:
        """The tidy table as a plain pandas DataFrame (a copy)."""
        return pd.DataFrame(self.table, copy=True)

    def summary(self, digits: int = 4) -> Summary:
        """Text (``str``), HTML (``_repr_html_``) and DataFrame (``to_frame``) forms,
        numbers shown with ``digits`` digits (0 to 17). Control characters in group
        values and other text are printed as visible escapes (``\\n``, ``\\x1b``), so
        that a value read from a file cannot start a line of its own."""
        cl = self.settings.get("confidence_level")
        return evaluation_summary(
            self.table,
            by=self.by,
            title=self.title,
            counts=self.counts,
            confidence_level=cl if self.settings.get("ci") else None,
            digits=check_digits(digits),
        )

    def __str__(self) -> str:
        return self.summary().as_text()

    def _repr_html_(self) -> str:
        return self.summary().as_html()

    def plot(self, ax: Any = None, **kwargs: Any) -> Any:
        """Forest plot of the OPS of every group and metric with their intervals; NaN
        rows are kept with their reason (:func:`opsstats.plotting.plot_forest`)."""
        return plot_forest(self.table, ax=ax, **kwargs)

    def to_csv(self) -> str:
        """The tidy table as CSV text, numbers at full precision, safe to open in a
        spreadsheet.

        Numbers are written as numbers, unchanged (negative values included; ``repr``
        precision, ``inf`` for infinity) and missing values as empty fields. Every text
        field (group values, metric names, methods, reasons, the header) is quoted, and
        a text field starting with ``=``, ``+``, ``-``, ``@``, tab, carriage return,
        line feed or NUL gets a leading single quote, as OWASP advises against CSV
        formula injection: a spreadsheet shows ``=HYPERLINK(...)`` as text instead of
        running it. A program reading the file gets those fields with the quote;
        :meth:`to_frame` has the values untouched.

        Examples
        --------
        >>> import pandas as pd
        >>> rep = report(pd.DataFrame({"y": [1, 0, 1, 0], "p": [1, 0, 0, 0],
        ...                            "site": ["=cmd", "=cmd", "north", "north"]}),
        ...              truth="y", pred="p", metrics=["recall"], by="site", ci=None)
        >>> print(rep.to_csv().splitlines()[1][:38])
        "'=cmd","recall",2,0.5,1.0,,,1.0,0.0,,
        """
        return to_csv(self.table)

    def to_json(self) -> str:
        """The title, the settings and the tidy table as JSON (``rows``: one object per
        row, numbers at full precision).

        The output is strict JSON (RFC 8259), which has no NaN or infinity: an
        undefined number (NaN) is written as ``null`` and its row's ``reason`` says why;
        an infinite number, such as the positive likelihood ratio or the diagnostic odds
        ratio when FP = 0, is written as ``null`` and named in its row's ``infinite``
        object with its sign, e.g. ``"infinite": {"value": "inf"}`` (``{}`` when none).
        ``float(row["infinite"]["value"])`` gives the number back in Python.

        Examples
        --------
        >>> import json
        >>> import pandas as pd
        >>> rep = report(pd.DataFrame({"y": [1, 0, 1, 0], "p": [1, 0, 1, 0]}),
        ...              truth="y", pred="p", metrics=["lr_plus"], ci=None)
        >>> row = json.loads(rep.to_json())["rows"][0]
        >>> row["value"], row["infinite"], row["ops"]
        (None, {'value': 'inf'}, 1.0)
        """
        rows = json_rows(self.table)
        settings = {k: _json_value(v)[0] for k, v in self.settings.items()}
        return json.dumps(
            {"title": self.title, "settings": settings, "rows": rows},
            indent=2,
            default=str,
            allow_nan=False,
        )

    def render(self, fmt: str = "text", digits: int = 4) -> str:
        """``"text"``, ``"csv"``, ``"json"`` or ``"html"`` (:meth:`summary`,
        :meth:`to_csv`, :meth:`to_json`); ``digits`` (0 to 17) applies to text and HTML,
        CSV and JSON keep full precision."""
        digits = check_digits(digits)
        if fmt == "text":
            return self.summary(digits).as_text()
        if fmt == "html":
            return self.summary(digits).as_html()
        if fmt == "csv":
            return self.to_csv()
        if fmt == "json":
            return self.to_json()
        raise ValueError(f"`fmt` must be one of 'text', 'csv', 'json', 'html'; got {fmt!r}.")


def report(
    data: pd.DataFrame,
    *,
    truth: str,
    score: str | None = None,
    pred: str | None = None,
    threshold: float | None = None,
    metrics: Any = None,
    by: str | list[str] | None = None,
    pos_label: Any = None,
    ci: str | None = "dirichlet",
    curve_ci: str = "auto",
    confidence_level: float = 0.95,
    n_resamples: int = 1000,
    point_reference: Any = None,
    curve_reference: Any = None,
    rng: Any = 0,
    title: str | None = None,
    bins: int | None = None,
    max_distinct: int | None = None,
) -> EvaluationReport:
    """Evaluate a classifier on a data frame and return an :class:`EvaluationReport`.

    The parameters are those of :func:`opsstats.evaluate`. ``metrics=None`` chooses F1,
    MCC, precision, recall and balanced accuracy when predicted labels are available
    (``pred``, or ``score`` with ``threshold``), and ROC AUC and PR AUC when scores are.
    ``rng`` defaults to 0 so that a printed report can be reproduced.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from opsstats.report import report
    >>> rng = np.random.default_rng(1)
    >>> y = rng.random(400) < 0.3
    >>> df = pd.DataFrame({"y": y.astype(int), "p": np.where(rng.random(400) < 0.8, y, ~y)})
    >>> rep = report(df, truth="y", pred="p", metrics=["f1"], n_resamples=500)
    >>> rep.table[["metric", "n"]].to_dict("records")
    [{'metric': 'f1', 'n': 400}]
    >>> print(str(rep).splitlines()[0])
    Evaluation of column 'p' against 'y' (n = 400)
    """
    if metrics is None:
        metrics = []
        if pred is not None or threshold is not None:
            metrics += _POINT_DEFAULT
        if score is not None:
            metrics += _CURVE_DEFAULT
    table = evaluate(
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
    )
    by_cols = [] if by is None else ([by] if isinstance(by, str) else list(by))
    if title is None:
        title = f"{evaluation_title(truth, score, pred, threshold)} (n = {len(data)})"
    settings = {
        "truth": truth,
        "score": score,
        "pred": pred,
        "threshold": threshold,
        "by": by_cols,
        "pos_label": pos_label,
        "ci": ci,
        "curve_ci": curve_ci if ci else None,
        "confidence_level": confidence_level,
        "n_resamples": n_resamples,
        "rng": rng if isinstance(rng, int | type(None)) else "generator",
    }
    counts = counts_frame(table.attrs.get("confusion_matrices", {}), by_cols)
    return EvaluationReport(table=table, by=by_cols, title=title, settings=settings, counts=counts)
