"""compare_groups and evaluate(compare=): every row equals the comparison made by hand
with compare / compare_test_sets on the group's arrays."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from opsstats import ScoreCurve, compare, compare_groups, compare_test_sets, evaluate
from opsstats.reference import DirectedBinaryTree
from opsstats.uncertainty._draws import unit_rng

SMALL_DBT = DirectedBinaryTree(depth=4, n_curves=2000)


def _long(seed=0, n=400):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    rows = pd.DataFrame(
        {"id": np.arange(n), "y": y.astype(int), "site": rng.choice(["north", "south"], n)}
    )
    return pd.concat(
        [
            rows.assign(model="A", s=rng.normal(1.2 * y, 1)),
            rows.assign(model="B", s=rng.normal(0.6 * y, 1)),
            rows.assign(model="C", s=rng.normal(0.9 * y, 1)),
        ],
        ignore_index=True,
    )


def _columns(part, column, ids, threshold=None):
    out = {}
    for model, rows in part.groupby("model", sort=True):
        v = rows.set_index("id").loc[ids, column].to_numpy()
        out[model] = v >= threshold if threshold is not None else v
    return out


def test_paired_rows_equal_compare_on_the_pivoted_arrays():
    data = _long()
    out = compare_groups(
        data,
        truth="y",
        score="s",
        threshold=0.5,
        compare_by="model",
        id="id",
        by="site",
        metrics=["roc_auc", "f1"],
        rng=7,
    )
    assert len(out) == 2 * 2 * 3 and (out["reason"] == "").all()
    root = int(np.random.default_rng(7).integers(0, 2**63 - 1))
    for site, part in data.groupby("site"):
        ids = part[part["model"] == "A"]["id"].to_numpy()
        y = part[part["model"] == "A"].set_index("id").loc[ids, "y"].to_numpy()
        auc = compare(y, _columns(part, "s", ids), metric="roc_auc").to_frame()
        f1 = compare(
            y,
            y_pred=_columns(part, "s", ids, 0.5),
            metric="f1",
            rng=unit_rng(root, (site,), "'f1'", "comparison"),
        ).to_frame()
        for metric, ref in (("roc_auc", auc), ("f1", f1)):
            got = out[(out["site"] == site) & (out["metric"] == metric)].reset_index(drop=True)
            for col in ("a", "b", "difference", "ci_low", "ci_high", "p_value", "p_holm"):
                expected = ref[col].to_numpy()
                if got[col].dtype.kind == "f":
                    np.testing.assert_allclose(got[col].to_numpy(), expected, rtol=1e-12)
                else:
                    assert list(got[col]) == list(expected)
    assert out["paired"].all()


def test_row_order_does_not_matter_with_an_id():
    data = _long(1)
    kw = {"truth": "y", "score": "s", "compare_by": "model", "id": "id", "rng": 0}
    a = compare_groups(data, **kw)
    b = compare_groups(data.sample(frac=1.0, random_state=3), **kw)
    cols = ["a", "b", "difference", "ci_low", "ci_high", "p_value"]
    pd.testing.assert_frame_equal(a[cols], b[cols], check_exact=False, rtol=1e-12)
    assert list(a["a"] + a["b"]) == ["AB", "AC", "BC"]  # sorted levels


def test_unpaired_rows_equal_compare_test_sets():
    data = _long(2)
    out = compare_groups(data, truth="y", score="s", compare_by="site", by="model", rng=0)
    assert not out["paired"].any()
    for model, part in data.groupby("model"):
        sets = {
            str(k): (g["y"].to_numpy(), g["s"].to_numpy())
            for k, g in part.groupby("site", sort=True)
        }
        ref = compare_test_sets(sets).to_frame()
        got = out[out["model"] == model]
        np.testing.assert_allclose(got["difference"], ref["difference"], rtol=1e-12)
        np.testing.assert_allclose(got["p_value"], ref["p_value"], rtol=1e-12)
        np.testing.assert_allclose(got["ci_low"], ref["ci_low"], rtol=1e-12)


def test_comparisons_that_cannot_be_made_are_rows_with_a_reason():
    data = _long(3)
    # a level missing some ids
    broken = data.drop(index=data[(data["model"] == "B")].index[:5])
    out = compare_groups(broken, truth="y", score="s", compare_by="model", id="id")
    assert out["difference"].isna().all()
    assert "needs every id in every level" in out["reason"].iloc[0]
    # the truth differs between levels
    flipped = data.copy()
    flipped.loc[flipped["model"] == "C", "y"] = 1 - flipped.loc[flipped["model"] == "C", "y"]
    out = compare_groups(flipped, truth="y", score="s", compare_by="model", id="id")
    assert "`truth` must agree" in out["reason"].iloc[0]
    # a group with one class
    one = data.assign(grp=np.where(data["y"] == 1, "pos", "mixed"))
    out = compare_groups(one, truth="y", score="s", compare_by="model", id="id", by="grp")
    bad = out[out["grp"] == "pos"]
    assert len(bad) == 1 and bad["reason"].iloc[0] != "" and np.isnan(bad["difference"].iloc[0])
    # a curve quantity without scores, a level alone
    out = compare_groups(
        data, truth="y", pred="y", compare_by="model", id="id", metrics=["roc_auc"]
    )
    assert out["reason"].iloc[0] == "roc_auc needs scores (`score`)"
    out = compare_groups(data[data["model"] == "A"], truth="y", score="s", compare_by="model")
    assert "has 1 level(s)" in out["reason"].iloc[0]


def test_bad_arguments_are_named():
    data = _long(4)
    with pytest.raises(ValueError, match="`compare_by` must name a column"):
        compare_groups(data, truth="y", score="s", compare_by="nope")
    with pytest.raises(ValueError, match="`id` must name a column"):
        compare_groups(data, truth="y", score="s", compare_by="model", id="nope")
    with pytest.raises(TypeError, match="`data` must be a pandas DataFrame"):
        compare_groups(data.to_dict(), truth="y", score="s", compare_by="model")
    with pytest.raises(ValueError, match="`method` must be one of"):
        compare_groups(data, truth="y", score="s", compare_by="model", method="magic")


def test_evaluate_compare_gives_values_and_ops():
    data = _long(5)
    out = evaluate(
        data,
        truth="y",
        score="s",
        threshold=0.5,
        metrics=["f1"],
        compare="model",
        id="id",
        rng=1,
    )
    assert list(out["ops"]) == [False] * 3 + [True] * 3
    ref = compare_groups(
        data,
        truth="y",
        score="s",
        threshold=0.5,
        metrics=["f1"],
        compare_by="model",
        id="id",
        ops=True,
        rng=int(np.random.default_rng(1).integers(0, 2**63 - 1)),
    )
    np.testing.assert_allclose(out[out["ops"]]["difference"], ref["difference"], rtol=1e-12)
    assert out[out["ops"]]["quantity"].iloc[0] == "OPS of F1 score at threshold 0.5"
    with pytest.raises(ValueError, match="give `compare` with it"):
        evaluate(data, truth="y", score="s", id="id")
    with pytest.raises(ValueError, match="`bins` do not apply"):
        evaluate(data, truth="y", score="s", compare="model", bins=10)


def test_evaluate_compare_prints_a_readable_view():
    """The table of comparisons has 30 columns; it prints the few a reader needs (the
    two values, the difference with its interval, p and Holm's p, how each was made)
    within 80 columns; to_frame() keeps every column; plot() draws the differences."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    data = _long(6)
    out = evaluate(data, truth="y", score="s", threshold=0.5, metrics=["f1"], compare="model",
                   id="id", by="site", rng=1)  # fmt: skip
    assert out.shape[1] >= 30 and out.to_frame().shape == out.shape
    text = str(out)
    lines = text.splitlines()
    assert max(map(len, lines)) <= 80, text
    assert lines[0] == "Comparisons of the levels of 'model' within 'site'"
    blocks = "\n".join(lines[2 : lines.index("-" * len(lines[1]))]).split("\n\n")
    headers = " ".join(b.splitlines()[0] for b in blocks).split()
    assert headers == ["value", "A", "value", "B", "A", "-", "B", "CI", "p", "p", "Holm"]
    first = out.iloc[0]
    row = " ".join(b.splitlines()[2] for b in blocks)  # the first row, in every block
    assert row.startswith("north f1     A - B [1]")
    assert f"{first['difference']:.4f}" in row and f"{first['p_holm']:.4f}" in row
    assert f"{first['ci_low']:.4f} to {first['ci_high']:.4f}" in row  # a negative end
    assert "Compared: f1: F1 score at threshold 0.5; OPS f1: OPS of F1 score at" in text
    assert "[1] paired Dirichlet posterior" in text
    ax = out.plot()
    assert len(ax.get_yticks()) == len(out)
    plt.close(ax.figure)


@pytest.mark.parametrize("paired", [True, False])
def test_evaluate_compare_draws_once_for_values_and_ops(monkeypatch, paired):
    """evaluate(compare=) is compare_groups of the values, then of the OPS, row for row
    and number for number, from one set of draws per group and metric: the OPS draws
    are the value draws mapped through the reference. A group with one positive keeps
    each flag's own outcome (the jackknife-t and DeLong refuse the values, the bootstrap
    draws the OPS); the curve reference ranks the OPS and leaves the values alone."""
    from opsstats.comparison import paired as paired_module
    from opsstats.comparison import unpaired as unpaired_module

    data = _long(6, n=300)
    lone = data["id"] < 40
    data.loc[lone, "y"] = (data.loc[lone, "id"] == 0).astype(int)
    data["part"] = np.where(lone, "one positive", "rest")
    kw = {"truth": "y", "score": "s", "threshold": 0.5, "by": "part", "n_resamples": 200}
    kw |= {"curve_reference": SMALL_DBT}
    kw |= {"metrics": ["pr_auc", "roc_auc", "f1", ("precision", {"recall": 0.5})]}
    kw |= {"id": "id"} if paired else {}
    module = paired_module if paired else unpaired_module
    name = "shared_curve_draws" if paired else "unpaired_curve_draws"
    calls = []
    real = getattr(module, name)

    def spy(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, spy)
    out = evaluate(data, compare="model", rng=3, **kw)
    once = len(calls)
    root = int(np.random.default_rng(3).integers(0, 2**63 - 1))
    ref = pd.concat(
        [compare_groups(data, compare_by="model", ops=o, rng=root, **kw) for o in (False, True)],
        ignore_index=True,
    )
    pd.testing.assert_frame_equal(out, ref, check_exact=True)
    failed = out[out["reason"] != ""]
    if paired:  # the values of the areas with one positive: jackknife-t and DeLong refuse
        assert failed["metric"].tolist() == ["pr_auc", "roc_auc"] and not failed["ops"].any()
        assert (failed["part"] == "one positive").all()
        assert "DeLong's test needs at least 2 positives" in failed["reason"].iloc[1]
        assert out[out["ops"] & (out["part"] == "one positive")]["reason"].eq("").all()
    else:
        assert failed.empty
    row = out[out["ops"] & (out["metric"] == "pr_auc") & (out["part"] == "rest")].iloc[0]
    a = data[(data["model"] == "A") & (data["part"] == "rest")]
    own = ScoreCurve.from_scores(a["y"], a["s"]).ops("pr_auc", reference=SMALL_DBT)
    assert row["a"] == "A" and row["estimate_a"] == pytest.approx(own.estimate, abs=1e-12)
    # draws made, paired (of all three models at once): per group one for PR AUC, one
    # for precision at recall, one for the ROC AUC's OPS (its values by DeLong) = 6;
    # in two calls 9 (the values of the PR AUC by the jackknife-t in the group of one
    # positive). Unpaired, of each model's set: 3 per method, the ROC AUC's values
    # drawn (Dirichlet) in the group of one positive: 3 * (3 + 4) = 21; in two calls 33.
    assert once == (6 if paired else 21)
    assert len(calls) - once == (9 if paired else 33)
