"""Strategies, registered by game and name.

A strategy is a jitted decision function plus a vector of float parameters.  The function
sees only what a game publishes for its players: the decision view (the game's public state
laid out in ``simcore/<game>/state.py``), the mask of legal choices, its parameters and a
random stream.  It returns the index of a legal choice.  Games never import strategies, so a
new strategy is a new function registered here, with no edit to any game's core.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from simcore.game import use_strategies
from simcore.rules_data import RulesError, from_text
from strategies.base import Param, SeatTable, Strategy, StrategySpec, param_offsets

__all__ = ["Param", "Strategy", "StrategySpec", "get", "names", "param_offsets", "register",
           "register_search", "specs"]


_REGISTRY: dict[str, dict[str, StrategySpec]] = {}
_LOADED: set[str] = set()


def register(
    game: str,
    name: str,
    fn: Callable,
    params: Mapping[str, Param] | None = None,
    description: str = "",
    uniform: bool = False,
) -> StrategySpec:
    """``uniform``: ``fn`` returns ``uniform_legal(mask, rng)`` and nothing else, so the step
    engine's driver may make that choice inline (``StrategySpec.uniform``)."""
    spec = StrategySpec(game, name, fn, dict(params or {}), description,
                        uniform=fn if uniform else None)
    _REGISTRY.setdefault(game, {})[name] = spec
    return spec


def register_search(game: str, name: str, search: Callable, setup: Callable,
                    params: Mapping[str, Param], description: str = "") -> StrategySpec:
    """A search strategy: ``params`` must include ``rollout`` (a choice of the game's other
    strategies)."""
    spec = StrategySpec(game, name, None, dict(params), description, search, setup)
    _REGISTRY.setdefault(game, {})[name] = spec
    return spec


def _load(game: str) -> dict[str, StrategySpec]:
    """The game's strategies: the built-in ones of ``strategies/<game>.py`` plus any
    registered from elsewhere (before or after)."""
    if game not in _LOADED:
        _LOADED.add(game)
        try:
            importlib.import_module(f"strategies.{game}")
        except ModuleNotFoundError as exc:
            if exc.name != f"strategies.{game}":
                raise
        from simcore.registry import GAME_MODULES, get_game

        if game in GAME_MODULES and get_game(game).kind.searchable:
            from strategies.search import search_specs

            for spec in search_specs(game, [n for n, s in _REGISTRY.get(game, {}).items()
                                            if s.search is None]):
                _REGISTRY[game][spec.name] = spec
        if game in GAME_MODULES and get_game(game).kind.style == "step" and _REGISTRY.get(game):
            _register_table(game)
    return _REGISTRY.get(game, {})


TABLE_SEATS = 8


def _register_table(game: str) -> None:
    """``table``: a strategy for each seat (``strategy.seat_K``), each with its own
    parameters (``strategy.seat_K.X``), for every step game."""
    choices = tuple(n for n in _REGISTRY[game] if n != "table")
    default = next((n for n in ("heuristic", "random") if n in choices), choices[0])
    params = {f"seat_{k}": Param.choice(default, choices, f"strategy of seat {k}")
              for k in range(TABLE_SEATS)}
    _REGISTRY[game]["table"] = StrategySpec(
        game, "table", None, params,
        "A strategy for each seat (strategy.seat_0, seat_1, ...; each strategy's own "
        "parameters as strategy.seat_K.NAME), to pit strategies against each other at one "
        "table.", table=True)


def canonical_name(table: Mapping[str, Any], name: str) -> str:
    """``name`` as the table spells it when it matches one of its names in another case
    (names are read case-insensitively everywhere); else ``name`` unchanged."""
    if name in table or not isinstance(name, str):
        return name
    matches = [k for k in table if k.lower() == name.strip().lower()]
    return matches[0] if len(matches) == 1 else name


def names(game: str) -> list[str]:
    return list(_load(game))


def specs(game: str) -> dict[str, StrategySpec]:
    return dict(_load(game))


def get(game: str, name: str, overrides: Mapping[str, Any] | None = None) -> Strategy:
    """The strategy ``name`` of ``game`` with parameter ``overrides`` checked against bounds;
    a name ending in ``.toml`` is a player file (:mod:`strategies.playerfile`)."""
    from strategies import playerfile

    if playerfile.is_player_file(name):
        return playerfile.strategy_of(game, name, overrides, get)
    table = _load(game)
    name = canonical_name(table, name)
    if name not in table:
        what = "an empty strategy name" if not str(name).strip() else f"strategy {name!r}"
        raise RulesError(
            f"{what} is not known for {game}; known: {', '.join(table) or 'none'}"
        )
    spec = table[name]
    values = np.array([p.default for p in spec.params.values()], dtype=np.float64)
    keys = list(spec.params)
    overrides = dict(overrides or {})
    rollout_over = {k[8:]: overrides.pop(k) for k in list(overrides)
                    if spec.search is not None and k.startswith("rollout.")}
    seat_over: dict[int, dict[str, Any]] = {}
    if spec.table:
        for k in list(overrides):
            head, dot, rest = k.partition(".")
            if dot and head.startswith("seat_") and head[5:].isdigit() and head in spec.params:
                seat_over.setdefault(int(head[5:]), {})[rest] = overrides.pop(k)
    for key, value in overrides.items():
        if key not in spec.params:
            raise RulesError(
                f"override: key 'strategy.{key}': strategy {name!r} has no such parameter; "
                f"allowed: {', '.join('strategy.' + k for k in keys) or 'none'}"
            )
        p = spec.params[key]
        value = from_text("float" if not p.choices else "str", value, p.choices or None)
        if p.choices:
            if not isinstance(value, str) and str(value) in p.choices:
                value = str(value)  # a choice of numbers ("0", "1") written as a number
            if value not in p.choices:
                raise RulesError(f"override: key 'strategy.{key}': {value!r} is not allowed; "
                                 f"allowed: {', '.join(p.choices)}")
            values[keys.index(key)] = float(p.choices.index(value))
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise RulesError(f"override: key 'strategy.{key}': {value!r} is not a number")
        if not p.lo <= value <= p.hi:
            raise RulesError(
                f"override: key 'strategy.{key}': {value!r} is out of range; "
                f"allowed: between {p.lo} and {p.hi}"
            )
        values[keys.index(key)] = float(value)
    if values.size == 0:
        values = np.zeros(1, dtype=np.float64)  # jitted signatures want a non-empty vector
    if spec.table:
        seats = []
        for k, key in enumerate(keys):
            name_k = spec.params[key].shown(values[k])
            try:
                seats.append(get(game, name_k, seat_over.get(k, {})))
            except RulesError as exc:
                raise RulesError(str(exc).replace("'strategy.", f"'strategy.{key}.")) from None
        return SeatTable(spec, values, seats)
    if spec.search is None:
        return Strategy(spec, values)
    rollout_name = spec.params["rollout"].shown(values[keys.index("rollout")])
    try:
        rollout = get(game, rollout_name, rollout_over)
    except RulesError as exc:
        raise RulesError(str(exc).replace("'strategy.", "'strategy.rollout.")) from None
    return Strategy(spec, values, rollout)


use_strategies(get)  # Game.configure finds strategies by name through this registry
