"""`train`: a strategy's numeric parameters searched with Optuna, the winner confirmed on
fresh playouts and kept as a player file (``--out FILE``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from experiments.cli.common import (
    GameArg,
    bounded,
    cannot_write,
    check_resume,
    common_options,
    fail,
    interrupted,
    message,
    out_option,
    resume_option,
    shortcut_overrides,
)
from experiments.running.limits import MAX_GAMES
from experiments.storage.jsonout import json_text
from simcore.registry import get_game
from simcore.rules_data import RulesError


@common_options
def train(
    game: GameArg,
    *, strategy,
    budget: Annotated[int, typer.Option(metavar="N", callback=bounded(
        1, MAX_GAMES, "games in all"), help="Games in all: the trials (on the same playouts) "
        "and a quarter for the confirmation on fresh playouts.")] = 4000,
    trials: Annotated[int, typer.Option(metavar="K", callback=bounded(
        2, 100_000, "trials"), help="Parameter sets tried in all (the start is the "
        "first of each round).")] = 20,
    rounds: Annotated[int | None, typer.Option(metavar="R", callback=bounded(
        1, 1000, "rounds"), help="Competitive games: rounds of training, one seat a "
        "round in turn (default: one for each seat).")] = None,
    sampler: Annotated[str, typer.Option(metavar="NAME",
        help="Optuna's sampler: tpe or cmaes (cmaes needs the cmaes package).")] = "tpe",
    seed, set_, rules, threads,
    out: out_option("Write the trained player here: a .toml player file (replaces only a "
                    "player file), or a folder keeping it (player.toml) with train.json, a "
                    "report and every trial's games (resumable).", metavar="FILE|DIR") = None,
    resume: resume_option("Finish the training begun in the folder --out DIR, reusing every "
                          "trial it finished.") = False,
    overwrite, json_out, quiet, shortcuts,
) -> None:
    """Train a strategy's parameters (Optuna, common random numbers), confirm the gain on
    fresh playouts, and keep the player as a file any --strategy accepts."""
    from experiments.analysis.train import SAMPLERS, prepare
    from experiments.analysis.train import train as run_train
    from experiments.running.runner import TooManyGamesError, set_threads
    from experiments.storage.outdir import OutDirError
    from strategies import playerfile

    if sampler not in SAMPLERS:
        fail(f"--sampler {sampler!r}: allowed: {', '.join(SAMPLERS)}")
    to_file = out is not None and playerfile.is_player_file(out)
    folder = None if out is None or to_file else out
    check_resume("training", resume, overwrite, out)
    if (resume or overwrite) and to_file:
        fail(f"--{'resume' if resume else 'overwrite'} applies to a folder: --out {out} is a "
             "player file (it is replaced when it is one); give --out DIR to keep a training "
             "that resumes")
    errors = (RulesError, KeyError, TooManyGamesError, ValueError, OutDirError)
    try:
        get_game(game)
        overrides = shortcut_overrides(game, set_, shortcuts)
        setup = prepare(game, strategy, overrides, rules)
        if to_file:
            playerfile.check_writable(out)
        kwargs = dict(budget=budget, trials=trials, rounds=rounds, seed=seed, sampler=sampler,
                      rules_path=rules, setup=setup, out=folder, resume=resume,
                      overwrite=overwrite)
        run_train(game, strategy, overrides, check_only=True, **kwargs)
    except errors as exc:
        fail(message(exc))
    set_threads(threads, say=True)

    def said(t) -> None:
        if not (quiet or json_out):
            who = "" if t.seat is None else f"seat {t.seat} "
            typer.echo(f"  round {t.round} {who}trial {t.number}: {100 * t.value:.1f}%",
                       err=True)

    if not (quiet or json_out):
        typer.echo(f"{setup.g.name}: compiling (or loading compiled code) ...", err=True)
    try:
        result = run_train(game, strategy, overrides, on_trial=said, **kwargs)
    except errors as exc:
        fail(message(exc))
    except OSError as exc:
        cannot_write(exc, out)
    except KeyboardInterrupt:
        interrupted(folder, "every trial finished", "the trials played")
    player = None
    if to_file:
        player = out
        try:
            playerfile.write(out, result.player_file())
        except RulesError as exc:
            fail(message(exc))
        except OSError as exc:
            cannot_write(exc, out)
    elif folder:
        from experiments.analysis.train import PLAYER

        player = str(Path(folder) / PLAYER)
    if json_out:
        summary = result.summary()
        if player is not None:
            summary["player_file"] = player
        typer.echo(json_text(summary))
    else:
        typer.echo(result.format())
        if player is not None:
            typer.echo(f"  player file: {player} (use it as --strategy {player})")
