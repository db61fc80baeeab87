"""NTCIREVAL's measures (cranfield.measures.ntcir) against NTCIREVAL, pyNTCIREVAL and the papers.

- the sample of NTCIREVAL's README (sample.rel / sample.res, ``compute -g 1:2:3``, plain and
  with ``label -j``): the values NTCIREVAL prints, to its four decimals;
- generated collections against pyNTCIREVAL 0.0.3 (an independent Python port) for the
  measures it has;
- generated collections against brute-force computations written here from the definitions
  (every measure, condensed lists too, exact fractions where no logarithm is involved);
- GAP on a worked example and, on binary judgments, against AP (Robertson et al.: GAP
  reduces to AP).
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest

import cranfield
from cranfield.errors import MeasureError, UndefinedMeasureWarning
from cranfield.measures import parse

# NTCIREVAL's README sample: the rel file (document, level) and the ranked list, top first
SAMPLE_REL = {
    **{f"dummy0{i}": 3 for i in (1, 2, 3)},
    **{f"dummy0{i}": 2 for i in (4, 5, 6)},
    **{f"dummy0{i}": 1 for i in (7, 8, 9)},
    "dummy10": 1,
    "dummy11": 0,
}
SAMPLE_RES = ["dummy11", "dummy01", "dummy12", "dummy04"]
G = "gains={1:1,2:2,3:3}"
# what ntcir_eval compute -r sample.rel -g 1:2:3 prints (README; -cutoffs 2 for the @2 lines),
# and with label -j (pyNTCIREVAL's tests/dat/res_test_compute_label_j.txt, NTCIREVAL's output)
README = {
    f"Q({G})": ("0.0967", "0.1083"),
    f"Q({G})@1000": ("0.0967", "0.1083"),
    f"O-measure({G})": ("0.5000", "0.5000"),
    f"P-measure({G})": ("0.5000", "0.5000"),
    f"P-plus({G})": ("0.5000", "0.5000"),
    f"NCU({G},beta=0)": ("0.1316", "0.1491"),
    f"NCU({G})": ("0.1281", "0.1404"),
    f"NCU(stop=rb,{G},beta=0)": ("0.1215", "0.1412"),
    f"NCU(stop=rb,{G})": ("0.1175", "0.1314"),
    f"nERR({G})@1000": ("0.4710", "0.4830"),
    f"MSnDCG({G})@1000": ("0.2760", "0.2899"),
    f"Q({G})@2": ("0.2500", None),
    f"nERR({G})@2": ("0.4444", None),
    f"MSnDCG({G})@2": ("0.3869", None),
}


def _run(docs: list[str]) -> dict[str, float]:
    return {d: float(len(docs) - i) for i, d in enumerate(docs)}


def _condensed(text: str) -> str:
    name, _, rest = text.partition("(")
    return f"{name}({rest.replace(')', ',judged_only=true)', 1)}"


def test_ntcireval_readme_sample():
    qrels, run = {"t": SAMPLE_REL}, {"t": _run(SAMPLE_RES)}
    plain = cranfield.evaluate(qrels, run, list(README))
    condensed = [m for m, (_, j) in README.items() if j is not None]
    judged = cranfield.evaluate(qrels, run, [_condensed(m) for m in condensed])
    got = {m: f"{v:.4f}" for m, v in zip(README, plain.values[0], strict=True)}
    assert got == {m: v for m, (v, _) in README.items()}
    got_j = {m: f"{v:.4f}" for m, v in zip(condensed, judged.values[0], strict=True)}
    assert got_j == {m: README[m][1] for m in condensed}
    # NTCIREVAL's nDCG is Jarvelin & Kekalainen's (no discount up to rank b = 2): the
    # package's nDCG(convention=jk) gives its nDCG@1000 (0.3380, condensed 0.3601)
    jk = f"nDCG({G},convention=jk)@1000"
    assert f"{cranfield.evaluate(qrels, run, [jk]).values[0, 0]:.4f}" == "0.3380"
    cond = cranfield.evaluate(qrels, run, [jk], judged_only=True).values[0, 0]
    assert f"{cond:.4f}" == "0.3601"


def test_the_condensed_list_is_the_judged_only_ranking():
    """judged_only=true equals the measure over the judged documents only (-J)."""
    qrels, run = {"t": SAMPLE_REL}, {"t": _run(SAMPLE_RES)}
    names = [m for m, (_, j) in README.items() if j is not None]
    a = cranfield.evaluate(qrels, run, [_condensed(m) for m in names]).values
    b = cranfield.evaluate(qrels, run, names, judged_only=True).values
    np.testing.assert_array_equal(a, b)


# ------------------------------------------------------------------ generated collections
def _collection(seed: int, queries: int = 12):
    """Random qrels (grades 0..3 with holes: some queries lack a level) and runs with unjudged
    documents, distinct scores (the ranking is the score order)."""
    rng = np.random.default_rng(seed)
    qrels, run = {}, {}
    for q in range(queries):
        n = int(rng.integers(1, 15))
        grades = rng.integers(0, 4, size=n)
        if q % 5 == 0:
            grades[grades == 2] = 3
        grades[rng.random(n) < 0.15] = -2  # negative grades: judged, but unjudged to measures
        grades[rng.random(n) < 0.1] = -1
        if grades.max() <= 0:  # (queries without relevant documents: tested on their own)
            grades[0] = int(rng.integers(1, 4))
        docs = {f"d{q}_{i}": int(g) for i, g in enumerate(grades)}
        qrels[f"q{q}"] = docs
        pool = list(docs) + [f"u{q}_{i}" for i in range(int(rng.integers(0, 6)))]
        chosen = rng.permutation(pool)[: int(rng.integers(1, len(pool) + 1))]
        run[f"q{q}"] = {str(d): float(len(chosen) - i) for i, d in enumerate(chosen)}
    return qrels, run


def _gains(rng) -> list[float]:
    """Ascending positive gains of levels 1..3, as NTCIREVAL requires for -g."""
    if rng.random() < 0.5:
        return [float(x) for x in sorted(rng.integers(1, 9, size=3))]
    return sorted(float(round(x, 3)) for x in rng.uniform(0.1, 5.0, size=3))


def _gains_text(gv: list[float]) -> str:
    return "{" + ",".join(f"{i + 1}:{g!r}" for i, g in enumerate(gv)) + "}"


def _ranked(qrels_q: dict, run_q: dict, condensed: bool) -> list[tuple[str, int | None]]:
    """(document, grade) in rank order; None for unjudged (not in the qrels, or a negative
    grade); the condensed list without them."""
    docs = sorted(run_q, key=lambda d: -run_q[d])
    out = [(d, g if (g := qrels_q.get(d)) is not None and g >= 0 else None) for d in docs]
    return [x for x in out if x[1] is not None] if condensed else out


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("condensed", [False, True])
def test_agrees_with_pyntcireval(seed, condensed):
    m = pytest.importorskip("pyNTCIREVAL.metrics")
    qrels, run = _collection(seed)
    rng = np.random.default_rng(100 + seed)
    gv = _gains(rng)
    beta = float(rng.choice([1.0, 0.5, 3.0]))
    gamma = float(rng.choice([0.95, 0.5]))
    k = int(rng.integers(1, 8))
    g, j = _gains_text(gv), ",judged_only=true" if condensed else ""
    ours = {
        f"Q(gains={g},beta={beta!r}{j})": lambda x: m.QMeasure(x, gv, beta),
        f"Q(gains={g},beta={beta!r}{j})@{k}": lambda x: m.QMeasure(x, gv, beta, k),
        f"O-measure(gains={g},beta={beta!r}{j})": lambda x: m.OMeasure(x, gv, beta),
        f"P-measure(gains={g},beta={beta!r}{j})": lambda x: m.PMeasure(x, gv, beta),
        f"P-plus(gains={g},beta={beta!r}{j})": lambda x: m.PPlusMeasure(x, gv, beta),
        f"nERR(gains={g}{j})@{k}": lambda x: m.nERR(x, gv, k),
        f"MSnDCG(gains={g}{j})@{k}": lambda x: m.MSnDCG(x, gv, k),
        f"NCU(gains={g},beta=0{j})": lambda x: m.NCUguP(x, gv, gv),
        f"NCU(gains={g},beta={beta!r}{j})": lambda x: m.NCUguBR(x, gv, gv, beta),
        f"NCU(stop=rb,gains={g},beta=0,gamma={gamma!r}{j})": lambda x: m.NCUrbP(x, gv, gamma),
        f"NCU(stop=rb,gains={g},beta={beta!r},gamma={gamma!r}{j})": lambda x: m.NCUrbBR(
            x, gv, gamma, beta
        ),
    }
    res = cranfield.evaluate(qrels, run, list(ours))
    for qi, q in enumerate(res.query_ids):
        xrelnum = [sum(1 for v in qrels[q].values() if v == lv) for lv in range(4)]
        ranked = _ranked(qrels[q], run[q], condensed)
        if not ranked:  # pyNTCIREVAL fails on an empty list: nothing retrieved scores 0
            assert (res.values[qi] == 0).all()
            continue
        for mi, make in enumerate(ours.values()):
            want = make(xrelnum).compute(ranked)
            assert res.values[qi, mi] == pytest.approx(want, rel=1e-12, abs=1e-15), (
                q,
                list(ours)[mi],
            )


# brute force from the definitions (Fractions where no logarithm is involved)
def _br(levels: list[int], gain, ideal: list, beta: Fraction, r: int) -> Fraction:
    count = sum(1 for lv in levels[:r] if lv >= 1)
    cg = sum((gain(lv) for lv in levels[:r] if lv >= 1), Fraction(0))
    icg = sum(ideal[:r], Fraction(0))
    return (count + beta * cg) / (r + beta * icg)


def _brute(name: str, levels: list[int], judged: list[int], gv, beta, gamma, k):
    """``name`` for one ranking (``levels``: grade per rank, 0 for unjudged/non-relevant)
    and the query's judged grades, from the definitions."""
    gain = {lv: Fraction(gv[lv - 1]) for lv in (1, 2, 3)}.get
    rel = [lv for lv in judged if lv >= 1]
    R = len(rel)
    ideal = sorted((gain(lv) for lv in rel), reverse=True)
    n = len(levels)
    ranks = [r for r in range(1, n + 1) if levels[r - 1] >= 1]
    top = max(Fraction(x) for x in gv)
    if name == "Q":
        kk = n if k is None else min(k, n)
        den = R if k is None else min(k, R)
        return sum((_br(levels, gain, ideal, beta, r) for r in ranks if r <= kk), Fraction(0)) / den
    if name in ("O", "P", "P+"):
        if not ranks:
            return Fraction(0)
        if name == "O":
            return _br(levels, gain, ideal, beta, ranks[0])
        best = max(levels[r - 1] for r in ranks)
        rp = next(r for r in ranks if levels[r - 1] == best)
        if name == "P":
            return _br(levels, gain, ideal, beta, rp)
        upto = [r for r in ranks if r <= rp]
        return sum(_br(levels, gain, ideal, beta, r) for r in upto) / len(upto)
    if name == "NCUgu":
        total = sum(_br(levels, gain, ideal, beta, r) * gain(levels[r - 1]) for r in ranks)
        return total / sum(ideal)
    if name == "NCUrb":
        g = Fraction(gamma)
        total = sum(_br(levels, gain, ideal, beta, r) * g ** (ranks.index(r)) for r in ranks)
        return total / sum(g**i for i in range(R))

    def err(gains_in_order, upto, util=None):
        total, reach = Fraction(0), Fraction(1)
        for r, x in enumerate(gains_in_order[:upto], start=1):
            p = x / (top + 1)
            total += reach * p * (Fraction(1, r) if util is None else util(r))
            reach *= 1 - p
        return total

    run_gains = [gain(lv) if lv >= 1 else Fraction(0) for lv in levels]
    kk = n if k is None else k
    if name == "nERR":
        return err(run_gains, kk) / err(ideal, R if k is None else k)
    if name == "EBR":
        return err(run_gains, kk, lambda r: _br(levels, gain, ideal, beta, r))
    if name == "MSnDCG":
        dcg = sum(float(x) / math.log(r + 1) for r, x in enumerate(run_gains[:kk], 1))
        whole = ideal if k is None else ideal[:k]
        idcg = sum(float(x) / math.log(r + 1) for r, x in enumerate(whole, 1))
        return dcg / idcg
    if name == "GAP":
        # Robertson et al.: a user with threshold j (probability in proportion to j) sees AP
        # over the documents of grade >= j; summed over users as pairs of documents
        w = [Fraction(j) for j in range(1, 4)]

        def c(a, b):
            return sum(w[: min(a, b)], Fraction(0))

        num = sum(
            Fraction(1, r) * sum(c(levels[r - 1], levels[m - 1]) for m in range(1, r + 1))
            for r in ranks
            if r <= kk
        )
        ig = sorted(rel, reverse=True)[: R if k is None else min(k, R)]
        return num / sum(c(lv, lv) for lv in ig)
    raise AssertionError(name)


