"""``-Z file``: per-topic values as z-scores against reference means (trec_eval get_zscores.c,
convert_zscores.c).

The file has lines ``qid measure mean stddev`` (``measure`` is the printed name, ``P_5``).
A value ``x`` of a topic becomes ``(x - mean) / stddev``; it becomes -1000000 when the
topic or the (topic, measure) pair is not in the file, or when ``stddev`` is 0 and
``x != mean`` (0 when ``x == mean``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from cranfield.errors import InputError
from cranfield.io.trec.text import read_bytes

__all__ = ["MISSING_ZSCORE", "ZScores", "read_zscores"]

MISSING_ZSCORE = -1000000.0


@dataclass(frozen=True)
class ZScores:
    table: dict[tuple[str, str], tuple[float, float]]
    qids: frozenset[str]

    def convert(self, qids: Sequence[str], name: str, values: np.ndarray) -> np.ndarray:
        out = np.empty(len(values))
        for i, (q, x) in enumerate(zip(qids, values.tolist(), strict=True)):
            entry = self.table.get((q, name)) if q in self.qids else None
            if entry is None:
                out[i] = MISSING_ZSCORE
                continue
            mean, std = entry
            if std:
                out[i] = (x - mean) / std
            else:
                out[i] = 0.0 if x == mean else MISSING_ZSCORE
        return out


def _number(tok: bytes, what: str, source: str, line: int) -> float:
    try:
        return float(tok)
    except ValueError:
        raise InputError(
            source, f"{what} {tok.decode('utf-8', 'replace')!r} is not a number", line
        ) from None


def read_zscores(path: str) -> ZScores:
    data = read_bytes(path)
    table: dict[tuple[str, str], tuple[float, float]] = {}
    where: dict[tuple[str, str], int] = {}
    for lineno, raw in enumerate(data.split(b"\n"), 1):
        fields = raw.split()
        if not fields:
            continue
        if len(fields) != 4:
            raise InputError(
                path,
                f"expected 4 columns (query, measure, mean, stddev), found {len(fields)}",
                lineno,
            )
        key = (fields[0].decode("utf-8", "replace"), fields[1].decode("utf-8", "replace"))
        mean = _number(fields[2], "mean", path, lineno)
        std = _number(fields[3], "stddev", path, lineno)
        if key in table:
            raise InputError(
                path,
                f"measure {key[1]!r} of query {key[0]!r} given twice (first at line {where[key]})",
                lineno,
            )
        table[key] = (mean, std)
        where[key] = lineno
    if not table:
        raise InputError(path, "file is empty")
    return ZScores(table, frozenset(q for q, _ in table))
