"""Curves against the worked examples of the source texts: Baeza-Yates & Ribeiro-Neto (1999),
Keen (ISR-13), Raghavan, Jung & Bollmann (1989) and Chen's slides.

Each expected value is typed from the source (table, example or text) or, where the source
gives the rule and the ranks but prints no number (Keen's figures are drawings), computed by
hand from that rule; the comment says which.
"""

from __future__ import annotations

import warnings
from fractions import Fraction as F

import numpy as np
import pytest

from cranfield.curves import area, fallout, gain, precision_recall
from cranfield.curves.steps import Steps

# Baeza-Yates & Ribeiro-Neto (1999) sec. 3.2.1: the 15-document ranking for query q
# (d129 at rank 8: "the second relevant document is d129 ... precision equal to 25%")
RANKING = [
    "d123",
    "d84",
    "d56",
    "d6",
    "d8",
    "d9",
    "d511",
    "d129",
    "d187",
    "d25",
    "d38",
    "d48",
    "d250",
    "d113",
    "d3",
]
RQ_32 = ["d3", "d5", "d9", "d25", "d39", "d44", "d56", "d71", "d89", "d123"]  # eq. 3.1, example 3.2
RQ_33 = ["d3", "d56", "d129"]  # eq. 3.3, example 3.3


def ranked(docs, qid="q"):
    return {qid: {d: float(100 - i) for i, d in enumerate(docs)}}


def from_ranks(queries: dict[str, tuple[list[int], int, int]]):
    """qrels and run from (ranks of relevant documents, R, number ranked) per query."""
    qrels, run = {}, {}
    for q, (ranks, R, n) in queries.items():
        docs = [f"{q}-r{k}" if k in ranks else f"{q}-n{k}" for k in range(1, n + 1)]
        run[q] = {d: float(n - i) for i, d in enumerate(docs)}
        rel = {d: 1 for d in docs if "-r" in d}
        rel.update({f"{q}-u{j}": 1 for j in range(R - len(ranks))})
        rel.update({d: 0 for d in docs if "-n" in d})
        qrels[q] = rel
    return qrels, run


def nums(text: str) -> list[float]:
    """A vector typed from a source, as written there."""
    return [float(x) for x in text.split()]


def values(df):
    return [round(v, 4) for v in df["value"]]


# ------------------------------------------------------ Baeza-Yates & Ribeiro-Neto
def test_baeza_yates_example_3_2_precision_at_each_relevant_and_the_11_point_curve():
    # "The precision figures after each new relevant document is observed are 1, 0.66, 0.5,
    # 0.4, and 0.3"; "precision at levels of recall higher than 50% drops to 0".
    qrels = {"q": {d: 1 for d in RQ_32}}
    df = precision_recall(qrels, ranked(RANKING), interpolation="max")
    assert values(df) == nums("1.0 1.0 0.6667 0.5 0.4 0.3333 0 0 0 0 0")


def test_baeza_yates_example_3_3_max_and_trec():
    # "At recall levels 0%, 10%, 20%, and 30%, the interpolated precision is equal to 33.3%
    # ... at 40%, 50%, and 60% ... 25% ... at 70%, 80%, 90%, and 100% ... 20%"
    qrels = {"q": {d: 1 for d in RQ_33}}
    third = 0.3333
    assert values(precision_recall(qrels, ranked(RANKING), interpolation="max")) == (
        [third] * 4 + [0.25] * 3 + [0.2] * 4
    )
    # trec_eval 10.0: lround(0.4 * 3) = 1 relevant document, so 0.333 at 0.4
    trec = values(precision_recall(qrels, ranked(RANKING), interpolation="trec"))
    assert trec[4] == third
    assert trec == [third] * 5 + [0.25] * 4 + [0.2] * 2
    # ceiling on a linear ordering is the textbook rule (Raghavan et al. sec. 2.2)
    assert values(precision_recall(qrels, ranked(RANKING), interpolation="ceiling")) == (
        [third] * 4 + [0.25] * 3 + [0.2] * 4
    )


