"""Search strategies for every step game: Monte Carlo tree search (UCT), flat Monte Carlo and
the rollout algorithm (``improve``).

Written once, against the step contract of ``simcore.engine``: a search knows a game only
through its functions (``legal``, ``step``, ``observe``, ``determinize``, ``returns``,
``evaluate``) and plays out positions with the game's policy of choice as its rollout player.

- It never peeks: each iteration starts from a hidden state drawn by ``determinize`` from what
  the deciding seat has seen (its public state and its view), and chance (dice, shuffles) is
  drawn from the search's own stream while simulating, never the game's.  The tree is
  "open loop": a node is a sequence of decisions, so the same node meets different dice and
  different hidden cards from one iteration to the next (information-set MCTS).
- Its budget is a number of iterations, not time, and it draws from a stream derived from
  (seed, playout, decision), so a game played with search is identical from its seed.
- Every array it uses is carved from the thread's workspace (``wi``, ``wf``), made once per
  thread by the runner: no allocation per iteration.
- Rollouts stop after ``depth`` decisions (0: at the end of the game) and are scored by the
  game's ``evaluate`` (its estimate of each seat's result) when cut off.

- The tree widens progressively: a node gets a new child only while it has fewer than
  ``1 + widen * sqrt(visits)``, and the rollout player's own choice comes first, so a small
  budget follows the rollout player's line and a larger one looks further afield.

Parameters (``qp``): the seats that search (a bitmask, the engine's ``Q_SEATS``), iterations,
exploration constant ``c``, rollout depth, how many root actions the trace shows, widening.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from simcore.engine import (
    EV_SEARCH,
    OUTCOME,
    PLAYING,
    Q_SEATS,
    SEAT,
)
from simcore.kernels import RNG_WORDS, first_legal, log_event, rng_int, rng_next, splitmix64
from strategies.base import Param, StrategySpec

Q_ITERATIONS = Q_SEATS + 1
Q_C = Q_SEATS + 2
Q_DEPTH = Q_SEATS + 3
Q_SHOW = Q_SEATS + 4
Q_STATE = Q_SEATS + 5  # words of a state, a hidden state, a view, a mask, and seats: the
Q_HIDDEN = Q_SEATS + 6  # layout of the workspace (set when the strategy is configured)
Q_VIEW = Q_SEATS + 7
Q_MASK = Q_SEATS + 8
Q_N_SEATS = Q_SEATS + 9
Q_WIDEN = Q_SEATS + 10  # progressive widening: a node may have 1 + widen * sqrt(visits) children
Q_MARGIN = Q_SEATS + 11  # improve: standard errors a challenger must clear
Q_SIZE = Q_SEATS + 12

# node fields in wi: parent, first child, next sibling, action, seat that chose it, visits
N_PARENT, N_CHILD, N_SIBLING, N_ACTION, N_SEAT, N_VISITS = range(6)
NODE_INTS = 6


def workspace_words(iterations: int, state: int, hidden: int, view: int, mask: int,
                    seats: int) -> tuple[int, int]:
    """(int64 words, float64 words) a search of ``iterations`` needs per thread."""
    nodes = iterations + 2
    ints = (NODE_INTS * nodes + 2 * state + 2 * hidden + 2 * view + 2 * (mask // 8 + 1)
            + mask)
    floats = nodes + 2 * seats + mask
    return ints, floats


@njit(cache=True)
def _carve(qp, wi, wf):
    """The workspace's parts: node arrays, the root and simulated states, masks, scratch."""
    iters = np.int64(qp[Q_ITERATIONS])
    nodes = iters + 2
    n_s = np.int64(qp[Q_STATE])
    n_h = np.int64(qp[Q_HIDDEN])
    n_v = np.int64(qp[Q_VIEW])
    n_m = np.int64(qp[Q_MASK])
    n_seats = np.int64(qp[Q_N_SEATS])
    k = NODE_INTS * nodes
    node = wi[:k]
    sim_s = wi[k:k + n_s]
    k += n_s
    sim_h = wi[k:k + n_h]
    k += n_h
    sim_v = wi[k:k + n_v]
    k += n_v
    mwords = n_m // 8 + 1
    mask = wi[k:k + mwords].view(np.uint8)[:n_m]
    k += mwords
    tried = wi[k:k + mwords].view(np.uint8)[:n_m]
    k += mwords
    counts = wi[k:k + n_m]
    value = wf[:nodes]
    out = wf[nodes:nodes + n_seats]
    sums = wf[nodes + n_seats:nodes + n_seats + n_m]
    return node, value, sim_s, sim_h, sim_v, mask, tried, counts, out, sums


