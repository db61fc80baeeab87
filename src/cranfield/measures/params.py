"""Measure parameters: declarations with valid ranges, and the one routine that checks them.

A :class:`Param` declares its kind (``int``, ``float``, ``str``, ``bool`` or ``gains``), its
default and its valid range as data (``at_least``/``at_most`` inclusive, ``above``/``below``
exclusive, ``choices``, ``words``); the grammar (:mod:`.parse`), ``Measure(...)`` and its
``__call__``/``@``, and the ``cranfield measures`` listing all read the same declaration.
Every float must be finite; gains are ``{grade: gain}`` maps with int64 grades and finite gains
in the declared range.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from cranfield.errors import MeasureError

__all__ = [
    "INT64_MAX",
    "INT64_MIN",
    "MAX_COUNT",
    "MAX_EXACT",
    "MAX_WEIGHT",
    "REQUIRED",
    "Param",
    "check_values",
    "missing",
    "shown",
]

MAX_COUNT = 2**31 - 1
"""Largest cut-off, rank, document count or multiple of one (``P@k``, ``NR=``, ``ND=``...)."""
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
"""Grades (qrels, ``rel=``, ``max_grade=``, the grades of a gains map) are 64-bit integers."""
MAX_WEIGHT = 1e100
"""Largest magnitude of a gain or weight (gains, F's beta, utility's worths): sums and products
over billions of documents stay finite."""
MAX_EXACT = 2**53
"""Largest collection size parameter (Utility's ``N``): integers up to it are exact doubles."""


class _Required:
    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: Any = _Required()

KINDS = ("int", "float", "str", "bool", "gains")


def _num(v: float | int) -> str:
    """A bound as text: integers (and integral floats below 1e16) without a decimal point."""
    if isinstance(v, float) and v.is_integer() and abs(v) < 1e16:
        return str(int(v))
    return str(v) if isinstance(v, int) else repr(float(v))


@dataclass(frozen=True)
class Param:
    """One parameter of a measure and its valid values.

    ``at_least``/``at_most`` are inclusive bounds, ``above``/``below`` exclusive ones (for
    ``gains`` they bound each gain); ``choices`` lists the values of a ``str`` parameter;
    ``words`` are strings an ``int`` parameter also takes (``RelRank(n=last)``).
    """

    name: str
    kind: str
    default: Any = REQUIRED
    doc: str = ""
    choices: tuple[Any, ...] = ()
    at_least: int | float | None = None
    at_most: int | float | None = None
    above: int | float | None = None
    below: int | float | None = None
    words: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"parameter {self.name}: kind must be one of {KINDS}")

    @property
    def required(self) -> bool:
        return self.default is REQUIRED

    # ------------------------------------------------------------------ the declared range
    def bounds_text(self) -> str:
        """The numeric range: ``[1, 2147483647]``, ``(0, 1)``, ``> 1``; ``""`` if none."""
        lo = (
            ("[", self.at_least)
            if self.at_least is not None
            else (("(", self.above) if self.above is not None else None)
        )
        hi = (
            (self.at_most, "]")
            if self.at_most is not None
            else ((self.below, ")") if self.below is not None else None)
        )
        if lo and hi:
            return f"{lo[0]}{_num(lo[1])}, {_num(hi[0])}{hi[1]}"
        if lo:
            return (">= " if lo[0] == "[" else "> ") + _num(lo[1])
        if hi:
            return ("<= " if hi[1] == "]" else "< ") + _num(hi[0])
        return ""

    def wanted(self) -> str:
        """The numeric range as said after "must be": ``in [1, 2147483647]``, ``> 1``."""
        b = self.bounds_text()
        text = f"in {b}" if b.startswith(("[", "(")) else b
        return text + "".join(f" or {w}" for w in self.words)

    def range_text(self) -> str:
        """The valid values in words (``integer in [1, 2147483647]``, ``number in (0, 1)``), as
        ``cranfield measures`` shows them and messages say them."""
        b = self.wanted()
        if self.kind == "int":
            return f"integer {b}".rstrip()
        if self.kind == "float":
            return f"number {b}".rstrip()
        if self.kind == "gains":
            return f"{{grade:gain}} map, grades in [{INT64_MIN}, {INT64_MAX}], gains {b}".rstrip()
        if self.kind == "bool":
            return "true or false"
        if self.choices:
            return "one of " + ", ".join(map(str, self.choices))
        return "text"

    def in_bounds(self, v: float | int) -> bool:
        if self.at_least is not None and not v >= self.at_least:
            return False
        if self.at_most is not None and not v <= self.at_most:
            return False
        if self.above is not None and not v > self.above:
            return False
        return not (self.below is not None and not v < self.below)

    # ------------------------------------------------------------------ checking one value
    def convert(self, value: Any, where: str) -> Any:
        """``value`` as this parameter's Python type, or a :class:`MeasureError` that names the
        parameter and its valid values (``where`` says in which measure)."""
        at = f"{where}: parameter {self.name}"
        if self.kind == "gains":
            return self._gains(value, at)
        if self.kind == "bool":
            if isinstance(value, bool | np.bool_):
                return bool(value)
            raise MeasureError(f"{at} must be true or false, got {shown(value)}")
        if self.kind == "str":
            if not isinstance(value, str):
                raise MeasureError(
                    f"{at} must be {_article(self.range_text())}, got {shown(value)}"
                )
            if self.choices and value not in self.choices:
                raise MeasureError(
                    f"{at} must be one of {', '.join(map(str, self.choices))}, got {shown(value)}"
                )
            return value
        if self.kind == "int":
            if isinstance(value, str) and value in self.words:
                return value
            if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
                raise MeasureError(
                    f"{at} must be {_article(self.range_text())}, got {shown(value)}"
                )
            value = int(value)
        else:  # float
            value = _finite(value, at, self.range_text())
        if not self.in_bounds(value):
            raise MeasureError(f"{at} must be {self.wanted()}, got {shown(value)}")
        return value

    def _gains(self, value: Any, at: str) -> dict[int, int | float]:
        if not isinstance(value, Mapping):
            raise MeasureError(f"{at} must be a map like {{0:0,1:1,2:3}}, got {shown(value)}")
        out: dict[int, int | float] = {}
        for k, v in value.items():
            if isinstance(k, bool | np.bool_) or not isinstance(k, int | np.integer):
                raise MeasureError(f"{at}: grade {shown(k)} is not an integer")
            k = int(k)
            if not INT64_MIN <= k <= INT64_MAX:
                raise MeasureError(f"{at}: grade {shown(k)} must be in [{INT64_MIN}, {INT64_MAX}]")
            g = _finite(v, at, "", grade=k, param=self)
            if not self.in_bounds(g):
                raise MeasureError(
                    f"{at}: the gain of grade {k} must be {self.wanted()}, got {shown(v)}"
                )
            out[k] = int(v) if isinstance(v, int | np.integer) else g
        return out


