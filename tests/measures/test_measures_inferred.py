"""Inferred measures from stratified samples (issue 28, part 3): xinfAP, infAP, infNDCG.

Expected values: NIST's sample_eval.pl (fetched from github:amillert/TREC-elastic, at its root,
not committed), run with Debian's perl 5 on the samples that ``generate(seed)`` below writes,
for seeds 1, 2 and 3:

    perl sample_eval.pl -q s{seed}.qrels s{seed}.run        # xinfAP (printed as infAP), ...
    perl sample_eval.pl -q s{seed}.one.qrels s{seed}.run    # every stratum set to 1: infAP

Its outputs are recorded in PERL (per query and 'all': xinfAP, infAP, infNDCG, iP10, iP50,
iP1000, inum_rel_ret, inum_rel, as it prints them with 4 decimals).  Besides, a brute-force
oracle written from the paper's estimators (Yilmaz, Kanoulas & Aslam, SIGIR 2008).
"""

from __future__ import annotations

import math
import random

import pytest

from conftest import run_cli
from cranfield.errors import InputError
from cranfield.judgments.inferred import MEASURES, inferred, read_sampled_qrels


def generate(seed, queries=8, strata_rates=((1, 1.0), (2, 0.5), (3, 0.2)), grades=(0, 1, 2)):
    """(sampled qrels text, run text): per query a pool cut into strata sampled at the given
    rates (-1: pooled, not sampled) and a run ranking pooled and unpooled documents."""
    rnd = random.Random(seed)
    qrels, run = [], []
    for qi in range(1, queries + 1):
        q = str(qi)
        pool = [f"D{qi}-{j:03d}" for j in range(rnd.randint(20, 120))]
        for j, doc in enumerate(pool):
            k = min(j * len(strata_rates) // len(pool), len(strata_rates) - 1)
            stratum, rate = strata_rates[k]
            if rnd.random() < rate:
                g = rnd.choices(grades, weights=(5, 3, 2)[: len(grades)])[0]
            else:
                g = -1
            qrels.append(f"{q} 0 {doc} {stratum} {g}")
        ranked = rnd.sample(pool, k=min(len(pool), rnd.randint(10, 60)))
        ranked += [f"U{qi}-{j:03d}" for j in range(rnd.randint(0, 40))]
        rnd.shuffle(ranked)
        for r, doc in enumerate(ranked, start=1):
            run.append(f"{q} Q0 {doc} {r} {round(100 - r * 0.5 + rnd.random(), 3)} sys")
    return "\n".join(qrels) + "\n", "\n".join(run) + "\n"


PERL = {
    1: {
        "1": "0.3848 0.4685 0.4945 0.5667 0.3200 0.0170 17.0000 19.0000",
        "2": "0.5598 0.5662 0.7847 0.6500 0.5733 0.0287 28.6666 28.4000",
        "3": "0.2795 0.2968 0.5525 0.4000 0.3500 0.0175 17.4998 17.5000",
        "4": "0.2192 0.1876 0.5187 0.4333 0.5150 0.0267 26.7498 47.3007",
        "5": "0.3041 0.3021 0.5388 0.0000 0.3275 0.0164 16.3750 16.3750",
        "6": "0.5739 0.5832 0.7462 0.7333 0.3400 0.0170 16.9999 17.0000",
        "7": "0.5675 0.4982 0.9683 0.7000 0.5400 0.0355 35.4998 35.5000",
        "8": "0.0281 0.0286 0.1280 0.1333 0.0733 0.0037 3.6667 13.2000",
        "all": "0.3646 0.3664 0.5915 0.4521 0.3799 0.0203 162.4577 194.2757",
    },
    2: {
        "1": "0.3777 0.4187 0.5603 0.3167 0.3000 0.0150 15.0000 12.0000",
        "2": "0.0903 0.0713 0.2714 0.1000 0.1300 0.0065 6.5000 17.0000",
        "3": "0.3725 0.4112 0.6931 0.3333 0.3067 0.0204 20.4284 20.4286",
        "4": "0.0308 0.0813 0.1059 0.1333 0.0800 0.0040 4.0001 19.5974",
        "5": "0.2097 0.2691 0.5268 0.1000 0.2400 0.0230 23.0000 23.0000",
        "6": "0.0119 0.0272 0.0697 0.2000 0.1133 0.0057 5.6667 60.4190",
        "7": "0.1535 0.1599 0.3981 0.3333 0.3400 0.0180 17.9998 46.9455",
        "8": "0.2512 0.2292 0.7599 0.3000 0.3305 0.0286 28.6000 49.2692",
        "all": "0.1872 0.2085 0.4232 0.2271 0.2301 0.0151 121.1949 248.6597",
    },
    3: {
        "1": "0.2362 0.2218 0.4807 0.3000 0.2667 0.0133 13.3333 24.1000",
        "2": "0.0998 0.0596 0.2754 0.5667 0.2400 0.0120 11.9999 46.9375",
        "3": "0.3654 0.3332 0.5593 0.1333 0.4450 0.0222 22.2499 22.2500",
        "4": "0.1246 0.1460 0.3206 0.1667 0.4120 0.0206 20.5999 42.7619",
        "5": "0.0541 0.0711 0.1650 0.3167 0.1300 0.0065 6.5001 58.6000",
        "6": "0.0735 0.0384 0.2705 0.2000 0.2300 0.0130 12.9999 49.1667",
        "7": "0.2568 0.2223 0.5634 0.2667 0.3640 0.0232 23.2000 37.9333",
        "8": "0.0988 0.1175 0.3433 0.2000 0.1295 0.0184 18.4048 34.0294",
        "all": "0.1636 0.1512 0.3723 0.2688 0.2771 0.0162 129.2878 315.7788",
    },
}


def _files(tmp_path, seed):
    qrels, run = generate(seed)
    qp, rp = tmp_path / f"s{seed}.qrels", tmp_path / f"s{seed}.run"
    qp.write_text(qrels)
    rp.write_text(run)
    return qp, rp


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_values_equal_sample_eval_pl(tmp_path, seed):
    qp, rp = _files(tmp_path, seed)
    res = inferred(qp, rp)
    expected = PERL[seed]
    assert list(res.query_ids) == sorted(q for q in expected if q != "all")
    agg = res.aggregate()
    for q, line in expected.items():
        got = agg if q == "all" else res.values[q]
        assert " ".join(f"{got[m]:.4f}" for m in MEASURES) == line, q


def _oracle(ranked, judged, depth=1000):
    """xinfAP and infNDCG of one query from the paper's estimators, recounting every prefix."""
    ranked = ranked[:depth]
    strata = {c for c, _ in judged.values()}
    n = {c: sum(1 for c2, _ in judged.values() if c2 == c) for c in strata}
    s = {c: sum(1 for c2, g in judged.values() if c2 == c and g >= 0) for c in strata}
    r = {c: sum(1 for c2, g in judged.values() if c2 == c and g > 0) for c in strata}
    est = {c: r[c] * n[c] / s[c] if s[c] else 0.0 for c in strata}
    R = sum(est.values())

    def prefix(k):  # pooled, sampled and relevant documents of each stratum above rank k
        above = [judged[d] for d in ranked[: k - 1] if d in judged]
        m = {c: sum(1 for c2, _ in above if c2 == c) for c in strata}
        smp = {c: sum(1 for c2, g in above if c2 == c and g >= 0) for c in strata}
        rel = {c: sum(1 for c2, g in above if c2 == c and g > 0) for c in strata}
        return len(above), m, smp, rel

    ap = 0.0
    for c in strata:
        if not r[c] or not R:
            continue
        total = 0.0
        for k, doc in enumerate(ranked, start=1):
            if doc in judged and judged[doc][0] == c and judged[doc][1] > 0:
                d, m, smp, rel = prefix(k)
                inner = sum(
                    m[x] / d * (rel[x] + 1e-5) / (smp[x] + 3e-5) for x in strata if d and m[x]
                )
                total += 1 / k + (d / k) * inner  # E[prec@k]: the document, and those above
        ap += est[c] / R * total / r[c]
    d, m, smp, _ = prefix(len(ranked) + 1)
    dcg = 0.0
    for c in strata:
        g = sum(
            judged[doc][1] / math.log2(k + 1)
            for k, doc in enumerate(ranked, start=1)
            if doc in judged and judged[doc][0] == c and judged[doc][1] > 0
        )
        dcg += m[c] * g / smp[c] if smp[c] else 0.0  # inverse sampling rate in the run
    counts: dict[int, float] = {}
    for c in strata:
        for g in {g for c2, g in judged.values() if c2 == c and g > 0}:
            k = sum(1 for c2, g2 in judged.values() if c2 == c and g2 == g)
            counts[g] = counts.get(g, 0.0) + k * n[c] / s[c]
    gains = [g for g in sorted(counts, reverse=True) for _ in range(int(counts[g] + 0.5))]
    ideal = sum(g / math.log2(k + 1) for k, g in enumerate(gains[:depth], start=1))
    return ap, (dcg / ideal if ideal else 0.0)


@pytest.mark.parametrize("seed", [4, 5, 6, 7])
def test_values_equal_the_paper_estimators(tmp_path, seed):
    qp, rp = _files(tmp_path, seed)
    res = inferred(qp, rp)
    sampled = read_sampled_qrels(qp).judgments
    runs: dict[str, list[tuple[float, str]]] = {}
    for line in rp.read_text().splitlines():
        q, _, doc, _, score, _ = line.split()
        runs.setdefault(q, []).append((float(score), doc))
    for q in res.query_ids:
        ranked = [d for _, d in sorted(runs[q], reverse=True)]
        ap, ndcg = _oracle(ranked, sampled[q])
        assert res.values[q]["xinfAP"] == pytest.approx(ap, rel=1e-9, abs=1e-12)
        assert res.values[q]["infNDCG"] == pytest.approx(ndcg, rel=1e-9, abs=1e-12)
        one = {d: (0, g) for d, (_, g) in sampled[q].items()}
        assert res.values[q]["infAP"] == pytest.approx(_oracle(ranked, one)[0], rel=1e-9)


def test_with_every_document_sampled_xinfap_is_nearly_ap():
    """A full sample (one stratum, every document judged): the estimate is AP up to the
    smoothing constants (1e-5 / 3e-5)."""
    import cranfield

    rnd = random.Random(9)
    lines, qrels, run = [], {}, {}
    for q in ("1", "2"):
        qrels[q] = {f"d{j}": rnd.choice((0, 0, 1, 2)) for j in range(40)}
        lines += [f"{q} 0 {d} 1 {g}" for d, g in qrels[q].items()]
        run[q] = {f"d{j}": 100.0 - j + rnd.random() for j in range(0, 40, 2)}
    ap = cranfield.evaluate(qrels, run, ["AP"]).column("AP")
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:
        p = Path(tmp) / "s.qrels"
        p.write_text("\n".join(lines) + "\n")
        res = inferred(p, run)
    for i, q in enumerate(res.query_ids):
        assert res.values[q]["xinfAP"] == pytest.approx(ap[i], abs=1e-4)


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("1 0 d1 1", "expected 5 fields"),
        ("1 0 d1 1 2 7", "expected 5 fields"),
        ("1 0 d1 a 2", "stratum 'a' is not an integer"),
        ("1 0 d1 1.5 2", "stratum '1.5' is not an integer"),
        ("1 0 d1 1 x", "grade 'x' is not an integer"),
        ("1 0 d0 2 1", "listed twice"),
    ],
)
def test_bad_sampled_qrels_lines_are_one_error_naming_file_and_line(tmp_path, line, problem):
    p = tmp_path / "bad.qrels"
    p.write_text(f"1 0 d0 1 1\n\n1 0 d2 1 0\n{line}\n")
    with pytest.raises(InputError, match=problem) as e:
        read_sampled_qrels(p)
    assert e.value.line == 4 and e.value.source == str(p)
    rp = tmp_path / "run.txt"
    rp.write_text("1 Q0 d0 1 2 r\n")
    proc = run_cli("inferred", str(p), str(rp))
    err = proc.stderr.decode()
    assert proc.returncode == 2 and f"{p}: line 4" in err and "Traceback" not in err


def test_cli_prints_sample_eval_lines(tmp_path):
    qp, rp = _files(tmp_path, 1)
    proc = run_cli("inferred", str(qp), str(rp), "-q")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.decode().splitlines()
    want = PERL[1]["all"].split()
    assert [ln.split("\t") for ln in lines[-len(MEASURES) :]] == [
        [m, "all", v] for m, v in zip(MEASURES, want, strict=True)
    ]
    assert f"xinfAP\t1\t{PERL[1]['1'].split()[0]}" in lines
