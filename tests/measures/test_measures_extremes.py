"""Measures and measure strings at any number: every declared parameter range of the registry
at its boundaries, grades from -2**63 to 2**63-1 on every measure, ERR and nDCG with large
grades against independent computations, and random measure strings.

"Quickly and without huge allocation" is checked with ``tracemalloc`` (numpy reports its
buffers to it): a computation whose memory depended on a parameter's value (a cut-off of
2**31-1, a grade of 2**63-1) would show gigabytes here.
"""

from __future__ import annotations

import math
import sys
import tracemalloc
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import run_cli
from cranfield.errors import CranfieldError, MeasureError
from cranfield.io import read_qrels, read_run
from cranfield.io.trec.judgment_files import JudgmentGroups, Prefs
from cranfield.io.trec.subtopics import Subtopics
from cranfield.judging.join import judge
from cranfield.measures import REGISTRY, Measure, Param, parse
from cranfield.measures.params import INT64_MAX, INT64_MIN
from cranfield.measures.parse import format_value

BIG = 10**400
ONE_OF = ("NR", "recall", "ND")  # "give exactly one of" parameters of the weak-order family
BASE: dict[str, dict] = {
    "AdjP": {"generality": 10.0},
    "EP": {"NR": 1},
    "iRBU": {"p": 0.9},
    "ER": {"ND": 1},
    "ESL": {"NR": 1},
    "PRECALL": {"NR": 1},
    "PRR": {"NR": 1},
    **{  # min_rel < max_rel: each extreme of one is valid with the other at its own extreme
        n: {"min_rel": INT64_MIN, "max_rel": INT64_MAX}
        for n in ("INST", "INSQ", "BPM", "SDCG", "NERR8", "NERR9", "NERR10", "NERR11", "TBG", "U")
    },
    "IFT_Goal": {"T": 1.0, "b1": 1.0, "R1": 10.0, "min_rel": INT64_MIN, "max_rel": INT64_MAX},
    "IFT_Rate": {"A": 0.5, "b2": 1.0, "R2": 10.0, "min_rel": INT64_MIN, "max_rel": INT64_MAX},
    "IFT": {
        "T": 1.0,
        "b1": 1.0,
        "R1": 9.0,
        "A": 0.5,
        "b2": 1.0,
        "R2": 9.0,
        "min_rel": INT64_MIN,
        "max_rel": INT64_MAX,
    },
}
"""Values that make a measure complete (its required parameters, one of its criteria)."""
MEMORY_LIMIT = 30_000_000  # bytes: a few arrays of a tiny collection, with room to spare

QRELS = {"q1": {"d1": 1, "d2": 0, "d3": 1, "d6": 1}, "q2": {"d4": 1, "d5": 0}, "q3": {"d7": 0}}
RUN = {
    "q1": {"d1": 3.0, "d2": 2.0, "x": 2.0, "d3": 1.0},
    "q2": {"d5": 2.0, "d4": 1.0},
    "q3": {"d7": 1.0, "y": 1.0},
}
SIDE = dict(collection_size=1000, known={"q1": {"d1": 1}, "q2": {"d4": 1}}, target=1)


