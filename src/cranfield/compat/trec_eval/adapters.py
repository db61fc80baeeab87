"""How a trec_eval measure is computed from cranfield's: an adapter per parameter syntax
(:data:`ADAPTERS`, named by a declaration's ``TrecEval.compute``) that computes a registry
:class:`~cranfield.measures.Measure` on the judged rankings (``P_10`` is ``P(rel=L)@10``), or
the same family's function for the few parameterisations only trec_eval offers (custom
11-point lists, ``set_F`` weights that are not squares); :class:`Context` holds the rankings
and the values computed once for every printed name.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cranfield.judging.rankings import JudgedRankings
from cranfield.measures import Measure
from cranfield.measures.core_kernels import by_kernels
from cranfield.measures.interpolated import ELEVEN_POINTS, eleven_point_average
from cranfield.measures.rbp import rbp_residual
from cranfield.measures.retrieved_set import set_f_weighted

__all__ = ["ADAPTERS", "GM_FLOOR", "SHOWN", "Context", "cleared_on_dummy"]

GM_FLOOR = 1e-5
"""trec_eval's floor of a value in a geometric mean (``MIN_GEO_MEAN``)."""


@dataclass
class Context:
    """What a measure needs besides its parameters."""

    jr: JudgedRankings
    level: int
    num_docs: int
    complete: bool
    rounding: str = "trec10"
    """How a recall level becomes a number of relevant documents (``IPrec``'s ``rounding``:
    trec_eval 10.0's, or ``trec9`` for pytrec_eval's trec_eval 9.0.8)."""
    cache: dict = field(default_factory=dict)
    asked: list[Measure] | None = None
    """When a list: the measures computed, appended in the order asked (the measures a batch
    of rankings needs, computed together on the next batches)."""

    def value(self, m: Measure) -> np.ndarray:
        return self.values([m])[0]

    def values(self, ms: list[Measure]) -> list[np.ndarray]:
        """The values of each measure of ``ms``, those not computed yet computed together
        (one pass of the core over the rows for all that have a kernel)."""
        keys = [_cache_key(m) for m in ms]
        todo = {k: m for k, m in zip(keys, ms, strict=True) if k not in self.cache}
        if todo:
            computed = _computed(list(todo.values()), self.jr)
            self.cache.update(zip(todo, computed, strict=True))
            if self.asked is not None:
                self.asked.extend(todo.values())
        return [self.cache[k] for k in keys]

    def floored_log(self, m: Measure) -> np.ndarray:
        """``ln(max(v, 1e-5))`` of each query's value: what trec_eval stores per query for a
        geometric mean (``m_gm_map.c``, ``m_gm_bpref.c``: ``MIN_GEO_MEAN``)."""
        return np.array([math.log(max(x, GM_FLOOR)) for x in self.value(m).tolist()])


def _computed(ms: list[Measure], jr: JudgedRankings) -> list[np.ndarray]:
    """The value of each measure of ``ms`` on each query of ``jr``: by the core's kernels for
    those that have one (:func:`~cranfield.measures.core_kernels.by_kernels`: the
    floating-point operations of the declaration's function, bit for bit, in one pass over
    the rows instead of a few numpy passes per measure), by the declaration's function for
    the others."""
    got = by_kernels(jr, ms)
    return [got[i][0] if i in got else m.compute(jr) for i, m in enumerate(ms)]


def _cache_key(m: Measure) -> str:
    """The key of a measure's values in :attr:`Context.cache` (its string, with the exact
    values of tuple parameters), memoised on the measure object (made once per request by
    the cached :func:`_m`)."""
    key = m.__dict__.get("_cache_key")
    if key is None:
        key = str(m) if not any(isinstance(v, tuple) for _, v in m.params) else repr(m)
        object.__setattr__(m, "_cache_key", key)
    return key


def _grade_pairs(pairs: tuple) -> tuple | None:
    """The ``grade=gain`` pairs whose name is an integer (``[+-]?digits``), in order."""
    out = []
    for name, value in pairs:
        body = name[1:] if name[:1] in "+-" else name
        if body and body.isascii() and body.isdigit():
            out.append((int(name), value))
    return tuple(out) or None


def _persistence(pairs: tuple) -> float:
    p = 0.9
    for name, value in pairs:
        if name == "p":
            p = value
    return p


def _bits(v: Any) -> Any:
    """``v`` as a key that tells apart what ``==`` does not (``-0.0`` and ``0.0``, ``1`` and
    ``1.0``, NaNs by their bits)."""
    if isinstance(v, float):
        return ("f", struct.pack("<d", v))
    if isinstance(v, tuple):
        return ("t", tuple(_bits(x) for x in v))
    return (type(v).__name__, v)


_MEASURES: dict[tuple, Measure] = {}


def _m(name: str, cutoff: Any = None, **params: Any) -> Measure:
    """The measure, made once per exact spelling (every trec_eval run and pytrec_eval
    evaluator asks for the same few; the cache is bounded)."""
    key = (name, _bits(cutoff), tuple((k, _bits(v)) for k, v in params.items()))
    m = _MEASURES.get(key)
    if m is None:
        m = _make_measure(name, cutoff, params)
        if len(_MEASURES) < 4096:
            _MEASURES[key] = m
    return m


def _make_measure(name: str, cutoff: Any, params: dict[str, Any]) -> Measure:
    from cranfield.measures.registry import REGISTRY

    d = REGISTRY[name]
    ordered = tuple((p.name, params[p.name]) for p in d.params if p.name in params)
    return Measure.unchecked(name, ordered, cutoff)  # trec_eval's own parameter rules


