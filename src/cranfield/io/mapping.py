"""Nested dicts ``{qid: {docno: value}}``, the form pytrec_eval and ranx take."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..data import IdColumn, Qrels, Run
from ..errors import InputError
from .validate import check_scores

__all__ = ["qrels_from_mapping", "run_from_mapping"]


def _entries(obj: Mapping, source: str, what: str):
    if not obj:
        raise InputError(source, f"no {what} (the mapping is empty)")
    row = 0
    for q, docs in obj.items():
        if not isinstance(docs, Mapping):
            raise InputError(
                source,
                f"query {q!r}: expected a mapping of document ids to {what} values, "
                f"got {type(docs).__name__}",
            )
        for d, v in docs.items():
            row += 1
            yield row, str(q), str(d), v


def qrels_from_mapping(obj: Mapping, source: str = "<qrels dict>") -> Qrels:
    """``{qid: {docno: grade}}`` with integer grades (bools and integral floats accepted)."""
    qids, docs, grades = [], [], []
    for row, q, d, v in _entries(obj, source, "grade"):
        if isinstance(v, bool):
            v = int(v)
        if isinstance(v, float) and v.is_integer():
            v = int(v)
        if not isinstance(v, int | np.integer):
            raise InputError(
                source, f"query {q!r}, document {d!r}: grade {v!r} is not an integer", line=row
            )
        qids.append(q)
        docs.append(d)
        grades.append(int(v))
    # a dict cannot hold a (query, document) pair twice, so there is nothing to deduplicate
    return Qrels.from_rows(qids, docs, grades, source=source)


def run_from_mapping(obj: Mapping, source: str = "<run dict>", name: str = "run") -> Run:
    """``{qid: {docno: score}}``; the order of the documents is the ``given`` order."""
    qindex: dict[str, int] = {}
    qcodes, docs, scores, ranks = [], [], [], []
    last_q = None
    rank = 0
    for row, q, d, v in _entries(obj, source, "score"):
        try:
            s = float(v)
        except (TypeError, ValueError):
            raise InputError(
                source, f"query {q!r}, document {d!r}: score {v!r} is not a number", line=row
            ) from None
        code = qindex.setdefault(q, len(qindex))
        rank = rank + 1 if q == last_q else 1
        last_q = q
        qcodes.append(code)
        docs.append(d)
        scores.append(s)
        ranks.append(rank)
    run = Run(
        name=name,
        query_ids=tuple(qindex),
        qcodes=np.asarray(qcodes, dtype=np.int32),
        docs=IdColumn(docs),
        scores=np.asarray(scores, dtype=np.float64),
        ranks=np.asarray(ranks, dtype=np.int64),
        tag=name,
        source=source,
    )
    check_scores(run)
    return run
