"""Readers: every supported input becomes a validated :class:`~cranfield.data.Qrels` or
:class:`~cranfield.data.Run`.

Sources: a path to TREC text, JSON lines (``.jsonl``/``.ndjson``), JSON (``.json``) or
Parquet (``.parquet``/``.pq``), each optionally compressed (gzip, bzip2, xz, Zstandard);
``-`` for TREC text on standard input; a pandas or polars DataFrame (or LazyFrame) or a
pyarrow Table; a nested dict ``{qid: {docno: value}}``; or an already-read ``Qrels``/``Run``.
See ``docs/input.md`` for every rule.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..data import Qrels, Run
from ..errors import InputError

__all__ = ["read_qrels", "read_run"]

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
    """Whether ``source`` is a path read as TREC text (or ``-``), not a table file."""
    if not isinstance(source, str | os.PathLike):
        return False
    return _is_stdin(source) or _suffix(Path(source)) not in _TABULAR_SUFFIXES


def read_qrels(source: QrelsSource) -> Qrels:
    """Read and validate relevance judgments from any supported source (``-``: TREC text on
    standard input)."""
    if isinstance(source, Qrels):
        return source
    if isinstance(source, str | os.PathLike):
        path = Path(source)
        if not _is_stdin(source) and _suffix(path) in _TABULAR_SUFFIXES:
            from .tabular import read_qrels_file

            return read_qrels_file(path)
        from .text import read_trec_qrels

        return read_trec_qrels(source)
    if isinstance(source, Mapping):
        from .mapping import qrels_from_mapping

        return qrels_from_mapping(source)
    if _is_frame(source):
        from .tabular import qrels_from_frame

        return qrels_from_frame(source)
    raise InputError("<qrels>", f"cannot read qrels from a {type(source).__name__}")


def read_run(source: RunSource, *, name: str | None = None) -> Run:
    """Read and validate a run from any supported source.

    ``name`` defaults to the file name (paths; ``"stdin"`` for ``-``, standard input), the
    value of a table's ``run``/``name`` column, or ``"run"``.
    """
    if name is not None:
        from ..arguments import run_names

        run_names([name], 1)
    if isinstance(source, Run):
        return source
    if isinstance(source, str | os.PathLike):
        path = Path(source)
        if _is_stdin(source):
            from .text import read_trec_run

            return read_trec_run(source, name or STDIN_RUN_NAME)
        run_name = name or path.name
        if _suffix(path) in _TABULAR_SUFFIXES:
            from .tabular import read_run_file

            return read_run_file(path, name=run_name)
        from .text import read_trec_run

        return read_trec_run(source, run_name)
    if isinstance(source, Mapping):
        from .mapping import run_from_mapping

        return run_from_mapping(source, name=name or "run")
    if _is_frame(source):
        from .tabular import run_from_frame

        return run_from_frame(source, name=name)
    raise InputError("<run>", f"cannot read a run from a {type(source).__name__}")
