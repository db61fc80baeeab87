"""Regression checks of scores: ``cranfield verify EXPECTED.yaml`` and :func:`verify`.

As Anserini's regression harness checks its runs (Anserini issue #3425): a YAML file names the
qrels, the runs, and for each run the measures and the scores expected, with tolerances.  Each
run is evaluated (:func:`cranfield.evaluate`) and each measure's mean compared with its
expected value: **OK** when ``|got - expected| <= tolerance``, **OKish** when it is within the
looser ``okish``, **FAIL** otherwise (a NaN is OK only against an expected ``.nan``).  The
schema (``docs/verify.md``)::

    qrels: qrels.txt          # paths are relative to the YAML file's directory
    tolerance: 0.0001         # optional, default 1e-4: OK within it
    okish: 0.001              # optional, default 1e-3: OKish within it, else FAIL
    options: {depth: 1000}    # optional: evaluate()'s judging options for every run
    runs:
      - run: runs/bm25.txt
        name: bm25            # optional (default: the file name)
        qrels: other.txt      # optional: this run's qrels
        tolerance: 0.001      # optional: this run's tolerances
        expected:
          AP: 0.2531
          P@10: {value: 0.412, tolerance: 0.0005}

Every problem of the file is one :class:`~cranfield.errors.InputError` naming it, the line and
the key: a key it does not know, a missing key, a value of the wrong type, a measure the
grammar does not know, a file that cannot be read (that reader's error).
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from cranfield.errors import CranfieldError, InputError

__all__ = ["Check", "Verification", "verify"]

TOLERANCE = 1e-4
"""The default absolute tolerance of an OK check."""
OKISH = 1e-3
"""The default absolute tolerance of an OKish check."""
OPTIONS = ("ties", "depth", "judged_only", "complete", "rel", "aggregate")
"""The keys of ``options``: evaluate()'s keywords that change the scores and need no file."""

_TOP = ("qrels", "tolerance", "okish", "options", "runs")
_RUN = ("run", "name", "qrels", "tolerance", "okish", "expected")
_VALUE = ("value", "tolerance", "okish")


@dataclass(frozen=True)
class Check:
    """One expected score: the run and measure, the value expected and the one computed,
    the tolerances, and the verdict (``OK``, ``OKish`` or ``FAIL``)."""

    run: str
    measure: str
    expected: float
    got: float
    tolerance: float
    okish: float
    verdict: str

    @property
    def difference(self) -> float:
        """``got - expected`` (NaN when either is NaN)."""
        return self.got - self.expected


def judge_value(expected: float, got: float, tolerance: float, okish: float) -> str:
    """The verdict of one check (see the module docstring)."""
    if math.isnan(expected) or math.isnan(got):
        return "OK" if math.isnan(expected) and math.isnan(got) else "FAIL"
    if expected == got:
        return "OK"  # infinities too
    d = abs(got - expected)
    if d <= tolerance:
        return "OK"
    return "OKish" if d <= okish else "FAIL"


@dataclass(frozen=True)
class Verification:
    """The checks of an EXPECTED.yaml file, in the file's order."""

    source: str
    checks: tuple[Check, ...]

    def __iter__(self) -> Iterator[Check]:
        return iter(self.checks)

    def __len__(self) -> int:
        return len(self.checks)

    def __getitem__(self, i: int) -> Check:
        return self.checks[i]

    def count(self, verdict: str) -> int:
        return sum(c.verdict == verdict for c in self.checks)

    @property
    def passed(self) -> bool:
        """No check failed (OKish passes)."""
        return self.count("FAIL") == 0

    @property
    def status(self) -> int:
        """The command's exit status: 1 when a check failed, else 0."""
        return 0 if self.passed else 1

    def __repr__(self) -> str:
        counts = ", ".join(f"{self.count(v)} {v}" for v in ("OK", "OKish", "FAIL"))
        return f"<Verification {self.source}: {len(self.checks)} checks, {counts}>"


# ------------------------------------------------------------------------------ reading
class _Spec:
    """A YAML mapping with the line of each key (the loader below builds them)."""

    def __init__(self, items: dict[Any, Any], lines: dict[Any, int], line: int) -> None:
        self.items = items
        self.lines = lines
        self.line = line


