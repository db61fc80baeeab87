"""Several measures in one string, as ir_measures users type them: ``'AP nDCG@10'`` and
``'AP,nDCG@10'``.

Measures are separated by commas or whitespace outside parentheses, braces and quotes, so the
commas of a parameter list or a gains map stay inside their measure
(``nDCG(gains={0:0,1:1})@10,AP`` is two measures).  Whitespace around ``@``, ``(`` and ``=``
does not separate (``P(rel=2) @ 10`` is one measure).  An empty item (``AP,,P@10``, a leading
or trailing comma) and unbalanced brackets are errors: nothing is dropped silently.
"""

from __future__ import annotations

from collections.abc import Callable

from cranfield.errors import MeasureError

__all__ = ["split_measures"]

_OPEN = {"(": ")", "{": "}"}
_GLUE_AFTER = ("@", "(", "=")
"""A word ending with one of these continues in the next one."""
_GLUE_BEFORE = ("@", "(", ")", "=", "{", "}")
"""A word starting with one of these continues the previous one."""


def _top_level(text: str, separator: Callable[[str], bool]) -> list[str]:
    """``text`` cut where ``separator(ch)`` holds outside brackets and quotes."""
    out: list[str] = []
    stack: list[str] = []
    quote = ""
    start = 0
    for i, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch in _OPEN:
            stack.append(_OPEN[ch])
        elif ch in ")}":
            if not stack or stack.pop() != ch:
                raise MeasureError(f"cannot read the measures {text!r}: unbalanced {ch!r}")
        elif not stack and separator(ch):
            out.append(text[start:i])
            start = i + 1
    if stack or quote:
        raise MeasureError(f"cannot read the measures {text!r}: missing {(quote or stack[-1])!r}")
    out.append(text[start:])
    return out


def split_measures(text: str) -> list[str]:
    """The measure strings of ``text`` (one, or several separated by commas or whitespace at
    the top level), each stripped."""
    if not text.strip():
        raise MeasureError("no measure given (the string is empty)")
    items: list[str] = []
    for chunk in _top_level(text, lambda ch: ch == ","):
        words = [w for w in _top_level(chunk, str.isspace) if w]
        if not words:
            raise MeasureError(f"empty measure in {text!r} (two commas, or a comma at an end)")
        current = words[0]
        for word in words[1:]:
            if word.startswith(_GLUE_BEFORE) or current.endswith(_GLUE_AFTER):
                current += word
            else:
                items.append(current)
                current = word
        items.append(current)
    return items
