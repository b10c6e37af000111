"""bench --split: the strategy's share of a playout, from replaying its recorded answers."""

from __future__ import annotations

import json

import numba
import numpy as np
from numba import njit

from experiments.speed.strategy_cost import _with_decide, split_line, strategy_cost
from simcore.engine import POLICY_SIG
from simcore.registry import get_game
from strategies.hex import random_policy as hex_random
from strategies.sticky import honest
from tests.cli_support import invoke


@njit(cache=False, _nrt=False)
def slow_honest(view, legal, params, rng):
    """``honest``, after a long computation whose result it needs (so it cannot be skipped)."""
    x = 0.0
    for k in range(200_000):
        x += np.sqrt(k + view[0])
    a = honest(view, legal, params, rng)
    return a if x >= 0.0 else 0


def test_split_finds_an_expensive_strategy_and_keeps_the_thread_count():
    g = get_game("sticky")
    config = g.configure(None, "honest")
    threads = numba.get_num_threads()
    cheap = strategy_cost(config, 400, repeats=2)
    slow = strategy_cost(_with_decide(config, slow_honest, config.strategy.values), 400,
                         repeats=2)
    assert numba.get_num_threads() == threads
    for cost in (cheap, slow):
        assert cost["games"] == 400
        assert 0.0 <= cost["strategy_share"] <= 1.0
        assert cost["us_per_game"] > 0 and cost["us_per_game_replayed"] > 0
    # the same games, so the same decisions; the replay does not run the slow loop
    assert slow["decisions_per_game"] == cheap["decisions_per_game"] > 0
    # (the slow strategy is about fifty times the rest of a game; no bound on the cheap
    # one's share, which a busy machine can push anywhere in a run this short)
    assert slow["strategy_share"] > max(0.8, cheap["strategy_share"])
    assert slow["us_per_game"] > 5 * slow["us_per_game_replayed"]
    assert "the strategy takes" in split_line(slow)


def test_split_of_tec_records_every_decision():
    """Tiny Epic Cthulhu is a step game: the heuristic and random (its own stream) are both
    replayed."""
    g = get_game("tec")
    for name in ("heuristic", "random"):
        cost = strategy_cost(g.configure({"players": 2}, name), 300, repeats=1)
        assert "skipped" not in cost, (name, cost)
        assert cost["decisions_per_game"] > 50  # every action choice, flip, reroll ... a game


def test_a_strategy_drawing_random_numbers_is_not_split():
    """In a callback game (Sticky Cthulhu) random draws from the game's stream: no replay."""
    g = get_game("sticky")
    cost = strategy_cost(g.configure(None, "random"), 200, repeats=1)
    assert set(cost) == {"skipped"} and "random stream" in cost["skipped"]
    assert split_line(cost).startswith("split: not made")


def test_bench_split_json():
    r = invoke("bench", "--seconds", 0.1, "--json", "--game", "sticky", "--split")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)["sticky"]
    assert set(out["split"]) == set(out["strategies"])
    assert "skipped" in out["split"]["random"]
    honest_split = out["split"]["honest"]
    assert {"us_per_game", "us_per_game_replayed", "strategy_share",
            "decisions_per_game", "games"} <= set(honest_split)


def test_split_of_a_step_game_replays_every_strategy_random_included():
    """A step game's strategies draw from their own stream, so even ``random`` is replayed
    (the records of the replay equal the strategy's, which strategy_cost checks)."""
    g = get_game("hex")
    for name in ("random", "heuristic"):
        cost = strategy_cost(g.configure(None, name), 60, repeats=1)
        assert "skipped" not in cost, (name, cost)
        assert cost["games"] == 60 and cost["decisions_per_game"] > 10
        assert 0.0 <= cost["strategy_share"] <= 1.0


@njit(POLICY_SIG)
def slow_hex_random(ip, fp, s, view, mask, sp, rng):
    """hex ``random``, after a long computation whose result it needs."""
    x = 0.0
    for k in range(20_000):
        x += np.sqrt(k + s[0] * 0 + 1.0)
    a = hex_random(ip, fp, s, view, mask, sp, rng)
    return a if x >= 0.0 else 0


def test_split_of_a_step_game_finds_an_expensive_policy():
    g = get_game("hex")
    config = g.configure(None, "random")
    slow = strategy_cost(_with_decide(config, slow_hex_random, config.strategy.values), 40,
                         repeats=1)
    assert "skipped" not in slow, slow
    assert slow["strategy_share"] > 0.8
    assert slow["us_per_game"] > 5 * slow["us_per_game_replayed"]


def test_split_of_a_table_of_strategies_is_not_made():
    g = get_game("hex")
    cost = strategy_cost(g.configure({"strategy.seat_0": "random", "strategy.seat_1": "heuristic"},
                                     "table"), 20, repeats=1)
    assert set(cost) == {"skipped"} and "table" in cost["skipped"]
