"""Part ``cm``'s Markdown sections: the acceptance of the default methods (with the
cells' coverage floors), the calibration across cells, coverage and width per quantity,
the population target, and the test sets left out."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .cm import CLASSIFIERS, CM_METHODS, CM_QUANTITIES, _coverage_floor
from .common import ACCEPT_LOW, CONFIDENCE_LEVEL, QUANTITY_LABEL
from .render import (
    _FOR_EACH,
    _cell_order,
    _coverage_by_cell,
    _defined_note,
    _left_out_sections,
    _outside_band,
    _outside_counts,
    _pivot,
    _row_label,
)


def cm_render(df: pd.DataFrame) -> str:
    df = df[df["part"] == "cm"].copy()
    out = []
    matched = df[df["matched"]]
    methods_all = [m.key for m in CM_METHODS]
    n_reps = int(df["reps"].max())
    out.append(
        f"- test sets: positives {df['positives'].iloc[0]} (P ~ Binomial(n, pi) or "
        "P = round(n pi)), TP ~ Binomial(P, 1 - beta), FP ~ Binomial(N, alpha)"
    )
    out.append(
        "- classifiers: "
        + "; ".join(
            f"{k}: alpha = {CLASSIFIERS[k][0]}, beta = {CLASSIFIERS[k][1]}"
            for k in sorted(set(df["classifier"]))
        )
    )
    out.append("- methods: " + "; ".join(f"`{m.key}` {m.note}" for m in CM_METHODS) + "\n")

    # --- acceptance: the defaults
    out.append("## Acceptance: the default methods\n")
    out.append(
        "The rule: *every method used as a default must cover within 93%-97% wherever "
        "it is defined*. The default is `dirichlet` (equal-tailed, Jeffreys prior, "
        "prevalence fixed): `ConfusionMatrix.interval`, `evaluate`, `report` and "
        "the command line use it unless told otherwise. Beside it, `bootstrap` "
        "with its own default options (stratified percentile), which opsstats "
        'never uses unasked (`method="bootstrap"` or `ci="bootstrap"`) and '
        "which warns (`SmallCountWarning`) when a count is below 5. Each against its "
        "matched (conditional) target. Coverage in %, over the test sets where the "
        "quantity and interval are defined; **bold v** below 93, **bold ^** above 97. "
        f"Binomial s.e. of a coverage near 95% over {n_reps} test sets: "
        f"{100 * np.sqrt(0.95 * 0.05 / n_reps):.2f} points.\n"
    )
    defaults = matched[matched["is_default"]]
    cols = [(q, m) for q in CM_QUANTITIES for m in ("dirichlet", "bootstrap")]
    out.append(
        _coverage_by_cell(
            defaults,
            defaults,
            cols,
            lambda q, m: f"{QUANTITY_LABEL[q]} {'Dir' if m == 'dirichlet' else 'Boot'}",
        )
    )
    out.append(_acceptance_summary(defaults) + "\n")
    out.append(_calibration_summary(matched) + "\n")

    # --- per quantity: coverage and width, all methods, matched target
    for q in CM_QUANTITIES:
        sub = matched[matched["quantity"] == q]
        methods = [m for m in methods_all if m in set(sub["method"])]
        if q in ("alpha", "beta"):  # the Dirichlet interval's exact coverage, beside it
            ex = sub[sub["method"] == "dirichlet"].copy()
            ex["method"], ex["coverage"] = "dirichlet (exact)", ex["exact_coverage"]
            ex["mean_width"] = np.nan
            sub = pd.concat([sub, ex])
            methods.insert(1, "dirichlet (exact)")
        out.append(f"## {QUANTITY_LABEL[q]}\n")
        target = (
            "alpha and beta are the classifier's: one target"
            if q in ("alpha", "beta")
            else "each method against its matched target: conditional "
            "M(pi_hat, alpha, beta) for prevalence-fixed methods, population "
            "M(pi, alpha, beta) for `dirichlet-random` and `bootstrap-unstratified`"
        )
        out.append(
            f"Coverage (%), {target}."
            + (
                " `dirichlet (exact)`: the coverage of the interval `dirichlet` "
                "estimates by Monte Carlo (Beta(x + 1/2, t - x + 1/2) quantiles), "
                "computed exactly by summing over the class totals and counts, "
                "without simulation: the simulated `dirichlet` column should agree "
                "with it within its standard error."
                if q in ("alpha", "beta")
                else ""
            )
            + "\n"
        )
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
        both = sub[sub["method"].isin(["dirichlet", "bootstrap"])]
        lopsided = both[(both["coverage"] < ACCEPT_LOW)]
        if len(lopsided):
            out.append(
                "Where the defaults miss, which side (% of defined test sets with "
                "the truth below the interval / above it):\n"
            )
            out.append(
                _pivot(
                    lopsided,
                    lambda r: f"{100 * r['miss_low']:.1f} / {100 * r['miss_high']:.1f}",
                    [m for m in ("dirichlet", "bootstrap") if m in set(lopsided["method"])],
                )
                + "\n"
            )

    # --- wrong target: fixed-prevalence methods against the population value
    out.append("## The estimand matters: coverage of the population value M(pi, alpha, beta)\n")
    out.append(
        "The same intervals scored against the metric at the *population* prevalence "
        "instead of the test set's own. Prevalence-fixed methods (`dirichlet`, "
        "`bootstrap`) do not target this value; `dirichlet-random` and "
        "`bootstrap-unstratified` do. Coverage (%).\n"
    )
    cols_m = ["dirichlet", "bootstrap", "dirichlet-random", "bootstrap-unstratified"]
    for q in ("f1", "mcc", "ops_f1", "ops_mcc"):
        sub = df[(df["quantity"] == q) & (df["target"] == "population")]
        out.append(f"### {QUANTITY_LABEL[q]} (population target)\n")
        out.append(_pivot(sub, _defined_note, cols_m) + "\n")

    # --- undefined counts, and the warnings the package emitted
    out += _left_out_sections(
        df,
        f"Per cell, of {n_reps} test sets: `absent` = a class the quantity needs is "
        "absent (P = 0 or N = 0; the quantity is not estimable and its conditional value is "
        "undefined or trivial); `no interval`: the method gave none. Coverage above is over "
        "the rest. Only cells and methods with something left out are listed.\n",
        "None (UndefinedMetricWarning for 0/0 point estimates is expected and was not recorded).\n",
        lambda warned: warned,
        "quantity",
        "intervals affected (all cells)",
        lambda q: QUANTITY_LABEL[q],
    )
    return "\n".join(out)


def _calibration_summary(matched: pd.DataFrame) -> str:
    """Per method, over the entries whose smallest expected count exceeds a threshold:
    mean coverage, range, and the spread of z = (coverage - 0.95) / s.e.(0.95), which is
    about 1 when the coverage is 95% and the entries differ only by sampling noise."""
    lines = [
        "### Calibration across cells",
        "",
        (
            "Per method (matched target), over the entries (cell x quantity) whose "
            "smallest expected count `min E` is above 5 (and 20): their number, mean "
            "coverage, lowest and highest, and the standard deviation of "
            "z = (coverage - 95%) / s.e. (about 1 if every entry covers 95% and differs "
            "from it only by simulation noise; larger if coverage varies between cells)."
        ),
        "",
        "| method | min E > | entries | mean coverage % | lowest | highest | sd(z) |",
        "|---|---|---|---|---|---|---|",
    ]
    nominal = CONFIDENCE_LEVEL
    for method in [m.key for m in CM_METHODS]:
        for threshold in (5, 20):
            sub = matched[
                (matched["method"] == method)
                & (matched["min_expected_count"] > threshold)
                & matched["coverage"].notna()
            ]
            if sub.empty:
                continue
            z = (sub["coverage"] - nominal) / np.sqrt(nominal * (1 - nominal) / sub["n_defined"])
            lines.append(
                f"| {method} | {threshold} | {len(sub)} | "
                f"{100 * sub['coverage'].mean():.2f} | {100 * sub['coverage'].min():.1f} "
                f"| {100 * sub['coverage'].max():.1f} | {z.std():.2f} |"
            )
    ex = matched[(matched["method"] == "dirichlet") & matched["exact_coverage"].notna()]
    if len(ex):
        z = (ex["coverage"] - ex["exact_coverage"]) / np.sqrt(
            ex["exact_coverage"] * (1 - ex["exact_coverage"]) / ex["n_defined"]
        )
        lines += [
            "",
            f"Simulated against exact coverage of the `dirichlet` interval for alpha "
            f"and beta ({len(ex)} entries, every cell): mean difference "
            f"{100 * (ex['coverage'] - ex['exact_coverage']).mean():+.2f} points, "
            f"sd(z) {z.std():.2f}, largest |z| {z.abs().max():.2f}"
            + (
                ": consistent with simulation noise alone (the Monte Carlo interval "
                "has the coverage of the exact Beta-quantile interval)."
                if abs(z.mean()) < 3 / np.sqrt(len(ex)) and z.std() < 1.5
                else ": NOT consistent with simulation noise alone; check."
            ),
        ]
    return "\n".join(lines)


def _row_floor(r: pd.Series) -> float:
    """``_coverage_floor`` of an alpha or beta row's cell."""
    return _coverage_floor(
        int(r["n"]), float(r["prevalence"]), float(r[r["quantity"]]), r["quantity"], r["positives"]
    )


