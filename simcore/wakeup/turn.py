"""Wake Up, Cthulhu!: the game and the turn as procedures on the frame stack: the turn
(replenish, actions, replenish the Grimoire, WUC-T-1..7), an action (pay, then resolve: conjure,
WUC-CJ-*, or advance, WUC-ADV-*), a Spell's effect (WUC-SP-*) and the swaps, and the end of a
turn (WUC-E-1).  Each ``run_*`` resumes the procedure on top of the stack at its stage: it asks
a question (``ask``; returns True) or carries on, pushing or popping frames (returns False).
"""

from __future__ import annotations

from numba import njit

from simcore.engine import TURN, ask, finish, frame_get, frame_pop, frame_push, frame_set
from simcore.wakeup import base as B
from simcore.wakeup import cards as CD
from simcore.wakeup import grimoire as GR
from simcore.wakeup import legality as LG
from simcore.wakeup import line as L
from simcore.wakeup import solo as SO
from simcore.wakeup import state as S
from simcore.wakeup import windows as W

# stages of the procedures (frame local 0 unless said otherwise)
G_SETUP, G_TURNS, G_PLAYER = 0, 1, 2
T_BEGIN, T_ACTION, T_REPLENISH, T_AFTER, T_END, T_CLEARED = 0, 1, 2, 3, 4, 5
AC_PAY, AC_RESOLVE, AC_ADVANCED, AC_SPELL_DONE = 0, 1, 2, 3
AD_PLACE, AD_WINDOW1, AD_SHORT, AD_WINDOW2, AD_DONE = 0, 1, 2, 3, 4


@njit(cache=True, _nrt=False)
def start_turn(ip, s, h, rng, ev, evn):
    """WUC-T-1 and the turn's bookkeeping."""
    p = s[S.S_ACTIVE]
    s[TURN] += 1
    if not B.is_solo(ip) and p == ip[S.I_FIRST]:
        s[S.S_ROUND] += 1
    s[S.S_EXTRA] = 0
    s[S.S_CURSE_SEEN] = 0
    s[S.S_PENDING] = 0
    s[S.S_ADJ_FLAG] = 1 if (not B.is_solo(ip) and L.adjacent_now(ip, s)) else 0
    B.log(ev, evn, S.EV_TURN, s[TURN], p, s[S.S_ROUND], 0, 0, 0, 0)
    L.log_table(ip, s, ev, evn)
    CD.replenish_hand(ip, s, h, rng, p, ev, evn)
    o = S.H_HAND + p * S.N_ING
    B.log(ev, evn, S.EV_HAND, p, h[o], h[o + 1], h[o + 2], h[o + 3], h[o + 4], 0)
    for q in range(B.seats_of(ip)):
        b = S.S_OBJ + q * S.N_OBJECTS
        B.log(ev, evn, S.EV_OBJECTS, q, s[b], s[b + 1], s[b + 2], s[b + 3], s[S.S_STELLARIS + q], 0)


@njit(cache=True, _nrt=False)
def end_turn(ip, s, ev, evn):
    """WUC-T-6/7, WUC-E-1: the turn is over; the game ends here if Cthulhu stood next to a
    token this turn (or still does, by the switch) or reached the Red Candle."""
    for k in range(S.MAX_SEATS * S.N_OBJECTS):  # Objects bought this turn are usable from now on
        s[S.S_FRESH + k] = 0
    for p in range(S.MAX_SEATS):
        s[S.S_USED + p] = 0
    s[S.S_USED_TABLE] = 0
    if not B.is_solo(ip):
        adj = L.adjacent_now(ip, s) if ip[S.I_END_AT_END] == 1 else s[S.S_ADJ_FLAG] == 1
        red = s[S.S_RED_FLAG] == 1
        if adj or red:
            w, tie = L.winner_now(ip, s)
            s[S.S_TIE] = tie
            s[S.S_ADJ_FLAG] = 1 if adj else 0
            outcome = S.O_ADJACENT if adj else S.O_RED
            finish(s, outcome, w)
            B.log(ev, evn, S.EV_END, outcome, w, tie, 0, 0, 0, 0)
            L.log_table(ip, s, ev, evn)
            return
        s[S.S_ACTIVE] = (s[S.S_ACTIVE] + 1) % B.seats_of(ip)
    if s[TURN] >= ip[S.I_MAX_TURNS]:
        finish(s, S.O_CAP, -1)
        B.log(ev, evn, S.EV_CAP, s[TURN], 0, 0, 0, 0, 0, 0)
        L.log_table(ip, s, ev, evn)


