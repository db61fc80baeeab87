"""One rule for which queries a mean is over (cranfield.results.query_sets), the same in
``evaluate``, ``compare``, ``compare(evaluate(...))`` and the report, and printed with every
table.

The example of issue 27: on CISI (76 judged queries), a BM25 run without results for the
judged queries 1 and 10 got AP 0.1542 from ``evaluate`` (its 74 queries), 0.1501 from
``compare`` (76, the two scored 0) and 0.1542 from ``compare(evaluate(...))`` (74, and the
other run's mean moved to its 74 too).  The expected means here come from pytrec_eval's
per-query AP (trec_eval's code), averaged by hand over the query sets the rule names."""

from __future__ import annotations

import math
import re
import warnings
from collections import Counter

import pytest
from test_ties_collections import read_smart

import cranfield
from conftest import DATA, need, run_cli
from cranfield.errors import DataWarning

pytrec_eval = pytest.importorskip("pytrec_eval")

WORD = re.compile(r"[a-z]+")
MISSING = ("1", "10")


def _tokens(text: str, stop: set[str]) -> list[str]:
    return [w for w in WORD.findall(text.lower()) if w not in stop and len(w) > 1]


@pytest.fixture(scope="module")
def cisi(tmp_path_factory):
    """CISI's qrels, a BM25 run without queries 1 and 10, and a coordination-level run of
    every query (files), with both runs as dicts for pytrec_eval."""
    folder = need(DATA / "cisi")
    stop = set(need(DATA / "cacm" / "common_words").read_text().split())
    docs = [(d, Counter(_tokens(t, stop))) for d, t in read_smart(folder / "CISI.ALL")]
    n = len(docs)
    df = Counter(w for _, c in docs for w in c)
    avg = sum(sum(c.values()) for _, c in docs) / n
    runs: dict[str, dict[str, dict[str, float]]] = {"bm25": {}, "coord": {}}
    for qid, text in read_smart(folder / "CISI.QRY"):
        q = set(_tokens(text, stop))
        bm25, coord = {}, {}
        for d, c in docs:
            length = sum(c.values())
            s = sum(
                math.log(1 + (n - df[w] + 0.5) / (df[w] + 0.5))
                * c[w]
                * 2.2
                / (c[w] + 1.2 * (0.25 + 0.75 * length / avg))
                for w in q
                if w in c
            )
            if s > 0:
                bm25[d] = round(s, 6)
            if q & c.keys():
                coord[d] = float(len(q & c.keys()))
        if qid not in MISSING:
            runs["bm25"][qid] = bm25
        runs["coord"][qid] = coord
    tmp = tmp_path_factory.mktemp("cisi")
    paths = {}
    for name, run in runs.items():
        p = tmp / f"cisi_{name}.txt"
        with open(p, "w") as fh:
            for q, scores in run.items():
                for r, (d, s) in enumerate(sorted(scores.items(), key=lambda x: -x[1])[:1000]):
                    fh.write(f"{q} Q0 {d} {r + 1} {s:.6f} {name}\n")
        paths[name] = p
    qrels: dict[str, dict[str, int]] = {}
    for line in (folder / "qrels.trec").read_text().splitlines():
        q, _, d, g = line.split()
        qrels.setdefault(q, {})[d] = int(g)
    # the runs as written (1000 documents, 6 decimals) for pytrec_eval
    written = {
        name: {q: dict(sorted(s.items(), key=lambda x: -x[1])[:1000]) for q, s in run.items()}
        for name, run in runs.items()
    }
    return folder / "qrels.trec", paths, qrels, written


def _ap(qrels, run) -> dict[str, float]:
    """pytrec_eval's AP of each judged query the run has results for."""
    return {
        q: v["map"] for q, v in pytrec_eval.RelevanceEvaluator(qrels, {"map"}).evaluate(run).items()
    }


