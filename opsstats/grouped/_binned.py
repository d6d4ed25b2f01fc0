"""The notes of a binned curve: each curve row's ``method`` says that the scores were
counted in equal-width bins, with the range of the unbinned value over the orders inside
the bins (docs/method.md#binned-curves)."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal
from typing import Any

import numpy as np

from ..curves._binning import bin_bounds_of
from ..ops import _check_reference
from ._specs import MetricSpec


def _note_bin_bounds(
    unit: list[dict[str, Any]],
    specs: Sequence[MetricSpec],
    counts: tuple[np.ndarray, np.ndarray, np.ndarray],
    bins: int,
    reference: Any,
    weighted: bool = False,
) -> None:
    """Say in each curve row's method that the curve was binned, with the range of the
    unbinned value over the orders inside the bins (docs/method.md#binned-curves)."""
    ref = _check_reference(reference, "curve", "a curve quantity")
    noted = [
        (row, ref._quantity(spec.name, spec.at, None, {}))
        for row, spec in zip(unit, specs, strict=True)
        if spec.kind == "curve" and not np.isnan(row["value"])
    ]
    if not noted:
        return
    # the bins' extreme orders built once for every curve row
    ranges = bin_bounds_of([q for _, q in noted], *counts, rows="any" if weighted else "unit")
    for (row, _), (lo, hi, _, reason) in zip(noted, ranges, strict=True):
        where = (
            f"the unbinned value lies in [{_outward(lo, ROUND_FLOOR)}, "
            f"{_outward(hi, ROUND_CEILING)}]" + (" (for rows of any weight)" if weighted else "")
            if not np.isnan(lo)
            else f"no bound on the unbinned value is derived ({reason})"
        )
        row["method"] = (
            f"{row['method']}; scores in {bins} equal-width bins (ties inside a bin): {where}"
        )


def _outward(value: float, rounding: str) -> str:
    """``value`` to 6 significant digits, rounded down (``ROUND_FLOOR``) or up, so that
    a printed range still holds what the exact one holds."""
    if not np.isfinite(value) or value == 0:
        return f"{value:.6g}"
    exact = Decimal(value)
    return f"{float(exact.quantize(Decimal(1).scaleb(exact.adjusted() - 5), rounding)):.6g}"
