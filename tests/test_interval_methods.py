"""Interval methods registered by users (opsstats.uncertainty.methods)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from opsstats import ConfusionMatrix, evaluate
from opsstats.uncertainty.methods import (
    get_interval_method,
    interval_methods,
    register_interval_method,
    registered_interval_methods,
    unregister_interval_method,
)

CM = ConfusionMatrix(tp=45, fp=30, fn=15, tn=210)


def _laplace(cm, n, rng):
    # the Dirichlet posterior with the Bayes-Laplace prior, drawn in the same order as the
    # built-in method draws it (alpha first, then beta), so the numbers must agree exactly
    return rng.beta(cm.fp + 1, cm.tn + 1, n), rng.beta(cm.fn + 1, cm.tp + 1, n)


@pytest.fixture
def laplace():
    register_interval_method("laplace-copy", _laplace, description="Beta posterior, flat prior")
    yield "laplace-copy"
    unregister_interval_method("laplace-copy")


def test_registered_method_equals_the_built_in_it_copies(laplace):
    for name in ("alpha", "recall", "f1", "mcc"):
        mine = CM.interval(name, method=laplace, rng=3, n_resamples=4000)
        built_in = CM.interval(
            name, method="dirichlet", prior="bayes-laplace", rng=3, n_resamples=4000
        )
        np.testing.assert_array_equal(mine.draws, built_in.draws)
        assert mine.ci == built_in.ci
        assert (
            mine.method == "Beta posterior, flat prior, 4000 draws, prevalence fixed, equal-tailed"
        )
    ops = CM.ops("f1", ci=laplace, rng=3)
    ref = CM.ops("f1", ci="dirichlet", prior="bayes-laplace", rng=3)
    assert ops.ci == ref.ci and ops.estimate == ref.estimate
    hpd = CM.interval("f1", method=laplace, interval="hpd", rng=3)
    assert (
        hpd.ci
        == CM.interval("f1", method="dirichlet", prior="bayes-laplace", interval="hpd", rng=3).ci
    )


def test_registered_method_in_evaluate(laplace):
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"y": rng.random(400) < 0.3, "p": rng.random(400) < 0.35})
    out = evaluate(frame, truth="y", pred="p", metrics=["f1"], ci=laplace, rng=1)
    assert "interval: Beta posterior, flat prior, 1000 draws" in out.loc[0, "method"]
    assert out.loc[0, "value_ci_low"] < out.loc[0, "value"] < out.loc[0, "value_ci_high"]


def test_registry_lists_and_forgets(laplace):
    assert laplace in registered_interval_methods() and laplace in interval_methods()
    assert interval_methods()[:2] == ("dirichlet", "bootstrap")
    assert get_interval_method("dirichlet") is None


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"name": "dirichlet"}, ValueError, "`name` 'dirichlet' is a built-in interval method"),
        ({"name": ""}, TypeError, "`name` must be a non-empty string"),
        ({"draw": 3}, TypeError, "`draw` must be callable; got 3"),
        ({"description": ""}, TypeError, "`description` must be a non-empty string"),
    ],
)
def test_bad_registrations(kwargs, error, match):
    args = {"name": "mine", "draw": _laplace, "description": "mine", **kwargs}
    with pytest.raises(error, match=match):
        register_interval_method(args.pop("name"), args.pop("draw"), **args)
    assert "mine" not in registered_interval_methods()


def test_a_name_is_taken_once(laplace):
    with pytest.raises(ValueError, match="already registered; pass overwrite=True"):
        register_interval_method(laplace, _laplace, description="again")
    register_interval_method(laplace, _laplace, description="again", overwrite=True)
    assert CM.interval("f1", method=laplace, rng=0).method.startswith("again, ")


@pytest.mark.parametrize(
    "draw, error, match",
    [
        (lambda cm, n, rng: rng.random(n), TypeError, "must return a pair"),
        (
            lambda cm, n, rng: (rng.random(n), rng.random(n - 1)),
            ValueError,
            "must return 10000 beta draws; got an array of shape",
        ),
        (
            lambda cm, n, rng: (rng.random(n) + 1, rng.random(n)),
            ValueError,
            "alpha draws outside \\[0, 1\\]",
        ),
        (lambda cm, n, rng: (np.full(n, np.nan), rng.random(n)), ValueError, "outside \\[0, 1\\]"),
    ],
)
def test_bad_draws_are_refused(draw, error, match):
    register_interval_method("broken", draw, description="broken")
    try:
        with pytest.raises(error, match=match):
            CM.interval("f1", method="broken")
    finally:
        unregister_interval_method("broken")


def test_prevalence_random_is_refused(laplace):
    with pytest.raises(ValueError, match="prevalence='random'` is not available"):
        CM.interval("f1", method=laplace, prevalence="random")


def test_unregister_unknown():
    with pytest.raises(ValueError, match="must be a registered interval method"):
        unregister_interval_method("nothing-here")
