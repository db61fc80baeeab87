"""Tie-aware closed forms against brute force: the average over every linear order consistent
with a random weak ordering, computed in this file with ``fractions.Fraction``.

Each plain measure is written out below from its definition (not from cranfield's code); the
expectation is the plain value averaged over all orderings (uniform within tie groups).
"""

from __future__ import annotations

import itertools
import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from cranfield import evaluate, judge, read_qrels, read_run
from cranfield.io.trec.subtopics import Subtopics
from cranfield.ties.analysis import tie_range

NOT_IN_QRELS = None

# ------------------------------------------------------------------ random weak orderings
grade = st.sampled_from([NOT_IN_QRELS, -1, 0, 0, 1, 1, 2])  # -1: in the qrels, unjudged
level = st.lists(grade, min_size=1, max_size=4)
query = st.tuples(st.lists(level, min_size=1, max_size=4), st.integers(0, 2))
weak_orderings = st.lists(query, min_size=1, max_size=3)


def _orderings_count(levels):
    return math.prod(math.factorial(len(lv)) for lv in levels)


def _inputs(queries):
    """qrels and run dicts: level l of query q gets score (levels - l); ``extra`` relevant
    documents are judged but not retrieved."""
    qrels, run = {}, {}
    for qi, (levels, extra) in enumerate(queries):
        q = f"q{qi}"
        qrels[q], run[q] = {}, {}
        d = 0
        for li, lv in enumerate(levels):
            for g in lv:
                d += 1
                doc = f"d{d:02d}"
                run[q][doc] = float(len(levels) - li)
                if g is not NOT_IN_QRELS:
                    qrels[q][doc] = g
        for e in range(extra):
            qrels[q][f"u{e}"] = 1
        if not qrels[q]:
            qrels[q]["u_none"] = 0
    return qrels, run


def _linear_orders(levels):
    """Every grade sequence consistent with the weak order (duplicates included: each of the
    prod(n_g!) permutations counts once, i.e. uniform tie-breaking)."""
    per_level = [list(itertools.permutations(lv)) for lv in levels]
    for combo in itertools.product(*per_level):
        yield [g for part in combo for g in part]


# ------------------------------------------------------------------ plain measures, by hand
def _rel(g, rel=1):
    return g is not NOT_IN_QRELS and g >= rel


def _R(qgrades):
    return sum(1 for g in qgrades if g >= 1)


def p_at(order, k):
    return Fraction(sum(_rel(g) for g in order[:k]), k)


def r_at(order, k, R):
    return Fraction(sum(_rel(g) for g in order[:k]), R) if R else Fraction(0)


def ap(order, R, k=None):
    if not R:
        return Fraction(0)
    total, seen = Fraction(0), 0
    for i, g in enumerate(order[:k] if k else order, start=1):
        if _rel(g):
            seen += 1
            total += Fraction(seen, i)
    return total / R


def rr(order, k=None):
    for i, g in enumerate(order[:k] if k else order, start=1):
        if _rel(g):
            return Fraction(1, i)
    return Fraction(0)


def success(order, k):
    return Fraction(int(any(_rel(g) for g in order[:k])))


def _judged(g):
    return g is not NOT_IN_QRELS and g >= 0


def judged_at(order, k):
    return Fraction(sum(_judged(g) for g in order[:k]), k)


def unjudged_at(order, k):
    return Fraction(sum(not _judged(g) for g in order[:k]), k)


def rel_p(order, k, R):
    return Fraction(sum(_rel(g) for g in order[:k]), min(k, R)) if R else Fraction(0)


def bpref(order, qgrades, R):
    """Buckley & Voorhees (trec_eval 8+): judged non-relevant above each relevant document."""
    if not R:
        return Fraction(0)
    N = sum(1 for g in qgrades if 0 <= g < 1)
    total, nr = Fraction(0), 0
    for g in order:
        if _rel(g):
            total += 1 - Fraction(min(nr, R), min(N, R)) if nr else 1
        elif _judged(g):
            nr += 1
    return total / R


def bin_g(order, R):
    if not R or not any(_rel(g) for g in order):
        return 0.0
    nonrel = 0
    total = 0.0
    for g in order:
        if _rel(g):
            total += 1 / math.log2(2 + nonrel)
        else:
            nonrel += 1
    return total / R


def rbp(order, qgrades, p):
    hi = max([0, *(g for g in qgrades if g >= 0)])
    scale = hi if hi > 1 else 1
    return (1 - p) * sum(
        (max(g, 0) / scale if _judged(g) else 0) * p ** (i - 1) for i, g in enumerate(order, 1)
    )


def rbp_resid(order, p):
    return p ** len(order) + (1 - p) * sum(
        p ** (i - 1) for i, g in enumerate(order, 1) if not _judged(g)
    )


