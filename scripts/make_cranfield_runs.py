"""Make cranfield's Cranfield data (TREC qrels and three real runs) from the public collection.

::

    pip install -e '.[dev]'                       # bm25s and PyStemmer, pinned
    python scripts/make_cranfield_runs.py SOURCE [--out DIR]

``SOURCE`` is the Glasgow IR group's ``cran.tar.gz`` (MD5 1730f7be572d95a5a4b56c59a7b900a5),
or a folder holding it or its three files ``cran.all.1400``, ``cran.qry`` and ``cranqrel``
(plain or with CRLF line ends).  Where to get it: the ``cranfield`` dataset of ir_datasets
(``ir_datasets.load("cranfield")`` then iterating its qrels downloads the tarball to
``~/.ir_datasets/cranfield/cran.tar.gz``), or the Glasgow mirror,
http://ir.dcs.gla.ac.uk/resources/test_collections/cran/.  The three files are checked
against the MD5 sums of that tarball's members (``--no-verify`` skips the check: the output
then differs from the bundled files).

Writes into ``DIR`` (default: the checkout's ``src/cranfield/examples/cranfield``):

- ``qrels.txt``: ``cranqrel`` in TREC form ``qid 0 docno grade``, sorted by query then
  document number.  Grades: Cleverdon's codes 1 (a complete answer) .. 4 (of minimum interest)
  become TREC grades 4 .. 1 (grade = 5 - code, so that a higher grade is more relevant); the
  undocumented code -1 (exactly one per query) stays -1, which TREC tools read as "in the
  pool but not judged": never relevant (ir_datasets keeps it as -1 too).
- ``runs/bm25.txt.gz``, ``runs/tfidf.txt.gz``, ``runs/coordination.txt.gz``: TREC runs
  ``qid Q0 docno rank score tag`` of BM25 (bm25s defaults: method "lucene", k1 = 1.5,
  b = 0.75, computed in float64), a TF-IDF cosine model (SMART ltc.ltc: weight
  (1 + ln tf) * ln(N / df), cosine-normalised, for documents and queries alike) and
  coordination-level matching (score = number of distinct query terms in the document).

Query ids: ``cran.qry`` numbers its 225 queries 001..365 with gaps, while ``cranqrel`` numbers
them 1..225 in file order; the qrels' numbering is the true one, so the i-th query of
``cran.qry`` gets id ``i`` (as ir_datasets does since its version of November 2024).
Documents: the ``.W`` field (the abstract, which starts with the title) of each record of
``cran.all.1400``, docno = its ``.I`` number.

One tokenizer for the three models: ``bm25s.tokenize`` (lower case, tokens matching
``(?u)\\b\\w\\w+\\b``, bm25s' English stopword list) with PyStemmer's English Snowball stemmer.
Each run keeps the documents with a positive score, best first, ties in increasing document
number (the rank column; trec_eval ignores it), at most 100 per query; the coordination-level
run keeps the whole tie group at the cut (every document scoring as many terms as the 100th),
so that a tie analysis sees every document a tie-breaking could move.  Scores are printed with
6 decimals (BM25, TF-IDF) or as integers; documents are ranked by the printed score.

Deterministic: the same input gives the same bytes (fixed orders, no time stamp or file name
in the gzip headers).  Bad input gets one line on stderr naming the file and line, and exit 2.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import re
import sys
import tarfile
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from cranfield.errors import CranfieldError, InputError, MissingExtraError

REPO = Path(__file__).resolve().parents[1]
DEFAULT_OUT = REPO / "src" / "cranfield" / "examples" / "cranfield"

FILES = ("cran.all.1400", "cran.qry", "cranqrel")
MD5 = {
    # MD5 of each member of the Glasgow cran.tar.gz (1730f7be572d95a5a4b56c59a7b900a5) after
    # CRLF -> LF (cran.qry has CRLF line ends in the tarball: its raw MD5 is
    # da21a9df84d0ce3f66d0451c4d880903).
    "cran.all.1400": "cc125929881f34ccbbc00ad13c5d4291",
    "cran.qry": "39fd301d8e8e2226ccf179d23f2b4f6b",
    "cranqrel": "c62b979aa6edfe65aa9dcbcf74f99c62",
}
MAX_MEMBER = 64 * 2**20
"""Refuse a member larger than this (the real ones are at most 1.7 MB)."""

GRADES = {1: 4, 2: 3, 3: 2, 4: 1, -1: -1}
"""Cranfield relevance code -> TREC grade."""

RUNS = ("bm25", "tfidf", "coordination")
DEPTH = 100
DIGITS = 6
BM25_PARAMS = {"k1": 1.5, "b": 0.75, "method": "lucene"}  # bm25s' defaults, stated
_MARKER = re.compile(r"\.([A-Z])(?:[ \t](.*))?")
_INTEGER = re.compile(r"-?[0-9]+")


# ------------------------------------------------------------------------------ reading
def _text(data: bytes, name: str) -> str:
    """ASCII-compatible UTF-8 text with LF line ends; a bad byte is reported with its line."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(name, "not UTF-8 text", line=line) from None
    return text.replace("\r\n", "\n")


