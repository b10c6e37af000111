"""Cthulhu Boardgame (hex wargame) strategies: policies of the step engine.

Each is a jitted ``policy(ip, fp, s, view, mask, params, rng) -> action``
(``simcore.engine.POLICY``): it reads the rules ``ip`` and the public state ``s`` by the names
of ``simcore.hex.state`` and answers the decision ``s[DECISION]`` with a legal action.

The heuristic plays both sides with one plan: runners go for the nearest Artefact and bring it
home, fighters hunt enemy carriers and escort their own, everyone keeps out of reach of enemies
that could kill them (as much as ``caution`` says), and combat is focused fire by the CRT's
odds on the most valuable target.  Its parameters change its style.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.arrayobj import make_array, populate_array

from simcore.engine import DECISION, SEAT, frame_get
from simcore.hex import state as S
from simcore.hex.rules import neighbours_of, reach, targets_of
from simcore.kernels import lowest_bit, rng_uniform
from strategies.common import first_legal, uniform_legal
from strategies.registry import Param, param_offsets, register

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
NEG = -1e18
DANGER_MEMO = (S.MAX_CRT_ROWS + 1) * S.MAX_HEX  # danger by (defence, hex) within a context


@njit(cache=True)
def random_policy(ip, fp, s, view, mask, params, rng):
    """Uniformly among the legal choices: the baseline and fuzzer."""
    return uniform_legal(mask, rng)


HEURISTIC_PARAMS = {
    "aggression": Param(0.5, 0.0, 1.0, "how hard fighters hunt enemy carriers and close in "
                        "(0: only Artefacts matter, 1: every fight is sought)"),
    "caution": Param(0.5, 0.0, 2.0, "how much a counter avoids hexes enemies can reach and "
                     "attack next turn (0: ignores danger)"),
    "escort": Param(0.5, 0.0, 2.0, "how much a counter without a job stays beside its own "
                    "carriers"),
    "min_gain": Param(0.25, 0.0, 10.0, "a counter moves only when its best hex beats staying "
                      "by this much"),
    "leave_home": Param(1.0, 0.0, 1.0, "1: a carrier on its own base line leaves its Artefact "
                        "there and goes for another; 0: it stays on it while any other is out"),
    "setup_noise": Param(4.0, 0.0, 50.0, "a random amount (uniform, 0 to this, from the "
                         "strategy's own stream) added to each setup placement's value, so "
                         "placements about as good fall at random (an Artefact row nearer "
                         "home is worth 10, a column nearer the middle 1, an Undergrowth "
                         "beside an Artefact 3 or 4); 0: the same setup every game"),
    "tie_noise": Param(0.02, 0.0, 5.0, "a random amount (0 to this) added to the value of "
                       "each entry hex, move, counter to move and target, so choices within "
                       "it of the best fall at random (a step nearer an Artefact is worth "
                       "2.5); 0: ties go to the first"),
}
_P = param_offsets(HEURISTIC_PARAMS)
AGGRESSION = _P["aggression"]
CAUTION = _P["caution"]
ESCORT = _P["escort"]
MIN_GAIN = _P["min_gain"]
LEAVE_HOME = _P["leave_home"]
SETUP_NOISE = _P["setup_noise"]
TIE_NOISE = _P["tie_noise"]

W_HOME = 10.0  # a carrier's worth of one row nearer home
W_ARRIVE = 40.0  # a carrier reaching its base line
W_GRAB = 12.0  # standing on a free Artefact (taken up next turn)
W_APPROACH = 2.5  # a hex nearer the nearest Artefact still to fetch
W_HUNT = 3.0  # a hex nearer an enemy carrier (times aggression)
W_DANGER = 8.0  # one enemy able to kill here next turn (times caution, by the kill chance)
W_CLEAR = 3.0  # standing where a friend carrying an Artefact may want to pass


# ---- what a policy needs to know about the board ------------------------------------------
@njit(cache=True, _nrt=False, forceinline=True)
def dist(ip, a, b):
    return ip[S.I_DIST + a * S.MAX_HEX + b]


@njit(cache=True, _nrt=False, forceinline=True)
def steps_home(ip, s, side, h):
    """Steps from hex ``h`` to ``side``'s base line around the Undergrowth (the rules count
    them when setup ends); a hex cut off counts as very far."""
    k = s[S.S_HOME_STEPS + side * S.MAX_HEX + h]
    return k if k >= 0 else 4 * S.MAX_HEX


@njit(cache=True, _nrt=False)
def rows_from_home(ip, side, h):
    """Rows between hex ``h`` and ``side``'s base line (0 on it): the steps a carrier needs on
    an open board (setup, before the Undergrowth is down)."""
    r = h // ip[S.I_COLS]
    bottom = (ip[S.I_GOOD_AT_BOTTOM] == 1) == (side == 0)
    base = ip[S.I_BASE_ROWS]
    if bottom:
        return max(ip[S.I_ROWS] - base - r, 0)
    return max(r - (base - 1), 0)


@njit(cache=True, _nrt=False, forceinline=True)
def on_base(ip, side, h):
    k = S.I_BASE_BITS + 2 * side + (h >> 6)
    return (np.uint64(ip[k]) >> np.uint64(h & 63)) & _ONE != _ZERO


@njit(cache=True, _nrt=False, forceinline=True)
def kill_chance(ip, att, defence):
    need = ip[S.I_CRT + (defence - 1) * S.MAX_CRT_COLS + att - 1]
    faces = ip[S.I_DIE_FACES]
    return max(faces - need + 1, 0) / faces


@njit(cache=True, _nrt=False, forceinline=True)
def noise(amount, rng):
    """A random amount from 0 to ``amount`` (no draw when it is 0: the stream is untouched)."""
    return amount * rng_uniform(rng) if amount > 0.0 else 0.0


@njit(cache=True, _nrt=False)
def danger(ip, s, side, c, x):
    """The chance an enemy kills ``c`` at hex ``x`` next turn, roughly: every enemy on the
    board that could move and attack there, combined as independent tries."""
    survive = 1.0
    d = ip[S.I_C_DEFENCE + c]
    for e in range(ip[S.I_N_COUNTERS]):
        if ip[S.I_C_SIDE + e] == side or s[S.S_C_STATUS + e] != S.CS_ON_BOARD:
            continue
        reach_e = ip[S.I_C_RANGE + e] + (0 if s[S.S_C_LOCKED + e] == 1 else ip[S.I_C_MOVE + e])
        if dist(ip, s[S.S_C_POS + e], x) <= reach_e:
            survive *= 1.0 - kill_chance(ip, ip[S.I_C_ATTACK + e], d)
    return 1.0 - survive


FIELD_MAX = 15  # walking distances are held in four bit-planes: 0 .. 15 steps, 15 = far
FIELD_WORDS = 10  # the reached set and the four planes, two words each


@njit(cache=True, _nrt=False)
def fetch_field(ip, s, side):
    """Walking steps (around the Undergrowth; counters move, so they are ignored) from every
    hex to the nearest Artefact ``side`` still has to fetch: not on its base line and not
    carried by one of its counters.  A hex's steps are held across four bit-planes and a
    reached set, all plain words (no array is made): read them with ``field_steps``."""
    f0 = _ZERO
    f1 = _ZERO
    for a in range(ip[S.I_N_ARTEFACTS]):
        h = s[S.S_A_HEX + a]
        if h < 0 or on_base(ip, side, h):
            continue
        carrier = s[S.S_A_CARRIER + a] - 1
        if carrier >= 0 and ip[S.I_C_SIDE + carrier] == side:
            continue
        if h < 64:
            f0 |= _ONE << np.uint64(h)
        else:
            f1 |= _ONE << np.uint64(h - 64)
    open0 = np.uint64(ip[S.I_BOARD_BITS]) & ~np.uint64(s[S.S_UG_BITS])
    open1 = np.uint64(ip[S.I_BOARD_BITS + 1]) & ~np.uint64(s[S.S_UG_BITS + 1])
    seen0, seen1 = f0, f1
    p00 = p01 = p10 = p11 = p20 = p21 = p30 = p31 = _ZERO
    k = 0
    while f0 != _ZERO or f1 != _ZERO:
        kk = min(k, FIELD_MAX)
        if kk & 1:
            p00 |= f0
            p01 |= f1
        if kk & 2:
            p10 |= f0
            p11 |= f1
        if kk & 4:
            p20 |= f0
            p21 |= f1
        if kk & 8:
            p30 |= f0
            p31 |= f1
        n0, n1 = neighbours_of(ip, f0, f1)
        f0 = n0 & open0 & ~seen0
        f1 = n1 & open1 & ~seen1
        seen0 |= f0
        seen1 |= f1
        k += 1
    return (seen0, seen1, p00, p01, p10, p11, p20, p21, p30, p31)


@njit(cache=True, _nrt=False, forceinline=True)
def field_steps(field, x):
    """Steps from hex ``x`` in a ``fetch_field`` (-1: no Artefact to fetch can be reached)."""
    w = x >> 6
    b = np.uint64(x & 63)
    if (field[w] >> b) & _ONE == _ZERO:
        return -1
    return np.int64(((field[2 + w] >> b) & _ONE) | (((field[4 + w] >> b) & _ONE) << _ONE)
                    | (((field[6 + w] >> b) & _ONE) << np.uint64(2))
                    | (((field[8 + w] >> b) & _ONE) << np.uint64(3)))


@njit(cache=True, _nrt=False, forceinline=True)
def field_steps_at(words, k, x):
    """``field_steps`` of a field kept as int64 words ``words[k:k + FIELD_WORDS]``."""
    w = x >> 6
    b = x & 63
    if (words[k + w] >> b) & 1 == 0:
        return -1
    return ((words[k + 2 + w] >> b) & 1) | (((words[k + 4 + w] >> b) & 1) << 1) \
        | (((words[k + 6 + w] >> b) & 1) << 2) | (((words[k + 8 + w] >> b) & 1) << 3)


# ---- a decision's context: worked out once, read for every counter and hex it weighs -------
# The heuristic's values are sums over the enemies on the board, the Artefacts and the
# friends carrying one; a move decision weighs some 20 to 60 (counter, hex) pairs, so these
# lists are made once per decision (in order, so every sum adds the same terms in the same
# order as a loop over all counters would: the values, and so the choices, are the same to
# the last bit), in two buffers (no allocation): in the view, kept with the turn memo below
# for the decisions after it while the memo's key holds, or on the stack of ``plan``.
@intrinsic
def stack_empty(typingctx, n, dtype):
    """An uninitialised 1-d array of ``n`` (a constant) ``dtype`` on the caller's stack: free
    to make, valid until the caller returns (numba's own arrays are allocated on the heap,
    which costs more than a cheap decision)."""
    if not isinstance(n, types.IntegerLiteral):
        return None
    size = n.literal_value
    dt = dtype.dtype
    arrty = types.Array(dt, 1, "C")

    def codegen(context, builder, sig, args):
        ptr = cgutils.alloca_once(builder, context.get_value_type(dt), size=size)
        ary = make_array(arrty)(context, builder)
        nbytes = context.get_abi_sizeof(context.get_value_type(dt))
        item = context.get_constant(types.intp, nbytes)
        populate_array(ary, data=ptr, shape=[context.get_constant(types.intp, size)],
                       strides=[item], itemsize=item, meminfo=None)
        return ary._getvalue()

    return arrty(n, dtype), codegen


@intrinsic
def sub_words(typingctx, arr, offset, n, dtype):
    """Words ``offset`` to ``offset + n`` of the int64 array ``arr`` as a 1-d array of an
    8-byte ``dtype``, with no reference of its own (no reference counting): valid while ``arr``
    is, as a slice of it would be.  The heuristic's context lives in the view this way."""
    dt = dtype.dtype
    arrty = types.Array(dt, 1, "C")
    if arr != types.Array(types.int64, 1, "C") or \
            not isinstance(dt, (types.Integer, types.Float)) or dt.bitwidth != 64:
        return None

    def codegen(context, builder, sig, args):
        whole = make_array(sig.args[0])(context, builder, args[0])
        first = builder.gep(whole.data, [args[1]])
        ptr = builder.bitcast(first, context.get_value_type(dt).as_pointer())
        ary = make_array(arrty)(context, builder)
        item = context.get_constant(types.intp, 8)
        populate_array(ary, data=ptr, shape=[args[2]], strides=[item], itemsize=item,
                       meminfo=None)
        return ary._getvalue()

    return arrty(arr, types.intp, types.intp, dtype), codegen


