"""Compiling only what a run uses (issue 27): nothing compiles at import, a run that neither
searches nor checks hands the driver stand-ins for the game's functions, and the games played
are the same either way."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from simcore.registry import get_game

# the project's modules that hold jitted code; importing them must compile nothing
_MODULES = ["simcore.engine", "simcore.kernels", "strategies.search", "simcore.tec.rules",
            "strategies.tec", "simcore.sticky.rules", "strategies.sticky", "simcore.wakeup.rules",
            "strategies.wakeup", "simcore.hex.rules", "strategies.hex"]

_PROBE = """
import importlib, json, sys, contextlib
from numba.core import event
with contextlib.ExitStack() as st:
    rec = st.enter_context(event.install_recorder("numba:compile"))
    for m in sys.argv[1:]:
        importlib.import_module(m)
    import strategies.registry as reg
    for g in ("tec", "sticky", "wakeup", "hex"):
        reg.names(g)
names = []
for ts, ev in rec.buffer:
    if ev.is_start:
        fn = getattr(ev.data.get("dispatcher"), "py_func", None)
        names.append(f"{fn.__module__}.{fn.__qualname__}")
print(json.dumps(names))
"""


def test_importing_the_games_compiles_nothing(tmp_path):
    """A function with an explicit signature compiles when its module is imported, so one run
    paid for every game's rules and every strategy: none may have one (``engine.ready``)."""
    env = {**_base_env(), "CTHULHU_SIM_CACHE": str(tmp_path / "cache")}
    out = subprocess.run([sys.executable, "-c", _PROBE, *_MODULES], capture_output=True,
                         text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    compiled = set(json.loads(out.stdout.strip().splitlines()[-1]))
    # the event log alone is fixed to its signatures (kernels.LOG_SIG): tiny, and left open
    # it would compile a version for every call site's mix of constants
    allowed = {"simcore.kernels.log_event", "simcore.tec.state.log", "simcore.wakeup.base.log"}
    assert compiled <= allowed, f"compiled at import: {sorted(compiled - allowed)}"


def _base_env() -> dict[str, str]:
    import os

    keep = ("HOME", "PATH", "VIRTUAL_ENV", "LANG")
    env = {k: os.environ[k] for k in keep if k in os.environ}
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    return env


@pytest.mark.parametrize("game", ["hex", "tec"])
def test_stand_ins_play_the_same_games(game, monkeypatch):
    """The driver reads the GAME tuple only to search or check: with the stand-ins
    (``UNUSED_GAME_FUNCTIONS``) a run's records are those with the game's own functions."""
    from simcore import engine

    g = get_game(game)
    config = g.configure()
    ip = config.params.ip
    qp = np.zeros(1, dtype=np.float64)
    assert g.driver_functions(ip, qp) is engine.UNUSED_GAME_FUNCTIONS
    stand_ins = g.run_batch(config, 7, 0, 24)
    monkeypatch.setattr(type(g), "driver_functions", lambda self, ip, qp: self.functions())
    own = g.run_batch(config, 7, 0, 24)
    assert np.array_equal(stand_ins, own)


def test_search_and_checking_get_the_games_functions():
    from simcore import engine

    g = get_game("hex")
    ip = g.configure().params.ip.copy()
    searching = np.zeros(1, dtype=np.float64)
    searching[engine.Q_SEATS] = 1
    assert g.driver_functions(ip, searching)[1] is g.functions()[1]
    ip[engine.P_CHECK] = 1
    assert g.driver_functions(ip, np.zeros(1))[2] is g.functions()[2]


def test_ready_fixes_a_runner_to_its_signatures():
    from numba import njit, types

    from simcore.engine import ready

    @njit
    def twice(a):
        return a * 2

    sig = types.int64(types.int64)
    assert ready(twice, sig) is twice
    assert twice.signatures == [(types.int64,)]
    with pytest.raises(TypeError):
        twice(np.zeros(2))  # closed: no second version compiled for another type


# ---- bench --compile ---------------------------------------------------------------------------
def test_bench_compile_measures_a_cold_run_against_a_warm_one():
    """One game end to end: a fresh cache in a child process costs more CPU than the same run
    once compiled, and the profile names the game's jitted functions."""
    from experiments.speed.compile_cost import measure_one

    r = measure_one("sticky", "honest", 20, profile=True, top=5)
    assert r.cold_cpu_s > r.warm_cpu_s > 0
    assert r.compile_cpu_s > 1.0  # a whole game's code is more than a second of compiling
    assert r.top_functions and all(t["seconds"] >= 0 for t in r.top_functions)
    assert any(t["function"].startswith("simcore.sticky.") for t in r.top_functions)
    d = r.as_dict()
    assert d["compile_cpu_s"] == round(r.cold_cpu_s - r.warm_cpu_s, 2)


def test_bench_compile_entries_default_and_every_strategy():
    from experiments.speed.compile_cost import SEARCH_GAMES, entries

    assert entries(["hex"], False, 200) == [("hex", "heuristic", 200)]
    every = dict(((g, s), n) for g, s, n in entries(["hex"], True, 200))
    assert every[("hex", "mcts")] == SEARCH_GAMES and every[("hex", "random")] == 200
    assert ("hex", "table") not in every  # a table has nothing of its own to compile


def test_bench_compile_options_go_together():
    from typer.testing import CliRunner

    from experiments.cli import app

    out = CliRunner().invoke(app, ["bench", "--all"])
    assert out.exit_code == 2 and "--all and --profile go with --compile" in out.output


def test_a_run_compiles_its_driver_itself_while_a_child_compiles_the_rest(tmp_path):
    """``warm(here=True)`` (a run's first-run line): this process compiles the first part,
    the driver, and starts children only for the others (one interpreter fewer to import);
    on one core it compiles everything itself.  The cache is full afterwards either way."""
    code = ("import subprocess\n"
            "import simcore\n"
            "import simcore.sticky.rules, strategies.sticky  # (their folders made, empty)\n"
            "from experiments.running import warmup\n"
            "children = []\n"
            "real_run = subprocess.run\n"
            "def counting(cmd, *a, **k):\n"
            "    children.append(cmd[-1])\n"
            "    return real_run(cmd, *a, **k)\n"
            "subprocess.run = counting\n"
            "assert warmup.cold([('sticky', None)])\n"
            "warmup.warm([('sticky', None)], jobs=int({jobs}), here=True)\n"
            "assert not warmup.cold([('sticky', None)]), 'still cold'\n"
            "print(children)\n")
    for jobs, children in ((2, "['1']"), (1, "[]")):
        env = {**_base_env(), "CTHULHU_SIM_CACHE": str(tmp_path / f"cache{jobs}")}
        out = subprocess.run([sys.executable, "-c", code.format(jobs=jobs)],
                             capture_output=True, text=True, env=env, timeout=600)
        assert out.returncode == 0, out.stderr[-2000:]
        assert out.stdout.strip() == children


def test_warm_compiles_the_parts_into_the_cache(tmp_path):
    """The warm-up's children fill the cache this process reads: a game is cold before and
    not after (``compile_cost.cold``)."""
    code = ("import simcore\n"
            "import simcore.sticky.rules, strategies.sticky  # (their folders made, empty)\n"
            "from experiments.running.warmup import cold, warm\n"
            "assert cold([('sticky', None)])\n"
            "warm([('sticky', None)], jobs=2)\n"
            "assert not cold([('sticky', None)]), 'still cold'\n")
    env = {**_base_env(), "CTHULHU_SIM_CACHE": str(tmp_path / "cache")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
