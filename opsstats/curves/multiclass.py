"""Multi-class ROC AUC: Hand and Till's M, one-vs-one and one-vs-rest with macro and
prevalence-weighted averages (docs/method.md#vocabulary).

Every pairwise or one-vs-rest AUC is the trapezoid ROC AUC of a
:class:`~opsstats.curves.score_curve.ScoreCurve` (the Mann-Whitney statistic, ties one
half), so the numbers are those of the binary curves.

* One-vs-one (Hand and Till 2001): for classes i != j, A(i|j) is the AUC of the column
  of class i separating class-i rows (positives) from class-j rows; the pair's value is
  (A(i|j) + A(j|i)) / 2. ``average="macro"`` is Hand and Till's M, the mean over the
  K (K - 1) / 2 pairs (pROC's ``multiclass.roc`` of a probability matrix, scikit-learn's
  ``roc_auc_score(multi_class="ovo")``, yardstick's ``hand_till``); ``"weighted"`` weighs
  each pair by the share of rows in its two classes (scikit-learn).
* One-vs-rest: the AUC of column k separating class k from all other rows; the mean over
  classes (``"macro"``) or weighted by the class sizes (``"weighted"``).
* A single score column (pROC's univariate ``multiclass.roc``): one AUC per pair of
  classes, the lower class as the negatives, averaged; ``direction`` per pair as
  :meth:`~opsstats.curves.score_curve.ScoreCurve.from_scores` (pROC uses "auto", chosen
  by the medians of each pair).

Case weights (``sample_weight``) enter every binary AUC as the weighted Mann-Whitney
statistic of :meth:`~opsstats.curves.score_curve.ScoreCurve.from_scores` (each pair of a
positive and a negative row counts with the product of their weights), and the
``"weighted"`` averages weigh classes by their total weight: scikit-learn's
``roc_auc_score(multi_class="ovr", sample_weight=...)``, which has no weights for
one-vs-one; pROC has none.

The scores need not sum to 1 (scikit-learn requires it; Hand and Till's M does not).
"""

from __future__ import annotations

import warnings
from itertools import combinations
from typing import TYPE_CHECKING, Any

import numpy as np

from .._labels import check_label_kinds
from .._lazy import lazy_module
from .._validation import (
    check_1d,
    check_choice,
    check_real_array,
    check_sample_weight,
    describe,
)
from ..metrics.multiclass import class_index
from .score_curve import ScoreCurve

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = lazy_module("pandas")

__all__ = ["MULTI_CLASS", "AVERAGES", "multiclass_roc_auc", "pairwise_auc"]

#: Accepted ``multi_class`` values (``"hand_till"`` is one-vs-one, macro).
MULTI_CLASS = ("ovo", "ovr", "hand_till")
#: Accepted ``average`` values.
AVERAGES = ("macro", "weighted")


def _inputs(
    y_true: Any, y_score: Any, labels: Any, sample_weight: Any = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]:
    """Labels as class indices 0..K-1, the score matrix (n, K) or column (n, 1), the
    class labels (sorted unless given) and the checked case weights (None: unweighted)."""
    y = check_1d("y_true", y_true)
    check_label_kinds([("y_true", y)])
    scores = check_real_array("y_score", y_score)
    if scores.ndim == 1:
        scores = scores[:, None]
    if scores.ndim == 2 and scores.shape[0] != y.size:
        raise ValueError(
            f"`y_true` and `y_score` must have one row per instance; got {y.size} labels and "
            f"{scores.shape[0]} rows of scores."
        )
    if scores.ndim != 2:
        raise ValueError(
            f"`y_score` must have one row per label ({y.size}) and one column per class "
            f"(or one column of scores); got shape {scores.shape}."
        )
    if not np.isfinite(scores).all():
        raise ValueError("`y_score` must be finite; got NaN or infinite values.")
    present = np.unique(y)
    classes = present if labels is None else check_1d("labels", labels)
    if np.unique(classes).size != classes.size:
        raise ValueError(f"`labels` must not repeat a class; got {describe(labels)}.")
    absent = [c for c in classes.tolist() if c not in set(present.tolist())]
    if absent:
        raise ValueError(
            f"`y_true` must hold every class of `labels`: each class needs rows for its "
            f"AUCs; got no rows of class {absent[0]!r}."
        )
    extra = [c for c in present.tolist() if c not in set(classes.tolist())]
    if extra:
        raise ValueError(f"`y_true` holds the class {extra[0]!r}, which `labels` lacks.")
    if classes.size < 3 and scores.shape[1] > 1:
        raise ValueError(
            f"`y_true` must hold at least 3 classes for a multi-class AUC; got {classes.size} "
            "(use ScoreCurve for two classes)."
        )
    if scores.shape[1] not in (1, classes.size):
        raise ValueError(
            f"`y_score` must have one column per class ({classes.size}) or a single "
            f"column; got {scores.shape[1]} columns."
        )
    w = check_sample_weight(sample_weight, y.size)
    return class_index(y, classes), scores, classes, w


