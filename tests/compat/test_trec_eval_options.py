"""The trec_eval command line: getopt parsing, measure marking, parameters, names, exits."""

from __future__ import annotations

import io
import math

import pytest

from cranfield.compat.trec_eval.catalogue import BY_NAME, ParamError, parse_params
from cranfield.compat.trec_eval.cformat import atof, atol, fmt_double, fmt_name_double
from cranfield.compat.trec_eval.engine import Exit, init_measures, main, mark_measures
from cranfield.compat.trec_eval.options import UsageError, parse_argv
from cranfield.errors import InputError

QRELS = b"1 0 a 1\n1 0 b 0\n1 0 c 2\n2 0 a 0\n2 0 d 1\n3 0 x 1\n"
RUN = b"1 Q0 a 1 3.0 tagA\n1 Q0 b 2 2.0 tagA\n1 Q0 z 3 1.0 tagA\n2 Q0 d 1 5 tagB\n"


# ------------------------------------------------------------------------------ getopt
def test_attached_grouped_permuted_and_long_options():
    o = parse_argv(["q.txt", "-qc", "-M100", "-mP.5", "r.txt", "-l", "2", "--measure=map"])
    assert o.files == ["q.txt", "r.txt"]
    assert o.query and o.complete and o.max_docs == 100 and o.level == 2
    assert o.measures == ["P.5", "map"]
    o = parse_argv(["--Judged_docs_only", "--nosummary", "--Number_docs_in_coll", "7", "a", "b"])
    assert o.judged_only and not o.summary and o.num_docs == 7
    assert parse_argv(["--Max_retr=3", "a", "b"]).max_docs == 3  # unambiguous prefix
    assert parse_argv(["-o", "-T", "trec_results", "-R", "prefs", "a", "b"]).rel_format == "prefs"


def test_double_dash_ends_options():
    assert parse_argv(["-q", "--", "-weird", "b"]).files == ["-weird", "b"]


def test_numbers_are_read_with_atol():
    assert parse_argv(["-M", "2.7", "a", "b"]).max_docs == 2
    assert parse_argv(["-l", "x", "a", "b"]).level == 0
    o = parse_argv(["-D", "3.301", "a", "b"])
    assert (o.debug_level, o.debug_query) == (3, "301")


@pytest.mark.parametrize("argv", [["-x", "a", "b"], ["-M"], ["--nosuch", "a", "b"]])
def test_unknown_or_incomplete_options_are_usage_errors(argv):
    with pytest.raises(UsageError):
        parse_argv(argv)


def test_c_number_conversions():
    assert atol("23.4") == 23 and atol(" +7x") == 7 and atol("abc") == 0 and atol("-5") == -5
    assert atof("1.5x") == 1.5 and atof("abc") == 0.0 and atof("0x10") == 16.0
    assert atof(".25") == 0.25 and atof("1,5") == 1.0 and atof("-inf") == -math.inf


# ------------------------------------------------------------------------------ marking
def test_nicknames_and_parameters_first_one_wins():
    marked, params = mark_measures(["official", "P.3", "P.5,10"])
    assert "map" in marked and "P" in marked and "ndcg" not in marked
    measures = dict((tm.name, p) for tm, p in init_measures(marked, params))
    assert measures["P"].values == (3,)
    marked, params = mark_measures(["all_trec", "official"])
    order = [tm.name for tm, _ in init_measures(marked, params)]
    assert order == [name for name in BY_NAME if name in marked]  # print order, not -m order
    assert order[:3] == ["runid", "num_q", "num_ret"] and order[-3:] == ["rbp", "rbp_resid", "unj"]


def test_params_given_with_a_nickname_are_never_used():
    marked, params = mark_measures(["all_trec.5"])
    (p_params,) = [p for tm, p in init_measures(marked, params) if tm.name == "P"]
    assert p_params.text is None and p_params.values == (5, 10, 15, 20, 30, 100, 200, 500, 1000)