def _quiet(fn, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        return fn(*args, **kw)


def test_the_example_is_the_issues(cisi):
    _, _, qrels, runs = cisi
    assert len(qrels) == 76 and all(q in qrels for q in MISSING)
    assert not set(MISSING) & set(runs["bm25"]) and set(qrels) <= set(runs["coord"])


def test_one_mean_in_evaluate_compare_and_python(cisi):
    qrels_path, paths, qrels, runs = cisi
    ap = {name: _ap(qrels, run) for name, run in runs.items()}
    # the rule: over the 76 judged queries, a judged query without results scoring 0
    want = {name: math.fsum(ap[name].values()) / len(qrels) for name in runs}
    assert len(ap["bm25"]) == 74 and len(ap["coord"]) == 76
    files = [str(paths["bm25"]), str(paths["coord"])]
    res = _quiet(cranfield.evaluate, qrels_path, files, ["AP"], names=["bm25", "coord"])
    got = {r.run: r.aggregate()["AP"] for r in res}
    assert got == pytest.approx(want, abs=1e-12)
    assert all(len(r.query_ids) == 76 for r in res)
    # compare(evaluate(...)) and compare(qrels, runs): the same means, over the same queries
    for cmp in (
        _quiet(cranfield.compare, res, ["AP"]),
        _quiet(cranfield.compare, qrels_path, files, ["AP"], names=["bm25", "coord"]),
    ):
        assert cmp.means["AP"] == pytest.approx(want, abs=1e-12)
        assert len(cmp.query_ids["AP"]) == 76
    # the commands print those means, each with the same note
    shown = {name: f"{v:.4f}" for name, v in want.items()}
    note = (
        "Means over 76 queries, every judged query of the qrels. Judged queries without "
        "results are scored as empty rankings (trec_eval -c): cisi_bm25.txt 2 ('1', '10'), "
        "scored 0."
    )
    for command in ("evaluate", "compare"):
        proc = run_cli(command, str(qrels_path), *files, "-m", "AP")
        assert proc.returncode == 0, proc.stderr
        out = proc.stdout.decode()
        for name in runs:
            row = next(x for x in out.splitlines() if f"cisi_{name}.txt " in x)
            assert shown[name] in row.split(), (command, row)
        assert note in " ".join(out.split()), (command, out)
        assert "different sets of queries" not in proc.stderr.decode()


def test_the_other_rule_on_request_and_its_warning(cisi):
    qrels_path, paths, qrels, runs = cisi
    ap = {name: _ap(qrels, run) for name, run in runs.items()}
    own = {name: math.fsum(v.values()) / len(v) for name, v in ap.items()}  # trec_eval's default
    files = [str(paths["bm25"]), str(paths["coord"])]
    with pytest.warns(DataWarning) as seen:
        res = cranfield.evaluate(qrels_path, files, ["AP"], names=["bm25", "coord"], complete=False)
    told = [str(w.message) for w in seen]
    assert [t.split(" and ")[0] for t in told[:3]] == [
        "bm25: 36 queries have results but no judgments",  # CISI judges 76 of its 112 queries
        "bm25: 2 judged queries have no results",  # 1 and 10, left out of this run
        "coord: 36 queries have results but no judgments",
    ]
    assert len(told) == 4 and "different sets of queries (bm25 74, coord 76" in told[3]
    assert {r.run: r.aggregate()["AP"] for r in res} == pytest.approx(own, abs=1e-12)
    # compare keeps the queries every run has, and says the means moved
    shared = [q for q in ap["coord"] if q in ap["bm25"]]
    on_shared = {name: math.fsum(ap[name][q] for q in shared) / len(shared) for name in runs}
    with pytest.warns(DataWarning, match="left out of every run's mean"):
        cmp = cranfield.compare(res, ["AP"])
    assert cmp.means["AP"] == pytest.approx(on_shared, abs=1e-12)
    assert "Means over the 74 queries every run has results for" in " ".join(repr(cmp).split())
    proc = run_cli("evaluate", str(qrels_path), *files, "-m", "AP", "--no-complete")
    assert proc.returncode == 0
    out = " ".join(proc.stdout.decode().split())
    assert (
        "Means over each run's judged queries with results (--no-complete, complete=False): "
        "cisi_bm25.txt 74 (2 left out ('1', '10')), cisi_coord.txt 76. Runs averaged over "
        "different queries are not comparable." in out
    )
    assert "the runs' means are over different sets of queries" in proc.stderr.decode()
    proc = run_cli("compare", str(qrels_path), *files, "-m", "AP", "--no-complete")
    out = " ".join(proc.stdout.decode().split())
    assert proc.returncode == 0 and f"{on_shared['coord']:.4f}" in out
    assert "Means over the 74 queries every run has results for" in out


def test_no_warning_and_a_short_note_when_every_run_has_every_judged_query(cisi):
    qrels_path, paths, _, _ = cisi
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = cranfield.evaluate(qrels_path, [paths["coord"], paths["coord"]], ["AP"],
                                 names=["a", "b"], complete=False)  # fmt: skip
    assert not [w for w in caught if "different sets" in str(w.message)]
    from cranfield.render.results_text import render

    text = render(list(res), "table")
    assert text.endswith("\nMeans over 76 queries, every judged query of the qrels.\n")
    assert "Means over" not in repr(res)  # the short form adds the note only when it says more


def test_the_notebook_forms_and_the_report_carry_the_note(cisi):
    qrels_path, paths, _, _ = cisi
    files = [str(paths["bm25"]), str(paths["coord"])]
    res = _quiet(cranfield.evaluate, qrels_path, files, ["AP"])
    for text in (repr(res), res._repr_html_(), _quiet(cranfield.compare, res)._repr_html_()):
        assert "cisi_bm25.txt 2 (&#39;1&#39;, &#39;10&#39;)" in text or (
            "cisi_bm25.txt 2 ('1', '10')" in " ".join(text.split())
        ), text


def test_the_tie_table_says_the_same(cisi):
    qrels_path, paths, qrels, runs = cisi
    proc = run_cli("ties", str(qrels_path), str(paths["bm25"]), "-m", "AP")
    assert proc.returncode == 0, proc.stderr
    out = " ".join(proc.stdout.decode().split())
    ap = _ap(qrels, runs["bm25"])
    trec = f"{math.fsum(ap.values()) / len(qrels):.4f}"  # over the 76 judged queries
    assert "cisi_bm25.txt AP 76 " in out and f" {trec} " in out
    assert (
        "Means over 76 queries, every judged query of the qrels. Judged queries without "
        "results are scored as empty rankings (trec_eval -c): cisi_bm25.txt 2 ('1', '10')."
    ) in out


def test_the_curve_tables_say_the_same(cisi):
    """``cranfield curve pr|gain|fallout`` and the curve functions' tables carry the note: the
    precision at 10 of the pr curve is over the 76 judged queries (pytrec_eval's P_10 summed
    over the 74 with results, the other 2 scoring 0)."""
    from cranfield.curves import fallout, gain, precision_recall

    qrels_path, paths, qrels, runs = cisi
    p10 = pytrec_eval.RelevanceEvaluator(qrels, {"P_10"}).evaluate(runs["bm25"])
    assert len(p10) == 74
    want = f"{math.fsum(v['P_10'] for v in p10.values()) / len(qrels):.4f}"
    note = (
        "Means over 76 queries, every judged query of the qrels. Judged queries without "
        "results are scored as empty rankings (trec_eval -c): cisi_bm25.txt 2 ('1', '10')."
    )
    bm25 = str(paths["bm25"])
    for curve, options in (
        ("pr", ["--cutoffs", "10"]),
        ("gain", ["--cutoffs", "10"]),
        ("fallout", ["--collection-size", "1460"]),
    ):
        for fmt in ("table", "markdown", "latex"):
            proc = run_cli("curve", curve, str(qrels_path), bm25, *options, "-f", fmt)
            assert proc.returncode == 0, proc.stderr
            out = proc.stdout.decode()
            if fmt == "latex":
                assert "% Means over 76 queries" in out, out
                out = out.replace("% ", "")
            assert note in " ".join(out.split()), (curve, fmt, out)
            if curve == "pr" and fmt == "table":
                row = next(x for x in out.splitlines() if x.startswith("cisi_bm25.txt "))
                assert row.split()[2] == want, (row, want)
    tables = (
        _quiet(precision_recall, qrels_path, bm25, cutoffs=[10]),
        _quiet(gain, qrels_path, bm25, cutoffs=[10]),
        _quiet(fallout, qrels_path, bm25, collection_size=1460),
    )
    for table in tables:
        for text in (repr(table), str(table)):
            assert note in " ".join(text.split()), text
        assert "cisi_bm25.txt 2 (&#x27;1&#x27;, &#x27;10&#x27;)" in table._repr_html_()
    assert f"{tables[0]['value'].iloc[0]:.4f}" == want
