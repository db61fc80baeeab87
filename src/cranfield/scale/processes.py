"""Several runs at once: ``jobs`` worker processes, started only when the work is worth it.

Runs are independent, so each is read, judged and measured whole in one worker process
(:meth:`cranfield.judging.runs.JudgedRuns.map`); the results come back in the order of the runs
and are the same, bit for bit, as those of one process.  The workers are forked from this
process when it runs one thread (the command does: its imports and inputs are then there
already), else started by a fork server (a fresh interpreter that has imported numpy, forked
once per worker), so that no thread is ever inherited half-way through; what every run shares
(the qrels, the options, the measures) is given to each worker once, not with every run.
Warnings raised in a worker are recorded there and raised again here, in the order of the
runs.

A pool costs a few hundred milliseconds to start, so :func:`workers` asks for one only when
there are at least two run files and they hold at least :data:`POOL_FROM_BYTES` together.
"""

from __future__ import annotations

import contextlib
import os
import threading
import warnings
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from cranfield.errors import ParameterError, warn

if TYPE_CHECKING:
    from concurrent.futures import Executor

__all__ = ["POOL_FROM_BYTES", "default_jobs", "process_pool", "recorded", "replay", "workers"]

POOL_FROM_BYTES = 64 << 20
"""Run files smaller than this together are evaluated in this process (tests lower it)."""
MAX_JOBS = 1024


def default_jobs() -> int:
    """The number of cores this process may use."""
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def check_jobs(jobs: Any) -> int:
    """``jobs`` checked (``None``: :func:`default_jobs`)."""
    if jobs is None:
        return default_jobs()
    if isinstance(jobs, bool) or not isinstance(jobs, int) or not 1 <= jobs <= MAX_JOBS:
        raise ParameterError(f"jobs must be an integer from 1 to {MAX_JOBS}, got {jobs!r}")
    return jobs


def workers(jobs: int, sources: Sequence[Any], *, split: bool = False) -> int:
    """How many worker processes to start for ``sources`` (0: none, work here).

    ``split``: a run can be cut into query ranges (:mod:`cranfield.scale.query_ranges`), so
    one large run alone is worth ``jobs`` workers."""
    paths = [s for s in sources if isinstance(s, str | os.PathLike) and os.fspath(s) != "-"]
    if jobs < 2 or len(paths) < (1 if split else 2) or not _main_importable():
        return 0
    total = 0
    for p in paths:
        with contextlib.suppress(OSError, ValueError):  # the reader says what is wrong
            total += os.stat(p).st_size
    if total < POOL_FROM_BYTES:
        return 0
    return jobs if split and len(paths) == 1 else min(jobs, len(paths))


def _main_importable() -> bool:
    """Whether worker processes can start: they import the main script when it has a file,
    which a script read from standard input (``python - <<EOF``) names ``<stdin>`` without
    being one (multiprocessing then fails in every worker).  Without it, work here."""
    import sys

    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    return path is None or os.path.isfile(path) or getattr(main, "__spec__", None) is not None


# ------------------------------------------------------------------------------ the pool
_installed: Any = None
IN_WORKER = False
"""True in a worker process (its run is not also split between threads)."""


def _install(shared: Any, lines: Any = None) -> None:
    global _installed, IN_WORKER
    from cranfield.base import progress
    from cranfield.scale.malloc_tuning import warm_malloc

    warm_malloc()
    _installed = shared
    IN_WORKER = True
    if lines is not None:
        progress.in_worker(lines)


def _with_installed(call: Callable, fn: Callable, task: Any) -> Any:
    return call(fn, _installed, task)


last_start_method: str | None = None
"""How the last pool started its workers (``fork`` or ``forkserver``; for the tests)."""


def start_method() -> str:
    """``fork`` when this process runs one thread, else ``forkserver``.

    A forked worker is a copy of this process: cranfield, numpy and the shared inputs are
    there already, so its first run starts 0.1-0.2 s sooner than a fork server's worker,
    which starts from a fresh interpreter.  Forking is safe only with no other thread, which
    could hold a lock that the copy would never see released: a notebook's threads, a
    progress bar's, pyarrow's (its import starts jemalloc's background thread).  Linux lists
    the threads in ``/proc/self/task``; elsewhere, or with any doubt, the fork server.
    """
    if not hasattr(os, "fork"):  # pragma: no cover - not POSIX
        return "forkserver"
    try:
        threads = len(os.listdir("/proc/self/task"))
    except OSError:  # pragma: no cover - not Linux
        return "forkserver"
    return "fork" if threads == 1 else "forkserver"


def process_pool(count: int, shared: Any) -> Executor:
    """``count`` worker processes that each got ``shared`` once: its ``submit(call, fn,
    shared, task)`` runs ``call(fn, <the worker's shared>, task)``.  Its ``lines`` counts the
    lines of runs the workers read (their progress, which they do not draw themselves)."""
    import multiprocessing
    from concurrent.futures import Executor, Future, ProcessPoolExecutor

    class SharedOnce(Executor):
        def __init__(self, pool: ProcessPoolExecutor, lines: Any) -> None:
            self._pool = pool
            self.lines = lines

        def submit(self, call: Callable, /, *args: Any, **kwargs: Any) -> Future:
            fn, _shared, task = args
            return self._pool.submit(_with_installed, call, fn, task)

        def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
            self._pool.shutdown(wait=wait, cancel_futures=cancel_futures)

    global last_start_method
    last_start_method = method = start_method()
    ctx = multiprocessing.get_context(method)
    if method == "forkserver":  # (a fork: multiprocessing flushes stdout and stderr first)
        # numpy only: before Python 3.12 the fork server imports its preloads before it takes
        # this process's sys.path, so cranfield is imported by each worker (from the right place)
        ctx.set_forkserver_preload(["numpy"])
    lines = ctx.Value("q", 0)
    pool = ProcessPoolExecutor(
        max_workers=count, mp_context=ctx, initializer=_install, initargs=(shared, lines)
    )
    return SharedOnce(pool, lines)


# ------------------------------------------------------------------------------ warnings
_recording = threading.Lock()


def recorded(fn: Callable, shared: Any, task: Any) -> tuple[Any, list[Warning]]:
    """``fn(shared, task)`` and the warnings it raised (to be raised again by the caller).

    The warnings machinery is one per process: tasks run by several threads of one process (a
    Dask worker with ``--nthreads 2``) are run one at a time here, so that each gets its own
    warnings and nothing else's."""
    with _recording, warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = fn(shared, task)
    return result, [w.message for w in caught if isinstance(w.message, Warning)]


def replay(result: tuple[Any, list[Warning]]) -> Any:
    """The result of :func:`recorded`, its warnings raised here."""
    value, caught = result
    for message in caught:
        warn(message)
    return value
