"""Calls of the compiled core made ahead, on a thread of its own, while the command imports what
it needs (the core works without the GIL; the imports hold it): ``cranfield trec_eval`` reads
its qrels file there (:func:`start`), then judges the first pieces of its run against them
(:func:`judge_run`); the reader and the judging pass take those results instead of making them
again (:func:`take`, :func:`judged_run`).

Only a regular file of at most :data:`AHEAD_BYTES` is read ahead (its bytes are held twice for
a moment), and at most :data:`AHEAD_PIECES` pieces of a run are judged ahead. What fails ahead
is left to the caller, which fails as it would have. A result is taken only for the same call
on bytes equal to those the caller hands the core, and a run's pass only for the same qrels,
options and file (device and inode); each is taken once.
"""

from __future__ import annotations

import os
import stat
import threading
from collections import deque
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["AHEAD_BYTES", "AHEAD_PIECES", "JudgedAhead", "judge_run", "judged_run", "start", "take"]

AHEAD_BYTES = 32 << 20
"""The largest file read ahead."""

AHEAD_PIECES = 8
"""The most pieces of a run judged ahead (what they judge is held until the pass is taken)."""


class _Call:
    """A call made ahead: its name and arguments, its thread, and its result (``(bytes,
    result)`` once made; ``done`` set when it is made or has failed)."""

    def __init__(self, call: str, args: tuple[Any, ...]) -> None:
        self.call = call
        self.args = args
        self.result: tuple[bytes, Any] | None = None
        self.done = threading.Event()


class JudgedAhead:
    """A run judged ahead: the core's pass (``judge``) and reader, what they were made for
    (``index``: the qrels' ``_core.QrelsIndex``; ``options``: ``depth``, ``judged_only``,
    ``grouped``, ``rows``, ``threads`` and ``piece_bytes``; the file's ``device`` and
    ``inode``), and its steps (:meth:`steps`)."""

    def __init__(self, index: Any, options: dict[str, Any], judge: Any, reader: Any) -> None:
        self.index = index
        self.options = options
        self.judge = judge
        self.reader = reader
        self.device, self.inode = reader.device, reader.inode
        self.claimed = threading.Event()
        self._steps: deque[tuple[Any, Any]] = deque()
        self._ended = False
        self._changed = threading.Condition()

    def steps(self) -> Iterator[tuple[Any, Any]]:
        """Each step, as it is made: what ``feed_next`` gave (``True``, why the pass stopped,
        ``False`` at the end of the text, or the ``OSError`` it raised) and the
        ``_core.Taken`` taken after it, or ``None``; once they end, the pass and the reader
        are the caller's."""
        while True:
            with self._changed:
                while not self._steps and not self._ended:
                    self._changed.wait()
                if not self._steps:
                    return
                step = self._steps.popleft()
            yield step

    def _add(self, got: Any, taken: Any) -> None:
        with self._changed:
            self._steps.append((got, taken))
            self._changed.notify()

    def _end(self) -> None:
        with self._changed:
            self._ended = True
            self._changed.notify()


_lock = threading.Lock()
_calls: list[_Call] = []  # the call made ahead, if any
_runs: list[JudgedAhead] = []  # the run judged ahead, if any
_thread: list[threading.Thread] = []  # the thread of the last start


def start(path: str, call: str, *args: Any, then: Callable[[Any], None] | None = None) -> None:
    """Read the file ``path`` and call ``cranfield._core.<call>(its bytes, *args)`` on a
    thread of its own (in place of a call made ahead before); then ``then(result)`` on that
    thread, once the result can be taken."""
    made = _Call(call, args)

    def work() -> None:
        try:
            made.result = _made(path, call, args)
        except Exception:  # left to the caller, which fails as it would have
            made.result = None
        finally:
            made.done.set()
        if then is not None and made.result is not None:
            try:
                then(made.result[1])
            except Exception:  # the command does it again, and fails as it would have
                return

    thread = threading.Thread(target=work, name=f"cranfield: {call} ahead")
    with _lock:
        _calls[:] = [made]
        _runs.clear()
        _thread[:] = [thread]
    thread.start()


def _made(path: str, call: str, args: tuple[Any, ...]) -> tuple[bytes, Any] | None:
    """The bytes of the file ``path`` and the core's ``call`` on them, or ``None`` when the
    file is not read ahead."""
    st = os.stat(path)
    if not stat.S_ISREG(st.st_mode) or st.st_size > AHEAD_BYTES:
        return None
    with open(path, "rb") as fh:
        data = fh.read(AHEAD_BYTES + 1)
    if len(data) > AHEAD_BYTES:  # it grew
        return None
    from cranfield import _core

    return data, getattr(_core, call)(data, *args)


def take(call: str, data: bytes, *args: Any) -> Any:
    """What ``cranfield._core.<call>(data, *args)`` gave when made ahead (waiting for it to
    be made), or ``None``: when no such call was made ahead, or on other bytes."""
    with _lock:
        if not _calls or (_calls[0].call, _calls[0].args) != (call, args):
            return None
        made = _calls.pop()
    made.done.wait()
    result, made.result = made.result, None  # its bytes let go of
    if result is None or result[0] != data:
        return None
    return result[1]


def judge_run(
    path: str, *, depth: int | None, judged_only: bool, rows: int, piece_bytes: int
) -> Callable[[Any], None]:
    """``then`` for :func:`start` after ``ReadQrels``: the run file ``path`` judged against
    the qrels read, grouped by query, on all cores, up to :data:`AHEAD_PIECES` pieces of about
    ``piece_bytes`` (a batch taken whenever ``rows`` judged rows are held), until the pass is
    taken (:func:`judged_run`)."""

    def then(read: Any) -> None:
        index = read.index  # None for a text that is not valid qrels
        if index is None or not stat.S_ISREG(os.stat(path).st_mode):
            return  # not opened: a named pipe is read once, by the command
        from cranfield import _core

        judge = _core.RunJudge(index, depth, judged_only, True, rows, None)
        reader = _core.TextReader(path, piece_bytes)
        options = {
            "depth": depth,
            "judged_only": judged_only,
            "grouped": True,
            "rows": rows,
            "threads": None,
            "piece_bytes": piece_bytes,
        }
        run = JudgedAhead(index, options, judge, reader)
        with _lock:
            if _thread != [threading.current_thread()]:
                return  # another command started since: its run, not this one's
            _runs[:] = [run]
        try:
            for _ in range(AHEAD_PIECES):
                if run.claimed.is_set():
                    return
                try:
                    got = judge.feed_next(reader)
                except OSError as exc:
                    run._add(exc, None)
                    return
                taken = judge.take(False) if got is True and judge.held >= rows else None
                run._add(got, taken)
                if got is not True:
                    return
        finally:
            run._end()

    return then


def judged_run(index: Any, device: int, inode: int, **options: Any) -> JudgedAhead | None:
    """The run judged ahead against ``index`` with these options (see
    :class:`JudgedAhead`), read from the file of ``device`` and ``inode``, or ``None``; its
    thread stops after the piece it is judging, whose step :meth:`JudgedAhead.steps` gives
    last."""
    with _lock:
        if not _runs:
            return None
        run = _runs.pop()
    run.claimed.set()
    if (
        run.index is not index
        or run.options != options
        or (run.device, run.inode) != (device, inode)
    ):
        return None
    return run
