"""compare ranks runs by each measure's declared direction: for the lower-is-better measures (E,
Fallout, SearchLength, RelRank, ESL) the run that ranks the relevant document first wins, as it
does for the higher-is-better ones; counts and diagnostics (better=none) are not ranked."""

from __future__ import annotations

import pytest

import cranfield
from cranfield.errors import ParameterError
from cranfield.measures import REGISTRY

QUERIES = [f"q{i}" for i in range(8)]
QRELS = {q: {"r": 1, **{f"n{j}": 0 for j in range(5)}} for q in QUERIES}
# good: the relevant document first; bad: it comes after 2, 3 or 4 non-relevant ones
GOOD = {q: {"r": 10.0, **{f"n{j}": 5.0 - j for j in range(5)}} for q in QUERIES}
BAD = {
    q: {**{f"n{j}": 10.0 - j for j in range(5)}, "r": 9.5 - (2 + i % 3)}
    for i, q in enumerate(QUERIES)
}
LOWER = ["E@2", "Fallout@2", "SearchLength", "RelRank", "ESL(NR=1)"]


def test_every_lower_is_better_measure_is_covered():
    declared = {n for n, d in REGISTRY.items() if d.better == "lower"}
    assert declared == {cranfield.parse_measure(m).name for m in LOWER}


@pytest.mark.filterwarnings(
    "ignore:compare. the t-test on \\d+ queries:cranfield.errors.CranfieldWarning"
)
@pytest.mark.parametrize("measure", [*LOWER, "AP", "P@2", "RR"])
def test_the_run_with_the_relevant_document_first_wins(measure):
    c = cranfield.compare(
        QRELS,
        {"good": GOOD, "bad": BAD},
        [measure],
        test="t",
        collection_size=100,
    )
    lower = REGISTRY[cranfield.parse_measure(measure).name].better == "lower"
    means = c.means[measure]
    assert (means["good"] < means["bad"]) if lower else (means["good"] > means["bad"])
    assert c.ranking(measure) == ["good", "bad"]
    (pair,) = c.pairs[measure]
    better, worse = ("good", "bad")
    # the pair reads b against a: the good run wins every query, whichever side it is on
    assert {pair.a, pair.b} == {better, worse}
    if pair.b == better:
        assert (pair.wins, pair.losses) == (8, 0)
        assert pair.outcome == "b"
    else:
        assert (pair.wins, pair.losses) == (0, 8)
        assert pair.outcome == "a"


def test_counts_and_diagnostics_are_not_ranked():
    with pytest.raises(ParameterError, match="NumRelRet.*no direction"):
        cranfield.compare(QRELS, {"good": GOOD, "bad": BAD}, ["NumRelRet"])
