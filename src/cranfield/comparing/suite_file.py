"""The suite file of ``cranfield suite``: which datasets, their qrels, runs and official measure.

A suite is YAML (``.yaml``, ``.yml``) or TOML (``.toml``); see ``docs/suites.md``::

    measure: nDCG@10            # the official measure of every dataset that names none
    rel: 1                      # its relevance level (optional; trec_eval's -l)
    baseline: bm25              # the system the others are compared with (optional)
    datasets:
      scifact:
        qrels: scifact/qrels.txt
        runs: {bm25: scifact/bm25.run, dense: scifact/dense.run}
      cqa-android:
        group: cqadupstack      # sub-collections of one group are averaged into one dataset
        qrels: cqa/android.qrels
        runs: {bm25: cqa/android-bm25.run, dense: cqa/android-dense.run}

Paths are relative to the suite file's folder.  Every problem is one
:class:`~cranfield.errors.InputError` naming the suite file, the key (``datasets.scifact.runs``)
and, in YAML, its line: an unknown or duplicate key, a value of the wrong type, a missing file,
a dataset without runs, a system missing from some dataset, a group whose members disagree on
the measure.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cranfield.errors import InputError

__all__ = ["DatasetSpec", "SuiteSpec", "read_suite"]

TOP_KEYS = ("measure", "rel", "baseline", "datasets")
DATASET_KEYS = ("qrels", "runs", "measure", "rel", "group")


@dataclass(frozen=True)
class DatasetSpec:
    """One dataset of a suite: its qrels file, its runs (system -> file), its official measure
    and relevance level, and the group it is averaged into (its own name when none)."""

    name: str
    qrels: str
    runs: dict[str, str]
    measure: str
    rel: int | None
    group: str


@dataclass(frozen=True)
class SuiteSpec:
    """A suite file read and checked: its datasets in file order and the systems (in the
    first dataset's order), each named in every dataset."""

    source: str
    datasets: tuple[DatasetSpec, ...]
    systems: tuple[str, ...]
    baseline: str | None


class _Lines:
    """The line of each key path (YAML); none for TOML, whose reader gives no positions."""

    def __init__(self) -> None:
        self.of: dict[tuple[str, ...], int] = {}

    def get(self, path: tuple[str, ...]) -> int | None:
        while path:
            if path in self.of:
                return self.of[path]
            path = path[:-1]
        return None


def _yaml(text: str, source: str, lines: _Lines) -> Any:
    """The YAML document as plain dicts, lists and scalars (the safe loader's types), with the
    line of every mapping key; duplicate keys are refused (the loader would keep the last)."""
    from cranfield.base.optional import require

    yaml = require("yaml", "yaml", f"reading the YAML suite file {source}")

    try:
        loader = yaml.SafeLoader(text)
        try:
            root = loader.get_single_node()

            def build(node: Any, path: tuple[str, ...]) -> Any:
                if isinstance(node, yaml.MappingNode):
                    out: dict[str, Any] = {}
                    for key_node, value_node in node.value:
                        key = loader.construct_object(key_node, deep=True)
                        line = key_node.start_mark.line + 1
                        if not isinstance(key, str):
                            where = ".".join(path) or "the top level"
                            raise InputError(source, f"{where}: key {key!r} is not a name", line)
                        if key in out:
                            raise InputError(
                                source, f"{'.'.join((*path, key))}: duplicate key", line
                            )
                        lines.of[(*path, key)] = line
                        out[key] = build(value_node, (*path, key))
                    return out
                if isinstance(node, yaml.SequenceNode):
                    return [build(v, (*path, str(i))) for i, v in enumerate(node.value)]
                return loader.construct_object(node, deep=True)

            return None if root is None else build(root, ())
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = None if mark is None else mark.line + 1
        problem = exc.problem or exc.context or "not valid YAML"
        raise InputError(source, f"not valid YAML: {problem}", line) from None
    except yaml.YAMLError as exc:
        raise InputError(source, f"not valid YAML: {exc}") from None


def _toml(text: str, source: str) -> Any:
    import re
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        # Python 3.14 gives lineno and msg; before, the message ends "(at line N, column M)"
        problem, line = str(exc), getattr(exc, "lineno", None)
        where = re.search(r"\s*\(at line (\d+), column \d+\)$", problem)
        if where is not None:
            problem, line = problem[: where.start()], line or int(where.group(1))
        problem = getattr(exc, "msg", None) or problem
        raise InputError(source, f"not valid TOML: {problem}", line) from None


def _load(path: str) -> tuple[Any, _Lines]:
    lines = _Lines()
    try:
        raw = Path(path).read_bytes()
    except FileNotFoundError:
        raise InputError(path, "no such file") from None
    except IsADirectoryError:
        raise InputError(path, "is a directory, not a suite file") from None
    except OSError as exc:
        raise InputError(path, f"cannot read: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise InputError(path, "not UTF-8 text", line) from None
    if "\x00" in text:
        line = text[: text.index("\x00")].count("\n") + 1
        raise InputError(path, "holds a NUL byte: not a text file", line)
    suffix = Path(path).suffix.lower()
    if suffix == ".toml":
        return _toml(text, path), lines
    if suffix in (".yaml", ".yml"):
        return _yaml(text.removeprefix("\ufeff"), path, lines), lines
    raise InputError(path, "a suite file is .yaml, .yml or .toml")


class _Checker:
    def __init__(self, source: str, lines: _Lines) -> None:
        self.source = source
        self.lines = lines

    def fail(self, path: tuple[str, ...], problem: str) -> InputError:
        key = ".".join(path)
        return InputError(
            self.source, f"{key}: {problem}" if key else problem, self.lines.get(path)
        )

    def mapping(self, value: Any, path: tuple[str, ...], what: str) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            raise self.fail(path, f"must be {what}, got {_kind(value)}")
        return value

    def keys(self, value: Mapping[str, Any], path: tuple[str, ...], allowed: tuple[str, ...]):
        for key in value:
            if key not in allowed:
                raise self.fail(
                    (*path, key), f"unknown key; the keys here are {', '.join(allowed)}"
                )

    def text(self, value: Any, path: tuple[str, ...]) -> str:
        if not isinstance(value, str) or not value.strip():
            raise self.fail(path, f"must be a non-empty text, got {_kind(value)}")
        return value

    def level(self, value: Any, path: tuple[str, ...]) -> int | None:
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(path, f"must be a whole number (a relevance grade), got {_kind(value)}")
        return value

    def measure(self, value: Any, path: tuple[str, ...]) -> str:
        from cranfield.errors import MeasureError
        from cranfield.measures import parse

        label = self.text(value, path)
        try:
            parse(label)
        except MeasureError as exc:
            raise self.fail(path, str(exc)) from None
        return label

    def system(self, name: Any, path: tuple[str, ...]) -> str:
        """A system's name: the rule of every run name (a text, not blank, no control
        character)."""
        from cranfield.base.arguments import run_names
        from cranfield.errors import ParameterError

        try:
            run_names([name], 1)
        except ParameterError as exc:
            raise self.fail(path, f"not a system name: {exc}") from None
        return name

    def file(self, value: Any, path: tuple[str, ...], folder: Path) -> str:
        name = self.text(value, path)
        full = Path(os.path.expanduser(name))
        if not full.is_absolute():
            full = folder / full
        if not full.exists():
            raise self.fail(path, f"no such file: {str(full)!r}")
        if full.is_dir():
            raise self.fail(path, f"{str(full)!r} is a directory")
        return str(full)


def _kind(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"{value!r}".lower()
    if isinstance(value, Mapping):
        return "a table of keys"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return f"{value!r}" if value.strip() else "an empty text"
    return repr(value)


def check_suite(data: Any, source: str, folder: Path, lines: _Lines | None = None) -> SuiteSpec:
    """The checked :class:`SuiteSpec` of a suite already parsed into ``data`` (dicts, lists
    and scalars), its relative paths resolved against ``folder``."""
    c = _Checker(source, lines or _Lines())
    top = c.mapping(data, (), "a table of keys (measure, rel, baseline, datasets)")
    c.keys(top, (), TOP_KEYS)
    default_measure = (
        None if top.get("measure") is None else c.measure(top["measure"], ("measure",))
    )
    default_rel = c.level(top.get("rel"), ("rel",))
    baseline = None if top.get("baseline") is None else c.text(top["baseline"], ("baseline",))
    if "datasets" not in top:
        raise c.fail((), "no datasets: give a 'datasets' table, one entry per dataset")
    sets = c.mapping(top["datasets"], ("datasets",), "a table of datasets by name")
    if not sets:
        raise c.fail(("datasets",), "names no dataset")
    datasets: list[DatasetSpec] = []
    systems: tuple[str, ...] | None = None
    first = ""
    explicit: set[str] = set()  # the datasets whose group is their own name, said so
    for name, entry in sets.items():
        path = ("datasets", name)
        d = c.mapping(entry, path, "a table of keys (qrels, runs, measure, rel, group)")
        c.keys(d, path, DATASET_KEYS)
        if "qrels" not in d:
            raise c.fail(path, "no qrels")
        qrels = c.file(d["qrels"], (*path, "qrels"), folder)
        if "runs" not in d or d["runs"] is None:
            raise c.fail(path, "no runs: give 'runs', a table of system name -> run file")
        runs_in = c.mapping(d["runs"], (*path, "runs"), "a table of system name -> run file")
        if not runs_in:
            raise c.fail((*path, "runs"), "names no run")
        runs = {
            c.system(system, (*path, "runs", str(system))): c.file(
                file, (*path, "runs", str(system)), folder
            )
            for system, file in runs_in.items()
        }
        if "measure" in d:
            measure = c.measure(d["measure"], (*path, "measure"))
        elif default_measure is None:
            raise c.fail(path, "no measure: give 'measure' here or at the top of the suite")
        else:
            measure = default_measure
        rel = c.level(d["rel"], (*path, "rel")) if "rel" in d else default_rel
        group = c.text(d["group"], (*path, "group")) if "group" in d else name
        if "group" in d and group == name:
            explicit.add(name)
        if systems is None:
            systems, first = tuple(runs), name
        else:
            extra = [s for s in runs if s not in systems]
            if extra:
                raise c.fail(
                    (*path, "runs", extra[0]),
                    f"system {extra[0]!r} is not in dataset {first!r} (every dataset must "
                    f"name the same systems: {', '.join(systems)})",
                )
            missing = [s for s in systems if s not in runs]
            if missing:
                raise c.fail(
                    (*path, "runs"),
                    f"no run of system {missing[0]!r} (every dataset must name the same "
                    f"systems: {', '.join(systems)})",
                )
        datasets.append(DatasetSpec(str(name), qrels, runs, measure, rel, group))
    assert systems is not None
    by_group: dict[str, DatasetSpec] = {}
    # a group may bear the name of one of its datasets if that dataset names the group too
    group_of = {ds.name: ds.group for ds in datasets}
    for ds in datasets:
        other = ds.group in group_of and ds.group != ds.name
        if other and (group_of[ds.group] != ds.group or ds.group not in explicit):
            raise c.fail(
                ("datasets", ds.name, "group"),
                f"group {ds.group!r} is also the name of a dataset outside it",
            )
        seen = by_group.setdefault(ds.group, ds)
        if (seen.measure, seen.rel) != (ds.measure, ds.rel):
            raise c.fail(
                ("datasets", ds.name, "measure"),
                f"group {ds.group!r} mixes measures: {seen.name!r} has {_official(seen)}, "
                f"{ds.name!r} has {_official(ds)}",
            )
    if baseline is not None and baseline not in systems:
        raise c.fail(("baseline",), f"no system {baseline!r}; the systems are {', '.join(systems)}")
    return SuiteSpec(source, tuple(datasets), systems, baseline)


def _official(d: DatasetSpec) -> str:
    return d.measure if d.rel is None else f"{d.measure} with rel {d.rel}"


def read_suite(path: str | os.PathLike[str]) -> SuiteSpec:
    """Read and check the suite file ``path`` (``.yaml``, ``.yml`` or ``.toml``)."""
    source = os.fspath(path)
    data, lines = _load(source)
    return check_suite(data, source, Path(source).resolve().parent, lines)
