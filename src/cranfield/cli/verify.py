"""``cranfield verify``: regression checks of scores against an EXPECTED.yaml file."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from cranfield.cli._args import Parser
from cranfield.cli._output import flush_stdout, write_output
from cranfield.cli._types import file_path


def parser() -> Parser:
    p = Parser("cranfield verify", run.__doc__)
    p.add_argument("expected", metavar="EXPECTED.yaml", type=file_path)
    p.common("output")
    return p


def run(argv: Sequence[str]) -> None:
    """Evaluate the runs EXPECTED.yaml names and compare each measure's mean with the score
    it expects: OK within its tolerance, OKish within the looser okish tolerance, FAIL
    otherwise (cranfield docs verify).  Prints one line per check; exit status 1 when a check
    failed, 0 otherwise, 2 when a file is bad.

    \b
    cranfield verify expected.yaml
    """
    a = parser().parse(argv)
    from cranfield.comparing.verification import verify
    from cranfield.render.verification_text import render_verification

    checks = verify(a.expected)
    write_output(render_verification(checks), a.output)
    if checks.status:
        flush_stdout()
        sys.exit(checks.status)
