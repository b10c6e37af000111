"""``cthulhu-sim serve``: the balance workbench (``experiments/workbench``) in a local web page."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Annotated

import typer

from experiments.cli.common import bounded, fail


def cli_words(group: object) -> SimpleNamespace:
    """What the workbench's forms take from the command line: its parser (``group``, the
    click group of ``cthulhu-sim``) and the words it uses, so a bad value in a form gets the
    line the CLI gives."""
    from experiments.cli import common, games

    return SimpleNamespace(group=group, message=common.message, _cx=common._cx,
                           _usage_line=common._usage_line, kind_text=games.kind_text,
                           _param_info=games._param_info,
                           _first_paragraph=games._first_paragraph)


def serve(
    ctx: typer.Context,
    port: Annotated[int, typer.Option(metavar="N", callback=bounded(0, 65535, "a TCP port"),
        help="Port to listen on (0: a free one).")] = 8765,
    host: Annotated[str, typer.Option(metavar="ADDRESS",
        help="Address to listen on (this machine only unless told).")] = "127.0.0.1",
    results: Annotated[str, typer.Option(metavar="DIR",
        help="The results folder: what the pages list, and where they save.")] = "reports",
    open_: Annotated[bool, typer.Option("--open", metavar="", help="Open it in a browser.")
    ] = False,
) -> None:
    """The balance workbench: run, compare, sweep and trace in a local web page, and every
    result under --results (experiments/workbench)."""
    try:
        from experiments.workbench.server import ServeError
        from experiments.workbench.server import serve as run_server
    except ImportError as exc:  # the web packages of pyproject.toml are missing
        fail(f"the workbench needs {exc.name}: install the project (pip install -e .)")
    try:
        run_server(port=port, host=host, results=results, open_browser=open_,
                   cli=cli_words(ctx.find_root().command))
    except ServeError as exc:
        fail(str(exc))
