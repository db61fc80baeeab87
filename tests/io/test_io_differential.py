"""The same table in every format gives the same Qrels/Run or the same error.

A table of qrels or of a run (Hypothesis, fixed seeds) is damaged at the level of its cells
and lines (hostile numbers, Unicode digits and spaces, control characters and lone surrogates
in ids, empty and very long cells, duplicates, blank and junk lines, CRs, NUL, undecodable
bytes, byte order marks), then written as TREC text, CSV, TSV, JSON lines, Parquet and a
nested dict, and read by every reader: TREC text by its three parsers (exact, field splitter,
Arrow), CSV and TSV by the exact parser and by Arrow's, JSON lines by Arrow's and the
line-by-line reader.

A format takes part when it can hold the table as written (TREC text has no empty field and
no space inside one; a JSON number is JSON's syntax; a Parquet or dict value is a number the
rules accept; text formats alone have lines to damage).  Every reader that takes part must give
the same result (the same ids, grades and scores, bit for bit) or the same error: an
InputError, about the same data line (each format's line, or row, of that table line), with
the same problem (messages compared after their place: the field-count errors of text, CSV and
JSON syntax are one problem, a malformed line).  With one damage, exactly; with several, the
same verdict (all accept the same data, or all refuse).

The default run tries a bounded number of tables; the ``slow`` one (which CI runs too) tries
thousands and prints its counts.
"""

from __future__ import annotations

import csv
import io
import json
import re
import warnings
from collections import Counter
from dataclasses import dataclass, field

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import TEXT_PARSERS, use_text_parser
from cranfield.errors import InputError
from cranfield.io import headed, json_tables, read_qrels, read_run

ASCII_SPACE = " \t\n\r\x0b\x0c"

# ------------------------------------------------------------------------------ tables

_IDS = st.sampled_from(["1", "2", "10", "007", "q", "é", "日本", "x#y", "a,b", 'q"x', "Q-3"])
_GRADES = st.one_of(st.integers(-2, 4).map(str), st.sampled_from(["+3", "007", "-0"]))
_SCORES = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.sampled_from(["1", "0.5", "-2e3", "+.5", "5.", "1E+01", "-0", "3.25", "1e-320"]),
)


@dataclass
class Table:
    """Rows of cells (query, document, grade or score) and the lines of a text holding them:
    ``lines`` holds a row's index or the bytes of another line (blank, junk), ``ends`` the
    end of each line."""

    kind: str
    rows: list[list[str]]
    lines: list[int | bytes]
    ends: list[bytes]
    damage: list[str] = field(default_factory=list)

    def text_only(self) -> bool:
        """Whether the damage is to the text (lines, bytes), which tables and dicts lack."""
        blank = all(isinstance(x, int) or not x.strip(b" \t\r\x0b\x0c") for x in self.lines)
        ends_fine = all(re.fullmatch(rb"[ \t\x0b\x0c\r]*\n", e) for e in self.ends)
        return not (blank and ends_fine)


@st.composite
def tables(draw) -> Table:
    kind = draw(st.sampled_from(["qrels", "run"]))
    rows, seen = [], set()
    for _ in range(draw(st.integers(1, 7))):
        q, d = draw(_IDS), draw(_IDS)
        if (q, d) in seen:
            continue
        seen.add((q, d))
        rows.append([q, d, draw(_GRADES if kind == "qrels" else _SCORES)])
    end = draw(st.sampled_from([b"\n", b"\n", b"\r\n"]))
    return Table(kind, rows, list(range(len(rows))), [end] * len(rows))


HOSTILE_NUMBERS = [
    "0.99999999999999999", "1.9999999999999999", "9007199254740993.0", "2.0", "1e0", "٣",
    "２", "\u00a0+2", "2\u2003", "1_0", "0x10", "nan", "inf", "-Infinity", "1e999", "1e-400",
    "9" * 19, "-0", "+2", "007", "", "1" * 5000, "4.9e-324", " 2", "2\t", "\x0b1", "1,5",
    "١٢", "2\x85",
]  # fmt: skip
HOSTILE_IDS = [
    "\x01", "a\x7f", "\x85", "a b", "", "q\ud800", "\udcff", "\u00a0x", "#x", "𝄞", "q\u2028",
    "d" * 200_000, "x\tz", "a\x0cb", "a\x1c",
]  # fmt: skip
BLANK_LINES = [b"", b" ", b"\t", b"\x0b", b"\x0c", b"\r", b" \t ", b"\t\t"]
BOM = b"\xef\xbb\xbf"
JUNK_LINES = [b"\xc2\xa0", b"\xe3\x80\x80", b"x\x00y", b"\xff", BOM, b"z"]


