"""Sticky Cthulhu rules as njit functions over the arrays laid out in ``state.py``.

The real-time race (STK-T-2) is modelled per player: each seat's sequence of throws is
independent of the others' (a Creature stuck on one tentacle can still be caught by another,
STK-T-4), so the turn goes to the seat whose sequence ends first.  A seat's sequence is cut
short as soon as it can no longer beat the best finish found so far.  What a seat carries on
its tentacle is a bit mask over the tokens (at most 64): an Investigator picked up, on a hit or
a miss, stays there until it is shaken off or comes home with the target (STK-T-3, STK-T-5).
"""

from __future__ import annotations

import math

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic

from simcore.kernels import (
    fma,
    log_event,
    log_libm,
    rng_int_v,
    rng_load,
    rng_next_v,
    rng_save,
    rng_uniform,
    rng_uniform_v,
)
from simcore.sticky.state import (
    A_DETACH,
    A_IGNORE,
    CU_AIM,
    CU_CATCH,
    CU_DELAY,
    CU_EXTRA,
    CU_INV_AIM2,
    CU_TIME,
    D_CURSE,
    D_INVESTIGATOR,
    D_TARGET,
    EV_CURSE_DRAW,
    EV_DETACH,
    EV_GIVE_UP,
    EV_NOTICE,
    EV_SHAKE,
    EV_THROW,
    F_CATCH_SCALE,
    F_CENTRE_X0,
    F_CENTRE_X1,
    F_CENTRE_Y0,
    F_CENTRE_Y1,
    F_DEPTH,
    F_REACH,
    F_RETHROW_LO,
    F_RETHROW_SPAN,
    F_ROLLER_ADV,
    F_SHAKE_DROP,
    F_SHAKE_S,
    F_TOKEN_R,
    F_WIDTH,
    I_COLOUR_FACES,
    I_COLOURS,
    I_INVESTIGATORS,
    I_KIND_FACES,
    I_KINDS,
    I_MAX_THROWS,
    I_PLACE_TRIES,
    I_PLAYERS,
    I_PUT_BACK_CLEAR,
    I_RETURN_CENTRE,
    I_SIXTH_COLOUR,
    I_SIXTH_MODE,
    I_TO_WIN,
    NO_CURSE,
    SIXTH_ANY,
    SIXTH_COLOUR,
    SK_AIM,
    SK_DETACH,
    SK_INV_TWO_VAR,
    SK_NOTICE,
    SK_REACT_MEAN,
    SK_REACT_MIN,
    SK_RETHROW,
    V_CAND,
    V_CATCH_P,
    V_CURSE,
    V_KIND,
    V_LEADER_TOKENS,
    V_MY_TOKENS,
    V_N_CAND,
    V_PLAYERS,
    V_SEAT,
    V_SHAKE_DROP,
    V_SIZE,
    V_STUCK_CREATURES,
    V_STUCK_INVESTIGATORS,
    V_TO_WIN,
)

INF = 1.0e300
# outcomes of one seat's race
RACE_LOST = 0  # someone else finished first, or the seat gave up
RACE_SCORED = 1  # detached the target cleanly
RACE_MISHAP = 2  # detached the target with an Investigator aboard: turn ends, no token
RACE_GAVE_UP = 3  # max_throws spent without finishing (the time returned is when it stopped)


log = log_event  # the shared trace logger (simcore.kernels)


# ---- setup (STK-S-1) --------------------------------------------------------------------
# Token j sits at (px[j], py[j]): Investigators are tokens 0 .. n_inv-1, then Creature
# (kind, colour) is token n_inv + kind * colours + colour.  A token lifted off the table
# sits at OFF, far from everything, so overlap checks need no mask and the loops vectorise.
OFF = 1.0e9


@njit(cache=True, _nrt=False, forceinline=True)
def n_creatures(ip):
    return ip[I_KINDS] * ip[I_COLOURS]


@njit(cache=True, _nrt=False, forceinline=True)
def n_tokens(ip):
    return ip[I_KINDS] * ip[I_COLOURS] + ip[I_INVESTIGATORS]


@njit(cache=True, fastmath=True, _nrt=False, forceinline=True)
def nearest_d2(px, py, n, x, y):
    """Smallest squared distance from (x, y) to the centres of tokens 0..n-1."""
    m = INF
    for j in range(n):
        dx = px[j] - x
        dy = py[j] - y
        d2 = dx * dx + dy * dy
        m = min(m, d2)
    return m


@njit(cache=True, _nrt=False, forceinline=True)
def overlaps_any(px, py, n, x, y, min_d2):
    """Is the centre of any of tokens 0..n-1 closer than sqrt(min_d2) to (x, y)?  An "or" of
    the comparisons rather than a minimum of the distances: the loop vectorises without
    fastmath (numba inlines a callee into its caller's flags), and the answer is True exactly
    when the nearest squared distance is below min_d2."""
    c = False
    for j in range(n):
        dx = px[j] - x
        dy = py[j] - y
        c |= dx * dx + dy * dy < min_d2
    return c