def read_source(source: Path, verify: bool = True) -> dict[str, str]:
    """The three files of the collection, from the tarball or a folder, as LF text."""
    source = Path(source)
    if source.is_dir():
        tarball = source / "cran.tar.gz"
        if tarball.is_file():
            return read_source(tarball, verify)
        raw = {}
        for name in FILES:
            p = source / name
            if not p.is_file():
                raise InputError(str(source), f"no file {name} (nor cran.tar.gz) in this folder")
            if p.stat().st_size > MAX_MEMBER:
                raise InputError(str(p), f"larger than {MAX_MEMBER} bytes: not the Cranfield file")
            raw[name] = (str(p), p.read_bytes())
    elif source.is_file():
        raw = _read_tarball(source)
    else:
        raise InputError(str(source), "no such file or folder")
    texts = {name: _text(data, where) for name, (where, data) in raw.items()}
    if verify:
        for name, text in texts.items():
            digest = hashlib.md5(text.encode("utf-8")).hexdigest()
            if digest != MD5[name]:
                raise InputError(
                    raw[name][0],
                    f"MD5 {digest} (after CRLF -> LF) is not the Glasgow file's {MD5[name]}; "
                    "use --no-verify to convert another version anyway",
                )
    return texts


def _read_tarball(path: Path) -> dict[str, tuple[str, bytes]]:
    found: dict[str, tuple[str, bytes]] = {}
    try:
        with tarfile.open(path, "r:*") as tar:
            for member in tar:
                base = member.name.rsplit("/", 1)[-1]
                if base not in FILES or not member.isfile():
                    continue
                if member.size > MAX_MEMBER:
                    raise InputError(
                        f"{path}:{member.name}", f"larger than {MAX_MEMBER} bytes: not Cranfield"
                    )
                if base in found:
                    raise InputError(str(path), f"two members named {base}")
                fh = tar.extractfile(member)
                data = fh.read() if fh is not None else b""
                found[base] = (f"{path}:{member.name}", data)
    except CranfieldError:
        raise
    except (tarfile.TarError, zlib.error, OSError, EOFError, ValueError) as exc:
        why = str(exc).split("\n", 1)[0].rstrip(":") or type(exc).__name__
        raise InputError(
            str(path),
            f"not a readable tar archive ({why}); give cran.tar.gz, or a folder holding "
            "cran.all.1400, cran.qry and cranqrel",
        ) from None
    missing = [name for name in FILES if name not in found]
    if missing:
        raise InputError(str(path), f"the archive has no {', '.join(missing)}")
    return found


# ------------------------------------------------------------------------------ parsing
@dataclass(frozen=True)
class Record:
    """One ``.I`` record of a SMART-format file: its number as written and its fields."""

    number: str
    fields: dict[str, str]
    line: int


def parse_smart(text: str, name: str, allowed: str) -> list[Record]:
    """Records of a SMART file (``.I n`` then field markers such as ``.T``/``.W``).

    A line starting with ``.`` and a capital letter is a marker; a marker outside ``allowed``,
    text before the first ``.I``, a non-numeric or repeated ``.I`` number, are errors.
    """
    records: list[Record] = []
    seen: set[int] = set()
    number, fields, field, start = None, {}, None, 0
    for n, line in enumerate(text.split("\n"), 1):
        m = _MARKER.fullmatch(line.rstrip())
        if m and m.group(1) == "I":
            value = (m.group(2) or "").strip()
            if not value.isascii() or not value.isdigit() or len(value) > 9:
                shown = value if len(value) <= 20 else value[:20] + "..."
                raise InputError(
                    name, f"'.I' needs a record number of 1 to 9 digits, got {shown!r}", line=n
                )
            if int(value) in seen:
                raise InputError(name, f"record number {value} appears twice", line=n)
            seen.add(int(value))
            if number is not None:
                records.append(Record(number, fields, start))
            number, fields, field, start = value, {}, None, n
        elif m:
            if m.group(1) not in allowed or m.group(2):
                raise InputError(name, f"unexpected marker {line.rstrip()!r}", line=n)
            if number is None:
                raise InputError(name, "a field before the first '.I' record", line=n)
            field = m.group(1)
            fields.setdefault(field, "")
        elif field is not None:
            fields[field] += line + "\n"
        elif line.strip():
            raise InputError(name, "text outside a field (expected '.I' or a marker)", line=n)
    if number is not None:
        records.append(Record(number, fields, start))
    if not records:
        raise InputError(name, "no '.I' record")
    return records


