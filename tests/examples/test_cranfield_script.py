"""``scripts/make_cranfield_runs.py`` on small made-up inputs: parsing the SMART files, the
qrels conversion rules, hostile input (one InputError naming the file and line), the three
models against brute-force formulas written here, the depth/tie rule, and deterministic
output.  None of this needs the real collection; the tests that need bm25s skip without it."""

from __future__ import annotations

import gzip
import hashlib
import io
import math
import random
import tarfile
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from _cranfield_script import NO_DEV, has_dev_extra, load
from cranfield.errors import InputError

mk = load()

DOCS = """\
.I 1
.T
flow over a thin wing .
.A
smith,a.
.B
j. fluids 1, 1960, 1.
.W
flow over a thin wing .
  the supersonic flow over a thin wing is computed for small angles .
.I 2
.T
heat transfer in a boundary layer .
.A
jones,b.
.B
j. heat 2, 1961, 2.
.W
heat transfer in a laminar boundary layer .
  heat transfer rates are measured at supersonic speeds .
.I 3
.T
buckling of cylinders .
.A
brown,c.
.B
j. struct 3, 1962, 3.
.W
buckling of thin cylinders under axial load .
.I 4
.T
empty .
.A
.B
.W
"""

QUERIES = """\
.I 001
.W
supersonic flow over thin wings .
.I 004
.W
heat transfer in the boundary layer .
.I 365
.W
buckling of cylinders .
"""

QRELS = "1 1 2\n1 2 4\n1 3 -1\n2 2 1 \n2 1 3\n2 4 -1\n3 3 1\n3 1 -1"


