"""The random-number floor of a game: how fast its playouts could be if drawing their random
numbers were all they did (``cthulhu-sim bench``).

Two measurements, for any game behind the common interface (``Game.run_batch``):

- ``draws_per_playout``: the raw generator outputs one playout draws, *counted*, not guessed.
  A child process imports the simulator with ``CTHULHU_SIM_COUNT_DRAWS=1``, which builds
  every generator call (``simcore.kernels.rng_next`` and the value-state ``rng_next_v``, which
  every draw goes through) with an atomic counter, plays a few thousand playouts of the game's
  default configuration through ``Game.run_batch`` and reports the count.  That build keeps
  its own numba cache folder (next to the normal one, named ``...-count-draws``), so it never
  mixes with, or slows, the normal build; it compiles once per version of the sources.
- ``generator_draws_per_s``: the generator's own rate in the normal build: raw outputs of the
  value-state generator in a tight loop, one stream per thread, on the threads a run uses.

The floor is ``generator_draws_per_s / draws_per_playout`` playouts a second; ``floor_ratio`` is
that floor divided by the playouts a second measured: how many times slower a playout is than
the numbers it draws (1 would mean it does nothing else).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit, prange

from simcore.kernels import COUNT_CACHE_SUFFIX, RNG_WORDS, rng_next_v, rng_seed

COUNT_GAMES = 4096  # playouts counted (a mean over them; the count itself is exact)
COUNT_SEED = 12345
COUNT_TIMEOUT_S = 3600  # a first counting build compiles the whole game (minutes for some)
_ROOT = Path(__file__).resolve().parents[2]  # the checkout: experiments/speed/rng_floor.py


class FloorError(RuntimeError):
    """The counting child process failed; the message says how."""


# ---- the generator's own rate ---------------------------------------------------------------
@njit(cache=True)
def _draw_loop(seed, index, n):
    """``n`` raw outputs of the value-state generator, folded together so none is dropped."""
    state = np.empty(RNG_WORDS, dtype=np.uint64)
    rng_seed(state, seed, index)
    st = (state[0], state[1], state[2], state[3])
    acc = np.uint64(0)
    for _ in range(n):
        x, st = rng_next_v(st)
        acc ^= x
    return acc


@njit(cache=True, parallel=True)
def _draw_threads(n_streams, n):
    acc = np.zeros(n_streams, dtype=np.uint64)
    for k in prange(n_streams):
        acc[k] = _draw_loop(99, k, n)
    return acc


def generator_rate(seconds: float = 1.0, threads: int | None = None) -> float:
    """Raw generator outputs a second on ``threads`` threads (numba's current count by
    default): one stream per thread, the best of several timed rounds (the machine may be
    shared, and the floor is what the generator can do)."""
    import numba

    n_threads = threads or numba.get_num_threads()
    _draw_threads(n_threads, 1000)  # compile (or load) first
    n = 1 << 20
    best = 0.0
    spent = 0.0
    while spent < seconds or best == 0.0:
        t0 = time.perf_counter()
        _draw_threads(n_threads, n)
        dt = time.perf_counter() - t0
        spent += dt
        if dt < 0.05:  # too short to time well: draw more
            n *= 2
            continue
        best = max(best, n_threads * n / dt)
    return best


# ---- the counted draws ----------------------------------------------------------------------
def count_cache_dir() -> str:
    """The counting build's numba cache folder: next to the normal build's folder (one per
    version of the sources, see simcore._cache), never the same one."""
    import numba

    import simcore  # noqa: F401  (chooses the normal build's cache folder)

    normal = os.environ.get("NUMBA_CACHE_DIR") or numba.config.CACHE_DIR
    if not normal:  # numba's default locations (no writable cache folder)
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
        normal = os.path.join(base, "cthulhu-sim", "numba-default")
    return str(normal).rstrip("/") + COUNT_CACHE_SUFFIX


def count_draws(game: str, games: int = COUNT_GAMES, seed: int = COUNT_SEED,
                strategy: str | None = None, env: dict[str, str] | None = None) -> dict:
    """Count the draws of ``games`` playouts of ``game`` (a registered name, or
    ``module:attribute`` naming a Game object) in its default configuration, in a child
    process running the counting build.  Returns {"draws", "games", "draws_per_playout"}."""
    child_env = dict(os.environ)
    child_env.update(env or {})
    child_env["CTHULHU_SIM_COUNT_DRAWS"] = "1"
    child_env["NUMBA_CACHE_DIR"] = count_cache_dir()
    path = child_env.get("PYTHONPATH")
    child_env["PYTHONPATH"] = str(_ROOT) + (os.pathsep + path if path else "")
    cmd = [sys.executable, "-m", "experiments.speed.rng_floor", "--game", game, "--games",
           str(games), "--seed", str(seed)]
    if strategy:
        cmd += ["--strategy", strategy]
    try:
        done = subprocess.run(cmd, env=child_env, capture_output=True, text=True,
                              timeout=COUNT_TIMEOUT_S, check=False)
    except subprocess.TimeoutExpired as exc:
        raise FloorError(f"counting the draws of {game} took over {COUNT_TIMEOUT_S} s") from exc
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["(no message)"])[-1]
        raise FloorError(f"counting the draws of {game} failed: {last}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def floor_figures(draws_per_playout: float, playouts_per_s: float,
                  generator_draws_per_s: float) -> dict:
    """The floor and the ratio, from the three measurements."""
    floor = generator_draws_per_s / draws_per_playout if draws_per_playout > 0 else None
    return {
        "draws_per_playout": draws_per_playout,
        "generator_draws_per_s": generator_draws_per_s,
        "floor_playouts_per_s": floor,
        "floor_ratio": (floor / playouts_per_s) if floor and playouts_per_s > 0 else None,
    }


def floor_line(name: str, f: dict) -> str:
    """One line for ``bench``'s text output."""
    if f["floor_playouts_per_s"] is None:
        return f"{name:8s} draws no random numbers: no random-number floor"
    return (f"{name:8s} {f['draws_per_playout']:,.1f} draws a playout; the generator gives "
            f"{f['generator_draws_per_s'] / 1e6:,.0f} M/s, a floor of "
            f"{f['floor_playouts_per_s']:,.0f} playouts/s: {f['floor_ratio']:,.1f} x the "
            "playout rate")


# ---- the child process ----------------------------------------------------------------------
def _resolve(game: str):
    if ":" in game:
        import importlib

        module, _, attr = game.partition(":")
        return getattr(importlib.import_module(module), attr)
    from simcore.registry import get_game

    return get_game(game)


def _child(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Count one game's draws (counting build).")
    parser.add_argument("--game", required=True)
    parser.add_argument("--games", type=int, default=COUNT_GAMES)
    parser.add_argument("--seed", type=int, default=COUNT_SEED)
    parser.add_argument("--strategy", default=None)
    args = parser.parse_args(argv)
    from simcore import kernels

    if not kernels.COUNT_DRAWS:
        raise SystemExit("set CTHULHU_SIM_COUNT_DRAWS=1 "
                         "(experiments.speed.rng_floor.count_draws)")
    g = _resolve(args.game)
    config = g.configure(None, args.strategy)
    g.warm_up(config)
    kernels.reset_draw_count()
    g.run_batch(config, args.seed, 0, args.games)
    draws = kernels.draws_counted()
    print(json.dumps({"draws": draws, "games": args.games,
                      "draws_per_playout": draws / max(args.games, 1)}))


if __name__ == "__main__":
    _child()
