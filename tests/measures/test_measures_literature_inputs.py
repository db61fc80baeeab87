"""Side inputs (collection size, known documents, targets), bad parameters, aggregation and the
command line for the literature measures."""

from __future__ import annotations

import json
import math
import statistics
import warnings

import numpy as np
import pytest

import cranfield
from cranfield.errors import DataWarning, InputError, MeasureError, ParameterError
from cranfield.measures import parse
from cranfield.measures.kernels.discount import discounted

QRELS = {"q1": {"a": 1, "b": 2, "c": 0, "z": 1}, "q2": {"a": 1, "x": 1}}
RUN = {"q1": {"a": 3.0, "c": 2.0, "b": 1.0}, "q2": {"x": 2.0, "y": 1.0, "w": 0.5}}


def evaluate(measures, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cranfield.evaluate(QRELS, RUN, measures, **kw)


# ------------------------------------------------------------------------ collection size


def test_collection_size_smaller_than_the_run_names_the_query():
    # q2 ranks 3 documents and the qrels judge one more ("a"): 4 known documents
    with pytest.raises(ParameterError, match=r"collection size 2 of query 'q2' is smaller than"):
        evaluate(["Rnorm"], collection_size={"q1": 10, "q2": 2})
    with pytest.raises(ParameterError, match=r"size 3 of query 'q1' is .*\(and 1 more queries\)"):
        evaluate(["Rnorm"], collection_size=3)


def test_collection_size_smaller_than_the_judged_documents_names_the_query():
    with pytest.raises(ParameterError, match=r"query 'q1'.*3 ranked.*1 judged but not ranked"):
        evaluate(["Rnorm"], collection_size={"q1": 3, "q2": 100})


def test_collection_size_per_query_mapping_and_file(tmp_path):
    f = tmp_path / "sizes.txt"
    f.write_text("# qid N\nq1 10\n\nq2 20\nq9 5\n")
    a = evaluate(["Rnorm", "Generality"], collection_size={"q1": 10, "q2": 20})
    b = evaluate(["Rnorm", "Generality"], collection_size=str(f))
    np.testing.assert_array_equal(a.values, b.values)
    assert a.per_query()["Generality"].tolist() == [300.0, 100.0]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("q1 10\n", "no collection size for query 'q2'"),
        ("q1 10\nq2 x\n", "line 2: collection size 'x' is not an integer"),
        ("q1 10 3\n", "line 1: expected 'qid collection size', got 3 fields"),
        ("q1 10\nq1 11\nq2 5\n", "line 2: query 'q1' is listed twice"),
        ("q1 10\nq2 0\n", "collection size of query 'q2' must be >= 1"),
        ("# nothing\n", "no 'qid collection size' lines"),
    ],
)
def test_bad_collection_size_files(tmp_path, text, problem):
    f = tmp_path / "sizes.txt"
    f.write_text(text)
    with pytest.raises(InputError, match=problem):
        evaluate(["Rnorm"], collection_size=str(f))


def test_measures_that_need_the_collection_size_say_so():
    for m in ("Rnorm", "Pnorm", "RankRecall", "LogPrecision", "WRnorm", "Fallout@5", "Generality"):
        with pytest.raises(ParameterError, match="needs the collection size N.*--collection-size"):
            evaluate([m])


def test_bad_collection_size_values():
    with pytest.raises(ParameterError, match="collection size must be >= 1"):
        evaluate(["Rnorm"], collection_size=0)
    with pytest.raises(ParameterError, match="must be an integer"):
        evaluate(["Rnorm"], collection_size=12.5)


