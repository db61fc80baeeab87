"""Render registry entries: the `cranfield measures` listing and the docs table."""

from __future__ import annotations

import json
from collections.abc import Sequence

from ..measures.parse import format_value
from ..measures.registry import MeasureDef


def _params(d: MeasureDef) -> str:
    parts = []
    for p in d.all_params:
        default = (
            "required"
            if p.required
            else f"default {format_value(p.default) if p.default is not None else 'none'}"
        )
        parts.append(f"{p.name} ({p.range_text()}; {default}): {p.doc}")
    return "; ".join(parts) if parts else "none"


def _aggregate(d: MeasureDef) -> str:
    """The measure's own statistic, and whether it has a micro average."""
    return d.aggregate + (" (micro available)" if d.micro is not None else "")


def render_measures(defs: Sequence[MeasureDef], fmt: str = "text") -> str:
    defs = sorted(defs, key=lambda d: (d.family, d.name.lower()))
    if fmt == "json":
        return (
            json.dumps(
                [
                    {
                        "name": d.name,
                        "aliases": list(d.aliases),
                        "family": d.family,
                        "signature": d.signature(),
                        "summary": d.summary,
                        "formula": d.formula,
                        "source": d.source,
                        "aggregate": d.aggregate,
                        "micro": d.micro is not None,
                        "trec_eval": d.trec,
                        "tie_aware": d.tie_aware is not None,
                        "parameters": [
                            {
                                "name": p.name,
                                "kind": p.kind,
                                "default": None if p.required else p.default,
                                "required": p.required,
                                "doc": p.doc,
                                "range": p.range_text(),
                                **{
                                    b: getattr(p, b)
                                    for b in ("at_least", "at_most", "above", "below")
                                    if getattr(p, b) is not None
                                },
                                **({"choices": list(p.choices)} if p.choices else {}),
                                **({"words": list(p.words)} if p.words else {}),
                            }
                            for p in d.all_params
                        ],
                    }
                    for d in defs
                ],
                indent=2,
                ensure_ascii=False,
                default=str,
            )
            + "\n"
        )
    if fmt == "markdown":
        lines = ["| measure | formula | parameters | aggregate | source |", "|---|---|---|---|---|"]
        for d in defs:
            cells = [f"`{d.signature()}`", d.formula, _params(d), _aggregate(d), d.source]
            lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
        return "\n".join(lines) + "\n"
    out = []
    for d in defs:
        alias = f"  (also {', '.join(d.aliases)})" if d.aliases else ""
        out.append(f"{d.signature()}{alias}  [{d.family}]")
        out.append(f"    {d.summary}")
        out.append(f"    formula:    {d.formula}")
        out.append(f"    parameters: {_params(d)}")
        agg = _aggregate(d) + (f"; trec_eval: {d.trec}" if d.trec else "")
        out.append(f"    aggregate:  {agg}")
        out.append(f"    source:     {d.source}")
        if d.notes:
            out.append(f"    notes:      {d.notes}")
        if d.tie_aware is not None:
            out.append("    ties weak:  tie-aware form (expectation over random tie-breaking)")
    return "\n".join(out) + "\n"
