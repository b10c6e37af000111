"""Tiny Epic Cthulhu, one test per rule clause of tests/clauses/tec.md: setup, the Wheel,
draws, spawns, accursed tracks, strength, delirium, the end and the modes.  The actions (move,
collect, banish, Town actions, translate, seal), abilities and powers are in
test_tec_actions.py; whole games in test_tec_games.py.

Each test builds a small table by hand (tests/tec_support.py: the setup with a fixed stream,
then fields edited by name or pieces moved between places) and calls the njit rule functions
of simcore/tec/rules.py on it; the Wheel is forced with a two-segment wheel, the bag by its
contents and the dice by ``dice.faces``.
"""
# ruff: noqa: N802  (test names carry the clause IDs, e.g. test_TEC_ACC_4_...)

import numpy as np
import pytest
from tec_support import (
    F_ADD_ENERGY,
    F_ADD_TEMP,
    F_ADD_TOWN_MADNESS,
    F_BRAIN_UP,
    F_GIVE_CHAOS,
    F_INIT,
    F_PLACE_SHAMBLER,
    F_PLAY_TURN,
    F_RESOLVE_DRAWN,
    F_RESOLVE_PENDING,
    F_ROLL,
    F_ROLL_DIE,
    F_SPIN_STEP,
    F_TAKE_SHAMBLER,
    GAME,
    QUICK,
    RANDOM,
    Table,
    config,
    params,
    play_game,
    script,
    table,
)

from simcore.tec import state as S

B, R, G = 0, 1, 2  # blue/Fear, red/Rage, green/Greed


def setup_table(overrides=None, seed=5, sp=None):
    """Only the setup (init_state), with its trace events."""
    tb = Table(params(overrides), seed)
    tb.call(F_INIT, sp=sp if sp is not None else script())
    return tb


def spins(tb):
    """The setup's spins: (segment, pointer town, icon, tentacle town, tentacle colour)."""
    return [tuple(int(x) for x in e[1:6]) for e in tb.events(S.EV_SPIN)]


def codes(tb, keep):
    return [int(e[0]) for e in tb.events() if e[0] in keep]


# ---- setup (S) ---------------------------------------------------------------------------
def test_TEC_S_1_five_town_cards_each_on_the_side_chosen():
    """TEC-S-1: five Town cards around the wheel in random positions, each on the chosen
    side, with that side's action and track lengths."""
    orders = set()
    for seed in range(6):
        tb = setup_table({"town_sides": "front"}, seed=seed)
        cards = [tb[f"town{t}.card"] for t in range(5)]
        assert sorted(cards) == [0, 1, 2, 3, 4]
        orders.add(tuple(cards))
        for t, card in enumerate(cards):
            k = card * 2
            assert tb[f"town{t}.side"] == 0
            assert tb[f"town{t}.action"] == tb.ip[S.I_SIDE_ACTION + k]
            assert tb[f"town{t}.amount"] == tb.ip[S.I_SIDE_AMOUNT + k]
            assert tb[f"town{t}.mad_len"] == tb.ip[S.I_SIDE_MAD_LEN + k]
            assert tb[f"town{t}.sh_len"] == tb.ip[S.I_SIDE_SH_LEN + k]
    assert len(orders) > 1  # positions are shuffled
    back = setup_table({"town_sides": "back"})
    assert all(back[f"town{t}.side"] == 1 for t in range(5))
    for t in range(5):
        assert back[f"town{t}.action"] == back.ip[S.I_SIDE_ACTION + back[f"town{t}.card"] * 2 + 1]
    # 'strategy': the players choose each card's side
    sides = [1, 0, 1, 1, 0]
    tb = setup_table({"town_sides": "strategy"}, sp=script(sides))
    assert [tb[f"town{t}.side"] for t in range(5)] == sides
    first = tb.asked()[:5]
    assert [a.kind for a in first] == [S.D_TOWN_SIDE] * 5
    assert all(a.legal == {0, 1} for a in first)
    assert [a.ctx for a in first] == [0, 1, 2, 3, 4]


def test_TEC_S_2_great_old_one_mat_and_strength_token_on_the_start():
    """TEC-S-2: the Great Old One's phase-one side: Strength token on the starting box,
    its Strength Track, Energy Track (empty), powers and portals."""
    for goo in S.GOOS:
        tb = setup_table({"goo": goo})
        ip = tb.ip
        rules = config({"goo": goo}, pinned=True).rules
        assert tb["str_len"] == len(rules[f"great_old_one.{goo}.strength_1"])
        assert list(tb.st[S.S_STR_DRAW:S.S_STR_DRAW + tb["str_len"]]) == rules[
            f"great_old_one.{goo}.strength_1"]
        assert [S.POWERS[tb.st[S.S_POWER + c]] for c in range(3)] == rules[
            f"great_old_one.{goo}.powers_1"]
        assert tb["phase"] == 1 and tb["strength"] == 0 and tb["energy"] == 0
        assert tb["str_len"] == ip[S.I_STR_LEN] > 0
        n = int(ip[S.I_STR_LEN])
        assert list(tb.st[S.S_STR_DRAW:S.S_STR_DRAW + n]) == list(
            ip[S.I_STR_DRAW:S.I_STR_DRAW + n])
        assert tb["energy_len"] == ip[S.I_ENERGY_LEN]
        for c in range(3):
            assert tb.st[S.S_POWER + c] == ip[S.I_POWER + c]
            assert tb.st[S.S_POWER_N + c] == ip[S.I_POWER_N + c]
        for q in range(6):
            assert tb[f"portal{q}.colour"] == ip[S.I_PORTAL_COLOUR + q]
            assert tb[f"portal{q}.number"] == ip[S.I_PORTAL_NUMBER + q]
            assert tb[f"portal{q}.sealed"] == 0


