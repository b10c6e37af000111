"""`skill`: the balance figure at rising levels of play, every seat at the same level, on the
same playouts, and whether each balance claim holds at every level."""

from __future__ import annotations

from typing import Annotated

import typer

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
    claim_out,
    fail,
    message,
    shortcut_overrides,
    unmake_out,
)
from experiments.storage.jsonout import json_text
from experiments.storage.outdir import OutDirError
from simcore.registry import get_game
from simcore.rules_data import RulesError


def skill(
    game: GameArg,
    levels: Annotated[str, typer.Option(metavar="LEVELS",
        help="Comma-separated levels, lowest first: strategy names, player files (.toml) "
             "and search:budget, e.g. random,heuristic,flat_mc:200,mcts:1000.")
    ] = "random,heuristic",
    games: Annotated[int, typer.Option(metavar="N", callback=check_games,
        help="Games a level (every level plays the same playouts).")] = 200,
    seed: SeedOpt = 1,
    set_: SetOpt = None,
    rules: RulesOpt = None,
    threads: ThreadsOpt = None,
    out: Annotated[str | None, typer.Option("--out", "-o", metavar="DIR",
        help="Also write skill.json, a chart and a report here.")] = None,
    overwrite: OverwriteOpt = False,
    json_out: JsonOpt = False,
    quiet: QuietOpt = False,
    shortcuts: dict | None = None,
) -> None:
    """Every seat at the same level, for each level: the balance figure with 95% intervals,
    the stalemate share, and whether the balance claims hold as the level rises."""
    from experiments.analysis.skill import check_levels, parse_levels, run_skill
    from experiments.running.runner import TooManyGamesError, set_threads

    try:
        g = get_game(game)
        overrides = shortcut_overrides(game, set_, shortcuts)
        level_list = parse_levels(g.name, levels)
        check_levels(g.name, level_list, overrides, rules)
    except (RulesError, KeyError, ValueError) as exc:
        fail(message(exc))
    made, _ = claim_out(out, "skill", overwrite)
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
        result = run_skill(g.name, level_list, overrides, games=games, seed=seed,
                           rules_path=rules, on_level=said)
    except (RulesError, KeyError, TooManyGamesError, ValueError) as exc:
        unmake_out(out, made)
        fail(message(exc))
    if out:
        try:
            result.write(out, overwrite=True)  # (claimed above)
        except OutDirError as exc:
            fail(str(exc))
        except OSError as exc:
            cannot_write(exc, out)
    typer.echo(json_text(result.summary()) if json_out else result.format())
