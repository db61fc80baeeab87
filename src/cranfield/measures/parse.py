"""Measure strings: a small grammar, never ``eval``.

::

    measure := NAME [ "(" [ param ("," param)* ] ")" ] [ "@" NUMBER ]
    param   := IDENT "=" value
    value   := NUMBER | WORD | "'" WORD "'" | '"' WORD '"'
             | "{" [ NUMBER ":" NUMBER ("," NUMBER ":" NUMBER)* ] "}"

Examples: ``AP``, ``P@10``, ``P(rel=2)@10``, ``nDCG(gains={0:0,1:1,2:3})@10``,
``RBP(p=0.8)``, ``IPrec@0.5``, ``nDCG(dcg='exp-log2')@10`` (a word may be quoted, as
ir_measures writes it).  ``str(parse(s)) == s`` for every canonical string (parameters in their
declared order, numbers in shortest form, words unquoted).

Numbers are made of the ASCII digits 0-9 only; a literal beyond the doubles (``1e400``) or
that a double would make 0 (``1e-400``) is an error, and a gains map names each grade once.
Every value is then checked against its parameter's declared range (:mod:`.params`), by the
same routine that checks a :class:`Measure` built in Python.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from cranfield.errors import MeasureError
from cranfield.measures.params import INT64_MAX, INT64_MIN, Param, check_values, missing, shown
from cranfield.measures.registry import REGISTRY, MeasureDef, all_names, lookup

__all__ = ["Measure", "format_value", "parse", "parse_value"]

_TOKEN = re.compile(
    r"""\s*(?:
        (?P<num>[+-]?(?:[0-9]+\.?[0-9]*(?:[eE][+-]?[0-9]+)?|\.[0-9]+(?:[eE][+-]?[0-9]+)?))
      | (?P<word>[A-Za-z_][A-Za-z0-9_.\-]*)
      | '(?P<quoted>[A-Za-z_][A-Za-z0-9_.\-]*)'
      | "(?P<dquoted>[A-Za-z_][A-Za-z0-9_.\-]*)"
      | (?P<sym>[()@,={}:])
    )""",
    re.VERBOSE | re.ASCII,
)
_INT = re.compile(r"[+-]?[0-9]+", re.ASCII)
_MAX_DIGITS = 4000  # longer integers are out of every range (and int() refuses > 4300 digits)
_INT64_RANGE = f"[{INT64_MIN}, {INT64_MAX}]"


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


@dataclass(frozen=True, repr=False, init=False)  # __init__ and __repr__ below
class Measure:
    """A measure with its parameters, e.g. ``P(rel=2)@10``.

    Only explicitly given parameters are stored; :meth:`resolve` fills in defaults.  Every
    value is checked against the registry's declaration when the object is made, exactly as
    the measure-string grammar checks it (one routine, :func:`.params.check_values`): unknown
    names, wrong types and values outside the declared ranges are :class:`MeasureError`.  A
    measure may be built without its required values (``Measure("P")``, to compose with
    ``@`` and ``(...)`` as in ``Measure("P")(rel=2) @ 10``); computing it needs them.
    """

    name: str
    params: tuple[tuple[str, Any], ...] = ()
    cutoff: int | float | None = None

    def __init__(
        self,
        name: str | None = None,
        params: Mapping[str, Any] | tuple[tuple[str, Any], ...] = (),
        cutoff: int | float | None = None,
    ) -> None:
        if name is None:  # Measure(): cranfield's error, not the TypeError of a missing argument
            raise MeasureError(
                "Measure() needs a measure name, e.g. Measure('AP'), Measure('P', cutoff=10) "
                "or Measure('nDCG') @ 10 (`cranfield measures` lists them)"
            )
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "params", params)
        object.__setattr__(self, "cutoff", cutoff)
        self.__post_init__()

    def __post_init__(self) -> None:
        d = _definition(self.name)
        given = _pairs(self.params, d.name)
        try:
            ordered, cutoff = check_values(d, given, self.cutoff, repr(d.name))
        except MeasureError:  # again, to name the whole measure in the message
            check_values(d, given, self.cutoff, _describe(d.name, given, self.cutoff))
            raise
        object.__setattr__(self, "name", d.name)
        object.__setattr__(self, "params", ordered)
        object.__setattr__(self, "cutoff", cutoff)

    @classmethod
    def unchecked(
        cls, name: str, params: tuple[tuple[str, Any], ...] = (), cutoff: Any = None
    ) -> Measure:
        """A measure whose values are *not* checked against the declared ranges.

        For front ends with another tool's parameter rules (``cranfield trec_eval`` takes C
        ``long`` cut-offs and any ``double``); the measure functions accept such values
        without an exception foreign to cranfield and without allocating by a value.
        """
        m = object.__new__(cls)
        object.__setattr__(m, "name", name)
        object.__setattr__(m, "params", tuple(params))
        object.__setattr__(m, "cutoff", cutoff)
        object.__setattr__(m, "_unchecked", True)
        return m

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
        return Measure(self.name, self.params, k)

    def __call__(self, **params: Any) -> Measure:
        return Measure(self.name, {**dict(self.params), **params}, self.cutoff)

    def resolve(self, defaults: dict[str, Any] | None = None) -> dict[str, Any]:
        """All parameters as keywords for the measure function (``cutoff`` included).

        A measure lacking a required value (``Measure("P")`` without ``@k``) is a
        :class:`MeasureError` here."""
        d = self.definition
        if not getattr(self, "_unchecked", False):
            problem = missing(d, dict(self.params), self.cutoff, repr(str(self)))
            if problem:
                raise MeasureError(problem)
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


def _definition(name: Any) -> MeasureDef:
    if not isinstance(name, str):
        raise MeasureError(f"a measure name must be a string like 'P', got {shown(name)}")
    d = lookup(name)
    if d is None:
        raise MeasureError(f"unknown measure {_q(name)}: {_suggest(name)}")
    return d


def _pairs(params: Any, name: str) -> dict[str, Any]:
    """Explicit parameters given as a mapping or as (name, value) pairs, as a dict."""
    items: list[tuple[Any, ...]] | None
    if isinstance(params, Mapping):
        items = list(params.items())
    else:
        try:
            items = [tuple(item) for item in params]
        except TypeError:
            items = None
    if items is None or any(len(item) != 2 for item in items):  # a mapping's items are pairs
        raise MeasureError(
            f"measure {name}: parameters must be a mapping or (name, value) pairs, "
            f"got {shown(params)}"
        )
    out: dict[str, Any] = {}
    for key, value in items:
        if not isinstance(key, str):
            raise MeasureError(f"measure {name}: parameter names are strings, got {shown(key)}")
        if key in out:
            raise MeasureError(f"measure {name}: parameter {key} given twice")
        out[key] = value
    return out


def _describe(name: str, params: Mapping[str, Any], cutoff: Any) -> str:
    """A measure as text for messages, whatever its values."""

    def text(v: Any) -> str:
        if isinstance(v, int) and not isinstance(v, bool) and abs(v) >= 10**30:
            return shown(v)
        if isinstance(v, str):
            return v if len(v) <= 40 else v[:30] + "..."
        if isinstance(v, bool | int | float):
            return format_value(v)
        if isinstance(v, dict) and all(isinstance(x, int | float) for x in (*v, *v.values())):
            return "{" + ",".join(f"{text(k)}:{text(g)}" for k, g in v.items()) + "}"
        return shown(v)

    s = name
    if params:
        s += "(" + ",".join(f"{k}={text(v)}" for k, v in params.items()) + ")"
    if cutoff is not None:
        s += "@" + text(cutoff)
    return repr(s)


def _q(text: str) -> str:
    """A measure string quoted for a message (a long one shortened)."""
    return repr(text if len(text) <= 120 else text[:100] + "...")


def _tokens(text: str, subject: str | None = None) -> list[tuple[str, str, int]]:
    out = []
    pos = 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            rest = text[pos:].strip()
            ch = rest[:1]
            hint = " (numbers are written with the ASCII digits 0-9)" if ch.isdigit() else ""
            raise MeasureError(
                f"cannot parse {subject or 'measure ' + _q(text)}: unexpected {ch!r} "
                f"at position {len(text) - len(rest) + 1}{hint}"
            )
        kind = m.lastgroup or ""
        tok, start = m.group(kind), m.start(kind)
        if kind == "dquoted":
            kind = "quoted"  # a word in quotes: a value only, never a name
        out.append((kind, tok, start))
        pos = m.end()
    return out


def _int(tok: str, at: str, wanted: str) -> int:
    digits = tok.lstrip("+-").lstrip("0")
    if len(digits) > _MAX_DIGITS:
        raise MeasureError(f"{at} must be {wanted}, got {tok[:12]}...({len(digits)} digits)")
    return int(tok)


def _float(tok: str, at: str, wanted: str) -> float:
    f = float(tok)
    if math.isinf(f):
        raise MeasureError(f"{at} must be {wanted}, got {tok} (beyond the largest double)")
    mantissa = re.split("[eE]", tok)[0]
    if f == 0.0 and re.search("[1-9]", mantissa):
        raise MeasureError(f"{at} must be {wanted}, got {tok} (it would be 0 as a double)")
    return f


def _scalar(p: Param, kind: str, tok: str, at: str) -> Any:
    """The token ``tok`` (of token ``kind``) for parameter ``p``, as a Python value of its kind
    (its range is checked by :func:`.params.check_values`)."""
    if p.kind == "bool":
        if tok.lower() in ("true", "1", "yes"):
            return True
        if tok.lower() in ("false", "0", "no"):
            return False
        raise MeasureError(f"{at} must be true or false, got {shown(tok)}")
    if p.kind == "str":
        return tok
    if p.kind == "int":
        if kind == "word" and tok in p.words:
            return tok
        if kind != "num" or not _INT.fullmatch(tok):
            raise MeasureError(f"{at} must be an {p.range_text()}, got {shown(tok)}")
        return _int(tok, at, p.wanted())
    if kind != "num":
        raise MeasureError(f"{at} must be a {p.range_text()}, got {shown(tok)}")
    return _float(tok, at, p.wanted())


def _gains(
    p: Param, entries: list[tuple[tuple[str, str, int], tuple[str, str, int]]], at: str
) -> dict[int, int | float]:
    """A ``{grade:gain}`` map from its tokens (duplicate grades are an error)."""
    out: dict[int, int | float] = {}
    wanted = p.wanted()
    for (kk, ktok, _), (vk, vtok, _) in entries:
        if kk != "num" or not _INT.fullmatch(ktok):
            raise MeasureError(f"{at}: grade {shown(ktok)} is not an integer")
        k = _int(ktok, f"{at}: grade", f"in {_INT64_RANGE}")
        if k in out:
            raise MeasureError(f"{at}: grade {k} is given twice")
        if vk != "num":
            raise MeasureError(f"{at}: the gain of grade {k} must be a number, got {shown(vtok)}")
        where = f"{at}: the gain of grade {k}"
        out[k] = _int(vtok, where, wanted) if _INT.fullmatch(vtok) else _float(vtok, where, wanted)
    return out


def _value(
    toks: list[tuple[str, str, int]], i: int, p: Param, at: str, subject: str
) -> tuple[Any, int]:
    """The value of parameter ``p`` that starts at token ``i`` (a scalar or a ``{grade:gain}``
    map), and the index of the token after it (``subject``: what is parsed, for messages)."""
    if toks[i][1] == "{" and toks[i][0] == "sym":
        i += 1
        entries = []
        while i < len(toks) and toks[i][1] != "}":
            if i + 2 >= len(toks) or toks[i + 1][1] != ":":
                raise MeasureError(f"cannot parse {subject}: expected grade:gain")
            entries.append((toks[i], toks[i + 2]))
            i += 3
            if i < len(toks) and toks[i][1] == ",":
                i += 1
        if i >= len(toks):
            raise MeasureError(f"cannot parse {subject}: missing '}}'")
        if p.kind != "gains":
            raise MeasureError(f"{at} takes a single value, not a map")
        return _gains(p, entries, at), i + 1
    if p.kind == "gains":
        raise MeasureError(f"{at} must be a map like {{0:0,1:1,2:3}}")
    return _scalar(p, toks[i][0], toks[i][1], at), i + 1


def parse_value(text: str, param: Param, where: str) -> Any:
    """One value of ``param`` written as in a measure string (``2``, ``0.5``, ``true``,
    ``{0:0,1:1,2:3}``), checked against its declared range; messages begin with ``where``
    (``the gain curve: parameter gains: ...``)."""
    subject = f"{param.name} {_q(text)}"
    toks = _tokens(text, subject)
    if not toks:
        raise MeasureError(f"{where}: parameter {param.name} is empty")
    value, i = _value(toks, 0, param, f"{where}: parameter {param.name}", subject)
    if i != len(toks):
        raise MeasureError(f"cannot parse {subject}: unexpected {shown(toks[i][1])}")
    return param.convert(value, where)


def _missing_at(name: str) -> str | None:
    """``nDCG@10`` for ``nDCG10`` (or ``nDCG-10``): a measure name that takes a cut-off,
    followed by a number without the ``@``; None otherwise."""
    m = re.fullmatch(r"(.*?[A-Za-z])[-_]?([0-9]+)", name)
    if m is None:
        return None
    d = lookup(m[1])
    return None if d is None or d.cutoff is None else f"{d.name}@{int(m[2])}"


def _suggest(name: str, text: str = "") -> str:
    """The nearest measure names, cranfield's and trec_eval's printed ones (error path)."""
    from cranfield.measures.trec_names import dotted_hint, printed_examples

    names = all_names() + printed_examples()
    lowered = {n.lower(): n for n in reversed(names)}  # a cranfield name wins over trec_eval's
    import difflib

    close = [lowered[c] for c in difflib.get_close_matches(name.lower(), list(lowered), 4, 0.5)]
    at = _missing_at(name)
    if at is not None:  # nDCG10: the cut-off without its '@' comes first
        close = [at, *(c for c in close if c != at)][:4]
    hint = dotted_hint(text or name)
    if close:
        return "did you mean " + ", ".join(close) + "?" + hint
    return "run 'cranfield measures' for the list" + hint


def parse(text: str | Measure) -> Measure:
    """Parse a measure string (or return a :class:`Measure` unchanged)."""
    if isinstance(text, Measure):
        return text
    if not isinstance(text, str):
        from cranfield.measures.peer_measures import from_peer

        peer = from_peer(text)  # an ir_measures measure object (None: not one)
        if peer is not None:
            return peer
        raise MeasureError(f"a measure must be a string like 'P@10', got {type(text).__name__}")
    if "(" not in text and "@" not in text and lookup(text.strip()) is None:
        from cranfield.measures.trec_names import from_trec_eval

        trec = from_trec_eval(text)  # trec_eval's printed names: P_10, ndcg_cut_10, 11pt_avg
        if trec is not None:
            return trec
    toks = _tokens(text)
    if not toks or toks[0][0] != "word":
        raise MeasureError(f"cannot parse measure {_q(text)}: it must start with a measure name")
    name = toks[0][1]
    d = lookup(name)
    if d is None:
        raise MeasureError(f"unknown measure {_q(name)} in {_q(text)}: {_suggest(name, text)}")
    where = f"measure {_q(text)}"
    i = 1
    given: dict[str, Any] = {}
    if i < len(toks) and toks[i][1] == "(" and toks[i][0] == "sym":
        i += 1
        while i < len(toks) and toks[i][1] != ")":
            if toks[i][0] != "word" or i + 2 >= len(toks) or toks[i + 1][1] != "=":
                raise MeasureError(f"cannot parse measure {_q(text)}: expected name=value")
            key = toks[i][1]
            i += 2
            if key in given:
                raise MeasureError(f"{where}: parameter {key} given twice")
            p = d.param(key)
            if p is None or key == "cutoff":
                check_values(d, {key: None}, None, _q(text))  # raises: no such parameter
                raise AssertionError  # pragma: no cover
            given[key], i = _value(toks, i, p, f"{where}: parameter {key}", f"measure {_q(text)}")
            if i < len(toks) and toks[i][1] == ",":
                i += 1
        if i >= len(toks):
            raise MeasureError(f"cannot parse measure {_q(text)}: missing ')'")
        i += 1
    cutoff = None
    if i < len(toks) and toks[i][1] == "@":
        if i + 1 >= len(toks):
            raise MeasureError(f"cannot parse measure {_q(text)}: expected a number after '@'")
        if d.cutoff is None:
            raise MeasureError(f"measure {d.name} takes no @ cut-off (in {_q(text)})")
        kind, tok, _ = toks[i + 1]
        cutoff = _scalar(d.cutoff, kind, tok, f"{where}: parameter cutoff")
        i += 2
    if i != len(toks):
        raise MeasureError(f"cannot parse measure {_q(text)}: unexpected {shown(toks[i][1])}")
    ordered, cutoff = check_values(d, given, cutoff, _q(text))
    problem = missing(d, dict(ordered), cutoff, _q(text))
    if problem:
        raise MeasureError(problem)
    return Measure(d.name, ordered, cutoff)
