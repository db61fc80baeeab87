"""What the tests of ``comparing`` at scale share: the sizes (10, 1,000, 10,000 and, marked
slow, 200,000 queries), the alternatives, and a pair of runs' per-query values with ties and
zero differences at every size, and three runs as Results."""

from __future__ import annotations

import math

import numpy as np
import pytest

from cranfield.measures.parse import parse
from cranfield.results.tables import Results

SIZES = [10, 1000, 10_000, pytest.param(200_000, marks=pytest.mark.slow)]
ALTERNATIVES = ("two-sided", "greater", "less")


def pair(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Two runs' per-query values in [0, 1] with 4 decimals (ties of |d|), a tenth of the
    queries equal (zero differences), and a shift making |t| about 1.5 at every n."""
    rng = np.random.default_rng(seed + n)
    a = np.round(rng.random(n), 4)
    shift = 1.5 * 0.15 / math.sqrt(n)
    b = np.round(np.clip(a + rng.normal(shift, 0.15, n), 0, 1), 4)
    b[: n // 10] = a[: n // 10]
    return a, b


def in_unit(p: float) -> bool:
    return math.isfinite(p) and 0.0 <= p <= 1.0


def _results(n: int, nan_every: int = 0) -> list[Results]:
    a, b = pair(n)
    c = np.round(np.clip((a + b) / 2 + 0.01, 0, 1), 4)
    qids = tuple(f"q{i:06d}" for i in range(n))
    out = []
    for name, v in (("A", a), ("B", b), ("C", c)):
        v = v.copy()
        if nan_every and name == "B":
            v[::nan_every] = np.nan  # undefined queries (ESL declares NaN)
        out.append(Results(name, qids, ("AP",), (parse("AP"),), v[:, None]))
    return out
