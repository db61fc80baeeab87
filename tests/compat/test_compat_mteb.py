"""MTEB's retrieval measures (R_cap@k, Accuracy@k in the registry; cranfield.compat.mteb's
score dictionary) against MTEB's own computation.

mteb cannot be imported here (its package imports huggingface_hub, datasets, torch...), so
the oracle below follows ``mteb/_evaluators/retrieval_metrics.py`` of mteb 2.26.24 step by
step: pytrec_eval for nDCG, MAP, recall, P and success (as ``calculate_retrieval_scores``),
and MTEB's Python loops for MRR, ``recall_cap``, ``hole`` and ``top_k_accuracy``."""

from __future__ import annotations

import random
from collections import defaultdict

import pytest

import cranfield
from cranfield.compat import mteb

pytrec_eval = pytest.importorskip("pytrec_eval", reason="MTEB computes its measures with it")

KS = [1, 3, 5, 10, 20]


def generated(seed: int):
    rng = random.Random(seed)
    qrels, results = {}, {}
    for i in range(15):
        docs = [f"d{j}" for j in range(rng.randint(1, 40))]
        judged = rng.sample(docs, rng.randint(1, len(docs)))
        qrels[f"q{i}"] = {d: rng.choice([0, 0, 1, 1, 2]) for d in judged}
        pool = docs + [f"u{j}" for j in range(10)]  # u*: judged for no query
        ranked = rng.sample(pool, rng.randint(1, len(pool)))
        results[f"q{i}"] = {d: float(rng.randint(0, 5)) for d in ranked}  # ties
    qrels["q0"] = {d: 0 for d in qrels["q0"]}  # a query without relevant documents
    return qrels, results


def top(docs, k):
    return sorted(docs.items(), key=lambda item: (item[1], item[0]), reverse=True)[:k]


def mteb_oracle(qrels, results, ks):
    """mteb 2.26.24's calculate_retrieval_scores + make_score_dict, and its task metrics."""
    names = {
        "map_cut": "map_cut_{}",
        "ndcg_cut": "ndcg_cut_{}",
        "recall": "recall_{}",
        "P": "P_{}",
        "success": "success_{}",
    }
    ev = pytrec_eval.RelevanceEvaluator(qrels, {f"{n}.{','.join(map(str, ks))}" for n in names})
    scores = ev.evaluate(results)
    out = {}
    for key, name in (
        ("ndcg", "ndcg_cut_{}"),
        ("map", "map_cut_{}"),
        ("recall", "recall_{}"),
        ("precision", "P_{}"),
        ("hit_rate", "success_{}"),
    ):
        for k in ks:
            out[f"{key}_at_{k}"] = round(
                sum(s[name.format(k)] for s in scores.values()) / len(scores), 5
            )
    mrr = defaultdict(list)
    for q, docs in results.items():
        rel = {d for d in qrels[q] if qrels[q][d] > 0}
        for k in ks:
            rr = 0.0
            for rank, (d, _) in enumerate(top(docs, k)):
                if d in rel:
                    rr = 1.0 / (rank + 1)
                    break
            mrr[k].append(rr)
    for k in ks:
        out[f"mrr_at_{k}"] = sum(mrr[k]) / len(mrr[k])
    out["accuracy"] = out["recall_at_1"]
    annotated = {d for docs in qrels.values() for d in docs}
    for k in ks:
        caps, holes, acc = [], [], []
        for q, docs in results.items():
            hits = top(docs, k)
            nrel = len([d for d in qrels[q] if qrels[q][d] > 0])
            found = len([d for d, _ in hits if qrels[q].get(d, 0) > 0])
            if min(nrel, k):
                caps.append(found / min(nrel, k))
            holes.append(len([d for d, _ in hits if d not in annotated]) / k)
            acc.append(1.0 if found else 0.0)  # MTEB appends only the 1.0s (see the docs)
        out[f"R_cap_at_{k}"] = sum(caps) / len(caps)
        out[f"Hole_at_{k}"] = sum(holes) / len(holes)
        out[f"Accuracy_at_{k}"] = sum(acc) / len(acc)
    return out


@pytest.mark.parametrize("seed", range(8))
def test_measures_equal_mtebs_computation(seed):
    qrels, results = generated(seed)
    expected = mteb_oracle(qrels, results, KS)
    got = mteb.evaluate(qrels, results, KS, task_metrics=mteb.TASK_METRICS)
    assert set(got) == set(expected)
    for key, value in expected.items():
        assert got[key] == pytest.approx(value, rel=1e-12, abs=1e-15), key


def test_registry_measures_per_query():
    qrels, results = generated(3)
    with pytest.warns(cranfield.UndefinedMeasureWarning, match="R_cap@5 is undefined for 1"):
        r = cranfield.evaluate(qrels, results, ["R_cap@5", "Accuracy@3", "NumRel"])
    for i, q in enumerate(r.query_ids):
        hits = top(results[q], 5)
        nrel = sum(g > 0 for g in qrels[q].values())
        found = sum(qrels[q].get(d, 0) > 0 for d, _ in hits)
        assert r.column("R_cap@5")[i] == (found / min(nrel, 5) if nrel else 0.0)
        found3 = sum(qrels[q].get(d, 0) > 0 for d, _ in top(results[q], 3))
        assert r.column("Accuracy@3")[i] == float(found3 > 0)


def test_bad_k_values_are_one_parameter_error():
    with pytest.raises(cranfield.ParameterError, match="k_values"):
        mteb.evaluate({"q": {"d": 1}}, {"q": {"d": 1.0}}, [0, 10])
    with pytest.raises(cranfield.ParameterError, match="task metric 'Holes'"):
        mteb.evaluate({"q": {"d": 1}}, {"q": {"d": 1.0}}, task_metrics=["Holes"])
