"""MS MARCO's 3-column runs and CSV/TSV with a header: read by explicit format or by
unambiguous detection, never by a guess; both parsers of each format agree; the files the
peers write (PyTerrier's "minimal" results, pandas' to_csv) read back as their data."""

from __future__ import annotations

import gzip
import warnings

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cranfield
from conftest import run_cli
from cranfield.errors import InputError, ParameterError
from cranfield.io import headed, msmarco
from cranfield.io.formats import FormattedPath


def _write(path, text: str):
    path.write_bytes(text.encode())
    return str(path)


# ---------------------------------------------------------------------------- MS MARCO
MSMARCO = "1\td7\t1\n1\td3\t2\n1\td5\t3\n2\td1\t1\n2\td9\t2\n"


def test_msmarco_run_detected_and_explicit(tmp_path):
    path = _write(tmp_path / "run.dev.small.tsv", MSMARCO)  # no header, whatever the name
    for run in (cranfield.read_run(path), cranfield.read_run(path, format="msmarco")):
        assert run.to_dict() == {
            "1": {"d7": -1.0, "d3": -2.0, "d5": -3.0},
            "2": {"d1": -1.0, "d9": -2.0},
        }
        assert run.ranks.tolist() == [1, 2, 3, 1, 2]
        assert run.name == "run.dev.small.tsv"


def test_msmarco_ranks_are_the_order_whatever_the_tie_policy(tmp_path):
    path = _write(tmp_path / "r", "1 b 2\n1 a 1\n1 c 3\n")
    qrels = {"1": {"a": 1, "b": 0, "c": 1}}
    for ties in ("trec", "given", "random", "weak"):
        res = cranfield.evaluate(qrels, cranfield.read_run(path, format="msmarco"), "AP", ties=ties)
        assert res.values[0, 0] == pytest.approx((1 + 2 / 3) / 2), ties  # a, b, c


def test_pyterriers_minimal_results_read_back(tmp_path):
    """PyTerrier writes MS MARCO runs with its 0-based ranks ("minimal" format)."""
    pt = pytest.importorskip("pyterrier")
    res = pd.DataFrame(
        {"qid": ["1", "1", "1", "2"], "docno": ["a", "b", "c", "d"], "rank": [0, 1, 2, 0],
         "score": [3.0, 2.0, 1.0, 5.0]}
    )  # fmt: skip
    path = tmp_path / "run.tsv.txt"
    pt.io.write_results(res, str(path), format="minimal")
    run = cranfield.read_run(str(path))
    assert run.ranks.tolist() == [0, 1, 2, 0]
    qrels = pd.DataFrame({"qid": ["1", "2"], "docno": ["b", "d"], "label": [1, 1]})
    ours = cranfield.evaluate(qrels, run, ["AP", "RR"])
    theirs = cranfield.evaluate(qrels, res, ["AP", "RR"])  # the scored frame
    assert ours.values.tolist() == theirs.values.tolist()


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("1 a 1\n1 b 3\n", "line 2: rank 3 follows rank 1 for query '1'"),
        ("1 a 2\n1 b 3\n", "line 1: the first rank of query '1' is 2"),
        ("1 a 2\n1 b 1\n", "line 1: the first rank of query '1' is 2"),
        ("1 a 1\n2 b 1\n1 c 3\n", "line 3: rank 3 follows rank 1"),
    ],
)
def test_detection_refuses_what_is_not_numbered_like_msmarco(tmp_path, text, problem):
    path = _write(tmp_path / "r", text)
    with pytest.raises(InputError, match=problem) as exc:
        cranfield.read_run(path)
    assert "--run-format msmarco" in str(exc.value)
    assert len(cranfield.read_run(path, format="msmarco")) == text.count("\n")  # when told


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("1 a 0.5\n", "line 1: rank '0.5' is not an integer"),
        ("1 a x\n", "line 1: rank 'x' is not an integer"),
        ("1 a 1\n1 b\n", "line 2: expected 3 columns .query, document, rank., found 2"),
        ("1 a 1\n1 b 1\n", "line 2: rank 1 is given twice for query '1' .first at line 1."),
        ("1 a 1\n1 a 2\n", "line 2: document 'a' is listed twice"),
        ("1 a -1\n", "line 1: rank '-1' is out of range"),
        ("1 a 99999999999999999999\n", "out of range .ranks are 0 to 2..53."),
        ("#1 a 1\n", "ambiguous line"),
        ("# comment\n\n", "no results"),
    ],
)
def test_msmarco_errors_name_the_line(tmp_path, text, problem):
    path = _write(tmp_path / "r", text)
    with pytest.raises(InputError, match=problem):
        cranfield.read_run(path, format="msmarco")


