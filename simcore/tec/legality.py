"""Tiny Epic Cthulhu: what the players may do (the legal choices of every decision).

``action_bits`` gives the main action's choices (TEC-A-1, TEC-MV-*, ...).  The other questions'
choices are sets of at most 32 answers, worked out here as the bits of one integer
(``*_options``): the procedures use them to know whether there is anything to ask, and
``rules.legal`` turns them into the mask.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simcore.tec import state as S


@njit(cache=True, _nrt=False, forceinline=True)
def ring(t):
    return t % S.N_TOWNS


@njit(cache=True, _nrt=False, forceinline=True)
def madness_on_mat(s, c):
    o = S.char(c)
    return s[o + S.P_TEMP] + s[o + S.P_TEMP + 1] + s[o + S.P_TEMP + 2]


@njit(cache=True, _nrt=False, forceinline=True)
def clear_mask(mask):
    for k in range(mask.shape[0]):
        mask[k] = 0


@njit(cache=True, _nrt=False, forceinline=True)
def bits_to_mask(bits, mask):
    """Write the answers in ``bits`` (bit k: answer k) into ``mask``; returns how many."""
    n = 0
    for k in range(mask.shape[0]):
        b = (bits >> k) & 1
        mask[k] = b
        n += b
    return n


@njit(cache=True, _nrt=False, forceinline=True)
def rerolls_for(s, c, ip):
    """TEC-DEL-2: dice the character may reroll, from its Brain token's space."""
    brain = s[S.char(c) + S.P_BRAIN]
    if brain < 0:
        return 0
    return ip[S.I_CHAR_DEL + c * S.MAX_DELIRIUM + brain]


# ---- moving ------------------------------------------------------------------------------------
@njit(cache=True, _nrt=False, forceinline=True)
def move_range(s, c, ip):
    """TEC-MV-1: Town cards the character may move, from its Fear track (plus wanderer)."""
    o = S.char(c)
    fear = min(s[o + S.P_TEMP + 0], 2)
    r = ip[S.I_MOVE_BY_FEAR + fear]
    if s[o + S.P_ABILITY] == S.AB_WANDERER:
        r += s[o + S.P_AMOUNT]
    return r


@njit(cache=True, _nrt=False, forceinline=True)
def path_ok(s, frm, steps, direction):
    """True when moving ``steps`` Town cards in ``direction`` (+1 clockwise, -1) never passes
    through or stops on the Great Old One's Town card (TEC-MV-2; phase one only)."""
    if s[S.S_PHASE] == 2:
        return True
    g = s[S.S_GOO_TOWN]
    for k in range(1, steps + 1):
        if ring(frm + direction * k) == g:
            return False
    return True


@njit(cache=True, _nrt=False, forceinline=True)
def direction_ok(s, c, dest, direction, ip):
    """True when character c may move to ``dest`` going ``direction`` (+1 clockwise, -1):
    within its range (exactly, with ``move_distance = "exact"``) and not through the Great Old
    One."""
    frm = s[S.char(c) + S.P_TOWN]
    if dest == frm:
        return False
    steps = (dest - frm) % S.N_TOWNS if direction == 1 else (frm - dest) % S.N_TOWNS
    r = move_range(s, c, ip)
    in_range = steps == r if ip[S.I_MOVE_EXACT] == 1 else steps <= r
    return in_range and path_ok(s, frm, steps, direction)


@njit(cache=True, _nrt=False, forceinline=True)
def reachable_bits(s, c, ip):
    """The move answers (bit A_MOVE + d) for every Town card d character c can move to
    (TEC-MV-1/2): walk each direction once, stopping at the Great Old One in phase one."""
    frm = s[S.char(c) + S.P_TOWN]
    r = move_range(s, c, ip)
    exact = ip[S.I_MOVE_EXACT] == 1
    g = s[S.S_GOO_TOWN] if s[S.S_PHASE] == 1 else -1
    bits = 0
    for direction in (1, -1):
        d = frm
        for k in range(1, min(r, S.N_TOWNS - 1) + 1):
            d += direction  # ring(frm + direction * k), without a division
            if d == S.N_TOWNS:
                d = 0
            elif d < 0:
                d = S.N_TOWNS - 1
            if d == g:
                break
            if not exact or k == r:
                bits |= 1 << (S.A_MOVE + d)
    return bits


