"""report/markup.py: Markdown and LaTeX tables and their escaping; ``evaluate -f
markdown|latex``, ``curve -f markdown|latex`` and compare's Markdown/LaTeX with hostile names.

Markdown is checked with a peer parser (markdown-it-py, CommonMark with GitHub's tables and
strikethrough): every cell must come back as the text that went in.  LaTeX is checked against
the escapes of the LaTeX manual (Lamport, *LaTeX: A Document Preparation System*, 2nd ed.,
sec. 2.2.1 and C.3.3), written out by hand."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cranfield.render.markup import (
    Markup,
    latex_escape,
    latex_table,
    markdown_escape,
    markdown_table,
)
from cranfield.render.table import escape_controls

markdown_it = pytest.importorskip("markdown_it")  # rich's own dependency


def _cells(markdown: str) -> list[list[str]]:
    """The text of each cell, as a CommonMark + GFM-table parser reads it; fails on any
    markup (emphasis, code, links, HTML, entities) inside a cell."""
    md = markdown_it.MarkdownIt("commonmark").enable(["table", "strikethrough"])
    rows: list[list[str]] = []
    in_row = False  # the text after a table (a note) is no cell
    for tok in md.parse(markdown):
        if tok.type in ("tr_open", "tr_close"):
            in_row = tok.type == "tr_open"
            rows += [[]] if in_row else []
        elif tok.type == "inline" and in_row:
            kinds = {c.type for c in tok.children or []}
            assert kinds <= {"text"}, (kinds, markdown)
            rows[-1].append("".join(c.content for c in tok.children or []))
    return rows


def test_markdown_escape_by_hand():
    assert markdown_escape("a|b\\c") == "a\\|b\\\\c"
    assert markdown_escape("*x* `y` ~z~ $m$") == "\\*x\\* \\`y\\` \\~z\\~ \\$m\\$"
    # in context only: intraword _, < before a tag, & of an entity, [ of a link
    assert markdown_escape("p_adj d_z 日_本") == "p_adj d_z 日_本"
    assert markdown_escape("_x_ a_ _b") == "\\_x\\_ a\\_ \\_b"
    assert markdown_escape("<0.0001 <b> </i> <!-- <?") == "<0.0001 \\<b> \\</i> \\<!-- \\<?"
    assert markdown_escape("R&D &amp; &#35;") == "R&D \\&amp; \\&#35;"
    assert markdown_escape("[0.1, 0.2] [a](b) [a][b] [^1]") == (
        "[0.1, 0.2] \\[a](b) \\[a][b] \\[^1]"
    )
    assert markdown_escape("new\nline") == "new\\\\x0aline"  # a row cannot be broken
    assert markdown_escape(Markup("0.5<sup>a</sup>")) == "0.5<sup>a</sup>"


def test_markdown_table_by_hand():
    lines = markdown_table(["run", "AP"], [["a|b", "0.5"]], left=1)
    assert lines == ["| run | AP |", "|:---|---:|", "| a\\|b | 0.5 |"]
    assert markdown_table(["x", "y"], [], left=[False, True])[1] == "|---:|:---|"


NAMES = st.text(
    alphabet=st.sampled_from([*"ab1_*`~[]()<>&#;!|\\$^ é日/:", "\x07", "\n"]),
    min_size=1,
    max_size=12,
)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(st.tuples(NAMES, NAMES), min_size=1, max_size=4))
def test_markdown_cells_read_back_as_written(rows):
    text = "\n".join(markdown_table(["run", "value"], [list(r) for r in rows])) + "\n"
    parsed = _cells(text)
    assert parsed[0] == ["run", "value"]
    # a table cell is trimmed of its outer spaces (GFM spec, "Tables")
    assert parsed[1:] == [[escape_controls(c).strip(" ") for c in r] for r in rows]


LATEX = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
}


def test_latex_escape_by_hand():
    for ch, escaped in LATEX.items():
        assert latex_escape(f"a{ch}b") == f"a{escaped}b"
    assert latex_escape("run_1 & 50% {x}") == r"run\_1 \& 50\% \{x\}"
    assert latex_escape("tab\t") == r"tab\textbackslash{}x09"
    assert latex_escape(Markup(r"\textbf{1}")) == r"\textbf{1}"


@settings(max_examples=300, deadline=None, derandomize=True)
@given(NAMES)
def test_latex_leaves_no_special_character_bare(name):
    out = latex_escape(name)
    # remove every escape; what is left has none of the special characters
    bare = re.sub(r"\\(textbackslash|textasciitilde|textasciicircum|textless|textgreater|"
                  r"textbar)\{\}|\\[&%$#_{}]", "", out)  # fmt: skip
    assert not set(bare) & set(LATEX), (name, out)
    undo = {v: k for k, v in LATEX.items()}
    back = re.sub("|".join(re.escape(v) for v in sorted(undo, key=len, reverse=True)),
                  lambda m: undo[m[0]], out)  # fmt: skip
    assert back == escape_controls(name)


def test_latex_table_by_hand():
    assert latex_table(["run", "AP"], [["a_b", "0.5"]]) == [
        r"\begin{tabular}{lr}",
        r"\toprule",
        r"run & AP \\",
        r"\midrule",
        r"a\_b & 0.5 \\",
        r"\bottomrule",
        r"\end{tabular}",
    ]


# -- through the commands -----------------------------------------------------------------------

QRELS = "1 0 d1 1\n1 0 d2 0\n2 0 d1 1\n2 0 d3 1\n"
RUN = "1 Q0 d1 1 2.0 x\n1 Q0 d2 2 1.0 x\n2 Q0 d3 1 1.0 x\n2 Q0 d1 2 0.5 x\n"
NAMES_ON_DISK = ["plain", "a|b_c*", "R&D_$x$"]


@pytest.fixture
def disk(tmp_path):
    (tmp_path / "q").write_text(QRELS)
    for name in NAMES_ON_DISK:
        (tmp_path / name).write_text(RUN)
    return tmp_path


def _cli(disk, *args):
    from conftest import run_cli

    out = run_cli(*args, cwd=disk)
    assert out.returncode == 0, out.stderr.decode()
    return out.stdout.decode()


def test_evaluate_markdown_and_latex(disk):
    args = ("evaluate", "q", *NAMES_ON_DISK, "-m", "AP", "-m", "P@1", "-m", "NumRel")
    md = _cli(disk, *args, "-f", "markdown")
    rows = _cells(md)
    assert rows[0] == ["run", "queries", "retrieved", "relevant", "rel_ret", "AP", "P@1", "NumRel"]
    # AP: query 1 = 1 (d1 at rank 1), query 2 = (1/1 + 2/2) / 2 = 1; P@1 = 1; NumRel 1 + 2
    assert rows[1:] == [[n, "2", "4", "3", "3", "1.0000", "1.0000", "3"] for n in NAMES_ON_DISK]
    assert md.splitlines()[1] == "|:---|" + "---:|" * 7
    tex = _cli(disk, *args, "-f", "latex", "--digits", "2").splitlines()
    assert tex[:4] == [
        r"\begin{tabular}{lrrrrrrr}",
        r"\toprule",
        r"run & queries & retrieved & relevant & rel\_ret & AP & P@1 & NumRel \\",
        r"\midrule",
    ]
    assert tex[5] == r"a\textbar{}b\_c* & 2 & 4 & 3 & 3 & 1.00 & 1.00 & 3 \\"
    assert tex[6] == r"R\&D\_\$x\$ & 2 & 4 & 3 & 3 & 1.00 & 1.00 & 3 \\"
    # the table, then which queries the means are over as a LaTeX comment
    assert tex[-3:] == [
        r"\bottomrule",
        r"\end{tabular}",
        "% Means over 2 queries, every judged query of the qrels.",
    ]
    per_query = _cells(_cli(disk, "evaluate", "q", "plain", "-m", "AP", "-q", "-f", "markdown"))
    assert [r[:2] for r in per_query[1:]] == [["plain", "1"], ["plain", "2"], ["plain", "all"]]


def test_curve_markdown_and_latex(disk):
    rows = _cells(_cli(disk, "curve", "pr", "q", "plain", "--levels", "0,1", "-f", "markdown"))
    assert rows[0][:3] == ["run", "level", "value"]
    # both queries reach precision 1 at every recall level (relevant documents first)
    assert [r[:3] for r in rows[1:]] == [
        ["plain", "0.0000", "1.0000"],
        ["plain", "1.0000", "1.0000"],
    ]
    tex = _cli(disk, "curve", "pr", "q", "plain", "--levels", "0,1", "-f", "latex")
    assert tex.startswith(r"\begin{tabular}{lrr") and r"\end{tabular}" in tex


def test_compare_markdown_and_latex_show_names_as_written(disk):
    args = ("compare", "q", *NAMES_ON_DISK, "-m", "AP", "-m", "P@1")
    md = _cli(disk, *args, "-f", "markdown")
    tables = md.split("\n\n")
    means = _cells(next(t for t in tables if t.startswith("|  | run |")))
    assert [r[1] for r in means[1:]] == NAMES_ON_DISK
    assert "*3 runs, 2 queries" in md
    tex = _cli(disk, *args, "-f", "latex")
    assert r"(b) & a\textbar{}b\_c* &" in tex and r"R\&D\_\$x\$" in tex
