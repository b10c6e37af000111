"""Wake Up, Cthulhu!: the rules, on the step contract (simcore/engine.py).

``init``, ``legal``, ``step``, ``observe``, ``determinize``, ``returns``, ``evaluate``, ``record``
and ``check`` are the engine's functions.  Clause IDs (WUC-*) are those of
``tests/clauses/wakeup.md``; readings of unclear text are in NOTES.md.

The rules are split by concern: ``base`` (bit helpers, the event log), ``line`` (the Summoning
Circle: placing, closing up, swapping, Cthulhu's steps, who wins), ``cards`` (Ingredients,
hands, payments, Objects), ``grimoire`` (the face-up slots, the piles, reveals and reshuffles),
``auctions`` (the Curse auctions and R'lyeh in them), ``windows`` (Ran-Tegoth and the R'lyeh
shield against C'thonian, and who is asked first), ``curses`` (a Curse turned up), ``solo``
(the solitaire game), ``turn`` (the game and the turn, actions and Spell effects), ``legality``
(every decision's legal answers), ``setup`` and ``checker`` (the conservation checks).

Every procedure that asks more than one question keeps its place in a frame (``PR_*`` of
state.py): a turn (replenish, actions, replenish the Grimoire), an action (pay, then resolve),
a payment (one question per card paid where there is a choice), a Spell's effect, the swaps,
the Grimoire's reveals (a Curse found there pushes a Curse frame), an auction (every bid, round
after round, and the R'lyeh windows), C'thonian (the R'lyeh shield window), the Ran-Tegoth
window (the other players, clockwise from the active one), and in solitaire Cthulhu's turn and
the Curse duel.  ``run`` carries the game on through every forced or chance step to the next
question; ``step`` applies an answer to the question on top and calls ``run``.

The Summoning Circle is one 64-bit word per seat (a bit per square); a hand, a bid, the discard
piles and Cthulhu's A positions are counts by kind; the Ingredients deck and the face-down
Grimoire piles are arrays in order (the hidden state).  Nothing is allocated per step.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simcore.engine import (
    DECISION,
    OUTCOME,
    PLAYING,
    SEAT,
    TURN,
    WINNER,
    drive,
    finish,
    frame_get,
    frame_pop,
    frame_proc,
    frame_push,
    frame_set,
    no_legal_bits,
)
from simcore.wakeup import auctions as AU
from simcore.wakeup import base as B
from simcore.wakeup import cards as CD
from simcore.wakeup import checker as CK
from simcore.wakeup import curses as CU
from simcore.wakeup import grimoire as GR
from simcore.wakeup import legality as LG
from simcore.wakeup import line as L
from simcore.wakeup import setup as SU
from simcore.wakeup import solo as SO
from simcore.wakeup import state as S
from simcore.wakeup import turn as T
from simcore.wakeup import windows as W


@njit(cache=True, _nrt=False)
def run(ip, s, h, rng, ev, evn):
    """Carry the game on to its next decision (or its end)."""
    while s[OUTCOME] == PLAYING:
        proc = frame_proc(s)
        if proc == S.PR_GAME:
            asked = T.run_game(ip, s, h, rng, ev, evn)
        elif proc == S.PR_TURN:
            asked = T.run_turn(ip, s, h, rng, ev, evn)
        elif proc == S.PR_ACTION:
            asked = T.run_action(ip, s, h, rng, ev, evn)
        elif proc == S.PR_PAY:
            asked = CD.run_pay(ip, s, h, ev, evn)
        elif proc == S.PR_EFFECT:
            asked = T.run_effect(ip, s, h, rng, ev, evn)
        elif proc == S.PR_ADVANCE:
            asked = T.run_advance(ip, s, rng, ev, evn)
        elif proc == S.PR_SWAP:
            asked = T.run_swap(ip, s, ev, evn)
        elif proc == S.PR_REVEAL:
            asked = GR.run_reveal(ip, s, h, rng, ev, evn)
        elif proc == S.PR_CURSE:
            asked = CU.run_curse(ip, s, h, rng, ev, evn)
        elif proc == S.PR_AUCTION:
            asked = AU.run_auction(ip, s, h, rng, ev, evn)
        elif proc == S.PR_CTHONIAN:
            asked = W.run_cthonian(ip, s, ev, evn)
        elif proc == S.PR_RAN_TEGOTH:
            asked = W.run_ran_tegoth(ip, s, ev, evn)
        elif proc == S.PR_SOLO_CTHULHU:
            asked = SO.run_solo_cthulhu(ip, s, h, rng, ev, evn)
        elif proc == S.PR_DUEL:
            asked = SO.run_duel(ip, s, h, rng, ev, evn)
        else:  # an empty stack: cannot happen while the game runs
            finish(s, S.O_CAP, -1)
            return
        if asked:
            return


@njit(cache=True)
def init(ip, fp, s, h, rng):
    SU.setup(ip, s, h, rng)
    run(ip, s, h, rng, np.zeros((0, 8), dtype=np.int64), np.zeros(1, dtype=np.int64))


@njit(cache=True, _nrt=False)
def legal(ip, fp, s, h, mask):
    return LG.legal_mask(ip, s, h, mask)


@njit(cache=True, _nrt=False)
def step(ip, fp, s, h, rng, action, ev, evn):
    d = s[DECISION]
    p = s[SEAT]
    a = action
    if d == S.D_ACTION:
        if a == S.A_STOP and frame_get(s, 1) == 1:
            s[S.S_FORCED] += 1  # no action this turn (may_pass): a deadlock round counts it
        else:
            s[S.S_FORCED] = 0  # someone acted
        frame_set(s, 1, 0)
        if a == S.A_STOP:
            B.log(ev, evn, S.EV_PASS, p, 1, 0, 0, 0, 0, 0)
            frame_set(s, 0, T.T_END)
        elif a == S.A_CLEAR:  # WUC-SO-7
            for i in range(ip[S.I_SLOTS]):
                c = s[S.S_TOP + i]
                s[S.S_GDISCARD + c] += 1
                s[S.S_TOP + i] = B.NO_CARD
            B.log(ev, evn, S.EV_CLEAR, p, 0, 0, 0, 0, 0, 0)
            frame_set(s, 0, T.T_CLEARED)
            frame_push(s, S.PR_REVEAL)
            frame_set(s, 0, (1 << ip[S.I_SLOTS]) - 1)
        else:
            frame_set(s, 0, T.T_REPLENISH)
            frame_push(s, S.PR_ACTION)
            if a >= S.A_ADVANCE:
                slot = a - S.A_ADVANCE
                mode = -1
            else:
                slot = (a - S.A_CONJURE) // 4
                mode = (a - S.A_CONJURE) % 4
            frame_set(s, 1, slot)
            frame_set(s, 2, mode)
            frame_set(s, 3, s[S.S_TOP + slot])
    elif d == S.D_PAY:
        CD.pay_unit(ip, s, h, a, ev, evn)
    elif d == S.D_SEARCH:
        CD.search_take(ip, s, h, rng, p, a, ev, evn)
        frame_set(s, 1, frame_get(s, 1) - 1)
    elif d == S.D_DISCARD:
        GR.discard_faceup(ip, s, a, ev, evn)
        frame_set(s, 1, frame_get(s, 1) - 1)
    elif d == S.D_SWAP_OWN:
        if a == S.A_SWAP_STOP:
            frame_set(s, 0, 0)
        else:
            frame_set(s, 3, a)
    elif d == S.D_SWAP_OTHER:
        T.do_swap(ip, s, a, ev, evn)
    elif d == S.D_OUT_SWAP:
        T.out_swap(ip, s, a, ev, evn)
    elif d == S.D_BID:
        if a == S.A_RLYEH:
            AU.rlyeh_wins(ip, s, h, p, 1, ev, evn)
        elif a == S.A_FOLD:
            s[S.S_AUC_FOLDED] |= 1 << p
            B.log(ev, evn, S.EV_FOLD, p, s[S.S_AUC_ROUND], 0, 0, 0, 0, 0)
            AU.next_bidder(ip, s)
        else:
            CD.take(s, h, p, a)
            h[S.H_BID + p * S.N_ING + a] += 1
            s[S.S_BID_N + p] += 1
            s[S.S_CARDS_BID] += 1
            B.log(ev, evn, S.EV_BID, p, a, s[S.S_AUC_ROUND], 0, 0, 0, 0)
            AU.next_bidder(ip, s)
    elif d == S.D_RLYEH_OPEN or d == S.D_RLYEH_LAST:
        if a == S.A_YES:
            AU.rlyeh_wins(ip, s, h, p, 0 if d == S.D_RLYEH_OPEN else 2, ev, evn)
        else:
            frame_set(s, 1, frame_get(s, 1) + 1)
    elif d == S.D_RAN_TEGOTH:
        if a == S.A_YES:
            amount = frame_get(s, 0)
            CD.use_object(ip, s, p, S.O_RAN_TEGOTH, 2, ev, evn)
            frame_pop(s)
            if B.is_solo(ip):
                B.log(ev, evn, S.EV_RAN_TEGOTH, p, amount, amount, 1, 0, 0, 0)
                SO.solo_move(ip, s, 0, amount, 4, ev, evn)
            else:
                placed = L.place_tokens(ip, s, p, amount, 2, ev, evn)
                s[S.S_RT_TOKENS] += placed
                B.log(ev, evn, S.EV_RAN_TEGOTH, p, placed, amount, 0, 0, 0, 0)
        else:
            frame_set(s, 1, frame_get(s, 1) + 1)
    elif d == S.D_SHIELD:
        if a == S.A_YES:
            frame_set(s, 1, frame_get(s, 1) | (1 << p))
            frame_set(s, 0, 0)
            CD.use_object(ip, s, p, S.O_RLYEH, 3, ev, evn)
            B.log(ev, evn, S.EV_RLYEH, p, 3, 0, 0, 0, 0, 0)
        else:
            frame_set(s, 0, frame_get(s, 0) + 1)
    elif d == S.D_YUG_PLACE:
        if a == S.A_YES:
            CU.yuggoth_place(ip, s, ev, evn)
        else:
            CU.yuggoth_decline(s)
    elif d == S.D_YUG_REPLACE:
        if a == S.A_SWAP_STOP:
            frame_set(s, 4, 0)
        else:
            CU.yuggoth_replace(ip, s, a, ev, evn)
    elif d == S.D_STAKE:
        if a == S.A_RLYEH:
            CD.use_object(ip, s, p, S.O_RLYEH, 4, ev, evn)
            B.log(ev, evn, S.EV_RLYEH, p, 4, 0, 0, 0, 0, 0)
            AU.discard_bids(ip, s, h, ev, evn)
            B.log(ev, evn, S.EV_DUEL, frame_get(s, 1), -1, -1, 0, 0, 0, 0)
            frame_set(s, 0, 2)
            frame_set(s, 2, 0)
        elif a == S.A_STAKE_DONE:
            frame_set(s, 0, 1)
        else:
            CD.take(s, h, p, a)
            h[S.H_BID + p * S.N_ING + a] += 1
            s[S.S_BID_N + p] += 1
            frame_set(s, 2, frame_get(s, 2) + 1)
            frame_set(s, 3, frame_get(s, 3) + ip[S.I_ING_VALUE + a])
            B.log(ev, evn, S.EV_BID, p, a, 0, 0, 0, 0, 0)
    run(ip, s, h, rng, ev, evn)


@njit(cache=True, _nrt=False)
def observe(ip, fp, s, h, seat, view):
    """What ``seat`` sees beyond the public state: its hand and its face-down bid, and the
    deck's contents while it searches it (WUC-SP-1)."""
    for k in range(view.shape[0]):
        view[k] = 0
    view[S.V_SEAT] = seat
    if seat < 0:
        return
    for k in range(S.N_ING):
        view[S.V_HAND + k] = h[S.H_HAND + seat * S.N_ING + k]
        view[S.V_BID + k] = h[S.H_BID + seat * S.N_ING + k]
    if s[DECISION] == S.D_SEARCH and s[SEAT] == seat:
        view[S.V_DECK_SEEN] = 1
        for i in range(s[S.S_DECK_N]):
            view[S.V_DECK + h[S.H_DECK + i]] += 1


