"""The paired stratified jackknife of a curve area: the difference of two classifiers'
areas on the same rows, its variance from the leave-one-row-out values, and Student's t
with the Satterthwaite df of the class parts (``method="jackknife-t"``,
docs/method.md#comparisons).

Leaving a row out changes both curves at once; its effect on the difference is the
difference of its effects on each curve. Each curve's leave-one-row-out values come from
the single-curve jackknife (:func:`opsstats.uncertainty.curve.jackknife._jackknife`,
exact, O(J) per curve), one value per (cell, class); every row reads its value from its
cell in each curve. For the trapezoid ROC AUC the variance is DeLong's, so this is the
t-referenced DeLong test (``"delong-t"``) extended to every area.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..curves import ScoreCurve
from ..uncertainty.curve._options import _estimate
from ..uncertainty.curve.jackknife import _jackknife
from .delong import satterthwaite_df
from .draws import row_cells

__all__: list[str] = []


def _row_values(curve: ScoreCurve, is_pos: np.ndarray, scores: np.ndarray, quantity: Any):
    """Each row's leave-it-out value of the quantity (NaN where undefined)."""
    cells, where = row_cells(curve, is_pos, scores, quantity)
    jk = _jackknife(curve, quantity)
    out = np.full(is_pos.size, np.nan)
    for cls, mask, counts in ((0, is_pos, cells.pos), (1, ~is_pos, cells.neg)):
        if jk.values[cls].size:
            out[mask] = jk.values[cls][np.searchsorted(np.flatnonzero(counts), where[mask])]
    return out


def paired_jackknife(
    is_pos: np.ndarray, score_a: np.ndarray, score_b: np.ndarray, quantity: Any
) -> tuple[float, float, float, float, float]:
    """(estimate A, estimate B, variance of A - B, its positives' part, the df).

    The variance is ``V1 + V0``, ``Vc = (k - 1) / k * sum_i (d_(i) - mean)**2`` over the
    k rows of class c, ``d_(i)`` the difference A - B with row i left out (Arvesen
    1969's stratified jackknife); the df are Satterthwaite's of ``(V1, m), (V0, n)``
    (:func:`~opsstats.comparison.delong.satterthwaite_df`). NaN variance when a
    leave-one-out value is undefined.

    Examples
    --------
    >>> y = np.array([1, 1, 1, 0, 0, 0, 0, 0], bool)
    >>> from opsstats.curves._geometry import parse_area
    >>> a, b, v, v1, df = paired_jackknife(y, np.array([.9, .8, .3, .7, .4, .2, .1, .35]),
    ...                                    np.array([.6, .9, .5, .8, .1, .3, .2, .4]),
    ...                                    parse_area("pr_auc"))
    >>> round(a - b, 4), round(v, 4), round(df, 2)
    (0.0278, 0.0556, 4.38)
    """
    est, rows = [], []
    for s in (score_a, score_b):
        curve = ScoreCurve.from_scores(is_pos, s, pos_label=True)
        est.append(float(_estimate(curve, quantity)))
        rows.append(_row_values(curve, is_pos, s, quantity))
    d = rows[0] - rows[1]
    parts = []
    for mask in (is_pos, ~is_pos):
        k = int(mask.sum())
        dk = d[mask]
        parts.append(((k - 1) / k * float(np.sum((dk - dk.mean()) ** 2)), k))
    var = parts[0][0] + parts[1][0]
    df = satterthwaite_df(parts) if np.isfinite(var) else float("nan")
    return est[0], est[1], float(var), float(parts[0][0]), df
