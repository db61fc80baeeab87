"""trec_eval's measures one by one: :class:`TrecMeasure` (a printed measure, its kind and
parameter syntax) and the parsing of its ``-m name.params`` text as trec_eval parses it
(:func:`parse_params`; bad parameters: :class:`ParamError`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from cranfield.compat.trec_eval.cformat import atof, atol, fmt_name_double
from cranfield.errors import ParameterError

if TYPE_CHECKING:
    from cranfield.compat.trec_eval.adapters import Context

__all__ = ["ParamError", "Parsed", "TrecMeasure", "parse_params"]


class ParamError(ParameterError):
    """Bad measure parameters: trec_eval prints the message and 'Cannot initialize measure'."""


@dataclass(frozen=True)
class Parsed:
    """Parameters of one measure after trec_eval's parsing."""

    values: tuple
    text: str | None  # the parameter string as given (None: defaults)


@dataclass(frozen=True)
class TrecMeasure:
    """One trec_eval measure.

    ``kind``: ``double`` (mean), ``long`` (integer, summed), ``gm`` (geometric mean, summary
    only), ``num_q``, ``runid``, ``relstring`` (per query only).  ``params``: ``none``,
    ``long_cutoffs``, ``double_cutoffs``, ``doubles`` or ``pairs``.
    """

    name: str
    kind: str
    params: str = "none"
    default: tuple = ()
    compute: Callable[[Context, tuple], list[np.ndarray]] | None = None
    cranfield: str = ""
    rel_format: str = "qrels"
    measure: str = ""
    """The registry measure it is (empty for what trec_eval prints that is not a measure)."""
    about: str = ""
    """What it is, for the docs, when it is not a registry measure."""

    def slot_names(self, p: Parsed) -> list[str]:
        if self.params == "long_cutoffs":
            return [f"{self.name}_{k}" for k in p.values]
        if self.params == "double_cutoffs":
            return [fmt_name_double(self.name, x) for x in p.values]
        if p.text is not None and self.params in ("doubles", "pairs"):
            return [f"{self.name}_{p.text}"]
        return [self.name]


def _split(text: str) -> list[str]:
    return text.split(",")


def parse_params(tm: TrecMeasure, text: str | None) -> Parsed:
    """trec_eval's ``meas_init.c`` parameter parsing (defaults when ``text`` is None)."""
    if text is None:
        return Parsed(tm.default, None)
    if tm.params == "long_cutoffs":
        values = sorted(atol(t) for t in _split(text))
        if values[0] <= 0:
            raise ParamError("trec_eval: Negative cutoff detected")
        if any(a == b for a, b in itertools.pairwise(values)):
            raise ParamError("trec_eval: duplicate cutoffs detected")
        return Parsed(tuple(values), text)
    if tm.params == "double_cutoffs":
        doubles = sorted(atof(t) for t in _split(text))
        if any(a == b for a, b in itertools.pairwise(doubles)):
            raise ParamError("trec_eval: duplicate cutoffs detected")
        return Parsed(tuple(doubles), text)
    if tm.params == "doubles":
        return Parsed(tuple(atof(t) for t in _split(text)), text)
    if tm.params == "pairs":
        seps = [c for c in text if c in ",="]
        ok = (
            bool(seps)
            and seps[-1] == "="
            and all(s == ("=" if i % 2 == 0 else ",") for i, s in enumerate(seps))
        )
        if not ok:
            raise ParamError(f"trec_eval: malformed pair parameters in '{text}'")
        pairs = []
        for item in _split(text):
            name, _, value = item.partition("=")
            pairs.append((name, atof(value)))
        return Parsed(tuple(pairs), text)
    return Parsed((), text)  # measures without parameters ignore them