@njit(cache=True, _nrt=False, forceinline=True)
def free_spot(st, px, py, n_check, ex, ey, x_lo, x_hi, fp, ip, y_lo=0.0, y_hi=-1.0):
    """A random spot for a token (wholly inside [x_lo, x_hi) x [y_lo, y_hi), by default the
    table's depth) overlapping none of tokens 0..n_check-1 nor one more token at (ex, ey)
    (OFF: none); after ``placement_tries`` failures the last spot tried is used.  Returns
    (x, y, rng state).

    The extra token keeps the vector loads away from an array entry written just before (a
    store followed at once by a wider load of it stalls until the store retires): the caller
    checks the token it has just placed through (ex, ey)."""
    r = fp[F_TOKEN_R]
    min_d2 = 4.0 * r * r
    if y_hi < y_lo:
        y_hi = fp[F_DEPTH]
    y_span = max(y_hi - y_lo - 2.0 * r, 0.0)
    x_span = max(x_hi - x_lo - 2.0 * r, 0.0)
    x = 0.0
    y = 0.0
    for _ in range(ip[I_PLACE_TRIES]):
        u, st = rng_uniform_v(st)
        x = x_lo + r + u * x_span
        u, st = rng_uniform_v(st)
        y = y_lo + r + u * y_span
        dx = ex - x
        dy = ey - y
        if not (overlaps_any(px, py, n_check, x, y, min_d2) | (dx * dx + dy * dy < min_d2)):
            break
    return x, y, st


@njit(cache=True, _nrt=False, forceinline=True)
def place_token_v(st, px, py, idx, fp, ip):
    """STK-T-9: put token ``idx`` back on the table: in the centre of the table
    (``return_spot = "centre"``, the text: a random spot of the central square of side
    ``table.centre_cm``, kept on the table) or anywhere (``"random"``, as at setup).  It lies
    where it is dropped, maybe touching another token, unless ``table.put_back_clear``: then
    the spot is drawn again while it touches a token (after ``placement_tries`` failures the
    last one tried is used)."""
    iu = np.uint64(idx)  # (unsigned: no wraparound test)
    px[iu] = OFF  # lifted off the table while a spot is sought
    py[iu] = OFF
    width = fp[F_WIDTH]
    # with overlaps allowed, the first spot drawn is kept: a spot is checked against no token
    n_check = n_tokens(ip) if ip[I_PUT_BACK_CLEAR] == 1 else 0
    if ip[I_RETURN_CENTRE] == 1:  # (the central square's bounds come from the loader)
        x, y, st = free_spot(st, px, py, n_check, OFF, OFF, fp[F_CENTRE_X0], fp[F_CENTRE_X1],
                             fp, ip, fp[F_CENTRE_Y0], fp[F_CENTRE_Y1])
    else:
        x, y, st = free_spot(st, px, py, n_check, OFF, OFF, 0.0, width, fp, ip)
    px[iu] = x
    py[iu] = y
    return st


@njit(cache=True, _nrt=False)
def place_token(rng, px, py, idx, fp, ip):
    """``place_token_v`` on a generator array."""
    rng_save(rng, place_token_v(rng_load(rng), px, py, idx, fp, ip))


@njit(cache=True, _nrt=False)
def setup_table_v(st, px, py, fp, ip):
    """STK-S-1: no token overlaps another; the Investigators are spread evenly (one in each
    vertical strip of the table), the Creatures anywhere.  Investigators are placed first
    and stored first, so each token need only be checked against the ones before it."""
    n_cre = n_creatures(ip)
    n_inv = ip[I_INVESTIGATORS]
    width = fp[F_WIDTH]
    strip = width / max(n_inv, 1)
    # token j is checked against tokens 0..j-2 in the arrays and token j-1 at (x, y)
    x = OFF
    y = OFF
    for j in range(n_inv):
        px[max(j - 1, 0)] = x
        py[max(j - 1, 0)] = y
        x, y, st = free_spot(st, px, py, max(j - 1, 0), x, y, j * strip, (j + 1) * strip,
                             fp, ip)
    for j in range(n_inv, n_inv + n_cre):
        px[max(j - 1, 0)] = x
        py[max(j - 1, 0)] = y
        x, y, st = free_spot(st, px, py, max(j - 1, 0), x, y, 0.0, width, fp, ip)
    n = n_inv + n_cre
    if n > 0:
        px[n - 1] = x
        py[n - 1] = y
    return st


@njit(cache=True, _nrt=False)
def setup_table(rng, px, py, fp, ip):
    """``setup_table_v`` on a generator array."""
    rng_save(rng, setup_table_v(rng_load(rng), px, py, fp, ip))


@njit(cache=True, _nrt=False, forceinline=True)
def creature_index(kind, colour, ip):
    return ip[I_INVESTIGATORS] + kind * ip[I_COLOURS] + colour


@njit(cache=True, _nrt=False, forceinline=True)
def kind_of(token, ip):
    """The kind of a Creature token (-1 for an Investigator)."""
    if token < ip[I_INVESTIGATORS]:
        return -1
    return (token - ip[I_INVESTIGATORS]) // ip[I_COLOURS]


