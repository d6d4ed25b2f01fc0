"""Progress bars on stderr for the operations that can take more than a few seconds.

The operations with a bar: a pass over a streamed curve reference's curves (the default
DBT reference's 100,000 curves, binormal curves), bootstrap and Dirichlet draws (of a
confusion matrix, a curve, the best threshold, a comparison of classifiers, a
multi-label aggregate), the groups of ``evaluate`` (and so of ``opsstats report``) and
the prevalences of ``ops_prevalence_profile``.
While one bar is open, the operations inside it draw none of their own.

One switch, the environment variable ``OPSSTATS_PROGRESS`` (read when a bar would
start, so that ``os.environ["OPSSTATS_PROGRESS"] = "0"`` works inside Python too):

``auto`` (or unset, the default)
    a bar when stderr is a terminal, drawn once the operation has run for
    :data:`DELAY` seconds: quick calls print nothing, and nothing is written to a
    file, a pipe or a notebook's stderr;
``0``
    never;
``1``
    always, from the start, wherever stderr goes.

The functions that take ``progress=`` (the interval and OPS methods of
``ConfusionMatrix`` and ``ScoreCurve``, ``MultiLabel.ops``) override it for one call:
``True`` draws the bar from the start, ``False`` draws none, ``None`` (their default)
leaves it to ``OPSSTATS_PROGRESS``.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import numpy as np

from ._validation import describe

__all__ = ["DELAY", "VARIABLE", "progress", "counted", "progress_setting", "check_progress"]

T = TypeVar("T")

#: the environment variable that switches the bars
VARIABLE = "OPSSTATS_PROGRESS"

#: seconds an operation runs before its bar appears (``auto``)
DELAY = 1.0

_SETTINGS = ("auto", "0", "1")
_REDRAW = 0.1  # seconds between two drawings of a bar
_WIDTH = 30  # characters of the bar itself; a line stays within 100 columns
_LABEL = 40  # characters of the label at most

_open_bars = 0  # bars open in this process: only the outermost one draws
_open_lock = threading.Lock()


def progress_setting() -> str:
    """``OPSSTATS_PROGRESS``: ``"auto"`` (also when unset or empty), ``"0"`` or ``"1"``.

    Raises
    ------
    ValueError
        If the variable holds anything else.
    """
    value = os.environ.get(VARIABLE, "") or "auto"
    if value not in _SETTINGS:
        raise ValueError(
            f"The environment variable {VARIABLE} must be 'auto', '0' or '1'; got {value!r}."
        )
    return value


def check_progress(value: Any) -> bool | None:
    """The ``progress=`` argument: True, False or None."""
    if value is not None and not isinstance(value, bool | np.bool_):
        raise TypeError(f"`progress` must be True, False or None; got {describe(value)}.")
    return None if value is None else bool(value)


def _stderr_is_terminal() -> bool:
    try:
        return bool(sys.stderr.isatty())
    except (AttributeError, ValueError):  # replaced by an object without it, or closed
        return False


class _Bar:
    """One bar: ``label [#####-----] done/total, elapsed, time left``, redrawn in place."""

    def __init__(self, total: int, label: str, delay: float) -> None:
        self.total = total
        self.label = label if len(label) <= _LABEL else label[: _LABEL - 1] + "…"
        self.delay = delay
        self.start = time.monotonic()
        self.done = 0
        self.drawn: float | None = None  # when it was last drawn
        self.drawn_done = -1  # and at how many items
        self.width = 0  # of the line drawn last, to blank what a shorter line leaves
        self.lock = threading.Lock()
        if delay <= 0:
            self._draw(self.start)

    def tick(self, k: int = 1) -> None:
        with self.lock:
            self.done += k
            now = time.monotonic()
            if now - self.start < self.delay:
                return
            if self.drawn is not None and now - self.drawn < _REDRAW and self.done < self.total:
                return
            self._draw(now)

    def close(self) -> None:
        with self.lock:
            if self.drawn is not None:
                if self.drawn_done != self.done:
                    self._draw(time.monotonic())
                sys.stderr.write("\n")
                sys.stderr.flush()

    def _draw(self, now: float) -> None:
        done = min(self.done, self.total)
        filled = _WIDTH * done // self.total
        elapsed = now - self.start
        line = f"{self.label} [{'#' * filled}{'-' * (_WIDTH - filled)}] {done}/{self.total}"
        line += f", {elapsed:.0f} s"
        if 0 < done < self.total:
            line += f", about {elapsed * (self.total - done) / done:.0f} s left"
        sys.stderr.write("\r" + line.ljust(self.width))
        sys.stderr.flush()
        self.width = len(line)
        self.drawn, self.drawn_done = now, self.done


def _ignore(k: int = 1) -> None:
    return None


@contextmanager
def progress(total: int, enabled: bool | None, label: str) -> Iterator[Callable[..., None]]:
    """A progress bar on stderr over ``total`` items:
    ``with progress(n, None, "bootstrap") as tick:`` then ``tick(k)`` after k more items
    (from any thread).

    ``enabled``: True draws it from the start, False not at all, None as
    ``OPSSTATS_PROGRESS`` says (see the module's docstring). Inside another open bar
    it draws nothing.

    Examples
    --------
    >>> import contextlib, io
    >>> from opsstats._progress import progress
    >>> err = io.StringIO()
    >>> with contextlib.redirect_stderr(err):
    ...     with progress(4, True, "draws") as tick:
    ...         tick(2)
    ...         tick(2)
    >>> print(err.getvalue().split("\\r")[-1].strip())  # doctest: +ELLIPSIS
    draws [##############################] 4/4, ... s
    """
    global _open_bars
    enabled = check_progress(enabled)
    if enabled is None:
        setting = progress_setting()
        show = setting == "1" or (setting == "auto" and _stderr_is_terminal())
        delay = DELAY if setting == "auto" else 0.0
    else:
        show, delay = bool(enabled), 0.0
    with _open_lock:
        outermost = _open_bars == 0
        _open_bars += 1
    try:
        if not (show and outermost and total > 0):
            yield _ignore
            return
        bar = _Bar(total, label, delay)
        try:
            yield bar.tick
        finally:
            bar.close()
    finally:
        with _open_lock:
            _open_bars -= 1


def counted(items: Iterable[T], total: int, label: str) -> Iterator[T]:
    """The items of ``items`` (``total`` of them), with a bar over them as
    :func:`progress` draws it for ``enabled=None``, ticked as each next item is asked
    for: ``for key in counted(keys, len(keys), "evaluate, groups"):``. No bar over fewer
    than two items: the bars of the work inside the one item are drawn instead.
    """
    if total < 2:
        yield from items
        return
    with progress(total, None, label) as tick:
        for item in items:
            yield item
            tick()
