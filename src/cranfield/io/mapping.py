"""Nested dicts ``{qid: {docno: value}}``, the form pytrec_eval and ranx take (and JSON files).

Keys are ids (strings, or integers as decimal text) and follow the id rule of
:mod:`cranfield.io.ids`; a float, boolean or bytes key is an error.  Grades and scores follow
the value rules of :mod:`cranfield.io.columns` (grades: integral values in int64; scores:
finite doubles, not booleans or strings).  Messages name an entry by its two keys.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from cranfield.data.id_column import IdColumn
from cranfield.data.tables import Qrels, Run
from cranfield.errors import InputError
from cranfield.io import columns as C
from cranfield.io import python_values as P
from cranfield.io.columns import Where
from cranfield.io.number_text import JsonNumber
from cranfield.io.validate import check_qrels_duplicates, check_run_duplicates, check_scores

__all__ = ["qrels_from_mapping", "run_from_mapping"]


def _entries(obj: Mapping, source: str, what: str):
    """(query key, document key, value) for every entry, the mapping's shape checked."""
    if not obj:
        raise InputError(source, f"no {what}s (the mapping is empty)")
    qkeys: list[Any] = []
    dkeys: list[Any] = []
    values: list[Any] = []
    for q, docs in obj.items():
        if not isinstance(docs, Mapping):
            raise InputError(
                source,
                f"query {P.show(q)}: expected a mapping of document ids to {what}s, "
                f"got {'number' if isinstance(docs, JsonNumber) else type(docs).__name__}",
            )
        for d, v in docs.items():
            qkeys.append(q)
            dkeys.append(d)
            values.append(v)
    if not values:
        raise InputError(source, f"no {what}s (every query maps to an empty mapping)")
    return qkeys, dkeys, values


def _ids(
    obj: Mapping, qkeys: list[Any], dkeys: list[Any], where: Where
) -> tuple[list[str], list[str]]:
    """The keys as id text, checked by the id rule (the keys of queries that map to an empty
    mapping too); two keys of one mapping that name the same id (``1`` and ``"1"``) would
    silently merge two queries (or documents): an error."""
    qids = P.py_ids(qkeys, C.QUERY, where)
    docs = P.py_ids(dkeys, C.DOC, where)
    empty = [q for q, d in obj.items() if not d]
    empty_ids = P.py_ids(
        empty, C.QUERY, Where(where.source, describe=lambda i: f"query {P.show(empty[i])}")
    )
    if all(type(k) is str for k in obj) and all(type(k) is str for k in dkeys):
        return qids, docs
    first_q: dict[str, Any] = {}
    for qk, q in zip([*qkeys, *empty], [*qids, *empty_ids], strict=True):
        prev = first_q.setdefault(q, qk)
        if prev is not qk and (type(prev) is not type(qk) or prev != qk):
            raise InputError(
                where.source, f"keys {P.show(prev)} and {P.show(qk)} both name query {q!r}"
            )
    first_d: dict[tuple[str, str], Any] = {}
    for qk, q, dk, d in zip(qkeys, qids, dkeys, docs, strict=True):
        prev = first_d.setdefault((q, d), dk)
        if prev is not dk and (type(prev) is not type(dk) or prev != dk):
            raise InputError(
                where.source,
                f"query {P.show(qk)}: keys {P.show(prev)} and {P.show(dk)} both name "
                f"document {d!r}",
            )
    return qids, docs


def _where(source: str, qkeys: list[Any], dkeys: list[Any]) -> Where:
    """Messages name an entry by its keys: ``query 'q1', document 'd3': ...``."""
    return Where(
        source,
        "row",
        describe=lambda i: f"query {P.show(qkeys[i])}, document {P.show(dkeys[i])}",
    )


def qrels_from_mapping(obj: Mapping, source: str = "<qrels dict>") -> Qrels:
    """``{qid: {docno: grade}}`` with integer grades (booleans and integral floats accepted)."""
    qkeys, dkeys, values = _entries(obj, source, "grade")
    where = _where(source, qkeys, dkeys)
    qids, docs = _ids(obj, qkeys, dkeys, where)
    grades = P.py_grades(values, where)
    lines = np.arange(len(qids), dtype=np.int64)
    qrels = Qrels.from_rows(qids, docs, grades, source=source, lines=lines)
    check_qrels_duplicates(qrels, "row")  # {1: ..., "1": ...} names query "1" twice
    return qrels


def run_from_mapping(obj: Mapping, source: str = "<run dict>", name: str = "run") -> Run:
    """``{qid: {docno: score}}``; the order of the documents is the ``given`` order.

    Scores must be numbers (``int``/``float`` or numpy numbers, not booleans).
    """
    qkeys, dkeys, values = _entries(obj, source, "score")
    where = _where(source, qkeys, dkeys)
    qids, docs = _ids(obj, qkeys, dkeys, where)
    scores = P.py_scores(values, where)
    qindex: dict[str, int] = {}
    qcodes = [qindex.setdefault(q, len(qindex)) for q in qids]
    codes = np.asarray(qcodes, dtype=np.int32)
    from cranfield.io.from_columns import row_order_ranks

    run = Run(
        name=name,
        query_ids=tuple(qindex),
        qcodes=codes,
        docs=IdColumn(docs),
        scores=np.asarray(scores, dtype=np.float64),
        ranks=row_order_ranks(codes),
        tag=name,
        source=source,
    )
    check_scores(run, "row")
    check_run_duplicates(run, "row")
    return run
