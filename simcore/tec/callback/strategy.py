"""Tiny Epic Cthulhu strategies.

Each is a jitted ``decide(st, legal, params, rng) -> choice`` that reads only the public state
``st`` (offsets in ``simcore.tec.callback.state``) and the legal mask; ``st[S_DECISION]`` says which
decision is asked (D_*), ``st[S_CTX..]`` what it is about.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from simcore.kernels import first_legal, popcount, rng_int
from simcore.tec.callback.state import (
    A_ABILITY,
    A_BANISH,
    A_COLLECT,
    A_END,
    A_MOVE,
    A_SEAL,
    A_TOWN,
    A_TRANSLATE,
    D_ACTION,
    D_BANISH,
    D_BARRICADE,
    D_COLLECT,
    D_DIRECTION,
    D_EXCHANGE,
    D_FLIP,
    D_GATHER,
    D_PAY,
    D_POINTER_MADNESS,
    D_REROLL,
    D_STUDY,
    D_TOWN_SIDE,
    D_TRAVEL,
    D_VENT,
    N_COLOURS,
    N_PORTALS,
    N_TOWNS,
    P_BRAIN,
    P_CHAOS,
    P_RUNES,
    P_TEMP,
    P_TOWN,
    Q_COLOUR,
    Q_NUMBER,
    Q_SEALED,
    Q_SIZE,
    S_ACTIONS_LEFT,
    S_CTX,
    S_CUR,
    S_DECISION,
    S_DICE,
    S_DICE_MAX,
    S_ENERGY,
    S_ENERGY_LEN,
    S_GOO_TOWN,
    S_MUST_MOVE,
    S_NDICE,
    S_NECRO_COLS,
    S_NECRO_ROW,
    S_PHASE,
    S_PORTALS,
    S_REROLLS,
    S_SMAT_MAD,
    S_TEMP_CAP,
    T_ACTION,
    T_MAD,
    T_MAD_LEN,
    T_PAGE_STATE,
    T_PCOST,
    T_PRUNE,
    T_PTOK,
    T_SH,
    T_SH_LEN,
    TA_BARRICADE,
    TA_EXCHANGE,
    TA_GATHER,
    TA_PRAY,
    TA_PURGE,
    TA_RECRUIT,
    TA_STUDY,
    TA_TRAVEL,
    TA_VENT,
    TA_WARD,
    ring_distance,
    shamblers_at,
    translate_deficit,
)
from simcore.tec.callback.state import (
    char as ch,
)
from simcore.tec.callback.state import (
    town as tw,
)

# the parameters by position, with their default values (as strategies/tec.py had them)
HEURISTIC_DEFAULTS = np.array([60.0, 120.0, 6.0, 1.0, 100.0, 15.0])
TRANSLATE_HERE, SEAL_HERE, SHAMBLER_PENALTY, BANISH_WEIGHT, CHAOS_THRESHOLD, FLIP_VALUE = range(6)

STOP = 3


@njit(cache=True, _nrt=False, inline="always")
def uniform_legal(legal, rng):
    """strategies.common.uniform_legal as it was (masks of up to 64 entries)."""
    m = np.uint64(0)
    for k in range(legal.shape[0]):
        m |= np.uint64(legal[k] != 0) << np.uint64(k)
    n = popcount(m)
    if n == 0:
        return -1
    r = rng_int(rng, np.int64(n))
    for _ in range(r):
        m &= m - np.uint64(1)
    return np.int64(trailing_zeros(m))


@njit(cache=True, _nrt=False)
def random_choice(st, legal, params, rng):
    """Uniformly among the legal choices at every decision: the baseline and the fuzzer."""
    return uniform_legal(legal, rng)


# ---- reading the public state -----------------------------------------------------------
@njit(cache=True, _nrt=False, inline="always")
def placeable(st, t):
    """Page tokens the face-up card at Town t would still place on the Necronomicon."""
    o = tw(t)
    cols = st[S_NECRO_COLS]
    n = 0
    for k in range(3):  # no branches: which tokens still fit is hard to predict
        number = st[o + T_PTOK + k]
        row = st[S_NECRO_ROW + max(number, 1) - 1]
        n += (number > 0) & (row < cols)
    return n


@njit(cache=True, _nrt=False, inline="always")
def target_page(st, c):
    """The face-up Page card most worth working toward: tokens it still places, discounted by
    what is missing and by distance.  Returns a town, or -1."""
    here = st[ch(c) + P_TOWN]
    best = -1
    best_v = 0.0
    for t in range(N_TOWNS):
        if st[tw(t) + T_PAGE_STATE] != 1:
            continue
        n = placeable(st, t)
        if n == 0:
            continue
        v = 10.0 * n - 3.0 * translate_deficit(st, c, t) - 3.0 * ring_distance(here, t)
        if best < 0 or v > best_v:
            best = t
            best_v = v
    return best


@njit(cache=True, _nrt=False, inline="always")
def needs(st, c):
    """How many more of each colour character c wants: for its target page in phase one,
    one of each open portal's colour it holds runes for in phase two (a 3-tuple)."""
    o = ch(c)
    if st[S_PHASE] == 2:
        w0 = w1 = w2 = 0
        for q in range(N_PORTALS):
            p = S_PORTALS + q * Q_SIZE
            if st[p + Q_SEALED] == 0 and st[o + P_RUNES + st[p + Q_COLOUR]] > 0:
                if st[p + Q_COLOUR] == 0:
                    w0 = 1
                elif st[p + Q_COLOUR] == 1:
                    w1 = 1
                else:
                    w2 = 1
        return (max(w0 - st[o + P_TEMP], 0), max(w1 - st[o + P_TEMP + 1], 0),
                max(w2 - st[o + P_TEMP + 2], 0))
    t = target_page(st, c)
    if t < 0:
        return (0, 0, 0)
    return (max(st[tw(t) + T_PCOST] - st[o + P_TEMP], 0),
            max(st[tw(t) + T_PCOST + 1] - st[o + P_TEMP + 1], 0),
            max(st[tw(t) + T_PCOST + 2] - st[o + P_TEMP + 2], 0))


