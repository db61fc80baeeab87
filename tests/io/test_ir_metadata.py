"""ir_metadata (Breuer, Keller and Schaer, SIGIR 2022): the YAML block at the top of a TREC run
file becomes ``Run.metadata`` and ``Results.metadata``, through every parser and every way a run
is read (whole, in pieces, streamed block by block, cut into query ranges), and a malformed
block is one error naming the file and the line.  The expected metadata are written by hand
here, and repro_eval (the schema's authors' tool) writes and reads the peer files."""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from cranfield import evaluate
from cranfield.errors import InputError
from cranfield.io import read_run
from cranfield.io.trec import run_pieces as pieces_mod
from cranfield.io.trec import text as text_io

pytestmark = pytest.mark.filterwarnings("ignore::cranfield.CranfieldWarning")

SRC = str(Path(__file__).resolve().parents[2] / "src")

BLOCK = """\
# ir_metadata.start
# tag: bm25-rm3
# actor:
#   team: cranfield
#   role: [experimenter, author]
#
# research goal:
#   description: "a # inside a string"
#   year: 2022
# ir_metadata.end
"""
EXPECTED = {
    "tag": "bm25-rm3",
    "actor": {"team": "cranfield", "role": ["experimenter", "author"]},
    "research goal": {"description": "a # inside a string", "year": 2022},
}
BLOCK_LINES = 10


def run_lines(queries: int = 12, per_query: int = 30) -> str:
    lines = []
    for q in range(1, queries + 1):
        for r in range(1, per_query + 1):
            doc = (q * 7 + r) % 50 if per_query <= 50 else r
            lines.append(f"{q} Q0 D{doc} {r} {100 - r}.5 bm25")
    return "\n".join(lines) + "\n"


QRELS = "".join(f"{q} 0 D{d} {d % 3}\n" for q in range(1, 13) for d in range(0, 50, 3))


def write(tmp_path: Path, text: str, name: str = "run.txt", compress: bool = False) -> Path:
    p = tmp_path / name
    data = text.encode()
    p.write_bytes(gzip.compress(data) if compress else data)
    return p


@pytest.mark.parametrize("compress", [False, True])
@pytest.mark.parametrize("piece", [None, 64, 700, 5000])
def test_the_block_is_the_runs_metadata_through_every_reader(
    tmp_path, monkeypatch, text_parser, compress, piece
):
    """Every parser, plain and gzip, whole or in pieces (some smaller than the block): the
    metadata as written, every data line counted and the block's lines counted as comments."""
    body = run_lines()
    p = write(tmp_path, BLOCK + body, compress=compress)
    if piece is not None:
        monkeypatch.setattr(text_io, "PIECES_FROM_BYTES", 0)
        monkeypatch.setattr(pieces_mod, "PIECE_BYTES", piece)
    run = read_run(p)
    assert run.metadata == EXPECTED
    c = run.line_counts
    assert (c.lines, c.data, c.comments, c.blank) == (BLOCK_LINES + 360, 360, BLOCK_LINES, 0)
    assert run.line_of(0) == BLOCK_LINES + 1


def test_a_run_without_a_block_has_none(tmp_path):
    assert read_run(write(tmp_path, run_lines())).metadata is None


@pytest.mark.parametrize(
    "prefix",
    ["# a comment first\n", "\n", " # ir_metadata.start\n# tag: x\n# ir_metadata.end\n"],
)
def test_a_block_not_on_the_first_line_is_comments(tmp_path, prefix):
    """Only a block on the very first line is metadata: later, it is comment lines."""
    run = read_run(write(tmp_path, prefix + BLOCK + run_lines()))
    assert run.metadata is None
    assert run.line_counts.data == 360


def test_a_byte_order_mark_before_the_block(tmp_path):
    p = tmp_path / "run.txt"
    p.write_bytes(b"\xef\xbb\xbf" + (BLOCK + run_lines()).encode())
    assert read_run(p).metadata == EXPECTED