# ------------------------------------------------------------------------ bad parameters


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("PRES@0", r"cutoff must be in \[1, 2147483647\], got 0"),
        ("PRES@-3", r"cutoff must be in \[1, 2147483647\], got -3"),
        ("PRESest@0", r"cutoff must be in \[1, 2147483647\]"),
        ("PRES", "needs a cut-off"),
        ("AdjP@10", "needs parameter generality"),
        ("AdjP(generality=0)@10", r"must be in \(0, 1000\]"),
        ("AdjP(generality=1500)@10", r"must be in \(0, 1000\]"),
        ("F(beta=-1)@10", r"beta must be in \[0, 1e\+100\], got -1"),
        ("RelRank(n=0)", r"n must be in \[1, 2147483647\] or last"),
        ("RelRank(n=first)", r"an integer in \[1, 2147483647\] or last"),
        ("ERR(max_grade=0)@10", r"max_grade must be in \[1, 9223372036854775807\]"),
        ("SlidingRatio", "needs a cut-off"),
        ("nDCG(convention=smart)@10", "must be one of trec, jk"),
        ("DCG(base=1)@10", "must be > 1"),
        ("nDCG(base=0.5)", "must be > 1"),
    ],
)
def test_bad_parameters_are_rejected_clearly(text, problem):
    with pytest.raises(MeasureError, match=problem):
        parse(text)


def test_rbp_p_outside_the_open_unit_interval_is_rejected():
    for p in ("0", "1", "1.5", "-0.2"):
        with pytest.raises(MeasureError, match="p"):
            parse(f"RBP(p={p})")


def test_dcg_discount_parameters_are_checked():
    with pytest.raises(ParameterError, match="base of the DCG logarithm must be > 1"):
        discounted(np.ones(2), np.array([1, 2]), "jk", 1.0)
    with pytest.raises(ParameterError, match="convention must be one of trec, jk"):
        discounted(np.ones(2), np.array([1, 2]), "smart", 2.0)


def test_err_rejects_grades_above_max_grade():
    with pytest.raises(ParameterError, match="grade 2"):
        evaluate(["ERR(max_grade=1)"])


# ------------------------------------------------------------------- known docs and targets


def test_coverage_and_novelty_with_known_documents(tmp_path):
    known = tmp_path / "known.txt"
    # the user knows a and b for q1 (c is listed with grade 0: not known), x for q2
    known.write_text("q1 0 a 1\nq1 0 b 1\nq1 0 c 0\nq2 0 x 1\n")
    res = evaluate(["Coverage", "Coverage@1", "Novelty", "Novelty@1"], known=str(known))
    v = res.per_query().to_dict("index")
    # q1 finds a, b (both known) of relevant {a, b, z}: coverage 1, novelty 0
    assert v["q1"] == {"Coverage": 1.0, "Coverage@1": 0.5, "Novelty": 0.0, "Novelty@1": 0.0}
    # q2 finds x (known), relevant {a, x}
    assert v["q2"] == {"Coverage": 1.0, "Coverage@1": 1.0, "Novelty": 0.0, "Novelty@1": 0.0}


def test_known_documents_that_are_not_relevant_are_reported():
    with pytest.warns(DataWarning, match="1 of the 2 documents known to the user are not"):
        cranfield.evaluate(QRELS, RUN, ["Novelty"], known={"q1": {"a": 1, "c": 1}})


def test_user_measures_say_what_they_need():
    with pytest.raises(ParameterError, match="needs the documents known to the user.*--known"):
        evaluate(["Coverage"])
    with pytest.raises(ParameterError, match="relevant documents the user wants.*--target"):
        evaluate(["RelativeRecall"])


def test_targets_and_their_validation(tmp_path):
    res = evaluate(["RelativeRecall", "RelativeRecall(cap=false)", "RecallEffort"], target=2)
    v = res.per_query().to_dict("index")
    # q1: a, b relevant at ranks 1 and 3 -> 2 of 2 wanted, effort 2/3
    assert v["q1"] == {
        "RelativeRecall": 1.0,
        "RelativeRecall(cap=false)": 1.0,
        "RecallEffort": pytest.approx(2 / 3),
    }
    # q2: x at rank 1 only -> 1 of 2; the target is never reached: effort 0
    assert v["q2"]["RelativeRecall"] == 0.5 and v["q2"]["RecallEffort"] == 0.0
    one = evaluate(["RelativeRecall(cap=false)"], target=1).per_query()
    assert one.loc["q1"].iloc[0] == 2.0
    with pytest.raises(ParameterError, match="target must be >= 1"):
        evaluate(["RelativeRecall"], target=0)
    f = tmp_path / "t.txt"
    f.write_text("q1 3\n")
    with pytest.raises(InputError, match="no target for query 'q2'"):
        evaluate(["RelativeRecall"], target=str(f))


