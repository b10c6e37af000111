"""Wake Up, Cthulhu!: the rules, on the step contract (simcore/engine.py).

``init``, ``legal``, ``step``, ``observe``, ``determinize``, ``returns``, ``evaluate``, ``record``
and ``check`` are the engine's functions.  Clause IDs (WUC-*) are those of
``tests/clauses/wakeup.md``; readings of unclear text are in NOTES.md.

Every procedure that asks more than one question keeps its place in a frame (``PR_*`` of
state.py): a turn (replenish, actions, replenish the Grimoire), an action (pay, then resolve),
a payment (one question per card paid where there is a choice), a Spell's effect, the swaps,
the Grimoire's reveals (a Curse found there pushes a Curse frame), an auction (every bid, round
after round, and the R'lyeh windows), C'thonian (the R'lyeh shield window), the Ran-Tegoth
window (the other players, clockwise from the active one), and in solitaire Cthulhu's turn and
the Curse duel.  ``run`` carries the game on through every forced or chance step to the next
question; ``step`` applies an answer to the question on top and calls ``run``.

The Summoning Circle is one 64-bit word per seat (a bit per square); a hand, a bid, the discard
piles and Cthulhu's A positions are counts by kind; the Ingredients deck and the face-down
Grimoire piles are arrays in order (the hidden state).  Nothing is allocated per step.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

from simcore.engine import (
    CHECK_SIG,
    DECISION,
    DEPTH,
    DETERMINIZE_SIG,
    EVALUATE_SIG,
    FRAME_WIDTH,
    FRAMES,
    INIT_SIG,
    LEGAL_SIG,
    MAX_FRAMES,
    OBSERVE_SIG,
    OUTCOME,
    P_SEATS,
    PLAY_SIG,
    PLAYING,
    RECORD_SIG,
    RETURNS_SIG,
    SEAT,
    STEP_SIG,
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
)
from simcore.kernels import log_event, popcount, rng_int
from simcore.wakeup.state import (
    A_ADVANCE,
    A_CLEAR,
    A_CONJURE,
    A_FOLD,
    A_NO,
    A_POSITIONS,
    A_RLYEH,
    A_STAKE_DONE,
    A_STOP,
    A_SWAP_STOP,
    A_YES,
    C_CTHONIAN,
    C_STELLARIS,
    C_YUGGOTH,
    CURSE0,
    D_ACTION,
    D_BID,
    D_DISCARD,
    D_OUT_SWAP,
    D_PAY,
    D_RAN_TEGOTH,
    D_RLYEH_LAST,
    D_RLYEH_OPEN,
    D_SEARCH,
    D_SHIELD,
    D_STAKE,
    D_SWAP_OTHER,
    D_SWAP_OWN,
    EF_DRAW,
    EF_SEARCH,
    EF_SWAP,
    EV_ADVANCE,
    EV_AUCTION,
    EV_BID,
    EV_BOARD,
    EV_CAP,
    EV_CLEAR,
    EV_CONJURE,
    EV_CTHULHU,
    EV_CURSE,
    EV_DISCARD,
    EV_DRAW,
    EV_DUEL,
    EV_END,
    EV_FOLD,
    EV_G_SHUFFLE,
    EV_HAND,
    EV_I_SHUFFLE,
    EV_NO_ROOM,
    EV_OBJECT,
    EV_OBJECTS,
    EV_PASS,
    EV_PAY,
    EV_PLACE,
    EV_RAN_TEGOTH,
    EV_REFRESH,
    EV_RETURN,
    EV_REVEAL,
    EV_REVEAL_BIDS,
    EV_RLYEH,
    EV_SEARCH,
    EV_SOLO_A,
    EV_SOLO_MOVE,
    EV_STELLARIS,
    EV_SWAP,
    EV_TIE_DRAW,
    EV_TOPS,
    EV_TURN,
    H_BID,
    H_DECK,
    H_HAND,
    H_STACK,
    I_ADV_ANY,
    I_ADV_SPEC,
    I_ADV_X,
    I_ADVANCE_EXTRA,
    I_AMOUNT,
    I_CANDLES,
    I_COPIES,
    I_COST_ANY,
    I_COST_SPEC,
    I_COST_X,
    I_CTH_RETURN,
    I_CURSE_MOVES,
    I_DAEMONUM_COST,
    I_DEADLOCK_REFRESH,
    I_EFFECT,
    I_END_AT_END,
    I_EXTRA,
    I_FIRST,
    I_GAPS_TO_START,
    I_HAND,
    I_ING_COUNT,
    I_ING_VALUE,
    I_LINE_END_START,
    I_MAX_TURNS,
    I_OBJ_PER_PLAYER,
    I_PASS_FIRST,
    I_PILE,
    I_RED,
    I_RLYEH_LAST,
    I_RT_AFTER_ACTION,
    I_SLOTS,
    I_SOLO,
    I_SOLO_BIG,
    I_SOLO_BIG_MOVE,
    I_SOLO_CTH_MOVE,
    I_SOLO_CURSE_MOVE,
    I_SOLO_DRAW,
    I_SOLO_PATH_C,
    I_SOLO_PATH_D,
    I_SOLO_SMALL,
    I_SOLO_SMALL_MOVE,
    I_SOLO_YUG_PLACE,
    I_SOLO_YUG_SWAP,
    I_SQUARES,
    I_START,
    I_STELLARIS_CARDS,
    I_STELLARIS_LIMIT,
    I_TIE_INGREDIENTS,
    I_TOKENS,
    I_ULTHAR_EXTRA,
    I_YUG_PLACE,
    I_YUG_SWAP,
    MAX_SEATS,
    MAX_SLOTS,
    MAX_STACK,
    MODE_DAEMONUM,
    MODE_ULTHAR,
    N_CARDS,
    N_ING,
    N_NATURAL,
    N_OBJECTS,
    O_ADJACENT,
    O_CAP,
    O_DAEMONUM,
    O_PORTAL_CTHULHU,
    O_PORTAL_PLAYER,
    O_RAN_TEGOTH,
    O_RED,
    O_RLYEH,
    O_ULTHAR,
    OBJ0,
    PR_ACTION,
    PR_ADVANCE,
    PR_AUCTION,
    PR_CTHONIAN,
    PR_CURSE,
    PR_DUEL,
    PR_EFFECT,
    PR_GAME,
    PR_PAY,
    PR_RAN_TEGOTH,
    PR_REVEAL,
    PR_SOLO_CTHULHU,
    PR_SWAP,
    PR_TURN,
    R_ADVANCED,
    R_AUCT_WON,
    R_AUCTIONS,
    R_CARDS_BID,
    R_CONJURED,
    R_CTHULHU_MOVES,
    R_CTHULHU_POS,
    R_CURSES,
    R_END_ADJ,
    R_END_RED,
    R_G_SHUFFLES,
    R_I_SHUFFLES,
    R_OUT_SWAPS,
    R_OUTCOME,
    R_PLAYED,
    R_REFRESHES,
    R_RETURNED,
    R_RLYEH_AUCT,
    R_ROUNDS,
    R_RT_TOKENS,
    R_SOLO_DUELS,
    R_SOLO_POS,
    R_SWAPS,
    R_TIE,
    R_TOKENS,
    R_TURNS,
    R_WINNER,
    S_A_KIND,
    S_A_NAT,
    S_A_WILD,
    S_ACTIVE,
    S_ADJ_FLAG,
    S_ADVANCED,
    S_AUC_CURSE,
    S_AUC_FOLDED,
    S_AUC_ROUND,
    S_AUC_WINNER,
    S_AUCT_WON,
    S_AUCTIONS,
    S_BID_N,
    S_CARDS_BID,
    S_CONJURED,
    S_CTHULHU,
    S_CTHULHU_MOVES,
    S_CURSE_SEEN,
    S_CURSES,
    S_DECK_N,
    S_DUEL_CARD,
    S_DUELS_WON,
    S_EXTRA,
    S_FORCED,
    S_FRESH,
    S_G_SHUFFLES,
    S_GDISCARD,
    S_HAND_N,
    S_I_SHUFFLES,
    S_IDISCARD,
    S_IN_PLAY,
    S_OBJ,
    S_OCC,
    S_OUT_SWAPS,
    S_PAY_ANY,
    S_PAY_NEED,
    S_PAY_X,
    S_PAY_XK,
    S_PENDING,
    S_PLAYED,
    S_RED_FLAG,
    S_REFRESHES,
    S_RESERVE,
    S_RETURNED,
    S_RLYEH_AUCT,
    S_ROUND,
    S_RT_TOKENS,
    S_SOLO_POS,
    S_STACK_N,
    S_STELLARIS,
    S_SWAPS,
    S_TIE,
    S_TOP,
    S_USED,
    S_USED_TABLE,
    V_BID,
    V_DECK,
    V_DECK_SEEN,
    V_HAND,
    V_SEAT,
    WILD,
)


@njit(cache=True, _nrt=False, inline="always")
def log(ev, evn, code, a, b, c, d, e, f, g):
    """``kernels.log_event``, skipped at once (inline) in batch runs, whose event buffer has no
    rows: the rules log at almost every step."""
    if ev.shape[0] > 0:
        log_event(ev, evn, code, a, b, c, d, e, f, g)

# stages of the procedures (frame local 0 unless said otherwise)
G_SETUP, G_TURNS, G_PLAYER = 0, 1, 2
T_BEGIN, T_ACTION, T_REPLENISH, T_AFTER, T_END, T_CLEARED = 0, 1, 2, 3, 4, 5
AC_PAY, AC_RESOLVE, AC_ADVANCED, AC_SPELL_DONE = 0, 1, 2, 3
AD_PLACE, AD_WINDOW1, AD_SHORT, AD_WINDOW2, AD_DONE = 0, 1, 2, 3, 4
AU_OPEN, AU_BID, AU_LAST, AU_RESOLVE = 0, 1, 2, 3
CU_START, CU_STELLARIS, CU_DISCARD, CU_YUGGOTH, CU_YUG_SWAP, CU_YUG_WINDOW, CU_SOLO = range(7)
NO_CARD = -1


# ---- small helpers ----------------------------------------------------------------------------
@njit(cache=True, _nrt=False, inline="always")
def lowest(x):
    """Index of the lowest set bit of a positive int64."""
    return np.int64(trailing_zeros(x))


@njit(cache=True, _nrt=False, inline="always")
def highest(x):
    """Index of the highest set bit of a positive int64."""
    return np.int64(63 - leading_zeros(x))


@njit(cache=True, _nrt=False, inline="always")
def bits(x):
    return np.int64(popcount(x))


@njit(cache=True, _nrt=False, inline="always")
def seats_of(ip):
    return ip[P_SEATS]


@njit(cache=True, _nrt=False, inline="always")
def is_solo(ip):
    return ip[I_SOLO] == 1


@njit(cache=True, _nrt=False, inline="always")
def parent_local(s, k):
    """Local ``k`` of the frame below the top one."""
    return s[FRAMES + (s[DEPTH] - 2) * FRAME_WIDTH + 1 + k]


@njit(cache=True, _nrt=False)
def shuffle_at(rng, a, off, n):
    """Fisher-Yates shuffle of ``a[off:off + n]`` in place."""
    for i in range(n - 1, 0, -1):
        j = rng_int(rng, i + 1)
        t = a[off + i]
        a[off + i] = a[off + j]
        a[off + j] = t


# ---- Ingredients: the deck, hands, the discard pile -----------------------------------------
@njit(cache=True, _nrt=False)
def reshuffle_ingredients(ip, s, h, rng, ev, evn):
    """The deck is empty: its discard pile, shuffled, becomes the deck (assumed: the text
    gives this only for the solitaire Grimoire, WUC-SO-8)."""
    n = 0
    for k in range(N_ING):
        for _ in range(s[S_IDISCARD + k]):
            h[H_DECK + n] = k
            n += 1
        s[S_IDISCARD + k] = 0
    shuffle_at(rng, h, H_DECK, n)
    s[S_DECK_N] = n
    if n > 0:
        s[S_I_SHUFFLES] += 1
        log(ev, evn, EV_I_SHUFFLE, n, 0, 0, 0, 0, 0, 0)


@njit(cache=True, _nrt=False)
def draw_card(ip, s, h, rng, ev, evn):
    """The top card of the Ingredients deck (its kind), -1 when deck and discard are empty."""
    if s[S_DECK_N] == 0:
        reshuffle_ingredients(ip, s, h, rng, ev, evn)
        if s[S_DECK_N] == 0:
            return -1
    n = s[S_DECK_N] - 1
    s[S_DECK_N] = n
    return h[H_DECK + n]


@njit(cache=True, _nrt=False, inline="always")
def give(s, h, p, k):
    h[H_HAND + p * N_ING + k] += 1
    s[S_HAND_N + p] += 1


@njit(cache=True, _nrt=False, inline="always")
def take(s, h, p, k):
    h[H_HAND + p * N_ING + k] -= 1
    s[S_HAND_N + p] -= 1


@njit(cache=True, _nrt=False)
def draw_to(ip, s, h, rng, p, count, why, ev, evn):
    """Seat ``p`` draws ``count`` Ingredients (fewer if none are left anywhere)."""
    for _ in range(count):
        k = draw_card(ip, s, h, rng, ev, evn)
        if k < 0:
            return
        give(s, h, p, k)
        log(ev, evn, EV_DRAW, p, k, why, 0, 0, 0, 0)


@njit(cache=True, _nrt=False)
def deck_kinds(s, h):
    """Bits: the Ingredient kinds in the deck."""
    m = 0
    for i in range(s[S_DECK_N]):
        m |= 1 << h[H_DECK + i]
    return m


@njit(cache=True, _nrt=False)
def replenish_hand(ip, s, h, rng, p, ev, evn):
    """WUC-T-1: draw up to the hand size (Objects do not count, WUC-CJ-4); WUC-CU-7: one more
    card for each Stellaris Seminum held (or, by the switch, a limit that much higher)."""
    extra = s[S_STELLARIS + p] * ip[I_STELLARIS_CARDS]
    if ip[I_STELLARIS_LIMIT] == 1:
        want = max(ip[I_HAND] + extra - s[S_HAND_N + p], 0)
    else:
        want = max(ip[I_HAND] - s[S_HAND_N + p], 0) + extra
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
    o = H_HAND + p * N_ING
    return feasible(h[o], h[o + 1], h[o + 2], h[o + 3], h[o + 4], ip[spec], ip[spec + 1],
                    ip[spec + 2], ip[spec + 3], x, -1, a)


@njit(cache=True, _nrt=False)
def set_cost(s, n0, n1, n2, n3, x, a):
    s[S_PAY_NEED] = n0
    s[S_PAY_NEED + 1] = n1
    s[S_PAY_NEED + 2] = n2
    s[S_PAY_NEED + 3] = n3
    s[S_PAY_X] = x
    s[S_PAY_XK] = -1
    s[S_PAY_ANY] = a


@njit(cache=True, _nrt=False)
def pay_options(ip, s, h):
    """WUC-CJ-1, WUC-ADV-1: the kinds (bits 0 .. WILD) the active player may pay the next
    unit of the cost with, keeping the rest of it payable."""
    p = s[S_ACTIVE]
    o = H_HAND + p * N_ING
    hk0, hk1, hk2, hk3, hw = h[o], h[o + 1], h[o + 2], h[o + 3], h[o + 4]
    n0 = s[S_PAY_NEED]
    n1 = s[S_PAY_NEED + 1]
    n2 = s[S_PAY_NEED + 2]
    n3 = s[S_PAY_NEED + 3]
    x = s[S_PAY_X]
    xk = s[S_PAY_XK]
    a = s[S_PAY_ANY]
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
    for j in range(N_ING):
        if h[o + j] == 0:
            continue
        ok = False
        if unit == 5:
            ok = True
        elif unit == 4:
            if xk < 0 or j == xk or j == WILD:
                nxk = xk if j == WILD else j
                ok = feasible(hk0 - (j == 0), hk1 - (j == 1), hk2 - (j == 2), hk3 - (j == 3),
                              hw - (j == WILD), 0, 0, 0, 0, x - 1, nxk, a)
        elif unit >= 0:
            if j == unit or j == WILD:
                ok = feasible(hk0 - (j == 0), hk1 - (j == 1), hk2 - (j == 2), hk3 - (j == 3),
                              hw - (j == WILD), n0 - (unit == 0), n1 - (unit == 1),
                              n2 - (unit == 2), n3 - (unit == 3), x, xk, a)
        if ok:
            out |= 1 << j
    return out


@njit(cache=True, _nrt=False)
def pay_unit(ip, s, h, j, ev, evn):
    """Pay the next unit of the cost with an Ingredient of kind ``j`` (to the discard pile)."""
    p = s[S_ACTIVE]
    take(s, h, p, j)
    s[S_IDISCARD + j] += 1
    log(ev, evn, EV_PAY, p, j, 0, 0, 0, 0, 0)
    for k in range(N_NATURAL):
        if s[S_PAY_NEED + k] > 0:
            s[S_PAY_NEED + k] -= 1
            return
    if s[S_PAY_X] > 0:
        s[S_PAY_X] -= 1
        if j != WILD:
            s[S_PAY_XK] = j
        return
    s[S_PAY_ANY] -= 1


@njit(cache=True, _nrt=False)
def cost_left(s):
    n = s[S_PAY_X] + s[S_PAY_ANY]
    for k in range(N_NATURAL):
        n += s[S_PAY_NEED + k]
    return n


# ---- Objects ------------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def can_use(ip, s, p, o):
    """WUC-CJ-3..5: seat ``p`` owns a copy of Object ``o`` bought before this turn, and no copy
    of it has been played this turn (at the table, or by ``p`` with the per-player switch)."""
    k = S_OBJ + p * N_OBJECTS + o
    if s[k] - s[S_FRESH + p * N_OBJECTS + o] <= 0:
        return False
    b = 1 << o
    if ip[I_OBJ_PER_PLAYER] == 1:
        return (s[S_USED + p] & b) == 0
    return (s[S_USED_TABLE] & b) == 0


@njit(cache=True, _nrt=False)
def use_object(ip, s, p, o, how, ev, evn):
    """Seat ``p`` plays Object ``o``: it goes to the Grimoire discard pile (WUC-CJ-3)."""
    s[S_OBJ + p * N_OBJECTS + o] -= 1
    s[S_GDISCARD + OBJ0 + o] += 1
    b = 1 << o
    s[S_USED + p] |= b
    s[S_USED_TABLE] |= b
    s[S_PLAYED + o] += 1
    log(ev, evn, EV_OBJECT, p, OBJ0 + o, 0, how, 0, 0, 0)


# ---- the Summoning Circle --------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def all_tokens(ip, s):
    x = 0
    for p in range(seats_of(ip)):
        x |= s[S_OCC + p]
    return x


@njit(cache=True, _nrt=False)
def owner(ip, s, q):
    """The seat whose token is on square ``q``, -1 for none."""
    for p in range(seats_of(ip)):
        if (s[S_OCC + p] >> q) & 1:
            return p
    return -1


@njit(cache=True, _nrt=False, inline="always")
def span(lo, hi):
    """Bits lo .. hi - 1 (0 <= lo <= hi <= 62)."""
    if hi <= lo:
        return 0
    return ((1 << hi) - 1) ^ ((1 << lo) - 1)


@njit(cache=True, _nrt=False)
def update_flags(ip, s):
    """WUC-E-1: note whether Cthulhu stands next to a token or on the Red Candle."""
    c = s[S_CTHULHU]
    if c > 0 and (all_tokens(ip, s) >> (c - 1)) & 1:
        s[S_ADJ_FLAG] = 1
    if c <= ip[I_RED]:
        s[S_RED_FLAG] = 1


@njit(cache=True, _nrt=False)
def adjacent_now(ip, s):
    c = s[S_CTHULHU]
    return c > 0 and (all_tokens(ip, s) >> (c - 1)) & 1 == 1


@njit(cache=True, _nrt=False)
def close_gaps(ip, s):
    """WUC-ADV-5: an empty square between two tokens is closed up, the tokens keeping their
    order: those behind it move forward (toward Cthulhu), or by the switch those beyond it move
    back toward the Starting square."""
    x = all_tokens(ip, s)
    if x == 0:
        return
    lo = lowest(x)
    y = x >> lo
    if (y & (y + 1)) == 0:
        return  # one unbroken line
    n = bits(x)
    hi = highest(x)
    base = lo if ip[I_GAPS_TO_START] == 1 else hi - n + 1
    new0 = 0
    new1 = 0
    new2 = 0
    new3 = 0
    k = 0
    for q in range(lo, hi + 1):
        if (x >> q) & 1:
            p = owner(ip, s, q)
            b = 1 << (base + k)
            if p == 0:
                new0 |= b
            elif p == 1:
                new1 |= b
            elif p == 2:
                new2 |= b
            else:
                new3 |= b
            k += 1
    s[S_OCC] = new0
    if seats_of(ip) > 1:
        s[S_OCC + 1] = new1
    if seats_of(ip) > 2:
        s[S_OCC + 2] = new2
    if seats_of(ip) > 3:
        s[S_OCC + 3] = new3


@njit(cache=True, _nrt=False)
def place_token(ip, s, p, why, ev, evn):
    """WUC-ADV-2: one token from ``p``'s reserve onto the first empty square from the Starting
    square, short of Cthulhu; returns its square, -1 when no square before Cthulhu is empty."""
    x = all_tokens(ip, s)
    free = span(ip[I_START], s[S_CTHULHU]) & ~x
    if free == 0:
        log(ev, evn, EV_NO_ROOM, p, 0, 0, 0, 0, 0, 0)
        return -1
    q = lowest(free)
    s[S_OCC + p] |= 1 << q
    s[S_RESERVE + p] -= 1
    close_gaps(ip, s)
    if not (s[S_OCC + p] >> q) & 1:  # it moved up to the line
        q = lowest(all_tokens(ip, s))
    log(ev, evn, EV_PLACE, p, q, why, 0, 0, 0, 0)
    update_flags(ip, s)
    return q


@njit(cache=True, _nrt=False)
def place_tokens(ip, s, p, n, why, ev, evn):
    """Up to ``n`` tokens from ``p``'s reserve (as many as it holds and there is room for);
    returns how many were placed."""
    placed = 0
    for _ in range(n):
        if s[S_RESERVE + p] <= 0:
            break
        if place_token(ip, s, p, why, ev, evn) < 0:
            break
        placed += 1
    return placed


@njit(cache=True, _nrt=False)
def swap_tokens(ip, s, q, r, why, ev, evn):
    """The tokens on squares ``q`` and ``r`` (of two seats) change places."""
    a = owner(ip, s, q)
    b = owner(ip, s, r)
    m = (1 << q) | (1 << r)
    s[S_OCC + a] ^= m
    s[S_OCC + b] ^= m
    s[S_SWAPS] += 1
    log(ev, evn, EV_SWAP, a, q, b, r, why, 0, 0)


@njit(cache=True, _nrt=False)
def move_cthulhu(ip, s, steps, ev, evn):
    """WUC-CU-1: Cthulhu moves outward toward the Starting square, one square a step; he stops
    next to a token (he never enters or passes one) and on the Red Candle (the game ends)."""
    for _ in range(steps):
        c = s[S_CTHULHU]
        if c <= ip[I_RED] or c <= 0:
            break
        if (all_tokens(ip, s) >> (c - 1)) & 1:
            break
        s[S_CTHULHU] = c - 1
        s[S_CTHULHU_MOVES] += 1
        log(ev, evn, EV_CTHULHU, c, c - 1, 0, 0, 0, 0, 0)
    update_flags(ip, s)


@njit(cache=True, _nrt=False)
def swap_target(ip, s, p):
    """WUC-ADV-4: the other players' token nearest the end of the line (Cthulhu's end, or the
    Starting square's by the switch); -1 when no other player has a token down."""
    others = all_tokens(ip, s) & ~s[S_OCC + p]
    if others == 0:
        return -1
    return lowest(others) if ip[I_LINE_END_START] == 1 else highest(others)