# ---- dice (STK-T-1) ---------------------------------------------------------------------
@njit(cache=True, _nrt=False, forceinline=True)
def roll_dice_v(st, ip):
    """Roll both dice: (kind, colour, rerolls, Colour die face, rng state).  A Colour die face
    beyond the colours shows ``I_SIXTH_COLOUR`` (SIXTH_COLOUR), is rolled again
    (SIXTH_REROLL), or lets any colour count (SIXTH_ANY: colour -1)."""
    kind, st = rng_int_v(st, ip[I_KIND_FACES])
    rerolls = 0
    while True:
        face, st = rng_int_v(st, ip[I_COLOUR_FACES])
        if face < ip[I_COLOURS]:
            return kind, face, rerolls, face, st
        mode = ip[I_SIXTH_MODE]
        if mode == SIXTH_COLOUR:
            return kind, ip[I_SIXTH_COLOUR], rerolls, face, st
        if mode == SIXTH_ANY:
            return kind, -1, rerolls, face, st
        rerolls += 1


@njit(cache=True, _nrt=False)
def roll_dice(rng, ip):
    """``roll_dice_v`` on a generator array: (kind, colour, rerolls, face)."""
    kind, colour, rerolls, face, st = roll_dice_v(rng_load(rng), ip)
    rng_save(rng, st)
    return kind, colour, rerolls, face


# ---- bit masks over the tokens (at most 64) ---------------------------------------------
@intrinsic
def popcount(typingctx, x):
    """The number of bits set in a uint64 (llvm.ctpop), as an int64."""
    sig = types.int64(types.uint64)

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        fn = builder.module.declare_intrinsic("llvm.ctpop", [i64], ir.FunctionType(i64, [i64]))
        return builder.call(fn, args)

    return sig, codegen


@njit(cache=True, _nrt=False, forceinline=True)
def bit(j):
    return np.uint64(1) << np.uint64(j)


@njit(cache=True, _nrt=False, forceinline=True)
def low_bits(n):
    """Bits 0..n-1 set (0 <= n <= 64)."""
    if n >= 64:
        return ~np.uint64(0)
    return (np.uint64(1) << np.uint64(n)) - np.uint64(1)


@njit(cache=True, _nrt=False, forceinline=True)
def kind_bits(kind, ip):
    """The bits of every Creature of ``kind``."""
    return low_bits(ip[I_COLOURS]) << np.uint64(ip[I_INVESTIGATORS] + kind * ip[I_COLOURS])


# ---- neighbourhood of a target ----------------------------------------------------------
@njit(cache=True, _nrt=False, forceinline=True)
def investigator_d2(px, py, target, ip):
    """Squared distance between the centres of ``target`` and the nearest Investigator (INF
    with none): a throw at ``target`` can pick up an Investigator only if it lands at least
    sqrt(this) - reach from the target."""
    n_inv = ip[I_INVESTIGATORS]
    if n_inv == 0:
        return INF
    tu = np.uint64(target)  # (unsigned: no wraparound test)
    return nearest_d2(px, py, n_inv, px[tu], py[tu])


@njit(cache=True, _nrt=False)
def investigator_clearance(px, py, target, fp, ip):
    """Distance (cm) between the edges of ``target`` and the nearest Investigator."""
    if ip[I_INVESTIGATORS] == 0:
        return INF
    return math.sqrt(investigator_d2(px, py, target, ip)) - 2.0 * fp[F_TOKEN_R]


@njit(cache=True, _nrt=False)
def nearest_creature(px, py, token, skip, ip):
    """The Creature on the table nearest to ``token`` and not in the bit mask ``skip`` (-1:
    none), for the extra_creature Curse (STK-C-9): the one a player holding ``token`` on the
    tentacle throws at next."""
    best = -1
    best_d2 = INF
    x = px[token]
    y = py[token]
    for j in range(ip[I_INVESTIGATORS], n_tokens(ip)):
        if j == token or px[j] >= 0.5 * OFF or (skip >> np.uint64(j)) & np.uint64(1):
            continue
        dx = px[j] - x
        dy = py[j] - y
        d2 = dx * dx + dy * dy
        if d2 < best_d2:
            best = j
            best_d2 = d2
    return best


# ---- the decision view --------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def fill_view(view, kind, seat, tokens, curse_of, ip):
    for k in range(V_SIZE):
        view[k] = 0.0
    view[V_KIND] = kind
    view[V_SEAT] = seat
    view[V_PLAYERS] = ip[I_PLAYERS]
    view[V_TO_WIN] = ip[I_TO_WIN]
    view[V_MY_TOKENS] = tokens[seat]
    lead = 0
    for s in range(ip[I_PLAYERS]):
        if s != seat and tokens[s] > lead:
            lead = tokens[s]
    view[V_LEADER_TOKENS] = lead
    view[V_CURSE] = curse_of[seat]


@njit(cache=True, _nrt=False)
def ask(decide, view, legal, n_choices, sp, rng):
    """Ask the strategy; an illegal answer falls back to the first legal choice."""
    for k in range(legal.shape[0]):
        legal[k] = 1 if k < n_choices else 0
    a = decide(view, legal, sp, rng)
    if a < 0 or a >= n_choices:
        a = 0
    return a


@njit(cache=True, _nrt=False)
def choose_target(decide, sp, rng, view, legal, px, py, kind, seat, tokens, curse_of, fp, ip):
    """STK-T-1 with the special colour face: the seat picks one Creature of the kind."""
    fill_view(view, D_TARGET, seat, tokens, curse_of, ip)
    n = ip[I_COLOURS]
    view[V_N_CAND] = n
    for c in range(min(n, 16)):
        view[V_CAND + c] = investigator_clearance(px, py, creature_index(kind, c, ip), fp, ip)
    return creature_index(kind, ask(decide, view, legal, min(n, 16), sp, rng), ip)


