"""TREC text formats: qrels (``qid iter docno grade``) and runs (``qid Q0 docno rank score tag``).

Fields are separated by any run of ASCII whitespace (C ``isspace``: space, tab, CR, VT, FF), so
tabs, repeated spaces and CRLF line endings all work; ``.gz`` files are read transparently.  A
line whose first non-blank character is ``#`` is a comment; blank lines are skipped.  Every
rule is documented in ``docs/input.md``.

Two parsers produce identical results: a line-by-line Python parser that knows the line of
every problem, and for large files a vectorised Arrow CSV parser that is tried first and, on any
irregularity, hands over to the exact parser so that the error message names the line.
"""

from __future__ import annotations

import gzip
import os
import re
from pathlib import Path

import numpy as np

from ..data import IdColumn, Qrels, Run
from ..errors import InputError
from .validate import check_qrels_duplicates, check_run_duplicates, check_scores

__all__ = ["parse_trec_qrels", "parse_trec_run", "read_bytes"]

FAST_PATH_BYTES = 4 << 20
"""Files at least this large are parsed with Arrow first (tests lower it to cover that path)."""

_INT = re.compile(rb"[+-]?[0-9]+")
_COMMENT_LINE = re.compile(rb"(?m)^[ \t\r\v\f]*#")


def read_bytes(path: str | os.PathLike[str]) -> bytes:
    """The file's bytes, gunzipped if it starts with the gzip magic number."""
    p = Path(path)
    try:
        with open(p, "rb") as fh:
            data = fh.read()
    except FileNotFoundError:
        raise InputError(str(path), "no such file") from None
    except IsADirectoryError:
        raise InputError(str(path), "is a directory, not a file") from None
    except OSError as exc:
        raise InputError(str(path), f"cannot read: {exc.strerror or exc}") from None
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as exc:
            raise InputError(str(path), f"corrupt gzip data: {exc}") from None
    return data


def _check_text(data: bytes, source: str) -> None:
    """Reject empty input and undecodable bytes, naming the line."""
    if not data.strip():
        raise InputError(source, "file is empty")
    if b"\x00" in data:
        pos = data.index(b"\x00")
        raise InputError(source, "NUL byte in a text file", line=data.count(b"\n", 0, pos) + 1)
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        bad = data[exc.start : exc.start + 1].hex()
        raise InputError(
            source, f"undecodable byte 0x{bad} at column {col} (files must be UTF-8)", line=line
        ) from None


def _data_lines(data: bytes):
    """Yield (line number, fields) for every line that is neither blank nor a comment."""
    for lineno, raw in enumerate(data.split(b"\n"), 1):
        fields = raw.split()
        if not fields or fields[0][:1] == b"#":
            continue
        yield lineno, fields


def _show(token: bytes) -> str:
    return repr(token.decode("utf-8", "replace"))


# ----------------------------------------------------------------------------------- qrels


def parse_trec_qrels(data: bytes, source: str) -> Qrels:
    """Parse TREC qrels text (exactly 4 fields per line, integer grade)."""
    _check_text(data, source)
    qids: list[str] = []
    docs: list[str] = []
    grades: list[int] = []
    lines: list[int] = []
    fullmatch = _INT.fullmatch
    for lineno, f in _data_lines(data):
        if len(f) != 4:
            raise InputError(
                source,
                f"expected 4 columns (query, iteration, document, grade), found {len(f)}",
                line=lineno,
            )
        g = f[3]
        if fullmatch(g) is None:
            kind = "a number but not an integer" if _is_float(g) else "not a number"
            raise InputError(source, f"grade {_show(g)} is {kind}", line=lineno)
        qids.append(f[0].decode())
        docs.append(f[2].decode())
        grades.append(int(g))
        lines.append(lineno)
    if not qids:
        raise InputError(source, "no judgments (only comments or blank lines)")
    qrels = Qrels.from_rows(qids, docs, grades, source=source, lines=np.asarray(lines))
    check_qrels_duplicates(qrels)
    return qrels


def _is_float(tok: bytes) -> bool:
    try:
        float(tok)
    except ValueError:
        return False
    return True


# ------------------------------------------------------------------------------------- run


def parse_trec_run(data: bytes, source: str, name: str) -> Run:
    """Parse a TREC run (at least 6 fields per line; fields after the 6th are ignored)."""
    _check_text(data, source)
    run = None
    if len(data) >= FAST_PATH_BYTES:
        run = _parse_run_arrow(data, source, name)
    if run is None:
        run = _parse_run_python(data, source, name)
    check_scores(run)
    check_run_duplicates(run)
    return run