# ---- solitaire figures ---------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def solo_move(ip, s, who, n, why, ev, evn):
    """Move the player's figure (``who`` 0) or Cthulhu's (1) ``n`` squares (back when negative,
    never before the first square); WUC-SO-12: reaching the Portal ends the game at once."""
    if s[OUTCOME] != PLAYING:
        return
    k = S_SOLO_POS if who == 0 else S_CTHULHU
    before = s[k]
    s[k] = max(before + n, 0)
    if s[k] != before:
        log(ev, evn, EV_SOLO_MOVE, who, before, s[k], why, 0, 0, 0)
    if who == 0 and s[k] >= ip[I_SOLO_PATH_C] - 1:
        s[k] = ip[I_SOLO_PATH_C] - 1
        finish(s, O_PORTAL_PLAYER, 0)
        log(ev, evn, EV_END, O_PORTAL_PLAYER, 0, 0, 0, 0, 0, 0)
        log_table(ip, s, ev, evn)
    elif who == 1 and s[k] >= ip[I_SOLO_PATH_D] - 1:
        s[k] = ip[I_SOLO_PATH_D] - 1
        finish(s, O_PORTAL_CTHULHU, -1)
        log(ev, evn, EV_END, O_PORTAL_CTHULHU, -1, 0, 0, 0, 0, 0)
        log_table(ip, s, ev, evn)


