"""The tie-aware forms of P_IA, StRecall and AP_IA (``--ties weak``): the mean of the
measure over every order of the tied documents, each order measured by pyndeval (ndeval's C
code), with and without a depth cut inside a tie group."""

from __future__ import annotations

import itertools
import math
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cranfield
from cranfield.errors import MeasureError
from cranfield.io.trec.subtopics import Subtopics

pyndeval = pytest.importorskip("pyndeval")

MEASURES = {  # cranfield -> pyndeval, for judged_only false / true
    False: {
        **{f"P_IA@{k}": f"P-IA@{k}" for k in (1, 2, 3, 5)},
        **{f"StRecall@{k}": f"strec@{k}" for k in (1, 2, 3, 5)},
        "AP_IA": "MAP-IA",
    },
    True: {"P_IA(judged_only=true)@2": "P-IA@2", "AP_IA(judged_only=true)": "MAP-IA"},
}


def _orders(docs: dict[str, float]):
    """Every ranking consistent with the scores (ties in any order)."""
    levels = [[d for d in docs if docs[d] == s] for s in sorted(set(docs.values()), reverse=True)]
    for parts in itertools.product(*(itertools.permutations(level) for level in levels)):
        yield [d for part in parts for d in part]


def _expected(rows, run, rel, judged_only, depth=None):
    """Per query and pyndeval measure: the mean over the orders of the query's ranking."""
    judged = {(q, d) for q, _s, d, _g in rows}
    names = sorted(set(MEASURES[judged_only].values()))
    ev = pyndeval.RelevanceEvaluator(rows, names, relevance_level=rel)
    out = {}
    for q, docs in run.items():
        total, count = dict.fromkeys(names, 0.0), 0
        for order in _orders(docs):
            order = order[:depth] if depth else order
            if judged_only:
                order = [d for d in order if (q, d) in judged]
            scored = [(q, d, float(len(order) - i)) for i, d in enumerate(order)]
            got = {r["query_id"]: r for r in ev.evaluate_iter(scored)}
            count += 1
            for n in names:
                total[n] += got[q][n] if q in got else 0.0
        out[q] = {n: t / count for n, t in total.items()}
    return out


def _check(rows, run, rel, depth=None):
    sub = Subtopics.from_rows(rows)
    run = {q: docs for q, docs in run.items() if docs}
    for judged_only in (False, True):
        if judged_only and depth is not None:
            continue
        measures = MEASURES[judged_only]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = cranfield.evaluate(  # the run's queries: those the oracle computes
                sub, run, list(measures), subtopics=sub, ties="weak", rel=rel, depth=depth,
                complete=False,
            )  # fmt: skip
        want = _expected(rows, run, rel, judged_only, depth)
        for i, q in enumerate(res.query_ids):
            for j, label in enumerate(res.labels):
                assert res.values[i, j] == pytest.approx(
                    want[q][measures[label]], rel=1e-9, abs=1e-12
                ), (q, label)


ROWS = [
    ("q1", "s1", "a", 1),
    ("q1", "s2", "a", 1),
    ("q1", "s1", "b", 1),
    ("q1", "s2", "c", 2),
    ("q1", "s3", "d", 1),
    ("q1", "s3", "e", 0),
    ("q2", "s1", "f", 0),
]
RUN = {
    "q1": {"a": 2.0, "b": 2.0, "x": 2.0, "c": 1.0, "d": 1.0, "e": 0.5},
    "q2": {"f": 1.0, "g": 1.0},
}


@st.composite
def collections(draw):
    rows, run = [], {}
    for qi in range(draw(st.integers(1, 3))):
        q = f"q{qi}"
        docs = [f"d{j}" for j in range(draw(st.integers(1, 6)))]
        for d in docs:
            for s in draw(st.lists(st.sampled_from(["s1", "s2", "s3"]), max_size=3, unique=True)):
                rows.append((q, s, d, draw(st.integers(0, 2))))
        ranked = draw(st.lists(st.sampled_from([*docs, "u1", "u2"]), max_size=5, unique=True))
        run[q] = {d: float(draw(st.integers(0, 2))) for d in ranked}
    if not any(r[:3] == ("q0", "s1", "d0") for r in rows):
        rows.append(("q0", "s1", "d0", 1))
    run.setdefault("q0", {}).setdefault("d0", 1.0)
    return rows, run


