"""The bundled example data: reproducible from its generator, and faithful to the papers.

Expected values are the numbers printed in the source papers (Magdy & Jones 2010; Baeza-Yates &
Ribeiro-Neto 1999; Keen, ISR-13; Raghavan, Jung & Bollmann 1989; Chen's slides).  PRES,
normalized recall/precision and PRR/EP are computed here by brute force from the ranks that the
files produce, so these tests check the files independently of cranfield's measures (which
``test_measures_literature.py`` checks against the same papers).
"""

from __future__ import annotations

import gzip
import itertools
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import cranfield
from cranfield import examples
from cranfield.examples import generate
from cranfield.io import read_qrels, read_run
from cranfield.judging.join import judge


def _content(p: Path) -> bytes:
    data = p.read_bytes()
    return gzip.decompress(data) if p.suffix == ".gz" else data


@pytest.mark.slow
def test_generator_reproduces_the_bundled_files_byte_for_byte(tmp_path):
    written = generate.generate(tmp_path)
    rel = sorted(str(p.relative_to(tmp_path)) for p in written)
    bundled = sorted(  # cranfield/ is made by scripts/make_cranfield_runs.py instead
        str(p.relative_to(examples.ROOT))
        for folder in ("collection", "papers")
        for p in (examples.ROOT / folder).rglob("*")
        if p.is_file() and p.suffix in (".txt", ".gz")
    )
    assert rel == bundled  # no stale or missing file
    for r in rel:
        assert _content(tmp_path / r) == _content(examples.ROOT / r), r
        if r.endswith(".gz"):  # deterministic gzip header: no time stamp, no name
            head = (tmp_path / r).read_bytes()[:10]
            assert head[4:8] == b"\0\0\0\0" and head[3] & 0x08 == 0


def test_collection_shape():
    q = read_qrels(examples.qrels())
    assert q.num_queries == 50
    assert set(np.unique(q.grades).tolist()) == {0, 1, 2, 3}
    runs = examples.runs()
    assert list(runs) == list(examples.RUNS)
    for name, p in runs.items():
        r = read_run(p)
        assert len(r.query_ids) == 50 and len(r) == 50 * 1000, name
        jr = judge(q, r)
        assert (jr.grades == -1).any(), "some retrieved documents are unjudged"
    boolean = read_run(runs["boolean"])
    assert len(np.unique(boolean.scores)) <= 6  # coordination levels: heavy ties


def test_collection_runs_come_in_the_intended_quality_order():
    res = cranfield.evaluate(
        examples.qrels(), list(examples.runs().values()), ["AP", "nDCG@10", "P@10"]
    )
    for m in ("AP", "nDCG@10", "P@10"):
        values = [r.aggregate()[m] for r in res]
        assert values == sorted(values, reverse=True) and len(set(values)) == 6, m


def test_path_and_paper_accessors():
    assert examples.path("collection/qrels.txt") == examples.qrels()
    with pytest.raises(cranfield.ParameterError, match="no bundled example"):
        examples.path("nope.txt")
    with pytest.raises(cranfield.ParameterError, match="keen_q268"):
        examples.paper("nope")
    for name in examples.papers():
        ex = examples.paper(name)
        assert ex.qrels.exists() and ex.runs and all(p.exists() for p in ex.runs.values())


def test_cranfield_accessors():
    assert examples.cranfield_qrels() == examples.path("cranfield/qrels.txt")
    runs = examples.cranfield_runs()
    assert list(runs) == list(examples.CRANFIELD_RUNS) == ["bm25", "tfidf", "coordination"]
    assert all(p.is_file() and p.name.endswith(".txt.gz") for p in runs.values())


def test_cranfield_accessors_without_the_shipped_files(tmp_path, monkeypatch):
    # a damaged installation: one clear error saying how to get the files back
    (tmp_path / "cranfield" / "runs").mkdir(parents=True)
    (tmp_path / "cranfield" / "qrels.txt").write_text("1 0 1 1\n")
    monkeypatch.setattr(examples, "ROOT", tmp_path)
    assert not examples.has_cranfield()  # the runs are missing
    for accessor in (examples.cranfield_qrels, examples.cranfield_runs):
        with pytest.raises(cranfield.ParameterError, match="scripts/make_cranfield_runs.py"):
            accessor()


