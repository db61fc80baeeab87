"""The Python API around the methods: reading averaged curves at levels, micro-averaging,
fallout at cut-offs, inputs, errors, warnings, renderers and plots."""

from __future__ import annotations

import json
import math
import warnings
from fractions import Fraction as F

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from cranfield import judge, read_qrels, read_run
from cranfield.curves import area, fallout, gain, plot, precision_recall
from cranfield.errors import CranfieldError, ParameterError, UndefinedMeasureWarning
from cranfield.render.curves_text import render_curves

SETTINGS = settings(
    max_examples=50, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)


def build(queries):
    """qrels and run from [(relevance flags in rank order, relevant not ranked)]."""
    qrels, run = {}, {}
    for qi, (rels, missing) in enumerate(queries):
        q = f"q{qi}"
        run[q] = {f"{q}d{k:02d}": float(50 - k) for k in range(len(rels))}
        qrels[q] = {f"{q}d{k:02d}": x for k, x in enumerate(rels)}
        qrels[q].update({f"{q}m{j}": 1 for j in range(missing)})
        qrels[q][f"{q}zz"] = 0
    run["~run-only"] = {"x": 1.0}  # never evaluated; keeps an all-empty run readable
    return qrels, run


QUERIES = st.lists(
    st.tuples(st.lists(st.sampled_from([0, 0, 1]), max_size=10), st.integers(0, 2)),
    min_size=1,
    max_size=4,
)
LEVELS = st.lists(st.integers(0, 20), min_size=1, max_size=4).map(
    lambda ks: sorted({F(k, 20) for k in ks})
)


def read_polyline(xs, ys, r, *, left_value, right_value):
    """Brute force: the first point with x >= r, linear from the point before."""
    for k, x in enumerate(xs):
        if x >= r:
            if k == 0:
                return left_value(k)
            return ys[k - 1] + (r - xs[k - 1]) / (x - xs[k - 1]) * (ys[k] - ys[k - 1])
    return right_value


@SETTINGS
@given(QUERIES, LEVELS)
def test_micro_average_reads_the_pooled_curve_at_levels(queries, levels):
    qrels, run = build(queries)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        df = precision_recall(qrels, run, average="micro", levels=levels, complete=True)
    top = max(max(len(r) for r, _ in queries), 1)
    total_R = sum(sum(r) + m for r, m in queries)
    xs, ys = [], []
    for k in range(1, top + 1):
        rel = sum(sum(r[:k]) for r, _ in queries)
        xs.append(F(rel, total_R) if total_R else F(0))
        ys.append(F(rel, k * len(queries)))
    for row, r in zip(df.itertuples(), levels, strict=True):
        want = read_polyline(xs, ys, r, left_value=lambda k: ys[0], right_value=F(0))
        assert row.value == pytest.approx(float(want), abs=1e-12)


@SETTINGS
@given(QUERIES, LEVELS, st.integers(0, 4), st.sampled_from(["macro", "micro"]))
@example(  # found by CI: the mean recall (0 + 3/5 + 3/5) / 3 is 0.39999999999999997 in floats
    queries=[([], 1), ([1, 1, 1], 2), ([1, 1, 1, 0], 2)], levels=[F(2, 5)], spare=0, average="macro"
)
def test_fallout_at_cutoffs_read_at_levels(queries, levels, spare, average):
    qrels, run = build(queries)
    sizes = {f"q{i}": len(r) + m + spare + 1 for i, (r, m) in enumerate(queries)}
    keep = [i for i, (r, m) in enumerate(queries) if sum(r) + m > 0]
    ks = list(range(1, max(max(len(r) for r, _ in queries), 1) + 1))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rows = fallout(
            qrels, run, collection_size=sizes, cutoffs=ks, average=average, complete=True
        )
        read = fallout(
            qrels,
            run,
            collection_size=sizes,
            cutoffs=ks,
            average=average,
            levels=levels,
            complete=True,
        )
    if not keep:  # no query has a curve: nothing to average
        assert rows["queries"].tolist() == [0] * len(ks) and rows["value"].isna().all()
        assert read["value"].isna().all()
        return
    xs, ys = [F(0)], [F(0)]
    for k in ks:
        rel = [sum(queries[i][0][:k]) for i in keep]
        R = [sum(queries[i][0]) + queries[i][1] for i in keep]
        non = [min(k - a, sizes[f"q{i}"] - b) for a, b, i in zip(rel, R, keep, strict=True)]
        nonrel_total = [sizes[f"q{i}"] - b for b, i in zip(R, keep, strict=True)]
        if average == "micro":
            x = F(sum(rel), sum(R))
            y = F(sum(non), sum(nonrel_total))
        else:
            x = sum(F(a, b) for a, b in zip(rel, R, strict=True)) / len(keep)
            y = sum(F(a, b) for a, b in zip(non, nonrel_total, strict=True)) / len(keep)
        xs.append(x)
        ys.append(y)
    assert rows["level"].tolist() == pytest.approx([float(x) for x in xs[1:]], abs=1e-12)
    assert rows["value"].tolist() == pytest.approx([float(y) for y in ys[1:]], abs=1e-12)
    xs.append(F(1))
    ys.append(F(1))
    for row, r in zip(read.itertuples(), levels, strict=True):
        want = read_polyline(xs, ys, r, left_value=lambda k: ys[k], right_value=F(1))
        assert row.value == pytest.approx(float(want), abs=1e-12)


