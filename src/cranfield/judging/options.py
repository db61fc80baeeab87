"""How runs are judged: one checked object for every function that reads and judges runs."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cranfield.base import arguments as A

__all__ = ["JudgeOptions"]


@dataclass(frozen=True)
class JudgeOptions:
    """The judging options, checked when made (one :class:`~cranfield.errors.ParameterError`
    naming the option), before any input is read.

    ``ties``, ``seed``, ``depth``, ``judged_only``, ``complete``: see
    :func:`cranfield.judge` (trec_eval's ``-M``, ``-J``, ``-c``); ``collection_size``,
    ``known``, ``target``, ``prefs``, ``judgment_groups``, ``subtopics``: the side inputs of
    :mod:`cranfield.judging.side_inputs`; ``rel``: the
    minimum grade counted relevant by every measure with a ``rel`` parameter that its measure
    string does not set (trec_eval's ``-l``; ``None``: each measure's own default, 1).
    """

    ties: str = "trec"
    seed: int | None = None
    depth: int | None = None
    judged_only: bool = False
    complete: bool = True
    collection_size: Any = None
    known: Any = None
    target: Any = None
    prefs: Any = None
    judgment_groups: Any = None
    subtopics: Any = None
    rel: int | None = None

    def __post_init__(self) -> None:
        from cranfield.judging.ordering import TIE_POLICIES

        checked = {
            "ties": A.choice(self.ties, "tie policy", TIE_POLICIES),
            "seed": A.random_seed(self.seed),
            "depth": None if self.depth is None else A.integer(self.depth, "depth"),
            "judged_only": A.flag(self.judged_only, "judged_only"),
            "complete": A.flag(self.complete, "complete"),
            "rel": None if self.rel is None else A.integer(self.rel, "rel"),
        }
        A.per_query(self.collection_size, "collection size")
        A.per_query(self.target, "target")
        A.qrels_source(self.known, "known")
        object.__setattr__(self, "prefs", _prefs(self.prefs))
        object.__setattr__(self, "judgment_groups", _judgment_groups(self.judgment_groups))
        object.__setattr__(self, "subtopics", _subtopics(self.subtopics))
        for name, value in checked.items():
            object.__setattr__(self, name, value)

    @classmethod
    def of(cls, arguments: Mapping[str, Any]) -> JudgeOptions:
        """The options among a public function's arguments (its ``locals()``, taken before it
        binds any other name to an option's name): the functions that take the judging
        options as keywords of their own (``evaluate``, ``compare``, ``report``, ``judge``)."""
        return cls(
            **{f.name: arguments[f.name] for f in dataclasses.fields(cls) if f.name in arguments}
        )

    @classmethod
    def from_keywords(
        cls, keywords: Mapping[str, Any], *, fixed: Mapping[str, Any] | None = None
    ) -> JudgeOptions:
        """The options given as ``**keywords`` to a function that takes them so; ``fixed``
        ones are the function's own (``ties`` of the tie analysis) and cannot be given."""
        fixed = dict(fixed or {})
        allowed = [f.name for f in dataclasses.fields(cls) if f.name not in fixed]
        unknown = [k for k in keywords if k not in allowed]
        if unknown:
            raise A.ParameterError(
                f"unknown option {unknown[0]!r}; the judging options are {', '.join(allowed)}"
            )
        return cls(**{**keywords, **fixed})

    def replace(self, **changes: Any) -> JudgeOptions:
        return dataclasses.replace(self, **changes)

    def judge_keywords(self) -> dict[str, Any]:
        """The keyword arguments of :func:`cranfield.judge`."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "rel"}

    @property
    def defaults(self) -> dict[str, Any] | None:
        """The measures' parameter defaults these options set (``rel``), or ``None``."""
        return None if self.rel is None else {"rel": self.rel}


def _prefs(value: Any) -> Any:
    """``None``, preferences read already, or a path of a preferences file (read once, here,
    so that every run is judged against the same object)."""
    if value is None:
        return value  # nothing to import
    from cranfield.io.trec.judgment_files import Prefs, read_prefs

    if isinstance(value, Prefs):
        return value
    if isinstance(value, str | os.PathLike):
        return read_prefs(value)
    raise A.ParameterError(
        "prefs must be a path of a preferences file or "
        f"cranfield.io.trec.judgment_files.read_prefs(...), got a {type(value).__name__}"
    )


def _judgment_groups(value: Any) -> Any:
    """``None``, judgment groups read already, or the path of a qrels file whose second column
    names the judgment group."""
    if value is None:
        return value  # nothing to import
    from cranfield.io.trec.judgment_files import JudgmentGroups, read_judgment_groups

    if isinstance(value, JudgmentGroups):
        return value
    if isinstance(value, str | os.PathLike):
        return read_judgment_groups(value)
    raise A.ParameterError(
        "judgment_groups must be the path of a qrels file whose second column names the "
        f"judgment group, or read_judgment_groups(...), got a {type(value).__name__}"
    )


def _subtopics(value: Any) -> Any:
    """``None``, subtopic judgments read already, or the path of a subtopic qrels file
    (``topic subtopic docno judgment``), read once, here."""
    if value is None:
        return value  # nothing to import
    from cranfield.io.trec.subtopics import Subtopics, read_subtopics

    if isinstance(value, Subtopics):
        return value
    if isinstance(value, str | os.PathLike):
        return read_subtopics(value)
    raise A.ParameterError(
        "subtopics must be the path of a subtopic qrels file ('topic subtopic docno "
        "judgment' lines) or cranfield.io.trec.subtopics.read_subtopics(...) / "
        f"Subtopics.from_rows(...), got a {type(value).__name__}"
    )
