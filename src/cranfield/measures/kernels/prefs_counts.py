"""The counts of trec_eval 10.0's preference measures (``form_prefs_counts.c`` and
``m_prefs_*.c``), per topic: the judgment groups (JG) in their two representations (equivalence
classes of one judgment sub-group, or a preference array closed transitively over several),
each preference counted as fulfilled and retrieved, fulfilled and implied, not fulfilled, or
neither; the Rnonrel recounts; the pair measures.  No declarations: :mod:`cranfield.measures.prefs`
declares the measures.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from cranfield.errors import InputError

__all__ = ["JG", "topic_measures"]

Entry = tuple[str, str, float, str]
"""A preference judgment as read: ``(jg, jsg, rel_level, docno)``."""
Numbered = tuple[str, str, float, str, int]
"""An :data:`Entry` with its document's number (the retrieved ones first, in rank order)."""


# ---------------------------------------------------------------------------------- per JG
@dataclass
class JG:
    ful_ret: int = 0
    poss_ret: int = 0
    ful_imp: int = 0
    poss_imp: int = 0
    notoccur: int = 0
    num_rel: int = 0
    num_rel_ret: int = 0
    num_nonrel: int = 0
    num_nonrel_ret: int = 0
    ecs: list[tuple[float, np.ndarray]] | None = None  # EC representation
    pa: np.ndarray | None = None  # preference array (num_judged x num_judged)
    rel_array: np.ndarray | None = None
    pairs: list[np.ndarray] = field(default_factory=list)  # (a, b) pairs with a > b