def test_msmarco_comments_blank_lines_crlf_and_compression(tmp_path):
    text = "# made by hand\n1\td7\t1\r\n\n1\td3\t2\n"
    path = tmp_path / "r.gz"
    path.write_bytes(gzip.compress(text.encode()))
    run = cranfield.read_run(str(path))
    assert run.to_dict() == {"1": {"d7": -1.0, "d3": -2.0}}
    assert run.line_counts.comments == 1 and run.line_counts.blank == 1


def test_a_trec_run_is_still_a_trec_run(tmp_path):
    path = _write(tmp_path / "r", "1 Q0 a 1 2.5 tag\n1 Q0 b 2 1.5 tag\n")
    assert cranfield.read_run(path).to_dict() == {"1": {"a": 2.5, "b": 1.5}}
    bad = _write(tmp_path / "b", "1 Q0 a 1 2.5\n")  # 5 fields: the TREC message, unchanged
    with pytest.raises(InputError, match="expected at least 6 columns"):
        cranfield.read_run(bad)
    with pytest.raises(InputError, match="expected at least 6 columns"):
        cranfield.read_run(_write(tmp_path / "m", MSMARCO), format="trec")


_IDS = st.text("abcXYZ019#_-.é", min_size=1, max_size=5).filter(lambda s: not s.startswith("#"))


@st.composite
def _msmarco_files(draw):
    lines, expected = [], []
    for q in draw(st.lists(_IDS, min_size=1, max_size=4, unique=True)):
        docs = draw(st.lists(_IDS, min_size=1, max_size=6, unique=True))
        start = draw(st.sampled_from([0, 1]))
        for r, d in enumerate(docs, start):
            lines.append(f"{q}\t{d}\t{r}")
            expected.append((q, d, r))
    return "\n".join(lines) + draw(st.sampled_from(["\n", ""])), expected


@settings(derandomize=True, max_examples=80, deadline=None)
@given(_msmarco_files())
def test_msmarco_arrow_and_line_parsers_agree(monkeypatch_module, case):
    text, expected = case
    data = text.encode()
    slow = msmarco.parse_msmarco_run(data, "f", "r")
    monkeypatch_module.setattr(msmarco, "ARROW_BYTES", 0)
    fast = msmarco.parse_msmarco_run(data, "f", "r")
    monkeypatch_module.setattr(msmarco, "ARROW_BYTES", 4 << 20)
    for run in (slow, fast):
        got = [
            (run.query_ids[q], d, int(r))
            for q, d, r in zip(run.qcodes, run.docs.to_list(), run.ranks, strict=True)
        ]
        assert got == expected
        assert run.scores.tolist() == [-float(r) for *_, r in expected]
    assert slow.line_counts == fast.line_counts


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as mp:
        yield mp


# ------------------------------------------------------------------------------ CSV/TSV
FRAME = pd.DataFrame(
    {"qid": ["007", "007", "10", "10"], "docno": ["a,b", 'q"x', "c", "d"],
     "score": [2.5, 1.0, 3.0, -1e-3], "rank": [1, 2, 1, 2], "name": ["bm25"] * 4}
)  # fmt: skip


@pytest.mark.parametrize(("suffix", "sep"), [(".csv", ","), (".tsv", "\t"), (".csv.gz", ",")])
def test_pandas_tables_read_back_as_their_data(tmp_path, suffix, sep):
    path = tmp_path / f"run{suffix}"
    frame = FRAME if sep == "," else FRAME.assign(docno=["ab", "qx", "c", "d"])
    frame.to_csv(path, sep=sep, index=False)
    run = cranfield.read_run(str(path))
    assert run.tag == "bm25" and run.name == f"run{suffix}"  # a file is named by its name
    assert run.to_dict() == cranfield.read_run(frame).to_dict()
    assert run.query_ids == ("007", "10")  # ids stay text


