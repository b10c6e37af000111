"""`train`: a strategy's numeric parameters searched with Optuna, the winner confirmed on
fresh playouts and kept as a player file (``--out FILE``)."""

from __future__ import annotations

from typing import Annotated

import typer

from experiments.cli.common import (
    GameArg,
    JsonOpt,
    QuietOpt,
    RulesOpt,
    SeedOpt,
    SetOpt,
    StrategyOpt,
    ThreadsOpt,
    bounded,
    cannot_write,
    fail,
    message,
    shortcut_overrides,
)
from experiments.running.limits import MAX_GAMES
from experiments.storage.jsonout import json_text
from simcore.registry import get_game
from simcore.rules_data import RulesError


def train(
    game: GameArg,
    strategy: StrategyOpt = None,
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
    seed: SeedOpt = 1,
    set_: SetOpt = None,
    rules: RulesOpt = None,
    threads: ThreadsOpt = None,
    out: Annotated[str | None, typer.Option("--out", "-o", metavar="FILE",
        help="Write the trained player here (a .toml player file; replaces only a player "
             "file).")] = None,
    json_out: JsonOpt = False,
    quiet: QuietOpt = False,
    shortcuts: dict | None = None,
) -> None:
    """Train a strategy's parameters (Optuna, common random numbers), confirm the gain on
    fresh playouts, and keep the player as a file any --strategy accepts."""
    from experiments.analysis.train import SAMPLERS, prepare
    from experiments.analysis.train import train as run_train
    from experiments.running.runner import TooManyGamesError, set_threads
    from strategies import playerfile

    if sampler not in SAMPLERS:
        fail(f"--sampler {sampler!r}: allowed: {', '.join(SAMPLERS)}")
    try:
        get_game(game)
        overrides = shortcut_overrides(game, set_, shortcuts)
        setup = prepare(game, strategy, overrides, rules)
        if out is not None:
            playerfile.check_writable(out)
    except (RulesError, KeyError, ValueError) as exc:
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
        result = run_train(game, strategy, overrides, budget=budget, trials=trials,
                           rounds=rounds, seed=seed, sampler=sampler, rules_path=rules,
                           on_trial=said, setup=setup)
    except (RulesError, KeyError, TooManyGamesError, ValueError) as exc:
        fail(message(exc))
    if out is not None:
        try:
            playerfile.write(out, result.player_file())
        except RulesError as exc:
            fail(message(exc))
        except OSError as exc:
            cannot_write(exc, out)
    if json_out:
        summary = result.summary()
        if out is not None:
            summary["player_file"] = out
        typer.echo(json_text(summary))
    else:
        typer.echo(result.format())
        if out is not None:
            typer.echo(f"  player file: {out} (use it as --strategy {out})")
