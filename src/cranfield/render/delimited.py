"""The package's one CSV / TSV writer: the standard library's :mod:`csv` (RFC 4180 quoting).

A cell is quoted when it holds the separator, a double quote, a carriage return or a line
feed (a quote inside is doubled); lines end with ``\\n``.  Python before 3.12 leaves a lone
carriage return unquoted unless it is part of the line terminator, so the writer is given
``\\r\\n`` and each record's terminator is turned into ``\\n`` as it is written.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

__all__ = ["SEPARATORS", "delimited"]

SEPARATORS = {"csv": ",", "tsv": "\t"}


class _Lines:
    """A file for :func:`csv.writer`, which writes each record with one call."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def write(self, record: str) -> None:
        self.parts.append(record[:-2] + "\n")  # "\r\n" -> "\n"


def delimited(head: Sequence[str], rows: Iterable[Sequence[str]], sep: str = ",") -> str:
    """A header line and one line per row, separated by ``sep`` (``,`` or a tab)."""
    import csv

    sink = _Lines()
    writer = csv.writer(sink, delimiter=sep, lineterminator="\r\n", quoting=csv.QUOTE_MINIMAL)
    writer.writerow(head)
    writer.writerows(rows)
    return "".join(sink.parts)
