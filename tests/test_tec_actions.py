"""Tiny Epic Cthulhu, one test per rule clause of tests/clauses/tec.md: the player actions
(TEC-A, MV, CO, BA, TA, TR, SE), and one test for each Town action, character ability and
Great Old One power of rules.toml.

Each test builds a small table by hand (tests/tec_support.py) and runs the action through
``apply_action`` (as the turn loop does once the action is legal and paid for) or a whole turn
through ``play_turn``, with a scripted strategy answering every decision.
"""
# ruff: noqa: N802  (test names carry the clause IDs, e.g. test_TEC_BA_6_...)

import pytest
from tec_support import (
    F_FLIP,
    F_LEGAL_ACTIONS,
    F_MOVE_DIRECTION,
    F_PLACE_TOKEN,
    F_PLAY_TURN,
    F_REACHABLE,
    F_RESOLVE_PENDING,
    LAST,
    params,
    script,
    table,
)

from simcore.kernels import new_rng, rng_int
from simcore.tec import state as S

B, R, G = 0, 1, 2  # blue/Fear, red/Rage, green/Greed
STOP = 3  # the "stop" answer of colour decisions
NO_FLIP = S.N_TOWNS
# seat 0: the medium (its ability acts only when used), seat 1: the drifter
NEUTRAL = {"characters": ["medium", "drifter", "collector", "professor"]}


def moves(legal):
    return {a - S.A_MOVE for a in legal if S.A_MOVE <= a < S.A_MOVE + S.N_TOWNS}


def reachable(tb, c=0):
    tb.call(F_REACHABLE, c)
    return moves(tb.legal_set())


def all_face_up(tb):
    for t in range(5):
        if tb[f"town{t}.page_state"] == 0:
            tb.call(F_FLIP, t)
    return tb


def calm_spin(tb, town):
    """The next spin only moves a Chaos to the Discard mat and spawns a blue Shambler at
    ``town`` (where the Great Old One then goes); nothing is drawn."""
    return tb.set_bag(fear=9).wheel(S.IC_CHAOS, town=town, colour=B, sh_town=town).set_draws(0)


def actions_asked(tb):
    return [a for a in tb.asked() if a.kind == S.D_ACTION]


# ---- actions (A) -----------------------------------------------------------------------------
def test_TEC_A_1_three_actions_then_one_per_chaos_spent():
    """TEC-A-1: up to three actions a turn, repeats allowed; each Chaos spent from the Chaos
    Track buys one more.  With no action and no Chaos left the turn ends: ending it is the
    only legal choice, so the strategy is not asked."""
    for chaos in (0, 1, 2):
        tb = all_face_up(table(NEUTRAL, goo=0, chars=(2, 4)))
        calm_spin(tb, 0)
        tb.move("supply.chaos", "char0.chaos", chaos)
        sup = tb["supply.chaos"]
        tb.sp = script([S.A_MOVE + 3, S.A_MOVE + 2] * 3, then=LAST)
        tb.call(F_PLAY_TURN)
        acts = actions_asked(tb)
        assert len(tb.events(S.EV_MOVE)) == 3 + chaos
        assert [a.ctx for a in acts] == [3, 2, 1] + [0] * chaos
        assert all(S.A_MOVE + 3 in a.legal or S.A_MOVE + 2 in a.legal for a in acts)
        assert tb.legal_actions() == {S.A_END}  # nothing left to pay with: the turn ended
        assert tb["char0.chaos"] == 0 and tb["cnt_chaos_actions"] == chaos
        assert tb["supply.chaos"] == sup - 1 + chaos  # the spin's Chaos went to the Discard
        assert tb["cnt_actions"] == 3 + chaos
        assert tb.errors() == 0


def test_TEC_A_2_ability_costs_no_action():
    """TEC-A-2: a character's ability is used on its owner's turn without spending an
    action (the medium's: move a Madness from its mat to the Discard mat), once a turn."""
    tb = all_face_up(table(NEUTRAL, goo=0, chars=(2, 4)))
    calm_spin(tb, 0)
    tb.move("bag.fear", "char0.temp.fear", 2)
    tb.sp = script([S.A_ABILITY, B, S.A_MOVE + 3, S.A_MOVE + 2, S.A_MOVE + 3], then=LAST)
    disc = tb["disc.mad.fear"]
    tb.call(F_PLAY_TURN)
    acts = actions_asked(tb)
    assert [a.ctx for a in acts] == [3, 3, 2, 1]  # then only ending is legal: not asked
    assert S.A_ABILITY in acts[0].legal and S.A_ABILITY not in acts[1].legal
    assert tb["char0.temp.fear"] == 1 and tb["disc.mad.fear"] == disc + 1
    assert len(tb.events(S.EV_MOVE)) == 3 and tb["cnt_actions"] == 3
    # with no action and no Chaos left, the ability is still there
    tb = table(NEUTRAL)
    tb.move("bag.rage", "char0.temp.rage")
    tb["actions_left"] = 0
    assert tb.legal_actions() == {S.A_ABILITY, S.A_END}
    tb["ability_used"] = 1
    assert tb.legal_actions() == {S.A_END}


# ---- move (MV) -------------------------------------------------------------------------------
def test_TEC_MV_1_move_either_way_by_fear():
    """TEC-MV-1: move either way round the town: 1, 2 or 3 Town cards for 0, 1 or 2 Fear
    tentacles on the Fear Track ('up to'; exactly with move_distance = "exact")."""
    for exact, want in ((False, ({1, 4}, {1, 2, 3, 4}, {1, 2, 3, 4})),
                        (True, ({1, 4}, {2, 3}, {2, 3}))):
        tb = table({**NEUTRAL, "move_distance": "exact" if exact else "up_to"}, chars=(0, 0),
                   phase=2)
        for fear in (0, 1, 2):
            tb["char0.temp.fear"] = fear
            assert reachable(tb) == want[fear], (exact, fear)
    tb = table(NEUTRAL, chars=(0, 0), phase=2)
    tb["char0.temp.fear"] = 1
    assert [tb.call(F_MOVE_DIRECTION, 0, d) for d in range(5)] == [0, 1, 1, -1, -1]
    tb = table(NEUTRAL, goo=2, chars=(0, 0), phase=2)
    tb.sp = script(then=LAST)
    tb.act(S.A_MOVE + 4)
    assert tb["char0.town"] == 4
    assert tuple(tb.events(S.EV_MOVE)[0, 1:4]) == (0, 0, 4)


def test_TEC_MV_1_either_direction_is_the_players_choice():
    """TEC-MV-1 "in either direction": when the destination can be reached both ways round,
    the players choose (the way decides which face-down Page cards are passed, TEC-MV-4);
    when only one way is legal they are not asked."""
    tb = table(NEUTRAL, goo=1, chars=(0, 0), phase=2)
    tb["char0.temp.fear"] = 2  # three cards: town 2 is two clockwise or three the other way
    tb.sp = script([1, NO_FLIP])
    tb.act(S.A_MOVE + 2)
    way, flip = tb.asked()[:2]
    assert way.kind == S.D_DIRECTION and way.ctx == 2 and way.legal == {0, 1}
    assert flip.kind == S.D_FLIP and flip.legal == {4, 3, 2, NO_FLIP}  # passed 4 and 3
    assert tb["char0.town"] == 2 and tuple(tb.events(S.EV_MOVE)[0, 1:6]) == (0, 0, 2, 0, -1)
    tb = table(NEUTRAL, goo=1, chars=(0, 0), phase=2)
    tb["char0.temp.fear"] = 2
    tb.sp = script([0, NO_FLIP])
    tb.act(S.A_MOVE + 2)
    assert tb.asked()[1].legal == {1, 2, NO_FLIP}  # clockwise: passed 1
    tb = table(NEUTRAL, goo=1, chars=(0, 0), phase=2)
    tb["char0.temp.fear"] = 1  # two cards: only clockwise
    tb.sp = script([NO_FLIP])
    tb.act(S.A_MOVE + 2)
    assert [a.kind for a in tb.asked()] == [S.D_FLIP]