DAMAGES = {  # what may be done, and the values it is done with
    "number": HOSTILE_NUMBERS,
    "id": HOSTILE_IDS,
    "duplicate": [None],
    "blank": BLANK_LINES,
    "junk": JUNK_LINES,
    "cr": [b"\r", b"\r "],
    "ends": [b"\r\n", b"\r \n", b"\r\r\n", b"\r\x0b\n", b" \x0c\r\n"],
}


def damage(table: Table, data) -> Table:
    """One damage, drawn by ``data``."""
    how = data.draw(st.sampled_from(list(DAMAGES)))
    value = data.draw(st.sampled_from(DAMAGES[how]))
    return apply(table, how, value, lambda n: data.draw(st.integers(0, max(n - 1, 0))))


def apply(table: Table, how: str, value, pick) -> Table:
    """``table`` damaged by ``how`` with ``value``; ``pick(n)`` chooses a place in ``n``."""
    rows = [list(r) for r in table.rows]
    lines, ends = list(table.lines), list(table.ends)
    i = pick(len(rows))
    if how == "number":
        rows[i][2] = value
    elif how == "id":
        rows[i][pick(2)] = value
    elif how == "duplicate" and len(rows) > 1:
        j = (i + 1 + pick(len(rows) - 1)) % len(rows)
        rows[i][:2] = rows[j][:2]
    elif how in ("blank", "junk"):
        at = pick(len(lines) + 1)
        at = max(at, value == BOM)  # a byte order mark at the start is allowed
        lines.insert(at, value)
        ends.insert(at, ends[0] if ends else b"\n")
    elif how == "cr" and len(lines) > 1:  # a line joined to the next by a bare CR
        ends[pick(len(lines) - 1)] = value
    elif how == "ends":
        ends = [value] * len(ends)
    return Table(table.kind, rows, lines, ends, [*table.damage, how])


# ------------------------------------------------------------------------------ writers


def _grade_value(cell: str) -> int | None:
    """The test's own reading of a grade: ``[+-]?[0-9]+`` in ASCII, in int64."""
    t = cell.strip(ASCII_SPACE)
    if re.fullmatch(r"[+-]?[0-9]+", t) is None or len(t.lstrip("+-").lstrip("0")) > 19:
        return None
    return int(t) if -(2**63) <= int(t) < 2**63 else None


def _score_value(cell: str) -> float | None:
    """The test's own reading of a score: ``float`` of ASCII text without ``_``."""
    t = cell.strip(ASCII_SPACE)
    if not t.isascii() or "_" in t:
        return None
    try:
        return float(t.encode())
    except ValueError:
        return None


def _value(kind: str, cell: str):
    return _grade_value(cell) if kind == "qrels" else _score_value(cell)


_JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")


def _text(table: Table, header: bytes | None, line_of_row) -> tuple[bytes, list[int]] | None:
    """The text: a header line, then ``table.lines`` (rows written by ``line_of_row``);
    and the physical line of each of them."""
    out, where = [], []
    at = 0
    if header is not None:
        out.append(header + b"\n")
        at = 1
    for line, end in zip(table.lines, table.ends, strict=True):
        text = line_of_row(table.rows[line]) if isinstance(line, int) else line
        if text is None:
            return None
        out.append(text + end)
        at += 1
        where.append(at)
    return b"".join(out), where


def write_trec(table: Table):
    def row(r):
        q, d, v = r
        if any(not c or any(ch in ASCII_SPACE for ch in c) for c in (q, d)):
            return None  # a TREC field is never empty and holds no whitespace
        if q.startswith("#") or re.search("[\ud800-\udfff]", q + d):
            return None  # a comment; no UTF-8 text holds a lone surrogate
        if not v.strip(ASCII_SPACE) or any(ch in ASCII_SPACE for ch in v.strip(ASCII_SPACE)):
            return None
        if table.kind == "qrels":
            return f"{q} 0 {d} {v}".encode()
        return f"{q} Q0 {d} 1 {v} t".encode()

    return _text(table, None, row)


def write_delimited(table: Table, sep: str):
    value_name = "label" if table.kind == "qrels" else "score"

    def row(r):
        if any(re.search("[\ud800-\udfff\r\n]", c) for c in r):
            return None
        if sep == "\t":
            return None if any("\t" in c for c in r) else "\t".join(r).encode()
        buf = io.StringIO()
        csv.writer(buf, lineterminator="").writerow(r)
        return buf.getvalue().encode()

    return _text(table, sep.join(["qid", "docno", value_name]).encode(), row)