@njit(cache=True, _nrt=False, inline="always")
def at_risk(st, c):
    """True when a forced draw could make a Temperament Track accursed."""
    o = ch(c)
    for k in range(N_COLOURS):
        if st[o + P_TEMP + k] >= st[S_TEMP_CAP]:
            return True
    return False


@njit(cache=True, _nrt=False, inline="always")
def seal_margin(st, c, q):
    """Dice character c would roll for portal q minus the portal's number (-99: cannot)."""
    o = ch(c)
    p = S_PORTALS + q * Q_SIZE
    if st[p + Q_SEALED] != 0:
        return -99
    colour = st[p + Q_COLOUR]
    dice = min(st[o + P_RUNES + colour], st[S_DICE_MAX])
    if dice == 0 or (st[o + P_TEMP + colour] == 0 and st[o + P_CHAOS] == 0):
        return -99
    return dice - st[p + Q_NUMBER]


@njit(cache=True, _nrt=False, inline="always")
def best_seal_margin(st, c):
    best = -99
    for q in range(N_PORTALS):
        best = max(best, seal_margin(st, c, q))
    return best


@njit(cache=True, _nrt=False, inline="always")
def collect_gain(st, c, t, n, need):
    """Value of collecting up to n Madness at Town t: needed colours first, then relieving
    full town tracks (an accursed track unleashes a power)."""
    o = ch(c)
    cap = st[S_TEMP_CAP]
    # counted without branches (a take of 0 adds nothing): the amounts are hard to predict
    left = n
    taken = 0
    for k in range(N_COLOURS):
        room = cap - st[o + P_TEMP + k]
        take = max(min(need[k], st[tw(t) + T_MAD + k], room, left), 0)
        taken += take
        left -= take
    relieved = 0
    mad_len = st[tw(t) + T_MAD_LEN]
    for k in range(N_COLOURS):
        # never fill a track just to relieve a town
        r = (left > 0) & (st[tw(t) + T_MAD + k] >= mad_len) & (st[o + P_TEMP + k] + 1 < cap)
        relieved += r
        left -= r
    return 15.0 * taken + 6.0 * relieved


