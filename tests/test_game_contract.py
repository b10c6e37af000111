"""Tests every registered game passes (TAG's ForwardModelTester, Pgx's api_test): a game added to
``simcore/registry.py`` is covered here with no new test code.

All games: records do not depend on the thread count, batch size or start offset; the trace run
plays exactly the batch's playout.  Step games (``Game.kind.style == "step"``) also: the legal
mask is never empty while the game runs; an illegal answer is replaced by the first legal
choice and counted; random play always ends; a copy taken at a decision is unchanged when the
original moves on; copy-then-step equals step; stepping the recorded answers from ``init``
reproduces the game; a strategy's own random numbers never change the game's dice.
"""

from __future__ import annotations

import numba
import numpy as np
import pytest
from numba import njit

from simcore import engine as E
from simcore.kernels import rng_next
from simcore.registry import game_names, get_game

GAMES = game_names()
STEP_GAMES = [n for n in GAMES if get_game(n).kind.style == "step"]
SEARCHABLE = [n for n in GAMES if get_game(n).kind.searchable]
# small, quick settings per game where the defaults are slow to play many of
FAST = {"tec": None, "sticky": None}

pytestmark = pytest.mark.usefixtures("restore_threads")


def as_array(recs: np.ndarray) -> np.ndarray:
    return recs.view(np.int64).reshape(len(recs), -1)


def configs(name: str) -> list:
    """The default strategy and, where the game has one, ``random``."""
    g = get_game(name)
    from strategies import registry

    names = [g.default_strategy] + (["random"] if "random" in registry.names(name)
                                    and g.default_strategy != "random" else [])
    return [g.configure(FAST.get(name), s) for s in names]


@pytest.mark.parametrize("name", GAMES)
def test_records_do_not_depend_on_threads(name):
    g = get_game(name)
    for config in configs(name):
        numba.set_num_threads(1)
        one = as_array(g.run_batch(config, 3, 0, 150))
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = as_array(g.run_batch(config, 3, 0, 150))
        assert np.array_equal(one, two), config.strategy.name
        assert len(np.unique(one, axis=0)) > 20  # games differ from one another


@pytest.mark.parametrize("name", GAMES)
def test_batch_size_and_start_offset_do_not_change_records(name):
    g = get_game(name)
    config = configs(name)[0]
    whole = as_array(g.run_batch(config, 9, 0, 120))
    parts = np.concatenate([as_array(g.run_batch(config, 9, k, n))
                            for k, n in ((0, 7), (7, 50), (57, 1), (58, 62))])
    assert np.array_equal(whole, parts)
    frame = g.play(config, 40, 9, start=80, batch=13)
    assert np.array_equal(frame["outcome"].to_numpy(), whole[80:, 0])


@pytest.mark.parametrize("name", GAMES)
def test_trace_plays_the_batch_playout(name):
    g = get_game(name)
    for config in configs(name):
        batch = as_array(g.run_batch(config, 5, 0, 12))
        for index in (0, 5, 11):
            assert np.array_equal(g.trace_record(config, 5, index), batch[index]), \
                (config.strategy.name, index)


# ---- step games ---------------------------------------------------------------------------
@njit(E.POLICY_SIG, cache=True)
def answers_out_of_range(ip, fp, s, view, mask, sp, rng):
    """A broken strategy: every answer outside the mask."""
    return mask.shape[0] + 3


@njit(E.POLICY_SIG, cache=True)
def first_choice(ip, fp, s, view, mask, sp, rng):
    for k in range(mask.shape[0]):
        if mask[k]:
            return k
    return -1


@njit(E.POLICY_SIG, cache=True)
def first_choice_drawing(ip, fp, s, view, mask, sp, rng):
    """The same answers as first_choice, after drawing numbers from its own stream."""
    for _ in range(7):
        rng_next(rng)
    for k in range(mask.shape[0]):
        if mask[k]:
            return k
    return -1


def with_policy(config, fn):
    import dataclasses

    spec = dataclasses.replace(config.strategy.spec, fn=fn)
    return dataclasses.replace(config, strategy=dataclasses.replace(config.strategy, spec=spec))


def random_config(name):
    return get_game(name).configure(None, "random")


@pytest.mark.parametrize("name", STEP_GAMES)
def test_legal_mask_never_empty_and_random_play_ends(name):
    g = get_game(name)
    config = random_config(name)
    rng = np.random.default_rng(4)
    for index in range(6):
        st = g.new_state(config, 21, index)
        steps = 0
        while st.playing:
            legal = g.legal_actions(config, st)
            assert legal.size >= 1, f"empty mask at decision {st.decision}"
            assert 0 <= st.seat < max(int(config.params.ip[E.P_SEATS]), 1)
            g.apply(config, st, int(rng.choice(legal)))
            steps += 1
            assert steps <= config.params.ip[E.P_MAX_DECISIONS]
        assert st.s[E.OUTCOME] in range(len(g.outcomes))
    recs = g.run_batch(config, 1, 0, 300)
    assert (recs["violations"] == 0).all()  # the decision guard never cut a game off
    assert recs["outcome"].min() >= 0