# ----------------------------------------------------------------------------- papers


def _relevant_ranks(name: str, run: str) -> dict[str, list[int]]:
    """Per query, the 1-based ranks of relevant documents (trec_eval's order)."""
    ex = examples.paper(name)
    jr = judge(read_qrels(ex.qrels), read_run(ex.runs[run]))
    rel = jr.relevant(1)
    return {
        q: jr.rank[jr.offsets[i] : jr.offsets[i + 1]][rel[jr.offsets[i] : jr.offsets[i + 1]]]
        .astype(int)
        .tolist()
        for i, q in enumerate(jr.query_ids)
    }


def _pres(ranks: list[int], n: int, n_max: int) -> float:
    """Magdy & Jones eq. 3-4: missing relevant documents placed right after N_max."""
    found = [r for r in ranks if r <= n_max]
    missing = n - len(found)
    total = sum(found) + sum(n_max + len(found) + i for i in range(1, missing + 1))
    return 1 - (total / n - (n + 1) / 2) / n_max


def test_pres_tables_1_and_2():
    ex = examples.paper("pres_table1")
    res = cranfield.evaluate(ex.qrels, list(ex.runs.values()), ["AP", "R@100"])
    table = {  # system: (AP, Recall, PRES) as printed in Tables 1 and 2
        "system1": (0.25, 0.25, 0.25),
        "system2": (0.0481, 1, 0.51),
        "system3": (1, 1, 1),
        "system4": (0.2727, 1, 0.28),
    }
    for (system, (ap, recall, pres)), r in zip(table.items(), res, strict=True):
        agg = r.aggregate()
        if system == "system2":  # printed ranks {50, 51, 53, 54}; 0.0481 is {50, 51, 52, 53}
            assert agg["AP"] == pytest.approx((1 / 50 + 2 / 51 + 3 / 53 + 4 / 54) / 4)
            alternative = (1 / 50 + 2 / 51 + 3 / 52 + 4 / 53) / 4
            assert alternative == pytest.approx(ap, abs=5e-5)
        else:
            assert agg["AP"] == pytest.approx(ap, abs=5e-5)
        assert agg["R@100"] == recall
        ranks = _relevant_ranks("pres_table1", system)["1"]
        assert _pres(ranks, 4, 100) == pytest.approx(pres, abs=0.005 + 1e-9)


def test_pres_table_3():
    ranks = _relevant_ranks("pres_table3", "clefip")
    rows = [  # ranks, N, R, AP, PRES as printed (N_max = 1000)
        ([98, 296], 41, 0.05, 0.0, 0.039),
        ([23, 272, 345], 6, 0.5, 0.01, 0.394),
        ([2, 517, 761], 6, 0.5, 0.085, 0.288),
        ([660, 741], 3, 0.667, 0.001, 0.201),
        ([41, 54], 3, 0.667, 0.021, 0.636),
        ([1, 781], 3, 0.667, 0.334, 0.407),
        ([1, 33, 354, 548, 733, 840, 841], 7, 1, 0.157, 0.525),
        ([32, 35, 46], 3, 1, 0.051, 0.964),
    ]
    ex = examples.paper("pres_table3")
    res = cranfield.evaluate(ex.qrels, ex.runs["clefip"], ["AP", "R@1000", "NumRel"])
    df = res.per_query()
    for i, (rk, n, recall, ap, pres) in enumerate(rows, 1):
        q = str(i)
        assert ranks[q] == rk
        assert df.loc[q, "NumRel"] == n
        assert df.loc[q, "R@1000"] == pytest.approx(recall, abs=0.005)
        # row 5 prints 0.021 for (1/41 + 2/54)/3 = 0.020476 (see papers/README.md)
        assert df.loc[q, "AP"] == pytest.approx(ap, abs=0.0011 if i == 5 else 0.0005 + 1e-9)
        assert _pres(rk, n, 1000) == pytest.approx(pres, abs=0.0005 + 1e-9)
    # the text: N_max = 100 for the last topic gives 64.33 %
    assert _pres([32, 35, 46], 3, 100) == pytest.approx(0.6433, abs=5e-5)


