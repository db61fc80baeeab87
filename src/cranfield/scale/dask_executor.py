"""Evaluation on a Dask cluster: a ``dask.distributed.Client`` behind the executor seam.

:func:`as_executor` turns the ``executor=`` of :func:`cranfield.evaluate` and
:func:`cranfield.compare` into a :class:`concurrent.futures.Executor`: an executor as it is,
a Dask ``Client`` as a :class:`DaskExecutor`.  Dask is imported only here, and only when a
``Client`` is given (recognised by its class's module, without importing Dask) or
``--dask ADDRESS`` is (:func:`connect`).

Why an adapter over ``client.submit`` rather than ``client.get_executor()``: what every task
shares (the qrels, the options, the measures: :class:`cranfield.judging.runs.Shared`) must
reach each worker once, not with every task.  :class:`DaskExecutor` scatters it to every
worker once (``client.scatter(..., broadcast=True)``) and hands the tasks its future, which
Dask replaces with the worker's copy; ``get_executor()`` would pickle it into every task.
Tasks are submitted with ``pure=False`` (each is run, none is deduplicated by key); a worker
that dies is replaced and its tasks rerun elsewhere by Dask's scheduler, with the same result
(every task is a pure function of its inputs).

A cluster that fails is one :class:`~cranfield.errors.ClusterError` saying where and what (a
scheduler lost or silent, workers gone, a task whose worker died each time it ran it), never
Dask's exceptions: :meth:`DaskExecutor.submit` gives a :class:`Task`, whose ``result()``
raises the task's own error as it is and says what failed otherwise.  The command's
``--dask`` (:func:`connect`, ``quiet``) also keeps Dask's log messages, tracebacks among
them, off its standard error.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor
from typing import Any

from cranfield.errors import ClusterError, CranfieldError, ParameterError

__all__ = [
    "CONNECT_SECONDS",
    "DaskExecutor",
    "Task",
    "as_executor",
    "connect",
    "is_dask_client",
]

CONNECT_SECONDS = 10.0
"""How long :func:`connect` waits for the scheduler."""
SILENT_SECONDS = 60.0
"""How long a watched wait (``--dask``) lets the scheduler go without answering."""
WORKERLESS_SECONDS = 60.0
"""How long a watched wait (``--dask``) lets the cluster go without a worker."""
CHECK_SECONDS = 1.0
"""How often a watched wait asks the scheduler."""
CLOSE_SECONDS = 5.0
"""How long the command waits for its client to close."""


def is_dask_client(obj: Any) -> bool:
    """Whether ``obj`` is a ``dask.distributed.Client`` (without importing Dask)."""
    return any(
        c.__module__.split(".")[0] == "distributed" and c.__name__ == "Client"
        for c in type(obj).__mro__
    )


def as_executor(executor: Any, jobs: Any = None) -> Executor | None:
    """``executor=`` checked: ``None``, an Executor, or a Dask Client (adapted)."""
    if executor is None:
        return None
    if jobs is not None:
        raise ParameterError("give jobs= or executor=, not both (the executor runs the work)")
    if is_dask_client(executor):
        return DaskExecutor(executor)
    from concurrent.futures import ThreadPoolExecutor

    if isinstance(executor, ThreadPoolExecutor):
        raise ParameterError(
            "executor must run the work in other processes (a ProcessPoolExecutor, a Dask "
            "Client): threads share this process's warnings, which would be mixed up"
        )
    if isinstance(executor, Executor):
        return executor
    raise ParameterError(
        "executor must be a concurrent.futures.Executor or a dask.distributed.Client, got a "
        f"{type(executor).__name__}"
    )


def connect(address: str, timeout: float | None = None, *, quiet: bool = False) -> Any:
    """A Dask ``Client`` of the scheduler at ``address`` (waiting at most ``timeout``
    seconds, default :data:`CONNECT_SECONDS`); :class:`ClusterError` if it cannot be reached,
    or if no command could reach it (:func:`_check_scheme`).  ``quiet``: Dask's log messages
    not shown (:func:`quiet_logs`)."""
    from cranfield.base.optional import require

    distributed = require("distributed", "dask", "--dask (evaluating on a Dask cluster)")
    if quiet:
        quiet_logs()  # after the import, which sets Dask's logging up
    _check_scheme(address)
    seconds = CONNECT_SECONDS if timeout is None else timeout
    try:
        return distributed.Client(address, timeout=seconds, set_as_default=False)
    except (OSError, TimeoutError, ValueError, TypeError) as exc:
        why = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ClusterError(
            f"cannot reach the Dask scheduler at {address!r} within {seconds:g} s: {why}"
        ) from None


def quiet_logs() -> None:
    """Dask's log messages (and Tornado's, its network layer's) not shown: the command says
    what failed in one error of its own (Dask logs a traceback, for one, when the scheduler
    goes away)."""
    import logging

    roots = ("distributed", "tornado", "bokeh")
    names = [n for n in list(logging.root.manager.loggerDict) if n.split(".")[0] in roots]
    for name in {*roots, *names}:  # Dask gives each configured logger a handler of its own
        log = logging.getLogger(name)
        log.handlers = [logging.NullHandler()]
        log.propagate = False


SCHEMES = "tcp:// (the default), tls:// (with Dask's TLS settings), ws:// and wss://"
"""The address schemes of a scheduler that a command can reach, in messages."""


def _check_scheme(address: str) -> None:
    """A :class:`ClusterError` for an address no command can reach: ``inproc://`` (a
    scheduler inside another Python process), ``ucx://`` when Dask has only its stub of it,
    a scheme no installed Dask transport knows (Dask's own errors name Python internals)."""
    from distributed.comm.addressing import parse_address
    from distributed.comm.registry import get_backend

    scheme, _ = parse_address(address)
    why = None
    if scheme == "inproc":
        why = (
            "an inproc:// scheduler lives inside one Python process, and no other process "
            "(this command's included) can reach it"
        )
    else:
        try:
            backend = get_backend(scheme)
        except ValueError:
            why = f"no Dask transport here knows the scheme {scheme!r}"
        else:
            if type(backend).__module__ == "distributed.comm.ucx":
                why = (
                    "Dask has removed its ucx:// transport (UCX-Py is deprecated); with the "
                    "distributed-ucxx package installed, the scheme is ucxx://"
                )
    if why is not None:
        raise ClusterError(
            f"cannot use the Dask scheduler address {address!r}: {why}; the schemes "
            f"supported are {SCHEMES}"
        )


class DaskExecutor(Executor):
    """A Dask ``Client`` as an executor: what the tasks share is sent to each worker once.

    ``submit(fn, *args)`` runs ``fn(*args)`` on the cluster; each argument that is a
    :class:`~cranfield.judging.runs.Shared` is scattered to every worker once (the first time
    it is seen) and passed as its future.  ``on_done`` is called (in the client's thread)
    with each finished task; ``tasks`` counts the tasks submitted.

    A failure of the cluster is one :class:`ClusterError` naming the scheduler and what
    happened, from ``submit`` or the result of a task (:class:`Task`): the connection to the
    scheduler lost, a worker that died each time it ran a task, no worker to scatter to.
    With ``watch`` (the command's ``--dask``), a wait for a result also ends in one when the
    scheduler has not answered for :data:`SILENT_SECONDS` or the cluster has had no worker
    for :data:`WORKERLESS_SECONDS`; without it (a caller's own ``Client``) the wait is
    Dask's, which waits for workers to come (an adaptive cluster starts them on demand).
    """

    def __init__(self, client: Any, *, watch: bool = False) -> None:
        self.client = client
        self.watch = watch
        self._scattered: dict[int, tuple[Any, Any]] = {}
        self.tasks = 0
        self.on_submit: Callable[[], None] | None = None
        self.on_done: Callable[[Any], None] | None = None
        self._checked = 0.0
        self._workerless_since: float | None = None

    @property
    def address(self) -> str:
        """The scheduler's address (for messages)."""
        try:
            return str(self.client.scheduler.address)
        except Exception:  # a client closed or never connected
            return "(unknown address)"

    def _shared(self, value: Any) -> Any:
        from cranfield.judging.runs import Shared

        if not isinstance(value, Shared):
            return value
        key = id(value)
        if key not in self._scattered:
            with self._failures():
                future = self.client.scatter(value, broadcast=True, hash=False)
            self._scattered[key] = (value, future)  # the value kept: its id stays its own
        return self._scattered[key][1]

    # override: a Task is a work-alike of concurrent.futures.Future (result, done, cancel: all
    # that cranfield's callers use), not one: its result() watches the cluster while it waits
    def submit(self, fn: Callable, /, *args: Any, **kwargs: Any) -> Task:  # type: ignore[override]
        args = tuple(self._shared(a) for a in args)
        with self._failures():
            future = self.client.submit(fn, *args, pure=False, **kwargs)
        self.tasks += 1
        if self.on_submit is not None:
            self.on_submit()
        if self.on_done is not None:
            future.add_done_callback(self.on_done)
        return Task(self, future, _what(args))

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Let go of the scattered data (the client stays the caller's)."""
        scattered, self._scattered = self._scattered, {}
        if scattered:
            with contextlib.suppress(Exception):  # a closed client has nothing to let go
                self.client.cancel([f for _, f in scattered.values()])

    # ------------------------------------------------------------------ failures
    @contextlib.contextmanager
    def _failures(self, what: str = "", future: Any = None) -> Iterator[None]:
        """Dask's exceptions of a failing cluster as one :class:`ClusterError` (``what``: the
        task, for messages); any other exception, and the error a task of ``future`` raised
        itself, as it is."""
        try:
            yield
        except CranfieldError:
            raise
        except (Exception, asyncio.CancelledError) as exc:  # asyncio's is no Exception
            from distributed.scheduler import KilledWorker

            own = future is not None and future.status == "error"
            if own and not isinstance(exc, KilledWorker):
                raise  # the task's own error (KilledWorker: the scheduler's verdict)
            message = _failure(exc, what, self.address)
            if message is None:
                raise
            raise ClusterError(message) from None

    def silent(self) -> ClusterError:
        """The error of a scheduler that has not answered for :data:`SILENT_SECONDS`."""
        return ClusterError(
            f"the Dask scheduler at {self.address} has not answered for "
            f"{SILENT_SECONDS:g} s (stopped, or the network is down)"
        )

    def check(self) -> None:
        """With ``watch``, at most every :data:`CHECK_SECONDS`: a :class:`ClusterError` when
        the scheduler does not answer within :data:`SILENT_SECONDS` or the cluster has had
        no worker for :data:`WORKERLESS_SECONDS`."""
        now = time.monotonic()
        if not self.watch or now - self._checked < CHECK_SECONDS:
            return
        client = self.client
        with self._failures():
            try:
                info = client.sync(
                    client.scheduler.identity, n_workers=0, callback_timeout=SILENT_SECONDS
                )
            except TimeoutError:
                raise self.silent() from None
        self._checked = time.monotonic()
        if info.get("n_workers", 1):
            self._workerless_since = None
        elif self._workerless_since is None:
            self._workerless_since = now
        elif now - self._workerless_since >= WORKERLESS_SECONDS:
            raise ClusterError(
                f"the Dask cluster at {self.address} has had no worker for "
                f"{WORKERLESS_SECONDS:g} s: its workers stopped, and none came back"
            )


class Task:
    """The future of one task on a :class:`DaskExecutor`: ``result()`` is the task's value
    or its own error, or a :class:`ClusterError` when the cluster fails meanwhile."""

    def __init__(self, executor: DaskExecutor, future: Any, what: str) -> None:
        self._executor = executor
        self._future = future
        self._what = what
        self._done = threading.Event()
        future.add_done_callback(lambda _: self._done.set())

    def result(self, timeout: float | None = None) -> Any:
        executor = self._executor
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self._done.wait(CHECK_SECONDS):
            executor.check()
            if deadline is not None and time.monotonic() >= deadline:
                raise TimeoutError(f"{self._what or 'a task'} not done in {timeout:g} s")
        # a task done still has its result fetched through the scheduler: watched, that
        # fetch is bounded too (a scheduler stopped between the two waited for ever)
        with executor._failures(self._what, self._future):
            try:
                return self._future.result(timeout=SILENT_SECONDS if executor.watch else None)
            except TimeoutError:
                if not executor.watch or self._future.status == "error":
                    raise  # unwatched, or the task's own error
                raise executor.silent() from None

    def done(self) -> bool:
        return self._done.is_set()

    def cancel(self) -> bool:
        with contextlib.suppress(Exception):  # a lost scheduler cancelled it already
            self._future.cancel()
        return True


def _what(args: tuple) -> str:
    """The run a task works on, for messages (``''`` for other work)."""
    name = getattr(args[-1], "name", None) if args else None
    return f"the task of run {name!r}" if isinstance(name, str) else ""


def _failure(exc: BaseException, what: str, address: str) -> str | None:
    """The message of a Dask exception that says the cluster at ``address`` failed, or
    ``None`` for any other exception."""
    import concurrent.futures

    from distributed.comm.core import CommClosedError
    from distributed.scheduler import KilledWorker

    lost = (
        f"lost the connection to the Dask scheduler at {address} while the work ran "
        "(the scheduler stopped, or the network failed)"
    )
    if isinstance(exc, KilledWorker):
        times = exc.allowed_failures + 1
        return (
            f"{what or 'a task'} was on a worker of the Dask cluster at {address} when it "
            f"died, {'once' if times == 1 else f'{times} times'} (killed for lack of memory, "
            "maybe)"
        )
    if isinstance(exc, concurrent.futures.CancelledError | asyncio.CancelledError):
        reason = getattr(exc, "reason", None)
        if reason == "scheduler-connection-lost":
            return lost
        if reason == "already forgotten":  # what it needed is gone: the data sent to workers
            return (
                f"the Dask cluster at {address} dropped the work: the workers stopped, and "
                "the inputs sent to them were lost with them"
            )
        return f"the work on the Dask cluster at {address} was cancelled ({reason or 'no reason'})"
    if isinstance(exc, CommClosedError):  # the same loss, seen by a call under way
        return lost
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    if isinstance(exc, TimeoutError):
        if "No valid workers" in text:
            return f"the Dask cluster at {address} has no worker"
        return f"the Dask scheduler at {address} did not answer in time ({text})"
    if isinstance(exc, OSError):
        return f"the connection to the Dask scheduler at {address} failed ({text})"
    return None
