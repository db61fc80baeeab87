"""MS MARCO's 3-column run: ``qid docid rank`` (the leaderboard's format, PyTerrier's
``"minimal"`` results).

The file has no scores: each result's score is ``-rank``, so the ranking is the rank column,
ascending, under every tie policy.  A query may not give one rank twice (the error names both
lines), so no two results of a query tie and the tie policy never matters.  Ranks are
integers from 0 (PyTerrier counts from 0, the leaderboard from 1) up to 2**53, so that
``-rank`` is exact.

Fields are separated by whitespace (the official files use tabs); a line whose first
non-blank character is ``#`` is a comment (unless it has the shape of a result: a query id
cannot start with ``#``), blank lines are skipped, and there are exactly 3 fields per line.
Duplicates and ids follow the rules of every run (``docs/input.md``).

Two parsers give the same Run: Arrow's CSV reader for large regular files (one tab between
fields, no comment or blank line), handing anything else to the exact line parser, which
names the line of every problem.
"""

from __future__ import annotations

import numpy as np

from cranfield.data.id_column import IdColumn
from cranfield.data.tables import LineCounts, Run
from cranfield.errors import InputError
from cranfield.io.number_text import INT as _INT
from cranfield.io.textcheck import BOM, line_ends
from cranfield.io.validate import check_run_duplicates, check_run_ids

__all__ = ["MAX_RANK", "check_consecutive", "parse_msmarco_run"]

FIELDS = 3
MAX_RANK = 2**53
"""The largest rank: ``-rank`` is an exact double up to it."""
ARROW_BYTES = 4 << 20
"""Files at least this large are tried with Arrow first (tests lower it)."""
_EXPECTED = "3 columns (query, document, rank)"


def parse_msmarco_run(data: bytes, source: str, name: str) -> Run:
    """The run of MS MARCO text ``data`` (checked as text by the caller)."""
    if data.startswith(BOM):
        data = data[len(BOM) :]
    if not data.strip():
        raise InputError(source, "file is empty")
    line_ends(data, source)
    run = _arrow(data, source, name) if len(data) >= ARROW_BYTES else None
    if run is None:
        run = _python(data, source, name)
    check_run_ids(run)
    _check_unique_ranks(run)
    check_run_duplicates(run)
    return run


def _python(data: bytes, source: str, name: str) -> Run:
    qindex: dict[str, int] = {}
    qcodes: list[int] = []
    docs: list[str] = []
    ranks: list[int] = []
    lines: list[int] = []
    blank = comments = 0
    pieces = data.split(b"\n")
    nlines = len(pieces) - (data.endswith(b"\n"))
    for lineno, raw in enumerate(pieces[:nlines], 1):
        f = raw.split()
        if not f:
            blank += 1
            continue
        if f[0][:1] == b"#":
            if len(f) == FIELDS and _INT.fullmatch(f[2]):
                raise InputError(
                    source,
                    f"ambiguous line {raw.strip().decode()!r}: it has the shape of a result, but "
                    "lines starting with '#' are comments (a query id cannot start with '#')",
                    line=lineno,
                )
            comments += 1
            continue
        if len(f) != FIELDS:
            raise InputError(source, f"expected {_EXPECTED}, found {len(f)}", line=lineno)
        rank = _rank(f[2], source, lineno)
        q = f[0].decode()
        code = qindex.get(q)
        if code is None:
            code = qindex[q] = len(qindex)
        qcodes.append(code)
        docs.append(f[1].decode())
        ranks.append(rank)
        lines.append(lineno)
    if not qcodes:
        raise InputError(source, "no results (only comments or blank lines)")
    line_arr = np.asarray(lines, dtype=np.int64)
    return _make(
        name,
        tuple(qindex),
        np.asarray(qcodes, dtype=np.int32),
        IdColumn(docs),
        np.asarray(ranks, dtype=np.int64),
        source,
        None if int(line_arr[-1]) == len(lines) else line_arr,
        LineCounts(lines=nlines, data=len(lines), comments=comments, blank=blank),
    )


def _rank(tok: bytes, source: str, lineno: int) -> int:
    text = tok.decode("utf-8", "replace")
    if not _INT.fullmatch(tok):
        raise InputError(source, f"rank {text!r} is not an integer", line=lineno)
    if len(tok.lstrip(b"+-").lstrip(b"0")) > 17 or not 0 <= (rank := int(tok)) <= MAX_RANK:
        raise InputError(
            source, f"rank {text!r} is out of range (ranks are 0 to 2**53)", line=lineno
        )
    return rank


