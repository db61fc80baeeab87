"""D-nDCG, D#-nDCG, D-Q and D#-Q (cranfield.measures.ntcir_diversity) against a worked example,
NTCIREVAL's own output on generated topics, and a brute-force computation from Sakai & Song's
definitions (SIGIR 2011) on generated subtopic judgments."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import cranfield
from cranfield.errors import ParameterError, UndefinedMeasureWarning
from cranfield.io.trec.subtopics import read_subtopics


def _subtopics(tmp_path, judgments: dict[str, dict[str, dict[str, int]]]):
    """judgments: topic -> document -> subtopic -> grade, written as ndeval's qrels."""
    lines = [
        f"{t} {s} {d} {g}\n"
        for t, docs in judgments.items()
        for d, subs in docs.items()
        for s, g in subs.items()
    ]
    path = tmp_path / "subtopics"
    path.write_text("".join(lines))
    return read_subtopics(path)


def _qrels(judgments):
    return {t: {d: max(s.values()) for d, s in docs.items()} for t, docs in judgments.items()}


def _run(docs: list[str]) -> dict[str, float]:
    return {d: float(len(docs) - i) for i, d in enumerate(docs)}


def test_worked_example(tmp_path):
    """Intents s1, s2 (S = 2, P = 1/2 each); a: s1 2, s2 1 -> GG 1.5; b: s1 1 -> 0.5;
    c: s2 2 -> 1.0; d: s1 0 -> 0.  Ranking c, d, u (unjudged), a, b.
    D-nDCG@3 = (1/ln 2) / (1.5/ln 2 + 1/ln 3 + 0.5/ln 4); I-rec@3 = 1/2 (c covers s2).
    Condensed (u removed): c, d, a: DCG = 1/ln 2 + 1.5/ln 4, I-rec@3 = 1.
    D-Q@3 = BR(1) / R = ((1 + 1.0) / (1 + 1.5)) / 3."""
    judgments = {"q": {"a": {"s1": 2, "s2": 1}, "b": {"s1": 1}, "c": {"s2": 2}, "d": {"s1": 0}}}
    sub = _subtopics(tmp_path, judgments)
    run = {"q": _run(["c", "d", "u", "a", "b"])}
    names = [
        "D-nDCG@3",
        "Dsharp-nDCG@3",
        "D-nDCG(judged_only=true)@3",
        "Dsharp-nDCG(judged_only=true)@3",
        "Dsharp-nDCG(gamma=1)@1",
        "D-Q@3",
        "Dsharp-Q@3",
    ]
    got = cranfield.evaluate(_qrels(judgments), run, names, subtopics=sub).values[0]
    ideal = 1.5 / math.log(2) + 1 / math.log(3) + 0.5 / math.log(4)
    plain = (1 / math.log(2)) / ideal
    condensed = (1 / math.log(2) + 1.5 / math.log(4)) / ideal
    # D-Q@3: only c (rank 1) has GG > 0 in the top 3: BR(1) = (1 + 1.0) / (1 + 1.5); R = 3
    dq = 0.8 / 3
    want = [plain, 0.5 * 0.5 + 0.5 * plain, condensed, 0.5 + 0.5 * condensed, 0.5]
    want += [dq, 0.5 * 0.5 + 0.5 * dq]
    np.testing.assert_allclose(got, want, rtol=1e-14)


def _generated(seed: int):
    rng = np.random.default_rng(seed)
    judgments, runs = {}, {}
    for t in range(8):
        subs = [f"s{j}" for j in range(int(rng.integers(1, 5)))]
        docs = {}
        for i in range(int(rng.integers(1, 12))):
            chosen = [s for s in subs if rng.random() < 0.5] or [subs[0]]
            docs[f"d{t}_{i}"] = {s: int(rng.integers(-1, 4)) for s in chosen}
        judgments[f"t{t}"] = docs
        pool = list(docs) + [f"u{t}_{i}" for i in range(int(rng.integers(0, 5)))]
        chosen = [str(d) for d in rng.permutation(pool)[: int(rng.integers(1, len(pool) + 1))]]
        runs[f"t{t}"] = chosen
    return judgments, runs


