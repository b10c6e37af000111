"""Helpers any strategy may use: choices over a legal mask."""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from simcore.kernels import first_legal, rng_int
from simcore.kernels import popcount as _popcount

__all__ = ["count_legal", "first_legal", "uniform_legal"]


@njit(cache=True, _nrt=False)
def count_legal(legal):
    n = 0
    for k in range(legal.shape[0]):
        if legal[k]:
            n += 1
    return n


@njit(cache=True, _nrt=False, inline="always")
def legal_bits(legal):
    """The legal mask (at most 64 entries) as the bits of one integer; the loop vectorises."""
    m = np.uint64(0)
    for k in range(legal.shape[0]):
        m |= np.uint64(legal[k] != 0) << np.uint64(k)
    return m


@njit(cache=True, _nrt=False, inline="always")
def uniform_legal(legal, rng):
    """A legal choice, uniformly at random (-1 when none is legal): the r-th legal index for
    r uniform below their number.  Masks of up to 64 entries are handled as bits, with no
    branch per entry (which choices are legal is hard to predict)."""
    if legal.shape[0] <= 64:
        m = legal_bits(legal)
        n = _popcount(m)
        if n == 0:
            return -1
        r = rng_int(rng, np.int64(n))
        for _ in range(r):
            m &= m - np.uint64(1)
        return np.int64(trailing_zeros(m))
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
