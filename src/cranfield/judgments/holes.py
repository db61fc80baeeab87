"""The holes of runs: their (query, document) pairs the qrels do not judge, per run and in a
pool (:mod:`cranfield.judgments.pooling`), as a judgment request.

A document is unjudged for a query when the query's qrels do not list it (a negative grade,
trec_eval's "pooled but not judged", counts as listed: it is already in a pool).  The queries
are those of the qrels and of the runs together (a query no qrels judge has only holes), in
``strcmp`` order.  Each run is read once, ordered under the tie policy, and kept as integer
codes only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cranfield.judgments.pooling import PoolSpec, pool_query

__all__ = ["Holes", "holes"]


@dataclass(frozen=True)
class Holes:
    """The holes of ``runs`` against the qrels ``source``, and of their pool (``spec``).

    ``pool[q]``: the pooled documents of query ``q`` in priority order; ``request``: the
    pool's unjudged ``(query, document)`` pairs in query order, each query's in priority
    order; ``run_holes[run]``: the unjudged pairs of each run (its first ``depth``
    documents, or all it retrieved without a depth), in rank order; ``retrieved[run][q]``:
    the documents of run ``run`` looked at for query ``q``.
    """

    query_ids: tuple[str, ...]
    runs: tuple[str, ...]
    spec: PoolSpec
    pool: dict[str, list[str]]
    request: list[tuple[str, str]]
    run_holes: dict[str, list[tuple[str, str]]]
    retrieved: dict[str, dict[str, int]]
    source: str = "<qrels>"

    def counts(self) -> dict[str, dict[str, int]]:
        """``{column: {query: holes}}``: each run's holes per query and the pool's
        (``pool``), and the pool's size (``pooled``)."""
        out: dict[str, dict[str, int]] = {}
        for name, pairs in self.run_holes.items():
            per = dict.fromkeys(self.query_ids, 0)
            for q, _ in pairs:
                per[q] += 1
            out[name] = per
        per = dict.fromkeys(self.query_ids, 0)
        for q, _ in self.request:
            per[q] += 1
        out["pool"] = per
        out["pooled"] = {q: len(self.pool.get(q, ())) for q in self.query_ids}
        return out

    def to_trec(self) -> str:
        """The request as qrels-like lines without a grade: ``qid 0 docno``."""
        return "".join(f"{q} 0 {d}\n" for q, d in self.request)

    def to_csv(self) -> str:
        """The request as CSV: ``query_id,doc_id,priority`` (1 = judge first, per query)."""
        import csv
        import io

        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["query_id", "doc_id", "priority"])
        rank: dict[str, int] = {}
        for q, d in self.request:
            rank[q] = rank.get(q, 0) + 1
            w.writerow([q, d, rank[q]])
        return buf.getvalue()

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape: the strategy, the request, the holes of each run and the counts."""
        spec = {k: v for k, v in vars(self.spec).items() if v is not None}
        return {
            "qrels": self.source,
            "pooling": spec,
            "queries": len(self.query_ids),
            "request": [{"query_id": q, "doc_id": d} for q, d in self.request],
            "runs": {
                name: {
                    "holes": len(pairs),
                    "retrieved": sum(self.retrieved[name].values()),
                    "pairs": [{"query_id": q, "doc_id": d} for q, d in pairs],
                }
                for name, pairs in self.run_holes.items()
            },
            "counts": self.counts(),
        }

    def table(self) -> str:
        """A text table: holes per query (rows) for each run and the pool, with totals."""
        counts = self.counts()
        cols = [*self.runs, "pool", "pooled"]
        head = ["query", *cols]
        rows = [[q, *(str(counts[c][q]) for c in cols)] for q in self.query_ids]
        rows.append(["all", *(str(sum(counts[c].values())) for c in cols)])
        widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]

        def line(cells: Sequence[str]) -> str:
            first = cells[0].ljust(widths[0])
            rest = (c.rjust(w) for c, w in zip(cells[1:], widths[1:], strict=True))
            return "  ".join([first, *rest]).rstrip()

        s = self.spec
        how = f"depth {s.depth}" if s.strategy == "depth" else f"{s.strategy}, size {s.size}"
        if s.strategy != "depth" and s.depth is not None:
            how += f", depth {s.depth}"
        total = len(self.request)
        title = (
            f"holes of {len(self.runs)} runs in {len(self.query_ids)} queries; pool: {how}, "
            f"{sum(counts['pooled'].values())} documents, {total} unjudged"
        )
        sep = "  ".join("-" * w for w in widths)
        return "\n".join([title, "", line(head), sep, *(line(r) for r in rows)]) + "\n"


def holes(
    qrels: Any,
    runs: Any,
    *,
    depth: int | None = None,
    strategy: str = "depth",
    size: int | None = None,
    p: float = 0.8,
    rrf_k: float = 60.0,
    merge: str = "sum",
    ties: str = "trec",
    seed: int | None = None,
    names: Sequence[str] | None = None,
) -> Holes:
    """The unjudged (query, document) pairs of each run and of their pool.

    ``strategy``: ``depth`` (the union of each run's first ``depth``), ``take`` (Take@N:
    ``size`` documents taken one rank at a time), ``rrf`` or ``rbp`` (the ``size`` documents
    of highest reciprocal-rank-fusion score with ``rrf_k``, or rank-biased-precision weight
    with ``p``, summed or ``merge="max"``); see :mod:`cranfield.judgments.pooling`.
    ``ties``, ``seed``: how each ranking is ordered (:func:`cranfield.evaluate`'s);
    ``names``: the runs' names (the naming rule of :func:`cranfield.evaluate` otherwise).
    """
    from cranfield.base import arguments as A
    from cranfield.comparing.rbo import ranked_documents
    from cranfield.data.run_names import Namer
    from cranfield.io import read_qrels, read_run
    from cranfield.judging.options import JudgeOptions

    spec = PoolSpec(strategy, depth, size, p, rrf_k, merge)
    options = JudgeOptions(ties=ties, seed=seed)
    A.qrels_given(qrels)
    sources, keys, _ = A.run_list(runs)
    given = A.run_names(names, len(sources))
    namer = Namer(sources, given if given is not None else keys)
    q = read_qrels(qrels)
    read = []
    for i, source in enumerate(sources):
        run = read_run(source)
        read.append((namer.name(i, run.name), run))
    query_ids = sorted(set(q.query_ids).union(*(r.query_ids for _, r in read)))
    vocabulary: dict[str, int] = {}
    ranked = [
        (name, ranked_documents(run, query_ids, vocabulary, ties=options.ties, seed=options.seed))
        for name, run in read
    ]
    del read
    doc_names = list(vocabulary)
    judged = _judged_codes(q, query_ids, vocabulary)

    run_holes: dict[str, list[tuple[str, str]]] = {}
    retrieved: dict[str, dict[str, int]] = {}
    for name, rk in ranked:
        pairs, seen = [], {}
        for i, qid in enumerate(query_ids):
            docs = rk.codes[rk.offsets[i] : rk.offsets[i + 1]][:depth]
            seen[qid] = len(docs)
            done: set[int] = set()
            for c in docs.tolist():
                if c not in judged[i] and c not in done:
                    done.add(c)
                    pairs.append((qid, doc_names[c]))
        run_holes[name] = pairs
        retrieved[name] = seen
    pool: dict[str, list[str]] = {}
    request: list[tuple[str, str]] = []
    for i, qid in enumerate(query_ids):
        lists = [rk.codes[rk.offsets[i] : rk.offsets[i + 1]] for _, rk in ranked]
        codes = pool_query(lists, spec, doc_names)
        pool[qid] = [doc_names[c] for c in codes]
        request.extend((qid, doc_names[c]) for c in codes if c not in judged[i])
    return Holes(
        query_ids=tuple(query_ids),
        runs=tuple(name for name, _ in ranked),
        spec=spec,
        pool=pool,
        request=request,
        run_holes=run_holes,
        retrieved=retrieved,
        source=q.source,
    )


def _judged_codes(q: Any, query_ids: list[str], vocabulary: dict[str, int]) -> list[set[int]]:
    """Per query of ``query_ids``, the codes of the documents its qrels list (any grade)."""
    out: list[set[int]] = []
    for qid in query_ids:
        i = q.query_index.get(qid)
        if i is None:
            out.append(set())
            continue
        docs = q.doc_ids[int(q.offsets[i]) : int(q.offsets[i + 1])]
        out.append({vocabulary[d] for d in docs if d in vocabulary})
    return out
