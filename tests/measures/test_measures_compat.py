"""Compat (Clarke, Vtyurina & Smucker 2021) against ir_measures' own implementation (its
``compat`` provider) on generated runs, and a worked example."""

from __future__ import annotations

import random

import pytest

import cranfield
from cranfield.errors import MeasureError, UndefinedMeasureWarning

ir_measures = pytest.importorskip("ir_measures")


def _collection(seed: int):
    """Graded qrels (negative grades too), runs with distinct non-negative scores; some
    relevant documents not retrieved, some retrieved documents not judged."""
    rng = random.Random(seed)
    qrels, run = {}, {}
    for qi in range(8):
        q = f"q{qi}"
        docs = [f"d{j:02d}" for j in range(rng.randint(1, 40))]
        qrels[q] = {d: rng.choice([-1, 0, 0, 1, 1, 2, 3]) for d in docs}
        pool = docs + [f"u{j}" for j in range(15)]
        ranked = rng.sample(pool, rng.randint(1, len(pool)))
        scores = rng.sample(range(0, 100_000), len(ranked))
        run[q] = {d: s / 3.0 for d, s in zip(ranked, scores, strict=True)}
    return qrels, run


def _ours(qrels, run, text):
    res = cranfield.evaluate(qrels, run, [text])
    return dict(zip(res.query_ids, res.values[:, 0].tolist(), strict=True))


@pytest.mark.parametrize("seed", range(4))
def test_values_equal_ir_measures_compat_provider(seed):
    qrels, run = _collection(seed)
    provider = ir_measures.providers.registry["compat"]
    for text in ("Compat", "Compat(p=0.8)", "Compat(p=0.5,normalize=false)", "Compat(p=1.0)"):
        ours = _ours(qrels, run, text)
        m = ir_measures.parse_measure(text.replace("false", "False"))
        theirs = {r.query_id: r.value for r in provider.iter_calc([m], qrels, run)}
        assert set(theirs) == set(ours)
        for q, v in theirs.items():
            assert ours[q] == pytest.approx(v, rel=1e-12, abs=1e-15), (q, text)


def test_worked_example():
    # run a, x, b; qrels a=1, b=2, c=1: the ideal is b (grade 2), then a (retrieved, grade 1),
    # then c.  Depth 3.  Overlaps of the prefixes: {a}∩{b} = 0, {a,x}∩{b,a} = 1,
    # {a,x,b}∩{b,a,c} = 2; the ideal with itself: 1, 2, 3.  With p = 1/2 (weights 1, 1/2, 1/4):
    # RBO(S, I) = (0 + 1/2 * 1/2 + 1/4 * 2/3) / (7/4) and RBO(I, I) = (1 + 1/2 + 1/4) / (7/4)
    qrels = {"q": {"a": 1, "b": 2, "c": 1}}
    run = {"q": {"a": 3.0, "x": 2.0, "b": 1.0}}
    s = 0.25 + 1 / 6
    assert _ours(qrels, run, "Compat(p=0.5,normalize=false)")["q"] == pytest.approx(s / 1.75)
    assert _ours(qrels, run, "Compat(p=0.5)")["q"] == pytest.approx(s / 1.75)
    # the perfect ranking is fully compatible; nothing relevant gives 0
    assert _ours(qrels, {"q": {"b": 3.0, "a": 2.0, "c": 1.0}}, "Compat")["q"] == 1.0
    with pytest.warns(UndefinedMeasureWarning, match="Compat"):
        assert _ours({"q": {"a": 0}}, run, "Compat")["q"] == 0.0


def test_ties_of_one_grade_in_the_ideal_follow_the_run():
    # a and c share grade 1: the run ranks c above a, so the ideal is c, a (not a, c)
    qrels = {"q": {"a": 1, "c": 1}}
    assert _ours(qrels, {"q": {"c": 2.0, "a": 1.0}}, "Compat")["q"] == 1.0


def test_bad_parameters_and_tie_policy():
    run = {"q": {"a": 1.0}}
    for text in ("Compat(p=0)", "Compat(p=1.5)", "Compat(normalize=2)"):
        with pytest.raises(MeasureError, match="p|normalize"):
            cranfield.evaluate({"q": {"a": 1}}, run, [text])
    with pytest.raises(MeasureError, match="tie-aware"):
        cranfield.evaluate({"q": {"a": 1}}, run, ["Compat"], ties="weak")


def test_ties_of_one_grade_in_the_ideal_follow_the_run_not_the_qrels_file():
    """docs/measures.md: ir_measures keeps equal-score documents of one grade in the ideal
    ranking in qrels file order.  Run a, b tied (ir_measures ranks a, b); qrels b then a: its
    ideal is b, a, and with p = 1/2 over depth 2 RBO = (1 * 0/1 + 1/2 * 2/2) / (1 + 1/2) = 1/3;
    qrels a then b: 1.  cranfield orders the ideal by the run: 1 for both."""
    run = {"1": {"a": 1.0, "b": 1.0}}
    text = "Compat(p=0.5,normalize=false)"
    m = ir_measures.parse_measure(text.replace("false", "False"))
    for lines, theirs in (((("b", 1), ("a", 1)), 1 / 3), ((("a", 1), ("b", 1)), 1.0)):
        qrels = {"1": dict(lines)}
        assert ir_measures.calc_aggregate([m], qrels, run)[m] == pytest.approx(theirs)
        for ties in ("trec", "given", "random"):
            res = cranfield.evaluate(qrels, run, [text], ties=ties)
            assert res.aggregate()[text] == 1.0
