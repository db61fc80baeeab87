"""trec_eval's printed measure names as cranfield measures: ``P_10`` is ``P@10``.

The names come from the registry's declarations (``trec_eval=TrecEval(...)``), never from a
list of their own: a declaration names trec_eval's measure (``P``), its parameter syntax and
the adapter that computes it (``compute=``), and that adapter says how a printed name carries
the parameter:

============================================  ===========================  ===================
adapter (``TrecEval.compute``)                printed name                 cranfield measure
============================================  ===========================  ===================
``single``, ``single_norel``, ``gm``,         the name (``map``,           the measure (``AP``)
``ones``, ``gained``, ``gained_rel``,         ``gm_map``, ``ndcg``,
``eleven``                                    ``11pt_avg``)
``per_cutoff``, ``per_cutoff_norel``,         ``NAME_k`` (``P_10``,        ``M@k``
``unj``                                       ``ndcg_cut_10``, ``unj_5``)
``iprec``                                     ``iprec_at_recall_x``        ``IPrec@x``
                                              (``iprec_at_recall_0.10``)
``rprec_mult``                                ``Rprec_mult_x``             ``Rprec(mult=x)``
``set_f``, ``utility``, ``rbp``,              the name, with trec_eval's   (``set_F`` is
``rbp_resid``                                 default parameters           ``SetF(beta=1.0)``)
============================================  ===========================  ===================

``rel`` is never set, so ``-l`` (``rel=``) applies as it does in trec_eval.  Only names that
are not cranfield names are read this way (``Rprec`` and ``map`` are both, and mean the same
measure: a test checks that every such name agrees).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from cranfield.errors import MeasureError

if TYPE_CHECKING:  # pragma: no cover
    from cranfield.measures.measure_object import Measure

from cranfield.measures.registry import REGISTRY, MeasureDef, TrecEval

__all__ = ["dotted_hint", "from_trec_eval", "printed_examples"]

_INTEGER = re.compile(r"[1-9][0-9]*", re.ASCII)
_DECIMAL = re.compile(r"(?:[0-9]+\.?[0-9]*|\.[0-9]+)", re.ASCII)

_PLAIN = {"single", "single_norel", "gm", "ones", "gained", "gained_rel", "eleven"}
_PER_CUTOFF = {"per_cutoff", "per_cutoff_norel", "unj"}
_DEFAULTS = {"set_f", "utility", "rbp", "rbp_resid"}


def _trec_defaults(te: TrecEval) -> dict[str, Any]:
    """trec_eval's parameters of a measure given without any, as cranfield's parameters."""
    if te.compute == "set_f":
        return {"beta": math.sqrt(te.default[0])}  # set_F's parameter is beta squared
    if te.compute == "utility":
        return dict(zip(("a", "b", "c", "d"), te.default, strict=True))
    return {"p": 0.9}  # rbp, rbp_resid: trec_eval's default persistence (m_rbp.c)


def _entries() -> Iterator[tuple[MeasureDef, TrecEval]]:
    for d in REGISTRY.values():
        for te in d.trec_eval:
            yield d, te


def _shown(text: str) -> str:
    return repr(text if len(text) <= 60 else text[:40] + f"...({len(text)} characters)")


def _measure(d: MeasureDef, params: dict[str, Any], cutoff: Any, text: str) -> Measure:
    from cranfield.measures.measure_object import Measure

    try:
        return Measure(d.name, params, cutoff)
    except MeasureError as exc:
        why = str(exc) if len(str(exc)) <= 300 else "a parameter is out of its range"
        raise MeasureError(
            f"trec_eval measure {_shown(text)} (cranfield's {d.name}): {why}"
        ) from None


def _read(d: MeasureDef, te: TrecEval, text: str) -> Measure | None:
    """The measure ``text`` names if it is a printed name of ``te``, else ``None``."""
    if te.compute in _PLAIN:
        return _measure(d, {}, None, text) if text == te.name else None
    if te.compute in _DEFAULTS:
        return _measure(d, _trec_defaults(te), None, text) if text == te.name else None
    head, sep, tail = text.rpartition("_")
    if not sep or head != te.name:
        return None
    if te.compute in _PER_CUTOFF:
        if not _INTEGER.fullmatch(tail):
            return None
        if len(tail) > 30:  # beyond every cut-off (and int() refuses 4300 digits)
            raise MeasureError(
                f"trec_eval measure {_shown(text)} (cranfield's {d.name}): the cut-off "
                f"{tail[:12]}... ({len(tail)} digits) is beyond the largest, 2147483647"
            )
        return _measure(d, {}, int(tail), text)
    if not _DECIMAL.fullmatch(tail):
        return None
    if te.compute == "iprec":
        return _measure(d, {}, float(tail), text)
    if te.compute == "rprec_mult":
        return _measure(d, {"mult": float(tail)}, None, text)
    return None


def from_trec_eval(text: str) -> Measure | None:
    """The :class:`~cranfield.measures.Measure` that trec_eval prints as ``text`` (``P_10``,
    ``ndcg_cut_10``, ``iprec_at_recall_0.10``, ``recip_rank``), or ``None`` when ``text`` is
    no trec_eval measure name.  Exact case first, then a unique case-insensitive match."""
    text = text.strip()
    for same in (str.__eq__, _same_lower):
        found = {
            str(m): m
            for d, te in _entries()
            for name in _candidates(te, text, same)
            if (m := _read(d, te, name)) is not None
        }
        if len(found) == 1:
            return next(iter(found.values()))
    return None


def _same_lower(a: str, b: str) -> bool:
    return a.lower() == b.lower()


def _candidates(te: TrecEval, text: str, same: Callable[[str, str], bool]) -> list[str]:
    """``text`` with its trec_eval name part spelled as ``te`` spells it, if it matches."""
    if te.compute in _PLAIN or te.compute in _DEFAULTS:
        return [te.name] if same(text, te.name) else []
    head, sep, tail = text.rpartition("_")
    return [f"{te.name}_{tail}"] if sep and same(head, te.name) else []


def printed_examples() -> list[str]:
    """trec_eval printed names for suggestions: every plain name, and each cut-off family
    with its default cut-offs (``P_5``, ``P_10``... ``iprec_at_recall_0.10``...)."""
    out = []
    for _d, te in _entries():
        if te.compute in _PLAIN or te.compute in _DEFAULTS:
            out.append(te.name)
        elif te.compute in _PER_CUTOFF:
            out += [f"{te.name}_{k}" for k in te.default]
        else:
            out += [f"{te.name}_{x:3.2f}" for x in te.default]  # trec_eval's %3.2f
    return out


def dotted_hint(text: str) -> str:
    """A hint for trec_eval's ``-m`` parameter syntax (``P.5,10``, ``ndcg_cut.10``): the
    printed names are the measures here."""
    name, dot, params = text.strip().partition(".")
    if not dot or not params:
        return ""
    for _d, te in _entries():
        if te.name == name and te.compute in _PER_CUTOFF | {"iprec", "rprec_mult"}:
            values = [v.strip() for v in params.split(",") if v.strip()]
            shown = " ".join(f"{name}_{v}" for v in values[:3])
            return (
                f" (trec_eval's '-m {name}.{params}' is written as its printed names here: "
                f"-m '{shown}')"
            )
    return ""
