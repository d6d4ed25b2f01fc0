"""Multi-label and multi-class evaluation: per-label OPS and their aggregates.

OPS is comparable across labels with different prevalences, so per-label OPS can be
averaged where raw F1 or PR AUC cannot (Zhao et al., section 5;
docs/method.md#multi-label).
"""

from __future__ import annotations

import contextlib
import warnings
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
import pandas as pd

from ._seam import upcall
from ._summary import Summary
from ._validation import (
    check_1d,
    check_choice,
    check_confidence_level,
    check_digits,
    check_resamples,
    check_sample_weight,
    check_scores,
    check_threshold,
    describe,
    threshold_for,
)
from .confusion import ConfusionMatrix
from .curves._geometry import CurveArea, curve_area, parse_area, parse_at, value_at
from .curves.score_curve import ScoreCurve
from .exceptions import UndefinedMetricWarning
from .frames import is_frame, joint_counts
from .grouped import COLUMNS, MetricSpec, evaluate_unit, parse_metrics
from .metrics import resolve_metric
from .ops import _check_reference, confusion_matrix_ops, default_reference
from .results import ConfidenceInterval, OPSResult
from .uncertainty._draws import check_rng, equal_tailed, progress, root_seed
from .uncertainty.confusion import _Draws

__all__ = ["MultiLabel", "MultiLabelOPS", "AVERAGES"]

AVERAGES = (None, "macro", "weighted", "prevalence")
_CHUNK_ROWS = 2_000_000  # bootstrap chunk size in (replicates x patterns) cells


def _matrix(name: str, values: Any, labels: Any) -> tuple[np.ndarray, list[Any]]:
    if values is None or isinstance(values, str | bytes | dict) or np.isscalar(values):
        raise TypeError(
            f"`{name}` must be a 2-D indicator or score matrix (n rows x L labels); got "
            f"{describe(values)}."
        )
    if isinstance(values, pd.DataFrame):
        names = list(values.columns)
        missing = values.isna().to_numpy()
        if missing.any():
            i, j = (int(k[0]) for k in np.nonzero(missing))
            raise ValueError(
                f"`{name}` must not contain missing values; got {int(missing.sum())} "
                f"(<NA>, NaN or None), the first in row {i} of column {describe(names[j])}."
            )
        arr = values.to_numpy()
        if arr.dtype == object:  # nullable or mixed columns: one numpy dtype if they agree
            with contextlib.suppress(TypeError, ValueError):
                arr = np.asarray(values.astype(np.result_type(*values.dtypes)).to_numpy())
    else:
        try:
            arr = np.asarray(values)
        except ValueError:
            raise ValueError(
                f"`{name}` must be a 2-D matrix (n rows x L labels); got {describe(values)} "
                "whose rows have different lengths."
            ) from None
        names = None
    if arr.ndim == 1:
        arr = arr[:, None]
    if arr.ndim != 2:
        raise ValueError(
            f"`{name}` must be a 2-D indicator matrix (n rows x L labels); got "
            f"an array of shape {arr.shape}."
        )
    if labels is not None:
        names = list(labels)
        if len(names) != arr.shape[1]:
            raise ValueError(
                f"`labels` must name the {arr.shape[1]} columns of `{name}`; got "
                f"{len(names)} names."
            )
    if names is None:
        names = list(range(arr.shape[1]))
    if len(set(names)) != len(names):
        repeated = next(v for v in names if names.count(v) > 1)
        raise ValueError(
            f"label names must be unique; got {describe(names)} with {describe(repeated)} "
            "more than once."
        )
    return arr, names


def _columns(name: str, value: Any) -> list[Any]:
    """A list of column names (one name alone is a list of one)."""
    cols = [value] if isinstance(value, str) else value
    if isinstance(cols, pd.Index | np.ndarray):
        cols = cols.tolist()
    if not isinstance(cols, list | tuple) or not cols:
        raise TypeError(f"`{name}` must be a list of column names; got {describe(value)}.")
    for c in cols:
        if not isinstance(c, str | int) or isinstance(c, bool):
            raise TypeError(f"`{name}` must be a list of column names; got {describe(c)} in it.")
    return list(cols)


def _indicator(name: str, arr: np.ndarray) -> np.ndarray:
    if arr.dtype.kind == "b":
        return arr
    if arr.dtype.kind == "O" and np.asarray(pd.isna(arr), dtype=bool).any():
        raise ValueError(f"`{name}` must not contain missing values (<NA>, NaN or None).")
    if arr.dtype.kind not in "iuf":
        raise TypeError(f"`{name}` must hold 0/1 or booleans; got dtype {arr.dtype}.")
    if arr.dtype.kind == "f" and np.isnan(arr).any():
        raise ValueError(f"`{name}` must not contain NaN.")
    bad = ~np.isin(arr, (0, 1))
    if bad.any():
        raise ValueError(f"`{name}` must hold 0/1 indicators; got {arr[bad].flat[0].item()!r}.")
    return arr.astype(bool)


def _scores(name: str, arr: np.ndarray, labels: list[Any]) -> np.ndarray:
    """Score matrix: each column finite real numbers (integers kept exact)."""
    cols = [
        check_scores(name, arr[:, j], label=f"`{name}` (column {describe(labels[j])})")
        for j in range(arr.shape[1])
    ]
    return np.column_stack(cols) if cols else np.empty(arr.shape)


