"""Wake Up, Cthulhu!, one test per rule clause of tests/clauses/wakeup.md (WUC-*).

Each test builds a small table by hand (tests/wakeup_support.py: the rules' setup on a fixed
stream, then hands, the deck's top cards, the face-up Grimoire and its piles, tokens and
Cthulhu written by name), runs the game from the start of a turn and answers its questions
through the step API, then checks what the rule does.  Every table ends with the rules checker
finding nothing (100 cards and every token accounted for, the line of tokens legal).
"""
# ruff: noqa: N802  (test names carry the clause IDs, e.g. test_WUC_ADV_4_...)

import numpy as np
import pytest
from wakeup_support import EYE, GAME, B, I, M, Table, W, action, advance

from simcore import engine as E
from simcore.kernels import new_rng
from simcore.wakeup import grimoire as GR
from simcore.wakeup import line as L
from simcore.wakeup import rules
from simcore.wakeup import setup as SU
from simcore.wakeup import state as S

SQUARES = 54  # rules.toml board.squares
RED = 44
C = S  # card kinds: S.C_LIBER ...
FILLER = [S.C_CLAVICULA, S.C_LIBER, S.C_NECRONOMICON, S.C_PICATRIX, S.C_PNAKOTIC, S.C_VERMIS]


def table(players=4, tops=None, piles=None, hands=None, **over):
    """A table with every slot face up (a pile of one filler Spell under each unless given),
    hands of exactly seven Ingredients (so no replenishment draws) and no tokens down."""
    t = Table(players, **over)
    hands = hands or {}
    for p in range(t.players):
        t.set_hand(p, hands.get(p, [2, 2, 1, 1, 1]), keep_deck=True)
    t.set_deck([])
    slots = int(t.ip[S.I_SLOTS])
    tops = list(tops if tops is not None else FILLER[:slots])
    default = {i: [FILLER[(i + 2) % 6]] for i in range(slots)}
    default.update(piles or {})
    t.set_grimoire(tops, default)
    assert t.check() == 0
    return t


def done(t):
    assert t.check() == 0


def settle(t):
    """Pay whatever is being paid, natural cards before wilds (the lowest kind first)."""
    while t.decision == S.D_PAY:
        t.play(t.legal()[0])


# ---- Setup (S) --------------------------------------------------------------------------------
def test_WUC_S_1_cthulhu_starts_in_the_central_slot():
    t = Table(4)
    assert t["cthulhu"] == SQUARES  # the pit, beyond the last square
    for seed in range(12):  # every Curse the setup turns up moves him one square out
        st = GAME.new_state(t.config, seed, 0)
        curses = int(st.s[S.S_CURSES:S.S_CURSES + S.N_CURSES].sum())
        assert st.s[S.S_CTHULHU] == SQUARES - curses


def test_WUC_S_2_grimoire_and_ingredients_are_shuffled_separately():
    t = Table(4)
    decks, piles = [], []
    for seed in (1, 2):
        s = np.zeros_like(t.s)
        h = np.zeros_like(t.h)
        SU.setup(t.ip, s, h, new_rng(seed, 0))
        n = int(s[S.S_DECK_N])
        deck = h[S.H_DECK:S.H_DECK + n].copy()
        pile = np.concatenate([h[S.H_STACK + i * S.MAX_STACK:S.H_STACK + i * S.MAX_STACK + 6]
                               for i in range(6)])
        # the deck holds exactly the Ingredients not dealt, the piles exactly the Grimoire
        dealt = h[S.H_HAND:S.H_HAND + 4 * S.N_ING].reshape(4, S.N_ING).sum(axis=0)
        assert (np.bincount(deck, minlength=S.N_ING) + dealt
                == t.ip[S.I_ING_COUNT:S.I_ING_COUNT + S.N_ING]).all()
        assert (np.bincount(pile, minlength=S.N_CARDS)
                == t.ip[S.I_COPIES:S.I_COPIES + S.N_CARDS]).all()
        decks.append(deck)
        piles.append(pile)
    assert not np.array_equal(decks[0], decks[1]) and not np.array_equal(piles[0], piles[1])


def test_WUC_S_3_each_player_has_fifteen_tokens_and_seven_ingredients():
    t = Table(3)
    s = np.zeros_like(t.s)
    h = np.zeros_like(t.h)
    SU.setup(t.ip, s, h, new_rng(4, 0))
    for p in range(3):
        assert s[S.S_RESERVE + p] == 15 and s[S.S_HAND_N + p] == 7 and s[S.S_OCC + p] == 0
        assert h[S.H_HAND + p * S.N_ING:S.H_HAND + (p + 1) * S.N_ING].sum() == 7
    assert s[S.S_HAND_N + 3] == 0  # no fourth player


def test_WUC_S_4_six_piles_of_six_with_the_top_card_revealed():
    t = Table(4)
    for seed in range(50):  # a setup that turns up no Curse
        st = GAME.new_state(t.config, seed, 0)
        if st.s[S.S_CURSES:S.S_CURSES + 3].sum() == 0:
            break
    assert all(st.s[S.S_TOP + i] >= 0 for i in range(6))
    assert all(st.s[S.S_STACK_N + i] == 5 for i in range(6))


def test_WUC_S_5_a_curse_revealed_at_setup_is_resolved_and_the_next_card_revealed():
    t = table(4, tops=[-1] * 6, piles={0: [S.C_CTHONIAN, S.C_LIBER], 1: [S.C_PICATRIX],
                                       2: [S.C_VERMIS], 3: [S.C_PNAKOTIC], 4: [S.C_LIBER],
                                       5: [S.C_NECRONOMICON]})
    discarded = t["grimoire_discard[11]"]
    t.s[E.DEPTH] = 0
    E.frame_push(t.s, S.PR_GAME)  # stage 0: the setup's reveals
    rules.run(t.ip, t.s, t.h, t.st.rng, t.ev, t.evn)
    t._collect()
    assert t["cthulhu"] == SQUARES - 1  # resolved: Cthulhu moved
    assert t[f"grimoire_discard[{S.C_CTHONIAN}]"] == discarded + 1  # then discarded
    assert t["slot.top[0]"] == S.C_LIBER  # and the next card of that pile revealed
    assert t.decision == S.D_ACTION and t.seat == 0  # the first turn begins
    done(t)


def test_WUC_S_6_turns_pass_clockwise():
    t = table(3, readings__may_pass=True)  # (each turn ends at once)
    t.start_turn(1)
    seats = []
    for _ in range(4):
        seats.append(t.seat)
        t.play(S.A_STOP)
    assert seats == [1, 2, 0, 1]
    done(t)


# ---- The turn (T) -------------------------------------------------------------------------------
def test_WUC_T_1_replenish_to_seven_objects_do_not_count():
    t = table(4, hands={0: [1, 1, 1, 0, 0]})
    t.give_object(0, S.C_ULTHAR)
    t.give_object(0, S.C_RLYEH)
    t.set_deck([B, B, EYE, W])
    t.start_turn(0)
    assert t.hand(0) == [1, 1, 3, 1, 1] and t["hand_cards[0]"] == 7
    done(t)