def _side(qrels: dict) -> dict:
    """SIDE with preferences, judgment groups and subtopics made of ``qrels`` itself: one
    preference sub-group holding every grade, two judgment groups (all of it; the first
    line), and each judgment for two subtopics (its grade; half of it, rounded down)."""
    topics = {q: [("j", "s", float(g), d) for d, g in docs.items()] for q, docs in qrels.items()}
    prefs = Prefs("prefs", topics)
    first = {q: dict([next(iter(docs.items()))]) for q, docs in qrels.items() if docs}
    groups = {"u1": read_qrels(qrels), "u2": read_qrels(first)}
    grades = np.array([g for docs in qrels.values() for g in docs.values()], dtype=np.int64)
    rows = [(q, "s1", d, g) for q, docs in qrels.items() for d, g in docs.items()]
    rows += [(q, "s2", d, g // 2) for q, _s, d, g in rows]
    return SIDE | {
        "prefs": prefs,
        "judgment_groups": JudgmentGroups("groups", groups, grades),
        "subtopics": Subtopics.from_rows(rows),
    }


def _judged(qrels: dict, run: dict, ties: str = "trec", side: bool = True):
    return judge(read_qrels(qrels), read_run(run), ties=ties, **(_side(qrels) if side else {}))


JR = {ties: _judged(QRELS, RUN, ties) for ties in ("trec", "weak")}


def _numeric(d) -> list[Param]:
    return [p for p in d.all_params if p.kind in ("int", "float", "gains")]


def _cases() -> list[tuple[str, str]]:
    return [(n, p.name) for n, d in sorted(REGISTRY.items()) for p in _numeric(d)]


def _base(name: str, param: str) -> dict:
    base = dict(BASE.get(name, {}))
    if param in ONE_OF:
        base = {k: v for k, v in base.items() if k not in ONE_OF}
    base.pop(param, None)
    return base


def _cutoff(d, param: str):
    """A cut-off the measure needs (and is not the parameter under test)."""
    if d.cutoff is None or not d.cutoff.required or param == "cutoff":
        return None
    return 0.5 if d.cutoff.kind == "float" else 5


def _up(x: float) -> float:
    return math.nextafter(x, math.inf)


def _down(x: float) -> float:
    return math.nextafter(x, -math.inf)


def _inside(p: Param) -> list:
    """The values just inside the declared range (its ends)."""
    if p.kind == "gains":
        lo, hi = p.at_least, p.at_most
        return [{INT64_MIN: lo, INT64_MAX: hi, 1: 5e-324, 0: 0}, {1: hi, 2: lo}]
    if p.kind == "int":
        lo = p.at_least if p.at_least is not None else p.above + 1
        hi = p.at_most if p.at_most is not None else p.below - 1
        return [lo, hi]
    lo = p.at_least if p.at_least is not None else _up(p.above)
    hi = p.at_most if p.at_most is not None else (_down(p.below) if p.below is not None else None)
    return [float(lo), float(hi) if hi is not None else sys.float_info.max]


def _outside(p: Param) -> list:
    """Python values just outside the range, and absurd ones (every one a MeasureError)."""
    if p.kind == "gains":
        return [
            {INT64_MAX + 1: 1},
            {INT64_MIN - 1: 1},
            {1: _up(p.at_most)},
            {1: _down(p.at_least)},
            {1: math.inf},
            {1: math.nan},
            {1: BIG},
            {1.5: 1},
            {True: 1},
            {1: "2"},
            [(1, 2)],
        ]
    if p.kind == "int":
        out = [BIG, -BIG, 2.5, 5.0, True, "1", math.inf, math.nan]
        if p.name != "cutoff":  # (no cut-off is None)
            out.append(None)
        if p.at_least is not None:
            out.append(p.at_least - 1)
        if p.at_most is not None:
            out += [p.at_most + 1, np.uint64(2**64 - 1)]
        return out
    out = [math.inf, -math.inf, math.nan, BIG, "0.5", True]
    if p.name != "cutoff":
        out.append(None)
    out.append(_down(p.at_least) if p.at_least is not None else p.above)
    if p.at_most is not None:
        out.append(_up(p.at_most))
    elif p.below is not None:
        out.append(p.below)
    return out


def _outside_text(p: Param) -> list[str]:
    """Measure-string values outside the range: just beyond it, 10**400, non-ASCII digits,
    infinities, NaN, numbers beyond the doubles."""
    if p.kind == "gains":
        return [
            f"{{{INT64_MAX + 1}:1}}",
            f"{{{INT64_MIN - 1}:1}}",
            f"{{1:{_up(p.at_most)!r}}}",
            "{1:1e400}",
            "{1:inf}",
            "{1:nan}",
            "{1:1,1:2}",
            "{1:2,+1:2}",
            "{1.5:1}",
            "{１:1}",
            "{1:٣}",
            "{1:" + "9" * 5000 + "}",
            "3",
        ]
    out = ["1" + "0" * 400, "-" + "1" + "0" * 400, "１", "٣", "inf", "nan", "-inf", "1e400"]
    if p.kind == "int":
        out += ["2.5", "1e3"]
        if p.at_least is not None:
            out.append(str(p.at_least - 1))
        if p.at_most is not None:
            out.append(str(p.at_most + 1))
    else:
        out += ["1e-400"] if (p.above == 0 or p.at_least not in (None, 0)) else []
        out.append(repr(_down(p.at_least)) if p.at_least is not None else repr(p.above))
        if p.at_most is not None:
            out.append(repr(_up(p.at_most)))
        elif p.below is not None:
            out.append(repr(p.below))
    return out


def _text(name: str, params: dict, cutoff) -> str:
    d = REGISTRY[name]
    ordered = [(p.name, params[p.name]) for p in d.params if p.name in params]
    s = name
    if ordered:
        s += "(" + ",".join(f"{k}={format_value(v)}" for k, v in ordered) + ")"
    if cutoff is not None:
        s += "@" + format_value(cutoff)
    return s


def _measured(m: Measure, jr) -> np.ndarray:
    """Per-query values of ``m`` on ``jr``, with the peak of memory allocated meanwhile."""
    tracemalloc.start()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            values = m.compute(jr)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < MEMORY_LIMIT, f"{m}: {peak / 1e6:.0f} MB"
    return values


def _finite_or_declared(m: Measure, values: np.ndarray) -> None:
    nan_declared = any("nan" in u.value.lower() for u in m.definition.undefined)
    ok = np.isfinite(values) | (np.isnan(values) & nan_declared)
    assert ok.all(), f"{m}: {values}"


# ---------------------------------------------------------------------------- the registry
def test_every_numeric_parameter_declares_a_range():
    for name, d in REGISTRY.items():
        for p in _numeric(d):
            lower = p.at_least is not None or p.above is not None
            upper = p.at_most is not None or p.below is not None
            assert lower and (upper or p.kind == "float"), f"{name}.{p.name}"
            if (p.name == "cutoff" and p.kind == "int") or p.name in ("NR", "ND"):
                assert p.at_most == 2**31 - 1, f"{name}.{p.name}"


@pytest.mark.parametrize(("name", "param"), _cases())
def test_values_just_inside_the_range_parse_round_trip_and_compute(name, param):
    d = REGISTRY[name]
    p = d.param(param)
    for value in _inside(p):
        params = _base(name, param)
        cutoff = _cutoff(d, param)
        if param == "cutoff":
            cutoff = value
        else:
            params[param] = value
        text = _text(name, params, cutoff)
        m = parse(text)
        assert str(m) == text
        assert Measure(name, params, cutoff) == m
        if param == "cutoff":
            assert Measure(name, params) @ value == m
        else:
            assert Measure(name, _base(name, param), cutoff)(**{param: value}) == m
        for ties, jr in JR.items():
            if ties == "weak" and d.tie_aware is None:
                continue
            values = _measured(m, jr)
            assert values.shape == (jr.num_queries,)
            _finite_or_declared(m, values)


@pytest.mark.parametrize(("name", "param"), _cases())
def test_values_outside_the_range_are_measure_errors_in_python(name, param):
    d = REGISTRY[name]
    p = d.param(param)
    base = _base(name, param)
    cutoff = _cutoff(d, param)
    for value in _outside(p):
        with pytest.raises(MeasureError, match=rf"parameter {param}\b"):
            if param == "cutoff":
                Measure(name, base, value)
            else:
                Measure(name, {**base, param: value}, cutoff)
        with pytest.raises(MeasureError, match=rf"parameter {param}\b"):
            if param == "cutoff":
                Measure(name, base) @ value
            else:
                Measure(name, base, cutoff)(**{param: value})


@pytest.mark.parametrize(("name", "param"), _cases())
def test_values_outside_the_range_are_measure_errors_in_strings(name, param):
    d = REGISTRY[name]
    p = d.param(param)
    base = _base(name, param)
    cutoff = _cutoff(d, param)
    head = _text(name, base, None if param == "cutoff" else cutoff)
    for raw in _outside_text(p):
        if param == "cutoff":
            text = head + "@" + raw
        else:
            inner = head.partition("(")[2].rstrip(")").partition(")")[0] if "(" in head else ""
            args = ",".join(x for x in (inner, f"{param}={raw}") if x)
            text = name + "(" + args + ")" + (f"@{format_value(cutoff)}" if cutoff else "")
        with pytest.raises(MeasureError) as err:
            parse(text)
        message = str(err.value)
        if raw.lstrip("-+").isascii() and raw not in ("inf", "nan", "-inf", "3"):
            assert f"parameter {param}" in message, message
        if raw.lstrip("-").isdigit() and raw.isascii() and p.kind != "gains":
            assert p.wanted() in message, message  # the declared range, in the message


def test_range_errors_name_the_parameter_and_its_range():
    cases = {
        "F@9223372036854775808": "parameter cutoff must be in [1, 2147483647]",
        "EP(NR=99999999999999999999)": "parameter NR must be in [1, 2147483647]",
        "P@1e400": "parameter cutoff must be an integer in [1, 2147483647], got '1e400'",
        "RBP(p=1e-400)": "parameter p must be in (0, 1), got 1e-400 (it would be 0",
        "nDCG(gains={1:inf})": "the gain of grade 1 must be a number, got 'inf'",
        "nDCG(gains={1:1e400})": "must be in [-1e+100, 1e+100], got 1e400 (beyond the largest",
        "nDCG(gains={1:1,1:5})": "grade 1 is given twice",
        "P@１０": "numbers are written with the ASCII digits 0-9",
        "P(rel=٣)@5": "numbers are written with the ASCII digits 0-9",
        "DCG(base=1)": "parameter base must be > 1, got 1.0",
        "RelRank(n=0)": "parameter n must be in [1, 2147483647] or last, got 0",
    }
    for text, problem in cases.items():
        with pytest.raises(MeasureError) as err:
            parse(text)
        assert problem in str(err.value), str(err.value)


def test_absurd_but_legal_values_are_accepted_and_instant():
    jr = JR["trec"]
    for text in (
        "ERR(max_grade=2000)@20",
        "RnDCG(gains={1000000000:0,1:1})",
        "P@2147483647",
        "nDCG@2147483647",
        "AP(rel=9223372036854775807)",
        "EP(NR=2147483647)",
        "PRR(ND=2147483647)",
        "RelRank(n=2147483647)",
        "PRES@2147483647",
        "Rprec(mult=2147483647.0)",
    ):
        m = parse(text)
        _finite_or_declared(m, _measured(m, jr))


# ---------------------------------------------------------------------------- Python API
def test_python_measures_are_checked_exactly_as_strings():
    P = parse("P@5")
    for bad in ({"rel": -3}, {"rel": "two"}, {"rel": 2.5}, {"rel": True}, {"foo": 1}):
        with pytest.raises(MeasureError):
            P(**bad)
    with pytest.raises(MeasureError, match="no parameter 'foo'"):
        Measure("P", {"foo": 1}, 5)
    with pytest.raises(MeasureError, match="the cut-off is the @ part"):
        P(cutoff=3)
    with pytest.raises(MeasureError, match="cutoff must be in"):
        parse("AP") @ 0
    with pytest.raises(MeasureError, match="unknown measure"):
        Measure("nDGC")
    with pytest.raises(MeasureError, match="given twice"):
        Measure("P", (("rel", 1), ("rel", 2)), 5)
    assert P(rel=np.int64(2)) == parse("P(rel=2)@5")
    assert Measure("ndcg", {"gains": {1: 2}}, np.int32(10)) == parse("nDCG(gains={1:2})@10")
    assert str(Measure("P")(rel=2) @ 10) == "P(rel=2)@10"


def test_an_incomplete_measure_cannot_be_computed():
    for m in (Measure("P"), Measure("EP"), Measure("AdjP", (), 5)):
        with pytest.raises(MeasureError, match="needs|exactly one of"):
            m.compute(JR["trec"])


def test_the_json_listing_carries_every_declared_range():
    import json

    out = run_cli("measures", "--format", "json")
    assert out.returncode == 0, out.stderr
    listed = {m["name"]: {p["name"]: p for p in m["parameters"]} for m in json.loads(out.stdout)}
    for name, d in REGISTRY.items():
        for p in d.all_params:
            shown = listed[name][p.name]
            assert shown["range"] == p.range_text(), (name, p.name)
            for bound in ("at_least", "at_most", "above", "below"):
                assert shown.get(bound) == getattr(p, bound), (name, p.name, bound)


def test_the_listing_shows_each_range(monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)  # piped, not wrapped to a terminal's width
    out = run_cli("measures", "RBP", "RelRank", "P")
    assert out.returncode == 0, out.stderr
    text = out.stdout.decode()
    assert "p (number in (0, 1); default 0.9)" in text
    assert "n (integer in [1, 2147483647] or last; default 1)" in text
    assert "cutoff (integer in [1, 2147483647]; required)" in text


# ---------------------------------------------------------------------------- extreme grades
GRADES = (INT64_MAX, INT64_MIN, 2**62, 10**15, 5 * 10**7, 1025, 2, 1, 0, -1)


def _complete(name: str) -> Measure:
    d = REGISTRY[name]
    return Measure(name, BASE.get(name, {}), _cutoff(d, ""))


@pytest.mark.parametrize("ties", ["trec", "weak"])
def test_grades_from_minus_2_63_to_2_63_on_every_measure(ties):
    qrels = {
        "a": {f"d{i}": g for i, g in enumerate(GRADES)},
        "b": {"d1": INT64_MAX},
        "c": {"d1": INT64_MIN, "d2": 1},
        "e": {"d1": 10**15, "d2": 10**15 - 1},
    }
    run = {
        "a": {f"d{i}": float(i % 3) for i in range(len(GRADES) + 2)},
        "b": {"d1": 1.0, "x": 2.0},
        "c": {"d1": 1.0, "d2": 1.0},
        "e": {"d2": 2.0, "d1": 1.0},
    }
    jr = _judged(qrels, run, ties)
    for name, d in sorted(REGISTRY.items()):
        if ties == "weak" and d.tie_aware is None:
            continue
        m = _complete(name)
        _finite_or_declared(m, _measured(m, jr))


def _err_exact(grades: list[int], gmax: int) -> Fraction:
    """ERR of a ranking in exact arithmetic (Chapelle et al. eq. 4)."""
    total, reach = Fraction(0), Fraction(1)
    for i, g in enumerate(grades, start=1):
        r = Fraction(2 ** max(g, 0) - 1, 2**gmax)
        total += reach * r / i
        reach *= 1 - r
    return total


@pytest.mark.parametrize(
    "grades",
    [[1500, 3, 0, 2000], [1024, 1023, 1], [2000, 2000], [0, 5, 1100], [3, 2, 1, 0]],
)
def test_err_with_large_grades_matches_exact_arithmetic(grades):
    qrels = {"q": {f"d{i}": g for i, g in enumerate(grades)}}
    run = {"q": {f"d{i}": float(len(grades) - i) for i in range(len(grades))}}
    jr = _judged(qrels, run)
    gmax = max(grades)
    for m, top in ((parse("ERR"), gmax), (parse(f"ERR(max_grade={gmax + 7})"), gmax + 7)):
        got = float(m.compute(jr)[0])
        assert got == pytest.approx(float(_err_exact(grades, top)), rel=1e-14, abs=1e-300)


def test_err_at_the_largest_grade():
    # R = (2^g - 1) / 2^(2^63 - 1): 1 at the top grade, 0 (below 2^-1074) at grade 5, so the
    # user stops at rank 2: ERR = 1/2
    qrels = {"q": {"a": 5, "b": INT64_MAX}}
    run = {"q": {"a": 2.0, "b": 1.0}}
    assert parse("ERR").compute(_judged(qrels, run)).tolist() == [0.5]


def test_err_stop_probability_is_correctly_rounded():
    from cranfield.measures.cg import stop_probability

    for gmax in (1, 2, 7, 53, 54, 55, 1022, 1023, 1024, 1074, 1075, 1076, 1100, 2000):
        g = np.arange(gmax + 1) if gmax < 200 else np.r_[0:70, gmax - 70 : gmax + 1]
        exact = [float(Fraction(2**x - 1, 2**gmax)) for x in g.tolist()]
        assert stop_probability(g, gmax).tolist() == exact, gmax
        if gmax <= 1023:  # the plain formula, where it does not overflow
            plain = (np.exp2(g.astype(float)) - 1.0) / 2.0**gmax
            assert stop_probability(g, gmax).tolist() == plain.tolist()


def test_ndcg_with_large_grades_matches_a_plain_computation():
    grades = {"d1": 10**15, "d2": 3, "d3": INT64_MAX, "d4": 2**62, "d5": 0}
    ranking = ["d2", "d5", "d1", "d9", "d4"]
    qrels = {"q": grades}
    run = {"q": {d: float(len(ranking) - i) for i, d in enumerate(ranking)}}
    jr = _judged(qrels, run)
    gain = {d: float(max(g, 0)) for d, g in grades.items()}
    dcg = sum(gain.get(d, 0.0) / math.log2(i + 2) for i, d in enumerate(ranking))
    ideal = sorted((g for g in gain.values() if g > 0), reverse=True)
    idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal))
    assert parse("nDCG").compute(jr)[0] == pytest.approx(dcg / idcg, rel=1e-13)
    idcg3 = sum(g / math.log2(i + 2) for i, g in enumerate(ideal[:3]))
    dcg3 = sum(gain.get(d, 0.0) / math.log2(i + 2) for i, d in enumerate(ranking[:3]))
    assert parse("nDCG@3").compute(jr)[0] == pytest.approx(dcg3 / idcg3, rel=1e-13)
    # a custom gain on the largest grade, and one on a grade no document has
    g2 = {INT64_MAX: 1.0, 7: 100.0}
    gain2 = {d: g2.get(g, float(max(g, 0))) for d, g in grades.items()}
    dcg = sum(gain2.get(d, 0.0) / math.log2(i + 2) for i, d in enumerate(ranking))
    ideal = sorted((g for g in gain2.values() if g > 0), reverse=True)
    idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal))
    m = parse(f"nDCG(gains={{{INT64_MAX}:1,7:100}})")
    assert m.compute(jr)[0] == pytest.approx(dcg / idcg, rel=1e-13)


