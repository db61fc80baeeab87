"""The diversity measures against ndeval itself: pyndeval (ndeval 4.5's C code, wrapped) is
installed with the test extras, and ir_measures computes them through it.

pyndeval ranks each query by score, ties by document id *ascending*; cranfield ranks by its
tie policy.  To compare the measures on one ranking, every run here is handed to pyndeval
with scores that encode cranfield's order, computed in the test: ``trec`` (score descending,
ties by document id descending, which is ``ndeval -traditional``) or ``given`` (the rank
column, ndeval's default).  Runs without tied scores go to ir_measures unchanged.  ndeval's
cut-offs stop at 20.  ndeval's nNRBP is NaN (0/0) for a query without a relevant subtopic,
which cranfield scores 0 (a declared undefined case).
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cranfield
from cranfield.io.trec.subtopics import Subtopics

pyndeval = pytest.importorskip("pyndeval")

CUTOFFS = (1, 2, 3, 5, 10, 20)
PY_NAMES = {
    "alpha_DCG": "alpha-DCG",
    "alpha_nDCG": "alpha-nDCG",
    "ERR_IA": "ERR-IA",
    "nERR_IA": "nERR-IA",
    "P_IA": "P-IA",
    "StRecall": "strec",
}


def _measures(judged_only: bool, alpha: float, beta: float) -> dict[str, str]:
    """cranfield measure string -> pyndeval's, for one (alpha, beta, judged_only)."""
    jo = ",judged_only=true" if judged_only else ""
    out = {}
    for k in CUTOFFS:
        out[f"alpha_DCG(alpha={alpha}{jo})@{k}"] = f"alpha-DCG@{k}"
        out[f"alpha_nDCG(alpha={alpha}{jo})@{k}"] = f"alpha-nDCG@{k}"
        if alpha == 0.5:  # ERR-IA: ndeval's alpha (ir_measures has no parameter)
            out[f"ERR_IA({jo[1:]})@{k}" if jo else f"ERR_IA@{k}"] = f"ERR-IA@{k}"
            out[f"nERR_IA({jo[1:]})@{k}" if jo else f"nERR_IA@{k}"] = f"nERR-IA@{k}"
        out[f"P_IA({jo[1:]})@{k}" if jo else f"P_IA@{k}"] = f"P-IA@{k}"
        if not judged_only:
            out[f"StRecall@{k}"] = f"strec@{k}"
    out[f"AP_IA({jo[1:]})" if jo else "AP_IA"] = "MAP-IA"
    if not judged_only:
        out[f"NRBP(alpha={alpha},beta={beta})"] = "NRBP"
        if (1.0 - alpha) * beta != 1.0:  # else ndeval's nNRBP is 0/0 (test_diversity_by_hand)
            out[f"nNRBP(alpha={alpha},beta={beta})"] = "nNRBP"
    return out


def _order(run: dict, ties: str, ranks: dict | None = None) -> dict[str, list[str]]:
    """Each query's documents in cranfield's order under ``ties``, worked out here."""
    out = {}
    for q, docs in run.items():
        if ties == "trec":  # score descending, then document id descending (bytes)
            items = sorted(sorted(docs, key=str.encode, reverse=True), key=lambda d: -docs[d])
        else:  # the rank column, ascending
            items = sorted(docs, key=lambda d: ranks[q][d])
        out[q] = items
    return out


def _pyndeval(rows, order, rel, alpha, beta, judged_only, names):
    """ndeval's values per query, the documents scored by their place in ``order``."""
    judged = {(q, d) for q, _s, d, _g in rows}
    run = [
        (q, d, float(len(docs) - i))
        for q, docs in order.items()
        for i, d in enumerate(docs)
        if not judged_only or (q, d) in judged
    ]
    ev = pyndeval.RelevanceEvaluator(
        rows, sorted(set(names)), relevance_level=rel, alpha=alpha, beta=beta
    )
    return {r["query_id"]: r for r in ev.evaluate_iter(run)}


