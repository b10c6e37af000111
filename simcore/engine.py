"""The step engine: the contract every step-style game keeps, its one driver and batch runner.

Why
---
A callback-style game (Sticky Cthulhu, a real-time race with nothing to search) calls the
strategy in the middle of a rule and keeps the rest of the rule on the call stack, so a game
cannot be copied at a decision and resumed.  A step-style game keeps *everything* in arrays:
copying a game is copying two arrays, and search, replays, rule tests and generic checks need
nothing else.  (Pgx writes games this way; OpenSpiel's ``State`` and TAG's ``AbstractGameState`` are
the same contract in C++ and Java.)

The arrays
----------
- ``ip`` (int64) and ``fp`` (float64): the game's parameters, built by its loader from the
  rules data.  The first ``PARAM_HEADER`` words of ``ip`` are the engine's (``P_*`` below):
  array sizes, the number of seats, a decision cap and the checking flag.
- ``s`` (int64): the public state, everything every seat may see.  Its first ``HEADER`` words
  are the engine's fixed fields (below); the game lays out the rest with :class:`Layout`.
- ``h`` (int64): the hidden state (hands, pile order, face-down bids); games of perfect
  information keep it at one unused word.
- ``view`` (int64): what ``observe`` gives one seat beyond ``s`` (its own hand, ...).
- ``mask`` (uint8): the legal choices of the decision asked, ``mask[a] == 1``.

Fixed fields of every state (``s[OUTCOME]`` ...)
-----------------------------------------------
``OUTCOME`` (``PLAYING`` = -1 while the game runs, else an index into ``Game.outcomes``),
``WINNER`` (seat or -1), ``SEAT`` (whose decision it is), ``DECISION`` (which kind of decision:
the game's ``D_*`` code), ``TURN`` (the game's turn counter), ``DECISIONS`` (decisions taken so
far: the driver counts them), and the frame stack (``DEPTH``, ``FRAMES``).

Why flat int64 arrays with a named layout, not a numpy structured dtype
----------------------------------------------------------------------
A structured dtype (``s.board.hex[12].good``) compiles and copies as one buffer, but its type
is different for every game, so the nine functions could not share one first-class function
type, and neither could the one driver, the batch runner and the search that every game uses.
A flat int64 vector is one type for all games; :class:`Layout` gives it the names a structured
dtype would (``STATE.offset("hex[12].good")``, ``describe(s)``), and the offsets are plain
module constants in the jitted code.

The frame stack
---------------
A procedure that asks several questions in a row (move a counter: which one, then where; an
auction: every bid, round after round; an Object played in another player's turn) keeps its
place in a small stack inside ``s``: each frame is a procedure id and ``FRAME_WIDTH - 1``
locals (``frame_push``, ``frame_top``, ``frame_pop``, ``frame_get``, ``frame_set``).  ``step``
looks at the top frame to know what the answer it is given is about, and pushes or pops as the
procedure goes on.  This is TAG's ``IExtendedSequence`` on ``actionsInProgress``, in arrays.

The functions a step game provides (numba, with the exact signatures ``*_SIG`` below)
-------------------------------------------------------------------------------------
- ``init(ip, fp, s, h, rng)``: set up, resolve chance, stop at the first decision.
- ``legal(ip, fp, s, h, mask) -> n``: fill ``mask`` with the choices open to ``s[SEAT]`` for
  ``s[DECISION]``; ``n`` how many.  While the game runs, ``n >= 1``.
- ``legal_bits(ip, fp, s, h) -> uint64`` (optional, handed to ``drive`` only): the same
  choices as the bits of one integer (bit k: answer k), for a game whose answers are all below
  64.  The driver plays a uniform seat from them without building the mask (the mask written
  and read back again was about 17% of a random Tiny Epic Cthulhu game); a game without it
  passes ``no_legal_bits``, whose 0 sends the driver to ``legal``.
- ``step(ip, fp, s, h, rng, action, ev, evn)``: apply the answer, then run every forced and
  chance step up to the next decision or the end.  Chance draws only from ``rng`` (the game's
  stream).  Events for the trace go to ``ev``/``evn`` (``kernels.log_event``); batch runs pass
  an array of no rows, so logging costs a test.
- ``observe(ip, fp, s, h, seat, view)``: what ``seat`` may see beyond ``s``.
- ``determinize(ip, fp, s, view, seat, rng, h)``: write into ``h`` a hidden state consistent
  with everything ``seat`` has seen (``s`` and its ``view``): unseen cards resampled.  Search
  builds its states this way, so it never reads the true hidden state.
- ``returns(ip, fp, s, out)``: each seat's result of a finished game in [0, 1] (1 a win).
- ``evaluate(ip, fp, s, out)``: an estimate of ``returns`` for an unfinished game (what a
  search cut off early uses); a game without one writes an even share.
- ``record(ip, fp, s, h, rec)``: the playout record; its first fields are ``outcome, winner,
  turns`` (the experiments layer relies on them).  The driver appends ``decisions``,
  ``searches`` (decisions answered by search), ``illegal_answers`` and ``violations`` after
  the game's own fields.
- ``check(ip, fp, s, h) -> errors``: the rules checker (conservation, legality of the
  position), run after every step when ``ip[P_CHECK]`` is 1; 0 in a game without one.

They travel together as one tuple of first-class function values (``GAME``), built in Python
by :meth:`StepGame.functions`.  First-class function values keep numba's on-disk cache working
(a jitted driver that takes dispatchers, or is made by a closure factory, recompiles in every
process), and the calls through them cost a few nanoseconds each.

Strategies
----------
A step game's strategy is a ``policy(ip, fp, s, view, mask, sp, rng) -> action`` (``POLICY``):
it sees the rules (the parameters are public knowledge), the public state, its seat's
``view``, the legal mask, its parameters and *its own* random stream, derived from (seed,
playout index) and never the game's: a strategy that draws random numbers does not change
the dice.  It is called from one place only, the driver below, never
from inside a rule.  A decision with one legal choice is not asked.  An illegal answer (outside
the mask) is replaced by the first legal choice and counted in the record's
``illegal_answers``; tests require it to stay 0.

A table of strategies plays mixed seats: up to ``MAX_POLICIES`` policies (``POLICIES``, a
tuple of function values), their parameter rows, and the policy index of each seat
(``strategy_parts`` builds them from a configured strategy or ``strategies.base.SeatTable``).
A seat whose strategy is registered as uniform (``StrategySpec.uniform``: it returns
``kernels.uniform_legal(mask, rng)`` and nothing else) has the index ``UNIFORM``, and the
driver makes that same choice inline from the same stream: the games are the same, without a
call through a function value at every decision.

Search (``strategies/search.py``) is called from the same place, for the seats named by the
bitmask ``qp[Q_SEATS]`` of its parameter vector ``qp``: ``search(g, ip, fp, s, view, mask,
policy, sp, qp, rng, wi, wf, ev, evn) -> action``, with the game's functions ``g`` to
simulate, its own rollout player (``policy``; it knows nothing of the other seats'
strategies), a stream derived from (seed, playout, decision), and workspaces ``wi``/``wf``
the runner allocates once per thread.  The engine knows only its type; ``no_search`` stands in
when no seat searches.  A table whose searching seats play different searches (``mcts:50``
against ``mcts:200``, ``flat_mc`` against ``mcts``) is handed ``search.table_search``, whose
``qp`` holds every member's own block (``search.table_setup``; ``Q_SEATS`` is still the union
of the searching seats); its members share the one rollout player (rollout parameters may
differ), and a table with one search strategy takes the plain path.

Seeding
-------
Playout ``i`` of run ``seed``: the game's stream is ``kernels.rng_seed(seed, i)`` (as for the
callback games); the strategy's is ``rng_seed_stream(seed, i, STREAM_STRATEGY, 0)``; search at
decision ``d`` uses ``rng_seed_stream(seed, i, STREAM_SEARCH, d)``.  Results do not depend on
threads, batch sizes or start offsets.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numba
import numpy as np
from numba import njit, prange, types

from simcore.game import DEFAULT_BATCH, Config, Game, GameKind
from simcore.kernels import (
    RNG_WORDS,
    first_legal,
    log_event,
    new_rng,
    nth_set_bit,
    popcount,
    rng_int_inline,
    rng_seed,
    splitmix64,
    uniform_legal,
)

# first-class function values are what keep the shared runner cached once for every game
warnings.filterwarnings("ignore", message="First-class function type feature is experimental")

# ---- the fixed fields of every step game's public state ------------------------------------
OUTCOME = 0  # PLAYING while the game runs, else an index into Game.outcomes
WINNER = 1  # the winning seat, -1 for none (a cooperative loss, a draw, a stalemate)
SEAT = 2  # whose decision it is
DECISION = 3  # which kind of decision (the game's D_* code)
TURN = 4  # the game's own turn counter
DECISIONS = 5  # decisions taken so far (counted by the driver)
DEPTH = 6  # frames on the stack
FRAMES = 7  # MAX_FRAMES frames of FRAME_WIDTH words: [procedure, local 0 .. local 4]
FRAME_WIDTH = 6
MAX_FRAMES = 8
HEADER = FRAMES + MAX_FRAMES * FRAME_WIDTH
HEADER_FIELDS = ("outcome", "winner", "seat", "decision", "turn", "decisions", "depth")
PLAYING = -1
NO_SEAT = -1

# ---- the engine's words at the head of every step game's ip --------------------------------
P_STATE_SIZE = 0  # words of s
P_HIDDEN_SIZE = 1  # words of h (at least 1)
P_VIEW_SIZE = 2  # words of view (at least 1)
P_MASK_SIZE = 3  # entries of the legal mask (every action code is below it)
P_RECORD_SIZE = 4  # words of the game's own record (before the engine's fields)
P_SEATS = 5  # seats deciding (for a cooperative game: the characters)
P_MAX_DECISIONS = 6  # a guard: a playout taking more decisions is cut off as a fault
P_CHECK = 7  # 1: run the rules checker after every step
PARAM_HEADER = 8

# the engine's fields after the game's own record fields
ENGINE_RECORD_FIELDS = ("decisions", "searches", "illegal_answers", "violations")
N_ENGINE_RECORD = len(ENGINE_RECORD_FIELDS)

# ---- search parameters: the only word of qp the engine reads --------------------------------
Q_SEATS = 0  # bitmask of the seats that search (0: none)

# ---- random streams beside the game's own ---------------------------------------------------
STREAM_STRATEGY = 1
STREAM_SEARCH = 2

# ---- trace events the driver writes (games use codes below ENGINE_EVENTS) -------------------
ENGINE_EVENTS = 9000
EV_DECIDE = 9000  # seat, decision kind, action, legal choices, turn, searched, replaced
EV_SEARCH = 9001  # action, visits, value (millionths), rank, iterations (search's own rows)
EV_FAULT = 9002  # decisions taken (the decision guard cut the playout off)
EV_WIDTH = 8

_I1 = types.int64[::1]
_I2 = types.int64[:, ::1]
_F1 = types.float64[::1]
_F2 = types.float64[:, ::1]
_U1 = types.uint64[::1]
_B1 = types.uint8[::1]
_INT = types.int64

INIT_SIG = types.void(_I1, _F1, _I1, _I1, _U1)
LEGAL_SIG = types.int64(_I1, _F1, _I1, _I1, _B1)
STEP_SIG = types.void(_I1, _F1, _I1, _I1, _U1, _INT, _I2, _I1)
OBSERVE_SIG = types.void(_I1, _F1, _I1, _I1, _INT, _I1)
DETERMINIZE_SIG = types.void(_I1, _F1, _I1, _I1, _INT, _U1, _I1)
RETURNS_SIG = types.void(_I1, _F1, _I1, _F1)
EVALUATE_SIG = RETURNS_SIG
RECORD_SIG = types.void(_I1, _F1, _I1, _I1, _I1)
CHECK_SIG = types.int64(_I1, _F1, _I1, _I1)
POLICY_SIG = types.int64(_I1, _F1, _I1, _I1, _B1, _F1, _U1)

INIT = types.FunctionType(INIT_SIG)
LEGAL = types.FunctionType(LEGAL_SIG)
STEP = types.FunctionType(STEP_SIG)
OBSERVE = types.FunctionType(OBSERVE_SIG)
DETERMINIZE = types.FunctionType(DETERMINIZE_SIG)
RETURNS = types.FunctionType(RETURNS_SIG)
EVALUATE = types.FunctionType(EVALUATE_SIG)
RECORD = types.FunctionType(RECORD_SIG)
CHECK = types.FunctionType(CHECK_SIG)
POLICY = types.FunctionType(POLICY_SIG)
# a table of strategies: up to MAX_POLICIES policies, and which plays each seat
MAX_POLICIES = 4
MAX_TABLE_SEATS = 8
# a seat's policy index for a strategy that chooses uniformly among the legal choices from its
# own stream (``kernels.uniform_legal``, ``StrategySpec.uniform``): the driver chooses for it
# inline, the same choice without a call through a function value (9% of a random game)
UNIFORM = MAX_POLICIES
POLICIES = types.UniTuple(POLICY, MAX_POLICIES)
# the game's functions, in this order (StepGame.functions builds it)
GAME = types.Tuple((INIT, LEGAL, STEP, OBSERVE, DETERMINIZE, RETURNS, EVALUATE, RECORD, CHECK))
GAME_FUNCTION_NAMES = ("init", "legal", "step", "observe", "determinize", "returns",
                       "evaluate", "record", "check")
SEARCH_SIG = types.int64(GAME, _I1, _F1, _I1, _I1, _B1, POLICY, _F1, _F1, _U1, _I1, _F1,
                         _I2, _I1)
SEARCH = types.FunctionType(SEARCH_SIG)

CHUNK = 8  # playouts a prange iteration plays (each thread reuses its arrays across them)


# ---- frames ---------------------------------------------------------------------------------
@njit(cache=True, _nrt=False, forceinline=True)
def frame_push(s, proc):
    """Push a frame for procedure ``proc`` with its locals zeroed; returns its offset."""
    d = s[DEPTH]
    base = FRAMES + d * FRAME_WIDTH
    s[base] = proc
    for k in range(1, FRAME_WIDTH):
        s[base + k] = 0
    s[DEPTH] = d + 1
    return base


@njit(cache=True, _nrt=False, forceinline=True)
def frame_top(s):
    """Offset of the top frame (-1 when the stack is empty)."""
    d = s[DEPTH]
    return FRAMES + (d - 1) * FRAME_WIDTH if d > 0 else -1


@njit(cache=True, _nrt=False, forceinline=True)
def frame_proc(s):
    """The procedure of the top frame (-1 when the stack is empty)."""
    d = s[DEPTH]
    return s[FRAMES + (d - 1) * FRAME_WIDTH] if d > 0 else -1


@njit(cache=True, _nrt=False, forceinline=True)
def frame_get(s, k):
    """Local ``k`` (0 .. FRAME_WIDTH - 2) of the top frame."""
    return s[FRAMES + (s[DEPTH] - 1) * FRAME_WIDTH + 1 + k]


@njit(cache=True, _nrt=False, forceinline=True)
def frame_set(s, k, value):
    s[FRAMES + (s[DEPTH] - 1) * FRAME_WIDTH + 1 + k] = value


@njit(cache=True, _nrt=False, forceinline=True)
def frame_pop(s):
    d = s[DEPTH] - 1
    s[FRAMES + d * FRAME_WIDTH] = 0
    s[DEPTH] = d


@njit(cache=True, _nrt=False, forceinline=True)
def ask(s, seat, decision):
    """Stop at a decision: ``seat`` is to answer a ``decision``."""
    s[SEAT] = seat
    s[DECISION] = decision


@njit(cache=True, _nrt=False, forceinline=True)
def finish(s, outcome, winner):
    """End the game: no seat is asked anything more."""
    s[OUTCOME] = outcome
    s[WINNER] = winner
    s[SEAT] = NO_SEAT
    s[DECISION] = 0


@njit(cache=True, _nrt=False)
def clear_header(s):
    """A fresh state's engine fields (``init`` calls it first)."""
    for k in range(HEADER):
        s[k] = 0
    s[OUTCOME] = PLAYING
    s[WINNER] = -1
    s[SEAT] = NO_SEAT


