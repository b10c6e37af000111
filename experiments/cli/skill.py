"""`skill`: the balance figure at rising levels of play, every seat at the same level, on the
same playouts, and whether each balance claim holds at every level."""

from __future__ import annotations

from typing import Annotated

import typer

from experiments.cli.balance import DaskLocalOpt, DaskOpt
from experiments.cli.common import (
    GameArg,
    JsonOpt,
    OverwriteOpt,
    QuietOpt,
    RulesOpt,
    SeedOpt,
    SetOpt,
    ThreadsOpt,
    cannot_write,
    check_games,
    fail,
    message,
    shortcut_overrides,
)
from experiments.storage.jsonout import json_text
from experiments.storage.outdir import OutDirError
from simcore.registry import get_game
from simcore.rules_data import RulesError


def skill(
    game: GameArg,
    levels: Annotated[str, typer.Option(metavar="LEVELS",
        help="Comma-separated levels, lowest first, written as --strategies' entrants: "
             "NAME, NAME:BUDGET (a search's iterations), NAME{key=value,...}, player files "
             "(.toml) or @FILE.toml; e.g. random,heuristic,flat_mc:200,mcts:1000.")
    ] = "random,heuristic",
    games: Annotated[int, typer.Option(metavar="N", callback=check_games,
        help="Games a level (every level plays the same playouts).")] = 200,
    seed: SeedOpt = 1,
    order: Annotated[list[str] | None, typer.Option("--order", metavar="AXIS=V1,V2,...",
        help="A claim of order (repeatable), as `cthulhu-sim order` takes it: every level is "
             "also played at each value of AXIS (a rules-data key or a shortcut), on the "
             "same playouts, and the figure must fall from V1 to V2 and on; e.g. "
             "goo=nyarlathotep,yog-sothoth,yig,cthulhu.")] = None,
    set_: SetOpt = None,
    rules: RulesOpt = None,
    threads: ThreadsOpt = None,
    out: Annotated[str | None, typer.Option("--out", "-o", metavar="DIR",
        help="Also write skill.json, a chart and a report here, with every chunk of games "
             "played (resumable).")] = None,
    resume: Annotated[bool, typer.Option(metavar="",
        help="Finish the skill curve begun in --out, reusing every chunk of games it "
             "finished.")] = False,
    overwrite: OverwriteOpt = False,
    scheduler: DaskOpt = None,
    dask_local: DaskLocalOpt = None,
    json_out: JsonOpt = False,
    quiet: QuietOpt = False,
    shortcuts: dict | None = None,
) -> None:
    """Every seat at the same level, for each level: the balance figure with 95% intervals,
    the stalemate share, and whether the balance claims hold as the level rises."""
    from experiments.analysis.skill import parse_levels, run_skill
    from experiments.running.distributed import ClusterStartError
    from experiments.running.runner import TooManyGamesError, set_threads

    if scheduler and dask_local:
        fail("give --scheduler or --dask-local, not both")
    if resume and not out:
        fail("--resume: finishes the skill curve begun in --out; give --out DIR (the folder "
             "it was begun in)")
    if resume and overwrite:
        fail("--resume and --overwrite: give one (--resume finishes the skill curve in --out, "
             "--overwrite starts it afresh)")
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
        if out:
            typer.echo(f"\ninterrupted; every chunk of games finished is saved in {out}. Run "
                       "the same command with --resume to finish.", err=True)
        else:
            typer.echo("\ninterrupted (nothing kept: give --out DIR to keep the games played)",
                       err=True)
        raise typer.Exit(130) from None
    typer.echo(json_text(result.summary()) if json_out else result.format())
