"""A screenshot of the HTML report of ``opsstats monitor``, taken offline with headless
Chromium.

Usage::

    python scripts/screenshot_monitor.py [--out docs/_static/screenshots]
        [--chromium /usr/bin/chromium] [--keep DIR]

The data are simulated (seed 20241): eight months of 4,000 rows; the classifier
(negatives' scores N(0, 1), positives' N(1.5, 1), threshold 1.0) is the same for six
months while the prevalence drifts from 0.05 to 0.30, then its positives' scores fall to
N(0.9, 1) at prevalence 0.25 and 0.20. The script writes them to a CSV, runs
``opsstats monitor FILE --truth y --score s --threshold 1.0 --time month --metric f1
--metric mcc --html report.html`` (the command line, through ``opsstats.cli.main``),
checks that the file names no ``http`` and embeds its figures, then opens it from the
disk in Chromium with every host unresolvable (the flags of ``screenshot_docs.py``) and
saves ``monitor-report.png``, reduced to 256 colours.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from screenshot_docs import ROOT, chromium, shrink

from opsstats.cli import main as opsstats_main

MONTHS = [f"2024-{m:02d}" for m in range(1, 9)]
PREVALENCES = [0.05, 0.08, 0.12, 0.18, 0.24, 0.30, 0.25, 0.20]
SEPARATION = [1.5] * 6 + [0.9, 0.9]


def simulate(seed: int = 20241, n: int = 4000) -> pd.DataFrame:
    """The months above: prevalence drift for six months, then a worse classifier."""
    rng = np.random.default_rng(seed)
    parts = []
    for month, pi, d in zip(MONTHS, PREVALENCES, SEPARATION, strict=True):
        y = rng.random(n) < pi
        parts.append(pd.DataFrame({"month": month, "y": y.astype(int), "s": rng.normal(d * y, 1)}))
    return pd.concat(parts, ignore_index=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "_static" / "screenshots")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--width", type=int, default=1200)
    parser.add_argument("--height", type=int, default=1350)
    parser.add_argument("--keep", type=Path, help="also keep the CSV and the HTML here")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="opsstats-monitor-") as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        csv, report = folder / "predictions.csv", folder / "report.html"
        simulate().to_csv(csv, index=False)
        start = time.perf_counter()
        status = opsstats_main(
            [
                "monitor", str(csv), "--truth", "y", "--score", "s", "--threshold", "1.0",
                "--time", "month", "--metric", "f1", "--metric", "mcc",
                "--html", str(report), "--format", "csv", "--output", str(folder / "t.csv"),
            ]
        )  # fmt: skip
        if status != 0:
            raise SystemExit(f"opsstats monitor failed (exit status {status})")
        text = report.read_text(encoding="utf-8")
        if "http" in text or text.count('src="data:image/png;base64,') != 1:
            raise SystemExit(f"{report} names an outside address or lacks its figure")
        dom = chromium(args.chromium, report.resolve().as_uri(), ["--dump-dom"], 5.0)
        if dom.count("<img") != 1:
            raise SystemExit("Chromium's page does not hold the figure")
        args.out.mkdir(parents=True, exist_ok=True)
        target = args.out / "monitor-report.png"
        chromium(
            args.chromium,
            report.resolve().as_uri(),
            [f"--screenshot={target}", f"--window-size={args.width},{args.height}"],
            5.0,
        )
        shrink(target)
    print(
        f"{target}  {target.stat().st_size / 1024:.0f} KiB  ({time.perf_counter() - start:.1f} s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
