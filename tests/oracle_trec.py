"""An independent, deliberately naive reimplementation of trec_eval 10.0, for tests only.

Written only from ``reference/trec_eval.md`` (the behavioural reference of trec_eval 10.0;
section numbers below are that document's), never from ``cranfield.measures``: it is the
oracle the property tests compare cranfield against.  Everything is plain per-query Python
loops over the ranked documents, one method per measure with its formula, no numpy.

Its own correctness is established by ``test_oracle_vs_trec_eval.py``, which reproduces
trec_eval's real output files (``conformance/trec_eval``) to the printed 4 decimals.

Inputs are plain dicts: qrels ``{qid: {docno: grade}}`` and a run ``{qid: [(docno, score),
...]}``.  Notation (sec. 3): ``r_i`` is the judgement of the doc at rank ``i``: its grade if
the qrels have a grade ``>= 0``, ``-2`` (UNJUDGED) if the qrels have a negative grade, ``-1``
(NOT_IN_QRELS) if the qrels do not list it.  ``L`` is the relevance level; relevant means
``r_i >= L`` (and judged).  ``R`` = num_rel, ``RR`` = num_rel_ret, ``n`` = num_ret.

Measures that trec_eval does not have (``RR@k``, ``Judged@k``, the Moffat & Zobel RBP residual)
are defined where they appear, each with its source.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

NOT_IN_QRELS = -1
UNJUDGED = -2
MIN_GEO_MEAN = 1e-5  # trec_eval.h MIN_GEO_MEAN, sec. 4
INFAP_EPS = 1e-5  # sec. 6.3 infAP
BOGUS_DOCNO = "ceci_nest_pas_un_docno"  # sec. 4: -c topics missing from the run

Qrels = Mapping[str, Mapping[str, int]]
RunDict = Mapping[str, Sequence[tuple[str, float]]]

# default parameters of the cutoff measures, sec. 6.3
DEFAULT_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
DEFAULT_RECALL_POINTS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
DEFAULT_RPREC_MULT = (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)
DEFAULT_SUCCESS = (1, 5, 10)
DEFAULT_UNJ = (5, 10, 20)


def trec_order(ranking: Sequence[tuple[str, float]]) -> list[str]:
    """Sec. 3.1: score descending, ties by docno descending in byte (``strcmp``) order."""
    ordered = sorted(ranking, key=lambda ds: (ds[1], ds[0].encode("utf-8")), reverse=True)
    return [docno for docno, _ in ordered]


def judge_ranking(
    qrels_q: Mapping[str, int],
    ranked: Sequence[str],
    *,
    depth: int | None = None,
    judged_only: bool = False,
) -> list[int]:
    """Sec. 3.2-3.5: cut to ``depth`` (-M), judge each doc, then drop r < 0 docs (-J)."""
    if depth is not None:
        ranked = ranked[:depth]
    judgements = []
    for docno in ranked:
        if docno not in qrels_q:
            judgements.append(NOT_IN_QRELS)
        elif qrels_q[docno] < 0:
            judgements.append(UNJUDGED)
        else:
            judgements.append(qrels_q[docno])
    if judged_only:
        judgements = [r for r in judgements if r >= 0]
    return judgements


def lround(x: float) -> int:
    """C ``lround``: nearest integer, halves away from zero (sec. 6.3 iprec_at_recall)."""
    whole = math.floor(abs(x))
    if abs(x) - whole >= 0.5:
        whole += 1
    return int(math.copysign(whole, x))


def _gain_cmp(a: tuple[int, float, int], b: tuple[int, float, int]) -> int:
    """trec_eval's comparator ``(int)(gain1 - gain2)``: gains closer than 1 compare equal."""
    return int(a[1] - b[1])  # int() truncates toward zero like the C cast


def _merge_sort(items: list, cmp: Callable) -> list:
    """glibc's ``msort`` (a stable top-down merge sort), so that the order of entries the
    comparator calls equal is exactly the one trec_eval's ``qsort`` produces (sec. 6.4)."""
    if len(items) <= 1:
        return list(items)
    n1 = len(items) // 2
    left, right = _merge_sort(items[:n1], cmp), _merge_sort(items[n1:], cmp)
    out = []
    i = j = 0
    while i < len(left) and j < len(right):
        if cmp(left[i], right[j]) <= 0:
            out.append(left[i])
            i += 1
        else:
            out.append(right[j])
            j += 1
    return out + left[i:] + right[j:]