def _tarball(files: dict[str, bytes], folder: str = "") -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(folder + name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def _files(**override: str) -> dict[str, bytes]:
    files = {"cran.all.1400": DOCS, "cran.qry": QUERIES, "cranqrel": QRELS, **override}
    return {k.replace("_", "."): v.encode() for k, v in files.items()}


# ------------------------------------------------------------------------------ parsing
def test_documents_and_positional_query_ids():
    docnos, texts = mk.documents(DOCS)
    assert docnos == ["1", "2", "3", "4"]
    assert texts[0].startswith("flow over a thin wing .\n  the supersonic")
    assert texts[3].strip() == ""  # document 4 has an empty abstract
    ids, numbers, qtexts = mk.queries(QUERIES)
    assert ids == ["1", "2", "3"]  # positional, as cranqrel numbers them
    assert numbers == ["001", "004", "365"]  # as written in cran.qry
    assert qtexts[1] == "heat transfer in the boundary layer .\n"


def test_qrels_conversion_rule():
    rows = mk.convert_qrels(QRELS, 3, ["1", "2", "3", "4"])
    # grade = 5 - code for codes 1..4; -1 stays -1; sorted by query then document number
    assert rows == [
        ("1", "1", 3),
        ("1", "2", 1),
        ("1", "3", -1),
        ("2", "1", 2),
        ("2", "2", 4),
        ("2", "4", -1),
        ("3", "1", -1),
        ("3", "3", 4),
    ]


def test_qrels_sorted_numerically_and_leading_zeros_dropped():
    docnos = [str(i) for i in range(1, 12)]
    rows = mk.convert_qrels("1 10 1\n1 9 1\n1 011 2\n", 1, docnos)
    assert [d for _, d, _ in rows] == ["9", "10", "11"]


@pytest.mark.parametrize(
    ("text", "line", "problem"),
    [
        ("1 1 2\n1 2 4 1 3 -1\n", 2, "expected 3 columns"),  # two lines joined
        ("1 1 2\n1 2\n", 2, "expected 3 columns"),
        ("1 1 2\n\n1 2 1\n", 2, "got 0"),  # an empty line in the middle
        ("1 1 5\n", 1, "relevance code 5"),
        ("1 1 0\n", 1, "relevance code 0"),
        ("1 1 -2\n", 1, "relevance code -2"),
        ("1 1 +2\n", 1, "three integers"),
        ("1 1 --1\n", 1, "three integers"),
        ("1 1 2.0\n", 1, "three integers"),
        ("1 1 2\x00\n", 1, "three integers"),
        ("1 1 \u0662\n", 1, "three integers"),  # an Arabic-Indic digit
        ("0 1 2\n", 1, "query 0 is not one of 1..3"),
        ("4 1 2\n", 1, "query 4"),
        (f"{10**400} 1 2\n", 1, "is not one of 1..3"),
        (f"1 {2**63} 2\n", 1, "not in the collection"),
        ("1 5 2\n", 1, "document 5 is not in the collection"),
        ("1 1 2\n2 2 2\n1 01 3\n", 3, "judges document 01 twice"),
        ("", None, "no judgment"),
    ],
)
def test_qrels_bad_lines_are_rejected_with_their_line(text, line, problem):
    with pytest.raises(InputError, match=problem) as exc:
        mk.convert_qrels(text, 3, ["1", "2", "3", "4"])
    assert exc.value.line == line and exc.value.source == "cranqrel"


@pytest.mark.parametrize(
    ("text", "line", "problem"),
    [
        ("junk\n.I 1\n.W\nx\n", 1, "text outside a field"),
        (".W\nx\n", 1, "before the first '.I'"),
        (".I 1\n.X\nx\n", 2, "unexpected marker"),
        (".I 1\n.W junk\nx\n", 2, "unexpected marker"),
        (".I one\n.W\nx\n", 1, "record number"),
        (".I\n.W\nx\n", 1, "record number"),
        (".I \u00b2\n.W\nx\n", 1, "record number"),  # a superscript digit
        (".I " + "9" * 5000 + "\n.W\nx\n", 1, "1 to 9 digits"),
        (".I 1\n.W\nx\n.I 01\n.W\ny\n", 4, "appears twice"),
        ("", None, "no '.I' record"),
    ],
)
def test_smart_files_bad_structure(text, line, problem):
    with pytest.raises(InputError, match=problem) as exc:
        mk.parse_smart(text, "f", "TABW")
    assert exc.value.line == line and exc.value.source == "f"


def test_query_without_text_is_an_error():
    with pytest.raises(InputError, match="query .I 2 has no text") as exc:
        mk.queries(".I 1\n.W\nfirst\n.I 2\n.W\n\n.I 3\n.W\nthird\n")
    assert exc.value.line == 4


# ------------------------------------------------------------------------------ reading
def test_read_source_from_tarball_folder_and_crlf(tmp_path):
    tar = tmp_path / "cran.tar.gz"
    tar.write_bytes(_tarball(_files(), folder="cran/"))
    from_tar = mk.read_source(tar, verify=False)
    folder = tmp_path / "loose"
    folder.mkdir()
    for name, data in _files().items():  # CRLF line ends, as some copies have
        (folder / name).write_bytes(data.replace(b"\n", b"\r\n"))
    from_folder = mk.read_source(folder, verify=False)
    assert from_tar == from_folder == {k: v.decode() for k, v in _files().items()}
    holding = tmp_path / "holding"
    holding.mkdir()
    (holding / "cran.tar.gz").write_bytes(tar.read_bytes())
    assert mk.read_source(holding, verify=False) == from_tar


def test_read_source_checks_the_md5_sums(tmp_path):
    tar = tmp_path / "cran.tar.gz"
    tar.write_bytes(_tarball(_files()))
    with pytest.raises(InputError, match="MD5 .* is not the Glasgow file's .*--no-verify"):
        mk.read_source(tar)
    # the sums the script checks are those of the collection's own files
    assert set(mk.MD5) == set(mk.FILES)


def test_md5_check_accepts_the_real_files_after_crlf(tmp_path, monkeypatch):
    # a made-up collection whose sums are declared as the expected ones: the check is on the
    # LF text, so the CRLF copy passes too
    files = _files()
    expected = {k: hashlib.md5(v).hexdigest() for k, v in files.items()}
    monkeypatch.setattr(mk, "MD5", expected)
    for name, data in files.items():
        (tmp_path / name).write_bytes(data.replace(b"\n", b"\r\n"))
    assert mk.read_source(tmp_path)["cranqrel"] == QRELS


@pytest.mark.parametrize(
    ("make", "problem"),
    [
        (lambda: b"not a tar archive at all", "not a readable tar archive"),
        (lambda: gzip.compress(b"\0" * 100), "not a readable tar archive"),
        (lambda: _tarball(_files())[:-40], "not a readable tar archive"),  # truncated
        (lambda: _tarball(_files())[:200], "not a readable tar archive"),
        (lambda: _corrupt(_tarball(_files())), "not a readable tar archive"),
        (lambda: _tarball({"cran.qry": b".I 1\n.W\nx\n"}), "has no cran.all.1400, cranqrel"),
        (lambda: _tarball({**_files(), "x/cranqrel": b"1 1 1\n"}), "two members named"),
    ],
)
def test_hostile_archives(tmp_path, make, problem):
    p = tmp_path / "cran.tar.gz"
    p.write_bytes(make())
    with pytest.raises(InputError, match=problem) as exc:
        mk.read_source(p, verify=False)
    assert exc.value.source == str(p)


def _corrupt(data: bytes) -> bytes:
    middle = len(data) // 2
    return data[:middle] + bytes(b ^ 0x5A for b in data[middle : middle + 64]) + data[middle + 64 :]


def test_hostile_sources(tmp_path, monkeypatch):
    with pytest.raises(InputError, match="no such file or folder"):
        mk.read_source(tmp_path / "nope.tar.gz")
    (tmp_path / "cran.qry").write_bytes(b".I 1\n.W\nx\n")
    with pytest.raises(InputError, match="no file cran.all.1400"):
        mk.read_source(tmp_path, verify=False)
    bad = {**_files(), "cranqrel": b"1 1 2\n1 2 4\n1 3 \xff1\n"}
    for name, data in bad.items():
        (tmp_path / name).write_bytes(data)
    with pytest.raises(InputError, match="not UTF-8") as exc:
        mk.read_source(tmp_path, verify=False)
    assert exc.value.line == 3 and exc.value.source.endswith("cranqrel")
    monkeypatch.setattr(mk, "MAX_MEMBER", 100)
    with pytest.raises(InputError, match="larger than 100 bytes"):
        mk.read_source(tmp_path, verify=False)
    tar = tmp_path / "sub"
    tar.mkdir()
    (tar / "cran.tar.gz").write_bytes(_tarball(_files()))
    with pytest.raises(InputError, match="larger than 100 bytes"):
        mk.read_source(tar, verify=False)


# ------------------------------------------------------------------------------ models
TOKENS_D = [
    ["flow", "thin", "wing", "flow", "supersonic", "thin", "wing"],
    ["heat", "transfer", "heat", "layer", "supersonic"],
    ["buckl", "thin", "cylind", "load"],
    [],
    ["wing", "wing", "wing", "load"],
]
TOKENS_Q = [["supersonic", "flow", "thin", "wing"], ["heat", "layer", "heat"], ["nothing"], []]


def _brute_tfidf(docs, qs):
    n = len(docs)
    df = Counter(t for d in docs for t in set(d))

    def vec(toks):
        tf = Counter(t for t in toks if t in df)
        w = {t: (1 + math.log(c)) * math.log(n / df[t]) for t, c in tf.items()}
        norm = math.sqrt(sum(x * x for x in w.values())) or 1.0
        return {t: x / norm for t, x in w.items()}

    dv = [vec(d) for d in docs]
    return np.array([[sum(x * v.get(t, 0.0) for t, x in vec(q).items()) for v in dv] for q in qs])


def test_tfidf_is_the_ltc_cosine():
    got = mk.tfidf_scores(TOKENS_D, TOKENS_Q)
    np.testing.assert_allclose(got, _brute_tfidf(TOKENS_D, TOKENS_Q), rtol=1e-12, atol=1e-15)
    assert got[0, 0] > got[0, 2] > 0 and got[0, 3] == 0


def test_coordination_counts_distinct_query_terms():
    got = mk.coordination_scores(TOKENS_D, TOKENS_Q)
    want = [[len(set(q) & set(d)) for d in TOKENS_D] for q in TOKENS_Q]
    assert got.tolist() == want and got.dtype.kind == "i"
    assert got[1].tolist() == [0, 2, 0, 0, 0]  # 'heat' twice in the query counts once


@pytest.mark.skipif(not has_dev_extra(), reason=NO_DEV)
def test_bm25_is_lucene_bm25_with_bm25s_defaults():
    got = mk.bm25_scores(TOKENS_D, TOKENS_Q)
    n, k1, b = len(TOKENS_D), 1.5, 0.75
    avgdl = sum(map(len, TOKENS_D)) / n
    df = Counter(t for d in TOKENS_D for t in set(d))
    want = np.zeros_like(got)
    for i, q in enumerate(TOKENS_Q):
        for j, d in enumerate(TOKENS_D):
            tf = Counter(d)
            for t in q:  # a repeated query term counts each time
                if tf[t]:
                    idf = math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5))
                    want[i, j] += idf * tf[t] / (tf[t] + k1 * (1 - b + b * len(d) / avgdl))
    np.testing.assert_allclose(got, want, rtol=1e-12)
    assert got.dtype == np.float64


