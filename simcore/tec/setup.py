"""Tiny Epic Cthulhu: setting up a game (TEC-S-1..12).

``setup_begin`` lays out the Town cards in random positions; when the strategy chooses each
card's side (``town_sides = "strategy"``, TEC-S-1) the setup asks for them one by one, with
every piece already out (``side_context`` says what the question is about, ``set_side``
applies the answer), and ``setup_spins`` then places the Great Old One, a Shambler per player
and the players.  The random stream is drawn in the same order whoever chooses the sides.
"""

from __future__ import annotations

from numba import njit

from simcore.engine import HEADER, clear_header
from simcore.kernels import rng_int, shuffle
from simcore.tec import pages as PG
from simcore.tec import state as S
from simcore.tec import tracks as TR
from simcore.tec import wheel as W

SIDES_BY_STRATEGY = 0  # ip[I_TOWN_SIDES]: 0 strategy, 1 random, 2 all fronts, 3 all backs
SIDES_RANDOM = 1


@njit(cache=True, _nrt=False)
def setup_begin(ip, s, h, rng, ev, evn):
    """Clear the table and deal the five Town cards to the positions in random order (TEC-S-1)
    and choose each side, unless the strategy chooses them; put out every piece.  Returns 1
    when the sides are still to be chosen (``setup_spins`` follows the last), 0 when the setup
    is done.  Choosing sides draws nothing, so the stream is drawn in the same order either
    way: the Town cards' order, the sides (at random), the Page deck, the spins."""
    clear_header(s)
    for k in range(HEADER, s.shape[0]):
        s[k] = 0
    for k in range(h.shape[0]):
        h[k] = 0
    s[S.S_PHASE] = 1
    s[S.S_PHASE2_TURN] = -1
    s[S.S_NCHARS] = ip[S.I_CHARS]
    s[S.S_MAX_BRAIN] = -1
    s[S.S_NECRO_ROWS] = ip[S.I_ROWS]
    s[S.S_NECRO_COLS] = ip[S.I_COLS]
    s[S.S_PAGE_TOTAL] = ip[S.I_PAGE_TOKENS]
    s[S.S_TEMP_CAP] = ip[S.I_TEMP_CAP]
    s[S.S_CHAOS_CAP] = ip[S.I_CHAOS_CAP]
    s[S.S_DICE_MAX] = min(ip[S.I_DICE], S.MAX_DICE)
    order = h[S.H_DOWN:S.H_DOWN + S.N_TOWNS]  # scratch, overwritten when pages are dealt
    for t in range(S.N_TOWNS):
        order[t] = t
    shuffle(rng, order, S.N_TOWNS)
    for t in range(S.N_TOWNS):
        s[S.town(t) + S.T_CARD] = order[t]
    mode = ip[S.I_TOWN_SIDES]
    if mode != SIDES_BY_STRATEGY:
        for t in range(S.N_TOWNS):
            set_side(s, ip, t, rng_int(rng, 2) if mode == SIDES_RANDOM else mode - 2, ev, evn)
    setup_pieces(ip, s, h, rng)
    if mode == SIDES_BY_STRATEGY:
        return 1
    setup_spins(ip, s, h, rng, ev, evn)
    return 0


@njit(cache=True, _nrt=False, forceinline=True)
def side_context(s, ip, t):
    """What the D_TOWN_SIDE question about position ``t`` shows the strategy (S_CTX)."""
    card = s[S.town(t) + S.T_CARD]
    s[S.S_CTX] = t
    s[S.S_CTX + 1] = card
    for sd in range(2):
        s[S.S_CTX + 2 + 3 * sd] = ip[S.I_SIDE_ACTION + card * 2 + sd]
        s[S.S_CTX + 3 + 3 * sd] = ip[S.I_SIDE_MAD_LEN + card * 2 + sd]
        s[S.S_CTX + 4 + 3 * sd] = ip[S.I_SIDE_SH_LEN + card * 2 + sd]


@njit(cache=True, _nrt=False)
def set_side(s, ip, t, side, ev, evn):
    """TEC-S-1: position ``t``'s Town card shows ``side`` (0 front, 1 back)."""
    o = S.town(t)
    card = s[o + S.T_CARD]
    k = card * 2 + side
    s[o + S.T_SIDE] = side
    s[o + S.T_ACTION] = ip[S.I_SIDE_ACTION + k]
    s[o + S.T_AMOUNT] = ip[S.I_SIDE_AMOUNT + k]
    s[o + S.T_MAD_LEN] = ip[S.I_SIDE_MAD_LEN + k]
    s[o + S.T_SH_LEN] = ip[S.I_SIDE_SH_LEN + k]
    S.log(ev, evn, S.EV_SETUP_SIDE, t, card, side, 0, 0, 0, 0)