# ---- streams --------------------------------------------------------------------------------
_STREAM_MIX = np.uint64(0xA0761D6478BD642F)
_SUB_MIX = np.uint64(0xE7037ED1A0B428DB)


@njit(cache=True, _nrt=False)
def rng_seed_stream(state, seed, index, stream, sub):
    """Seed ``state`` for stream ``stream`` (>= 1), sub-stream ``sub`` of playout ``index``
    of run ``seed``: independent of the game's own stream ``rng_seed(seed, index)``."""
    rng_seed(state, seed, index)
    key = state[0] ^ splitmix64(np.uint64(stream) * _STREAM_MIX ^ np.uint64(sub) * _SUB_MIX)
    for k in range(RNG_WORDS):
        key = splitmix64(key)
        state[k] = key
    if state[0] == 0 and state[1] == 0 and state[2] == 0 and state[3] == 0:
        state[0] = _STREAM_MIX


# ---- stand-ins for what a game or strategy may lack -----------------------------------------
@njit(cache=True)
def observe_nothing(ip, fp, s, h, seat, view):
    """``observe`` of a game whose seats see nothing beyond the public state."""
    return


@njit(cache=True, _nrt=False, inline="always")
def observe_inline_nothing(ip, fp, s, h, seat, view):
    """``observe_nothing`` for a game's ``play_one`` to hand ``drive``: numba inlines it, so
    the driver's call to ``observe`` compiles to nothing (``observe_nothing`` is a call that
    passes every array field by field, at every decision with a choice)."""
    return


