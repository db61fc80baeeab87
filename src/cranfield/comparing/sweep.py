"""Sweeps: one measure at several cut-offs over evaluated runs (``--sweep 'PRES@10,100,1000'``),
the mean of every run at each cut-off, as the N_max sweeps of Magdy & Jones (SIGIR 2010,
Fig. 8)."""

from __future__ import annotations

import numpy as np

from cranfield.comparing.result import Sweep, base_name, mean_of
from cranfield.errors import ParameterError
from cranfield.measures.parse import parse
from cranfield.results.tables import Results

__all__ = ["parse_sweep"]


def parse_sweep(spec: str) -> tuple[str, list[str]]:
    """``"P@5,10,20"`` -> ``("P", ["P@5", "P@10", "P@20"])``; ``"PRES@10,100,1000"`` likewise.

    A spec without ``@`` names the measure only (its cut-offs are taken from the results)."""
    text = spec.strip()
    if "@" not in text:
        return base_name(parse(f"{text}@1")), []
    base, _, cut = text.rpartition("@")
    parts = [p.strip() for p in cut.split(",") if p.strip()]
    if not base or len(parts) < 2:
        raise ParameterError(
            f"a sweep needs a measure and at least two cut-offs, as in 'P@5,10,20' (got {spec!r})"
        )
    measures = [parse(f"{base}@{p}") for p in parts]
    return base_name(measures[0]), [str(m) for m in measures]


def _sweep(rs: list[Results], common: list[str], spec: tuple[str, list[str]]) -> Sweep:
    base, labels = spec
    if not labels:
        found = []
        for label, m in zip(rs[0].labels, rs[0].measures, strict=True):
            if base_name(m) == base and m.cutoff is not None:
                found.append((m.cutoff, label))
        if len(found) < 2:
            raise ParameterError(
                f"sweep {base}: the results hold {len(found)} cut-offs of it; evaluate it at "
                f"two or more, as in '{base}@5,10,20'"
            )
        found.sort()
        labels = [label for _, label in found]
    xs = []
    for label in labels:
        cutoff = parse(label).cutoff
        assert cutoff is not None  # every label is 'measure@k'
        xs.append(float(cutoff))
    values: dict[str, tuple[float, ...]] = {}
    for r in rs:
        by_canon = {str(m): j for j, m in enumerate(r.measures)}
        ix = {q: i for i, q in enumerate(r.query_ids)}
        rows = [ix[q] for q in common]
        vals = []
        for label in labels:
            j = by_canon.get(label)
            if j is None:
                raise ParameterError(f"sweep {base}: run {r.run!r} has no values for {label}")
            col = r.values[rows, j]
            vals.append(mean_of(col[np.isfinite(col)], r.measures[j]))
        values[r.run] = tuple(vals)
    return Sweep(base, tuple(labels), tuple(xs), values)
