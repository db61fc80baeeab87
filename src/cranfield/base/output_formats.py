"""The output formats, declared once per kind of result, as the measures are.

Every command's ``-f/--format`` choices come from here (:func:`choices`), so two commands that
print one kind of result offer the same names; the docs' table of output formats
(``docs/cli.md``) is generated from it (:func:`docs_table`); and ``tests/test_formats.py``
walks it: every command offering a kind offers its names, every format that
:attr:`OutputFormat.reader` says reads back does, to the same values, and every format is
documented.  Data only: importing it imports nothing else of the package.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["FORMATS", "KINDS", "OutputFormat", "OutputKind", "canonical", "choices", "docs_table"]


@dataclass(frozen=True)
class OutputFormat:
    """One output format: its name, older spellings that still select it, what it is, and
    the standard-library reader (``json``, ``csv``, ``tsv``) that reads it (``None``: meant
    for people).  Which kinds it reads back to the very values written:
    :attr:`OutputKind.reads_back`."""

    name: str
    help: str
    reader: str | None = None
    aliases: tuple[str, ...] = ()


FORMATS: dict[str, OutputFormat] = {
    f.name: f
    for f in (
        OutputFormat(
            "table",
            "aligned text (`render/table.py`): columns two spaces apart, labels left, numbers "
            "right, a row of dashes under the header, no trailing spaces. Widths are display "
            "widths (rich's cell widths: a CJK character or an emoji takes two columns, a "
            "combining accent none). Control characters (C0, DEL, C1) and the bidirectional "
            "controls (U+202E, ...) in a name are shown as `\\xNN` / `\\uNNNN`, so they cannot "
            "move the cursor or reorder the line",
            aliases=("text",),
        ),
        OutputFormat(
            "trec",
            "trec_eval's lines (measure, query, value); for `holes`, qrels lines of the "
            "documents to judge",
        ),
        OutputFormat(
            "json",
            "one JSON document (indented)",
            reader="json",
        ),
        OutputFormat(
            "csv",
            "the standard library's `csv` writer (`render/delimited.py`): a cell holding the "
            "separator, a double quote, a carriage return or a line feed is quoted, a quote "
            "inside doubled (RFC 4180); lines end with `\\n`",
            reader="csv",
        ),
        OutputFormat("tsv", "as `csv`, separated by tabs", reader="tsv"),
        OutputFormat(
            "markdown",
            "a GitHub pipe table (`render/markup.py`): `\\` and `\\|` escaped, and the "
            "characters that would start markup (`` ` `` `*` `~` `$`, `_` outside a word, `<` "
            "of a tag, `&` of an entity, `[` of a link); a cell shows as written",
        ),
        OutputFormat(
            "latex",
            "a booktabs `tabular` (`\\usepackage{booktabs}`): `\\ & % $ # _ { } ~ ^` and "
            "`< > \\|` escaped (`\\&`, `\\textbackslash{}`, `\\textless{}`, ...)",
        ),
    )
}
"""Every output format, by name."""


@dataclass(frozen=True)
class OutputKind:
    """A kind of result: the formats it is written in, the function that writes them
    (``module:function``, imported when used), the commands that print it, and the formats
    whose reader reads back the very values of the result (numbers in full: the shortest
    text that reads back as the same double; ``tests/test_formats.py`` writes and reads)."""

    name: str
    formats: tuple[str, ...]
    writer: str
    commands: tuple[str, ...]
    what: str
    reads_back: tuple[str, ...] = ()


KINDS: dict[str, OutputKind] = {
    k.name: k
    for k in (
        OutputKind(
            "results",
            ("table", "trec", "json", "csv", "tsv", "markdown", "latex"),
            "cranfield.render.results_text:render",
            ("evaluate",),
            "measures per run (and per query)",
            ("json", "csv", "tsv"),
        ),
        OutputKind(
            "comparison",
            ("table", "markdown", "latex", "csv", "tsv", "json"),
            "cranfield.render.comparison_text:render",
            ("compare", "nuggets --compare"),
            "runs compared, pair by pair",
            ("csv", "tsv"),
        ),
        OutputKind(
            "curves",
            ("table", "csv", "tsv", "json", "markdown", "latex"),
            "cranfield.render.curves_text:render_curves",
            ("curve",),
            "curves and their points",
        ),
        OutputKind(
            "ties",
            ("table", "json"),
            "cranfield.render.ties_text:render_ranges",
            ("ties",),
            "the range of each measure over the orders of tied scores",
        ),
        OutputKind(
            "holes",
            ("trec", "csv", "json", "table"),
            "cranfield.judgments.holes:Holes",
            ("holes",),
            "the documents to judge next",
        ),
        OutputKind(
            "suite",
            ("table", "csv", "json"),
            "cranfield.comparing.suites:Suite.table",
            ("suite",),
            "a suite of datasets",
        ),
        OutputKind(
            "repro",
            ("table", "json", "csv"),
            "cranfield.render.repro_text:render_repro",
            ("repro",),
            "a reproduction measured",
        ),
        OutputKind(
            "nuggets",
            ("table", "markdown", "json", "csv", "tsv"),
            "cranfield.nuggets.render:render",
            ("nuggets",),
            "nugget scores per run (and per query)",
            ("json", "csv", "tsv"),
        ),
        OutputKind(
            "verify",
            ("table",),
            "cranfield.render.verification_text:render_verification",
            ("verify",),
            "the checks of an EXPECTED.yaml (text only: no --format)",
        ),
        OutputKind(
            "anova",
            ("table", "markdown", "csv", "json"),
            "cranfield.render.anova_text:render",
            ("anova",),
            "analyses of variance",
        ),
        OutputKind(
            "design",
            ("table", "markdown", "json"),
            "cranfield.render.design_text:render",
            ("design",),
            "test collection designs",
        ),
        OutputKind(
            "meta",
            ("table", "markdown", "json"),
            "cranfield.render.meta_text:render",
            ("meta",),
            "a meta-evaluation of measures",
        ),
        OutputKind(
            "leaderboard",
            ("table", "csv", "json"),
            "cranfield.judgments.leaderboard:LeaderboardAgreement.table",
            ("leaderboard",),
            "leaderboards under sets of judgments compared",
        ),
        OutputKind(
            "judges",
            ("table", "json", "csv"),
            "cranfield.render.judges_text:render_judges",
            ("judges",),
            "the agreement of judges",
        ),
    )
}
"""Every kind of result, by name."""


def choices(*kinds: str) -> tuple[str, ...]:
    """The format names of ``kinds`` (a command's ``-f/--format`` choices), in order, once."""
    out: list[str] = []
    for kind in kinds:
        out += [f for f in KINDS[kind].formats if f not in out]
    return tuple(out)


def canonical(kind: str, fmt: object) -> str:
    """The name of format ``fmt`` (a name or an older spelling) of ``kind``; a
    :class:`~cranfield.errors.ParameterError` naming the choices otherwise."""
    names = KINDS[kind].formats
    if isinstance(fmt, str):
        for name in names:
            if fmt == name or fmt in FORMATS[name].aliases:
                return name
    from cranfield.errors import ParameterError

    raise ParameterError(f"unknown format {fmt!r}; choose one of {', '.join(names)}")


def docs_table() -> str:
    """The Markdown table of ``docs/cli.md``'s "Output formats": per format, the commands
    that write it and what it is."""
    lines = ["| `--format` | commands | what |", "|---|---|---|"]
    for f in FORMATS.values():
        cmds = [c for k in KINDS.values() if f.name in k.formats for c in k.commands]
        cmds = [c for c in cmds if c != "verify"]
        also = f" (also `{'`, `'.join(f.aliases)}` in Python)" if f.aliases else ""
        exact = [c for k in KINDS.values() if f.name in k.reads_back for c in k.commands]
        back = (
            f". Numbers in full (read back as the same doubles): {', '.join(exact)}"
            if exact
            else ""
        )
        lines.append(f"| `{f.name}`{also} | {', '.join(cmds)} | {f.help}{back} |")
    return "\n".join(lines) + "\n"
