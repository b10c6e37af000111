"""What compiling costs a user: ``cthulhu-sim bench --compile``.

A fresh clone (or any change to a game's sources) compiles that game's jitted code before its
first playout; the cache (``simcore._cache``) keeps it for every later run.  This measures that
cost as a user pays it: for each game, ``cthulhu-sim run GAME --games N`` with the game's
default strategy (``--all``: with each of its strategies) in a child process with an empty
cache folder of its own, then the same command again on that now-full cache.  The CPU seconds
(user + system, of the child and its threads) of the first run are the cold cost; the second
run's are what remains once compiled; their difference is the compiling.

CPU seconds, not wall-clock seconds: numba compiles on one thread, so the CPU time of a cold
run hardly moves when another program shares the machine, where its wall-clock time doubles.

With ``profile``, the cold child also records numba's compile events
(``numba.core.event.install_recorder("numba:compile")``) and reports the jitted functions that
took longest to compile, each with its own time (the time of the functions it compiled on the
way, which are listed apart, taken out).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

CHILD_FLAG = "--compile-child"
DEFAULT_GAMES = 200  # the measure: a cold `run GAME --games 200`
# search strategies play few games: a decision costs them thousands of playouts, and the
# compiling does not depend on the number of games
SEARCH_GAMES = 2


@dataclass
class CompileCost:
    game: str
    strategy: str
    games: int
    cold_cpu_s: float
    warm_cpu_s: float
    cold_wall_s: float
    top_functions: list[dict[str, Any]] = field(default_factory=list)

    @property
    def compile_cpu_s(self) -> float:
        return max(self.cold_cpu_s - self.warm_cpu_s, 0.0)

    def as_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["compile_cpu_s"] = round(self.compile_cpu_s, 2)
        for k in ("cold_cpu_s", "warm_cpu_s", "cold_wall_s"):
            d[k] = round(d[k], 2)
        return d


def run_command(game: str, strategy: str, games: int) -> list[str]:
    """The user's command, as this interpreter runs it."""
    return [sys.executable, "-m", "experiments", "run", game, "--strategy", strategy,
            "--games", str(games), "--seed", "1", "-q"]


def _child_cpu(cmd: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """(CPU seconds, wall seconds, stderr) of one child process run to its end."""
    import time

    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    err = proc.stderr.read() if proc.stderr else ""
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        last = err.strip().splitlines()[-1] if err.strip() else f"exit {proc.returncode}"
        raise RuntimeError(f"cthulhu-sim {' '.join(cmd[3:])} failed: {last}")
    return usage.ru_utime + usage.ru_stime, wall, err


def measure_one(game: str, strategy: str, games: int, profile: bool = False,
                top: int = 12) -> CompileCost:
    """Cold and warm CPU seconds of ``run GAME --strategy S --games N`` in a fresh cache."""
    root = tempfile.mkdtemp(prefix="cthulhu-sim-compile-")
    try:
        env = dict(os.environ)
        env["CTHULHU_SIM_CACHE"] = root
        env.pop("NUMBA_CACHE_DIR", None)  # it would take the place of the fresh folder
        cmd = run_command(game, strategy, games)
        prof_file = os.path.join(root, "profile.json")
        cold_cmd = cmd
        if profile:
            cold_cmd = [sys.executable, "-m", "experiments.speed.compile_cost", CHILD_FLAG,
                        prof_file, *cmd[3:]]
        cold, wall, _ = _child_cpu(cold_cmd, env)
        warm, _, _ = _child_cpu(cmd, env)
        tops: list[dict[str, Any]] = []
        if profile and os.path.exists(prof_file):
            with open(prof_file) as fh:
                tops = json.load(fh)[:top]
        return CompileCost(game, strategy, games, cold, warm, wall, tops)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def entries(game_names: list[str], every_strategy: bool, games: int) -> list[tuple[str, str, int]]:
    """(game, strategy, games) to measure: each game's default strategy, or all of them."""
    from simcore.registry import get_game
    from strategies import registry

    out = []
    for name in game_names:
        g = get_game(name)
        specs = registry.specs(g.name)
        chosen = list(specs) if every_strategy else [g.default_strategy]
        for s in chosen:
            if specs[s].table:  # a table of the others: nothing of its own to compile
                continue
            out.append((g.name, s, SEARCH_GAMES if specs[s].search is not None else games))
    return out


def measure(todo: list[tuple[str, str, int]], jobs: int = 1, profile: bool = False,
            done: Callable[[CompileCost], None] | None = None) -> list[CompileCost]:
    """Each entry in its own child processes, ``jobs`` entries at a time (independent
    compiles use both cores; CPU seconds hardly change when they share the machine)."""
    from concurrent.futures import ThreadPoolExecutor, as_completed

    results: dict[int, CompileCost] = {}
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {pool.submit(measure_one, g, s, n, profile): k
                   for k, (g, s, n) in enumerate(todo)}
        try:
            for fut in as_completed(futures):
                res = fut.result()
                results[futures[fut]] = res
                if done is not None:
                    done(res)
        except BaseException:
            for f in futures:
                f.cancel()
            raise
    return [results[k] for k in sorted(results)]


def table_lines(results: list[CompileCost]) -> list[str]:
    lines = [f"{'game':<8} {'strategy':<12} {'games':>5} {'cold CPU s':>10} "
             f"{'warm CPU s':>10} {'compiling':>9} {'cold wall s':>11}"]
    for r in results:
        lines.append(f"{r.game:<8} {r.strategy:<12} {r.games:>5} {r.cold_cpu_s:>10.1f} "
                     f"{r.warm_cpu_s:>10.1f} {r.compile_cpu_s:>9.1f} {r.cold_wall_s:>11.1f}")
        for t in r.top_functions:
            lines.append(f"    {t['seconds']:7.1f} s  {t['function']}")
    return lines


# ---- the profiled child ------------------------------------------------------------------------
def _profile_child(out_file: str, cli_args: list[str]) -> int:
    """Run the CLI with numba's compile events recorded; write each function's own time."""
    import contextlib

    from numba.core import event

    with contextlib.ExitStack() as stack:
        rec = stack.enter_context(event.install_recorder("numba:compile"))
        import runpy

        sys.argv = ["cthulhu-sim", *cli_args]
        code = 0
        try:  # the console script, as `python -m experiments` runs it
            runpy.run_module("experiments", run_name="__main__", alter_sys=True)
        except SystemExit as exc:
            code = int(exc.code or 0)
    own: Counter[str] = Counter()
    stack_: list[list[Any]] = []
    for ts, ev in rec.buffer:
        if ev.is_start:
            stack_.append([ts, ev.data, 0.0])
            continue
        start, data, child = stack_.pop()
        span = ts - start
        disp = (data or {}).get("dispatcher")
        fn = getattr(disp, "py_func", None)
        name = f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', disp)}"
        own[name] += span - child
        if stack_:
            stack_[-1][2] += span
    with open(out_file, "w") as fh:
        json.dump([{"function": k, "seconds": round(v, 2)} for k, v in own.most_common()], fh)
    return code


if __name__ == "__main__":  # the profiled cold child of measure_one
    if len(sys.argv) < 3 or sys.argv[1] != CHILD_FLAG:
        sys.exit("experiments.speed.compile_cost is run by `cthulhu-sim bench --compile`")
    sys.exit(_profile_child(sys.argv[2], sys.argv[3:]))