def dcg(order, k=None):
    return sum(
        (g if _judged(g) else 0) / math.log2(i + 1)
        for i, g in enumerate(order[:k] if k else order, start=1)
    )


def idcg(qgrades, k=None):
    ideal = sorted((g for g in qgrades if g > 0), reverse=True)
    return sum(g / math.log2(i + 1) for i, g in enumerate(ideal[:k] if k else ideal, start=1))


def position_of(order, h):
    """1-based position of the h-th relevant document, or None."""
    seen = 0
    for i, g in enumerate(order, start=1):
        if _rel(g):
            seen += 1
            if seen == h:
                return i
    return None


def mean(values):
    values = list(values)
    return sum(values, Fraction(0)) / len(values)


def _values(qrels, run, labels, ties, **side):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = evaluate(qrels, run, labels, ties=ties, **side)
    return {
        q: dict(zip(res.labels, row, strict=True))
        for q, row in zip(res.query_ids, res.values, strict=True)
    }


def _close(a, b):
    if isinstance(b, float) and math.isnan(b):
        return math.isnan(a)
    return a == pytest.approx(float(b), rel=1e-12, abs=1e-12)


# ------------------------------------------------------------------ the tests
@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(weak_orderings, st.integers(1, 6), st.integers(1, 4))
def test_standard_measures_equal_the_average_over_all_tie_breakings(queries, k, h):
    assume(all(_orderings_count(levels) <= 2000 for levels, _ in queries))
    qrels, run = _inputs(queries)
    labels = [
        f"P@{k}",
        f"R@{k}",
        "AP",
        f"AP@{k}",
        "RR",
        f"RR@{k}",
        f"Success@{k}",
        "Rprec",
        f"Judged@{k}",
        "nDCG",
        f"nDCG@{k}",
        "GMAP",
        "NumRelRet",
        "SetP",
        f"RelP@{k}",
        f"R_cap@{k}",
        f"Accuracy@{k}",
        f"Unjudged@{k}",
        f"DCG@{k}",
        "Rprec(mult=1.5)",
        "Bpref",
        "GMBpref",
        "BinG",
        "RBP(p=0.8)",
        "RBPResid(p=0.8)",
    ]
    got = _values(qrels, run, labels, "weak")
    for qi, (levels, _extra) in enumerate(queries):
        q = f"q{qi}"
        qgrades = list(qrels[q].values())
        R = _R(qgrades)
        orders = list(_linear_orders(levels))
        n = len(orders[0])
        ideal = idcg(qgrades)
        ideal_k = idcg(qgrades, k)
        expect = {
            f"P@{k}": mean(p_at(o, k) for o in orders),
            f"R@{k}": mean(r_at(o, k, R) for o in orders),
            "AP": mean(ap(o, R) for o in orders),
            f"AP@{k}": mean(ap(o, R, k) for o in orders),
            "RR": mean(rr(o) for o in orders),
            f"RR@{k}": mean(rr(o, k) for o in orders),
            f"Success@{k}": mean(success(o, k) for o in orders),
            "Rprec": mean(r_at(o, min(n, R), R) for o in orders) if R else Fraction(0),
            f"Judged@{k}": mean(judged_at(o, k) for o in orders),
            "nDCG": sum(dcg(o) for o in orders) / len(orders) / ideal if ideal else 0.0,
            f"nDCG@{k}": sum(dcg(o, k) for o in orders) / len(orders) / ideal_k if ideal_k else 0.0,
            "GMAP": mean(ap(o, R) for o in orders),
            "NumRelRet": Fraction(sum(_rel(g) for g in orders[0])),
            "SetP": Fraction(sum(_rel(g) for g in orders[0]), n),
            f"RelP@{k}": mean(rel_p(o, k, R) for o in orders),
            f"R_cap@{k}": mean(rel_p(o, k, R) for o in orders),  # MTEB's
            f"Accuracy@{k}": mean(success(o, k) for o in orders),
            f"Unjudged@{k}": mean(unjudged_at(o, k) for o in orders),
            f"DCG@{k}": sum(dcg(o, k) for o in orders) / len(orders),
            "Rprec(mult=1.5)": mean(p_at(o, min(n, c)) * min(n, c) / c for o in orders)
            if (c := int(1.5 * R + 0.9)) and R
            else Fraction(0),
            "Bpref": mean(bpref(o, qgrades, R) for o in orders),
            "GMBpref": mean(bpref(o, qgrades, R) for o in orders),
            "BinG": sum(bin_g(o, R) for o in orders) / len(orders),
            "RBP(p=0.8)": sum(rbp(o, qgrades, 0.8) for o in orders) / len(orders),
            "RBPResid(p=0.8)": sum(rbp_resid(o, 0.8) for o in orders) / len(orders),
        }
        for label, value in expect.items():
            assert _close(got[q][label], value), (q, label, got[q][label], float(value), levels)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(weak_orderings, st.integers(1, 5), st.integers(1, 6))