@njit(cache=True, _nrt=False, forceinline=True)
def flip_options(s, frm, direction, steps, ip):
    """TEC-MV-4: the face-down Page cards a move passed or stopped beside (bits by town), and
    NO_FLIP; 0 when there is none to flip.  With ``page_flip = "stopped"`` (the publisher's
    rules site) only the card where the move stops."""
    bits = 0
    for k in range(1 + (steps - 1) * ip[S.I_FLIP_AT_STOP], steps + 1):
        t = ring(frm + direction * k)
        if s[S.town(t) + S.T_PAGE_STATE] == 0:
            bits |= 1 << t
    return bits | (1 << S.NO_FLIP) if bits else 0


# ---- paying ----------------------------------------------------------------------------------
@njit(cache=True, _nrt=False, forceinline=True)
def scholar_discount(s, c):
    o = S.char(c)
    if s[o + S.P_ABILITY] == S.AB_SCHOLAR and s[S.S_SCHOLAR_USED] == 0:
        return s[o + S.P_AMOUNT]
    return 0


@njit(cache=True, _nrt=False, forceinline=True)
def pay_range(s, c, colour, amount, reserve):
    """(fewest, most) Chaos tentacles character c may spend paying ``amount`` of ``colour``,
    keeping ``reserve`` Chaos for what is still to be paid (TEC-BA-3/7, TEC-TR-1)."""
    o = S.char(c)
    lo = max(amount - s[o + S.P_TEMP + colour], 0)
    hi = min(s[o + S.P_CHAOS] - reserve, amount)
    return lo, hi


@njit(cache=True, _nrt=False, forceinline=True)
def seal_dice(s, c, colour, ip):
    """TEC-SE-2: dice for a seal: one per rune of the colour, at most the dice in the box."""
    o = S.char(c)
    n = s[o + S.P_RUNES + colour]
    if s[o + S.P_ABILITY] == S.AB_OCCULTIST and n > 0:
        n += s[o + S.P_AMOUNT]
    return min(n, ip[S.I_DICE], S.MAX_DICE)


@njit(cache=True, _nrt=False, forceinline=True)
def reroll_options(n, r):
    """TEC-DEL-2: the dice masks (over ``n`` dice) with at most ``r`` dice set."""
    bits = 0
    for m in range(1 << n):
        if (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1) <= r:
            bits |= 1 << m
    return bits


@njit(cache=True, _nrt=False, forceinline=True)
def banish_options(s, c, t, cost):
    """TEC-BA-3/4: the Shamblers' colours at Town t character c can pay ``cost`` for (bits);
    STOP is added by the caller when there is any."""
    o = S.char(c)
    bits = 0
    for k in range(S.N_COLOURS):
        if s[S.town(t) + S.T_SH + k] > 0 and s[o + S.P_TEMP + k] + s[o + S.P_CHAOS] >= cost:
            bits |= 1 << k
    return bits