def test_TEC_S_3_player_mats_tokens_and_brains_below_the_delirium_track():
    """TEC-S-3: one Player mat per player (its character's ability and Delirium Track); the
    Brain token starts below the track (-1), every track empty."""
    chars = ["medium", "drifter", "occultist"]
    tb = setup_table({"players": 3, "characters": chars})
    assert tb["nchars"] == 3
    for c, name in enumerate(chars):
        assert tb[f"char{c}.brain"] == -1
        assert tb[f"char{c}.chaos"] == 0 and tb[f"char{c}.pages"] == 0
        assert [tb[f"char{c}.temp.{k}"] for k in range(3)] == [0, 0, 0]
        assert [tb[f"char{c}.runes.{k}"] for k in range(3)] == [0, 0, 0]
        rules = tb.ip
        assert tb[f"char{c}.del_len"] == rules[S.I_CHAR_DEL_LEN + c]
        assert tb[f"char{c}.ability"] == S.ABILITIES.index(
            {"medium": "medium", "drifter": "wanderer", "occultist": "occultist"}[name])
    assert [tb[f"char{c}.del_len"] for c in range(3)] == [6, 5, 4]


def test_TEC_S_4_page_tokens_deck_and_one_face_down_card_per_town():
    """TEC-S-4: 25 Page tokens in the pile, the 30 Page cards shuffled, one face-down card
    beside each Town card and 25 left in the deck."""
    decks = set()
    for seed in range(4):
        tb = setup_table(seed=seed)
        assert tb["page_pile"] == 25 and tb["pages_placed"] == 0
        assert tb["deck_left"] == 25 and tb.hid[S.H_DECK_TOP] == 5
        down = [int(tb.hid[S.H_DOWN + t]) for t in range(5)]
        rest = [int(x) for x in tb.hid[S.H_DECK + 5:S.H_DECK + 30]]
        assert sorted(down + rest) == list(range(30))
        for t in range(5):
            assert tb[f"town{t}.page_state"] == 0 and tb[f"town{t}.page"] == -1
        decks.add(tuple(down + rest))
    assert len(decks) == 4


def test_TEC_S_5_fifteen_shamblers_by_colour():
    """TEC-S-5: 15 Shamblers, five of each colour, on the Shambler mat (less those the
    setup spins place on the Town cards)."""
    tb = setup_table()
    for k in range(3):
        on_towns = sum(tb[f"town{t}.sh.{k}"] for t in range(5))
        assert tb[f"smat.sh.{k}"] + on_towns == 5
    assert 15 - sum(tb[f"smat.sh.{k}"] for k in range(3)) == tb["nchars"]


def test_TEC_S_6_first_spin_places_the_great_old_one():
    """TEC-S-6: the first setup spin puts the Great Old One on the pointer's Town card."""
    for seed in range(8):
        tb = setup_table(seed=seed)
        seg, town, *_ = spins(tb)[0]
        assert town == tb.ip[S.I_SEG_TOWN + seg]
        goo = tb.events(S.EV_SETUP_GOO)
        assert len(goo) == 1 and goo[0, 1] == town == tb["goo_town"]


def test_TEC_S_7_one_shambler_per_player_by_spin():
    """TEC-S-7: one spin per player; each puts a Shambler of the tentacle-side colour on the
    bottom of the Shambler Track of the pointer's Town card.  The tentacle side is
    ``wheel.tentacle_offset`` segments from the pointer (the default and another value)."""
    for players, seed, offset in ((2, 1, None), (3, 2, None), (4, 3, None), (3, 4, 3)):
        tb = setup_table({"players": players} if offset is None else
                         {"players": players, "wheel.tentacle_offset": offset}, seed=seed)
        if offset is None:
            offset = config(pinned=True).rules["wheel.tentacle_offset"]
        sh_spins = spins(tb)[1:1 + players]
        placed = tb.events(S.EV_SETUP_SHAMBLER)
        assert len(placed) == players
        expect = np.zeros((5, 3), dtype=int)
        for (seg, town, _icon, sh_town, colour), e in zip(sh_spins, placed, strict=True):
            n = int(tb.ip[S.I_N_SEGMENTS])
            assert colour == tb.ip[S.I_SEG_COLOUR + (seg + offset) % n]
            assert sh_town == tb.ip[S.I_SEG_TOWN + (seg + offset) % n]
            assert (e[1], e[2]) == (town, colour)
            expect[town, colour] += 1
        got = np.array([[tb[f"town{t}.sh.{k}"] for k in range(3)] for t in range(5)])
        assert (got == expect).all()


def test_TEC_S_8_one_spin_per_player_token():
    """TEC-S-8: then one spin per player puts that player's token on the pointer's card."""
    tb = setup_table({"players": 4}, seed=9)
    player_spins = spins(tb)[5:9]
    assert len(spins(tb)) == 9  # Great Old One, four Shamblers, four players
    for c, (_seg, town, *_rest) in enumerate(player_spins):
        assert tb[f"char{c}.town"] == town
    assert [int(e[1]) for e in tb.events(S.EV_SETUP_PLAYER)] == [0, 1, 2, 3]


def test_TEC_S_9_bag_and_general_supply():
    """TEC-S-9: the bag holds 3 Eldritch and 9 each of Fear, Rage and Greed (no Chaos); the
    other Eldritch (23 - 3 - 5 on the Town cards) form the general supply."""
    tb = setup_table()
    assert tb.bag() == {"fear": 9, "rage": 9, "greed": 9, "chaos": 0, "eldritch": 3}
    assert tb["supply.eldritch"] == 23 - 3 - 5
    assert tb["supply.chaos"] == 17 - 10  # one Chaos on each Necronomicon row and column


