"""Tables: pandas and polars DataFrames, pyarrow Tables, JSON lines, JSON and Parquet files.

Every table goes through the same column rules (:mod:`cranfield.io.columns`) and the same
checks as TREC text (:mod:`cranfield.io.validate`).  Large tables stay columnar: Arrow arrays
become the run's :class:`~cranfield.data.tables.IdColumn` and numpy arrays, with no per-row Python.

The ``given`` order of a table is its ``rank`` column when present (ascending, ties in row
order), else its row order.
"""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path
from typing import Any

import numpy as np

from cranfield.data.id_column import IdColumn
from cranfield.data.tables import LineCounts, Qrels, Run
from cranfield.errors import InputError
from cranfield.io import columns as C
from cranfield.io.columns import QRELS_ROLES, RUN_ROLES, Where
from cranfield.io.number_text import JsonNumber
from cranfield.io.validate import check_qrels_duplicates, check_run_duplicates, check_scores

__all__ = ["qrels_from_frame", "read_qrels_file", "read_run_file", "run_from_frame"]

LIST_IDS_ROWS = 100_000
"""Runs with fewer rows keep document ids in a Python list (cheaper for small inputs)."""

PARQUET_SUFFIXES = (".parquet", ".pq")
JSONL_SUFFIXES = (".jsonl", ".ndjson")


# ------------------------------------------------------------------------- entry points


def qrels_from_frame(frame: Any, source: str | None = None) -> Qrels:
    """Qrels from a pandas/polars DataFrame or a pyarrow Table (columns: docs/input.md)."""
    source = source or _frame_source(frame)
    cols = _frame_columns(frame, QRELS_ROLES, source)
    return _qrels(cols, Where(source, "row"), "the DataFrame has no rows")


def run_from_frame(frame: Any, name: str | None = None, source: str | None = None) -> Run:
    """A run from a pandas/polars DataFrame or a pyarrow Table; ``name`` defaults to the
    value of its ``run``/``name`` column, else ``"run"``."""
    source = source or _frame_source(frame)
    cols = _frame_columns(frame, RUN_ROLES, source)
    return _run(cols, Where(source, "row"), name, "the DataFrame has no rows")


def read_qrels_file(path: str | os.PathLike[str]) -> Qrels:
    """Qrels from a ``.jsonl``/``.ndjson``, ``.json`` or ``.parquet`` file (compressed too)."""
    kind, source = _kind(path), str(path)
    if kind == "parquet":
        cols = _parquet_columns(path, QRELS_ROLES)
        return _qrels(cols, Where(source, "row"), "the file has no rows")
    if kind == "jsonl":
        return _jsonl(path, QRELS_ROLES, lambda cols, where: _qrels(cols, where, ""))
    obj = _load_json(path)
    if isinstance(obj, dict):
        from cranfield.io.mapping import qrels_from_mapping

        _refuse_column_orient(obj, source)
        return qrels_from_mapping(obj, source)
    cols, where = _records(obj, QRELS_ROLES, source)
    return _qrels(cols, where, "the list is empty")


def read_run_file(path: str | os.PathLike[str], name: str | None = None) -> Run:
    """A run from a ``.jsonl``/``.ndjson``, ``.json`` or ``.parquet`` file (compressed too);
    ``name`` defaults to the file name."""
    kind, source = _kind(path), str(path)
    name = name or Path(path).name
    if kind == "parquet":
        cols = _parquet_columns(path, RUN_ROLES)
        return _run(cols, Where(source, "row"), name, "the file has no rows")
    if kind == "jsonl":
        return _jsonl(path, RUN_ROLES, lambda cols, where: _run(cols, where, name, ""))
    obj = _load_json(path)
    if isinstance(obj, dict):
        from cranfield.io.mapping import run_from_mapping

        _refuse_column_orient(obj, source)
        return run_from_mapping(obj, source, name=name)
    cols, where = _records(obj, RUN_ROLES, source)
    return _run(cols, where, name, "the list is empty")


