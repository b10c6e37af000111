"""Tiny Epic Cthulhu: the players' actions (TEC-A, MV, CO, BA, TA, TR, SE, DEL-2), as
procedures on the engine's frame stack.

An action that asks questions (where to, which way, which card to flip, which colour, which
dice to reroll, how to pay) pushes a frame (``PR_*`` in state.py) that keeps its place between
the questions.  Three kinds of function make up a procedure:

- ``start_action`` carries out the main action chosen, or pushes its procedure's frame;
- ``continue_*`` resumes the procedure on top of the stack at its stage: it asks the next
  question (``ask``; returns 1) or finishes, pops its frame and returns 0 (the caller then
  resumes the procedure below);
- ``answer_*`` applies an answer to the procedure on top (it never asks: the caller resumes the
  procedure afterwards).

Rolls (with their rerolls) and payments are sub-procedures that push a frame only when there is
something to ask; ``roll_start`` and ``pay_start`` return 1 when they asked.
"""

from __future__ import annotations

from numba import njit

from simcore.engine import (
    OUTCOME,
    ask,
    frame_get,
    frame_pop,
    frame_push,
    frame_set,
)
from simcore.kernels import rng_int_inline
from simcore.tec import legality as L
from simcore.tec import pages as PG
from simcore.tec import state as S
from simcore.tec import wheel as W

# PR_BANISH stages
BS_START, BS_ROLLED, BS_CHOSEN, BS_PAY, BS_PAID = range(5)
# PR_SEAL stages
SE_START, SE_ROLLED, SE_COVER = range(3)
# PR_TRANSLATE stages: TRS_START, then paying Fear, Rage, Greed, then TRS_DONE
TRS_START = 0
TRS_PAY = 1  # + colour
TRS_DONE = 4


@njit(cache=True, _nrt=False, forceinline=True)
def ask_cur(s, decision):
    """The current character is to answer ``decision``."""
    ask(s, s[S.S_CUR], decision)


@njit(cache=True, _nrt=False, forceinline=True)
def roll_die(rng, ip):
    """TEC-DI-1: one Cthulhu die (faces in rules data)."""
    return ip[S.I_FACES + rng_int_inline(rng, ip[S.I_N_FACES])]


# ---- rolls and rerolls (TEC-DI-1, TEC-DEL-2) ------------------------------------------------
@njit(cache=True, _nrt=False)
def roll_start(ip, s, rng, n, purpose, ev, evn):
    """Roll ``n`` Cthulhu dice into S_DICE; if the character may reroll some (TEC-DEL-2: its
    Delirium space's number of them), push PR_ROLL and ask which (returns 1)."""
    c = s[S.S_CUR]
    s[S.S_NDICE] = n
    for k in range(S.MAX_DICE):
        s[S.S_DICE + k] = roll_die(rng, ip) if k < n else 0
    S.log(ev, evn, S.EV_ROLL, purpose, n, s[S.S_DICE], s[S.S_DICE + 1], s[S.S_DICE + 2], 0, 0)
    r = min(L.rerolls_for(s, c, ip), n)
    s[S.S_REROLLS] = r
    if r <= 0:
        return 0
    frame_push(s, S.PR_ROLL)
    frame_set(s, 0, n)
    frame_set(s, 1, purpose)
    s[S.S_CTX] = purpose
    ask_cur(s, S.D_REROLL)
    return 1


@njit(cache=True, _nrt=False)
def answer_reroll(ip, s, rng, mask, ev, evn):
    """Reroll the dice in ``mask`` (bit k: die k); the roll is over."""
    n = frame_get(s, 0)
    frame_pop(s)
    if mask == 0:
        return
    for k in range(n):
        if (mask >> k) & 1:
            s[S.S_DICE + k] = roll_die(rng, ip)
    S.log(ev, evn, S.EV_REROLL, mask, s[S.S_DICE], s[S.S_DICE + 1], s[S.S_DICE + 2], n, 0, 0)


# ---- payments (TEC-BA-3/7, TEC-TR-1, TEC-SE-4) -----------------------------------------------
@njit(cache=True, _nrt=False, forceinline=True)
def pay_apply(s, c, colour, amount, x, what, ev, evn):
    """Pay ``amount`` of ``colour`` with ``x`` Chaos (wild, to the supply) and the rest in
    Madness of the colour (to the Discard mat)."""
    o = S.char(c)
    s[o + S.P_TEMP + colour] -= amount - x
    s[S.S_DISC_MAD + colour] += amount - x
    s[o + S.P_CHAOS] -= x
    s[S.S_SUP_CHAOS] += x
    if amount > 0:
        S.log(ev, evn, S.EV_PAY, c, colour, amount - x, x, what, 0, 0)