_MC = S.MAX_COUNTERS
_MA = S.MAX_ARTEFACTS
X_N_EN = 0  # enemies on the board, in counter order:
X_EN_POS = 1  # their hexes
X_EN_REACH = X_EN_POS + _MC  # how far they strike next turn (move unless locked, plus range)
X_EN_ATT = X_EN_REACH + _MC
X_EN_DEF = X_EN_ATT + _MC
X_EN_BALL = X_EN_DEF + _MC  # the hexes each strikes: two words an enemy
X_EN_ANY = X_EN_BALL + 2 * _MC  # the hexes any strikes (two words)
X_N_FC = X_EN_ANY + 2  # friends carrying an Artefact, in Artefact order:
X_FC_C = X_N_FC + 1  # the counter
X_FC_POS = X_FC_C + _MA
X_FC_MOVE = X_FC_POS + _MA
X_FC_HOME = X_FC_MOVE + _MA  # its steps home
X_FC_ZONE = X_FC_HOME + _MA  # the hexes it may move to or through: two words a carrier
X_FC_NEAR = X_FC_ZONE + 2 * _MA  # the hexes beside it: two words a carrier
X_N_RA = X_FC_NEAR + 2 * _MA  # Artefacts out and not a friend's, in order:
X_RA_HEX = X_N_RA + 1
X_RA_HUNT = X_RA_HEX + _MA  # 1: an enemy carries it
X_KILL_OK = X_RA_HUNT + _MA  # bits of the kill chances worked out (below)
X_MEMO_OK = X_KILL_OK + 1  # bits of the danger memo worked out: two words a defence
X_FIELD = X_MEMO_OK + 2 * (S.MAX_CRT_ROWS + 1)  # the side's ``fetch_field`` (ten words)
X_READY = X_FIELD + FIELD_WORDS  # 1: the words above are made (``prepare``)
X_SIZE = X_READY + 1
KILL_ROW = S.MAX_CRT_ROWS + 1
F_KILL = 0  # float words: kill chances [attack * KILL_ROW + defence], worked out when needed
F_MEMO = F_KILL + (S.MAX_CRT_COLS + 1) * KILL_ROW  # danger [defence * MAX_HEX + hex]
F_VALS = F_MEMO + DANGER_MEMO  # the hex values weighed in this decision [hex]
F_SIZE = F_VALS + S.MAX_HEX

