"""Tiny Epic Cthulhu rules as njit functions over ``st`` (public state), ``hid`` (hidden state)
and ``ip`` (parameters), laid out in ``state.py``.  Clause IDs (TEC-*) refer to
tests/clauses/tec.md; readings of ambiguous text are in NOTES.md.

Conventions: ``rng`` is the playout's random stream; ``decide``/``sp``/``legal`` are the
strategy, its parameters and the legal-choice mask, passed to every rule that can ask the
players something; ``ev``/``evn`` is the trace log (``ev=None`` in batch runs).  A rule that
ends the game sets ``st[S_OUTCOME]``; callers stop as soon as it is set (TEC-E-3).
A town's Madness track accursed (TEC-ACC-2) queues the Great Old One's power in
``pending`` rather than resolving it inside the placement, so a power that draws tentacles
(which may accurse another track) never recurses; ``resolve_pending`` runs the queue right
after the placement that caused it.
"""

from __future__ import annotations

from numba import njit

from simcore.kernels import bag_draw_at, first_legal, log_event, rng_int, shuffle
from simcore.tec.callback.state import (
    A_ABILITY,
    A_BANISH,
    A_COLLECT,
    A_END,
    A_MOVE,
    A_SEAL,
    A_TOWN,
    A_TRANSLATE,
    AB_BRAWLER,
    AB_COLLECTOR,
    AB_MEDIUM,
    AB_OCCULTIST,
    AB_SCHOLAR,
    AB_WANDERER,
    ACC_ENERGY,
    ACC_TEMPERAMENT,
    ACC_TOWN_MADNESS,
    ACC_TOWN_SHAMBLER,
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
    EV_ABILITY,
    EV_ACCURSED,
    EV_BANISH,
    EV_BRAIN,
    EV_CHAOS_LOST,
    EV_CLEANUP,
    EV_COLLECT,
    EV_DRAW,
    EV_DRAW_SHORT,
    EV_FLIP,
    EV_GOO_MOVE,
    EV_LINE_DONE,
    EV_MOVE,
    EV_NO_SHAMBLER,
    EV_PAY,
    EV_PHASE2,
    EV_POINTER,
    EV_POWER,
    EV_REROLL,
    EV_ROLL,
    EV_SEAL,
    EV_SETUP_GOO,
    EV_SETUP_PLAYER,
    EV_SETUP_SHAMBLER,
    EV_SETUP_SIDE,
    EV_SPAWN,
    EV_SPIN,
    EV_STOP_DRAW,
    EV_STRENGTH,
    EV_TOWN_ACTION,
    EV_TRANSLATE,
    H_DECK,
    H_DECK_TOP,
    H_DOWN,
    I_BAG_ELDRITCH,
    I_BAG_MADNESS,
    I_CHAOS,
    I_CHAOS_CAP,
    I_CHAR_ABILITY,
    I_CHAR_AMOUNT,
    I_CHAR_DEL,
    I_CHAR_DEL_LEN,
    I_CHARS,
    I_CLEANUP_BY_RAGE,
    I_COLLECT_BY_GREED,
    I_COLS,
    I_DICE,
    I_DISC_MADNESS,
    I_ELDRITCH,
    I_ENERGY_LEN,
    I_FACES,
    I_LINE_CHAOS,
    I_MOVE_BY_FEAR,
    I_MOVE_EXACT,
    I_N_FACES,
    I_N_PAGES,
    I_N_SEGMENTS,
    I_P2_ENERGY_TO_BAG,
    I_PAGE_COST,
    I_PAGE_RUNE,
    I_PAGE_TOK,
    I_PAGE_TOKENS,
    I_PORTAL_COLOUR,
    I_PORTAL_NUMBER,
    I_POWER,
    I_POWER_N,
    I_ROWS,
    I_SEG_COLOUR,
    I_SEG_ICON,
    I_SEG_TENTACLE,
    I_SEG_TOWN,
    I_SHAMBLERS,
    I_SHAMBLERS_PER_PLAYER,
    I_SIDE_ACTION,
    I_SIDE_AMOUNT,
    I_SIDE_MAD_LEN,
    I_SIDE_SH_LEN,
    I_SMAT_MADNESS,
    I_STR_DRAW,
    I_STR_LEN,
    I_TEMP_CAP,
    I_TOWN_ELDRITCH,
    I_TOWN_SIDES,
    I_TRANSLATE_DOWN,
    IC_CHAOS,
    IC_EXTRA,
    IC_MADNESS,
    IC_POWER_BLUE,
    IC_POWER_GREEN,
    IC_POWER_RED,
    IC_SHAMBLER,
    K_CHAOS,
    K_ELDRITCH,
    MAX_DELIRIUM,
    MAX_DICE,
    MAX_STRENGTH,
    N_COLOURS,
    N_KINDS,
    N_PORTALS,
    N_TOWNS,
    O_MADNESS,
    O_PLAYING,
    O_STRENGTH,
    O_WIN,
    P_ABILITY,
    P_AMOUNT,
    P_BRAIN,
    P_CHAOS,
    P_DEL_LEN,
    P_PAGES,
    P_RUNES,
    P_TEMP,
    P_TOWN,
    PAY_BANISH,
    PAY_SEAL,
    PAY_TRANSLATE,
    PW_DECAY,
    PW_DRAIN,
    PW_DRAW,
    PW_ENERGY,
    PW_HUNT,
    PW_MADDEN,
    PW_SPAWN,
    Q_COLOUR,
    Q_NUMBER,
    Q_SEALED,
    S_ABILITY_USED,
    S_ACTIONS_LEFT,
    S_BAG,
    S_BRAWLER_USED,
    S_CHAOS_CAP,
    S_CNT_ACC,
    S_CNT_BANISHED,
    S_CNT_FLIPS,
    S_CNT_POWERS,
    S_CNT_SEAL_TRIES,
    S_CTX,
    S_CUR,
    S_DECISION,
    S_DECK_LEFT,
    S_DICE,
    S_DICE_MAX,
    S_DISC_CHAOS,
    S_DISC_ELDRITCH,
    S_DISC_MAD,
    S_ENERGY,
    S_ENERGY_LEN,
    S_GOO_TOWN,
    S_MAX_BRAIN,
    S_MUST_MOVE,
    S_NCHARS,
    S_NDICE,
    S_NECRO_COL_CHAOS,
    S_NECRO_COLS,
    S_NECRO_ROW,
    S_NECRO_ROW_CHAOS,
    S_NECRO_ROWS,
    S_OUTCOME,
    S_PAGE_PILE,
    S_PAGE_TOTAL,
    S_PAGES_PLACED,
    S_PHASE,
    S_PHASE2_TURN,
    S_POWER,
    S_POWER_N,
    S_REROLLS,
    S_SCHOLAR_USED,
    S_SEALED,
    S_SIZE,
    S_SMAT_MAD,
    S_SMAT_SH,
    S_SPIN_COLOUR,
    S_SPIN_ICON,
    S_SPIN_SEG,
    S_SPIN_SH_TOWN,
    S_SPIN_TOWN,
    S_STR_DRAW,
    S_STR_LEN,
    S_STRENGTH,
    S_SUP_CHAOS,
    S_SUP_ELDRITCH,
    S_TEMP_CAP,
    S_TURN,
    T_ACTION,
    T_AMOUNT,
    T_CARD,
    T_ELDRITCH,
    T_MAD,
    T_MAD_LEN,
    T_PAGE,
    T_PAGE_STATE,
    T_PCOST,
    T_PRUNE,
    T_PTOK,
    T_SH,
    T_SH_LEN,
    T_SIDE,
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
    portal as pq,
)
from simcore.tec.callback.state import (
    town as tw,
)

log = log_event  # the shared trace logger (simcore.kernels)
STOP = 3  # the "stop" answer of colour-valued decisions


# ---- small helpers ------------------------------------------------------------------------
@njit(cache=True, _nrt=False, inline="always")
def ring(t):
    return t % N_TOWNS


@njit(cache=True, _nrt=False, inline="always")
def madness_on_mat(st, c):
    o = ch(c)
    return st[o + P_TEMP] + st[o + P_TEMP + 1] + st[o + P_TEMP + 2]


@njit(cache=True, _nrt=False, inline="always")
def clear_legal(legal):
    for k in range(legal.shape[0]):
        legal[k] = 0


@njit(cache=True, _nrt=False, inline="always")
def ask(st, kind, legal, decide, sp, rng):
    """Ask the strategy for decision ``kind`` over the filled ``legal`` mask.  An illegal
    answer (a buggy strategy) is replaced by the first legal choice, so rules never run on an
    illegal choice."""
    st[S_DECISION] = kind
    a = decide(st, legal, sp, rng)
    if a < 0 or a >= legal.shape[0] or legal[a] == 0:
        a = first_legal(legal)
    return a


