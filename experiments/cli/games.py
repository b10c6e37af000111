"""`cthulhu-sim games`: the games, their kind, settings and strategies."""

from __future__ import annotations

import dataclasses
import textwrap
from typing import Annotated

import typer

from experiments.cli.common import fail, message
from experiments.storage.jsonout import json_text
from simcore.game import GameKind
from simcore.registry import game_names, get_game


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


def games(
    game: Annotated[str | None, typer.Argument(
        metavar="GAME", help="Show every key of this game, with what it means.")] = None,
    json_out: Annotated[bool, typer.Option("--json", metavar="", help="Print JSON.")] = False,
) -> None:
    """The games, their kind, settings with defaults and sources, and their strategies."""
    from experiments.reporting.text import set_text
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
