"""The final level of a weak ordering (Raghavan, Jung & Bollmann, ACM TOIS 7(3), 1989): for a
user who wants ``NR`` relevant documents, the level at which the need is met and the counts
around it (:class:`FinalLevel`), and the arithmetic the weak-order measures
(:mod:`cranfield.measures.weak_order`), Keen's ranks (:mod:`cranfield.measures.relrank`) and the
user models (:mod:`cranfield.measures.user`) compute from it.  No declarations: the formulas and
their sources are in :mod:`cranfield.measures.weak_order`'s docstring.
"""

from __future__ import annotations

import numpy as np

from cranfield.judging.rankings import JudgedRankings
from cranfield.ties.expected import expected_count_at
from cranfield.ties.levels import level_bounds, log_binom, marked_levels

__all__ = [
    "FinalLevel",
    "ceiling",
    "esl",
    "expected_precision_at_nr",
    "expected_relevant_at",
    "per_relevant",
    "precall",
    "prr",
    "snap",
    "wanted_nr",
]


def snap(x: np.ndarray) -> np.ndarray:
    near = np.round(x)
    return np.where(np.abs(x - near) <= 1e-9 * np.maximum(1.0, np.abs(x)), near, x)


def wanted_nr(jr: JudgedRankings, NR: int | None, recall: float | None, rel: int) -> np.ndarray:
    """NR per query (float): the given NR, or snapped ``recall * R``."""
    if NR is not None:
        return np.full(jr.num_queries, float(NR))
    assert recall is not None  # one of NR and recall, checked by the declaration
    return snap(float(recall) * jr.num_rel(rel).astype(np.float64))


class FinalLevel:
    """Per query: the final level for a wanted NR (``ok`` where the ranking meets the need)."""

    def __init__(self, jr: JudgedRankings, weak: bool, nr: np.ndarray, rel: int) -> None:
        rows = np.flatnonzero(jr.relevant(rel))
        base = np.searchsorted(rows, jr.offsets)
        rel_ret = np.diff(base)
        target = np.maximum(np.ceil(nr), 1.0).astype(np.int64)
        self.ok = (jr.num_rel(rel) > 0) & (target <= rel_ret)
        q = np.flatnonzero(self.ok)
        _, start, end = level_bounds(jr, rows[base[q] + target[q] - 1], weak)
        S = np.searchsorted(rows, start) - base[q]
        r = np.searchsorted(rows, end) - base[q] - S
        zero = np.zeros(jr.num_queries)
        self.r, self.i, self.tr, self.j = zero.copy(), zero.copy(), zero.copy(), zero.copy()
        self.r[q] = r
        self.i[q] = end - start - r
        self.tr[q] = S
        self.j[q] = start - jr.offsets[q] - S
        self.nr = nr
        self.s = nr - self.tr


def esl(f: FinalLevel) -> np.ndarray:
    return f.j + f.i * f.s / (f.r + 1.0)


def prr(f: FinalLevel) -> np.ndarray:
    out = np.zeros(len(f.nr))
    zero = f.nr == 0
    lim = f.ok & zero & (f.j == 0)  # x = 0: limit s -> 0 (Raghavan et al. sec. 3.2.2)
    out[lim] = (f.r[lim] + 1.0) / (f.r[lim] + f.i[lim] + 1.0)
    ok = f.ok & ~zero
    out[ok] = f.nr[ok] / (f.nr[ok] + esl(f)[ok])
    return out


def precall(f: FinalLevel) -> np.ndarray:
    out = np.zeros(len(f.nr))
    zero = f.nr == 0
    lim = f.ok & zero & (f.j == 0)
    out[lim] = f.r[lim] / (f.r[lim] + f.i[lim])
    ok = f.ok & ~zero
    nr = f.nr[ok]
    out[ok] = nr / (nr + f.j[ok] + f.s[ok] * f.i[ok] / f.r[ok])
    return out


def per_relevant(
    jr: JudgedRankings, weak: bool, rel: int, which: str
) -> tuple[np.ndarray, np.ndarray]:
    """PRR or PRECALL at every integer NR = 1..rel_ret, flat in query order, and its offsets."""
    rows = np.flatnonzero(jr.relevant(rel))
    ml = marked_levels(jr, rows, weak)
    rr = ml.marked
    s = (np.arange(int(rr.sum())) - np.repeat(np.cumsum(rr) - rr, rr) + 1).astype(np.float64)
    rg = np.repeat(rr, rr).astype(np.float64)
    ig = np.repeat(ml.size - rr, rr).astype(np.float64)
    tr = np.repeat(ml.marked_before, rr).astype(np.float64)
    j = np.repeat(ml.before - ml.marked_before, rr).astype(np.float64)
    h = tr + s
    spread = ig * s / (rg + 1.0) if which == "PRR" else s * ig / rg
    vals = h / (h + j + spread)
    return vals, np.searchsorted(rows, jr.offsets)


def ceiling(jr: JudgedRankings, weak: bool, nr: np.ndarray, rel: int, which: str) -> np.ndarray:
    """max_{h >= max(1, ceil(NR))} value(NR=h): Raghavan et al. sec. 2.2, chain effect included."""
    vals, off = per_relevant(jr, weak, rel, which)
    h0 = np.maximum(np.ceil(nr), 1.0).astype(np.int64)
    lo = off[:-1] + h0 - 1
    hi = off[1:]
    out = np.zeros(jr.num_queries)
    ok = (lo < hi) & (jr.num_rel(rel) > 0)
    if ok.any():
        ext = np.append(vals, 0.0)
        pairs = np.column_stack((lo[ok], hi[ok])).ravel()
        out[ok] = np.maximum.reduceat(ext, pairs)[::2]
    return out


def expected_relevant_at(jr: JudgedRankings, weak: bool, nd: int, rel: int) -> np.ndarray:
    """t_r + k r / (r + i): the expected relevant documents among the first ND."""
    relv = jr.relevant(rel)
    if weak:
        return expected_count_at(jr, relv, nd)
    return jr.count_at(relv, nd).astype(np.float64)


def expected_precision_at_nr(
    jr: JudgedRankings, weak: bool, k: int | np.ndarray, rel: int
) -> np.ndarray:
    """E[k / (k + j + V)] per query (``k`` scalar or per query), V negative hypergeometric:
    an exact sum over v = 0..i; 0 where the ranking holds fewer than k relevant documents."""
    kq = np.broadcast_to(np.asarray(k, dtype=np.float64), jr.num_queries)
    fin = FinalLevel(jr, weak, kq, rel)
    out = np.zeros(jr.num_queries)
    q = np.flatnonzero(fin.ok & (kq >= 1))
    if len(q) == 0:
        return out
    s, r, i, j = fin.s[q], fin.r[q], fin.i[q], fin.j[q]
    cnt = i.astype(np.int64) + 1
    seg = np.cumsum(cnt) - cnt
    v = (np.arange(int(cnt.sum())) - np.repeat(seg, cnt)).astype(np.float64)
    ss, rr, ii, jj, kk = (np.repeat(a, cnt) for a in (s, r, i, j, kq[q]))
    logp = log_binom(ss - 1 + v, v) + log_binom(rr - ss + ii - v, ii - v) - log_binom(rr + ii, ii)
    terms = np.exp(logp) * (kk / (kk + jj + v))
    out[q] = np.add.reduceat(terms, seg)
    return out
