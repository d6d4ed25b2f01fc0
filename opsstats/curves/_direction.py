"""Which way a score points: ``direction="<"`` (higher scores mean the positive class,
the package's default; pROC's ``"<"``, controls < cases), ``">"`` (lower scores mean
positive: the curve of the negated scores) or ``"auto"``, chosen as pROC's
``roc(direction="auto")`` does, by comparing the two classes' median scores
(docs/method.md#vocabulary). An automatic choice is always announced (a warning, and
the curve's ``direction``), never silent: choosing the direction from the data that are
then evaluated biases the AUC upwards for a useless score.
"""

from __future__ import annotations

import warnings

import numpy as np

from .._validation import check_choice

__all__ = ["DIRECTIONS", "orient"]

#: The accepted values of ``direction``.
DIRECTIONS = ("<", ">", "auto")


def _negated(s: np.ndarray) -> np.ndarray:
    """-s, exactly, for float and integer scores."""
    if s.dtype.kind == "u":
        if s.size and int(s.max()) > np.iinfo(np.int64).max:
            raise ValueError(
                "`y_score` with `direction='>'` must be negatable exactly: unsigned "
                f"integer scores above 2**63 - 1 cannot be; got a maximum of {int(s.max())}."
            )
        s = s.astype(np.int64)
    if s.dtype.kind == "i" and s.size and int(s.min()) == np.iinfo(s.dtype).min:
        raise ValueError(
            "`y_score` with `direction='>'` must be negatable exactly: the integer "
            f"{int(s.min())} is not; pass the scores as floats."
        )
    return np.negative(s)


def orient(s: np.ndarray, is_pos: np.ndarray, direction: str) -> tuple[np.ndarray, str]:
    """The scores oriented so that higher means positive, and the direction used.

    ``"auto"`` takes ``">"`` when the negatives' median score is above the positives'
    (pROC: ``median(controls) > median(cases)``), else ``"<"``, and says so in a
    ``UserWarning``.
    """
    direction = check_choice("direction", direction, DIRECTIONS)
    if direction == "auto":
        med_pos = float(np.median(s[is_pos].astype(float)))
        med_neg = float(np.median(s[~is_pos].astype(float)))
        direction = ">" if med_neg > med_pos else "<"
        warnings.warn(
            f"direction='auto' chose direction={direction!r} (median score of the "
            f"positives {med_pos:.6g}, of the negatives {med_neg:.6g}; as pROC): "
            + (
                "lower scores are taken to mean the positive class. "
                if direction == ">"
                else "higher scores are taken to mean the positive class. "
            )
            + "Choosing the direction from the evaluated data biases the AUC upwards; "
            "fix it in advance where you can.",
            UserWarning,
            stacklevel=4,
        )
    return (_negated(s) if direction == ">" else s), direction