@njit(cache=True, _nrt=False, inline="always")
def no_legal_bits(ip, fp, s, h):
    """``legal_bits`` of a game that gives its legal choices only as the mask: 0 (the
    driver then builds the mask); inlined, the driver's bit path compiles to nothing."""
    return np.uint64(0)


@njit(cache=True)
def determinize_nothing(ip, fp, s, view, seat, rng, h):
    """``determinize`` of a game with no hidden state."""
    return


@njit(cache=True)
def evaluate_even(ip, fp, s, out):
    """``evaluate`` of a game that offers no estimate: an even share for every seat."""
    n = ip[P_SEATS]
    for k in range(out.shape[0]):
        out[k] = 1.0 / n if n > 0 else 0.0


@njit(cache=True)
def check_nothing(ip, fp, s, h):
    """``check`` of a game without a rules checker."""
    return 0


@njit(cache=True)
def no_search(g, ip, fp, s, view, mask, policy, sp, qp, rng, wi, wf, ev, evn):
    """The search of a strategy that does not search (never called: ``qp[Q_SEATS]`` is 0)."""
    return first_legal(mask)


# ---- the GAME tuple of a run that never reads it --------------------------------------------
# The driver reads ``g`` only for search and the rules checker; a run with neither (almost every
# run) is handed these stand-ins, so its game's standalone ``legal``, ``step``, ``determinize``
# ... are not compiled for it (``play_one`` has its own copies inlined): a third of a cold Tiny
# Epic Cthulhu compile.  Tests, search and ``check`` use the game's own (StepGame.functions).
@njit(cache=True)
def unused_init(ip, fp, s, h, rng):
    return


@njit(cache=True)
def unused_legal(ip, fp, s, h, mask):
    return 0


@njit(cache=True)
def unused_step(ip, fp, s, h, rng, action, ev, evn):
    return


@njit(cache=True)
def unused_record(ip, fp, s, h, rec):
    return


UNUSED_GAME_FUNCTIONS = (unused_init, unused_legal, unused_step, observe_nothing,
                         determinize_nothing, evaluate_even, evaluate_even, unused_record,
                         check_nothing)


# ---- compiling on first use -------------------------------------------------------------------
# Every jitted function of the project is compiled when it is first used, not when its module
# is imported: a function with an explicit signature (``@njit(SIG)``) compiles at import, and a
# run of one game imported every game's rules and every strategy (the first-class function
# values of ``GAME``, ``POLICY`` and ``SEARCH`` compile on demand for their type).  The runners,
# called from Python with dispatchers that must become function values, are fixed to their
# signatures on their first call (``ready``).
def ready(dispatcher: Any, *sigs: Any) -> Any:
    """``dispatcher`` compiled (or loaded from the cache) for ``sigs`` and closed to any
    other: arguments then convert to those types (a dispatcher to its function value)
    instead of compiling a version for each dispatcher passed."""
    if getattr(dispatcher, "_project_ready", None) != sigs:
        for sig in sigs:
            compile_for(dispatcher, sig)
        dispatcher.disable_compile()
        dispatcher._project_ready = sigs
    return dispatcher


