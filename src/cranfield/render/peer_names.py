"""The name tables of ``docs/peers.md`` for ir_measures and ranx, generated from the installed
packages: ir_measures' measure registry (each entry converted by
:mod:`cranfield.measures.peer_measures`, so the cranfield column is what ``evaluate`` computes
for the object) and ranx's metric names (the names its ``metric_switch`` accepts).  The
differences are stated here, by name.  ``python -m cranfield.render.peer_names docs`` rewrites
the blocks between ``<!-- NAME:begin -->`` and ``<!-- NAME:end -->``;
``tests/compat/test_peer_docs.py`` checks that the page lists every name the packages list and that
each row is still true.  (trectools and cwl_eval have no registry: their tables are written
from their source, in the page itself.)
"""

from __future__ import annotations

import inspect
import re
import sys
from pathlib import Path
from typing import Any

__all__ = ["BLOCKS", "RANX", "ir_measures_table", "ranx_names", "ranx_table", "rewrite"]

SAME = "same values"
TREC = "same values: ir_measures computes it with trec_eval (pytrec_eval)"

IR_MEASURES_NOTES: dict[str, str] = {
    "AP": TREC + " (`map`, `map_cut_k`)",
    "BPref": "alias of Bpref",
    "Bpref": TREC,
    "ERR": "gdeval.pl's ERR (ir_measures' provider): its highest grade is 4, so "
    "`max_grade=4`; gdeval refuses non-numeric query ids and grades above 4, cranfield "
    "reads any",
    "IPrec": "ir_measures computes it with trec_eval 9.0.8 (pytrec_eval), whose recall-level "
    "rounding differs from 10.0's `lround(r R)`: values can differ at levels other than 0 "
    "and 1 (docs/trec_eval.md)",
    "Judged": "ir_measures divides by the number retrieved when it is below k (cranfield by "
    "k), counts a negative grade as judged (cranfield: in the pool, not judged) and breaks "
    "ties by document id ascending (docs/measures.md)",
    "Compat": "ir_measures keeps equal-score documents of one grade in the ideal ranking in "
    "qrels file order (cranfield: in the run's order, so the order of the qrels lines never "
    "changes a value), breaks the run's ties by document id ascending and gives unretrieved "
    "documents the score 0 when it orders the ideal ranking (docs/measures.md)",
    "MAP": "alias of AP",
    "MAP_IA": "alias of AP_IA",
    "NumRelRet": "alias of NumRet(rel=1)",
    "SetRelP": "alias of SetP(relative=True)",
    "α_DCG": "alias of alpha_DCG",
    "α_nDCG": "alias of alpha_nDCG",
    "MRR": "alias of RR",
    "NDCG": "alias of nDCG",
    "NumQ": SAME,
    "NumRel": TREC + " (only rel=1 there; any rel here)",
    "NumRet": "NumRet counts what is retrieved; with rel= it is NumRelRet(rel=...)",
    "P": TREC + " (`P_k`)",
    "Precision": "alias of P",
    "R": TREC + " (`recall_k`)",
    "RBP": "ir_measures' default persistence is 0.8 (cranfield's, as trec_eval's, 0.9), "
    "given explicitly. Computed by trectools (not in ir_measures' default providers): the raw "
    "grade is the gain (a grade-2 document counts twice; trec_eval and cranfield rescale the "
    "gains into [0, 1] per query), the ranking stops at 1000 (or the cut-off) and documents of "
    "equal adjacent scores share their mean weight. Equal on binary grades without ties. "
    "RBP(rel=r) (binary, by cwl_eval) and RBP@k are refused: give gains= instead "
    "(`RBP(p=0.8,gains={0:0,1:1,2:1})`), or cut the run (depth=)",
    "RPrec": "alias of Rprec",
    "RR": TREC + "; RR@k by the MS MARCO script (ties by document id ascending)",
    "Recall": "alias of R",
    "Rprec": TREC,
    "SetAP": TREC,
    "SetF": "ir_measures hands beta to trec_eval's set_F, whose parameter is beta squared: "
    "ir_measures' SetF(beta=b) is SetF(beta=sqrt(b)) (equal at the default beta=1)",
    "SetP": TREC + "; SetP(relative=True) is SetRelP",
    "SetR": TREC,
    "Success": TREC + " (`success_k`)",
    "infAP": TREC,
    "nDCG": TREC + " (`ndcg`, `ndcg_cut_k`: gains are the grades). gains={...}: ir_measures "
    "rewrites the qrels' grades (a grade not listed keeps its value), which for integer gains "
    "is trec_eval's gain table. dcg='exp-log2' (gdeval, ranx's ndcg_burges: 2^g - 1) is "
    "nDCG(dcg='exp-log2')",
    "Accuracy": "cranfield's Accuracy@k is MTEB's top-k accuracy, another measure; rel >= 1 "
    "only (ir_measures reads an unjudged document as grade 0)",
}
"""What differs, by ir_measures registry name (a name missing here gets no note)."""

