"""JudgedRankings: every query's ranking with its judgments, for all queries at once.

The structure is CSR-like: rows of query ``i`` are ``offsets[i]:offsets[i+1]``, in rank order.
Per row: the grade (``>= 0`` judged; :data:`NOT_IN_QRELS` = -1 not in the qrels; :data:`UNJUDGED`
= -2 in the qrels with a negative grade, i.e. "in the pool but not judged", trec_eval's codes),
the score and a tie-group id.  Per query: all grades of its qrels (sorted descending), so that
``R`` at any relevance level, the ideal gain vector and the judged non-relevant count are
derivable.  Measures read only this structure and never look back at files.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from cranfield.base.segments import segment_total

if TYPE_CHECKING:
    from cranfield.judging.side_inputs import KnownDocs, RankedPrefs, RankedSubtopics

__all__ = ["NOT_IN_QRELS", "UNJUDGED", "JudgedRankings", "segment_seqsum"]

NOT_IN_QRELS = -1
UNJUDGED = -2


@dataclass(frozen=True, eq=False)
class JudgedRankings:
    """Judged rankings of one run over a set of queries (see module docstring)."""

    query_ids: tuple[str, ...]
    offsets: np.ndarray
    grades: np.ndarray
    scores: np.ndarray
    tie_ids: np.ndarray
    qrels_offsets: np.ndarray
    qrels_grades: np.ndarray
    in_run: np.ndarray
    run_name: str = "run"
    collection_size: np.ndarray | None = None
    """Per query: documents in the collection (``--collection-size``; see measure_inputs.py)."""
    ties: str = "trec"
    qrels_max_grade: int | None = None
    """The highest grade of the whole qrels, not only of these queries (``None``: not known,
    the highest of :attr:`qrels_grades`): a scale's top, such as ERR's g_max, must not depend
    on which queries a run (or a block of it) holds."""
    depth: int | None = None
    judged_only: bool = False
    cut: bool = False
    """Under the ``weak`` policy, a depth cut fell inside a tie group of some query: all of that
    level's rows are kept (its composition is what the expectation needs) but only the first
    ``depth`` positions are retrieved, so :attr:`num_ret` is smaller than the rows of such a
    query.  Tie-aware forms read at most :meth:`limit` positions; plain forms never see this."""
    notes: dict = field(default_factory=dict, repr=False)
    """Facts about how the rankings were formed (skipped queries...), for reports."""
    known: KnownDocs | None = field(default=None, repr=False)
    """Documents known to the user (``--known``; see measure_inputs.py)."""
    target: np.ndarray | None = field(default=None, repr=False)
    """Per query: relevant documents the user wants (``--target``; see measure_inputs.py)."""
    prefs: RankedPrefs | None = field(default=None, repr=False)
    """Per query: preference judgments and the judged documents in ranked order (``--prefs``)."""
    judgment_groups: tuple | None = field(default=None, repr=False)
    """Per judgment group: ``(its JudgedRankings, where its queries sit among these)``."""
    subtopics: RankedSubtopics | None = field(default=None, repr=False)
    """Subtopic judgments of the ranked documents (``--subtopics``; see measure_inputs.py)."""
    annotation: Callable[[], np.ndarray] | None = field(default=None, repr=False, compare=False)
    """Computes :attr:`annotated` on first use (a cached function): only ``Hole@k`` reads it,
    and the per-row lookup in the whole qrels is work every other evaluation should not pay."""

    @property
    def annotated(self) -> np.ndarray | None:
        """Per row: whether its document is judged (any grade) for some query of the whole
        qrels, not only for its own (MTEB's ``Hole@k``); ``None``: not known (rankings not made
        by :func:`~cranfield.judging.join.judge`)."""
        return None if self.annotation is None else self.annotation()

    # ------------------------------------------------------------------ shape
    @property
    def run(self) -> str:
        """The run's name, as :attr:`cranfield.Results.run`: what the note on which queries a
        table's means are over (:func:`cranfield.results.query_sets.note`) names it by."""
        return self.run_name

    @property
    def num_queries(self) -> int:
        return len(self.query_ids)

    @functools.cached_property
    def num_rows(self) -> np.ndarray:
        """Rows per query: :attr:`num_ret`, plus the rows of a level cut by ``depth``."""
        return np.diff(self.offsets)

    @functools.cached_property
    def num_ret(self) -> np.ndarray:
        """Number of ranked documents per query (after depth cut and judged-only filter)."""
        if self.cut and self.depth is not None:  # a cut comes with its depth
            return np.minimum(self.num_rows, self.depth)
        return self.num_rows

    def limit(self, cutoff: int | None = None) -> int | None:
        """The last position a measure with this cut-off reads: ``cutoff``, capped by the depth
        when a depth cut fell inside a tie group (see :attr:`cut`); None: every row."""
        if not self.cut or self.depth is None:  # a cut comes with its depth
            return cutoff
        return int(self.depth) if cutoff is None else min(int(cutoff), int(self.depth))

    def truncated(self) -> JudgedRankings:
        """The rankings as they are ordered, cut at :attr:`depth` where a tie group straddled
        it (:attr:`cut`): for a linear order built from weak rankings (best or worst
        tie-breaking).  Unchanged when nothing was cut."""
        if not self.cut:
            return self
        from dataclasses import replace

        keep = self.rank <= self.depth
        offsets = np.zeros(len(self.offsets), dtype=np.int64)
        np.cumsum(self.num_ret, out=offsets[1:])
        known = self.known
        if known is not None:
            known = replace(known, rows=known.rows[keep])
        subtopics = self.subtopics
        if subtopics is not None:
            subtopics = replace(subtopics, pair_of_row=subtopics.pair_of_row[keep])
        return replace(
            self,
            offsets=offsets,
            annotation=subset_annotation(self.annotation, keep),
            grades=self.grades[keep],
            scores=self.scores[keep],
            tie_ids=self.tie_ids[keep],
            known=known,
            subtopics=subtopics,
            cut=False,
        )

    @functools.cached_property
    def row_query(self) -> np.ndarray:
        """Query index of every row."""
        return _frozen(np.repeat(np.arange(self.num_queries, dtype=np.int64), self.num_rows))

    @functools.cached_property
    def rank(self) -> np.ndarray:
        """1-based rank of every row within its query."""
        r = np.arange(1, len(self.grades) + 1, dtype=np.int64)
        r -= np.repeat(self.offsets[:-1], self.num_rows)
        return _frozen(r)

    @functools.cached_property
    def max_rank(self) -> int:
        """The most rows of any query (a bound for tables indexed by rank)."""
        return int(self.num_rows.max()) if self.num_queries else 0

    # ------------------------------------------------------------------ relevance
    def relevant(self, rel: int = 1) -> np.ndarray:
        """Boolean per row: judged with grade >= ``rel`` (read-only, computed once per level)."""
        level = max(int(rel), 0)
        cache = self._relevant_cache
        if level not in cache:
            cache[level] = _frozen(self.grades >= level)
        return cache[level]

    @functools.cached_property
    def _relevant_cache(self) -> dict[int, np.ndarray]:
        return {}

    def num_rel(self, rel: int = 1) -> np.ndarray:
        """R per query: number of qrels documents with grade >= ``rel`` (retrieved or not)."""
        return self.qrels_count(self.qrels_grades >= max(rel, 0))

    def qrels_count(self, mask: np.ndarray) -> np.ndarray:
        """Per-query count of qrels entries where ``mask`` (aligned with qrels_grades) holds."""
        cs = np.concatenate(([0], np.cumsum(mask, dtype=np.int64)))
        return cs[self.qrels_offsets[1:]] - cs[self.qrels_offsets[:-1]]

    @functools.cached_property
    def qrels_query(self) -> np.ndarray:
        """Query index of every entry of ``qrels_grades``."""
        return np.repeat(np.arange(self.num_queries, dtype=np.int64), np.diff(self.qrels_offsets))

    def qrels_of(self, i: int) -> np.ndarray:
        """All qrels grades of query ``i``, sorted descending."""
        return self.qrels_grades[self.qrels_offsets[i] : self.qrels_offsets[i + 1]]

    # ------------------------------------------------------------------ segment helpers
    def count(self, mask: np.ndarray) -> np.ndarray:
        """Per-query number of rows where ``mask`` holds (exact integers)."""
        hits = np.flatnonzero(mask)  # few in long runs: cheaper than a cumulative sum
        return np.diff(np.searchsorted(hits, self.offsets)).astype(np.int64, copy=False)

    def count_at(self, mask: np.ndarray, k: int | np.ndarray) -> np.ndarray:
        """Per-query number of rows where ``mask`` holds among ranks ``1..k``."""
        hits = np.flatnonzero(mask)
        start = self.offsets[:-1]
        # k capped at the ranking's length before adding: any int64 k, no overflow
        end = start + np.minimum(np.asarray(k, dtype=np.int64), self.num_ret)
        return (np.searchsorted(hits, end) - np.searchsorted(hits, start)).astype(np.int64)

    def cumcount(self, mask: np.ndarray) -> np.ndarray:
        """Per row: number of rows of the same query at or above it where ``mask`` holds."""
        cs = np.cumsum(mask, dtype=np.int64)
        start = self.offsets[:-1]
        before = np.where(start > 0, cs[np.maximum(start - 1, 0)], 0) if len(cs) else start
        cs -= np.repeat(before, self.num_rows)
        return cs

    def seqsum(self, rows: np.ndarray, values: np.ndarray) -> np.ndarray:
        """Per-query sum of ``values`` at ``rows`` (ascending), added one by one in rank order.

        See :func:`segment_seqsum`; this is what makes sums agree with trec_eval's bit for bit.
        """
        return segment_seqsum(self.row_query[rows], values, self.num_queries)

    # ------------------------------------------------------------------ ties
    @functools.cached_property
    def tie_start(self) -> np.ndarray:
        """Row index of the first row of each row's tie group."""
        n = len(self.tie_ids)
        if n == 0:
            return np.zeros(0, dtype=np.int64)
        new = np.concatenate(([True], self.tie_ids[1:] != self.tie_ids[:-1]))
        starts = np.flatnonzero(new)
        return np.repeat(starts, np.diff(np.append(starts, n)))

    @functools.cached_property
    def tie_size(self) -> np.ndarray:
        """Size of each row's tie group."""
        if len(self.tie_ids) == 0:
            return np.zeros(0, dtype=np.int64)
        n = len(self.tie_ids)  # tie_ids are non-decreasing: groups are contiguous runs
        starts = np.flatnonzero(np.concatenate(([True], self.tie_ids[1:] != self.tie_ids[:-1])))
        sizes = np.diff(np.append(starts, n))
        return np.repeat(sizes, sizes)

    @property
    def has_ties(self) -> bool:
        return bool(len(self.tie_ids)) and bool((self.tie_size > 1).any())

    # ------------------------------------------------------------------ exact discounts
    @staticmethod
    def log2_table(n: int) -> np.ndarray:
        """``log2(i)`` for ``i = 0..n`` computed by the C library (as trec_eval does)."""
        return _log2_table(n)


def _frozen(a: np.ndarray) -> np.ndarray:
    """Mark a cached array read-only, so that no caller can change it for the next one."""
    a.flags.writeable = False
    return a


segment_seqsum = segment_total
"""Per-segment sums added one by one in order from 0.0 (see :mod:`cranfield.base.segments`)."""


_LOG2: np.ndarray = np.zeros(0)


def _log2_table(n: int) -> np.ndarray:
    global _LOG2
    if len(_LOG2) <= n:
        size = max(n + 1, 2 * len(_LOG2), 1024)
        _LOG2 = np.array([-math.inf] + [math.log2(i) for i in range(1, size)])
    return _LOG2[: n + 1]


def subset_annotation(
    annotation: Callable[[], np.ndarray] | None, keep: np.ndarray
) -> Callable[[], np.ndarray] | None:
    """The lazy :attr:`JudgedRankings.annotated` of the rows ``keep`` selects."""
    if annotation is None:
        return None
    return functools.cache(lambda: annotation()[keep])
