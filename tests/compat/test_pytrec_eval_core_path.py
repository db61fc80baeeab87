"""The pytrec_eval work-alike on the compiled core's path (plain dicts judged in
rust/src/dicts.rs, kernel measures computed there) gives what its general path gives
(``RelevanceEvaluator._judge`` and the catalogue's adapters), value for value and bit for
bit, on generated dicts: ties (0.0 and -0.0, scores equal only in single precision),
queries mapped to no documents, queries without judgments, negative grades, unjudged
documents, relevance levels 1 and 2, judged_docs_only_flag, trec_eval 9.0.8 and 10.0."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cranfield.compat import pytrec_eval

QIDS = ["q1", "q2", "q10", "é"]
DOCS = ["d1", "d2", "d10", "D3", "z", "é", "ü1", "a", *(f"n{i}" for i in range(16))]
SCORES = [0.0, -0.0, 1.0, 1.5, 2, -3.25, 0.1, 0.1 + 1e-12, 1e300]
GRADES = [-1, 0, 1, 1, 2, 3]
MEASURE_SETS = [
    {"map", "ndcg_cut.10", "P.10"},
    {"all_trec"},
    {"official"},
    {"recip_rank", "Rprec", "recall.5,100", "success.1,5", "num_rel_ret", "num_q"},
    {"ndcg", "bpref", "gm_map", "Rprec_mult.0.2,1.5", "P_3", "iprec_at_recall", "runid"},
]


@st.composite
def _docs(draw: st.DrawFn, values: list) -> dict:
    docs = draw(st.permutations(DOCS))[: draw(st.integers(0, len(DOCS)))]
    return {d: draw(st.sampled_from(values)) for d in docs}


def _bits(result: dict) -> dict:
    return {q: {m: float(v).hex() for m, v in row.items()} for q, row in result.items()}


@pytest.mark.parametrize("measures", MEASURE_SETS, ids=lambda m: ",".join(sorted(m)))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    qrels=st.dictionaries(st.sampled_from(QIDS), _docs(GRADES), min_size=1, max_size=4),
    run=st.dictionaries(st.sampled_from([*QIDS, "q9"]), _docs(SCORES), max_size=5),
    level=st.sampled_from([1, 2]),
    judged_only=st.booleans(),
    version=st.sampled_from(["9.0.8", "10.0"]),
)
def test_the_core_path_gives_the_general_paths_values(
    measures, qrels, run, level, judged_only, version
) -> None:
    ev = pytrec_eval.RelevanceEvaluator(qrels, measures, level, judged_only, trec_eval=version)
    if not any(qrels.values()):
        assert ev._fast is None  # nothing judged: the general path
        return
    assert ev._fast is not None
    fast = ev._fast.evaluate(run, ev)
    general = pytrec_eval.RelevanceEvaluator(qrels, measures, level, judged_only, trec_eval=version)
    general._fast = None
    expected = general.evaluate(run)
    if expected:
        assert fast is not None  # the core's path took it
        assert list(fast) == list(expected)  # the queries in the order of the run
        assert [list(r) for r in fast.values()] == [list(r) for r in expected.values()]
    assert _bits(ev.evaluate(run)) == _bits(expected)
