"""The balance tools: `sensitivity` (which number moves the balance most), `tune` (what
value hits a target), `order` (claims of order checked on a sweep) and `main` (the Tiny Epic
Cthulhu balance sweep, `make run`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from experiments.cli.common import (
    GameArg,
    JsonOpt,
    QuietOpt,
    cannot_write,
    check_games,
    check_positive,
    common_options,
    fail,
    games_option,
    interrupted,
    message,
    out_option,
    rows_option,
    shortcut_overrides,
)
from experiments.storage.jsonout import json_text
from experiments.storage.outdir import OutDirError
from simcore.registry import get_game
from simcore.rules_data import RulesError

MetricOpt = Annotated[str | None, typer.Option(metavar="METRIC", help=(
    "What to move: win (cooperative games' default), seat0 (competitive games' default), "
    "seatK, gap (largest seat gap), outcome:NAME, mean:FIELD (e.g. turns)."))]
BoundsOpt = Annotated[list[str] | None, typer.Option("--bounds", metavar="KEY=LO:HI", help=(
    "The range a key may take (repeatable; within its own bounds, holding its value)."))]


def _balance_errors():
    from experiments.analysis.knobs import KnobError
    from experiments.analysis.metrics import MetricError
    from experiments.running.distributed import ClusterStartError
    from experiments.running.runner import TooManyGamesError

    return (RulesError, KeyError, KnobError, MetricError, OutDirError, TooManyGamesError,
            ClusterStartError)


def _balance_prelude(game: str, set_: list[str] | None, shortcuts: dict | None,
                     scheduler: str | None, dask_local: int | None, resume: bool,
                     overwrite: bool, out: str | None, threads: int | None) -> list[str]:
    """The options sensitivity and tune share, checked: the setting's overrides."""
    if scheduler and dask_local:
        fail("give --scheduler or --dask-local, not both")
    if resume and overwrite:
        fail("give --resume or --overwrite, not both")
    if (resume or overwrite) and not out:
        fail(f"--{'resume' if resume else 'overwrite'} applies to a folder: give --out DIR")
    try:
        get_game(game)
        overrides = shortcut_overrides(game, set_, shortcuts)
    except (RulesError, KeyError) as exc:
        fail(message(exc))
    from experiments.running.runner import set_threads

    set_threads(threads, say=True)
    return overrides


def _balance_run(run: Callable[..., Any], out: str | None, **kwargs: Any) -> Any:
    """Check everything (nothing written), then run; bad input and a refused folder end in
    one error line, an interrupt in one line saying how to resume."""
    errors = _balance_errors()
    try:
        run(check_only=True, out=out, **kwargs)
    except errors as exc:
        fail(message(exc))
    try:
        return run(out=out, **kwargs)
    except errors as exc:
        fail(message(exc))
    except OSError as exc:
        cannot_write(exc, out)
    except KeyboardInterrupt:
        interrupted(out)


