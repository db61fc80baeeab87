"""What the subcommands share: an argparse parser with click's conventions, checked option
types (number ranges, ``N|FILE`` values, number lists, output files), and the options several
commands have.  Where output goes is ``_output``'s business.

Standard library only: argparse imports in about 3 ms, click took 25-30 ms of the start-up budget.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, NoReturn

from cranfield.base.limits import INT64_MAX, MAX_DOCUMENTS, MAX_RESAMPLES, MAX_SEED
from cranfield.cli._output import echo, write_stderr

SUPPRESS = argparse.SUPPRESS


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


def _names_files(kind: Any) -> bool:
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


# ------------------------------------------------------------------------------ options
# the options several commands share: name (= dest) -> (flags, add_argument keywords);
# a command may override any keyword (its own help text, choices, default)
COMMON: dict[str, tuple[tuple[str, ...], dict[str, Any]]] = {
    "measures": (("-m", "--measure"), {"action": "append", "default": [], "metavar": "MEASURE"}),
    "per_query": (("-q", "--per-query"), {"action": "store_true"}),
    "fmt": (("-f", "--format"), {"default": "table", "show_default": True}),
    "ties": (("--ties",), {"default": "trec", "show_default": True}),
    "alpha": (
        ("--alpha",),
        {
            "type": Range(float, 0, 1, open=True),
            "default": 0.05,
            "show_default": True,
            "help": "Significance level.",
        },
    ),
    "alternative": (
        ("--alternative",),
        {
            "choices": ("two-sided", "greater", "less"),
            "default": "two-sided",
            "show_default": True,
            "help": "greater: mean(b) > mean(a), with b the later run of a pair.",
        },
    ),
    "permutations": (
        ("--permutations",),
        {
            "type": Range(int, 1, MAX_RESAMPLES),
            "default": 10_000,
            "show_default": True,
            "help": "Permutations of the randomization test / samples of the bootstrap.",
        },
    ),
    "seed": (
        ("--seed",),
        {"type": Range(int, 0, MAX_SEED), "metavar": "N", "help": "Seed of --ties random."},
    ),
    "depth": (
        ("-M", "--depth"),
        {
            "type": Range(int, 0, INT64_MAX),
            "metavar": "N",
            "help": "Keep only the first N documents of each ranking (trec_eval -M).",
        },
    ),
    "bounds": (
        ("--bounds",),
        {
            "action": "store_true",
            "help": "Also each measure's bounds over the run's unjudged documents: MEASURE:lo "
            "(judged non-relevant) and MEASURE:hi (judged with the query's top grade; R grows "
            "by them). See 'cranfield docs judgments'.",
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
        ("-c", "--complete", "--no-complete"),
        {
            "action": Switch,
            "default": True,
            "show_default": True,
            "help": "Which queries a mean is over: every judged query of the qrels, a judged "
            "query a run has no results for scored as an empty ranking (trec_eval -c); "
            "--no-complete: each run's judged queries with results (trec_eval's default).",
        },
    ),
    "collection_size": (
        ("--collection-size",),
        {
            "type": CountOrFile(Range(int, 1, MAX_DOCUMENTS)),
            "metavar": "N|FILE",
            "help": "Documents in the collection: one number, or a file of 'qid N' lines "
            "(needed by {needed_by}).",
        },
    ),
    "known": (
        ("--known",),
        {
            "type": file_path,
            "metavar": "FILE",
            "help": "Documents known to the user, qrels format, grade > 0 = known "
            "(needed by {needed_by}).",
        },
    ),
    "target": (
        ("--target",),
        {
            "type": CountOrFile(Range(int, 1, MAX_DOCUMENTS)),
            "metavar": "N|FILE",
            "help": "Relevant documents the user wants: one number, or a file of 'qid N' lines "
            "(needed by {needed_by}).",
        },
    ),
    "prefs": (
        ("--prefs",),
        {
            "type": file_path,
            "metavar": "FILE",
            "help": "Preference judgments, trec_eval's -R prefs format 'qid jg jsg docno "
            "rel_level' (needed by {needed_by}).",
        },
    ),
    "prefs_format": (
        ("--prefs-format",),
        {
            "choices": ("prefs", "qrels"),
            "default": "prefs",
            "show_default": True,
            "help": "Format of --prefs: 'prefs' (5 columns) or 'qrels' (a qrels file whose "
            "second column is the judgment group: trec_eval's -R qrels_prefs).",
        },
    ),
    "judgment_groups": (
        ("--judgment-groups",),
        {
            "type": file_path,
            "metavar": "FILE",
            "help": "Judgments by judgment group: a qrels file whose second column names the "
            "group, trec_eval's -R qrels_jg (needed by {needed_by}).",
        },
    ),
    "subtopics": (
        ("--subtopics",),
        {
            "type": file_path,
            "metavar": "FILE",
            "help": "Subtopic judgments, ndeval's qrels 'topic subtopic docno judgment' (needed "
            "by {needed_by}); QRELS may name the same file.",
        },
    ),
    "names": (
        ("--names",),
        {
            "type": name_list,
            "action": "extend",
            "metavar": "NAME,...",
            "help": "Names of the runs, in order: a comma list, or the option repeated "
            "(default: the file names, with enough of the path to tell apart equal ones).",
        },
    ),
    "rel": (
        ("-l", "--rel"),
        {
            "type": Range(int, 0, INT64_MAX),
            "metavar": "N",
            "help": "Minimum grade counted relevant (trec_eval -l) by every measure whose "
            "string does not set rel= itself (default 1).",
        },
    ),
    "jobs": (
        ("-j", "--jobs"),
        {
            "type": Range(int, 1, 1024),
            "metavar": "N",
            "help": "Cores to use: runs evaluated at once in worker processes, or a large "
            "run read in one thread and measured in another (default: the number of cores; "
            "run files under 64 MiB together use one process). The output is the same "
            "whatever N.",
        },
    ),
    "dask": (
        ("--dask",),
        {
            "metavar": "ADDRESS",
            "help": "Work on the Dask cluster whose scheduler is at ADDRESS "
            "(tcp://host:8786): one task per run file or per query range of a large TREC "
            "text run (each worker gets the qrels once and reads its files from storage it "
            "sees), and compare's randomization/bootstrap tests. The output is the same "
            "bytes as without it. Needs the dask extra; not with -j.",
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
            "type": output_file,
            "metavar": "FILE",
            "help": "Write to this file instead of standard output (replaced only once the "
            "output is complete).",
        },
    ),
}


OUTPUTS = ("output", "plot_path")
"""Destinations of the options that name a file to write."""

JUDGING = ("ties", "seed", "depth", "judged_only", "complete")
"""The options that say how rankings are read and judged, named as the library's keywords."""
SIDE_INPUTS = ("collection_size", "known", "target")
"""The options of the measures' side inputs (:mod:`cranfield.judging.side_inputs`)."""
JUDGMENT_FILES = ("prefs", "judgment_groups", "subtopics")
"""The other judgment files, for the preference, judgment-group and diversity measures
(evaluate and compare; ``--prefs-format`` says how ``--prefs`` is read)."""


