"""What the tests of tie-aware forms against brute force share: random weak orderings (a
hypothesis strategy), the qrels and run they make, every linear order consistent with one,
and the plain measures written out from their definitions (not from cranfield's code), in
``fractions.Fraction``; the expectation is the plain value averaged over all orderings
(uniform within tie groups)."""

from __future__ import annotations

import itertools
import math
import warnings
from fractions import Fraction

import pytest
from hypothesis import strategies as st

from cranfield import evaluate

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
