"""The Arrow parsers of TREC text (runs and qrels of at least
:data:`~cranfield.io.trec.text_oracle.FAST_PATH_BYTES`), now a part of the compiled core's test
oracle (:mod:`.text_oracle`): a regular file is read by Arrow's CSV reader
into columns, in parts, and checked with vectorised kernels; anything irregular returns
``None`` and the caller hands the text to the normaliser (:mod:`.normalize`) or to the exact
line parser, which names every error (:mod:`.text_oracle`)."""

from __future__ import annotations

import dataclasses
import itertools
import operator

import numpy as np

from cranfield.base.arrow import arrow_numpy, bool_numpy, numpy_arrow
from cranfield.data.id_column import IdColumn
from cranfield.data.tables import LineCounts, Qrels, Run
from cranfield.io import number_text
from cranfield.io.textcheck import OTHER_CR
from cranfield.io.trec import core as trec_core
from cranfield.io.trec.text import QRELS_FIELDS, RUN_FIELDS, _line_counts

PART_BYTES = 64 << 20
"""The Arrow run parser reads a large file in parts of about this size (less scratch memory)."""


def parse_qrels_arrow(
    data: bytes,
    source: str,
    crs: int,
    lines: np.ndarray | None = None,
    counts: LineCounts | None = None,
) -> Qrels | None:
    """Vectorised parse of a regular qrels file; ``None`` hands over to the exact parser.
    ``lines`` and ``counts`` describe the original file when ``data`` is a normalised copy."""
    table = _read_regular(data, QRELS_FIELDS, crs)
    if table is None:
        return None
    grades, _, _ = _int_tokens(table["c3"])
    if grades is None:  # a bad row
        return None
    n = table.num_rows
    if lines is None:
        lines = np.arange(1, n + 1, dtype=np.int64)
    qrels = Qrels.from_columns(table["c0"], table["c2"], grades, source=source, lines=lines)
    return dataclasses.replace(qrels, line_counts=counts or _line_counts(n, n, 0, 0))