# --------------------------------------------------------------- columns -> Qrels / Run


def _qrels(cols: dict[str, tuple[str, Any]], where: Where, empty: str) -> Qrels:
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


def _run(cols: dict[str, tuple[str, Any]], where: Where, name: str | None, empty: str) -> Run:
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
        ranks, rank_problem = _row_order_ranks(qcodes), None
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


def _row_order_ranks(qcodes: np.ndarray) -> np.ndarray:
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


# ---------------------------------------------------------------------------- DataFrames


def _frame_source(frame: Any) -> str:
    mod = type(frame).__module__
    return "<Table>" if mod.startswith("pyarrow") else "<DataFrame>"


def _frame_columns(frame: Any, roles, source: str) -> dict[str, tuple[str, Any]]:
    """``{role: (column name, Arrow array)}`` of a pandas/polars DataFrame or Arrow table."""
    mod = type(frame).__module__
    if mod.startswith("pandas"):
        import pandas as pd

        if not isinstance(frame, pd.DataFrame):
            raise InputError(source, f"expected a DataFrame, got a pandas {type(frame).__name__}")
        found = C.resolve(list(frame.columns), roles, source, list(frame.index.names))
        names = {str(c): c for c in frame.columns}  # resolve() compares the names as text
        return {
            role: (col, _pandas_array(frame[names[col]], role, source))
            for role, col in found.items()
        }
    if mod.startswith("polars"):
        import polars as pl

        if isinstance(frame, pl.LazyFrame):
            found = C.resolve(frame.collect_schema().names(), roles, source)
            try:
                frame = frame.select(list(found.values())).collect()
            except Exception as exc:  # the user's query failed (polars' own exception types)
                why = " ".join(str(exc).split())  # one line
                raise InputError(source, f"cannot collect the LazyFrame: {why}") from None
        elif isinstance(frame, pl.DataFrame):
            found = C.resolve(frame.columns, roles, source)
        else:
            raise InputError(source, f"expected a DataFrame, got a polars {type(frame).__name__}")
        return {
            role: (col, _polars_array(frame.get_column(col), role, source))
            for role, col in found.items()
        }
    import pyarrow as pa

    if isinstance(frame, pa.RecordBatch):
        frame = pa.Table.from_batches([frame])
    if not isinstance(frame, pa.Table):
        raise InputError(source, f"expected a Table, got a pyarrow {type(frame).__name__}")
    found = C.resolve(frame.column_names, roles, source)
    return {role: (col, frame.column(col)) for role, col in found.items()}


_ARROW_INFERS = ("string", "integer")
"""Object columns pandas infers as one of these go to Arrow whole; Arrow would coerce the
others (``[3.0, True]`` becomes ``[3.0, 1.0]``, a float128 ``1e400`` becomes infinite), so
they are checked value by value."""


def _pandas_array(series: Any, role: str, source: str) -> Any:
    """An Arrow array of a pandas column.  Columns Arrow cannot take as a whole, or would
    coerce (object columns mixing types, Python ints beyond 64 bits, Fractions, Decimals,
    float128...), are converted element-wise by the Python rules (errors name the row);
    complex columns are refused."""
    import pandas as pd
    import pyarrow as pa

    dtype = series.dtype
    if isinstance(dtype, pd.SparseDtype):
        series = series.sparse.to_dense()
        dtype = series.dtype
    if isinstance(dtype, pd.CategoricalDtype) and dtype.categories.dtype == object:
        series = series.astype(object)
        dtype = series.dtype
    if isinstance(dtype, np.dtype):
        if dtype.kind == "c":
            what = {r.key: r.what for r in (*C.QRELS_ROLES, *C.RUN_ROLES)}[role]
            raise Where(source).column_error(
                series.name, f"{what} cannot be complex numbers (column of {dtype})"
            )
        if dtype.kind == "f" and dtype.itemsize <= 8:
            return pa.array(series.to_numpy(), from_pandas=False)  # keep NaN a NaN
        if dtype.kind == "f":  # float128: Arrow has no such type
            return _python_array(list(series.to_numpy()), role, Where(source, "row"))
        inferred = pd.api.types.infer_dtype(series, skipna=True) if dtype.kind == "O" else None
        if inferred is not None and inferred not in _ARROW_INFERS:
            return _python_array(series.tolist(), role, Where(source, "row"))
    try:
        return pa.array(series, from_pandas=True)
    except Exception:  # Arrow's, or whatever a value's __float__ raises
        pass
    return _python_array(series.tolist(), role, Where(source, "row"))


