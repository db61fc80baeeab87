"""The other tools' objects as inputs, with the real packages: ir_measures' Qrel/ScoredDoc
records (lists and generators), ranx Qrels/Run objects and their DataFrames, ir_datasets
datasets and ``irds:<id>`` (a local dataset: no download), PyTerrier's result and qrels
frames.  Each round trip is checked against the tool's own view of the same data (its
records, its dicts, its evaluation), never against cranfield's output."""

from __future__ import annotations

import sys
import warnings

import numpy as np
import pytest

import cranfield
from cranfield.errors import InputError, MissingExtraError, ParameterError
from cranfield.measures import parse

QRELS = {"1": {"a": 1, "b": 0, "c": 2}, "2": {"d": 1, "e": 0}, "10": {"f": 3}}
RUN = {
    "1": {"a": 0.5, "b": 2.5, "c": 1.5, "x": 0.25},
    "2": {"d": 3.0, "e": 1.0},
    "10": {"g": 2.0, "f": 1.0},
}


def _same_qrels(ours, expected: dict) -> None:
    assert ours.to_dict() == expected


def _same_run(ours, expected: dict) -> None:
    got = ours.to_dict()
    assert got == expected
    for q in expected:  # the given order is the source's order
        assert list(got[q]) == list(expected[q])


# ------------------------------------------------------------------------------ ir_measures
ir_measures = pytest.importorskip("ir_measures")


def _records():
    qrels = [ir_measures.Qrel(q, d, g) for q, docs in QRELS.items() for d, g in docs.items()]
    run = [ir_measures.ScoredDoc(q, d, s) for q, docs in RUN.items() for d, s in docs.items()]
    return qrels, run


def test_qrel_and_scored_doc_records_read_as_their_data():
    qrels, run = _records()
    _same_qrels(cranfield.read_qrels(qrels), QRELS)
    _same_qrels(cranfield.read_qrels(iter(qrels)), QRELS)
    _same_qrels(cranfield.read_qrels(tuple(qrels)), QRELS)
    _same_run(cranfield.read_run(run), RUN)
    _same_run(cranfield.read_run(x for x in run), RUN)


def test_records_evaluate_as_ir_measures_does():
    qrels, run = _records()
    measures = [ir_measures.AP, ir_measures.nDCG @ 3, ir_measures.P @ 2, ir_measures.RR]
    theirs = ir_measures.calc_aggregate(measures, qrels, run)
    res = cranfield.evaluate(qrels, run, measures)  # a list of ScoredDoc is one run
    assert not isinstance(res, cranfield.ResultsSet)
    for m in measures:
        assert res.aggregate_of(str(parse(m))) == pytest.approx(theirs[m], abs=1e-12), m
    # generators, as ir_measures.read_trec_qrels/read_trec_run give them, and a list of runs
    both = cranfield.evaluate(iter(qrels), [iter(run), list(run)], [ir_measures.AP])
    assert [r.run for r in both] == ["run1", "run2"]


def test_ir_measures_readers_give_records_cranfield_reads(tmp_path):
    (tmp_path / "q").write_text("1 0 a 1\n1 0 b 0\n2 0 c 2\n")
    (tmp_path / "r").write_text("1 Q0 a 1 2.5 t\n1 Q0 b 2 1.5 t\n2 Q0 c 1 1 t\n")
    qrels = cranfield.read_qrels(ir_measures.read_trec_qrels(str(tmp_path / "q")))
    run = cranfield.read_run(ir_measures.read_trec_run(str(tmp_path / "r")))
    assert qrels.to_dict() == cranfield.read_qrels(str(tmp_path / "q")).to_dict()
    assert run.to_dict() == {"1": {"a": 2.5, "b": 1.5}, "2": {"c": 1.0}}


