"""The registry of the study's parts: a :class:`Part` is what the command line, the
runner and the Markdown header need of one section of the study."""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Callable
from typing import Any

import pandas as pd

from .cm import cm_make_cells, cm_run_cell
from .cm_render import cm_render
from .curve import curve_make_cells, curve_run_cell
from .curve_render import curve_render


@dataclasses.dataclass(frozen=True)
class Part:
    """One section of the study.

    ``make_cells(args)`` returns picklable cell specs (dicts with at least ``"cell"``,
    a short label, and ``"spawn_key"``, a tuple of ints identifying the cell);
    ``run_cell(spec, options)`` returns a list of CSV rows; ``render(frame)`` returns
    Markdown text for the part's rows.
    """

    name: str
    description: str
    make_cells: Callable[[argparse.Namespace], list[dict[str, Any]]]
    run_cell: Callable[[dict[str, Any], dict[str, Any]], list[dict[str, Any]]]
    render: Callable[[pd.DataFrame], str]


# Registry of parts. To add one, write make_cells / run_cell / render and list it here.
PARTS: dict[str, Part] = {
    "cm": Part(
        "cm",
        "confusion-matrix quantities: alpha, beta, F1, MCC, OPS(F1), OPS(MCC)",
        cm_make_cells,
        cm_run_cell,
        cm_render,
    ),
    "curve": Part(
        "curve",
        "ROC AUC and PR AUC from simulated scores, and their OPS",
        curve_make_cells,
        curve_run_cell,
        curve_render,
    ),
}
