"""Sticky Cthulhu strategies: how a player handles Investigators, Curses and free targets.

Each reads only the decision view laid out in ``simcore.sticky.state`` (``V_*``).
"""

from __future__ import annotations

from numba import njit

from simcore.kernels import rng_uniform
from simcore.sticky.state import (
    A_DETACH,
    A_IGNORE,
    A_RESPECT,
    A_SHAKE,
    D_CURSE,
    D_INVESTIGATOR,
    D_TARGET,
    V_CAND,
    V_CATCH_P,
    V_KIND,
    V_LEADER_TOKENS,
    V_N_CAND,
    V_SEAT,
    V_TO_WIN,
)
from strategies.common import uniform_legal
from strategies.registry import Param, param_offsets, register

CHEATER_PARAMS = {
    "ignore_p": Param(1.0, 0.0, 1.0, "chance of ignoring an eligible Curse each turn"),
    "max_catch_p": Param(0.5, 0.0, 1.0, "ignore only Curses at most this likely to be caught"),
}
SPOILER_PARAMS = {
    "block_at": Param(1.0, 0.0, 100.0, "block when a rival needs at most this many tokens"),
}
_CHEATER = param_offsets(CHEATER_PARAMS)
IGNORE_P = _CHEATER["ignore_p"]
MAX_CATCH_P = _CHEATER["max_catch_p"]
BLOCK_AT = param_offsets(SPOILER_PARAMS)["block_at"]


@njit(cache=True)
def safest_candidate(view):
    """The candidate Creature farthest from any Investigator."""
    best = 0
    for c in range(1, int(view[V_N_CAND])):
        if view[V_CAND + c] > view[V_CAND + best]:
            best = c
    return best


@njit(cache=True)
def honest(view, legal, params, rng):
    """Respects every Curse, always shakes Investigators off, aims at the safest Creature."""
    kind = int(view[V_KIND])
    if kind == D_INVESTIGATOR:
        return A_SHAKE
    if kind == D_CURSE:
        return A_RESPECT
    if kind == D_TARGET:
        return safest_candidate(view)
    return 0


@njit(cache=True)
def cheater(view, legal, params, rng):
    """Like honest, but ignores a Curse (with chance ignore_p) when its catch chance is low."""
    kind = int(view[V_KIND])
    if kind == D_CURSE:
        if view[V_CATCH_P] <= params[MAX_CATCH_P] and rng_uniform(rng) < params[IGNORE_P]:
            return A_IGNORE
        return A_RESPECT
    return honest(view, legal, params, rng)


@njit(cache=True)
def spoiler(view, legal, params, rng):
    """Like honest, but detaches with an Investigator aboard (ending the turn, no token for
    anyone) when an opponent is within ``block_at`` tokens of winning."""
    kind = int(view[V_KIND])
    if kind == D_INVESTIGATOR:
        if view[V_TO_WIN] - view[V_LEADER_TOKENS] <= params[BLOCK_AT]:
            return A_DETACH
        return A_SHAKE
    return honest(view, legal, params, rng)


@njit(cache=True)
def random_choice(view, legal, params, rng):
    """Uniformly among the legal choices: the baseline and fuzzer."""
    return uniform_legal(legal, rng)


# by_seat: strategy.seat_0 .. seat_7 name each seat's strategy; the other strategies'
# parameters follow them in the vector, at these offsets
SEAT_STRATEGIES = ("honest", "cheater", "spoiler", "random")
N_SEAT_PARAMS = 8  # one per tentacle (simcore.sticky.state.MAX_SEATS)
CHEATER_AT = N_SEAT_PARAMS  # CHEATER_PARAMS
CHEATER_END = CHEATER_AT + len(CHEATER_PARAMS)
SPOILER_AT = CHEATER_END  # SPOILER_PARAMS
SPOILER_END = SPOILER_AT + len(SPOILER_PARAMS)


@njit(cache=True)
def by_seat(view, legal, params, rng):
    """Each seat plays its own strategy (strategy.seat_0 .. seat_7), to compare strategies
    at one table."""
    which = int(params[int(view[V_SEAT])])
    if which == 1:
        return cheater(view, legal, params[CHEATER_AT:CHEATER_END], rng)
    if which == 2:
        return spoiler(view, legal, params[SPOILER_AT:SPOILER_END], rng)
    if which == 3:
        return random_choice(view, legal, params, rng)
    return honest(view, legal, params, rng)


register("sticky", "honest", honest, description=honest.__doc__)
register("sticky", "cheater", cheater, CHEATER_PARAMS, description=cheater.__doc__)
register("sticky", "spoiler", spoiler, SPOILER_PARAMS, description=spoiler.__doc__)
register("sticky", "random", random_choice, description=random_choice.__doc__)
register(
    "sticky",
    "by_seat",
    by_seat,
    {
        **{f"seat_{s}": Param.choice("honest", SEAT_STRATEGIES, f"strategy of seat {s}")
           for s in range(N_SEAT_PARAMS)},
        **CHEATER_PARAMS,
        **SPOILER_PARAMS,
    },
    description=by_seat.__doc__,
)
