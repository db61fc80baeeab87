"""An Evaluator on plain dicts (the compiled core's path) can be pickled, as before the core
indexed its qrels (process pools and data loaders send it to workers): the copy gives the
same values as the original, and a value computed by hand."""

from __future__ import annotations

import pickle

import cranfield


def test_a_pickled_evaluator_evaluates_as_the_original() -> None:
    qrels = {"q1": {"a": 1, "b": 0, "c": 2}, "q2": {"x": 1}}
    run = {"q1": {"a": 3.0, "b": 2.0, "c": 1.0}, "q2": {"y": 1.0, "x": 0.5}}
    ev = cranfield.Evaluator(qrels, ["AP", "P@2"], rel=1)
    copy = pickle.loads(pickle.dumps(ev))
    got = copy.evaluate(run)
    assert got.values.tolist() == ev.evaluate(run).values.tolist()
    # q1: relevant at ranks 1 and 3 of R = 2: AP = (1/1 + 2/3) / 2; q2: rank 2, R = 1
    assert got.values.tolist() == [[(1 + 2 / 3) / 2, 0.5], [1 / 2, 0.5]]
    assert copy.evaluate_query("q2", run["q2"]) == {"AP": 0.5, "P@2": 0.5}