def test_TEC_S_10_three_of_each_madness_on_the_shambler_and_discard_mats():
    """TEC-S-10: 3 Fear, 3 Rage, 3 Greed on the Shambler mat and on the Discard mat."""
    tb = setup_table()
    for k in range(3):
        assert tb[f"smat.mad.{k}"] == 3 and tb[f"disc.mad.{k}"] == 3
    assert tb["disc.chaos"] == 0 and tb["disc.eldritch"] == 0
    tb = setup_table({"setup.discard_madness_per_colour": 1})
    assert [tb[f"disc.mad.{k}"] for k in range(3)] == [1, 1, 1]
    assert tb.errors() == 0


def test_TEC_S_11_one_eldritch_on_each_town_card():
    """TEC-S-11: one Eldritch tentacle on each Town card's black square."""
    tb = setup_table()
    assert [tb[f"town{t}.eldritch"] for t in range(5)] == [1] * 5
    assert tb.errors() == 0


def test_TEC_S_12_turns_in_order_and_two_phases():
    """TEC-S-12: players take turns in seat order; the game has phase one, then phase two
    (which starts when the Necronomicon is complete, never goes back)."""
    ip = params({**QUICK, "players": 3})
    seen_two = 0
    for index in range(12):
        g = play_game(ip, seed=4, index=index)
        turns = g.events[g.events[:, 0] == S.EV_TURN]
        assert [int(e[2]) for e in turns] == [k % 3 for k in range(len(turns))]
        phases = [int(e[3]) for e in turns]
        assert phases[0] == 1 and phases == sorted(phases)
        if 2 in phases:
            seen_two += 1
            flip = np.nonzero(g.events[:, 0] == S.EV_PHASE2)[0]
            assert len(flip) == 1
            assert g.rec[S.R_PHASE2_TURN] == phases.index(2)  # the turn before the first
    assert seen_two > 0


# ---- the Wheel (W) -----------------------------------------------------------------------
def test_TEC_W_1_spin_resolves_pointer_draws_spawn_then_move():
    """TEC-W-1: a spin resolves the pointer icon first, then the draws, then the Shambler
    spawn, then the Great Old One's move."""
    tb = table(goo=0)
    tb.set_bag(fear=5).wheel(S.IC_MADNESS, town=1, colour=R, sh_town=3).set_draws(2)
    tb.sp = script([G])
    before = tb.snapshot()
    tb.call(F_SPIN_STEP)
    order = codes(tb, {S.EV_SPIN, S.EV_POINTER, S.EV_CLEANUP, S.EV_DRAW, S.EV_SPAWN,
                       S.EV_GOO_MOVE})
    assert order == [S.EV_SPIN, S.EV_POINTER, S.EV_CLEANUP, S.EV_DRAW, S.EV_DRAW, S.EV_SPAWN,
                     S.EV_GOO_MOVE]
    assert tb.changed(before) == {
        "smat.mad.2": -1, "disc.mad.2": 1,  # pointer: a Greed to the Discard mat
        "bag.0": -2, "town1.mad.0": 2,  # two Fear drawn at the pointer's town
        "smat.sh.1": -1, "town3.sh.1": 1,  # a red Shambler spawns at the tentacle's town
        "goo_town": 3,  # and the Great Old One joins it (from position 0)
    }
    assert tb.errors() == 0


def test_TEC_W_2_pointer_madness_moves_one_from_shambler_mat_to_discard():
    """TEC-W-2: 'move a Madness tentacle': one Madness of the player's choice goes from the
    Shambler mat to the Discard mat (nothing when the mat has none)."""
    for pick in (B, R, G):
        tb = table().set_bag().wheel(S.IC_MADNESS, town=2, sh_town=2).set_draws(0)
        tb.sp = script([pick])
        before = tb.snapshot()
        tb.call(F_SPIN_STEP)
        moved = {k: v for k, v in tb.changed(before).items() if "mad" in k}
        assert moved == {f"smat.mad.{pick}": -1, f"disc.mad.{pick}": 1}
        assert tb.asked()[0].kind == S.D_POINTER_MADNESS
        assert tb.asked()[0].legal == {0, 1, 2}
    tb = table().set_bag().wheel(S.IC_MADNESS, town=2).set_draws(0)
    tb.move("smat.mad.red", "disc.mad.red", 3)
    tb.call(F_SPIN_STEP)
    assert tb.asked()[0].legal == {0, 2}  # only colours the mat holds
    tb = table().set_bag().wheel(S.IC_MADNESS, town=2).set_draws(0)
    for k in range(3):
        tb.move(f"smat.mad.{k}", f"disc.mad.{k}", 3)
    before = tb.snapshot()
    tb.call(F_SPIN_STEP)
    assert tb.asked() == []
    assert [tb[f"disc.mad.{k}"] for k in range(3)] == [before[S.S_DISC_MAD + k]
                                                        for k in range(3)]


def test_TEC_W_3_pointer_shambler_goes_to_the_town_indicated():
    """TEC-W-3: 'Shambler': a Shambler of the tentacle-side colour goes from the Shambler mat
    to the pointer's Town card (and the spawn then adds its own at the tentacle's town)."""
    tb = table().set_bag().wheel(S.IC_SHAMBLER, town=1, colour=G, sh_town=4).set_draws(0)
    tb.call(F_SPIN_STEP)
    assert tb["town1.sh.green"] == 1 and tb["town4.sh.green"] == 1
    assert tb["smat.sh.green"] == 3
    assert sum(tb[f"town{t}.sh.{k}"] for t in range(5) for k in range(3)) == 2
    spawns = tb.events(S.EV_SPAWN)
    assert [(int(e[1]), int(e[2])) for e in spawns] == [(1, G), (4, G)]


def test_TEC_W_4_pointer_chaos_from_supply_to_discard():
    """TEC-W-4: 'Chaos': a Chaos tentacle from the general supply to the Discard mat."""
    tb = table().set_bag().wheel(S.IC_CHAOS, town=1).set_draws(0)
    sup = tb["supply.chaos"]
    tb.call(F_SPIN_STEP)
    assert tb["supply.chaos"] == sup - 1 and tb["disc.chaos"] == 1
    tb = table().set_bag(chaos=7).wheel(S.IC_CHAOS, town=1).set_draws(0)
    assert tb["supply.chaos"] == 0
    tb.call(F_SPIN_STEP)
    assert tb["disc.chaos"] == 0 and tb.errors() == 0