def test_qrels_tables(tmp_path):
    qrels = pd.DataFrame(
        {"query_id": ["1", "1", "2"], "doc_id": ["a", "b", "c"], "relevance": [1, 0, 2]}
    )
    for suffix, sep in ((".csv", ","), (".tsv", "\t")):
        path = tmp_path / f"q{suffix}"
        qrels.to_csv(path, sep=sep, index=False)
        assert cranfield.read_qrels(str(path)).to_dict() == {"1": {"a": 1, "b": 0}, "2": {"c": 2}}
    floats = tmp_path / "f.csv"  # pandas writes a float column's 1 as 1.0: TREC text's rule
    qrels.assign(relevance=[1.0, 0.0, 2.0]).to_csv(floats, index=False)
    with pytest.raises(InputError, match=r"line 2: grade '1\.0' is a number but not an integer"):
        cranfield.read_qrels(str(floats))
    (tmp_path / "f.txt").write_text("1 0 a 1.0\n")
    with pytest.raises(InputError, match=r"line 1: grade '1\.0' is a number but not an integer"):
        cranfield.read_qrels(str(tmp_path / "f.txt"))


def test_a_header_line_is_detected_in_any_file(tmp_path):
    run = cranfield.read_run(_write(tmp_path / "run.txt", "qid,docno,score\n1,a,2\n1,b,1\n"))
    assert run.to_dict() == {"1": {"a": 2.0, "b": 1.0}}
    wide = "qid\tQ0\tdocno\trank\tscore\trunid\n1\tQ0\ta\t1\t2\tt\n"  # TREC's columns, named
    assert cranfield.read_run(_write(tmp_path / "w", wide)).to_dict() == {"1": {"a": 2.0}}
    qrels = cranfield.read_qrels(_write(tmp_path / "qrels", "q_id\tdoc_id\tscore\n1\ta\t1\n"))
    assert qrels.to_dict() == {"1": {"a": 1}}  # ranx's names: score is the grade


def test_a_space_separated_header_is_refused_with_the_options(tmp_path):
    path = _write(tmp_path / "r", "qid Q0 docno rank score name\n1 Q0 a 1 2 t\n")
    with pytest.raises(InputError, match="line 1: this line names columns .*--run-format csv"):
        cranfield.read_run(path)
    with pytest.raises(InputError, match="--qrels-format csv"):
        cranfield.read_qrels(_write(tmp_path / "q", "qid docno label\n1 a 1\n"))


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("qid,docno,score\n1,a\n", "line 2: expected 3 fields .as the header has., found 2"),
        ("qid,docno,score\n1,a,x\n", "line 2: score 'x' is not a number"),
        ("qid,docno,score\n1,a,nan\n", "line 2: score is NaN"),
        ("qid,docno,score\n1,,2\n", "line 2: empty document id"),
        ("qid,docno,score\n1,a b,2\n", "line 2: document id 'a b' contains a space"),
        ("qid,docno,score\n1,a,1\n\n1,a,2\n", "line 4: document 'a' is listed twice .* line 2"),
        ("qid,doc,score\n1,a,1\n", "no column with document ids"),
        ("qid,docno,score\n", "no rows after the header line"),
        ('qid,docno,score\n1,"a,2\n', "line 2: malformed CSV"),
    ],
)
def test_csv_errors_name_the_line(tmp_path, text, problem):
    with pytest.raises(InputError, match=problem):
        cranfield.read_run(_write(tmp_path / "r.csv", text))


