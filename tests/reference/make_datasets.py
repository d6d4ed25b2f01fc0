"""Write the small deterministic data sets used as pROC reference inputs.

Run from the repository root:

    python tests/reference/make_datasets.py

Each CSV has the columns ``y_true,y_score`` with ``y_true`` in {0, 1}
(1 = case/positive, which is expected to score higher).  Class counts are
fixed (not drawn), rows are shuffled, and every data set has its own seed,
so the files are reproducible bit for bit with a given numpy version.
Only numpy is needed.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

DATA_DIR = Path(__file__).resolve().parent / "data"


def _assemble(rng, pos, neg):
    y = np.concatenate([np.ones(len(pos), dtype=int), np.zeros(len(neg), dtype=int)])
    s = np.concatenate([pos, neg])
    order = rng.permutation(len(y))
    return y[order], s[order]


def _write(name, y, s, fmt):
    path = DATA_DIR / name
    with open(path, "w", newline="\n") as fh:
        fh.write("y_true,y_score\n")
        for yi, si in zip(y, s, strict=True):
            fh.write(f"{int(yi)},{fmt % si}\n")
    return path


def small_ties():
    # n=60, 18 positives (prevalence 0.3); scores on [0, 1] rounded to one
    # decimal, so only 11 distinct values: heavy ties within and across classes.
    rng = np.random.default_rng(20240101)
    pos = np.round(rng.beta(3.0, 2.0, size=18), 1)
    neg = np.round(rng.beta(2.0, 3.0, size=42), 1)
    y, s = _assemble(rng, pos, neg)
    return _write("small_ties.csv", y, s, "%.1f")


def medium():
    # n=500, 100 positives (prevalence 0.2); binormal N(1,1) vs N(0,1), 3 decimals.
    rng = np.random.default_rng(20240102)
    pos = np.round(rng.normal(1.0, 1.0, size=100), 3)
    neg = np.round(rng.normal(0.0, 1.0, size=400), 3)
    y, s = _assemble(rng, pos, neg)
    return _write("medium.csv", y, s, "%.3f")


def imbalanced():
    # n=2000, 100 positives (prevalence 0.05); binormal N(1.5,1) vs N(0,1),
    # full precision (17 significant digits round-trip a float64 exactly).
    rng = np.random.default_rng(20240103)
    pos = rng.normal(1.5, 1.0, size=100)
    neg = rng.normal(0.0, 1.0, size=1900)
    y, s = _assemble(rng, pos, neg)
    return _write("imbalanced.csv", y, s, "%.17g")


def perfect():
    # n=40, 16 positives; every positive scores above every negative (AUC = 1).
    rng = np.random.default_rng(20240104)
    pos = np.round(rng.uniform(0.55, 1.0, size=16), 3)
    neg = np.round(rng.uniform(0.0, 0.45, size=24), 3)
    y, s = _assemble(rng, pos, neg)
    return _write("perfect.csv", y, s, "%.3f")


def weak():
    # n=300, 150 positives (prevalence 0.5); N(0.2,1) vs N(0,1), 2 decimals.
    rng = np.random.default_rng(20240105)
    pos = np.round(rng.normal(0.2, 1.0, size=150), 2)
    neg = np.round(rng.normal(0.0, 1.0, size=150), 2)
    y, s = _assemble(rng, pos, neg)
    return _write("weak.csv", y, s, "%.2f")


def main():
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    for make in (small_ties, medium, imbalanced, perfect, weak):
        path = make()
        print(f"wrote {path} ({path.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
