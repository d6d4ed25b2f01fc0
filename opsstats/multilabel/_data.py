"""The data class :class:`~opsstats.multilabel.MultiLabel` and its constructors: from
indicator matrices, from score matrices, from a data frame of any engine (which counts
the distinct joint rows) and one-vs-rest from a multi-class problem. What it computes
comes from its private base classes (``_aggregate``, ``_draws``, ``_per_label``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._labels import check_label_kinds
from .._lazy import lazy_module
from .._validation import check_1d, check_sample_weight, check_threshold, describe, threshold_for
from ..frames import is_frame, joint_counts
from ._aggregate import _Aggregation
from ._matrices import _columns, _indicator, _matrix, _scores

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = lazy_module("pandas")


class MultiLabel(_Aggregation):
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
        # the constructors pass checked arrays; checked again here (cheaply) for a caller
        # who builds one directly
        t, names = _matrix("truth", truth, labels)
        parts = {}
        for arg, value in (("pred", pred), ("score", score)):
            if value is not None:
                parts[arg] = _matrix(arg, value, None)[0]
                if parts[arg].shape != t.shape:
                    raise ValueError(
                        f"`truth` and `{arg}` must have the same shape; got {t.shape} and "
                        f"{parts[arg].shape}."
                    )
        self.labels = names
        self.truth = _indicator("truth", t)
        self.pred = _indicator("pred", parts["pred"]) if "pred" in parts else None
        self.score = _scores("score", parts["score"], names) if "score" in parts else None
        self.sample_weight = (
            None if sample_weight is None else check_sample_weight(sample_weight, t.shape[0])
        )

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
            raise ValueError(
                "give `pred` or `score` (with an optional `threshold`), not both; got "
                f"`pred` {describe(pred)} and `score` {describe(score)}."
            )
        if pred is None and score is None:
            raise ValueError(
                "give `pred` or `score` (with `threshold` for predicted labels); got neither."
            )
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
        check_label_kinds(
            [("y_true", t)] + ([] if y_pred is None else [("y_pred", check_1d("y_pred", y_pred))])
        )
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
            s, _ = _matrix("y_score", y_score, None)
            if s.shape[0] != truth.shape[0]:
                raise ValueError(
                    f"`y_true` and `y_score` must have one row per instance; got "
                    f"{truth.shape[0]} labels and {s.shape[0]} rows of scores."
                )
            if s.shape[1] != len(classes):
                raise ValueError(
                    f"`y_score` must have one column per class ({len(classes)}: those of "
                    f"`y_true` and `y_pred`, or `classes`: {describe(classes)}); got "
                    f"{s.shape[1]} columns."
                )
            score = _scores("y_score", s, classes)
        if pred is None and score is None:
            raise TypeError("give `y_pred` or `y_score`; got neither.")
        w = None if sample_weight is None else check_sample_weight(sample_weight, len(t))
        return cls(classes, truth, pred=pred, score=score, sample_weight=w)