# ---- the repeated choices (collect and the town actions) ---------------------------------------
@njit(cache=True, _nrt=False, forceinline=True)
def repeat_options(s, c, ip, kind):
    """The choices of a repeated question ``kind`` (D_COLLECT, D_VENT, D_POINTER_MADNESS for
    purge, D_STUDY, D_BARRICADE, D_GATHER, D_EXCHANGE) without its stop: 0 when there is
    nothing left to choose (the procedure ends without asking)."""
    o = S.char(c)
    t = s[o + S.P_TOWN]
    cap = ip[S.I_TEMP_CAP]
    bits = 0
    if kind == S.D_COLLECT:
        for k in range(S.N_COLOURS):
            if s[S.town(t) + S.T_MAD + k] > 0 and s[o + S.P_TEMP + k] < cap:
                bits |= 1 << k
    elif kind == S.D_VENT:
        for k in range(S.N_COLOURS):
            if s[o + S.P_TEMP + k] > 0:
                bits |= 1 << k
    elif kind == S.D_POINTER_MADNESS:
        for k in range(S.N_COLOURS):
            if s[S.S_SMAT_MAD + k] > 0:
                bits |= 1 << k
    elif kind == S.D_STUDY:
        for d in range(S.N_TOWNS):
            if s[S.town(d) + S.T_PAGE_STATE] == 0:
                bits |= 1 << d
    elif kind == S.D_BARRICADE:
        for k in range(S.N_COLOURS):
            if s[S.town(t) + S.T_SH + k] > 0:
                bits |= 1 << k
    elif kind == S.D_GATHER:
        for d in range(S.N_TOWNS):
            for k in range(S.N_COLOURS):
                if s[S.town(d) + S.T_MAD + k] > 0 and s[o + S.P_TEMP + k] < cap:
                    bits |= 1 << (d * 3 + k)
    elif kind == S.D_EXCHANGE:
        for a in range(S.N_COLOURS):
            for b in range(S.N_COLOURS):
                if (a != b and s[o + S.P_TEMP + a] > 0 and s[S.S_SMAT_MAD + b] > 0
                        and s[o + S.P_TEMP + b] < cap):
                    bits |= 1 << (a * 3 + b)
    return bits


@njit(cache=True, _nrt=False, forceinline=True)
def repeat_stop(kind):
    """The "stop" answer of a repeated question."""
    if kind == S.D_STUDY:
        return S.NO_FLIP
    if kind == S.D_GATHER:
        return S.A_GATHER_STOP
    if kind == S.D_EXCHANGE:
        return S.A_EXCHANGE_STOP
    return S.STOP


@njit(cache=True, _nrt=False, forceinline=True)
def travel_options(s, t):
    """The travel town action: any other Town card, not the Great Old One's in phase one."""
    bits = 0
    for d in range(S.N_TOWNS):
        if d != t and (s[S.S_PHASE] == 2 or d != s[S.S_GOO_TOWN]):
            bits |= 1 << d
    return bits


@njit(cache=True, _nrt=False, forceinline=True)
def town_action_usable(s, c, ip):
    """TEC-TA-1: whether the current Town card's action can do anything now."""
    o = S.char(c)
    t = s[o + S.P_TOWN]
    act = s[S.town(t) + S.T_ACTION]
    if act == S.TA_VENT:
        return madness_on_mat(s, c) > 0
    if act == S.TA_RECRUIT:
        return s[S.S_SUP_CHAOS] > 0 and s[o + S.P_CHAOS] < ip[S.I_CHAOS_CAP]
    if act == S.TA_PURGE:
        return s[S.S_SMAT_MAD] + s[S.S_SMAT_MAD + 1] + s[S.S_SMAT_MAD + 2] > 0
    if act == S.TA_TRAVEL:
        return travel_options(s, t) != 0
    if act == S.TA_STUDY:
        return repeat_options(s, c, ip, S.D_STUDY) != 0
    if act == S.TA_WARD:
        return s[S.S_ENERGY] > 0
    if act == S.TA_BARRICADE:
        return S.shamblers_at(s, t) > 0
    if act == S.TA_GATHER:
        return repeat_options(s, c, ip, S.D_GATHER) != 0
    if act == S.TA_PRAY:
        return s[o + S.P_BRAIN] > 0
    if act == S.TA_EXCHANGE:
        return repeat_options(s, c, ip, S.D_EXCHANGE) != 0
    return False


