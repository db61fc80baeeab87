"""Raghavan, Jung & Bollmann, "A Critical Investigation of Recall and Precision as Measures of
Retrieval System Performance" (ACM TOIS 7(3), 1989): the worked examples 2.1-2.5, the recall-0
limits of sec. 3.2.2, Theorem 3.5, and the parameter rules of the weak-order measures.

Orderings are typed from the paper: ``+`` relevant, ``-`` non-relevant, ``|`` between levels.
"""

from __future__ import annotations

import warnings
from fractions import Fraction

import numpy as np
import pytest

from cranfield import evaluate
from cranfield.errors import MeasureError, UndefinedMeasureWarning
from cranfield.measures import parse


def weak(text: str, extra_relevant: int = 0):
    """qrels and run dicts of one query from e.g. ``"+--|+++-------"``."""
    qrels, run = {"q": {}}, {"q": {}}
    levels = text.split("|")
    d = 0
    for li, lv in enumerate(levels):
        for c in lv:
            d += 1
            run["q"][f"d{d:03d}"] = float(len(levels) - li)
            qrels["q"][f"d{d:03d}"] = 1 if c == "+" else 0
    for e in range(extra_relevant):
        qrels["q"][f"unretrieved{e}"] = 1
    return qrels, run


def values(text: str, labels, ties: str = "weak") -> dict[str, float]:
    qrels, run = weak(text)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = evaluate(qrels, run, labels, ties=ties)
    return res.aggregate()


DELTA = "+--|+++-------"  # Examples 2.1-2.4
DELTA_PRIME = "+++-----|+---"  # Example 2.4
DELTA_25 = "+-|+++++----|++++----"  # Example 2.5
# Example 2.5's second ordering: the OCR prints (++++++----|++----|), i.e. 8 relevant, but
# recall 0.1 must mean NR = 1, so R = 10: the second level holds 4 relevant documents.  Only
# the first level (6 relevant, 4 not) matters at NR = 1; PRR = 7/11 = .636 confirms it.
DELTA_25_PRIME = "++++++----|++++----"


@pytest.mark.parametrize(
    ("ordering", "recall", "precall", "prr", "ep"),
    [
        (DELTA, 0.25, "0.333", "0.500", "0.611"),  # Examples 2.1, 2.2, 2.3
        (DELTA_PRIME, 0.25, "0.375", "0.444", "0.609"),  # Example 2.4
    ],
)
def test_examples_2_1_to_2_4(ordering, recall, precall, prr, ep):
    got = values(
        ordering,
        [
            "PRECALL(NR=1)",
            "PRR(NR=1)",
            "EP(NR=1)",
            f"PRECALL(recall={recall})",
            f"PRR(recall={recall})",
        ],
    )
    assert f"{got['PRECALL(NR=1)']:.3f}" == precall
    assert f"{got['PRR(NR=1)']:.3f}" == prr
    assert f"{got['EP(NR=1)']:.3f}" == ep
    # recall 0.25 with R = 4 is NR = 1, under either interpolation
    # (the ceiling's max over later points: PRECALL(NR=h) is 3/8 for h = 1, 2, 3 on Delta')
    assert got[f"PRECALL(recall={recall})"] == pytest.approx(got["PRECALL(NR=1)"], rel=1e-15)
    assert got[f"PRR(recall={recall})"] == got["PRR(NR=1)"]


def test_example_2_3_expected_precision_is_eleven_eighteenths():
    assert values(DELTA, ["EP(NR=1)"])["EP(NR=1)"] == pytest.approx(float(Fraction(11, 18)))


@pytest.mark.parametrize(
    ("ordering", "prr", "ep"),
    [(DELTA_25, "0.667", "0.750"), (DELTA_25_PRIME, "0.636", "0.775")],
)
def test_example_2_5_prr_and_ep_disagree(ordering, prr, ep):
    got = values(ordering, ["PRR(recall=0.1)", "EP(NR=1)", "PRR(NR=1)"])
    assert f"{got['PRR(recall=0.1)']:.3f}" == prr
    assert f"{got['PRR(NR=1)']:.3f}" == prr
    assert f"{got['EP(NR=1)']:.3f}" == ep


