"""`skill`: the balance figure at rising levels of play, every seat at the same level, on the
same playouts, and whether each balance claim holds at every level."""

from __future__ import annotations

from typing import Annotated

import typer

from experiments.cli.common import (
    GameArg,
    cannot_write,
    check_resume,
    common_options,
    fail,
    games_option,
    interrupted,
    message,
    out_option,
    resume_option,
    shortcut_overrides,
)
from experiments.storage.jsonout import json_text
from experiments.storage.outdir import OutDirError
from simcore.registry import get_game
from simcore.rules_data import RulesError


@common_options
def skill(
    game: GameArg,
    levels: Annotated[str, typer.Option(metavar="LEVELS",
        help="Comma-separated levels, lowest first, written as --strategies' entrants: "
             "NAME, NAME:BUDGET (a search's iterations), NAME{key=value,...}, player files "
             "(.toml) or @FILE.toml; e.g. random,heuristic,flat_mc:200,mcts:1000.")
    ] = "random,heuristic",
    games: games_option("Games a level (every level plays the same playouts).") = 200,
    *, seed,
    order: Annotated[list[str] | None, typer.Option("--order", metavar="AXIS=V1,V2,...",
        help="A claim of order (repeatable), as `cthulhu-sim order` takes it: every level is "
             "also played at each value of AXIS (a rules-data key or a shortcut), on the "
             "same playouts, and the figure must fall from V1 to V2 and on; e.g. "
             "goo=nyarlathotep,yog-sothoth,yig,cthulhu.")] = None,
    set_, rules, threads,
    out: out_option("Also write skill.json, a chart and a report here, with every chunk of "
                    "games played (resumable).") = None,
    resume: resume_option("Finish the skill curve begun in --out, reusing every chunk of games "
                          "it finished.") = False,
    overwrite, scheduler, dask_local, json_out, quiet, shortcuts,
) -> None:
    """Every seat at the same level, for each level: the balance figure with 95% intervals,
    the stalemate share, and whether the balance claims hold as the level rises."""
    from experiments.analysis.skill import parse_levels, run_skill
    from experiments.running.distributed import ClusterStartError
    from experiments.running.runner import TooManyGamesError, set_threads

    if scheduler and dask_local:
        fail("give --scheduler or --dask-local, not both")
    check_resume("skill curve", resume, overwrite, out)
    errors = (RulesError, KeyError, TooManyGamesError, ValueError, OutDirError,
              ClusterStartError)
    try:
        g = get_game(game)
        overrides = shortcut_overrides(game, set_, shortcuts)
        level_list = parse_levels(g.name, levels)
        kwargs = dict(overrides=overrides, games=games, seed=seed, rules_path=rules, out=out,
                      resume=resume, overwrite=overwrite, orders=order, scheduler=scheduler,
                      dask_local=dask_local)
        run_skill(g.name, level_list, check_only=True, **kwargs)
    except errors as exc:
        fail(message(exc))
    except OSError as exc:
        fail(f"cannot read {exc.filename or 'a level'}: {exc.strerror or exc}")
    set_threads(threads, say=True)

    def said(lr) -> None:
        if quiet or json_out:
            return
        if lr.rate is not None:
            fig = f"{100 * lr.rate.rate:.1f}%"
        else:
            fig = " / ".join(f"{100 * r.rate:.1f}%" for r in lr.seat_rates)
        typer.echo(f"  {lr.level.label}: {fig}, stalemate {100 * lr.stalemate.rate:.1f}% "
                   f"({lr.seconds:.1f} s)", err=True)

    if not (quiet or json_out):
        typer.echo(f"{g.name}: compiling (or loading compiled code) ...", err=True)
    try:
        result = run_skill(g.name, level_list, on_level=said, **kwargs)
    except errors as exc:
        fail(message(exc))
    except OSError as exc:
        cannot_write(exc, out)
    except KeyboardInterrupt:
        interrupted(out)
    typer.echo(json_text(result.summary()) if json_out else result.format())
