"""cranfield.compat.ranx against the installed ranx (0.3.x), measure for measure: generated
runs with tied scores (more than 15 documents a query, where numba's quicksort is not stable),
empty rankings, unjudged and negatively judged documents; and the bundled Cranfield runs."""

from __future__ import annotations

import random
import warnings
from pathlib import Path

import numpy as np
import pytest

from cranfield.compat import ranx as cr
from cranfield.errors import InputError, ParameterError

ranx = pytest.importorskip("ranx", reason="ranx is the peer these values come from")

EXAMPLES = Path(__file__).resolve().parents[2] / "src" / "cranfield" / "examples" / "cranfield"

METRICS = [
    "hits",
    "hits@5",
    "hit_rate",
    "hit_rate@3",
    "precision",
    "precision@5",
    "recall",
    "recall@10",
    "f1",
    "f1@5",
    "r-precision",
    "mrr",
    "mrr@3",
    "map",
    "map@10",
    "dcg",
    "dcg@5",
    "dcg_burges@10",
    "ndcg",
    "ndcg@10",
    "ndcg_burges",
    "ndcg_burges@5",
    "ndcg@10-l2",
    "map-l2",
    "precision@5-l2",
    "rbp.8",
    "rbp.95-l2",
]


def generated(seed: int, *, all_relevant: bool = False) -> tuple[dict, dict]:
    rng = random.Random(seed)
    qrels, run = {}, {}
    for i in range(8):
        docs = [f"d{j}" for j in range(rng.randint(1, 60))]
        judged = rng.sample(docs, rng.randint(1, len(docs)))
        qrels[f"q{i}"] = {d: rng.choice([-1, 0, 0, 1, 1, 2, 3]) for d in judged}
        if all_relevant:
            qrels[f"q{i}"][docs[0]] = 1
        pool = docs + [f"u{j}" for j in range(20)]  # u*: never judged
        ranked = rng.sample(pool, min(rng.randint(0, 50), len(pool)))
        run[f"q{i}"] = {d: float(rng.randint(0, 4)) for d in ranked}  # many ties
    return qrels, run


def peer(qrels, run, metrics, objects):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numba's deprecation notices
        if objects:
            qrels, run = ranx.Qrels(qrels), ranx.Run(run)
        # a list: ranx 0.3.21 returns KeyError for one metric with @k and return_mean=False
        return ranx.evaluate(qrels, run, [*metrics, "hits"], return_mean=False)


def ours(qrels, run, metrics, objects):
    if objects:
        qrels, run = cr.Qrels(qrels), cr.Run(run)
    return cr.evaluate(qrels, run, [*metrics, "hits"], return_mean=False)


def check(expected, got, metrics):
    for m in metrics:
        np.testing.assert_allclose(got[m], expected[m], rtol=1e-12, atol=1e-15, err_msg=m)


@pytest.mark.parametrize("objects", [True, False], ids=["Run", "dict"])
@pytest.mark.parametrize("seed", range(12))
def test_generated_runs_with_ties_equal_ranx(seed, objects):
    qrels, run = generated(seed)
    check(peer(qrels, run, METRICS, objects), ours(qrels, run, METRICS, objects), METRICS)


@pytest.mark.parametrize("objects", [True, False], ids=["Run", "dict"])
@pytest.mark.parametrize("seed", range(6))
def test_bpref_equals_ranx_where_every_query_has_a_relevant_document(seed, objects):
    # ranx's bpref divides by R in numba's parallel loop: a query with R = 0 raises there,
    # leaving it and every later query at 0; so the queries here all have relevant documents
    qrels, run = generated(seed, all_relevant=True)
    check(peer(qrels, run, ["bpref"], objects), ours(qrels, run, ["bpref"], objects), ["bpref"])


def test_the_tie_order_is_numbas_quicksort_not_a_stable_sort():
    # 20 documents, 4 scores: a stable sort and numba's quicksort order the ties differently
    run = {"q": {f"d{i:02d}": float(i % 4) for i in range(20)}}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = list(ranx.Run(run).run["q"].keys())
    stable = sorted(run["q"], key=lambda d: -run["q"][d])
    assert expected != stable  # the case is one where the two orders differ
    assert list(cr.Run(run).run["q"]) == expected