@intrinsic
def f64_bits(typingctx, x):
    """The bits of a float64 as an int64 (the memo keeps floats in the int64 view)."""
    if x != types.float64:
        return None

    def codegen(context, builder, sig, args):
        return builder.bitcast(args[0], ir.IntType(64))

    return types.int64(types.float64), codegen


@intrinsic
def bits_f64(typingctx, x):
    """The float64 whose bits ``f64_bits`` gave."""
    if x != types.int64:
        return None

    def codegen(context, builder, sig, args):
        return builder.bitcast(args[0], ir.DoubleType())

    return types.float64(types.int64), codegen


@njit(cache=True, _nrt=False)
def ball(ip, h, r, out, k):
    """The hexes within ``r`` steps of hex ``h`` (``dist`` <= r) into ``out[k], out[k + 1]``."""
    if r <= S.MAX_BALL:
        i = S.I_BALL_BITS + (h * (S.MAX_BALL + 1) + max(r, 0)) * 2
        out[k] = ip[i] if r >= 0 else 0
        out[k + 1] = ip[i + 1] if r >= 0 else 0
        return
    w0 = np.int64(0)
    w1 = np.int64(0)
    for g in range(ip[S.I_N_HEX]):
        if dist(ip, h, g) <= r:
            if g < 64:
                w0 |= np.int64(1) << g
            else:
                w1 |= np.int64(1) << (g - 64)
    out[k] = w0
    out[k + 1] = w1


@njit(cache=True, _nrt=False, forceinline=True)
def has(ctx, k, x):
    """Is hex ``x`` in the set of words ``ctx[k], ctx[k + 1]``?"""
    return (ctx[k + (x >> 6)] >> (x & 63)) & 1 == 1


