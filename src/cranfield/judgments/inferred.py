"""Inferred measures from stratified samples of judgments: xinfAP, infAP and infNDCG as
NIST's ``sample_eval.pl`` computes them (Yilmaz, Kanoulas & Aslam, "A simple and efficient
sampling method for estimating AP and NDCG", SIGIR 2008; infAP: Yilmaz & Aslam, CIKM 2006).

Sampled qrels have five columns, ``qid iter docno stratum grade``: every pooled document
with the stratum it was sampled from; ``grade >= 0`` for a judged (sampled) document, a
negative grade (``-1``) for one in the pool but not sampled.  Per query and stratum ``c``:
``n_c`` pooled documents, ``s_c`` sampled, ``r_c`` sampled relevant (grade > 0).

``xinfAP``
    ``sum_c (R_c / R) * SAP_c / r_c`` with ``R_c = r_c n_c / s_c`` (``R = sum_c R_c``) and
    ``SAP_c`` the sum, over the sampled relevant documents of stratum ``c`` the run ranks
    (its first ``depth``), of the estimated precision at its rank ``k``:
    ``1/k + (d/k) sum_c' (m_c'/d) (rel_c' + 1e-5) / (smp_c' + 3e-5)``, where ``d`` pooled
    documents are ranked above ``k``, ``m_c'`` of them from stratum ``c'``, of which
    ``smp_c'`` are sampled and ``rel_c'`` relevant (sample_eval.pl's smoothing constants).
``infAP``
    xinfAP with every document in one stratum (the uniform sample of Yilmaz & Aslam 2006).
``infNDCG``
    ``d_run sum_c (m_c/d_run) G_c / smp_c / IDCG``: ``G_c`` the sum of ``grade /
    log2(k + 1)`` over stratum ``c``'s sampled relevant documents ranked, ``d_run`` the
    pooled documents the run ranks; the ideal DCG lays out the estimated number of
    documents of each grade (``sum_c rel_c(g) n_c / s_c``, rounded half up) in descending
    grade, gain = grade, stopping each grade at rank ``depth`` as the script does.
``iP@k``, ``inum_rel_ret``, ``inum_rel``
    the estimated precision at ``k`` (``sum_c m_c (rel_c + 1e-5)/(smp_c + 3e-5) / k`` at
    rank ``k``), relevant retrieved, and relevant ``R``.

A measure is computed for each query that both the sampled qrels and the run have; the
run is read in trec_eval's order (score descending, then document id descending) and cut
at ``depth`` (sample_eval.pl's ``maxResultSize``, 1000).  sample_eval.pl's labels: what it
prints as ``infAP`` is xinfAP (it is infAP when there is one stratum).  Two differences,
both on inputs the script mishandles: a (query, document) pair listed twice in the sampled
qrels is an error here (the script counts it twice in its stratum), and grades sort as
numbers (the script sorts them as strings, the same for grades 0-9).
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cranfield.errors import InputError, ParameterError

__all__ = ["MEASURES", "Inferred", "SampledQrels", "inferred", "read_sampled_qrels"]

MEASURES = ("xinfAP", "infAP", "infNDCG", "iP@10", "iP@50", "iP@1000", "inum_rel_ret", "inum_rel")
EPS_REL, EPS_SAMPLED = 0.00001, 0.00003
"""sample_eval.pl's smoothing of the precision estimated within a stratum."""


@dataclass(frozen=True)
class SampledQrels:
    """``judgments[qid][docno] = (stratum, grade)``, queries and documents in file order."""

    judgments: dict[str, dict[str, tuple[int, int]]]
    source: str = "<sampled qrels>"
    lines: int = 0


