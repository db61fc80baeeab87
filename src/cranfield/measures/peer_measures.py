"""ir_measures' measure objects (``ir_measures.nDCG@10``) as cranfield measures.

A measure object carries its canonical name (``NAME``: ``AP`` for ``MAP``), the parameters
given explicitly (``params``) and its declared ones with their defaults
(``SUPPORTED_PARAMS``).  Its string form cannot be parsed back safely (it leaves out the
values equal to a default, and gains equal to their grade), so the object's parameters are
mapped one by one:

- the ``@`` parameter (``cutoff``; ``recall`` for ``IPrec``) is the cut-off;
- a parameter cranfield's measure of the same name declares keeps its name and value
  (``rel``, ``p``, ``gains``, ``beta``...); ``judged_only=True`` is refused, since cranfield
  drops unjudged documents for a whole evaluation (``judged_only=True``, ``-J``), not per
  measure;
- where ir_measures' default differs from cranfield's (``RBP``'s ``p`` is 0.8 there, 0.9
  here) the ir_measures default is given explicitly, so the value is the one ir_measures
  computes; ``rel`` is never filled in, so ``rel=``/``-l`` applies as to any measure string;
- a few measures are spelled differently (:data:`RULES`): ``NumRet(rel=r)`` is
  ``NumRelRet(rel=r)``, ``SetP(relative=True)`` is ``SetRelP``, ``ERR@k`` is gdeval's
  ``ERR(max_grade=4)@k``, ``SetF(beta=b)`` is ``SetF(beta=sqrt(b))`` (ir_measures hands
  ``beta`` to trec_eval's ``set_F``, whose parameter is beta squared) and ``Accuracy`` is
  ``PairAccuracy`` (cranfield's ``Accuracy@k`` is MTEB's top-k accuracy).

Anything else (a measure cranfield does not have, a parameter it does not know) is one
:class:`~cranfield.errors.MeasureError` that names it; ``docs/peers.md`` lists every name.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from cranfield.errors import MeasureError

if TYPE_CHECKING:  # pragma: no cover
    from cranfield.measures.measure_object import Measure

from cranfield.measures.registry import REGISTRY

__all__ = ["RULES", "from_ir_measures", "from_peer", "is_ir_measures_measure"]

Rule = Callable[[dict[str, Any], str], tuple[str, dict[str, Any]]]


def _num_ret(params: dict[str, Any], shown: str) -> tuple[str, dict[str, Any]]:
    """``NumRet`` counts the retrieved documents; with ``rel`` only the relevant ones."""
    if "rel" in params:
        return "NumRelRet", params
    return "NumRet", params


def _set_p(params: dict[str, Any], shown: str) -> tuple[str, dict[str, Any]]:
    relative = params.pop("relative", False)
    return ("SetRelP" if relative else "SetP"), params


def _err(params: dict[str, Any], shown: str) -> tuple[str, dict[str, Any]]:
    """gdeval.pl (ir_measures' provider of ERR) divides by 2**4: its highest grade is 4."""
    return "ERR", {**params, "max_grade": 4}


def _set_f(params: dict[str, Any], shown: str) -> tuple[str, dict[str, Any]]:
    """pytrec_eval computes ``SetF(beta=b)`` as trec_eval's ``set_F.b``, whose parameter is
    beta squared."""
    if "beta" not in params:
        return "SetF", params
    beta = params["beta"]
    if isinstance(beta, bool) or not isinstance(beta, int | float) or beta < 0:
        raise MeasureError(f"ir_measures' {shown}: beta must be a number >= 0, got {beta!r}")
    return "SetF", {**params, "beta": math.sqrt(beta)}


def _rbp(params: dict[str, Any], shown: str) -> tuple[str, dict[str, Any]]:
    if "rel" in params:
        raise MeasureError(
            f"ir_measures' {shown} counts grades >= rel as relevant (binary gains); cranfield's "
            "RBP takes its gains as a map instead: RBP(p=...,gains={0:0,1:1,2:1,...})"
        )
    if "cutoff" in params:
        raise MeasureError(
            f"ir_measures' {shown} cuts the ranking at its depth; cranfield's RBP has no cut-off "
            "(RBP is a sum over the whole ranking; cut the run with depth= / -M instead)"
        )
    return "RBP", params


def _accuracy(params: dict[str, Any], shown: str) -> tuple[str, dict[str, Any]]:
    """ir_measures' ``Accuracy`` is cranfield's ``PairAccuracy`` (``Accuracy@k`` is MTEB's
    top-k accuracy here); ir_measures reads an unjudged document as grade 0, which differs
    from cranfield's non-relevant only at ``rel <= 0``: refused there."""
    rel = params.get("rel", 1)
    if not isinstance(rel, int) or isinstance(rel, bool) or rel < 1:
        raise MeasureError(
            f"ir_measures' {shown}: rel must be an integer >= 1 (at rel <= 0 ir_measures counts "
            "unjudged documents as relevant); cranfield's form is PairAccuracy(rel=r)@k"
        )
    return "PairAccuracy", params


RULES: dict[str, Rule] = {
    "Accuracy": _accuracy,  # PairAccuracy: Accuracy@k is MTEB's top-k accuracy
    "NumRet": _num_ret,
    "SetP": _set_p,
    "ERR": _err,
    "SetF": _set_f,
    "RBP": _rbp,
}
"""ir_measures measures whose cranfield form is not their name with the same parameters
(keyed by ir_measures' ``NAME``)."""


def is_ir_measures_measure(obj: Any) -> bool:
    return type(obj).__module__.startswith("ir_measures") and hasattr(obj, "SUPPORTED_PARAMS")


def _not_provided(info: Any) -> bool:
    """Whether a declared ir_measures parameter has no default (ir_measures' NOT_PROVIDED
    sentinel: an ``object()``)."""
    return type(info.default) is object


def from_ir_measures(obj: Any) -> Measure:
    """The cranfield :class:`~cranfield.measures.Measure` computing ir_measures' measure
    ``obj`` (see the module docstring); a :class:`MeasureError` when there is none."""
    from cranfield.measures.measure_object import Measure

    shown = _shown(obj)
    name = str(getattr(obj, "NAME", "") or "")
    raw, declared_raw = getattr(obj, "params", {}), getattr(obj, "SUPPORTED_PARAMS", {})
    if not isinstance(raw, Mapping) or not isinstance(declared_raw, Mapping):
        raise MeasureError(f"{shown} is not an ir_measures measure (its params are no mapping)")
    params, declared = dict(raw), dict(declared_raw)
    at = str(getattr(obj, "AT_PARAM", "cutoff"))
    if at in params and at != "cutoff":
        params["cutoff"] = params.pop(at)
    if params.pop("judged_only", False):
        raise MeasureError(
            f"ir_measures' {shown}: judged_only=True drops unjudged documents for one measure; "
            "cranfield does it for a whole evaluation: evaluate(..., judged_only=True) or -J"
        )
    rule = RULES.get(name)
    if rule is not None:
        name, params = rule(params, shown)
    d = REGISTRY.get(name)
    if d is None:
        raise MeasureError(
            f"ir_measures' {shown} has no cranfield equivalent (see 'cranfield docs peers' for "
            "the names cranfield has)"
        )
    cutoff = params.pop("cutoff", None)
    for key in params:
        if d.param(key) is None or key == "cutoff":
            raise MeasureError(
                f"ir_measures' {shown}: cranfield's {d.name} has no parameter {key!r} "
                f"(its form: {d.signature()})"
            )
    for key, info in declared.items():  # ir_measures' defaults where cranfield's differ
        if key in params or key in (at, "cutoff", "rel", "judged_only") or _not_provided(info):
            continue
        p = d.param(key)
        if p is not None and p.default != info.default:
            params[key] = info.default
    try:
        return Measure(d.name, params, cutoff)
    except MeasureError as exc:
        raise MeasureError(f"ir_measures' {shown}: {exc}") from None


def from_peer(obj: Any) -> Measure | None:
    """``obj`` as a cranfield measure if it is another tool's measure object (ir_measures'),
    else ``None``."""
    if is_ir_measures_measure(obj):
        return from_ir_measures(obj)
    return None


def _shown(obj: Any) -> str:
    try:
        text = repr(obj)
    except Exception:  # a broken parameter's repr
        text = f"<{type(obj).__name__}>"
    return text if len(text) <= 80 else text[:70] + "..."
