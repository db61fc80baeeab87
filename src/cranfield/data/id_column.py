"""Columns of string ids: :class:`IdColumn` (a Python list for small inputs, an Arrow string
array for large ones) and :class:`Vocabulary` (distinct strings prepared for repeated lookups).

Ids are compared, looked up or hashed by vectorised operations; hashes (64-bit, from the
bytes alone: :mod:`cranfield.base.id_hashes`, the same for both backings) are only candidates for
equality and are always confirmed on the strings.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import cached_property
from typing import Any

import numpy as np

from cranfield.base.arrow import arrow_numpy, bool_numpy, numpy_arrow, strings_arrow

__all__ = ["IdColumn", "Vocabulary"]

HASHED_LOOKUP_ROWS = 4096
"""Columns of Python ids from this many rows on are looked up through the hashes (most ids of a
run are not in the qrels: the hashes filter them out without a dictionary lookup each)."""


class IdColumn:
    """A column of string ids backed by a Python list or a pyarrow string array (or rows of
    one: :meth:`view`)."""

    __slots__ = ("_arrow", "_hashes", "_index", "_list")

    def __init__(self, values: Sequence[str] | Any, hashes: np.ndarray | None = None) -> None:
        """``hashes``: the ids' hashes when the reader has them already (:meth:`codes`)."""
        self._hashes: np.ndarray | None = hashes
        self._index: np.ndarray | None = None  # a view's rows of the Arrow array
        # exactly one of the two backings is set: a list, or a pyarrow (Large)StringArray
        # (Any: pyarrow ships no type stubs)
        self._arrow: Any
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
        if self._index is not None:
            return len(self._index)
        return len(self._list) if self._list is not None else len(self._arrow)

    def view(self, rows: np.ndarray) -> IdColumn:
        """The ids at ``rows`` (int64 positions), not gathered until asked for (Arrow): a
        view keeps the array and the positions, and takes the hashes along if they were
        computed."""
        if self._list is not None:
            out = IdColumn(self.take(rows))
        else:
            out = IdColumn.__new__(IdColumn)
            out._list, out._arrow = None, self._arrow
            out._index = rows if self._index is None else self._index[rows]
        out._hashes = None
        if self._hashes is not None:
            out._hashes = self._hashes[rows]
            out._hashes.flags.writeable = False
        return out

    def _rows(self, rows: np.ndarray | Sequence[int]) -> Any:
        """Positions in the Arrow array of the given rows (an Arrow array)."""
        if self._index is None:
            return numpy_arrow(rows)
        return numpy_arrow(self._index[np.asarray(rows, dtype=np.int64)])

    @property
    def is_arrow(self) -> bool:
        return self._arrow is not None

    def take(self, rows: np.ndarray | Sequence[int]) -> list[str]:
        """The ids at the given row positions, as Python strings."""
        if self._list is not None:
            lst = self._list
            return [lst[i] for i in np.asarray(rows, dtype=np.int64).tolist()]

        ids: list[str] = self._arrow.take(self._rows(rows)).to_pylist()  # (Arrow: untyped)
        return ids

    def slice(self, start: int, stop: int) -> IdColumn:
        """Rows ``start:stop`` (zero-copy for Arrow)."""
        if self._list is not None:
            out = IdColumn(self._list[start:stop])
        elif self._index is not None:
            return self.view(np.arange(start, stop, dtype=np.int64))
        else:
            out = IdColumn(self._arrow.slice(start, stop - start))
        if self._hashes is not None:
            out._hashes = self._hashes[start:stop]
        return out

    def arrow(self, rows: np.ndarray | Sequence[int] | None = None) -> Any:
        """The ids (at the given row positions) as a pyarrow string array."""

        if self._list is not None:  # (then there is no Arrow array)
            return strings_arrow(self._list if rows is None else self.take(rows))
        if rows is None:
            if self._index is not None:
                return self._arrow.take(numpy_arrow(self._index))
            return self._arrow
        return self._arrow.take(self._rows(rows))

    def to_list(self) -> list[str]:
        return list(self._list) if self._list is not None else self.arrow().to_pylist()

    def lookup(self, vocabulary: Sequence[str] | Vocabulary) -> np.ndarray:
        """Position of each id in ``vocabulary`` (distinct strings), -1 where absent.

        Pass a :class:`Vocabulary` to look up several columns in the same strings (it keeps
        the hashes and the dictionary it builds).
        """
        if not isinstance(vocabulary, Vocabulary):
            vocabulary = Vocabulary(vocabulary)
        if self._list is not None and len(self) < HASHED_LOOKUP_ROWS:
            found = map(vocabulary.index.get, self._list, itertools.repeat(-1))
            return np.fromiter(found, dtype=np.int64, count=len(self))
        return vocabulary.find_hashed(self)

    def codes(self) -> np.ndarray:
        """The ids' 64-bit hashes (:mod:`cranfield.base.id_hashes`), as int64: ``a == b`` implies
        ``key(a) == key(b)``, so equal keys are only candidates for equality, which callers
        confirm with :meth:`take`.  The same for both backings; computed once (duplicate
        checks and lookups share them), or given by the reader."""
        if self._hashes is None:
            from cranfield.base.id_hashes import hash_strings

            self._hashes = (
                hash_strings(self._list) if self._list is not None else _hash_arrow(self.arrow())
            )
        self._hashes.flags.writeable = False
        return self._hashes


