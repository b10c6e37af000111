"""What every command shares: one style for every error (``error:`` lines, the parser's
included), numbers with ceilings, the options most commands take, the game shortcuts (each
game's own, given to every command that takes a GAME) and the claim of an ``--out`` folder
before anything is played.  The commands themselves are in the modules beside this one."""

from __future__ import annotations

import contextlib
import functools
import inspect
import math
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from typer.core import TyperGroup

try:  # typer 0.2x vendors its own click; earlier versions use click itself
    from typer._click import exceptions as _cx
except ImportError:  # pragma: no cover - depends on the typer installed
    from click import exceptions as _cx

from experiments.running.limits import (
    MAX_BENCH_SECONDS,
    MAX_DASK_LOCAL,
    MAX_GAMES,
    MAX_INDEX,
    MAX_SEED,
)
from experiments.storage.outdir import OutDirError
from simcore.game import Game, Shortcut
from simcore.registry import game_names, get_game


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


def fail(message: str, code: int = 2) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def cannot_write(exc: OSError, target: object) -> None:
    """Report a failed write (an unwritable or impossible output folder) as an error line,
    naming the file the user asked for (not the staging folder it was being written in)."""
    from experiments.storage.outdir import STAGING, destination

    where = exc.filename if exc.filename is not None else target
    if isinstance(where, str | Path) and STAGING in str(where):
        where = destination(where)
    fail(f"cannot write {where}: {exc.strerror or exc}")


def message(exc: Exception) -> str:
    return str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc)


# ---- numbers with ceilings ----------------------------------------------------------------
def bounded(lo: int, hi: int, what: str, advice: str = "") -> Callable[[int | None], Any]:
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


check_games = bounded(1, MAX_GAMES, "games one command plays",
                  "for more, pool runs of different seeds (`cthulhu-sim pool`)")
check_seed = bounded(0, MAX_SEED, "seeds are 0 to 2**63 - 1")
check_index = bounded(0, MAX_INDEX, "playout indices are 0 to 2**63 - 1")
check_positive = bounded(1, 2**31 - 1, "a count")


def check_threads(value: int | None) -> int | None:
    if value is not None and value < 1:
        raise typer.BadParameter(f"{value} is below 1 (worker threads)")
    return value


def check_seconds(value: float) -> float:
    if not math.isfinite(value):
        raise typer.BadParameter(f"{value} is not a number of seconds; give one from 0.1 to "
                                 f"{MAX_BENCH_SECONDS:g}")
    if not 0.1 <= value <= MAX_BENCH_SECONDS:
        raise typer.BadParameter(f"{value:g} is outside 0.1 to {MAX_BENCH_SECONDS:g} seconds "
                                 "of play per entry")
    return value


def check_dask_local(value: int | None) -> int | None:
    return bounded(1, MAX_DASK_LOCAL, "local worker processes")(value)


def check_strategy(value: str | None) -> str | None:
    if value is not None and not value.strip():
        raise typer.BadParameter("an empty name; leave the option out for the game's default "
                                 "strategy (`cthulhu-sim games GAME` lists them)")
    return value


def game_argument() -> Any:
    """The GAME argument, its help naming the games registered now."""
    return Annotated[str, typer.Argument(metavar="GAME", help="Game: " + ", ".join(game_names()))]


GameArg = game_argument()
SetOpt = Annotated[
    list[str] | None,
    typer.Option("--set", "-s", metavar="KEY=VALUE",
        help="Override a rules-data value: key=value (repeatable)."),
]
SeedOpt = Annotated[int, typer.Option(metavar="N", callback=check_seed,
    help="Seed (0 to 2**63 - 1); playout i uses stream (seed, i).")]
GamesHelp = "Number of playouts (at most 1,000,000,000)."
StrategyOpt = Annotated[str | None, typer.Option(metavar="NAME", callback=check_strategy,
    help="Strategy name (see `games`).")]
RulesOpt = Annotated[str | None, typer.Option("--rules", metavar="FILE",
    help="Use this rules data file.")]
