"""Tie policies: the order of each query's documents, and its tie groups.

- ``trec``: trec_eval's order: score descending, ties broken by document id in *descending*
  byte (``strcmp``) order (trec_eval 10.0 ``form_res_rels.c``); the rank column is ignored.
- ``given``: the rank column ascending (file order among equal ranks); for in-memory inputs
  without ranks, the order in which documents were given.
- ``random``: score descending, ties in a random order drawn from ``seed`` (reproducible).
- ``weak``: equal scores form one level of a weak ordering (Raghavan, Jung & Bollmann 1989);
  measures are computed as their expectation over uniformly random tie-breaking (their
  ``tie_aware`` form), which no order within a level can change, so rows of a level stay in
  input order (no tie sort).  A depth cut inside a level keeps the whole level
  (:func:`~cranfield.judging.join.judge`), so no order within a level is ever chosen.

Whatever the policy, rows with equal scores that end up adjacent form a tie group; its id is
kept in the judged rankings so that tie-aware measures can compute expectations over all
orders consistent with the weak order.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from cranfield.base.arrow import arrow_numpy, numpy_arrow
from cranfield.base.segments import permute_blocks
from cranfield.data.tables import Run
from cranfield.errors import InputError, ParameterError

__all__ = ["TIE_POLICIES", "Ordering", "order_run"]

TIE_POLICIES = ("trec", "given", "random", "weak")


class Ordering(NamedTuple):
    rows: np.ndarray  # run row indices, grouped by segment, in rank order
    lengths: np.ndarray  # rows per segment
    tie_ids: np.ndarray  # per output row, non-decreasing
    identity: bool = False  # rows == arange(len(run)): the file was already in this order


def order_run(
    run: Run,
    segment_of_query: np.ndarray,
    num_segments: int,
    *,
    ties: str,
    seed: int | None,
    marked: np.ndarray | None = None,
) -> Ordering:
    """Order the rows of ``run`` whose query maps to a segment (``segment_of_query[qcode]``).

    Segments are numbered ``0..num_segments-1``; queries mapped to -1 are dropped.  Nothing is
    sorted that is already in order (files usually are: one block per query, scores
    descending), so the common case costs a few linear passes.

    ``marked`` (per run row, ``trec`` only) tells the rows whose place in a tie group can
    matter: a tie group without a marked row keeps its rows in input order instead of sorting
    them by document id.  :func:`~cranfield.judging.join.judge` marks the rows whose document the
    qrels list, so that the rows it leaves unsorted all have the same grade: any order of them
    gives the same judged rankings.
    """
    if ties not in TIE_POLICIES:
        raise ParameterError(
            f"unknown tie policy {ties!r}; choose one of {', '.join(TIE_POLICIES)}"
        )
    seg_of_query = np.asarray(segment_of_query)
    if num_segments < 2**31 - 1:
        seg_of_query = seg_of_query.astype(np.int32, copy=False)
    rows, seg = _group_by_segment(seg_of_query[run.qcodes])
    identity = rows is None

    if ties == "given":
        if run.ranks is None:
            raise InputError(
                run.source,
                f"the 'given' tie policy orders by the rank column, but {run.rank_problem}",
            )
        r = run.ranks if identity else run.ranks[rows]
        if len(r) > 1 and ((seg[1:] == seg[:-1]) & (r[1:] < r[:-1])).any():
            o = np.lexsort((r, seg))
            rows, seg, identity = _rows(rows, len(seg))[o], seg[o], False
        s = run.scores if identity else run.scores[rows]
    else:
        s = run.scores if identity else run.scores[rows]
        if len(s) > 1 and ((seg[1:] == seg[:-1]) & (s[1:] > s[:-1])).any():
            o = _by_descending_score(seg, s)
            rows, seg, s, identity = _rows(rows, len(seg))[o], seg[o], s[o], False

    n = len(seg)
    boundary = np.empty(n, dtype=bool)
    if n:
        boundary[0] = True
        np.not_equal(seg[1:], seg[:-1], out=boundary[1:])
        boundary[1:] |= s[1:] != s[:-1]
    tie_ids = _tie_ids(boundary)
    rows = _rows(rows, n)

    if ties not in ("given", "weak") and n > 1 and not boundary[1:].all():
        keep = marked[rows] if marked is not None and ties == "trec" else None
        rows = _order_within_ties(run, rows, boundary, tie_ids, ties, seed, keep)
        identity = False

    # seg is sorted: segment lengths by binary search (cheaper than counting every row)
    bounds = np.searchsorted(seg, np.arange(num_segments + 1, dtype=seg.dtype))
    lengths = np.diff(bounds).astype(np.int64)
    return Ordering(rows=rows, lengths=lengths, tie_ids=tie_ids, identity=identity)


def _tie_ids(boundary: np.ndarray) -> np.ndarray:
    """``cumsum(boundary) - 1``: the tie group of each row (``boundary`` marks group starts).

    Runs have few ties, so the rows that do *not* start a group are few: the ids are the row
    numbers shifted down once per such row before them (a repeat, not a cumulative sum).
    """
    n = len(boundary)
    inner = np.flatnonzero(~boundary)  # rows that continue a tie group
    if len(inner) > n // 8:
        return np.cumsum(boundary, dtype=np.int64) - 1
    ids = np.arange(n, dtype=np.int64)
    if len(inner):
        ids -= np.repeat(np.arange(len(inner) + 1), np.diff(inner, prepend=0, append=n))
    return ids


def _rows(rows: np.ndarray | None, n: int) -> np.ndarray:
    return np.arange(n, dtype=np.int64) if rows is None else rows


def _group_by_segment(seg_all: np.ndarray) -> tuple[np.ndarray | None, np.ndarray]:
    """Rows with a segment >= 0, stably grouped by segment: (rows, their segments), where
    ``rows`` is None when that is every row in file order.

    Files usually hold each query in one contiguous block, though not in segment order (ids in
    numeric rather than ``strcmp`` order): then the blocks are permuted, in linear time,
    instead of sorting every row.
    """
    n_all = len(seg_all)
    keep = seg_all >= 0
    if keep.all():
        rows, seg = None, seg_all
    else:
        rows = np.flatnonzero(keep)
        seg = seg_all[rows]
    n = len(seg)
    if n < 2:
        return (None if rows is None and n == n_all else rows), seg
    starts = np.flatnonzero(seg[1:] != seg[:-1])
    starts += 1
    starts = np.concatenate(([0], starts))
    block_seg = seg[starts]
    if (block_seg[1:] > block_seg[:-1]).all():  # blocks in segment order: already grouped
        return (None if rows is None and n == n_all else rows), seg
    sorted_seg = np.sort(block_seg)
    if (sorted_seg[1:] == sorted_seg[:-1]).any():  # a segment in several blocks: sort rows
        o = stable_order(seg)
        return _rows(rows, n)[o], seg[o]
    lengths = np.diff(np.append(starts, n))
    bo = np.argsort(block_seg)  # distinct keys: any sort is stable
    src = permute_blocks(starts, lengths, bo)
    return (src if rows is None else rows[src]), np.repeat(block_seg[bo], lengths[bo])


def stable_order(seg: np.ndarray) -> np.ndarray:
    """``np.argsort(seg, kind="stable")`` for non-negative ``seg``: one sort of 64-bit keys
    (segment, row), several times faster than a stable sort of the segments."""
    n = len(seg)
    if n >= 2**32:  # pragma: no cover - beyond any run in memory
        return np.argsort(seg, kind="stable")
    key = seg.astype(np.uint64)
    key <<= np.uint64(32)
    key |= np.arange(n, dtype=np.uint64)
    key.sort()
    key &= np.uint64(0xFFFFFFFF)
    return key.astype(np.int64)


def _by_descending_score(seg: np.ndarray, s: np.ndarray) -> np.ndarray:
    """``np.lexsort((-s, seg))`` (rows by segment, then score descending, then position) for
    rows already grouped by segment (``seg`` non-decreasing).

    The scores are replaced by their rank among the distinct scores (one sort), and
    (segment, rank, position in the segment) packed into one 64-bit key when the three fit;
    one sort of those keys then gives the order.  Otherwise numpy's lexsort.
    """
    n = len(s)
    neg = -s
    o = np.argsort(neg)
    sorted_neg = neg[o]
    rank = np.empty(n, dtype=np.int64)
    step = np.empty(n, dtype=np.int64)
    step[0] = 0
    step[1:] = sorted_neg[1:] != sorted_neg[:-1]
    np.cumsum(step, out=step)
    rank[o] = step
    starts = np.flatnonzero(np.concatenate(([True], seg[1:] != seg[:-1])))
    lengths = np.diff(np.append(starts, n))
    local = np.arange(n, dtype=np.int64) - np.repeat(starts, lengths)
    bits_seg = int(seg[-1]).bit_length()
    bits_rank = int(step[-1]).bit_length()
    bits_local = int(lengths.max()).bit_length()
    if bits_seg + bits_rank + bits_local > 64:
        return np.lexsort((neg, seg))
    key = seg.astype(np.uint64) << np.uint64(bits_rank + bits_local)
    key |= rank.astype(np.uint64) << np.uint64(bits_local)
    key |= local.astype(np.uint64)
    key.sort()
    local_sorted = (key & np.uint64((1 << bits_local) - 1)).astype(np.int64)
    return np.repeat(starts, lengths) + local_sorted


def _order_within_ties(
    run: Run,
    rows: np.ndarray,
    boundary: np.ndarray,
    tie_ids: np.ndarray,
    ties: str,
    seed: int | None,
    marked: np.ndarray | None = None,
) -> np.ndarray:
    """Reorder the members of every tie group of size > 1 by the tie policy (with
    ``marked``, per ordered row, only the groups that hold a marked row)."""
    n = len(rows)
    in_group = np.zeros(n, dtype=bool)
    starts_next = np.append(boundary[1:], True)
    in_group[:] = ~(boundary & starts_next)  # rows that are not alone in their group
    if marked is not None:
        hits = np.flatnonzero(marked & in_group)
        wanted = np.zeros(int(tie_ids[-1]) + 1, dtype=bool)
        wanted[tie_ids[hits]] = True
        in_group &= wanted[tie_ids]
        if not in_group.any():
            return rows
    pos = np.flatnonzero(in_group)
    gid = tie_ids[pos]
    if ties == "random":
        rng = np.random.default_rng(seed)
        o = np.lexsort((rng.random(len(pos)), gid))
    elif run.docs.is_arrow:  # trec, vectorised: Arrow compares strings byte by byte
        import pyarrow as pa
        import pyarrow.compute as pc

        docs = run.docs.arrow(rows[pos])
        table = pa.Table.from_arrays([numpy_arrow(gid), docs], names=["g", "d"])
        o = pc.sort_indices(table, sort_keys=[("g", "ascending"), ("d", "descending")])
        o = arrow_numpy(o, np.uint64).astype(np.int64)
    else:  # trec: document id descending (byte order), stable within the group
        docs = run.docs.take(rows[pos])
        idx = sorted(range(len(pos)), key=docs.__getitem__, reverse=True)
        g = gid.tolist()
        idx.sort(key=g.__getitem__)
        o = np.asarray(idx, dtype=np.int64)
    out = rows.copy()
    out[pos] = rows[pos][o]
    return out