# ---- the Grimoire ------------------------------------------------------------------------------
@njit(cache=True, _nrt=False, inline="always")
def stack_of(ip, slot):
    """The face-down pile a slot is refilled from: its own (WUC-T-3), or the one deck F in
    solitaire (WUC-SO-6)."""
    return 0 if ip[I_SOLO] == 1 else slot


@njit(cache=True, _nrt=False)
def reshuffle_worth(s):
    """Whether the Grimoire discard pile holds a card other than a Curse."""
    for c in range(CURSE0):
        if s[S_GDISCARD + c] > 0:
            return True
    return False


@njit(cache=True, _nrt=False)
def refill_piles(ip, s, h, rng, ev, evn):
    """WUC-T-5: the Grimoire discard pile is shuffled and every empty slot gets a new pile of
    ``pile_size`` cards (fewer when the discard runs short); the rest stays in the discard pile.
    Returns the slots refilled (bits), whose top cards are then revealed.  A discard pile of
    Curses alone is not reshuffled (NOTES.md, WUC-T-5: its Curses would be turned up again and
    again, each reveal emptying the piles anew)."""
    if not reshuffle_worth(s):
        return 0
    empty = 0
    for i in range(ip[I_SLOTS]):
        if s[S_TOP + i] < 0 and s[S_STACK_N + i] == 0:
            empty |= 1 << i
    if empty == 0:
        return 0
    first = lowest(empty)
    src = H_STACK + first * MAX_STACK  # the first empty slot's pile holds the shuffled cards
    n = 0
    for c in range(N_CARDS):
        for _ in range(s[S_GDISCARD + c]):
            h[src + n] = c
            n += 1
        s[S_GDISCARD + c] = 0
    shuffle_at(rng, h, src, n)
    ps = ip[I_PILE]
    used = min(ps, n)
    s[S_STACK_N + first] = used
    refilled = 1 << first
    rest = empty & ~refilled
    while rest != 0 and used < n:
        e = lowest(rest)
        rest &= rest - 1
        m = min(ps, n - used)
        for j in range(m):
            h[H_STACK + e * MAX_STACK + j] = h[src + used + j]
        s[S_STACK_N + e] = m
        used += m
        refilled |= 1 << e
    for j in range(used, n):  # returned to the discard pile, face up
        s[S_GDISCARD + h[src + j]] += 1
    s[S_G_SHUFFLES] += 1
    log(ev, evn, EV_G_SHUFFLE, n, bits(refilled), 0, 0, 0, 0, 0)
    return refilled


@njit(cache=True, _nrt=False)
def refill_solo_deck(ip, s, h, rng, ev, evn):
    """WUC-SO-8: the empty deck F is rebuilt from the shuffled Grimoire discard pile (not from
    Curses alone, as in the multiplayer game)."""
    if not reshuffle_worth(s):
        return
    n = 0
    for c in range(N_CARDS):
        for _ in range(s[S_GDISCARD + c]):
            h[H_STACK + n] = c
            n += 1
        s[S_GDISCARD + c] = 0
    shuffle_at(rng, h, H_STACK, n)
    s[S_STACK_N] = n
    if n > 0:
        s[S_G_SHUFFLES] += 1
        log(ev, evn, EV_G_SHUFFLE, n, 1, 0, 0, 0, 0, 0)


@njit(cache=True, _nrt=False)
def is_spell(c):
    return 0 <= c < OBJ0


@njit(cache=True, _nrt=False)
def is_object(c):
    return OBJ0 <= c < CURSE0


# ---- the legal actions -------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def action_bits(ip, s, h, first):
    """WUC-T-2 (conjure or advance), WUC-OB-1 (Daemonum Prestigis: any card for one
    Ingredient), WUC-OB-3 (Ulthar before conjuring a Spell), WUC-SO-7 (four Objects: clear
    them), and stopping: the legal action codes, as bits."""
    p = s[S_ACTIVE]
    m = 0
    ulthar = can_use(ip, s, p, O_ULTHAR)
    daemonum = can_use(ip, s, p, O_DAEMONUM) and s[S_HAND_N + p] >= ip[I_DAEMONUM_COST]
    objects = 0
    for slot in range(ip[I_SLOTS]):
        c = s[S_TOP + slot]
        if c < 0:
            continue
        if is_object(c):
            objects += 1
        spell = is_spell(c)
        base = A_CONJURE + 4 * slot
        if affordable(ip, h, p, I_COST_SPEC + c * N_NATURAL, ip[I_COST_X + c],
                      ip[I_COST_ANY + c]):
            m |= 1 << base
            if spell and ulthar:
                m |= 1 << (base + MODE_ULTHAR)
        if daemonum:
            m |= 1 << (base + MODE_DAEMONUM)
            if spell and ulthar:
                m |= 1 << (base + MODE_ULTHAR + MODE_DAEMONUM)
        if ip[I_CANDLES + c] > 0 and affordable(ip, h, p, I_ADV_SPEC + c * N_NATURAL,
                                                ip[I_ADV_X + c], ip[I_ADV_ANY + c]):
            m |= 1 << (A_ADVANCE + slot)
    if is_solo(ip) and objects == ip[I_SLOTS]:
        m |= 1 << A_CLEAR
    if m == 0 or not first or ip[I_PASS_FIRST] == 1:
        m |= 1 << A_STOP
    return m


@njit(cache=True, _nrt=False)
def can_act(ip, s, h):
    """Whether the active player has any action but stopping (``action_bits`` with an early
    way out: the turn asks nothing when stopping is all that is left)."""
    p = s[S_ACTIVE]
    if can_use(ip, s, p, O_DAEMONUM) and s[S_HAND_N + p] >= ip[I_DAEMONUM_COST]:
        for slot in range(ip[I_SLOTS]):
            if s[S_TOP + slot] >= 0:
                return True
    objects = 0
    for slot in range(ip[I_SLOTS]):
        c = s[S_TOP + slot]
        if c < 0:
            continue
        if is_object(c):
            objects += 1
        if affordable(ip, h, p, I_COST_SPEC + c * N_NATURAL, ip[I_COST_X + c],
                      ip[I_COST_ANY + c]):
            return True
        if ip[I_CANDLES + c] > 0 and affordable(ip, h, p, I_ADV_SPEC + c * N_NATURAL,
                                                ip[I_ADV_X + c], ip[I_ADV_ANY + c]):
            return True
    return is_solo(ip) and objects == ip[I_SLOTS]


@njit(cache=True, _nrt=False)
def bits_to_mask(x, mask):
    n = 0
    while x != 0:
        mask[lowest(x)] = 1
        x &= x - 1
        n += 1
    return n


# ---- the run loop: procedures ----------------------------------------------------------------
@njit(cache=True, _nrt=False)
def start_turn(ip, s, h, rng, ev, evn):
    """WUC-T-1 and the turn's bookkeeping."""
    p = s[S_ACTIVE]
    s[TURN] += 1
    if not is_solo(ip) and p == ip[I_FIRST]:
        s[S_ROUND] += 1
    s[S_EXTRA] = 0
    s[S_CURSE_SEEN] = 0
    s[S_PENDING] = 0
    s[S_ADJ_FLAG] = 1 if (not is_solo(ip) and adjacent_now(ip, s)) else 0
    log(ev, evn, EV_TURN, s[TURN], p, s[S_ROUND], 0, 0, 0, 0)
    log_table(ip, s, ev, evn)
    replenish_hand(ip, s, h, rng, p, ev, evn)
    o = H_HAND + p * N_ING
    log(ev, evn, EV_HAND, p, h[o], h[o + 1], h[o + 2], h[o + 3], h[o + 4], 0)
    for q in range(seats_of(ip)):
        b = S_OBJ + q * N_OBJECTS
        log(ev, evn, EV_OBJECTS, q, s[b], s[b + 1], s[b + 2], s[b + 3], s[S_STELLARIS + q], 0)


@njit(cache=True, _nrt=False)
def log_table(ip, s, ev, evn):
    """The board and the face-up Grimoire, for the trace."""
    log(ev, evn, EV_BOARD, s[S_OCC], s[S_OCC + 1], s[S_OCC + 2], s[S_OCC + 3], s[S_CTHULHU],
        s[S_SOLO_POS], s[S_DECK_N])
    log(ev, evn, EV_TOPS, s[S_TOP], s[S_TOP + 1], s[S_TOP + 2], s[S_TOP + 3], s[S_TOP + 4],
        s[S_TOP + 5], 0)


@njit(cache=True, _nrt=False)
def winner_now(ip, s):
    """WUC-E-2, WUC-E-3: the seat with the most tokens on the board; a tie goes to the tied
    seat with the token closest to Cthulhu; -1 when nobody has a token.  Returns (winner,
    decided by the tie-break)."""
    best = 0
    tied = 0
    for p in range(seats_of(ip)):
        n = bits(s[S_OCC + p])
        if n > best:
            best = n
            tied = 1 << p
        elif n == best and n > 0:
            tied |= 1 << p
    if best == 0:
        return -1, 0
    if bits(tied) == 1:
        return lowest(tied), 0
    x = 0
    for p in range(seats_of(ip)):
        if (tied >> p) & 1:
            x |= s[S_OCC + p]
    return owner(ip, s, highest(x)), 1


@njit(cache=True, _nrt=False)
def end_turn(ip, s, ev, evn):
    """WUC-T-6/7, WUC-E-1: the turn is over; the game ends here if Cthulhu stood next to a
    token this turn (or still does, by the switch) or reached the Red Candle."""
    for k in range(MAX_SEATS * N_OBJECTS):  # Objects bought this turn are usable from now on
        s[S_FRESH + k] = 0
    for p in range(MAX_SEATS):
        s[S_USED + p] = 0
    s[S_USED_TABLE] = 0
    if not is_solo(ip):
        adj = adjacent_now(ip, s) if ip[I_END_AT_END] == 1 else s[S_ADJ_FLAG] == 1
        red = s[S_RED_FLAG] == 1
        if adj or red:
            w, tie = winner_now(ip, s)
            s[S_TIE] = tie
            s[S_ADJ_FLAG] = 1 if adj else 0
            outcome = O_ADJACENT if adj else O_RED
            finish(s, outcome, w)
            log(ev, evn, EV_END, outcome, w, tie, 0, 0, 0, 0)
            log_table(ip, s, ev, evn)
            return
        s[S_ACTIVE] = (s[S_ACTIVE] + 1) % seats_of(ip)
    if s[TURN] >= ip[I_MAX_TURNS]:
        finish(s, O_CAP, -1)
        log(ev, evn, EV_CAP, s[TURN], 0, 0, 0, 0, 0, 0)
        log_table(ip, s, ev, evn)


