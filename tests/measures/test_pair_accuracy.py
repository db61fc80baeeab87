"""PairAccuracy (ir_measures' Accuracy): its authors' worked example, a brute-force count of
the ordered pairs, and the real ir_measures package."""

from __future__ import annotations

import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cranfield
from cranfield.errors import UndefinedMeasureWarning

# ir_measures' tests/test_accuracy.py: its qrels and run, and the values its authors expect
QRELS = {
    "0": {"C0_1": 0, "B0_1": 1, "A0_1": 2},
    "1": {"A1_1": 2, "A1_2": 2, "B1_1": 1, "C1_2": 0},
    "2": {"B1_1": 1},
}
RUN = {
    "0": {"C0_1": 0.4, "A0_1": 0.3, "C0_2": 0.2, "C0_3": 0.1},
    "1": {"C1_1": 0.8, "A1_1": 0.7, "C1_2": 0.6, "B1_1": 0.5, "C1_3": 0.4},
    "2": {"B1_1": 0.2, "C1_1": 0.1},
}


def test_ir_measures_worked_example() -> None:
    res = cranfield.evaluate(QRELS, RUN, ["PairAccuracy"])
    assert res.values[:, 0].tolist() == pytest.approx([2 / 3, 0.5 * (2 / 3 + 1 / 3), 1.0])
    with pytest.warns(UndefinedMeasureWarning, match="no relevant document retrieved"):
        res = cranfield.evaluate(QRELS, RUN, ["PairAccuracy(rel=2)"])
    # query 2 retrieves nothing of grade 2: ir_measures leaves it out, cranfield scores 0
    assert res.values[:, 0].tolist() == pytest.approx([2 / 3, 0.75, 0.0])


def test_a_cutoff_and_the_undefined_cases() -> None:
    """By hand: @2 query 0 reads C0_1 (non-relevant), A0_1 (relevant): the one pair is
    wrong, 0.  A ranking of relevant documents only has no pair: 1, with a warning."""
    res = cranfield.evaluate(QRELS, RUN, ["PairAccuracy@2"])
    assert res.values[:, 0].tolist() == [0.0, 0.0, 1.0]
    with pytest.warns(UndefinedMeasureWarning, match="every retrieved document"):
        res = cranfield.evaluate(
            {"q": {"a": 1, "b": 1}}, {"q": {"a": 2.0, "b": 1.0}}, ["PairAccuracy"]
        )
    assert res.values[0, 0] == 1.0


def _brute(qrels: dict, run: dict, k: int | None, rel: int) -> dict[str, float]:
    """Every (relevant, non-relevant) pair of the top k in trec_eval's order, counted."""
    out = {}
    for q, judged in qrels.items():
        if not judged:
            continue
        ranked = sorted(run.get(q, {}).items(), key=lambda x: (x[1], x[0]), reverse=True)[:k]
        flags = [judged.get(d, -1) >= rel for d, _ in ranked]
        wrong = sum(
            1
            for i in range(len(flags))
            for j in range(i + 1, len(flags))
            if flags[j] and not flags[i]
        )
        found, missed = sum(flags), len(flags) - sum(flags)
        if found == 0:
            out[q] = 0.0
        elif missed == 0:
            out[q] = 1.0
        else:
            out[q] = 1.0 - wrong / (float(missed) * found)
    return out


docs = st.sampled_from([f"d{i}" for i in range(12)])
collections = st.tuples(
    st.dictionaries(
        st.sampled_from(["q1", "q2", "q3"]), st.dictionaries(docs, st.integers(-1, 3)), min_size=1
    ),
    st.dictionaries(
        st.sampled_from(["q1", "q2", "q3", "q4"]),
        st.dictionaries(docs, st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.5])),
        min_size=1,
    ),
)


@settings(max_examples=300, deadline=None)
@given(collections, st.sampled_from([None, 1, 3, 8]), st.integers(1, 3))
def test_equal_to_a_count_of_pairs(collection, k, rel) -> None:
    qrels, run = collection
    want = _brute(qrels, run, k, rel)
    label = f"PairAccuracy(rel={rel})" + (f"@{k}" if k else "")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            res = cranfield.evaluate(qrels, run, [label])
        except cranfield.CranfieldError:
            return  # nothing evaluable (no judged query ranks anything)
    got = dict(zip(res.query_ids, res.values[:, 0].tolist(), strict=True))
    assert got == {q: want[q] for q in got}


def test_equal_to_ir_measures() -> None:
    """The real package's accuracy provider on generated runs with distinct scores (its
    stable sort and trec_eval's order agree), queries with nothing relevant retrieved left
    out as it does; rankings of relevant documents only are avoided (it fails on them)."""
    ir_measures = pytest.importorskip("ir_measures")
    import random

    rng = random.Random(7)
    compared = 0
    for trial in range(60):
        qrels, run = {}, {}
        for t in range(6):
            q = f"q{t}"
            qrels[q] = {f"d{i}": rng.choice([0, 0, 1, 2, -1]) for i in rng.sample(range(30), 10)}
            scores = rng.sample(range(1000), rng.randint(1, 25))
            run[q] = {
                f"d{i}": s / 7
                for i, s in zip(rng.sample(range(40), len(scores)), scores, strict=True)
            }
            run[q]["zz"] = -1.0  # a non-relevant document last: a pair unless cut off
        k, rel = rng.choice([None, 3, 10]), rng.choice([1, 2])
        measure = ir_measures.Accuracy(rel=rel) if k is None else ir_measures.Accuracy(rel=rel) @ k
        try:
            theirs = {
                m.query_id: m.value for m in ir_measures.accuracy.iter_calc([measure], qrels, run)
            }
        except ZeroDivisionError:  # a top k of relevant documents only: its defect
            continue
        compared += 1
        label = f"PairAccuracy(rel={rel})" + (f"@{k}" if k else "")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = cranfield.evaluate(qrels, run, [label])
        ours = dict(zip(res.query_ids, res.values[:, 0].tolist(), strict=True))
        assert set(theirs) <= set(ours), trial
        assert {q: ours[q] for q in theirs} == theirs, trial
        left_out = set(ours) - set(theirs)
        assert all(ours[q] == 0.0 for q in left_out), trial  # no relevant retrieved
    assert compared >= 40