# ---- the driver -----------------------------------------------------------------------------
@njit(cache=True, inline="always")  # (a call passing dispatchers as values would not cache)
def drive(init, legal, legal_bits, step, observe, record, g, ip, fp, pol, sps, seat_pol, search,
          rpol, rsp, qp, seed, index, s, h, view, mask, rng, srng, qrng, wi, wf, rec, ev, evn):
    """Play playout ``index`` of run ``seed`` to the end and fill ``rec``: the one place where
    strategies (and search) are asked.  Seat ``k`` is played by policy ``pol[seat_pol[k]]``
    with parameters ``sps[seat_pol[k]]``; the seats in ``qp[Q_SEATS]`` search instead, with
    ``rpol`` (parameters ``rsp``) as their rollout player.

    The game's functions come twice: one by one (``init`` .. ``record``), which the driver
    calls, and as the ``GAME`` tuple ``g``, which search is handed and from which the driver
    takes the rules checker (called only while checking: Python passes at most 30 arguments
    to a call without packing them, and numba cannot inline a packed call).  Each game's rules
    module compiles this driver for itself in a ``play_one`` with ``PLAY_SIG`` that passes its own
    functions (``simcore/hex/rules.py``), so the calls to ``legal`` and ``step`` are direct,
    and can be inlined, instead of calls through function values that pass every array field
    by field (measured: 30% of a Tiny Epic Cthulhu game).  Never call ``drive`` with the
    tuple's function values: numba would then match every game's ``play_one`` to that
    compiled version (a dispatcher converts to a function value), which both undoes the gain
    and keeps ``play_one`` out of the disk cache."""
    rng_seed(rng, seed, index)
    rng_seed_stream(srng, seed, index, STREAM_STRATEGY, 0)
    checking = ip[P_CHECK] == 1
    check = g[8]
    search_seats = np.int64(qp[Q_SEATS])
    max_decisions = ip[P_MAX_DECISIONS]
    sp0 = sps[0]
    sp1 = sps[1]
    sp2 = sps[2]
    sp3 = sps[3]
    illegal = 0
    errors = 0
    searches = 0
    init(ip, fp, s, h, rng)
    if checking:
        errors += check(ip, fp, s, h)
    while s[OUTCOME] == PLAYING:
        if s[DECISIONS] >= max_decisions:  # a game that does not end is a fault, not a hang
            errors += 1
            log_event(ev, evn, EV_FAULT, s[DECISIONS], 0, 0, 0, 0, 0, 0)
            break
        seat = s[SEAT]
        searched = 0
        replaced = 0
        k = seat_pol[seat] if 0 <= seat < seat_pol.shape[0] else 0
        searching = seat >= 0 and ((search_seats >> seat) & 1) == 1
        # a uniform seat of a game that gives its choices as bits: chosen from them, with no
        # mask built (the same choice uniform_legal makes from the mask, from the same stream)
        bits = legal_bits(ip, fp, s, h) if k == UNIFORM and not searching else np.uint64(0)
        if bits != 0:
            n = np.int64(popcount(bits))
            a = nth_set_bit(bits, rng_int_inline(srng, n) if n > 1 else 0)
        else:
            n = legal(ip, fp, s, h, mask)
            if n == 1:
                a = first_legal(mask)
            else:
                observe(ip, fp, s, h, seat, view)
                if searching:
                    rng_seed_stream(qrng, seed, index, STREAM_SEARCH, s[DECISIONS])
                    a = search(g, ip, fp, s, view, mask, rpol, rsp, qp, qrng, wi, wf, ev, evn)
                    searched = 1
                    searches += 1
                elif k == UNIFORM:  # the uniform strategy, inline: the same choice, no call
                    a = uniform_legal(mask, srng)
                else:
                    spk = sp0 if k == 0 else (sp1 if k == 1 else (sp2 if k == 2 else sp3))
                    a = pol[k](ip, fp, s, view, mask, spk, srng)
                if a < 0 or a >= mask.shape[0] or mask[a] == 0:
                    a = first_legal(mask)
                    illegal += 1
                    replaced = 1
        log_event(ev, evn, EV_DECIDE, seat, s[DECISION], a, n, s[TURN], searched, replaced)
        s[DECISIONS] += 1
        step(ip, fp, s, h, rng, a, ev, evn)
        if checking:
            errors += check(ip, fp, s, h)
    record(ip, fp, s, h, rec)
    k = ip[P_RECORD_SIZE]
    rec[k] = s[DECISIONS]
    rec[k + 1] = searches
    rec[k + 2] = illegal
    rec[k + 3] = errors


# A game's play_one is called only by run_batch and trace_game below, with arrays each allocated
# apart (new_arrays): it is compiled with its array arguments marked as not aliasing one
# another (simcore/_codegen.py), so it must never be handed two views of one array.
PLAY_SIG = types.void(GAME, _I1, _F1, POLICIES, _F2, _I1, SEARCH, POLICY, _F1, _F1, _INT, _INT,
                      _I1, _I1, _I1, _B1, _U1, _U1, _U1, _I1, _F1, _I1, _I2, _I1)
PLAY = types.FunctionType(PLAY_SIG)


@njit(cache=True)
def new_arrays(ip, wi_size, wf_size):
    """One thread's arrays, reused by every playout it plays."""
    s = np.zeros(ip[P_STATE_SIZE], dtype=np.int64)
    h = np.zeros(max(ip[P_HIDDEN_SIZE], 1), dtype=np.int64)
    view = np.zeros(max(ip[P_VIEW_SIZE], 1), dtype=np.int64)
    mask = np.zeros(ip[P_MASK_SIZE], dtype=np.uint8)
    rng = np.empty(RNG_WORDS, dtype=np.uint64)
    srng = np.empty(RNG_WORDS, dtype=np.uint64)
    qrng = np.empty(RNG_WORDS, dtype=np.uint64)
    wi = np.zeros(max(wi_size, 1), dtype=np.int64)
    wf = np.zeros(max(wf_size, 1), dtype=np.float64)
    rec = np.zeros(ip[P_RECORD_SIZE] + N_ENGINE_RECORD, dtype=np.int64)
    return s, h, view, mask, rng, srng, qrng, wi, wf, rec


_RUN_SIG = types.void(PLAY, GAME, _I1, _F1, POLICIES, _F2, _I1, SEARCH, POLICY, _F1, _F1, _INT,
                      _INT, _I2, _INT, _INT)


@njit(cache=True, parallel=True)
def run_batch(play_one, g, ip, fp, pol, sps, seat_pol, search, rpol, rsp, qp, seed, start, out,
              wi_size, wf_size):
    """Play playouts ``start .. start + len(out) - 1`` in parallel, one record row each.
    Playout ``i`` writes only ``out[i]`` from its own streams, so the thread count and the
    batch size change nothing."""
    n = out.shape[0]
    width = out.shape[1]
    # a searching game takes long enough that its arrays are nothing to make, and runs of
    # search come in batches of a game a thread (Ctrl-C between batches): one game an
    # iteration, so each thread plays one
    chunk = 1 if qp[Q_SEATS] != 0 else CHUNK
    n_chunks = (n + chunk - 1) // chunk
    for c in prange(n_chunks):
        s, h, view, mask, rng, srng, qrng, wi, wf, rec = new_arrays(ip, wi_size, wf_size)
        ev = np.zeros((0, EV_WIDTH), dtype=np.int64)  # no rows: nothing is logged
        evn = np.zeros(1, dtype=np.int64)
        for i in range(c * chunk, min(n, (c + 1) * chunk)):
            play_one(g, ip, fp, pol, sps, seat_pol, search, rpol, rsp, qp, seed, start + i, s,
                     h, view, mask, rng, srng, qrng, wi, wf, rec, ev, evn)
            for k in range(width):
                out[i, k] = rec[k]