def test_weak_order_measures_equal_their_definitions_by_enumeration(queries, h, nd):
    """EP and ESL are expectations; PRR = NR / E[documents retrieved] (Theorem 3.1 proof);
    EP(ND) = PRR(ND) = E[rel@ND] / ND, ER = E[rel@ND] / R (Theorems 3.3-3.5)."""
    assume(all(_orderings_count(levels) <= 2000 for levels, _ in queries))
    qrels, run = _inputs(queries)
    labels = [
        f"EP(NR={h})",
        f"ESL(NR={h})",
        f"PRR(NR={h})",
        f"EP(ND={nd})",
        f"PRR(ND={nd})",
        f"ER(ND={nd})",
    ]
    got = _values(qrels, run, labels, "weak")
    for qi, (levels, _extra) in enumerate(queries):
        q = f"q{qi}"
        R = _R(list(qrels[q].values()))
        orders = list(_linear_orders(levels))
        pos = [position_of(o, h) for o in orders]
        reach = R > 0 and pos[0] is not None
        relnd = mean(sum(_rel(g) for g in o[:nd]) for o in orders)
        expect = {
            f"EP(NR={h})": mean(Fraction(h, p) for p in pos) if reach else Fraction(0),
            f"ESL(NR={h})": mean(p - h for p in pos) if reach else math.nan,
            f"PRR(NR={h})": Fraction(h) / mean(pos) if reach else Fraction(0),
            f"EP(ND={nd})": relnd / nd,
            f"PRR(ND={nd})": relnd / nd,
            f"ER(ND={nd})": relnd / R if R else Fraction(0),
        }
        for label, value in expect.items():
            assert _close(got[q][label], value), (q, label, got[q][label], value, levels)


def _prr_brute(orders, h):
    pos = [position_of(o, h) for o in orders]
    return None if pos[0] is None else Fraction(h) / mean(pos)


def _precall_levels(levels, h):
    """Eq. 2.2 at integer NR = h, from the levels (definition, in fractions)."""
    tr = j = 0
    for lv in levels:
        r = sum(_rel(g) for g in lv)
        i = len(lv) - r
        if tr + r >= h:
            s = h - tr
            return Fraction(h) / (h + j + Fraction(s * i, r))
        tr, j = tr + r, j + i
    return None


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(weak_orderings, st.sampled_from([0.0, 0.1, 0.25, 0.3, 0.5, 2 / 3, 0.9, 1.0]))
def test_ceiling_interpolation_is_the_max_over_later_recall_points(queries, x):
    """Raghavan et al. (1989) sec. 2.2: precision at recall x is the largest value at any simple
    recall point h / R with h >= ceil(x R) (ceiling and "chain effect"); for PRR (sec. 3.2.2) and
    PRECALL."""
    assume(all(_orderings_count(levels) <= 2000 for levels, _ in queries))
    qrels, run = _inputs(queries)
    labels = [f"PRR(recall={x!r},interpolation=ceiling)", f"PRECALL(recall={x!r})"]
    got = _values(qrels, run, labels, "weak")
    for qi, (levels, _extra) in enumerate(queries):
        q = f"q{qi}"
        R = _R(list(qrels[q].values()))
        orders = list(_linear_orders(levels))
        h0 = max(1, math.ceil(Fraction(x).limit_denominator(1000) * R))
        prr = [_prr_brute(orders, h) for h in range(h0, R + 1)]
        pre = [_precall_levels(levels, h) for h in range(h0, R + 1)]
        want_prr = max([v for v in prr if v is not None], default=Fraction(0)) if R else 0
        want_pre = max([v for v in pre if v is not None], default=Fraction(0)) if R else 0
        assert _close(got[q][labels[0]], want_prr), (levels, x)
        assert _close(got[q][labels[1]], want_pre), (levels, x)


def _esl_gamma(j, r, i, s):
    """Sum_v (j + v) P_v with the factorials holding s interpolated by the Gamma function
    (Raghavan et al. sec. 3.2.2 and Appendix): the definition behind Lemma 3.1."""
    total = 0.0
    for v in range(i + 1):
        logp = (
            math.lgamma(s + v)
            - math.lgamma(s)
            - math.lgamma(v + 1)
            + math.lgamma(r - s + i - v + 1)
            - math.lgamma(r - s + 1)
            - math.lgamma(i - v + 1)
            - (math.lgamma(r + i + 1) - math.lgamma(r + 1) - math.lgamma(i + 1))
        )
        total += (j + v) * math.exp(logp)
    return total


