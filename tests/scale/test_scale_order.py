"""The fast orderings of ties/order.py are the plain ones: the packed-key sorts equal numpy's
stable sorts (brute force, on random data with many ties and -0.0), and sorting only the tie
groups that hold a document of the qrels judges every run exactly as sorting all of them."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cranfield.judging.join as judging_mod
from cranfield import JudgedRankings
from cranfield.data.id_column import IdColumn
from cranfield.data.tables import Qrels, Run
from cranfield.judging import ordering as order_mod
from cranfield.judging.join import judge


@settings(max_examples=200, deadline=None, derandomize=True)
@given(
    segs=st.lists(st.integers(0, 6), min_size=2, max_size=60),
    scores=st.lists(st.sampled_from([0.0, -0.0, 1.0, 2.5, -3.0, 1e300, 5e-324]), min_size=60),
)
def test_packed_keys_sort_like_numpy(segs, scores):
    seg = np.sort(np.asarray(segs, dtype=np.int32))
    s = np.asarray(scores[: len(seg)], dtype=np.float64)
    assert np.array_equal(order_mod._by_descending_score(seg, s), np.lexsort((-s, seg)))
    shuffled = np.asarray(segs, dtype=np.int32)
    assert np.array_equal(order_mod.stable_order(shuffled), np.argsort(shuffled, kind="stable"))


def test_packed_keys_fall_back_when_they_do_not_fit(monkeypatch):
    rng = np.random.default_rng(0)
    seg = np.sort(rng.integers(0, 2**40, 1000))  # 40 bits of segment: no room left
    s = rng.random(1000)
    assert np.array_equal(order_mod._by_descending_score(seg, s), np.lexsort((-s, seg)))


def _run(rng, n_queries=30, depth=60, levels=12, ids="D{}"):
    qids, docs, scores = [], [], []
    for q in range(n_queries):
        picked = rng.choice(400, size=depth, replace=False)
        qids += [f"q{q}"] * depth
        docs += [ids.format(d) for d in picked.tolist()]
        scores += np.floor(rng.random(depth) * levels).tolist()
    order = rng.permutation(len(qids)) if rng.random() < 0.5 else np.arange(len(qids))
    qindex = {q: i for i, q in enumerate(dict.fromkeys(qids[i] for i in order))}
    return Run(
        name="r",
        query_ids=tuple(qindex),
        qcodes=np.array([qindex[qids[i]] for i in order], dtype=np.int32),
        docs=IdColumn([docs[i] for i in order]),
        scores=np.array([scores[i] for i in order]),
        ranks=np.arange(1, len(qids) + 1),
    )


def _qrels(rng, ids="D{}"):
    q, d, g = [], [], []
    for i in range(32):  # q30, q31: no results
        for doc in rng.choice(400, size=5, replace=False).tolist():
            q.append(f"q{i}")
            d.append(ids.format(doc))
            g.append(int(rng.integers(-1, 4)))
    return Qrels.from_rows(q, d, g)


# the lazy annotation is compared by what it computes (the ``annotated`` mask)
FIELDS = [
    "annotated" if f.name == "annotation" else f.name for f in dataclasses.fields(JudgedRankings)
]


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize(
    "kw",
    [{}, {"depth": 17}, {"judged_only": True}, {"complete": True, "depth": 5}],
)
def test_sorting_only_marked_tie_groups_judges_the_same(monkeypatch, seed, kw):
    rng = np.random.default_rng(seed)
    ids = "GX{}" if seed % 2 else "D{}"
    run, qrels = _run(rng, ids=ids), _qrels(rng, ids=ids)
    fast = judge(qrels, run, **kw)
    real = order_mod.order_run

    def unmarked(*a, **k):
        k["marked"] = None
        return real(*a, **k)

    monkeypatch.setattr(judging_mod, "order_run", unmarked)
    plain = judge(qrels, run, **kw)
    skipped = []
    for tied in (True, False):  # the data has tie groups without a document of the qrels
        code = run.docs.lookup(qrels.doc_index)
        o = real(
            run,
            np.arange(run.num_queries),
            run.num_queries,
            ties="trec",
            seed=0,
            marked=code >= 0 if tied else None,
        )
        skipped.append(o.rows)
    assert not np.array_equal(*skipped)
    for name in FIELDS:
        x, y = getattr(fast, name), getattr(plain, name)
        if isinstance(x, np.ndarray):
            assert np.array_equal(x, y), name
        else:
            assert x == y, name