@pytest.mark.skipif(not has_dev_extra(), reason=NO_DEV)
def test_one_tokenizer_lowercases_drops_stopwords_and_stems():
    toks = mk.tokenize(["The Flows over THIN wings, at Mach 2 .", "a of the"])
    assert toks[0] == ["flow", "over", "thin", "wing", "mach"]  # 'at', single characters go
    assert toks[1] == []


# ------------------------------------------------------------------------------ writing
def _brute_ranking(scores, docnos, whole):
    items = sorted(
        ((s, d) for s, d in zip(scores, docnos, strict=True) if s > 0),
        key=lambda x: (-x[0], int(x[1])),
    )
    if len(items) > mk.DEPTH:
        cut = items[mk.DEPTH - 1][0]
        items = [x for x in items if x[0] >= cut] if whole else items[: mk.DEPTH]
    return [d for _, d in items]


@settings(max_examples=150, derandomize=True, deadline=None)
@given(
    st.lists(st.integers(0, 6), min_size=1, max_size=400),
    st.booleans(),
    st.randoms(use_true_random=False),
)
def test_ranking_depth_and_whole_tie_groups(values, whole, rnd):
    docnos = [str(i) for i in range(1, len(values) + 1)]
    rnd.shuffle(docnos)
    got = mk.ranking(np.array(values, dtype=np.int64), docnos, whole)
    assert [d for d, _ in got] == _brute_ranking(values, docnos, whole)
    assert all(s == str(values[docnos.index(d)]) for d, s in got)


