"""cranfield.compat.ir_measures' readers and records (issue 26's fast paths): a reader's
records handed over unstarted, half used, or as a list, and other packages' records, give
ir_measures' own values and records."""

from __future__ import annotations

import pytest

from cranfield.compat import ir_measures as workalike

peer = pytest.importorskip("ir_measures")

QRELS = "q1 0 d1 2\nq1 0 d2 0\nq1 0 d3 1\nq1 0 d4 -1\nq2 0 d1 1\nq3 0 d9 1\n"
RUN = (
    "q1 Q0 d1 1 2.5 r\nq1 Q0 d5 2 2.5 r\nq1 Q0 d3 3 1.5 r\nq1 Q0 d4 4 1.0 r\n"
    "q2 Q0 d7 1 3.0 r\nq2 Q0 d1 2 3.0 r\nq4 Q0 d1 1 1.0 r\n"
)
NAMES = ["AP", "nDCG@3", "P@2", "RR", "Judged@2", "NumRet"]


def values(module, qrels, run) -> dict:
    measures = [module.parse_measure(m) for m in NAMES]
    return {str(m): v for m, v in module.calc_aggregate(measures, qrels, run).items()}


def test_the_readers_records_give_ir_measures_records():
    assert list(workalike.read_trec_run(RUN)) == list(peer.read_trec_run(RUN))
    assert list(workalike.read_trec_qrels(QRELS)) == list(peer.read_trec_qrels(QRELS))


@pytest.mark.parametrize(
    "form",
    ["unstarted", "list", "peer records", "started"],
)
def test_calc_aggregate_on_records_equals_ir_measures(form):
    expected = values(peer, peer.read_trec_qrels(QRELS), peer.read_trec_run(RUN))
    qrels, run = workalike.read_trec_qrels(QRELS), workalike.read_trec_run(RUN)
    if form == "list":
        qrels, run = list(qrels), list(run)
    elif form == "peer records":
        qrels, run = list(peer.read_trec_qrels(QRELS)), list(peer.read_trec_run(RUN))
    elif form == "started":  # the first record taken: the rest is read record by record
        first = next(run)
        run = [first, *run]
    assert values(workalike, qrels, run) == expected


def test_a_repeated_document_keeps_its_last_score_as_in_ir_measures():
    qrels = [peer.Qrel("q1", "d1", 1), peer.Qrel("q1", "d2", 0)]
    run = [
        peer.ScoredDoc("q1", "d1", 1.0),
        peer.ScoredDoc("q1", "d2", 2.0),
        peer.ScoredDoc("q1", "d1", 3.0),
    ]
    expected = values(peer, qrels, run)
    got = values(workalike, [workalike.Qrel(*q) for q in qrels], run)
    assert got == expected


def test_a_reader_handed_over_is_used_up_like_a_generator():
    run = workalike.read_trec_run(RUN)
    workalike.calc_aggregate([workalike.AP], workalike.read_trec_qrels(QRELS), run)
    assert list(run) == []
