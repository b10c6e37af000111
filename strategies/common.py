"""Helpers any strategy may use: choices over a legal mask."""

from __future__ import annotations

from numba import njit

from simcore.kernels import first_legal, rng_int

__all__ = ["count_legal", "first_legal", "uniform_legal"]


@njit(cache=True, _nrt=False)
def count_legal(legal):
    n = 0
    for k in range(legal.shape[0]):
        if legal[k]:
            n += 1
    return n


@njit(cache=True, _nrt=False)
def uniform_legal(legal, rng):
    """A legal choice, uniformly at random (-1 when none is legal)."""
    n = count_legal(legal)
    if n == 0:
        return -1
    r = rng_int(rng, n)
    for k in range(legal.shape[0]):
        if legal[k]:
            if r == 0:
                return k
            r -= 1
    return -1