@pytest.mark.parametrize("may_pass", [False, True])
def test_WUC_T_2_the_action_is_conjure_or_advance_what_the_hand_can_pay(may_pass):
    t = table(4, tops=[S.C_LIBER, S.C_PICATRIX, S.C_NECRONOMICON, S.C_ULTHAR, -1, -1],
              piles={4: [S.C_VERMIS], 5: [S.C_VERMIS]}, hands={0: [4, 3, 0, 0, 0]},
              readings__may_pass=may_pass)
    t.start_turn(0)
    assert t.decision == S.D_ACTION
    # Liber Ebon (1 Insect; advance 2X), Necronomicon (2X; advance 4X), never Picatrix
    # (Bone + Eye; 5X) or Ulthar (Mandrake + Bone); "Play an action" is a step of the turn:
    # stopping without one only by the switch
    acts = [action(0), action(2), advance(0), advance(2)]
    assert t.legal() == acts + ([S.A_STOP] if may_pass else [])
    t.play(action(0))  # Liber Ebon: the further action may be declined (WUC-T-7)
    assert t.decision == S.D_ACTION and S.A_STOP in t.legal()
    done(t)


@pytest.mark.parametrize("may_pass", [False, True])
def test_WUC_T_2_no_line_of_play_stalls_the_game(may_pass):
    """A table of players who never act when they may stop, always fold, never play an
    Object and place no Yuggoth token still ends by the rules (Curses keep coming: a round
    without an action replaces the face-up cards), far below the turn cap."""
    cfg = GAME.configure({"players": 2, "max_turns": 5000, "readings.may_pass": may_pass},
                         "random")
    passive = (S.A_STOP, S.A_FOLD, S.A_SWAP_STOP)
    for index in range(4):
        st = GAME.new_state(cfg, 11, index)
        while st.playing:
            legal = GAME.legal_actions(cfg, st).tolist()
            d = st.decision
            if d in (S.D_RLYEH_OPEN, S.D_RLYEH_LAST, S.D_RAN_TEGOTH, S.D_SHIELD, S.D_YUG_PLACE):
                a = S.A_NO
            else:
                a = next((x for x in passive if x in legal and d != S.D_PAY), legal[0])
            GAME.apply(cfg, st, a)
        assert st.s[E.OUTCOME] in (S.O_ADJACENT, S.O_RED) and st.s[E.TURN] < 1000


@pytest.mark.parametrize("reading", ["refresh", "none"])
def test_WUC_T_2_when_nobody_can_act_a_round_long_the_face_up_cards_are_replaced(reading):
    # nothing on the table can be paid for by hands of seven without a Bone or a wild
    blocked = [S.C_ULTHAR, S.C_PICATRIX, S.C_RLYEH, S.C_ULTHAR, S.C_DAEMONUM, S.C_DAEMONUM]
    hands = {0: [2, 3, 0, 2, 0], 1: [2, 2, 0, 3, 0]}
    spells = [S.C_LIBER, S.C_LIBER, S.C_LIBER, S.C_CLAVICULA, S.C_CLAVICULA, S.C_CLAVICULA]
    t = table(2, tops=blocked, piles={i: [spells[i]] for i in range(6)}, hands=hands,
              readings__deadlock=reading)
    t.start_turn(0)
    if reading == "none":  # every turn passes unasked until the turn cap
        assert t.s[E.OUTCOME] == S.O_CAP and t["stat.deadlock_refreshes"] == 0
    else:  # after a round of forced passes the face-up cards are replaced
        assert t["stat.deadlock_refreshes"] == 1 and t.decision == S.D_ACTION
        assert [t[f"slot.top[{i}]"] for i in range(6)] == spells and t.seat == 0
        assert t["turn"] == 3  # seat 0, seat 1 passed; seat 0's second turn
    done(t)


def test_WUC_T_3_the_used_pile_reveals_its_next_card_an_empty_pile_nothing():
    t = table(4, piles={0: [S.C_CLAVICULA], 2: []}, hands={0: [4, 3, 0, 0, 0]})
    t.start_turn(0)
    t.play(action(0))  # Clavicula Salomonis: search
    t.play(M)  # (the deck's kinds: which to take)
    assert t["slot.top[0]"] == S.C_CLAVICULA  # the next card of pile 0
    t.play(action(2))  # Necronomicon (2X), its pile is empty
    settle(t)
    assert t["slot.top[2]"] == -1 and t["slot.face_down[2]"] == 0
    done(t)


def test_WUC_T_4_a_curse_revealed_is_resolved_discarded_and_the_next_card_revealed():
    t = table(4, piles={0: [S.C_CTHONIAN, S.C_VERMIS]}, hands={0: [4, 3, 0, 0, 0]})
    t.set_tokens(1, [0, 1, 2])
    t.start_turn(0)
    t.play(action(1))  # Liber Ebon from slot 1: its pile reveals a filler
    t.play(advance(0))  # Clavicula (3X) from slot 0: its pile reveals C'thonian
    settle(t)
    assert t["cthulhu"] == SQUARES - 1
    # C'thonian took back the two front tokens: the two seat 0 had just placed
    assert t.tokens(1) == [0, 1, 2] and t.tokens(0) == [] and t["reserve[0]"] == 15
    assert t[f"grimoire_discard[{S.C_CTHONIAN}]"] >= 1 and t["slot.top[0]"] == S.C_VERMIS
    done(t)


def test_WUC_T_5_a_second_depleted_pile_reshuffles_the_discard_into_new_piles():
    t = table(4, tops=[S.C_LIBER, -1, S.C_PICATRIX, S.C_VERMIS, S.C_PNAKOTIC, S.C_CLAVICULA],
              piles={0: [], 1: [], 2: [S.C_STELLARIS, S.C_STELLARIS, S.C_STELLARIS],
                     3: [S.C_CTHONIAN, S.C_CTHONIAN], 4: [S.C_YUGGOTH, S.C_YUGGOTH],
                     5: [S.C_LIBER]}, hands={0: [4, 3, 0, 0, 0]})
    before = int(t.s[S.S_GDISCARD:S.S_GDISCARD + S.N_CARDS].sum())
    t.start_turn(0)
    t.play(action(0))  # Liber Ebon: pile 0 is now depleted too, the second one
    # the discard (Liber Ebon included) was shuffled into two new piles of six, tops revealed
    assert t["stat.grimoire_reshuffles"] == 1
    assert t["slot.face_down[0]"] == 5 and t["slot.face_down[1]"] == 5
    assert t["slot.top[0]"] >= 0 and t["slot.top[1]"] >= 0
    after = int(t.s[S.S_GDISCARD:S.S_GDISCARD + S.N_CARDS].sum())
    assert after == before + 1 - 12  # the rest stays in the discard pile
    done(t)
    # a discard pile of Curses alone is not reshuffled (it would turn them up for ever)
    t = Table(4)
    tops = [-1, -1] + FILLER[2:]
    rest = [c for c in range(S.CURSE0)
            for _ in range(int(t.ip[S.I_COPIES + c]) - tops.count(c))]
    t.set_grimoire(tops, {2: rest})  # every Spell and Object face up or in pile 2
    assert sum(t[f"grimoire_discard[{c}]"] for c in range(S.CURSE0)) == 0
    assert GR.refill_piles(t.ip, t.s, t.h, t.st.rng, t.ev, t.evn) == 0
    done(t)
    t["slot.face_down[2]"] -= 1  # pile 2's top card to the discard: now it is reshuffled
    t[f"grimoire_discard[{rest[0]}]"] += 1
    assert GR.refill_piles(t.ip, t.s, t.h, t.st.rng, t.ev, t.evn) == 0b11
    done(t)


