"""The curve reference of an evaluation: the one given, or the default (the DBT),
interpolating curve areas in prevalence on a grid when there are many distinct group
prevalences (docs/method.md#prevalence-grid); one pass over it serves every group's
prevalence."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..curves._geometry import parse_area, parse_at
from ..ops import default_reference
from ..reference.dbt import DirectedBinaryTree
from ._specs import MetricSpec

#: The step in logit(prevalence) of the grid on which the default curve reference
#: interpolates curve areas when there are many distinct prevalences
#: (docs/method.md#prevalence-grid).
PREVALENCE_STEP = 0.125


def _default_curve_reference(pis: list[float]) -> Any:
    """The default curve reference (the DBT), interpolating in prevalence when its grid
    needs fewer passes over the curves than the distinct prevalences would."""
    grid = DirectedBinaryTree(prevalence_step=PREVALENCE_STEP)
    if grid.grid_nodes(np.unique(pis)).size < len(set(pis)):
        return grid
    return default_reference("curve")


def _precompute(reference: Any, curve_specs: list[MetricSpec], pis: np.ndarray) -> None:
    """One pass over a curve reference for every group's prevalence (where it can)."""
    if hasattr(reference, "precompute"):
        reference.precompute(
            [
                parse_area(sp.name) if sp.at is None else parse_at(sp.name, sp.at)
                for sp in curve_specs
            ],
            [p for p in pis if 0 < p < 1],
        )


def resolve_curve_reference(reference: Any, curve_specs: list[MetricSpec], pis: np.ndarray) -> Any:
    """The reference of the curve quantities of groups of prevalences ``pis`` (those in
    (0, 1) count): ``reference``, or the default for these prevalences when it is None;
    precomputed for them where it can be."""
    if reference is None:
        reference = _default_curve_reference([p for p in pis if 0 < p < 1])
    _precompute(reference, curve_specs, pis)
    return reference
