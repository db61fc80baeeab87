"""Exponential-gain nDCG (``nDCG(dcg=exp-log2)``, Burges et al.'s 2^g - 1) against the peers
that have it: ranx's ``ndcg_burges`` (full precision) and gdeval (through ir_measures, printed
with 5 decimals); a worked example; the expectation over tie-breakings by brute force."""

from __future__ import annotations

import itertools
import math
import random
import warnings
from fractions import Fraction

import pytest

import cranfield
from cranfield.errors import MeasureError
from cranfield.measures import parse


def _collection(seed: int, negative: bool):
    rng = random.Random(seed)
    grades = [0, 0, 1, 2, 3, 4] + ([-1] if negative else [])
    qrels, run = {}, {}
    for qi in range(8):
        q = str(qi + 1)  # gdeval reads numeric topics only
        docs = [f"d{j}" for j in range(rng.randint(2, 30))]
        qrels[q] = {d: rng.choice(grades) for d in docs}
        if not any(g > 0 for g in qrels[q].values()):
            qrels[q][docs[0]] = 1
        pool = docs + [f"u{j}" for j in range(10)]
        ranked = rng.sample(pool, rng.randint(1, len(pool)))
        scores = sorted(rng.sample(range(1, 100_000), len(ranked)), reverse=True)
        run[q] = {d: s / 7.0 for d, s in zip(ranked, scores, strict=True)}
    return qrels, run


def _ours(qrels, run, text):
    res = cranfield.evaluate(qrels, run, [text])
    return dict(zip(res.query_ids, res.values[:, 0].tolist(), strict=True))


@pytest.mark.slow  # ranx compiles its measures with numba on first use
def test_equals_ranx_ndcg_burges():
    ranx = pytest.importorskip("ranx")
    for seed, k in itertools.product(range(3), (1, 5, 10, 20)):
        qrels, run = _collection(seed, negative=False)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            theirs = ranx.evaluate(
                ranx.Qrels(qrels), ranx.Run(run), f"ndcg_burges@{k}", return_mean=False
            )
        ours = _ours(qrels, run, f"nDCG(dcg='exp-log2')@{k}")
        for q, v in zip(list(qrels), theirs, strict=True):
            assert ours[q] == pytest.approx(float(v), rel=1e-12, abs=1e-15), (q, k)


@pytest.mark.parametrize("seed", range(3))
def test_equals_gdeval_through_ir_measures(seed):
    """gdeval prints %.5f; negative grades count 0 in both."""
    ir_measures = pytest.importorskip("ir_measures")
    import shutil

    if not shutil.which("perl"):
        pytest.skip("gdeval needs perl")
    qrels, run = _collection(seed + 5, negative=True)
    provider = ir_measures.providers.registry["gdeval"]
    for k in (3, 10):
        m = ir_measures.parse_measure(f"nDCG(dcg='exp-log2')@{k}")
        theirs = {r.query_id: r.value for r in provider.iter_calc([m], qrels, run)}
        ours = _ours(qrels, run, f"nDCG(dcg=exp-log2)@{k}")
        assert set(theirs) == set(ours)
        for q, v in theirs.items():
            assert f"{ours[q]:.5f}" == f"{v:.5f}", (q, k)


def test_worked_example():
    # grades 3, 0, 2 then an unjudged document; the qrels also hold a 1 not retrieved.
    # DCG@3 = (2^3-1)/log2 2 + 0 + (2^2-1)/log2 4 = 7 + 3/2; ideal 3, 2, 1:
    # IDCG@3 = 7 + 3/log2 3 + 1/2
    qrels = {"q": {"a": 3, "b": 0, "c": 2, "d": 1}}
    run = {"q": {"a": 4.0, "b": 3.0, "c": 2.0, "x": 1.0}}
    want = (7 + 1.5) / (7 + 3 / math.log2(3) + 0.5)
    assert _ours(qrels, run, "nDCG(dcg=exp-log2)@3")["q"] == pytest.approx(want, rel=1e-15)
    assert _ours(qrels, run, "DCG(dcg=exp-log2)@3")["q"] == 8.5
    assert _ours(qrels, run, "IDCG(dcg=exp-log2)")["q"] == pytest.approx(
        7 + 3 / math.log2(3) + 0.5, rel=1e-15
    )
    # the same as the gains table 2^g - 1 (trec_eval's gains path), and log2 is the default
    same = _ours(qrels, run, "nDCG(gains={1:1,2:3,3:7})@3")["q"]
    assert _ours(qrels, run, "nDCG(dcg=exp-log2)@3")["q"] == same
    assert _ours(qrels, run, "nDCG(dcg=log2)@3") == _ours(qrels, run, "nDCG@3")


def test_ir_measures_spelling_parses_to_the_canonical_measure():
    assert parse("nDCG(dcg='exp-log2')@10") == parse('nDCG(dcg="exp-log2")@10')
    assert str(parse("nDCG(dcg='exp-log2')@10")) == "nDCG(dcg=exp-log2)@10"


@pytest.mark.parametrize(
    "text, problem",
    [
        ("nDCG(dcg=exp-log2,gains={1:2})@10", "not both"),
        ("nDCG(dcg=exp)@10", "exp-log2"),
        ("nDCG(dcg='exp-log2)@10", 'missing "\'"'),
    ],
)
def test_bad_forms_are_one_clear_error(text, problem):
    with pytest.raises(MeasureError, match=problem):
        cranfield.evaluate({"q": {"a": 1}}, {"q": {"a": 1.0}}, [text])


def test_grades_whose_gain_would_exceed_the_bound_are_refused():
    run = {"q": {"a": 1.0}}
    assert _ours({"q": {"a": 332}}, run, "nDCG(dcg=exp-log2)")["q"] == 1.0
    with pytest.raises(MeasureError, match="332"):
        cranfield.evaluate({"q": {"a": 333}}, run, ["nDCG(dcg=exp-log2)"])


def test_tie_aware_form_is_the_average_over_orders():
    grades = [[2, 0, None], [3], [1, 0, 2]]  # levels of a weak ordering; None: unjudged
    flat = [g for lv in grades for g in lv]
    qrels = {"q": {f"d{i}": g for i, g in enumerate(flat) if g is not None}}
    run = {"q": {f"d{i}": float(3 - li) for i, li in enumerate(
        li for li, lv in enumerate(grades) for _ in lv)}}  # fmt: skip
    ideal = sorted((2**g - 1 for g in flat if g), reverse=True)
    for k in (2, 5):
        idcg = sum(Fraction(v) / Fraction(math.log2(i + 2)) for i, v in enumerate(ideal[:k]))
        values = []
        for combo in itertools.product(*(itertools.permutations(lv) for lv in grades)):
            order = [g for part in combo for g in part][:k]
            dcg = sum(
                Fraction(2 ** (g or 0) - 1) / Fraction(math.log2(i + 2))
                for i, g in enumerate(order)
            )
            values.append(dcg / idcg)
        want = float(sum(values) / len(values))
        ours = cranfield.evaluate(qrels, run, [f"nDCG(dcg=exp-log2)@{k}"], ties="weak")
        assert ours.values[0, 0] == pytest.approx(want, rel=1e-12), k
