"""Shared jitted kernels: the random number generator, dice, bag draws, the spinner, look-ups.

Every playout owns one generator state (``RNG_WORDS`` uint64 words) seeded from
(seed, playout index) alone, so a playout's result never depends on which thread or batch
played it.  The generator is xoshiro256** (Blackman & Vigna), seeded through SplitMix64.
All arithmetic stays in uint64: mixing int64 and uint64 in numba silently promotes to float64.
"""

from __future__ import annotations

import math
import os

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic

from simcore import log_data

RNG_WORDS = 4

# ---- draw counting (``experiments.speed.rng_floor``) -----------------------------------------
# With CTHULHU_SIM_COUNT_DRAWS=1 in the environment, every raw output of the generator (both
# ``rng_next`` and the value-state ``rng_next_v``, which every draw goes through) adds one to a
# process-wide counter: an instrumented build, for counting the numbers a playout draws.  Its
# machine code differs from the normal build's, so it keeps its own numba cache folder (the
# folder's name must end in COUNT_CACHE_SUFFIX, checked below); experiments.speed.rng_floor runs
# it in a child process.  In the normal build ``_count_draw`` is an empty inline function that
# numba removes, so the generator's code is what it was.
COUNT_DRAWS = os.environ.get("CTHULHU_SIM_COUNT_DRAWS", "") == "1"
COUNT_CACHE_SUFFIX = "-count-draws"
DRAW_COUNTER_SYMBOL = "cthulhu_sim_draw_counter"

if COUNT_DRAWS:
    import numba
    from llvmlite import binding as _llvm

    if not str(numba.config.CACHE_DIR or "").rstrip("/").endswith(COUNT_CACHE_SUFFIX):
        raise RuntimeError(
            "the draw-counting build (CTHULHU_SIM_COUNT_DRAWS=1) needs its own numba cache "
            f"folder, named ...{COUNT_CACHE_SUFFIX} (NUMBA_CACHE_DIR); run it through "
            "experiments.speed.rng_floor")
    # the counter lives in this array; compiled code finds it by symbol name, so code loaded
    # from the (counting) cache in another process finds that process's array
    _DRAW_COUNTS = np.zeros(8, dtype=np.int64)
    _llvm.add_symbol(DRAW_COUNTER_SYMBOL, _DRAW_COUNTS.ctypes.data)

    @intrinsic
    def _count_draw_intrinsic(typingctx):
        def codegen(context, builder, signature, args):
            i64 = ir.IntType(64)
            gv = builder.module.globals.get(DRAW_COUNTER_SYMBOL)
            if gv is None:
                gv = ir.GlobalVariable(builder.module, i64, DRAW_COUNTER_SYMBOL)
                gv.linkage = "external"
            builder.atomic_rmw("add", gv, ir.Constant(i64, 1), "monotonic")
            return context.get_dummy_value()

        return types.void(), codegen

    @njit(cache=True, _nrt=False, forceinline=True)
    def _count_draw():
        _count_draw_intrinsic()

else:

    @njit(cache=True, _nrt=False, forceinline=True)
    def _count_draw():
        return None


def draws_counted() -> int:
    """Raw generator outputs drawn in this process so far (the counting build only)."""
    if not COUNT_DRAWS:
        raise RuntimeError("draws are counted only with CTHULHU_SIM_COUNT_DRAWS=1")
    return int(_DRAW_COUNTS[0])


def reset_draw_count() -> None:
    """Set the counter back to zero (the counting build only)."""
    if not COUNT_DRAWS:
        raise RuntimeError("draws are counted only with CTHULHU_SIM_COUNT_DRAWS=1")
    _DRAW_COUNTS[0] = 0

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_STREAM = np.uint64(0xD1B54A32D192ED03)
_U30 = np.uint64(30)
_U27 = np.uint64(27)
_U31 = np.uint64(31)
_U17 = np.uint64(17)
_U45 = np.uint64(45)
_U7 = np.uint64(7)
_U57 = np.uint64(57)
_U5 = np.uint64(5)
_U9 = np.uint64(9)
_U11 = np.uint64(11)
_U32 = np.uint64(32)
_U64 = np.uint64(64)
_LOW32 = np.uint64(0xFFFFFFFF)
_TWO32 = np.uint64(1) << np.uint64(32)
_INV53 = 1.0 / 9007199254740992.0  # 2**-53
_TWO_PI = 2.0 * math.pi


