"""Tiny Epic Cthulhu: the rules checker (``cthulhu-sim check``, ``trace --check``).

Run after every step in checking mode: every piece of the box is somewhere (every Madness
colour, Chaos, Eldritch, every Shambler colour, Page tokens and Page cards), no track holds
more than its length, and the hidden Page cards are where the public state says.
"""

from __future__ import annotations

from numba import njit

from simcore.tec import state as S


@njit(cache=True, _nrt=False)
def conservation_errors(ip, s, h):
    """Number of piece kinds whose total differs from the box (0 when all is well): every
    Madness colour, Chaos, Eldritch, every Shambler colour, Page tokens and Page cards."""
    errors = 0
    n_chars = s[S.S_NCHARS]
    for k in range(S.N_COLOURS):
        total = s[S.S_BAG + k] + s[S.S_SMAT_MAD + k] + s[S.S_DISC_MAD + k]
        for t in range(S.N_TOWNS):
            total += s[S.town(t) + S.T_MAD + k]
        for c in range(n_chars):
            total += s[S.char(c) + S.P_TEMP + k]
        for q in range(S.N_PORTALS):
            if s[S.portal(q) + S.Q_SEALED] == 1 and s[S.portal(q) + S.Q_COLOUR] == k:
                total += 1
        # the Madness in play: what setup placed (the rest of the box stays in the box)
        if total != ip[S.I_BAG_MADNESS] + ip[S.I_SMAT_MADNESS] + ip[S.I_DISC_MADNESS]:
            errors += 1
        sh = s[S.S_SMAT_SH + k]
        for t in range(S.N_TOWNS):
            sh += s[S.town(t) + S.T_SH + k]
        if sh != ip[S.I_SHAMBLERS]:
            errors += 1
    chaos = s[S.S_BAG + S.K_CHAOS] + s[S.S_SUP_CHAOS] + s[S.S_DISC_CHAOS]
    for c in range(n_chars):
        chaos += s[S.char(c) + S.P_CHAOS]
    for r in range(ip[S.I_ROWS]):
        chaos += s[S.S_NECRO_ROW_CHAOS + r]
    for j in range(ip[S.I_COLS]):
        chaos += s[S.S_NECRO_COL_CHAOS + j]
    for q in range(S.N_PORTALS):
        if s[S.portal(q) + S.Q_SEALED] == 2:
            chaos += 1
    if chaos != ip[S.I_CHAOS]:
        errors += 1
    eld = s[S.S_BAG + S.K_ELDRITCH] + s[S.S_SUP_ELDRITCH] + s[S.S_DISC_ELDRITCH] + s[S.S_ENERGY]
    for t in range(S.N_TOWNS):
        eld += s[S.town(t) + S.T_ELDRITCH]
    if eld != ip[S.I_ELDRITCH]:
        errors += 1
    tokens = s[S.S_PAGE_PILE]
    for r in range(ip[S.I_ROWS]):
        tokens += s[S.S_NECRO_ROW + r]
    if tokens != ip[S.I_PAGE_TOKENS] or tokens - s[S.S_PAGE_PILE] != s[S.S_PAGES_PLACED]:
        errors += 1
    cards = s[S.S_DECK_LEFT]
    for t in range(S.N_TOWNS):
        if s[S.town(t) + S.T_PAGE_STATE] >= 0:
            cards += 1
    for c in range(n_chars):
        cards += s[S.char(c) + S.P_PAGES]
    if cards != ip[S.I_N_PAGES]:
        errors += 1
    for k in range(S.N_KINDS):
        if s[S.S_BAG + k] < 0:
            errors += 1
    for c in range(n_chars):
        o = S.char(c)
        if s[o + S.P_CHAOS] < 0 or s[o + S.P_CHAOS] > ip[S.I_CHAOS_CAP]:
            errors += 1
        for k in range(S.N_COLOURS):
            if s[o + S.P_TEMP + k] < 0 or s[o + S.P_TEMP + k] > ip[S.I_TEMP_CAP]:
                errors += 1
    for t in range(S.N_TOWNS):
        if S.shamblers_at(s, t) > s[S.town(t) + S.T_SH_LEN]:
            errors += 1
        for k in range(S.N_COLOURS):
            mad = s[S.town(t) + S.T_MAD + k]
            if mad > s[S.town(t) + S.T_MAD_LEN] or mad < 0:
                errors += 1
    if s[S.S_ENERGY] > s[S.S_ENERGY_LEN] or s[S.S_ENERGY] < 0:
        errors += 1
    for k in range(S.N_COLOURS):
        if s[S.S_PENDING + k] != 0:  # a queued power is resolved before anything is asked
            errors += 1
    # the Page cards: every card exactly once, in the deck, face down, face up or translated
    n_pages = ip[S.I_N_PAGES]
    seen = 0
    twice = 0
    gone = s[S.S_GONE]
    translated = 0
    for card in range(n_pages):
        if (gone >> card) & 1:
            seen |= 1 << card
            translated += 1
    for c in range(n_chars):
        translated -= s[S.char(c) + S.P_PAGES]
    if translated != 0:
        errors += 1
    for t in range(S.N_TOWNS):
        state = s[S.town(t) + S.T_PAGE_STATE]
        card = s[S.town(t) + S.T_PAGE] if state == 1 else (h[S.H_DOWN + t] if state == 0
                                                         else -1)
        if ((state == 0) != (h[S.H_DOWN + t] >= 0)
                or (state == 1) != (s[S.town(t) + S.T_PAGE] >= 0)):
            errors += 1
        if 0 <= card < n_pages:
            twice += (seen >> card) & 1
            seen |= 1 << card
    top = h[S.H_DECK_TOP]
    if top < 0 or top + s[S.S_DECK_LEFT] > n_pages:
        errors += 1
    else:
        for k in range(top, top + s[S.S_DECK_LEFT]):
            card = h[S.H_DECK + k]
            if 0 <= card < n_pages:
                twice += (seen >> card) & 1
                seen |= 1 << card
            else:
                errors += 1
    full = (1 << n_pages) - 1 if n_pages < 64 else -1
    if twice or seen != full:
        errors += 1
    return errors