@njit(cache=True)
def _reseed(state, key):
    """A generator state from one 64-bit key (SplitMix64 expansion)."""
    for k in range(RNG_WORDS):
        key = splitmix64(key)
        state[k] = key
    if state[0] == 0 and state[1] == 0 and state[2] == 0 and state[3] == 0:
        state[0] = np.uint64(1)


@njit(cache=True)
def _copy(dst, src):
    for k in range(src.shape[0]):
        dst[k] = src[k]


@njit(cache=True)
def _rollout(g, ip, fp, s, h, v, mask, policy, sp, rng, depth, out, ev0, evn0):
    """Play on with the rollout policy (``depth`` decisions at most, 0 for no limit) and
    score the position: the game's result, or its estimate when cut off."""
    legal = g[1]
    step = g[2]
    observe = g[3]
    returns = g[5]
    evaluate = g[6]
    steps = 0
    while s[OUTCOME] == PLAYING and (depth == 0 or steps < depth):
        n = legal(ip, fp, s, h, mask)
        if n == 1:
            a = first_legal(mask)
        else:
            observe(ip, fp, s, h, s[SEAT], v)
            a = policy(ip, fp, s, v, mask, sp, rng)
            if a < 0 or a >= mask.shape[0] or mask[a] == 0:
                a = first_legal(mask)
            steps += 1
        step(ip, fp, s, h, rng, a, ev0, evn0)
    if s[OUTCOME] == PLAYING:
        evaluate(ip, fp, s, out)
    else:
        returns(ip, fp, s, out)


@njit(cache=True)
def _new_node(node, value, k, parent, action, seat):
    b = k * NODE_INTS
    node[b + N_PARENT] = parent
    node[b + N_CHILD] = -1
    node[b + N_SIBLING] = -1
    node[b + N_ACTION] = action
    node[b + N_SEAT] = seat
    node[b + N_VISITS] = 0
    value[k] = 0.0
    if parent >= 0:
        pb = parent * NODE_INTS
        node[b + N_SIBLING] = node[pb + N_CHILD]
        node[pb + N_CHILD] = k


@njit(cache=True)
def _log_root(node, value, show, iters, ev, evn):
    """The trace's account of a search: the most visited root actions, best first (each
    shown one is marked by a negative visit count until all are shown)."""
    for rank in range(show):
        best = -1
        best_visits = 0
        c = node[N_CHILD]
        while c >= 0:  # (a tie to the child made first, as the answer: see mcts)
            vis = node[c * NODE_INTS + N_VISITS]
            if vis > 0 and vis >= best_visits:
                best_visits = vis
                best = c
            c = node[c * NODE_INTS + N_SIBLING]
        if best < 0:
            break
        b = best * NODE_INTS
        log_event(ev, evn, EV_SEARCH, node[b + N_ACTION], best_visits,
                  np.int64(round(1e6 * value[best] / best_visits)), rank, iters, 0, 0)
        node[b + N_VISITS] = -best_visits
    c = node[N_CHILD]
    while c >= 0:
        b = c * NODE_INTS
        node[b + N_VISITS] = abs(node[b + N_VISITS])
        c = node[b + N_SIBLING]


