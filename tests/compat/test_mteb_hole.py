"""MTEB's Hole@k, a registry measure: per query, the share of the top k that no query's qrels
judge.  The oracle is MTEB's own formula (``hole`` in ``mteb/_evaluators/retrieval_metrics.py``,
mteb 2.26.24: the annotated set is every document of every query's qrels, the top k sorted by
(score, doc id) descending since mteb#5092, divided by k), written out here on the dicts."""

from __future__ import annotations

import random

import pytest

import cranfield
from cranfield.compat import mteb

# the collections judge queries the runs do not answer (Hole@k needs every query's qrels)
pytestmark = pytest.mark.filterwarnings(
    "ignore:run. 1 judged queries have no results:cranfield.errors.DataWarning"
)


def mteb_hole(qrels, results, k):
    """mteb 2.26.24's ``hole``: per query of the results, its own loop."""
    annotated_corpus = {doc for docs in qrels.values() for doc in docs}
    out = {}
    for qid, scores in results.items():
        top = sorted(scores.items(), key=lambda item: (item[1], item[0]), reverse=True)[:k]
        out[qid] = len([d for d, _ in top if d not in annotated_corpus]) / k
    return out


def generated(seed: int):
    """Few distinct scores (large tie groups that straddle k), documents judged only for
    another query, grades 0 and negative, rankings shorter than k."""
    rng = random.Random(seed)
    qrels, results = {}, {}
    for i in range(12):
        judged = rng.sample([f"d{j}" for j in range(30)], rng.randint(1, 8))
        qrels[f"q{i}"] = {d: rng.choice([-1, 0, 0, 1, 2]) for d in judged}
        pool = [f"d{j}" for j in range(30)] + [f"u{j}" for j in range(30)]
        ranked = rng.sample(pool, rng.randint(1, 40))
        results[f"q{i}"] = {d: float(rng.randint(0, 3)) for d in ranked}
    return qrels, results


@pytest.mark.parametrize("seed", range(10))
def test_hole_equals_mtebs_formula_per_query(seed):
    qrels, results = generated(seed)
    ks = [1, 3, 5, 10, 20, 100]
    r = cranfield.evaluate(qrels, results, [f"Hole@{k}" for k in ks])
    assert r.query_ids == tuple(sorted(results))
    for k in ks:
        want = mteb_hole(qrels, results, k)
        got = dict(zip(r.query_ids, r.column(f"Hole@{k}").tolist(), strict=True))
        assert got == want, k
    assert mteb.hole(qrels, results, 5) == mteb_hole(qrels, results, 5)


def test_a_document_judged_for_another_query_is_no_hole():
    """d2 is judged for q2 only (grade 0): no hole for q1; u1 is judged for nobody.  In the
    tie group of score 1.0 (d2, u1, u0 in trec_eval's order: u1, u0, d2) the top 2 are the two
    u's: both holes."""
    qrels = {"q1": {"d1": 1}, "q2": {"d2": 0}}
    results = {"q1": {"d1": 2.0, "d2": 1.0, "u1": 1.0, "u0": 1.0}}
    r = cranfield.evaluate(qrels, results, ["Hole@1", "Hole@3", "Hole@4", "Hole@8"], complete=False)
    assert r.values.tolist() == [[0.0, 2 / 3, 2 / 4, 2 / 8]]
    assert [mteb_hole(qrels, results, k)["q1"] for k in (1, 3, 4, 8)] == r.values[0].tolist()


def test_holes_within_a_tie_group_are_counted_exactly():
    """Documents the qrels do not list are ordered lazily inside a tie group (their order
    changes no grade); Hole must still see which of them fall in the top k."""
    qrels = {"q1": {"a5": 1}, "q2": {"a3": 0, "a1": 0}}
    docs = ["a1", "a2", "a3", "a4", "a5", "a6"]
    results = {"q1": dict.fromkeys(docs, 1.0)}  # one tie group: a6, a5, ..., a1
    for k in range(1, 7):
        r = cranfield.evaluate(qrels, results, [f"Hole@{k}"])
        assert r.values[0, 0] == mteb_hole(qrels, results, k)["q1"], k


def test_mteb_evaluate_reports_the_registry_hole():
    qrels, results = generated(3)
    got = mteb.evaluate(qrels, results, [1, 10], task_metrics=["Hole"])
    for k in (1, 10):
        per_query = mteb_hole(qrels, results, k)
        assert got[f"Hole_at_{k}"] == pytest.approx(sum(per_query.values()) / len(per_query))


def test_hole_needs_rankings_from_the_join():
    from cranfield.measures import parse
    from cranfield.measures.mteb import hole

    qrels = cranfield.read_qrels({"q1": {"d1": 1}})
    run = cranfield.read_run({"q1": {"d1": 1.0, "u": 0.5}})
    from cranfield.judging.join import judge

    jr = judge(qrels, run)
    assert hole(jr, cutoff=2).tolist() == [0.5]
    from dataclasses import replace

    with pytest.raises(cranfield.ParameterError, match="Hole@k needs the whole qrels"):
        hole(replace(jr, annotation=None), cutoff=2)
    assert parse("Hole@5").definition.better == "none"


@pytest.mark.parametrize("seed", range(6))
def test_weak_hole_is_the_average_over_all_tie_breakings(seed):
    """ties='weak' gives the expectation over every order of each tie group: here the mean of
    MTEB's formula over all the permutations of the tied documents, enumerated."""
    from fractions import Fraction
    from itertools import permutations, product

    rng = random.Random(seed)
    qrels = {"q1": {"a": 1, "b": 0}, "q2": {"c": 2, "e": -1}}
    docs = ["a", "b", "c", "e", "u", "v", "w"]
    ranked = rng.sample(docs, rng.randint(3, 7))
    scores = {d: float(rng.randint(0, 2)) for d in ranked}
    groups = [[d for d in ranked if scores[d] == s] for s in sorted(set(scores.values()))[::-1]]
    annotated = {d for judged in qrels.values() for d in judged}
    for k in (1, 2, 3, 5, 8):
        total, count = Fraction(0), 0
        for order in product(*[permutations(g) for g in groups]):
            top = [d for group in order for d in group][:k]
            total += Fraction(sum(d not in annotated for d in top), k)
            count += 1
        r = cranfield.evaluate(qrels, {"q1": scores}, [f"Hole@{k}"], ties="weak", complete=False)
        assert r.values[0, 0] == pytest.approx(float(total / count), abs=1e-12), k