@pytest.mark.parametrize(
    ("arg", "message"),
    [
        ("nosuch", "trec_eval: illegal measure 'nosuch'\n"),
        ("P.", "trec_eval: improper measure in parameter 'P'\ntrec_eval: illegal measure 'P'\n"),
        ("ndcg_p", "trec_eval: illegal measure 'ndcg_p'\n"),
    ],
)
def test_illegal_measures_exit_1(arg, message):
    with pytest.raises(Exit) as exc:
        mark_measures([arg])
    assert exc.value.status == 1 and exc.value.message == message


# ------------------------------------------------------------------------------ parameters
def test_long_cutoffs_are_sorted_and_truncated():
    p = parse_params(BY_NAME["ndcg_cut"], "10,20,23.4")
    assert p.values == (10, 20, 23)
    assert BY_NAME["P"].slot_names(parse_params(BY_NAME["P"], "5,7,3")) == ["P_3", "P_5", "P_7"]


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("P", "5,0", "Negative cutoff detected"),
        ("P", "5,x", "Negative cutoff detected"),
        ("P", "5,5", "duplicate cutoffs detected"),
        ("iprec_at_recall", ".5,0.5", "duplicate cutoffs detected"),
        ("ndcg", "1=3,", "malformed pair parameters in '1=3,'"),
        ("ndcg", "1=3=4", "malformed pair parameters"),
        ("ndcg", "1", "malformed pair parameters"),
        ("rbp", ",p=0.5", "malformed pair parameters"),
    ],
)
def test_bad_parameters(name, text, message):
    with pytest.raises(ParamError, match=message):
        parse_params(BY_NAME[name], text)


def test_bad_parameters_exit_2_naming_the_measure():
    with pytest.raises(Exit) as exc:
        init_measures(*mark_measures(["P.5,5"]))
    assert exc.value.status == 2
    assert exc.value.message.endswith("trec_eval: Cannot initialize measure 'P'\n")


def test_printed_names():
    def names(measure, text=None):
        tm = BY_NAME[measure]
        return tm.slot_names(parse_params(tm, text))

    assert names("iprec_at_recall", ".333,0.5") == ["iprec_at_recall_0.33", "iprec_at_recall_0.50"]
    assert names("Rprec_mult", "5.0") == ["Rprec_mult_5.00"]
    assert names("Rprec_mult", "123456.7") == ["Rprec_mult_123456.7"]  # C buffer: 8 + 2 chars
    assert names("utility") == ["utility"] and names("utility", "2,-1,0,0") == ["utility_2,-1,0,0"]
    assert names("ndcg", "1=3,2=9,4=4.5") == ["ndcg_1=3,2=9,4=4.5"]
    assert names("rbp", "p=0.8") == ["rbp_p=0.8"] and names("set_F", "0.5") == ["set_F_0.5"]
    assert names("relstring", "20") == ["relstring_20"]
    assert names("unj") == ["unj_5", "unj_10", "unj_20"]


def test_printf_formats():
    assert fmt_double(0.12345) == "0.1235" and fmt_double(-412.66666) == "-412.6667"
    assert fmt_double(float("inf")) == "   inf"
    assert fmt_double(-math.nan) == "  -nan" and fmt_double(math.nan) == "   nan"
    assert fmt_name_double("x", 0.125) == "x_0.12"  # glibc rounds the binary value


# ------------------------------------------------------------------------------ the command
def run(tmp_path, *argv, qrels=QRELS, results=RUN):
    (tmp_path / "q").write_bytes(qrels)
    (tmp_path / "r").write_bytes(results)
    out, err = io.BytesIO(), io.StringIO()
    args = [a.replace("@q", str(tmp_path / "q")).replace("@r", str(tmp_path / "r")) for a in argv]
    status = main(args, out=out, err=err)
    return status, out.getvalue().decode(), err.getvalue()


def test_usage_exit_1(tmp_path):
    status, out, err = run(tmp_path, "-q", "@q")
    assert status == 1 and out == "" and err.startswith("Usage: trec_eval")
    status, _, err = run(tmp_path, "-x", "@q", "@r")
    assert status == 1 and "Usage: trec_eval" in err