@njit(cache=True, _nrt=False)
def curse_choice(decide, sp, rng, view, legal, seat, tokens, curse_of, curse, fp, ip):
    """STK-C-1/3: a cursed seat holding tokens decides whether to respect its Curse."""
    fill_view(view, D_CURSE, seat, tokens, curse_of, ip)
    view[V_CATCH_P] = min(1.0, curse[curse_of[seat], CU_CATCH] * fp[F_CATCH_SCALE])
    return ask(decide, view, legal, 2, sp, rng) == A_IGNORE


# ---- one seat's race (STK-T-2..7) -------------------------------------------------------
@njit(cache=True, _nrt=False)
def drop_tokens(rng, aboard, drop):
    """One shake: each token of the bit mask ``aboard`` falls with chance ``drop`` (one draw
    each, in increasing order).  Returns the tokens left."""
    left = aboard
    m = aboard
    while m != 0:
        j = trailing_zeros(m)
        m &= m - np.uint64(1)
        if rng_uniform(rng) < drop:
            left &= ~bit(j)
    return left


@njit(cache=True, _nrt=False, forceinline=True)
def drop_tokens_v(st, aboard, drop):
    """``drop_tokens`` on a state value: (tokens left, rng state)."""
    left = aboard
    m = aboard
    while m != 0:
        j = trailing_zeros(m)
        m &= m - np.uint64(1)
        u, st = rng_uniform_v(st)
        if u < drop:
            left &= ~bit(j)
    return left, st


@njit(cache=True, _nrt=False)
def shake_off(rng, decide, sp, view, legal, seat, tokens, curse_of, aboard, caught, extra, t,
              tf, best, ev, evn, fp, ip):
    """STK-T-3: the target ``caught`` is on the tentacle with the tokens of the bit mask
    ``aboard``, Investigators among them; shake (each shake drops each stuck token, the target
    too, with chance shake_drop_p) until the Investigators are gone, or detach anyway.
    Returns (time, target still held, tokens still aboard, shakes begun before ``best``, when
    the turn may already have ended).  Under the extra_creature Curse (``extra``) it stops
    when the last other Creature falls, the target still held, for the caller to throw for
    company again.  A player gives up shaking after max_throws shakes and lets the target go
    (STK-T-7 made finite: with shake_drop_p = 0 nothing ever falls)."""
    drop = fp[F_SHAKE_DROP]
    inv_bits = low_bits(ip[I_INVESTIGATORS])
    mine = bit(caught)
    others = aboard & ~mine
    shakes = 0
    counted = 0
    while (others & inv_bits) != 0 and shakes < ip[I_MAX_THROWS]:
        fill_view(view, D_INVESTIGATOR, seat, tokens, curse_of, ip)
        view[V_STUCK_INVESTIGATORS] = popcount(others & inv_bits)
        view[V_STUCK_CREATURES] = popcount(others & ~inv_bits)
        view[V_SHAKE_DROP] = drop
        if ask(decide, view, legal, 2, sp, rng) == A_DETACH:
            return t, True, others | mine, counted
        shakes += 1
        counted += t < best
        t += fp[F_SHAKE_S] * tf
        kept = rng_uniform(rng) >= drop
        others = drop_tokens(rng, others, drop)
        log(ev, evn, EV_SHAKE, seat, int(t * 1000.0), 1 if kept else 0,
            popcount(others & inv_bits), popcount(others & ~inv_bits), 0, 0)
        if not kept:
            return t, False, others, counted
        if extra and (others & ~inv_bits) == 0:
            return t, True, others | mine, counted
    if (others & inv_bits) != 0:
        return t, False, others, counted
    return t, True, others | mine, counted


@njit(cache=True, _nrt=False)
def pull_back_shakes(st, aboard, seat, t, tf, notice, best, max_throws, counters, ev, evn, fp,
                     ip):
    """STK-T-3 after a miss that left Investigators on the tentacle (rare: out of the race's
    loop): the pull-back's own shake drops each stuck token with chance shake_drop_p; an
    Investigator left that the player notices (``notice``) is shaken off with further shakes
    (turn.shake_s each, counted in counters[1] when begun before ``best``) before the next
    throw, one not noticed is thrown with.  Returns (tokens aboard, time, rng state)."""
    drop = fp[F_SHAKE_DROP]
    inv_bits = low_bits(ip[I_INVESTIGATORS])
    aboard, st = drop_tokens_v(st, aboard, drop)
    log(ev, evn, EV_SHAKE, seat, int(t * 1000.0), -1, popcount(aboard & inv_bits),
        popcount(aboard & ~inv_bits), 1, 0)
    if (aboard & inv_bits) != 0:
        v, st = rng_uniform_v(st)
        noticed = v < notice
        log(ev, evn, EV_NOTICE, seat, int(t * 1000.0), 1 if noticed else 0, 0, 0, 0, 0)
        shakes = 0
        while noticed and (aboard & inv_bits) != 0 and shakes < max_throws:
            shakes += 1
            counters[1] += t < best
            t += fp[F_SHAKE_S] * tf
            aboard, st = drop_tokens_v(st, aboard, drop)
            log(ev, evn, EV_SHAKE, seat, int(t * 1000.0), -1, popcount(aboard & inv_bits),
                popcount(aboard & ~inv_bits), 0, 0)
    return aboard, t, st