def test_TEC_MV_2_phase_one_no_move_through_or_onto_the_great_old_one():
    """TEC-MV-2: in phase one a move may not pass through or stop on the Great Old One's Town
    card: the way round it is taken instead."""
    tb = table(NEUTRAL, goo=1, chars=(0, 0))
    tb["char0.temp.fear"] = 2  # three cards
    assert reachable(tb) == {2, 3, 4}
    assert tb.call(F_MOVE_DIRECTION, 0, 2) == -1  # counter-clockwise, round the GOO
    assert tb.call(F_MOVE_DIRECTION, 0, 1) == 0
    tb["char0.temp.fear"] = 1  # two cards: position 2 is only reachable through it
    assert reachable(tb) == {3, 4}
    assert tb.call(F_MOVE_DIRECTION, 0, 2) == 0
    assert S.A_MOVE + 1 not in tb.legal_actions()
    tb["goo_town"] = 4
    assert reachable(tb) == {1, 2}


def test_TEC_MV_3_starting_on_the_great_old_one_must_move_away():
    """TEC-MV-3: a player who starts the turn on the Great Old One's Town card (and finds it
    still there after the spin) must first use an action to move away (default reading:
    checked at turn start; 'after_spin' also forces a player the spin caught)."""
    tb = all_face_up(table(NEUTRAL, goo=2, chars=(2, 4)))
    calm_spin(tb, 2)  # the Great Old One stays on position 2
    tb.move("disc.mad.fear", "town2.mad.fear")  # collecting would be legal otherwise
    tb.sp = script([S.A_COLLECT], then=LAST)
    tb.call(F_PLAY_TURN)
    acts = actions_asked(tb)
    assert acts[0].legal == {S.A_MOVE + 1, S.A_MOVE + 3}
    assert tb["char0.town"] == 1  # the collect answer was illegal: the first move was made
    assert S.A_END in acts[1].legal and S.A_COLLECT not in acts[1].legal
    for reading, forced in (("turn_start", False), ("after_spin", True)):
        tb = all_face_up(table({**NEUTRAL, "must_move_check": reading}, goo=0, chars=(2, 4)))
        calm_spin(tb, 2)  # the Great Old One arrives during the spin
        tb.sp = script(then=LAST)
        tb.call(F_PLAY_TURN)
        first = actions_asked(tb)[0]
        assert (S.A_END not in first.legal) == forced, reading
    tb = all_face_up(table(NEUTRAL, goo=2, chars=(2, 4), phase=2))  # never in phase two
    calm_spin(tb, 2)
    tb.sp = script(then=LAST)
    tb.call(F_PLAY_TURN)
    assert S.A_END in actions_asked(tb)[0].legal


def test_TEC_MV_3_not_forced_when_the_great_old_one_leaves_during_the_spin():
    """TEC-MV-3: a player who starts on the Great Old One's card, which the spin then moves
    away, is not forced to move (under both readings of when the check happens)."""
    for reading in ("turn_start", "after_spin"):
        tb = all_face_up(table({**NEUTRAL, "must_move_check": reading}, goo=2, chars=(2, 4)))
        calm_spin(tb, 0)  # the Great Old One leaves position 2 for position 0 in the spin
        tb.move("disc.mad.fear", "town2.mad.fear")
        tb.sp = script([S.A_COLLECT, B], then=LAST)
        tb.call(F_PLAY_TURN)
        assert tb["goo_town"] == 0, reading  # it did leave the player's card
        first = actions_asked(tb)[0]
        assert S.A_END in first.legal and S.A_COLLECT in first.legal, reading
        assert tb["char0.town"] == 2 and tb["char0.temp.fear"] == 1, reading  # stayed, collected
        assert len(tb.events(S.EV_MOVE)) == 0 and tb.errors() == 0, reading


def test_TEC_MV_3_the_forced_move_is_the_first_action():
    """TEC-MV-3 (NOTES reading): the forced move away is the turn's first action: nothing else
    that would be legal there (collect, banish, the town action, ending) comes before it."""
    tb = all_face_up(table(NEUTRAL, goo=2, chars=(2, 4)))
    tb.set_town_side(2, "docks")  # recruit: usable with Chaos in the supply
    calm_spin(tb, 2)  # the Great Old One stays on position 2 and a blue Shambler arrives there
    tb.move("disc.mad.fear", "town2.mad.fear")
    tb.sp = script([S.A_COLLECT], then=LAST)  # collect here first, then leave: refused
    tb.call(F_PLAY_TURN)
    acts = actions_asked(tb)
    assert tb["town2.sh.blue"] == 1  # banishing would be legal there too
    assert acts[0].legal == {S.A_MOVE + 1, S.A_MOVE + 3}  # only the moves away
    assert tb["char0.town"] == 1 and tb["char0.temp.fear"] == 0  # collect refused: moved first
    assert tb["town2.mad.fear"] == 1
    assert S.A_END in acts[1].legal  # the obligation is met: the turn is free again
    tb = all_face_up(table(NEUTRAL, goo=2, chars=(2, 4)))  # the same table, not forced
    tb.set_town_side(2, "docks")
    tb.move("disc.mad.fear", "town2.mad.fear").move("smat.sh.blue", "town2.sh.blue")
    assert {S.A_COLLECT, S.A_BANISH, S.A_TOWN, S.A_END} <= tb.legal_actions()


def test_TEC_MV_4_flip_one_page_passed_or_stopped_beside():
    """TEC-MV-4: after moving, the player may flip one face-down Page card it moved past or
    stopped beside (not the one it left, nor others)."""
    tb = table(NEUTRAL, goo=4, chars=(0, 0))
    tb.move("bag.fear", "char0.temp.fear")
    card = int(tb.hid[S.H_DOWN + 1])
    tb.sp = script([1])
    tb.act(S.A_MOVE + 2)
    flip = tb.asked()[0]
    assert flip.kind == S.D_FLIP and flip.legal == {1, 2, NO_FLIP}
    assert tb["town1.page_state"] == 1 and tb["town1.page"] == card
    assert tb["town1.pcost.0"] == tb.ip[S.I_PAGE_COST + card * 3]
    assert tb["town2.page_state"] == 0 and tb["cnt_flips"] == 1
    assert tb.errors() == 0
    tb = table(NEUTRAL, goo=4, chars=(0, 0))  # declining
    tb.sp = script([NO_FLIP])
    tb.act(S.A_MOVE + 1)
    assert tb["town1.page_state"] == 0
    tb = all_face_up(table(NEUTRAL, goo=4, chars=(0, 0)))  # nothing to flip: not asked
    tb.act(S.A_MOVE + 1)
    assert tb.asked() == []


def test_TEC_MV_5_stopping_among_shamblers_draws_per_shambler():
    """TEC-MV-5: stopping on a Town card with Shamblers draws one tentacle per Shambler:
    Madness and Chaos onto the player's mat, Eldritch onto the Energy Track, and an
    overflowing Temperament Track is accursed."""
    def stop(bag, fear=0, shamblers=2):
        tb = all_face_up(table(NEUTRAL, goo=0, chars=(2, 4)))
        tb.set_bag(**bag)
        tb.move("smat.sh.red", "town3.sh.red", shamblers)
        tb["char0.temp.fear"] = fear
        tb["bag.fear"] -= fear
        tb.act(S.A_MOVE + 3)
        assert tb.errors() == 0
        return tb

    tb = stop({"fear": 5})
    assert tb["char0.temp.fear"] == 2 and tb["bag.fear"] == 3
    assert len(tb.events(S.EV_STOP_DRAW)) == 2
    tb = stop({"chaos": 1, "eldritch": 1})
    assert tb["char0.chaos"] == 1 and tb["energy"] == 1
    tb = stop({"fear": 5}, fear=1)
    assert tb["char0.temp.fear"] == 0 and tb["char0.brain"] == 0  # 1 + 2: accursed once
    assert tb.events(S.EV_ACCURSED)[0, 1] == S.ACC_TEMPERAMENT
    tb = stop({"fear": 5}, shamblers=0)
    assert tb["char0.temp.fear"] == 0 and len(tb.events(S.EV_STOP_DRAW)) == 0


