"""Readers on real files: the classic collections in ../shared/data (counts from its README,
"Using these files in tests") and trec_eval's own test inputs (skipped when absent)."""

import numpy as np
import pytest

from conftest import CONFORMANCE, DATA, need
from cranfield.io import read_qrels, read_run

# collection: (qrels.trec lines, distinct qids, relevant judgments = grade >= 1)
COLLECTIONS = {
    "adi": (170, 35, 170),
    "cisi": (3114, 76, 3114),
    "cran": (1837, 225, 1612),
    "med": (696, 30, 696),
    "cacm": (796, 52, 796),
    "npl": (2083, 93, 2083),
    "time": (324, 83, 324),
    "lisa": (379, 35, 379),
}


@pytest.mark.parametrize("name", COLLECTIONS)
def test_classic_collection_qrels_counts(name, text_parser):
    path = need(DATA / name / "qrels.trec")
    lines, qids, relevant = COLLECTIONS[name]
    q = read_qrels(path)
    assert len(q) == lines
    assert q.num_queries == qids
    assert int((q.grades >= 1).sum()) == relevant
    assert q.query_ids == tuple(sorted(q.query_ids))  # strcmp order: "10" < "2"


def test_cranfield_grades_are_the_readme_counts(text_parser):
    q = read_qrels(need(DATA / "cran" / "qrels.trec"))
    counts = dict(zip(*np.unique(q.grades, return_counts=True), strict=True))
    assert {int(k): int(v) for k, v in counts.items()} == {4: 128, 3: 387, 2: 734, 1: 363, 0: 225}


def test_conformance_qrels_with_comments_read_like_without(text_parser):
    plain = read_qrels(need(CONFORMANCE / "qrels.test")).to_dict()
    commented = read_qrels(need(CONFORMANCE / "qrels.test.with-comments")).to_dict()
    assert sum(len(d) for d in plain.values()) == 3681  # `grep -c . qrels.test`
    # the commented copy has three comment lines, and one docno with a '#' inside (data)
    plain["301"]["CR#93E-1860"] = plain["301"].pop("CR93E-1860")
    assert commented == plain


def test_conformance_msmarco_style_ids_with_hash_inside(text_parser):
    q = read_qrels(need(CONFORMANCE / "qrels.comment.test"))
    assert any("#" in d for d in q.doc_ids)
    r = read_run(need(CONFORMANCE / "results.comment.test"))
    assert r.query_ids[0] == "2024-224960"
    assert r.docs.to_list()[0] == "msmarco_v2.1_doc_50_2286987788#13_3087841662"
    assert r.tag == "comment.test"
