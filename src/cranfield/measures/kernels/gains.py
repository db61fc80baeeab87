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

The table is never built one entry per grade (a grade of ``2**63-1`` would need that many):
a row's gain is looked up among the user's grades (else it is the grade), the ideal list is
made from the query's judged (grade, count) runs, and rbp's ``hi`` takes the largest default
entry from the highest grade and the user's grades.  Only the merge-sort order of fractional
gains needs the whole table: it is built for queries with at most :data:`LEVEL_LIMIT` levels
(trec_eval's values); above that, gains are ordered by value.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple, TypeAlias

import numpy as np

from cranfield.judging.rankings import JudgedRankings
from cranfield.measures.params import INT64_MAX, INT64_MIN

__all__ = ["LEVEL_LIMIT", "GainTable", "gain_pairs", "gain_table", "glibc_msort"]

Gains: TypeAlias = Mapping[Any, Any] | Sequence[tuple[Any, Any]]
"""User gains: grade -> gain, or (grade, gain) pairs (as :func:`gain_pairs` reads them)."""
GainPairs: TypeAlias = tuple[tuple[int, float], ...]
"""Gains as :func:`gain_pairs` gives them: (int grade, float gain) pairs in the given order."""

INT_MIN = -(2**31)
LEVEL_LIMIT = 256
"""Queries with up to this many grade levels (grades ``0..255``) get trec_eval's merge-sort
order of fractional gains (if at most this many gains are given); above it (trec_eval would
build a table of one entry per grade) gains are ordered by value.  The merge sort runs in
Python once per distinct number of levels: this bound keeps its worst case (every query with
its own highest grade) near 0.1 s."""


def _cmp_gain(a: float, b: float) -> int:
    """C ``(int)(a - b)``: truncation toward zero; x86 gives INT_MIN when out of range."""
    d = a - b
    if not (abs(d) < 2**31):  # also NaN
        return INT_MIN
    return int(d)


def glibc_msort(items: list[Any], key_cmp: Callable[[Any, Any], int]) -> list[Any]:
    """glibc's ``msort``: top-down merge sort (first half ``n // 2``), taking left on ``<= 0``."""
    order = _msort_range(0, len(items), len(items), lambda a, b: key_cmp(items[a], items[b]))
    return [items[i] for i in order]


def gain_pairs(gains: Gains | None) -> GainPairs:
    """User gains as a tuple of (int grade, float gain) pairs, in the given order."""
    if not gains:
        return ()
    items = gains.items() if isinstance(gains, Mapping) else gains
    return tuple((int(g), _as_float(v)) for g, v in items)


def _as_float(v: Any) -> float:
    try:
        return float(v)
    except OverflowError:  # an integer beyond the doubles (only from unchecked measures)
        return math.inf if v > 0 else -math.inf


def _sorted_table(levels: int, pairs: GainPairs) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """trec_eval's sorted gain table for a query with ``levels`` grade levels.

    Returns (grade, gain, counted) arrays in sorted order; ``counted`` marks the entries that
    take the count of their grade (the first user entry of a grade, and the defaults).
    """
    user_grades = np.array([_int64(g) for g, _ in pairs], dtype=np.int64)
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
            _msort_range(0, len(values), len(pairs), lambda a, b: _cmp_gain(values[a], values[b])),
            dtype=np.int64,
        )
    return grade[order], gain[order], counted[order]


def _msort_range(lo: int, hi: int, run_from: int, key_cmp: Callable[[int, int], int]) -> list[int]:
    """:func:`glibc_msort` of the indices ``lo..hi-1`` when those from ``run_from`` on are
    already in order for ``key_cmp`` (the default entries: distinct integer gains, ascending,
    less than 2**31 apart): their sub-arrays come back unchanged, so only the sub-arrays
    holding user entries are sorted and merged, with glibc's comparisons."""
    if hi - lo <= 1 or lo >= run_from:
        return list(range(lo, hi))
    mid = lo + (hi - lo) // 2
    b1 = _msort_range(lo, mid, run_from, key_cmp)
    b2 = _msort_range(mid, hi, run_from, key_cmp)
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


def _int64(g: int) -> int:
    """A user grade as an int64: one outside the range matches no document and no judgment,
    as does INT64_MIN (judged grades are >= 0, ranked rows' grades >= -2)."""
    return g if INT64_MIN <= g <= INT64_MAX else INT64_MIN


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
        result: np.ndarray = (
            np.arange(len(self.ideal_gain)) - self.ideal_offsets[self.ideal_query] + 1
        )
        return result


class _Judged(NamedTuple):
    """Per query the highest judged grade (-1: none), and the (query, grade, count) runs of
    the judged qrels entries (grade >= 0), by query then descending grade."""

    top: np.ndarray
    query: np.ndarray
    grade: np.ndarray
    entries: np.ndarray  # (not ``count``: that is tuple.count)


