"""A game's settings for the pages, and a submitted form checked as the CLI checks it.

The numbers a command line takes (games, seed, playout index, strategy) are checked by the
CLI's own parser (the ``run`` and ``trace`` commands' options and callbacks), so a bad one
gets the CLI's very line; the settings are checked by ``Game.configure`` (the rules data's
bounds and the game's own checks), a sweep by its spec's checks and a target by ``tune``'s.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from experiments.workbench.errors import FormError, field_of, message, user_errors
from experiments.workbench.work import Ask

MAX_SWEEP_VALUES = 41

# The command line whose parser and words the forms use (``experiments.cli``), handed in by
# whoever starts the workbench (``cthulhu-sim serve`` passes its own module): the CLI imports
# the workbench for its ``serve`` command, so the workbench never imports the CLI back.
_cli: Any = None


def use_cli(module: Any) -> None:
    """Check forms with this command line's parser (``experiments.cli``)."""
    global _cli
    _cli = module


def the_cli() -> Any:
    if _cli is None:
        raise RuntimeError("the workbench checks forms with the CLI's own parser: start it with "
                           "create_app(..., cli=experiments.cli) or `cthulhu-sim serve`")
    return _cli
SPAN = re.compile(r"^\s*(-?[0-9.eE+_]+)\s*:\s*(-?[0-9.eE+_]+)\s*(?::\s*(-?[0-9.eE+_]+)\s*)?$")


# ---- what the game page shows -----------------------------------------------------------
@dataclass
class Setting:
    key: str
    name: str  # the last part of the key
    text: str  # the default, as --set reads it back
    kind: str
    allowed: str
    choices: list[str] | None
    source: str
    note: str
    numeric: bool


@dataclass
class Group:
    name: str  # "" for the file's top-level settings
    settings: list[Setting] = field(default_factory=list)


def setting_groups(game: str) -> list[Group]:
    """Every key of the game's rules data, grouped by its table, in the file's order."""
    from experiments.reporting.text import set_text
    from simcore.registry import get_game

    rules = get_game(game).default_rules()
    groups: dict[str, Group] = {}
    for key, e in rules.entries.items():
        table, _, name = key.rpartition(".")
        choices = None
        if e.kind == "bool":
            choices = ["true", "false"]
        elif e.choices is not None and not e.kind.startswith("list"):
            choices = [set_text(c) for c in e.choices]
        groups.setdefault(table, Group(table)).settings.append(Setting(
            key, name, set_text(e.value), e.kind, e.allowed(), choices, e.source,
            " ".join(e.note.split()), e.kind in ("int", "float")))
    return list(groups.values())


def defaults(game: str) -> dict[str, str]:
    return {s.key: s.text for g in setting_groups(game) for s in g.settings}


@dataclass
class StrategyInfo:
    name: str
    text: str
    params: list[dict]  # name, default, allowed, help, choices


def strategies_of(game: str) -> list[StrategyInfo]:
    from strategies import registry

    cli = the_cli()

    out = []
    for name, spec in registry.specs(game).items():
        params = []
        for k, prm in spec.params.items():
            info = cli._param_info(prm)
            params.append({"name": k, **info, "choices": list(prm.choices or []) or None})
        out.append(StrategyInfo(name, cli._first_paragraph(spec.description), params))
    return out


def entrant_example(game: str) -> str:
    """An entrant of ``game`` for the page's placeholder: a search with a budget, or the
    default strategy with one of its parameters."""
    from simcore.registry import get_game
    from strategies import registry

    specs = registry.specs(game)
    for name, spec in specs.items():
        if spec.search is not None:
            return f"{name}:200"
    name = get_game(game).default_strategy
    params = list(specs[name].params) if name in specs else []
    return f"{name}{{{params[0]}=...}}" if params else name


# ---- player files (``cthulhu-sim train --out``) ------------------------------------------
# where the workbench looks for them: the results folder (any depth), and the project's own
PROJECT_PLAYERS = Path(__file__).resolve().parents[2] / "reports" / "players"
PROJECT = "project:"  # the name of a file of PROJECT_PLAYERS: project:reports/players/NAME
PLAYER_FORMAT = 'format = "cthulhu-sim player 1"'


