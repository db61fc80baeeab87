"""Filling holes from a second judgment set or a labeler, sources kept and counted (issue 28,
part 3).  Expected values: the completion built by hand on dicts, evaluated by cranfield's
ordinary evaluate."""

from __future__ import annotations

import numpy as np
import pytest

import cranfield
from cranfield.errors import ParameterError
from cranfield.judgments.filling import fill_holes


def _sample(seed: int):
    rng = np.random.default_rng(seed)
    qrels, second, runs = {}, {}, {"a": {}, "b": {}}
    for qi in range(5):
        q = f"q{qi}"
        qrels[q] = {f"d{j}": int(rng.integers(0, 3)) for j in rng.choice(30, 6, replace=False)}
        second[q] = {f"d{j}": int(rng.integers(0, 3)) for j in rng.choice(30, 12, replace=False)}
        for name in runs:
            ret = rng.choice(30, size=15, replace=False)
            runs[name][q] = {f"d{j}": float(15 - i) for i, j in enumerate(ret)}
    return qrels, second, runs


def _ranked(r):
    return [d for d, _ in sorted(r.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)]


def _hand(qrels, second, runs, depth, labeler=None):
    """(completed qrels, origin) by hand: each run's holes to depth, from second, then the
    labeler (grade = len(doc id) % 3, say)."""
    done = {q: dict(d) for q, d in qrels.items()}
    origin = {}
    holes = []
    for run in runs.values():
        for q in sorted(set(qrels) | set(run)):
            for d in _ranked(run.get(q, {}))[:depth]:
                if d not in qrels.get(q, {}) and (q, d) not in holes:
                    holes.append((q, d))
    left = []
    for q, d in holes:
        if d in second.get(q, {}):
            done.setdefault(q, {})[d] = second[q][d]
            origin[(q, d)] = "second"
        else:
            left.append((q, d))
    if labeler is not None:
        for q, d in left:
            done.setdefault(q, {})[d] = labeler(q, [d])[0]
            origin[(q, d)] = "llm"
        left = []
    return done, origin, left


@pytest.mark.parametrize("depth", [5, None])
def test_fill_from_a_second_set_then_a_labeler(depth):
    qrels, second, runs = _sample(1)
    calls = []

    def llm(query, docs):
        calls.append((query, tuple(docs)))
        return [len(d) % 3 for d in docs]

    f = fill_holes(qrels, [second, llm], runs, depth=depth, names=["second", "llm"])
    calls, made = [], list(calls)
    done, origin, left = _hand(qrels, second, runs, depth, llm)
    calls = made
    assert f.qrels.to_dict() == done
    assert f.origin == origin
    assert f.open == left == []
    counts = f.counts()
    assert counts == {
        "qrels": sum(map(len, qrels.values())),
        "second": sum(1 for s in origin.values() if s == "second"),
        "llm": sum(1 for s in origin.values() if s == "llm"),
        "open": 0,
    }
    # the labeler is called once per query, with the open documents only
    assert calls and len(calls) == len({q for q, _ in calls})
    assert all(origin[(q, d)] == "llm" for q, docs in calls for d in docs)


def test_evaluation_on_the_completion_counts_each_source():
    qrels, second, runs = _sample(2)
    f = fill_holes(qrels, [second], runs, depth=10, names=["second"])
    done, origin, left = _hand(qrels, second, runs, 10)
    assert sorted(f.open) == sorted(left)
    res = f.evaluate(runs, ["P@10", "nDCG@10"])
    hand = cranfield.evaluate(done, runs, ["P@10", "nDCG@10"])
    for r, h in zip(res, hand, strict=True):
        np.testing.assert_array_equal(r.values, h.values)
        run = runs[r.run]
        counted = {"qrels": 0, "second": 0, "none": 0}
        for q in r.query_ids:
            for d in _ranked(run[q]):
                counted[origin.get((q, d), "qrels" if d in qrels.get(q, {}) else "none")] += 1
        assert {k: r.summary[f"judged_by:{k}"] for k in counted} == counted
        assert r.to_dict()["summary"]["judged_by:second"] == counted["second"]


def test_without_runs_a_second_set_fills_all_it_judges():
    qrels, second, _ = _sample(3)
    f = fill_holes(qrels, [second])
    expected = {q: {**second.get(q, {}), **qrels.get(q, {})} for q in set(qrels) | set(second)}
    assert f.qrels.to_dict() == expected
    assert f.counts()["fill1"] == sum(
        1 for q in second for d in second[q] if d not in qrels.get(q, {})
    )


def test_bad_labelers_and_arguments_are_one_error():
    qrels, second, runs = _sample(4)
    with pytest.raises(ParameterError, match="needs the runs"):
        fill_holes(qrels, [lambda q, docs: [0] * len(docs)])
    with pytest.raises(ParameterError, match="grades for"):
        fill_holes(qrels, [lambda q, docs: [0]], runs, depth=5)
    with pytest.raises(ParameterError, match="not an integer"):
        fill_holes(qrels, [lambda q, docs: ["x"] * len(docs)], runs, depth=5)
    with pytest.raises(ParameterError, match="non-empty list"):
        fill_holes(qrels, second)
    partial = fill_holes(qrels, [lambda q, docs: [None] * len(docs)], runs, depth=3)
    assert partial.open and partial.counts()["open"] == len(partial.open)


def test_cli_holes_fill_counts_sources_and_requests_what_is_left(tmp_path):
    import json

    from conftest import run_cli

    qrels, second, runs = _sample(6)

    def write(path, judgments):
        path.write_text("".join(f"{q} 0 {d} {g}\n" for q, ds in judgments.items()
                                for d, g in ds.items()))  # fmt: skip
        return str(path)

    qp, sp = write(tmp_path / "q.txt", qrels), write(tmp_path / "second.txt", second)
    paths = []
    for name, run in runs.items():
        rp = tmp_path / f"{name}.txt"
        rp.write_text("".join(f"{q} Q0 {d} 1 {s} {name}\n" for q in run
                              for d, s in run[q].items()))  # fmt: skip
        paths.append(str(rp))
    proc = run_cli("holes", qp, *paths, "--depth", "6", "--fill", sp, "-f", "json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout.decode())
    _, origin, left = _hand(qrels, second, runs, 6)
    assert data["judgments_by_source"] == {
        "qrels": sum(map(len, qrels.values())),
        "second.txt": len(origin),
        "open": len(left),
    }
    pool_left = [(r["query_id"], r["doc_id"]) for r in data["request"]]
    assert sorted(pool_left) == sorted(left)  # depth pooling: the pool's holes are the runs'
