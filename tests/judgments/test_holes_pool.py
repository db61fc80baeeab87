"""cranfield holes: each run's unjudged pairs and the pool's, by strategy (issue 28, part 3).

Expected values come from a brute-force computation here, on plain dicts, written from the
strategies' definitions (trectools' TrecPoolMaker for depth/topX, rrf and rbp, which does not
install cleanly in the test environment: it needs sarge and more; Take@N from Lipani et al.)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from conftest import run_cli
from cranfield.errors import ParameterError
from cranfield.judgments.holes import holes


def _sample(seed: int, runs: int = 3):
    rng = np.random.default_rng(seed)
    qrels: dict[str, dict[str, int]] = {}
    out: dict[str, dict[str, dict[str, float]]] = {f"r{i}": {} for i in range(runs)}
    for qi in range(6):
        q = f"q{qi}"
        if qi != 4:  # q4: judged by no qrels line
            judged = rng.choice(30, size=int(rng.integers(0, 15)), replace=False)
            qrels[q] = {f"d{j:02d}": int(rng.integers(-1, 3)) for j in judged}
        for name in out:
            if qi == 5 and name == "r0":
                continue  # a run without this query
            ret = rng.choice(30, size=int(rng.integers(3, 25)), replace=False)
            scores = rng.permutation(len(ret)) * 1.0
            out[name][q] = {f"d{j:02d}": float(s) for j, s in zip(ret, scores, strict=True)}
    qrels = {q: d for q, d in qrels.items() if d}
    return qrels, out


def _ranked(ranking: dict[str, float]) -> list[str]:
    """trec_eval's order: score descending, then document id descending."""
    return [d for d, _ in sorted(ranking.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)]


def _queries(qrels, runs):
    return sorted(set(qrels) | {q for r in runs.values() for q in r})


def _oracle_pool(runs, q, strategy, depth=None, size=None, p=0.8, k=60.0, merge="sum"):
    lists = [_ranked(r.get(q, {}))[:depth] for r in runs.values()]
    if strategy == "depth":
        pool = set().union(*map(set, lists))
        best = {d: min((lst.index(d), i) for i, lst in enumerate(lists) if d in lst) for d in pool}
        return sorted(pool, key=best.__getitem__)
    if strategy == "take":
        taken: list[str] = []
        for rank in range(max(map(len, lists))):
            for lst in lists:
                if rank < len(lst) and lst[rank] not in taken:
                    taken.append(lst[rank])
                    if len(taken) == size:
                        return taken
        return taken
    score: dict[str, float] = {}
    for lst in lists:
        for rank, d in enumerate(lst, start=1):
            w = 1.0 / (k + rank) if strategy == "rrf" else (1 - p) * p ** (rank - 1)
            score[d] = max(score.get(d, 0.0), w) if merge == "max" else score.get(d, 0.0) + w
    return sorted(score, key=lambda d: (-score[d], d))[:size]


CASES = [
    {"strategy": "depth", "depth": 1},
    {"strategy": "depth", "depth": 5},
    {"strategy": "take", "size": 7},
    {"strategy": "take", "size": 12, "depth": 4},
    {"strategy": "rrf", "size": 8},
    {"strategy": "rrf", "size": 8, "rrf_k": 0.0},
    {"strategy": "rbp", "size": 6},
    {"strategy": "rbp", "size": 6, "p": 0.5, "merge": "max"},
    {"strategy": "rbp", "size": 10, "depth": 3},
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: "-".join(f"{v}" for v in c.values()))
@pytest.mark.parametrize("seed", [0, 1])
def test_pool_and_request_equal_the_brute_force_pools(seed, case):
    qrels, runs = _sample(seed)
    h = holes(qrels, runs, **case)
    oracle_case = {("k" if key == "rrf_k" else key): v for key, v in case.items()}
    queries = _queries(qrels, runs)
    assert list(h.query_ids) == queries
    request = []
    for q in queries:
        expected = _oracle_pool(runs, q, **oracle_case)
        assert h.pool[q] == expected, q
        request += [(q, d) for d in expected if d not in qrels.get(q, {})]
    assert h.request == request
    assert h.to_trec() == "".join(f"{q} 0 {d}\n" for q, d in request)


