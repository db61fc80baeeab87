"""report/table.py and report/delimited.py: the one aligned-text table and the one CSV/TSV
writer, checked against hand-written layouts, rich's own ``Table``, an independent display
width and the standard library's CSV reader."""

from __future__ import annotations

import csv
import io
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import run_cli
from cranfield.render.delimited import delimited
from cranfield.render.table import escape_controls, table_lines, text_table


def test_layout_by_hand():
    # two-space gaps, dashes under the header, labels left, numbers right, no trailing space
    text = text_table(["run", "AP", "P@10"], [["bm25", "0.2142", "0.36"], ["x", "nan", ""]])
    assert text == ("run       AP  P@10\n----  ------  ----\nbm25  0.2142  0.36\nx        nan\n")
    lines = table_lines(["a", "b", "c"], [["1", "2", "3"]], left=[False, True, False], rule=False)
    assert lines == ["a  b  c", "1  2  3"]
    assert table_lines(["run", "query"], [], left=2) == ["run  query", "---  -----"]
    with pytest.raises(ValueError, match="one cell per column"):
        table_lines(["a", "b"], [["1"]])


def test_wide_characters_and_combining_marks_align():
    # 日本 takes 4 cells, é written as e + U+0301 takes 1, 👍 takes 2
    lines = table_lines(["run", "AP"], [["日本", "0.1"], ["e\u0301x", "0.25"], ["👍", "1"]])
    assert lines == [
        "run     AP",
        "----  ----",
        "日本   0.1",
        "e\u0301x    0.25",
        "👍       1",
    ]


def _width(s: str) -> int:
    """Display cells by the Unicode tables: wide/fullwidth 2, combining 0, others 1."""
    return sum(
        0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1
        for ch in s
    )


def test_controls_cannot_reach_the_terminal():
    name = "a\x1b[31mb\tc\nd\x7f\x9b\u202eevil"
    assert escape_controls(name) == "a\\x1b[31mb\\x09c\\x0ad\\x7f\\x9b\\u202eevil"
    text = text_table(["run", "AP"], [[name, "0.5"]])
    assert all(ch == "\n" or (ch.isprintable() and ch != "\u202e") for ch in text)
    assert "a\\x1b[31mb\\x09c\\x0ad\\x7f\\x9b\\u202eevil  0.5" in text


def _rich_recipe(head, rows, lefts):
    """The table as rich's ``Table`` lays it out (the recipe report/table.py follows)."""
    from rich.cells import cell_len
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    table = Table(box=None, show_edge=False, pad_edge=False, padding=(0, 2, 0, 0))
    for h, lf in zip(head, lefts, strict=True):
        table.add_column(Text(h), justify="left" if lf else "right", no_wrap=True)
    widths = [max(cell_len(c) for c in col) for col in zip(head, *rows, strict=True)]
    table.add_row(*(Text("-" * w) for w in widths))
    for r in rows:
        table.add_row(*(Text(c) for c in r))
    out = io.StringIO()
    console = Console(file=out, width=10**5, color_system=None, legacy_windows=False)
    console.print(table)
    return [x.rstrip(" ") for x in out.getvalue().split("\n")[:-1]]


PIECES = ["a", "Z", "7", ".", "-", "_", "é", "e\u0301", "日", "本", "ｱ", "한", "👍", "Ω", "$", "|"]
CELL = st.lists(st.sampled_from(PIECES), min_size=1, max_size=8).map("".join)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.integers(1, 5).flatmap(lambda n: st.tuples(
    st.lists(CELL, min_size=n, max_size=n),
    st.lists(st.lists(CELL, min_size=n, max_size=n), max_size=6),
    st.lists(st.booleans(), min_size=n, max_size=n),
)))  # fmt: skip
def test_agrees_with_rich_table(case):
    head, rows, lefts = case
    assert table_lines(head, rows, left=lefts) == _rich_recipe(head, rows, lefts)
    # and the columns line up on the screen, by an independent width count
    lines = table_lines(head, rows, left=lefts)
    widths = [max(_width(c) for c in col) for col in zip(head, *rows, strict=True)]
    total = sum(widths) + 2 * (len(widths) - 1)
    for line, cells in zip([lines[0], *lines[2:]], [head, *rows], strict=True):
        if lefts[-1]:
            assert _width(line) == total - (widths[-1] - _width(cells[-1]))
        else:
            assert _width(line) == total