@njit(cache=True)
def mcts(g, ip, fp, s, view, mask0, policy, sp, qp, rng, wi, wf, ev, evn):
    """UCT over the game's own step function, one determinization per iteration."""
    legal = g[1]
    step = g[2]
    observe = g[3]
    determinize = g[4]
    node, value, sim_s, sim_h, sim_v, mask, tried, counts, out, sums = _carve(qp, wi, wf)
    iters = np.int64(qp[Q_ITERATIONS])
    c_explore = qp[Q_C]
    widen = qp[Q_WIDEN]
    depth = np.int64(qp[Q_DEPTH])
    seat = s[SEAT]
    ev0 = ev[:0]  # simulated steps log nothing
    evn0 = np.zeros(1, dtype=np.int64)
    n_nodes = 1
    _new_node(node, value, 0, -1, -1, -1)
    n_mask = mask.shape[0]
    for _ in range(iters):
        _copy(sim_s, s)
        determinize(ip, fp, sim_s, view, seat, rng, sim_h)
        cur = 0
        expanded = False
        # selection and expansion: down the tree while every legal action has a child
        while sim_s[OUTCOME] == PLAYING and not expanded:
            n = legal(ip, fp, sim_s, sim_h, mask)
            if n == 1:  # a forced move is no node of the tree
                step(ip, fp, sim_s, sim_h, rng, first_legal(mask), ev0, evn0)
                continue
            here = sim_s[SEAT]
            for k in range(n_mask):
                tried[k] = 0
            ch = node[cur * NODE_INTS + N_CHILD]
            untried = n
            while ch >= 0:
                a = node[ch * NODE_INTS + N_ACTION]
                if mask[a] and not tried[a]:
                    tried[a] = 1
                    untried -= 1
                ch = node[ch * NODE_INTS + N_SIBLING]
            n_children = n - untried
            allowed = n if widen <= 0.0 else 1 + np.int64(
                widen * math.sqrt(node[cur * NODE_INTS + N_VISITS]))
            if untried > 0 and n_children < allowed and n_nodes < iters + 2:
                # the rollout player's own choice first, then the others at random
                observe(ip, fp, sim_s, sim_h, here, sim_v)
                a = policy(ip, fp, sim_s, sim_v, mask, sp, rng)
                if a < 0 or a >= n_mask or not mask[a] or tried[a]:
                    r = rng_int(rng, untried)
                    a = -1
                    for k in range(n_mask):
                        if mask[k] and not tried[k]:
                            if r == 0:
                                a = k
                                break
                            r -= 1
                _new_node(node, value, n_nodes, cur, a, here)
                cur = n_nodes
                n_nodes += 1
                expanded = True
            else:
                parent_visits = node[cur * NODE_INTS + N_VISITS]
                log_n = math.log(max(parent_visits, 1))
                best = -1
                best_u = -1e300
                ch = node[cur * NODE_INTS + N_CHILD]
                while ch >= 0:
                    b = ch * NODE_INTS
                    a = node[b + N_ACTION]
                    if mask[a]:
                        vis = node[b + N_VISITS]
                        u = (value[ch] / vis + c_explore * math.sqrt(log_n / vis)
                             if vis > 0 else 1e300)
                        if u > best_u:
                            best_u = u
                            best = ch
                    ch = node[b + N_SIBLING]
                cur = best
                a = node[cur * NODE_INTS + N_ACTION]
            step(ip, fp, sim_s, sim_h, rng, a, ev0, evn0)
        _rollout(g, ip, fp, sim_s, sim_h, sim_v, mask, policy, sp, rng, depth, out, ev0, evn0)
        # back up each node's result for the seat that chose it
        k = cur
        while k > 0:
            b = k * NODE_INTS
            node[b + N_VISITS] += 1
            value[k] += out[node[b + N_SEAT]]
            k = node[b + N_PARENT]
        node[N_VISITS] += 1
    # the most visited legal root action; a tie goes to the child made first, the rollout
    # player's own choice (children are listed newest first), not to the lowest action number
    best = -1
    best_visits = -1
    ch = node[N_CHILD]
    while ch >= 0:
        b = ch * NODE_INTS
        a = node[b + N_ACTION]
        if mask0[a] and node[b + N_VISITS] >= best_visits:
            best_visits = node[b + N_VISITS]
            best = a
        ch = node[b + N_SIBLING]
    show = np.int64(qp[Q_SHOW])
    if ev.shape[0] > 0 and show > 0:
        _log_root(node, value, show, iters, ev, evn)
    return best if best >= 0 else first_legal(mask0)


