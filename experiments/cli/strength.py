"""How strong the strategies are: `ladder` (random, each strategy, then search at rising
budgets) and `tournament` (every seating, ratings)."""

from __future__ import annotations

from typing import Annotated

import typer

from experiments.cli.common import (
    GameArg,
    cannot_write,
    check_resume,
    claim_out,
    common_options,
    entrants_option,
    fail,
    games_option,
    message,
    out_option,
    resume_option,
    shortcut_overrides,
    unmake_out,
    write_claimed,
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
    twice = sorted({v for v in values if values.count(v) > 1})
    if twice:
        fail(f"{what} {text!r}: {twice[0]:,} is given twice; give each budget once")
    return values


def _no_strategy_settings(overrides, command: str, where: str) -> None:
    """``--set strategy.X`` has no one strategy to go to in a ladder or a tournament: each
    entrant takes its own settings in the entrant syntax."""
    from simcore.rules_data import parse_overrides

    strat = sorted(k for k in parse_overrides(overrides) if k.startswith("strategy"))
    if strat:
        fail(f"--set {strat[0]}: a {command}'s strategies take their settings in the entrant "
             f"syntax, each its own, e.g. {where}")


@common_options
def ladder(
    game: GameArg,
    games: games_option("Games a rung (all rungs play the same playouts).") = 200,
    *, seed,
    budgets: Annotated[str | None, typer.Option(metavar="N,N,...",
        help="Searchable games: search iterations of the search rungs (default "
             "100,300,1000).")] = None,
    search: Annotated[str | None, typer.Option(metavar="ENTRANT",
        help="Searchable games: the search strategy of the search rungs, with any parameters "
             "of its own, e.g. 'mcts{rollout=random}' (default mcts).")] = None,
    seat: Annotated[int | None, typer.Option(metavar="N", min=0, max=7,
        help="Competitive games: the seat the rungs play (default 0).")] = None,
    field_: Annotated[str | None, typer.Option("--field", metavar="ENTRANT",
        help="Competitive games: the strategy of every other seat (default: the game's), "
             "e.g. heuristic, 'heuristic{aggression=0.9}' or mcts:500.")
    ] = None,
    set_, rules, threads,
    out: out_option("Also write ladder.json, a chart and a report here.") = None,
    overwrite, json_out, quiet, shortcuts,
) -> None:
    """A strength ladder: random, each strategy, then search at rising budgets, on the same
    playouts, with paired differences between rungs ("does more thinking still help?")."""
    from experiments.analysis.ladder import default_rungs, run_ladder, rung_config
    from experiments.running.entrants import parse_entrant
    from experiments.running.runner import TooManyGamesError, set_threads

    try:
        g = get_game(game)
        overrides = shortcut_overrides(game, set_, shortcuts)
        _no_strategy_settings(overrides, "ladder",
                              "--search 'mcts{depth=5}' or --field 'heuristic{aggression=0.9}'")
        base = g.configure(overrides, None, rules)  # the game's settings first, by key
    except (RulesError, KeyError, ValueError) as exc:
        fail(message(exc))
    if not g.cooperative and field_ is not None and g.seats(base.rules) < 2:
        fail(f"--field: {g.name} has one seat here (a solitaire game), so there is no field "
             "for --field to set")
    if g.cooperative:
        for given, opt in ((seat, "--seat"), (field_, "--field")):
            if given is not None:
                fail(f"{opt}: {g.name} is cooperative (one team, no seat against a field), so "
                     f"{opt} does not apply; the ladder rates the team's strategies")
    budget_list = _int_list(budgets if budgets is not None else "100,300,1000", "--budgets")
    try:
        from strategies import registry

        searches = [n for n, sp in registry.specs(g.name).items() if sp.search is not None]
        s_entrant = parse_entrant(g.name, search or "mcts", "--search", allowed=searches,
                                  budget=False, where="is not a search strategy of "
                                  f"{g.name}") if g.kind.searchable else None
        if s_entrant is not None and "iterations" in dict(s_entrant.params):
            fail(f"--search {search!r}: the search rungs' iterations are --budgets; leave "
                 "iterations out of --search")
        f_entrant = parse_entrant(g.name, field_, "--field") if field_ is not None else None
        rungs = default_rungs(g.name, budget_list, s_entrant.name if s_entrant else "mcts",
                              s_entrant.settings() if s_entrant else None)
        seat_ = seat if seat is not None else 0
        for r in rungs:  # every rung checked before anything is played or written
            rung_config(g, r, overrides, rules, seat_, f_entrant or g.default_strategy)
    except (RulesError, KeyError, ValueError) as exc:
        fail(message(exc))
    if not g.kind.searchable:  # (after the rungs' own checks: a bad --seat is named first)
        for given, opt in ((budgets, "--budgets"), (search, "--search")):
            if given is not None:
                fail(f"{opt}: {g.name} has no search strategies, so {opt} does not apply; "
                     "its ladder is random and each of its strategies")
    made, _ = claim_out(out, "ladder", overwrite)
    set_threads(threads, say=True)

    def said(rr) -> None:
        if not (quiet or json_out):
            typer.echo(f"  {rr.rung.label}: {100 * rr.rate.rate:.1f}% "
                       f"[{100 * rr.rate.lo:.1f}, {100 * rr.rate.hi:.1f}] "
                       f"({rr.seconds:.1f} s)", err=True)

    try:
        result = run_ladder(g.name, overrides, games=games, seed=seed, rungs=rungs, seat=seat_,
                            field_strategy=f_entrant, rules_path=rules, quiet=quiet,
                            on_rung=said)
    except (RulesError, KeyError, TooManyGamesError, ValueError) as exc:
        unmake_out(out, made)
        fail(message(exc))
    if out:
        write_claimed(lambda: result.write(out, overwrite=True), out, made)  # (claimed above)
    typer.echo(json_text(result.summary()) if json_out else result.format())


@common_options
def tournament(
    game: GameArg,
    strategies: entrants_option("heuristic,rusher,mcts:100,mcts:1000"),
    games: games_option("Games a table (every seating of the strategies is a table).") = 2000,
    *, seed, set_, rules, threads,
    out: out_option("Keep the tournament here (a sweep folder: results.parquet, report, "
                    "tournament.json, chart-ratings.png); resumable.") = None,
    resume: resume_option("Finish the tournament begun in --out.") = False,
    overwrite,
    scheduler: Annotated[str | None, typer.Option(metavar="ADDRESS",
        help="Run on the Dask cluster at this scheduler address.")] = None,
    dask_local: Annotated[int | None, typer.Option("--dask-local", metavar="N",
        min=1, max=64, help="Run on a local Dask cluster of N worker processes.")] = None,
    json_out, quiet, shortcuts,
) -> None:
    """Every seating of the strategies (seats rotated), a win matrix with intervals and
    Bradley-Terry ratings (choix) with 95% bootstrap intervals."""
    from experiments.analysis.tournament import run_tournament, tournament_spec
    from experiments.running.distributed import ClusterStartError
    from experiments.running.entrants import split_entrants
    from experiments.running.runner import TooManyGamesError, set_threads
    from experiments.running.spec import SpecError
    from experiments.storage.store import SweepDirError

    if scheduler and dask_local:
        fail("give --scheduler or --dask-local, not both")
    check_resume("tournament", resume, overwrite, out)
    try:
        get_game(game)
        names = split_entrants(strategies, "--strategies")
        overrides = shortcut_overrides(game, set_, shortcuts)
        _no_strategy_settings(overrides, "tournament",
                              "--strategies 'heuristic,mcts:1000{depth=5}'")
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