def _compare(rows, run, rel, alpha, beta, ties="trec", ranks=None, complete=False):
    subtopics = Subtopics.from_rows(rows)
    order = _order(run, ties, ranks)
    if ties == "given":
        run = _given(order)
    for judged_only in (False, True):
        measures = _measures(judged_only, alpha, beta)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = cranfield.evaluate(
                subtopics,
                run,
                list(measures),
                subtopics=subtopics,
                rel=rel,
                ties=ties,
                complete=complete,
            )
        expect = _pyndeval(rows, order, rel, alpha, beta, judged_only, measures.values())
        assert set(res.query_ids) >= set(expect)
        for i, q in enumerate(res.query_ids):
            for j, label in enumerate(res.labels):
                got = res.values[i, j]
                if q not in expect:  # in the qrels, not in the run (complete): empty ranking
                    want = 0.0
                else:
                    want = expect[q][measures[label]]
                    want = 0.0 if math.isnan(want) else want
                assert got == pytest.approx(want, rel=0, abs=1e-12), (q, label, got, want)


def _given(order: dict[str, list[str]]):
    """A run table whose rank column is the order (scores all equal: only ranks order it)."""
    import pandas as pd

    rows = [(q, d, i + 1, 0.0) for q, docs in order.items() for i, d in enumerate(docs)]
    return pd.DataFrame(rows, columns=["query_id", "doc_id", "rank", "score"])


# ------------------------------------------------------------------ hand-made collections
ROWS = [
    ("q1", "s1", "d1", 1),
    ("q1", "s1", "d2", 2),
    ("q1", "s2", "d2", 1),
    ("q1", "s2", "d3", 1),
    ("q1", "s3", "d4", 0),  # a subtopic nothing is relevant to: not counted in S
    ("q1", "s3", "d5", -2),  # a negative judgment: judged, not relevant
    ("q2", "s1", "e1", 0),  # no relevant subtopic at all
    ("q3", "s1", "f1", 1),
    ("q3", "s2", "f1", 1),
    ("q3", "s4", "f2", 3),
    ("q3", "s1", "f3", 1),
]
RUN = {
    "q1": {"d3": 5.0, "x": 4.0, "d2": 3.0, "d5": 3.0, "d1": 1.0},
    "q2": {"e1": 1.0, "e2": 0.5},
    "q3": {"f3": 2.0, "f1": 2.0, "f2": 2.0, "y": 1.0},
    "q9": {"z": 1.0},  # no subtopic judgments: not evaluated
}


@pytest.mark.parametrize("rel", [0, 1, 2])
@pytest.mark.parametrize("alpha,beta", [(0.5, 0.5), (0.3, 0.8), (0.0, 1.0), (1.0, 0.0)])
def test_hand_made_collection_agrees_with_pyndeval(rel, alpha, beta):
    _compare(ROWS, RUN, rel, alpha, beta)


def test_given_order_is_ndevals_default_order():
    ranks = {q: {d: i + 1 for i, d in enumerate(reversed(list(docs)))} for q, docs in RUN.items()}
    _compare(ROWS, RUN, 1, 0.5, 0.5, ties="given", ranks=ranks)


