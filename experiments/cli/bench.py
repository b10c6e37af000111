"""`cthulhu-sim bench`: playouts per second, and each game's random-number floor."""

from __future__ import annotations

import sys
import time
from typing import Annotated

import typer

from experiments.cli.common import ThreadsOpt, check_seconds, fail
from experiments.running.limits import MAX_BENCH_SECONDS
from experiments.storage.jsonout import json_text
from simcore.game import DEFAULT_BATCH
from simcore.registry import game_names, get_game

BENCH_WARM_S = 2.0  # untimed play before each entry is timed (at most a third of --seconds)


def bench(
    json_out: Annotated[bool, typer.Option("--json", metavar="", help="Print JSON.")] = False,
    seconds: Annotated[float, typer.Option(metavar="SECONDS", callback=check_seconds,
        help=f"Seconds of play per entry (0.1 to {MAX_BENCH_SECONDS:g}).")] = 3.0,
    game: Annotated[list[str] | None, typer.Option(metavar="GAME",
        help="Only these games.")] = None,
    threads: ThreadsOpt = None,
    split: Annotated[bool, typer.Option("--split", metavar="", help=(
        "Also split one thread's time per game between the strategy and the engine, by "
        "replaying the strategy's recorded answers in the same games."))] = False,
    floor: Annotated[bool, typer.Option("--floor/--no-floor", metavar="", help=(
        "Count the random numbers a playout draws (a counting build, compiled once per "
        "version of the sources) and compare with the generator's own rate."))] = True,
    compile_: Annotated[bool, typer.Option("--compile", metavar="", help=(
        "Measure compiling instead: CPU seconds of a cold `run GAME --games 200` with the "
        "game's default strategy, in a fresh cache folder in a child process, against the "
        "same run once compiled."))] = False,
    every_strategy: Annotated[bool, typer.Option("--all", metavar="", help=(
        "With --compile: every strategy of each game, not only its default."))] = False,
    profile: Annotated[bool, typer.Option("--profile", metavar="", help=(
        "With --compile: also list the jitted functions that took longest to compile "
        "(numba's compile events)."))] = False,
) -> None:
    """Playouts per second for each game and strategy (after compilation), and each game's
    random-number floor; with --compile, what compiling costs a first run."""
    if not compile_ and (every_strategy or profile):
        fail("--all and --profile go with --compile")
    if compile_:
        _bench_compile(game or game_names(), every_strategy, profile, json_out)
        return
    import numba

    from experiments.running.runner import set_threads
    from experiments.speed import rng_floor
    from experiments.speed.strategy_cost import split_line, strategy_cost
    from strategies import registry

    set_threads(threads, say=True)
    results: dict[str, dict] = {}
    rate = 0.0  # the generator's own rate (rng_floor), measured when first needed
    chosen = game or game_names()
    for name in chosen:
        try:
            get_game(name)
        except KeyError as exc:
            fail(str(exc.args[0]))
    for name in chosen:
        g = get_game(name)
        per_strategy = {}
        search_speed: dict[str, dict] = {}
        splits: dict[str, dict] = {}
        entries = [(s, s, None) for s in registry.names(g.name)]
        if g.kind.searchable and "mcts" in registry.names(g.name):
            # the search's throughput with random rollouts too (its cheapest rollout player)
            entries.append(("mcts/random", "mcts", {"strategy.rollout": "random"}))
        for label, sname, over in entries:
            config = g.configure(over, sname)
            g.warm_up(config)
            searching = getattr(config.strategy, "search_fn", None) is not None
            n = 2 if searching else 4096
            # untimed play first, at the batch sizes the timed loop reaches: a process's first
            # second of play runs slow (Sticky, honest: 740,000/s in the first second, then
            # 779,000-782,000 each second after), and that fell on the first entry alone
            warm_until = time.perf_counter() + min(BENCH_WARM_S, seconds / 3)
            done = 0
            while time.perf_counter() < warm_until:
                g.run_batch(config, 54321, done, n)
                done += n
                n = min(n * 2, DEFAULT_BATCH)
            done = 0
            searches = 0
            t0 = time.perf_counter()
            while True:
                recs = g.run_batch(config, 12345, done, n)
                if searching:
                    searches += int(recs["searches"].sum())
                done += n
                elapsed = time.perf_counter() - t0
                if elapsed >= seconds:
                    break
                n = min(n * 2, DEFAULT_BATCH)  # the batch size real runs use
            per_strategy[label] = done / elapsed
            line = (f"{g.name:8s} {label:12s} {done / elapsed:14,.1f} playouts/s "
                    f"({done:,} games in {elapsed:.1f}s)")
            if searching:
                iters = int(config.strategy.param_dict()["iterations"])
                per_s = searches * iters / elapsed  # (not ``rate``: the generator's)
                search_speed[label] = {"iterations_per_s": per_s, "iterations": iters,
                                       "searches": searches,
                                       "rollout": config.strategy.param_dict()["rollout"]}
                line += f"; search {per_s:,.0f} iterations/s"
            if not json_out:
                typer.echo(line, err=False)
            if split and not searching:
                per_thread = done / elapsed / numba.get_num_threads()
                cost = strategy_cost(config, int(per_thread * seconds / 10) + 1)
                splits[sname] = cost
                if not json_out:
                    typer.echo(" " * 22 + split_line(cost))
        results[g.name] = {
            "playouts_per_s": per_strategy.get(g.default_strategy, max(per_strategy.values())),
            "default_strategy": g.default_strategy,
            "strategies": per_strategy,
            "threads": numba.get_num_threads(),
        }
        if search_speed:
            results[g.name]["search"] = search_speed
        if floor:
            try:
                counted = rng_floor.count_draws(g.name)
            except rng_floor.FloorError as exc:
                fail(str(exc), 1)
            rate = rate or rng_floor.generator_rate()  # once, on the same threads
            figures = rng_floor.floor_figures(counted["draws_per_playout"],
                                              results[g.name]["playouts_per_s"], rate)
            results[g.name].update(figures)
            if not json_out:
                typer.echo(rng_floor.floor_line(g.name, figures))
        if split:
            results[g.name]["split"] = dict(splits)
    if json_out:
        typer.echo(json_text(results))


def _bench_compile(chosen: list[str], every_strategy: bool, profile: bool,
                   json_out: bool) -> None:
    """``bench --compile``: each game's cold and warm run in child processes, one game at a
    time (its CPU seconds hold when the other core is busy, but not its wall-clock ones)."""
    from experiments.speed import compile_cost

    for name in chosen:
        try:
            get_game(name)
        except KeyError as exc:
            fail(str(exc.args[0]))
    todo = compile_cost.entries([get_game(n).name for n in chosen], every_strategy,
                                compile_cost.DEFAULT_GAMES)

    def done(r: compile_cost.CompileCost) -> None:
        if not json_out:
            print(f"{r.game} {r.strategy}: {r.cold_cpu_s:.1f} CPU s cold, "
                  f"{r.warm_cpu_s:.1f} once compiled", file=sys.stderr, flush=True)

    try:
        results = compile_cost.measure(todo, jobs=1, profile=profile, done=done)
    except RuntimeError as exc:
        fail(str(exc), 1)
    if json_out:
        out: dict[str, dict] = {}
        for r in results:
            out.setdefault(r.game, {})[r.strategy] = r.as_dict()
        typer.echo(json_text(out))
        return
    for line in compile_cost.table_lines(results):
        typer.echo(line)