_TRACE_SIG = types.int64(PLAY, GAME, _I1, _F1, POLICIES, _F2, _I1, SEARCH, POLICY, _F1, _F1,
                         _INT, _INT, _I1, _I2, _INT, _INT)


@njit(cache=True)
def trace_game(play_one, g, ip, fp, pol, sps, seat_pol, search, rpol, rsp, qp, seed, index, rec,
               ev, wi_size, wf_size):
    """Replay playout ``index`` of run ``seed`` with every event logged into ``ev``; fills
    ``rec`` (the same record the batch gives) and returns the number of events."""
    s, h, view, mask, rng, srng, qrng, wi, wf, rec0 = new_arrays(ip, wi_size, wf_size)
    evn = np.zeros(1, dtype=np.int64)
    play_one(g, ip, fp, pol, sps, seat_pol, search, rpol, rsp, qp, seed, index, s, h, view,
             mask, rng, srng, qrng, wi, wf, rec0, ev, evn)
    for k in range(rec.shape[0]):
        rec[k] = rec0[k]
    return evn[0]


# A search asked from Python (tests, tools) goes through this runner too: a cached function
# compiled with dispatchers as arguments is keyed on those dispatcher objects, so it is never
# loaded again by another process, its entry piles up in the cache index, and once the index
# holds more dispatchers than numba keeps alive (128) saving any entry fails.  Fixed to
# function values (``ready``), the search compiles once, as the driver calls it.
_SEARCH_ONCE_SIG = types.int64(SEARCH, GAME, _I1, _F1, _I1, _I1, _B1, POLICY, _F1, _F1, _U1,
                               _I1, _F1, _I2, _I1)


@njit(cache=True)
def search_once(search, g, ip, fp, s, view, mask, rpol, rsp, qp, qrng, wi, wf, ev, evn):
    """The answer of ``search`` at state ``s`` seen as ``view``, called as the driver calls it."""
    return search(g, ip, fp, s, view, mask, rpol, rsp, qp, qrng, wi, wf, ev, evn)


def search_runner() -> Any:
    """``search_once`` ready for its signature (see ``ready``)."""
    return ready(search_once, _SEARCH_ONCE_SIG)


# ---- the same runner for callback-style games ------------------------------------------------
# A callback game's rules call its strategy from inside a rule (``decide``, typed by what the
# game shows its strategies), so it cannot be stepped; it plays whole playouts.  It provides a
# ``play_block(ip, fp, decide, sp, seed, first, out, row, rows)`` that plays playouts
# ``first .. first + rows - 1`` into ``out[row .. row + rows - 1]``, each seeded from (seed,
# playout index) alone, with its thread's arrays made once per block; this runner spreads the
# blocks over the threads.
DECIDE_STATE = types.FunctionType(types.int64(_I1, _B1, _F1, _U1))  # sees an int64 state
DECIDE_VIEW = types.FunctionType(types.int64(_F1, _B1, _F1, _U1))  # sees a float64 view


def play_block_sig(decide_type: types.Type) -> types.Signature:
    return types.void(_I1, _F1, decide_type, _F1, _INT, _INT, _I2, _INT, _INT)


PLAY_BLOCK_STATE = types.FunctionType(play_block_sig(DECIDE_STATE))
PLAY_BLOCK_VIEW = types.FunctionType(play_block_sig(DECIDE_VIEW))


_CALLBACK_RUN_SIGS = tuple(types.void(block, _I1, _F1, decide, _F1, _INT, _INT, _I2, _INT)
                           for block, decide in ((PLAY_BLOCK_STATE, DECIDE_STATE),
                                                 (PLAY_BLOCK_VIEW, DECIDE_VIEW)))


@njit(cache=True, parallel=True)
def run_callback_batch(play_block, ip, fp, decide, sp, seed, start, out, chunk):
    """Play playouts ``start .. start + len(out) - 1`` of a callback game in parallel, in
    blocks of ``chunk``: playout ``i`` writes only ``out[i]``, so the thread count and the batch
    size change nothing."""
    n = out.shape[0]
    n_chunks = (n + chunk - 1) // chunk
    for c in prange(n_chunks):
        first = c * chunk
        play_block(ip, fp, decide, sp, seed, start + first, out, first, min(chunk, n - first))


# ---- the Python side: a named layout and the StepGame base class ----------------------------
class Layout:
    """Names every word of a flat int64 array (a state, a view, a parameter vector).

    ``field(name)`` takes one word, ``array(name, n)`` takes ``n`` consecutive words addressed
    as ``name[i]``; a dotted name groups arrays that share an index (``hex.good`` and
    ``hex.bad``, addressed ``hex[12].good``).  The offsets it returns are the module
    constants the jitted code uses; ``offset(path)`` turns a name back into one (for tests),
    and ``describe(arr)`` prints an array by name (for traces and debugging).
    """

    def __init__(self, name: str, start: int = 0, reserved: tuple[str, ...] = ()) -> None:
        self.name = name
        self.size = start
        self._fields: dict[str, tuple[int, int]] = {}  # name -> (offset, length; 0 = scalar)
        for k, field_name in enumerate(reserved):
            self._fields[field_name] = (k, 0)

    def field(self, name: str) -> int:
        return self._take(name, 0)

    def array(self, name: str, n: int) -> int:
        if n < 1:
            raise ValueError(f"{self.name}: array {name!r} needs at least one word")
        return self._take(name, n)

    def _take(self, name: str, n: int) -> int:
        if name in self._fields:
            raise ValueError(f"{self.name}: {name!r} is laid out twice")
        off = self.size
        self._fields[name] = (off, n)
        self.size += max(n, 1)
        return off

    def names(self) -> list[str]:
        return list(self._fields)

    def offset(self, path: str) -> int:
        """``"turn"``, ``"counter.pos[3]"``, or ``"counter[3].pos"`` (the grouped form)."""
        name, index = path, None
        if "[" in path:
            head, _, rest = path.partition("[")
            idx, _, tail = rest.partition("]")
            if not idx.isdigit():
                raise KeyError(f"{self.name}: bad index in {path!r}")
            index = int(idx)
            name = head + tail if tail.startswith(".") or not tail else head + "." + tail
        if name not in self._fields:
            raise KeyError(f"{self.name}: no field {name!r}; fields: {', '.join(self._fields)}")
        off, n = self._fields[name]
        if index is None:
            if n:
                raise KeyError(f"{self.name}: {name!r} is an array of {n}: give an index")
            return off
        if not n or not 0 <= index < n:
            raise KeyError(f"{self.name}: index {index} is outside {name!r} "
                           f"({n or 'a single word'})")
        return off + index

    def read(self, arr: np.ndarray, path: str) -> int:
        return int(arr[self.offset(path)])

    def describe(self, arr: np.ndarray, skip_zero: bool = True) -> str:
        """Every field of ``arr`` by name (arrays on one line each; all-zero ones left out
        unless ``skip_zero`` is False)."""
        lines = []
        for name, (off, n) in self._fields.items():
            if n == 0:
                value = int(arr[off])
                if value or not skip_zero:
                    lines.append(f"{name} = {value}")
            else:
                part = arr[off:off + n]
                if part.any() or not skip_zero:
                    lines.append(f"{name} = [{' '.join(str(int(v)) for v in part)}]")
        return "\n".join(lines)


