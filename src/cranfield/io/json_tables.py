"""The columns of JSON tables: a JSON list of objects (one per row) and JSON lines (one
object per line).  JSON lines are read by Arrow when every line is surely one row (the
schema of the first line, any other key an error), else line by line by the exact reader,
which names the line and the problem.  The text is read by :mod:`cranfield.io.strict_json`'s
rules.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from cranfield.data.tables import LineCounts
from cranfield.errors import InputError
from cranfield.io import columns as C
from cranfield.io.columns import Where
from cranfield.io.from_columns import python_array
from cranfield.io.number_text import JsonNumber
from cranfield.io.strict_json import _DuplicateKey, json_line, json_text, loads

__all__ = ["jsonl", "jsonl_arrow", "records", "refuse_column_orient"]


def refuse_column_orient(obj: dict, source: str) -> None:
    """``df.to_json()`` (pandas' default 'columns' orient) looks like a nested mapping."""
    keys = set(obj)
    if keys & set(C.QUERY.names) and keys & set(C.DOC.names):
        raise InputError(
            source,
            "this looks like a table written column by column (pandas' to_json() default); "
            "write one object per row instead: df.to_json(path, orient='records') or "
            "df.to_json(path, orient='records', lines=True) for JSON lines",
        )


def records(obj: Any, roles, source: str) -> tuple[dict[str, tuple[str, Any]], Where]:
    """Columns of a JSON list of objects (items counted from 0)."""
    where = Where(source, "item")
    if not isinstance(obj, list):
        raise InputError(
            source,
            "expected a JSON object {query: {document: value}} or a list of objects, "
            f"got a JSON {json_type(obj)}",
        )
    if not obj:
        raise InputError(source, "no data (the JSON list is empty)")
    return objects_to_columns(obj, range(len(obj)), roles, where), where


def objects_to_columns(objs, positions, roles, where: Where) -> dict[str, tuple[str, Any]]:
    found: dict[str, str] | None = None
    values: dict[str, list[Any]] = {}
    for i, obj in zip(positions, objs, strict=True):
        if not isinstance(obj, dict):
            raise where.error(i, f"expected a JSON object, got a JSON {json_type(obj)}")
        if found is None:
            found = C.resolve(list(obj), roles, where.source)
            values = {role: [] for role in found}
        for role, key in found.items():
            if key not in obj:
                raise where.error(i, f"missing key {key!r}")
            values[role].append(obj[key])
    assert found is not None
    return {role: (key, python_array(values[role], role, where)) for role, key in found.items()}


def json_type(obj: Any) -> str:
    return {dict: "object", list: "array", str: "string", bool: "boolean", type(None): "null"}.get(
        type(obj), "number"
    )


def jsonl(path, roles, build):
    """JSON lines: Arrow's reader when every line is one object, else line by line."""
    source = str(path)
    data = json_text(path, lines=True)
    cols = jsonl_arrow(data, roles, source)
    if cols is not None:
        try:
            result = build(cols, Where(source, "line"))
        except InputError:
            result = None  # let the exact reader name the line and the problem
        if result is not None and getattr(result, "rank_problem", None) is None:
            n = len(result)
            return dataclasses.replace(result, line_counts=LineCounts(lines=n, data=n))
    cols, where, counts = jsonl_python(data, roles, source)
    return dataclasses.replace(build(cols, where), line_counts=counts)


def jsonl_arrow(data: bytes, roles, source: str) -> dict[str, tuple[str, Any]] | None:
    """Columns read by Arrow when row ``i`` is surely line ``i + 1``, else ``None``.

    Arrow is given the schema of the first line (:func:`first_line_schema`), and any other
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
    found, schema = first_line_schema(data, roles, source)
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


def first_line_schema(data: bytes, roles, source: str) -> tuple[dict[str, str], Any]:
    """The columns of the roles and the Arrow schema of the first line's keys, or
    ``(found, None)`` when Arrow should not read the file: the roles' values are typed as the
    rules need them (a grade or a rank is a JSON integer, a score any JSON number: its double
    is parsed from the text, so the integer -0 is -0.0), other keys as their first value."""
    import pyarrow as pa

    end = data.find(b"\n")
    try:
        first = loads(data[: len(data) if end < 0 else end])
        found = C.resolve(list(first), roles, source)
    except (ValueError, _DuplicateKey, InputError, AttributeError, TypeError):
        return {}, None
    role_of = {col: role for role, col in found.items()}
    fields = []
    for key, value in first.items():
        t = role_type(role_of[key], value) if key in role_of else arrow_type(value)
        if t is None:
            return found, None
        fields.append(pa.field(key, t))
    return found, pa.schema(fields)


def role_type(role: str, value: Any) -> Any:
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


def arrow_type(value: Any) -> Any:
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
        fields = [(k, arrow_type(v)) for k, v in value.items()]
        return None if any(t is None for _, t in fields) else pa.struct(fields)
    types = {arrow_type(v) for v in value}  # a list
    if None in types or len(types) > 1:
        return None
    return pa.list_(types.pop() if types else pa.null())


def jsonl_python(data: bytes, roles, source: str):
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
    cols = objects_to_columns(objs, range(len(objs)), roles, where)
    return cols, where, LineCounts(lines=nlines, data=len(objs), blank=blank)
