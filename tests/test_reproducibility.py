"""Bit-identical results whatever the thread count, batch size or start offset, and a trace
replays exactly the playout the batch played."""

import numba
import numpy as np
import pandas as pd
import pytest

from simcore.sticky import state as S
from simcore.sticky.game import TRACE_ROWS
from simcore.sticky.playout import trace_game

CONFIGS = [
    pytest.param(None, None, id="defaults"),
    pytest.param({"curses": True, "players": 5}, "cheater", id="curses-cheater"),
    pytest.param({"sixth_colour_face": "any", "players": 3}, "random", id="any-face-random"),
]


def as_array(recs):
    return recs.view(np.int64).reshape(len(recs), -1)


@pytest.mark.parametrize("overrides,strategy", CONFIGS)
def test_thread_count_does_not_change_records(sticky, restore_threads, overrides, strategy):
    config = sticky.configure(overrides, strategy)
    numba.set_num_threads(1)
    one = sticky.run_batch(config, 5, 0, 1500)
    numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
    two = sticky.run_batch(config, 5, 0, 1500)
    assert np.array_equal(as_array(one), as_array(two))
    # the records are not trivially equal: games differ from one another
    assert len(np.unique(as_array(one), axis=0)) > 1000


@pytest.mark.parametrize("overrides,strategy", CONFIGS)
def test_batch_size_does_not_change_records(sticky, overrides, strategy):
    config = sticky.configure(overrides, strategy)
    whole = sticky.to_frame(sticky.run_batch(config, 9, 0, 2000))
    for batch in (1000, 777, 1):
        if batch == 1:
            part = sticky.play(config, 50, 9, batch=1)
            pd.testing.assert_frame_equal(part, whole.iloc[:50].reset_index(drop=True))
        else:
            pd.testing.assert_frame_equal(sticky.play(config, 2000, 9, batch=batch), whole)


def test_start_offset_selects_the_same_playouts(sticky):
    config = sticky.configure({"curses": True})
    full = sticky.run_batch(config, 11, 0, 1000)
    tail = sticky.run_batch(config, 11, 500, 500)
    assert np.array_equal(as_array(tail), as_array(full)[500:])
    middle = sticky.run_batch(config, 11, 123, 7)
    assert np.array_equal(as_array(middle), as_array(full)[123:130])
    played = sticky.play(config, 300, 11, start=600, batch=128)
    pd.testing.assert_frame_equal(played, sticky.to_frame(full[600:900]))


def test_seed_changes_records(sticky):
    config = sticky.configure()
    a = as_array(sticky.run_batch(config, 1, 0, 500))
    b = as_array(sticky.run_batch(config, 2, 0, 500))
    assert not np.array_equal(a, b)
    # playout i of seed 1 is not playout i + 1 of the same seed either
    assert not np.array_equal(a[1:], a[:-1])


def replay(config, seed, index):
    p = config.params
    rec = np.zeros(S.R_SIZE, dtype=np.int64)
    ev = np.zeros((TRACE_ROWS, S.EV_WIDTH), dtype=np.int64)
    n = trace_game(p.fp, p.ip, p.skill, p.curse, p.phit, config.strategy.fn,
                   config.strategy.values, int(seed), int(index), rec, ev)
    return rec, ev[:n]


@pytest.mark.parametrize("overrides,strategy", CONFIGS)
def test_trace_replays_the_batch_playout(sticky, overrides, strategy):
    config = sticky.configure(overrides, strategy)
    seed = 7
    batch = as_array(sticky.run_batch(config, seed, 0, 40))
    for index in (0, 1, 17, 39):
        rec, ev = replay(config, seed, index)
        assert np.array_equal(rec, batch[index]), f"playout {index}"
        assert len(ev) > 0
        # the event log tells the same story as the record
        wins = ev[ev[:, 0] == S.EV_WIN]
        assert len(wins) == 1
        assert wins[0, 1] == rec[S.R_WINNER]
        assert wins[0, 2] == rec[S.R_TURNS]
        assert (ev[:, 0] == S.EV_ROLL).sum() == rec[S.R_TURNS]


def test_trace_text_matches_the_batch_record(sticky):
    config = sticky.configure({"curses": True})
    rec = sticky.run_batch(config, 7, 3, 1)[0]
    text = sticky.trace(config, 7, 3)
    assert text.startswith("Sticky Cthulhu - seed 7, playout 3")
    assert f"Seat {rec['winner']} wins on turn {rec['turns']}." in text
    assert f"winner seat {rec['winner']}, {rec['turns']} turns" in text
    assert text == sticky.trace(config, 7, 3)


def test_play_of_no_games_is_an_empty_frame_and_fewer_is_an_error(sticky):
    config = sticky.configure()
    empty = sticky.play(config, 0, 1)
    assert len(empty) == 0 and list(empty.columns) == list(sticky.play(config, 3, 1).columns)
    with pytest.raises(ValueError, match="non-negative"):
        sticky.play(config, -1, 1)
