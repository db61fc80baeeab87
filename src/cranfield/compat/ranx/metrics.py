"""ranx's metric names (``ndcg@10``, ``map@100-l2``, ``rbp.95``) and the registry's measure
computing each."""

from __future__ import annotations

from cranfield.errors import ParameterError

METRICS = (
    "hits",
    "hit_rate",
    "precision",
    "recall",
    "f1",
    "r-precision",
    "mrr",
    "map",
    "dcg",
    "dcg_burges",
    "ndcg",
    "ndcg_burges",
    "bpref",
    "rbp",
)
"""The names ranx 0.3's ``metric_switch`` accepts."""


def parse_metric(metric: str) -> tuple[str, float, int]:
    """``(name, k, rel_lvl)`` as ranx's ``extract_metric_and_params`` reads it: ``ndcg@10``,
    ``map@100-l2`` (relevance level 2), ``rbp.95`` (persistence 0.95); k = 0: no cut-off."""
    if not isinstance(metric, str):
        raise ParameterError(f"a ranx metric is a string such as 'ndcg@10', got {metric!r}")
    text, lvl = metric, 1
    if "-l" in text:
        text, _, level = text.partition("-l")
        if not level.isdigit():
            raise ParameterError(f"{metric!r}: the relevance level after -l must be an integer")
        lvl = int(level)
    if text.startswith("rbp"):
        sep = "." if "." in text else "@"
        name, _, p = text.partition(sep)
        if name != "rbp" or not p.isdigit():
            raise ParameterError(f"{metric!r}: RBP takes its persistence, e.g. 'rbp.95'")
        return "rbp", float(f"0.{p}"), lvl
    name, _, k = text.partition("@")
    if name not in METRICS:
        raise ParameterError(
            f"unknown ranx metric {name!r} in {metric!r}; ranx's metrics: " + ", ".join(METRICS)
        )
    if k and not k.isdigit():
        raise ParameterError(f"{metric!r}: the cut-off after @ must be a whole number")
    return name, int(k or 0), lvl


def _gains(grades: set[int], lvl: int, burges: bool) -> str:
    """cranfield's ``gains=`` map giving ranx's gains: grades below the level gain nothing,
    the others their grade (``2^g - 1`` for Burges)."""
    pairs = [f"{g}:{(2**g - 1 if burges else g) if g >= lvl else 0}" for g in sorted(grades)]
    return "gains={" + ",".join(pairs) + "}"


def cranfield_measure(name: str, k: int, lvl: int, grades: set[int], longest: int) -> str:
    """The registry's measure string computing ranx's ``name`` (not ``rbp``, ``hits@k``)."""
    rel = f"rel={lvl}"
    at = f"@{k}" if k else ""
    if name in ("dcg", "ndcg", "dcg_burges", "ndcg_burges"):
        base = "DCG" if name.startswith("dcg") else "nDCG"
        if lvl == 1 and min(grades) >= 0 and not name.endswith("burges"):
            return f"{base}{at}"  # the grades are the gains: trec_eval's table, no map
        return f"{base}({_gains(grades, lvl, name.endswith('burges'))}){at}"
    simple = {"mrr": "RR", "map": "AP", "bpref": "Bpref", "r-precision": "Rprec"}
    if name in simple:
        return f"{simple[name]}({rel}){at if name in ('mrr', 'map') else ''}"
    if k == 0:
        return {
            "hits": f"NumRelRet({rel})",
            "precision": f"SetP({rel})",
            "recall": f"SetR({rel})",
            "f1": f"SetF({rel})",
            "hit_rate": f"Success({rel})@{max(longest, 1)}",
        }[name]
    return {
        "hits": f"P({rel})@{k}",
        "precision": f"P({rel})@{k}",
        "recall": f"R({rel})@{k}",
        "f1": f"F({rel})@{k}",
        "hit_rate": f"Success({rel})@{k}",
    }[name]
