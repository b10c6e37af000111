"""The ``cthulhu-sim`` command line.

Every mistake in what is typed ends in one ``error:`` line on stderr (exit status 2), the
tool's own checks and the command-line parser's alike; nothing is written before the input
is checked.  Game shortcuts (``--players``, ``--goo`` ...) are not written into the commands:
each game declares its own (``Game.shortcuts``) and every command that takes a GAME gets the
options of every registered game, each accepted only for the games that declare it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import inspect
import math
import re
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

try:  # typer 0.2x vendors its own click; earlier versions use click itself
    from typer._click import exceptions as _cx
except ImportError:  # pragma: no cover - depends on the typer installed
    from click import exceptions as _cx

from experiments.jsonout import json_text
from experiments.limits import MAX_BENCH_SECONDS, MAX_DASK_LOCAL, MAX_GAMES, MAX_INDEX, MAX_SEED
from experiments.outdir import OutDirError
from simcore.game import DEFAULT_BATCH, Game, GameKind, Shortcut
from simcore.registry import game_names, get_game
from simcore.rules_data import RulesError


# ---- one style for every error ------------------------------------------------------------
def _usage_line(exc: _cx.ClickException) -> str:
    """A parser error as one line, in the words of the tool's own errors."""
    ctx = getattr(exc, "ctx", None)
    where = f"`{ctx.command_path} --help`" if ctx is not None else "`cthulhu-sim --help`"
    if isinstance(exc, _cx.MissingParameter):
        text = exc.format_message().rstrip(".").replace("'", "")
        return f"{text[:1].lower()}{text[1:]}; {where} says what it takes"
    if isinstance(exc, _cx.BadParameter):
        text = exc.format_message()  # "Invalid value for '--games': ..." (or "... value: ...")
        m = re.match(r"(?:Invalid value for (.+?)|Invalid value): (.*)", text, re.S)
        if m:
            hint = (m[1] or "").replace("'", "").replace('"', "") or "a value"
            return f"{hint}: {' '.join(m[2].split())}"
        return " ".join(text.split())
    if isinstance(exc, _cx.NoSuchOption):
        close = f" (did you mean {', '.join(exc.possibilities)}?)" if exc.possibilities else ""
        return f"no such option {exc.option_name}{close}; {where} lists the options"
    if isinstance(exc, _cx.UsageError):
        text = " ".join(exc.format_message().rstrip(".").split())
        text = re.sub(r"\. Did you mean (.+?)\??$", r" (did you mean \1?)", text)
        return f"{text[:1].lower()}{text[1:]}; {where} says what it takes"
    return exc.format_message()


