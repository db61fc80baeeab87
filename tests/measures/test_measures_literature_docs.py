"""docs/measures.md: the registry table is current, every measure has a section, and the
definitions documented there for measures defined elsewhere (MRR, GMAP, RBP, Judged) hold."""

from __future__ import annotations

import math
import re
import warnings
from pathlib import Path

import pytest

import cranfield
from cranfield.measures import REGISTRY
from cranfield.render.measure_list import render_measures

DOC = Path(__file__).resolve().parents[2] / "docs" / "measures.md"
BEGIN, END = "<!-- measures-table:begin -->\n", "<!-- measures-table:end -->"


def test_docs_table_is_generated_from_the_registry():
    text = DOC.read_text(encoding="utf-8")
    table = text[text.index(BEGIN) + len(BEGIN) : text.index(END)]
    assert table == render_measures(list(REGISTRY.values()), "markdown"), (
        "docs/measures.md is out of date: replace the block between the measures-table markers "
        "with the output of `cranfield measures --format markdown`"
    )


LITERATURE = ["PRES", "PRESest", "Rnorm", "Pnorm", "RankRecall", "LogPrecision", "WRnorm"]
LITERATURE += ["F", "E", "Fprime", "Fallout", "Generality", "AdjP", "SlidingRatio", "RelRank"]
LITERATURE += ["SearchLength", "Coverage", "Novelty", "RelativeRecall", "RecallEffort"]
LITERATURE += ["CG", "nCG", "ERR", "MRR", "GMAP", "RBP", "RBPResid", "Judged"]


@pytest.mark.parametrize("name", LITERATURE)
def test_every_literature_measure_has_a_documented_section(name):
    text = DOC.read_text(encoding="utf-8")
    sections = re.findall(r"^## (.+)$", text, flags=re.M)
    assert any(re.search(rf"\b{re.escape(name)}\b", s) for s in sections) or re.search(
        rf"\*\*{re.escape(name)}[(@*]", text
    ), name


def _eval(qrels, run, measures):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cranfield.evaluate(qrels, run, measures)


QRELS = {"a": {"d1": 1, "d2": 1}, "b": {"d3": 1}, "c": {"d4": 1, "d5": -1}}
RUN = {
    "a": {"x": 3.0, "d2": 2.0, "d1": 1.0},
    "b": {"x": 2.0, "y": 1.0},
    "c": {"d5": 3.0, "x": 2.0, "d4": 1.0},
}


def test_mrr_is_the_mean_reciprocal_rank():
    res = _eval(QRELS, RUN, ["MRR", "MRR@2"])
    assert res.aggregate()["MRR"] == pytest.approx((1 / 2 + 0 + 1 / 3) / 3)
    assert res.aggregate()["MRR@2"] == pytest.approx((1 / 2 + 0 + 0) / 3)


def test_gmap_is_the_geometric_mean_of_ap_with_floor_1e_5():
    res = _eval(QRELS, RUN, ["GMAP", "AP"])
    ap = res.per_query()["AP"].tolist()  # a: (1/2 + 2/3)/2, b: 0, c: (1/3)/1
    assert ap == pytest.approx([7 / 12, 0.0, 1 / 3])
    expect = math.exp(sum(math.log(max(x, 1e-5)) for x in ap) / 3)
    assert res.aggregate(how="median")["GMAP"] == pytest.approx(expect, rel=1e-12)


def test_judged_is_the_judged_fraction_of_the_top_k():
    res = _eval(QRELS, RUN, ["Judged@2"])
    # a: x unjudged, d2 judged; b: none; c: d5 has a negative grade (unjudged), x unjudged
    assert res.per_query()["Judged@2"].tolist() == [0.5, 0.0, 0.0]


def test_rbp_is_moffat_and_zobels_for_binary_judgments():
    res = _eval(QRELS, RUN, ["RBP(p=0.5)"])
    p = 0.5
    expect = [(1 - p) * (p**1 + p**2), 0.0, (1 - p) * p**2]
    assert res.per_query()["RBP(p=0.5)"].tolist() == pytest.approx(expect, rel=1e-12)


def test_rbp_residual_is_what_unjudged_and_unseen_documents_could_add():
    p = 0.5
    res = _eval(QRELS, RUN, ["RBPResid(p=0.5)", "RBP(p=0.5)"])
    # a: x unjudged at rank 1; b: x, y unjudged; c: d5 (negative grade) and x unjudged
    expect = [p**3 + (1 - p), p**2 + (1 - p) * (1 + p), p**3 + (1 - p) * (1 + p)]
    assert res.per_query()["RBPResid(p=0.5)"].tolist() == pytest.approx(expect, rel=1e-12)
    # RBP + residual is the score if every unjudged and unseen document were relevant; here
    # every ranked document is relevant or unjudged, so that bound is 1 for each query
    upper = res.per_query().sum(axis=1).tolist()
    assert upper == pytest.approx([1.0, 1.0, 1.0], rel=1e-12)