def test_the_three_precisions_order_the_examples_differently():
    """Example 2.4: PRECALL prefers Delta', PRR and EP prefer Delta; Example 2.5: PRR and EP
    disagree."""
    a = values(DELTA, ["PRECALL(NR=1)", "PRR(NR=1)", "EP(NR=1)"])
    b = values(DELTA_PRIME, ["PRECALL(NR=1)", "PRR(NR=1)", "EP(NR=1)"])
    assert a["PRECALL(NR=1)"] < b["PRECALL(NR=1)"]
    assert a["PRR(NR=1)"] > b["PRR(NR=1)"] and a["EP(NR=1)"] > b["EP(NR=1)"]
    c = values(DELTA_25, ["PRR(NR=1)", "EP(NR=1)"])
    d = values(DELTA_25_PRIME, ["PRR(NR=1)", "EP(NR=1)"])
    assert c["PRR(NR=1)"] > d["PRR(NR=1)"] and c["EP(NR=1)"] < d["EP(NR=1)"]


def test_expected_search_length_examples():
    """Eq. 3.3 on Delta: esl = 0 + 2 * 1 / (1 + 1) = 1; Cooper's rule as in van Rijsbergen
    (1979) ch. 7: 3 non-relevant, then a level of 2 relevant among 5: esl = 3 + 3 * 1/3 = 4."""
    assert values(DELTA, ["ESL(NR=1)"])["ESL(NR=1)"] == 1.0
    assert values("---|++---", ["ESL(NR=1)"])["ESL(NR=1)"] == 4.0
    # Theorem 3.1: PRR = NR / (NR + esl)
    got = values("---|++---", ["ESL(NR=2)", "PRR(NR=2)"])
    assert got["PRR(NR=2)"] == pytest.approx(2 / (2 + got["ESL(NR=2)"]))


def test_theorem_3_2_prr_is_at_least_precall():
    for ordering in (DELTA, DELTA_PRIME, DELTA_25, DELTA_25_PRIME, "-|+--|++---"):
        for h in (1, 2, 3):
            got = values(ordering, [f"PRR(NR={h})", f"PRECALL(NR={h})"])
            assert got[f"PRR(NR={h})"] >= got[f"PRECALL(NR={h})"]


def test_recall_zero_limits_of_sec_3_2_2():
    """Relevant in the first level: PRR -> (r+1)/(r+i+1), PRECALL -> r/(r+i); otherwise 0."""
    got = values(DELTA, ["PRR(recall=0)", "PRECALL(recall=0,interpolation=intuitive)"])
    assert got["PRR(recall=0)"] == pytest.approx(2 / 4)
    assert got["PRECALL(recall=0,interpolation=intuitive)"] == pytest.approx(1 / 3)
    got = values("--|+++-", ["PRR(recall=0)", "PRECALL(recall=0,interpolation=intuitive)"])
    assert got == {"PRR(recall=0)": 0.0, "PRECALL(recall=0,interpolation=intuitive)": 0.0}


def _theorem_3_5_cases():
    """(ordering, ND) whose final level holds a relevant document (the theorem's r >= 1)."""
    for ordering in (DELTA, DELTA_PRIME, DELTA_25, "--+|+-+--|-+", "+-|-|++-+"):
        levels = ordering.split("|")
        for nd in range(1, sum(map(len, levels)) + 1):
            t = 0
            for lv in levels:
                if t + len(lv) >= nd:
                    if "+" in lv:
                        yield ordering, nd
                    break
                t += len(lv)


@pytest.mark.parametrize(("ordering", "nd"), list(_theorem_3_5_cases()))
def test_theorem_3_5_er_ep_lie_on_the_intuitive_precall_graph(ordering, nd):
    """For integer ND (final level with r >= 1), EP(ND) = intuitive-PRECALL at recall ER(ND)."""
    got = values(ordering, [f"ER(ND={nd})", f"EP(ND={nd})"])
    x = got[f"ER(ND={nd})"]
    label = f"PRECALL(recall={x!r},interpolation=intuitive)"
    assert values(ordering, [label])[label] == pytest.approx(got[f"EP(ND={nd})"], rel=1e-9)


def test_ep_nd_is_prr_nd_and_the_tie_aware_precision():
    """Theorem 3.4 (EP = PRR for ND) and Theorem 3.3 = McSherry-Najork's tie-aware P@k."""
    for nd in (1, 4, 9, 13, 20):
        got = values(DELTA_25, [f"EP(ND={nd})", f"PRR(ND={nd})", f"P@{nd}"])
        assert got[f"EP(ND={nd})"] == got[f"PRR(ND={nd})"] == got[f"P@{nd}"]


