"""Write the paired and unpaired two-classifier data sets for proc_compare.R.

Run from the repository root:

    python tests/reference/make_paired.py

Writes into ``tests/reference/data_compare/`` (``aSAH.csv`` in the same
folder is written by ``proc_compare.R``, not by this script):

* ``paired_n200.csv``, ``paired_n500_prev10.csv``, ``paired_n60_ties.csv``:
  columns ``y_true,score_a,score_b``; two classifiers score the same rows.
  Within each class the two scores are bivariate normal with unit variances
  and correlation 0.5 (``z @ chol.T + mean``, so no SVD is involved), the
  controls centred on (0, 0) and the cases on a per-set mean.
* ``unpaired.csv``: columns ``set,y_true,y_score``; two independent test sets
  (``set`` = ``a`` or ``b``) with different sizes and prevalences, for the
  unpaired roc.test.

``y_true`` is in {0, 1} with 1 = case (expected to score higher).  Class
counts are fixed (not drawn), rows are shuffled, and every data set has its
own seed, so the files are reproducible bit for bit with a given numpy
version.  Only numpy is needed.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

DATA_DIR = Path(__file__).resolve().parent / "data_compare"
RHO = 0.5


def _bivariate(rng, n, mean, rho=RHO):
    chol = np.linalg.cholesky(np.array([[1.0, rho], [rho, 1.0]]))
    z = rng.standard_normal((n, 2))
    return z @ chol.T + np.asarray(mean, dtype=float)


def _paired(rng, n_pos, n_neg, mean_pos):
    pos = _bivariate(rng, n_pos, mean_pos)
    neg = _bivariate(rng, n_neg, (0.0, 0.0))
    y = np.concatenate([np.ones(n_pos, dtype=int), np.zeros(n_neg, dtype=int)])
    s = np.concatenate([pos, neg])
    order = rng.permutation(len(y))
    return y[order], s[order]


def _write_paired(name, y, s, fmt):
    path = DATA_DIR / name
    with open(path, "w", newline="\n") as fh:
        fh.write("y_true,score_a,score_b\n")
        for yi, (a, b) in zip(y, s, strict=True):
            fh.write(f"{int(yi)},{fmt % a},{fmt % b}\n")
    return path


def paired_n200():
    # n=200, 100 cases (prevalence 0.5); case means (1.0, 0.6): AUCs about
    # 0.76 and 0.66; 3 decimals.
    rng = np.random.default_rng(20240201)
    y, s = _paired(rng, 100, 100, (1.0, 0.6))
    return _write_paired("paired_n200.csv", y, np.round(s, 3) + 0.0, "%.3f")


def paired_n500_prev10():
    # n=500, 50 cases (prevalence 0.1); case means (1.2, 1.0): AUCs about
    # 0.80 and 0.76 (a small difference); full precision (%.17g).
    rng = np.random.default_rng(20240202)
    y, s = _paired(rng, 50, 450, (1.2, 1.0))
    return _write_paired("paired_n500_prev10.csv", y, s, "%.17g")


def paired_n60_ties():
    # n=60, 18 cases (prevalence 0.3); case means (1.0, 0.8); both scores
    # rounded to steps of 0.5, so about ten distinct values each: heavy ties
    # within and across classes.
    rng = np.random.default_rng(20240203)
    y, s = _paired(rng, 18, 42, (1.0, 0.8))
    return _write_paired("paired_n60_ties.csv", y, np.round(2.0 * s) / 2.0 + 0.0, "%.1f")


def unpaired():
    # Two independent test sets: a = 150 rows, 60 cases (0.4), N(1,1) vs
    # N(0,1); b = 250 rows, 50 cases (0.2), N(0.6,1) vs N(0,1); 3 decimals.
    rng = np.random.default_rng(20240204)
    rows = []
    for name, n_pos, n_neg, mu in (("a", 60, 90, 1.0), ("b", 50, 200, 0.6)):
        pos = np.round(rng.normal(mu, 1.0, size=n_pos), 3) + 0.0
        neg = np.round(rng.normal(0.0, 1.0, size=n_neg), 3) + 0.0
        y = np.concatenate([np.ones(n_pos, dtype=int), np.zeros(n_neg, dtype=int)])
        s = np.concatenate([pos, neg])
        order = rng.permutation(len(y))
        rows.extend((name, int(yi), si) for yi, si in zip(y[order], s[order], strict=True))
    path = DATA_DIR / "unpaired.csv"
    with open(path, "w", newline="\n") as fh:
        fh.write("set,y_true,y_score\n")
        for name, yi, si in rows:
            fh.write(f"{name},{yi},{si:.3f}\n")
    return path


def main():
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    for make in (paired_n200, paired_n500_prev10, paired_n60_ties, unpaired):
        path = make()
        print(f"wrote {path} ({path.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
