"""Power curves of the paired ROC AUC comparison: simulated against planned.

Paired binormal scores (per class bivariate normal, unit variances, correlation 0.5;
negatives' means 0; positives' means mu_A = 1.2 and mu_B = 1.2 - delta_mu), n = 300 rows
at prevalence 0.3 (90 positives), 1000 repetitions per effect size. For each effect:

* the simulated power of ``opsstats.compare``'s default (DeLong's paired test, two-sided
  5%), with its binomial Monte Carlo standard error. DeLong's Z is pROC's ``roc.test``
  statistic to 1e-9 (tests/test_compare_delong.py), so this is also pROC's default
  test's power on the same data;
* the power that ``power_roc_test_params`` (pROC's ``power.roc.test`` with binormal
  parameters, Obuchowski and McClish 1997) plans for the same population: A = mu, B = 1,
  rn = ra = 0.5, delta the population AUC difference Phi(mu_A/sqrt 2) - Phi(mu_B/sqrt 2).

Run (about 1 CPU minute; the committed output is benchmarks/results/compare_power.md)::

    nice -n 10 python benchmarks/compare_power.py --md benchmarks/results/compare_power.md
"""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

import numpy as np
from scipy.stats import norm

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from opsstats import compare
from opsstats.comparison import power_roc_test_params

N, PI, RHO, MU_A = 300, 0.3, 0.5, 1.2
EFFECTS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=20261124)
    ap.add_argument("--md", type=Path)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    y = np.zeros(N, bool)
    y[: round(PI * N)] = True
    lines = [
        "# Power of the paired ROC AUC comparison: simulated and planned",
        "",
        f"Written by `benchmarks/compare_power.py` (design in its docstring): n = {N}, "
        f"prevalence {PI}, correlation {RHO}, {args.reps} repetitions per row, seed "
        f"{args.seed}. Simulated: rejection rate of DeLong's paired test at two-sided 5% "
        "(the default of `opsstats.compare`, the same statistic as pROC's `roc.test`), with "
        "its Monte Carlo standard error. Planned: `power_roc_test_params` (pROC's "
        "`power.roc.test` from binormal parameters) for the same population.",
        "",
        "| mu_A - mu_B | AUC difference | simulated power (s.e.) | planned power |",
        "|---|---|---|---|",
    ]
    for d in EFFECTS:
        mu_b = MU_A - d
        reject = 0
        for _ in range(args.reps):
            z = rng.standard_normal((N, 2))
            z[:, 1] = RHO * z[:, 0] + np.sqrt(1 - RHO**2) * z[:, 1]
            s = z + np.where(y[:, None], [MU_A, mu_b], 0.0)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                reject += compare(y, {"A": s[:, 0], "B": s[:, 1]}).p_value < 0.05
        power = reject / args.reps
        delta = norm.cdf(MU_A / np.sqrt(2)) - norm.cdf(mu_b / np.sqrt(2))
        planned = (
            power_roc_test_params(
                MU_A,
                1.0,
                mu_b,
                1.0,
                RHO,
                RHO,
                delta,
                ncases=round(PI * N),
                ncontrols=N - round(PI * N),
            ).power
            if d > 0
            else float("nan")
        )
        se = np.sqrt(power * (1 - power) / args.reps)
        plan = "(no effect)" if d == 0 else f"{planned:.3f}"
        lines.append(f"| {d:g} | {delta:.4f} | {power:.3f} ({se:.3f}) | {plan} |")
        print(lines[-1], flush=True)
    lines += [
        "",
        "Where the planned power is below the simulated one, the plan (pROC's formula, which "
        "`power_roc_test_params` reproduces to 1e-9) is conservative: Obuchowski and "
        "McClish's binormal variance of the AUC difference is larger here than the spread "
        "of the observed differences, so it asks for more rows than the test needs.",
    ]
    text = "\n".join(lines) + "\n"
    if args.md:
        args.md.write_text(text)
    else:
        print(text)


if __name__ == "__main__":
    main()