@common_options
def sensitivity(
    game: GameArg,
    metric: MetricOpt = None,
    keys: Annotated[list[str] | None, typer.Option("--keys", "-k", metavar="KEY|GLOB", help=(
        "Only these keys (repeatable or comma-separated): a key, KEY\\[i], a list's key (each "
        "item), or a glob (goo.cthulhu.*; with \\[*], list items). Default: every integer and "
        "float key."))] = None,
    method: Annotated[str, typer.Option(metavar="oat|morris|sobol", help=(
        "oat: one key at a time, a step down and up; morris or sobol: every key together "
        "over ranges (SALib)."))] = "oat",
    step: Annotated[float, typer.Option(metavar="SHARE", help=(
        "oat: a float key's step as a share of its value (integers: one unit)."))] = 0.1,
    bounds: BoundsOpt = None,
    spread: Annotated[float, typer.Option(metavar="SHARE", help=(
        "morris/sobol: a key's range without --bounds, its value plus or minus this share "
        "of it."))] = 0.5,
    trajectories: Annotated[int, typer.Option(metavar="R", callback=check_positive,
        help="morris: trajectories (each plays keys + 1 configurations).")] = 10,
    levels: Annotated[int, typer.Option(metavar="P", callback=check_positive,
        help="morris: grid levels (even).")] = 4,
    samples: Annotated[int, typer.Option(metavar="N", callback=check_positive, help=(
        "sobol: base samples, a power of two (plays N x (keys + 2) configurations)."))] = 32,
    games: games_option("Games per configuration, all on the same playouts.") = 10_000,
    *, seed, set_, strategy, rules, threads,
    out: out_option("Keep the games (resumable) and write sensitivity.json, Parquet, CSV, the "
                    "chart and a report here.") = None,
    resume, overwrite, scheduler, dask_local, chunk,
    top: rows_option("Keys in the table and the chart (0: every key).") = 20,
    json_out, quiet, shortcuts,
) -> None:
    """Which numbers of the rules move the balance most: each key a step down and up on the
    same playouts (or Morris / Sobol' over ranges), ranked, with paired 95% intervals."""
    from experiments.analysis.sensitivity import run_sensitivity

    overrides = _balance_prelude(game, set_, shortcuts, scheduler, dask_local, resume,
                                 overwrite, out, threads)
    result = _balance_run(
        run_sensitivity, out, game=game, overrides=overrides, strategy=strategy,
        rules_path=rules, metric=metric, keys=keys, method=method.strip().lower(), step=step,
        bounds=bounds, spread=spread, trajectories=trajectories, levels=levels,
        samples=samples, games=games, seed=seed, resume=resume, overwrite=overwrite,
        chunk=chunk, scheduler=scheduler, dask_local=dask_local, threads=threads,
        progress=not (quiet or json_out), top=top or None)
    if json_out:
        typer.echo(json_text(result.summary()))
    else:
        typer.echo(result.format(top or None))
        if out:
            typer.echo(f"  report: {Path(out) / 'report.html'}")


@common_options
def tune(
    game: GameArg,
    target: Annotated[str, typer.Option(metavar="TARGET", help=(
        "What to hit: a value (0.5 or 50%) of --metric, METRIC=VALUE (win=0.5), fair (every "
        "seat's win rate equal), or levels of a setting (normal=0.6,hard=0.45,madness=0.3)."))],
    vary: Annotated[list[str], typer.Option(metavar="KEY", help=(
        "The key to tune (KEY, or a list's item as KEY\\[i]); repeat for several (then an "
        "optimiser)."))],
    metric: MetricOpt = None,
    bounds: BoundsOpt = None,
    tol: Annotated[float | None, typer.Option(metavar="X", help=(
        "A float key's tolerance (default: a hundredth of its range)."))] = None,
    games: games_option("Games of a probe's first measurement (doubled while it is "
                        "undecided), or of an optimiser's trial.") = 4096,
    max_games: Annotated[int, typer.Option("--max-games", metavar="N", callback=check_games,
        help="The most games one value is played on in the search.")] = 65536,
    budget: Annotated[int | None, typer.Option(metavar="N", callback=check_games, help=(
        "Several keys: games of trials in all (default 40 trials).") )] = None,
    penalty: Annotated[float, typer.Option(metavar="X", help=(
        "Several keys: cost per key moved across its whole range, added to the distance to "
        "the target."))] = 0.0,
    confirm: Annotated[int, typer.Option(metavar="N", callback=check_games, help=(
        "Fresh games that confirm the answer."))] = 20_000,
    *, seed, set_, strategy, rules, threads,
    out: out_option("Keep the games (resumable) and write tune.json, the path, a rules file "
                    "with the answer, the chart and a report here.") = None,
    resume, overwrite, scheduler, dask_local, chunk,
    json_out, quiet, shortcuts,
) -> None:
    """What value hits a target: a bisection on one key (an optimiser on several) over the
    same playouts, the answer confirmed on fresh games with its 95% interval."""
    from experiments.analysis.tune import run_tune

    overrides = _balance_prelude(game, set_, shortcuts, scheduler, dask_local, resume,
                                 overwrite, out, threads)
    if target.strip().lower() == "fair":
        _check_fair(game, overrides, strategy, rules)
    result = _balance_run(
        run_tune, out, game=game, overrides=overrides, target=target, vary=vary,
        strategy=strategy, rules_path=rules, metric=metric, bounds=bounds, tol=tol,
        games=games, max_games=max_games, budget=budget, penalty=penalty,
        confirm_games=confirm, seed=seed, resume=resume, overwrite=overwrite, chunk=chunk,
        scheduler=scheduler, dask_local=dask_local, threads=threads,
        progress=not (quiet or json_out))
    if json_out:
        typer.echo(json_text(result.summary()))
    else:
        typer.echo(result.format())
        if out:
            typer.echo(f"  report: {Path(out) / 'report.html'}")