def state_layout(name: str) -> Layout:
    """A game state's layout, starting after the engine's fixed fields."""
    lay = Layout(name, HEADER, reserved=HEADER_FIELDS)
    lay._fields["frames"] = (FRAMES, MAX_FRAMES * FRAME_WIDTH)
    return lay


def param_layout(name: str) -> Layout:
    """A game's ``ip`` layout, starting after the engine's words."""
    return Layout(name, PARAM_HEADER, reserved=("state_size", "hidden_size", "view_size",
                                                "mask_size", "record_size", "seats",
                                                "max_decisions", "check"))


def fill_param_header(ip: np.ndarray, *, state_size: int, hidden_size: int, view_size: int,
                      mask_size: int, record_size: int, seats: int, max_decisions: int) -> None:
    ip[P_STATE_SIZE] = state_size
    ip[P_HIDDEN_SIZE] = max(hidden_size, 1)
    ip[P_VIEW_SIZE] = max(view_size, 1)
    ip[P_MASK_SIZE] = mask_size
    ip[P_RECORD_SIZE] = record_size
    ip[P_SEATS] = seats
    ip[P_MAX_DECISIONS] = max_decisions
    ip[P_CHECK] = 0


def strategy_parts(strategy: Any, ip: np.ndarray) -> tuple:
    """What the driver is handed for a configured strategy (one strategy for every seat, or a
    table of them, see ``strategies.base.SeatTable``): (policies, their parameter rows, the
    policy of each seat, the search function, its rollout policy and parameters, the search
    parameters, int and float workspace words)."""
    n_seats = max(int(ip[P_SEATS]), 1)
    if hasattr(strategy, "seat_members"):
        members, seat_of = strategy.seat_members(n_seats)
    else:
        members, seat_of = [strategy], [0] * n_seats
    if not 1 <= len(members) <= MAX_POLICIES:
        raise ValueError(f"a table holds 1 to {MAX_POLICIES} different strategies, "
                         f"not {len(members)}")
    if n_seats > MAX_TABLE_SEATS:
        raise ValueError(f"the driver holds at most {MAX_TABLE_SEATS} seats")
    fns = [m.fn for m in members]
    rows = [np.asarray(policy_values(m), dtype=np.float64) for m in members]
    width = max(max(r.size for r in rows), 1)
    sps = np.zeros((MAX_POLICIES, width), dtype=np.float64)
    for k in range(MAX_POLICIES):
        r = rows[k] if k < len(rows) else rows[0]
        sps[k, :r.size] = r
    pols = tuple(fns[k] if k < len(fns) else fns[0] for k in range(MAX_POLICIES))
    seat_pol = np.zeros(MAX_TABLE_SEATS, dtype=np.int64)
    seat_pol[:n_seats] = [UNIFORM if getattr(members[m], "uniform", False) else m
                          for m in seat_of]
    searching = [k for k, m in enumerate(members) if getattr(m, "search_fn", None) is not None]
    if len(searching) > 1:  # different searches at one table: one combined search
        return _table_search_parts(members, seat_of, searching, rows, ip, pols, sps, seat_pol)
    if not searching:
        return (pols, sps, seat_pol, no_search, fns[0], rows[0], np.zeros(1, dtype=np.float64),
                0, 0)
    k = searching[0]
    searcher = members[k]
    qp, ints, floats = searcher.search_setup(ip)
    if len(members) > 1:  # at a table the search plays its own seats
        qp[Q_SEATS] = sum(1 << s for s in range(n_seats) if seat_of[s] == k)
    return (pols, sps, seat_pol, searcher.search_fn, searcher.fn, rows[k], qp, ints, floats)


# The table's search lives with the searches (strategies.search), above the engine: that
# module registers itself here when it is imported (``register_table_search``), so the engine
# never imports a strategy.  Every search member at a table came from it, so it is loaded.
TABLE_SEARCH: dict[str, Any] = {}


def register_table_search(module: Any) -> None:
    """``module`` provides ``table_search``, ``algorithm_of`` and ``table_setup``."""
    TABLE_SEARCH["module"] = module


def _table_search_parts(members: list, seat_of: list[int], searching: list[int],
                        rows: list[np.ndarray], ip: np.ndarray, pols: tuple, sps: np.ndarray,
                        seat_pol: np.ndarray) -> tuple:
    """``strategy_parts`` of a table whose searching seats play different search strategies:
    ``strategies.search.table_search`` with every member's own parameter block (a table with
    one search strategy keeps the plain path: its records are those it always had)."""
    from simcore.rules_data import RulesError  # (a ValueError every command says in a line)

    S = TABLE_SEARCH.get("module")
    if S is None:  # filled in by strategies.search, which made these members' searches
        raise RulesError("a table of several search strategies needs strategies.search "
                         "loaded (it registers the table's search with the engine)")
    rollouts = {id(members[k].fn) for k in searching}
    if len(rollouts) > 1:
        said = ", ".join(f"{members[k].name} with {getattr(members[k].rollout, 'name', '?')}"
                         for k in searching)
        raise RulesError("the search strategies at a table share one rollout player, and "
                         f"these roll out with different ones ({said}); give them the same "
                         "rollout")
    blocks = []
    for k in searching:
        alg = S.algorithm_of(members[k].search_fn)
        if alg is None:
            raise RulesError(f"{members[k].name} cannot share a table with another search "
                             "(a table of several searches holds mcts, flat_mc and improve)")
        qp, ints, floats = members[k].search_setup(ip)
        blocks.append((alg, qp, rows[k], ints, floats))
    n_seats = len(seat_of)
    seat_member = [searching.index(seat_of[s]) if seat_of[s] in searching else -1
                   for s in range(n_seats)]
    qp, ints, floats = S.table_setup(blocks, seat_member)
    first = searching[0]
    return (pols, sps, seat_pol, S.table_search, members[first].fn, rows[first], qp, ints,
            floats)


def policy_values(strategy: Any) -> np.ndarray:
    """The parameters the driver hands the strategy's policy."""
    return getattr(strategy, "policy_values", strategy.values)


# the signature of each place of ``GAME``, in its order
GAME_SIGS = (INIT_SIG, LEGAL_SIG, STEP_SIG, OBSERVE_SIG, DETERMINIZE_SIG, RETURNS_SIG,
             EVALUATE_SIG, RECORD_SIG, CHECK_SIG)