def _brute(docs: dict, ranking: list[str], k: int, rel: int, gains: dict, gamma, condensed):
    """(D-nDCG@k, D#-nDCG@k, D-Q@k, D#-Q@k, beta 2) of one query from the definitions."""
    intents = sorted({s for subs in docs.values() for s, g in subs.items() if g >= rel})
    if not intents:
        return 0.0, 0.0, 0.0, 0.0
    p = 1 / len(intents)

    def gg(d):
        subs = docs.get(d, {})
        return sum(p * gains.get(g, g) for s, g in subs.items() if g >= rel)

    if condensed:
        ranking = [d for d in ranking if d in docs]
    top = ranking[:k]
    dcg = sum(gg(d) / math.log(r + 1) for r, d in enumerate(top, 1))
    ideal = sorted((gg(d) for d in docs), reverse=True)[:k]
    idcg = sum(g / math.log(r + 1) for r, g in enumerate(ideal, 1))
    covered = {s for d in top for s, g in docs.get(d, {}).items() if g >= rel}
    d_ndcg = dcg / idcg if idcg > 0 else 0.0
    irec = len(covered) / len(intents)
    # D-Q@k: Q over global gains, beta = 2
    whole = sorted((gg(d) for d in docs if gg(d) > 0), reverse=True)
    R, beta, total = len(whole), 2.0, 0.0
    for r in range(1, len(top) + 1):
        if gg(top[r - 1]) > 0:
            count = sum(1 for d in top[:r] if gg(d) > 0)
            total += (count + beta * sum(gg(d) for d in top[:r])) / (r + beta * sum(whole[:r]))
    d_q = total / min(k, R) if R else 0.0
    return d_ndcg, gamma * irec + (1 - gamma) * d_ndcg, d_q, gamma * irec + (1 - gamma) * d_q


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("condensed", [False, True])
@pytest.mark.parametrize(
    ("k", "rel", "gains"), [(1, 1, {}), (5, 1, {1: 1, 2: 3, 3: 7}), (20, 2, {})]
)
def test_agrees_with_brute_force(tmp_path, seed, condensed, k, rel, gains):
    judgments, ranking = _generated(seed)
    sub = _subtopics(tmp_path, judgments)
    g = ("gains={" + ",".join(f"{a}:{b}" for a, b in gains.items()) + "},") if gains else ""
    j = "true" if condensed else "false"
    names = [f"D-nDCG({g}rel={rel},judged_only={j})@{k}"]
    names.append(f"Dsharp-nDCG(gamma=0.25,{g}rel={rel},judged_only={j})@{k}")
    names.append(f"D-Q({g}rel={rel},beta=2,judged_only={j})@{k}")
    names.append(f"Dsharp-Q(gamma=0.25,{g}rel={rel},beta=2,judged_only={j})@{k}")
    runs = {t: _run(docs) for t, docs in ranking.items()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMeasureWarning)
        res = cranfield.evaluate(_qrels(judgments), runs, names, subtopics=sub)
    for qi, t in enumerate(res.query_ids):
        want = _brute(judgments[t], ranking[t], k, rel, gains, 0.25, condensed)
        np.testing.assert_allclose(res.values[qi], want, rtol=1e-12, atol=1e-15, err_msg=t)


def test_subtopics_are_required():
    with pytest.raises(ParameterError, match="subtopic"):
        cranfield.evaluate({"q": {"a": 1}}, {"q": {"a": 1.0}}, ["D-nDCG@10"])


