"""The judging index the core builds while reading TREC qrels (issue 25: built once, from the
file's bytes, with no Python string per judgment) and its duplicate finding, against a
brute-force dict of the file's lines."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cranfield import _core
from cranfield.errors import InputError
from cranfield.io.trec.core import QRELS_INDEXES, core_array
from cranfield.io.trec.text import parse_trec_qrels
from cranfield.judging.join import qrels_index

LINES = st.lists(
    st.tuples(
        st.sampled_from(["1", "2", "10", "q"]),
        st.sampled_from(["a", "b", "c", "d0", "D"]),
        st.integers(-3, 3),
    ),
    min_size=1,
    max_size=12,
)


def _text(lines: list[tuple[str, str, int]]) -> bytes:
    return "".join(f"{q} 0 {d} {g}\n" for q, d, g in lines).encode()


def _grades(index, qrels, pairs: list[tuple[str, str]]) -> list[int]:
    """The core's grade of each (query, document) pair, one segment per pair."""
    qidx = np.array([qrels.query_index.get(q, -1) for q, _ in pairs], dtype=np.int64)
    offsets = np.arange(len(pairs) + 1, dtype=np.int64)
    rows = np.arange(len(pairs), dtype=np.int64)
    docs = [d for _, d in pairs]
    got = _core.judge_grades(index, core_array(qidx, np.int64), offsets, rows, docs, len(pairs))
    return [int(g) for g in got]


@settings(max_examples=200, deadline=None)
@given(LINES)
def test_index_read_with_the_qrels_judges_as_the_lines_say(lines):
    seen: dict[tuple[str, str], int] = {}
    duplicate = False
    for q, d, g in lines:
        duplicate |= (q, d) in seen
        seen.setdefault((q, d), g)
    if duplicate:
        with pytest.raises(InputError, match="is judged (twice|with different grades)"):
            parse_trec_qrels(_text(lines), "q.txt")
        return
    qrels = parse_trec_qrels(_text(lines), "q.txt")
    index = QRELS_INDEXES.get(qrels)
    assert index is not None and qrels_index(qrels) is index  # judge() reuses the reader's
    pairs = [(q, d) for q in ("1", "2", "10", "q", "3") for d in ("a", "b", "c", "d0", "D", "e")]
    # the codes of cranfield.judging.rankings: the grade; -2 judged below 0; -1 not judged
    expected = [-1 if p not in seen else (seen[p] if seen[p] >= 0 else -2) for p in pairs]
    got = _grades(index, qrels, pairs)
    assert got == expected
    rebuilt = _core.QrelsIndex(
        core_array(qrels.offsets, np.int64),
        list(qrels.doc_ids),
        core_array(qrels.grades, np.int64),
        list(qrels.query_ids),
    )
    assert got == _grades(rebuilt, qrels, pairs)


def test_a_document_ending_one_query_and_starting_the_next_is_not_a_duplicate():
    qrels = parse_trec_qrels(b"1 0 a 1\n1 0 b 0\n2 0 b 2\n2 0 c 1\n", "q.txt")
    assert list(qrels.doc_ids) == ["a", "b", "b", "c"]


def test_the_duplicate_found_while_reading_keeps_its_error():
    with pytest.raises(
        InputError, match=r"line 3: document 'b' is judged with different grades \(0 and 2\)"
    ):
        parse_trec_qrels(b"2 0 b 0\n1 0 b 1\n2 0 b 2\n", "q.txt")


@pytest.mark.parametrize(
    ("text", "lines", "error"),
    [
        # in order, no comment: each judgment's line is its row + 1, kept as None
        (b"1 0 a 1\n1 0 b 0\n2 0 b 2\n", None, None),
        (b"1 0 a 1\n1 0 b 0\n1 0 b 2\n", None, "line 3: document 'b'"),
        # a comment, or rows put in order: the lines kept
        (b"# c\n1 0 a 1\n1 0 b 0\n", [2, 3], None),
        (b"1 0 b 1\n1 0 a 0\n1 0 b 2\n", [2, 1, 3], "line 3: document 'b'"),
        (b"# c\n1 0 a 1\n1 0 a 0\n", [2, 3], "line 3: document 'a'"),
    ],
)
def test_the_lines_of_judgments_are_kept_where_they_are_not_their_rows(text, lines, error):
    from cranfield.io.trec.core import core_qrels

    got = core_qrels(text, "q.txt")
    assert (None if got.lines is None else got.lines.tolist()) == lines
    n = len(got.grades)
    assert [got.line_of(r) for r in range(n)] == (lines or list(range(1, n + 1)))
    if error is None:
        assert parse_trec_qrels(text, "q.txt").grades.tolist() == got.grades.tolist()
    else:
        with pytest.raises(InputError, match=error):
            parse_trec_qrels(text, "q.txt")
