"""trec_eval's other judgment files: preferences and judgment groups.

- **Preferences** (trec_eval ``-R prefs``, ``get_prefs.c``): lines ``qid jg jsg docno
  rel_level``.  Within a judgment group (JG) a document is preferred to every document of a
  lower ``rel_level`` in the same judgment sub-group (JSG); ``rel_level > 0`` marks relevant,
  ``0`` non-relevant documents.  A qrels file read as preferences (``-R qrels_prefs``,
  ``get_qrels_prefs.c``) is ``qid jg docno rel`` with one sub-group per group.
- **Judgment groups** (``-R qrels_jg``, ``get_qrels_jg.c``): a qrels file whose second column
  names the group (the user) that judged the line; each (query, group) is a set of judgments of
  its own.

Both are read as every text input is (bounded, decompressed, UTF-8 checked, a BOM only at the
start, no bare CR inside a line; ``io/text.py``), with the line of every problem named; a line
starting with ``#`` is a comment unless it has the complete shape of a data line (then it is
ambiguous: an error).
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from cranfield.data.tables import Qrels
from cranfield.errors import InputError
from cranfield.io import number_text
from cranfield.io.ids import WHY, id_problem
from cranfield.io.source import source_name
from cranfield.io.trec.text import _check_trec, read_text
from cranfield.io.validate import check_qrels_duplicates

__all__ = [
    "JudgmentGroups",
    "Prefs",
    "read_judgment_groups",
    "read_prefs",
]


@dataclass(frozen=True, eq=False)
class Prefs:
    """Preference judgments: per query, ``(jg, jsg, rel_level, docno)`` in file order."""

    source: str
    topics: dict[str, list[tuple[str, str, float, str]]]

    @property
    def query_ids(self) -> tuple[str, ...]:
        return tuple(sorted(self.topics))

    def as_qrels(self) -> Qrels:
        """The judged documents as qrels (grade 1 where some ``rel_level > 0``, else 0): the
        queries and documents the preferences cover, for choosing the evaluated queries."""
        best: dict[tuple[str, str], int] = {}
        for q, entries in self.topics.items():
            for _jg, _jsg, level, doc in entries:
                key = (q, doc)
                best[key] = max(best.get(key, 0), int(level > 0))
        qids, docs = [k[0] for k in best], [k[1] for k in best]
        return Qrels.from_rows(qids, docs, list(best.values()), source=self.source)


@dataclass(frozen=True, eq=False)
class JudgmentGroups:
    """Qrels per judgment group, groups in ``strcmp`` order of their ids (trec_eval's)."""

    source: str
    groups: dict[str, Qrels]
    grades: np.ndarray
    """Every grade of the file (trec_eval's ``-c`` ``num_rel`` summary counts them)."""

    @property
    def query_ids(self) -> tuple[str, ...]:
        return tuple(sorted({q for g in self.groups.values() for q in g.query_ids}))

    def as_qrels(self) -> Qrels:
        """Every judged (query, document) pair once (its highest grade): the queries the
        groups cover, for choosing the evaluated queries."""
        best: dict[tuple[str, str], int] = {}
        for qr in self.groups.values():
            g = qr.grades.tolist()
            for i, q in enumerate(qr.query_ids):
                a, b = int(qr.offsets[i]), int(qr.offsets[i + 1])
                for d, grade in zip(qr.doc_ids[a:b], g[a:b], strict=True):
                    best[(q, d)] = max(best.get((q, d), grade), grade)
        qids, docs = [k[0] for k in best], [k[1] for k in best]
        return Qrels.from_rows(qids, docs, list(best.values()), source=self.source)


def _lines(data: bytes, source: str, ncol: int, what: str) -> Iterator[tuple[int, list[bytes]]]:
    """``(line number, fields)`` of every data line of checked text with ``ncol`` fields."""
    data, _ = _check_trec(data, source)
    for lineno, raw in enumerate(data.split(b"\n"), 1):
        f = raw.split()
        if not f:
            continue
        if f[0][:1] == b"#":
            if len(f) == ncol and _is_number(f[-1]):
                line = b" ".join(f).decode("utf-8", "replace")
                raise InputError(
                    source,
                    f"ambiguous line {line!r}: it has the shape of a judgment, but lines "
                    "starting with '#' are comments (a query id cannot start with '#'); delete "
                    "the line or the '#'",
                    line=lineno,
                )
            continue
        if len(f) != ncol:
            raise InputError(source, f"expected {ncol} columns ({what}), found {len(f)}", lineno)
        for k in range(ncol - 1):
            token = f[k].decode("utf-8")
            problem = id_problem(token)
            if problem is not None:
                raise InputError(source, f"field {k + 1} {token!r} {problem}: {WHY}", lineno)
        yield lineno, f


def _is_number(token: bytes) -> bool:
    return number_text.is_score(token) and math.isfinite(float(token))


def read_prefs(path: str | os.PathLike[str], *, qrels_format: bool = False) -> Prefs:
    """Read a preferences file (5 columns) or, with ``qrels_format``, a qrels file as
    preferences (one judgment sub-group per group)."""
    source = source_name(path)
    ncol = 4 if qrels_format else 5
    what = (
        "query, judgment group, document, relevance"
        if qrels_format
        else "query, judgment group, judgment sub-group, document, relevance level"
    )
    topics: dict[str, list[tuple[str, str, float, str]]] = {}
    for lineno, f in _lines(read_text(path), source, ncol, what):
        token = f[-1]
        if not number_text.is_score(token):  # the rule of numbers written as text
            raise InputError(source, f"relevance {number_text.show(token)} is not a number", lineno)
        level = float(token)
        if not math.isfinite(level):
            raise InputError(source, f"relevance {token.decode()!r} is not finite", lineno)
        text = [x.decode("utf-8") for x in f]
        jsg = "0" if qrels_format else text[2]
        topics.setdefault(text[0], []).append((text[1], jsg, level, text[-2]))
    if not topics:
        raise InputError(source, "no judgments (only comments or blank lines)")
    return Prefs(source, topics)


def read_judgment_groups(path: str | os.PathLike[str]) -> JudgmentGroups:
    """Read a qrels file whose second column names the judgment group of each line."""
    source = source_name(path)
    rows: dict[str, tuple[list, list, list, list]] = {}
    all_grades: list[int] = []
    what = "query, judgment group, document, grade"
    for lineno, f in _lines(read_text(path), source, 4, what):
        try:
            grade = number_text.grade(f[3])
        except number_text.NumberError as exc:
            raise InputError(source, str(exc), lineno) from None
        q, d, g, ln = rows.setdefault(f[1].decode("utf-8"), ([], [], [], []))
        q.append(f[0].decode("utf-8"))
        d.append(f[2].decode("utf-8"))
        g.append(grade)
        ln.append(lineno)
        all_grades.append(grade)
    if not rows:
        raise InputError(source, "no judgments (only comments or blank lines)")
    groups = {}
    for jg in sorted(rows):
        q, d, g, ln = rows[jg]
        qrels = Qrels.from_rows(q, d, g, source=source, lines=np.asarray(ln))
        check_qrels_duplicates(qrels)
        groups[jg] = qrels
    return JudgmentGroups(source, groups, np.asarray(all_grades, dtype=np.int64))
