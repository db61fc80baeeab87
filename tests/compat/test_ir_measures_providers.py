"""The ir_measures work-alike against ir_measures' other default providers (issue 26): the
cwl_eval measures (``BPM``, ``INST``, ``INSQ``, ``SDCG``, ``NERR8``-``NERR11``: ir_measures'
cwl_eval provider, the real cwl-eval package) and ``Compat`` (ir_measures' own provider), per
query and aggregated, on generated runs with tied scores, unjudged and negatively judged
documents, and a judged query the run lacks.

The cwl_eval provider ranks a query's documents by a stable sort on the score (ties in the
run's order) and at most 1,000 of them; the work-alike does the same for these measures
(``compat/ir_measures_plan.provider_order``).  ``Compat`` breaks ties in its ideal ranking
by the run's scores and, among equal scores, by the qrels' order: the work-alike computes it
as its provider does (``ir_measures_plan.compatibility``), equal bit for bit with tied scores
too.
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


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("seed", range(4))
def test_compat_equals_its_provider_bit_for_bit(seed, ties):
    """Tied relevant documents of one grade in the ideal ranking in the qrels' order; a
    judged query the run lacks 0, counted in the mean."""
    qrels, run = collection(10 + seed, ties=ties)
    pm = [peer.parse_measure(n) for n in COMPAT]
    om = [ours.parse_measure(n) for n in COMPAT]
    want = {str(m): v.hex() for m, v in peer.calc_aggregate(pm, qrels, run).items()}
    got = {str(m): v.hex() for m, v in ours.calc_aggregate(om, qrels, run).items()}
    assert got == want
    want_q = sorted(
        (m.query_id, str(m.measure), m.value.hex()) for m in peer.iter_calc(pm, qrels, run)
    )
    got_q = sorted(
        (m.query_id, str(m.measure), m.value.hex()) for m in ours.iter_calc(om, qrels, run)
    )
    assert got_q == want_q


def test_compat_ideal_ties_in_the_qrels_order():
    """By hand: the run ranks a then b (equal scores, ids ascending); the ideal ranking, both
    of grade 1 with equal scores, keeps the qrels' order b, a.  RBO(p=0.95) to depth 2:
    (0/1 + 0.95 * 2/2) / 1.95 against the ideal's own (1 + 0.95) / 1.95 = 1."""
    qrels = {"q": {"b": 1, "a": 1}}
    run = {"q": {"a": 1.0, "b": 1.0}}
    want = 0.95 / 1.95
    assert ours.calc_aggregate([ours.Compat], qrels, run)[ours.Compat] == pytest.approx(want)
    assert peer.calc_aggregate([peer.Compat], qrels, run)[peer.Compat] == pytest.approx(want)


@pytest.mark.parametrize("seed", range(4))
def test_judged_and_the_counts_equal_ir_measures_bit_for_bit(seed):
    """Judged@k over k or the documents ranked when fewer (ties by id ascending), Judged
    without a cut-off; NumQ and NumRel 0 for the judged query the run lacks (pytrec_eval's
    output has no row for it)."""
    qrels, run = collection(20 + seed, ties=True)
    run["q1"] = dict(list(run["q1"].items())[:2])  # fewer documents than the cut-offs
    names = ["Judged@5", "Judged@100", "Judged", "NumQ", "NumRel", "NumRet"]
    pm = [peer.parse_measure(n) for n in names]
    om = [ours.parse_measure(n) for n in names]
    want = {str(m): float(v).hex() for m, v in peer.calc_aggregate(pm, qrels, run).items()}
    got = {str(m): float(v).hex() for m, v in ours.calc_aggregate(om, qrels, run).items()}
    assert got == want
    want_q = sorted(
        (m.query_id, str(m.measure), float(m.value)) for m in peer.iter_calc(pm, qrels, run)
    )
    got_q = sorted(
        (m.query_id, str(m.measure), float(m.value)) for m in ours.iter_calc(om, qrels, run)
    )
    assert got_q == want_q


def test_named_providers_take_their_own_measures_as_ir_measures():
    """``ir_measures.judged``, ``.compat``, ``.accuracy``: each supports its measure only (as
    the real package says), and refuses another with one error naming it."""
    qrels, run = collection(30, ties=False)
    for name, theirs in (("judged", "Judged@5"), ("compat", "Compat"), ("accuracy", "Accuracy")):
        for text in (theirs, "AP", "P@5"):
            assert getattr(ours, name).supports(text) == getattr(peer, name).supports(
                peer.parse_measure(text)
            ), (name, text)
        with pytest.raises(ValueError, match=f"the {name} provider: unsupported measure AP"):
            getattr(ours, name).calc_aggregate([ours.AP], qrels, run)
    assert (
        ours.judged.calc_aggregate([ours.Judged @ 5], qrels, run)[ours.Judged @ 5]
        == (peer.judged.calc_aggregate([peer.Judged @ 5], qrels, run)[peer.Judged @ 5])
    )
    assert ours.DefaultPipeline.supports("Judged") and not ours.DefaultPipeline.supports("XYZ")