@njit(cache=True, _nrt=False)
def setup_pieces(ip, s, h, rng):
    """TEC-S-2..5, TEC-S-9..12: the Great Old One's mat, the characters, the Page deck, the
    Shamblers and the tentacles."""
    n_chars = ip[S.I_CHARS]
    # TEC-S-2: the Great Old One's phase-one side
    s[S.S_STR_LEN] = ip[S.I_STR_LEN]
    for k in range(S.MAX_STRENGTH):
        s[S.S_STR_DRAW + k] = ip[S.I_STR_DRAW + k]
    s[S.S_ENERGY_LEN] = ip[S.I_ENERGY_LEN]
    for c in range(S.N_COLOURS):
        s[S.S_POWER + c] = ip[S.I_POWER + c]
        s[S.S_POWER_N + c] = ip[S.I_POWER_N + c]
    for q in range(S.N_PORTALS):
        s[S.portal(q) + S.Q_COLOUR] = ip[S.I_PORTAL_COLOUR + q]
        s[S.portal(q) + S.Q_NUMBER] = ip[S.I_PORTAL_NUMBER + q]
    # TEC-S-3: characters; Brain tokens below their Delirium Tracks
    for c in range(n_chars):
        o = S.char(c)
        s[o + S.P_BRAIN] = -1
        s[o + S.P_DEL_LEN] = ip[S.I_CHAR_DEL_LEN + c]
        s[o + S.P_ABILITY] = ip[S.I_CHAR_ABILITY + c]
        s[o + S.P_AMOUNT] = ip[S.I_CHAR_AMOUNT + c]
    # TEC-S-4: Page tokens; the Page deck shuffled; one face-down card beside each Town card
    s[S.S_PAGE_PILE] = ip[S.I_PAGE_TOKENS]
    n_pages = ip[S.I_N_PAGES]
    for i in range(n_pages):
        h[S.H_DECK + i] = i
    shuffle(rng, h[S.H_DECK:S.H_DECK + n_pages], n_pages)
    h[S.H_DECK_TOP] = 0
    s[S.S_DECK_LEFT] = n_pages
    for t in range(S.N_TOWNS):
        PG.deal_page(s, h, t)
    # TEC-S-5: Shamblers on their mat
    for c in range(S.N_COLOURS):
        s[S.S_SMAT_SH + c] = ip[S.I_SHAMBLERS]
    # TEC-S-9..11: tentacles.  The rulebook puts them out (step 11) after the spins (step
    # 10); only the Town cards' Eldritch can meet a spin (a Shambler Track accursed during
    # setup, TEC-ACC-3), so they alone wait in the general supply until ``setup_spins`` is done
    # (switch setup_order; "tentacles_first" puts them out here, as the simulator once did)
    for c in range(S.N_COLOURS):
        s[S.S_BAG + c] = ip[S.I_BAG_MADNESS]
        s[S.S_SMAT_MAD + c] = ip[S.I_SMAT_MADNESS]
        s[S.S_DISC_MAD + c] = ip[S.I_DISC_MADNESS]
    s[S.S_BAG + S.K_ELDRITCH] = ip[S.I_BAG_ELDRITCH]
    s[S.S_SUP_ELDRITCH] = ip[S.I_ELDRITCH] - ip[S.I_BAG_ELDRITCH]
    if ip[S.I_SETUP_TENTACLES_FIRST] == 1:  # setup_order = "tentacles_first": the old order
        for t in range(S.N_TOWNS):
            s[S.town(t) + S.T_ELDRITCH] = ip[S.I_TOWN_ELDRITCH]
        s[S.S_SUP_ELDRITCH] -= S.N_TOWNS * ip[S.I_TOWN_ELDRITCH]
    lines = ip[S.I_LINE_CHAOS]
    for r in range(ip[S.I_ROWS]):
        s[S.S_NECRO_ROW_CHAOS + r] = lines
    for j in range(ip[S.I_COLS]):
        s[S.S_NECRO_COL_CHAOS + j] = lines
    s[S.S_SUP_CHAOS] = ip[S.I_CHAOS] - lines * (ip[S.I_ROWS] + ip[S.I_COLS])


@njit(cache=True, _nrt=False)
def setup_spins(ip, s, h, rng, ev, evn):
    """TEC-S-6..8: spins place the Great Old One, a Shambler per player, then the players;
    then (TEC-S-11, the rulebook's step 11 after its step 10) an Eldritch tentacle goes on
    each Town card that has none (a Town whose Shambler Track was accursed by a setup spin
    already took a fresh one from the supply, TEC-ACC-3).  With ``setup_goo_page =
    "flipped"`` (a review's reading) the Page card at the Great Old One's Town is then
    revealed."""
    n_chars = ip[S.I_CHARS]
    W.spin_wheel(s, rng, ip, ev, evn)
    s[S.S_GOO_TOWN] = s[S.S_SPIN_TOWN]
    S.log(ev, evn, S.EV_SETUP_GOO, s[S.S_GOO_TOWN], 0, 0, 0, 0, 0, 0)
    for _ in range(n_chars * ip[S.I_SHAMBLERS_PER_PLAYER]):
        W.spin_wheel(s, rng, ip, ev, evn)
        c = TR.place_shambler(s, s[S.S_SPIN_TOWN], s[S.S_SPIN_COLOUR], ev, evn)
        S.log(ev, evn, S.EV_SETUP_SHAMBLER, s[S.S_SPIN_TOWN], c, 0, 0, 0, 0, 0)
    for c in range(n_chars):
        W.spin_wheel(s, rng, ip, ev, evn)
        s[S.char(c) + S.P_TOWN] = s[S.S_SPIN_TOWN]
        S.log(ev, evn, S.EV_SETUP_PLAYER, c, s[S.S_SPIN_TOWN], 0, 0, 0, 0, 0)
    for t in range(S.N_TOWNS):
        need = ip[S.I_TOWN_ELDRITCH] - s[S.town(t) + S.T_ELDRITCH]
        if need > 0:
            s[S.town(t) + S.T_ELDRITCH] += need
            s[S.S_SUP_ELDRITCH] -= need
    if ip[S.I_SETUP_GOO_PAGE] == 1:
        PG.flip_page(s, h, s[S.S_GOO_TOWN], ip, ev, evn)
        s[S.S_CNT_FLIPS] -= 1  # a setup step, not a flip by a move (the record counts those)
    s[S.S_SHAMBLER_LOSS] = ip[S.I_SHAMBLER_LOSS]  # the loss counts from the first turn