def parse_run_arrow(
    data: bytes,
    source: str,
    name: str,
    crs: int,
    lines: np.ndarray | None = None,
    counts: LineCounts | None = None,
) -> Run | None:
    """Vectorised parse of a regular run; ``None`` hands over to the exact parser.

    ``lines`` maps rows to source lines and ``counts`` counts the source's lines when
    ``data`` is a normalised copy of the file (which has 6 fields per line).  Columns after
    the 6th are read as strings: either every line has them (none empty: each line has extra
    fields) or none (all empty: trailing delimiters); a file that mixes both, or whose lines
    may hold a second result (:func:`_may_hold_two_results`), is left to the normaliser.  The
    file is parsed in parts of about :data:`PART_BYTES` (zero-copy slices ending at line ends)
    into preallocated arrays, so the parser's scratch memory is that of one part.  The rank
    is parsed as an integer directly unless the file could hold a hexadecimal token (it has
    an ``x``: Arrow accepts ``0x10``, the exact parser does not) or a part has a token Arrow
    rejects; then the exact rule of :func:`_int_tokens` applies.
    """
    layout = _layout(data, crs)
    if layout is None:
        return None
    delim, ncols = layout
    if ncols < RUN_FIELDS:
        return None
    import pyarrow as pa
    import pyarrow.csv as csv

    names = [f"c{i}" for i in range(ncols)]
    strings = ("c0", "c1", "c2", "c5")
    # read as binary (the text is valid UTF-8 already: no second check), viewed as strings
    types = {c: pa.binary() for c in strings}
    types["c4"] = pa.float64()
    extra_columns = names[RUN_FIELDS:]
    types.update(dict.fromkeys(extra_columns, pa.binary()))
    extra_state = None  # "empty" or "full", the same in every part
    hex_possible = b"x" in data or b"X" in data  # one memchr each (a 2-byte search is slow)
    types["c3"] = pa.binary() if hex_possible else pa.int64()
    parse_options = csv.ParseOptions(
        delimiter=delim.decode(),
        quote_char=False,
        double_quote=False,
        escape_char=False,
        ignore_empty_lines=False,  # a blank line becomes a row of empty fields
    )

    def read(part):
        # blocks of a quarter part (1-8 MiB): even a small file keeps both cores busy
        block = min(max(len(part) // 4, 1 << 20), 8 << 20)
        read_options = csv.ReadOptions(column_names=names, block_size=block)
        convert = csv.ConvertOptions(
            column_types=types,
            include_columns=list(types),
            strings_can_be_null=False,
            quoted_strings_can_be_null=False,
            null_values=[],
        )
        return csv.read_csv(
            part, read_options=read_options, parse_options=parse_options, convert_options=convert
        )

    buffer = pa.py_buffer(data)  # zero-copy (BytesIO would copy the file)
    # rows, at most: a line has 6 fields, 5 delimiters and an end (untouched pages cost nothing)
    capacity = len(data) // (2 * RUN_FIELDS) + 1
    scores = np.empty(capacity, dtype=np.float64)
    ranks = np.empty(capacity, dtype=np.int64)
    qcodes = np.empty(capacity, dtype=np.int32)
    comments = b"#" in data
    rank_problem = None
    n = 0
    qindex: dict[str, int] = {}
    docs: list = []
    tag = None
    for a, b in _parts(data, PART_BYTES):
        part = buffer.slice(a, b - a)
        try:
            table = read(part)
        except (pa.ArrowInvalid, pa.ArrowTypeError):
            if types["c3"] == pa.binary():
                return None
            types["c3"] = pa.binary()  # a rank Arrow rejects (or bad data): read it exactly
            try:
                table = read(part)
            except (pa.ArrowInvalid, pa.ArrowTypeError):
                return None
        table = _view_strings(table, [c for c, t in types.items() if t == pa.binary()])
        m = table.num_rows
        checked = [*strings, "c3"] if types["c3"] == pa.binary() else strings
        if any(_has_empty_string(c) for col in checked for c in table[col].chunks):
            return None  # an empty field: repeated or edge delimiters, or a blank line
        if comments and any(_starts_with(c, b"#") for c in table["c0"].chunks):
            return None  # comment lines
        if extra_columns:
            state = _extra_state(table, extra_columns)
            if state is None or extra_state not in (None, state):
                return None  # some lines have extra fields, some not: the normaliser counts
            extra_state = state
            if state == "full" and _may_hold_two_results(table, ncols):
                return None
        _fill(scores, n, table["c4"], np.float64)
        if rank_problem is None:
            if types["c3"] == pa.int64():
                _fill(ranks, n, table["c3"], np.int64)
            else:
                values, bad_row, why = _int_tokens(table["c3"])
                if values is not None:
                    ranks[n : n + m] = values
                else:
                    assert bad_row is not None  # (no values: a bad row)
                    line = int(lines[n + bad_row]) if lines is not None else n + bad_row + 1
                    rank_problem = f"line {line}: {why}"
        qcodes[n : n + m] = _encode(table["c0"], qindex)
        docs.extend(table["c2"].chunks)
        if m:
            tag = table["c5"][m - 1].as_py()
        n += m
        del table
    if n == 0:
        return None
    if n < trec_core.ARROW_IDS_ROWS:  # Python strings: no pyarrow.compute later
        ids = IdColumn(list(itertools.chain.from_iterable(c.to_pylist() for c in docs)))
    else:
        ids = IdColumn(pa.concat_arrays(docs))
    del docs
    pa.default_memory_pool().release_unused()  # give the parser's scratch memory back
    return Run(
        name=name,
        query_ids=tuple(qindex),
        qcodes=qcodes[:n],
        docs=ids,
        scores=scores[:n],
        ranks=None if rank_problem else ranks[:n],
        tag=tag,
        source=source,
        lines=lines,
        rank_problem=rank_problem,
        line_counts=counts
        or _line_counts(n, n, 0, 0, *((n, 1) if extra_state == "full" else (0, None))),
    )


def _view_strings(table, columns: list[str]):
    """The binary ``columns`` of ``table`` viewed as strings (zero-copy, no UTF-8 check)."""
    import pyarrow as pa

    for c in columns:
        col = table[c]
        viewed = pa.chunked_array([x.view(pa.string()) for x in col.chunks], type=pa.string())
        table = table.set_column(table.schema.get_field_index(c), c, viewed)
    return table


def _extra_state(table, columns: list[str]) -> str | None:
    """``"empty"`` if every cell of the columns after the 6th is empty (trailing delimiters),
    ``"full"`` if none is (every line has extra fields), else ``None``."""
    chunks = [c for col in columns for c in table[col].chunks]
    if all(_all_empty(c) for c in chunks):
        return "empty"
    if not any(_has_empty_string(c) for c in chunks):
        return "full"
    return None


def _may_hold_two_results(table, ncols: int) -> bool:
    """Whether a line's field 7 to ``ncols - 5`` equals its iteration token (field 2), as
    :func:`~cranfield.io.trec.fields.repeats_field_1` asks of irregular files."""
    import pyarrow.compute as pc

    return any(
        pc.any(pc.equal(table[f"c{j}"], table["c1"])).as_py()
        for j in range(RUN_FIELDS, ncols - RUN_FIELDS + 2)
    )


def _parts(data: bytes, size: int):
    """``(start, end)`` byte ranges of about ``size`` bytes that end at line ends."""
    start, n = 0, len(data)
    while start < n:
        end = data.find(b"\n", min(start + size, n) - 1)
        end = n if end < 0 else end + 1
        yield start, end
        start = end


def _encode(column, qindex: dict[str, int]) -> np.ndarray:
    """Codes of the query ids in ``column`` in a dictionary shared across parts (order of
    first appearance).  Queries come in blocks: the block starts are found by comparing each
    id with the one before (a vectorised kernel) and only those ids become Python strings; a
    run whose queries are interleaved is dictionary-encoded instead."""
    n = len(column)
    if n < trec_core.ARROW_IDS_ROWS:
        return query_codes(column.to_pylist(), qindex)
    import pyarrow.compute as pc

    arr = column.combine_chunks()
    changed = bool_numpy(pc.not_equal(arr.slice(1), arr.slice(0, n - 1)))
    blocks = np.flatnonzero(changed)
    if len(blocks) < n // 16:
        blocks = np.concatenate(([0], blocks + 1))
        return block_codes(arr.take(numpy_arrow(blocks)).to_pylist(), blocks, n, qindex)
    enc = pc.dictionary_encode(arr)
    local = enc.dictionary.to_pylist()
    mapping = np.fromiter((qindex.setdefault(q, len(qindex)) for q in local), np.int32)
    return mapping[arrow_numpy(enc.indices, np.int32)]


def _fill(out: np.ndarray, at: int, column, dtype) -> None:
    """Copy a null-free chunked Arrow column into ``out[at:]``."""
    for c in column.chunks:
        values = arrow_numpy(c, dtype)
        out[at : at + len(values)] = values
        at += len(values)


def _string_offsets(arr) -> np.ndarray:
    import pyarrow as pa

    width = np.int64 if pa.types.is_large_string(arr.type) else np.int32
    return np.frombuffer(arr.buffers()[1], dtype=width)[arr.offset : arr.offset + len(arr) + 1]


def _has_empty_string(arr) -> bool:
    """Whether a (non-null) Arrow string array holds an empty string, read off its offsets."""
    if len(arr) == 0:
        return False
    offsets = _string_offsets(arr)
    return bool((offsets[1:] == offsets[:-1]).any())


def _all_empty(arr) -> bool:
    """Whether every string of a (non-null) Arrow string array is empty."""
    if len(arr) == 0:
        return True
    offsets = _string_offsets(arr)
    return bool(offsets[-1] == offsets[0])


def _starts_with(arr, prefix: bytes) -> bool:
    """Whether any string of a (non-null, no empty string) Arrow array starts with a byte."""
    if len(arr) == 0 or arr.buffers()[2] is None:
        return False
    first = np.frombuffer(arr.buffers()[2], dtype=np.uint8)[_string_offsets(arr)[:-1]]
    return bool((first == prefix[0]).any())


def _numpy(col) -> np.ndarray:
    """A null-free chunked int64 Arrow column as numpy (``to_numpy`` would import pandas)."""
    return arrow_numpy(col, np.int64)


# ------------------------------------------------------------------ the regular Arrow layout


def _layout(data: bytes, crs: int) -> tuple[bytes, int] | None:
    """``(delimiter, columns of the first line)`` if the bytes can be a regular layout.

    Regular: one delimiter (the first line's tab, else space) and not the other, no VT or FF,
    every CR part of a CRLF (``crs``, from :func:`~cranfield.io.textcheck.line_ends`).  Empty
    fields, blank and comment lines are found after parsing.
    """
    if crs == OTHER_CR or b"\x0b" in data or b"\x0c" in data:
        return None  # a CR before whitespace is a separator for trec_eval, a row end for Arrow
    end = data.find(b"\n")
    first = data[: end if end >= 0 else len(data)]
    if first.endswith(b"\r"):
        first = first[:-1]
    delim, other = (b"\t", b" ") if b"\t" in first else (b" ", b"\t")
    if other in data:
        return None
    return delim, first.count(delim) + 1


def _read_regular(data: bytes, nfields: int, crs: int):
    """Arrow table (string columns) of a regular qrels file of ``nfields`` fields, or None.

    Every line must have that many fields, none empty (an empty field means repeated or edge
    delimiters), and no line may be blank or a comment.
    """
    layout = _layout(data, crs)
    if layout is None:
        return None
    delim, ncols = layout
    if ncols != nfields:
        return None
    import io

    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.csv as csv

    names = [f"c{i}" for i in range(ncols)]
    types = {c: pa.string() for c in names}
    try:
        table = csv.read_csv(
            io.BytesIO(data),
            read_options=csv.ReadOptions(column_names=names, block_size=16 << 20),
            parse_options=csv.ParseOptions(
                delimiter=delim.decode(),
                quote_char=False,
                double_quote=False,
                escape_char=False,
                ignore_empty_lines=False,  # a blank line becomes a row of empty fields
            ),
            convert_options=csv.ConvertOptions(
                column_types=types,
                include_columns=names,
                strings_can_be_null=False,
                quoted_strings_can_be_null=False,
                null_values=[],
            ),
        )
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        return None
    if table.num_rows == 0:
        return None
    for c in names:
        if pc.min(pc.binary_length(table[c])).as_py() == 0:
            return None  # an empty field: repeated or edge delimiters, or a blank line
    if b"#" in data and pc.any(pc.starts_with(table["c0"], "#")).as_py():
        return None  # comment lines
    return table


def _int_tokens(col) -> tuple[np.ndarray | None, int | None, str]:
    """Integers of a string column read exactly as the exact parser reads them.

    Returns ``(values, None, "")`` or ``(None, first bad row, why)``.  Arrow's cast alone
    would also accept hexadecimal (``0x10``), so the ``[+-]?[0-9]+`` rule is checked whenever
    an ``x`` could be present, and a leading ``+`` (which the cast rejects) is stripped.
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    if not any(_holds_byte(chunk, b"xX") for chunk in col.chunks):
        try:
            return _numpy(pc.cast(col, pa.int64())), None, ""
        except (pa.ArrowInvalid, pa.ArrowTypeError):
            pass
    ok = pc.match_substring_regex(col, r"^[+-]?[0-9]+$")
    if not pc.all(ok).as_py():
        return None, *_first_bad_int(col)
    try:
        values = pc.cast(pc.replace_substring_regex(col, r"^\+", ""), pa.int64())
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        return None, *_first_bad_int(col)
    return _numpy(values), None, ""


def _first_bad_int(col) -> tuple[int, str]:
    """The first row the exact parser rejects as a rank, and why (only called when there is
    one)."""
    for row, token in enumerate(col.to_pylist()):
        why = number_text.rank_problem(token.encode())
        if why is not None:
            return row, why
    raise AssertionError("no bad integer in the column")  # pragma: no cover


def _holds_byte(chunk, chars: bytes) -> bool:
    """Whether the string array's data buffer holds any of ``chars`` (may over-approximate)."""
    buf = chunk.buffers()[2]
    if buf is None:
        return False
    view = np.frombuffer(buf, dtype=np.uint8)
    return any(bool((view == c).any()) for c in chars)


def query_codes(qids: list[str], qindex: dict[str, int]) -> np.ndarray:
    """Codes of ``qids`` in ``qindex`` (extended in order of first appearance), int32."""
    n = len(qids)
    changed = np.fromiter(map(operator.ne, qids[1:], qids[:-1]), dtype=bool, count=max(n - 1, 0))
    blocks = np.concatenate(([0], np.flatnonzero(changed) + 1)) if n else np.zeros(0, np.int64)
    return block_codes([qids[i] for i in blocks.tolist()], blocks, n, qindex)


def block_codes(ids: list[str], blocks: np.ndarray, n: int, qindex: dict[str, int]) -> np.ndarray:
    """Codes of ``n`` rows in blocks of one query id (``ids[j]`` from row ``blocks[j]`` on):
    queries come in blocks, so each block is coded once."""
    keys = [qindex.setdefault(q, len(qindex)) for q in ids]
    lengths = np.diff(blocks, append=n)
    return np.repeat(np.asarray(keys, dtype=np.int32), lengths)