def _loader() -> Any:
    """PyYAML's safe loader, its mappings built as :class:`_Spec` (a duplicate key refused)."""
    from cranfield.base.optional import require

    yaml = require("yaml", "yaml", "cranfield verify")
    base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

    class Loader(base):  # type: ignore[misc, valid-type]  # the base is chosen at run time
        pass

    def mapping(loader: Any, node: Any) -> _Spec:
        loader.flatten_mapping(node)
        items: dict[Any, Any] = {}
        lines: dict[Any, int] = {}
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            if not isinstance(key, str | int | float | bool) or key is None:
                raise yaml.constructor.ConstructorError(
                    None, None, "a key must be a name", key_node.start_mark
                )
            if key in items:
                raise yaml.constructor.ConstructorError(
                    None, None, f"key {key!r} given twice", key_node.start_mark
                )
            items[key] = loader.construct_object(value_node, deep=True)
            lines[key] = key_node.start_mark.line + 1
        return _Spec(items, lines, node.start_mark.line + 1)

    Loader.add_constructor("tag:yaml.org,2002:map", mapping)
    return Loader


@dataclass(frozen=True)
class _Planned:
    """One run of the file: where it is, its name and qrels, and its expected scores
    (measure, value, tolerance, okish, line)."""

    run: str
    name: str
    qrels: str
    expected: list[tuple[str, float, float, float, int]]
    line: int


class _Reader:
    def __init__(self, source: str) -> None:
        self.source = source
        self.base = os.path.dirname(os.path.abspath(source))

    def error(self, problem: str, line: int | None) -> InputError:
        return InputError(self.source, problem, line=line)

    def mapping(self, value: Any, what: str, line: int, keys: Sequence[str]) -> _Spec:
        if not isinstance(value, _Spec):
            raise self.error(f"{what} must be a mapping (key: value lines)", line)
        for k, at in value.lines.items():
            if k not in keys:
                raise self.error(f"unknown key {k!r} in {what}; the keys are {', '.join(keys)}", at)
        return value

    def need(self, spec: _Spec, key: str, what: str) -> Any:
        if key not in spec.items:
            raise self.error(f"{what} has no {key!r} key", spec.line)
        return spec.items[key]

    def number(self, spec: _Spec, key: str, what: str, *, tolerance: bool) -> float:
        v = spec.items[key]
        if isinstance(v, bool) or not isinstance(v, int | float):
            kind = "a number" if not tolerance else "a number >= 0"
            raise self.error(f"{what}: {key} must be {kind}, got {v!r}", spec.lines[key])
        v = float(v)
        if tolerance and not (v >= 0 and math.isfinite(v)):
            raise self.error(
                f"{what}: {key} must be a finite number >= 0, got {v!r}", spec.lines[key]
            )
        return v

    def path(self, spec: _Spec, key: str, what: str) -> str:
        v = spec.items[key]
        if not isinstance(v, str) or not v.strip():
            raise self.error(f"{what}: {key} must be a file name, got {v!r}", spec.lines[key])
        return v if os.path.isabs(v) else os.path.join(self.base, v)

    def tolerances(
        self, spec: _Spec, what: str, default: tuple[float, float]
    ) -> tuple[float, float]:
        tol, okish = default
        if "tolerance" in spec.items:
            tol = self.number(spec, "tolerance", what, tolerance=True)
        if "okish" in spec.items:
            okish = self.number(spec, "okish", what, tolerance=True)
        if okish < tol:
            line = spec.lines.get("okish", spec.lines.get("tolerance", spec.line))
            raise self.error(
                f"{what}: okish ({okish:g}) must be at least the tolerance ({tol:g})", line
            )
        return tol, okish

    def read(self, top: Any) -> tuple[list[_Planned], dict[str, Any]]:
        from cranfield.measures import parse

        top = self.mapping(top, "the file", 1, _TOP)
        default = self.tolerances(top, "the file", (TOLERANCE, OKISH))
        options: dict[str, Any] = {}
        if "options" in top.items:
            spec = self.mapping(top.items["options"], "options", top.lines["options"], OPTIONS)
            options = {k: _plain(v) for k, v in spec.items.items()}
        qrels = self.path(top, "qrels", "the file") if "qrels" in top.items else None
        runs = self.need(top, "runs", "the file")
        if not isinstance(runs, list) or not runs:
            raise self.error("runs must be a list of runs ('- run: FILE' items)", top.lines["runs"])
        planned = []
        for i, item in enumerate(runs, 1):
            what = f"runs item {i}"
            spec = self.mapping(item, what, top.lines["runs"], _RUN)
            run = self.path(spec, "run", what) if "run" in spec.items else None
            if run is None:
                raise self.error(f"{what} has no 'run' key", spec.line)
            name = spec.items.get("name", os.path.basename(run))
            if not isinstance(name, str) or not name.strip():
                raise self.error(f"{what}: name must be a text, got {name!r}", spec.lines["name"])
            what = f"run {name}"
            own = self.path(spec, "qrels", what) if "qrels" in spec.items else qrels
            if own is None:
                raise self.error(
                    f"{what} has no qrels (give 'qrels' at the top or for the run)", spec.line
                )
            tol = self.tolerances(spec, what, default)
            exp = self._expected(spec, what, tol, parse)
            planned.append(_Planned(run, name, own, exp, spec.line))
        seen: set[str] = set()
        for p in planned:  # the second of two runs of one name is the one named
            if p.name in seen:
                raise self.error(
                    f"two runs are named {p.name!r}: give each a distinct 'name'", p.line
                )
            seen.add(p.name)
        return planned, options

    def _expected(
        self, spec: _Spec, what: str, tol: tuple[float, float], parse: Any
    ) -> list[tuple[str, float, float, float, int]]:
        from cranfield.errors import MeasureError

        value = self.need(spec, "expected", what)
        line = spec.lines["expected"]
        if not isinstance(value, _Spec) or not value.items:
            raise self.error(f"{what}: expected must map measures to scores (AP: 0.25)", line)
        out = []
        for label, v in value.items.items():
            at = value.lines[label]
            label = str(label)
            try:
                parse(label)
            except MeasureError as exc:
                raise self.error(f"{what}: measure {label!r}: {exc}", at) from None
            where = f"{what}: {label}"
            if isinstance(v, _Spec):
                self.mapping(v, where, at, _VALUE)
                self.need(v, "value", where)
                number = self.number(v, "value", where, tolerance=False)
                t, o = self.tolerances(v, where, tol)
            else:
                one = _Spec({"value": v}, {"value": at}, at)
                number = self.number(one, "value", where, tolerance=False)
                t, o = tol
            out.append((label, number, t, o, at))
        return out