@njit(cache=True, _nrt=False)
def context(ip, s, side, ctx):
    """Fill ``ctx`` (``X_*``) for a decision of ``side``."""
    n = 0
    ctx[X_EN_ANY] = 0
    ctx[X_EN_ANY + 1] = 0
    for e in range(ip[S.I_N_COUNTERS]):
        if ip[S.I_C_SIDE + e] == side or s[S.S_C_STATUS + e] != S.CS_ON_BOARD:
            continue
        ctx[X_EN_POS + n] = s[S.S_C_POS + e]
        ctx[X_EN_REACH + n] = ip[S.I_C_RANGE + e] + (
            0 if s[S.S_C_LOCKED + e] == 1 else ip[S.I_C_MOVE + e])
        ctx[X_EN_ATT + n] = ip[S.I_C_ATTACK + e]
        ctx[X_EN_DEF + n] = ip[S.I_C_DEFENCE + e]
        ball(ip, ctx[X_EN_POS + n], ctx[X_EN_REACH + n], ctx, X_EN_BALL + 2 * n)
        ctx[X_EN_ANY] |= ctx[X_EN_BALL + 2 * n]
        ctx[X_EN_ANY + 1] |= ctx[X_EN_BALL + 2 * n + 1]
        n += 1
    ctx[X_N_EN] = n
    nf = 0
    nr = 0
    for a in range(ip[S.I_N_ARTEFACTS]):
        h = s[S.S_A_HEX + a]
        carrier = s[S.S_A_CARRIER + a] - 1
        friend = carrier >= 0 and ip[S.I_C_SIDE + carrier] == side
        if friend:
            cx = s[S.S_C_POS + carrier]
            ctx[X_FC_C + nf] = carrier
            ctx[X_FC_POS + nf] = cx
            ctx[X_FC_MOVE + nf] = ip[S.I_C_MOVE + carrier]
            ctx[X_FC_HOME + nf] = steps_home(ip, s, side, cx)
            ball(ip, cx, ip[S.I_C_MOVE + carrier], ctx, X_FC_ZONE + 2 * nf)
            ctx[X_FC_NEAR + 2 * nf] = ip[S.I_NB_BITS + 2 * cx]
            ctx[X_FC_NEAR + 2 * nf + 1] = ip[S.I_NB_BITS + 2 * cx + 1]
            nf += 1
        elif h >= 0 and not on_base(ip, side, h):
            ctx[X_RA_HEX + nr] = h
            ctx[X_RA_HUNT + nr] = 1 if carrier >= 0 else 0
            nr += 1
    ctx[X_N_FC] = nf
    ctx[X_N_RA] = nr
    ctx[X_KILL_OK] = 0
    for k in range(2 * (S.MAX_CRT_ROWS + 1)):
        ctx[X_MEMO_OK + k] = 0


@njit(cache=True, _nrt=False, forceinline=True)
def kill_seen(ip, ctx, fx, att, defence):
    """``kill_chance`` through the decision's table (the same division, made once)."""
    k = att * KILL_ROW + defence
    if (ctx[X_KILL_OK] >> k) & 1 == 0:
        fx[F_KILL + k] = kill_chance(ip, att, defence)
        ctx[X_KILL_OK] |= np.int64(1) << k
    return fx[F_KILL + k]


@njit(cache=True, _nrt=False, forceinline=True)
def danger_of(ip, ctx, fx, defence, x):
    """``danger`` from the decision's list of enemies (the same product, in the same order)."""
    if not has(ctx, X_EN_ANY, x):
        return 0.0  # (1.0 - 1.0)
    survive = 1.0
    for k in range(ctx[X_N_EN]):
        if has(ctx, X_EN_BALL + 2 * k, x):  # dist(enemy, x) <= its reach
            survive *= 1.0 - kill_seen(ip, ctx, fx, ctx[X_EN_ATT + k], defence)
    return 1.0 - survive


@njit(cache=True, _nrt=False, forceinline=True)
def danger_memo(ip, ctx, fx, defence, x):
    """``danger_of`` remembered for the decision: the danger to a counter depends on it only
    by its defence, and several counters weigh the same hexes."""
    b = X_MEMO_OK + 2 * defence + (x >> 6)
    bit = np.int64(1) << (x & 63)
    k = F_MEMO + defence * S.MAX_HEX + x
    if ctx[b] & bit == 0:
        fx[k] = danger_of(ip, ctx, fx, defence, x)
        ctx[b] |= bit
    return fx[k]


@njit(cache=True, _nrt=False, forceinline=True)
def hex_value(ip, s, params, side, c, x, carrying, ctx, fx):
    """How good hex ``x`` is for counter ``c`` (higher is better); ``ctx`` and ``fx`` are the
    side's ``prepare``d context (``fetch_field`` included), which also keeps the danger of
    each hex for the other counters weighed with it."""
    v = 0.0
    if carrying:
        v -= W_HOME * steps_home(ip, s, side, x)
        if on_base(ip, side, x):
            v += W_ARRIVE
    else:
        att = ip[S.I_C_ATTACK + c]
        for k in range(ctx[X_N_RA]):
            h = ctx[X_RA_HEX + k]
            if ctx[X_RA_HUNT + k] == 1:  # hunt the enemy carrier
                v -= W_HUNT * params[AGGRESSION] * att * dist(ip, x, h)
            elif h == x:
                v += W_GRAB
        steps = field_steps_at(ctx, X_FIELD, x)
        if steps >= 0:
            v -= W_APPROACH * steps
        nf = ctx[X_N_FC]
        if nf > 0:
            hx = steps_home(ip, s, side, x)
            # out of the way of a friend carrying an Artefact home
            for k in range(nf):
                if ctx[X_FC_C + k] != c and has(ctx, X_FC_ZONE + 2 * k, x) and \
                        hx < ctx[X_FC_HOME + k]:
                    v -= W_CLEAR
            if params[ESCORT] > 0.0:
                for k in range(nf):
                    # beside it, but never in front of it, where it would bar the way home
                    if ctx[X_FC_C + k] != c and has(ctx, X_FC_NEAR + 2 * k, x) and \
                            hx >= ctx[X_FC_HOME + k]:
                        v += params[ESCORT]
        # a shot from here next turn, for counters that have a range
        rc = ip[S.I_C_RANGE + c]
        if rc >= 1 and params[AGGRESSION] > 0.0:
            for k in range(ctx[X_N_EN]):
                dd = dist(ip, x, ctx[X_EN_POS + k])
                if 1 <= dd <= rc:
                    v += params[AGGRESSION] * kill_seen(ip, ctx, fx, att, ctx[X_EN_DEF + k])
                    break
    # an enemy in the hex means a melee next turn: worth it by the odds, times aggression
    enemy = (s[S.S_H_BAD + x] if side == 0 else s[S.S_H_GOOD + x]) - 1
    if enemy >= 0:
        p = kill_seen(ip, ctx, fx, ip[S.I_C_ATTACK + c], ip[S.I_C_DEFENCE + enemy])
        worth = ip[S.I_C_ATTACK + enemy] + ip[S.I_C_DEFENCE + enemy]
        if s[S.S_C_CARRY + enemy] > 0:
            worth += 10.0
        v += params[AGGRESSION] * p * worth
    d = ip[S.I_C_DEFENCE + c]
    dg = danger_memo(ip, ctx, fx, d, x)
    v -= params[CAUTION] * W_DANGER * dg * (3.0 if carrying else 1.0)
    return v


