"""TREC run files written: ``qid Q0 docno rank score tag``, the ir_metadata block kept.

:func:`write_trec_run` writes a :class:`~cranfield.data.tables.Run` (read from any source, or made
by a program) as TREC text: the run's ``metadata`` first, as an ir_metadata block
(:func:`~cranfield.io.ir_metadata.format_block`), then one line per result in the run's order,
so that reading the file back gives the same run (ids, scores to the last bit: each score is
written as Python's shortest round-tripping ``repr``; ranks; tag; metadata).  The file is
replaced atomically (:func:`~cranfield.base.output_files.replace_atomically`).
"""

from __future__ import annotations

import os

import numpy as np

from cranfield.data.tables import Run
from cranfield.errors import ParameterError
from cranfield.io.ir_metadata import format_block

__all__ = ["trec_run_text", "write_trec_run"]


def trec_run_text(run: Run, *, tag: str | None = None) -> bytes:
    """The TREC text of ``run`` (see the module docstring); ``tag``: the sixth column
    (default: the run's tag, else its name)."""
    tag = tag if tag is not None else (run.tag if run.tag is not None else run.name)
    if tag.split() != [tag]:
        raise ParameterError(f"run tag {tag!r}: a TREC run's tag is one field, without spaces")
    ranks = run.ranks if run.ranks is not None else _ranks_in_order(run.qcodes)
    qids = run.query_ids
    lines = [
        f"{qids[q]} Q0 {d} {r} {s!r} {tag}\n"
        for q, d, r, s in zip(
            run.qcodes.tolist(), run.docs.to_list(), ranks.tolist(), run.scores.tolist(),
            strict=True,
        )
    ]  # fmt: skip
    return format_block(run.metadata) + "".join(lines).encode("utf-8")


def _ranks_in_order(qcodes: np.ndarray) -> np.ndarray:
    """1, 2, ... within each query, in row order (a run without a readable rank column)."""
    n = len(qcodes)
    order = np.argsort(qcodes, kind="stable")
    sorted_codes = qcodes[order]
    starts = np.flatnonzero(np.concatenate(([True], sorted_codes[1:] != sorted_codes[:-1])))
    position = np.arange(n) - np.repeat(starts, np.diff(np.append(starts, n)))
    ranks = np.empty(n, np.int64)
    ranks[order] = position + 1
    return ranks


def write_trec_run(run: Run, path: str | os.PathLike[str], *, tag: str | None = None) -> None:
    """Write ``run`` to ``path`` as a TREC run file, its ir_metadata block first (replaced
    atomically; a file that cannot be written is a :class:`ParameterError` naming it)."""
    from cranfield.base.output_files import check_output_file, replace_atomically

    data = trec_run_text(run, tag=tag)
    check_output_file(path)
    with replace_atomically(path) as fh:
        fh.write(data)
