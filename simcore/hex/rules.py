"""Cthulhu Boardgame (BookRanger's hex wargame): the rules, on the step contract.

``init``, ``legal``, ``step``, ``returns``, ``evaluate``, ``record`` and ``check`` are the
functions of :mod:`simcore.engine`; the game has no hidden state (every counter is on the
table), so it uses the engine's ``observe_nothing`` and ``determinize_nothing``.  Clause IDs
(HEX-*) are those of ``tests/clauses/hexgame.md``; readings of unclear text are in NOTES.md.

A turn is a procedure on the frame stack (``PR_TURN``, local 0 the phase): bring a counter on
(HEX-EN), move counters one by one (HEX-MV), then combat (HEX-C): every melee first, as the
rules force them, then ranged attacks one by one.  Bringing a counter on, moving one and
attacking at range are sub-procedures (``PR_ENTER``, ``PR_MOVE``, ``PR_ATTACK``) that keep the
counter chosen while the next question (where to, whom) is asked.

Hex sets are bitsets in two 64-bit words (``*_BITS``): movement is a breadth-first search on
them, a few word operations per step of a counter's move.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simcore.engine import (
    DECISION,
    OUTCOME,
    PLAYING,
    SEAT,
    TURN,
    WINNER,
    ask,
    clear_header,
    drive,
    finish,
    frame_get,
    frame_pop,
    frame_proc,
    frame_push,
    frame_set,
    no_legal_bits,
    observe_nothing,
)
from simcore.hex import state as S
from simcore.kernels import log_event, lowest_bit, popcount, rng_int

log = log_event

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_M63 = np.uint64(63)

PH_RANGED = S.PH_COMBAT + 1  # melee done, ranged attacks one by one
# evaluate (search's estimate of an unfinished game): the weight of the counters' strength
# against the Artefacts' (one home is worth 1)
EVAL_STRENGTH = 0.75


# ---- bitsets: two uint64 words held in int64 arrays ----------------------------------------
@njit(cache=True, _nrt=False, forceinline=True)
def w(a, off):
    """Word ``off`` of an int64 array, as the uint64 it holds."""
    return np.uint64(a[off])


@njit(cache=True, _nrt=False, forceinline=True)
def hex_bit(h):
    """(low word, high word) with only hex ``h`` set."""
    b = _ONE << np.uint64(h & 63)
    return (b, _ZERO) if h < 64 else (_ZERO, b)


@njit(cache=True, _nrt=False, forceinline=True)
def bits_add(a, off, h):
    k = off + (h >> 6)
    a[k] = np.int64(np.uint64(a[k]) | (_ONE << np.uint64(h & 63)))


@njit(cache=True, _nrt=False, forceinline=True)
def bits_remove(a, off, h):
    k = off + (h >> 6)
    a[k] = np.int64(np.uint64(a[k]) & ~(_ONE << np.uint64(h & 63)))


@njit(cache=True, _nrt=False, forceinline=True)
def bits_has(a, off, h):
    return (np.uint64(a[off + (h >> 6)]) >> np.uint64(h & 63)) & _ONE != _ZERO


@njit(cache=True, _nrt=False, forceinline=True)
def bits_has_pair(lo, hi, h):
    x = lo if h < 64 else hi
    return (x >> np.uint64(h & 63)) & _ONE != _ZERO


@njit(cache=True, _nrt=False)
def bits_to_mask(lo, hi, mask):
    """Set ``mask[h]`` for every hex in the set; returns how many."""
    n = 0
    x = lo
    while x != _ZERO:
        mask[lowest_bit(x)] = 1
        x &= x - _ONE
        n += 1
    x = hi
    while x != _ZERO:
        mask[64 + lowest_bit(x)] = 1
        x &= x - _ONE
        n += 1
    return n


@njit(cache=True, _nrt=False, forceinline=True)
def count_bits(lo, hi):
    return np.int64(popcount(lo) + popcount(hi))


@njit(cache=True, _nrt=False)
def neighbours_of(ip, lo, hi):
    """Every neighbour of a set of hexes."""
    n0 = _ZERO
    n1 = _ZERO
    x = lo
    while x != _ZERO:
        h = lowest_bit(x)
        n0 |= w(ip, S.I_NB_BITS + 2 * h)
        n1 |= w(ip, S.I_NB_BITS + 2 * h + 1)
        x &= x - _ONE
    x = hi
    while x != _ZERO:
        h = 64 + lowest_bit(x)
        n0 |= w(ip, S.I_NB_BITS + 2 * h)
        n1 |= w(ip, S.I_NB_BITS + 2 * h + 1)
        x &= x - _ONE
    return n0, n1


# ---- the board ------------------------------------------------------------------------------
@njit(cache=True, _nrt=False, forceinline=True)
def occupant(s, side, h):
    """The counter of ``side`` in hex ``h`` (-1 for none)."""
    return s[(S.S_H_GOOD if side == S.GOOD else S.S_H_BAD) + h] - 1


@njit(cache=True, _nrt=False, forceinline=True)
def enemy_in(s, side, h):
    """The enemy counter sharing hex ``h`` with ``side`` (-1 for none)."""
    return s[(S.S_H_BAD if side == S.GOOD else S.S_H_GOOD) + h] - 1


@njit(cache=True, _nrt=False)
def put_counter(s, c, side, h):
    s[S.S_C_POS + c] = h
    s[(S.S_H_GOOD if side == S.GOOD else S.S_H_BAD) + h] = c + 1
    bits_add(s, S.S_OCC_BITS + 2 * side, h)


@njit(cache=True, _nrt=False)
def lift_counter(s, c, side):
    h = s[S.S_C_POS + c]
    s[(S.S_H_GOOD if side == S.GOOD else S.S_H_BAD) + h] = 0
    bits_remove(s, S.S_OCC_BITS + 2 * side, h)
    s[S.S_C_POS + c] = -1


@njit(cache=True, _nrt=False)
def put_artefact(s, a, h):
    s[S.S_A_HEX + a] = h
    s[S.S_H_ARTEFACT + h] = a + 1
    bits_add(s, S.S_ART_BITS, h)


@njit(cache=True, _nrt=False)
def lift_artefact(s, a):
    h = s[S.S_A_HEX + a]
    s[S.S_H_ARTEFACT + h] = 0
    bits_remove(s, S.S_ART_BITS, h)
    s[S.S_A_HEX + a] = -1


@njit(cache=True, _nrt=False)
def artefacts_home(ip, s, side):
    """HEX-O-1: the Artefacts ``side`` has in hexes of its base line: lying there or carried
    by its counters, and (``win_by = "location"``) carried by enemy counters too."""
    n = 0
    for a in range(ip[S.I_N_ARTEFACTS]):
        h = s[S.S_A_HEX + a]
        if h >= 0 and bits_has(ip, S.I_BASE_BITS + 2 * side, h):
            carrier = s[S.S_A_CARRIER + a] - 1
            if ip[S.I_WIN_POSSESSION] == 1 and carrier >= 0 and ip[S.I_C_SIDE + carrier] != side:
                continue  # an enemy holds it
            n += 1
    return n


@njit(cache=True, _nrt=False)
def take_up(s, c, a, how, ev, evn):
    """Counter ``c`` now carries Artefact ``a`` (HEX-MV-6, HEX-C-9)."""
    old = s[S.S_A_CARRIER + a] - 1
    if old == c:
        return
    if old >= 0:
        s[S.S_C_CARRY + old] = 0
    s[S.S_A_CARRIER + a] = c + 1
    s[S.S_C_CARRY + c] = a + 1


@njit(cache=True, _nrt=False)
def count_pickup(ip, s, c, a, how, ev, evn):
    side = ip[S.I_C_SIDE + c]
    s[S.S_PICKUPS + side] += 1
    s[S.S_C_CARRIED + c] = 1
    if s[S.S_FIRST_PICKUP] < 0:
        s[S.S_FIRST_PICKUP] = s[TURN]
    log(ev, evn, S.EV_PICKUP, c, a, s[S.S_A_HEX + a], how, 0, 0, 0)


# ---- setup (HEX-S) --------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def artefact_spots(ip, s):
    """HEX-S-4: an Artefact goes in an empty hex of the middle rows."""
    return (w(ip, S.I_MIDDLE_BITS) & ~w(s, S.S_ART_BITS) & ~w(s, S.S_UG_BITS),
            w(ip, S.I_MIDDLE_BITS + 1) & ~w(s, S.S_ART_BITS + 1) & ~w(s, S.S_UG_BITS + 1))


# a hex's neighbours in ring order (W, NW, NE, E, SE, SW): consecutive ones touch each other
RING = (0, 2, 3, 1, 5, 4)


@njit(cache=True, _nrt=False)
def open_arcs(ip, s, h):
    """Runs of walkable neighbours (on the board, no Undergrowth, no Artefact) around hex
    ``h``.  With at most one run, closing ``h`` cannot cut a walk through it: the neighbours it
    enters and leaves by still touch in turn.  (A walk that ends on an Artefact beside ``h``
    is not covered: ``undergrowth_spots`` checks those hexes in full.)"""
    first = -1
    prev = -1
    runs = 0
    for k in range(6):
        x = ip[S.I_NB + 6 * h + RING[k]]
        o = 1 if x >= 0 and not bits_has(s, S.S_UG_BITS, x) \
            and not bits_has(s, S.S_ART_BITS, x) else 0
        if k == 0:
            first = o
        elif o == 1 and prev == 0:
            runs += 1
        prev = o
    if first == 1 and prev == 0:
        runs += 1
    if runs == 0 and first == 1:  # open all round
        runs = 1
    return runs


@njit(cache=True, _nrt=False)
def connected_without(ip, s, x):
    """With Undergrowth also on hex ``x``: can a counter walk from Bad's base line to the
    other base line and to a side of every Artefact?  A walk goes around the Undergrowth and
    never through an Artefact's hex (entering one ends a move, HEX-MV-5; a carrier may not
    enter one, HEX-MV-8), so an Artefact is reached when a hex beside it is."""
    b0 = _ONE << np.uint64(x & 63) if x < 64 else _ZERO
    b1 = _ONE << np.uint64(x & 63) if x >= 64 else _ZERO
    open0 = w(ip, S.I_BOARD_BITS) & ~w(s, S.S_UG_BITS) & ~w(s, S.S_ART_BITS) & ~b0
    open1 = w(ip, S.I_BOARD_BITS + 1) & ~w(s, S.S_UG_BITS + 1) & ~w(s, S.S_ART_BITS + 1) & ~b1
    f0 = w(ip, S.I_BASE_BITS + 2) & open0
    f1 = w(ip, S.I_BASE_BITS + 3) & open1
    seen0, seen1 = f0, f1
    while f0 != _ZERO or f1 != _ZERO:
        n0, n1 = neighbours_of(ip, f0, f1)
        f0 = n0 & open0 & ~seen0
        f1 = n1 & open1 & ~seen1
        seen0 |= f0
        seen1 |= f1
    by0, by1 = neighbours_of(ip, seen0, seen1)
    arts0 = w(s, S.S_ART_BITS)
    arts1 = w(s, S.S_ART_BITS + 1)
    base0 = w(ip, S.I_BASE_BITS)
    base1 = w(ip, S.I_BASE_BITS + 1)
    return ((arts0 & ~by0) == _ZERO and (arts1 & ~by1) == _ZERO
            and (base0 & ~seen0) == _ZERO and (base1 & ~seen1) == _ZERO)


@njit(cache=True, _nrt=False)
def undergrowth_spots(ip, s):
    """HEX-S-4, HEX-S-5: Undergrowth goes off both base lines, on no Artefact and no other
    Undergrowth, and never on the last open side of an Artefact, a side a counter can walk
    in by (no Undergrowth and no other Artefact there); with the 'path' reading (the default)
    it never cuts an Artefact off from either base line, walking around the Undergrowth and
    the other Artefacts."""
    lo = (w(ip, S.I_BOARD_BITS) & ~w(ip, S.I_BASE_BITS) & ~w(ip, S.I_BASE_BITS + 2)
          & ~w(s, S.S_ART_BITS) & ~w(s, S.S_UG_BITS))
    hi = (w(ip, S.I_BOARD_BITS + 1) & ~w(ip, S.I_BASE_BITS + 1) & ~w(ip, S.I_BASE_BITS + 3)
          & ~w(s, S.S_ART_BITS + 1) & ~w(s, S.S_UG_BITS + 1))
    near0 = _ZERO  # hexes beside an Artefact
    near1 = _ZERO
    for a in range(ip[S.I_N_ARTEFACTS]):
        h = s[S.S_A_HEX + a]
        if h < 0:
            continue
        nb0 = w(ip, S.I_NB_BITS + 2 * h)
        nb1 = w(ip, S.I_NB_BITS + 2 * h + 1)
        near0 |= nb0
        near1 |= nb1
        o0 = nb0 & ~w(s, S.S_UG_BITS) & ~w(s, S.S_ART_BITS)
        o1 = nb1 & ~w(s, S.S_UG_BITS + 1) & ~w(s, S.S_ART_BITS + 1)
        if count_bits(o0, o1) == 1:  # that one open side must stay open
            lo &= ~o0
            hi &= ~o1
    if ip[S.I_ACCESS_PATH] == 1:
        for word in range(2):
            x = lo if word == 0 else hi
            near = near0 if word == 0 else near1
            while x != _ZERO:
                h = 64 * word + lowest_bit(x)
                b = _ONE << np.uint64(h & 63)
                x &= x - _ONE
                if ((near & b) != _ZERO or open_arcs(ip, s, h) >= 2) \
                        and not connected_without(ip, s, h):
                    if word == 0:
                        lo &= ~b
                    else:
                        hi &= ~b
    return lo, hi


@njit(cache=True, _nrt=False)
def placer(ip, k):
    """HEX-S-3: the side making placement ``k`` (Good first, then in turn)."""
    return S.GOOD if k % 2 == 0 else S.BAD


@njit(cache=True, _nrt=False)
def count_home_steps(ip, s):
    """Fill ``home_steps``: a breadth-first search from each base line over every hex
    without Undergrowth (counters and Artefacts move; Undergrowth never does)."""
    n_hex = ip[S.I_N_HEX]
    for side in range(2):
        off = S.S_HOME_STEPS + side * S.MAX_HEX
        for h in range(S.MAX_HEX):
            s[off + h] = -1
        open0 = w(ip, S.I_BOARD_BITS) & ~w(s, S.S_UG_BITS)
        open1 = w(ip, S.I_BOARD_BITS + 1) & ~w(s, S.S_UG_BITS + 1)
        f0 = w(ip, S.I_BASE_BITS + 2 * side) & open0
        f1 = w(ip, S.I_BASE_BITS + 2 * side + 1) & open1
        seen0, seen1 = f0, f1
        k = 0
        while (f0 != _ZERO or f1 != _ZERO) and k <= n_hex:
            x = f0
            while x != _ZERO:
                s[off + lowest_bit(x)] = k
                x &= x - _ONE
            x = f1
            while x != _ZERO:
                s[off + 64 + lowest_bit(x)] = k
                x &= x - _ONE
            n0, n1 = neighbours_of(ip, f0, f1)
            f0 = n0 & open0 & ~seen0
            f1 = n1 & open1 & ~seen1
            seen0 |= f0
            seen1 |= f1
            k += 1


# ---- entering (HEX-EN) ----------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def may_enter(ip, s, c, side):
    """HEX-EN-1, HEX-EN-2: may ``c`` be brought on now?  A counter waiting off the board;
    none before the side's first counter (John Wilson) and the last one (the Monster) only
    when every other has come on.  Copies of one kind are alike, so only the first waiting
    copy is offered."""
    if ip[S.I_C_SIDE + c] != side or s[S.S_C_STATUS + c] != S.CS_WAITING:
        return False
    if c > 0 and ip[S.I_C_KIND + c - 1] == ip[S.I_C_KIND + c] \
            and s[S.S_C_STATUS + c - 1] == S.CS_WAITING:
        return False
    first = ip[S.I_FIRST_OF + side]
    if first >= 0 and first != c and s[S.S_C_STATUS + first] == S.CS_WAITING:
        return False
    if ip[S.I_LAST_OF + side] == c and s[S.S_ENTERED + side] < ip[S.I_SIDE_COUNTERS + side] - 1:
        return False
    return True


@njit(cache=True, _nrt=False)
def entry_spots(ip, s, side):
    """HEX-EN-1: the empty hexes of the side's own base line (no counter, no Artefact)."""
    b = S.I_BASE_BITS + 2 * side
    return (w(ip, b) & ~w(s, S.S_OCC_BITS) & ~w(s, S.S_OCC_BITS + 2) & ~w(s, S.S_ART_BITS),
            w(ip, b + 1) & ~w(s, S.S_OCC_BITS + 1) & ~w(s, S.S_OCC_BITS + 3)
            & ~w(s, S.S_ART_BITS + 1))


