"""``cranfield repro`` as text, JSON or CSV (what :func:`cranfield.repro` returns).

Undefined values (NaN) are ``undefined`` in the text, empty in CSV and ``null`` in JSON.
"""

from __future__ import annotations

import json

from cranfield.comparing.repro_result import ROLES, Reproduction
from cranfield.render.delimited import delimited
from cranfield.render.table import text_table

__all__ = ["render_repro"]

SIDES = ("baseline", "advanced")


def _num(x: float, digits: int) -> str:
    return "undefined" if x != x else f"{x:.{digits}f}"


def _p(x: float) -> str:
    return "undefined" if x != x else f"{x:.3g}"


def _csv_num(x: float) -> str:
    return "" if x != x else repr(float(x))


def render_repro(r: Reproduction, digits: int = 4, fmt: str = "table") -> str:
    """The text (``table``), ``json`` or ``csv`` of a reproduction."""
    if fmt == "json":
        return json.dumps(r.to_dict(), indent=2, allow_nan=False) + "\n"
    if fmt == "csv":
        return _csv(r)
    return _text(r, digits)


def _text(r: Reproduction, digits: int) -> str:
    rpd = r.kind == "reproducibility"
    out = [
        f"{r.kind} (Breuer et al., SIGIR 2020): {len(r.topics['orig'])} original topics, "
        f"{len(r.topics['rep'])} reproduced; {r.test}\n",
    ]
    out += [f"  {role.replace('_', ' ')}: {r.runs[role]}\n" for role in ROLES]
    out.append("\n")
    head = ["measure", "orig B", "orig A", "rep B", "rep A", "ER", "DeltaRI", "p B", "p A"]
    if rpd:
        head[5:5] = ["RMSE B", "RMSE A", "nRMSE B", "nRMSE A"]
    rows = []
    for m in r.measures:
        cells = [m.measure, *(_num(m.means[role], digits) for role in ROLES)]
        if rpd:
            cells += [_num(m.rmse[w], digits) for w in SIDES]
            cells += [_num(m.nrmse[w], digits) for w in SIDES]
        cells += [_num(m.er, digits), _num(m.delta_ri, digits)]
        cells += [_p(m.p_value[w]) for w in SIDES]
        rows.append(cells)
    out.append(text_table(head, rows))
    if rpd:
        out.append(
            f"\norder of documents, mean over {len(r.order_topics)} topics "
            f"(RBO p={r.p:g}, depth {r.depth}):\n"
        )
        names = {"ktu": "KTU", "rbo": "RBO", "rbo_ext": "RBO_ext"}
        rows = [
            [label, *(_num(r.mean(name, w), digits) for w in SIDES)]
            for name, label in names.items()
        ]
        out.append(text_table(["", "baseline", "advanced"], rows))
    if r.warnings:
        out.append("\nwarnings:\n")
        out.extend(f"- {w}\n" for w in r.warnings)
    return "".join(out)


def _csv(r: Reproduction) -> str:
    """One long table: ``scope`` (a measure, or ``topic:<id>``), ``quantity`` and ``value``."""
    rows: list[list[str]] = []
    for m in r.measures:
        for role in ROLES:
            rows.append([m.measure, f"mean_{role}", _csv_num(m.means[role])])
        for name, values in (("rmse", m.rmse), ("nrmse", m.nrmse), ("p_value", m.p_value)):
            for w, v in values.items():
                rows.append([m.measure, f"{name}_{w}", _csv_num(v)])
        rows.append([m.measure, "er", _csv_num(m.er)])
        rows.append([m.measure, "delta_ri", _csv_num(m.delta_ri)])
    if r.kind == "reproducibility":
        for name in ("ktu", "rbo", "rbo_ext"):
            for w in SIDES:
                rows.append(["mean", f"{name}_{w}", _csv_num(r.mean(name, w))])
        for i, t in enumerate(r.order_topics):
            for name in ("ktu", "rbo", "rbo_ext"):
                for w in SIDES:
                    rows.append([f"topic:{t}", f"{name}_{w}", _csv_num(getattr(r, name)[w][i])])
    return delimited(["scope", "quantity", "value"], rows)