def test_crlf_and_an_empty_block(tmp_path):
    text = "# ir_metadata.start\r\n# ir_metadata.end\r\n" + run_lines().replace("\n", "\r\n")
    assert read_run(write(tmp_path, text)).metadata == {}


def _results_metadata(results) -> list:
    return [r.metadata for r in results]


def test_results_carry_the_metadata_whole_streamed_and_in_query_ranges(tmp_path, monkeypatch):
    """evaluate(): read whole, streamed block by block (pieces smaller than the block), and on
    an executor that cuts the file into query ranges; a run without a block gets None."""
    from cranfield.scale import query_ranges

    qrels = write(tmp_path, QRELS, "qrels.txt")
    with_block = str(write(tmp_path, BLOCK + run_lines(), "a.txt"))
    without = str(write(tmp_path, run_lines(), "b.txt"))
    lines = run_lines().splitlines(keepends=True)
    shuffled = str(write(tmp_path, BLOCK + "".join(lines[1::2] + lines[::2]), "c.txt"))
    runs = [with_block, without, shuffled]  # c is not grouped by query: read whole
    whole = evaluate(qrels, runs, ["AP"])
    assert _results_metadata(whole) == [EXPECTED, None, EXPECTED]

    monkeypatch.setattr(text_io, "PIECES_FROM_BYTES", 0)
    for piece in (64, 700):
        monkeypatch.setattr(pieces_mod, "PIECE_BYTES", piece)
        streamed = evaluate(qrels, runs, ["AP"])
        assert _results_metadata(streamed) == [EXPECTED, None, EXPECTED]
        assert streamed[0].values.tobytes() == whole[0].values.tobytes()

    monkeypatch.setattr(pieces_mod, "PIECE_BYTES", 700)
    monkeypatch.setattr(query_ranges, "RANGE_BYTES", 600)
    cuts: list = []
    real = query_ranges.cut_points
    monkeypatch.setattr(
        query_ranges, "cut_points", lambda p, n: cuts.append(real(p, n)) or cuts[-1]
    )
    with ProcessPoolExecutor(2) as pool:
        ranged = evaluate(qrels, runs, ["AP"], executor=pool)
    assert cuts and len(cuts[0]) > 3  # the runs were cut
    assert _results_metadata(ranged) == [EXPECTED, None, EXPECTED]
    assert ranged[0].values.tobytes() == whole[0].values.tobytes()


def test_a_run_in_memory_keeps_its_metadata_in_the_results(tmp_path):
    run = read_run(write(tmp_path, BLOCK + run_lines()))
    res = evaluate(write(tmp_path, QRELS, "qrels.txt"), run, ["P@5"])
    assert res.metadata == EXPECTED


# ------------------------------------------------------------------------------- errors
BAD = [
    # (text before the data lines, line, words in the message)
    ("# ir_metadata.start\n# tag: x\n# \n", 1, "no end line"),  # no data line either
    ("# ir_metadata.start\n# tag: x\n1 Q0 D1 1 1.0 t\n# ir_metadata.end\n", 3, "without '#'"),
    ("# ir_metadata.start\n# tag: x\n\n# ir_metadata.end\n", 3, "without '#'"),
    ("# ir_metadata.start\n# tag: x\n# actor: [a, b\n# ir_metadata.end\n", 4, "invalid YAML"),
    ("# ir_metadata.start\n# tag: x\n#  bad: indent\n# ir_metadata.end\n", 3, "invalid YAML"),
    ("# ir_metadata.start\n# - a\n# - b\n# ir_metadata.end\n", 2, "not a mapping"),
    ("# ir_metadata.start\n# a: &x [1]\n# b: *x\n# ir_metadata.end\n", 3, "alias"),
    (
        "# ir_metadata.start\n# tag: x\n# deep: " + "[" * 129 + "]" * 129 + "\n# ir_metadata.end\n",
        3,
        "nested more than 128",
    ),
    (
        "# ir_metadata.start\n# tag: x\n# deep: "
        + "[" * 5000
        + "]" * 5000
        + "\n# ir_metadata.end\n",
        3,
        "nested more than 128",
    ),
    (
        "# ir_metadata.start\n"
        + "".join(f"# {'  ' * i}k{i}:\n" for i in range(130))
        + "# ir_metadata.end\n",
        130,
        "nested more than 128",
    ),
]


