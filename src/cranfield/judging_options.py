"""How runs are judged: one checked object for every function that reads and judges runs."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from . import arguments as A

__all__ = ["JudgeOptions"]


@dataclass(frozen=True)
class JudgeOptions:
    """The judging options, checked when made (one :class:`~cranfield.errors.ParameterError`
    naming the option), before any input is read.

    ``ties``, ``seed``, ``depth``, ``judged_only``, ``complete``: see
    :func:`cranfield.judge` (trec_eval's ``-M``, ``-J``, ``-c``); ``collection_size``,
    ``known``, ``target``: the side inputs of :mod:`cranfield.measure_inputs`; ``rel``: the
    minimum grade counted relevant by every measure with a ``rel`` parameter that its measure
    string does not set (trec_eval's ``-l``; ``None``: each measure's own default, 1).
    """

    ties: str = "trec"
    seed: int | None = None
    depth: int | None = None
    judged_only: bool = False
    complete: bool = False
    collection_size: Any = None
    known: Any = None
    target: Any = None
    rel: int | None = None

    def __post_init__(self) -> None:
        from .ties.order import TIE_POLICIES

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
        for name, value in checked.items():
            object.__setattr__(self, name, value)

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
