"""JSON read by one rule, for every JSON input (tables, JSON lines, nuggetizer's files): the
text checked before any parser sees it (UTF-8, line ends, nesting bounded), a key given twice
in one object refused (the decoder would keep the last), numbers kept as their text
(:class:`~cranfield.io.number_text.JsonNumber`), and every failure one
:class:`~cranfield.errors.InputError` naming the line and the column.
"""

from __future__ import annotations

import json
import os
from typing import Any

from cranfield.errors import InputError
from cranfield.io.number_text import JsonNumber

__all__ = ["duplicate_key_error", "json_line", "json_text", "load_json", "loads"]


def json_text(path: str | os.PathLike[str], *, lines: bool) -> bytes:
    """The checked text of a JSON (``lines=False``) or JSON lines file (a leading byte order
    mark dropped): UTF-8, lines ending as in every text, nesting bounded
    (:mod:`.json_depth`), all before any parser sees it."""
    from cranfield.io.json_depth import check_depth
    from cranfield.io.textcheck import BOM, line_ends
    from cranfield.io.trec.text import read_text

    source = str(path)
    data = read_text(path)
    if data.startswith(BOM):
        data = data[len(BOM) :]
    if not data or data.isspace():
        raise InputError(source, "file is empty")
    line_ends(data, source)
    check_depth(data, source, lines=lines)
    return data


class _DuplicateKey(Exception):
    """A JSON object has a key twice (raised inside the decoder, turned into an InputError)."""


def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``object_pairs_hook`` of every JSON read: a key given twice is an error (the decoder
    would silently keep the last value)."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        raise _DuplicateKey
    return obj


def duplicate_key_error(text: str, source: str, line: int = 1, lead: int = 0) -> InputError:
    """The error for the first repeated key of ``text`` (which holds one), at its position;
    ``line`` is the line ``text`` starts on, after ``lead`` characters of whitespace.  Found
    again by the pure-Python decoder, whose object parser is replaced by one that knows where
    each key is."""
    import json.decoder
    import json.scanner

    # the pure-Python decoder's parts, which the stubs do not declare
    decoder: Any = json.decoder
    scanner: Any = json.scanner

    ws = decoder.WHITESPACE.match

    def parse_object(
        s_and_end: tuple[str, int],
        strict: bool,
        scan_once: Any,
        object_hook: Any,
        object_pairs_hook: Any,
        memo: Any = None,
    ) -> tuple[dict[str, Any], int]:
        s, end = s_and_end
        obj: dict[str, Any] = {}
        end = ws(s, end).end()
        if s[end : end + 1] == "}":
            return obj, end + 1
        while True:
            if s[end : end + 1] != '"':
                raise ValueError("expected a key")
            key, after = decoder.scanstring(s, end + 1, strict)
            if key in obj:
                raise _KeyAt(key, end)
            after = ws(s, after).end()
            if s[after : after + 1] != ":":
                raise ValueError("expected ':'")
            obj[key], end = scan_once(s, ws(s, after + 1).end())
            end = ws(s, end).end()
            sep = s[end : end + 1]
            end = ws(s, end + 1).end()
            if sep == "}":
                return obj, end
            if sep != ",":
                raise ValueError("expected ',' or '}'")

    dec: Any = json.JSONDecoder()  # the pure-Python scanner's hooks, not in the stubs
    dec.parse_object = parse_object
    dec.scan_once = scanner.py_make_scanner(dec)
    try:
        dec.decode(text)
    except _KeyAt as dup:
        at = line + text.count("\n", 0, dup.pos)
        col = dup.pos - (text.rfind("\n", 0, dup.pos) + 1) + 1 + lead
        return InputError(
            source,
            f"key {dup.key!r} appears twice in one JSON object (the second at column {col}); "
            "a JSON object cannot hold the same key twice",
            line=at,
        )
    except (ValueError, StopIteration, RecursionError):  # pragma: no cover - not reached
        pass
    return InputError(source, "a key appears twice in one JSON object", line=line)


class _KeyAt(Exception):
    def __init__(self, key: str, pos: int) -> None:
        self.key, self.pos = key, pos


def loads(text: str | bytes) -> Any:
    """Every JSON read: a key given twice is an error (:class:`_DuplicateKey`), and numbers
    keep their text, for the rules of :mod:`cranfield.io.number_text`
    (``0.99999999999999999`` is not the grade 1)."""
    return json.loads(
        text, object_pairs_hook=unique_keys, parse_int=JsonNumber, parse_float=JsonNumber
    )


def load_json(path: str | os.PathLike[str]) -> Any:
    source = str(path)
    data = json_text(path, lines=False)
    try:
        return loads(data)
    except json.JSONDecodeError as exc:
        raise InputError(
            source, f"invalid JSON at column {exc.colno}: {exc.msg}", line=exc.lineno
        ) from None
    except _DuplicateKey:
        raise duplicate_key_error(data.decode("utf-8"), source) from None
    except RecursionError:
        raise InputError(source, "invalid JSON: nested too deeply") from None
    except ValueError as exc:  # e.g. an integer of more than 4300 digits
        raise InputError(source, f"invalid JSON: {exc}") from None


def json_line(raw: bytes, text: bytes, source: str, lineno: int) -> Any:
    """The JSON value of line ``lineno`` of a JSON lines file (``raw``, its bytes; ``text``,
    them without the ASCII whitespace around), read by the rules of every JSON read (a key
    given twice refused, numbers kept as their text); invalid JSON is one error naming the
    line and the column counted from the line's start."""
    lead = raw.find(text[:1])  # columns count from the line's start
    try:
        return loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            source, f"invalid JSON at column {lead + exc.colno}: {exc.msg}", line=lineno
        ) from None
    except _DuplicateKey:
        raise duplicate_key_error(text.decode("utf-8"), source, lineno, lead) from None
    except RecursionError:
        raise InputError(source, "invalid JSON: nested too deeply", line=lineno) from None
    except ValueError as exc:  # e.g. an integer of more than 4300 digits
        raise InputError(source, f"invalid JSON: {exc}", line=lineno) from None