def test_evaluate_table_aligns_wide_run_names(tmp_path):
    qrels = tmp_path / "q.txt"
    qrels.write_text("1 0 d1 1\n1 0 d2 0\n")
    runs = []
    for name in ("bm25", "日本語é", "👍run"):
        p = tmp_path / name
        p.write_text("1 Q0 d1 1 2.0 x\n1 Q0 d2 2 1.0 x\n")
        runs.append(str(p))

    out = run_cli("evaluate", str(qrels), *runs, "-m", "AP", "-m", "P@1")
    assert out.returncode == 0, out.stderr.decode()
    lines = out.stdout.decode().split("\n\n")[0].splitlines()  # the table (then its note)
    assert len({_width(x) for x in lines}) == 1  # every line ends at the same screen column
    assert [x.split()[0] for x in lines[2:]] == ["bm25", "日本語é", "👍run"]


def test_large_tables_measure_each_cell_once(monkeypatch):
    """10,000 rows: each cell's display width is measured once and rich's Table (which took
    some 4 s here) is not used: work that grows with the cells, checked without a clock."""
    import rich.cells
    import rich.table

    calls = []
    real = rich.cells.cell_len
    monkeypatch.setattr(rich.cells, "cell_len", lambda text: calls.append(1) or real(text))
    monkeypatch.setattr(rich.table, "Table", None)  # any use fails
    rows = [[f"run{i % 7}", f"q{i}", *(f"{i / 7:.4f}" for _ in range(8))] for i in range(10_000)]
    lines = table_lines(["run", "query", *(f"m{k}" for k in range(8))], rows, left=2)
    assert len(calls) == 10_001 * 10
    assert len(lines) == 10_002 and len({len(x) for x in lines[2:]}) == 1
    # widths: 'run6', 'q9999', and the largest value 9999 / 7 = 1428.4286 (9 characters)
    assert lines[-1] == "  ".join(["run3", "q9999", *["1428.4286"] * 8])
    assert lines[2] == "  ".join(["run0", "q0   ", *["   0.0000"] * 8])


# -- CSV / TSV ----------------------------------------------------------------------------------


def test_csv_quoting_by_hand():
    text = delimited(["run", "AP"], [["a,b", "1"], ['say "x"', "2"], ["l\nf", "3"], ["c\rr", "4"]])
    assert text == 'run,AP\n"a,b",1\n"say ""x""",2\n"l\nf",3\n"c\rr",4\n'
    assert delimited(["a", "b"], [["x\ty", "1,2"]], "\t") == 'a\tb\n"x\ty"\t1,2\n'


@settings(max_examples=200, deadline=None, derandomize=True)
@given(
    st.lists(
        st.lists(st.text(alphabet=st.sampled_from('ab ,;\t"\r\n\'é日\\'), max_size=6), min_size=3,
                 max_size=3),
        max_size=5,
    ),
    st.sampled_from([",", "\t"]),
)  # fmt: skip
def test_csv_reads_back(rows, sep):
    text = delimited(["x", "y", "z"], rows, sep)
    back = list(csv.reader(io.StringIO(text, newline=""), delimiter=sep))
    assert back == [["x", "y", "z"], *rows]


HOSTILE = ['a,"b"', "tab\there", "cr\rlf\n", "日本|x"]


@pytest.mark.parametrize("fmt, sep", [("csv", ","), ("tsv", "\t")])
def test_evaluate_csv_reads_back_with_hostile_file_names(tmp_path, fmt, sep):
    (tmp_path / "q").write_text("1 0 d1 1\n1 0 d2 0\n2 0 d1 1\n")
    for name in HOSTILE:
        (tmp_path / name).write_text("1 Q0 d1 1 2.0 x\n1 Q0 d2 2 1.0 x\n2 Q0 d2 1 1.0 x\n")
    out = run_cli("evaluate", "q", *HOSTILE, "-m", "AP", "-q", "-f", fmt, cwd=tmp_path)
    assert out.returncode == 0, out.stderr.decode()
    back = list(csv.reader(io.StringIO(out.stdout.decode(), newline=""), delimiter=sep))
    assert back[0][:2] == ["run", "query_id"]
    assert [r[0] for r in back[1:]] == [n for n in HOSTILE for _ in range(3)]
    assert [r[1] for r in back[1:]] == ["1", "2", "all"] * len(HOSTILE)
    # AP of query 1: d1 relevant at rank 1 -> 1.0; query 2: d1 not retrieved -> 0.0
    assert [float(r[6]) for r in back[1:4]] == [1.0, 0.0, 0.5]
