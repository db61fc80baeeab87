"""``cranfield ties``, ``--ties weak`` and the registry's tie-aware mechanism."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from cranfield import evaluate
from cranfield.errors import MeasureError
from cranfield.measures import REGISTRY, parse

# q1: a relevant and b non-relevant tie at the top; trec_eval puts b ("b" > "a") first.
QRELS = "q1 0 a 1\nq1 0 b 0\nq1 0 c 1\n"
TIED = "q1 Q0 a 1 2.0 tied\nq1 Q0 b 2 2.0 tied\nq1 Q0 c 3 1.0 tied\n"
UNTIED = "q1 Q0 a 1 3.0 untied\nq1 Q0 b 2 2.0 untied\nq1 Q0 c 3 1.0 untied\n"

# by hand (R = 2): relevant first a b c -> AP (1 + 2/3)/2 = 5/6; relevant last b a c ->
# AP (1/2 + 2/3)/2 = 7/12; expected (5/6 + 7/12)/2 = 17/24.  P@10 = 2/10 whatever the order.
# nDCG@10 (IDCG = 1 + 1/log2 3): best 1 + 1/log2 4 = 1.5, worst 1/log2 3 + 1/2.
IDCG = 1 + 1 / math.log2(3)
AP = {"worst": 7 / 12, "trec": 7 / 12, "expected": 17 / 24, "best": 5 / 6}
NDCG = {
    "worst": (1 / math.log2(3) + 0.5) / IDCG,
    "trec": (1 / math.log2(3) + 0.5) / IDCG,
    "expected": ((1 + 1 / math.log2(3)) / 2 + 0.5) / IDCG,
    "best": 1.5 / IDCG,
}


@pytest.fixture
def files(tmp_path):
    (tmp_path / "qrels").write_text(QRELS)
    (tmp_path / "tied").write_text(TIED)
    (tmp_path / "untied").write_text(UNTIED)
    return tmp_path


def test_ties_json_reports_exact_ranges(cli, files):
    p = cli("ties", str(files / "qrels"), str(files / "tied"), str(files / "untied"), "-f", "json")
    assert p.returncode == 0, p.stderr
    runs = json.loads(p.stdout)["runs"]
    assert [r["name"] for r in runs] == ["tied", "untied"]
    tied = {s["measure"]: s for s in runs[0]["summary"]}
    for k, v in AP.items():
        assert tied["AP"][k] == pytest.approx(v, abs=1e-15)
    for k, v in NDCG.items():
        assert tied["nDCG@10"][k] == pytest.approx(v, abs=1e-15)
    assert tied["P@10"]["worst"] == tied["P@10"]["best"] == pytest.approx(0.2)
    assert (tied["AP"]["tied"], tied["AP"]["rel_tied"]) == (1, 1)
    assert (tied["AP"]["changed"], tied["P@10"]["changed"]) == (1, 0)
    untied = {s["measure"]: s for s in runs[1]["summary"]}
    assert untied["AP"]["tied"] == 0 and untied["AP"]["range"] == 0.0
    assert untied["AP"]["best"] == pytest.approx(5 / 6, abs=1e-15)  # a+ b- c+


def test_ties_table_and_per_query(cli, files):
    p = cli("ties", str(files / "qrels"), str(files / "tied"), "-q", "--digits", "3")
    assert p.returncode == 0, p.stderr
    lines = p.stdout.decode().splitlines()
    assert lines[0].split() == [
        "run",
        "measure",
        "queries",
        "tied",
        "rel_tied",
        "changed",
        "worst",
        "trec",
        "expected",
        "best",
        "range",
    ]
    ap = next(line for line in lines if line.startswith("tied") and " AP " in line).split()
    assert ap[2:] == ["1", "1", "1", "1", "0.583", "0.583", "0.708", "0.833", "0.250"]
    assert any(line.split()[:3] == ["tied", "q1", "AP"] for line in lines)
    again = cli("ties", str(files / "qrels"), str(files / "tied"), "-q", "--digits", "3")
    assert again.stdout == p.stdout  # deterministic


def test_ties_curves(cli, files):
    p = cli(
        "ties", str(files / "qrels"), str(files / "tied"), "--curves", "--nd", "1,2", "-f", "json"
    )
    assert p.returncode == 0, p.stderr
    c = json.loads(p.stdout)["runs"][0]
    # ND = 1: the top level {a+, b-} gives E[rel@1] = 1/2: ER = 1/4, EP = 1/2
    # ND = 2: E[rel@2] = 1: ER = 1/2, EP = 1/2
    assert c["ER"] == [0.25, 0.5] and c["EP"] == [0.5, 0.5]
    assert c["average"]["ER"] == 0.375
    # recall .5 (NR = 1): PRR = 1 / (1 + 1 * 1/2) = 2/3; PRECALL = 1 / (1 + 1 * 1/1) = 1/2
    i = c["recall"].index(0.5)
    assert c["precision_at_recall"]["PRR intuitive"][i] == pytest.approx(2 / 3)
    assert c["precision_at_recall"]["PRECALL intuitive"][i] == pytest.approx(1 / 2)
    table = cli("ties", str(files / "qrels"), str(files / "tied"), "--curves", "--nd", "1,2")
    text = table.stdout.decode()
    assert "PRR ceiling" in text and "Average" in text and "ND" in text


def test_ties_bad_option_is_one_line_error(cli, files):
    p = cli("ties", str(files / "qrels"), str(files / "tied"), "--curves", "--nd", "1,x")
    assert p.returncode == 2
    assert p.stderr.decode().endswith("error: argument --nd: 'x' is not an integer\n")
    assert sum("error:" in line for line in p.stderr.decode().splitlines()) == 1


def test_evaluate_weak_gives_the_expectation(cli, files):
    p = cli("evaluate", str(files / "qrels"), str(files / "tied"), "--ties", "weak", "-m", "AP")
    assert p.returncode == 0, p.stderr
    assert p.stdout.decode().splitlines()[2].split()[-1] == "0.7083"  # the run's row
    res = evaluate(str(files / "qrels"), str(files / "tied"), ["AP", "RR"], ties="weak")
    assert res.aggregate() == pytest.approx({"AP": 17 / 24, "RR": 3 / 4}, abs=1e-15)


@pytest.fixture
def measure_without_tie_form():
    """A measure that declares no tie-aware form (infAP: a ratio of counts above each relevant
    document)."""
    assert REGISTRY["infAP"].tie_aware is None
    return "infAP"


def test_a_measure_without_a_tie_aware_form_is_a_clear_error(measure_without_tie_form):
    name = measure_without_tie_form
    with pytest.raises(MeasureError, match=rf"measure {name} has no tie-aware form \(no closed "):
        evaluate("/nonexistent/qrels", "/nonexistent/run", [name, "AP"], ties="weak")
    with pytest.raises(MeasureError, match="no tie-aware form"):
        parse(name).definition.function("weak")
    assert parse(name).definition.function("trec") is REGISTRY[name].func


def test_weak_is_a_listed_tie_policy(cli):
    p = cli("evaluate", "--help")
    assert b"weak" in p.stdout


def test_weak_values_do_not_depend_on_document_ids_or_file_order():
    """trec_eval's tie-breaking by document id makes AP depend on the names; 'weak' does not."""
    qrels = {"q": {"a": 1, "b": 0, "c": 0, "d": 1}}
    run = {"q": {"a": 1.0, "b": 1.0, "c": 1.0, "d": 0.5}}
    renamed_q = {"q": {"z": 1, "b": 0, "c": 0, "d": 1}}
    renamed_r = {"q": {"c": 1.0, "z": 1.0, "b": 1.0, "d": 0.5}}  # other names, other order
    labels = ["AP", "nDCG@2", "RR", "P@2", "EP(NR=1)", "PRR(recall=0.5)"]
    trec = evaluate(qrels, run, labels).values
    trec_renamed = evaluate(renamed_q, renamed_r, labels).values
    assert not np.array_equal(trec, trec_renamed)
    weak = evaluate(qrels, run, labels, ties="weak").values
    np.testing.assert_array_equal(weak, evaluate(renamed_q, renamed_r, labels, ties="weak").values)


