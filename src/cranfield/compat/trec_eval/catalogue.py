"""trec_eval 10.0's measures, in its print order, generated from cranfield's registry.

Each measure's declaration names its trec_eval name(s), parameter syntax, defaults and output
kind (``trec_eval=TrecEval(...)``); this module turns them into trec_eval's table, in
trec_eval's print order, with an adapter per parameter syntax that computes a registry
:class:`~cranfield.measures.Measure` (``P_10`` is ``P(rel=L)@10``), or the same family's
function for the few parameterisations only trec_eval offers (custom 11-point lists, ``set_F``
weights that are not squares).  Only what trec_eval prints that is not a measure (``runid``,
``relstring``) is written here.  See ``docs/trec_eval.md`` for the name table.
"""

from __future__ import annotations

import itertools
import math
import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cranfield.compat.trec_eval.cformat import atof, atol, fmt_name_double
from cranfield.errors import ParameterError
from cranfield.judging.rankings import JudgedRankings
from cranfield.measures import Measure
from cranfield.measures.interpolated import ELEVEN_POINTS, eleven_point_average, iprec_at_recall
from cranfield.measures.prefs import PREFS_MEASURES
from cranfield.measures.rbp import rbp_residual
from cranfield.measures.retrieved_set import set_f_weighted

__all__ = [
    "BY_NAME",
    "CATALOGUE",
    "NICKNAMES",
    "Context",
    "ParamError",
    "TrecMeasure",
    "cleared_on_dummy",
    "parse_params",
]


class ParamError(ParameterError):
    """Bad measure parameters: trec_eval prints the message and 'Cannot initialize measure'."""


@dataclass
class Context:
    """What a measure needs besides its parameters."""

    jr: JudgedRankings
    level: int
    num_docs: int
    complete: bool
    cache: dict = field(default_factory=dict)

    def value(self, m: Measure) -> np.ndarray:
        key = _cache_key(m)
        if key not in self.cache:
            self.cache[key] = m.compute(self.jr)
        return self.cache[key]


def _cache_key(m: Measure) -> str:
    """The key of a measure's values in :attr:`Context.cache` (its string, with the exact
    values of tuple parameters), memoised on the measure object (made once per request by
    the cached :func:`_m`)."""
    key = m.__dict__.get("_cache_key")
    if key is None:
        key = str(m) if not any(isinstance(v, tuple) for _, v in m.params) else repr(m)
        object.__setattr__(m, "_cache_key", key)
    return key


@dataclass(frozen=True)
class Parsed:
    """Parameters of one measure after trec_eval's parsing."""

    values: tuple
    text: str | None  # the parameter string as given (None: defaults)


@dataclass(frozen=True)
class TrecMeasure:
    """One trec_eval measure.

    ``kind``: ``double`` (mean), ``long`` (integer, summed), ``gm`` (geometric mean, summary
    only), ``num_q``, ``runid``, ``relstring`` (per query only).  ``params``: ``none``,
    ``long_cutoffs``, ``double_cutoffs``, ``doubles`` or ``pairs``.
    """

    name: str
    kind: str
    params: str = "none"
    default: tuple = ()
    compute: Callable[[Context, tuple], list[np.ndarray]] | None = None
    cranfield: str = ""
    rel_format: str = "qrels"
    measure: str = ""
    """The registry measure it is (empty for what trec_eval prints that is not a measure)."""
    about: str = ""
    """What it is, for the docs, when it is not a registry measure."""

    def slot_names(self, p: Parsed) -> list[str]:
        if self.params == "long_cutoffs":
            return [f"{self.name}_{k}" for k in p.values]
        if self.params == "double_cutoffs":
            return [fmt_name_double(self.name, x) for x in p.values]
        if p.text is not None and self.params in ("doubles", "pairs"):
            return [f"{self.name}_{p.text}"]
        return [self.name]


# ------------------------------------------------------------------------------ parameters
def _split(text: str) -> list[str]:
    return text.split(",")


