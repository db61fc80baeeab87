"""The ir_measures work-alike against ir_measures' other default providers (issue 26): the
cwl_eval measures (``BPM``, ``INST``, ``INSQ``, ``SDCG``, ``NERR8``-``NERR11``: ir_measures'
cwl_eval provider, the real cwl-eval package) and ``Compat`` (ir_measures' own provider), per
query and aggregated, on generated runs with tied scores, unjudged and negatively judged
documents, and a judged query the run lacks.

The cwl_eval provider ranks a query's documents by a stable sort on the score (ties in the
run's order) and at most 1,000 of them; the work-alike does the same for these measures
(``compat/ir_measures_plan.provider_order``).  ``Compat`` breaks ties in its ideal ranking
by the run's scores and, among equal scores, by the qrels' order, which cranfield's measure
does not reproduce: it is compared on runs without tied scores (docs/coming-from.md lists the
difference).
"""

from __future__ import annotations

import random

import pytest

from cranfield.compat import ir_measures as ours

peer = pytest.importorskip("ir_measures")
pytest.importorskip("cwl", reason="ir_measures' cwl_eval provider needs the cwl-eval package")

CWL = [
    "BPM(T=1.0,max_rel=3)@10",
    "BPM(T=2.0,min_rel=1,max_rel=3)@5",
    "INST(T=2.0,max_rel=3)",
    "INSQ(T=1.0,max_rel=3)",
    "SDCG(max_rel=3)@10",
    "NERR8(max_rel=3)@10",
    "NERR9(max_rel=3)@5",
    "NERR10(p=0.8,max_rel=3)",
    "NERR11(T=2.0,max_rel=3)",
]
COMPAT = ["Compat(p=0.95)", "Compat(p=0.8,normalize=False)"]


def collection(seed: int, ties: bool):
    rng = random.Random(seed)
    qrels, run = {}, {}
    for i in range(10):
        docs = [f"d{j}" for j in range(rng.randint(5, 40))]
        qrels[f"q{i}"] = {d: rng.choice([-1, 0, 0, 1, 2, 3]) for d in rng.sample(docs, 4)}
        ranked = rng.sample(docs + [f"u{j}" for j in range(5)], rng.randint(1, len(docs)))
        if ties:
            run[f"q{i}"] = {d: float(rng.randint(0, 4)) for d in ranked}
        else:
            run[f"q{i}"] = {d: rng.random() for d in ranked}
    del run["q9"]  # a judged query the run lacks
    return qrels, run


def _same(names, qrels, run):
    pm = [peer.parse_measure(n) for n in names]
    om = [ours.parse_measure(n) for n in names]
    want = peer.calc_aggregate(pm, qrels, run)
    got = ours.calc_aggregate(om, qrels, run)
    for p, o in zip(pm, om, strict=True):
        assert got[o] == pytest.approx(want[p], rel=1e-12, abs=1e-15), str(p)
    want_q = {(m.query_id, str(m.measure)): m.value for m in peer.iter_calc(pm, qrels, run)}
    got_q = {(m.query_id, str(m.measure)): m.value for m in ours.iter_calc(om, qrels, run)}
    assert set(got_q) == set(want_q)
    for key, value in want_q.items():
        assert got_q[key] == pytest.approx(value, rel=1e-12, abs=1e-15), key


@pytest.mark.parametrize("seed", range(4))
def test_cwl_eval_measures_equal_the_provider_with_tied_scores(seed):
    _same(CWL, *collection(seed, ties=True))


@pytest.mark.parametrize("seed", range(3))
def test_compat_equals_its_provider_without_tied_scores(seed):
    _same(COMPAT, *collection(10 + seed, ties=False))