def _parse_run_python(data: bytes, source: str, name: str) -> Run:
    qindex: dict[str, int] = {}
    qcodes: list[int] = []
    docs: list[str] = []
    scores: list[float] = []
    ranks: list[int] = []
    lines: list[int] = []
    rank_problem: str | None = None
    tag: str | None = None
    fullmatch = _INT.fullmatch
    for lineno, f in _data_lines(data):
        if len(f) < 6:
            raise InputError(
                source,
                "expected at least 6 columns (query, Q0, document, rank, score, run tag), "
                f"found {len(f)}",
                line=lineno,
            )
        s = f[4]
        try:
            if b"_" in s:
                raise ValueError
            score = float(s)
        except ValueError:
            raise InputError(source, f"score {_show(s)} is not a number", line=lineno) from None
        q = f[0].decode()
        code = qindex.get(q)
        if code is None:
            code = qindex[q] = len(qindex)
        qcodes.append(code)
        docs.append(f[2].decode())
        scores.append(score)
        if rank_problem is None:
            if fullmatch(f[3]) is None:
                rank_problem = f"line {lineno}: rank {_show(f[3])} is not an integer"
            else:
                ranks.append(int(f[3]))
        lines.append(lineno)
        tag = f[5].decode()
    if not qcodes:
        raise InputError(source, "no results (only comments or blank lines)")
    n = len(qcodes)
    line_arr = np.asarray(lines, dtype=np.int64)
    contiguous = bool(line_arr[-1] == n)  # no blank or comment line before the last data line
    return Run(
        name=name,
        query_ids=tuple(qindex),
        qcodes=np.asarray(qcodes, dtype=np.int32),
        docs=IdColumn(docs),
        scores=np.asarray(scores, dtype=np.float64),
        ranks=np.asarray(ranks, dtype=np.int64) if rank_problem is None else None,
        tag=tag,
        source=source,
        lines=None if contiguous else line_arr,
        rank_problem=rank_problem,
    )


def _parse_run_arrow(data: bytes, source: str, name: str) -> Run | None:
    """Vectorised parse of a regular file; ``None`` hands over to the exact parser."""
    if _COMMENT_LINE.search(data) or b"\n\n" in data or b"\n\r\n" in data or data[:1].isspace():
        return None
    first = data[: data.find(b"\n") if b"\n" in data else len(data)]
    delim = "\t" if b"\t" in first else " "
    ncols = len(first.rstrip(b"\r").split(delim.encode()))
    if ncols < 6:
        return None
    import io

    import pyarrow as pa
    import pyarrow.csv as csv

    names = [f"c{i}" for i in range(ncols)]
    types = {"c0": pa.string(), "c2": pa.string(), "c3": pa.int64(), "c4": pa.float64()}

    def read(include: list[str], column_types: dict):
        return csv.read_csv(
            io.BytesIO(data),
            read_options=csv.ReadOptions(column_names=names, block_size=16 << 20),
            parse_options=csv.ParseOptions(
                delimiter=delim, quote_char=False, double_quote=False, escape_char=False
            ),
            convert_options=csv.ConvertOptions(
                column_types=column_types,
                include_columns=include,
                strings_can_be_null=False,
                quoted_strings_can_be_null=False,
                null_values=[],
            ),
        )

    import pyarrow.compute as pc

    rank_problem = None
    try:
        table = read(["c0", "c2", "c3", "c4"], types)
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        try:
            table = read(["c0", "c2", "c3", "c4"], {**types, "c3": pa.string()})
        except (pa.ArrowInvalid, pa.ArrowTypeError):
            return None
        ok = pc.match_substring_regex(table["c3"], r"^[+-]?[0-9]+$").combine_chunks()
        row = int(np.argmin(ok.to_numpy(zero_copy_only=False)))
        rank_problem = f"line {row + 1}: rank {table['c3'][row].as_py()!r} is not an integer"

    qcol = table["c0"].combine_chunks()
    dcol = table["c2"].combine_chunks()
    if (
        pc.any(pc.equal(pc.utf8_length(dcol), 0)).as_py()
        or pc.any(pc.equal(pc.utf8_length(qcol), 0)).as_py()
    ):
        return None  # empty fields: irregular whitespace, let the exact parser decide
    enc = pc.dictionary_encode(qcol)
    last = data.rstrip().rsplit(b"\n", 1)[-1].split()
    return Run(
        name=name,
        query_ids=tuple(enc.dictionary.to_pylist()),
        qcodes=enc.indices.to_numpy(zero_copy_only=False).astype(np.int32, copy=False),
        docs=IdColumn(dcol),
        scores=table["c4"].to_numpy(),
        ranks=None if rank_problem else table["c3"].to_numpy(),
        tag=last[5].decode() if len(last) >= 6 else None,
        source=source,
        lines=None,
        rank_problem=rank_problem,
    )
