"""ranx's order of every query's documents in a ``Qrels`` and a ``Run`` (numba's quicksort,
computed for every query at once by the compiled core: ``ordering.sorted_runs``) against the
installed ranx's own ``Qrels`` / ``Run``, and ``Run.from_file`` against ranx's."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cranfield.compat import ranx as ours

ranx = pytest.importorskip("ranx")


def generated(seed: int) -> tuple[dict, dict]:
    rng = random.Random(seed)
    qrels, run = {}, {}
    for i in range(40):
        n = rng.choice([1, 5, 15, 16, 17, 40, 120])  # both sides of numba's 15
        docs = [f"d{j}" for j in rng.sample(range(1000), n)]
        spread = rng.choice([2, 5, 10**6])  # many ties, some, almost none
        run[f"q{i}"] = {d: float(rng.randint(0, spread)) / 4 for d in docs}
        qrels[f"q{i}"] = {d: rng.randint(0, 3) for d in rng.sample(docs, max(1, n // 2))}
    return qrels, run


@pytest.mark.parametrize("seed", range(8))
def test_run_and_qrels_orders_equal_ranx(seed: int) -> None:
    qrels, run = generated(seed)
    peer_run, peer_qrels = ranx.Run(run), ranx.Qrels(qrels)
    got_run, got_qrels = ours.Run(run), ours.Qrels(qrels)
    assert list(got_run.run) == list(peer_run.run)
    for q in peer_run.run:
        assert list(got_run.run[q].items()) == [
            (d, float(s)) for d, s in peer_run.run[q].items()
        ], q
    for q in peer_qrels.qrels:
        assert list(got_qrels.qrels[q].items()) == [
            (d, int(g)) for d, g in peer_qrels.qrels[q].items()
        ], q


@pytest.mark.parametrize("seed", range(3))
def test_run_from_file_equals_ranx(tmp_path: Path, seed: int) -> None:
    qrels, run = generated(seed)
    path = tmp_path / "run.trec"
    path.write_text(
        "".join(
            f"{q} Q0 {d} {i} {s} tag\n"
            for q, docs in run.items()
            for i, (d, s) in enumerate(docs.items(), 1)
        )
    )
    peer, got = ranx.Run.from_file(str(path)), ours.Run.from_file(str(path))
    assert got.name == peer.name
    for q in peer.run:
        assert list(got.run[q]) == list(peer.run[q]), q
    metrics = ["map", "ndcg@10", "precision@5", "mrr"]
    expected = ranx.evaluate(ranx.Qrels(qrels), peer, metrics)
    values = ours.evaluate(ours.Qrels(qrels), got, metrics)
    for m in metrics:
        assert values[m] == pytest.approx(float(expected[m]), abs=1e-12), m