# ---- collect (CO) ----------------------------------------------------------------------------
def test_TEC_CO_1_collect_one_two_or_three_by_greed():
    """TEC-CO-1: collect 1, 2 or 3 Madness of any colour from the current Town card, for 0, 1
    or 2 Greed tentacles on the Greed Track."""
    for greed, n in ((0, 1), (1, 2), (2, 3)):
        tb = table(NEUTRAL, chars=(2, 4))
        tb.move("disc.mad.fear", "town2.mad.fear", 3).move("disc.mad.rage", "town2.mad.rage", 3)
        tb.move("bag.greed", "char0.temp.greed", greed)
        tb.act(S.A_COLLECT)
        got = tb["char0.temp.fear"] + tb["char0.temp.rage"]
        assert got == n and tb["town2.mad.fear"] + tb["town2.mad.rage"] == 6 - n
        asked = tb.asked()
        assert [a.kind for a in asked] == [S.D_COLLECT] * n
        assert [a.ctx for a in asked] == list(range(n, 0, -1))
        assert tb.errors() == 0
    tb = table(NEUTRAL, chars=(2, 4))  # stopping early
    tb.move("disc.mad.fear", "town2.mad.fear", 3)
    tb.move("bag.greed", "char0.temp.greed", 2)
    tb.sp = script([B, STOP])
    tb.act(S.A_COLLECT)
    assert tb["char0.temp.fear"] == 1 and tb["town2.mad.fear"] == 2


def test_TEC_CO_1_greed_is_counted_when_the_collect_starts():
    """TEC-CO-1 (NOTES: the Greed count is taken when the Collect starts): Greed collected
    during the Collect does not raise how many Madness it takes."""
    for greed, n in ((0, 1), (1, 2)):
        tb = table(NEUTRAL, chars=(2, 4))
        tb.move("disc.mad.greed", "town2.mad.greed", 2).move("disc.mad.fear", "town2.mad.fear", 2)
        tb.move("bag.greed", "char0.temp.greed", greed)
        tb.sp = script([G, B, B])  # Greed first: counted afterwards it would allow one more
        tb.act(S.A_COLLECT)
        assert tb["char0.temp.greed"] == greed + 1
        assert tb["char0.temp.fear"] == n - 1, greed
        assert [a.ctx for a in tb.asked()] == list(range(n, 0, -1)), greed
        assert tb["town2.mad.greed"] == 1 and tb["town2.mad.fear"] == 2 - (n - 1)
        assert tb.errors() == 0


def test_TEC_CO_2_collect_never_fills_a_track_beyond_two():
    """TEC-CO-2: at most two Madness on each Temperament Track: collecting never offers a
    colour whose track is full, and never makes a track accursed."""
    tb = table(NEUTRAL, chars=(2, 4))
    tb.move("disc.mad.fear", "town2.mad.fear", 3).move("disc.mad.rage", "town2.mad.rage", 1)
    tb.move("bag.greed", "char0.temp.greed", 2).move("bag.fear", "char0.temp.fear", 1)
    tb.sp = script([B, B, B])
    tb.act(S.A_COLLECT)
    legal = [a.legal for a in tb.asked()]
    assert legal == [{B, R, STOP}, {R, STOP}]  # Fear full after one; Rage once; then none
    assert tb.get("char0.temp.fear", "char0.temp.rage", "char0.temp.greed") == (2, 1, 2)
    assert tb["char0.brain"] == -1 and len(tb.events(S.EV_ACCURSED)) == 0
    assert S.A_COLLECT not in tb.legal_actions()  # only Fear left, and that track is full
    assert tb["town2.mad.fear"] == 2


# ---- banish (BA) -----------------------------------------------------------------------------
def banish_table(faces, shamblers, temp=(0, 0, 0), chaos=0, overrides=NEUTRAL, sp=None):
    tb = table({**overrides, "dice.faces": faces}, chars=(2, 4))
    for colour, n in shamblers.items():
        tb.move(f"smat.sh.{colour}", f"town2.sh.{colour}", n)
    for k in range(3):
        tb.move(f"bag.{k}", f"char0.temp.{k}", temp[k])
    tb.move("supply.chaos", "char0.chaos", chaos)
    tb.sp = sp if sp is not None else script()
    return tb


def test_TEC_BA_1_banish_only_among_shamblers_one_die_each():
    """TEC-BA-1: Banish is legal only on a Town card with Shamblers; it rolls one Cthulhu die
    per Shambler there."""
    tb = banish_table([0], {})
    assert S.A_BANISH not in tb.legal_actions()
    for n in (1, 2, 3):
        tb = banish_table([0], {R: n})
        assert S.A_BANISH in tb.legal_actions()
        tb.act(S.A_BANISH)
        roll = tb.events(S.EV_ROLL)
        assert len(roll) == 1 and roll[0, 2] == n


def test_TEC_BA_2_cost_is_the_highest_single_die():
    """TEC-BA-2: the highest single die is the number of Madness of the Shambler's colour to
    spend; dice are not added."""
    for faces, cost in (([1], 1), ([2], 2), ([0], 0)):
        tb = banish_table(faces, {R: 2, B: 1}, temp=(0, 2, 0), sp=script([R]))
        tb.act(S.A_BANISH)
        assert tb.asked()[0].kind == S.D_BANISH and tb.asked()[0].ctx == cost
        assert tb["char0.temp.rage"] == 2 - cost
        assert tb["town2.sh.red"] == 1
    tb = banish_table([2], {R: 1}, temp=(0, 1, 0))  # a 2 with one Rage: cannot
    tb.act(S.A_BANISH)
    assert tb["town2.sh.red"] == 1 and tb.asked() == []


def seed_for_dice(want, n_faces=3):
    """A stream seed whose first ``len(want)`` rolls of an ``n_faces``-face die are ``want``
    (face indices: with faces ``[0, 1, 2]`` the rolled numbers themselves)."""
    for seed in range(10_000):
        rng = new_rng(seed, 0)
        if tuple(int(rng_int(rng, n_faces)) for _ in want) == tuple(want):
            return seed
    raise AssertionError(f"no seed rolls {want}")


def test_TEC_BA_2_cost_is_the_highest_single_die_of_mixed_dice():
    """TEC-BA-2: with dice showing different faces the cost is the highest single die: not
    the first, the last, the lowest, nor the sum."""
    for dice in ((1, 2, 0), (2, 0, 1), (0, 2, 1), (0, 1), (1, 0)):
        n, cost = len(dice), max(dice)
        tb = banish_table([0, 1, 2], {R: n}, temp=(0, 2, 0), sp=script([R]))
        tb.rng = new_rng(seed_for_dice(dice), 0)
        tb.act(S.A_BANISH)
        roll = tb.events(S.EV_ROLL)
        assert len(roll) == 1 and roll[0, 2] == n
        assert tuple(roll[0, 3:3 + n]) == dice and len(set(dice)) > 1  # mixed faces rolled
        assert tb.asked()[0].kind == S.D_BANISH and tb.asked()[0].ctx == cost, dice
        assert tb["char0.temp.rage"] == 2 - cost and tb["town2.sh.red"] == n - 1, dice
        assert tb.events(S.EV_BANISH)[-1, 3] == cost and tb.errors() == 0


def test_TEC_BA_3_chaos_is_wild_when_banishing():
    """TEC-BA-3: Chaos tentacles are wild: two Chaos, or a Rage and a Chaos, pay a 2 for a
    red Shambler."""
    for temp, chaos in (((0, 0, 0), 2), ((0, 1, 0), 1)):
        tb = banish_table([2], {R: 2}, temp=temp, chaos=chaos, sp=script([R]))
        tb.act(S.A_BANISH)
        assert tb.asked()[0].legal == {R, STOP}
        assert tb["char0.chaos"] == 0 and tb["char0.temp.rage"] == 0
        assert tb["town2.sh.red"] == 1
        assert tb.errors() == 0