def test_WUC_T_6_a_curse_while_replenishing_ends_the_turn():
    t = table(4, piles={1: [S.C_CTHONIAN, S.C_VERMIS]}, hands={0: [4, 3, 0, 0, 0]})
    t.start_turn(0)
    t.play(action(1))  # Liber Ebon grants another action, but its pile turns up a Curse
    assert t["active"] == 1 and t.seat == 1  # the next player's turn
    done(t)


def test_WUC_T_7_another_action_only_when_the_action_grants_one():
    t = table(4, hands={0: [4, 3, 0, 0, 0]})
    t.start_turn(0)
    t.play(action(1))  # Liber Ebon: "You can play another action"
    assert t.decision == S.D_ACTION and t.seat == 0 and S.A_STOP in t.legal()
    t.play(action(2))  # Necronomicon (2X): no further action
    while t.decision in (S.D_PAY, S.D_SWAP_OWN, S.D_SWAP_OTHER):
        t.play(t.legal()[0])
    assert t["active"] == 1
    done(t)


# ---- Conjure (CJ) -------------------------------------------------------------------------------
def test_WUC_CJ_1_the_cost_is_discarded_then_the_card_resolves():
    t = table(4, hands={0: [3, 2, 1, 1, 0]})
    t.set_deck([M, M, I, I])
    disc = [t[f"ingredient_discard[{k}]"] for k in range(S.N_ING)]
    t.start_turn(0)
    t.play(action(3))  # Picatrix: 1 Bone + 1 Eye, then draw four
    assert t[f"ingredient_discard[{B}]"] == disc[B] + 1
    assert t[f"ingredient_discard[{EYE}]"] == disc[EYE] + 1
    assert t.hand(0) == [5, 4, 0, 0, 0]
    done(t)


def test_WUC_CJ_2_a_spell_resolves_at_once_and_goes_to_the_discard_pile():
    t = table(4, hands={0: [3, 2, 1, 1, 0]})
    before = t[f"grimoire_discard[{S.C_PICATRIX}]"]
    t.start_turn(0)
    t.play(action(3))
    assert t[f"grimoire_discard[{S.C_PICATRIX}]"] == before + 1 and t["in_play"] == -1
    assert t["hand_cards[0]"] == 9  # 7 - 2 + 4: resolved at once
    done(t)


def test_WUC_CJ_3_an_object_goes_to_the_hand_and_is_used_in_another_players_turn():
    # bought: into the hand, not usable in the turn it is bought (its pile turns up Yuggoth:
    # the new R'lyeh cannot win that auction)
    t = table(4, tops=[S.C_RLYEH] + FILLER[1:], piles={0: [S.C_YUGGOTH, S.C_VERMIS]},
              hands={0: [3, 2, 1, 1, 0]})
    t.start_turn(0)
    t.play(action(0))  # R'lyeh: Mandrake + Bone + Eye
    assert t["objects[3]"] == 1 and t["objects_new[3]"] == 1
    assert t.decision == S.D_BID and t.seat == 0 and S.A_RLYEH not in t.legal()
    done(t)
    # owned from an earlier turn: played in another player's turn, at no cost, then discarded
    t = table(4, hands={1: [4, 3, 0, 0, 0]})
    t.give_object(0, S.C_RAN_TEGOTH)
    t.start_turn(1)
    t.play(advance(1))  # seat 1 advances with Liber Ebon (2X): one token
    settle(t)
    assert t.decision == S.D_RAN_TEGOTH and t.seat == 0
    hand = t["hand_cards[0]"]
    t.play(S.A_YES)
    assert t.owner_line() == "10" and t["hand_cards[0]"] == hand
    assert t["objects[1]"] == 0 and t[f"grimoire_discard[{S.C_RAN_TEGOTH}]"] == 3
    done(t)


def test_WUC_CJ_4_objects_do_not_count_and_any_number_may_be_owned():
    t = table(4, hands={0: [1, 1, 0, 0, 0]})
    for card in (S.C_ULTHAR, S.C_ULTHAR, S.C_RLYEH, S.C_DAEMONUM, S.C_RAN_TEGOTH):
        t.give_object(0, card)
    t.set_deck([M, M, M, I, I])
    t.start_turn(0)
    assert t["hand_cards[0]"] == 7 and sum(t.s[S.S_OBJ:S.S_OBJ + 4]) == 5
    done(t)


def test_WUC_CJ_5_one_copy_of_each_object_a_turn_the_nearest_player_first():
    # one Daemonum Prestigis a turn, even with two
    t = table(4, hands={0: [4, 3, 0, 0, 0]})
    t.give_object(0, S.C_DAEMONUM, 2)
    t.start_turn(0)
    assert action(3, S.MODE_DAEMONUM) in t.legal()
    t.play(action(1, S.MODE_DAEMONUM))  # Liber Ebon for one card, another action follows
    t.play(t.legal()[0]) if t.decision == S.D_PAY else None
    assert t.decision == S.D_ACTION and t["objects[0]"] == 1
    assert not any(a % 4 & S.MODE_DAEMONUM for a in t.legal() if a < S.A_ADVANCE)
    done(t)
    # two players want Ran-Tegoth: the one nearest the active player is asked; with four
    # players the right-hand neighbour (seat 3) is one seat away, the seat opposite two
    cases = (("table", "distance", 3, False), ("player", "distance", 3, True),
             ("table", "turn_order", 2, False), ("player", "turn_order", 2, True))
    for limit, order, first, second in cases:
        t = table(4, hands={0: [4, 3, 0, 0, 0]}, readings__object_limit=limit,
                  readings__object_order=order)
        t.give_object(3, S.C_RAN_TEGOTH)
        t.give_object(2, S.C_RAN_TEGOTH)
        t.start_turn(0)
        t.play(advance(1))  # Liber Ebon, 2X: one token
        t.play(M) if t.decision == S.D_PAY else None
        assert t.decision == S.D_RAN_TEGOTH and t.seat == first
        t.play(S.A_YES)
        t.play(advance(4))  # Pnakotic, 5 any: two tokens; Ran-Tegoth again?
        while t.decision == S.D_PAY:
            t.play(t.legal()[0])
        asked = t.decision == S.D_RAN_TEGOTH and t.seat == 5 - first
        assert asked == second  # a second copy the same turn only by the per-player reading
        done(t)
    # R'lyeh before the bids: asked nearest first too (the right neighbour before the seat
    # opposite), and with three players both neighbours in turn order
    for players, order, holders, first in ((4, "distance", (2, 3), 3), (4, "turn_order", (2, 3), 2),
                                           (3, "distance", (1, 2), 1)):
        t = table(players, piles={1: [S.C_YUGGOTH, S.C_VERMIS]}, hands={0: [4, 3, 0, 0, 0]},
                  readings__object_order=order)
        for seat in holders:
            t.give_object(seat, S.C_RLYEH)
        t.start_turn(0)
        t.play(action(1))
        assert t.decision == S.D_RLYEH_OPEN and t.seat == first
        done(t)