# ---- throws ----------------------------------------------------------------------------
# A landing point is T + r (cos 2 pi v, sin 2 pi v).  The sine and cosine come from
# ``sincos_of_turn``: short Taylor polynomials, each within 1.8e-9 of the true values (see
# there), so the point is within 2.6e-9 r of the one the C library's sin and cos give, and a
# squared distance d2 from it within 2.6e-9 (d2 + r^2) of the library's.  That can change
# whether a token sticks only when |d2 - reach^2| < REACH_GUARD (1 + d2 + reach^2 + r^2),
# REACH_GUARD being 38 times that bound: then (about once in a million landings) the point is
# computed again with the library's sin and cos, so every record is exactly what the library
# alone gives.
REACH_GUARD = 1e-7


@njit(cache=True, _nrt=False, forceinline=True)
def sincos_of_turn(v):
    """(sin 2 pi v, cos 2 pi v) for 0 <= v < 1, each within 1.8e-9: the angle less the
    nearest quarter turn is y, |y| <= pi/4 (exact but for the rounding of pi/2), and sin y,
    cos y are their Taylor polynomials to y^9 and y^10 (alternating series: the error is at
    most the first term left out, (pi/4)^11 / 11! = 1.8e-9 and (pi/4)^12 / 12! = 1.2e-10).
    No branch depends on v."""
    q = np.int64(4.0 * v + 0.5)
    y = (4.0 * v - q) * (0.5 * math.pi)
    z = y * y
    # Horner's scheme with fused multiply-adds (half the latency of a multiply then an add)
    s = fma(z, 1.0 / 362880.0, -1.0 / 5040.0)
    s = fma(z, s, 1.0 / 120.0)
    s = fma(z, s, -1.0 / 6.0)
    s = fma(z * y, s, y)
    c = fma(z, -1.0 / 3628800.0, 1.0 / 40320.0)
    c = fma(z, c, -1.0 / 720.0)
    c = fma(z, c, 1.0 / 24.0)
    c = fma(z, c, -0.5)
    c = fma(z, c, 1.0)
    sn = c if q & 1 else s
    cs = s if q & 1 else c
    sn = -sn if q & 2 else sn
    cs = -cs if (q + 1) & 2 else cs
    return sn, cs


@njit(cache=True, _nrt=False, forceinline=True)
def stuck_mask(px, py, n, lx, ly, reach2, r2=0.0):
    """Which of tokens 0..n-1 a throw landing at (lx, ly) picks up (their edge within the
    reach: centre within sqrt(reach2)), as a bit mask, and whether any lies within
    REACH_GUARD of the reach (for a landing point ``r2`` = r^2 from the target, see above).
    Branch-free, so the loop vectorises."""
    m = np.uint64(0)
    close = False
    scale = 1.0 + reach2 + r2
    for j in range(n):
        dx = px[j] - lx
        dy = py[j] - ly
        d2 = dx * dx + dy * dy
        close |= abs(d2 - reach2) < REACH_GUARD * (scale + d2)
        m |= np.uint64(d2 <= reach2) << np.uint64(j)
    return m, close


@njit(cache=True, _nrt=False, forceinline=True)
def landing_stuck(st, px, py, n, tx, ty, u, two_var, reach2):
    """Where a throw at (tx, ty) whose hit-or-miss draw was ``u`` lands, and which of tokens
    0..n-1 it picks up.  The landing radius follows from ``u`` by inversion of its law (the
    aim error is an isotropic normal of variance two_var / 2 per axis: below the reach on a
    hit, beyond it on a miss); one more draw gives the angle.  Returns (bit mask, landing x,
    landing y, rng state)."""
    r2 = -two_var * log_libm(1.0 - u)
    r = math.sqrt(r2)
    v, st = rng_uniform_v(st)
    sn, cs = sincos_of_turn(v)
    lx = tx + r * cs
    ly = ty + r * sn
    m, close = stuck_mask(px, py, n, lx, ly, reach2, r2)
    if close:
        # the polynomials may differ from the C library's sin and cos by up to 1.8e-9; that
        # can matter only for a token this close to the reach, which practically never
        # happens: then take the library's values
        theta = 2.0 * math.pi * v
        lx = tx + r * math.cos(theta)
        ly = ty + r * math.sin(theta)
        m, close = stuck_mask(px, py, n, lx, ly, reach2)
    return m, lx, ly, st


@njit(cache=True, _nrt=False, forceinline=True)
def investigator_gap2(px, py, target, fp, ip):
    """(distance from ``target`` to the nearest Investigator's centre, less the reach)^2, 0
    when within the reach, INF with none: a throw at ``target`` can pick up an Investigator
    only if it lands at least that far (squared) from the target."""
    d = math.sqrt(investigator_d2(px, py, target, ip)) - (fp[F_REACH] + fp[F_TOKEN_R])
    return d * d if d > 0.0 else 0.0


NEED_SLACK = 1.0 + 1e-9  # rounding room for the test below: it may take a throw too many


