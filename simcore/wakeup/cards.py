"""Wake Up, Cthulhu!: the Ingredient cards (the deck, the hands, the discard pile), paying a
cost card by card (WUC-CJ-1, WUC-ADV-1) and the Objects a player owns and plays (WUC-CJ-3..5).

A hand, a bid and the discard pile are counts by kind; the deck is a row in order in the hidden
state, its top card at ``deck_cards - 1``.
"""

from __future__ import annotations

from numba import njit

from simcore.engine import ask, frame_pop
from simcore.wakeup import base as B
from simcore.wakeup import state as S


# ---- Ingredients: the deck, hands, the discard pile -----------------------------------------
@njit(cache=True, _nrt=False)
def reshuffle_ingredients(ip, s, h, rng, ev, evn):
    """The deck is empty: its discard pile, shuffled, becomes the deck (assumed: the text
    gives this only for the solitaire Grimoire, WUC-SO-8)."""
    n = 0
    for k in range(S.N_ING):
        for _ in range(s[S.S_IDISCARD + k]):
            h[S.H_DECK + n] = k
            n += 1
        s[S.S_IDISCARD + k] = 0
    B.shuffle_at(rng, h, S.H_DECK, n)
    s[S.S_DECK_N] = n
    if n > 0:
        s[S.S_I_SHUFFLES] += 1
        B.log(ev, evn, S.EV_I_SHUFFLE, n, 0, 0, 0, 0, 0, 0)


@njit(cache=True, _nrt=False)
def draw_card(ip, s, h, rng, ev, evn):
    """The top card of the Ingredients deck (its kind), -1 when deck and discard are empty."""
    if s[S.S_DECK_N] == 0:
        reshuffle_ingredients(ip, s, h, rng, ev, evn)
        if s[S.S_DECK_N] == 0:
            return -1
    n = s[S.S_DECK_N] - 1
    s[S.S_DECK_N] = n
    return h[S.H_DECK + n]


@njit(cache=True, _nrt=False, forceinline=True)
def give(s, h, p, k):
    h[S.H_HAND + p * S.N_ING + k] += 1
    s[S.S_HAND_N + p] += 1


@njit(cache=True, _nrt=False, forceinline=True)
def take(s, h, p, k):
    h[S.H_HAND + p * S.N_ING + k] -= 1
    s[S.S_HAND_N + p] -= 1


@njit(cache=True, _nrt=False)
def draw_to(ip, s, h, rng, p, count, why, ev, evn):
    """Seat ``p`` draws ``count`` Ingredients (fewer if none are left anywhere)."""
    for _ in range(count):
        k = draw_card(ip, s, h, rng, ev, evn)
        if k < 0:
            return
        give(s, h, p, k)
        B.log(ev, evn, S.EV_DRAW, p, k, why, 0, 0, 0, 0)


@njit(cache=True, _nrt=False)
def deck_kinds(s, h):
    """Bits: the Ingredient kinds in the deck."""
    m = 0
    for i in range(s[S.S_DECK_N]):
        m |= 1 << h[S.H_DECK + i]
    return m


@njit(cache=True, _nrt=False)
def replenish_hand(ip, s, h, rng, p, ev, evn):
    """WUC-T-1: draw up to the hand size (Objects do not count, WUC-CJ-4); WUC-CU-7: one more
    card for each Stellaris Seminum held (or, by the switch, a limit that much higher)."""
    extra = s[S.S_STELLARIS + p] * ip[S.I_STELLARIS_CARDS]
    if ip[S.I_STELLARIS_LIMIT] == 1:
        want = max(ip[S.I_HAND] + extra - s[S.S_HAND_N + p], 0)
    else:
        want = max(ip[S.I_HAND] - s[S.S_HAND_N + p], 0) + extra
    draw_to(ip, s, h, rng, p, want, 0, ev, evn)