@njit(cache=True, _nrt=False)
def can_enter(ip, s, side):
    lo, hi = entry_spots(ip, s, side)
    if lo == _ZERO and hi == _ZERO:
        return False
    for c in range(ip[S.I_N_COUNTERS]):
        if may_enter(ip, s, c, side):
            return True
    return False


# ---- movement (HEX-MV) ----------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def reach(ip, s, c, leave):
    """Every hex counter ``c`` can end its move in (HEX-MV-1..8): up to its move value in
    steps to adjacent hexes, never into Undergrowth or a friendly counter's hex, stopping on
    entering an enemy's hex or an Artefact's, and a carrier (unless it leaves its Artefact)
    never into another Artefact's hex."""
    side = ip[S.I_C_SIDE + c]
    h0 = s[S.S_C_POS + c]
    own = S.S_OCC_BITS + 2 * side
    opp = S.S_OCC_BITS + 2 * (1 - side)
    carrying = s[S.S_C_CARRY + c] > 0 and leave == 0
    open0 = w(ip, S.I_BOARD_BITS) & ~w(s, S.S_UG_BITS) & ~w(s, own)
    open1 = w(ip, S.I_BOARD_BITS + 1) & ~w(s, S.S_UG_BITS + 1) & ~w(s, own + 1)
    if carrying:
        open0 &= ~w(s, S.S_ART_BITS)
        open1 &= ~w(s, S.S_ART_BITS + 1)
    stop0 = w(s, opp) | w(s, S.S_ART_BITS)
    stop1 = w(s, opp + 1) | w(s, S.S_ART_BITS + 1)
    r0, r1 = hex_bit(h0)
    f0, f1 = r0, r1
    for _ in range(ip[S.I_C_MOVE + c]):
        n0, n1 = neighbours_of(ip, f0, f1)
        n0 &= open0 & ~r0
        n1 &= open1 & ~r1
        r0 |= n0
        r1 |= n1
        f0 = n0 & ~stop0
        f1 = n1 & ~stop1
        if f0 == _ZERO and f1 == _ZERO:
            break
    b0, b1 = hex_bit(h0)
    return r0 & ~b0, r1 & ~b1