BRUTE = {
    "Q": "Q(gains={g},beta={b}{j}){at}",
    "O": "O-measure(gains={g},beta={b}{j})",
    "P": "P-measure(gains={g},beta={b}{j})",
    "P+": "P-plus(gains={g},beta={b}{j})",
    "NCUgu": "NCU(gains={g},beta={b}{j})",
    "NCUrb": "NCU(stop=rb,gains={g},beta={b},gamma={c}{j})",
    "nERR": "nERR(gains={g}{j}){at}",
    "EBR": "EBR(gains={g},beta={b}{j}){at}",
    "MSnDCG": "MSnDCG(gains={g}{j}){at}",
    "GAP": "GAP(judged_only={jb}){at}",
}


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("condensed", [False, True])
@pytest.mark.parametrize("k", [None, 1, 3, 20])
def test_agrees_with_brute_force(seed, condensed, k):
    qrels, run = _collection(seed + 50)
    rng = np.random.default_rng(seed)
    gv = _gains(rng)
    beta, gamma = 0.5 * int(rng.integers(0, 5)), 0.75
    j = ",judged_only=true" if condensed else ""
    fmt = {
        "g": _gains_text(gv),
        "b": repr(beta),
        "c": repr(gamma),
        "j": j,
        "jb": "true" if condensed else "false",
        "at": "" if k is None else f"@{k}",
    }
    texts = {n: t.format(**fmt) for n, t in BRUTE.items() if k is None or "{at}" in t}
    res = cranfield.evaluate(qrels, run, list(texts.values()))
    for qi, q in enumerate(res.query_ids):
        levels = [lv or 0 for _, lv in _ranked(qrels[q], run[q], condensed)]
        judged = [g for g in qrels[q].values() if g >= 0]
        for mi, name in enumerate(texts):
            want = _brute(name, levels, judged, gv, Fraction(beta), Fraction(gamma), k)
            assert res.values[qi, mi] == pytest.approx(float(want), rel=1e-12, abs=1e-15), (
                q,
                name,
            )