def test_untied_runs_agree_with_ir_measures():
    """Through ir_measures (its pyndeval provider).  ir_measures 0.4.3's judged_only for
    these measures fails (it indexes a generator), so judged_only is checked against pyndeval
    directly, on the run filtered as ir_measures means to filter it (``_pyndeval``)."""
    import ir_measures

    run = {q: {d: s + 0.01 * i for i, (d, s) in enumerate(docs.items())} for q, docs in RUN.items()}
    qrels = [ir_measures.Qrel(q, d, g, s) for q, s, d, g in ROWS]  # iteration = subtopic
    scored = [ir_measures.ScoredDoc(q, d, s) for q, docs in run.items() for d, s in docs.items()]
    names = [
        "alpha_nDCG@20",
        "alpha_DCG(alpha=0.25)@5",
        "ERR_IA@10",
        "nERR_IA@20",
        "NRBP(beta=0.8)",
        "nNRBP",
        "AP_IA",
        "MAP_IA",
        "P_IA(rel=2)@5",
        "StRecall@2",
    ]
    ir = [
        ir_measures.alpha_nDCG @ 20,
        ir_measures.alpha_DCG(alpha=0.25) @ 5,
        ir_measures.ERR_IA @ 10,
        ir_measures.nERR_IA @ 20,
        ir_measures.NRBP(beta=0.8),
        ir_measures.nNRBP,
        ir_measures.AP_IA,
        ir_measures.MAP_IA,
        ir_measures.P_IA(rel=2) @ 5,
        ir_measures.StRecall @ 2,
    ]
    subtopics = Subtopics.from_rows(ROWS)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = cranfield.evaluate(subtopics, run, names, subtopics=subtopics)
        expect = {  # one measure per call: ir_measures 0.4.3 hands the run (a generator) to
            # its first pyndeval invocation only, so a second (alpha, beta, rel) set scores 0
            (m.query_id, str(m.measure)): m.value
            for one in ir
            for m in ir_measures.iter_calc([one], qrels, scored)
        }
    for i, q in enumerate(res.query_ids):
        for j, (label, m) in enumerate(zip(names, ir, strict=True)):
            want = expect[(q, str(m))]
            want = 0.0 if math.isnan(want) else want
            assert res.values[i, j] == pytest.approx(want, rel=0, abs=1e-12), (q, label)


# ------------------------------------------------------------------ generated collections
@st.composite
def collections(draw):
    nq = draw(st.integers(1, 6))
    rows, run = [], {}
    subtopic_names = [f"s{j}" for j in range(draw(st.integers(1, 6)))]
    for qi in range(nq):
        q = f"q{qi}"
        docs = [f"d{j}" for j in range(draw(st.integers(1, 14)))]
        for d in docs:
            for s in draw(st.lists(st.sampled_from(subtopic_names), max_size=4, unique=True)):
                rows.append((q, s, d, draw(st.integers(-1, 3))))
        ranked = draw(
            st.lists(st.sampled_from(docs + [f"u{j}" for j in range(4)]), max_size=25, unique=True)
        )
        if ranked:
            run[q] = {d: float(draw(st.integers(0, 4))) for d in ranked}  # many ties
    if not any(r[:3] == ("q0", "s0", "d0") for r in rows):  # q0 is judged and ranked
        rows.append(("q0", "s0", "d0", draw(st.integers(-1, 3))))
    run.setdefault("q0", {}).setdefault("d0", 0.0)
    return draw(st.permutations(rows)), run


@pytest.mark.slow
@settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    collections(),
    st.integers(0, 2),
    st.sampled_from([0.5, 0.25, 0.1, 0.7, 0.0, 1.0]),
    st.sampled_from([0.5, 0.9, 0.3, 1.0, 0.0]),
)
def test_generated_collections_agree_with_pyndeval(collection, rel, alpha, beta):
    rows, run = collection
    _compare(rows, run, rel, alpha, beta)


def test_queries_without_results_score_zero_under_complete():
    """With ``complete``, a topic the run misses is an empty ranking: 0 on every measure."""
    run = {q: v for q, v in RUN.items() if q != "q3"}
    _compare(ROWS, run, 1, 0.5, 0.5, complete=True)


def test_values_are_ndevals_bit_for_bit():
    """Not only within 1e-12: the same doubles, sums added in ndeval's order."""
    subtopics = Subtopics.from_rows(ROWS)
    order = _order(RUN, "trec")
    measures = _measures(False, 0.3, 0.8)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = cranfield.evaluate(subtopics, RUN, list(measures), subtopics=subtopics)
    expect = _pyndeval(ROWS, order, 1, 0.3, 0.8, False, measures.values())
    got = res.values
    want = np.array([[expect[q][measures[m]] for m in res.labels] for q in res.query_ids])
    want = np.where(np.isnan(want), 0.0, want)
    assert got.tobytes() == want.tobytes()