def _polars_array(series: Any, role: str, source: str) -> Any:
    """An Arrow array of a polars column; columns Arrow cannot take (polars ``Object``) are
    converted element-wise by the Python rules."""
    import polars as pl

    if series.dtype != pl.Object:
        try:
            return series.to_arrow()
        except Exception:  # polars' own exception types
            pass
    return _python_array(series.to_list(), role, Where(source, "row"))


def _python_array(values: list[Any], role: str, where: Where) -> Any:
    """Arrow array of Python values validated element-wise by the role's rules."""
    import pyarrow as pa

    if role in ("query", "doc"):
        return pa.array(C.py_ids(values, C.QUERY if role == "query" else C.DOC, where))
    if role == "grade":
        return pa.array(C.py_grades(values, where), type=pa.int64())
    if role == "score":
        return pa.array(C.py_scores(values, where), type=pa.float64())
    if role == "rank":
        ranks, problem = C.py_ranks(values, where)
        return RankProblem(problem) if ranks is None else pa.array(ranks, type=pa.int64())
    tags = [None if v is None else v if isinstance(v, str) else C.show(v) for v in values]
    return pa.array(tags, type=pa.string())


# ----------------------------------------------------------------------------------- files


COMPRESSED_SUFFIXES = (".gz", ".bz2", ".xz", ".zst")


def _kind(path: str | os.PathLike[str]) -> str:
    suffixes = [s.lower() for s in Path(path).suffixes]
    if suffixes and suffixes[-1] in COMPRESSED_SUFFIXES:
        suffixes = suffixes[:-1]
    last = suffixes[-1] if suffixes else ""
    if last in PARQUET_SUFFIXES:
        return "parquet"
    if last in JSONL_SUFFIXES:
        return "jsonl"
    return "json"


def json_text(path: str | os.PathLike[str], *, lines: bool) -> bytes:
    """The checked text of a JSON (``lines=False``) or JSON lines file (a leading byte order
    mark dropped): UTF-8, lines ending as in every text, nesting bounded
    (:mod:`.json_depth`), all before any parser sees it."""
    from cranfield.io.json_depth import check_depth
    from cranfield.io.textcheck import BOM, line_ends
    from cranfield.io.trec.text import read_text

    source = str(path)
    data = read_text(path)
    if data.startswith(BOM):
        data = data[len(BOM) :]
    if not data or data.isspace():
        raise InputError(source, "file is empty")
    line_ends(data, source)
    check_depth(data, source, lines=lines)
    return data


class _ParquetMagic:
    """Refuses a file that does not start with Parquet's magic number on its first bytes."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.head = b""

    def feed(self, chunk: bytes) -> None:
        if len(self.head) < 4:
            self.head += chunk[: 4 - len(self.head)]
            if len(self.head) == 4 and self.head != b"PAR1":
                self._refuse()

    def close(self) -> None:
        if not self.head:
            raise InputError(self.source, "file is empty")
        if len(self.head) < 4:
            self._refuse()

    def _refuse(self) -> None:
        raise InputError(self.source, "not a readable Parquet file (it does not start with 'PAR1')")


def _parquet_columns(path: str | os.PathLike[str], roles) -> dict[str, tuple[str, Any]]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    from cranfield.io.source import read_source

    source = str(path)
    data = read_source(path, lambda: _ParquetMagic(source))
    try:
        pf = pq.ParquetFile(pa.BufferReader(data))
        found = C.resolve(pf.schema_arrow.names, roles, source)
        table = pf.read(columns=list(dict.fromkeys(found.values())))
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, OSError) as exc:
        raise InputError(source, f"not a readable Parquet file ({exc})") from None
    return {role: (col, table.column(col)) for role, col in found.items()}


class _DuplicateKey(Exception):
    """A JSON object has a key twice (raised inside the decoder, turned into an InputError)."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``object_pairs_hook`` of every JSON read: a key given twice is an error (the decoder
    would silently keep the last value)."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        raise _DuplicateKey
    return obj