@njit(cache=True, _nrt=False)
def walk_from(ip, s, c, h0, moves):
    """HEX-MV-7 in passing: every hex counter ``c``, carrying nothing now, can end a walk of up
    to ``moves`` steps from hex ``h0`` in (the rules of ``reach``; the hex it started its move
    from is open to it, as it has left it)."""
    side = ip[S.I_C_SIDE + c]
    own = S.S_OCC_BITS + 2 * side
    opp = S.S_OCC_BITS + 2 * (1 - side)
    p0, p1 = hex_bit(s[S.S_C_POS + c])
    open0 = w(ip, S.I_BOARD_BITS) & ~w(s, S.S_UG_BITS) & (~w(s, own) | p0)
    open1 = w(ip, S.I_BOARD_BITS + 1) & ~w(s, S.S_UG_BITS + 1) & (~w(s, own + 1) | p1)
    stop0 = (w(s, opp) | w(s, S.S_ART_BITS)) & ~p0  # (its Artefact no longer lies there)
    stop1 = (w(s, opp + 1) | w(s, S.S_ART_BITS + 1)) & ~p1
    r0, r1 = hex_bit(h0)
    f0, f1 = r0, r1
    for _ in range(moves):
        n0, n1 = neighbours_of(ip, f0, f1)
        n0 &= open0 & ~r0
        n1 &= open1 & ~r1
        r0 |= n0
        r1 |= n1
        f0 = n0 & ~stop0
        f1 = n1 & ~stop1
        if f0 == _ZERO and f1 == _ZERO:
            break
    b0, b1 = hex_bit(h0)
    return r0 & ~b0, r1 & ~b1