@pytest.mark.parametrize(("text", "line", "words"), BAD)
@pytest.mark.parametrize("piece", [None, 40])
def test_a_malformed_block_is_one_error_naming_file_and_line(
    tmp_path, monkeypatch, text_parser, text, line, words, piece
):
    p = write(tmp_path, text + ("" if "no end" in words else run_lines(2, 3)))
    if piece is not None:
        monkeypatch.setattr(text_io, "PIECES_FROM_BYTES", 0)
        monkeypatch.setattr(pieces_mod, "PIECE_BYTES", piece)
    with pytest.raises(InputError) as info:
        read_run(p)
    assert info.value.source == str(p)
    assert info.value.line == line, str(info.value)
    assert words in str(info.value)


def test_the_command_line_says_it_once_with_status_2(tmp_path):
    qrels = write(tmp_path, QRELS, "qrels.txt")
    run = write(tmp_path, "# ir_metadata.start\n# tag: [x\n# ir_metadata.end\n" + run_lines(2, 3))
    env = {**os.environ, "PYTHONPATH": SRC}
    out = subprocess.run(
        [sys.executable, "-m", "cranfield", "evaluate", str(qrels), str(run), "-m", "AP"],
        capture_output=True,
        text=True,
        env=env,
    )
    assert out.returncode == 2
    assert out.stdout == ""
    assert f"{run}: line 3: ir_metadata: invalid YAML" in out.stderr
    assert "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


# ------------------------------------------------------------------------------- peer
def test_repro_eval_writes_what_cranfield_reads(tmp_path, monkeypatch):
    """repro_eval's MetadataHandler (the schema's authors' tool) annotates a run; cranfield
    reads the same metadata as repro_eval's own reader, and the same data lines.  (Its module
    imports pkg_resources, gone from recent setuptools, for a function not used here.)"""
    import types

    if "pkg_resources" not in sys.modules:
        try:
            import pkg_resources  # noqa: F401
        except ImportError:
            monkeypatch.setitem(sys.modules, "pkg_resources", types.ModuleType("pkg_resources"))
    metadata = pytest.importorskip("repro_eval.metadata")
    plain = write(tmp_path, run_lines(3, 4), "plain.txt")
    annotated = tmp_path / "annotated.txt"
    handler = metadata.MetadataHandler(str(plain))
    handler.set_metadata(metadata_dict=EXPECTED)
    handler.write_metadata(run_path=str(annotated))
    theirs = metadata.MetadataHandler.read_metadata(str(annotated))
    assert theirs == EXPECTED
    ours = read_run(annotated)
    assert ours.metadata == theirs
    assert ours.to_dict() == read_run(plain).to_dict()


# ------------------------------------------------------------------------------- writing
def test_a_written_run_keeps_its_block_and_reads_back_the_same(tmp_path):
    from cranfield.io import write_run

    src = write(tmp_path, BLOCK + "1 Q0 D1 1 0.30000000000000004 t\n2 Q0 D9 1 -1e-300 t\n")
    run = read_run(src)
    out = tmp_path / "out.txt"
    write_run(run, out)
    text = out.read_text()
    assert text.startswith("# ir_metadata.start\n# tag: bm25-rm3\n")
    assert text.endswith(
        "# ir_metadata.end\n1 Q0 D1 1 0.30000000000000004 t\n2 Q0 D9 1 -1e-300 t\n"
    )
    back = read_run(out)
    assert back.metadata == EXPECTED
    assert back.to_dict() == run.to_dict() and back.tag == "t"
    assert back.ranks.tolist() == [1, 1]


