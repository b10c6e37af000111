"""Playing one setting: `run`, `trace`, `compare` (strategies on the same seeds), `check`
(under the rules checker) and `pool` (runs of different seeds made one)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from experiments.cli.common import (
    GameArg,
    GamesHelp,
    JsonOpt,
    OverwriteOpt,
    RulesOpt,
    SeedOpt,
    SetOpt,
    StrategyOpt,
    cannot_write,
    check_index,
    claim_out,
    common_options,
    entrants_option,
    fail,
    games_option,
    message,
    out_option,
    shortcut_overrides,
    unmake_out,
    write_claimed,
)
from experiments.storage.jsonout import json_text
from experiments.storage.outdir import OutDirError
from simcore.registry import game_names, get_game
from simcore.rules_data import RulesError


@common_options
def run(
    game: GameArg,
    games: games_option(GamesHelp) = 100_000,
    *, seed, set_, strategy, rules, threads,
    out: out_option("Also keep the run here: summary.json, every playout (playouts.parquet), "
                    "results.csv, report.md (for `pool`).") = None,
    overwrite, json_out, quiet, shortcuts,
) -> None:
    """Play one configuration and report win rates with 95% intervals."""
    from experiments.running.runfolder import save_run
    from experiments.running.runner import (
        RunInterrupted,
        TooManyGamesError,
        format_summary,
        run_config,
        set_threads,
    )

    try:
        get_game(game)
        overrides = shortcut_overrides(game, set_, shortcuts)
        config = get_game(game).configure(overrides, strategy, rules)
    except (RulesError, KeyError) as exc:
        fail(message(exc))
    made, _ = claim_out(out, "run", overwrite)
    set_threads(threads, say=True)
    try:
        result = run_config(config, games, seed, quiet=quiet,
                            announce=not (quiet or json_out))
    except (RulesError, KeyError, TooManyGamesError) as exc:
        unmake_out(out, made)
        fail(message(exc))
    except RunInterrupted as exc:
        _interrupted_run(exc, out, made)
    except KeyboardInterrupt:  # (while compiling, before any game)
        unmake_out(out, made)
        typer.echo("\ninterrupted before any game was finished; nothing kept", err=True)
        raise typer.Exit(130) from None
    if out:
        write_claimed(lambda: save_run(result, out, overwrite=True), out, made)
    summary = result.summary()
    if json_out:
        typer.echo(json_text(summary))
    else:
        typer.echo(format_summary(summary))


def _interrupted_run(exc: Any, out: str | None, made: bool) -> None:
    """Ctrl-C during a run: the games finished are kept in ``out`` (a run of that many
    games, the first of the seed's playouts), or nothing is left there; one line says
    which."""
    from experiments.running.runfolder import save_run

    kept = exc.result
    if kept is None or not kept.games:
        unmake_out(out, made)
        typer.echo("\ninterrupted before any game was finished; nothing kept", err=True)
        raise typer.Exit(130)
    played = f"{kept.games:,} of {exc.asked:,} games"
    if out is None:
        typer.echo(f"\ninterrupted after {played} (nothing kept: give --out DIR to keep "
                   "the games played)", err=True)
        raise typer.Exit(130)
    try:
        save_run(kept, out, overwrite=True)  # (claimed before the games)
    except (OutDirError, OSError) as err:
        unmake_out(out, made)
        typer.echo(f"\ninterrupted after {played}; they could not be kept in {out}: {err}",
                   err=True)
        raise typer.Exit(130) from None
    typer.echo(f"\ninterrupted after {played}; those are kept in {out} as a run of "
               f"{kept.games:,} games (playouts 0 to {kept.games - 1:,} of seed {kept.seed})",
               err=True)
    raise typer.Exit(130)


def trace(
    game: GameArg,
    seed: SeedOpt = 1,
    index: Annotated[int, typer.Option(metavar="N", callback=check_index,
        help="Playout index within the run (0 to 2**63 - 1).")] = 0,
    set_: SetOpt = None,
    strategy: StrategyOpt = None,
    rules: RulesOpt = None,
    check_: Annotated[bool, typer.Option(
        "--check", metavar="",
            help="Run the rules checker at every step (games with one).")] = False,
    shortcuts: dict | None = None,
) -> None:
    """Replay one game (playout INDEX of run SEED) turn by turn, in plain words."""
    from experiments.running.runner import announce_compile

    try:
        g = get_game(game)
        if check_ and not g.kind.has_checker:
            fail(f"{g.name} has no rules checker, so --check does not apply")
        overrides = shortcut_overrides(game, set_, shortcuts)
        config = g.configure(overrides, strategy, rules)
    except (RulesError, KeyError) as exc:
        fail(message(exc))
    announce_compile(g.name, config)
    typer.echo(g.trace(config, seed, index, check=check_))


@common_options
def compare(
    game: GameArg,
    strategies: entrants_option("random,heuristic,mcts:1000{rollout=random}"),
    games: games_option("Games per strategy (at most 1,000,000,000).") = 100_000,
    *, seed, set_, rules, threads,
    out: out_option("Also write compare.json, a bar chart and a report here.") = None,
    overwrite, json_out, quiet, shortcuts,
) -> None:
    """Play each strategy on the same seeds: win rates and paired differences."""
    from experiments.running.comparison import compare as run_compare
    from experiments.running.entrants import split_entrants
    from experiments.running.runner import TooManyGamesError, set_threads

    try:
        names = split_entrants(strategies, "--strategies")
        get_game(game)
        overrides = shortcut_overrides(game, set_, shortcuts)
    except (RulesError, KeyError) as exc:
        fail(message(exc))
    try:  # every strategy and setting is checked before --out is touched
        from experiments.running.comparison import check_strategies

        check_strategies(game, names, overrides, rules)
    except (RulesError, KeyError) as exc:
        fail(message(exc))
    made, _ = claim_out(out, "compare", overwrite)
    set_threads(threads, say=True)
    try:
        result = run_compare(game, names, overrides, games=games, seed=seed,
                             rules_path=rules, quiet=quiet, announce=not (quiet or json_out))
    except (RulesError, KeyError, TooManyGamesError) as exc:
        unmake_out(out, made)
        fail(message(exc))
    except KeyboardInterrupt:
        unmake_out(out, made)
        typer.echo("\ninterrupted; nothing kept (a comparison is written when every strategy "
                   "has played)", err=True)
        raise typer.Exit(130) from None
    if out:
        write_claimed(lambda: result.write(out, overwrite=True), out, made)
    if json_out:
        typer.echo(json_text(result.summary()))
    else:
        typer.echo(result.format())


@common_options
def check(
    game: GameArg,
    games: games_option("Games to play under the checker (at most 1,000,000,000).") = 10_000,
    *, seed, set_, strategy, rules, threads, json_out, quiet, shortcuts,
) -> None:
    """Play games under the game's rules checker; exit 1 on any violation or stuck game."""
    from experiments.running.runner import announce_compile, progress_bar, set_threads

    try:
        g = get_game(game)
        if not g.kind.has_checker:
            fail(f"{g.name} has no rules checker (games that have one: " + (", ".join(
                     n for n in game_names() if get_game(n).kind.has_checker) or "none yet")
                 + ")")
        overrides = shortcut_overrides(game, set_, shortcuts)
        config = g.configure(overrides, strategy, rules)
    except (RulesError, KeyError) as exc:
        fail(message(exc))
    set_threads(threads, say=True)
    if not (quiet or json_out):
        announce_compile(g.name, config)
    bar = progress_bar(games, quiet or json_out, f"{g.name} check")
    try:
        result = g.check(config, games=games, seed=seed,
                         progress=bar.update if bar is not None else None)
    finally:
        if bar is not None:
            bar.close()
    result = dict(result)
    bad = sum(int(result.get(k, 0) or 0) for k in ("violations", "stuck", "illegal_answers"))
    if json_out:
        typer.echo(json_text(result))
    else:
        typer.echo(f"{g.title} rules check - strategy {config.strategy.name}, "
                   f"{int(result.get('games', games)):,} games, seed {seed}")
        for k, v in result.items():
            if k in ("games", "seed", "first_violation"):
                continue
            typer.echo(f"  {k.replace('_', ' ')}: {v}")
        if result.get("first_violation"):
            typer.echo(f"  first violation: {result['first_violation']}")
        typer.echo("  result: " + ("FAILED" if bad else "ok"))
    if bad:
        raise typer.Exit(1)


def pool(
    runs: Annotated[list[str], typer.Argument(metavar="RUN...",
        help="Folders written by `run --out` (or by an earlier pool).")],
    out: Annotated[str, typer.Option("--out", "-o", metavar="DIR",
        help="Folder for the pooled run.")],
    overwrite: OverwriteOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Pool runs of the same settings played with different seeds into one run (refusing
    runs that share playouts or differ in settings)."""
    from experiments.running.runfolder import pool_runs
    from experiments.running.runner import TooManyGamesError, format_summary

    if any(Path(r).resolve() == Path(out).resolve() for r in runs):
        fail(f"--out {out}: is one of the runs being pooled; give a new folder")
    try:
        summary = pool_runs(runs, out, overwrite=overwrite)
    except (OutDirError, RulesError, KeyError, TooManyGamesError) as exc:
        fail(message(exc))
    except OSError as exc:
        cannot_write(exc, out)
    typer.echo(json_text(summary) if json_out else format_summary(summary))