@pytest.mark.parametrize("depth", [None, 3])
def test_each_run_holes_are_its_unjudged_retrieved_documents(depth):
    qrels, runs = _sample(3)
    h = holes(qrels, runs, depth=depth) if depth else holes(qrels, runs, strategy="take", size=5)
    for name, run in runs.items():
        expected = [
            (q, d)
            for q in _queries(qrels, runs)
            for d in _ranked(run.get(q, {}))[:depth]
            if d not in qrels.get(q, {})
        ]
        assert h.run_holes[name] == expected
        counts = h.counts()[name]
        assert sum(counts.values()) == len(expected)
        assert counts["q4"] == len(_ranked(run.get("q4", {}))[:depth])  # judged by nothing


def test_negative_grades_are_not_holes_and_csv_has_priorities():
    qrels = {"q1": {"a": -1, "b": 1}}
    runs = {"x": {"q1": {"a": 3.0, "b": 2.0, "c": 1.0, "d": 0.5}}}
    h = holes(qrels, runs, depth=3)
    assert h.request == [("q1", "c")]
    assert h.to_csv() == "query_id,doc_id,priority\nq1,c,1\n"
    h = holes(qrels, runs, strategy="rrf", size=4)
    assert h.to_csv().splitlines()[1:] == ["q1,c,1", "q1,d,2"]


def test_bad_strategy_parameters_are_one_error():
    qrels, runs = _sample(0)
    assert holes(qrels, runs).pool == holes(qrels, runs, depth=10**6).pool  # all retrieved
    with pytest.raises(ParameterError, match="needs a pool size"):
        holes(qrels, runs, strategy="rbp")
    with pytest.raises(ParameterError, match="p must be in"):
        holes(qrels, runs, strategy="rbp", size=3, p=1.0)
    with pytest.raises(ParameterError, match="pooling strategy"):
        holes(qrels, runs, strategy="borda", size=3)


def _files(tmp_path, qrels, runs):
    qp = tmp_path / "qrels.txt"
    qp.write_text("".join(f"{q} 0 {d} {g}\n" for q, ds in qrels.items() for d, g in ds.items()))
    paths = []
    for name, run in runs.items():
        rp = tmp_path / f"{name}.txt"
        rp.write_text(
            "".join(
                f"{q} Q0 {d} {i + 1} {run[q][d]} {name}\n"
                for q in run
                for i, d in enumerate(_ranked(run[q]))
            )
        )
        paths.append(str(rp))
    return str(qp), paths


def test_cli_holes_request_counts_and_errors(tmp_path):
    qrels, runs = _sample(5)
    qp, paths = _files(tmp_path, qrels, runs)
    proc = run_cli("holes", qp, *paths, "--depth", "4")
    assert proc.returncode == 0, proc.stderr
    expected = [
        f"{q} 0 {d}"
        for q in _queries(qrels, runs)
        for d in _oracle_pool(runs, q, "depth", depth=4)
        if d not in qrels.get(q, {})
    ]
    assert proc.stdout.decode().splitlines() == expected
    out = tmp_path / "req.json"
    proc = run_cli("holes", qp, *paths, "--strategy", "rbp", "--size", "5", "-f", "json",
                   "-o", str(out))  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    data = json.loads(out.read_text())
    assert data["pooling"]["strategy"] == "rbp"
    assert data["counts"]["pool"] == {
        q: sum(d not in qrels.get(q, {}) for d in _oracle_pool(runs, q, "rbp", size=5))
        for q in _queries(qrels, runs)
    }
    table = run_cli("holes", qp, *paths, "--depth", "4", "-f", "table")
    assert table.returncode == 0 and b"pool" in table.stdout
    bad = run_cli("holes", qp, *paths, "--strategy", "rrf")
    assert bad.returncode == 2 and b"--size" in bad.stderr and b"Traceback" not in bad.stderr
    (tmp_path / "bad.txt").write_text("q1 Q0 d1 1 x r\n")
    bad = run_cli("holes", qp, str(tmp_path / "bad.txt"), "--depth", "3")
    assert bad.returncode == 2 and b"bad.txt" in bad.stderr and b"Traceback" not in bad.stderr