def compile_for(fn: Any, sig: Any) -> None:
    """Compile (or load) ``fn`` for ``sig``; one given its signatures is compiled already."""
    if fn._can_compile:
        fn.compile(sig)


def compile_game_functions(fns: tuple) -> None:
    """Compile (or load) a ``GAME`` tuple's functions for their places in it."""
    for fn, sig in zip(fns, GAME_SIGS, strict=True):
        compile_for(fn, sig)


def callback_runner() -> Any:
    """``run_callback_batch`` ready for its two signatures (see ``ready``)."""
    return ready(run_callback_batch, *_CALLBACK_RUN_SIGS)


def with_threads_chunked(fn: Callable, *args: Any, chunks: int = 4) -> Any:
    """Call a parallel runner with threads taking a few chunks at a time as they free up
    (games differ in length, so equal shares decided in advance would wait on the longest)."""
    with numba.parallel_chunksize(chunks):
        return fn(*args)


class StepState:
    """One game in Python (tests, tools): its arrays and the game's random stream.  ``copy``
    is the snapshot search relies on: arrays copied, nothing shared."""

    def __init__(self, s: np.ndarray, h: np.ndarray, rng: np.ndarray) -> None:
        self.s, self.h, self.rng = s, h, rng

    def copy(self) -> StepState:
        return StepState(self.s.copy(), self.h.copy(), self.rng.copy())

    def same_as(self, other: StepState) -> bool:
        return (np.array_equal(self.s, other.s) and np.array_equal(self.h, other.h)
                and np.array_equal(self.rng, other.rng))

    @property
    def playing(self) -> bool:
        return int(self.s[OUTCOME]) == PLAYING

    @property
    def seat(self) -> int:
        return int(self.s[SEAT])

    @property
    def decision(self) -> int:
        return int(self.s[DECISION])


