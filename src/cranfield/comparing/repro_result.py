"""What :func:`cranfield.repro` returns: per measure its effects (:class:`MeasureEffects`:
means per run, ER, DeltaRI, the t-tests, RMSE and nRMSE), and per topic the document orders
compared (KTU, RBO, RBO_ext), with the JSON form (``to_dict``: NaN and infinities as null).
Rendered by :mod:`cranfield.render.repro_text` and :mod:`cranfield.render.repro_charts`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = ["ROLES", "MeasureEffects", "Reproduction"]


ROLES = ("orig_baseline", "orig_advanced", "rep_baseline", "rep_advanced")
"""The four runs of an experiment and its reproduction, in the order they are given."""


@dataclass(frozen=True)
class MeasureEffects:
    """The effectiveness and overall effects of one measure."""

    measure: str
    means: dict[str, float]
    """Per role (:data:`ROLES`), the mean over its topics."""
    er: float
    delta_ri: float
    p_value: dict[str, float]
    """``baseline`` and ``advanced``: the t-test of the original against the reproduced
    scores."""
    rmse: dict[str, float] = field(default_factory=dict)
    nrmse: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Reproduction:
    """What :func:`repro` returns."""

    kind: str
    """``reproducibility`` (same collection and topics) or ``replicability``."""
    runs: dict[str, str]
    """Per role, the run's source."""
    qrels: tuple[str, ...]
    topics: dict[str, tuple[str, ...]]
    """``orig`` and ``rep``: the topics scored for the original and the reproduced runs."""
    measures: tuple[MeasureEffects, ...]
    test: str
    compat: str | None
    p: float
    depth: int
    order_topics: tuple[str, ...] = ()
    """The topics whose document orders are compared (reproducibility)."""
    ktu: dict[str, np.ndarray] = field(default_factory=dict)
    """``baseline``/``advanced``: KTU per topic of ``order_topics``."""
    rbo: dict[str, np.ndarray] = field(default_factory=dict)
    rbo_ext: dict[str, np.ndarray] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()

    def mean(self, name: str, which: str) -> float:
        """Mean over the topics of ``ktu``, ``rbo`` or ``rbo_ext`` for ``baseline`` or
        ``advanced``, ignoring undefined topics (NaN when none is defined)."""
        x = getattr(self, name)[which]
        x = x[~np.isnan(x)]
        return float(x.mean()) if len(x) else math.nan

    def to_dict(self) -> dict[str, Any]:
        def num(x: float) -> float | None:
            return None if x != x or math.isinf(x) else float(x)

        out: dict[str, Any] = {
            "kind": self.kind,
            "runs": dict(self.runs),
            "qrels": list(self.qrels),
            "test": self.test,
            "compat": self.compat,
            "topics": {k: len(v) for k, v in self.topics.items()},
            "measures": [
                {
                    "measure": m.measure,
                    "means": {k: num(v) for k, v in m.means.items()},
                    "er": num(m.er),
                    "delta_ri": num(m.delta_ri),
                    "p_value": {k: num(v) for k, v in m.p_value.items()},
                    **({"rmse": {k: num(v) for k, v in m.rmse.items()}} if m.rmse else {}),
                    **({"nrmse": {k: num(v) for k, v in m.nrmse.items()}} if m.nrmse else {}),
                }
                for m in self.measures
            ],
        }
        if self.kind == "reproducibility":
            out["order"] = {
                "p": self.p,
                "depth": self.depth,
                "mean": {
                    name: {w: num(self.mean(name, w)) for w in ("baseline", "advanced")}
                    for name in ("ktu", "rbo", "rbo_ext")
                },
                "per_topic": [
                    {
                        "topic": t,
                        **{
                            f"{name}_{w}": num(float(getattr(self, name)[w][i]))
                            for name in ("ktu", "rbo", "rbo_ext")
                            for w in ("baseline", "advanced")
                        },
                    }
                    for i, t in enumerate(self.order_topics)
                ],
            }
        out["warnings"] = list(self.warnings)
        return out
