"""A call of the compiled core on a file's bytes made ahead, on a thread of its own, while the
command imports what it needs (the core works without the GIL; the imports hold it): the
caller that makes the same call on the same bytes takes its result instead of making it again.

Only a regular file of at most :data:`AHEAD_BYTES` is read ahead (its bytes are held twice for
a moment). What fails ahead is left to the caller, which fails as it would have. A result is
taken only for the same call on bytes equal to those the caller hands the core, so it is the
result the caller's own call gives; and it is taken once.
"""

from __future__ import annotations

import os
import stat
import threading
from typing import Any

__all__ = ["AHEAD_BYTES", "start", "take"]

AHEAD_BYTES = 32 << 20
"""The largest file read ahead."""

_lock = threading.Lock()
_ahead: list[tuple[str, tuple[Any, ...], threading.Thread, dict[str, tuple[bytes, Any]]]] = []
"""The call made ahead, if any."""


def start(path: str, call: str, *args: Any) -> None:
    """Read the file ``path`` and call ``cranfield._core.<call>(its bytes, *args)`` on a
    thread of its own (in place of a call made ahead before)."""
    box: dict[str, tuple[bytes, Any]] = {}

    def work() -> None:
        try:
            st = os.stat(path)
            if not stat.S_ISREG(st.st_mode) or st.st_size > AHEAD_BYTES:
                return
            with open(path, "rb") as fh:
                data = fh.read(AHEAD_BYTES + 1)
            if len(data) > AHEAD_BYTES:  # it grew
                return
            from cranfield import _core

            box["result"] = (data, getattr(_core, call)(data, *args))
        except Exception:  # left to the caller, which fails as it would have
            return

    thread = threading.Thread(target=work, name=f"cranfield: {call} ahead")
    with _lock:
        _ahead[:] = [(call, args, thread, box)]
    thread.start()


def take(call: str, data: bytes, *args: Any) -> Any:
    """What ``cranfield._core.<call>(data, *args)`` gave when made ahead (waiting for it to
    end), or ``None``: when no such call was made ahead, or on other bytes."""
    with _lock:
        if not _ahead or _ahead[0][:2] != (call, args):
            return None
        _, _, thread, box = _ahead.pop()
    thread.join()
    made = box.pop("result", None)
    if made is None or made[0] != data:
        return None
    return made[1]
