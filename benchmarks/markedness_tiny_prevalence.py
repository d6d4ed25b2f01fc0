"""Time and accuracy of the uniform OPS of markedness at tiny prevalences (the closed
form, which replaced a quadrature that took minutes).

Before the fix ``Uniform().ops("markedness", 1e-9, prevalence=1e-9)`` ran for over 15
minutes: the adaptive quadrature evaluated the metric where float keeps too few digits
and bisected its pieces without end. Markedness now has a closed form under the uniform
reference and a closed-form level set for the quadrature of the other references
(``opsstats/reference/_uniform_closed_forms.py``). For each prevalence pi from 1e-3 to
1e-12 and the values mu = pi (the issue's case), 0.5 and -0.5, this prints

* the closed form's OPS and its time (``Uniform().ops``, median of 20 calls);
* the same OPS by the quadrature engine with the level set
  (``BetaErrors(1, 1, 1, 1)``, the uniform distribution written as Beta shapes, which
  has no closed forms) and its time;
* the reference value, computed independently in 50-digit decimal arithmetic from the
  count definition of markedness (``benchmarks/markedness_reference.py``), and the
  absolute errors of both;
* with ``--before PATH`` (a checkout of the code before the fix), the old engine's
  time and error in a subprocess stopped after ``--timeout`` seconds.

Run from the repository root::

    PYTHONPATH=. python benchmarks/markedness_tiny_prevalence.py [--before /tmp/before] [--write]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.markedness_reference import markedness_ops
from opsstats import BetaErrors, Uniform

RESULT = ROOT / "benchmarks" / "results" / "markedness_tiny_prevalence.md"
PREVALENCES = [10.0**-k for k in range(3, 13)]


def _median_time(f, repeat: int = 20) -> tuple[float, float]:
    times, value = [], float("nan")
    for _ in range(repeat):
        t = time.perf_counter()
        value = float(f())
        times.append(time.perf_counter() - t)
    return value, float(np.median(times))


def _before(path: str, pi: float, mu: float, timeout: float) -> tuple[str, float | None]:
    code = (
        "import json, sys, time; from opsstats import Uniform; t = time.perf_counter(); "
        f"v = float(Uniform().ops('markedness', {mu!r}, prevalence={pi!r}).estimate); "
        "print(json.dumps([v, time.perf_counter() - t]))"
    )
    try:
        out = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            timeout=timeout,
            env={**os.environ, "PYTHONPATH": path},
            cwd=path,
            check=True,
        )
    except subprocess.TimeoutExpired:
        return f"> {timeout:.0f} s", None
    value, seconds = json.loads(out.stdout.strip().splitlines()[-1])
    return f"{seconds:.3g} s", value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", help="path of a checkout of the code before the fix")
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    head = (
        "| prevalence | mu | OPS (closed form) | 50-digit reference | error | time "
        "| quadrature error | quadrature time |"
    )
    rule = "|---:|---:|---:|---:|---:|---:|---:|---:|"
    if args.before:
        head += " before: time | before: error |"
        rule += "---:|---:|"
    rows = [head, rule]
    worst = {"closed": 0.0, "quad": 0.0}
    for pi in PREVALENCES:
        for mu in (pi, 0.5, -0.5):
            ref = markedness_ops(pi, mu)
            closed, t_closed = _median_time(
                lambda pi=pi, mu=mu: Uniform().ops("markedness", mu, prevalence=pi).estimate
            )
            quad, t_quad = _median_time(
                lambda pi=pi, mu=mu: (
                    BetaErrors(1, 1, 1, 1).ops("markedness", mu, prevalence=pi).estimate
                ),
                repeat=5,
            )
            worst["closed"] = max(worst["closed"], abs(closed - ref))
            worst["quad"] = max(worst["quad"], abs(quad - ref))
            row = (
                f"| {pi:.0e} | {mu:.3g} | {closed:.16g} | {ref:.16g} | "
                f"{abs(closed - ref):.1e} | {t_closed * 1e6:.0f} us | {abs(quad - ref):.1e} | "
                f"{t_quad * 1e3:.1f} ms |"
            )
            if args.before:
                if mu == pi:
                    took, value = _before(args.before, pi, mu, args.timeout)
                    err = "" if value is None else f"{abs(value - ref):.1e}"
                    row += f" {took} | {err} |"
                else:
                    row += " | |"
            rows.append(row)
            print(row, flush=True)
    text = "\n".join(
        [
            "# Markedness under the uniform reference at tiny prevalences",
            "",
            "`PYTHONPATH=. python benchmarks/markedness_tiny_prevalence.py"
            + (f" --before {args.before}" if args.before else "")
            + f" --write`, {time.strftime('%Y-%m-%d')}, Python {platform.python_version()}. "
            "Errors are absolute, against the 50-digit decimal computation of "
            "`benchmarks/markedness_reference.py` (independent of the closed form: bisection "
            "on the count definition, graded Gauss-Legendre). Closed form: `Uniform().ops` "
            "(median of 20 calls); quadrature: the engine with the closed-form level set, "
            "through `BetaErrors(1, 1, 1, 1)` (median of 5)."
            + (
                f" Before: the code before the fix, in a subprocess stopped after "
                f"{args.timeout:.0f} s (the issue's case mu = prevalence only)."
                if args.before
                else ""
            ),
            "",
            *rows,
            "",
            f"Largest error: closed form {worst['closed']:.1e}, quadrature {worst['quad']:.1e}.",
            "",
        ]
    )
    print(f"largest error: closed form {worst['closed']:.1e}, quadrature {worst['quad']:.1e}")
    if args.write:
        RESULT.write_text(text)


if __name__ == "__main__":
    main()
