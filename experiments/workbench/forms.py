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


def parse_form(game: str, form: Any, action: str) -> Ask:
    """The checked request of a game page's form for ``action`` (run, compare, sweep,
    trace); FormError (with its field) on the first bad input."""
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
    strategy = _text(form, "strategy") or g.default_strategy
    specs = {s.name: s for s in strategies_of(g.name)}
    seats = seat_names(g.name)
    per_seat = [_text(form, f"seat:{k}") for k in range(len(seats))]
    used = {name for name in per_seat if name} | ({strategy} if not all(per_seat) else set())
    if any(per_seat):
        for name in per_seat:
            if name and name not in specs:
                raise FormError(f"strategy {name!r} is not known for {g.name}; known: "
                                + ", ".join(specs), f"seat:{per_seat.index(name)}")
    params: list[str] = []
    for sname, spec in specs.items():
        for prm in spec.params:
            text = _text(form, f"param:{sname}:{prm['name']}")
            if not text:
                continue
            if sname not in used:
                raise FormError(f"strategy.{prm['name']}={text}: a parameter of {sname}, which "
                                "no seat plays here; choose that strategy or clear the field",
                                f"param:{sname}:{prm['name']}")
            if any(per_seat):
                for k, name in enumerate(per_seat):
                    if (name or strategy) == sname:
                        params.append(f"strategy.seat_{k}.{prm['name']}={text}")
            else:
                params.append(f"strategy.{prm['name']}={text}")
    if any(per_seat):
        params = [f"strategy.seat_{k}={name or strategy}" for k, name in enumerate(per_seat)
                  ] + params
        strategy = "table"
    overrides += params

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
