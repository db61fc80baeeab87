import pytest

from cranfield.errors import MeasureError
from cranfield.measures import parse


@pytest.mark.parametrize(
    "text",
    [
        "AP",
        "P@10",
        "P(rel=2)@10",
        "nDCG@10",
        "nDCG(gains={0:0,1:1,2:3})@10",
        "RR@5",
        "R@1000",
        "GMAP",
        "SetF(beta=0.5)",
        "AP(rel=2)@100",
    ],
)
def test_canonical_strings_round_trip(text):
    assert str(parse(text)) == text


def test_parameters_print_in_declared_order_and_spaces_are_dropped():
    m = parse(" nDCG( gains = { 0 : 0 , 2 : 3 } ) @ 10 ")
    assert str(m) == "nDCG(gains={0:0,2:3})@10"
    assert m.resolve()["gains"] == {0: 0, 2: 3}
    assert m.resolve()["cutoff"] == 10


def test_aliases_and_case_insensitive_unique_names():
    assert parse("MAP").name == "AP"
    assert parse("ndcg@10").name == "nDCG"
    assert parse("MRR").name == "RR"


def test_misspelled_measure_lists_nearest_names():
    with pytest.raises(MeasureError, match="did you mean.*nDCG"):
        parse("nDGC@10")


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("P", "needs a cut-off"),
        ("P@0", r"cutoff must be in \[1, 2147483647\], got 0"),
        ("P@2.5", "must be an integer"),
        ("P(rel=-1)@5", r"rel must be in \[0, 9223372036854775807\]"),
        ("P(foo=1)@5", "has no parameter 'foo'"),
        ("NumQ@5", "takes no @ cut-off"),
        ("P(rel=1", "missing '\\)'"),
        ("P@10 extra", "unexpected"),
        ("P(rel=1,rel=2)@5", "given twice"),
        ("nDCG(gains=3)", "must be a map"),
        ("@10", "must start with a measure name"),
    ],
)
def test_bad_measure_strings_are_rejected_clearly(text, problem):
    with pytest.raises(MeasureError, match=problem):
        parse(text)


def test_measure_objects_compose_like_ir_measures():
    P = parse("P@5")
    assert str(P(rel=2) @ 10) == "P(rel=2)@10"
