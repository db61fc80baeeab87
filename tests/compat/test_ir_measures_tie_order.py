"""cranfield.compat.ir_measures orders documents of equal score as each measure's default
provider does (ir_measures 0.4.3): cwl_eval's (``BPM``, ``INST``, ``INSQ``, ``SDCG``,
``NERR*``) keeps the order given, msmarco's (``RR@k``) takes document ids ascending; trec_eval's
order (document ids descending) gave other values on runs with ties.  Expected values: the
installed ir_measures package, on generated runs with ties, unjudged documents, negative
grades, a judged query the run lacks and a run query without judgments."""

from __future__ import annotations

import math
import random
import shutil

import pytest

from cranfield.compat import ir_measures as workalike

real = pytest.importorskip("ir_measures")
pytest.importorskip("cwl")  # cwl-eval, ir_measures' cwl_eval provider

MEASURES = [
    "BPM(max_rel=3)@10",
    "BPM(T=2.0,max_rel=3)@5",
    "INST(max_rel=3)",
    "INSQ(max_rel=3)",
    "SDCG(max_rel=3)@10",
    "NERR8(max_rel=3)@10",
    "NERR9(max_rel=3)@10",
    "NERR10(max_rel=3)",
    "NERR11(max_rel=3)",
    "RR@5",
    "RR(rel=2)@10",
]


def _collection(seed: int, prefix: str = "q") -> tuple[dict, dict]:
    rng = random.Random(seed)
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    for q in range(12):
        qid = f"{prefix}{q + 1}"
        docs = [f"d{i}" for i in range(30)]
        if q != 3:  # q4: retrieved, never judged
            qrels[qid] = {d: rng.choice([-1, 0, 0, 1, 2, 3]) for d in rng.sample(docs, 15)}
        if q != 5:  # q6: judged, not retrieved
            picked = rng.sample(docs, rng.randint(1, 25))
            run[qid] = {d: float(rng.choice([1, 2, 3, 4, 5])) for d in picked}  # many ties
    return qrels, run


@pytest.mark.parametrize("seed", [7, 11, 23])
@pytest.mark.parametrize("text", MEASURES)
def test_values_equal_the_default_providers_with_ties(text: str, seed: int) -> None:
    qrels, run = _collection(seed)
    measure = real.parse_measure(text)
    expected = {m.query_id: m.value for m in real.iter_calc([measure], qrels, run)}
    got = {m.query_id: m.value for m in workalike.iter_calc([text], qrels, run)}
    assert set(got) == set(expected)
    for qid, value in expected.items():
        assert math.isclose(got[qid], value, rel_tol=1e-12, abs_tol=1e-15), (qid, got[qid], value)
    want = real.calc_aggregate([measure], qrels, run)[measure]
    assert math.isclose(
        workalike.parse_measure(text).calc_aggregate(qrels, run), want, rel_tol=1e-12
    )


@pytest.mark.skipif(shutil.which("perl") is None, reason="ir_measures' gdeval provider runs perl")
@pytest.mark.parametrize("seed", [7, 11])
@pytest.mark.parametrize("text", ["ERR@10", "ERR@20", "nDCG(dcg='exp-log2')@10"])
def test_gdeval_measures_equal_its_printed_values(text: str, seed: int) -> None:
    """gdeval (ir_measures' default provider of ``ERR@k`` and ``nDCG(dcg='exp-log2')@k``)
    prints 5 decimals, which ir_measures reads back: the work-alike's full-precision values
    round to them (gdeval's query ids are numbers)."""
    qrels, run = _collection(seed, prefix="")
    measure = real.parse_measure(text)
    expected = {m.query_id: m.value for m in real.iter_calc([measure], qrels, run)}
    got = {m.query_id: m.value for m in workalike.iter_calc([text], qrels, run)}
    assert set(got) == set(expected)
    for qid, value in expected.items():
        assert abs(got[qid] - value) <= 5.0000001e-6, (qid, got[qid], value)
