"""One path from inputs to judged rankings (cranfield.judging.runs.judge_many) and what rides
on it: the same JudgedRankings through every entry point, one set of checked options, run
names by one rule (dicts of runs, a table's run column, distinguishable file names), the
default relevance level (-l), the side inputs of compare, and the gains syntax."""

from __future__ import annotations

import dataclasses
import json
import re
import warnings

import numpy as np
import pandas as pd
import pytest
from _cli_trust import call

import cranfield
import cranfield.judging.join
from cranfield import evaluate, read_qrels, read_run
from cranfield.comparing import compare
from cranfield.curves import fallout, gain, precision_recall
from cranfield.errors import ParameterError
from cranfield.judging.options import JudgeOptions
from cranfield.judging.runs import judge_many
from cranfield.ties.analysis import tie_ranges, weak_curves

QRELS = {
    "q1": {"d1": 2, "d2": 1, "d3": 0, "d4": 2, "d7": 1},
    "q2": {"d1": 1, "d4": 2, "d5": 0},
    "q3": {"d2": 2, "d6": 1},
}
RUN_A = {
    "q1": {"d1": 3.0, "d2": 2.0, "d5": 2.0, "d4": 1.0, "d9": 0.5},
    "q2": {"d4": 2.0, "d1": 1.0, "d8": 1.0},
    "q3": {"d6": 1.0, "d2": 0.5},
}
RUN_B = {
    "q1": {"d2": 3.0, "d1": 2.0, "d3": 1.0},
    "q2": {"d1": 2.0, "d9": 1.0},
    "q3": {"d2": 1.0, "d3": 1.0, "d6": 1.0},
}
QUIET = pytest.mark.filterwarnings("ignore::cranfield.CranfieldWarning")


def _frame(run: dict, tag: str | None = None) -> pd.DataFrame:
    rows = [(q, d, s) for q, docs in run.items() for d, s in docs.items()]
    df = pd.DataFrame(rows, columns=["qid", "docno", "score"])
    return df if tag is None else df.assign(run=tag)


def _write(tmp_path, run: dict, name: str) -> str:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as f:
        for q, docs in run.items():
            for r, (d, s) in enumerate(sorted(docs.items(), key=lambda t: -t[1]), 1):
                f.write(f"{q} Q0 {d} {r} {s} tag\n")
    return str(path)


def _qrels_file(tmp_path) -> str:
    path = tmp_path / "qrels"
    path.write_text("".join(f"{q} 0 {d} {g}\n" for q, ds in QRELS.items() for d, g in ds.items()))
    return str(path)


# ------------------------------------------------------------------------- the one path
# the lazy annotation is compared by what it computes (the ``annotated`` mask)
FIELDS = [
    "annotated" if f.name == "annotation" else f.name
    for f in dataclasses.fields(cranfield.JudgedRankings)
]


def _same(a, b) -> None:
    for name in FIELDS:
        x, y = getattr(a, name), getattr(b, name)
        if name == "known":
            assert (x is None) == (y is None)
            if x is not None:
                for k in ("rows", "offsets", "grades"):
                    assert np.array_equal(getattr(x, k), getattr(y, k)), k
        elif isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
            assert np.array_equal(x, y), name
        else:
            assert x == y, name