ThreadsOpt = Annotated[int | None, typer.Option(metavar="N", callback=check_threads,
    help="Worker threads (default: all; more than the cores are clamped).")]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", metavar="", help="No progress bar.")]
JsonOpt = Annotated[bool, typer.Option("--json", metavar="", help="One JSON object on stdout.")]
OverwriteOpt = Annotated[bool, typer.Option(metavar="",
    help="Replace results of this tool in --out (only files it wrote).")]


# The options every command words its own way: the declaration here, the words (what a game,
# the folder or a resume is to that command) where the command is.
def games_option(help: str) -> Any:
    """``--games N``, checked against the ceiling on games one command plays."""
    return Annotated[int, typer.Option(metavar="N", callback=check_games, help=help)]


def out_option(help: str, metavar: str = "DIR") -> Any:
    """``--out DIR`` (``-o``), optional: where the command also keeps what it played."""
    return Annotated[str | None, typer.Option("--out", "-o", metavar=metavar, help=help)]


def resume_option(help: str) -> Any:
    """``--resume``, a flag: finish what an interrupted command began in ``--out``."""
    return Annotated[bool, typer.Option(metavar="", help=help)]


def entrants_option(example: str) -> Any:
    """``--strategies NAMES``, required: the entrants a command pits against each other."""
    return Annotated[str, typer.Option(metavar="NAMES",
        help="Comma-separated entrants: NAME, NAME:BUDGET (a search's iterations), "
             f"NAME{{key=value,...}}; e.g. {example}.")]


def rows_option(help: str) -> Any:
    """``--top N``: how many rows a table shows (0: every row)."""
    return Annotated[int, typer.Option(metavar="N", callback=bounded(0, 10**6, "rows shown"),
                                       help=help)]


def interrupted(folder: str | None, kept: str = "every chunk of games finished",
                played: str = "the games played") -> NoReturn:
    """A Ctrl-C in a command that keeps its work in ``--out`` as it goes: one line saying how
    to finish it (or that nothing was kept), exit status 130."""
    if folder:
        typer.echo(f"\ninterrupted; {kept} is saved in {folder}. Run the same command with "
                   "--resume to finish.", err=True)
    else:
        typer.echo(f"\ninterrupted (nothing kept: give --out DIR to keep {played})", err=True)
    raise typer.Exit(130) from None


DaskOpt = Annotated[str | None, typer.Option(metavar="ADDRESS",
    help="Play on the Dask cluster at this scheduler address (tcp://HOST:8786).")]
DaskLocalOpt = Annotated[int | None, typer.Option(
    "--dask-local", metavar="N", callback=check_dask_local,
        help=f"Play on a local Dask cluster of N worker processes (1 to {MAX_DASK_LOCAL}).")]
ChunkOpt = Annotated[int, typer.Option(metavar="N", callback=check_positive,
    help="Playouts per task (results do not depend on it).")]
ResumeOpt = resume_option("Finish the run begun in --out, reusing every chunk of games it "
                          "finished.")

# The options most commands take, each declared once: a command takes one by naming it as a
# keyword-only parameter with neither a type nor a default (``*, seed, set_, rules,
# threads``), and :func:`common_options` gives it the declaration and default below, so it
# reads to typer, to --help and to a Python caller as if written out.  A command that words
# one of them its own way declares it in full, as any other option.
COMMON_OPTIONS: dict[str, tuple[Any, Any]] = {
    "seed": (SeedOpt, 1),
    "set_": (SetOpt, None),
    "strategy": (StrategyOpt, None),
    "rules": (RulesOpt, None),
    "threads": (ThreadsOpt, None),
    "resume": (ResumeOpt, False),
    "overwrite": (OverwriteOpt, False),
    "scheduler": (DaskOpt, None),
    "dask_local": (DaskLocalOpt, None),
    "chunk": (ChunkOpt, 8192),
    "json_out": (JsonOpt, False),
    "quiet": (QuietOpt, False),
    "shortcuts": (dict | None, None),  # filled by with_shortcuts, not an option itself
}


