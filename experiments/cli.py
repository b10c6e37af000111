"""The ``cthulhu-sim`` command line."""

from __future__ import annotations

import contextlib
import time
from typing import Annotated

import typer

from experiments.jsonout import json_text
from simcore.game import DEFAULT_BATCH
from simcore.registry import game_names, get_game
from simcore.rules_data import RulesError

app = typer.Typer(
    help="Monte Carlo balance simulator for Cthulhu tabletop games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            typer.echo(f"cthulhu-sim {version('cthulhu-sim')}")
        except PackageNotFoundError:  # run from a source tree without installing
            typer.echo("cthulhu-sim (not installed)")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", metavar="", callback=_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    """Monte Carlo balance simulator for Cthulhu tabletop games."""


GameArg = Annotated[str, typer.Argument(metavar="GAME", help="Game: " + ", ".join(game_names()))]
SetOpt = Annotated[
    list[str] | None,
    typer.Option("--set", "-s", metavar="KEY=VALUE",
        help="Override a rules-data value: key=value (repeatable)."),
]
SeedOpt = Annotated[int, typer.Option(metavar="N",
    min=0, help="Seed; playout i uses stream (seed, i).")]
StrategyOpt = Annotated[str | None, typer.Option(metavar="NAME",
    help="Strategy name (see `games`).")]
RulesOpt = Annotated[str | None, typer.Option("--rules", metavar="FILE",
    help="Use this rules data file.")]
ThreadsOpt = Annotated[int | None, typer.Option(metavar="N",
    min=1, help="Worker threads (default: all).")]


def fail(message: str, code: int = 2) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def cannot_write(exc: OSError, target: object) -> None:
    """Report a failed write (an unwritable or impossible output folder) as an error line."""
    where = exc.filename if exc.filename is not None else target
    fail(f"cannot write {where}: {exc.strerror or exc}")


def shortcut_overrides(game: str, sets: list[str] | None, **shortcuts) -> list[str]:
    """--players/--goo/--difficulty become key=value overrides (checked like any other)."""
    g = get_game(game)
    out = list(sets or [])
    seen: dict[str, str] = {}
    for item in out:  # a key set twice with different values is a mistake, not a choice
        key, _, text = item.partition("=")
        key, text = key.strip(), text.strip()
        if seen.get(key, text) != text:
            fail(f"--set {key} is given twice ({seen[key]} and {text})")
        seen[key] = text
    for name, value in shortcuts.items():
        if value is None:
            continue
        shortcut = g.shortcuts.get(name)
        if shortcut is None:
            fail(f"--{name} does not apply to {g.name}")
        key = shortcut.key
        if key in seen and seen[key] != str(value):
            fail(f"--{name} {value} and --set {key}={seen[key]} disagree")
        out.append(f"{key}={value}")
    return out


@app.command()
def games(
    game: Annotated[str | None, typer.Argument(
        metavar="GAME", help="Show every key of this game.")] = None,
    json_out: Annotated[bool, typer.Option("--json", metavar="", help="Print JSON.")] = False,
) -> None:
    """The games, their settings with defaults and sources, and their strategies."""
    from experiments.comparison import set_text
    from strategies import registry

    names = [game] if game else game_names()
    payload = {}
    for name in names:
        try:
            g = get_game(name)
        except KeyError as exc:
            fail(str(exc.args[0]))
        rules = g.default_rules()
        keys = rules.entries if game else {k: e for k, e in rules.entries.items() if "." not in k}
        payload[g.name] = {
            "title": g.title,
            "kind": "cooperative" if g.cooperative else "competitive",
            "rules_file": str(rules.path),
            "sources": rules.source_counts(),
            "strategies": {n: _first_paragraph(s.description)
                           for n, s in registry.specs(g.name).items()},
            "strategy_params": {n: {k: _param_info(prm) for k, prm in s.params.items()}
                                for n, s in registry.specs(g.name).items()},
            "default_strategy": g.default_strategy,
            "settings": {k: {"default": e.value, "source": e.source, "allowed": e.allowed(),
                             "note": e.note} for k, e in keys.items()},
        }
    if json_out:
        typer.echo(json_text(payload))
        return
    for name, info in payload.items():
        src = info["sources"]
        typer.echo(f"{name}: {info['title']} ({info['kind']})")
        typer.echo(f"  rules data: {info['rules_file']}  ({src['rulebook']} rulebook, "
                   f"{src['public']} public, {src['assumed']} assumed)")
        typer.echo("  strategies: " + ", ".join(
            f"{n}{' (default)' if n == info['default_strategy'] else ''}"
            for n in info["strategies"]))
        if game:  # each strategy's plan and its parameters (--set strategy.KEY=VALUE)
            for n, text in info["strategies"].items():
                typer.echo(f"    {n}: {text}")
                for k, prm in info["strategy_params"][n].items():
                    typer.echo(f"      strategy.{k} = {set_text(prm['default'])} {prm['allowed']}: "
                               f"{prm['help']}")
        typer.echo("  " + ("keys" if game else "settings") + " (key = default [source] allowed):")
        for k, e in info["settings"].items():
            typer.echo(f"    {k} = {set_text(e['default'])} [{e['source']}] {e['allowed']}")
        if not game:
            typer.echo(f"  (`cthulhu-sim games {name}` lists every rules-data key)")
        typer.echo("")


def _first_paragraph(text: str) -> str:
    """A docstring's first paragraph on one line (its first line may end mid-sentence)."""
    return " ".join(text.strip().split("\n\n")[0].split())


def _param_info(prm) -> dict:
    if prm.choices:
        allowed = "one of " + ", ".join(prm.choices)
    else:
        allowed = f"between {prm.lo:g} and {prm.hi:g}"
    return {"default": prm.shown(prm.default), "allowed": allowed, "help": prm.help}


@app.command()
def run(
    game: GameArg,
    games: Annotated[int, typer.Option(metavar="N", min=1, help="Number of playouts.")] = 100_000,
    seed: SeedOpt = 1,
    players: Annotated[int | None, typer.Option(metavar="N", help="Player count.")] = None,
    goo: Annotated[str | None, typer.Option(metavar="NAME", help="Great Old One (tec).")] = None,
    difficulty: Annotated[str | None, typer.Option(metavar="LEVEL",
        help="normal, hard, madness (tec).")] = None,
    set_: SetOpt = None,
    strategy: StrategyOpt = None,
    rules: RulesOpt = None,
    threads: ThreadsOpt = None,
    json_out: Annotated[bool, typer.Option("--json", metavar="",
        help="One JSON object on stdout.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", metavar="",
        help="No progress bar.")] = False,
) -> None:
    """Play one configuration and report win rates with 95% intervals."""
    from experiments.runner import TooManyGamesError, format_summary
    from experiments.runner import run as run_game

    try:
        get_game(game)
        overrides = shortcut_overrides(game, set_, players=players, goo=goo,
                                       difficulty=difficulty)
        result = run_game(game, overrides, strategy, games=games, seed=seed, threads=threads,
                          quiet=quiet, rules_path=rules, announce=not (quiet or json_out))
    except (RulesError, KeyError, TooManyGamesError) as exc:
        fail(str(exc.args[0]) if isinstance(exc, KeyError) else str(exc))
    summary = result.summary()
    if json_out:
        typer.echo(json_text(summary))
    else:
        typer.echo(format_summary(summary))


@app.command()
def trace(
    game: GameArg,
    seed: SeedOpt = 1,
    index: Annotated[int, typer.Option(metavar="N",
        min=0, help="Playout index within the run.")] = 0,
    players: Annotated[int | None, typer.Option(metavar="N", help="Player count.")] = None,
    goo: Annotated[str | None, typer.Option(metavar="NAME", help="Great Old One (tec).")] = None,
    difficulty: Annotated[str | None, typer.Option(metavar="LEVEL",
        help="normal, hard, madness (tec).")] = None,
    set_: SetOpt = None,
    strategy: StrategyOpt = None,
    rules: RulesOpt = None,
    check_: Annotated[bool, typer.Option(
        "--check", metavar="",
            help="Run the rules checker at every step (games with `check`).")] = False,
) -> None:
    """Replay one game (playout INDEX of run SEED) turn by turn, in plain words."""
    from experiments.runner import announce_compile

    try:
        g = get_game(game)
        if check_ and not g.has_checker:
            fail(f"{g.name} has no rules checker, so --check does not apply")
        overrides = shortcut_overrides(game, set_, players=players, goo=goo,
                                       difficulty=difficulty)
        config = g.configure(overrides, strategy, rules)
    except (RulesError, KeyError) as exc:
        fail(str(exc.args[0]) if isinstance(exc, KeyError) else str(exc))
    announce_compile(g.name)
    typer.echo(g.trace(config, seed, index, check=check_))


@app.command()
def bench(
    json_out: Annotated[bool, typer.Option("--json", metavar="", help="Print JSON.")] = False,
    seconds: Annotated[float, typer.Option(metavar="SECONDS",
        min=0.1, help="Seconds of play per entry.")] = 3.0,
    game: Annotated[list[str] | None, typer.Option(metavar="GAME",
        help="Only these games.")] = None,
    threads: ThreadsOpt = None,
    split: Annotated[bool, typer.Option("--split", metavar="", help=(
        "Also split one thread's time per game between the strategy and the engine, by "
        "replaying the strategy's recorded answers in the same games."))] = False,
    floor: Annotated[bool, typer.Option("--floor/--no-floor", metavar="", help=(
        "Count the random numbers a playout draws (a counting build, compiled once per "
        "version of the sources) and compare with the generator's own rate."))] = True,
) -> None:
    """Playouts per second for each game and strategy (after compilation), and each game's
    random-number floor."""
    import numba

    from experiments import rng_floor
    from experiments.runner import set_threads
    from experiments.strategy_cost import split_line, strategy_cost
    from strategies import registry

    set_threads(threads)
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
        splits: dict[str, dict] = {}
        for sname in registry.names(g.name):
            config = g.configure(None, sname)
            g.warm_up(config)
            n = 4096
            done = 0
            t0 = time.perf_counter()
            while True:
                g.run_batch(config, 12345, done, n)
                done += n
                elapsed = time.perf_counter() - t0
                if elapsed >= seconds:
                    break
                n = min(n * 2, DEFAULT_BATCH)  # the batch size real runs use
            per_strategy[sname] = done / elapsed
            if not json_out:
                typer.echo(f"{g.name:8s} {sname:12s} {done / elapsed:14,.0f} playouts/s "
                           f"({done:,} games in {elapsed:.1f}s)", err=False)
            if split:
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
        if split:
            results[g.name]["split"] = dict(splits)
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
    if json_out:
        typer.echo(json_text(results))


@app.command()
def sweep(
    spec: Annotated[str, typer.Argument(
        metavar="SPEC", help="Sweep spec (TOML); see experiments/specs/.")],
    out: Annotated[str | None, typer.Option(
        "--out", "-o", metavar="DIR", help="Output folder (default: reports/<spec name>).")] = None,
    resume: Annotated[bool, typer.Option(metavar="",
        help="Finish the sweep begun in --out, skipping finished cells.")] = False,
    overwrite: Annotated[bool, typer.Option(metavar="",
        help="Discard a previous sweep in --out.")] = False,
    records: Annotated[bool, typer.Option(
        "--records", metavar="", help="Also keep every playout's full record (Parquet).")] = False,
    scheduler: Annotated[str | None, typer.Option(metavar="ADDRESS",
        help="Run on the Dask cluster at this scheduler address (tcp://HOST:8786).")] = None,
    dask_local: Annotated[int | None, typer.Option(
        "--dask-local", metavar="N",
            min=1, help="Run on a local Dask cluster of N worker processes.")
    ] = None,
    chunk: Annotated[int, typer.Option(metavar="N",
        min=1, help="Playouts per task (results do not depend on it).")] = 8192,
    threads: ThreadsOpt = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", metavar="",
        help="No progress bar.")] = False,
    no_report: Annotated[bool, typer.Option("--no-report", metavar="",
        help="Skip the report.")] = False,
) -> None:
    """Run a sweep: every combination of the spec's axes, resumable, with a report."""
    from pathlib import Path

    from experiments.distributed import ClusterStartError
    from experiments.report import format_sweep
    from experiments.runner import TooManyGamesError
    from experiments.spec import SpecError, SweepSpec
    from experiments.store import SweepDirError
    from experiments.sweep import run_sweep

    if scheduler and dask_local:
        fail("give --scheduler or --dask-local, not both")
    try:
        parsed = SweepSpec.load(spec)
    except SpecError as exc:
        fail(str(exc))
    target = out or str(Path("reports") / Path(spec).stem)
    done = [0]
    try:
        result = run_sweep(parsed, target, resume=resume, overwrite=overwrite,
                           scheduler=scheduler, dask_local=dask_local, chunk=chunk,
                           threads=threads, records=True if records else None,
                           progress=not quiet, report=not no_report,
                           on_cell=lambda i: done.__setitem__(0, done[0] + 1))
    except (SweepDirError, SpecError, ClusterStartError, TooManyGamesError) as exc:
        fail(str(exc))
    except OSError as exc:
        cannot_write(exc, target)
    except KeyboardInterrupt:
        typer.echo(f"\ninterrupted after {done[0]} more cell(s); every finished cell is saved. "
                   f"Run the same command with --resume to finish.", err=True)
        raise typer.Exit(130) from None
    typer.echo(format_sweep(result))


