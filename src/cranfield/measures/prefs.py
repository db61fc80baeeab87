"""Buckley's preference measures, as trec_eval 10.0 computes them (``-R prefs``).

trec_eval 10.0 ``form_prefs_counts.c`` and ``m_prefs_*.c``: within a judgment group (JG) a
document is preferred to every document of a lower relevance level in the same judgment
sub-group (JSG); with several JSGs the preferences are closed transitively.  Per query, the
retrieved judged documents are ranked (score descending, ties by document id *ascending* under
trec_eval's tie policy, unlike the qrels measures), and each preference A > B is fulfilled and
retrieved (A above B, both retrieved), fulfilled and implied (only A retrieved), not fulfilled
(B above A, or only B retrieved) or neither.  The measures count and average these over the
judgment groups.  Inputs: ``prefs=`` (``--prefs FILE``), read by
:func:`cranfield.io.trec.judgment_files.read_prefs`.  No tie-aware form (counts of pairs in the
ranking's order; not derived).  The counts: :mod:`cranfield.measures.kernels.prefs_counts`.
"""

from __future__ import annotations

import numpy as np

from cranfield.judging.rankings import JudgedRankings
from cranfield.measures.kernels.counting import memo
from cranfield.measures.kernels.prefs_counts import topic_measures
from cranfield.measures.oracles import CONFORMANCE
from cranfield.measures.registry import TrecEval, measure

__all__ = ["PREFS_MEASURES"]

SOURCE = "trec_eval 10.0 form_prefs_counts.c, m_prefs_{}.c (Buckley's preference measures)"
NO_TIES = "no closed form derived: counts of preference pairs in the ranking's order"


# ------------------------------------------------------------------------- the measures
def _all(jr: JudgedRankings) -> dict[str, np.ndarray]:
    """Every preference measure per query, computed once per judged rankings."""

    def build() -> dict[str, np.ndarray]:
        p = jr.prefs
        if p is None:
            from cranfield.errors import ParameterError

            raise ParameterError(
                "the preference measures need the preference judgments: give --prefs FILE on "
                "the command line (a qrels file as preferences: --prefs-format qrels), or "
                "prefs= in Python (see 'cranfield docs trec_eval')"
            )
        out = {name: np.zeros(jr.num_queries) for name in PREFS_MEASURES}
        for i, qid in enumerate(jr.query_ids):
            entries = p.entries[i]
            if not entries:
                continue
            values = topic_measures(entries, p.ranked[i], True, p.source, qid)
            for name in PREFS_MEASURES:
                out[name][i] = values[name]
        return out

    return memo(jr, ("prefs",), build)


PREFS_MEASURES = (
    "prefs_num_prefs_poss",
    "prefs_num_prefs_ful",
    "prefs_num_prefs_ful_ret",
    "prefs_simp",
    "prefs_pair",
    "prefs_avgjg",
    "prefs_avgjg_Rnonrel",
    "prefs_simp_ret",
    "prefs_pair_ret",
    "prefs_avgjg_ret",
    "prefs_avgjg_Rnonrel_ret",
    "prefs_simp_imp",
    "prefs_pair_imp",
    "prefs_avgjg_imp",
)
_ABOUT = {
    "prefs_num_prefs_poss": ("possible preferences (pairs judged)", "count"),
    "prefs_num_prefs_ful": ("preferences fulfilled (retrieved or implied)", "count"),
    "prefs_num_prefs_ful_ret": ("preferences fulfilled with both documents retrieved", "count"),
    "prefs_simp": ("fulfilled / possible preferences, over all pairs", "ratio"),
    "prefs_pair": ("mean over document pairs of the share of their preferences fulfilled", "ratio"),
    "prefs_avgjg": ("prefs_simp per judgment group, averaged over the groups", "ratio"),
    "prefs_avgjg_Rnonrel": ("prefs_avgjg with as many non-relevant as relevant per group", "ratio"),
    "prefs_simp_ret": ("prefs_simp over the pairs with both documents retrieved", "ratio"),
    "prefs_pair_ret": ("prefs_pair over the pairs with both documents retrieved", "ratio"),
    "prefs_avgjg_ret": ("prefs_avgjg over the pairs with both documents retrieved", "ratio"),
    "prefs_avgjg_Rnonrel_ret": ("prefs_avgjg_Rnonrel over retrieved pairs", "ratio"),
    "prefs_simp_imp": ("prefs_simp over pairs with at least one document retrieved", "ratio"),
    "prefs_pair_imp": ("prefs_pair over pairs with at least one document retrieved", "ratio"),
    "prefs_avgjg_imp": ("prefs_avgjg over pairs with at least one document retrieved", "ratio"),
}


def _declare(name: str) -> None:
    about, kind = _ABOUT[name]
    count = kind == "count"

    def compute(jr: JudgedRankings) -> np.ndarray:
        return _all(jr)[name]

    compute.__name__ = name
    compute.__doc__ = about
    measure(
        name,
        summary=about,
        formula=f"{name}: {about} (trec_eval m_{name}.c)",
        source=SOURCE.format(name.removeprefix("prefs_")),
        better="none" if count else "higher",
        aggregate="sum" if count else "mean",
        integer=count,
        needs=("prefs",),
        undefined=(),
        ties=None,
        no_ties=NO_TIES,
        trec_eval=TrecEval(name, kind="long" if count else "double", rel_format="prefs"),
        checked_by=(CONFORMANCE, "tests/measures/test_prefs_measures.py::test_prefs_by_hand"),
    )(compute)


for _name in PREFS_MEASURES:
    _declare(_name)
