"""Tiny Epic Cthulhu strategies.

Each is a step-engine policy ``(ip, fp, s, view, mask, params, rng) -> choice``
(``simcore.engine.POLICY_SIG``) that reads only the public state ``s`` (offsets in
``simcore.tec.state``) and the legal mask; ``s[DECISION]`` says which decision is asked (D_*),
``s[S_CTX..]`` what it is about.  The game has no per-seat view (every player sees the same).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simcore.engine import DECISION
from simcore.kernels import lowest_bit
from simcore.tec import legality as L
from simcore.tec import state as S
from strategies.common import first_legal, legal_bits, uniform_legal
from strategies.registry import Param, param_offsets, register

HEURISTIC_PARAMS = {
    "translate_here": Param(60.0, 0.0, 1000.0, "value of standing where a page can be paid"),
    "seal_here": Param(120.0, 0.0, 1000.0, "value of standing where a portal can be tried"),
    "shambler_penalty": Param(6.0, 0.0, 100.0, "cost per Shambler at a destination"),
    "banish_weight": Param(1.0, 0.0, 10.0, "multiplier on the value of banishing"),
    # the defaults below come from paired comparisons on the same games (NOTES.md, "The
    # heuristic"); chaos_threshold 100, chaos_full_factor 1, seal_reach 0 and
    # leftover_value 0 play the heuristic as it was before issue 15
    "chaos_threshold": Param(10.0, 0.0, 1000.0,
                             "an extra action bought with Chaos must be worth this much (the "
                             "value of a Chaos slot kept)"),
    "flip_value": Param(15.0, 0.0, 1000.0, "value of revealing a face-down Page card"),
    "chaos_full_factor": Param(0.0, 0.0, 1.0,
                               "chaos_threshold is multiplied by this when the Chaos Track is "
                               "full (the next Chaos gained would be lost)"),
    "seal_reach": Param(1.0, 0.0, 1.0,
                        "1: count seal dice as the rules do (the Occultist's extra die) and "
                        "never attempt a seal the dice cannot reach (two per die at most)"),
    "leftover_value": Param(0.0, 0.0, 100.0,
                            "value added to a collect, banish or town action that still does "
                            "something, so a turn does not end with useful actions left "
                            "(1.0 measured 3.5-4.4 points worse: off)"),
    # issue 15, part 2, the team's plan (NOTES.md, "The heuristic (issue 15)"):
    # prepare_tokens 0 plays the heuristic as it was before it
    "prepare_tokens": Param(25.0, 0.0, 100.0,
                            "before the flip, once at most this many Page tokens are left to "
                            "place (25: the whole of phase one), a character also wants "
                            "Madness of the colours it is to seal (prepare_slack says which)"),
    "prepare_slack": Param(3.0, 0.0, 3.0,
                           "a character is to seal a colour when it rolls at least the team's "
                           "most seal dice for it less this (0: only the team's best sealer; "
                           "3: anyone with a die, measured best)"),
    "seal_stock": Param(2.0, 1.0, 2.0,
                        "Madness of a colour a sealer wants to hold before the flip: one, or "
                        "one for each of the colour's open portals up to this"),
    "stock_team": Param(0.0, 0.0, 1.0,
                        "1: a sealer wants more than one Madness of a colour only while the "
                        "team's other sealers of it hold fewer than its open portals"),
    "stock_players": Param(1.0, 1.0, 4.0,
                           "the stock is kept only by teams of at least this many characters"),
    "stock_room": Param(2.0, 0.0, 10.0,
                        "a character stocks only while more than this many further accursed "
                        "Temperament Tracks would leave it sane (its Delirium Track's room)"),
}
_P = param_offsets(HEURISTIC_PARAMS)
TRANSLATE_HERE = _P["translate_here"]
SEAL_HERE = _P["seal_here"]
SHAMBLER_PENALTY = _P["shambler_penalty"]
BANISH_WEIGHT = _P["banish_weight"]
CHAOS_THRESHOLD = _P["chaos_threshold"]
FLIP_VALUE = _P["flip_value"]
CHAOS_FULL_FACTOR = _P["chaos_full_factor"]
SEAL_REACH = _P["seal_reach"]
LEFTOVER_VALUE = _P["leftover_value"]
PREPARE_TOKENS = _P["prepare_tokens"]
PREPARE_SLACK = _P["prepare_slack"]
SEAL_STOCK = _P["seal_stock"]
STOCK_TEAM = _P["stock_team"]
STOCK_PLAYERS = _P["stock_players"]
STOCK_ROOM = _P["stock_room"]

STOP = 3
ACTION_BITS = np.uint64((1 << S.A_END) - 1)  # the actions the heuristic weighs (A_END aside)
MOVE_BITS = np.uint64(((1 << S.N_TOWNS) - 1) << S.A_MOVE)


@njit(cache=True, _nrt=False)
def random_choice(ip, fp, st, view, legal, params, rng):
    """Uniformly among the legal choices at every decision: the baseline and the fuzzer."""
    return uniform_legal(legal, rng)


# ---- reading the public state -----------------------------------------------------------
@njit(cache=True, _nrt=False, forceinline=True)
def placeable(st, t):
    """Page tokens the face-up card at Town t would still place on the Necronomicon."""
    o = S.town(t)
    cols = st[S.S_NECRO_COLS]
    n = 0
    for k in range(3):  # no branches: which tokens still fit is hard to predict
        number = st[o + S.T_PTOK + k]
        row = st[S.S_NECRO_ROW + max(number, 1) - 1]
        n += (number > 0) & (row < cols)
    return n


@njit(cache=True, _nrt=False, forceinline=True)
def target_page(st, c):
    """The face-up Page card most worth working toward: tokens it still places, discounted by
    what is missing and by distance.  Returns a town, or -1."""
    here = st[S.char(c) + S.P_TOWN]
    best = -1
    best_v = 0.0
    for t in range(S.N_TOWNS):
        if st[S.town(t) + S.T_PAGE_STATE] != 1:
            continue
        n = placeable(st, t)
        if n == 0:
            continue
        v = 10.0 * n - 3.0 * S.translate_deficit(st, c, t) - 3.0 * S.ring_distance(here, t)
        if best < 0 or v > best_v:
            best = t
            best_v = v
    return best


@njit(cache=True, _nrt=False, forceinline=True)
def team_best_dice(ip, st, colour):
    """The most seal dice any character rolls for a portal of this colour (TEC-SE-2)."""
    best = 0
    for c in range(st[S.S_NCHARS]):
        best = max(best, L.seal_dice(st, c, colour, ip))
    return best


@njit(cache=True, _nrt=False, forceinline=True)
def seal_want(ip, st, c, k, params):
    """Madness of colour k character c wants to hold for the seals ahead (0 when it is not
    to seal that colour: fewer dice than the team's most, TEC-SE-2, by more than
    ``prepare_slack``): one, or with ``seal_stock`` 2 one a portal of the colour; with
    ``stock_team`` the second only while the colour's other sealers hold fewer Madness of
    it than it has open portals."""
    d = L.seal_dice(st, c, k, ip)
    if d == 0 or d < team_best_dice(ip, st, k) - params[PREPARE_SLACK]:
        return 0
    open_k = 0
    for q in range(S.N_PORTALS):
        p = S.S_PORTALS + q * S.Q_SIZE
        open_k += (st[p + S.Q_SEALED] == 0) & (st[p + S.Q_COLOUR] == k)
    want = min(open_k, int(params[SEAL_STOCK]))
    if params[STOCK_TEAM] > 0.5 and want > 1:
        held = 0
        for e in range(st[S.S_NCHARS]):
            if e != c and L.seal_dice(st, e, k, ip) > 0:
                held += st[S.char(e) + S.P_TEMP + k]
        if held >= open_k - 1:
            want = 1
    return want


@njit(cache=True, _nrt=False, forceinline=True)
def needs(ip, st, c, params):
    """How many more of each colour character c wants: for its target page in phase one,
    one of each open portal's colour it holds runes for in phase two (a 3-tuple).  With
    ``prepare_tokens``, phase one also stocks the Madness of the colours c is to seal
    (``seal_want``), so that the team starts phase two able to seal."""
    o = S.char(c)
    if st[S.S_PHASE] == 2:
        w0 = w1 = w2 = 0
        for q in range(S.N_PORTALS):
            p = S.S_PORTALS + q * S.Q_SIZE
            if st[p + S.Q_SEALED] == 0 and st[o + S.P_RUNES + st[p + S.Q_COLOUR]] > 0:
                if st[p + S.Q_COLOUR] == 0:
                    w0 = 1
                elif st[p + S.Q_COLOUR] == 1:
                    w1 = 1
                else:
                    w2 = 1
        return (max(w0 - st[o + S.P_TEMP], 0), max(w1 - st[o + S.P_TEMP + 1], 0),
                max(w2 - st[o + S.P_TEMP + 2], 0))
    t = target_page(st, c)
    n0 = n1 = n2 = 0
    if t >= 0:
        n0 = st[S.town(t) + S.T_PCOST]
        n1 = st[S.town(t) + S.T_PCOST + 1]
        n2 = st[S.town(t) + S.T_PCOST + 2]
    room = st[o + S.P_DEL_LEN] - 1 - st[o + S.P_BRAIN]  # accursed tracks it survives
    if (st[S.S_PAGE_PILE] <= params[PREPARE_TOKENS] and st[S.S_NCHARS] >= params[STOCK_PLAYERS]
            and room > params[STOCK_ROOM]):
        n0 = max(n0, seal_want(ip, st, c, 0, params))
        n1 = max(n1, seal_want(ip, st, c, 1, params))
        n2 = max(n2, seal_want(ip, st, c, 2, params))
    return (max(n0 - st[o + S.P_TEMP], 0), max(n1 - st[o + S.P_TEMP + 1], 0),
            max(n2 - st[o + S.P_TEMP + 2], 0))


@njit(cache=True, _nrt=False, forceinline=True)
def at_risk(st, c):
    """True when a forced draw could make a Temperament Track accursed."""
    o = S.char(c)
    for k in range(S.N_COLOURS):
        if st[o + S.P_TEMP + k] >= st[S.S_TEMP_CAP]:
            return True
    return False


@njit(cache=True, _nrt=False, forceinline=True)
def top_face(ip):
    """The most tentacles one Cthulhu die shows (TEC-DI-1: two with the rulebook's faces)."""
    top = 0
    for k in range(ip[S.I_N_FACES]):
        top = max(top, ip[S.I_FACES + k])
    return top


@njit(cache=True, _nrt=False, forceinline=True)
def seal_margin(ip, st, c, q, params):
    """Dice character c would roll for portal q minus the portal's number (-99: cannot).
    With ``seal_reach`` the dice are counted as the rules count them (TEC-SE-2 and the
    Occultist's extra die) and a portal the dice cannot reach even at their best (two a die)
    is out of reach: -99."""
    o = S.char(c)
    p = S.S_PORTALS + q * S.Q_SIZE
    if st[p + S.Q_SEALED] != 0:
        return -99
    colour = st[p + S.Q_COLOUR]
    if params[SEAL_REACH] > 0.5:
        dice = L.seal_dice(st, c, colour, ip)
        if dice * top_face(ip) < st[p + S.Q_NUMBER]:
            return -99
    else:
        dice = min(st[o + S.P_RUNES + colour], st[S.S_DICE_MAX])
    if dice == 0 or (st[o + S.P_TEMP + colour] == 0 and st[o + S.P_CHAOS] == 0):
        return -99
    return dice - st[p + S.Q_NUMBER]


@njit(cache=True, _nrt=False, forceinline=True)
def best_seal_margin(ip, st, c, params):
    best = -99
    for q in range(S.N_PORTALS):
        best = max(best, seal_margin(ip, st, c, q, params))
    return best


@njit(cache=True, _nrt=False, forceinline=True)
def collect_gain(st, c, t, n, need):
    """Value of collecting up to n Madness at Town t: needed colours first, then relieving
    full town tracks (an accursed track unleashes a power)."""
    o = S.char(c)
    cap = st[S.S_TEMP_CAP]
    # counted without branches (a take of 0 adds nothing): the amounts are hard to predict
    left = n
    taken = 0
    for k in range(S.N_COLOURS):
        room = cap - st[o + S.P_TEMP + k]
        take = max(min(need[k], st[S.town(t) + S.T_MAD + k], room, left), 0)
        taken += take
        left -= take
    relieved = 0
    mad_len = st[S.town(t) + S.T_MAD_LEN]
    for k in range(S.N_COLOURS):
        # never fill a track just to relieve a town
        r = (left > 0) & (st[S.town(t) + S.T_MAD + k] >= mad_len) & (st[o + S.P_TEMP + k] + 1 < cap)
        relieved += r
        left -= r
    return 15.0 * taken + 6.0 * relieved


@njit(cache=True, _nrt=False, forceinline=True)
def town_value(ip, st, c, t, params, need, arriving):
    """How good it is for character c to stand on Town t (used to choose moves).  Arriving
    by a Move also flips a face-down card there (TEC-MV-4); standing still does not."""
    o = S.char(c)
    v = 0.0
    state = st[S.town(t) + S.T_PAGE_STATE]
    if st[S.S_PHASE] == 1:
        if state == 1:
            n = placeable(st, t)
            ot = S.town(t)
            runes = st[ot + S.T_PRUNE] + st[ot + S.T_PRUNE + 1] + st[ot + S.T_PRUNE + 2]
            if n > 0 or runes > 0:
                d = S.translate_deficit(st, c, t)
                supply = 0
                for k in range(S.N_COLOURS):
                    short = st[S.town(t) + S.T_PCOST + k] - st[o + S.P_TEMP + k]
                    if short > 0:
                        supply += min(short, st[S.town(t) + S.T_MAD + k])
                if d <= st[o + S.P_CHAOS]:
                    v += params[TRANSLATE_HERE] + 10.0 * n
                elif d - supply <= st[o + S.P_CHAOS]:
                    v += 0.6 * params[TRANSLATE_HERE] + 8.0 * n
                else:
                    v += 4.0 * n - 3.0 * (d - supply)
        elif state == 0 and arriving:
            v += params[FLIP_VALUE]
    elif t == st[S.S_GOO_TOWN]:
        m = best_seal_margin(ip, st, c, params)
        if m > -99:
            v += params[SEAL_HERE] + 25.0 * m
    v += 0.5 * collect_gain(st, c, t, 3, need)
    n_sh = S.shamblers_at(st, t)
    v -= n_sh * (params[SHAMBLER_PENALTY] * (2.0 if at_risk(st, c) else 1.0))
    return v


@njit(cache=True, _nrt=False, forceinline=True)
def move_value(ip, st, c, here, dest, params, need):
    """Value of standing on ``dest`` after a Move there, including a face-down Page card
    passed on the way (which the Move may flip instead)."""
    v = town_value(ip, st, c, dest, params, need, True)
    if st[S.S_PHASE] == 1 and st[S.town(dest) + S.T_PAGE_STATE] != 0:
        cw = (dest - here) % S.N_TOWNS
        step = 1 if cw <= S.N_TOWNS - cw else -1
        k = (here + step) % S.N_TOWNS
        while k != dest:
            if st[S.town(k) + S.T_PAGE_STATE] == 0:
                v += 0.5 * params[FLIP_VALUE]
                break
            k = (k + step) % S.N_TOWNS
    return v


@njit(cache=True, _nrt=False, forceinline=True)
def town_action_value(ip, st, c, params, need):
    o = S.char(c)
    t = st[o + S.P_TOWN]
    act = st[S.town(t) + S.T_ACTION]
    if act == S.TA_VENT:
        return 40.0 if at_risk(st, c) else 0.0
    if act == S.TA_RECRUIT:
        return 20.0
    if act == S.TA_PURGE:
        return min(3.0 * (st[S.S_SMAT_MAD] + st[S.S_SMAT_MAD + 1] + st[S.S_SMAT_MAD + 2]), 18.0)
    if act == S.TA_TRAVEL:
        here = town_value(ip, st, c, t, params, need, False)
        best = 0.0
        for d in range(S.N_TOWNS):
            if d != t and (st[S.S_PHASE] == 2 or d != st[S.S_GOO_TOWN]):
                best = max(best, town_value(ip, st, c, d, params, need, True) - here)
        return 0.8 * best
    if act == S.TA_STUDY:
        if st[S.S_PHASE] == 2:
            return 0.0
        for d in range(S.N_TOWNS):
            if st[S.town(d) + S.T_PAGE_STATE] == 1 and placeable(st, d) > 0:
                return 4.0
        return 30.0
    if act == S.TA_WARD:
        return 70.0 if st[S.S_ENERGY] >= st[S.S_ENERGY_LEN] else 10.0 * st[S.S_ENERGY]
    if act == S.TA_BARRICADE:
        return 8.0 * S.shamblers_at(st, t)
    if act == S.TA_GATHER:
        for k in range(S.N_COLOURS):
            if need[k] > 0:
                for d in range(S.N_TOWNS):
                    if st[S.town(d) + S.T_MAD + k] > 0:
                        return 18.0
        return 0.0
    if act == S.TA_PRAY:
        return 45.0 if st[o + S.P_BRAIN] >= 1 else 0.0
    if act == S.TA_EXCHANGE:
        for b in range(S.N_COLOURS):
            if need[b] > 0 and st[S.S_SMAT_MAD + b] > 0:
                for a in range(S.N_COLOURS):
                    if a != b and st[o + S.P_TEMP + a] > need[a]:
                        return 15.0
        return 0.0
    return 0.0


@njit(cache=True, _nrt=False, forceinline=True)
def action_value(ip, st, a, c, params, need):
    o = S.char(c)
    t = st[o + S.P_TOWN]
    if a == S.A_TRANSLATE:
        if st[S.town(t) + S.T_PAGE_STATE] != 1 or placeable(st, t) > 0:
            return 150.0
        ot = S.town(t)
        return 25.0 * (st[ot + S.T_PRUNE] + st[ot + S.T_PRUNE + 1] + st[ot + S.T_PRUNE + 2])
    if a >= S.A_SEAL and a < S.A_SEAL + S.N_PORTALS:
        m = seal_margin(ip, st, c, a - S.A_SEAL, params)
        if m == -99 and params[SEAL_REACH] > 0.5:
            return -1.0  # out of reach: an action thrown away
        return 120.0 + 30.0 * m
    if a == S.A_COLLECT:
        greed = min(st[o + S.P_TEMP + 2], 2)
        v = collect_gain(st, c, t, 1 + greed, need)
        if params[LEFTOVER_VALUE] > 0.0:  # a Madness kept for later costs, short of the cap
            cap = st[S.S_TEMP_CAP]
            for k in range(S.N_COLOURS):
                if st[S.town(t) + S.T_MAD + k] > 0 and st[o + S.P_TEMP + k] + 1 < cap:
                    return v + params[LEFTOVER_VALUE]
        return v
    if a == S.A_BANISH:
        n = S.shamblers_at(st, t)
        pay = st[o + S.P_CHAOS]
        for k in range(S.N_COLOURS):
            if st[S.town(t) + S.T_SH + k] > 0:
                pay += max(st[o + S.P_TEMP + k] - need[k], 0)
        v = 8.0 * n + (20.0 if n >= st[S.town(t) + S.T_SH_LEN] else 0.0)
        return v * params[BANISH_WEIGHT] + params[LEFTOVER_VALUE] if pay > 0 else 3.0
    if a == S.A_TOWN:
        v = town_action_value(ip, st, c, params, need)
        return v + params[LEFTOVER_VALUE] if v > 0.0 else v
    if a == S.A_ABILITY:
        return 30.0 if at_risk(st, c) else 0.0
    return 0.0


# How much the heuristic values each town action when choosing a Town card's side (TA_*
# order): from paired sweeps with every side fixed, purge (Madness back toward the bag, where
# it dilutes the Eldritch tentacles) and gather helped most, barricade and recruit least.
SIDE_PREFERENCE = (2.0, 1.0, 5.0, 3.0, 2.0, 3.0, 0.0, 4.0, 3.0, 1.0)


@njit(cache=True, _nrt=False, forceinline=True)
def side_value(action, madness_track, shambler_track):
    return SIDE_PREFERENCE[action] + 0.1 * (madness_track + shambler_track)


@njit(cache=True, _nrt=False)
def heuristic(ip, fp, st, view, legal, params, rng):
    """A sensible team plan: get away from the Great Old One, collect what revealed pages need,
    translate, banish threatening Shamblers, use town actions when they pay, then hunt
    portals in phase two, with the team stocking the Madness of the colours its members roll
    seal dice for before the flip; spend Chaos for an extra action worth more than
    the Chaos kept (and freely when the Chaos Track is full); never try a seal the dice
    cannot reach."""
    kind = st[DECISION]
    c = st[S.S_CUR]
    o = S.char(c)
    here = st[o + S.P_TOWN]
    need = (0, 0, 0)
    if kind == S.D_ACTION or kind == S.D_COLLECT or kind == S.D_BANISH or kind == S.D_VENT or (
            kind == S.D_TRAVEL or kind == S.D_GATHER or kind == S.D_EXCHANGE):
        need = needs(ip, st, c, params)
    if kind == S.D_ACTION:
        spending_chaos = st[S.S_ACTIONS_LEFT] <= 0
        best = S.A_END
        best_v = 0.5
        if spending_chaos:  # a Chaos spent must buy more than the Chaos slot kept is worth
            best_v = params[CHAOS_THRESHOLD]
            if st[o + S.P_CHAOS] >= st[S.S_CHAOS_CAP]:
                best_v *= params[CHAOS_FULL_FACTOR]
        must = st[S.S_MUST_MOVE] == 1
        if must:
            best_v = -1e9
        # the legal actions as bits, visited in order (a branch per mask entry mispredicts)
        todo = legal_bits(legal) & ACTION_BITS
        any_move = (todo & MOVE_BITS) != 0
        # value of standing on each town, computed once (moves compare them)
        v_here = 0.0
        v0 = v1 = v2 = v3 = v4 = 0.0
        if any_move:
            v_here = town_value(ip, st, c, here, params, need, False)
            v0 = move_value(ip, st, c, here, 0, params, need) if legal[S.A_MOVE] else 0.0
            v1 = move_value(ip, st, c, here, 1, params, need) if legal[S.A_MOVE + 1] else 0.0
            v2 = move_value(ip, st, c, here, 2, params, need) if legal[S.A_MOVE + 2] else 0.0
            v3 = move_value(ip, st, c, here, 3, params, need) if legal[S.A_MOVE + 3] else 0.0
            v4 = move_value(ip, st, c, here, 4, params, need) if legal[S.A_MOVE + 4] else 0.0
        while todo:
            a = lowest_bit(todo)
            todo &= todo - np.uint64(1)
            if a < S.A_COLLECT:
                tv = (v0, v1, v2, v3, v4)[a - S.A_MOVE]
                v = tv if must else 0.8 * (tv - v_here)
            elif must:
                continue
            else:
                v = action_value(ip, st, a, c, params, need)
            if v > best_v:
                best = a
                best_v = v
        if not legal[best]:
            best = first_legal(legal)
        return best
    if kind == S.D_FLIP:
        dest = here
        if legal[dest]:
            return dest
        for t in range(S.N_TOWNS):
            if legal[t]:
                return t
        return S.N_TOWNS
    if kind == S.D_COLLECT:
        cap = st[S.S_TEMP_CAP]
        for k in range(S.N_COLOURS):  # needed colours first
            if legal[k] and need[k] > 0:
                return k
        best = STOP
        for k in range(S.N_COLOURS):  # then relieve a full town track, without filling ours
            if (legal[k] and st[S.town(here) + S.T_MAD + k] >= st[S.town(here) + S.T_MAD_LEN]
                    and st[o + S.P_TEMP + k] + 1 < cap):
                best = k
        return best
    if kind == S.D_REROLL:
        n = st[S.S_NDICE]
        r = st[S.S_REROLLS]
        mask = 0
        if st[S.S_CTX] == 0:
            # banish: the cost is the highest die; rerolling helps only if every die showing
            # it can be rerolled (otherwise the highest stays and a reroll can only raise it)
            top = 0
            for k in range(n):
                top = max(top, st[S.S_DICE + k])
            at_top = 0
            for k in range(n):
                if st[S.S_DICE + k] == top:
                    at_top += 1
            if top > 0 and at_top <= r:
                for k in range(n):
                    if st[S.S_DICE + k] == top:
                        mask |= 1 << k
        else:
            # seal: only when short of the portal's number, reroll the lowest dice (0s, then
            # 1s) while the shortfall could still be made up
            total = 0
            for k in range(n):
                total += st[S.S_DICE + k]
            target = st[S.S_PORTALS + st[S.S_CTX + 1] * S.Q_SIZE + S.Q_NUMBER]
            used = 0
            for v in range(2):
                for k in range(n):
                    if total < target and st[S.S_DICE + k] == v and used < r:
                        mask |= 1 << k
                        used += 1
                        total += 2 - v  # the best this die could add
        return mask if legal[mask] else 0
    if kind == S.D_BANISH:
        cost = st[S.S_CTX]
        best = -1
        best_v = 0.0
        for k in range(S.N_COLOURS):
            if not legal[k]:
                continue
            spare = st[o + S.P_TEMP + k] - need[k]
            v = (st[S.town(here) + S.T_SH + k] + 2.0 * min(spare, cost)
                 - 3.0 * max(cost - max(spare, 0), 0))
            if best < 0 or v > best_v:
                best = k
                best_v = v
        if best < 0:
            return STOP
        spare = st[o + S.P_TEMP + best] - need[best]
        if cost > 0 and cost > max(spare, 0) + 1:
            return STOP  # would spend tentacles (or Chaos) the team needs for pages
        return best
    if kind == S.D_POINTER_MADNESS:
        best = -1
        for k in range(S.N_COLOURS):
            if legal[k] and (best < 0 or st[S.S_SMAT_MAD + k] > st[S.S_SMAT_MAD + best]):
                best = k
        return best
    if kind == S.D_TOWN_SIDE:
        v0 = side_value(st[S.S_CTX + 2], st[S.S_CTX + 3], st[S.S_CTX + 4])
        v1 = side_value(st[S.S_CTX + 5], st[S.S_CTX + 6], st[S.S_CTX + 7])
        return 0 if v0 >= v1 else 1
    if kind == S.D_VENT:
        best = -1
        for k in range(S.N_COLOURS):
            if legal[k] and st[o + S.P_TEMP + k] > need[k]:
                if best < 0 or st[o + S.P_TEMP + k] > st[o + S.P_TEMP + best]:
                    best = k
        return STOP if best < 0 else best
    if kind == S.D_TRAVEL:
        best = -1
        best_v = 0.0
        for t in range(S.N_TOWNS):
            if legal[t]:
                v = town_value(ip, st, c, t, params, need, False)
                if best < 0 or v > best_v:
                    best = t
                    best_v = v
        return best
    if kind == S.D_GATHER:
        best = 15
        best_v = 0.0
        for t in range(S.N_TOWNS):
            for k in range(S.N_COLOURS):
                if legal[t * 3 + k]:
                    v = 3.0 * need[k] + st[S.town(t) + S.T_MAD + k]
                    if v > best_v:
                        best = t * 3 + k
                        best_v = v
        return best
    if kind == S.D_EXCHANGE:
        best = 9
        for a in range(S.N_COLOURS):
            for b in range(S.N_COLOURS):
                if legal[a * 3 + b] and need[b] > 0 and need[a] == 0:
                    best = a * 3 + b
        return best
    if kind == S.D_DIRECTION:
        # the way round that passes a face-down Page card (to flip, TEC-MV-4) when the
        # destination's own card is not one; otherwise the shorter way
        dest = st[S.S_CTX]
        cw = (dest - here) % S.N_TOWNS
        if st[S.S_PHASE] == 1 and st[S.town(dest) + S.T_PAGE_STATE] != 0 and params[FLIP_VALUE] > 0:
            for way in range(2):
                step = 1 if way == 0 else -1
                k = (here + step) % S.N_TOWNS
                while k != dest:
                    if st[S.town(k) + S.T_PAGE_STATE] == 0:
                        return way
                    k = (k + step) % S.N_TOWNS
        return 0 if cw <= S.N_TOWNS - cw else 1
    if kind == S.D_PAY:
        # Madness first: Chaos is wild, buys extra actions and is capped at two, while spent
        # Madness only returns to the bag through the Discard mat
        return first_legal(legal)
    if kind == S.D_STUDY:
        best = S.N_TOWNS
        best_d = S.N_TOWNS
        for t in range(S.N_TOWNS):
            if legal[t] and S.ring_distance(here, t) < best_d:
                best = t
                best_d = S.ring_distance(here, t)
        return best
    if kind == S.D_BARRICADE:
        best = STOP
        for k in range(S.N_COLOURS):
            if legal[k] and (best == STOP
                             or st[S.town(here) + S.T_SH + k] > st[S.town(here) + S.T_SH + best]):
                best = k
        return best
    return first_legal(legal)


register("tec", "random", random_choice, description=random_choice.__doc__, uniform=True)
register("tec", "heuristic", heuristic, HEURISTIC_PARAMS, description=heuristic.__doc__)
