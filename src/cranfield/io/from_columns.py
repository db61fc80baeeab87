"""Qrels and Runs from columns: the last step of every table reader (DataFrames, Arrow,
JSON, JSON lines, Parquet, CSV/TSV with a header, the peers' objects).

A column is ``(name, values)``, the values an Arrow array (or a :class:`RankProblem`); each
goes through its role's rules (:mod:`cranfield.io.columns`) and the whole through the checks
of every reader (:mod:`cranfield.io.validate`).  The ``given`` order of a run is its ``rank``
column when present (ascending, ties in row order), else its row order.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cranfield.data.id_column import IdColumn
from cranfield.data.tables import Qrels, Run
from cranfield.errors import InputError
from cranfield.io import columns as C
from cranfield.io import python_values as P
from cranfield.io.columns import Where
from cranfield.io.validate import check_qrels_duplicates, check_run_duplicates, check_scores

__all__ = [
    "LIST_IDS_ROWS",
    "RankProblem",
    "python_array",
    "qrels_from_columns",
    "row_order_ranks",
    "run_from_columns",
]


LIST_IDS_ROWS = 100_000
"""Runs with fewer rows keep document ids in a Python list (cheaper for small inputs)."""


def qrels_from_columns(cols: dict[str, tuple[str, Any]], where: Where, empty: str) -> Qrels:
    column, q = cols["query"]
    n = len(q)
    if n == 0:
        raise InputError(where.source, f"no judgments ({empty or 'no rows'})")
    qids = C.ids(q, column, C.QUERY, where)
    docs = C.ids(cols["doc"][1], cols["doc"][0], C.DOC, where)
    g = C.grades(cols["grade"][1], cols["grade"][0], where)
    if where.unit == "line":
        lines = where.lines if where.lines is not None else np.arange(1, n + 1, dtype=np.int64)
    else:
        lines = np.arange(n, dtype=np.int64)
    qrels = Qrels.from_columns(qids, docs, g, source=where.source, lines=lines)
    check_qrels_duplicates(qrels, where.unit)
    return qrels


def run_from_columns(
    cols: dict[str, tuple[str, Any]], where: Where, name: str | None, empty: str
) -> Run:
    import pyarrow.compute as pc

    column, q = cols["query"]
    n = len(q)
    if n == 0:
        raise InputError(where.source, f"no results ({empty or 'no rows'})")
    qids = C.ids(q, column, C.QUERY, where)
    docs = C.ids(cols["doc"][1], cols["doc"][0], C.DOC, where)
    scores = C.scores(cols["score"][1], cols["score"][0], where)
    tag = C.tag(cols["tag"][1], cols["tag"][0], where) if "tag" in cols else None
    enc = pc.dictionary_encode(qids)
    qcodes = enc.indices.to_numpy(zero_copy_only=False).astype(np.int32, copy=False)
    if "rank" in cols and isinstance(cols["rank"][1], RankProblem):
        ranks, rank_problem = None, cols["rank"][1].why
    elif "rank" in cols:
        ranks, rank_problem = C.ranks(cols["rank"][1], cols["rank"][0], where)
    else:
        ranks, rank_problem = row_order_ranks(qcodes), None
    run = Run(
        name=name or tag or "run",
        query_ids=tuple(enc.dictionary.to_pylist()),
        qcodes=qcodes,
        docs=IdColumn(docs.to_pylist() if n < LIST_IDS_ROWS else docs),
        scores=scores,
        ranks=ranks,
        tag=tag if tag is not None else name or "run",
        source=where.source,
        lines=where.lines if where.unit == "line" else None,
        rank_problem=rank_problem,
    )
    check_scores(run, where.unit)
    check_run_duplicates(run, where.unit)
    return run


def row_order_ranks(qcodes: np.ndarray) -> np.ndarray:
    """1, 2, ... per query in row order (queries may interleave)."""
    n = len(qcodes)
    grouped = n < 2 or bool((qcodes[1:] >= qcodes[:-1]).all())  # the usual layout
    order = None if grouped else np.argsort(qcodes, kind="stable")
    sorted_q = qcodes if order is None else qcodes[order]
    starts = np.ones(n, dtype=bool)
    starts[1:] = sorted_q[1:] != sorted_q[:-1]
    first = np.maximum.accumulate(np.where(starts, np.arange(n), 0))
    ranks = np.arange(1, n + 1, dtype=np.int64) - first
    if order is not None:
        ranks[order] = ranks.copy()
    return ranks


class RankProblem:
    """A rank column the ``given`` policy cannot use (found while converting Python values)."""

    def __init__(self, why: str | None) -> None:
        self.why = why


def python_array(values: list[Any], role: str, where: Where) -> Any:
    """Arrow array of Python values validated element-wise by the role's rules."""
    import pyarrow as pa

    if role in ("query", "doc"):
        return pa.array(P.py_ids(values, C.QUERY if role == "query" else C.DOC, where))
    if role == "grade":
        return pa.array(P.py_grades(values, where), type=pa.int64())
    if role == "score":
        return pa.array(P.py_scores(values, where), type=pa.float64())
    if role == "rank":
        ranks, problem = P.py_ranks(values, where)
        return RankProblem(problem) if ranks is None else pa.array(ranks, type=pa.int64())
    tags = [None if v is None else v if isinstance(v, str) else P.show(v) for v in values]
    return pa.array(tags, type=pa.string())
