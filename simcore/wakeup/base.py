"""Wake Up, Cthulhu!: the small helpers every rules module uses: bit tricks on the 64-bit words
that hold the Summoning Circle, the event log, the seat count, a frame's parent locals and the
shuffle of a row of cards."""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

from simcore.engine import DEPTH, FRAME_WIDTH, FRAMES, P_SEATS
from simcore.kernels import LOG_SIG, log_event, popcount, rng_int
from simcore.wakeup import state as S


@njit(LOG_SIG, cache=True, _nrt=False, forceinline=True)  # one version (kernels.LOG_SIG)
def log(ev, evn, code, a, b, c, d, e, f, g):
    """``kernels.log_event``, skipped at once (inline) in batch runs, whose event buffer has no
    rows: the rules log at almost every step."""
    if ev.shape[0] > 0:
        log_event(ev, evn, code, a, b, c, d, e, f, g)


NO_CARD = -1


@njit(cache=True, _nrt=False, forceinline=True)
def lowest(x):
    """Index of the lowest set bit of a positive int64."""
    return np.int64(trailing_zeros(x))


@njit(cache=True, _nrt=False, forceinline=True)
def highest(x):
    """Index of the highest set bit of a positive int64."""
    return np.int64(63 - leading_zeros(x))


@njit(cache=True, _nrt=False, forceinline=True)
def bits(x):
    return np.int64(popcount(x))


@njit(cache=True, _nrt=False, forceinline=True)
def seats_of(ip):
    return ip[P_SEATS]


@njit(cache=True, _nrt=False, forceinline=True)
def is_solo(ip):
    return ip[S.I_SOLO] == 1


@njit(cache=True, _nrt=False, forceinline=True)
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
