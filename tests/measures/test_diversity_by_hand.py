"""A worked example per diversity measure, computed here from the papers' formulas.

Query q1 has subtopics A, B, C (and D, which nothing is relevant to, so S = 3):
a1, a2 are relevant to A; b1 to B; ab to A and B; c1 to C; n0 is judged for A and D but
relevant to neither.  The run ranks ab, a1, b1, x (not judged), c1, n0.  With alpha = 0.5
(Clarke et al., SIGIR 2008) the novelty-discounted gains G(i) = sum_j J(d_i, j)
(1 - alpha)^{c_j(i)} are:

    rank 1  ab  A, B new                      G = 1 + 1 = 2
    rank 2  a1  A seen once                   G = 0.5
    rank 3  b1  B seen once                   G = 0.5
    rank 4  x   not judged                    G = 0
    rank 5  c1  C new                         G = 1
    rank 6  n0  nothing relevant              G = 0

The ideal ranking is found here by trying every order of the judged documents (the best
one, which ndeval's greedy approximation also finds on this example).
"""

from __future__ import annotations

import itertools
import math
import warnings
from fractions import Fraction

import pytest

import cranfield
from cranfield.io.trec.subtopics import Subtopics

ROWS = [
    ("q1", "A", "a1", 1),
    ("q1", "A", "a2", 1),
    ("q1", "B", "b1", 2),  # a grade above 1 is relevant, no more
    ("q1", "A", "ab", 1),
    ("q1", "B", "ab", 1),
    ("q1", "C", "c1", 1),
    ("q1", "A", "n0", 0),
    ("q1", "D", "n0", -2),
]
RUN = {"q1": {"ab": 6.0, "a1": 5.0, "b1": 4.0, "x": 3.0, "c1": 2.0, "n0": 1.0}}
RELEVANT = {"a1": {"A"}, "a2": {"A"}, "b1": {"B"}, "ab": {"A", "B"}, "c1": {"C"}, "n0": set()}
RANKING = ["ab", "a1", "b1", "x", "c1", "n0"]
S = 3
G = [2, 0.5, 0.5, 0, 1, 0]


def _value(measure: str) -> float:
    sub = Subtopics.from_rows(ROWS)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = cranfield.evaluate(sub, RUN, [measure], subtopics=sub)
    return float(res.values[0, 0])


def _gains(ranking, alpha):
    seen = dict.fromkeys("ABCD", 0)
    out = []
    for d in ranking:
        g = 0.0
        for j in sorted(RELEVANT.get(d, ())):
            g += (1 - alpha) ** seen[j]
            seen[j] += 1
        out.append(g)
    return out


def _dcg(gains, k):
    return sum(g / math.log2(i + 2) for i, g in enumerate(gains[:k]))


def _err(gains, k):
    return sum(g / (i + 1) for i, g in enumerate(gains[:k]))


def _ideal(score, k, alpha=0.5):
    """The best value of ``score(gains, k)`` over every order of the judged documents."""
    return max(score(_gains(p, alpha), k) for p in itertools.permutations(RELEVANT))


def test_the_gains_of_the_example():
    assert _gains(RANKING, 0.5) == G


def test_alpha_dcg_by_hand():
    """alpha-DCG@k over ndeval's "ideal ideal" DCG (every rank relevant to all S subtopics,
    discounted by novelty); not divided at k = 1."""
    for k in (2, 3, 5, 6, 10):
        ideal_ideal = sum(S * 0.5**i / math.log2(i + 2) for i in range(k))
        assert _value(f"alpha_DCG@{k}") == pytest.approx(_dcg(G, k) / ideal_ideal, abs=1e-14)
    assert _value("alpha_DCG@1") == 2.0  # ndeval's: the subtopics document 1 covers


def test_alpha_ndcg_by_hand():
    for k in (1, 2, 3, 5, 6, 10, 1000):
        assert _value(f"alpha_nDCG@{k}") == pytest.approx(_dcg(G, k) / _ideal(_dcg, k), abs=1e-14)
    # the ideal: ab, c1, then an A and a B document, then the other A one
    assert _ideal(_dcg, 5) == pytest.approx(_dcg([2, 1, 0.5, 0.5, 0.25], 5))


def test_err_ia_by_hand():
    for k in (2, 3, 5, 20):
        ideal_ideal = sum(S * 0.5**i / (i + 1) for i in range(k))
        assert _value(f"ERR_IA@{k}") == pytest.approx(_err(G, k) / ideal_ideal, abs=1e-14)
    assert _value("ERR_IA@1") == 2.0


