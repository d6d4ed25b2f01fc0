"""Write the multi-class data sets for proc_vocabulary.R (multiclass.roc).

Run from the repository root:

    python tests/reference/make_multiclass.py

Writes into ``tests/reference/data_multiclass/``:

* ``multiclass3.csv``: 300 rows, classes 0/1/2 with 120/100/80 rows;
  full-precision probabilities (``%.17g``).
* ``multiclass4.csv``: 300 rows, classes 0/1/2/3 with 90/80/70/60 rows;
  probabilities rounded to 2 decimals (so ties within a column, and a row's
  probabilities need not sum to exactly 1).

Columns: ``y_true`` (the true class, an integer 0..K-1), ``p_0`` ..
``p_{K-1}`` (the score of each class: a softmax of class logits
``sep * onehot(y_true) + N(0, 1)`` noise), and ``score`` (one univariate
predictor, the expected class index ``sum_k k * p_k``; 3 decimals in
``multiclass4``).  Class counts are fixed, rows are shuffled, one seed per
data set.  Only numpy is needed.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

DATA_DIR = Path(__file__).resolve().parent / "data_multiclass"


def _make(rng, counts, sep):
    k = len(counts)
    y = np.concatenate([np.full(c, i, dtype=int) for i, c in enumerate(counts)])
    logits = sep * np.eye(k)[y] + rng.standard_normal((len(y), k))
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    p /= p.sum(axis=1, keepdims=True)
    order = rng.permutation(len(y))
    return y[order], p[order]


def _write(name, y, p, score, pfmt, sfmt):
    k = p.shape[1]
    path = DATA_DIR / name
    with open(path, "w", newline="\n") as fh:
        fh.write(",".join(["y_true"] + [f"p_{i}" for i in range(k)] + ["score"]) + "\n")
        for yi, pi, si in zip(y, p, score, strict=True):
            fh.write(",".join([str(int(yi))] + [pfmt % v for v in pi] + [sfmt % si]) + "\n")
    return path


def multiclass3():
    rng = np.random.default_rng(20240301)
    y, p = _make(rng, (120, 100, 80), sep=1.5)
    score = p @ np.arange(3)
    return _write("multiclass3.csv", y, p, score, "%.17g", "%.17g")


def multiclass4():
    rng = np.random.default_rng(20240302)
    y, p = _make(rng, (90, 80, 70, 60), sep=1.2)
    p = np.round(p, 2)
    score = np.round(p @ np.arange(4), 3)
    return _write("multiclass4.csv", y, p, score, "%.2f", "%.3f")


def main():
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    for make in (multiclass3, multiclass4):
        path = make()
        print(f"wrote {path} ({path.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
