"""ranx's ranking of a query's documents: numba's ``np.argsort`` (an unstable quicksort
with insertion sort for parts of at most 15 elements), reproduced."""

from __future__ import annotations

import itertools
import operator
from collections.abc import Mapping, Sequence
from typing import TypeVar

import numpy as np

_Value = TypeVar("_Value", int, float)
"""A grade (qrels) or a score (runs): what the documents map to, kept as it was."""

SMALL_QUICKSORT = 15
"""numba's quicksort hands a part of at most this many elements to insertion sort."""


# -- numba's argsort -------------------------------------------------------------------------


def _partition(a: Sequence[float], r: list[int], low: int, high: int) -> int:
    mid = (low + high) >> 1
    if a[r[mid]] < a[r[low]]:
        r[low], r[mid] = r[mid], r[low]
    if a[r[high]] < a[r[mid]]:
        r[high], r[mid] = r[mid], r[high]
    if a[r[mid]] < a[r[low]]:
        r[low], r[mid] = r[mid], r[low]
    pivot = a[r[mid]]
    r[high], r[mid] = r[mid], r[high]
    i, j = low, high - 1
    while True:
        while i < high and a[r[i]] < pivot:
            i += 1
        while j >= low and pivot < a[r[j]]:
            j -= 1
        if i >= j:
            break
        r[i], r[j] = r[j], r[i]
        i += 1
        j -= 1
    r[i], r[high] = r[high], r[i]
    return i


def numba_argsort(a: Sequence[float]) -> list[int]:
    """``np.argsort(a)`` as numba compiles it (``numba/misc/quicksort.py``, numba 0.5x-0.6x):
    quicksort with a median-of-three pivot, the larger part stacked, insertion sort for parts
    of at most 15 elements.  Equal values come out in an order that depends on the input's
    order; with distinct values, or 15 values or fewer, it is a stable sort.  numba's
    insertion sort moves an element only past strictly greater ones, a stable sort of its part:
    Python's stable sort of the part gives the same permutation at C speed."""
    n = len(a)
    if n <= SMALL_QUICKSORT or len(set(a)) == n:
        return sorted(range(n), key=a.__getitem__)  # the same permutation, at C speed
    r = list(range(n))
    stack = [(0, n - 1)]
    while stack:
        low, high = stack.pop()
        while high - low >= SMALL_QUICKSORT:
            i = _partition(a, r, low, high)
            if high - i > i - low:
                if high > i:
                    stack.append((i + 1, high))
                high = i - 1
            else:
                if i > low:
                    stack.append((low, i - 1))
                low = i + 1
        if high > low:  # numba's insertion sort of the part
            r[low : high + 1] = sorted(r[low : high + 1], key=a.__getitem__)
    return r


def ranx_order(scores: Sequence[float], *, from_dict: bool = False) -> list[int]:
    """The positions of a query's documents in ranx's ranking: numba's argsort of the negated
    scores (a ``Run``), or of the scores read backwards (a dict given to ``evaluate``)."""
    if from_dict:
        return numba_argsort(list(scores))[::-1]
    return numba_argsort([-s for s in scores])


def ranx_orders(
    score_lists: Sequence[Sequence[float]], *, from_dict: bool = False
) -> list[list[int]]:
    """:func:`ranx_order` of each list, by the compiled core (``rust/src/quicksort.rs``: numba's
    quicksort, whose oracle :func:`numba_argsort` is) in one call; the scores as ranx holds
    them, float64."""
    from cranfield import _core

    lengths = [len(s) for s in score_lists]
    offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    values = np.fromiter(
        itertools.chain.from_iterable(score_lists), dtype=np.float64, count=int(offsets[-1])
    )
    positions = _core.numba_argsort(values if from_dict else -values, offsets).tolist()
    bounds = offsets.tolist()
    if from_dict:
        return [positions[a:b][::-1] for a, b in itertools.pairwise(bounds)]
    return [positions[a:b] for a, b in itertools.pairwise(bounds)]


def sorted_docs(docs: Mapping[str, _Value]) -> dict[str, _Value]:
    items = list(docs.items())
    return {items[i][0]: items[i][1] for i in ranx_order([s for _, s in items])}


def sorted_runs(run: Mapping[str, Mapping[str, _Value]]) -> dict[str, dict[str, _Value]]:
    """Each query's documents of ``run`` in ranx's ranking, the queries sorted (ranx's
    ``Qrels.sort``/``Run.sort``), every query ordered in one call to the core."""
    queries = sorted(run)
    keys = [list(run[q]) for q in queries]
    values = [list(run[q].values()) for q in queries]
    orders = ranx_orders(values)
    out = {}
    for q, k, v, order in zip(queries, keys, values, orders, strict=True):
        if len(order) > 1:
            pick = operator.itemgetter(*order)
            out[q] = dict(zip(pick(k), pick(v), strict=True))
        else:
            out[q] = dict(zip(k, v, strict=True))
    return out