@njit(cache=True, _nrt=False, inline="always")
def town_value(st, c, t, params, need, arriving):
    """How good it is for character c to stand on Town t (used to choose moves).  Arriving
    by a Move also flips a face-down card there (TEC-MV-4); standing still does not."""
    o = ch(c)
    v = 0.0
    state = st[tw(t) + T_PAGE_STATE]
    if st[S_PHASE] == 1:
        if state == 1:
            n = placeable(st, t)
            runes = st[tw(t) + T_PRUNE] + st[tw(t) + T_PRUNE + 1] + st[tw(t) + T_PRUNE + 2]
            if n > 0 or runes > 0:
                d = translate_deficit(st, c, t)
                supply = 0
                for k in range(N_COLOURS):
                    short = st[tw(t) + T_PCOST + k] - st[o + P_TEMP + k]
                    if short > 0:
                        supply += min(short, st[tw(t) + T_MAD + k])
                if d <= st[o + P_CHAOS]:
                    v += params[TRANSLATE_HERE] + 10.0 * n
                elif d - supply <= st[o + P_CHAOS]:
                    v += 0.6 * params[TRANSLATE_HERE] + 8.0 * n
                else:
                    v += 4.0 * n - 3.0 * (d - supply)
        elif state == 0 and arriving:
            v += params[FLIP_VALUE]
    elif t == st[S_GOO_TOWN]:
        m = best_seal_margin(st, c)
        if m > -99:
            v += params[SEAL_HERE] + 25.0 * m
    v += 0.5 * collect_gain(st, c, t, 3, need)
    n_sh = shamblers_at(st, t)
    v -= n_sh * (params[SHAMBLER_PENALTY] * (2.0 if at_risk(st, c) else 1.0))
    return v


@njit(cache=True, _nrt=False, inline="always")
def move_value(st, c, here, dest, params, need):
    """Value of standing on ``dest`` after a Move there, including a face-down Page card
    passed on the way (which the Move may flip instead)."""
    v = town_value(st, c, dest, params, need, True)
    if st[S_PHASE] == 1 and st[tw(dest) + T_PAGE_STATE] != 0:
        cw = (dest - here) % N_TOWNS
        step = 1 if cw <= N_TOWNS - cw else -1
        k = (here + step) % N_TOWNS
        while k != dest:
            if st[tw(k) + T_PAGE_STATE] == 0:
                v += 0.5 * params[FLIP_VALUE]
                break
            k = (k + step) % N_TOWNS
    return v


@njit(cache=True, _nrt=False, inline="always")
def town_action_value(st, c, params, need):
    o = ch(c)
    t = st[o + P_TOWN]
    act = st[tw(t) + T_ACTION]
    if act == TA_VENT:
        return 40.0 if at_risk(st, c) else 0.0
    if act == TA_RECRUIT:
        return 20.0
    if act == TA_PURGE:
        return min(3.0 * (st[S_SMAT_MAD] + st[S_SMAT_MAD + 1] + st[S_SMAT_MAD + 2]), 18.0)
    if act == TA_TRAVEL:
        here = town_value(st, c, t, params, need, False)
        best = 0.0
        for d in range(N_TOWNS):
            if d != t and (st[S_PHASE] == 2 or d != st[S_GOO_TOWN]):
                best = max(best, town_value(st, c, d, params, need, True) - here)
        return 0.8 * best
    if act == TA_STUDY:
        if st[S_PHASE] == 2:
            return 0.0
        for d in range(N_TOWNS):
            if st[tw(d) + T_PAGE_STATE] == 1 and placeable(st, d) > 0:
                return 4.0
        return 30.0
    if act == TA_WARD:
        return 70.0 if st[S_ENERGY] >= st[S_ENERGY_LEN] else 10.0 * st[S_ENERGY]
    if act == TA_BARRICADE:
        return 8.0 * shamblers_at(st, t)
    if act == TA_GATHER:
        for k in range(N_COLOURS):
            if need[k] > 0:
                for d in range(N_TOWNS):
                    if st[tw(d) + T_MAD + k] > 0:
                        return 18.0
        return 0.0
    if act == TA_PRAY:
        return 45.0 if st[o + P_BRAIN] >= 1 else 0.0
    if act == TA_EXCHANGE:
        for b in range(N_COLOURS):
            if need[b] > 0 and st[S_SMAT_MAD + b] > 0:
                for a in range(N_COLOURS):
                    if a != b and st[o + P_TEMP + a] > need[a]:
                        return 15.0
        return 0.0
    return 0.0


@njit(cache=True, _nrt=False, inline="always")
def action_value(st, a, c, params, need):
    o = ch(c)
    t = st[o + P_TOWN]
    if a == A_TRANSLATE:
        if st[tw(t) + T_PAGE_STATE] != 1 or placeable(st, t) > 0:
            return 150.0
        return 25.0 * (st[tw(t) + T_PRUNE] + st[tw(t) + T_PRUNE + 1] + st[tw(t) + T_PRUNE + 2])
    if a >= A_SEAL and a < A_SEAL + N_PORTALS:
        return 120.0 + 30.0 * seal_margin(st, c, a - A_SEAL)
    if a == A_COLLECT:
        greed = min(st[o + P_TEMP + 2], 2)
        return collect_gain(st, c, t, 1 + greed, need)
    if a == A_BANISH:
        n = shamblers_at(st, t)
        pay = st[o + P_CHAOS]
        for k in range(N_COLOURS):
            if st[tw(t) + T_SH + k] > 0:
                pay += max(st[o + P_TEMP + k] - need[k], 0)
        v = 8.0 * n + (20.0 if n >= st[tw(t) + T_SH_LEN] else 0.0)
        return v * params[BANISH_WEIGHT] if pay > 0 else 3.0
    if a == A_TOWN:
        return town_action_value(st, c, params, need)
    if a == A_ABILITY:
        return 30.0 if at_risk(st, c) else 0.0
    return 0.0


