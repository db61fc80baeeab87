"""The trec_eval family of measures on small inputs: worked examples from the sources and
plain per-query reimplementations (exact fractions where the formula is rational)."""

from __future__ import annotations

import math
import warnings
from fractions import Fraction as F

import numpy as np
import pytest

import cranfield
from cranfield.base.segments import segment_cummax_reverse, segment_cumsum
from cranfield.measures.kernels.counting import lround
from cranfield.measures.kernels.gains import _cmp_gain, glibc_msort


def ev(qrels, run, measures, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = cranfield.evaluate(qrels, run, measures, **kw)
    return {
        label: dict(zip(res.query_ids, res.column(label).tolist(), strict=True))
        for label in res.labels
    }


def ranked(docs):
    """A run dict giving ``docs`` in this order (descending scores)."""
    return {d: float(len(docs) - i) for i, d in enumerate(docs)}


# ---------------------------------------------------------- Baeza-Yates & Ribeiro-Neto 3.2.1
# Baeza-Yates & Ribeiro-Neto (1999) sec. 3.2.1: relevant set Rq (eq. 3.1) and the 15-document
# ranking; relevant at 1, 3, 6, 10, 15.
RANKING = [
    "d123", "d84", "d56", "d6", "d8", "d9", "d511", "d129", "d187", "d25",
    "d38", "d48", "d250", "d113", "d3",
]  # fmt: skip
RQ = ["d3", "d5", "d9", "d25", "d39", "d44", "d56", "d71", "d89", "d123"]


def test_byr_average_precision_and_r_precision():
    v = ev({"q": dict.fromkeys(RQ, 1)}, {"q": ranked(RANKING)}, ["AP", "Rprec", "P@10"])
    # precision at the seen relevant documents: 1, 2/3, 1/2, 2/5, 1/3 (the book prints
    # truncated values 1, 0.66, 0.5, 0.4, 0.3 and their mean 0.57; exactly it is 0.58);
    # trec_eval's AP divides their sum by R = 10
    assert v["AP"]["q"] == pytest.approx(float((1 + F(2, 3) + F(1, 2) + F(2, 5) + F(1, 3)) / 10))
    assert v["AP"]["q"] * 10 / 5 == pytest.approx(0.58)
    assert v["Rprec"]["q"] == 0.4  # "four relevant documents among the first ten"
    assert v["P@10"]["q"] == 0.4


def test_byr_interpolated_precision_figure_3_2():
    levels = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]
    v = ev({"q": dict.fromkeys(RQ, 1)}, {"q": ranked(RANKING)}, [f"IPrec@{r}" for r in levels])
    got = [v[f"IPrec@{r}"]["q"] for r in levels]
    # 100% at 10% recall, 66% at 20%, 50%, 40%, 33% at 50%; 0 above 50% (never reached)
    assert got == pytest.approx([1, 1, 2 / 3, 1 / 2, 2 / 5, 1 / 3, 0, 0, 0, 0, 0])


def test_byr_second_example_and_trec_eval_rounding():
    # eq. 3.3: Rq = {d3, d56, d129}: relevant at ranks 3, 8, 15 (precision 1/3, 1/4, 1/5)
    qrels = {"q": dict.fromkeys(["d3", "d56", "d129"], 1)}
    levels = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]
    v = ev(qrels, {"q": ranked(RANKING)}, [f"IPrec@{r}" for r in levels] + ["Rprec"])
    assert v["Rprec"]["q"] == pytest.approx(1 / 3)  # the book's 0.33
    got = [v[f"IPrec@{r}"]["q"] for r in levels]
    # Fig. 3.3 (eq. 3.4): 1/3 at 0-30%, 1/4 at 40-60%, 1/5 at 70-100%.  trec_eval 10.0 maps a
    # level to c = lround(r*R) relevant documents, so 40% (1.2 -> 1), 70% (2.1 -> 2) and 80%
    # (2.4 -> 2) take the precision of the previous relevant document (docs/trec_eval.md)
    book = [1 / 3] * 4 + [1 / 4] * 3 + [1 / 5] * 4
    trec = [1 / 3] * 5 + [1 / 4] * 4 + [1 / 5] * 2
    assert got == pytest.approx(trec)
    differs = [r for r, a, b in zip(levels, book, trec, strict=True) if a != b]
    assert differs == [0.4, 0.7, 0.8]
    assert v["IPrec@0.5"]["q"] == pytest.approx(book[5])


