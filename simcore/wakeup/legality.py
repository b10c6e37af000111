"""Wake Up, Cthulhu!: what the deciding player may do: the actions (WUC-T-2, WUC-OB-1, WUC-OB-3,
WUC-SO-7) as the bits of one integer, and the mask of every other decision's answers.
"""

from __future__ import annotations

from numba import njit

from simcore.engine import DECISION, SEAT, frame_get, frame_proc
from simcore.wakeup import base as B
from simcore.wakeup import cards as CD
from simcore.wakeup import grimoire as GR
from simcore.wakeup import line as L
from simcore.wakeup import state as S


@njit(cache=True, _nrt=False)
def action_bits(ip, s, h, first):
    """WUC-T-2 (conjure or advance), WUC-OB-1 (Daemonum Prestigis: any card for one
    Ingredient), WUC-OB-3 (Ulthar before conjuring a Spell), WUC-SO-7 (four Objects: clear
    them), and stopping: the legal action codes, as bits."""
    p = s[S.S_ACTIVE]
    m = 0
    ulthar = CD.can_use(ip, s, p, S.O_ULTHAR)
    daemonum = CD.can_use(ip, s, p, S.O_DAEMONUM) and s[S.S_HAND_N + p] >= ip[S.I_DAEMONUM_COST]
    objects = 0
    for slot in range(ip[S.I_SLOTS]):
        c = s[S.S_TOP + slot]
        if c < 0:
            continue
        if GR.is_object(c):
            objects += 1
        spell = GR.is_spell(c)
        base = S.A_CONJURE + 4 * slot
        if CD.affordable(ip, h, p, S.I_COST_SPEC + c * S.N_NATURAL, ip[S.I_COST_X + c],
                      ip[S.I_COST_ANY + c]):
            m |= 1 << base
            if spell and ulthar:
                m |= 1 << (base + S.MODE_ULTHAR)
        if daemonum:
            m |= 1 << (base + S.MODE_DAEMONUM)
            if spell and ulthar:
                m |= 1 << (base + S.MODE_ULTHAR + S.MODE_DAEMONUM)
        if ip[S.I_CANDLES + c] > 0 and CD.affordable(ip, h, p, S.I_ADV_SPEC + c * S.N_NATURAL,
                                                ip[S.I_ADV_X + c], ip[S.I_ADV_ANY + c]):
            m |= 1 << (S.A_ADVANCE + slot)
    if B.is_solo(ip) and objects == ip[S.I_SLOTS]:
        m |= 1 << S.A_CLEAR
    if m == 0 or not first or ip[S.I_PASS_FIRST] == 1:
        m |= 1 << S.A_STOP
    return m


@njit(cache=True, _nrt=False)
def can_act(ip, s, h):
    """Whether the active player has any action but stopping (``action_bits`` with an early
    way out: the turn asks nothing when stopping is all that is left)."""
    p = s[S.S_ACTIVE]
    if CD.can_use(ip, s, p, S.O_DAEMONUM) and s[S.S_HAND_N + p] >= ip[S.I_DAEMONUM_COST]:
        for slot in range(ip[S.I_SLOTS]):
            if s[S.S_TOP + slot] >= 0:
                return True
    objects = 0
    for slot in range(ip[S.I_SLOTS]):
        c = s[S.S_TOP + slot]
        if c < 0:
            continue
        if GR.is_object(c):
            objects += 1
        if CD.affordable(ip, h, p, S.I_COST_SPEC + c * S.N_NATURAL, ip[S.I_COST_X + c],
                      ip[S.I_COST_ANY + c]):
            return True
        if ip[S.I_CANDLES + c] > 0 and CD.affordable(ip, h, p, S.I_ADV_SPEC + c * S.N_NATURAL,
                                                ip[S.I_ADV_X + c], ip[S.I_ADV_ANY + c]):
            return True
    return B.is_solo(ip) and objects == ip[S.I_SLOTS]


@njit(cache=True, _nrt=False)
def bits_to_mask(x, mask):
    n = 0
    while x != 0:
        mask[B.lowest(x)] = 1
        x &= x - 1
        n += 1
    return n


@njit(cache=True, _nrt=False)
def legal_mask(ip, s, h, mask):
    """The legal answers to the decision on top (``s[DECISION]`` of seat ``s[SEAT]``) as a
    mask; returns how many."""
    for k in range(mask.shape[0]):
        mask[k] = 0
    d = s[DECISION]
    p = s[SEAT]
    n = 0
    o = S.H_HAND + p * S.N_ING
    if d == S.D_ACTION:
        first = frame_proc(s) == S.PR_TURN and frame_get(s, 1) == 1
        n = bits_to_mask(action_bits(ip, s, h, first), mask)
    elif d == S.D_PAY:
        n = bits_to_mask(CD.pay_options(ip, s, h), mask)
    elif d == S.D_SEARCH:
        n = bits_to_mask(CD.deck_kinds(s, h), mask)
    elif d == S.D_DISCARD:
        for i in range(ip[S.I_SLOTS]):
            if s[S.S_TOP + i] >= 0:
                mask[i] = 1
                n += 1
    elif d == S.D_SWAP_OWN:
        touched = frame_get(s, 2)
        n = bits_to_mask(s[S.S_OCC + p] & ~touched, mask)
        if frame_get(s, 1) == 1:
            mask[S.A_SWAP_STOP] = 1
            n += 1
    elif d == S.D_SWAP_OTHER:
        touched = frame_get(s, 2)
        n = bits_to_mask(L.all_tokens(ip, s) & ~s[S.S_OCC + p] & ~touched, mask)
    elif d == S.D_OUT_SWAP:
        n = bits_to_mask(s[S.S_OCC + p], mask)
    elif d == S.D_BID:
        for k in range(S.N_ING):
            if h[o + k] > 0:
                mask[k] = 1
                n += 1
        if s[S.S_AUC_ROUND] >= 2:  # WUC-CU-3: folding from the second round
            mask[S.A_FOLD] = 1
            n += 1
        if CD.can_use(ip, s, p, S.O_RLYEH):
            mask[S.A_RLYEH] = 1
            n += 1
    elif d == S.D_YUG_REPLACE:
        n = bits_to_mask(L.all_tokens(ip, s) & ~s[S.S_OCC + p], mask)
        mask[S.A_SWAP_STOP] = 1  # "can"
        n += 1
    elif d == S.D_RLYEH_OPEN or d == S.D_RLYEH_LAST or d == S.D_RAN_TEGOTH or d == S.D_SHIELD or \
            d == S.D_YUG_PLACE:
        mask[S.A_NO] = 1
        mask[S.A_YES] = 1
        n = 2
    elif d == S.D_STAKE:
        for k in range(S.N_ING):
            if h[o + k] > 0:
                mask[k] = 1
                n += 1
        compulsory = frame_get(s, 4) == 1 and frame_get(s, 2) == 0 and s[S.S_HAND_N + p] > 0
        if not compulsory:
            mask[S.A_STAKE_DONE] = 1
            n += 1
        if CD.can_use(ip, s, p, S.O_RLYEH):
            mask[S.A_RLYEH] = 1
            n += 1
    return n
