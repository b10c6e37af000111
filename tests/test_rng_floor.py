"""experiments/speed/rng_floor.py: draws counted by the counting build, for any game behind the
common interface, in a numba cache of its own; the generator's rate; the floor figures."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from numba import njit

from experiments.speed import rng_floor
from simcore.kernels import (
    COUNT_CACHE_SUFFIX,
    DRAW_COUNTER_SYMBOL,
    new_rng,
    rng_load,
    rng_next,
    rng_next_v,
    rng_seed,
)

# A game whose playout i draws exactly 4 + (i % 5) + 5 raw numbers, through the array draws
# (rng_uniform, rng_int), the value-state ones (rng_uniform_v, rng_exponential_v,
# rng_next_v) and a shuffle (rng_int, n - 1 draws for n = 6): the counting build must count
# every one of them.
FAKE_GAME = textwrap.dedent('''
    import numpy as np
    from numba import njit, prange

    from simcore.game import Config, Game
    from simcore.kernels import (rng_exponential_v, rng_int, rng_load, rng_next_v, rng_save,
                                 rng_seed, rng_uniform, rng_uniform_v, shuffle)


    @njit(parallel=True)
    def batch(seed, start, out):
        for i in prange(out.shape[0]):
            rng = np.empty(4, dtype=np.uint64)
            rng_seed(rng, seed, start + i)
            a = rng_uniform(rng) + rng_int(rng, 6)  # 2 (rng_int(6) never redraws here)
            st = rng_load(rng)
            u, st = rng_uniform_v(st)
            e, st = rng_exponential_v(st, 1.0)  # 2 more
            for _ in range((start + i) % 5):
                x, st = rng_next_v(st)
            rng_save(rng, st)
            deck = np.arange(6)
            shuffle(rng, deck, 6)  # 5 more
            out[i, 0] = np.int64(a + u + e) + deck[0]


    class Fake(Game):
        name = "fake"
        record_fields = ("x",)
        outcomes = ("done",)

        def configure(self, overrides=None, strategy=None, rules_path=None):
            return Config(self, None, None, None)

        def compile_params(self, rules):
            return None

        def seats(self, rules):
            return 0

        def _kernel(self, config, seed, start, count):
            out = np.zeros((count, 1), dtype=np.int64)
            batch(seed, start, out)
            return out

        def trace(self, config, seed, index=0, check=False):
            return ""

        def trace_record(self, config, seed, index=0):
            return self._kernel(config, seed, index, 1)[0]


    GAME = Fake()
''')


def expected_draws(games):
    return sum(9 + i % 5 for i in range(games))


@pytest.fixture(scope="module")
def fake_module(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fakegame")
    (folder / "fake_rng_game.py").write_text(FAKE_GAME, encoding="utf-8")
    return {"PYTHONPATH": str(folder)}


def test_the_counting_build_counts_every_draw_of_a_playout(fake_module):
    out = rng_floor.count_draws("fake_rng_game:GAME", games=1000, env=fake_module)
    assert out["games"] == 1000
    assert out["draws"] == expected_draws(1000)
    assert out["draws_per_playout"] == pytest.approx(expected_draws(1000) / 1000)
    # another count gives the same (playouts 0 .. n-1 of one seed, whatever the threads)
    again = rng_floor.count_draws("fake_rng_game:GAME", games=1000, env=fake_module)
    assert again == out


def test_the_counting_build_has_its_own_numba_cache_and_the_normal_build_no_counter():
    count_dir = rng_floor.count_cache_dir()
    normal = os.environ.get("NUMBA_CACHE_DIR")
    assert count_dir.endswith(COUNT_CACHE_SUFFIX) and count_dir != normal
    assert not str(normal).endswith(COUNT_CACHE_SUFFIX)
    # the normal build's generator has no counter in it (compiled afresh here: numba shows
    # no code of a function loaded from its cache)
    for fn in (rng_next, rng_next_v):
        fresh = njit(fn.py_func)
        fresh(new_rng(1, 0)) if fn is rng_next else fresh(rng_load(new_rng(1, 0)))
        for ir in fresh.inspect_llvm().values():
            assert "xor" in ir  # the generator's own code is there
            assert DRAW_COUNTER_SYMBOL not in ir


def test_the_counting_build_refuses_the_normal_cache():
    env = dict(os.environ, CTHULHU_SIM_COUNT_DRAWS="1")
    env["NUMBA_CACHE_DIR"] = os.environ["NUMBA_CACHE_DIR"]  # the normal build's folder
    done = subprocess.run([sys.executable, "-c", "import simcore.kernels"], env=env,
                          capture_output=True, text=True, check=False)
    assert done.returncode != 0
    assert "needs its own numba cache folder" in done.stderr


def test_a_failing_count_is_one_error():
    with pytest.raises(rng_floor.FloorError, match="counting the draws of nosuch failed"):
        rng_floor.count_draws("nosuch", games=10)


def test_generator_rate_and_floor_figures():
    rate = rng_floor.generator_rate(0.2)
    assert 1e7 < rate < 1e11
    f = rng_floor.floor_figures(200.0, 1e5, 2e9)
    assert f == {"draws_per_playout": 200.0, "generator_draws_per_s": 2e9,
                 "floor_playouts_per_s": 1e7, "floor_ratio": 100.0}
    assert "200.0 draws a playout" in rng_floor.floor_line("g", f)
    none = rng_floor.floor_figures(0.0, 1e5, 2e9)
    assert none["floor_playouts_per_s"] is None and none["floor_ratio"] is None
    assert "no random-number floor" in rng_floor.floor_line("g", none)


@njit
def fold_one_by_one(seed, index, n):
    st = rng_load(new_state(seed, index))
    acc = np.uint64(0)
    for _ in range(n):
        x, st = rng_next_v(st)
        acc ^= x
    return acc


@njit
def new_state(seed, index):
    state = np.empty(4, dtype=np.uint64)
    rng_seed(state, seed, index)
    return state


def test_the_rate_loop_draws_what_the_generator_gives():
    """_draw_loop folds the outputs of one stream: the same as drawing them one by one."""
    assert rng_floor._draw_loop(99, 3, 50) == fold_one_by_one(99, 3, 50)
