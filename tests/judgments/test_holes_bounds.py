"""Bounds over unjudged documents (issue 28, part 3): evaluate(..., bounds=True), --bounds.

The expected values are independent of cranfield.judgments.bounds: the filled qrels are built
here by hand (each unjudged retrieved document added with grade 0, or with the query's top
grade) and evaluated by cranfield's ordinary evaluate and by pytrec_eval.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pytest

import cranfield
from conftest import run_cli
from cranfield.errors import ParameterError

# the collection has a query with nothing relevant (a hole's bound is defined for it)
pytestmark = pytest.mark.filterwarnings(
    "ignore:.* is undefined for 1 of \\d+ queries:cranfield.errors.UndefinedMeasureWarning"
)

MEASURES = [
    "AP", "nDCG", "nDCG@10", "P@5", "R@20", "Rprec", "RR", "bpref", "infAP", "Judged@10",
    "ERR@10", "RBP(p=0.8)", "P(rel=2)@10", "success@3", "GMAP", "NumRel", "NumRelRet",
]  # fmt: skip


def _sample(seed: int):
    """Qrels with grades 0-3 (some queries with no relevant document, one with no positive
    grade at all), runs retrieving judged and unjudged documents with distinct scores."""
    rng = np.random.default_rng(seed)
    qrels, runs = {}, {"a": {}, "b": {}}
    for qi in range(12):
        q = f"q{qi}"
        docs = [f"d{j}" for j in range(40)]
        judged = rng.choice(40, size=int(rng.integers(3, 20)), replace=False)
        top = 0 if qi == 3 else 3
        qrels[q] = {docs[j]: int(rng.integers(0, top + 1)) for j in judged}
        for name in runs:
            ret = rng.choice(40, size=int(rng.integers(5, 30)), replace=False)
            scores = rng.permutation(len(ret)) + rng.random()
            runs[name][q] = {docs[j]: float(s) for j, s in zip(ret, scores, strict=True)}
    return qrels, runs


def _trec_order(ranking: dict[str, float]) -> list[str]:
    """trec_eval's order: score descending, then document id descending."""
    return [d for d, _ in sorted(ranking.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)]


