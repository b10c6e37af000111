"""Wake Up, Cthulhu!: the rules checker (``cthulhu-sim check``, ``trace --check``), run after every
step in checking mode."""

from __future__ import annotations

from numba import njit

from simcore.engine import DEPTH, MAX_FRAMES
from simcore.wakeup import base as B
from simcore.wakeup import state as S


@njit(cache=True, _nrt=False)
def errors(ip, s, h):
    """The rules checker: the 100 cards conserved (every Ingredient in the deck, a hand, a bid,
    the discard pile or an A position, each hand's and bid's size as the public state says;
    every Grimoire card face down, face up, discarded, owned, held or in play), every token in
    its reserve or on the board, the line of tokens unbroken, from the Starting square and short
    of Cthulhu, no Curse face up, no Object owned twice over.  Returns the problems found."""
    errors = 0
    n = B.seats_of(ip)
    # Ingredients
    for k in range(S.N_ING):
        held = s[S.S_IDISCARD + k]
        for p in range(S.MAX_SEATS):
            held += h[S.H_HAND + p * S.N_ING + k] + h[S.H_BID + p * S.N_ING + k]
        for i in range(s[S.S_DECK_N]):
            if h[S.H_DECK + i] == k:
                held += 1
        for i in range(S.A_POSITIONS):
            if s[S.S_A_KIND + i] == k:
                held += s[S.S_A_NAT + i]
            if k == S.WILD:
                held += s[S.S_A_WILD + i]
        if held != ip[S.I_ING_COUNT + k]:
            errors += 1
    for i in range(s[S.S_DECK_N]):
        if h[S.H_DECK + i] < 0 or h[S.H_DECK + i] >= S.N_ING:
            errors += 1
    for p in range(S.MAX_SEATS):
        hn = 0
        bn = 0
        for k in range(S.N_ING):
            if h[S.H_HAND + p * S.N_ING + k] < 0 or h[S.H_BID + p * S.N_ING + k] < 0:
                errors += 1
            hn += h[S.H_HAND + p * S.N_ING + k]
            bn += h[S.H_BID + p * S.N_ING + k]
        if hn != s[S.S_HAND_N + p] or bn != s[S.S_BID_N + p]:
            errors += 1
        if p >= n and (hn != 0 or s[S.S_OCC + p] != 0):
            errors += 1
    for i in range(S.A_POSITIONS):
        if s[S.S_A_NAT + i] > 0 and s[S.S_A_KIND + i] < 0:
            errors += 1
    # the Grimoire
    for c in range(S.N_CARDS):
        held = s[S.S_GDISCARD + c]
        for i in range(S.MAX_SLOTS):
            if s[S.S_TOP + i] == c:
                held += 1
            for j in range(s[S.S_STACK_N + i]):
                if h[S.H_STACK + i * S.MAX_STACK + j] == c:
                    held += 1
        if s[S.S_IN_PLAY] == c:
            held += 1
        if S.OBJ0 <= c < S.CURSE0:
            for p in range(S.MAX_SEATS):
                held += s[S.S_OBJ + p * S.N_OBJECTS + c - S.OBJ0]
        if c == S.C_STELLARIS:
            for p in range(S.MAX_SEATS + 1):
                held += s[S.S_STELLARIS + p]
        if held != ip[S.I_COPIES + c]:
            errors += 1
    for i in range(S.MAX_SLOTS):
        c = s[S.S_TOP + i]
        if c >= S.CURSE0 or (i >= ip[S.I_SLOTS] and (c >= 0 or s[S.S_STACK_N + i] != 0)):
            errors += 1
        if s[S.S_STACK_N + i] < 0 or s[S.S_STACK_N + i] > S.MAX_STACK:
            errors += 1
    for k in range(S.MAX_SEATS * S.N_OBJECTS):
        if s[S.S_FRESH + k] > s[S.S_OBJ + k] or s[S.S_FRESH + k] < 0:
            errors += 1
    # the tokens and the path
    if B.is_solo(ip):
        if not 0 <= s[S.S_SOLO_POS] < ip[S.I_SOLO_PATH_C]:
            errors += 1
        if not 0 <= s[S.S_CTHULHU] < ip[S.I_SOLO_PATH_D]:
            errors += 1
        return errors
    seen = 0
    for p in range(n):
        x = s[S.S_OCC + p]
        if x & seen:
            errors += 1
        seen |= x
        if s[S.S_RESERVE + p] < 0 or s[S.S_RESERVE + p] + B.bits(x) != ip[S.I_TOKENS]:
            errors += 1
    c = s[S.S_CTHULHU]
    if c < ip[S.I_RED] or c > ip[S.I_SQUARES]:
        errors += 1
    if seen != 0:
        lo = B.lowest(seen)
        y = seen >> lo
        if (y & (y + 1)) != 0:  # a gap in the line
            errors += 1
        if lo < ip[S.I_START] or B.highest(seen) >= c:
            errors += 1
    if s[DEPTH] < 0 or s[DEPTH] > MAX_FRAMES:
        errors += 1
    return errors