BITS_GAMES = [n for n in STEP_GAMES if get_game(n).gives_legal_bits]


def test_the_flagship_gives_its_legal_choices_as_bits():
    assert "tec" in BITS_GAMES


@pytest.mark.parametrize("name", BITS_GAMES)
def test_legal_bits_are_the_legal_mask_at_every_decision(name):
    """A game's optional ``legal_bits`` (what the driver plays a uniform seat from) names
    exactly the choices its ``legal`` puts in the mask, at every decision of random games
    (every kind of decision: moves, flips, rerolls, payments, town actions, the setup)."""
    g = get_game(name)
    config = random_config(name)
    rng = np.random.default_rng(9)
    kinds = set()
    for index in range(40):
        st = g.new_state(config, 5, index)
        while st.playing:
            legal = g.legal_actions(config, st)
            bits = g.legal_bits_of(config, st)
            assert bits == sum(1 << int(a) for a in legal), (
                f"decision {st.decision}: bits {bits:b}, mask {legal.tolist()}")
            kinds.add(st.decision)
            g.apply(config, st, int(rng.choice(legal)))
    assert len(kinds) >= 8  # the games met most kinds of decision


@pytest.mark.parametrize("name", STEP_GAMES)
def test_illegal_answer_is_replaced_by_the_first_legal_choice_and_counted(name):
    g = get_game(name)
    base = random_config(name)
    broken = as_array(g.run_batch(with_policy(base, answers_out_of_range), 2, 0, 30))
    first = as_array(g.run_batch(with_policy(base, first_choice), 2, 0, 30))
    fields = list(g.record_fields)
    k = fields.index("illegal_answers")
    same = [i for i in range(len(fields)) if i != k]
    assert np.array_equal(broken[:, same], first[:, same])
    assert (broken[:, k] > 0).all() and (first[:, k] == 0).all()
    # every decision the strategy was asked was replaced (one-choice decisions are not asked)
    assert (broken[:, k] <= broken[:, fields.index("decisions")]).all()


@pytest.mark.parametrize("name", STEP_GAMES)
def test_strategy_random_numbers_never_change_the_dice(name):
    g = get_game(name)
    base = random_config(name)
    plain = as_array(g.run_batch(with_policy(base, first_choice), 6, 0, 40))
    drawing = as_array(g.run_batch(with_policy(base, first_choice_drawing), 6, 0, 40))
    assert np.array_equal(plain, drawing)


def play_recorded(g, config, seed, index):
    """(states at every decision, answers given) of one playout, from its trace."""
    events, rec = g.trace_events(config, seed, index)
    answers = [int(e[3]) for e in events if e[0] == E.EV_DECIDE]
    return answers, rec


@pytest.mark.parametrize("name", SEARCHABLE)
def test_replaying_the_recorded_answers_from_init_reproduces_the_game(name):
    g = get_game(name)
    for config in configs(name):
        for index in (0, 3):
            answers, rec = play_recorded(g, config, 8, index)
            st = g.new_state(config, 8, index)
            for a in answers:
                g.apply(config, st, a)
            assert not st.playing
            replayed = g.record_of(config, st)
            k = g.record_fields.index("illegal_answers")
            assert np.array_equal(np.delete(replayed, k), np.delete(rec, k))


@pytest.mark.parametrize("name", SEARCHABLE)
def test_apply_logs_each_steps_events_and_says_how_many(name):
    """Stepping the recorded answers with an event array logs, step by step, the game's own
    events of the trace (all but the driver's decision lines), and ``apply`` returns how many
    rows each step wrote."""
    g = get_game(name)
    config = configs(name)[0]
    events, _ = g.trace_events(config, 8, 0)
    own = [tuple(e) for e in events if e[0] not in (E.EV_DECIDE, E.EV_FAULT)]
    answers = [int(e[3]) for e in events if e[0] == E.EV_DECIDE]
    st = g.new_state(config, 8, 0)
    logged = []
    buffer = np.zeros((10_000, E.EV_WIDTH), dtype=np.int64)
    for a in answers:
        n = g.apply(config, st, a, events=buffer)
        assert 0 <= n <= len(buffer)
        logged += [tuple(e) for e in buffer[:n]]
    assert not st.playing
    assert logged == own and len(own) > 0


