"""Sticky Cthulhu: one playout, and the block of playouts the shared runner
(``simcore.engine.run_callback_batch``) spreads over the threads.

Playout ``i`` of run ``seed`` draws only from the stream seeded by (seed, i), and writes only
``out[i]``, so results are identical for any thread count and batch size.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from simcore.engine import DECIDE_VIEW, play_block_sig
from simcore.kernels import RNG_WORDS, rng_load, rng_save, rng_seed, rng_uniform_v, shuffle
from simcore.sticky.rules import (
    INF,
    RACE_GAVE_UP,
    RACE_LOST,
    RACE_SCORED,
    caught_ignoring,
    choose_target,
    creature_index,
    curse_choice,
    draw_curse,
    first_throw_time_v,
    investigator_gap2,
    log,
    n_tokens,
    place_token_v,
    race_v,
    roll_dice_v,
    setup_table_v,
    throw_need,
)
from simcore.sticky.state import (
    CU_SIZE,
    EV_CURSE_CHOICE,
    EV_CURSE_FREE,
    EV_PENALTY,
    EV_PUT_BACK,
    EV_ROLL,
    EV_SETUP,
    EV_TANGLE,
    EV_TIE,
    EV_TOKEN,
    EV_VOID,
    EV_WIN,
    F_ROLL_S,
    F_TANGLE_P,
    F_TANGLE_S,
    F_TANGLE_WINDOW,
    I_CURSE_ROWS,
    I_CURSES_ON,
    I_FIRST,
    I_FP_SIZE,
    I_MAX_THROWS,
    I_MAX_TURNS,
    I_N_CURSES,
    I_PLAYERS,
    I_TANGLES,
    I_TO_WIN,
    LEGAL_SIZE,
    MAX_SEATS,
    MAX_TOKENS,
    NO_CURSE,
    O_CAP,
    O_WIN,
    R_CHEATS,
    R_CONTACTS,
    R_GAME_MS,
    R_INV_HITS,
    R_MISHAPS,
    R_OUTCOME,
    R_PENALTIES,
    R_ROLLER_WINS,
    R_SHAKES,
    R_SIZE,
    R_TANGLES,
    R_TOKENS,
    R_TURNS,
    R_VOID,
    R_WINNER,
    SK_SIZE,
    V_SIZE,
)

# The strategy's type: decide(view, legal, params, rng) -> choice.  A first-class function
# type keeps the batch runner compiled (and cached) once for every strategy.
DECIDE_TYPE = DECIDE_VIEW
CHUNK = 128
N_COUNTERS = 3  # race counters: Investigator hits, shakes, Investigator contacts


@njit(cache=True)
def new_workspace(n_curses):
    """Scratch arrays for one thread, reused by every playout it plays (no per-step allocation)."""
    px = np.empty(MAX_TOKENS, dtype=np.float64)
    py = np.empty(MAX_TOKENS, dtype=np.float64)
    tokens = np.zeros(MAX_SEATS, dtype=np.int64)
    curse_of = np.zeros(MAX_SEATS, dtype=np.int64)
    ignoring = np.zeros(MAX_SEATS, dtype=np.int64)
    deck = np.zeros(max(n_curses, 1), dtype=np.int64)
    deck_state = np.zeros(2, dtype=np.int64)
    view = np.zeros(V_SIZE, dtype=np.float64)
    legal = np.zeros(LEGAL_SIZE, dtype=np.uint8)
    counters = np.zeros(N_COUNTERS, dtype=np.int64)
    start_t = np.zeros(MAX_SEATS, dtype=np.float64)
    order = np.zeros(MAX_SEATS, dtype=np.int64)
    cursed_now = np.zeros(MAX_SEATS, dtype=np.int64)
    aim_at = np.zeros(MAX_SEATS, dtype=np.int64)
    start_k = np.zeros(MAX_SEATS, dtype=np.float64)
    tangled = np.zeros(MAX_SEATS, dtype=np.int64)  # the seats of this turn's tangles, in pairs
    tangle_t = np.zeros(MAX_SEATS, dtype=np.float64)  # when this turn's tangles happened
    need_at = np.zeros(MAX_SEATS, dtype=np.float64)  # each seat's throw_need this turn
    raced_st = np.zeros((MAX_SEATS, 4), dtype=np.uint64)  # each seat's stream as its race began
    raced_n = np.zeros((MAX_SEATS, N_COUNTERS), dtype=np.int64)  # the counters it added
    scratch = np.zeros(N_COUNTERS, dtype=np.int64)
    rank_at = np.zeros(MAX_SEATS, dtype=np.int64)  # rank_seats' counts
    return (px, py, tokens, curse_of, ignoring, deck, deck_state, view, legal, counters,
            start_t, order, cursed_now, aim_at, start_k, tangled, tangle_t, raced_st, raced_n,
            scratch, need_at, rank_at)


@njit(cache=True, _nrt=False, forceinline=True)
def rank_seats(start_k, order, rank_at, roller, players):
    """Order the seats by first-throw time (``start_k`` by position from the roller), ties in
    order from the roller (a stable sort), by counting for each seat those that go before
    it: no branch on the times.  Each pair of positions is compared once (the later goes
    after the earlier unless strictly sooner), the counts kept in ``rank_at``.  The times
    were stored one by one just before: scalar loads, which the stores forward (at four
    seats or fewer the inner loop is too short for the vector path, whose wider loads
    would wait for those stores to retire)."""
    for k in range(players):
        tk = start_k[k]
        rank = 0
        for k2 in range(k):
            before = start_k[k2] <= tk
            rank += before
            rank_at[k2] += not before
        rank_at[k] = rank
    for k in range(players):
        s = roller + k
        order[np.uint64(rank_at[k])] = s - players if s >= players else s


@njit(cache=True, _nrt=False, forceinline=True)
def tangle_first_throws(st, start_t, start_k, order, rank_at, aim_at, tangled, tangle_t, roller,
                        players, fp, ev, evn):
    """STK-T-10: in order of time, each first throw may tangle with the one just before it:
    when both are at the same Creature, the later lands within ``turn.tangle_window_s`` of the
    earlier, and a draw falls below ``turn.tangle_p`` (one draw for every neighbouring pair,
    needed or not, so no branch waits on the times; a tentacle tangles once a turn).  Both
    players then throw again ``turn.tangle_s`` after the later throw.  Updates the start
    times and the order; returns (tangles, rng state), the times of the later throws in
    ``tangle_t`` and the pairs of seats in ``tangled``."""
    window = fp[F_TANGLE_WINDOW]
    p = fp[F_TANGLE_P]
    n = 0
    before = False  # the throw just before tangled with the one before it
    for k in range(1, players):
        # (unsigned: seat numbers index arrays with no wraparound test)
        sa = np.uint64(order[k - 1])
        sb = np.uint64(order[k])
        u, st = rng_uniform_v(st)
        tb = start_t[sb]
        tangle = ((tb - start_t[sa] <= window) & (aim_at[sa] == aim_at[sb]) & (u < p)
                  & (not before))
        # written every time, kept when n moves on: no branch on the outcome
        tangled[2 * n] = sa
        tangled[2 * n + 1] = sb
        tangle_t[n] = tb
        n += tangle
        before = tangle
    if n > 0:
        cost = fp[F_TANGLE_S]
        for m in range(n):
            again = tangle_t[m] + cost
            for q in range(2):
                s = tangled[2 * m + q]
                start_t[np.uint64(s)] = again
                k = s - roller
                start_k[k + players if k < 0 else k] = again
            log(ev, evn, EV_TANGLE, tangled[2 * m], tangled[2 * m + 1],
                int(tangle_t[m] * 1000.0), int(again * 1000.0), 0, 0, 0)
        rank_seats(start_k, order, rank_at, roller, players)
    return n, st


@njit(cache=True, _nrt=False, forceinline=True)
def play_one(fp, ip, skill, curse, phit, decide, sp, rng, ws, rec, ev, evn):
    """Play one game from a seeded ``rng``; fill ``rec`` (R_* layout).  Inlined in
    ``play_rows`` alone (its one copy), so the workspace's arrays are not passed again for
    every playout."""
    (px, py, tokens, curse_of, ignoring, deck, deck_state, view, legal, counters, start_t, order,
     cursed_now, aim_at, start_k, tangled, tangle_t, raced_st, raced_n, scratch, need_at,
     rank_at) = ws
    for k in range(N_COUNTERS):
        counters[k] = 0
    players = ip[I_PLAYERS]
    curses_on = ip[I_CURSES_ON] == 1
    tangles_on = ip[I_TANGLES] == 1
    max_throws = ip[I_MAX_THROWS]
    for k in range(R_SIZE):
        rec[k] = 0
    for s in range(MAX_SEATS):
        tokens[s] = 0
        curse_of[s] = NO_CURSE
        ignoring[s] = 0
    # the generator state lives in the value ``st``; it goes back to ``rng`` only around
    # calls that take the array (the strategy, the Curse deck)
    st = setup_table_v(rng_load(rng), px, py, fp, ip)
    if ev is not None:
        for j in range(n_tokens(ip)):
            log(ev, evn, EV_SETUP, j, int(px[j] * 10.0), int(py[j] * 10.0), 0, 0, 0, 0)
    if curses_on:  # STK-S-2
        n_c = ip[I_N_CURSES]
        for c in range(n_c):
            deck[c] = c
        rng_save(rng, st)
        shuffle(rng, deck, n_c)
        st = rng_load(rng)
        deck_state[0] = 0
        deck_state[1] = n_c
    roller = ip[I_FIRST]  # STK-S-4
    game_s = 0.0
    outcome = O_CAP
    turns = 0
    for turn in range(ip[I_MAX_TURNS]):
        turns = turn + 1
        kind, colour, rerolls, face, st = roll_dice_v(st, ip)  # STK-T-1
        log(ev, evn, EV_ROLL, turn + 1, roller, kind, colour, rerolls, face, 0)
        # STK-C-1/3: who plays under a Curse this turn, and who ignores it
        if curses_on:
            rng_save(rng, st)
            for s in range(players):
                ignoring[s] = 0
                if curse_of[s] != NO_CURSE:
                    if tokens[s] == 0:
                        log(ev, evn, EV_CURSE_FREE, s, curse_of[s], 0, 0, 0, 0, 0)
                    elif curse_choice(decide, sp, rng, view, legal, s, tokens, curse_of,
                                      curse, fp, ip):
                        ignoring[s] = 1
                        rec[R_CHEATS] += 1
                        log(ev, evn, EV_CURSE_CHOICE, s, curse_of[s], 1, 0, 0, 0, 0)
                    else:
                        log(ev, evn, EV_CURSE_CHOICE, s, curse_of[s], 0, 0, 0, 0, 0)
            st = rng_load(rng)
        # STK-T-2: everyone throws at once; the first to put the Creature back ends the turn.
        # Seats are raced in order of their first throw: the earliest usually wins, and a
        # seat that cannot beat the best finish so far stops at once.
        target = -1
        gap2 = 0.0
        choose = colour < 0
        if not choose:
            target = creature_index(kind, colour, ip)
            gap2 = investigator_gap2(px, py, target, fp, ip)
        s = roller
        for k in range(players):
            su = np.uint64(s)  # (unsigned: seat numbers index arrays with no wraparound test)
            cursed = NO_CURSE
            if curses_on and curse_of[su] != NO_CURSE and tokens[su] > 0 and ignoring[su] == 0:
                cursed = curse_of[su]
            cursed_now[su] = cursed
            aim_at[su] = target
            if choose:
                rng_save(rng, st)
                aim_at[su] = choose_target(decide, sp, rng, view, legal, px, py, kind, s, tokens,
                                           curse_of, fp, ip)
                st = rng_load(rng)
            t0, st = first_throw_time_v(st, s, s == roller, cursed, skill, curse, fp)
            need_at[su] = throw_need(gap2, s, cursed, skill, curse)
            start_t[su] = t0
            start_k[k] = t0  # by position from the roller
            s += 1
            if s == players:
                s = 0
        rank_seats(start_k, order, rank_at, roller, players)
        n_tangles = 0
        if tangles_on:  # STK-T-10
            n_tangles, st = tangle_first_throws(st, start_t, start_k, order, rank_at, aim_at,
                                                tangled, tangle_t, roller, players, fp, ev, evn)
        best = INF
        winner = -1
        result = RACE_LOST
        won_target = -1
        n_tied = 0  # seats finishing exactly at ``best``
        best_k = 0  # race position at which ``best`` was last lowered
        gave_up_t = 0.0
        for k in range(players):
            s = order[k]
            su = np.uint64(s)
            if start_t[su] > best:
                break
            any_kind = kind if choose else -1
            raced_st[k, 0], raced_st[k, 1], raced_st[k, 2], raced_st[k, 3] = st
            for c in range(N_COUNTERS):
                raced_n[k, c] = counters[c]
            t, res, caught, st = race_v(
                st, rng, decide, sp, view, legal, px, py, aim_at[su], any_kind, s, start_t[su],
                cursed_now[su], tokens, curse_of, skill, curse, phit, best, need_at[su],
                counters, ev, evn, fp, ip, max_throws)
            for c in range(N_COUNTERS):
                raced_n[k, c] = counters[c] - raced_n[k, c]
            if res == RACE_GAVE_UP:
                gave_up_t = max(gave_up_t, t)
            elif t < best:
                best = t
                best_k = k
                winner = s
                result = res
                won_target = caught
                n_tied = 1
            elif t == best:
                # STK-T-2 says nothing of ties: an exact tie (possible only with constant
                # times) goes to one of the tied seats at random, not to the first raced
                n_tied += 1
                u, st = rng_uniform_v(st)
                if u * n_tied < 1.0:
                    winner = s
                    result = res
                    won_target = caught
        if n_tied > 1:
            log(ev, evn, EV_TIE, winner, n_tied, int(best * 1000.0), 0, 0, 0, 0)
        # A seat raced before the one that set ``best`` counted its Investigator hits,
        # contacts and shakes up to the finish it had to beat then, later than the turn's end:
        # race it again from the same stream to the turn's end, counting only what happened
        # by then.  (Seats are raced in order of start time, so only those can have gone past.)
        if best < INF:
            for k in range(best_k):
                if raced_n[k, 0] + raced_n[k, 1] + raced_n[k, 2] > 0:
                    s = order[k]
                    for c in range(N_COUNTERS):
                        scratch[c] = 0
                    race_v((raced_st[k, 0], raced_st[k, 1], raced_st[k, 2], raced_st[k, 3]),
                           rng, decide, sp, view, legal, px, py, aim_at[s],
                           kind if choose else -1, s, start_t[s], cursed_now[s], tokens,
                           curse_of, skill, curse, phit, best, need_at[s], scratch, None, evn,
                           fp, ip, max_throws)
                    for c in range(N_COUNTERS):
                        counters[c] += scratch[c] - raced_n[k, c]
        # STK-T-10: a tangle counts if the turn was still on at the later throw
        for k in range(n_tangles):
            rec[R_TANGLES] += tangle_t[k] <= best
        # STK-C-3: a seat caught ignoring its Curse loses a token (before this turn's token)
        if curses_on:
            rng_save(rng, st)
            for s in range(players):
                if ignoring[s] == 1 and caught_ignoring(rng, curse_of[s], curse, fp):
                    if tokens[s] > 0:
                        tokens[s] -= 1
                        rec[R_PENALTIES] += 1
                    log(ev, evn, EV_PENALTY, s, curse_of[s], tokens[s], 0, 0, 0, 0)
            st = rng_load(rng)
        if winner < 0:  # everyone gave up: the turn is void and the dice stay
            rec[R_VOID] += 1
            game_s += fp[F_ROLL_S] + gave_up_t
            log(ev, evn, EV_VOID, turn + 1, 0, 0, 0, 0, 0, 0)
            continue
        game_s += fp[F_ROLL_S] + best
        if winner == roller:
            rec[R_ROLLER_WINS] += 1
        if result == RACE_SCORED:  # STK-T-5
            wu = np.uint64(winner)
            tokens[wu] += 1
            log(ev, evn, EV_TOKEN, winner, tokens[wu], 0, 0, 0, 0, 0)
            if tokens[wu] >= ip[I_TO_WIN]:  # STK-E-1
                outcome = O_WIN
                rec[R_WINNER] = winner
                log(ev, evn, EV_WIN, winner, turn + 1, 0, 0, 0, 0, 0)
                break
            if curses_on:  # STK-C-1, STK-C-2
                draw_curse(deck, deck_state, winner, curse_of, ev, evn)
        else:
            rec[R_MISHAPS] += 1
        roller = winner  # STK-T-8
        # STK-T-9: the caught Creature goes back on the table (at its centre by default)
        st = place_token_v(st, px, py, won_target, fp, ip)
        log(ev, evn, EV_PUT_BACK, won_target, int(px[won_target] * 10.0),
            int(py[won_target] * 10.0), 0, 0, 0, 0)
    rng_save(rng, st)
    if outcome != O_WIN:
        rec[R_WINNER] = -1
    rec[R_OUTCOME] = outcome
    rec[R_TURNS] = turns
    rec[R_GAME_MS] = int(game_s * 1000.0)
    rec[R_INV_HITS] = counters[0]
    rec[R_SHAKES] = counters[1]
    rec[R_CONTACTS] = counters[2]
    for s in range(MAX_SEATS):
        rec[R_TOKENS + s] = tokens[s]


_F1 = types.float64[::1]
_F2 = types.float64[:, ::1]
_I1 = types.int64[::1]
_I2 = types.int64[:, ::1]


@njit(cache=True, forceinline=True)
def unpack(ip, packed):
    """(fp, skill, curse, phit) as views of the packed float parameters (loader.packed)."""
    n_fp = ip[I_FP_SIZE]
    players = ip[I_PLAYERS]
    rows = ip[I_CURSE_ROWS]
    a = n_fp + players * SK_SIZE
    b = a + rows * CU_SIZE
    c = b + players * (rows + 1)
    return (packed[:n_fp], packed[n_fp:a].reshape((players, SK_SIZE)),
            packed[a:b].reshape((rows, CU_SIZE)), packed[b:c].reshape((players, rows + 1)))


@njit(cache=True, _nrt=False)
def play_rows(fp, ip, skill, curse, phit, decide, sp, rng, ws, rec, seed, first, out, row, rows,
              ev, evn):
    """Playouts ``first .. first + rows - 1`` of run ``seed`` into ``out[row ..]`` (with
    ``ev``: the events of the last, for a trace), on one thread's arrays ``rng``, ``ws`` and
    the record ``rec``."""
    for k in range(rows):
        rng_seed(rng, seed, first + k)
        play_one(fp, ip, skill, curse, phit, decide, sp, rng, ws, rec, ev, evn)
        for j in range(R_SIZE):
            out[row + k, j] = rec[j]


# its signature given: the callback runner has two, and would try a lazy play_block on both
@njit(play_block_sig(DECIDE_VIEW), cache=True)
def play_block(ip, packed, decide, sp, seed, first, out, row, rows):
    """Playouts ``first .. first + rows - 1`` into ``out[row ..]``, with one thread's arrays
    made once for the block."""
    fp, skill, curse, phit = unpack(ip, packed)
    rng = np.empty(RNG_WORDS, dtype=np.uint64)
    ws = new_workspace(curse.shape[0])
    evn = np.zeros(1, dtype=np.int64)
    # a thread-local record, copied out: a view out[i] would share (and atomically
    # reference-count) the output array's header across threads
    rec = np.zeros(R_SIZE, dtype=np.int64)
    play_rows(fp, ip, skill, curse, phit, decide, sp, rng, ws, rec, seed, first, out, row, rows,
              None, evn)


# compiled on the first trace (engine.ready), not at import: a run never traces
TRACE_SIG = types.int64(_F1, _I1, _F2, _F2, _F2, DECIDE_TYPE, _F1, types.int64, types.int64, _I1,
                        _I2)


@njit(cache=True)
def trace_game(fp, ip, skill, curse, phit, decide, sp, seed, index, rec, ev):
    """Replay playout ``index`` of run ``seed`` with event logging; returns the event count."""
    rng = np.empty(RNG_WORDS, dtype=np.uint64)
    ws = new_workspace(curse.shape[0])
    evn = np.zeros(1, dtype=np.int64)
    out = np.zeros((1, R_SIZE), dtype=np.int64)
    play_rows(fp, ip, skill, curse, phit, decide, sp, rng, ws, rec, seed, index, out, 0, 1, ev,
              evn)
    return evn[0]
