"""The compiled core's judging (``_core.order_trec``, ``_core.judge_grades``) against two
oracles on generated and mutated inputs: a plain Python sort and dictionary lookup written
for the test, and the numpy ordering and join the core replaced (``order_run`` and
``Qrels.grades_of``)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cranfield.base.arrow import strings_arrow
from cranfield.data.id_column import IdColumn
from cranfield.data.tables import MISSING, Qrels, Run
from cranfield.judging.join import judge
from cranfield.judging.ordering import order_run
from cranfield.judging.rankings import NOT_IN_QRELS, UNJUDGED

# ids chosen so that byte order, prefixes and non-ASCII text matter
QUERIES = ["q1", "q10", "q2", "Q", "é"]
DOCS = ["d", "d1", "d10", "d2", "D", "é", "e\u0301", "zz", "a", "ü"]
# longer than the core's 8-byte sort prefix: equal prefixes, a NUL after a shorter id
DOCS += ["document-1", "document-10", "document-2", "documentA", "d1\x00", "d1\x00\x00x"]
SCORES = [0.0, -0.0, 1.0, 2.5, -1.0, 1e300, 7.25]
GRADES = [MISSING, -5, -1, 0, 1, 3]

rows_st = st.lists(
    st.tuples(st.sampled_from(QUERIES), st.sampled_from(DOCS), st.sampled_from(SCORES)),
    min_size=0,
    max_size=40,
)
qrels_st = st.lists(
    st.tuples(st.sampled_from(QUERIES), st.sampled_from(DOCS), st.sampled_from(GRADES)),
    min_size=1,
    max_size=30,
)


def make_run(rows: list[tuple[str, str, float]], arrow: bool) -> Run:
    qids = list(dict.fromkeys(q for q, _, _ in rows))
    code = {q: i for i, q in enumerate(qids)}
    docs = [d for _, d, _ in rows]
    return Run(
        name="r",
        query_ids=tuple(qids),
        qcodes=np.array([code[q] for q, _, _ in rows], dtype=np.int32),
        docs=IdColumn(strings_arrow(docs)) if arrow else IdColumn(docs),
        scores=np.array([s for _, _, s in rows], dtype=np.float64),
    )


def make_qrels(rows: list[tuple[str, str, int]]) -> Qrels:
    return Qrels.from_rows(
        [q for q, _, _ in rows], [d for _, d, _ in rows], np.array([g for _, _, g in rows])
    )


def brute_force(qrels_rows, run_rows, depth=None):
    """(query ids, per query [(grade, score)], tie ids): trec_eval's order by a plain sort
    (score descending, then document id descending in byte order), grades by lookup."""
    grade: dict[tuple[str, str], int] = {}
    for q, d, g in qrels_rows:
        grade.setdefault((q, d), g)
    judged = {q for q, _, _ in qrels_rows}
    queries = sorted({q for q, _, _ in run_rows} & judged, key=lambda s: s.encode())
    ranked, ties, tie = [], [], -1
    for q in queries:
        mine = [(d, s) for qq, d, s in run_rows if qq == q]
        mine = sorted(mine, key=lambda x: x[0].encode(), reverse=True)  # stable
        mine = sorted(mine, key=lambda x: -x[1])
        out = []
        for k, (d, s) in enumerate(mine):
            if k == 0 or s != mine[k - 1][1]:
                tie += 1  # tie groups are numbered before a depth cut
            if depth is not None and k >= depth:
                continue
            ties.append(tie)
            g = grade.get((q, d))
            out.append((NOT_IN_QRELS if g is None else UNJUDGED if g < 0 else g, s))
        ranked.append(out)
    return queries, ranked, ties


def numpy_oracle(qrels: Qrels, run: Run):
    """The numpy ordering and join the core replaced: ``order_run`` (trec) and the grades of
    ``Qrels.grades_of`` looked up through the qrels vocabulary."""
    evaluated = [q for q in qrels.query_ids if q in set(run.query_ids)]
    seg = {q: i for i, q in enumerate(evaluated)}
    seg_of_query = np.array([seg.get(q, -1) for q in run.query_ids], dtype=np.int64)
    o = order_run(run, seg_of_query, len(evaluated), ties="trec", seed=0)
    code = run.docs.lookup(qrels.doc_index) if len(run) else np.zeros(0, dtype=np.int64)
    qidx = np.array([qrels.query_index[q] for q in evaluated], dtype=np.int64)
    segment = np.repeat(np.arange(len(evaluated)), o.lengths)
    g = qrels.grades_of(qidx[segment], code[o.rows])
    grades = np.where(g == MISSING, NOT_IN_QRELS, np.where(g < 0, UNJUDGED, g))
    return o, grades


def check(qrels_rows, run_rows, arrow: bool, depth=None) -> None:
    qrels, run = make_qrels(qrels_rows), make_run(run_rows, arrow)
    jr = judge(qrels, run, depth=depth)
    queries, ranked, ties = brute_force(qrels_rows, run_rows, depth)
    assert list(jr.query_ids) == queries
    got = [
        list(zip(jr.grades[a:b].tolist(), jr.scores[a:b].tolist(), strict=True))
        for a, b in zip(jr.offsets[:-1].tolist(), jr.offsets[1:].tolist(), strict=True)
    ]
    assert got == ranked
    assert jr.tie_ids.tolist() == ties


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(qrels_st, rows_st, st.booleans())
def test_judged_as_a_plain_sort_and_lookup(qrels_rows, run_rows, arrow):
    check(qrels_rows, run_rows, arrow)


@settings(max_examples=100, deadline=None)
@given(qrels_st, rows_st, st.booleans(), st.integers(0, 6))
def test_a_depth_cut_after_the_core_order(qrels_rows, run_rows, arrow, depth):
    check(qrels_rows, run_rows, arrow, depth)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(qrels_st, rows_st, st.booleans())
def test_the_core_equals_the_numpy_ordering_and_join(qrels_rows, run_rows, arrow):
    from cranfield import _core
    from cranfield.judging.join import qrels_index

    qrels, run = make_qrels(qrels_rows), make_run(run_rows, arrow)
    o, grades = numpy_oracle(qrels, run)
    evaluated = [q for q in qrels.query_ids if q in set(run.query_ids)]
    seg = {q: i for i, q in enumerate(evaluated)}
    seg_of_query = np.array([seg.get(q, -1) for q in run.query_ids], dtype=np.int64)
    docs = run.docs.to_list()
    c = _core.order_trec(seg_of_query, len(evaluated), run.qcodes, run.scores, docs)
    assert c["rows"].tolist() == o.rows.tolist()
    assert c["lengths"].tolist() == o.lengths.tolist()
    assert c["tie_ids"].tolist() == o.tie_ids.tolist()
    assert not c["identity"] or c["rows"].tolist() == list(range(len(run)))
    offsets = np.concatenate(([0], np.cumsum(c["lengths"]))).astype(np.int64)
    qidx = np.array([qrels.query_index[q] for q in evaluated], dtype=np.int64)
    g = _core.judge_grades(qrels_index(qrels), qidx, offsets, c["rows"], docs, len(run))
    assert g.tolist() == grades.tolist()


def test_a_file_in_trec_order_is_not_reordered():
    from cranfield import _core

    c = _core.order_trec(
        np.array([0, 1]),
        2,
        np.array([0, 0, 1], dtype=np.int32),
        np.array([2.0, 2.0, 1.0]),
        ["b", "a", "a"],
    )
    assert c["identity"] and c["rows"].tolist() == [0, 1, 2]
    c = _core.order_trec(
        np.array([0, 1]),
        2,
        np.array([0, 0, 1], dtype=np.int32),
        np.array([2.0, 2.0, 1.0]),
        ["a", "b", "a"],
    )
    assert not c["identity"] and c["rows"].tolist() == [1, 0, 2]


def test_the_other_tie_policies_are_joined_by_the_core():
    qrels_rows = [("q1", "a", 1), ("q1", "b", -1), ("q2", "a", 2)]
    run_rows = [("q1", "b", 1.0), ("q1", "a", 1.0), ("q1", "c", 3.0), ("q2", "a", 0.5)]
    run = make_run(run_rows, False)
    run = replace(run, ranks=np.array([3, 1, 2, 1]))
    qrels = make_qrels(qrels_rows)
    given_ = judge(qrels, run, ties="given")
    assert given_.grades.tolist() == [1, NOT_IN_QRELS, UNJUDGED, 2]
    weak = judge(qrels, run, ties="weak")
    assert weak.grades.tolist() == [NOT_IN_QRELS, UNJUDGED, 1, 2]


@pytest.mark.parametrize(
    "bad",
    [
        {"rows": np.array([0, 5])},  # a row past the run
        {"offsets": np.array([0, 1])},  # the segments do not cover the rows
        {"qseg": np.array([7])},  # no such qrels query
    ],
)
def test_bad_arguments_are_errors_not_crashes(bad):
    from cranfield import _core
    from cranfield.judging.join import qrels_index

    qrels = make_qrels([("q", "a", 1)])
    args = {
        "qseg": np.array([0]),
        "offsets": np.array([0, 2]),
        "rows": np.array([0, 1]),
    } | bad
    with pytest.raises(ValueError):
        _core.judge_grades(
            qrels_index(qrels), args["qseg"], args["offsets"], args["rows"], ["a", "b"], 2
        )


@pytest.mark.parametrize(
    "columns",
    [
        ([0, 1], ["a"], [1], []),  # no query id for the query
        ([0, 1], ["a"], [1], ["q", "r"]),  # a query id too many
        ([0, 2], ["a"], [1], ["q"]),  # the offsets past the documents
        ([1, 1], ["a"], [1], ["q"]),  # the offsets not from 0
        ([0, 1], ["a"], [1, 2], ["q"]),  # a grade too many
    ],
)
def test_an_index_of_columns_that_do_not_fit_is_an_error(columns):
    from cranfield import _core

    offsets, docs, grades, queries = columns
    with pytest.raises(ValueError, match="do not fit"):
        _core.QrelsIndex(
            np.array(offsets, dtype=np.int64), docs, np.array(grades, dtype=np.int64), queries
        )
    fitting = _core.QrelsIndex(
        np.array([0, 1], dtype=np.int64), ["a"], np.array([1], dtype=np.int64), ["q"]
    )
    assert fitting.num_queries == 1


def test_arrow_offsets_that_do_not_fit_are_an_error():
    from cranfield import _core

    offsets, data = np.array([0, 9], dtype=np.int64), np.frombuffer(b"ab", dtype=np.uint8)
    with pytest.raises(ValueError, match="offsets"):
        _core.order_trec(
            np.array([0]), 1, np.array([0], dtype=np.int32), np.array([1.0]), (offsets, data)
        )


def test_misaligned_and_strided_columns_are_judged():
    # arrays unpickled in a worker (the Dask scheduler) may be misaligned; slices are strided
    run = make_run([("q1", "a", 1.0), ("q1", "b", 2.0), ("q2", "a", 3.0)], arrow=True)
    raw = b"\0" + run.scores.tobytes()
    scores = np.frombuffer(raw, dtype=np.float64, offset=1)
    assert not scores.flags.aligned
    qcodes = np.repeat(run.qcodes, 2)[::2]
    assert not qcodes.flags.c_contiguous
    run = replace(run, scores=scores, qcodes=qcodes)
    jr = judge(make_qrels([("q1", "a", 1), ("q2", "a", 2)]), run)
    assert jr.grades.tolist() == [NOT_IN_QRELS, 1, 2]