COMING: dict[str, str] = {
    **{
        n: "diversity measure under ir_measures' name and parameters (ndeval's values; "
        "subtopic qrels: `--subtopics`)"
        for n in (
            "AP_IA",
            "MAP_IA",
            "ERR_IA",
            "nERR_IA",
            "NRBP",
            "nNRBP",
            "P_IA",
            "StRecall",
            "alpha_DCG",
            "alpha_nDCG",
            "α_DCG",
            "α_nDCG",
        )
    },
    **{
        n: "C/W/L user model under ir_measures' name and parameters (cwl_eval's values)"
        for n in ("INST", "INSQ", "BPM", "SDCG", "NERR8", "NERR9", "NERR10", "NERR11")
    },
    "Compat": "compatibility with an ideal ranking (Clarke, Vtyurina & Smucker 2020)",
}
"""ir_measures names cranfield is adding under the same name (issue 15): listed with the
name they will have until they are in the registry."""

RANX: dict[str, tuple[str, str]] = {
    "hits": (
        "`NumRelRet` with `depth=k` (`-M k`)",
        "the number of relevant documents in the top k; no measure of its own (P@k times k)",
    ),
    "hit_rate": ("`Success@k`", SAME),
    "precision": ("`P@k`; without @k `SetP`", SAME + " (divides by k)"),
    "recall": ("`R@k`; without @k `SetR`", SAME),
    "f1": ("`F@k`", SAME + " (P@k divides by k)"),
    "r-precision": ("`Rprec`", SAME),
    "mrr": ("`RR[@k]`", SAME),
    "map": ("`AP[@k]`", SAME + " (AP@k divides by all relevant documents, as map_cut)"),
    "dcg": ("`DCG[@k]`", SAME + " (the grade is the gain; grades below 1 gain nothing)"),
    "dcg_burges": (
        "`DCG(gains={1:1,2:3,3:7,...})@k`",
        "gains 2^g - 1 (Burges); the gains map lists the grades of the qrels",
    ),
    "ndcg": ("`nDCG[@k]`", SAME),
    "ndcg_burges": (
        "`nDCG(dcg='exp-log2')@k` (`nDCG(gains={1:1,2:3,3:7,...})@k`)",
        "gains 2^g - 1 (Burges)",
    ),
    "bpref": (
        "`Bpref`",
        SAME + " where a query has judged non-relevant documents (ranx counts every grade "
        "below the level, negative ones too, as judged non-relevant; with none it divides by 0)",
    ),
    "rbp": (
        "`RBP(p=0.95)` for rbp.95",
        "the raw grade is the gain (trec_eval and cranfield rescale the gains into [0, 1] per "
        "query): equal on binary grades",
    ),
}
"""ranx metric name -> (cranfield form, differences).  Every name takes ``@k`` (``-l`` for
the relevance level: cranfield's ``rel=``/``-l``)."""


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(c.replace("|", "\\|").replace("\n", " ") for c in cells) + " |"


def _instances(measure: Any) -> list[Any]:
    """The registry entry as users write it: bare, and with its ``@`` parameter."""
    base = {}
    for key, info in measure.SUPPORTED_PARAMS.items():
        if key == "max_rel" and type(info.default) is object:
            base[key] = 3
    at = {measure.AT_PARAM: 0.5 if measure.AT_PARAM == "recall" else 10}
    return [measure(**base), measure(**base, **at)]


