"""The ir_measures work-alike's ``Accuracy`` (the accuracy provider) and user-defined
measures (``define``, ``define_byquery``: the runtime provider) against the real ir_measures
package, on its own examples and on generated runs with tied scores."""

from __future__ import annotations

import random

import pandas as pd
import pytest

from cranfield.compat import ir_measures as workalike
from cranfield.errors import MeasureError

real = pytest.importorskip("ir_measures")

QRELS_TEXT = """
0 0 D0 0
0 0 D1 1
0 0 D2 1
0 0 D3 2
0 0 D4 0
1 0 D0 1
1 0 D3 0
1 0 D5 2
"""
RUN_TEXT = """
0 0 D0 1 0.8 run
0 0 D2 2 0.7 run
0 0 D1 3 0.3 run
0 0 D3 4 0.4 run
0 0 D4 5 0.1 run
1 0 D1 1 0.8 run
1 0 D3 2 0.7 run
1 0 D4 3 0.3 run
1 0 D2 4 0.4 run
"""


def _metrics(mod, measures, qrels, run) -> list[tuple[str, str, float]]:
    return [(m.query_id, str(m.measure), m.value) for m in mod.iter_calc(measures, qrels, run)]


def _both(make, measures_of, qrels, run):
    """The metrics and aggregates of the same measures made by each module."""
    out = []
    for mod in (workalike, real):
        measures = measures_of(mod, make(mod))
        metrics = sorted(_metrics(mod, measures, qrels, run))
        aggregates = {  # NaN (no query reported) as a string: equal to itself
            str(k): repr(v) if v != v else v
            for k, v in mod.calc_aggregate(measures, qrels, run).items()
        }
        out.append((metrics, aggregates))
    return out


def my_p(qrels, run):
    run = run.merge(qrels, "left", on=["doc_id"])
    return (run["relevance"] > 0).sum() / len(run)


def my_p_all(qrels, run):
    run = run.merge(qrels, "left", on=["query_id", "doc_id"])
    for qid, df in run.groupby("query_id"):
        yield qid, (df["relevance"] > 0).sum() / len(df)


def top_doc(qrels, run):
    """The rank-1 document's grade: reads the tie order of the run the provider sorted."""
    first = run.iloc[0]["doc_id"]
    rows = qrels[qrels["doc_id"] == first]
    return float(rows["relevance"].iloc[0]) if len(rows) else -1.0


@pytest.mark.parametrize("k", [None, 1, 2, 3])
def test_define_and_define_byquery_equal_ir_measures(k) -> None:
    """ir_measures' tests/test_runtime.py's measures and data."""

    def measures_of(mod, made, k=k):
        return [m if k is None else m @ k for m in made]

    for make in (
        lambda mod: [mod.define_byquery(my_p), mod.define(my_p_all, "MyP")],
        lambda mod: [mod.define_byquery(top_doc), mod.AP, mod.P @ 2],
    ):
        ours, theirs = _both(
            make,
            measures_of,
            list(real.read_trec_qrels(QRELS_TEXT)),
            list(real.read_trec_run(RUN_TEXT)),
        )
        assert ours == theirs
        # the work-alike's own readers give the same
        measures = measures_of(workalike, make(workalike))
        qrels_w, run_w = workalike.read_trec_qrels(QRELS_TEXT), workalike.read_trec_run(RUN_TEXT)
        assert sorted(_metrics(workalike, measures, qrels_w, run_w)) == ours[0]


def test_define_with_ties_and_dataframes_equals_ir_measures() -> None:
    rng = random.Random(3)
    for _ in range(20):
        qrels = pd.DataFrame(
            [(f"q{q}", f"d{d}", rng.choice([0, 1, 2])) for q in range(4) for d in range(6)],
            columns=["query_id", "doc_id", "relevance"],
        )
        run = pd.DataFrame(
            [(f"q{q}", f"d{d}", rng.choice([0.5, 1.0, 2.0])) for q in range(4) for d in range(8)],
            columns=["query_id", "doc_id", "score"],
        ).sample(frac=1.0, random_state=rng.randint(0, 1000))
        k = rng.choice([1, 2, 5])
        ours, theirs = _both(
            lambda mod: [mod.define_byquery(top_doc)],
            lambda mod, made, k=k: [m @ k for m in made],
            qrels,
            run,
        )
        assert ours == theirs


def test_a_defined_measure_reads_any_columns() -> None:
    """ir_measures' test_non_doc_qrels: frames without documents or scores."""
    answer = pd.DataFrame(
        [["q1", "professor proton mixed the reactants"]], columns=["query_id", "a"]
    )
    gold = pd.DataFrame([["q1", "professor proton mixed the chemicals"]], columns=["query_id", "g"])
    length = workalike.define_byquery(lambda qrels, run: len(run.iloc[0]["a"]), "Len")
    assert [(m.query_id, m.value) for m in workalike.iter_calc([length], gold, answer)] == [
        ("q1", 36)
    ]