# ---- Advance (ADV) ------------------------------------------------------------------------------
def test_WUC_ADV_1_three_of_a_kind_wilds_included_for_as_many_tokens_as_candles():
    t = table(4, hands={0: [1, 2, 1, 1, 2]})
    t.start_turn(0)
    assert advance(0) in t.legal()  # Clavicula Salomonis 3X: one Mandrake and two wilds
    t.play(advance(0))
    paid = []
    while t.decision == S.D_PAY:
        opts = t.legal()
        paid.append(W if W in opts else opts[0])
        t.play(paid[-1])
    assert sum(t.hand(0)) == 4 and t.tokens(0) == [0, 1]  # two candles, two tokens
    done(t)


@pytest.mark.parametrize("players,start", [(2, 24), (3, 12), (4, 0)])
def test_WUC_ADV_2_tokens_fill_from_the_starting_square(players, start):
    t = table(players, hands={0: [4, 3, 0, 0, 0]})
    t.start_turn(0)
    t.play(advance(0))
    settle(t)
    assert t.tokens(0) == [start, start + 1]
    done(t)


def test_WUC_ADV_3_advancing_grants_another_action():
    t = table(4, hands={0: [4, 3, 0, 0, 0]})
    t.start_turn(0)
    t.play(advance(1))  # Liber Ebon's 2X
    t.play(M) if t.decision == S.D_PAY else None
    assert t.decision == S.D_ACTION and t.seat == 0 and t["stat.advanced[1]"] == 1
    done(t)


@pytest.mark.parametrize("line_end,target", [("cthulhu", 18), ("start", 15)])
def test_WUC_ADV_4_out_of_tokens_swaps_with_the_end_of_the_line_and_wakes_cthulhu(line_end,
                                                                                   target):
    t = table(4, hands={0: [4, 3, 0, 0, 0]}, readings__line_end=line_end)
    t.set_tokens(0, range(15))  # all fifteen down: the reserve is empty
    t.set_tokens(1, [15, 16, 17, 18])
    t.start_turn(0)
    t.play(advance(1))  # one candle, no token to place it with
    t.play(M) if t.decision == S.D_PAY else None
    assert t.decision == S.D_OUT_SWAP  # which of its own tokens changes places
    t.play(0)
    assert 0 in t.tokens(1) and target in t.tokens(0)
    assert t["cthulhu"] == SQUARES - 1 and t["stat.out_of_token_swaps"] == 1
    done(t)


@pytest.mark.parametrize("reading,line", [("toward_cthulhu", "..0011"), ("toward_start", "0011")])
def test_WUC_ADV_5_a_gap_is_closed_keeping_the_order(reading, line):
    t = table(4, readings__close_gaps=reading)
    t.set_tokens(0, [0, 1])
    t.set_tokens(1, [4, 5])  # squares 2 and 3 empty
    L.close_gaps(t.ip, t.s)
    assert t.owner_line() == line
    done(t)


def test_WUC_ADV_5_after_the_line_moved_up_new_tokens_go_in_front_of_the_rest():
    """``..113``: the line moved up from the Starting square (R'lyeh kept seat 3's front token
    from a C'thonian, the gap closed toward Cthulhu); seat 1's next two tokens go in front of
    the rest ("he places this token in front of the rest"), not behind them (``11113``)."""
    t = table(4, hands={1: [4, 3, 0, 0, 0]})
    t.set_tokens(1, [2, 3])
    t.set_tokens(3, [4])
    assert t.owner_line() == "..113"
    t.start_turn(1)
    t.play(advance(0))  # Clavicula Salomonis, 3X: two tokens
    settle(t)
    assert t.owner_line() == "..11311"
    done(t)
    # the whole story: the shield, the closed gap, then the next advance
    t = table(4, piles={1: [S.C_CTHONIAN, S.C_VERMIS]}, hands={0: [4, 3, 0, 0, 0],
                                                               1: [4, 3, 0, 0, 0]})
    t.give_object(3, S.C_RLYEH)
    t.set_tokens(1, [0, 1])
    t.set_tokens(0, [2, 3])
    t.set_tokens(3, [4])
    t.start_turn(0)
    t.play(action(1))  # Liber Ebon: C'thonian; seat 3 keeps square 4, seat 0's 2 and 3 go
    t.play(S.A_YES)
    assert t.owner_line() == "..113" and t["active"] == 1
    t.play(advance(0))
    settle(t)
    assert t.owner_line() == "..11311"
    done(t)


# ---- Curses (CU) ------------------------------------------------------------------------------
def curse_table(curse, players=4, hands=None, deck=(), objects=(), tokens=None, **over):
    """Seat 0 advances with Liber Ebon (2X, one token, nothing drawn) and its pile turns up
    ``curse``; hands default to [4, 3, 0, 0, 0] for seat 0."""
    hands = {0: [4, 3, 0, 0, 0], **(hands or {})}
    t = table(players, piles={1: [curse, S.C_VERMIS]}, hands=hands, **over)
    for seat, card in objects:
        t.give_object(seat, card)
    for seat, squares in (tokens or {}).items():
        t.set_tokens(seat, squares)
    t.set_deck(list(deck))
    t.start_turn(0)
    t.play(advance(1))
    settle(t)  # (two Mandrakes)
    return t


def test_WUC_CU_1_a_curse_first_moves_cthulhu_one_square_outward():
    t = curse_table(S.C_STELLARIS)
    assert t["cthulhu"] == SQUARES - 1 and t.decision == S.D_BID  # before the effect
    assert t.logged(S.EV_CTHULHU) == [(SQUARES, SQUARES - 1, 0, 0, 0, 0, 0)]


def test_WUC_CU_2_then_the_effect_a_sacrifice_is_an_auction():
    assert curse_table(S.C_YUGGOTH).decision == S.D_BID  # a sacrifice: an auction
    t = curse_table(S.C_CTHONIAN)  # no sacrifice: no auction
    assert t["stat.auctions"] == 0 and t.decision == S.D_ACTION and t.seat == 1


def test_WUC_CU_3_bids_from_the_active_player_first_round_compulsory_then_fold():
    t = curse_table(S.C_STELLARIS, players=3, hands={2: [0, 0, 0, 0, 0]})
    order = []
    while t.decision == S.D_BID:
        order.append((t.seat, t["auction.round"], S.A_FOLD in t.legal()))
        t.play(S.A_FOLD if S.A_FOLD in t.legal() else t.legal()[0])
    # seat 0 (active) then 1; seat 2 holds nothing and is out; round 1 has no folding
    assert order == [(0, 1, False), (1, 1, False), (0, 2, True), (1, 2, True)]
    assert t.logged(S.EV_FOLD)[0][:2] == (2, 1)
    done(t)