class StepGame(Game):
    """A game on the step contract: its ``game.py`` names the module holding its jitted
    functions (``rules_module``), its own record fields and how to print a trace; playing,
    tracing, checking and the Python step API below are the same for every step game."""

    kind = GameKind(cooperative=False, perfect_information=True, searchable=True,
                    has_checker=True, style="step")
    rules_module: str = ""  # e.g. "simcore.hex.rules"
    game_record_fields: tuple[str, ...] = ()  # "outcome", "winner", "turns", ...
    cap_outcome: str = ""  # the outcome of a game stopped by the turn cap
    # a game whose turn cap lies far beyond any real game counts one stopped by it as stuck
    # (a failure of ``check``); otherwise the cap is a result of the game
    cap_is_stuck: bool = False
    trace_rows: int = 200_000

    @property
    def record_fields(self) -> tuple[str, ...]:  # type: ignore[override]
        return tuple(self.game_record_fields) + ENGINE_RECORD_FIELDS

    def play_function(self) -> Any:
        """The driver this game's playouts run on: its rules module's ``play_one`` (``drive``
        compiled with direct calls to the game's functions)."""
        import importlib

        fn = getattr(importlib.import_module(self.rules_module), "play_one", None)
        if fn is None:
            raise TypeError(f"{self.rules_module} lacks play_one() (see engine.drive)")
        return fn

    def functions(self) -> tuple:
        """The game's functions as the ``GAME`` tuple (stand-ins for those it lacks)."""
        import importlib

        mod = importlib.import_module(self.rules_module)
        fallback = {"observe": observe_nothing, "determinize": determinize_nothing,
                    "evaluate": evaluate_even, "check": check_nothing}
        fns = []
        for name in GAME_FUNCTION_NAMES:
            fn = getattr(mod, name, None) or fallback.get(name)
            if fn is None:
                raise TypeError(f"{self.rules_module} lacks {name}()")
            fns.append(fn)
        return tuple(fns)

    def driver_functions(self, ip: np.ndarray, qp: np.ndarray) -> tuple:
        """The ``GAME`` tuple a run hands the driver: the game's own when a seat searches or
        the rules checker runs (the only readers of it), else stand-ins that compile in an
        instant (``UNUSED_GAME_FUNCTIONS``); the games played are the same."""
        if int(qp[Q_SEATS]) != 0 or int(ip[P_CHECK]) == 1:
            return self.functions()
        return UNUSED_GAME_FUNCTIONS

    def compile_parts(self, config: Config) -> int:
        """The driver (``play_one`` and the runner), the strategy's policies (and search),
        and for a searching strategy the game's own functions: each compiles apart, since
        they meet only as function values."""
        searching = getattr(config.strategy, "search_fn", None) is not None
        return 3 if searching else 2

    def compile_part(self, config: Config, part: int) -> None:
        ip = config.params.ip
        pols, _, _, search, rpol, _, qp, _, _ = strategy_parts(config.strategy, ip)
        if part == 0:
            ready(run_batch, _RUN_SIG)
            compile_for(self.play_function(), PLAY_SIG)
            compile_game_functions(UNUSED_GAME_FUNCTIONS)
        elif part == 1:
            for fn in {id(f): f for f in (*pols, rpol)}.values():
                compile_for(fn, POLICY_SIG)
            if search is not no_search:
                compile_for(search, SEARCH_SIG)
        else:
            compile_game_functions(self.functions())

    # ---- playing ---------------------------------------------------------------------------
    def _arrays(self, config: Config) -> tuple[np.ndarray, np.ndarray]:
        return config.params.ip, config.params.fp

    def _play(self, config: Config, ip: np.ndarray, seed: int, start: int,
              count: int) -> np.ndarray:
        _, fp = self._arrays(config)
        # every row is written in full (run_batch); the threads touch its pages first
        out = np.empty((count, len(self.record_fields)), dtype=np.int64)
        pols, sps, seat_pol, search, rpol, rsp, qp, wi, wf = strategy_parts(config.strategy, ip)
        with_threads_chunked(ready(run_batch, _RUN_SIG), self.play_function(),
                             self.driver_functions(ip, qp), ip, fp, pols, sps, seat_pol, search,
                             rpol, rsp, qp, int(seed), int(start), out, int(wi), int(wf),
                             chunks=1 if qp[Q_SEATS] != 0 else 4)  # (a searching game each)
        return out

    def _kernel(self, config: Config, seed: int, start: int, count: int) -> np.ndarray:
        ip, _ = self._arrays(config)
        return self._play(config, ip, seed, start, count)

    def run_policy(self, config: Config, policy: Any, sps: np.ndarray, seed: int, start: int,
                   count: int) -> np.ndarray:
        """Play ``count`` playouts with one compiled policy (``POLICY_SIG``) at every seat and
        ``sps[0]`` as its parameters, instead of the configured strategy.  ``sps`` (shape
        ``(MAX_POLICIES, width)``) is the caller's, so a policy that writes to its row (the
        answer recorder of ``bench --split``) is read back from it.  Records as ``run_batch``'s."""
        ip, fp = self._arrays(config)
        out = np.zeros((count, len(self.record_fields)), dtype=np.int64)
        pols = (policy,) * MAX_POLICIES
        seat_pol = np.zeros(MAX_TABLE_SEATS, dtype=np.int64)
        qp = np.zeros(1, dtype=np.float64)
        with_threads_chunked(ready(run_batch, _RUN_SIG), self.play_function(),
                             self.driver_functions(ip, qp), ip, fp, pols, sps, seat_pol,
                             no_search, policy, sps[0].copy(),
                             np.zeros(1, dtype=np.float64), int(seed), int(start), out, 0, 0)
        return out.view(self.record_dtype).reshape(count)

    def trace_events(self, config: Config, seed: int, index: int = 0,
                     check: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """(events, record) of playout ``index`` of run ``seed``, every event logged."""
        ip, fp = self._arrays(config)
        if check:  # the checker only observes: the game played is the same
            ip = ip.copy()
            ip[P_CHECK] = 1
        rec = np.zeros(len(self.record_fields), dtype=np.int64)
        ev = np.zeros((self.trace_rows, EV_WIDTH), dtype=np.int64)
        pols, sps, seat_pol, search, rpol, rsp, qp, wi, wf = strategy_parts(config.strategy, ip)
        n = ready(trace_game, _TRACE_SIG)(
            self.play_function(), self.driver_functions(ip, qp), ip, fp, pols, sps, seat_pol,
            search, rpol, rsp, qp, int(seed), int(index), rec, ev, int(wi), int(wf))
        return ev[:n].copy(), rec

    def trace_record(self, config: Config, seed: int, index: int = 0) -> np.ndarray:
        return self.trace_events(config, seed, index)[1]

    def trace(self, config: Config, seed: int, index: int = 0, check: bool = False) -> str:
        events, rec = self.trace_events(config, seed, index, check)
        return self.format_trace(config, seed, index, events, rec)

    def format_trace(self, config: Config, seed: int, index: int, events: np.ndarray,
                     rec: np.ndarray) -> str:
        raise NotImplementedError

    def check(self, config: Config, games: int, seed: int,
              progress: Callable[[int], None] | None = None,
              batch: int = DEFAULT_BATCH) -> dict[str, Any]:
        """Play ``games`` playouts with the rules checker after every step.  Failures:
        violations the checker finds (and playouts the decision guard cut off, which count
        as violations) and illegal answers; the first one's replay command is given.  Games
        ended by the turn cap are a result of the game, counted but not a failure."""
        from simcore.replay import replay_command

        ip = config.params.ip.copy()
        ip[P_CHECK] = 1
        col = {name: k for k, name in enumerate(self.record_fields)}
        cap = self.outcomes.index(self.cap_outcome) if self.cap_outcome else -1
        violations = illegal = capped = 0
        first = None
        done = 0
        while done < games:
            n = min(batch, games - done)
            recs = self._play(config, ip, seed, done, n)
            bad = (recs[:, col["violations"]] > 0) | (recs[:, col["illegal_answers"]] > 0)
            if self.cap_is_stuck:
                bad |= recs[:, col["outcome"]] == cap
            violations += int(recs[:, col["violations"]].sum())
            illegal += int(recs[:, col["illegal_answers"]].sum())
            capped += int((recs[:, col["outcome"]] == cap).sum())
            if first is None and bad.any():
                idx = done + int(np.argmax(bad))
                first = (f"playout {idx} "
                         f"(replay: {replay_command(config, seed, idx, check=True)})")
            done += n
            if progress is not None:
                progress(n)
        if self.cap_is_stuck:
            return {"games": games, "seed": seed, "violations": violations,
                    "illegal_answers": illegal, "stuck": capped, "first_violation": first}
        return {"games": games, "seed": seed, "violations": violations,
                "illegal_answers": illegal, "stuck": 0,
                f"ended_by_turn_cap ({self.cap_outcome or 'none'})": capped,
                "first_violation": first}

    # ---- the step API from Python (tests, tools; each call crosses into numba once) ----------
    def new_state(self, config: Config, seed: int = 0, index: int = 0) -> StepState:
        """A game set up (``init``) from the stream of playout ``index`` of run ``seed``."""
        ip, fp = self._arrays(config)
        s = np.zeros(ip[P_STATE_SIZE], dtype=np.int64)
        h = np.zeros(max(ip[P_HIDDEN_SIZE], 1), dtype=np.int64)
        st = StepState(s, h, new_rng(seed, index))
        self.functions()[0](ip, fp, st.s, st.h, st.rng)
        return st

    def legal_actions(self, config: Config, st: StepState) -> np.ndarray:
        ip, fp = self._arrays(config)
        mask = np.zeros(ip[P_MASK_SIZE], dtype=np.uint8)
        self.functions()[1](ip, fp, st.s, st.h, mask)
        return np.flatnonzero(mask)

    def apply(self, config: Config, st: StepState, action: int,
              events: np.ndarray | None = None) -> int:
        """``step`` with ``action`` (which must be legal), counting the decision as the
        driver does; with ``events`` (an ``(rows, EV_WIDTH)`` array) the step's events are
        logged there, and the number of rows written is returned (0 without)."""
        ip, fp = self._arrays(config)
        if int(action) not in set(self.legal_actions(config, st).tolist()):
            raise ValueError(f"action {action} is not legal here "
                             f"(legal: {self.legal_actions(config, st).tolist()})")
        ev = events if events is not None else np.zeros((0, EV_WIDTH), dtype=np.int64)
        evn = np.zeros(1, dtype=np.int64)
        st.s[DECISIONS] += 1
        self.functions()[2](ip, fp, st.s, st.h, st.rng, np.int64(action), ev, evn)
        return int(evn[0])

    @property
    def gives_legal_bits(self) -> bool:
        """Whether the rules module has the optional ``legal_bits`` (see ``drive``)."""
        import importlib

        return hasattr(importlib.import_module(self.rules_module), "legal_bits")

    def legal_bits_of(self, config: Config, st: StepState) -> int:
        """The rules module's ``legal_bits`` at this state (bit k: answer k)."""
        import importlib

        if not self.gives_legal_bits:
            raise TypeError(f"{self.rules_module} gives its choices as the mask only")
        fn = importlib.import_module(self.rules_module).legal_bits
        ip, fp = self._arrays(config)
        return int(fn(ip, fp, st.s, st.h))

    def record_of(self, config: Config, st: StepState) -> np.ndarray:
        ip, fp = self._arrays(config)
        rec = np.zeros(len(self.record_fields), dtype=np.int64)
        self.functions()[7](ip, fp, st.s, st.h, rec)
        rec[ip[P_RECORD_SIZE]] = st.s[DECISIONS]
        return rec

    def returns_of(self, config: Config, st: StepState) -> np.ndarray:
        ip, fp = self._arrays(config)
        out = np.zeros(max(int(ip[P_SEATS]), 1), dtype=np.float64)
        self.functions()[5](ip, fp, st.s, out)
        return out

    def check_state(self, config: Config, st: StepState) -> int:
        ip, fp = self._arrays(config)
        return int(self.functions()[8](ip, fp, st.s, st.h))
