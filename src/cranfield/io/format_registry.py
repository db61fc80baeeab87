"""The input formats of qrels and runs, declared once, as the measures are.

Each :class:`InputFormat` holds its name (``format=``, ``--run-format``, ``--qrels-format``),
the kinds of file it reads, its detector (how ``auto`` finds it from the first data line), its
readers, its help text and its row of ``docs/input.md``'s table (:func:`docs_table`).
``io/formats.py`` detects and reads by walking :data:`INPUT_FORMATS` in order;
``tests/test_formats.py`` checks that every format is documented and the table is fresh.
The readers are imported when used: importing this module imports nothing heavy.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cranfield.io.column_names import DOC_NAMES, QUERY_NAMES

if TYPE_CHECKING:
    from cranfield.data.tables import Qrels, Run

__all__ = ["AUTO", "INPUT_FORMATS", "InputFormat", "docs_table", "get", "header_format", "names"]

AUTO = "auto"
"""The format that is none of them: the file says which (docs/input.md)."""


@dataclass(frozen=True)
class InputFormat:
    """One input format.

    ``detect(lineno, line)``: whether ``auto`` reads a file whose first data line is ``line``
    (its 1-based number ``lineno``, bytes without the line end) in this format; ``None`` for
    the format read when no detector says otherwise (TREC text).  ``by_header``: the detector
    reads a header line, and is tried before the first line is checked for the mistakes of
    :mod:`cranfield.io.formats` (a header separated by spaces, CSV without a header).
    ``parse_run``/``parse_qrels`` read the bytes of a whole file (``None``: not a format of
    that kind, or TREC text, read from its path by ``read_run``/``read_qrels``)."""

    name: str
    kinds: tuple[str, ...]
    help: str
    detected: str
    read_run: Callable[[str | os.PathLike[str], str], Run] | None
    read_qrels: Callable[[str | os.PathLike[str]], Qrels] | None
    detect: Callable[[int, bytes], bool] | None = None
    by_header: bool = False
    parse_run: Callable[[bytes, str, str], Run] | None = None
    parse_qrels: Callable[[bytes, str], Qrels] | None = None


def header_format(line: bytes) -> str | None:
    """``csv`` or ``tsv`` if ``line`` is a header: comma- or tab-separated column names that
    include a query or a document column (tabs first: a TSV name may hold a comma)."""
    if b"\t" not in line and b"," not in line:
        return None
    from cranfield.io.headed import header_fields

    text = line.decode("utf-8", "replace")
    for fmt, sep in (("tsv", "\t"), ("csv", ",")):
        if sep in text:
            found = set(header_fields(text, fmt))
            if found & set(QUERY_NAMES) or found & set(DOC_NAMES):
                return fmt  # a header (a missing role is then the table rules' error)
    return None


def _whole(path: str | os.PathLike[str]) -> tuple[bytes, str]:
    from cranfield.io.source import source_name
    from cranfield.io.trec.text import read_text

    return read_text(path), source_name(path)


def _trec_run(path: str | os.PathLike[str], name: str) -> Run:
    from cranfield.io.trec.text import read_trec_run

    return read_trec_run(path, name, detect=False)


def _trec_qrels(path: str | os.PathLike[str]) -> Qrels:
    from cranfield.io.trec.text import read_trec_qrels

    return read_trec_qrels(path, detect=False)


def _msmarco_parse(data: bytes, source: str, name: str) -> Run:
    from cranfield.io.msmarco import parse_msmarco_run

    return parse_msmarco_run(data, source, name)


def _headed(fmt: str) -> InputFormat:
    def parse_run(data: bytes, source: str, name: str) -> Run:
        from cranfield.io.headed import parse_headed_run

        return parse_headed_run(data, source, name, fmt)

    def parse_qrels(data: bytes, source: str) -> Qrels:
        from cranfield.io.headed import parse_headed_qrels

        return parse_headed_qrels(data, source, fmt)

    sep = "comma" if fmt == "csv" else "tab"
    return InputFormat(
        fmt,
        ("qrels", "run"),
        f"{fmt.upper()} with a header line naming the columns ({sep}-separated"
        + (", RFC 4180 quoting)" if fmt == "csv" else ", no quoting)"),
        f"first line: {sep}-separated column names, a query or a document column among them "
        f"(`qid{',' if fmt == 'csv' else '<tab>'}docno{',' if fmt == 'csv' else '<tab>'}"
        "score`)",
        read_run=lambda path, name: parse_run(*_whole(path), name),
        read_qrels=lambda path: parse_qrels(*_whole(path)),
        detect=lambda lineno, line: lineno == 1 and header_format(line) == fmt,
        by_header=True,
        parse_run=parse_run,
        parse_qrels=parse_qrels,
    )


INPUT_FORMATS: tuple[InputFormat, ...] = (
    InputFormat(
        "trec",
        ("qrels", "run"),
        "TREC text: qrels `query 0 document grade`, runs `query Q0 document rank score tag`",
        "no other format's detector takes its first data line (the default)",
        read_run=_trec_run,
        read_qrels=_trec_qrels,
    ),
    InputFormat(
        "msmarco",
        ("run",),
        "MS MARCO's run, `qid docid rank`: the score is -rank",
        "first data line of a run: exactly 3 fields, if every line is `qid docid rank` and "
        "each query's ranks are 1, 2, 3... (or 0, 1, 2...) in file order; otherwise an error "
        "that says which line breaks the numbering and that `--run-format msmarco` reads the "
        "file as one",
        read_run=lambda path, name: _msmarco_parse(*_whole(path), name),
        read_qrels=None,
        detect=lambda lineno, line: len(line.split()) == 3,
        parse_run=_msmarco_parse,
    ),
    _headed("csv"),
    _headed("tsv"),
)
"""Every input format, in the order of the choices (``auto`` first)."""


def names(kind: str) -> tuple[str, ...]:
    """The ``format=`` choices of ``kind`` (``run`` or ``qrels``): ``auto``, then each
    format that reads it."""
    return (AUTO, *(f.name for f in INPUT_FORMATS if kind in f.kinds))


def get(name: str) -> InputFormat:
    """The format named ``name``."""
    return next(f for f in INPUT_FORMATS if f.name == name)


def docs_table() -> str:
    """The Markdown table of ``docs/input.md``'s formats: per format, what it reads and
    when ``auto`` reads a file in it."""
    lines = ["| `format=` | reads | `auto` reads a file in it when |", "|---|---|---|"]
    for f in INPUT_FORMATS:
        kinds = " and ".join("runs" if k == "run" else k for k in f.kinds)
        lines.append(f"| `{f.name}` | {kinds}: {f.help} | {f.detected} |")
    return "\n".join(lines) + "\n"
