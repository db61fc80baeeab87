"""C library behaviour the trec_eval command line relies on: ``atol``, ``atof``, ``printf``."""

from __future__ import annotations

import math
import re

__all__ = ["atof", "atol", "fmt_double", "fmt_name_double", "fmt_value_line"]

_ATOL = re.compile(r"[ \t\n\v\f\r]*([+-]?[0-9]+)")
_ATOF = re.compile(
    r"""[ \t\n\v\f\r]*(
        [+-]?(?:
            0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][+-]?[0-9]+)?
          | (?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?
          | inf(?:inity)?
          | nan(?:\([0-9A-Za-z_]*\))?
        ))""",
    re.VERBOSE | re.IGNORECASE,
)

LONG_MAX = 2**63 - 1
LONG_MIN = -(2**63)


def atol(text: str) -> int:
    """C ``atol``: optional blanks and sign, then digits; anything else gives 0."""
    m = _ATOL.match(text)
    if m is None:
        return 0
    return max(LONG_MIN, min(LONG_MAX, int(m.group(1))))


def atof(text: str) -> float:
    """C ``atof`` (``strtod``): the longest numeric prefix (decimal, hex, inf, nan), else 0."""
    m = _ATOF.match(text)
    if m is None:
        return 0.0
    tok = m.group(1)
    low = tok.lower().lstrip("+-")
    neg = tok.startswith("-")
    if low.startswith("inf"):
        return -math.inf if neg else math.inf
    if low.startswith("nan"):
        return -math.nan if neg else math.nan
    if low.startswith("0x"):
        return float.fromhex(tok)
    return float(tok)


def fmt_double(value: float) -> str:
    """``printf("%6.4f")`` as glibc prints it, including ``-nan`` for the sign-bit NaN."""
    if math.isnan(value):
        return ("-nan" if math.copysign(1.0, value) < 0 else "nan").rjust(6)
    return f"{value:6.4f}"


def fmt_name_double(name: str, value: float) -> str:
    """trec_eval's ``NAME_%3.2f`` for double cutoffs, cut to its buffer (``len(name) + 9``)."""
    if math.isnan(value):
        text = "-nan" if math.copysign(1.0, value) < 0 else "nan"
    else:
        text = f"{value:3.2f}"
    return f"{name}_{text}"[: len(name) + 9]


def fmt_value_line(name: str, qid: str, value: str, z: bool = False) -> str:
    """One output line: ``%-22s\\t%s\\t%s`` (with the ``Z`` prefix of ``-Z``)."""
    return f"{'Z' if z else ''}{name:<22}\t{qid}\t{value}\n"
