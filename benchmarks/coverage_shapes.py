"""Coverage of the default curve intervals under score distributions of other shapes.

The curve part of ``benchmarks/coverage.py`` simulates one family of classifiers:
binormal scores with equal variances. A statistician will ask whether the coverage it
reports is a property of the intervals or of that family. This script answers it for
the default intervals (``ScoreCurve.interval(name)``, ``method="auto"``), the Dirichlet
posterior and the logit-t intervals at every size, and the plain normal intervals (see
``METHOD_NOTE``), in two designs: the main study's grid (n in {50, 200, 1000, 10000} x
prevalence pi in {0.5, 0.1, 0.02}, P ~ Binomial(n, pi)) and few positives among many
negatives (P in {5, 10, 20, 50, 100} exactly, 2000 negatives), for five shapes of
score distribution at each of two population ROC AUCs (0.7602 and 0.9214, those of the
main study):

* ``binormal``: negatives N(0, 1), positives N(mu, 1), mu = sqrt(2) Phi^-1(AUC): the
  main study's family (its rows here are a replication with other seeds);
* ``unequal``: negatives N(0, 1), positives N(a, 2**2), a = sqrt(5) Phi^-1(AUC): the
  positives spread twice as wide, so the ROC curve is not symmetric (it dips
  below the chance line near the upper right corner), the usual finding in diagnostic
  radiology;
* ``subgroup``: negatives N(0, 1); a share q of the positives scores like the negatives,
  N(0, 1), the others N(4, 1): a classifier that finds most cases with confidence and
  misses a subgroup entirely, q = (Phi(4 / sqrt 2) - AUC) / (Phi(4 / sqrt 2) - 1/2)
  (0.4771 and 0.1533). A positive's placement (the share of negatives it outscores) is
  then nearly 0/1-valued: the least favourable shape for an interval built from a
  handful of them;
* ``narrow``: negatives N(0, 1), positives N(a, 0.5**2), a = sqrt(1.25) Phi^-1(AUC):
  the positives spread half as wide, so at the very top of the ranking the negatives
  outnumber them again and the precision falls towards 0 as the recall goes to 0;
* ``t3``: both classes Student t with 3 degrees of freedom, the positives shifted by d
  (solved for the AUC): heavy tails in both classes.

The shapes ``narrow`` and ``t3`` were added after a check of the PR AUC default on
shapes it had not been chosen on (the average precision of 5-50 positives is biased
upwards by an amount that depends on the upper tails); the Dirichlet posterior with
the equal-tailed interval, the PR AUC default before, fell to 60% (``narrow``) and 71%
(``t3``) there. ``benchmarks/choose_pr_interval.py`` compares the variants considered.

The estimands are as in the main study: the population ROC AUC, P(X > Y), the same for
every test set; and the population PR AUC (average precision, step rule) at the test
set's own prevalence P / n, AP(p) = integral of f_X(t) p S_X(t) / (p S_X(t) + (1 - p)
S_Y(t)) dt, by adaptive quadrature (S the survival functions, f_X the positives'
density). An interval is counted where it is defined
(at least 2 rows of each class).

Run (the committed output)::

    python benchmarks/coverage_shapes.py --reps 1000 --seed 20261122 --jobs 2 \
        --out benchmarks/results/coverage_shapes.csv \
        --md benchmarks/results/coverage_shapes.md

and the Markdown again from the CSV::

    python benchmarks/coverage_shapes.py --render benchmarks/results/coverage_shapes.csv \
        --md benchmarks/results/coverage_shapes.md
"""

from __future__ import annotations

import argparse
import datetime
import multiprocessing
import platform
import sys
import time
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import integrate, optimize, special, stats

import opsstats
from opsstats import ScoreCurve

