"""Readers: every supported input becomes a validated :class:`~cranfield.data.tables.Qrels` or
:class:`~cranfield.data.tables.Run`.

Sources: a path to TREC text (or an MS MARCO run, or CSV/TSV with a header: :mod:`.formats`),
JSON lines (``.jsonl``/``.ndjson``), JSON (``.json``) or Parquet (``.parquet``/``.pq``), each
optionally compressed (gzip, bzip2, xz, Zstandard); ``-`` for text on standard input; a
pandas or polars DataFrame (or LazyFrame) or a pyarrow Table; a nested dict
``{qid: {docno: value}}``; the other tools' objects (:mod:`.peers`: ranx, ir_measures and
ir_datasets records, ir_datasets datasets, ``irds:<id>``); or an already-read
``Qrels``/``Run``.  See ``docs/input.md`` for every rule.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from cranfield.data.tables import Qrels, Run
from cranfield.errors import InputError, ParameterError

__all__ = ["read_qrels", "read_run", "write_run"]

QrelsSource = Qrels | str | os.PathLike[str] | Mapping[str, Mapping[str, int]] | Any
RunSource = Run | str | os.PathLike[str] | Mapping[str, Mapping[str, float]] | Any

_TABULAR_SUFFIXES = {".parquet", ".pq", ".jsonl", ".ndjson", ".json"}
_COMPRESSED_SUFFIXES = {".gz", ".bz2", ".xz", ".zst"}
STDIN_RUN_NAME = "stdin"
"""The default name of a run read from standard input (``-``)."""


def _suffix(path: Path) -> str:
    suffixes = [s.lower() for s in path.suffixes]
    if suffixes and suffixes[-1] in _COMPRESSED_SUFFIXES:
        suffixes = suffixes[:-1]
    return suffixes[-1] if suffixes else ""


def _is_stdin(source: Any) -> bool:
    return isinstance(source, str) and source == "-"


def _is_frame(obj: Any) -> bool:
    mod = type(obj).__module__
    return mod.startswith(("pandas", "polars", "pyarrow"))


def is_trec_text_path(source: Any) -> bool:
    """Whether ``source`` is a path read as TREC text (or ``-``), not a table file nor a path
    given another format (``FormattedPath``)."""
    from cranfield.io.formats import FormattedPath

    if not isinstance(source, str | os.PathLike):
        return False
    if isinstance(source, FormattedPath) and source.format not in ("auto", "trec"):
        return False
    return _is_stdin(os.fspath(source)) or _suffix(Path(source)) not in _TABULAR_SUFFIXES


def _opened(source: str | os.PathLike[str]) -> str | os.PathLike[str]:
    """What the readers open for the path ``source``: a file named on the client as it is
    (it checks the file it opens, and keeps the name given:
    :class:`~cranfield.io.client_files.ClientFile`), any other path as its string (``-`` is
    standard input; a ``FormattedPath``'s format is taken already)."""
    from cranfield.io.client_files import ClientFile

    return source if isinstance(source, ClientFile) else os.fspath(source)


def _format(source: Any, fmt: Any, kind: str) -> str:
    """The format to read ``source`` in: ``fmt``, or the one a FormattedPath carries."""
    from cranfield.io.formats import FormattedPath, check_format

    fmt = check_format(fmt, kind)
    if isinstance(source, FormattedPath) and fmt == "auto":
        fmt = check_format(source.format, kind)
    if fmt != "auto" and not isinstance(source, str | os.PathLike):
        raise ParameterError(f"format={fmt!r} applies to files; got a {type(source).__name__}")
    return fmt


def read_qrels(source: QrelsSource, *, format: str = "auto") -> Qrels:
    """Read and validate relevance judgments from any supported source (``-``: TREC text on
    standard input; ``irds:<id>``: an ir_datasets dataset's qrels).

    ``format``: ``auto`` (by the file name, then by the first line: docs/input.md), ``trec``,
    ``csv`` or ``tsv`` (with a header line)."""
    if isinstance(source, Qrels):
        return source
    fmt = _format(source, format, "qrels")
    if isinstance(source, str) and source.startswith("irds:") and fmt == "auto":
        from cranfield.io.peers import peer_qrels

        # an irds: id is always a peer's source: peer_qrels gives qrels (or raises), not None
        return peer_qrels(source)  # type: ignore[return-value]
    if isinstance(source, str | os.PathLike):
        path = Path(source)
        if fmt == "auto" and not _is_stdin(source) and _suffix(path) in _TABULAR_SUFFIXES:
            from cranfield.io.tabular import read_qrels_file

            return read_qrels_file(path)
        if fmt != "auto":
            from cranfield.io.formats import read_qrels_as

            return read_qrels_as(os.fspath(source), fmt)
        from cranfield.io.trec.text import read_trec_qrels

        return read_trec_qrels(os.fspath(source))
    if isinstance(source, Mapping):
        from cranfield.io.mapping import qrels_from_mapping

        return qrels_from_mapping(source)
    if _is_frame(source):
        from cranfield.io.tabular import qrels_from_frame

        return qrels_from_frame(source)
    from cranfield.io.peers import peer_qrels

    qrels = peer_qrels(source)
    if qrels is not None:
        return qrels
    raise InputError("<qrels>", f"cannot read qrels from a {type(source).__name__}")


def read_run(source: RunSource, *, name: str | None = None, format: str = "auto") -> Run:
    """Read and validate a run from any supported source.

    ``name`` defaults to the file name (paths; ``"stdin"`` for ``-``, standard input), the
    value of a table's ``run``/``name`` column, a ranx Run's name, or ``"run"``.
    ``format``: ``auto`` (by the file name, then by the first line: docs/input.md), ``trec``,
    ``msmarco`` (``qid docid rank``), ``csv`` or ``tsv`` (with a header line).
    """
    if name is not None:
        from cranfield.base.arguments import run_names

        run_names([name], 1)
    if isinstance(source, Run):
        return source
    fmt = _format(source, format, "run")
    if isinstance(source, str | os.PathLike):
        path = Path(source)
        stdin = _is_stdin(os.fspath(source))
        run_name = name or (STDIN_RUN_NAME if stdin else path.name)
        opened = _opened(source)
        if fmt == "auto" and not stdin and _suffix(path) in _TABULAR_SUFFIXES:
            from cranfield.io.tabular import read_run_file

            return read_run_file(opened, name=run_name)
        if fmt != "auto":
            from cranfield.io.formats import read_run_as

            return read_run_as(opened, fmt, run_name)
        from cranfield.io.trec.text import read_trec_run

        return read_trec_run(opened, run_name)
    if isinstance(source, Mapping):
        from cranfield.io.mapping import run_from_mapping

        return run_from_mapping(source, name=name or "run")
    if _is_frame(source):
        from cranfield.io.tabular import run_from_frame

        return run_from_frame(source, name=name)
    from cranfield.io.peers import peer_run

    run = peer_run(source, name)
    if run is not None:
        return run
    raise InputError("<run>", f"cannot read a run from a {type(source).__name__}")


def write_run(run: RunSource, path: str | os.PathLike[str], *, tag: str | None = None) -> None:
    """Write a run (any source :func:`read_run` reads) to ``path`` as a TREC run file, its
    ir_metadata block (``Run.metadata``) first: :func:`cranfield.io.run_writer.write_trec_run`."""
    from cranfield.io.run_writer import write_trec_run

    write_trec_run(read_run(run), path, tag=tag)