@QUIET
def test_every_entry_point_judges_the_same(monkeypatch):
    """Differential: the JudgedRankings that evaluate, compare, the three curves and the tie
    analysis compute from, against judge() called by hand on the same inputs and options."""
    seen: list = []
    real = cranfield.judging.join.judge

    def spy(*args, **kw):
        jr = real(*args, **kw)
        seen.append(jr)
        return jr

    monkeypatch.setattr(cranfield.judging.join, "judge", spy)
    opts = {"depth": 4, "judged_only": True, "complete": True, "collection_size": 50}
    runs = {"a": RUN_A, "b": RUN_B}
    q = read_qrels(QRELS)
    by_hand = [real(q, read_run(r, name=n), **opts) for n, r in runs.items()]
    calls = {
        "evaluate": lambda: evaluate(QRELS, runs, ["AP"], **opts),
        "compare": lambda: compare(QRELS, runs, ["AP"], **opts),
        "precision_recall": lambda: precision_recall(QRELS, runs, **opts),
        "gain": lambda: gain(QRELS, runs, **{k: v for k, v in opts.items() if k[1] != "o"}),
        "fallout": lambda: fallout(QRELS, runs, **opts),
    }
    for what, call_it in calls.items():
        seen.clear()
        call_it()
        assert len(seen) == 2, what
        for jr, want in zip(seen, by_hand, strict=True):
            if what == "gain":  # no collection size: gain curves take none
                want = dataclasses.replace(want, collection_size=None)
            _same(jr, want)
    weak = [real(q, read_run(r, name=n), ties="weak", **opts) for n, r in runs.items()]
    seen.clear()
    tie_ranges(QRELS, runs, **opts)  # a depth cut: each run judged as trec_eval does, and weak
    assert len(seen) == 4
    for jr, want in zip(seen, [by_hand[0], weak[0], by_hand[1], weak[1]], strict=True):
        _same(jr, want)
    seen.clear()
    weak_curves(QRELS, runs, **opts)
    for jr, want in zip(seen, weak, strict=True):
        _same(jr, want)


def test_judge_many_names_reads_once_and_frees(tmp_path):
    paths = [_write(tmp_path, RUN_A, "x/run.txt"), _write(tmp_path, RUN_B, "y/run.txt")]
    judged = judge_many(QRELS, [*paths, _frame(RUN_A, "bm25"), RUN_B])
    assert len(judged) == 4 and judged.many
    pairs = list(judged)
    assert [n for n, _ in pairs] == ["x/run.txt", "y/run.txt", "bm25", "run4"]
    assert [jr.run_name for _, jr in pairs] == [n for n, _ in pairs]
    with pytest.raises(ParameterError, match="already read"):
        list(judged)
    assert not judge_many(QRELS, RUN_A).many


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"names": ["a"]}, "1 names given for 2 runs"),
        ({"options": {"depth": 3}}, "options must be a JudgeOptions"),
    ],
)
def test_judge_many_checks_before_reading(kwargs, message):
    with pytest.raises(ParameterError, match=message):
        judge_many("/nonexistent/qrels", ["/nonexistent/a", "/nonexistent/b"], **kwargs)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"known": 5}, "known must be qrels: a path, a DataFrame"),
        ({"known": True}, "known must be qrels"),
        ({"rel": -1}, "rel must be >= 0"),
        ({"rel": 1.0}, "rel must be an integer"),
        ({"ties": "weak!"}, "unknown tie policy"),
    ],
)
def test_one_options_object_checks_every_option(kwargs, message):
    with pytest.raises(ParameterError, match=message):
        JudgeOptions(**kwargs)
    for f in (evaluate, compare):  # the public functions check with the same object
        with pytest.raises(ParameterError, match=message):
            f("/nonexistent/qrels", ["/nonexistent/a", "/nonexistent/b"], ["AP"], **kwargs)


def test_options_from_keywords():
    with pytest.raises(ParameterError, match="unknown option 'ties'; the judging options are s"):
        JudgeOptions.from_keywords({"ties": "trec"}, fixed={"ties": "weak"})
    o = JudgeOptions.from_keywords({"depth": 3, "rel": 2}, fixed={"ties": "weak"})
    assert (o.ties, o.depth, o.defaults) == ("weak", 3, {"rel": 2})
    assert "rel" not in o.judge_keywords()


@QUIET
def test_known_documents_read_once_for_all_runs(tmp_path, monkeypatch):
    import cranfield.io as io

    known = tmp_path / "known"
    known.write_text("q1 0 d1 1\nq2 0 d4 1\n")
    reads: list = []
    real = io.read_qrels
    monkeypatch.setattr(io, "read_qrels", lambda s: reads.append(s) or real(s))
    res = evaluate(QRELS, [RUN_A, RUN_B, RUN_A], ["Coverage"], known=str(known))
    assert reads.count(str(known)) == 1
    # Coverage = known relevant retrieved / known relevant: q1 (d1 known): a and b retrieve it
    assert res["run1"].column("Coverage").tolist()[:2] == [1.0, 1.0]


