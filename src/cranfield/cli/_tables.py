"""The per-query tables of the commands that analyse runs without testing pairs (``anova``,
``design``, ``meta``): the runs evaluated and aligned on their queries by ``compare``'s rule
(every judged query scored, undefined queries left out of that measure), without the
pairwise diagnostics that only ``compare`` prints."""

from __future__ import annotations

import argparse
import warnings
from typing import Any

from cranfield.cli._args import Parser
from cranfield.cli._options import JUDGING, JUDGMENT_FILES, SIDE_INPUTS, cluster, values

__all__ = ["compared"]

_PAIRWISE_ONLY = (
    r"compare: (the (t-test|[\w-]+ test) on [\d,]+ queries|for \d+ pair\(s\) every query)"
)
"""compare's warnings about its pairwise tests (the test's fit, Keen's superiority)."""


def compared(p: Parser, a: argparse.Namespace, *, alpha: float = 0.05, then: Any = None) -> Any:
    """The :class:`~cranfield.comparing.result.Comparison` of the runs of ``a`` (on the Dask
    cluster of ``--dask``); ``then(cmp, client)`` runs while the cluster is open and its
    value is returned with the comparison."""
    from cranfield.comparing import compare

    with cluster(p, a) as client:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message=_PAIRWISE_ONLY)
            cmp = compare(
                a.qrels,
                a.runs,
                a.measures or None,
                alpha=alpha,
                missing="intersect",
                executor=client,
                **values(a, *JUDGING, *SIDE_INPUTS, *JUDGMENT_FILES, "names", "rel"),
            )
        extra = then(cmp, client) if then is not None else None
    return cmp, extra
