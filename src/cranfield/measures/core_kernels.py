"""The measures the compiled core computes per query in small in-memory evaluations.

A declaration names its kernel (``core_kernel=`` of :func:`~cranfield.measures.registry.measure`);
this module turns the measure's resolved parameters into the core's call ``(kernel, cutoff,
rel)`` (``cutoff`` -1: none), or ``None`` where the kernel does not cover them (nDCG with
custom gains, another discount): such a measure is computed by its declaration's function.
The kernels themselves are ``rust/src/dicts.rs`` (``Kernel``), each the floating-point sequence
of its declaration's function; tests/measures/test_core_kernels.py checks every declaration
that names one against its function on generated rankings.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cranfield.measures.params import INT64_MAX, INT64_MIN
from cranfield.measures.registry import MeasureDef

__all__ = ["KERNELS", "kernel_call"]

Call = tuple[str, int, int]


def _cutoff(params: dict[str, Any]) -> int:
    k = params.get("cutoff")
    return -1 if k is None else min(int(k), INT64_MAX)


def _rel(params: dict[str, Any]) -> int | None:
    rel = params["rel"]
    return int(rel) if INT64_MIN <= rel <= INT64_MAX else None


def _ap(params: dict[str, Any]) -> Call | None:
    rel = _rel(params)
    return None if rel is None else ("ap", _cutoff(params), rel)


def _ndcg(params: dict[str, Any]) -> Call | None:
    plain = (
        not params.get("gains")
        and params.get("convention") == "trec"
        and params.get("base") == 2.0
        and params.get("dcg", "log2") == "log2"
    )
    return ("ndcg", _cutoff(params), 1) if plain else None


def _p(params: dict[str, Any]) -> Call | None:
    rel = _rel(params)
    return None if rel is None else ("p", _cutoff(params), rel)


KERNELS: dict[str, Callable[[dict[str, Any]], Call | None]] = {
    "ap": _ap,
    "ndcg": _ndcg,
    "p": _p,
}
"""Each kernel of the core: its call for a measure's resolved parameters."""


def kernel_call(definition: MeasureDef, params: dict[str, Any]) -> Call | None:
    """The core's call computing ``definition`` with ``params`` (resolved), or ``None``."""
    name = definition.core_kernel
    if name is None:
        return None
    return KERNELS[name](params)
