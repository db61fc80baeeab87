"""Ties: how tied scores are ordered, the levels of a weak ordering, and how far tie-breaking
can move a measure.

- :mod:`.order`: the tie policies (``trec``, ``given``, ``random``, ``weak``) that turn a run
  into rankings;
- :mod:`.levels`: the levels (tie groups) of judged rankings, and the expectations over random
  tie-breaking that the tie-aware forms of the measures share;
- :mod:`.analysis`: best, worst, trec_eval's and expected values over tie-breakings
  (``cranfield ties``) and the averaged weak-order curves of Raghavan, Jung & Bollmann (1989).

::

    from cranfield.ties import tie_ranges, weak_curves
    tie_ranges("qrels.txt", ["run1.txt", "run2.txt"])
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["TIE_POLICIES", "reorder_ties", "tie_range", "tie_ranges", "weak_curves"]

_LAZY = {
    "TIE_POLICIES": "cranfield.judging.ordering",  # its old home .order is a moved path
    "reorder_ties": ".analysis",
    "tie_range": ".analysis",
    "tie_ranges": ".analysis",
    "weak_curves": ".analysis",
}


def __getattr__(name: str) -> Any:  # lazy: the measures import .levels, .analysis imports them
    if name not in _LAZY:
        raise AttributeError(f"module 'cranfield.ties' has no attribute {name!r}")
    value = getattr(importlib.import_module(_LAZY[name], __name__), name)
    globals()[name] = value
    return value