def test_ep_is_exact_for_levels_of_hundreds_of_documents():
    """A final level of 300 relevant among 900: EP(NR=k) against the exact rational sum."""
    from math import comb

    r, i, j = 300, 600, 5
    ordering = "-" * j + "|" + "+" * r + "-" * i
    for k in (1, 7, 150, 300):
        s = k
        exact = sum(
            Fraction(comb(s - 1 + v, v) * comb(r - s + i - v, i - v), comb(r + i, i))
            * Fraction(k, k + j + v)
            for v in range(i + 1)
        )
        got = values(ordering, [f"EP(NR={k})"])[f"EP(NR={k})"]
        assert got == pytest.approx(float(exact), rel=1e-12)


def test_linear_ordering_reduces_to_precision_at_the_nr_th_relevant():
    """Without ties (single-document levels), PRR = PRECALL = EP = NR / rank(NR-th relevant)."""
    got = values(DELTA, ["PRR(NR=2)", "PRECALL(NR=2)", "EP(NR=2)", "ESL(NR=2)"], ties="trec")
    # trec order within a level is document id descending: level 2 is d013 .. d004
    order = [0, 0, 1] + [0] * 7 + [1, 1, 1]  # d003 d002 d001 | d013 ... d004
    second = [i for i, g in enumerate(order, 1) if g][1]
    assert got["PRR(NR=2)"] == got["PRECALL(NR=2)"] == got["EP(NR=2)"] == 2 / second
    assert got["ESL(NR=2)"] == second - 2


# ------------------------------------------------------------------ undefined cases
def test_unmet_need_is_declared_and_warned():
    qrels, run = weak("-+-|--")
    with pytest.warns(UndefinedMeasureWarning, match=r"PRR\(NR=2\) is undefined for 1 of 1"):
        res = evaluate(qrels, run, ["PRR(NR=2)"], ties="weak")
    assert res.aggregate()["PRR(NR=2)"] == 0.0
    with pytest.warns(UndefinedMeasureWarning, match="scored nan"):
        res = evaluate(qrels, run, ["ESL(NR=2)"], ties="weak")
    assert np.isnan(res.values[0, 0])


def test_query_without_relevant_documents_is_declared():
    qrels = {"q": {"a": 0, "b": 0}}
    run = {"q": {"a": 1.0, "b": 1.0}}
    with pytest.warns(UndefinedMeasureWarning, match=r"R = 0"):
        res = evaluate(qrels, run, ["EP(NR=1)"], ties="weak")
    assert res.aggregate()["EP(NR=1)"] == 0.0


# ------------------------------------------------------------------ parameters
@pytest.mark.parametrize(
    "text",
    [
        "ESL(NR=3)",
        "ESL(recall=0.5)",
        "PRR(NR=2)",
        "PRR(recall=0.3)",
        "PRR(recall=0.3,interpolation=ceiling)",
        "PRR(ND=10)",
        "PRECALL(NR=1)",
        "PRECALL(recall=0.9,interpolation=intuitive)",
        "EP(NR=5)",
        "EP(ND=10)",
        "ER(ND=22)",
        "EP(NR=1,rel=2)",
    ],
)
def test_measure_strings_round_trip(text):
    assert str(parse(text)) == text


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("PRR", "exactly one of NR=, recall=, ND="),
        ("PRR(NR=1,ND=3)", "exactly one of"),
        ("EP(NR=1,ND=3)", "exactly one of NR=, ND="),
        ("ER", "exactly one of ND="),
        ("ESL(ND=3)", "no parameter 'ND'"),
        ("EP(recall=0.5)", "no parameter 'recall'"),
        ("PRR(NR=0)", "NR must be in \\[1, 2147483647\\]"),
        ("PRR(NR=1.5)", "must be an integer"),
        ("PRR(recall=1.5)", "recall must be in \\[0, 1\\]"),
        ("PRR(recall=0.5,interpolation=linear)", "must be one of ceiling, intuitive"),
        ("PRR(NR=2,interpolation=ceiling)", "interpolation= applies to recall= only"),
    ],
)
def test_bad_parameters_are_measure_errors(text, problem):
    with pytest.raises(MeasureError, match=problem.replace("(", r"\(").replace(")", r"\)")):
        parse(text)