# ---- the turn memo: what a side's move decisions have weighed, kept while it still holds ----
# A side moves its counters one at a time: "which counter moves" weighs every counter that may
# still move, "where" weighs the chosen one's hexes again, and the next pick weighs the rest
# again.  A hex's value for a counter is made only of the words below (the key): the enemies
# (position, status, locked, carrying), the Artefacts (hex and carrier), the friends carrying
# one (position), the Undergrowth, the side and the parameters; not where the friends
# carrying nothing stand (they change only which hexes a counter may reach, and ``reach`` is
# asked every time).  So the view keeps, for one key at a time: the side's context
# (``prepare``: the field, the enemies, the danger memo) and, for each counter, the values of
# the hexes weighed for it and of the hex it stands in.  A decision compares the key with its
# state: when every word is the same it reads back what is kept and weighs only hexes new to
# a counter's reach; otherwise it writes the key and starts a new generation (the slots of
# older ones are not read).  The noise is drawn as before, one draw a hex in the same order,
# so every answer and the stream after it are the same as without the memo.  The memo lives
# in the view (the hex game has nothing hidden: its ``observe`` writes no word of it, and the
# loader makes the view ``state.VIEW_WORDS`` long); a view too short for it (a caller's own)
# leaves it unused.  The answer never depends on what the view held before: a key that
# differs from the state in any word is rewritten, never read.  (The rules, ``ip``, are not
# in the key: a view serves one configuration, as the engine's views do, one set a run.)
MAX_SP = 16  # strategy parameters kept in the key (more: no memo)
T_VALID = 0  # 1: the words below are a key
T_GEN = 1  # its generation (1, 2, ...)
T_NP = 2  # how many parameters
T_PARAMS = T_NP + 1  # their bits
T_SIDE = T_PARAMS + MAX_SP  # the deciding side,
T_UG = T_SIDE + 1  # the Undergrowth (two words),
T_CS = T_UG + 2  # each counter: position, status, locked, carrying (a friend: only its
T_AS = T_CS + 4 * _MC  # carrying, and its position when it carries); each Artefact: hex, carrier
T_SLOTS = T_AS + 2 * _MA  # a slot a counter:
SL_GEN = 0  # the generation its words belong to
SL_LEAVE = 1  # the leave they were weighed with
SL_HERE = 2  # the hex of the stay value below (-1: none)
SL_STAY = 3  # the value of staying there (float bits)
SL_LO = 4  # the hexes whose values are kept (two words)
SL_HI = 5
SL_VALS = 6  # their values (float bits, by hex)
SL_W = SL_VALS + S.MAX_HEX
T_CTX = T_SLOTS + _MC * SL_W  # the generation's context (X_*)
T_FX = T_CTX + X_SIZE  # and its float words (F_*)
T_SIZE = T_FX + F_SIZE
assert T_SIZE <= S.VIEW_WORDS


@njit(cache=True, _nrt=False)
def prepare(ip, s, side, ctx):
    """Make ``side``'s context in ``ctx``: the field (``fetch_field``) and ``context``."""
    field = fetch_field(ip, s, side)
    for k in range(FIELD_WORDS):
        ctx[X_FIELD + k] = np.int64(field[k])
    context(ip, s, side, ctx)
    ctx[X_READY] = 1