@njit(cache=True, _nrt=False)
def splitmix64(x):
    """One SplitMix64 output for input ``x`` (a pure hash: same input, same output)."""
    z = x + _GOLDEN
    z = (z ^ (z >> _U30)) * _MIX1
    z = (z ^ (z >> _U27)) * _MIX2
    return z ^ (z >> _U31)


@njit(cache=True, _nrt=False)
def rng_seed(state, seed, index):
    """Seed ``state`` for playout ``index`` of run ``seed`` (both non-negative integers)."""
    key = splitmix64(np.uint64(seed)) ^ (np.uint64(index) * _STREAM)
    for k in range(RNG_WORDS):
        key = splitmix64(key)
        state[k] = key
    # xoshiro must not start from all zeros; SplitMix64 outputs make that vanishingly rare.
    if state[0] == 0 and state[1] == 0 and state[2] == 0 and state[3] == 0:
        state[0] = _GOLDEN


@njit(cache=True, _nrt=False)
def _rotl(x, k):
    return (x << k) | (x >> (_U64 - k))


@njit(cache=True, _nrt=False)
def rng_next(state):
    """Next raw 64-bit output of xoshiro256**."""
    _count_draw()
    s0 = state[0]
    s1 = state[1]
    s2 = state[2]
    s3 = state[3]
    result = _rotl(s1 * _U5, _U7) * _U9
    t = s1 << _U17
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, _U45)
    state[0] = s0
    state[1] = s1
    state[2] = s2
    state[3] = s3
    return result


@njit(cache=True, _nrt=False)
def rng_uniform(state):
    """A float in [0, 1) with 53 random bits."""
    return float(rng_next(state) >> _U11) * _INV53


@njit(cache=True, _nrt=False)
def rng_int(state, n):
    """An integer uniform on [0, n), exactly (Lemire's method on 32 bits); n < 2**32."""
    return rng_int_inline(state, n)


@njit(cache=True, _nrt=False, forceinline=True)
def rng_int_inline(state, n):
    """``rng_int``, inlined where it is called (the same number): for the few hot places
    where a call passing the state array field by field costs more than the draw."""
    un = np.uint64(n)
    m = (rng_next(state) >> _U32) * un
    low = m & _LOW32
    if low < un:
        threshold = (_TWO32 - un) % un
        while low < threshold:
            m = (rng_next(state) >> _U32) * un
            low = m & _LOW32
    return np.int64(m >> _U32)


@njit(cache=True, _nrt=False)
def rng_bernoulli(state, p):
    """True with probability ``p``."""
    return rng_uniform(state) < p


@njit(cache=True, _nrt=False)
def rng_exponential(state, mean):
    """Exponential with the given mean."""
    return -mean * math.log(1.0 - rng_uniform(state))


@njit(cache=True, _nrt=False)
def rng_normal_pair(state):
    """Two independent standard normals (Box-Muller)."""
    r = math.sqrt(-2.0 * math.log(1.0 - rng_uniform(state)))
    theta = _TWO_PI * rng_uniform(state)
    return r * math.cos(theta), r * math.sin(theta)


@njit(cache=True, _nrt=False)
def rng_normal(state):
    """One standard normal."""
    z0, _ = rng_normal_pair(state)
    return z0


@njit(cache=True, _nrt=False)
def shuffle(state, a, n):
    """Fisher-Yates shuffle of the first ``n`` entries of ``a`` in place."""
    for i in range(n - 1, 0, -1):
        j = rng_int(state, i + 1)
        tmp = a[i]
        a[i] = a[j]
        a[j] = tmp


@njit(cache=True, _nrt=False)
def roll_die(state, faces):
    """Roll a die whose faces are listed in ``faces``; returns the face value."""
    return faces[rng_int(state, faces.shape[0])]


@njit(cache=True, _nrt=False, forceinline=True)
def first_legal(legal):
    """Index of the first non-zero entry of a legal-choice mask (-1 when none)."""
    for k in range(legal.shape[0]):
        if legal[k]:
            return k
    return -1


@njit(cache=True, _nrt=False, forceinline=True)
def bag_draw_at(state, counts, first, n):
    """``bag_draw`` on the bag held in ``counts[first:first + n]``, in place: a game keeps its
    bag inside its state array, and an inline draw there needs no slice and no call (both
    cost more than the draw)."""
    total = 0
    for k in range(n):
        total += counts[first + k]
    if total <= 0:
        return -1
    r = rng_int_inline(state, total)
    for k in range(n):
        c = counts[first + k]
        if r < c:
            counts[first + k] = c - 1
            return k
        r -= c
    return -1  # unreachable when counts are non-negative


