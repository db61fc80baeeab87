"""AP, P@k and R-precision averaged over judgment groups, as trec_eval 10.0 computes them
(``-R qrels_jg``; ``form_res_rels_jg.c``, ``m_map_avgjg.c``, ``m_P_avgjg.c``,
``m_Rprec_mult_avgjg.c``).

Each (query, judgment group) is a set of judgments of its own, judged against the same ranking
(``judgment_groups=``, ``--judgment-groups FILE``; :mod:`cranfield.io.trec.judgment_files`).  Per
query the measure of every group that judged it is summed in group-id (``strcmp``) order and,
when more than one group judged it, divided by their number (trec_eval's arithmetic, kept
bit for bit).  No tie-aware form: the groups are judged under trec_eval's tie order.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from cranfield.errors import ParameterError
from cranfield.judging.rankings import JudgedRankings
from cranfield.measures.oracles import CONFORMANCE
from cranfield.measures.precision import DEFAULT_CUTOFFS, MULT
from cranfield.measures.precision import precision as _precision
from cranfield.measures.precision import r_precision as _r_precision
from cranfield.measures.ranking import average_precision as _average_precision
from cranfield.measures.registry import CUTOFF, REL, TrecEval, measure

BY_HAND = "tests/measures/test_prefs_measures.py::test_judgment_groups_by_hand"
NO_TIES = "the judgment groups are judged under trec_eval's tie order (not derived for weak)"
SOURCE = "trec_eval 10.0 form_res_rels_jg.c, m_{}.c"


def _averaged(jr: JudgedRankings, compute: Callable[[JudgedRankings], np.ndarray]) -> np.ndarray:
    groups = jr.judgment_groups
    if groups is None:
        raise ParameterError(
            "the *_avgjg measures need judgments by judgment group: give --judgment-groups "
            "FILE on the command line (a qrels file whose second column names the group), or "
            "judgment_groups= in Python"
        )
    total = np.zeros(jr.num_queries)
    count = np.zeros(jr.num_queries)
    for group_jr, at in groups:  # group ids in strcmp order: the order trec_eval adds them
        count[at] += 1
        total[at] += compute(group_jr)
    return np.where(count > 1, total / np.maximum(count, 1), total)


@measure(
    "AP_avgjg",
    params=(REL,),
    summary="average precision averaged over the judgment groups of each query",
    formula="AP_avgjg = (1/|G_q|) sum_{g in G_q} AP_g (the sum alone when |G_q| = 1)",
    source=SOURCE.format("map_avgjg"),
    better="higher",
    needs=("judgment_groups",),
    undefined=(),
    ties=None,
    no_ties=NO_TIES,
    trec_eval=TrecEval("map_avgjg", rel_format="qrels_jg"),
    checked_by=(CONFORMANCE, BY_HAND),
)
def ap_avgjg(jr: JudgedRankings, *, rel: int) -> np.ndarray:
    return _averaged(jr, lambda g: _average_precision(g, cutoff=None, rel=rel))


@measure(
    "P_avgjg",
    cutoff=CUTOFF,
    params=(REL,),
    summary="precision at k averaged over the judgment groups of each query",
    formula="P_avgjg@k = (1/|G_q|) sum_{g in G_q} P_g@k",
    source=SOURCE.format("P_avgjg"),
    better="higher",
    needs=("judgment_groups",),
    undefined=(),
    ties=None,
    no_ties=NO_TIES,
    trec_eval=TrecEval(
        "P_avgjg",
        params="long_cutoffs",
        default=DEFAULT_CUTOFFS,
        compute="per_cutoff",
        printed="P_avgjg_k",
        rel_format="qrels_jg",
    ),
    checked_by=(CONFORMANCE, BY_HAND),
)
def p_avgjg(jr: JudgedRankings, *, cutoff: int, rel: int) -> np.ndarray:
    return _averaged(jr, lambda g: _precision(g, cutoff=cutoff, rel=rel))


@measure(
    "Rprec_avgjg",
    params=(REL, MULT),
    summary="R-precision (at a multiple of R) averaged over the judgment groups of each query",
    formula="Rprec_avgjg = (1/|G_q|) sum_{g in G_q} Rprec_g(mult)",
    source=SOURCE.format("Rprec_mult_avgjg"),
    better="higher",
    needs=("judgment_groups",),
    undefined=(),
    ties=None,
    no_ties=NO_TIES,
    trec_eval=TrecEval(
        "Rprec_mult_avgjg",
        params="double_cutoffs",
        default=(0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0),
        compute="rprec_mult",
        printed="Rprec_mult_avgjg_x",
        rel_format="qrels_jg",
    ),
    checked_by=(CONFORMANCE, BY_HAND),
)
def rprec_avgjg(jr: JudgedRankings, *, rel: int, mult: float) -> np.ndarray:
    return _averaged(jr, lambda g: _r_precision(g, rel=rel, mult=mult))
