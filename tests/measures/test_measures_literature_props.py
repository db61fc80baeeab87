"""Hypothesis: every literature measure equals a naive per-query reimplementation.

The naive versions below work on one query at a time, in plain Python, mostly in exact
fractions, and build what the definitions describe literally: the whole collection as an
explicit list (the run's ranking, then the other non-relevant documents, then the relevant
documents the run missed), cascades step by step, permutations where an expectation is meant.
"""

from __future__ import annotations

import itertools
import math
import warnings
from fractions import Fraction as Fr

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cranfield
from cranfield.judging.join import judge
from cranfield.measures.cg import gain_parts

DOCS = [f"d{i:02d}" for i in range(10)]


@st.composite
def collections(draw):
    nq = draw(st.integers(1, 3))
    qrels, runs, sizes, known, target = {}, {}, {}, {}, {}
    for qi in range(nq):
        q = f"q{qi}"
        judged = draw(st.lists(st.sampled_from(DOCS), min_size=1, max_size=8, unique=True))
        qrels[q] = {d: draw(st.integers(-1, 3)) for d in judged}
        ranked = draw(st.lists(st.sampled_from(DOCS), min_size=1, max_size=10, unique=True))
        runs[q] = {d: float(draw(st.integers(0, 4))) for d in ranked}
        sizes[q] = len(set(judged) | set(ranked)) + draw(st.integers(0, 6))
        kn = draw(st.lists(st.sampled_from(DOCS), max_size=4, unique=True))
        if kn:
            known[q] = dict.fromkeys(kn, 1)
        target[q] = draw(st.integers(1, 4))
    return qrels, runs, sizes, known or None, target


def ranking(run: dict[str, float]) -> list[str]:
    """trec_eval's order: score descending, then document id descending."""
    return [d for d, _ in sorted(run.items(), key=lambda x: (x[1], x[0]), reverse=True)]


def collection_order(qrels, ranked, N, rel, missing_order=None):
    """The whole collection as a list: ranked documents, then unranked non-relevant ones
    (judged or filler), then the relevant documents the run missed (in ``missing_order``)."""
    relevant = {d for d, g in qrels.items() if g >= rel}
    missing = missing_order or sorted(relevant - set(ranked))
    others = [d for d in qrels if d not in ranked and d not in relevant]
    filler = [f"filler{i}" for i in range(N - len(ranked) - len(others) - len(missing))]
    full = list(ranked) + others + filler + list(missing)
    assert len(full) == N
    return full, relevant


def rel_ranks(full, relevant):
    return [i for i, d in enumerate(full, 1) if d in relevant]


