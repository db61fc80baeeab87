"""Delimited text with a header line: CSV (RFC 4180: commas, ``"`` quoting) and TSV (tabs,
no quoting), for qrels and runs.

The first line names the columns; the columns are found by the rules of every table
(:mod:`cranfield.io.columns`: ``qid``/``query_id``/``q_id``, ``docno``/``doc_id``,
``relevance``/``label``, ``score``, ``rank``, ``run``/``name``), and other columns are
ignored.  Every later line is one row with as many fields as the header; lines end and are
blank by the rules of TREC text (:func:`~cranfield.io.textcheck.line_ends`; a blank line is
ASCII whitespace only, and skipped).  Values are text: ids are taken as written (``007``
stays ``007``, no length limit), grades, scores and ranks are read by the rules of
:mod:`cranfield.io.number_text`, the TREC parser's (``2.0`` is not a grade, ``٣`` not a number).
Messages name the 1-based line.

Two parsers give the same result: Arrow's CSV reader for large regular files (no blank line,
no quoted newline, every number in its plain form), handing anything else to the exact
parser built on the ``csv`` module, which names the line of every problem.
"""

from __future__ import annotations

import contextlib
import csv
import io
import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from cranfield.data.tables import Qrels, Run
from cranfield.errors import InputError
from cranfield.io import columns as C
from cranfield.io import number_text
from cranfield.io import python_values as P
from cranfield.io.columns import QRELS_ROLES, RUN_ROLES, Role, Where
from cranfield.io.number_text import ASCII_SPACE
from cranfield.io.textcheck import BOM, line_ends

__all__ = ["DELIMITERS", "header_fields", "parse_headed_qrels", "parse_headed_run"]

DELIMITERS = {"csv": ",", "tsv": "\t"}
ARROW_BYTES = 4 << 20
"""Files at least this large are tried with Arrow first (tests lower it)."""
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
        row: list[str] = next(_reader([line.rstrip("\r\n")], fmt), [])
    except csv.Error:
        return []
    return [name.strip() for name in row]


def _text(data: bytes, source: str) -> str:
    if data.startswith(BOM):
        data = data[len(BOM) :]
    if not data.strip():
        raise InputError(source, "file is empty")
    line_ends(data, source)
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


def _rows(body: str, fmt: str, source: str) -> tuple[list[list[str]], list[int]]:
    """The fields of every record of the body and the number of its line (the header is
    line 1).  Lines end by the rule of every text (:func:`~cranfield.io.textcheck.line_ends`
    left nothing but whitespace after a CR: a line is cut at its first CR); a blank line
    (ASCII whitespace only, as in TREC text) is skipped, but not inside a quoted field."""
    lines = body.split("\n")
    del lines[len(lines) - body.endswith("\n") :]
    if "\r" in body:
        lines = [line[: line.find("\r")] if "\r" in line else line for line in lines]
    if fmt == "tsv" or '"' not in body:  # no quoting: the fields are the text between commas
        sep = DELIMITERS[fmt]
        numbers = [i for i, line in enumerate(lines, 2) if line.strip(ASCII_SPACE)]
        if len(numbers) < len(lines):
            lines = [lines[i - 2] for i in numbers]
        return [line.split(sep) for line in lines], numbers
    return _quoted_rows(lines, source)


def _quoted_rows(lines: list[str], source: str) -> tuple[list[list[str]], list[int]]:
    """:func:`_rows` of a CSV file with quotes: Python's csv module, given one line at a time
    (a blank one skipped where a record would start); a record is named by its last line."""
    at = [1, True]  # the number of the line last given out; whether a record starts next

    def feed():
        for i, line in enumerate(lines, 2):
            if at[1] and not line.strip(ASCII_SPACE):
                continue
            at[:] = [i, False]
            yield line + "\n"

    rows: list[list[str]] = []
    numbers: list[int] = []
    reader = _reader(feed(), "csv")
    with _field_limit(sum(map(len, lines)) + len(lines)):  # no yield inside: set back at once
        try:
            for row in reader:
                rows.append(row)
                numbers.append(at[0])
                at[1] = True
        except csv.Error as exc:
            raise InputError(source, f"malformed CSV: {exc}", line=at[0]) from None
    return rows, numbers


_LIMIT_LOCK = threading.Lock()


@contextlib.contextmanager
def _field_limit(size: int):
    """The csv module's field size limit (131,072 characters, a setting of the whole
    process) raised to ``size`` while a file is read, so that a CSV file takes ids as long
    as TREC text does; set back afterwards unless another thread changed it meanwhile."""
    with _LIMIT_LOCK:
        old = csv.field_size_limit()
        if size <= old:
            yield
            return
        csv.field_size_limit(size)
        try:
            yield
        finally:
            if csv.field_size_limit() == size:
                csv.field_size_limit(old)


def _python(body: str, source: str, fmt: str, width: int, found: dict, index: dict):
    """The exact parser: the records, then each column read at once by the rules of
    :mod:`.number_text` and :mod:`.columns`.  A line with the wrong number of fields and a
    number the rules refuse are reported in line order, as the TREC parser reports them."""
    import pyarrow as pa

    rows, numbers = _rows(body, fmt, source)
    short = len(rows)
    if set(map(len, rows)) - {width}:
        short = next(k for k, row in enumerate(rows) if len(row) != width)
    values = {role: [row[i] for row in rows[:short]] for role, i in index.items()}
    problems = []  # (row, problem) of the first bad number of each column
    for role in ("grade", "score"):
        if role in values:
            values[role], row, problem = number_text.cells(values[role], role)
            if row is not None and problem is not None:  # (both or neither)
                problems.append((row, problem))
    if short < len(rows):
        found_fields = len(rows[short])
        problems.append(
            (short, f"expected {width} fields (as the header has), found {found_fields}")
        )
    if problems:
        row, problem = min(problems)
        raise InputError(source, problem, line=numbers[row])
    if not rows:
        raise InputError(source, "no rows after the header line")
    where = Where(source, "line", np.asarray(numbers, dtype=np.int64))
    cols: dict[str, tuple[str, Any]] = {}
    for role, col in found.items():
        v = values[role]
        if role in ("query", "doc"):
            arr = pa.array(P.py_ids(v, C.QUERY if role == "query" else C.DOC, where), pa.string())
        elif role == "grade":
            arr = pa.array(v, pa.int64())
        elif role == "score":
            arr = pa.array(v, pa.float64())
        elif role == "rank":
            from cranfield.io.from_columns import RankProblem

            ranks, row, why = number_text.cells(v, "rank")
            rank_problem = None if row is None else f"line {numbers[row]}: {why}"
            arr = RankProblem(rank_problem) if rank_problem else pa.array(ranks, pa.int64())
        else:
            arr = pa.array(v, pa.string())
        cols[role] = (col, arr)
    return cols, where


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
    # A blank line of whitespace is a row of blank cells here: its grade or score (a table
    # always has one) fails the number pattern below, so the exact parser skips the line.
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
    from cranfield.io.from_columns import run_from_columns

    cols, where = _columns(data, source, fmt, RUN_ROLES)
    return run_from_columns(cols, where, name, "no rows after the header line")


def parse_headed_qrels(data: bytes, source: str, fmt: str) -> Qrels:
    """Qrels from CSV/TSV text with a header."""
    from cranfield.io.from_columns import qrels_from_columns

    cols, where = _columns(data, source, fmt, QRELS_ROLES)
    return qrels_from_columns(cols, where, "no rows after the header line")
