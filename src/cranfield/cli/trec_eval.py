"""``cranfield trec_eval``: a drop-in for trec_eval 10.0 (its options, its output bytes).

The arguments are handed to the compat engine untouched (getopt_long rules, ``--`` included),
so click does no parsing here.
"""

from __future__ import annotations

import sys

import click


class _RawArgs(click.Command):
    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta["trec_eval_argv"] = list(args)
        ctx.args = []
        return []


@click.command("trec_eval", cls=_RawArgs, add_help_option=False)
@click.pass_context
def command(ctx: click.Context) -> None:
    """trec_eval [-h] [-q] [-m measure[.params]] [-c] [-n] [-l num] [-M num] [-J] ... qrels run"""
    from ..compat.engine import main

    status = main(ctx.meta["trec_eval_argv"])
    if status:
        sys.exit(status)