@contextlib.contextmanager
def cluster(parser: Parser, args: argparse.Namespace) -> Iterator[Any]:
    """The executor of ``--dask`` (its client closed at the end), or ``None``; ``-j`` with
    ``--dask`` is a usage error.  Its waits are watched (a scheduler silent or a cluster
    without workers for a minute is an error: :class:`~cranfield.scale.dask_executor.DaskExecutor`)
    and Dask's own log messages are not shown: a failure of the cluster is one error."""
    address = getattr(args, "dask", None)
    if address is None:
        yield None
        return
    if getattr(args, "jobs", None) is not None:
        parser.error(
            "argument --dask: not allowed with -j/--jobs (the cluster's workers run the work)"
        )
    from cranfield.scale.dask_executor import CLOSE_SECONDS, DaskExecutor, connect

    client = connect(address, quiet=True)
    try:
        yield DaskExecutor(client, watch=True)
    finally:
        with contextlib.suppress(Exception):  # a cluster gone meanwhile: nothing to close
            client.close(timeout=CLOSE_SECONDS)


def values(args: argparse.Namespace, *names: str) -> dict[str, Any]:
    """The parsed ``names`` as keyword arguments (``prefs`` read in its ``--prefs-format``)."""
    out = {name: getattr(args, name) for name in names}
    if out.get("prefs") is not None and getattr(args, "prefs_format", "prefs") == "qrels":
        from cranfield.io.trec.judgment_files import read_prefs

        out["prefs"] = read_prefs(out["prefs"], qrels_format=True)
    return out


def needed_by(side_input: str) -> str:
    """The measures whose declarations need ``side_input`` (``needs=``), for the help text:
    from the index of the declarations, without importing every family."""
    from cranfield.measures.index import NEEDS

    names = NEEDS.get(side_input, [])
    if len(names) > 8:
        prefix = names[0].split("_")[0] + "_"
        if all(n.startswith(prefix) for n in names):
            return f"the {len(names)} {prefix}* measures"
    return ", ".join(names) or "no measure"


# ------------------------------------------------------------------------------ the parser
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
        files = {a.dest for a in self._actions if _names_files(a.type)}
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