@njit(cache=True)
def flat_mc(g, ip, fp, s, view, mask0, policy, sp, qp, rng, wi, wf, ev, evn):
    """Flat Monte Carlo: every legal action tried in turn by a playout from a fresh
    determinization, in rounds on common random numbers; the one with the best mean result
    for the deciding seat wins."""
    step = g[2]
    determinize = g[4]
    node, value, sim_s, sim_h, sim_v, mask, tried, counts, out, sums = _carve(qp, wi, wf)
    iters = np.int64(qp[Q_ITERATIONS])
    depth = np.int64(qp[Q_DEPTH])
    seat = s[SEAT]
    ev0 = ev[:0]  # simulated steps log nothing
    evn0 = np.zeros(1, dtype=np.int64)
    n_mask = mask0.shape[0]
    n_legal = 0
    for k in range(n_mask):
        counts[k] = 0
        sums[k] = 0.0
        if mask0[k]:
            n_legal += 1
    # rounds of one playout per legal action, every action of a round on the same random
    # numbers (its own stream seeded from one draw of the search's): the actions are compared
    # on common random numbers, so a lucky die does not pick the move
    sub = np.empty(RNG_WORDS, dtype=np.uint64)
    # the rollout player's own choice goes first in every round (so a budget smaller than the
    # legal actions still tries it) and keeps a tie: when every action scores alike (all
    # rollouts drawn) the lowest action number is often a wait, and search against search
    # stalled on it
    _reseed(sub, rng_next(rng))
    base = policy(ip, fp, s, view, mask0, sp, sub)
    if base < 0 or base >= n_mask or mask0[base] == 0:
        base = first_legal(mask0)
    it = 0
    while it < iters:
        round_key = rng_next(rng)
        for j in range(-1, n_mask):
            a = base if j < 0 else j
            if (j >= 0 and a == base) or not mask0[a] or it >= iters:
                continue
            _reseed(sub, round_key)
            _copy(sim_s, s)
            determinize(ip, fp, sim_s, view, seat, sub, sim_h)
            step(ip, fp, sim_s, sim_h, sub, a, ev0, evn0)
            _rollout(g, ip, fp, sim_s, sim_h, sim_v, mask, policy, sp, sub, depth, out, ev0,
                     evn0)
            counts[a] += 1
            sums[a] += out[seat]
            it += 1
    best = base
    best_mean = sums[base] / counts[base]
    for a in range(n_mask):
        if mask0[a] and counts[a] > 0 and sums[a] / counts[a] > best_mean:
            best_mean = sums[a] / counts[a]
            best = a
    show = np.int64(qp[Q_SHOW])
    if ev.shape[0] > 0 and show > 0:  # the answer, then the best few others, by mean
        for rank in range(min(show, n_legal)):
            top = best if rank == 0 else -1
            top_mean = best_mean if rank == 0 else -1.0
            for a in range(n_mask):
                if rank > 0 and mask0[a] and counts[a] > 0 and sums[a] / counts[a] > top_mean:
                    top_mean = sums[a] / counts[a]
                    top = a
            if top < 0:
                break
            log_event(ev, evn, EV_SEARCH, top, counts[top], np.int64(round(1e6 * top_mean)),
                      rank, iters, 0, 0)
            counts[top] = -counts[top]  # shown
    return best


@njit(cache=True)
def _score_action(g, ip, fp, s, view, seat, a, policy, sp, sub, key, depth, sim_s, sim_h,
                  sim_v, mask, out, ev0, evn0):
    """The deciding seat's result of one playout after action ``a``, on the random numbers
    of ``key`` (a fresh deal of what it cannot see, then the rollout player)."""
    _reseed(sub, key)
    _copy(sim_s, s)
    g[4](ip, fp, sim_s, view, seat, sub, sim_h)
    g[2](ip, fp, sim_s, sim_h, sub, a, ev0, evn0)
    _rollout(g, ip, fp, sim_s, sim_h, sim_v, mask, policy, sp, sub, depth, out, ev0, evn0)
    return out[seat]