@njit(cache=True, _nrt=False)
def turn_gen(ip, s, params, side, view):
    """The memo's generation for this state: the kept one when every word of the key is the
    same, else a new one with the key written; 0: no memo (a view too short, too many
    parameters)."""
    np_ = params.shape[0]
    if view.shape[0] < T_SIZE or np_ > MAX_SP:
        return 0
    same = view[T_VALID] == 1 and view[T_SIDE] == side and view[T_NP] == np_ and \
        view[T_UG] == s[S.S_UG_BITS] and view[T_UG + 1] == s[S.S_UG_BITS + 1]
    if same:
        for k in range(np_):
            if view[T_PARAMS + k] != f64_bits(params[k]):
                same = False
                break
    if same:
        for a in range(ip[S.I_N_ARTEFACTS]):
            if view[T_AS + 2 * a] != s[S.S_A_HEX + a] or \
                    view[T_AS + 2 * a + 1] != s[S.S_A_CARRIER + a]:
                same = False
                break
    if same:
        for e in range(ip[S.I_N_COUNTERS]):
            k = T_CS + 4 * e
            if ip[S.I_C_SIDE + e] == side:
                carry = s[S.S_C_CARRY + e]
                if view[k + 3] != carry or (carry > 0 and view[k] != s[S.S_C_POS + e]):
                    same = False
                    break
            elif view[k] != s[S.S_C_POS + e] or view[k + 1] != s[S.S_C_STATUS + e] or \
                    view[k + 2] != s[S.S_C_LOCKED + e] or view[k + 3] != s[S.S_C_CARRY + e]:
                same = False
                break
    if same:
        return view[T_GEN]
    view[T_NP] = np_
    for k in range(np_):
        view[T_PARAMS + k] = f64_bits(params[k])
    view[T_SIDE] = side
    view[T_UG] = s[S.S_UG_BITS]
    view[T_UG + 1] = s[S.S_UG_BITS + 1]
    for a in range(ip[S.I_N_ARTEFACTS]):
        view[T_AS + 2 * a] = s[S.S_A_HEX + a]
        view[T_AS + 2 * a + 1] = s[S.S_A_CARRIER + a]
    for e in range(ip[S.I_N_COUNTERS]):
        k = T_CS + 4 * e
        view[k] = s[S.S_C_POS + e]
        view[k + 1] = s[S.S_C_STATUS + e]
        view[k + 2] = s[S.S_C_LOCKED + e]
        view[k + 3] = s[S.S_C_CARRY + e]
    gen = max(view[T_GEN] + 1, 1) if view[T_VALID] == 1 else 1
    for c in range(_MC):  # (a slot left by an earlier key may bear this number)
        if view[T_SLOTS + c * SL_W + SL_GEN] == gen:
            view[T_SLOTS + c * SL_W + SL_GEN] = 0
    view[T_GEN] = gen
    view[T_VALID] = 1
    view[T_CTX + X_READY] = 0
    return gen


@njit(cache=True, _nrt=False)
def best_move(ip, s, params, c, leave, rng, ctx, fx, view, gen, want_stay):
    """(best hex, its gain over staying) for counter ``c``; each hex's value gets its
    ``tie_noise``.  Values kept for ``c`` in generation ``gen`` of the turn memo are read
    back, the others weighed (``ctx`` and ``fx`` made on first need) and, with ``gen`` > 0,
    kept.  ``want_stay`` 0: no stay value (the gain is then the best value)."""
    side = ip[S.I_C_SIDE + c]
    carrying = s[S.S_C_CARRY + c] > 0 and leave == 0
    here = s[S.S_C_POS + c]
    sl = T_SLOTS + c * SL_W
    stay_kept = False
    if gen > 0 and view[sl + SL_GEN] == gen and view[sl + SL_LEAVE] == leave:
        known0 = np.uint64(view[sl + SL_LO])
        known1 = np.uint64(view[sl + SL_HI])
        stay_kept = view[sl + SL_HERE] == here
    else:
        known0 = _ZERO
        known1 = _ZERO
        if gen > 0:
            view[sl + SL_GEN] = gen
            view[sl + SL_LEAVE] = leave
            view[sl + SL_HERE] = -1
            view[sl + SL_LO] = 0
            view[sl + SL_HI] = 0
    # a carrier leaving its Artefact at home keeps it home whatever it does: it weighs hexes
    # as a counter without one
    stay = 0.0
    if want_stay:
        if stay_kept:
            stay = bits_f64(view[sl + SL_STAY])
        else:
            if ctx[X_READY] == 0:
                prepare(ip, s, side, ctx)
            stay = hex_value(ip, s, params, side, c, here, carrying, ctx, fx)
            if gen > 0:
                view[sl + SL_STAY] = f64_bits(stay)
                view[sl + SL_HERE] = here
    lo, hi = reach(ip, s, c, leave)
    new0 = lo & ~known0
    new1 = hi & ~known1
    if new0 != _ZERO or new1 != _ZERO:
        if ctx[X_READY] == 0:
            prepare(ip, s, side, ctx)
        for word in range(2):
            x = new0 if word == 0 else new1
            while x != _ZERO:
                h = 64 * word + lowest_bit(x)
                x &= x - _ONE
                u = hex_value(ip, s, params, side, c, h, carrying, ctx, fx)
                fx[F_VALS + h] = u
                if gen > 0:
                    view[sl + SL_VALS + h] = f64_bits(u)
        if gen > 0:
            view[sl + SL_LO] = np.int64(known0 | lo)
            view[sl + SL_HI] = np.int64(known1 | hi)
    best = -1
    best_v = NEG
    tie = params[TIE_NOISE]
    for word in range(2):
        x = lo if word == 0 else hi
        fresh = new0 if word == 0 else new1
        while x != _ZERO:
            b = lowest_bit(x)
            h = 64 * word + b
            x &= x - _ONE
            if (fresh >> np.uint64(b)) & _ONE != _ZERO:
                u = fx[F_VALS + h]
            else:
                u = bits_f64(view[sl + SL_VALS + h])
            v = u + noise(tie, rng)
            if v > best_v:
                best_v = v
                best = h
    return best, best_v - stay


@njit(cache=True, _nrt=False)
def target_worth(ip, s, t):
    worth = ip[S.I_C_ATTACK + t] + ip[S.I_C_DEFENCE + t] + ip[S.I_C_RANGE + t] * 0.5
    if s[S.S_C_CARRY + t] > 0:
        worth += 10.0
    return worth


