"""D-nDCG and D#-nDCG (cranfield.measures.ntcir_diversity) against a worked example and a
brute-force computation from Sakai & Song's definitions (SIGIR 2011, sec. 3) on generated
subtopic judgments."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import cranfield
from cranfield.errors import ParameterError, UndefinedMeasureWarning
from cranfield.io.subtopics import read_subtopics


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