@njit(cache=True, _nrt=False)
def run_game(ip, s, h, rng, ev, evn):
    stage = frame_get(s, 0)
    if stage == G_SETUP:
        frame_set(s, 0, G_TURNS)
        frame_push(s, S.PR_REVEAL)
        all_slots = (1 << ip[S.I_SLOTS]) - 1
        frame_set(s, 0, all_slots)
        return False
    if B.is_solo(ip):
        if stage == G_TURNS:  # WUC-SO-2: Cthulhu plays first, then the turns alternate
            frame_set(s, 0, G_PLAYER)
            frame_push(s, S.PR_SOLO_CTHULHU)
        else:
            frame_set(s, 0, G_TURNS)
            frame_push(s, S.PR_TURN)
        return False
    frame_push(s, S.PR_TURN)
    return False


@njit(cache=True, _nrt=False)
def run_turn(ip, s, h, rng, ev, evn):
    stage = frame_get(s, 0)
    p = s[S.S_ACTIVE]
    if stage == T_BEGIN:
        if s[S.S_FORCED] >= B.seats_of(ip) and ip[S.I_DEADLOCK_REFRESH] == 1 and not B.is_solo(ip):
            GR.refresh_grimoire(ip, s, ev, evn)  # then this turn begins (stage T_BEGIN again)
            return False
        start_turn(ip, s, h, rng, ev, evn)
        frame_set(s, 0, T_ACTION)
        frame_set(s, 1, 1)  # the turn's first action
        return False
    if stage == T_ACTION:
        if not LG.can_act(ip, s, h):
            B.log(ev, evn, S.EV_PASS, p, 0, 0, 0, 0, 0, 0)
            if frame_get(s, 1) == 1:  # nothing at all this turn
                s[S.S_FORCED] += 1
            frame_set(s, 0, T_END)
            return False
        ask(s, p, S.D_ACTION)
        return True
    if stage == T_REPLENISH:  # WUC-T-3
        pending = s[S.S_PENDING]
        s[S.S_PENDING] = 0
        frame_set(s, 0, T_AFTER)
        if pending != 0:
            frame_push(s, S.PR_REVEAL)
            frame_set(s, 0, pending)
        return False
    if stage == T_AFTER:  # WUC-T-6, WUC-T-7
        if s[S.S_CURSE_SEEN] == 1:
            frame_set(s, 0, T_END)
        elif s[S.S_EXTRA] > 0:
            s[S.S_EXTRA] -= 1
            frame_set(s, 0, T_ACTION)
        else:
            frame_set(s, 0, T_END)
        return False
    if stage == T_CLEARED:  # WUC-SO-7: after clearing four Objects the action is still to come
        frame_set(s, 0, T_END if s[S.S_CURSE_SEEN] == 1 else T_ACTION)
        return False
    frame_pop(s)  # T_END
    end_turn(ip, s, ev, evn)
    return False