@njit(cache=True, _nrt=False)
def drop_walk(ip, s, c, target):
    """HEX-MV-7 in passing (``drop_in_passing``): the hexes of its own base line that carrier
    ``c`` can walk into (as a carrier, ``reach``'s rules) and walk on from with the steps left;
    with ``target`` a hex, also the steps to it (-1: not such a hex).  Returns (lo, hi,
    steps)."""
    side = ip[S.I_C_SIDE + c]
    h0 = s[S.S_C_POS + c]
    own = S.S_OCC_BITS + 2 * side
    opp = S.S_OCC_BITS + 2 * (1 - side)
    open0 = w(ip, S.I_BOARD_BITS) & ~w(s, S.S_UG_BITS) & ~w(s, own) & ~w(s, S.S_ART_BITS)
    open1 = (w(ip, S.I_BOARD_BITS + 1) & ~w(s, S.S_UG_BITS + 1) & ~w(s, own + 1)
             & ~w(s, S.S_ART_BITS + 1))
    stop0 = w(s, opp) | w(s, S.S_ART_BITS)
    stop1 = w(s, opp + 1) | w(s, S.S_ART_BITS + 1)
    base0 = w(ip, S.I_BASE_BITS + 2 * side)
    base1 = w(ip, S.I_BASE_BITS + 2 * side + 1)
    move = ip[S.I_C_MOVE + c]
    r0, r1 = hex_bit(h0)
    f0, f1 = r0, r1
    out0 = _ZERO
    out1 = _ZERO
    steps = -1
    for k in range(1, move):
        n0, n1 = neighbours_of(ip, f0, f1)
        n0 &= open0 & ~r0
        n1 &= open1 & ~r1
        r0 |= n0
        r1 |= n1
        f0 = n0 & ~stop0
        f1 = n1 & ~stop1
        for word in range(2):
            x = (f0 & base0) if word == 0 else (f1 & base1)
            while x != _ZERO:
                b = 64 * word + lowest_bit(x)
                x &= x - _ONE
                lo, hi = walk_from(ip, s, c, b, move - k)
                if lo != _ZERO or hi != _ZERO:
                    if word == 0:
                        out0 |= _ONE << np.uint64(b)
                    else:
                        out1 |= _ONE << np.uint64(b - 64)
                    if b == target:
                        steps = k
        if f0 == _ZERO and f1 == _ZERO:
            break
    return out0, out1, steps


@njit(cache=True, _nrt=False)
def may_drop_passing(ip, s, c):
    """HEX-MV-7 in passing: a carrier off its own base line that can cross it this move."""
    if ip[S.I_DROP_PASSING] != 1 or s[S.S_C_CARRY + c] == 0 or on_own_base(ip, s, c):
        return False
    lo, hi, _ = drop_walk(ip, s, c, -1)
    return lo != _ZERO or hi != _ZERO


@njit(cache=True, _nrt=False)
def move_spots(ip, s):
    """The hexes the counter of the top ``PR_MOVE`` frame may end its move in."""
    c = frame_get(s, 0)
    if frame_get(s, 2) > 0:
        return walk_from(ip, s, c, frame_get(s, 2) - 1, frame_get(s, 3))
    return reach(ip, s, c, frame_get(s, 1))


@njit(cache=True, _nrt=False)
def on_own_base(ip, s, c):
    h = s[S.S_C_POS + c]
    return h >= 0 and bits_has(ip, S.I_BASE_BITS + 2 * ip[S.I_C_SIDE + c], h)


@njit(cache=True, _nrt=False)
def may_leave(ip, s, c):
    """HEX-MV-7: a carrier standing on its own base line may move off without its Artefact."""
    return s[S.S_C_CARRY + c] > 0 and on_own_base(ip, s, c)


@njit(cache=True, _nrt=False)
def can_move(ip, s, c, side):
    """A counter of ``side`` on the board that has not moved this turn, did not begin the turn
    beside an enemy (HEX-MV-9), and has somewhere to go: a neighbour it may enter."""
    if ip[S.I_C_SIDE + c] != side or s[S.S_C_STATUS + c] != S.CS_ON_BOARD:
        return False
    if s[S.S_C_MOVED + c] == 1 or s[S.S_C_LOCKED + c] == 1:
        return False
    h = s[S.S_C_POS + c]
    own = S.S_OCC_BITS + 2 * side
    open0 = w(ip, S.I_NB_BITS + 2 * h) & ~w(s, S.S_UG_BITS) & ~w(s, own)
    open1 = w(ip, S.I_NB_BITS + 2 * h + 1) & ~w(s, S.S_UG_BITS + 1) & ~w(s, own + 1)
    if s[S.S_C_CARRY + c] > 0 and not may_leave(ip, s, c):
        open0 &= ~w(s, S.S_ART_BITS)
        open1 &= ~w(s, S.S_ART_BITS + 1)
    return open0 != _ZERO or open1 != _ZERO


@njit(cache=True, _nrt=False)
def any_can_move(ip, s, side):
    for c in range(ip[S.I_N_COUNTERS]):
        if can_move(ip, s, c, side):
            return True
    return False


@njit(cache=True, _nrt=False)
def move_counter(ip, s, c, to, leave, ev, evn):
    """Move ``c`` to ``to``, its Artefact with it unless it leaves it (HEX-MV-6, HEX-MV-7)."""
    side = ip[S.I_C_SIDE + c]
    frm = s[S.S_C_POS + c]
    a = s[S.S_C_CARRY + c] - 1
    if a >= 0 and leave == 1:
        s[S.S_C_CARRY + c] = 0
        s[S.S_A_CARRIER + a] = 0
        log(ev, evn, S.EV_DROP, c, a, frm, 0, 0, 0, 0)
        a = -1
    lift_counter(s, c, side)
    put_counter(s, c, side, to)
    if a >= 0:
        lift_artefact(s, a)
        put_artefact(s, a, to)
    s[S.S_C_MOVED + c] = 1
    log(ev, evn, S.EV_MOVE, c, frm, to, a + 1, 0, 0, 0)


