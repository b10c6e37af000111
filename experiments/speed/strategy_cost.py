"""How much of a playout the strategy costs: ``cthulhu-sim bench --split``.

The same games are played twice on one thread: once with the strategy deciding, once with a
stand-in that hands back the strategy's recorded answers in order.  Both play identical games
(checked record by record), so the difference is the strategy's own time, and the replay is
what the engine costs with a strategy that costs (almost) nothing.  Calling the strategy twice
at each decision and timing the difference understates it: the second, identical call finds
the branch predictors and caches warm.

In a callback game a strategy that draws from the playout's random stream (``random``)
changes the stream when replaced, so its games cannot be replayed; it is reported as such, not
split.  A step game's strategies draw from their own stream (the engine contract), so every
one of them, ``random`` included, is replayed: the stand-in there is a policy with the
driver's signature (``simcore.engine.POLICY_SIG``), handed every seat.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any

import numpy as np
from numba import njit

from simcore.engine import MAX_POLICIES, POLICY_SIG, policy_values
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


@njit(cache=True, _nrt=False, inline="always")
def _next_recorded(buf, beyond):
    """The next recorded answer, or ``beyond`` past the last one."""
    k = np.int64(buf[_CURSOR])
    buf[_CURSOR] = k + 1
    i = _HEAD + np.int64(buf[_NPARAMS]) + k
    if i >= buf.shape[0]:
        return beyond
    return np.int64(buf[i])


@njit(cache=True, _nrt=False, inline="always")
def _write_answer(buf, a):
    """Write down answer ``a`` after the ones before it (flag an overflow)."""
    k = np.int64(buf[_CURSOR])
    i = _HEAD + np.int64(buf[_NPARAMS]) + k
    if i < buf.shape[0]:
        buf[i] = a
    else:
        buf[_OVERFLOW] = 1.0
    buf[_CURSOR] = k + 1


@njit(cache=True, _nrt=False)
def replay_answers(state, legal, buf, rng):
    """The stand-in: the next recorded answer (what the strategy said at this decision).
    Games that went another way (a strategy that drew random numbers) can ask for more
    answers than were recorded: those get 0 (the engine replaces an illegal one), and the
    records then differ, which the caller checks."""
    return _next_recorded(buf, 0)


def _recorder(fn):
    """A strategy that asks ``fn`` and writes down every answer (compiled per strategy)."""

    @njit(_nrt=False)
    def record_answers(state, legal, buf, rng):
        a = fn(state, legal, buf[_HEAD:_HEAD + np.int64(buf[_NPARAMS])], rng)
        _write_answer(buf, a)
        return a

    return record_answers


@njit(POLICY_SIG, cache=True)
def replay_policy(ip, fp, s, view, mask, buf, rng):
    """The stand-in of a step game: the next recorded answer (-1, which the driver replaces
    and counts, beyond the recorded ones)."""
    return _next_recorded(buf, -1)


def _policy_recorder(fn):
    """A step game's policy that asks ``fn`` and writes down every answer."""

    @njit(POLICY_SIG)
    def record_policy(ip, fp, s, view, mask, buf, rng):
        a = fn(ip, fp, s, view, mask, buf[_HEAD:_HEAD + np.int64(buf[_NPARAMS])], rng)
        _write_answer(buf, a)
        return a

    return record_policy


class _Plays:
    """Plays the same games with the strategy, with a recorder or with the stand-in, in
    whichever way the game's style hands a strategy its parameters (a step game's driver
    takes a table of parameter rows: the buffer is its first row)."""

    def __init__(self, config: Config, seed: int) -> None:
        self.config, self.seed = config, seed
        self.g = config.game
        self.step = self.g.kind.style == "step"
        self._rows: np.ndarray | None = None

    def buffer(self, size: int) -> np.ndarray:
        if self.step:
            self._rows = np.zeros((MAX_POLICIES, size), dtype=np.float64)
            return self._rows[0]
        return np.zeros(size, dtype=np.float64)

    def with_answers(self, fn, buf: np.ndarray, games: int) -> np.ndarray:
        if self.step:
            assert self._rows is not None and buf.base is self._rows
            return self.g.run_policy(self.config, fn, self._rows, self.seed, 0, games)
        return self.g.run_batch(_with_decide(self.config, fn, buf), self.seed, 0, games)

    def reference(self, games: int) -> np.ndarray:
        return self.g.run_batch(self.config, self.seed, 0, games)


def _with_decide(config: Config, fn, values: np.ndarray) -> Config:
    spec = dataclasses.replace(config.strategy.spec, fn=fn)
    strategy = dataclasses.replace(config.strategy, spec=spec, values=values)
    return dataclasses.replace(config, strategy=strategy)


def _record(plays, record_answers, params, games, room):
    """Play ``games`` with every answer written down: (buffer, records), or (None, None)
    when the answers did not fit in ``room``."""
    buf = plays.buffer(_HEAD + params.size + room)
    buf[_NPARAMS] = params.size
    buf[_HEAD:_HEAD + params.size] = params
    recorded = plays.with_answers(record_answers, buf, games)
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
    if hasattr(config.strategy, "seat_members"):
        return {"skipped": "a table of strategies (split one strategy at a time)"}
    plays = _Plays(config, seed)
    games = int(max(1, min(games, MAX_GAMES)))
    params = np.asarray(policy_values(config.strategy), dtype=np.float64)
    if plays.step:
        record_answers, stand_in = _policy_recorder(config.strategy.fn), replay_policy
        max_answers = MAX_ANSWERS // MAX_POLICIES  # the driver's table holds four rows
    else:
        record_answers, stand_in = _recorder(config.strategy.fn), replay_answers
        max_answers = MAX_ANSWERS
    threads = numba.get_num_threads()
    numba.set_num_threads(1)  # one cursor through the buffer: games in order
    try:
        g.warm_up(config)
        # a pilot run sizes the buffer (games differ in their number of decisions), then
        # every answer of the timed games is recorded
        pilot = min(games, PILOT_GAMES)
        buf, recorded = _record(plays, record_answers, params, pilot, PILOT_ROOM * pilot)
        if buf is None:
            return {"skipped": f"more than {PILOT_ROOM:,} decisions a game"}
        if pilot < games:
            per_game = buf[_CURSOR] / pilot
            games = max(pilot, min(games, int(max_answers / (2.0 * per_game + 1e-9))))
            buf, recorded = _record(plays, record_answers, params, games,
                                    int(2.0 * per_game * games) + 10_000)
            if buf is None:
                return {"skipped": "too many decisions to record"}
        decisions = int(buf[_CURSOR])
        reference = plays.reference(games)
        if not np.array_equal(recorded, reference):  # (the recorder must not change play)
            return {"skipped": "recording changed the games"}
        buf[_CURSOR] = 0
        plays.with_answers(stand_in, buf, min(games, 2))  # compile the stand-in
        buf[_CURSOR] = 0
        replayed = plays.with_answers(stand_in, buf, games)
        if not np.array_equal(replayed, reference):
            return {"skipped": "the replayed games went another way (as they do when a "
                               "strategy draws from the random stream)"}

        def play_replayed():
            buf[_CURSOR] = 0
            plays.with_answers(stand_in, buf, games)

        t_strategy, t_replay = _best_times(lambda: plays.reference(games), play_replayed,
                                           repeats)
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