def test_help_and_version_exit_0(tmp_path):
    status, out, _ = run(tmp_path, "-h", "-m", "bpref")
    assert status == 0 and "bpref\n    cranfield: Bpref" in out and "-M, --Max_retrieved" in out
    status, out, err = run(tmp_path, "-v")
    assert status == 0 and out == "" and err.startswith("trec_eval version 10.0")


def test_unknown_formats_exit_2(tmp_path):
    assert run(tmp_path, "-R", "trec", "@q", "@r")[:3:2] == (
        2,
        "trec_eval: Illegal rel_format 'trec'\n",
    )
    status, _, err = run(tmp_path, "-T", "other", "@q", "@r")
    assert status == 2 and "Illegal retrieval results format 'other'" in err


def test_measure_on_the_wrong_rel_format_exits_4(tmp_path):
    status, out, err = run(tmp_path, "-m", "map", "-R", "qrels_prefs", "@q", "@r")
    assert status == 4 and out == "" and err.endswith("trec_eval: Can't calculate measure 'map'\n")


def test_utility_needs_four_coefficients(tmp_path):
    status, _, err = run(tmp_path, "-m", "utility.1,2", "@q", "@r")
    assert status == 4 and "improper number of coefficients" in err


def test_no_common_topic_exits_7(tmp_path):
    status, _, err = run(tmp_path, "@q", "@r", qrels=b"9 0 a 1\n")
    assert status == 7 and err == "trec_eval: No queries with both results and relevance info\n"


def test_input_errors_are_cranfield_errors_with_file_and_line(cli, tmp_path):
    (tmp_path / "q").write_bytes(b"1 0 a 1\n1 0 b\n")
    (tmp_path / "r").write_bytes(RUN)
    proc = cli("trec_eval", str(tmp_path / "q"), str(tmp_path / "r"))
    assert proc.returncode == 2
    assert proc.stderr.decode().startswith(f"cranfield: error: {tmp_path / 'q'}: line 2: ")


def test_only_trec_text_is_read_as_trec_eval_reads_it(cli, tmp_path):
    """evaluate detects MS MARCO runs and headed CSV; trec_eval (and its front end) does not."""
    (tmp_path / "q").write_bytes(QRELS)
    (tmp_path / "msmarco").write_bytes(b"1\ta\t1\n1\tb\t2\n")
    (tmp_path / "csv").write_bytes(b"qid,docno,score\n1,a,2.0\n")
    (tmp_path / "qrels.csv").write_bytes(b"qid,docno,label\n1,a,1\n")
    assert cli("evaluate", str(tmp_path / "q"), str(tmp_path / "msmarco")).returncode == 0
    for qrels, run_ in (("q", "msmarco"), ("q", "csv"), ("qrels.csv", "msmarco")):
        proc = cli("trec_eval", str(tmp_path / qrels), str(tmp_path / run_))
        assert proc.returncode == 2 and proc.stdout == b""
        assert f"{tmp_path / qrels if qrels != 'q' else tmp_path / run_}: line 1: " in (
            proc.stderr.decode()
        )


def test_negative_level_and_depth_are_rejected(cli, tmp_path):
    (tmp_path / "q").write_bytes(QRELS)
    (tmp_path / "r").write_bytes(RUN)
    for flag in (["-l", "-1"], ["-M", "-3"]):
        proc = cli("trec_eval", *flag, str(tmp_path / "q"), str(tmp_path / "r"))
        assert proc.returncode == 2 and b"must be >= 0" in proc.stderr