@njit(cache=True, _nrt=False)
def run_game(ip, s, h, rng, ev, evn):
    stage = frame_get(s, 0)
    if stage == G_SETUP:
        frame_set(s, 0, G_TURNS)
        frame_push(s, PR_REVEAL)
        all_slots = (1 << ip[I_SLOTS]) - 1
        frame_set(s, 0, all_slots)
        return False
    if is_solo(ip):
        if stage == G_TURNS:  # WUC-SO-2: Cthulhu plays first, then the turns alternate
            frame_set(s, 0, G_PLAYER)
            frame_push(s, PR_SOLO_CTHULHU)
        else:
            frame_set(s, 0, G_TURNS)
            frame_push(s, PR_TURN)
        return False
    frame_push(s, PR_TURN)
    return False


@njit(cache=True, _nrt=False)
def run_turn(ip, s, h, rng, ev, evn):
    stage = frame_get(s, 0)
    p = s[S_ACTIVE]
    if stage == T_BEGIN:
        if s[S_FORCED] >= seats_of(ip) and ip[I_DEADLOCK_REFRESH] == 1 and not is_solo(ip):
            refresh_grimoire(ip, s, ev, evn)  # then this turn begins (stage T_BEGIN again)
            return False
        start_turn(ip, s, h, rng, ev, evn)
        frame_set(s, 0, T_ACTION)
        frame_set(s, 1, 1)  # the turn's first action
        return False
    if stage == T_ACTION:
        if not can_act(ip, s, h):
            log(ev, evn, EV_PASS, p, 0, 0, 0, 0, 0, 0)
            if frame_get(s, 1) == 1:  # nothing at all this turn
                s[S_FORCED] += 1
            frame_set(s, 0, T_END)
            return False
        ask(s, p, D_ACTION)
        return True
    if stage == T_REPLENISH:  # WUC-T-3
        pending = s[S_PENDING]
        s[S_PENDING] = 0
        frame_set(s, 0, T_AFTER)
        if pending != 0:
            frame_push(s, PR_REVEAL)
            frame_set(s, 0, pending)
        return False
    if stage == T_AFTER:  # WUC-T-6, WUC-T-7
        if s[S_CURSE_SEEN] == 1:
            frame_set(s, 0, T_END)
        elif s[S_EXTRA] > 0:
            s[S_EXTRA] -= 1
            frame_set(s, 0, T_ACTION)
        else:
            frame_set(s, 0, T_END)
        return False
    if stage == T_CLEARED:  # WUC-SO-7: after clearing four Objects the action is still to come
        frame_set(s, 0, T_END if s[S_CURSE_SEEN] == 1 else T_ACTION)
        return False
    frame_pop(s)  # T_END
    end_turn(ip, s, ev, evn)
    return False


@njit(cache=True, _nrt=False)
def refresh_grimoire(ip, s, ev, evn):
    """NOTES.md, WUC-T-2 (switch ``deadlock``): every player in turn could do nothing but
    stop, so the face-up cards are discarded and their piles reveal new ones."""
    s[S_FORCED] = 0
    s[S_REFRESHES] += 1
    n = 0
    for i in range(ip[I_SLOTS]):
        c = s[S_TOP + i]
        if c >= 0:
            s[S_GDISCARD + c] += 1
            s[S_TOP + i] = NO_CARD
            n += 1
    log(ev, evn, EV_REFRESH, n, 0, 0, 0, 0, 0, 0)
    frame_push(s, PR_REVEAL)
    frame_set(s, 0, (1 << ip[I_SLOTS]) - 1)


@njit(cache=True, _nrt=False)
def run_action(ip, s, h, rng, ev, evn):
    stage = frame_get(s, 0)
    slot = frame_get(s, 1)
    mode = frame_get(s, 2)
    c = frame_get(s, 3)
    p = s[S_ACTIVE]
    if stage == AC_PAY:  # WUC-CJ-1, WUC-ADV-1: the cost first
        frame_set(s, 0, AC_RESOLVE)
        if mode < 0:
            o = I_ADV_SPEC + c * N_NATURAL
            set_cost(s, ip[o], ip[o + 1], ip[o + 2], ip[o + 3], ip[I_ADV_X + c],
                     ip[I_ADV_ANY + c])
        elif mode & MODE_DAEMONUM:
            set_cost(s, 0, 0, 0, 0, 0, ip[I_DAEMONUM_COST])
        else:
            o = I_COST_SPEC + c * N_NATURAL
            set_cost(s, ip[o], ip[o + 1], ip[o + 2], ip[o + 3], ip[I_COST_X + c],
                     ip[I_COST_ANY + c])
        frame_push(s, PR_PAY)
        return False
    if stage == AC_RESOLVE:
        s[S_TOP + slot] = NO_CARD
        s[S_IN_PLAY] = c
        s[S_PENDING] |= 1 << slot
        if mode < 0:  # WUC-ADV-1: advance
            s[S_ADVANCED + c] += 1
            log(ev, evn, EV_ADVANCE, p, c, slot, ip[I_CANDLES + c], 0, 0, 0)
            frame_set(s, 0, AC_ADVANCED)
            frame_push(s, PR_ADVANCE)
            frame_set(s, 1, ip[I_CANDLES + c])
            return False
        s[S_CONJURED + c] += 1
        log(ev, evn, EV_CONJURE, p, c, slot, mode, 0, 0, 0)
        if mode & MODE_ULTHAR:
            use_object(ip, s, p, O_ULTHAR, 0, ev, evn)
        if mode & MODE_DAEMONUM:
            use_object(ip, s, p, O_DAEMONUM, 0, ev, evn)
        if is_object(c):  # WUC-CJ-3: into the hand, usable from the next turn
            o = c - OBJ0
            s[S_OBJ + p * N_OBJECTS + o] += 1
            s[S_FRESH + p * N_OBJECTS + o] += 1
            s[S_IN_PLAY] = NO_CARD
            log(ev, evn, EV_OBJECT, p, c, 1, 0, 0, 0, 0)
            frame_pop(s)
            return False
        frame_set(s, 0, AC_SPELL_DONE)  # WUC-CJ-2: a Spell resolves at once
        times = 2 if mode & MODE_ULTHAR else 1
        frame_push(s, PR_EFFECT)
        frame_set(s, 0, ip[I_EFFECT + c])
        frame_set(s, 1, ip[I_AMOUNT + c] * times)
        return False
    # the card is done: to the Grimoire discard pile, and any further action it grants
    s[S_GDISCARD + c] += 1
    s[S_IN_PLAY] = NO_CARD
    if stage == AC_ADVANCED:
        s[S_EXTRA] += ip[I_ADVANCE_EXTRA]  # WUC-ADV-3
    else:
        times = 2 if (mode & MODE_ULTHAR and ip[I_ULTHAR_EXTRA] == 1) else 1
        s[S_EXTRA] += ip[I_EXTRA + c] * times
    frame_pop(s)
    return False


@njit(cache=True, _nrt=False)
def run_pay(ip, s, h, ev, evn):
    """Pay unit by unit; a unit with one way to pay it is paid without asking."""
    while cost_left(s) > 0:
        opts = pay_options(ip, s, h)
        if opts == 0:  # cannot happen: an action is offered only when it can be paid
            break
        if bits(opts) == 1:
            pay_unit(ip, s, h, lowest(opts), ev, evn)
            continue
        ask(s, s[S_ACTIVE], D_PAY)
        return True
    frame_pop(s)
    return False


@njit(cache=True, _nrt=False)
def search_take(ip, s, h, rng, p, k, ev, evn):
    """WUC-SP-1: take a card of kind ``k`` from the deck, then shuffle it."""
    n = s[S_DECK_N]
    for i in range(n):
        if h[H_DECK + i] == k:
            h[H_DECK + i] = h[H_DECK + n - 1]
            s[S_DECK_N] = n - 1
            give(s, h, p, k)
            log(ev, evn, EV_SEARCH, p, k, 0, 0, 0, 0, 0)
            break
    shuffle_at(rng, h, H_DECK, s[S_DECK_N])


@njit(cache=True, _nrt=False)
def run_effect(ip, s, h, rng, ev, evn):
    effect = frame_get(s, 0)
    left = frame_get(s, 1)
    p = s[S_ACTIVE]
    if effect == EF_DRAW:  # WUC-SP-2, WUC-SP-4
        draw_to(ip, s, h, rng, p, left, 1, ev, evn)
        frame_pop(s)
        return False
    if effect == EF_SWAP:  # WUC-SP-3, WUC-SP-6
        frame_pop(s)
        if is_solo(ip):  # WUC-SO-9: Cthulhu back and the player on, that many squares
            solo_move(ip, s, 1, -left, 1, ev, evn)
            solo_move(ip, s, 0, left, 1, ev, evn)
            return False
        frame_push(s, PR_SWAP)
        frame_set(s, 0, left)
        frame_set(s, 1, 0)
        frame_set(s, 3, -1)
        frame_set(s, 4, p)
        return False
    if left <= 0:
        frame_pop(s)
        return False
    if effect == EF_SEARCH:
        if s[S_DECK_N] == 0:
            reshuffle_ingredients(ip, s, h, rng, ev, evn)
        kinds = deck_kinds(s, h)
        if kinds == 0:
            frame_pop(s)
            return False
        if bits(kinds) == 1:
            search_take(ip, s, h, rng, p, lowest(kinds), ev, evn)
            frame_set(s, 1, left - 1)
            return False
        ask(s, p, D_SEARCH)
        return True
    # EF_DISCARD, WUC-SP-5
    faceup = 0
    for i in range(ip[I_SLOTS]):
        if s[S_TOP + i] >= 0:
            faceup |= 1 << i
    if faceup == 0:
        frame_pop(s)
        return False
    if bits(faceup) == 1:
        discard_faceup(ip, s, lowest(faceup), ev, evn)
        frame_set(s, 1, left - 1)
        return False
    ask(s, p, D_DISCARD)
    return True


@njit(cache=True, _nrt=False)
def discard_faceup(ip, s, slot, ev, evn):
    c = s[S_TOP + slot]
    s[S_TOP + slot] = NO_CARD
    s[S_GDISCARD + c] += 1
    s[S_PENDING] |= 1 << slot  # its pile's next card is revealed in step 3
    log(ev, evn, EV_DISCARD, s[S_ACTIVE], slot, c, 0, 0, 0, 0)


@njit(cache=True, _nrt=False)
def run_swap(ip, s, ev, evn):
    """Swaps (WUC-SP-3, WUC-SP-6, WUC-CU-9): each pairs one of the seat's tokens with another
    player's, each token at most once; a single possible answer is not asked."""
    while True:
        left = frame_get(s, 0)
        optional = frame_get(s, 1)
        touched = frame_get(s, 2)
        chosen = frame_get(s, 3)
        p = frame_get(s, 4)
        if left <= 0:
            break
        own = s[S_OCC + p] & ~touched
        others = all_tokens(ip, s) & ~s[S_OCC + p] & ~touched
        if own == 0 or others == 0:
            break
        if chosen < 0:
            if optional == 0 and bits(own) == 1:
                frame_set(s, 3, lowest(own))
                continue
            ask(s, p, D_SWAP_OWN)
            return True
        if bits(others) == 1:
            do_swap(ip, s, lowest(others), ev, evn)
            continue
        ask(s, p, D_SWAP_OTHER)
        return True
    frame_pop(s)
    return False