@njit(cache=True, _nrt=False, forceinline=True)
def _hand_size(h, p):
    n = 0
    for k in range(S.N_ING):
        n += h[S.H_HAND + p * S.N_ING + k]
    return n


@njit(cache=True)
def determinize(ip, fp, s, view, seat, rng, h):
    """A hidden state consistent with what ``seat`` has seen, built from ``s`` and ``view``
    only: its own hand and bid as they are; every Ingredient it cannot see (the other hands,
    their face-down bids, the deck; the deck's contents stay as seen during a search) dealt
    at random into the places the public state says hold that many; the face-down Grimoire
    (every card neither face up, discarded, owned, held nor in play) dealt at random into the
    piles.  A seat's memory of past events (the deck it saw while searching before) is not
    used."""
    n = B.seats_of(ip)
    for k in range(h.shape[0]):
        h[k] = 0
    deck_seen = view[S.V_DECK_SEEN] == 1
    # the Ingredients the seat cannot see, in a row at H_DECK, shuffled
    m = 0
    for k in range(S.N_ING):
        unseen = ip[S.I_ING_COUNT + k] - s[S.S_IDISCARD + k] - view[S.V_HAND + k] - \
            view[S.V_BID + k]
        for i in range(S.A_POSITIONS):
            if k == S.WILD:
                unseen -= s[S.S_A_WILD + i]
            elif s[S.S_A_KIND + i] == k:
                unseen -= s[S.S_A_NAT + i]
        if deck_seen:
            unseen -= view[S.V_DECK + k]
        for _ in range(unseen):
            h[S.H_DECK + m] = k
            m += 1
        h[S.H_HAND + seat * S.N_ING + k] = view[S.V_HAND + k]
        h[S.H_BID + seat * S.N_ING + k] = view[S.V_BID + k]
    B.shuffle_at(rng, h, S.H_DECK, m)
    top = m  # dealt from the end of the row: the other hands and bids, the rest is the deck
    for p in range(n):
        if p == seat:
            continue
        for _ in range(s[S.S_HAND_N + p] + s[S.S_BID_N + p]):
            if top == 0:
                break
            top -= 1
            k = h[S.H_DECK + top]
            h[S.H_DECK + top] = 0
            if s[S.S_HAND_N + p] > 0 and \
                    _hand_size(h, p) < s[S.S_HAND_N + p]:
                h[S.H_HAND + p * S.N_ING + k] += 1
            else:
                h[S.H_BID + p * S.N_ING + k] += 1
    if deck_seen:
        d = 0
        for k in range(S.N_ING):
            for _ in range(view[S.V_DECK + k]):
                h[S.H_DECK + d] = k
                d += 1
        B.shuffle_at(rng, h, S.H_DECK, d)
    # the face-down Grimoire: every card not accounted for in public
    g = 0
    for c in range(S.N_CARDS):
        left = ip[S.I_COPIES + c] - s[S.S_GDISCARD + c]
        for i in range(ip[S.I_SLOTS]):
            if s[S.S_TOP + i] == c:
                left -= 1
        if s[S.S_IN_PLAY] == c:
            left -= 1
        if S.OBJ0 <= c < S.CURSE0:
            for p in range(S.MAX_SEATS):
                left -= s[S.S_OBJ + p * S.N_OBJECTS + c - S.OBJ0]
        if c == S.C_STELLARIS:
            for p in range(S.MAX_SEATS + 1):
                left -= s[S.S_STELLARIS + p]
        for _ in range(left):
            h[GR.SCRATCH + g] = c
            g += 1
    B.shuffle_at(rng, h, GR.SCRATCH, g)
    GR.deal_stacks(ip, s, h, g)


