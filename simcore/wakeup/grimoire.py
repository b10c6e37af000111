"""Wake Up, Cthulhu!: the Grimoire's piles: the face-up slots, the face-down piles they are
refilled from (the solitaire deck F), the reveals that turn up Curses (WUC-T-3..5, WUC-SO-6/8),
the reshuffle of the discard pile into new piles and the dealing of piles from a shuffled row.
"""

from __future__ import annotations

from numba import njit

from simcore.engine import frame_get, frame_pop, frame_push, frame_set
from simcore.wakeup import base as B
from simcore.wakeup import state as S


@njit(cache=True, _nrt=False, forceinline=True)
def stack_of(ip, slot):
    """The face-down pile a slot is refilled from: its own (WUC-T-3), or the one deck F in
    solitaire (WUC-SO-6)."""
    return 0 if ip[S.I_SOLO] == 1 else slot


@njit(cache=True, _nrt=False)
def reshuffle_worth(s):
    """Whether the Grimoire discard pile holds a card other than a Curse."""
    for c in range(S.CURSE0):
        if s[S.S_GDISCARD + c] > 0:
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
    for i in range(ip[S.I_SLOTS]):
        if s[S.S_TOP + i] < 0 and s[S.S_STACK_N + i] == 0:
            empty |= 1 << i
    if empty == 0:
        return 0
    first = B.lowest(empty)
    src = S.H_STACK + first * S.MAX_STACK  # the first empty slot's pile holds the shuffled cards
    n = 0
    for c in range(S.N_CARDS):
        for _ in range(s[S.S_GDISCARD + c]):
            h[src + n] = c
            n += 1
        s[S.S_GDISCARD + c] = 0
    B.shuffle_at(rng, h, src, n)
    ps = ip[S.I_PILE]
    used = min(ps, n)
    s[S.S_STACK_N + first] = used
    refilled = 1 << first
    rest = empty & ~refilled
    while rest != 0 and used < n:
        e = B.lowest(rest)
        rest &= rest - 1
        m = min(ps, n - used)
        for j in range(m):
            h[S.H_STACK + e * S.MAX_STACK + j] = h[src + used + j]
        s[S.S_STACK_N + e] = m
        used += m
        refilled |= 1 << e
    for j in range(used, n):  # returned to the discard pile, face up
        s[S.S_GDISCARD + h[src + j]] += 1
    s[S.S_G_SHUFFLES] += 1
    B.log(ev, evn, S.EV_G_SHUFFLE, n, B.bits(refilled), 0, 0, 0, 0, 0)
    return refilled


@njit(cache=True, _nrt=False)
def refill_solo_deck(ip, s, h, rng, ev, evn):
    """WUC-SO-8: the empty deck F is rebuilt from the shuffled Grimoire discard pile (not from
    Curses alone, as in the multiplayer game)."""
    if not reshuffle_worth(s):
        return
    n = 0
    for c in range(S.N_CARDS):
        for _ in range(s[S.S_GDISCARD + c]):
            h[S.H_STACK + n] = c
            n += 1
        s[S.S_GDISCARD + c] = 0
    B.shuffle_at(rng, h, S.H_STACK, n)
    s[S.S_STACK_N] = n
    if n > 0:
        s[S.S_G_SHUFFLES] += 1
        B.log(ev, evn, S.EV_G_SHUFFLE, n, 1, 0, 0, 0, 0, 0)


@njit(cache=True, _nrt=False)
def is_spell(c):
    return 0 <= c < S.OBJ0


@njit(cache=True, _nrt=False)
def is_object(c):
    return S.OBJ0 <= c < S.CURSE0


