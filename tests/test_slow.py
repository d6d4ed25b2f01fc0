"""Long simulations, left out of the default run: ``python -m pytest -m slow``."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from opsstats import ConfusionMatrix, DirectedBinaryTree, Uniform

pytestmark = pytest.mark.slow


@pytest.mark.parametrize(
    "metric, value, at",
    [
        ("pr_auc", 0.6, None),
        ("roc_auc", 0.8, None),
        ("precision", 0.4, {"recall": 0.9}),
    ],
)
def test_dbt_depth_barely_moves_the_answer(metric, value, at):
    """docs/method.md#dbt-reference: depths 4 to 11 agree within about 0.004. Each OPS
    carries a Monte Carlo s.e. of about 0.0006-0.0016 at G = 100,000; allow 0.004 plus 3
    combined s.e."""
    results = {
        d: DirectedBinaryTree(depth=d).ops(metric, value, prevalence=0.1, at=at)
        for d in (4, 6, 9, 11)
    }
    ref = results[9]
    for d, r in results.items():
        se = np.hypot(r.standard_error, ref.standard_error)
        assert abs(r.estimate - ref.estimate) <= 0.004 + 3 * se, (d, r.estimate, ref.estimate)


def test_default_interval_coverage_of_ops_f1_large():
    """2000 test sets (n = 300, pi = 0.1, alpha = 0.1, beta = 0.25): the default
    Dirichlet interval of OPS(F1) covers the truth OPS(F1(pi_hat, alpha, beta); pi_hat)
    inside 93%-97% (two one-sided binomial tests at the 0.001 level)."""
    rng = np.random.default_rng(17)
    uni = Uniform()
    hits, reps = 0, 2000
    for _ in range(reps):
        pos = rng.binomial(300, 0.1)
        tp, fp = rng.binomial(pos, 0.75), rng.binomial(300 - pos, 0.1)
        cm = ConfusionMatrix(tp=tp, fp=fp, fn=pos - tp, tn=300 - pos - fp)
        truth_f1 = ConfusionMatrix.from_rates(
            n=1, prevalence=cm.prevalence, alpha=0.1, beta=0.25
        ).metric("f1")
        truth = uni.ops("f1", truth_f1, prevalence=cm.prevalence).estimate
        r = cm.ops("f1", ci="dirichlet", n_resamples=2000, rng=rng)
        hits += r.ci.low <= truth <= r.ci.high
    assert stats.binomtest(hits, reps, 0.93, alternative="less").pvalue > 0.001, hits / reps
    assert stats.binomtest(hits, reps, 0.97, alternative="greater").pvalue > 0.001, hits / reps