def _weights(w: np.ndarray | None, mask: np.ndarray) -> np.ndarray | None:
    return None if w is None else w[mask]


def pairwise_auc(
    y_true: Any,
    y_score: Any,
    *,
    labels: Any = None,
    direction: str = "<",
    sample_weight: Any = None,
) -> pd.DataFrame:
    """The AUC of every ordered pair of classes.

    Parameters
    ----------
    y_true : array-like of shape (n,)
    y_score : array-like of shape (n, K) or (n,)
        A column per class (in the order of ``labels``, sorted labels by default) or one
        score column.
    labels : array-like, optional
    direction : {"<", ">", "auto"}
        For a single score column only: as :meth:`ScoreCurve.from_scores`, per pair.
    sample_weight : array-like of shape (n,), optional
        Case weights (non-negative): each AUC the weighted Mann-Whitney statistic.

    Returns
    -------
    pandas.DataFrame
        Rows ``positive``, ``negative``, ``auc``, ``direction``: with a matrix, A(i|j)
        (column of class i, class i positive) for every i != j; with one column, one row
        per pair i < j (class j positive).

    Examples
    --------
    >>> y = [0, 0, 1, 1, 2, 2]
    >>> p = [[.8, .1, .1], [.5, .3, .2], [.2, .7, .1], [.4, .4, .2], [.1, .2, .7], [.3, .3, .4]]
    >>> pairwise_auc(y, p)["auc"].tolist()
    [1.0, 1.0, 1.0, 1.0, 1.0, 1.0]
    """
    k, scores, classes, w = _inputs(y_true, y_score, labels, sample_weight)
    rows = []
    K = classes.size
    if scores.shape[1] == 1:
        for i, j in combinations(range(K), 2):
            mask = (k == i) | (k == j)
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                c = ScoreCurve.from_scores(
                    k[mask] == j,
                    scores[mask, 0],
                    direction=direction,
                    sample_weight=_weights(w, mask),
                )
            for note in caught:  # announce each pair's automatic choice, naming the pair
                warnings.warn(
                    f"classes {classes[i]!r} vs {classes[j]!r}: {note.message}",
                    note.category,
                    stacklevel=2,
                )
            rows.append((classes[j], classes[i], c.auc(), c.direction))
    else:
        check_choice("direction", direction, ("<",))
        for i in range(K):
            for j in range(K):
                if i != j:
                    mask = (k == i) | (k == j)
                    auc = ScoreCurve.from_scores(
                        k[mask] == i, scores[mask, i], sample_weight=_weights(w, mask)
                    ).auc()
                    rows.append((classes[i], classes[j], auc, "<"))
    return pd.DataFrame(rows, columns=["positive", "negative", "auc", "direction"])


