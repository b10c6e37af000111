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
    fn: Callable | None  # the jitted decision function (None for a search strategy)
    params: Mapping[str, Param]
    description: str
    # a search strategy (strategies/search.py): its SEARCH function, and how its parameter
    # vector and workspace are set up for a configured game: setup(values, ip) -> (qp, ints,
    # floats).  Its parameter "rollout" names the strategy it plays positions out with.
    search: Callable | None = None
    setup: Callable | None = None


@dataclass
class Strategy:
    spec: StrategySpec
    values: np.ndarray = field(repr=False)  # its own parameters, in ``spec.params`` order
    rollout: Strategy | None = None  # a search strategy's rollout player

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def fn(self) -> Callable:
        """The policy the driver calls (a search strategy's: its rollout player's, which also
        plays the seats that do not search)."""
        return self.rollout.fn if self.rollout is not None else self.spec.fn

    @property
    def policy_values(self) -> np.ndarray:
        """The parameters handed to ``fn``."""
        return self.rollout.values if self.rollout is not None else self.values

    @property
    def search_fn(self) -> Callable | None:
        return self.spec.search

    def search_setup(self, ip: np.ndarray) -> tuple[np.ndarray, int, int]:
        """(search parameters, int and float workspace words) for a game's ``ip``."""
        return self.spec.setup(self.values, ip)

    def param_specs(self) -> dict[str, Param]:
        """Every parameter by its ``strategy.`` name, a rollout player's as ``rollout.X``."""
        out = dict(self.spec.params)
        if self.rollout is not None:
            out.update({f"rollout.{k}": p for k, p in self.rollout.param_specs().items()})
        return out

    def param_dict(self) -> dict[str, float | str]:
        out = {k: p.shown(float(self.values[i]))
               for i, (k, p) in enumerate(self.spec.params.items())}
        if self.rollout is not None:
            out.update({f"rollout.{k}": v for k, v in self.rollout.param_dict().items()})
        return out


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
            from strategies.search import register_for

            register_for(game, [n for n, s in _REGISTRY.get(game, {}).items()
                                if s.search is None])
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
    overrides = dict(overrides or {})
    rollout_over = {k[8:]: overrides.pop(k) for k in list(overrides)
                    if spec.search is not None and k.startswith("rollout.")}
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
    if spec.search is None:
        return Strategy(spec, values)
    rollout_name = spec.params["rollout"].shown(values[keys.index("rollout")])
    try:
        rollout = get(game, rollout_name, rollout_over)
    except RulesError as exc:
        raise RulesError(str(exc).replace("'strategy.", "'strategy.rollout.")) from None
    return Strategy(spec, values, rollout)


def param_offsets(params: Mapping[str, Param], start: int = 0) -> dict[str, int]:
    """Each parameter's place in the strategy's vector, so jitted code reads them by name
    (module constants such as ``AGGRESSION = OFF["aggression"]``), not by bare index."""
    return {name: start + k for k, name in enumerate(params)}


use_strategies(get)  # Game.configure finds strategies by name through this registry