def test_baeza_yates_precision_at_standard_document_cutoffs():
    # sec. 3.2.1: "average precision when 5, 10, 15, 20, 30, 50, or 100 documents have been
    # seen"; example 3.2's ranking has relevant documents at ranks 1, 3, 6, 10, 15
    qrels = {"q": {d: 1 for d in RQ_32}}
    df = precision_recall(qrels, ranked(RANKING), cutoffs="standard")
    assert df["cutoff"].tolist() == [5, 10, 15, 20, 30, 50, 100]
    assert values(df) == [0.4, 0.4, 0.3333, 0.25, 0.1667, 0.1, 0.05]
    assert [round(x, 4) for x in df["level"]] == [0.2, 0.4, 0.5, 0.5, 0.5, 0.5, 0.5]


# ------------------------------------------------------------------------------ Keen
Q268 = {"Q268": ([1, 2, 4, 6, 13], 5, 14)}  # Figs. 3, 4, 6, 15, 16, 17: ranks 1,2,4,6,13


def test_keen_fig4_raw_step_curve():
    # Fig. 4's precision column, OCR'd as "1.0 0.67 0.75 0.60 0.67 0.57 0.50 0.44 0.40 0.36
    # 0.38 0.38": the legible values are ranks 1, 3-11 and 13 (the OCR lost rank 2's 1.0 and
    # rank 12's 0.33; its last ".38" cannot be rank 14, 5/14 = .357, and is not checked)
    qrels, run = from_ranks(Q268)
    df = precision_recall(qrels, run, interpolation="none")
    prec = dict(zip(df["cutoff"], df["value"], strict=True))
    ocr = [1.0, 0.67, 0.75, 0.60, 0.67, 0.57, 0.50, 0.44, 0.40, 0.36, 0.38]
    ranks = [1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13]
    assert [round(prec[k], 2) for k in ranks] == ocr
    assert prec[2] == 1.0 and round(prec[12], 2) == 0.33
    # Fig. 15: the step of .8 recall, ranks 5-13 to four decimals
    fig15 = [0.6, 0.6667, 0.5714, 0.5, 0.4444, 0.4, 0.3636, 0.3333, 0.3846]
    assert [round(prec[k], 4) for k in range(5, 14)] == fig15
    rec = dict(zip(df["cutoff"], df["level"], strict=True))
    assert [rec[k] for k in range(5, 14)] == [0.6] + [0.8] * 7 + [1.0]


@pytest.mark.parametrize(
    ("step", "expected"),
    # Fig. 15: "1. highest, rank 6, .6667; 2. lowest, rank 12, .3333; 3. 'middle' position,
    # rank 9, .4444; 4. all ranks, average .4685; 5. best and worst ranks, average .5000"
    [("highest", 0.6667), ("lowest", 0.3333), ("middle", 0.4444), ("mean", 0.4685), ("ends", 0.5)],
)
def test_keen_fig15_five_choices_on_a_vertical_step(step, expected):
    steps = Steps.from_lists([[1, 2, 4, 6, 13]], R=[5], n=[14])
    assert round(float(steps.precision(step)[3]), 4) == expected
    # and through the quasi-Cranfield curve at recall .8, which sits on that step
    qrels, run = from_ranks(Q268)
    df = precision_recall(qrels, run, interpolation="quasi-cranfield", step=step, levels=[0.8])
    assert round(df["value"][0], 4) == expected


def test_keen_fig16_quasi_cranfield_q268():
    # points (h/5, h/rank_h) = (.2, 1), (.4, 1), (.6, .75), (.8, .6667), (1, .3846) joined by
    # straight lines (computed from Fig. 16's rule; the figure prints no numbers); 0.1 lies
    # left of the first point: method 5 holds its precision 1.0
    qrels, run = from_ranks(Q268)
    df = precision_recall(qrels, run, interpolation="quasi-cranfield", extrapolation=5)
    assert values(df)[1:] == nums("1.0 1.0 1.0 1.0 0.875 0.75 0.7083 0.6667 0.5256 0.3846")
    assert df["extrapolated"].tolist() == [1, 1] + [0] * 9