@njit(cache=True, _nrt=False, forceinline=True)
def landing_need(gap2, inv_two_var):
    """For a throw whose aim error has variance 1 / (2 inv_two_var) per axis: a factor P such
    that a hit-or-miss draw ``u`` with (1 - u) P > NEED_SLACK cannot reach an Investigator
    ``investigator_gap2`` = gap2 away.  A landing radius of at least sqrt(gap2) needs
    1 - u <= exp(-x), x = gap2 inv_two_var; P = 1 + x + x^2/2 + x^3/6 + x^4/24 is at most
    e^x, so the test never turns such a throw away, and it needs no exp and no division.
    The draws that pass it have their landing point computed; the exact test follows."""
    if gap2 <= 0.0:
        return 1.0
    x = gap2 * inv_two_var
    # (fused multiply-adds round once: the result still is at most e^x, within NEED_SLACK)
    return fma(x, fma(x, fma(x, fma(x, 1.0 / 24.0, 1.0 / 6.0), 0.5), 1.0), 1.0)


@njit(cache=True, _nrt=False, forceinline=True)
def throw_need(gap2, seat, cursed, skill, curse):
    """``landing_need`` for ``seat``'s throws this turn (its aim, widened by the Curse it
    respects, if any)."""
    inv = skill[np.uint64(seat), SK_INV_TWO_VAR]
    if cursed != NO_CURSE:
        inv *= curse[cursed, CU_INV_AIM2]
    return landing_need(gap2, inv)


@njit(cache=True)
def hit_chances(skill, curse, fp):
    """phit[seat, 0]: chance one throw of ``seat`` hits (lands within reach + token radius of
    the target, with a normal aim error of sd aim_sd_cm per axis): 1 - exp(-R^2 / 2 sd^2);
    phit[seat, 1 + c]: the same under Curse card c (aim error times its aim_factor)."""
    reach = fp[F_REACH] + fp[F_TOKEN_R]
    out = np.empty((skill.shape[0], curse.shape[0] + 1), dtype=np.float64)
    for s in range(skill.shape[0]):
        for c in range(curse.shape[0] + 1):
            aim = skill[s, SK_AIM] * (1.0 if c == 0 else curse[c - 1, CU_AIM])
            two_var = 2.0 * aim * aim
            out[s, c] = 1.0 if two_var <= 0.0 else -math.expm1(-reach * reach / two_var)
    return out


# ---- reaction times: the ziggurat for the exponential -------------------------------------
def _exp_ziggurat_tables():
    """Marsaglia & Tsang's ziggurat for the unit exponential ("The ziggurat method for
    generating random variables", J. Stat. Softw. 5(8), 2000), 256 layers, for a 53-bit
    uniform integer: (k, w, f), the acceptance bounds, widths and densities of the layers."""
    m = 2.0 ** 53
    de = ZIG_R
    ve = 3.949659822581572e-3  # the area of each layer
    k = np.zeros(256, dtype=np.uint64)
    w = np.zeros(256)
    f = np.zeros(256)
    q = ve / math.exp(-de)
    k[0] = np.uint64(int((de / q) * m))
    w[0] = q / m
    w[255] = de / m
    f[0] = 1.0
    f[255] = math.exp(-de)
    tde = de
    for i in range(254, 0, -1):
        de = -math.log(ve / de + math.exp(-de))
        k[i + 1] = np.uint64(int((de / tde) * m))
        tde = de
        f[i] = math.exp(-de)
        w[i] = de / m
    return k, w, f


ZIG_R = 7.697117470131487  # where the base layer's tail begins
ZIG_K, ZIG_W, ZIG_F = _exp_ziggurat_tables()
_U255 = np.uint64(255)
_U11 = np.uint64(11)


@njit(cache=True, _nrt=False)
def exponential_zig_slow(st, i, j):
    """The ziggurat's rare rest (about 1.1% of draws): the tail, or a point of layer ``i``
    outside its rectangle, tested against the curve; may draw again.  Returns (x, state)."""
    while True:
        if i == 0:  # the tail beyond ZIG_R: ZIG_R plus a fresh exponential
            u, st = rng_uniform_v(st)
            return ZIG_R - log_libm(1.0 - u), st
        y = float(j) * ZIG_W[i]
        u, st = rng_uniform_v(st)
        if ZIG_F[i] + u * (ZIG_F[i - 1] - ZIG_F[i]) < math.exp(-y):  # under the curve
            return y, st
        x, st = rng_next_v(st)
        i = np.int64(x & _U255)
        j = x >> _U11
        if j < ZIG_K[i]:
            return float(j) * ZIG_W[i], st


@njit(cache=True, _nrt=False, forceinline=True)
def exponential_zig_v(st, mean):
    """An exponential of the given mean by the ziggurat: one raw draw (its low 8 bits pick
    a layer, its top 53 a point in it) and no logarithm 99% of the time; the rest goes through
    the exact wedge and tail tests (``exponential_zig_slow``).  Returns (x, rng state)."""
    x, st = rng_next_v(st)
    i = np.int64(x & _U255)
    j = x >> _U11
    if j < ZIG_K[i]:
        return mean * (float(j) * ZIG_W[i]), st
    e, st = exponential_zig_slow(st, i, j)
    return mean * e, st