def shown(v: Any) -> str:
    """A value in an error message (long integers shortened)."""
    if isinstance(v, str):
        return repr(v if len(v) <= 60 else v[:50] + "...")
    if isinstance(v, int) and not isinstance(v, bool) and abs(v) >= 10**30:
        if v.bit_length() > 10_000:  # str() refuses more than 4300 digits
            return f"an integer of about {int(v.bit_length() * math.log10(2))} digits"
        text = str(v)
        return f"{text[:12]}...({len(text.lstrip('-'))} digits)"
    if isinstance(v, float | int | np.number):
        return str(v)
    try:
        text = repr(v)
    except ValueError:  # e.g. a container of integers longer than 4300 digits
        text = "<...>"
    if len(text) > 100:
        text = text[:90] + "..."
    return f"{text} ({type(v).__name__})"


def _finite(value: Any, at: str, wanted: str, grade: Any = None, param: Any = None) -> float:
    """A real number (int or float, not bool) as a finite float (``grade``/``param``: the
    message is about the gain of that grade, in ``param``'s range)."""
    if isinstance(value, float) and math.isfinite(value):
        return value  # the common case, without building a message
    if not isinstance(value, bool | np.bool_) and isinstance(
        value, int | float | np.integer | np.floating
    ):
        try:
            f = float(value)
        except OverflowError:  # an integer beyond the doubles
            f = math.inf
        if math.isfinite(f):
            return f
    if param is not None:
        at, wanted = f"{at}: the gain of grade {grade}", f"a number {param.wanted()}"
    raise MeasureError(f"{at} must be {_article(wanted)}, got {shown(value)}")


def _article(text: str) -> str:
    if text.startswith(("a ", "an ", "{", "one ", "true", "text")):
        return text
    return ("an " if text.startswith("integer") else "a ") + text


def check_values(
    d: Any, params: Mapping[str, Any], cutoff: Any, where: str
) -> tuple[tuple[tuple[str, Any], ...], Any]:
    """Check the values of a measure's explicitly given parameters and cut-off (``d`` a registry
    entry) and return them converted: ``(params in declared order, cutoff)``.

    Unknown parameter names, wrong types and values outside the declared ranges are
    :class:`MeasureError`; completeness (required values, "exactly one of" rules) is
    :func:`missing`'s.
    """
    known = {p.name: p for p in d.params}
    for key in params:
        if key not in known:
            names = ", ".join(known) or "none"
            hint = " (the cut-off is the @ part)" if key == "cutoff" else ""
            raise MeasureError(
                f"measure {d.name} has no parameter {shown(key)}{hint} (in {where}); "
                f"its parameters: {names}"
            )
    ordered = tuple(
        (p.name, p.convert(params[p.name], f"measure {where}"))
        for p in d.params
        if p.name in params
    )
    if cutoff is not None:
        if d.cutoff is None:
            raise MeasureError(f"measure {d.name} takes no @ cut-off (in {where})")
        cutoff = d.cutoff.convert(cutoff, f"measure {where}")
    return ordered, cutoff


def missing(d: Any, params: Mapping[str, Any], cutoff: Any, where: str) -> str | None:
    """What a measure with these (checked) values lacks to be computed, or ``None``."""
    if d.cutoff is not None and d.cutoff.required and cutoff is None:
        return f"measure {d.name} needs a cut-off, as in {d.name}@10 (got {where})"
    for p in d.params:
        if p.required and p.name not in params:
            return f"measure {d.name} needs parameter {p.name} (got {where})"
    if d.check is not None:
        problem = d.check(dict(params))
        if problem:
            return f"measure {where}: {problem}"
    return None
