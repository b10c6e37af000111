"""Wake Up, Cthulhu!: a Curse turned up (WUC-CU-1..9): Cthulhu moves, then Stellaris Seminum
and Yuggoth are auctioned and C'thonian returns tokens; in solitaire the Curse is duelled.
"""

from __future__ import annotations

from numba import njit

from simcore.engine import ask, frame_get, frame_pop, frame_push, frame_set
from simcore.wakeup import auctions as AU
from simcore.wakeup import base as B
from simcore.wakeup import line as L
from simcore.wakeup import solo as SO
from simcore.wakeup import state as S
from simcore.wakeup import windows as W

# PR_CURSE stages (locals: 0 stage, 1 the Curse, 2 its slot, then the tokens Yuggoth placed,
# 3 Yuggoth's winner, 4 replacements left)
CU_START, CU_STELLARIS, CU_DISCARD, CU_YUGGOTH, CU_YUG_SWAP, CU_YUG_WINDOW, CU_SOLO = range(7)
CU_YUG_ASKED, CU_YUG_REPLACE = 7, 8


@njit(cache=True, _nrt=False)
def yuggoth_place(ip, s, ev, evn):
    """WUC-CU-9: Yuggoth's winner (local 3) places its two tokens (as far as its reserve goes);
    the Ran-Tegoth window opens when the active player placed them (WUC-OB-2)."""
    w = frame_get(s, 3)
    placed = L.place_tokens(ip, s, w, ip[S.I_YUG_PLACE], 1, ev, evn)
    frame_set(s, 2, placed)
    frame_set(s, 0, CU_YUG_SWAP)
    if w == s[S.S_ACTIVE] and placed > 0 and ip[S.I_RT_AFTER_ACTION] == 0:
        W.push_ran_tegoth(s, placed)


@njit(cache=True, _nrt=False)
def yuggoth_decline(s):
    """The winner places no token ("can place", switch ``yuggoth_placement``)."""
    frame_set(s, 2, 0)
    frame_set(s, 0, CU_YUG_SWAP)


@njit(cache=True, _nrt=False)
def yuggoth_replace(ip, s, q, ev, evn):
    """WUC-CU-9, the replacement reading: the other player's token on ``q`` goes back to its
    reserve and one from the winner's reserve takes its square."""
    w = frame_get(s, 3)
    o = L.owner(ip, s, q)
    b = 1 << q
    s[S.S_OCC + o] &= ~b
    s[S.S_RESERVE + o] += 1
    s[S.S_OCC + w] |= b
    s[S.S_RESERVE + w] -= 1
    s[S.S_SWAPS] += 1
    frame_set(s, 4, frame_get(s, 4) - 1)
    B.log(ev, evn, S.EV_REPLACE, w, q, o, 0, 0, 0, 0)


@njit(cache=True, _nrt=False)
def can_place(ip, s, p):
    """Seat ``p`` has a token in reserve and an empty square before Cthulhu to put it on."""
    free = L.span(ip[S.I_START], s[S.S_CTHULHU]) & ~L.all_tokens(ip, s)
    return s[S.S_RESERVE + p] > 0 and free != 0


@njit(cache=True, _nrt=False)
def run_curse(ip, s, h, rng, ev, evn):
    stage = frame_get(s, 0)
    c = frame_get(s, 1)
    if stage == CU_START:
        s[S.S_CURSES + c - S.CURSE0] += 1
        B.log(ev, evn, S.EV_CURSE, c, frame_get(s, 2), 0, 0, 0, 0, 0)
        if B.is_solo(ip):
            frame_set(s, 0, CU_SOLO)
            if ip[S.I_SOLO_CURSE_MOVE] == 1:
                SO.solo_move(ip, s, 1, 1, 2, ev, evn)
            frame_push(s, S.PR_DUEL)
            frame_set(s, 1, c)
            frame_set(s, 4, 1 if c == S.C_CTHONIAN else 0)  # WUC-SO-11
            s[S.S_DUEL_CARD] = c
            return False
        L.move_cthulhu(ip, s, ip[S.I_CURSE_MOVES], ev, evn)  # WUC-CU-1: Cthulhu first
        if c == S.C_STELLARIS:  # WUC-CU-7
            frame_set(s, 0, CU_STELLARIS)
            AU.start_auction(s, c)
        elif c == S.C_CTHONIAN:  # WUC-CU-8
            frame_set(s, 0, CU_DISCARD)
            frame_push(s, S.PR_CTHONIAN)
        else:  # WUC-CU-9
            frame_set(s, 0, CU_YUGGOTH)
            AU.start_auction(s, c)
        return False
    if stage == CU_STELLARIS:
        w = s[S.S_AUC_WINNER]
        s[S.S_IN_PLAY] = B.NO_CARD
        if w >= 0:  # kept in front of its winner for the rest of the game
            s[S.S_STELLARIS + w] += 1
            B.log(ev, evn, S.EV_STELLARIS, w, s[S.S_STELLARIS + w], 0, 0, 0, 0, 0)
        else:
            s[S.S_GDISCARD + c] += 1
            B.log(ev, evn, S.EV_STELLARIS, -1, 0, 0, 0, 0, 0, 0)
        frame_pop(s)
        return False
    if stage == CU_YUGGOTH:
        w = s[S.S_AUC_WINNER]
        if w < 0:
            frame_set(s, 0, CU_DISCARD)
            return False
        frame_set(s, 3, w)
        if ip[S.I_YUG_OPTIONAL] == 1 and ip[S.I_YUG_PLACE] > 0 and can_place(ip, s, w):
            frame_set(s, 0, CU_YUG_ASKED)  # "can place": the winner chooses
            ask(s, w, S.D_YUG_PLACE)
            return True
        yuggoth_place(ip, s, ev, evn)
        return False
    if stage == CU_YUG_SWAP and ip[S.I_YUG_REPLACE] == 1:
        frame_set(s, 0, CU_YUG_REPLACE)
        frame_set(s, 4, ip[S.I_YUG_SWAP])
        return False
    if stage == CU_YUG_REPLACE:  # "replaces two of Anthony's for two from his own reserve"
        w = frame_get(s, 3)
        others = L.all_tokens(ip, s) & ~s[S.S_OCC + w]
        if frame_get(s, 4) > 0 and others != 0 and s[S.S_RESERVE + w] > 0:
            ask(s, w, S.D_YUG_REPLACE)
            return True
        frame_set(s, 0, CU_YUG_WINDOW)
        return False
    if stage == CU_YUG_SWAP:
        frame_set(s, 0, CU_YUG_WINDOW)
        frame_push(s, S.PR_SWAP)  # "he or she can swap": optional
        frame_set(s, 0, ip[S.I_YUG_SWAP])
        frame_set(s, 1, 1)
        frame_set(s, 3, -1)
        frame_set(s, 4, B.parent_local(s, 3))
        return False
    if stage == CU_YUG_WINDOW:
        frame_set(s, 0, CU_DISCARD)
        w = frame_get(s, 3)
        placed = frame_get(s, 2)
        if w == s[S.S_ACTIVE] and placed > 0 and ip[S.I_RT_AFTER_ACTION] == 1:
            W.push_ran_tegoth(s, placed)
        return False
    # CU_DISCARD and CU_SOLO: the Curse goes to the discard pile (a Stellaris Seminum won in a
    # solitaire duel has been kept)
    if s[S.S_IN_PLAY] == c:
        s[S.S_GDISCARD + c] += 1
        s[S.S_IN_PLAY] = B.NO_CARD
    frame_pop(s)
    return False
