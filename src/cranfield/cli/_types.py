"""The checked types of the commands' option values: number ranges (:class:`Range`), ``N|FILE``
values (:class:`CountOrFile`), number lists, input paths, output files and directories, name
lists and ``--name/--no-name`` switches.  Each rejects a bad value with one argparse error
naming the option.

Standard library only (the start-up budget).
"""

from __future__ import annotations

import argparse
import math
import os
import re
from collections.abc import Sequence
from typing import Any

__all__ = [
    "CountOrFile",
    "NumberList",
    "Range",
    "Switch",
    "file_path",
    "name_list",
    "names_files",
    "output_dir",
    "output_file",
    "plot_file",
]


# ------------------------------------------------------------------------------ value types
_INT = re.compile(r"[+-]?[0-9]+")


def _number(kind: type, text: str) -> Any:
    """``text`` as an int (ASCII digits, optional sign) or a finite float; ValueError else."""
    text = text.strip()
    if kind is int:
        if not _INT.fullmatch(text):
            raise ValueError(text)
        digits = text.lstrip("+-").lstrip("0")
        if len(digits) > 40:  # beyond every range here; int() would refuse 4300 digits anyway
            return (-1 if text.startswith("-") else 1) * 10**40
        return int(text)
    if "_" in text:
        raise ValueError(text)
    value = kind(text)
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(text)
    return value


class Range:
    """A number type checked by the parser: ``Range(int, 0, 17)`` accepts 0 <= x <= 17,
    ``Range(float, 0, 1, open=True)`` 0 < x < 1, and ``Range(int, 0)`` x >= 0.

    Integers are ASCII digits with an optional sign; floats must be finite (no nan, inf)."""

    def __init__(
        self, kind: type, lo: float | None = None, hi: float | None = None, open: bool = False
    ) -> None:
        self.kind, self.lo, self.hi, self.open = kind, lo, hi, open

    def __call__(self, text: str) -> Any:
        try:
            value = _number(self.kind, text)
        except (ValueError, OverflowError):
            what = "an integer" if self.kind is int else "a finite number"
            raise argparse.ArgumentTypeError(f"{_shown(text)} is not {what}") from None
        if not self.contains(value):
            shown = _shown(text.strip())[1:-1] if len(text.strip()) > 30 else text.strip()
            raise argparse.ArgumentTypeError(f"{shown} is not in the range {self}")
        return value

    def contains(self, value: float) -> bool:
        above = self.lo is None or (value > self.lo if self.open else value >= self.lo)
        below = self.hi is None or (value < self.hi if self.open else value <= self.hi)
        return above and below

    def __str__(self) -> str:
        op = "<" if self.open else "<="
        lo, hi = _show(self.lo), _show(self.hi)
        if self.hi is None:
            return f"x{op.replace('<', '>')}{lo}"
        return f"x{op}{hi}" if self.lo is None else f"{lo}{op}x{op}{hi}"

    __name__ = "number"  # argparse names the type in some messages


def _shown(text: str) -> str:
    """``text`` quoted for a message, cut short when long (a 5000-digit number)."""
    return repr(text) if len(text) <= 30 else f"{text[:25]!r}... ({len(text)} characters)"


def _show(x: float | None) -> str:
    """A bound as people read it: 10**12 rather than 1000000000000."""
    if isinstance(x, int) and abs(x) >= 10**6:
        for base in (10, 2):
            k = round(math.log(abs(x), base))
            for d in (0, -1):
                if base**k + d == abs(x):
                    text = f"{base}**{k}" + (f"{d}" if d else "")
                    return f"-{text}" if x < 0 else text
    return str(x)


class CountOrFile:
    """An ``N|FILE`` value: an integer in ``range``, or the name of a file of ``qid N`` lines
    (whose numbers are checked against the same range when it is read).  Text that reads as a
    number but not as an integer (``1.5``, ``1e400``, ``inf``) is an error, not a file name,
    unless such a file exists."""

    def __init__(self, range_: Range) -> None:
        self.range = range_

    def __call__(self, text: str) -> int | str:
        stripped = text.strip()
        if not stripped:
            raise argparse.ArgumentTypeError("empty value: give a number or a file name")
        if _INT.fullmatch(stripped):
            return self.range(stripped)
        if not os.path.exists(text):
            try:
                float(stripped)
            except ValueError:
                pass
            else:
                raise argparse.ArgumentTypeError(
                    f"{_shown(text)} is not an integer (nor an existing file); "
                    f"expected {self.range}"
                )
        return file_path(text)


class NumberList:
    """A comma list of numbers, each in ``range`` (``words``, such as ``all``, pass as they
    are).  Returns a tuple, or the word; with ``as_text`` the text itself once checked (for
    the library's exact reading of decimals)."""

    def __init__(self, range_: Range, words: Sequence[str] = (), as_text: bool = False) -> None:
        self.range, self.words, self.as_text = range_, tuple(words), as_text

    def __call__(self, text: str) -> tuple[Any, ...] | str:
        if text.strip().lower() in self.words:
            return text.strip().lower()
        parts = [p.strip() for p in text.split(",")]
        if not any(parts):
            raise argparse.ArgumentTypeError("empty list: give comma-separated numbers")
        values = tuple(self.range(p) for p in parts)
        return text if self.as_text else values


def output_file(text: str) -> str:
    """A file to write (``-o``): its directory must exist and be writable, and it must not be
    a directory.  Checked here, before any work; ``-`` is standard output."""
    if text == "-":
        return text
    from cranfield.base.output_files import check_output_file
    from cranfield.errors import ParameterError

    try:
        return check_output_file(text)
    except ParameterError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _need_matplotlib() -> None:
    from importlib.util import find_spec

    if find_spec("matplotlib") is None:
        from cranfield.errors import MissingExtraError

        raise MissingExtraError(
            "plotting needs the optional dependency 'matplotlib': pip install 'cranfield[plot]'"
        )


def plot_file(text: str) -> str:
    """An image file to write (``--plot``): ``.png``, ``.svg`` or ``.pdf``, writable, and
    matplotlib installed; checked before any work."""
    from cranfield.base.output_files import check_output_file
    from cranfield.errors import ParameterError

    try:
        name = check_output_file(text, suffixes=(".png", ".svg", ".pdf"))
    except ParameterError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    _need_matplotlib()
    return name


def output_dir(text: str) -> str:
    """A directory to write files into (created if missing): it must not be (inside) a file
    and must be writable; matplotlib must be installed (the charts)."""
    from cranfield.base.output_files import check_output_dir
    from cranfield.errors import ParameterError

    try:
        name = check_output_dir(text)
    except ParameterError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    _need_matplotlib()
    return name


def file_path(text: str) -> str:
    """A file name, or ``-`` for standard input (one argument at most).  Existence is not
    checked: the readers report a missing file themselves."""
    if text == "-":
        from cranfield.io.source import claim_stdin

        if not claim_stdin():
            raise argparse.ArgumentTypeError("only one input can be '-' (standard input)")
        return text
    if os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"{text!r} is a directory")
    return text


def name_list(text: str) -> list[str]:
    """``--names``: comma-separated run names (the option may also be repeated)."""
    return [part.strip() for part in text.split(",")]


def names_files(kind: Any) -> bool:
    """Whether an option of this type names input files (its values are then compared with
    the output files)."""
    return kind is file_path or isinstance(kind, CountOrFile)


class Switch(argparse.Action):
    """A ``--name/--no-name`` pair with one destination: True or False."""

    def __init__(self, option_strings: list[str], dest: str, **kw: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, **kw)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        setattr(namespace, self.dest, not (option_string or "").startswith("--no-"))
