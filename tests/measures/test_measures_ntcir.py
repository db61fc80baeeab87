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

import itertools
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


# what ntcir_eval 190111 (built from its C source) prints for the same sample with -gap and
# -rbup 0.9 (measures the README's older version did not print): plain, and with label -j
SAMPLE_MORE = {
    "GAP": ("0.1452", "0.1613"),
    f"EBR({G})": ("0.4333", "0.4479"),
    f"EBR({G})@2": ("0.3750", "0.3750"),
    f"iRBU(p=0.9,{G})@2": ("0.6075", "0.6075"),
    f"iRBU(p=0.9,{G})@1000": ("0.6895", "0.6986"),
}


def test_ntcireval_sample_gap_ebr_irbu():
    qrels, run = {"t": SAMPLE_REL}, {"t": _run(SAMPLE_RES)}
    plain = cranfield.evaluate(qrels, run, list(SAMPLE_MORE)).values[0]
    assert [f"{v:.4f}" for v in plain] == [v for v, _ in SAMPLE_MORE.values()]
    names = [m for m, (_, j) in SAMPLE_MORE.items() if j is not None]
    cond = cranfield.evaluate(qrels, run, names, judged_only=True).values[0]
    assert [f"{v:.4f}" for v in cond] == [SAMPLE_MORE[m][1] for m in names]


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
    if name == "iRBU":
        return err(run_gains, kk, lambda r: Fraction(0.9) ** r)
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
    "iRBU": "iRBU(p=0.9,gains={g}{j}){at}",
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