def common_options(fn: Callable) -> Callable:
    """Give each bare keyword-only parameter of the command ``fn`` its declaration and
    default from :data:`COMMON_OPTIONS` (a bare name that is not there is a mistake)."""
    defaults = dict(fn.__kwdefaults__ or {})
    for name, p in inspect.signature(fn).parameters.items():
        if (p.kind is not p.KEYWORD_ONLY or p.annotation is not p.empty
                or p.default is not p.empty):
            continue
        if name not in COMMON_OPTIONS:
            raise TypeError(f"{fn.__name__}({name}): not a common option; declare it in full")
        fn.__annotations__[name], defaults[name] = COMMON_OPTIONS[name]
    fn.__kwdefaults__ = defaults
    return fn


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


def shortcut_help(option: str, table: dict[str, list[tuple[Game, Shortcut]]]) -> str:
    return " ".join(f"{g.name}: {sc.help or 'sets ' + sc.key}" + ("" if (sc.help or "")
                    .endswith(".") else ".") for g, sc in table[option])


def shortcuts_epilog() -> str:
    parts = []
    for name in game_names():
        g = get_game(name)
        opts = ", ".join(f"--{o} {sc.metavar}" for o, sc in g.shortcuts.items()) or "none"
        parts.append(f"{name}: {opts}")
    return "Game shortcuts by game: " + "; ".join(parts) + "."


def with_shortcuts(fn: Callable, table: dict[str, list[tuple[Game, Shortcut]]]) -> Callable:
    """Give a command that takes a GAME one option per game shortcut of ``table`` (the union
    over every registered game, :func:`shortcut_table`, so a new game's shortcuts appear with
    no edit here); the command gets them as ``shortcuts={option: value or None}``.  Its GAME
    argument names the games registered when the command line is built, like the shortcuts."""
    sig = inspect.signature(fn, eval_str=True)
    params = [p.replace(annotation=game_argument()) if p.name == "game" else p
              for p in sig.parameters.values() if p.name != "shortcuts"]
    extra = []
    for option, users in table.items():
        metavars = sorted({sc.metavar for _, sc in users})
        extra.append(inspect.Parameter(
            f"shortcut__{option.replace('-', '_')}", inspect.Parameter.KEYWORD_ONLY,
            default=None,
            annotation=Annotated[str | None, typer.Option(
                f"--{option}", metavar="|".join(metavars), help=shortcut_help(option, table),
                rich_help_panel=SHORTCUT_PANEL, show_default=False)]))

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        shortcuts = {option: kwargs.pop(f"shortcut__{option.replace('-', '_')}", None)
                     for option in table}
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


# ---- the --out folder, claimed before anything is played ---------------------------------
def claim_out(out: str | None, kind: str, overwrite: bool) -> tuple[bool, str]:
    """Check ``--out`` before anything is played; (whether the folder was made here, the
    state: "new" or "same")."""
    from experiments.storage.outdir import claim

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


def unmake_out(out: str | None, made: bool) -> None:
    if out is not None and made:
        with contextlib.suppress(OSError):
            Path(out).rmdir()  # the folder made above, still empty


def write_claimed(write: Callable[[], Any], out: str, made: bool) -> None:
    """Write what was played into the ``--out`` folder claimed before it (:func:`claim_out`);
    a refusal or a failed write ends in one error line, the folder made for it removed."""
    try:
        write()
    except OutDirError as exc:
        unmake_out(out, made)
        fail(str(exc))
    except OSError as exc:
        unmake_out(out, made)
        cannot_write(exc, out)


def check_resume(what: str, resume: bool, overwrite: bool, out: str | None) -> None:
    """``--resume`` finishes the ``what`` begun in ``--out``: it needs the folder, and is not
    given with ``--overwrite``."""
    if resume and not out:
        fail(f"--resume: finishes the {what} begun in --out; give --out DIR (the folder it was "
             "begun in)")
    if resume and overwrite:
        fail(f"--resume and --overwrite: give one (--resume finishes the {what} in --out, "
             "--overwrite starts it afresh)")
