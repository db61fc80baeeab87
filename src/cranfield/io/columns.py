"""Columns of tabular inputs: which column is which, and the typing rules every table follows.

A table (pandas or polars DataFrame, pyarrow Table, JSON lines, JSON records, Parquet) has one
column per *role*; each role accepts the names ir_measures, PyTerrier and ranx users have:

- query: ``query_id``, ``qid`` or ``q_id``; strings, or integers (become decimal text), then
  checked by the id rule of :mod:`cranfield.io.ids` (not empty, no whitespace or control
  character)
- doc: ``doc_id`` or ``docno``; the same
- grade: ``relevance`` or ``label`` (or ``score`` in a table with ranx's ``q_id``, as
  ``ranx.Qrels.to_dataframe()`` writes it); integers in int64 (booleans and numbers of
  integral value too: ``2.0``, ``Fraction(4, 2)``, ``Decimal("2")``)
- score: ``score``; finite real numbers a double can hold (stored as the nearest double)
- rank (optional): ``rank``; integers, the order of the ``given`` tie policy
- tag (optional): ``run`` or ``name``; one value, the run's tag (and default name)

Arrow arrays are checked as whole columns (numpy over the values); Python values (JSON, dicts,
object columns) one by one by the ``py_*`` rules of :mod:`cranfield.io.python_values`, which
accept the same values.  Other columns
are ignored.  Every problem is an :class:`InputError` naming the source and the line (JSON
lines), the 0-based row (tables, Parquet), the item (a JSON list) or the keys (dicts).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from cranfield.errors import InputError
from cranfield.io.column_names import DOC_NAMES, QUERY_NAMES
from cranfield.io.ids import bad_id_in_arrow, id_message, id_problem
from cranfield.io.python_values import py_grades, py_scores
from cranfield.io.python_values import show as show  # re-exported: its path before
from cranfield.io.validate import located

__all__ = ["QRELS_ROLES", "RUN_ROLES", "Role", "Where", "resolve"]  # and the converters


@dataclass(frozen=True)
class Role:
    key: str
    names: tuple[str, ...]
    what: str
    required: bool = True
    fallback: tuple[str, str] | None = None
    """``(column, marker)``: the role's column when none of ``names`` is present and the
    ``marker`` column is (ranx's qrels tables keep their grades in ``score``, next to
    ``q_id``)."""


QUERY = Role("query", QUERY_NAMES, "query ids")
DOC = Role("doc", DOC_NAMES, "document ids")
GRADE = Role("grade", ("relevance", "label"), "relevance grades", fallback=("score", "q_id"))
SCORE = Role("score", ("score",), "scores")
RANK = Role("rank", ("rank",), "ranks", required=False)
TAG = Role("tag", ("run", "name"), "the run tag", required=False)
QRELS_ROLES = (QUERY, DOC, GRADE)
RUN_ROLES = (QUERY, DOC, SCORE, RANK, TAG)

_HINTS = {  # role key -> {column present: hint}
    "query": {"query": "'query' is PyTerrier's query text; the evaluation needs 'qid'"},
    "doc": {
        "docid": "'docid' is PyTerrier's internal integer id; the evaluation needs 'docno'",
        "doc": "rename 'doc' to 'doc_id' or 'docno'",
    },
}


@dataclass(frozen=True)
class Where:
    """How to name a row in messages: 1-based lines (``lines[row]`` or ``row + 1``) or 0-based
    rows/items."""

    source: str
    unit: str = "row"
    lines: np.ndarray | None = None
    describe: Callable[[int], str] | None = None
    """Names a row in words instead (``query 'q1', document 'd3'`` for nested mappings)."""

    def at(self, row: int) -> int:
        if self.unit != "line":
            return row
        return int(self.lines[row]) if self.lines is not None else row + 1

    def label(self, row: int) -> str:
        return self.describe(row) if self.describe else f"{self.unit} {self.at(row)}"

    def error(self, row: int, problem: str) -> InputError:
        if self.describe is not None:
            return InputError(self.source, f"{self.describe(row)}: {problem}")
        return located(self.source, problem, self.at(row), self.unit)

    def column_error(self, column: str, problem: str) -> InputError:
        return InputError(self.source, f"column {column!r}: {problem}")


def resolve(
    names: Sequence[Any], roles: Sequence[Role], source: str, index_names: Sequence[Any] = ()
) -> dict[str, str]:
    """Map each role to the column holding it (``{role key: column name}``)."""
    present = [str(n) for n in names]
    out: dict[str, str] = {}
    for role in roles:
        found = [n for n in role.names if n in present]
        if len(found) > 1:
            raise InputError(
                source,
                f"both {found[0]!r} and {found[1]!r} are present as {role.what}; keep one",
            )
        if not found and role.fallback and all(c in present for c in role.fallback):
            found = [role.fallback[0]]
        if found:
            if present.count(found[0]) > 1:
                raise InputError(source, f"column {found[0]!r} appears more than once")
            out[role.key] = found[0]
            continue
        if not role.required:
            continue
        expected = " or ".join(repr(n) for n in role.names)
        hint = ""
        in_index = [n for n in role.names if n in [str(i) for i in index_names]]
        if in_index:
            hint = f" ({in_index[0]!r} is the index: call reset_index() first)"
        else:
            role_hints = _HINTS.get(role.key, {})
            hints = [role_hints[n] for n in present if n in role_hints]
            if hints:
                hint = f" ({hints[0]})"
        columns = ", ".join(repr(n) for n in present) or "none"
        raise InputError(
            source, f"no column with {role.what}: expected {expected}; columns: {columns}{hint}"
        )
    return out


# ------------------------------------------------------------------ Arrow arrays -> values


def _plain(arr: Any) -> Any:
    """One contiguous, non-dictionary Arrow array."""
    import pyarrow as pa

    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks() if arr.num_chunks != 1 else arr.chunk(0)
    if pa.types.is_dictionary(arr.type):
        arr = arr.dictionary_decode()
    return arr


def _first_null(arr: Any) -> int | None:
    if arr.null_count == 0:
        return None
    return int(np.argmax(arr.is_null().to_numpy(zero_copy_only=False)))


def _kind(t: Any) -> str:
    import pyarrow as pa

    if pa.types.is_boolean(t):
        return "booleans"
    if pa.types.is_floating(t):
        return "floating-point numbers"
    if pa.types.is_integer(t):
        return "integers"
    if _is_string(t):
        return "strings"
    if pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_fixed_size_binary(t):
        return "bytes (decode them to strings first)"
    return f"values of type {t}"


def _is_string(t: Any) -> bool:
    import pyarrow as pa

    return pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t)


def _missing(arr: Any, where: Where, what: str, column: str) -> None:
    row = _first_null(arr)
    if row is not None:
        raise where.error(row, f"missing {what} (column {column!r} is null)")


def ids(arr: Any, column: str, role: Role, where: Where) -> Any:
    """A ``pa.string()`` array of valid ids (:mod:`cranfield.io.ids`): strings as they are,
    integers as decimal text."""
    import pyarrow as pa

    arr = _plain(arr)
    t = arr.type
    what = role.what[:-1]
    if pa.types.is_null(t):
        _missing(arr, where, what, column)
    if not (_is_string(t) or pa.types.is_integer(t)):
        fix = " (convert them with astype(int) or astype(str))" if pa.types.is_floating(t) else ""
        raise where.column_error(
            column, f"{role.what} must be strings or integers, not {_kind(t)}{fix}"
        )
    _missing(arr, where, what, column)
    if t != pa.string():
        try:
            arr = arr.cast(pa.string())
        except pa.ArrowException as exc:  # more than 2 GiB of ids
            raise where.column_error(column, f"cannot read the {role.what}: {exc}") from None
    row = bad_id_in_arrow(arr)
    if row is not None:
        value = arr[row].as_py()
        raise where.error(row, id_message(what, value, f" (column {column!r})"))
    return arr


def grades(arr: Any, column: str, where: Where) -> np.ndarray:
    """int64 grades from integer, boolean, integral floating-point or decimal columns."""
    import pyarrow as pa

    arr = _plain(arr)
    t = arr.type
    _missing(arr, where, "relevance grade", column)
    if pa.types.is_boolean(t):
        return arr.to_numpy(zero_copy_only=False).astype(np.int64)
    if pa.types.is_integer(t):
        values = arr.to_numpy(zero_copy_only=False)
        if values.dtype == np.uint64 and (values > np.iinfo(np.int64).max).any():
            row = int(np.argmax(values > np.iinfo(np.int64).max))
            raise where.error(
                row, f"grade {int(values[row])} is out of range (grades are 64-bit integers)"
            )
        return values.astype(np.int64)
    if pa.types.is_floating(t):
        values = arr.to_numpy(zero_copy_only=False).astype(np.float64)
        with np.errstate(invalid="ignore"):
            bad = ~np.isfinite(values) | (values != np.floor(values)) | (np.abs(values) >= 2.0**63)
        if bad.any():
            row = int(np.argmax(bad))
            v = float(values[row])
            if np.isfinite(v) and v == np.floor(v):
                raise where.error(row, f"grade {v!r} is out of range (grades are 64-bit integers)")
            raise where.error(row, f"grade {v!r} is not an integer")
        return values.astype(np.int64)
    if pa.types.is_decimal(t):  # rare: checked value by value
        return np.asarray(py_grades(arr.to_pylist(), where), dtype=np.int64)
    raise where.column_error(column, f"relevance grades must be integers, not {_kind(t)}")


def scores(arr: Any, column: str, where: Where) -> np.ndarray:
    """float64 scores from any numeric column, each the double nearest its value (finiteness
    is checked on the run; decimal columns are converted value by value, exactly)."""
    import pyarrow as pa

    arr = _plain(arr)
    t = arr.type
    _missing(arr, where, "score", column)
    if not (pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_decimal(t)):
        raise where.column_error(column, f"scores must be numbers, not {_kind(t)}")
    if pa.types.is_decimal(t):  # Arrow's cast is not correctly rounded; float(Decimal) is
        return np.asarray(py_scores(arr.to_pylist(), where), dtype=np.float64)
    # unsafe: integers beyond 2**53 round to the nearest double, as float() does
    return arr.cast(pa.float64(), safe=False).to_numpy(zero_copy_only=False)


def ranks(arr: Any, column: str, where: Where) -> tuple[np.ndarray | None, str | None]:
    """``(int64 ranks, None)``, or ``(None, why)`` if the ``given`` policy cannot use them."""
    import pyarrow as pa

    arr = _plain(arr)
    t = arr.type
    row = _first_null(arr)
    if row is not None:
        return None, f"{where.label(row)}: rank is missing"
    if pa.types.is_integer(t):
        values = arr.to_numpy(zero_copy_only=False)
        if values.dtype == np.uint64 and (values > np.iinfo(np.int64).max).any():
            row = int(np.argmax(values > np.iinfo(np.int64).max))
            return None, f"{where.label(row)}: rank {int(values[row])} is out of range"
        return values.astype(np.int64), None
    if pa.types.is_floating(t):
        values = arr.to_numpy(zero_copy_only=False).astype(np.float64)
        with np.errstate(invalid="ignore"):
            bad = ~np.isfinite(values) | (values != np.floor(values)) | (np.abs(values) >= 2.0**63)
        if bad.any():
            row = int(np.argmax(bad))
            return None, f"{where.label(row)}: rank {float(values[row])!r} is not an integer"
        return values.astype(np.int64), None
    return None, f"column {column!r} holds {_kind(t)}, not integer ranks"


def tag(arr: Any, column: str, where: Where) -> str | None:
    """The one value of the tag column (a table holding several runs is an error)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    try:
        values = pc.unique(_plain(arr)).to_pylist()
    except pa.ArrowException:
        raise where.column_error(
            column, f"run tags must be strings, not {_kind(arr.type)}"
        ) from None
    if len(values) > 1:
        shown = ", ".join(show(v) for v in values[:3]) + (", ..." if len(values) > 3 else "")
        raise where.column_error(
            column,
            f"the table holds {len(values)} runs ({shown}); pass one run at a time, "
            f"for example df[df[{column!r}] == {values[0]!r}]",
        )
    if values[0] is None:
        return None
    text = str(values[0])
    problem = id_problem(text)
    if problem is not None:  # the tag is a field of TREC lines too
        raise where.column_error(column, id_message("run tag", text))
    return text
