"""When the chosen test is a poor fit for the number of queries: one warning saying why and
what to choose instead.

- **Wilcoxon or sign test with thousands of queries** (:data:`MANY_QUERIES` or more): they
  test whether the differences are symmetric about 0 (Wilcoxon) or have median 0 (sign), not
  whether the means differ; with thousands of queries a small asymmetry of the differences is
  significant even when the means are equal.  Urbano, Lima & Hanjalic (SIGIR 2019)
  found the type I error rates of both grow with the number of topics, and recommend the
  t-test or the permutation test.
- **t-test with fewer than** :data:`FEW_QUERIES` **queries**: its p-value relies on the mean
  difference being close to normal, which so few queries cannot show; the randomization test
  enumerates every sign flip (exact up to 24 queries) and assumes nothing about the shape
  (Smucker, Allan & Carterette, CIKM 2007; Urbano et al. 2019).
"""

from __future__ import annotations

__all__ = ["FEW_QUERIES", "MANY_QUERIES", "fit_warning"]

MANY_QUERIES = 1000
"""From this many queries the Wilcoxon and sign tests are warned about."""
FEW_QUERIES = 10
"""Below this many queries the t-test is warned about."""


def fit_warning(test: str, queries: int) -> str | None:
    """The warning for ``test`` on ``queries`` queries, or None when it fits."""
    if test in ("wilcoxon", "sign") and queries >= MANY_QUERIES:
        what = (
            "whether the differences are symmetric about 0"
            if test == "wilcoxon"
            else "whether the median difference is 0"
        )
        return (
            f"compare: the {'Wilcoxon' if test == 'wilcoxon' else 'sign'} test on "
            f"{queries:,} queries tests {what}, not whether the means differ, and with "
            "thousands of queries a small asymmetry is significant even when the means are "
            "equal (Urbano, Lima & Hanjalic, SIGIR 2019, found its type I error grows with "
            "the number of topics); for a difference in means use --test t or --test "
            "randomization"
        )
    if test == "t" and queries < FEW_QUERIES:
        return (
            f"compare: the t-test on {queries} queries relies on the mean difference being "
            "close to normal, which so few queries cannot show; --test randomization "
            "enumerates every sign flip (exact up to 24 queries) and assumes no distribution "
            "(Smucker, Allan & Carterette, CIKM 2007; Urbano, Lima & Hanjalic, SIGIR 2019)"
        )
    return None