NS = (50, 200, 1000, 10000)
PREVALENCES = (0.5, 0.1, 0.02)
AUCS = (0.7602499389065233, 0.9213503964748574)  # Phi(1 / sqrt 2), Phi(2 / sqrt 2)
SUBGROUP_SHIFT = 4.0
BAND = (93.0, 97.0)
#: (quantity, key, ScoreCurve.interval keywords) of every interval on each test set
METHODS = (
    ("roc_auc", "auto", {}),
    ("roc_auc", "dirichlet", {"method": "dirichlet"}),
    ("roc_auc", "logit-t", {"method": "delong", "interval": "logit-t"}),
    ("roc_auc", "normal", {"method": "delong"}),
    ("pr_auc", "auto", {}),
    ("pr_auc", "dirichlet", {"method": "dirichlet"}),
    ("pr_auc", "logit-t", {"method": "jackknife", "interval": "logit-t"}),
    ("pr_auc", "normal", {"method": "jackknife", "interval": "normal"}),
)
METHOD_NOTE = {
    "auto": 'the default, `method="auto"`: below 100 rows of the smaller class the '
    "Dirichlet posterior, equal-tailed for the ROC AUC and bias-extended for the "
    "PR AUC (its lower end moved down by the jackknife's estimate of the upward "
    "bias, one positive left out at a time); the "
    "logit-t interval from 100 rows on",
    "dirichlet": '`method="dirichlet"` at every size: the Dirichlet posterior of each '
    "class's scores (Bayesian bootstrap with Jeffreys pseudo-rows at both "
    "ends), 1000 draws, equal-tailed (for the PR AUC: the default below 100 "
    "rows before the bias extension)",
    "logit-t": "the logit-t interval at every size (ROC AUC: DeLong's variance, "
    "Welch-Satterthwaite t, bias-corrected; PR AUC: the stratified jackknife's "
    "variance): the default of both before the Dirichlet posterior",
    "normal": "the normal interval of the same variance, clipped to [0, 1] (ROC AUC: "
    '`method="delong"`, as pROC; PR AUC: `method="jackknife", '
    'interval="normal"`)',
}
QUANTITY_LABEL = {"roc_auc": "ROC AUC", "pr_auc": "PR AUC"}
#: the second design: P positives exactly, FIXED_NEGATIVES negatives (few positives
#: among many negatives, where the smaller class alone sets the precision)
FIXED_POSITIVES = (5, 10, 20, 50, 100)
FIXED_NEGATIVES = 2000
N_DRAWS = 1000
#: the explicit Dirichlet column is not run where the smaller class has this many rows
#: (the default uses the logit-t interval there; the draws would cost most of the run)
SKIP_DRAWS = 1000


#: the standardized score distributions (frozen once: building one costs more than
#: evaluating it, and the quadrature of ``Shape.ap`` evaluates them thousands of times)
_BASES = {"normal": stats.norm(), "t3": stats.t(3)}


