"""TREC text qrels and runs read by the compiled core (``cranfield._core``, ``rust/``).

The core reads the text in one pass per line (fields split, query ids interned, grades, ranks
and scores parsed by the rules of :mod:`.number_text`) and returns numpy arrays; this module
makes them a :class:`~cranfield.data.tables.Run` or :class:`~cranfield.data.tables.Qrels` and
words a problem the core reports (its kind, line and field) exactly as the line parser of
:mod:`.text` does, from the fields of that one line.  The core is imported on the first read,
never by ``import cranfield``.
"""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np

from cranfield.base import core_ahead
from cranfield.base.arrow import string_buffers
from cranfield.data.id_column import IdColumn
from cranfield.data.tables import LineCounts, Qrels, Run, TextQrels
from cranfield.errors import InputError
from cranfield.io import number_text

__all__ = [
    "ARROW_IDS_ROWS",
    "QRELS_INDEXES",
    "core_array",
    "core_ids",
    "core_qrels",
    "core_run",
    "ids_ok",
    "no_duplicates",
]

ARROW_IDS_ROWS = 150_000
"""Runs with at least this many rows keep their ids in Arrow arrays (vectorised lookups and
hashes); smaller ones convert them to Python strings, which is cheaper than importing
pyarrow.compute and the id hashes.  Tests lower it to cover both."""

# The core's judging index of a Qrels (``_core.QrelsIndex``), built once per Qrels: by the
# reader from the file's bytes, or by cranfield.judging.join.qrels_index from the columns.
QRELS_INDEXES: weakref.WeakKeyDictionary[Qrels, Any] = weakref.WeakKeyDictionary()
# The qrels the core read and found without a document judged twice for one query.
_NO_DUPLICATES: weakref.WeakSet[Qrels] = weakref.WeakSet()
# The qrels the core read and found without an id that breaks the id rule.
_IDS_OK: weakref.WeakSet[Qrels] = weakref.WeakSet()


def ids_ok(qrels: Qrels) -> bool:
    """Whether the core, reading ``qrels``, found every id to follow the id rule (then
    :func:`cranfield.io.validate.check_qrels_ids` has nothing to find, and need not make
    the document ids)."""
    return qrels in _IDS_OK


def no_duplicates(qrels: Qrels) -> bool:
    """Whether the core, reading ``qrels``, found no (query, document) judged twice (then
    :func:`cranfield.io.validate.check_qrels_duplicates` has nothing to find)."""
    return qrels in _NO_DUPLICATES


_RUN_COLUMNS = "at least 6 columns (query, Q0, document, rank, score, run tag)"
_QRELS_COLUMNS = "4 columns (query, iteration, document, grade)"


def _core():
    from cranfield import _core

    return _core


def core_array(values: Any, dtype: Any) -> np.ndarray:
    """``values`` as the core reads them: contiguous and aligned (an array unpickled from a
    worker's buffer may be neither)."""
    return np.require(values, dtype=dtype, requirements=("C", "A"))


def core_ids(column: IdColumn) -> Any:
    """Ids as the core's functions take them: a list of strings, or an Arrow column's
    (offsets, bytes)."""
    if column.is_arrow:
        offsets, data = string_buffers(column.arrow())
        return core_array(offsets, np.int64), data
    return column.to_list()


def _counts(c: tuple) -> LineCounts:
    lines, data, comments, blank, extra, first_extra = c
    return LineCounts(
        lines=lines,
        data=data,
        comments=comments,
        blank=blank,
        extra_columns=extra,
        first_extra_line=first_extra,
    )


def _error(data: bytes, source: str, out: dict, kind: str) -> InputError:
    """The error the line parser of :mod:`.text` raises for the problem the core found."""
    from cranfield.io.trec import text

    what = out["error"]
    if what == "empty":
        found = "results" if kind == "run" else "judgments"
        return InputError(source, f"no {found} (only comments or blank lines)")
    line = out["line"]
    f = data[out["start"] : out["end"]].split()
    if what == "columns":
        expected = _RUN_COLUMNS if kind == "run" else _QRELS_COLUMNS
        return text._column_count_error(source, expected, f, line, kind)
    if what == "hidden":
        return text._hidden_result_error(source, line, f, kind)
    if what == "joined":
        return text._joined_error(source, line, f, out["field"])
    try:
        if what == "grade":
            number_text.grade(f[3])
        else:
            number_text.score(f[4])
    except number_text.NumberError as exc:
        return InputError(source, str(exc), line=line)
    raise AssertionError(f"the core refused line {line} ({what}), the rules accept it")


def core_run(data: bytes, source: str, name: str, list_rows: int) -> Run:
    """The run of TREC text (``data`` after the checks of :func:`.text._check_trec`); the
    documents are Python strings below ``list_rows`` rows, else an Arrow column.  Scores are
    not checked for finiteness here."""
    out = _core().read_run(data, list_rows)
    if "error" in out:
        raise _error(data, source, out, "run")
    if "docs" in out:
        docs = IdColumn(out["docs"])
    else:
        import pyarrow as pa

        n = out["counts"][1]
        buffers = [None, pa.py_buffer(out["doc_offsets"]), pa.py_buffer(out["doc_bytes"])]
        docs = IdColumn(pa.Array.from_buffers(pa.large_string(), n, buffers))
    problem = out["rank_problem"]
    if problem is not None:
        problem = f"line {problem[0]}: {number_text.rank_problem(problem[1])}"
    lines = out["lines"]
    return Run(
        name=name,
        query_ids=tuple(out["query_ids"]),
        qcodes=out["qcodes"],
        docs=docs,
        scores=out["scores"],
        ranks=out["ranks"] if problem is None else None,
        tag=out["tag"],
        source=source,
        lines=None if lines is None else lines,
        rank_problem=problem,
        line_counts=_counts(out["counts"]),
    )


def core_qrels(data: bytes, source: str) -> Qrels:
    """The qrels of TREC text (``data`` after :func:`.text._check_trec`), in the order of
    :class:`~cranfield.data.tables.Qrels` (query ids, then document ids, in byte order)."""
    read = core_ahead.take("ReadQrels", data)  # cranfield trec_eval's, made ahead
    if read is None:
        read = _core().ReadQrels(data)
    out = read.result()
    if "error" in out:
        raise _error(data, source, out, "qrels")
    index = out["index"]  # holds the documents' bytes: their strings made when asked
    qrels = TextQrels.of_text(
        index.id_strings,
        query_ids=tuple(out["query_ids"]),
        offsets=out["offsets"],
        grades=out["grades"],
        source=source,
        lines=out["lines"],
        line_counts=_counts(out["counts"]),
    )
    QRELS_INDEXES[qrels] = index
    if not out["duplicates"]:
        _NO_DUPLICATES.add(qrels)
    if out["ids_ok"]:
        _IDS_OK.add(qrels)
    return qrels