def test_a_csv_or_tsv_name_does_not_make_a_header(tmp_path):
    """MS MARCO's qrels.dev.small.tsv is TREC qrels with tabs; a CSV without a header is an
    error that says so."""
    qrels = cranfield.read_qrels(_write(tmp_path / "qrels.dev.small.tsv", "1\t0\ta\t1\n"))
    assert qrels.to_dict() == {"1": {"a": 1}}
    with pytest.raises(InputError, match="line 1: comma-separated values without a header"):
        cranfield.read_run(_write(tmp_path / "r.csv", "1,a,2.5\n"))
    with pytest.raises(InputError, match="without a header"):
        cranfield.read_qrels(_write(tmp_path / "q.csv", "1,a,1\n"))


def test_tsv_has_no_quoting(tmp_path):
    run = cranfield.read_run(_write(tmp_path / "r.tsv", 'qid\tdocno\tscore\n1\t"a"\t1\n'))
    assert run.docs.to_list() == ['"a"']


@st.composite
def _csv_files(draw):
    fmt = draw(st.sampled_from(["csv", "tsv"]))
    sep = "," if fmt == "csv" else "\t"
    extra = draw(st.booleans())
    header = ["qid", "docno", "score"] + (["junk"] if extra else [])
    rows, expected = [], {}
    for q in draw(st.lists(_IDS, min_size=1, max_size=3, unique=True)):
        for d in draw(st.lists(_IDS, min_size=1, max_size=4, unique=True)):
            s = draw(st.sampled_from(["1", "-2.5", "1e3", ".5", "3.", "0.1", "12345678901234567"]))
            rows.append(sep.join([q, d, s] + (["x,y" if fmt == "tsv" else "z"] if extra else [])))
            expected.setdefault(q, {})[d] = float(s)
    return fmt, sep.join(header) + "\n" + "\n".join(rows) + "\n", expected


@settings(derandomize=True, max_examples=80, deadline=None)
@given(_csv_files())
def test_csv_arrow_and_exact_parsers_agree(monkeypatch_module, case):
    fmt, text, expected = case
    slow = headed.parse_headed_run(text.encode(), "f", "r", fmt)
    monkeypatch_module.setattr(headed, "ARROW_BYTES", 0)
    fast = headed.parse_headed_run(text.encode(), "f", "r", fmt)
    monkeypatch_module.setattr(headed, "ARROW_BYTES", 4 << 20)
    assert slow.to_dict() == fast.to_dict() == expected
    assert slow.ranks.tolist() == fast.ranks.tolist()


# ------------------------------------------------------------------ options and the CLI
def test_format_argument_checks():
    with pytest.raises(ParameterError, match="unknown run format 'marco'"):
        cranfield.read_run("x", format="marco")
    with pytest.raises(ParameterError, match="unknown qrels format 'msmarco'"):
        cranfield.read_qrels("x", format="msmarco")
    with pytest.raises(ParameterError, match="applies to files"):
        cranfield.read_run({"1": {"a": 1.0}}, format="csv")


def test_formatted_paths_name_runs_by_their_file_name(tmp_path):
    path = _write(tmp_path / "run", "1 a 1\n1 b 3\n")
    qrels = {"1": {"a": 1, "b": 1}}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = cranfield.evaluate(qrels, [FormattedPath(path, "msmarco")], "AP")
    assert [r.run for r in res] == ["run"]


def test_command_line_formats(tmp_path):
    qrels = _write(tmp_path / "qrels.csv", "qid,docno,label\n1,a,1\n1,b,1\n")
    run = _write(tmp_path / "run", "1 a 1\n1 c 2\n1 b 4\n")  # not numbered 1, 2, 3
    out = run_cli("evaluate", qrels, run, "-m", "P_2", "-f", "trec")
    assert out.returncode == 2
    err = out.stderr.decode().strip().splitlines()
    assert len(err) == 1 and "--run-format msmarco" in err[0]
    out = run_cli("evaluate", qrels, run, "-m", "P_2", "-f", "trec", "--run-format", "msmarco")
    assert out.returncode == 0, out.stderr
    assert out.stdout.decode() == "P_2\tall\t0.5000\n"
    trec_qrels = _write(tmp_path / "q.txt", "1 0 a 1\n")
    out = run_cli("evaluate", trec_qrels, run, "--qrels-format", "csv", "--run-format", "msmarco")
    assert out.returncode == 2 and "no column with query ids" in out.stderr.decode()