def read_sampled_qrels(path: str | os.PathLike[str]) -> SampledQrels:
    """Read ``qid iter docno stratum grade`` lines (whitespace-separated; blank lines
    skipped).  A line with another number of fields, a stratum or grade that is not an
    integer, or a (query, document) pair given twice is one :class:`InputError` naming the
    file and the line."""
    from cranfield.io.source import read_source, source_name

    source = source_name(path)
    data = read_source(path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(source, "not UTF-8 text", line) from None
    out: dict[str, dict[str, tuple[int, int]]] = {}
    count = 0
    for n, raw in enumerate(text.split("\n"), start=1):
        fields = raw.split()
        if not fields:
            continue
        if len(fields) != 5:
            raise InputError(
                source,
                f"expected 5 fields 'qid iter docno stratum grade', got {len(fields)}",
                n,
            )
        qid, _, doc, stratum, grade = fields
        values = []
        for name, v in (("stratum", stratum), ("grade", grade)):
            try:
                values.append(int(v))
            except ValueError:
                raise InputError(source, f"the {name} {v!r} is not an integer", n) from None
        docs = out.setdefault(qid, {})
        if doc in docs:
            raise InputError(source, f"query {qid!r}, document {doc!r} is listed twice", n)
        docs[doc] = (values[0], values[1])
        count += 1
    return SampledQrels(out, source, count)


@dataclass(frozen=True)
class Inferred:
    """Per-query values of one run (``values[qid][measure]``) and their means over the
    queries (``inum_rel_ret`` and ``inum_rel`` summed, as sample_eval.pl prints them)."""

    run: str
    query_ids: tuple[str, ...]
    values: dict[str, dict[str, float]]
    num_ret: dict[str, int] = field(default_factory=dict)

    def aggregate(self) -> dict[str, float]:
        n = len(self.query_ids)
        out = {}
        for m in MEASURES:
            total = 0.0
            for q in self.query_ids:  # sequential, as sample_eval.pl sums
                total += self.values[q][m]
            out[m] = total if m.startswith("inum") or n == 0 else total / n
        return out

    def to_text(self, *, per_query: bool = False) -> str:
        """Lines ``measure<TAB>query<TAB>value`` (``all`` for the aggregate), 4 decimals."""
        lines = []
        if per_query:
            for q in self.query_ids:
                lines += [f"{m}\t{q}\t{self.values[q][m]:.4f}" for m in MEASURES]
        lines += [f"{m}\tall\t{v:.4f}" for m, v in self.aggregate().items()]
        return "\n".join(lines) + "\n"


def inferred(
    sampled: SampledQrels | str | os.PathLike[str],
    run: Any,
    *,
    depth: int = 1000,
    name: str | None = None,
) -> Inferred:
    """xinfAP, infAP, infNDCG and the estimated counts of ``run`` (a path, table, dict or
    Run) on ``sampled`` (:func:`read_sampled_qrels` or its path)."""
    from cranfield.base import arguments as A
    from cranfield.comparing.rbo import ranked_documents
    from cranfield.io import read_run

    if isinstance(sampled, str | os.PathLike):
        sampled = read_sampled_qrels(sampled)
    elif not isinstance(sampled, SampledQrels):
        raise ParameterError("sampled must be a path or what read_sampled_qrels returns")
    depth = A.integer(depth, "depth")
    if depth < 1:
        raise ParameterError(f"depth must be at least 1, got {depth}")
    r = read_run(run) if name is None else read_run(run, name=name)
    queries = sorted(q for q in r.query_ids if q in sampled.judgments)
    vocabulary: dict[str, int] = {}
    rk = ranked_documents(r, queries, vocabulary, ties="trec", seed=None)
    docs = list(vocabulary)
    values, num_ret = {}, {}
    for i, q in enumerate(queries):
        ranked = [docs[c] for c in rk.codes[rk.offsets[i] : rk.offsets[i + 1]].tolist()]
        num_ret[q] = len(ranked)
        judged = sampled.judgments[q]
        values[q] = _query(ranked[:depth], judged, depth)
        one = {d: (0, g) for d, (_, g) in judged.items()}
        values[q]["infAP"] = _query(ranked[:depth], one, depth)["xinfAP"]
    return Inferred(r.name, tuple(queries), values, num_ret)


def _query(ranked: Sequence[str], judged: dict[str, tuple[int, int]], depth: int) -> dict:
    """sample_eval.pl's computation for one query, in its order of operations."""
    strata = sorted({c for c, _ in judged.values()}, key=str)  # the script's (string) order
    n = dict.fromkeys(strata, 0)
    s = dict.fromkeys(strata, 0)
    r = dict.fromkeys(strata, 0)
    by_grade: dict[int, dict[int, int]] = {c: {} for c in strata}
    for c, g in judged.values():
        n[c] += 1
        if g >= 0:
            s[c] += 1
        if g > 0:
            r[c] += 1
            by_grade[c][g] = by_grade[c].get(g, 0) + 1
    R = 0.0
    for c in strata:
        if s[c]:
            R += r[c] * n[c] / s[c]
    per_grade: dict[int, float] = {}
    for c in strata:
        for g, k in sorted(by_grade[c].items()):
            per_grade[g] = per_grade.get(g, 0.0) + k * n[c] / s[c]
    ideal = 0.0
    start = 0
    for g in sorted(per_grade, reverse=True):
        count = int(per_grade[g] + 0.5)
        rank = start + 1
        while rank <= start + count:
            ideal += g / (math.log(rank + 1) / math.log(2))
            if rank >= depth:
                break
            rank += 1
        start += count

    m = dict.fromkeys(strata, 0)  # pooled documents ranked so far, per stratum
    smp = dict.fromkeys(strata, 0)
    rel = dict.fromkeys(strata, 0)
    gain = dict.fromkeys(strata, 0.0)
    sap = dict.fromkeys(strata, 0.0)
    d = 0
    rel_ret = 0.0
    at: dict[int, float] = {}
    for k, doc in enumerate(ranked, start=1):
        hit = judged.get(doc)  # (stratum, grade), None: not in the pool
        if hit is not None:
            c, g = hit
            if g > 0:
                above = 0.0
                if d:
                    for c2 in strata:
                        p = m[c2] / d
                        if p:
                            above += p * (rel[c2] + EPS_REL) / (smp[c2] + EPS_SAMPLED)
                sap[c] += 1 / k + (d / k) * above
                rel[c] += 1
                gain[c] += g / (math.log(k + 1) / math.log(2))
            d += 1
            m[c] += 1
            if g >= 0:
                smp[c] += 1
        rel_ret = 0.0
        for c2 in strata:
            rel_ret += m[c2] * (rel[c2] + EPS_REL) / (smp[c2] + EPS_SAMPLED)
        if k in (10, 50, 1000):
            at[k] = rel_ret / k
    ap = 0.0
    for c in strata:
        if s[c] and R:
            ap += (r[c] * n[c] / s[c]) / R * (sap[c] / r[c] if r[c] else 0.0)
    dcg = 0.0
    for c in strata:
        if d and smp[c]:
            dcg += (m[c] / d) * gain[c] / smp[c]
    ndcg = d * dcg / ideal if ideal else 0.0
    out = {"xinfAP": ap, "infAP": ap, "infNDCG": ndcg}
    for k in (10, 50, 1000):
        out[f"iP@{k}"] = at.get(k, rel_ret / k)
    out["inum_rel_ret"] = rel_ret
    out["inum_rel"] = R
    return out