class Topic:
    """One evaluated topic: its judged ranking ``r`` and its qrels grades, at level ``L``.

    ``missing`` marks a ``-c`` topic absent from the run (evaluated on the bogus one-document
    ranking, sec. 4); the few measures trec_eval overwrites for it check the flag.
    """

    def __init__(
        self,
        judgements: Sequence[int],
        qrels_grades: Sequence[int],
        rel_level: int = 1,
        *,
        missing: bool = False,
    ) -> None:
        self.r = list(judgements)
        self.n = len(self.r)
        self.L = rel_level
        self.missing = missing
        # lev[g]: number of qrels docs with grade exactly g >= 0 (retrieved or not), sec. 3.6
        self.lev: dict[int, int] = {}
        for g in qrels_grades:
            if g >= 0:
                self.lev[g] = self.lev.get(g, 0) + 1
        self.num_rel_levels = max(self.lev) + 1 if self.lev else 0
        self.R = sum(count for g, count in self.lev.items() if g >= max(self.L, 0))
        self.RR = sum(1 for x in self.r if self.is_rel(x))

    # ---- helpers -------------------------------------------------------------------------

    def is_rel(self, x: int) -> bool:
        """Relevant: judged with grade >= L (sec. 3.7)."""
        return x >= 0 and x >= self.L

    def rel_at(self, k: int) -> int:
        """rel(k): relevant docs among ranks 1..min(k, n)."""
        return sum(1 for x in self.r[:k] if self.is_rel(x))

    def prec_at(self, k: int) -> float:
        """P@k = rel(k) / k (missing ranks count as non-relevant)."""
        return self.rel_at(k) / k

    def rel_ranks(self) -> list[int]:
        """1-based ranks of the relevant retrieved docs."""
        return [i for i, x in enumerate(self.r, start=1) if self.is_rel(x)]

    # ---- counts (sec. 6.3) -----------------------------------------------------------------

    def num_ret(self) -> int:
        return 0 if self.missing else self.n

    def num_rel(self) -> int:
        return self.R

    def num_rel_ret(self) -> int:
        return self.RR

    def num_nonrel_judged_ret(self) -> int:
        """Retrieved docs with 0 <= grade < L."""
        return sum(1 for x in self.r if x >= 0 and not self.is_rel(x))

    # ---- precision / recall family --------------------------------------------------------

    def map(self) -> float:
        """AP = (1/R) * sum_{relevant i} P@i; 0 if R = 0."""
        if self.R == 0:
            return 0.0
        total = 0.0
        for i in self.rel_ranks():
            total += self.prec_at(i)
        return total / self.R

    def map_cut(self, k: int) -> float:
        """map_cut_k = (1/R) * sum_{relevant i <= k} P@i; 0 if R = 0."""
        if self.R == 0:
            return 0.0
        total = 0.0
        for i in self.rel_ranks():
            if i <= k:
                total += self.prec_at(i)
        return total / self.R

    def Rprec(self) -> float:
        """rel(min(n, R)) / R; 0 if min(n, R) = 0."""
        k = min(self.n, self.R)
        if k == 0:
            return 0.0
        return self.rel_at(k) / self.R

    def Rprec_mult(self, x: float) -> float:
        """c = (long)(x*R + 0.9); 0 if c <= 0; else P@c (RR/c when c > n)."""
        c = int(x * self.R + 0.9)
        if c <= 0:
            return 0.0
        if c > self.n:
            return self.RR / c
        return self.prec_at(c)

    def recip_rank(self) -> float:
        """1 / rank of the first relevant doc; 0 if none."""
        ranks = self.rel_ranks()
        return 1.0 / ranks[0] if ranks else 0.0

    def recip_rank_cut(self, k: int) -> float:
        """RR@k (not in trec_eval): 1 / rank of the first relevant doc if that rank <= k."""
        ranks = self.rel_ranks()
        return 1.0 / ranks[0] if ranks and ranks[0] <= k else 0.0

    def P(self, k: int) -> float:
        return self.prec_at(k)

    def recall(self, k: int) -> float:
        """rel(k) / R; 0 if R = 0."""
        return self.rel_at(k) / self.R if self.R else 0.0

    def relative_P(self, k: int) -> float:
        """rel(k) / min(k, R); 0 if R = 0."""
        return self.rel_at(k) / min(k, self.R) if self.R else 0.0

    def success(self, k: int) -> float:
        return 1.0 if self.rel_at(k) > 0 else 0.0

    def iprec_at_recall(self, p: float) -> float:
        """Interpolated precision IP(i) = max_{i <= j <= n} P@j at the rank where
        c = lround(p*R) relevant docs are reached; 0 if c > RR; for c <= 0 the first relevant
        doc, or RR/n (NaN if n = 0) when nothing relevant was retrieved."""
        c = lround(p * self.R)
        if c > self.RR:
            return 0.0
        ranks = self.rel_ranks()
        if c >= 1:
            start = ranks[c - 1]
        elif self.RR == 0:
            return self.RR / self.n if self.n else math.nan
        else:
            start = ranks[0]
        return max(self.prec_at(j) for j in range(start, self.n + 1))

    def avg_iprec(self, points: Sequence[float] = DEFAULT_RECALL_POINTS) -> float:
        """11pt_avg: mean of iprec_at_recall over the recall points."""
        total = 0.0
        for p in points:
            total += self.iprec_at_recall(p)
        return total / len(points)

    def bpref(self) -> float:
        """(1/R) * sum over relevant retrieved of (1 if nr = 0 else
        1 - min(nr, R) / min(N_nr, R)), nr = judged non-relevant docs above, r < 0 skipped,
        N_nr = qrels docs with 0 <= grade < L."""
        if self.R == 0:
            return 0.0
        n_nonrel = sum(count for g, count in self.lev.items() if not g >= self.L)
        total = 0.0
        nr = 0
        for x in self.r:
            if x < 0:
                continue
            if self.is_rel(x):
                if nr == 0:
                    total += 1.0
                else:
                    total += 1.0 - min(nr, self.R) / min(n_nonrel, self.R)
            else:
                nr += 1
        return total / self.R

    def infAP(self) -> float:
        """Yilmaz & Aslam infAP as trec_eval computes it (sec. 6.3)."""
        if self.R == 0:
            return 0.0
        eps = INFAP_EPS
        total = 0.0
        nr = u = k = 0  # judged non-relevant / in-pool unjudged / relevant, above rank i
        for j, x in enumerate(self.r):  # j = i - 1 = number of docs above
            if self.is_rel(x):
                k += 1
                if j == 0:
                    total += 1.0
                else:
                    total += 1.0 / (j + 1) + (j / (j + 1)) * ((k - 1 + nr + u) / j) * (
                        (k - 1 + eps) / (k - 1 + nr + 2 * eps)
                    )
            elif x >= 0:
                nr += 1
            elif x == UNJUDGED:
                u += 1
        return total / self.R

    def yaap(self) -> float:
        """ln((1 + S) / (1 + R - S)), S = sum_{relevant i} P@i; 0 if R = 0."""
        if self.R == 0:
            return 0.0
        s = 0.0
        for i in self.rel_ranks():
            s += self.prec_at(i)
        return math.log((1 + s) / (1 + self.R - s))

    def binG(self) -> float:
        """(1/R) * sum_{relevant i} 1/log2(2 + non-relevant (r < L, any kind) above i)."""
        if self.R == 0:
            return 0.0
        total = 0.0
        nonrel = 0
        for x in self.r:
            if self.is_rel(x):
                total += 1.0 / math.log2(2 + nonrel)
            else:
                nonrel += 1
        return total / self.R

    # ---- set measures -----------------------------------------------------------------------

    def set_P(self) -> float:
        return self.RR / self.n if self.n else 0.0

    def set_recall(self) -> float:
        return self.RR / self.R if self.R else 0.0

    def set_relative_P(self) -> float:
        if self.n == 0 or self.R == 0:
            return 0.0
        return self.RR / min(self.n, self.R)

    def set_map(self) -> float:
        """RR^2 / (n * R)."""
        if self.n == 0 or self.R == 0:
            return 0.0
        return self.RR * self.RR / (self.n * self.R)

    def set_F(self, x: float = 1.0) -> float:
        """(x+1) P Rc / (x P + Rc), x = beta squared; 0 if RR = 0."""
        if self.RR == 0:
            return 0.0
        p = self.RR / self.n
        rc = self.RR / self.R
        return (x + 1) * p * rc / (x * p + rc)

    def utility(
        self, a: float = 1.0, b: float = -1.0, c: float = 0.0, d: float = 0.0, N: int = 0
    ) -> float:
        """a*RR + b*(n-RR) + c*(R-RR) + d*(N + RR - n - R), N the collection size (-N, default
        0); 0 for -c topics missing from the run."""
        if self.missing:
            return 0.0
        n, R, RR = self.n, self.R, self.RR
        return a * RR + b * (n - RR) + c * (R - RR) + d * (N + RR - n - R)

    # ---- unjudged documents ---------------------------------------------------------------

    def unj(self, k: int) -> float:
        """#{i <= min(k,n): r_i < 0} / k; 0 for -c topics missing from the run."""
        if self.missing:
            return 0.0
        return sum(1 for x in self.r[:k] if x < 0) / k

    def judged_at(self, k: int) -> float:
        """Judged@k (not in trec_eval): #{i <= min(k,n): r_i >= 0} / k."""
        return sum(1 for x in self.r[:k] if x >= 0) / k

    def relstring(self, length: int = 10) -> str:
        if self.missing:
            return ""
        chars = []
        for x in self.r[:length]:
            if 0 <= x <= 9:
                chars.append(str(x))
            elif x > 9:
                chars.append(">")
            elif x == NOT_IN_QRELS:
                chars.append("-")
            elif x == UNJUDGED:
                chars.append(".")
            else:
                chars.append("<")
        return "".join(chars)

    # ---- RBP -------------------------------------------------------------------------------

    def rbp(self, p: float = 0.9, gains: Mapping[int, float] | None = None) -> float:
        """(1-p) * sum_i g(r_i) p^(i-1), gains of the topic's gain table normalised to
        (g - lo)/(hi - lo) when lo < 0 or hi > 1, lo = min(0, gains), hi = max(0, gains);
        docs whose grade is not in the table keep gain 0 (sec. 6.3, quirk Q1)."""
        table = self.gain_table(gains)
        values = [gain for _, gain, _ in table]
        lo, hi = min([0.0, *values]), max([0.0, *values])
        gain_of = {grade: gain for grade, gain, _ in table}
        if lo < 0 or hi > 1:
            gain_of = {grade: (gain - lo) / (hi - lo) for grade, gain in gain_of.items()}
        total = 0.0
        for i, x in enumerate(self.r, start=1):
            total += gain_of.get(x, 0.0) * p ** (i - 1)
        return (1 - p) * total

    def rbp_resid(self, p: float = 0.9) -> float:
        """trec_eval's: p^n + (1-p) sum_{i: r_i < 0} p^(i-1) if some retrieved doc has r < 0,
        else 0; 0 for -c topics missing from the run."""
        if self.missing or not any(x < 0 for x in self.r):
            return 0.0
        return self.rbp_residual(p)

    def rbp_residual(self, p: float = 0.9) -> float:
        """Moffat & Zobel's residual, always: p^n + (1-p) sum_{i <= n: r_i < 0} p^(i-1)."""
        total = 0.0
        for i, x in enumerate(self.r, start=1):
            if x < 0:
                total += p ** (i - 1)
        return p**self.n + (1 - p) * total

    # ---- gains (sec. 6.4) and the graded measures ---------------------------------------

    def gain_table(self, gains: Mapping[int, float] | None = None) -> list[tuple[int, float, int]]:
        """(grade, gain, count) entries: the user's grade=gain pairs first, then every grade
        0..num_rel_levels-1 the user did not give, with gain = grade and count = lev[grade];
        sorted by ascending gain with trec_eval's ``(int)(gain1 - gain2)`` comparator."""
        table = []
        gains = gains or {}
        for grade, gain in gains.items():
            table.append((grade, float(gain), self.lev.get(grade, 0)))
        for grade in range(self.num_rel_levels):
            if grade not in gains:
                table.append((grade, float(grade), self.lev.get(grade, 0)))
        return _merge_sort(table, _gain_cmp)

    def ideal_gains(self, gains: Mapping[int, float] | None = None) -> list[float]:
        """The ideal list: the table read from its top (largest gain) down, each entry
        repeated count times, stopping at the first gain <= 0."""
        ideal: list[float] = []
        for _, gain, count in reversed(self.gain_table(gains)):
            if gain <= 0:
                break
            ideal.extend([gain] * count)
        return ideal

    def gain_list(self, gains: Mapping[int, float] | None = None) -> list[float]:
        """g(r_i) for each retrieved doc: the gain of its grade in the table, else 0."""
        gain_of = {grade: gain for grade, gain, _ in self.gain_table(gains)}
        return [gain_of.get(x, 0.0) for x in self.r]

    def dcg(self, gains: Mapping[int, float] | None = None) -> float:
        """DCG = sum_{i=1..n} g(r_i) / log2(i + 1)."""
        total = 0.0
        for i, g in enumerate(self.gain_list(gains), start=1):
            total += g / math.log2(i + 1)
        return total

    def ideal_dcg(self, gains: Mapping[int, float] | None = None) -> float:
        """IDCG over the full ideal list (not cut at n)."""
        total = 0.0
        for j, g in enumerate(self.ideal_gains(gains), start=1):
            total += g / math.log2(j + 1)
        return total

    def ndcg(self, gains: Mapping[int, float] | None = None) -> float:
        ideal = self.ideal_dcg(gains)
        return self.dcg(gains) / ideal if ideal > 0 else 0.0

    def ndcg_cut(self, k: int, gains: Mapping[int, float] | None = None) -> float:
        """DCG@k / IDCG@k, or DCG@k if IDCG@k = 0.  trec_eval's ndcg_cut takes no gains: gain
        = grade if grade > 0 else 0, ideal = judged grades > 0 descending.  With ``gains``
        (cranfield's ``nDCG(gains=...)@k``, not in trec_eval) the gain table of ndcg is used
        instead, and, as ndcg does, the value is 0 if IDCG@k = 0 (the two rules differ only
        when a negative gain makes DCG@k < 0 with IDCG@k = 0)."""
        if gains is None:
            g_ret = [float(x) if x > 0 else 0.0 for x in self.r]
            ideal = sorted(
                (float(g) for g, c in self.lev.items() for _ in range(c) if g > 0), reverse=True
            )
        else:
            g_ret, ideal = self.gain_list(gains), self.ideal_gains(gains)
        dcg = 0.0
        for i, g in enumerate(g_ret[:k], start=1):
            dcg += g / math.log2(i + 1)
        idcg = 0.0
        for j, g in enumerate(ideal[:k], start=1):
            idcg += g / math.log2(j + 1)
        if idcg > 0:
            return dcg / idcg
        return dcg if gains is None else 0.0

    def ndcg_rel(self, gains: Mapping[int, float] | None = None) -> float:
        """S = sum over retrieved docs with g > 0 of DCG_i / IDCG_i (k of them), plus
        (m - k) * DCG_n / IDCG_m; value S/m if S > 0 else 0; IDCG_i = IDCG_m for i > m."""
        g_ret, ideal = self.gain_list(gains), self.ideal_gains(gains)
        m = len(ideal)
        if m == 0:
            return 0.0
        idcg_prefix = []
        acc = 0.0
        for j, g in enumerate(ideal, start=1):
            acc += g / math.log2(j + 1)
            idcg_prefix.append(acc)
        s = 0.0
        k = 0
        dcg = 0.0
        for i, g in enumerate(g_ret, start=1):
            dcg += g / math.log2(i + 1)
            if g > 0:
                s += dcg / idcg_prefix[min(i, m) - 1]
                k += 1
        s += (m - k) * dcg / idcg_prefix[m - 1]
        return s / m if s > 0 else 0.0

    def Rndcg(self, gains: Mapping[int, float] | None = None) -> float:
        """Mean of ndcg@b over the boundaries b of the ideal list (the last rank of each gain
        level, so b = m last), plus DCG_n / IDCG_m when n >= m + 2; 0 if R = 0; NaN (0/0)
        if there is no point at all (R > 0 but no positive ideal gain)."""
        if self.R == 0:
            return 0.0
        g_ret, ideal = self.gain_list(gains), self.ideal_gains(gains)
        m = len(ideal)

        def dcg_at(k: int) -> float:  # DCG of ranks 1..min(k, n)
            total = 0.0
            for i, g in enumerate(g_ret[:k], start=1):
                total += g / math.log2(i + 1)
            return total

        def idcg_at(k: int) -> float:
            total = 0.0
            for j, g in enumerate(ideal[:k], start=1):
                total += g / math.log2(j + 1)
            return total

        points = []
        for b in range(1, m + 1):
            next_gain = ideal[b] if b < m else 0.0
            if next_gain != ideal[b - 1] and idcg_at(b) > 0:
                points.append(dcg_at(b) / idcg_at(b))
        if self.n >= m + 2 and idcg_at(m) > 0:
            points.append(dcg_at(self.n) / idcg_at(m))
        if not points:  # R > 0 but no positive ideal gain (rel=0, or gains <= 0): sum / count
            return math.nan
        total = 0.0
        for v in points:
            total += v
        return total / len(points)

    def G(self, gains: Mapping[int, float] | None = None) -> float:
        """sum_{i: g_i != 0} g_i / log2(2 + C_i - S_i) / sum(I), S_i = sum_{j<=i} g_j,
        C_i = sum_{j<=i} max(I_j, 1) (I_j = 0 beyond the ideal list); 0 if sum(I) = 0."""
        g_ret, ideal = self.gain_list(gains), self.ideal_gains(gains)
        ideal_sum = 0.0
        for g in ideal:
            ideal_sum += g
        if ideal_sum == 0:
            return 0.0
        total = s = c = 0.0
        for i, g in enumerate(g_ret):
            s += g
            c += max(ideal[i] if i < len(ideal) else 0.0, 1.0)
            if g != 0:
                total += g / math.log2(2 + c - s)
        return total / ideal_sum


