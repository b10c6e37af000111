"""Tiny Epic Cthulhu: Page cards, the Necronomicon and the flip to phase two (TEC-MV-4,
TEC-TR-*).

The deck order and the faces of face-down cards are the hidden state ``h``; a card's cost,
page numbers and runes are copied into the public state when it is turned face up.
"""

from __future__ import annotations

from numba import njit

from simcore.engine import TURN
from simcore.tec import state as S


@njit(cache=True, _nrt=False, forceinline=True)
def show_page(s, t, card, ip):
    """Town t's Page card becomes face-up: copy its cost, numbers and runes into view."""
    o = S.town(t)
    s[o + S.T_PAGE] = card
    s[o + S.T_PAGE_STATE] = 1
    for k in range(3):
        s[o + S.T_PCOST + k] = ip[S.I_PAGE_COST + card * 3 + k]
        s[o + S.T_PTOK + k] = ip[S.I_PAGE_TOK + card * 3 + k]
        s[o + S.T_PRUNE + k] = ip[S.I_PAGE_RUNE + card * 3 + k]


@njit(cache=True, _nrt=False)
def deal_page(s, h, t):
    """A face-down Page card from the deck goes beside Town t (none when the deck is empty)."""
    o = S.town(t)
    for k in range(3):
        s[o + S.T_PCOST + k] = 0
        s[o + S.T_PTOK + k] = 0
        s[o + S.T_PRUNE + k] = 0
    s[o + S.T_PAGE] = -1
    if s[S.S_DECK_LEFT] <= 0:
        s[o + S.T_PAGE_STATE] = -1
        h[S.H_DOWN + t] = -1
        return
    top = h[S.H_DECK_TOP]
    h[S.H_DOWN + t] = h[S.H_DECK + top]
    h[S.H_DECK_TOP] = top + 1
    s[S.S_DECK_LEFT] -= 1
    s[o + S.T_PAGE_STATE] = 0


@njit(cache=True, _nrt=False)
def flip_page(s, h, t, ip, ev, evn):
    """TEC-MV-4: reveal the face-down Page card beside Town t."""
    o = S.town(t)
    if s[o + S.T_PAGE_STATE] != 0:
        return
    card = h[S.H_DOWN + t]
    h[S.H_DOWN + t] = -1
    show_page(s, t, card, ip)
    s[S.S_CNT_FLIPS] += 1
    S.log(ev, evn, S.EV_FLIP, t, card, 0, 0, 0, 0, 0)


@njit(cache=True, _nrt=False, forceinline=True)
def place_page_token(s, number, ip, ev, evn):
    """TEC-TR-2 / TEC-TR-3: a Page token on the left-most free space of row ``number``; a row
    or column completed releases its Chaos tentacle to the Discard mat.  A number whose row is
    already full places nothing (its token stays in the pile).  Returns 1 if placed."""
    r = number - 1
    cols = ip[S.I_COLS]
    if s[S.S_NECRO_ROW + r] >= cols or s[S.S_PAGE_PILE] <= 0:
        return 0
    s[S.S_NECRO_ROW + r] += 1
    s[S.S_PAGE_PILE] -= 1
    s[S.S_PAGES_PLACED] += 1
    col = s[S.S_NECRO_ROW + r] - 1
    if s[S.S_NECRO_ROW + r] == cols and s[S.S_NECRO_ROW_CHAOS + r] > 0:
        s[S.S_NECRO_ROW_CHAOS + r] = 0
        s[S.S_DISC_CHAOS] += 1
        S.log(ev, evn, S.EV_LINE_DONE, 0, r, 0, 0, 0, 0, 0)
    done = True
    for rr in range(ip[S.I_ROWS]):
        if s[S.S_NECRO_ROW + rr] <= col:
            done = False
            break
    if done and s[S.S_NECRO_COL_CHAOS + col] > 0:
        s[S.S_NECRO_COL_CHAOS + col] = 0
        s[S.S_DISC_CHAOS] += 1
        S.log(ev, evn, S.EV_LINE_DONE, 1, col, 0, 0, 0, 0, 0)
    return 1


@njit(cache=True, _nrt=False, forceinline=True)
def enter_phase_two(s, ip, ev, evn):
    """TEC-TR-6: flip the Great Old One mat: the new side's Strength Track (token at its start),
    Energy Track and powers; every tentacle on the Discard mat goes into the bag.  Eldritch
    already on the Energy Track stay, up to the new track's length (the rest go to the bag),
    or with ``phase_two_energy = "bag"`` all go into the bag."""
    s[S.S_PHASE] = 2
    s[S.S_PHASE2_TURN] = s[TURN]
    s[S.S_STRENGTH] = 0
    s[S.S_STR_LEN] = ip[S.I_STR_LEN + 1]
    for k in range(S.MAX_STRENGTH):
        s[S.S_STR_DRAW + k] = ip[S.I_STR_DRAW + S.MAX_STRENGTH + k]
    s[S.S_ENERGY_LEN] = ip[S.I_ENERGY_LEN + 1]
    keep = 0 if ip[S.I_P2_ENERGY_TO_BAG] == 1 else min(s[S.S_ENERGY], s[S.S_ENERGY_LEN])
    s[S.S_BAG + S.K_ELDRITCH] += s[S.S_ENERGY] - keep
    s[S.S_ENERGY] = keep
    for c in range(S.N_COLOURS):
        s[S.S_POWER + c] = ip[S.I_POWER + 3 + c]
        s[S.S_POWER_N + c] = ip[S.I_POWER_N + 3 + c]
        s[S.S_BAG + c] += s[S.S_DISC_MAD + c]
        s[S.S_DISC_MAD + c] = 0
    s[S.S_BAG + S.K_CHAOS] += s[S.S_DISC_CHAOS]
    s[S.S_DISC_CHAOS] = 0
    s[S.S_BAG + S.K_ELDRITCH] += s[S.S_DISC_ELDRITCH]
    s[S.S_DISC_ELDRITCH] = 0
    S.log(ev, evn, S.EV_PHASE2, s[TURN], 0, 0, 0, 0, 0, 0)
