"""The import paths of the layout before the stage packages (issue 24), kept working for one
release: ``import cranfield.judging_options`` still gives the module, now
``cranfield.judging.options``, with a DeprecationWarning naming the new path.  The table is the
one record of what moved; ``docs/architecture.md`` draws the new layout.
"""

from __future__ import annotations

import importlib
import sys
import warnings
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from importlib.abc import Loader as _LoaderBase
    from importlib.machinery import ModuleSpec
else:  # importlib.abc is not imported at run time, to keep ``import cranfield`` light
    _LoaderBase = object

#: old module -> new module
MOVED: dict[str, str] = {
    "cranfield._lazy": "cranfield.base.optional",
    "cranfield.limits": "cranfield.base.limits",
    "cranfield.arguments": "cranfield.base.arguments",
    "cranfield.segments": "cranfield.base.segments",
    "cranfield.arrow": "cranfield.base.arrow",
    "cranfield.output_files": "cranfield.base.output_files",
    "cranfield.progress": "cranfield.base.progress",
    "cranfield.id_hashes": "cranfield.base.id_hashes",
    "cranfield.id_column": "cranfield.data.id_column",
    "cranfield.naming": "cranfield.data.run_names",
    "cranfield.io.text": "cranfield.io.trec.text",
    "cranfield.io.trec_arrow": "cranfield.io.trec.arrow_parse",
    "cranfield.io.fields": "cranfield.io.trec.fields",
    "cranfield.io.normalize": "cranfield.io.trec.normalize",
    "cranfield.io.run_pieces": "cranfield.io.trec.run_pieces",
    "cranfield.io.judgment_files": "cranfield.io.trec.judgment_files",
    "cranfield.io.subtopics": "cranfield.io.trec.subtopics",
    "cranfield.judging_options": "cranfield.judging.options",
    "cranfield.judged_runs": "cranfield.judging.runs",
    "cranfield.judged_rankings": "cranfield.judging.rankings",
    "cranfield.measure_inputs": "cranfield.judging.side_inputs",
    "cranfield.ties.order": "cranfield.judging.ordering",
    "cranfield.measures.counting": "cranfield.measures.kernels.counting",
    "cranfield.measures.discount": "cranfield.measures.kernels.discount",
    "cranfield.measures.gains": "cranfield.measures.kernels.gains",
    "cranfield.measures.cwl": "cranfield.measures.kernels.cwl",
    "cranfield.measures.subtopic_view": "cranfield.measures.kernels.subtopic_view",
    "cranfield.measures.subtopic_ideal": "cranfield.measures.kernels.subtopic_ideal",
    "cranfield.measures.subtopic_ties": "cranfield.measures.kernels.subtopic_ties",
    "cranfield.aggregate": "cranfield.results.aggregate",
    "cranfield.partial_results": "cranfield.results.blocks",
    "cranfield.query_sets": "cranfield.results.query_sets",
    "cranfield.streaming": "cranfield.scale.streaming",
    "cranfield.query_ranges": "cranfield.scale.query_ranges",
    "cranfield.parallel": "cranfield.scale.processes",
    "cranfield.dask_executor": "cranfield.scale.dask_executor",
    "cranfield.malloc_tuning": "cranfield.scale.malloc_tuning",
    "cranfield.compat.catalogue": "cranfield.compat.trec_eval.catalogue",
    "cranfield.compat.cformat": "cranfield.compat.trec_eval.cformat",
    "cranfield.compat.engine": "cranfield.compat.trec_eval.engine",
    "cranfield.compat.help": "cranfield.compat.trec_eval.help",
    "cranfield.compat.options": "cranfield.compat.trec_eval.options",
    "cranfield.compat.streamed": "cranfield.compat.trec_eval.streamed",
    "cranfield.compat.zscores": "cranfield.compat.trec_eval.zscores",
    "cranfield.verification": "cranfield.comparing.verification",
}

#: a module that became a package of the same name (or a module that re-exported a name from
#: another): its public names, and where they live now
FORMER_NAMES: dict[str, dict[str, str]] = {
    "cranfield.data": {
        "LineCounts": "cranfield.data.tables",
        "Qrels": "cranfield.data.tables",
        "Run": "cranfield.data.tables",
    },
    "cranfield.judging": {"judge": "cranfield.judging.join"},
    # a re-export from the module that the leaderboards' computation imports (an import cycle)
    "cranfield.judgments.leaderboard": {"leaderboards": "cranfield.judgments.leaderboard_runs"},
    "cranfield.results": {
        "Results": "cranfield.results.tables",
        "ResultsSet": "cranfield.results.tables",
    },
}


def _warn(old: str, new: str) -> None:
    warnings.warn(
        f"{old} moved to {new}; the old path works until cranfield 0.2",
        DeprecationWarning,
        stacklevel=3,
    )


def former_names(package: str) -> Callable[[str], Any]:
    """The module ``__getattr__`` of a package that replaced a module of the same name."""
    names = FORMER_NAMES[package]

    def __getattr__(name: str) -> Any:
        module = names.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        _warn(f"{package}.{name}", f"{module}.{name}")
        return getattr(importlib.import_module(module), name)

    return __getattr__


class _Alias(_LoaderBase):
    """A loader that gives the module under its new name (importlib's Loader protocol)."""

    def __init__(self, new: str) -> None:
        self.new = new

    def create_module(self, spec: ModuleSpec) -> ModuleType:
        _warn(spec.name, self.new)
        return importlib.import_module(self.new)

    def exec_module(self, module: ModuleType) -> None:
        """The module was executed under its new name."""


class MovedFinder:
    """Finds the old paths of :data:`MOVED`, and only those (importlib's MetaPathFinder
    protocol; the ABCs are not imported, to keep ``import cranfield`` light)."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        new = MOVED.get(fullname)
        if new is None:
            return None
        from importlib.machinery import ModuleSpec

        return ModuleSpec(fullname, _Alias(new))


def install() -> None:
    if not any(isinstance(f, MovedFinder) for f in sys.meta_path):
        sys.meta_path.append(MovedFinder())
