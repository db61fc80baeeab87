"""One definition of a number, an id, a blank line and a line end, shared by every reader.

TREC text is the reference (its rules are in docs/input.md): each test here writes the same
data in another format and checks that it gets TREC text's result or TREC text's error.  The
generated, cross-format version of these checks is tests/test_io_differential.py.
"""

from __future__ import annotations

import pytest

import cranfield
from cranfield.errors import InputError
from cranfield.io.judgment_files import read_judgment_groups

DIGITS_5000 = "1" * 5000  # beyond int()'s 4300-digit limit on text


def _error(path) -> str:
    """The problem of the qrels or run at ``path`` (the message without the file name)."""
    read = cranfield.read_run if "run" in path.name else cranfield.read_qrels
    with pytest.raises(InputError) as exc:
        read(str(path))
    message = str(exc.value)
    assert message.startswith(f"{path}: ")
    return message[len(f"{path}: ") :]


# ---------------------------------------------------------------------------- numbers


def test_integers_of_thousands_of_digits_are_out_of_range(tmp_path):
    """int() refuses text of more than 4300 digits with a ValueError that escaped every
    integer reader (a traceback instead of the line's error)."""
    qrels = tmp_path / "qrels.txt"
    qrels.write_text(f"1 0 d {DIGITS_5000}\n")
    assert _error(qrels).startswith(f"line 1: grade '{'1' * 40}'... (5000 characters) is out")
    run = tmp_path / "run.txt"
    run.write_text(f"1 Q0 d {DIGITS_5000} 1 t\n")
    problem = cranfield.read_run(str(run)).rank_problem  # the rank only matters to 'given'
    assert problem is not None and problem.startswith("line 1: rank '1111") and "range" in problem
    groups = tmp_path / "groups.txt"
    groups.write_text(f"1 g d {DIGITS_5000}\n")
    with pytest.raises(InputError, match="line 1: grade .* is out of range"):
        read_judgment_groups(str(groups))