@pytest.mark.parametrize("icon,colour", [(S.IC_POWER_BLUE, B), (S.IC_POWER_RED, R),
                                         (S.IC_POWER_GREEN, G)])
def test_TEC_W_5_pointer_power_of_its_colour(icon, colour):
    """TEC-W-5: 'power': the Great Old One's power of the icon's colour resolves (here every
    colour's power is 'decay 1': one Madness of that colour Discard -> Shambler mat)."""
    tb = table().set_bag().wheel(icon, town=1, sh_town=1).set_draws(0)
    for k in range(3):
        tb.st[S.S_POWER + k] = S.PW_DECAY
        tb.st[S.S_POWER_N + k] = 1
    before = tb.snapshot()
    tb.call(F_SPIN_STEP)
    moved = {k: v for k, v in tb.changed(before).items() if "mad" in k}
    assert moved == {f"disc.mad.{colour}": -1, f"smat.mad.{colour}": 1}
    power = tb.events(S.EV_POWER)
    assert len(power) == 1 and power[0, 1] == colour and power[0, 2] == S.PW_DECAY
    assert tb["cnt_powers"] == 1


def test_TEC_W_6_pointer_extra_draw():
    """TEC-W-6: 'extra draw': one more tentacle is drawn this turn."""
    drawn = {}
    for icon in (S.IC_EXTRA, S.IC_CHAOS):
        tb = table().set_bag(chaos=7).wheel(icon, town=1).set_draws(2)
        tb.call(F_SPIN_STEP)
        drawn[icon] = 7 - tb["bag.chaos"]
        assert len(tb.events(S.EV_DRAW)) == drawn[icon]
    assert drawn == {S.IC_EXTRA: 3, S.IC_CHAOS: 2}


def test_TEC_W_7_missing_shambler_colour_takes_the_next_to_the_right():
    """TEC-W-7: a colour missing from the Shambler mat is replaced by the next to the right:
    Blue -> Red -> Green -> Blue; none at all places nothing."""
    cases = [((0, 3, 3), B, R), ((3, 0, 3), R, G), ((3, 3, 0), G, B), ((0, 0, 3), B, G),
             ((0, 3, 0), G, R), ((3, 3, 3), R, R), ((0, 0, 0), B, -1)]
    for mat, want, got in cases:
        tb = table()
        for k in range(3):  # take_shambler only looks at the Shambler mat
            tb[f"smat.sh.{k}"] = mat[k]
        assert tb.call(F_TAKE_SHAMBLER, want) == got, (mat, want)
        for k in range(3):
            assert tb[f"smat.sh.{k}"] == mat[k] - (k == got)
    # through a spawn: no blue on the mat, a red one is placed
    tb = table().set_bag().wheel(S.IC_CHAOS, town=0, colour=B, sh_town=4).set_draws(0)
    tb.move("smat.sh.blue", "town1.sh.blue", 2).move("smat.sh.blue", "town2.sh.blue", 2)
    tb.move("smat.sh.blue", "town3.sh.blue", 1)
    tb.call(F_SPIN_STEP)
    assert tb["town4.sh.red"] == 1 and tb["town4.sh.blue"] == 0
    # an empty mat places nothing
    tb = table()
    for k in range(3):
        tb[f"smat.sh.{k}"] = 0
    before = tb.snapshot()
    assert tb.call(F_PLACE_SHAMBLER, 1, B) == -1
    assert tb.changed(before) == {}
    assert len(tb.events(S.EV_NO_SHAMBLER)) == 1


# ---- draws (D) -------------------------------------------------------------------------------
def test_TEC_D_1_draws_the_number_beside_the_strength_token():
    """TEC-D-1: the spin draws the number beside the Strength token's space (Nyarlathotep's
    phase-one track draws 2, 2, 3, 3, 3, 4, 4, 4)."""
    track = [2, 2, 3, 3, 3, 4, 4, 4]
    for pos in (0, 2, 5, 7):
        tb = table().set_bag(chaos=7).wheel(S.IC_CHAOS, town=1)
        tb["strength"] = pos
        assert tb.st[S.S_STR_DRAW + pos] == track[pos]
        tb.call(F_SPIN_STEP)
        assert 7 - tb["bag.chaos"] == track[pos]
        assert tb["strength"] == pos


def test_TEC_D_2_tentacles_drawn_one_at_a_time():
    """TEC-D-2: each tentacle is resolved before the next is drawn: four Eldritch onto a
    two-space Energy Track holding one: the second accurses it (all back into the bag, strength
    +1), the third and fourth start the emptied track again."""
    tb = table().set_bag(eldritch=3).wheel(S.IC_EXTRA, town=1).set_draws(3)
    for k in range(3):  # nothing else to pour into the bag
        tb.move(f"disc.mad.{k}", f"smat.mad.{k}", tb[f"disc.mad.{k}"])
    tb.move("supply.eldritch", "energy")
    tb.call(F_SPIN_STEP)
    assert tb["energy"] == 2 and tb["strength"] == 1
    assert tb["bag.eldritch"] == 2 and tb["cnt_acc.3"] == 1
    order = codes(tb, {S.EV_DRAW, S.EV_ACCURSED, S.EV_STRENGTH})
    assert order == [S.EV_DRAW, S.EV_DRAW, S.EV_ACCURSED, S.EV_STRENGTH, S.EV_DRAW, S.EV_DRAW]
    assert tb.errors() == 0