@dataclass
class PlayerChoice:
    name: str  # as the form sends it (and an entrant is typed): a name, never a user's path
    path: Path
    strategy: str  # the strategy the file trains
    text: str  # a few words on it for the page

    def seat_overrides(self, seat: int, prefix: str) -> list[str]:
        """What seats this player at seat ``seat`` of the table (``prefix`` is
        ``strategy.seat_K``): its strategy and that seat's trained parameters, as
        :meth:`experiments.running.entrants.Entrant.seat_overrides` seats it."""
        from experiments.reporting.text import set_text
        from strategies.playerfile import load

        trained = load(self.path).seat_parameters(seat)
        return [f"{prefix}={self.strategy}"] + [f"{prefix}.{k}={set_text(v)}"
                                                for k, v in trained.items()]


def _player_choice(name: str, path: Path, game: str) -> PlayerChoice | None:
    """The player file at ``path`` when it is one of ``game`` (None otherwise)."""
    from simcore.rules_data import RulesError
    from strategies.playerfile import load

    try:
        if PLAYER_FORMAT not in path.read_text(encoding="utf-8", errors="replace")[:4000]:
            return None  # (a sweep's spec, a manifest ...: not a player file)
        pf = load(path, game)
    except (OSError, RulesError):
        return None
    words = [pf.strategy, "trained seat by seat" if pf.seats else "trained"]
    gain = pf.gain.get("value")
    if isinstance(gain, (int, float)):
        words.append(f"gain {100 * gain:+.1f} points")
    return PlayerChoice(name, path.resolve(), pf.strategy, ", ".join(words))


def player_files(game: str, root: Path | None) -> dict[str, PlayerChoice]:
    """The player files of ``game`` the workbench offers, by name: those under the results
    folder ``root`` (named by their path inside it), then those of the project's
    ``reports/players/`` (named ``project:reports/players/NAME``) not already listed."""
    from experiments.workbench.paths import SEGMENT

    out: dict[str, PlayerChoice] = {}
    seen: set[Path] = set()
    if root is not None:
        base = Path(root).resolve()
        for p in sorted(base.rglob("*.toml")):
            rel = p.relative_to(base).parts
            real = p.resolve()
            if not all(SEGMENT.match(part) and ".." not in part for part in rel) or \
                    base not in real.parents:  # (a link out of the folder is not offered)
                continue
            choice = _player_choice("/".join(rel), p, game)
            if choice is not None:
                out[choice.name] = choice
                seen.add(real)
    if PROJECT_PLAYERS.is_dir():
        for p in sorted(PROJECT_PLAYERS.glob("*.toml")):
            if p.resolve() in seen:
                continue
            choice = _player_choice(f"{PROJECT}reports/players/{p.name}", p, game)
            if choice is not None:
                out[choice.name] = choice
    return out


def resolve_player(game: str, root: Path | None, name: str, where: str,
                   offered: dict[str, PlayerChoice]) -> PlayerChoice:
    """The offered player file ``name``; FormError (one line, beside ``where``) for a name
    that is not one: the loader's own words for a file there that is not a player of
    ``game``, and never a path outside the results folder or the project's players."""
    from experiments.workbench.paths import SEGMENT, inside
    from simcore.rules_data import RulesError
    from strategies.playerfile import load

    if name in offered:
        return offered[name]
    names = ", ".join(offered) or "none"
    missing = FormError(f"{where} {name!r}: no player file of {game} by that name; offered: "
                        f"{names} (`cthulhu-sim train --out FILE.toml` writes them, into the "
                        "results folder or reports/players/)", where)
    if name.startswith(PROJECT):
        rest = name[len(PROJECT):]
        file = rest.removeprefix("reports/players/")
        if rest == file or not SEGMENT.match(file) or ".." in file:
            raise missing
        path = PROJECT_PLAYERS / file
    elif root is not None:
        path = inside(Path(root), name, where)
    else:
        raise missing
    if not path.is_file():
        raise missing
    try:
        load(path, game)
    except RulesError as exc:
        raise FormError(f"{where} {name!r}: " + str(exc).replace(f"player file {path}: ", ""),
                        where) from None
    choice = _player_choice(name, path, game)
    if choice is None:  # (a player file of the game, but not written as train writes one)
        raise FormError(f"{where} {name!r}: not a player file written by `cthulhu-sim "
                        "train`", where)
    return choice