@njit(cache=True, _nrt=False)
def bag_draw(state, counts):
    """Draw one piece from a bag holding ``counts[k]`` pieces of kind k, without replacement.

    Returns the kind drawn (and removes it from ``counts``), or -1 when the bag is empty.
    """
    return bag_draw_at(state, counts, 0, counts.shape[0])


@njit(cache=True, _nrt=False)
def spin(state, weights):
    """Index of the segment a fair spinner stops on; ``weights`` are segment arc sizes.

    A spinner that must make full turns and stops at a uniform angle lands on a segment with
    probability proportional to its arc; stopping exactly on a line has probability zero.
    """
    total = 0.0
    for k in range(weights.shape[0]):
        total += weights[k]
    r = rng_uniform(state) * total
    for k in range(weights.shape[0]):
        if r < weights[k]:
            return k
        r -= weights[k]
    return weights.shape[0] - 1


@njit(cache=True, _nrt=False)
def spin_uniform(state, n_segments):
    """Index of the segment a spinner with ``n_segments`` equal segments stops on."""
    return rng_int(state, n_segments)


@njit(cache=True, _nrt=False)
def table_lookup(table, row, col):
    """``table[row, col]`` with both indices clamped into the table (CRT-style look-up)."""
    r = min(max(row, 0), table.shape[0] - 1)
    c = min(max(col, 0), table.shape[1] - 1)
    return table[r, c]


@njit(cache=True, _nrt=False)
def max_of_dice(state, faces, n):
    """Highest face of ``n`` dice (0 when n == 0)."""
    best = 0
    for _ in range(n):
        v = roll_die(state, faces)
        if v > best:
            best = v
    return best


def new_rng(seed: int, index: int = 0) -> np.ndarray:
    """A seeded generator state for use from Python (tests, traces)."""
    state = np.empty(RNG_WORDS, dtype=np.uint64)
    rng_seed(state, seed, index)
    return state



# The event log's signatures are given, so its callers convert their arguments to int64: left
# to itself numba compiles it again for every mix of constants and variables a call site passes
# (38 versions in a Wake Up run, a tenth of its cold compile).  Both are tiny; they compile on
# import (loaded from the cache after the first time).
EVENT_ARGS = (types.int64,) * 8
LOG_SIG = types.void(types.int64[:, ::1], types.int64[::1], *EVENT_ARGS)  # a step game's log
LOG_EVENT_SIGS = [LOG_SIG, types.void(types.none, types.int64[::1], *EVENT_ARGS)]


@njit(LOG_EVENT_SIGS, cache=True, _nrt=False)
def log_event(ev, evn, code, a, b, c, d, e, f, g):
    """Append one trace event row (code, a..g) when tracing.  Batch runs pass ``ev=None``:
    numba then compiles every call away, so logging costs nothing in the hot loop."""
    if ev is None:
        return
    k = evn[0]
    if k < ev.shape[0]:
        ev[k, 0] = code
        ev[k, 1] = a
        ev[k, 2] = b
        ev[k, 3] = c
        ev[k, 4] = d
        ev[k, 5] = e
        ev[k, 6] = f
        ev[k, 7] = g
        evn[0] = k + 1


# ---- the same generator with its state held in a value -------------------------------------
# ``rng_load`` copies a state array into a tuple (s0, s1, s2, s3); the ``*_v`` kernels take and
# return that tuple, so a hot loop keeps the four words in registers instead of loading and
# storing the array on every draw (numba cannot tell that no other array aliases it).  They
# draw exactly the numbers their array counterparts draw; ``rng_save`` writes the state back.
@njit(cache=True, _nrt=False)
def rng_load(state):
    """The state array as a value."""
    return (state[0], state[1], state[2], state[3])


@njit(cache=True, _nrt=False)
def rng_save(state, st):
    """Write a state value back into its array."""
    state[0] = st[0]
    state[1] = st[1]
    state[2] = st[2]
    state[3] = st[3]


@njit(cache=True, _nrt=False)
def rng_next_v(st):
    """(next raw 64-bit output, new state): ``rng_next`` on a state value."""
    _count_draw()
    s0, s1, s2, s3 = st
    result = _rotl(s1 * _U5, _U7) * _U9
    t = s1 << _U17
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, _U45)
    return result, (s0, s1, s2, s3)