def test_TEC_D_3_short_bag_draws_what_it_can_and_the_turn_goes_on():
    """TEC-D-3: a bag with too few tentacles gives what it has; the spin goes on (spawn and
    the Great Old One's move still happen)."""
    tb = table(goo=0).set_bag(rage=1).wheel(S.IC_CHAOS, town=2, colour=G, sh_town=3)
    tb.set_draws(3)
    tb.call(F_SPIN_STEP)
    assert tb["town2.mad.red"] == 1 and sum(tb.bag().values()) == 0
    short = tb.events(S.EV_DRAW_SHORT)
    assert len(short) == 1 and (short[0, 1], short[0, 2]) == (1, 3)
    assert tb["town3.sh.green"] == 1 and tb["goo_town"] == 3
    assert tb["outcome"] == S.O_PLAYING


def test_TEC_D_4_eldritch_goes_on_the_energy_track():
    """TEC-D-4: a drawn Eldritch goes on the Energy Track, bottom to top."""
    tb = table().set_bag(eldritch=2).wheel(S.IC_CHAOS, town=1).set_draws(2)
    tb.call(F_SPIN_STEP)
    assert tb["energy"] == 2 and tb["bag.eldritch"] == 0 and tb["strength"] == 0
    assert [tb[f"town1.mad.{k}"] for k in range(3)] == [0, 0, 0]
    tb = table()
    tb.move("supply.eldritch", "energy")  # resolve_drawn takes one already out of the bag
    tb["supply.eldritch"] -= 1
    tb.call(F_RESOLVE_DRAWN, S.K_ELDRITCH, 1)
    assert tb["energy"] == 2


def test_TEC_D_5_chaos_goes_to_the_current_players_chaos_track():
    """TEC-D-5: a drawn Chaos goes on the current player's Chaos Track (at most two); the
    ones that do not fit go to the general supply."""
    tb = table().set_bag(chaos=3).wheel(S.IC_EXTRA, town=1).set_draws(2)
    tb["cur"] = 1
    sup = tb["supply.chaos"]
    tb.call(F_SPIN_STEP)
    assert tb["char1.chaos"] == 2 and tb["char0.chaos"] == 0
    assert tb["supply.chaos"] == sup + 1 and tb["bag.chaos"] == 0
    assert len(tb.events(S.EV_CHAOS_LOST)) == 1
    assert tb.errors() == 0


def test_TEC_D_6_madness_goes_on_its_colour_track_at_the_pointer_town():
    """TEC-D-6: a drawn Madness goes on the Madness Track of its colour on the pointer's
    Town card."""
    tb = table().set_bag(fear=1, rage=2, greed=0).wheel(S.IC_CHAOS, town=2, sh_town=4)
    tb.set_draws(3)
    tb.call(F_SPIN_STEP)
    assert [tb[f"town2.mad.{k}"] for k in range(3)] == [1, 2, 0]
    for t in (0, 1, 3, 4):
        assert [tb[f"town{t}.mad.{k}"] for k in range(3)] == [0, 0, 0]


# ---- spawn and the Great Old One's move (SP) ---------------------------------------------
def test_TEC_SP_1_shambler_of_tentacle_colour_at_tentacle_town():
    """TEC-SP-1: the spawn puts a Shambler of the tentacle-side colour on the Shambler Track
    of the tentacle side's Town card, bottom to top."""
    tb = table().set_bag().wheel(S.IC_CHAOS, town=0, colour=G, sh_town=3).set_draws(0)
    tb.move("smat.sh.red", "town3.sh.red")
    tb.call(F_SPIN_STEP)
    assert (tb["town3.sh.red"], tb["town3.sh.green"]) == (1, 1)
    assert sum(tb[f"town0.sh.{k}"] for k in range(3)) == 0
    spawn = tb.events(S.EV_SPAWN)
    assert len(spawn) == 1 and tuple(spawn[0, 1:4]) == (3, G, 2)  # town, colour, height


def test_TEC_SP_2_great_old_one_moves_to_the_spawned_shambler():
    """TEC-SP-2: the Great Old One token moves to the Town card of that Shambler."""
    for sh_town in range(5):
        tb = table(goo=(sh_town + 2) % 5).set_bag()
        tb.wheel(S.IC_CHAOS, town=(sh_town + 1) % 5, colour=B, sh_town=sh_town).set_draws(0)
        tb.call(F_SPIN_STEP)
        assert tb["goo_town"] == sh_town
        assert tb[f"town{sh_town}.sh.blue"] == 1


# ---- accursed tracks (ACC) ------------------------------------------------------------------
def test_TEC_ACC_1_full_track_relocates_all_then_later_pieces_refill_it():
    """TEC-ACC-1: a full track that must take one more is accursed: everything on it and the
    new piece are relocated, the consequence resolves, and further pieces go onto the emptied
    track (a Madness Track and a Shambler Track)."""
    tb = table().set_bag(fear=2).wheel(S.IC_CHAOS, town=2, sh_town=2).set_draws(2)
    tb.move("disc.mad.fear", "town2.mad.fear", 3)  # full (3 spaces)
    smat = tb["smat.mad.fear"]
    tb.call(F_SPIN_STEP)
    assert tb["town2.mad.fear"] == 1  # the second Fear starts the emptied track
    assert tb["smat.mad.fear"] == smat + 4 + 2  # 3 + 1 relocated; blue power: decay 2
    acc = tb.events(S.EV_ACCURSED)
    assert len(acc) == 1 and tuple(acc[0, 1:5]) == (S.ACC_TOWN_MADNESS, 2, B, 4)
    assert tb["cnt_acc.0"] == 1
    tb = table()
    tb.move("smat.sh.red", "town4.sh.red", 3)
    tb.call(F_PLACE_SHAMBLER, 4, B)
    assert sum(tb[f"town4.sh.{k}"] for k in range(3)) == 0
    tb.call(F_PLACE_SHAMBLER, 4, B)
    assert (tb["town4.sh.red"], tb["town4.sh.blue"]) == (0, 1)
    assert tb.errors() == 0


