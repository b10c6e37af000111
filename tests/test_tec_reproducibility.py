"""Tiny Epic Cthulhu: bit-identical records whatever the thread count, batch size or start
offset, and a trace replays exactly the playout the batch played (the README's
reproducibility guarantee, as ``test_reproducibility.py`` checks it for Sticky Cthulhu).

Every test runs for both built-in strategies, ``random`` and ``heuristic``.  Playouts are
cheap (tens of thousands a second), so the counts are large enough that both threads of a
two-thread batch get several blocks of playouts (``engine.CHUNK`` playouts each).
"""

import numba
import numpy as np
import pandas as pd
import pytest

from simcore.engine import CHUNK, P_CHECK
from simcore.registry import get_game
from simcore.tec import state as S

GAME = get_game("tec")
STRATEGIES = ("random", "heuristic")
SETTINGS = [
    pytest.param({}, id="defaults"),
    pytest.param({"players": 4, "goo": "cthulhu", "difficulty": "madness",
                  "must_move_check": "after_spin"}, id="4p-cthulhu-madness"),
    pytest.param({"players": 1, "goo": "yig", "difficulty": "hard", "move_distance": "up_to"},
                 id="solo-yig-hard"),
]


def as_array(recs: np.ndarray) -> np.ndarray:
    return recs.view(np.int64).reshape(len(recs), -1)


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("settings", SETTINGS)
def test_thread_count_does_not_change_records(restore_threads, settings, strategy):
    """One thread and two threads play the same records, row for row (2,000 playouts: well
    over the blocks of ``CHUNK`` playouts that threads take as they free up)."""
    config = GAME.configure(settings, strategy)
    numba.set_num_threads(1)
    one = as_array(GAME.run_batch(config, 5, 0, 2000))
    numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
    two = as_array(GAME.run_batch(config, 5, 0, 2000))
    assert np.array_equal(one, two)
    # not trivially equal: the games differ from one another, and every one finished
    assert len(np.unique(one, axis=0)) > 1000
    assert (one[:, S.R_OUTCOME] != S.O_PLAYING).all()


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("settings", SETTINGS)
def test_batch_size_does_not_change_records(settings, strategy):
    """``play`` in batches of any size (not multiples of ``CHUNK`` either) gives the frame of
    one big batch."""
    config = GAME.configure(settings, strategy)
    whole = GAME.to_frame(GAME.run_batch(config, 9, 0, 1500))
    for batch in (1000, 777, 100):
        pd.testing.assert_frame_equal(GAME.play(config, 1500, 9, batch=batch), whole)
    part = GAME.play(config, 40, 9, batch=1)
    pd.testing.assert_frame_equal(part, whole.iloc[:40].reset_index(drop=True))


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_start_offset_selects_the_same_playouts(strategy):
    """Playouts ``start .. start+n`` of one call are the same rows of a bigger call, for
    offsets inside a block of ``CHUNK`` playouts as well as on a block boundary."""
    config = GAME.configure({"players": 3, "difficulty": "hard"}, strategy)
    recs = GAME.run_batch(config, 11, 0, 1000)
    full = as_array(recs)
    tail = as_array(GAME.run_batch(config, 11, 512, 488))
    assert np.array_equal(tail, full[512:])
    for start, n in ((123, 7), (1, 1), (999, 1), (CHUNK - 1, 2 * CHUNK + 3)):
        part = as_array(GAME.run_batch(config, 11, start, n))
        assert np.array_equal(part, full[start:start + n]), (start, n)
    played = GAME.play(config, 300, 11, start=600, batch=128)
    pd.testing.assert_frame_equal(played, GAME.to_frame(recs[600:900]))


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_seed_changes_records(strategy):
    """A different seed plays different games, and playout i is not playout i + 1."""
    config = GAME.configure(None, strategy)
    a = as_array(GAME.run_batch(config, 1, 0, 500))
    b = as_array(GAME.run_batch(config, 2, 0, 500))
    assert not np.array_equal(a, b)
    assert not np.array_equal(a[1:], a[:-1])


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_checking_mode_plays_the_same_games(strategy):
    """Checking mode (``check``; conservation asserted after every step) only counts errors:
    it draws nothing, so its records are the batch's, and a playout it names is the one a
    plain batch or a trace replays."""
    config = GAME.configure({"players": 3}, strategy)
    plain = as_array(GAME.run_batch(config, 4, 0, 600))
    ip = config.params.ip.copy()
    ip[P_CHECK] = 1
    checked = GAME._play(config, ip, 4, 0, 600)
    assert (checked[:, GAME.record_fields.index("violations")] == 0).all()
    assert np.array_equal(checked, plain)


def replay(config, seed: int, index: int) -> tuple[np.ndarray, np.ndarray]:
    """Playout ``index`` of run ``seed`` as the trace plays it: the record and the events
    (the setup's included)."""
    ev, rec = GAME.trace_events(config, seed, index)
    assert 0 < len(ev) < GAME.trace_rows  # the whole game was logged
    return rec, ev


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("settings", SETTINGS)
def test_trace_replays_the_batch_playout(settings, strategy):
    """``trace_game`` for playout K ends with the batch's record for K, and its event log
    tells the same story (one turn event per turn, one end event with outcome and length)."""
    config = GAME.configure(settings, strategy)
    seed = 7
    batch = as_array(GAME.run_batch(config, seed, 0, 80))
    for index in (0, 1, CHUNK, 37, 79):
        rec, ev = replay(config, seed, index)
        assert np.array_equal(rec, batch[index]), f"playout {index}"
        ends = ev[ev[:, 0] == S.EV_END]
        assert len(ends) == 1
        assert ends[0, 1] == rec[S.R_OUTCOME] and ends[0, 2] == rec[S.R_TURNS]
        assert (ev[:, 0] == S.EV_TURN).sum() == rec[S.R_TURNS]
        assert (ev[:, 0] == S.EV_SEAL).sum() == rec[S.R_SEAL_TRIES]
        assert (ev[:, 0] == S.EV_PHASE2).sum() == (1 if rec[S.R_PHASE2_TURN] >= 0 else 0)


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_trace_text_matches_the_batch_record(strategy):
    """``Game.trace`` (what ``cthulhu-sim trace`` prints) names the playout and strategy, and
    its closing line is the batch record's outcome, length and portals sealed."""
    config = GAME.configure({"goo": "yog-sothoth", "players": 3}, strategy)
    rec = GAME.run_batch(config, 7, 0, 30)[21]
    text = GAME.trace(config, 7, 21)
    lines = text.splitlines()
    assert lines[0] == f"Tiny Epic Cthulhu - seed 7, playout 21, strategy {strategy}"
    assert lines[1].startswith("Yog-Sothoth on normal, 3 player(s)")
    assert lines[-2] == f"End after {rec['turns']} turns: {S.OUTCOMES[rec['outcome']]}."
    assert lines[-1].startswith("Result: ")
    assert f"(turn {rec['turns']}; phase two " in lines[-1]
    assert f"{rec['portals_sealed']} portal(s) sealed" in lines[-1]
    assert text == GAME.trace(config, 7, 21)