@dataclass(frozen=True)
class MultiLabelOPS:
    """Per-label OPS of one metric and their aggregate.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per label (the tidy columns of :func:`opsstats.evaluate`, plus
        ``weight``, the label's weight in the aggregate, 0 for excluded labels).
    average : str or None
    estimate : float
        The aggregate OPS (NaN when ``average`` is None).
    ci : ConfidenceInterval or None
    ci_method : str or None
    standard_error : float
        Monte Carlo standard error of the aggregate (0 for exact references). For curve
        references the labels share one set of reference curves, so their errors are
        positively correlated; the reported value is the bound sum_l w_l s.e._l.
    excluded : tuple
        Labels left out of the aggregate (undefined OPS), with a warning.
    micro : OPSResult or None
        OPS of the pooled (micro) confusion matrix: a different quantity, the OPS of
        one confusion matrix that adds up every label's counts.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> Y = rng.random((400, 2)) < [0.2, 0.5]
    >>> res = MultiLabel.from_predictions(Y, Y).ops("f1", average="macro")
    >>> res.estimate, list(res.table["ops"])
    (1.0, [1.0, 1.0])
    """

    metric: str
    table: pd.DataFrame
    average: str | None
    estimate: float
    reference: str
    standard_error: float = 0.0
    ci: ConfidenceInterval | None = None
    confidence_level: float | None = None
    ci_method: str | None = None
    excluded: tuple = ()
    micro: OPSResult | None = None
    details: dict[str, Any] = field(default_factory=dict)

    def to_frame(self) -> pd.DataFrame:
        """The per-label table (a copy)."""
        return self.table.copy()

    def to_string(self, digits: int = 4) -> str:
        digits = check_digits(digits)
        if self.average is None:
            return f"OPS of {self.metric} for {len(self.table)} labels (no aggregate)"
        text = (
            f"{self.average} OPS({self.metric}) over {len(self.table) - len(self.excluded)}"
            f" labels = {self.estimate:.{digits}f}"
        )
        if self.ci is not None:
            text += (
                f", {100 * cast(float, self.confidence_level):g}% CI {self.ci.low:.{digits}f}-"
                f"{self.ci.high:.{digits}f} ({self.ci_method})"
            )
        text += f" [{self.reference}]"
        if self.excluded:
            text += f"; excluded (undefined): {', '.join(map(str, self.excluded))}"
        return text

    def __str__(self) -> str:
        return self.to_string()

    def summary(self, digits: int = 4) -> Summary:
        notes = [self.to_string(digits)]
        if self.micro is not None:
            pooled = (
                f" It pools every label, including those left out of the aggregate "
                f"({', '.join(map(str, self.excluded))})."
                if self.excluded
                else ""
            )
            notes.append(
                f"Micro (pooled confusion matrix), a different quantity: {self.micro}.{pooled}"
            )
        if self.ci_method:
            notes.append(f"Intervals: {self.ci_method}.")
        cols = [
            "label",
            "n",
            "prevalence",
            "value",
            "ops",
            "ops_ci_low",
            "ops_ci_high",
            "weight",
            "reason",
        ]
        return Summary(
            title=f"Per-label OPS of {self.metric}",
            table=self.table[cols].set_index("label"),
            notes=tuple(notes),
            digits=digits,
        )

    def _repr_html_(self) -> str:
        return self.summary().as_html()

    def plot(self, ax: Any = None, **kwargs: Any) -> Any:
        """Forest plot of the per-label OPS with their intervals
        (:func:`opsstats.plotting.plot_forest`); returns the Axes."""
        return upcall("plot_forest")(self.table, label="label", ax=ax, **kwargs)