def _make(name, query_ids, qcodes, docs, ranks, source, lines, counts) -> Run:
    return Run(
        name=name,
        query_ids=query_ids,
        qcodes=qcodes,
        docs=docs,
        scores=(-ranks).astype(np.float64),  # integer negation: rank 0 scores 0.0, not -0.0
        ranks=ranks,
        tag=name,
        source=source,
        lines=lines,
        line_counts=counts,
    )


def _arrow(data: bytes, source: str, name: str) -> Run | None:
    """Arrow's parse of a regular file (tab-separated, no comment or blank line, no CR);
    ``None`` hands the file to the line parser."""
    import io

    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.csv as pcsv

    if b"\r" in data or b" " in data:
        return None
    try:
        table = pcsv.read_csv(
            io.BytesIO(data),
            read_options=pcsv.ReadOptions(column_names=["q", "d", "r"]),
            parse_options=pcsv.ParseOptions(delimiter="\t", quote_char=False),
            convert_options=pcsv.ConvertOptions(
                column_types={"q": pa.string(), "d": pa.string(), "r": pa.string()},
                strings_can_be_null=False,
            ),
        )
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None
    n = table.num_rows
    if n != data.count(b"\n") + (not data.endswith(b"\n")):
        return None  # a blank line
    q, d, r = (table.column(c).combine_chunks() for c in ("q", "d", "r"))
    if (
        pc.any(pc.starts_with(q, "#")).as_py()
        or not pc.all(pc.match_substring_regex(r, r"^[0-9]{1,15}$")).as_py()
    ):
        return None  # comments, empty fields, signs, long or bad ranks: the exact rules
    if (
        pc.any(pc.equal(pc.utf8_length(q), 0)).as_py()
        or pc.any(pc.equal(pc.utf8_length(d), 0)).as_py()
    ):
        return None
    ranks = r.cast(pa.int64()).to_numpy(zero_copy_only=False)
    enc = pc.dictionary_encode(q)
    return _make(
        name,
        tuple(enc.dictionary.to_pylist()),
        enc.indices.to_numpy(zero_copy_only=False).astype(np.int32, copy=False),
        IdColumn(d.to_pylist() if n < 100_000 else d),
        ranks,
        source,
        None,
        LineCounts(lines=n, data=n),
    )


def _check_unique_ranks(run: Run) -> None:
    """No query gives one rank twice (so no two of its results tie)."""
    assert run.ranks is not None
    key = run.qcodes.astype(np.int64)
    order = np.lexsort((run.ranks, key))
    sk, sr = key[order], run.ranks[order]
    same = np.flatnonzero((sk[1:] == sk[:-1]) & (sr[1:] == sr[:-1]))
    if len(same) == 0:
        return
    pairs = sorted(
        (max(int(order[i]), int(order[i + 1])), min(int(order[i]), int(order[i + 1])))
        for i in same.tolist()
    )
    later, earlier = pairs[0]
    q = run.query_ids[int(run.qcodes[later])]
    raise InputError(
        run.source,
        f"rank {int(run.ranks[later])} is given twice for query {q!r} (first at line "
        f"{run.line_of(earlier)}): the ranks of an MS MARCO run order the results, and two "
        "results cannot share one",
        line=run.line_of(later),
    )


def check_consecutive(run: Run) -> str | None:
    """Why ``run`` is not numbered like an MS MARCO run (each query's results ranked 1, 2,
    3... or 0, 1, 2... in file order), or ``None``: what auto-detection asks of a 3-column
    file before reading it as one."""
    assert run.ranks is not None
    n = len(run)
    key = run.qcodes.astype(np.int64)
    order = np.argsort(key, kind="stable")
    sk, sr = key[order], run.ranks[order]
    start = np.ones(n, dtype=bool)
    start[1:] = sk[1:] != sk[:-1]
    bad_start = start & (sr > 1)
    bad_step = ~start
    bad_step[1:] &= sr[1:] != sr[:-1] + 1
    bad_step[0] = False
    bad = np.flatnonzero(bad_start | bad_step)
    if len(bad) == 0:
        return None
    row = int(order[bad].min())
    i = int(np.flatnonzero(order == row)[0])
    q = run.query_ids[int(run.qcodes[row])]
    if start[i]:
        return f"line {run.line_of(row)}: the first rank of query {q!r} is {int(sr[i])}"
    return (
        f"line {run.line_of(row)}: rank {int(sr[i])} follows rank {int(sr[i - 1])} for query {q!r}"
    )