@njit(cache=True, _nrt=False)
def run_action(ip, s, h, rng, ev, evn):
    stage = frame_get(s, 0)
    slot = frame_get(s, 1)
    mode = frame_get(s, 2)
    c = frame_get(s, 3)
    p = s[S.S_ACTIVE]
    if stage == AC_PAY:  # WUC-CJ-1, WUC-ADV-1: the cost first
        frame_set(s, 0, AC_RESOLVE)
        if mode < 0:
            o = S.I_ADV_SPEC + c * S.N_NATURAL
            CD.set_cost(s, ip[o], ip[o + 1], ip[o + 2], ip[o + 3], ip[S.I_ADV_X + c],
                     ip[S.I_ADV_ANY + c])
        elif mode & S.MODE_DAEMONUM:
            CD.set_cost(s, 0, 0, 0, 0, 0, ip[S.I_DAEMONUM_COST])
        else:
            o = S.I_COST_SPEC + c * S.N_NATURAL
            CD.set_cost(s, ip[o], ip[o + 1], ip[o + 2], ip[o + 3], ip[S.I_COST_X + c],
                     ip[S.I_COST_ANY + c])
        frame_push(s, S.PR_PAY)
        return False
    if stage == AC_RESOLVE:
        s[S.S_TOP + slot] = B.NO_CARD
        s[S.S_IN_PLAY] = c
        s[S.S_PENDING] |= 1 << slot
        if mode < 0:  # WUC-ADV-1: advance
            s[S.S_ADVANCED + c] += 1
            B.log(ev, evn, S.EV_ADVANCE, p, c, slot, ip[S.I_CANDLES + c], 0, 0, 0)
            frame_set(s, 0, AC_ADVANCED)
            frame_push(s, S.PR_ADVANCE)
            frame_set(s, 1, ip[S.I_CANDLES + c])
            return False
        s[S.S_CONJURED + c] += 1
        B.log(ev, evn, S.EV_CONJURE, p, c, slot, mode, 0, 0, 0)
        if mode & S.MODE_ULTHAR:
            CD.use_object(ip, s, p, S.O_ULTHAR, 0, ev, evn)
        if mode & S.MODE_DAEMONUM:
            CD.use_object(ip, s, p, S.O_DAEMONUM, 0, ev, evn)
        if GR.is_object(c):  # WUC-CJ-3: into the hand, usable from the next turn
            o = c - S.OBJ0
            s[S.S_OBJ + p * S.N_OBJECTS + o] += 1
            s[S.S_FRESH + p * S.N_OBJECTS + o] += 1
            s[S.S_IN_PLAY] = B.NO_CARD
            B.log(ev, evn, S.EV_OBJECT, p, c, 1, 0, 0, 0, 0)
            frame_pop(s)
            return False
        frame_set(s, 0, AC_SPELL_DONE)  # WUC-CJ-2: a Spell resolves at once
        times = 2 if mode & S.MODE_ULTHAR else 1
        frame_push(s, S.PR_EFFECT)
        frame_set(s, 0, ip[S.I_EFFECT + c])
        frame_set(s, 1, ip[S.I_AMOUNT + c] * times)
        return False
    # the card is done: to the Grimoire discard pile, and any further action it grants
    s[S.S_GDISCARD + c] += 1
    s[S.S_IN_PLAY] = B.NO_CARD
    if stage == AC_ADVANCED:
        s[S.S_EXTRA] += ip[S.I_ADVANCE_EXTRA]  # WUC-ADV-3
    else:
        times = 2 if (mode & S.MODE_ULTHAR and ip[S.I_ULTHAR_EXTRA] == 1) else 1
        s[S.S_EXTRA] += ip[S.I_EXTRA + c] * times
    frame_pop(s)
    return False


@njit(cache=True, _nrt=False)
def run_effect(ip, s, h, rng, ev, evn):
    effect = frame_get(s, 0)
    left = frame_get(s, 1)
    p = s[S.S_ACTIVE]
    if effect == S.EF_DRAW:  # WUC-SP-2, WUC-SP-4
        CD.draw_to(ip, s, h, rng, p, left, 1, ev, evn)
        frame_pop(s)
        return False
    if effect == S.EF_SWAP:  # WUC-SP-3, WUC-SP-6
        frame_pop(s)
        if B.is_solo(ip):  # WUC-SO-9: Cthulhu back and the player on, that many squares
            SO.solo_move(ip, s, 1, -left, 1, ev, evn)
            SO.solo_move(ip, s, 0, left, 1, ev, evn)
            return False
        frame_push(s, S.PR_SWAP)
        frame_set(s, 0, left)
        frame_set(s, 1, 0)
        frame_set(s, 3, -1)
        frame_set(s, 4, p)
        return False
    if left <= 0:
        frame_pop(s)
        return False
    if effect == S.EF_SEARCH:
        if s[S.S_DECK_N] == 0:
            CD.reshuffle_ingredients(ip, s, h, rng, ev, evn)
        kinds = CD.deck_kinds(s, h)
        if kinds == 0:
            frame_pop(s)
            return False
        if B.bits(kinds) == 1:
            CD.search_take(ip, s, h, rng, p, B.lowest(kinds), ev, evn)
            frame_set(s, 1, left - 1)
            return False
        ask(s, p, S.D_SEARCH)
        return True
    # EF_DISCARD, WUC-SP-5
    faceup = 0
    for i in range(ip[S.I_SLOTS]):
        if s[S.S_TOP + i] >= 0:
            faceup |= 1 << i
    if faceup == 0:
        frame_pop(s)
        return False
    if B.bits(faceup) == 1:
        GR.discard_faceup(ip, s, B.lowest(faceup), ev, evn)
        frame_set(s, 1, left - 1)
        return False
    ask(s, p, S.D_DISCARD)
    return True


