"""The study's shared design and machinery: the confidence level and the acceptance
band, the grid of cells, the columns every part writes and the quantities' labels; the
coverage summary of one (quantity, method, target) over a cell's test sets; the cells'
seeds and the ``--cells`` filter."""

from __future__ import annotations

from typing import Any

import numpy as np

CONFIDENCE_LEVEL = 0.95
ACCEPT_LOW, ACCEPT_HIGH = 0.93, 0.97  # the rule: defaults cover within 93%-97%
TOL = 1e-12
CSV_FLOAT_FORMAT = "%.6g"

# Columns every part writes (a part may add its own after these).
SHARED_COLUMNS = [
    "part",
    "cell",
    "quantity",
    "method",
    "is_default",
    "target",
    "matched",
    "reps",
    "n_absent",
    "n_undefined",
    "n_defined",
    "coverage",
    "coverage_se",
    "miss_low",
    "miss_high",
    "mean_width",
    "median_width",
    "n_resamples",
    "seed",
    "cell_seconds",
    "cell_cpu_seconds",
]

# The grid of cells, n x prevalence pi, of both parts.
CM_NS = (50, 200, 1000, 10_000)
CM_PREVALENCES = (0.5, 0.1, 0.02)

# The labels of every part's quantities in tables and text.
QUANTITY_LABEL = {
    "alpha": "alpha",
    "beta": "beta",
    "f1": "F1",
    "mcc": "MCC",
    "ops_f1": "OPS(F1)",
    "ops_mcc": "OPS(MCC)",
    "roc_auc": "ROC AUC",
    "pr_auc": "PR AUC",
    "ops_roc_auc": "OPS(ROC AUC)",
    "ops_pr_auc": "OPS(PR AUC)",
}


def summarize(
    low: np.ndarray,
    high: np.ndarray,
    truth: np.ndarray,
    absent: np.ndarray,
) -> dict[str, Any]:
    """Coverage summary of one (quantity, method, target) over the replicates.

    ``low``/``high`` are NaN where the method gave no interval; ``absent`` marks the
    replicates where the quantity is not estimable (a class it needs is absent).
    """
    reps = truth.size
    undefined = ~absent & ~(np.isfinite(low) & np.isfinite(high))
    ok = ~absent & ~undefined
    n_def = int(ok.sum())
    out = {
        "reps": reps,
        "n_absent": int(absent.sum()),
        "n_undefined": int(undefined.sum()),
        "n_defined": n_def,
    }
    if n_def == 0:
        return {
            **out,
            "coverage": np.nan,
            "coverage_se": np.nan,
            "miss_low": np.nan,
            "miss_high": np.nan,
            "mean_width": np.nan,
            "median_width": np.nan,
        }
    t, lo, hi = truth[ok], low[ok], high[ok]
    if np.isnan(t).any():  # a NaN truth would silently count as covered
        raise RuntimeError("undefined true value in a replicate counted as defined")
    tol = TOL * (1 + np.abs(t))
    below = t < lo - tol  # interval entirely above the truth
    above = t > hi + tol  # interval entirely below the truth
    cov = (n_def - int(below.sum()) - int(above.sum())) / n_def  # k / m: 930/1000 == 0.93
    width = hi - lo
    return {
        **out,
        "coverage": cov,
        "coverage_se": float(np.sqrt(cov * (1 - cov) / n_def)),
        "miss_low": below.mean(),
        "miss_high": above.mean(),
        "mean_width": float(width.mean()),
        "median_width": float(np.median(width)),
    }


def cell_rng(seed: int, spawn_key: tuple[int, ...]) -> tuple[np.random.Generator, ...]:
    """(simulation rng, interval rng) of a cell, independent of every other cell."""
    ss = np.random.SeedSequence(seed, spawn_key=spawn_key)
    sim, draws = ss.spawn(2)
    return np.random.default_rng(sim), np.random.default_rng(draws)


def parse_cells(text: str | None) -> list[tuple[str, str]] | None:
    """``"200:0.1,1000:*"`` -> [("200", "0.1"), ("1000", "*")] (None: every cell)."""
    if not text:
        return None
    out = []
    for token in text.split(","):
        token = token.strip()
        if token.count(":") != 1:
            raise SystemExit(f"--cells: expected tokens like 200:0.1 or 1000:* ; got {token!r}")
        n, p = token.split(":")
        out.append((n.strip(), p.strip()))
    return out


def cell_selected(filters: list[tuple[str, str]] | None, n: int, pi: float) -> bool:
    if filters is None:
        return True
    return any((fn == "*" or int(fn) == n) and (fp == "*" or float(fp) == pi) for fn, fp in filters)