# ------------------------------------------------------------------------- naming, lookups
@QUIET
def test_dict_of_runs_names_them_everywhere():
    runs = {"bm25": RUN_A, "dense": _frame(RUN_B)}
    assert evaluate(QRELS, runs, ["AP"]).names == ["bm25", "dense"]
    assert compare(QRELS, runs, ["AP"]).runs == ("bm25", "dense")
    for df in (
        precision_recall(QRELS, runs),
        gain(QRELS, runs),
        fallout(QRELS, runs, collection_size=50),
    ):
        assert list(dict.fromkeys(df["run"])) == ["bm25", "dense"]
    assert [t.run for t in tie_ranges(QRELS, runs)] == ["bm25", "dense"]
    assert [c.run for c in weak_curves(QRELS, runs)] == ["bm25", "dense"]
    # a dict of one run is still a set of runs; names= wins over the keys
    assert evaluate(QRELS, {"only": RUN_A}, ["AP"]).names == ["only"]
    assert evaluate(QRELS, runs, ["AP"], names=["x", "y"]).names == ["x", "y"]
    with pytest.raises(ParameterError, match="maps run names .strings. to runs, got 5"):
        evaluate(QRELS, {5: _frame(RUN_A)}, ["AP"])
    with pytest.raises(ParameterError, match="run names cannot be empty"):
        evaluate(QRELS, {"": RUN_A, "b": RUN_B}, ["AP"])


@QUIET
def test_a_tables_run_column_names_the_run():
    assert evaluate(QRELS, _frame(RUN_A, "bm25"), ["AP"]).run == "bm25"
    res = evaluate(QRELS, [_frame(RUN_A, "bm25"), _frame(RUN_B)], ["AP"])
    assert res.names == ["bm25", "run2"]
    res = evaluate(QRELS, [_frame(RUN_A, "bm25"), _frame(RUN_B, "bm25")], ["AP"])
    assert res.names == ["bm25", "bm25#2"]
    assert (
        compare(QRELS, [_frame(RUN_A, "x"), _frame(RUN_B, "y")], ["AP"], baseline="y").baseline
        == "y"
    )
    two = pd.concat([_frame(RUN_A, "x"), _frame(RUN_B, "y")])
    with pytest.raises(cranfield.InputError, match="the table holds 2 runs"):
        evaluate(QRELS, two, ["AP"])


@QUIET
def test_same_file_names_in_two_folders(tmp_path):
    a, b = _write(tmp_path, RUN_A, "a/run.txt"), _write(tmp_path, RUN_B, "b/run.txt")
    res = evaluate(QRELS, [a, b], ["AP"])
    assert res.names == ["a/run.txt", "b/run.txt"]
    want = [evaluate(QRELS, r, ["AP"]).aggregate()["AP"] for r in (RUN_A, RUN_B)]
    assert [r.aggregate()["AP"] for r in res] == want  # the names do not mix the runs up
    assert compare(QRELS, [a, b], ["AP"], baseline=b).baseline == "b/run.txt"  # by full path
    assert compare(QRELS, [a, b], ["AP"], baseline="b/run.txt").baseline == "b/run.txt"
    with pytest.raises(
        ParameterError, match=r"baseline 'run.txt' matches 2 runs \(a/run.txt, b/run.txt\)"
    ):
        compare(QRELS, [a, b], ["AP"], baseline="run.txt")
    with pytest.raises(
        ParameterError, match=r"not one of the runs \(a/run.txt, b/run.txt\); did you mean"
    ):
        compare(QRELS, [a, b], ["AP"], baseline="a/run.tx")