@dataclass(frozen=True)
class Shape:
    """Scores: negatives B; positives a mixture, share ``q`` B and the rest
    loc + scale B, with B standard normal (``tails="normal"``) or Student t with 3
    degrees of freedom (``tails="t3"``)."""

    name: str
    loc: float
    scale: float = 1.0
    q: float = 0.0
    tails: str = "normal"

    @property
    def base(self) -> Any:
        return _BASES[self.tails]

    def auc(self) -> float:
        """P(X > Y) for a positive X and a negative Y."""
        if self.tails == "normal":
            found = float(special.ndtr(self.loc / np.sqrt(1 + self.scale**2)))
        else:
            b = self.base
            found, _ = integrate.quad(
                lambda t: b.pdf(t) * b.cdf(self.loc + self.scale * t),
                -np.inf,
                np.inf,
                epsabs=1e-13,
                epsrel=1e-11,
            )
        return self.q / 2 + (1 - self.q) * found

    def positives_sf(self, t: float) -> float:
        b = self.base
        return self.q * b.sf(t) + (1 - self.q) * b.sf((t - self.loc) / self.scale)

    def positives_pdf(self, t: float) -> float:
        b = self.base
        return self.q * b.pdf(t) + (1 - self.q) * b.pdf((t - self.loc) / self.scale) / self.scale

    def ap(self, p: float) -> float:
        """Population average precision at prevalence p (see the module docstring)."""
        negatives_sf = self.base.sf

        def integrand(t: float) -> float:
            tpr = self.positives_sf(t)
            if tpr <= 0:
                return 0.0
            return self.positives_pdf(t) / (1.0 + (1 - p) / p * negatives_sf(t) / tpr)

        # beyond these ends the positives' mass is below 1e-30 (normal) or 1e-9 (t3)
        reach = 12.0 if self.tails == "normal" else 2000.0
        hi = self.loc + reach * self.scale
        points = sorted({0.0, self.loc})
        value, _ = integrate.quad(
            integrand, -reach, hi, points=points, epsabs=1e-13, epsrel=1e-11, limit=1000
        )
        return float(value)

    def simulate(
        self, n: int, positives: int, rng: np.random.Generator
    ) -> tuple[np.ndarray, np.ndarray]:
        y = np.zeros(n, dtype=np.int8)
        y[:positives] = 1
        s = rng.standard_normal(n) if self.tails == "normal" else rng.standard_t(3, n)
        found = rng.random(positives) >= self.q
        s[:positives][found] = self.loc + self.scale * s[:positives][found]
        return y, s


def shapes_for(auc: float) -> tuple[Shape, ...]:
    z = float(special.ndtri(auc))
    top = float(special.ndtr(SUBGROUP_SHIFT / np.sqrt(2)))
    t3 = optimize.brentq(lambda d: Shape("t3", d, tails="t3").auc() - auc, 0.0, 20.0, xtol=1e-13)
    return (
        Shape("binormal", np.sqrt(2) * z),
        Shape("unequal", np.sqrt(5) * z, 2.0),
        Shape("subgroup", SUBGROUP_SHIFT, 1.0, (top - auc) / (top - 0.5)),
        Shape("narrow", np.sqrt(1.25) * z, 0.5),
        Shape("t3", t3, tails="t3"),
    )


def make_cells() -> list[dict[str, Any]]:
    """The grid (P ~ Binomial(n, pi)) and the fixed design (P rows exactly, 2000
    negatives), for every shape at both AUCs."""
    cells = []
    for ai, auc in enumerate(AUCS):
        for si, shape in enumerate(shapes_for(auc)):
            for n in NS:
                for pi in PREVALENCES:
                    cells.append(
                        {
                            "shape": shape,
                            "auc_level": ai,
                            "n": n,
                            "prevalence": pi,
                            "design": "grid",
                            "spawn_key": (ai, si, n, round(pi * 1e4)),
                        }
                    )
            for p in FIXED_POSITIVES:
                n = p + FIXED_NEGATIVES
                cells.append(
                    {
                        "shape": shape,
                        "auc_level": ai,
                        "n": n,
                        "prevalence": p / n,
                        "design": "fixed",
                        "positives": p,
                        "spawn_key": (ai, si, 1, p),
                    }
                )
    return sorted(cells, key=lambda c: -c["n"] * min(c["prevalence"], 0.5))