def test_cutoffs_with_levels_read_the_macro_curve():
    # Fig. 14 b: q0 = [1, 1] (R 2), q1 = [0, 1] (R 1).  Cut-off 1: recall (1/2 + 0)/2 = .25,
    # precision (1 + 0)/2 = .5; cut-off 2: recall 1, precision (1 + 1/2)/2 = .75.  Read at .1
    # (left of the first point: its precision), .25, .625 (half way) and 1.
    qrels, run = build([([1, 1], 0), ([0, 1], 0)])
    df = precision_recall(qrels, run, cutoffs=[1, 2], levels=[0.1, 0.25, 0.625, 1])
    assert df["value"].tolist() == pytest.approx([0.5, 0.5, 0.625, 0.75])
    assert df["extrapolated"].tolist() == [2, 0, 0, 0]


def test_a_level_an_average_reaches_up_to_rounding_is_read_at_that_point():
    # q0: R 1, nothing retrieved; q1 = [1, 1, 1] and q2 = [1, 1, 1, 0], 2 relevant unranked
    # each (R 5).  Macro recall at cut-offs 3 and 4: (0 + 3/5 + 3/5) / 3 = 2/5 (in floats
    # 0.39999999999999997); precision (0 + 1 + 1) / 3 = 2/3 at 3, (0 + 3/4 + 3/4) / 3 = 1/2
    # at 4.  Read at 2/5: the first point reaching it, cut-off 3, not extrapolated.
    qrels, run = build([([], 1), ([1, 1, 1], 2), ([1, 1, 1, 0], 2)])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        df = precision_recall(qrels, run, cutoffs=[3, 4], levels=[0.4], complete=True)
    assert df["value"].tolist() == pytest.approx([2 / 3], abs=1e-12)
    assert df["extrapolated"].tolist() == [0]


def test_best_curve_at_recall_levels_is_one_for_every_method():
    qrels, run = build([([0, 1, 0, 1], 1), ([1, 0], 0)])
    for interpolation in ("max", "trec", "ceiling", "quasi-cranfield", "semi-cranfield"):
        df = precision_recall(qrels, run, interpolation=interpolation, best=True)
        assert df[df["run"] == "best"]["value"].tolist() == [1.0] * 11


def test_judged_rankings_in_and_duplicate_names():
    qrels, run = build([([1, 0, 1], 0)])
    q = read_qrels(qrels)
    jr = judge(q, read_run(run, name="x"))
    df = precision_recall([jr, jr], levels=[0.5])
    assert df["run"].tolist() == ["x", "x#2"]
    with pytest.raises(ParameterError, match="JudgedRankings"):
        precision_recall(["not judged"])
    with pytest.raises(ParameterError, match="needs qrels"):
        precision_recall(jr, interpolation="quasi-cranfield", reference=run)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"interpolation": "linear"}, "unknown interpolation"),
        ({"interpolation": "quasi-cranfield", "step": "top"}, "unknown step"),
        ({"interpolation": "quasi-cranfield", "extrapolation": 6}, "unknown extrapolation"),
        ({"interpolation": "none", "levels": 11}, "raw curve"),
        ({"interpolation": "semi-cranfield", "reference": {}}, "quasi-cranfield curves only"),
        ({"weak": True}, "ceiling only"),
        ({"average": "mean"}, "unknown average"),
        ({"statistic": "mode"}, "unknown statistic"),
        ({"levels": 12}, "expected 11, 21"),
        ({"levels": "0.1,,0.2"}, "comma list"),
        ({"levels": ["x"]}, "not a number"),
        ({"cutoffs": [0]}, ">= 1"),
        ({"cutoffs": "5,10", "extrapolation": 2}, "not to document cut-offs"),
    ],
)
def test_parameter_errors(kwargs, message):
    qrels, run = build([([1, 0], 0)])
    with pytest.raises(ParameterError, match=message):
        precision_recall(qrels, run, **kwargs)