@njit(cache=True, _nrt=False, inline="always")
def rerolls_for(st, c, ip):
    """TEC-DEL-2: dice the character may reroll, from its Brain token's space."""
    brain = st[ch(c) + P_BRAIN]
    if brain < 0:
        return 0
    return ip[I_CHAR_DEL + c * MAX_DELIRIUM + brain]


@njit(cache=True, _nrt=False, inline="always")
def roll_die(rng, ip):
    """TEC-DI-1: one Cthulhu die (faces in rules data)."""
    return ip[I_FACES + rng_int(rng, ip[I_N_FACES])]


# ---- the Great Old One's strength and energy ----------------------------------------------
@njit(cache=True, _nrt=False, inline="always")
def strength_up(st, ev, evn):
    """TEC-STR-1 / TEC-E-2: advance the Strength token; on its last space the players lose."""
    st[S_STRENGTH] += 1
    log(ev, evn, EV_STRENGTH, st[S_STRENGTH], st[S_STR_LEN], st[S_PHASE], 0, 0, 0, 0)
    if st[S_STRENGTH] >= st[S_STR_LEN]:
        st[S_OUTCOME] = O_STRENGTH


@njit(cache=True, _nrt=False)
def add_energy(st, ev, evn):
    """TEC-D-4 / TEC-ACC-4: one Eldritch tentacle (already taken from its source) goes on the
    Energy Track; on a full track it is accursed: the track's Eldritch, this one, and every
    Madness and Chaos tentacle on the Discard mat go into the bag, and strength rises."""
    if st[S_ENERGY] < st[S_ENERGY_LEN]:
        st[S_ENERGY] += 1
        return
    st[S_CNT_ACC + ACC_ENERGY] += 1
    log(ev, evn, EV_ACCURSED, ACC_ENERGY, st[S_ENERGY] + 1, 0, 0, 0, 0, 0)
    st[S_BAG + K_ELDRITCH] += st[S_ENERGY] + 1
    st[S_ENERGY] = 0
    for c in range(N_COLOURS):
        st[S_BAG + c] += st[S_DISC_MAD + c]
        st[S_DISC_MAD + c] = 0
    st[S_BAG + K_CHAOS] += st[S_DISC_CHAOS]
    st[S_DISC_CHAOS] = 0
    strength_up(st, ev, evn)


# ---- character tracks ---------------------------------------------------------------------
@njit(cache=True, _nrt=False, inline="always")
def brain_up(st, c, ev, evn):
    """TEC-ACC-5 consequence / TEC-DEL-1 / TEC-DEL-3: the Brain token is placed on the bottom
    space the first time, then rises; on the top space the character is mad."""
    o = ch(c)
    st[o + P_BRAIN] += 1  # from -1 (below the track) to 0 the first time
    if st[o + P_BRAIN] > st[S_MAX_BRAIN]:
        st[S_MAX_BRAIN] = st[o + P_BRAIN]
    log(ev, evn, EV_BRAIN, c, st[o + P_BRAIN], st[o + P_DEL_LEN], 0, 0, 0, 0)
    if st[o + P_BRAIN] >= st[o + P_DEL_LEN]:
        st[S_OUTCOME] = O_MADNESS


@njit(cache=True, _nrt=False, inline="always")
def add_temperament(st, c, colour, ip, ev, evn):
    """A Madness tentacle (already taken from its source) goes on character c's Temperament
    Track of its colour; a full track is accursed (TEC-ACC-5): its tentacles and this one go
    to the Shambler mat, and the Brain token rises."""
    o = ch(c) + P_TEMP + colour
    if st[o] < ip[I_TEMP_CAP]:
        st[o] += 1
        return
    st[S_CNT_ACC + ACC_TEMPERAMENT] += 1
    log(ev, evn, EV_ACCURSED, ACC_TEMPERAMENT, c, colour, st[o] + 1, 0, 0, 0)
    st[S_SMAT_MAD + colour] += st[o] + 1
    st[o] = 0
    brain_up(st, c, ev, evn)


@njit(cache=True, _nrt=False, inline="always")
def give_chaos(st, c, ip, ev, evn):
    """TEC-D-5 / TEC-ACC-6: a Chaos tentacle (already taken from its source) goes on the Chaos
    Track, which holds at most two and is never accursed; an extra one goes to the supply."""
    o = ch(c) + P_CHAOS
    if st[o] < ip[I_CHAOS_CAP]:
        st[o] += 1
    else:
        st[S_SUP_CHAOS] += 1
        log(ev, evn, EV_CHAOS_LOST, c, 0, 0, 0, 0, 0, 0)


# ---- town tracks --------------------------------------------------------------------------
@njit(cache=True, _nrt=False, inline="always")
def add_town_madness(st, t, colour, pending, ev, evn):
    """TEC-D-6 / TEC-ACC-2: a Madness tentacle (already taken from its source) goes on Town t's
    track of its colour, left to right; a full track is accursed: its tentacles and this one go
    to the Shambler mat, and the Great Old One's power of that colour is queued."""
    o = tw(t)
    if st[o + T_MAD + colour] < st[o + T_MAD_LEN]:
        st[o + T_MAD + colour] += 1
        return
    st[S_CNT_ACC + ACC_TOWN_MADNESS] += 1
    log(ev, evn, EV_ACCURSED, ACC_TOWN_MADNESS, t, colour, st[o + T_MAD + colour] + 1, 0, 0, 0)
    st[S_SMAT_MAD + colour] += st[o + T_MAD + colour] + 1
    st[o + T_MAD + colour] = 0
    pending[colour] += 1


@njit(cache=True, _nrt=False, inline="always")
def take_shambler(st, colour):
    """TEC-W-7: a Shambler of ``colour`` from the Shambler mat, or of the next colour to the
    right (Blue, Red, Green, Blue) when it has none; -1 when the mat is empty."""
    for k in range(N_COLOURS):
        c = (colour + k) % N_COLOURS
        if st[S_SMAT_SH + c] > 0:
            st[S_SMAT_SH + c] -= 1
            return c
    return -1


@njit(cache=True, _nrt=False, inline="always")
def place_shambler(st, t, colour, ev, evn):
    """TEC-SP-1 / TEC-ACC-3: put a Shambler (taken from the mat with the colour rule) on Town
    t's Shambler Track, bottom to top.  A full track is accursed: its Shamblers and this one
    return to the mat; the town's Eldritch tentacle goes to the Discard mat and a fresh one
    from the supply replaces it.  Returns the colour placed (-1: none left)."""
    c = take_shambler(st, colour)
    if c < 0:
        log(ev, evn, EV_NO_SHAMBLER, t, colour, 0, 0, 0, 0, 0)
        return -1
    o = tw(t)
    if shamblers_at(st, t) < st[o + T_SH_LEN]:
        st[o + T_SH + c] += 1
        log(ev, evn, EV_SPAWN, t, c, shamblers_at(st, t), 0, 0, 0, 0)
        return c
    st[S_CNT_ACC + ACC_TOWN_SHAMBLER] += 1
    log(ev, evn, EV_ACCURSED, ACC_TOWN_SHAMBLER, t, c, shamblers_at(st, t) + 1, 0, 0, 0)
    st[S_SMAT_SH + c] += 1
    for k in range(N_COLOURS):
        st[S_SMAT_SH + k] += st[o + T_SH + k]
        st[o + T_SH + k] = 0
    if st[o + T_ELDRITCH] > 0:
        st[o + T_ELDRITCH] -= 1
        st[S_DISC_ELDRITCH] += 1
    if st[S_SUP_ELDRITCH] > 0:
        st[S_SUP_ELDRITCH] -= 1
        st[o + T_ELDRITCH] += 1
    return c


# ---- the Great Old One's powers -----------------------------------------------------------
@njit(cache=True, _nrt=False, inline="always")
def draw_one(st, rng):
    """TEC-D-2: pull one tentacle from the bag (kind, or -1 when it is empty)."""
    return bag_draw_at(rng, st, S_BAG, N_KINDS)


@njit(cache=True, _nrt=False, inline="always")
def resolve_drawn(st, kind, t, ip, pending, ev, evn):
    """Resolve one tentacle drawn for the Wheel (or a draw power): Eldritch to the Energy
    Track (TEC-D-4), Chaos to the current character (TEC-D-5), Madness to Town t (TEC-D-6)."""
    if kind == K_ELDRITCH:
        add_energy(st, ev, evn)
    elif kind == K_CHAOS:
        give_chaos(st, st[S_CUR], ip, ev, evn)
    else:
        add_town_madness(st, t, kind, pending, ev, evn)


@njit(cache=True, _nrt=False, inline="always")
def hunt_step(st):
    """The hunt power: one step toward the nearest character (clockwise on a tie)."""
    g = st[S_GOO_TOWN]
    best = N_TOWNS
    step = 0
    for c in range(st[S_NCHARS]):
        t = st[ch(c) + P_TOWN]
        cw = (t - g) % N_TOWNS
        ccw = (g - t) % N_TOWNS
        if cw == 0:
            return g
        if cw <= ccw and cw <= best:  # <=: a clockwise character wins a tie
            best = cw
            step = 1
        elif ccw < cw and ccw < best:
            best = ccw
            step = -1
    return ring(g + step)