# ---- topics, trec_eval's topic loop and averaging (sec. 4) ---------------------------------


def byte_key(s: str) -> bytes:
    return s.encode("utf-8")


def topics(
    qrels: Qrels,
    run: RunDict,
    *,
    rel_level: int = 1,
    depth: int | None = None,
    judged_only: bool = False,
    complete: bool = False,
) -> dict[str, Topic]:
    """The evaluated topics in ``strcmp`` qid order: qrels topics found in the run; with
    ``complete`` also the others, on the bogus one-document ranking (sec. 4).  Without
    ``complete`` a qrels topic absent from the run is skipped (trec_eval's documented intent,
    quirk Q2).  Run topics without qrels are never evaluated."""
    out = {}
    for qid in sorted(qrels, key=byte_key):
        qrels_q = qrels[qid]
        if qid in run:
            ranked, missing = trec_order(run[qid]), False
        elif complete:
            ranked, missing = [BOGUS_DOCNO], True
        else:
            continue
        r = judge_ranking(qrels_q, ranked, depth=depth, judged_only=judged_only)
        out[qid] = Topic(r, list(qrels_q.values()), rel_level, missing=missing)
    return out


def mean(values: Sequence[float]) -> float:
    """Sum in topic order divided by the number of topics."""
    total = 0.0
    for v in values:
        total += v
    return total / len(values)


