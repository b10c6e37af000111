"""The ``cthulhu-sim`` command line.

Every mistake in what is typed ends in one ``error:`` line on stderr (exit status 2), the
tool's own checks and the command-line parser's alike; nothing is written before the input
is checked.  Game shortcuts (``--players``, ``--goo`` ...) are not written into the commands:
each game declares its own (``Game.shortcuts``) and every command that takes a GAME gets the
options of every registered game, each accepted only for the games that declare it.

This module builds the app; the commands live one group a module beside it (``games``,
``play``, ``strength``, ``bench``, ``balance``, ``sweeps``, ``serve``), what they share in
``common``.
Each command is a plain function there; :data:`COMMANDS` registers them here, in the order
``cthulhu-sim --help`` lists them, and gives those that take a GAME the shortcuts of the
games registered when this module is imported.
"""

from __future__ import annotations

from typing import Annotated

import typer

from experiments.cli import balance, bench, games, play, serve, strength, sweeps, uncertainty
from experiments.cli.common import OneLineErrors, shortcut_table, shortcuts_epilog, with_shortcuts

app = typer.Typer(
    cls=OneLineErrors,
    help="Monte Carlo balance simulator for Cthulhu tabletop games.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            typer.echo(f"cthulhu-sim {version('cthulhu-sim')}")
        except PackageNotFoundError:  # run from a source tree without installing
            typer.echo("cthulhu-sim (not installed)")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", metavar="", callback=_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    """Monte Carlo balance simulator for Cthulhu tabletop games."""


SHORTCUTS = shortcut_table()

# (name, command, whether it takes a GAME and so every game's shortcuts), as --help lists them
COMMANDS = (
    ("games", games.games, False),
    ("run", play.run, True),
    ("trace", play.trace, True),
    ("compare", play.compare, True),
    ("ladder", strength.ladder, True),
    ("tournament", strength.tournament, True),
    ("check", play.check, True),
    ("bench", bench.bench, False),
    ("sensitivity", balance.sensitivity, True),
    ("tune", balance.tune, True),
    ("uncertainty", uncertainty.uncertainty, True),
    ("sweep", sweeps.sweep, False),
    ("report", sweeps.report, False),
    ("pool", play.pool, False),
    ("list", sweeps.list_, False),
    ("diff", sweeps.diff, False),
    ("order", balance.order, False),
    ("serve", serve.serve, False),
    ("main", balance.main, False),
)

for _name, _command, _takes_game in COMMANDS:
    if _takes_game:
        app.command(_name, epilog=shortcuts_epilog())(with_shortcuts(_command, SHORTCUTS))
    else:
        app.command(_name)(_command)
