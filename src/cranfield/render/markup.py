"""Tables in Markdown (GitHub's pipe tables) and LaTeX (booktabs), with their escaping.

Every cell is text and is escaped, unless it is a :class:`Markup` (written by the renderer in
the target language: ``<sup>``, ``\\textbf{...}``).  Control characters are first shown as
``\\xNN`` (:func:`~cranfield.render.table.escape_controls`), so a name cannot break a row.

- Markdown: a backslash (CommonMark 0.31, sec. 2.4 "Backslash escapes") goes before ``\\``
  and ``|`` (the table's own syntax), before `````, ``*``, ``~`` and ``$`` (code, emphasis,
  strikethrough, GitHub's mathematics), and before the characters that start markup only in
  context: ``_`` unless it stands between two letters or digits (intraword: no emphasis, sec.
  6.2), ``<`` before a letter, ``/``, ``!`` or ``?`` (HTML, autolinks), ``&`` that starts an
  entity (``&amp;``), ``[`` that starts a link or footnote (``[a](b)``, ``[a][b]``, ``[^a]``).
  So ``p_adj``, ``<0.0001`` and ``[0.1, 0.2]`` stay as they are.
- LaTeX: the ten special characters ``\\ & % $ # _ { } ~ ^`` become ``\\&``, ...,
  ``\\textbackslash{}``; ``<``, ``>`` and ``|``, which the default OT1 font encoding prints as
  other glyphs, become ``\\textless{}``, ``\\textgreater{}``, ``\\textbar{}``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from cranfield.render.table import escape_controls

__all__ = ["Markup", "latex_escape", "latex_table", "markdown_escape", "markdown_table"]


class Markup(str):
    """A cell already in the target language: written as it is."""

    __slots__ = ()


_MARKDOWN = re.compile(
    r"""[\\|`*~$]                        # always
      | (?<![^\W_])_ | _(?![^\W_])       # _ not between two letters or digits
      | <(?=[A-Za-z/!?])                 # an HTML tag or an autolink
      | &(?=\#?[0-9A-Za-z]+;)            # an entity
      | \[(?=\^|[^]]*\][(\[])           # a link or a footnote""",
    re.VERBOSE,
)
_LATEX = {
    ord("\\"): r"\textbackslash{}",
    ord("&"): r"\&",
    ord("%"): r"\%",
    ord("$"): r"\$",
    ord("#"): r"\#",
    ord("_"): r"\_",
    ord("{"): r"\{",
    ord("}"): r"\}",
    ord("~"): r"\textasciitilde{}",
    ord("^"): r"\textasciicircum{}",
    ord("<"): r"\textless{}",
    ord(">"): r"\textgreater{}",
    ord("|"): r"\textbar{}",
}


def markdown_escape(text: str) -> str:
    """``text`` as Markdown that shows it as written (``Markup`` is kept as it is)."""
    if isinstance(text, Markup):
        return str(text)
    return _MARKDOWN.sub(r"\\\g<0>", escape_controls(str(text)))


def latex_escape(text: str) -> str:
    """``text`` as LaTeX that prints it as written (``Markup`` is kept as it is)."""
    if isinstance(text, Markup):
        return str(text)
    return escape_controls(str(text)).translate(_LATEX)


def _lefts(n: int, left: int | Sequence[bool]) -> list[bool]:
    return [k < left for k in range(n)] if isinstance(left, int) else list(left)


def markdown_table(
    head: Sequence[str], rows: Sequence[Sequence[str]], *, left: int | Sequence[bool] = 1
) -> list[str]:
    """The lines of a pipe table: ``left`` leading columns (or one flag per column)
    left-aligned, the others right-aligned."""
    lefts = _lefts(len(head), left)

    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(markdown_escape(c) for c in cells) + " |"

    align = "|" + "|".join(":---" if lf else "---:" for lf in lefts) + "|"
    return [line(head), align, *(line(r) for r in rows)]


def latex_table(
    head: Sequence[str], rows: Sequence[Sequence[str]], *, left: int | Sequence[bool] = 1
) -> list[str]:
    """The lines of a booktabs ``tabular`` (``\\usepackage{booktabs}``)."""
    lefts = _lefts(len(head), left)

    def line(cells: Sequence[str]) -> str:
        return " & ".join(latex_escape(c) for c in cells) + r" \\"

    return [
        r"\begin{tabular}{" + "".join("l" if lf else "r" for lf in lefts) + "}",
        r"\toprule",
        line(head),
        r"\midrule",
        *(line(r) for r in rows),
        r"\bottomrule",
        r"\end{tabular}",
    ]
