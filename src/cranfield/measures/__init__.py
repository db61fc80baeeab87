"""Measures: one module per family, one registry, one grammar for measure strings."""

from __future__ import annotations

# The family modules (.families) are imported when one of their measures is looked up.
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
