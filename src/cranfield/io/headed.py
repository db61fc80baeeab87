"""Delimited text with a header line: CSV (RFC 4180: commas, ``"`` quoting) and TSV (tabs,
no quoting), for qrels and runs.

The first line names the columns; the columns are found by the rules of every table
(:mod:`cranfield.io.columns`: ``qid``/``query_id``/``q_id``, ``docno``/``doc_id``,
``relevance``/``label``, ``score``, ``rank``, ``run``/``name``), and other columns are
ignored.  Every later line is one row with as many fields as the header (blank lines are
skipped); values are text: ids are taken as written (``007`` stays ``007``), grades are
integers (``2``, or an integral ``2.0`` as pandas writes a float column), scores decimal
numbers as Python's ``float`` reads them, ranks integers.  Messages name the 1-based line.

Two parsers give the same result: Arrow's CSV reader for large regular files (no blank line,
no quoted newline, every number in its plain form), handing anything else to the exact
parser built on the ``csv`` module, which names the line of every problem.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..data import Qrels, Run
from ..errors import InputError
from . import columns as C
from .columns import QRELS_ROLES, RUN_ROLES, Role, Where
from .textcheck import BOM

__all__ = ["DELIMITERS", "header_fields", "parse_headed_qrels", "parse_headed_run"]

DELIMITERS = {"csv": ",", "tsv": "\t"}
ARROW_BYTES = 4 << 20
"""Files at least this large are tried with Arrow first (tests lower it)."""
_INT = re.compile(r"[+-]?[0-9]+", re.ASCII)
_ARROW_PATTERNS = {
    "grade": r"^[+-]?[0-9]{1,18}$",
    "rank": r"^[+-]?[0-9]{1,18}$",
    "score": r"^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]{1,3})?$",
}


def _reader(lines: Any, fmt: str) -> Any:
    if fmt == "csv":
        return csv.reader(lines, delimiter=",", quotechar='"', strict=True)
    return csv.reader(lines, delimiter="\t", quoting=csv.QUOTE_NONE, strict=True)


def header_fields(line: str, fmt: str) -> list[str]:
    """The column names of a header line (surrounding spaces dropped)."""
    try:
        row = next(_reader([line.rstrip("\r\n")], fmt), [])
    except csv.Error:
        return []
    return [name.strip() for name in row]


def _text(data: bytes, source: str) -> str:
    if data.startswith(BOM):
        data = data[len(BOM) :]
    if not data.strip():
        raise InputError(source, "file is empty")
    return data.decode("utf-8")


def _columns(
    data: bytes, source: str, fmt: str, roles: Sequence[Role]
) -> tuple[dict[str, tuple[str, Any]], Where]:
    """``{role: (column, Arrow array)}`` and where each row is, from headed text."""
    text = _text(data, source)
    first, _, body = text.partition("\n")
    names = header_fields(first, fmt)
    if not any(names):
        raise InputError(source, f"line 1 should name the columns ({fmt.upper()} header)", line=1)
    found = C.resolve(names, roles, source)
    index = {role: names.index(col) for role, col in found.items()}
    if len(data) >= ARROW_BYTES:
        arrow = _arrow(body, names, found, fmt)
        if arrow is not None:
            return arrow, Where(source, "line", np.arange(2, arrow_len(arrow) + 2))
    return _python(body, source, fmt, len(names), found, index)


def arrow_len(cols: dict[str, tuple[str, Any]]) -> int:
    return len(next(iter(cols.values()))[1])


def _python(body: str, source: str, fmt: str, width: int, found: dict, index: dict):
    import pyarrow as pa

    values: dict[str, list[Any]] = {role: [] for role in found}
    lines: list[int] = []
    reader = _reader(io.StringIO(body, newline=""), fmt)
    try:
        for row in reader:
            lineno = reader.line_num + 1
            if not row or (len(row) == 1 and not row[0].strip()):
                continue
            if len(row) != width:
                raise InputError(
                    source,
                    f"expected {width} fields (as the header has), found {len(row)}",
                    line=lineno,
                )
            for role, i in index.items():
                values[role].append(row[i])
            lines.append(lineno)
    except csv.Error as exc:
        raise InputError(
            source, f"malformed {fmt.upper()}: {exc}", line=reader.line_num + 1
        ) from None
    if not lines:
        raise InputError(source, "no rows after the header line")
    where = Where(source, "line", np.asarray(lines, dtype=np.int64))
    cols: dict[str, tuple[str, Any]] = {}
    for role, col in found.items():
        v = values[role]
        if role in ("query", "doc"):
            arr = pa.array(C.py_ids(v, C.QUERY if role == "query" else C.DOC, where), pa.string())
        elif role == "grade":
            arr = pa.array(C.py_grades([_number(x, True) for x in v], where), pa.int64())
        elif role == "score":
            arr = pa.array(C.py_scores([_number(x, False) for x in v], where), pa.float64())
        elif role == "rank":
            ranks, why = C.py_ranks([_number(x, True) for x in v], where)
            from .tabular import RankProblem

            arr = RankProblem(why) if ranks is None else pa.array(ranks, pa.int64())
        else:
            arr = pa.array(v, pa.string())
        cols[role] = (col, arr)
    return cols, where


def _number(text: str, integer: bool) -> Any:
    """``text`` as an int or float when it is one (else the text, which the value rules
    refuse with its place): integers for grades and ranks, Python ``float`` for scores."""
    t = text.strip()
    if integer and _INT.fullmatch(t):
        return int(t)
    if "_" in t:
        return text
    try:
        return float(t)
    except ValueError:
        return text


def _arrow(body: str, names: list[str], found: dict, fmt: str) -> dict | None:
    """Arrow's parse of a regular body, or ``None`` (the exact parser takes over)."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.csv as pcsv

    if "\n\n" in body or "\r" in body or (body and body[0] == "\n"):
        return None
    wanted = list(dict.fromkeys(found.values()))
    if len(set(names)) != len(names):
        return None
    try:
        table = pcsv.read_csv(
            io.BytesIO(body.encode("utf-8")),
            read_options=pcsv.ReadOptions(column_names=names),
            parse_options=pcsv.ParseOptions(
                delimiter=DELIMITERS[fmt], quote_char='"' if fmt == "csv" else False
            ),
            convert_options=pcsv.ConvertOptions(
                column_types={n: pa.string() for n in wanted},
                include_columns=wanted,
                strings_can_be_null=False,
            ),
        )
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None
    if table.num_rows != body.count("\n") + (not body.endswith("\n")):
        return None
    out: dict[str, tuple[str, Any]] = {}
    for role, col in found.items():
        arr = table.column(col).combine_chunks()
        pattern = _ARROW_PATTERNS.get(role)
        if pattern is not None:
            if not pc.all(pc.match_substring_regex(arr, pattern)).as_py():
                return None
            try:
                arr = arr.cast(pa.float64() if role == "score" else pa.int64())
            except pa.ArrowInvalid:
                return None
        out[role] = (col, arr)
    return out


def parse_headed_run(data: bytes, source: str, name: str, fmt: str) -> Run:
    """A run from CSV/TSV text with a header (``fmt``: ``csv`` or ``tsv``)."""
    from .tabular import _run

    cols, where = _columns(data, source, fmt, RUN_ROLES)
    return _run(cols, where, name, "no rows after the header line")


def parse_headed_qrels(data: bytes, source: str, fmt: str) -> Qrels:
    """Qrels from CSV/TSV text with a header."""
    from .tabular import _qrels

    cols, where = _columns(data, source, fmt, QRELS_ROLES)
    return _qrels(cols, where, "no rows after the header line")