@njit(cache=True, _nrt=False)
def do_swap(ip, s, r, ev, evn):
    q = frame_get(s, 3)
    swap_tokens(ip, s, q, r, 0 if frame_get(s, 1) == 0 else 1, ev, evn)
    frame_set(s, 2, frame_get(s, 2) | (1 << q) | (1 << r))
    frame_set(s, 0, frame_get(s, 0) - 1)
    frame_set(s, 3, -1)
    update_flags(ip, s)


@njit(cache=True, _nrt=False)
def push_ran_tegoth(s, amount):
    frame_push(s, PR_RAN_TEGOTH)
    frame_set(s, 0, amount)
    frame_set(s, 1, 0)


@njit(cache=True, _nrt=False)
def run_advance(ip, s, rng, ev, evn):
    stage = frame_get(s, 0)
    p = s[S_ACTIVE]
    rt_after = ip[I_RT_AFTER_ACTION] == 1
    if stage == AD_PLACE:
        candles = frame_get(s, 1)
        if is_solo(ip):  # WUC-SO-5: the figure moves instead
            frame_pop(s)
            solo_move(ip, s, 0, candles, 0, ev, evn)
            return False
        have = min(candles, s[S_RESERVE + p])
        placed = place_tokens(ip, s, p, have, 0, ev, evn)
        frame_set(s, 2, placed)
        frame_set(s, 3, candles - have)  # WUC-ADV-4: tokens the reserve cannot give
        frame_set(s, 0, AD_WINDOW1)
        return False
    placed = frame_get(s, 2)
    if stage == AD_WINDOW1:  # WUC-OB-2 (when it opens: NOTES.md)
        frame_set(s, 0, AD_SHORT)
        if placed > 0 and not rt_after:
            push_ran_tegoth(s, placed)
        return False
    if stage == AD_SHORT:  # WUC-ADV-4: for each missing token a swap and a step of Cthulhu
        short = frame_get(s, 3)
        if short <= 0:
            frame_set(s, 0, AD_WINDOW2)
            return False
        own = s[S_OCC + p]
        target = swap_target(ip, s, p)
        if own != 0 and target >= 0:
            if bits(own) > 1:
                ask(s, p, D_OUT_SWAP)
                return True
            out_swap(ip, s, lowest(own), ev, evn)
        else:
            frame_set(s, 3, short - 1)
            move_cthulhu(ip, s, 1, ev, evn)
        return False
    if stage == AD_WINDOW2:
        frame_set(s, 0, AD_DONE)
        if placed > 0 and rt_after:
            push_ran_tegoth(s, placed)
        return False
    frame_pop(s)
    return False


@njit(cache=True, _nrt=False)
def out_swap(ip, s, q, ev, evn):
    """WUC-ADV-4: the token on ``q`` changes places with the other players' token nearest the
    end of the line, then Cthulhu advances one position."""
    p = s[S_ACTIVE]
    r = swap_target(ip, s, p)
    swap_tokens(ip, s, q, r, 2, ev, evn)
    s[S_OUT_SWAPS] += 1
    frame_set(s, 3, frame_get(s, 3) - 1)
    update_flags(ip, s)
    move_cthulhu(ip, s, 1, ev, evn)


@njit(cache=True, _nrt=False)
def run_ran_tegoth(ip, s, ev, evn):
    """WUC-OB-2, WUC-CJ-5: the other players, clockwise from the active one (the nearest
    first), are offered Ran-Tegoth in turn; the first to play it takes the window."""
    n = seats_of(ip)
    k = frame_get(s, 1)
    if is_solo(ip):
        if k == 0 and can_use(ip, s, 0, O_RAN_TEGOTH):
            ask(s, 0, D_RAN_TEGOTH)
            return True
        frame_pop(s)
        return False
    while k < n - 1:
        p = (s[S_ACTIVE] + 1 + k) % n
        if can_use(ip, s, p, O_RAN_TEGOTH) and s[S_RESERVE + p] > 0:
            frame_set(s, 1, k)
            ask(s, p, D_RAN_TEGOTH)
            return True
        k += 1
    frame_pop(s)
    return False


@njit(cache=True, _nrt=False)
def run_reveal(ip, s, h, rng, ev, evn):
    """WUC-T-3..5, WUC-S-4/5, WUC-SO-6/8: reveal the next card of each pending slot; a Curse
    is resolved at once (a Curse frame), discarded, and the next card revealed."""
    pending = frame_get(s, 0)
    while pending != 0:
        slot = lowest(pending)
        pending &= pending - 1
        st = stack_of(ip, slot)
        if s[S_STACK_N + st] == 0:
            if is_solo(ip):
                refill_solo_deck(ip, s, h, rng, ev, evn)
                if s[S_STACK_N] == 0:
                    continue
            else:
                depleted = 0
                for i in range(ip[I_SLOTS]):
                    if s[S_TOP + i] < 0 and s[S_STACK_N + i] == 0:
                        depleted += 1
                if depleted >= 2:  # WUC-T-5: a second pile is depleted
                    pending |= refill_piles(ip, s, h, rng, ev, evn)
                continue
        n = s[S_STACK_N + st] - 1
        c = h[H_STACK + st * MAX_STACK + n]
        s[S_STACK_N + st] = n
        log(ev, evn, EV_REVEAL, slot, c, 0, 0, 0, 0, 0)
        if c >= CURSE0:
            s[S_CURSE_SEEN] = 1
            s[S_IN_PLAY] = c
            frame_set(s, 0, pending | (1 << slot))  # then the next card of that pile
            frame_push(s, PR_CURSE)
            frame_set(s, 1, c)
            frame_set(s, 2, slot)
            return False
        s[S_TOP + slot] = c
    frame_pop(s)
    return False


@njit(cache=True, _nrt=False)
def start_auction(s, c):
    s[S_AUC_CURSE] = c
    s[S_AUC_ROUND] = 0
    s[S_AUC_FOLDED] = 0
    s[S_AUC_WINNER] = -1
    s[S_AUCTIONS] += 1
    frame_push(s, PR_AUCTION)


@njit(cache=True, _nrt=False)
def run_curse(ip, s, h, rng, ev, evn):
    stage = frame_get(s, 0)
    c = frame_get(s, 1)
    if stage == CU_START:
        s[S_CURSES + c - CURSE0] += 1
        log(ev, evn, EV_CURSE, c, frame_get(s, 2), 0, 0, 0, 0, 0)
        if is_solo(ip):
            frame_set(s, 0, CU_SOLO)
            if ip[I_SOLO_CURSE_MOVE] == 1:
                solo_move(ip, s, 1, 1, 2, ev, evn)
            frame_push(s, PR_DUEL)
            frame_set(s, 1, c)
            frame_set(s, 4, 1 if c == C_CTHONIAN else 0)  # WUC-SO-11
            s[S_DUEL_CARD] = c
            return False
        move_cthulhu(ip, s, ip[I_CURSE_MOVES], ev, evn)  # WUC-CU-1: Cthulhu first
        if c == C_STELLARIS:  # WUC-CU-7
            frame_set(s, 0, CU_STELLARIS)
            start_auction(s, c)
        elif c == C_CTHONIAN:  # WUC-CU-8
            frame_set(s, 0, CU_DISCARD)
            frame_push(s, PR_CTHONIAN)
        else:  # WUC-CU-9
            frame_set(s, 0, CU_YUGGOTH)
            start_auction(s, c)
        return False
    if stage == CU_STELLARIS:
        w = s[S_AUC_WINNER]
        s[S_IN_PLAY] = NO_CARD
        if w >= 0:  # kept in front of its winner for the rest of the game
            s[S_STELLARIS + w] += 1
            log(ev, evn, EV_STELLARIS, w, s[S_STELLARIS + w], 0, 0, 0, 0, 0)
        else:
            s[S_GDISCARD + c] += 1
            log(ev, evn, EV_STELLARIS, -1, 0, 0, 0, 0, 0, 0)
        frame_pop(s)
        return False
    if stage == CU_YUGGOTH:
        w = s[S_AUC_WINNER]
        if w < 0:
            frame_set(s, 0, CU_DISCARD)
            return False
        frame_set(s, 3, w)
        placed = place_tokens(ip, s, w, ip[I_YUG_PLACE], 1, ev, evn)
        frame_set(s, 2, placed)
        frame_set(s, 0, CU_YUG_SWAP)
        if w == s[S_ACTIVE] and placed > 0 and ip[I_RT_AFTER_ACTION] == 0:
            push_ran_tegoth(s, placed)
        return False
    if stage == CU_YUG_SWAP:
        frame_set(s, 0, CU_YUG_WINDOW)
        frame_push(s, PR_SWAP)  # "he or she can swap": optional
        frame_set(s, 0, ip[I_YUG_SWAP])
        frame_set(s, 1, 1)
        frame_set(s, 3, -1)
        frame_set(s, 4, parent_local(s, 3))
        return False
    if stage == CU_YUG_WINDOW:
        frame_set(s, 0, CU_DISCARD)
        w = frame_get(s, 3)
        placed = frame_get(s, 2)
        if w == s[S_ACTIVE] and placed > 0 and ip[I_RT_AFTER_ACTION] == 1:
            push_ran_tegoth(s, placed)
        return False
    # CU_DISCARD and CU_SOLO: the Curse goes to the discard pile (a Stellaris Seminum won in a
    # solitaire duel has been kept)
    if s[S_IN_PLAY] == c:
        s[S_GDISCARD + c] += 1
        s[S_IN_PLAY] = NO_CARD
    frame_pop(s)
    return False


@njit(cache=True, _nrt=False)
def discard_bids(ip, s, h, ev, evn):
    """WUC-CU-6: every bid Ingredient to the discard pile (face up: everyone sees them)."""
    for p in range(seats_of(ip)):
        for k in range(N_ING):
            m = h[H_BID + p * N_ING + k]
            if m > 0:
                log(ev, evn, EV_REVEAL_BIDS, p, k, m, 0, 0, 0, 0)
                s[S_IDISCARD + k] += m
                h[H_BID + p * N_ING + k] = 0
        s[S_BID_N + p] = 0


@njit(cache=True, _nrt=False)
def auction_winner(ip, s, h, rng, ev, evn):
    """WUC-CU-4, WUC-CU-5: the highest total of sacrifice values; ties: the fewest cards in
    hand, then each tied player draws an Ingredient and the highest value wins, again until
    one is left (the cards drawn are discarded).  -1 when nobody bid."""
    n = seats_of(ip)
    active = s[S_ACTIVE]
    best = -1
    cands = 0
    tot0 = -1
    tot1 = -1
    tot2 = -1
    tot3 = -1
    for p in range(n):
        if s[S_BID_N + p] == 0:
            continue
        t = 0
        for k in range(N_ING):
            t += h[H_BID + p * N_ING + k] * ip[I_ING_VALUE + k]
        if p == 0:
            tot0 = t
        elif p == 1:
            tot1 = t
        elif p == 2:
            tot2 = t
        else:
            tot3 = t
        if t > best:
            best = t
            cands = 1 << p
        elif t == best:
            cands |= 1 << p
    if cands == 0:
        log(ev, evn, EV_AUCTION, -1, s[S_AUC_CURSE], tot0, tot1, tot2, tot3, 0)
        return -1
    if bits(cands) > 1:
        fewest = 1 << 30
        few = 0
        for p in range(n):
            if (cands >> p) & 1:
                held = s[S_HAND_N + p]
                if ip[I_TIE_INGREDIENTS] == 0:
                    for o in range(N_OBJECTS):
                        held += s[S_OBJ + p * N_OBJECTS + o]
                if held < fewest:
                    fewest = held
                    few = 1 << p
                elif held == fewest:
                    few |= 1 << p
        cands = few
    guard = 0
    while bits(cands) > 1 and guard < 64:
        guard += 1
        top = -1
        next_c = 0
        for k in range(n):
            p = (active + k) % n
            if not (cands >> p) & 1:
                continue
            card = draw_card(ip, s, h, rng, ev, evn)
            v = -1
            if card >= 0:
                v = ip[I_ING_VALUE + card]
                s[S_IDISCARD + card] += 1
                log(ev, evn, EV_TIE_DRAW, p, card, 0, 0, 0, 0, 0)
            if v > top:
                top = v
                next_c = 1 << p
            elif v == top:
                next_c |= 1 << p
        cands = next_c
        if top < 0:
            break  # no card left to draw: the first tied player in turn order
    w = -1
    for k in range(n):
        p = (active + k) % n
        if (cands >> p) & 1:
            w = p
            break
    log(ev, evn, EV_AUCTION, w, s[S_AUC_CURSE], tot0, tot1, tot2, tot3, 0)
    return w


