"""Census of the fuzz suite: how many calls of every public entry point end in each
outcome class.

Runs every case of the hand-written table ``tests/fuzz_cases.py`` (independent expected
values) and every generated case of ``tests/fuzz_entry_points.py`` (each public entry
point's minimal valid call, and each argument given every bad value of its kind; the
whole product, where ``tests/test_fuzz_api.py`` runs a sample) and counts the outcomes:
a clear ``ValueError``/``TypeError`` naming the argument and what was received; a
correct number (checked against an independent computation); a valid result (a
generated case accepted, with no unexplained NaN); an unhelpful error; another
exception; a silent NaN or wrong value; over memory or time. Each case runs in a worker
process whose address space is limited (``--memory``, default 4 GiB: a call that tries
to allocate tens of GB fails there with ``MemoryError`` instead of taking the machine)
and which is stopped after ``--timeout`` seconds (a hang), then restarted for the next
case.

``--before PATH`` runs the same tables first against the package in ``PATH`` (a checkout
of the code before the fixes, e.g. ``git worktree add --detach /tmp/before <commit>``),
so that the two censuses can be compared (the two run side by side, each in its own
worker process). Run from the repository root::

    PYTHONPATH=. python benchmarks/fuzz_census.py [--before /tmp/before] [--write]

``--write`` writes ``benchmarks/results/fuzz_census.md`` (and the rows of every case,
``fuzz_census.json`` beside it, from which ``--render`` writes the Markdown again).
The whole run takes about an hour of one core (the old code's hangs stop at the
timeout).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import platform
import selectors
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULT = ROOT / "benchmarks" / "results" / "fuzz_census.md"
ROWS = RESULT.with_suffix(".json")

WORKER = r"""
import json, os, resource, sys, time, warnings
package, root, limit = sys.argv[1], sys.argv[2], int(sys.argv[3])
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
# the answers go to the parent through the original stdout; what a case prints (the
# command line's report, say) goes nowhere, so it cannot garble them
answers = os.fdopen(os.dup(1), "w")
os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
sys.stdout = open(os.devnull, "w")
sys.path[:0] = [package, root, root + "/tests"]
warnings.simplefilter("ignore")
import matplotlib
matplotlib.use("Agg")
from fuzz_cases import CASES, classify
from fuzz_entry_points import all_cases
GENERATED = all_cases()
import opsstats
print(json.dumps({"ready": [len(CASES), len(GENERATED)], "file": opsstats.__file__}),
      file=answers, flush=True)
for line in sys.stdin:
    table, i = line.split()
    i = int(i)
    t = time.perf_counter()
    label = CASES[i].label if table == "hand" else GENERATED[i].label
    try:
        if table == "hand":
            outcome, detail = classify(CASES[i])
        else:
            verdict = GENERATED[i].run()
            outcome, detail = verdict.outcome, verdict.detail
    except MemoryError as exc:  # outside the call (building a message, say)
        outcome, detail = "over memory or time", f"MemoryError: {exc}"
    print(json.dumps({"table": table, "i": i, "label": label, "outcome": outcome,
                      "detail": detail, "seconds": time.perf_counter() - t}),
          file=answers, flush=True)
