"""Checks shared by every reader: they name the source and the line (or row) of the problem.

Text and JSON lines inputs count 1-based *lines*; in-memory tables and Parquet files count
0-based *rows* (``df.iloc[row]``); ``unit`` says which, and row positions then live where line
numbers would (``Qrels.lines`` holds the row of each judgment, ``Run.lines`` is ``None``).
"""

from __future__ import annotations

import operator

import numpy as np

from cranfield.data.tables import Qrels, Run
from cranfield.errors import InputError

__all__ = [
    "check_qrels_duplicates",
    "check_qrels_ids",
    "check_run_duplicates",
    "check_run_ids",
    "check_scores",
    "located",
]


def located(source: str, problem: str, where: int, unit: str = "line") -> InputError:
    """An :class:`InputError` at a 1-based line (``unit="line"``) or at a 0-based row/item."""
    if unit == "line":
        return InputError(source, problem, line=where)
    return InputError(source, f"{unit} {where}: {problem}")


def _qrels_where(qrels: Qrels, row: int, unit: str) -> int:
    if qrels.lines is not None:
        return int(qrels.lines[row])
    return row + 1 if unit == "line" else row


def _run_where(run: Run, row: int, unit: str) -> int:
    return run.line_of(row) if unit == "line" else row


def check_qrels_duplicates(qrels: Qrels, unit: str = "line") -> None:
    """A (query, document) pair judged twice is an error, with equal grades or not.

    trec_eval stops with ``duplicate docs`` in both cases.  Rows are sorted by (query,
    document), so duplicates are adjacent; the one whose second occurrence comes first in the
    input is reported.
    """
    docs = qrels.doc_ids
    n = len(docs)
    if n < 2:
        return
    same = np.fromiter(map(operator.eq, docs[1:], docs[:-1]), dtype=bool, count=n - 1)
    if not same.any():
        return
    rows = np.flatnonzero(same) + 1
    rows = rows[~np.isin(rows, qrels.offsets)]  # a query boundary is not a duplicate
    if len(rows) == 0:
        return
    if qrels.lines is not None:  # report the pair whose second occurrence comes first
        lines = np.asarray(qrels.lines)
        rows = rows[[int(np.argmin(np.maximum(lines[rows - 1], lines[rows])))]]
    r = int(rows[0])
    qi = int(np.searchsorted(qrels.offsets, r, side="right")) - 1
    first, second = sorted((_qrels_where(qrels, r - 1, unit), _qrels_where(qrels, r, unit)))
    g1, g2 = int(qrels.grades[r - 1]), int(qrels.grades[r])
    what = f"with different grades ({g1} and {g2})" if g1 != g2 else f"twice (grade {g1})"
    err = located(
        qrels.source,
        f"document {docs[r]!r} is judged {what} for query {qrels.query_ids[qi]!r} "
        f"(first at {unit} {first})",
        second,
        unit,
    )
    err.pair = (first, second)
    raise err


def check_scores(run: Run, unit: str = "line") -> None:
    """Scores must be finite numbers: NaN or infinite scores make the ranking undefined."""
    bad = ~np.isfinite(run.scores)
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        value = run.scores[row]
        kind = "NaN" if np.isnan(value) else "infinite"
        raise located(
            run.source, f"score is {kind} (scores must be finite)", _run_where(run, row, unit), unit
        )


def check_run_duplicates(run: Run, unit: str = "line") -> None:
    """A document listed twice for one query is an error, as in trec_eval (``duplicate docs``).

    The compiled core finds the first row whose (query, document) an earlier row holds
    (``_core.first_duplicate``: one hash lookup per row); that row is reported, with the
    first row that holds the pair.
    """
    if len(run) < 2:
        return
    from cranfield import _core
    from cranfield.io.trec.core import core_array, core_ids

    found = _core.first_duplicate(core_array(run.qcodes, np.int32), core_ids(run.docs))
    if found is None:
        return
    later, earlier = found
    (doc,) = run.docs.take([later])
    raise located(
        run.source,
        f"document {doc!r} is listed twice for query "
        f"{run.query_ids[int(run.qcodes[later])]!r} "
        f"(first at {unit} {_run_where(run, earlier, unit)})",
        _run_where(run, later, unit),
        unit,
    )


def _bad_rows(values: list[str]) -> list[int]:
    """Every index of ``values`` that is not a valid id (only called when there is one)."""
    from cranfield.io.ids import id_problem

    return [i for i, v in enumerate(values) if id_problem(v) is not None]


def _id_error(source: str, what: str, value: str, where: int, unit: str) -> InputError:
    from cranfield.io.ids import id_message

    return located(source, id_message(what, value), where, unit)


def check_run_ids(run: Run, unit: str = "line") -> None:
    """Query and document ids follow the id rule of :mod:`cranfield.io.ids` (no control
    character: a TREC text's fields hold no whitespace, but may hold other C0/C1 controls or
    DEL), as they do from every other source; the earliest offending row is named."""
    from cranfield.io.ids import bad_id_in_arrow, bad_id_in_list

    bad_rows = []
    qids = list(run.query_ids)
    if bad_id_in_list(qids) is not None:  # codes index query_ids
        bad_rows.append(int(np.flatnonzero(np.isin(run.qcodes, _bad_rows(qids)))[0]))
    if run.docs.is_arrow:
        row = bad_id_in_arrow(run.docs.arrow())
    else:
        docs = run.docs.to_list()
        row = None if bad_id_in_list(docs) is None else _bad_rows(docs)[0]
    if row is not None:
        bad_rows.append(row)
    if not bad_rows:
        return
    row = min(bad_rows)
    q = run.query_ids[int(run.qcodes[row])]
    from cranfield.io.ids import id_problem

    if id_problem(q) is not None:
        raise _id_error(run.source, "query id", q, _run_where(run, row, unit), unit)
    (doc,) = run.docs.take([row])
    raise _id_error(run.source, "document id", doc, _run_where(run, row, unit), unit)


def check_qrels_ids(qrels: Qrels, unit: str = "line") -> None:
    """:func:`check_run_ids` for qrels (rows are sorted: the earliest line is named)."""
    from cranfield.io.ids import bad_id_in_list

    bad_q = bad_id_in_list(list(qrels.query_ids)) is not None
    bad_d = bad_id_in_list(qrels.doc_ids) is not None
    if not (bad_q or bad_d):
        return
    rows = set(_bad_rows(qrels.doc_ids)) if bad_d else set()
    if bad_q:
        for qi in _bad_rows(list(qrels.query_ids)):
            rows.update(range(int(qrels.offsets[qi]), int(qrels.offsets[qi + 1])))
    row = min(rows, key=lambda r: _qrels_where(qrels, r, unit))
    qi = int(np.searchsorted(qrels.offsets, row, side="right")) - 1
    q = qrels.query_ids[qi]
    from cranfield.io.ids import id_problem

    what, value = (
        ("query id", q) if id_problem(q) is not None else ("document id", qrels.doc_ids[row])
    )
    raise _id_error(qrels.source, what, value, _qrels_where(qrels, row, unit), unit)
