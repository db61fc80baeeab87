"""Evaluation on a Dask cluster: a ``dask.distributed.Client`` behind the executor seam.

:func:`as_executor` turns the ``executor=`` of :func:`cranfield.evaluate` and
:func:`cranfield.compare` into a :class:`concurrent.futures.Executor`: an executor as it is,
a Dask ``Client`` as a :class:`DaskExecutor`.  Dask is imported only here, and only when a
``Client`` is given (recognised by its class's module, without importing Dask) or
``--dask ADDRESS`` is (:func:`connect`).

Why an adapter over ``client.submit`` rather than ``client.get_executor()``: what every task
shares (the qrels, the options, the measures: :class:`cranfield.judged_runs.Shared`) must
reach each worker once, not with every task.  :class:`DaskExecutor` scatters it to every
worker once (``client.scatter(..., broadcast=True)``) and hands the tasks its future, which
Dask replaces with the worker's copy; ``get_executor()`` would pickle it into every task.
Tasks are submitted with ``pure=False`` (each is run, none is deduplicated by key); a worker
that dies is replaced and its tasks rerun elsewhere by Dask's scheduler, with the same result
(every task is a pure function of its inputs).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any

from .errors import ClusterError, ParameterError

__all__ = ["CONNECT_SECONDS", "DaskExecutor", "as_executor", "connect", "is_dask_client"]

CONNECT_SECONDS = 10.0
"""How long :func:`connect` waits for the scheduler."""


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


def connect(address: str, timeout: float | None = None) -> Any:
    """A Dask ``Client`` of the scheduler at ``address`` (waiting at most ``timeout``
    seconds, default :data:`CONNECT_SECONDS`); :class:`ClusterError` if it cannot be reached,
    or if no command could reach it (:func:`_check_scheme`)."""
    from ._lazy import require

    distributed = require("distributed", "dask", "--dask (evaluating on a Dask cluster)")
    _check_scheme(address)
    seconds = CONNECT_SECONDS if timeout is None else timeout
    try:
        return distributed.Client(address, timeout=seconds, set_as_default=False)
    except (OSError, TimeoutError, ValueError, TypeError) as exc:
        why = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ClusterError(
            f"cannot reach the Dask scheduler at {address!r} within {seconds:g} s: {why}"
        ) from None


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
    :class:`~cranfield.judged_runs.Shared` is scattered to every worker once (the first time
    it is seen) and passed as its future.  ``on_done`` is called (in the client's thread)
    with each finished task; ``tasks`` counts the tasks submitted.
    """

    def __init__(self, client: Any) -> None:
        self.client = client
        self._scattered: dict[int, tuple[Any, Any]] = {}
        self.tasks = 0
        self.on_submit: Callable[[], None] | None = None
        self.on_done: Callable[[Any], None] | None = None

    def _shared(self, value: Any) -> Any:
        from .judged_runs import Shared

        if not isinstance(value, Shared):
            return value
        key = id(value)
        if key not in self._scattered:
            future = self.client.scatter(value, broadcast=True, hash=False)
            self._scattered[key] = (value, future)  # the value kept: its id stays its own
        return self._scattered[key][1]

    def submit(self, fn: Callable, /, *args: Any, **kwargs: Any) -> Any:
        args = tuple(self._shared(a) for a in args)
        future = self.client.submit(fn, *args, pure=False, **kwargs)
        self.tasks += 1
        if self.on_submit is not None:
            self.on_submit()
        if self.on_done is not None:
            future.add_done_callback(self.on_done)
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Let go of the scattered data (the client stays the caller's)."""
        scattered, self._scattered = self._scattered, {}
        if scattered:
            with contextlib.suppress(Exception):  # a closed client has nothing to let go
                self.client.cancel([f for _, f in scattered.values()])