def test_fallout_and_gain_parameter_errors():
    qrels, run = build([([1, 0], 0)])
    with pytest.raises(ParameterError, match="collection size N"):
        fallout(qrels, run)
    with pytest.raises(CranfieldError, match="no collection size for query 'q0'"):
        fallout(qrels, run, collection_size={"other": 5})
    with pytest.raises(CranfieldError, match="smaller than"):
        fallout(qrels, run, collection_size=2)
    with pytest.raises(ParameterError, match="generality"):
        fallout(qrels, run, collection_size=10, generality=1000)
    with pytest.raises(ParameterError, match="weak"):
        fallout(qrels, run, collection_size=10, cutoffs=[1], weak=True)
    with pytest.raises(ParameterError, match="base"):
        gain(qrels, run, base=1)
    with pytest.raises(ParameterError, match="gain\\(\\)"):
        area(precision_recall(qrels, run))


def messages(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = fn()
    assert all(issubclass(w.category, UndefinedMeasureWarning) for w in caught)
    return result, [str(w.message) for w in caught]


def test_warnings_name_the_count_of_affected_queries():
    qrels, run = build([([1, 0], 0), ([0, 0], 0)])  # q1 has no relevant document
    _, said = messages(lambda: precision_recall(qrels, run))
    assert said == [
        "1 queries have no relevant document: precision 0 is used at every level (as trec_eval)"
    ]
    (_, pq), said = messages(
        lambda: precision_recall(
            qrels, run, interpolation="trec", depth=0, levels=[0, 1], per_query=True
        )
    )
    # trec_eval: -nan where c = lround(r R) = 0 (RR / n with n = 0), 0 where c > RR
    got = {(r.query_id, r.level): r.value for r in pq.itertuples()}
    assert math.isnan(got[("q0", 0.0)]) and got[("q0", 1.0)] == 0.0
    assert math.isnan(got[("q1", 0.0)]) and math.isnan(got[("q1", 1.0)])  # R = 0: c = 0
    assert any("rank no document" in m for m in said)
    df, said = messages(
        lambda: precision_recall(qrels, run, interpolation="quasi-cranfield", extrapolation=1)
    )
    assert any("they have no curve" in m for m in said)
    assert any("no query enters the average at recall level(s) 0" in m for m in said)
    assert df["queries"].tolist() == [0] * 10 + [1]  # R = 1: only recall 1.0 is drawn


def test_gain_median_and_per_query():
    qrels = {"a": {"x": 2, "y": 1}, "b": {"x": 1}, "c": {"z": 3}}
    run = {q: {"x": 3.0, "y": 2.0, "z": 1.0} for q in "abc"}
    table, pq = gain(qrels, run, statistic="median", average="macro", per_query=True)
    cg = table[table["curve"] == "cg"]["value"].tolist()
    # CG per query: a (2, 3, 3), b (1, 1, 1), c (0, 0, 3) -> medians 1, 1, 3
    assert cg == [1.0, 1.0, 3.0]
    ncg = table[table["curve"] == "ncg"]["value"].tolist()
    # NCG per query: a (2/2, 3/3, 1), b (1, 1, 1), c (0/3, 0/3, 3/3) -> medians 1, 1, 1
    assert ncg == [1.0, 1.0, 1.0]
    assert set(pq["query_id"]) == {"a", "b", "c"}
    assert len(pq) == 3 * 6 * 3


def test_renderers():
    qrels, run = build([([1, 0, 1], 0), ([0, 1], 1)])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        df = precision_recall(
            qrels, run, interpolation="quasi-cranfield", extrapolation=1, levels=[0, 0.5]
        )
    text = render_curves(df, "table", digits=3)
    lines = text.splitlines()
    assert lines[0].split() == ["run", "level", "value", "queries", "extrapolated"]
    assert lines[1].split()[2] == "nan" and lines[2].split()[1] == "0.500"
    doc = json.loads(render_curves(df, "json"))
    assert doc["curve"] == "pr" and doc["rows"][0]["value"] is None
    tsv = render_curves(df, "tsv").splitlines()
    assert tsv[1].split("\t") == ["run", "0.0", "nan", "0", "0"]


def test_plot_returns_a_figure_and_checks_its_input(tmp_path):
    qrels, run = build([([1, 0, 1], 0)])
    df = precision_recall(qrels, run, best=True)
    fig = plot(df)
    ax = fig.axes[0]
    assert ax.get_xlabel().startswith("Recall") and ax.get_ylabel().startswith("Precision")
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["run", "theoretical best"]
    with pytest.raises(ParameterError, match="png"):
        plot(df, tmp_path / "x.jpg")
    with pytest.raises(ParameterError, match="takes a table"):
        plot(type(df)({"a": [1]}))
    g = gain(qrels, run)
    fig = plot(g, gain_curve="cg")
    assert fig.axes[0].get_ylabel().startswith("Cumulated gain")
    assert math.isclose(fig.get_figwidth(), 10)


def test_importing_curves_loads_no_heavy_module():
    import os
    import subprocess
    import sys

    from conftest import REPO

    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    code = (
        "import sys, cranfield.curves; print(sorted({'pandas', 'matplotlib'} & set(sys.modules)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    assert out.stdout.strip() == "[]"


def test_every_picture_of_the_curves_page_exists():
    import re

    from conftest import REPO

    page = (REPO / "docs" / "curves.md").read_text()
    pictures = re.findall(r"\]\((img/[^)]+\.png)\)", page)
    assert len(pictures) >= 9
    for pic in pictures:
        assert (REPO / "docs" / pic).read_bytes()[:4] == b"\x89PNG", pic


def test_collection_size_from_judge_or_as_a_parameter(tmp_path):
    qrels, run = build([([1, 0, 1], 1), ([0, 1], 0)])
    q = read_qrels(qrels)
    sizes = tmp_path / "sizes"
    sizes.write_text("# qid N\nq0 50\nq1 40\n")
    carried = fallout(judge(q, read_run(run), collection_size={"q0": 50, "q1": 40}))
    given = fallout(judge(q, read_run(run)), collection_size=[50, 40])
    from_file = fallout(qrels, run, collection_size=str(sizes))
    for other in (given, from_file):
        assert other["value"].tolist() == carried["value"].tolist()
        assert other["precision"].tolist() == carried["precision"].tolist()


@pytest.mark.parametrize("convention", ["jk", "trec"])
@pytest.mark.parametrize("base", [2.0, 3.0])
def test_gain_curves_equal_the_dcg_and_cg_measures(convention, base):
    """The curves at rank k and the registered measures at cut-off k, per query."""
    from cranfield import evaluate

    qrels = {
        "a": {"x": 2, "y": 1, "w": 3, "v": 0},
        "b": {"x": 1, "u": 2},
        "c": {"z": 3, "x": 1},
    }
    run = {q: {"x": 5.0, "y": 4.0, "z": 3.0, "v": 2.0, "w": 1.0} for q in "abc"}
    _, pq = gain(qrels, run, convention=convention, base=base, per_query=True)
    ks = [1, 2, 3, 5]
    dcg = {k: f"DCG(convention={convention},base={base})@{k}" for k in ks}
    idcg = {k: f"IDCG(convention={convention},base={base})@{k}" for k in ks}
    cg = {k: f"CG@{k}" for k in ks}
    res = evaluate(qrels, run, [*dcg.values(), *idcg.values(), *cg.values()]).per_query()
    compared = set()
    for row in pq[pq["rank"].isin(ks)].itertuples():
        label = {"dcg": dcg, "idcg": idcg, "cg": cg}.get(row.curve)
        if label is not None:  # the normalized curves are checked elsewhere
            assert row.value == res.loc[row.query_id, label[row.rank]], (row.curve, row.rank)
            compared.add((row.curve, row.query_id, row.rank))
    assert len(compared) == 3 * len(qrels) * len(ks)  # every curve, query and rank was compared