def test_topics_without_results_are_skipped_unless_c(tmp_path):
    # topic 3 is judged but has no results: 10.0 aborts, 9.x and the help text skip it
    status, out, err = run(tmp_path, "-q", "-m", "num_ret", "-m", "num_rel", "@q", "@r")
    assert status == 0
    # said on standard error as one line, also in-process under the suite's -W error filter
    assert err == (
        "cranfield: warning: r: 1 judged queries have no results and were skipped "
        "(use -c to score them as empty rankings) (first: '3')\n"
    )
    assert out.splitlines() == [
        "num_ret               \t1\t3",
        "num_rel               \t1\t2",
        "num_ret               \t2\t1",
        "num_rel               \t2\t1",
        "num_ret               \tall\t4",
        "num_rel               \tall\t3",
    ]
    status, out, _ = run(
        tmp_path, "-q", "-c", "-l2", "-m", "num_rel", "-m", "relstring", "@q", "@r"
    )
    lines = out.splitlines()
    assert "relstring             \t3\t''" in lines
    assert "num_rel               \t3\t0" in lines
    # the -c summary counts every qrels line with grade > 0, whatever -l says (trec_eval)
    assert lines[-1] == "num_rel               \tall\t4"


def test_nosummary_debug_query_runid_and_relstring(tmp_path):
    status, out, _ = run(
        tmp_path, "-q", "-n", "-D", "1.2", "-m", "runid", "-m", "relstring", "@q", "@r"
    )
    assert status == 0 and out == "relstring             \t2\t'1'\n"
    status, out, _ = run(tmp_path, "-m", "runid", "-m", "relstring.2", "-q", "@q", "@r")
    assert out.splitlines() == [
        "relstring_2           \t1\t'10'",
        "relstring_2           \t2\t'1'",
        "runid                 \tall\ttagB",
    ]


def test_depth_zero_gives_nan_interpolated_precision(tmp_path):
    status, out, _ = run(tmp_path, "-q", "-M0", "-m", "iprec_at_recall.0", "@q", "@r")
    assert status == 0
    assert out.splitlines()[0] == "iprec_at_recall_0.00  \t1\t  -nan"


def test_topic_with_only_negative_grades_does_not_crash(tmp_path):
    # trec_eval 10.0 segfaults on this qrels topic (Q3); its intent: unjudged, nothing relevant
    status, out, _ = run(
        tmp_path, "-q", "-m", "all_trec", "@q", "@r", qrels=b"1 0 a -2\n1 0 b -3\n2 0 d 1\n"
    )
    assert status == 0
    assert "map                   \t1\t0.0000" in out.splitlines()
    assert "relstring             \t1\t'..-'" in out.splitlines()


def test_zscore_file_errors_name_the_line(tmp_path):
    (tmp_path / "z").write_bytes(b"1 map 0.5 0.1\n1 P_5 x 0.1\n")
    with pytest.raises(InputError, match="line 2: mean 'x' is not a number"):
        run(tmp_path, "-Z", str(tmp_path / "z"), "@q", "@r")


def test_every_trec_eval_measure_is_in_the_docs_table():
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "trec_eval.md").read_text()
    table = [line for line in doc.splitlines() if line.startswith("| `")]
    for name in BY_NAME:
        assert any(line.startswith(f"| `{name}` |") for line in table), name


def test_missing_topic_under_c_is_a_dummy_ranking_for_interpolated_precision(tmp_path):
    # -c: topic 3 has no results; trec_eval scores a one-document dummy ranking (0), which
    # -M0 or -J removes as well (0/0: -nan)
    args = ["-q", "-c", "-m", "iprec_at_recall.0", "@q", "@r"]
    assert "iprec_at_recall_0.00  \t3\t0.0000" in run(tmp_path, *args)[1].splitlines()
    for flag in ("-M0", "-J"):
        out = run(tmp_path, flag, *args)[1].splitlines()
        assert "iprec_at_recall_0.00  \t3\t  -nan" in out