@njit(cache=True, _nrt=False)
def rng_uniform_v(st):
    """``rng_uniform`` on a state value: (u, new state)."""
    x, st = rng_next_v(st)
    return float(x >> _U11) * _INV53, st


@njit(cache=True, _nrt=False)
def rng_int_v(st, n):
    """``rng_int`` on a state value: (k, new state)."""
    un = np.uint64(n)
    x, st = rng_next_v(st)
    m = (x >> _U32) * un
    low = m & _LOW32
    if low < un:
        threshold = (_TWO32 - un) % un
        while low < threshold:
            x, st = rng_next_v(st)
            m = (x >> _U32) * un
            low = m & _LOW32
    return np.int64(m >> _U32), st




# ---- sine and cosine of an angle in [0, 2 pi], without a call into the C library ------------
# fdlibm's kernels (|error| < 1 ulp) after one Cody-Waite step of its argument reduction.  No
# branch depends on the angle, so a mispredicted branch never waits for it.
_INVPIO2 = 6.36619772367581382433e-01
_PIO2_1 = 1.57079632673412561417e+00  # first 33 bits of pi/2
_PIO2_1T = 6.07710050650619224932e-11  # pi/2 - _PIO2_1
_S1 = -1.66666666666666324348e-01
_S2 = 8.33333333332248946124e-03
_S3 = -1.98412698298579493134e-04
_S4 = 2.75573137070700676789e-06
_S5 = -2.50507602534068634195e-08
_S6 = 1.58969099521155010221e-10
_C1 = 4.16666666666666019037e-02
_C2 = -1.38888888888741095749e-03
_C3 = 2.48015872894767294178e-05
_C4 = -2.75573143513906633035e-07
_C5 = 2.08757232129817482790e-09
_C6 = -1.13596475577881948265e-11


@njit(cache=True, _nrt=False, forceinline=True)
def sincos_turn(x):
    """(sin x, cos x) for 0 <= x <= 2 pi (a full turn), within one ulp of the C library's
    values (within 1e-24 near their zeros, where one ulp is smaller)."""
    n = np.int64(x * _INVPIO2 + 0.5)
    fn = float(n)
    r = x - fn * _PIO2_1
    w = fn * _PIO2_1T
    y0 = r - w  # x - n pi/2 = y0 + y1, |y0| <= pi/4
    y1 = (r - y0) - w
    z = y0 * y0
    v = z * y0
    rs = _S2 + z * (_S3 + z * (_S4 + z * (_S5 + z * _S6)))
    ks = y0 - ((z * (0.5 * y1 - v * rs) - y1) - v * _S1)
    rc = z * (_C1 + z * (_C2 + z * (_C3 + z * (_C4 + z * (_C5 + z * _C6)))))
    # cos y0 = (1 - qx) - ((z/2 - qx) - (z rc - y0 y1)), qx chosen for accuracy (fdlibm)
    ay = abs(y0)
    qx = 0.0
    if ay >= 0.3:
        qx = 0.28125 if ay > 0.78125 else 0.25 * ay
    kc = (1.0 - qx) - ((0.5 * z - qx) - (z * rc - y0 * y1))
    q = n & 3
    s = kc if q & 1 else ks
    c = ks if q & 1 else kc
    s = -s if q & 2 else s
    c = -c if (q + 1) & 2 else c
    return s, c


# ---- the C library's natural logarithm, mostly inline --------------------------------------
@intrinsic
def fma(typingctx, a, b, c):
    """a * b + c rounded once (llvm.fma: one instruction where the CPU has FMA)."""
    sig = types.float64(types.float64, types.float64, types.float64)

    def codegen(context, builder, signature, args):
        d = ir.DoubleType()
        fn = builder.module.declare_intrinsic("llvm.fma", [d], ir.FunctionType(d, [d, d, d]))
        return builder.call(fn, args)

    return sig, codegen


@intrinsic
def float_bits(typingctx, x):
    """The bit pattern of a float64, as a uint64."""
    sig = types.uint64(types.float64)

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.IntType(64))

    return sig, codegen


@intrinsic
def bits_float(typingctx, b):
    """The float64 with bit pattern ``b`` (a uint64)."""
    sig = types.float64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.DoubleType())

    return sig, codegen


