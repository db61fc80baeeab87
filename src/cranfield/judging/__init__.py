"""Judging: a run ordered by its tie policy (``ordering``) and joined with the qrels
(``join``: judge) into JudgedRankings (``rankings``), with the judging options and side inputs
(``options``, ``side_inputs``) and the one path from inputs to named judged runs (``runs``:
judge_many).
"""

from cranfield.base.moved_paths import former_names

# the names of the module of the same name before the stage packages: for one release
__getattr__ = former_names(__name__)
