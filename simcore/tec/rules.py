"""Tiny Epic Cthulhu, on the step contract of :mod:`simcore.engine`: the game's functions
(``init``, ``legal``, ``step``, ``determinize``, ``returns``, ``evaluate``, ``record``,
``check``) and the turn.  Clause IDs (TEC-*) are those of ``tests/clauses/tec.md``; readings of
unclear text are in NOTES.md.

The rules are split by concern: ``tracks`` (every track and what happens when one is full),
``wheel`` (the spin, the bag and the Great Old One's powers), ``pages`` (Page cards and the
Necronomicon), ``setup``, ``legality`` (every decision's legal choices), ``actions`` (the players'
actions as procedures on the frame stack) and ``checker`` (conservation of every piece).

A turn is a procedure on the frame stack (``PR_TURN``: its stage, whether the character began
the turn on the Great Old One's card, and the actions taken): the spin step (TEC-W-1), whose
Madness icon may ask which colour to move, then the actions (TEC-A-1), each a sub-procedure
that keeps its place while it asks (``actions``).  ``step`` applies an answer to the procedure
on top of the stack, then ``advance`` resumes the procedures until the next question, the end
of the game, or the end of a turn (then the next turn begins).  The players cooperate, so the
seat deciding is the character whose turn it is, and every seat has the same result.

Nobody sees the Page deck's order or the faces of face-down Page cards (the hidden state):
``determinize`` deals them afresh from the cards nobody has seen (neither face up beside a
Town card nor translated).  The players share everything else, so there is no ``observe``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simcore.engine import (
    DECISION,
    DEPTH,
    EV_WIDTH,
    FRAMES,
    OUTCOME,
    PLAYING,
    TURN,
    WINNER,
    ask,
    drive,
    finish,
    frame_get,
    frame_pop,
    frame_proc,
    frame_push,
    frame_set,
    observe_inline_nothing,
)
from simcore.kernels import shuffle
from simcore.tec import actions as AC
from simcore.tec import checker as CK
from simcore.tec import estimate as EST
from simcore.tec import legality as L
from simcore.tec import setup as SU
from simcore.tec import state as S
from simcore.tec import wheel as W


# ---- the turn --------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def log_status(s, ev, evn):
    """The trace's status line after a turn: the Great Old One's Strength, the Pages and
    portals, and each character's tentacles and Delirium (nothing when not tracing)."""
    if ev.shape[0] == 0:
        return
    pages = 0
    for c in range(s[S.S_NCHARS]):
        pages += s[S.char(c) + S.P_PAGES]
    S.log(ev, evn, S.EV_STATUS, s[TURN], s[S.S_STRENGTH], s[S.S_STR_LEN], s[S.S_PHASE], pages,
        s[S.S_PAGES_PLACED], s[S.S_SEALED])
    for c in range(s[S.S_NCHARS]):
        o = S.char(c)
        S.log(ev, evn, S.EV_STATUS_CHAR, c, s[o + S.P_TEMP], s[o + S.P_TEMP + 1],
            s[o + S.P_TEMP + 2], s[o + S.P_CHAOS], s[o + S.P_BRAIN], s[o + S.P_DEL_LEN])


@njit(cache=True, _nrt=False)
def begin_turn(ip, s, ev, evn):
    """The next character's turn (TEC-E-4: clockwise), or the turn cap."""
    turn = s[TURN]
    if turn >= ip[S.I_MAX_TURNS]:
        s[OUTCOME] = S.O_CAP
        return
    n_chars = s[S.S_NCHARS]
    c = turn % n_chars
    s[TURN] = turn + 1
    s[S.S_CUR] = c
    S.log(ev, evn, S.EV_TURN, turn + 1, c, s[S.S_PHASE], 0, 0, 0, 0)
    push_turn(s)


@njit(cache=True, _nrt=False, forceinline=True)
def push_turn(s):
    """Put the current character's turn on the stack (TEC-MV-3 notes whether it begins on the
    Great Old One's Town card)."""
    c = s[S.S_CUR]
    frame_push(s, S.PR_TURN)
    frame_set(s, 0, S.TS_SPIN)
    frame_set(s, 1, 1 if s[S.char(c) + S.P_TOWN] == s[S.S_GOO_TOWN] else 0)


