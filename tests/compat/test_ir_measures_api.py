"""The parts of ir_measures' API its own tests use (tests/peer_suites/test_peer_suites.py), here
against the real package (0.4.3) on the same input: measure objects printed and compared as
ir_measures does, trec_eval names and nicknames, ``calc`` and a measure's own methods."""

from __future__ import annotations

import pytest

from cranfield.compat import ir_measures as workalike

peer = pytest.importorskip("ir_measures")

QRELS = {"1": {"D0": 0, "D1": 1, "D2": 1, "D3": 1, "D4": 0}, "2": {"D0": 1, "D3": 2, "D5": 0}}
RUN = {"1": {"D0": 0.8, "D3": 0.7, "D1": 0.3, "D2": 0.4, "D4": 0.1}, "2": {"D1": 0.8, "D3": 0.5}}


@pytest.mark.parametrize(
    "text",
    [
        "nDCG(gains={1: 2, 0: 1})",
        "nDCG(gains={0:1,1:2,2:2})@5",
        "P(rel=1)@5",  # a parameter equal to its default is not printed
        "AP(judged_only=False)",
        "SetF(rel=2,beta=3.0)",
        "SetF(beta=1.0)",
    ],
)
def test_measures_print_and_compare_as_ir_measures(text):
    ours, theirs = workalike.parse_measure(text), peer.parse_measure(text)
    assert repr(ours) == repr(theirs)
    assert (ours == workalike.parse_measure(repr(ours))) is True


@pytest.mark.parametrize(
    "text", ["official", "set_F.1.0,0.5,2.4", "set_F", "success", "iprec_at_recall.0.25,0.5"]
)
def test_trec_names_and_nicknames_as_ir_measures(text):
    ours = [repr(m) for m in workalike.parse_trec_measure(text)]
    assert ours == [repr(m) for m in peer.parse_trec_measure(text)]


def test_calc_and_a_measures_own_methods():
    ours_agg, ours_perq = workalike.calc([workalike.P @ 2, workalike.AP], QRELS, RUN)
    theirs_agg, theirs_perq = peer.calc([peer.P @ 2, peer.AP], QRELS, RUN)
    assert {repr(k): v for k, v in ours_agg.items()} == {repr(k): v for k, v in theirs_agg.items()}
    key = lambda m: (m.query_id, repr(m.measure), m.value)  # noqa: E731
    assert sorted(map(key, ours_perq)) == sorted(map(key, theirs_perq))
    assert (workalike.P @ 2).calc_aggregate(QRELS, RUN) == (peer.P @ 2).calc_aggregate(QRELS, RUN)
    value, perq = (workalike.P @ 2).calc(QRELS, RUN)
    assert value == (peer.P @ 2).calc(QRELS, RUN)[0] and len(perq) == 2
    got = sorted(map(key, (workalike.AP).iter_calc(QRELS, RUN)))
    assert got == sorted(map(key, peer.AP.iter_calc(QRELS, RUN)))
    assert workalike.AP.evaluator(QRELS).calc_aggregate(RUN) == {workalike.AP: theirs_agg[peer.AP]}