def test_empty_ranking_and_make_comparable_equal_ranx():
    qrels = {"a": {"d1": 1, "d2": 2}, "b": {"d3": 1}, "c": {"d4": 0}}
    run = {"a": {"d2": 0.5, "d9": 0.5, "d1": 0.1}, "x": {"d1": 1.0}}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = ranx.evaluate(ranx.Qrels(qrels), ranx.Run(run), METRICS, make_comparable=True)
    got = cr.evaluate(cr.Qrels(qrels), cr.Run(run), METRICS, make_comparable=True)
    for m in METRICS:
        assert got[m] == pytest.approx(expected[m], rel=1e-12, abs=1e-15), m


@pytest.mark.slow
def test_cranfield_runs_equal_ranx():
    qrels = cr.Qrels.from_file(str(EXAMPLES / "qrels.txt"), kind="trec")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pq = ranx.Qrels.from_file(str(EXAMPLES / "qrels.txt"), kind="trec")
    for path in sorted((EXAMPLES / "runs").iterdir()):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            pr = ranx.Run.from_file(str(path)).make_comparable(pq)
            expected = ranx.evaluate(pq, pr, [*METRICS, "bpref"], return_mean=False)
        run = cr.Run.from_file(str(path)).make_comparable(qrels)
        assert run.name == pr.name
        check(expected, cr.evaluate(qrels, run, [*METRICS, "bpref"], return_mean=False), METRICS)