@njit(cache=True, _nrt=False)
def run_swap(ip, s, ev, evn):
    """Swaps (WUC-SP-3, WUC-SP-6, WUC-CU-9): each pairs one of the seat's tokens with another
    player's, each token at most once; a single possible answer is not asked."""
    while True:
        left = frame_get(s, 0)
        optional = frame_get(s, 1)
        touched = frame_get(s, 2)
        chosen = frame_get(s, 3)
        p = frame_get(s, 4)
        if left <= 0:
            break
        own = s[S.S_OCC + p] & ~touched
        others = L.all_tokens(ip, s) & ~s[S.S_OCC + p] & ~touched
        if own == 0 or others == 0:
            break
        if chosen < 0:
            if optional == 0 and B.bits(own) == 1:
                frame_set(s, 3, B.lowest(own))
                continue
            ask(s, p, S.D_SWAP_OWN)
            return True
        if B.bits(others) == 1:
            do_swap(ip, s, B.lowest(others), ev, evn)
            continue
        ask(s, p, S.D_SWAP_OTHER)
        return True
    frame_pop(s)
    return False


@njit(cache=True, _nrt=False)
def do_swap(ip, s, r, ev, evn):
    q = frame_get(s, 3)
    L.swap_tokens(ip, s, q, r, 0 if frame_get(s, 1) == 0 else 1, ev, evn)
    frame_set(s, 2, frame_get(s, 2) | (1 << q) | (1 << r))
    frame_set(s, 0, frame_get(s, 0) - 1)
    frame_set(s, 3, -1)
    L.update_flags(ip, s)


@njit(cache=True, _nrt=False)
def run_advance(ip, s, rng, ev, evn):
    stage = frame_get(s, 0)
    p = s[S.S_ACTIVE]
    rt_after = ip[S.I_RT_AFTER_ACTION] == 1
    if stage == AD_PLACE:
        candles = frame_get(s, 1)
        if B.is_solo(ip):  # WUC-SO-5: the figure moves instead
            frame_pop(s)
            SO.solo_move(ip, s, 0, candles, 0, ev, evn)
            return False
        have = min(candles, s[S.S_RESERVE + p])
        placed = L.place_tokens(ip, s, p, have, 0, ev, evn)
        frame_set(s, 2, placed)
        frame_set(s, 3, candles - have)  # WUC-ADV-4: tokens the reserve cannot give
        frame_set(s, 0, AD_WINDOW1)
        return False
    placed = frame_get(s, 2)
    if stage == AD_WINDOW1:  # WUC-OB-2 (when it opens: NOTES.md)
        frame_set(s, 0, AD_SHORT)
        if placed > 0 and not rt_after:
            W.push_ran_tegoth(s, placed)
        return False
    if stage == AD_SHORT:  # WUC-ADV-4: for each missing token a swap and a step of Cthulhu
        short = frame_get(s, 3)
        if short <= 0:
            frame_set(s, 0, AD_WINDOW2)
            return False
        own = s[S.S_OCC + p]
        target = L.swap_target(ip, s, p)
        if own != 0 and target >= 0:
            if B.bits(own) > 1:
                ask(s, p, S.D_OUT_SWAP)
                return True
            out_swap(ip, s, B.lowest(own), ev, evn)
        else:
            frame_set(s, 3, short - 1)
            L.move_cthulhu(ip, s, 1, ev, evn)
        return False
    if stage == AD_WINDOW2:
        frame_set(s, 0, AD_DONE)
        if placed > 0 and rt_after:
            W.push_ran_tegoth(s, placed)
        return False
    frame_pop(s)
    return False


@njit(cache=True, _nrt=False)
def out_swap(ip, s, q, ev, evn):
    """WUC-ADV-4: the token on ``q`` changes places with the other players' token nearest the
    end of the line, then Cthulhu advances one position."""
    p = s[S.S_ACTIVE]
    r = L.swap_target(ip, s, p)
    L.swap_tokens(ip, s, q, r, 2, ev, evn)
    s[S.S_OUT_SWAPS] += 1
    frame_set(s, 3, frame_get(s, 3) - 1)
    L.update_flags(ip, s)
    L.move_cthulhu(ip, s, 1, ev, evn)