def test_TEC_ACC_2_town_madness_accursed_to_shambler_mat_and_power_of_colour():
    """TEC-ACC-2: a Town's Madness Track accursed: its tentacles and the new one go to the
    Shambler mat by colour, and the Great Old One's power of that colour resolves (queued,
    then run before the next draw)."""
    tb = table(goo=1)
    tb.move("disc.mad.red", "town3.mad.red", 3)
    tb["bag.red"] -= 1  # the drawn one, already out of the bag
    smat = tb["smat.mad.red"]
    tb.call(F_ADD_TOWN_MADNESS, 3, R)
    assert tb["town3.mad.red"] == 0 and tb["smat.mad.red"] == smat + 4
    assert list(tb.pending) == [0, 1, 0]
    assert tb.errors() == 1  # the checker's one complaint: a power queued, not yet resolved
    tb.call(F_RESOLVE_PENDING)  # Nyarlathotep's red power: spawn 1 at its town
    assert list(tb.pending) == [0, 0, 0]
    assert tb.errors() == 0
    assert tb["town1.sh.red"] == 1
    assert tb.events(S.EV_POWER)[0, 1] == R
    # through a spin: the power resolves between two draws
    tb = table(goo=1).set_bag(greed=2).wheel(S.IC_CHAOS, town=2, sh_town=2).set_draws(2)
    tb.move("disc.mad.green", "town2.mad.green", 3)
    tb.call(F_SPIN_STEP)
    order = codes(tb, {S.EV_DRAW, S.EV_ACCURSED, S.EV_POWER})
    assert order == [S.EV_DRAW, S.EV_ACCURSED, S.EV_POWER, S.EV_DRAW]
    assert tb.events(S.EV_POWER)[0, 1] == G


def test_TEC_ACC_3_shambler_track_accursed_swaps_the_town_eldritch():
    """TEC-ACC-3: a Town's Shambler Track accursed: its Shamblers and the new one go back to
    the Shambler mat; the Town's Eldritch goes to the Discard mat and a fresh one from the
    supply replaces it (none when the supply is empty)."""
    tb = table()
    for k in range(3):
        tb.move(f"smat.sh.{k}", f"town2.sh.{k}")
    sup = tb["supply.eldritch"]
    before = tb.snapshot()
    assert tb.call(F_PLACE_SHAMBLER, 2, B) == B
    assert tb.changed(before) == {
        "smat.sh.0": 1, "smat.sh.1": 1, "smat.sh.2": 1,  # 1 + 1 back, 1 taken: blue +1
        "town2.sh.0": -1, "town2.sh.1": -1, "town2.sh.2": -1,
        "disc.eldritch": 1, "supply.eldritch": -1,  # the town's Eldritch swapped
    }
    assert [tb[f"town2.sh.{k}"] for k in range(3)] == [0, 0, 0]
    assert [tb[f"smat.sh.{k}"] for k in range(3)] == [5, 5, 5]
    assert tb["disc.eldritch"] == 1 and tb["supply.eldritch"] == sup - 1
    assert tb["town2.eldritch"] == 1 and tb["cnt_acc.1"] == 1
    assert tb.errors() == 0
    tb = table()
    tb.move("smat.sh.green", "town0.sh.green", 3)
    tb.move("supply.eldritch", "bag.eldritch", tb["supply.eldritch"])
    tb.call(F_PLACE_SHAMBLER, 0, G)
    assert tb["town0.eldritch"] == 0 and tb["disc.eldritch"] == 1
    assert tb.errors() == 0


def test_TEC_ACC_4_energy_track_accursed_returns_eldritch_and_discard_to_bag():
    """TEC-ACC-4: the Energy Track accursed: its Eldritch and the one drawn, and every Madness
    and Chaos tentacle of the Discard mat, go into the bag; the Strength token advances one
    space.  Eldritch on the Discard mat stay there."""
    tb = table()
    tb.move("supply.eldritch", "energy", 2)  # full
    tb.move("supply.chaos", "disc.chaos", 2)
    tb.move("supply.eldritch", "disc.eldritch", 1)
    tb["supply.eldritch"] -= 1  # the one drawn
    before = tb.snapshot()
    tb.call(F_ADD_ENERGY)
    assert tb.changed(before) == {
        "energy": -2, "bag.4": 3,  # two on the track and the one drawn
        "bag.0": 3, "bag.1": 3, "bag.2": 3, "bag.3": 2,  # the Discard mat's Madness, Chaos
        "disc.mad.0": -3, "disc.mad.1": -3, "disc.mad.2": -3, "disc.chaos": -2,
        "strength": 1,
    }
    assert tb["disc.eldritch"] == 1 and tb["disc.chaos"] == 0
    assert [tb[f"disc.mad.{k}"] for k in range(3)] == [0, 0, 0]
    assert tb["strength"] == 1 and tb["energy"] == 0
    assert tb.errors() == 0


def test_TEC_ACC_5_temperament_accursed_to_shambler_mat_and_brain_up():
    """TEC-ACC-5: a Temperament Track accursed: its Madness and the new one go to the
    Shambler mat by colour; the player's Brain token rises one space."""
    tb = table()
    tb.move("disc.mad.rage", "char1.temp.rage", 2)
    tb.move("disc.mad.fear", "char1.temp.fear", 1)
    tb["bag.rage"] -= 1  # the one drawn
    smat = tb["smat.mad.rage"]
    tb.call(F_ADD_TEMP, 1, R)
    assert tb["char1.temp.rage"] == 0 and tb["smat.mad.rage"] == smat + 3
    assert tb["char1.temp.fear"] == 1  # other tracks untouched
    assert tb["char1.brain"] == 0 and tb["char0.brain"] == -1
    assert tb["cnt_acc.2"] == 1
    assert tb.errors() == 0