def seat_names(game: str) -> list[str]:
    """The seats a strategy can be chosen for one by one (competitive step games, through
    their ``table`` strategy); none otherwise."""
    from simcore.registry import get_game
    from strategies import registry

    g = get_game(game)
    if g.kind.cooperative or "table" not in registry.names(game):
        return []
    rules = g.default_rules()
    return [f"{s} {n}" if n != str(s) else str(s) for s, n in enumerate(g.seat_names(rules))]


def game_row(game: str) -> dict[str, Any]:
    """One game of the Games page."""
    from simcore.registry import get_game
    from strategies import registry

    g = get_game(game)
    rules = g.default_rules()
    players = ""
    entry = rules.entries.get("players")
    if entry is not None:
        players = f"{entry.value} ({entry.allowed()})"
    elif not g.kind.cooperative:
        players = f"{g.seats(rules)} ({', '.join(g.seat_names(rules))})"
    return {"name": g.name, "title": g.title, "kind": the_cli().kind_text(g.kind),
            "players": players,
            "strategies": registry.names(game), "default_strategy": g.default_strategy,
            "sources": rules.source_counts(), "n_keys": len(rules.entries),
            "rules_file": rules.path.name}


# ---- a submitted form -------------------------------------------------------------------
def _cli_check(command: str, args: list[str]) -> dict[str, Any]:
    """Parse ``args`` with the CLI's own ``command`` (options and their callbacks, nothing
    run); a bad value raises FormError with the CLI's line, beside the option's field."""
    import typer

    cli = the_cli()
    # the command line's click group: given as it runs (``serve``), or built from its app
    group = getattr(cli, "group", None) or typer.main.get_command(cli.app)
    cmd = group.commands[command]  # type: ignore[attr-defined]
    try:
        ctx = cmd.make_context(command, list(args),
                               parent=group.context_class(group, info_name="cthulhu-sim"))
    except cli._cx.ClickException as exc:  # (typer's own click, or click)
        line = cli._usage_line(exc)
        m = re.match(r"--([a-z-]+)", line)
        raise FormError(line, m[1].replace("-", "_") if m else "") from None
    return ctx.params


def _text(form: Any, name: str) -> str:
    v = form.get(name, "")
    return v.strip() if isinstance(v, str) else ""


def parse_sweep_values(text: str, kind: str) -> list:
    """``4,6,8`` or a span ``LO:HI`` (every integer, or nine points of a float's span) or
    ``LO:HI:STEP``."""
    from simcore.rules_data import parse_text_value

    if not text:
        raise FormError("sweep_values: give the values to sweep, e.g. 4,6,8 or 2:10",
                        "sweep_values")
    m = SPAN.match(text)
    if m:
        try:
            lo, hi = float(m[1].replace("_", "")), float(m[2].replace("_", ""))
            step = float(m[3].replace("_", "")) if m[3] else None
        except ValueError:
            raise FormError(f"sweep_values {text!r}: LO:HI or LO:HI:STEP takes numbers",
                            "sweep_values") from None
        if not (math.isfinite(lo) and math.isfinite(hi)) or hi <= lo:
            raise FormError(f"sweep_values {text!r}: the span's end must be above its start",
                            "sweep_values")
        if step is None:
            step = 1.0 if kind == "int" and hi - lo < MAX_SWEEP_VALUES else (hi - lo) / 8
        if not (math.isfinite(step) and step > 0):
            raise FormError(f"sweep_values {text!r}: the step must be above 0", "sweep_values")
        n = int(math.floor((hi - lo) / step + 1e-9)) + 1
        if n > MAX_SWEEP_VALUES:
            raise FormError(f"sweep_values {text!r}: {n:,} values; a sweep here takes at most "
                            f"{MAX_SWEEP_VALUES} (give a larger step)", "sweep_values")
        values = [lo + i * step for i in range(n)]
        if kind == "int":
            values = sorted({int(round(v)) for v in values})
        else:
            values = [float(f"{v:.10g}") for v in values]
    else:
        values = [parse_text_value(x.strip()) for x in text.split(",") if x.strip()]
        if len(values) > MAX_SWEEP_VALUES:
            raise FormError(f"sweep_values: {len(values)} values; a sweep here takes at most "
                            f"{MAX_SWEEP_VALUES}", "sweep_values")
        if kind == "float":
            values = [float(v) if isinstance(v, int) and not isinstance(v, bool) else v
                      for v in values]
    if len(values) < 2:
        raise FormError(f"sweep_values {text!r}: give two or more values to sweep",
                        "sweep_values")
    return values