@njit(cache=True, _nrt=False)
def returns(ip, fp, s, out):
    """A win is 1, every other seat 0; a game with no winner gives each seat 0."""
    w = s[WINNER]
    for k in range(out.shape[0]):
        out[k] = 1.0 if k == w else 0.0


@njit(cache=True, _nrt=False)
def evaluate(ip, fp, s, out):
    """An estimate for an unfinished game: each seat's share of the tokens on the board
    (solitaire: how far the figure is along its path against Cthulhu's)."""
    if s[OUTCOME] != PLAYING:
        returns(ip, fp, s, out)
        return
    n = B.seats_of(ip)
    if B.is_solo(ip):
        mine = s[S.S_SOLO_POS] / max(ip[S.I_SOLO_PATH_C] - 1, 1)
        theirs = s[S.S_CTHULHU] / max(ip[S.I_SOLO_PATH_D] - 1, 1)
        out[0] = min(max(0.5 + 0.5 * (mine - theirs), 0.0), 1.0)
        return
    total = 0
    for p in range(n):
        total += B.bits(s[S.S_OCC + p])
    for p in range(out.shape[0]):
        if p >= n:
            out[p] = 0.0
        elif total == 0:
            out[p] = 1.0 / n
        else:
            out[p] = (B.bits(s[S.S_OCC + p]) + 0.5) / (total + 0.5 * n)


