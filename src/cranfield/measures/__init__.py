"""Measures: one module per family, one registry, one grammar for measure strings."""

from __future__ import annotations

# The family modules (.families) are imported when one of their measures is looked up.
from cranfield.measures.measure_object import Measure, format_value
from cranfield.measures.parse import parse
from cranfield.measures.registry import REGISTRY, MeasureDef, Param, lookup, measure

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
