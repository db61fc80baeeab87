"""trec_eval 10.0's measures, in its print order, generated from cranfield's registry.

Each measure's declaration names its trec_eval name(s), parameter syntax, defaults and output
kind (``trec_eval=TrecEval(...)``); this module turns them into trec_eval's table, in
trec_eval's print order, with an adapter per parameter syntax (:mod:`.adapters`) and the
parameters parsed as trec_eval parses them (:mod:`.params`).  Only what trec_eval prints that
is not a measure (``runid``, ``relstring``) is written here.
See ``docs/trec_eval.md`` for the name table.
"""

from __future__ import annotations

from collections.abc import Sequence

from cranfield.compat.trec_eval.adapters import (
    ADAPTERS,
    SHOWN,
    Context,
    _relstring,
    cleared_on_dummy,
)
from cranfield.compat.trec_eval.params import ParamError, Parsed, TrecMeasure, parse_params
from cranfield.measures.prefs import PREFS_MEASURES

__all__ = [
    "BY_NAME",
    "CATALOGUE",
    "NICKNAMES",
    "PRINT_ORDER",
    "Context",
    "ParamError",
    "Parsed",
    "TrecMeasure",
    "cleared_on_dummy",
    "parse_params",
]


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
