"""Tiny Epic Cthulhu: the Wheel of Madness, the tentacle bag and the Great Old One's powers
(TEC-W-*, TEC-D-*, TEC-SP-*, TEC-ACC-2).

A turn's first step (TEC-W-1) is ``spin_wheel``, the pointer's action (``pointer_effect``; the
Madness icon asks a question, so the turn procedure asks it and calls ``pointer_madness`` with
the answer), then ``spin_draws``: the tentacles drawn, the Shambler spawned and the Great Old
One's move.  None of the powers asks anything.
"""

from __future__ import annotations

from numba import njit

from simcore.engine import OUTCOME, PLAYING
from simcore.kernels import bag_draw_at, rng_int_inline
from simcore.tec import state as S
from simcore.tec import tracks as TR


@njit(cache=True, _nrt=False, forceinline=True)
def ring(t):
    return t % S.N_TOWNS


# ---- the bag ----------------------------------------------------------------------------------
@njit(cache=True, _nrt=False, forceinline=True)
def draw_one(s, rng):
    """TEC-D-2: pull one tentacle from the bag (kind, or -1 when it is empty)."""
    return bag_draw_at(rng, s, S.S_BAG, S.N_KINDS)


@njit(cache=True, _nrt=False, forceinline=True)
def resolve_drawn(s, kind, t, ip, ev, evn):
    """Resolve one tentacle drawn for the Wheel (or a draw power): Eldritch to the Energy
    Track (TEC-D-4), Chaos to the current character (TEC-D-5), Madness to Town t (TEC-D-6)."""
    if kind == S.K_ELDRITCH:
        TR.add_energy(s, ev, evn)
    elif kind == S.K_CHAOS:
        TR.give_chaos(s, s[S.S_CUR], ip, ev, evn)
    else:
        TR.add_town_madness(s, t, kind, ev, evn)


# ---- the Great Old One's powers -----------------------------------------------------------
@njit(cache=True, _nrt=False, forceinline=True)
def hunt_step(s):
    """The hunt power: one step toward the nearest character (clockwise on a tie)."""
    g = s[S.S_GOO_TOWN]
    best = S.N_TOWNS
    step = 0
    for c in range(s[S.S_NCHARS]):
        t = s[S.char(c) + S.P_TOWN]
        cw = (t - g) % S.N_TOWNS
        ccw = (g - t) % S.N_TOWNS
        if cw == 0:
            return g
        if cw <= ccw and cw <= best:  # <=: a clockwise character wins a tie
            best = cw
            step = 1
        elif ccw < cw and ccw < best:
            best = ccw
            step = -1
    return ring(g + step)


@njit(cache=True, _nrt=False, forceinline=True)
def trigger_power(s, colour, rng, ip, ev, evn):
    """TEC-W-5 / TEC-ACC-2: the Great Old One's power of ``colour`` (current side)."""
    effect = s[S.S_POWER + colour]
    n = s[S.S_POWER_N + colour]
    g = s[S.S_GOO_TOWN]
    s[S.S_CNT_POWERS] += 1
    S.log(ev, evn, S.EV_POWER, colour, effect, n, g, 0, 0, 0)
    for _ in range(n):
        if s[OUTCOME] != PLAYING:
            return
        if effect == S.PW_SPAWN:
            TR.place_shambler(s, g, colour, ev, evn)
        elif effect == S.PW_ENERGY:
            if s[S.S_SUP_ELDRITCH] > 0:
                s[S.S_SUP_ELDRITCH] -= 1
                TR.add_energy(s, ev, evn)
        elif effect == S.PW_DRAW:
            kind = draw_one(s, rng)
            if kind >= 0:
                S.log(ev, evn, S.EV_DRAW, kind, g, 1, 0, 0, 0, 0)
                resolve_drawn(s, kind, g, ip, ev, evn)
        elif effect == S.PW_MADDEN:
            for c in range(s[S.S_NCHARS]):
                if (S.ring_distance(s[S.char(c) + S.P_TOWN], g) <= 1
                        and s[S.S_SMAT_MAD + colour] > 0):
                    s[S.S_SMAT_MAD + colour] -= 1
                    TR.add_temperament(s, c, colour, ip, ev, evn)
                    if s[OUTCOME] != PLAYING:
                        return
        elif effect == S.PW_HUNT:
            s[S.S_GOO_TOWN] = hunt_step(s)
            g = s[S.S_GOO_TOWN]
            S.log(ev, evn, S.EV_GOO_MOVE, g, 1, 0, 0, 0, 0, 0)
        elif effect == S.PW_DECAY:
            if s[S.S_DISC_MAD + colour] > 0:
                s[S.S_DISC_MAD + colour] -= 1
                s[S.S_SMAT_MAD + colour] += 1
        elif effect == S.PW_DRAIN:
            for c in range(s[S.S_NCHARS]):
                if s[S.char(c) + S.P_CHAOS] > 0:
                    s[S.char(c) + S.P_CHAOS] -= 1
                    s[S.S_SUP_CHAOS] += 1


