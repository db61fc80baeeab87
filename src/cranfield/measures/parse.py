"""Measure strings: a small grammar, never ``eval``.

::

    measure := NAME [ "(" [ param ("," param)* ] ")" ] [ "@" NUMBER ]
    param   := IDENT "=" value
    value   := NUMBER | WORD | "{" [ NUMBER ":" NUMBER ("," NUMBER ":" NUMBER)* ] "}"

Examples: ``AP``, ``P@10``, ``P(rel=2)@10``, ``nDCG(gains={0:0,1:1,2:3})@10``,
``RBP(p=0.8)``, ``IPrec@0.5``.  ``str(parse(s)) == s`` for every canonical string (parameters
in their declared order, numbers in shortest form).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import MeasureError
from .registry import REGISTRY, MeasureDef, Param, all_names, lookup

__all__ = ["Measure", "format_value", "parse"]

_TOKEN = re.compile(
    r"""\s*(?:
        (?P<num>[+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?))
      | (?P<word>[A-Za-z_][A-Za-z0-9_.\-]*)
      | (?P<sym>[()@,={}:])
    )""",
    re.VERBOSE,
)


def format_value(v: Any) -> str:
    """Canonical text of a parameter value."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | np.integer):
        return str(int(v))
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, dict):
        return "{" + ",".join(f"{format_value(k)}:{format_value(g)}" for k, g in v.items()) + "}"
    return str(v)


@dataclass(frozen=True, repr=False)  # __repr__ below
class Measure:
    """A measure with its parameters, e.g. ``P(rel=2)@10``.

    Only explicitly given parameters are stored; :meth:`resolve` fills in defaults.
    """

    name: str
    params: tuple[tuple[str, Any], ...] = ()
    cutoff: int | float | None = None

    @property
    def definition(self) -> MeasureDef:
        return REGISTRY[self.name]

    def __str__(self) -> str:
        s = self.name
        if self.params:
            s += "(" + ",".join(f"{k}={format_value(v)}" for k, v in self.params) + ")"
        if self.cutoff is not None:
            s += "@" + format_value(self.cutoff)
        return s

    def __repr__(self) -> str:
        return f"Measure({str(self)!r})"

    def __matmul__(self, k: int | float) -> Measure:
        return _build(self.definition, dict(self.params), k, str(self) + f"@{k}")

    def __call__(self, **params: Any) -> Measure:
        return _build(self.definition, {**dict(self.params), **params}, self.cutoff, self.name)

    def resolve(self, defaults: dict[str, Any] | None = None) -> dict[str, Any]:
        """All parameters as keywords for the measure function (``cutoff`` included)."""
        d = self.definition
        out: dict[str, Any] = {}
        given = dict(self.params)
        for p in d.params:
            if p.name in given:
                out[p.name] = given[p.name]
            elif defaults and p.name in defaults:
                out[p.name] = defaults[p.name]
            else:
                out[p.name] = p.default
        if d.cutoff is not None:
            out["cutoff"] = self.cutoff
        return out

    def compute(self, jr: Any, defaults: dict[str, Any] | None = None) -> np.ndarray:
        """Per-query values on judged rankings ``jr`` (tie-aware if ``jr.ties == "weak"``)."""
        func = self.definition.function(getattr(jr, "ties", "trec"))
        values = func(jr, **self.resolve(defaults))
        return np.asarray(values, dtype=np.float64)


def _tokens(text: str) -> list[tuple[str, str, int]]:
    out = []
    pos = 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            raise MeasureError(
                f"cannot parse measure {text!r}: unexpected {text[pos:].strip()[:1]!r} "
                f"at position {pos + 1}"
            )
        kind = m.lastgroup or ""
        out.append((kind, m.group(kind), m.start(kind)))
        pos = m.end()
    return out


def _convert(d: MeasureDef, p: Param, raw: Any, text: str) -> Any:
    kind = p.kind
    where = f"measure {text!r}: parameter {p.name}"
    if kind == "gains":
        if not isinstance(raw, dict):
            raise MeasureError(f"{where} must be a map like {{0:0,1:1,2:3}}")
        return raw
    if isinstance(raw, dict):
        raise MeasureError(f"{where} takes a single value, not a map")
    kind_raw, tok = raw
    if kind == "bool":
        if tok.lower() in ("true", "1", "yes"):
            return True
        if tok.lower() in ("false", "0", "no"):
            return False
        raise MeasureError(f"{where} must be true or false, got {tok!r}")
    if kind == "int":
        if kind_raw != "num" or not re.fullmatch(r"[+-]?\d+", tok):
            raise MeasureError(f"{where} must be an integer, got {tok!r}")
        value: Any = int(tok)
    elif kind == "float":
        if kind_raw != "num":
            raise MeasureError(f"{where} must be a number, got {tok!r}")
        value = float(tok)
    else:  # str
        value = tok
    if p.choices and value not in p.choices:
        raise MeasureError(
            f"{where} must be one of {', '.join(map(format_value, p.choices))}, got {tok!r}"
        )
    if p.check is not None:
        problem = p.check(value)
        if problem:
            raise MeasureError(f"{where} {problem}, got {tok}")
    return value


