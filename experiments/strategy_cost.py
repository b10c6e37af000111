"""How much of a playout the strategy costs: ``cthulhu-sim bench --split``.

The same games are played twice on one thread: once with the strategy deciding, once with a
stand-in that hands back the strategy's recorded answers in order.  Both play identical games
(checked record by record), so the difference is the strategy's own time, and the replay is
what the engine costs with a strategy that costs (almost) nothing.  Calling the strategy twice
at each decision and timing the difference understates it: the second, identical call finds
the branch predictors and caches warm.

A strategy that draws from the playout's random stream (``random``) changes the stream when
replaced, so its games cannot be replayed; it is reported as such, not split.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any

import numpy as np
from numba import njit

from simcore.game import Config

# answer buffer layout (float64): [cursor, parameter count, overflow flag, parameters...,
# answers...]
_CURSOR = 0
_NPARAMS = 1
_OVERFLOW = 2
_HEAD = 3
MAX_GAMES = 50_000
PILOT_GAMES = 200
PILOT_ROOM = 5_000  # answers per game the pilot run has room for
MAX_ANSWERS = 1 << 25  # room for recorded answers (256 MB); fewer games are timed beyond it


@njit(cache=True, _nrt=False)
def replay_answers(state, legal, buf, rng):
    """The stand-in: the next recorded answer (what the strategy said at this decision).
    Games that went another way (a strategy that drew random numbers) can ask for more
    answers than were recorded: those get 0 (the engine replaces an illegal one), and the
    records then differ, which the caller checks."""
    k = np.int64(buf[_CURSOR])
    buf[_CURSOR] = k + 1
    i = _HEAD + np.int64(buf[_NPARAMS]) + k
    if i >= buf.shape[0]:
        return 0
    return np.int64(buf[i])


def _recorder(fn):
    """A strategy that asks ``fn`` and writes down every answer (compiled per strategy)."""

    @njit(_nrt=False)
    def record_answers(state, legal, buf, rng):
        n_params = np.int64(buf[_NPARAMS])
        a = fn(state, legal, buf[_HEAD:_HEAD + n_params], rng)
        k = np.int64(buf[_CURSOR])
        if _HEAD + n_params + k < buf.shape[0]:
            buf[_HEAD + n_params + k] = a
        else:
            buf[_OVERFLOW] = 1.0
        buf[_CURSOR] = k + 1
        return a

    return record_answers


def _with_decide(config: Config, fn, values: np.ndarray) -> Config:
    spec = dataclasses.replace(config.strategy.spec, fn=fn)
    strategy = dataclasses.replace(config.strategy, spec=spec, values=values)
    return dataclasses.replace(config, strategy=strategy)


def _record(g, config, record_answers, params, seed, games, room):
    """Play ``games`` with every answer written down: (buffer, records), or (None, None)
    when the answers did not fit in ``room``."""
    buf = np.zeros(_HEAD + params.size + room, dtype=np.float64)
    buf[_NPARAMS] = params.size
    buf[_HEAD:_HEAD + params.size] = params
    recorded = g.run_batch(_with_decide(config, record_answers, buf), seed, 0, games)
    if buf[_OVERFLOW] != 0.0:
        return None, None
    return buf, recorded


def _best_times(run_a, run_b, repeats: int) -> tuple[float, float]:
    """The shortest of ``repeats`` timings of each, taken in turn (so a change of clock speed
    or a busy moment affects both alike)."""
    run_a()  # untimed: the first run also touches fresh memory
    run_b()
    best_a = best_b = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        run_a()
        t1 = time.perf_counter()
        run_b()
        t2 = time.perf_counter()
        best_a = min(best_a, t1 - t0)
        best_b = min(best_b, t2 - t1)
    return best_a, best_b


def strategy_cost(config: Config, games: int, seed: int = 12345,
                  repeats: int = 5) -> dict[str, Any]:
    """Split one thread's time per playout between the strategy and the rest (the engine).

    Returns ``us_per_game`` (with the strategy), ``us_per_game_replayed`` (its answers
    replayed), ``strategy_share`` and ``decisions_per_game``; or ``{"skipped": reason}`` when
    the games cannot be replayed.  Runs on one thread (the caller's thread setting is kept).
    """
    import numba

    g = config.game
    games = int(max(1, min(games, MAX_GAMES)))
    params = np.asarray(config.strategy.values, dtype=np.float64)
    record_answers = _recorder(config.strategy.fn)
    threads = numba.get_num_threads()
    numba.set_num_threads(1)  # one cursor through the buffer: games in order
    try:
        g.warm_up(config)
        # a pilot run sizes the buffer (games differ in their number of decisions), then
        # every answer of the timed games is recorded
        pilot = min(games, PILOT_GAMES)
        buf, recorded = _record(g, config, record_answers, params, seed, pilot,
                                PILOT_ROOM * pilot)
        if buf is None:
            return {"skipped": f"more than {PILOT_ROOM:,} decisions a game"}
        if pilot < games:
            per_game = buf[_CURSOR] / pilot
            games = max(pilot, min(games, int(MAX_ANSWERS / (2.0 * per_game + 1e-9))))
            buf, recorded = _record(g, config, record_answers, params, seed, games,
                                    int(2.0 * per_game * games) + 10_000)
            if buf is None:
                return {"skipped": "too many decisions to record"}
        decisions = int(buf[_CURSOR])
        replaying = _with_decide(config, replay_answers, buf)
        reference = g.run_batch(config, seed, 0, games)
        if not np.array_equal(recorded, reference):  # (the recorder must not change play)
            return {"skipped": "recording changed the games"}
        buf[_CURSOR] = 0
        g.run_batch(replaying, seed, 0, min(games, 2))  # compile the stand-in
        buf[_CURSOR] = 0
        replayed = g.run_batch(replaying, seed, 0, games)
        if not np.array_equal(replayed, reference):
            return {"skipped": "the replayed games went another way (as they do when a "
                               "strategy draws from the random stream)"}

        def play_replayed():
            buf[_CURSOR] = 0
            g.run_batch(replaying, seed, 0, games)

        t_strategy, t_replay = _best_times(lambda: g.run_batch(config, seed, 0, games),
                                           play_replayed, repeats)
    finally:
        numba.set_num_threads(threads)
    us = t_strategy / games * 1e6
    us_replay = t_replay / games * 1e6
    return {
        "games": games,
        "us_per_game": us,
        "us_per_game_replayed": us_replay,
        "strategy_share": max(0.0, 1.0 - us_replay / us),
        "decisions_per_game": decisions / games,
    }


def split_line(cost: dict[str, Any]) -> str:
    """``strategy_cost``'s answer in words."""
    if "skipped" in cost:
        return f"split: not made, {cost['skipped']}"
    share = 100 * cost["strategy_share"]
    return (f"on one thread: {cost['us_per_game']:.2f} us a game, "
            f"{cost['us_per_game_replayed']:.2f} us with its answers replayed: the strategy "
            f"takes {share:.0f}% ({cost['decisions_per_game']:.1f} decisions a game)")