@njit(cache=True, _nrt=False)
def best_target(ip, s, c, tie_noise, rng):
    """(target, kill chance x worth) for a ranged attack of ``c``: focus fire by the odds
    (each with ``tie_noise``)."""
    lo, hi = targets_of(ip, s, c)
    other = 1 - ip[S.I_C_SIDE + c]
    best = -1
    best_v = -1.0
    for word in range(2):
        x = lo if word == 0 else hi
        while x != _ZERO:
            h = 64 * word + lowest_bit(x)
            x &= x - _ONE
            t = (s[S.S_H_BAD + h] if other == 1 else s[S.S_H_GOOD + h]) - 1
            v = (kill_chance(ip, ip[S.I_C_ATTACK + c], ip[S.I_C_DEFENCE + t])
                 * target_worth(ip, s, t)) + noise(tie_noise, rng)
            if v > best_v:
                best_v = v
                best = t
    return best, best_v


@njit(cache=True, _nrt=False)
def entry_value(ip, s, side, c, h):
    """How good base hex ``h`` is to bring counter ``c`` on at: near the nearest Artefact
    still to fetch, then out of reach of enemies that could kill ``c`` there."""
    nearest = 1 << 30
    for a in range(ip[S.I_N_ARTEFACTS]):
        x = s[S.S_A_HEX + a]
        if x >= 0 and not on_base(ip, side, x):
            nearest = min(nearest, dist(ip, h, x))
    return -float(nearest) - 0.05 * danger(ip, s, side, c, h)


@njit(cache=True, _nrt=False)
def artefacts_out(ip, s, side):
    n = 0
    for a in range(ip[S.I_N_ARTEFACTS]):
        h = s[S.S_A_HEX + a]
        if h >= 0 and not on_base(ip, side, h):
            n += 1
    return n


@njit(cache=True)
def move(ip, s, view, mask, params, rng, d, side, n_hex):
    """The heuristic's move decisions: which counter moves (``D_MOVE_PICK``) and where
    (``D_MOVE_TO``), through the turn memo and its context (on the stack without one)."""
    gen = turn_gen(ip, s, params, side, view)
    if gen > 0:  # the context kept with the memo
        ctx = sub_words(view, T_CTX, X_SIZE, np.int64)
        fx = sub_words(view, T_FX, F_SIZE, np.float64)
    else:
        ctx = stack_empty(X_SIZE, np.int64)
        fx = stack_empty(F_SIZE, np.float64)
        ctx[X_READY] = 0
    if d == S.D_MOVE_PICK:
        # the counter with the most to gain; carriers first at equal gain
        best = S.A_END
        best_v = params[MIN_GAIN]
        for c in range(ip[S.I_N_COUNTERS]):
            if c >= S.A_END or not mask[c]:
                continue
            leave = 0
            if s[S.S_C_CARRY + c] > 0 and on_base(ip, side, s[S.S_C_POS + c]):
                if params[LEAVE_HOME] >= 0.5 and artefacts_out(ip, s, side) > 0:
                    leave = 1
                else:
                    continue  # it stays on its Artefact at home
            h, gain = best_move(ip, s, params, c, leave, rng, ctx, fx, view, gen, True)
            if h < 0:
                continue
            if s[S.S_C_CARRY + c] > 0 and gain > 0.0:
                gain += 1.0  # carriers first among equals
            gain += noise(params[TIE_NOISE], rng)
            if gain > best_v:
                best_v = gain
                best = c
        return best
    # where the chosen counter moves
    c = frame_get(s, 0)
    if frame_get(s, 2) > 0:  # walking on after leaving its Artefact in passing
        if ctx[X_READY] == 0:
            prepare(ip, s, side, ctx)
        best = -1
        best_v = NEG
        for h in range(n_hex):
            if mask[h]:
                v = hex_value(ip, s, params, side, c, h, False, ctx, fx) \
                    + noise(params[TIE_NOISE], rng)
                if v > best_v:
                    best_v = v
                    best = h
        return best
    # the pick just weighed this counter's hexes: the memo has them
    h, _ = best_move(ip, s, params, c, frame_get(s, 1), rng, ctx, fx, view, gen, False)
    return h if h >= 0 else first_legal(mask)