def test_WUC_CU_4_the_highest_total_of_sacrifice_values_wins():
    t = curse_table(S.C_STELLARIS, players=2, hands={1: [0, 1, 2, 2, 2]})
    t.play(M, W, M, B, S.A_FOLD, B, S.A_FOLD)  # seat 0: 1 + 1, seat 1: 5 + 2 + 2
    assert t["stellaris[1]"] == 1 and t["stat.auctions_won[1]"] == 1
    assert t.logged(S.EV_AUCTION)[0][:4] == (1, S.C_STELLARIS, 2, 9)


def test_WUC_CU_5_ties_go_to_the_fewest_cards_then_to_drawn_values():
    t = curse_table(S.C_STELLARIS, players=2, hands={1: [1, 1, 1, 1, 3]})
    t.play(M, B, M, S.A_FOLD, S.A_FOLD)  # 2 against 2; seat 0 keeps 3 cards, seat 1 six
    assert t["stellaris[0]"] == 1 and t.logged(S.EV_TIE_DRAW) == []
    # seat 0 (first in turn order) then seat 1 draw: an Insect, then an Eye
    t = curse_table(S.C_STELLARIS, players=2, hands={1: [3, 2, 0, 0, 0]}, deck=[I, EYE])
    t.play(M, M, S.A_FOLD, S.A_FOLD)  # 1 against 1, four cards each: each draws one
    assert t["stellaris[1]"] == 1  # Eye (2) beats Insect (1)
    assert [e[:2] for e in t.logged(S.EV_TIE_DRAW)] == [(0, I), (1, EYE)]
    done(t)


def test_WUC_CU_6_every_bid_ingredient_is_discarded():
    t = curse_table(S.C_STELLARIS, players=2, hands={1: [0, 1, 2, 2, 2]})
    disc = t.s[S.S_IDISCARD:S.S_IDISCARD + S.N_ING].copy()
    t.play(M, W, M, B, S.A_FOLD, B, S.A_FOLD)
    gained = t.s[S.S_IDISCARD:S.S_IDISCARD + S.N_ING] - disc
    assert gained.tolist() == [2, 0, 2, 0, 1] and t.bid(0) == [0] * 5 and t.bid(1) == [0] * 5
    done(t)


@pytest.mark.parametrize("reading,draws", [("extra_card", 1), ("higher_limit", 0)])
def test_WUC_CU_7_stellaris_seminum_adds_a_card_to_every_replenishment(reading, draws):
    t = table(4, hands={0: [2, 2, 2, 1, 1]}, readings__stellaris=reading)  # eight cards
    t["stellaris[0]"] = 1
    t["grimoire_discard[10]"] -= 1
    t.start_turn(0)
    assert t["hand_cards[0]"] == 8 + draws
    done(t)


def test_WUC_CU_8_cthonian_returns_the_two_tokens_nearest_cthulhus_end():
    t = table(4, piles={1: [S.C_CTHONIAN, S.C_VERMIS]}, hands={0: [4, 3, 0, 0, 0]})
    t.set_tokens(0, [0, 1, 4])
    t.set_tokens(1, [2, 3])
    t.start_turn(0)
    t.play(action(1))
    assert t.owner_line() == "001" and t["reserve[0]"] == 13 and t["reserve[1]"] == 14
    assert t["stat.auctions"] == 0
    done(t)


@pytest.mark.parametrize("placement", ["optional", "forced"])
def test_WUC_CU_9_yuggoth_places_two_tokens_then_swaps_two(placement):
    t = curse_table(S.C_YUGGOTH, players=2, hands={1: [0, 1, 2, 2, 2]},
                    tokens={0: [24, 25, 26]},  # (and seat 0's advance put one on 27)
                    readings__yuggoth_placement=placement)
    t.play(M, W, S.A_FOLD, S.A_FOLD)  # seat 1 wins with 5
    if placement == "optional":  # "can place two ... tokens"
        assert t.decision == S.D_YUG_PLACE and t.seat == 1
        t.play(S.A_YES)
    assert t.tokens(1) == [28, 29]  # two tokens from its reserve
    assert t.decision == S.D_SWAP_OWN and S.A_SWAP_STOP in t.legal()  # "can swap"
    t.play(28, 25, 29, 24)
    assert t.owner_line() == "110000" and t["stat.swaps"] == 2
    done(t)


def test_WUC_CU_9_yuggoth_winner_may_place_no_token():
    t = curse_table(S.C_YUGGOTH, players=2, hands={1: [0, 1, 2, 2, 2]},
                    tokens={0: [24, 25, 26], 1: [27]})  # (seat 0's advance: 28)
    t.play(M, W, S.A_FOLD, S.A_FOLD)
    assert t.decision == S.D_YUG_PLACE
    t.play(S.A_NO)
    assert t.tokens(1) == [27] and t["reserve[1]"] == 14  # nothing placed
    assert t.decision == S.D_SWAP_OWN  # the swaps are still offered
    t.play(S.A_SWAP_STOP)
    assert t.owner_line() == "00010" and t["active"] == 1
    done(t)


def test_WUC_CU_9_yuggoth_replacement_reading_changes_the_counts():
    """The example's "replaces two of Anthony's for two from his own reserve" (switch
    ``yuggoth_exchange = "replace"``): the other tokens go back to their reserve and the
    winner's take their squares."""
    t = curse_table(S.C_YUGGOTH, players=2, hands={1: [0, 1, 2, 2, 2]},
                    tokens={0: [24, 25, 26]}, readings__yuggoth_exchange="replace",
                    readings__yuggoth_placement="forced")
    t.play(M, W, S.A_FOLD, S.A_FOLD)
    assert t.tokens(1) == [28, 29] and t.decision == S.D_YUG_REPLACE
    assert S.A_SWAP_STOP in t.legal() and 28 not in t.legal()  # "can"; only others' tokens
    t.play(27, 24)
    assert t.owner_line() == "100111" and t["reserve[0]"] == 13 and t["reserve[1]"] == 11
    assert t["stat.swaps"] == 2 and t["active"] == 1
    done(t)


# ---- Spells (SP) ----------------------------------------------------------------------------
def test_WUC_SP_1_clavicula_searches_the_deck_then_shuffles_another_action():
    t = table(4, hands={0: [4, 3, 0, 0, 0]})
    t.start_turn(0)
    t.play(action(0))  # Clavicula Salomonis: the searcher sees the deck
    assert t.decision == S.D_SEARCH
    view = np.zeros(S.V_SIZE, dtype=np.int64)
    rules.observe(t.ip, t.fp, t.s, t.h, 0, view)
    assert view[S.V_DECK_SEEN] == 1 and view[S.V_DECK:S.V_DECK + 5].tolist() == t.unplaced()
    assert t.legal() == [k for k in range(5) if t.unplaced()[k] > 0]
    t.play(W)
    assert t.hand(0)[W] == 1 and t.decision == S.D_ACTION and t.seat == 0
    done(t)