def test_gap_worked_example():
    """Grades a=2, b=1, c=0; ranking b, c, a, u (u unjudged).  Thresholds weighted 1 and 2:
    b's pairs: (b,b) 1 -> 1/1; a's pairs: (a,b) 1, (a,c) 0, (a,a) 1+2 -> 4/3; ideal: a 3,
    b 1.  GAP = (1 + 4/3) / 4 = 7/12.  Condensed (u removed) is the same; GAP@1 = 1/3."""
    qrels = {"q": {"a": 2, "b": 1, "c": 0}}
    run = {"q": _run(["b", "c", "a", "u"])}
    res = cranfield.evaluate(qrels, run, ["GAP", "GAP(judged_only=true)", "GAP@1"])
    np.testing.assert_allclose(res.values[0], [7 / 12, 7 / 12, 1 / 3], rtol=1e-15)


@pytest.mark.parametrize("seed", range(4))
def test_gap_on_binary_judgments_is_ap(seed):
    qrels, run = _collection(seed + 70)
    binary = {q: {d: min(g, 1) for d, g in docs.items()} for q, docs in qrels.items()}
    res = cranfield.evaluate(binary, run, ["GAP", "AP"])
    np.testing.assert_allclose(res.values[:, 0], res.values[:, 1], rtol=1e-13)


