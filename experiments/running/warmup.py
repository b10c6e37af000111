"""Compiling on every core before a first run (a fresh clone, CI, an edit to a game).

numba compiles on one thread.  What a run compiles falls into parts that meet only as
first-class function values (``Game.compile_parts``: a step game's driver, its strategy's
policies, and for search the game's own functions), and different games share nothing but the
core: separate processes compile them side by side into the one cache (numba writes each
function's cache files atomically), and the run then loads them.  Used by the command line's
first-run line (``runner.announce_compile``) and the test suite's session start.
"""

from __future__ import annotations

import os
import subprocess
import sys

WARM_FLAG = "--warm-part"


def warm_parts(items: list[tuple[str, str | None]]) -> list[tuple[str, str, int]]:
    """(game, strategy, part) of every part the runs of ``items`` compile."""
    from simcore.registry import get_game

    out = []
    for game, strategy in items:
        g = get_game(game)
        config = g.configure(None, strategy)
        out += [(g.name, config.strategy.name, k) for k in range(g.compile_parts(config))]
    return out


def cold(items: list[tuple[str, str | None]]) -> list[tuple[str, str | None]]:
    """The items whose game has no compiled code in the cache yet (a fresh clone, or an edit
    to the game's files or the shared core)."""
    from simcore._cache import CORE, group_cached

    out = []
    for game, strategy in items:
        if not (group_cached(game) and group_cached(CORE)):
            out.append((game, strategy))
    return out


def warm(items: list[tuple[str, str | None]], jobs: int | None = None,
         here: bool = False) -> float:
    """Compile the parts of the runs of ``items`` (game, strategy or None for the default) in
    child processes, ``jobs`` at a time (default: the machine's cores), into the cache this
    process uses; returns the wall-clock seconds.  numba compiles on one thread, so the parts
    of one game, and different games, compile side by side; the runs then load them.

    ``here``: this process compiles the first part itself (the driver of the first game, the
    longest) while the children compile the others, ``jobs - 1`` at a time: a run about to
    play needs that code in this process anyway, and one interpreter fewer is started (its
    imports and the loading of what it compiled cost about 2 CPU s a child)."""
    import time
    from concurrent.futures import ThreadPoolExecutor

    from simcore._cache import child_env

    # the longest parts first (the driver, part 0, of the largest game), so none is left alone
    parts = sorted(warm_parts(items), key=lambda p: p[2])
    if not parts:
        return 0.0
    jobs = jobs or os.cpu_count() or 1
    mine = parts[:1] if here else []
    if here and jobs == 1:
        mine = parts
    theirs = parts[len(mine):]
    env = child_env()
    t0 = time.perf_counter()

    def one(part: tuple[str, str, int]) -> None:
        game, strategy, k = part
        cmd = [sys.executable, "-m", "experiments.running.warmup", WARM_FLAG, game, strategy,
               str(k)]
        out = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             text=True)
        if out.returncode != 0:
            last = out.stderr.strip().splitlines()[-1] if out.stderr.strip() else ""
            raise RuntimeError(f"compiling {game} {strategy} (part {k}) failed: {last}")

    with ThreadPoolExecutor(max_workers=max(1, jobs - len(mine))) as pool:
        children = [pool.submit(one, p) for p in theirs]
        for game, strategy, k in mine:
            _compile_part(game, strategy, k)
        for child in children:
            child.result()
    from simcore._cache import CORE, mark_compiled

    for group in dict.fromkeys([CORE, *(g for g, _, _ in parts)]):
        mark_compiled(group)
    return time.perf_counter() - t0


def _compile_part(game: str, strategy: str, part: int) -> None:
    from simcore.registry import get_game

    g = get_game(game)
    g.compile_part(g.configure(None, strategy), part)


def _warm_child(game: str, strategy: str, part: int) -> int:
    _compile_part(game, strategy, part)
    return 0


if __name__ == "__main__":  # a child of warm
    if len(sys.argv) != 5 or sys.argv[1] != WARM_FLAG:
        sys.exit("experiments.running.warmup is run by the command line's first run")
    sys.exit(_warm_child(sys.argv[2], sys.argv[3], int(sys.argv[4])))