def _converted(measure: Any) -> tuple[Any, Any, str]:
    """``(the example object, its cranfield measure or None, why none)``: the bare entry,
    or with its ``@`` parameter when cranfield's measure needs a cut-off (``P@10``)."""
    from cranfield.errors import MeasureError
    from cranfield.measures.peer_measures import from_ir_measures

    why = ""
    for m in _instances(measure):
        try:
            ours = from_ir_measures(m)
        except MeasureError as exc:
            why = str(exc)
            continue
        cut = ours.definition.cutoff
        if ours.cutoff is None and cut is not None and cut.required:
            continue
        return m, ours, ""
    return _instances(measure)[0], None, why


def ir_measures_rows() -> list[tuple[str, str, str]]:
    """``(ir_measures name and example, cranfield form, differences)`` for every registry
    entry, by name."""
    import ir_measures

    rows = []
    for name, measure in sorted(ir_measures.measures.registry.items(), key=lambda kv: kv[0]):
        example, ours, why = _converted(measure)
        canonical = measure.NAME
        example_shown = repr(example) if ours is not None else canonical
        shown = f"`{name}`" + (f" (`{example_shown}`)" if example_shown != name else "")
        note = IR_MEASURES_NOTES.get(name, "")
        if name != canonical and name in IR_MEASURES_NOTES:
            note = f"{note}; {IR_MEASURES_NOTES.get(canonical, '')}".rstrip("; ")
        elif not note:
            note = IR_MEASURES_NOTES.get(canonical, "")
        if ours is not None:
            cell = f"`{ours}`"
        elif name in COMING or canonical in COMING:
            cell, note = f"`{canonical}` (being added)", COMING.get(name) or COMING[canonical]
        else:
            cell, note = "none", note or why
        rows.append((shown, cell, note))
    return rows


def ir_measures_table() -> str:
    lines = [
        f"Generated from ir_measures {_version('ir_measures')}'s registry.",
        "",
        "| ir_measures | cranfield | differences |",
        "|---|---|---|",
    ]
    lines += [_row(list(r)) for r in ir_measures_rows()]
    return "\n".join(lines) + "\n"


def ranx_names() -> list[str]:
    """The metric names ranx's ``evaluate`` accepts (the branches of its ``metric_switch``)."""
    from ranx.metrics import metric_switch

    return re.findall(r'metric == "([^"]+)"', inspect.getsource(metric_switch))


def _version(package: str) -> str:
    from importlib.metadata import version

    return version(package)


def ranx_table() -> str:
    lines = [
        f"Generated from ranx {_version('ranx')}'s metric names.",
        "",
        "| ranx | cranfield | differences |",
        "|---|---|---|",
    ]
    for name in ranx_names():
        ours, note = RANX.get(name, ("not mapped", ""))
        lines.append(_row([f"`{name}`", ours, note]))
    return "\n".join(lines) + "\n"


BLOCKS = {"ir-measures-names": ir_measures_table, "ranx-names": ranx_table}
PAGE = "peers.md"


def _bounds(text: str, name: str) -> tuple[int, int]:
    begin, end = f"<!-- {name}:begin -->\n", f"<!-- {name}:end -->"
    return text.index(begin) + len(begin), text.index(end)


def block(text: str, name: str) -> str:
    """The block ``name`` of the page text ``text``."""
    a, b = _bounds(text, name)
    return text[a:b]


def rewrite(docs: Path) -> bool:
    """Rewrite the generated blocks of ``docs/peers.md``; whether the page changed."""
    path = docs / PAGE
    old = text = path.read_text(encoding="utf-8")
    for name, render in BLOCKS.items():
        a, b = _bounds(text, name)
        text = text[:a] + render() + text[b:]
    if text != old:
        path.write_text(text, encoding="utf-8")
    return text != old


if __name__ == "__main__":  # pragma: no cover
    if rewrite(Path(sys.argv[1] if len(sys.argv) > 1 else "docs")):
        print(f"rewrote {PAGE}")