def parse_params(tm: TrecMeasure, text: str | None) -> Parsed:
    """trec_eval's ``meas_init.c`` parameter parsing (defaults when ``text`` is None)."""
    if text is None:
        return Parsed(tm.default, None)
    if tm.params == "long_cutoffs":
        values = sorted(atol(t) for t in _split(text))
        if values[0] <= 0:
            raise ParamError("trec_eval: Negative cutoff detected")
        if any(a == b for a, b in itertools.pairwise(values)):
            raise ParamError("trec_eval: duplicate cutoffs detected")
        return Parsed(tuple(values), text)
    if tm.params == "double_cutoffs":
        doubles = sorted(atof(t) for t in _split(text))
        if any(a == b for a, b in itertools.pairwise(doubles)):
            raise ParamError("trec_eval: duplicate cutoffs detected")
        return Parsed(tuple(doubles), text)
    if tm.params == "doubles":
        return Parsed(tuple(atof(t) for t in _split(text)), text)
    if tm.params == "pairs":
        seps = [c for c in text if c in ",="]
        ok = (
            bool(seps)
            and seps[-1] == "="
            and all(s == ("=" if i % 2 == 0 else ",") for i, s in enumerate(seps))
        )
        if not ok:
            raise ParamError(f"trec_eval: malformed pair parameters in '{text}'")
        pairs = []
        for item in _split(text):
            name, _, value = item.partition("=")
            pairs.append((name, atof(value)))
        return Parsed(tuple(pairs), text)
    return Parsed((), text)  # measures without parameters ignore them


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


# ------------------------------------------------------------------------------ computing
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
            return [ctx.value(_m(name, k, rel=ctx.level)) for k in values]
        return [ctx.value(_m(name, k)) for k in values]

    return compute


def _gained(name: str, rel: bool = False) -> Callable[[Context, tuple], list[np.ndarray]]:
    def compute(ctx: Context, values: tuple) -> list[np.ndarray]:
        kw: dict[str, Any] = {"gains": _grade_pairs(values)}
        if rel:
            kw["rel"] = ctx.level
        return [ctx.value(_m(name, **kw))]

    return compute


def _iprec(ctx: Context, values: tuple) -> list[np.ndarray]:
    table = iprec_at_recall(ctx.jr, values, ctx.level)
    return [table[:, i] for i in range(len(values))]


def _eleven(ctx: Context, values: tuple) -> list[np.ndarray]:
    if tuple(values) == ELEVEN_POINTS:
        return [ctx.value(_m("IPrecAvg", rel=ctx.level))]
    return [eleven_point_average(ctx.jr, values, ctx.level)]


def _rprec_mult(name: str) -> Callable[[Context, tuple], list[np.ndarray]]:
    def compute(ctx: Context, values: tuple) -> list[np.ndarray]:
        return [ctx.value(_m(name, rel=ctx.level, mult=float(x))) for x in values]

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
    return [ctx.value(_m("Unjudged", k)) for k in values]


def cleared_on_dummy(name: str) -> bool:
    """Whether trec_eval -c blanks the value printed as ``name`` on the dummy ranking of a
    topic missing from the results (trec_eval.c, after the measures: ``num_ret``,
    ``utility``, ``relstring`` and ``rbp_resid`` by their exact names, and every name that
    starts with ``unj``).  A parameterised name (``utility_2,-1,0,0``, ``rbp_resid_p=0.8``,
    ``relstring_5``) keeps the dummy ranking's value."""
    return name in ("num_ret", "utility", "relstring", "rbp_resid") or name.startswith("unj")


def _ones(ctx: Context, values: tuple) -> list[np.ndarray]:
    return [np.ones(ctx.jr.num_queries)]


def _gm(name: str) -> Callable[[Context, tuple], list[np.ndarray]]:
    def compute(ctx: Context, values: tuple) -> list[np.ndarray]:
        v = ctx.value(_m(name, rel=ctx.level))
        return [np.array([math.log(max(x, 1e-5)) for x in v.tolist()])]

    return compute


# ------------------------------------------------------------------------------ the table
PRINT_ORDER = [
    "runid",
    "num_q",
    "num_ret",
    "num_rel",
    "num_rel_ret",
    "map",
    "gm_map",
    "Rprec",
    "bpref",
    "recip_rank",
    "iprec_at_recall",
    "P",
    "relstring",
    "recall",
    "infAP",
    "gm_bpref",
    "Rprec_mult",
    "utility",
    "11pt_avg",
    "binG",
    "G",
    "dcg",
    "ideal_dcg",
    "ndcg",
    "ndcg_rel",
    "Rndcg",
    "ndcg_cut",
    "map_cut",
    "relative_P",
    "success",
    "set_P",
    "set_relative_P",
    "set_recall",
    "set_map",
    "set_F",
    "num_nonrel_judged_ret",
    *PREFS_MEASURES,  # in trec_eval's order
    "map_avgjg",
    "P_avgjg",
    "Rprec_mult_avgjg",
    "yaap",
    "rbp",
    "rbp_resid",
    "unj",
]
"""trec_eval 10.0's print order (its ``measures.c`` table), which ``-m`` order never changes."""