def write_jsonl(table: Table):
    key = "label" if table.kind == "qrels" else "score"

    def row(r):
        q, d, v = r
        token = v.strip(" \t")  # JSON's whitespace around a number
        if _JSON_NUMBER.fullmatch(token) is None:
            return None  # a JSON number is JSON's syntax (a string would be a type error)
        return f'{{"qid": {json.dumps(q)}, "docno": {json.dumps(d)}, "{key}": {token}}}'.encode()

    return _text(table, None, row)


def write_parquet(table: Table, path):
    if table.text_only():
        return None
    values = [_value(table.kind, r[2]) for r in table.rows]
    if any(v is None for v in values) or any(re.search("[\ud800-\udfff]", r[0] + r[1])
                                             for r in table.rows):  # fmt: skip
        return None
    t = pa.table({
        "qid": [r[0] for r in table.rows],
        "docno": [r[1] for r in table.rows],
        ("label" if table.kind == "qrels" else "score"): pa.array(
            values, pa.int64() if table.kind == "qrels" else pa.float64()),
    })  # fmt: skip
    pq.write_table(t, path)
    return path


def as_dict(table: Table):
    if table.text_only() or len({(r[0], r[1]) for r in table.rows}) < len(table.rows):
        return None  # a dict holds no lines, and one value per key
    values = [_value(table.kind, r[2]) for r in table.rows]
    if any(v is None for v in values):
        return None
    out: dict = {}
    for r, v in zip(table.rows, values, strict=True):
        out.setdefault(r[0], {})[r[1]] = v
    return out


# ------------------------------------------------------------------------------ readers


def _problem(message: str) -> str:
    """The problem of a message, as the formats are compared: without the column a table
    names, field counts and JSON syntax as one 'malformed line', positions in a line and
    the places inside duplicate messages left to :func:`_place`."""
    problem = re.sub(r" \(column '[^']*'\)", "", message)
    if re.match(r"expected .*(columns|fields)", problem) or problem.startswith(
        ("invalid JSON", "expected a JSON object")
    ):
        return "malformed line"
    return re.sub(r"at column \d+", "at column ?", problem)


_PLACE = re.compile(r"^(line|row) (\d+): ", re.S)
_FIRST_AT = re.compile(r"\(first at (line|row) (\d+)\)")


def outcome(read, table: Table, where: list[int] | None, unit: str):
    """What a reader makes of the table: ``("ok", data)`` or ``("error", place, problem)``,
    places as indexes of ``table.lines`` (``None`` for a dict and whole-file problems)."""

    def logical(u: str, n: int):
        if where is None:
            return None
        if u == "row":  # a Parquet row is the n-th data line
            return [i for i, x in enumerate(table.lines) if isinstance(x, int)][n]
        return where.index(n) if n in where else ("physical", n)

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            obj = read()
            obj.to_frame()  # what a user does next (a lone surrogate id made it raise)
    except InputError as exc:
        problem, place = exc.problem, None
        if exc.line is not None:
            place = logical("line", exc.line)
        elif (m := _PLACE.match(problem)) is not None:
            place, problem = logical(m.group(1), int(m.group(2))), problem[m.end() :]
        elif unit == "dict":
            m = re.search(r"(query id|document id|empty|score|grade|missing)", problem)
            problem = problem[m.start() :] if m else problem
        problem = _FIRST_AT.sub(lambda m: f"(first at {logical(m.group(1), int(m.group(2)))})",
                                problem)  # fmt: skip
        return ("error", place, _problem(problem))
    except Exception as exc:  # a crash: what the test exists to catch
        return ("crash", type(exc).__name__, str(exc)[:300])
    if table.kind == "qrels":
        return ("ok", obj.to_dict())
    scores = {q: {d: repr(s) for d, s in docs.items()} for q, docs in obj.to_dict().items()}
    return ("ok", obj.query_ids, scores)  # repr: bit for bit (-0.0, 5e-324)


def outcomes(table: Table, tmp_path) -> dict[str, tuple]:
    """Every reader that can take ``table``, and what it makes of it."""
    read = read_qrels if table.kind == "qrels" else read_run
    got: dict[str, tuple] = {}

    def take(name: str, source, written) -> None:
        got[name] = outcome(lambda: read(source), table, written, "line")

    mp = pytest.MonkeyPatch()
    try:
        written = write_trec(table)
        if written is not None:
            (tmp_path / "t.txt").write_bytes(written[0])
            for parser in TEXT_PARSERS:
                use_text_parser(mp, parser)
                take(f"trec-{parser}", str(tmp_path / "t.txt"), written[1])
        for fmt, sep in (("csv", ","), ("tsv", "\t")):
            written = write_delimited(table, sep)
            if written is None:
                continue
            (tmp_path / f"t.{fmt}").write_bytes(written[0])
            for reader, size in (("exact", 1 << 62), ("arrow", 0)):
                mp.setattr(headed, "ARROW_BYTES", size)
                take(f"{fmt}-{reader}", str(tmp_path / f"t.{fmt}"), written[1])
        written = write_jsonl(table)
        if written is not None:
            (tmp_path / "t.jsonl").write_bytes(written[0])
            take("jsonl-arrow", str(tmp_path / "t.jsonl"), written[1])
            mp.setattr(json_tables, "jsonl_arrow", lambda *a: None)
            take("jsonl-exact", str(tmp_path / "t.jsonl"), written[1])
        parquet = write_parquet(table, tmp_path / "t.parquet")
        if parquet is not None:
            got["parquet"] = outcome(lambda: read(str(parquet)), table, [], "row")
        mapping = as_dict(table)
        if mapping is not None:
            got["dict"] = outcome(lambda: read(mapping), table, None, "dict")
    finally:
        mp.undo()
    return got