@njit(cache=True, _nrt=False, forceinline=True)
def pay_start(s, c, colour, amount, reserve, what, ev, evn):
    """Pay ``amount`` tentacles of ``colour``: how many Chaos to spend is the player's choice
    (D_PAY) when more than one split is possible, keeping ``reserve`` Chaos for what is still
    to be paid; then PR_PAY is pushed and the question asked (returns 1)."""
    lo, hi = L.pay_range(s, c, colour, amount, reserve)
    if hi <= lo:
        pay_apply(s, c, colour, amount, lo, what, ev, evn)
        return 0
    frame_push(s, S.PR_PAY)
    frame_set(s, 0, colour)
    frame_set(s, 1, amount)
    frame_set(s, 2, reserve)
    frame_set(s, 3, what)
    s[S.S_CTX] = colour
    s[S.S_CTX + 1] = amount
    s[S.S_CTX + 2] = what
    ask_cur(s, S.D_PAY)
    return 1


@njit(cache=True, _nrt=False)
def answer_pay(s, x, ev, evn):
    """Pay the PR_PAY frame's cost with ``x`` Chaos; the payment is over."""
    colour = frame_get(s, 0)
    amount = frame_get(s, 1)
    what = frame_get(s, 3)
    frame_pop(s)
    pay_apply(s, s[S.S_CUR], colour, amount, x, what, ev, evn)


# ---- move (TEC-MV-1..5) -----------------------------------------------------------------------
@njit(cache=True, _nrt=False, forceinline=True)
def continue_move(ip, s, h, rng, ev, evn):
    """PR_MOVE: [stage, destination, from, direction, Town cards]."""
    c = s[S.S_CUR]
    o = S.char(c)
    stage = frame_get(s, 0)
    dest = frame_get(s, 1)
    if stage == S.MS_START:
        # TEC-MV-1 "in either direction": when both ways are legal the players choose (the
        # way round decides which face-down Page cards are passed, TEC-MV-4)
        cw_ok = L.direction_ok(s, c, dest, 1, ip)
        ccw_ok = L.direction_ok(s, c, dest, -1, ip)
        if cw_ok and ccw_ok:
            frame_set(s, 0, S.MS_DIRECTION)
            s[S.S_CTX] = dest
            ask_cur(s, S.D_DIRECTION)
            return 1
        frame_set(s, 3, 1 if cw_ok else (-1 if ccw_ok else 0))
        stage = S.MS_GO
    if stage == S.MS_GO:
        direction = frame_get(s, 3)
        frm = s[o + S.P_TOWN]
        steps = ((dest - frm) % S.N_TOWNS if direction == 1
                 else (frm - dest) % S.N_TOWNS)
        s[S.S_MUST_MOVE] = 0
        s[o + S.P_TOWN] = dest
        S.log(ev, evn, S.EV_MOVE, c, frm, dest, 0, direction, 0, 0)
        frame_set(s, 2, frm)
        frame_set(s, 4, steps)
        if L.flip_options(s, frm, direction, steps, ip) != 0:
            frame_set(s, 0, S.MS_FLIP)
            ask_cur(s, S.D_FLIP)
            return 1
        stage = S.MS_DRAW
    # MS_DRAW: TEC-MV-5 draws for the Shamblers there
    frame_pop(s)
    if S.shamblers_at(s, dest) > 0:  # (the guard saves a call on most moves)
        W.draw_on_stop(s, c, dest, rng, ip, ev, evn)
    return 0


@njit(cache=True, _nrt=False, forceinline=True)
def answer_direction(s, a):
    frame_set(s, 3, 1 if a == 0 else -1)
    frame_set(s, 0, S.MS_GO)


@njit(cache=True, _nrt=False, forceinline=True)
def answer_flip(ip, s, h, a, ev, evn):
    """TEC-MV-4: flip the card chosen (or none)."""
    if a < S.N_TOWNS:
        PG.flip_page(s, h, a, ip, ev, evn)
    frame_set(s, 0, S.MS_DRAW)


# ---- questions repeated until stop (collect and the town actions) -----------------------------
@njit(cache=True, _nrt=False, forceinline=True)
def push_repeat(s, kind, n):
    frame_push(s, S.PR_REPEAT)
    frame_set(s, 0, kind)
    frame_set(s, 1, n)


