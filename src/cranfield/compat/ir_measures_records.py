"""ir_measures' records and their reading, for :mod:`cranfield.compat.ir_measures`:
:class:`Qrel`, :class:`ScoredDoc`, :class:`Metric`, :class:`CalcResults`; TREC files read as
lazy record iterators (:func:`read_trec_qrels`, :func:`read_trec_run`) that the evaluation takes
as cranfield's table; qrels and runs in any form as ``{query: {document: value}}``
(:func:`as_dict`)."""

from __future__ import annotations

import itertools
import operator
import os
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, NamedTuple

__all__ = [
    "CalcResults",
    "Metric",
    "Qrel",
    "ScoredDoc",
    "TrecRecords",
    "as_dict",
    "read_table",
    "read_trec_qrels",
    "read_trec_run",
    "records_dict",
]


class Qrel(NamedTuple):
    query_id: str
    doc_id: str
    relevance: int
    iteration: str = "0"


class ScoredDoc(NamedTuple):
    query_id: str
    doc_id: str
    score: float


class Metric(NamedTuple):
    query_id: str
    measure: Any  # an ir_measures measure object (cranfield.compat.ir_measures.Measure)
    value: float


class CalcResults(NamedTuple):
    aggregated: Any
    per_query: list[Metric]


def as_dict(source: Any, reader: str) -> dict[str, dict[str, Any]]:
    """``{query: {document: value}}``: a dict as given, anything else read by cranfield."""
    if isinstance(source, Mapping) and all(isinstance(d, Mapping) for d in source.values()):
        return {q: d for q, d in source.items() if d}
    if isinstance(source, TrecRecords):
        table = source.take()
        if table is not None:
            return table.to_dict()
    if not isinstance(source, str | bytes | os.PathLike | Mapping) and isinstance(source, Iterable):
        source = iter(source)
        first = next(source, None)
        records = records_dict(first, source, "relevance" if reader == "read_qrels" else "score")
        if records is not None:
            return records
        source = [] if first is None else itertools.chain([first], source)
    import cranfield

    return getattr(cranfield, reader)(source).to_dict()


def records_dict(first: Any, rest: Iterator[Any], value: str) -> dict[str, dict[str, Any]] | None:
    """``{query: {document: value}}`` of ir_measures' records (``Qrel``, ``ScoredDoc``, theirs,
    ours or ir_datasets'; anything with ``query_id``, ``doc_id`` and ``value``), the last of a
    repeated document kept, as ir_measures' providers do; ``None`` (nothing taken but
    ``first``) for other rows, which cranfield's reader takes.  Python's loop: 7M records in
    3 s, against 26 s through cranfield's reader of records (bench/ir_measures_files.py)."""
    if first is None or not all(hasattr(first, f) for f in ("query_id", "doc_id", value)):
        return None
    out: dict[str, dict[str, Any]] = {}
    get = operator.attrgetter("query_id", "doc_id", value)
    for qid, doc, v in map(get, itertools.chain([first], rest)):
        docs = out.get(qid)
        if docs is None:
            docs = out[qid] = {}
        docs[doc] = v
    return out


def read_table(source: Any, reader: str) -> Any:
    """A TREC file read by cranfield's reader (file:line errors); ``source`` may be the text
    itself (a string with a line break), as ir_measures allows."""
    import tempfile

    import cranfield

    read = getattr(cranfield, reader)
    if not (isinstance(source, str) and "\n" in source):
        return read(source, format="trec")
    fd, path = tempfile.mkstemp(suffix=".txt", prefix="cranfield-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(source.lstrip("\n"))
        return read(path, format="trec")
    finally:
        os.unlink(path)


class TrecRecords(Iterator[Any]):
    """The records of a TREC file, read when first needed (a generator in ir_measures).

    Handed unstarted to :func:`calc_aggregate`, :func:`iter_calc` or an evaluator, the file
    read by cranfield's reader goes to the measures as it is, without becoming one Python
    record per line and back (:func:`as_dict`); iterated, the records come from the reader's
    columns.  On a run of 7,000 queries x 1,000 documents (bench/ir_measures_files.py):
    ``calc_aggregate`` 37 s -> 10 s (ir_measures 27 s), iterating 18 s -> 9 s (15 s)."""

    __slots__ = ("_reader", "_rows", "_source")

    def __init__(self, source: Any, reader: str) -> None:
        self._source = source
        self._reader = reader
        self._rows: Iterator[Any] | None = None

    def take(self) -> Any | None:
        """The table read (cranfield's Qrels or Run), the records used up; ``None`` when the
        iteration has begun (the rest is then read record by record)."""
        if self._rows is not None:
            return None
        self._rows = iter(())
        return read_table(self._source, self._reader)

    def __next__(self) -> Any:
        if self._rows is None:
            self._rows = self._records(read_table(self._source, self._reader))
        return next(self._rows)

    def _records(self, table: Any) -> Iterator[Any]:
        if self._reader == "read_qrels":
            counts = (table.offsets[1:] - table.offsets[:-1]).tolist()
            qids = [q for q, n in zip(table.query_ids, counts, strict=True) for _ in range(n)]
            return map(Qrel, qids, table.doc_ids, table.grades.tolist())
        run_qids = map(table.query_ids.__getitem__, table.qcodes.tolist())
        return map(ScoredDoc, run_qids, table.docs.to_list(), table.scores.tolist())


def read_trec_qrels(source: Any) -> Iterator[Qrel]:
    """The judgments of a TREC qrels file (a path, or its text) as :class:`Qrel` records."""
    return TrecRecords(source, "read_qrels")


def read_trec_run(source: Any) -> Iterator[ScoredDoc]:
    """The rows of a TREC run file (a path, or its text) as :class:`ScoredDoc` records."""
    return TrecRecords(source, "read_run")