@njit(cache=True, _nrt=False, inline="always")
def trigger_power(st, colour, rng, ip, pending, ev, evn):
    """TEC-W-5 / TEC-ACC-2: the Great Old One's power of ``colour`` (current side)."""
    effect = st[S_POWER + colour]
    n = st[S_POWER_N + colour]
    g = st[S_GOO_TOWN]
    st[S_CNT_POWERS] += 1
    log(ev, evn, EV_POWER, colour, effect, n, g, 0, 0, 0)
    for _ in range(n):
        if st[S_OUTCOME] != O_PLAYING:
            return
        if effect == PW_SPAWN:
            place_shambler(st, g, colour, ev, evn)
        elif effect == PW_ENERGY:
            if st[S_SUP_ELDRITCH] > 0:
                st[S_SUP_ELDRITCH] -= 1
                add_energy(st, ev, evn)
        elif effect == PW_DRAW:
            kind = draw_one(st, rng)
            if kind >= 0:
                log(ev, evn, EV_DRAW, kind, g, 1, 0, 0, 0, 0)
                resolve_drawn(st, kind, g, ip, pending, ev, evn)
        elif effect == PW_MADDEN:
            for c in range(st[S_NCHARS]):
                if ring_distance(st[ch(c) + P_TOWN], g) <= 1 and st[S_SMAT_MAD + colour] > 0:
                    st[S_SMAT_MAD + colour] -= 1
                    add_temperament(st, c, colour, ip, ev, evn)
                    if st[S_OUTCOME] != O_PLAYING:
                        return
        elif effect == PW_HUNT:
            st[S_GOO_TOWN] = hunt_step(st)
            g = st[S_GOO_TOWN]
            log(ev, evn, EV_GOO_MOVE, g, 1, 0, 0, 0, 0, 0)
        elif effect == PW_DECAY:
            if st[S_DISC_MAD + colour] > 0:
                st[S_DISC_MAD + colour] -= 1
                st[S_SMAT_MAD + colour] += 1
        elif effect == PW_DRAIN:
            for c in range(st[S_NCHARS]):
                if st[ch(c) + P_CHAOS] > 0:
                    st[ch(c) + P_CHAOS] -= 1
                    st[S_SUP_CHAOS] += 1


@njit(cache=True, _nrt=False)
def resolve_pending(st, rng, ip, pending, ev, evn):
    """Run the queued powers (blue first), including any that they queue in turn."""
    while st[S_OUTCOME] == O_PLAYING:
        colour = -1
        for c in range(N_COLOURS):
            if pending[c] > 0:
                colour = c
                break
        if colour < 0:
            return
        pending[colour] -= 1
        trigger_power(st, colour, rng, ip, pending, ev, evn)
    for c in range(N_COLOURS):
        pending[c] = 0


@njit(cache=True, _nrt=False, inline="always")
def settle(st, rng, ip, pending, ev, evn):
    """resolve_pending, called only when a power is queued: most draws queue none, and the
    call itself (every array passed field by field) is a good part of a draw's cost."""
    queued = 0
    for k in range(N_COLOURS):
        queued += pending[k]
    if queued > 0:
        resolve_pending(st, rng, ip, pending, ev, evn)


# ---- the Wheel of Madness (TEC-W-*) -------------------------------------------------------
@njit(cache=True, _nrt=False, inline="always")
def spin_wheel(st, rng, ip, ev, evn):
    """Spin: the pointer stops on a uniform segment (full turns, equal arcs; a line has
    probability zero); the tentacle end is ``wheel.tentacle_offset`` segments further on."""
    seg = rng_int(rng, ip[I_N_SEGMENTS])
    opp = ip[I_SEG_TENTACLE + seg]
    st[S_SPIN_SEG] = seg
    st[S_SPIN_TOWN] = ip[I_SEG_TOWN + seg]
    st[S_SPIN_ICON] = ip[I_SEG_ICON + seg]
    st[S_SPIN_SH_TOWN] = ip[I_SEG_TOWN + opp]
    st[S_SPIN_COLOUR] = ip[I_SEG_COLOUR + opp]
    log(ev, evn, EV_SPIN, seg, st[S_SPIN_TOWN], st[S_SPIN_ICON], st[S_SPIN_SH_TOWN],
        st[S_SPIN_COLOUR], 0, 0)


@njit(cache=True, _nrt=False, inline="always")
def pointer_action(st, rng, ip, pending, decide, sp, legal, ev, evn):
    """TEC-W-2..6: resolve the icon under the pointer; returns the extra draws (TEC-W-6)."""
    icon = st[S_SPIN_ICON]
    t = st[S_SPIN_TOWN]
    log(ev, evn, EV_POINTER, icon, t, st[S_SPIN_COLOUR], 0, 0, 0, 0)
    if icon == IC_MADNESS:
        if st[S_SMAT_MAD] + st[S_SMAT_MAD + 1] + st[S_SMAT_MAD + 2] > 0:
            clear_legal(legal)
            for c in range(N_COLOURS):
                legal[c] = 1 if st[S_SMAT_MAD + c] > 0 else 0
            c = ask(st, D_POINTER_MADNESS, legal, decide, sp, rng)
            st[S_SMAT_MAD + c] -= 1
            st[S_DISC_MAD + c] += 1
            log(ev, evn, EV_CLEANUP, c, 1, 0, 0, 0, 0, 0)
    elif icon == IC_SHAMBLER:
        place_shambler(st, t, st[S_SPIN_COLOUR], ev, evn)
    elif icon == IC_CHAOS:
        if st[S_SUP_CHAOS] > 0:
            st[S_SUP_CHAOS] -= 1
            st[S_DISC_CHAOS] += 1
    elif icon == IC_POWER_BLUE or icon == IC_POWER_RED or icon == IC_POWER_GREEN:
        pending[icon - IC_POWER_BLUE] += 1
        resolve_pending(st, rng, ip, pending, ev, evn)
    elif icon == IC_EXTRA:
        return 1
    return 0


@njit(cache=True, _nrt=False, inline="always")
def spin_step(st, rng, ip, pending, decide, sp, legal, ev, evn):
    """TEC-W-1: the whole of turn step 1: spin, pointer action, draws, spawn, move."""
    spin_wheel(st, rng, ip, ev, evn)
    extra = pointer_action(st, rng, ip, pending, decide, sp, legal, ev, evn)
    if st[S_OUTCOME] != O_PLAYING:
        return
    # TEC-D-1: the number to the right of the Strength token
    n = st[S_STR_DRAW + st[S_STRENGTH]] + extra
    t = st[S_SPIN_TOWN]
    for k in range(n):
        kind = draw_one(st, rng)
        if kind < 0:  # TEC-D-3: the bag ran short
            log(ev, evn, EV_DRAW_SHORT, k, n, 0, 0, 0, 0, 0)
            break
        log(ev, evn, EV_DRAW, kind, t, 0, 0, 0, 0, 0)
        resolve_drawn(st, kind, t, ip, pending, ev, evn)
        settle(st, rng, ip, pending, ev, evn)
        if st[S_OUTCOME] != O_PLAYING:
            return
    # TEC-SP-1, TEC-SP-2: spawn, then the Great Old One joins its minion
    place_shambler(st, st[S_SPIN_SH_TOWN], st[S_SPIN_COLOUR], ev, evn)
    st[S_GOO_TOWN] = st[S_SPIN_SH_TOWN]
    log(ev, evn, EV_GOO_MOVE, st[S_GOO_TOWN], 0, 0, 0, 0, 0, 0)


# ---- Page cards and the Necronomicon ------------------------------------------------------
@njit(cache=True, _nrt=False, inline="always")
def show_page(st, t, card, ip):
    """Town t's Page card becomes face-up: copy its cost, numbers and runes into view."""
    o = tw(t)
    st[o + T_PAGE] = card
    st[o + T_PAGE_STATE] = 1
    for k in range(3):
        st[o + T_PCOST + k] = ip[I_PAGE_COST + card * 3 + k]
        st[o + T_PTOK + k] = ip[I_PAGE_TOK + card * 3 + k]
        st[o + T_PRUNE + k] = ip[I_PAGE_RUNE + card * 3 + k]


@njit(cache=True, _nrt=False)
def deal_page(st, hid, t):
    """A face-down Page card from the deck goes beside Town t (none when the deck is empty)."""
    o = tw(t)
    for k in range(3):
        st[o + T_PCOST + k] = 0
        st[o + T_PTOK + k] = 0
        st[o + T_PRUNE + k] = 0
    st[o + T_PAGE] = -1
    if st[S_DECK_LEFT] <= 0:
        st[o + T_PAGE_STATE] = -1
        hid[H_DOWN + t] = -1
        return
    top = hid[H_DECK_TOP]
    hid[H_DOWN + t] = hid[H_DECK + top]
    hid[H_DECK_TOP] = top + 1
    st[S_DECK_LEFT] -= 1
    st[o + T_PAGE_STATE] = 0