@njit(cache=True, _nrt=False, forceinline=True)
def start_actions(ip, s):
    """TEC-A-1: three actions; TEC-MV-3 (reading in NOTES.md): the Great Old One must still
    be on the character's card when the actions begin for the first one to be a move away."""
    c = s[S.S_CUR]
    # forced_move_phases: phase one only (default), or both phases
    still = ((s[S.S_PHASE] == 1 or ip[S.I_FORCED_MOVE_P2] == 1)
             and s[S.char(c) + S.P_TOWN] == s[S.S_GOO_TOWN])
    if ip[S.I_MUST_MOVE_AFTER_SPIN] == 1:
        s[S.S_MUST_MOVE] = 1 if still else 0
    else:
        s[S.S_MUST_MOVE] = 1 if (still and frame_get(s, 1) == 1) else 0
    s[S.S_ACTIONS_LEFT] = ip[S.I_ACTIONS]
    s[S.S_ABILITY_USED] = 0
    s[S.S_SCHOLAR_USED] = 0
    s[S.S_BRAWLER_USED] = 0
    frame_set(s, 0, S.TS_ACTIONS)
    frame_set(s, 2, 0)


@njit(cache=True, _nrt=False)
def end_turn(s, ev, evn):
    """The turn is over (TEC-E-4): pop it."""
    c = s[S.S_CUR]
    s[S.S_MUST_MOVE] = 0
    S.log(ev, evn, S.EV_TURN_END, c, s[S.S_ACTIONS_LEFT], s[S.char(c) + S.P_CHAOS],
        1 if s[OUTCOME] == PLAYING else 0, 0, 0, 0)
    if ev.shape[0] > 0:  # (a call passing three arrays field by field, at every turn's end)
        log_status(s, ev, evn)
    frame_pop(s)


@njit(cache=True, _nrt=False, forceinline=True)
def continue_turn(ip, s, rng, ev, evn):
    """PR_TURN: [stage, on the Great Old One's card at turn start, actions taken]."""
    stage = frame_get(s, 0)
    if stage == S.TS_SPIN:  # TEC-W-1: spin, the pointer's action, draws, spawn, move
        W.spin_wheel(s, rng, ip, ev, evn)
        S.log(ev, evn, S.EV_POINTER, s[S.S_SPIN_ICON], s[S.S_SPIN_TOWN], s[S.S_SPIN_COLOUR], 0,
            0, 0, 0)
        if W.pointer_asks(s):
            frame_set(s, 0, S.TS_POINTER)
            AC.ask_cur(s, S.D_POINTER_MADNESS)
            return 1
        extra = W.pointer_effect(s, rng, ip, ev, evn)
        if s[OUTCOME] != PLAYING:
            return 0
        W.spin_draws(s, rng, ip, extra, ev, evn)
        if s[OUTCOME] != PLAYING:
            return 0
        start_actions(ip, s)
    elif stage == S.TS_POINTER:  # (answered: the Madness moved)
        W.spin_draws(s, rng, ip, 0, ev, evn)
        if s[OUTCOME] != PLAYING:
            return 0
        start_actions(ip, s)
    # TS_ACTIONS: the next action, or the end of the turn (TEC-A-1: with no action and no
    # Chaos left, and no free ability to use, ending the turn is all there is: not asked)
    if frame_get(s, 2) >= ip[S.I_MAX_ACTIONS] or L.only_end_left(s):
        end_turn(s, ev, evn)
        return 0
    s[S.S_CTX] = s[S.S_ACTIONS_LEFT]
    AC.ask_cur(s, S.D_ACTION)
    return 1


@njit(cache=True, _nrt=False, forceinline=True)
def answer_action(ip, s, a, ev, evn):
    """The main action chosen: end the turn, or spend an action (TEC-A-1: three, then one per
    Chaos tentacle; an ability costs none, TEC-A-2) and carry it out."""
    c = s[S.S_CUR]
    if a == S.A_END:
        end_turn(s, ev, evn)
        return
    if a != S.A_ABILITY:
        if s[S.S_ACTIONS_LEFT] > 0:
            s[S.S_ACTIONS_LEFT] -= 1
        else:
            s[S.char(c) + S.P_CHAOS] -= 1
            s[S.S_SUP_CHAOS] += 1
            s[S.S_CNT_CHAOS_ACTIONS] += 1
        s[S.S_CNT_ACTIONS] += 1
    frame_set(s, 2, frame_get(s, 2) + 1)
    S.log(ev, evn, S.EV_ACTION, c, a, s[S.S_ACTIONS_LEFT], 0, 0, 0, 0)
    AC.start_action(ip, s, a, ev, evn)