def test_ranking_of_floats_uses_the_printed_score():
    docnos = ["3", "1", "2", "10"]
    scores = np.array([0.1234564, 0.1234566, 0.12345649, 0.0])
    got = mk.ranking(scores, docnos, False)
    # 0.1234564 and 0.12345649 both print as 0.123456: tied, so by increasing docno
    assert got == [("1", "0.123457"), ("2", "0.123456"), ("3", "0.123456")]


def test_depth_cut_keeps_whole_tie_group_only_when_asked():
    docnos = [str(i) for i in range(1, 301)]
    scores = np.array([3] * 60 + [2] * 100 + [1] * 140, dtype=np.int64)
    assert len(mk.ranking(scores, docnos, True)) == 160
    assert len(mk.ranking(scores, docnos, False)) == 100
    assert [d for d, _ in mk.ranking(scores, docnos, False)][-1] == "100"


def test_gzip_output_is_deterministic():
    data = b"1 Q0 1 1 3 coordination\n" * 1000
    a, b = mk.gzip_bytes(data), mk.gzip_bytes(data)
    assert a == b and gzip.decompress(a) == data
    assert a[4:8] == b"\0\0\0\0" and a[3] & 0x08 == 0  # no time stamp, no file name


def test_main_reports_bad_input_in_one_line(tmp_path, capsys):
    p = tmp_path / "cran.tar.gz"
    p.write_bytes(b"garbage")
    assert mk.main([str(p), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("make_cranfield_runs: error: ")
    assert str(p) in err and "Traceback" not in err
    assert not (tmp_path / "out").exists()


@pytest.mark.skipif(not has_dev_extra(), reason=NO_DEV)
def test_end_to_end_on_a_made_up_collection_twice(tmp_path):
    tar = tmp_path / "cran.tar.gz"
    tar.write_bytes(_tarball(_files()))
    outs = []
    for k in range(2):
        out = tmp_path / f"out{k}"
        assert mk.main([str(tar), "--out", str(out), "--no-verify"]) == 0
        outs.append({p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()})
    assert outs[0] == outs[1]
    names = sorted(map(str, outs[0]))
    assert names == [
        "qrels.txt",
        "runs/bm25.txt.gz",
        "runs/coordination.txt.gz",
        "runs/tfidf.txt.gz",
    ]
    assert outs[0][Path("qrels.txt")].decode().splitlines() == [
        "1 0 1 3",
        "1 0 2 1",
        "1 0 3 -1",
        "2 0 1 2",
        "2 0 2 4",
        "2 0 4 -1",
        "3 0 1 -1",
        "3 0 3 4",
    ]
    coord = gzip.decompress(outs[0][Path("runs/coordination.txt.gz")]).decode().splitlines()
    # by hand: query 1 'supersonic flow over thin wings' (5 terms): doc 1 has all five, doc 2
    # 'supersonic', doc 3 'thin'; query 2 'heat transfer in the boundary layer' (4 terms; 'in',
    # 'the' are stopwords): doc 2 has all four; query 3 'buckling of cylinders': doc 3, 2 terms
    assert coord == [
        "1 Q0 1 1 5 coordination",
        "1 Q0 2 2 1 coordination",
        "1 Q0 3 3 1 coordination",
        "2 Q0 2 1 4 coordination",
        "3 Q0 3 1 2 coordination",
    ]


def test_random_qrels_lines_are_counted_or_rejected_with_their_line():
    # a fixed-seed fuzz: each file is valid or fails at the first bad line an oracle finds
    rng = random.Random(20240501)
    docnos = [str(i) for i in range(1, 21)]
    for _ in range(300):
        lines, oracle_bad, seen = [], None, set()
        for n in range(1, rng.randint(1, 12) + 1):
            q, d = rng.randint(-1, 6), rng.randint(0, 22)
            c = rng.choice([-1, 1, 2, 3, 4, 0, 5])
            line = f"{q} {d} {c}"
            if rng.random() < 0.05:
                line += " 7"
            ok = 1 <= q <= 5 and 1 <= d <= 20 and c in mk.GRADES and (q, d) not in seen
            ok = ok and not line.endswith(" 7")
            seen.add((q, d))
            lines.append(line)
            if not ok and oracle_bad is None:
                oracle_bad = n
        text = "\n".join(lines) + rng.choice(["", "\n"])
        if oracle_bad is None:
            rows = mk.convert_qrels(text, 5, docnos)
            assert len(rows) == len(lines)  # every line counted
        else:
            with pytest.raises(InputError) as exc:
                mk.convert_qrels(text, 5, docnos)
            assert exc.value.line == oracle_bad