def _count_lt(sorted_a: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Per value: number of elements of ``sorted_a`` strictly below it."""
    return np.searchsorted(sorted_a, values, side="left")


def _ec_jg(entries: Sequence[Numbered], njr: int, want_pairs: bool, source: str, qid: str) -> JG:
    ecs: list[tuple[float, np.ndarray]] = []
    jg = JG(ecs=ecs)
    start = 0
    for i in range(1, len(entries) + 1):
        if i == len(entries) or entries[i][2] != entries[start][2]:
            ecs.append((entries[start][2], np.array([e[4] for e in entries[start:i]])))
            start = i
    for k, (level, ids) in enumerate(ecs):
        ret = int(np.count_nonzero(ids < njr))
        if level > 0.0:
            jg.num_rel_ret += ret
            jg.num_rel += len(ids)
        else:
            jg.num_nonrel_ret += ret
            jg.num_nonrel += len(ids)
        for _level2, b in ecs[k + 1 :]:
            a = ids
            if np.intersect1d(a, b).size:
                raise InputError(
                    source,
                    f"topic {qid!r}: a document has two relevance levels in one judgment sub-group",
                )
            a_ret, a_not = a[a < njr], a[a >= njr]
            b_ret, b_not = b[b < njr], b[b >= njr]
            jg.ful_ret += int(_count_lt(a, b_ret).sum())
            jg.ful_imp += len(a_ret) * len(b_not)
            jg.poss_ret += int(_count_lt(np.sort(b), a_ret).sum())
            jg.poss_imp += len(a_not) * len(b_ret)
            jg.notoccur += len(a_not) * len(b_not)
            if want_pairs:
                jg.pairs.append(np.stack([np.repeat(a, len(b)), np.tile(b, len(a))]))
    jg.poss_ret += jg.ful_ret
    jg.poss_imp += jg.ful_imp
    return jg


def _closure(pa: np.ndarray) -> np.ndarray:
    """Reflexive-transitive closure by repeated boolean products (trec_eval add_transitives)."""
    m = pa | np.eye(len(pa), dtype=bool)
    while True:
        nxt = (m.astype(np.float32) @ m.astype(np.float32)) > 0
        if (nxt == m).all():
            return m
        m = nxt


def _pa_jg(
    entries: Sequence[Numbered], njr: int, nj: int, want_pairs: bool, source: str, qid: str
) -> JG:
    rel = np.full(nj, -1.0)
    pa = np.zeros((nj, nj), dtype=bool)
    n = len(entries)
    for i, (_jg, jsg, level, docno, d) in enumerate(entries):
        if (rel[d] > 0.0 and level == 0.0) or (rel[d] == 0.0 and level > 0.0):
            raise InputError(
                source, f"topic {qid!r}: document {docno!r} has both 0 and non-0 rel_level"
            )
        rel[d] = level
        j = i + 1
        while j < n and entries[j][1] == jsg and entries[j][2] == level:
            j += 1
        while j < n and entries[j][1] == jsg:
            pa[d, entries[j][4]] = True
            j += 1
    members = np.unique([e[4] for e in entries])
    sub = _closure(pa[np.ix_(members, members)])
    np.fill_diagonal(sub, False)
    if (sub & sub.T).any():
        raise InputError(source, f"topic {qid!r}: inconsistent (cyclic) preferences")
    pa[:] = False
    pa[np.ix_(members, members)] = sub
    jg = JG(pa=pa, rel_array=rel)
    jg.num_rel_ret = int(np.count_nonzero(rel[:njr] > 0.0))
    jg.num_nonrel_ret = int(np.count_nonzero(rel[:njr] == 0.0))
    jg.num_rel = int(np.count_nonzero(rel > 0.0))
    jg.num_nonrel = int(np.count_nonzero(rel == 0.0))
    pi, pj = np.nonzero(pa)
    ir, jr_ = pi < njr, pj < njr
    jg.poss_ret = int(np.count_nonzero(ir & jr_ & (pj < pi)))
    jg.ful_ret = int(np.count_nonzero(ir & jr_ & (pj > pi)))
    jg.ful_imp = int(np.count_nonzero(ir & ~jr_))
    jg.poss_imp = int(np.count_nonzero(~ir & jr_))
    jg.notoccur = int(np.count_nonzero(~ir & ~jr_))
    jg.poss_ret += jg.ful_ret
    jg.poss_imp += jg.ful_imp
    if want_pairs:
        jg.pairs.append(np.stack([pi, pj]))
    return jg


# ------------------------------------------------------------------- the Rnonrel recounts
def _ful_lt(a: np.ndarray, b: np.ndarray, njr: int | None) -> tuple[int, int]:
    """(#pairs a < b [and a retrieved], #other pairs) over a x b (b sorted)."""
    b = np.sort(b)
    aa = a if njr is None else a[a < njr]
    ful = int((len(b) - np.searchsorted(b, aa, side="right")).sum())
    return ful, len(a) * len(b) - ful


def _recalc_ec(jg: JG, njr: int, ret_only: bool) -> tuple[int, int]:
    ecs = jg.ecs
    assert ecs is not None  # the caller's test: a JG of equivalence classes
    ful = poss = 0
    last = ecs[-1][1]
    if ret_only:
        nonrel = last[: jg.num_rel_ret]
        nonrel = nonrel[nonrel < njr]

        def cut(x: np.ndarray) -> np.ndarray:
            return x[: int(np.searchsorted(x, njr))] if len(x) else x  # sorted ascending

    else:
        nonrel = last[: jg.num_rel]

        def cut(x: np.ndarray) -> np.ndarray:
            return x

    for e1 in range(len(ecs)):
        a = cut(ecs[e1][1])
        for e2 in range(e1 + 1, len(ecs) - 1):
            f, p = _ful_lt(a, cut(ecs[e2][1]), None if ret_only else njr)
            ful, poss = ful + f, poss + p
    for e1 in range(len(ecs)):
        a = cut(ecs[e1][1])
        f, p = _ful_lt(a, nonrel, None if ret_only else njr)
        ful, poss = ful + f, poss + p
    return ful, poss + ful


def _recalc_pa(jg: JG, njr: int, ret_only: bool) -> tuple[int, int]:
    rel, pa = jg.rel_array, jg.pa
    assert rel is not None and pa is not None  # a JG of a preference array
    nj = len(rel)
    scan = rel[:njr] if ret_only else rel
    nonrel_at = np.flatnonzero(scan == 0.0)
    first = int(nonrel_at[jg.num_rel]) if len(nonrel_at) > jg.num_rel else len(scan)
    keep = ~((np.arange(nj) >= first) & (rel == 0.0))
    m = pa & keep[:, None] & keep[None, :]
    i, j = np.nonzero(m)
    ir, jr_ = i < njr, j < njr
    if ret_only:
        poss = int(np.count_nonzero(ir & jr_ & (j < i)))
        ful = int(np.count_nonzero(ir & jr_ & (j > i)))
    else:
        ful = int(np.count_nonzero(ir & (j > i)))  # A1 and A3
        poss = int(np.count_nonzero((ir & jr_ & (j < i)) | ~ir))  # A2, A4, A5
    return ful, poss + ful


def _cdiv(a: float, b: float) -> float:
    """IEEE division (C semantics: x/0 is inf or nan, never an exception)."""
    if b == 0:
        if a == 0 or math.isnan(a):
            return -math.nan  # x86's default NaN has the sign bit set
        return math.copysign(math.inf, a) * math.copysign(1.0, b)
    return a / b


# ------------------------------------------------------------------------- per topic
def topic_measures(
    entries_in: Iterable[Entry], ranked: Sequence[str], want_pairs: bool, source: str, qid: str
) -> dict[str, float]:
    judged = {e[3] for e in entries_in}
    ret = [d for d in ranked if d in judged]
    njr = len(ret)
    ids = {d: i for i, d in enumerate(ret)}
    for d in sorted(judged - set(ret)):
        ids[d] = len(ids)
    nj = len(ids)
    entries = sorted(
        ((jg, jsg, rel, docno, ids[docno]) for jg, jsg, rel, docno in entries_in),
        key=lambda e: (e[0], e[1], -e[2], e[4]),
    )
    jgs: list[JG] = []
    start = 0
    for i in range(1, len(entries) + 1):
        if i == len(entries) or entries[i][0] != entries[start][0]:
            block = entries[start:i]
            if len({e[1] for e in block}) > 1:
                jgs.append(_pa_jg(block, njr, nj, want_pairs, source, qid))
            else:
                jgs.append(_ec_jg(block, njr, want_pairs, source, qid))
            start = i
    out: dict[str, float] = {}
    ful_ret = sum(j.ful_ret for j in jgs)
    ful_imp = sum(j.ful_imp for j in jgs)
    poss_ret = sum(j.poss_ret for j in jgs)
    poss_imp = sum(j.poss_imp for j in jgs)
    notoccur = sum(j.notoccur for j in jgs)
    out["prefs_num_prefs_poss"] = float(poss_ret + poss_imp + notoccur)
    out["prefs_num_prefs_ful"] = float(ful_ret + ful_imp)
    out["prefs_num_prefs_ful_ret"] = float(ful_ret)
    poss_all = poss_ret + poss_imp + notoccur
    out["prefs_simp"] = (ful_ret + ful_imp) / poss_all if poss_all else 0.0
    out["prefs_simp_ret"] = ful_ret / poss_ret if poss_ret else 0.0
    out["prefs_simp_imp"] = (
        (ful_ret + ful_imp) / (poss_ret + poss_imp) if poss_ret + poss_imp else 0.0
    )

    def avg(parts: Iterable[tuple[int, int]]) -> float:
        s = 0.0
        for ful, poss in parts:
            if poss:
                s += ful / poss
        return s / len(jgs) if s > 0.0 else 0.0

    out["prefs_avgjg"] = avg(
        (j.ful_ret + j.ful_imp, j.poss_ret + j.poss_imp + j.notoccur) for j in jgs
    )
    out["prefs_avgjg_ret"] = avg((j.ful_ret, j.poss_ret) for j in jgs)
    out["prefs_avgjg_imp"] = avg((j.ful_ret + j.ful_imp, j.poss_ret + j.poss_imp) for j in jgs)

    s = 0.0
    for j in jgs:
        R, N = j.num_rel, j.num_nonrel
        if R >= N:
            ful = j.ful_ret + j.ful_imp + j.num_rel_ret * (R - N)
            poss = j.poss_ret + j.poss_imp + j.notoccur + j.num_rel * (R - N)
        else:
            ful, poss = (
                _recalc_ec(j, njr, False) if j.ecs is not None else _recalc_pa(j, njr, False)
            )
        s += _cdiv(ful, poss)
    out["prefs_avgjg_Rnonrel"] = s / len(jgs) if s > 0.0 else 0.0
    s = 0.0
    for j in jgs:
        R, N = j.num_rel_ret, j.num_nonrel_ret
        if R >= N:
            ful = j.ful_ret + j.num_rel_ret * (R - N)
            poss = j.poss_ret + j.num_rel * (R - N)
        else:
            ful, poss = _recalc_ec(j, njr, True) if j.ecs is not None else _recalc_pa(j, njr, True)
        s += _cdiv(ful, poss)
    out["prefs_avgjg_Rnonrel_ret"] = s / len(jgs) if s > 0.0 else 0.0

    if want_pairs:
        out.update(_pair_measures(jgs, njr, nj))
    return out


def _pair_measures(jgs: list[JG], njr: int, nj: int) -> dict[str, float]:
    """prefs_pair(_ret, _imp) from the counts C[a][b] summed over judgment groups."""
    pairs = [p for j in jgs for p in j.pairs]
    if pairs:
        allp = np.concatenate(pairs, axis=1).astype(np.int64)
        keys, counts = np.unique(allp[0] * nj + allp[1], return_counts=True)
    else:
        keys, counts = np.zeros(0, np.int64), np.zeros(0, np.int64)
    a, b = keys // max(nj, 1), keys % max(nj, 1)
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    ukey, inv = np.unique(lo * nj + hi, return_inverse=True)
    fwd = np.zeros(len(ukey), np.int64)  # C[lo][hi]
    bwd = np.zeros(len(ukey), np.int64)  # C[hi][lo]
    np.add.at(fwd, inv[a < b], counts[a < b])
    np.add.at(bwd, inv[a > b], counts[a > b])
    ui, uj = ukey // max(nj, 1), ukey % max(nj, 1)  # sorted by (i, j): trec_eval's loop order
    ratio = fwd / (fwd + bwd).astype(np.float64) if len(ukey) else np.zeros(0)
    both = uj < njr
    one = (ui < njr) & (uj >= njr)
    none = ui >= njr
    s_ret = float(np.cumsum(ratio[both])[-1]) if both.any() else 0.0
    s_imp = (
        float(np.cumsum(np.concatenate((ratio[both], ratio[one])))[-1])
        if (both | one).any()
        else 0.0
    )
    n_ret = int(both.sum())
    n_imp = n_ret + int(one.sum())
    n_all = n_imp + int(none.sum())
    return {
        "prefs_pair_ret": s_ret / n_ret if n_ret else 0.0,
        "prefs_pair_imp": s_imp / n_imp if n_imp else 0.0,
        "prefs_pair": s_imp / n_all if n_all else 0.0,
    }