def test_TEC_BA_3_the_player_chooses_how_many_chaos_to_spend():
    """TEC-BA-3 "A player may spend Chaos Tentacles as a wild color": with both the Madness
    and the Chaos to pay, how many Chaos to spend is the player's choice (D_PAY: 0 .. what
    the Chaos can cover); with only one way to pay nothing is asked."""
    tb = banish_table([2], {R: 2}, temp=(0, 2, 0), chaos=2, sp=script([R, 2]))
    before = tb.snapshot()
    tb.act(S.A_BANISH)
    pay = tb.asked()[1]
    assert (pay.kind, pay.ctx, pay.legal) == (S.D_PAY, R, {0, 1, 2})
    changed = tb.changed(before)
    assert changed["char0.chaos"] == -2 and changed["supply.chaos"] == 2
    assert "char0.temp.1" not in changed  # the Rage is kept
    assert list(tb.events(S.EV_PAY)[0, 1:6]) == [0, R, 0, 2, S.PAY_BANISH]
    # one Chaos, one Rage
    tb = banish_table([2], {R: 2}, temp=(0, 2, 0), chaos=2, sp=script([R, 1]))
    tb.act(S.A_BANISH)
    assert tb["char0.chaos"] == 1 and tb["char0.temp.rage"] == 1 and tb.errors() == 0
    # a Rage short: the Chaos must cover it, so nothing is asked
    tb = banish_table([2], {R: 2}, temp=(0, 1, 0), chaos=1, sp=script([R]))
    tb.act(S.A_BANISH)
    assert [a.kind for a in tb.asked()] == [S.D_BANISH]


def test_TEC_BA_4_cannot_banish_without_the_tentacles():
    """TEC-BA-4: without the tentacles to pay (of the colour, or Chaos) no Shambler is
    banished; a colour that cannot be paid is not offered."""
    tb = banish_table([2], {R: 1, G: 1}, temp=(2, 1, 2), chaos=0)
    before = tb.snapshot()
    tb.act(S.A_BANISH)
    assert tb.asked()[0].legal == {G, STOP}  # Greed pays the green one, Rage is short
    tb = banish_table([2], {R: 2}, temp=(2, 1, 2), chaos=0)
    before = tb.snapshot()
    tb.act(S.A_BANISH)
    assert tb.asked() == [] and tb.changed(before) == {}
    assert tb.events(S.EV_BANISH)[0, 4] == -1
    tb = banish_table([1], {R: 1}, temp=(0, 1, 0), sp=script([STOP]))  # giving up
    tb.act(S.A_BANISH)
    assert tb["town2.sh.red"] == 1 and tb["char0.temp.rage"] == 1


def test_TEC_BA_5_banished_shambler_returns_to_the_mat():
    """TEC-BA-5: the banished Shambler returns to the Shambler mat (its colour)."""
    tb = banish_table([0], {R: 1, G: 2}, sp=script([G]))
    smat = tb["smat.sh.green"]
    tb.act(S.A_BANISH)
    assert tb["town2.sh.green"] == 1 and tb["smat.sh.green"] == smat + 1
    assert tb["town2.sh.red"] == 1 and tb["cnt_banished"] == 1
    assert tb.errors() == 0


def test_TEC_BA_6_cleanup_by_rage_when_the_banishment_started():
    """TEC-BA-6: then 1, 2 or 3 Madness of the Shambler's colour move from the Shambler mat
    to the Discard mat, for 0, 1 or 2 Rage on the Rage Track when the banishment started
    (the rulebook's example: one Rage, spent on a red Shambler, still moves two)."""
    tb = banish_table([1], {R: 1, B: 1}, temp=(0, 1, 0), sp=script([R]))  # Jordan
    before = tb.snapshot()
    tb.act(S.A_BANISH)
    assert tb.changed(before) == {"char0.temp.1": -1, "disc.mad.1": 3, "smat.mad.1": -2,
                                  "town2.sh.1": -1, "smat.sh.1": 1}
    for rage, moved in ((0, 1), (2, 3)):
        tb = banish_table([0], {G: 1}, temp=(0, rage, 0), sp=script([G]))
        tb.act(S.A_BANISH)
        assert tb["smat.mad.green"] == 3 - moved and tb["disc.mad.green"] == 3 + moved
    tb = banish_table([0], {G: 1}, temp=(0, 2, 0), sp=script([G]))
    tb.move("smat.mad.green", "disc.mad.green", 2)  # only one left to move
    tb.act(S.A_BANISH)
    assert tb["smat.mad.green"] == 0 and tb.errors() == 0


def test_TEC_BA_7_spent_madness_to_discard_spent_chaos_to_supply():
    """TEC-BA-7: spent Madness go to the Discard mat, spent Chaos to the general supply."""
    tb = banish_table([2], {B: 1}, temp=(1, 0, 0), chaos=2, sp=script([B]))
    before = tb.snapshot()
    tb.act(S.A_BANISH)
    changed = tb.changed(before)
    assert changed["char0.temp.0"] == -1 and changed["char0.chaos"] == -1
    assert changed["supply.chaos"] == 1
    assert changed["disc.mad.0"] == 1 + 1  # the one spent and the one cleaned up
    assert tb.errors() == 0


# ---- Town actions (TA) -------------------------------------------------------------------
def town_table(name, overrides=NEUTRAL, **kw):
    tb = table(overrides, **{"goo": 0, "chars": (2, 4), **kw})
    tb.set_town_side(2, name)
    return tb


def test_TEC_TA_1_town_action_of_the_current_card():
    """TEC-TA-1: a player may take the action printed on its current Town card (legal only
    where it can do something); here 'recruit' (docks: take a Chaos from the supply)."""
    tb = town_table("docks")
    assert S.A_TOWN in tb.legal_actions()
    sup = tb["supply.chaos"]
    tb.act(S.A_TOWN)
    assert tb["char0.chaos"] == 1 and tb["supply.chaos"] == sup - 1
    tb.act(S.A_TOWN)
    assert tb["char0.chaos"] == 2
    assert S.A_TOWN not in tb.legal_actions()  # the Chaos Track is full
    tb = town_table("docks")
    tb["char0.town"] = 3  # another card's action does not apply
    tb.set_town_side(3, "hospital")  # pray: nothing to lower
    assert S.A_TOWN not in tb.legal_actions()
    assert tb.errors() == 0


def test_town_action_vent_moves_madness_from_the_mat_to_discard():
    """vent (asylum, 2): up to two Madness from the player's mat to the Discard mat."""
    tb = town_table("asylum")
    tb.move("bag.fear", "char0.temp.fear", 1).move("bag.rage", "char0.temp.rage", 2)
    tb.sp = script([B, R])
    before = tb.snapshot()
    tb.act(S.A_TOWN)
    assert tb.asked()[0].legal == {B, R, STOP}
    assert tb.changed(before) == {"char0.temp.0": -1, "char0.temp.1": -1, "disc.mad.0": 1,
                                  "disc.mad.1": 1}
    tb = town_table("asylum")
    assert S.A_TOWN not in tb.legal_actions()  # nothing on the mat


def test_town_action_recruit_takes_chaos_from_the_supply():
    """recruit (docks, 1): a Chaos from the general supply onto the Chaos Track."""
    tb = town_table("docks")
    tb.move("supply.chaos", "bag.chaos", tb["supply.chaos"])
    assert S.A_TOWN not in tb.legal_actions()  # an empty supply


def test_town_action_purge_moves_shambler_mat_madness_to_discard():
    """purge (cemetery, 2): two Madness from the Shambler mat to the Discard mat."""
    tb = town_table("cemetery")
    tb.sp = script([G, G])
    before = tb.snapshot()
    tb.act(S.A_TOWN)
    assert tb.changed(before) == {"smat.mad.2": -2, "disc.mad.2": 2}


def test_town_action_purge_may_stop_early():
    """purge moves *up to* its amount: the player may stop after the first tentacle."""
    tb = town_table("cemetery")
    tb.sp = script([G, 3])
    before = tb.snapshot()
    tb.act(S.A_TOWN)
    assert 3 in tb.asked()[1].legal
    assert tb.changed(before) == {"smat.mad.2": -1, "disc.mad.2": 1}