@njit(cache=True, _nrt=False)
def flip_page(st, hid, t, ip, ev, evn):
    """TEC-MV-4: reveal the face-down Page card beside Town t."""
    o = tw(t)
    if st[o + T_PAGE_STATE] != 0:
        return
    card = hid[H_DOWN + t]
    hid[H_DOWN + t] = -1
    show_page(st, t, card, ip)
    st[S_CNT_FLIPS] += 1
    log(ev, evn, EV_FLIP, t, card, 0, 0, 0, 0, 0)


@njit(cache=True, _nrt=False, inline="always")
def place_page_token(st, number, ip, ev, evn):
    """TEC-TR-2 / TEC-TR-3: a Page token on the left-most free space of row ``number``; a row
    or column completed releases its Chaos tentacle to the Discard mat.  A number whose row is
    already full places nothing (its token stays in the pile).  Returns 1 if placed."""
    r = number - 1
    cols = ip[I_COLS]
    if st[S_NECRO_ROW + r] >= cols or st[S_PAGE_PILE] <= 0:
        return 0
    st[S_NECRO_ROW + r] += 1
    st[S_PAGE_PILE] -= 1
    st[S_PAGES_PLACED] += 1
    col = st[S_NECRO_ROW + r] - 1
    if st[S_NECRO_ROW + r] == cols and st[S_NECRO_ROW_CHAOS + r] > 0:
        st[S_NECRO_ROW_CHAOS + r] = 0
        st[S_DISC_CHAOS] += 1
        log(ev, evn, EV_LINE_DONE, 0, r, 0, 0, 0, 0, 0)
    done = True
    for rr in range(ip[I_ROWS]):
        if st[S_NECRO_ROW + rr] <= col:
            done = False
            break
    if done and st[S_NECRO_COL_CHAOS + col] > 0:
        st[S_NECRO_COL_CHAOS + col] = 0
        st[S_DISC_CHAOS] += 1
        log(ev, evn, EV_LINE_DONE, 1, col, 0, 0, 0, 0, 0)
    return 1


@njit(cache=True, _nrt=False, inline="always")
def enter_phase_two(st, ip, ev, evn):
    """TEC-TR-6: flip the Great Old One mat: the new side's Strength Track (token at its start),
    Energy Track and powers; every tentacle on the Discard mat goes into the bag.  Eldritch
    already on the Energy Track stay, up to the new track's length (the rest go to the bag),
    or with ``phase_two_energy = "bag"`` all go into the bag."""
    st[S_PHASE] = 2
    st[S_PHASE2_TURN] = st[S_TURN]
    st[S_STRENGTH] = 0
    st[S_STR_LEN] = ip[I_STR_LEN + 1]
    for k in range(MAX_STRENGTH):
        st[S_STR_DRAW + k] = ip[I_STR_DRAW + MAX_STRENGTH + k]
    st[S_ENERGY_LEN] = ip[I_ENERGY_LEN + 1]
    keep = 0 if ip[I_P2_ENERGY_TO_BAG] == 1 else min(st[S_ENERGY], st[S_ENERGY_LEN])
    st[S_BAG + K_ELDRITCH] += st[S_ENERGY] - keep
    st[S_ENERGY] = keep
    for c in range(N_COLOURS):
        st[S_POWER + c] = ip[I_POWER + 3 + c]
        st[S_POWER_N + c] = ip[I_POWER_N + 3 + c]
        st[S_BAG + c] += st[S_DISC_MAD + c]
        st[S_DISC_MAD + c] = 0
    st[S_BAG + K_CHAOS] += st[S_DISC_CHAOS]
    st[S_DISC_CHAOS] = 0
    st[S_BAG + K_ELDRITCH] += st[S_DISC_ELDRITCH]
    st[S_DISC_ELDRITCH] = 0
    log(ev, evn, EV_PHASE2, st[S_TURN], 0, 0, 0, 0, 0, 0)


# ---- setup (TEC-S-*) ----------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def init_state(st, hid, rng, ip, decide, sp, legal, ev, evn):
    """TEC-S-1..12: the whole setup, including its three rounds of spins."""
    for k in range(S_SIZE):
        st[k] = 0
    for k in range(hid.shape[0]):
        hid[k] = 0
    st[S_OUTCOME] = O_PLAYING
    st[S_PHASE] = 1
    st[S_PHASE2_TURN] = -1
    n_chars = ip[I_CHARS]
    st[S_NCHARS] = n_chars
    st[S_MAX_BRAIN] = -1
    st[S_NECRO_ROWS] = ip[I_ROWS]
    st[S_NECRO_COLS] = ip[I_COLS]
    st[S_PAGE_TOTAL] = ip[I_PAGE_TOKENS]
    st[S_TEMP_CAP] = ip[I_TEMP_CAP]
    st[S_CHAOS_CAP] = ip[I_CHAOS_CAP]
    st[S_DICE_MAX] = min(ip[I_DICE], MAX_DICE)
    # TEC-S-1: the five Town cards in random positions, each on the side chosen
    order = hid[H_DOWN:H_DOWN + N_TOWNS]  # scratch, overwritten when pages are dealt
    for t in range(N_TOWNS):
        order[t] = t
    shuffle(rng, order, N_TOWNS)
    mode = ip[I_TOWN_SIDES]
    for t in range(N_TOWNS):
        card = order[t]
        o = tw(t)
        st[o + T_CARD] = card
        if mode == 0:
            clear_legal(legal)
            legal[0] = 1
            legal[1] = 1
            st[S_CTX] = t
            st[S_CTX + 1] = card
            for sd in range(2):
                st[S_CTX + 2 + 3 * sd] = ip[I_SIDE_ACTION + card * 2 + sd]
                st[S_CTX + 3 + 3 * sd] = ip[I_SIDE_MAD_LEN + card * 2 + sd]
                st[S_CTX + 4 + 3 * sd] = ip[I_SIDE_SH_LEN + card * 2 + sd]
            side = ask(st, D_TOWN_SIDE, legal, decide, sp, rng)
        elif mode == 1:
            side = rng_int(rng, 2)
        else:
            side = mode - 2
        k = card * 2 + side
        st[o + T_SIDE] = side
        st[o + T_ACTION] = ip[I_SIDE_ACTION + k]
        st[o + T_AMOUNT] = ip[I_SIDE_AMOUNT + k]
        st[o + T_MAD_LEN] = ip[I_SIDE_MAD_LEN + k]
        st[o + T_SH_LEN] = ip[I_SIDE_SH_LEN + k]
        log(ev, evn, EV_SETUP_SIDE, t, card, side, 0, 0, 0, 0)
    # TEC-S-2: the Great Old One's phase-one side
    st[S_STR_LEN] = ip[I_STR_LEN]
    for k in range(MAX_STRENGTH):
        st[S_STR_DRAW + k] = ip[I_STR_DRAW + k]
    st[S_ENERGY_LEN] = ip[I_ENERGY_LEN]
    for c in range(N_COLOURS):
        st[S_POWER + c] = ip[I_POWER + c]
        st[S_POWER_N + c] = ip[I_POWER_N + c]
    for q in range(N_PORTALS):
        st[pq(q) + Q_COLOUR] = ip[I_PORTAL_COLOUR + q]
        st[pq(q) + Q_NUMBER] = ip[I_PORTAL_NUMBER + q]
    # TEC-S-3: characters; Brain tokens below their Delirium Tracks
    for c in range(n_chars):
        o = ch(c)
        st[o + P_BRAIN] = -1
        st[o + P_DEL_LEN] = ip[I_CHAR_DEL_LEN + c]
        st[o + P_ABILITY] = ip[I_CHAR_ABILITY + c]
        st[o + P_AMOUNT] = ip[I_CHAR_AMOUNT + c]
    # TEC-S-4: Page tokens; the Page deck shuffled; one face-down card beside each Town card
    st[S_PAGE_PILE] = ip[I_PAGE_TOKENS]
    n_pages = ip[I_N_PAGES]
    for i in range(n_pages):
        hid[H_DECK + i] = i
    shuffle(rng, hid[H_DECK:H_DECK + n_pages], n_pages)
    hid[H_DECK_TOP] = 0
    st[S_DECK_LEFT] = n_pages
    for t in range(N_TOWNS):
        deal_page(st, hid, t)
    # TEC-S-5: Shamblers on their mat
    for c in range(N_COLOURS):
        st[S_SMAT_SH + c] = ip[I_SHAMBLERS]
    # TEC-S-9..11: tentacles (before the spins, so a Shambler Track accursed during setup
    # finds its Eldritch tentacle in place)
    for c in range(N_COLOURS):
        st[S_BAG + c] = ip[I_BAG_MADNESS]
        st[S_SMAT_MAD + c] = ip[I_SMAT_MADNESS]
        st[S_DISC_MAD + c] = ip[I_DISC_MADNESS]
    st[S_BAG + K_ELDRITCH] = ip[I_BAG_ELDRITCH]
    for t in range(N_TOWNS):
        st[tw(t) + T_ELDRITCH] = ip[I_TOWN_ELDRITCH]
    st[S_SUP_ELDRITCH] = ip[I_ELDRITCH] - ip[I_BAG_ELDRITCH] - N_TOWNS * ip[I_TOWN_ELDRITCH]
    lines = ip[I_LINE_CHAOS]
    for r in range(ip[I_ROWS]):
        st[S_NECRO_ROW_CHAOS + r] = lines
    for j in range(ip[I_COLS]):
        st[S_NECRO_COL_CHAOS + j] = lines
    st[S_SUP_CHAOS] = ip[I_CHAOS] - lines * (ip[I_ROWS] + ip[I_COLS])
    # TEC-S-6..8: spins place the Great Old One, a Shambler per player, then the players
    spin_wheel(st, rng, ip, ev, evn)
    st[S_GOO_TOWN] = st[S_SPIN_TOWN]
    log(ev, evn, EV_SETUP_GOO, st[S_GOO_TOWN], 0, 0, 0, 0, 0, 0)
    for _ in range(n_chars * ip[I_SHAMBLERS_PER_PLAYER]):
        spin_wheel(st, rng, ip, ev, evn)
        c = place_shambler(st, st[S_SPIN_TOWN], st[S_SPIN_COLOUR], ev, evn)
        log(ev, evn, EV_SETUP_SHAMBLER, st[S_SPIN_TOWN], c, 0, 0, 0, 0, 0)
    for c in range(n_chars):
        spin_wheel(st, rng, ip, ev, evn)
        st[ch(c) + P_TOWN] = st[S_SPIN_TOWN]
        log(ev, evn, EV_SETUP_PLAYER, c, st[S_SPIN_TOWN], 0, 0, 0, 0, 0)


