"""The measures the compiled core computes per query in small in-memory evaluations.

A declaration names its kernel (``core_kernel=`` of
:func:`~cranfield.measures.registry.measure`); this module turns the measure's resolved
parameters into the core's call ``(kernel, cutoff, rel, x, extra)`` (``cutoff`` -1: none;
``x`` Rprec's ``mult``, IPrec's recall level, SetF's ``beta``; ``extra`` a tuple of floats,
Utility's a, b, c, d and N), or ``None`` where the kernel does not cover them (nDCG, G,
nDCGRel or RnDCG with custom gains, another discount): such a measure is computed by its
declaration's function.
The kernels themselves are ``rust/src/dicts.rs`` (``Kernel``), each the floating-point sequence
of its declaration's function; tests/measures/test_core_kernels.py checks every declaration
that names one against its function on generated rankings.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from cranfield.measures.declaration import MeasureDef
from cranfield.measures.params import INT64_MAX, INT64_MIN, MAX_EXACT

__all__ = ["KERNELS", "by_kernels", "kernel_call", "kernel_columns", "measure_call"]

Call = tuple[str, int, int, float, tuple[float, ...]]


def _cutoff(params: dict[str, Any]) -> int:
    k = params.get("cutoff")
    return -1 if k is None else min(int(k), INT64_MAX)


def _ranked(name: str) -> Callable[[dict[str, Any]], Call | None]:
    """The call of a kernel of ``cutoff`` and ``rel`` (a ``rel`` beyond int64: none)."""

    def call(params: dict[str, Any]) -> Call | None:
        rel = params.get("rel", 1)
        if not INT64_MIN <= rel <= INT64_MAX:
            return None
        return (name, _cutoff(params), int(rel), 0.0, ())

    return call


def _ndcg(params: dict[str, Any]) -> Call | None:
    plain = (
        not params.get("gains")
        and params.get("convention") == "trec"
        and params.get("base") == 2.0
        and params.get("dcg", "log2") == "log2"
    )
    return ("ndcg", _cutoff(params), 1, 0.0, ()) if plain else None


def _rprec(params: dict[str, Any]) -> Call | None:
    call = _ranked("rprec")(params)
    return None if call is None else (*call[:3], float(params.get("mult", 1.0)), ())


def _iprec(params: dict[str, Any]) -> Call | None:
    """IPrec@r: the recall level as ``x``; the kernel only for r in [0, 1] (trec_eval's own
    parameters may lie outside, which its declaration's function computes)."""
    call = _ranked("iprec")(params)
    r = float(params["cutoff"])
    if call is None or not 0.0 <= r <= 1.0:
        return None
    return (_rounded("iprec", params), -1, call[2], r, ())


def _iprec_avg(params: dict[str, Any]) -> Call | None:
    call = _ranked("iprec_avg")(params)
    return None if call is None else (_rounded("iprec_avg", params), -1, call[2], 0.0, ())


def _set_f(params: dict[str, Any]) -> Call | None:
    """SetF(beta): ``beta`` as ``x`` (the kernel squares it, as the declaration does)."""
    call = _ranked("set_f")(params)
    return None if call is None else (*call[:3], float(params["beta"]), ())


def _utility(params: dict[str, Any]) -> Call | None:
    """Utility: a, b, c, d and N as ``extra``; the kernel only for float weights and an N the
    doubles hold exactly (an unchecked measure's other values: its declaration's function)."""
    call = _ranked("utility")(params)
    weights = [params[p] for p in ("a", "b", "c", "d")]
    n = params["N"]
    if call is None or any(type(w) is not float for w in weights) or type(n) is not int:
        return None
    if not 0 <= n <= MAX_EXACT:
        return None
    return (*call[:4], (*weights, float(n)))


def _default_gains(name: str) -> Callable[[dict[str, Any]], Call | None]:
    """G, nDCGRel, RnDCG: the kernel only for trec_eval's default gains (the grade)."""
    ranked = _ranked(name)

    def call(params: dict[str, Any]) -> Call | None:
        return None if params.get("gains") else ranked(params)

    return call


def _rounded(name: str, params: dict[str, Any]) -> str:
    """The kernel of ``rounding=trec9`` (trec_eval 9.x, pytrec_eval) is ``name_trec9``."""
    return f"{name}_trec9" if params.get("rounding", "trec10") == "trec9" else name


KERNELS: dict[str, Callable[[dict[str, Any]], Call | None]] = {
    "ap": _ranked("ap"),
    "ndcg": _ndcg,
    "p": _ranked("p"),
    "rr": _ranked("rr"),
    "recall": _ranked("recall"),
    "rprec": _rprec,
    "success": _ranked("success"),
    "num_q": _ranked("num_q"),
    "num_ret": _ranked("num_ret"),
    "num_rel": _ranked("num_rel"),
    "num_rel_ret": _ranked("num_rel_ret"),
    "bpref": _ranked("bpref"),
    "iprec": _iprec,
    "iprec_avg": _iprec_avg,
    "set_p": _ranked("set_p"),
    "set_r": _ranked("set_r"),
    "set_rel_p": _ranked("set_rel_p"),
    "set_ap": _ranked("set_ap"),
    "set_f": _set_f,
    "rel_p": _ranked("rel_p"),
    "num_nonrel_judged_ret": _ranked("num_nonrel_judged_ret"),
    "bin_g": _ranked("bin_g"),
    "infap": _ranked("infap"),
    "utility": _utility,
    "g": _default_gains("g"),
    "ndcg_rel": _default_gains("ndcg_rel"),
    "rndcg": _default_gains("rndcg"),
}
"""Each kernel of the core: its call for a measure's resolved parameters."""


def kernel_call(definition: MeasureDef, params: dict[str, Any]) -> Call | None:
    """The core's call computing ``definition`` with ``params`` (resolved), or ``None``."""
    name = definition.core_kernel
    if name is None:
        return None
    return KERNELS[name](params)


def measure_call(m: Any, defaults: dict[str, Any] | None = None) -> Call | None:
    """The core's call computing the measure ``m`` (parameters resolved with ``defaults``),
    or ``None``; memoised on the measure object for each ``defaults``."""
    memo: dict[Any, Call | None] | None = m.__dict__.get("_kernel_calls")
    if memo is None:
        memo = {}
        object.__setattr__(m, "_kernel_calls", memo)
    key = None if not defaults else tuple(sorted(defaults.items(), key=lambda kv: kv[0]))
    try:
        return memo[key]
    except KeyError:
        pass
    except TypeError:  # a default that is not hashable: not memoised
        return kernel_call(m.definition, m.resolve(defaults))
    call = memo[key] = kernel_call(m.definition, m.resolve(defaults))
    return call


def linear(jr: Any) -> bool:
    """Whether the kernels can read the judged rankings ``jr``: a linear ranking (the
    ``trec`` policy, no depth cut inside a tie group) and nothing but grades (no side input
    such as a collection size, known documents, targets, preferences or subtopics)."""
    return (
        jr.ties == "trec"
        and not jr.cut
        and jr.collection_size is None
        and jr.known is None
        and jr.target is None
        and jr.prefs is None
        and jr.judgment_groups is None
        and jr.subtopics is None
    )


def kernel_columns(calls: list[Call], jr: Any) -> tuple[np.ndarray, np.ndarray] | None:
    """The values of the core's ``calls`` on each query of the judged rankings ``jr`` (one
    row per call) and how many queries each undefined case of each holds on (one row per
    call, ``_core.UNDEFINED_CASES`` columns), in one pass over the rows; ``None`` for a call
    the core does not know.  ``jr`` must be :func:`linear`."""
    from cranfield import _core

    in_run = np.asarray(jr.in_run, dtype=bool)
    # the kernels' n: a query missing from the run counts as trec_eval's one-document dummy
    # ranking (-c), unless depth 0 or judged_only would drop that document too (as
    # cranfield.measures.interpolated's, and the dict evaluations')
    dummy = 0 if jr.judged_only or jr.depth == 0 else 1
    num_ret = np.where(in_run, np.asarray(jr.num_ret, dtype=np.int64), dummy)
    got = _core.kernel_values(
        calls,
        np.asarray(jr.offsets, dtype=np.int64),
        np.asarray(jr.grades, dtype=np.int64),
        np.asarray(jr.qrels_offsets, dtype=np.int64),
        np.asarray(jr.qrels_grades, dtype=np.int64),
        num_ret.astype(np.int64, copy=False),
        in_run,
    )
    if got is None:
        return None
    values, undefined = got
    return values.reshape(len(calls), jr.num_queries), undefined.reshape(len(calls), -1)


def by_kernels(
    jr: Any, measures: list[Any], defaults: dict[str, Any] | None = None
) -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """The values and undefined-case counts (:func:`kernel_columns`) of the measures, by
    position in ``measures``, that the core's kernels compute on ``jr`` (parameters resolved
    with ``defaults``), all in one pass over its rows; none when ``jr`` is not
    :func:`linear`.  The others are left to their declarations' functions."""
    if not measures or not linear(jr):
        return {}
    calls = [measure_call(m, defaults) for m in measures]
    kernel = [j for j, c in enumerate(calls) if c is not None]
    columns = kernel_columns([c for c in calls if c is not None], jr) if kernel else None
    if columns is None:
        return {}
    return {j: (columns[0][i], columns[1][i]) for i, j in enumerate(kernel)}


def column_of(calls: list[Call], call: Call) -> int:
    """The index of ``call`` in the core's list of kernel calls ``calls``, appended first if
    it is not there: each kernel computed once, whichever measures ask for it (the plans of
    :mod:`cranfield.results.core_dicts` and :mod:`cranfield.compat.pytrec_eval_fast`)."""
    if call not in calls:
        calls.append(call)
    return calls.index(call)
