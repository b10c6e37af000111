"""`uncertainty`: a balance figure with the range its assumptions allow (every assumed number
sampled over its plausible range together, on common random numbers)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from experiments.cli.balance import (
    MetricOpt,
    _balance_prelude,
    _balance_run,
)
from experiments.cli.common import (
    GameArg,
    bounded,
    common_options,
    games_option,
    out_option,
    rows_option,
)
from experiments.storage.jsonout import json_text


@common_options
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
    games: games_option("Games per sample, all on the same playouts.") = 2000,
    *, seed, set_, strategy, rules, threads,
    out: out_option("Keep the games (resumable) and write uncertainty.json, the samples, the "
                    "chart and a report here.") = None,
    resume, overwrite, scheduler, dask_local, chunk,
    top: rows_option("Drivers in the table (0: every key).") = 10,
    json_out, quiet, shortcuts,
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