def test_means_std_and_scores_kept_in_the_run():
    qrels, run = generated(3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pr = ranx.Run(run)
        expected = ranx.evaluate(ranx.Qrels(qrels), pr, ["ndcg@10", "map"], return_std=True)
    r = cr.Run(run)
    got = cr.evaluate(cr.Qrels(qrels), r, ["ndcg@10", "map"], return_std=True)
    for m in ("ndcg@10", "map"):
        assert got[m]["mean"] == pytest.approx(expected[m]["mean"], rel=1e-12)
        assert got[m]["std"] == pytest.approx(expected[m]["std"], rel=1e-12)
        assert r.mean_scores[m] == pytest.approx(pr.mean_scores[m], rel=1e-12)
        assert r.scores[m] == pytest.approx(dict(pr.scores[m]), rel=1e-12)
    one = cr.evaluate(cr.Qrels(qrels), cr.Run(run), "ndcg@10")
    assert one == pytest.approx(expected["ndcg@10"]["mean"], rel=1e-12)


def test_bad_inputs_are_one_clear_error(tmp_path):
    bad = tmp_path / "run.trec"
    bad.write_text("q1 Q0 d1 1 0.5 r\nq1 Q0 d2 2 notanumber r\n")
    with pytest.raises(InputError, match=r"run.trec: line 2"):
        cr.Run.from_file(str(bad))
    js = tmp_path / "qrels.json"
    js.write_text('{"q1": {"d1": 1,}}')
    with pytest.raises(InputError, match=r"qrels.json: line 1"):
        cr.Qrels.from_file(str(js))
    with pytest.raises(InputError, match="q1"):
        cr.Run({"q1": {"d1": "high"}})
    with pytest.raises(ParameterError, match="unknown ranx metric 'ndgc'"):
        cr.evaluate({"q": {"d": 1}}, {"q": {"d": 1.0}}, "ndgc@10")
    with pytest.raises(ParameterError, match="do not match"):
        cr.evaluate({"q": {"d": 1}}, {"p": {"d": 1.0}}, "map")


def three_runs(seed: int, spread: float):
    rng = random.Random(seed)
    qrels = {f"q{i}": {f"d{j}": rng.randint(0, 2) for j in range(30)} for i in range(40)}
    runs = {}
    for name, bias in (("bm25", 0.0), ("dense_x", spread), ("tf", 2 * spread)):
        runs[name] = {
            q: {d: rng.random() + bias * g for d, g in docs.items()} for q, docs in qrels.items()
        }
    return qrels, runs


@pytest.mark.parametrize("spread", [0.4, 0.0], ids=["significant", "none-significant"])
@pytest.mark.parametrize("stat_test", ["student", "tukey"])
def test_compare_report_table_latex_and_p_values_equal_ranx(stat_test, spread):
    qrels, runs = three_runs(5, spread)
    metrics = ["ndcg@10", "map@100-l2", "rbp.95"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = ranx.compare(
            ranx.Qrels(qrels),
            [ranx.Run(r, name=n) for n, r in runs.items()],
            metrics,
            stat_test=stat_test,
            max_p=0.05,
        )
    got = cr.compare(
        cr.Qrels(qrels),
        [cr.Run(r, name=n) for n, r in runs.items()],
        metrics,
        stat_test=stat_test,
        max_p=0.05,
    )
    assert ("ᵃ" in str(expected)) == (spread > 0)  # the case tests what its name says
    assert str(got) == str(expected)
    assert got.to_latex() == expected.to_latex()
    e, g = expected.to_dict(), got.to_dict()
    for a in runs:
        assert g[a]["win_tie_loss"] == e[a]["win_tie_loss"]
        for b in runs:
            if a != b:
                for m in metrics:
                    assert g[a]["comparisons"][b][m] == pytest.approx(
                        e[a]["comparisons"][b][m], rel=1e-9, abs=1e-300
                    )


def test_a_run_of_empty_rankings_scores_0_where_ranx_fails():
    # ranx 0.3.21 raises ValueError (a Run) or numba's TypingError (dicts) for this run; an
    # empty ranking among others scores 0 in ranx (test_empty_ranking_...), so 0 here too
    qrels = {"a": {"d": 1}, "b": {"e": 2}}
    run = {"a": {}, "b": {}}
    got = cr.evaluate(qrels, run, [*METRICS, "bpref"])
    assert got == {m: 0.0 for m in [*METRICS, "bpref"]}


def test_a_bad_score_in_a_run_dict_names_the_query_and_document():
    with pytest.raises(InputError, match="query 'a', document 'd': score 'x' is not a number"):
        cr.evaluate({"a": {"d": 1}}, {"a": {"d": "x", "e": 1.0}}, "map")


def test_ranxs_array_form_is_read_in_the_given_order_as_ranx():
    # ranx takes array qrels as sorted by grade (its ideal DCG is theirs in the given order)
    y_true = np.array([[[4, 2], [1, 1], [5, 1], [6, 1]]])
    y_pred = np.array([[[1, 0.5], [2, 0.9], [3, 1], [4, 1], [5, 1], [7, 1]]])  # not sorted
    metrics = ["hits@5", "map@3", "ndcg@4", "mrr", "bpref"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = ranx.evaluate(y_true, y_pred, metrics)
    got = cr.evaluate(y_true, y_pred, metrics)
    for m in metrics:
        assert got[m] == pytest.approx(expected[m], rel=1e-12, nan_ok=True), m


def test_save_then_from_file_gives_the_run_and_qrels_back(tmp_path):
    qrels, run = generated(2)
    run = {q: d for q, d in run.items() if d}
    for kind in ("trec", "json"):
        r = cr.Run(run, name="mine")
        r.save(tmp_path / f"run.{kind}")
        back = cr.Run.from_file(tmp_path / f"run.{kind}")
        assert back.run == r.run
        assert kind == "json" or back.name == "mine"
        cr.Qrels(qrels).save(tmp_path / f"qrels.{kind}")
        assert cr.Qrels.from_file(tmp_path / f"qrels.{kind}").qrels == cr.Qrels(qrels).qrels


@pytest.mark.parametrize("collection", ["adi", "cacm", "med", "npl"])
def test_shared_collections_qrels_with_tied_runs_equal_ranx(collection, data_dir):
    """The reference collections' qrels read by both from_file readers; a run over each
    query's judged documents and as many unjudged ones, scores in 5 levels (ties), made
    from a fixed seed."""
    path = str(data_dir / collection / "qrels.trec")
    qrels = cr.Qrels.from_file(path, kind="trec")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pq = ranx.Qrels.from_file(path, kind="trec")
    assert qrels.to_dict() == {q: dict(d) for q, d in pq.to_dict().items()}
    rng = random.Random(collection)
    run = {
        q: {d: float(rng.randint(0, 4)) for d in [*docs, *(f"x{i}" for i in range(30))]}
        for q, docs in qrels.to_dict().items()
    }
    metrics = [*METRICS, "bpref"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = ranx.evaluate(pq, ranx.Run(run), metrics, return_mean=False)
    check(expected, cr.evaluate(qrels, cr.Run(run), metrics, return_mean=False), metrics)
