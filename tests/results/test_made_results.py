"""``core_dicts.made_results`` (the compiled core's Results, made without the dataclass's
``__init__``) holds every field ``Results(...)`` would: a field added to Results later with a
default this helper does not set fails here, not in a user's evaluation."""

from __future__ import annotations

import dataclasses

import numpy as np

import cranfield
from cranfield.measures import parse
from cranfield.results.core_dicts import made_results
from cranfield.results.tables import Results


def test_made_results_has_every_field_results_init_sets() -> None:
    values = np.array([[0.5, 1.0]])
    args = ("run", ("q1",), ("AP", "P@10"), (parse("AP"), parse("P@10")), values)
    summary = {"queries": 1, "retrieved": 2, "relevant": 1, "relevant_retrieved": 1}
    notes = {"run_only_queries": [], "missing_queries": []}
    made = made_results(*args, dict(summary), dict(notes))
    init = Results(*args, dict(summary), dict(notes))
    for f in dataclasses.fields(Results):
        assert f.name in vars(made), f.name
        got, want = getattr(made, f.name), getattr(init, f.name)
        assert got is want or got == want, f.name
    # the defaults are fresh per Results, as default_factory makes them
    other = made_results(*args, {}, {})
    assert other.aggregation is not made.aggregation and other.parts is not made.parts


def test_an_evaluator_results_work_as_an_init_made_one() -> None:
    qrels = {"q1": {"d1": 1, "d2": 0}, "q2": {"d3": 2}}
    run = {"q1": {"d1": 0.5, "d2": 0.7}, "q2": {"d3": 1.0, "d4": 2.0}}
    res = cranfield.Evaluator(qrels, ["AP", "P@1"]).evaluate(run)
    assert dataclasses.replace(res, run="x").run == "x"  # replace() reads every field
    # AP: q1 1/2 (d1 at rank 2), q2 1/2 (d3 at rank 2); P@1: 0 and 0
    assert res.aggregate() == {"AP": 0.5, "P@1": 0.0}
    assert res.values.tolist() == [[0.5, 0.0], [0.5, 0.0]]
