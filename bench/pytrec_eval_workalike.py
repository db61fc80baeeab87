"""New evaluator + evaluate on 1 query x 10 documents, and evaluate on a reused evaluator:
cranfield.compat.pytrec_eval against pytrec_eval (timings by hand, not a test).

Usage: PYTHONPATH=src python bench/pytrec_eval_workalike.py
"""

import timeit

import pytrec_eval

from cranfield.compat import pytrec_eval as workalike

QRELS = {"q1": {f"d{i}": i % 3 for i in range(10)}}
RUN = {"q1": {f"d{i}": float(10 - i) for i in range(10)}}


def many() -> None:
    """1,000 queries of 100 documents, {'official'}: one evaluator, one evaluate."""
    import random

    rng = random.Random(1)
    qrels = {f"q{i}": {f"d{j}": rng.randint(0, 2) for j in range(0, 100, 3)} for i in range(1000)}
    run = {f"q{i}": {f"d{j}": rng.random() for j in range(100)} for i in range(1000)}
    for name, mod in (("pytrec_eval", pytrec_eval), ("cranfield", workalike)):
        best = min(
            timeit.repeat(
                lambda mod=mod: mod.RelevanceEvaluator(qrels, {"official"}).evaluate(run),
                number=1,
                repeat=3,
            )
        )
        print(f"1000 queries x 100 docs, official   {name:12} {best * 1e3:8.1f} ms")


def best_of(fn) -> float:
    fn()
    n, _ = timeit.Timer(fn).autorange()
    return min(timeit.repeat(fn, number=n, repeat=5)) / n


for measures in ({"map"}, {"map", "ndcg_cut.10", "P.5"}, {"official"}, {"all_trec"}):
    for name, mod in (("pytrec_eval", pytrec_eval), ("cranfield", workalike)):

        def once(mod=mod, measures=measures):
            return mod.RelevanceEvaluator(QRELS, measures).evaluate(RUN)

        evaluator = mod.RelevanceEvaluator(QRELS, measures)
        new = best_of(once)
        reused = best_of(lambda evaluator=evaluator: evaluator.evaluate(RUN))
        print(
            f"{sorted(measures)!s:40} {name:12} new {new * 1e6:8.1f} us   "
            f"reused {reused * 1e6:8.1f} us"
        )

many()