def test_a_written_block_is_read_by_repro_eval(tmp_path, monkeypatch):
    from cranfield.io import write_run

    if "pkg_resources" not in sys.modules:
        import types

        monkeypatch.setitem(sys.modules, "pkg_resources", types.ModuleType("pkg_resources"))
    metadata = pytest.importorskip("repro_eval.metadata")
    out = tmp_path / "out.txt"
    write_run(read_run(write(tmp_path, BLOCK + run_lines(2, 2))), out)
    assert metadata.MetadataHandler.read_metadata(str(out)) == EXPECTED


def test_a_run_without_ranks_or_metadata_is_written_with_ranks_in_order(tmp_path):
    from cranfield.io import write_run

    out = tmp_path / "out.txt"
    write_run({"q2": {"a": 1.5}, "q1": {"b": 2.0, "c": 3.0}}, out, tag="mine")
    lines = out.read_text().splitlines()
    assert sorted(lines) == ["q1 Q0 b 1 2.0 mine", "q1 Q0 c 2 3.0 mine", "q2 Q0 a 1 1.5 mine"]


# ------------------------------------------------------------------------------- report
def test_the_report_shows_each_runs_metadata(tmp_path):
    import html

    import cranfield

    block = BLOCK.replace("bm25-rm3", "'<b>bm25</b> & co'")
    a = write(tmp_path, block + run_lines(), "a.txt")
    b = write(tmp_path, run_lines(), "b.txt")
    page = cranfield.report(write(tmp_path, QRELS, "qrels.txt"), [a, b], ["AP"]).html
    section = page[page.index('id="run-metadata"') :]
    section = section[: section.index("</section>")]
    assert section.count("<details") == 1  # b has none
    assert "<summary>a.txt</summary>" in section
    assert "<b>bm25" not in section  # escaped
    shown = html.unescape(section[section.index("<pre>") + 5 : section.index("</pre>")])
    import yaml

    assert yaml.safe_load(shown) == {**EXPECTED, "tag": "<b>bm25</b> & co"}
    assert (
        cranfield.report(
            write(tmp_path, QRELS, "qrels.txt"), [b, b], ["AP"], names=["x", "y"]
        ).html.count('id="run-metadata"')
        == 0
    )


def test_the_json_output_holds_the_metadata_as_json_can(tmp_path, cli):
    """YAML dates, NaN, sets and non-text keys become what JSON holds (ISO dates, null,
    lists, text keys); a run without a block has no metadata key.  Read from standard input."""
    import json

    block = (
        "# ir_metadata.start\n# tag: x\n# date: 2022-07-11\n# score: .nan\n"
        "# ids: !!set {b: null, a: null}\n# 3: three\n# ir_metadata.end\n"
    )
    qrels = write(tmp_path, QRELS, "qrels.txt")
    other = write(tmp_path, run_lines(), "b.txt")
    out = cli(
        "evaluate", str(qrels), "-", str(other), "-m", "AP", "-f", "json",
        input=(block + run_lines()).encode(),
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    runs = json.loads(out.stdout)["runs"]
    assert runs[0]["metadata"] == {
        "tag": "x", "date": "2022-07-11", "score": None, "ids": ["a", "b"], "3": "three"
    }  # fmt: skip
    assert "metadata" not in runs[1]


def test_a_large_run_at_the_real_sizes(tmp_path):
    """A run of more than 4 MiB, with nothing lowered: read in pieces, by Arrow, streamed."""
    body = run_lines(queries=200, per_query=1000)  # about 5 MiB
    assert len(body) >= text_io.PIECES_FROM_BYTES
    p = write(tmp_path, BLOCK + body)
    assert text_io.in_pieces(p)
    run = read_run(p)
    assert run.metadata == EXPECTED
    assert (run.line_counts.data, run.line_counts.comments) == (200_000, BLOCK_LINES)
    qrels = write(tmp_path, QRELS, "qrels.txt")
    assert evaluate(qrels, p, ["P@5"]).metadata == EXPECTED