# ---------------------------------------------------------------------------- gain table
def _msort(items: list, cmp) -> list:
    """glibc's merge sort (first half n // 2, left taken on cmp <= 0)."""
    if len(items) <= 1:
        return list(items)
    a, b = _msort(items[: len(items) // 2], cmp), _msort(items[len(items) // 2 :], cmp)
    out = []
    while a and b:
        out.append(a.pop(0) if cmp(a[0], b[0]) <= 0 else b.pop(0))
    return out + a + b


def _trec_ideal(grades: list[int], pairs: list[tuple[int, float]]) -> list[float]:
    """trec_eval 10.0 gain_init.c for one query, literally: the whole table (user pairs, then
    the grades 0..L-1 not given), merge-sorted with (int)(g1 - g2), read from the top, empty
    entries skipped, until a non-positive gain; nothing if the top entry is not positive
    (reference/trec_eval.md sec. 6.4).  Above 256 levels sorted by value (cranfield's rule)."""
    levels = max([g for g in grades if g >= 0], default=-1) + 1
    given = {g for g, _ in pairs}
    table = [(g, v, 0) for g, v in pairs]
    seen = set()
    for i, (g, v, _) in enumerate(table):
        if g not in seen and 0 <= g < levels:
            table[i] = (g, v, grades.count(g))
        seen.add(g)
    table += [(g, float(g), grades.count(g)) for g in range(levels) if g not in given]

    def cmp(x, y):
        d = x[1] - y[1]
        return int(d) if abs(d) < 2**31 else -(2**31)

    # beyond 256 levels (a table trec_eval could not afford for large grades) by value
    ordered = _msort(table, cmp) if levels <= 256 else sorted(table, key=lambda e: e[1])
    if not ordered or ordered[-1][1] <= 0:  # the top entry decides an empty list
        return []
    ideal = []
    for _g, v, n in reversed(ordered):
        if n == 0:
            continue
        if v <= 0:
            break
        ideal += [v] * n
    return ideal


@settings(max_examples=200, deadline=None, derandomize=True)
@given(
    grades=st.lists(st.one_of(st.integers(-2, 12), st.integers(250, 262)), min_size=1, max_size=12),
    pairs=st.lists(
        st.tuples(
            st.integers(-2, 45),
            st.sampled_from([0.5, 1.5, 2.25, -0.5, 3.7, 0.2, 17.4, 16.9, 3.0, 0.0, -1.0]),
        ),
        max_size=5,
        unique_by=lambda t: t[0],
    ),
)
def test_the_ideal_list_is_trec_evals_for_fractional_gains(grades, pairs):
    qrels = {"q": {f"d{i}": g for i, g in enumerate(grades)}}
    jr = _judged(qrels, {"q": {"d0": 1.0}})
    m = Measure("IDCG", {"gains": dict(pairs)})
    ideal = _trec_ideal(grades, pairs)
    expect = sum(v / math.log2(i + 2) for i, v in enumerate(ideal))
    assert m.compute(jr)[0] == pytest.approx(expect, rel=1e-12, abs=0)


def test_beyond_256_levels_fractional_gains_are_ordered_by_value():
    # trec_eval's table would hold one entry per grade 0..10**12: gains are sorted by value
    qrels = {"q": {"a": 10**12, "b": 1, "c": 2}}
    jr = _judged(qrels, {"q": {"a": 1.0}})
    m = parse("IDCG(gains={1:2.5,2:2.25})")
    expect = 1e12 + 2.5 / math.log2(3) + 2.25 / 2
    assert m.compute(jr)[0] == pytest.approx(expect, rel=1e-15)


# ---------------------------------------------------------------------------- random strings
def _value_text() -> st.SearchStrategy[str]:
    ints = st.one_of(
        st.integers(-(2**70), 2**70),
        st.sampled_from([0, 1, 2**31 - 1, 2**31, INT64_MAX, INT64_MAX + 1, INT64_MIN]),
    ).map(str)
    floats = st.floats(allow_nan=True, allow_infinity=True).map(repr)
    odd = st.sampled_from(["1e400", "1e-400", "１０", "٣", "inf", "nan", "last", "true", ".5"])
    return st.one_of(ints, floats, odd, st.text("0123456789.e+-", min_size=1, max_size=6))


@st.composite
def measure_strings(draw) -> str:
    name = draw(st.sampled_from(sorted(REGISTRY)))
    d = REGISTRY[name]
    args = []
    for p in d.params:
        if draw(st.booleans()):
            if p.kind == "gains":
                keys = draw(st.lists(_value_text(), max_size=3))
                value = "{" + ",".join(f"{k}:{draw(_value_text())}" for k in keys) + "}"
            elif p.kind == "bool":
                value = draw(st.sampled_from(["true", "false", "1", "maybe"]))
            elif p.choices:
                value = draw(st.sampled_from([*p.choices, "other"]))
            else:
                value = draw(_value_text())
            args.append(f"{p.name}={value}")
    text = name + (f"({','.join(args)})" if args else "")
    if d.cutoff is not None and draw(st.booleans()):
        text += "@" + draw(_value_text())
    return text


@settings(
    max_examples=400,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(text=measure_strings())
def test_random_measure_strings_parse_to_checked_values_or_fail_clearly(text):
    try:
        m = parse(text)
    except MeasureError:
        return
    d = m.definition
    assert parse(str(m)) == m
    assert Measure(m.name, m.params, m.cutoff) == m
    for name, value in (*m.params, *((("cutoff", m.cutoff),) if m.cutoff is not None else ())):
        p = d.param(name)
        values = value.values() if isinstance(value, dict) else [value]
        for v in values:
            if isinstance(v, int | float) and not isinstance(v, bool) and v not in p.words:
                assert math.isfinite(v)
                assert p.in_bounds(v), (text, name, v)
    jr = JR["trec"]
    try:
        values = _measured(m, jr)
    except CranfieldError as e:  # a declared error, e.g. ERR's grade above max_grade
        assert "max_grade" in str(e), str(e)
        return
    _finite_or_declared(m, values)


# ---------------------------------------------------------------------------- more extremes
def test_a_grade_of_minus_2_63_is_a_negative_grade_like_any_other():
    run = {"q": {"a": 3.0, "b": 2.0, "c": 1.0, "x": 0.5}}
    base = _judged({"q": {"a": -1, "b": 1, "c": 0}}, run)
    low = _judged({"q": {"a": INT64_MIN, "b": 1, "c": 0}}, run)
    for name in sorted(REGISTRY):
        m = _complete(name)
        assert np.array_equal(m.compute(low), m.compute(base), equal_nan=True), name


def test_many_queries_with_their_own_huge_grades_cost_what_the_input_costs():
    n = 3000
    grades = [(i * 3_074_457_345_618_258_602) % INT64_MAX for i in range(1, n + 1)]
    qrels = {f"q{i}": {"a": g, "b": 1} for i, g in enumerate(grades)}
    run = {f"q{i}": {"a": 2.0, "b": 1.0} for i in range(n)}
    jr = _judged(qrels, run, side=False)
    for text in ("nDCG", "nDCG(gains={1:0.5})", "RBP", "G", "ERR", "RnDCG", "CG@2"):
        m = parse(text)
        values = _measured(m, jr)
        assert np.isfinite(values).all(), text
    # the ranking is ideal for every query
    assert parse("nDCG(gains={1:0.5})").compute(jr).tolist() == [1.0] * n


@pytest.mark.parametrize("N", [2**31, 2**53, 2**62, INT64_MAX])
def test_normalized_measures_at_any_collection_size(N):
    # q: relevant documents at rank 1 and (missing) at rank N; n = 2
    qrels = {"q": {"a": 1, "b": 1, "c": 0}}
    run = {"q": {"a": 2.0, "c": 1.0}}
    from dataclasses import replace

    from cranfield.base.limits import MAX_DOCUMENTS
    from cranfield.errors import ParameterError

    if N > MAX_DOCUMENTS:  # beyond what a user may give; the measures must still hold there
        with pytest.raises(ParameterError, match="collection size must be <="):
            judge(read_qrels(qrels), read_run(run), collection_size=N)
    jr = judge(read_qrels(qrels), read_run(run), collection_size=3)
    jr = replace(jr, collection_size=np.array([N], dtype=np.int64))
    n, ranks = 2, [1, N]
    log_sum = sum(math.log(r) for r in ranks)
    worst = math.log(N) + math.log(N - 1) - math.lgamma(n + 1)
    expect = {
        "Pnorm": 1 - (log_sum - math.lgamma(n + 1)) / worst,
        "Rnorm": 1 - (sum(ranks) - 3) / (n * (N - n)),
        "RankRecall": 3 / sum(ranks),
        "LogPrecision": math.lgamma(n + 1) / log_sum,
    }
    for name, value in expect.items():
        got = parse(name).compute(jr)[0]
        assert got == pytest.approx(value, rel=1e-12), name


def test_gain_curves_stop_at_the_longest_ranking_whatever_the_cut_off():
    from cranfield import curves

    qrels = {"q1": {"d1": 2, "d2": 1}, "q2": {"d3": 1}}
    run = {"q1": {"d1": 2.0, "d2": 1.0, "d5": 0.5}, "q2": {"d3": 1.0}}
    tracemalloc.start()
    try:
        table = curves.gain(qrels, run, cutoffs=[3, 10**9])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < MEMORY_LIMIT
    at = table.set_index(["curve", "rank"])["value"]
    for curve in ("cg", "dcg", "icg", "idcg", "ncg", "ndcg"):
        assert at[(curve, 10**9)] == at[(curve, 3)], curve  # flat after the last rank
    assert at[("cg", 3)] == pytest.approx((3 + 1) / 2)


def test_curve_cut_offs_and_recall_levels_are_bounded():
    from cranfield.base.limits import MAX_CUTOFF
    from cranfield.curves import parse_cutoffs, parse_levels
    from cranfield.errors import ParameterError

    assert parse_cutoffs([MAX_CUTOFF]) == (MAX_CUTOFF,)
    for bad in ([MAX_CUTOFF + 1], [10**30], [math.inf], "99999999999999999999"):
        with pytest.raises(ParameterError, match="cut-off"):
            parse_cutoffs(bad)
    assert parse_levels("1e-30,1/3") == (Fraction(1, 10**30), Fraction(1, 3))
    for bad in ("1e-999999999", "1e999999999", "nan", "inf", "1e-1001", "1e-31"):
        with pytest.raises(ParameterError, match="recall level"):
            parse_levels(bad)


def test_recall_levels_with_long_denominators_count_exactly():
    from cranfield.curves.recall_levels import ceil_count, floor_count

    R = np.array([0, 1, 7, 10**6], dtype=np.int64)
    level = Fraction(1, 10**40) + Fraction(1, 2)
    assert ceil_count(level, R).tolist() == [-(-level * r // 1) for r in R.tolist()]
    h, t = floor_count(level, R)
    assert h.tolist() == [level * r // 1 for r in R.tolist()]
    assert t.tolist() == [float(level * r - level * r // 1) for r in R.tolist()]


def test_trec_eval_front_end_keeps_trec_evals_long_cut_offs_without_a_traceback(tmp_path):
    qrels = tmp_path / "qrels"
    qrels.write_text("1 0 a 1\n1 0 b 0\n1 0 c 2\n")
    run = tmp_path / "run"
    run.write_text("1 Q0 a 1 3.0 r\n1 Q0 x 2 2.0 r\n1 Q0 c 3 1.0 r\n")
    big = "9223372036854775807"
    args = ["trec_eval", "-m", f"P.{big}", "-m", f"unj.{big}", "-m", f"ndcg_cut.{big}"]
    out = run_cli(*args, "-m", f"ndcg.{10**30}=2,1=0.5", str(qrels), str(run))
    assert out.returncode == 0, out.stderr.decode()
    lines = {ln.split()[0]: ln.split()[2] for ln in out.stdout.decode().splitlines()}
    assert lines[f"P_{big}"] == "0.0000"  # 2 relevant / 2**63-1
    assert lines[f"unj_{big}"] == "0.0000"
    # gains a, x, c = 1, 0, 2 at ranks 1..3; ideal 2, 1
    dcg = 1 + 2 / math.log2(4)
    assert float(lines[f"ndcg_cut_{big}"]) == pytest.approx(dcg / (2 + 1 / math.log2(3)), abs=5e-5)
