"""The data a strategy is made of: its parameters, its registered spec, a configured strategy.

Kept apart from the registry so that modules defining strategies (``strategies/search.py``)
need not import the registry that loads them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np


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
    table: bool = False  # a strategy per seat (SeatTable): its params are seat_0, seat_1, ...
    # ``fn`` again when it returns ``uniform_legal(mask, rng)`` and nothing else: a step
    # game's driver makes that choice inline for the seats it plays (``engine.UNIFORM``)
    uniform: Callable | None = None


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
    def uniform(self) -> bool:
        """True when the driver may choose for this strategy inline (``StrategySpec.uniform``);
        a spec whose ``fn`` was replaced by another function is not."""
        spec = self.spec
        return (spec.uniform is not None and spec.fn is spec.uniform and self.rollout is None
                and spec.search is None)

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


def param_offsets(params: Mapping[str, Param], start: int = 0) -> dict[str, int]:
    """Each parameter's place in the strategy's vector, so jitted code reads them by name
    (module constants such as ``AGGRESSION = OFF["aggression"]``), not by bare index."""
    return {name: start + k for k, name in enumerate(params)}


@dataclass
class SeatTable:
    """A strategy for each seat (a table of mixed strategies, for ladders, tournaments and
    sweeps): the step engine's driver plays seat ``k`` with ``seats[k]``.  ``spec`` and
    ``values`` are the table's own choice parameters (``seat_K``: which strategy).  At most one
    distinct search strategy may sit at the table (at one seat or several)."""

    spec: StrategySpec
    values: np.ndarray
    seats: list[Strategy]

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def fn(self) -> Callable:
        return self.seats[0].fn

    @property
    def label(self) -> str:
        return " / ".join(s.name for s in self.seats)

    def seat_members(self, n_seats: int) -> tuple[list[Strategy], list[int]]:
        """(the different strategies, which plays each seat); a seat beyond the list plays
        the last one."""
        members: list[Strategy] = []
        keys: list[tuple] = []
        seat_of = []
        for k in range(n_seats):
            strat = self.seats[min(k, len(self.seats) - 1)]
            key = (strat.name, tuple(strat.param_dict().items()))
            if key not in keys:
                keys.append(key)
                members.append(strat)
            seat_of.append(keys.index(key))
        return members, seat_of

    def param_specs(self) -> dict[str, Param]:
        out = dict(self.spec.params)
        for k, strat in enumerate(self.seats):
            out.update({f"seat_{k}.{name}": p for name, p in strat.param_specs().items()})
        return out

    def param_dict(self) -> dict[str, float | str]:
        out: dict[str, float | str] = {
            k: p.shown(float(self.values[i])) for i, (k, p) in enumerate(self.spec.params.items())}
        for k, strat in enumerate(self.seats):
            out.update({f"seat_{k}.{name}": v for name, v in strat.param_dict().items()})
        return out
