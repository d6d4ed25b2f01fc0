"""Writing the outputs whole or not at all, and running a command: warnings as one line
each, every failure one line and an exit status."""

from __future__ import annotations

import argparse
import contextlib
import os
import stat
import sys
import tempfile
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from .._summary import printable
from ..exceptions import UndefinedMetricWarning
from ._arguments import (
    EXIT_ERROR,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_OK,
    CommandError,
    flag_names,
    one_line,
)

# ---------------------------------------------------------------------------------------
# writing the outputs


@dataclass(frozen=True)
class Output:
    """What a subcommand made: the report as text (for stdout or ``--output``) and,
    for ``--plot``, a function drawing the figure on a matplotlib ``Figure``."""

    text: str
    draw: Callable[[Any], None] | None = None
    #: Other files by option (e.g. ``"--html"``): a function making each one's bytes,
    #: written whole or not at all with the others.
    files: Mapping[str, Callable[[], bytes]] = field(default_factory=dict)


def _check_target(option: str, path: str, *, figure: bool = False) -> Path:
    if not path:
        raise CommandError(f"{option}: the file name is empty")
    p = Path(path)
    if p.is_dir() or path.endswith(("/", os.sep)):
        raise CommandError(
            f"{option} {path} is a directory; give a file name, e.g. {p / 'report.png'}"
            if figure
            else f"{option} {path} is a directory; give a file name"
        )
    if p.exists() and not p.is_file():
        raise CommandError(f"{option} {path} is not a regular file")
    target = Path(os.path.realpath(p))  # through symbolic links: the link is kept
    if not target.parent.is_dir():
        raise CommandError(f"{option} {path}: no such directory: {target.parent}")
    if not os.access(target.parent, os.W_OK | os.X_OK):
        raise CommandError(f"{option} {path}: cannot write in {target.parent}")
    if figure:
        from matplotlib.backend_bases import FigureCanvasBase

        supported = sorted(FigureCanvasBase.get_supported_filetypes())
        suffix = target.suffix.lower().lstrip(".")
        if suffix not in supported:
            raise CommandError(
                f"{option} {path}: the file name must end in the format's extension "
                f"({', '.join('.' + s for s in supported)}), e.g. {p.stem or 'report'}.png"
            )
    return target


def check_outputs(args: argparse.Namespace, inputs: Sequence[str] = ()) -> dict[str, Path]:
    """The output files of ``--plot`` and ``--output``, checked before any work is done:
    not a directory, in an existing writable folder, not an input file, not each other;
    a figure's name ends in a format matplotlib writes."""
    targets: dict[str, Path] = {}
    if getattr(args, "plot", None) is not None:
        targets["--plot"] = _check_target("--plot", args.plot, figure=True)
    if getattr(args, "output", None) is not None:
        targets["--output"] = _check_target("--output", args.output)
    if getattr(args, "html", None) is not None:
        targets["--html"] = _check_target("--html", args.html)
    if len(set(targets.values())) < len(targets):
        raise CommandError(f"{' and '.join(targets)} name the same file")
    for name in inputs:
        if name and Path(name).exists():
            for option, target in targets.items():
                if target.exists() and os.path.samefile(name, target):
                    raise CommandError(f"{option} {target} is the input file")
    return targets


class StagedFiles:
    """Files written whole or not at all: each is written to a temporary file in its
    target's folder, and :meth:`commit` renames them over their targets (atomic on one
    file system). Leaving the ``with`` block without a commit, by an error or Ctrl-C,
    removes every temporary file: no half-written file is ever left, and an existing
    target is unchanged. A replaced file keeps its permissions; a new one gets those
    of the umask."""

    def __init__(self) -> None:
        self._staged: list[tuple[str, Path]] = []

    def __enter__(self) -> StagedFiles:
        return self

    def __exit__(self, *exc: object) -> None:
        self.discard()

    def write(self, target: Path, writer: Callable[[IO[bytes]], object]) -> None:
        """Write ``target``'s future content with ``writer(binary_file)``."""
        try:
            fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
        except OSError as exc:
            raise CommandError(f"cannot write {target}: {exc.strerror or exc}") from None
        try:
            with os.fdopen(fd, "wb") as f:
                writer(f)
                f.flush()
                os.fsync(f.fileno())
            os.chmod(tmp, _mode(target))
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        self._staged.append((tmp, target))

    def commit(self) -> None:
        """Rename every temporary file over its target."""
        while self._staged:
            tmp, target = self._staged[0]
            try:
                os.replace(tmp, target)
            except OSError as exc:
                raise CommandError(f"cannot write {target}: {exc.strerror or exc}") from None
            self._staged.pop(0)

    def discard(self) -> None:
        """Remove the temporary files not yet renamed."""
        for tmp, _ in self._staged:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        self._staged.clear()