def test_bad_records_name_the_item():
    qrels, run = _records()
    with pytest.raises(InputError, match=r"item 2: expected a ScoredDoc"):
        cranfield.read_run([*run[:2], ("1", "z"), *run[2:]])
    with pytest.raises(InputError, match="item 0: expected a Qrel .*that is a run's ScoredDoc"):
        cranfield.read_qrels(run)
    with pytest.raises(InputError, match="that is a Qrel: pass it as qrels"):
        cranfield.read_run(iter(qrels))
    with pytest.raises(InputError, match="item 1: score 'x' is not a number"):
        cranfield.read_run(
            [ir_measures.ScoredDoc("1", "a", 1.0), ir_measures.ScoredDoc("1", "b", "x")]
        )
    with pytest.raises(InputError, match="item 1: document 'a' is listed twice"):
        cranfield.read_run([ir_measures.ScoredDoc("1", "a", 1.0)] * 2)
    with pytest.raises(InputError, match="no results .the iterable is empty"):
        cranfield.read_run(iter([]))
    with pytest.raises(ParameterError, match="one result .* is not a run"):
        cranfield.evaluate(qrels, run[0])
    with pytest.raises(InputError, match="grade 1.5 is not an integer"):
        cranfield.read_qrels([ir_measures.Qrel("1", "a", 1.5)])


# ----------------------------------------------------------------------------------- ranx
def _ranx():
    return pytest.importorskip("ranx")


@pytest.mark.slow  # ranx compiles its numba functions on first use
def test_ranx_objects_read_as_their_dicts_and_keep_the_run_name():
    ranx = _ranx()
    rq = ranx.Qrels(QRELS)
    rr = ranx.Run(RUN, name="bm25")
    _same_qrels(cranfield.read_qrels(rq), {q: dict(d) for q, d in rq.to_dict().items()})
    run = cranfield.read_run(rr)
    assert run.name == "bm25"
    assert run.to_dict() == {q: dict(d) for q, d in rr.to_dict().items()}
    res = cranfield.evaluate(rq, [rr, ranx.Run(RUN, name="dense"), ranx.Run(RUN)], "AP")
    assert [r.run for r in res] == ["bm25", "dense", "run3"]
    named = cranfield.evaluate(rq, {"mine": rr}, "AP")
    assert [r.run for r in named] == ["mine"]  # a dict's key wins (naming rule 2)
    with pytest.raises(ParameterError, match="contains the control character U.0009"):
        cranfield.evaluate(rq, ranx.Run(RUN, name="a\tb"), "AP")


def test_ranx_dataframes_are_tables():
    ranx = _ranx()
    rq = ranx.Qrels(QRELS)
    rr = ranx.Run(RUN, name="bm25")
    qdf = rq.to_dataframe()  # q_id, doc_id, score (the grade)
    assert list(qdf.columns) == ["q_id", "doc_id", "score"]
    _same_qrels(cranfield.read_qrels(qdf), QRELS)
    assert cranfield.read_run(rr.to_dataframe()).to_dict() == rr.to_dict()


@pytest.mark.slow
def test_evaluating_ranx_objects_gives_ranxs_values_where_they_agree():
    """ranx's metrics against the cranfield forms docs/peers.md gives, on distinct scores and
    non-negative grades (every query has a judged non-relevant document: ranx's bpref divides
    by zero without one); rbp on binary grades (ranx's gain is the raw grade)."""
    ranx = _ranx()
    rng = np.random.default_rng(3)
    qrels = {}
    for q in range(6):
        docs = rng.choice(30, 10, replace=False)
        qrels[str(q)] = {f"d{i}": int(rng.integers(0, 4)) for i in docs}
        qrels[str(q)].update({"d99": 1, "d98": 0})
    run = {}
    for q in qrels:
        docs, scores = rng.choice(30, 20, replace=False), rng.random(20)
        run[q] = {f"d{i}": float(s) for i, s in zip(docs, scores, strict=True)}
    binary = {q: {d: int(g > 0) for d, g in docs.items()} for q, docs in qrels.items()}
    pairs = {
        "precision@5": "P@5", "recall@10": "R@10", "map": "AP", "mrr": "RR",
        "ndcg@10": "nDCG@10", "map@10": "AP@10", "hit_rate@3": "Success@3",
        "r-precision": "Rprec", "f1@10": "F@10", "dcg@10": "DCG@10", "bpref": "Bpref",
        "precision": "SetP", "recall": "SetR", "mrr@3": "RR@3",
        "dcg_burges@10": "DCG(gains={1:1,2:3,3:7})@10",
        "ndcg_burges@10": "nDCG(gains={1:1,2:3,3:7})@10",
        "map@10-l2": "AP(rel=2)@10", "precision@5-l3": "P(rel=3)@5",
    }  # fmt: skip
    theirs = ranx.evaluate(ranx.Qrels(qrels), ranx.Run(run), list(pairs), return_mean=False)
    res = cranfield.evaluate(ranx.Qrels(qrels), ranx.Run(run), list(pairs.values()))
    for name, ours in pairs.items():
        assert res.column(ours).tolist() == pytest.approx(list(theirs[name]), abs=1e-12), name
    rbp = ranx.evaluate(ranx.Qrels(binary), ranx.Run(run), "rbp.95", return_mean=False)
    ours = cranfield.evaluate(binary, run, "RBP(p=0.95)").values[:, 0]
    assert ours.tolist() == pytest.approx(list(rbp), abs=1e-12)