# Six topics generated once (intents i0.., each with a relevant document; 1, 2, 4 or 5 of them,
# so that the global gains are exact in the four decimals NTCIREVAL writes between its
# programs) and what NTCIREVAL 190111's programs (built from its C source, not kept here)
# printed: 'glabel [-j] -I G' then 'gcompute -I G -cutoffs k' (MSnDCG@k, Q@k of the global
# gains: D-nDCG, D-Q) and 'irec -cutoffs k' on the (condensed) ranking (I-rec@k), k = 3, 10;
# G lists every judged document with its global gain, one Irelv file per intent.
NTCIR_JUDGMENTS = {
    "t0": {
        "d000": {"i2": 3, "i4": 2},
        "d001": {"i2": 0, "i3": 3, "i4": 2},
        "d002": {"i3": 3, "i4": 0},
        "d003": {"i0": 2, "i1": 3, "i2": 1, "i3": 3, "i4": 1},
        "d004": {"i1": 3, "i3": 0, "i4": 1},
        "d005": {"i0": 2, "i1": 0, "i2": 1, "i3": 2},
        "d006": {"i0": 0, "i1": 2, "i3": 2},
        "d007": {"i1": 1, "i2": 1},
        "d008": {"i0": 1, "i1": 0, "i4": 0},
    },
    "t1": {
        "d100": {"i1": 2},
        "d101": {"i1": 3},
        "d102": {"i0": 1},
        "d103": {"i0": 3},
        "d104": {"i1": 1},
        "d105": {"i0": 3, "i1": 1},
        "d106": {"i1": 0},
        "d107": {"i0": 1},
    },
    "t2": {"d200": {"i0": 3, "i1": 1}, "d201": {"i1": 3}, "d202": {"i0": 2}, "d203": {"i1": 0}},
    "t3": {
        "d300": {"i0": 2, "i4": 3},
        "d301": {"i2": 0, "i3": 0},
        "d302": {"i0": 3, "i1": 1, "i2": 0, "i3": 1, "i4": 1},
        "d303": {"i1": 3},
        "d304": {"i0": 0, "i1": 3},
        "d305": {"i1": 0, "i3": 2},
        "d306": {"i2": 1},
        "d307": {"i0": 0, "i1": 2, "i2": 3},
        "d308": {"i0": 0, "i2": 0, "i3": 1, "i4": 2},
    },
    "t4": {"d400": {"i0": 2}, "d401": {"i0": 1}, "d402": {"i0": 1}, "d403": {"i0": 3}},
    "t5": {
        "d500": {"i0": 2, "i1": 1},
        "d501": {"i1": 3},
        "d502": {"i1": 1},
        "d503": {"i0": 0},
        "d504": {"i1": 1},
        "d505": {"i0": 1, "i1": 2},
        "d506": {"i0": 1},
    },
}
NTCIR_RUNS = {
    "t0": ["d006", "d000", "d008", "d003", "d001", "d004", "d005", "d002", "u00", "d007"],
    "t1": ["d106", "d100", "d102", "d107", "d101", "d103", "d104"],
    "t2": ["d203", "d201", "u20", "d202"],
    "t3": ["d302", "d303", "d301", "d305", "d300", "d304", "u32", "d308", "u31"],
    "t4": ["d400", "u41", "d403", "d402", "d401", "u40"],
    "t5": ["u53", "u52", "d503", "d502", "u51", "u54", "d506", "d504"],
}
NTCIR_PRINTED = {
    False: (
        "0.4890 0.6914 1.0000 0.8151 0.8587 1.0000",
        "0.2383 0.2670 1.0000 0.5096 0.5022 1.0000",
        "0.2746 0.1515 0.5000 0.3996 0.3280 1.0000",
        "0.6772 0.6349 0.8000 0.7862 0.6128 0.8000",
        "0.7350 0.5093 1.0000 0.8315 0.8157 1.0000",
        "0.0000 0.0000 0.0000 0.1427 0.1198 1.0000",
    ),
    True: (
        "0.4890 0.6914 1.0000 0.8161 0.8650 1.0000",
        "0.2383 0.2670 1.0000 0.5096 0.5022 1.0000",
        "0.4197 0.3515 1.0000 0.4197 0.3515 1.0000",
        "0.6772 0.6349 0.8000 0.7895 0.6220 0.8000",
        "0.9225 0.9167 1.0000 0.9289 0.9375 1.0000",
        "0.1769 0.2333 1.0000 0.2064 0.2000 1.0000",
    ),
}


@pytest.mark.parametrize("condensed", [False, True])
def test_agrees_with_ntcireval(tmp_path, condensed):
    sub = _subtopics(tmp_path, NTCIR_JUDGMENTS)
    j = str(condensed).lower()
    # D-nDCG, D-Q and I-rec (D#-nDCG with gamma = 1) at 3, then at 10
    names = [
        f"{m}{j})@{k}"
        for k in (3, 10)
        for m in ("D-nDCG(judged_only=", "D-Q(judged_only=", "Dsharp-nDCG(gamma=1,judged_only=")
    ]
    runs = {t: _run(docs) for t, docs in NTCIR_RUNS.items()}
    res = cranfield.evaluate(_qrels(NTCIR_JUDGMENTS), runs, names, subtopics=sub)
    assert res.query_ids == tuple(NTCIR_RUNS)
    for t, printed, values in zip(res.query_ids, NTCIR_PRINTED[condensed], res.values, strict=True):
        assert [f"{v:.4f}" for v in values] == printed.split(), t
    sharp = [f"Dsharp-{m}(judged_only={j})@{k}" for k in (3, 10) for m in ("nDCG", "Q")]
    both = cranfield.evaluate(_qrels(NTCIR_JUDGMENTS), runs, sharp, subtopics=sub).values
    got = res.values
    want = np.stack([0.5 * got[:, i + 2] + 0.5 * got[:, i + d] for i in (0, 3) for d in (0, 1)], 1)
    np.testing.assert_allclose(both, want, rtol=1e-15)