@app.command()
def report(
    folder: Annotated[str, typer.Argument(metavar="DIR", help="A sweep's output folder.")],
) -> None:
    """Rebuild a sweep's report (Markdown, HTML and charts) from its saved results."""
    from experiments.report import build_report, format_sweep
    from experiments.store import SweepDirError
    from experiments.sweep import load_sweep

    try:
        result = load_sweep(folder)
    except (FileNotFoundError, SweepDirError) as exc:
        fail(str(exc))
    try:
        build_report(result)
    except OSError as exc:
        cannot_write(exc, folder)
    except ValueError as exc:  # nothing to report yet
        fail(str(exc))
    typer.echo(format_sweep(result))


@app.command()
def compare(
    game: GameArg,
    strategies: Annotated[str, typer.Option(metavar="NAMES",
        help="Comma-separated strategies, e.g. random,heuristic.")],
    games: Annotated[int, typer.Option(metavar="N", min=1, help="Games per strategy.")] = 100_000,
    seed: SeedOpt = 1,
    players: Annotated[int | None, typer.Option(metavar="N", help="Player count.")] = None,
    goo: Annotated[str | None, typer.Option(metavar="NAME", help="Great Old One (tec).")] = None,
    difficulty: Annotated[str | None, typer.Option(metavar="LEVEL",
        help="normal, hard, madness (tec).")] = None,
    set_: SetOpt = None,
    rules: RulesOpt = None,
    threads: ThreadsOpt = None,
    out: Annotated[str | None, typer.Option(
        "--out", "-o", metavar="DIR",
            help="Also write compare.json, a bar chart and a report here.")] = None,
    json_out: Annotated[bool, typer.Option("--json", metavar="",
        help="One JSON object on stdout.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", metavar="",
        help="No progress bar.")] = False,
) -> None:
    """Play each strategy on the same seeds: win rates and paired differences."""
    from pathlib import Path

    from experiments.comparison import compare as run_compare
    from experiments.runner import TooManyGamesError

    made = out is not None and not Path(out).exists()
    if out:
        try:  # find out now, not after the games, that the folder cannot be written
            Path(out).mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            cannot_write(exc, out)
    try:
        get_game(game)
        overrides = shortcut_overrides(game, set_, players=players, goo=goo,
                                       difficulty=difficulty)
        result = run_compare(game, strategies, overrides, games=games, seed=seed,
                             rules_path=rules, threads=threads, quiet=quiet,
                             announce=not (quiet or json_out))
    except (RulesError, KeyError, TooManyGamesError) as exc:
        if made:
            with contextlib.suppress(OSError):
                Path(out).rmdir()  # the folder made above, still empty
        fail(str(exc.args[0]) if isinstance(exc, KeyError) else str(exc))
    if out:
        try:
            result.write(out)
        except OSError as exc:
            cannot_write(exc, out)
    if json_out:
        typer.echo(json_text(result.summary()))
    else:
        typer.echo(result.format())