def _plain(value: Any) -> Any:
    """A YAML value with its mappings as dicts."""
    if isinstance(value, _Spec):
        return {k: _plain(v) for k, v in value.items.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


# ------------------------------------------------------------------------------ verify
def verify(path: str | os.PathLike[str]) -> Verification:
    """The checks of the EXPECTED.yaml file ``path`` (see the module docstring): each run
    evaluated, each expected score compared.  Any problem of the file or of a file it names
    raises :class:`~cranfield.errors.InputError` (or the reader's error) naming it."""
    from cranfield.evaluation import evaluate
    from cranfield.io import read_qrels
    from cranfield.io.ir_metadata import load_yaml
    from cranfield.io.trec.text import read_text
    from cranfield.results.tables import Results

    source = os.fspath(path)
    text = read_text(source).removeprefix(b"\xef\xbb\xbf").decode("utf-8")
    top = load_yaml(text, source, loader=_loader())
    reader = _Reader(source)
    planned, options = reader.read(top)
    qrels_read: dict[str, Any] = {}
    checks = []
    for p in planned:
        if p.qrels not in qrels_read:
            qrels_read[p.qrels] = read_qrels(p.qrels)
        labels = list(dict.fromkeys(label for label, *_ in p.expected))
        try:
            results = evaluate(qrels_read[p.qrels], p.run, labels, names=[p.name], **options)
        except CranfieldError as exc:
            if isinstance(exc, InputError):
                raise
            raise reader.error(f"run {p.name}: {exc}", p.line) from None
        assert isinstance(results, Results)  # (one run, named: one Results)
        means = results.aggregate()
        for label, expected, tol, okish, _ in p.expected:
            got = float(means[label])
            checks.append(
                Check(
                    p.name, label, expected, got, tol, okish, judge_value(expected, got, tol, okish)
                )
            )
    return Verification(source, tuple(checks))