# ---- paying a cost -----------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def feasible(h0, h1, h2, h3, hw, n0, n1, n2, n3, x, xk, a):
    """Can a hand (four kinds and wilds) pay n_k of each kind, ``x`` of one same kind (``xk``
    when already chosen, -1 not yet) and ``a`` of any kinds?  Named kinds first (a wild only
    for what the hand lacks), then the X set from the kind held most, then any cards: greedy
    is exact, since the "any" part only needs a number of cards."""
    r0 = h0 - n0
    r1 = h1 - n1
    r2 = h2 - n2
    r3 = h3 - n3
    w = hw
    if r0 < 0:
        w += r0
        r0 = 0
    if r1 < 0:
        w += r1
        r1 = 0
    if r2 < 0:
        w += r2
        r2 = 0
    if r3 < 0:
        w += r3
        r3 = 0
    if w < 0:
        return False
    if x > 0:
        if xk == 0:
            best = r0
        elif xk == 1:
            best = r1
        elif xk == 2:
            best = r2
        elif xk == 3:
            best = r3
        else:
            best = max(max(r0, r1), max(r2, r3))
        if best + w < x:
            return False
    return r0 + r1 + r2 + r3 + w - x >= a


@njit(cache=True, _nrt=False)
def affordable(ip, h, p, spec, x, a):
    """Can seat ``p`` pay the cost at ``ip[spec:spec + 4]`` (named kinds), ``x`` (X) and ``a``?"""
    o = S.H_HAND + p * S.N_ING
    return feasible(h[o], h[o + 1], h[o + 2], h[o + 3], h[o + 4], ip[spec], ip[spec + 1],
                    ip[spec + 2], ip[spec + 3], x, -1, a)


@njit(cache=True, _nrt=False)
def set_cost(s, n0, n1, n2, n3, x, a):
    s[S.S_PAY_NEED] = n0
    s[S.S_PAY_NEED + 1] = n1
    s[S.S_PAY_NEED + 2] = n2
    s[S.S_PAY_NEED + 3] = n3
    s[S.S_PAY_X] = x
    s[S.S_PAY_XK] = -1
    s[S.S_PAY_ANY] = a


@njit(cache=True, _nrt=False)
def pay_options(ip, s, h):
    """WUC-CJ-1, WUC-ADV-1: the kinds (bits 0 .. WILD) the active player may pay the next
    unit of the cost with, keeping the rest of it payable."""
    p = s[S.S_ACTIVE]
    o = S.H_HAND + p * S.N_ING
    hk0, hk1, hk2, hk3, hw = h[o], h[o + 1], h[o + 2], h[o + 3], h[o + 4]
    n0 = s[S.S_PAY_NEED]
    n1 = s[S.S_PAY_NEED + 1]
    n2 = s[S.S_PAY_NEED + 2]
    n3 = s[S.S_PAY_NEED + 3]
    x = s[S.S_PAY_X]
    xk = s[S.S_PAY_XK]
    a = s[S.S_PAY_ANY]
    unit = -1  # a named kind 0..3, 4: the X set, 5: any
    if n0 > 0:
        unit = 0
    elif n1 > 0:
        unit = 1
    elif n2 > 0:
        unit = 2
    elif n3 > 0:
        unit = 3
    elif x > 0:
        unit = 4
    elif a > 0:
        unit = 5
    out = 0
    for j in range(S.N_ING):
        if h[o + j] == 0:
            continue
        ok = False
        if unit == 5:
            ok = True
        elif unit == 4:
            if xk < 0 or j == xk or j == S.WILD:
                nxk = xk if j == S.WILD else j
                ok = feasible(hk0 - (j == 0), hk1 - (j == 1), hk2 - (j == 2), hk3 - (j == 3),
                              hw - (j == S.WILD), 0, 0, 0, 0, x - 1, nxk, a)
        elif unit >= 0:
            if j == unit or j == S.WILD:
                ok = feasible(hk0 - (j == 0), hk1 - (j == 1), hk2 - (j == 2), hk3 - (j == 3),
                              hw - (j == S.WILD), n0 - (unit == 0), n1 - (unit == 1),
                              n2 - (unit == 2), n3 - (unit == 3), x, xk, a)
        if ok:
            out |= 1 << j
    return out


