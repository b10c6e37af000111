"""Wake Up, Cthulhu!: the setup (WUC-S-1..5, WUC-SO-1): figures, both decks shuffled, tokens,
hands and the Grimoire in piles (or deck F)."""

from __future__ import annotations

from numba import njit

from simcore.engine import clear_header, frame_push
from simcore.wakeup import base as B
from simcore.wakeup import cards as CD
from simcore.wakeup import grimoire as GR
from simcore.wakeup import state as S


@njit(cache=True, _nrt=False)
def setup(ip, s, h, rng):
    """WUC-S-1..3, WUC-SO-1: the figure(s), both decks shuffled, tokens and hands, the
    Grimoire in piles (or deck F); the first reveals are the game frame's first step."""
    for k in range(s.shape[0]):
        s[k] = 0
    for k in range(h.shape[0]):
        h[k] = 0
    clear_header(s)
    n = B.seats_of(ip)
    s[S.S_ACTIVE] = ip[S.I_FIRST]
    s[S.S_IN_PLAY] = B.NO_CARD
    s[S.S_AUC_CURSE] = -1
    s[S.S_AUC_WINNER] = -1
    s[S.S_DUEL_CARD] = -1
    for i in range(S.A_POSITIONS):
        s[S.S_A_KIND + i] = -1
    if B.is_solo(ip):
        s[S.S_CTHULHU] = 0  # the first square of Path D
        s[S.S_SOLO_POS] = 0  # the first square of Path C
    else:
        s[S.S_CTHULHU] = ip[S.I_SQUARES]  # the central slot
    for p in range(n):
        s[S.S_RESERVE + p] = 0 if B.is_solo(ip) else ip[S.I_TOKENS]
    # the Ingredients deck (WUC-S-2), then the hands (WUC-S-3)
    m = 0
    for k in range(S.N_ING):
        for _ in range(ip[S.I_ING_COUNT + k]):
            h[S.H_DECK + m] = k
            m += 1
    B.shuffle_at(rng, h, S.H_DECK, m)
    s[S.S_DECK_N] = m
    for p in range(n):
        for _ in range(ip[S.I_HAND]):
            m -= 1
            CD.give(s, h, p, h[S.H_DECK + m])
    s[S.S_DECK_N] = m
    # the Grimoire, shuffled and split into piles (WUC-S-4) or laid as deck F (WUC-SO-1)
    for i in range(S.MAX_SLOTS):
        s[S.S_TOP + i] = B.NO_CARD
    g = 0
    for c in range(S.N_CARDS):
        for _ in range(ip[S.I_COPIES + c]):
            h[GR.SCRATCH + g] = c
            g += 1
    B.shuffle_at(rng, h, GR.SCRATCH, g)
    stacks = GR.n_stacks(ip)
    for i in range(stacks):
        s[S.S_STACK_N + i] = g // stacks + (1 if i < g % stacks else 0)
    GR.deal_stacks(ip, s, h, g)
    frame_push(s, S.PR_GAME)