def test_town_action_travel_goes_anywhere_but_the_great_old_one():
    """travel (station): to any other Town card (not the Great Old One's in phase one); the
    Shamblers there draw as on a move."""
    tb = town_table("station").set_bag(fear=4)
    tb.move("smat.sh.red", "town4.sh.red")
    tb.sp = script([4])
    tb.act(S.A_TOWN)
    assert tb.asked()[0].kind == S.D_TRAVEL and tb.asked()[0].legal == {1, 3, 4}
    assert tb["char0.town"] == 4 and tb["char0.temp.fear"] == 1
    tb = town_table("station", phase=2)
    tb.act(S.A_TOWN)
    assert tb.asked()[0].legal == {0, 1, 3, 4}


def test_town_action_study_flips_face_down_pages():
    """study (library, 2): flip up to two face-down Page cards anywhere."""
    tb = town_table("library")
    tb.sp = script([0, 4])
    tb.act(S.A_TOWN)
    assert tb.asked()[0].legal == {0, 1, 2, 3, 4, NO_FLIP}
    assert [tb[f"town{t}.page_state"] for t in range(5)] == [1, 0, 0, 0, 1]
    assert tb["cnt_flips"] == 2


def test_town_action_ward_returns_energy_to_the_bag():
    """ward (museum, 1): one Eldritch from the Energy Track back into the bag."""
    tb = town_table("museum")
    assert S.A_TOWN not in tb.legal_actions()
    tb.move("supply.eldritch", "energy", 2)
    before = tb.snapshot()
    tb.act(S.A_TOWN)
    assert tb.changed(before) == {"energy": -1, "bag.4": 1}


def test_town_action_barricade_returns_shamblers_here():
    """barricade (church, 1): one Shambler from this Town card back to the Shambler mat."""
    tb = town_table("church")
    assert S.A_TOWN not in tb.legal_actions()
    tb.move("smat.sh.blue", "town2.sh.blue").move("smat.sh.red", "town2.sh.red")
    tb.sp = script([R])
    before = tb.snapshot()
    tb.act(S.A_TOWN)
    assert tb.asked()[0].legal == {B, R, STOP}
    assert tb.changed(before) == {"town2.sh.1": -1, "smat.sh.1": 1}


def test_town_action_gather_collects_from_any_town():
    """gather (lighthouse, 1): one Madness from any Town card (not past two on a track)."""
    tb = town_table("lighthouse")
    tb.move("disc.mad.greed", "town4.mad.greed", 2).move("disc.mad.fear", "town0.mad.fear")
    tb.move("bag.fear", "char0.temp.fear", 2)
    tb.sp = script([4 * 3 + G])
    tb.act(S.A_TOWN)
    assert tb.asked()[0].legal == {4 * 3 + G, 15}  # Fear is full
    assert tb["char0.temp.greed"] == 1 and tb["town4.mad.greed"] == 1


def test_town_action_pray_lowers_the_brain():
    """pray (hospital, 1): the Brain token one space lower, never below the bottom space."""
    tb = town_table("hospital")
    for brain, usable, after in ((-1, False, -1), (0, False, 0), (2, True, 1)):
        tb["char0.brain"] = brain
        assert (S.A_TOWN in tb.legal_actions()) == usable
        if usable:
            tb.act(S.A_TOWN)
            assert tb["char0.brain"] == after


def test_town_action_exchange_swaps_colours_with_the_shambler_mat():
    """exchange (market, 2): swap two Madness on the mat for other colours from the
    Shambler mat."""
    tb = town_table("market")
    tb.move("bag.fear", "char0.temp.fear", 2)
    tb.sp = script([B * 3 + R, B * 3 + G])
    before = tb.snapshot()
    tb.act(S.A_TOWN)
    assert tb.asked()[0].legal == {B * 3 + R, B * 3 + G, 9}
    assert tb.changed(before) == {"char0.temp.0": -2, "char0.temp.1": 1, "char0.temp.2": 1,
                                  "smat.mad.0": 2, "smat.mad.1": -1, "smat.mad.2": -1}
    assert tb.errors() == 0


# ---- translate (TR) ---------------------------------------------------------------------------
CARD20 = 20  # costs 1 Fear and 2 Greed; pages 3, 5, 5; runes blue and red


def translate_table(card=CARD20, temp=(1, 0, 1), chaos=1, overrides=NEUTRAL, **kw):
    tb = table(overrides, **{"chars": (2, 4), **kw})
    tb.reveal(2, card)
    for k in range(3):
        tb.move(f"bag.{k}", f"char0.temp.{k}", temp[k])
    tb.move("supply.chaos", "char0.chaos", chaos)
    return tb


def test_TEC_TR_1_translate_pays_the_page_cost_chaos_wild():
    """TEC-TR-1: translating the face-up Page card here pays the Madness shown (Chaos wild;
    Madness to the Discard mat, Chaos to the supply); a face-down card must be flipped first
    (unless translate_face_down)."""
    tb = translate_table()
    assert tb.get("town2.pcost.0", "town2.pcost.1", "town2.pcost.2") == (1, 0, 2)
    assert S.A_TRANSLATE in tb.legal_actions()
    before = tb.snapshot()
    tb.act(S.A_TRANSLATE)
    changed = tb.changed(before)
    assert changed["char0.temp.0"] == -1 and changed["char0.temp.2"] == -1
    assert changed["char0.chaos"] == -1 and changed["supply.chaos"] == 1
    assert changed["disc.mad.0"] == 1 and changed["disc.mad.2"] == 1
    assert tb.errors() == 0
    tb = translate_table(chaos=0)  # one Greed short
    assert S.A_TRANSLATE not in tb.legal_actions()
    tb = table(NEUTRAL, chars=(2, 4))  # face down
    tb.move("supply.chaos", "char0.chaos", 2)
    assert S.A_TRANSLATE not in tb.legal_actions()
    tb = table({**NEUTRAL, "translate_face_down": True}, chars=(2, 4))
    tb.move("supply.chaos", "char0.chaos", 2)
    assert S.A_TRANSLATE in tb.legal_actions()
    tb.act(S.A_TRANSLATE)
    assert tb["cnt_flips"] == 1 and tb.errors() == 0


def test_TEC_TR_1_the_player_chooses_the_chaos_to_spend_keeping_what_later_colours_need():
    """TEC-TR-1 "You may spend Chaos Tentacles as wild tentacles": a Chaos may replace a
    Madness the player holds (D_PAY, colour by colour), but never one a later colour of the
    same cost needs.  The card costs 1 Fear and 2 Greed; the player holds 1 Fear, 1 Greed."""
    tb = translate_table(chaos=1)  # the one Chaos is needed for the second Greed
    tb.act(S.A_TRANSLATE)
    assert not [a for a in tb.asked() if a.kind == S.D_PAY]
    assert tb["char0.chaos"] == 0 and tb["char0.temp.fear"] == 0
    tb = translate_table(chaos=2)
    tb.sp = script([1])  # Fear paid with a Chaos
    before = tb.snapshot()
    tb.act(S.A_TRANSLATE)
    pays = [a for a in tb.asked() if a.kind == S.D_PAY]
    assert [(a.ctx, a.legal) for a in pays] == [(0, {0, 1})]  # Greed: no choice left
    changed = tb.changed(before)
    assert "char0.temp.0" not in changed  # the Fear is kept
    assert changed["char0.temp.2"] == -1 and changed["char0.chaos"] == -2
    assert changed["supply.chaos"] == 2 and changed["disc.mad.2"] == 1
    assert [list(e[1:6]) for e in tb.events(S.EV_PAY)] == [
        [0, 0, 0, 1, S.PAY_TRANSLATE], [0, 2, 1, 1, S.PAY_TRANSLATE]]
    assert tb.errors() == 0