# trec_eval 10.0 (tag v10.0, built from its sources) on qrels '1 0 d1 1' / '2 0 d1 1' and the
# run '1 Q0 d1 1 1 r' with -q -c: topic 2 is its dummy ranking (one document not in the
# qrels).  trec_eval.c blanks only the values named exactly num_ret, utility, relstring,
# rbp_resid (and unj*): parameterised names keep the dummy's values, as does a gain given for
# grade -1 (the dummy document's); -J removes the dummy document.
DUMMY_QRELS, DUMMY_RUN = b"1 0 d1 1\n2 0 d1 1\n", b"1 Q0 d1 1 1 r\n"
DUMMY_CASES = [
    (
        ["-m", "utility.2,-1,0,0", "-m", "rbp_resid.p=0.8", "-m", "relstring.5", "-m", "ndcg.-1=3"],
        "relstring_5           \t1\t'1'\n"
        "utility_2,-1,0,0      \t1\t2.0000\n"
        "ndcg_-1=3             \t1\t1.0000\n"
        "rbp_resid_p=0.8       \t1\t0.0000\n"
        "relstring_5           \t2\t'-'\n"
        "utility_2,-1,0,0      \t2\t-1.0000\n"
        "ndcg_-1=3             \t2\t3.0000\n"
        "rbp_resid_p=0.8       \t2\t1.0000\n"
        "utility_2,-1,0,0      \tall\t0.5000\n"
        "ndcg_-1=3             \tall\t2.0000\n"
        "rbp_resid_p=0.8       \tall\t0.5000\n",
    ),
    (
        ["-m", "utility", "-m", "rbp_resid", "-m", "relstring", "-m", "unj.3", "-m", "num_ret"],
        "num_ret               \t1\t1\n"
        "relstring             \t1\t'1'\n"
        "utility               \t1\t1.0000\n"
        "rbp_resid             \t1\t0.0000\n"
        "unj_3                 \t1\t0.0000\n"
        "num_ret               \t2\t0\n"
        "relstring             \t2\t''\n"
        "utility               \t2\t0.0000\n"
        "rbp_resid             \t2\t0.0000\n"
        "unj_3                 \t2\t0.0000\n"
        "num_ret               \tall\t1\n"
        "utility               \tall\t0.5000\n"
        "rbp_resid             \tall\t0.0000\n"
        "unj_3                 \tall\t0.0000\n",
    ),
    (
        ["-J", "-m", "utility.2,-1,0,0", "-m", "rbp_resid.p=0.8", "-m", "relstring.5"],
        "relstring_5           \t1\t'1'\n"
        "utility_2,-1,0,0      \t1\t2.0000\n"
        "rbp_resid_p=0.8       \t1\t0.0000\n"
        "relstring_5           \t2\t''\n"
        "utility_2,-1,0,0      \t2\t0.0000\n"
        "rbp_resid_p=0.8       \t2\t0.0000\n"
        "utility_2,-1,0,0      \tall\t1.0000\n"
        "rbp_resid_p=0.8       \tall\t0.0000\n",
    ),
]


@pytest.mark.parametrize("streamed", [False, True], ids=["whole", "blocks"])
@pytest.mark.parametrize(("args", "expected"), DUMMY_CASES)
def test_c_blanks_the_dummy_ranking_by_exact_name_as_trec_eval(
    tmp_path, monkeypatch, args, expected, streamed
):
    from cranfield.io.trec import text as text_io

    monkeypatch.setattr(text_io, "PIECES_FROM_BYTES", 0 if streamed else 1 << 62)
    argv = ["-q", "-c", *args, "@q", "@r"]
    status, out, _ = run(tmp_path, *argv, qrels=DUMMY_QRELS, results=DUMMY_RUN)
    assert status == 0 and out == expected


def _line(name: str, topic: str, value: float) -> str:
    return f"{name:<22}\t{topic}\t{value:6.4f}"