def test_WUC_SP_2_liber_ebon_draws_two_another_action():
    t = table(4, hands={0: [4, 3, 0, 0, 0]})
    t.set_deck([B, EYE, W])
    t.start_turn(0)
    t.play(action(1))
    assert t.hand(0) == [4, 2, 1, 1, 0] and t.decision == S.D_ACTION and t.seat == 0
    done(t)


def test_WUC_SP_3_necronomicon_swaps_three_of_your_tokens_each_once():
    t = table(4, hands={0: [4, 3, 0, 0, 0]})
    t.set_tokens(0, [0, 1, 2, 3])
    t.set_tokens(1, [4, 5, 6, 7])
    t.start_turn(0)
    t.play(action(2))  # Necronomicon, 2X
    settle(t)
    assert t.decision == S.D_SWAP_OWN and S.A_SWAP_STOP not in t.legal()  # not optional
    t.play(0, 7, 1, 6)
    assert 7 not in t.legal()  # the tokens swapped already stay put
    t.play(2, 5)
    assert t.owner_line() == "11101000" and t["active"] == 1  # no further action
    done(t)


def test_WUC_SP_4_picatrix_draws_four_another_action():
    t = table(4, hands={0: [3, 2, 1, 1, 0]})
    t.set_deck([W, W, B, B, I])
    t.start_turn(0)
    t.play(action(3))
    assert t.hand(0) == [3, 2, 2, 0, 2] and t.decision == S.D_ACTION and t.seat == 0
    done(t)


def test_WUC_SP_5_pnakotic_discards_a_face_up_card_another_action():
    t = table(4, piles={5: [S.C_PICATRIX]}, hands={0: [4, 3, 0, 0, 0]})
    t.start_turn(0)
    t.play(action(4))  # Pnakotic Manuscripts, 1 Mandrake
    assert t.decision == S.D_DISCARD and t.legal() == [0, 1, 2, 3, 5]
    before = t[f"grimoire_discard[{S.C_VERMIS}]"]
    t.play(5)  # De Vermis Mysteriis discarded; its pile shows its next card
    assert t[f"grimoire_discard[{S.C_VERMIS}]"] == before + 1
    assert t["slot.top[5]"] == S.C_PICATRIX and t.decision == S.D_ACTION and t.seat == 0
    done(t)


def test_WUC_SP_6_vermis_mysteriis_swaps_two():
    t = table(4, hands={0: [2, 2, 1, 1, 1]})
    t.set_tokens(0, [0, 1, 2])
    t.set_tokens(2, [3, 4, 5])
    t.start_turn(0)
    t.play(action(5))  # 1 Bone (or the wild)
    settle(t)
    t.play(0, 5, 1, 4)
    assert t.owner_line() == "220200" and t["stat.swaps"] == 2
    done(t)


# ---- Objects (OB) ------------------------------------------------------------------------------
def test_WUC_OB_1_daemonum_prestigis_buys_any_card_for_one_ingredient():
    t = table(4, tops=[S.C_RLYEH] + FILLER[1:], hands={0: [4, 3, 0, 0, 0]})
    t.give_object(0, S.C_DAEMONUM)
    t.start_turn(0)
    assert action(0) not in t.legal() and action(0, S.MODE_DAEMONUM) in t.legal()
    t.play(action(0, S.MODE_DAEMONUM))
    t.play(M) if t.decision == S.D_PAY else None
    assert t["objects[3]"] == 1 and t["hand_cards[0]"] == 6  # R'lyeh for one card
    assert t["objects[0]"] == 0 and t["stat.objects_played[0]"] == 1
    done(t)


def test_WUC_OB_2_ran_tegoth_places_as_many_tokens_in_front_of_theirs():
    t = table(4, hands={0: [4, 3, 0, 0, 0]})
    t.give_object(2, S.C_RAN_TEGOTH)
    t.set_tokens(1, [0, 1])
    t.start_turn(0)
    t.play(advance(0))  # Clavicula, 3X: two tokens
    settle(t)
    assert t.decision == S.D_RAN_TEGOTH and t.seat == 2
    t.play(S.A_YES)
    assert t.owner_line() == "110022" and t["stat.ran_tegoth_tokens"] == 2
    done(t)


def test_WUC_OB_3_ulthar_doubles_a_spell_never_an_object():
    t = table(4, tops=[S.C_ULTHAR] + FILLER[1:], hands={0: [2, 3, 1, 1, 0]})
    t.give_object(0, S.C_ULTHAR)
    t.set_deck([B, B, EYE, EYE])
    t.start_turn(0)
    assert action(0, S.MODE_ULTHAR) not in t.legal()  # Ulthar on the table is an Object
    t.play(action(1, S.MODE_ULTHAR))  # Liber Ebon doubled: four cards
    assert t.hand(0) == [2, 2, 3, 3, 0] and t["objects[2]"] == 0
    done(t)


def test_WUC_OB_4_rlyeh_wins_an_auction_at_once_or_shields_from_cthonian():
    # the last_call reading: once everyone has folded, before the bids are revealed
    for window, last in (("bids", False), ("last_call", True)):
        t = curse_table(S.C_YUGGOTH, players=3, objects=[(2, S.C_RLYEH)],
                        readings__rlyeh_window=window)
        t.play(S.A_NO)  # not before the bids
        while t.decision == S.D_BID:
            t.play(S.A_FOLD if S.A_FOLD in t.legal() else t.legal()[0])
        assert (t.decision == S.D_RLYEH_LAST) == last
        if last:
            t.play(S.A_YES, S.A_YES)  # R'lyeh, then Yuggoth's two tokens placed
            assert t["stat.rlyeh_auctions"] == 1 and t.tokens(2) == [13, 14]
        done(t)
    # before any bid: nobody sacrifices anything
    t = table(3, piles={1: [S.C_YUGGOTH, S.C_VERMIS]}, hands={0: [4, 3, 0, 0, 0]})
    t.give_object(2, S.C_RLYEH)
    t.start_turn(0)
    t.play(action(1))
    assert t.decision == S.D_RLYEH_OPEN and t.seat == 2
    t.play(S.A_YES, S.A_YES)
    assert t["stat.cards_bid"] == 0 and t.tokens(2) == [12, 13]  # won at once: 2 tokens
    done(t)
    # during the bids: what was bid is discarded
    t = table(3, piles={1: [S.C_YUGGOTH, S.C_VERMIS]}, hands={0: [4, 3, 0, 0, 0]})
    t.give_object(1, S.C_RLYEH)
    t.start_turn(0)
    t.play(action(1))
    t.play(S.A_NO, M)  # seat 1 waits, seat 0 bids a Mandrake
    assert t.seat == 1 and S.A_RLYEH in t.legal()
    t.play(S.A_RLYEH)
    assert t["stat.rlyeh_auctions"] == 1 and t.bid(0) == [0] * 5
    done(t)
    # against C'thonian: its tokens are not counted among the nearest
    t = table(4, piles={1: [S.C_CTHONIAN, S.C_VERMIS]}, hands={0: [4, 3, 0, 0, 0]})
    t.give_object(3, S.C_RLYEH)
    t.set_tokens(1, [0, 1])
    t.set_tokens(3, [2])
    t.start_turn(0)
    t.play(action(1))
    assert t.decision == S.D_SHIELD and t.seat == 3
    t.play(S.A_YES)
    assert t.tokens(3) == [2] and t.tokens(1) == []  # seat 1's two went back instead
    done(t)


