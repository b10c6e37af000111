"""Tiny Epic Cthulhu: the tracks and what happens when one is full (accursed, TEC-ACC-*).

The Great Old One's Strength and Energy Tracks, each character's Temperament, Chaos and
Delirium Tracks, and each Town card's Madness and Shambler Tracks.  Every function takes a
tentacle or Shambler already taken from its source and puts it on a track; a full track is
accursed.  A rule that ends the game sets ``s[OUTCOME]`` (TEC-E-2, TEC-E-3); callers stop as
soon as it is set.  A Town Madness track accursed queues the Great Old One's power in
``S_PENDING`` rather than resolving it inside the placement, so a power that draws tentacles
never recurses (``wheel.settle`` runs the queue right after the placement that filled it).
"""

from __future__ import annotations

from numba import njit

from simcore.engine import OUTCOME
from simcore.tec import state as S


# ---- the Great Old One's strength and energy ----------------------------------------------
@njit(cache=True, _nrt=False, forceinline=True)
def strength_up(s, ev, evn):
    """TEC-STR-1 / TEC-E-2: advance the Strength token; on its last space the players lose."""
    s[S.S_STRENGTH] += 1
    S.log(ev, evn, S.EV_STRENGTH, s[S.S_STRENGTH], s[S.S_STR_LEN], s[S.S_PHASE], 0, 0, 0, 0)
    if s[S.S_STRENGTH] >= s[S.S_STR_LEN]:
        s[OUTCOME] = S.O_STRENGTH


@njit(cache=True, _nrt=False)
def add_energy(s, ev, evn):
    """TEC-D-4 / TEC-ACC-4: one Eldritch tentacle (already taken from its source) goes on the
    Energy Track; on a full track it is accursed: the track's Eldritch, this one, and every
    Madness and Chaos tentacle on the Discard mat go into the bag, and strength rises."""
    if s[S.S_ENERGY] < s[S.S_ENERGY_LEN]:
        s[S.S_ENERGY] += 1
        S.log(ev, evn, S.EV_GAIN, S.GAIN_ENERGY, -1, -1, s[S.S_ENERGY], s[S.S_ENERGY_LEN], 0,
            0)
        return
    s[S.S_CNT_ACC + S.ACC_ENERGY] += 1
    S.log(ev, evn, S.EV_ACCURSED, S.ACC_ENERGY, s[S.S_ENERGY] + 1, 0, 0, 0, 0, 0)
    s[S.S_BAG + S.K_ELDRITCH] += s[S.S_ENERGY] + 1
    s[S.S_ENERGY] = 0
    for c in range(S.N_COLOURS):
        s[S.S_BAG + c] += s[S.S_DISC_MAD + c]
        s[S.S_DISC_MAD + c] = 0
    s[S.S_BAG + S.K_CHAOS] += s[S.S_DISC_CHAOS]
    s[S.S_DISC_CHAOS] = 0
    strength_up(s, ev, evn)


# ---- character tracks ---------------------------------------------------------------------
@njit(cache=True, _nrt=False, forceinline=True)
def brain_up(s, c, ev, evn):
    """TEC-ACC-5 consequence / TEC-DEL-1 / TEC-DEL-3: the Brain token is placed on the bottom
    space the first time, then rises; on the top space the character is mad."""
    o = S.char(c)
    s[o + S.P_BRAIN] += 1  # from -1 (below the track) to 0 the first time
    if s[o + S.P_BRAIN] > s[S.S_MAX_BRAIN]:
        s[S.S_MAX_BRAIN] = s[o + S.P_BRAIN]
    S.log(ev, evn, S.EV_BRAIN, c, s[o + S.P_BRAIN], s[o + S.P_DEL_LEN], 0, 0, 0, 0)
    if s[o + S.P_BRAIN] >= s[o + S.P_DEL_LEN]:
        s[OUTCOME] = S.O_MADNESS


@njit(cache=True, _nrt=False, forceinline=True)
def add_temperament(s, c, colour, ip, ev, evn):
    """A Madness tentacle (already taken from its source) goes on character c's Temperament
    Track of its colour; a full track is accursed (TEC-ACC-5): its tentacles and this one go
    to the Shambler mat, and the Brain token rises."""
    o = S.char(c) + S.P_TEMP + colour
    if s[o] < ip[S.I_TEMP_CAP]:
        s[o] += 1
        S.log(ev, evn, S.EV_GAIN, S.GAIN_TEMPERAMENT, c, colour, s[o], ip[S.I_TEMP_CAP], 0, 0)
        return
    s[S.S_CNT_ACC + S.ACC_TEMPERAMENT] += 1
    S.log(ev, evn, S.EV_ACCURSED, S.ACC_TEMPERAMENT, c, colour, s[o] + 1, 0, 0, 0)
    s[S.S_SMAT_MAD + colour] += s[o] + 1
    s[o] = 0
    brain_up(s, c, ev, evn)


