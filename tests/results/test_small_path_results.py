"""The Results of the compiled core's small path (``results/core_dicts.made_results``, which
skips the frozen dataclass's ``__init__``) equal the general path's, field by field."""

from __future__ import annotations

import dataclasses

import numpy as np

import cranfield
from cranfield.results import core_dicts
from cranfield.results.tables import Results


def test_the_small_path_gives_the_general_paths_results(monkeypatch):
    """Evaluator.evaluate on plain dicts (the core, made_results) against the general path
    (names= sends it there): every field equal."""
    qrels = {"q1": {"a": 1, "b": 0, "c": 2}, "q2": {"a": 1}}
    run = {"q1": {"a": 1.0, "c": 3.0, "x": 0.5}, "q2": {"b": 2.0, "a": 2.0}}
    measures = ["AP", "nDCG@10", "P@10"]
    made = []
    real = core_dicts.made_results
    monkeypatch.setattr(core_dicts, "made_results", lambda *a: made.append(1) or real(*a))
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