def run_cell(spec: dict[str, Any], reps: int, seed: int) -> list[dict[str, Any]]:
    t0 = time.process_time()
    shape, n, pi = spec["shape"], spec["n"], spec["prevalence"]
    root = np.random.SeedSequence(seed, spawn_key=spec["spawn_key"])
    pos_seq, score_seq, draw_seq = root.spawn(3)
    if spec["design"] == "fixed":
        positives = np.full(reps, spec["positives"])
    else:
        positives = np.random.default_rng(pos_seq).binomial(n, pi, reps)
    score_seeds, draw_seeds = score_seq.spawn(reps), draw_seq.spawn(reps)
    defined = (positives >= 2) & (n - positives >= 2)
    ap_at = {int(p): shape.ap(p / n) for p in np.unique(positives[defined])}
    auc_true = shape.auc()
    low = {m[:2]: np.full(reps, np.nan) for m in METHODS}
    high = {m[:2]: np.full(reps, np.nan) for m in METHODS}
    truth = {"roc_auc": np.full(reps, auc_true), "pr_auc": np.full(reps, np.nan)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # small-class warnings: expected here
        for i in np.flatnonzero(defined):
            y, s = shape.simulate(n, int(positives[i]), np.random.default_rng(score_seeds[i]))
            curve = ScoreCurve.from_scores(y, s)
            truth["pr_auc"][i] = ap_at[int(positives[i])]
            for quantity, key, kwargs in METHODS:
                if key == "dirichlet" and min(positives[i], n - positives[i]) >= SKIP_DRAWS:
                    continue
                ci = curve.interval(
                    quantity,
                    n_resamples=N_DRAWS,
                    rng=np.random.default_rng(draw_seeds[i]),
                    **kwargs,
                ).ci
                low[quantity, key][i], high[quantity, key][i] = ci.low, ci.high
    rows = []
    for quantity, method, _ in METHODS:
        lo, hi, t = low[quantity, method], high[quantity, method], truth[quantity]
        ok = defined & np.isfinite(lo) & np.isfinite(hi)
        below = int(np.sum(t[ok] < lo[ok] - 1e-12))
        above = int(np.sum(t[ok] > hi[ok] + 1e-12))
        k = int(ok.sum())
        small = np.minimum(positives, n - positives)
        rows.append(
            {
                "shape": shape.name,
                "auc_level": round(AUCS[spec["auc_level"]], 4),
                "design": spec["design"],
                "n": n,
                "prevalence": pi,
                "expected_min_class": n * min(pi, 1 - pi),
                "quantity": quantity,
                "method": method,
                "defined": k,
                "undefined_interval": int(defined.sum() - k),
                "absent": int((~defined).sum()),
                "coverage": 100.0 * (k - below - above) / k if k else np.nan,
                "below": 100.0 * below / k if k else np.nan,
                "above": 100.0 * above / k if k else np.nan,
                "mean_width": float(np.mean(hi[ok] - lo[ok])) if k else np.nan,
                "median_min_class": float(np.median(small[defined])) if k else np.nan,
                "truth_mean": float(np.nanmean(t[defined])) if k else np.nan,
                "shape_loc": shape.loc,
                "shape_scale": shape.scale,
                "shape_q": shape.q,
                "shape_tails": shape.tails,
                "reps": reps,
                "seed": seed,
                "cpu_seconds": round(time.process_time() - t0, 2),
            }
        )
    return rows


def _work(job: tuple[dict[str, Any], int, int]) -> list[dict[str, Any]]:
    return run_cell(*job)


def _p_outside(cov: float, k: int) -> float:
    """Exact one-sided binomial p-value of the band edge a coverage fell past."""
    hits = round(cov * k / 100)
    if cov < BAND[0]:
        return float(stats.binom.cdf(hits, k, BAND[0] / 100))
    return float(stats.binom.sf(hits - 1, k, BAND[1] / 100))


def _flag(cov: float) -> str:
    if not np.isfinite(cov):  # not run
        return ""
    text = f"{cov:.1f}"
    if cov < BAND[0]:
        return f"**{text}** v"
    if cov > BAND[1]:
        return f"**{text}** ^"
    return text


def _outside(g: pd.DataFrame) -> str:
    """'k (j) of m': entries outside the band, beyond sampling noise, in all (run)."""
    g = g[g["coverage"].notna()]
    out = g[(g["coverage"] < BAND[0]) | (g["coverage"] > BAND[1])]
    noise = sum(_p_outside(r.coverage, r.defined) < 0.01 for r in out.itertuples())
    return f"{len(out)} ({noise}) of {len(g)}"


def render(df: pd.DataFrame, command: str, stamp: str) -> str:
    reps = int(df["reps"].iloc[0])
    shapes = list(dict.fromkeys(df["shape"]))
    keys = list(dict.fromkeys(m[1] for m in METHODS))
    cpu = df.groupby(["shape", "auc_level", "design", "n", "prevalence"])["cpu_seconds"]
    lines = [
        "# Coverage of the curve intervals under five score shapes",
        "",
        "Generated by `benchmarks/coverage_shapes.py` (see its docstring for the shapes and "
        "the estimands). Do not edit by hand: re-render with `python "
        "benchmarks/coverage_shapes.py --render CSV --md MD`.",
        "",
        f"- command: `{command}`",
        f"- {stamp}",
        f"- {reps} simulated test sets per cell, seed {int(df['seed'].iloc[0])}; the cells "
        f"took {cpu.first().sum() / 60:.1f} min of CPU time",
        "- two designs: `grid`, n in {50, 200, 1000, 10000} x pi in {0.5, 0.1, 0.02} with P ~ "
        "Binomial(n, pi) (the main study's); `fixed`, P positives exactly (P in "
        f"{{{', '.join(map(str, FIXED_POSITIVES))}}}) among {FIXED_NEGATIVES} negatives",
        "- shapes (negatives N(0, 1) but for `t3`): `binormal` positives N(mu, 1); "
        "`unequal` positives N(a, 2^2); `subgroup` a share q of the positives N(0, 1), the "
        f"rest N({SUBGROUP_SHIFT:g}, 1); `narrow` positives N(a, 0.5^2); `t3` negatives "
        "t3, "
        "positives d + t3 (Student t, 3 degrees of freedom). Parameters per population ROC "
        "AUC:",
        "",
        "| ROC AUC | shape | location | scale | q (missed share) | PR AUC at pi = 0.5 / 0.1 / 0.02 |",
        "|---|---|---|---|---|---|",
    ]
    for (auc, name), g in df.groupby(["auc_level", "shape"], sort=False):
        r = g.iloc[0]
        shape = Shape(
            name, r["shape_loc"], r["shape_scale"], r["shape_q"], r.get("shape_tails", "normal")
        )
        aps = " / ".join(f"{shape.ap(p):.4f}" for p in PREVALENCES)
        lines.append(
            f"| {auc:.4f} | {name} | {r['shape_loc']:.4f} | {r['shape_scale']:g} | "
            f"{r['shape_q']:.4f} | {aps} |"
        )
    lines += ["", "Methods (`ScoreCurve.interval`, each test set's own seed for the draws):", ""]
    lines += [f"- `{k}`: {METHOD_NOTE[k]}" for k in keys]
    lines += [
        "",
        f"The `dirichlet` column is blank where the smaller class has {SKIP_DRAWS} "
        "rows or more (n = 10000, pi = 0.5 and 0.1): not run there.",
    ]
    lines += [
        "",
        "Coverage in % of the 95% intervals, over the test sets where the interval is "
        "defined (2 rows of each class); **bold v** below 93, **bold ^** above 97. `E` = n "
        "min(pi, 1 - pi), the expected size of the smaller class (in the fixed design, P). "
        f"Binomial s.e. of a coverage near 95% over {reps} test sets: "
        f"{100 * np.sqrt(0.95 * 0.05 / reps):.2f} points.",
        "",
        "## Outside the band",
        "",
        "Entries outside 93%-97% per quantity, method and shape, `k (j) of m`: k outside, j of "
        "them beyond sampling noise (exact one-sided binomial p < 0.01 against the band edge "
        "they fell past), m entries. Both ROC AUCs together.",
        "",
        "| quantity | method | shape | grid, E <= 20 | grid, E >= 25 | fixed (P = 5-100, N = "
        f"{FIXED_NEGATIVES}) | all | range |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for q in QUANTITY_LABEL:
        for k in keys:
            for sh in shapes:
                g = df[(df["quantity"] == q) & (df["method"] == k) & (df["shape"] == sh)]
                grid = g[g["design"] == "grid"]
                lines.append(
                    f"| {QUANTITY_LABEL[q]} | {k} | {sh} | "
                    f"{_outside(grid[grid['expected_min_class'] <= 20])} | "
                    f"{_outside(grid[grid['expected_min_class'] >= 25])} | "
                    f"{_outside(g[g['design'] == 'fixed'])} | {_outside(g)} | "
                    f"{g['coverage'].min():.1f}-{g['coverage'].max():.1f} |"
                )
    lines.append("")
    for design, gd in df.groupby("design", sort=False):
        for auc, ga in gd.groupby("auc_level", sort=False):
            for q, gq in ga.groupby("quantity", sort=False):
                lines += [
                    f"## {QUANTITY_LABEL[q]}, population ROC AUC {auc:.4f}, design `{design}`",
                    "",
                ]
                first = "| n | pi | E |" if design == "grid" else "| P | N | pi |"
                lines += [
                    first + "".join(f" {k} {sh} |" for k in keys for sh in shapes),
                    "|---|---|---|" + "---|" * (len(keys) * len(shapes)),
                ]
                for (n, pi), gc in gq.groupby(["n", "prevalence"], sort=False):
                    cells = [
                        _flag(gc[(gc["method"] == k) & (gc["shape"] == sh)]["coverage"].iloc[0])
                        for k in keys
                        for sh in shapes
                    ]
                    e = gc["expected_min_class"].iloc[0]
                    head = (
                        f"| {n} | {pi:g} | {e:g} |"
                        if design == "grid"
                        else f"| {round(e)} | {FIXED_NEGATIVES} | {pi:.4f} |"
                    )
                    lines.append(head + "".join(f" {c} |" for c in cells))
                lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reps", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=20261122)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", help="CSV of the rows")
    ap.add_argument("--md", help="Markdown summary")
    ap.add_argument("--render", help="re-render the Markdown from this CSV")
    args = ap.parse_args(argv)
    if args.render:
        df = pd.read_csv(args.render)
        with open(args.render.replace(".csv", ".meta")) as fh:
            command, stamp = fh.read().splitlines()[:2]
    else:
        jobs = [(c, args.reps, args.seed) for c in make_cells()]
        t0 = time.perf_counter()
        with multiprocessing.Pool(args.jobs) as pool:
            rows = [r for part in pool.imap_unordered(_work, jobs) for r in part]
        order = {(s.name, round(a, 4)): i for i, a in enumerate(AUCS) for s in shapes_for(a)}
        df = pd.DataFrame(rows)
        df["_o"] = [
            list(order).index((s, a)) for s, a in zip(df["shape"], df["auc_level"], strict=True)
        ]
        df = (
            df.sort_values(
                ["design", "_o", "n", "prevalence"],
                ascending=[False, True, True, False],
                kind="stable",
            )
            .drop(columns="_o")
            .reset_index(drop=True)
        )
        command = "python benchmarks/coverage_shapes.py " + " ".join(
            sys.argv[1:] if argv is None else argv
        )
        stamp = (
            f"date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC; "
            f"{(time.perf_counter() - t0) / 60:.1f} min wall clock with {args.jobs} "
            f"worker process(es); opsstats {opsstats.__version__}, numpy "
            f"{np.__version__}, Python {platform.python_version()}"
        )
        if args.out:
            df.to_csv(args.out, index=False)
            with open(args.out.replace(".csv", ".meta"), "w") as fh:
                fh.write(f"{command}\n{stamp}\n")
    text = render(df, command, stamp)
    if args.md:
        with open(args.md, "w") as fh:
            fh.write(text)
    else:
        print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