@njit(cache=True, _nrt=False, forceinline=True)
def give_chaos(s, c, ip, ev, evn):
    """TEC-D-5 / TEC-ACC-6: a Chaos tentacle (already taken from its source) goes on the Chaos
    Track, which holds at most two and is never accursed; an extra one goes to the supply."""
    o = S.char(c) + S.P_CHAOS
    if s[o] < ip[S.I_CHAOS_CAP]:
        s[o] += 1
        S.log(ev, evn, S.EV_GAIN, S.GAIN_CHAOS, c, -1, s[o], ip[S.I_CHAOS_CAP], 0, 0)
    else:
        s[S.S_SUP_CHAOS] += 1
        S.log(ev, evn, S.EV_CHAOS_LOST, c, 0, 0, 0, 0, 0, 0)


# ---- town tracks --------------------------------------------------------------------------
@njit(cache=True, _nrt=False, forceinline=True)
def add_town_madness(s, t, colour, ev, evn):
    """TEC-D-6 / TEC-ACC-2: a Madness tentacle (already taken from its source) goes on Town t's
    track of its colour, left to right; a full track is accursed: its tentacles and this one go
    to the Shambler mat, and the Great Old One's power of that colour is queued."""
    o = S.town(t)
    if s[o + S.T_MAD + colour] < s[o + S.T_MAD_LEN]:
        s[o + S.T_MAD + colour] += 1
        S.log(ev, evn, S.EV_GAIN, S.GAIN_TOWN_MADNESS, t, colour, s[o + S.T_MAD + colour],
            s[o + S.T_MAD_LEN], 0, 0)
        return
    s[S.S_CNT_ACC + S.ACC_TOWN_MADNESS] += 1
    S.log(ev, evn, S.EV_ACCURSED, S.ACC_TOWN_MADNESS, t, colour, s[o + S.T_MAD + colour] + 1,
        0, 0, 0)
    s[S.S_SMAT_MAD + colour] += s[o + S.T_MAD + colour] + 1
    s[o + S.T_MAD + colour] = 0
    s[S.S_PENDING + colour] += 1


@njit(cache=True, _nrt=False, forceinline=True)
def take_shambler(s, colour):
    """TEC-W-7: a Shambler of ``colour`` from the Shambler mat, or of the next colour to the
    right (Blue, Red, Green, Blue) when it has none; -1 when the mat is empty."""
    for k in range(S.N_COLOURS):
        c = (colour + k) % S.N_COLOURS
        if s[S.S_SMAT_SH + c] > 0:
            s[S.S_SMAT_SH + c] -= 1
            return c
    return -1


@njit(cache=True, _nrt=False, forceinline=True)
def place_shambler(s, t, colour, ev, evn):
    """TEC-SP-1 / TEC-ACC-3: put a Shambler (taken from the mat with the colour rule) on Town
    t's Shambler Track, bottom to top.  A full track is accursed: its Shamblers and this one
    return to the mat; the town's Eldritch tentacle goes to the Discard mat and a fresh one
    from the supply replaces it.  Returns the colour placed (-1: none left)."""
    c = take_shambler(s, colour)
    if c < 0:
        S.log(ev, evn, S.EV_NO_SHAMBLER, t, colour, 0, 0, 0, 0, 0)
        return -1
    o = S.town(t)
    if S.shamblers_at(s, t) < s[o + S.T_SH_LEN]:
        s[o + S.T_SH + c] += 1
        S.log(ev, evn, S.EV_SPAWN, t, c, S.shamblers_at(s, t), 0, 0, 0, 0)
        # TEC-E-2 (switch shambler_loss, a review's reading): the last Shambler leaving the
        # mat for a Town card loses
        if s[S.S_SHAMBLER_LOSS] == 1 and (s[S.S_SMAT_SH] + s[S.S_SMAT_SH + 1]
                                          + s[S.S_SMAT_SH + 2]) == 0:
            s[OUTCOME] = S.O_SHAMBLERS
        return c
    s[S.S_CNT_ACC + S.ACC_TOWN_SHAMBLER] += 1
    S.log(ev, evn, S.EV_ACCURSED, S.ACC_TOWN_SHAMBLER, t, c, S.shamblers_at(s, t) + 1, 0, 0, 0)
    s[S.S_SMAT_SH + c] += 1
    for k in range(S.N_COLOURS):
        s[S.S_SMAT_SH + k] += s[o + S.T_SH + k]
        s[o + S.T_SH + k] = 0
    out = 0
    if s[o + S.T_ELDRITCH] > 0:
        s[o + S.T_ELDRITCH] -= 1
        s[S.S_DISC_ELDRITCH] += 1
        out = 1
    fresh = 0
    if s[S.S_SUP_ELDRITCH] > 0:
        s[S.S_SUP_ELDRITCH] -= 1
        s[o + S.T_ELDRITCH] += 1
        fresh = 1
    S.log(ev, evn, S.EV_ELDRITCH_SWAP, t, out, fresh, 0, 0, 0, 0)
    return c