@njit(cache=True, _nrt=False)
def move_dropping(ip, s, c, drop, to, ev, evn):
    """HEX-MV-7 in passing: ``c`` walks to base-line hex ``drop``, leaves its Artefact there
    and walks on to ``to``."""
    side = ip[S.I_C_SIDE + c]
    frm = s[S.S_C_POS + c]
    a = s[S.S_C_CARRY + c] - 1
    s[S.S_C_CARRY + c] = 0
    s[S.S_A_CARRIER + a] = 0
    lift_artefact(s, a)
    put_artefact(s, a, drop)
    log(ev, evn, S.EV_DROP, c, a, drop, 1, 0, 0, 0)
    lift_counter(s, c, side)
    put_counter(s, c, side, to)
    s[S.S_C_MOVED + c] = 1
    log(ev, evn, S.EV_MOVE, c, frm, to, 0, 0, 0, 0)


# ---- combat (HEX-C) -------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def targets_of(ip, s, c):
    """HEX-C-2, HEX-C-5: the hexes ``c`` may shoot into: enemies within its range (nothing
    blocks line of sight) that are not in a hex with a counter of ``c``'s side."""
    side = ip[S.I_C_SIDE + c]
    own = S.S_OCC_BITS + 2 * side
    opp = S.S_OCC_BITS + 2 * (1 - side)
    k = S.I_C_RANGE_BITS + (c * S.MAX_HEX + s[S.S_C_POS + c]) * 2
    return (w(ip, k) & w(s, opp) & ~w(s, own), w(ip, k + 1) & w(s, opp + 1) & ~w(s, own + 1))


@njit(cache=True, _nrt=False)
def is_target(ip, s, c, t):
    """May ``c`` attack ``t`` at range (see ``targets_of``)?"""
    if ip[S.I_C_SIDE + t] == ip[S.I_C_SIDE + c] or s[S.S_C_STATUS + t] != S.CS_ON_BOARD:
        return False
    lo, hi = targets_of(ip, s, c)
    return bits_has_pair(lo, hi, s[S.S_C_POS + t])


@njit(cache=True, _nrt=False)
def can_shoot(ip, s, c, side):
    """HEX-C-3, HEX-C-4: a counter that has not attacked, is not in melee, and has a target."""
    if ip[S.I_C_SIDE + c] != side or s[S.S_C_STATUS + c] != S.CS_ON_BOARD:
        return False
    if s[S.S_C_ATTACKED + c] == 1 or ip[S.I_C_RANGE + c] < 1:
        return False
    if enemy_in(s, side, s[S.S_C_POS + c]) >= 0:
        return False
    lo, hi = targets_of(ip, s, c)
    return lo != _ZERO or hi != _ZERO


@njit(cache=True, _nrt=False)
def any_can_shoot(ip, s, side):
    for c in range(ip[S.I_N_COUNTERS]):
        if can_shoot(ip, s, c, side):
            return True
    return False


@njit(cache=True, _nrt=False)
def kill_needs(ip, c, t):
    """HEX-C-6, HEX-C-7: the roll that kills, from the CRT (defence row, attack column)."""
    return ip[S.I_CRT + (ip[S.I_C_DEFENCE + t] - 1) * S.MAX_CRT_COLS + ip[S.I_C_ATTACK + c] - 1]


@njit(cache=True, _nrt=False)
def remove_counter(ip, s, t):
    """HEX-C-8: a killed counter leaves play at once; an Artefact it carried stays put."""
    side = ip[S.I_C_SIDE + t]
    a = s[S.S_C_CARRY + t] - 1
    if a >= 0:
        s[S.S_A_CARRIER + a] = 0
        s[S.S_C_CARRY + t] = 0
    lift_counter(s, t, side)
    s[S.S_C_STATUS + t] = S.CS_DEAD
    s[S.S_LOST + side] += 1


@njit(cache=True, _nrt=False)
def attack(ip, s, rng, c, t, ev, evn):
    """One attack of ``c`` on ``t``: a die against the CRT (HEX-C-6); the dead are removed
    (HEX-C-8); a melee winner in an Artefact's hex carries it (HEX-C-9)."""
    side = ip[S.I_C_SIDE + c]
    need = kill_needs(ip, c, t)
    roll = 1 + rng_int(rng, ip[S.I_DIE_FACES])
    killed = roll >= need
    s[S.S_C_ATTACKED + c] = 1
    s[S.S_ATTACKS + side] += 1
    log(ev, evn, S.EV_ATTACK, c, t, ip[S.I_C_ATTACK + c], ip[S.I_C_DEFENCE + t], need, roll,
        1 if killed else 0)
    if not killed:
        return
    ht = s[S.S_C_POS + t]
    melee = s[S.S_C_POS + c] == ht
    remove_counter(ip, s, t)
    s[S.S_KILLS + side] += 1
    a = s[S.S_H_ARTEFACT + ht] - 1
    if melee and a >= 0 and s[S.S_A_CARRIER + a] != c + 1:
        take_up(s, c, a, 1, ev, evn)
        count_pickup(ip, s, c, a, 1, ev, evn)


@njit(cache=True, _nrt=False)
def melee_all(ip, s, rng, side, ev, evn):
    """HEX-C-4: every counter of ``side`` sharing a hex with an enemy must attack it."""
    for c in range(ip[S.I_N_COUNTERS]):
        if ip[S.I_C_SIDE + c] != side or s[S.S_C_STATUS + c] != S.CS_ON_BOARD:
            continue
        if s[S.S_C_ATTACKED + c] == 1:
            continue
        t = enemy_in(s, side, s[S.S_C_POS + c])
        if t >= 0:
            log(ev, evn, S.EV_MELEE, c, t, 0, 0, 0, 0, 0)
            attack(ip, s, rng, c, t, ev, evn)


# ---- turns ----------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def check_win(ip, s, side, ev, evn):
    """HEX-O-1: all the Artefacts on the side's own base line win at once."""
    if artefacts_home(ip, s, side) == ip[S.I_N_ARTEFACTS]:
        finish(s, S.O_GOOD_WIN if side == S.GOOD else S.O_BAD_WIN, side)
        log(ev, evn, S.EV_WIN, side, s[TURN], 0, 0, 0, 0, 0)
        return True
    return False


@njit(cache=True, _nrt=False)
def begin_turn(ip, s, side, ev, evn):
    """A side's turn begins: nothing has moved or attacked; a counter beside an enemy may not
    move (HEX-MV-9); a counter standing on an Artefact carries it (HEX-MV-6)."""
    s[S.S_SIDE] = side
    s[TURN] += 1
    log(ev, evn, S.EV_TURN, s[TURN], side, 0, 0, 0, 0, 0)
    for c in range(ip[S.I_N_COUNTERS]):
        s[S.S_C_MOVED + c] = 0
        s[S.S_C_ATTACKED + c] = 0
        s[S.S_C_LOCKED + c] = 0
        if ip[S.I_C_SIDE + c] == side and s[S.S_C_STATUS + c] == S.CS_ON_BOARD:
            if enemy_in(s, side, s[S.S_C_POS + c]) >= 0:
                s[S.S_C_LOCKED + c] = 1
    for a in range(ip[S.I_N_ARTEFACTS]):
        h = s[S.S_A_HEX + a]
        c = occupant(s, side, h)
        if c >= 0 and s[S.S_A_CARRIER + a] != c + 1:
            # in a melee (HEX-MV-9) the side whose turn it is carries it: counted and logged
            # as a take-up in a fight (how 2)
            how = 2 if s[S.S_C_LOCKED + c] == 1 else 0
            take_up(s, c, a, how, ev, evn)
            count_pickup(ip, s, c, a, how, ev, evn)
    frame_set(s, 0, S.PH_ENTER)
    check_win(ip, s, side, ev, evn)  # (the other side may have carried one onto this line)


