"""The small common interface every game offers to the experiments layer and the CLI.

A game folder (``simcore/<game>/``) holds the same few files: ``rules.toml`` (rules data),
``loader.py`` (validation, numpy arrays), ``state.py`` (state and record layout), ``rules.py``
(the rules as njit functions), ``playout.py`` (one playout and the parallel batch runner),
``trace.py`` (one game in plain words), ``NOTES.md`` (readings of the rulebook) and
``game.py`` (a :class:`Game` subclass tying them together).
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from simcore.rules_data import RulesData, RulesError

DEFAULT_BATCH = 1 << 16

Overrides = Mapping[str, Any] | Iterable[str] | None


# Summary figures a game reports beyond its outcomes (``Game.summarize_extra``): each says
# what it is, and the experiments layer gives it its value and 95% interval.
@dataclass(frozen=True)
class Mean:
    """The mean of one value per game (or per game where something happened).  ``floor``:
    the least the value can be (0 for a count or a length, the usual case), where its
    interval is clipped; None for a value that can be negative."""

    values: np.ndarray
    floor: float | None = 0.0


@dataclass(frozen=True)
class Share:
    """``hits`` out of ``trials`` (games, or games of some kind)."""

    hits: int
    trials: int


@dataclass(frozen=True)
class Ratio:
    """sum(num) / sum(den), pooled over games (e.g. turns won by the roller over all turns);
    games are its independent units."""

    num: np.ndarray
    den: np.ndarray


@dataclass(frozen=True)
class Shortcut:
    """A CLI option that stands for ``--set KEY=VALUE`` (e.g. ``--goo cthulhu`` for
    ``--set goo=cthulhu``); the CLI builds its shortcut options from ``Game.shortcuts``."""

    key: str  # the rules-data key it sets
    metavar: str = "VALUE"
    help: str = ""


@dataclass(frozen=True)
class GameKind:
    """What kind of game it is (after OpenSpiel's ``GameType``); the CLI and the experiments
    layer ask this instead of guessing."""

    cooperative: bool  # one team result (seats 0) or per-seat winners
    perfect_information: bool  # every seat may see the whole state
    searchable: bool  # step contract (simcore.engine): a state can be copied and resumed
    has_checker: bool  # offers ``Game.check`` (a rules checker after every step)
    style: str = "callback"  # "step" (simcore.engine) or "callback" (rules call the strategy)


@dataclass
class Config:
    """A fully resolved configuration: rules data (with overrides) and a strategy."""

    game: Game
    rules: RulesData
    strategy: Any  # strategies.registry.Strategy
    params: Any  # the game's compiled numpy parameters

    def resolved(self) -> dict[str, Any]:
        out = self.rules.resolved()
        for k, v in self.strategy.param_dict().items():
            out[f"strategy.{k}"] = v
        return out

    def changed(self) -> dict[str, Any]:
        """The settings that differ from the rules file's and the strategy's defaults:
        every override, then every strategy parameter not at its default (``strategy.X``)."""
        out = dict(self.rules.overridden)
        params = self.strategy.param_specs()
        for k, v in self.strategy.param_dict().items():
            if k not in params or v != params[k].shown(params[k].default):
                out[f"strategy.{k}"] = v
        return out

    @property
    def seats(self) -> int:
        return self.game.seats(self.rules)


# How a strategy name becomes a strategy: set by the strategies package when it is imported
# (strategies depend on the games, never the other way round).
_strategy_lookup: Callable[[str, str, Mapping[str, Any]], Any] | None = None


def use_strategies(lookup: Callable[[str, str, Mapping[str, Any]], Any]) -> None:
    """Register how ``Game.configure`` finds a game's strategy by name (``strategies``)."""
    global _strategy_lookup
    _strategy_lookup = lookup


class Game(ABC):
    """One simulated game. Subclasses fill in the class attributes and the abstract methods."""

    name: str = ""
    title: str = ""
    kind: GameKind = GameKind(cooperative=False, perfect_information=True, searchable=False,
                              has_checker=False)
    rules_file: Path
    outcomes: tuple[str, ...] = ()
    record_fields: tuple[str, ...] = ()
    # record fields that date an event, -1 in a game where it never happened: their means
    # are over the games where it did
    event_fields: tuple[str, ...] = ()
    default_strategy: str = ""
    # CPU seconds a first run compiles for, as `cthulhu-sim bench --compile` measured on a
    # 2-core laptop (what the first-run line tells the user to expect)
    first_compile_s: float = 60.0
    # CLI shortcuts (--players, --goo, ...): option name (without --) to what it sets
    shortcuts: Mapping[str, Shortcut] = {}
    # what ended the game, in words, for each outcome (summaries and reports show it beside
    # the outcome's name; an outcome left out reads as its name)
    outcome_text: Mapping[str, str] = {}

    def possible_outcomes(self, rules: RulesData) -> tuple[str, ...]:
        """The outcomes a game played under ``rules`` can end in, in ``outcomes`` order (a
        summary lists only these): every outcome, unless a game knows better (Wake Up's
        solitaire ends only at a Portal or the turn cap)."""
        return tuple(self.outcomes)

    @property
    def cooperative(self) -> bool:
        return self.kind.cooperative

    @property
    def has_checker(self) -> bool:
        return self.kind.has_checker

    # ---- configuration -------------------------------------------------------------------
    def default_rules(self) -> RulesData:
        return RulesData.load(self.rules_file)

    def load_rules(self, path: str | Path) -> RulesData:
        """A user's rules data file, checked against the bundled one: the same keys, each of
        the same kind (see :mod:`simcore.rules_data`)."""
        return RulesData.load(path, reference=self.default_rules())

    def configure(
        self,
        overrides: Overrides = None,
        strategy: str | None = None,
        rules_path: str | Path | None = None,
    ) -> Config:
        """Resolve rules data, overrides (``strategy.X`` keys go to the strategy) and strategy."""
        from simcore.rules_data import parse_overrides

        if _strategy_lookup is None:
            raise RuntimeError("no strategies are loaded: import strategies first (the CLI and "
                               "the experiments layer do)")
        rules = self.load_rules(rules_path) if rules_path else self.default_rules()
        if rules.game != self.name:
            raise RulesError(f"{rules.path}: key 'meta.game': {rules.game!r} is not {self.name!r}")
        flat = parse_overrides(overrides)
        strat_over = {k[9:]: v for k, v in flat.items() if k.startswith("strategy.")}
        rule_over = {k: v for k, v in flat.items() if not k.startswith("strategy.")}
        rules = rules.with_overrides(rule_over)
        strat = _strategy_lookup(self.name, strategy or self.default_strategy, strat_over)
        try:
            params = self.compile_params(rules)
        except RulesError:
            raise
        except (TypeError, ValueError, KeyError, IndexError) as exc:
            # a value the file's own checks let through but the game cannot use
            reason = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
            over = ""
            if rules.overridden:
                over = " with overrides " + ", ".join(f"{k}={v}"
                                                      for k, v in rules.overridden.items())
            raise RulesError(f"{rules.path}: the rules data{over} cannot be used: "
                             f"{type(exc).__name__}: {reason}") from exc
        self._check_seats(rules, strat, strat_over)
        return Config(self, rules, strat, params)

    def _check_seats(self, rules: RulesData, strat: Any, strat_over: Mapping[str, Any]) -> None:
        """A seat's strategy set (``strategy.seat_K`` or ``strategy.seat_K.X``) for a seat the
        game does not have with these rules (``seat_2`` of a two-seat game, ``seat_1`` of a
        solitaire) is a mistake, not a setting that means nothing: refused, naming the
        seats there are."""
        import re

        if not any(re.fullmatch(r"seat_\d+", k) for k in strat.param_specs()):
            return  # not a strategy for each seat
        try:
            n = int(self.seats(rules))
            names = self.seat_names(rules)
        except (KeyError, TypeError, ValueError):
            return
        if n < 1:
            return
        for key in strat_over:
            m = re.match(r"seat_(\d+)(?:\.|$)", key)
            if m is None or int(m[1]) < n:
                continue
            shown = ", ".join(f"strategy.seat_{k}" + (f" ({names[k]})" if k < len(names)
                                                      and names[k] != str(k) else "")
                              for k in range(n))
            players = rules.resolved().get("players")
            where = f" at {players} player{'s' if players != 1 else ''}" if isinstance(
                players, int) and not isinstance(players, bool) else ""
            count = "one seat" if n == 1 else f"{n} seats"
            raise RulesError(f"override: key 'strategy.{key}': {self.name} has {count}{where}, "
                             f"so there is no seat {m[1]}; its seats: {shown}")

    @abstractmethod
    def compile_params(self, rules: RulesData) -> Any:
        """Validate cross-field constraints and build the numpy arrays the kernels read."""

    @abstractmethod
    def seats(self, rules: RulesData) -> int:
        """Number of competing seats (0 for a cooperative game: one team result)."""

    def seat_names(self, rules: RulesData) -> list[str]:
        """What each seat is called in tables (``Good``, ``Bad``); its number by default."""
        return [str(s) for s in range(self.seats(rules))]

    # ---- playing -------------------------------------------------------------------------
    @abstractmethod
    def _kernel(self, config: Config, seed: int, start: int, count: int) -> np.ndarray:
        """Play playouts ``start .. start+count-1``; an int64 array (count, len(fields))."""

    @property
    def record_dtype(self) -> np.dtype:
        return np.dtype([(f, np.int64) for f in self.record_fields])

    def run_batch(self, config: Config, seed: int, start: int, count: int) -> np.ndarray:
        """One structured record per playout, for playout indices start .. start+count-1."""
        if seed < 0 or start < 0 or count < 0:
            raise ValueError("seed, start and count must be non-negative")
        raw = self._kernel(config, seed, start, count)
        return np.ascontiguousarray(raw).view(self.record_dtype).reshape(count)

    def play(
        self,
        config: Config,
        games: int,
        seed: int,
        start: int = 0,
        batch: int = DEFAULT_BATCH,
        progress: Callable[[int], None] | None = None,
    ) -> pd.DataFrame:
        """Play ``games`` playouts in batches (results do not depend on the batch size)."""
        if games < 0:
            raise ValueError("games must be non-negative")
        # one array per field, filled batch by batch, and a frame of those arrays: the records
        # are held once (a list of batches joined at the end, then copied into a frame, held
        # them three times over), in columns as the summaries read them
        columns = {name: np.empty(games, dtype=self.record_dtype[name])
                   for name in self.record_dtype.names}
        done = 0
        while done < games:
            n = min(batch, games - done)
            recs = self.run_batch(config, seed, start + done, n)
            for name, column in columns.items():
                column[done:done + n] = recs[name]
            done += n
            if progress is not None:
                progress(n)
        return self._frame(columns)

    def to_frame(self, recs: np.ndarray) -> pd.DataFrame:
        """Records (a structured array) as a frame, one column per field."""
        return self._frame({name: np.ascontiguousarray(recs[name]) for name in recs.dtype.names})

    def _frame(self, columns: dict[str, np.ndarray]) -> pd.DataFrame:
        df = pd.DataFrame(columns, copy=False)  # the arrays become the columns, not copies
        df.insert(1, "outcome_name", pd.Categorical.from_codes(df["outcome"], self.outcomes))
        return df

    def warm_up(self, config: Config) -> None:
        """Compile (or load from cache) everything a run needs."""
        self.run_batch(config, 0, 0, 2)

    def compile_parts(self, config: Config) -> int:
        """How many independent parts what ``warm_up`` compiles falls into: separate processes
        may compile them into the cache at the same time (``experiments.compile_cost.warm``),
        and the run then loads them.  One by default: the whole."""
        return 1

    def compile_part(self, config: Config, part: int) -> None:
        """Compile (or load) part ``part`` of ``compile_parts``."""
        self.warm_up(config)

    # ---- reporting -----------------------------------------------------------------------
    def summarize_extra(self, df: pd.DataFrame, config: Config) -> dict[str, Any]:
        """Game-specific summary figures: name to a ``Mean``, ``Share`` or ``Ratio`` (given
        a value and a 95% interval by the experiments layer), a plain number, or a dict of
        these."""
        return {}

    @abstractmethod
    def trace_record(self, config: Config, seed: int, index: int = 0) -> np.ndarray:
        """The record of playout ``index`` of run ``seed`` as the trace run plays it (with
        every event logged): the same as row ``index`` of a batch, which the tests check."""

    @abstractmethod
    def trace(self, config: Config, seed: int, index: int = 0, check: bool = False) -> str:
        """One playout, turn by turn, in plain words; ``check``: with the game's rules
        checker on, so conservation errors show where they happen (games with ``check()``)."""


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0
