"""Sample size and power of ROC AUC tests against R pROC 1.18's power.roc.test and
var/cov(method="obuchowski") (tests/reference/proc_compare.csv; each row's R call is in
its ``r_call`` column)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import norm
from test_compare_delong import PROC, _params, load_pair

from opsstats import ScoreCurve
from opsstats.comparison import (
    binormal_fit,
    obuchowski_covariance,
    obuchowski_variance,
    power_roc_test,
    power_roc_test_curves,
    power_roc_test_params,
)

QUANTITY = {
    "ncases": "ncases",
    "ncontrols": "ncontrols",
    "power": "power",
    "sig_level": "sig_level",
}


def _rows(form: str):
    rows = PROC[PROC["params"].str.contains(f"form={form}")]
    return [
        (
            r["params"],
            r["alternative"],
            r["quantity"],
            float(r["value"]) if r["quantity"] != "error" else None,
            r["note"],
            r["dataset"],
        )
        for _, r in rows.iterrows()
    ]


def _num(p, key):
    return float(p[key]) if key in p else None


ONE_AUC = _rows("one_auc")


@pytest.mark.parametrize("params, alt, quantity, value, note, dataset", ONE_AUC)
def test_one_auc(params, alt, quantity, value, note, dataset):
    # power.roc.test(auc=..., ncases=..., ncontrols=..., power=..., sig.level=..., kappa=...)
    p = _params(params)
    solve = p["solve"]
    kwargs = {
        "auc": _num(p, "auc"),
        "ncases": _num(p, "ncases"),
        "ncontrols": _num(p, "ncontrols"),
        "kappa": _num(p, "kappa") or 1.0,
        "sig_level": None if solve == "sig.level" else _num(p, "sig.level"),
        "power": None if solve == "power" else _num(p, "power"),
        "alternative": alt,
    }
    r = power_roc_test(**kwargs)
    got = r.auc[0] if quantity == "auc" else getattr(r, quantity)
    if quantity == "auc":
        # pROC's uniroot stops at ~1e-4 (the row's note); ours is solved to 1e-12
        assert "uniroot" in note
        assert got == pytest.approx(value, abs=2e-4)
    else:
        assert got == pytest.approx(value, rel=1e-9)


PARAMS = _rows("params_")
PARAM_SETS = {
    "params_partial": {
        "a1": 2.6,
        "b1": 1,
        "a2": 1.9,
        "b2": 1,
        "rn": 0.6,
        "ra": 0.6,
        "delta": 0.037,
        "fpr1": (0, 0.2),
        "fpr2": (0, 0.2),
    },
    "params_full": {
        "a1": 1.2,
        "b1": 1,
        "a2": 0.8,
        "b2": 1.2,
        "rn": 0.5,
        "ra": 0.5,
        "delta": norm.cdf(1.2 / np.sqrt(2)) - norm.cdf(0.8 / np.sqrt(1 + 1.2**2)),
    },
}


@pytest.mark.parametrize("params, alt, quantity, value, note, dataset", PARAMS)
def test_binormal_parameters(params, alt, quantity, value, note, dataset):
    # power.roc.test(list(A1=, B1=, A2=, B2=, rn=, ra=, [FPR..,] delta=), ...)
    p = _params(params)
    solve = p["solve"]
    r = power_roc_test_params(
        **PARAM_SETS[p["form"]],
        ncases=_num(p, "ncases"),
        kappa=_num(p, "kappa") or 1.0,
        sig_level=None if solve == "sig.level" else _num(p, "sig.level"),
        power=None if solve == "power" else _num(p, "power"),
        alternative=alt,
    )
    assert getattr(r, quantity) == pytest.approx(value, rel=1e-9)


ROCS = [r for r in _rows("one_roc") + _rows("two_roc") if "partial" not in r[0]]


@pytest.mark.parametrize("params, alt, quantity, value, note, dataset", ROCS)
def test_from_data(params, alt, quantity, value, note, dataset):
    # power.roc.test(r1, ...) and power.roc.test(r1, r2, method=..., ...)
    p = _params(params)
    solve = p["solve"]
    if p["form"] == "one_roc":
        y, s, _, _ = load_pair(dataset, p["roc1"], p["roc1"])
        scores = {p["roc1"]: s}
    else:
        y, s1, _, s2 = load_pair(dataset, p["roc1"], p["roc2"])
        scores = {p["roc1"]: s1, p["roc2"]: s2}
    kappa = p.get("kappa")
    kwargs = {
        "method": p.get("method", "delong"),
        "sig_level": None if solve == "sig.level" else 0.05,
        "power": _num(p, "power") if solve != "power" else None,
        "kappa": None if kappa in (None, "ncontrols/ncases") else float(kappa),
        "alternative": alt,
    }
    if quantity == "sig_level" and value > 1:
        # pROC returns a level above 1 (two nearly equal curves): no answer, refused,
        # the message giving pROC's number
        with pytest.raises(ValueError, match=rf"`power` .* not reached .* {value:.4g}"):
            power_roc_test_curves(y, scores, **kwargs)
        return
    r = power_roc_test_curves(y, scores, **kwargs)
    got = r.auc[0] if quantity == "auc" else getattr(r, quantity)
    assert got == pytest.approx(value, rel=1e-9)


def _obuchowski_rows():
    rows = PROC[
        PROC["params"].str.contains("method=obuchowski") & ~PROC["params"].str.contains("form=")
    ]
    return [
        (r["dataset"], _params(r["params"]), r["quantity"], float(r["value"]))
        for _, r in rows.iterrows()
    ]


@pytest.mark.parametrize("dataset, p, quantity, value", _obuchowski_rows())
def test_obuchowski_variance_of_data(dataset, p, quantity, value):
    # var(r1, method="obuchowski"), cov(r1, r2, method="obuchowski"): per case / ncases;
    # pROC passes the fit's negative slopes, on which the full-area variance and the
    # covariance depend through b**2 and b1 * b2 only: their magnitudes give its values
    y, s1, _, s2 = load_pair(dataset, p["roc1"], p["roc2"])
    y = y.astype(bool)
    c1, c2 = ScoreCurve.from_scores(y, s1), ScoreCurve.from_scores(y, s2)
    (a1, b1), (a2, b2) = binormal_fit(c1), binormal_fit(c2)
    assert b1 < 0 and b2 < 0
    b1, b2 = -b1, -b2
    m, k = y.sum(), (~y).sum() / y.sum()
    got = {
        "var_auc1": obuchowski_variance(a1, b1, k) / m,
        "var_auc2": obuchowski_variance(a2, b2, k) / m,
        "cov_auc12": obuchowski_covariance(
            a1, b1, a2, b2, np.corrcoef(s1[~y], s2[~y])[0, 1], np.corrcoef(s1[y], s2[y])[0, 1], k
        )
        / m,
    }
    assert got[quantity] == pytest.approx(value, rel=1e-9)


def test_rows_found():
    # every deterministic power row but pROC's partial-AUC two-curve rows (a partial AUC
    # of observed data is not offered here; its parametric form is, in PARAMS)
    assert len(ONE_AUC) == 80 and len(PARAMS) == 24 and len(ROCS) == 207


def test_bad_power_input():
    with pytest.raises(ValueError, match="exactly one of"):
        power_roc_test(0.7, power=0.8, ncases=10)
    with pytest.raises(ValueError, match="`auc`"):
        power_roc_test(1.2, power=0.8)
    with pytest.raises(ValueError, match="`alternative`"):
        power_roc_test(0.7, power=0.8, alternative="greater")


# --------------------------------------------------------------- OPS planning
def test_ops_sample_size_matches_the_interval_it_plans():
    from opsstats import ConfusionMatrix
    from opsstats.comparison import ops_sample_size

    r = ops_sample_size(
        "f1", prevalence=0.2, alpha=0.1, beta=0.2, half_width=0.02, rng=0, n_sims=60, n_draws=500
    )
    assert abs(r.value - 0.02) < 0.002 and r.standard_error < 0.001
    # a test set of that size with the expected counts: its own Dirichlet OPS interval
    cm = ConfusionMatrix.from_rates(n=r.n, prevalence=0.2, alpha=0.1, beta=0.2)
    ci = cm.ops("f1", ci="dirichlet", rng=1).ci
    assert (ci.high - ci.low) / 2 == pytest.approx(0.02, rel=0.1)
    assert "simulation" in r.method


def test_ops_power_null_and_alternative():
    from opsstats.comparison import ops_power

    # equal OPS: the same (alpha, beta) and recall-like metric whose OPS does not depend
    # on the prevalence under the uniform reference
    null = ops_power(
        "recall",
        n=500,
        prevalence=0.3,
        alpha=0.1,
        beta=0.2,
        prevalence_b=0.1,
        alpha_b=0.1,
        beta_b=0.2,
        n_sims=400,
        n_draws=400,
        rng=0,
    )
    assert null.details["ops_difference"] == pytest.approx(0.0, abs=1e-12)
    assert null.value < 0.05 + 3 * null.standard_error + 0.02
    alt = ops_power(
        "f1",
        n=2000,
        prevalence=0.3,
        alpha=0.05,
        beta=0.1,
        prevalence_b=0.3,
        alpha_b=0.2,
        beta_b=0.4,
        n_sims=100,
        n_draws=400,
        rng=0,
    )
    assert alt.value > 0.95
