"""The two inputs of every evaluation, as columnar data: :class:`Qrels` and :class:`Run`.

Ids are strings, always (a qid ``007`` stays ``007``).  Query ids become integer codes through a
dictionary (``query_ids[code]``); document ids stay in an :class:`IdColumn`, a Python list for
small inputs or an Arrow string array for large ones, and are only compared, looked up or hashed
by vectorised operations.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

__all__ = ["IdColumn", "LineCounts", "Qrels", "Run"]


class IdColumn:
    """A column of string ids backed by a Python list or a pyarrow string array."""

    __slots__ = ("_arrow", "_hashes", "_list")

    def __init__(self, values: Sequence[str] | Any) -> None:
        self._hashes: np.ndarray | None = None
        if isinstance(values, list):
            self._list: list[str] | None = values
            self._arrow = None
        else:  # a pyarrow (Large)StringArray or ChunkedArray
            import pyarrow as pa

            if isinstance(values, pa.ChunkedArray):
                values = values.combine_chunks()
            self._arrow = values
            self._list = None

    def __len__(self) -> int:
        return len(self._list) if self._list is not None else len(self._arrow)

    @property
    def is_arrow(self) -> bool:
        return self._arrow is not None

    def take(self, rows: np.ndarray | Sequence[int]) -> list[str]:
        """The ids at the given row positions, as Python strings."""
        if self._list is not None:
            lst = self._list
            return [lst[i] for i in np.asarray(rows, dtype=np.int64).tolist()]

        return self._arrow.take(numpy_arrow(rows)).to_pylist()

    def arrow(self, rows: np.ndarray | Sequence[int] | None = None) -> Any:
        """The ids (at the given row positions) as a pyarrow string array."""

        if self._arrow is None:
            values = self._list if rows is None else self.take(rows)
            return strings_arrow(values)
        if rows is None:
            return self._arrow
        return self._arrow.take(numpy_arrow(rows))

    def to_list(self) -> list[str]:
        return list(self._list) if self._list is not None else self._arrow.to_pylist()

    def lookup(self, vocabulary: Sequence[str] | Vocabulary) -> np.ndarray:
        """Position of each id in ``vocabulary`` (distinct strings), -1 where absent.

        Pass a :class:`Vocabulary` to look up several columns in the same strings (it keeps
        the hashes and the dictionary it builds).
        """
        if not isinstance(vocabulary, Vocabulary):
            vocabulary = Vocabulary(vocabulary)
        if self._list is not None:
            found = map(vocabulary.index.get, self._list, itertools.repeat(-1))
            return np.fromiter(found, dtype=np.int64, count=len(self))
        return vocabulary.find_hashed(self)

    def codes(self) -> np.ndarray:
        """Integer keys with ``a == b  =>  key(a) == key(b)``.

        For a list the keys are exact dictionary codes.  For an Arrow column they are 64-bit
        hashes (polars' vectorised hash), so equal keys are only candidates for equality and
        callers must confirm them with :meth:`take`.
        """
        if self._list is not None:
            index: dict[str, int] = {}
            setdefault = index.setdefault
            return np.fromiter(
                (setdefault(v, len(index)) for v in self._list), dtype=np.int64, count=len(self)
            )
        if self._hashes is None:  # computed once: duplicate checks and lookups share them
            self._hashes = _hash_arrow(self._arrow)
            self._hashes.flags.writeable = False
        return self._hashes

    @property
    def exact_codes(self) -> bool:
        """Whether :meth:`codes` are exact (no hash collisions possible)."""
        return self._list is not None


class Vocabulary:
    """Distinct strings prepared for repeated lookups (``IdColumn.lookup``).

    For Python ids a dictionary; for Arrow ids the strings' 64-bit hashes (the ones
    :meth:`IdColumn.codes` gives), sorted, and a direct-mapped table of them: a column's
    hashes are filtered through the table, matched by binary search, and confirmed on the
    strings, so that nothing is rebuilt per column.  Built lazily, once.
    """

    def __init__(self, values: Sequence[str]) -> None:
        self.values = list(values)

    def __len__(self) -> int:
        return len(self.values)

    @cached_property
    def index(self) -> dict[str, int]:
        return dict(zip(self.values, range(len(self.values)), strict=True))

    @cached_property
    def _hashed(self) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, int] | None:
        """(Arrow strings, sorted hashes, their positions, filter table, mask); None if two
        strings share a hash (then lookups use Arrow's exact ``index_in``)."""
        arr = strings_arrow(self.values)
        h = _hash_arrow(arr).view(np.uint64)
        order = np.argsort(h, kind="stable")
        sorted_h = h[order]
        if len(sorted_h) > 1 and (sorted_h[1:] == sorted_h[:-1]).any():
            return None
        size = 1 << max(16, min(24, (32 * max(len(h), 1) - 1).bit_length()))
        table = np.zeros(size, dtype=bool)
        table[h & np.uint64(size - 1)] = True
        return arr, sorted_h, order, table, size - 1

    def find_hashed(self, column: IdColumn) -> np.ndarray:
        """Positions of an Arrow-backed column's ids (-1 where absent)."""
        import pyarrow.compute as pc

        out = np.full(len(column), -1, dtype=np.int64)
        if not self.values or not len(column):
            return out
        prepared = self._hashed
        if prepared is None:  # a hash collision inside the vocabulary: exact and slower
            found = pc.index_in(column.arrow(), value_set=strings_arrow(self.values))
            return arrow_numpy(found, np.int32, fill=-1).astype(np.int64)
        arr, sorted_h, order, table, mask = prepared
        h = column.codes().view(np.uint64)
        cand = np.flatnonzero(table[h & np.uint64(mask)])  # equal strings, equal hashes
        if len(cand) == 0:
            return out
        hc = h[cand]
        pos = np.minimum(np.searchsorted(sorted_h, hc), len(sorted_h) - 1)
        hit = sorted_h[pos] == hc
        cand, where = cand[hit], order[pos[hit]]
        if len(cand) == 0:
            return out
        same = pc.equal(column.arrow(cand), arr.take(numpy_arrow(where)))  # confirm
        ok = bool_numpy(same)
        out[cand[ok]] = where[ok]
        return out


def bool_numpy(arr: Any) -> np.ndarray:
    """A null-free Arrow boolean array as numpy (bit-packed values unpacked)."""
    bits = np.frombuffer(arr.buffers()[1], dtype=np.uint8)
    return np.unpackbits(bits, bitorder="little")[arr.offset : arr.offset + len(arr)].astype(bool)


def _hash_arrow(arr: Any) -> np.ndarray:
    """64-bit hashes of an Arrow string array (polars' vectorised hash, fixed seed), as int64.

    The hash depends only on each string's bytes, so hashes of two columns are comparable.
    """
    import polars as pl

    return pl.from_arrow(arr).hash(seed=0x5EED).to_numpy().view(np.int64)


def numpy_arrow(values: np.ndarray | Sequence[int]) -> Any:
    """An integer numpy array as a zero-copy Arrow array (``pa.array`` would import pandas)."""
    import pyarrow as pa

    a = np.ascontiguousarray(values, dtype=np.int64)
    return pa.Array.from_buffers(pa.int64(), len(a), [None, pa.py_buffer(a)])


def strings_arrow(values: Sequence[str]) -> Any:
    """Python strings as an Arrow string array, built from buffers (``pa.array`` would
    import pandas, a quarter of a second)."""
    import pyarrow as pa

    encoded = [v.encode("utf-8") for v in values]
    offsets = np.zeros(len(encoded) + 1, dtype=np.int64)
    np.cumsum(np.fromiter(map(len, encoded), np.int64, len(encoded)), out=offsets[1:])
    if offsets[-1] < 2**31:
        typ, offsets = pa.string(), offsets.astype(np.int32)
    else:
        typ = pa.large_string()
    return pa.Array.from_buffers(
        typ, len(encoded), [None, pa.py_buffer(offsets), pa.py_buffer(b"".join(encoded))]
    )


def arrow_numpy(arr: Any, dtype: Any, fill: Any = None) -> np.ndarray:
    """A primitive Arrow array (or chunked array) as numpy, without pandas.

    ``pyarrow.Array.to_numpy`` and ``fill_null`` import pandas (a quarter of a second); this
    reads the buffers directly (zero-copy for a single chunk without nulls).  Nulls become
    ``fill`` (an error if it is None).
    """
    import pyarrow as pa

    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks()
    dt = np.dtype(dtype)
    if arr.type.bit_width != dt.itemsize * 8:
        raise TypeError(f"{arr.type} is not {dt}")
    n, off = len(arr), arr.offset
    values = np.frombuffer(arr.buffers()[1], dtype=dt)[off : off + n]
    if arr.null_count:
        if fill is None:
            raise ValueError("the array has nulls and no fill value was given")
        bits = np.frombuffer(arr.buffers()[0], dtype=np.uint8)
        valid = np.unpackbits(bits, bitorder="little")[off : off + n].astype(bool)
        values = np.where(valid, values, np.asarray(fill, dtype=dt))
    return values


@dataclass(frozen=True)
class LineCounts:
    """How the lines of a text file were read: each is a data line (one row), a comment or
    blank, so ``data + comments + blank == lines`` and ``data == len(rows)``.

    ``extra_columns`` counts the run lines that had fields after the run tag (ignored, as
    trec_eval does), the first of them at ``first_extra_line``.
    """

    lines: int
    data: int
    comments: int = 0
    blank: int = 0
    extra_columns: int = 0
    first_extra_line: int | None = None


@dataclass(frozen=True, eq=False)
class Qrels:
    """Relevance judgments, grouped by query in ``strcmp`` order of the query id.

    Rows of query ``i`` are ``offsets[i]:offsets[i+1]``; within a query, rows are in byte
    order of the document id.  Grades are integers; a negative grade means "in the pool but
    not judged" (trec_eval's convention): never relevant, but not unjudged either.
    """

    query_ids: tuple[str, ...]
    offsets: np.ndarray
    doc_ids: list[str]
    grades: np.ndarray
    source: str = "<qrels>"
    lines: np.ndarray | None = field(default=None, repr=False)
    line_counts: LineCounts | None = field(default=None, repr=False)
    """How the lines of a text file were used (``None`` for other sources)."""

    @property
    def num_queries(self) -> int:
        return len(self.query_ids)

    def __len__(self) -> int:
        return len(self.doc_ids)

    @cached_property
    def query_index(self) -> dict[str, int]:
        return {q: i for i, q in enumerate(self.query_ids)}

    @cached_property
    def doc_index(self) -> Vocabulary:
        """:attr:`doc_vocabulary` prepared for lookups (built once per Qrels)."""
        return Vocabulary(self.doc_vocabulary)

    @cached_property
    def doc_vocabulary(self) -> list[str]:
        """Distinct document ids, in order of first appearance."""
        return list(dict.fromkeys(self.doc_ids))

    @cached_property
    def _sorted_keys(self) -> tuple[np.ndarray, np.ndarray]:
        """(sorted pair keys, row of each key) with key = query * |vocabulary| + doc code."""
        vocab = self.doc_index.index
        codes = np.fromiter(map(vocab.__getitem__, self.doc_ids), dtype=np.int64, count=len(self))
        qidx = np.repeat(np.arange(self.num_queries, dtype=np.int64), np.diff(self.offsets))
        keys = qidx * max(len(vocab), 1) + codes
        order = np.argsort(keys, kind="stable")
        return keys[order], order

    def grades_of(self, query_index: np.ndarray, doc_code: np.ndarray) -> np.ndarray:
        """Grade of (query, doc) pairs given as qrels query index and vocabulary code.

        Returns the grade, or :data:`MISSING` where the pair has no judgment (a grade of
        ``-2**63`` itself comes back as ``-2**63 + 1``, negative all the same).
        """
        keys, rows = self._sorted_keys
        out = np.full(len(doc_code), MISSING, dtype=np.int64)
        ok = (doc_code >= 0) & (query_index >= 0)
        if not ok.any() or len(keys) == 0:
            return out
        k = query_index[ok] * max(len(self.doc_vocabulary), 1) + doc_code[ok]
        pos = np.searchsorted(keys, k)
        pos_c = np.minimum(pos, len(keys) - 1)
        hit = keys[pos_c] == k
        found = np.full(len(k), MISSING, dtype=np.int64)
        # a judged grade equal to the sentinel (-2**63) is returned as -2**63 + 1: both are
        # negative grades, which every caller treats alike
        found[hit] = np.maximum(self.grades[rows[pos_c[hit]]], MISSING + 1)
        out[ok] = found
        return out

    def restrict(self, query_ids: Sequence[str]) -> Qrels:
        """The judgments of the given queries only (ids absent from the qrels are ignored)."""
        keep = [self.query_index[q] for q in sorted(set(query_ids)) if q in self.query_index]
        rows = (
            np.concatenate([np.arange(self.offsets[i], self.offsets[i + 1]) for i in keep])
            if keep
            else np.zeros(0, dtype=np.int64)
        )
        lens = np.array([self.offsets[i + 1] - self.offsets[i] for i in keep], dtype=np.int64)
        return Qrels(
            query_ids=tuple(self.query_ids[i] for i in keep),
            offsets=np.concatenate([[0], np.cumsum(lens)]).astype(np.int64),
            doc_ids=[self.doc_ids[r] for r in rows.tolist()],
            grades=self.grades[rows],
            source=self.source,
            lines=None if self.lines is None else self.lines[rows],
        )

    @staticmethod
    def from_rows(
        qids: Sequence[str],
        docs: Sequence[str],
        grades: Sequence[int] | np.ndarray,
        *,
        source: str = "<qrels>",
        lines: np.ndarray | None = None,
    ) -> Qrels:
        """Build from parallel columns (no validation: see :mod:`cranfield.io`)."""
        n = len(qids)
        if n >= ARROW_SORT_ROWS:
            return Qrels.from_columns(qids, docs, grades, source=source, lines=lines)
        # by (query, document): documents sorted as strings, then stably by the rank of the
        # query id among the distinct ids (Python compares code points: strcmp order in UTF-8)
        uniq = sorted(set(qids))
        rank = dict(zip(uniq, range(len(uniq)), strict=True))
        qrank = np.fromiter(map(rank.__getitem__, qids), dtype=np.int64, count=n)
        order = np.fromiter(sorted(range(n), key=docs.__getitem__), dtype=np.int64, count=n)
        order = order[np.argsort(qrank[order], kind="stable")]
        offsets = np.zeros(len(uniq) + 1, dtype=np.int64)
        np.cumsum(np.bincount(qrank, minlength=len(uniq)), out=offsets[1:])
        return Qrels(
            query_ids=tuple(uniq),
            offsets=offsets,
            doc_ids=list(map(docs.__getitem__, order.tolist())),
            grades=np.asarray(grades, dtype=np.int64)[order] if n else np.zeros(0, np.int64),
            source=source,
            lines=None if lines is None else np.asarray(lines)[order],
        )

    @staticmethod
    def from_columns(
        qids: Any,
        docs: Any,
        grades: Sequence[int] | np.ndarray,
        *,
        source: str = "<qrels>",
        lines: np.ndarray | None = None,
    ) -> Qrels:
        """Like :meth:`from_rows`, for pyarrow string arrays (or sequences), sorted by Arrow.

        Arrow compares strings byte by byte, which is ``strcmp`` order and, for valid UTF-8,
        the code point order :meth:`from_rows` sorts small inputs in; the sort is stable.
        """
        import pyarrow as pa
        import pyarrow.compute as pc

        q = _string_array(qids)
        d = _string_array(docs)
        n = len(q)
        g = np.asarray(grades, dtype=np.int64)
        if n == 0:
            return Qrels((), np.zeros(1, np.int64), [], g, source=source, lines=lines)
        order = pc.sort_indices(
            pa.table({"q": q, "d": d}), sort_keys=[("q", "ascending"), ("d", "ascending")]
        )
        q, d = q.take(order), d.take(order)
        idx = order.to_numpy()
        changed = pc.not_equal(q.slice(1), q.slice(0, n - 1)).to_numpy(zero_copy_only=False)
        starts = np.concatenate(([0], np.flatnonzero(changed) + 1, [n])).astype(np.int64)
        return Qrels(
            query_ids=tuple(q.take(pa.array(starts[:-1])).to_pylist()),
            offsets=starts,
            doc_ids=d.to_pylist(),
            grades=g[idx],
            source=source,
            lines=None if lines is None else np.asarray(lines)[idx],
        )

    def to_frame(self, *, style: str = "ir_measures") -> Any:
        """A pandas DataFrame, one row per judgment, in this object's (query, document) order.

        Columns ``query_id, doc_id, relevance`` (``style="ir_measures"``) or ``qid, docno,
        label`` (``style="pyterrier"``); ids are strings.  ``cranfield.read_qrels`` reads it back.
        """
        import pandas as pd

        q, d, g = _frame_columns(style, "relevance", "label")
        qids = np.repeat(np.asarray(self.query_ids, dtype=object), np.diff(self.offsets))
        return pd.DataFrame({q: qids, d: list(self.doc_ids), g: self.grades.copy()})

    def to_dict(self) -> dict[str, dict[str, int]]:
        """``{qid: {docno: grade}}``, the nested form pytrec_eval and ranx use."""
        out: dict[str, dict[str, int]] = {}
        g = self.grades.tolist()
        for i, q in enumerate(self.query_ids):
            a, b = int(self.offsets[i]), int(self.offsets[i + 1])
            out[q] = dict(zip(self.doc_ids[a:b], g[a:b], strict=True))
        return out


ARROW_SORT_ROWS = 1_000_000
"""From this many rows on, :meth:`Qrels.from_rows` sorts with Arrow instead of Python (below
it, converting the lists to Arrow, and importing pyarrow, costs more than Python's sort)."""


def _string_array(values: Any) -> Any:
    import pyarrow as pa

    if isinstance(values, pa.ChunkedArray):
        values = values.combine_chunks()
    if not isinstance(values, pa.Array):
        values = pa.array(values, type=pa.string())
    if values.type != pa.string():
        values = values.cast(pa.string())
    return values


def _frame_columns(style: str, ir_measures_value: str, pyterrier_value: str) -> tuple[str, ...]:
    if style == "ir_measures":
        return ("query_id", "doc_id", ir_measures_value)
    if style == "pyterrier":
        return ("qid", "docno", pyterrier_value)
    from .errors import ParameterError

    raise ParameterError(f"unknown frame style {style!r}; choose 'ir_measures' or 'pyterrier'")


MISSING = np.iinfo(np.int64).min
"""Sentinel grade of a (query, doc) pair absent from the qrels, inside :meth:`Qrels.grades_of`."""


@dataclass(frozen=True, eq=False)
class Run:
    """A ranked run: rows of (query, document, score, rank) in file order.

    ``qcodes[i]`` indexes ``query_ids`` (distinct query ids in order of first appearance).
    ``ranks`` holds the rank column when it was readable as integers, else ``None``.
    ``lines`` maps rows to 1-based source lines when they differ from ``row + 1``.
    """

    name: str
    query_ids: tuple[str, ...]
    qcodes: np.ndarray
    docs: IdColumn
    scores: np.ndarray
    ranks: np.ndarray | None = None
    tag: str | None = None
    source: str = "<run>"
    lines: np.ndarray | None = field(default=None, repr=False)
    rank_problem: str | None = field(default=None, repr=False)
    """Why ``ranks`` is None (first bad line), reported if the ``given`` tie policy needs it."""
    line_counts: LineCounts | None = field(default=None, repr=False)
    """How the lines of a text file were used (``None`` for other sources)."""

    def __len__(self) -> int:
        return len(self.qcodes)

    @property
    def num_queries(self) -> int:
        return len(self.query_ids)

    def line_of(self, row: int) -> int:
        """1-based line (or row number for in-memory inputs) of a row."""
        return int(self.lines[row]) if self.lines is not None else row + 1

    def to_frame(self, *, style: str = "ir_measures") -> Any:
        """A pandas DataFrame, one row per result, in file order.

        Columns ``query_id, doc_id, score`` (``style="ir_measures"``) or ``qid, docno, score``
        (``style="pyterrier"``), plus ``rank`` when the rank column was readable; ids are strings.
        ``cranfield.read_run`` reads it back.
        """
        import pandas as pd

        q, d, s = _frame_columns(style, "score", "score")
        qids = np.asarray(self.query_ids, dtype=object)[self.qcodes]
        cols: dict[str, Any] = {q: qids, d: self.docs.to_list(), s: self.scores.copy()}
        if self.ranks is not None:
            cols["rank"] = self.ranks.copy()
        return pd.DataFrame(cols)

    def to_dict(self) -> dict[str, dict[str, float]]:
        """``{qid: {docno: score}}``."""
        out: dict[str, dict[str, float]] = {q: {} for q in self.query_ids}
        docs = self.docs.to_list()
        for q, d, s in zip(self.qcodes.tolist(), docs, self.scores.tolist(), strict=True):
            out[self.query_ids[q]][d] = s
        return out
