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
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simcore.game import use_strategies
from simcore.rules_data import RulesError, from_text


@dataclass(frozen=True)
class Param:
    """A strategy parameter: a float in [lo, hi], or with ``choices`` a name among them (held
    as its index, which is what the jitted function reads)."""

    default: float
    lo: float
    hi: float
    help: str
    choices: tuple[str, ...] = ()

    @classmethod
    def choice(cls, default: str, choices: tuple[str, ...], help: str) -> Param:
        return cls(float(choices.index(default)), 0.0, float(len(choices) - 1), help, choices)

    def shown(self, value: float) -> float | str:
        """``value`` as a user writes it: the name for a choice."""
        return self.choices[int(value)] if self.choices else value


@dataclass(frozen=True)
class StrategySpec:
    game: str
    name: str
    fn: Callable
    params: Mapping[str, Param]
    description: str


@dataclass
class Strategy:
    spec: StrategySpec
    values: np.ndarray = field(repr=False)

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def fn(self) -> Callable:
        return self.spec.fn

    def param_dict(self) -> dict[str, float | str]:
        return {k: p.shown(float(self.values[i]))
                for i, (k, p) in enumerate(self.spec.params.items())}


_REGISTRY: dict[str, dict[str, StrategySpec]] = {}
_LOADED: set[str] = set()


def register(
    game: str,
    name: str,
    fn: Callable,
    params: Mapping[str, Param] | None = None,
    description: str = "",
) -> StrategySpec:
    spec = StrategySpec(game, name, fn, dict(params or {}), description)
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
    return _REGISTRY.get(game, {})


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
    """The strategy ``name`` of ``game`` with parameter ``overrides`` checked against bounds."""
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
    for key, value in (overrides or {}).items():
        if key not in spec.params:
            raise RulesError(
                f"override: key 'strategy.{key}': strategy {name!r} has no such parameter; "
                f"allowed: {', '.join('strategy.' + k for k in keys) or 'none'}"
            )
        p = spec.params[key]
        value = from_text("float" if not p.choices else "str", value, p.choices or None)
        if p.choices:
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
    return Strategy(spec, values)


def param_offsets(params: Mapping[str, Param], start: int = 0) -> dict[str, int]:
    """Each parameter's place in the strategy's vector, so jitted code reads them by name
    (module constants such as ``AGGRESSION = OFF["aggression"]``), not by bare index."""
    return {name: start + k for k, name in enumerate(params)}


use_strategies(get)  # Game.configure finds strategies by name through this registry