def _filled(qrels, run, side: str, depth: int | None = None):
    """The qrels with the run's unjudged retrieved documents added (by hand)."""
    out = {}
    for q, judged in qrels.items():
        top = max(judged.values(), default=0)
        grade = 0 if side == "lo" else (top if top > 0 else 1)
        filled = dict(judged)
        ranked = _trec_order(run.get(q, {}))
        for d in ranked[:depth] if depth else ranked:
            filled.setdefault(d, grade)
        out[q] = filled
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_bounds_are_the_measures_on_the_qrels_filled_by_hand(seed):
    qrels, runs = _sample(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = cranfield.evaluate(qrels, runs, MEASURES, bounds=True)
        for r in res:
            assert r.labels[:3] == ("AP", "AP:lo", "AP:hi")
            for side in ("lo", "hi"):
                plain = cranfield.evaluate(_filled(qrels, runs[r.run], side), runs[r.run], MEASURES)
                assert plain.query_ids == r.query_ids
                for m in MEASURES:
                    np.testing.assert_array_equal(r.column(f"{m}:{side}"), plain.column(m), m)
            # the value itself is the ordinary evaluation
            plain = cranfield.evaluate(qrels, runs[r.run], MEASURES)
            for m in MEASURES:
                np.testing.assert_array_equal(r.column(m), plain.column(m), m)


def test_the_optimistic_bound_grows_R_and_uses_the_query_top_grade():
    qrels = {"q1": {"a": 2, "b": 0, "c": 1}, "q2": {"x": 0}}
    run = {"q1": {"a": 3.0, "u1": 2.5, "b": 2.0, "u2": 1.0}, "q2": {"y": 1.0, "x": 0.5}}
    r = cranfield.evaluate(qrels, run, ["AP", "NumRel", "P@2"], bounds=True)
    # q1 filled hi: a=2, u1=2, b=0, u2=2 ranked, c=1 not: R = 4; AP = (1 + 1 + 3/4) / 4
    assert r.column("NumRel:hi").tolist() == [4, 1]  # q2: no positive grade: 1
    assert r.column("AP:hi")[0] == pytest.approx(2.75 / 4, abs=1e-15)
    assert r.column("AP:hi")[1] == pytest.approx(1.0)  # y at rank 1 relevant, R = 1
    assert r.column("NumRel:lo").tolist() == [2, 0]
    assert r.column("P@2:lo").tolist() == [0.5, 0.0]


@pytest.mark.parametrize("depth", [3, 10])
def test_bounds_fill_only_the_ranking_as_evaluated(depth):
    qrels, runs = _sample(7)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = cranfield.evaluate(
            qrels, runs["a"], ["AP", "NumRel", "bpref"], bounds=True, depth=depth
        )
        plain = cranfield.evaluate(
            _filled(qrels, runs["a"], "hi", depth),
            runs["a"],
            ["AP", "NumRel", "bpref"],
            depth=depth,
        )
    for m in ("AP", "NumRel", "bpref"):
        np.testing.assert_array_equal(r.column(f"{m}:hi"), plain.column(m), m)


def test_bounds_agree_with_pytrec_eval_on_the_filled_qrels():
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels, runs = _sample(11)
    run = runs["b"]
    pairs = {"AP": "map", "nDCG@10": "ndcg_cut_10", "P@5": "P_5", "bpref": "bpref"}
    r = cranfield.evaluate(qrels, run, list(pairs), bounds=True)
    for side in ("lo", "hi"):
        filled = _filled(qrels, run, side)
        got = pytrec_eval.RelevanceEvaluator(filled, set(pairs.values())).evaluate(run)
        for ours, theirs in pairs.items():
            expected = [got[q][theirs] for q in r.query_ids]
            np.testing.assert_allclose(r.column(f"{ours}:{side}"), expected, rtol=0, atol=1e-12)


def test_bounds_take_the_measure_aggregation():
    qrels, runs = _sample(5)
    r = cranfield.evaluate(qrels, runs["a"], ["AP", "P@5"], bounds=True, aggregate=["P@5=median"])
    agg = r.aggregate()
    assert agg["P@5:hi"] == pytest.approx(float(np.median(r.column("P@5:hi"))))
    assert agg["AP:hi"] == pytest.approx(float(np.mean(r.column("AP:hi"))))


def test_bounds_must_be_a_flag_and_compare_needs_the_runs():
    qrels, runs = _sample(5)
    with pytest.raises(ParameterError, match="bounds must be True or False"):
        cranfield.evaluate(qrels, runs["a"], ["AP"], bounds="yes")
    res = cranfield.evaluate(qrels, runs, ["AP"])
    with pytest.raises(ParameterError, match="bounds="):
        cranfield.compare(res, ["AP"], bounds=True)


def test_compare_with_bounds_compares_each_bound():
    qrels, runs = _sample(9)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cmp = cranfield.compare(qrels, runs, ["AP", "P@5"], bounds=True)
        assert cmp.labels == ("AP", "AP:lo", "AP:hi", "P@5", "P@5:lo", "P@5:hi")
        for n in runs:
            for side in ("lo", "hi"):
                hand = cranfield.evaluate(
                    _filled(qrels, runs[n], side), runs[n], ["AP", "P@5"], complete=True
                )
                for m, v in hand.aggregate().items():
                    assert cmp.means[f"{m}:{side}"][n] == pytest.approx(v, abs=1e-15)
    assert [p.measure for p in cmp.pairs["AP:hi"]] == ["AP:hi"]


def _write(tmp_path, qrels, run):
    qp, rp = tmp_path / "qrels.txt", tmp_path / "run.txt"
    qp.write_text("".join(f"{q} 0 {d} {g}\n" for q, ds in qrels.items() for d, g in ds.items()))
    rp.write_text(
        "".join(
            f"{q} Q0 {d} {i + 1} {s} r\n"
            for q, ds in run.items()
            for i, (d, s) in enumerate(sorted(ds.items(), key=lambda kv: -kv[1]))
        )
    )
    return str(qp), str(rp)


def test_cli_evaluate_bounds_json(tmp_path):
    qrels, runs = _sample(4)
    qp, rp = _write(tmp_path, qrels, runs["a"])
    proc = run_cli("evaluate", qp, rp, "-m", "AP", "-m", "nDCG@10", "--bounds", "-f", "json")
    assert proc.returncode == 0, proc.stderr
    agg = json.loads(proc.stdout.decode())["runs"][0]["aggregate"]
    for side in ("lo", "hi"):
        hand = cranfield.evaluate(_filled(qrels, runs["a"], side), rp, ["AP", "nDCG@10"])
        for m, v in hand.aggregate().items():
            assert agg[f"{m}:{side}"] == pytest.approx(v, abs=1e-15)
    plain = run_cli("evaluate", qp, rp, "-m", "AP", "-f", "json")
    assert plain.returncode == 0 and b"AP:hi" not in plain.stdout


def test_cli_compare_bounds(tmp_path):
    qrels, runs = _sample(4)
    qp, rp = _write(tmp_path, qrels, runs["a"])
    r2 = tmp_path / "run2.txt"
    r2.write_text(Path(rp).read_text().replace(" r\n", " s\n"))
    proc = run_cli("compare", qp, rp, str(r2), "-m", "AP", "--bounds")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.decode()
    assert "AP:lo (" in out and "AP:hi (" in out


def test_bounds_of_a_run_read_in_pieces_equal_the_whole_run(tmp_path, monkeypatch):
    """The streamed path (a large TREC run, one block of queries at a time, here forced with
    small pieces) gives the bounds of the run read whole, bit for bit.  ERR is left out: its
    default max_grade is the top grade of the judged rankings' queries, which differs
    between a block and the whole run for ERR itself (a streamed-path problem, reported)."""
    from cranfield.io.trec import run_pieces, text

    qrels, runs = _sample(12)
    qp, rp = _write(tmp_path, qrels, runs["a"])
    measures = [m for m in MEASURES if not m.startswith("ERR")]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        whole = cranfield.evaluate(qp, rp, measures, bounds=True)
        monkeypatch.setattr(text, "PIECES_FROM_BYTES", 0)
        monkeypatch.setattr(run_pieces, "PIECE_BYTES", 300)
        streamed = cranfield.evaluate(qp, rp, measures, bounds=True)
    assert streamed.labels == whole.labels
    np.testing.assert_array_equal(streamed.values, whole.values)


def test_a_bound_measure_survives_pickling_to_a_worker():
    import pickle

    from cranfield.judgments.bounds import Bound
    from cranfield.measures import parse

    qrels, runs = _sample(3)
    b = Bound(parse("nDCG@10"), "hi")
    back = pickle.loads(pickle.dumps(b))
    assert str(back) == "nDCG@10:hi" and back == b
    r = cranfield.evaluate(qrels, runs["a"], ["nDCG@10"], bounds=True)
    hand = cranfield.evaluate(_filled(qrels, runs["a"], "hi"), runs["a"], ["nDCG@10"])
    np.testing.assert_array_equal(r.column("nDCG@10:hi"), hand.column("nDCG@10"))


def test_bounds_under_weak_ties_are_the_expectations_on_the_filled_qrels():
    """With ties (scores rounded into groups), ties='weak': each bound is the tie-aware
    expectation on the hand-filled qrels."""
    qrels, runs = _sample(1)
    run = {q: {d: float(int(s) // 3) for d, s in r.items()} for q, r in runs["a"].items()}
    measures = ["P@10", "AP", "nDCG@10", "RR", "R@20"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = cranfield.evaluate(qrels, run, measures, bounds=True, ties="weak")
        for side in ("lo", "hi"):
            hand = cranfield.evaluate(_filled(qrels, run, side), run, measures, ties="weak")
            for m in measures:
                np.testing.assert_allclose(r.column(f"{m}:{side}"), hand.column(m), atol=1e-12)
    assert (r.column("P@10:hi") > r.column("P@10")).any()  # the sample has holes in the top 10


def test_the_report_shows_and_compares_the_bounds(tmp_path):
    """report(bounds=True) (and `cranfield report --bounds`): each measure followed by its
    bounds, whose per-query values are those of the qrels filled by hand (each run's unjudged
    retrieved documents judged 0 for lo, the query's top grade for hi)."""
    import warnings

    import cranfield
    from _report_pages import script_data

    (tmp_path / "q").write_text("1 0 a 1\n1 0 b 0\n2 0 c 2\n2 0 d 0\n")
    (tmp_path / "r1").write_text("1 Q0 a 1 3 x\n1 Q0 z 2 2 x\n2 Q0 y 1 3 x\n2 Q0 c 2 2 x\n")
    (tmp_path / "r2").write_text("1 Q0 z 1 3 y\n1 Q0 a 2 2 y\n2 Q0 c 1 3 y\n2 Q0 w 2 2 y\n")
    holes = {"r1": {"1": ["z"], "2": ["y"]}, "r2": {"1": ["z"], "2": ["w"]}}
    top = {"1": 1, "2": 2}
    runs = [str(tmp_path / "r1"), str(tmp_path / "r2")]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rep = cranfield.report(str(tmp_path / "q"), runs, ["P@2", "AP"], bounds=True)
        data = script_data(rep.html)
        assert [m["label"] for m in data["measures"]] == [
            f"{m}{s}" for m in ("P@2", "AP") for s in ("", ":lo", ":hi")
        ]
        for j, run in enumerate(("r1", "r2")):
            for side in ("lo", "hi"):
                filled = (tmp_path / "q").read_text() + "".join(
                    f"{q} 0 {d} {0 if side == 'lo' else top[q]}\n"
                    for q, docs in holes[run].items()
                    for d in docs
                )
                (tmp_path / f"q_{run}_{side}").write_text(filled)
                want = cranfield.evaluate(str(tmp_path / f"q_{run}_{side}"), runs[j], ["P@2", "AP"])
                for m in data["measures"]:
                    if m["label"].endswith(f":{side}"):
                        base = m["label"].split(":")[0]
                        assert m["values"][j] == want.column(base).tolist(), (run, m["label"])