def parse_form(game: str, form: Any, action: str, root: Path | None = None) -> Ask:
    """The checked request of a game page's form for ``action`` (run, compare, sweep,
    trace); FormError (with its field) on the first bad input.  ``root``: the results folder,
    where (with the project's ``reports/players/``) the player files offered are."""
    from simcore.registry import get_game

    g = get_game(game)
    known = defaults(g.name)
    overrides = []
    for key, default in known.items():
        text = _text(form, f"set:{key}")
        if f"set:{key}" in form and text != default:
            if not text:
                raise FormError(f"--set {key}=: an empty value; give one ({default} by "
                                "default)", f"set:{key}")
            overrides.append(f"{key}={text}")
    overrides += _strategy_overrides(g, form, root)
    strategy = overrides.pop()  # (the strategy to play, handed back last)

    games_text = _text(form, "games") or "10000"
    seed_text = _text(form, "seed") or "1"
    args = [g.name, "--seed", seed_text, "--strategy", strategy]
    if action == "trace":
        args += ["--index", _text(form, "index") or "0"]
        parsed = _cli_check("trace", args)
    else:
        parsed = _cli_check("run", args + ["--games", games_text])
    ask = Ask(g.name, overrides, strategy, games=int(parsed.get("games") or 10_000),
              seed=int(parsed["seed"]), index=int(parsed.get("index") or 0),
              save_as=_text(form, "save_as"))
    precision = _text(form, "precision")
    if precision and action in ("run", "sweep"):
        try:
            ask.precision = float(precision)
        except ValueError:
            raise FormError(f"precision {precision!r}: a margin in percentage points, e.g. "
                            "0.5", "precision") from None
        if not (math.isfinite(ask.precision) and 0 < ask.precision < 50):
            raise FormError(f"precision {precision!r}: a margin in percentage points above 0 "
                            "and below 50", "precision")
    try:
        config = ask.configure()
    except user_errors() as exc:
        raise FormError(message(exc), field_of(exc, set(known))) from None
    if action == "compare" and not _text(form, "compare_with"):
        if not config.changed() and strategy == g.default_strategy:
            raise FormError("nothing to compare: every setting is at its default; change one "
                            "(or compare with a saved run)", "")
    if action == "compare":
        ask.compare_with = _text(form, "compare_with")
    if action == "sweep":
        key = _text(form, "sweep_key")
        if key not in known:
            raise FormError(f"sweep_key {key!r}: choose a key of {g.name}'s rules data to sweep",
                            "sweep_key")
        ask.sweep_key = key
        entry = g.default_rules().entries[key]
        ask.sweep_values = parse_sweep_values(_text(form, "sweep_values"), entry.kind)
        ask.target = _text(form, "target")
        ask.metric = _text(form, "metric") or None
    return ask


