"""Census of the command-line fuzz: the case table of ``tests/cli_fuzz_cases.py`` (the
hand-written cases: hostile files, group values and flags; every subcommand's minimal
command and each of its options given bad values, read from the argparse parser; seeded
random files and flags) run through ``opsstats.cli.main`` of a given checkout, with the
count of each outcome class, and Ctrl-C through a subprocess.

Run against this checkout and against the code before the hardening (a temporary
worktree at the branch point), appending both to the committed table::

    git worktree add --detach /tmp/cli-before <branch point>
    python benchmarks/fuzz_cli_census.py --package /tmp/cli-before --label before \\
        --md benchmarks/results/fuzz_cli_census.md
    python benchmarks/fuzz_cli_census.py --label after --append \\
        --md benchmarks/results/fuzz_cli_census.md
    git worktree remove /tmp/cli-before

The classes are defined in ``tests/cli_fuzz_cases.py``: ``ok`` (exit 0, valid output),
``error`` (exit 2, one line on stderr, nothing else), ``crash`` (traceback or internal
error), ``partial`` (a failure that left output behind), ``wrong`` (accepted what must be
refused, refused what must be accepted, or an invalid output).
"""

from __future__ import annotations

import argparse
import collections
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--package", default=str(ROOT), help="checkout whose opsstats to run")
    parser.add_argument("--label", default="after", help="name of the run in the table")
    parser.add_argument("--random", type=int, default=200, help="seeded random cases")
    parser.add_argument("--md", help="write (or with --append, add to) this Markdown file")
    parser.add_argument("--append", action="store_true")
    parser.add_argument(
        "--memory-limit",
        type=float,
        default=8.0,
        help="address-space limit of this process in GiB (default 8): a case that tries to "
        "allocate tens of GB fails with MemoryError instead of pressing the machine",
    )
    args = parser.parse_args()
    if args.memory_limit > 0:
        import resource

        limit = int(args.memory_limit * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    package = str(Path(args.package).resolve())
    sys.path.insert(0, package)
    sys.path.insert(1, str(ROOT / "tests"))
    import cli_fuzz_cases as cases
    import matplotlib

    matplotlib.use("Agg")
    import opsstats
    from opsstats.cli import build_parser
    from opsstats.cli import main as cli_main

    assert Path(opsstats.__file__).resolve().is_relative_to(package), opsstats.__file__
    commit = subprocess.run(
        ["git", "-C", package, "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    dirty = subprocess.run(
        ["git", "-C", package, "status", "--porcelain", "--", "opsstats"],
        capture_output=True,
        text=True,
    ).stdout.strip()

    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "cases"
        records = cases.census(cli_main, folder, args.random, build_parser())
        interrupted = cases.run_interrupted(folder, package)
    kind, detail = cases.classify_interrupted(interrupted)
    records.append(
        {"case": "Ctrl-C while reading", "table": "fixed", "outcome": kind, "detail": detail}
    )
    seconds = time.perf_counter() - start

    tables = ("fixed", "subcommands", "random")
    counts = {
        t: collections.Counter(r["outcome"] for r in records if r["table"] == t) for t in tables
    }
    head = (
        f"### {args.label}: opsstats at commit {commit}{' (uncommitted changes)' if dirty else ''}"
    )
    lines = [
        head,
        "",
        f"{len(records)} cases ({sum(counts['fixed'].values())} fixed including Ctrl-C, "
        f"{sum(counts['subcommands'].values())} of the subcommands' options, "
        f"{sum(counts['random'].values())} random, seed 17), {seconds:.0f} s.",
        "",
        "| table | " + " | ".join(cases.OUTCOMES) + " | total |",
        "|---|" + "---:|" * (len(cases.OUTCOMES) + 1),
    ]
    for table in tables:
        c = counts[table]
        lines.append(
            f"| {table} | "
            + " | ".join(str(c[o]) for o in cases.OUTCOMES)
            + f" | {sum(c.values())} |"
        )
    total = counts["fixed"] + counts["subcommands"] + counts["random"]
    lines.append(
        "| all | "
        + " | ".join(str(total[o]) for o in cases.OUTCOMES)
        + f" | {sum(total.values())} |"
    )
    bad = [r for r in records if r["outcome"] not in ("ok", "error")]
    if bad:
        lines += ["", "Cases not ending `ok` or `error`:", ""]
        lines += [f"- {r['case']!r}: **{r['outcome']}**, {r['detail'][:160]!r}" for r in bad]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.md:
        md = Path(args.md)
        if args.append and md.exists():
            md.write_text(md.read_text() + "\n" + text)
        else:
            title = (
                "# Command-line fuzz census\n\n"
                "Made by `benchmarks/fuzz_cli_census.py` (the commands are in its docstring): "
                "every case of the table in `tests/cli_fuzz_cases.py` (hand-written hostile "
                "files, group values and flags; every subcommand's minimal command and its "
                "options given bad values, read from the argparse parser; seeded random files "
                "and flags) run through "
                "`opsstats.cli.main` in one process, and Ctrl-C through a subprocess. "
                "Outcome classes: `ok` exit 0 with a valid output (strict JSON, no "
                "formula-like CSV text, no raw control character or forged line in text and "
                "HTML, only one-line warnings on stderr, the case's own checks); `error` exit 2, "
                "nothing on stdout, no file left, one line `opsstats: error: ...`; `crash` a "
                "traceback or an internal error; `partial` a failure that printed on stdout, "
                "left a file or wrote several lines on stderr; `wrong` accepted what must be "
                "refused (a duplicated header, a NaN threshold, a directory as a figure name), "
                "refused what must be accepted, or exit 0 with an invalid output.\n\n"
            )
            md.write_text(title + text)


if __name__ == "__main__":
    main()
