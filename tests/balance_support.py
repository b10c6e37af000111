"""Two made-up games with known answers, for the balance tools' tests (sensitivity, tune).

``coin`` (cooperative): playout i of seed s draws one uniform number u from its own stream
(s, i) and the team wins when ``u < p``, with ``p = (bias + 0.1 nudge + ladder[level]) / 100
+ boost``;
``ignored`` is read by nothing, and ``spread`` changes only how long a game lasts.  So with
common random numbers, a step of ``bias`` moves the win rate by about one point, of ``nudge``
by a tenth of one, of ``ignored`` and ``spread`` by exactly nothing, and the win rate rises
with ``bias`` playout by playout.

``duel`` (competitive, two seats): seat 0 wins when ``u < (50 + edge - comp) / 100``, else seat
1; ``comp`` is the compensation that makes the seats equal at ``comp = edge``.
"""

from __future__ import annotations

import sys
import types

import numpy as np
import pytest

from simcore.game import Game, GameKind

COIN_RULES = """
bias = { value = 50, min = 0, max = 100, source = "rulebook", note = "Chance of a win, per cent." }
nudge = { value = 3, min = 0, max = 20, source = "public", note = "A tenth of a point each." }
ignored = { value = 2.5, min = 0.0, max = 10.0, source = "assumed", note = "Read by nothing." }
spread = { value = 1.0, min = 0.5, max = 2.0, source = "assumed", note = "Game length only." }
odds = { value = 0.5, min = 0.0, max = 1.0, source = "assumed", note = "Not read (a float)." }
boost = { value = 0.0, min = -0.02, max = 0.02, source = "assumed", note = "Added to p." }
colour = { value = "red", choices = ["red", "blue"], source = "assumed", note = "A word." }
lucky = { value = false, source = "assumed", note = "A switch nothing reads." }
level = { value = "easy", choices = ["easy", "hard"], source = "rulebook", note = "Difficulty." }
ladder = { value = [10, -20], min = -50, max = 50, source = "assumed", note = "Bias per level." }
[meta]
game = "coin"
title = "Coin (test game)"
"""

DUEL_RULES = """
players = { value = 2, min = 2, max = 2, source = "rulebook", note = "Two." }
edge = { value = 10, min = 0, max = 40, source = "assumed", note = "Seat 0's head start." }
comp = { value = 0, min = 0, max = 40, source = "assumed", note = "Seat 1's compensation." }
[meta]
game = "duel"
title = "Duel (test game)"
"""


def uniforms(seed: int, start: int, count: int, salt: int = 0) -> np.ndarray:
    """One uniform number per playout from its own stream (seed, index): splitmix64 of the
    pair, so the numbers do not depend on the batch."""
    with np.errstate(over="ignore"):
        idx = np.arange(start, start + count, dtype=np.uint64)
        x = (np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15) + idx * np.uint64(0xBF58476D1CE4E5B9)
             + np.uint64(salt) * np.uint64(0x94D049BB133111EB))
        x ^= x >> np.uint64(30)
        x *= np.uint64(0xBF58476D1CE4E5B9)
        x ^= x >> np.uint64(27)
        x *= np.uint64(0x94D049BB133111EB)
        x ^= x >> np.uint64(31)
    return (x >> np.uint64(11)).astype(np.float64) / float(1 << 53)


class Coin(Game):
    name = "coin"
    title = "Coin (test game)"
    kind = GameKind(cooperative=True, perfect_information=True, searchable=False,
                    has_checker=False)
    outcomes = ("win", "loss")
    record_fields = ("outcome", "winner", "turns")
    default_strategy = "flip"
    calls = 0  # games played, to tell a resumed run from a replay

    def compile_params(self, rules):
        level = ("easy", "hard").index(rules["level"])
        p = (rules["bias"] + 0.1 * rules["nudge"] + rules["ladder"][level]) / 100.0
        p += rules["boost"]
        return (p, float(rules["spread"]))

    def seats(self, rules):
        return 0

    def _kernel(self, config, seed, start, count):
        Coin.calls += count
        p, spread = config.params
        u = uniforms(seed, start, count)
        out = np.zeros((count, 3), dtype=np.int64)
        out[:, 0] = np.where(u < p, 0, 1)
        out[:, 1] = -1
        out[:, 2] = 1 + np.floor(uniforms(seed, start, count, 1) * 10 * spread).astype(np.int64)
        return out

    def trace_record(self, config, seed, index=0):
        return self._kernel(config, seed, index, 1)[0]

    def trace(self, config, seed, index=0, check=False):
        return f"coin playout {index}"


class Duel(Game):
    name = "duel"
    title = "Duel (test game)"
    kind = GameKind(cooperative=False, perfect_information=True, searchable=False,
                    has_checker=False)
    outcomes = ("won",)
    record_fields = ("outcome", "winner", "turns")
    default_strategy = "flip"

    def compile_params(self, rules):
        return (50 + rules["edge"] - rules["comp"]) / 100.0

    def seats(self, rules):
        return 2

    def _kernel(self, config, seed, start, count):
        u = uniforms(seed, start, count)
        out = np.zeros((count, 3), dtype=np.int64)
        out[:, 1] = np.where(u < config.params, 0, 1)
        out[:, 2] = 1
        return out

    def trace_record(self, config, seed, index=0):
        return self._kernel(config, seed, index, 1)[0]

    def trace(self, config, seed, index=0, check=False):
        return f"duel playout {index}"


@pytest.fixture
def toy_games(tmp_path, monkeypatch):
    """``coin`` and ``duel`` in the registry (with a strategy each) for one test."""
    from simcore import registry as game_registry
    from strategies import registry as strat_registry
    from strategies.registry import StrategySpec

    made = {}
    for cls, text in ((Coin, COIN_RULES), (Duel, DUEL_RULES)):
        rules = tmp_path / f"{cls.name}-rules.toml"
        rules.write_text(text)
        module = types.ModuleType(f"tests_{cls.name}_game")
        game = cls()
        game.rules_file = rules
        module.GAME = game
        monkeypatch.setitem(sys.modules, module.__name__, module)
        monkeypatch.setitem(game_registry.GAME_MODULES, cls.name, module.__name__)
        monkeypatch.delitem(game_registry._cache, cls.name, raising=False)
        monkeypatch.setitem(strat_registry._REGISTRY, cls.name, {
            "flip": StrategySpec(cls.name, "flip", None, {}, "Flips.")})
        made[cls.name] = game
    monkeypatch.setattr(strat_registry, "_LOADED", strat_registry._LOADED | set(made))
    yield made