# ---- legality -----------------------------------------------------------------------------
@njit(cache=True, _nrt=False, inline="always")
def move_range(st, c, ip):
    """TEC-MV-1: Town cards the character may move, from its Fear track (plus wanderer)."""
    o = ch(c)
    fear = min(st[o + P_TEMP + 0], 2)
    r = ip[I_MOVE_BY_FEAR + fear]
    if st[o + P_ABILITY] == AB_WANDERER:
        r += st[o + P_AMOUNT]
    return r


@njit(cache=True, _nrt=False, inline="always")
def path_ok(st, frm, steps, direction):
    """True when moving ``steps`` Town cards in ``direction`` (+1 clockwise, -1) never passes
    through or stops on the Great Old One's Town card (TEC-MV-2; phase one only)."""
    if st[S_PHASE] == 2:
        return True
    g = st[S_GOO_TOWN]
    for k in range(1, steps + 1):
        if ring(frm + direction * k) == g:
            return False
    return True


@njit(cache=True, _nrt=False, inline="always")
def direction_ok(st, c, dest, direction, ip):
    """True when character c may move to ``dest`` going ``direction`` (+1 clockwise, -1):
    within its range (exactly, with ``move_exact``) and not through the Great Old One."""
    frm = st[ch(c) + P_TOWN]
    if dest == frm:
        return False
    steps = (dest - frm) % N_TOWNS if direction == 1 else (frm - dest) % N_TOWNS
    r = move_range(st, c, ip)
    in_range = steps == r if ip[I_MOVE_EXACT] == 1 else steps <= r
    return in_range and path_ok(st, frm, steps, direction)


@njit(cache=True, _nrt=False, inline="always")
def move_direction(st, c, dest, rng, ip, decide, sp, legal):
    """TEC-MV-1 "in either direction": the direction (+1/-1) a move of character c to
    ``dest`` takes, or 0 if it cannot.  When both ways are legal the players choose (the
    way round decides which face-down Page cards are passed, TEC-MV-4)."""
    cw_ok = direction_ok(st, c, dest, 1, ip)
    ccw_ok = direction_ok(st, c, dest, -1, ip)
    if cw_ok and ccw_ok:
        clear_legal(legal)
        legal[0] = 1
        legal[1] = 1
        st[S_CTX] = dest
        return 1 if ask(st, D_DIRECTION, legal, decide, sp, rng) == 0 else -1
    if cw_ok:
        return 1
    if ccw_ok:
        return -1
    return 0


@njit(cache=True, _nrt=False, inline="always")
def reachable_towns(st, c, ip, legal):
    """Mark legal[A_MOVE + d] for every Town card character c can move to (TEC-MV-1/2):
    walk each direction once, stopping at the Great Old One in phase one."""
    frm = st[ch(c) + P_TOWN]
    r = move_range(st, c, ip)
    exact = ip[I_MOVE_EXACT] == 1
    g = st[S_GOO_TOWN] if st[S_PHASE] == 1 else -1
    n = 0
    for direction in (1, -1):
        d = frm
        for k in range(1, min(r, N_TOWNS - 1) + 1):
            d += direction  # ring(frm + direction * k), without a division
            if d == N_TOWNS:
                d = 0
            elif d < 0:
                d = N_TOWNS - 1
            if d == g:
                break
            if (not exact or k == r) and legal[A_MOVE + d] == 0:
                legal[A_MOVE + d] = 1
                n += 1
    return n


@njit(cache=True, _nrt=False, inline="always")
def scholar_discount(st, c):
    o = ch(c)
    if st[o + P_ABILITY] == AB_SCHOLAR and st[S_SCHOLAR_USED] == 0:
        return st[o + P_AMOUNT]
    return 0


@njit(cache=True, _nrt=False, inline="always")
def seal_dice(st, c, colour, ip):
    """TEC-SE-2: dice for a seal: one per rune of the colour, at most the dice in the box."""
    o = ch(c)
    n = st[o + P_RUNES + colour]
    if st[o + P_ABILITY] == AB_OCCULTIST and n > 0:
        n += st[o + P_AMOUNT]
    return min(n, ip[I_DICE], MAX_DICE)


@njit(cache=True, _nrt=False, inline="always")
def town_action_usable(st, hid, c, ip):
    """TEC-TA-1: whether the current Town card's action can do anything now."""
    o = ch(c)
    t = st[o + P_TOWN]
    act = st[tw(t) + T_ACTION]
    cap = ip[I_TEMP_CAP]
    if act == TA_VENT:
        return madness_on_mat(st, c) > 0
    if act == TA_RECRUIT:
        return st[S_SUP_CHAOS] > 0 and st[o + P_CHAOS] < ip[I_CHAOS_CAP]
    if act == TA_PURGE:
        return st[S_SMAT_MAD] + st[S_SMAT_MAD + 1] + st[S_SMAT_MAD + 2] > 0
    if act == TA_TRAVEL:
        for d in range(N_TOWNS):
            if d != t and (st[S_PHASE] == 2 or d != st[S_GOO_TOWN]):
                return True
        return False
    if act == TA_STUDY:
        for d in range(N_TOWNS):
            if st[tw(d) + T_PAGE_STATE] == 0:
                return True
        return False
    if act == TA_WARD:
        return st[S_ENERGY] > 0
    if act == TA_BARRICADE:
        return shamblers_at(st, t) > 0
    if act == TA_GATHER:
        for d in range(N_TOWNS):
            for k in range(N_COLOURS):
                if st[tw(d) + T_MAD + k] > 0 and st[o + P_TEMP + k] < cap:
                    return True
        return False
    if act == TA_PRAY:
        return st[o + P_BRAIN] > 0
    if act == TA_EXCHANGE:
        for a in range(N_COLOURS):
            for b in range(N_COLOURS):
                if (a != b and st[o + P_TEMP + a] > 0 and st[S_SMAT_MAD + b] > 0
                        and st[o + P_TEMP + b] < cap):
                    return True
        return False
    return False


