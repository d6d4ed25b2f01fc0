"""The README's two commands in a fresh virtual environment, timed, and what they install.

Design: the committed tree (``git archive HEAD``) is unpacked into a temporary folder, a
new virtual environment is made with the ``python3`` on PATH, and the README's Quick
start is run there as a newcomer types it, with pip's cache off:

1. ``pip install .`` then ``opsstats example``;
2. ``pip install ".[test]"`` then ``python -m pytest -q`` (the default suite with
   doctests; PySpark and Dask are not installed, so their tests are skipped, saying why);
3. ``pip install ".[engines]"`` (what CI adds: PySpark and Dask), size only.

For each step: the wall-clock time, the CPU time of its processes (user + system, which
depends less on the other work of a shared machine) and the load average before it; the
size of the environment (``du -sh``) after steps 1, 2 and 3; pytest's closing line.
Downloads come from the package index (and the machine's local wheel folder, where pip
is configured with one), so install times depend on the network.

Cost: the default suite once (about 5 to 15 minutes on two cores) plus the installs.

    python benchmarks/fresh_install.py            # writes benchmarks/results/fresh_install.md
    python benchmarks/fresh_install.py --out -    # prints it
    python benchmarks/fresh_install.py --log /tmp/fresh.log   # keeps every command's output
    python benchmarks/fresh_install.py --skip-tests   # the installs only
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _du(path: Path) -> str:
    return subprocess.run(
        ["du", "-sh", str(path)], capture_output=True, text=True, check=True
    ).stdout.split()[0]


def _run(
    command: str, cwd: Path, env: dict[str, str], log: Path | None
) -> tuple[float, float, float, str]:
    """Run ``command`` in a shell; (wall s, CPU s, load before, output's last line); its
    output appended to ``log`` when given."""
    load = os.getloadavg()[0]
    cpu, start = _children_cpu(), time.perf_counter()
    run = subprocess.run(
        command, shell=True, cwd=cwd, env=env, capture_output=True, text=True, check=False
    )
    wall, cpu = time.perf_counter() - start, _children_cpu() - cpu
    lines = (run.stdout + run.stderr).strip().splitlines()
    if log is not None:
        with log.open("a", encoding="utf-8") as f:
            f.write(f"$ {command}\n" + "\n".join(lines) + "\n")
    if run.returncode != 0:
        sys.exit(f"{command!r} exited {run.returncode}:\n" + "\n".join(lines[-30:]))
    return wall, cpu, load, lines[-1] if lines else ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "benchmarks/results/fresh_install.md"))
    parser.add_argument("--log", help="a file to append every command's output to")
    parser.add_argument(
        "--skip-tests", action="store_true", help="the installs only, without the suite's run"
    )
    args = parser.parse_args()
    log = Path(args.log) if args.log else None
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    with tempfile.TemporaryDirectory(prefix="opsstats-fresh-") as tmp:
        src, venv = Path(tmp) / "src", Path(tmp) / "venv"
        src.mkdir()
        subprocess.run(f"git -C {ROOT} archive HEAD | tar -x -C {src}", shell=True, check=True)
        subprocess.run(["python3", "-m", "venv", str(venv)], check=True)
        env = {
            k: v
            for k, v in os.environ.items()
            if k not in ("PYTHONPATH", "OPSSTATS_REQUIRE_ENGINES", "VIRTUAL_ENV")
        }
        env.update(
            PATH=f"{venv / 'bin'}:{env['PATH']}",
            VIRTUAL_ENV=str(venv),
            PIP_NO_CACHE_DIR="1",
        )
        steps = [
            ("pip install .", "install"),
            ("opsstats example", "run"),
            ('pip install ".[test]"', "install"),
            ("python -m pytest -q", "run"),
            ('pip install ".[engines]"', "install"),
        ]
        if args.skip_tests:
            steps = [step for step in steps if "pytest" not in step[0]]
        rows, sizes = [], {}
        for command, _ in steps:
            wall, cpu, load, last = _run(command, src, env, log)
            rows.append((command, wall, cpu, load, last))
            print(f"{command}: {wall:.0f} s wall, {cpu:.0f} s CPU (load {load:.1f})", flush=True)
            if command.startswith("pip install"):
                sizes[command] = _du(venv)
        python = subprocess.run(
            [str(venv / "bin/python"), "--version"], capture_output=True, text=True
        ).stdout.strip()
    lines = [
        "# The README's commands in a fresh virtual environment",
        "",
        f"`python benchmarks/fresh_install.py` at commit {commit}: {python}, "
        f"{platform.machine()}, {os.cpu_count()} cores, a shared machine (load average "
        "before each step below); pip's cache off.",
        "",
        "| command | wall clock | CPU (user + system) | load before | environment after |",
        "|---|---|---|---|---|",
    ]
    for command, wall, cpu, load, _ in rows:
        size = sizes.get(command, "")
        lines.append(f"| `{command}` | {wall:.0f} s | {cpu:.0f} s | {load:.1f} | {size} |")
    tests = [last for command, *_, last in rows if "pytest" in command]
    if tests:
        lines += ["", f"pytest's closing line: `{tests[0].strip('= ')}`"]
    else:
        lines += ["", "The suite was not run (`--skip-tests`)."]
    lines.append("")
    text = "\n".join(lines)
    if args.out == "-":
        print(text)
    else:
        Path(args.out).write_text(text, encoding="utf-8")
        print(text)


if __name__ == "__main__":
    main()