class OneLineErrors(TyperGroup):
    """Typer's group with the parser's errors printed as the tool's own ``error:`` lines
    (instead of boxed panels) and a Ctrl-C ending in one line."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True,
             **extra):  # noqa: ANN001 - click's signature
        try:
            code = super().main(args=args, prog_name=prog_name, complete_var=complete_var,
                                standalone_mode=False, **extra)
        except _cx.ClickException as exc:
            if type(exc).__name__ == "NoArgsIsHelpError":  # the bare command: its help
                typer.echo(exc.ctx.get_help())
                sys.exit(0)
            typer.echo(f"error: {_usage_line(exc)}", err=True)
            sys.exit(exc.exit_code)
        except typer.Abort:
            typer.echo("\ninterrupted", err=True)
            sys.exit(130)
        sys.exit(code if isinstance(code, int) else 0)


app = typer.Typer(
    cls=OneLineErrors,
    help="Monte Carlo balance simulator for Cthulhu tabletop games.",
    no_args_is_help=True,
    add_completion=True,
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


def fail(message: str, code: int = 2) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def cannot_write(exc: OSError, target: object) -> None:
    """Report a failed write (an unwritable or impossible output folder) as an error line."""
    where = exc.filename if exc.filename is not None else target
    fail(f"cannot write {where}: {exc.strerror or exc}")


def message(exc: Exception) -> str:
    return str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc)


# ---- numbers with ceilings ----------------------------------------------------------------
def _bounded(lo: int, hi: int, what: str, advice: str = "") -> Callable[[int | None], Any]:
    def check(value: int | None) -> int | None:
        if value is None:
            return value
        if value < lo:
            raise typer.BadParameter(f"{value:,} is below {lo:,} ({what})")
        if value > hi:
            raise typer.BadParameter(f"{value:,} is above the largest allowed, {hi:,} ({what})"
                                     + (f"; {advice}" if advice else ""))
        return value
    return check


_games = _bounded(1, MAX_GAMES, "games one command plays",
                  "for more, pool runs of different seeds (`cthulhu-sim pool`)")
_seed = _bounded(0, MAX_SEED, "seeds are 0 to 2**63 - 1")
_index = _bounded(0, MAX_INDEX, "playout indices are 0 to 2**63 - 1")
_positive = _bounded(1, 2**31 - 1, "a count")


def _threads(value: int | None) -> int | None:
    if value is not None and value < 1:
        raise typer.BadParameter(f"{value} is below 1 (worker threads)")
    return value


def _seconds(value: float) -> float:
    if not math.isfinite(value):
        raise typer.BadParameter(f"{value} is not a number of seconds; give one from 0.1 to "
                                 f"{MAX_BENCH_SECONDS:g}")
    if not 0.1 <= value <= MAX_BENCH_SECONDS:
        raise typer.BadParameter(f"{value:g} is outside 0.1 to {MAX_BENCH_SECONDS:g} seconds "
                                 "of play per entry")
    return value


def _dask_local(value: int | None) -> int | None:
    return _bounded(1, MAX_DASK_LOCAL, "local worker processes")(value)


def _strategy(value: str | None) -> str | None:
    if value is not None and not value.strip():
        raise typer.BadParameter("an empty name; leave the option out for the game's default "
                                 "strategy (`cthulhu-sim games GAME` lists them)")
    return value


GameArg = Annotated[str, typer.Argument(metavar="GAME", help="Game: " + ", ".join(game_names()))]
SetOpt = Annotated[
    list[str] | None,
    typer.Option("--set", "-s", metavar="KEY=VALUE",
        help="Override a rules-data value: key=value (repeatable)."),
]
SeedOpt = Annotated[int, typer.Option(metavar="N", callback=_seed,
    help="Seed (0 to 2**63 - 1); playout i uses stream (seed, i).")]
GamesHelp = "Number of playouts (at most 1,000,000,000)."
StrategyOpt = Annotated[str | None, typer.Option(metavar="NAME", callback=_strategy,
    help="Strategy name (see `games`).")]
RulesOpt = Annotated[str | None, typer.Option("--rules", metavar="FILE",
    help="Use this rules data file.")]
ThreadsOpt = Annotated[int | None, typer.Option(metavar="N", callback=_threads,
    help="Worker threads (default: all; more than the cores are clamped).")]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", metavar="", help="No progress bar.")]
JsonOpt = Annotated[bool, typer.Option("--json", metavar="", help="One JSON object on stdout.")]
OverwriteOpt = Annotated[bool, typer.Option(metavar="",
    help="Replace results of this tool in --out (only files it wrote).")]


# ---- game shortcuts, from the games themselves --------------------------------------------
SHORTCUT_PANEL = "Game shortcuts (each stands for --set KEY=VALUE)"


def shortcut_table() -> dict[str, list[tuple[Game, Shortcut]]]:
    """Option name to the games that declare it (and what it sets in each), over every
    registered game."""
    table: dict[str, list[tuple[Game, Shortcut]]] = {}
    for name in game_names():
        g = get_game(name)
        for option, sc in g.shortcuts.items():
            table.setdefault(option, []).append((g, sc))
    return table


SHORTCUTS = shortcut_table()


def _shortcut_help(option: str) -> str:
    return " ".join(f"{g.name}: {sc.help or 'sets ' + sc.key}" + ("" if (sc.help or "")
                    .endswith(".") else ".") for g, sc in SHORTCUTS[option])


def _shortcuts_epilog() -> str:
    parts = []
    for name in game_names():
        g = get_game(name)
        opts = ", ".join(f"--{o} {sc.metavar}" for o, sc in g.shortcuts.items()) or "none"
        parts.append(f"{name}: {opts}")
    return "Game shortcuts by game: " + "; ".join(parts) + "."


def with_shortcuts(fn: Callable) -> Callable:
    """Give a command that takes a GAME one option per game shortcut (the union over every
    registered game, so a new game's shortcuts appear with no edit here); the command gets
    them as ``shortcuts={option: value or None}``."""
    sig = inspect.signature(fn, eval_str=True)
    params = [p for p in sig.parameters.values() if p.name != "shortcuts"]
    extra = []
    for option, users in SHORTCUTS.items():
        metavars = sorted({sc.metavar for _, sc in users})
        extra.append(inspect.Parameter(
            f"shortcut__{option.replace('-', '_')}", inspect.Parameter.KEYWORD_ONLY,
            default=None,
            annotation=Annotated[str | None, typer.Option(
                f"--{option}", metavar="|".join(metavars), help=_shortcut_help(option),
                rich_help_panel=SHORTCUT_PANEL, show_default=False)]))

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        shortcuts = {option: kwargs.pop(f"shortcut__{option.replace('-', '_')}", None)
                     for option in SHORTCUTS}
        return fn(*args, shortcuts=shortcuts, **kwargs)

    wrapper.__signature__ = sig.replace(parameters=params + extra)  # type: ignore[attr-defined]
    wrapper.__annotations__ = {p.name: p.annotation for p in params + extra}
    return wrapper


def shortcut_overrides(game: str, sets: list[str] | None,
                       shortcuts: dict[str, str | None] | None = None, **named: Any
                       ) -> list[str]:
    """Shortcut options become key=value overrides (checked like any other); an option the
    game does not declare is an error naming the ones it does."""
    g = get_game(game)
    out = list(sets or [])
    seen: dict[str, str] = {}
    for item in out:  # a key set twice with different values is a mistake, not a choice
        key, _, text = item.partition("=")
        key, text = key.strip(), text.strip()
        if seen.get(key, text) != text:
            fail(f"--set {key} is given twice ({seen[key]} and {text})")
        seen[key] = text
    given = {**(shortcuts or {}), **named}
    for name, value in given.items():
        if value is None:
            continue
        shortcut = g.shortcuts.get(name)
        if shortcut is None:
            allowed = ", ".join(f"--{o}" for o in g.shortcuts) or "none"
            fail(f"--{name} does not apply to {g.name}; its shortcuts: {allowed} (or --set "
                 f"KEY=VALUE with a key of `cthulhu-sim games {g.name}`)")
        key = shortcut.key
        text = str(value).strip()
        if key in seen and seen[key] != text:
            fail(f"--{name} {value} and --set {key}={seen[key]} disagree")
        out.append(f"{key}={text}")
    return out


# ---- games --------------------------------------------------------------------------------
def kind_text(kind: GameKind) -> str:
    """A game's kind in words: ``cooperative, hidden information, not searchable, rules
    checker, callback style``."""
    return ", ".join([
        "cooperative" if kind.cooperative else "competitive",
        "perfect information" if kind.perfect_information else "hidden information",
        "searchable" if kind.searchable else "not searchable",
        "rules checker" if kind.has_checker else "no rules checker",
        f"{kind.style} style",
    ])


@app.command()
def games(
    game: Annotated[str | None, typer.Argument(
        metavar="GAME", help="Show every key of this game, with what it means.")] = None,
    json_out: Annotated[bool, typer.Option("--json", metavar="", help="Print JSON.")] = False,
) -> None:
    """The games, their kind, settings with defaults and sources, and their strategies."""
    from experiments.text import set_text
    from strategies import registry

    names = [game] if game else game_names()
    payload = {}
    for name in names:
        try:
            g = get_game(name)
        except KeyError as exc:
            fail(message(exc))
        rules = g.default_rules()
        keys = rules.entries if game else {k: e for k, e in rules.entries.items() if "." not in k}
        payload[g.name] = {
            "title": g.title,
            "kind": dataclasses.asdict(g.kind),
            "rules_file": str(rules.path),
            "sources": rules.source_counts(),
            "shortcuts": {o: {"key": sc.key, "metavar": sc.metavar, "help": sc.help}
                          for o, sc in g.shortcuts.items()},
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
        g = get_game(name)
        src = info["sources"]
        typer.echo(f"{name}: {info['title']} ({kind_text(g.kind)})")
        typer.echo(f"  rules data: {info['rules_file']}  ({src['rulebook']} rulebook, "
                   f"{src['public']} public, {src['assumed']} assumed)")
        typer.echo("  shortcuts: " + (", ".join(
            f"--{o} {sc['metavar']} (= --set {sc['key']}=...)"
            for o, sc in info["shortcuts"].items()) or "none"))
        typer.echo("  strategies: " + ", ".join(
            f"{n}{' (default)' if n == info['default_strategy'] else ''}"
            for n in info["strategies"]))
        if game:  # each strategy's plan and its parameters (--set strategy.KEY=VALUE)
            for n, text in info["strategies"].items():
                typer.echo(f"    {n}: {text}")
                for k, prm in info["strategy_params"][n].items():
                    typer.echo(f"      strategy.{k} = {set_text(prm['default'])} {prm['allowed']}: "
                               f"{prm['help']}")
        typer.echo("  " + ("keys" if game else "settings") + " (key = default [source] allowed"
                   + ("; then what it means" if game else "") + "):")
        for k, e in info["settings"].items():
            typer.echo(f"    {k} = {set_text(e['default'])} [{e['source']}] {e['allowed']}")
            if game and e["note"]:
                typer.echo(textwrap.fill(" ".join(e["note"].split()), width=100,
                                         initial_indent=" " * 8, subsequent_indent=" " * 8))
        if not game:
            typer.echo(f"  (`cthulhu-sim games {name}` lists every rules-data key, with "
                       "what it means)")
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


# ---- run, trace, compare, check -----------------------------------------------------------
def _claim(out: str | None, kind: str, overwrite: bool) -> tuple[bool, str]:
    """Check ``--out`` before anything is played; (whether the folder was made here, the
    state: "new" or "same")."""
    from experiments.outdir import claim

    if out is None:
        return False, "new"
    try:
        state = claim(out, kind, overwrite)
    except OutDirError as exc:
        fail(str(exc))
    if state == "same" and not overwrite:
        fail(f"--out {out}: already holds results of the same kind; give another folder, or "
             "--overwrite to replace them")
    made = not Path(out).exists()
    try:  # find out now, not after the games, that the folder cannot be written
        Path(out).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        cannot_write(exc, out)
    return made, state


def _unmake(out: str | None, made: bool) -> None:
    if out is not None and made:
        with contextlib.suppress(OSError):
            Path(out).rmdir()  # the folder made above, still empty


@app.command(epilog=_shortcuts_epilog())
@with_shortcuts
def run(
    game: GameArg,
    games: Annotated[int, typer.Option(metavar="N", callback=_games, help=GamesHelp)] = 100_000,
    seed: SeedOpt = 1,
    set_: SetOpt = None,
    strategy: StrategyOpt = None,
    rules: RulesOpt = None,
    threads: ThreadsOpt = None,
    out: Annotated[str | None, typer.Option("--out", "-o", metavar="DIR", help=(
        "Also keep the run here: summary.json, every playout (playouts.parquet), "
        "results.csv, report.md (for `pool`)."))] = None,
    overwrite: OverwriteOpt = False,
    json_out: JsonOpt = False,
    quiet: QuietOpt = False,
    shortcuts: dict | None = None,
) -> None:
    """Play one configuration and report win rates with 95% intervals."""
    from experiments.runfolder import save_run
    from experiments.runner import TooManyGamesError, format_summary, run_config, set_threads

    try:
        get_game(game)
        overrides = shortcut_overrides(game, set_, shortcuts)
        config = get_game(game).configure(overrides, strategy, rules)
    except (RulesError, KeyError) as exc:
        fail(message(exc))
    made, _ = _claim(out, "run", overwrite)
    set_threads(threads, say=True)
    try:
        result = run_config(config, games, seed, quiet=quiet,
                            announce=not (quiet or json_out))
    except (RulesError, KeyError, TooManyGamesError) as exc:
        _unmake(out, made)
        fail(message(exc))
    if out:
        try:
            save_run(result, out, overwrite=True)  # (claimed above)
        except OutDirError as exc:
            fail(str(exc))
        except OSError as exc:
            cannot_write(exc, out)
    summary = result.summary()
    if json_out:
        typer.echo(json_text(summary))
    else:
        typer.echo(format_summary(summary))


@app.command(epilog=_shortcuts_epilog())
@with_shortcuts
def trace(
    game: GameArg,
    seed: SeedOpt = 1,
    index: Annotated[int, typer.Option(metavar="N", callback=_index,
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
    from experiments.runner import announce_compile

    try:
        g = get_game(game)
        if check_ and not g.kind.has_checker:
            fail(f"{g.name} has no rules checker, so --check does not apply")
        overrides = shortcut_overrides(game, set_, shortcuts)
        config = g.configure(overrides, strategy, rules)
    except (RulesError, KeyError) as exc:
        fail(message(exc))
    announce_compile(g.name)
    typer.echo(g.trace(config, seed, index, check=check_))


@app.command(epilog=_shortcuts_epilog())
@with_shortcuts
def compare(
    game: GameArg,
    strategies: Annotated[str, typer.Option(metavar="NAMES",
        help="Comma-separated strategies, e.g. random,heuristic.")],
    games: Annotated[int, typer.Option(metavar="N", callback=_games,
        help="Games per strategy (at most 1,000,000,000).")] = 100_000,
    seed: SeedOpt = 1,
    set_: SetOpt = None,
    rules: RulesOpt = None,
    threads: ThreadsOpt = None,
    out: Annotated[str | None, typer.Option(
        "--out", "-o", metavar="DIR",
            help="Also write compare.json, a bar chart and a report here.")] = None,
    overwrite: OverwriteOpt = False,
    json_out: JsonOpt = False,
    quiet: QuietOpt = False,
    shortcuts: dict | None = None,
) -> None:
    """Play each strategy on the same seeds: win rates and paired differences."""
    from experiments.comparison import compare as run_compare
    from experiments.runner import TooManyGamesError, set_threads

    names = [s.strip() for s in strategies.split(",")]
    if any(not s for s in names):
        fail(f"--strategies {strategies!r}: an empty name in the list; give names separated "
             "by commas, e.g. random,heuristic")
    try:
        get_game(game)
        overrides = shortcut_overrides(game, set_, shortcuts)
    except (RulesError, KeyError) as exc:
        fail(message(exc))
    try:  # every strategy and setting is checked before --out is touched
        from experiments.comparison import check_strategies

        check_strategies(game, names, overrides, rules)
    except (RulesError, KeyError) as exc:
        fail(message(exc))
    made, _ = _claim(out, "compare", overwrite)
    set_threads(threads, say=True)
    try:
        result = run_compare(game, names, overrides, games=games, seed=seed,
                             rules_path=rules, quiet=quiet, announce=not (quiet or json_out))
    except (RulesError, KeyError, TooManyGamesError) as exc:
        _unmake(out, made)
        fail(message(exc))
    if out:
        try:
            result.write(out, overwrite=True)  # (claimed above)
        except OutDirError as exc:
            fail(str(exc))
        except OSError as exc:
            cannot_write(exc, out)
    if json_out:
        typer.echo(json_text(result.summary()))
    else:
        typer.echo(result.format())


def _int_list(text: str, what: str) -> list[int]:
    try:
        values = [int(x.strip().replace("_", "")) for x in text.split(",") if x.strip()]
    except ValueError:
        fail(f"{what} {text!r}: give whole numbers separated by commas, e.g. 100,1000")
    if not values or any(v < 1 or v > 1_000_000 for v in values):
        fail(f"{what} {text!r}: each must be between 1 and 1,000,000")
    return values


@app.command(epilog=_shortcuts_epilog())
@with_shortcuts
def ladder(
    game: GameArg,
    games: Annotated[int, typer.Option(metavar="N", callback=_games,
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
    from experiments.ladder import default_rungs, run_ladder
    from experiments.runner import TooManyGamesError, set_threads

    budget_list = _int_list(budgets, "--budgets")
    try:
        g = get_game(game)
        overrides = shortcut_overrides(game, set_, shortcuts)
        rungs = default_rungs(g.name, budget_list, search)
        from experiments.ladder import rung_config

        for r in rungs:  # every rung checked before anything is played or written
            rung_config(g, r, overrides, rules, seat, field_ or g.default_strategy)
    except (RulesError, KeyError, ValueError) as exc:
        fail(message(exc))
    made, _ = _claim(out, "ladder", overwrite)
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
        _unmake(out, made)
        fail(message(exc))
    if out:
        try:
            result.write(out, overwrite=True)  # (claimed above)
        except OutDirError as exc:
            fail(str(exc))
        except OSError as exc:
            cannot_write(exc, out)
    typer.echo(json_text(result.summary()) if json_out else result.format())


@app.command(epilog=_shortcuts_epilog())
@with_shortcuts
def tournament(
    game: GameArg,
    strategies: Annotated[str, typer.Option(metavar="NAMES",
        help="Comma-separated strategies, e.g. heuristic,rusher,mcts.")],
    games: Annotated[int, typer.Option(metavar="N", callback=_games,
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
    from experiments.distributed import ClusterStartError
    from experiments.runner import TooManyGamesError, set_threads
    from experiments.spec import SpecError
    from experiments.store import SweepDirError
    from experiments.tournament import run_tournament, tournament_spec

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


@app.command(epilog=_shortcuts_epilog())
@with_shortcuts
def check(
    game: GameArg,
    games: Annotated[int, typer.Option(metavar="N", callback=_games,
        help="Games to play under the checker (at most 1,000,000,000).")] = 10_000,
    seed: SeedOpt = 1,
    set_: SetOpt = None,
    strategy: StrategyOpt = None,
    rules: RulesOpt = None,
    threads: ThreadsOpt = None,
    json_out: JsonOpt = False,
    quiet: QuietOpt = False,
    shortcuts: dict | None = None,
) -> None:
    """Play games under the game's rules checker; exit 1 on any violation or stuck game."""
    from experiments.runner import announce_compile, progress_bar, set_threads

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
        announce_compile(g.name)
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


# ---- bench --------------------------------------------------------------------------------
BENCH_WARM_S = 2.0  # untimed play before each entry is timed (at most a third of --seconds)
@app.command()
def bench(
    json_out: Annotated[bool, typer.Option("--json", metavar="", help="Print JSON.")] = False,
    seconds: Annotated[float, typer.Option(metavar="SECONDS", callback=_seconds,
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
) -> None:
    """Playouts per second for each game and strategy (after compilation), and each game's
    random-number floor."""
    import numba

    from experiments import rng_floor
    from experiments.runner import set_threads
    from experiments.strategy_cost import split_line, strategy_cost
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
                rate = searches * iters / elapsed
                search_speed[label] = {"iterations_per_s": rate, "iterations": iters,
                                       "searches": searches,
                                       "rollout": config.strategy.param_dict()["rollout"]}
                line += f"; search {rate:,.0f} iterations/s"
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


# ---- balance tools: sensitivity and tuning ------------------------------------------------
DaskOpt = Annotated[str | None, typer.Option(metavar="ADDRESS",
    help="Play on the Dask cluster at this scheduler address (tcp://HOST:8786).")]
DaskLocalOpt = Annotated[int | None, typer.Option(
    "--dask-local", metavar="N", callback=_dask_local,
        help=f"Play on a local Dask cluster of N worker processes (1 to {MAX_DASK_LOCAL}).")]
ChunkOpt = Annotated[int, typer.Option(metavar="N", callback=_positive,
    help="Playouts per task (results do not depend on it).")]
MetricOpt = Annotated[str | None, typer.Option(metavar="METRIC", help=(
    "What to move: win (cooperative games' default), seat0 (competitive games' default), "
    "seatK, gap (largest seat gap), outcome:NAME, mean:FIELD (e.g. turns)."))]
BoundsOpt = Annotated[list[str] | None, typer.Option("--bounds", metavar="KEY=LO:HI", help=(
    "The range a key may take (repeatable; within its own bounds, holding its value)."))]
ResumeOpt = Annotated[bool, typer.Option(metavar="",
    help="Finish the run begun in --out, reusing every chunk of games it finished.")]


def _balance_errors():
    from experiments.distributed import ClusterStartError
    from experiments.knobs import KnobError
    from experiments.metrics import MetricError
    from experiments.runner import TooManyGamesError

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
    from experiments.runner import set_threads

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
        if out:
            typer.echo(f"\ninterrupted; every chunk of games finished is saved in {out}. Run "
                       "the same command with --resume to finish.", err=True)
        else:
            typer.echo("\ninterrupted (nothing kept: give --out DIR to keep the games played)",
                       err=True)
        raise typer.Exit(130) from None


@app.command(epilog=_shortcuts_epilog())
@with_shortcuts
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
    trajectories: Annotated[int, typer.Option(metavar="R", callback=_positive,
        help="morris: trajectories (each plays keys + 1 configurations).")] = 10,
    levels: Annotated[int, typer.Option(metavar="P", callback=_positive,
        help="morris: grid levels (even).")] = 4,
    samples: Annotated[int, typer.Option(metavar="N", callback=_positive, help=(
        "sobol: base samples, a power of two (plays N x (keys + 2) configurations)."))] = 32,
    games: Annotated[int, typer.Option(metavar="N", callback=_games,
        help="Games per configuration, all on the same playouts.")] = 10_000,
    seed: SeedOpt = 1,
    set_: SetOpt = None,
    strategy: StrategyOpt = None,
    rules: RulesOpt = None,
    threads: ThreadsOpt = None,
    out: Annotated[str | None, typer.Option("--out", "-o", metavar="DIR", help=(
        "Keep the games (resumable) and write sensitivity.json, Parquet, CSV, the chart and "
        "a report here."))] = None,
    resume: ResumeOpt = False,
    overwrite: OverwriteOpt = False,
    scheduler: DaskOpt = None,
    dask_local: DaskLocalOpt = None,
    chunk: ChunkOpt = 8192,
    top: Annotated[int, typer.Option(metavar="N", callback=_bounded(0, 10**6, "rows shown"),
        help="Keys in the table and the chart (0: every key).")] = 20,
    json_out: JsonOpt = False,
    quiet: QuietOpt = False,
    shortcuts: dict | None = None,
) -> None:
    """Which numbers of the rules move the balance most: each key a step down and up on the
    same playouts (or Morris / Sobol' over ranges), ranked, with paired 95% intervals."""
    from experiments.sensitivity import run_sensitivity

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


@app.command(epilog=_shortcuts_epilog())
@with_shortcuts
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
    games: Annotated[int, typer.Option(metavar="N", callback=_games, help=(
        "Games of a probe's first measurement (doubled while it is undecided), or of an "
        "optimiser's trial."))] = 4096,
    max_games: Annotated[int, typer.Option("--max-games", metavar="N", callback=_games,
        help="The most games one value is played on in the search.")] = 65536,
    budget: Annotated[int | None, typer.Option(metavar="N", callback=_games, help=(
        "Several keys: games of trials in all (default 40 trials).") )] = None,
    penalty: Annotated[float, typer.Option(metavar="X", help=(
        "Several keys: cost per key moved across its whole range, added to the distance to "
        "the target."))] = 0.0,
    confirm: Annotated[int, typer.Option(metavar="N", callback=_games, help=(
        "Fresh games that confirm the answer."))] = 20_000,
    seed: SeedOpt = 1,
    set_: SetOpt = None,
    strategy: StrategyOpt = None,
    rules: RulesOpt = None,
    threads: ThreadsOpt = None,
    out: Annotated[str | None, typer.Option("--out", "-o", metavar="DIR", help=(
        "Keep the games (resumable) and write tune.json, the path, a rules file with the "
        "answer, the chart and a report here."))] = None,
    resume: ResumeOpt = False,
    overwrite: OverwriteOpt = False,
    scheduler: DaskOpt = None,
    dask_local: DaskLocalOpt = None,
    chunk: ChunkOpt = 8192,
    json_out: JsonOpt = False,
    quiet: QuietOpt = False,
    shortcuts: dict | None = None,
) -> None:
    """What value hits a target: a bisection on one key (an optimiser on several) over the
    same playouts, the answer confirmed on fresh games with its 95% interval."""
    from experiments.tune import run_tune

    overrides = _balance_prelude(game, set_, shortcuts, scheduler, dask_local, resume,
                                 overwrite, out, threads)
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


# ---- sweeps and reports -------------------------------------------------------------------
@app.command()
def sweep(
    spec: Annotated[str, typer.Argument(
        metavar="SPEC", help="Sweep spec (TOML); see experiments/specs/.")],
    out: Annotated[str | None, typer.Option(
        "--out", "-o", metavar="DIR", help="Output folder (default: reports/<spec name>).")] = None,
    resume: Annotated[bool, typer.Option(metavar="",
        help="Finish the sweep begun in --out, skipping finished cells.")] = False,
    overwrite: Annotated[bool, typer.Option(metavar="",
        help="Discard a previous sweep in --out (only files a sweep writes).")] = False,
    records: Annotated[bool, typer.Option(
        "--records", metavar="", help="Also keep every playout's full record (Parquet).")] = False,
    scheduler: Annotated[str | None, typer.Option(metavar="ADDRESS",
        help="Run on the Dask cluster at this scheduler address (tcp://HOST:8786).")] = None,
    dask_local: Annotated[int | None, typer.Option(
        "--dask-local", metavar="N", callback=_dask_local,
            help=f"Run on a local Dask cluster of N worker processes (1 to {MAX_DASK_LOCAL}).")
    ] = None,
    chunk: Annotated[int, typer.Option(metavar="N", callback=_positive,
        help="Playouts per task (results do not depend on it).")] = 8192,
    threads: ThreadsOpt = None,
    quiet: QuietOpt = False,
    no_report: Annotated[bool, typer.Option("--no-report", metavar="",
        help="Skip the report.")] = False,
) -> None:
    """Run a sweep: every combination of the spec's axes, resumable, with a report."""
    from experiments.distributed import ClusterStartError
    from experiments.report import format_sweep
    from experiments.runner import TooManyGamesError, set_threads
    from experiments.spec import SpecError, SweepSpec
    from experiments.sweep import run_sweep

    if scheduler and dask_local:
        fail("give --scheduler or --dask-local, not both")
    if resume and overwrite:
        fail("give --resume or --overwrite, not both")
    try:
        parsed = SweepSpec.load(spec)
    except SpecError as exc:
        fail(str(exc))
    target = out or str(Path("reports") / Path(spec).stem)
    if threads:
        set_threads(threads, say=True)
    done = [0]
    try:
        result = run_sweep(parsed, target, resume=resume, overwrite=overwrite,
                           scheduler=scheduler, dask_local=dask_local, chunk=chunk,
                           threads=threads, records=True if records else None,
                           progress=not quiet, report=not no_report,
                           on_cell=lambda i: done.__setitem__(0, done[0] + 1))
    except (OutDirError, SpecError, ClusterStartError, TooManyGamesError) as exc:
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
    csv: Annotated[bool, typer.Option("--csv", metavar="",
        help="Print the results (one row per cell) as CSV on stdout instead.")] = False,
) -> None:
    """Rebuild a sweep's report (Markdown, HTML, charts, results.csv) from its saved
    results."""
    from experiments.report import build_report, format_sweep
    from experiments.sweep import load_sweep

    try:
        result = load_sweep(folder)
    except (FileNotFoundError, OutDirError) as exc:
        fail(str(exc))
    if csv:
        frame = result.results.copy()
        if "turns_hist" in frame:
            frame["turns_hist"] = [";".join(str(int(x)) for x in h) for h in frame["turns_hist"]]
        typer.echo(frame.to_csv(index=False), nl=False)
        return
    try:
        build_report(result)
    except OutDirError as exc:
        fail(str(exc))
    except OSError as exc:
        cannot_write(exc, folder)
    except ValueError as exc:  # nothing to report yet
        fail(str(exc))
    typer.echo(format_sweep(result))