@njit(cache=True, _nrt=False)
def end_turn(ip, s, ev, evn):
    if s[TURN] >= ip[S.I_MAX_TURNS]:
        finish(s, S.O_STALEMATE, -1)
        log(ev, evn, S.EV_CAP, s[TURN], 0, 0, 0, 0, 0, 0)
        return
    begin_turn(ip, s, 1 - s[S.S_SIDE], ev, evn)


@njit(cache=True, _nrt=False)
def advance(ip, s, rng, ev, evn):
    """Run the game on to its next decision (or its end): forced steps need no one."""
    while s[OUTCOME] == PLAYING:
        proc = frame_proc(s)
        if proc == S.PR_SETUP:
            k = s[S.S_PLACED]
            n_art = ip[S.I_N_ARTEFACTS]
            if k < n_art:
                ask(s, placer(ip, k), S.D_PLACE_ARTEFACT)
                return
            if k < n_art + ip[S.I_N_UNDERGROWTH]:
                lo, hi = undergrowth_spots(ip, s)
                if lo != _ZERO or hi != _ZERO:
                    ask(s, placer(ip, k), S.D_PLACE_UNDERGROWTH)
                    return
            frame_pop(s)  # setup done (or no hex is left for Undergrowth)
            count_home_steps(ip, s)
            frame_push(s, S.PR_TURN)
            begin_turn(ip, s, ip[S.I_FIRST_SIDE], ev, evn)
            continue
        side = s[S.S_SIDE]
        phase = frame_get(s, 0)
        if phase == S.PH_ENTER:
            if can_enter(ip, s, side):
                ask(s, side, S.D_ENTER)
                return
            frame_set(s, 0, S.PH_MOVE)
        elif phase == S.PH_MOVE:
            if any_can_move(ip, s, side):
                ask(s, side, S.D_MOVE_PICK)
                return
            frame_set(s, 0, S.PH_COMBAT)
        elif phase == S.PH_COMBAT:  # HEX-C-1: combat after all movement, melee first
            melee_all(ip, s, rng, side, ev, evn)
            frame_set(s, 0, PH_RANGED)
            check_win(ip, s, side, ev, evn)  # (a kill can free an Artefact on the own line)
        else:
            if any_can_shoot(ip, s, side):
                ask(s, side, S.D_ATTACK_PICK)
                return
            end_turn(ip, s, ev, evn)


# ---- the contract ---------------------------------------------------------------------------
@njit(cache=True)
def init(ip, fp, s, h, rng):
    """An empty board; setup's first question (HEX-S-3: Good places first)."""
    for k in range(s.shape[0]):
        s[k] = 0
    clear_header(s)
    for c in range(ip[S.I_N_COUNTERS]):
        s[S.S_C_POS + c] = -1
        s[S.S_C_STATUS + c] = S.CS_WAITING
    for a in range(ip[S.I_N_ARTEFACTS]):
        s[S.S_A_HEX + a] = -1
    s[S.S_FIRST_PICKUP] = -1
    s[S.S_SIDE] = S.GOOD
    frame_push(s, S.PR_SETUP)
    advance(ip, s, rng, np.zeros((0, 8), dtype=np.int64), np.zeros(1, dtype=np.int64))


@njit(cache=True, _nrt=False)
def legal(ip, fp, s, h, mask):
    for k in range(mask.shape[0]):
        mask[k] = 0
    d = s[DECISION]
    side = s[S.S_SIDE]
    n = 0
    if d == S.D_PLACE_ARTEFACT:
        lo, hi = artefact_spots(ip, s)
        n = bits_to_mask(lo, hi, mask)
    elif d == S.D_PLACE_UNDERGROWTH:
        lo, hi = undergrowth_spots(ip, s)
        n = bits_to_mask(lo, hi, mask)
    elif d == S.D_ENTER:
        for c in range(ip[S.I_N_COUNTERS]):
            if may_enter(ip, s, c, side):
                mask[c] = 1
                n += 1
        mask[S.A_PASS] = 1  # HEX-EN-1: "you may"
        n += 1
    elif d == S.D_ENTER_HEX:
        lo, hi = entry_spots(ip, s, side)
        n = bits_to_mask(lo, hi, mask)
    elif d == S.D_MOVE_PICK:
        for c in range(ip[S.I_N_COUNTERS]):
            if can_move(ip, s, c, side):
                mask[c] = 1
                n += 1
        mask[S.A_END] = 1
        n += 1
    elif d == S.D_DROP:
        c = frame_get(s, 0)
        lo, hi = reach(ip, s, c, 0)
        if lo != _ZERO or hi != _ZERO:
            mask[S.A_KEEP] = 1
            n += 1
        if on_own_base(ip, s, c):
            lo, hi = reach(ip, s, c, 1)
        else:  # in passing
            lo, hi, _ = drop_walk(ip, s, c, -1)
        if lo != _ZERO or hi != _ZERO:
            mask[S.A_LEAVE] = 1
            n += 1
    elif d == S.D_DROP_HEX:
        lo, hi, _ = drop_walk(ip, s, frame_get(s, 0), -1)
        n = bits_to_mask(lo, hi, mask)
    elif d == S.D_MOVE_TO:
        lo, hi = move_spots(ip, s)
        n = bits_to_mask(lo, hi, mask)
    elif d == S.D_ATTACK_PICK:
        for c in range(ip[S.I_N_COUNTERS]):
            if can_shoot(ip, s, c, side):
                mask[c] = 1
                n += 1
        mask[S.A_END] = 1
        n += 1
    elif d == S.D_ATTACK_TARGET:
        c = frame_get(s, 0)
        lo, hi = targets_of(ip, s, c)
        other = 1 - side
        x = lo
        while x != _ZERO:
            mask[occupant(s, other, lowest_bit(x))] = 1
            x &= x - _ONE
            n += 1
        x = hi
        while x != _ZERO:
            mask[occupant(s, other, 64 + lowest_bit(x))] = 1
            x &= x - _ONE
            n += 1
    return n