@njit(cache=True)
def improve(g, ip, fp, s, view, mask0, policy, sp, qp, rng, wi, wf, ev, evn):
    """The rollout algorithm (one step of policy improvement) that never leaves its base
    player without evidence: the rollout player's own choice is the answer unless another
    legal action beats it on paired playouts (the same random numbers for both) by more than
    ``margin`` standard errors of the paired difference.  The budget is spent by sequential
    halving: every legal action in rounds against the base choice, the worse half of the
    challengers dropped after each phase, so the last ones are measured most."""
    node, value, sim_s, sim_h, sim_v, mask, alive, counts, out, sums = _carve(qp, wi, wf)
    n_m = mask0.shape[0]
    nodes = np.int64(qp[Q_ITERATIONS]) + 2
    n_seats = np.int64(qp[Q_N_SEATS])
    squares = wf[nodes + n_seats + n_m:nodes + n_seats + 2 * n_m]
    results = wf[nodes + n_seats + 2 * n_m:nodes + n_seats + 3 * n_m]  # (for the trace)
    iters = np.int64(qp[Q_ITERATIONS])
    depth = np.int64(qp[Q_DEPTH])
    margin = qp[Q_MARGIN]
    seat = s[SEAT]
    ev0 = ev[:0]  # simulated steps log nothing
    evn0 = np.zeros(1, dtype=np.int64)
    base = policy(ip, fp, s, view, mask0, sp, rng)
    if base < 0 or base >= n_m or mask0[base] == 0:
        base = first_legal(mask0)
    challengers = 0
    for k in range(n_m):
        counts[k] = 0
        sums[k] = 0.0
        squares[k] = 0.0
        results[k] = 0.0
        alive[k] = 1 if mask0[k] and k != base else 0
        challengers += alive[k]
    sub = np.empty(RNG_WORDS, dtype=np.uint64)
    phases = 1
    while (1 << phases) < challengers + 1:
        phases += 1
    used = 0
    base_rounds = 0
    base_sum = 0.0
    for phase in range(phases):
        if challengers == 0 or used >= iters:
            break
        left = phases - phase
        rounds = max(1, (iters - used) // (left * (challengers + 1)))
        for _ in range(rounds):
            if used + challengers + 1 > iters and used > 0:
                break
            key = rng_next(rng)
            r_base = _score_action(g, ip, fp, s, view, seat, base, policy, sp, sub, key, depth,
                                   sim_s, sim_h, sim_v, mask, out, ev0, evn0)
            used += 1
            base_rounds += 1
            base_sum += r_base
            for a in range(n_m):
                if alive[a]:
                    r = _score_action(g, ip, fp, s, view, seat, a, policy, sp, sub, key,
                                      depth, sim_s, sim_h, sim_v, mask, out, ev0, evn0)
                    d = r - r_base
                    results[a] += r
                    counts[a] += 1
                    sums[a] += d
                    squares[a] += d * d
                    used += 1
        if challengers > 1 and phase < phases - 1:  # keep the better half
            keep = (challengers + 1) // 2
            while challengers > keep:
                worst = -1
                worst_mean = 1e300
                for a in range(n_m):
                    if alive[a] and counts[a] > 0 and sums[a] / counts[a] < worst_mean:
                        worst_mean = sums[a] / counts[a]
                        worst = a
                if worst < 0:
                    break
                alive[worst] = 0
                challengers -= 1
    # the best challenger left, if its paired advantage is clear of noise
    best = base
    best_mean = 0.0
    for a in range(n_m):
        n = counts[a]
        if alive[a] and n >= 2:
            mean = sums[a] / n
            # the spread with one more difference of the scores' full range (1): a few
            # identical wins are not proof of an advantage free of noise
            var = (max(squares[a] - n * mean * mean, 0.0) + 1.0) / n
            if mean > best_mean and mean > margin * math.sqrt(var / n):
                best_mean = mean
                best = a
    show = np.int64(qp[Q_SHOW])
    if ev.shape[0] > 0 and show > 0:  # the base choice, then the best challengers by mean
        log_event(ev, evn, EV_SEARCH, base, base_rounds,
                  np.int64(round(1e6 * base_sum / max(base_rounds, 1))), 0, iters, 0, 0)
        for rank in range(1, show):
            top = -1
            top_mean = -1e300
            for a in range(n_m):
                if alive[a] and counts[a] > 0 and sums[a] / counts[a] > top_mean:
                    top_mean = sums[a] / counts[a]
                    top = a
            if top < 0:
                break
            log_event(ev, evn, EV_SEARCH, top, counts[top],
                      np.int64(round(1e6 * results[top] / counts[top])), rank, iters, 0, 0)
            alive[top] = 0  # shown
    return best


# ---- registration: `mcts` and `flat_mc` for every searchable game ---------------------------
MAX_SEATS = 8
DEFAULT_ITERATIONS = 200


def _params(rollouts: list[str], iterations: int) -> dict:
    # the game's own heuristic plays positions out (and the other seats) unless told otherwise:
    # random rollouts are faster but, in a game where random play rarely ends, say little
    default_rollout = next((r for r in ("heuristic", "random") if r in rollouts), rollouts[0])
    return {
        "iterations": Param(float(iterations), 1.0, 1_000_000.0,
                            "search iterations per decision (the budget: a number, not a time, "
                            "so games stay reproducible)"),
        "c": Param(0.7, 0.0, 10.0, "exploration constant of UCT (results are in [0, 1])"),
        "depth": Param(20.0, 0.0, 100_000.0,
                       "rollout decisions before the game's evaluation scores the position (0: "
                       "play every rollout to the end)"),
        "rollout": Param.choice(default_rollout, tuple(rollouts),
                                "strategy that plays positions out, and plays the seats that do "
                                "not search"),
        "seats": Param.choice("all", ("all",) + tuple(str(k) for k in range(MAX_SEATS)),
                              "which seat searches: all, or one seat's number"),
        "show": Param(3.0, 0.0, 64.0, "root actions the trace shows for each search"),
        "widen": Param(0.5, 0.0, 100.0,
                       "progressive widening: a node gets a new child only while it has fewer "
                       "than 1 + widen x sqrt(visits), the rollout player's own choice first "
                       "(0: every action at once, plain UCT)"),
    }


def _improve_params(rollouts: list[str], iterations: int) -> dict:
    p = _params(rollouts, iterations)
    del p["c"], p["widen"]
    p["iterations"] = Param(float(iterations), 1.0, 1_000_000.0,
                            "playouts per decision (the budget: a number, not a time, so games "
                            "stay reproducible)")
    p["depth"] = Param(0.0, 0.0, 100_000.0,
                       "rollout decisions before the game's evaluation scores the position (0: "
                       "play every playout to the end)")
    p["margin"] = Param(2.0, 0.0, 10.0,
                        "standard errors of the paired difference by which another action "
                        "must beat the rollout player's own choice to replace it")
    return p


_SEARCH_NAMES = ("iterations", "c", "depth", "rollout", "seats", "show", "widen")
_IMPROVE_NAMES = ("iterations", "depth", "rollout", "seats", "show", "margin")


def setup(values: np.ndarray, ip: np.ndarray) -> tuple[np.ndarray, int, int]:
    """The search parameter vector and workspace size for a configured game."""
    return _setup(dict(zip(_SEARCH_NAMES, values, strict=True)), ip, 0)


def setup_improve(values: np.ndarray, ip: np.ndarray) -> tuple[np.ndarray, int, int]:
    """``setup`` for ``improve``: its margin, and three more floats per action (the paired
    differences' sums of squares and each action's results)."""
    from simcore import engine as E

    v = dict(zip(_IMPROVE_NAMES, values, strict=True))
    qp, ints, floats = _setup(v, ip, 3 * int(ip[E.P_MASK_SIZE]))
    qp[Q_MARGIN] = v["margin"]
    return qp, ints, floats


def _setup(v: dict, ip: np.ndarray, more_floats: int) -> tuple[np.ndarray, int, int]:
    from simcore import engine as E

    seats = int(ip[E.P_SEATS])
    which = int(v["seats"])  # 0 = "all", k + 1 = seat k
    if which == 0:
        mask = (1 << max(seats, 1)) - 1
    else:
        if which - 1 >= max(seats, 1):
            from simcore.rules_data import RulesError

            raise RulesError(f"override: key 'strategy.seats': seat {which - 1} does not play "
                             f"(the game has {seats} seats); allowed: all, 0 to {seats - 1}")
        mask = 1 << (which - 1)
    qp = np.zeros(Q_SIZE, dtype=np.float64)
    qp[Q_SEATS] = mask
    qp[Q_ITERATIONS] = v["iterations"]
    qp[Q_C] = v.get("c", 0.0)
    qp[Q_DEPTH] = v["depth"]
    qp[Q_SHOW] = v["show"]
    qp[Q_WIDEN] = v.get("widen", 0.0)
    qp[Q_STATE] = ip[E.P_STATE_SIZE]
    qp[Q_HIDDEN] = ip[E.P_HIDDEN_SIZE]
    qp[Q_VIEW] = ip[E.P_VIEW_SIZE]
    qp[Q_MASK] = ip[E.P_MASK_SIZE]
    qp[Q_N_SEATS] = max(seats, 1)
    ints, floats = workspace_words(int(v["iterations"]), int(ip[E.P_STATE_SIZE]),
                                   int(ip[E.P_HIDDEN_SIZE]), int(ip[E.P_VIEW_SIZE]),
                                   int(ip[E.P_MASK_SIZE]), max(seats, 1))
    return qp, ints, floats + more_floats


def search_specs(game: str, rollouts: list[str]) -> list[StrategySpec]:
    """``mcts`` and ``flat_mc`` for ``game``, rolling out with any of ``rollouts`` (the
    registry adds them for every searchable game)."""
    if not rollouts:
        return []
    return [
        StrategySpec(game, "mcts", None, _params(rollouts, DEFAULT_ITERATIONS), (
            "Monte Carlo tree search (UCT) over the game's own step function: each iteration "
            "deals what the deciding seat cannot see afresh (never the true hidden cards or "
            "future dice), plays on with the rollout strategy and scores the result (or the "
            "game's estimate after `depth` decisions). Seats that do not search play the "
            "rollout strategy."), mcts, setup),
        StrategySpec(game, "flat_mc", None, _params(rollouts, DEFAULT_ITERATIONS), (
            "Flat Monte Carlo: each legal action scored by the mean result of rollouts from it "
            "(the budget shared evenly), the simple baseline for tree search."), flat_mc, setup),
        StrategySpec(game, "improve", None, _improve_params(rollouts, DEFAULT_ITERATIONS), (
            "The rollout algorithm, never worse than its base without evidence: plays the "
            "rollout strategy's own choice unless another legal action beats it on paired "
            "playouts (the same dice and deals for both) by `margin` standard errors; the "
            "budget is spent by sequential halving over the challengers."), improve,
            setup_improve),
    ]


# ---- a table of several search strategies ---------------------------------------------------
# The driver hands one search function one parameter vector ``qp``.  A table whose searching
# seats play different searches (``mcts:50`` against ``mcts:200``, ``flat_mc`` against
# ``mcts``) is handed ``table_search`` and a ``qp`` that holds each member's own block: a header
# (the union of the searching seats at the engine's ``Q_SEATS``, then for each seat the member
# that searches there), a directory (for each member its algorithm and where its parameters,
# its rollout player's parameters and its workspace lie), then the members' own vectors as
# their ``setup`` made them.  Each seat's search is called directly, with its own slices: it
# sees exactly what it would see alone at the table.  The driver's one rollout policy is
# every member's (``engine.strategy_parts`` refuses a table whose searches roll out with
# different players); the members' rollout parameters may differ (each block holds its own).
ALG_MCTS, ALG_FLAT_MC, ALG_IMPROVE = 0, 1, 2
T_MEMBERS = Q_SEATS + 1  # search members at the table
T_SEAT_MEMBER = Q_SEATS + 2  # MAX_SEATS words: the member searching at each seat (-1: none)
T_DIRECTORY = T_SEAT_MEMBER + 8
# a member's directory entry: algorithm, then (offset, length) of its qp block in qp, of its
# rollout parameters in qp, of its int workspace in wi and of its float workspace in wf
D_ALG, D_QP, D_QP_LEN, D_SP, D_SP_LEN, D_WI, D_WI_LEN, D_WF, D_WF_LEN = range(9)
D_WIDTH = 9


@njit(cache=True)
def table_search(g, ip, fp, s, view, mask, policy, sp, qp, rng, wi, wf, ev, evn):
    """The search of a table of several search strategies: the deciding seat's own search
    (mcts, flat_mc or improve) with its own parameters, rollout parameters and workspace,
    all carved from the table's vectors (see ``table_setup``)."""
    member = np.int64(qp[T_SEAT_MEMBER + s[SEAT]])
    d = T_DIRECTORY + member * D_WIDTH
    alg = np.int64(qp[d + D_ALG])
    q0 = np.int64(qp[d + D_QP])
    q = qp[q0:q0 + np.int64(qp[d + D_QP_LEN])]
    s0 = np.int64(qp[d + D_SP])
    msp = qp[s0:s0 + np.int64(qp[d + D_SP_LEN])]
    i0 = np.int64(qp[d + D_WI])
    mwi = wi[i0:i0 + np.int64(qp[d + D_WI_LEN])]
    f0 = np.int64(qp[d + D_WF])
    mwf = wf[f0:f0 + np.int64(qp[d + D_WF_LEN])]
    if alg == ALG_MCTS:
        return mcts(g, ip, fp, s, view, mask, policy, msp, q, rng, mwi, mwf, ev, evn)
    if alg == ALG_FLAT_MC:
        return flat_mc(g, ip, fp, s, view, mask, policy, msp, q, rng, mwi, mwf, ev, evn)
    return improve(g, ip, fp, s, view, mask, policy, msp, q, rng, mwi, mwf, ev, evn)


def algorithm_of(search_fn) -> int | None:
    """The algorithm id ``table_search`` calls for a search function (None: not one of
    mcts, flat_mc and improve)."""
    return {id(mcts): ALG_MCTS, id(flat_mc): ALG_FLAT_MC, id(improve): ALG_IMPROVE}.get(
        id(search_fn))


def table_setup(members: list[tuple[int, np.ndarray, np.ndarray, int, int]],
                seat_member: list[int]) -> tuple[np.ndarray, int, int]:
    """``table_search``'s parameter vector and workspace words, from each search member's
    (algorithm, its own qp, its rollout parameters, int words, float words) and the member
    searching at each seat (-1 for a seat that does not search)."""
    if len(seat_member) > 8:
        raise ValueError("table_search holds at most 8 seats")
    head = T_DIRECTORY + D_WIDTH * len(members)
    size = head + sum(q.size + r.size for _, q, r, _, _ in members)
    qp = np.zeros(size, dtype=np.float64)
    qp[Q_SEATS] = sum(1 << k for k, m in enumerate(seat_member) if m >= 0)
    qp[T_MEMBERS] = len(members)
    qp[T_SEAT_MEMBER:T_SEAT_MEMBER + 8] = -1
    qp[T_SEAT_MEMBER:T_SEAT_MEMBER + len(seat_member)] = seat_member
    at, ints, floats = head, 0, 0
    for m, (alg, q, r, wi, wf) in enumerate(members):
        d = T_DIRECTORY + m * D_WIDTH
        qp[d + D_ALG] = alg
        qp[d + D_QP], qp[d + D_QP_LEN] = at, q.size
        qp[at:at + q.size] = q
        at += q.size
        qp[d + D_SP], qp[d + D_SP_LEN] = at, r.size
        qp[at:at + r.size] = r
        at += r.size
        qp[d + D_WI], qp[d + D_WI_LEN] = ints, max(int(wi), 1)
        qp[d + D_WF], qp[d + D_WF_LEN] = floats, max(int(wf), 1)
        ints += max(int(wi), 1)
        floats += max(int(wf), 1)
    return qp, ints, floats


def _register_with_engine() -> None:
    import sys

    from simcore import engine

    engine.register_table_search(sys.modules[__name__])


_register_with_engine()
