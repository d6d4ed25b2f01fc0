"""The checks of a comparison's inputs: the classifiers' scores or predictions on one
test set, or two test sets, and the options both entry points share; every entry point of
:mod:`opsstats.comparison` goes through them (one validation path,
:mod:`opsstats._validation`)."""

from __future__ import annotations

import inspect
import os
import warnings
from collections.abc import Mapping
from typing import Any

import numpy as np

from .._labels import check_label_kinds
from .._validation import (
    check_1d,
    check_choice,
    check_confidence_level,
    check_pair,
    check_resamples,
    check_same_length,
    check_scores,
    describe,
    threshold_for,
)
from ..curves._counting import check_both_classes, class_mask
from ..uncertainty.curve.dirichlet import _curve_prior
from .result import ALTERNATIVES

__all__: list[str] = []

#: The package's folder: a frame whose file is below it is the package's own.
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def caller_stacklevel() -> int:
    """The ``stacklevel`` that makes a warning issued by the function calling this one
    name the first frame outside opsstats (the user's line), however deep the package's
    own calls are (as pandas' ``find_stack_level``)."""
    frame = inspect.currentframe()
    level = 0
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame = frame.f_back
        level += 1
    return level


def check_alternative(alternative: Any) -> str:
    """``"two-sided"`` (``"two.sided"`` as R spells it), ``"greater"`` or ``"less"``."""
    if isinstance(alternative, str) and alternative == "two.sided":
        alternative = "two-sided"
    return check_choice("alternative", alternative, ALTERNATIVES)


def _check_common(
    alternative: Any, confidence_level: Any, n_resamples: Any, rope: Any, prior: Any
) -> tuple[str, float, int, tuple[float, float] | None]:
    alternative = check_alternative(alternative)
    level = check_confidence_level(confidence_level)
    n = check_resamples(n_resamples)
    rope_pair = None if rope is None else check_pair("rope", rope)
    _curve_prior(prior)
    return alternative, level, n, rope_pair


def named_columns(what: str, columns: Any, *, minimum: int = 2) -> dict[str, Any]:
    """``{name: column}`` from a mapping, or from a list (named "A", "B", ...)."""
    if isinstance(columns, Mapping):
        named = {str(k): v for k, v in columns.items()}
    elif isinstance(columns, list | tuple) and all(
        not np.isscalar(c) and c is not None for c in columns
    ):
        named = {chr(ord("A") + i) if i < 26 else f"C{i}": v for i, v in enumerate(columns)}
    else:
        raise TypeError(
            f"`{what}` must be a dict {{name: array}} (or a list of arrays) of the "
            f"classifiers to compare; got {describe(columns)}."
        )
    if len(named) < minimum:
        raise ValueError(
            f"`{what}` must hold at least {minimum} classifiers to compare; got {len(named)}."
        )
    return named


def _columns(
    y_true: Any, columns: Any, name: str, check: Any, pos_label: Any
) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
    """``y_true``, its positive mask (both classes present) and each named column
    checked by ``check(argument_name, values)``, all of one length."""
    named = named_columns(name, columns)
    t = check_1d("y_true", y_true)
    arrays = {k: check(f"{name}[{k!r}]", v) for k, v in named.items()}
    check_same_length(y_true=t, **{f"{name}[{k!r}]": v for k, v in arrays.items()})
    is_pos = class_mask(t, pos_label)
    check_both_classes(is_pos, None)
    return t, is_pos, arrays


def paired_scores(
    y_true: Any, y_score: Any, pos_label: Any
) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """The positive mask and each classifier's checked scores, all of one length."""
    _, is_pos, scores = _columns(y_true, y_score, "y_score", check_scores, pos_label)
    for k, v in scores.items():
        if v.size and np.all(v == v[0]):
            warnings.warn(
                f"classifier {k!r} gives every row the same score: its ROC AUC is 0.5 "
                "and its curve a single step.",
                UserWarning,
                stacklevel=caller_stacklevel(),
            )
    return is_pos, scores


def paired_predictions(
    y_true: Any, y_pred: Any, pos_label: Any
) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """The positive mask and each classifier's predictions as positive masks."""
    t, is_pos, preds = _columns(y_true, y_pred, "y_pred", check_1d, pos_label)
    label = t[np.flatnonzero(is_pos)[0]]
    masks = {}
    for k, v in preds.items():
        check_label_kinds([("y_true", t), (f"y_pred[{k!r}]", v)])
        labels = set(np.unique(np.concatenate([np.unique(t), np.unique(v)])).tolist())
        if len(labels) > 2:
            raise ValueError(
                f"`y_pred[{k!r}]` must hold the labels of `y_true` (two classes); got "
                f"the labels {sorted(map(str, labels))} together."
            )
        masks[k] = v == label
    return is_pos, masks


def thresholded_predictions(
    y_true: Any, y_score: Any, threshold: int | float, pos_label: Any
) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """The positive mask and each classifier's predictions ``score >= threshold`` (a
    checked threshold, compared exactly with integer scores:
    :func:`opsstats._validation.threshold_for`)."""
    _, is_pos, scores = _columns(y_true, y_score, "y_score", check_scores, pos_label)
    return is_pos, {k: v >= threshold_for(v.dtype, threshold) for k, v in scores.items()}


def ranked_counts(
    is_pos: np.ndarray, scores: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One argsort of the scores gives both the curve's counts and each row's
    place on it: ``(tps, fps, idx)``, the cumulative positives and negatives at or above
    each distinct score (decreasing, as :class:`~opsstats.ScoreCurve` holds them) and the
    index of each row's score among those distinct scores."""
    # the default introsort: 2x faster than timsort on distinct scores, 4x on few; ties
    # are grouped by value below, so the order among them does not matter
    order = np.argsort(scores)
    ranked = scores[order]
    new = np.empty(scores.size, dtype=bool)
    new[:1] = True
    np.not_equal(ranked[1:], ranked[:-1], out=new[1:])
    ascending = np.cumsum(new) - 1
    j = int(ascending[-1]) + 1
    rows = np.bincount(ascending, minlength=j)
    pos = np.bincount(ascending[is_pos[order]], minlength=j)
    tps = np.cumsum(pos[::-1])
    fps = np.cumsum((rows - pos)[::-1])
    idx = np.empty(scores.size, dtype=np.intp)
    idx[order] = j - 1 - ascending
    return tps, fps, idx
