"""Tiny Epic Cthulhu: one playout, and the parallel batch runner.

Playout ``i`` of run ``seed`` draws only from the stream seeded by (seed, i) and writes only
``out[i]``, so results are identical for any thread count and batch size.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from simcore.engine import DECIDE_STATE, play_block_sig
from simcore.kernels import RNG_WORDS, first_legal, log_event, rng_seed
from simcore.tec.callback.rules import (
    apply_action,
    ask,
    conservation_errors,
    init_state,
    legal_actions,
    spin_step,
)
from simcore.tec.callback.state import (
    A_ABILITY,
    A_END,
    D_ACTION,
    EV_ACTION,
    EV_END,
    EV_STATUS,
    EV_STATUS_CHAR,
    EV_TURN,
    EV_TURN_END,
    EV_VIOLATION,
    H_SIZE,
    I_ACTIONS,
    I_CHECK,
    I_MAX_ACTIONS,
    I_MAX_TURNS,
    I_MUST_MOVE_AFTER_SPIN,
    LEGAL_SIZE,
    N_COLOURS,
    O_CAP,
    O_PLAYING,
    P_BRAIN,
    P_CHAOS,
    P_DEL_LEN,
    P_PAGES,
    P_TEMP,
    P_TOWN,
    R_ACC_ENERGY,
    R_ACC_TEMPERAMENT,
    R_ACC_TOWN_MADNESS,
    R_ACC_TOWN_SHAMBLER,
    R_ACTIONS,
    R_BANISHED,
    R_CHAOS_ACTIONS,
    R_FLIPS,
    R_MAX_BRAIN,
    R_OUTCOME,
    R_PAGES,
    R_PHASE2_TURN,
    R_POWERS,
    R_SEAL_TRIES,
    R_SEALED,
    R_SIZE,
    R_STRENGTH,
    R_TOKENS,
    R_TURNS,
    R_VIOLATIONS,
    R_WINNER,
    S_ABILITY_USED,
    S_ACTIONS_LEFT,
    S_BRAWLER_USED,
    S_CNT_ACC,
    S_CNT_ACTIONS,
    S_CNT_BANISHED,
    S_CNT_CHAOS_ACTIONS,
    S_CNT_FLIPS,
    S_CNT_POWERS,
    S_CNT_SEAL_TRIES,
    S_CTX,
    S_CUR,
    S_GOO_TOWN,
    S_MAX_BRAIN,
    S_MUST_MOVE,
    S_NCHARS,
    S_OUTCOME,
    S_PAGES_PLACED,
    S_PHASE,
    S_PHASE2_TURN,
    S_SCHOLAR_USED,
    S_SEALED,
    S_SIZE,
    S_STR_LEN,
    S_STRENGTH,
    S_SUP_CHAOS,
    S_TURN,
)
from simcore.tec.callback.state import (
    char as ch,
)

log = log_event

# The strategy's type: decide(state, legal, params, rng) -> choice.  A first-class function
# type keeps the batch runner compiled (and cached) once for every strategy.
DECIDE_TYPE = DECIDE_STATE
CHUNK = 16


@njit(cache=True)
def new_workspace():
    """Scratch arrays for one thread, reused by every playout it plays."""
    st = np.zeros(S_SIZE, dtype=np.int64)
    hid = np.zeros(H_SIZE, dtype=np.int64)
    legal = np.zeros(LEGAL_SIZE, dtype=np.uint8)
    pending = np.zeros(N_COLOURS, dtype=np.int64)
    return st, hid, legal, pending


@njit(cache=True, _nrt=False, inline="always")
def check_step(st, hid, ip, ev, evn):
    """Checking mode: count conservation errors after a step (0 when not checking).  Inline,
    so a batch run pays one test per step, not a call."""
    if ip[I_CHECK] == 0:
        return 0
    errors = conservation_errors(st, hid, ip)
    if errors > 0:
        log(ev, evn, EV_VIOLATION, st[S_TURN], errors, 0, 0, 0, 0, 0)
    return errors


@njit(cache=True, _nrt=False)
def play_turn(st, hid, rng, ip, pending, decide, sp, legal, ev, evn):
    """One turn of the current character: TEC-W-1 spin step, then TEC-A-1 actions.
    Returns conservation errors found (checking mode)."""
    c = st[S_CUR]
    errors = 0
    on_goo = st[S_PHASE] == 1 and st[ch(c) + P_TOWN] == st[S_GOO_TOWN]
    spin_step(st, rng, ip, pending, decide, sp, legal, ev, evn)
    errors += check_step(st, hid, ip, ev, evn)
    if st[S_OUTCOME] != O_PLAYING:
        return errors
    # TEC-MV-3 (reading in NOTES.md): the Great Old One must still be here when acting
    still = st[S_PHASE] == 1 and st[ch(c) + P_TOWN] == st[S_GOO_TOWN]
    if ip[I_MUST_MOVE_AFTER_SPIN] == 1:
        st[S_MUST_MOVE] = 1 if still else 0
    else:
        st[S_MUST_MOVE] = 1 if (still and on_goo) else 0
    st[S_ACTIONS_LEFT] = ip[I_ACTIONS]
    st[S_ABILITY_USED] = 0
    st[S_SCHOLAR_USED] = 0
    st[S_BRAWLER_USED] = 0
    for _ in range(ip[I_MAX_ACTIONS]):
        n_legal = legal_actions(st, hid, ip, legal)
        st[S_CTX] = st[S_ACTIONS_LEFT]
        # one legal action (no action or Chaos left: only ending the turn) is no decision,
        # so the strategy is not asked (about one action decision in ten)
        a = first_legal(legal) if n_legal == 1 else ask(st, D_ACTION, legal, decide, sp, rng)
        if a == A_END:
            break
        if a != A_ABILITY:  # TEC-A-1: three actions, then one per Chaos tentacle spent
            if st[S_ACTIONS_LEFT] > 0:
                st[S_ACTIONS_LEFT] -= 1
            else:
                st[ch(c) + P_CHAOS] -= 1
                st[S_SUP_CHAOS] += 1
                st[S_CNT_CHAOS_ACTIONS] += 1
            st[S_CNT_ACTIONS] += 1
        log(ev, evn, EV_ACTION, c, a, st[S_ACTIONS_LEFT], 0, 0, 0, 0)
        apply_action(st, hid, a, rng, ip, pending, decide, sp, legal, ev, evn)
        errors += check_step(st, hid, ip, ev, evn)
        if st[S_OUTCOME] != O_PLAYING:  # TEC-E-3
            break
    st[S_MUST_MOVE] = 0
    log(ev, evn, EV_TURN_END, c, st[S_ACTIONS_LEFT], st[ch(c) + P_CHAOS],
        1 if st[S_OUTCOME] == O_PLAYING else 0, 0, 0, 0)
    return errors


@njit(cache=True, _nrt=False)
def log_status(st, ev, evn):
    """The trace's status line after a turn: the Great Old One's Strength, the Pages and
    portals, and each character's tentacles and Delirium (nothing when not tracing)."""
    if ev is None:
        return
    pages = 0
    for c in range(st[S_NCHARS]):
        pages += st[ch(c) + P_PAGES]
    log(ev, evn, EV_STATUS, st[S_TURN], st[S_STRENGTH], st[S_STR_LEN], st[S_PHASE], pages,
        st[S_PAGES_PLACED], st[S_SEALED])
    for c in range(st[S_NCHARS]):
        o = ch(c)
        log(ev, evn, EV_STATUS_CHAR, c, st[o + P_TEMP], st[o + P_TEMP + 1], st[o + P_TEMP + 2],
            st[o + P_CHAOS], st[o + P_BRAIN], st[o + P_DEL_LEN])