def test_baeza_yates_examples_3_2_and_3_3():
    ranks = _relevant_ranks("baeza_yates", "ranking")
    assert ranks == {"3.2": [1, 3, 6, 10, 15], "3.3": [3, 8, 15]}
    precisions = [Fraction(k, r) for k, r in enumerate(ranks["3.2"], 1)]
    assert [round(float(p), 2) for p in precisions] == [1.0, 0.67, 0.5, 0.4, 0.33]
    assert round(float(sum(precisions) / 5), 2) == 0.58  # the text's 0.57 truncates
    recall_precision = [(Fraction(k, 3), Fraction(k, r)) for k, r in enumerate(ranks["3.3"], 1)]
    assert recall_precision == [
        (Fraction(1, 3), Fraction(1, 3)),
        (Fraction(2, 3), Fraction(1, 4)),
        (Fraction(1), Fraction(1, 5)),
    ]
    ex = examples.paper("baeza_yates")
    rprec = cranfield.evaluate(ex.qrels, ex.runs["ranking"], ["Rprec"]).per_query()["Rprec"]
    assert rprec["3.2"] == 0.4 and rprec["3.3"] == pytest.approx(1 / 3)


def _rnorm(ranks: list[int], N: int) -> float:
    n = len(ranks)
    return 1 - (sum(ranks) - n * (n + 1) / 2) / (n * (N - n))


def _pnorm(ranks: list[int], N: int) -> float:
    n = len(ranks)
    num = sum(math.log(r) for r in ranks) - sum(math.log(i) for i in range(1, n + 1))
    return 1 - num / math.log(math.comb(N, n))


def test_keen_q268():
    ex = examples.paper("keen_q268")
    ranks = _relevant_ranks("keen_q268", "thesaurus2")["Q268"]
    assert ranks == [1, 2, 4, 6, 13] and ex.collection_size == 200
    assert _rnorm(ranks, 200) == pytest.approx(0.9887, abs=5e-5)
    assert _pnorm(ranks, 200) == pytest.approx(0.9238, abs=1e-4)
    res = cranfield.evaluate(ex.qrels, ex.runs["thesaurus2"], [f"P@{n}" for n in range(1, 15)])
    precision = [round(v, 2) for v in res.aggregate().values()]
    assert precision[:12] == [1.0, 1.0, 0.67, 0.75, 0.6, 0.67, 0.57, 0.5, 0.44, 0.4, 0.36, 0.33]
    assert precision[12:] == [0.38, 0.36]


def test_keen_adi_fig_9():
    ex = examples.paper("keen_adi")
    N = ex.collection_size
    printed = {  # (request, run): (ranks, normed recall, normed precision)
        ("QA12", "cosine_numeric"): ([1, 3, 14, 17, 18], 0.9013, 0.7270),
        ("QA12", "cosine_logical"): ([1, 2, 3, 18, 23], 0.9169, 0.8230),
        ("QA4", "cosine_numeric"): ([1, 15], 0.9188, 0.7515),
        ("QA4", "cosine_logical"): ([2, 3], 0.9875, 0.8645),
    }
    for (q, run), (rk, rnorm, pnorm) in printed.items():
        assert _relevant_ranks("keen_adi", run)[q] == rk
        assert _rnorm(rk, N) == pytest.approx(rnorm, abs=5e-5 + 1e-9)
        assert _pnorm(rk, N) == pytest.approx(pnorm, abs=5e-5 + 1e-9)
        assert len(read_run(ex.runs[run]).to_dict()[q]) == N


def _tie_groups(name: str, run: str, q: str) -> list[str]:
    ex = examples.paper(name)
    jr = judge(read_qrels(ex.qrels), read_run(ex.runs[run]), ties="given")
    i = jr.query_ids.index(q)
    a, b = jr.offsets[i], jr.offsets[i + 1]
    out: list[str] = []
    for _, rows in itertools.groupby(range(a, b), key=lambda r: jr.tie_ids[r]):
        out.append("".join("+" if jr.grades[r] >= 1 else "-" for r in rows))
    return out


