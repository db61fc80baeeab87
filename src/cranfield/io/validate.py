"""Checks shared by every reader: they name the source and the line (or row) of the problem."""

from __future__ import annotations

import numpy as np

from ..data import Qrels, Run
from ..errors import InputError

__all__ = ["check_qrels_duplicates", "check_run_duplicates", "check_scores"]


def _where(lines: np.ndarray | None, row: int) -> int:
    return int(lines[row]) if lines is not None else row + 1


def check_qrels_duplicates(qrels: Qrels) -> None:
    """A (query, document) pair judged twice is an error, as in trec_eval (``duplicate docs``).

    Rows are sorted by (query, document), so duplicates are adjacent.
    """
    docs = qrels.doc_ids
    off = qrels.offsets
    for qi in range(qrels.num_queries):
        a, b = int(off[qi]), int(off[qi + 1])
        for r in range(a + 1, b):
            if docs[r] == docs[r - 1]:
                first, second = sorted((_where(qrels.lines, r - 1), _where(qrels.lines, r)))
                g1, g2 = int(qrels.grades[r - 1]), int(qrels.grades[r])
                what = (
                    f"with different grades ({g1} and {g2})" if g1 != g2 else f"twice (grade {g1})"
                )
                raise InputError(
                    qrels.source,
                    f"document {docs[r]!r} is judged {what} for query {qrels.query_ids[qi]!r} "
                    f"(first at line {first})",
                    line=second,
                )


def check_scores(run: Run) -> None:
    """Scores must be finite numbers: NaN or infinite scores make the ranking undefined."""
    bad = ~np.isfinite(run.scores)
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        value = run.scores[row]
        kind = "NaN" if np.isnan(value) else "infinite"
        raise InputError(
            run.source, f"score is {kind} (scores must be finite)", line=run.line_of(row)
        )


def check_run_duplicates(run: Run) -> None:
    """A document listed twice for one query is an error, as in trec_eval (``duplicate docs``).

    Keys combine the query code with the document key (exact codes, or 64-bit hashes that are
    confirmed on the strings), then one sort brings duplicates together.
    """
    n = len(run)
    if n < 2:
        return
    codes = run.docs.codes().astype(np.uint64, copy=False)
    q = run.qcodes.astype(np.uint64)
    if run.docs.exact_codes:
        keys = codes + q * np.uint64(n)  # exact: every code is < n
    else:
        with np.errstate(over="ignore"):
            keys = codes * np.uint64(0x9E3779B97F4A7C15) ^ (q * np.uint64(0xC2B2AE3D27D4EB4F))
    order = np.argsort(keys, kind="stable")
    sk = keys[order]
    same = np.flatnonzero(sk[1:] == sk[:-1])
    if len(same) == 0:
        return
    first_rows = order[same]
    second_rows = order[same + 1]
    later_rows = np.maximum(first_rows, second_rows).tolist()
    earlier_rows = np.minimum(first_rows, second_rows).tolist()
    candidates = sorted(zip(later_rows, earlier_rows, strict=True))
    for later, earlier in candidates:
        if run.qcodes[later] != run.qcodes[earlier]:
            continue
        d_later, d_earlier = run.docs.take([later, earlier])
        if d_later != d_earlier:
            continue  # hash collision
        raise InputError(
            run.source,
            f"document {d_later!r} is listed twice for query "
            f"{run.query_ids[int(run.qcodes[later])]!r} (first at line {run.line_of(earlier)})",
            line=run.line_of(later),
        )