def test_relrank_without_collection_size_is_nan_with_a_warning():
    # q1's relevant z is not ranked: the last relevant rank is undefined without N
    with pytest.warns(cranfield.UndefinedMeasureWarning, match="RelRank"):
        res = cranfield.evaluate(QRELS, RUN, ["RelRank(n=last)"])
    assert math.isnan(res.per_query().loc["q1"].iloc[0])
    res = evaluate(["RelRank(n=last)"], collection_size=10)
    assert res.per_query().loc["q1"].iloc[0] == 10.0


# ----------------------------------------------------------------------------- aggregation


def test_mean_gmean_median_aggregates():
    labels = ["Rnorm", "PRES@2", "F@2"]
    res = evaluate(labels, collection_size=10)
    for how, fn in (
        ("mean", statistics.fmean),
        ("median", statistics.median),
        ("gmean", lambda xs: math.exp(statistics.fmean(math.log(max(x, 1e-5)) for x in xs))),
    ):
        again = evaluate(labels, collection_size=10, aggregate=how)
        for j, lab in enumerate(labels):
            assert again.aggregate()[lab] == pytest.approx(fn(res.values[:, j].tolist()), rel=1e-12)
        assert again.to_dict()["aggregation"] == dict.fromkeys(labels, how)


def test_micro_falls_back_to_mean_with_a_warning_and_counts_stay_summed():
    with pytest.warns(DataWarning, match="micro averaging is not defined for AP"):
        res = cranfield.evaluate(QRELS, RUN, ["AP", "P@2", "NumRel"], aggregate="micro")
    assert res.to_dict()["aggregation"] == {"AP": "mean", "P@2": "micro", "NumRel": "sum"}
    assert res.aggregate()["NumRel"] == 5
    with pytest.raises(ParameterError, match="AP has no micro average"):
        res.aggregate("micro")


def test_per_measure_aggregation_and_bad_names():
    res = evaluate(["P@2", "R@2"], aggregate={"R@2": "micro"})
    # R@2: q1 1 of 3, q2 1 of 2 -> micro 2/5, mean (1/3 + 1/2) / 2
    assert res.aggregate() == {"P@2": 0.5, "R@2": 0.4}
    with pytest.raises(ParameterError, match="not one of the measures"):
        evaluate(["P@2"], aggregate={"P@5": "micro"})
    with pytest.raises(ParameterError, match="unknown aggregation 'mode'"):
        evaluate(["P@2"], aggregate="mode")
    with pytest.raises(ParameterError, match="evaluate with aggregate='micro'"):
        evaluate(["P@2"]).aggregate("micro")


# -------------------------------------------------------------------------------- the CLI


def _cran_files(tmp_path, data_dir):
    """Cranfield 1400 qrels and a run of 1000 documents per query (a fixed permutation)."""
    qrels = data_dir / "cran" / "qrels.trec"
    rng = np.random.default_rng(7)
    lines = []
    for q in sorted({ln.split()[0] for ln in qrels.read_text().splitlines() if ln.strip()}):
        for rank, d in enumerate(rng.permutation(1400)[:1000] + 1, 1):
            lines.append(f"{q} Q0 {d} {rank} {1000 - rank} perm\n")
    run = tmp_path / "run.txt"
    run.write_text("".join(lines))
    return str(qrels), str(run)