# ------------------------------------------------------------------ NTCIREVAL itself
# Six queries generated once (unjudged documents u*), and what ntcir_eval (NTCIREVAL 190111,
# built from its C source, not kept here) printed for them: 'label [-j] -r REL' then
# 'compute -r REL -g G -beta B -gamma C -gap -rbup P -cutoffs 3,10', per query.
NTCIR_QRELS = {
    "t0": {"d000": 0, "d001": 1, "d002": 3, "d003": 0, "d004": 0, "d005": 2, "d006": 0, "d007": 1},
    "t1": {
        "d100": 0,
        "d101": 2,
        "d102": 2,
        "d103": 1,
        "d104": 0,
        "d105": 0,
        "d106": 0,
        "d107": 2,
        "d108": 0,
        "d109": 1,
        "d110": 1,
        "d111": 0,
    },
    "t2": {
        "d200": 2,
        "d201": 1,
        "d202": 1,
        "d203": 1,
        "d204": 0,
        "d205": 0,
        "d206": 3,
        "d207": 0,
        "d208": 0,
        "d209": 2,
    },
    "t3": {"d300": 3, "d301": 0, "d302": 2},
    "t4": {"d400": 1, "d401": 1, "d402": 3, "d403": 3},
    "t5": {"d500": 1, "d501": 1, "d502": 0},
}
NTCIR_RUNS = {
    "t0": ["d005", "d002", "d004", "u03", "d007", "u01", "u02", "u04", "d006", "d001"],
    "t1": [
        "u10",
        "d102",
        "d111",
        "d107",
        "d106",
        "d100",
        "d104",
        "d108",
        "u12",
        "u13",
        "u15",
        "d110",
        "u11",
        "u14",
    ],
    "t2": [
        "u21",
        "d206",
        "d200",
        "d202",
        "u20",
        "d203",
        "d209",
        "u23",
        "d201",
        "d204",
        "u22",
        "d205",
        "d207",
    ],
    "t3": ["d300", "d301", "u33", "u30"],
    "t4": ["u41", "u40", "d401", "d403", "d402"],
    "t5": ["u50", "u53", "u51", "u52", "d502", "u55", "d500"],
}
NTCIR_PRINTED = (
    "Q-measure O-measure P-measure P-plus NCUgu,P NCUgu,BR NCUrb,P NCUrb,BR GAP EBR "
    + " ".join(
        f"{m}@{k:04d}" for k in (3, 10) for m in ("Q", "nERR", "MSnDCG", "GAP", "EBR", "iRBU")
    )
).split()
NTCIR_OUTPUT = {
    ("1:2:3", "1", "0.95", "0.9", False): (
        (
            "0.7868 0.7500 1.0000 0.8750 0.8571 0.8424 0.7640 0.7902 0.7727 0.7886",
            "0.5833 0.8354 0.8175 0.7500 0.7500 0.7538 0.7868 0.8399 0.8799 0.7727 0.7886 0.7804",
        ),
        (
            "0.2377 0.5000 0.5000 0.5000 0.2500 0.2747 0.2266 0.2571 0.2708 0.4102",
            "0.1667 0.3750 0.2961 0.1667 0.2500 0.4050 0.1742 0.4581 0.3906 0.2500 0.3864 0.5690",
        ),
        (
            "0.7291 0.5714 0.5714 0.5714 0.6345 0.7041 0.6567 0.7220 0.5770 0.5920",
            "0.4238 0.5000 0.5498 0.4167 0.5161 0.6986 0.7291 0.5165 0.7221 0.5770 0.5920 0.7518",
        ),
        (
            "0.5000 1.0000 1.0000 1.0000 0.6000 0.6000 0.5128 0.5128 0.6667 0.7500",
            "0.5000 0.9231 0.7039 0.6667 0.7500 0.6750 0.5000 0.9231 0.7039 0.6667 0.7500 0.6750",
        ),
        (
            "0.3673 0.2000 0.5000 0.3500 0.4542 0.5010 0.3638 0.3691 0.3345 0.4394",
            "0.0667 0.0982 0.0927 0.0256 0.0500 0.1823 0.3673 0.2959 0.5070 0.3345 0.4394 0.6343",
        ),
        (
            "0.1111 0.2222 0.2222 0.2222 0.0714 0.1111 0.0733 0.1140 0.0714 0.0556",
            "0.0000 0.0000 0.0000 0.0000 0.0000 0.0000 0.1111 0.1039 0.2044 0.0714 0.0556 0.1196",
        ),
    ),
    ("1:2:3", "1", "0.95", "0.9", True): (
        (
            "0.8536 0.7500 1.0000 0.8750 0.9167 0.8806 0.8621 0.8528 0.8106 0.7954",
            "0.5833 0.8354 0.8175 0.7500 0.7500 0.7538 0.8536 0.8437 0.9012 0.8106 0.7954 0.7867",
        ),
        (
            "0.3562 1.0000 1.0000 1.0000 0.4120 0.4227 0.3722 0.3884 0.4479 0.6961",
            "0.5556 0.8750 0.7039 0.5556 0.6667 0.6322 0.3562 0.8667 0.6100 0.4479 0.6961 0.6592",
        ),
        (
            "0.9694 1.0000 1.0000 1.0000 1.0000 0.9817 1.0000 0.9695 0.9467 0.9686",
            "0.9667 0.9875 0.9050 0.8333 0.9031 0.7990 0.9694 0.9955 0.9824 0.9467 0.9686 0.8398",
        ),
        (
            "0.5000 1.0000 1.0000 1.0000 0.6000 0.6000 0.5128 0.5128 0.6667 0.7500",
            "0.5000 0.9231 0.7039 0.6667 0.7500 0.6750 0.5000 0.9231 0.7039 0.6667 0.7500 0.6750",
        ),
        (
            "0.5625 0.5000 0.7500 0.6250 0.8750 0.7188 0.7689 0.5701 0.6310 0.6875",
            "0.7500 0.6810 0.8146 0.6795 0.6875 0.7831 0.5625 0.6786 0.7543 0.6310 0.6875 0.7831",
        ),
        (
            "0.2500 0.5000 0.5000 0.5000 0.2500 0.2500 0.2564 0.2564 0.2500 0.1250",
            "0.2500 0.3636 0.3869 0.2500 0.1250 0.2025 0.2500 0.3636 0.3869 0.2500 0.1250 0.2025",
        ),
    ),
    ("0.5:2:6.25", "3", "0.5", "0.99", False): (
        (
            "0.7722 0.3544 1.0000 0.6772 0.9459 0.8460 0.9067 0.6309 0.7727 0.7336",
            "0.4515 0.6656 0.7657 0.7500 0.7220 0.8849 0.7722 0.6667 0.7874 0.7727 0.7336 0.8973",
        ),
        (
            "0.2623 0.5000 0.5000 0.5000 0.2833 0.3241 0.4127 0.4660 0.2708 0.2742",
            "0.1667 0.3253 0.2961 0.1667 0.1379 0.2704 0.1826 0.4278 0.4379 0.2500 0.2569 0.4623",
        ),
        (
            "0.8261 0.7383 0.7383 0.7383 0.5897 0.7905 0.5941 0.7716 0.5770 0.7031",
            "0.5103 0.4984 0.5808 0.4167 0.6666 0.8818 0.8261 0.5043 0.6764 0.5770 0.7031 0.9207",
        ),
        (
            "0.5000 1.0000 1.0000 1.0000 0.7576 0.7576 0.6667 0.6667 0.6667 0.8621",
            "0.5000 0.9784 0.8320 0.6667 0.8621 0.8534 0.5000 0.9784 0.8320 0.6667 0.8621 0.8534",
        ),
        (
            "0.3707 0.0595 0.5000 0.2798 0.5216 0.6610 0.3911 0.2882 0.3345 0.5076",
            "0.0198 0.0249 0.0239 0.0256 0.0041 0.0669 0.3707 0.2665 0.5028 0.3345 0.5076 0.9432",
        ),
        (
            "0.1250 0.2500 0.2500 0.2500 0.0714 0.1250 0.0952 0.1667 0.0714 0.0172",
            "0.0000 0.0000 0.0000 0.0000 0.0000 0.0000 0.1250 0.0975 0.2044 0.0714 0.0172 0.0643",
        ),
    ),
    ("0.5:2:6.25", "3", "0.5", "0.99", True): (
        (
            "0.8041 0.3544 1.0000 0.6772 0.9685 0.8530 0.9444 0.6412 0.8106 0.7344",
            "0.4515 0.6656 0.7657 0.7500 0.7220 0.8849 0.8041 0.6676 0.7944 0.8106 0.7344 0.8976",
        ),
        (
            "0.3679 1.0000 1.0000 1.0000 0.4694 0.4805 0.7249 0.7459 0.4479 0.4286",
            "0.5556 0.8077 0.7039 0.5556 0.4090 0.4669 0.3679 0.7901 0.6512 0.4479 0.4286 0.5003",
        ),
        (
            "0.9571 1.0000 1.0000 1.0000 1.0000 0.9890 1.0000 0.9752 0.9467 0.9399",
            "0.9556 0.9923 0.9119 0.8333 0.9061 0.8974 0.9571 0.9970 0.9813 0.9467 0.9399 0.9304",
        ),
        (
            "0.5000 1.0000 1.0000 1.0000 0.7576 0.7576 0.6667 0.6667 0.6667 0.8621",
            "0.5000 0.9784 0.8320 0.6667 0.8621 0.8534 0.5000 0.9784 0.8320 0.6667 0.8621 0.8534",
        ),
        (
            "0.4225 0.1266 0.5633 0.3449 0.9630 0.7284 0.9333 0.3511 0.6310 0.5715",
            "0.5633 0.5501 0.7247 0.6795 0.5715 0.9623 0.4225 0.5499 0.7101 0.6310 0.5715 0.9623",
        ),
        (
            "0.2500 0.5000 0.5000 0.5000 0.2500 0.2500 0.3333 0.3333 0.2500 0.0345",
            "0.2500 0.3412 0.3869 0.2500 0.0345 0.0676 0.2500 0.3412 0.3869 0.2500 0.0345 0.0676",
        ),
    ),
}


