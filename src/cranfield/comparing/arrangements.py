"""The arrangements of a queries x runs table under the complete null hypothesis: on every
query the runs are exchangeable, so each query's row of values is permuted across the runs,
independently of the other queries (Carterette, TOIS 30(1), 2012; Westfall & Young
1993).  The randomised Tukey HSD test (:mod:`.rthsd`) and Westfall & Young's MaxT
and MinP (:mod:`.westfall_young`) draw their null distributions from here.

There are ``(k!)^n`` arrangements of ``n`` queries and ``k`` runs.  When that number is at
most :data:`MAX_EXACT_ARRANGEMENTS` and at most the permutations asked for, every one is
enumerated (the first is the observed table), and p-values are exact counts over them;
otherwise ``permutations`` arrangements are drawn from ``numpy.random.default_rng(seed)``
(``Generator.permuted`` on each row), in blocks whose size depends on n and k only, so that
the random stream, and the p-values, do not depend on which pairs are tested.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator

import numpy as np

from cranfield.base import progress

__all__ = [
    "MAX_EXACT_ARRANGEMENTS",
    "arrangement_blocks",
    "arrangement_count",
    "exact_arrangements",
    "rearranged",
]

MAX_EXACT_ARRANGEMENTS = 1 << 24
"""The most arrangements enumerated exactly (as for the randomization test's sign vectors)."""
_BLOCK_ELEMENTS = 2_000_000


def arrangement_count(n: int, k: int) -> int:
    """``(k!)^n``, as an exact integer."""
    return math.factorial(k) ** n


def exact_arrangements(n: int, k: int, permutations: int) -> bool:
    """Whether every arrangement is enumerated: ``(k!)^n <= min(permutations, 2^24)``
    (compared as integers)."""
    return arrangement_count(n, k) <= min(permutations, MAX_EXACT_ARRANGEMENTS)


def block_rows(n: int, k: int) -> int:
    """Arrangements per block: a function of n and k only."""
    return max(1, _BLOCK_ELEMENTS // max(1, n * k))


def arrangement_blocks(
    n: int, k: int, *, exact: bool, permutations: int, seed: int | None, what: str
) -> Iterator[np.ndarray]:
    """Blocks of arrangements, each an int array (rows, n, k) whose ``[b, q]`` is the order
    in which query q's values are given to the runs.  ``exact``: all ``(k!)^n`` (the first
    the identity); else ``permutations`` random ones."""
    size = block_rows(n, k)
    if exact:
        total = arrangement_count(n, k)
        table = np.array(list(itertools.permutations(range(k))), dtype=np.intp)
        radix = len(table)
        sizes = [min(size, total - lo) for lo in range(0, total, size)]
        done = 0
        for rows in progress.track(sizes, what, size=int):
            codes = np.arange(done, done + rows, dtype=np.int64)
            digits = np.empty((rows, n), dtype=np.intp)
            for q in range(n):
                codes, digits[:, q] = np.divmod(codes, radix)
            done += rows
            yield table[digits]
        return
    rng = np.random.default_rng(seed)
    base = np.arange(k, dtype=np.intp)
    full, rest = divmod(permutations, size)
    sizes = [size] * full + ([rest] if rest else [])
    for rows in progress.track(sizes, what, size=int):
        yield rng.permuted(np.broadcast_to(base, (rows, n, k)), axis=2)


def rearranged(Y: np.ndarray, order: np.ndarray) -> np.ndarray:
    """The tables ``Y`` (n x k) rearranged by a block of arrangements (rows, n, k)."""
    n = Y.shape[0]
    return Y[np.arange(n)[None, :, None], order]
