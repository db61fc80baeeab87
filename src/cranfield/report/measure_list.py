"""Render registry entries: ``cranfield measures`` (text, ``--short``, JSON, Markdown) and the
tables of the docs that are generated from the declarations (``docs/measures.md``, the measure
table of ``docs/trec_eval.md`` and the tie-aware table of ``docs/ties.md``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ..measures.parse import format_value
from ..measures.registry import MeasureDef

__all__ = ["render_measures", "ties_table", "trec_eval_table"]


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


def tie_form(d: MeasureDef) -> str:
    """What ``--ties weak`` computes for the measure: the first line of its tie-aware form's
    docstring, "unchanged" when no order changes it, or why it has none."""
    if d.order_invariant:
        return "unchanged: no order of the ranking changes it"
    if d.tie_aware is None:
        return f"refused: {d.no_tie_aware}"
    doc = (d.tie_aware.__doc__ or "").strip()
    return " ".join(doc.split("\n\n")[0].split()) or "expectation over random tie-breaking"


def _param_json(p: Any) -> dict[str, Any]:
    return {
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


def _json(d: MeasureDef) -> dict[str, Any]:
    return {
        "name": d.name,
        "aliases": list(d.aliases),
        "family": d.family,
        "signature": d.signature(),
        "summary": d.summary,
        "formula": d.formula,
        "better": d.better,
        "aggregate": d.aggregate,
        "aggregations": list(d.aggregations),
        "micro": d.micro is not None,
        "needs": list(d.needs),
        "tie_aware": d.tie_aware is not None,
        "ties": tie_form(d),
        "undefined": [{"when": u.when, "value": u.value} for u in d.undefined],
        "trec_eval": [
            {
                "name": t.name,
                "printed": t.shown,
                "kind": t.kind,
                "params": t.params,
                "default": list(t.default),
            }
            for t in d.trec_eval
        ],
        "source": d.source,
        "checked_by": list(d.checked_by),
        "notes": d.notes,
        "parameters": [_param_json(p) for p in d.all_params],
    }


def render_measures(defs: Sequence[MeasureDef], fmt: str = "text") -> str:
    """``text`` (everything), ``short`` (one line each), ``json`` (the whole declaration, for
    scripts and other tools) or ``markdown`` (the table of docs/measures.md)."""
    defs = sorted(defs, key=lambda d: (d.family, d.name.lower()))
    if fmt == "json":
        out = [_json(d) for d in defs]
        return json.dumps(out, indent=2, ensure_ascii=False, default=str) + "\n"
    if fmt == "short":
        width = max((len(d.signature()) for d in defs), default=0)
        return "".join(f"{d.signature():<{width}}  {d.better:<6}  {d.summary}\n" for d in defs)
    if fmt == "markdown":
        lines = [
            "| measure | formula | parameters | better | aggregate | source |",
            "|---|---|---|---|---|---|",
        ]
        for d in defs:
            cells = [
                f"`{d.signature()}`",
                d.formula,
                _params(d),
                d.better,
                _aggregate(d),
                d.source,
            ]
            lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
        return "\n".join(lines) + "\n"
    out = []
    for d in defs:
        alias = f"  (also {', '.join(d.aliases)})" if d.aliases else ""
        out.append(f"{d.signature()}{alias}  [{d.family}]")
        out.append(f"    {d.summary}")
        out.append(f"    formula:    {d.formula}")
        out.append(f"    parameters: {_params(d)}")
        out.append(f"    better:     {d.better}")
        agg = _aggregate(d) + (f"; trec_eval: {d.trec}" if d.trec else "")
        out.append(f"    aggregate:  {agg}")
        if d.needs:
            out.append(f"    needs:      {', '.join(d.needs)}")
        for u in d.undefined:
            out.append(f"    undefined:  {u.when}: {u.value}")
        out.append(f"    ties weak:  {tie_form(d)}")
        out.append(f"    source:     {d.source}")
        if d.notes:
            out.append(f"    notes:      {d.notes}")
    return "\n".join(out) + "\n"


def _md(cells: Sequence[str]) -> str:
    return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"


def trec_eval_table() -> str:
    """The name table of docs/trec_eval.md: every trec_eval measure, in trec_eval's print order,
    with the cranfield measure that computes it (from the declarations)."""
    from ..compat.catalogue import CATALOGUE
    from ..measures import REGISTRY

    lines = [
        "| trec_eval | cranfield | definition | parameters (default) |",
        "|---|---|---|---|",
    ]
    for tm in CATALOGUE:
        default = ",".join(format_value(v) for v in tm.default) if tm.default else ""
        params = "" if tm.params == "none" else f"{tm.params} ({default or 'none'})"
        if tm.measure:
            what, where = REGISTRY[tm.measure].formula, f"`{tm.cranfield}`"
        else:
            what, where = tm.about, tm.cranfield or f"(compat only, -R {tm.rel_format})"
        lines.append(_md([f"`{tm.name}`", where, what, params]))
    return "\n".join(lines) + "\n"


def ties_table(defs: Sequence[MeasureDef]) -> str:
    """The table of docs/ties.md: what ``--ties weak`` computes for every measure."""
    lines = ["| measure | under `--ties weak` |", "|---|---|"]
    for d in sorted(defs, key=lambda d: (d.family, d.name.lower())):
        lines.append(_md([f"`{d.name}`", tie_form(d)]))
    return "\n".join(lines) + "\n"
