"""What the subcommands share: an argparse parser with click's conventions (:class:`Parser`:
no abbreviated options, options and arguments in any order, defaults and ranges in the help,
suggestions for a misspelled option or command) and the dispatch to a subcommand.  The checked
option types are ``_types``'s, the options several commands have ``_options``'s; where output
goes is ``_output``'s business.

Standard library only: argparse imports in about 3 ms, click took 25-30 ms of the start-up budget.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NoReturn

from cranfield.cli._options import COMMON, OUTPUTS, needed_by
from cranfield.cli._output import echo, write_stderr
from cranfield.cli._types import (  # CountOrFile, NumberList: their path before _types
    CountOrFile,
    NumberList,
    Range,
    Switch,
    file_path,
    names_files,
)

__all__ = ["SUPPRESS", "CountOrFile", "NumberList", "Parser", "Range", "dispatch"]

SUPPRESS = argparse.SUPPRESS


def _did_you_mean(word: str, candidates: Iterable[str]) -> str:
    from difflib import SequenceMatcher, get_close_matches  # only on this error path

    close = get_close_matches(word, list(candidates), n=3)
    # only the names about as near as the nearest: --formt is --format, not --prefs-format
    if close:
        best = SequenceMatcher(None, word, close[0]).ratio()
        close = [c for c in close if SequenceMatcher(None, word, c).ratio() >= best - 0.1]
    return f" (did you mean {' or '.join(close)}?)" if close else ""


class _Formatter(argparse.HelpFormatter):
    """click's help layout: prose rewrapped, a paragraph opened by a ``\\b`` line (the examples)
    kept verbatim, and options shown as ``-m, --measure MEASURE``."""

    def __init__(self, prog: str) -> None:
        import shutil

        width = min(shutil.get_terminal_size().columns, 100) - 2
        super().__init__(prog, max_help_position=30, width=width)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        import textwrap

        first, _, rest = text.strip().partition("\n")
        out = []
        for block in f"{first}\n{textwrap.dedent(rest)}".strip().split("\n\n"):
            if block.startswith("\b\n"):
                out.append(textwrap.indent(block[2:], indent))
            else:
                words = " ".join(block.split())
                fill = textwrap.fill(words, width, initial_indent=indent, subsequent_indent=indent)
                out.append(fill)
        return "\n\n".join(out)

    def _format_action_invocation(self, action: argparse.Action) -> str:
        if not action.option_strings:
            return super()._format_action_invocation(action)
        text = ", ".join(action.option_strings)
        if action.nargs != 0:
            text += " " + self._format_args(action, self._get_default_metavar_for_optional(action))
        return text


class Parser(argparse.ArgumentParser):
    """An argparse parser with click's conventions: no abbreviated options, options and
    arguments in any order, ``[default: ...]`` in the help, and a suggestion for a misspelled
    option.  ``doc`` is the help text; its ``\\b`` paragraphs are printed verbatim."""

    def __init__(
        self,
        prog: str,
        doc: str | None,
        usage: str = "%(prog)s [options] QRELS RUNS...",
        epilog: str | None = None,
    ) -> None:
        super().__init__(
            prog=prog,
            usage=usage,
            description=doc,
            epilog=epilog,
            formatter_class=_Formatter,
            allow_abbrev=False,
        )

    def inputs(self) -> None:
        """The positional ``QRELS RUNS...`` of the commands that evaluate runs, and the
        options that say their formats."""
        from cranfield.io.formats import QRELS_FORMATS, RUN_FORMATS

        self.add_argument("qrels", metavar="QRELS", type=file_path, help=SUPPRESS)
        self.add_argument("runs", metavar="RUNS", type=file_path, nargs="+", help=SUPPRESS)
        self.option(
            "--quiet",
            action="store_true",
            help="No progress bars (shown on standard error, when it is a terminal, for long "
            "work).",
        )
        self.option(
            "--run-format",
            choices=RUN_FORMATS,
            default="auto",
            show_default=True,
            help="Format of the run files: TREC text, MS MARCO's 'qid docid rank' (score = "
            "-rank), or CSV/TSV with a header line; auto: .jsonl, .json, .parquet by the name, "
            "else TREC text unless the first line is a header or has the 3 columns of an MS "
            "MARCO run ('cranfield docs input').",
        )
        self.option(
            "--qrels-format",
            choices=QRELS_FORMATS,
            default="auto",
            show_default=True,
            help="Format of the qrels file (auto: as for runs). QRELS may also be "
            "irds:<dataset id>, read through ir_datasets.",
        )

    def option(self, *flags: str, show_default: bool = False, **kw: Any) -> argparse.Action:
        """``add_argument``, with the default and any range noted after the help as click did."""
        notes = []
        if show_default:
            default = kw.get("default")
            if kw.get("action") is Switch:  # the --name or the --no-name flag
                on, off = (f for f in flags if f.startswith("--"))
                default = (on if default else off).lstrip("-")
            notes.append(f"default: {default}")
        kind = kw.get("type")
        kind = getattr(kind, "range", kind)  # N|FILE and number lists: the range of each number
        if isinstance(kind, Range):
            notes.append(str(kind))
        help_ = kw.get("help") or ""
        if notes:
            help_ = f"{help_} [{'; '.join(notes)}]".lstrip()
        kw["help"] = help_.replace("%", "%%")  # argparse expands %-formats in help
        return self.add_argument(*flags, **kw)

    def common(self, *names: str, **overrides: Any) -> None:
        """Add shared options from ``COMMON``; ``overrides`` (for one name) replace keywords."""
        assert not overrides or len(names) == 1
        for name in names:
            flags, kw = COMMON[name]
            kw = {**kw, **overrides}
            if "{needed_by}" in kw.get("help", ""):
                kw["help"] = kw["help"].replace("{needed_by}", needed_by(name))
            self.option(*flags, dest=name, **kw)

    def parse(self, argv: Sequence[str]) -> argparse.Namespace:
        """Parse ``argv``: options may come between arguments; anything unknown is an error."""
        args, extras = self.parse_known_intermixed_args(list(argv))
        if extras:
            self.error(self.unknown(extras))
        self._check_outputs(args)
        if getattr(args, "quiet", False):
            from cranfield.base import progress

            progress.set_enabled(False)
        _formatted(args)
        return args

    def _check_outputs(self, args: argparse.Namespace) -> None:
        """An output file (``-o``, ``--plot``) that is also one of the input files would be
        replaced by the output: a usage error."""
        outputs = {d: v for d, v in vars(args).items() if d in OUTPUTS and v and v != "-"}
        if not outputs:
            return
        files = {a.dest for a in self._actions if names_files(a.type)}
        inputs: list[str] = []
        for dest, v in vars(args).items():
            if dest in files:
                inputs += [x for x in (v if isinstance(v, list) else [v]) if isinstance(x, str)]
        for dest, out in outputs.items():
            for path in inputs:
                try:
                    same = os.path.samefile(out, path)
                except (OSError, ValueError):  # either does not exist (or is no file name)
                    continue
                if same:
                    flag = next(a for a in self._actions if a.dest == dest).option_strings[-1]
                    self.error(f"argument {flag}: {out!r} is also an input file ({path!r})")

    def unknown(self, extras: list[str]) -> str:
        """The error message for arguments nobody took, with the nearest options for the first
        unknown option."""
        options = [a for a in extras if a.startswith("-") and a != "-"]
        if not options:
            return f"unrecognized arguments: {' '.join(extras)}"
        name = options[0].partition("=")[0]
        return f"no such option: {name}{_did_you_mean(name, self._option_string_actions)}"

    def error(self, message: str) -> NoReturn:
        """A short usage line and one ``error:`` line on stderr; exit status 2."""
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")

    def print_help(self, file: Any = None) -> None:
        """The help on standard output (``file=None``), where a failure is an error."""
        if file is None:
            echo(self.format_help())
        else:
            self._print_message(self.format_help(), file)

    def _print_message(self, message: str, file: Any = None) -> None:
        """Usage and error messages: standard error, never failing (argparse's own rule)."""
        if not message:
            return
        if file is None or file is sys.stderr:
            write_stderr(message)
        else:
            echo(message)


def _formatted(args: argparse.Namespace) -> None:
    """The input paths of ``--run-format``/``--qrels-format`` (other than auto), tagged with
    their format for the readers."""
    run_fmt = getattr(args, "run_format", "auto")
    qrels_fmt = getattr(args, "qrels_format", "auto")
    if run_fmt == "auto" and qrels_fmt == "auto":
        return
    from cranfield.io.formats import FormattedPath

    if run_fmt != "auto":
        args.runs = [FormattedPath(r, run_fmt) for r in args.runs]
    if qrels_fmt != "auto":
        args.qrels = FormattedPath(args.qrels, qrels_fmt)


def dispatch(
    prog: str,
    doc: str | None,
    commands: dict[str, str],
    argv: Sequence[str],
    version: Callable[[], str] | None = None,
) -> tuple[str, list[str]]:
    """The subcommand ``argv`` starts with and the arguments after it.  Otherwise handles
    ``-h/--help`` (``commands`` maps each name to its one-line help), ``--version``, a missing
    command (the help on stderr, status 2) and a misspelled one (the nearest names)."""
    if argv and argv[0] in commands:
        return argv[0], list(argv[1:])
    width = max(map(len, commands)) + 2
    rows = "\n".join(f"  {name:<{width}}{help_}" for name, help_ in commands.items())
    parser = Parser(prog, doc, f"{prog} [options] COMMAND [ARGS]...", f"\b\ncommands:\n{rows}")
    if version is not None:
        parser.add_argument("--version", action="store_true", help="show the version and exit")
    parser.add_argument("command", nargs="?", help=SUPPRESS)
    args, extras = parser.parse_known_args(list(argv))
    if version is not None and args.version:
        echo(f"{prog} {version()}\n")
        sys.exit(0)
    if any(a.startswith("-") and a != "-" for a in extras):
        parser.error(parser.unknown(extras))
    if args.command is None:
        write_stderr(parser.format_help())
        sys.exit(2)
    parser.error(f"no such command {args.command!r}{_did_you_mean(args.command, commands)}")