def test_TEC_ACC_6_chaos_track_never_accursed():
    """TEC-ACC-6: the Chaos Track cannot be accursed: a third Chaos goes to the supply and
    nothing else happens."""
    tb = table()
    sup = tb["supply.chaos"]
    for _ in range(3):
        tb["supply.chaos"] -= 1  # taken from somewhere
        tb.call(F_GIVE_CHAOS, 0)
    assert tb["char0.chaos"] == 2 and tb["supply.chaos"] == sup - 2
    assert tb["char0.brain"] == -1 and len(tb.events(S.EV_ACCURSED)) == 0
    assert list(tb.st[S.S_CNT_ACC:S.S_CNT_ACC + 4]) == [0, 0, 0, 0]
    assert tb.errors() == 0


# ---- strength (STR) -------------------------------------------------------------------------
def test_TEC_STR_1_strength_token_on_the_last_space_loses():
    """TEC-STR-1: the Strength token reaching the last space of the Strength Track loses."""
    tb = table()
    n = tb["str_len"]
    tb["strength"] = n - 2
    for k in range(3):
        tb.move(f"disc.mad.{k}", f"smat.mad.{k}", 3)
    tb.move("supply.eldritch", "energy", 2)
    tb["supply.eldritch"] -= 1
    tb.call(F_ADD_ENERGY)
    assert tb["strength"] == n - 1 and tb["outcome"] == S.O_PLAYING
    tb.move("supply.eldritch", "energy", 2)
    tb["supply.eldritch"] -= 1
    tb.call(F_ADD_ENERGY)
    assert tb["strength"] == n and tb["outcome"] == S.O_STRENGTH


# ---- delirium (DEL) ---------------------------------------------------------------------------
def test_TEC_DEL_1_first_accursed_temperament_puts_brain_on_bottom_space():
    """TEC-DEL-1: the first accursed Temperament Track puts the Brain token on the bottom
    space of the Delirium Track; each later one raises it a space."""
    tb = table()
    assert tb["char0.brain"] == -1
    for want in (0, 1, 2):
        tb.move("bag.greed", "char0.temp.greed", 2 - tb["char0.temp.greed"])
        tb["bag.greed"] -= 1
        tb.call(F_ADD_TEMP, 0, G)
        assert tb["char0.brain"] == want and tb["max_brain"] == want
    brains = tb.events(S.EV_BRAIN)
    assert [int(e[2]) for e in brains] == [0, 1, 2]
    assert tb.errors() == 0


def reroll_masks(brain, n, chars=("professor", "detective")):
    tb = table({"characters": list(chars)})
    tb["char0.brain"] = brain
    tb.sp = script([0])
    tb.call(F_ROLL, n, 0)
    return [a.legal for a in tb.asked() if a.kind == S.D_REROLL], tb


def test_TEC_DEL_2_brain_space_gives_rerolls():
    """TEC-DEL-2: the Brain token's space lets the player reroll one, two or three of the dice
    just rolled (the professor's track: 1, 1, 2, 2, 3); below the track, none."""
    assert reroll_masks(-1, 3)[0] == []
    assert reroll_masks(0, 3)[0] == [{0, 1, 2, 4}]
    assert reroll_masks(1, 3)[0] == [{0, 1, 2, 4}]
    assert reroll_masks(2, 3)[0] == [{0, 1, 2, 3, 4, 5, 6}]
    assert reroll_masks(4, 3)[0] == [set(range(8))]
    assert reroll_masks(4, 2)[0] == [{0, 1, 2, 3}]  # never more than the dice rolled
    # the chosen dice are rolled again, the others kept
    changed = 0
    for seed in range(20):
        tb = table({"characters": ["professor", "detective"]})
        tb["char0.brain"] = 4
        tb.rng = Table(tb.ip, seed).rng
        tb.sp = script([0b101])
        tb.call(F_ROLL, 3, 1)
        roll = tb.events(S.EV_ROLL)[0]
        reroll = tb.events(S.EV_REROLL)
        assert len(reroll) == 1 and reroll[0, 1] == 0b101
        assert tb.st[S.S_DICE + 1] == roll[4]
        assert (tb.st[S.S_DICE], tb.st[S.S_DICE + 2]) == (reroll[0, 2], reroll[0, 4])
        changed += (tb.st[S.S_DICE] != roll[3]) + (tb.st[S.S_DICE + 2] != roll[5])
    assert changed > 0
    tb = table()
    tb["char0.brain"] = 4
    tb.sp = script([0])
    tb.call(F_ROLL, 3, 0)
    assert len(tb.events(S.EV_REROLL)) == 0


def test_TEC_DEL_3_brain_on_the_top_space_goes_mad():
    """TEC-DEL-3: a Brain token reaching the top space (above the last numbered one): the
    player has gone mad and the players lose."""
    tb = table({"characters": ["occultist", "medium"]})  # four spaces below the top
    assert tb["char0.del_len"] == 4
    tb["char0.brain"] = 2
    tb.call(F_BRAIN_UP, 0)
    assert tb["outcome"] == S.O_PLAYING
    tb.call(F_BRAIN_UP, 0)
    assert tb["char0.brain"] == 4 and tb["outcome"] == S.O_MADNESS
    # through an accursed Temperament Track
    tb = table({"characters": ["occultist", "medium"]})
    tb["char0.brain"] = 3
    tb.move("bag.fear", "char0.temp.fear", 2)
    tb["bag.fear"] -= 1
    tb.call(F_ADD_TEMP, 0, B)
    assert tb["outcome"] == S.O_MADNESS


# ---- the end (E) ----------------------------------------------------------------------------
def seal_portals(tb, qs):
    """Cover portals ``qs`` with a Madness of their colour (taken from the Shambler mat)."""
    for q in qs:
        tb[f"smat.mad.{tb[f'portal{q}.colour']}"] -= 1
        tb[f"portal{q}.sealed"] = 1
        tb["sealed"] += 1