@njit(cache=True, _nrt=False)
def step(ip, fp, s, h, rng, action, ev, evn):
    d = s[DECISION]
    side = s[S.S_SIDE]
    a = action
    if d == S.D_PLACE_ARTEFACT:
        k = s[S.S_PLACED]
        put_artefact(s, k, a)
        s[S.S_PLACED] = k + 1
        log(ev, evn, S.EV_PLACE, s[SEAT], 0, a, k, 0, 0, 0)
    elif d == S.D_PLACE_UNDERGROWTH:
        bits_add(s, S.S_UG_BITS, a)
        s[S.S_H_UNDERGROWTH + a] = 1
        log(ev, evn, S.EV_PLACE, s[SEAT], 1, a, s[S.S_PLACED], 0, 0, 0)
        s[S.S_PLACED] += 1
    elif d == S.D_ENTER:
        if a == S.A_PASS:
            frame_set(s, 0, S.PH_MOVE)
        else:
            frame_push(s, S.PR_ENTER)
            frame_set(s, 0, a)
            ask(s, side, S.D_ENTER_HEX)
            return
    elif d == S.D_ENTER_HEX:
        c = frame_get(s, 0)
        frame_pop(s)
        put_counter(s, c, side, a)
        s[S.S_C_STATUS + c] = S.CS_ON_BOARD
        s[S.S_ENTERED + side] += 1
        if ip[S.I_ENTERED_MOVES] == 0:
            s[S.S_C_MOVED + c] = 1
        log(ev, evn, S.EV_ENTER, c, a, 0, 0, 0, 0, 0)
        frame_set(s, 0, S.PH_MOVE)
    elif d == S.D_MOVE_PICK:
        if a == S.A_END:
            frame_set(s, 0, S.PH_COMBAT)
        else:
            frame_push(s, S.PR_MOVE)
            frame_set(s, 0, a)
            ask(s, side, S.D_DROP if may_leave(ip, s, a) or may_drop_passing(ip, s, a)
                else S.D_MOVE_TO)
            return
    elif d == S.D_DROP:
        c = frame_get(s, 0)
        if a == S.A_LEAVE and not on_own_base(ip, s, c):
            ask(s, side, S.D_DROP_HEX)  # in passing: where?
            return
        frame_set(s, 1, 1 if a == S.A_LEAVE else 0)
        ask(s, side, S.D_MOVE_TO)
        return
    elif d == S.D_DROP_HEX:
        _, _, k = drop_walk(ip, s, frame_get(s, 0), a)
        frame_set(s, 2, a + 1)
        frame_set(s, 3, ip[S.I_C_MOVE + frame_get(s, 0)] - k)
        ask(s, side, S.D_MOVE_TO)
        return
    elif d == S.D_MOVE_TO:
        c = frame_get(s, 0)
        leave = frame_get(s, 1)
        drop = frame_get(s, 2) - 1
        frame_pop(s)
        if drop >= 0:
            move_dropping(ip, s, c, drop, a, ev, evn)
        else:
            move_counter(ip, s, c, a, leave, ev, evn)
        if check_win(ip, s, side, ev, evn):
            return
    elif d == S.D_ATTACK_PICK:
        if a == S.A_END:
            end_turn(ip, s, ev, evn)
        else:
            frame_push(s, S.PR_ATTACK)
            frame_set(s, 0, a)
            ask(s, side, S.D_ATTACK_TARGET)
            return
    elif d == S.D_ATTACK_TARGET:
        c = frame_get(s, 0)
        frame_pop(s)
        attack(ip, s, rng, c, a, ev, evn)
        if check_win(ip, s, side, ev, evn):
            return
    advance(ip, s, rng, ev, evn)


@njit(cache=True, _nrt=False)
def returns(ip, fp, s, out):
    """A win is 1, a loss 0, a stalemate ``stalemate_worth`` to each side (0.5 by default)."""
    winner = s[WINNER]
    for k in range(2):
        out[k] = fp[S.F_STALEMATE_WORTH] if winner < 0 else (1.0 if winner == k else 0.0)


@njit(cache=True, _nrt=False)
def evaluate(ip, fp, s, out):
    """An estimate of each side's result for an unfinished game (what a search cut off early
    scores): every Artefact home counts one for its side; a carried one counts for the
    carrier's side by how near home it is (walking steps around the Undergrowth); a free one
    for the side whose nearest counter is nearer; and the counters left (on the board or
    still to come) by their strength.  The sum is squashed into (0, 1)."""
    if s[OUTCOME] != PLAYING:
        returns(ip, fp, s, out)
        return
    rows = ip[S.I_ROWS]
    n = ip[S.I_N_COUNTERS]
    score = 0.0
    for a in range(ip[S.I_N_ARTEFACTS]):
        h = s[S.S_A_HEX + a]
        if h < 0:
            continue
        if bits_has(ip, S.I_BASE_BITS, h):
            score += 1.0
            continue
        if bits_has(ip, S.I_BASE_BITS + 2, h):
            score -= 1.0
            continue
        carrier = s[S.S_A_CARRIER + a] - 1
        if carrier >= 0:
            side = ip[S.I_C_SIDE + carrier]
            steps = s[S.S_HOME_STEPS + side * S.MAX_HEX + h]
            near = 1.0 - min(max(steps, 0), rows) / rows
            score += (0.15 + 0.7 * near) * (1.0 if side == S.GOOD else -1.0)
            continue
        near_good = rows
        near_bad = rows
        for c in range(n):
            if s[S.S_C_STATUS + c] != S.CS_ON_BOARD:
                continue
            dd = ip[S.I_DIST + s[S.S_C_POS + c] * S.MAX_HEX + h]
            if ip[S.I_C_SIDE + c] == S.GOOD:
                near_good = min(near_good, dd)
            else:
                near_bad = min(near_bad, dd)
        score += 0.3 * (near_bad - near_good) / rows
    strength_good = 0.0
    strength_bad = 0.0
    for c in range(n):
        if s[S.S_C_STATUS + c] != S.CS_DEAD:
            worth = (ip[S.I_C_ATTACK + c] + ip[S.I_C_DEFENCE + c]
                     + 0.5 * (ip[S.I_C_RANGE + c] + ip[S.I_C_MOVE + c]))
            if ip[S.I_C_SIDE + c] == S.GOOD:
                strength_good += worth
            else:
                strength_bad += worth
    total = strength_good + strength_bad
    if total > 0:
        score += EVAL_STRENGTH * (strength_good - strength_bad) / total
    v = 1.0 / (1.0 + np.exp(-1.2 * score))
    out[0] = v
    out[1] = 1.0 - v
    # a position is worth its estimate only with time to turn it into a win: at the turn cap
    # the game is a stalemate, so the estimate falls towards a stalemate's worth as the turns
    # run out (the same position reached a turn later is worth a little less: search does not
    # put off what it can do now)
    keep = max(ip[S.I_MAX_TURNS] - s[TURN], 0) / ip[S.I_MAX_TURNS]
    worth = fp[S.F_STALEMATE_WORTH]
    for k in range(2):
        out[k] = worth + (out[k] - worth) * keep