@njit(cache=True, _nrt=False)
def record(ip, fp, s, h, rec):
    for k in range(rec.shape[0]):
        rec[k] = 0
    rec[S.R_OUTCOME] = s[OUTCOME]
    rec[S.R_WINNER] = s[WINNER]
    rec[S.R_TURNS] = s[TURN]
    rec[S.R_ROUNDS] = s[S.S_ROUND]
    rec[S.R_END_ADJ] = 1 if (s[OUTCOME] == S.O_ADJACENT) else 0
    rec[S.R_END_RED] = s[S.S_RED_FLAG] if s[OUTCOME] in (S.O_ADJACENT, S.O_RED) else 0
    rec[S.R_TIE] = s[S.S_TIE]
    rec[S.R_CTHULHU_POS] = s[S.S_CTHULHU]
    rec[S.R_CTHULHU_MOVES] = s[S.S_CTHULHU_MOVES]
    for p in range(S.MAX_SEATS):
        rec[S.R_TOKENS + p] = B.bits(s[S.S_OCC + p])
        rec[S.R_AUCT_WON + p] = s[S.S_AUCT_WON + p]
    rec[S.R_AUCTIONS] = s[S.S_AUCTIONS]
    rec[S.R_RLYEH_AUCT] = s[S.S_RLYEH_AUCT]
    for k in range(3):
        rec[S.R_CURSES + k] = s[S.S_CURSES + k]
    for c in range(S.CURSE0):
        rec[S.R_CONJURED + c] = s[S.S_CONJURED + c]
    for c in range(S.OBJ0):
        rec[S.R_ADVANCED + c] = s[S.S_ADVANCED + c]
    for o in range(S.N_OBJECTS):
        rec[S.R_PLAYED + o] = s[S.S_PLAYED + o]
    rec[S.R_SWAPS] = s[S.S_SWAPS]
    rec[S.R_RETURNED] = s[S.S_RETURNED]
    rec[S.R_OUT_SWAPS] = s[S.S_OUT_SWAPS]
    rec[S.R_RT_TOKENS] = s[S.S_RT_TOKENS]
    rec[S.R_G_SHUFFLES] = s[S.S_G_SHUFFLES]
    rec[S.R_I_SHUFFLES] = s[S.S_I_SHUFFLES]
    rec[S.R_CARDS_BID] = s[S.S_CARDS_BID]
    rec[S.R_SOLO_POS] = s[S.S_SOLO_POS]
    rec[S.R_SOLO_DUELS] = s[S.S_DUELS_WON]
    rec[S.R_REFRESHES] = s[S.S_REFRESHES]


@njit(cache=True, _nrt=False)
def check(ip, fp, s, h):
    """The rules checker (``checker.errors``): the number of problems found in a state."""
    return CK.errors(ip, s, h)


@njit(cache=True)
def play_one(g, ip, fp, pol, sps, seat_pol, search, rpol, rsp, qp, seed, index, s, h, view,
             mask, rng, srng, qrng, wi, wf, rec, ev, evn):
    """The engine's driver compiled for this game (its calls to ``legal``, ``observe`` and
    ``step`` direct, not through function values)."""
    drive(init, legal, no_legal_bits, step, observe, record, g, ip, fp, pol, sps, seat_pol,
          search, rpol, rsp, qp, seed, index, s, h, view, mask, rng, srng, qrng, wi, wf, rec, ev,
          evn)
