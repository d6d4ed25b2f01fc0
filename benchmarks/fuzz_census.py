"""Census of the fuzz cases of issue 17: how many calls of the table end in each outcome.

Runs every case of ``benchmarks/fuzz_cases.py`` (the table ``tests/test_fuzz_api.py``
asserts) and counts the outcomes: a clear ``ValueError``/``TypeError`` naming the
argument and what was received; a correct number (checked against an independent
computation); an unhelpful error; another exception; a silent NaN or wrong value; over
memory or time. Each case runs in a worker process whose address space is limited
(``--memory``, default 4 GiB: a call that tries to allocate tens of GB fails there with
``MemoryError`` instead of taking the machine) and which is stopped after ``--timeout``
seconds (a hang), then restarted for the next case.

``--before PATH`` runs the same table first against the package in ``PATH`` (a checkout
of the code before the fixes, e.g. ``git worktree add /tmp/h17-before <commit>``), so
the two censuses can be compared. Run from the repository root::

    PYTHONPATH=. python benchmarks/fuzz_census.py [--before /tmp/h17-before] [--write]

``--write`` writes ``benchmarks/results/fuzz_census.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import selectors
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULT = ROOT / "benchmarks" / "results" / "fuzz_census.md"

WORKER = r"""
import json, resource, sys, time, warnings
package, root, limit = sys.argv[1], sys.argv[2], int(sys.argv[3])
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
sys.path[:0] = [package, root]
warnings.simplefilter("ignore")
from benchmarks.fuzz_cases import CASES, classify
print(json.dumps({"ready": len(CASES)}), flush=True)
for line in sys.stdin:
    i = int(line)
    t = time.perf_counter()
    try:
        outcome, detail = classify(CASES[i])
    except MemoryError as exc:  # outside the call (building a message, say)
        outcome, detail = "over memory or time", f"MemoryError: {exc}"
    print(json.dumps({"i": i, "outcome": outcome, "detail": detail,
                      "seconds": time.perf_counter() - t}), flush=True)
"""


class Worker:
    """A subprocess running cases one at a time, restarted after a timeout or a crash."""

    def __init__(self, package: str, memory: int) -> None:
        self.package, self.memory = package, memory
        self.proc: subprocess.Popen | None = None

    def start(self) -> int:
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
        return int(json.loads(self._read(600.0))["ready"])

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

    def run(self, i: int, timeout: float) -> dict:
        if self.proc is None or self.proc.poll() is not None:
            self.start()
        assert self.proc is not None and self.proc.stdin is not None
        t = time.perf_counter()
        self.proc.stdin.write(f"{i}\n")
        self.proc.stdin.flush()
        try:
            return json.loads(self._read(timeout))
        except TimeoutError:
            self.stop()
            return {
                "i": i,
                "outcome": "over memory or time",
                "detail": f"stopped after {timeout:.0f} s",
                "seconds": time.perf_counter() - t,
            }
        except EOFError:
            code = self.proc.wait()
            self.proc = None
            return {
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


def run_table(package: str, memory: int, timeout: float) -> list[dict]:
    worker = Worker(package, memory)
    n = worker.start()
    rows = []
    try:
        for i in range(n):
            row = worker.run(i, timeout)
            rows.append(row)
            print(
                f"{i + 1:4d}/{n} {row['outcome']:<20} {row['seconds']:6.1f} s",
                file=sys.stderr,
                flush=True,
            )
    finally:
        worker.stop()
    return rows


def _counts(rows: list[dict]) -> Counter:
    return Counter(r["outcome"] for r in rows)


def _commit(path: str) -> str:
    out = subprocess.run(
        ["git", "-C", path, "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    )
    return out.stdout.strip() or "unknown"


def render(after: list[dict], before: list[dict] | None, args: argparse.Namespace) -> str:
    sys.path.insert(0, str(ROOT))
    from benchmarks.fuzz_cases import CASES, OUTCOMES

    lines = [
        "# Fuzz census (issue 17)",
        "",
        "`PYTHONPATH=. python benchmarks/fuzz_census.py"
        + (f" --before {args.before}" if before else "")
        + f" --write`, {time.strftime('%Y-%m-%d')}, Python {platform.python_version()}. "
        + (
            f" Before: the checkout at {args.before} (commit {_commit(args.before)})."
            if before
            else ""
        )
        + f" {len(CASES)} calls of `benchmarks/fuzz_cases.py` (the table `tests/test_fuzz_api.py` "
        f"asserts), each in a worker process limited to {args.memory / 2**30:g} GiB of "
        f"address space and {args.timeout:g} s. A clear error is a ValueError or TypeError "
        "whose message names the argument in backticks and what was received (and, for "
        "the size limits, the memory estimate); a correct number is checked against an "
        "independent computation (scikit-learn, exact integer or Fraction arithmetic, a "
        "50-digit integral, the single-threaded numbers).",
        "",
        "## Outcomes",
        "",
        "| outcome | " + ("before | " if before else "") + "after |",
        "|---|" + ("---:|" if before else "") + "---:|",
    ]
    ca, cb = _counts(after), _counts(before) if before else None
    for o in OUTCOMES:
        lines.append(f"| {o} | " + (f"{cb[o]} | " if cb is not None else "") + f"{ca[o]} |")
    lines.append(
        "| total | "
        + (f"{sum(cb.values())} | " if cb is not None else "")
        + f"{sum(ca.values())} |"
    )
    lines += ["", "## By item of the issue (0: the entry points' ordinary cases)", ""]
    lines.append(
        "| item | cases | "
        + ("before: clear or correct | " if before else "")
        + "after: clear or correct |"
    )
    lines.append("|---:|---:|" + ("---:|" if before else "") + "---:|")
    good = ("clear error", "correct")
    for item in sorted({c.item for c in CASES}):
        idx = [i for i, c in enumerate(CASES) if c.item == item]
        a = sum(after[i]["outcome"] in good for i in idx)
        b = sum(before[i]["outcome"] in good for i in idx) if before else None
        lines.append(f"| {item} | {len(idx)} | " + (f"{b} | " if b is not None else "") + f"{a} |")
    bad_after = [i for i, r in enumerate(after) if r["outcome"] not in good]
    lines += ["", "## Cases not clear or correct after the fixes", ""]
    if not bad_after:
        lines.append("None.")
    for i in bad_after:
        lines.append(f"- {CASES[i].label}: {after[i]['outcome']}, {after[i]['detail']}")
    if before:
        lines += ["", "## Before the fixes: what each failing case did", ""]
        lines.append("| case | outcome before | detail |")
        lines.append("|---|---|---|")
        for i, r in enumerate(before):
            if r["outcome"] not in good:
                detail = r["detail"].replace("|", "\\|").replace("\n", " ")[:160]
                lines.append(f"| {CASES[i].label} | {r['outcome']} | {detail} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", help="a checkout of the code before the fixes")
    parser.add_argument("--memory", type=int, default=4 * 2**30, help="bytes of address space")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per case")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    before = run_table(args.before, args.memory, args.timeout) if args.before else None
    after = run_table(str(ROOT), args.memory, args.timeout)
    text = render(after, before, args)
    print(text)
    if args.write:
        RESULT.write_text(text)


if __name__ == "__main__":
    main()
