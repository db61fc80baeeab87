"""Nugget scores on hand-computed examples, from the definitions (Pradeep et al., SIGIR 2025;
nuggetizer's calculate_nugget_scores): the recall of the nuggets a response supports, over all
nuggets or the vital ones, a partial support counting 1/2 (0 in the strict scores); no vital
nugget: 0 on the vital scores; no nugget: 0 on all.  The expected values are fractions worked
out by hand, written below each case."""

from __future__ import annotations

import json
from fractions import Fraction as F

import pytest

import cranfield.nuggets as nuggets
from cranfield.errors import ParameterError

V, O = "vital", "okay"
S, P, N = "support", "partial_support", "not_support"

CASES = {
    # vital: S P N -> strict 1/3, partial (1 + 1/2)/3 = 1/2; okay: S P
    # all five: strict 2/5, partial (2 + 1)/5 = 3/5
    "mixed": ([(V, S), (V, P), (V, N), (O, S), (O, P)], (F(1, 3), F(2, 5), F(1, 2), F(3, 5))),
    # no vital nugget: vital scores 0; all: 1 of 2 strict, (1 + 1/2)/2 = 3/4
    "okay only": ([(O, S), (O, P)], (0, F(1, 2), 0, F(3, 4))),
    # no nugget at all: 0 on every score
    "empty": ([], (0, 0, 0, 0)),
    # only partial supports: strict 0, partial 1/2 everywhere
    "partial only": ([(V, P), (O, P), (V, P)], (0, 0, F(1, 2), F(1, 2))),
    # every vital supported, the okay ones not: vital 1, all 2/4
    "vital all": ([(V, S), (O, N), (V, S), (O, N)], (1, F(1, 2), 1, F(1, 2))),
}


def _line(qid: str, run: str, pairs) -> str:
    items = [{"text": f"n{k}", "importance": i, "assignment": a} for k, (i, a) in enumerate(pairs)]
    return json.dumps({"qid": qid, "run_id": run, "nuggets": items}) + "\n"


@pytest.mark.parametrize("case", list(CASES))
def test_a_response_scores_as_worked_out_by_hand(tmp_path, case):
    pairs, expected = CASES[case]
    path = tmp_path / "one.jsonl"
    path.write_text(_line("q1", "r", pairs))
    got = nuggets.score(path)["r"].values[0].tolist()
    assert got == [float(x) for x in expected]


def test_a_runs_score_is_the_mean_over_its_responses(tmp_path):
    path = tmp_path / "run.jsonl"
    path.write_text("".join(_line(f"q{k}", "r", CASES[c][0]) for k, c in enumerate(CASES)))
    res = nuggets.score(path)["r"]
    # means of the five cases' columns, by hand:
    # strict_vital (1/3 + 0 + 0 + 0 + 1) / 5 = 4/15
    # strict_all (2/5 + 1/2 + 0 + 0 + 1/2) / 5 = 7/25
    # vital (1/2 + 0 + 0 + 1/2 + 1) / 5 = 2/5
    # all (3/5 + 3/4 + 0 + 1/2 + 1/2) / 5 = 47/100
    expected = {
        "strict_vital": F(4, 15),
        "strict_all": F(7, 25),
        "vital": F(2, 5),
        "all": F(47, 100),
    }
    got = res.aggregate()
    for name, value in expected.items():
        assert got[name] == pytest.approx(float(value), rel=1e-15), name
    assert res.summary == {"queries": 5, "nuggets": 14, "vital": 7}


def test_scores_can_be_chosen_and_keep_their_order(tmp_path):
    path = tmp_path / "one.jsonl"
    path.write_text(_line("q1", "r", CASES["mixed"][0]))
    res = nuggets.score(path, ["all", "strict_vital"])["r"]
    assert res.labels == ("all", "strict_vital")
    assert res.values[0].tolist() == [0.6, 1 / 3]
    with pytest.raises(ParameterError, match="unknown nugget score 'recall'; choose from"):
        nuggets.score(path, ["recall"])