"""


class Worker:
    """A subprocess running cases one at a time, restarted after a timeout or a crash."""

    def __init__(self, package: str, memory: int) -> None:
        self.package, self.memory = package, memory
        self.proc: subprocess.Popen | None = None

    def start(self) -> list[int]:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([self.package, str(ROOT)])}
        self.proc = subprocess.Popen(
            [sys.executable, "-c", WORKER, self.package, str(ROOT), str(self.memory)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            cwd=self.package,
            env=env,
        )
        ready = json.loads(self._read(1800.0))
        # the package under test is the checkout's (not an installed copy)
        assert Path(ready["file"]).resolve().is_relative_to(Path(self.package).resolve())
        return list(ready["ready"])

    def _read(self, timeout: float) -> str:
        assert self.proc is not None and self.proc.stdout is not None
        sel = selectors.DefaultSelector()
        sel.register(self.proc.stdout, selectors.EVENT_READ)
        if not sel.select(timeout):
            raise TimeoutError
        line = self.proc.stdout.readline()
        if not line:
            raise EOFError
        return line

    def run(self, table: str, i: int, timeout: float) -> dict:
        if self.proc is None or self.proc.poll() is not None:
            self.start()
        assert self.proc is not None and self.proc.stdin is not None
        t = time.perf_counter()
        self.proc.stdin.write(f"{table} {i}\n")
        self.proc.stdin.flush()
        try:
            return json.loads(self._read(timeout))
        except TimeoutError:
            self.stop()
            return {
                "table": table,
                "i": i,
                "outcome": "over memory or time",
                "detail": f"stopped after {timeout:.0f} s",
                "seconds": time.perf_counter() - t,
            }
        except EOFError:
            code = self.proc.wait()
            self.proc = None
            return {
                "table": table,
                "i": i,
                "outcome": "over memory or time" if code < 0 else "other exception",
                "detail": f"the worker died (exit code {code})",
                "seconds": time.perf_counter() - t,
            }

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None


def run_tables(package: str, memory: int, timeout: float, tag: str = "") -> list[dict]:
    worker = Worker(package, memory)
    n_hand, n_generated = worker.start()
    jobs = [("hand", i) for i in range(n_hand)] + [("generated", i) for i in range(n_generated)]
    rows = []
    try:
        for k, (table, i) in enumerate(jobs):
            row = worker.run(table, i, timeout)
            rows.append(row)
            print(
                f"{tag}{k + 1:5d}/{len(jobs)} {table:9} {row['outcome']:<20} "
                f"{row['seconds']:6.1f} s",
                file=sys.stderr,
                flush=True,
            )
    finally:
        worker.stop()
    return rows


def _commit(path: str) -> str:
    out = subprocess.run(
        ["git", "-C", path, "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    )
    return out.stdout.strip() or "unknown"


def _labels() -> tuple[list, list]:
    sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
    from fuzz_cases import CASES
    from fuzz_entry_points import all_cases

    return CASES, all_cases()


def _table(rows: list[dict], before: list[dict] | None, outcomes: tuple[str, ...]) -> list[str]:
    ca, cb = (
        Counter(r["outcome"] for r in rows),
        (Counter(r["outcome"] for r in before) if before else None),
    )
    lines = [
        "| outcome | " + ("before | " if before else "") + "after |",
        "|---|" + ("---:|" if before else "") + "---:|",
    ]
    for o in outcomes:
        lines.append(f"| {o} | " + (f"{cb[o]} | " if cb is not None else "") + f"{ca[o]} |")
    lines.append(
        "| total | " + (f"{sum(cb.values())} | " if cb is not None else "") + f"{len(rows)} |"
    )
    return lines


def render(meta: dict, after: list[dict], before: list[dict] | None) -> str:
    hand, generated = _labels()  # (puts tests/ on the path)
    from fuzz_cases import OUTCOMES

    good = ("clear error", "correct", "valid result")

    def part(rows: list[dict] | None, table: str) -> list[dict] | None:
        return None if rows is None else [r for r in rows if r["table"] == table]

    def label(r: dict) -> str:  # rows are matched by label: the tables may differ
        return str(r.get("label", ""))

    group_of = {c.label: c.group for c in hand}
    entry_of = {c.label: c.entry for c in hand} | {c.label: c.key for c in generated}
    bad_of = {
        c.label: c.bad.name if c.bad is not None else "(the minimal valid call)" for c in generated
    }

    lines = [
        "# Fuzz census: every public entry point",
        "",
        f"`{meta['command']}`, {meta['date']}, Python {meta['python']}."
        + (f" Before: {meta['before']}." if before else "")
        + f" After: {meta['after']}. {len(after)} calls, each in a worker process limited to "
        f"{meta['memory_gib']:g} GiB of address space and {meta['timeout']:g} s: "
        f"{sum(r['table'] == 'hand' for r in after)} of the hand-written table "
        "`tests/fuzz_cases.py` (independent expected values) and "
        f"{sum(r['table'] == 'generated' for r in after)} generated by "
        "`tests/fuzz_entry_points.py` (every public entry point's minimal valid call, and "
        "each argument given every bad value of its kind). A clear error is a ValueError "
        "or TypeError whose message names the argument in backticks and what was received "
        "(and, for the size limits, the memory estimate); a correct number is checked "
        "against an independent computation; a valid result is an accepted generated call "
        "without a NaN that no warning or reason explains.",
        "",
        "## Outcomes",
        "",
        *_table(after, before, OUTCOMES),
        "",
        "### The hand-written table",
        "",
        *_table(part(after, "hand"), part(before, "hand"), OUTCOMES),
        "",
        "### The generated cases",
        "",
        *_table(part(after, "generated"), part(before, "generated"), OUTCOMES),
        "",
        "## The hand-written table by group",
        "",
        "| group | cases | "
        + ("before: clear or correct | " if before else "")
        + "after: clear or correct |",
        "|---|---:|" + ("---:|" if before else "") + "---:|",
    ]
    groups = collections.OrderedDict()
    for r in part(after, "hand") or []:
        groups.setdefault(group_of.get(label(r), "?"), []).append(label(r))
    bh = {label(r): r for r in part(before, "hand") or []}
    ah = {label(r): r for r in part(after, "hand") or []}
    for g, idx in groups.items():
        a = sum(ah[i]["outcome"] in good for i in idx)
        b = sum(bh[i]["outcome"] in good for i in idx if i in bh) if before else None
        lines.append(f"| {g} | {len(idx)} | " + (f"{b} | " if b is not None else "") + f"{a} |")
    lines += [
        "",
        "## The generated cases by bad value",
        "",
        "| bad value | cases | "
        + ("before: clear or valid | " if before else "")
        + "after: clear or valid |",
        "|---|---:|" + ("---:|" if before else "") + "---:|",
    ]
    kinds = collections.defaultdict(list)
    for r in part(after, "generated") or []:
        kinds[bad_of.get(label(r), "?")].append(label(r))
    bg = {label(r): r for r in part(before, "generated") or []}
    ag = {label(r): r for r in part(after, "generated") or []}
    for k in sorted(kinds, key=lambda k: (-len(kinds[k]), k)):
        idx = kinds[k]
        a = sum(ag[i]["outcome"] in good for i in idx)
        b = sum(bg[i]["outcome"] in good for i in idx if i in bg) if before else None
        lines.append(f"| {k} | {len(idx)} | " + (f"{b} | " if b is not None else "") + f"{a} |")
    bad_after = [r for r in after if r["outcome"] not in good]
    lines += ["", "## Cases not clear, correct or valid after the fixes", ""]
    if not bad_after:
        lines.append("None.")
    for r in bad_after:
        lines.append(f"- {label(r)}: {r['outcome']}, {_cell(r['detail'])}")
    if before:
        failing = [r for r in before if r["outcome"] not in good]
        lines += [
            "",
            "## Before the fixes: the failing cases by entry point",
            "",
            "| entry point | failing before | of which silent NaN or wrong | an example |",
            "|---|---:|---:|---|",
        ]
        by_entry = collections.OrderedDict()
        for r in failing:
            by_entry.setdefault(entry_of.get(label(r), "?"), []).append(r)
        for key, rs in by_entry.items():
            silent = sum(r["outcome"] == "silent NaN or wrong" for r in rs)
            example = next((r for r in rs if r["outcome"] == "silent NaN or wrong"), rs[0])
            text = _cell(f"{label(example)}: {example['outcome']}, {example['detail']}")
            lines.append(f"| {key} | {len(rs)} | {silent} | {text} |")
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")[:200]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", help="a checkout of the code before the fixes")
    parser.add_argument("--memory", type=int, default=4 * 2**30, help="bytes of address space")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per case")
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--render", action="store_true", help="the Markdown from the rows")
    args = parser.parse_args()
    if args.render:
        saved = json.loads(ROWS.read_text())
        RESULT.write_text(render(saved["meta"], saved["after"], saved["before"]))
        return
    # the two checkouts side by side, each in its own worker process
    with ThreadPoolExecutor(max_workers=2) as pool:
        later = (
            pool.submit(run_tables, args.before, args.memory, args.timeout, "before ")
            if args.before
            else None
        )
        after = pool.submit(run_tables, str(ROOT), args.memory, args.timeout, "after ").result()
        before = later.result() if later is not None else None
    meta = {
        "command": "PYTHONPATH=. python benchmarks/fuzz_census.py"
        + (" --before <checkout>" if args.before else "")
        + " --write",
        "date": time.strftime("%Y-%m-%d"),
        "python": platform.python_version(),
        "before": f"opsstats at commit {_commit(args.before)}" if args.before else None,
        "after": f"opsstats at commit {_commit(str(ROOT))}",
        "memory_gib": args.memory / 2**30,
        "timeout": args.timeout,
    }
    if args.write:  # the rows first: the Markdown can be rendered again from them
        ROWS.write_text(json.dumps({"meta": meta, "after": after, "before": before}) + "\n")
    text = render(meta, after, before)
    print(text)
    if args.write:
        RESULT.write_text(text)


if __name__ == "__main__":
    main()