@pytest.mark.parametrize(
    ("levels", "x"),
    [
        (["+-", "+++----"], 0.3),  # R = 4, NR = 1.2 in the second level
        (["-", "++---", "+-"], 0.5),  # R = 3, NR = 1.5
        (["--", "++++------"], 0.55),  # R = 4, NR = 2.2
        (["+", "-", "+++-----"], 0.9),  # R = 4, NR = 3.6
    ],
)
def test_intuitive_interpolation_follows_lemma_3_1(levels, x):
    """ESL and PRR at a fractional NR = x R: the Gamma-interpolated expectation (Lemma 3.1)."""
    grades = [[1 if c == "+" else 0 for c in lv] for lv in levels]
    qrels, run = _inputs([(grades, 0)])
    R = sum(sum(lv) for lv in grades)
    nr = x * R
    tr = j = 0
    for lv in grades:
        r, i = sum(lv), len(lv) - sum(lv)
        if tr + r >= nr:
            esl = _esl_gamma(j, r, i, nr - tr)
            break
        tr, j = tr + r, j + i
    got = _values(qrels, run, [f"ESL(recall={x})", f"PRR(recall={x})"], "weak")["q0"]
    assert got[f"ESL(recall={x})"] == pytest.approx(esl, rel=1e-10)
    assert got[f"PRR(recall={x})"] == pytest.approx(nr / (nr + esl), rel=1e-10)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(weak_orderings, st.integers(1, 6))
def test_best_and_worst_tie_breaking_are_the_extremes_over_all_orders(queries, k):
    assume(all(_orderings_count(levels) <= 2000 for levels, _ in queries))
    qrels, run = _inputs(queries)
    jr = judge(read_qrels(qrels), read_run(run), ties="weak")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tr = tie_range(jr, ["AP", f"P@{k}", f"nDCG@{k}", "RR"])
    for i, q in enumerate(tr.query_ids):
        levels, _ = queries[int(q[1:])]
        qgrades = list(qrels[q].values())
        R = _R(qgrades)
        ideal = idcg(qgrades, k)
        orders = list(_linear_orders(levels))
        per_order = {
            "AP": [ap(o, R) for o in orders],
            f"P@{k}": [p_at(o, k) for o in orders],
            f"nDCG@{k}": [dcg(o, k) / ideal if ideal else 0.0 for o in orders],
            "RR": [rr(o) for o in orders],
        }
        for j, label in enumerate(tr.labels):
            vals = per_order[label]
            assert _close(tr.best[i, j], max(vals)), (label, levels)
            assert _close(tr.worst[i, j], min(vals)), (label, levels)
            assert _close(tr.expected[i, j], sum(vals) / len(vals)), (label, levels)
            assert min(vals) - 1e-12 <= tr.trec[i, j] <= max(vals) + 1e-12


# ------------------------------------------------------------------ literature measures
N_COLLECTION = 30


def _gain(g):
    return g if _judged(g) else 0


def _ranks_with_missing(order, R, N):
    """Ranks of the relevant documents; unretrieved ones at the bottom, N-k+1..N."""
    ranks = [i for i, g in enumerate(order, 1) if _rel(g)]
    k = R - len(ranks)
    return ranks + list(range(N - k + 1, N + 1))