@app.command()
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
    from experiments.runfolder import pool_runs
    from experiments.runner import TooManyGamesError, format_summary

    if any(Path(r).resolve() == Path(out).resolve() for r in runs):
        fail(f"--out {out}: is one of the runs being pooled; give a new folder")
    try:
        summary = pool_runs(runs, out, overwrite=overwrite)
    except (OutDirError, RulesError, KeyError, TooManyGamesError) as exc:
        fail(message(exc))
    except OSError as exc:
        cannot_write(exc, out)
    typer.echo(json_text(summary) if json_out else format_summary(summary))


@app.command("list")
def list_(
    folder: Annotated[str, typer.Argument(metavar="DIR", help="Where to look.")] = ".",
    json_out: Annotated[bool, typer.Option("--json", metavar="", help="Print JSON.")] = False,
) -> None:
    """The results under a folder: every sweep, comparison, run and pool, with its game,
    cells, games and date."""
    from experiments.catalog import format_listing, list_folders

    try:
        rows = list_folders(folder)
    except OutDirError as exc:
        fail(str(exc))
    typer.echo(json_text(rows) if json_out else format_listing(rows))


@app.command()
def diff(
    a: Annotated[str, typer.Argument(metavar="A", help="A sweep's folder.")],
    b: Annotated[str, typer.Argument(metavar="B", help="Another sweep of the same game.")],
    json_out: JsonOpt = False,
) -> None:
    """Two sweeps of the same game cell by cell (B minus A), paired where they share seeds:
    e.g. a rules variant against the default."""
    from experiments.catalog import diff_sweeps, format_diff

    try:
        d = diff_sweeps(a, b)
    except (FileNotFoundError, OutDirError) as exc:
        fail(str(exc))
    typer.echo(json_text(d) if json_out else format_diff(d))


