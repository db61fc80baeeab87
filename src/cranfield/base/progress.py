"""Progress bars for long work, on standard error, through rich.

A bar is shown only when standard error is a terminal, progress is not switched off
(``--quiet`` on the command line, :func:`set_enabled` in Python, or the environment variable
``CRANFIELD_PROGRESS=0``) and the work is still running :data:`DELAY` seconds after it
started: short work never draws anything, and rich is imported only when a bar appears.
Bars are transient (erased when the work ends); nested work (the runs of a report, then each
randomization test) shows one line per level.  Nothing here changes any result.

Call sites wrap a loop in one line::

    for source in progress.track(sources, "runs"):
        ...

A bar names its work: :func:`named` prefixes the bars opened inside it (``AP:
randomization test``, one per measure of a comparison); a large run read in pieces counts
its lines (``lines=True``), also in worker processes, whose counts the parent shows
(:func:`follow`) while it waits for their results.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

__all__ = ["DELAY", "Task", "enabled", "follow", "named", "set_enabled", "task", "track"]

T = TypeVar("T")

DELAY = 0.5
"""Seconds of work before a bar appears."""

_setting: bool | None = None  # None: on when standard error is a terminal
_lock = threading.RLock()
_open: list[Task] = []  # the tasks running now, outermost first
_display: Any = None  # the rich Progress while a bar is shown
_CONTROLS = {c: f"\\x{c:02x}" for c in (*range(32), *range(127, 160))}
_prefixes: list[str] = []  # the names given by named(), outermost first
_remote: Any = None  # in a worker process: the shared counter of lines read (the parent shows it)


def set_enabled(on: bool | None) -> None:
    """Switch progress bars on (``True``: still only on a terminal), off (``False``), or back
    to the default (``None``: on unless ``CRANFIELD_PROGRESS=0``)."""
    global _setting
    _setting = on


def enabled() -> bool:
    """Whether a long task would show a bar now."""
    if _setting is False:
        return False
    if _setting is None and os.environ.get("CRANFIELD_PROGRESS", "").strip() == "0":
        return False
    stream = sys.stderr
    try:
        return stream is not None and stream.isatty()
    except (AttributeError, ValueError, OSError):  # closed or not a real stream
        return False


class Task:
    """One piece of long work: ``advance`` it as parts are done (``total`` parts, or an open
    count when ``total`` is None)."""

    def __init__(self, description: str, total: float | None) -> None:
        self.description = description
        self.total = total
        self.done = 0.0
        self.started = time.monotonic()
        self._id: Any = None  # the rich task id once shown

    def advance(self, amount: float = 1) -> None:
        self.done += amount
        display = _display
        if display is not None and self._id is not None:
            display.update(self._id, completed=self.done)
        elif time.monotonic() - self.started >= DELAY:
            _show()

    def expect(self, amount: float = 1) -> None:
        """``amount`` more parts to do (work whose size grows as it is handed out)."""
        self.total = (self.total or 0) + amount
        display = _display
        if display is not None and self._id is not None:
            display.update(self._id, total=self.total)


class _Quiet(Task):
    """A task that shows nothing (progress off, or not a terminal)."""

    def advance(self, amount: float = 1) -> None:
        pass

    def expect(self, amount: float = 1) -> None:
        pass


class _Counted(_Quiet):
    """Lines read in a worker process: added to the counter the parent shows."""

    def __init__(self, description: str, counter: Any) -> None:
        super().__init__(description, None)
        self.counter = counter

    def advance(self, amount: float = 1) -> None:
        with self.counter.get_lock():
            self.counter.value += int(amount)


def in_worker(counter: Any) -> None:
    """This process is a worker of a pool: it draws no bar, and adds the lines it reads to
    ``counter`` (a ``multiprocessing.Value``), which the parent shows (:func:`follow`)."""
    global _remote
    _remote = counter


@contextmanager
def named(name: str) -> Iterator[None]:
    """Bars opened inside are named ``NAME: description`` (the measure of a comparison whose
    tests run one measure after the other)."""
    _prefixes.append(name)
    try:
        yield
    finally:
        _prefixes.pop()


@contextmanager
def follow(counter: Any, description: str, every: float = 0.25) -> Iterator[None]:
    """A bar of the count in ``counter`` (lines the worker processes read), updated every
    ``every`` seconds while the block runs."""
    if counter is None:
        yield
        return
    with task(description) as t:
        stop = threading.Event()

        def poll() -> None:
            while not stop.wait(every):
                value = counter.value
                if value > t.done:
                    t.advance(value - t.done)

        thread = threading.Thread(target=poll, daemon=True)
        thread.start()
        try:
            yield
        finally:
            stop.set()
            thread.join()
            if counter.value > t.done:  # the last lines counted
                t.advance(counter.value - t.done)


def _show() -> None:
    """Start the display (if not shown yet) and add every open task to it; a display that
    fails switches progress off, never the work."""
    global _setting
    try:
        _start()
    except Exception:  # a progress bar is never worth an error
        _setting = False


def _start() -> None:
    global _display
    with _lock:
        if not _open or _setting is False:
            return
        if _display is None:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                SpinnerColumn,
                TextColumn,
                TimeElapsedColumn,
            )

            _display = Progress(
                SpinnerColumn(),
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=Console(file=sys.stderr),
                transient=True,
            )
            _display.start()
        from rich.markup import escape

        for t in _open:
            if t._id is None:
                shown = escape(t.description.translate(_CONTROLS))  # file names are no markup
                t._id = _display.add_task(shown, total=t.total, completed=t.done)


def _stop(t: Task) -> None:
    global _display
    with _lock:
        if t in _open:
            _open.remove(t)
        if _display is None:
            return
        try:
            if t._id is not None:
                _display.remove_task(t._id)
            if not _open:
                display, _display = _display, None
                display.stop()
        except Exception:  # a progress bar is never worth an error
            _display = None


@contextmanager
def task(description: str, total: float | None = None, *, lines: bool = False) -> Iterator[Task]:
    """A :class:`Task` for the ``with`` block; a bar appears if it lasts :data:`DELAY`.
    ``lines``: it counts the lines of a run read, which a worker process reports to its
    parent instead of drawing a bar."""
    description = ": ".join([*_prefixes, description])
    if _remote is not None:  # a worker process: no bar of its own
        yield _Counted(description, _remote) if lines else _Quiet(description, total)
        return
    if not enabled():
        yield _Quiet(description, total)
        return
    t = Task(description, total)
    with _lock:
        _open.append(t)
    timer = threading.Timer(DELAY, _show)
    timer.daemon = True
    timer.start()
    try:
        yield t
    finally:
        timer.cancel()
        _stop(t)


def track(
    items: Iterable[T],
    description: str,
    *,
    total: float | None = None,
    size: Callable[[T], float] | None = None,
) -> Iterator[T]:
    """The items of ``items``, advancing a bar after each (by ``size(item)``, default 1);
    ``total`` defaults to the sum of the sizes of a list or tuple (its length)."""
    if total is None and isinstance(items, list | tuple):
        total = len(items) if size is None else sum(map(size, items))
    with task(description, total) as t:
        for item in items:
            yield item
            t.advance(1 if size is None else size(item))