def rnorm(order, R, N):
    if not R:
        return Fraction(0)
    ranks = _ranks_with_missing(order, R, N)
    return 1 - Fraction(sum(ranks) - R * (R + 1) // 2, R * (N - R))


def pnorm(order, R, N):
    if not R:
        return 0.0
    ranks = _ranks_with_missing(order, R, N)
    worst = math.lgamma(N + 1) - math.lgamma(N - R + 1) - math.lgamma(R + 1)
    return 1 - (sum(math.log(r) for r in ranks) - math.lgamma(R + 1)) / worst


def wrnorm(order, qgrades, R, N):
    """Keen Fig. 27 with weight = grade; unretrieved relevant at the mean bottom rank."""
    if not R:
        return Fraction(0)
    found = [(i, g) for i, g in enumerate(order, 1) if _rel(g)]
    k = R - len(found)
    w_all = sorted((g for g in qgrades if g >= 1), reverse=True)
    ideal = sum(i * w for i, w in enumerate(w_all, 1))
    missing_w = sum(w_all) - sum(g for _, g in found)
    actual = sum(i * g for i, g in found) + missing_w * (N - Fraction(k - 1, 2))
    return 1 - (actual - ideal) / (R * (N - R))


def pres(order, R, nmax):
    """Magdy & Jones eq. 3-4: missing relevant at N_max+nR+1..N_max+n."""
    if not R:
        return Fraction(0)
    found = [i for i, g in enumerate(order[:nmax], 1) if _rel(g)]
    ranks = found + list(range(nmax + len(found) + 1, nmax + R + 1))
    return 1 - (Fraction(sum(ranks), R) - Fraction(R + 1, 2)) / nmax


def nth_rank(order, s, R, N):
    pos = position_of(order, s)
    if pos is not None:
        return pos
    found = sum(_rel(g) for g in order)
    if found < s <= R:
        return N - (R - found) + (s - found)
    return None


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(weak_orderings, st.integers(1, 6), st.integers(1, 3))
def test_literature_measures_equal_the_average_over_all_tie_breakings(queries, k, s):
    assume(all(_orderings_count(levels) <= 2000 for levels, _ in queries))
    qrels, run = _inputs(queries)
    # the user knows every other relevant document of the qrels
    # (plus a document the qrels do not list, so that no query's mapping is empty)
    known = {
        q: {"k0": 1, **{d: 1 for i, (d, g) in enumerate(docs.items()) if g >= 1 and i % 2 == 0}}
        for q, docs in qrels.items()
    }
    target = 2
    side = {"collection_size": N_COLLECTION, "known": known, "target": target}
    labels = [
        "Rnorm",
        "Pnorm",
        "WRnorm",
        f"PRES@{k}",
        f"PRESest@{k}",
        f"RelRank(n={s})",
        f"SearchLength(n={s})",
        f"F(beta=2.0)@{k}",
        f"E@{k}",
        f"Fallout@{k}",
        f"SlidingRatio@{k}",
        f"Coverage@{k}",
        f"RelativeRecall@{k}",
        "RecallEffort",
        f"CG@{k}",
        f"nCG@{k}",
        f"DCG(convention=jk)@{k}",
    ]
    got = _values(qrels, run, labels, "weak", **side)
    for qi, (levels, _extra) in enumerate(queries):
        q = f"q{qi}"
        qgrades = list(qrels[q].values())
        R = _R(qgrades)
        N = N_COLLECTION
        orders = list(_linear_orders(levels))
        n = len(orders[0])
        known_rel = {d for d in known[q] if qrels[q].get(d, 0) >= 1}
        ideal = sorted((g for g in qgrades if g > 0), reverse=True)
        icg = sum(ideal[:k])
        ranks = [nth_rank(o, s, R, N) for o in orders]
        exp_rank = mean(ranks) if ranks[0] is not None else math.nan
        expect = {
            "Rnorm": mean(rnorm(o, R, N) for o in orders),
            "Pnorm": sum(pnorm(o, R, N) for o in orders) / len(orders),
            "WRnorm": mean(wrnorm(o, qgrades, R, N) for o in orders),
            f"PRES@{k}": mean(pres(o, R, k) for o in orders),
            f"PRESest@{k}": mean(pres(o, R, k) for o in orders) * max(1, Fraction(R, k)),
            f"RelRank(n={s})": exp_rank if s <= R else math.nan,
            f"SearchLength(n={s})": exp_rank - s if s <= R and ranks[0] is not None else math.nan,
            f"F(beta=2.0)@{k}": mean(
                Fraction(5 * sum(_rel(g) for g in o[:k]), 4 * R + k) for o in orders
            ),
            f"E@{k}": 1 - mean(Fraction(2 * sum(_rel(g) for g in o[:k]), R + k) for o in orders),
            f"Fallout@{k}": mean(
                Fraction(min(n, k) - sum(_rel(g) for g in o[:k]), N - R) for o in orders
            ),
            f"SlidingRatio@{k}": mean(rel_p(o, k, R) for o in orders),
            f"RelativeRecall@{k}": mean(
                Fraction(min(sum(_rel(g) for g in o[:k]), target), target) for o in orders
            ),
            "RecallEffort": mean(
                Fraction(target, position_of(o, target)) if position_of(o, target) else 0
                for o in orders
            ),
            f"CG@{k}": mean(Fraction(sum(_gain(g) for g in o[:k])) for o in orders),
            f"nCG@{k}": mean(Fraction(sum(_gain(g) for g in o[:k]), icg) for o in orders)
            if icg
            else Fraction(0),
            f"DCG(convention=jk)@{k}": sum(
                sum(_gain(g) / (math.log2(i) if i >= 2 else 1) for i, g in enumerate(o[:k], 1))
                for o in orders
            )
            / len(orders),
        }
        for label, value in expect.items():
            if isinstance(value, float) and math.isnan(value):
                assert math.isnan(got[q][label]), (q, label, got[q][label], levels)
                continue
            assert _close(got[q][label], value), (q, label, got[q][label], value, levels)
        # Coverage follows the documents: enumerate the documents' own orders
        doc_levels = []
        d = 0
        for lv in levels:
            doc_levels.append([f"d{d + j + 1:02d}" for j in range(len(lv))])
            d += len(lv)
        doc_orders = list(_linear_orders(doc_levels))
        cov = (
            mean(Fraction(sum(x in known_rel for x in o[:k]), len(known_rel)) for o in doc_orders)
            if known_rel
            else Fraction(0)
        )
        assert _close(got[q][f"Coverage@{k}"], cov), (q, levels)


# ------------------------------------------------------------------ linear orderings
TIE_AWARE_LABELS = [
    "P@3",
    "R@5",
    "Rprec",
    "Success@2",
    "Judged@4",
    "AP",
    "AP@4",
    "GMAP",
    "RR",
    "RR@3",
    "nDCG",
    "nDCG@5",
    "nDCG(gains={0:0,1:1,2:3})@3",
    "NumQ",
    "NumRet",
    "NumRel",
    "NumRelRet",
    "SetP",
    "SetR",
    "SetF",
    "NumNonRelJudgedRet",
    "SetRelP",
    "SetAP",
    "IDCG@5",
    "DCG",
    "DCG@3",
    "Utility",
    "RelP@3",
    "R_cap@3",
    "Accuracy@2",
    "Unjudged@4",
    "Rprec(mult=2.0)",
    "Bpref",
    "GMBpref",
    "BinG",
    "RBP",
    "RBP(p=0.5,gains={0:0,1:1,2:3})",
    "RBPResid",
    "nDCG(convention=jk,base=3.0)@5",
    "DCG(convention=jk)",
    "Rnorm",
    "Pnorm",
    "WRnorm",
    "WRnorm(gains={1:1,2:3})",
    "PRES@5",
    "PRESest@3",
    "RelRank",
    "RelRank(n=2)",
    "RelRank(n=last)",
    "SearchLength(n=2)",
    "F@3",
    "F(beta=2.0)@4",
    "E@3",
    "Fallout@3",
    "Generality",
    "SlidingRatio@3",
    "Coverage",
    "Coverage@3",
    "RelativeRecall",
    "RelativeRecall@4",
    "RelativeRecall(cap=false)@2",
    "RecallEffort",
    "CG",
    "CG@3",
    "nCG@4",
    "ESL(NR=2)",
    "ESL(recall=0.5)",
    "PRR(NR=2)",
    "PRR(recall=0.3)",
    "PRR(recall=0.3,interpolation=ceiling)",
    "PRR(ND=4)",
    "PRECALL(NR=1)",
    "PRECALL(recall=0.7)",
    "PRECALL(recall=0.7,interpolation=intuitive)",
    "EP(NR=2)",
    "EP(ND=3)",
    "ER(ND=5)",
    "nDCG(dcg=exp-log2)@3",
    "INSQ(max_rel=2)",
    "SDCG(max_rel=2,of=ResEU)@3",
    "TBG(H=3.0,max_rel=2,of=ETU)",
    "U(L=5.0,max_rel=2)",
    "P_IA@3",
    "StRecall@2",
    "AP_IA",
    "MSnDCG@3",
    "MSnDCG(gains={1:2,2:5},judged_only=true)",
]


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.lists(grade, min_size=1, max_size=12), min_size=1, max_size=4),
    st.randoms(use_true_random=False),
)
def test_on_a_linear_ordering_every_tie_aware_measure_equals_its_plain_form(queries, rnd):
    """No ties: ``--ties weak`` gives exactly (bit for bit) the ``trec`` values."""
    qrels, run = {}, {}
    for qi, grades in enumerate(queries):
        q = f"q{qi}"
        scores = rnd.sample(range(1000), len(grades))
        run[q] = {f"d{i}": float(s) for i, s in enumerate(scores)}
        qrels[q] = {f"d{i}": g for i, g in enumerate(grades) if g is not NOT_IN_QRELS}
        qrels[q]["u"] = 1
    known = {
        q: {"k0": 1, **{d: 1 for d, g in docs.items() if g > 0 and d != "d0"}}
        for q, docs in qrels.items()
    }
    subtopics = [(q, s, d, g // k) for q, docs in qrels.items() for d, g in docs.items()
                 for s, k in (("s1", 1), ("s2", 2))]  # fmt: skip
    side = {"collection_size": 40, "known": known, "target": 2}
    side["subtopics"] = Subtopics.from_rows(subtopics)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        weak = evaluate(qrels, run, TIE_AWARE_LABELS, ties="weak", **side)
        plain = evaluate(qrels, run, TIE_AWARE_LABELS, ties="trec", **side)
    np.testing.assert_array_equal(weak.values, plain.values)


def test_every_registered_tie_aware_form_is_covered_by_the_linear_test():
    from cranfield.measures import REGISTRY, parse

    covered = {parse(s).name for s in TIE_AWARE_LABELS}
    have = {n for n, d in REGISTRY.items() if d.tie_aware is not None}
    assert have <= covered, sorted(have - covered)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(weak_orderings, st.integers(1, 6))
def test_micro_denominators_do_not_depend_on_tie_breaking(queries, k):
    """Under 'weak' the micro average uses E[num] = E[value] * den, which needs every micro
    denominator of a tie-aware measure to be the same for all tie-breakings."""
    from cranfield.measures import REGISTRY, parse
    from cranfield.ties.analysis import reorder_ties

    assume(all(_orderings_count(levels) <= 2000 for levels, _ in queries))
    qrels, run = _inputs(queries)
    known = {q: {"k0": 1, **{d: 1 for d, g in docs.items() if g >= 1}} for q, docs in qrels.items()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # known documents the qrels do not judge relevant
        jr = judge(
            read_qrels(qrels),
            read_run(run),
            ties="weak",
            collection_size=N_COLLECTION,
            known=read_qrels(known),
            target=2,
        )
    orders = [jr, reorder_ties(jr, True), reorder_ties(jr, False)]
    for name, d in REGISTRY.items():
        if d.micro is None or d.tie_aware is None:
            continue
        m = parse(f"{name}@{k}" if d.cutoff is not None else name)
        dens = [np.asarray(d.micro(o, **m.resolve())[1], dtype=float) for o in orders]
        np.testing.assert_array_equal(dens[0], dens[1], err_msg=name)
        np.testing.assert_array_equal(dens[0], dens[2], err_msg=name)


# ------------------------------------------------------------------ a depth cut inside a tie
def _set_counts(order):
    relret = sum(_rel(g) for g in order)
    nonrel = sum(_judged(g) and not _rel(g) for g in order)
    return relret, nonrel


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(weak_orderings, st.integers(1, 6), st.integers(1, 8))
def test_a_depth_cut_inside_a_tie_group_gives_the_expectation_of_the_cut_ranking(queries, k, d):
    """``--ties weak -M d``: each measure is its mean over all tie-breakings of the measure of
    the ranking cut at d (trec_eval's -M applied to each linear order), not of the cut that
    document ids would choose."""
    assume(all(_orderings_count(levels) <= 2000 for levels, _ in queries))
    qrels, run = _inputs(queries)
    N = 30  # collection size for Rnorm (more than any ranking and its extra relevant)
    labels = [
        f"P@{k}",
        f"R@{k}",
        "AP",
        f"AP@{k}",
        "RR",
        f"RR@{k}",
        f"Success@{k}",
        "Rprec",
        f"Judged@{k}",
        "nDCG",
        f"nDCG@{k}",
        "GMAP",
        "NumRet",
        "NumRelRet",
        "NumNonRelJudgedRet",
        "SetP",
        "SetR",
        "SetF",
        "SetRelP",
        "SetAP",
        f"RelP@{k}",
        f"R_cap@{k}",
        f"Accuracy@{k}",
        f"Unjudged@{k}",
        f"DCG@{k}",
        "Rprec(mult=1.5)",
        "Bpref",
        "GMBpref",
        "BinG",
        "RBP(p=0.8)",
        "RBPResid(p=0.8)",
        "Rnorm",
        f"EP(ND={k})",
        f"ER(ND={k})",
        f"PRES@{k + 2}",
    ]
    got = _values(qrels, run, labels, "weak", depth=d, collection_size=N)
    for qi, (levels, _extra) in enumerate(queries):
        q = f"q{qi}"
        qgrades = list(qrels[q].values())
        R = _R(qgrades)
        cuts = [o[:d] for o in _linear_orders(levels)]
        n = len(cuts[0])
        ideal, ideal_k = idcg(qgrades), idcg(qgrades, k)
        counts = [_set_counts(o) for o in cuts]
        expect = {
            f"P@{k}": mean(p_at(o, k) for o in cuts),
            f"R@{k}": mean(r_at(o, k, R) for o in cuts),
            "AP": mean(ap(o, R) for o in cuts),
            f"AP@{k}": mean(ap(o, R, k) for o in cuts),
            "RR": mean(rr(o) for o in cuts),
            f"RR@{k}": mean(rr(o, k) for o in cuts),
            f"Success@{k}": mean(success(o, k) for o in cuts),
            "Rprec": mean(r_at(o, min(n, R), R) for o in cuts) if R else Fraction(0),
            f"Judged@{k}": mean(judged_at(o, k) for o in cuts),
            "nDCG": sum(dcg(o) for o in cuts) / len(cuts) / ideal if ideal else 0.0,
            f"nDCG@{k}": sum(dcg(o, k) for o in cuts) / len(cuts) / ideal_k if ideal_k else 0.0,
            "GMAP": mean(ap(o, R) for o in cuts),
            "NumRet": Fraction(n),
            "NumRelRet": mean(Fraction(c[0]) for c in counts),
            "NumNonRelJudgedRet": mean(Fraction(c[1]) for c in counts),
            "SetP": mean(Fraction(c[0], n) for c in counts),
            "SetR": mean(Fraction(c[0], R) for c in counts) if R else Fraction(0),
            "SetF": mean(Fraction(2 * c[0], R + n) for c in counts),
            "SetRelP": mean(Fraction(c[0], min(n, R)) for c in counts) if R else Fraction(0),
            "SetAP": mean(Fraction(c[0] ** 2, n * R) for c in counts) if R else Fraction(0),
            f"RelP@{k}": mean(rel_p(o, k, R) for o in cuts),
            f"R_cap@{k}": mean(rel_p(o, k, R) for o in cuts),  # MTEB's
            f"Accuracy@{k}": mean(success(o, k) for o in cuts),
            f"Unjudged@{k}": mean(unjudged_at(o, k) for o in cuts),
            f"DCG@{k}": sum(dcg(o, k) for o in cuts) / len(cuts),
            "Rprec(mult=1.5)": mean(p_at(o, min(n, c)) * min(n, c) / c for o in cuts)
            if (c := int(1.5 * R + 0.9)) and R
            else Fraction(0),
            "Bpref": mean(bpref(o, qgrades, R) for o in cuts),
            "GMBpref": mean(bpref(o, qgrades, R) for o in cuts),
            "BinG": sum(bin_g(o, R) for o in cuts) / len(cuts),
            "RBP(p=0.8)": sum(rbp(o, qgrades, 0.8) for o in cuts) / len(cuts),
            "RBPResid(p=0.8)": sum(rbp_resid(o, 0.8) for o in cuts) / len(cuts),
            "Rnorm": mean(rnorm(o, R, N) for o in cuts),
            f"EP(ND={k})": mean(Fraction(sum(_rel(g) for g in o[:k]), k) for o in cuts),
            f"ER(ND={k})": mean(r_at(o, k, R) for o in cuts),
            f"PRES@{k + 2}": mean(pres(o, R, k + 2) for o in cuts),
        }
        for label, value in expect.items():
            assert _close(got[q][label], value), (q, label, got[q][label], float(value), levels)


def test_the_issue_example_a_cut_inside_a_tie_does_not_depend_on_document_ids():
    """qrels 'q1 0 d1 1'; run d1 and d2 tied: weak P@1 with -M 1 is 1/2, whatever the ids."""
    for relevant, other in (("d1", "d2"), ("d3", "d2")):
        res = evaluate(
            {"q1": {relevant: 1}},
            {"q1": {relevant: 1.0, other: 1.0}},
            ["P@1", "AP"],
            ties="weak",
            depth=1,
        )
        assert res.aggregate() == {"P@1": 0.5, "AP": 0.5}


@pytest.mark.parametrize(
    ("label", "why"),
    [
        ("ESL(NR=1)", "need"),
        ("EP(NR=1)", "need"),
        ("PRR(NR=1)", "need"),
        ("PRECALL(NR=1)", "need"),
        ("Pnorm", "logarithm"),
        ("WRnorm", "weights"),
        ("RelRank", "wanted"),
        ("SearchLength", "wanted"),
    ],
)
def test_measures_without_a_closed_form_for_a_split_tie_are_refused(label, why):
    from cranfield import MeasureError

    qrels, run = {"q1": {"d1": 1, "d2": 0}}, {"q1": {"d1": 1.0, "d2": 1.0, "d3": 0.5}}
    with pytest.raises(MeasureError, match=f"(?s)inside a tie group.*{why}"):
        evaluate(qrels, run, [label], ties="weak", depth=1, collection_size=10)
    # the same depth without a split tie group is computed
    evaluate(qrels, run, [label], ties="weak", depth=2, collection_size=10)


def test_weak_depth_and_judged_only_with_a_split_tie_is_refused():
    from cranfield import ParameterError

    qrels, run = {"q1": {"d1": 1, "d2": 0}}, {"q1": {"d1": 1.0, "d2": 1.0, "d3": 0.5}}
    with pytest.raises(ParameterError, match="judged_only"):
        evaluate(qrels, run, ["P@1"], ties="weak", depth=1, judged_only=True)
    assert evaluate(qrels, run, ["P@1"], ties="weak", depth=2, judged_only=True).aggregate()


def test_tie_ranges_with_a_depth_cut_range_over_which_documents_the_cut_keeps():
    """Best, worst and expected P@1 and AP under -M 1 for two tied documents, one relevant:
    the best keeps the relevant one (1), the worst drops it (0), the expectation is 1/2; trec
    keeps d2 (document ids descending) whatever the order."""
    from cranfield.ties.analysis import tie_ranges

    (tr,) = tie_ranges({"q1": {"d1": 1}}, {"q1": {"d1": 1.0, "d2": 1.0}}, ["P@1", "AP"], depth=1)
    assert tr.best.tolist() == [[1.0, 1.0]]
    assert tr.worst.tolist() == [[0.0, 0.0]]
    assert tr.expected.tolist() == [[0.5, 0.5]]
    assert tr.trec.tolist() == [[0.0, 0.0]]
