"""The value rules of tables for Python values (JSON, dicts, object columns, the peers'
records), one value at a time: ids (``str``, or ``int`` as decimal text, then the id rule of
:mod:`cranfield.io.ids`), grades (int64, from any number of integral value), scores (finite
doubles from any real number), ranks.  They accept what the Arrow column rules of
:mod:`cranfield.io.columns` accept; a refused value is one error naming its place.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from decimal import Decimal
from numbers import Integral, Rational, Real
from typing import TYPE_CHECKING, Any

import numpy as np

from cranfield.io import number_text
from cranfield.io.ids import bad_id_in_list, id_message
from cranfield.io.number_text import JsonNumber

if TYPE_CHECKING:  # pragma: no cover
    from cranfield.io.columns import Role, Where

__all__ = ["py_grades", "py_ids", "py_ranks", "py_scores", "show"]


class _Refused(Exception):
    """A value a rule refuses; the message is completed with the place by the caller."""


def show(v: Any, limit: int = 40) -> str:
    """``repr(v)`` for messages, shortened (and safe for ints beyond Python's digit limit)."""
    try:
        text = repr(v)
    except Exception:  # a hostile __repr__, or an int of 5000 digits
        if isinstance(v, int):
            return f"<an integer of {v.bit_length()} bits>"
        return f"<a {type(v).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _is_missing(v: Any) -> bool:
    """``None``, NaN (any float type), ``pd.NA`` and ``pd.NaT``."""
    if v is None:
        return True
    if isinstance(v, float | np.floating):
        return bool(v != v)
    return type(v).__name__ in ("NAType", "NaTType")


def _id_text(v: Any, role: Role) -> str:
    what = role.what[:-1]
    if isinstance(v, str):
        return v
    if isinstance(v, JsonNumber):  # a JSON integer is its decimal text, a JSON float refused
        v = int(v.text) if v.is_integer else float(v.text)
    if isinstance(v, Integral) and not isinstance(v, bool | np.bool_):
        try:
            return str(int(v))
        except ValueError:  # beyond sys.get_int_max_str_digits()
            raise _Refused(f"{what} {show(v)} is an integer too long to write as text") from None
    if _is_missing(v):
        raise _Refused(f"missing {what}")
    if isinstance(v, bytes | bytearray | memoryview):
        raise _Refused(f"{what} {show(v)} is bytes (decode ids to strings first)")
    hint = " (ids must be strings or integers)"
    if isinstance(v, float | np.floating) and np.isfinite(v) and float(v).is_integer():
        hint = f" (ids must be strings or integers: write {int(v)}, not {show(v)})"
    raise _Refused(f"{what} {show(v)} is {_py_kind(v)}{hint}")


def py_ids(values: Sequence[Any], role: Role, where: Where) -> list[str]:
    """Element-wise :func:`ids` for Python values: ``str`` as is, ``int`` as decimal text,
    each then checked by the id rule (:mod:`cranfield.io.ids`)."""
    out: list[str] = []
    for row, v in enumerate(values):
        if type(v) is str:
            out.append(v)
            continue
        try:
            out.append(_id_text(v, role))
        except _Refused as exc:
            raise where.error(row, str(exc)) from None
    bad = bad_id_in_list(out)
    if bad is not None:
        raise where.error(bad, id_message(role.what[:-1], out[bad]))
    return out


_INT64 = 2**63


def _grade(v: Any) -> int:
    """An integer grade in the 64-bit range from any Python or numpy number of integral value
    (booleans, ``2.0``, ``Fraction(4, 2)``, ``Decimal("2")``), else :class:`_Refused`."""
    if isinstance(v, bool | np.bool_):
        return int(v)
    if isinstance(v, JsonNumber):  # a number written as text: the text rule
        try:
            return number_text.grade(v.token)
        except number_text.NumberError as exc:
            raise _Refused(str(exc)) from None
    if isinstance(v, Integral):
        n = int(v)
    elif isinstance(v, float | np.floating):
        if not (np.isfinite(v) and v == np.floor(v)):
            raise _Refused(f"grade {show(v)} is not an integer")
        n = int(v)
    elif isinstance(v, Rational):
        if v.denominator != 1:
            raise _Refused(f"grade {show(v)} is not an integer")
        n = int(v.numerator)
    elif isinstance(v, Decimal):
        if not v.is_finite() or v != v.to_integral_value():
            raise _Refused(f"grade {show(v)} is not an integer")
        if v.adjusted() > 19:  # int() of Decimal("1e999999999") would take minutes
            raise _Refused(f"grade {show(v)} is out of range (grades are 64-bit integers)")
        n = int(v)
    elif _is_missing(v):
        raise _Refused("missing relevance grade")
    else:
        raise _Refused(f"grade {show(v)} is not an integer ({_py_kind(v)})")
    if not -_INT64 <= n < _INT64:
        raise _Refused(f"grade {show(v)} is out of range (grades are 64-bit integers)")
    return n


def py_grades(values: Sequence[Any], where: Where) -> list[int]:
    """int64 grades: integers, booleans and numbers of integral value (``2.0``, not ``2.5``)."""
    out: list[int] = []
    for row, v in enumerate(values):
        if type(v) is int and -_INT64 <= v < _INT64:
            out.append(v)
            continue
        try:
            out.append(_grade(v))
        except _Refused as exc:
            raise where.error(row, str(exc)) from None
    return out


def _score(v: Any) -> float:
    """A finite float64 score from any real number (not a boolean), else :class:`_Refused`."""
    if isinstance(v, bool | np.bool_):
        raise _Refused(f"score {show(v)} is not a number (a boolean)")
    if isinstance(v, JsonNumber):  # a number written as text: the text rule
        try:
            f = number_text.score(v.token)
        except number_text.NumberError as exc:
            raise _Refused(str(exc)) from None
    elif isinstance(v, Real | Decimal):
        try:
            f = float(v)
        except OverflowError:
            f = math.inf
        except (ValueError, ArithmeticError):  # Decimal("sNaN")
            f = math.nan
    elif _is_missing(v):
        raise _Refused("missing score")
    else:
        raise _Refused(f"score {show(v)} is not a number ({_py_kind(v)})")
    if math.isfinite(f):
        return f
    if f != f:
        raise _Refused("score is NaN (scores must be finite)")
    infinite = (
        v.is_infinite()
        if isinstance(v, Decimal)
        else bool(np.isinf(v))
        if isinstance(v, float | np.floating)
        else isinstance(v, JsonNumber)  # text: infinite as TREC text's 1e999 or 10**400
    )
    if infinite:
        raise _Refused("score is infinite (scores must be finite)")
    raise _Refused(
        f"score {show(v)} is too large for a 64-bit float (the largest is about 1.8e308)"
    )


def py_scores(values: Sequence[Any], where: Where) -> list[float]:
    """float64 scores: finite real numbers (``int``, ``float``, ``Fraction``, ``Decimal``,
    numpy numbers) that a double can hold; booleans and strings are refused."""
    out: list[float] = []
    for row, v in enumerate(values):
        if type(v) is float and math.isfinite(v):
            out.append(v)
            continue
        try:
            out.append(_score(v))
        except _Refused as exc:
            raise where.error(row, str(exc)) from None
    return out


def py_ranks(values: Sequence[Any], where: Where) -> tuple[list[int] | None, str | None]:
    out: list[int] = []
    for row, v in enumerate(values):
        if isinstance(v, JsonNumber):  # a number written as text: the text rule
            why = number_text.rank_problem(v.token)
            if why is not None:
                return None, f"{where.label(row)}: {why}"
            out.append(int(v.text))
            continue
        try:
            if isinstance(v, bool | np.bool_):
                raise _Refused
            out.append(_grade(v))
        except _Refused:
            return None, f"{where.label(row)}: rank {show(v)} is not an integer"
    return out, None


def _py_kind(v: Any) -> str:
    if isinstance(v, bool | np.bool_):
        return "a boolean"
    if isinstance(v, float | np.floating):
        return "a floating-point number"
    if isinstance(v, complex | np.complexfloating):
        return "a complex number"
    if isinstance(v, str):
        return "a string"
    if isinstance(v, bytes | bytearray):
        return "bytes"
    if isinstance(v, JsonNumber):
        return "a number"
    return f"a {type(v).__name__}"