def test_nerr_ia_by_hand():
    for k in (1, 2, 5, 20):
        assert _value(f"nERR_IA@{k}") == pytest.approx(_err(G, k) / _ideal(_err, k), abs=1e-14)


def test_nrbp_by_hand():
    """NRBP = (1 - (1-alpha) beta)/S sum_k beta^{k-1} G(k) (Clarke et al., ICTIR 2009)."""
    # beta = 0.5: (1 - 0.25)/3 * (2 + 0.25 + 0.125 + 0 + 1/16) = 0.25 * 2.4375
    assert _value("NRBP") == float(Fraction(1, 4) * Fraction(39, 16))
    beta, alpha = 0.8, 0.3
    gains = _gains(RANKING, alpha)
    want = (1 - (1 - alpha) * beta) / S * sum(beta**i * g for i, g in enumerate(gains))
    assert _value(f"NRBP(alpha={alpha},beta={beta})") == pytest.approx(want, abs=1e-14)


def test_nnrbp_by_hand():
    def rbp(gains, _k):
        return sum(0.5**i * g for i, g in enumerate(gains))

    # ideal order ab, c1, b1, a2, a1: 2 + 0.5 + 0.125 + 0.0625 + 0.015625 = 2.703125
    assert _ideal(rbp, None) == 2.703125
    assert _value("nNRBP") == pytest.approx(2.4375 / 2.703125, abs=1e-15)
    # alpha = 0, beta = 1: NRBP's factor is 0; the ratio of the sums (5 / 6) remains
    assert _value("NRBP(alpha=0.0,beta=1.0)") == 0.0
    assert _value("nNRBP(alpha=0.0,beta=1.0)") == pytest.approx(5 / 6, abs=1e-15)


def test_ap_ia_by_hand():
    """AP per subtopic, averaged over the S subtopics (Agrawal et al., WSDM 2009):
    A: ab@1, a1@2 of R=3 -> (1/1 + 2/2)/3; B: ab@1, b1@3 of R=2 -> (1 + 2/3)/2;
    C: c1@5 of R=1 -> 1/5."""
    want = (Fraction(2, 3) + Fraction(5, 6) + Fraction(1, 5)) / 3
    assert _value("AP_IA") == pytest.approx(float(want), abs=1e-15)
    assert _value("MAP_IA") == _value("AP_IA")


def test_p_ia_by_hand():
    """Relevant (document, subtopic) pairs in the top k over k S."""
    for k, pairs in ((1, 2), (2, 3), (3, 4), (5, 5), (6, 5), (10, 5)):
        assert _value(f"P_IA@{k}") == pytest.approx(pairs / (k * S), abs=1e-15)


def test_strecall_by_hand():
    """Subtopics covered by the top k over S (Zhai, Cohen & Lafferty, SIGIR 2003)."""
    for k, covered in ((1, 2), (4, 2), (5, 3), (100, 3)):
        assert _value(f"StRecall@{k}") == pytest.approx(covered / S, abs=1e-15)


def test_judged_only_drops_documents_the_subtopic_qrels_do_not_list():
    """Without x, c1 moves to rank 4."""
    k = 5
    gains = [2, 0.5, 0.5, 1, 0]
    assert _value(f"alpha_nDCG(judged_only=true)@{k}") == pytest.approx(
        _dcg(gains, k) / _ideal(_dcg, k), abs=1e-14
    )
    assert _value("P_IA(judged_only=true)@4") == pytest.approx(5 / 12, abs=1e-15)


@pytest.mark.parametrize("alpha", [0.0, 1e-6, 0.01, 0.5])
def test_normalisers_at_deep_cutoffs(alpha):
    """Beyond 2**16 ranks the ideal-ideal normaliser's tail is integrated (Euler-Maclaurin):
    against every term added exactly (math.fsum)."""
    k = 200_003
    run = f"alpha={alpha}," if alpha != 0.5 else ""
    for form, name in (("dcg", "alpha_DCG"), ("err", "ERR_IA")):
        if name == "ERR_IA" and alpha != 0.5:
            continue
        terms, g = [], float(S)
        for i in range(k):
            terms.append(g * (1 / math.log2(i + 2) if form == "dcg" else 1 / (i + 1)))
            g *= 1 - alpha
        gains = _gains(RANKING, alpha)
        top = _dcg(gains, k) if form == "dcg" else _err(gains, k)
        value = _value(f"{name}({run}judged_only=false)@{k}")
        assert value == pytest.approx(top / math.fsum(terms), rel=1e-12)