@njit(cache=True, _nrt=False, inline="always")
def legal_actions(st, hid, ip, legal):
    """The legal mask of the main action decision (A_*) for the current character; returns
    the number of legal actions.  With no actions left, an action costs a Chaos tentacle
    (TEC-A-1), so affordability is judged with one Chaos fewer."""
    clear_legal(legal)
    c = st[S_CUR]
    o = ch(c)
    t = st[o + P_TOWN]
    spare = st[o + P_CHAOS]
    n = 0
    # TEC-A-2: the medium's ability is free, so it does not depend on actions left
    if (st[o + P_ABILITY] == AB_MEDIUM and st[S_ABILITY_USED] == 0
            and madness_on_mat(st, c) > 0):
        legal[A_ABILITY] = 1
        n += 1
    if st[S_ACTIONS_LEFT] <= 0:
        if spare <= 0:
            legal[A_END] = 1
            return n + 1
        spare -= 1
    n += reachable_towns(st, c, ip, legal)
    if st[S_MUST_MOVE] == 1:  # TEC-MV-3: the first action must move away
        if n == 0:  # cannot happen on a ring of five, but never leave a turn stuck
            legal[A_END] = 1
            return 1
        return n
    cap = ip[I_TEMP_CAP]
    collect = False
    for k in range(N_COLOURS):  # without branches: these change at every step
        collect |= (st[tw(t) + T_MAD + k] > 0) & (st[o + P_TEMP + k] < cap)
    banish = shamblers_at(st, t) > 0
    legal[A_COLLECT] = collect
    legal[A_BANISH] = banish
    n += collect + banish
    if town_action_usable(st, hid, c, ip):
        legal[A_TOWN] = 1
        n += 1
    state = st[tw(t) + T_PAGE_STATE]
    if state == 1 or (state == 0 and ip[I_TRANSLATE_DOWN] == 1):
        if state == 1:
            short = translate_deficit(st, c, t) - scholar_discount(st, c)
            if short <= spare:
                legal[A_TRANSLATE] = 1
                n += 1
        else:  # face-down: the cost is unknown until flipped; allowed if the switch is on
            legal[A_TRANSLATE] = 1
            n += 1
    if st[S_PHASE] == 2 and t == st[S_GOO_TOWN]:
        for q in range(N_PORTALS):
            if st[pq(q) + Q_SEALED] == 0:
                colour = st[pq(q) + Q_COLOUR]
                holds = st[o + P_TEMP + colour] > 0 or spare > 0
                if holds and seal_dice(st, c, colour, ip) > 0:
                    legal[A_SEAL + q] = 1
                    n += 1
    legal[A_END] = 1
    return n + 1


# ---- dice ---------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def roll_dice(st, n, purpose, rng, ip, decide, sp, legal, ev, evn):
    """Roll ``n`` Cthulhu dice into S_DICE, then TEC-DEL-2: the character may reroll up to
    its Delirium space's number of them, chosen by the strategy (a bit mask)."""
    c = st[S_CUR]
    st[S_NDICE] = n
    for k in range(MAX_DICE):
        st[S_DICE + k] = roll_die(rng, ip) if k < n else 0
    log(ev, evn, EV_ROLL, purpose, n, st[S_DICE], st[S_DICE + 1], st[S_DICE + 2], 0, 0)
    r = min(rerolls_for(st, c, ip), n)
    st[S_REROLLS] = r
    if r <= 0:
        return
    clear_legal(legal)
    for mask in range(1 << n):
        bits = (mask & 1) + ((mask >> 1) & 1) + ((mask >> 2) & 1)
        if bits <= r:
            legal[mask] = 1
    st[S_CTX] = purpose
    mask = ask(st, D_REROLL, legal, decide, sp, rng)
    if mask == 0:
        return
    for k in range(n):
        if (mask >> k) & 1:
            st[S_DICE + k] = roll_die(rng, ip)
    log(ev, evn, EV_REROLL, mask, st[S_DICE], st[S_DICE + 1], st[S_DICE + 2], 0, 0, 0)


# ---- actions ------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def draw_on_stop(st, c, t, rng, ip, pending, ev, evn):
    """TEC-MV-5: stopping among Shamblers draws one tentacle per Shambler: Madness and Chaos to
    the character's mat, Eldritch to the Energy Track; overflowing tracks are accursed."""
    n = shamblers_at(st, t)
    for k in range(n):
        kind = draw_one(st, rng)
        if kind < 0:
            log(ev, evn, EV_DRAW_SHORT, k, n, 1, 0, 0, 0, 0)
            return
        log(ev, evn, EV_STOP_DRAW, c, kind, t, 0, 0, 0, 0)
        if kind == K_ELDRITCH:
            add_energy(st, ev, evn)
        elif kind == K_CHAOS:
            give_chaos(st, c, ip, ev, evn)
        else:
            add_temperament(st, c, kind, ip, ev, evn)
        settle(st, rng, ip, pending, ev, evn)
        if st[S_OUTCOME] != O_PLAYING:
            return


@njit(cache=True, _nrt=False, inline="always")
def arrive(st, hid, c, dest, direction, steps, rng, ip, pending, decide, sp, legal, ev, evn):
    """Finish a move: TEC-MV-4 flip one Page card passed or beside the destination, then
    TEC-MV-5 draws for the Shamblers there."""
    frm = st[ch(c) + P_TOWN]
    st[ch(c) + P_TOWN] = dest
    log(ev, evn, EV_MOVE, c, frm, dest, 0, direction, 0, 0)
    clear_legal(legal)
    any_down = False
    for k in range(1, steps + 1):
        town_k = ring(frm + direction * k)
        if st[tw(town_k) + T_PAGE_STATE] == 0:
            legal[town_k] = 1
            any_down = True
    if any_down:
        legal[N_TOWNS] = 1
        pick = ask(st, D_FLIP, legal, decide, sp, rng)
        if pick < N_TOWNS:
            flip_page(st, hid, pick, ip, ev, evn)
    if shamblers_at(st, dest) > 0:  # (the guard saves a call on most moves)
        draw_on_stop(st, c, dest, rng, ip, pending, ev, evn)


@njit(cache=True, _nrt=False, inline="always")
def do_move(st, hid, dest, rng, ip, pending, decide, sp, legal, ev, evn):
    """TEC-MV-1..5."""
    c = st[S_CUR]
    direction = move_direction(st, c, dest, rng, ip, decide, sp, legal)
    frm = st[ch(c) + P_TOWN]
    steps = (dest - frm) % N_TOWNS if direction == 1 else (frm - dest) % N_TOWNS
    st[S_MUST_MOVE] = 0
    arrive(st, hid, c, dest, direction, steps, rng, ip, pending, decide, sp, legal, ev, evn)


@njit(cache=True, _nrt=False, inline="always")
def do_collect(st, rng, ip, decide, sp, legal, ev, evn):
    """TEC-CO-1 / TEC-CO-2: take 1-3 Madness (by the Greed track when the action starts) from
    this town, never beyond two on a Temperament Track."""
    c = st[S_CUR]
    o = ch(c)
    t = st[o + P_TOWN]
    n = ip[I_COLLECT_BY_GREED + min(st[o + P_TEMP + 2], 2)]
    if st[o + P_ABILITY] == AB_COLLECTOR:
        n += st[o + P_AMOUNT]
    cap = ip[I_TEMP_CAP]
    for left in range(n, 0, -1):
        clear_legal(legal)
        any_ok = False
        for k in range(N_COLOURS):
            if st[tw(t) + T_MAD + k] > 0 and st[o + P_TEMP + k] < cap:
                legal[k] = 1
                any_ok = True
        if not any_ok:
            return
        legal[STOP] = 1
        st[S_CTX] = left
        k = ask(st, D_COLLECT, legal, decide, sp, rng)
        if k == STOP:
            return
        st[tw(t) + T_MAD + k] -= 1
        st[o + P_TEMP + k] += 1
        log(ev, evn, EV_COLLECT, c, k, t, 0, 0, 0, 0)


@njit(cache=True, _nrt=False, inline="always")
def pay(st, c, colour, amount, reserve, what, legal, decide, sp, rng, ev, evn):
    """Pay ``amount`` tentacles of ``colour`` (TEC-BA-3/7, TEC-TR-1, TEC-SE-4): Madness to the
    Discard mat, Chaos as wild to the supply.  How many Chaos to spend is the player's choice
    (D_PAY) when more than one split is possible, keeping ``reserve`` Chaos for what is still
    to be paid.  Returns the Chaos spent."""
    o = ch(c)
    lo = max(amount - st[o + P_TEMP + colour], 0)  # Chaos needed at least
    hi = min(st[o + P_CHAOS] - reserve, amount)
    x = lo
    if hi > lo:
        clear_legal(legal)
        for k in range(lo, hi + 1):
            legal[k] = 1
        st[S_CTX] = colour
        st[S_CTX + 1] = amount
        st[S_CTX + 2] = what
        x = ask(st, D_PAY, legal, decide, sp, rng)
    st[o + P_TEMP + colour] -= amount - x
    st[S_DISC_MAD + colour] += amount - x
    st[o + P_CHAOS] -= x
    st[S_SUP_CHAOS] += x
    if amount > 0:
        log(ev, evn, EV_PAY, c, colour, amount - x, x, what, 0, 0)
    return x


