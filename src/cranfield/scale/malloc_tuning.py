"""glibc's allocator set up for array work: arrays up to 32 MiB come from the heap and are
reused when freed, instead of being mapped fresh from the kernel (and faulted in page by page)
each time.

By default glibc maps every block above 128 KiB on its own and unmaps it on ``free``; it raises
that threshold only after such a block is freed, one size at a time, up to 32 MiB.  Reading a
run allocates temporaries of growing sizes, so a short process pays page faults over and over:
on a 2 MB run, about a fifth of the reading time (4 ms of 120 for ``cranfield evaluate`` on
50,000 lines, measured in ``bench/``).  ``warm_malloc`` sets at the start the thresholds glibc
reaches by itself later: ``M_MMAP_THRESHOLD`` 32 MiB and ``M_TRIM_THRESHOLD`` 64 MiB, its own
ceilings.  (A lower fixed threshold is worse: it stops glibc's adjustment, and 100 runs of 7 MB
took 3.9 s instead of 3.3 with 4 MiB.)  It is called by the ``cranfield`` command and its
worker processes, not by ``import cranfield``; a user's ``MALLOC_*_`` or ``GLIBC_TUNABLES``
settings are left alone, and other C libraries are not touched.
"""

from __future__ import annotations

import os

__all__ = ["warm_malloc"]

_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD = 32 << 20
TRIM_THRESHOLD = 64 << 20
_USER_SETTINGS = ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "GLIBC_TUNABLES")


def warm_malloc() -> bool:
    """Set glibc's thresholds (see the module docstring); whether they were set."""
    if any(k in os.environ for k in _USER_SETTINGS):
        return False
    try:
        if not os.confstr("CS_GNU_LIBC_VERSION"):
            return False
        import ctypes

        mallopt = ctypes.CDLL(None).mallopt
    except (AttributeError, OSError, ValueError):  # not glibc
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    ok = mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD) == 1
    return mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD) == 1 and ok
