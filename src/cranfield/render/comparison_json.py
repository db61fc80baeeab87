"""The JSON shape of a :class:`~cranfield.comparing.result.Comparison` (docs/compare.md,
"Output"): the settings, per measure the means and the pairs, the agreement between measures
and the sweeps.  Non-finite numbers are null."""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Any

from cranfield.comparing.paired import TESTS

if TYPE_CHECKING:
    from cranfield.comparing.result import Comparison

__all__ = ["comparison_dict", "render_json"]


def _num(x: float | None) -> float | None:
    return None if x is None or not math.isfinite(x) else float(x)


def comparison_dict(c: Comparison) -> dict[str, Any]:
    out: dict[str, Any] = {
        "test": c.test,
        "test_name": TESTS[c.test][0],
        "alternative": c.alternative,
        "correction": c.correction,
        "alpha": c.alpha,
        "baseline": c.baseline,
        "ci": c.ci,
        "runs": list(c.runs),
        "queries": c.notes.get("queries"),
    }
    if (
        c.test in ("randomization", "bootstrap", "rthsd")
        or c.ci == "bootstrap"
        or c.correction in ("maxt", "minp")
    ):
        out["permutations"] = c.permutations
        out["seed"] = c.seed
    if c.test in ("randomization", "rthsd"):
        out["exact"] = list(c.notes.get("exact", []))
    out["measures"] = {
        label: {
            "means": {r: _num(v) for r, v in c.means[label].items()},
            "queries": len(c.query_ids[label]),
            "pairs": [p.to_dict() for p in c.pairs[label]],
        }
        for label in c.labels
    }
    if len(c.labels) >= 2:
        out["agreement"] = [
            {"outcomes": dict(zip(c.labels, row.outcomes, strict=True)), "count": row.count}
            for row in c.agreement()
        ]
        if len(c.runs) >= 2:
            out["correlations"] = [
                {
                    "measures": [m1, m2],
                    "tau": _num(c.correlation(m1, m2, "b")),
                    "tau_ap_b": _num(c.correlation(m1, m2, "ap_b")),
                }
                for (m1, m2) in c.correlations("b")
            ]
    if c.overlaps:
        out["rank_biased_overlap"] = [
            {k: _num(v) if isinstance(v, float) else v for k, v in o.to_dict().items()}
            for o in c.overlaps
        ]
    if c.sweeps:
        out["sweeps"] = [
            {
                "measure": s.name,
                "labels": list(s.labels),
                "cutoffs": [int(x) if float(x).is_integer() else x for x in s.xs],
                "means": {r: [_num(v) for v in vals] for r, vals in s.values.items()},
            }
            for s in c.sweeps
        ]
    return out


def render_json(c: Comparison) -> str:
    return json.dumps(comparison_dict(c), indent=2, ensure_ascii=False, allow_nan=False) + "\n"