def gmean(values: Sequence[float], eps: float = MIN_GEO_MEAN) -> float:
    """exp of the mean of ln(max(x, eps)) (gm_map, gm_bpref)."""
    return math.exp(mean([math.log(max(v, eps)) for v in values]))


def summarize(values: Sequence[float], how: str) -> float:
    if how == "mean":
        return mean(values)
    if how == "sum":
        total = 0.0
        for v in values:
            total += v
        return total
    if how == "gmean":
        return gmean(values)
    raise ValueError(how)


def evaluate(
    qrels: Qrels,
    run: RunDict,
    measure: Callable[[Topic], float],
    how: str = "mean",
    *,
    rel_level: int = 1,
    depth: int | None = None,
    judged_only: bool = False,
    complete: bool = False,
) -> tuple[dict[str, float], float]:
    """One measure (a function of a :class:`Topic`): per-topic values and the summary
    (``how`` = mean, sum or gmean)."""
    ts = topics(
        qrels, run, rel_level=rel_level, depth=depth, judged_only=judged_only, complete=complete
    )
    per_query = {qid: measure(t) for qid, t in ts.items()}
    summary = summarize(list(per_query.values()), how) if per_query else math.nan
    return per_query, summary


# ---- trec_eval's measure names and output (sec. 1.1, 5) ------------------------------------