def _ntcir_strings(g: str, beta: str, gamma: str, p: str, j: bool) -> list[str]:
    gains = "{" + ",".join(f"{i}:{v}" for i, v in enumerate(g.split(":"), 1)) + "}"
    c = ",judged_only=true" if j else ""
    br, pr = f"gains={gains},beta={beta}{c}", f"gains={gains},beta=0{c}"
    at = [
        f"{m}@{k}"
        for k in (3, 10)
        for m in (
            f"Q({br})",
            f"nERR(gains={gains}{c})",
            f"MSnDCG(gains={gains}{c})",
            f"GAP(judged_only={str(j).lower()})",
            f"EBR({br})",
            f"iRBU(p={p},gains={gains}{c})",
        )
    ]
    return [
        f"Q({br})",
        f"O-measure({br})",
        f"P-measure({br})",
        f"P-plus({br})",
        f"NCU({pr})",
        f"NCU({br})",
        f"NCU(stop=rb,{pr},gamma={gamma})",
        f"NCU(stop=rb,{br},gamma={gamma})",
        f"GAP(judged_only={str(j).lower()})",
        f"EBR({br})",
        *at,
    ]


@pytest.mark.parametrize("config", list(NTCIR_OUTPUT))
def test_agrees_with_ntcireval(config):
    names = _ntcir_strings(*config)
    assert len(names) == len(NTCIR_PRINTED)
    runs = {q: _run(docs) for q, docs in NTCIR_RUNS.items()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMeasureWarning)
        res = cranfield.evaluate(NTCIR_QRELS, runs, names)
    assert res.query_ids == tuple(NTCIR_RUNS)
    for q, halves, values in zip(res.query_ids, NTCIR_OUTPUT[config], res.values, strict=True):
        printed = " ".join(halves)
        got = [f"{v:.4f}" for v in values]
        assert got == printed.split(), (
            q,
            [
                (n, a, b)
                for n, a, b in zip(NTCIR_PRINTED, got, printed.split(), strict=True)
                if a != b
            ],
        )


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("condensed", [False, True])
def test_msndcg_under_weak_ties_is_the_mean_over_orders(seed, condensed):
    """--ties weak: MSnDCG is the mean over every order of the tied documents (enumerated),
    the condensed list's too (a tie group loses its unjudged documents)."""
    rng = np.random.default_rng(seed)
    docs = [f"d{i}" for i in range(int(rng.integers(2, 8)))]
    grades = {d: int(rng.integers(-1, 4)) for d in docs}  # -1: not in the qrels
    qrels = {"q": {d: g for d, g in grades.items() if g >= 0} | {"x": 2}}
    scores = {d: float(rng.integers(0, 3)) for d in docs}
    k = int(rng.integers(1, 6))
    j = ",judged_only=true" if condensed else ""
    names = [f"MSnDCG(gains={{1:1,2:3,3:4}}{j})@{k}", f"MSnDCG(gains={{1:1,2:3,3:4}}{j})"]
    res = cranfield.evaluate(qrels, {"q": scores}, names, ties="weak")
    gain = {0: 0, 1: 1, 2: 3, 3: 4}
    levels = [
        [d for d in docs if scores[d] == s] for s in sorted(set(scores.values()), reverse=True)
    ]
    ideal = sorted((gain[g] for g in qrels["q"].values() if g > 0), reverse=True)
    for cut, got in zip((k, None), res.values[0], strict=True):
        total, count = 0.0, 0
        for parts in itertools.product(*(itertools.permutations(lv) for lv in levels)):
            order = [d for part in parts for d in part]
            if condensed:
                order = [d for d in order if grades[d] >= 0]
            g = [gain[max(grades[d], 0)] for d in order][:cut]
            total += sum(x / math.log(r + 1) for r, x in enumerate(g, 1))
            count += 1
        idcg = sum(x / math.log(r + 1) for r, x in enumerate(ideal[:cut], 1))
        assert got == pytest.approx(total / count / idcg, rel=1e-12), (cut, levels)
