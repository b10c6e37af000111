"""Wake Up, Cthulhu!: the solitaire game: the two figures on their paths (WUC-SO-12), Cthulhu's
turn with its A positions (WUC-SO-3, WUC-SO-4) and the Curse duel (WUC-SO-10, WUC-SO-11).
"""

from __future__ import annotations

from numba import njit

from simcore.engine import OUTCOME, PLAYING, TURN, ask, finish, frame_get, frame_pop, frame_set
from simcore.wakeup import auctions as AU
from simcore.wakeup import base as B
from simcore.wakeup import cards as CD
from simcore.wakeup import line as L
from simcore.wakeup import state as S
from simcore.wakeup import windows as W


@njit(cache=True, _nrt=False)
def solo_move(ip, s, who, n, why, ev, evn):
    """Move the player's figure (``who`` 0) or Cthulhu's (1) ``n`` squares (back when negative,
    never before the first square); WUC-SO-12: reaching the Portal ends the game at once."""
    if s[OUTCOME] != PLAYING:
        return
    k = S.S_SOLO_POS if who == 0 else S.S_CTHULHU
    before = s[k]
    s[k] = max(before + n, 0)
    if s[k] != before:
        B.log(ev, evn, S.EV_SOLO_MOVE, who, before, s[k], why, 0, 0, 0)
    if who == 0 and s[k] >= ip[S.I_SOLO_PATH_C] - 1:
        s[k] = ip[S.I_SOLO_PATH_C] - 1
        finish(s, S.O_PORTAL_PLAYER, 0)
        B.log(ev, evn, S.EV_END, S.O_PORTAL_PLAYER, 0, 0, 0, 0, 0, 0)
        L.log_table(ip, s, ev, evn)
    elif who == 1 and s[k] >= ip[S.I_SOLO_PATH_D] - 1:
        s[k] = ip[S.I_SOLO_PATH_D] - 1
        finish(s, S.O_PORTAL_CTHULHU, -1)
        B.log(ev, evn, S.EV_END, S.O_PORTAL_CTHULHU, -1, 0, 0, 0, 0, 0)
        L.log_table(ip, s, ev, evn)


@njit(cache=True, _nrt=False)
def run_solo_cthulhu(ip, s, h, rng, ev, evn):
    """WUC-SO-3, WUC-SO-4: Cthulhu's turn."""
    if frame_get(s, 0) == 1:
        frame_pop(s)
        return False
    s[S.S_ROUND] += 1
    B.log(ev, evn, S.EV_TURN, s[TURN], -1, s[S.S_ROUND], 0, 0, 0, 0)
    draws = ip[S.I_SOLO_DRAW] + s[S.S_STELLARIS + S.MAX_SEATS] * ip[S.I_STELLARIS_CARDS]
    for _ in range(draws):
        k = CD.draw_card(ip, s, h, rng, ev, evn)
        if k < 0:
            break
        pos = 0  # the wild: the position closest to Path C
        if k != S.WILD:
            pos = -1
            for i in range(S.A_POSITIONS):
                if s[S.S_A_KIND + i] == k:
                    pos = i
                    break
            if pos < 0:
                for i in range(S.A_POSITIONS):
                    if s[S.S_A_KIND + i] < 0:
                        pos = i
                        break
            s[S.S_A_KIND + pos] = k
            s[S.S_A_NAT + pos] += 1
        else:
            s[S.S_A_WILD + pos] += 1
        B.log(ev, evn, S.EV_SOLO_A, k, pos, s[S.S_A_NAT + pos] + s[S.S_A_WILD + pos], 0, 0, 0, 0)
    moved = 0
    for i in range(S.A_POSITIONS):
        cnt = s[S.S_A_NAT + i] + s[S.S_A_WILD + i]
        m = 0
        if cnt >= ip[S.I_SOLO_BIG]:
            m = ip[S.I_SOLO_BIG_MOVE]
        elif cnt >= ip[S.I_SOLO_SMALL]:
            m = ip[S.I_SOLO_SMALL_MOVE]
        else:
            continue
        if s[S.S_A_KIND + i] >= 0:
            s[S.S_IDISCARD + s[S.S_A_KIND + i]] += s[S.S_A_NAT + i]
        s[S.S_IDISCARD + S.WILD] += s[S.S_A_WILD + i]
        s[S.S_A_NAT + i] = 0
        s[S.S_A_WILD + i] = 0
        s[S.S_A_KIND + i] = -1
        moved += m
    s[S.S_CTHULHU_MOVES] += moved
    solo_move(ip, s, 1, moved, 0, ev, evn)
    frame_set(s, 0, 1)
    if s[OUTCOME] == PLAYING and moved > 0 and ip[S.I_SOLO_RAN_TEGOTH] == 1:
        W.push_ran_tegoth(s, moved)  # (assumed, switch solo_ran_tegoth: the text has no such use)
    return False


@njit(cache=True, _nrt=False)
def run_duel(ip, s, h, rng, ev, evn):
    """WUC-SO-10, WUC-SO-11: the player sets cards aside, Cthulhu draws as many; the higher
    total takes the Curse's benefit, Cthulhu on a tie."""
    stage = frame_get(s, 0)
    c = frame_get(s, 1)
    if stage == 0:
        ask(s, 0, S.D_STAKE)
        return True
    if stage == 1:
        n = frame_get(s, 2)
        theirs = 0
        for _ in range(n):
            k = CD.draw_card(ip, s, h, rng, ev, evn)
            if k < 0:
                break
            theirs += ip[S.I_ING_VALUE + k]
            s[S.S_IDISCARD + k] += 1
        mine = frame_get(s, 3)
        w = 0 if mine > theirs else 1
        B.log(ev, evn, S.EV_DUEL, c, mine, theirs, w, 0, 0, 0)
        AU.discard_bids(ip, s, h, ev, evn)
        frame_set(s, 0, 2)
        frame_set(s, 2, w)
        return False
    # stage 2: the benefit (winner in local 2: 0 the player, 1 Cthulhu)
    w = frame_get(s, 2)
    s[S.S_DUEL_CARD] = -1
    if w == 0:
        s[S.S_DUELS_WON] += 1
    frame_pop(s)
    if c == S.C_STELLARIS:
        s[S.S_STELLARIS + (0 if w == 0 else S.MAX_SEATS)] += 1
        s[S.S_IN_PLAY] = B.NO_CARD
        B.log(ev, evn, S.EV_STELLARIS, 0 if w == 0 else S.MAX_SEATS, 0, 0, 0, 0, 0, 0)
    elif c == S.C_YUGGOTH:
        solo_move(ip, s, w, ip[S.I_SOLO_YUG_PLACE] + ip[S.I_SOLO_YUG_SWAP], 3, ev, evn)
        solo_move(ip, s, 1 - w, -ip[S.I_SOLO_YUG_SWAP], 3, ev, evn)
    else:
        solo_move(ip, s, w, ip[S.I_SOLO_CTH_MOVE], 3, ev, evn)
        solo_move(ip, s, 1 - w, -ip[S.I_SOLO_CTH_MOVE], 3, ev, evn)
    return False