def test_weak_with_a_depth_inside_a_tie_group_takes_the_expectation_over_what_it_keeps():
    """-M under 'weak' cuts a uniformly random part of the straddling tie group, not the part
    trec_eval's document-id order would keep: 4 tied documents, 2 relevant, -M d keeps d/2
    relevant ones on average (trec_eval's order d c b a keeps 0, 1, 1)."""
    qrels = {"q": {"a": 1, "b": 0, "c": 1, "d": 0}}
    run = {"q": {"a": 1.0, "b": 1.0, "c": 1.0, "d": 1.0}}  # trec order: d c b a
    for depth, trec_kept in ((1, 0.0), (2, 1.0), (3, 1.0)):
        assert evaluate(qrels, run, ["NumRelRet"], depth=depth).values[0, 0] == trec_kept
        weak = evaluate(qrels, run, ["NumRelRet", "P@1"], ties="weak", depth=depth)
        assert weak.values[0].tolist() == [depth / 2, 0.5]


def test_micro_average_under_weak_uses_the_expected_numerators():
    """P@k has the constant denominator k: its micro average is the mean of E[P@k]."""
    qrels = {"q1": {"a": 1, "b": 0, "c": 1}, "q2": {"x": 1, "y": 0}}
    run = {"q1": {"a": 1.0, "b": 1.0, "c": 1.0}, "q2": {"x": 2.0, "y": 2.0}}
    res = evaluate(qrels, run, ["P@1", "SetP"], ties="weak", aggregate="micro")
    # E[P@1]: q1 2/3, q2 1/2 -> micro (2/3 + 1/2) / 2; SetP: (2 + 1) / (3 + 2)
    assert res.aggregate()["P@1"] == pytest.approx((2 / 3 + 1 / 2) / 2, abs=1e-15)
    assert res.aggregate()["SetP"] == pytest.approx(3 / 5, abs=1e-15)