LONG_CUTOFFS, DOUBLE_CUTOFFS, DOUBLE_PARAMS, PAIRS, NO_PARAMS = "lc", "dc", "dp", "pairs", ""


def _pairs(param: str) -> tuple[dict[int, float], float]:
    """``grade=gain,...`` and ``p=x`` pairs; other names are ignored (sec. 1.1)."""
    gains: dict[int, float] = {}
    p = 0.9
    for item in param.split(","):
        name, value = item.split("=")
        if name.lstrip("+-").isdigit():
            gains[int(name)] = float(value)
        elif name == "p":
            p = float(value)
    return gains, p


# name -> (parameter kind, defaults, summary, per-topic function(topic, params))
TREC_MEASURES: dict[str, tuple[str, tuple, str, Callable]] = {
    "num_ret": (NO_PARAMS, (), "sum", lambda t, _: t.num_ret()),
    "num_rel": (NO_PARAMS, (), "sum", lambda t, _: t.num_rel()),
    "num_rel_ret": (NO_PARAMS, (), "sum", lambda t, _: t.num_rel_ret()),
    "map": (NO_PARAMS, (), "mean", lambda t, _: t.map()),
    "gm_map": (NO_PARAMS, (), "gmean", lambda t, _: t.map()),
    "Rprec": (NO_PARAMS, (), "mean", lambda t, _: t.Rprec()),
    "bpref": (NO_PARAMS, (), "mean", lambda t, _: t.bpref()),
    "recip_rank": (NO_PARAMS, (), "mean", lambda t, _: t.recip_rank()),
    "iprec_at_recall": (
        DOUBLE_CUTOFFS,
        DEFAULT_RECALL_POINTS,
        "mean",
        lambda t, p: t.iprec_at_recall(p),
    ),
    "P": (LONG_CUTOFFS, DEFAULT_CUTOFFS, "mean", lambda t, k: t.P(k)),
    "relstring": (DOUBLE_PARAMS, (10.0,), "none", lambda t, ps: t.relstring(int(ps[0]))),
    "recall": (LONG_CUTOFFS, DEFAULT_CUTOFFS, "mean", lambda t, k: t.recall(k)),
    "infAP": (NO_PARAMS, (), "mean", lambda t, _: t.infAP()),
    "gm_bpref": (NO_PARAMS, (), "gmean", lambda t, _: t.bpref()),
    "Rprec_mult": (DOUBLE_CUTOFFS, DEFAULT_RPREC_MULT, "mean", lambda t, x: t.Rprec_mult(x)),
    "utility": (DOUBLE_PARAMS, (1.0, -1.0, 0.0, 0.0), "mean", lambda t, ps: t.utility(*ps)),
    "11pt_avg": (DOUBLE_PARAMS, DEFAULT_RECALL_POINTS, "mean", lambda t, ps: t.avg_iprec(ps)),
    "binG": (NO_PARAMS, (), "mean", lambda t, _: t.binG()),
    "G": (PAIRS, None, "mean", lambda t, gp: t.G(gp[0])),
    "dcg": (PAIRS, None, "mean", lambda t, gp: t.dcg(gp[0])),
    "ideal_dcg": (PAIRS, None, "mean", lambda t, gp: t.ideal_dcg(gp[0])),
    "ndcg": (PAIRS, None, "mean", lambda t, gp: t.ndcg(gp[0])),
    "ndcg_rel": (PAIRS, None, "mean", lambda t, gp: t.ndcg_rel(gp[0])),
    "Rndcg": (PAIRS, None, "mean", lambda t, gp: t.Rndcg(gp[0])),
    "ndcg_cut": (LONG_CUTOFFS, DEFAULT_CUTOFFS, "mean", lambda t, k: t.ndcg_cut(k)),
    "map_cut": (LONG_CUTOFFS, DEFAULT_CUTOFFS, "mean", lambda t, k: t.map_cut(k)),
    "relative_P": (LONG_CUTOFFS, DEFAULT_CUTOFFS, "mean", lambda t, k: t.relative_P(k)),
    "success": (LONG_CUTOFFS, DEFAULT_SUCCESS, "mean", lambda t, k: t.success(k)),
    "set_P": (NO_PARAMS, (), "mean", lambda t, _: t.set_P()),
    "set_relative_P": (NO_PARAMS, (), "mean", lambda t, _: t.set_relative_P()),
    "set_recall": (NO_PARAMS, (), "mean", lambda t, _: t.set_recall()),
    "set_map": (NO_PARAMS, (), "mean", lambda t, _: t.set_map()),
    "set_F": (DOUBLE_PARAMS, (1.0,), "mean", lambda t, ps: t.set_F(ps[0])),
    "num_nonrel_judged_ret": (NO_PARAMS, (), "sum", lambda t, _: t.num_nonrel_judged_ret()),
    "yaap": (NO_PARAMS, (), "mean", lambda t, _: t.yaap()),
    "rbp": (PAIRS, None, "mean", lambda t, gp: t.rbp(gp[1], gp[0])),
    "rbp_resid": (PAIRS, None, "mean", lambda t, gp: t.rbp_resid(gp[1])),
    "unj": (LONG_CUTOFFS, DEFAULT_UNJ, "mean", lambda t, k: t.unj(k)),
}