@njit(cache=True, _nrt=False)
def play_one(ip, decide, sp, rng, ws, rec, ev, evn):
    """Play one game from a seeded ``rng``; fill ``rec`` (R_* layout)."""
    st, hid, legal, pending = ws
    for k in range(N_COLOURS):
        pending[k] = 0
    init_state(st, hid, rng, ip, decide, sp, legal, ev, evn)
    errors = check_step(st, hid, ip, ev, evn)
    n_chars = st[S_NCHARS]
    turn = 0
    while st[S_OUTCOME] == O_PLAYING:
        if turn >= ip[I_MAX_TURNS]:
            st[S_OUTCOME] = O_CAP
            break
        st[S_TURN] = turn + 1
        st[S_CUR] = turn % n_chars  # TEC-E-4: clockwise
        log(ev, evn, EV_TURN, turn + 1, st[S_CUR], st[S_PHASE], 0, 0, 0, 0)
        errors += play_turn(st, hid, rng, ip, pending, decide, sp, legal, ev, evn)
        log_status(st, ev, evn)
        turn += 1
    log(ev, evn, EV_END, st[S_OUTCOME], turn, 0, 0, 0, 0, 0)
    pages = 0
    for c in range(n_chars):
        pages += st[ch(c) + P_PAGES]
    rec[R_OUTCOME] = st[S_OUTCOME]
    rec[R_WINNER] = -1
    rec[R_TURNS] = turn
    rec[R_PHASE2_TURN] = st[S_PHASE2_TURN]
    rec[R_PAGES] = pages
    rec[R_TOKENS] = st[S_PAGES_PLACED]
    rec[R_SEALED] = st[S_SEALED]
    rec[R_BANISHED] = st[S_CNT_BANISHED]
    rec[R_ACC_TOWN_MADNESS] = st[S_CNT_ACC + 0]
    rec[R_ACC_TOWN_SHAMBLER] = st[S_CNT_ACC + 1]
    rec[R_ACC_TEMPERAMENT] = st[S_CNT_ACC + 2]
    rec[R_ACC_ENERGY] = st[S_CNT_ACC + 3]
    rec[R_STRENGTH] = st[S_STRENGTH] + (100 if st[S_PHASE] == 2 else 0)
    rec[R_MAX_BRAIN] = st[S_MAX_BRAIN]
    rec[R_SEAL_TRIES] = st[S_CNT_SEAL_TRIES]
    rec[R_CHAOS_ACTIONS] = st[S_CNT_CHAOS_ACTIONS]
    rec[R_POWERS] = st[S_CNT_POWERS]
    rec[R_ACTIONS] = st[S_CNT_ACTIONS]
    rec[R_FLIPS] = st[S_CNT_FLIPS]
    rec[R_VIOLATIONS] = errors


