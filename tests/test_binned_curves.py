"""Binned curves (evaluate(bins=)): the exact value of the unbinned scores always lies in
the range the binned result reports; for the ROC AUC the range is the binned AUC
+- sum_b pos_b neg_b / (2 P N)."""

import re

import numpy as np
import pandas as pd
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from opsstats import DirectedBinaryTree, ScoreCurve, evaluate
from opsstats.curves._binning import bin_bounds
from opsstats.curves._geometry import parse_area

REF = DirectedBinaryTree(depth=5, n_curves=500)


def _range(method: str) -> tuple[float, float]:
    lo, hi = re.search(r"lies in \[([^,]+), ([^\]]+)\]", method).groups()
    return float(lo), float(hi)


@settings(max_examples=150, deadline=None)
@given(
    n=st.integers(10, 300),
    prevalence=st.floats(0.05, 0.95),
    shift=st.floats(-1, 3),
    bins=st.integers(2, 40),
    digits=st.sampled_from([None, 1, 2]),
    seed=st.integers(0, 2**32 - 1),
)
def test_the_unbinned_value_lies_in_the_reported_range(n, prevalence, shift, bins, digits, seed):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < prevalence
    if y.all() or not y.any():
        y[0] = not y[0]
    s = rng.normal(y * shift, 1)
    if digits is not None:
        s = np.round(s, digits)  # ties in the unbinned scores too
    df = pd.DataFrame({"y": y.astype(int), "s": s})
    out = evaluate(
        df,
        truth="y",
        score="s",
        metrics=["roc_auc", "pr_auc"],
        bins=bins,
        ci=None,
        curve_reference=REF,
    )
    curve = ScoreCurve.from_scores(y, s)
    for _, row in out.iterrows():
        exact = curve.auc("roc") if row["metric"] == "roc_auc" else curve.auc("pr")
        lo, hi = _range(row["method"])
        assert lo - 1e-6 <= exact <= hi + 1e-6, (row["metric"], lo, exact, hi)
        assert lo - 1e-6 <= row["value"] <= hi + 1e-6


def test_roc_range_is_the_half_pair_bound():
    rng = np.random.default_rng(3)
    s = rng.integers(0, 12, 400).astype(float)  # scores that are their own bins
    pos = rng.integers(0, 5, 12)
    neg = rng.integers(1, 9, 12)
    scores = np.arange(12.0)
    curve = ScoreCurve.from_counts(scores, pos, neg)
    lo, hi = bin_bounds(parse_area("roc_auc"), scores, pos, neg)
    half = float(np.sum(pos * neg) / (2 * pos.sum() * neg.sum()))
    assert (lo, hi) == pytest.approx((curve.auc("roc") - half, curve.auc("roc") + half), abs=1e-12)
    assert s.size == 400


def test_max_distinct_bins_only_when_needed():
    rng = np.random.default_rng(0)
    y = rng.random(3000) < 0.3
    df = pl.DataFrame({"y": y.astype(int), "s": np.round(rng.normal(y * 1.0, 1), 1)})
    few = evaluate(
        df,
        truth="y",
        score="s",
        metrics=["roc_auc"],
        ci=None,
        max_distinct=1000,
        curve_reference=REF,
    )
    assert "bins" not in few["method"].iloc[0]  # about 70 distinct scores: exact
    many = evaluate(
        df,
        truth="y",
        score="s",
        metrics=["roc_auc"],
        ci=None,
        max_distinct=10,
        bins=20,
        curve_reference=REF,
    )
    assert "20 equal-width bins" in many["method"].iloc[0]


@pytest.mark.parametrize(
    ("kwargs", "exc", "match"),
    [
        ({"bins": 1}, ValueError, "`bins`"),
        ({"bins": "ten"}, TypeError, "`bins`"),
        ({"bins": 10**9}, ValueError, "`bins`"),
        ({"max_distinct": 0}, ValueError, "`max_distinct`"),
    ],
)
def test_bad_bins(kwargs, exc, match):
    df = pd.DataFrame({"y": [0, 1, 0, 1], "s": [0.1, 0.4, 0.35, 0.8]})
    with pytest.raises(exc, match=match):
        evaluate(df, truth="y", score="s", **kwargs)
