"""Binary labels: checking them and turning them into a positive-class mask."""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from ._validation import check_1d, describe

__all__ = ["positive_mask", "infer_pos_label", "check_label_kinds"]

_DEFAULT_POSITIVE = ({0, 1}, {-1, 1}, {False, True}, {0}, {1}, {-1}, {True}, {False})


def _label_set(arr: np.ndarray) -> list[Any]:
    return sorted(np.unique(arr).tolist(), key=lambda v: (str(type(v)), v))


def infer_pos_label(labels: list[Any], pos_label: Any, name: str) -> Any:
    """The positive label: ``pos_label`` if given (and present), else 1 for {0, 1},
    {-1, 1} and {False, True} labels, else an error asking for ``pos_label``."""
    if len(labels) > 2:
        shown = ", ".join(map(repr, labels[:6])) + (", ..." if len(labels) > 6 else "")
        raise ValueError(
            f"{name} must hold binary labels (at most two distinct values); "
            f"got {len(labels)} distinct values: {shown}."
        )
    if pos_label is None:
        if any(set(labels) <= s for s in _DEFAULT_POSITIVE):
            return (
                True
                if set(labels) <= {False, True}
                and any(isinstance(v, bool | np.bool_) for v in labels)
                else 1
            )
        raise ValueError(
            f"`pos_label` must be given when the labels are not {{0, 1}}, "
            f"{{-1, 1}} or booleans; got labels {describe(labels)}."
        )
    if pos_label not in labels:
        raise ValueError(
            f"`pos_label` must be one of the labels present in {name}; "
            f"got {describe(pos_label)}, labels present: {describe(labels)}."
        )
    return pos_label


def _label_kinds(arr: np.ndarray) -> set[str]:
    """{"string"}, {"number"} or both: what kind of labels an array holds."""
    if arr.dtype.kind in "US":
        return {"string"}
    if arr.dtype.kind in "biuf":
        return {"number"}
    kinds = set()
    for t in set(map(type, arr.tolist())):
        if issubclass(t, str | bytes):
            kinds.add("string")
        elif issubclass(t, numbers.Number | np.bool_ | np.number):
            kinds.add("number")
    return kinds


def check_label_kinds(arrays: list[tuple[str, np.ndarray]]) -> None:
    # Strings and numbers never compare equal ('1' != 1), so mixing them would count
    # every such label as "not positive" without a word: refuse it, as sklearn does.
    kinds = {name: _label_kinds(a) for name, a in arrays}
    if len(set().union(*kinds.values())) > 1:
        got = "; ".join(
            f"`{name}` holds {' and '.join(sorted(x + 's' for x in k))}"
            for name, k in kinds.items()
        )
        raise TypeError(f"labels must be all strings or all numbers; got {got}.")


def positive_mask(
    y: Any, *, name: str, pos_label: Any = None, other: Any = None, other_name: str = ""
) -> tuple[np.ndarray, Any]:
    """Boolean mask of the positive class in ``y`` (and the positive label used).

    ``other`` (e.g. ``y_pred``) is checked to hold labels from the same binary set.
    """
    arr = check_1d(name, y)
    arrays = [arr] if other is None else [arr, other]
    check_label_kinds([(name, arr)] + ([] if other is None else [(other_name, other)]))
    labels = (
        _label_set(
            np.concatenate(
                [np.asarray(a, dtype=object) if a.dtype.kind == "O" else a for a in arrays]
            )
        )
        if other is not None
        else _label_set(arr)
    )
    where = f"`{name}`" if other is None else f"`{name}` and `{other_name}` together"
    pos = infer_pos_label(labels, pos_label, where)
    return arr == pos, pos
