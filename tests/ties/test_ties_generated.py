"""Every declared tie-aware form against brute force, generated from the registry.

For each measure that declares a tie-aware form, the measure strings come from its
declaration's parameter shapes (each choice of a ``str`` parameter, ``bool`` parameters both
ways, the required parameters at a value inside their range, a cut-off when it takes one), not
from a hand-kept list, so a new declaration is covered the day it is made.  The oracle is the
definition of the tie-aware form (``measures/registry.py``: the expectation over uniformly
random tie-breaking): the measure's plain form, computed by cranfield under the ``given``
policy on every linear order consistent with the ties, averaged.  The plain forms are checked
against trec_eval, the peers and the papers elsewhere; here only the expectation is tested.
"""

from __future__ import annotations

import itertools
import math
import random
import warnings

import numpy as np
import pytest

from cranfield import evaluate
from cranfield.errors import MeasureError
from cranfield.io.trec.subtopics import Subtopics
from cranfield.measures import REGISTRY, parse
from cranfield.measures.families import load_all
from cranfield.measures.measure_object import format_value

load_all()


def _inside(p) -> object:
    """A value inside the parameter's declared range, for a required parameter."""
    if p.kind == "int":
        lo = p.at_least if p.at_least is not None else (p.above + 1 if p.above is not None else 1)
        return max(int(lo), 2) if p.at_most is None or p.at_most >= 2 else int(lo)
    if p.kind == "float":
        lo = p.at_least if p.at_least is not None else p.above
        hi = p.at_most if p.at_most is not None else p.below
        if lo is not None and hi is not None:
            return (lo + hi) / 2
        return float(lo) + 1.0 if lo is not None else 1.0
    if p.kind == "str":
        return p.choices[0]
    if p.kind == "bool":
        return True
    raise AssertionError(f"no value for a required {p.kind} parameter {p.name}")


def _variants(name: str) -> list[str]:
    """The measure strings of one declaration: every shape its parameters declare."""
    d = REGISTRY[name]
    required = {p.name: _inside(p) for p in d.params if p.required}
    shapes: list[dict] = [required]
    for p in d.params:
        if p.kind == "str" and p.choices:
            shapes += [{**required, p.name: c} for c in p.choices]
        elif p.kind == "bool":
            shapes += [{**required, p.name: v} for v in (True, False)]
        elif not p.required and p.default is None and p.kind in ("int", "float"):
            shapes.append({**required, p.name: _inside(p)})  # an optional criterion (NR, ND)
    cutoffs = [None] if d.cutoff is None else [2, 5] + ([] if d.cutoff.required else [None])
    out = []
    for params, k in itertools.product(shapes, cutoffs):
        ordered = [(p.name, params[p.name]) for p in d.params if p.name in params]
        s = name + (
            "(" + ",".join(f"{a}={format_value(v)}" for a, v in ordered) + ")" if ordered else ""
        )
        s += "" if k is None else f"@{format_value(k)}"
        try:
            parse(s)
        except MeasureError:
            continue  # a combination the declaration's check refuses (exactly one of NR, ND)
        out.append(s)
    return sorted(set(out))


TIE_AWARE = sorted(
    n
    for n, d in REGISTRY.items()
    if d.tie_aware is not None and not d.order_invariant and d.tie_form == "expectation"
)
LABELS = {n: _variants(n) for n in TIE_AWARE}


def test_a_tie_form_by_definition_names_the_test_of_its_definition():
    """PRR and PRECALL are defined on weak orderings by their source (a ratio of expectations,
    not an expected ratio): each names the enumeration test of that definition."""
    by_definition = {n: d for n, d in REGISTRY.items() if d.tie_form == "definition"}
    assert set(by_definition) == {"PRR", "PRECALL"}
    for d in by_definition.values():
        assert any("tests/ties/test_ties_enumeration_" in t for t in d.checked_by), d.name


def test_every_tie_aware_declaration_has_measure_strings():
    assert TIE_AWARE, "the registry declares no tie-aware form"
    assert [n for n, v in LABELS.items() if not v] == []


def _collection(rng: random.Random):
    """One query: tie groups of up to 3 documents (at most 72 tie-breakings), grades -1..2
    or absent from the qrels, and a relevant document that is not retrieved."""
    levels = [rng.choice([1, 1, 2, 3]) for _ in range(rng.randint(2, 5))]
    while math.prod(math.factorial(s) for s in levels) > 72:  # at most 72 tie-breakings
        levels[levels.index(max(levels))] -= 1
    grades = [rng.choice([None, -1, 0, 0, 1, 2]) for _ in range(sum(levels))]
    qrels = {f"d{i}": g for i, g in enumerate(grades) if g is not None}
    qrels["u"] = 1
    return grades, levels, qrels


def _side(qrels):
    known = {"q": {"k0": 1, **{d: 1 for d, g in qrels.items() if g > 0 and d != "d0"}}}
    rows = [("q", s, d, g // k) for d, g in qrels.items() for s, k in (("s1", 1), ("s2", 2))]
    return {
        "collection_size": 40,
        "known": known,
        "target": 2,
        "subtopics": Subtopics.from_rows(rows),
    }


def _expected_over_orders(labels, levels, qrels, side) -> np.ndarray:
    groups, start = [], 0
    for size in levels:
        groups.append(list(range(start, start + size)))
        start += size
    n = start
    values = []
    for combo in itertools.product(*(itertools.permutations(g) for g in groups)):
        order = [i for part in combo for i in part]
        run = {"q": {f"d{i}": float(n - r) for r, i in enumerate(order)}}
        res = evaluate({"q": qrels}, run, labels, ties="given", **side)
        values.append(res.values[0])
    return np.mean(values, axis=0)


@pytest.mark.parametrize("name", TIE_AWARE)
def test_the_tie_aware_form_is_the_average_over_every_tie_breaking(name):
    labels = LABELS[name]
    rng = random.Random(f"ties {name}")
    for _ in range(6):
        grades, levels, qrels = _collection(rng)
        n = len(grades)
        run = {"q": {f"d{i}": float(len(levels) - lv) for lv, size in enumerate(levels)
                     for i in range(sum(levels[:lv]), sum(levels[:lv]) + size)}}  # fmt: skip
        assert len(run["q"]) == n
        side = _side(qrels)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            weak = evaluate({"q": qrels}, run, labels, ties="weak", **side).values[0]
            expected = _expected_over_orders(labels, levels, qrels, side)
        np.testing.assert_allclose(
            weak, expected, rtol=1e-9, atol=1e-12, equal_nan=True, err_msg=f"{labels} {qrels}"
        )