def multiclass_roc_auc(
    y_true: Any,
    y_score: Any,
    *,
    multi_class: str = "ovo",
    average: str = "macro",
    labels: Any = None,
    direction: str = "<",
    sample_weight: Any = None,
) -> float:
    """Multi-class ROC AUC: Hand and Till's M (one-vs-one), or one-vs-rest.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        At least three classes, each with rows.
    y_score : array-like of shape (n, K) or (n,)
        Scores per class (columns in the order of ``labels``), or one score column
        (pROC's univariate form: the mean of the pairs' AUCs; ``multi_class="ovo"``).
    multi_class : {"ovo", "ovr", "hand_till"}, default "ovo"
        ``"hand_till"`` is ``"ovo"`` with ``average="macro"``.
    average : {"macro", "weighted"}, default "macro"
    labels : array-like, optional
        The classes, in the order of the columns (default: the sorted labels).
    direction : {"<", ">", "auto"}
        For a single score column (pROC's default there is ``"auto"``, per pair).
    sample_weight : array-like of shape (n,), optional
        Case weights (non-negative): every binary AUC is the weighted Mann-Whitney
        statistic, and ``"weighted"`` weighs classes (pairs) by their total weight, as
        scikit-learn's ``roc_auc_score(multi_class="ovr", sample_weight=...)`` does
        (scikit-learn has no weights for one-vs-one).

    Returns
    -------
    float

    References
    ----------
    .. [1] D. J. Hand and R. J. Till, "A simple generalisation of the area under the ROC
       curve for multiple class classification problems", Machine Learning 45(2),
       171-186 (2001). https://doi.org/10.1023/A:1010920819831

    Examples
    --------
    >>> y = [0, 0, 1, 1, 2, 2]
    >>> p = [[.8, .1, .1], [.3, .5, .2], [.2, .7, .1], [.4, .4, .2], [.1, .2, .7], [.3, .3, .4]]
    >>> round(multiclass_roc_auc(y, p), 6)       # sklearn roc_auc_score(multi_class="ovo")
    0.895833
    >>> round(multiclass_roc_auc(y, p, multi_class="ovr", average="weighted"), 6)
    0.895833
    >>> round(multiclass_roc_auc(y, p, sample_weight=[1, 2, 1, 1, 1, 1]), 6)  # row 2 twice
    0.861111
    """
    multi_class = check_choice("multi_class", multi_class, MULTI_CLASS)
    average = check_choice("average", average, AVERAGES)
    if multi_class == "hand_till":
        if average != "macro":
            raise ValueError(
                "`average` of multi_class='hand_till' is 'macro' (Hand and Till's M); got "
                f"{average!r}. Use multi_class='ovo' for the weighted one-vs-one average."
            )
        multi_class = "ovo"
    k, scores, classes, w = _inputs(y_true, y_score, labels, sample_weight)
    K = classes.size
    sizes = np.bincount(k, weights=w, minlength=K).astype(float)
    if scores.shape[1] == 1:
        if multi_class != "ovo" or average != "macro":
            raise ValueError(
                "one score column gives the mean of the pairs' AUCs (pROC's univariate "
                "multiclass.roc): `multi_class` must be 'ovo' and `average` 'macro'; got "
                f"{multi_class!r}, {average!r}."
            )
        return float(
            pairwise_auc(
                y_true, y_score, labels=labels, direction=direction, sample_weight=sample_weight
            )["auc"].mean()
        )
    if direction != "<":
        raise ValueError(
            "`direction` applies to a single score column; a score matrix has one "
            f"column per class, higher meaning that class; got {describe(direction)}."
        )
    if multi_class == "ovr":
        aucs = np.array(
            [ScoreCurve.from_scores(k == i, scores[:, i], sample_weight=w).auc() for i in range(K)]
        )
        return float(np.average(aucs, weights=sizes if average == "weighted" else None))
    table = pairwise_auc(y_true, y_score, labels=labels, sample_weight=sample_weight)
    a = {
        (p, q): v
        for p, q, v in zip(table["positive"], table["negative"], table["auc"], strict=True)
    }
    pairs: list[float] = []
    pair_sizes: list[float] = []
    for i, j in combinations(range(K), 2):
        ci, cj = classes[i], classes[j]
        pairs.append((a[(ci, cj)] + a[(cj, ci)]) / 2.0)
        pair_sizes.append(sizes[i] + sizes[j])
    return float(np.average(pairs, weights=pair_sizes if average == "weighted" else None))
