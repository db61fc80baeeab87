"""Measures: one module per family, one registry, one grammar for measure strings."""

from __future__ import annotations

# Family modules register their measures on import; one line per module.
# isort: off
from . import counts, dcg, precision, ranking  # noqa: F401
from . import bpref  # noqa: F401
from . import interpolated  # noqa: F401
from . import rbp  # noqa: F401
from . import utility  # noqa: F401
from . import normalized, contingency, relrank, user, cg  # noqa: F401  (literature)
from . import micro  # noqa: F401  (micro-average parts of measures defined above)
from . import tie_aware  # noqa: F401  (tie-aware forms of the measures above: keep after them)
from . import weak_order  # noqa: F401
from . import tie_aware_literature  # noqa: F401

# isort: on
from .parse import Measure, format_value, parse
from .registry import REGISTRY, MeasureDef, Param, lookup, measure

__all__ = [
    "REGISTRY",
    "Measure",
    "MeasureDef",
    "Param",
    "format_value",
    "lookup",
    "measure",
    "parse",
]
