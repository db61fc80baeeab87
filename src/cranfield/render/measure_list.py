"""Render registry entries: ``cranfield measures`` (text, ``--short``, JSON, Markdown) and the
tables of the docs that are generated from the declarations (``docs/measures.md``, the measure
table of ``docs/trec_eval.md`` and the tie-aware table of ``docs/ties.md``)."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from cranfield.measures.declaration import MeasureDef
from cranfield.measures.measure_object import format_value

__all__ = ["find_measures", "listing_order", "render_measures", "ties_table", "trec_eval_table"]

FAMILY_ORDER = (
    "ranking",
    "precision",
    "gain",
    "incomplete",
    "set",
    "interpolated",
    "user",
    "normalized",
    "contingency",
    "weak order",
    "relrank",
    "counts",
    "preferences",
    "judgment groups",
    "cwl",
    "similarity",
    "diversity",
)
"""The order ``cranfield measures`` lists the families in: those of the measures most papers
report first (a family not named here comes last, by name)."""
COMMON = ("AP", "nDCG", "P", "R", "RR", "Rprec", "Bpref", "Success", "GMAP", "ERR", "infAP",
          "RBP", "SetF", "IPrec", "Rnorm", "PRES", "Fallout", "NumRel", "NumRelRet")  # fmt: skip
"""The measures listed first in their family, in this order (then the others by name)."""


def listing_order(defs: Sequence[MeasureDef]) -> list[MeasureDef]:
    """``defs`` as ``cranfield measures`` lists them: by family (:data:`FAMILY_ORDER`), the
    common measures of a family first (:data:`COMMON`), then the others by name."""
    rank = {f: i for i, f in enumerate(FAMILY_ORDER)}
    common = {n: i for i, n in enumerate(COMMON)}
    return sorted(
        defs,
        key=lambda d: (
            rank.get(d.family, len(rank)),
            d.family,
            common.get(d.name, len(common)),
            d.name.lower(),
        ),
    )


def find_measures(defs: Sequence[MeasureDef], word: str) -> list[MeasureDef]:
    """The measures whose name, aliases, family, summary, formula, notes or trec_eval names
    hold ``word`` (case-insensitive)."""
    w = word.lower()

    def text(d: MeasureDef) -> str:
        names = [d.name, *d.aliases, *(t.name for t in d.trec_eval)]
        return " ".join([*names, d.family, d.summary, d.formula, d.notes or ""]).lower()

    return [d for d in defs if w in text(d)]


def _cut(text: str, width: int) -> str:
    """``text`` cut to ``width`` display cells, with an ellipsis when cut."""
    from rich.cells import cell_len, set_cell_size

    if cell_len(text) <= width:
        return text
    return set_cell_size(text, max(width - 1, 0)).rstrip() + "…" if width > 0 else ""


def _broken(signature: str, width: int) -> list[str]:
    """A signature in lines of at most ``width`` characters, broken after its commas (the
    continuation lines indented by two)."""
    pieces = re.findall(r"[^,]*,|[^,]+$", signature)
    lines = [""]
    for piece in pieces:
        if lines[-1].strip() and len(lines[-1]) + len(piece) > width:
            lines.append("  ")
        lines[-1] += piece
    return [_cut(line, width) for line in lines]


def _short(defs: Sequence[MeasureDef], width: int) -> str:
    """One line per measure in ``width`` columns: signature, direction and summary (cut),
    under a heading per family; a signature longer than most gets lines of its own (broken
    after commas), the rest indented under it."""
    from cranfield.render.table import escape_controls

    width = max(width, 40)
    lengths = sorted(len(d.signature()) for d in defs) or [0]
    # wide enough for seven signatures in ten: the longest get a line of their own
    column = min(lengths[(len(lengths) * 7) // 10 if len(lengths) > 4 else -1], width // 2)
    out: list[str] = []
    family = None
    for d in defs:
        if d.family != family:
            family = d.family
            out.append(f"{'' if not out else chr(10)}[{family}]")
        sig = escape_controls(d.signature())
        rest = f"{d.better:<6}  {d.summary}"
        if len(sig) <= column:
            out.append(_cut(f"{sig:<{column}}  {rest}", width))
        else:
            out.extend(_broken(sig, width))
            out.append(_cut(f"    {rest}", width))
    return "\n".join(out) + "\n"


def terminal_width() -> int:
    """The terminal's columns (``COLUMNS`` when set, else the terminal's, else 80)."""
    import shutil

    return shutil.get_terminal_size((80, 24)).columns


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


def render_measures(
    defs: Sequence[MeasureDef], fmt: str = "text", *, width: int | None = None, wrap: bool = False
) -> str:
    """``text`` (everything, grouped by family, the common measures first, after an index of
    the families; fields wrapped to a terminal's width, one line each when piped), ``short``
    (one line each, in ``width`` columns: default the terminal's; ``wrap``: the text's fields
    wrapped, for a terminal), ``json`` (the whole
    declaration, for scripts and other tools) or ``markdown`` (the table of
    docs/measures.md)."""
    if fmt in ("text", "short"):
        defs = listing_order(defs)
        if fmt == "short":
            return _short(defs, terminal_width() if width is None else width)
        return _text(defs, wrap)
    defs = sorted(defs, key=lambda d: (d.family, d.name.lower()))
    if fmt == "json":
        out = [_json(d) for d in defs]
        return json.dumps(out, indent=2, ensure_ascii=False, default=str) + "\n"
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
    raise ValueError(f"unknown format {fmt!r}")


def _text(defs: Sequence[MeasureDef], wrap: bool) -> str:
    """Every declaration, family by family, after an index of the families and their names."""
    families: dict[str, list[str]] = {}
    for d in defs:
        families.setdefault(d.family, []).append(d.name)
    grouped = len(families) > 1
    out: list[str] = []
    if grouped and len(defs) > 10:  # an index of the families before a long listing
        import textwrap

        width = max(terminal_width(), 40)
        out.append(f"{len(defs)} measures in {len(families)} families (cranfield measures NAME: "
                   "one; --find WORD: search; --short: one line each):")  # fmt: skip
        for f, names in families.items():
            out += textwrap.wrap(f"{f}: {', '.join(names)}", width, initial_indent="  ",
                                 subsequent_indent="    ", break_on_hyphens=False)  # fmt: skip
    import textwrap

    # wrap: on a terminal; piped or saved, one line per field, for grep
    width = max(terminal_width(), 60)

    def field(label: str, value: str) -> None:  # wrapped under its label on a terminal
        head = f"    {label + ':':<12}" if label else "    "
        if not wrap:
            out.append((head + value).rstrip())
            return
        lines = textwrap.wrap(value, width, initial_indent=head, subsequent_indent=" " * 16,
                              break_on_hyphens=False, break_long_words=False)  # fmt: skip
        out.extend(lines or [head])

    family = None
    for d in defs:
        if grouped and d.family != family:
            family = d.family
            out += ["", f"== {family} =="]
        alias = f"  (also {', '.join(d.aliases)})" if d.aliases else ""
        out.append(f"{d.signature()}{alias}  [{d.family}]")
        field("", d.summary)
        field("formula", d.formula)
        field("parameters", _params(d))
        field("better", d.better)
        field("aggregate", _aggregate(d) + (f"; trec_eval: {d.trec}" if d.trec else ""))
        if d.needs:
            field("needs", ", ".join(d.needs))
        for u in d.undefined:
            field("undefined", f"{u.when}: {u.value}")
        field("ties weak", tie_form(d))
        field("source", d.source)
        if d.notes:
            field("notes", d.notes)
    return "\n".join(out) + "\n"


def _md(cells: Sequence[str]) -> str:
    return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"


def trec_eval_table() -> str:
    """The name table of docs/trec_eval.md: every trec_eval measure, in trec_eval's print order,
    with the cranfield measure that computes it (from the declarations)."""
    from cranfield.compat.trec_eval.catalogue import CATALOGUE
    from cranfield.measures import REGISTRY

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
