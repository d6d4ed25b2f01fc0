"""Evaluation where the data live: `opsstats report` over a Parquet dataset through
DuckDB, against pandas at the largest size that fits, and PySpark local against pandas.

Writes a synthetic dataset (100 segments x 30 days, each segment-day with its own
prevalence between 0.5% and 30%; scores rounded to 3 decimals) of ``--rows`` rows as one
Parquet file per day, then times, each in a child process whose peak resident memory is
read from ``getrusage(RUSAGE_CHILDREN)``:

- ``opsstats report DIR`` (DuckDB, the default for a directory) with F1 and MCC at a
  threshold and the ROC AUC per segment and day (3,000 groups), without intervals;
- the same report with ``--engine pandas`` on the first ``--pandas-rows`` rows;
- ``evaluate`` on a PySpark ``local[2]`` DataFrame of the first ``--spark-rows`` rows
  against pandas on the same rows.

    PYTHONPATH=. python benchmarks/bench_engines.py --rows 100_000_000 --write

writes benchmarks/results/bench_engines.md. The dataset goes to a temporary directory
and is deleted afterwards.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

SEGMENTS, DAYS = 100, 30
OPTIONS = [
    "--truth", "y", "--score", "s", "--threshold", "0.5", "--group", "segment", "--group",
    "day", "--metric", "f1", "--metric", "mcc", "--metric", "roc_auc", "--ci", "none",
]  # fmt: skip


def write_dataset(root: Path, rows: int, seed: int = 0) -> None:
    """One Parquet file per day; each (segment, day) its own prevalence."""
    rng = np.random.default_rng(seed)
    prevalence = np.exp(rng.uniform(np.log(0.005), np.log(0.30), (SEGMENTS, DAYS)))
    per_day = rows // DAYS
    for day in range(DAYS):
        parts = []
        for start in range(0, per_day, 5_000_000):
            m = min(5_000_000, per_day - start)
            segment = rng.integers(0, SEGMENTS, m).astype(np.int16)
            y = rng.random(m) < prevalence[segment, day]
            s = np.round(1 / (1 + np.exp(-(rng.normal(0, 1, m) + 1.6 * y - 1.5))), 3)
            parts.append(
                pa.table(
                    {
                        "y": y.astype(np.int8),
                        "s": s.astype(np.float32),
                        "segment": segment,
                        "day": np.full(m, day, np.int16),
                    }
                )
            )
        pq.write_table(pa.concat_tables(parts), root / f"day_{day:02d}.parquet")


WRAP = """
import resource, subprocess, sys
out = subprocess.run(sys.argv[1:], capture_output=True, text=True)
sys.stdout.write(out.stdout)
sys.stderr.write(out.stderr)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)
sys.exit(out.returncode)
"""


def child(code: list[str]) -> tuple[float, float, str]:
    """Wall seconds, peak resident memory (MB) and stdout of a command, measured by a
    wrapper process of its own (so the peak is this command's alone)."""
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", WRAP, *code], capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if out.returncode:
        raise RuntimeError(out.stderr[-2000:])
    peak_kb = int(out.stderr.strip().splitlines()[-1])
    return seconds, peak_kb / 1024, out.stdout


def report(path: str, *extra: str) -> list[str]:
    return [sys.executable, "-m", "opsstats.cli", "report", path, *OPTIONS, *extra]


PANDAS_SLICE = """
import sys, pyarrow.dataset as ds
t = ds.dataset(sys.argv[1]).head(int(sys.argv[2]))
t.to_pandas().to_parquet(sys.argv[3])
"""

SPARK = """
import sys, time, warnings
warnings.simplefilter("ignore")
from pyspark.sql import SparkSession
spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
         .config("spark.sql.shuffle.partitions", "8").config("spark.driver.memory", "2g")
         .getOrCreate())
spark.sparkContext.setLogLevel("ERROR")
from opsstats import evaluate
df = spark.read.parquet(sys.argv[1])
start = time.perf_counter()
out = evaluate(df, truth="y", score="s", threshold=0.5, by=["segment", "day"],
               metrics=["f1", "mcc", "roc_auc"], ci=None)
print(time.perf_counter() - start)
out.attrs = {}  # per-group confusion matrices, keyed by tuples
out.to_parquet(sys.argv[2])
"""

PANDAS = """
import sys, time
import pandas as pd
from opsstats import evaluate
df = pd.read_parquet(sys.argv[1])
start = time.perf_counter()
out = evaluate(df, truth="y", score="s", threshold=0.5, by=["segment", "day"],
               metrics=["f1", "mcc", "roc_auc"], ci=None)
print(time.perf_counter() - start)
out.attrs = {}  # per-group confusion matrices, keyed by tuples
out.to_parquet(sys.argv[2])
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=lambda t: int(float(t)), default=100_000_000)
    ap.add_argument("--pandas-rows", type=lambda t: int(float(t)), default=10_000_000)
    ap.add_argument("--spark-rows", type=lambda t: int(float(t)), default=10_000_000)
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="opsstats-bench-"))
    lines = [
        "# Evaluation where the data live",
        "",
        f"`PYTHONPATH=. python benchmarks/bench_engines.py --rows {args.rows:_} "
        f"--pandas-rows {args.pandas_rows:_} --spark-rows {args.spark_rows:_}`, "
        f"{time.strftime('%Y-%m-%d')}, Python {platform.python_version()}, "
        f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the start. "
        f"Data: {SEGMENTS} segments x {DAYS} days, prevalence per segment-day log-uniform "
        "in [0.5%, 30%], scores rounded to 3 decimals; F1 and MCC at 0.5 and the ROC AUC "
        "with their OPS per segment and day (3,000 groups), no intervals.",
        "",
        "| what | rows | wall (s) | peak RSS (MB) |",
        "|---|---:|---:|---:|",
    ]
    try:
        data = tmp / "data"
        data.mkdir()
        start = time.perf_counter()
        write_dataset(data, args.rows)
        size = sum(f.stat().st_size for f in data.iterdir()) / 2**20
        lines.insert(3, f"Writing the dataset: {time.perf_counter() - start:.0f} s, {size:.0f} MB.")
        lines.insert(4, "")
        sec, mb, duck_out = child(report(str(data)))
        lines.append(f"| `opsstats report DIR` (DuckDB) | {args.rows:_} | {sec:.1f} | {mb:.0f} |")
        small = tmp / "small.parquet"
        subprocess.run(
            [sys.executable, "-c", PANDAS_SLICE, str(data), str(args.pandas_rows), str(small)],
            check=True,
        )
        sec_p, mb_p, pandas_out = child(report(str(small), "--engine", "pandas"))
        sec_d, mb_d, duck_small = child(report(str(small), "--engine", "duckdb"))
        same = pandas_out.split("\n", 2)[2] == duck_small.split("\n", 2)[2].replace(
            "-" * len(duck_small.split("\n")[1]), "-" * len(pandas_out.split("\n")[1])
        )
        lines.append(
            f"| `opsstats report FILE --engine pandas` | {args.pandas_rows:_} | {sec_p:.1f} | "
            f"{mb_p:.0f} |"
        )
        lines.append(
            f"| `opsstats report FILE --engine duckdb` | {args.pandas_rows:_} | {sec_d:.1f} | "
            f"{mb_d:.0f} |"
        )
        spark_small = small
        if args.spark_rows != args.pandas_rows:
            spark_small = tmp / "spark.parquet"
            subprocess.run(
                [
                    sys.executable,
                    "-c",
                    PANDAS_SLICE,
                    str(data),
                    str(args.spark_rows),
                    str(spark_small),
                ],
                check=True,
            )
        t0 = time.perf_counter()
        spark = subprocess.run(
            [sys.executable, "-c", SPARK, str(spark_small), str(tmp / "spark_out.parquet")],
            capture_output=True,
            text=True,
        )
        spark_wall = time.perf_counter() - t0
        t0 = time.perf_counter()
        pand = subprocess.run(
            [sys.executable, "-c", PANDAS, str(spark_small), str(tmp / "pandas_out.parquet")],
            capture_output=True,
            text=True,
        )
        pandas_wall = time.perf_counter() - t0
        if spark.returncode or pand.returncode:
            raise RuntimeError((spark.stderr + pand.stderr)[-3000:])
        import pandas as pd

        a = pd.read_parquet(tmp / "spark_out.parquet")
        b = pd.read_parquet(tmp / "pandas_out.parquet")
        num = b.select_dtypes("number").columns
        diff = float(np.nanmax(np.abs(a[num].to_numpy(float) - b[num].to_numpy(float))))
        lines += [
            f"| `evaluate` on PySpark local[2] (evaluate only; whole process) | "
            f"{args.spark_rows:_} | {float(spark.stdout.split()[-1]):.1f} ({spark_wall:.1f}) | |",
            f"| `evaluate` on pandas (evaluate only; whole process) | {args.spark_rows:_} | "
            f"{float(pand.stdout.split()[-1]):.1f} ({pandas_wall:.1f}) | |",
            "",
            f"The DuckDB and pandas reports of the {args.pandas_rows:_} rows are "
            f"{'identical' if same else 'DIFFERENT'} (apart from the title); the PySpark "
            f"and pandas tables differ by at most {diff:.2g}. The DuckDB report of all "
            f"{args.rows:_} rows has {duck_out.count(chr(10))} lines.",
        ]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    text = "\n".join(lines) + "\n"
    print(text)
    if args.write:
        Path(__file__).parent.joinpath("results", "bench_engines.md").write_text(text)


if __name__ == "__main__":
    main()
