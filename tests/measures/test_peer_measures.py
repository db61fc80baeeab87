"""ir_measures' measure objects as cranfield measures: every measure of ir_measures' registry
either converts or is refused with a MeasureError naming it, and each conversion gives the
values ir_measures itself computes (its own providers: pytrec_eval, gdeval, its Judged and
MS MARCO code, trectools), on collections where the definitions agree; where they do not,
the difference docs/peers.md states is shown."""

from __future__ import annotations

import shutil
import warnings

import numpy as np
import pytest

import cranfield
from cranfield.errors import MeasureError
from cranfield.measures import parse
from cranfield.measures.peer_measures import from_ir_measures

ir_measures = pytest.importorskip("ir_measures")
M = ir_measures.measures

# ir_measures' registry names cranfield must convert today (the diversity and C/W/L measures
# join when they are in the registry: the first test accepts them either way)
CONVERTED = {
    "AP", "MAP", "MRR", "NDCG", "nDCG", "BPref", "Bpref", "IPrec", "Judged", "NumQ", "NumRel",
    "NumRelRet", "NumRet", "P", "Precision", "R", "Recall", "RBP", "RPrec", "Rprec", "RR",
    "SetAP", "SetF", "SetP", "SetRelP", "SetR", "Success", "infAP", "ERR",
}  # fmt: skip


def _instances(measure):
    """The registry entry without and with its ``@`` parameter (some need it), and with
    ``max_rel`` when it has no default."""
    base = {}
    for key, info in measure.SUPPORTED_PARAMS.items():
        if key == "max_rel" and type(info.default) is object:
            base[key] = 3
    at = {measure.AT_PARAM: 0.5 if measure.AT_PARAM == "recall" else 10}
    return [measure(**base), measure(**base, **at)]


def test_every_registry_measure_converts_or_is_refused_by_name():
    converted = set()
    for name, measure in M.registry.items():
        for m in _instances(measure):
            try:
                ours = parse(m)
            except MeasureError as exc:
                assert repr(m) in str(exc), (name, str(exc))
                continue
            converted.add(name)
            assert ours.definition is not None
    assert converted >= CONVERTED


def test_parameters_map_by_name_with_ir_measures_defaults():
    assert str(parse(M.RBP)) == "RBP(p=0.8)"  # ir_measures' default, not cranfield's 0.9
    assert str(parse(M.RBP(p=0.5))) == "RBP(p=0.5)"
    assert str(parse(M.nDCG(gains={0: 0, 1: 1, 2: 3}) @ 10)) == "nDCG(gains={0:0,1:1,2:3})@10"
    assert str(parse(M.IPrec @ 0.5)) == "IPrec@0.5"
    assert str(parse(M.NumRet)) == "NumRet"
    assert str(parse(M.NumRet(rel=2))) == "NumRelRet(rel=2)"
    assert str(parse(M.NumRelRet)) == "NumRelRet(rel=1)"
    assert str(parse(M.SetP(relative=True))) == "SetRelP"
    assert str(parse(M.ERR @ 10)) == "ERR(max_grade=4)@10"  # gdeval.pl's highest grade
    assert parse(M.SetF(beta=4.0)) == parse("SetF(beta=2.0)")  # trec_eval's set_F.4
    assert str(parse(M.MAP @ 100)) == "AP@100"
    assert str(parse(M.P(rel=2) @ 5)) == "P(rel=2)@5"
    assert str(parse(M.Accuracy(rel=2) @ 5)) == "PairAccuracy(rel=2)@5"  # not MTEB's Accuracy


@pytest.mark.parametrize(
    ("measure", "problem"),
    [
        (M.AP(judged_only=True), "judged_only=True"),
        (M.RBP(rel=2), "binary gains"),
        (M.RBP @ 10, "no cut-off"),
        (M.Accuracy(rel=0) @ 5, "rel must be an integer >= 1"),
    ],
)
def test_refused_with_the_reason(measure, problem):
    with pytest.raises(MeasureError, match=problem):
        from_ir_measures(measure)


def _collection(rng, graded=True, topics=5):
    """Numeric topic ids (gdeval's rule), grades 0..3 (gdeval allows up to 4), distinct
    scores (ir_measures' providers break ties differently), 12+ results per topic."""
    qrels, run = [], []
    for t in range(1, topics + 1):
        docs = [f"d{i}" for i in range(30)]
        for d in rng.choice(docs, int(rng.integers(4, 20)), replace=False):
            g = int(rng.choice([0, 1, 2, 3])) if graded else int(rng.choice([0, 1]))
            qrels.append(ir_measures.Qrel(str(t), str(d), g))
        if not any(q.relevance > 0 for q in qrels if q.query_id == str(t)):
            qrels.append(ir_measures.Qrel(str(t), "d99", 1))
        retrieved = rng.choice(docs, int(rng.integers(12, 30)), replace=False)
        scores = rng.permutation(len(retrieved)) + rng.random()
        for d, s in zip(retrieved, scores, strict=True):
            run.append(ir_measures.ScoredDoc(str(t), str(d), float(s)))
    return qrels, run


