"""trec_eval's per-query gain table (``gain_init.c``), shared by every graded measure.

For one query, the table lists (grade, gain, count): first the user's ``grade=gain`` pairs in
the order given (count 0 unless the grade occurs in the query's qrels), then every grade
``0 .. L-1`` not given by the user with gain = grade (``L`` = highest judged grade + 1).  The
table is sorted by ascending gain with glibc 2.36's (stable, merge) ``qsort`` and the comparator
``(int)(gain1 - gain2)``, so gains less than 1 apart compare equal and keep table order.

- the gain of a ranked document is that of the first table entry with its grade (0 if none,
  so documents not in the qrels gain 0 unless the user gives ``-1=...``/``-2=...``);
- the ideal list is read from the top of the sorted table down, each entry repeated ``count``
  times, skipping empty entries and stopping at the first non-positive gain; it is empty when
  the top entry's gain is not positive.

With default or integer gains this is simply "judged grades sorted descending"; with fractional
gains the comparator can put a smaller gain above a larger one (trec_eval 10.0 quirk, kept).
Queries whose qrels have no grade >= 0 get an empty table (trec_eval keeps the previous
query's level count there, a defect that cannot change any value but ``ideal_dcg``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np

from ..judged import JudgedRankings

__all__ = ["GainTable", "gain_pairs", "gain_table", "glibc_msort"]

INT_MIN = -(2**31)


def _cmp_gain(a: float, b: float) -> int:
    """C ``(int)(a - b)``: truncation toward zero; x86 gives INT_MIN when out of range."""
    d = a - b
    if not (abs(d) < 2**31):  # also NaN
        return INT_MIN
    return int(d)


def glibc_msort(items: list, key_cmp) -> list:
    """glibc's ``msort``: top-down merge sort (first half ``n // 2``), taking left on ``<= 0``."""
    n = len(items)
    if n <= 1:
        return list(items)
    n1 = n // 2
    b1 = glibc_msort(items[:n1], key_cmp)
    b2 = glibc_msort(items[n1:], key_cmp)
    out = []
    i = j = 0
    while i < len(b1) and j < len(b2):
        if key_cmp(b1[i], b2[j]) <= 0:
            out.append(b1[i])
            i += 1
        else:
            out.append(b2[j])
            j += 1
    out.extend(b1[i:])
    out.extend(b2[j:])
    return out


def gain_pairs(gains: Mapping[Any, Any] | Sequence[tuple[Any, Any]] | None) -> tuple:
    """User gains as a tuple of (int grade, float gain) pairs, in the given order."""
    if not gains:
        return ()
    items = gains.items() if isinstance(gains, Mapping) else gains
    return tuple((int(g), float(v)) for g, v in items)


def _sorted_table(levels: int, pairs: tuple) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """trec_eval's sorted gain table for a query with ``levels`` grade levels.

    Returns (grade, gain, counted) arrays in sorted order; ``counted`` marks the entries that
    take the count of their grade (the first user entry of a grade, and the defaults).
    """
    user_grades = np.array([g for g, _ in pairs], dtype=np.int64)
    user_gains = np.array([v for _, v in pairs], dtype=np.float64)
    counted = np.zeros(len(pairs), dtype=bool)
    if len(pairs):
        _, first = np.unique(user_grades, return_index=True)
        counted[first] = True
        counted &= (user_grades >= 0) & (user_grades < levels)
    given = set(user_grades.tolist())  # (np.setdiff1d would import numpy.ma: 20 ms)
    defaults = np.array([g for g in range(levels) if g not in given], dtype=np.int64)
    grade = np.concatenate((user_grades, defaults))
    gain = np.concatenate((user_gains, defaults.astype(np.float64)))
    counted = np.concatenate((counted, np.ones(len(defaults), dtype=bool)))
    if np.all(np.mod(gain, 1.0) == 0.0):
        # integer gains: (int)(g1 - g2) is a consistent comparator, so every stable sort
        # agrees with glibc's merge sort
        order = np.argsort(gain, kind="stable")
    else:
        values = gain.tolist()
        order = np.array(
            glibc_msort(list(range(len(values))), lambda a, b: _cmp_gain(values[a], values[b])),
            dtype=np.int64,
        )
    return grade[order], gain[order], counted[order]


class GainTable(NamedTuple):
    """Gains of all ranked rows and the ideal gain lists of all queries of ``jr``."""

    row_gain: np.ndarray
    """Gain of every ranked row (``jr.grades`` order)."""
    ideal_query: np.ndarray
    ideal_gain: np.ndarray
    ideal_offsets: np.ndarray
    """CSR over queries: ideal gains of query ``q`` are ``ideal_gain[ideal_offsets[q]:...]``."""

    @property
    def ideal_size(self) -> np.ndarray:
        return np.diff(self.ideal_offsets)

    @property
    def ideal_position(self) -> np.ndarray:
        """1-based position of each ideal entry within its query."""
        return np.arange(len(self.ideal_gain)) - self.ideal_offsets[self.ideal_query] + 1