class Vocabulary:
    """Distinct strings prepared for repeated lookups (``IdColumn.lookup``).

    A dictionary (short columns of Python ids are looked up in it), and the strings' 64-bit
    hashes (the ones :meth:`IdColumn.codes` gives), sorted, with a direct-mapped table of
    them: a column's hashes are filtered through the table, matched by binary search, and
    confirmed on the strings, so that nothing is rebuilt per column.  Built lazily, once.
    """

    def __init__(self, values: Sequence[str]) -> None:
        self.values = list(values)

    def __len__(self) -> int:
        return len(self.values)

    @cached_property
    def index(self) -> dict[str, int]:
        return dict(zip(self.values, range(len(self.values)), strict=True))

    @cached_property
    def _arrow(self) -> Any:
        return strings_arrow(self.values)

    @cached_property
    def _hashes(self) -> np.ndarray:
        if "_arrow" in self.__dict__:  # the Arrow strings are made: hash their buffers
            return _hash_arrow(self._arrow).view(np.uint64)
        from cranfield.base.id_hashes import hash_strings

        return hash_strings(self.values).view(np.uint64)

    @cached_property
    def _table(self) -> tuple[np.ndarray, np.uint64]:
        """(filter table, mask): ``table[hash & mask]`` is False for every hash of no string
        here (a direct-mapped table of about 32 slots per string)."""
        h = self._hashes
        size = 1 << max(16, min(24, (32 * max(len(h), 1) - 1).bit_length()))
        table = np.zeros(size, dtype=bool)
        table[h & np.uint64(size - 1)] = True
        return table, np.uint64(size - 1)

    @cached_property
    def _hashed(self) -> tuple[np.ndarray, np.ndarray] | None:
        """(sorted hashes, their positions); None if two strings share a hash (then Arrow
        columns are looked up by Arrow's exact ``index_in``)."""
        h = self._hashes
        order = np.argsort(h, kind="stable")
        sorted_h = h[order]
        if len(sorted_h) > 1 and (sorted_h[1:] == sorted_h[:-1]).any():
            return None
        return sorted_h, order

    def find_hashed(self, column: IdColumn) -> np.ndarray:
        """Positions of a column's ids (-1 where absent), through the hashes: those that
        pass the filter table are looked up in the dictionary (Python ids), or matched by
        binary search and confirmed on the strings (Arrow ids)."""
        out = np.full(len(column), -1, dtype=np.int64)
        if not self.values or not len(column):
            return out
        if column.is_arrow:
            self._arrow  # noqa: B018 - the strings the candidates are confirmed on, hashed once
        table, mask = self._table
        h = column.codes().view(np.uint64)
        cand = np.flatnonzero(table[h & mask])  # equal strings, equal hashes
        if len(cand) == 0:
            return out
        if not column.is_arrow:  # the dictionary is exact
            found = map(self.index.get, column.take(cand), itertools.repeat(-1))
            out[cand] = np.fromiter(found, dtype=np.int64, count=len(cand))
            return out
        import pyarrow.compute as pc

        prepared = self._hashed
        if prepared is None:  # a hash collision inside the vocabulary: exact and slower
            found = pc.index_in(column.arrow(), value_set=self._arrow)
            return arrow_numpy(found, np.int32, fill=-1).astype(np.int64)
        sorted_h, order = prepared
        hc = h[cand]
        pos = np.minimum(np.searchsorted(sorted_h, hc), len(sorted_h) - 1)
        hit = sorted_h[pos] == hc
        cand, where = cand[hit], order[pos[hit]]
        if len(cand) == 0:
            return out
        ok = bool_numpy(pc.equal(column.arrow(cand), self._arrow.take(numpy_arrow(where))))
        out[cand[ok]] = where[ok]
        return out


def _hash_arrow(arr: Any) -> np.ndarray:
    """64-bit hashes of an Arrow string array, as int64
    (:func:`cranfield.base.id_hashes.hash_arrow`).

    The hash depends only on each string's bytes, so hashes of two columns are comparable.
    """
    from cranfield.base.id_hashes import hash_arrow

    return hash_arrow(arr)
