"""The hex wargame's strategies: varied play (issue 26) and the heuristic's choices on
hand-built boards."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from simcore import engine as E
from simcore.hex import rules as R
from simcore.hex import state as S
from strategies import hex as H
from tests.hex_support import Board


def setups(strategy: str, games: int, overrides: dict | None = None, seed: int = 11) -> list:
    """The setup (every placement in order) of each of ``games`` playouts."""
    g = Board().game
    config = g.configure({"max_turns": 1, **(overrides or {})}, strategy)
    out = []
    for k in range(games):
        events, _ = g.trace_events(config, seed, k)
        out.append(tuple((int(e[1]), int(e[2]), int(e[3])) for e in events
                         if int(e[0]) == S.EV_PLACE))
    return out


def test_the_heuristic_plays_varied_setups_from_its_own_stream():
    """Issue 26: placements about as good fall at random (``setup_noise``), so games differ;
    with no noise every game has the same setup."""
    varied = setups("heuristic", 200)
    assert len(set(varied)) >= 180
    assert all(len(x) == 11 for x in varied)  # three Artefacts, eight Undergrowth
    fixed = setups("heuristic", 20, {"strategy.setup_noise": 0.0, "strategy.tie_noise": 0.0})
    assert len(set(fixed)) == 1


def test_the_heuristic_brings_a_counter_on_out_of_danger_to_that_counter():
    """The entry hex weighs the danger to the counter coming on, whoever it is (it weighed
    John Wilson's whichever counter entered)."""
    b = Board()
    b.put("Colonel Grant", "d5")  # attack 3: kills a Cultist (defence 1) on a 3, the Monster
    # (defence 4) only on a 6
    b.artefact(0, "d4")  # two steps from d2
    ip, s = b.ip, b.s
    h = b.hex("d2")
    cultist = H.entry_value(ip, s, S.BAD, b.counter("Cultist 1"), h)
    monster = H.entry_value(ip, s, S.BAD, b.counter("Monster"), h)
    p_cultist = H.danger(ip, s, S.BAD, b.counter("Cultist 1"), h)
    p_monster = H.danger(ip, s, S.BAD, b.counter("Monster"), h)
    assert p_cultist == pytest.approx(4 / 6) and p_monster == pytest.approx(1 / 6)
    assert cultist == pytest.approx(-2.0 - 0.05 * 4 / 6)
    assert monster == pytest.approx(-2.0 - 0.05 * 1 / 6)


def test_search_values_a_stalemate_at_its_worth_and_a_lead_less_as_the_turns_run_out():
    """Issue 26 §3, stalls: search scores a stalemate at ``stalemate_worth`` (returns), and
    the estimate of an unfinished game (evaluate) falls towards it as the turn cap nears, so
    the same position reached later is worth less to the side ahead and search does not put
    off what it can do now."""
    from simcore import engine as E
    from simcore.hex import rules as R

    for worth in (0.5, 0.0):
        b = Board({"stalemate_worth": worth})
        b.artefact(0, "a8")  # Good has one home: Good is ahead
        b.artefact(1, "d4")
        b.artefact(2, "e5")
        b.put("John Wilson", "d6")
        b.put("Cultist 1", "d2")
        out = np.zeros(2)
        values = []
        for turn in (1, 60, 119, 120):
            b.s[E.TURN] = turn
            R.evaluate(b.ip, b.fp, b.s, out)
            values.append(out.copy())
        assert values[0][0] > values[1][0] > values[2][0] > worth  # Good's lead fades
        assert values[3][0] == pytest.approx(worth) and values[3][1] == pytest.approx(worth)
        b.s[E.OUTCOME] = S.O_STALEMATE
        b.s[E.WINNER] = -1
        R.returns(b.ip, b.fp, b.s, out)
        assert list(out) == [worth, worth]


# ---- the turn memo (issue 26 §3, cheaper rollouts) --------------------------------------------
def _ask(b, params, view, rng):
    """The heuristic's answer to the board's decision, with ``view`` and ``rng`` (changed)."""
    mask = np.zeros(int(b.ip[E.P_MASK_SIZE]), dtype=np.uint8)
    mask[b.legal()] = 1
    return int(H.plan(b.ip, b.fp, b.s, view, mask, params, rng))


def _ask_both(b, params, view, rng):
    """The answer through the memo in ``view`` and with no memo (a view too short for it):
    they must be the same, and so must the stream after them."""
    bare_rng = rng.copy()
    a = _ask(b, params, view, rng)
    bare = _ask(b, params, np.zeros(1, dtype=np.int64), bare_rng)
    assert a == bare
    assert np.array_equal(rng, bare_rng)
    return a


def test_the_turn_memo_is_kept_across_a_turn_and_renewed_when_its_key_changes():
    """The values a side's move decisions weigh are kept in the view while the enemies, the
    Artefacts, the friends carrying one, the Undergrowth, the side and the parameters are
    the same (a friend carrying nothing may move); any other change starts a new generation.
    Every answer is the one the heuristic gives with no memo, and draws the same numbers."""
    b = Board(strategy="heuristic")
    params = np.asarray(E.policy_values(b.config.strategy), dtype=np.float64)
    b.put("John Wilson", "c2")
    b.put("Dr Latern", "f2")
    b.put("Dorothy Pym", "a1")
    b.put("Cultist 1", "d7")
    b.put("Monster", "g8")
    b.artefact(0, "c5")
    b.artefact(1, "f5")
    b.artefact(2, "h4")
    b.start_turn(S.GOOD)
    assert b.decision() == S.D_MOVE_PICK
    view = np.zeros(S.VIEW_WORDS, dtype=np.int64)
    rng = np.array([11, 22, 33, 44], dtype=np.uint64)
    first = _ask_both(b, params, view, rng)
    assert b.names[first] == "Dorothy Pym"
    assert view[H.T_VALID] == 1 and view[H.T_GEN] == 1 and view[H.T_SIDE] == S.GOOD
    weighed = [c for c in range(int(b.ip[S.I_N_COUNTERS]))
               if view[H.T_SLOTS + c * H.SL_W + H.SL_GEN] == 1]
    assert sorted(weighed) == sorted(b.counter(n) for n in ("John Wilson", "Dr Latern",
                                                             "Dorothy Pym"))
    assert first in weighed
    # "where": the pick's values are read back; the answer is still the bare one
    b.act(first)
    assert b.decision() == S.D_MOVE_TO
    to = _ask_both(b, params, view, rng)
    b.act(to)
    # it stands on an Artefact it takes up next turn, carrying nothing yet: the key holds,
    # and the next pick reads the other two counters' values back
    assert b.decision() == S.D_MOVE_PICK and view[H.T_GEN] == 1
    _ask_both(b, params, view, rng)
    assert view[H.T_GEN] == 1
    # an enemy elsewhere: a new generation, and the old slots are not read
    R.lift_counter(b.s, b.counter("Cultist 1"), S.BAD)
    R.put_counter(b.s, b.counter("Cultist 1"), S.BAD, b.hex("d6"))
    _ask_both(b, params, view, rng)
    assert view[H.T_GEN] == 2


def test_the_turn_memo_does_not_read_a_view_left_by_another_key():
    """A view holding another state's memo (another side's, other parameters') is
    rewritten, never read: the answers are the bare ones."""
    b = Board(strategy="heuristic")
    params = np.asarray(E.policy_values(b.config.strategy), dtype=np.float64)
    b.put("Colonel Grant", "d2")
    b.put("Cultist 1", "d6")
    b.put("Cultist 2", "e6")
    b.artefact(0, "d4")
    b.artefact(1, "e5")
    b.artefact(2, "b4")
    b.start_turn(S.GOOD)
    view = np.zeros(S.VIEW_WORDS, dtype=np.int64)
    rng = np.array([5, 6, 7, 8], dtype=np.uint64)
    _ask_both(b, params, view, rng)
    other = params.copy()
    other[H.CAUTION] = 2.0
    other[H.AGGRESSION] = 1.0
    gen = view[H.T_GEN]
    _ask_both(b, other, view, rng)  # other parameters: a new generation
    assert view[H.T_GEN] == gen + 1
    _ask_both(b, params, view, rng)
    assert view[H.T_GEN] == gen + 2


@pytest.mark.parametrize("strategy, overrides", [
    ("heuristic", {}), ("rusher", {}), ("brawler", {}),
    ("heuristic", {"bad.cultist.count": 2, "strategy.tie_noise": 0.0}),
    ("heuristic", {"strategy.leave_home": 0.0, "strategy.escort": 1.5, "first_side": "bad"}),
])
def test_whole_games_with_the_turn_memo_are_the_games_without_it(strategy, overrides):
    """Every answer of whole games is the same with the memo as with a view too short for it
    (records equal, game for game)."""
    g = Board().game
    config = g.configure(overrides, strategy)
    values = np.asarray(E.policy_values(config.strategy), dtype=np.float64)
    rows = np.tile(values, (E.MAX_POLICIES, 1))
    with_memo = g.run_policy(config, _through_memo, rows, 21, 0, 40)
    bare = g.run_policy(config, _no_memo, rows, 21, 0, 40)
    assert np.array_equal(with_memo, bare)
    assert np.array_equal(with_memo, g.run_batch(config, 21, 0, 40))


@njit(E.POLICY_SIG)
def _through_memo(ip, fp, s, view, mask, params, rng):
    return H.plan(ip, fp, s, view, mask, params, rng)


@njit(E.POLICY_SIG)
def _no_memo(ip, fp, s, view, mask, params, rng):
    return H.plan(ip, fp, s, view[:1], mask, params, rng)