@njit(cache=True, _nrt=False)
def pay_unit(ip, s, h, j, ev, evn):
    """Pay the next unit of the cost with an Ingredient of kind ``j`` (to the discard pile)."""
    p = s[S.S_ACTIVE]
    take(s, h, p, j)
    s[S.S_IDISCARD + j] += 1
    B.log(ev, evn, S.EV_PAY, p, j, 0, 0, 0, 0, 0)
    for k in range(S.N_NATURAL):
        if s[S.S_PAY_NEED + k] > 0:
            s[S.S_PAY_NEED + k] -= 1
            return
    if s[S.S_PAY_X] > 0:
        s[S.S_PAY_X] -= 1
        if j != S.WILD:
            s[S.S_PAY_XK] = j
        return
    s[S.S_PAY_ANY] -= 1


@njit(cache=True, _nrt=False)
def cost_left(s):
    n = s[S.S_PAY_X] + s[S.S_PAY_ANY]
    for k in range(S.N_NATURAL):
        n += s[S.S_PAY_NEED + k]
    return n


# ---- Objects ------------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def can_use(ip, s, p, o):
    """WUC-CJ-3..5: seat ``p`` owns a copy of Object ``o`` bought before this turn, and no copy
    of it has been played this turn (at the table, or by ``p`` with the per-player switch)."""
    k = S.S_OBJ + p * S.N_OBJECTS + o
    if s[k] - s[S.S_FRESH + p * S.N_OBJECTS + o] <= 0:
        return False
    b = 1 << o
    if ip[S.I_OBJ_PER_PLAYER] == 1:
        return (s[S.S_USED + p] & b) == 0
    return (s[S.S_USED_TABLE] & b) == 0


@njit(cache=True, _nrt=False)
def use_object(ip, s, p, o, how, ev, evn):
    """Seat ``p`` plays Object ``o``: it goes to the Grimoire discard pile (WUC-CJ-3)."""
    s[S.S_OBJ + p * S.N_OBJECTS + o] -= 1
    s[S.S_GDISCARD + S.OBJ0 + o] += 1
    b = 1 << o
    s[S.S_USED + p] |= b
    s[S.S_USED_TABLE] |= b
    s[S.S_PLAYED + o] += 1
    B.log(ev, evn, S.EV_OBJECT, p, S.OBJ0 + o, 0, how, 0, 0, 0)


@njit(cache=True, _nrt=False)
def run_pay(ip, s, h, ev, evn):
    """Pay unit by unit; a unit with one way to pay it is paid without asking."""
    while cost_left(s) > 0:
        opts = pay_options(ip, s, h)
        if opts == 0:  # cannot happen: an action is offered only when it can be paid
            break
        if B.bits(opts) == 1:
            pay_unit(ip, s, h, B.lowest(opts), ev, evn)
            continue
        ask(s, s[S.S_ACTIVE], S.D_PAY)
        return True
    frame_pop(s)
    return False


@njit(cache=True, _nrt=False)
def search_take(ip, s, h, rng, p, k, ev, evn):
    """WUC-SP-1: take a card of kind ``k`` from the deck, then shuffle it."""
    n = s[S.S_DECK_N]
    for i in range(n):
        if h[S.H_DECK + i] == k:
            h[S.H_DECK + i] = h[S.H_DECK + n - 1]
            s[S.S_DECK_N] = n - 1
            give(s, h, p, k)
            B.log(ev, evn, S.EV_SEARCH, p, k, 0, 0, 0, 0, 0)
            break
    B.shuffle_at(rng, h, S.H_DECK, s[S.S_DECK_N])