def _acceptance_summary(defaults: pd.DataFrame) -> str:
    bad, n_total = _outside_band(defaults)
    if bad.empty:
        return f"All {n_total} default entries are within 93%-97%."
    lines = [
        (
            f"{len(bad)} of {n_total} default entries are outside 93%-97%. {_FOR_EACH}`min E`, the smallest expected count the quantity "
            "depends on (alpha: E[FP], E[TN]; beta: E[TP], E[FN]; the metrics: all "
            "four); the share of test sets with the truth below / above the interval; "
            "for alpha and beta, the exact coverage of the Dirichlet interval (no "
            "simulation) and the cell's `floor`: the lowest coverage any interval, of "
            "any construction, can have in the cell if it covers at least 93% given "
            "each possible class total (exact, by enumerating the binomial outcomes; "
            "`_coverage_floor`). Where the floor is above 97%, the band cannot be "
            "reached there without undercovering the test sets of some class total."
        )
    ]
    for method in ("dirichlet", "bootstrap"):
        sub = bad[bad["method"] == method]
        mine = defaults[(defaults["method"] == method) & defaults["coverage"].notna()]
        if sub.empty:
            lines += ["", f"`{method}`: all {len(mine)} entries within 93%-97%."]
            continue
        o = _outside_counts(sub, mine)
        text = (
            f"`{method}`: {len(sub)} of {len(mine)} outside ({o.below} below, "
            f"{o.above} above); {o.real} of them beyond sampling noise (p < 0.01)"
        )
        if o.real:
            text += (
                f", all in cells with `min E` <= {o.worst:.3g}; of the {o.larger} "
                f"entries with `min E` > {o.worst:.3g}, {o.larger_out} are outside "
                "the band"
            )
        lines += ["", text + ".", ""]
        for _, r in _cell_order(sub).iterrows():
            ex = (
                f"; exact {100 * r['exact_coverage']:.1f}%"
                if np.isfinite(r.get("exact_coverage", np.nan))
                else ""
            )
            if r["quantity"] in ("alpha", "beta"):
                ex += f"{', ' if ex else '; '}floor {100 * _row_floor(r):.1f}%"
            lines.append(
                f"- {QUANTITY_LABEL[r['quantity']]}, {_row_label(r)}: "
                f"{100 * r['coverage']:.1f}% +- {100 * r['coverage_se']:.1f}, "
                f"p = {r['p_band']:.2g}, min E = {r['min_expected_count']:.3g}; "
                f"below / above {100 * r['miss_low']:.1f}% / "
                f"{100 * r['miss_high']:.1f}%{ex}; {r['n_defined']} defined"
            )
    return "\n".join(lines)