def test_TEC_E_1_all_six_portals_sealed_wins():
    """TEC-E-1: the players win when the sixth portal is sealed."""
    tb = table({"dice.faces": [2]}, goo=2, chars=(2, 0), phase=2)
    seal_portals(tb, range(5))
    tb.move("bag.greed", "char0.temp.greed")
    tb["char0.runes.green"] = 2
    tb.act(S.A_SEAL + 5)
    assert tb["portal5.sealed"] == 1 and tb["sealed"] == 6
    assert tb["outcome"] == S.O_WIN
    assert tb.errors() == 0
    tb = table({"dice.faces": [2]}, goo=2, chars=(2, 0), phase=2)
    seal_portals(tb, range(4))
    tb.move("bag.greed", "char0.temp.greed")
    tb["char0.runes.green"] = 2
    tb.act(S.A_SEAL + 5)
    assert tb["sealed"] == 5 and tb["outcome"] == S.O_PLAYING


def test_TEC_E_2_strength_at_the_top_loses_on_either_side():
    """TEC-E-2: the Strength token at the top of the Strength Track loses, on the phase-one
    side and on the phase-two side."""
    for phase in (1, 2):
        tb = table(phase=phase)
        assert tb["str_len"] == tb.ip[S.I_STR_LEN + phase - 1]
        tb["strength"] = tb["str_len"] - 1
        tb.move("supply.eldritch", "energy", tb["energy_len"])
        tb["supply.eldritch"] -= 1
        tb.call(F_ADD_ENERGY)
        assert tb["outcome"] == S.O_STRENGTH, phase


def test_TEC_E_3_game_ends_at_once():
    """TEC-E-3: the game ends as soon as a loss or win condition is met: a spin that loses on
    its first draw draws nothing more and spawns nothing; a turn won by a seal asks nothing
    more."""
    tb = table(goo=4).set_bag(eldritch=3).wheel(S.IC_CHAOS, town=1, sh_town=2).set_draws(3)
    tb["strength"] = tb["str_len"] - 1
    tb.set_draws(3)
    tb.move("supply.eldritch", "energy", 2)
    tb.call(F_SPIN_STEP)
    assert tb["outcome"] == S.O_STRENGTH
    assert len(tb.events(S.EV_DRAW)) == 1 and len(tb.events(S.EV_SPAWN)) == 0
    assert tb["goo_town"] == 4
    # a win during the actions ends the turn: no further decision
    tb = table({"dice.faces": [2]}, goo=2, chars=(2, 0), phase=2)
    seal_portals(tb, range(5))
    tb.move("bag.greed", "char0.temp.greed")
    tb["char0.runes.green"] = 2
    tb.set_bag(fear=9).wheel(S.IC_CHAOS, town=1, sh_town=2).set_draws(0)
    tb.sp = script([S.A_SEAL + 5], then=RANDOM)
    tb.call(F_PLAY_TURN)
    assert tb["outcome"] == S.O_WIN
    assert [a.kind for a in tb.asked()] == [S.D_ACTION]


def test_TEC_E_4_bag_passes_clockwise():
    """TEC-E-4: turns pass to the next player clockwise (seat order), game after game."""
    for players in (2, 4):
        ip = params({"players": players})
        g = play_game(ip, seed=2, index=players)
        turns = g.events[g.events[:, 0] == S.EV_TURN]
        assert len(turns) == g.rec[S.R_TURNS] > players
        assert [int(e[1]) for e in turns] == list(range(1, len(turns) + 1))
        assert [int(e[2]) for e in turns] == [k % players for k in range(len(turns))]


# ---- difficulty and modes (M) --------------------------------------------------------------
def test_TEC_M_1_hard_and_madness_add_eldritch_to_the_bag():
    """TEC-M-1: Hard adds one Eldritch to the bag at setup, Madness two (from the supply)."""
    got = {}
    for difficulty in ("normal", "hard", "madness"):
        tb = setup_table({"difficulty": difficulty})
        got[difficulty] = (tb["bag.eldritch"], tb["supply.eldritch"])
        assert tb.errors() == 0
    assert got == {"normal": (3, 15), "hard": (4, 14), "madness": (5, 13)}


def test_TEC_M_2_solo_plays_two_characters():
    """TEC-M-2: solo: one player controls two characters, set up as for two players (two
    Shamblers, two player tokens), taking turns in turn."""
    tb = setup_table({"players": 1})
    assert tb["nchars"] == 2 and tb.ip[S.I_PLAYERS] == 1
    assert len(tb.events(S.EV_SETUP_SHAMBLER)) == 2
    assert len(tb.events(S.EV_SETUP_PLAYER)) == 2
    assert sum(tb[f"town{t}.sh.{k}"] for t in range(5) for k in range(3)) == 2
    g = play_game(tb.ip, seed=3)
    turns = g.events[g.events[:, 0] == S.EV_TURN]
    assert {int(e[2]) for e in turns} == {0, 1}
    # one strategy plays the whole team, so solo games are the two-player games (NOTES.md)
    solo = GAME.run_batch(config({"players": 1}, "random"), 7, 0, 200)
    duo = GAME.run_batch(config({"players": 2}, "random"), 7, 0, 200)
    assert (solo == duo).all()


# ---- Cthulhu dice (DI) -----------------------------------------------------------------------
def test_TEC_DI_1_die_faces_show_zero_one_or_two():
    """TEC-DI-1: each die shows 0, 1 or 2 tentacles (two faces of each by default)."""
    tb = table()
    rolls = np.array([tb.call(F_ROLL_DIE) for _ in range(3000)])
    assert set(rolls) == {0, 1, 2}
    counts = np.bincount(rolls, minlength=3)
    assert (abs(counts - 1000) < 150).all()
    tb = table({"dice.faces": [2]})
    assert {tb.call(F_ROLL_DIE) for _ in range(50)} == {2}