def _number(tok: tuple[str, str, int], text: str) -> int | float:
    kind, value, _ = tok
    if kind != "num":
        raise MeasureError(f"cannot parse measure {text!r}: expected a number, got {value!r}")
    return int(value) if re.fullmatch(r"[+-]?\d+", value) else float(value)


def _suggest(name: str) -> str:
    names = all_names()
    lowered = {n.lower(): n for n in names}
    import difflib  # error path only

    close = difflib.get_close_matches(name.lower(), list(lowered), n=4, cutoff=0.5)
    if close:
        return "did you mean " + ", ".join(lowered[c] for c in close) + "?"
    return "run 'cranfield measures' for the list"


def parse(text: str | Measure) -> Measure:
    """Parse a measure string (or return a :class:`Measure` unchanged)."""
    if isinstance(text, Measure):
        return text
    if not isinstance(text, str):
        raise MeasureError(f"a measure must be a string like 'P@10', got {type(text).__name__}")
    toks = _tokens(text)
    if not toks or toks[0][0] != "word":
        raise MeasureError(f"cannot parse measure {text!r}: it must start with a measure name")
    name = toks[0][1]
    d = lookup(name)
    if d is None:
        raise MeasureError(f"unknown measure {name!r} in {text!r}: {_suggest(name)}")
    i = 1
    given: dict[str, Any] = {}
    if i < len(toks) and toks[i][1] == "(" and toks[i][0] == "sym":
        i += 1
        while i < len(toks) and toks[i][1] != ")":
            if toks[i][0] != "word" or i + 2 >= len(toks) or toks[i + 1][1] != "=":
                raise MeasureError(f"cannot parse measure {text!r}: expected name=value")
            key = toks[i][1]
            i += 2
            if toks[i][1] == "{":
                i += 1
                mapping: dict[Any, Any] = {}
                while i < len(toks) and toks[i][1] != "}":
                    k = _number(toks[i], text)
                    if i + 2 >= len(toks) or toks[i + 1][1] != ":":
                        raise MeasureError(f"cannot parse measure {text!r}: expected grade:gain")
                    mapping[k] = _number(toks[i + 2], text)
                    i += 3
                    if i < len(toks) and toks[i][1] == ",":
                        i += 1
                if i >= len(toks):
                    raise MeasureError(f"cannot parse measure {text!r}: missing '}}'")
                value: Any = mapping
                i += 1
            else:
                value = (toks[i][0], toks[i][1])
                i += 1
            if key in given:
                raise MeasureError(f"measure {text!r}: parameter {key} given twice")
            given[key] = value
            if i < len(toks) and toks[i][1] == ",":
                i += 1
        if i >= len(toks):
            raise MeasureError(f"cannot parse measure {text!r}: missing ')'")
        i += 1
    cutoff_raw = None
    if i < len(toks) and toks[i][1] == "@":
        if i + 1 >= len(toks):
            raise MeasureError(f"cannot parse measure {text!r}: expected a number after '@'")
        cutoff_raw = toks[i + 1]
        i += 2
    if i != len(toks):
        raise MeasureError(f"cannot parse measure {text!r}: unexpected {toks[i][1]!r}")
    converted: dict[str, Any] = {}
    for key, raw in given.items():
        p = d.param(key)
        if p is None or key == "cutoff":
            names = ", ".join(q.name for q in d.params) or "none"
            raise MeasureError(
                f"measure {d.name} has no parameter {key!r} (in {text!r}); its parameters: {names}"
            )
        converted[key] = _convert(d, p, raw, text)
    cutoff = None
    if cutoff_raw is not None:
        if d.cutoff is None:
            raise MeasureError(f"measure {d.name} takes no @ cut-off (in {text!r})")
        cutoff = _convert(d, d.cutoff, (cutoff_raw[0], cutoff_raw[1]), text)
    return _build(d, converted, cutoff, text)


def _build(d: MeasureDef, params: dict[str, Any], cutoff: Any, text: str) -> Measure:
    if cutoff is not None and d.cutoff is not None and d.cutoff.check is not None:
        problem = d.cutoff.check(cutoff)
        if problem:
            raise MeasureError(f"measure {text!r}: the cut-off {problem}, got {cutoff}")
    if d.cutoff is not None and d.cutoff.required and cutoff is None:
        raise MeasureError(f"measure {d.name} needs a cut-off, as in {d.name}@10 (got {text!r})")
    for p in d.params:
        if p.required and p.name not in params:
            raise MeasureError(f"measure {d.name} needs parameter {p.name} (got {text!r})")
    ordered = tuple((p.name, params[p.name]) for p in d.params if p.name in params)
    if d.check is not None:
        problem = d.check(dict(ordered))
        if problem:
            raise MeasureError(f"measure {text!r}: {problem}")
    return Measure(d.name, ordered, cutoff)