# ---------------------------------------------------------------- per-query references
QRELS = {
    "1": {"a": 2, "b": 0, "c": 1, "d": -1, "e": 3, "f": 0, "g": 1},
    "2": {"a": 0, "b": 1},
    "3": {"x": 0, "y": 0},
    "4": {"u": 1, "v": 1, "w": 2},
}
RUNS = {
    "1": ranked(["z", "a", "b", "d", "c", "y", "f", "e"]),
    "2": ranked(["a", "q", "b"]),
    "3": ranked(["x", "m"]),
    "4": ranked(["u", "w"]),
}


def judgements(q):
    """(grades of the ranking: None = not in qrels, negative kept), all qrels grades."""
    qr = QRELS[q]
    order = sorted(RUNS[q], key=lambda d: -RUNS[q][d])
    return [qr.get(d) for d in order], list(qr.values())


def is_rel(g, L=1):
    return g is not None and g >= L


def ref_bpref(q, L=1):
    ranking, allg = judgements(q)
    R = sum(g >= L for g in allg)
    N = sum(0 <= g < L for g in allg)
    total, nr = F(0), 0
    for g in ranking:
        if g is None or g < 0:
            continue
        if g < L:
            nr += 1
        else:
            total += 1 if nr == 0 else 1 - F(min(nr, R), min(N, R))
    return total / R if R else 0


def ref_infap(q, L=1):
    eps = F(1, 100000)
    ranking, allg = judgements(q)
    R = sum(g >= L for g in allg)
    total, k, nr, u = F(0), 0, 0, 0
    for j, g in enumerate(ranking):
        if g is None:
            continue
        if g < 0:
            u += 1
            continue
        if g < L:
            nr += 1
            continue
        k += 1
        if j == 0:
            total += 1
        else:
            total += F(1, j + 1) + F(j, j + 1) * F(k - 1 + nr + u, j) * (
                (k - 1 + eps) / (k - 1 + nr + 2 * eps)
            )
    return total / R if R else 0


def ref_rbp(q, p, gains):
    """Moffat & Zobel: (1-p) sum g_i p^(i-1), with trec_eval's per-query rescaling."""
    ranking, allg = judgements(q)
    table = {g: gains.get(g, g) for g in range(max([g for g in allg if g >= 0], default=-1) + 1)}
    table.update(gains)
    lo, hi = min(0, *table.values()), max(0, *table.values())
    if lo < 0 or hi > 1:
        table = {g: (v - lo) / (hi - lo) for g, v in table.items()}
    return (1 - p) * sum(table.get(g, 0) * p**i for i, g in enumerate(ranking) if g is not None)


def ref_resid(q, p):
    ranking, _ = judgements(q)
    return p ** len(ranking) + (1 - p) * sum(
        p**i for i, g in enumerate(ranking) if g is None or g < 0
    )


@pytest.mark.parametrize("L", [1, 2])
def test_bpref_and_infap(L):
    v = ev(QRELS, RUNS, [f"Bpref(rel={L})", f"infAP(rel={L})"])
    for q in QRELS:
        assert v[f"Bpref(rel={L})"][q] == pytest.approx(float(ref_bpref(q, L)), abs=1e-15)
        assert v[f"infAP(rel={L})"][q] == pytest.approx(float(ref_infap(q, L)), abs=1e-15)


def test_rbp_and_residual():
    v = ev(QRELS, RUNS, ["RBP", "RBP(p=0.5)", "RBP(p=0.8,gains={1:5})", "RBPResid(p=0.7)"])
    for q in QRELS:
        assert v["RBP"][q] == pytest.approx(ref_rbp(q, 0.9, {}), abs=1e-15)
        assert v["RBP(p=0.5)"][q] == pytest.approx(ref_rbp(q, 0.5, {}), abs=1e-15)
        assert v["RBP(p=0.8,gains={1:5})"][q] == pytest.approx(ref_rbp(q, 0.8, {1: 5}), abs=1e-15)
        assert v["RBPResid(p=0.7)"][q] == pytest.approx(ref_resid(q, 0.7), abs=1e-15)
    # binary judgments: plain Moffat & Zobel; topic 4 (graded 0..2): grade 1 is worth 1/2
    assert v["RBP"]["2"] == pytest.approx(0.1 * 0.9**2)
    assert v["RBP"]["4"] == pytest.approx(0.1 * (0.5 + 1.0 * 0.9))