def _duplicate_key_error(text: str, source: str, line: int = 1, lead: int = 0) -> InputError:
    """The error for the first repeated key of ``text`` (which holds one), at its position;
    ``line`` is the line ``text`` starts on, after ``lead`` characters of whitespace.  Found
    again by the pure-Python decoder, whose object parser is replaced by one that knows where
    each key is."""
    from json import decoder, scanner

    ws = decoder.WHITESPACE.match

    def parse_object(s_and_end, strict, scan_once, object_hook, object_pairs_hook, memo=None):
        s, end = s_and_end
        obj: dict[str, Any] = {}
        end = ws(s, end).end()
        if s[end : end + 1] == "}":
            return obj, end + 1
        while True:
            if s[end : end + 1] != '"':
                raise ValueError("expected a key")
            key, after = decoder.scanstring(s, end + 1, strict)
            if key in obj:
                raise _KeyAt(key, end)
            after = ws(s, after).end()
            if s[after : after + 1] != ":":
                raise ValueError("expected ':'")
            obj[key], end = scan_once(s, ws(s, after + 1).end())
            end = ws(s, end).end()
            sep = s[end : end + 1]
            end = ws(s, end + 1).end()
            if sep == "}":
                return obj, end
            if sep != ",":
                raise ValueError("expected ',' or '}'")

    dec = json.JSONDecoder()
    dec.parse_object = parse_object
    dec.scan_once = scanner.py_make_scanner(dec)
    try:
        dec.decode(text)
    except _KeyAt as dup:
        at = line + text.count("\n", 0, dup.pos)
        col = dup.pos - (text.rfind("\n", 0, dup.pos) + 1) + 1 + lead
        return InputError(
            source,
            f"key {dup.key!r} appears twice in one JSON object (the second at column {col}); "
            "a JSON object cannot hold the same key twice",
            line=at,
        )
    except (ValueError, StopIteration, RecursionError):  # pragma: no cover - not reached
        pass
    return InputError(source, "a key appears twice in one JSON object", line=line)


class _KeyAt(Exception):
    def __init__(self, key: str, pos: int) -> None:
        self.key, self.pos = key, pos


_JSON_NUMBERS = {
    "object_pairs_hook": _unique_keys,
    "parse_int": JsonNumber,
    "parse_float": JsonNumber,
}
"""Every JSON read: a key given twice is an error, and numbers keep their text, for the rules
of :mod:`cranfield.io.number_text` (``0.99999999999999999`` is not the grade 1)."""


def _load_json(path: str | os.PathLike[str]) -> Any:
    source = str(path)
    data = json_text(path, lines=False)
    try:
        return json.loads(data, **_JSON_NUMBERS)
    except json.JSONDecodeError as exc:
        raise InputError(
            source, f"invalid JSON at column {exc.colno}: {exc.msg}", line=exc.lineno
        ) from None
    except _DuplicateKey:
        raise _duplicate_key_error(data.decode("utf-8"), source) from None
    except RecursionError:
        raise InputError(source, "invalid JSON: nested too deeply") from None
    except ValueError as exc:  # e.g. an integer of more than 4300 digits
        raise InputError(source, f"invalid JSON: {exc}") from None