# How much the heuristic values each town action when choosing a Town card's side (TA_*
# order): from paired sweeps with every side fixed, purge (Madness back toward the bag, where
# it dilutes the Eldritch tentacles) and gather helped most, barricade and recruit least.
SIDE_PREFERENCE = (2.0, 1.0, 5.0, 3.0, 2.0, 3.0, 0.0, 4.0, 3.0, 1.0)


@njit(cache=True, _nrt=False, inline="always")
def side_value(action, madness_track, shambler_track):
    return SIDE_PREFERENCE[action] + 0.1 * (madness_track + shambler_track)


@njit(cache=True, _nrt=False)
def heuristic(st, legal, params, rng):
    """A sensible team plan: get away from the Great Old One, collect what revealed pages need,
    translate, banish threatening Shamblers, use town actions when they pay, then hunt
    portals in phase two; spend Chaos for extra actions only to translate or seal."""
    kind = st[S_DECISION]
    c = st[S_CUR]
    o = ch(c)
    here = st[o + P_TOWN]
    need = (0, 0, 0)
    if kind == D_ACTION or kind == D_COLLECT or kind == D_BANISH or kind == D_VENT or (
            kind == D_TRAVEL or kind == D_GATHER or kind == D_EXCHANGE):
        need = needs(st, c)
    if kind == D_ACTION:
        spending_chaos = st[S_ACTIONS_LEFT] <= 0
        best = A_END
        best_v = params[CHAOS_THRESHOLD] if spending_chaos else 0.5
        must = st[S_MUST_MOVE] == 1
        if must:
            best_v = -1e9
        # value of standing on each town, computed once (moves compare them)
        any_move = False
        for d in range(N_TOWNS):
            if legal[A_MOVE + d]:
                any_move = True
        v_here = 0.0
        v0 = v1 = v2 = v3 = v4 = 0.0
        if any_move:
            v_here = town_value(st, c, here, params, need, False)
            v0 = move_value(st, c, here, 0, params, need) if legal[A_MOVE] else 0.0
            v1 = move_value(st, c, here, 1, params, need) if legal[A_MOVE + 1] else 0.0
            v2 = move_value(st, c, here, 2, params, need) if legal[A_MOVE + 2] else 0.0
            v3 = move_value(st, c, here, 3, params, need) if legal[A_MOVE + 3] else 0.0
            v4 = move_value(st, c, here, 4, params, need) if legal[A_MOVE + 4] else 0.0
        for a in range(A_END):
            if not legal[a]:
                continue
            if a < A_COLLECT:
                tv = (v0, v1, v2, v3, v4)[a - A_MOVE]
                v = tv if must else 0.8 * (tv - v_here)
            elif must:
                continue
            else:
                v = action_value(st, a, c, params, need)
            if v > best_v:
                best = a
                best_v = v
        if not legal[best]:
            best = first_legal(legal)
        return best
    if kind == D_FLIP:
        dest = here
        if legal[dest]:
            return dest
        for t in range(N_TOWNS):
            if legal[t]:
                return t
        return N_TOWNS
    if kind == D_COLLECT:
        cap = st[S_TEMP_CAP]
        for k in range(N_COLOURS):  # needed colours first
            if legal[k] and need[k] > 0:
                return k
        best = STOP
        for k in range(N_COLOURS):  # then relieve a full town track, without filling ours
            if (legal[k] and st[tw(here) + T_MAD + k] >= st[tw(here) + T_MAD_LEN]
                    and st[o + P_TEMP + k] + 1 < cap):
                best = k
        return best
    if kind == D_REROLL:
        n = st[S_NDICE]
        r = st[S_REROLLS]
        mask = 0
        if st[S_CTX] == 0:
            # banish: the cost is the highest die; rerolling helps only if every die showing
            # it can be rerolled (otherwise the highest stays and a reroll can only raise it)
            top = 0
            for k in range(n):
                top = max(top, st[S_DICE + k])
            at_top = 0
            for k in range(n):
                if st[S_DICE + k] == top:
                    at_top += 1
            if top > 0 and at_top <= r:
                for k in range(n):
                    if st[S_DICE + k] == top:
                        mask |= 1 << k
        else:
            # seal: only when short of the portal's number, reroll the lowest dice (0s, then
            # 1s) while the shortfall could still be made up
            total = 0
            for k in range(n):
                total += st[S_DICE + k]
            target = st[S_PORTALS + st[S_CTX + 1] * Q_SIZE + Q_NUMBER]
            used = 0
            for v in range(2):
                for k in range(n):
                    if total < target and st[S_DICE + k] == v and used < r:
                        mask |= 1 << k
                        used += 1
                        total += 2 - v  # the best this die could add
        return mask if legal[mask] else 0
    if kind == D_BANISH:
        cost = st[S_CTX]
        best = -1
        best_v = 0.0
        for k in range(N_COLOURS):
            if not legal[k]:
                continue
            spare = st[o + P_TEMP + k] - need[k]
            v = (st[tw(here) + T_SH + k] + 2.0 * min(spare, cost)
                 - 3.0 * max(cost - max(spare, 0), 0))
            if best < 0 or v > best_v:
                best = k
                best_v = v
        if best < 0:
            return STOP
        spare = st[o + P_TEMP + best] - need[best]
        if cost > 0 and cost > max(spare, 0) + 1:
            return STOP  # would spend tentacles (or Chaos) the team needs for pages
        return best
    if kind == D_POINTER_MADNESS:
        best = -1
        for k in range(N_COLOURS):
            if legal[k] and (best < 0 or st[S_SMAT_MAD + k] > st[S_SMAT_MAD + best]):
                best = k
        return best
    if kind == D_TOWN_SIDE:
        v0 = side_value(st[S_CTX + 2], st[S_CTX + 3], st[S_CTX + 4])
        v1 = side_value(st[S_CTX + 5], st[S_CTX + 6], st[S_CTX + 7])
        return 0 if v0 >= v1 else 1
    if kind == D_VENT:
        best = -1
        for k in range(N_COLOURS):
            if legal[k] and st[o + P_TEMP + k] > need[k]:
                if best < 0 or st[o + P_TEMP + k] > st[o + P_TEMP + best]:
                    best = k
        return STOP if best < 0 else best
    if kind == D_TRAVEL:
        best = -1
        best_v = 0.0
        for t in range(N_TOWNS):
            if legal[t]:
                v = town_value(st, c, t, params, need, False)
                if best < 0 or v > best_v:
                    best = t
                    best_v = v
        return best
    if kind == D_GATHER:
        best = 15
        best_v = 0.0
        for t in range(N_TOWNS):
            for k in range(N_COLOURS):
                if legal[t * 3 + k]:
                    v = 3.0 * need[k] + st[tw(t) + T_MAD + k]
                    if v > best_v:
                        best = t * 3 + k
                        best_v = v
        return best
    if kind == D_EXCHANGE:
        best = 9
        for a in range(N_COLOURS):
            for b in range(N_COLOURS):
                if legal[a * 3 + b] and need[b] > 0 and need[a] == 0:
                    best = a * 3 + b
        return best
    if kind == D_DIRECTION:
        # the way round that passes a face-down Page card (to flip, TEC-MV-4) when the
        # destination's own card is not one; otherwise the shorter way
        dest = st[S_CTX]
        cw = (dest - here) % N_TOWNS
        if st[S_PHASE] == 1 and st[tw(dest) + T_PAGE_STATE] != 0 and params[FLIP_VALUE] > 0:
            for way in range(2):
                step = 1 if way == 0 else -1
                k = (here + step) % N_TOWNS
                while k != dest:
                    if st[tw(k) + T_PAGE_STATE] == 0:
                        return way
                    k = (k + step) % N_TOWNS
        return 0 if cw <= N_TOWNS - cw else 1
    if kind == D_PAY:
        # Madness first: Chaos is wild, buys extra actions and is capped at two, while spent
        # Madness only returns to the bag through the Discard mat
        return first_legal(legal)
    if kind == D_STUDY:
        best = N_TOWNS
        best_d = N_TOWNS
        for t in range(N_TOWNS):
            if legal[t] and ring_distance(here, t) < best_d:
                best = t
                best_d = ring_distance(here, t)
        return best
    if kind == D_BARRICADE:
        best = STOP
        for k in range(N_COLOURS):
            if legal[k] and (best == STOP
                             or st[tw(here) + T_SH + k] > st[tw(here) + T_SH + best]):
                best = k
        return best
    return first_legal(legal)
