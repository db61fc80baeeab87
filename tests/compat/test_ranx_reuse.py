"""A ranx Qrels is read once for many evaluations (the work-alike keeps what it read while the
qrels are unchanged) and a change made in place is still seen, as ranx sees it: values against
the installed ranx after the same changes."""

from __future__ import annotations

import pytest

from cranfield.compat import ranx as ours

ranx = pytest.importorskip("ranx")

QRELS = {"q1": {"d1": 1, "d2": 0, "d3": 2}, "q2": {"d4": 1, "d5": 1}}
RUN = {"q1": {"d1": 0.9, "d2": 0.8, "d3": 0.1}, "q2": {"d5": 0.7, "d6": 0.6, "d4": 0.5}}
METRICS = ["precision@1", "ndcg@3", "map"]


def both(change) -> tuple[dict, dict]:
    """The values of the work-alike and of ranx after ``change(qrels)`` on each's Qrels
    (each evaluated once before, so the work-alike has what it read kept)."""
    out = []
    for lib in (ours, ranx):
        qrels, run = lib.Qrels(QRELS), lib.Run(RUN)
        lib.evaluate(qrels, run, METRICS)
        change(qrels)
        out.append(lib.evaluate(qrels, run, METRICS))
    return out[0], {k: float(v) for k, v in out[1].items()}


@pytest.mark.parametrize(
    "change",
    [
        lambda q: None,
        lambda q: q.qrels["q1"].__setitem__("d3", 3),  # in place, a grade (order kept: ranx
        # takes the rows as sorted by grade, docs/coming-from.md)
        lambda q: q.qrels["q2"].pop("d5"),  # in place, a judgment removed
        lambda q: q.add_score("q2", "d6", 3),
        lambda q: q.set_relevance_level(2),
    ],
)
def test_a_qrels_changed_after_an_evaluation_is_read_again(change):
    mine, theirs = both(change)
    assert mine == pytest.approx(theirs, rel=1e-12, abs=0)
