"""The ``cranfield`` command: one module per subcommand, imported only when it runs."""

from __future__ import annotations

import importlib
import sys
import warnings

import click

# name -> (module, one-line help).  The help is here so that `cranfield --help` imports nothing.
COMMANDS: dict[str, tuple[str, str]] = {
    "evaluate": ("cranfield.cli.evaluate", "Evaluate runs against qrels and print measures."),
    "trec_eval": ("cranfield.cli.trec_eval", "Drop-in trec_eval 10.0 (same flags, same bytes)."),
    "compare": ("cranfield.cli.compare", "Compare runs: significance tests, agreement, per query."),
    "measures": ("cranfield.cli.measures", "List every measure: parameters, formula, source."),
    "demo": ("cranfield.cli.demo", "Evaluate the bundled example runs (works offline)."),
    "curve": ("cranfield.cli.curve", "Precision-recall, gain and recall-fallout curves and plots."),
    "ties": ("cranfield.cli.ties", "How far tie-breaking can move each run's scores."),
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        try:
            module = importlib.import_module(COMMANDS[name][0])
        except ModuleNotFoundError:
            return None
        return module.command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, help_) for name, (_, help_) in COMMANDS.items()]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="cranfield", message="cranfield %(version)s")
def cli() -> None:
    """Evaluate information retrieval runs: exact, complete, fast.

    \b
    cranfield demo
    cranfield evaluate qrels.txt run1.txt run2.txt -m AP -m P@10 -m nDCG@10
    cranfield trec_eval -q -m all_trec qrels.txt run.txt
    """


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    click.echo(f"cranfield: warning: {message}", err=True)


def main(argv: list[str] | None = None) -> None:
    """Entry point: errors become one line on stderr and exit status 2, never a traceback."""
    # one BLAS thread unless the user says otherwise: nothing here multiplies large matrices,
    # and starting OpenBLAS's thread pool is a tenth of numpy's import time
    import os

    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    from ..errors import CranfieldError

    warnings.showwarning = _show_warning
    try:
        cli.main(args=argv, prog_name="cranfield", standalone_mode=False)
    except CranfieldError as exc:
        click.echo(f"cranfield: error: {exc}", err=True)
        sys.exit(2)
    except click.exceptions.Abort:
        click.echo("cranfield: aborted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except BrokenPipeError:
        sys.stderr.close()
        sys.exit(0)
    except KeyboardInterrupt:
        click.echo("cranfield: interrupted", err=True)
        sys.exit(130)