def test_many_in_memory_runs():
    runs = [{"q1": {f"d{i}": 1.0}} for i in range(300)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = evaluate(QRELS, runs, ["P@1"])
    assert res.names == [f"run{i}" for i in range(1, 301)]
    # run k retrieves d(k-1) for q1, where d1, d2, d4 and d7 are relevant
    p1 = [r.column("P@1")[0] for r in res]
    assert [k for k, v in enumerate(p1, 1) if v] == [2, 3, 5, 8]


# ------------------------------------------------------------------------- -l / rel=
pytrec_eval = pytest.importorskip("pytrec_eval")


@QUIET
@pytest.mark.parametrize("level", [1, 2, 3])
def test_rel_equals_trec_eval_relevance_level(level):
    """rel= (-l) against trec_eval's own code (pytrec_eval, relevance_level=): the measures
    with a rel parameter use it, nDCG ignores it, as trec_eval's graded measures do."""
    names = {"map": "AP", "P_2": "P@2", "recall_5": "R@5", "Rprec": "Rprec", "recip_rank": "RR"}
    names |= {"ndcg_cut_5": "nDCG@5", "num_rel": "NumRel", "num_rel_ret": "NumRelRet"}
    run = {q: dict(docs) for q, docs in RUN_A.items()}
    run["q1"]["d5"] = 2.25  # no ties: trec_eval 9 reads float scores
    oracle = pytrec_eval.RelevanceEvaluator(QRELS, set(names), relevance_level=level).evaluate(run)
    res = evaluate(QRELS, run, list(names.values()), rel=level)
    for i, q in enumerate(res.query_ids):
        for trec, label in names.items():
            assert res.column(label)[i] == oracle[q][trec], (trec, q)


@QUIET
def test_rel_is_a_default_the_measure_string_overrides():
    by_rel = evaluate(QRELS, RUN_A, ["P@3", "AP", "P(rel=1)@3"], rel=2)
    spelled = evaluate(QRELS, RUN_A, ["P(rel=2)@3", "AP(rel=2)", "P@3"])
    assert by_rel.values.tolist() == spelled.values.tolist()
    assert by_rel.labels == ("P@3", "AP", "P(rel=1)@3")  # labels as written
    cmp = compare(QRELS, [RUN_A, RUN_B], ["AP"], rel=2)
    assert cmp.means["AP"]["run1"] == pytest.approx(spelled.aggregate()["AP(rel=2)"])
    ranges = tie_ranges(QRELS, RUN_B, ["P@3"], rel=2)[0]
    # q3 of run b: d2 (2), d3 (0), d6 (1) tied: best puts d2 first, worst last; P(rel=2)@3 = 1/3
    assert ranges.best[ranges.query_ids.index("q3")].tolist() == [1 / 3]


def _cli_files(tmp_path):
    return (
        _qrels_file(tmp_path),
        _write(tmp_path, RUN_A, "a/run.txt"),
        _write(tmp_path, RUN_B, "b/run.txt"),
    )


def test_cli_l_equals_rel_in_the_measure(tmp_path, capsys, monkeypatch):
    qrels, a, b = _cli_files(tmp_path)
    base = ["evaluate", qrels, a, b, "-f", "json", "-q"]
    code, by_l, err = call([*base, "-m", "P@3", "-m", "AP", "-l", "2"], capsys, monkeypatch)
    assert code == 0, err
    code, spelled, err = call([*base, "-m", "P(rel=2)@3", "-m", "AP(rel=2)"], capsys, monkeypatch)
    assert code == 0, err
    x, y = json.loads(by_l), json.loads(spelled)
    for rx, ry in zip(x["runs"], y["runs"], strict=True):
        assert list(rx["aggregate"].values()) == list(ry["aggregate"].values())
    for cmd in (["compare", qrels, a, b], ["ties", qrels, a, b], ["curve", "pr", qrels, a]):
        code, _, err = call([*cmd, "-l", "2"], capsys, monkeypatch)
        assert code == 0, err
    code, _, err = call(["curve", "gain", qrels, a, "-l", "2"], capsys, monkeypatch)
    assert code == 2 and "no such option: -l" in err  # gain curves count no relevant documents


# ------------------------------------------------------------------------- compare's side inputs
@QUIET
def test_compare_rnorm_with_collection_size_equals_evaluate(tmp_path, capsys, monkeypatch):
    qrels, a, b = _cli_files(tmp_path)
    code, out, err = call(
        ["compare", qrels, a, b, "-m", "Rnorm", "-f", "json"], capsys, monkeypatch
    )
    assert code == 2 and "--collection-size" in err
    args = ["compare", qrels, a, b, "-m", "Rnorm", "--collection-size", "40", "-f", "json"]
    code, out, err = call(args, capsys, monkeypatch)
    assert code == 0, err
    means = json.loads(out)["measures"]["Rnorm"]["means"]
    res = evaluate(qrels, [a, b], ["Rnorm"], collection_size=40, complete=True)
    assert means == {r.run: r.aggregate()["Rnorm"] for r in res}
    # and in Python, with the documents known to the user and a target
    cmp = compare(qrels, [a, b], ["Coverage", "RelativeRecall"], known=QRELS, target=2)
    want = evaluate(
        qrels, [a, b], ["Coverage", "RelativeRecall"], known=QRELS, target=2, complete=True
    )
    for r in want:
        for m in ("Coverage", "RelativeRecall"):
            assert cmp.means[m][r.run] == pytest.approx(r.aggregate()[m])


def test_cli_names_and_baseline(tmp_path, capsys, monkeypatch):
    qrels, a, b = _cli_files(tmp_path)
    code, out, err = call(
        ["evaluate", qrels, a, b, "--names", "x", "--names", "y"], capsys, monkeypatch
    )
    assert code == 0 and out.split("\n")[2].startswith("x ") and "\ny " in out, err
    code, out, err = call(
        ["evaluate", qrels, a, b, "--names", "x,y", "-f", "json"], capsys, monkeypatch
    )
    assert [r["name"] for r in json.loads(out)["runs"]] == ["x", "y"]
    code, out, err = call(["evaluate", qrels, a, b, "-f", "json"], capsys, monkeypatch)
    assert [r["name"] for r in json.loads(out)["runs"]] == ["a/run.txt", "b/run.txt"]
    code, out, err = call(["compare", qrels, a, b, "-b", "run.txt"], capsys, monkeypatch)
    assert code == 2 and "matches 2 runs (a/run.txt, b/run.txt)" in err
    code, out, err = call(["compare", qrels, a, b, "-b", b, "-f", "json"], capsys, monkeypatch)
    assert code == 0 and json.loads(out)["baseline"] == "b/run.txt", err
    for cmd in (["ties", qrels, a, b], ["curve", "pr", qrels, a, b], ["compare", qrels, a, b]):
        code, out, err = call([*cmd, "--names", "first,second"], capsys, monkeypatch)
        assert code == 0 and "first" in out and "second" in out, err
        code, out, err = call([*cmd, "--names", "first"], capsys, monkeypatch)
        assert code == 2 and "1 names given for 2 runs" in err


def test_standard_input_and_known_read_once(tmp_path, cli):
    """A run on standard input is read once even when the tie analysis judges it twice (a
    depth cut), and the known documents are read once for all runs."""
    qrels, a, b = _cli_files(tmp_path)
    with open(b, "rb") as f:
        text = f.read()
    out = cli("ties", qrels, a, "-", "-M", "2", "-f", "json", input=text)
    assert out.returncode == 0, out.stderr.decode()
    assert [r["name"] for r in json.loads(out.stdout)["runs"]] == ["run.txt", "stdin"]
    known = b"q1 0 d1 1\nq2 0 d4 1\n"
    out = cli("evaluate", qrels, a, b, "-m", "Coverage", "--known", "-", "-f", "json", input=known)
    assert out.returncode == 0, out.stderr.decode()
    # known relevant: d1 (q1), d4 (q2); a retrieves both, b only d1; q3 knows none (scored 0)
    cover = [r["aggregate"]["Coverage"] for r in json.loads(out.stdout)["runs"]]
    assert cover == [2 / 3, 1 / 3]


# ------------------------------------------------------------------------- aggregation, gains
@QUIET
def test_aggregate_items_in_the_library():
    items = evaluate(QRELS, RUN_A, ["AP", "P@3"], aggregate=["gmean", "P@3=micro"])
    mapping = evaluate(QRELS, RUN_A, ["AP", "P@3"], aggregate={"AP": "gmean", "P@3": "micro"})
    assert items.aggregate() == mapping.aggregate()
    assert items.aggregation == {"AP": "gmean", "P@3": "micro"}
    one = evaluate(QRELS, RUN_A, ["AP", "F(beta=2)@3"], aggregate="F(beta=2)@3=median")
    assert one.aggregation == {"F(beta=2)@3": "median"}
    with pytest.raises(ParameterError, match="aggregate names 'P@5'"):
        evaluate(QRELS, RUN_A, ["AP"], aggregate=["P@5=mean"])
    with pytest.raises(ParameterError, match="list of items is empty"):
        evaluate(QRELS, RUN_A, ["AP"], aggregate=[])


def test_gains_in_the_measure_grammars_syntax(tmp_path, capsys, monkeypatch):
    # q1 ranks d1 (grade 2), d5 (unjudged: tied with d2, trec_eval puts the larger docno
    # first), d2 (grade 1): with gains {1:1,2:5}, CG@1 = 5, CG@2 = 5, CG@3 = 6 (the mean
    # over q1 alone: complete=False leaves out the judged queries q2, q3 the run lacks)
    one = {"q1": RUN_A["q1"]}
    text = gain(QRELS, one, gains="{1:1,2:5}", cutoffs=[1, 2, 3], average="macro", complete=False)
    cg = text[text["curve"] == "cg"]["value"].tolist()
    assert cg == [5.0, 5.0, 6.0]
    as_dict = gain(
        QRELS, one, gains={1: 1, 2: 5}, cutoffs=[1, 2, 3], average="macro", complete=False
    )
    assert as_dict.equals(text)
    with pytest.raises(ParameterError, match=r"write the map as measure strings do, '\{1:1,2:5\}'"):
        gain(QRELS, one, gains="1=1,2=5")
    with pytest.raises(ParameterError, match="grade 1 is given twice"):
        gain(QRELS, one, gains="{1:1,1:2}")
    qrels = _qrels_file(tmp_path)
    run = _write(tmp_path, one, "one")
    args = ["curve", "gain", qrels, run, "--cutoffs", "1,3", "--average", "macro", "-f", "csv"]
    args.append("--no-complete")
    code, out, err = call([*args, "--gains", "{1:1,2:5}"], capsys, monkeypatch)
    assert code == 0, err
    assert [line.split(",")[3] for line in out.splitlines()[1:3]] == ["5.0", "6.0"]
    code, out, err = call([*args, "--gains", "1=1,2=5"], capsys, monkeypatch)
    assert code == 2 and "argument --gains" in err and "'{1:1,2:5}'" in err


def test_docs_table_of_shared_options_is_true(capsys, monkeypatch):
    """docs/cli.md's table of the options each command offers, against each command's help."""
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text()
    section = doc.split("## Options every command shares", 1)[1].split("\n## ", 1)[0]
    rows = [r for r in section.splitlines() if r.startswith("| `")]
    commands = [["evaluate"], ["compare"], ["curve", "pr"], ["curve", "gain"], ["ties"]]
    helps = {}
    for cmd in [*commands, ["curve", "fallout"]]:
        code, out, _ = call([*cmd, "--help"], capsys, monkeypatch)
        assert code == 0
        helps[" ".join(cmd)] = out
    assert len(rows) >= 8
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        flags = _flags(cells[0])
        for cmd, cell in zip(commands, cells[1:], strict=True):
            names = [" ".join(cmd)] + (["curve fallout"] if cmd == ["curve", "pr"] else [])
            wanted = _flags(cell) or flags
            for name in names:
                for flag in wanted:
                    shown = re.search(rf"(^|[\s,]){re.escape(flag)}([\s,]|$)", helps[name], re.M)
                    assert bool(shown) == (not cell.startswith("no")), (name, flag)


def _flags(cell: str) -> list[str]:
    return [f for code in re.findall(r"`([^`]*)`", cell) for f in code.split()[0].split("/")]