# ---------------------------------------------------------------------------- ir_datasets
@pytest.fixture
def local_dataset(tmp_path):
    """A dataset registered in ir_datasets' registry whose qrels are a local file."""
    ir_datasets = pytest.importorskip("ir_datasets")
    from ir_datasets.datasets.base import Dataset
    from ir_datasets.formats import TrecQrels
    from ir_datasets.util import LocalDownload

    path = tmp_path / "qrels.txt"
    path.write_text(
        "".join(f"{q} 0 {d} {g}\n" for q, docs in QRELS.items() for d, g in docs.items())
    )
    name = f"cranfield-tests/{tmp_path.name}"
    ir_datasets.registry.register(name, Dataset(TrecQrels(LocalDownload(path), {})))
    return name


def test_a_dataset_and_irds_id_read_as_ir_datasets_records(local_dataset):
    import ir_datasets

    ds = ir_datasets.load(local_dataset)
    expected = {}
    for r in ds.qrels_iter():
        expected.setdefault(r.query_id, {})[r.doc_id] = r.relevance
    _same_qrels(cranfield.read_qrels(ds), expected)
    qrels = cranfield.read_qrels(f"irds:{local_dataset}")
    _same_qrels(qrels, expected)
    assert qrels.source == f"irds:{local_dataset}"


def test_irds_on_the_command_line(local_dataset, tmp_path, capsys):
    from cranfield.cli import main

    run = tmp_path / "run.txt"
    run.write_text(
        "".join(f"{q} Q0 {d} 1 {s} r\n" for q, docs in RUN.items() for d, s in docs.items())
    )
    main(["evaluate", f"irds:{local_dataset}", str(run), "-m", "P_1", "-f", "trec"])
    out = capsys.readouterr().out
    # P@1 by hand: q1 ranks b (0) first, q2 d (1), q10 g (unjudged)
    assert "P_1\tall\t0.3333" in out


def test_irds_errors(local_dataset, tmp_path, monkeypatch):
    import ir_datasets
    from ir_datasets.datasets.base import Dataset
    from ir_datasets.formats import TrecQrels
    from ir_datasets.util import LocalDownload

    with pytest.raises(InputError, match="ir_datasets has no dataset .*did you mean"):
        cranfield.read_qrels(f"irds:{local_dataset}x")
    with pytest.raises(InputError, match="no dataset id"):
        cranfield.read_qrels("irds:")
    missing = f"cranfield-tests/missing-{tmp_path.name}"
    ir_datasets.registry.register(missing, Dataset(TrecQrels(LocalDownload(tmp_path / "no"), {})))
    with pytest.raises(InputError, match="ir_datasets could not read the qrels: FileNotFoundError"):
        cranfield.read_qrels(f"irds:{missing}")
    monkeypatch.setitem(sys.modules, "ir_datasets", None)  # not installed
    with pytest.raises(MissingExtraError, match=r"pip install 'cranfield\[irds\]'"):
        cranfield.read_qrels(f"irds:{local_dataset}")