def test_keen_fig17_semi_cranfield_q268():
    # constant precision to the highest later peak
    qrels, run = from_ranks(Q268)
    df = precision_recall(qrels, run, interpolation="semi-cranfield")
    assert values(df)[1:] == nums("1.0 1.0 1.0 1.0 0.75 0.75 0.6667 0.6667 0.3846 0.3846")


def test_semi_cranfield_reaches_the_highest_not_the_next_peak():
    # Keen: "the next peak ... is eclipsed by a higher peak at still greater recall ... The
    # line should thus be connected to the highest peak": ranks 3, 4 -> peaks 1/3, 2/4
    qrels, run = from_ranks({"q": ([3, 4], 2, 4)})
    semi = precision_recall(qrels, run, interpolation="semi-cranfield", levels=[0.5])
    quasi = precision_recall(qrels, run, interpolation="quasi-cranfield", levels=[0.5])
    assert semi["value"][0] == 0.5
    assert round(quasi["value"][0], 4) == 0.3333


# Figs. 19-22: a) ranks 1, 2, 9, 12; b) 2, 3, 9, 12; c) rank 1 of one; d) rank 2 of one
FIG19 = {
    "a": ([1, 2, 9, 12], 4, 12),
    "b": ([2, 3, 9, 12], 4, 12),
    "c": ([1], 1, 12),
    "d": ([2], 1, 12),
}
# left-end values computed from each method's line: at recall .1 for a, b (first point at
# .25, so 40% of the way) and at recall .5 for c, d (first point at 1.0)
LEFT = {
    2: {"a": 0.4, "b": 0.2, "c": 0.5, "d": 0.25},  # from 0.0 precision (Fig. 19)
    3: {"a": 1.0, "b": 0.8, "c": 1.0, "d": 0.75},  # from 1.0 precision (Fig. 20)
    4: {"a": 1.0, "b": 0.2, "c": 1.0, "d": 0.25},  # 1.0 if the first is relevant (Fig. 21)
    5: {"a": 1.0, "b": 0.5, "c": 1.0, "d": 0.5},  # constant precision (Fig. 22)
}


@pytest.mark.parametrize("method", [2, 3, 4, 5])
@pytest.mark.parametrize("case", ["a", "b", "c", "d"])
def test_keen_figs19_22_left_end_extrapolation(method, case):
    qrels, run = from_ranks({case: FIG19[case]})
    level = 0.1 if case in "ab" else 0.5
    df = precision_recall(
        qrels, run, interpolation="quasi-cranfield", extrapolation=method, levels=[level]
    )
    assert round(df["value"][0], 4) == LEFT[method][case]
    assert df["extrapolated"][0] == 1 and df["queries"][0] == 1


def test_keen_fig18_method1_counts_the_queries_that_enter_without_extrapolation():
    # Fig. 18: "the numbers of requests that would enter into the averages are given at each
    # of ten recall levels"; with R = 4, 4, 1, 1 only a, b enter from .25, all four at 1.0
    qrels, run = from_ranks(FIG19)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        df = precision_recall(qrels, run, interpolation="quasi-cranfield", extrapolation=1)
    assert df["queries"].tolist() == nums("0 0 0 2 2 2 2 2 2 2 4")
    assert df["extrapolated"].tolist() == [0] * 11
    assert np.isnan(df["value"][0])
    # with method 5 everyone enters everywhere and queries - extrapolated is Fig. 18's count
    df5 = precision_recall(qrels, run, interpolation="quasi-cranfield", extrapolation=5)
    assert df5["queries"].tolist() == [4] * 11
    assert (df5["queries"] - df5["extrapolated"]).tolist() == df["queries"].tolist()


