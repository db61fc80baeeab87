"""What the tests of measures at extreme numbers share: values that make each measure
complete, a tiny judged collection (with every side input, under trec and weak ties), the
memory limit its computations must stay under (``tracemalloc``: numpy reports its buffers to
it, so a computation whose memory depended on a parameter's value would show gigabytes), and
a measure computed with its values checked to be finite or declared."""

from __future__ import annotations

import tracemalloc
import warnings

import numpy as np

from cranfield.io import read_qrels, read_run
from cranfield.io.trec.judgment_files import JudgmentGroups, Prefs
from cranfield.io.trec.subtopics import Subtopics
from cranfield.judging.join import judge
from cranfield.measures import Measure, Param
from cranfield.measures.params import INT64_MAX, INT64_MIN

BIG = 10**400
ONE_OF = ("NR", "recall", "ND")  # "give exactly one of" parameters of the weak-order family
BASE: dict[str, dict] = {
    "AdjP": {"generality": 10.0},
    "EP": {"NR": 1},
    "iRBU": {"p": 0.9},
    "ER": {"ND": 1},
    "ESL": {"NR": 1},
    "PRECALL": {"NR": 1},
    "PRR": {"NR": 1},
    **{  # min_rel < max_rel: each extreme of one is valid with the other at its own extreme
        n: {"min_rel": INT64_MIN, "max_rel": INT64_MAX}
        for n in ("INST", "INSQ", "BPM", "SDCG", "NERR8", "NERR9", "NERR10", "NERR11", "TBG", "U")
    },
    "IFT_Goal": {"T": 1.0, "b1": 1.0, "R1": 10.0, "min_rel": INT64_MIN, "max_rel": INT64_MAX},
    "IFT_Rate": {"A": 0.5, "b2": 1.0, "R2": 10.0, "min_rel": INT64_MIN, "max_rel": INT64_MAX},
    "IFT": {
        "T": 1.0,
        "b1": 1.0,
        "R1": 9.0,
        "A": 0.5,
        "b2": 1.0,
        "R2": 9.0,
        "min_rel": INT64_MIN,
        "max_rel": INT64_MAX,
    },
}
"""Values that make a measure complete (its required parameters, one of its criteria)."""
MEMORY_LIMIT = 30_000_000  # bytes: a few arrays of a tiny collection, with room to spare

QRELS = {"q1": {"d1": 1, "d2": 0, "d3": 1, "d6": 1}, "q2": {"d4": 1, "d5": 0}, "q3": {"d7": 0}}
RUN = {
    "q1": {"d1": 3.0, "d2": 2.0, "x": 2.0, "d3": 1.0},
    "q2": {"d5": 2.0, "d4": 1.0},
    "q3": {"d7": 1.0, "y": 1.0},
}
SIDE = dict(collection_size=1000, known={"q1": {"d1": 1}, "q2": {"d4": 1}}, target=1)


def _side(qrels: dict) -> dict:
    """SIDE with preferences, judgment groups and subtopics made of ``qrels`` itself: one
    preference sub-group holding every grade, two judgment groups (all of it; the first
    line), and each judgment for two subtopics (its grade; half of it, rounded down)."""
    topics = {q: [("j", "s", float(g), d) for d, g in docs.items()] for q, docs in qrels.items()}
    prefs = Prefs("prefs", topics)
    first = {q: dict([next(iter(docs.items()))]) for q, docs in qrels.items() if docs}
    groups = {"u1": read_qrels(qrels), "u2": read_qrels(first)}
    grades = np.array([g for docs in qrels.values() for g in docs.values()], dtype=np.int64)
    rows = [(q, "s1", d, g) for q, docs in qrels.items() for d, g in docs.items()]
    rows += [(q, "s2", d, g // 2) for q, _s, d, g in rows]
    return SIDE | {
        "prefs": prefs,
        "judgment_groups": JudgmentGroups("groups", groups, grades),
        "subtopics": Subtopics.from_rows(rows),
    }


def _judged(qrels: dict, run: dict, ties: str = "trec", side: bool = True):
    return judge(read_qrels(qrels), read_run(run), ties=ties, **(_side(qrels) if side else {}))


JR = {ties: _judged(QRELS, RUN, ties) for ties in ("trec", "weak")}


def _numeric(d) -> list[Param]:
    return [p for p in d.all_params if p.kind in ("int", "float", "gains")]


def _cutoff(d, param: str):
    """A cut-off the measure needs (and is not the parameter under test)."""
    if d.cutoff is None or not d.cutoff.required or param == "cutoff":
        return None
    return 0.5 if d.cutoff.kind == "float" else 5


def _measured(m: Measure, jr) -> np.ndarray:
    """Per-query values of ``m`` on ``jr``, with the peak of memory allocated meanwhile."""
    tracemalloc.start()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            values = m.compute(jr)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < MEMORY_LIMIT, f"{m}: {peak / 1e6:.0f} MB"
    return values


def _finite_or_declared(m: Measure, values: np.ndarray) -> None:
    nan_declared = any("nan" in u.value.lower() for u in m.definition.undefined)
    ok = np.isfinite(values) | (np.isnan(values) & nan_declared)
    assert ok.all(), f"{m}: {values}"