def _mode(target: Path) -> int:
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _save_figure(draw: Callable[[Any], None], target: Path, staged: StagedFiles) -> None:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7, 4.5), layout="constrained")  # room for legends below the Axes
    try:
        draw(fig)
    except (ValueError, TypeError) as exc:  # say which output failed
        raise CommandError(f"--plot: {one_line(exc)}") from None
    fmt = target.suffix.lower().lstrip(".")

    def save(f: IO[bytes]) -> None:
        try:
            fig.savefig(f, format=fmt, dpi=150, bbox_inches="tight")
        except Exception as exc:  # e.g. .pgf without LaTeX, an image too large
            raise CommandError(f"--plot: cannot write the figure: {one_line(exc)}") from None

    staged.write(target, save)


def _writer(content: bytes) -> Callable[[IO[bytes]], object]:
    return lambda f: f.write(content)


def write_outputs(output: Output, targets: Mapping[str, Path]) -> str | None:
    """Write the figure (``--plot``) and the report (``--output``) whole or not at all;
    return the text for stdout (None when it went to ``--output``)."""
    text = output.text if output.text.endswith("\n") else output.text + "\n"
    with StagedFiles() as staged:
        if "--plot" in targets:
            if output.draw is None:
                raise CommandError("--plot: this command draws no figure")
            _save_figure(output.draw, targets["--plot"], staged)
        if "--output" in targets:
            data = text.encode("utf-8")
            staged.write(targets["--output"], lambda f: f.write(data))
        for option, make in output.files.items():
            if option in targets:
                staged.write(targets[option], _writer(make()))
        staged.commit()
    return None if "--output" in targets else text


# ---------------------------------------------------------------------------------------
# running a command


@contextlib.contextmanager
def collect_warnings() -> Iterator[list[str]]:
    """Warnings raised inside, each message once, as one line (:func:`one_line`), whatever
    the filters of the caller (``-W error`` included); rows left undefined are not warned
    about (the report gives their reasons)."""
    shown: list[str] = []

    def show(message: Any, *args: Any, **kwargs: Any) -> None:
        line = flag_names(one_line(message))
        if line not in shown:
            shown.append(line)

    with warnings.catch_warnings():
        # every warning shown (never turned into an error by the caller's filters)...
        warnings.simplefilter("always")
        # ...but the undefined rows, whose reasons the report gives (checked first)
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        warnings.showwarning = show
        yield shown


def run_command(build: Callable[[argparse.Namespace], Output], args: argparse.Namespace) -> int:
    """Run a subcommand's ``build(args)`` and write what it returns; return the exit
    status. On failure nothing is printed on stdout and no output file is written: one
    line goes to stderr (``opsstats: error: ...``, status 2; ``opsstats: interrupted``,
    status 130 for Ctrl-C; an internal error, status 3). On success, warnings go to
    stderr, one line each (``opsstats: warning: ...``), then the report to stdout. The
    library's argument names in messages are written as the options that give them
    (:func:`flag_names`)."""
    try:
        with collect_warnings() as shown:
            targets = check_outputs(args, [getattr(args, "file", "")])
            output = build(args)
            text = write_outputs(output, targets)
        for line in shown:
            print(f"opsstats: warning: {line}", file=sys.stderr)
        if text is not None:
            sys.stdout.write(text)
            sys.stdout.flush()
        if "--plot" in targets:
            print(f"figure written to {printable(args.plot)}", file=sys.stderr)
        if "--html" in targets:
            print(f"report written to {printable(args.html)}", file=sys.stderr)
    except KeyboardInterrupt:
        print("opsstats: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # e.g. `opsstats report ... | head`: the reader left
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except MemoryError:
        print(
            "opsstats: error: not enough memory (fewer --n-resamples, or a smaller file)",
            file=sys.stderr,
        )
        return EXIT_ERROR
    except (CommandError, ValueError, TypeError, KeyError, OverflowError, OSError) as exc:
        print(
            f"opsstats: error: {flag_names(one_line(exc)) or type(exc).__name__}",
            file=sys.stderr,
        )
        return EXIT_ERROR
    except Exception as exc:  # never a traceback; say it is ours
        print(
            f"opsstats: internal error ({type(exc).__name__}: {one_line(exc)}); please report it",
            file=sys.stderr,
        )
        return EXIT_INTERNAL
    return EXIT_OK
