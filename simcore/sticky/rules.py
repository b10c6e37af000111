"""Sticky Cthulhu rules as njit functions over the arrays laid out in ``state.py``.

The real-time race (STK-T-2) is modelled per player: each seat's sequence of throws is
independent of the others' (a Creature stuck on one tentacle can still be caught by another,
STK-T-4), so the turn goes to the seat whose sequence ends first.  A seat's sequence is cut
short as soon as it can no longer beat the best finish found so far.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from simcore.kernels import (
    log_event,
    log_libm,
    rng_exponential_v,
    rng_int_v,
    rng_load,
    rng_save,
    rng_uniform,
    rng_uniform_v,
    sincos_turn,
)
from simcore.sticky.state import (
    A_DETACH,
    A_IGNORE,
    CU_AIM,
    CU_CATCH,
    CU_DELAY,
    CU_EXTRA,
    CU_TIME,
    D_CURSE,
    D_INVESTIGATOR,
    D_TARGET,
    EV_CURSE_DRAW,
    EV_DETACH,
    EV_GIVE_UP,
    EV_SHAKE,
    EV_THROW,
    F_CATCH_SCALE,
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
    I_SIXTH_ANY,
    I_TO_WIN,
    MAX_TOKENS,
    NO_CURSE,
    SK_AIM,
    SK_DETACH,
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


@njit(cache=True, _nrt=False, inline="always")
def n_creatures(ip):
    return ip[I_KINDS] * ip[I_COLOURS]


@njit(cache=True, _nrt=False, inline="always")
def n_tokens(ip):
    return ip[I_KINDS] * ip[I_COLOURS] + ip[I_INVESTIGATORS]


@njit(cache=True, fastmath=True, _nrt=False, inline="always")
def nearest_d2(px, py, n, x, y):
    """Smallest squared distance from (x, y) to the centres of tokens 0..n-1."""
    m = INF
    for j in range(n):
        dx = px[j] - x
        dy = py[j] - y
        d2 = dx * dx + dy * dy
        m = min(m, d2)
    return m


@njit(cache=True, _nrt=False, inline="always")
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


@njit(cache=True, _nrt=False, inline="always")
def free_spot(st, px, py, n_check, ex, ey, x_lo, x_hi, fp, ip):
    """A random spot in [x_lo, x_hi) x depth overlapping none of tokens 0..n_check-1 nor one
    more token at (ex, ey) (OFF: none); after ``placement_tries`` failures the last spot tried
    is used.  Returns (x, y, rng state).

    The extra token keeps the vector loads away from an array entry written just before (a
    store followed at once by a wider load of it stalls until the store retires): the caller
    checks the token it has just placed through (ex, ey)."""
    r = fp[F_TOKEN_R]
    min_d2 = 4.0 * r * r
    y_span = max(fp[F_DEPTH] - 2.0 * r, 0.0)
    x_span = max(x_hi - x_lo - 2.0 * r, 0.0)
    x = 0.0
    y = 0.0
    for _ in range(ip[I_PLACE_TRIES]):
        u, st = rng_uniform_v(st)
        x = x_lo + r + u * x_span
        u, st = rng_uniform_v(st)
        y = r + u * y_span
        dx = ex - x
        dy = ey - y
        if not (overlaps_any(px, py, n_check, x, y, min_d2) | (dx * dx + dy * dy < min_d2)):
            break
    return x, y, st


@njit(cache=True, _nrt=False, inline="always")
def place_token_v(st, px, py, idx, fp, ip):
    """STK-T-9: put token ``idx`` back on the table at a fresh spot touching no other."""
    px[idx] = OFF  # lifted off the table while a spot is sought
    py[idx] = OFF
    x, y, st = free_spot(st, px, py, n_tokens(ip), OFF, OFF, 0.0, fp[F_WIDTH], fp, ip)
    px[idx] = x
    py[idx] = y
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


@njit(cache=True, _nrt=False, inline="always")
def creature_index(kind, colour, ip):
    return ip[I_INVESTIGATORS] + kind * ip[I_COLOURS] + colour


@njit(cache=True, _nrt=False, inline="always")
def kind_of(token, ip):
    """The kind of a Creature token (-1 for an Investigator)."""
    if token < ip[I_INVESTIGATORS]:
        return -1
    return (token - ip[I_INVESTIGATORS]) // ip[I_COLOURS]


# ---- dice (STK-T-1) ---------------------------------------------------------------------
@njit(cache=True, _nrt=False, inline="always")
def roll_dice_v(st, ip):
    """Roll both dice: (kind, colour, rerolls, rng state); colour is -1 when any colour
    counts."""
    kind, st = rng_int_v(st, ip[I_KIND_FACES])
    rerolls = 0
    while True:
        face, st = rng_int_v(st, ip[I_COLOUR_FACES])
        if face < ip[I_COLOURS]:
            return kind, face, rerolls, st
        if ip[I_SIXTH_ANY] == 1:
            return kind, -1, rerolls, st
        rerolls += 1


@njit(cache=True, _nrt=False)
def roll_dice(rng, ip):
    """``roll_dice_v`` on a generator array: (kind, colour, rerolls)."""
    kind, colour, rerolls, st = roll_dice_v(rng_load(rng), ip)
    rng_save(rng, st)
    return kind, colour, rerolls


# ---- neighbourhood of a target ----------------------------------------------------------
@njit(cache=True, _nrt=False, inline="always")
def near_mask(px, py, n, x, y, lim):
    """Bit j set for each token j < n (n <= 64) whose centre is within sqrt(lim) of (x, y).
    A branch-free OR of bits, so the loop vectorises."""
    m = np.uint64(0)
    for j in range(n):
        dx = px[j] - x
        dy = py[j] - y
        m |= np.uint64(dx * dx + dy * dy <= lim) << np.uint64(j)
    return m


@njit(cache=True, _nrt=False, inline="always")
def find_neighbours(px, py, target, nbr, everywhere, fp, ip, skip=0):
    """Tokens that can stick together with ``target``: centres within twice the catch radius
    (a throw that hits the target lands within one radius of it), or every other token when
    ``everywhere`` (a miss can still catch another Creature of the kind on the special face).
    The tokens in the bit mask ``skip`` (already on the tentacle) are left out too.
    They are listed in ``nbr`` in increasing order; returns how many.
    """
    reach = fp[F_REACH] + fp[F_TOKEN_R]
    lim = 0.25 * OFF * OFF if everywhere else 4.0 * reach * reach  # never reaches OFF
    tx = px[target]
    ty = py[target]
    m = near_mask(px, py, n_tokens(ip), tx, ty, lim)
    m &= ~(np.uint64(1) << np.uint64(target))  # leave the target itself out
    m &= ~np.uint64(skip)
    k = 0
    while m != 0:
        nbr[k] = trailing_zeros(m)
        k += 1
        m &= m - np.uint64(1)
    return k


@njit(cache=True, _nrt=False)
def investigator_clearance(px, py, target, fp, ip):
    """Distance (cm) between the edges of ``target`` and the nearest Investigator."""
    n_inv = ip[I_INVESTIGATORS]
    if n_inv == 0:
        return INF
    return math.sqrt(nearest_d2(px, py, n_inv, px[target], py[target])) - 2.0 * fp[F_TOKEN_R]


@njit(cache=True, _nrt=False)
def nearest_creature(px, py, token, ip):
    """The Creature on the table nearest to ``token`` (-1: none), for the extra_creature
    Curse (STK-C-9): the one a player holding ``token`` on the tentacle throws at next."""
    best = -1
    best_d2 = INF
    x = px[token]
    y = py[token]
    for j in range(ip[I_INVESTIGATORS], n_tokens(ip)):
        if j == token or px[j] >= 0.5 * OFF:
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
def shake_off(rng, decide, sp, view, legal, seat, tokens, curse_of, n_inv, n_oth, extra, t, tf,
              best, ev, evn, fp, ip):
    """STK-T-3: the target is stuck with Investigators; shake (each shake drops each stuck
    token, the target too, with chance shake_drop_p) until they are gone, or detach anyway.
    Returns (time, target still held and scorable, investigators left, shakes begun before
    ``best``, when the turn may already have ended).
    A player gives up shaking after max_throws shakes and lets the target go (STK-T-7 made
    finite: with shake_drop_p = 0 nothing ever falls)."""
    drop = fp[F_SHAKE_DROP]
    shakes = 0
    counted = 0
    while n_inv > 0 and shakes < ip[I_MAX_THROWS]:
        fill_view(view, D_INVESTIGATOR, seat, tokens, curse_of, ip)
        view[V_STUCK_INVESTIGATORS] = n_inv
        view[V_STUCK_CREATURES] = n_oth
        view[V_SHAKE_DROP] = drop
        if ask(decide, view, legal, 2, sp, rng) == A_DETACH:
            return t, True, n_inv, counted
        shakes += 1
        counted += t < best
        t += fp[F_SHAKE_S] * tf
        kept = rng_uniform(rng) >= drop
        left = 0
        for _k in range(n_inv):
            if rng_uniform(rng) >= drop:
                left += 1
        n_inv = left
        oth = 0
        for _k in range(n_oth):
            if rng_uniform(rng) >= drop:
                oth += 1
        n_oth = oth
        log(ev, evn, EV_SHAKE, seat, int(t * 1000.0), 1 if kept else 0, n_inv, n_oth, 0, 0)
        if not kept or (extra and n_oth == 0):
            return t, False, n_inv, counted
    if n_inv > 0:
        return t, False, n_inv, counted
    return t, True, 0, counted


# ---- throws ----------------------------------------------------------------------------
# Landing points are computed with kernels.sincos_turn (inline, within one ulp of the C
# library's sin and cos).  A last-bit difference moves a landing point by a few ulps of its
# coordinates and a squared distance d2 by about 1e-15 (1 + d2 + reach^2) at most, so it can
# change whether a token sticks only when |d2 - reach^2| < REACH_GUARD (1 + d2 + reach^2): then
# (practically never) the landing point is computed again with the library's sin and cos, so
# every record is exactly what the library alone gives.
REACH_GUARD = 1e-10


@njit(cache=True, _nrt=False, inline="always")
def stuck_tokens(px, py, nbr, n_nbr, lx, ly, reach2, caught, any_kind, ip):
    """Which of the tokens nbr[:n_nbr] a throw landing at (lx, ly) picks up (their edge within
    the reach): (investigators, other creatures, token caught, close) where the token caught
    is ``caught`` or, on the special face (``any_kind`` >= 0) and when ``caught`` < 0, the
    first Creature of that kind picked up; ``close`` says whether a token is within
    REACH_GUARD of the reach."""
    n_inv_tokens = ip[I_INVESTIGATORS]
    n_inv = 0
    n_oth = 0
    close = False
    if any_kind >= 0:
        for q in range(n_nbr):
            j = nbr[q]
            dx = px[j] - lx
            dy = py[j] - ly
            d2 = dx * dx + dy * dy
            close |= abs(d2 - reach2) < REACH_GUARD * (1.0 + d2 + reach2)
            if d2 <= reach2:
                if j < n_inv_tokens:
                    n_inv += 1
                elif caught < 0 and kind_of(j, ip) == any_kind:
                    caught = j  # special face: another Creature of the kind counts
                else:
                    n_oth += 1
    else:
        # counted without branches: no branch waits for the landing point, so its long
        # computation (log, sqrt, sin, cos) stays off the critical path
        for q in range(n_nbr):
            j = nbr[q]
            dx = px[j] - lx
            dy = py[j] - ly
            d2 = dx * dx + dy * dy
            close |= abs(d2 - reach2) < REACH_GUARD * (1.0 + d2 + reach2)
            inside = d2 <= reach2
            inv = j < n_inv_tokens
            n_inv += inside & inv
            n_oth += inside & (not inv)
    return n_inv, n_oth, caught, close


@njit(cache=True, _nrt=False, inline="always")
def throw_until_hit(st, px, py, nbr, n_nbr, target, any_kind, seat, t, best, p_hit, two_var,
                    reach2, rethrow, rethrow_lo, rethrow_span, max_throws, ev, evn, ip):
    """Throw at ``target`` from time ``t`` until a throw catches it (or another Creature of
    ``any_kind``), the seat can no longer beat ``best``, or ``max_throws`` run out.

    A throw lands at the target plus an isotropic normal aim error and hits when it lands
    within reach2 (squared) of it, with chance p_hit = 1 - exp(-reach2 / two_var).  The landing
    point is drawn from the matching conditional law only when it matters (a hit with other
    tokens nearby, or any throw on the special face).  After a miss the next throw comes
    ``rethrow`` x (``rethrow_lo`` + ``rethrow_span`` x a uniform draw) later.
    Returns (time, hit, throws used, investigators stuck, other creatures stuck, token hit,
    landing point x, y (OFF when it was not needed: nothing else within reach), rng state).
    """
    tx = px[target]
    ty = py[target]
    for k in range(max_throws):
        if t > best:  # (a finish exactly at ``best`` is a tie, settled by the caller)
            return t, False, k, 0, 0, -1, OFF, OFF, st
        u, st = rng_uniform_v(st)
        hit = u < p_hit
        caught = target if hit else -1
        n_inv = 0
        n_oth = 0
        lx = OFF
        ly = OFF
        if (hit and n_nbr > 0) or any_kind >= 0:
            # radius by inversion of its law: below the reach on a hit, beyond it on a miss
            r = math.sqrt(-two_var * log_libm(1.0 - u))
            v, st = rng_uniform_v(st)
            theta = 2.0 * math.pi * v
            sn, cs = sincos_turn(theta)
            lx = tx + r * cs
            ly = ty + r * sn
            n_inv, n_oth, caught2, close = stuck_tokens(
                px, py, nbr, n_nbr, lx, ly, reach2, caught, any_kind, ip)
            if close:
                # sincos_turn may differ from the C library's sin and cos in the last bit;
                # that can matter only for a token this close to the reach, which
                # practically never happens: then take the library's values
                lx = tx + r * math.cos(theta)
                ly = ty + r * math.sin(theta)
                n_inv, n_oth, caught2, close = stuck_tokens(
                    px, py, nbr, n_nbr, lx, ly, reach2, caught, any_kind, ip)
            caught = caught2
        log(ev, evn, EV_THROW, seat, int(t * 1000.0), 1 if caught >= 0 else 0, n_oth, n_inv,
            target, 0)
        if caught >= 0:
            return t, True, k + 1, n_inv, n_oth, caught, lx, ly, st
        v, st = rng_uniform_v(st)
        t += rethrow * (rethrow_lo + rethrow_span * v)  # pull back, shake clean, throw again
    return t, False, max_throws, 0, 0, -1, OFF, OFF, st


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


@njit(cache=True, _nrt=False, inline="always")
def first_throw_time_v(st, seat, is_roller, cursed, skill, curse, fp):
    """When ``seat`` throws first: its Curse's ritual delay, then a reaction time (a minimum
    plus an exponential tail), scaled by the Curse; the roller's head start is subtracted.
    Returns (time, rng state)."""
    tf = 1.0
    t = 0.0
    if cursed != NO_CURSE:
        tf = curse[cursed, CU_TIME]
        t = curse[cursed, CU_DELAY]
    sk_min = skill[seat, SK_REACT_MIN]
    tail, st = rng_exponential_v(st, max(skill[seat, SK_REACT_MEAN] - sk_min, 0.0))
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


@njit(cache=True, _nrt=False, inline="always")
def race_v(
    st, rng, decide, sp, view, legal, px, py, nbr, nbr2, n_nbr, target, any_kind, seat, t,
    cursed, tokens, curse_of, skill, curse, phit, best, counters, ev, evn, fp, ip, max_throws,
):
    """Play seat ``seat``'s turn from its first throw at time ``t``: throw at ``target``
    until it detaches a Creature that ends the turn, or it cannot beat ``best`` (the
    earliest finish found so far; a finish exactly at ``best`` is returned, a tie).

    ``any_kind`` >= 0 when any Creature of that kind counts; ``cursed`` is the Curse card
    the seat respects this turn (or NO_CURSE); ``phit[seat, 1 + cursed]`` the chance that
    one of its throws hits.  Returns (finish time, RACE_* result, token caught, rng state):
    the finish is INF for RACE_LOST, and the time the seat stopped for RACE_GAVE_UP.
    ``counters`` gathers [investigator hits, shakes] before ``best``; ``nbr2`` is scratch.
    The generator state is the value ``st``; ``rng`` is its array, used only to hand the
    strategy the current state.
    """
    tf = 1.0
    af = 1.0
    extra = False
    if cursed != NO_CURSE:
        tf = curse[cursed, CU_TIME]
        af = curse[cursed, CU_AIM]
        extra = curse[cursed, CU_EXTRA] > 0.5
    aim = skill[seat, SK_AIM] * af
    rethrow = skill[seat, SK_RETHROW] * tf
    rethrow_lo = fp[F_RETHROW_LO]
    rethrow_span = fp[F_RETHROW_SPAN]
    reach = fp[F_REACH] + fp[F_TOKEN_R]
    reach2 = reach * reach
    two_var = max(2.0 * aim * aim, 1e-300)
    p_hit = phit[seat, 1 + cursed]
    left = max_throws
    while left > 0:
        t, hit, used, n_inv, n_oth, caught, lx, ly, st = throw_until_hit(
            st, px, py, nbr, n_nbr, target, any_kind, seat, t, best, p_hit, two_var, reach2,
            rethrow, rethrow_lo, rethrow_span, left, ev, evn, ip)
        left -= used
        if not hit:
            break
        if extra and n_oth == 0:
            # STK-C-9 (extra_creature): the target alone cannot score, so the player keeps it
            # on the tentacle and throws at the nearest other Creature until one comes along
            mate = nearest_creature(px, py, caught, ip)
            if mate < 0:
                left = 0  # no other Creature on the table: this turn cannot be scored
                break
            v, st = rng_uniform_v(st)
            t += rethrow * (rethrow_lo + rethrow_span * v)
            # what is already on the tentacle (the target and any Investigator it brought)
            # cannot be picked up again
            aboard = np.uint64(1) << np.uint64(caught)
            if n_inv > 0:
                aboard |= near_mask(px, py, ip[I_INVESTIGATORS], lx, ly, reach2)
            n2 = find_neighbours(px, py, mate, nbr2, False, fp, ip, aboard)
            t, hit, used, inv2, oth2, _mate, _lx, _ly, st = throw_until_hit(
                st, px, py, nbr2, n2, mate, -1, seat, t, best, p_hit, two_var, reach2,
                rethrow, rethrow_lo, rethrow_span, left, ev, evn, ip)
            left -= used
            if not hit:
                break
            n_inv += inv2
            n_oth = 1 + oth2
        noticed = True
        if n_inv > 0:
            counters[0] += 1
            # STK-T-5: a player who does not notice the Investigator peels it off too
            u, st = rng_uniform_v(st)
            noticed = u < skill[seat, SK_NOTICE]
        if n_inv > 0 and noticed:
            rng_save(rng, st)
            t, hit, n_inv, shakes = shake_off(rng, decide, sp, view, legal, seat, tokens,
                                              curse_of, n_inv, n_oth, extra, t, tf, best, ev,
                                              evn, fp, ip)
            st = rng_load(rng)
            counters[1] += shakes
            if not hit:
                v, st = rng_uniform_v(st)
                t += rethrow * (rethrow_lo + rethrow_span * v)
                continue
        t += skill[seat, SK_DETACH] * tf
        if t > best:
            break
        log(ev, evn, EV_DETACH, seat, int(t * 1000.0), 1 if n_inv == 0 else 0,
            0 if noticed else 1, 0, 0, 0)
        return t, RACE_SCORED if n_inv == 0 else RACE_MISHAP, caught, st
    if left <= 0:
        log(ev, evn, EV_GIVE_UP, seat, int(t * 1000.0), 0, 0, 0, 0, 0)
        return t, RACE_GAVE_UP, -1, st
    return INF, RACE_LOST, -1, st


@njit(cache=True)
def race(
    rng, decide, sp, view, legal, px, py, nbr, n_nbr, target, any_kind, seat, t, cursed,
    tokens, curse_of, skill, curse, phit, best, counters, ev, evn, fp, ip, max_throws,
):
    """``race_v`` on a generator array: (finish time, RACE_* result, token caught)."""
    nbr2 = np.empty(MAX_TOKENS, dtype=np.int64)
    t, res, caught, st = race_v(
        rng_load(rng), rng, decide, sp, view, legal, px, py, nbr, nbr2, n_nbr, target,
        any_kind, seat, t, cursed, tokens, curse_of, skill, curse, phit, best, counters, ev,
        evn, fp, ip, max_throws)
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