# ---- End and winner (E) ---------------------------------------------------------------------
@pytest.mark.parametrize("reading,ends", [("happened", True), ("end_of_turn", False)])
def test_WUC_E_1_the_game_ends_when_the_turn_ends(reading, ends):
    t = table(4, piles={1: [S.C_CTHONIAN, S.C_VERMIS]}, hands={0: [4, 3, 0, 0, 0]},
              readings__end_check=reading)
    t.set_tokens(1, range(0, 15))
    t.set_tokens(2, range(15, 30))
    t.set_tokens(3, range(30, 45))
    t.set_tokens(0, range(45, 51))
    t["cthulhu"] = 53
    t.start_turn(0)
    t.play(advance(0))  # Clavicula Salomonis, 3X: squares 51 and 52, next to Cthulhu
    settle(t)
    assert t.tokens(0)[-1] == 52 and t["adjacent_happened"] == 1
    assert t.s[E.OUTCOME] == E.PLAYING and t.decision == S.D_ACTION  # the turn goes on
    t.play(action(1))  # Liber Ebon: its pile turns up C'thonian, which takes 52 and 51 back
    assert t.tokens(0)[-1] == 50 and t["cthulhu"] == 53  # (Cthulhu could not move)
    # it happened this turn: the game ends (or, by the other reading, goes on)
    assert (t.s[E.OUTCOME] == S.O_ADJACENT) == ends
    assert (t["active"] == 1) == (not ends)
    # the Red Candle
    t = curse_table(S.C_STELLARIS)
    assert t["cthulhu"] == SQUARES - 1
    t = table(4, piles={1: [S.C_STELLARIS, S.C_VERMIS]}, hands={0: [4, 3, 0, 0, 0]})
    t["cthulhu"] = RED + 1
    t.start_turn(0)
    t.play(advance(1))
    settle(t)
    while t.decision == S.D_BID:
        t.play(S.A_FOLD if S.A_FOLD in t.legal() else t.legal()[0])
    assert t.s[E.OUTCOME] == S.O_RED and t["cthulhu"] == RED and t.s[E.WINNER] == 0


def test_WUC_E_2_most_tokens_wins():
    t = table(3)
    t.set_tokens(0, [12, 13])
    t.set_tokens(1, [14, 15, 16])
    t.set_tokens(2, [17])
    assert L.winner_now(t.ip, t.s) == (1, 0)


def test_WUC_E_3_a_tie_goes_to_the_token_closest_to_cthulhu():
    # the tied seats' rearmost and frontmost tokens are of different players, so the token
    # nearest the Starting square would name the other one
    for rear, front in ((0, 1), (1, 0)):
        t = table(3)
        t.set_tokens(rear, [12, 13, 14])
        t.set_tokens(front, [15, 16, 17])
        t.set_tokens(2, [18])  # nearest Cthulhu, but not among the tied
        assert L.winner_now(t.ip, t.s) == (front, 1)
    # the same at the end of a game (Daniel, who placed the last token, wins the tie)
    t = table(2, hands={0: [4, 3, 0, 0, 0]})
    t.set_tokens(1, range(24, 30))
    t.set_tokens(0, range(30, 35))
    t["cthulhu"] = 36
    t.start_turn(0)
    t.play(advance(1))  # Liber Ebon, 2X: one token on 35, next to Cthulhu
    settle(t)
    t.play(S.A_STOP)
    assert t.s[E.OUTCOME] == S.O_ADJACENT and t.s[E.WINNER] == 0 and t["stat.tie_break"] == 1


# ---- Solitaire (SO) ---------------------------------------------------------------------------
def solo(tops=(S.C_CLAVICULA, S.C_LIBER, S.C_NECRONOMICON, S.C_PNAKOTIC), deck_f=None,
         hand=(2, 2, 1, 1, 1), **over):
    t = Table(1, **over)
    t.set_hand(0, list(hand))
    t.set_grimoire(list(tops), {0: list(deck_f) if deck_f is not None else [S.C_VERMIS] * 3})
    assert t.check() == 0
    return t


def test_WUC_SO_1_setup_figures_hand_and_four_b_positions():
    t = Table(1)
    st = GAME.new_state(t.config, 3, 0)
    assert st.s[S.S_SOLO_POS] == 0 and st.s[S.S_HAND_N] == 7
    assert st.s[S.S_TOP:S.S_TOP + 4].min() >= 0 and st.s[S.S_TOP + 4] == -1
    assert st.s[S.S_STACK_N] == 36 - 4 - st.s[S.S_GDISCARD:S.S_GDISCARD + 13].sum() \
        - st.s[S.S_STELLARIS:S.S_STELLARIS + 5].sum()


def test_WUC_SO_2_cthulhu_plays_first_then_turns_alternate():
    t = solo(readings__may_pass=True)  # (the player's turn ends at once)
    t.set_deck([M, I, B, EYE])
    t.start_turn(-1)  # Cthulhu's turn, then the player's
    assert t["round"] == 1 and t.decision == S.D_ACTION and t.seat == 0
    t.play(S.A_STOP)
    assert t["round"] == 2  # Cthulhu again


def test_WUC_SO_3_a_positions_one_per_kind_the_wild_closest_to_path_c():
    t = solo()
    t.set_deck([I, W, M, B])
    t.start_turn(-1)
    assert [t[f"solo_a[{i}].kind"] for i in range(4)] == [I, M, B, -1]
    assert [t[f"solo_a[{i}].natural"] for i in range(4)] == [1, 1, 1, 0]
    assert t["solo_a[0].wild"] == 1  # with the Insects, in the position nearest Path C
    done(t)


def test_WUC_SO_4_three_cards_move_cthulhu_three_four_move_four():
    t = solo(readings__may_pass=True)  # (the player's turn ends at once)
    t.set_deck([B, B, W, M, B, EYE, EYE, EYE])
    t.start_turn(-1)  # B B W(pos 0) M: position 0 holds 2 Bones + a wild: 3 cards
    assert t["cthulhu"] == 3 and t["solo_a[0].kind"] == -1  # emptied
    t.play(S.A_STOP)  # Cthulhu's next turn: a Bone on the emptied position, three Eyes
    assert t["cthulhu"] == 3 + 3
    t = solo()
    t.set_deck([M, M, M, M])
    t.start_turn(-1)
    assert t["cthulhu"] == 4
    done(t)


def test_WUC_SO_5_the_player_uses_the_four_b_cards_and_advances_the_figure():
    t = solo(hand=(3, 3, 1, 0, 0))
    t.set_deck([EYE, EYE, B, B])  # Cthulhu lays out two pairs: no move
    t.start_turn(-1)
    assert max(a for a in t.legal() if a < S.A_STOP) < S.A_ADVANCE + 4  # four positions
    t.play(advance(0))  # Clavicula 3X: two candles
    settle(t)
    assert t["solo_pos"] == 2 and t.owner_line() == ""
    done(t)