def test_set_and_cutoff_measures():
    ms = ["SetF(beta=2)", "SetAP", "SetRelP", "RelP@2", "Unjudged@4", "Judged@4", "Utility"]
    ms += ["Utility(a=2,b=-1,c=-0.5,d=0.25,N=100)", "Rprec(mult=0.5)", "Rprec(mult=2.0)"]
    v = ev(QRELS, RUNS, ms)
    for q in QRELS:
        ranking, allg = judgements(q)
        n, R = len(ranking), sum(g >= 1 for g in allg)
        RR = sum(is_rel(g) for g in ranking)
        P, Rc = F(RR, n), F(RR, R) if R else 0
        f2 = (5 * P * Rc / (4 * P + Rc)) if RR else 0
        assert v["SetF(beta=2)"][q] == pytest.approx(float(f2))
        assert v["SetAP"][q] == pytest.approx(float(F(RR * RR, n * R)) if R else 0)
        assert v["SetRelP"][q] == pytest.approx(float(F(RR, min(n, R))) if R else 0)
        assert v["RelP@2"][q] == pytest.approx(
            float(F(sum(is_rel(g) for g in ranking[:2]), min(2, R))) if R else 0
        )
        unj = sum(g is None or g < 0 for g in ranking[:4])
        assert v["Unjudged@4"][q] == unj / 4
        assert v["Judged@4"][q] == (min(n, 4) - unj) / 4
        assert v["Utility"][q] == RR - (n - RR)
        d = 100 + RR - n - R
        assert v["Utility(a=2,b=-1,c=-0.5,d=0.25,N=100)"][q] == pytest.approx(
            2 * RR - (n - RR) - 0.5 * (R - RR) + 0.25 * d
        )
        for mult in (0.5, 2.0):
            c = int(mult * R + 0.9)
            want = F(sum(is_rel(g) for g in ranking[:c]), c) if c > 0 else 0
            assert v[f"Rprec(mult={mult})"][q] == pytest.approx(float(want))


def test_yaap_bing_and_g():
    v = ev(QRELS, RUNS, ["YAAP", "BinG", "G", "AP"])
    for q in QRELS:
        ranking, allg = judgements(q)
        R = sum(g >= 1 for g in allg)
        s, k, bing = 0.0, 0, 0.0
        for i, g in enumerate(ranking, 1):
            if is_rel(g):
                k += 1
                s += k / i
                bing += 1 / math.log2(2 + (i - k))
        assert v["YAAP"][q] == pytest.approx(math.log((1 + s) / (1 + R - s)))
        assert v["BinG"][q] == pytest.approx(bing / R if R else 0)
        # G: gain / log2(2 + C_i - S_i), C_i = sum of max(ideal_j, 1), S_i = sum of gains
        ideal = sorted((g for g in allg if g > 0), reverse=True)
        S = C = total = 0.0
        for i, g in enumerate(ranking):
            gain = g if g is not None and g > 0 else 0
            S += gain
            C += max(ideal[i], 1) if i < len(ideal) else 1
            if gain:
                total += gain / math.log2(2 + C - S)
        assert v["G"][q] == pytest.approx(total / sum(ideal) if ideal else 0)


def test_ndcg_family_with_trec_gains():
    v = ev(QRELS, RUNS, ["nDCG", "nDCG@3", "DCG", "IDCG@2", "nDCG(gains={0:1,2:5})"])
    for q in QRELS:
        ranking, allg = judgements(q)
        gain = [g if g is not None and g > 0 else 0 for g in ranking]
        ideal = sorted((g for g in allg if g > 0), reverse=True)
        dcg = sum(g / math.log2(i + 2) for i, g in enumerate(gain))
        idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal))
        assert v["DCG"][q] == pytest.approx(dcg)
        assert v["nDCG"][q] == pytest.approx(dcg / idcg if idcg else 0)
        assert v["IDCG@2"][q] == pytest.approx(
            sum(g / math.log2(i + 2) for i, g in enumerate(ideal[:2]))
        )
        d3 = sum(g / math.log2(i + 2) for i, g in enumerate(gain[:3]))
        i3 = sum(g / math.log2(i + 2) for i, g in enumerate(ideal[:3]))
        assert v["nDCG@3"][q] == pytest.approx(d3 / i3 if i3 else 0)
        # custom gains: grade 0 gains 1, grade 2 gains 5, others their grade; unjudged 0
        cg = {0: 1, 2: 5}
        g2 = [cg.get(g, g) if g is not None and g >= 0 else 0 for g in ranking]
        i2 = sorted((cg.get(g, g) for g in allg if g >= 0 and cg.get(g, g) > 0), reverse=True)
        d = sum(g / math.log2(i + 2) for i, g in enumerate(g2))
        i = sum(g / math.log2(i + 2) for i, g in enumerate(i2))
        assert v["nDCG(gains={0:1,2:5})"][q] == pytest.approx(d / i if i else 0)