ADAPTERS: dict[str, Callable[[str], Callable[[Context, tuple], list[np.ndarray]]]] = {
    "single": _single,
    "single_norel": lambda name: _single(name, rel=False),
    "per_cutoff": _per_cutoff,
    "per_cutoff_norel": lambda name: _per_cutoff(name, rel=False),
    "gained": _gained,
    "gained_rel": lambda name: _gained(name, rel=True),
    "gm": _gm,
    "ones": lambda name: _ones,
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

# what trec_eval prints that is not a measure, and the measures of other rel_info formats
_SPECIAL: dict[str, TrecMeasure] = {
    "runid": TrecMeasure(
        "runid", "runid", cranfield="(the run's tag)", about="run tag of the last results line"
    ),
    "relstring": TrecMeasure(
        "relstring",
        "relstring",
        params="doubles",
        default=(10.0,),
        compute=_relstring,
        cranfield="(per query only)",
        about="first N judgements as characters (`-` not in qrels, `.` negative grade, `>` "
        "above 9)",
    ),
}


def _from_registry() -> dict[str, TrecMeasure]:
    """Every trec_eval name a registry measure declares (``trec_eval=`` of its declaration)."""
    from cranfield.measures import REGISTRY

    out: dict[str, TrecMeasure] = {}
    for d in REGISTRY.values():
        for te in d.trec_eval:
            if te.name in out:
                raise ValueError(f"trec_eval name {te.name!r} declared by two measures")
            out[te.name] = TrecMeasure(
                te.name,
                te.kind,
                params=te.params,
                default=te.default,
                compute=ADAPTERS[te.compute](d.name),
                cranfield=SHOWN.get(te.compute, "{m}").format(m=d.name),
                rel_format=te.rel_format,
                measure=d.name,
            )
    return out


def _catalogue() -> tuple[TrecMeasure, ...]:
    known = {**_from_registry(), **_SPECIAL}
    missing = [n for n in PRINT_ORDER if n not in known]
    extra = [n for n in known if n not in PRINT_ORDER]
    if missing or extra:
        raise ValueError(f"trec_eval catalogue: not declared {missing}, not in the order {extra}")
    return tuple(known[n] for n in PRINT_ORDER)


CATALOGUE: tuple[TrecMeasure, ...] = _catalogue()

BY_NAME: dict[str, TrecMeasure] = {tm.name: tm for tm in CATALOGUE}


def _names(text: str) -> list[str]:
    return text.split()


_OFFICIAL = _names(
    "runid num_q num_ret num_rel num_rel_ret map gm_map Rprec bpref recip_rank iprec_at_recall P"
)
NICKNAMES: dict[str, Sequence[str]] = {
    "official": _OFFICIAL,
    "set": _names(
        "runid num_q num_ret num_rel num_rel_ret utility set_P set_recall set_relative_P "
        "set_map set_F"
    ),
    "all_trec": [
        *_OFFICIAL,
        *_names(
            "relstring recall unj rbp rbp_resid infAP gm_bpref utility 11pt_avg ndcg "
            "relative_P Rprec_mult success map_cut ndcg_cut ndcg_rel Rndcg binG G set_P "
            "set_recall set_relative_P set_map set_F num_nonrel_judged_ret"
        ),
    ],
    "all_prefs": _names(
        "runid num_q prefs_num_prefs_poss prefs_num_prefs_ful prefs_num_prefs_ful_ret "
        "prefs_simp prefs_pair prefs_avgjg prefs_avgjg_Rnonrel prefs_simp_ret prefs_pair_ret "
        "prefs_avgjg_ret prefs_avgjg_Rnonrel_ret prefs_simp_imp prefs_pair_imp prefs_avgjg_imp"
    ),
    "prefs": _names(
        "runid num_q prefs_num_prefs_poss prefs_num_prefs_ful prefs_num_prefs_ful_ret "
        "prefs_simp prefs_pair prefs_avgjg"
    ),
    "qrels_jg": _names("runid num_q map_avgjg P_avgjg Rprec_mult_avgjg"),
}