def test_keen_fig25_recall_ceiling_extrapolation():
    # full search: ranks 2, 4, 7, 10, 14 of 5 relevant -> precision 5/14 at recall 1.0;
    # cluster searches a) nothing relevant, b) ranks 3, 7, c) ranks 1, 3, extrapolated
    # linearly from their recall ceiling (0.4) to (1.0, 5/14); a) is all extrapolation from
    # that point (method 5: constant 5/14).  Values computed from the rule; Fig. 25 is a drawing.
    def ranking(q, relevant_at, n):
        docs = iter(f"{q}R{i}" for i in range(1, 6))
        names = [next(docs) if k in relevant_at else f"{q}N{k}" for k in range(1, n + 1)]
        return {d: float(n - i) for i, d in enumerate(names)}

    qrels = {q: {f"{q}R{i}": 1 for i in range(1, 6)} for q in "abc"}
    full_run = {q: ranking(q, {2, 4, 7, 10, 14}, 14) for q in "abc"}
    cluster = {
        "a": ranking("a", set(), 6),
        "b": ranking("b", {3, 7}, 8),
        "c": ranking("c", {1, 3}, 4),
    }
    levels = [0.1, 0.2, 0.4, 0.6, 0.7, 1.0]
    df, pq = precision_recall(
        qrels,
        cluster,
        interpolation="quasi-cranfield",
        extrapolation=5,
        levels=levels,
        reference=full_run,
        per_query=True,
    )
    got = {(r.query_id, r.level): round(r.value, 4) for r in pq.itertuples()}
    end = 5 / 14
    assert [got[("a", x)] for x in levels] == [round(end, 4)] * 6
    # b: points (.2, 1/3), (.4, 2/7); left of .2 constant 1/3 (method 5)
    b = [1 / 3, 1 / 3, 2 / 7, 2 / 7 + (end - 2 / 7) / 3, 2 / 7 + (end - 2 / 7) / 2, end]
    assert [got[("b", x)] for x in levels] == [round(v, 4) for v in b]
    # c: points (.2, 1), (.4, 2/3)
    c = [1.0, 1.0, 2 / 3, 2 / 3 + (end - 2 / 3) / 3, 2 / 3 + (end - 2 / 3) / 2, end]
    assert [got[("c", x)] for x in levels] == [round(v, 4) for v in c]
    assert df["extrapolated"].tolist() == [3, 1, 1, 3, 3, 3]


def test_keen_fig14_pseudo_cranfield_and_the_theoretical_best_curve():
    # Fig. 14 a): mean precision-recall pairs at each document cut-off, with "the theoretical
    # best possible curve for a given set of requests": a request with 1 relevant document
    # cannot give 1.0 precision at cut-off 2.  Requests: Q268 (5 relevant) and d) of Fig. 19.
    qrels, run = from_ranks({"Q268": Q268["Q268"], "d": FIG19["d"]})
    df = precision_recall(qrels, run, cutoffs=[1, 2, 5], best=True)
    ours = df[df["run"] == "run"]
    best = df[df["run"] == "best"]
    # Q268: P@1 1, P@2 1, P@5 3/5; d: P@1 0, P@2 1/2, P@5 1/5
    assert values(ours) == [0.5, 0.75, 0.4]
    # recall: Q268 .2, .4, .6; d: 0, 1, 1
    assert [round(x, 4) for x in ours["level"]] == [0.1, 0.7, 0.8]
    # best: Q268 min(k, 5)/k = 1, 1, 1; d: 1, 1/2, 1/5
    assert values(best) == [1.0, 0.75, 0.6]
    assert [round(x, 4) for x in best["level"]] == [0.6, 0.7, 1.0]


def test_keen_sec4a_micro_pools_counts_at_each_cutoff():
    # micro: "the complation over all requests of the number of documents both retrieved and
    # relevant (for a given cut-off) so that one final precision-recall pair can be calculated"
    qrels, run = from_ranks({"Q268": Q268["Q268"], "d": FIG19["d"]})
    df = precision_recall(qrels, run, cutoffs=[1, 2, 5], average="micro")
    # relevant retrieved (Q268 + d): k=1: 1+0, k=2: 2+1, k=5: 3+1; total relevant 6
    assert [round(x, 4) for x in df["level"]] == [round(1 / 6, 4), 0.5, round(4 / 6, 4)]
    assert values(df) == [0.5, 0.75, 0.4]