@njit(cache=True, _nrt=False)
def resolve_pending(s, rng, ip, ev, evn):
    """Run the queued powers (blue first), including any that they queue in turn."""
    while s[OUTCOME] == PLAYING:
        colour = -1
        for c in range(S.N_COLOURS):
            if s[S.S_PENDING + c] > 0:
                colour = c
                break
        if colour < 0:
            return
        s[S.S_PENDING + colour] -= 1
        trigger_power(s, colour, rng, ip, ev, evn)
    for c in range(S.N_COLOURS):
        s[S.S_PENDING + c] = 0


@njit(cache=True, _nrt=False, forceinline=True)
def settle(s, rng, ip, ev, evn):
    """resolve_pending, called only when a power is queued: most draws queue none, and the
    call itself (every array passed field by field) is a good part of a draw's cost."""
    if s[S.S_PENDING] + s[S.S_PENDING + 1] + s[S.S_PENDING + 2] > 0:
        resolve_pending(s, rng, ip, ev, evn)


# ---- the Wheel (TEC-W-*) ------------------------------------------------------------------
@njit(cache=True, _nrt=False, forceinline=True)
def spin_wheel(s, rng, ip, ev, evn):
    """Spin: the pointer stops on a uniform segment (full turns, equal arcs; a line has
    probability zero); the tentacle end is ``wheel.tentacle_offset`` segments further on."""
    seg = rng_int_inline(rng, ip[S.I_N_SEGMENTS])
    opp = ip[S.I_SEG_TENTACLE + seg]
    s[S.S_SPIN_SEG] = seg
    s[S.S_SPIN_TOWN] = ip[S.I_SEG_TOWN + seg]
    s[S.S_SPIN_ICON] = ip[S.I_SEG_ICON + seg]
    s[S.S_SPIN_SH_TOWN] = ip[S.I_SEG_TOWN + opp]
    s[S.S_SPIN_COLOUR] = ip[S.I_SEG_COLOUR + opp]
    S.log(ev, evn, S.EV_SPIN, seg, s[S.S_SPIN_TOWN], s[S.S_SPIN_ICON], s[S.S_SPIN_SH_TOWN],
        s[S.S_SPIN_COLOUR], 0, 0)


@njit(cache=True, _nrt=False, forceinline=True)
def pointer_asks(s):
    """TEC-W-2: the pointer shows the Madness icon and the Shambler mat holds Madness, so the
    players choose which colour moves to the Discard mat."""
    return (s[S.S_SPIN_ICON] == S.IC_MADNESS
            and s[S.S_SMAT_MAD] + s[S.S_SMAT_MAD + 1] + s[S.S_SMAT_MAD + 2] > 0)