# ---- the main action ---------------------------------------------------------------------------
@njit(cache=True, _nrt=False, forceinline=True)
def only_end_left(s):
    """TEC-A-1: no action and no Chaos left, and no free ability (TEC-A-2) to use: ending the
    turn is the only legal action (``action_bits`` would offer nothing else)."""
    c = s[S.S_CUR]
    o = S.char(c)
    if s[S.S_ACTIONS_LEFT] > 0 or s[o + S.P_CHAOS] > 0:
        return False
    return not (s[o + S.P_ABILITY] == S.AB_MEDIUM and s[S.S_ABILITY_USED] == 0
                and madness_on_mat(s, c) > 0)


@njit(cache=True, _nrt=False, forceinline=True)
def action_bits(s, ip):
    """The legal answers of the main action decision (A_*) for the current character, as bits
    (bit k: answer k).  With no actions left, an action costs a Chaos tentacle (TEC-A-1), so
    affordability is judged with one Chaos fewer."""
    c = s[S.S_CUR]
    o = S.char(c)
    t = s[o + S.P_TOWN]
    spare = s[o + S.P_CHAOS]
    bits = 0
    # TEC-A-2: the medium's ability is free, so it does not depend on actions left
    if (s[o + S.P_ABILITY] == S.AB_MEDIUM and s[S.S_ABILITY_USED] == 0
            and madness_on_mat(s, c) > 0):
        bits |= 1 << S.A_ABILITY
    if s[S.S_ACTIONS_LEFT] <= 0:
        if spare <= 0:
            return bits | (1 << S.A_END)
        spare -= 1
    bits |= reachable_bits(s, c, ip)
    # TEC-MV-3: the first action must move away (forced_move_when = "first"), or, with
    # "any_action", any action before the turn ends, so only a move once it is the last
    # action the player can still take (no action but this one and no Chaos left after it)
    last = (s[S.S_ACTIONS_LEFT] - 1 + s[o + S.P_CHAOS] if s[S.S_ACTIONS_LEFT] > 0
            else s[o + S.P_CHAOS] - 1) <= 0
    if s[S.S_MUST_MOVE] == 1 and (ip[S.I_FORCED_MOVE_ANY] == 0 or last):
        if bits == 0:  # cannot happen on a ring of five, but never leave a turn stuck
            return 1 << S.A_END
        return bits
    cap = ip[S.I_TEMP_CAP]
    collect = 0
    for k in range(S.N_COLOURS):  # without branches: these change at every step
        collect |= (s[S.town(t) + S.T_MAD + k] > 0) & (s[o + S.P_TEMP + k] < cap)
    bits |= collect << S.A_COLLECT
    bits |= np.int64(S.shamblers_at(s, t) > 0) << S.A_BANISH
    if town_action_usable(s, c, ip):
        bits |= 1 << S.A_TOWN
    state = s[S.town(t) + S.T_PAGE_STATE]
    if state == 1:
        short = S.translate_deficit(s, c, t) - scholar_discount(s, c)
        if short <= spare:
            bits |= 1 << S.A_TRANSLATE
    elif state == 0 and ip[S.I_TRANSLATE_DOWN] == 1:
        # face-down: the cost is unknown until flipped; allowed if the switch is on
        bits |= 1 << S.A_TRANSLATE
    if s[S.S_PHASE] == 2 and t == s[S.S_GOO_TOWN]:
        for q in range(S.N_PORTALS):
            if s[S.portal(q) + S.Q_SEALED] == 0:
                colour = s[S.portal(q) + S.Q_COLOUR]
                holds = s[o + S.P_TEMP + colour] > 0 or spare > 0
                if holds and seal_dice(s, c, colour, ip) > 0:
                    bits |= 1 << (S.A_SEAL + q)
    if s[S.S_MUST_MOVE] == 1:  # (any_action) the move away is still owed: no ending yet
        return bits
    return bits | (1 << S.A_END)