@njit(cache=True, _nrt=False, forceinline=True)
def continue_repeat(ip, s):
    """PR_REPEAT: [decision, times left]: ask again while something is left to choose."""
    kind = frame_get(s, 0)
    left = frame_get(s, 1)
    if left <= 0 or L.repeat_options(s, s[S.S_CUR], ip, kind) == 0:
        frame_pop(s)
        return 0
    s[S.S_CTX] = left
    ask_cur(s, kind)
    return 1


@njit(cache=True, _nrt=False, forceinline=True)
def answer_repeat(ip, s, h, a, ev, evn):
    """Apply one answer of a repeated question (its stop ends the procedure)."""
    kind = frame_get(s, 0)
    if a == L.repeat_stop(kind):
        frame_set(s, 1, 0)
        return
    frame_set(s, 1, frame_get(s, 1) - 1)
    c = s[S.S_CUR]
    o = S.char(c)
    t = s[o + S.P_TOWN]
    if kind == S.D_COLLECT:  # TEC-CO-1
        s[S.town(t) + S.T_MAD + a] -= 1
        s[o + S.P_TEMP + a] += 1
        S.log(ev, evn, S.EV_COLLECT, c, a, t, 0, 0, 0, 0)
    elif kind == S.D_VENT:  # vent, and the medium's ability
        s[o + S.P_TEMP + a] -= 1
        s[S.S_DISC_MAD + a] += 1
        # (PR_REPEAT's local 2 is 1 for the medium's ability, 0 for the vent town action)
        S.log(ev, evn, S.EV_TOWN_MOVE, c, S.TA_VENT if frame_get(s, 2) == 0 else -1, a, -1,
              -1, 1, 0)
    elif kind == S.D_POINTER_MADNESS:  # purge
        s[S.S_SMAT_MAD + a] -= 1
        s[S.S_DISC_MAD + a] += 1
        S.log(ev, evn, S.EV_CLEANUP, a, 1, 1, 0, 0, 0, 0)
    elif kind == S.D_STUDY:
        PG.flip_page(s, h, a, ip, ev, evn)
    elif kind == S.D_BARRICADE:
        s[S.town(t) + S.T_SH + a] -= 1
        s[S.S_SMAT_SH + a] += 1
        S.log(ev, evn, S.EV_TOWN_MOVE, c, S.TA_BARRICADE, a, t, -1, 1, 0)
    elif kind == S.D_GATHER:
        d = a // 3
        k = a % 3
        s[S.town(d) + S.T_MAD + k] -= 1
        s[o + S.P_TEMP + k] += 1
        S.log(ev, evn, S.EV_TOWN_MOVE, c, S.TA_GATHER, k, d, -1, 1, 0)
    elif kind == S.D_EXCHANGE:
        give = a // 3
        take = a % 3
        s[o + S.P_TEMP + give] -= 1
        s[S.S_SMAT_MAD + give] += 1
        s[S.S_SMAT_MAD + take] -= 1
        s[o + S.P_TEMP + take] += 1
        S.log(ev, evn, S.EV_TOWN_MOVE, c, S.TA_EXCHANGE, give, -1, take, 1, 0)