def documents(text: str, name: str = "cran.all.1400") -> tuple[list[str], list[str]]:
    """Document numbers (as written, without leading zeros) and ``.W`` texts."""
    records = parse_smart(text, name, "TABW")
    return [str(int(r.number)) for r in records], [r.fields.get("W", "") for r in records]


def queries(text: str, name: str = "cran.qry") -> tuple[list[str], list[str], list[str]]:
    """Positional query ids ``1..n``, the numbers written in the file, and the texts."""
    records = parse_smart(text, name, "W")
    for r in records:
        if not r.fields.get("W", "").strip():
            raise InputError(name, f"query .I {r.number} has no text", line=r.line)
    ids = [str(i) for i in range(1, len(records) + 1)]
    return ids, [r.number for r in records], [r.fields["W"] for r in records]


def convert_qrels(
    text: str, num_queries: int, docnos: Sequence[str], name: str = "cranqrel"
) -> list[tuple[str, str, int]]:
    """``cranqrel`` rows as ``(qid, docno, TREC grade)``, sorted by query then document.

    Every line must be ``query doc code`` with query in 1..num_queries, doc a document number
    of the collection, code in 1..4 or -1, and no (query, doc) pair twice; a final line
    without a newline is fine, an empty line is not.
    """
    known = set(docnos)
    rows: dict[tuple[int, int], tuple[str, str, int]] = {}
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for n, line in enumerate(lines, 1):
        cols = line.split()
        if len(cols) != 3:
            raise InputError(name, f"expected 3 columns 'query doc code', got {len(cols)}", line=n)
        q, d, c = cols
        if not all(_INTEGER.fullmatch(x) for x in cols):
            raise InputError(name, f"expected three integers, got {line.strip()!r}", line=n)
        if len(q) > 9 or not 1 <= int(q) <= num_queries:
            raise InputError(name, f"query {q} is not one of 1..{num_queries}", line=n)
        if len(d) > 9 or str(int(d)) not in known:
            raise InputError(name, f"document {d} is not in the collection", line=n)
        if len(c) > 2 or int(c) not in GRADES:
            raise InputError(name, f"relevance code {c} is not one of 1, 2, 3, 4, -1", line=n)
        key = (int(q), int(d))
        if key in rows:
            raise InputError(name, f"query {q} judges document {d} twice", line=n)
        rows[key] = (str(int(q)), str(int(d)), GRADES[int(c)])
    if not rows:
        raise InputError(name, "no judgment")
    return [rows[k] for k in sorted(rows)]


# ------------------------------------------------------------------------------ models
def tokenize(texts: Sequence[str]) -> list[list[str]]:
    """bm25s' tokenizer with its English stopwords and the English Snowball stemmer."""
    try:
        import bm25s
        import Stemmer
    except ImportError:
        raise MissingExtraError(
            "making the Cranfield runs needs bm25s and PyStemmer: pip install -e '.[dev]'"
        ) from None
    stemmer = Stemmer.Stemmer("english")
    return bm25s.tokenize(
        list(texts), stopwords="en", stemmer=stemmer, return_ids=False, show_progress=False
    )


def bm25_scores(docs: list[list[str]], qs: list[list[str]]) -> np.ndarray:
    """BM25 scores (queries x documents) by bm25s with its default parameters, in float64."""
    import bm25s

    model = bm25s.BM25(dtype="float64", **BM25_PARAMS)
    model.index(docs, show_progress=False)
    vocab = set(model.vocab_dict)
    out = np.zeros((len(qs), len(docs)))
    for i, q in enumerate(qs):
        terms = [t for t in q if t in vocab]  # bm25s refuses terms it has not indexed
        if terms:
            out[i] = model.get_scores(terms)
    return out


def _counts(tokens: list[list[str]], index: dict[str, int]):
    import scipy.sparse as sp

    rows, cols, vals = [], [], []
    for i, toks in enumerate(tokens):
        ids, counts = np.unique([index[t] for t in toks if t in index], return_counts=True)
        rows += [i] * len(ids)
        cols += ids.tolist()
        vals += counts.tolist()
    shape = (len(tokens), len(index))
    return sp.csr_matrix((np.asarray(vals, float), (rows, cols)), shape=shape)


