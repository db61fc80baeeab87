"""The measure names pytrec_eval takes: trec_eval 9.0.8's measures and nicknames, pytrec_eval's
expansion of family names (``'ndcg_cut'`` -> every default cut-off, ``'P.5,10'``) and its
grouping of the spellings of one measure, each parsed once
(:class:`cranfield.compat.pytrec_eval.RelevanceEvaluator`'s measures)."""

from __future__ import annotations

import collections
import re
from collections.abc import Iterable
from typing import Any

from cranfield.compat.trec_eval.catalogue import (
    BY_NAME,
    NICKNAMES,
    ParamError,
    parse_params,
)
from cranfield.errors import ParameterError

_EXTRA_10 = {"rbp", "rbp_resid", "unj", "yaap"}
"""The qrels measures of trec_eval 10.0 that 9.0.8 lacks (``trec_eval="10.0"`` only)."""

supported_nicknames: dict[str, set[str]] = {k: set(v) - _EXTRA_10 for k, v in NICKNAMES.items()}
"""trec_eval 9.0.8's nicknames (10.0's without its new measures), as pytrec_eval's."""

supported_measures: set[str] = set(supported_nicknames["all_trec"])
"""trec_eval 9.0.8's ``all_trec`` measures: what pytrec_eval evaluates."""

VERSIONS = ("9.0.8", "10.0")
_ORDER = {name: i for i, name in enumerate(BY_NAME)}
"""trec_eval's table order, which pytrec_eval's per-query dicts follow."""
_RE_BASE = r"{}[\._]([0-9]+(\.[0-9]+)?(,[0-9]+(\.[0-9]+)?)*)"


def _expand_nicknames(measures: Iterable[str]) -> set[str]:
    out: set[str] = set()
    for m in measures:
        if m in supported_nicknames:
            out.update(supported_nicknames[m])
        else:
            out.add(m)
    return out


def _combine_measures(measures: set[str], known: set[str]) -> dict[str, set[str]]:
    """pytrec_eval's grouping: ``meas``, ``meas.p1,p2`` or ``meas_p1,p2`` -> ``{meas: params}``
    (the parameters of every spelling of one measure united; a bare name adds none)."""
    params: dict[str, set[str]] = collections.defaultdict(set)
    for m in sorted(measures):
        if not isinstance(m, str):
            raise ParameterError(f"a measure must be a string like 'P_5', got {m!r}")
        if m in known:
            params.setdefault(m, set())
            continue
        for base in sorted(known):
            match = re.match(_RE_BASE.format(re.escape(base)), m)
            if match is not None:
                params[base].update(match.group(1).split(","))
                break
        else:
            raise ParameterError(f"unsupported measure {m!r}")
    return params


class Request:
    """One measure to compute: its catalogue entry, parsed parameters and output names."""

    __slots__ = ("names", "parsed", "tm")

    def __init__(self, name: str, args: set[str]) -> None:
        self.tm = BY_NAME[name]
        # trec_eval sorts numeric cut-offs itself; the text only keeps pytrec_eval's order
        text = ",".join(sorted(args)) if args else None
        try:
            self.parsed = parse_params(self.tm, text)
        except ParamError as exc:
            raise ParameterError(
                f"measure {name!r}: {str(exc).removeprefix('trec_eval: ')}"
            ) from None
        if self.tm.params in ("long_cutoffs", "double_cutoffs"):
            self.names = self.tm.slot_names(self.parsed)
        else:
            self.names = [name]  # pytrec_eval keys every other measure by its bare name
        if self.tm.name == "utility" and len(self.parsed.values) != 4:
            raise ParameterError(
                "measure 'utility': give its four coefficients, as 'utility.a,b,c,d'"
            )


_REQUESTS: dict[tuple[str, frozenset[str]], Request] = {}


def _request(name: str, args: set[str]) -> Request:
    """The parsed request, made once per spelling (it is never changed after)."""
    key = (name, frozenset(args))
    req = _REQUESTS.get(key)
    if req is None:
        req = _REQUESTS[key] = Request(name, args)
    return req


PLANNED: dict[tuple[Any, ...], Any] = {}
"""Measure names -> requests, and requests -> the core's plan: each made once (bounded)."""


def requests_of(measures: Iterable[Any], v9: bool) -> tuple[Request, ...]:
    """The requests of the measure names (pytrec_eval's expansion and grouping), in
    trec_eval's order; made once per set of names (the same tuple each time)."""
    if type(measures) not in (set, frozenset, list, tuple):
        measures = list(measures)  # an iterator is read once
    try:
        key: Any = (frozenset(measures), v9)
    except TypeError:  # an unhashable name: the expansion words it
        key = None
    got = PLANNED.get(key) if key is not None else None
    if got is None:
        known = supported_measures if v9 else supported_measures | _EXTRA_10
        combined = _combine_measures(_expand_nicknames(list(measures)), known)
        got = tuple(_request(n, combined[n]) for n in sorted(combined, key=_ORDER.__getitem__))
        if key is not None and all(type(m) is str for m in measures):
            if len(PLANNED) > 256:
                PLANNED.clear()
            PLANNED[key] = got
    return got