def test_WUC_SO_6_a_used_card_is_replaced_play_goes_on_until_a_pass_or_a_curse():
    t = solo(deck_f=[S.C_PICATRIX, S.C_STELLARIS, S.C_VERMIS], hand=(3, 3, 1, 0, 0))
    t.set_deck([EYE, EYE, B, B])
    t.start_turn(-1)
    t.play(action(1))  # Liber Ebon: replaced by Picatrix from deck F, another action
    assert t["slot.top[1]"] == S.C_PICATRIX and t.decision == S.D_ACTION
    t.play(action(0))  # Clavicula: replaced by Stellaris Seminum: a duel, then the turn ends
    settle(t)
    t.play(t.legal()[0]) if t.decision == S.D_SEARCH else None
    assert t.decision == S.D_STAKE
    t.play(S.A_STAKE_DONE)
    assert t["round"] == 2 and t["slot.top[0]"] == S.C_VERMIS
    done(t)


def test_WUC_SO_7_four_objects_face_up_may_all_be_cleared():
    t = solo(tops=(S.C_ULTHAR, S.C_RLYEH, S.C_DAEMONUM, S.C_RAN_TEGOTH),
             deck_f=[S.C_LIBER, S.C_LIBER, S.C_CLAVICULA, S.C_PICATRIX], hand=(0, 0, 0, 0, 0))
    t.set_deck([EYE, EYE, B, B] + [M] * 7)
    t.start_turn(-1)
    assert S.A_CLEAR in t.legal()
    t.play(S.A_CLEAR)
    assert [t[f"slot.top[{i}]"] for i in range(4)] == [S.C_LIBER, S.C_LIBER, S.C_CLAVICULA,
                                                        S.C_PICATRIX]
    assert t.decision == S.D_ACTION  # and the action is still to come
    done(t)


def test_WUC_SO_8_an_empty_grimoire_deck_is_rebuilt_from_the_discard():
    t = solo(deck_f=[], hand=(3, 3, 1, 0, 0))
    t.set_deck([EYE, EYE, B, B])
    t.start_turn(-1)
    t.play(action(1))  # the deck F is empty: the discard pile, shuffled, becomes it
    assert t["stat.grimoire_reshuffles"] == 1 and t["slot.top[1]"] >= 0
    done(t)


def test_WUC_SO_9_a_swap_spell_sets_cthulhu_back_and_the_player_on():
    t = solo(hand=(3, 3, 1, 0, 0))
    t.set_deck([M, M, M, EYE])
    t.start_turn(-1)  # Cthulhu moves 3
    t.play(action(2))  # Necronomicon: three swaps
    settle(t)
    # (the turn is over and Cthulhu's next one has been played: read the moves)
    moves = [e[:4] for e in t.logged(S.EV_SOLO_MOVE)]
    assert moves[:3] == [(1, 0, 3, 0), (1, 3, 0, 1), (0, 0, 3, 1)]
    done(t)


def test_WUC_SO_10_a_curse_duel_cthulhu_wins_ties():
    t = solo(deck_f=[S.C_YUGGOTH, S.C_VERMIS], hand=(3, 3, 0, 0, 1))
    # Cthulhu lays out two pairs; Liber Ebon draws M, I; Cthulhu draws M, I for the duel
    t.set_deck([EYE, EYE, B, B, M, I, M, I])
    t.start_turn(-1)
    t.play(action(1))  # Liber Ebon: Yuggoth turns up
    settle(t)
    assert t.decision == S.D_STAKE
    t.play(I, M, S.A_STAKE_DONE)  # 1 + 1 against Cthulhu's Mandrake + Insect: a tie
    assert t.logged(S.EV_DUEL)[0][1:4] == (2, 2, 1)  # Cthulhu wins it
    # Yuggoth's benefit: Cthulhu two squares for the tokens and two for the swaps
    assert [e[:3] for e in t.logged(S.EV_SOLO_MOVE) if e[3] == 3][0] == (1, 0, 4)
    t = solo(deck_f=[S.C_YUGGOTH, S.C_VERMIS], hand=(3, 3, 0, 0, 1))
    t.set_deck([EYE, EYE, B, B, M, I, M])
    t.start_turn(-1)
    t.play(action(1))
    settle(t)
    t.play(W, S.A_STAKE_DONE)  # 5 against a Mandrake
    assert t["solo_pos"] == 4 and t["stat.duels_won"] == 1
    done(t)


def test_WUC_SO_11_cthonian_duel_is_compulsory_winner_on_loser_back():
    t = solo(deck_f=[S.C_CTHONIAN, S.C_VERMIS], hand=(3, 3, 0, 0, 1))
    t.set_deck([EYE, EYE, B, B, M, M, M, M, M])
    t.start_turn(-1)
    t["solo_pos"] = 5
    t["cthulhu"] = 5
    t.play(action(1))
    settle(t)
    assert S.A_STAKE_DONE not in t.legal()  # the sacrifice must be made
    t.play(W, S.A_STAKE_DONE)  # 5 against a Mandrake: the player wins
    duel = [e[:3] for e in t.logged(S.EV_SOLO_MOVE) if e[3] == 3]
    assert duel == [(0, 5, 7), (1, 5, 3)]  # the winner two squares on, the loser two back
    done(t)


@pytest.mark.parametrize("copy", [False, True])
def test_WUC_OB_2_ran_tegoth_in_solitaire_only_by_the_switch(copy):
    """Ran-Tegoth works "during another player's turn, if this player places ... tokens": the
    solitaire text gives it no use; the switch ``solo_ran_tegoth`` lets the player copy
    Cthulhu's move (an invention, off by default)."""
    t = solo(readings__solo_ran_tegoth=copy)
    t.give_object(0, S.C_RAN_TEGOTH)
    t.set_deck([M, M, M, EYE])
    t.start_turn(-1)  # Cthulhu moves 3
    assert t["cthulhu"] == 3
    if not copy:
        assert t.decision == S.D_ACTION and t["objects[1]"] == 1  # never asked
        return
    assert t.decision == S.D_RAN_TEGOTH and t.seat == 0
    t.play(S.A_YES)
    assert t["solo_pos"] == 3 and t.logged(S.EV_SOLO_MOVE)[-1][:4] == (0, 0, 3, 4)
    done(t)


def test_WUC_SO_12_the_first_figure_on_the_portal_ends_the_game():
    t = solo(hand=(3, 3, 1, 0, 0))
    t.set_deck([EYE, EYE, B, B])
    t.start_turn(-1)
    t["solo_pos"] = int(t.ip[S.I_SOLO_PATH_C]) - 2  # a square short of the Portal
    t.play(advance(0))
    while t.decision == S.D_PAY and t.s[E.OUTCOME] == E.PLAYING:
        t.play(t.legal()[0])
    assert t.s[E.OUTCOME] == S.O_PORTAL_PLAYER and t.s[E.WINNER] == 0
    t = solo()
    t.set_deck([M, M, M, M])
    t["cthulhu"] = 44
    t.start_turn(-1)  # Cthulhu reaches square 47, his Portal
    assert t.s[E.OUTCOME] == S.O_PORTAL_CTHULHU and t.s[E.WINNER] == -1
