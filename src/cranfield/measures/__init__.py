"""Measures: one module per family, one registry, one grammar for measure strings."""

from __future__ import annotations

# Family modules register their measures on import; one line per module.
# isort: off
from . import counts, precision, retrieved_set, ranking, dcg  # noqa: F401
from . import gain_experimental, bpref, interpolated, rbp, utility  # noqa: F401
from . import normalized, pres, contingency, relrank, user, cg  # noqa: F401  (literature)
from . import weak_order  # noqa: F401
from . import prefs, judgment_groups  # noqa: F401  (trec_eval's other judgment files)
from . import cwl_models, cwl_costs  # noqa: F401  (C/W/L user models, as cwl_eval)
from . import compatibility  # noqa: F401  (Compat, as ir_measures)
from . import diversity  # noqa: F401  (subtopic judgments, ndeval's measures)

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
