"""Fuzz of the opsstats command: hostile files and odd flags through
``opsstats.cli.main``, in this process. Every run must end in one of two ways: exit 0
with a valid output, or exit 2 with nothing on stdout, no file left behind and exactly
one line on stderr starting ``opsstats: error:``; never a traceback, an internal error
or a partial output.

The hand-written and seeded random cases are the table of ``tests/cli_fuzz_cases.py``,
which ``benchmarks/fuzz_cli_census.py`` runs too (counts per outcome class, before and
after the hardening: ``benchmarks/results/fuzz_cli_census.md``); so are the generated
cases of every subcommand (read from the argparse parser: its minimal command, and each
option given the bad values of its kind); hypothesis adds files and flags of its own.
Ctrl-C is tested in ``tests/test_cli.py``.
"""

from __future__ import annotations

import argparse
import csv
import io
import tempfile
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import pandas as pd
import pytest
from cli_fuzz_cases import (
    HOSTILE_GROUPS,
    MINIMAL_ARGV,
    Case,
    fixed_cases,
    make_files,
    output_check,
    random_cases,
    run_and_classify,
    subcommand_cases,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from opsstats.cli import build_parser, main

N_RANDOM = 120
FIXED = fixed_cases()


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fuzz")
    make_files(folder)
    return folder


@pytest.fixture(scope="module")
def random_table(folder):
    return random_cases(folder, N_RANDOM)


#: Every case with the default engine; the report's (which has two engines) also
#: through pandas.
FIXED_RUNS = [
    (case, engine)
    for case in FIXED
    for engine in ([], ["--engine", "pandas"])
    if not engine or case.argv[:1] == ["report"]
]


@pytest.mark.parametrize(
    "case, engine",
    FIXED_RUNS,
    ids=[f"{c.name}-{'pandas' if e else 'default'}" for c, e in FIXED_RUNS],
)
def test_fixed_case(folder, case, engine):
    """Every case through DuckDB (the default for a file) and, for the report, through
    pandas."""
    case = Case(case.name, [*case.argv, *engine], case.expect, case.check, case.outputs)
    kind, detail, outcome = run_and_classify(main, case, folder)
    expected = {"ok": ("ok",), "error": ("error",), "either": ("ok", "error")}[case.expect]
    assert kind in expected, (kind, detail, outcome.stderr[-500:])


@pytest.mark.parametrize("index", range(N_RANDOM))
def test_random_case(folder, random_table, index):
    case = random_table[index]
    kind, detail, outcome = run_and_classify(main, case, folder)
    assert kind in ("ok", "error"), (case.argv, kind, detail, outcome.stderr[-500:])


SUBCOMMANDS = subcommand_cases(build_parser())
#: The example's full report computes the default curve reference (half a minute): the
#: same command is test_cli.py::test_example_runs_and_reports_three_test_sets, and the
#: census runs it here; the default run runs every other case (the example's refusals too).
SLOW = ("sub example: the minimal command",)
IN_RUN = [c for c in SUBCOMMANDS if c.name not in SLOW]


@pytest.mark.parametrize("case", IN_RUN, ids=[c.name for c in IN_RUN])
def test_subcommand_case(folder, case):
    """Every subcommand's minimal command succeeds; each option's bad values are refused
    in one line (the options and their kinds read from the argparse parser)."""
    kind, detail, outcome = run_and_classify(main, case, folder)
    expected = {"ok": ("ok",), "error": ("error",), "either": ("ok", "error")}[case.expect]
    assert kind in expected, (case.argv, kind, detail, outcome.stderr[-500:])


def test_every_subcommand_has_cases():
    """Every subcommand of the parser has its minimal command (and so its generated
    cases); a new one without is named, as a dummy subcommand shows."""
    subs = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    assert set(subs[0].choices) == set(MINIMAL_ARGV)
    assert len(SUBCOMMANDS) >= 100
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    sub.add_parser("dummy")
    names = [c.name for c in subcommand_cases(parser)]
    assert "sub dummy: no minimal command in MINIMAL_ARGV" in names


def test_the_table_reaches_both_outcomes(folder, random_table):
    """The random table is not all errors: it exercises successful reports too."""
    kinds = [run_and_classify(main, case, folder)[0] for case in random_table[:40]]
    assert kinds.count("ok") >= 8 and kinds.count("error") >= 8, kinds


# ----------------------------------------------------------------- hypothesis

_CELLS = st.one_of(
    st.sampled_from(["0", "1", "0", "1", "", "nan", "inf", "-inf", "1e400", "-1e308", "2"]),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    st.sampled_from([*HOSTILE_GROUPS, "中文", "\ue000", "a,b", '"', "y"]),
    st.text(max_size=6),
)
_NAMES = st.sampled_from(["y", "s", "p", "g", "y", "s", "=y", "", "y.1"])


@st.composite
def hostile_files(draw):
    """A header (names may repeat), rows of hostile cells (rows may be ragged), an
    encoding and an extension."""
    header = draw(st.lists(_NAMES, min_size=1, max_size=5))
    ragged = draw(st.booleans())
    rows = draw(
        st.lists(
            st.lists(
                _CELLS,
                min_size=1 if ragged else len(header),
                max_size=len(header) + 1 if ragged else len(header),
            ),
            max_size=15,
        )
    )
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    encoding = draw(st.sampled_from(["utf-8", "utf-8", "utf-8", "latin-1", "utf-16"]))
    data = buffer.getvalue().encode(encoding, "replace")
    ext = draw(st.sampled_from([".csv", ".csv", ".csv", ".tsv", ".txt", ".parquet", ".csv.gz"]))
    return data, ext


@st.composite
def flags(draw):
    argv = ["--truth", draw(st.sampled_from(["y", "y", "s", "zz"]))]
    if draw(st.booleans()):
        argv += ["--pred", draw(st.sampled_from(["p", "p", "y"]))]
    else:
        argv += ["--score", draw(st.sampled_from(["s", "s", "g"]))]
        threshold = draw(st.sampled_from(["0.5", "0", "-1e308", "nan", "abc", None]))
        if threshold is not None:
            argv.append(f"--threshold={threshold}")
    for metric in draw(
        st.lists(st.sampled_from(["f1", "mcc", "precision", "lr_plus", "dor", "f7"]), max_size=3)
    ):
        argv += ["--metric", metric]
    if not any(a == "--metric" for a in argv):
        argv += ["--metric", "f1"]  # point metrics: milliseconds a case
    if draw(st.booleans()):
        argv += ["--group", draw(st.sampled_from(["g", "g", "y", "nope"]))]
    argv += ["--ci", draw(st.sampled_from(["none", "none", "dirichlet", "bootstrap"]))]
    argv += ["--format", draw(st.sampled_from(["text", "csv", "json", "html"]))]
    for option, values in (
        ("--pos-label", ["1", "0", "x", "", "nan"]),
        ("--digits", ["1", "15", "0", "100000", "-1"]),
        ("--n-resamples", ["100", "1e9", "5", "2.5"]),
        ("--confidence-level", ["0.9", "1", "nan"]),
        ("--seed", ["0", "-1", "1e30"]),
    ):
        if draw(st.integers(0, 5)) == 0:
            argv.append(f"{option}={draw(st.sampled_from(values))}")
    return argv


def _check(fmt):
    return output_check(["--format", fmt])


@settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(file=hostile_files(), argv=flags())
def test_hostile_files_and_flags(file, argv):
    data, ext = file
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "keep.png").write_bytes(b"an existing figure")
        if ext == ".csv.gz":
            import gzip

            data = gzip.compress(data)
        (folder / f"in{ext}").write_bytes(data)
        fmt = argv[argv.index("--format") + 1]
        case = Case("hypothesis", ["report", f"{{dir}}/in{ext}", *argv], "either", _check(fmt))
        kind, detail, outcome = run_and_classify(main, case, folder)
    assert kind in ("ok", "error"), (argv, kind, detail, outcome.stderr[-500:])


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    truth=st.sampled_from(["int", "nullable", "str", "list", "float"]),
    score=st.sampled_from(["float", "nan", "list", "dict", "str", "int64", "bool"]),
    group=st.sampled_from(["str", "list", "none", "nan"]),
    fmt=st.sampled_from(["text", "csv", "json"]),
)
def test_parquet_columns_of_every_kind(truth, score, group, fmt):
    n = 12
    columns = {
        "y": {
            "int": [1, 0] * 6,
            "nullable": pd.array([1, 0, None] * 4, dtype="Int64"),
            "str": ["a", "b"] * 6,
            "list": [[1], [0]] * 6,
            "float": [1.0, 0.0] * 6,
        }[truth],
        "s": {
            "float": [i / n for i in range(n)],
            "nan": [float("nan")] + [i / n for i in range(1, n)],
            "list": [[i / n] for i in range(n)],
            "dict": [{"v": i} for i in range(n)],
            "str": [str(i) for i in range(n)],
            "int64": [2**62 + i for i in range(n)],
            "bool": [i % 3 == 0 for i in range(n)],
        }[score],
    }
    if group != "none":
        columns["g"] = {
            "str": ["=a", "-b", "@c"] * 4,
            "list": [["a"], ["b"]] * 6,
            "nan": ["a", None, "b"] * 4,
        }[group]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "keep.png").write_bytes(b"an existing figure")
        pd.DataFrame(columns).to_parquet(folder / "in.parquet")
        argv = ["report", "{dir}/in.parquet", "--truth", "y", "--score", "s", "--threshold", "0.5"]
        argv += ["--metric", "f1", "--ci", "none", "--format", fmt]
        if group != "none":
            argv += ["--group", "g"]
        if truth == "str":
            argv += ["--pos-label", "a"]
        kind, detail, outcome = run_and_classify(
            main, Case("parquet", argv, "either", _check(fmt)), folder
        )
    assert kind in ("ok", "error"), (truth, score, group, kind, detail, outcome.stderr[-500:])
