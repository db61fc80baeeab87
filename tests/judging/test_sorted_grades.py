"""Each query's qrels grades sorted descending (``cranfield.judging.join.sorted_grades``, what
every measure reading the ideal ranking gets), against a brute-force sort per query: few grade
levels (counted, no sort), levels far apart up to the int64 extremes (sorted), consecutive
queries (a slice of the qrels) and any subset of them."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from cranfield.data.tables import Qrels
from cranfield.judging.join import sorted_grades

GRADES = st.one_of(
    st.integers(-2, 4),
    st.integers(-(2**63), 2**63 - 1),
    st.sampled_from([-(2**63), 2**63 - 1, 0, 10**12]),
)


@settings(max_examples=300, deadline=None)
@given(
    judged=st.lists(st.lists(GRADES, max_size=12), min_size=1, max_size=8),
    data=st.data(),
)
def test_each_querys_grades_descending_as_a_plain_sort_gives_them(judged, data) -> None:
    qids, docs, grades = [], [], []
    for q, gs in enumerate(judged):
        for d, g in enumerate(gs):
            qids.append(f"q{q}")
            docs.append(f"d{d}")
            grades.append(g)
    if not qids:
        return
    qrels = Qrels.from_rows(qids, docs, np.array(grades, dtype=np.int64))
    n = qrels.num_queries
    picked = data.draw(st.lists(st.integers(0, n - 1), unique=True, max_size=n))
    if data.draw(st.booleans()):
        start = data.draw(st.integers(0, n - 1))
        picked = list(range(start, data.draw(st.integers(start, n - 1)) + 1))
    qidx = np.array(sorted(picked), dtype=np.int64)
    off, got = sorted_grades(qrels, qidx)
    expected = [
        sorted(qrels.grades[qrels.offsets[q] : qrels.offsets[q + 1]].tolist())[::-1]
        for q in qidx.tolist()
    ]
    assert off.tolist() == np.cumsum([0, *map(len, expected)]).tolist()
    assert got.dtype == np.int64
    assert got.tolist() == [g for gs in expected for g in gs]
