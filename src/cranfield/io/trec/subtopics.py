"""Subtopic qrels: the judgments of the diversity measures (TREC Web track, ndeval).

A line is ``topic subtopic docno judgment``: the 4-column qrels whose second column names the
subtopic (the *intent*, *aspect* or *nugget*) that the judgment is about, as ndeval reads it
(``ndeval.c`` 4.5, ``processQrels``).  The rules, ndeval's where it has one:

- **Relevance is binary per subtopic**: a document is relevant to a subtopic when its
  judgment is at least ``rel`` (the measures' parameter, default 1).  ndeval folds every
  judgment above 1 into 1 ("binary assessment only"); pyndeval (and so ir_measures) compares
  with its ``relevance_level``, which is this rule.
- **Zero and negative judgments** are judgments of "not relevant to this subtopic" (TREC's
  -2 for junk pages included; pyndeval reads them so, ndeval's C reader refuses a minus
  sign).  With ``rel=0`` a judgment of 0 counts as relevant, as in pyndeval; a negative one
  never does.
- **A document judged for no subtopic** (every judgment below ``rel``) is still a judged
  document (``judged_only`` keeps it) but gains nothing; a document absent from the file is
  not judged.
- **Subtopics that no document is relevant to are ignored** (ndeval's ``actualSubtopics``):
  the number of subtopics ``S`` of a query is the number it has relevant documents for.  A
  query with ``S = 0`` scores 0 on every diversity measure (ndeval gives 0, and NaN for
  nNRBP); so does an evaluated query absent from the file.
- **Subtopics are numbered in order of first appearance in the file** (pyndeval's numbering;
  ndeval's C reader uses the subtopic number itself, the same order when the file lists
  subtopics in ascending order).  The numbering fixes the order in which a document's
  per-subtopic gains are added, hence the last bits of the sums and which of two documents
  of exactly equal gain the ideal ranking takes (see
  :mod:`cranfield.measures.kernels.subtopic_view`).
- Ids follow the rule of every id (:mod:`cranfield.io.ids`); subtopic ids are strings
  (ndeval wants numbers).  A judgment is an integer in the 64-bit range; a (topic, subtopic,
  document) triple listed twice is an error, with equal judgments or not (ndeval would count
  it twice).

The file is read as every text input is (bounded, decompressed, UTF-8 checked; ``#`` comment
lines; :mod:`cranfield.io.trec.judgment_files`), every problem an :class:`InputError` naming the
file and line.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cranfield.data.tables import Qrels
from cranfield.errors import InputError
from cranfield.io import number_text
from cranfield.io.ids import WHY, id_problem
from cranfield.io.number_text import INT, INT64
from cranfield.io.source import source_name
from cranfield.io.trec.judgment_files import _lines
from cranfield.io.trec.text import read_text

__all__ = ["Subtopics", "read_subtopics", "same_file"]


@dataclass(frozen=True, eq=False)
class Subtopics:
    """Subtopic judgments, read once and shared by every run judged against them.

    ``pairs`` holds each judged (topic, document) pair once, in the qrels layout (queries in
    ``strcmp`` order, documents in byte order within a query); its ``grades`` are not grades
    but each pair's id ``p``, whose judgments are ``entry_subtopic[entry_offsets[p]:
    entry_offsets[p+1]]`` (subtopic numbers, ascending) and ``entry_grade[...]`` alike.
    ``subtopic_ids[j]`` is the name of subtopic number ``j``.
    """

    source: str
    subtopic_ids: tuple[str, ...]
    pairs: Qrels
    entry_offsets: np.ndarray
    entry_subtopic: np.ndarray
    entry_grade: np.ndarray
    cache: dict = field(default_factory=dict, repr=False)
    """Ideal rankings computed for one ``(rel, alpha)`` (see measures/subtopic_view.py)."""

    @property
    def query_ids(self) -> tuple[str, ...]:
        return self.pairs.query_ids

    def __len__(self) -> int:
        """The number of judgments (lines)."""
        return len(self.entry_grade)

    def as_qrels(self) -> Qrels:
        """Each judged (topic, document) pair once with its highest judgment: ordinary qrels
        for the other measures, and the queries to evaluate."""
        p = self.pairs
        if len(p):
            best = np.maximum.reduceat(self.entry_grade, self.entry_offsets[:-1])
            grades = np.asarray(best, dtype=np.int64)[p.grades]
        else:
            grades = np.zeros(0, np.int64)
        return Qrels(p.query_ids, p.offsets, p.doc_ids, grades, source=self.source)

    @classmethod
    def from_rows(
        cls, rows: Iterable[tuple[Any, Any, Any, Any]], *, source: str = "<subtopics>"
    ) -> Subtopics:
        """Subtopic judgments from ``(topic, subtopic, docno, judgment)`` tuples (pyndeval's
        ``SubtopicQrel`` among them), checked as the file reader checks lines; an error names
        the row (0-based)."""
        builder = _Builder(source, "row")
        for i, row in enumerate(rows):
            if not isinstance(row, tuple | list) or len(row) != 4:
                raise InputError(
                    source, f"row {i}: expected (topic, subtopic, docno, judgment), got {row!r}"
                )
            *ids, grade = row
            for k, value in enumerate(ids):
                if not isinstance(value, str):
                    raise InputError(source, f"row {i}: field {k + 1} must be a string: {value!r}")
                problem = id_problem(value)
                if problem is not None:
                    raise InputError(source, f"row {i}: field {k + 1} {value!r} {problem}: {WHY}")
            if isinstance(grade, bool) or not isinstance(grade, int | np.integer):
                raise InputError(source, f"row {i}: judgment must be an integer, got {grade!r}")
            if not INT64[0] <= int(grade) <= INT64[1]:
                raise InputError(source, f"row {i}: judgment {int(grade)} is out of range")
            builder.add(ids[0], ids[1], ids[2], int(grade), i)
        return builder.build()


class _Builder:
    """Collects judgments in input order; rejects a repeated (topic, subtopic, document)."""

    def __init__(self, source: str, unit: str) -> None:
        self.source, self.unit = source, unit
        self.subtopic: dict[str, int] = {}
        self.pair: dict[tuple[str, str], int] = {}
        self.seen: dict[tuple[int, int], int] = {}  # (pair, subtopic) -> where first
        self.e_pair: list[int] = []
        self.e_sub: list[int] = []
        self.e_grade: list[int] = []

    def add(self, topic: str, subtopic: str, doc: str, grade: int, where: int) -> None:
        s = self.subtopic.setdefault(subtopic, len(self.subtopic))
        p = self.pair.setdefault((topic, doc), len(self.pair))
        first = self.seen.setdefault((p, s), where)
        if first != where:
            problem = (
                f"document {doc!r} is judged twice for subtopic {subtopic!r} of topic "
                f"{topic!r} (first at {self.unit} {first})"
            )
            if self.unit == "line":
                raise InputError(self.source, problem, line=where)
            raise InputError(self.source, f"{self.unit} {where}: {problem}")
        self.e_pair.append(p)
        self.e_sub.append(s)
        self.e_grade.append(grade)

    def build(self) -> Subtopics:
        if not self.pair:
            raise InputError(self.source, "no judgments (only comments or blank lines)")
        topics = [t for t, _ in self.pair]
        docs = [d for _, d in self.pair]
        pairs = Qrels.from_rows(topics, docs, np.arange(len(docs)), source=self.source)
        e_pair = np.asarray(self.e_pair, dtype=np.int64)
        e_sub = np.asarray(self.e_sub, dtype=np.int64)
        order = np.lexsort((e_sub, e_pair))
        offsets = np.zeros(len(self.pair) + 1, dtype=np.int64)
        np.cumsum(np.bincount(e_pair, minlength=len(self.pair)), out=offsets[1:])
        return Subtopics(
            source=self.source,
            subtopic_ids=tuple(self.subtopic),
            pairs=pairs,
            entry_offsets=offsets,
            entry_subtopic=e_sub[order],
            entry_grade=np.asarray(self.e_grade, dtype=np.int64)[order],
        )


def read_subtopics(path: str | os.PathLike[str]) -> Subtopics:
    """Read a subtopic qrels file (``topic subtopic docno judgment`` lines)."""
    source = source_name(path)
    builder = _Builder(source, "line")
    what = "topic, subtopic, document, judgment"
    add = builder.add
    for lineno, f in _lines(read_text(path), source, 4, what):
        token = f[3]
        if INT.fullmatch(token) is None:
            raise InputError(source, f"judgment {_shown(token)} is not an integer", lineno)
        try:
            grade = number_text.grade(token)
        except number_text.NumberError:
            raise InputError(
                source, f"judgment {_shown(token)} is out of range (a 64-bit integer)", lineno
            ) from None
        add(f[0].decode(), f[1].decode(), f[2].decode(), grade, lineno)
    return builder.build()


def _shown(token: bytes) -> str:
    text = token.decode("utf-8", "replace")
    return repr(text) if len(text) <= 30 else f"'{text[:25]}...' ({len(text)} characters)"


def same_file(path: Any, subtopics: Subtopics) -> bool:
    """Whether ``path`` names the file ``subtopics`` was read from (standard input included)."""
    if not isinstance(path, str | os.PathLike):
        return False
    if source_name(path) == subtopics.source:
        return True
    try:
        return os.path.samefile(path, subtopics.source)
    except (OSError, ValueError):
        return False