_LOG_TAB = log_data.as_floats(log_data.TAB_BITS)
_LN2HI = float(log_data.as_floats((log_data.LN2HI_BITS,))[0])
_LN2LO = float(log_data.as_floats((log_data.LN2LO_BITS,))[0])
_A0, _A1, _A2, _A3, _A4 = (float(v) for v in log_data.as_floats(log_data.POLY_BITS))
_LOG_OFF = np.uint64(0x3FE6000000000000)
_LOG_NEAR_LO = np.uint64(0x3FEE000000000000)  # 1 - 2^-4
_LOG_NEAR_SPAN = np.uint64(0x3FF1090000000000 - 0x3FEE000000000000)  # to 1 + 0x1.09p-4
_EXP_MASK = np.uint64(0xFFF0000000000000)
_U44 = np.uint64(44)
_U48 = np.uint64(48)
_U0XFE = np.uint64(0xFE)
_U0X10 = np.uint64(0x10)
_U0X7FE0 = np.uint64(0x7FE0)


@njit(cache=True, _nrt=False, forceinline=True)
def log_libm(x):
    """math.log(x), bit for bit what glibc (2.28 and later) returns on a CPU with FMA.  Its
    table formula, used for x outside [1 - 2^-4, 1 + 0x1.09p-4], is evaluated inline with
    the same constants and the same fused multiply-adds; close to 1, and for zero, negative,
    subnormal, infinite or nan x, the C library is called."""
    ix = float_bits(x)
    if (ix - _LOG_NEAR_LO < _LOG_NEAR_SPAN) | ((ix >> _U48) - _U0X10 >= _U0X7FE0):
        return math.log(x)
    # x = 2^k z, z in [0x1.6p-1, 0x1.6p0); log(x) = k ln 2 + log(c) + log1p(z / c - 1)
    tmp = ix - _LOG_OFF
    i = (tmp >> _U44) & _U0XFE  # 2 * subinterval
    kd = float(np.int64(tmp) >> 52)
    z = bits_float(ix - (tmp & _EXP_MASK))
    w = fma(kd, _LN2HI, _LOG_TAB[i + np.uint64(1)])
    r = fma(z, _LOG_TAB[i], -1.0)
    hi = r + w
    lo = fma(kd, _LN2LO, (w - hi) + r)
    r2 = r * r
    p = fma(fma(r, _A4, _A3), r2, fma(r, _A2, _A1))
    return fma(r * r2, p, fma(r2, _A0, lo)) + hi


@njit(cache=True, _nrt=False)
def rng_exponential_v(st, mean):
    """``rng_exponential`` on a state value: (x, new state); the same numbers."""
    u, st = rng_uniform_v(st)
    return -mean * log_libm(1.0 - u), st


# ---- bit sets in 64-bit words ---------------------------------------------------------------
@intrinsic
def popcount(typingctx, x):
    """Set bits of an unsigned integer (LLVM's ctpop: one instruction)."""
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return x(x), codegen


@njit(cache=True, _nrt=False, forceinline=True)
def lowest_bit(x):
    """Index of the lowest set bit of a non-zero uint64."""
    return np.int64(trailing_zeros(x))


@njit(cache=True, _nrt=False, forceinline=True)
def nth_set_bit(x, r):
    """Index of the r-th set bit (from 0, lowest first) of a uint64 with more than r set: the
    lower r cleared, no branch per bit."""
    for _ in range(r):
        x &= x - np.uint64(1)
    return np.int64(trailing_zeros(x))


# ---- choices over a legal mask (strategies.common re-exports them) -----------------------------
@njit(cache=True, _nrt=False)
def count_legal(legal):
    n = 0
    for k in range(legal.shape[0]):
        if legal[k]:
            n += 1
    return n


@njit(cache=True, _nrt=False, forceinline=True)
def legal_bits(legal):
    """The legal mask (at most 64 entries) as the bits of one integer; the loop vectorises."""
    m = np.uint64(0)
    for k in range(legal.shape[0]):
        m |= np.uint64(legal[k] != 0) << np.uint64(k)
    return m


@njit(cache=True, _nrt=False, forceinline=True)
def uniform_legal(legal, rng):
    """A legal choice, uniformly at random (-1 when none is legal): the r-th legal index for
    r uniform below their number.  Masks of up to 64 entries are handled as bits, with no
    branch per entry (which choices are legal is hard to predict).  The step engine's driver
    plays a uniform strategy with it inline (``engine.UNIFORM``)."""
    if legal.shape[0] <= 64:
        m = legal_bits(legal)
        n = popcount(m)
        if n == 0:
            return -1
        return nth_set_bit(m, rng_int_inline(rng, np.int64(n)))
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