def test_tie_aware_forms_are_means_over_tie_breakings():
    for rel in (1, 2):
        _check(ROWS, RUN, rel)


@pytest.mark.slow
@settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(collections(), st.integers(0, 2))
def test_generated_tie_aware_forms_are_means_over_tie_breakings(collection, rel):
    _check(*collection, rel)


@pytest.mark.parametrize("depth", [1, 2, 4])
def test_tie_aware_forms_under_a_depth_cut(depth):
    """A cut inside a tie group: the expectation over which of its documents are kept."""
    _check(ROWS, RUN, 1, depth=depth)
    sub = Subtopics.from_rows(ROWS)
    with pytest.raises(MeasureError, match="AP_IA has no closed form"):
        cranfield.evaluate(
            sub, RUN, ["AP_IA(judged_only=true)"], subtopics=sub, ties="weak", depth=2
        )


def test_measures_without_a_tie_aware_form_refuse_weak_ties():
    sub = Subtopics.from_rows(ROWS)
    for name in ("alpha_nDCG@5", "ERR_IA@5", "NRBP", "nNRBP", "alpha_DCG@5", "nERR_IA@5"):
        with pytest.raises(MeasureError, match="no tie-aware form"):
            cranfield.evaluate(sub, RUN, [name], subtopics=sub, ties="weak")


def test_without_ties_the_tie_aware_forms_equal_the_plain_ones():
    run = {q: {d: s + i * 1e-3 for i, (d, s) in enumerate(docs.items())} for q, docs in RUN.items()}
    sub = Subtopics.from_rows(ROWS)
    names = list(MEASURES[False]) + list(MEASURES[True])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        weak = cranfield.evaluate(sub, run, names, subtopics=sub, ties="weak")
        plain = cranfield.evaluate(sub, run, names, subtopics=sub)
    assert all(
        math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-15)
        for a, b in zip(weak.values.ravel(), plain.values.ravel(), strict=True)
    )


def test_tie_ranges_refuse_measures_that_read_subtopics():
    """The tie analysis's best and worst orders put a tie group's relevant documents first or
    last by grade; for a measure of subtopics they are not its extremes.  Here d1 covers one
    subtopic and d2 two, tied at the top: by grade both orders are "best", yet P_IA@1 is 1/2
    with d1 first and 1 with d2 first (brute force over both orders); the analysis refuses
    rather than print a best that is not one."""
    from cranfield.ties.analysis import tie_ranges

    rows = [("q", "s1", "d1", 1), ("q", "s1", "d2", 1), ("q", "s2", "d2", 1)]
    sub = Subtopics.from_rows(rows)
    run = {"q": {"d1": 1.0, "d2": 1.0}}
    values = set()
    for first in ("d1", "d2"):
        given = {"q": {first: 2.0, ({"d1", "d2"} - {first}).pop(): 1.0}}
        values.add(float(cranfield.evaluate(sub, given, ["P_IA@1"], subtopics=sub).values[0, 0]))
    assert values == {0.5, 1.0}
    for name in ("P_IA@1", "StRecall@1", "AP_IA", "alpha_nDCG@2"):
        with pytest.raises(cranfield.ParameterError, match="reads subtopic judgments"):
            tie_ranges(sub, run, [name], subtopics=sub)
    (tr,) = tie_ranges(sub, run, ["P@1"], subtopics=sub)  # grades alone: analysed
    assert (tr.worst[0, 0], tr.best[0, 0]) == (1.0, 1.0)


def test_cli_ties_refuses_measures_beyond_grades_with_exit_2(tmp_path):
    from conftest import run_cli

    (tmp_path / "q").write_text("1 0 d1 1\n1 0 d2 0\n")
    (tmp_path / "r").write_text("1 Q0 d1 1 1.0 t\n1 Q0 d2 2 1.0 t\n")
    for m in ("P_IA@1", "prefs_simp"):
        r = run_cli("ties", "q", "r", "-m", m, cwd=tmp_path)
        err = r.stderr.decode()
        assert r.returncode == 2 and "Traceback" not in err
        assert "the tie analysis orders each tie group by grade" in err