def tfidf_scores(docs: list[list[str]], qs: list[list[str]]) -> np.ndarray:
    """Cosine of ltc weights: (1 + ln tf) * ln(N / df), each vector scaled to length 1."""
    index = {t: k for k, t in enumerate(sorted({t for d in docs for t in d}))}
    d, q = _counts(docs, index), _counts(qs, index)
    df = np.bincount(d.indices, minlength=len(index))
    idf = np.log(len(docs) / np.maximum(df, 1))

    def ltc(m):
        m = m.copy()
        m.data = (1.0 + np.log(m.data)) * idf[m.indices]
        norms = np.sqrt(np.asarray(m.multiply(m).sum(axis=1)).ravel())
        norms[norms == 0] = 1.0
        return m.multiply(1.0 / norms[:, None]).tocsr()

    return np.asarray((ltc(q) @ ltc(d).T).todense())


def coordination_scores(docs: list[list[str]], qs: list[list[str]]) -> np.ndarray:
    """The number of distinct query terms each document contains."""
    index = {t: k for k, t in enumerate(sorted({t for d in docs for t in d}))}
    d, q = _counts(docs, index), _counts(qs, index)
    d.data[:] = 1.0
    q.data[:] = 1.0
    return np.asarray((q @ d.T).todense()).round().astype(np.int64)


# ------------------------------------------------------------------------------ writing
def ranking(scores: np.ndarray, docnos: Sequence[str], whole_ties: bool) -> list[tuple[str, str]]:
    """``(docno, printed score)`` of one query, best first, ties by increasing docno.

    Positive scores only, at most DEPTH of them; with ``whole_ties`` the tie group at the cut
    is kept whole.
    """
    integer = scores.dtype.kind in "iu"
    printed = scores if integer else np.round(scores, DIGITS)
    order = np.lexsort((np.array([int(d) for d in docnos]), -printed))
    order = order[printed[order] > 0]
    if len(order) > DEPTH:
        cut = printed[order[DEPTH - 1]]
        order = order[printed[order] >= cut] if whole_ties else order[:DEPTH]
    fmt = "{:d}" if integer else f"{{:.{DIGITS}f}}"
    return [(docnos[j], fmt.format(printed[j].item())) for j in order]


def gzip_bytes(data: bytes) -> bytes:
    """Gzip with no time stamp and no file name in the header (same bytes every run)."""
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0, compresslevel=9) as gz:
        gz.write(data)
    return buf.getvalue()


def run_text(scores: np.ndarray, qids: Sequence[str], docnos: Sequence[str], tag: str) -> str:
    whole = tag == "coordination"
    lines = []
    for i, qid in enumerate(qids):
        for rank, (docno, score) in enumerate(ranking(scores[i], docnos, whole), 1):
            lines.append(f"{qid} Q0 {docno} {rank} {score} {tag}\n")
    return "".join(lines)


def make(source: Path, out: Path, verify: bool = True) -> list[Path]:
    """Read the collection, write ``qrels.txt`` and ``runs/*.txt.gz`` under ``out``."""
    texts = read_source(source, verify)
    docnos, doc_texts = documents(texts["cran.all.1400"])
    qids, _, query_texts = queries(texts["cran.qry"])
    qrels = convert_qrels(texts["cranqrel"], len(qids), docnos)
    tokens = tokenize([*doc_texts, *query_texts])
    d_tok, q_tok = tokens[: len(docnos)], tokens[len(docnos) :]
    models = {"bm25": bm25_scores, "tfidf": tfidf_scores, "coordination": coordination_scores}
    written = []
    (out / "runs").mkdir(parents=True, exist_ok=True)
    p = out / "qrels.txt"
    p.write_bytes("".join(f"{q} 0 {d} {g}\n" for q, d, g in qrels).encode("ascii"))
    written.append(p)
    for tag in RUNS:
        scores = models[tag](d_tok, q_tok)
        if not np.isfinite(scores).all() or (scores < 0).any():
            raise CranfieldError(f"{tag}: a score is negative or not finite")
        p = out / "runs" / f"{tag}.txt.gz"
        p.write_bytes(gzip_bytes(run_text(scores, qids, docnos, tag).encode("ascii")))
        written.append(p)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python scripts/make_cranfield_runs.py",
        description=__doc__.split("\n")[0],
        epilog="See the module docstring and src/cranfield/examples/cranfield/README.md.",
    )
    parser.add_argument("source", type=Path, help="cran.tar.gz, or a folder with it or its files")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"default: {DEFAULT_OUT}")
    parser.add_argument(
        "--no-verify", action="store_true", help="convert files whose MD5 is not Glasgow's"
    )
    args = parser.parse_args(argv)
    try:
        for p in make(args.source, args.out, verify=not args.no_verify):
            print(p)
    except CranfieldError as exc:
        print(f"make_cranfield_runs: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