def _single(name: str, rel: bool = True) -> Callable[[Context, tuple], list[np.ndarray]]:
    def compute(ctx: Context, values: tuple) -> list[np.ndarray]:
        return [ctx.value(_m(name, rel=ctx.level) if rel else _m(name))]

    return compute


def _per_cutoff(name: str, rel: bool = True) -> Callable[[Context, tuple], list[np.ndarray]]:
    def compute(ctx: Context, values: tuple) -> list[np.ndarray]:
        if rel:
            return ctx.values([_m(name, k, rel=ctx.level) for k in values])
        return ctx.values([_m(name, k) for k in values])

    return compute


def _gained(name: str, rel: bool = False) -> Callable[[Context, tuple], list[np.ndarray]]:
    def compute(ctx: Context, values: tuple) -> list[np.ndarray]:
        kw: dict[str, Any] = {"gains": _grade_pairs(values)}
        if rel:
            kw["rel"] = ctx.level
        return [ctx.value(_m(name, **kw))]

    return compute


def _rounding(ctx: Context) -> dict[str, str]:
    """IPrec's ``rounding`` parameter of ``ctx`` (left out where it is the default)."""
    return {} if ctx.rounding == "trec10" else {"rounding": ctx.rounding}


def _iprec(ctx: Context, values: tuple) -> list[np.ndarray]:
    return ctx.values([_m("IPrec", r, rel=ctx.level, **_rounding(ctx)) for r in values])


def _eleven(ctx: Context, values: tuple) -> list[np.ndarray]:
    if tuple(values) == ELEVEN_POINTS:
        return [ctx.value(_m("IPrecAvg", rel=ctx.level, **_rounding(ctx)))]
    return [eleven_point_average(ctx.jr, values, ctx.level, rounding=ctx.rounding)]


def _rprec_mult(name: str) -> Callable[[Context, tuple], list[np.ndarray]]:
    def compute(ctx: Context, values: tuple) -> list[np.ndarray]:
        return ctx.values([_m(name, rel=ctx.level, mult=float(x)) for x in values])

    return compute


def _relstring(ctx: Context, values: tuple) -> list[np.ndarray]:
    return [np.zeros(ctx.jr.num_queries)]  # the strings are formed at print time


def _utility(ctx: Context, values: tuple) -> list[np.ndarray]:
    a, b, c, d = values
    return [ctx.value(_m("Utility", a=a, b=b, c=c, d=d, N=ctx.num_docs, rel=ctx.level))]


def _set_f(ctx: Context, values: tuple) -> list[np.ndarray]:
    x = values[0]
    beta = math.sqrt(x) if x >= 0 else math.nan
    if beta * beta == x:
        return [ctx.value(_m("SetF", rel=ctx.level, beta=beta))]
    return [set_f_weighted(ctx.jr, rel=ctx.level, x=x)]


def _rbp(ctx: Context, values: tuple) -> list[np.ndarray]:
    return [ctx.value(_m("RBP", p=_persistence(values), gains=_grade_pairs(values)))]


def _rbp_resid(ctx: Context, values: tuple) -> list[np.ndarray]:
    resid, unjudged = rbp_residual(ctx.jr, _persistence(values))
    return [np.where(unjudged > 0, resid, 0.0)]  # 0 when nothing retrieved is unjudged


def _unjudged(ctx: Context, values: tuple) -> list[np.ndarray]:
    return ctx.values([_m("Unjudged", k) for k in values])


def cleared_on_dummy(name: str) -> bool:
    """Whether trec_eval -c blanks the value printed as ``name`` on the dummy ranking of a
    topic missing from the results (trec_eval.c, after the measures: ``num_ret``,
    ``utility``, ``relstring`` and ``rbp_resid`` by their exact names, and every name that
    starts with ``unj``).  A parameterised name (``utility_2,-1,0,0``, ``rbp_resid_p=0.8``,
    ``relstring_5``) keeps the dummy ranking's value."""
    return name in ("num_ret", "utility", "relstring", "rbp_resid") or name.startswith("unj")


def _gm(name: str) -> Callable[[Context, tuple], list[np.ndarray]]:
    def compute(ctx: Context, values: tuple) -> list[np.ndarray]:
        return [ctx.floored_log(_m(name, rel=ctx.level))]

    return compute


ADAPTERS: dict[str, Callable[[str], Callable[[Context, tuple], list[np.ndarray]]]] = {
    "single": _single,
    "single_norel": lambda name: _single(name, rel=False),
    "per_cutoff": _per_cutoff,
    "per_cutoff_norel": lambda name: _per_cutoff(name, rel=False),
    "gained": _gained,
    "gained_rel": lambda name: _gained(name, rel=True),
    "gm": _gm,
    "ones": lambda name: _single(name, rel=False),  # NumQ: 1 a query
    "iprec": lambda name: _iprec,
    "eleven": lambda name: _eleven,
    "rprec_mult": _rprec_mult,
    "utility": lambda name: _utility,
    "set_f": lambda name: _set_f,
    "rbp": lambda name: _rbp,
    "rbp_resid": lambda name: _rbp_resid,
    "unj": lambda name: _unjudged,
}
"""How trec_eval's parameters become a measure's (a declaration's ``TrecEval.compute``)."""


SHOWN = {
    "per_cutoff": "{m}@k",
    "per_cutoff_norel": "{m}@k",
    "unj": "{m}@k",
    "iprec": "{m}@r",
    "rprec_mult": "{m}(mult=x)",
    "gained": "{m}(gains=)",
    "gained_rel": "{m}(gains=)",
    "rbp": "{m}(p=,gains=)",
    "rbp_resid": "{m}(p=)",
    "utility": "{m}(a=,b=,c=,d=,N=)",
    "set_f": "{m}(beta=sqrt(x))",
}
"""The cranfield form of each trec_eval measure, for ``-h``."""