@njit(cache=True, _nrt=False)
def record(ip, fp, s, h, rec):
    rec[S.R_OUTCOME] = s[OUTCOME]
    rec[S.R_WINNER] = s[WINNER]
    rec[S.R_TURNS] = s[TURN]
    rec[S.R_GOOD_LOST] = s[S.S_LOST + S.GOOD]
    rec[S.R_BAD_LOST] = s[S.S_LOST + S.BAD]
    rec[S.R_GOOD_PICKUPS] = s[S.S_PICKUPS + S.GOOD]
    rec[S.R_BAD_PICKUPS] = s[S.S_PICKUPS + S.BAD]
    carriers_good = 0
    carriers_bad = 0
    leader = 0
    monster = 0
    for c in range(ip[S.I_N_COUNTERS]):
        side = ip[S.I_C_SIDE + c]
        if side == S.GOOD:
            carriers_good += s[S.S_C_CARRIED + c]
        else:
            carriers_bad += s[S.S_C_CARRIED + c]
        if s[S.S_C_STATUS + c] == S.CS_DEAD:
            if ip[S.I_C_FIRST + c] == 1 and side == S.GOOD:
                leader = 1
            if ip[S.I_C_LAST + c] == 1 and side == S.BAD:
                monster = 1
    rec[S.R_GOOD_CARRIERS] = carriers_good
    rec[S.R_BAD_CARRIERS] = carriers_bad
    rec[S.R_GOOD_HOME] = artefacts_home(ip, s, S.GOOD)
    rec[S.R_BAD_HOME] = artefacts_home(ip, s, S.BAD)
    rec[S.R_GOOD_ATTACKS] = s[S.S_ATTACKS + S.GOOD]
    rec[S.R_BAD_ATTACKS] = s[S.S_ATTACKS + S.BAD]
    rec[S.R_GOOD_KILLS] = s[S.S_KILLS + S.GOOD]
    rec[S.R_BAD_KILLS] = s[S.S_KILLS + S.BAD]
    rec[S.R_GOOD_ENTERED] = s[S.S_ENTERED + S.GOOD]
    rec[S.R_BAD_ENTERED] = s[S.S_ENTERED + S.BAD]
    rec[S.R_FIRST_PICKUP] = s[S.S_FIRST_PICKUP]
    rec[S.R_LEADER_KILLED] = leader
    rec[S.R_MONSTER_KILLED] = monster


@njit(cache=True)
def check(ip, fp, s, h):
    """The rules checker: every counter and Artefact accounted for once, the hex arrays and
    bitsets saying the same, no two counters of a side in a hex, nothing on Undergrowth, no
    Undergrowth on a base line.  Returns the number of problems found."""
    errors = 0
    n_hex = ip[S.I_N_HEX]
    n = ip[S.I_N_COUNTERS]
    per_side = np.zeros((2, 3), dtype=np.int64)  # waiting, on board, dead
    for c in range(n):
        side = ip[S.I_C_SIDE + c]
        st = s[S.S_C_STATUS + c]
        if st < S.CS_WAITING or st > S.CS_DEAD:
            errors += 1
            continue
        per_side[side, st] += 1
        p = s[S.S_C_POS + c]
        if st == S.CS_ON_BOARD:
            if p < 0 or p >= n_hex or occupant(s, side, p) != c:
                errors += 1
            elif s[S.S_H_UNDERGROWTH + p] == 1:
                errors += 1
        elif p != -1 or s[S.S_C_CARRY + c] != 0:
            errors += 1
        a = s[S.S_C_CARRY + c] - 1
        if a >= 0 and (s[S.S_A_CARRIER + a] != c + 1 or s[S.S_A_HEX + a] != p):
            errors += 1
    for side in range(2):
        total = 0
        for c in range(n):
            if ip[S.I_C_SIDE + c] == side:
                total += 1
        if per_side[side, 0] + per_side[side, 1] + per_side[side, 2] != total:
            errors += 1
        if per_side[side, 2] != s[S.S_LOST + side]:
            errors += 1
        if per_side[side, 2] != s[S.S_KILLS + 1 - side]:
            errors += 1
    ug = 0
    arts = 0
    for x in range(S.MAX_HEX):
        g = s[S.S_H_GOOD + x] - 1
        b = s[S.S_H_BAD + x] - 1
        a = s[S.S_H_ARTEFACT + x] - 1
        u = s[S.S_H_UNDERGROWTH + x]
        if x >= n_hex:
            if g >= 0 or b >= 0 or a >= 0 or u != 0:
                errors += 1
            continue
        if (g >= 0) != bits_has(s, S.S_OCC_BITS, x) or (b >= 0) != bits_has(s, S.S_OCC_BITS + 2, x):
            errors += 1
        if (a >= 0) != bits_has(s, S.S_ART_BITS, x) or (u == 1) != bits_has(s, S.S_UG_BITS, x):
            errors += 1
        if g >= 0 and (g >= n or s[S.S_C_POS + g] != x or ip[S.I_C_SIDE + g] != S.GOOD):
            errors += 1
        if b >= 0 and (b >= n or s[S.S_C_POS + b] != x or ip[S.I_C_SIDE + b] != S.BAD):
            errors += 1
        if a >= 0 and (a >= ip[S.I_N_ARTEFACTS] or s[S.S_A_HEX + a] != x):
            errors += 1
        if u == 1:
            ug += 1
            if a >= 0 or bits_has(ip, S.I_BASE_BITS, x) or bits_has(ip, S.I_BASE_BITS + 2, x):
                errors += 1
        if a >= 0:
            arts += 1
    placed = s[S.S_PLACED]
    n_art = ip[S.I_N_ARTEFACTS]
    if arts != min(placed, n_art) or ug != max(placed - n_art, 0):
        errors += 1
    for a in range(n_art):
        x = s[S.S_A_HEX + a]
        carrier = s[S.S_A_CARRIER + a] - 1
        if carrier >= 0 and (s[S.S_C_POS + carrier] != x or s[S.S_C_CARRY + carrier] != a + 1):
            errors += 1
    return errors


@njit(cache=True)
def play_one(g, ip, fp, pol, sps, seat_pol, search, rpol, rsp, qp, seed, index, s, h, view,
             mask, rng, srng, qrng, wi, wf, rec, ev, evn):
    """The engine's driver compiled for this game (its calls to ``legal`` and ``step`` direct,
    not through function values): the same games as ``engine.play``, faster."""
    drive(init, legal, no_legal_bits, step, observe_nothing, record, g, ip, fp, pol, sps,
          seat_pol, search, rpol, rsp, qp, seed, index, s, h, view, mask, rng, srng, qrng, wi, wf,
          rec, ev, evn)