def test_defined_measures_print_compare_and_refuse_as_ir_measures() -> None:
    named = workalike.define(my_p_all, "MyP")
    assert str(named @ 5) == "MyP@5" == str(real.define(my_p_all, "MyP") @ 5)
    assert named @ 5 == workalike.define(my_p_all, "MyP") @ 5  # by name, as ir_measures
    unnamed = workalike.define(my_p_all)
    assert unnamed != workalike.define(my_p_all)
    with pytest.raises(MeasureError, match="unknown parameter 'rel'"):
        workalike.define(my_p_all, "MyP")(rel=2)
    with pytest.raises(MeasureError, match="unknown parameter 'cutoff'"):
        workalike.define(my_p_all, "MyP", support_cutoff=False) @ 5
    assert workalike.define_byquery(my_p).NAME == "my_p"
    a = workalike.define(my_p_all, run_inputs=["query_id"], qrel_inputs=["query_id", "x"])
    assert workalike.DefaultPipeline.run_inputs([a, workalike.P @ 5]) == [
        "doc_id",
        "query_id",
        "score",
    ]
    assert workalike.providers.RuntimeProvider().qrel_inputs([a]) == ["query_id", "x"]


def test_empty_inputs_are_no_queries_as_in_ir_measures() -> None:
    """ir_measures' test_define's "check empty lists", and the same for its built-in
    measures: an empty run scores every judged query 0; empty qrels give no metric, sums 0
    and means NaN."""
    qrels, run = list(real.read_trec_qrels(QRELS_TEXT)), list(real.read_trec_run(RUN_TEXT))
    for q, r in ((qrels, []), ([], run), ([], [])):
        ours, theirs = _both(
            lambda mod: [
                mod.define(my_p_all, "MyP") @ 2,
                mod.NumQ,
                mod.NumRel,
                mod.AP,
                mod.nDCG @ 10,
                mod.Judged @ 5,
                mod.Accuracy,
            ],
            lambda mod, made: made,
            q,
            r,
        )
        assert ours == theirs


def _collection(rng: random.Random) -> tuple[list, list]:
    qrels, run = [], []
    for t in range(5):
        for d in rng.sample(range(12), 6):
            qrels.append(real.Qrel(f"q{t}", f"d{d}", rng.choice([0, 0, 1, 2, -1])))
        docs = rng.sample(range(15), rng.randint(0, 10))
        for d in docs:
            run.append(real.ScoredDoc(f"q{t}", f"d{d}", rng.choice([0.0, 1.0, 1.5, 3.0])))
        run.append(real.ScoredDoc(f"q{t}", "zz", -5.0))  # a non-relevant document last
    rng.shuffle(run)
    return qrels, run


def test_accuracy_equals_ir_measures_with_ties() -> None:
    """Ties in the run's order (the provider's stable sort); queries with nothing relevant
    retrieved and judged queries the run lacks left out; the mean over those reported."""
    rng = random.Random(11)
    compared = 0
    for _ in range(60):
        qrels, run = _collection(rng)
        run = [r for r in run if r.query_id != "q4"]  # a judged query the run lacks
        k, rel = rng.choice([None, 2, 5]), rng.choice([1, 2])
        try:
            ours, theirs = _both(
                lambda mod, rel=rel: [mod.Accuracy(rel=rel)],
                lambda mod, made, k=k: [m if k is None else m @ k for m in made],
                qrels,
                run,
            )
        except ZeroDivisionError:  # a top k of relevant documents only: ir_measures' defect
            continue
        assert ours == theirs
        compared += 1
    assert compared >= 40


def test_accuracy_of_relevant_documents_only_is_1() -> None:
    """ir_measures 0.4.3 fails with ZeroDivisionError; the work-alike reports 1 (no pair
    ordered wrong), as cranfield's PairAccuracy declares."""
    qrels = [real.Qrel("q", "a", 1), real.Qrel("q", "b", 1)]
    run = [real.ScoredDoc("q", "a", 2.0), real.ScoredDoc("q", "b", 1.0)]
    with pytest.raises(ZeroDivisionError):
        list(real.iter_calc([real.Accuracy], qrels, run))
    assert [m.value for m in workalike.iter_calc([workalike.Accuracy], qrels, run)] == [1.0]
    with pytest.raises(MeasureError, match="rel must be an integer >= 1"):
        workalike.calc_aggregate([workalike.Accuracy(rel=0)], qrels, run)


def test_accuracy_does_not_depend_on_the_other_measures_asked() -> None:
    """ir_measures 0.4.3: asked alone, Accuracy leaves out the queries without a relevant
    document retrieved; asked with a measure of another provider, its pipeline fills them
    with 0 and the mean changes.  The work-alike follows the provider alone, always."""
    rng = random.Random(5)
    qrels, run = _collection(rng)
    alone = real.calc_aggregate([real.Accuracy], qrels, run)[real.Accuracy]
    mixed = real.calc_aggregate([real.Accuracy, real.AP], qrels, run)[real.Accuracy]
    assert alone != mixed  # the defect, reproduced on the real package
    for measures in ([workalike.Accuracy], [workalike.Accuracy, workalike.AP]):
        assert workalike.calc_aggregate(measures, qrels, run)[workalike.Accuracy] == alone
