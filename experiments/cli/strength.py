"""How strong the strategies are: `ladder` (random, each strategy, then search at rising
budgets) and `tournament` (every seating, ratings)."""

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


def _int_list(text: str, what: str) -> list[int]:
    try:
        values = [int(x.strip().replace("_", "")) for x in text.split(",") if x.strip()]
    except ValueError:
        fail(f"{what} {text!r}: give whole numbers separated by commas, e.g. 100,1000")
    if not values or any(v < 1 or v > 1_000_000 for v in values):
        fail(f"{what} {text!r}: each must be between 1 and 1,000,000")
    return values


def ladder(
    game: GameArg,
    games: Annotated[int, typer.Option(metavar="N", callback=check_games,
        help="Games a rung (all rungs play the same playouts).")] = 200,
    seed: SeedOpt = 1,
    budgets: Annotated[str, typer.Option(metavar="N,N,...",
        help="Search iterations of the search rungs.")] = "100,300,1000",
    search: Annotated[str, typer.Option(metavar="NAME",
        help="The search strategy of the search rungs.")] = "mcts",
    seat: Annotated[int, typer.Option(metavar="N", min=0, max=7,
        help="Competitive games: the seat the rungs play.")] = 0,
    field_: Annotated[str | None, typer.Option("--field", metavar="NAME",
        help="Competitive games: the strategy of every other seat (default: the game's).")
    ] = None,
    set_: SetOpt = None,
    rules: RulesOpt = None,
    threads: ThreadsOpt = None,
    out: Annotated[str | None, typer.Option("--out", "-o", metavar="DIR",
        help="Also write ladder.json, a chart and a report here.")] = None,
    overwrite: OverwriteOpt = False,
    json_out: JsonOpt = False,
    quiet: QuietOpt = False,
    shortcuts: dict | None = None,
) -> None:
    """A strength ladder: random, each strategy, then search at rising budgets, on the same
    playouts, with paired differences between rungs ("does more thinking still help?")."""
    from experiments.analysis.ladder import default_rungs, run_ladder
    from experiments.running.runner import TooManyGamesError, set_threads

    budget_list = _int_list(budgets, "--budgets")
    try:
        g = get_game(game)
        overrides = shortcut_overrides(game, set_, shortcuts)
        rungs = default_rungs(g.name, budget_list, search)
        from experiments.analysis.ladder import rung_config

        for r in rungs:  # every rung checked before anything is played or written
            rung_config(g, r, overrides, rules, seat, field_ or g.default_strategy)
    except (RulesError, KeyError, ValueError) as exc:
        fail(message(exc))
    made, _ = claim_out(out, "ladder", overwrite)
    set_threads(threads, say=True)

    def said(rr) -> None:
        if not (quiet or json_out):
            typer.echo(f"  {rr.rung.label}: {100 * rr.rate.rate:.1f}% "
                       f"[{100 * rr.rate.lo:.1f}, {100 * rr.rate.hi:.1f}] "
                       f"({rr.seconds:.1f} s)", err=True)

    try:
        result = run_ladder(g.name, overrides, games=games, seed=seed, rungs=rungs, seat=seat,
                            field_strategy=field_, rules_path=rules, quiet=quiet,
                            on_rung=said)
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


def tournament(
    game: GameArg,
    strategies: Annotated[str, typer.Option(metavar="NAMES",
        help="Comma-separated strategies, e.g. heuristic,rusher,mcts.")],
    games: Annotated[int, typer.Option(metavar="N", callback=check_games,
        help="Games a table (every seating of the strategies is a table).")] = 2000,
    seed: SeedOpt = 1,
    set_: SetOpt = None,
    rules: RulesOpt = None,
    threads: ThreadsOpt = None,
    out: Annotated[str | None, typer.Option("--out", "-o", metavar="DIR",
        help="Keep the tournament here (a sweep folder: results.parquet, report, "
             "tournament.json, chart-ratings.png); resumable.")] = None,
    resume: Annotated[bool, typer.Option(metavar="",
        help="Finish the tournament begun in --out.")] = False,
    overwrite: OverwriteOpt = False,
    scheduler: Annotated[str | None, typer.Option(metavar="ADDRESS",
        help="Run on the Dask cluster at this scheduler address.")] = None,
    dask_local: Annotated[int | None, typer.Option("--dask-local", metavar="N",
        min=1, max=64, help="Run on a local Dask cluster of N worker processes.")] = None,
    json_out: JsonOpt = False,
    quiet: QuietOpt = False,
    shortcuts: dict | None = None,
) -> None:
    """Every seating of the strategies (seats rotated), a win matrix with intervals and
    Bradley-Terry ratings (choix) with 95% bootstrap intervals."""
    from experiments.analysis.tournament import run_tournament, tournament_spec
    from experiments.running.distributed import ClusterStartError
    from experiments.running.runner import TooManyGamesError, set_threads
    from experiments.running.spec import SpecError
    from experiments.storage.store import SweepDirError

    names = [s.strip() for s in strategies.split(",")]
    if any(not s for s in names):
        fail(f"--strategies {strategies!r}: an empty name in the list; give names separated "
             "by commas")
    if scheduler and dask_local:
        fail("give --scheduler or --dask-local, not both")
    try:
        get_game(game)
        overrides = shortcut_overrides(game, set_, shortcuts)
        tournament_spec(game, names, games, seed, overrides, rules)
    except (RulesError, KeyError, ValueError) as exc:
        fail(message(exc))
    set_threads(threads, say=True)
    try:
        result = run_tournament(game, names, games=games, seed=seed, overrides=overrides,
                                out=out, rules_path=rules, resume=resume, overwrite=overwrite,
                                scheduler=scheduler, dask_local=dask_local,
                                progress=not (quiet or json_out))
    except (RulesError, KeyError, TooManyGamesError, SpecError, SweepDirError, OutDirError,
            ClusterStartError) as exc:
        fail(message(exc))
    except OSError as exc:
        cannot_write(exc, out)
    except KeyboardInterrupt:
        typer.echo("\ninterrupted; every finished table is saved. Run the same command with "
                   "--resume to finish." if out else "\ninterrupted", err=True)
        raise typer.Exit(130) from None
    typer.echo(json_text(result.summary()) if json_out else result.format())