# ---- running the procedures -----------------------------------------------------------------
@njit(cache=True, _nrt=False, forceinline=True)
def resume(ip, s, h, rng, ev, evn):
    """Resume the procedure on top of the stack: 1 if it asked a question, 0 if it finished
    (and popped its frame)."""
    proc = frame_proc(s)
    if proc == S.PR_TURN:
        return continue_turn(ip, s, rng, ev, evn)
    if proc == S.PR_REPEAT:
        return AC.continue_repeat(ip, s)
    if proc == S.PR_MOVE:
        return AC.continue_move(ip, s, h, rng, ev, evn)
    if proc == S.PR_BANISH:
        return AC.continue_banish(ip, s, rng, ev, evn)
    if proc == S.PR_TRANSLATE:
        return AC.continue_translate(ip, s, h, ev, evn)
    if proc == S.PR_SEAL:
        return AC.continue_seal(ip, s, rng, ev, evn)
    if proc == S.PR_TRAVEL:
        AC.ask_cur(s, S.D_TRAVEL)
        return 1
    if proc == S.PR_SETUP:
        t = frame_get(s, 0)
        if t < S.N_TOWNS:
            SU.side_context(s, ip, t)
            ask(s, 0, S.D_TOWN_SIDE)
            return 1
        frame_pop(s)
        SU.setup_spins(ip, s, h, rng, ev, evn)
        return 0
    frame_pop(s)  # (no procedure leaves another kind of frame to resume)
    return 0


@njit(cache=True, _nrt=False)
def end_game(ip, s, ev, evn):
    """The game is over: the turn it ended in is closed as the trace tells it, every frame
    goes, and no seat is asked anything more."""
    if s[DEPTH] > 0 and s[FRAMES] == S.PR_TURN:
        if s[FRAMES + 1] == S.TS_ACTIONS:  # ended by an action: the turn ends with it
            c = s[S.S_CUR]
            S.log(ev, evn, S.EV_TURN_END, c, s[S.S_ACTIONS_LEFT], s[S.char(c) + S.P_CHAOS], 0,
                0, 0, 0)
            s[S.S_MUST_MOVE] = 0
        log_status(s, ev, evn)
    while s[DEPTH] > 0:
        frame_pop(s)
    S.log(ev, evn, S.EV_END, s[OUTCOME], s[TURN], 0, 0, 0, 0, 0)
    finish(s, s[OUTCOME], -1)


@njit(cache=True, _nrt=False, forceinline=True)
def run_frames(ip, s, h, rng, ev, evn):
    """Resume procedures until one asks (returns 1), the stack is empty or the game is over
    (returns 0)."""
    while s[OUTCOME] == PLAYING and s[DEPTH] > 0:
        if resume(ip, s, h, rng, ev, evn):
            return 1
    return 0


@njit(cache=True, _nrt=False, forceinline=True)
def advance(ip, s, h, rng, ev, evn):
    """Run every forced step and chance draw up to the next decision or the end."""
    while True:
        if run_frames(ip, s, h, rng, ev, evn):
            return
        if s[OUTCOME] != PLAYING:
            end_game(ip, s, ev, evn)
            return
        begin_turn(ip, s, ev, evn)


@njit(cache=True, _nrt=False, forceinline=True)
def answer(ip, s, h, rng, a, ev, evn):
    """Apply answer ``a`` to the question asked (``s[DECISION]``, about the procedure on top
    of the stack); it never asks anything itself."""
    d = s[DECISION]
    if d == S.D_ACTION:
        answer_action(ip, s, a, ev, evn)
    elif d == S.D_FLIP:
        AC.answer_flip(ip, s, h, a, ev, evn)
    elif d == S.D_REROLL:
        AC.answer_reroll(ip, s, rng, a, ev, evn)
    elif d == S.D_BANISH:
        AC.answer_banish(s, a, ev, evn)
    elif d == S.D_PAY:
        if frame_proc(s) == S.PR_SEAL:
            AC.answer_seal_cover(s, a, ev, evn)
        else:
            AC.answer_pay(s, a, ev, evn)
    elif d == S.D_DIRECTION:
        AC.answer_direction(s, a)
    elif d == S.D_TRAVEL:
        AC.answer_travel(ip, s, rng, a, ev, evn)
    elif d == S.D_TOWN_SIDE:
        t = frame_get(s, 0)
        SU.set_side(s, ip, t, a, ev, evn)
        frame_set(s, 0, t + 1)
    elif d == S.D_POINTER_MADNESS and frame_proc(s) == S.PR_TURN:
        W.pointer_madness(s, a, ev, evn)
    else:  # D_COLLECT, D_VENT, D_STUDY, D_BARRICADE, D_GATHER, D_EXCHANGE, purge's colour
        AC.answer_repeat(ip, s, h, a, ev, evn)