def test_keen_fig13_median_of_the_queries():
    qrels, run = from_ranks(FIG19)
    df = precision_recall(qrels, run, interpolation="max", levels=[0.5], statistic="median")
    # max-rule precision at recall .5: a (ranks 1, 2, 9, 12) 2/2, b (2, 3, 9, 12) 2/3,
    # c 1/1, d 1/2 -> median of (1, 2/3, 1, 1/2) = 5/6
    assert round(df["value"][0], 4) == round(5 / 6, 4)


# -------------------------------------------------------- Raghavan, Jung & Bollmann
def test_raghavan_examples_2_1_and_2_4_ceiling_precall_on_weak_orderings():
    # Delta = (+ - - | + + + - - - - - - -): PRECALL at recall .25 is .333 (example 2.1);
    # Delta' = (+ + + - - - - - | + - - -): .375 (example 2.4)
    def weak(groups, qid):
        run, qrels, k = {}, {}, 0
        for g, members in enumerate(groups):
            for x in members:
                d = f"{qid}{k}"
                run[d] = float(10 - g)
                qrels[d] = x
                k += 1
        return {qid: qrels}, {qid: run}

    for groups, expected in (
        ([[1, 0, 0], [1, 1, 1, 0, 0, 0, 0, 0, 0, 0]], 0.333),
        ([[1, 1, 1, 0, 0, 0, 0, 0], [1, 0, 0, 0]], 0.375),
    ):
        qrels, run = weak(groups, "x")
        df = precision_recall(qrels, run, interpolation="ceiling", weak=True, levels=[0.25])
        assert round(df["value"][0], 3) == expected
        # without weak, ties are broken (trec order) and ceiling is the max rule on that order
        lin = precision_recall(qrels, run, interpolation="ceiling", levels=[0.25])
        top = precision_recall(qrels, run, interpolation="max", levels=[0.25])
        assert lin["value"][0] == top["value"][0] != df["value"][0]


def test_raghavan_eq35_precision_from_recall_fallout_and_generality():
    # Keen's Q268 in Cran-1 (N = 200): at each relevant document h/rank by eq. 3.5
    qrels, run = from_ranks(Q268)
    df = fallout(qrels, run, collection_size=200, levels=[0.2, 0.4, 0.6, 0.8, 1.0])
    assert values(df) == [0.0, 0.0, round(1 / 195, 4), round(2 / 195, 4), round(8 / 195, 4)]
    assert [round(p, 4) for p in df["precision"]] == [1.0, 1.0, 0.75, 0.6667, 0.3846]


def test_keen_fig28c_generality_adjusted_precision():
    # P = R G / (R G + F (1000 - G)), G per thousand; at recall .6, F = 1/195
    qrels, run = from_ranks(Q268)
    df = fallout(qrels, run, collection_size=200, levels=[0.6], generality=23.6)
    f = 1 / 195
    assert df["precision"][0] == pytest.approx(0.6 * 23.6 / (0.6 * 23.6 + f * (1000 - 23.6)))


# ---------------------------------------------------------------------- Chen's slides
Q1 = {
    "d3": 3,
    "d5": 3,
    "d9": 3,
    "d25": 2,
    "d39": 2,
    "d44": 2,
    "d56": 1,
    "d71": 1,
    "d89": 1,
    "d123": 1,
}
Q2 = {"d3": 3, "d56": 2, "d129": 1}


def slide_run():
    return {q: ranked(RANKING)["q"] for q in ("q1", "q2")}


