"""trec_eval's output of a :class:`~cranfield.compat.trec_eval.measuring.TrecEvaluation`:
the per-query blocks (``-q``) and the summary lines, formatted as trec_eval 10.0 prints them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Protocol

import numpy as np

from cranfield.compat.trec_eval.cformat import fmt_double, fmt_value_line
from cranfield.compat.trec_eval.measuring import Slot, TrecEvaluation


class Lines(Protocol):
    """Where the output lines go (the command's buffered output)."""

    def append(self, line: str, /) -> None: ...

    def extend(self, lines: Iterable[str], /) -> None: ...


QUERY_CHUNK = 1000
"""Queries whose per-query lines are made at a time."""


def print_evaluation(lines: Lines, ev: TrecEvaluation) -> None:
    opts, qids, z = ev.opts, ev.qids, ev.opts.zscore_file is not None
    if opts.query:
        for a in range(0, len(qids), QUERY_CHUNK):
            lines.extend(_query_lines(ev, a, min(a + QUERY_CHUNK, len(qids)), z))
    if not opts.summary:
        return
    nq = len(qids)
    for tm, slots in ev.measures:
        if tm.kind == "relstring":
            continue
        if tm.kind == "runid":
            lines.append(f"{'runid':<22}\tall\t{ev.runid}\n")
            continue
        if tm.kind == "num_q":
            lines.append(fmt_value_line("num_q", "all", fmt_double(nq) if z else str(nq), z))
            continue
        for s in slots:
            lines.append(fmt_value_line(s.name, "all", _fmt(tm, summary(tm, s, ev), z), z))


def _query_lines(ev: TrecEvaluation, a: int, b: int, z: bool) -> list[str]:
    """The per-query blocks of queries ``a:b``: one column of finished lines per printed
    value, interleaved topic by topic."""
    qids = ev.qids[a:b]
    cols: list[list[str]] = []
    for tm, slots in ev.measures:
        if tm.kind in ("runid", "num_q", "gm"):
            continue
        if tm.kind == "relstring":
            assert ev.relstrings is not None  # (kept when relstring is printed)
            head = f"{slots[0].name:<22}\t"
            cols.append(
                [f"{head}{q}\t'{r}'\n" for q, r in zip(qids, ev.relstrings[a:b], strict=True)]
            )
            continue
        for s in slots:
            head = f"{'Z' if z else ''}{s.name:<22}\t"
            values = _fmt_column(tm, s.values[a:b], z)
            cols.append([f"{head}{q}\t{v}\n" for q, v in zip(qids, values, strict=True)])
    return list(map("".join, zip(*cols, strict=True)))


def summary(tm, slot: Slot, ev: TrecEvaluation) -> float:
    """The ``all`` value of one slot: mean, sum (counts) or geometric mean (gm_*)."""
    nq = len(ev.qids)
    total = float(np.cumsum(slot.values)[-1]) if nq else 0.0
    if tm.kind == "gm":
        return math.exp(total / nq) if nq else 0.0
    if tm.kind == "long":
        if tm.name == "num_rel" and ev.opts.complete:
            return float(_count_positive(ev.rel_info))
        return total
    return total / nq if nq else 0.0


def _count_positive(rel_info) -> int:
    grades = getattr(rel_info, "grades", None)
    return int(np.count_nonzero(grades > 0)) if grades is not None else 0


def _fmt_column(tm, values: np.ndarray, z: bool) -> list[str]:
    """``_fmt`` of every value (one list comprehension: this is the hot loop of -q)."""
    if tm.kind == "long" and not z:
        return [str(int(v)) for v in values.tolist()]
    if np.isnan(values).any():
        return [fmt_double(v) for v in values.tolist()]
    return ["%6.4f" % v for v in values.tolist()]  # noqa: UP031  (faster than f-strings)


def _fmt(tm, value: float, z: bool) -> str:
    if tm.kind == "long" and not z:
        return str(int(value))
    return fmt_double(float(value))