# ---- the step contract -----------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def init_logged(ip, s, h, rng, ev, evn):
    """``init`` with its events logged (the trace replays it: the engine's ``init`` logs
    nothing, and the setup's spins are chance the game's stream decides)."""
    if SU.setup_begin(ip, s, h, rng, ev, evn):
        frame_push(s, S.PR_SETUP)  # TEC-S-1: the strategy chooses each Town card's side
    advance(ip, s, h, rng, ev, evn)


@njit(cache=True, _nrt=False)
def init(ip, fp, s, h, rng):
    """TEC-S-1..12, then the first turn up to its first decision.  Compiled without
    reference counting (as every function of the rules is: the counts are atomic operations
    on every array passed, most of a game's time), so nothing here allocates: the event log
    is an array of no rows carved from ``h`` (S.log never writes to it, nor to ``evn``)."""
    init_logged(ip, s, h, rng, h[:0].reshape((0, EV_WIDTH)), h[:1])


@njit(cache=True, _nrt=False, forceinline=True)
def legal_choices(ip, s):
    """The answers open to the question asked (``s[DECISION]``), as bits (bit k: answer k;
    every answer is below 32)."""
    d = s[DECISION]
    if d == S.D_ACTION:
        return L.action_bits(s, ip)
    c = s[S.S_CUR]
    bits = 0
    if d == S.D_FLIP:
        bits = L.flip_options(s, frame_get(s, 2), frame_get(s, 3), frame_get(s, 4), ip)
    elif d == S.D_REROLL:
        bits = L.reroll_options(s[S.S_NDICE], s[S.S_REROLLS])
    elif d == S.D_BANISH:
        bits = L.banish_options(s, c, s[S.char(c) + S.P_TOWN], frame_get(s, 2)) | (
            1 << S.STOP)
    elif d == S.D_PAY:
        if frame_proc(s) == S.PR_SEAL:
            bits = 3
        else:
            lo, hi = L.pay_range(s, c, frame_get(s, 0), frame_get(s, 1), frame_get(s, 2))
            for x in range(lo, hi + 1):
                bits |= 1 << x
    elif d == S.D_DIRECTION or d == S.D_TOWN_SIDE:
        bits = 3
    elif d == S.D_TRAVEL:
        bits = L.travel_options(s, s[S.char(c) + S.P_TOWN])
    elif d == S.D_POINTER_MADNESS and frame_proc(s) == S.PR_TURN:
        bits = L.repeat_options(s, c, ip, d)
    else:
        bits = L.repeat_options(s, c, ip, d) | (1 << L.repeat_stop(d))
    return bits


@njit(cache=True, _nrt=False, forceinline=True)
def legal_mask(ip, s, mask):
    """The answers open to the question asked as the legal mask: ``legal``, inlined where the
    runner asks it."""
    return L.bits_to_mask(legal_choices(ip, s), mask)


@njit(cache=True, _nrt=False)
def legal(ip, fp, s, h, mask):
    """The answers open to the question asked (``s[DECISION]``)."""
    return legal_mask(ip, s, mask)


@njit(cache=True, _nrt=False, forceinline=True)
def step_to_next(ip, s, h, rng, action, ev, evn):
    """``step``, inlined where the runner plays."""
    answer(ip, s, h, rng, action, ev, evn)
    advance(ip, s, h, rng, ev, evn)


@njit(cache=True, _nrt=False)
def step(ip, fp, s, h, rng, action, ev, evn):
    step_to_next(ip, s, h, rng, action, ev, evn)


@njit(cache=True, _nrt=False)
def determinize(ip, fp, s, view, seat, rng, h):
    """Deal the Page cards nobody has seen (neither face up beside a Town card nor
    translated) afresh: the face-down cards beside the Town cards, then the deck."""
    n = 0
    gone = s[S.S_GONE]
    for card in range(ip[S.I_N_PAGES]):
        if (gone >> card) & 1:
            continue
        seen = False
        for t in range(S.N_TOWNS):
            if s[S.town(t) + S.T_PAGE_STATE] == 1 and s[S.town(t) + S.T_PAGE] == card:
                seen = True
        if not seen:
            h[S.H_DECK + n] = card
            n += 1
    shuffle(rng, h[S.H_DECK:S.H_DECK + n], n)
    k = 0
    for t in range(S.N_TOWNS):
        if s[S.town(t) + S.T_PAGE_STATE] == 0:
            h[S.H_DOWN + t] = h[S.H_DECK + k]
            k += 1
        else:
            h[S.H_DOWN + t] = -1
    h[S.H_DECK_TOP] = k  # the deck: the rest, S_DECK_LEFT of them


@njit(cache=True, _nrt=False)
def returns(ip, fp, s, out):
    """The players win or lose together: 1 for every seat when the portals are sealed."""
    v = 1.0 if s[OUTCOME] == S.O_WIN else 0.0
    for k in range(out.shape[0]):
        out[k] = v


