"""Nested dicts ``{qid: {docno: value}}``, the form pytrec_eval and ranx take (and JSON files).

Keys are ids: strings, or integers (decimal text); a float or boolean key is an error.  Grades
are integers (booleans and integral floats accepted); scores are numbers (booleans and numeric
strings are refused).  Messages name an entry by its two keys.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..data import IdColumn, Qrels, Run
from ..errors import InputError
from . import columns as C
from .columns import Where
from .validate import check_qrels_duplicates, check_run_duplicates, check_scores

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
                f"query {q!r}: expected a mapping of document ids to {what}s, "
                f"got {type(docs).__name__}",
            )
        for d, v in docs.items():
            qkeys.append(q)
            dkeys.append(d)
            values.append(v)
    if not values:
        raise InputError(source, f"no {what}s (every query maps to an empty mapping)")
    return qkeys, dkeys, values


def _keys(keys: list[Any], role: C.Role, where: Where) -> list[str]:
    return C.py_ids(keys, role, where)


def _check_collisions(obj: Mapping, source: str) -> None:
    """Two keys naming the same id (``1`` and ``"1"``) would silently merge or duplicate."""
    seen: dict[str, Any] = {}
    for q, docs in obj.items():
        qs = str(q)
        if qs in seen:
            raise InputError(source, f"keys {seen[qs]!r} and {q!r} both name query {qs!r}")
        seen[qs] = q
        if len(docs) > 1 and any(not isinstance(d, str) for d in docs):
            named: dict[str, Any] = {}
            for d in docs:
                ds = str(d)
                if ds in named:
                    raise InputError(
                        source,
                        f"query {q!r}: keys {named[ds]!r} and {d!r} both name document {ds!r}",
                    )
                named[ds] = d


def _where(source: str, qkeys: list[Any], dkeys: list[Any]) -> Where:
    """Messages name an entry by its keys: ``query 'q1', document 'd3': ...``."""
    return Where(source, "row", describe=lambda i: f"query {qkeys[i]!r}, document {dkeys[i]!r}")


def qrels_from_mapping(obj: Mapping, source: str = "<qrels dict>") -> Qrels:
    """``{qid: {docno: grade}}`` with integer grades (booleans and integral floats accepted)."""
    qkeys, dkeys, values = _entries(obj, source, "grade")
    where = _where(source, qkeys, dkeys)
    qids = _keys(qkeys, C.QUERY, where)
    docs = _keys(dkeys, C.DOC, where)
    if not all(isinstance(k, str) for k in qkeys) or not all(isinstance(k, str) for k in dkeys):
        _check_collisions(obj, source)
    grades = C.py_grades(values, where)
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
    qids = _keys(qkeys, C.QUERY, where)
    docs = _keys(dkeys, C.DOC, where)
    if not all(isinstance(k, str) for k in qkeys) or not all(isinstance(k, str) for k in dkeys):
        _check_collisions(obj, source)
    scores = C.py_scores(values, where)
    qindex: dict[str, int] = {}
    qcodes = [qindex.setdefault(q, len(qindex)) for q in qids]
    codes = np.asarray(qcodes, dtype=np.int32)
    from .tabular import _row_order_ranks

    run = Run(
        name=name,
        query_ids=tuple(qindex),
        qcodes=codes,
        docs=IdColumn(docs),
        scores=np.asarray(scores, dtype=np.float64),
        ranks=_row_order_ranks(codes),
        tag=name,
        source=source,
    )
    check_scores(run, "row")
    check_run_duplicates(run, "row")
    return run