def _refuse_column_orient(obj: dict, source: str) -> None:
    """``df.to_json()`` (pandas' default 'columns' orient) looks like a nested mapping."""
    keys = set(obj)
    if keys & set(C.QUERY.names) and keys & set(C.DOC.names):
        raise InputError(
            source,
            "this looks like a table written column by column (pandas' to_json() default); "
            "write one object per row instead: df.to_json(path, orient='records') or "
            "df.to_json(path, orient='records', lines=True) for JSON lines",
        )


def _records(obj: Any, roles, source: str) -> tuple[dict[str, tuple[str, Any]], Where]:
    """Columns of a JSON list of objects (items counted from 0)."""
    where = Where(source, "item")
    if not isinstance(obj, list):
        raise InputError(
            source,
            "expected a JSON object {query: {document: value}} or a list of objects, "
            f"got a JSON {_json_type(obj)}",
        )
    if not obj:
        raise InputError(source, "no data (the JSON list is empty)")
    return _objects_to_columns(obj, range(len(obj)), roles, where), where


def _objects_to_columns(objs, positions, roles, where: Where) -> dict[str, tuple[str, Any]]:
    found: dict[str, str] | None = None
    values: dict[str, list[Any]] = {}
    for i, obj in zip(positions, objs, strict=True):
        if not isinstance(obj, dict):
            raise where.error(i, f"expected a JSON object, got a JSON {_json_type(obj)}")
        if found is None:
            found = C.resolve(list(obj), roles, where.source)
            values = {role: [] for role in found}
        for role, key in found.items():
            if key not in obj:
                raise where.error(i, f"missing key {key!r}")
            values[role].append(obj[key])
    assert found is not None
    return {role: (key, _python_array(values[role], role, where)) for role, key in found.items()}


def _json_type(obj: Any) -> str:
    return {dict: "object", list: "array", str: "string", bool: "boolean", type(None): "null"}.get(
        type(obj), "number"
    )


def _jsonl(path, roles, build):
    """JSON lines: Arrow's reader when every line is one object, else line by line."""
    source = str(path)
    data = json_text(path, lines=True)
    cols = _jsonl_arrow(data, roles, source)
    if cols is not None:
        try:
            result = build(cols, Where(source, "line"))
        except InputError:
            result = None  # let the exact reader name the line and the problem
        if result is not None and getattr(result, "rank_problem", None) is None:
            n = len(result)
            return dataclasses.replace(result, line_counts=LineCounts(lines=n, data=n))
    cols, where, counts = _jsonl_python(data, roles, source)
    return dataclasses.replace(build(cols, where), line_counts=counts)


def _jsonl_arrow(data: bytes, roles, source: str) -> dict[str, tuple[str, Any]] | None:
    """Columns read by Arrow when row ``i`` is surely line ``i + 1``, else ``None``.

    Arrow is given the schema of the first line (:func:`_first_line_schema`), and any other
    key is an error: left to infer, it made a column of every key of any line, so lines with
    keys of their own cost rows x keys (8,000 such lines, 400 KB, took 1 GB); a key given
    twice, a value of another type or a key the first line lacks hands the file to the exact
    reader."""
    a = np.frombuffer(data, dtype=np.uint8)
    starts = np.concatenate(([0], np.flatnonzero(a == 10) + 1))
    if starts[-1] == len(a):
        starts = starts[:-1]  # the final newline ends the last line
    if not (a[starts] == ord("{")).all():
        return None  # blank or indented lines: several objects could share a line
    found, schema = _first_line_schema(data, roles, source)
    if schema is None:
        return None
    import io

    import pyarrow as pa
    import pyarrow.json as pj

    options = pj.ParseOptions(explicit_schema=schema, unexpected_field_behavior="error")
    try:
        table = pj.read_json(io.BytesIO(data), parse_options=options)
    except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError):
        return None
    if table.num_rows != len(starts):
        return None
    return {role: (col, table.column(col)) for role, col in found.items()}