def test_TEC_TR_2_page_tokens_on_the_leftmost_free_spaces():
    """TEC-TR-2: the card's Page tokens go on the Necronomicon, left-most free space of the
    row of each number; a number whose row is full places nothing."""
    tb = translate_table()
    before = tb.snapshot()
    tb.act(S.A_TRANSLATE)
    changed = tb.changed(before)
    assert changed["necro.row.2"] == 1 and changed["necro.row.4"] == 2
    assert changed["page_pile"] == -3 and changed["pages_placed"] == 3
    tb = translate_table()
    for _ in range(4):
        assert tb.call(F_PLACE_TOKEN, 5) == 1
    tb.act(S.A_TRANSLATE)  # 3, 5, 5: the second 5 finds row five full
    assert tb["necro.row.4"] == 5 and tb["necro.row.2"] == 1
    assert tb["pages_placed"] == 4 + 2 and tb["page_pile"] == 25 - 6
    assert tb.errors() == 0


def test_TEC_TR_3_completed_row_or_column_releases_its_chaos():
    """TEC-TR-3: completing a row or a column of the Necronomicon moves its Chaos tentacle to
    the Discard mat."""
    tb = table()
    for _ in range(4):
        tb.call(F_PLACE_TOKEN, 1)
    assert tb["disc.chaos"] == 0 and tb["necro.row_chaos.0"] == 1
    tb.call(F_PLACE_TOKEN, 1)  # row 1 complete
    assert tb["disc.chaos"] == 1 and tb["necro.row_chaos.0"] == 0
    assert [tuple(e[1:3]) for e in tb.events(S.EV_LINE_DONE)] == [(0, 0)]
    for number in (2, 3, 4):
        tb.call(F_PLACE_TOKEN, number)
    assert tb["necro.col_chaos.0"] == 1
    tb.call(F_PLACE_TOKEN, 5)  # every row now has a first token: column 1 complete
    assert tb["necro.col_chaos.0"] == 0 and tb["disc.chaos"] == 2
    for number in (2, 3, 4, 5) * 4:  # rows 2-5 grow; columns complete one by one
        tb.call(F_PLACE_TOKEN, number)
    assert tb["pages_placed"] == 25
    assert sum(tb[f"necro.row_chaos.{r}"] + tb[f"necro.col_chaos.{r}"] for r in range(5)) == 0
    assert tb["disc.chaos"] == 10 and tb.errors() == 0


def test_TEC_TR_4_translated_card_gives_its_runes():
    """TEC-TR-4: the translated card goes beside the player's mat: its runes count."""
    tb = translate_table()
    tb.act(S.A_TRANSLATE)
    assert tb.get("char0.runes.0", "char0.runes.1", "char0.runes.2") == (1, 1, 0)
    assert tb["char0.pages"] == 1
    tb.move("bag.greed", "char0.temp.greed", 1)
    tb.reveal(2, 3)  # card 3: one Greed, page 5, a red rune
    tb.act(S.A_TRANSLATE)
    assert tb.get("char0.runes.0", "char0.runes.1", "char0.runes.2") == (1, 2, 0)
    assert tb["char0.pages"] == 2


def test_TEC_TR_5_a_new_face_down_card_replaces_it():
    """TEC-TR-5: a new face-down Page card from the deck replaces the translated one (none
    when the deck is empty)."""
    tb = translate_table()
    top = int(tb.hid[S.H_DECK_TOP])
    nxt = int(tb.hid[S.H_DECK + top])
    deck = tb["deck_left"]
    tb.act(S.A_TRANSLATE)
    assert tb["town2.page_state"] == 0 and tb["town2.page"] == -1
    assert tb.hid[S.H_DOWN + 2] == nxt and tb["deck_left"] == deck - 1
    assert tb.get("town2.pcost.0", "town2.pcost.1", "town2.pcost.2") == (0, 0, 0)
    tb = translate_table()
    top = int(tb.hid[S.H_DECK_TOP])
    for k in range(top, top + deck):  # the deck's cards counted as already translated
        tb["gone"] |= 1 << int(tb.hid[S.H_DECK + k])
    tb["deck_left"] = 0
    tb["char1.pages"] += deck
    tb.act(S.A_TRANSLATE)
    assert tb["town2.page_state"] == -1 and tb.errors() == 0


@pytest.mark.parametrize("energy", ["keep", "bag"])
def test_TEC_TR_6_last_page_flips_the_mat_into_phase_two(energy):
    """TEC-TR-6: translating the last page flips the Great Old One mat (its phase-two Strength
    Track with the token at the start, its powers), pours the whole Discard mat into the bag,
    and phase two begins.  The Eldritch on the Energy Track stay (phase_two_energy = "keep")
    or go into the bag too ("bag")."""
    tb = translate_table(card=3, temp=(0, 0, 1), chaos=0,  # one Greed, page 5
                         overrides={**NEUTRAL, "phase_two_energy": energy})
    for number in (1, 2, 3, 4) * 5 + (5, 5, 5, 5):
        tb.call(F_PLACE_TOKEN, number)
    assert tb["pages_placed"] == 24 and tb["phase"] == 1
    tb["strength"] = 3
    tb["turn"] = 17
    tb.move("supply.eldritch", "disc.eldritch").move("supply.eldritch", "energy")
    disc = [tb[f"disc.mad.{k}"] for k in range(3)]
    bag = tb.bag()
    chaos = tb["disc.chaos"]
    tb.act(S.A_TRANSLATE)
    ip = tb.ip
    assert tb["phase"] == 2 and tb["phase2_turn"] == 17
    assert tb["strength"] == 0 and tb["str_len"] == ip[S.I_STR_LEN + 1]
    n = int(ip[S.I_STR_LEN + 1])
    assert list(tb.st[S.S_STR_DRAW:S.S_STR_DRAW + n]) == list(
        ip[S.I_STR_DRAW + S.MAX_STRENGTH:S.I_STR_DRAW + S.MAX_STRENGTH + n])
    for k in range(3):
        assert tb.st[S.S_POWER + k] == ip[S.I_POWER + 3 + k]
        assert tb.st[S.S_POWER_N + k] == ip[S.I_POWER_N + 3 + k]
    assert tb["disc.chaos"] == 0 and tb["disc.eldritch"] == 0
    assert [tb[f"disc.mad.{k}"] for k in range(3)] == [0, 0, 0]
    assert tb["bag.fear"] == bag["fear"] + disc[0]
    assert tb["bag.greed"] == bag["greed"] + disc[2] + 1  # and the Greed just paid
    assert tb["bag.chaos"] == bag["chaos"] + chaos + 2  # row 5 and column 5 released theirs
    kept = 1 if energy == "keep" else 0
    assert tb["bag.eldritch"] == bag["eldritch"] + 1 + (1 - kept)
    assert tb["energy"] == kept
    assert len(tb.events(S.EV_PHASE2)) == 1 and tb.errors() == 0


# ---- seal (SE) --------------------------------------------------------------------------------
def seal_table(faces=(2,), temp=(0, 0, 0), chaos=0, runes=(0, 0, 0), phase=2, goo=2,
               overrides=NEUTRAL):
    tb = table({**overrides, "dice.faces": list(faces)}, goo=goo, chars=(2, 4), phase=phase)
    for k in range(3):
        tb.move(f"bag.{k}", f"char0.temp.{k}", temp[k])
        tb[f"char0.runes.{k}"] = runes[k]
    tb.move("supply.chaos", "char0.chaos", chaos)
    return tb


def seals(legal):
    return {a - S.A_SEAL for a in legal if S.A_SEAL <= a < S.A_SEAL + S.N_PORTALS}


def test_TEC_SE_1_seal_only_in_phase_two_on_the_great_old_one_holding_its_colour():
    """TEC-SE-1: sealing is legal only in phase two, on the Great Old One's Town card, with a
    Chaos or a Madness of the portal's colour (and runes of it to roll)."""
    assert seals(seal_table(temp=(1, 1, 1), runes=(1, 1, 1), phase=1).legal_actions()) == set()
    assert seals(seal_table(temp=(1, 1, 1), runes=(1, 1, 1), goo=3).legal_actions()) == set()
    assert seals(seal_table(temp=(1, 0, 0), runes=(1, 1, 1)).legal_actions()) == {0, 1}
    assert seals(seal_table(chaos=1, runes=(1, 1, 1)).legal_actions()) == set(range(6))
    assert seals(seal_table(temp=(1, 1, 0), runes=(0, 1, 1)).legal_actions()) == {2, 3}
    tb = seal_table(temp=(1, 0, 0), chaos=1, runes=(1, 1, 1))
    tb["actions_left"] = 0  # the Chaos pays for the action, so only Fear is held
    assert seals(tb.legal_actions()) == {0, 1}
    tb["portal0.sealed"] = 1
    tb["smat.mad.fear"] -= 1
    assert seals(tb.legal_actions()) == {1}