# print order, sec. 5.3 (the measures this oracle has)
REGISTRY_ORDER = (  # noqa: SIM905
    "num_ret num_rel num_rel_ret map gm_map Rprec bpref recip_rank iprec_at_recall P "
    "relstring recall infAP gm_bpref Rprec_mult utility 11pt_avg binG G dcg ideal_dcg ndcg "
    "ndcg_rel Rndcg ndcg_cut map_cut relative_P success set_P set_relative_P set_recall "
    "set_map set_F num_nonrel_judged_ret yaap rbp rbp_resid unj"
).split()

ALL_TREC = (  # noqa: SIM905
    "runid num_q num_ret num_rel num_rel_ret map gm_map Rprec bpref recip_rank "
    "iprec_at_recall P relstring recall unj rbp rbp_resid infAP gm_bpref utility 11pt_avg "
    "ndcg relative_P Rprec_mult success map_cut ndcg_cut ndcg_rel Rndcg binG G set_P "
    "set_recall set_relative_P set_map set_F num_nonrel_judged_ret"
).split()

OFFICIAL = (  # noqa: SIM905
    "runid num_q num_ret num_rel num_rel_ret map gm_map Rprec bpref recip_rank iprec_at_recall P"
).split()

INTEGER_MEASURES = {"num_q", "num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret"}


