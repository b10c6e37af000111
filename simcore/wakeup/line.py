"""Wake Up, Cthulhu!: the Summoning Circle and its line of tokens.

Each seat's squares are one 64-bit word (a bit a square), Cthulhu a square (the pit is
``squares``).  Tokens are placed from the Starting square toward Cthulhu and close up into one
unbroken line (WUC-ADV-2, WUC-ADV-5); Cthulhu walks outward and stops next to a token or on the
Red Candle (WUC-CU-1); the end of the game and its winner are read from the line (WUC-E-1..3).
"""

from __future__ import annotations

from numba import njit

from simcore.wakeup import base as B
from simcore.wakeup import state as S


@njit(cache=True, _nrt=False)
def all_tokens(ip, s):
    x = 0
    for p in range(B.seats_of(ip)):
        x |= s[S.S_OCC + p]
    return x


@njit(cache=True, _nrt=False)
def owner(ip, s, q):
    """The seat whose token is on square ``q``, -1 for none."""
    for p in range(B.seats_of(ip)):
        if (s[S.S_OCC + p] >> q) & 1:
            return p
    return -1


@njit(cache=True, _nrt=False, forceinline=True)
def span(lo, hi):
    """Bits lo .. hi - 1 (0 <= lo <= hi <= 62)."""
    if hi <= lo:
        return 0
    return ((1 << hi) - 1) ^ ((1 << lo) - 1)


@njit(cache=True, _nrt=False)
def update_flags(ip, s):
    """WUC-E-1: note whether Cthulhu stands next to a token or on the Red Candle."""
    c = s[S.S_CTHULHU]
    if c > 0 and (all_tokens(ip, s) >> (c - 1)) & 1:
        s[S.S_ADJ_FLAG] = 1
    if c <= ip[S.I_RED]:
        s[S.S_RED_FLAG] = 1


@njit(cache=True, _nrt=False)
def adjacent_now(ip, s):
    c = s[S.S_CTHULHU]
    return c > 0 and (all_tokens(ip, s) >> (c - 1)) & 1 == 1


@njit(cache=True, _nrt=False)
def close_gaps(ip, s):
    """WUC-ADV-5: an empty square between two tokens is closed up, the tokens keeping their
    order: those behind it move forward (toward Cthulhu), or by the switch those beyond it move
    back toward the Starting square."""
    x = all_tokens(ip, s)
    if x == 0:
        return
    lo = B.lowest(x)
    y = x >> lo
    if (y & (y + 1)) == 0:
        return  # one unbroken line
    n = B.bits(x)
    hi = B.highest(x)
    base = lo if ip[S.I_GAPS_TO_START] == 1 else hi - n + 1
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
    s[S.S_OCC] = new0
    if B.seats_of(ip) > 1:
        s[S.S_OCC + 1] = new1
    if B.seats_of(ip) > 2:
        s[S.S_OCC + 2] = new2
    if B.seats_of(ip) > 3:
        s[S.S_OCC + 3] = new3


@njit(cache=True, _nrt=False)
def place_token(ip, s, p, why, ev, evn):
    """WUC-ADV-2, WUC-ADV-5: one token from ``p``'s reserve onto the next square of the line,
    short of Cthulhu: the first empty square from the Starting square, which is the square in
    front of the line's front token (\"he places this token in front of the rest\") also when
    the line has moved up from the Starting square (a gap closed toward Cthulhu after R'lyeh kept
    a front token from a C'thonian).  With no room in front, the first empty square behind.
    Returns its square, -1 when no square before Cthulhu is empty."""
    x = all_tokens(ip, s)
    free = span(ip[S.I_START], s[S.S_CTHULHU]) & ~x
    if free == 0:
        B.log(ev, evn, S.EV_NO_ROOM, p, 0, 0, 0, 0, 0, 0)
        return -1
    q = B.lowest(free)
    if x != 0:
        front = B.highest(x) + 1
        if front < s[S.S_CTHULHU] and (free >> front) & 1:
            q = front
    s[S.S_OCC + p] |= 1 << q
    s[S.S_RESERVE + p] -= 1
    close_gaps(ip, s)
    if not (s[S.S_OCC + p] >> q) & 1:  # it moved up to the line
        q = B.lowest(all_tokens(ip, s))
    B.log(ev, evn, S.EV_PLACE, p, q, why, 0, 0, 0, 0)
    update_flags(ip, s)
    return q


@njit(cache=True, _nrt=False)
def place_tokens(ip, s, p, n, why, ev, evn):
    """Up to ``n`` tokens from ``p``'s reserve (as many as it holds and there is room for);
    returns how many were placed."""
    placed = 0
    for _ in range(n):
        if s[S.S_RESERVE + p] <= 0:
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
    s[S.S_OCC + a] ^= m
    s[S.S_OCC + b] ^= m
    s[S.S_SWAPS] += 1
    B.log(ev, evn, S.EV_SWAP, a, q, b, r, why, 0, 0)


@njit(cache=True, _nrt=False)
def move_cthulhu(ip, s, steps, ev, evn):
    """WUC-CU-1: Cthulhu moves outward toward the Starting square, one square a step; he stops
    next to a token (he never enters or passes one) and on the Red Candle (the game ends)."""
    for _ in range(steps):
        c = s[S.S_CTHULHU]
        if c <= ip[S.I_RED] or c <= 0:
            break
        if (all_tokens(ip, s) >> (c - 1)) & 1:
            break
        s[S.S_CTHULHU] = c - 1
        s[S.S_CTHULHU_MOVES] += 1
        B.log(ev, evn, S.EV_CTHULHU, c, c - 1, 0, 0, 0, 0, 0)
    update_flags(ip, s)


@njit(cache=True, _nrt=False)
def swap_target(ip, s, p):
    """WUC-ADV-4: the other players' token nearest the end of the line (Cthulhu's end, or the
    Starting square's by the switch); -1 when no other player has a token down."""
    others = all_tokens(ip, s) & ~s[S.S_OCC + p]
    if others == 0:
        return -1
    return B.lowest(others) if ip[S.I_LINE_END_START] == 1 else B.highest(others)


@njit(cache=True, _nrt=False)
def log_table(ip, s, ev, evn):
    """The board and the face-up Grimoire, for the trace."""
    B.log(ev, evn, S.EV_BOARD, s[S.S_OCC], s[S.S_OCC + 1], s[S.S_OCC + 2], s[S.S_OCC + 3],
          s[S.S_CTHULHU], s[S.S_SOLO_POS], s[S.S_DECK_N])
    B.log(ev, evn, S.EV_TOPS, s[S.S_TOP], s[S.S_TOP + 1], s[S.S_TOP + 2], s[S.S_TOP + 3],
          s[S.S_TOP + 4], s[S.S_TOP + 5], 0)


@njit(cache=True, _nrt=False)
def winner_now(ip, s):
    """WUC-E-2, WUC-E-3: the seat with the most tokens on the board; a tie goes to the tied
    seat with the token closest to Cthulhu; -1 when nobody has a token.  Returns (winner,
    decided by the tie-break)."""
    best = 0
    tied = 0
    for p in range(B.seats_of(ip)):
        n = B.bits(s[S.S_OCC + p])
        if n > best:
            best = n
            tied = 1 << p
        elif n == best and n > 0:
            tied |= 1 << p
    if best == 0:
        return -1, 0
    if B.bits(tied) == 1:
        return B.lowest(tied), 0
    x = 0
    for p in range(B.seats_of(ip)):
        if (tied >> p) & 1:
            x |= s[S.S_OCC + p]
    return owner(ip, s, B.highest(x)), 1