# ------------------------------------------------------------------------------ PyTerrier
def _emulated_frames():
    """PyTerrier's frames as its docs define them (pyterrier/io.py and model.py, 1.1):
    results ``qid, docid, docno, rank, score, query`` with string ids, an integer internal
    ``docid`` and 0-based ranks; ``read_results`` gives ``qid, docno, rank, score, name``;
    qrels ``qid, docno, label``."""
    import pandas as pd

    rows = []
    for q, docs in RUN.items():
        ranked = sorted(docs.items(), key=lambda kv: -kv[1])
        for r, (d, s) in enumerate(ranked):
            rows.append(
                {"qid": q, "docid": len(rows), "docno": d, "rank": r, "score": s, "query": "text"}
            )
    results = pd.DataFrame(rows)
    qrels = pd.DataFrame(
        [{"qid": q, "docno": d, "label": g} for q, docs in QRELS.items() for d, g in docs.items()]
    )
    return results, qrels


def test_pyterrier_frames_as_documented():
    results, qrels = _emulated_frames()
    _same_qrels(cranfield.read_qrels(qrels), QRELS)
    run = cranfield.read_run(results)
    assert run.to_dict() == RUN
    assert run.ranks.tolist() == results["rank"].tolist()  # 0-based ranks order `given`
    named = results.assign(name="BM25")  # read_results keeps the run tag as `name`
    assert cranfield.read_run(named).name == "BM25"
    res = cranfield.evaluate(qrels, [named, results.assign(name="DPH")], "AP")
    assert [r.run for r in res] == ["BM25", "DPH"]


def test_pyterrier_frames_with_pyterrier(tmp_path):
    pt = pytest.importorskip("pyterrier")
    (tmp_path / "r1").write_text(
        "1 Q0 a 1 2.5 bm25\n1 Q0 c 2 1.5 bm25\n2 Q0 d 1 3 bm25\n10 Q0 g 1 2 bm25\n"
    )
    (tmp_path / "r2").write_text(
        "1 Q0 c 1 2.5 dph\n1 Q0 a 2 1.5 dph\n2 Q0 e 1 3 dph\n10 Q0 f 1 2 dph\n"
    )
    (tmp_path / "q").write_text(
        "".join(f"{q} 0 {d} {g}\n" for q, docs in QRELS.items() for d, g in docs.items())
    )
    r1, r2 = (pt.io.read_results(str(tmp_path / n)) for n in ("r1", "r2"))
    qrels = pt.io.read_qrels(str(tmp_path / "q"))
    res = cranfield.evaluate(qrels, [r1, r2], ["AP", "nDCG@10", "P@1"])
    assert [r.run for r in res] == ["bm25", "dph"]  # the `name` column
    topics = pt.new.queries(["x", "y", "z"], qid=["1", "2", "10"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table = pt.Experiment(
            [pt.Transformer.from_df(r1), pt.Transformer.from_df(r2)],
            topics,
            qrels,
            [ir_measures.AP, ir_measures.nDCG @ 10, ir_measures.P @ 1],
            names=["bm25", "dph"],
        )
    table = table.set_index("name")
    for r in res:
        for label in ("AP", "nDCG@10", "P@1"):
            assert r.aggregate_of(label) == pytest.approx(table.loc[r.run, label], abs=1e-12)


def test_a_table_whose_columns_are_a_records_fields_is_a_table():
    """``df.query_id`` is an attribute too: a DataFrame is one run, never one record."""
    import pandas as pd

    df = pd.DataFrame({"query_id": ["1"], "doc_id": ["a"], "score": [1.0]})
    res = cranfield.evaluate({"1": {"a": 1}}, df, "AP")
    assert res.values.tolist() == [[1.0]]
    qrels = pd.DataFrame({"query_id": ["1"], "doc_id": ["a"], "relevance": [1]})
    assert cranfield.read_qrels(qrels).to_dict() == {"1": {"a": 1}}


def test_an_open_file_is_not_an_iterable_of_records(tmp_path):
    path = tmp_path / "run.txt"
    path.write_text("1 Q0 a 1 1 t\n")
    with (
        open(path) as fh,
        pytest.raises(InputError, match="cannot read a run from a TextIOWrapper"),
    ):
        cranfield.read_run(fh)