@njit(cache=True, _nrt=False, forceinline=True)
def first_throw_time_v(st, seat, is_roller, cursed, skill, curse, fp):
    """When ``seat`` throws first: its Curse's ritual delay, then a reaction time (a minimum
    plus an exponential tail), scaled by the Curse; the roller's head start is subtracted.
    Returns (time, rng state)."""
    tf = 1.0
    t = 0.0
    if cursed != NO_CURSE:
        tf = curse[cursed, CU_TIME]
        t = curse[cursed, CU_DELAY]
    sk = np.uint64(seat)  # (unsigned: no wraparound test on the loads)
    sk_min = skill[sk, SK_REACT_MIN]
    tail, st = exponential_zig_v(st, max(skill[sk, SK_REACT_MEAN] - sk_min, 0.0))
    t += tf * (sk_min + tail)
    if is_roller:
        t = max(t - fp[F_ROLLER_ADV], 0.0)
    return t, st


@njit(cache=True, _nrt=False)
def first_throw_time(rng, seat, is_roller, cursed, skill, curse, fp):
    """``first_throw_time_v`` on a generator array."""
    t, st = first_throw_time_v(rng_load(rng), seat, is_roller, cursed, skill, curse, fp)
    rng_save(rng, st)
    return t


@njit(cache=True, _nrt=False, forceinline=True)
def race_v(
    st, rng, decide, sp, view, legal, px, py, target, any_kind, seat, t, cursed, tokens,
    curse_of, skill, curse, phit, best, need, counters, ev, evn, fp, ip, max_throws,
):
    """Play seat ``seat``'s turn from its first throw at time ``t``: throw at ``target``
    until it detaches a Creature that ends the turn, or it cannot beat ``best`` (the
    earliest finish found so far; a finish exactly at ``best`` is returned, a tie).

    ``any_kind`` >= 0 when any Creature of that kind counts; ``cursed`` is the Curse card
    the seat respects this turn (or NO_CURSE); ``phit[seat, 1 + cursed]`` the chance that
    one of its throws hits; ``need`` the factor ``throw_need`` gives for the target's gap to
    the nearest Investigator (``investigator_gap2``).  Returns (finish time, RACE_* result,
    token caught, rng state): the finish is INF for RACE_LOST, and the time the seat stopped
    for RACE_GAVE_UP.  ``counters`` gathers [throws that caught the target with an Investigator
    aboard, shakes, throws that picked up an Investigator] up to ``best``.  The generator
    state is the value ``st``; ``rng`` is its array, used only to hand the strategy the
    current state.

    What is on the tentacle is the bit mask ``aboard``.  An Investigator picked up stays
    there until it is shaken off: the pull-back after a miss includes one shake (rethrow_s
    covers it); one left after it that the player notices (notice_p) is shaken off with
    further shakes (turn.shake_s each) before the next throw, one not noticed is thrown
    with.  On the common path (a designated target, no extra_creature Curse) only
    Investigators matter besides the target, and a throw's landing point is computed only
    when it could reach one (``landing_need``).  Otherwise (the "any" face, or the
    extra_creature Curse, where other Creatures count) every throw's landing point is
    computed and every token checked.
    """
    tf = 1.0
    af = 1.0
    extra = False
    if cursed != NO_CURSE:
        tf = curse[cursed, CU_TIME]
        af = curse[cursed, CU_AIM]
        extra = curse[cursed, CU_EXTRA] > 0.5
    sk = np.uint64(seat)  # (unsigned: no wraparound test on the loads)
    aim_sd = skill[sk, SK_AIM] * af
    rethrow = skill[sk, SK_RETHROW] * tf
    rethrow_lo = fp[F_RETHROW_LO]
    rethrow_span = fp[F_RETHROW_SPAN]
    reach = fp[F_REACH] + fp[F_TOKEN_R]
    reach2 = reach * reach
    two_var = max(2.0 * aim_sd * aim_sd, 1e-300)
    p_hit = phit[sk, np.uint64(1 + cursed)]
    notice = skill[sk, SK_NOTICE]
    n_inv = ip[I_INVESTIGATORS]
    inv_bits = low_bits(n_inv)
    general = extra or any_kind >= 0
    n_check = n_tokens(ip) if general else n_inv
    if general:
        need = 1.0
    any_bits = kind_bits(any_kind, ip) if any_kind >= 0 else np.uint64(0)
    aboard = np.uint64(0)  # what is on the tentacle (the target too, once caught)
    caught = -1  # the target, once on the tentacle
    aim = target
    left = max_throws
    while left > 0:
        if t > best:  # (a finish exactly at ``best`` is a tie, settled by the caller)
            return INF, RACE_LOST, -1, st
        left -= 1
        u, st = rng_uniform_v(st)
        got = aim if u < p_hit else -1
        new = np.uint64(0)
        if (1.0 - u) * need <= NEED_SLACK:  # it may matter where it lands: what stuck?
            au = np.uint64(aim)  # (unsigned: no wraparound test)
            m, _lx, _ly, st = landing_stuck(st, px, py, n_check, px[au], py[au], u, two_var,
                                            reach2)
            new = m & ~(aboard | bit(aim))
            if any_kind >= 0 and got < 0 and caught < 0 and (new & any_bits) != 0:
                got = np.int64(trailing_zeros(new & any_bits))  # the special face: another one
                new &= ~bit(got)
        new_inv = new & inv_bits
        if new_inv != 0:
            counters[2] += 1
        aboard |= new
        # an Investigator hit: the target comes onto the tentacle with an Investigator there,
        # or an Investigator joins the target already held (STK-C-9's throw for company)
        if (aboard & inv_bits) != 0 and ((caught < 0 and got >= 0) or (caught >= 0
                                                                        and new_inv != 0)):
            counters[0] += 1
        log(ev, evn, EV_THROW, seat, int(t * 1000.0), 1 if got >= 0 else 0,
            popcount(new & ~inv_bits), popcount(new_inv), aim, popcount(aboard & inv_bits))
        if got < 0 and not (caught >= 0 and (aboard & ~inv_bits & ~bit(caught)) != 0):
            # a miss (but not one that, missing the Creature thrown at for company under
            # extra_creature, brought another along: then the player has company and detaches)
            if caught < 0 and (aboard & inv_bits) != 0:
                aboard, t, st = pull_back_shakes(st, aboard, seat, t, tf, notice, best,
                                                 max_throws, counters, ev, evn, fp, ip)
            v, st = rng_uniform_v(st)
            t += rethrow * (rethrow_lo + rethrow_span * v)  # pull back and throw again
            continue
        if caught < 0:
            caught = got
        if got >= 0:
            aboard |= bit(got)
        if extra and (aboard & ~inv_bits & ~bit(caught)) == 0:
            # STK-C-9 (extra_creature): the target alone cannot score, so the player keeps it
            # on the tentacle and throws at the nearest other Creature until one comes along
            aim = nearest_creature(px, py, caught, aboard, ip)
            if aim < 0:
                left = 0  # no other Creature on the table: this turn cannot be scored
                break
            v, st = rng_uniform_v(st)
            t += rethrow * (rethrow_lo + rethrow_span * v)
            continue
        noticed = True
        if (aboard & inv_bits) != 0:
            # STK-T-5: a player who does not notice the Investigator peels it off too
            v, st = rng_uniform_v(st)
            noticed = v < notice
            if noticed:
                rng_save(rng, st)
                t, held, aboard, shakes = shake_off(rng, decide, sp, view, legal, seat, tokens,
                                                    curse_of, aboard, caught, extra, t, tf,
                                                    best, ev, evn, fp, ip)
                st = rng_load(rng)
                counters[1] += shakes
                if not held:  # the target fell off: throw at it again
                    caught = -1
                    aim = target
                    v, st = rng_uniform_v(st)
                    t += rethrow * (rethrow_lo + rethrow_span * v)
                    continue
                if extra and (aboard & ~inv_bits & ~bit(caught)) == 0:
                    aim = nearest_creature(px, py, caught, aboard, ip)  # company fell off
                    if aim < 0:
                        left = 0
                        break
                    v, st = rng_uniform_v(st)
                    t += rethrow * (rethrow_lo + rethrow_span * v)
                    continue
        t += skill[sk, SK_DETACH] * tf
        if t > best:
            return INF, RACE_LOST, -1, st
        clean = (aboard & inv_bits) == 0
        log(ev, evn, EV_DETACH, seat, int(t * 1000.0), 1 if clean else 0,
            0 if noticed else 1, 0, 0, 0)
        return t, RACE_SCORED if clean else RACE_MISHAP, caught, st
    if t > best:
        return INF, RACE_LOST, -1, st
    log(ev, evn, EV_GIVE_UP, seat, int(t * 1000.0), 0, 0, 0, 0, 0)
    return t, RACE_GAVE_UP, -1, st


