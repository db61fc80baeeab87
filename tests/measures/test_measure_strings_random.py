"""Random measure strings (hypothesis): each one parses to checked values or fails with one
clear MeasureError."""

from __future__ import annotations

import math

from _extremes import JR, _finite_or_declared, _measured
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cranfield.errors import CranfieldError, MeasureError
from cranfield.measures import REGISTRY, Measure, parse
from cranfield.measures.params import INT64_MAX, INT64_MIN


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