def test_TEC_SE_2_one_portal_per_action_one_die_per_rune_at_most_three():
    """TEC-SE-2: one portal per action; one die per rune of the portal's colour on the
    player's Page cards, at most three."""
    for runes, dice in ((1, 1), (2, 2), (3, 3), (5, 3)):
        tb = seal_table(faces=(0,), temp=(0, 1, 0), runes=(0, runes, 0))
        tb.act(S.A_SEAL + 2)
        roll = tb.events(S.EV_ROLL)
        assert len(roll) == 1 and roll[0, 2] == dice
        assert len(tb.events(S.EV_SEAL)) == 1 and tb["cnt_seal_tries"] == 1


def test_TEC_SE_2_only_runes_of_the_portals_colour_give_dice():
    """TEC-SE-2: only runes of the portal's colour give dice (at most three); the player's
    runes of other colours add none."""
    cases = (((3, 1, 0), 2, 1), ((3, 1, 0), 0, 3), ((1, 2, 3), 0, 1), ((2, 2, 1), 4, 1),
             ((0, 2, 3), 3, 2), ((1, 3, 1), 2, 3), ((3, 1, 2), 5, 2))
    for runes, q, dice in cases:
        tb = seal_table(faces=(0,), temp=(1, 1, 1), runes=runes)
        colour = tb[f"portal{q}.colour"]
        assert colour == q // 2 and dice == min(runes[colour], 3)
        tb.act(S.A_SEAL + q)
        roll = tb.events(S.EV_ROLL)
        assert len(roll) == 1 and roll[0, 2] == dice, (runes, q)
        assert len(tb.events(S.EV_SEAL)) == 1 and tb.errors() == 0


def test_TEC_SE_3_dice_sum_must_reach_the_portal_number():
    """TEC-SE-3: the dice are added; the seal works when the sum equals or beats the
    portal's number (Nyarlathotep's blue portals: 2 and 3)."""
    for q, ok in ((0, True), (1, False)):
        tb = seal_table(faces=(1,), temp=(2, 0, 0), runes=(2, 0, 0))
        assert tb[f"portal{q}.number"] == (2 if q == 0 else 3)
        tb.act(S.A_SEAL + q)
        seal = tb.events(S.EV_SEAL)[0]
        assert tuple(seal[3:6]) == (2, tb[f"portal{q}.number"], int(ok))
        assert tb[f"portal{q}.sealed"] == (1 if ok else 0)
        assert tb["char0.temp.fear"] == (1 if ok else 2)  # nothing spent on a failure


def test_TEC_SE_4_success_covers_the_portal_with_madness_or_chaos():
    """TEC-SE-4: a sealed portal is covered with a Madness of its colour from the player's
    mat, or a Chaos tentacle when there is none."""
    tb = seal_table(temp=(0, 1, 0), chaos=1, runes=(0, 2, 0))
    tb.act(S.A_SEAL + 3)
    assert tb["portal3.sealed"] == 1 and tb["char0.temp.rage"] == 0 and tb["char0.chaos"] == 1
    assert tb["sealed"] == 1 and tb.errors() == 0
    tb.act(S.A_SEAL + 2)
    assert tb["portal2.sealed"] == 2 and tb["char0.chaos"] == 0 and tb["sealed"] == 2
    assert tb.errors() == 0


def test_TEC_SE_4_the_player_chooses_madness_or_chaos_to_cover_the_portal():
    """TEC-SE-4 "You may use a Chaos Tentacle as a wild in place of a Madness Tentacle":
    holding both, the player chooses (D_PAY); the Chaos covers the portal and the Madness
    stays on the mat."""
    tb = seal_table(temp=(0, 1, 0), chaos=1, runes=(0, 2, 0))
    tb.sp = script(then=LAST)
    tb.act(S.A_SEAL + 3)
    pays = [a for a in tb.asked() if a.kind == S.D_PAY]
    assert [(a.ctx, a.legal, a.answer) for a in pays] == [(1, {0, 1}, 1)]
    assert tb["portal3.sealed"] == 2 and tb["char0.chaos"] == 0
    assert tb["char0.temp.rage"] == 1 and tb.errors() == 0
    assert list(tb.events(S.EV_PAY)[0, 1:6]) == [0, 1, 0, 1, S.PAY_SEAL]


def test_TEC_SE_5_phase_two_moves_through_the_great_old_one():
    """TEC-SE-5: in phase two players may move through and stop on the Great Old One's Town
    card."""
    tb = table(NEUTRAL, goo=1, chars=(0, 0), phase=2)
    tb["char0.temp.fear"] = 1
    assert reachable(tb) == {1, 2, 3, 4}
    assert tb.call(F_MOVE_DIRECTION, 0, 2) == 1  # straight through
    tb.sp = script(then=LAST)
    tb.act(S.A_MOVE + 1)
    assert tb["char0.town"] == 1 == tb["goo_town"]


# ---- character abilities (rules.toml [character.*]) ------------------------------------
def test_ability_scholar_translates_for_one_less_once_a_turn():
    """scholar (professor, 1): a translation costs one Madness less, once a turn; the saving
    goes where the player is short, so no Chaos is spent that the discount covers."""
    scholar = {"characters": ["professor", "medium"]}
    tb = translate_table(card=3, temp=(0, 0, 0), chaos=0, overrides=scholar)  # one Greed
    assert S.A_TRANSLATE in tb.legal_actions()
    before = tb.snapshot()
    tb.act(S.A_TRANSLATE)
    assert {k: v for k, v in tb.changed(before).items() if "temp" in k or "chaos" in k} == {}
    assert tb["scholar_used"] == 1 and tb["char0.pages"] == 1
    # card 20 (1 Fear, 2 Greed) with 1 Fear, 1 Greed and no Chaos: the discount covers the
    # missing Greed
    tb = translate_table(temp=(1, 0, 1), chaos=0, overrides=scholar)
    assert S.A_TRANSLATE in tb.legal_actions()
    tb.act(S.A_TRANSLATE)
    assert tb["char0.chaos"] == 0 and tb["char0.temp.fear"] == 0
    assert tb["char0.temp.greed"] == 0 and tb.errors() == 0
    tb = translate_table(temp=(1, 0, 1), chaos=0, overrides=scholar)  # already used
    tb["scholar_used"] = 1
    assert S.A_TRANSLATE not in tb.legal_actions()


def test_ability_wanderer_moves_one_further():
    """wanderer (drifter, 1): moves one Town card further."""
    tb = table({"characters": ["drifter", "medium"]}, chars=(0, 0), phase=2)
    assert reachable(tb, 0) == {1, 2, 3, 4}  # two cards with no Fear
    assert reachable(tb, 1) == {1, 4}  # the medium: one


def test_ability_occultist_rolls_one_more_die_to_seal():
    """occultist (1): one more die when sealing (with at least one rune; at most three)."""
    occ = {"characters": ["occultist", "medium"]}
    for runes, dice in ((1, 2), (2, 3), (3, 3)):
        tb = seal_table(faces=(0,), temp=(1, 0, 0), runes=(runes, 0, 0), overrides=occ)
        tb.act(S.A_SEAL + 0)
        assert tb.events(S.EV_ROLL)[0, 2] == dice
    tb = seal_table(temp=(1, 1, 0), runes=(0, 1, 0), overrides=occ)
    assert seals(tb.legal_actions()) == {2, 3}  # no blue rune: no blue die


