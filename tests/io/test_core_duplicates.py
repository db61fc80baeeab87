"""The duplicate check of runs (``_core.first_duplicate``, used by
``cranfield.io.validate.check_run_duplicates``) against a dictionary scan written for the test,
on generated runs grouped by query or not, with Python or Arrow ids; and its error through a
run read in pieces."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cranfield.base.arrow import strings_arrow
from cranfield.data.id_column import IdColumn
from cranfield.errors import InputError
from cranfield.io.trec.core import core_ids

DOCS = ["a", "b", "ab", "é", "document-1", "document-10", "d\x00"]


def brute_force(qcodes: list[int], docs: list[str]) -> tuple[int, int] | None:
    first: dict[tuple[int, str], int] = {}
    for r, key in enumerate(zip(qcodes, docs, strict=True)):
        if key in first:
            return r, first[key]
        first[key] = r
    return None


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 3), st.sampled_from(DOCS)), max_size=30),
    st.booleans(),
    st.booleans(),
)
def test_the_first_duplicate_as_a_dictionary_scan(rows, grouped, arrow):
    from cranfield import _core

    if grouped:
        rows = sorted(rows, key=lambda r: r[0])  # stable: each query in one block
    qcodes = [q for q, _ in rows]
    docs = [d for _, d in rows]
    column = IdColumn(strings_arrow(docs)) if arrow else IdColumn(docs)
    got = _core.first_duplicate(np.array(qcodes, dtype=np.int32), core_ids(column))
    assert got == brute_force(qcodes, docs)


def test_a_duplicate_across_pieces_names_both_lines(tmp_path, monkeypatch):
    from cranfield.io import read_run
    from cranfield.io.trec import run_pieces
    from cranfield.io.trec import text as text_io

    lines = [f"q{q} Q0 d{d} {d + 1} {100 - d} t\n" for q in range(5) for d in range(40)]
    lines.insert(150, "q3 Q0 d2 99 0 t\n")  # q3's d2 is line 123 (q3 starts at line 121)
    (tmp_path / "r").write_text("".join(lines))
    monkeypatch.setattr(text_io, "PIECES_FROM_BYTES", 0)
    monkeypatch.setattr(run_pieces, "PIECE_BYTES", 300)
    with pytest.raises(InputError) as e:
        read_run(tmp_path / "r")
    assert "line 151" in str(e.value)
    assert "document 'd2' is listed twice for query 'q3' (first at line 123)" in str(e.value)