def _compare(measure, qrels, run, exact=True, provider=None):
    calc = provider.iter_calc if provider is not None else ir_measures.iter_calc
    theirs = {m.query_id: m.value for m in calc([measure], qrels, run)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = cranfield.evaluate(qrels, run, [measure])
    ours = dict(zip(res.query_ids, res.values[:, 0].tolist(), strict=True))
    assert set(ours) == set(theirs), measure
    for q, v in theirs.items():
        if exact:
            assert ours[q] == v, (repr(measure), q, ours[q], v)
        else:
            assert ours[q] == pytest.approx(v, abs=1e-5), (repr(measure), q)
    return len(theirs)


PYTREC = [
    M.AP, M.AP @ 5, M.MAP, M.P @ 5, M.P(rel=2) @ 5, M.Precision @ 3, M.R @ 5, M.Recall @ 10,
    M.RR, M.MRR, M.Rprec, M.RPrec, M.Bpref, M.BPref, M.infAP, M.nDCG, M.nDCG @ 5, M.NDCG @ 10,
    M.nDCG(gains={0: 0, 1: 1, 2: 3, 3: 7}) @ 10, M.NumQ, M.NumRel, M.NumRet, M.NumRet(rel=1),
    M.NumRelRet, M.SetP, M.SetRelP, M.SetP(relative=True), M.SetR, M.SetF, M.SetF(beta=4.0),
    M.SetAP, M.Success @ 1, M.Success @ 5, M.IPrec @ 0.0, M.IPrec @ 1.0,
    M.RR @ 3,  # ir_measures' MS MARCO code
    M.Judged @ 10,  # ir_measures' own code
]  # fmt: skip


@pytest.mark.parametrize("seed", range(3))
def test_values_equal_ir_measures_own(seed):
    rng = np.random.default_rng(seed)
    qrels, run = _collection(rng)
    checked = sum(_compare(m, qrels, run) for m in PYTREC)
    assert checked == 5 * len(PYTREC)


@pytest.mark.skipif(not shutil.which("perl"), reason="gdeval.pl needs perl")
def test_err_equals_gdeval_through_ir_measures():
    """ERR@k by gdeval.pl (perl), which prints 5 decimals."""
    qrels, run = _collection(np.random.default_rng(7))
    _compare(M.ERR @ 10, qrels, run, exact=False)
    _compare(M.ERR @ 3, qrels, run, exact=False)


def _trectools():
    pytest.importorskip("trectools")
    return ir_measures.providers.registry["trectools"]  # RBP's provider (not a default one)


def test_rbp_equals_trectools_through_ir_measures_on_binary_grades():
    """With graded qrels trectools multiplies by the raw grade, trec_eval's rbp rescales."""
    qrels, run = _collection(np.random.default_rng(8), graded=False)
    _compare(M.RBP, qrels, run, exact=False, provider=_trectools())
    _compare(M.RBP(p=0.5), qrels, run, exact=False, provider=_trectools())


def test_graded_rbp_differs_as_documented():
    """trectools (ir_measures' RBP) weights a grade-2 document twice; trec_eval's rbp (and
    cranfield's RBP) rescales the gains into [0, 1] per query: a grade-2-only query gets 1."""
    qrels = [ir_measures.Qrel("1", "a", 2)]
    run = [ir_measures.ScoredDoc("1", "a", 1.0)]
    theirs = _trectools().calc_aggregate([M.RBP], qrels, run)[M.RBP]
    ours = cranfield.evaluate(qrels, run, [M.RBP]).values[0, 0]
    assert theirs == pytest.approx(0.2 * 2)
    assert ours == pytest.approx(0.2)


def test_judged_of_a_short_ranking_differs_as_documented():
    """ir_measures divides Judged@k by the number retrieved when it is below k; cranfield
    by k (docs/measures.md)."""
    qrels = [ir_measures.Qrel("1", "a", 1), ir_measures.Qrel("1", "b", 0)]
    run = [ir_measures.ScoredDoc("1", "a", 2.0), ir_measures.ScoredDoc("1", "b", 1.0)]
    theirs = ir_measures.calc_aggregate([M.Judged @ 10], qrels, run)[M.Judged @ 10]
    ours = cranfield.evaluate(qrels, run, [M.Judged @ 10]).values[0, 0]
    assert (theirs, ours) == (1.0, 0.2)


def test_hostile_objects_and_values_are_measure_errors():
    class Fake:  # claims to be ir_measures', with parameters that are no mapping
        NAME, params, SUPPORTED_PARAMS, AT_PARAM = "P", 5, {}, "cutoff"

    Fake.__module__ = "ir_measures.fake"
    with pytest.raises(MeasureError, match="not an ir_measures measure"):
        parse(Fake())
    for m, problem in [
        (M.P(rel=True) @ 10, "parameter rel must be an integer"),
        (M.P @ 0, "parameter cutoff must be in"),
        (M.IPrec @ 2.0, "must be in .0, 1."),
        (M.SetF(beta=-1.0), "beta must be a number >= 0"),
        (M.nDCG(gains={1: float("inf")}) @ 5, "gain"),
    ]:
        with pytest.raises(MeasureError, match=problem):
            parse(m)
