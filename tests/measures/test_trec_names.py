"""trec_eval's printed measure names as measures (``-m P_10 ndcg_cut_10 map``): the names
come from the registry's declarations, and their values are trec_eval's own (pytrec_eval
embeds trec_eval 9.0.8: compared only where 9.0.8 and 10.0 agree, as in
tests/compat/test_trec_eval_pytrec.py)."""

from __future__ import annotations

import json
import re
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cranfield
from conftest import run_cli
from cranfield.compat.trec_eval.catalogue import CATALOGUE, parse_params
from cranfield.errors import MeasureError
from cranfield.measures import Measure, parse
from cranfield.measures.lists import split_measures
from cranfield.measures.registry import lookup
from cranfield.measures.trec_names import from_trec_eval

# the printed names whose definitions trec_eval 9.0.8 (pytrec_eval) and 10.0 share
SAME_IN_908 = [
    "map", "Rprec", "bpref", "recip_rank", "infAP", "P_5", "P_10", "recall_10",
    "map_cut_10", "relative_P_5", "success_5", "set_P", "set_recall", "set_map", "set_F",
    "set_relative_P", "binG", "Rndcg", "num_nonrel_judged_ret", "Rprec_mult_0.20",
    "Rprec_mult_1.80", "utility", "num_rel", "num_rel_ret", "num_ret", "ndcg", "ndcg_cut_5",
    "ndcg_cut_10", "G", "ndcg_rel",
]  # fmt: skip
FAMILIES = {n.rpartition("_")[0] if n[-1].isdigit() else n for n in SAME_IN_908}
FAMILIES = {"set" if f.startswith("set_") else f for f in FAMILIES} | {"P", "recall"}


def _printed_names():
    """Every name trec_eval 10.0 prints for a registry measure, with its default
    parameters (``P_5`` ... ``P_1000``, ``iprec_at_recall_0.00`` ..., ``map``)."""
    for tm in CATALOGUE:
        if tm.measure:
            for name in tm.slot_names(parse_params(tm, None)):
                yield name, tm.measure


def test_every_printed_name_reads_as_the_measure_that_declares_it():
    seen = 0
    for name, measure in _printed_names():
        m = parse(name)
        assert m.name == measure, name
        seen += 1
    assert seen >= 60  # P_5..P_1000, recall_*, map_cut_*, ndcg_cut_*, iprec_at_recall_*...


def test_parameters_are_in_the_printed_name():
    assert parse("P_10") == Measure("P", (), 10)
    assert parse("ndcg_cut_10") == Measure("nDCG", (), 10)
    assert parse("map_cut_1000") == Measure("AP", (), 1000)
    assert parse("iprec_at_recall_0.10") == Measure("IPrec", (), 0.1)
    assert parse("Rprec_mult_0.20") == parse("Rprec(mult=0.2)")
    assert parse("set_F") == parse("SetF(beta=1)")  # trec_eval's set_F.1: beta squared
    # also cranfield names (case-insensitive): the same parameters, as defaults
    assert parse("utility").resolve() == parse("Utility(a=1,b=-1,c=0,d=0)").resolve()
    assert parse("rbp").resolve() == parse("RBP(p=0.9)").resolve()
    assert parse("11pt_avg") == parse("IPrecAvg")
    assert parse("unj_5") == parse("Unjudged@5")
    assert parse("gm_map") == parse("GMAP")
    assert parse("recip_rank") == parse("RR")
    assert parse("success_1") == parse("Success@1")


def test_rel_is_never_set_so_l_applies():
    for name, _ in _printed_names():
        assert "rel" not in dict(parse(name).params), name


def test_a_name_cranfield_also_has_means_the_same_measure():
    """``map``, ``Rprec``, ``bpref``, ``ndcg``, ``rbp``...: the registry's reading (case-
    insensitive) and trec_eval's agree, defaults included."""
    both = 0
    for name, _ in _printed_names():
        d = lookup(name)
        if d is not None:
            assert parse(name).resolve() == from_trec_eval(name).resolve(), name
            both += 1
    assert both >= 8


def test_case_insensitive_when_unique():
    assert parse("p_10") == parse("P_10")
    assert parse("NDCG_CUT_20") == parse("nDCG@20")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ndcg_cut10", "did you mean ndcg_cut_10"),
        ("recip_rnk", "did you mean recip_rank"),
        ("P.5", "trec_eval's '-m P.5' is written as its printed names here: -m 'P_5'"),
        ("ndcg_cut.10", "-m 'ndcg_cut_10'"),
        ("P_0", "unknown measure 'P_0'"),
        ("iprec_at_recall_x", "did you mean iprec_at_recall_"),
    ],
)
def test_near_misses_name_the_nearest_names(text, expected):
    with pytest.raises(MeasureError) as exc:
        parse(text)
    assert expected in str(exc.value)


def test_a_value_out_of_range_names_the_trec_eval_measure():
    with pytest.raises(MeasureError, match="trec_eval measure 'P_99999999999' .cranfield's P."):
        parse("P_99999999999")
    with pytest.raises(MeasureError, match="iprec_at_recall_1.5"):
        parse("iprec_at_recall_1.5")