def test_chen_q1_vectors():
    _, pq = gain({"q1": Q1, "q2": Q2}, slide_run(), per_query=True)
    q1 = pq[pq["query_id"] == "q1"]

    def vec(curve, frame=q1, digits=1):
        return [round(v, digits) for v in frame[frame["curve"] == curve]["value"]]

    # G1 = (1, 0, 1, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 0, 3); the slide's CG1 has 16 entries
    # (one 7 too many): recomputed
    assert vec("cg", digits=0) == nums("1 1 2 2 2 5 5 5 5 7 7 7 7 7 10")
    assert vec("dcg") == nums("1.0 1.0 1.6 1.6 1.6 2.8 2.8 2.8 2.8 3.4 3.4 3.4 3.4 3.4 4.2")
    assert vec("icg", digits=0) == nums("3 6 9 11 13 15 16 17 18 19 19 19 19 19 19")
    assert vec("idcg") == nums(
        "3.0 6.0 7.9 8.9 9.8 10.5 10.9 11.2 11.5 11.8 11.8 11.8 11.8 11.8 11.8"
    )
    q2 = pq[pq["query_id"] == "q2"]
    # the slide's G2 puts the grade-1 document at rank 9, but the ranking (Baeza-Yates &
    # Ribeiro-Neto) has d129 at rank 8, and the slide's own averages need it there: CG2 recomputed
    assert vec("cg", q2, 0) == nums("0 0 2 2 2 2 2 3 3 3 3 3 3 3 6")


def test_chen_averaged_and_normalized_curves():
    table = gain({"q1": Q1, "q2": Q2}, slide_run())

    def vec(curve, digits=1):
        return [round(v, digits) for v in table[table["curve"] == curve]["value"]]

    assert vec("cg") == nums("0.5 0.5 2.0 2.0 2.0 3.5 3.5 4.0 4.0 5.0 5.0 5.0 5.0 5.0 8.0")
    assert vec("icg") == nums(
        "3.0 5.5 7.5 8.5 9.5 10.5 11.0 11.5 12.0 12.5 12.5 12.5 12.5 12.5 12.5"
    )
    assert vec("idcg") == nums("3.0 5.5 6.8 7.3 7.7 8.1 8.3 8.4 8.6 8.7 8.7 8.7 8.7 8.7 8.7")
    # the slide's mean DCG (0.5, 0.5, 1.5, 1.5, 1.5, 2.1, 2.1, 2.2, ...) averages the
    # one-decimal DCG vectors: exactly, ranks 3-7 are 1.446 and 2.027 (1.4 and 2.0)
    dcg = vec("dcg")
    assert dcg == nums("0.5 0.5 1.4 1.4 1.4 2.0 2.0 2.2 2.2 2.5 2.5 2.5 2.5 2.5 3.3")
    assert vec("ncg", 2) == nums(
        "0.17 0.09 0.27 0.24 0.21 0.33 0.32 0.35 0.33 0.40 0.40 0.40 0.40 0.40 0.64"
    )
    # NDCG: the slide prints .38 at rank 15 from rounded inputs (3.3 / 8.7); exactly .374
    assert vec("ndcg", 2) == nums(
        "0.17 0.09 0.21 0.20 0.19 0.25 0.25 0.26 0.26 0.29 0.29 0.29 0.29 0.29 0.37"
    )
    areas = area(table)
    ncg = areas[areas["curve"] == "ncg"]["area"].iloc[0]
    assert ncg == pytest.approx(table[table["curve"] == "ncg"]["value"].mean())


def test_chen_macro_average_of_per_query_ratios():
    table, pq = gain({"q1": Q1, "q2": Q2}, slide_run(), average="macro", per_query=True)
    ours = table[table["curve"] == "ncg"]["value"].to_numpy()
    per = pq[pq["curve"] == "ncg"].pivot(index="rank", columns="query_id", values="value")
    assert ours == pytest.approx(per.mean(axis=1).to_numpy())
    # rank 15: (10/19 + 6/6) / 2
    assert ours[-1] == pytest.approx((10 / 19 + 1) / 2)


def test_fraction_levels_are_exact():
    # 0.3 * 10 is 3.0000000000000004 in floating point; recall 3/10 must reach level 0.3
    qrels, run = from_ranks({"q": ([1, 2, 3], 10, 3)})
    df = precision_recall(qrels, run, interpolation="max", levels=[0.3, F(3, 10), "0.3"])
    assert values(df) == [1.0]
