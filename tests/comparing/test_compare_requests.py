"""Per-request analysis: Keen's Figs. 31, 35 and 36 (ISR-13 sec. 8-9)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

import cranfield
from cranfield.comparing import (
    keen_table,
    magnitude_difference,
    request_counts,
    split_by_relevant,
    superiority,
)
from cranfield.errors import ParameterError
from cranfield.measures import parse
from cranfield.results.tables import Results, ResultsSet


def test_keen_fig_35_percentages():
    """Fig. 35: 6 requests favour option I, 4 option II, 2 are equal."""
    rows = keen_table((6, 4, 2))
    numbers, ignoring, including, adding = rows
    assert (numbers.first, numbers.second, numbers.equal) == (6, 4, 2)
    # printed: 60% 40% - 20%
    assert (ignoring.first, ignoring.second, ignoring.equal) == (60.0, 40.0, None)
    assert ignoring.superiority == 20.0
    # printed: 50% 33% 17% 17%
    assert [round(v) for v in (including.first, including.second, including.equal)] == [50, 33, 17]
    assert round(including.superiority) == 17
    # printed: 67% 50% - 17%
    assert [round(v) for v in (adding.first, adding.second)] == [67, 50]
    assert adding.equal is None and round(adding.superiority) == 17
    # exact values behind the rounded figure
    assert including.superiority == pytest.approx(float(Fraction(100, 6)))
    assert superiority(6, 4) == 20.0


def test_superiority_edge_cases():
    assert superiority(0, 0) == 0.0
    assert superiority(5, 0) == 100.0 and superiority(0, 3) == -100.0
    with pytest.raises(ParameterError):
        superiority(-1, 2)
    assert keen_table((0, 0, 3))[1].superiority == 0.0


# Fig. 36(a): normalized recall of nine hypothetical requests under three options.  The OCR of
# Keen's text lost two of option I's ".8000" values and option II's last value; the NIST scan of
# ISR-13 (irs13_text/p2-66.txt) prints the table row by row, which gives this reading.
FIG36 = {
    "I": [0.8125, 0.8250, 0.8010, 0.8000, 0.8000, 0.8000, 0.8000, 0.8000, 0.8000],
    "II": [0.8000, 0.8000, 0.8000, 0.8100, 0.8080, 0.8060, 0.8040, 0.8020, 0.8010],
    "III": [0.8135, 0.8135, 0.7810, 0.7850, 0.7900, 0.7950, 0.7990, 0.8080, 0.8150],
}
REQS = list("ABCDEFGHI")


def test_keen_fig_36_options_i_and_ii():
    counts = request_counts(FIG36["I"], FIG36["II"])
    # "6 Requests better on Option II (66.7%)", "3 Requests better on Option I (33.3%)"
    assert (counts.first, counts.second, counts.equal) == (3, 6, 0)
    pct = keen_table(counts)[1]
    assert (round(pct.first, 1), round(pct.second, 1)) == (33.3, 66.7)
    md = magnitude_difference(REQS, FIG36["I"], FIG36["II"])
    # the three requests favouring I do so by large amounts, the six favouring II by small
    assert [q for q, _ in md.first] == ["B", "A", "C"]
    assert [d for _, d in md.first] == pytest.approx([0.0250, 0.0125, 0.0010])
    assert [q for q, _ in md.second] == ["D", "E", "F", "G", "H", "I"]
    assert [d for _, d in md.second] == pytest.approx(
        [0.0100, 0.0080, 0.0060, 0.0040, 0.0020, 0.0010]
    )
    # "the average normalized recall values ... show that options I and II have almost
    # identical merit": the areas under the two curves are nearly equal
    assert abs(np.mean(FIG36["I"]) - np.mean(FIG36["II"])) < 0.001
    assert abs(sum(d for _, d in md.first) - sum(d for _, d in md.second)) < 0.01


def test_keen_fig_36_options_i_and_iii():
    counts = request_counts(FIG36["I"], FIG36["III"])
    # "6 Requests better on Option I (66.7%)", "3 Requests better on Option III (33.3%)"
    assert (counts.first, counts.second, counts.equal) == (6, 3, 0)
    md = magnitude_difference(REQS, FIG36["I"], FIG36["III"], first_name="I", second_name="III")
    assert [q for q, _ in md.first] == ["C", "D", "B", "E", "F", "G"]
    assert [q for q, _ in md.second] == ["I", "H", "A"]
    # "option I is seen to be superior to option II both in the averages and in the
    # individual requests" (the figure's caption: options I and III)
    assert np.mean(FIG36["I"]) > np.mean(FIG36["III"])


def _results(values: dict[str, list[float]], label: str = "AP") -> ResultsSet:
    m = parse(label)
    return ResultsSet(
        tuple(
            Results(run, tuple(REQS), (label,), (m,), np.array(v, dtype=float)[:, None])
            for run, v in values.items()
        )
    )


def test_fig_36_through_compare():
    c = cranfield.compare(_results(FIG36), test="sign", baseline="I")
    p2 = c.pair("AP", "I", "II")
    assert (p2.wins, p2.losses, p2.ties) == (6, 3, 0)  # wins: b (II) better than a (I)
    assert p2.superiority == pytest.approx(100 * 3 / 9)
    assert [r.first for r in c.keen("AP", "I", "II")[:2]] == [6, pytest.approx(200 / 3)]
    md = c.magnitude("AP", "I", "II")
    assert md.first_name == "II" and len(md.first) == 6 and len(md.second) == 3
    d = c.to_dict()["measures"]["AP"]["pairs"][1]
    assert (d["a"], d["b"], d["wins"], d["losses"]) == ("I", "III", 3, 6)


# Fig. 31: ranks of the relevant documents of six hypothetical requests; A-C specific (3
# relevant), D-F general (8 relevant).
FIG31 = {
    "A": [1, 2, 10],
    "B": [3, 4, 17],
    "C": [7, 21, 45],
    "D": [1, 2, 5, 7, 8, 9, 14, 15],
    "E": [3, 7, 10, 22, 33, 37, 49, 51],
    "F": [1, 2, 8, 10, 11, 29, 36, 47],
}


def _fig31_run():
    qrels, run = {}, {}
    for q, ranks in FIG31.items():
        qrels[q] = {f"{q}-rel{r}": 1 for r in ranks}
        run[q] = {
            (f"{q}-rel{r}" if r in ranks else f"{q}-non{r}"): float(100 - r) for r in range(1, 61)
        }
    return qrels, run


def test_fig_31_split_into_specific_and_general():
    split = split_by_relevant({q: len(r) for q, r in FIG31.items()})
    assert split.threshold == 3
    assert split.specific == ("A", "B", "C") and split.general == ("D", "E", "F")


@pytest.mark.filterwarnings("ignore:compare. for 3 pair:cranfield.errors.CranfieldWarning")
@pytest.mark.filterwarnings(
    "ignore:compare. the t-test on \\d+ queries:cranfield.errors.CranfieldWarning"
)
def test_fig_31_specific_vs_general_means():
    qrels, run = _fig31_run()
    # the same run twice: compare needs two runs; the split compares groups of queries
    c = cranfield.compare(qrels, [run, run], ["RR", "R@20", "R@50"], names=["x", "y"])
    g = c.generality()
    assert g.split.specific == ("A", "B", "C")
    assert g.mean_relevant == (3.0, 8.0)
    rows = {(r.measure, r.run): r for r in g.rows}

    def rr(q):
        return Fraction(1, FIG31[q][0])

    def recall(q, k):
        return Fraction(sum(r <= k for r in FIG31[q]), len(FIG31[q]))

    spec, gen = "ABC", "DEF"
    # the high-precision user (first relevant early) is served best by the general requests
    assert rows[("RR", "x")].specific == pytest.approx(float(sum(map(rr, spec)) / 3))
    assert rows[("RR", "x")].general == pytest.approx(float(sum(map(rr, gen)) / 3))
    assert rows[("RR", "x")].general > rows[("RR", "x")].specific
    # the high-recall user by the specific requests
    for k in (20, 50):
        r = rows[(f"R@{k}", "x")]
        assert r.specific == pytest.approx(float(sum(recall(q, k) for q in spec) / 3))
        assert r.general == pytest.approx(float(sum(recall(q, k) for q in gen) / 3))
        assert r.specific > r.general
    text = c.table(details=["generality"])
    assert "Specific (<= 3 relevant, 3 queries" in text


def test_split_keeps_equal_counts_together():
    split = split_by_relevant({"q1": 1, "q2": 2, "q3": 2, "q4": 2, "q5": 9})
    # thresholds 1 (1 vs 4) and 2 (4 vs 1) are equally unbalanced: the smaller one wins
    assert split.threshold == 1 and split.specific == ("q1",)
    with pytest.raises(ParameterError, match="every query has 4"):
        split_by_relevant({"a": 4, "b": 4})