def test_a_query_without_relevant_documents_is_declared_undefined():
    qrels = {"q1": {"a": 1, "b": 0}, "q2": {"c": 0}}
    run = {"q1": _run(["b", "a"]), "q2": _run(["c"])}
    names = ["Q", "nERR@10", "MSnDCG@10", "GAP", "O-measure", "P-measure", "P-plus", "NCU"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = cranfield.evaluate(qrels, run, names)
    assert res.values[1].tolist() == [0.0] * len(names)
    assert (res.values[0] > 0).all()
    undefined = [w for w in caught if issubclass(w.category, UndefinedMeasureWarning)]
    assert len(undefined) == len(names)


def test_gains_decide_relevance():
    """A positive gain for a negative (unjudged) grade is refused; a gain of 0 makes a grade
    non-relevant, a positive gain for grade 0 makes it relevant (as trec_eval's gains)."""
    with pytest.raises(MeasureError, match="grade -1"):
        cranfield.evaluate({"q": {"a": 1}}, {"q": {"a": 1.0}}, ["Q(gains={-1:1,1:2})"])
    with pytest.raises(MeasureError, match="gains"):
        parse("nERR(gains={1:-1})@10")
    qrels = {"q": {"a": 0, "b": 1, "c": 2}}
    run = {"q": _run(["a", "b", "u", "c"])}
    got = cranfield.evaluate(qrels, run, ["Q(gains={1:0})", "Q(gains={0:1})"]).values[0]
    # {1:0}: only c (gain 2, rank 4) is relevant, R = 1: BR(4) = (1 + 2) / (4 + 2)
    # {0:1}: a (1), b (1), c (2) relevant, ideal 2,1,1: BR(1) = 2/3, BR(2) = 4/5, BR(4) = 7/8
    np.testing.assert_allclose(got, [0.5, (2 / 3 + 4 / 5 + 7 / 8) / 3], rtol=1e-15)


def test_ntcireval_gain_strings_round_trip():
    text = "Q(gains={1:1,2:2,3:3},beta=0.5,judged_only=true)@1000"
    assert str(parse(text)) == text