def test_cli_pres_and_rnorm_on_cranfield(cli, tmp_path, data_dir):
    qrels, run = _cran_files(tmp_path, data_dir)
    out = cli("evaluate", qrels, run, "-m", "PRES@1000", "-m", "Rnorm", "--collection-size", "1400")
    assert out.returncode == 0, out.stderr.decode()
    head, _, row, *note = out.stdout.decode().splitlines()
    assert note == ["", "Means over 225 queries, every judged query of the qrels."]
    assert head.split()[-2:] == ["PRES@1000", "Rnorm"]
    pres, rnorm = map(float, row.split()[-2:])
    # a random ranking: Rnorm near 0.5 (Robertson 1969), PRES well below recall (~0.71)
    assert 0.4 < rnorm < 0.6 and 0.0 < pres < 0.5


def test_cli_collection_smaller_than_the_run_is_one_line_exit_2(cli, tmp_path, data_dir):
    qrels, run = _cran_files(tmp_path, data_dir)
    out = cli("evaluate", qrels, run, "-m", "Rnorm", "--collection-size", "999")
    assert out.returncode == 2
    err = out.stderr.decode()
    assert err.startswith("cranfield: error: collection size 999 of query '1' ")
    assert "Traceback" not in err


def test_cli_side_inputs_aggregate_and_csv_json(cli, tmp_path):
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1 0 a 1\nq1 0 b 2\nq1 0 c 0\nq1 0 z 1\nq2 0 a 1\nq2 0 x 1\n")
    run = tmp_path / "run.txt"
    run.write_text("q1 Q0 a 1 3 t\nq1 Q0 c 2 2 t\nq1 Q0 b 3 1 t\nq2 Q0 x 1 2 t\nq2 Q0 y 2 1 t\n")
    sizes = tmp_path / "sizes.txt"
    sizes.write_text("q1 10\nq2 20\n")
    known = tmp_path / "known.txt"
    known.write_text("q1 0 a 1\nq2 0 a 1\n")
    args = ["evaluate", str(qrels), str(run), "-m", "R@2", "-m", "Rnorm", "-m", "Coverage"]
    args += ["-m", "RelativeRecall", "--collection-size", str(sizes), "--known", str(known)]
    args += ["--target", "2", "--aggregate", "R@2=micro"]
    out = cli(*args, "--format", "json")
    assert out.returncode == 0, out.stderr.decode()
    doc = json.loads(out.stdout)["runs"][0]
    assert doc["summary"] == {"queries": 2, "retrieved": 5, "relevant": 5, "relevant_retrieved": 3}
    assert doc["aggregation"]["R@2"] == "micro" and doc["aggregation"]["Rnorm"] == "mean"
    assert doc["aggregate"]["R@2"] == pytest.approx(2 / 5)
    assert doc["aggregate"]["Coverage"] == pytest.approx(0.5)  # q1 finds a; q2 misses a
    csv = cli(*args, "--format", "csv").stdout.decode().splitlines()
    assert (
        csv[0]
        == "run,queries,retrieved,relevant,relevant_retrieved,R@2,Rnorm,Coverage,RelativeRecall"
    )
    assert csv[1].startswith("run.txt,2,5,5,3,0.4,")
    pq = cli(*args, "--format", "csv", "--per-query").stdout.decode().splitlines()
    assert pq[0].startswith("run,query_id,queries,retrieved,relevant,relevant_retrieved,R@2")
    assert pq[1].startswith("run.txt,q1,,,,,") and pq[-1].startswith("run.txt,all,2,5,5,3,")


def test_cli_measures_lists_every_literature_measure(cli):
    out = cli("measures")
    assert out.returncode == 0
    text = out.stdout.decode()
    names = ["PRES", "PRESest", "Rnorm", "Pnorm", "RankRecall", "LogPrecision", "WRnorm"]
    names += ["Fallout", "SlidingRatio", "F", "E", "Fprime", "ERR", "GMAP", "CG", "nCG"]
    names += ["Generality", "AdjP", "RelRank", "SearchLength", "Coverage", "Novelty"]
    names += ["RelativeRecall", "RecallEffort", "RR"]
    listed = {
        line.split("(")[0].split("@")[0].split("[")[0].split()[0]
        for line in text.splitlines()
        if line and not line.startswith(" ")
    }
    assert set(names) <= listed
    assert "(also MRR)" in text