@njit(cache=True, _nrt=False)
def rlyeh_wins(ip, s, h, p, how, ev, evn):
    """WUC-OB-4: R'lyeh wins the auction at once; the Ingredients bid are discarded."""
    use_object(ip, s, p, O_RLYEH, 1, ev, evn)
    log(ev, evn, EV_RLYEH, p, how, 0, 0, 0, 0, 0)
    discard_bids(ip, s, h, ev, evn)
    s[S_AUC_WINNER] = p
    s[S_AUCT_WON + p] += 1
    s[S_RLYEH_AUCT] += 1
    s[S_AUC_CURSE] = -1
    frame_pop(s)


@njit(cache=True, _nrt=False)
def run_auction(ip, s, h, rng, ev, evn):
    """WUC-CU-3: from the active player clockwise, round after round, until all have folded."""
    n = seats_of(ip)
    active = s[S_ACTIVE]
    stage = frame_get(s, 0)
    k = frame_get(s, 1)
    if stage == AU_OPEN or stage == AU_LAST:
        while k < n:
            p = (active + k) % n
            if can_use(ip, s, p, O_RLYEH):
                frame_set(s, 1, k)
                ask(s, p, D_RLYEH_OPEN if stage == AU_OPEN else D_RLYEH_LAST)
                return True
            k += 1
        frame_set(s, 1, 0)
        if stage == AU_OPEN:
            frame_set(s, 0, AU_BID)
            s[S_AUC_ROUND] = 1
        else:
            frame_set(s, 0, AU_RESOLVE)
        return False
    if stage == AU_BID:
        everyone = (1 << n) - 1
        while s[S_AUC_FOLDED] != everyone:
            p = (active + k) % n
            if not (s[S_AUC_FOLDED] >> p) & 1:
                if s[S_HAND_N + p] == 0:
                    s[S_AUC_FOLDED] |= 1 << p
                    log(ev, evn, EV_FOLD, p, s[S_AUC_ROUND], 0, 0, 0, 0, 0)
                else:
                    frame_set(s, 1, k)
                    ask(s, p, D_BID)
                    return True
            k += 1
            if k == n:
                k = 0
                s[S_AUC_ROUND] += 1
        frame_set(s, 1, 0)
        frame_set(s, 0, AU_LAST if ip[I_RLYEH_LAST] == 1 else AU_RESOLVE)
        return False
    w = auction_winner(ip, s, h, rng, ev, evn)
    discard_bids(ip, s, h, ev, evn)
    s[S_AUC_WINNER] = w
    if w >= 0:
        s[S_AUCT_WON + w] += 1
    s[S_AUC_CURSE] = -1
    frame_pop(s)
    return False


@njit(cache=True, _nrt=False)
def next_bidder(ip, s):
    k = frame_get(s, 1) + 1
    if k == seats_of(ip):
        k = 0
        s[S_AUC_ROUND] += 1
    frame_set(s, 1, k)


@njit(cache=True, _nrt=False)
def cthonian_targets(ip, s, shielded):
    """The squares of the two tokens nearest the end where Cthulhu began (WUC-CU-8), the
    tokens of shielded seats not counted (WUC-OB-4)."""
    x = 0
    for p in range(seats_of(ip)):
        if not (shielded >> p) & 1:
            x |= s[S_OCC + p]
    t = 0
    for _ in range(ip[I_CTH_RETURN]):
        if x == 0:
            break
        q = highest(x)
        t |= 1 << q
        x &= ~(1 << q)
    return t


@njit(cache=True, _nrt=False)
def run_cthonian(ip, s, ev, evn):
    n = seats_of(ip)
    k = frame_get(s, 0)
    shielded = frame_get(s, 1)
    t = cthonian_targets(ip, s, shielded)
    while k < n:
        p = (s[S_ACTIVE] + k) % n
        if (s[S_OCC + p] & t) != 0 and not (shielded >> p) & 1 and can_use(ip, s, p, O_RLYEH):
            frame_set(s, 0, k)
            ask(s, p, D_SHIELD)
            return True
        k += 1
    while t != 0:
        q = lowest(t)
        t &= t - 1
        p = owner(ip, s, q)
        s[S_OCC + p] &= ~(1 << q)
        s[S_RESERVE + p] += 1
        s[S_RETURNED] += 1
        log(ev, evn, EV_RETURN, p, q, 0, 0, 0, 0, 0)
    close_gaps(ip, s)
    update_flags(ip, s)
    frame_pop(s)
    return False


@njit(cache=True, _nrt=False)
def run_solo_cthulhu(ip, s, h, rng, ev, evn):
    """WUC-SO-3, WUC-SO-4: Cthulhu's turn."""
    if frame_get(s, 0) == 1:
        frame_pop(s)
        return False
    s[S_ROUND] += 1
    log(ev, evn, EV_TURN, s[TURN], -1, s[S_ROUND], 0, 0, 0, 0)
    draws = ip[I_SOLO_DRAW] + s[S_STELLARIS + MAX_SEATS] * ip[I_STELLARIS_CARDS]
    for _ in range(draws):
        k = draw_card(ip, s, h, rng, ev, evn)
        if k < 0:
            break
        pos = 0  # the wild: the position closest to Path C
        if k != WILD:
            pos = -1
            for i in range(A_POSITIONS):
                if s[S_A_KIND + i] == k:
                    pos = i
                    break
            if pos < 0:
                for i in range(A_POSITIONS):
                    if s[S_A_KIND + i] < 0:
                        pos = i
                        break
            s[S_A_KIND + pos] = k
            s[S_A_NAT + pos] += 1
        else:
            s[S_A_WILD + pos] += 1
        log(ev, evn, EV_SOLO_A, k, pos, s[S_A_NAT + pos] + s[S_A_WILD + pos], 0, 0, 0, 0)
    moved = 0
    for i in range(A_POSITIONS):
        cnt = s[S_A_NAT + i] + s[S_A_WILD + i]
        m = 0
        if cnt >= ip[I_SOLO_BIG]:
            m = ip[I_SOLO_BIG_MOVE]
        elif cnt >= ip[I_SOLO_SMALL]:
            m = ip[I_SOLO_SMALL_MOVE]
        else:
            continue
        if s[S_A_KIND + i] >= 0:
            s[S_IDISCARD + s[S_A_KIND + i]] += s[S_A_NAT + i]
        s[S_IDISCARD + WILD] += s[S_A_WILD + i]
        s[S_A_NAT + i] = 0
        s[S_A_WILD + i] = 0
        s[S_A_KIND + i] = -1
        moved += m
    s[S_CTHULHU_MOVES] += moved
    solo_move(ip, s, 1, moved, 0, ev, evn)
    frame_set(s, 0, 1)
    if s[OUTCOME] == PLAYING and moved > 0:
        push_ran_tegoth(s, moved)
    return False


@njit(cache=True, _nrt=False)
def run_duel(ip, s, h, rng, ev, evn):
    """WUC-SO-10, WUC-SO-11: the player sets cards aside, Cthulhu draws as many; the higher
    total takes the Curse's benefit, Cthulhu on a tie."""
    stage = frame_get(s, 0)
    c = frame_get(s, 1)
    if stage == 0:
        ask(s, 0, D_STAKE)
        return True
    if stage == 1:
        n = frame_get(s, 2)
        theirs = 0
        for _ in range(n):
            k = draw_card(ip, s, h, rng, ev, evn)
            if k < 0:
                break
            theirs += ip[I_ING_VALUE + k]
            s[S_IDISCARD + k] += 1
        mine = frame_get(s, 3)
        w = 0 if mine > theirs else 1
        log(ev, evn, EV_DUEL, c, mine, theirs, w, 0, 0, 0)
        discard_bids(ip, s, h, ev, evn)
        frame_set(s, 0, 2)
        frame_set(s, 2, w)
        return False
    # stage 2: the benefit (winner in local 2: 0 the player, 1 Cthulhu)
    w = frame_get(s, 2)
    s[S_DUEL_CARD] = -1
    if w == 0:
        s[S_DUELS_WON] += 1
    frame_pop(s)
    if c == C_STELLARIS:
        s[S_STELLARIS + (0 if w == 0 else MAX_SEATS)] += 1
        s[S_IN_PLAY] = NO_CARD
        log(ev, evn, EV_STELLARIS, 0 if w == 0 else MAX_SEATS, 0, 0, 0, 0, 0, 0)
    elif c == C_YUGGOTH:
        solo_move(ip, s, w, ip[I_SOLO_YUG_PLACE] + ip[I_SOLO_YUG_SWAP], 3, ev, evn)
        solo_move(ip, s, 1 - w, -ip[I_SOLO_YUG_SWAP], 3, ev, evn)
    else:
        solo_move(ip, s, w, ip[I_SOLO_CTH_MOVE], 3, ev, evn)
        solo_move(ip, s, 1 - w, -ip[I_SOLO_CTH_MOVE], 3, ev, evn)
    return False


@njit(cache=True, _nrt=False)
def run(ip, s, h, rng, ev, evn):
    """Carry the game on to its next decision (or its end)."""
    while s[OUTCOME] == PLAYING:
        proc = frame_proc(s)
        if proc == PR_GAME:
            asked = run_game(ip, s, h, rng, ev, evn)
        elif proc == PR_TURN:
            asked = run_turn(ip, s, h, rng, ev, evn)
        elif proc == PR_ACTION:
            asked = run_action(ip, s, h, rng, ev, evn)
        elif proc == PR_PAY:
            asked = run_pay(ip, s, h, ev, evn)
        elif proc == PR_EFFECT:
            asked = run_effect(ip, s, h, rng, ev, evn)
        elif proc == PR_ADVANCE:
            asked = run_advance(ip, s, rng, ev, evn)
        elif proc == PR_SWAP:
            asked = run_swap(ip, s, ev, evn)
        elif proc == PR_REVEAL:
            asked = run_reveal(ip, s, h, rng, ev, evn)
        elif proc == PR_CURSE:
            asked = run_curse(ip, s, h, rng, ev, evn)
        elif proc == PR_AUCTION:
            asked = run_auction(ip, s, h, rng, ev, evn)
        elif proc == PR_CTHONIAN:
            asked = run_cthonian(ip, s, ev, evn)
        elif proc == PR_RAN_TEGOTH:
            asked = run_ran_tegoth(ip, s, ev, evn)
        elif proc == PR_SOLO_CTHULHU:
            asked = run_solo_cthulhu(ip, s, h, rng, ev, evn)
        elif proc == PR_DUEL:
            asked = run_duel(ip, s, h, rng, ev, evn)
        else:  # an empty stack: cannot happen while the game runs
            finish(s, O_CAP, -1)
            return
        if asked:
            return


# ---- dealing the face-down Grimoire -----------------------------------------------------------
SCRATCH = H_STACK + (MAX_SLOTS - 1) * MAX_STACK  # the last pile's room holds a shuffled row