@njit(cache=True)
def race(
    rng, decide, sp, view, legal, px, py, target, any_kind, seat, t, cursed, tokens, curse_of,
    skill, curse, phit, best, gap2, counters, ev, evn, fp, ip, max_throws,
):
    """``race_v`` on a generator array, for a target ``investigator_gap2`` = gap2 from the
    nearest Investigator: (finish time, RACE_* result, token caught)."""
    need = throw_need(gap2, seat, cursed, skill, curse)
    t, res, caught, st = race_v(
        rng_load(rng), rng, decide, sp, view, legal, px, py, target, any_kind, seat, t, cursed,
        tokens, curse_of, skill, curse, phit, best, need, counters, ev, evn, fp, ip,
        max_throws)
    rng_save(rng, st)
    return t, res, caught


# ---- curses (STK-C-1, STK-C-2) ----------------------------------------------------------
@njit(cache=True, _nrt=False)
def draw_curse(deck, deck_state, seat, curse_of, ev, evn):
    """Draw the top Curse; an old Curse goes under the pile.  deck_state = [head, count]."""
    n = deck.shape[0]
    head = deck_state[0]
    count = deck_state[1]
    if count == 0:
        return
    card = deck[head]
    head = (head + 1) % n
    count -= 1
    old = curse_of[seat]
    if old != NO_CURSE:
        deck[(head + count) % n] = old
        count += 1
    curse_of[seat] = card
    deck_state[0] = head
    deck_state[1] = count
    log(ev, evn, EV_CURSE_DRAW, seat, card, old, 0, 0, 0, 0)


@njit(cache=True, _nrt=False)
def caught_ignoring(rng, card, curse, fp):
    """STK-C-3: is a seat that ignored ``card`` this turn caught?"""
    return rng_uniform(rng) < min(1.0, curse[card, CU_CATCH] * fp[F_CATCH_SCALE])


@njit(cache=True, _nrt=False)
def n_players(ip):
    return ip[I_PLAYERS]