def _judged(jr: JudgedRankings) -> _Judged:
    off = jr.qrels_offsets
    grades = jr.qrels_grades  # each query's grades sorted descending
    nonempty = off[1:] > off[:-1]
    top = np.full(jr.num_queries, -1, dtype=np.int64)
    top[nonempty] = grades[off[:-1][nonempty]]
    top = np.maximum(top, -1)
    judged = np.flatnonzero(grades >= 0)
    q, g = jr.qrels_query[judged], grades[judged]
    new = np.ones(len(g), dtype=bool)
    new[1:] = (q[1:] != q[:-1]) | (g[1:] != g[:-1])
    starts = np.flatnonzero(new)
    count = np.diff(np.append(starts, len(g)))
    return _Judged(top, q[starts], g[starts], count)


def _lookup(keys: np.ndarray, values: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(hit, value) of each ``x`` in the sorted ``keys``."""
    if len(keys) == 0:
        return np.zeros(len(x), dtype=bool), np.zeros(len(x))
    pos = np.minimum(np.searchsorted(keys, x), len(keys) - 1)
    hit = keys[pos] == x
    return hit, values[pos]


def gain_table(
    jr: JudgedRankings,
    gains: Gains | None = None,
    *,
    normalise: bool = False,
) -> GainTable:
    """Build the per-query gain tables (see module docstring).

    ``normalise`` applies trec_eval's rbp rescaling: with ``lo = min(0, table gains)`` and
    ``hi = max(0, table gains)``, if ``lo < 0`` or ``hi > 1`` every table gain becomes
    ``(g - lo) / (hi - lo)`` (gains of grades outside the table stay 0).

    The cost depends on the number of ranked rows, judgments and given gains, never on the
    grade values: the default entries of the table (``gain = grade``) are looked up, not
    built, except for trec_eval's merge-sort order of fractional gains (:data:`LEVEL_LIMIT`).
    """
    pairs = gain_pairs(gains)
    nq = jr.num_queries
    jd = _judged(jr)
    grades = jr.grades

    # the user's grades that can match a judgment or a ranked row, and their gains: a
    # ranked row takes the first entry of its grade in sorted order (the smallest gain of a
    # grade given twice), the ideal list the first one given (trec_eval's "counted" entry)
    row_of: dict[int, float] = {}
    ideal_of: dict[int, float] = {}
    for i in sorted(range(len(pairs)), key=lambda i: (math.isnan(pairs[i][1]), pairs[i][1])):
        g, v = pairs[i]
        if INT64_MIN < g <= INT64_MAX:
            row_of.setdefault(g, v)
    for g, v in pairs:
        if 0 <= g <= INT64_MAX:
            ideal_of.setdefault(g, v)
    user = np.array(sorted(row_of), dtype=np.int64)

    # gain of every ranked row: the grade (0 below 0) unless the user gives one
    row_gain = np.maximum(grades, 0).astype(np.float64)
    in_table = grades >= 0
    if len(user):  # most ranked rows are not judged: look up those within the given grades
        rows = np.flatnonzero((grades >= user[0]) & (grades <= user[-1]))
        hit, value = _lookup(user, np.array([row_of[g] for g in user.tolist()]), grades[rows])
        row_gain[rows[hit]] = value[hit]
        in_table[rows[hit]] = True

    uv = np.array([v for _, v in pairs], dtype=np.float64)
    integral = bool(np.all(np.mod(uv, 1.0) == 0.0))
    quirk = np.zeros(nq, dtype=bool)
    if not integral and len(pairs) <= LEVEL_LIMIT:  # trec_eval's (int)(g1 - g2) on the table
        quirk = jd.top < LEVEL_LIMIT
    emitted = _msort_ideal(jr, jd, pairs, quirk, row_gain) if quirk.any() else None

    if normalise:
        row_gain = _normalised(jr, jd.top, pairs, uv, row_gain, in_table)

    # the ideal list: every judged entry with a positive gain, gains descending
    ideal = jd.grade.astype(np.float64)
    if ideal_of:
        keys = np.array(sorted(ideal_of), dtype=np.int64)
        hit, value = _lookup(keys, np.array([ideal_of[g] for g in keys.tolist()]), jd.grade)
        ideal[hit] = value[hit]
    keep = (ideal > 0) & ~quirk[jd.query]
    q, key, gv, c = jd.query[keep], -ideal[keep], ideal[keep], jd.entries[keep]
    if emitted is not None:
        parts = zip((q, key, gv, c), emitted, strict=True)
        q, key, gv, c = (np.concatenate((a, b)) for a, b in parts)
    o = np.lexsort((key, q))
    ideal_query = np.repeat(q[o], c[o])
    ideal_gain = np.repeat(gv[o], c[o])
    sizes = np.bincount(ideal_query, minlength=nq) if nq else np.zeros(0, dtype=np.int64)
    offsets = np.concatenate(([0], np.cumsum(sizes))).astype(np.int64)
    return GainTable(row_gain, ideal_query.astype(np.int64), ideal_gain, offsets)


def _normalised(
    jr: JudgedRankings,
    top: np.ndarray,
    pairs: GainPairs,
    uv: np.ndarray,
    row_gain: np.ndarray,
    in_table: np.ndarray,
) -> np.ndarray:
    """trec_eval's rbp rescaling of the rows' gains, per query: ``lo``/``hi`` are the extremes
    of the user's gains and of the default gains ``0..L-1`` (largest: the highest grade below
    ``L`` that the user does not give)."""
    if np.isnan(uv).any():  # the table's min and max are NaN: no rescaling (min(0, nan) = 0)
        return row_gain
    lo = min(0.0, float(uv.min())) if len(uv) else 0.0
    umax = float(uv.max()) if len(uv) else -math.inf
    given = np.unique(np.array([g for g, _ in pairs if 0 <= g <= INT64_MAX], dtype=np.int64))
    dmax = top.copy()
    if len(given):
        brk = np.ones(len(given), dtype=bool)
        brk[1:] = given[1:] != given[:-1] + 1
        run_start = given[np.maximum.accumulate(np.where(brk, np.arange(len(given)), 0))]
        hit, start = _lookup(given, run_start, top)
        dmax = np.where(hit, start - 1, top)
    hi = np.maximum(0.0, np.maximum(umax, np.where(dmax >= 0, dmax, 0).astype(np.float64)))
    has_table = (top >= 0) | (len(pairs) > 0)
    scaled = has_table & ((lo < 0) | (hi > 1.0))
    rows = np.flatnonzero(in_table & scaled[jr.row_query])
    out = row_gain.copy()
    h = hi[jr.row_query[rows]]
    out[rows] = (row_gain[rows] - lo) / (h - lo)
    return out


def _msort_ideal(
    jr: JudgedRankings, jd: _Judged, pairs: GainPairs, quirk: np.ndarray, row_gain: np.ndarray
) -> tuple[np.ndarray, ...]:
    """trec_eval's ideal lists of the ``quirk`` queries (fractional gains, fewer than
    :data:`LEVEL_LIMIT` levels): the whole table sorted by glibc's merge sort with the
    truncating comparator, read from the top down, each entry repeated by its count, empty
    entries skipped, stopping at the first non-empty entry with a non-positive gain.  Returns
    (query, order key, gain, count) of the emitted entries; a grade given twice also takes, in
    ``row_gain``, the gain of its first entry in this order.  One table per number of levels
    ``L``; the judged (query, grade) runs of its queries are placed on it at once."""
    levels = np.zeros(len(quirk), dtype=np.int64)
    levels[quirk] = jd.top[quirk] + 1
    twice = [g for g, n in Counter(g for g, _ in pairs).items() if n > 1]
    dup_rows = np.zeros(0, dtype=np.int64)
    if twice:
        dup_rows = np.flatnonzero(np.isin(jr.grades, twice) & quirk[jr.row_query])
    sel = np.flatnonzero(quirk[jd.query])
    sel = sel[np.argsort(levels[jd.query[sel]], kind="stable")]  # grouped by L, then query
    group_of = levels[jd.query[sel]]
    emit: list[list[np.ndarray]] = [[], [], [], []]
    for L in np.unique(levels[quirk]).tolist():
        tgrade, tgain, tcounted = _sorted_table(int(L), pairs)
        if len(dup_rows):  # get_gain: the first entry (in sorted order) with the grade
            rows = dup_rows[levels[jr.row_query[dup_rows]] == L]
            for g in twice:
                first = np.flatnonzero(tgrade == _int64(g))
                if len(first):
                    row_gain[rows[jr.grades[rows] == g]] = tgain[first[0]]
        if L == 0 or len(tgain) == 0 or tgain[-1] <= 0:
            continue
        # every grade 0..L-1 has one counted entry: its place in the table and its gain
        counted = np.flatnonzero(tcounted)
        place = np.empty(L, dtype=np.int64)
        place[tgrade[counted]] = counted
        lo, hi = np.searchsorted(group_of, [L, L + 1])
        e = sel[lo:hi]
        q, p, c = jd.query[e], place[jd.grade[e]], jd.entries[e]
        o = np.lexsort((-p, q))  # per query, from the top of the table down
        q, p, c = q[o], p[o], c[o]
        g = tgain[p]
        # stop at each query's first entry with a non-positive gain
        bad = (g <= 0).astype(np.int64)
        starts = np.flatnonzero(np.concatenate(([True], q[1:] != q[:-1]))) if len(q) else bad
        before = np.cumsum(bad) - bad  # non-positive entries above, from the first query on
        before -= np.repeat(before[starts], np.diff(np.append(starts, len(q))))
        keep = (before == 0) & (bad == 0)
        emit[0].append(q[keep])
        emit[1].append(-p[keep].astype(np.float64))
        emit[2].append(g[keep])
        emit[3].append(c[keep])
    empty = (np.zeros(0, np.int64), np.zeros(0), np.zeros(0), np.zeros(0, np.int64))
    return tuple(np.concatenate(e) if e else z for e, z in zip(emit, empty, strict=True))