def _comparable(result: tuple, other: tuple) -> tuple:
    """``result`` as it compares with ``other``: a dict's error has no place."""
    if result[0] == "error" and (result[1] is None or other[1] is None):
        return ("error", None, result[2])
    return result


def check(table: Table, tmp_path, exact: bool) -> Counter:
    got = outcomes(table, tmp_path)
    crashes = {k: v for k, v in got.items() if v[0] == "crash"}
    assert not crashes, (table, crashes)
    if not got:  # no format holds it (a lone surrogate in a JSON number's table...)
        return Counter({"tables": 1, "no reader": 1})
    reference_name, reference = next(iter(got.items()))
    for name, result in got.items():
        if exact:
            assert _comparable(result, reference) == _comparable(reference, result), (
                table, reference_name, reference, name, result)  # fmt: skip
        else:
            assert result[0] == reference[0], (table, reference_name, reference, name, result)
            if result[0] == "ok":
                assert result == reference, (table, reference_name, name)
    return Counter({"tables": 1, reference[0]: 1, "readers": len(got),
                    **{f"{k.split('-')[0]} took part": 1 for k in got}})  # fmt: skip


# -------------------------------------------------------------------------------- tests

_HEALTH = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large]


BASES = [
    Table("qrels", [["1", "a", "1"], ["1", "b", "0"], ["2", "a", "2"]], [0, 1, 2], [b"\n"] * 3),
    Table("run", [["1", "a", "2.5"], ["1", "b", "1"], ["2", "a", "-0.5"]], [0, 1, 2], [b"\n"] * 3),
]


@pytest.mark.parametrize("base", BASES, ids=["qrels", "run"])
@pytest.mark.parametrize(
    ("how", "value"),
    [(how, value) for how, values in DAMAGES.items() for value in values],
    ids=lambda v: repr(v)[:20],
)
def test_each_damage_gives_the_same_result_or_error_in_every_format(tmp_path, base, how, value):
    """Every damage with every value, on one small table, at each place of its kind."""
    for place in range(3):
        check(apply(base, how, value, lambda n, p=place: min(p, max(n - 1, 0))), tmp_path, True)


@settings(max_examples=300, deadline=None, suppress_health_check=_HEALTH)
@given(table=tables(), data=st.data())
def test_one_damage_gives_the_same_result_or_error_in_every_format(tmp_path, table, data):
    check(damage(table, data), tmp_path, exact=True)


@settings(max_examples=100, deadline=None, suppress_health_check=_HEALTH)
@given(table=tables(), data=st.data(), n=st.integers(2, 3))
def test_several_damages_give_the_same_verdict_in_every_format(tmp_path, table, data, n):
    for _ in range(n):
        table = damage(table, data)
    check(table, tmp_path, exact=False)


@settings(max_examples=60, deadline=None, suppress_health_check=_HEALTH)
@given(table=tables())
def test_undamaged_tables_read_the_same_in_every_format(tmp_path, table):
    counts = check(table, tmp_path, exact=True)
    assert counts["ok"] == 1  # generated tables are valid: every reader accepts them


@pytest.mark.slow
def test_campaign_across_formats(tmp_path, capsys):
    """A fixed-seed campaign of thousands of damaged tables; prints its counts."""
    tally: Counter = Counter()

    @settings(max_examples=2500, deadline=None, database=None, suppress_health_check=_HEALTH)
    @given(table=tables(), data=st.data(), n=st.sampled_from([1, 1, 1, 2, 3]))
    def campaign(table, data, n):
        for _ in range(n):
            table = damage(table, data)
        tally.update(check(table, tmp_path, exact=n == 1))

    campaign()
    with capsys.disabled():
        print(f"\ndifferential campaign: {dict(sorted(tally.items()))}")
    assert tally["tables"] >= 2000 and tally["ok"] and tally["error"]
