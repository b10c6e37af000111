"""`uncertainty`: a balance figure with the range its assumptions allow (every assumed number
sampled over its plausible range together, on common random numbers)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from experiments.cli.balance import (
    ChunkOpt,
    DaskLocalOpt,
    DaskOpt,
    MetricOpt,
    ResumeOpt,
    _balance_prelude,
    _balance_run,
)
from experiments.cli.common import (
    GameArg,
    JsonOpt,
    OverwriteOpt,
    QuietOpt,
    RulesOpt,
    SeedOpt,
    SetOpt,
    StrategyOpt,
    ThreadsOpt,
    bounded,
    check_games,
)
from experiments.storage.jsonout import json_text


def uncertainty(
    game: GameArg,
    keys: Annotated[list[str] | None, typer.Option("--keys", "-k", metavar="KEY|GLOB", help=(
        "Only these assumed or public values (repeatable or comma-separated): a key, a list's "
        "key (the whole list), KEY\\[i] (one item), or a glob. Default: every assumed "
        "number."))] = None,
    samples: Annotated[int, typer.Option(metavar="N", callback=bounded(
        2, 100_000, "samples: a band needs at least two"),
        help="Samples of the assumed values (each plays --games games).")] = 64,
    method: Annotated[str, typer.Option(metavar="lhs|sobol", help=(
        "lhs: a Latin hypercube; sobol: a scrambled Sobol' sequence (scipy.stats.qmc)."))
        ] = "lhs",
    metric: MetricOpt = None,
    games: Annotated[int, typer.Option(metavar="N", callback=check_games,
        help="Games per sample, all on the same playouts.")] = 2000,
    seed: SeedOpt = 1,
    set_: SetOpt = None,
    strategy: StrategyOpt = None,
    rules: RulesOpt = None,
    threads: ThreadsOpt = None,
    out: Annotated[str | None, typer.Option("--out", "-o", metavar="DIR", help=(
        "Keep the games (resumable) and write uncertainty.json, the samples, the chart and "
        "a report here."))] = None,
    resume: ResumeOpt = False,
    overwrite: OverwriteOpt = False,
    scheduler: DaskOpt = None,
    dask_local: DaskLocalOpt = None,
    chunk: ChunkOpt = 8192,
    top: Annotated[int, typer.Option(metavar="N", callback=bounded(0, 10**6, "rows shown"),
        help="Drivers in the table (0: every key).")] = 10,
    json_out: JsonOpt = False,
    quiet: QuietOpt = False,
    shortcuts: dict | None = None,
) -> None:
    """The headline figure at the defaults and over the plausible ranges of every assumed
    value (median, 5-95%), and the assumed values that drive it most."""
    from experiments.analysis.uncertainty import run_uncertainty

    overrides = _balance_prelude(game, set_, shortcuts, scheduler, dask_local, resume,
                                 overwrite, out, threads)
    result = _balance_run(
        run_uncertainty, out, game=game, overrides=overrides, strategy=strategy,
        rules_path=rules, metric=metric, keys=keys, method=method.strip().lower(),
        samples=samples, games=games, seed=seed, resume=resume, overwrite=overwrite,
        chunk=chunk, scheduler=scheduler, dask_local=dask_local, threads=threads,
        progress=not (quiet or json_out))
    if json_out:
        typer.echo(json_text(result.summary()))
    else:
        typer.echo(result.format(top or 10**6))
        if out:
            typer.echo(f"  report: {Path(out) / 'report.html'}")
