"""Every declared parameter range of the registry at its boundaries: values just inside parse,
round-trip and compute quickly and without huge allocation; values outside are MeasureErrors
naming the parameter and its range, in Python and in strings; the listings carry every range."""

from __future__ import annotations

import math
import sys

import numpy as np
import pytest
from _extremes import BASE, BIG, JR, ONE_OF, _cutoff, _finite_or_declared, _measured, _numeric

from conftest import run_cli
from cranfield.errors import MeasureError
from cranfield.measures import REGISTRY, Measure, Param, parse
from cranfield.measures.measure_object import format_value
from cranfield.measures.params import INT64_MAX, INT64_MIN


def _cases() -> list[tuple[str, str]]:
    return [(n, p.name) for n, d in sorted(REGISTRY.items()) for p in _numeric(d)]


def _base(name: str, param: str) -> dict:
    base = dict(BASE.get(name, {}))
    if param in ONE_OF:
        base = {k: v for k, v in base.items() if k not in ONE_OF}
    base.pop(param, None)
    return base


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