@njit(cache=True, _nrt=False, inline="always")
def n_stacks(ip):
    """Face-down piles: one a slot, or the one deck F in solitaire."""
    return 1 if ip[I_SOLO] == 1 else ip[I_SLOTS]


@njit(cache=True, _nrt=False)
def deal_stacks(ip, s, h, g):
    """Deal the ``g`` cards lying at ``SCRATCH`` into the face-down piles, ``s[S_STACK_N + i]``
    cards each, in order (the last pile's room is the scratch row itself: copying forward from
    no earlier a place is safe), and clear what is left of the scratch row."""
    off = 0
    for i in range(n_stacks(ip)):
        base = H_STACK + i * MAX_STACK
        for j in range(s[S_STACK_N + i]):
            h[base + j] = h[SCRATCH + off + j]
        off += s[S_STACK_N + i]
    keep = s[S_STACK_N + MAX_SLOTS - 1] if n_stacks(ip) == MAX_SLOTS else 0
    for j in range(keep, MAX_STACK):
        h[SCRATCH + j] = 0


# ---- the contract ---------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def setup(ip, s, h, rng):
    """WUC-S-1..3, WUC-SO-1: the figure(s), both decks shuffled, tokens and hands, the
    Grimoire in piles (or deck F); the first reveals are the game frame's first step."""
    for k in range(s.shape[0]):
        s[k] = 0
    for k in range(h.shape[0]):
        h[k] = 0
    clear_header(s)
    n = seats_of(ip)
    s[S_ACTIVE] = ip[I_FIRST]
    s[S_IN_PLAY] = NO_CARD
    s[S_AUC_CURSE] = -1
    s[S_AUC_WINNER] = -1
    s[S_DUEL_CARD] = -1
    for i in range(A_POSITIONS):
        s[S_A_KIND + i] = -1
    if is_solo(ip):
        s[S_CTHULHU] = 0  # the first square of Path D
        s[S_SOLO_POS] = 0  # the first square of Path C
    else:
        s[S_CTHULHU] = ip[I_SQUARES]  # the central slot
    for p in range(n):
        s[S_RESERVE + p] = 0 if is_solo(ip) else ip[I_TOKENS]
    # the Ingredients deck (WUC-S-2), then the hands (WUC-S-3)
    m = 0
    for k in range(N_ING):
        for _ in range(ip[I_ING_COUNT + k]):
            h[H_DECK + m] = k
            m += 1
    shuffle_at(rng, h, H_DECK, m)
    s[S_DECK_N] = m
    for p in range(n):
        for _ in range(ip[I_HAND]):
            m -= 1
            give(s, h, p, h[H_DECK + m])
    s[S_DECK_N] = m
    # the Grimoire, shuffled and split into piles (WUC-S-4) or laid as deck F (WUC-SO-1)
    for i in range(MAX_SLOTS):
        s[S_TOP + i] = NO_CARD
    g = 0
    for c in range(N_CARDS):
        for _ in range(ip[I_COPIES + c]):
            h[SCRATCH + g] = c
            g += 1
    shuffle_at(rng, h, SCRATCH, g)
    stacks = n_stacks(ip)
    for i in range(stacks):
        s[S_STACK_N + i] = g // stacks + (1 if i < g % stacks else 0)
    deal_stacks(ip, s, h, g)
    frame_push(s, PR_GAME)


@njit(INIT_SIG, cache=True)
def init(ip, fp, s, h, rng):
    setup(ip, s, h, rng)
    run(ip, s, h, rng, np.zeros((0, 8), dtype=np.int64), np.zeros(1, dtype=np.int64))


@njit(LEGAL_SIG, cache=True, _nrt=False)
def legal(ip, fp, s, h, mask):
    for k in range(mask.shape[0]):
        mask[k] = 0
    d = s[DECISION]
    p = s[SEAT]
    n = 0
    o = H_HAND + p * N_ING
    if d == D_ACTION:
        first = frame_proc(s) == PR_TURN and frame_get(s, 1) == 1
        n = bits_to_mask(action_bits(ip, s, h, first), mask)
    elif d == D_PAY:
        n = bits_to_mask(pay_options(ip, s, h), mask)
    elif d == D_SEARCH:
        n = bits_to_mask(deck_kinds(s, h), mask)
    elif d == D_DISCARD:
        for i in range(ip[I_SLOTS]):
            if s[S_TOP + i] >= 0:
                mask[i] = 1
                n += 1
    elif d == D_SWAP_OWN:
        touched = frame_get(s, 2)
        n = bits_to_mask(s[S_OCC + p] & ~touched, mask)
        if frame_get(s, 1) == 1:
            mask[A_SWAP_STOP] = 1
            n += 1
    elif d == D_SWAP_OTHER:
        touched = frame_get(s, 2)
        n = bits_to_mask(all_tokens(ip, s) & ~s[S_OCC + p] & ~touched, mask)
    elif d == D_OUT_SWAP:
        n = bits_to_mask(s[S_OCC + p], mask)
    elif d == D_BID:
        for k in range(N_ING):
            if h[o + k] > 0:
                mask[k] = 1
                n += 1
        if s[S_AUC_ROUND] >= 2:  # WUC-CU-3: folding from the second round
            mask[A_FOLD] = 1
            n += 1
        if can_use(ip, s, p, O_RLYEH):
            mask[A_RLYEH] = 1
            n += 1
    elif d == D_RLYEH_OPEN or d == D_RLYEH_LAST or d == D_RAN_TEGOTH or d == D_SHIELD:
        mask[A_NO] = 1
        mask[A_YES] = 1
        n = 2
    elif d == D_STAKE:
        for k in range(N_ING):
            if h[o + k] > 0:
                mask[k] = 1
                n += 1
        compulsory = frame_get(s, 4) == 1 and frame_get(s, 2) == 0 and s[S_HAND_N + p] > 0
        if not compulsory:
            mask[A_STAKE_DONE] = 1
            n += 1
        if can_use(ip, s, p, O_RLYEH):
            mask[A_RLYEH] = 1
            n += 1
    return n


@njit(STEP_SIG, cache=True, _nrt=False)
def step(ip, fp, s, h, rng, action, ev, evn):
    d = s[DECISION]
    p = s[SEAT]
    a = action
    if d == D_ACTION:
        frame_set(s, 1, 0)
        s[S_FORCED] = 0  # someone could act
        if a == A_STOP:
            log(ev, evn, EV_PASS, p, 1, 0, 0, 0, 0, 0)
            frame_set(s, 0, T_END)
        elif a == A_CLEAR:  # WUC-SO-7
            for i in range(ip[I_SLOTS]):
                c = s[S_TOP + i]
                s[S_GDISCARD + c] += 1
                s[S_TOP + i] = NO_CARD
            log(ev, evn, EV_CLEAR, p, 0, 0, 0, 0, 0, 0)
            frame_set(s, 0, T_CLEARED)
            frame_push(s, PR_REVEAL)
            frame_set(s, 0, (1 << ip[I_SLOTS]) - 1)
        else:
            frame_set(s, 0, T_REPLENISH)
            frame_push(s, PR_ACTION)
            if a >= A_ADVANCE:
                slot = a - A_ADVANCE
                mode = -1
            else:
                slot = (a - A_CONJURE) // 4
                mode = (a - A_CONJURE) % 4
            frame_set(s, 1, slot)
            frame_set(s, 2, mode)
            frame_set(s, 3, s[S_TOP + slot])
    elif d == D_PAY:
        pay_unit(ip, s, h, a, ev, evn)
    elif d == D_SEARCH:
        search_take(ip, s, h, rng, p, a, ev, evn)
        frame_set(s, 1, frame_get(s, 1) - 1)
    elif d == D_DISCARD:
        discard_faceup(ip, s, a, ev, evn)
        frame_set(s, 1, frame_get(s, 1) - 1)
    elif d == D_SWAP_OWN:
        if a == A_SWAP_STOP:
            frame_set(s, 0, 0)
        else:
            frame_set(s, 3, a)
    elif d == D_SWAP_OTHER:
        do_swap(ip, s, a, ev, evn)
    elif d == D_OUT_SWAP:
        out_swap(ip, s, a, ev, evn)
    elif d == D_BID:
        if a == A_RLYEH:
            rlyeh_wins(ip, s, h, p, 1, ev, evn)
        elif a == A_FOLD:
            s[S_AUC_FOLDED] |= 1 << p
            log(ev, evn, EV_FOLD, p, s[S_AUC_ROUND], 0, 0, 0, 0, 0)
            next_bidder(ip, s)
        else:
            take(s, h, p, a)
            h[H_BID + p * N_ING + a] += 1
            s[S_BID_N + p] += 1
            s[S_CARDS_BID] += 1
            log(ev, evn, EV_BID, p, a, s[S_AUC_ROUND], 0, 0, 0, 0)
            next_bidder(ip, s)
    elif d == D_RLYEH_OPEN or d == D_RLYEH_LAST:
        if a == A_YES:
            rlyeh_wins(ip, s, h, p, 0 if d == D_RLYEH_OPEN else 2, ev, evn)
        else:
            frame_set(s, 1, frame_get(s, 1) + 1)
    elif d == D_RAN_TEGOTH:
        if a == A_YES:
            amount = frame_get(s, 0)
            use_object(ip, s, p, O_RAN_TEGOTH, 2, ev, evn)
            frame_pop(s)
            if is_solo(ip):
                log(ev, evn, EV_RAN_TEGOTH, p, amount, amount, 0, 0, 0, 0)
                solo_move(ip, s, 0, amount, 2, ev, evn)
            else:
                placed = place_tokens(ip, s, p, amount, 2, ev, evn)
                s[S_RT_TOKENS] += placed
                log(ev, evn, EV_RAN_TEGOTH, p, placed, amount, 0, 0, 0, 0)
        else:
            frame_set(s, 1, frame_get(s, 1) + 1)
    elif d == D_SHIELD:
        if a == A_YES:
            frame_set(s, 1, frame_get(s, 1) | (1 << p))
            frame_set(s, 0, 0)
            use_object(ip, s, p, O_RLYEH, 3, ev, evn)
            log(ev, evn, EV_RLYEH, p, 3, 0, 0, 0, 0, 0)
        else:
            frame_set(s, 0, frame_get(s, 0) + 1)
    elif d == D_STAKE:
        if a == A_RLYEH:
            use_object(ip, s, p, O_RLYEH, 4, ev, evn)
            log(ev, evn, EV_RLYEH, p, 4, 0, 0, 0, 0, 0)
            discard_bids(ip, s, h, ev, evn)
            log(ev, evn, EV_DUEL, frame_get(s, 1), -1, -1, 0, 0, 0, 0)
            frame_set(s, 0, 2)
            frame_set(s, 2, 0)
        elif a == A_STAKE_DONE:
            frame_set(s, 0, 1)
        else:
            take(s, h, p, a)
            h[H_BID + p * N_ING + a] += 1
            s[S_BID_N + p] += 1
            frame_set(s, 2, frame_get(s, 2) + 1)
            frame_set(s, 3, frame_get(s, 3) + ip[I_ING_VALUE + a])
            log(ev, evn, EV_BID, p, a, 0, 0, 0, 0, 0)
    run(ip, s, h, rng, ev, evn)


@njit(OBSERVE_SIG, cache=True, _nrt=False)
def observe(ip, fp, s, h, seat, view):
    """What ``seat`` sees beyond the public state: its hand and its face-down bid, and the
    deck's contents while it searches it (WUC-SP-1)."""
    for k in range(view.shape[0]):
        view[k] = 0
    view[V_SEAT] = seat
    if seat < 0:
        return
    for k in range(N_ING):
        view[V_HAND + k] = h[H_HAND + seat * N_ING + k]
        view[V_BID + k] = h[H_BID + seat * N_ING + k]
    if s[DECISION] == D_SEARCH and s[SEAT] == seat:
        view[V_DECK_SEEN] = 1
        for i in range(s[S_DECK_N]):
            view[V_DECK + h[H_DECK + i]] += 1


