"""Nugget evaluation of RAG responses: AutoNuggetizer's assignment files read and scored.

::

    import cranfield.nuggets as nuggets
    a = nuggets.read(["run-a.jsonl", "run-b.jsonl"])   # NuggetAssignments
    res = nuggets.score(a)                               # ResultsSet: one Results per run
    res["run-a"].aggregate()    # {"strict_vital": ..., "strict_all": ..., "vital": ..., "all": ...}
    cranfield.compare(res, ["vital", "all"])             # paired tests over the queries

See ``docs/nuggets.md``.
"""

from cranfield.nuggets.reader import ASSIGNMENTS, IMPORTANCES, NuggetAssignments, read
from cranfield.nuggets.scores import SCORES, NuggetScore, ScoreDef, response_scores, score

__all__ = [
    "ASSIGNMENTS",
    "IMPORTANCES",
    "SCORES",
    "NuggetAssignments",
    "NuggetScore",
    "ScoreDef",
    "read",
    "response_scores",
    "score",
]