_I1 = types.int64[::1]
_I2 = types.int64[:, ::1]
_F1 = types.float64[::1]


@njit(play_block_sig(DECIDE_TYPE), cache=True)
def play_block(ip, fp, decide, sp, seed, first, out, row, rows):
    """Playouts ``first .. first + rows - 1`` into ``out[row ..]`` (the shared runner,
    ``simcore.engine.run_callback_batch``, spreads the blocks over the threads)."""
    rng = np.empty(RNG_WORDS, dtype=np.uint64)
    ws = new_workspace()
    evn = np.zeros(1, dtype=np.int64)
    # a thread-local record, copied out: a view out[i] would share (and atomically
    # reference-count) the output array's header across threads
    rec = np.zeros(R_SIZE, dtype=np.int64)
    for k in range(rows):
        rng_seed(rng, seed, first + k)
        play_one(ip, decide, sp, rng, ws, rec, None, evn)
        for j in range(R_SIZE):
            out[row + k, j] = rec[j]


@njit(types.int64(_I1, DECIDE_TYPE, _F1, types.int64, types.int64, _I1, _I2), cache=True)
def trace_game(ip, decide, sp, seed, index, rec, ev):
    """Replay playout ``index`` of run ``seed`` with event logging; returns the event count."""
    rng = np.empty(RNG_WORDS, dtype=np.uint64)
    rng_seed(rng, seed, index)
    ws = new_workspace()
    evn = np.zeros(1, dtype=np.int64)
    play_one(ip, decide, sp, rng, ws, rec, ev, evn)
    return evn[0]
