"""Part ``curve``'s Markdown sections: the acceptance of the default methods and why
they miss, the bias, coverage and width per quantity, the population target, the test
sets left out, and the checks and cost."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .common import ACCEPT_HIGH, ACCEPT_LOW, QUANTITY_LABEL
from .curve import CURVE_API_CHECKS, CURVE_METHODS, CURVE_QUANTITIES
from .render import (
    _FOR_EACH,
    _cell_order,
    _coverage_by_cell,
    _defined_note,
    _flag,
    _left_out_sections,
    _outside_band,
    _outside_counts,
    _pivot,
    _row_label,
)

CURVE_DEFAULT_COLUMNS = (
    ("roc_auc", "auto"),
    ("pr_auc", "auto"),
    ("ops_roc_auc", "auto"),
    ("ops_pr_auc", "auto"),
)
#: shown beside the defaults in the acceptance table: the explicit methods' own defaults
CURVE_COMPARISON_COLUMNS = (
    ("roc_auc", "delong-logit-t"),
    ("pr_auc", "jackknife-logit-t"),
    ("roc_auc", "delong"),
    ("roc_auc", "bootstrap"),
    ("pr_auc", "bootstrap"),
)
_SHORT = {
    "auto": "default",
    "delong": "DeLong",
    "bootstrap": "Boot",
    "bootstrap-bca": "BCa",
    "bootstrap-unstratified": "Unstr",
    "bootstrap-logit-t": "Boot logit-t",
    "jackknife": "Jack",
    "dirichlet": "Dirichlet",
    "delong-logit-t": "former default",
    "jackknife-logit-t": "former default",
}


def _num(x: float, fmt: str = ".4f") -> str:
    return format(x, fmt) if np.isfinite(x) else "-"


def curve_render(df: pd.DataFrame) -> str:
    df = df[df["part"] == "curve"].copy()
    out = []
    matched = df[df["matched"]]
    n_reps = int(df["reps"].max())
    shifts = df.drop_duplicates("classifier").sort_values("classifier")
    out.append(
        f"- test sets: positives {df['positives'].iloc[0]} (P ~ Binomial(n, pi) or "
        "P = round(n pi)); scores: negatives N(0, 1), positives N(mu, 1)"
    )
    for _, r in shifts.iterrows():
        pr = df[
            (df["classifier"] == r["classifier"])
            & (df["quantity"] == "pr_auc")
            & (df["target"] == "population")
        ].drop_duplicates("prevalence")
        auc = df[(df["classifier"] == r["classifier"]) & (df["quantity"] == "roc_auc")]
        roc = df[(df["classifier"] == r["classifier"]) & (df["quantity"] == "ops_roc_auc")]
        aps = ", ".join(
            f"{x['truth_population']:.4f} at pi = {x['prevalence']:g}"
            for _, x in pr.sort_values("prevalence", ascending=False).iterrows()
        )
        out.append(
            f"- classifier `{r['classifier']}`: shift mu = {r['shift']:g}; population "
            f"ROC AUC Phi(mu / sqrt 2) = {auc['truth_population'].iloc[0]:.4f} "
            f"(OPS {roc['truth_population'].iloc[0]:.4f}); population PR AUC (average "
            f"precision) {aps}"
        )
    out.append("- methods: " + "; ".join(f"`{m.key}` {m.note}" for m in CURVE_METHODS))
    out.append(
        "- reference for OPS: `DirectedBinaryTree()` (depth 9, 100,000 curves, seed "
        "20231; the package default), step rule for PR, trapezoid for ROC\n"
    )

    # --- acceptance: the defaults
    out.append("## Acceptance: the default methods\n")
    out.append(
        "The rule: *every method used as a default must cover within 93%-97% wherever "
        'it is defined*. The default is `method="auto"` (`ScoreCurve.interval`, '
        '`ScoreCurve.ops(ci="auto")`, and the curve intervals of `evaluate`, '
        "`report` and the command line): where the smaller class has fewer than 100 "
        "rows, the Dirichlet posterior of each class's scores (the Bayesian bootstrap "
        "of each class with a Jeffreys pseudo-row tied with the other class's above "
        "the highest score and another below the lowest; 1000 draws here; "
        "equal-tailed for the ROC AUC; for the PR AUC with its lower end moved down "
        "by "
        "the jackknife's estimate of average precision's upward small-sample bias, "
        "leaving out one positive at a time at the test set's prevalence); from "
        "100 rows on, the "
        "logit-t interval: for the ROC AUC DeLong's "
        "variance on the logit scale, bias-corrected, with a Welch-Satterthwaite t "
        "quantile, for the PR AUC the stratified jackknife variance on the logit scale "
        "with t on (k - 1) V^2 / (V1^2 + V0^2) degrees of freedom "
        "(`opsstats.uncertainty.curve`). Each is scored against its matched "
        "target: the population ROC AUC, the population PR AUC at the test set's own "
        "prevalence, and their OPS at that prevalence. Coverage in %, over the test "
        "sets where the quantity and interval are defined (both need 2 rows of each "
        "class); **bold v** below 93, **bold ^** above 97. `E[min class]` is "
        "n min(pi, 1 - pi), the expected size of the smaller class. For comparison, "
        "the last columns give the logit-t intervals at every size (`former default`: "
        "the defaults before the Dirichlet posterior), and the explicit methods with "
        'their own defaults, `ci="delong"` (DeLong\'s normal interval, as pROC) and '
        '`ci="bootstrap"` (stratified percentile). Binomial s.e. of a '
        f"coverage near 95% over {n_reps} test sets: "
        f"{100 * np.sqrt(0.95 * 0.05 / n_reps):.2f} points.\n"
    )
    defaults = matched[matched["is_default"]]
    out.append(
        _coverage_by_cell(
            defaults,
            matched,
            CURVE_DEFAULT_COLUMNS + CURVE_COMPARISON_COLUMNS,
            lambda q, m: f"{QUANTITY_LABEL[q]} {_SHORT[m]}",
            ("E[min class]", lambda c: f"{c['min_expected_count']:g}"),
        )
    )
    out.append(_curve_band_thresholds(defaults) + "\n")
    out.append(_curve_reading(defaults) + "\n")
    out.append(_curve_acceptance_summary(defaults) + "\n")

    # --- bias
    out.append("## How much of the undercoverage is bias\n")
    out.append(
        "Per quantity, against the matched target, over the test sets where it is "
        "defined: `truth`, the mean target value (the population value; for the PR "
        "AUC at the test set's own prevalence, averaged); `bias`, the mean of "
        "estimate - target; `sd`, the standard deviation of estimate - target; "
        "`only bias`, the coverage a normal interval of the right width (+-1.96 sd) "
        "centred on the estimate would have with this bias, "
        "Phi(1.96 - bias/sd) - Phi(-1.96 - bias/sd): the coverage the bias alone "
        "allows. Then, per method, its coverage of the target and (`vs mean`) of the "
        "target moved by the cell's mean bias, i.e. of about the estimator's own "
        "mean: where `vs mean` is near 95% and the coverage is not, the shortfall is "
        "the bias of the estimate, not the width of the interval. The ROC AUC (the "
        "Mann-Whitney statistic) is unbiased.\n"
    )
    for q in CURVE_QUANTITIES:
        sub = _cell_order(matched[matched["quantity"] == q])
        methods = [
            m.key
            for m in CURVE_METHODS
            if m.key in set(sub["method"]) and m.key != "bootstrap-unstratified"
        ]
        out.append(f"### {QUANTITY_LABEL[q]}\n")
        head = (
            "| classifier \\| n \\| pi | truth | bias | sd | bias/sd | only bias | "
            + " | ".join(f"{m} | {m} vs mean" for m in methods)
            + " |"
        )
        lines = [head, "|---|" + "---|" * (5 + 2 * len(methods))]
        for _, cs in sub.groupby("cell", sort=False):
            r = cs.iloc[0]
            by_m = cs.set_index("method")
            entries = []
            for m in methods:
                if m in by_m.index:
                    entries += [
                        _flag(by_m.loc[m, "coverage"]),
                        _num(100 * by_m.loc[m, "coverage_vs_mean"], ".1f"),
                    ]
                else:
                    entries += ["", ""]
            lines.append(
                f"| {_row_label(r)} | {_num(r['truth_mean'])} | "
                f"{_num(r['bias'], '+.4f')} | {_num(r['sd_estimate'])} | "
                f"{_num(r['bias'] / r['sd_estimate'], '+.2f')} | "
                f"{_num(100 * r['coverage_if_only_bias'], '.1f')} | " + " | ".join(entries) + " |"
            )
        out.append("\n".join(lines) + "\n")

    # --- per quantity: coverage and width, all methods, matched target
    for q in CURVE_QUANTITIES:
        sub = matched[matched["quantity"] == q]
        methods = [m.key for m in CURVE_METHODS if m.key in set(sub["method"])]
        target = {
            "roc_auc": "the population ROC AUC (one target)",
            "ops_roc_auc": "the OPS of the population ROC AUC (one target: ROC "
            "quantities do not depend on prevalence)",
            "pr_auc": "the population PR AUC at the test set's own prevalence",
            "ops_pr_auc": "the OPS of the population PR AUC at the test set's own "
            "prevalence, standardized at that prevalence",
        }[q]
        out.append(f"## {QUANTITY_LABEL[q]}\n")
        out.append(f"Coverage (%) of {target}.\n")
        out.append(_pivot(sub, _defined_note, methods) + "\n")
        out.append(f"Mean width of the {QUANTITY_LABEL[q]} intervals (defined test sets).\n")
        out.append(
            _pivot(
                sub,
                lambda r: f"{r['mean_width']:.4g}" if np.isfinite(r["mean_width"]) else "-",
                methods,
            )
            + "\n"
        )
        missed = sub[sub["coverage"] < ACCEPT_LOW]
        if len(missed):
            out.append(
                "Where a method is below 93%, which side (% of defined test sets with "
                "the truth below the interval / above it):\n"
            )
            out.append(
                _pivot(
                    missed,
                    lambda r: f"{100 * r['miss_low']:.1f} / {100 * r['miss_high']:.1f}",
                    [m for m in methods if m in set(missed["method"])],
                )
                + "\n"
            )

    # --- wrong target
    out.append("## The estimand matters: the PR AUC at the population prevalence\n")
    out.append(
        "The same (stratified, prevalence-fixed) intervals scored against the PR AUC "
        "and its OPS at the *population* prevalence pi instead of the test set's own "
        "P / n. The PR AUC moves with the prevalence, so an interval that conditions on "
        "the class totals does not target this value (the ROC AUC does not depend on "
        "the prevalence: its two targets coincide). Coverage (%).\n"
    )
    for q in ("pr_auc", "ops_pr_auc"):
        sub = df[(df["quantity"] == q) & (df["target"] == "population")]
        out.append(f"### {QUANTITY_LABEL[q]} (population target)\n")
        out.append(_pivot(sub, _defined_note, ["bootstrap", "bootstrap-bca"]) + "\n")

    # --- undefined counts, and the warnings the package emitted (one call gives a
    # quantity and its OPS: the warnings are counted on the quantity's rows only)
    out += _left_out_sections(
        df,
        f"Per cell, of {n_reps} test sets: `absent` = a class is absent (P = 0 or N = 0: "
        "no curve); `no interval`: the method gave none (DeLong's variance needs 2 rows of "
        "each class). Coverage above is over the rest. Only cells with something left out "
        "are listed.\n",
        "None (UndefinedMetricWarning is ignored).\n",
        lambda warned: warned[~warned["quantity"].str.startswith("ops_")],
        "classifier",
        "calls affected (all cells)",
        str,
    )

    # --- checks and cost
    cells = _cell_order(df.drop_duplicates("cell"))
    out.append("## Checks and cost\n")
    out.append(
        f"- The quantity's interval is read from `ScoreCurve.ops(..., ci=...)` "
        '(`details["value_ci"]`), which makes the OPS interval from the same '
        "resamples. On the first "
        f"{CURVE_API_CHECKS} test sets of every cell each method was also run through "
        "`ScoreCurve.interval` with the same seed: largest difference of an interval "
        f"end, over all cells: {cells['api_check_max_diff'].max():.3g}."
    )
    out.append(
        "- The population PR AUC is computed by quadrature (`population_ap`); it agrees "
        "with the step-rule PR AUC of very large samples: mu = 1, pi = 0.1: 0.292836 "
        "by quadrature, 0.29277 +- 0.00018 (mean +- s.e. of six samples of 10^7 rows); "
        "mu = 2, pi = 0.02: 0.375238, 0.37569 +- 0.00049."
    )
    diffs = []
    for kind in ("roc_auc", "pr_auc"):
        a = matched[matched["quantity"] == kind].set_index(["cell", "method"])["coverage"]
        b = matched[matched["quantity"] == f"ops_{kind}"].set_index(["cell", "method"])["coverage"]
        diffs.append((b - a).dropna())
    diff = 100 * pd.concat(diffs)
    out.append(
        "- The OPS truth is the OPS of the population value against the *same* "
        "reference (its 100,000 curves), so the reference's Monte Carlo error does not "
        "separate estimate from truth; the OPS intervals still add it (by design), which "
        "can only widen them. Coverage of the OPS minus coverage of the quantity, same "
        f"test sets and resamples, over the {len(diff)} (cell, method) pairs: mean "
        f"{diff.mean():+.2f} points, range {diff.min():+.1f} to {diff.max():+.1f} "
        f"(largest: {diff.idxmax()[0]}, {diff.idxmax()[1]}), i.e. the OPS interval "
        "is the quantity's mapped through OPS plus a little; most where the sampling "
        "half-width is smallest (n = 10000, pi = 0.5)."
    )
    lines = [
        "",
        (
            "Cost per cell (CPU seconds). The reference's cache is shared by the "
            "`DirectedBinaryTree` instances of a worker process, so values an earlier "
            "cell of the same worker computed (the same P / n) are reused: the "
            "precompute time depends on the order of the cells, the results do not."
        ),
        "",
        (
            "| classifier \\| n \\| pi | cell CPU s | of it, reference precompute "
            "CPU s | prevalences needed |"
        ),
        "|---|---|---|---|",
    ]
    for _, c in cells.iterrows():
        lines.append(
            f"| {_row_label(c)} | {c['cell_cpu_seconds']:.0f} | "
            f"{c['reference_cpu_seconds']:.0f} | {int(c['n_prevalences'])} |"
        )
    out.append("\n".join(lines) + "\n")
    return "\n".join(out)


def _curve_band_thresholds(defaults: pd.DataFrame) -> str:
    """Per default (quantity, method) and classifier: the smallest E[min class] from
    which every cell is inside 93%-97%."""
    classifiers = sorted(set(defaults["classifier"]))
    lines = [
        (
            "Where the defaults are inside the band: per quantity, method and classifier, "
            "the smallest `E[min class]` from which *every* cell (of this grid) covers "
            "within 93%-97%, and the cells below it that are inside too."
        ),
        "",
        "| quantity | method | " + " | ".join(classifiers) + " |",
        "|---|---|" + "---|" * len(classifiers),
    ]
    for q, method in CURVE_DEFAULT_COLUMNS:
        entries = []
        for c in classifiers:
            sub = defaults[
                (defaults["quantity"] == q)
                & (defaults["method"] == method)
                & (defaults["classifier"] == c)
                & defaults["coverage"].notna()
            ]
            inside = (sub["coverage"] >= ACCEPT_LOW) & (sub["coverage"] <= ACCEPT_HIGH)
            threshold = None
            for e in sorted(set(sub["min_expected_count"]), reverse=True):
                if inside[sub["min_expected_count"] >= e].all():
                    threshold = e
            if threshold is None:
                entries.append("none")
                continue
            extra = sub[inside & (sub["min_expected_count"] < threshold)]
            text = f">= {threshold:g}"
            if len(extra):
                text += (
                    " (and "
                    + ", ".join(
                        f"n = {int(r['n'])}, pi = {r['prevalence']:g}"
                        for _, r in _cell_order(extra).iterrows()
                    )
                    + ")"
                )
            entries.append(text)
        lines.append(f"| {QUANTITY_LABEL[q]} | {method} | " + " | ".join(entries) + " |")
    return "\n".join(lines)


def _where_dirichlet(rows: pd.DataFrame) -> str:
    """ ", where the default is the Dirichlet posterior" when every row's cell expects
    fewer than 100 rows in the smaller class (the posterior's range in ``auto``)."""
    return (
        ", where the default is the Dirichlet posterior"
        if rows["min_expected_count"].max() < 100
        else ""
    )


def _curve_reading(defaults: pd.DataFrame) -> str:
    """Why the defaults miss, from the rows: the side of the misses and the bias."""
    out = ["Why, from the same rows:", ""]
    outside = defaults[(defaults["coverage"] < ACCEPT_LOW) | (defaults["coverage"] > ACCEPT_HIGH)]
    for q in ("roc_auc", "pr_auc"):
        sub = outside[outside["quantity"] == q]
        below, above = sub[sub["coverage"] < ACCEPT_LOW], sub[sub["coverage"] > ACCEPT_HIGH]
        if len(below):
            low = (below["miss_low"] * below["n_defined"]).sum()
            high = (below["miss_high"] * below["n_defined"]).sum()
            out.append(
                f"- {QUANTITY_LABEL[q]}, below the band ({len(below)} entries, all with "
                f"E[min class] <= {below['min_expected_count'].max():g}"
                f"{_where_dirichlet(below)}): {100 * low / (low + high):.0f}% of their "
                "misses have the truth *below* the interval, i.e. the interval too high. "
                + (
                    "Average precision is biased upwards with few positives at low "
                    "prevalence, and the posterior is centred near the estimate (see the "
                    "bias bullet below)."
                    if q == "pr_auc"
                    else "With few rows in the smaller class the AUC's sampling distribution is "
                    "skewed."
                )
            )
        if len(above):
            out.append(
                f"- {QUANTITY_LABEL[q]}, above the band ({len(above)} entries, all with "
                f"E[min class] <= {above['min_expected_count'].max():g}"
                f"{_where_dirichlet(above)}): the price of an interval that stays honest "
                "with a handful of rows of a class. Its four Jeffreys pseudo-rows (weight "
                "1/2 each, at both ends of the score scale) weigh as much as a row of the "
                "smaller class and widen the interval most when that class has few rows: "
                + "; ".join(
                    f"{_row_label(r)} {100 * r['coverage']:.1f}%"
                    for _, r in _cell_order(above).iterrows()
                )
                + ". The shapes study (`coverage_shapes.md`) shows the risk of a narrower "
                "interval there: the logit-t intervals, narrower at these sizes, fall well "
                "below 93% for other score shapes (to 70% for the ROC AUC and 84% for the "
                "PR AUC)."
            )
    pr = outside[(outside["quantity"] == "pr_auc") & (outside["coverage"] < ACCEPT_LOW)]
    if len(pr):
        explained = pr[
            (pr["coverage_vs_mean"] >= ACCEPT_LOW)
            | (pr["coverage_if_only_bias"] <= pr["coverage"] + 0.01)
        ]
        rest = pr.drop(explained.index)
        out.append(
            f"- PR AUC, bias ({len(pr)} default entries outside): average precision is "
            "biased upwards on small test sets (bias / sd up to "
            f"{(pr['bias'] / pr['sd_estimate']).max():+.2f} in these cells, most at low "
            f"prevalence). In {len(explained)} of them the bias accounts for the shortfall "
            "(the coverage of the estimator's mean is >= 93%, or a correctly sized interval "
            "with this bias would cover no better): "
            + "; ".join(
                f"{_row_label(r)} ({100 * r['coverage']:.1f}% -> "
                f"{100 * r['coverage_vs_mean']:.1f}% vs mean, only-bias "
                f"{100 * r['coverage_if_only_bias']:.1f}%)"
                for _, r in _cell_order(explained).iterrows()
            )
            + (
                ". In the others the intervals are too short as well (few positives, or a "
                "strong classifier near the bound, as above): "
                + "; ".join(
                    f"{_row_label(r)} ({100 * r['coverage']:.1f}%, only-bias "
                    f"{100 * r['coverage_if_only_bias']:.1f}%)"
                    for _, r in _cell_order(rest).iterrows()
                )
                if len(rest)
                else ""
            )
            + "."
        )
    out.append(
        "- The OPS intervals are the quantity's intervals mapped through OPS (same "
        "resamples), so they miss where the quantity's intervals miss (see the checks at the "
        "end for the small widening by the reference's Monte Carlo error)."
    )
    return "\n".join(out)


def _curve_acceptance_summary(defaults: pd.DataFrame) -> str:
    bad, n_total = _outside_band(defaults)
    if bad.empty:
        return f"All {n_total} default entries are within 93%-97%."
    lines = [
        (
            f"{len(bad)} of {n_total} default entries are outside 93%-97%. {_FOR_EACH}`E[min class]`; the share of test sets with the "
            "truth below / above the interval; bias / sd of the estimate (see the bias "
            "section) and the coverage of the target moved by the mean bias (`vs mean`)."
        )
    ]
    for q, method in CURVE_DEFAULT_COLUMNS:
        sub = bad[(bad["quantity"] == q) & (bad["method"] == method)]
        mine = defaults[
            (defaults["quantity"] == q)
            & (defaults["method"] == method)
            & defaults["coverage"].notna()
        ]
        label = f"{QUANTITY_LABEL[q]}, `{method}`"
        if sub.empty:
            lines += ["", f"{label}: all {len(mine)} cells within 93%-97%."]
            continue
        o = _outside_counts(sub, mine)
        text = (
            f"{label}: {len(sub)} of {len(mine)} cells outside ({o.below} below, "
            f"{o.above} above); {o.real} of them beyond sampling noise (p < 0.01)"
        )
        if o.real:
            text += (
                f", all in cells with E[min class] <= {o.worst:g}; of the {o.larger} "
                f"cells with more, {o.larger_out} outside the band"
            )
        lines += ["", text + ".", ""]
        for _, r in _cell_order(sub).iterrows():
            lines.append(
                f"- {_row_label(r)}: {100 * r['coverage']:.1f}% +- "
                f"{100 * r['coverage_se']:.1f}, p = {r['p_band']:.2g}, "
                f"E[min class] = {r['min_expected_count']:g}; below / above "
                f"{100 * r['miss_low']:.1f}% / {100 * r['miss_high']:.1f}%; "
                f"bias/sd {r['bias'] / r['sd_estimate']:+.2f}, vs mean "
                f"{100 * r['coverage_vs_mean']:.1f}%; {r['n_defined']} defined"
            )
    return "\n".join(lines)
