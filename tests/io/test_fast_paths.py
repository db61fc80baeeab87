"""The fast paths (Arrow parse and ids, hash-filtered lookup, block permutation, Arrow tie
sort, sparse join) give exactly what the plain paths give, on files with ties, interleaved
queries, unsorted scores, unjudged and negative-graded documents."""

from __future__ import annotations

import numpy as np
import pytest

from cranfield.evaluation import evaluate
from cranfield.io import read_qrels, read_run
from cranfield.io.trec import core as trec_core
from cranfield.judging.join import judge

MEASURES = ["AP", "P@5", "nDCG@10", "RR", "R@20", "Rprec", "NumRelRet"]


def _files(tmp_path, seed: int, layout: str):
    rng = np.random.default_rng(seed)
    qids = ["10", "9", "1", "007", "b", "a"]
    qrels, run = [], []
    for q in qids:
        docs = rng.choice(60, size=30, replace=False)
        for d in docs[:12]:
            qrels.append(f"{q} 0 D{d} {rng.integers(-1, 4)}")
        for i, d in enumerate(docs[5:], 1):
            run.append((q, f"D{d}", i, float(rng.integers(0, 6)) / 2))  # many ties
    if layout == "interleaved":
        run = [run[i] for i in rng.permutation(len(run))]
    elif layout == "ascending":  # one block per query, scores ascending within it
        run = sorted(run, key=lambda r: (qids.index(r[0]), r[3]))
    qp = tmp_path / f"q{seed}{layout}.txt"
    rp = tmp_path / f"r{seed}{layout}.txt"
    qp.write_text("\n".join(qrels) + "\n")
    rp.write_text("\n".join(f"{q} Q0 {d} {i} {s} t" for q, d, i, s in run) + "\n")
    return qp, rp


@pytest.mark.parametrize("layout", ["blocks", "interleaved", "ascending"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_fast_paths_equal_plain_paths(tmp_path, monkeypatch, seed, layout):
    qp, rp = _files(tmp_path, seed, layout)
    qrels = read_qrels(qp)
    plain = read_run(rp)
    monkeypatch.setattr(trec_core, "ARROW_IDS_ROWS", 0)
    fast = read_run(rp)
    assert fast.docs.is_arrow and not plain.docs.is_arrow
    for ties in ("trec", "given", "random", "weak"):
        for kw in ({}, {"depth": 7}, {"judged_only": True}, {"complete": True}):
            a = judge(qrels, plain, ties=ties, seed=5, **kw)
            b = judge(qrels, fast, ties=ties, seed=5, **kw)
            assert a.query_ids == b.query_ids
            for f in ("offsets", "grades", "scores", "tie_ids", "qrels_offsets", "qrels_grades"):
                assert np.array_equal(getattr(a, f), getattr(b, f)), (ties, kw, f)
        ra = evaluate(qrels, plain, MEASURES, ties=ties, seed=5)
        rb = evaluate(qrels, fast, MEASURES, ties=ties, seed=5)
        assert np.array_equal(ra.values, rb.values)


def test_trec_order_breaks_ties_by_docno_descending_on_both_paths(tmp_path, monkeypatch):
    qp, rp = _files(tmp_path, 4, "interleaved")
    qrels = read_qrels(qp)
    for fast in (False, True):
        if fast:
            monkeypatch.setattr(trec_core, "ARROW_IDS_ROWS", 0)
        run = read_run(rp)
        jr = judge(qrels, run, ties="trec")
        judged = qrels.to_dict()
        by_q: dict[str, list] = {}
        for q, d, s in zip(
            [run.query_ids[c] for c in run.qcodes], run.docs.to_list(), run.scores, strict=True
        ):
            by_q.setdefault(q, []).append((s, d))
        expected = []  # brute force: per query, score descending then docno descending
        for q in jr.query_ids:
            for _, d in sorted(by_q[q], reverse=True):
                g = judged[q].get(d)
                expected.append(-1 if g is None else -2 if g < 0 else g)
        assert jr.grades.tolist() == expected


@pytest.mark.parametrize("hashed_lists", [False, True])
@pytest.mark.parametrize("collide", [False, True])
def test_vocabulary_lookup_of_arrow_ids_equals_dictionary_lookup(
    monkeypatch, collide, hashed_lists
):
    """Arrow ids, and Python ids (short columns: the dictionary; long ones: the hash filter,
    then the dictionary), are found where the dictionary finds them."""
    from cranfield.base import id_hashes
    from cranfield.base.arrow import strings_arrow
    from cranfield.data import id_column
    from cranfield.data.id_column import IdColumn, Vocabulary

    monkeypatch.setattr(id_column, "HASHED_LOOKUP_ROWS", 0 if hashed_lists else 1 << 62)

    if collide:  # every string hashes alike: the exact fallbacks must take over
        for name in ("hash_arrow", "hash_strings"):
            monkeypatch.setattr(id_hashes, name, lambda v: np.zeros(len(v), dtype=np.int64))
    rng = np.random.default_rng(11)
    pool = [f"d{i}" for i in range(300)] + ["é1", "ü", "x y", "D00"]
    vocab = Vocabulary(list(dict.fromkeys(rng.choice(pool, 120).tolist())))
    ids = rng.choice([*pool, "absent", "d1000"], 2000).tolist()
    arrow_col = IdColumn(strings_arrow(ids))
    expected = [vocab.index.get(d, -1) for d in ids]
    assert arrow_col.lookup(vocab).tolist() == expected
    assert IdColumn(ids).lookup(vocab).tolist() == expected
    assert arrow_col.lookup(vocab.values).tolist() == expected  # a plain sequence works too