def test_dcg_ideal_dcg_and_ndcg_each_keep_their_own_gains(tmp_path):
    """In 10.0 the three share one parameter table (m_ndcg.c): '-m ndcg.1=3 -m dcg' computes
    dcg with ndcg's gains, then crashes freeing the table twice (docs/trec_eval.md, Q10).
    cranfield gives each its own gains.  By hand: a (grade 2), b (1), c (0) ranked c, b, a."""
    qrels, results = b"1 0 a 2\n1 0 b 1\n1 0 c 0\n", b"1 Q0 c 1 3 r\n1 Q0 b 2 2 r\n1 Q0 a 3 1 r\n"
    log2 = math.log2
    dcg = 0 / log2(2) + 1 / log2(3) + 2 / log2(4)  # the grades as gains
    dcg3 = 0 / log2(2) + 3 / log2(3) + 2 / log2(4)  # grade 1 gains 3
    ideal, ideal3 = 2 / log2(2) + 1 / log2(3), 3 / log2(2) + 2 / log2(3)
    status, out, _ = run(tmp_path, "-q", "-m", "ndcg.1=3", "-m", "dcg", "@q", "@r", qrels=qrels,
                         results=results)  # fmt: skip
    assert status == 0
    assert out.splitlines() == [
        _line("dcg", "1", dcg),
        _line("ndcg_1=3", "1", dcg3 / ideal3),
        _line("dcg", "all", dcg),
        _line("ndcg_1=3", "all", dcg3 / ideal3),
    ]
    argv = ["-q", "-m", "ndcg", "-m", "dcg.1=3", "-m", "ideal_dcg", "@q", "@r"]
    status, out, _ = run(tmp_path, *argv, qrels=qrels, results=results)
    assert status == 0
    assert out.splitlines() == [
        _line("dcg_1=3", "1", dcg3),
        _line("ideal_dcg", "1", ideal),
        _line("ndcg", "1", dcg / ideal),
        _line("dcg_1=3", "all", dcg3),
        _line("ideal_dcg", "all", ideal),
        _line("ndcg", "all", dcg / ideal),
    ]


# topic 2 has no grade >= 0: x is judged -1 (in the pool, unjudged), y is not in the qrels
NEGATIVE_QRELS = b"1 0 a 2\n1 0 b 1\n2 0 x -1\n"
NEGATIVE_RUN = b"1 Q0 a 1 2 r\n1 Q0 b 2 1 r\n2 Q0 x 1 2 r\n2 Q0 y 2 1 r\n"


@pytest.mark.parametrize(
    ("measure", "name", "value"),
    [
        ("ideal_dcg", "ideal_dcg", 0.0),  # no judged grade: the ideal ranking is empty
        ("ndcg.-1=3", "ndcg_-1=3", 0.0),  # DCG 3/log2(3) over an ideal of 0: 0
        ("ndcg_rel.-1=3", "ndcg_rel_-1=3", 0.0),
        ("G.-1=3", "G_-1=3", 0.0),
        ("rbp.-1=1", "rbp_-1=1", (1 - 0.9) * 0.9),  # y's gain 1 at rank 2, not rescaled
    ],
)
def test_a_topic_without_grades_has_its_own_empty_grade_table(tmp_path, measure, name, value):
    """Q5: 10.0 measures topic 2 with topic 1's grade table (ideal_dcg 2.6309, ndcg_-1=3
    0.7194, rbp_-1=1 0.0450, docs/trec_eval.md); cranfield with its own, empty one."""
    argv = ["-q", "-m", measure, "@q", "@r"]
    status, out, _ = run(tmp_path, *argv, qrels=NEGATIVE_QRELS, results=NEGATIVE_RUN)
    assert status == 0 and _line(name, "2", value) in out.splitlines()


def test_a_first_topic_without_grades_is_evaluated(tmp_path):
    """Q11: 10.0 exits 4 ('Can't calculate measure') when the first topic it evaluates has no
    grade >= 0; cranfield evaluates it: nothing relevant, AP 0; topic 2's one relevant
    document at rank 1: AP 1."""
    qrels, results = b"1 0 x -1\n2 0 a 1\n", b"1 Q0 x 1 2 r\n1 Q0 y 2 1 r\n2 Q0 a 1 1 r\n"
    status, out, _ = run(tmp_path, "-q", "-m", "map", "@q", "@r", qrels=qrels, results=results)
    assert status == 0
    assert out.splitlines() == [
        _line("map", "1", 0),
        _line("map", "2", 1),
        _line("map", "all", 0.5),
    ]