def _strategy_overrides(g: Any, form: Any, root: Path | None) -> list[str]:
    """The strategy fields of a form as ``--set`` overrides (``strategy.X=...``, a table's
    ``strategy.seat_K...``), followed by the strategy to play: a strategy by name, a player
    file's path (an offered one), or ``table`` for a strategy per seat.  The ``entrant``
    field, when given, is checked by the entrant parser of ``compare --strategies``
    (``mcts:500{c=1}``, or an offered player file's name) and plays instead of ``strategy``."""
    from experiments.running.entrants import parse_entrant
    from simcore.rules_data import RulesError
    from strategies.playerfile import is_player_file

    offered = player_files(g.name, root)
    strategy = _text(form, "strategy") or g.default_strategy
    entrant = _text(form, "entrant")
    own: list[tuple[str, Any]] = []  # an entrant's parameters
    player: PlayerChoice | None = None
    if entrant:
        if is_player_file(entrant):
            player = resolve_player(g.name, root, entrant, "entrant", offered)
        else:
            try:
                e = parse_entrant(g.name, entrant, "entrant")
            except RulesError as exc:
                raise FormError(message(exc), "entrant") from None
            strategy = e.name
            own = list(e.settings().items())
    elif is_player_file(strategy):
        player = resolve_player(g.name, root, strategy, "strategy", offered)
    base = player.strategy if player else strategy  # the strategy whose parameters apply
    specs = {s.name: s for s in strategies_of(g.name)}
    seats = seat_names(g.name)
    per_seat = [_text(form, f"seat:{k}") for k in range(len(seats))]
    seat_players: list[PlayerChoice | None] = []
    for k, name in enumerate(per_seat):
        if name and is_player_file(name):
            seat_players.append(resolve_player(g.name, root, name, f"seat:{k}", offered))
        elif name and name not in specs:
            raise FormError(f"strategy {name!r} is not known for {g.name}; known: "
                            + ", ".join(specs), f"seat:{k}")
        else:
            seat_players.append(None)
    split = any(per_seat)
    # each seat's strategy by name (a player file's: the strategy it trains)
    playing = [sp.strategy if sp else (name or base)
               for sp, name in zip(seat_players, per_seat, strict=True)]
    used = set(playing) if split else {base}
    # a player file trained seat by seat plays as the table: its parameters are per seat
    table_file = player is not None and not split and bool(_seats_trained(player))
    params: list[str] = []
    given: set[str] = set()
    for sname, spec in specs.items():
        for prm in spec.params:
            text = _text(form, f"param:{sname}:{prm['name']}")
            if not text:
                continue
            if sname not in used:
                raise FormError(f"strategy.{prm['name']}={text}: a parameter of {sname}, which "
                                "no seat plays here; choose that strategy or clear the field",
                                f"param:{sname}:{prm['name']}")
            if sname == base:
                given.add(prm["name"])
            if split:
                # (a file chosen for a seat plays its own parameters; the strategy's
                # fields apply to the other seats, an inherited player file's on top)
                for k, name in enumerate(playing):
                    if name == sname and seat_players[k] is None:
                        params.append(f"strategy.seat_{k}.{prm['name']}={text}")
            elif table_file:
                params += [f"strategy.seat_{k}.{prm['name']}={text}" for k in range(len(seats))]
            else:
                params.append(f"strategy.{prm['name']}={text}")
    from experiments.reporting.text import set_text

    for key, value in own:
        if key in given:
            raise FormError(f"entrant {entrant!r}: {key} is given twice (in the entrant and in "
                            f"its field strategy.{key}); give it once", "entrant")
        if split:
            params += [f"strategy.seat_{k}.{key}={set_text(value)}"
                       for k, name in enumerate(per_seat) if not name]
        else:
            params.append(f"strategy.{key}={set_text(value)}")
    if split:
        seating: list[str] = []
        for k, name in enumerate(per_seat):
            sp = seat_players[k] or (player if not name else None)
            if sp is not None:
                seating += sp.seat_overrides(k, f"strategy.seat_{k}")
            else:
                seating.append(f"strategy.seat_{k}={name or base}")
        return seating + params + ["table"]
    return params + [str(player.path) if player else strategy]


def _seats_trained(player: PlayerChoice) -> dict:
    from strategies.playerfile import load

    return load(player.path).seats


def check_sweep(ask: Ask, root, folder: str) -> None:
    """A sweep's spec and a target checked before it is queued (nothing written)."""
    from experiments.running.spec import load_spec
    from experiments.workbench.work import spec_of, tune_kwargs

    games = ({"precision": ask.precision, "max_per_cell": ask.games}
             if ask.precision is not None else {"per_cell": ask.games})
    try:
        spec = load_spec(spec_of(ask, "check", {ask.sweep_key: ask.sweep_values}, games))
        spec.cells()
    except user_errors() as exc:
        raise FormError(message(exc), _spec_field(message(exc))) from None
    if ask.target:
        from experiments.analysis.tune import run_tune

        try:
            run_tune(ask.game, out=root / f"{folder}-tune", check_only=True,
                     **tune_kwargs(ask))
        except user_errors() as exc:
            text = message(exc)
            m = re.match(r"--([a-z-]+)", text)
            where = {"vary": "sweep_key", "bounds": "sweep_values", "metric": "metric",
                     "target": "target"}.get(m[1] if m else "", "target")
            raise FormError(text, where) from None


def _spec_field(text: str) -> str:
    m = re.search(r"key '([^']+)'", text)
    if not m:
        return "sweep_values"
    key = m[1]
    if key.startswith("axes"):
        return "sweep_values"
    if key.startswith("settings."):
        return f"set:{key[9:]}"
    if key.startswith("games.precision"):
        return "precision"
    if key.startswith("games"):
        return "games"
    if key.startswith("strategy"):
        return "strategy"
    return "sweep_values"