# ---- banish (TEC-BA-1..7) --------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def continue_banish(ip, s, rng, ev, evn):
    """PR_BANISH: [stage, Rage when it started, cost, brawler discount taken, colour]."""
    c = s[S.S_CUR]
    o = S.char(c)
    t = s[o + S.P_TOWN]
    stage = frame_get(s, 0)
    if stage == BS_START:
        frame_set(s, 1, min(s[o + S.P_TEMP + 1], 2))  # TEC-BA-6: counted when it starts
        n = min(S.shamblers_at(s, t), ip[S.I_DICE], S.MAX_DICE)  # TEC-BA-1
        frame_set(s, 0, BS_ROLLED)
        if roll_start(ip, s, rng, n, 0, ev, evn):
            return 1
        stage = BS_ROLLED
    if stage == BS_ROLLED:
        cost = 0
        for k in range(s[S.S_NDICE]):
            if s[S.S_DICE + k] > cost:  # TEC-BA-2: the highest single die, not a sum
                cost = s[S.S_DICE + k]
        brawled = 0
        if s[o + S.P_ABILITY] == S.AB_BRAWLER and s[S.S_BRAWLER_USED] == 0 and cost > 0:
            cost = max(cost - s[o + S.P_AMOUNT], 0)
            brawled = 1  # the once-a-turn discount is spent only if the banishment happens
        S.log(ev, evn, S.EV_BANISH, c, t, cost, -1, 0, 0, 0)
        if L.banish_options(s, c, t, cost) == 0:  # TEC-BA-4
            S.log(ev, evn, S.EV_BANISH, c, t, cost, -3, 0, 0, 0)
            frame_pop(s)
            return 0
        frame_set(s, 0, BS_CHOSEN)
        frame_set(s, 2, cost)
        frame_set(s, 3, brawled)
        s[S.S_CTX] = cost
        ask_cur(s, S.D_BANISH)
        return 1
    if stage == BS_PAY:
        frame_set(s, 0, BS_PAID)
        if pay_start(s, c, frame_get(s, 4), frame_get(s, 2), 0, S.PAY_BANISH, ev, evn):
            return 1
    # BS_PAID
    k = frame_get(s, 4)
    if frame_get(s, 3) == 1:
        s[S.S_BRAWLER_USED] = 1
    s[S.town(t) + S.T_SH + k] -= 1  # TEC-BA-5
    s[S.S_SMAT_SH + k] += 1
    s[S.S_CNT_BANISHED] += 1
    moved = min(ip[S.I_CLEANUP_BY_RAGE + frame_get(s, 1)], s[S.S_SMAT_MAD + k])  # TEC-BA-6
    s[S.S_SMAT_MAD + k] -= moved
    s[S.S_DISC_MAD + k] += moved
    S.log(ev, evn, S.EV_BANISH, c, t, frame_get(s, 2), k, moved, 0, 0)
    frame_pop(s)
    return 0


@njit(cache=True, _nrt=False, forceinline=True)
def answer_banish(s, a, ev, evn):
    """The colour to banish (then pay for it), or STOP: give up."""
    if a == S.STOP:
        c = s[S.S_CUR]
        S.log(ev, evn, S.EV_BANISH, c, s[S.char(c) + S.P_TOWN], frame_get(s, 2), -2, 0, 0, 0)
        frame_pop(s)
        return
    frame_set(s, 4, a)
    frame_set(s, 0, BS_PAY)


# ---- translate (TEC-TR-1..6) -----------------------------------------------------------------
@njit(cache=True, _nrt=False)
def continue_translate(ip, s, h, ev, evn):
    """PR_TRANSLATE: [stage, Fear, Rage, Greed to pay]."""
    c = s[S.S_CUR]
    o = S.char(c)
    t = s[o + S.P_TOWN]
    ot = S.town(t)
    stage = frame_get(s, 0)
    if stage == TRS_START:
        if s[ot + S.T_PAGE_STATE] == 0:  # face-down (translate_face_down): reveal it first
            PG.flip_page(s, h, t, ip, ev, evn)
            if (S.translate_deficit(s, c, t) - L.scholar_discount(s, c)
                    > s[o + S.P_CHAOS]):
                frame_pop(s)
                return 0  # flipped, but it cannot be paid: the action is spent on the flip
        discount = L.scholar_discount(s, c)
        if discount > 0:
            s[S.S_SCHOLAR_USED] = 1
        # the scholar's discount covers what the mat lacks first, then any other cost
        c0 = s[ot + S.T_PCOST]
        c1 = s[ot + S.T_PCOST + 1]
        c2 = s[ot + S.T_PCOST + 2]
        off0 = min(max(c0 - s[o + S.P_TEMP], 0), discount)
        discount -= off0
        off1 = min(max(c1 - s[o + S.P_TEMP + 1], 0), discount)
        discount -= off1
        off2 = min(max(c2 - s[o + S.P_TEMP + 2], 0), discount)
        discount -= off2
        more0 = min(c0 - off0, discount)
        discount -= more0
        more1 = min(c1 - off1, discount)
        discount -= more1
        more2 = min(c2 - off2, discount)
        frame_set(s, 1, c0 - off0 - more0)
        frame_set(s, 2, c1 - off1 - more1)
        frame_set(s, 3, c2 - off2 - more2)
        stage = TRS_PAY
    while stage < TRS_DONE:
        colour = stage - TRS_PAY
        # the Chaos the later colours cannot do without stays in reserve
        reserve = 0
        for k in range(colour + 1, S.N_COLOURS):
            reserve += max(frame_get(s, 1 + k) - s[o + S.P_TEMP + k], 0)
        stage += 1
        frame_set(s, 0, stage)
        if pay_start(s, c, colour, frame_get(s, 1 + colour), reserve, S.PAY_TRANSLATE, ev,
                     evn):
            return 1
    frame_pop(s)
    card = s[ot + S.T_PAGE]
    placed = 0
    for k in range(3):
        number = s[ot + S.T_PTOK + k]
        if number > 0:
            placed += PG.place_page_token(s, number, ip, ev, evn)
    for k in range(S.N_COLOURS):
        s[o + S.P_RUNES + k] += s[ot + S.T_PRUNE + k]
    s[o + S.P_PAGES] += 1
    s[S.S_GONE] |= 1 << card
    S.log(ev, evn, S.EV_TRANSLATE, c, t, card, placed, s[S.S_PAGES_PLACED], 0, 0)
    PG.deal_page(s, h, t)  # TEC-TR-5
    if s[S.S_PAGES_PLACED] >= ip[S.I_PAGE_TOKENS] and s[S.S_PHASE] == 1:
        PG.enter_phase_two(s, ip, ev, evn)
    return 0