@njit(cache=True, _nrt=False, inline="always")
def do_banish(st, rng, ip, decide, sp, legal, ev, evn):
    """TEC-BA-1..7."""
    c = st[S_CUR]
    o = ch(c)
    t = st[o + P_TOWN]
    rage = min(st[o + P_TEMP + 1], 2)  # TEC-BA-6: counted when the banishment starts
    n = min(shamblers_at(st, t), ip[I_DICE], MAX_DICE)
    roll_dice(st, n, 0, rng, ip, decide, sp, legal, ev, evn)
    cost = 0
    for k in range(n):
        if st[S_DICE + k] > cost:  # TEC-BA-2: the highest single die, not a sum
            cost = st[S_DICE + k]
    brawled = False
    if st[o + P_ABILITY] == AB_BRAWLER and st[S_BRAWLER_USED] == 0 and cost > 0:
        cost = max(cost - st[o + P_AMOUNT], 0)
        brawled = True  # the once-a-turn discount is spent only if the banishment happens
    clear_legal(legal)
    any_ok = False
    for k in range(N_COLOURS):
        if st[tw(t) + T_SH + k] > 0 and st[o + P_TEMP + k] + st[o + P_CHAOS] >= cost:
            legal[k] = 1
            any_ok = True
    log(ev, evn, EV_BANISH, c, t, cost, -1, 0, 0, 0)
    if not any_ok:  # TEC-BA-4
        log(ev, evn, EV_BANISH, c, t, cost, -3, 0, 0, 0)
        return
    legal[STOP] = 1
    st[S_CTX] = cost
    k = ask(st, D_BANISH, legal, decide, sp, rng)
    if k == STOP:
        log(ev, evn, EV_BANISH, c, t, cost, -2, 0, 0, 0)
        return
    pay(st, c, k, cost, 0, PAY_BANISH, legal, decide, sp, rng, ev, evn)
    if brawled:
        st[S_BRAWLER_USED] = 1
    st[tw(t) + T_SH + k] -= 1  # TEC-BA-5
    st[S_SMAT_SH + k] += 1
    st[S_CNT_BANISHED] += 1
    moved = min(ip[I_CLEANUP_BY_RAGE + rage], st[S_SMAT_MAD + k])  # TEC-BA-6
    st[S_SMAT_MAD + k] -= moved
    st[S_DISC_MAD + k] += moved
    log(ev, evn, EV_BANISH, c, t, cost, k, moved, 0, 0)


@njit(cache=True, _nrt=False, inline="always")
def do_translate(st, hid, rng, ip, decide, sp, legal, ev, evn):
    """TEC-TR-1..6."""
    c = st[S_CUR]
    o = ch(c)
    t = st[o + P_TOWN]
    if st[tw(t) + T_PAGE_STATE] == 0:
        flip_page(st, hid, t, ip, ev, evn)
        if translate_deficit(st, c, t) - scholar_discount(st, c) > st[o + P_CHAOS]:
            return  # flipped, but it cannot be paid: the action is spent on the flip
    card = st[tw(t) + T_PAGE]
    discount = scholar_discount(st, c)
    if discount > 0:
        st[S_SCHOLAR_USED] = 1
    # the scholar's discount covers what the mat lacks first, then any other cost
    o_cost = tw(t) + T_PCOST
    c0 = st[o_cost]
    c1 = st[o_cost + 1]
    c2 = st[o_cost + 2]
    off0 = min(max(c0 - st[o + P_TEMP], 0), discount)
    discount -= off0
    off1 = min(max(c1 - st[o + P_TEMP + 1], 0), discount)
    discount -= off1
    off2 = min(max(c2 - st[o + P_TEMP + 2], 0), discount)
    discount -= off2
    more0 = min(c0 - off0, discount)
    discount -= more0
    more1 = min(c1 - off1, discount)
    discount -= more1
    more2 = min(c2 - off2, discount)
    p0 = c0 - off0 - more0
    p1 = c1 - off1 - more1
    p2 = c2 - off2 - more2
    # the Chaos the later colours cannot do without stays in reserve
    need1 = max(p1 - st[o + P_TEMP + 1], 0)
    need2 = max(p2 - st[o + P_TEMP + 2], 0)
    pay(st, c, 0, p0, need1 + need2, PAY_TRANSLATE, legal, decide, sp, rng, ev, evn)
    pay(st, c, 1, p1, need2, PAY_TRANSLATE, legal, decide, sp, rng, ev, evn)
    pay(st, c, 2, p2, 0, PAY_TRANSLATE, legal, decide, sp, rng, ev, evn)
    placed = 0
    for k in range(3):
        number = st[tw(t) + T_PTOK + k]
        if number > 0:
            placed += place_page_token(st, number, ip, ev, evn)
    for k in range(N_COLOURS):
        st[o + P_RUNES + k] += st[tw(t) + T_PRUNE + k]
    st[o + P_PAGES] += 1
    log(ev, evn, EV_TRANSLATE, c, t, card, placed, st[S_PAGES_PLACED], 0, 0)
    deal_page(st, hid, t)  # TEC-TR-5
    if st[S_PAGES_PLACED] >= ip[I_PAGE_TOKENS] and st[S_PHASE] == 1:
        enter_phase_two(st, ip, ev, evn)


@njit(cache=True, _nrt=False, inline="always")
def do_seal(st, q, rng, ip, decide, sp, legal, ev, evn):
    """TEC-SE-1..4, TEC-E-1."""
    c = st[S_CUR]
    colour = st[pq(q) + Q_COLOUR]
    n = seal_dice(st, c, colour, ip)
    st[S_CNT_SEAL_TRIES] += 1
    st[S_CTX + 1] = q
    roll_dice(st, n, 1, rng, ip, decide, sp, legal, ev, evn)
    total = 0
    for k in range(n):
        total += st[S_DICE + k]
    ok = total >= st[pq(q) + Q_NUMBER]
    log(ev, evn, EV_SEAL, c, q, total, st[pq(q) + Q_NUMBER], 1 if ok else 0, 0, 0)
    if not ok:
        return
    # TEC-SE-4: the portal is covered with a Madness of its colour or a Chaos (the player's
    # choice when holding both); it stays there
    o = ch(c)
    lo = 1 if st[o + P_TEMP + colour] == 0 else 0
    x = lo
    if lo == 0 and st[o + P_CHAOS] > 0:
        clear_legal(legal)
        legal[0] = 1
        legal[1] = 1
        st[S_CTX] = colour
        st[S_CTX + 1] = 1
        st[S_CTX + 2] = PAY_SEAL
        x = ask(st, D_PAY, legal, decide, sp, rng)
    log(ev, evn, EV_PAY, c, colour, 1 - x, x, PAY_SEAL, 0, 0)
    if x == 0:
        st[o + P_TEMP + colour] -= 1
        st[pq(q) + Q_SEALED] = 1
    else:
        st[o + P_CHAOS] -= 1
        st[pq(q) + Q_SEALED] = 2
    st[S_SEALED] += 1
    if st[S_SEALED] >= N_PORTALS:
        st[S_OUTCOME] = O_WIN


@njit(cache=True, _nrt=False)
def vent(st, c, n, rng, decide, sp, legal, ev, evn):
    """Move up to n Madness from character c's mat to the Discard mat, one colour choice at
    a time (the vent action and the medium's ability)."""
    o = ch(c)
    for _ in range(n):
        clear_legal(legal)
        any_ok = False
        for k in range(N_COLOURS):
            if st[o + P_TEMP + k] > 0:
                legal[k] = 1
                any_ok = True
        if not any_ok:
            return
        legal[STOP] = 1
        k = ask(st, D_VENT, legal, decide, sp, rng)
        if k == STOP:
            return
        st[o + P_TEMP + k] -= 1
        st[S_DISC_MAD + k] += 1


@njit(cache=True, _nrt=False, inline="always")
def smat_to_discard(st, n, rng, decide, sp, legal, ev, evn):
    """Move up to n Madness from the Shambler mat to the Discard mat (purge); the player
    may stop early (answer STOP)."""
    for _ in range(n):
        clear_legal(legal)
        any_ok = False
        for k in range(N_COLOURS):
            if st[S_SMAT_MAD + k] > 0:
                legal[k] = 1
                any_ok = True
        if not any_ok:
            return
        legal[STOP] = 1
        k = ask(st, D_POINTER_MADNESS, legal, decide, sp, rng)
        if k == STOP:
            return
        st[S_SMAT_MAD + k] -= 1
        st[S_DISC_MAD + k] += 1
        log(ev, evn, EV_CLEANUP, k, 1, 1, 0, 0, 0, 0)


