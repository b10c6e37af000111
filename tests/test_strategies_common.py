"""strategies/common.py: the helpers strategies choose with, against exact distributions.

``uniform_legal`` must give every legal choice the same chance and never an illegal one, on
masks of every length a game uses (Sticky 16, TEC 32) and beyond the 64 entries its bit-mask
path covers; and it must pick exactly what the plain reading gives (the r-th legal index for r
drawn with ``rng_int``), so that a strategy's games do not depend on how the pick is computed.
Streams are fixed, so the goodness-of-fit tests are deterministic.
"""

import numpy as np
import pytest
from numba import njit
from scipy import stats

from simcore.kernels import new_rng, rng_int
from strategies.common import count_legal, first_legal, uniform_legal

N = 100_000
ALPHA = 1e-3


@njit(cache=True)
def picks(state, legal, n):
    out = np.empty(n, dtype=np.int64)
    for i in range(n):
        out[i] = uniform_legal(legal, state)
    return out


@njit(cache=True)
def reference_picks(state, legal, n):
    """The plain reading: r uniform below the number of legal entries, then the r-th one."""
    out = np.empty(n, dtype=np.int64)
    for i in range(n):
        r = rng_int(state, count_legal(legal))
        for k in range(legal.shape[0]):
            if legal[k]:
                if r == 0:
                    out[i] = k
                    break
                r -= 1
    return out


def mask(size, legal_at, value=1):
    m = np.zeros(size, dtype=np.uint8)
    m[list(legal_at)] = value
    return m


@pytest.mark.parametrize("size, legal_at", [
    (16, [0, 3, 4, 15]),  # Sticky's mask length
    (32, [1, 2, 7, 16, 30, 31]),  # TEC's
    (64, [0, 63]),  # the widest bit mask
    (70, [5, 64, 69]),  # beyond it: the entry-by-entry path
])
def test_uniform_legal_is_uniform_over_the_legal_entries(size, legal_at):
    out = picks(new_rng(5, size), mask(size, legal_at), N)
    assert set(np.unique(out)) == set(legal_at)
    observed = np.bincount(out, minlength=size)[legal_at]
    assert stats.chisquare(observed).pvalue > ALPHA


@pytest.mark.parametrize("size", [16, 32, 70])
def test_uniform_legal_picks_what_the_plain_reading_picks(size):
    """Same stream, same picks: the bit-mask path changes how, not what."""
    rng = np.random.default_rng(size)
    for trial in range(20):
        legal = (rng.random(size) < 0.3).astype(np.uint8)
        legal[rng.integers(size)] = 1
        got = picks(new_rng(9, trial), legal, 500)
        want = reference_picks(new_rng(9, trial), legal, 500)
        assert (got == want).all()


def test_any_non_zero_entry_counts_as_legal():
    legal = mask(32, [3, 9], value=7)
    assert set(np.unique(picks(new_rng(1, 0), legal, 2000))) == {3, 9}


@pytest.mark.parametrize("size", [16, 32, 70])
def test_no_legal_entry_gives_minus_one(size):
    legal = np.zeros(size, dtype=np.uint8)
    assert (picks(new_rng(1, 1), legal, 10) == -1).all()
    assert first_legal(legal) == -1


def test_choice_parameters_take_names_and_show_them():
    """A strategy parameter with choices is set by name, held as its index (what the jitted
    function reads), shown by name, and an unknown name is refused with the names allowed."""
    from simcore.rules_data import RulesError
    from strategies import registry

    s = registry.get("sticky", "by_seat", {"seat_1": "spoiler"})
    assert s.values[1] == 2.0 and s.values[0] == 0.0
    assert s.param_dict()["seat_1"] == "spoiler" and s.param_dict()["seat_0"] == "honest"
    with pytest.raises(RulesError, match="'strategy.seat_1': 'sly' is not allowed; allowed: "
                                         "honest, cheater, spoiler, random"):
        registry.get("sticky", "by_seat", {"seat_1": "sly"})


def test_replay_command_names_only_changed_choice_parameters(sticky):
    from simcore.replay import set_options

    config = sticky.configure({"strategy.seat_3": "random"}, "by_seat")
    assert set_options(config) == ["--set", "strategy.seat_3=random"]
