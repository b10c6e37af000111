"""Tiny Epic Cthulhu strategies.

Each is a jitted ``decide(st, legal, params, rng) -> choice`` that reads only the public state
``st`` (offsets in ``simcore.tec.state``) and the legal mask; ``st[S_DECISION]`` says which
decision is asked (D_*), ``st[S_CTX..]`` what it is about.
"""

from __future__ import annotations

from numba import njit

from strategies.common import uniform_legal
from strategies.registry import register


@njit(cache=True)
def random_choice(st, legal, params, rng):
    """Uniformly among the legal choices at every decision: the baseline and the fuzzer."""
    return uniform_legal(legal, rng)


register("tec", "random", random_choice, description=random_choice.__doc__)