@njit(cache=True, _nrt=False, inline="always")
def do_town_action(st, hid, rng, ip, pending, decide, sp, legal, ev, evn):
    """TEC-TA-1: the action printed on the current Town card (effects in rules.toml)."""
    c = st[S_CUR]
    o = ch(c)
    t = st[o + P_TOWN]
    act = st[tw(t) + T_ACTION]
    n = st[tw(t) + T_AMOUNT]
    cap = ip[I_TEMP_CAP]
    log(ev, evn, EV_TOWN_ACTION, c, t, act, n, 0, 0, 0)
    if act == TA_VENT:
        vent(st, c, n, rng, decide, sp, legal, ev, evn)
    elif act == TA_RECRUIT:
        for _ in range(n):
            if st[S_SUP_CHAOS] > 0 and st[o + P_CHAOS] < ip[I_CHAOS_CAP]:
                st[S_SUP_CHAOS] -= 1
                st[o + P_CHAOS] += 1
    elif act == TA_PURGE:
        smat_to_discard(st, n, rng, decide, sp, legal, ev, evn)
    elif act == TA_TRAVEL:
        clear_legal(legal)
        for d in range(N_TOWNS):
            if d != t and (st[S_PHASE] == 2 or d != st[S_GOO_TOWN]):
                legal[d] = 1
        dest = ask(st, D_TRAVEL, legal, decide, sp, rng)
        st[S_MUST_MOVE] = 0
        st[o + P_TOWN] = dest
        log(ev, evn, EV_MOVE, c, t, dest, 1, 0, 0, 0)
        draw_on_stop(st, c, dest, rng, ip, pending, ev, evn)
    elif act == TA_STUDY:
        for _ in range(n):
            clear_legal(legal)
            any_ok = False
            for d in range(N_TOWNS):
                if st[tw(d) + T_PAGE_STATE] == 0:
                    legal[d] = 1
                    any_ok = True
            if not any_ok:
                return
            legal[N_TOWNS] = 1
            d = ask(st, D_STUDY, legal, decide, sp, rng)
            if d == N_TOWNS:
                return
            flip_page(st, hid, d, ip, ev, evn)
    elif act == TA_WARD:
        for _ in range(n):
            if st[S_ENERGY] > 0:
                st[S_ENERGY] -= 1
                st[S_BAG + K_ELDRITCH] += 1
    elif act == TA_BARRICADE:
        for _ in range(n):
            clear_legal(legal)
            any_ok = False
            for k in range(N_COLOURS):
                if st[tw(t) + T_SH + k] > 0:
                    legal[k] = 1
                    any_ok = True
            if not any_ok:
                return
            legal[STOP] = 1
            k = ask(st, D_BARRICADE, legal, decide, sp, rng)
            if k == STOP:
                return
            st[tw(t) + T_SH + k] -= 1
            st[S_SMAT_SH + k] += 1
    elif act == TA_GATHER:
        for _ in range(n):
            clear_legal(legal)
            any_ok = False
            for d in range(N_TOWNS):
                for k in range(N_COLOURS):
                    if st[tw(d) + T_MAD + k] > 0 and st[o + P_TEMP + k] < cap:
                        legal[d * 3 + k] = 1
                        any_ok = True
            if not any_ok:
                return
            legal[15] = 1
            pick = ask(st, D_GATHER, legal, decide, sp, rng)
            if pick == 15:
                return
            d = pick // 3
            k = pick % 3
            st[tw(d) + T_MAD + k] -= 1
            st[o + P_TEMP + k] += 1
    elif act == TA_PRAY:
        st[o + P_BRAIN] = max(st[o + P_BRAIN] - n, 0)
        log(ev, evn, EV_BRAIN, c, st[o + P_BRAIN], st[o + P_DEL_LEN], 1, 0, 0, 0)
    elif act == TA_EXCHANGE:
        for _ in range(n):
            clear_legal(legal)
            any_ok = False
            for a in range(N_COLOURS):
                for b in range(N_COLOURS):
                    if (a != b and st[o + P_TEMP + a] > 0 and st[S_SMAT_MAD + b] > 0
                            and st[o + P_TEMP + b] < cap):
                        legal[a * 3 + b] = 1
                        any_ok = True
            if not any_ok:
                return
            legal[9] = 1
            pick = ask(st, D_EXCHANGE, legal, decide, sp, rng)
            if pick == 9:
                return
            a = pick // 3
            b = pick % 3
            st[o + P_TEMP + a] -= 1
            st[S_SMAT_MAD + a] += 1
            st[S_SMAT_MAD + b] -= 1
            st[o + P_TEMP + b] += 1


@njit(cache=True, _nrt=False, inline="always")
def do_ability(st, rng, decide, sp, legal, ev, evn):
    """TEC-A-2: an active ability, without spending an action (the medium's)."""
    c = st[S_CUR]
    o = ch(c)
    st[S_ABILITY_USED] = 1
    log(ev, evn, EV_ABILITY, c, st[o + P_ABILITY], 0, 0, 0, 0, 0)
    if st[o + P_ABILITY] == AB_MEDIUM:
        vent(st, c, st[o + P_AMOUNT], rng, decide, sp, legal, ev, evn)


@njit(cache=True, _nrt=False, inline="always")
def apply_action(st, hid, a, rng, ip, pending, decide, sp, legal, ev, evn):
    """Carry out main action ``a`` (already legal and paid for)."""
    if a < A_COLLECT:
        do_move(st, hid, a - A_MOVE, rng, ip, pending, decide, sp, legal, ev, evn)
    elif a == A_COLLECT:
        do_collect(st, rng, ip, decide, sp, legal, ev, evn)
    elif a == A_BANISH:
        do_banish(st, rng, ip, decide, sp, legal, ev, evn)
    elif a == A_TOWN:
        do_town_action(st, hid, rng, ip, pending, decide, sp, legal, ev, evn)
    elif a == A_TRANSLATE:
        do_translate(st, hid, rng, ip, decide, sp, legal, ev, evn)
    elif a < A_ABILITY:
        do_seal(st, a - A_SEAL, rng, ip, decide, sp, legal, ev, evn)
    elif a == A_ABILITY:
        do_ability(st, rng, decide, sp, legal, ev, evn)


# ---- conservation (the checking mode) -----------------------------------------------------
@njit(cache=True, _nrt=False)
def conservation_errors(st, hid, ip):
    """Number of piece kinds whose total differs from the box (0 when all is well): every
    Madness colour, Chaos, Eldritch, every Shambler colour, Page tokens and Page cards."""
    errors = 0
    n_chars = st[S_NCHARS]
    for k in range(N_COLOURS):
        total = st[S_BAG + k] + st[S_SMAT_MAD + k] + st[S_DISC_MAD + k]
        for t in range(N_TOWNS):
            total += st[tw(t) + T_MAD + k]
        for c in range(n_chars):
            total += st[ch(c) + P_TEMP + k]
        for q in range(N_PORTALS):
            if st[pq(q) + Q_SEALED] == 1 and st[pq(q) + Q_COLOUR] == k:
                total += 1
        # the Madness in play: what setup placed (the rest of the box stays in the box)
        if total != ip[I_BAG_MADNESS] + ip[I_SMAT_MADNESS] + ip[I_DISC_MADNESS]:
            errors += 1
        sh = st[S_SMAT_SH + k]
        for t in range(N_TOWNS):
            sh += st[tw(t) + T_SH + k]
        if sh != ip[I_SHAMBLERS]:
            errors += 1
    chaos = st[S_BAG + K_CHAOS] + st[S_SUP_CHAOS] + st[S_DISC_CHAOS]
    for c in range(n_chars):
        chaos += st[ch(c) + P_CHAOS]
    for r in range(ip[I_ROWS]):
        chaos += st[S_NECRO_ROW_CHAOS + r]
    for j in range(ip[I_COLS]):
        chaos += st[S_NECRO_COL_CHAOS + j]
    for q in range(N_PORTALS):
        if st[pq(q) + Q_SEALED] == 2:
            chaos += 1
    if chaos != ip[I_CHAOS]:
        errors += 1
    eld = st[S_BAG + K_ELDRITCH] + st[S_SUP_ELDRITCH] + st[S_DISC_ELDRITCH] + st[S_ENERGY]
    for t in range(N_TOWNS):
        eld += st[tw(t) + T_ELDRITCH]
    if eld != ip[I_ELDRITCH]:
        errors += 1
    tokens = st[S_PAGE_PILE]
    for r in range(ip[I_ROWS]):
        tokens += st[S_NECRO_ROW + r]
    if tokens != ip[I_PAGE_TOKENS] or tokens - st[S_PAGE_PILE] != st[S_PAGES_PLACED]:
        errors += 1
    cards = st[S_DECK_LEFT]
    for t in range(N_TOWNS):
        if st[tw(t) + T_PAGE_STATE] >= 0:
            cards += 1
    for c in range(n_chars):
        cards += st[ch(c) + P_PAGES]
    if cards != ip[I_N_PAGES]:
        errors += 1
    for k in range(N_KINDS):
        if st[S_BAG + k] < 0:
            errors += 1
    for c in range(n_chars):
        o = ch(c)
        if st[o + P_CHAOS] < 0 or st[o + P_CHAOS] > ip[I_CHAOS_CAP]:
            errors += 1
        for k in range(N_COLOURS):
            if st[o + P_TEMP + k] < 0 or st[o + P_TEMP + k] > ip[I_TEMP_CAP]:
                errors += 1
    for t in range(N_TOWNS):
        if shamblers_at(st, t) > st[tw(t) + T_SH_LEN]:
            errors += 1
        for k in range(N_COLOURS):
            if st[tw(t) + T_MAD + k] > st[tw(t) + T_MAD_LEN] or st[tw(t) + T_MAD + k] < 0:
                errors += 1
    if st[S_ENERGY] > st[S_ENERGY_LEN] or st[S_ENERGY] < 0:
        errors += 1
    return errors

