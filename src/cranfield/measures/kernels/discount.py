"""DCG discounts of the two conventions (parameters ``convention=`` and ``base=`` of DCG, nDCG).

- ``trec``: ``g_i / log_b(i+1)`` (trec_eval ``m_ndcg.c``; Burges et al. 2005), ``b = 2``;
- ``jk``: Järvelin & Kekäläinen (2002), as in Chen's slides: no discount before rank ``b``,
  ``g_i`` for ``i < b`` and ``g_i / log_b(i)`` for ``i >= b``.
"""

from __future__ import annotations

import numpy as np

from cranfield.errors import ParameterError
from cranfield.judging.rankings import JudgedRankings
from cranfield.measures.registry import Param

__all__ = ["BASE", "CONVENTION", "CONVENTIONS", "discounted"]

CONVENTIONS = ("trec", "jk")


CONVENTION = Param(
    "convention",
    "str",
    "trec",
    "discount: trec = 1/log_b(i+1); jk = Järvelin & Kekäläinen, 1/log_b(i) from rank b on",
    choices=CONVENTIONS,
)
BASE = Param("base", "float", 2.0, "base b of the logarithm of the discount", above=1.0)


def discounted(gains: np.ndarray, ranks: np.ndarray, convention: str, base: float) -> np.ndarray:
    """``gain / discount(rank)`` for each (gain, 1-based rank) pair.

    Base 2 uses the C library's ``log2`` (trec_eval's), so the trec convention at base 2 is
    bit-identical to trec_eval's ndcg; other bases use ``ln(x) / ln(b)``.
    """
    if convention not in CONVENTIONS:
        raise ParameterError(
            f"convention must be one of {', '.join(CONVENTIONS)}, got {convention!r}"
        )
    if not base > 1:
        raise ParameterError(f"base of the DCG logarithm must be > 1, got {base!r}")
    ranks = np.asarray(ranks, dtype=np.int64)
    gains = np.asarray(gains, dtype=np.float64)
    arg = ranks + 1 if convention == "trec" else ranks
    if base == 2.0:
        log = JudgedRankings.log2_table(int(arg.max()) if len(arg) else 1)[arg]
    else:
        log = np.log(arg.astype(np.float64)) / np.log(float(base))
    if convention == "trec":
        result: np.ndarray = gains / log
        return result
    out = gains.copy()
    late = ranks >= base
    out[late] = gains[late] / log[late]
    return out