@njit(cache=True)
def plan(ip, fp, s, view, mask, params, rng):
    """The heuristic's body (any parameter vector, a style's read-only defaults included)."""
    d = s[DECISION]
    side = s[SEAT]  # (in setup the placing seat, not the side whose turn it is)
    n_hex = ip[S.I_N_HEX]
    if d == S.D_PLACE_ARTEFACT:
        # nearest our own base line, then nearest the middle column
        best = -1
        best_v = NEG
        mid = (ip[S.I_COLS] - 1) / 2.0
        for h in range(n_hex):
            if mask[h]:
                v = -10.0 * rows_from_home(ip, side, h) - abs(h % ip[S.I_COLS] - mid) \
                    + noise(params[SETUP_NOISE], rng)
                if v > best_v:
                    best_v = v
                    best = h
        return best
    if d == S.D_PLACE_UNDERGROWTH:
        # beside an Artefact on the enemy's side of it, off our own way to it
        best = -1
        best_v = NEG
        for h in range(n_hex):
            if not mask[h]:
                continue
            v = 0.0
            for a in range(ip[S.I_N_ARTEFACTS]):
                x = s[S.S_A_HEX + a]
                if x < 0:
                    continue
                dd = dist(ip, h, x)
                if dd == 1:
                    if rows_from_home(ip, 1 - side, h) < rows_from_home(ip, 1 - side, x):
                        v += 3.0
                    if rows_from_home(ip, side, h) < rows_from_home(ip, side, x):
                        v -= 4.0
                elif dd == 2:
                    v += 0.5 if rows_from_home(ip, 1 - side, h) < rows_from_home(ip, 1 - side, x) \
                        else 0.0
            v += noise(params[SETUP_NOISE], rng)
            if v > best_v:
                best_v = v
                best = h
        return best
    if d == S.D_ENTER:
        # always bring one on: the quickest first while Artefacts are out, else the strongest
        best = S.A_PASS
        best_v = NEG
        out = artefacts_out(ip, s, side) > 0
        for c in range(ip[S.I_N_COUNTERS]):
            if c < S.A_PASS and mask[c]:
                v = ip[S.I_C_ATTACK + c] + ip[S.I_C_DEFENCE + c] + 0.5 * ip[S.I_C_RANGE + c]
                if out:
                    v += 2.0 * ip[S.I_C_MOVE + c]
                if v > best_v:
                    best_v = v
                    best = c
        return best
    if d == S.D_ENTER_HEX:
        # the base hex nearest the nearest Artefact still to fetch, out of danger to the
        # counter coming on
        c = frame_get(s, 0)
        best = -1
        best_v = NEG
        for h in range(n_hex):
            if not mask[h]:
                continue
            v = entry_value(ip, s, side, c, h) + noise(params[TIE_NOISE], rng)
            if v > best_v:
                best_v = v
                best = h
        return best
    if d == S.D_MOVE_PICK or d == S.D_MOVE_TO:
        return move(ip, s, view, mask, params, rng, d, side, n_hex)
    if d == S.D_DROP:
        if mask[S.A_LEAVE] and params[LEAVE_HOME] >= 0.5 and artefacts_out(ip, s, side) > 0:
            return S.A_LEAVE
        return S.A_KEEP if mask[S.A_KEEP] else S.A_LEAVE
    if d == S.D_DROP_HEX:
        # leaving it in passing (drop_in_passing): the base hex nearest the next Artefact
        field = fetch_field(ip, s, side)
        best = -1
        best_v = NEG
        for h in range(n_hex):
            if mask[h]:
                k = field_steps(field, h)
                v = -float(k if k >= 0 else FIELD_MAX) + noise(params[TIE_NOISE], rng)
                if v > best_v:
                    best_v = v
                    best = h
        return best
    if d == S.D_ATTACK_PICK:
        # the attack with the best odds on the most valuable target (never declined: an
        # attack cannot hurt the attacker)
        best = S.A_END
        best_v = 0.0
        for c in range(ip[S.I_N_COUNTERS]):
            if c >= S.A_END or not mask[c]:
                continue
            t, v = best_target(ip, s, c, params[TIE_NOISE], rng)
            if t >= 0 and v > best_v:
                best_v = v
                best = c
        return best
    if d == S.D_ATTACK_TARGET:
        t, _ = best_target(ip, s, frame_get(s, 0), params[TIE_NOISE], rng)
        return t if t >= 0 else first_legal(mask)
    return first_legal(mask)


@njit(cache=True)
def heuristic(ip, fp, s, view, mask, params, rng):
    """Runners fetch Artefacts, fighters hunt carriers and escort their own, everyone keeps out
    of reach by ``caution``; focused fire by the CRT's odds on the most valuable target."""
    return plan(ip, fp, s, view, mask, params, rng)


RUSHER = {**HEURISTIC_PARAMS,
          "aggression": Param(0.0, 0.0, 1.0, HEURISTIC_PARAMS["aggression"].help),
          "caution": Param(0.1, 0.0, 2.0, HEURISTIC_PARAMS["caution"].help)}
BRAWLER = {**HEURISTIC_PARAMS,
           "aggression": Param(1.0, 0.0, 1.0, HEURISTIC_PARAMS["aggression"].help),
           "caution": Param(0.2, 0.0, 2.0, HEURISTIC_PARAMS["caution"].help)}

# pair: a strategy for each side, by name; the heuristic styles play with their defaults
PAIR_STYLES = ("heuristic", "rusher", "brawler", "random")
_STYLE_VALUES = np.array([[p.default for p in style.values()]
                          for style in (HEURISTIC_PARAMS, RUSHER, BRAWLER, HEURISTIC_PARAMS)],
                         dtype=np.float64)
PAIR_PARAMS = {
    "good": Param.choice("heuristic", PAIR_STYLES, "Good's strategy"),
    "bad": Param.choice("heuristic", PAIR_STYLES, "Bad's strategy"),
}
_Q = param_offsets(PAIR_PARAMS)
GOOD_STYLE = _Q["good"]
BAD_STYLE = _Q["bad"]
RANDOM_STYLE = PAIR_STYLES.index("random")


@njit(cache=True)
def pair(ip, fp, s, view, mask, params, rng):
    """Good and Bad each play their own strategy (strategy.good, strategy.bad), to measure
    the imbalance with every pairing."""
    style = np.int64(params[GOOD_STYLE if s[SEAT] == 0 else BAD_STYLE])
    if style == RANDOM_STYLE:
        return uniform_legal(mask, rng)
    return plan(ip, fp, s, view, mask, _STYLE_VALUES[style], rng)


register("hex", "random", random_policy, description=random_policy.__doc__, uniform=True)
register("hex", "heuristic", heuristic, HEURISTIC_PARAMS, description=heuristic.__doc__)
# two named styles of the same plan, for strategy pairs and tournaments
register("hex", "rusher", heuristic, RUSHER,
         description="The heuristic as a runner: goes straight for the Artefacts, ignores "
                     "fights and danger (aggression 0, caution 0.1).")
register("hex", "brawler", heuristic, BRAWLER,
         description="The heuristic as a fighter: hunts enemy counters and carriers first "
                     "(aggression 1, caution 0.2).")
register("hex", "pair", pair, PAIR_PARAMS, description=pair.__doc__)