@app.command()
def check(
    game: GameArg,
    games: Annotated[int, typer.Option(metavar="N",
        min=1, help="Games to play under the checker.")] = 10_000,
    seed: SeedOpt = 1,
    players: Annotated[int | None, typer.Option(metavar="N", help="Player count.")] = None,
    goo: Annotated[str | None, typer.Option(metavar="NAME", help="Great Old One (tec).")] = None,
    difficulty: Annotated[str | None, typer.Option(metavar="LEVEL",
        help="normal, hard, madness (tec).")] = None,
    set_: SetOpt = None,
    strategy: StrategyOpt = None,
    rules: RulesOpt = None,
    threads: ThreadsOpt = None,
    json_out: Annotated[bool, typer.Option("--json", metavar="",
        help="One JSON object on stdout.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", metavar="",
        help="No progress bar.")] = False,
) -> None:
    """Play games under the game's rules checker; exit 1 on any violation or stuck game."""
    from experiments.runner import announce_compile, progress_bar, set_threads

    try:
        g = get_game(game)
        if not g.has_checker:
            fail(f"{g.name} has no rules checker (games that have one: " + (", ".join(
                     n for n in game_names() if get_game(n).has_checker) or "none yet") + ")")
        overrides = shortcut_overrides(game, set_, players=players, goo=goo,
                                       difficulty=difficulty)
        config = g.configure(overrides, strategy, rules)
    except (RulesError, KeyError) as exc:
        fail(str(exc.args[0]) if isinstance(exc, KeyError) else str(exc))
    set_threads(threads)
    if not (quiet or json_out):
        announce_compile(g.name)
    bar = progress_bar(games, quiet or json_out, f"{g.name} check")
    try:
        result = g.check(config, games=games, seed=seed,
                         progress=bar.update if bar is not None else None)
    finally:
        if bar is not None:
            bar.close()
    result = dict(result)
    bad = int(result.get("violations", 0) or 0) + int(result.get("stuck", 0) or 0)
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