def _collection(rng, tag):
    # as tests/compat/test_trec_eval_pytrec.py: every topic has results, grades -1..3, scores in
    # quarters (9.0.8's float32 scores order like 10.0's doubles), fresh topic ids
    qrels, run = {}, {}
    for q in range(int(rng.integers(1, 6))):
        docs = [f"d{i}" for i in range(int(rng.integers(3, 30)))]
        judged = rng.choice(docs, int(rng.integers(1, len(docs))), replace=False)
        grades = {d: int(rng.choice([-1, 0, 0, 1, 2, 3])) for d in judged}
        if max(grades.values()) < 0:
            grades[judged[0]] = 0
        qrels[f"{tag}q{q}"] = grades
        retrieved = rng.choice(docs, int(rng.integers(1, len(docs))), replace=False)
        run[f"{tag}q{q}"] = {d: float(rng.integers(0, 8)) / 4 for d in retrieved}
    return qrels, run


@pytest.mark.parametrize("seed", range(6))
def test_printed_names_give_trec_evals_values(seed):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    rng = np.random.default_rng(1000 + seed)
    checked = 0
    for trial in range(4):
        qrels, run = _collection(rng, f"names{seed}t{trial}")
        oracle = pytrec_eval.RelevanceEvaluator(qrels, FAMILIES).evaluate(run)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = cranfield.evaluate(qrels, run, " ".join(SAME_IN_908))
        assert list(res.labels) == SAME_IN_908
        for i, q in enumerate(res.query_ids):
            for name in SAME_IN_908:
                assert res.column(name)[i] == oracle[q][name], (name, q)
                checked += 1
    assert checked >= 4 * len(SAME_IN_908)


def test_the_command_line_takes_trec_eval_names_and_lists(tmp_path):
    qrels = tmp_path / "qrels.txt"
    run = tmp_path / "run.txt"
    qrels.write_text("1 0 a 1\n1 0 b 0\n1 0 c 2\n2 0 d 1\n")
    run.write_text("1 Q0 b 1 3 r\n1 Q0 a 2 2 r\n1 Q0 c 3 1 r\n2 Q0 d 1 1 r\n")
    out = run_cli(
        "evaluate", str(qrels), str(run), "-m", "P_1 ndcg_cut_10", "-m", "map,recip_rank",
        "-f", "json",
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    values = json.loads(out.stdout)["runs"][0]["aggregate"]
    assert list(values) == ["P_1", "ndcg_cut_10", "map", "recip_rank"]
    # by hand: q1 ranks b (grade 0), a (1), c (2); q2 ranks d (1) first
    assert values["P_1"] == 0.5 and values["recip_rank"] == 0.75
    assert values["map"] == pytest.approx(((1 / 2 + 2 / 3) / 2 + 1) / 2)
    bad = run_cli("evaluate", str(qrels), str(run), "-m", "ndcg_cut10")
    assert bad.returncode == 2
    assert "did you mean ndcg_cut_10" in bad.stderr.decode()


# ---------------------------------------------------------------- several measures in one


def test_split_by_commas_and_whitespace_outside_brackets():
    assert split_measures("AP nDCG@10") == ["AP", "nDCG@10"]
    assert split_measures("AP,nDCG@10") == ["AP", "nDCG@10"]
    assert split_measures(" AP ,\tP@10\n") == ["AP", "P@10"]
    assert split_measures("nDCG(gains={0:0, 1:1, 2:3})@10,AP") == [
        "nDCG(gains={0:0, 1:1, 2:3})@10",
        "AP",
    ]
    assert split_measures("P(rel=2, judged_only=false) @ 10 RR") == [
        "P(rel=2, judged_only=false)@10",  # inside brackets, as written
        "RR",
    ]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("AP,,P@10", "empty measure"),
        (",AP", "empty measure"),
        ("AP,", "empty measure"),
        ("   ", "no measure given"),
        ("P(rel=2", "missing ')'"),
        ("P)@10", "unbalanced ')'"),
        ("nDCG(gains={0:0)", "unbalanced ')'"),
    ],
)
def test_split_errors(text, problem):
    with pytest.raises(MeasureError, match=re.escape(problem)):
        split_measures(text)


def test_evaluate_takes_a_string_of_several_measures():
    qrels = {"q": {"a": 1, "b": 0}}
    run = {"q": {"a": 2.0, "b": 1.0}}
    res = cranfield.evaluate(qrels, run, "AP P@1,nDCG(gains={0:0,1:3})@2")
    assert res.labels == ("AP", "P@1", "nDCG(gains={0:0,1:3})@2")
    assert res.values.tolist() == [[1.0, 1.0, 1.0]]


_SIMPLE = st.sampled_from(
    ["AP", "P@10", "P(rel=2)@5", "nDCG(gains={0:0,1:1,2:3})@10", "RBP(p=0.8)", "P_10",
     "ndcg_cut_10", "iprec_at_recall_0.10", "IPrec@0.5", "Rprec(mult=0.2)", "map"]
)  # fmt: skip


@settings(derandomize=True, max_examples=200, deadline=None)
@given(st.lists(_SIMPLE, min_size=1, max_size=6), st.data())
def test_split_gives_back_what_was_joined(items, data):
    seps = [data.draw(st.sampled_from([" ", ",", ", ", "\t", " , ", "  "])) for _ in items[1:]]
    text = items[0] + "".join(s + m for s, m in zip(seps, items[1:], strict=True))
    assert split_measures(text) == items
    for m in split_measures(text):
        parse(m)  # each piece is a measure


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("P_" + "9" * 5000, "beyond the largest, 2147483647"),
        ("iprec_at_recall_" + "1" * 5000, "must be a number in .0, 1."),
        ("Rprec_mult_" + "9" * 400, "Rprec_mult_999"),
    ],
)
def test_hostile_numbers_in_printed_names(text, problem):
    with pytest.raises(MeasureError, match=problem) as exc:
        parse(text)
    assert len(str(exc.value)) < 400  # the name is shortened in the message