def test_fractional_gains_follow_trec_eval_table_order():
    # comparator (int)(g1 - g2): 1.5 and 1.0 compare equal, 1.0 and 0.0 do not; glibc's merge
    # sort of [(2, 1.5), (1, 1.0), (0, 0)] gives [(0, 0), (2, 1.5), (1, 1.0)]: the ideal list
    # reads 1.0 before 1.5, so a run with the grade-2 document first scores nDCG > 1
    order = glibc_msort([1.5, 1.0, 0.0], _cmp_gain)
    assert order == [0.0, 1.5, 1.0]
    qrels = {"q": {"d1": 2, "d2": 1, "d3": 0}}
    v = ev(
        qrels,
        {"q": ranked(["d1", "d2"])},
        ["nDCG(gains={2:1.5,1:1.0})", "IDCG(gains={2:1.5,1:1.0})"],
    )
    idcg = 1.0 / math.log2(2) + 1.5 / math.log2(3)
    assert v["IDCG(gains={2:1.5,1:1.0})"]["q"] == pytest.approx(idcg)
    assert v["nDCG(gains={2:1.5,1:1.0})"]["q"] == pytest.approx((1.5 + 1.0 / math.log2(3)) / idcg)
    assert v["nDCG(gains={2:1.5,1:1.0})"]["q"] > 1


def test_rndcg_examples_from_the_reference():
    # trec_eval.md sec. 6.3: qrels {a:1, b:0}: run b,a -> 0; run b,a,c -> 0.3155 (the end
    # point DCG_n/IDCG_m is added only when n >= m + 2)
    qrels = {"q": {"a": 1, "b": 0}}
    assert ev(qrels, {"q": ranked(["b", "a"])}, ["RnDCG"])["RnDCG"]["q"] == 0.0
    got = ev(qrels, {"q": ranked(["b", "a", "c"])}, ["RnDCG"])["RnDCG"]["q"]
    assert got == pytest.approx((0 + (1 / math.log2(3)) / 1) / 2)
    assert round(got, 4) == 0.3155


def test_rndcg_levels_example():
    # 5 docs of gain 3, 3 of gain 2, 10 of gain 1, a ranking of 20 documents:
    # (ndcg@5 + ndcg@8 + ndcg@18 + DCG_20/IDCG_18) / 4
    grades = [3] * 5 + [2] * 3 + [1] * 10
    docs = [f"d{i}" for i in range(18)]
    qrels = {"q": dict(zip(docs, grades, strict=True))}
    order = [*docs[::-1], "x1", "x2"]  # worst first, then two unjudged
    v = ev(qrels, {"q": ranked(order)}, ["RnDCG", "nDCG@5", "nDCG@8", "nDCG@18", "DCG", "IDCG"])
    want = (
        v["nDCG@5"]["q"] + v["nDCG@8"]["q"] + v["nDCG@18"]["q"] + v["DCG"]["q"] / v["IDCG"]["q"]
    ) / 4
    assert v["RnDCG"]["q"] == pytest.approx(want)


def test_ndcg_rel_against_its_definition():
    qrels = {"q": {"a": 2, "b": 1, "c": 0, "d": 1}}
    order = ["c", "b", "x", "a"]
    v = ev(qrels, {"q": ranked(order)}, ["nDCGRel"])
    gains = [0, 1, 0, 2]
    ideal = [2, 1, 1]
    dcg = np.cumsum([g / math.log2(i + 2) for i, g in enumerate(gains)])
    idcg = np.cumsum([g / math.log2(i + 2) for i, g in enumerate(ideal)])
    m, k = 3, 2
    s = dcg[1] / idcg[1] + dcg[3] / idcg[min(3, m) - 1] + (m - k) * dcg[-1] / idcg[-1]
    assert v["nDCGRel"]["q"] == pytest.approx(s / m)


# ------------------------------------------------------------------------ exact helpers
def test_segment_accumulations_are_sequential_in_every_strategy():
    rng = np.random.default_rng(7)
    for lengths in ([3, 1, 4, 1, 5, 9, 2, 6], [1] * 200 + [3], [2000, 1, 7]):
        seg = np.repeat(np.arange(len(lengths)), lengths)
        vals = rng.random(len(seg)) * 10.0 ** rng.integers(-8, 8, len(seg))
        got = segment_cumsum(seg, vals)
        want, acc, prev = [], 0.0, None
        for s, x in zip(seg.tolist(), vals.tolist(), strict=True):
            acc = x if s != prev else acc + x
            prev = s
            want.append(acc)
        assert got.tolist() == want
        mx = segment_cummax_reverse(seg, vals)
        for s in range(len(lengths)):
            part = vals[seg == s]
            assert mx[seg == s].tolist() == np.maximum.accumulate(part[::-1])[::-1].tolist()


def test_lround_rounds_half_away_from_zero_exactly():
    x = np.array([0.5, 1.5, 2.5, -0.5, -1.5, 0.49999999999999994, 1.2, 2.7, 0.0])
    assert lround(x).tolist() == [1, 2, 3, -1, -2, 0, 1, 3, 0]