def naive(name, qrels, ranked, N, known, target, rel, k, gmax=1):
    """Per-query value of measure ``name`` (plain Python)."""
    grade = {d: g for d, g in qrels.items()}
    relevant = {d for d, g in qrels.items() if g >= rel}
    n = len(relevant)
    top = ranked[:k]
    a = sum(d in relevant for d in top)
    full, _ = collection_order(qrels, ranked, N, rel)
    ranks = rel_ranks(full, relevant)
    if name == "Rnorm":
        if n == 0:
            return 0
        if n == N:
            return 1
        return 1 - Fr(sum(ranks) - sum(range(1, n + 1)), n * (N - n))
    if name == "Pnorm":
        if n == 0:
            return 0
        if n == N:
            return 1
        s = sum(math.log(r) for r in ranks) - math.log(math.factorial(n))
        return 1 - s / math.log(math.comb(N, n))
    if name == "RankRecall":
        return Fr(n * (n + 1) // 2, sum(ranks)) if n else 0
    if name == "LogPrecision":
        if n == 0:
            return 0
        den = sum(math.log(r) for r in ranks)
        return 1.0 if den == 0 else math.log(math.factorial(n)) / den
    if name == "WRnorm":
        if n == 0:
            return 0
        if n == N:
            return 1
        w = {d: max(grade[d], 0) for d in relevant}
        ideal = sum(i * x for i, x in enumerate(sorted(w.values(), reverse=True), 1))
        missed = sorted(relevant - set(ranked))
        total = Fr(0)
        perms = list(itertools.permutations(missed))
        for p in perms:  # expected value over the orders of the missed documents at the bottom
            f, _ = collection_order(qrels, ranked, N, rel, missing_order=list(p))
            total += sum(r * w[f[r - 1]] for r in rel_ranks(f, relevant))
        return 1 - (total / len(perms) - ideal) / (n * (N - n))
    if name in ("PRES", "PRESest"):
        if n == 0:
            return 0
        found = [i for i, d in enumerate(ranked[:k], 1) if d in relevant]
        # worst case: the missed ones right after N_max, at N_max+nR+1..N_max+n
        worst = list(range(k + len(found) + 1, k + n + 1))
        s = Fr(sum(found + worst), n) - Fr(n + 1, 2)
        pres = 1 - s / k
        return pres / min(Fr(1), Fr(k, n)) if name == "PRESest" else pres
    if name.startswith(("F(", "E(")) or name in ("F", "E"):
        b2 = Fr(name.split("=")[1].rstrip(")")) ** 2 if "=" in name else 1
        p, r = Fr(a, k), (Fr(a, n) if n else Fr(0))
        f = 0 if a == 0 else (1 + b2) * p * r / (b2 * p + r)
        return f if name.startswith("F") else 1 - f
    if name == "Fprime":
        if n == 0:
            return 0
        hits = [i for i, d in enumerate(top, 1) if d in relevant]
        ap = sum(Fr(j, i) for j, i in enumerate(hits, 1)) / n
        r = Fr(a, n)
        return 0 if ap + r == 0 else 2 * ap * r / (ap + r)
    nonrel_top = len(top) - a
    if name == "Fallout":
        return Fr(nonrel_top, N - n) if n < N else 0
    if name == "Generality":
        return Fr(1000 * n, N)
    if name == "AdjP":
        G = Fr(25)
        if n == 0:
            return 0
        r1 = Fr(a, n)
        f1 = Fr(nonrel_top, N - n) if n < N else Fr(0)
        den = r1 * G + f1 * (1000 - G)
        return r1 * G / den if den else 0
    if name == "SlidingRatio":
        return Fr(a, min(k, n)) if n else 0
    if name.startswith(("RelRank", "SearchLength")):
        which = name.split("=")[1].rstrip(")")
        want = n if which == "last" else int(which)
        if want < 1 or want > n:
            return math.nan
        r = ranks[want - 1]  # in the whole collection (missed relevant at the bottom)
        return r - want if name.startswith("SearchLength") else r
    known_rel = {d for d in (known or {}) if d in relevant}
    if name == "Coverage":
        return Fr(len(known_rel & set(top)), len(known_rel)) if known_rel else 0
    if name == "Novelty":
        found = relevant & set(top)
        return Fr(len(found - known_rel), len(found)) if found else 0
    if name == "RelativeRecall":
        return Fr(min(a, target), target)
    if name == "RecallEffort":
        seen = 0
        for i, d in enumerate(ranked, 1):
            seen += d in relevant
            if seen == target:
                return Fr(target, i)
        return 0
    gains = [max(grade.get(d, 0), 0) for d in ranked]
    ideal = sorted((max(g, 0) for g in qrels.values()), reverse=True)
    if name == "CG":
        return sum(gains[:k])
    if name == "nCG":
        return Fr(sum(gains[:k]), sum(ideal[:k])) if sum(ideal[:k]) else 0
    if name == "ERR":
        err, reach = 0.0, 1.0
        for i, g in enumerate(gains[:k], 1):
            stop = (2.0**g - 1) / 2.0**gmax
            err += reach * stop / i
            reach *= 1 - stop
        return err
    raise AssertionError(name)


NAMES = [
    "Rnorm",
    "Pnorm",
    "RankRecall",
    "LogPrecision",
    "WRnorm",
    "PRES",
    "PRESest",
    "F",
    "E",
    "F(beta=2)",
    "E(beta=0.5)",
    "Fprime",
    "Fallout",
    "Generality",
    "AdjP",
    "SlidingRatio",
    "RelRank(n=1)",
    "RelRank(n=2)",
    "RelRank(n=last)",
    "SearchLength(n=2)",
    "Coverage",
    "Novelty",
    "RelativeRecall",
    "RecallEffort",
    "CG",
    "nCG",
    "ERR",
]
CUT = {"PRES", "PRESest", "F", "E", "Fprime", "Fallout", "AdjP", "SlidingRatio"}
CUT |= {"Coverage", "Novelty", "RelativeRecall", "CG", "nCG", "ERR"}


def label(name, rel, k):
    inner = [f"rel={rel}"] if rel != 1 else []
    if name == "AdjP":
        inner.append("generality=25")
    base, _, given_params = name.partition("(")
    if given_params:
        inner.append(given_params.rstrip(")"))
    if base in ("CG", "nCG", "ERR"):
        inner = []
    s = base + (f"({','.join(inner)})" if inner else "")
    return s + (f"@{k}" if base in CUT else "")


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(collections(), st.integers(1, 2), st.integers(1, 12))
def test_literature_measures_match_naive(coll, rel, k):
    qrels, runs, sizes, known, target = coll
    labels = [label(n, rel, k) for n in NAMES]
    if known is None:
        labels = [x for x in labels if not x.startswith(("Coverage", "Novelty"))]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = cranfield.evaluate(
            qrels, runs, labels, collection_size=sizes, known=known, target=target
        )
    assert list(res.labels) == labels  # only Coverage and Novelty (without known) are left out
    gmax = max(1, *(g for v in qrels.values() for g in v.values()))
    for qi, q in enumerate(res.query_ids):
        ranked = ranking(runs[q])
        for j, (name, lab) in enumerate(zip(NAMES, [label(n, rel, k) for n in NAMES], strict=True)):
            if lab not in res.labels:
                continue
            got = float(res.values[qi, res.labels.index(lab)])
            kn = (known or {}).get(q)
            exp = naive(name, qrels[q], ranked, sizes[q], kn, target[q], rel, k, gmax)
            if isinstance(exp, float) and math.isnan(exp):
                assert math.isnan(got), (q, lab)
            else:
                assert got == pytest.approx(float(exp), rel=1e-12, abs=1e-12), (q, lab, j)


@settings(max_examples=60, deadline=None)
@given(
    collections(),
    st.integers(1, 12),
    st.sampled_from(["trec", "jk"]),
    st.sampled_from([2.0, 3.0, 10.0]),
)
def test_dcg_conventions_match_naive(coll, k, convention, base):
    qrels, runs, *_ = coll
    jr = judge(cranfield.read_qrels(qrels), cranfield.read_run(runs))
    dcg, idcg = gain_parts(jr, k, None, convention=convention, base=base)

    def disc(i):
        if convention == "trec":
            return math.log(i + 1, base)
        return 1.0 if i < base else math.log(i, base)

    for qi, q in enumerate(jr.query_ids):
        gains = [max(qrels[q].get(d, 0), 0) for d in ranking(runs[q])][:k]
        ideal = sorted((max(g, 0) for g in qrels[q].values()), reverse=True)[:k]
        assert dcg[qi] == pytest.approx(sum(g / disc(i) for i, g in enumerate(gains, 1)), rel=1e-12)
        assert idcg[qi] == pytest.approx(
            sum(g / disc(i) for i, g in enumerate(ideal, 1)), rel=1e-12
        )


@settings(max_examples=60, deadline=None)
@given(collections(), st.integers(1, 12))
def test_micro_average_is_the_ratio_of_summed_counts(coll, k):
    # Keen sec. 4A: sum over requests of relevant retrieved, one ratio at the end
    qrels, runs, sizes, *_ = coll
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = cranfield.evaluate(
            qrels,
            runs,
            [f"P@{k}", f"R@{k}", f"Fallout@{k}", "Generality"],
            collection_size=sizes,
            aggregate="micro",
        )
    a = b = R = N = 0
    for q in res.query_ids:
        ranked = ranking(runs[q])[:k]
        rel = {d for d, g in qrels[q].items() if g >= 1}
        a += sum(d in rel for d in ranked)
        b += sum(d not in rel for d in ranked)
        R += len(rel)
        N += sizes[q]
    agg = res.aggregate()
    nq = len(res.query_ids)
    assert agg[f"P@{k}"] == pytest.approx(a / (k * nq), rel=1e-12)
    assert agg[f"R@{k}"] == pytest.approx(a / R if R else 0.0, rel=1e-12, abs=1e-15)
    assert agg[f"Fallout@{k}"] == pytest.approx(b / (N - R) if N > R else 0.0, rel=1e-12)
    assert agg["Generality"] == pytest.approx(1000 * R / N, rel=1e-12)
    assert np.all(np.isfinite(res.values))


MICRO = ["P@{k}", "R@{k}", "Rprec", "SetP", "SetR", "Judged@{k}", "nDCG@{k}", "F(beta=2)@{k}"]
MICRO += ["E@{k}", "Fallout@{k}", "Generality", "SlidingRatio@{k}", "Coverage@{k}", "Novelty"]
MICRO += ["RelativeRecall@{k}", "nCG@{k}"]


@settings(max_examples=40, deadline=None)
@given(collections(), st.integers(1, 12))
def test_micro_parts_are_the_per_query_ratio(coll, k):
    # a measure's declared micro parts must be its own numerator and denominator
    qrels, runs, sizes, known, target = coll
    labels = [m.format(k=k) for m in MICRO]
    if known is None:
        labels = [x for x in labels if not x.startswith(("Coverage", "Novelty"))]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = cranfield.evaluate(
            qrels,
            runs,
            labels,
            collection_size=sizes,
            known=known,
            target=target,
            aggregate="micro",
        )
    assert set(res.parts) == set(labels)
    for j, lab in enumerate(labels):
        num, den = res.parts[lab]
        ok = den != 0
        np.testing.assert_allclose(res.values[ok, j], num[ok] / den[ok], rtol=1e-12)