# ---- seal (TEC-SE-1..4, TEC-E-1) -------------------------------------------------------------
@njit(cache=True, _nrt=False, forceinline=True)
def seal_cover(s, q, x, ev, evn):
    """TEC-SE-4: cover portal q with a Madness of its colour (x = 0) or a Chaos (x = 1); it
    stays there.  The sixth sealed portal wins (TEC-E-1)."""
    c = s[S.S_CUR]
    o = S.char(c)
    colour = s[S.portal(q) + S.Q_COLOUR]
    S.log(ev, evn, S.EV_PAY, c, colour, 1 - x, x, S.PAY_SEAL, 0, 0)
    if x == 0:
        s[o + S.P_TEMP + colour] -= 1
        s[S.portal(q) + S.Q_SEALED] = 1
    else:
        s[o + S.P_CHAOS] -= 1
        s[S.portal(q) + S.Q_SEALED] = 2
    s[S.S_SEALED] += 1
    if s[S.S_SEALED] >= S.N_PORTALS:
        s[OUTCOME] = S.O_WIN


@njit(cache=True, _nrt=False)
def continue_seal(ip, s, rng, ev, evn):
    """PR_SEAL: [stage, portal]."""
    c = s[S.S_CUR]
    o = S.char(c)
    q = frame_get(s, 1)
    colour = s[S.portal(q) + S.Q_COLOUR]
    if frame_get(s, 0) == SE_START:
        n = L.seal_dice(s, c, colour, ip)
        s[S.S_CNT_SEAL_TRIES] += 1
        s[S.S_CTX + 1] = q
        frame_set(s, 0, SE_ROLLED)
        if roll_start(ip, s, rng, n, 1, ev, evn):
            return 1
    total = 0
    for k in range(s[S.S_NDICE]):
        total += s[S.S_DICE + k]
    ok = total >= s[S.portal(q) + S.Q_NUMBER]
    S.log(ev, evn, S.EV_SEAL, c, q, total, s[S.portal(q) + S.Q_NUMBER], 1 if ok else 0, 0, 0)
    if not ok:
        frame_pop(s)
        return 0
    # the portal is covered with a Madness of its colour or a Chaos (the player's choice when
    # holding both)
    lo = 1 if s[o + S.P_TEMP + colour] == 0 else 0
    if lo == 0 and s[o + S.P_CHAOS] > 0:
        frame_set(s, 0, SE_COVER)
        s[S.S_CTX] = colour
        s[S.S_CTX + 1] = 1
        s[S.S_CTX + 2] = S.PAY_SEAL
        ask_cur(s, S.D_PAY)
        return 1
    frame_pop(s)
    seal_cover(s, q, lo, ev, evn)
    return 0


@njit(cache=True, _nrt=False, forceinline=True)
def answer_seal_cover(s, x, ev, evn):
    q = frame_get(s, 1)
    frame_pop(s)
    seal_cover(s, q, x, ev, evn)


# ---- travel (a town action: TEC-TA-1) ------------------------------------------------------------
@njit(cache=True, _nrt=False)
def answer_travel(ip, s, rng, dest, ev, evn):
    """Travel is not a Move: it flips no Page card, but stopping among Shamblers still draws
    (TEC-MV-5 applies to any arrival)."""
    frame_pop(s)
    c = s[S.S_CUR]
    o = S.char(c)
    t = s[o + S.P_TOWN]
    s[S.S_MUST_MOVE] = 0
    s[o + S.P_TOWN] = dest
    S.log(ev, evn, S.EV_MOVE, c, t, dest, 1, 0, 0, 0)
    W.draw_on_stop(s, c, dest, rng, ip, ev, evn)


