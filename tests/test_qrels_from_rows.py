"""``Qrels.from_rows`` (the order every small qrels input is put in) against ``sorted``:
rows already in order skip the sort and give what the sort gives."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from cranfield.data import Qrels

_IDS = st.sampled_from(["a", "b", "ab", "B", "é", "10", "9", "d1", "d10", "d2"])


@settings(max_examples=400, deadline=None)
@given(
    rows=st.lists(st.tuples(_IDS, _IDS, st.integers(-2, 3)), max_size=14),
    presort=st.sampled_from(["no", "by query", "grouped"]),
    seed=st.integers(0, 3),
)
def test_qrels_from_rows_in_order_or_not_is_the_stable_sort(rows, presort, seed):
    """Rows that hold each query in one block, its documents in order, skip the sort
    (whatever the order of the blocks); either way the result is a stable sort by query id,
    then document id (code point order), computed here by ``sorted``."""
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