def _check_fair(game: str, overrides: list[str], strategy: str | None,
                rules: str | None) -> None:
    """``--target fair`` of a setting with one seat (a solitaire game): nothing to make fair."""
    g = get_game(game)
    if g.kind.cooperative:
        return  # (the tune itself says a cooperative game has no seats to make equal)
    try:
        config = g.configure(overrides, strategy, rules)
    except (RulesError, KeyError) as exc:
        fail(message(exc))
    if g.seats(config.rules) < 2:
        players = config.rules.resolved().get("players")
        where = (f" at {players} player{'s' if players != 1 else ''}"
                 if isinstance(players, int) and not isinstance(players, bool) else " here")
        fail(f"--target fair: {g.name} has one seat{where} (a solitaire game), so there are "
             "no seats to make fair; give the seat's win rate to hit (seat0=0.5), or more "
             "players")


def order(
    folder: Annotated[str, typer.Argument(metavar="DIR", help="A sweep's output folder.")],
    claims: Annotated[list[str], typer.Option("--order", metavar="AXIS=V1,V2,...",
        help="A claimed order: the rate falls from V1 to V2 ... (values of the sweep's AXIS, "
             "highest first); repeat for several.")],
    metric: Annotated[str, typer.Option("--metric", metavar="METRIC",
        help="win (a cooperative game's team win rate), seatK or outcome:NAME.")] = "win",
    columns: Annotated[str | None, typer.Option("--columns", metavar="AXIS",
        help="The axis across the table of every cell (default: the last).")] = None,
    json_out: JsonOpt = False,
) -> None:
    """Check a sweep against claimed orders (the rate falls along an axis's values, with the
    95% intervals of neighbours apart, in every combination of the other axes): every cell,
    every verdict; exit 1 when a claim fails."""
    from experiments.analysis import order as od
    from experiments.running.sweep import load_sweep

    try:
        result = load_sweep(folder)
    except (FileNotFoundError, OutDirError) as exc:
        fail(str(exc))
    try:
        parsed = [od.parse_claim(c, result.axes) for c in claims]
        check = od.check_orders(result.results, result.axes, parsed, metric)
        table = od.cell_table(result.results, result.axes, metric, columns)
    except od.OrderError as exc:
        fail(str(exc))
    if json_out:
        typer.echo(json_text(od.check_json(check)))
    else:
        m = result.manifest
        games = sorted({int(g) for g in result.results["games"]})
        games_text = ", ".join(f"{g:,}" for g in games)
        typer.echo(f"{m.get('game_title', m['game'])}: {folder} (strategy "
                   f"{m.get('strategy', '?')}, seed {m.get('seed', '?')}, {games_text} games a "
                   f"cell); {od.METRIC_WORDS.get(metric, metric)} in percent [95% interval]\n")
        typer.echo(table + "\n")
        typer.echo(od.format_check(check))
    if not check.holds:
        raise typer.Exit(1)


TEC_SPEC = "tec-balance.toml"
TEC_OUT = "reports/tec-balance"


def main(
    quiet: QuietOpt = False,
    out: Annotated[str, typer.Option("--out", "-o", metavar="DIR",
        help="Report folder (Tiny Epic Cthulhu).")
                   ] = TEC_OUT,
    overwrite: Annotated[bool, typer.Option(metavar="",
        help="Replace another sweep in --out (only files a sweep writes).")] = False,
) -> None:
    """The main job (`make run`): the Tiny Epic Cthulhu balance sweep (every Great Old One x
    difficulty x player count) with its report."""
    from experiments.reporting.report import format_sweep
    from experiments.running.runner import TooManyGamesError
    from experiments.running.spec import SpecError
    from experiments.running.sweep import run_sweep

    spec = Path(__file__).parent.parent / "specs" / TEC_SPEC
    try:
        result = run_sweep(spec, out, resume="auto", overwrite=overwrite, progress=not quiet)
    except (SpecError, OutDirError, TooManyGamesError) as exc:
        fail(str(exc))
    except OSError as exc:
        cannot_write(exc, out)
    except KeyboardInterrupt:
        typer.echo("\ninterrupted; finished cells are saved. Run `make run` again to finish.",
                   err=True)
        raise typer.Exit(130) from None
    typer.echo(format_sweep(result))