@njit(cache=True, _nrt=False, forceinline=True)
def pointer_madness(s, colour, ev, evn):
    """TEC-W-2: the colour chosen moves one Madness from the Shambler mat to the Discard mat."""
    s[S.S_SMAT_MAD + colour] -= 1
    s[S.S_DISC_MAD + colour] += 1
    S.log(ev, evn, S.EV_CLEANUP, colour, 1, 0, 0, 0, 0, 0)


@njit(cache=True, _nrt=False, forceinline=True)
def pointer_effect(s, rng, ip, ev, evn):
    """TEC-W-3..6: the pointer's icon other than a Madness to move (asked, ``pointer_asks``);
    returns the extra draws (TEC-W-6)."""
    icon = s[S.S_SPIN_ICON]
    if icon == S.IC_SHAMBLER:
        TR.place_shambler(s, s[S.S_SPIN_TOWN], s[S.S_SPIN_COLOUR], ev, evn)
    elif icon == S.IC_CHAOS:
        if s[S.S_SUP_CHAOS] > 0:
            s[S.S_SUP_CHAOS] -= 1
            s[S.S_DISC_CHAOS] += 1
    elif icon == S.IC_POWER_BLUE or icon == S.IC_POWER_RED or icon == S.IC_POWER_GREEN:
        s[S.S_PENDING + icon - S.IC_POWER_BLUE] += 1
        resolve_pending(s, rng, ip, ev, evn)
    elif icon == S.IC_EXTRA:
        return 1
    return 0


@njit(cache=True, _nrt=False)
def spin_draws(s, rng, ip, extra, ev, evn):
    """TEC-D-1, TEC-SP-1, TEC-SP-2: the rest of the turn's first step: the draws (the number to
    the right of the Strength token, plus the pointer's extra), the Shambler spawned by the
    tentacle end, and the Great Old One joining its minion."""
    n = s[S.S_STR_DRAW + s[S.S_STRENGTH]] + extra
    t = s[S.S_SPIN_TOWN]
    for k in range(n):
        kind = draw_one(s, rng)
        if kind < 0:  # TEC-D-3: the bag ran short
            S.log(ev, evn, S.EV_DRAW_SHORT, k, n, 0, 0, 0, 0, 0)
            break
        S.log(ev, evn, S.EV_DRAW, kind, t, 0, 0, 0, 0, 0)
        resolve_drawn(s, kind, t, ip, ev, evn)
        settle(s, rng, ip, ev, evn)
        if s[OUTCOME] != PLAYING:
            return
    TR.place_shambler(s, s[S.S_SPIN_SH_TOWN], s[S.S_SPIN_COLOUR], ev, evn)
    s[S.S_GOO_TOWN] = s[S.S_SPIN_SH_TOWN]
    S.log(ev, evn, S.EV_GOO_MOVE, s[S.S_GOO_TOWN], 0, 0, 0, 0, 0, 0)


@njit(cache=True, _nrt=False)
def draw_on_stop(s, c, t, rng, ip, ev, evn):
    """TEC-MV-5: stopping among Shamblers draws one tentacle per Shambler: Madness and Chaos to
    the character's mat, Eldritch to the Energy Track; overflowing tracks are accursed."""
    n = S.shamblers_at(s, t)
    for k in range(n):
        kind = draw_one(s, rng)
        if kind < 0:
            S.log(ev, evn, S.EV_DRAW_SHORT, k, n, 1, 0, 0, 0, 0)
            return
        S.log(ev, evn, S.EV_STOP_DRAW, c, kind, t, 0, 0, 0, 0)
        if kind == S.K_ELDRITCH:
            TR.add_energy(s, ev, evn)
        elif kind == S.K_CHAOS:
            TR.give_chaos(s, c, ip, ev, evn)
        else:
            TR.add_temperament(s, c, kind, ip, ev, evn)
        settle(s, rng, ip, ev, evn)
        if s[OUTCOME] != PLAYING:
            return