def _levels(jr: JudgedRankings) -> np.ndarray:
    """``L`` per query: highest judged grade + 1 (0 if the qrels have no grade >= 0)."""
    off = jr.qrels_offsets
    nonempty = off[1:] > off[:-1]
    top = np.full(jr.num_queries, -1, dtype=np.int64)
    top[nonempty] = jr.qrels_grades[off[:-1][nonempty]]  # grades sorted descending
    return np.maximum(top, -1) + 1


def gain_table(
    jr: JudgedRankings,
    gains: Mapping | Sequence | None = None,
    *,
    normalise: bool = False,
) -> GainTable:
    """Build the per-query gain tables (see module docstring).

    ``normalise`` applies trec_eval's rbp rescaling: with ``lo = min(0, table gains)`` and
    ``hi = max(0, table gains)``, if ``lo < 0`` or ``hi > 1`` every table gain becomes
    ``(g - lo) / (hi - lo)`` (gains of grades outside the table stay 0).
    """
    pairs = gain_pairs(gains)
    nq = jr.num_queries
    levels = _levels(jr)
    distinct, group = np.unique(levels, return_inverse=True)
    group = group.reshape(-1)

    # per (query, grade) counts of judged qrels entries, looked up by sorted key
    judged = jr.qrels_grades >= 0
    width = int(jr.qrels_grades.max()) + 1 if judged.any() else 1
    keys = jr.qrels_query[judged] * width + jr.qrels_grades[judged]
    ukeys, ucounts = np.unique(keys, return_counts=True)
    # grades present: from the (query, grade) keys already counted (plain np.unique would
    # import numpy.ma, 20 ms of start-up)
    present = set((ukeys % width).tolist()) if len(ukeys) else set()

    def counts_of(queries: np.ndarray, grade: int) -> np.ndarray:
        if grade < 0 or grade >= width or len(ukeys) == 0:
            return np.zeros(len(queries), dtype=np.int64)
        k = queries * width + grade
        pos = np.minimum(np.searchsorted(ukeys, k), len(ukeys) - 1)
        return np.where(ukeys[pos] == k, ucounts[pos], 0)

    min_grade = min([-2, *(g for g, _ in pairs)])
    max_grade = max([int(distinct.max()) if len(distinct) else 0, *(g for g, _ in pairs), 0])
    lut = np.zeros((max(len(distinct), 1), max_grade - min_grade + 1), dtype=np.float64)
    emit_q: list[np.ndarray] = []
    emit_order: list[np.ndarray] = []
    emit_gain: list[np.ndarray] = []
    emit_count: list[np.ndarray] = []
    order_base = 0
    for gi, L in enumerate(distinct.tolist()):
        tgrade, tgain, tcounted = _sorted_table(int(L), pairs)
        lut_gain = tgain
        if normalise and len(tgain):
            lo, hi = min(0.0, float(tgain.min())), max(0.0, float(tgain.max()))
            if lo < 0 or hi > 1:
                lut_gain = (tgain - lo) / (hi - lo)
        # get_gain: the first entry (in sorted order) with the grade
        ug, first = np.unique(tgrade, return_index=True)
        lut[gi, ug - min_grade] = lut_gain[first]
        queries = np.flatnonzero(group == gi)
        if len(tgain) == 0 or tgain[-1] <= 0:
            continue
        stopped = np.zeros(len(queries), dtype=bool)
        walk = np.flatnonzero(tcounted & np.isin(tgrade, list(present)))[::-1]
        for idx in walk.tolist():  # from the top of the table down, non-empty entries only
            e_grade, e_gain = int(tgrade[idx]), float(tgain[idx])
            c = counts_of(queries, e_grade)
            has = (c > 0) & ~stopped
            if e_gain <= 0:
                stopped |= has
                continue
            if has.any():
                emit_q.append(queries[has])
                emit_order.append(np.full(int(has.sum()), order_base, dtype=np.int64))
                emit_gain.append(np.full(int(has.sum()), e_gain))
                emit_count.append(c[has])
            order_base += 1

    # gain of every ranked row; only grades with a non-zero gain in some table are looked up
    # (most retrieved documents are unjudged or non-relevant)
    grades = jr.grades
    row_gain = np.zeros(len(grades))
    column = grades - min_grade  # every grade lies in min_grade..max_grade
    look = np.flatnonzero(lut.any(axis=0)[column])
    if len(look):
        row_gain[look] = lut[group[jr.row_query[look]], column[look]]

    if emit_q:
        q = np.concatenate(emit_q)
        o = np.lexsort((np.concatenate(emit_order), q))
        q = q[o]
        g = np.concatenate(emit_gain)[o]
        c = np.concatenate(emit_count)[o]
        ideal_query = np.repeat(q, c)
        ideal_gain = np.repeat(g, c)
    else:
        ideal_query = np.zeros(0, dtype=np.int64)
        ideal_gain = np.zeros(0)
    sizes = np.bincount(ideal_query, minlength=nq) if nq else np.zeros(0, dtype=np.int64)
    offsets = np.concatenate(([0], np.cumsum(sizes))).astype(np.int64)
    return GainTable(row_gain, ideal_query.astype(np.int64), ideal_gain, offsets)
