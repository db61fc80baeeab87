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


@pytest.mark.parametrize(
    "text",
    ["P@１０", "P(rel=٣)@5", "nDCG(gains={１:1})", "nDCG(gains={1:٣})", "RBP(p=０.5)", "P@1٠"],
)
def test_only_ascii_digits_make_numbers(text):
    with pytest.raises(MeasureError, match="ASCII digits 0-9"):
        parse(text)


@pytest.mark.parametrize(
    "text", ["nDCG(gains={1:1,1:5})", "nDCG(gains={1:1,+1:1})", "G(gains={01:2,1:2})"]
)
def test_a_gains_map_names_each_grade_once(text):
    with pytest.raises(MeasureError, match="grade 1 is given twice"):
        parse(text)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("RBP(p=1e-400)", "it would be 0 as a double"),
        ("RBP(p=-1e-400)", "it would be 0 as a double"),
        ("Rprec(mult=1e400)", "beyond the largest double"),
        ("nDCG(gains={1:-1e999})", "beyond the largest double"),
        ("nDCG(gains={1:nan})", "must be a number, got 'nan'"),
        ("SetF(beta=inf)", "must be a number in \\[0, 1e\\+100\\], got 'inf'"),
        ("P(rel=" + "9" * 5000 + ")@5", "got 9{12}\\.\\.\\.\\(5000 digits\\)"),
        ("P@" + "1" * 30, "got 111111111111111111111111111111"),
        ("nDCG(gains={" + "9" * 5000 + ":1})", "grade must be in"),
    ],
    ids=lambda v: v[:40],
)
def test_numbers_beyond_the_doubles_or_the_integers_are_rejected(text, problem):
    with pytest.raises(MeasureError, match=problem):
        parse(text)


@pytest.mark.parametrize(
    "text",
    [
        "P(rel=" + "9" * 5000 + ")@5",
        "X" * 100_000,
        "P(" + "x" * 100_000 + "=1)@5",
        "P(rel=" + "x" * 100_000 + ")@5",
        "nDCG(convention=" + "x" * 100_000 + ")",
        "nDCG(gains={" + "x" * 100_000 + ":1})",
        "P@" + "x" * 100_000,
        "P@5 " + "x" * 100_000,
    ],
    ids=lambda v: v[:30],
)
def test_messages_shorten_long_measure_strings(text):
    with pytest.raises(MeasureError) as err:
        parse(text)
    assert len(str(err.value)) < 600


@pytest.mark.parametrize(
    "text",
    [
        "P@2147483647",
        "AP(rel=9223372036854775807)",
        "ERR(max_grade=9223372036854775807)",
        "nDCG(gains={-9223372036854775808:-1e+100,9223372036854775807:1e+100})",
        "RBP(p=5e-324)",
        "RBP(p=0.9999999999999999)",
        "DCG(base=1.0000000000000002)",
        "IPrec@0.0",
        "RelRank(n=last)",
        "Utility(N=9007199254740992)",
    ],
)
def test_values_at_the_ends_of_their_ranges_round_trip(text):
    assert str(parse(text)) == text


def test_measure_without_a_name_is_cranfields_error():
    """``Measure()`` is a MeasureError (one exception tree), not the TypeError of a missing
    argument; the keyword form and the positional form still build the same measure."""
    from cranfield import Measure

    with pytest.raises(MeasureError, match=r"Measure\(\) needs a measure name"):
        Measure()
    assert Measure(name="P", cutoff=5) == Measure("P") @ 5
    assert str(Measure("P", {"rel": 2}, 10)) == "P(rel=2)@10"