class MultiLabel:
    """Per-label confusion matrices or curves of a multi-label (or one-vs-rest
    multi-class) classifier.

    Build it with :meth:`from_predictions`, :meth:`from_scores` or
    :meth:`from_multiclass` from arrays, or with :meth:`from_frame` from a pandas,
    polars (eager or lazy), pyarrow, DuckDB, PySpark or Dask data frame, whose engine
    counts the distinct joint rows so that only that count table comes into Python
    (docs/method.md#data-frames-and-engines). ``__init__`` takes already-checked
    boolean/float arrays, one row per row or per distinct row, and ``sample_weight``,
    the rows' frequency weights (their counts for :meth:`from_frame`): every count is a
    sum of weights, and the row bootstrap takes whole-number weights as repeated rows
    (docs/method.md#multi-label).

    Examples
    --------
    >>> import numpy as np
    >>> from opsstats.multilabel import MultiLabel
    >>> rng = np.random.default_rng(0)
    >>> Y = rng.random((500, 3)) < [0.1, 0.3, 0.5]
    >>> P = np.where(rng.random((500, 3)) < 0.8, Y, ~Y)
    >>> ml = MultiLabel.from_predictions(Y, P, labels=["a", "b", "c"])
    >>> res = ml.ops("f1", average="macro")
    >>> res.table[["label", "prevalence"]].round(3).to_string(index=False)
    'label  prevalence\\n    a       0.110\\n    b       0.276\\n    c       0.502'
    >>> print(res.to_string(digits=3))
    macro OPS(f1) over 3 labels = 0.913 [Uniform(alpha, beta) on [0, 1]^2]

    The same rows as a DuckDB relation (or any other engine's frame):

    >>> import duckdb, pandas as pd
    >>> df = pd.DataFrame(np.hstack([Y, P]).astype(int), columns=["a", "b", "c", "pa", "pb", "pc"])
    >>> rel = duckdb.from_df(df)
    >>> mf = MultiLabel.from_frame(rel, truth=["a", "b", "c"], pred=["pa", "pb", "pc"])
    >>> mf.n, len(mf.truth) <= 4**3  # 500 rows, counted as their distinct joint patterns
    (500, True)
    >>> print(mf.ops("f1", average="macro").to_string(digits=3))
    macro OPS(f1) over 3 labels = 0.913 [Uniform(alpha, beta) on [0, 1]^2]
    """

    def __init__(
        self,
        labels: list[Any],
        truth: np.ndarray,
        pred: np.ndarray | None = None,
        score: np.ndarray | None = None,
        sample_weight: np.ndarray | None = None,
    ) -> None:
        self.labels = list(labels)
        self.truth = truth
        self.pred = pred
        self.score = score
        self.sample_weight = sample_weight

    # ----------------------------------------------------------------- builders
    @classmethod
    def from_predictions(
        cls, y_true: Any, y_pred: Any, *, labels: Any = None, sample_weight: Any = None
    ) -> MultiLabel:
        """From (n x L) indicator matrices of true and predicted labels (numpy arrays or
        DataFrames, whose column names become the label names). ``sample_weight``: one
        non-negative frequency weight per row (a weight of 3 counts as three rows;
        docs/method.md#multi-label)."""
        t, names = _matrix("y_true", y_true, labels)
        p, _ = _matrix("y_pred", y_pred, None)
        if t.shape != p.shape:
            raise ValueError(
                f"`y_true` and `y_pred` must have the same shape; got {t.shape} and {p.shape}."
            )
        w = None
        if sample_weight is not None:
            w = check_sample_weight(sample_weight, t.shape[0])
        return cls(names, _indicator("y_true", t), pred=_indicator("y_pred", p), sample_weight=w)

    @classmethod
    def from_scores(
        cls,
        y_true: Any,
        y_score: Any,
        *,
        labels: Any = None,
        threshold: float | None = None,
        sample_weight: Any = None,
    ) -> MultiLabel:
        """From (n x L) true indicators and scores; ``threshold`` also gives predicted
        labels (score >= threshold) for confusion-matrix metrics. ``sample_weight``: one
        non-negative frequency weight per row, as in :meth:`from_predictions`."""
        t, names = _matrix("y_true", y_true, labels)
        s, _ = _matrix("y_score", y_score, None)
        if t.shape != s.shape:
            raise ValueError(
                f"`y_true` and `y_score` must have the same shape; got {t.shape} and {s.shape}."
            )
        s = _scores("y_score", s, names)
        pred = (
            None if threshold is None else s >= threshold_for(s.dtype, check_threshold(threshold))
        )
        w = None if sample_weight is None else check_sample_weight(sample_weight, t.shape[0])
        return cls(names, _indicator("y_true", t), pred=pred, score=s, sample_weight=w)

    @classmethod
    def from_frame(
        cls,
        data: Any,
        *,
        truth: Any,
        pred: Any = None,
        score: Any = None,
        labels: Any = None,
        weight: str | None = None,
        threshold: float | None = None,
    ) -> MultiLabel:
        """From a data frame of any engine, counted where the data live.

        The frame's own engine (pandas, polars eager or lazy, pyarrow, DuckDB, PySpark or
        Dask, through narwhals) counts the distinct joint rows (the truth and the
        prediction or score of every label) in one ``GROUP BY``; only that count table
        comes into Python, and the object holds its rows with their counts as frequency
        weights. Everything computed from it (per-label matrices and curves, OPS, their
        aggregate and the Dirichlet and row-bootstrap intervals with the same ``rng``)
        equals what :meth:`from_predictions` or :meth:`from_scores` give for the same
        rows as arrays (docs/method.md#data-frames-and-engines).

        Parameters
        ----------
        data : data frame
            pandas, polars (eager or lazy), pyarrow, DuckDB, PySpark or Dask.
        truth : list of str
            The L columns of true labels (0/1 or booleans), one per label.
        pred : list of str, optional
            The L columns of predicted labels (0/1 or booleans), in the order of
            ``truth``.
        score : list of str, optional
            The L columns of scores (finite numbers), instead of ``pred``.
        labels : list, optional
            The label names (default: the ``truth`` column names).
        weight : str, optional
            A column of non-negative frequency weights (``sample_weight`` of the array
            builders).
        threshold : float, optional
            With ``score``: predicted labels are ``score >= threshold``.

        Returns
        -------
        MultiLabel

        Raises
        ------
        ValueError
            A column not in ``data``, missing labels, labels other than 0/1 (three
            values, say), missing or non-finite scores, bad weights, or an empty frame;
            the message names the argument and the column.
        TypeError
            ``data`` not a data frame, a column name that is not a string, a label or
            score column that is not numeric (or boolean).

        Examples
        --------
        >>> import numpy as np, polars as pl
        >>> rng = np.random.default_rng(0)
        >>> Y = rng.random((500, 2)) < [0.2, 0.5]
        >>> P = np.where(rng.random((500, 2)) < 0.8, Y, ~Y)
        >>> df = pl.DataFrame({"a": Y[:, 0], "b": Y[:, 1], "pa": P[:, 0], "pb": P[:, 1]})
        >>> ml = MultiLabel.from_frame(df.lazy(), truth=["a", "b"], pred=["pa", "pb"])
        >>> arrays = MultiLabel.from_predictions(Y, P, labels=["a", "b"])
        >>> ml.confusion_matrices() == arrays.confusion_matrices()
        True
        >>> a = ml.ops("f1", ci="bootstrap", n_resamples=200, rng=1)
        >>> b = arrays.ops("f1", ci="bootstrap", n_resamples=200, rng=1)
        >>> a.estimate == b.estimate and a.ci == b.ci
        True
        """
        if not isinstance(data, pd.DataFrame) and not is_frame(data):
            raise TypeError(
                "`data` must be a data frame (pandas, polars, pyarrow, DuckDB, PySpark or "
                f"Dask); got {describe(data)}."
            )
        truth_cols = _columns("truth", truth)
        if pred is not None and score is not None:
            raise ValueError("give `pred` or `score` (with an optional `threshold`), not both.")
        if pred is None and score is None:
            raise ValueError("give `pred` or `score` (with `threshold` for predicted labels).")
        if threshold is not None and score is None:
            raise ValueError("`threshold` needs `score`.")
        arg, given = ("pred", pred) if pred is not None else ("score", score)
        other = _columns(arg, given)
        if len(other) != len(truth_cols):
            raise ValueError(
                f"`{arg}` must name one column per column of `truth` ({len(truth_cols)}); "
                f"got {len(other)}."
            )
        if weight is not None and (not isinstance(weight, str | int) or isinstance(weight, bool)):
            raise TypeError(f"`weight` must be a column name; got {describe(weight)}.")
        names = list(truth_cols if labels is None else labels)
        if len(names) != len(truth_cols):
            raise ValueError(
                f"`labels` must name the {len(truth_cols)} columns of `truth`; got "
                f"{len(names)} names."
            )
        if len(set(names)) != len(names):
            repeated = next(v for v in names if names.count(v) > 1)
            raise ValueError(
                f"label names must be unique; got {describe(names)} with "
                f"{describe(repeated)} more than once."
            )
        counted = joint_counts(
            data,
            truth=truth_cols,
            pred=other if arg == "pred" else None,
            score=other if arg == "score" else None,
            weight=weight,
        )
        s = None if counted.score is None else _scores("score", counted.score, names)
        p = counted.pred
        if threshold is not None and s is not None:
            p = s >= threshold_for(s.dtype, check_threshold(threshold))
        return cls(names, counted.truth, pred=p, score=s, sample_weight=counted.counts)

    @classmethod
    def from_multiclass(
        cls,
        y_true: Any,
        y_pred: Any = None,
        *,
        y_score: Any = None,
        classes: Any = None,
        sample_weight: Any = None,
    ) -> MultiLabel:
        """One-vs-rest reduction of a multi-class problem: class labels ``y_true``, and
        predicted labels ``y_pred`` and/or an (n x K) score matrix ``y_score`` whose
        columns follow ``classes`` (default: the sorted classes of ``y_true`` and
        ``y_pred``, or the score frame's columns); ``sample_weight`` as in
        :meth:`from_predictions`."""
        t = check_1d("y_true", y_true)
        if classes is None:
            if isinstance(y_score, pd.DataFrame):
                classes = list(y_score.columns)
            else:
                found = np.unique(
                    np.concatenate([t, check_1d("y_pred", y_pred)]) if y_pred is not None else t
                )
                classes = found.tolist()
        classes = list(classes)
        if len(set(classes)) != len(classes):
            raise ValueError(f"`classes` must be distinct; got {describe(classes)}.")
        unknown_true = set(np.unique(t).tolist()) - set(classes)
        if unknown_true:
            shown = sorted(unknown_true, key=lambda v: (str(type(v)), v))
            raise ValueError(
                f"`y_true` holds classes not in `classes`: {describe(shown)}; every row's "
                "true class must be listed (its row would otherwise count as a negative "
                "of every label)."
            )
        truth = np.column_stack([t == c for c in classes])
        pred = score = None
        if y_pred is not None:
            p = check_1d("y_pred", y_pred)
            if len(p) != len(t):
                raise ValueError(
                    f"`y_true` and `y_pred` must have the same length; got {len(t)} and {len(p)}."
                )
            unknown = set(np.unique(p).tolist()) - set(classes)
            if unknown:
                shown = sorted(unknown, key=lambda v: (str(type(v)), v))
                raise ValueError(f"`y_pred` holds classes not in `classes`: {describe(shown)}.")
            pred = np.column_stack([p == c for c in classes])
        if y_score is not None:
            s, _ = _matrix("y_score", y_score, classes)
            if s.shape != truth.shape:
                raise ValueError(
                    f"`y_score` must have one column per class ({len(classes)}) "
                    f"and one row per instance; got shape {s.shape}."
                )
            score = _scores("y_score", s, classes)
        if pred is None and score is None:
            raise TypeError("give `y_pred` or `y_score`.")
        w = None if sample_weight is None else check_sample_weight(sample_weight, len(t))
        return cls(classes, truth, pred=pred, score=score, sample_weight=w)

    # ------------------------------------------------------------------ per label
    @property
    def n(self) -> int | float:
        """The number of rows: the total weight when weighted (an ``int`` when whole)."""
        if self.sample_weight is None:
            return int(self.truth.shape[0])
        return _scalar(self.sample_weight.sum())

    def _class_totals(self) -> tuple[np.ndarray, np.ndarray]:
        """Positives and negatives per label (sums of weights when weighted)."""
        if self.sample_weight is None:
            pos = self.truth.sum(0)
            return pos, self.truth.shape[0] - pos
        w = self.sample_weight
        return w @ self.truth, w @ ~self.truth

    def _multiplicities(self) -> tuple[np.ndarray, int]:
        """Each row's multiplicity for the row bootstrap (whole-number weights) and
        their total; refused for fractional weights."""
        if self.sample_weight is None:
            return np.ones(self.truth.shape[0], dtype=np.int64), int(self.truth.shape[0])
        w = self.sample_weight
        if not np.array_equal(w, np.round(w)):
            raise ValueError(
                "the row bootstrap needs whole-number `sample_weight` (frequency weights: a "
                "weight of 3 counts as three rows); got fractional weights. Use "
                "ci='dirichlet' for confusion-matrix metrics."
            )
        return w, round(float(w.sum()))

    def confusion_matrices(self) -> dict[Any, ConfusionMatrix]:
        """One confusion matrix per label (needs predicted labels)."""
        if self.pred is None:
            raise ValueError(
                "confusion-matrix metrics need predicted labels: build with "
                "`from_predictions`, or `from_scores(..., threshold=t)`."
            )
        t, p = self.truth, self.pred
        if self.sample_weight is None:
            counts = [(t & p).sum(0), (~t & p).sum(0), (t & ~p).sum(0), (~t & ~p).sum(0)]
            counts = [c.astype(int) for c in counts]
        else:
            w = self.sample_weight[:, None]
            counts = [
                (w * (t & p)).sum(0),
                (w * (~t & p)).sum(0),
                (w * (t & ~p)).sum(0),
                (w * (~t & ~p)).sum(0),
            ]
        return {
            lab: ConfusionMatrix(
                tp=counts[0][j].item(),
                fp=counts[1][j].item(),
                fn=counts[2][j].item(),
                tn=counts[3][j].item(),
            )
            for j, lab in enumerate(self.labels)
        }

    def curves(self) -> dict[Any, Any]:
        """One :class:`~opsstats.ScoreCurve` per label with both classes (needs scores)."""
        if self.score is None:
            raise ValueError("curve quantities need scores: build with `from_scores`.")
        out = {}
        pos, neg = self._class_totals()
        for j, lab in enumerate(self.labels):
            if pos[j] > 0 and neg[j] > 0:
                out[lab] = ScoreCurve.from_scores(
                    self.truth[:, j], self.score[:, j], sample_weight=self.sample_weight
                )
        return out

    def micro(self) -> ConfusionMatrix:
        """The pooled (micro) confusion matrix: every label's counts added up."""
        cms = self.confusion_matrices().values()
        return ConfusionMatrix(
            tp=sum(c.tp for c in cms),
            fp=sum(c.fp for c in cms),
            fn=sum(c.fn for c in cms),
            tn=sum(c.tn for c in cms),
        )

    def evaluate(
        self,
        metrics: Any = ("f1",),
        *,
        ci: str | None = None,
        confidence_level: float = 0.95,
        n_resamples: int = 1000,
        point_reference: Any = None,
        curve_reference: Any = None,
        rng: Any = None,
    ) -> pd.DataFrame:
        """The tidy per-label table for several metrics (label column first), each label
        evaluated on its own, as :func:`opsstats.evaluate` does for groups."""
        specs = parse_metrics(metrics)
        if ci is not None:
            ci = check_choice("ci", ci, ("dirichlet", "bootstrap"))
        confidence_level = check_confidence_level(confidence_level)
        n_resamples = check_resamples(n_resamples)
        root = root_seed(rng)
        cms = self.confusion_matrices() if self.pred is not None else {}
        curves = self.curves() if self.score is not None else {}
        curve_specs = [(sp.name, sp.at) if sp.at else sp.name for sp in specs if sp.kind == "curve"]
        if curve_specs and curves:  # every label in one pass over the reference curves
            if curve_reference is None:
                curve_reference = default_reference("curve")
            if hasattr(curve_reference, "precompute"):
                curve_reference.precompute(curve_specs, [c.prevalence for c in curves.values()])
        rows = []
        pos, neg = self._class_totals()
        for j, lab in enumerate(self.labels):
            weighted = self.sample_weight is not None
            for r in evaluate_unit(
                specs,
                cm=cms.get(lab),
                curve=curves.get(lab),
                ci=ci,
                confidence_level=confidence_level,
                n_resamples=n_resamples,
                point_reference=point_reference,
                curve_reference=curve_reference,
                root=root,
                key=(lab,),
                truth=None if weighted else self.truth[:, j],
                class_counts=(_scalar(pos[j]), _scalar(neg[j])) if weighted else None,
            ):
                rows.append({"label": lab, **r})
        return pd.DataFrame(rows, columns=["label", *COLUMNS])

    # ------------------------------------------------------------------- OPS
    def ops(
        self,
        metric: str,
        *,
        at: dict[str, float] | None = None,
        average: str | None = "macro",
        weights: Any = None,
        reference: Any = None,
        ci: str | None = None,
        confidence_level: float = 0.95,
        n_resamples: int = 1000,
        rng: Any = None,
        progress: bool = False,
        **params: Any,
    ) -> MultiLabelOPS:
        """Per-label OPS of one metric, aggregated across labels.

        Parameters
        ----------
        metric : str
            A confusion-matrix metric (needs predicted labels), a curve area such as
            ``"pr_auc"``, or a metric with ``at`` read off each label's curve.
        average : {"macro", "weighted", "prevalence", None}
            ``"macro"``: plain mean; ``"weighted"``: weighted by support (positives);
            ``"prevalence"``: weighted by prevalence (the same as support when all
            labels share the rows, as here); None: the per-label table only.
        weights : array-like of shape (L,), optional
            User weights (non-negative), instead of ``average``.
        reference : optional
            ``Uniform()`` for confusion-matrix metrics, ``DirectedBinaryTree()`` for curve
            quantities by default.
        ci : {None, "bootstrap", "dirichlet"}
            ``"bootstrap"``: resampling rows (instances), which keeps the dependence
            between labels; each label's prevalence is held at its observed value in the
            standardization (the estimand is OPS at the test set's own prevalence).
            ``"dirichlet"``: independent Dirichlet-multinomial draws per label
            (confusion-matrix metrics only); it assumes the labels are independent,
            which understates the aggregate's uncertainty when they are positively
            correlated.
        confidence_level, n_resamples, rng, progress
            As elsewhere; the same ``rng`` gives the same interval.

        Returns
        -------
        MultiLabelOPS
            Labels whose OPS is undefined (a class absent) have NaN and a reason in the
            table and are left out of the aggregate with an ``UndefinedMetricWarning``
            that names them.
        """
        spec = parse_metrics([(metric, at) if at is not None else metric])[0]
        if params and spec.kind == "curve" and spec.at is None:
            raise TypeError(f"curve areas take no metric parameters; got {sorted(params)}.")
        if average not in AVERAGES:
            check_choice("average", average, ("macro", "weighted", "prevalence"))
        if ci is not None:
            ci = check_choice("ci", ci, ("bootstrap", "dirichlet"))
        cl = check_confidence_level(confidence_level)
        n_resamples = check_resamples(
            n_resamples,
            bytes_each=8.0 * (len(self.labels) + 4),
            what=f" for the draws of {len(self.labels)} label(s)",
        )
        generator = check_rng(rng)
        kind = spec.kind
        ref = _check_reference(
            reference, kind, "a curve quantity" if kind == "curve" else "a confusion-matrix metric"
        )
        units = self._units(kind)
        if kind == "curve" and hasattr(ref, "precompute"):  # every label in one pass
            ref.precompute(
                [(spec.name, spec.at) if spec.at else spec.name],
                [u.prevalence for u in units.values() if 0 < u.prevalence < 1],
            )
        table = self._label_table(spec, units, ref, params)
        w = self._weights(table, average, weights)
        defined = ~table["ops"].isna().to_numpy()
        excluded = (
            tuple(table.loc[~defined & (w > 0), "label"]) if average or weights is not None else ()
        )
        if excluded:
            warnings.warn(
                f"OPS of {spec.label} is undefined for label(s) "
                f"{', '.join(map(str, excluded))} and left out of the aggregate: "
                + "; ".join(table.loc[~defined & (w > 0), "reason"]),
                UndefinedMetricWarning,
                stacklevel=2,
            )
        w = np.where(defined, w, 0.0)
        if w.sum() > 0:
            w = w / w.sum()
        table["weight"] = w
        aggregate = (
            float(np.sum(w * table["ops"].fillna(0).to_numpy()))
            if (average is not None or weights is not None) and w.sum() > 0
            else float("nan")
        )
        se = float(np.sum(w * table["ops_se"].fillna(0).to_numpy()))
        micro = None
        if kind == "point" and self.pred is not None:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UndefinedMetricWarning)
                micro = confusion_matrix_ops(self.micro(), spec.name, reference=ref, **params)
        result = MultiLabelOPS(
            metric=spec.label,
            table=table,
            average=average if weights is None else "user weights",
            estimate=aggregate,
            reference=ref.description,
            standard_error=se,
            excluded=excluded,
            micro=micro,
        )
        if ci is None or np.isnan(aggregate):
            return result
        draws, _n_bad, text = self._interval_draws(
            spec, units, ref, table, ci, n_resamples, generator, progress, params
        )
        used = w > 0
        agg = draws[:, used] @ w[used]  # per replicate; NaN if a used label is undefined
        ok = ~np.isnan(agg)
        if not ok.any():
            raise ValueError(
                f"the aggregate OPS is undefined in every one of the "
                f"{n_resamples} replicates (a label's class absent in each); "
                "no interval can be formed."
            )
        lo, hi = equal_tailed(np.sort(agg[ok]), cl)
        # per-label intervals from the same replicates
        for j in range(len(self.labels)):
            col = draws[:, j]
            good = ~np.isnan(col)
            if defined[j] and good.any():
                table.loc[j, ["ops_ci_low", "ops_ci_high"]] = equal_tailed(np.sort(col[good]), cl)
        table["method"] = table["method"].astype(str) + "; interval: " + text
        return MultiLabelOPS(
            metric=spec.label,
            table=table,
            average=result.average,
            estimate=aggregate,
            reference=ref.description,
            standard_error=se,
            ci=ConfidenceInterval(lo, hi),
            confidence_level=cl,
            ci_method=text,
            excluded=excluded,
            micro=micro,
            details={"n_resamples": n_resamples, "n_undefined": int((~ok).sum()), "draws": agg[ok]},
        )

    # ---------------------------------------------------------------- helpers
    def _units(self, kind: str) -> dict[Any, Any]:
        return self.confusion_matrices() if kind == "point" else self.curves()

    def _label_table(
        self, spec: MetricSpec, units: dict[Any, Any], ref: Any, params: dict[str, Any]
    ) -> pd.DataFrame:
        rows = []
        positives, negatives = self._class_totals()
        for j, lab in enumerate(self.labels):
            unit = units.get(lab)
            pos, total = _scalar(positives[j]), _scalar(positives[j] + negatives[j])
            if unit is None or not 0 < unit.prevalence < 1:
                absent = "positives" if pos == 0 else "negatives"
                reason = f"no {absent}: OPS is undefined with one class absent"
                value = np.nan
                if spec.kind == "point" and unit is not None:
                    # the metric's value where the registry defines it (F1 of a label
                    # without negatives is 0 when nothing is predicted positive)
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore", UndefinedMetricWarning)
                        value = unit.metric(spec.name, **params)
                rows.append(
                    {
                        "label": lab,
                        **dict.fromkeys(COLUMNS, np.nan),
                        "metric": spec.label,
                        "n": total,
                        "prevalence": pos / total if total > 0 else np.nan,
                        "value": value,
                        "method": "",
                        "reference": "",
                        "reason": reason,
                        "support": float(pos),
                    }
                )
                continue
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UndefinedMetricWarning)
                kwargs = {"at": spec.at} if spec.at else {}
                r = unit.ops(spec.name, reference=ref, **kwargs, **params)
            rows.append(
                {
                    "label": lab,
                    **dict.fromkeys(COLUMNS, np.nan),
                    "metric": spec.label,
                    "n": unit.n,
                    "prevalence": unit.prevalence,
                    "value": r.value,
                    "ops": r.estimate,
                    "ops_se": r.standard_error,
                    "method": r.method,
                    "reference": r.reference,
                    "reason": r.details.get("undefined", ""),
                    "support": float(unit.n * unit.prevalence),
                }
            )
        return pd.DataFrame(rows, columns=["label", *COLUMNS, "support"])

    def _weights(self, table: pd.DataFrame, average: str | None, weights: Any) -> np.ndarray:
        L = len(table)
        if weights is not None:
            w = np.asarray(weights, dtype=float)
            if w.shape != (L,) or not np.all(np.isfinite(w)) or (w < 0).any() or w.sum() <= 0:
                raise ValueError(
                    f"`weights` must be {L} finite non-negative numbers with a "
                    f"positive sum; got {describe(weights)}."
                )
            return w
        if average in (None, "macro"):
            return np.ones(L)
        if average == "weighted":
            return table["support"].to_numpy(dtype=float)
        return table["prevalence"].to_numpy(dtype=float)

    def _interval_draws(
        self,
        spec: MetricSpec,
        units: dict[Any, Any],
        ref: Any,
        table: pd.DataFrame,
        ci: str,
        n_resamples: int,
        rng: np.random.Generator,
        show: bool,
        params: dict[str, Any],
    ) -> tuple[np.ndarray, int, str]:
        """(B x L) OPS draws (NaN where undefined or excluded), undefined count, text."""
        draws = np.full((n_resamples, len(self.labels)), np.nan)
        defined = ~table["ops"].isna().to_numpy()
        if ci == "dirichlet":
            if spec.kind != "point":
                raise ValueError(
                    "`ci='dirichlet'` applies to confusion-matrix metrics; use "
                    "'bootstrap' for curve quantities."
                )

            metric = resolve_metric(spec.name, **params)
            # independent draws per label, kept in draw order (sorting them would couple
            # the labels comonotonically and overstate the aggregate's spread)
            for j, lab in enumerate(self.labels):
                if defined[j]:
                    d = _Draws(
                        units[lab],
                        "dirichlet",
                        n_resamples,
                        rng,
                        prior="jeffreys",
                        prevalence="fixed",
                        stratified=True,
                        show_progress=False,
                    )
                    with np.errstate(divide="ignore", invalid="ignore"):
                        vals = np.asarray(metric(d.pi, d.a, d.b), dtype=float)
                    ok = ~np.isnan(vals)
                    draws[ok, j] = ref.ops(
                        metric, vals[ok], prevalence=units[lab].prevalence
                    ).estimate
            text = (
                f"Dirichlet-multinomial per label (labels assumed independent), Jeffreys "
                f"prior, {n_resamples} draws, prevalence fixed, equal-tailed"
            )
            return draws, 0, text
        self._multiplicities()  # whole-number weights only
        if spec.kind == "point":
            self._bootstrap_points(spec, ref, table, defined, draws, rng, show, params)
        else:
            self._bootstrap_curves(spec, ref, table, defined, draws, rng, show)
        text = (
            f"bootstrap over rows (keeps the dependence between labels), {n_resamples} "
            "resamples, prevalence fixed at each label's observed value, percentile"
        )
        return draws, 0, text

    def _bootstrap_points(self, spec, ref, table, defined, draws, rng, show, params) -> None:
        # Rows compressed to their joint pattern of (truth, prediction) over labels:
        # a replicate is one multinomial over the K patterns (no per-row work). The
        # patterns are sorted (np.unique), so any order of the rows, or rows already
        # compressed with their counts as weights (MultiLabel.from_frame), gives the
        # same patterns, probabilities and draws.
        pred = cast(np.ndarray, self.pred)  # a bootstrap of predictions has them
        mult, n = self._multiplicities()
        codes = self.truth.astype(np.int8) * 2 + pred.astype(np.int8)  # 3 tp 2 fn 1 fp 0 tn
        patterns, inverse = np.unique(codes, axis=0, return_inverse=True)
        counts = np.bincount(inverse.reshape(-1), weights=mult, minlength=len(patterns))
        patterns, counts = patterns[counts > 0], counts[counts > 0]
        probs = counts / n
        B = draws.shape[0]
        K = patterns.shape[0]
        per = max(1, _CHUNK_ROWS // K)

        metric = resolve_metric(spec.name, **params)
        pis = table["prevalence"].to_numpy(dtype=float)
        with progress(B, show, "bootstrap") as tick:
            for start in range(0, B, per):
                m = min(per, B - start)
                mult = rng.multinomial(n, probs, size=m).astype(float)  # (m, K)
                tp = mult @ (patterns == 3)
                fp = mult @ (patterns == 1)
                fn = mult @ (patterns == 2)
                tn = mult @ (patterns == 0)
                pos, neg = tp + fn, fp + tn
                with np.errstate(divide="ignore", invalid="ignore"):
                    a = np.where(neg > 0, fp / neg, np.nan)
                    b = np.where(pos > 0, fn / pos, np.nan)
                for j in np.flatnonzero(defined):
                    with np.errstate(divide="ignore", invalid="ignore"):
                        vals = np.asarray(metric(pis[j], a[:, j], b[:, j]), dtype=float)
                    ok = ~np.isnan(vals)
                    if ok.any():
                        draws[start : start + m, j][ok] = ref.ops(
                            metric, vals[ok], prevalence=pis[j]
                        ).estimate
                tick(m)

    def _bootstrap_curves(self, spec, ref, table, defined, draws, rng, show) -> None:
        # Rows compressed to their distinct joint rows (truth and score of every label)
        # with multiplicities: a replicate is one multinomial over the K distinct rows,
        # shared by every label (dependence kept), which has the distribution of
        # resampling the n rows; per label the counts are accumulated over its sorted
        # distinct scores.
        from scipy import sparse

        quantity = parse_area(spec.name) if spec.at is None else parse_at(spec.name, spec.at)
        truth, score, counts, n = self._distinct_rows()
        k = counts.size
        B = draws.shape[0]
        pis = table["prevalence"].to_numpy(dtype=float)
        probs = counts / n
        maps = {}
        for j in np.flatnonzero(defined):
            thr, inv = np.unique(score[:, j], return_inverse=True)
            inv = thr.size - 1 - inv  # descending thresholds (no negation: exact for ints)
            cells = inv * 2 + truth[:, j]
            maps[j] = (
                thr.size,
                sparse.csr_matrix((np.ones(k), (np.arange(k), cells)), shape=(k, 2 * thr.size)),
            )
        per = max(1, _CHUNK_ROWS // k)
        with progress(B, show, "bootstrap") as tick:
            for start in range(0, B, per):
                m = min(per, B - start)
                mult = rng.multinomial(n, probs, size=m).astype(float)
                for j, (_, onehot) in maps.items():
                    c = np.asarray((onehot.T @ mult.T).T)  # (m, 2J): negatives, positives
                    tps = np.cumsum(c[:, 1::2], axis=1)
                    fps = np.cumsum(c[:, 0::2], axis=1)
                    pos, neg = tps[:, -1:], fps[:, -1:]
                    with np.errstate(divide="ignore", invalid="ignore"):
                        alpha = np.hstack([np.zeros((m, 1)), fps / neg])
                        beta = np.hstack([np.ones((m, 1)), 1 - tps / pos])
                        if isinstance(quantity, CurveArea):
                            vals = curve_area(quantity, pis[j], alpha, beta)
                        else:
                            vals = value_at(quantity, pis[j], alpha, beta)
                    vals = np.where((pos[:, 0] > 0) & (neg[:, 0] > 0), vals, np.nan)
                    ok = ~np.isnan(vals)
                    if ok.any():
                        draws[start : start + m, j][ok] = ref.ops(
                            quantity, vals[ok], prevalence=pis[j]
                        ).estimate
                tick(m)

    def _distinct_rows(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
        """The distinct joint rows (truth and score of every label) in sorted order, with
        their multiplicities and total: the same table whether the rows come one by one
        or already counted (:meth:`from_frame`)."""
        truth, score = self.truth, cast(np.ndarray, self.score)
        mult, n = self._multiplicities()
        keep = mult > 0
        if not keep.all():
            truth, score, mult = truth[keep], score[keep], mult[keep]
        L = truth.shape[1]
        # np.lexsort: the last key sorts first (truth of label 0, ..., score of label L-1)
        keys = [score[:, j] for j in reversed(range(L))] + [truth[:, j] for j in reversed(range(L))]
        order = np.lexsort(keys)
        truth, score, mult = truth[order], score[order], mult[order]
        new = np.ones(len(mult), dtype=bool)
        new[1:] = np.any(truth[1:] != truth[:-1], axis=1) | np.any(score[1:] != score[:-1], axis=1)
        starts = np.flatnonzero(new)
        return truth[starts], score[starts], np.add.reduceat(mult, starts), n


def _scalar(x: Any) -> int | float:
    """A count as a Python number: ``int`` when it is a whole number."""
    value = x.item() if isinstance(x, np.generic) else x
    if isinstance(value, float) and value.is_integer() and abs(value) < 2.0**53:
        return int(value)
    return value
