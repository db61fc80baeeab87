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
from typing import Any

from cranfield.errors import MeasureError
from cranfield.measures.measure_object import (  # Measure, format_value: their old path
    Measure,
    format_value,
    quoted,
    suggest,
)
from cranfield.measures.params import INT64_MAX, INT64_MIN, Param, check_values, missing, shown
from cranfield.measures.registry import lookup

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
                f"cannot parse {subject or 'measure ' + quoted(text)}: unexpected {ch!r} "
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
    subject = f"{param.name} {quoted(text)}"
    toks = _tokens(text, subject)
    if not toks:
        raise MeasureError(f"{where}: parameter {param.name} is empty")
    value, i = _value(toks, 0, param, f"{where}: parameter {param.name}", subject)
    if i != len(toks):
        raise MeasureError(f"cannot parse {subject}: unexpected {shown(toks[i][1])}")
    return param.convert(value, where)


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
        raise MeasureError(
            f"cannot parse measure {quoted(text)}: it must start with a measure name"
        )
    name = toks[0][1]
    d = lookup(name)
    if d is None:
        raise MeasureError(
            f"unknown measure {quoted(name)} in {quoted(text)}: {suggest(name, text)}"
        )
    where = f"measure {quoted(text)}"
    i = 1
    given: dict[str, Any] = {}
    if i < len(toks) and toks[i][1] == "(" and toks[i][0] == "sym":
        i += 1
        while i < len(toks) and toks[i][1] != ")":
            if toks[i][0] != "word" or i + 2 >= len(toks) or toks[i + 1][1] != "=":
                raise MeasureError(f"cannot parse measure {quoted(text)}: expected name=value")
            key = toks[i][1]
            i += 2
            if key in given:
                raise MeasureError(f"{where}: parameter {key} given twice")
            p = d.param(key)
            if p is None or key == "cutoff":
                check_values(d, {key: None}, None, quoted(text))  # raises: no such parameter
                raise AssertionError  # pragma: no cover
            given[key], i = _value(
                toks, i, p, f"{where}: parameter {key}", f"measure {quoted(text)}"
            )
            if i < len(toks) and toks[i][1] == ",":
                i += 1
        if i >= len(toks):
            raise MeasureError(f"cannot parse measure {quoted(text)}: missing ')'")
        i += 1
    cutoff = None
    if i < len(toks) and toks[i][1] == "@":
        if i + 1 >= len(toks):
            raise MeasureError(f"cannot parse measure {quoted(text)}: expected a number after '@'")
        if d.cutoff is None:
            raise MeasureError(f"measure {d.name} takes no @ cut-off (in {quoted(text)})")
        kind, tok, _ = toks[i + 1]
        cutoff = _scalar(d.cutoff, kind, tok, f"{where}: parameter cutoff")
        i += 2
    if i != len(toks):
        raise MeasureError(f"cannot parse measure {quoted(text)}: unexpected {shown(toks[i][1])}")
    ordered, cutoff = check_values(d, given, cutoff, quoted(text))
    problem = missing(d, dict(ordered), cutoff, quoted(text))
    if problem:
        raise MeasureError(problem)
    return Measure(d.name, ordered, cutoff)