# ---- the main action chosen ------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def town_action(ip, s, ev, evn):
    """TEC-TA-1: the action printed on the current Town card (effects in rules.toml): those
    that ask push their procedure."""
    c = s[S.S_CUR]
    o = S.char(c)
    t = s[o + S.P_TOWN]
    act = s[S.town(t) + S.T_ACTION]
    n = s[S.town(t) + S.T_AMOUNT]
    S.log(ev, evn, S.EV_TOWN_ACTION, c, t, act, n, 0, 0, 0)
    if act == S.TA_VENT:
        push_repeat(s, S.D_VENT, n)
    elif act == S.TA_RECRUIT:
        moved = 0
        for _ in range(n):
            if s[S.S_SUP_CHAOS] > 0 and s[o + S.P_CHAOS] < ip[S.I_CHAOS_CAP]:
                s[S.S_SUP_CHAOS] -= 1
                s[o + S.P_CHAOS] += 1
                moved += 1
        S.log(ev, evn, S.EV_TOWN_MOVE, c, S.TA_RECRUIT, S.K_CHAOS, -1, -1, moved, 0)
    elif act == S.TA_PURGE:
        push_repeat(s, S.D_POINTER_MADNESS, n)
    elif act == S.TA_TRAVEL:
        frame_push(s, S.PR_TRAVEL)
    elif act == S.TA_STUDY:
        push_repeat(s, S.D_STUDY, n)
    elif act == S.TA_WARD:
        moved = 0
        for _ in range(n):
            if s[S.S_ENERGY] > 0:
                s[S.S_ENERGY] -= 1
                s[S.S_BAG + S.K_ELDRITCH] += 1
                moved += 1
        S.log(ev, evn, S.EV_TOWN_MOVE, c, S.TA_WARD, S.K_ELDRITCH, -1, -1, moved, 0)
    elif act == S.TA_BARRICADE:
        push_repeat(s, S.D_BARRICADE, n)
    elif act == S.TA_GATHER:
        push_repeat(s, S.D_GATHER, n)
    elif act == S.TA_PRAY:
        s[o + S.P_BRAIN] = max(s[o + S.P_BRAIN] - n, 0)
        S.log(ev, evn, S.EV_BRAIN, c, s[o + S.P_BRAIN], s[o + S.P_DEL_LEN], 1, 0, 0, 0)
    elif act == S.TA_EXCHANGE:
        push_repeat(s, S.D_EXCHANGE, n)


@njit(cache=True, _nrt=False, forceinline=True)
def start_action(ip, s, a, ev, evn):
    """Carry out main action ``a`` (already legal and paid for), or push its procedure."""
    c = s[S.S_CUR]
    o = S.char(c)
    if a < S.A_COLLECT:
        frame_push(s, S.PR_MOVE)
        frame_set(s, 1, a - S.A_MOVE)
    elif a == S.A_COLLECT:
        # TEC-CO-1 / TEC-CO-2: 1-3 Madness by the Greed track when the action starts, never
        # beyond two on a Temperament Track
        n = ip[S.I_COLLECT_BY_GREED + min(s[o + S.P_TEMP + 2], 2)]
        if s[o + S.P_ABILITY] == S.AB_COLLECTOR:
            n += s[o + S.P_AMOUNT]
        push_repeat(s, S.D_COLLECT, n)
    elif a == S.A_BANISH:
        frame_push(s, S.PR_BANISH)
    elif a == S.A_TOWN:
        town_action(ip, s, ev, evn)
    elif a == S.A_TRANSLATE:
        frame_push(s, S.PR_TRANSLATE)
    elif a < S.A_ABILITY:
        frame_push(s, S.PR_SEAL)
        frame_set(s, 1, a - S.A_SEAL)
    elif a == S.A_ABILITY:  # TEC-A-2: an active ability, without spending an action
        s[S.S_ABILITY_USED] = 1
        S.log(ev, evn, S.EV_ABILITY, c, s[o + S.P_ABILITY], 0, 0, 0, 0, 0)
        if s[o + S.P_ABILITY] == S.AB_MEDIUM:
            push_repeat(s, S.D_VENT, s[o + S.P_AMOUNT])
            frame_set(s, 2, 1)  # (the trace: the medium, not the vent town action)