@njit(cache=True, _nrt=False, inline="always")
def _hand_size(h, p):
    n = 0
    for k in range(N_ING):
        n += h[H_HAND + p * N_ING + k]
    return n


@njit(DETERMINIZE_SIG, cache=True)
def determinize(ip, fp, s, view, seat, rng, h):
    """A hidden state consistent with what ``seat`` has seen, built from ``s`` and ``view``
    only: its own hand and bid as they are; every Ingredient it cannot see (the other hands,
    their face-down bids, the deck; the deck's contents stay as seen during a search) dealt
    at random into the places the public state says hold that many; the face-down Grimoire
    (every card neither face up, discarded, owned, held nor in play) dealt at random into the
    piles.  A seat's memory of past events (the deck it saw while searching before) is not
    used."""
    n = seats_of(ip)
    for k in range(h.shape[0]):
        h[k] = 0
    deck_seen = view[V_DECK_SEEN] == 1
    # the Ingredients the seat cannot see, in a row at H_DECK, shuffled
    m = 0
    for k in range(N_ING):
        unseen = ip[I_ING_COUNT + k] - s[S_IDISCARD + k] - view[V_HAND + k] - view[V_BID + k]
        for i in range(A_POSITIONS):
            if k == WILD:
                unseen -= s[S_A_WILD + i]
            elif s[S_A_KIND + i] == k:
                unseen -= s[S_A_NAT + i]
        if deck_seen:
            unseen -= view[V_DECK + k]
        for _ in range(unseen):
            h[H_DECK + m] = k
            m += 1
        h[H_HAND + seat * N_ING + k] = view[V_HAND + k]
        h[H_BID + seat * N_ING + k] = view[V_BID + k]
    shuffle_at(rng, h, H_DECK, m)
    top = m  # dealt from the end of the row: the other hands and bids, the rest is the deck
    for p in range(n):
        if p == seat:
            continue
        for _ in range(s[S_HAND_N + p] + s[S_BID_N + p]):
            if top == 0:
                break
            top -= 1
            k = h[H_DECK + top]
            h[H_DECK + top] = 0
            if s[S_HAND_N + p] > 0 and \
                    _hand_size(h, p) < s[S_HAND_N + p]:
                h[H_HAND + p * N_ING + k] += 1
            else:
                h[H_BID + p * N_ING + k] += 1
    if deck_seen:
        d = 0
        for k in range(N_ING):
            for _ in range(view[V_DECK + k]):
                h[H_DECK + d] = k
                d += 1
        shuffle_at(rng, h, H_DECK, d)
    # the face-down Grimoire: every card not accounted for in public
    g = 0
    for c in range(N_CARDS):
        left = ip[I_COPIES + c] - s[S_GDISCARD + c]
        for i in range(ip[I_SLOTS]):
            if s[S_TOP + i] == c:
                left -= 1
        if s[S_IN_PLAY] == c:
            left -= 1
        if OBJ0 <= c < CURSE0:
            for p in range(MAX_SEATS):
                left -= s[S_OBJ + p * N_OBJECTS + c - OBJ0]
        if c == C_STELLARIS:
            for p in range(MAX_SEATS + 1):
                left -= s[S_STELLARIS + p]
        for _ in range(left):
            h[SCRATCH + g] = c
            g += 1
    shuffle_at(rng, h, SCRATCH, g)
    deal_stacks(ip, s, h, g)


@njit(RETURNS_SIG, cache=True, _nrt=False)
def returns(ip, fp, s, out):
    """A win is 1, every other seat 0; a game with no winner gives each seat 0."""
    w = s[WINNER]
    for k in range(out.shape[0]):
        out[k] = 1.0 if k == w else 0.0


@njit(EVALUATE_SIG, cache=True, _nrt=False)
def evaluate(ip, fp, s, out):
    """An estimate for an unfinished game: each seat's share of the tokens on the board
    (solitaire: how far the figure is along its path against Cthulhu's)."""
    if s[OUTCOME] != PLAYING:
        returns(ip, fp, s, out)
        return
    n = seats_of(ip)
    if is_solo(ip):
        mine = s[S_SOLO_POS] / max(ip[I_SOLO_PATH_C] - 1, 1)
        theirs = s[S_CTHULHU] / max(ip[I_SOLO_PATH_D] - 1, 1)
        out[0] = min(max(0.5 + 0.5 * (mine - theirs), 0.0), 1.0)
        return
    total = 0
    for p in range(n):
        total += bits(s[S_OCC + p])
    for p in range(out.shape[0]):
        if p >= n:
            out[p] = 0.0
        elif total == 0:
            out[p] = 1.0 / n
        else:
            out[p] = (bits(s[S_OCC + p]) + 0.5) / (total + 0.5 * n)


@njit(RECORD_SIG, cache=True, _nrt=False)
def record(ip, fp, s, h, rec):
    for k in range(rec.shape[0]):
        rec[k] = 0
    rec[R_OUTCOME] = s[OUTCOME]
    rec[R_WINNER] = s[WINNER]
    rec[R_TURNS] = s[TURN]
    rec[R_ROUNDS] = s[S_ROUND]
    rec[R_END_ADJ] = 1 if (s[OUTCOME] == O_ADJACENT) else 0
    rec[R_END_RED] = s[S_RED_FLAG] if s[OUTCOME] in (O_ADJACENT, O_RED) else 0
    rec[R_TIE] = s[S_TIE]
    rec[R_CTHULHU_POS] = s[S_CTHULHU]
    rec[R_CTHULHU_MOVES] = s[S_CTHULHU_MOVES]
    for p in range(MAX_SEATS):
        rec[R_TOKENS + p] = bits(s[S_OCC + p])
        rec[R_AUCT_WON + p] = s[S_AUCT_WON + p]
    rec[R_AUCTIONS] = s[S_AUCTIONS]
    rec[R_RLYEH_AUCT] = s[S_RLYEH_AUCT]
    for k in range(3):
        rec[R_CURSES + k] = s[S_CURSES + k]
    for c in range(CURSE0):
        rec[R_CONJURED + c] = s[S_CONJURED + c]
    for c in range(OBJ0):
        rec[R_ADVANCED + c] = s[S_ADVANCED + c]
    for o in range(N_OBJECTS):
        rec[R_PLAYED + o] = s[S_PLAYED + o]
    rec[R_SWAPS] = s[S_SWAPS]
    rec[R_RETURNED] = s[S_RETURNED]
    rec[R_OUT_SWAPS] = s[S_OUT_SWAPS]
    rec[R_RT_TOKENS] = s[S_RT_TOKENS]
    rec[R_G_SHUFFLES] = s[S_G_SHUFFLES]
    rec[R_I_SHUFFLES] = s[S_I_SHUFFLES]
    rec[R_CARDS_BID] = s[S_CARDS_BID]
    rec[R_SOLO_POS] = s[S_SOLO_POS]
    rec[R_SOLO_DUELS] = s[S_DUELS_WON]
    rec[R_REFRESHES] = s[S_REFRESHES]


@njit(CHECK_SIG, cache=True, _nrt=False)
def check(ip, fp, s, h):
    """The rules checker: the 100 cards conserved (every Ingredient in the deck, a hand, a bid,
    the discard pile or an A position, each hand's and bid's size as the public state says;
    every Grimoire card face down, face up, discarded, owned, held or in play), every token in
    its reserve or on the board, the line of tokens unbroken, from the Starting square and short
    of Cthulhu, no Curse face up, no Object owned twice over.  Returns the problems found."""
    errors = 0
    n = seats_of(ip)
    # Ingredients
    for k in range(N_ING):
        held = s[S_IDISCARD + k]
        for p in range(MAX_SEATS):
            held += h[H_HAND + p * N_ING + k] + h[H_BID + p * N_ING + k]
        for i in range(s[S_DECK_N]):
            if h[H_DECK + i] == k:
                held += 1
        for i in range(A_POSITIONS):
            if s[S_A_KIND + i] == k:
                held += s[S_A_NAT + i]
            if k == WILD:
                held += s[S_A_WILD + i]
        if held != ip[I_ING_COUNT + k]:
            errors += 1
    for i in range(s[S_DECK_N]):
        if h[H_DECK + i] < 0 or h[H_DECK + i] >= N_ING:
            errors += 1
    for p in range(MAX_SEATS):
        hn = 0
        bn = 0
        for k in range(N_ING):
            if h[H_HAND + p * N_ING + k] < 0 or h[H_BID + p * N_ING + k] < 0:
                errors += 1
            hn += h[H_HAND + p * N_ING + k]
            bn += h[H_BID + p * N_ING + k]
        if hn != s[S_HAND_N + p] or bn != s[S_BID_N + p]:
            errors += 1
        if p >= n and (hn != 0 or s[S_OCC + p] != 0):
            errors += 1
    for i in range(A_POSITIONS):
        if s[S_A_NAT + i] > 0 and s[S_A_KIND + i] < 0:
            errors += 1
    # the Grimoire
    for c in range(N_CARDS):
        held = s[S_GDISCARD + c]
        for i in range(MAX_SLOTS):
            if s[S_TOP + i] == c:
                held += 1
            for j in range(s[S_STACK_N + i]):
                if h[H_STACK + i * MAX_STACK + j] == c:
                    held += 1
        if s[S_IN_PLAY] == c:
            held += 1
        if OBJ0 <= c < CURSE0:
            for p in range(MAX_SEATS):
                held += s[S_OBJ + p * N_OBJECTS + c - OBJ0]
        if c == C_STELLARIS:
            for p in range(MAX_SEATS + 1):
                held += s[S_STELLARIS + p]
        if held != ip[I_COPIES + c]:
            errors += 1
    for i in range(MAX_SLOTS):
        c = s[S_TOP + i]
        if c >= CURSE0 or (i >= ip[I_SLOTS] and (c >= 0 or s[S_STACK_N + i] != 0)):
            errors += 1
        if s[S_STACK_N + i] < 0 or s[S_STACK_N + i] > MAX_STACK:
            errors += 1
    for k in range(MAX_SEATS * N_OBJECTS):
        if s[S_FRESH + k] > s[S_OBJ + k] or s[S_FRESH + k] < 0:
            errors += 1
    # the tokens and the path
    if is_solo(ip):
        if not 0 <= s[S_SOLO_POS] < ip[I_SOLO_PATH_C]:
            errors += 1
        if not 0 <= s[S_CTHULHU] < ip[I_SOLO_PATH_D]:
            errors += 1
        return errors
    seen = 0
    for p in range(n):
        x = s[S_OCC + p]
        if x & seen:
            errors += 1
        seen |= x
        if s[S_RESERVE + p] < 0 or s[S_RESERVE + p] + bits(x) != ip[I_TOKENS]:
            errors += 1
    c = s[S_CTHULHU]
    if c < ip[I_RED] or c > ip[I_SQUARES]:
        errors += 1
    if seen != 0:
        lo = lowest(seen)
        y = seen >> lo
        if (y & (y + 1)) != 0:  # a gap in the line
            errors += 1
        if lo < ip[I_START] or highest(seen) >= c:
            errors += 1
    if s[DEPTH] < 0 or s[DEPTH] > MAX_FRAMES:
        errors += 1
    return errors


@njit(PLAY_SIG, cache=True)
def play_one(g, ip, fp, pol, sps, seat_pol, search, rpol, rsp, qp, seed, index, s, h, view,
             mask, rng, srng, qrng, wi, wf, rec, ev, evn):
    """The engine's driver compiled for this game (its calls to ``legal``, ``observe`` and
    ``step`` direct, not through function values)."""
    drive(init, legal, no_legal_bits, step, observe, record, g, ip, fp, pol, sps, seat_pol,
          search, rpol, rsp, qp, seed, index, s, h, view, mask, rng, srng, qrng, wi, wf, rec, ev,
          evn)