@njit(cache=True, _nrt=False)
def record(ip, fp, s, h, rec):
    pages = 0
    for c in range(s[S.S_NCHARS]):
        pages += s[S.char(c) + S.P_PAGES]
    rec[S.R_OUTCOME] = s[OUTCOME]
    rec[S.R_WINNER] = s[WINNER]
    rec[S.R_TURNS] = s[TURN]
    rec[S.R_PHASE2_TURN] = s[S.S_PHASE2_TURN]
    rec[S.R_PAGES] = pages
    rec[S.R_TOKENS] = s[S.S_PAGES_PLACED]
    rec[S.R_SEALED] = s[S.S_SEALED]
    rec[S.R_BANISHED] = s[S.S_CNT_BANISHED]
    rec[S.R_ACC_TOWN_MADNESS] = s[S.S_CNT_ACC + S.ACC_TOWN_MADNESS]
    rec[S.R_ACC_TOWN_SHAMBLER] = s[S.S_CNT_ACC + S.ACC_TOWN_SHAMBLER]
    rec[S.R_ACC_TEMPERAMENT] = s[S.S_CNT_ACC + S.ACC_TEMPERAMENT]
    rec[S.R_ACC_ENERGY] = s[S.S_CNT_ACC + S.ACC_ENERGY]
    rec[S.R_STRENGTH] = s[S.S_STRENGTH] + (100 if s[S.S_PHASE] == 2 else 0)
    rec[S.R_MAX_BRAIN] = s[S.S_MAX_BRAIN]
    rec[S.R_SEAL_TRIES] = s[S.S_CNT_SEAL_TRIES]
    rec[S.R_CHAOS_ACTIONS] = s[S.S_CNT_CHAOS_ACTIONS]
    rec[S.R_POWERS] = s[S.S_CNT_POWERS]
    rec[S.R_ACTIONS] = s[S.S_CNT_ACTIONS]
    rec[S.R_FLIPS] = s[S.S_CNT_FLIPS]


@njit(cache=True, _nrt=False)
def check(ip, fp, s, h):
    """The rules checker (``cthulhu-sim check``): conservation of every piece, tracks within
    their lengths, the hidden cards where the public state says they are."""
    return CK.conservation_errors(ip, s, h)


@njit(cache=True, _nrt=False)
def evaluate(ip, fp, s, out):
    """An estimate of the team's chance to win from an unfinished game (search's score when
    it cuts a playout off): see ``simcore.tec.estimate``."""
    v = EST.win_chance(ip, s)
    for k in range(out.shape[0]):
        out[k] = v


@njit(cache=True, _nrt=False, inline="always")
def legal_inline(ip, fp, s, h, mask):
    """``legal`` with the contract's arguments, inlined into ``play_one``."""
    return legal_mask(ip, s, mask)


@njit(cache=True, _nrt=False, inline="always")
def legal_bits(ip, fp, s, h):
    """``legal`` as the bits of one integer (the engine's optional ``legal_bits``), inlined
    into ``play_one``: the driver plays a uniform seat from them without building the mask."""
    return np.uint64(legal_choices(ip, s))


@njit(cache=True, _nrt=False, inline="always")
def step_inline(ip, fp, s, h, rng, action, ev, evn):
    """``step`` with the contract's arguments, inlined into ``play_one``."""
    step_to_next(ip, s, h, rng, action, ev, evn)


@njit(cache=True, _nrt=False)
def play_one(g, ip, fp, pol, sps, seat_pol, search, rpol, rsp, qp, seed, index, s, h, view,
             mask, rng, srng, qrng, wi, wf, rec, ev, evn):
    """The engine's driver compiled for this game: the same games as through the ``GAME``
    tuple, faster.  ``legal``, ``step`` and ``observe`` are handed to ``drive`` as functions
    numba inlines (``legal_inline``, ``step_inline``, ``engine.observe_inline_nothing``), so the
    driver's loop and the rules are one compiled function: no call per decision passing every
    array field by field, and no ``observe`` call at all (the players share everything).
    Compiled without reference counting, as the rules are (nothing here allocates): with it,
    numba counts references to the array views the driver takes (the strategies' parameter
    rows) with atomic operations.  Measured in NOTES.md, "The step engine"."""
    drive(init, legal_inline, legal_bits, step_inline, observe_inline_nothing, record,
          g, ip, fp, pol, sps, seat_pol, search, rpol, rsp, qp, seed, index, s, h, view, mask,
          rng, srng, qrng, wi, wf, rec, ev, evn)
