"""``Results.of_core`` (the small path's constructor, which skips the frozen dataclass's
field-by-field ``__init__``) makes exactly what the constructor makes: every declared field,
with the defaults of those it is not given, and nothing else."""

from __future__ import annotations

import dataclasses

import numpy as np

import cranfield
from cranfield.measures import parse
from cranfield.results.tables import Results


def _args():
    measures = (parse("AP"), parse("P@10"))
    values = np.array([[0.5, 0.1], [0.25, 0.3]])
    summary = {"num_q": 2, "num_ret": 20, "num_rel": 5, "num_rel_ret": 3}
    notes = {"run_only_queries": [], "missing_queries": ["q3"]}
    return ("run", ("q1", "q2"), ("AP", "P@10"), measures, values, summary, notes)


def test_of_core_equals_the_constructor_field_by_field():
    made, fast = Results(*_args()), Results.of_core(*_args())
    assert type(fast) is Results
    for f in dataclasses.fields(Results):
        a, b = getattr(made, f.name), getattr(fast, f.name)
        if isinstance(a, np.ndarray):
            assert a.tobytes() == b.tobytes() and a.shape == b.shape, f.name
        else:
            assert a == b, f.name
    assert set(vars(fast)) == set(vars(made))  # no field more, none less
    assert fast.aggregate() == made.aggregate()


def test_the_small_path_gives_the_general_paths_results(monkeypatch):
    """Evaluator.evaluate on plain dicts (the core, Results.of_core) against the general path
    (names= sends it there): every field equal."""
    qrels = {"q1": {"a": 1, "b": 0, "c": 2}, "q2": {"a": 1}}
    run = {"q1": {"a": 1.0, "c": 3.0, "x": 0.5}, "q2": {"b": 2.0, "a": 2.0}}
    measures = ["AP", "nDCG@10", "P@10"]
    made = []
    real = Results.of_core
    monkeypatch.setattr(Results, "of_core", lambda *a: made.append(1) or real(*a))
    fast = cranfield.Evaluator(qrels, measures).evaluate(run)
    assert made == [1]  # the small path made it
    slow = cranfield.evaluate(qrels, run, measures, names=["run"])
    for f in dataclasses.fields(Results):
        a, b = getattr(fast, f.name), getattr(slow, f.name)
        if isinstance(a, np.ndarray):
            assert a.tobytes() == b.tobytes(), f.name
        elif f.name == "measures":
            assert [m.name for m in a] == [m.name for m in b]
        else:
            assert a == b, f.name
