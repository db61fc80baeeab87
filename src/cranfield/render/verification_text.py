"""The text of ``cranfield verify``: the checks of an EXPECTED.yaml file
(:class:`cranfield.comparing.verification.Verification`) as a table and a last line of counts."""

from __future__ import annotations

import math

from cranfield.comparing.verification import Verification
from cranfield.render.table import text_table


def render_verification(verification: Verification, digits: int = 6) -> str:
    """The table of checks (run, measure, expected, got, difference, tolerances, verdict) and a
    last line of counts."""
    head = ["run", "measure", "expected", "got", "difference", "tolerance", "okish"]
    head.append("verdict")

    def num(x: float) -> str:
        return f"{x:.{digits}f}" if math.isfinite(x) else str(x)

    rows = [
        [
            c.run,
            c.measure,
            num(c.expected),
            num(c.got),
            f"{c.difference:+.{digits}f}" if math.isfinite(c.difference) else "",
            f"{c.tolerance:g}",
            f"{c.okish:g}",
            c.verdict,
        ]
        for c in verification.checks
    ]
    counts = ", ".join(f"{verification.count(v)} {v}" for v in ("OK", "OKish", "FAIL"))
    return text_table(head, rows, left=2) + f"{len(verification.checks)} checks: {counts}\n"