TEC_SPEC = "tec-balance.toml"
TEC_OUT = "reports/tec-balance"


@app.command()
def main(
    quiet: Annotated[bool, typer.Option("--quiet", "-q", metavar="",
        help="No progress bar.")] = False,
    out: Annotated[str, typer.Option("--out", "-o", metavar="DIR",
        help="Report folder (Tiny Epic Cthulhu).")
                   ] = TEC_OUT,
) -> None:
    """The main job (`make run`): the Tiny Epic Cthulhu balance sweep (every Great Old One x
    difficulty x player count) with its report."""
    from pathlib import Path

    from experiments.report import format_sweep
    from experiments.runner import TooManyGamesError
    from experiments.spec import SpecError
    from experiments.store import SweepDirError
    from experiments.sweep import run_sweep

    spec = Path(__file__).with_name("specs") / TEC_SPEC
    try:
        result = run_sweep(spec, out, resume="auto", progress=not quiet)
    except (SpecError, SweepDirError, TooManyGamesError) as exc:
        fail(str(exc))
    except OSError as exc:
        cannot_write(exc, out)
    except KeyboardInterrupt:
        typer.echo("\ninterrupted; finished cells are saved. Run `make run` again to finish.",
                   err=True)
        raise typer.Exit(130) from None
    typer.echo(format_sweep(result))


def main_entry() -> None:  # pragma: no cover - python -m experiments.cli
    from experiments.__main__ import main

    main()


if __name__ == "__main__":  # pragma: no cover - python -m experiments.cli
    main_entry()
