"""``Qrels.from_rows`` and ``Qrels.from_blocks`` (the order every small qrels input is put in)
against ``sorted``: rows that hold each query in one block are sorted block by block, and give
what one sort of all the rows gives."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cranfield import ParameterError
from cranfield.data.tables import Qrels

_IDS = st.sampled_from(["a", "b", "ab", "B", "é", "10", "9", "d1", "d10", "d2"])


@settings(max_examples=400, deadline=None)
@given(
    rows=st.lists(st.tuples(_IDS, _IDS, st.integers(-2, 3)), max_size=14),
    presort=st.sampled_from(["no", "by query", "grouped"]),
    seed=st.integers(0, 3),
)
def test_qrels_from_rows_in_order_or_not_is_the_stable_sort(rows, presort, seed):
    """Rows that hold each query in one block (whatever the order of the blocks) are sorted
    block by block, others at once; either way the result is a stable sort by query id, then
    document id (code point order), computed here by ``sorted``."""
    if presort == "by query":
        rows = sorted(rows, key=lambda r: (r[0], r[1]))
    elif presort == "grouped":  # the queries in another order (numeric, say)
        rank = {q: sum(map(ord, q)) * (seed + 1) % 7 for q in {r[0] for r in rows}}
        rows = sorted(rows, key=lambda r: (rank[r[0]], r[0], r[1]))
    lines = np.arange(1, len(rows) + 1)
    q = Qrels.from_rows(
        [r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows], lines=lines
    )
    order = sorted(range(len(rows)), key=lambda i: (rows[i][0], rows[i][1]))
    assert list(q.query_ids) == sorted({r[0] for r in rows})
    assert q.doc_ids == [rows[i][1] for i in order]
    assert q.grades.tolist() == [rows[i][2] for i in order]
    assert q.lines.tolist() == [i + 1 for i in order]
    sizes = [sum(r[0] == qid for r in rows) for qid in q.query_ids]
    assert np.diff(q.offsets).tolist() == sizes
    lines[:] = 0  # the caller's arrays are not the qrels'
    assert q.lines.tolist() == [i + 1 for i in order]


def _expected(rows):
    order = sorted(range(len(rows)), key=lambda i: (rows[i][0], rows[i][1]))
    return order, sorted({r[0] for r in rows})


@settings(max_examples=400, deadline=None)
@given(
    blocks=st.lists(
        st.tuples(_IDS, st.lists(st.tuples(_IDS, st.integers(-2, 3)), min_size=1, max_size=6)),
        max_size=6,
        unique_by=lambda b: b[0],
    ),
)
def test_qrels_from_blocks_is_the_stable_sort_and_from_rows_agrees(blocks):
    """One query id per block (the blocks in any order, their documents in any order, a
    document repeated within a block) gives the stable sort by (query, document), as
    ``from_rows`` does on the same rows with an id per row."""
    rows = [(q, d, g) for q, docs in blocks for d, g in docs]
    starts = np.cumsum([0] + [len(docs) for _, docs in blocks])[:-1]
    lines = np.arange(1, len(rows) + 1)
    q = Qrels.from_blocks(
        [b[0] for b in blocks], starts, [r[1] for r in rows], [r[2] for r in rows], lines=lines
    )
    order, qids = _expected(rows)
    assert list(q.query_ids) == qids
    assert q.doc_ids == [rows[i][1] for i in order]
    assert q.grades.tolist() == [rows[i][2] for i in order]
    assert q.lines.tolist() == [i + 1 for i in order]
    assert np.diff(q.offsets).tolist() == [sum(r[0] == x for r in rows) for x in qids]
    r = Qrels.from_rows(
        [r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows], lines=lines
    )
    assert (r.query_ids, r.doc_ids, r.grades.tolist(), r.offsets.tolist()) == (
        q.query_ids,
        q.doc_ids,
        q.grades.tolist(),
        q.offsets.tolist(),
    )


@pytest.mark.parametrize(
    ("qids", "starts", "n", "why"),
    [
        (["a", "a"], [0, 1], 2, "names two blocks"),
        (["a", "b"], [0], 2, "one start per block"),
        (["a", "b"], [1, 2], 3, "the first at row 0"),
        (["a", "b"], [0, 0], 2, "must increase"),
        (["a", "b", "c"], [0, 2, 1], 3, "must increase"),
        (["a", "b"], [0, 2], 2, "within the rows"),
    ],
)
def test_qrels_from_blocks_refuses_blocks_that_do_not_tile_the_rows(qids, starts, n, why):
    with pytest.raises(ParameterError, match=why):
        Qrels.from_blocks(qids, np.array(starts), ["d"] * n, [1] * n)
