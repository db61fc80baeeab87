"""What the subcommands share: an argparse parser with click's conventions, checked number
ranges, the options several commands have, and output helpers.

Standard library only: argparse imports in about 3 ms, click took 25-30 ms of the start-up budget.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NoReturn

SUPPRESS = argparse.SUPPRESS


# ------------------------------------------------------------------------------ output
def echo(text: str, err: bool = False) -> None:
    """Write ``text`` to stdout (or stderr) and flush, so a closed pipe shows up here."""
    stream = sys.stderr if err else sys.stdout
    stream.write(text)
    stream.flush()


def write_output(text: str, path: str | None) -> None:
    """Write ``text`` to the ``--output`` file, or to standard output without one."""
    if not path:
        echo(text)
        return
    try:
        with open(path, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
    except OSError as exc:
        from ..errors import ParameterError

        raise ParameterError(f"{path}: {exc.strerror or exc}") from None


def number_or_path(value: str | None) -> int | str | None:
    """An integer when an ``N|FILE`` option value is one, else the file path it names."""
    if value is None:
        return None
    text = value.strip()
    return int(text) if text.lstrip("+-").isdigit() else value


# ------------------------------------------------------------------------------ value types
class Range:
    """A number type checked by the parser: ``Range(int, 0, 17)`` accepts 0 <= x <= 17,
    ``Range(float, 0, 1, open=True)`` 0 < x < 1, and ``Range(int, 0)`` x >= 0."""

    def __init__(
        self, kind: type, lo: float | None = None, hi: float | None = None, open: bool = False
    ) -> None:
        self.kind, self.lo, self.hi, self.open = kind, lo, hi, open

    def __call__(self, text: str) -> Any:
        try:
            value = self.kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{text!r} is not a valid {self.kind.__name__}"
            ) from None
        above = self.lo is None or (value > self.lo if self.open else value >= self.lo)
        below = self.hi is None or (value < self.hi if self.open else value <= self.hi)
        if not (above and below):  # also rejects nan
            raise argparse.ArgumentTypeError(f"{text} is not in the range {self}")
        return value

    def __str__(self) -> str:
        op = "<" if self.open else "<="
        if self.hi is None:
            return f"x{op.replace('<', '>')}{self.lo}"
        return f"x{op}{self.hi}" if self.lo is None else f"{self.lo}{op}x{op}{self.hi}"


def file_path(text: str) -> str:
    """A file name, or ``-`` for standard input (one argument at most).  Existence is not
    checked: the readers report a missing file themselves."""
    if text == "-":
        from ..io.source import claim_stdin

        if not claim_stdin():
            raise argparse.ArgumentTypeError("only one input can be '-' (standard input)")
        return text
    if os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"{text!r} is a directory")
    return text


def dir_path(text: str) -> str:
    """A directory name; it need not exist yet."""
    if os.path.exists(text) and not os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"{text!r} is a file")
    return text


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


# ------------------------------------------------------------------------------ options
# the options several commands share: name (= dest) -> (flags, add_argument keywords);
# a command may override any keyword (its own help text, choices, default)
COMMON: dict[str, tuple[tuple[str, ...], dict[str, Any]]] = {
    "measures": (("-m", "--measure"), {"action": "append", "default": [], "metavar": "MEASURE"}),
    "per_query": (("-q", "--per-query"), {"action": "store_true"}),
    "fmt": (("-f", "--format"), {"default": "table", "show_default": True}),
    "ties": (("--ties",), {"default": "trec", "show_default": True}),
    "seed": (("--seed",), {"type": int, "help": "Seed of --ties random."}),
    "depth": (
        ("-M", "--depth"),
        {
            "type": Range(int, 0),
            "metavar": "N",
            "help": "Keep only the first N documents of each ranking (trec_eval -M).",
        },
    ),
    "judged_only": (
        ("-J", "--judged-only"),
        {
            "action": "store_true",
            "help": "Drop unjudged documents before measuring (trec_eval -J).",
        },
    ),
    "complete": (
        ("-c", "--complete"),
        {
            "action": "store_true",
            "help": "Score judged queries missing from a run as empty rankings (trec_eval -c).",
        },
    ),
    "collection_size": (
        ("--collection-size",),
        {
            "metavar": "N|FILE",
            "help": "Documents in the collection: one number, or a file of 'qid N' lines (needed "
            "by Rnorm, Pnorm, RankRecall, LogPrecision, WRnorm, Fallout, Generality, AdjP).",
        },
    ),
    "known": (
        ("--known",),
        {
            "type": file_path,
            "metavar": "FILE",
            "help": "Documents known to the user, qrels format, grade > 0 = known "
            "(Coverage, Novelty).",
        },
    ),
    "target": (
        ("--target",),
        {
            "metavar": "N|FILE",
            "help": "Relevant documents the user wants: one number, or a file of 'qid N' lines "
            "(RelativeRecall, RecallEffort).",
        },
    ),
    "digits": (
        ("--digits",),
        {
            "type": Range(int, 0, 17),
            "default": 4,
            "show_default": True,
            "metavar": "N",
            "help": "Decimals in table output.",
        },
    ),
    "output": (
        ("-o", "--output"),
        {
            "type": file_path,
            "metavar": "FILE",
            "help": "Write to this file instead of standard output.",
        },
    ),
}


JUDGING = ("ties", "seed", "depth", "judged_only", "complete")
"""The options that say how rankings are read and judged, named as the library's keywords."""


def values(args: argparse.Namespace, *names: str) -> dict[str, Any]:
    """The parsed ``names`` as keyword arguments; ``N|FILE`` values become a number or a path."""
    out = {name: getattr(args, name) for name in names}
    for name in ("collection_size", "target"):
        if name in out:
            out[name] = number_or_path(out[name])
    return out


# ------------------------------------------------------------------------------ the parser
def _did_you_mean(word: str, candidates: Iterable[str]) -> str:
    from difflib import get_close_matches  # only on this error path

    close = get_close_matches(word, list(candidates), n=3)
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
        """The positional ``QRELS RUNS...`` of the commands that evaluate runs."""
        self.add_argument("qrels", metavar="QRELS", type=file_path, help=SUPPRESS)
        self.add_argument("runs", metavar="RUNS", type=file_path, nargs="+", help=SUPPRESS)

    def option(self, *flags: str, show_default: bool = False, **kw: Any) -> argparse.Action:
        """``add_argument``, with the default and any range noted after the help as click did."""
        notes = []
        if show_default:
            default = kw.get("default")
            if kw.get("action") is Switch:
                default = flags[0 if default else 1].lstrip("-")
            notes.append(f"default: {default}")
        if isinstance(kw.get("type"), Range):
            notes.append(str(kw["type"]))
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
            self.option(*flags, dest=name, **{**kw, **overrides})

    def parse(self, argv: Sequence[str]) -> argparse.Namespace:
        """Parse ``argv``: options may come between arguments; anything unknown is an error."""
        args, extras = self.parse_known_intermixed_args(list(argv))
        if extras:
            self.error(self.unknown(extras))
        return args

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
        parser.print_help(sys.stderr)
        sys.exit(2)
    parser.error(f"no such command {args.command!r}{_did_you_mean(args.command, commands)}")