@njit(cache=True, _nrt=False)
def refresh_grimoire(ip, s, ev, evn):
    """NOTES.md, WUC-T-2 (switch ``deadlock``): every player in turn played no action (could
    do nothing but stop, or chose to with ``may_pass``), so the face-up cards are discarded
    and their piles reveal new ones."""
    s[S.S_FORCED] = 0
    s[S.S_REFRESHES] += 1
    n = 0
    for i in range(ip[S.I_SLOTS]):
        c = s[S.S_TOP + i]
        if c >= 0:
            s[S.S_GDISCARD + c] += 1
            s[S.S_TOP + i] = B.NO_CARD
            n += 1
    B.log(ev, evn, S.EV_REFRESH, n, 0, 0, 0, 0, 0, 0)
    frame_push(s, S.PR_REVEAL)
    frame_set(s, 0, (1 << ip[S.I_SLOTS]) - 1)


@njit(cache=True, _nrt=False)
def discard_faceup(ip, s, slot, ev, evn):
    c = s[S.S_TOP + slot]
    s[S.S_TOP + slot] = B.NO_CARD
    s[S.S_GDISCARD + c] += 1
    s[S.S_PENDING] |= 1 << slot  # its pile's next card is revealed in step 3
    B.log(ev, evn, S.EV_DISCARD, s[S.S_ACTIVE], slot, c, 0, 0, 0, 0)


@njit(cache=True, _nrt=False)
def run_reveal(ip, s, h, rng, ev, evn):
    """WUC-T-3..5, WUC-S-4/5, WUC-SO-6/8: reveal the next card of each pending slot; a Curse
    is resolved at once (a Curse frame), discarded, and the next card revealed."""
    pending = frame_get(s, 0)
    while pending != 0:
        slot = B.lowest(pending)
        pending &= pending - 1
        st = stack_of(ip, slot)
        if s[S.S_STACK_N + st] == 0:
            if B.is_solo(ip):
                refill_solo_deck(ip, s, h, rng, ev, evn)
                if s[S.S_STACK_N] == 0:
                    continue
            else:
                depleted = 0
                for i in range(ip[S.I_SLOTS]):
                    if s[S.S_TOP + i] < 0 and s[S.S_STACK_N + i] == 0:
                        depleted += 1
                if depleted >= 2:  # WUC-T-5: a second pile is depleted
                    pending |= refill_piles(ip, s, h, rng, ev, evn)
                continue
        n = s[S.S_STACK_N + st] - 1
        c = h[S.H_STACK + st * S.MAX_STACK + n]
        s[S.S_STACK_N + st] = n
        B.log(ev, evn, S.EV_REVEAL, slot, c, 0, 0, 0, 0, 0)
        if c >= S.CURSE0:
            s[S.S_CURSE_SEEN] = 1
            s[S.S_IN_PLAY] = c
            frame_set(s, 0, pending | (1 << slot))  # then the next card of that pile
            frame_push(s, S.PR_CURSE)
            frame_set(s, 1, c)
            frame_set(s, 2, slot)
            return False
        s[S.S_TOP + slot] = c
    frame_pop(s)
    return False


# ---- dealing the face-down Grimoire -----------------------------------------------------------
SCRATCH = S.H_STACK + (S.MAX_SLOTS - 1) * S.MAX_STACK  # the last pile's room: a shuffled row


@njit(cache=True, _nrt=False, forceinline=True)
def n_stacks(ip):
    """Face-down piles: one a slot, or the one deck F in solitaire."""
    return 1 if ip[S.I_SOLO] == 1 else ip[S.I_SLOTS]


@njit(cache=True, _nrt=False)
def deal_stacks(ip, s, h, g):
    """Deal the ``g`` cards lying at ``SCRATCH`` into the face-down piles, ``s[S_STACK_N + i]``
    cards each, in order (the last pile's room is the scratch row itself: copying forward from
    no earlier a place is safe), and clear what is left of the scratch row."""
    off = 0
    for i in range(n_stacks(ip)):
        base = S.H_STACK + i * S.MAX_STACK
        for j in range(s[S.S_STACK_N + i]):
            h[base + j] = h[SCRATCH + off + j]
        off += s[S.S_STACK_N + i]
    keep = s[S.S_STACK_N + S.MAX_SLOTS - 1] if n_stacks(ip) == S.MAX_SLOTS else 0
    for j in range(keep, S.MAX_STACK):
        h[SCRATCH + j] = 0