@pytest.mark.parametrize("name", SEARCHABLE)
def test_copy_is_independent_and_copy_then_step_equals_step(name):
    g = get_game(name)
    config = random_config(name)
    rng = np.random.default_rng(11)
    st = g.new_state(config, 3, 1)
    checked = 0
    while st.playing and checked < 200:
        snapshot = st.copy()
        frozen = st.copy()
        a = int(rng.choice(g.legal_actions(config, st)))
        g.apply(config, st, a)  # the original moves on
        assert snapshot.same_as(frozen), "a copy changed when the original stepped"
        g.apply(config, snapshot, a)  # the copy, stepped the same way, is the original
        assert snapshot.same_as(st)
        checked += 1
    assert checked > 20


@pytest.mark.parametrize("name", STEP_GAMES)
def test_rules_checker_finds_nothing_in_random_games(name):
    g = get_game(name)
    result = g.check(random_config(name), games=400, seed=2)
    assert result["violations"] == 0 and result["illegal_answers"] == 0


def test_rng_streams_are_distinct_and_reproducible():
    from simcore.kernels import RNG_WORDS, rng_seed

    a = np.empty(RNG_WORDS, dtype=np.uint64)
    b = np.empty(RNG_WORDS, dtype=np.uint64)
    game = np.empty(RNG_WORDS, dtype=np.uint64)
    rng_seed(game, 5, 7)
    E.rng_seed_stream(a, 5, 7, E.STREAM_STRATEGY, 0)
    E.rng_seed_stream(b, 5, 7, E.STREAM_STRATEGY, 0)
    assert np.array_equal(a, b)
    assert not np.array_equal(a, game)
    E.rng_seed_stream(b, 5, 7, E.STREAM_SEARCH, 0)
    assert not np.array_equal(a, b)
    c = b.copy()
    E.rng_seed_stream(c, 5, 7, E.STREAM_SEARCH, 1)
    assert not np.array_equal(b, c)
    E.rng_seed_stream(c, 5, 8, E.STREAM_STRATEGY, 0)
    assert not np.array_equal(a, c)


def test_frames_push_pop_and_locals():
    s = np.zeros(E.HEADER + 4, dtype=np.int64)
    E.clear_header(s)
    assert s[E.OUTCOME] == E.PLAYING and E.frame_proc(s) == -1
    E.frame_push(s, 7)
    E.frame_set(s, 0, 11)
    E.frame_push(s, 9)
    E.frame_set(s, 4, 13)
    assert s[E.DEPTH] == 2 and E.frame_proc(s) == 9 and E.frame_get(s, 4) == 13
    E.frame_pop(s)
    assert E.frame_proc(s) == 7 and E.frame_get(s, 0) == 11
    E.frame_pop(s)
    assert s[E.DEPTH] == 0 and E.frame_top(s) == -1


def test_layout_names_every_word():
    lay = E.state_layout("demo")
    turn = lay.field("demo_turn")
    cells = lay.array("cell.good", 5)
    bad = lay.array("cell.bad", 5)
    assert lay.offset("demo_turn") == turn == E.HEADER
    assert lay.offset("cell[3].good") == cells + 3 == lay.offset("cell.good[3]")
    assert lay.offset("cell[0].bad") == bad
    assert lay.offset("outcome") == E.OUTCOME and lay.offset("frames[0]") == E.FRAMES
    with pytest.raises(KeyError, match="no field"):
        lay.offset("cell[1].ugly")
    with pytest.raises(KeyError, match="outside"):
        lay.offset("cell[5].good")
    with pytest.raises(ValueError, match="twice"):
        lay.field("demo_turn")
    arr = np.zeros(lay.size, dtype=np.int64)
    arr[cells + 2] = 4
    arr[turn] = 3
    text = lay.describe(arr)
    assert "demo_turn = 3" in text and "cell.good = [0 0 4 0 0]" in text
    assert "cell.bad" not in text


@pytest.mark.parametrize("name", STEP_GAMES)
def test_the_driver_plays_a_uniform_strategy_inline_as_its_policy_would(name):
    """A strategy registered as uniform (``StrategySpec.uniform``) is chosen for inline by the
    driver (``engine.UNIFORM``): the records are those of its policy called at every
    decision, and a spec whose policy was replaced is not played inline."""
    g = get_game(name)
    config = random_config(name)
    assert config.strategy.uniform
    ip = config.params.ip
    seat_pol = E.strategy_parts(config.strategy, ip)[2]
    seats = max(int(ip[E.P_SEATS]), 1)
    assert (seat_pol[:seats] == E.UNIFORM).all()
    sps = np.zeros((E.MAX_POLICIES, 1))
    called = g.run_policy(config, config.strategy.spec.fn, sps, 3, 0, 200)
    inline = g.run_batch(config, 3, 0, 200)
    assert np.array_equal(called, inline)
    replaced = with_policy(config, first_choice_drawing)
    assert not replaced.strategy.uniform
    assert (E.strategy_parts(replaced.strategy, ip)[2][:seats] == 0).all()
