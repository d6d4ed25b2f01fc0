"""The shipped table of the default DBT reference (docs/method.md#dbt-table): made from
these curves (fingerprint), equal to direct passes over the G curves at sampled
prevalences within a quarter of the Monte Carlo standard error at every rank (as the
generator's check measured it; values near a curve held at the ends settled by
computing it), exact where it stores every value, the band's quantiles, how results say
it was used, and the references and prevalences it does not serve."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from opsstats import DirectedBinaryTree, ScoreCurve
from opsstats.curves._geometry import CurveArea, Gini, OperatingPoint, parse_area
from opsstats.metrics import resolve_metric
from opsstats.reference import _dbt_table
from opsstats.reference._dbt_table import (
    BAND_QUANTILES,
    TABLE_PATH,
    DBTTable,
    band_x,
    fingerprint,
    load_table,
)
from opsstats.reference._interpolation import expit
from opsstats.reference._streamed import CHUNK

G = 100_000


@pytest.fixture(scope="module")
def ref():
    return DirectedBinaryTree()


@pytest.fixture(scope="module")
def table():
    t = load_table()
    assert t is not None
    return t


def direct(ref, pairs):
    """Sorted values of the (quantity, prevalence) pairs by one pass over the G curves,
    as the reference computes them without the table."""
    return [np.sort(v) for v in ref._one_pass(pairs)]


def count_z(direct_sorted, table_sorted, mu):
    """|count below mu, table - direct| in units of the Monte Carlo s.e. of the count,
    sqrt(G p (1 - p)), p the direct OPS (0 where both agree exactly)."""
    n_direct = np.searchsorted(direct_sorted, mu)
    n_table = np.searchsorted(table_sorted, mu)
    p = n_direct / direct_sorted.size
    se = np.sqrt(direct_sorted.size * p * (1 - p))
    diff = np.abs(n_table - n_direct)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(diff == 0, 0.0, diff / se)


def probes(sorted_values, n, rng):
    """Values inside gaps of the sorted values, at ranks log-uniform in the distance
    from the nearer end (so that the tails are probed as much as the middle)."""
    g = sorted_values.size
    dist = np.exp(rng.uniform(0, np.log(g / 2), n)).astype(int)
    ranks = np.clip(np.where(rng.random(n) < 0.5, dist - 1, g - 1 - dist), 0, g - 2)
    lo, hi = sorted_values[ranks], sorted_values[ranks + 1]
    mu = lo + rng.random(n) * (hi - lo)
    keep = (mu > lo) & (mu < hi)
    return mu[keep]


def package_counts(ref, q, pi, mu):
    """The count of reference values below mu as the package makes it from the table
    (``ref.ops``: the rebuilt values, the tail curves near mu settled by computing
    them): G times the OPS of a quantity whose higher values are better."""
    assert q.higher_is_better
    return np.rint(ref.ops(q, mu, prevalence=pi).estimate * G).astype(np.int64)


def within_a_quarter(ref, q, pi, direct_sorted, mu):
    """Whether the counts below mu from the table are within a quarter of the Monte
    Carlo s.e. of the direct ones at every mu (the generator's check, measured:
    docs/method.md#dbt-table), and the largest difference in those units."""
    n_direct = np.searchsorted(direct_sorted, mu)
    p = n_direct / G
    z = np.abs(package_counts(ref, q, pi, mu) - n_direct) / np.sqrt(G * p * (1 - p))
    return bool(np.all(z <= 0.25)), float(z.max())


def test_the_table_is_made_from_these_curves(ref, table):
    meta = table.meta
    assert meta["reference"] == {
        "class": "DirectedBinaryTree",
        "depth": 9,
        "n_curves": G,
        "seed": 20231,
        "chunk": CHUNK,
    }
    # the curves and the geometry that reads them are those the table was made from:
    # a change to either (regenerate with scripts/make_dbt_table.py) fails here
    assert fingerprint(ref) == meta["fingerprint"]
    assert ref._table() is table
    assert meta["prevalence_range"] == [0.001, 0.999]
    assert meta["generator"] == "scripts/make_dbt_table.py"
    assert len(meta["code"]["commit"]) == 40 and len(meta["code"]["sources_sha256"]) == 64
    # the generator's own check, recorded in the file (docs/method.md#dbt-table)
    # at every distance from the end, within a quarter of the Monte Carlo s.e.
    assert meta["accuracy"]["areas"]["max"] <= 0.25
    assert meta["accuracy"]["areas"]["share_above_quarter"] == 0
    assert meta["accuracy"]["operating_points"]["max"] <= 0.25
    # the tail curves' margin, ten times their largest error at the check's prevalences
    tails = meta["accuracy"]["tail_curves"]
    for name in ("pr", "lift"):
        assert meta["entries"][name]["tail_margin"] == tails["margin"][name]
        assert tails["margin"][name] == 10 * tails["max_error"][name] < 1e-8
    # the lift and gain bands, at 10 of the check's prevalences, every x and quantile
    for kind in ("gain", "lift"):
        assert meta["accuracy"]["rate_band"]["max"][kind]["z"] <= 0.25
    assert meta["accuracy"]["read_by"]["sources_sha256"]  # checked as the package reads it


def test_areas_and_operating_points_equal_a_direct_pass_within_the_measured_bounds(ref, table):
    rng = np.random.default_rng(20240611)
    # three prevalences between nodes, drawn in logit(prevalence) over the table's range
    pis = [expit(s) for s in rng.uniform(np.log(0.001 / 0.999), np.log(0.999 / 0.001), 3)]
    qs = [
        parse_area("pr_auc"),
        parse_area("lift_auc"),
        OperatingPoint(resolve_metric("precision"), "recall", 0.9),
        OperatingPoint(resolve_metric("f1"), "recall", 0.5),
    ]
    # the table holds all of them but the lift AUC above 0.99 (left to passes)
    covered = [(q, pi) for pi in pis for q in qs if table.covers(q, pi)]
    assert [(q, pi) for pi in pis for q in qs if (q, pi) not in covered] == [
        (q, pi) for pi in pis for q in qs[1:2] if pi > 0.99
    ]
    pairs = covered
    assert len(pairs) >= 10
    for (q, pi), exact in zip(pairs, direct(ref, pairs), strict=True):
        ok, worst = within_a_quarter(ref, q, pi, exact, probes(exact, 4000, rng))
        assert ok, (q.name, pi, worst)
        # and through the public API, at values in the middle of the reference's range
        values = np.quantile(exact, rng.uniform(0.05, 0.95, 50))
        r = ref.ops(q, values, prevalence=pi)
        n = np.searchsorted(exact, values)
        p = n / G
        assert np.all(np.abs(r.estimate - p) <= np.sqrt(p * (1 - p) / G) / 4 + 1e-15)
        assert np.allclose(r.standard_error, np.sqrt(r.estimate * (1 - r.estimate) / G))


def test_a_value_near_a_tail_curve_is_ranked_against_its_computed_area(ref, table):
    """Where the table's value of one of the curves it holds at the ends differs from
    the curve's area, a value between the two is on the wrong side of that curve in the
    table; the package settles it by drawing the curve again (StreamedCurveReference.
    _settle): its count is the direct one."""
    q, pi = parse_area("pr_auc"), 0.0731  # between nodes
    (values,) = ref._one_pass([(q, pi)])
    exact = np.sort(values)
    rebuilt = table.values(q, pi)
    placed, margin = table.placed_curves(q, pi)
    t = placed.size // 2
    assert margin == table.meta["entries"]["pr"]["tail_margin"]
    # the stored values of the curves at the ends are their own interpolated areas
    at_ends = np.r_[rebuilt[:t], rebuilt[G - t :]]
    errors = at_ends - values[placed]
    assert 0 < np.abs(errors).max() <= margin / 10 + 1e-15
    # in each tail, at the curve whose table value is furthest from its area, a value
    # between the two: the table alone counts it on the wrong side, the package does not
    for positions in (np.arange(t), np.arange(t, 2 * t)):
        i = positions[np.argmax(np.abs(errors[positions]))]
        mu = np.array([values[placed[i]] + errors[i] / 2])
        n_direct = np.searchsorted(exact, mu)
        assert abs(np.searchsorted(rebuilt, mu) - n_direct)[0] == 1
        np.testing.assert_array_equal(package_counts(ref, q, pi, mu), n_direct)
    # the curves are drawn one at a time, as in their chunk
    ids = placed[[0, 1, t, 2 * t - 1]]
    np.testing.assert_allclose(ref._curve_values(q, pi, ids), values[ids], rtol=1e-14, atol=0)


def test_only_values_near_the_tail_curves_draw_curves(ref, table, monkeypatch):
    q, pi = parse_area("pr_auc"), 0.2
    rebuilt = table.values(q, pi)
    drawn = []
    real = type(ref)._curve_values

    def counting(self, quantity, prevalence, curves):
        drawn.append(len(curves))
        return real(self, quantity, prevalence, curves)

    monkeypatch.setattr(type(ref), "_curve_values", counting)
    middle = np.quantile(rebuilt, [0.01, 0.5, 0.99])  # ranks beyond the 512 at the ends
    ref.ops(q, middle, prevalence=pi)
    between = (rebuilt[:600:50] + rebuilt[1:601:50]) / 2  # in gaps far wider than the margin
    gaps = rebuilt[1:601:50] - rebuilt[:600:50]
    assert gaps.min() > 4 * table.placed_curves(q, pi)[1]  # each mu beyond the margin
    ref.ops(q, between, prevalence=pi)
    assert drawn == []
    ref.ops(q, rebuilt[[3, G - 4]], prevalence=pi)  # at two tail curves' table values
    assert len(drawn) == 1 and drawn[0] >= 2


def test_exact_at_a_node_up_to_the_stored_digits(ref, table):
    # at a node of both grids (s = -2), the stored ranks are the direct values
    info = table.meta["entries"]["pr"]
    pi = expit(-2.0)
    (exact,) = direct(ref, [(parse_area("pr_auc"), pi)])
    rebuilt = table.values(parse_area("pr_auc"), pi)
    t = info["tail"]
    stored = np.r_[np.arange(t), table._arrays["ranks"], np.arange(G - t, G)]
    quantum = max(2.0 ** -info["bits"], 2.0 ** -info["tail_bits"])
    assert np.abs(rebuilt[stored] - exact[stored]).max() <= quantum / 2 + 1e-15
    assert np.all(np.diff(rebuilt) >= 0)


def test_roc_gini_and_gain_auc_from_every_curves_roc_auc(ref, table):
    # the ROC AUC of every curve is stored: equal to the direct values to 2**-37
    pi = 0.137
    qs = [parse_area("roc_auc"), parse_area("gain_auc"), parse_area("ngain_auc"), Gini()]
    exact = direct(ref, [(q, pi) for q in qs])
    for q, e in zip(qs, exact, strict=True):
        rebuilt = table.values(q, pi)
        # gain AUC = pi / 2 + (1 - pi) ROC AUC on every curve (trapezoid rule), Gini
        # 2 ROC AUC - 1: the ROC AUC's rounding to 2**-36, doubled for the Gini
        scale = 2.0 if isinstance(q, Gini) else 1.0
        assert np.abs(rebuilt - e).max() <= scale * 2.0**-37 + 4e-16, q
        mu = probes(e, 20_000, np.random.default_rng(1))
        assert count_z(e, rebuilt, mu).max() == 0.0, q  # every OPS the same
    # any prevalence, the ends included: ROC quantities do not depend on it
    assert table.covers(parse_area("roc_auc"), 1e-9) and table.covers(Gini(), 0.9999)
    assert not table.covers(CurveArea("roc", "step"), 0.1)


def test_the_band_equals_the_direct_band(ref, table, monkeypatch):
    x = band_x()
    pi = 0.0731
    quantiles = (0.05, 0.5, 0.95)
    tabled = {kind: ref.band(kind, pi, x, quantiles=quantiles) for kind in ("roc", "pr")}
    monkeypatch.setattr(DirectedBinaryTree, "_table", lambda self: None)
    for kind in ("roc", "pr"):  # numpy's quantile of the stored ranks
        without = ref.band(kind, pi, x, quantiles=quantiles)
        np.testing.assert_allclose(tabled[kind], without, rtol=1e-12, atol=1e-15)


def test_the_lift_and_gain_bands_equal_the_direct_quantiles_within_a_quarter_se(ref, table):
    """The lift and gain bands, read from the band ranks' FPR at the stored recalls,
    against numpy's quantile of the direct values (one pass over the G curves) at
    prevalences drawn in logit(prevalence) (and outside the areas' range), at every x of a
    plot and every quantile the table holds: the direct values between the two are at
    most a quarter of the Monte Carlo s.e. of the quantile's count, sqrt(G p (1 - p))."""
    rng = np.random.default_rng(7)
    pis = [expit(s) for s in rng.uniform(np.log(0.001 / 0.999), np.log(0.999 / 0.001), 2)]
    pis += [0.0002, 0.9995]  # outside the range of the areas: the band holds at any
    x = band_x()
    p = np.asarray(BAND_QUANTILES)
    se = np.sqrt(G * p * (1 - p))
    metrics = {"gain": resolve_metric("recall"), "lift": resolve_metric("lift")}
    for pi in pis:
        pairs = [(OperatingPoint(m, "rate", float(u)), pi) for m in metrics.values() for u in x]
        values = direct(ref, pairs)
        for i, kind in enumerate(metrics):
            tabled = table.band(kind, pi, x, BAND_QUANTILES)
            assert tabled is not None
            for j, v in enumerate(values[i * x.size : (i + 1) * x.size]):
                exact = np.quantile(v, BAND_QUANTILES)
                between = np.abs(np.searchsorted(v, tabled[:, j]) - np.searchsorted(v, exact))
                assert np.all(between <= se / 4), (kind, pi, x[j], between.max())
                # and close in value: the quantiles' own scale
                np.testing.assert_allclose(tabled[:, j], exact, rtol=0.01)
    # through the public API, the band of a plot (the default quantiles)
    band = ref.band("gain", pis[0], x, quantiles=(0.05, 0.5, 0.95))
    np.testing.assert_array_equal(band, table.band("gain", pis[0], x, (0.05, 0.5, 0.95)))


def test_the_band_outside_what_the_table_holds_is_computed(table):
    x = band_x()
    assert table.band("pr", 0.1, x, (0.05, 0.5, 0.95)) is not None
    assert table.band("pr", 0.1, x, (0.07, 0.5)) is None  # a quantile it does not hold
    assert table.band("pr", 0.1, x[:-1] + 1e-6, (0.05,)) is None  # other x values
    assert table.band("gain", 0.1, x, (0.07,)) is None
    assert table.band("lift", 0.1, x[:-1] + 1e-6, (0.05,)) is None
    assert table.band("roc", 0.0005, x, (0.05,)) is not None  # ROC and PR: any prevalence
    assert table.band("pr", 0.99995, x, (0.05,)) is not None
    assert table.band("gain", 0.0005, x, (0.05,)) is not None  # lift and gain: any too
    assert table.band("lift", 0.99995, x, (0.05,)) is not None
    assert set(BAND_QUANTILES) >= {0.025, 0.05, 0.5, 0.95, 0.975}


def test_results_say_how_they_were_made(ref):
    r = ref.ops("pr_auc", 0.4, prevalence=0.1)
    assert r.method == (
        "Monte Carlo, 100000 DBT curves, read from the shipped table, interpolated at "
        "prevalence 0.1"
    )
    assert (
        "shipped table of every curve's ROC AUC" in ref.ops("roc_auc", 0.8, prevalence=0.3).method
    )
    assert "in logit(prevalence)" in ref.ops("lift_auc", [1.5, 2], prevalence=[0.1, 0.2]).method
    # another rule, another recall, another axis: a pass over the curves, as before
    plain = "Monte Carlo, 100000 DBT curves"
    assert ref._method_for(parse_area("pr_auc", "trapezoid"), 0.1) == plain
    for axis, u in (("recall", 0.85), ("fpr", 0.1), ("rate", 0.1)):
        point = OperatingPoint(resolve_metric("precision"), axis, u)
        assert ref._method_for(point, 0.1) == plain
    # a metric that is constant at a recall (recall itself) is not read from the FPR
    constant = OperatingPoint(resolve_metric("recall"), "recall", 0.9)
    assert not ref._table().covers(constant, 0.1)
    at_09 = ref.ops("precision", 0.3, prevalence=0.1, at={"recall": 0.9}).method
    assert at_09.endswith("read from the shipped table of every curve's FPR at recall 0.9")
    outside = ref._method_for(parse_area("pr_auc"), 0.0005)
    assert outside.endswith(
        "a pass over the curves (prevalence outside the shipped table's 0.001-0.999)"
    )
    mixed = ref._method_for(parse_area("pr_auc"), np.array([0.0005, 0.1]))
    assert mixed.endswith("; outside 0.001-0.999 by a pass over the curves")
    # the lift AUC is read up to 0.99 (its stored quantum is too coarse above)
    assert "interpolated at prevalence 0.99" in ref._method_for(parse_area("lift_auc"), 0.99)
    assert ref._method_for(parse_area("lift_auc"), 0.995).endswith(
        "a pass over the curves (prevalence outside the shipped table's 0.001-0.99)"
    )
    assert ref._method_for(parse_area("pr_auc"), 0.995).endswith("at prevalence 0.995")


def test_a_curve_ops_and_its_interval_read_the_table(ref):
    rng = np.random.default_rng(3)
    y = rng.random(2000) < 0.08
    curve = ScoreCurve.from_scores(y, rng.normal(y * 1.3, 1))
    r = curve.ops("pr_auc", ci="auto", rng=0)
    assert "shipped table" in r.method
    assert r.ci.low < r.estimate < r.ci.high
    assert r.details["reference_standard_error_at_ends"][0] > 0


def test_other_references_keep_their_passes(table):
    assert DirectedBinaryTree(n_curves=1000)._table() is None
    assert DirectedBinaryTree(depth=8)._table() is None
    assert DirectedBinaryTree(seed=1)._table() is None
    assert DirectedBinaryTree(prevalence_step=0.125)._table() is None
    small = DirectedBinaryTree(n_curves=1000)
    assert small.ops("pr_auc", 0.3, prevalence=0.1).method == "Monte Carlo, 1000 DBT curves"


def test_a_table_that_cannot_be_read_or_is_stale_is_not_used(tmp_path, ref):
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a zip file")
    with pytest.warns(UserWarning, match="could not be read"):
        assert load_table(bad) is None
    with pytest.warns(UserWarning, match="could not be read"):
        assert load_table(tmp_path / "missing.npz") is None
    meta = json.loads(json.dumps(load_table().meta))
    meta["fingerprint"] = "0" * 16
    stale = DBTTable(dict(load_table()._arrays), meta)
    with pytest.warns(UserWarning, match="Regenerate it with scripts/make_dbt_table.py"):
        assert not stale.matches(ref, CHUNK)
    other = DirectedBinaryTree(n_curves=1000)
    assert not load_table().matches(other, CHUNK)  # other parameters: no warning needed


def test_the_table_is_read_on_first_use_not_at_import():
    code = (
        "import opsstats, numpy as np\n"
        "from opsstats.reference import _dbt_table\n"
        "assert _dbt_table.load_table.cache_info().currsize == 0\n"
        "y = np.arange(200) % 5 == 0\n"
        "r = opsstats.ScoreCurve.from_scores(y, np.arange(200) % 7).ops('pr_auc')\n"
        "assert _dbt_table.load_table.cache_info().currsize == 1\n"
        "print(r.method)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "shipped table" in out.stdout


def test_size_in_the_package():
    # the file shipped as package data (pyproject: tool.setuptools.package-data): 8.62 MB
    # (the middle ranks at nodes 1/32 and the FPR at a recall to 2**-55: 7.10 MB before)
    assert TABLE_PATH.exists() and TABLE_PATH.stat().st_size < 9_000_000
    assert _dbt_table.TABLE_PATH.parent.name == "data"


@pytest.mark.slow
def test_sweep_of_prevalences_and_ranks(ref, table):
    """20 prevalences over the table's range, 20,000 values each, both areas: the
    counts from the table within a quarter of the Monte Carlo s.e. of the direct ones
    (a minute or two: two passes over the curves)."""
    rng = np.random.default_rng(7)
    pis = [expit(s) for s in rng.uniform(np.log(0.001 / 0.999), np.log(0.999 / 0.001), 20)]
    qs = [parse_area("pr_auc"), parse_area("lift_auc")]
    pairs = [(q, pi) for pi in pis for q in qs if table.covers(q, pi)]
    for (q, pi), exact in zip(pairs, direct(ref, pairs), strict=True):
        ok, worst = within_a_quarter(ref, q, pi, exact, probes(exact, 20_000, rng))
        assert ok, (q.name, pi, worst)
