"""The names ir_measures declares, for :mod:`cranfield.compat.ir_measures`: each measure's
parameters and defaults (ir_measures 0.4's declarations, checked against the installed package
by tests/compat/test_compat_ir_measures.py), its other names, and the trec_eval names it
maps (``TREC_NAME_MAP``)."""

from __future__ import annotations

from typing import Any

__all__ = ["ALIASES", "DECLARED", "NOT_PROVIDED", "NUMBERS", "TREC_NAMES", "TREC_PARAM"]

NOT_PROVIDED = object()
"""A parameter without a default (ir_measures' sentinel is also a bare ``object()``)."""

# NAME -> (AT parameter, {parameter: default}); ir_measures 0.4's declarations, checked
# against the installed package by tests/compat/test_compat_ir_measures.py
DECLARED: dict[str, tuple[str, dict[str, Any]]] = {
    "AP": ("cutoff", {"cutoff": NOT_PROVIDED, "rel": 1, "judged_only": False}),
    "Accuracy": ("cutoff", {"cutoff": NOT_PROVIDED, "rel": 1}),
    "BPM": ("cutoff", {"cutoff": NOT_PROVIDED, "T": 1.0, "min_rel": 0, "max_rel": NOT_PROVIDED}),
    "Bpref": ("cutoff", {"rel": 1}),
    "Compat": ("cutoff", {"p": 0.95, "normalize": True}),
    "ERR": ("cutoff", {"cutoff": NOT_PROVIDED}),
    "INSQ": ("cutoff", {"T": 1.0, "min_rel": 0, "max_rel": NOT_PROVIDED}),
    "INST": ("cutoff", {"T": 1.0, "min_rel": 0, "max_rel": NOT_PROVIDED}),
    "IPrec": ("recall", {"recall": NOT_PROVIDED, "rel": 1, "judged_only": False}),
    "Judged": ("cutoff", {"cutoff": NOT_PROVIDED}),
    "NERR10": ("cutoff", {"p": 0.9, "min_rel": 0, "max_rel": NOT_PROVIDED}),
    "NERR11": ("cutoff", {"T": 1.0, "min_rel": 0, "max_rel": NOT_PROVIDED}),
    "NERR8": ("cutoff", {"cutoff": NOT_PROVIDED, "min_rel": 0, "max_rel": NOT_PROVIDED}),
    "NERR9": ("cutoff", {"cutoff": NOT_PROVIDED, "min_rel": 0, "max_rel": NOT_PROVIDED}),
    "NumQ": ("cutoff", {}),
    "NumRel": ("cutoff", {"rel": 1}),
    "NumRet": ("cutoff", {"rel": NOT_PROVIDED}),
    "P": ("cutoff", {"cutoff": NOT_PROVIDED, "rel": 1, "judged_only": False}),
    "R": ("cutoff", {"cutoff": NOT_PROVIDED, "rel": 1, "judged_only": False}),
    "RBP": ("cutoff", {"cutoff": NOT_PROVIDED, "p": 0.8, "rel": NOT_PROVIDED}),
    "RR": ("cutoff", {"cutoff": NOT_PROVIDED, "rel": 1, "judged_only": False}),
    "Rprec": ("cutoff", {"rel": 1, "judged_only": False}),
    "SDCG": (
        "cutoff",
        {"cutoff": NOT_PROVIDED, "dcg": "log2", "min_rel": 0, "max_rel": NOT_PROVIDED},
    ),
    "SetAP": ("cutoff", {"rel": 1, "judged_only": False}),
    "SetF": ("cutoff", {"rel": 1, "beta": 1.0, "judged_only": False}),
    "SetP": ("cutoff", {"rel": 1, "relative": False, "judged_only": False}),
    "SetR": ("cutoff", {"rel": 1}),
    "Success": ("cutoff", {"cutoff": NOT_PROVIDED, "rel": 1, "judged_only": False}),
    "infAP": ("cutoff", {"rel": 1}),
    "nDCG": (
        "cutoff",
        {"cutoff": NOT_PROVIDED, "dcg": "log2", "gains": NOT_PROVIDED, "judged_only": False},
    ),
}
ALIASES: dict[str, tuple[str, dict[str, Any]]] = {
    "MAP": ("AP", {}),
    "BPref": ("Bpref", {}),
    "MRR": ("RR", {}),
    "NDCG": ("nDCG", {}),
    "NumRelRet": ("NumRet", {"rel": 1}),
    "Precision": ("P", {}),
    "Recall": ("R", {}),
    "RPrec": ("Rprec", {}),
    "SetRelP": ("SetP", {"relative": True}),
}
"""ir_measures' other names: the measure they are, with the parameters they set."""

TREC_NAMES = {
    "map": "AP",
    "P": "P",
    "recall": "R",
    "ndcg": "nDCG",
    "ndcg_cut": "nDCG",
    "recip_rank": "RR",
    "Rprec": "Rprec",
    "bpref": "Bpref",
    "infAP": "infAP",
    "success": "Success",
    "iprec_at_recall": "IPrec",
    "num_q": "NumQ",
    "num_rel": "NumRel",
    "num_ret": "NumRet",
    "num_rel_ret": "NumRelRet",
    "set_P": "SetP",
    "set_recall": "SetR",
    "set_map": "SetAP",
    "set_F": "SetF",
    "set_relative_P": "SetRelP",
    "map_cut": "AP",
    "rbp": "RBP",
}


NUMBERS = r"[0-9.]+(,[0-9.]+)*"


TREC_PARAM = {"set_F": "beta", "iprec_at_recall": "recall"}
"""The trec_eval names whose parameter is not the cut-off (ir_measures' ``TREC_NAME_MAP``)."""
"""trec_eval names -> ir_measures measures."""