def test_rbu_worked_example(tmp_path):
    """The worked example's judgments, p = 0.5, e = 0: intent s1 (top grade 2): a at rank 4
    R = 3/4, b at 5 R = 1/4 behind a; s2: c at 1 R = 3/4, a at 4 R = 1/4 behind c.
    RBU = (1 - p) (1/2) [(p^3 3/4 + p^4 1/4 1/4) + (3/4 + p^3 1/4 1/4)] = 0.2138671875.
    Defaults (p 0.8, e 0.03) at k = 2: (0.2)(1/2)(3/4) - 0.03 (0.2)(1 + 0.8) = 0.0642."""
    judgments = {"q": {"a": {"s1": 2, "s2": 1}, "b": {"s1": 1}, "c": {"s2": 2}, "d": {"s1": 0}}}
    sub = _subtopics(tmp_path, judgments)
    run = {"q": _run(["c", "d", "u", "a", "b"])}
    got = cranfield.evaluate(
        _qrels(judgments), run, ["RBU(p=0.5,e=0)", "RBU@2"], subtopics=sub
    ).values[0]
    np.testing.assert_allclose(got, [0.2138671875, 0.0642], rtol=1e-14)


# Six topics generated once, and the RBU that the authors' implementation (rmit-ir/RBU's
# rbu-0.1 jar, run outside the repository) printed for them: a gold file of (topic, document,
# grade, aspect, weight 1/S) rows and the ranking (for the condensed list, without the
# documents absent from the gold), 'java -jar rbu.jar P E gold run'.
RBU_JUDGMENTS = {
    "t0": {
        "d00": {"a0": 4},
        "d01": {"a1": 1, "a2": 4},
        "d02": {"a0": 1, "a1": 2, "a2": 3},
        "d03": {"a0": 2, "a1": 1},
        "d04": {"a0": 0, "a2": 1},
        "d05": {"a1": 0, "a2": 1},
        "d06": {"a2": 1},
        "d07": {"a0": 4},
    },
    "t1": {
        "d10": {"a0": 3},
        "d11": {"a0": 0},
        "d12": {"a0": 1},
        "d13": {"a0": 1},
        "d14": {"a0": 2},
        "d15": {"a0": 1},
    },
    "t2": {
        "d20": {"a1": 1},
        "d21": {"a0": 3, "a1": 1, "a3": 3},
        "d22": {"a0": 1, "a1": 1},
        "d23": {"a0": 3, "a2": 1, "a3": 1},
        "d24": {"a0": 1, "a3": 1},
        "d25": {"a0": 2, "a1": 1, "a2": 4},
        "d26": {"a0": 1, "a3": 4},
        "d27": {"a2": 0, "a3": 4},
    },
    "t3": {
        "d30": {"a0": 2, "a1": 1},
        "d31": {"a0": 3},
        "d32": {"a1": 2},
        "d33": {"a1": 1},
        "d34": {"a0": 1, "a1": 0},
        "d35": {"a0": 1},
        "d36": {"a1": 1},
        "d37": {"a0": 3, "a1": 3},
    },
    "t4": {"d40": {"a0": 1}, "d41": {"a1": 3}},
    "t5": {
        "d50": {"a0": 1, "a2": 1},
        "d51": {"a2": 1},
        "d52": {"a1": 4},
        "d53": {"a1": 3},
        "d54": {"a2": 3},
        "d55": {"a0": 1},
        "d56": {"a0": 1, "a1": 4},
        "d57": {"a0": 1},
        "d58": {"a0": 1, "a2": 2},
    },
}
RBU_RUNS = {
    "t0": ["d01", "d04", "d05", "u00", "d07", "d00", "u01"],
    "t1": ["d14", "d11", "u10", "d10", "d13"],
    "t2": ["d20", "d23", "d22", "d24"],
    "t3": ["u30", "u31", "u32", "d33", "d36", "d37", "d32"],
    "t4": ["d40", "d41", "u41", "u42", "u40"],
    "t5": ["d51", "d55", "u51", "u50", "d54", "d53"],
}
RBU_PRINTED = {
    ("0.8", "0.03", False): "0.0827 0.1116 0.0576 0.0387 0.0998 0.0433",
    ("0.8", "0.03", True): "0.0930 0.1283 0.0576 0.1043 0.1092 0.0649",
    ("0.95", "0.1", False): "0.0032 0.0200 0.0033 0.0053 0.0107 -0.0005",
    ("0.95", "0.1", True): "0.0115 0.0253 0.0033 0.0228 0.0235 0.0092",
}


@pytest.mark.parametrize("config", list(RBU_PRINTED))
def test_rbu_agrees_with_the_authors_implementation(tmp_path, config):
    p, e, condensed = config
    sub = _subtopics(tmp_path, RBU_JUDGMENTS)
    runs = {t: _run(docs) for t, docs in RBU_RUNS.items()}
    name = f"RBU(p={p},e={e},judged_only={str(condensed).lower()})"
    res = cranfield.evaluate(_qrels(RBU_JUDGMENTS), runs, [name], subtopics=sub)
    assert res.query_ids == tuple(RBU_RUNS)
    got = [f"{v:.4f}" for v in res.values[:, 0]]
    assert got == RBU_PRINTED[config].split()
