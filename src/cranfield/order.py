"""Tie policies: the order of each query's documents, and its tie groups.

- ``trec``: trec_eval's order: score descending, ties broken by document id in *descending*
  byte (``strcmp``) order (trec_eval 10.0 ``form_res_rels.c``); the rank column is ignored.
- ``given``: the rank column ascending (file order among equal ranks); for in-memory inputs
  without ranks, the order in which documents were given.
- ``random``: score descending, ties in a random order drawn from ``seed`` (reproducible).
- ``weak``: equal scores form one level of a weak ordering (Raghavan, Jung & Bollmann 1989);
  measures are computed as their expectation over uniformly random tie-breaking (their
  ``tie_aware`` form), which no order within a level can change, so rows of a level stay in
  input order (no tie sort).  :func:`~cranfield.judging.judge` orders them as ``trec`` when a
  depth cut must choose which documents of a level to keep.

Whatever the policy, rows with equal scores that end up adjacent form a tie group; its id is
kept in the judged rankings so that tie-aware measures can compute expectations over all
orders consistent with the weak order.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .data import Run
from .errors import InputError, ParameterError

__all__ = ["TIE_POLICIES", "Ordering", "order_run"]

TIE_POLICIES = ("trec", "given", "random", "weak")


@dataclass(frozen=True)
class Ordering:
    rows: np.ndarray  # run row indices, grouped by segment, in rank order
    lengths: np.ndarray  # rows per segment
    tie_ids: np.ndarray  # per output row, non-decreasing


def order_run(
    run: Run, segment_of_query: np.ndarray, num_segments: int, *, ties: str, seed: int | None
) -> Ordering:
    """Order the rows of ``run`` whose query maps to a segment (``segment_of_query[qcode]``).

    Segments are numbered ``0..num_segments-1``; queries mapped to -1 are dropped.
    """
    if ties not in TIE_POLICIES:
        raise ParameterError(
            f"unknown tie policy {ties!r}; choose one of {', '.join(TIE_POLICIES)}"
        )
    seg_all = segment_of_query[run.qcodes]
    keep = seg_all >= 0
    rows = np.arange(len(run), dtype=np.int64) if keep.all() else np.flatnonzero(keep)
    seg = seg_all[rows]
    if len(seg) > 1 and (seg[1:] < seg[:-1]).any():
        o = np.argsort(seg, kind="stable")
        rows, seg = rows[o], seg[o]

    if ties == "given":
        if run.ranks is None:
            raise InputError(
                run.source,
                f"the 'given' tie policy orders by the rank column, but {run.rank_problem}",
            )
        r = run.ranks[rows]
        if len(r) > 1 and ((seg[1:] == seg[:-1]) & (r[1:] < r[:-1])).any():
            o = np.lexsort((r, seg))
            rows, seg = rows[o], seg[o]
        s = run.scores[rows]
    else:
        s = run.scores[rows]
        if len(s) > 1 and ((seg[1:] == seg[:-1]) & (s[1:] > s[:-1])).any():
            o = np.lexsort((-s, seg))
            rows, seg, s = rows[o], seg[o], s[o]

    n = len(rows)
    boundary = np.ones(n, dtype=bool)
    if n > 1:
        boundary[1:] = (seg[1:] != seg[:-1]) | (s[1:] != s[:-1])
    tie_ids = np.cumsum(boundary, dtype=np.int64) - 1

    if ties not in ("given", "weak") and n > 1 and not boundary[1:].all():
        rows = _order_within_ties(run, rows, boundary, tie_ids, ties, seed)

    lengths = np.bincount(seg, minlength=num_segments).astype(np.int64)
    return Ordering(rows=rows, lengths=lengths, tie_ids=tie_ids)


def _order_within_ties(
    run: Run,
    rows: np.ndarray,
    boundary: np.ndarray,
    tie_ids: np.ndarray,
    ties: str,
    seed: int | None,
) -> np.ndarray:
    """Reorder the members of every tie group of size > 1 by the tie policy."""
    n = len(rows)
    in_group = np.zeros(n, dtype=bool)
    starts_next = np.append(boundary[1:], True)
    in_group[:] = ~(boundary & starts_next)  # rows that are not alone in their group
    pos = np.flatnonzero(in_group)
    gid = tie_ids[pos]
    if ties == "random":
        rng = np.random.default_rng(seed)
        o = np.lexsort((rng.random(len(pos)), gid))
    else:  # trec: document id descending (byte order), stable within the group
        docs = run.docs.take(rows[pos])
        idx = sorted(range(len(pos)), key=docs.__getitem__, reverse=True)
        g = gid.tolist()
        idx.sort(key=g.__getitem__)
        o = np.asarray(idx, dtype=np.int64)
    out = rows.copy()
    out[pos] = rows[pos][o]
    return out