@app.command()
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
    from experiments import order as od
    from experiments.sweep import load_sweep

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


@app.command()
def serve(
    port: Annotated[int, typer.Option(metavar="N", callback=_bounded(0, 65535, "a TCP port"),
        help="Port to listen on (0: a free one).")] = 8765,
    host: Annotated[str, typer.Option(metavar="ADDRESS",
        help="Address to listen on (this machine only unless told).")] = "127.0.0.1",
    results: Annotated[str, typer.Option(metavar="DIR",
        help="The results folder: what the pages list, and where they save.")] = "reports",
    open_: Annotated[bool, typer.Option("--open", metavar="", help="Open it in a browser.")
    ] = False,
) -> None:
    """The balance workbench: run, compare, sweep and trace in a local web page, and every
    result under --results (experiments/workbench)."""
    try:
        from experiments.workbench.server import ServeError
        from experiments.workbench.server import serve as run_server
    except ImportError as exc:  # the web packages of pyproject.toml are missing
        fail(f"the workbench needs {exc.name}: install the project (pip install -e .)")
    try:
        run_server(port=port, host=host, results=results, open_browser=open_,
                   cli=sys.modules[__name__])  # (its parser checks the forms)
    except ServeError as exc:
        fail(str(exc))


TEC_SPEC = "tec-balance.toml"
TEC_OUT = "reports/tec-balance"


@app.command()
def main(
    quiet: QuietOpt = False,
    out: Annotated[str, typer.Option("--out", "-o", metavar="DIR",
        help="Report folder (Tiny Epic Cthulhu).")
                   ] = TEC_OUT,
) -> None:
    """The main job (`make run`): the Tiny Epic Cthulhu balance sweep (every Great Old One x
    difficulty x player count) with its report."""
    from experiments.report import format_sweep
    from experiments.runner import TooManyGamesError
    from experiments.spec import SpecError
    from experiments.sweep import run_sweep

    spec = Path(__file__).with_name("specs") / TEC_SPEC
    try:
        result = run_sweep(spec, out, resume="auto", progress=not quiet)
    except (SpecError, OutDirError, TooManyGamesError) as exc:
        fail(str(exc))
    except OSError as exc:
        cannot_write(exc, out)
    except KeyboardInterrupt:
        typer.echo("\ninterrupted; finished cells are saved. Run `make run` again to finish.",
                   err=True)
        raise typer.Exit(130) from None
    typer.echo(format_sweep(result))


if __name__ == "__main__":  # pragma: no cover - python -m experiments.cli
    app()
