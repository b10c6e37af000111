"""Wake Up, Cthulhu!: the auction for a Curse (WUC-CU-3..6): sealed bids round after round from
the active player clockwise, R'lyeh before the first bid or instead of one (WUC-OB-4), the
winner by total value, then fewest cards, then drawn cards; every bid card to the discard
pile.
"""

from __future__ import annotations

from numba import njit

from simcore.engine import ask, frame_get, frame_pop, frame_push, frame_set
from simcore.wakeup import base as B
from simcore.wakeup import cards as CD
from simcore.wakeup import state as S
from simcore.wakeup import windows as W

AU_OPEN, AU_BID, AU_LAST, AU_RESOLVE = 0, 1, 2, 3  # PR_AUCTION stages


@njit(cache=True, _nrt=False)
def start_auction(s, c):
    s[S.S_AUC_CURSE] = c
    s[S.S_AUC_ROUND] = 0
    s[S.S_AUC_FOLDED] = 0
    s[S.S_AUC_WINNER] = -1
    s[S.S_AUCTIONS] += 1
    frame_push(s, S.PR_AUCTION)


@njit(cache=True, _nrt=False)
def discard_bids(ip, s, h, ev, evn):
    """WUC-CU-6: every bid Ingredient to the discard pile (face up: everyone sees them)."""
    for p in range(B.seats_of(ip)):
        for k in range(S.N_ING):
            m = h[S.H_BID + p * S.N_ING + k]
            if m > 0:
                B.log(ev, evn, S.EV_REVEAL_BIDS, p, k, m, 0, 0, 0, 0)
                s[S.S_IDISCARD + k] += m
                h[S.H_BID + p * S.N_ING + k] = 0
        s[S.S_BID_N + p] = 0


@njit(cache=True, _nrt=False)
def auction_winner(ip, s, h, rng, ev, evn):
    """WUC-CU-4, WUC-CU-5: the highest total of sacrifice values; ties: the fewest cards in
    hand, then each tied player draws an Ingredient and the highest value wins, again until
    one is left (the cards drawn are discarded).  -1 when nobody bid."""
    n = B.seats_of(ip)
    active = s[S.S_ACTIVE]
    best = -1
    cands = 0
    tot0 = -1
    tot1 = -1
    tot2 = -1
    tot3 = -1
    for p in range(n):
        if s[S.S_BID_N + p] == 0:
            continue
        t = 0
        for k in range(S.N_ING):
            t += h[S.H_BID + p * S.N_ING + k] * ip[S.I_ING_VALUE + k]
        if p == 0:
            tot0 = t
        elif p == 1:
            tot1 = t
        elif p == 2:
            tot2 = t
        else:
            tot3 = t
        if t > best:
            best = t
            cands = 1 << p
        elif t == best:
            cands |= 1 << p
    if cands == 0:
        B.log(ev, evn, S.EV_AUCTION, -1, s[S.S_AUC_CURSE], tot0, tot1, tot2, tot3, 0)
        return -1
    if B.bits(cands) > 1:
        fewest = 1 << 30
        few = 0
        for p in range(n):
            if (cands >> p) & 1:
                held = s[S.S_HAND_N + p]
                if ip[S.I_TIE_INGREDIENTS] == 0:
                    for o in range(S.N_OBJECTS):
                        held += s[S.S_OBJ + p * S.N_OBJECTS + o]
                if held < fewest:
                    fewest = held
                    few = 1 << p
                elif held == fewest:
                    few |= 1 << p
        cands = few
    guard = 0
    while B.bits(cands) > 1 and guard < 64:
        guard += 1
        top = -1
        next_c = 0
        for k in range(n):
            p = (active + k) % n
            if not (cands >> p) & 1:
                continue
            card = CD.draw_card(ip, s, h, rng, ev, evn)
            v = -1
            if card >= 0:
                v = ip[S.I_ING_VALUE + card]
                s[S.S_IDISCARD + card] += 1
                B.log(ev, evn, S.EV_TIE_DRAW, p, card, 0, 0, 0, 0, 0)
            if v > top:
                top = v
                next_c = 1 << p
            elif v == top:
                next_c |= 1 << p
        cands = next_c
        if top < 0:
            break  # no card left to draw: the first tied player in turn order
    w = -1
    for k in range(n):
        p = (active + k) % n
        if (cands >> p) & 1:
            w = p
            break
    B.log(ev, evn, S.EV_AUCTION, w, s[S.S_AUC_CURSE], tot0, tot1, tot2, tot3, 0)
    return w


@njit(cache=True, _nrt=False)
def rlyeh_wins(ip, s, h, p, how, ev, evn):
    """WUC-OB-4: R'lyeh wins the auction at once; the Ingredients bid are discarded."""
    CD.use_object(ip, s, p, S.O_RLYEH, 1, ev, evn)
    B.log(ev, evn, S.EV_RLYEH, p, how, 0, 0, 0, 0, 0)
    discard_bids(ip, s, h, ev, evn)
    s[S.S_AUC_WINNER] = p
    s[S.S_AUCT_WON + p] += 1
    s[S.S_RLYEH_AUCT] += 1
    s[S.S_AUC_CURSE] = -1
    frame_pop(s)


@njit(cache=True, _nrt=False)
def run_auction(ip, s, h, rng, ev, evn):
    """WUC-CU-3: from the active player clockwise, round after round, until all have folded."""
    n = B.seats_of(ip)
    active = s[S.S_ACTIVE]
    stage = frame_get(s, 0)
    k = frame_get(s, 1)
    if stage == AU_OPEN or stage == AU_LAST:
        while k < n:  # WUC-CJ-5: the holders nearest the active player first
            p = W.nearest(ip, s, k)
            if CD.can_use(ip, s, p, S.O_RLYEH):
                frame_set(s, 1, k)
                ask(s, p, S.D_RLYEH_OPEN if stage == AU_OPEN else S.D_RLYEH_LAST)
                return True
            k += 1
        frame_set(s, 1, 0)
        if stage == AU_OPEN:
            frame_set(s, 0, AU_BID)
            s[S.S_AUC_ROUND] = 1
        else:
            frame_set(s, 0, AU_RESOLVE)
        return False
    if stage == AU_BID:
        everyone = (1 << n) - 1
        while s[S.S_AUC_FOLDED] != everyone:
            p = (active + k) % n
            if not (s[S.S_AUC_FOLDED] >> p) & 1:
                if s[S.S_HAND_N + p] == 0:
                    s[S.S_AUC_FOLDED] |= 1 << p
                    B.log(ev, evn, S.EV_FOLD, p, s[S.S_AUC_ROUND], 0, 0, 0, 0, 0)
                else:
                    frame_set(s, 1, k)
                    ask(s, p, S.D_BID)
                    return True
            k += 1
            if k == n:
                k = 0
                s[S.S_AUC_ROUND] += 1
        frame_set(s, 1, 0)
        frame_set(s, 0, AU_LAST if ip[S.I_RLYEH_LAST] == 1 else AU_RESOLVE)
        return False
    w = auction_winner(ip, s, h, rng, ev, evn)
    discard_bids(ip, s, h, ev, evn)
    s[S.S_AUC_WINNER] = w
    if w >= 0:
        s[S.S_AUCT_WON + w] += 1
    s[S.S_AUC_CURSE] = -1
    frame_pop(s)
    return False


@njit(cache=True, _nrt=False)
def next_bidder(ip, s):
    k = frame_get(s, 1) + 1
    if k == B.seats_of(ip):
        k = 0
        s[S.S_AUC_ROUND] += 1
    frame_set(s, 1, k)