def _prr_ep(groups: list[str], want: int) -> tuple[Fraction, Fraction]:
    """PRR and EP of getting ``want`` relevant documents, by enumerating every arrangement of
    the rank where the search stops (Raghavan et al. examples 2.2-2.3: all equally likely)."""
    seen_rel = seen = 0
    for g in groups:
        r = g.count("+")
        if seen_rel + r >= want:
            s = want - seen_rel
            arrangements = list(itertools.combinations(range(1, len(g) + 1), r))  # + positions
            retrieved = [seen + pos[s - 1] for pos in arrangements]
            p = Fraction(1, len(arrangements))
            prr = Fraction(want) / sum(p * k for k in retrieved)
            ep = sum(p * Fraction(want, k) for k in retrieved)
            return prr, ep
        seen_rel, seen = seen_rel + r, seen + len(g)
    raise AssertionError("not enough relevant documents")


def test_raghavan_weak_orderings():
    assert _tie_groups("raghavan", "delta", "ex2.1") == ["+--", "+++-------"]
    assert _tie_groups("raghavan", "delta_prime", "ex2.1") == ["+++-----", "+---"]
    assert _tie_groups("raghavan", "delta", "ex2.5") == ["+-", "+++++----", "++++----"]
    assert _tie_groups("raghavan", "delta_prime", "ex2.5") == ["++++++----", "++----"]
    printed = {  # (query, run): (PRR, EP) at one relevant document
        ("ex2.1", "delta"): (0.500, 0.611),
        ("ex2.1", "delta_prime"): (0.444, 0.609),
        ("ex2.5", "delta"): (0.667, 0.750),
        ("ex2.5", "delta_prime"): (0.636, 0.775),
    }
    for (q, run), (prr, ep) in printed.items():
        got_prr, got_ep = _prr_ep(_tie_groups("raghavan", run, q), 1)
        assert float(got_prr) == pytest.approx(prr, abs=5e-4 + 1e-9), (q, run)
        assert float(got_ep) == pytest.approx(ep, abs=5e-4 + 1e-9), (q, run)
    # example 2.1: PRECALL at recall 0.25 is the precision at the end of the first rank
    assert Fraction(1, 3) == Fraction("+--".count("+"), 3)


def test_chen_dcg_vectors():
    ex = examples.paper("chen_dcg")
    jr = judge(read_qrels(ex.qrels), read_run(ex.runs["ranking"]))
    gains = {
        q: np.where(jr.grades >= 0, jr.grades, 0)[jr.offsets[i] : jr.offsets[i + 1]].tolist()
        for i, q in enumerate(jr.query_ids)
    }
    assert gains["q1"] == [1, 0, 1, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 0, 3]
    assert gains["q2"] == [0, 0, 2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 3]
    cg1 = list(itertools.accumulate(gains["q1"]))
    assert cg1 == [1, 1, 2, 2, 2, 5, 5, 5, 5, 7, 7, 7, 7, 7, 10]
    dcg1 = list(
        itertools.accumulate(
            g if i == 1 else g / math.log2(i) for i, g in enumerate(gains["q1"], 1)
        )
    )
    printed = [1.0, 1.0, 1.6, 1.6, 1.6, 2.8, 2.8, 2.8, 2.8, 3.4, 3.4, 3.4, 3.4, 3.4, 4.2]
    assert [round(x, 1) for x in dcg1] == printed
    ideal = sorted(read_qrels(ex.qrels).to_dict()["q1"].values(), reverse=True)
    idcg1 = list(
        itertools.accumulate(g if i == 1 else g / math.log2(i) for i, g in enumerate(ideal, 1))
    )
    assert [round(x, 1) for x in idcg1] == [3.0, 6.0, 7.9, 8.9, 9.8, 10.5, 10.9, 11.2, 11.5, 11.8]