def test_ability_brawler_banishes_for_one_less_once_a_turn():
    """brawler (detective, 1): a banishment costs one less, once a turn."""
    brawler = {"characters": ["detective", "medium"]}
    tb = banish_table([2], {R: 2}, temp=(0, 2, 0), overrides=brawler, sp=script([R, R]))
    tb.act(S.A_BANISH)
    assert tb["char0.temp.rage"] == 1 and tb["town2.sh.red"] == 1
    assert tb["brawler_used"] == 1
    tb.act(S.A_BANISH)  # full price now: a 2 with one Rage left cannot be paid
    assert tb["town2.sh.red"] == 1 and tb["char0.temp.rage"] == 1


def test_ability_brawler_discount_kept_when_the_banishment_is_abandoned():
    """brawler: giving up a banishment does not spend the once-a-turn discount."""
    brawler = {"characters": ["detective", "medium"]}
    tb = banish_table([2], {R: 2}, temp=(0, 2, 0), overrides=brawler, sp=script([3, R]))
    tb.act(S.A_BANISH)  # abandoned: nothing paid, discount still available
    assert tb["town2.sh.red"] == 2 and tb["brawler_used"] == 0
    tb.act(S.A_BANISH)
    assert tb["town2.sh.red"] == 1 and tb["char0.temp.rage"] == 1 and tb["brawler_used"] == 1


def test_ability_medium_may_vent_before_a_forced_move():
    """TEC-A-2 / TEC-MV-3: the medium's free ability is legal even when the first *action*
    must move away from the Great Old One."""
    tb = table(NEUTRAL, chars=(2, 4))
    tb.move("bag.greed", "char0.temp.greed", 2)
    tb["must_move"] = 1
    legal = tb.legal_actions()
    assert S.A_ABILITY in legal and S.A_COLLECT not in legal and S.A_END not in legal


def test_ability_collector_collects_one_more():
    """collector (1): collects one Madness more."""
    tb = table({"characters": ["collector", "medium"]}, chars=(2, 4))
    tb.move("disc.mad.fear", "town2.mad.fear", 3)
    tb.act(S.A_COLLECT)
    assert tb["char0.temp.fear"] == 2 and len(tb.asked()) == 2


def test_ability_medium_vents_madness_for_free():
    """medium (1): once a turn, one Madness from the mat to the Discard mat, no action."""
    tb = table(NEUTRAL, chars=(2, 4))
    assert S.A_ABILITY not in tb.legal_actions()  # nothing on the mat
    tb.move("bag.greed", "char0.temp.greed", 2)
    assert S.A_ABILITY in tb.legal_actions()
    tb.sp = script([G])
    tb.act(S.A_ABILITY)
    assert tb["char0.temp.greed"] == 1 and tb["ability_used"] == 1
    assert tb.asked()[0].kind == S.D_VENT and tb["actions_left"] == 3
    assert S.A_ABILITY not in tb.legal_actions()


# ---- Great Old One powers (rules.toml powers_*) ------------------------------------------
def power(tb, colour, effect, n):
    tb.st[S.S_POWER + colour] = effect
    tb.st[S.S_POWER_N + colour] = n
    tb.pending[:] = 0
    tb.pending[colour] = 1
    tb.call(F_RESOLVE_PENDING)
    assert tb.errors() == 0
    return tb


def test_power_spawn_puts_shamblers_on_the_great_old_one():
    """spawn N: N Shamblers of the colour on the Great Old One's Town card."""
    tb = power(table(goo=3), R, S.PW_SPAWN, 2)
    assert tb["town3.sh.red"] == 2 and tb["smat.sh.red"] == 3
    assert len(tb.events(S.EV_POWER)) == 1 and tb["cnt_powers"] == 1


def test_power_energy_feeds_the_energy_track():
    """energy N: N Eldritch from the supply onto the Energy Track (which may be accursed)."""
    tb = table()
    sup = tb["supply.eldritch"]
    power(tb, B, S.PW_ENERGY, 1)
    assert tb["energy"] == 1 and tb["supply.eldritch"] == sup - 1
    power(tb, B, S.PW_ENERGY, 2)
    assert tb["energy"] == 0 and tb["strength"] == 1  # the third accursed the track


def test_power_draw_draws_at_the_great_old_one():
    """draw N: N tentacles drawn and resolved as a spin's, at the Great Old One's card."""
    tb = table(goo=4).set_bag(fear=2, chaos=1)
    power(tb, G, S.PW_DRAW, 2)
    drawn = tb["town4.mad.fear"] + tb["char0.chaos"]
    assert drawn == 2 and sum(tb.bag().values()) == 1


def test_power_madden_hits_players_on_or_beside_the_great_old_one():
    """madden N: each character on or beside the Great Old One's card gains N Madness of
    the colour from the Shambler mat (an overflow accurses the Temperament Track)."""
    tb = table({"players": 4}, goo=0, chars=(0, 1, 2, 4))
    tb.move("bag.greed", "char3.temp.greed", 2)
    power(tb, G, S.PW_MADDEN, 1)
    assert [tb[f"char{c}.temp.greed"] for c in range(4)] == [1, 1, 0, 0]
    assert tb["char3.brain"] == 0  # 2 + 1: accursed
    assert tb["char2.brain"] == -1


def test_power_hunt_moves_toward_the_nearest_character():
    """hunt N: the Great Old One moves N Town cards toward the nearest character, staying
    once it is there; clockwise on a tie (its docstring)."""
    tb = power(table(goo=0, chars=(2, 4)), B, S.PW_HUNT, 1)
    assert tb["goo_town"] == 4  # one step counter-clockwise to position 4 (its character)
    tb = power(table(goo=0, chars=(2, 4)), B, S.PW_HUNT, 3)
    assert tb["goo_town"] == 4
    tb = power(table(goo=0, chars=(2, 3)), B, S.PW_HUNT, 1)  # 2 clockwise, 2 counter
    assert tb["goo_town"] == 1
    tb = power(table(goo=0, chars=(3, 2)), B, S.PW_HUNT, 1)  # the same, seats swapped
    assert tb["goo_town"] == 1


def test_power_decay_returns_discard_madness_to_the_shambler_mat():
    """decay N: N Madness of the colour from the Discard mat back to the Shambler mat."""
    tb = table()
    tb.move("disc.mad.rage", "smat.mad.rage", 2)
    before = tb.snapshot()
    power(tb, R, S.PW_DECAY, 2)
    moved = {k: v for k, v in tb.changed(before).items() if "mad" in k}
    assert moved == {"disc.mad.1": -1, "smat.mad.1": 1}  # only one was there


def test_power_drain_takes_chaos_from_every_character():
    """drain N: each character loses N Chaos to the supply."""
    tb = table({"players": 3}, chars=(0, 1, 2))
    tb.move("supply.chaos", "char0.chaos", 2).move("supply.chaos", "char2.chaos", 1)
    sup = tb["supply.chaos"]
    power(tb, B, S.PW_DRAIN, 1)
    assert [tb[f"char{c}.chaos"] for c in range(3)] == [1, 0, 0]
    assert tb["supply.chaos"] == sup + 2


@pytest.mark.parametrize("goo", ["nyarlathotep", "yog-sothoth", "yig", "cthulhu"])
def test_every_power_in_the_rules_data_runs(goo):
    """Every Great Old One's six powers (both sides) resolve on a plain table, and each one
    changes something or logs its trigger."""
    ip = params({"goo": goo})
    for phase in (1, 2):
        for colour in range(3):
            tb = table(ip=ip.copy(), goo=2, chars=(1, 3), phase=phase)
            tb.move("supply.chaos", "char0.chaos").move("bag.0", "char1.temp.0")
            effect = int(ip[S.I_POWER + (phase - 1) * 3 + colour])
            assert tb.st[S.S_POWER + colour] == effect
            tb.pending[colour] = 1
            tb.call(F_RESOLVE_PENDING)
            assert tb.errors() == 0
            assert tb.events(S.EV_POWER)[0, 2] == effect
            assert tb["cnt_powers"] == 1


def test_legal_actions_mask_counts():
    """legal_actions returns how many actions it marked (A_END always among them)."""
    tb = table(NEUTRAL, chars=(2, 4))
    n = tb.call(F_LEGAL_ACTIONS)
    assert n == len(tb.legal_set()) and S.A_END in tb.legal_set()