def _first_line_schema(data: bytes, roles, source: str) -> tuple[dict[str, str], Any]:
    """The columns of the roles and the Arrow schema of the first line's keys, or
    ``(found, None)`` when Arrow should not read the file: the roles' values are typed as the
    rules need them (a grade or a rank is a JSON integer, a score any JSON number: its double
    is parsed from the text, so the integer -0 is -0.0), other keys as their first value."""
    import pyarrow as pa

    end = data.find(b"\n")
    try:
        first = json.loads(data[: len(data) if end < 0 else end], **_JSON_NUMBERS)
        found = C.resolve(list(first), roles, source)
    except (ValueError, _DuplicateKey, InputError, AttributeError, TypeError):
        return {}, None
    role_of = {col: role for role, col in found.items()}
    fields = []
    for key, value in first.items():
        t = _role_type(role_of[key], value) if key in role_of else _arrow_type(value)
        if t is None:
            return found, None
        fields.append(pa.field(key, t))
    return found, pa.schema(fields)


def _role_type(role: str, value: Any) -> Any:
    import pyarrow as pa

    integer = isinstance(value, JsonNumber) and value.is_integer
    if role in ("query", "doc"):
        return pa.string() if isinstance(value, str) else pa.int64() if integer else None
    if role == "grade":
        return pa.int64() if integer else pa.bool_() if isinstance(value, bool) else None
    if role == "rank":
        return pa.int64() if integer else None
    if role == "score":
        return pa.float64() if isinstance(value, JsonNumber) else None
    return pa.string() if isinstance(value, str) else None  # the run tag


def _arrow_type(value: Any) -> Any:
    """The Arrow type of a JSON value (a list's items all of one type), or ``None``."""
    import pyarrow as pa

    if isinstance(value, str):
        return pa.string()
    if isinstance(value, bool):
        return pa.bool_()
    if isinstance(value, JsonNumber):
        return pa.int64() if value.is_integer else pa.float64()
    if value is None:
        return pa.null()
    if isinstance(value, dict):
        fields = [(k, _arrow_type(v)) for k, v in value.items()]
        return None if any(t is None for _, t in fields) else pa.struct(fields)
    types = {_arrow_type(v) for v in value}  # a list
    if None in types or len(types) > 1:
        return None
    return pa.list_(types.pop() if types else pa.null())


def json_line(raw: bytes, text: bytes, source: str, lineno: int) -> Any:
    """The JSON value of line ``lineno`` of a JSON lines file (``raw``, its bytes; ``text``,
    them without the ASCII whitespace around), read by the rules of every JSON read (a key
    given twice refused, numbers kept as their text); invalid JSON is one error naming the
    line and the column counted from the line's start."""
    lead = raw.find(text[:1])  # columns count from the line's start
    try:
        return json.loads(text, **_JSON_NUMBERS)
    except json.JSONDecodeError as exc:
        raise InputError(
            source, f"invalid JSON at column {lead + exc.colno}: {exc.msg}", line=lineno
        ) from None
    except _DuplicateKey:
        raise _duplicate_key_error(text.decode("utf-8"), source, lineno, lead) from None
    except RecursionError:
        raise InputError(source, "invalid JSON: nested too deeply", line=lineno) from None
    except ValueError as exc:  # e.g. an integer of more than 4300 digits
        raise InputError(source, f"invalid JSON: {exc}", line=lineno) from None


def _jsonl_python(data: bytes, roles, source: str):
    objs: list[Any] = []
    lines: list[int] = []
    blank = 0
    pieces = data.split(b"\n")
    nlines = len(pieces) - (data[-1:] == b"\n")
    for lineno, raw in enumerate(pieces[:nlines], 1):
        text = raw.strip()  # ASCII whitespace around a line is no part of it, as in TREC text
        if not text:
            blank += 1
            continue
        objs.append(json_line(raw, text, source, lineno))
        lines.append(lineno)
    if not objs:
        raise InputError(source, "file is empty")
    line_arr = np.asarray(lines, dtype=np.int64)
    where = Where(source, "line", line_arr)
    cols = _objects_to_columns(objs, range(len(objs)), roles, where)
    return cols, where, LineCounts(lines=nlines, data=len(objs), blank=blank)
