"""Tiny Epic Cthulhu: an estimate of the team's chance to win from an unfinished game.

What a search scores a playout it cuts off with (``rules.evaluate``).  The estimate is a
logistic model of the progress made (Page tokens placed, portals sealed) against the Great Old
One's Strength; its weights are fitted to heuristic games (see NOTES.md, "Evaluation").
"""

from __future__ import annotations

import math

from numba import njit

from simcore.engine import OUTCOME, PLAYING
from simcore.tec import state as S


@njit(cache=True, _nrt=False)
def win_chance(ip, s):
    """The estimate, in (0, 1); 1 or 0 for a finished game."""
    if s[OUTCOME] != PLAYING:
        return 1.0 if s[OUTCOME] == S.O_WIN else 0.0
    strength = s[S.S_STRENGTH] / max(s[S.S_STR_LEN], 1)
    if s[S.S_PHASE] == 1:
        progress = 0.5 * s[S.S_PAGES_PLACED] / max(s[S.S_PAGE_TOTAL], 1)
    else:
        progress = 0.5 + 0.5 * s[S.S_SEALED] / S.N_PORTALS
    x = -1.0 + 4.0 * progress - 3.0 * strength
    return 1.0 / (1.0 + math.exp(-x))