def _instances(name: str, param: str | None) -> list[tuple[str, object]]:
    """(printed name, parameter for the per-topic function) for one -m NAME[.PARAM]."""
    kind, defaults, _, _ = TREC_MEASURES[name]
    if kind == LONG_CUTOFFS:
        ks = sorted(int(float(s)) for s in param.split(",")) if param else list(defaults)
        return [(f"{name}_{k}", k) for k in ks]
    if kind == DOUBLE_CUTOFFS:
        xs = sorted(float(s) for s in param.split(",")) if param else list(defaults)
        return [(f"{name}_{x:3.2f}", x) for x in xs]
    if kind == DOUBLE_PARAMS:
        values = tuple(float(s) for s in param.split(",")) if param else defaults
        return [(f"{name}_{param}" if param else name, values)]
    if kind == PAIRS:
        return [(f"{name}_{param}" if param else name, _pairs(param) if param else ({}, 0.9))]
    return [(name, None)]


def trec_eval(
    qrels: Qrels,
    run: RunDict,
    measures: Sequence[str] = ALL_TREC,
    *,
    params: Mapping[str, str] | None = None,
    rel_level: int = 1,
    depth: int | None = None,
    judged_only: bool = False,
    complete: bool = False,
    runid: str = "",
) -> tuple[list[tuple[str, str, object]], list[tuple[str, str, object]]]:
    """trec_eval ``-q`` output as values: (per-topic lines, summary lines), each a list of
    (printed name, qid, value) in trec_eval's print order.  ``measures`` are trec_eval
    measure names (``-m``), ``params`` their parameter strings (``-m NAME.PARAMS``)."""
    params = params or {}
    ts = topics(
        qrels, run, rel_level=rel_level, depth=depth, judged_only=judged_only, complete=complete
    )
    wanted = [m for m in REGISTRY_ORDER if m in measures]
    per_topic: list[tuple[str, str, object]] = []
    columns: dict[str, list] = {}
    for qid, t in ts.items():
        for name in wanted:
            fn = TREC_MEASURES[name][3]
            for printed, p in _instances(name, params.get(name)):
                value = fn(t, p)
                columns.setdefault(printed, []).append(value)
                if TREC_MEASURES[name][2] != "gmean":  # gm_* are summary only
                    per_topic.append((printed, qid, value))
    summary: list[tuple[str, str, object]] = []
    if "runid" in measures:
        summary.append(("runid", "all", runid))
    if "num_q" in measures:
        summary.append(("num_q", "all", len(ts)))
    for name in wanted:
        how = TREC_MEASURES[name][2]
        if how == "none":
            continue
        for printed, _ in _instances(name, params.get(name)):
            values = columns.get(printed, [])
            if name == "num_rel" and complete:
                # quirk: with -c, the number of qrels lines with grade > 0 (ignores -l)
                value = sum(1 for q in qrels.values() for g in q.values() if g > 0)
            else:
                value = summarize(values, how) if values else math.nan
            summary.append((printed, "all", value))
    return per_topic, summary


def format_line(name: str, qid: str, value: object) -> str:
    """One trec_eval output line (sec. 5.1)."""
    if name == "runid":
        return f"{name:<22}\t{qid}\t{value}"
    if name.startswith("relstring"):
        return f"{name:<22}\t{qid}\t'{value}'"
    if name in INTEGER_MEASURES:
        return f"{name:<22}\t{qid}\t{int(value)}"
    if isinstance(value, float) and math.isnan(value):
        return f"{name:<22}\t{qid}\t  -nan"  # glibc prints the sign of 0.0/0.0
    return f"{name:<22}\t{qid}\t{value:6.4f}"
