"""Helpers for the Tiny Epic Cthulhu rule tests (a helper module, not a test file).

* :func:`params` builds ``ip`` from the default rules data with overrides, through
  ``get_game("tec").configure``.
* :class:`Table` is a hand-made game: ``init_state`` with a fixed stream and a scripted
  strategy, then edited field by field with names (``tb["town2.mad.red"] = 3``) or by moving
  pieces between places (``tb.move("bag.red", "town2.mad.red", 3)``), so the box stays whole.
* :meth:`Table.call` runs one rule function of the step rules (``simcore.tec.tracks``,
  ``wheel``, ``pages``, ``setup``, ``legality``, ``actions``, ``checker``) on a table: a single
  jitted switch (:data:`F_*` codes), compiled once and cached.  A code that starts a procedure
  (an action, a turn, a roll) runs it on the frame stack to its end, answering its questions.
* :func:`scripted` answers from its parameter vector in order (a cursor in ``sp[0]``) and logs
  every decision it is asked, with the legal mask, so a test can check what the rules offered.
  :func:`script` builds that vector.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

import numpy as np
from numba import njit, types

from simcore import engine as E
from simcore.engine import (
    DECISION,
    DEPTH,
    OUTCOME,
    PLAYING,
    frame_pop,
    frame_proc,
    frame_push,
)
from simcore.kernels import first_legal, new_rng, rng_int
from simcore.registry import get_game
from simcore.tec import actions as AC
from simcore.tec import checker as CK
from simcore.tec import legality as L
from simcore.tec import pages as PG
from simcore.tec import rules as R
from simcore.tec import setup as SU
from simcore.tec import state as S
from simcore.tec import tracks as TR
from simcore.tec import wheel as W

GAME = get_game("tec")
EV_ROWS = 20_000

# ---- the scripted strategy ----------------------------------------------------------------
# sp layout: [0] cursor, [1] fallback mode, [2] script length, [3 ..] the script;
# [LOG_N] decisions logged, [LOG ..] four numbers per decision: kind, S_CTX[0], legal mask
# (bit k = choice k legal), answer.  A script entry >= 0 is the answer itself (the rules
# replace an illegal answer by the first legal one); a negative entry, and every decision
# after the script, is answered by a mode: FIRST, LAST (the last legal: "stop" / "end turn"
# / "none" for every decision that has one), RANDOM.
FIRST, LAST, RANDOM = -1, -2, -3
SP_CURSOR, SP_MODE, SP_LEN, SP_SCRIPT = 0, 1, 2, 3
MAX_SCRIPT = 96
LOG_N = SP_SCRIPT + MAX_SCRIPT
LOG = LOG_N + 1
MAX_LOG = 128
SP_SIZE = LOG + 4 * MAX_LOG


@njit(cache=True, _nrt=False)
def scripted(st, legal, params, rng):  # (the state, the mask, the script, a stream)
    """Answer from the script in ``params`` (see the module), logging every decision."""
    cur = int(params[SP_CURSOR])
    if cur < int(params[SP_LEN]):
        want = int(params[SP_SCRIPT + cur])
        params[SP_CURSOR] = cur + 1
    else:
        want = int(params[SP_MODE])
    if want == FIRST or want == LAST:
        a = -1
        for k in range(legal.shape[0]):
            if legal[k]:
                a = k
                if want == FIRST:
                    break
    elif want == RANDOM:
        n = 0
        for k in range(legal.shape[0]):
            if legal[k]:
                n += 1
        r = rng_int(rng, n) if n > 0 else 0
        a = -1
        for k in range(legal.shape[0]):
            if legal[k]:
                if r == 0:
                    a = k
                    break
                r -= 1
    else:
        a = want
    n_log = int(params[LOG_N])
    if n_log < MAX_LOG:
        mask = 0
        for k in range(min(legal.shape[0], 32)):
            if legal[k]:
                mask |= 1 << k
        o = LOG + 4 * n_log
        params[o] = st[DECISION]
        params[o + 1] = st[S.S_CTX]
        params[o + 2] = mask
        params[o + 3] = a
        params[LOG_N] = n_log + 1
    return a


def script(answers: Iterable[int] = (), then: int = FIRST) -> np.ndarray:
    """A parameter vector for :func:`scripted`: these answers in order, then ``then``."""
    answers = list(answers)
    assert len(answers) <= MAX_SCRIPT
    sp = np.zeros(SP_SIZE, dtype=np.float64)
    sp[SP_MODE] = then
    sp[SP_LEN] = len(answers)
    sp[SP_SCRIPT:SP_SCRIPT + len(answers)] = answers
    return sp


class Asked(NamedTuple):
    kind: int  # D_*
    ctx: int  # S_CTX[0] when asked
    legal: frozenset[int]  # the legal choices
    answer: int  # what the script answered (before the rules' illegal-answer guard)


def asked(sp: np.ndarray) -> list[Asked]:
    """The decisions the scripted strategy was asked, in order."""
    out = []
    for i in range(int(sp[LOG_N])):
        kind, ctx, mask, a = sp[LOG + 4 * i:LOG + 4 * i + 4]
        m = int(mask)
        out.append(Asked(int(kind), int(ctx), frozenset(k for k in range(32) if m >> k & 1),
                         int(a)))
    return out


# ---- one jitted switch over the rule functions --------------------------------------------
# The rules' inline functions are compiled into every caller, so the switch holds one copy of
# each.  A code that starts a procedure (an action, a turn, a roll, the setup) runs it on the
# frame stack, answering every question it asks from the scripted strategy (always asked, even
# with one legal choice, so a script's answers line up with every question), until the
# procedure is over (the stack is empty again) or the game is.
(F_INIT, F_SPIN_STEP, F_ADD_ENERGY, F_ADD_TEMP, F_ADD_TOWN_MADNESS, F_GIVE_CHAOS,
 F_TAKE_SHAMBLER, F_PLACE_SHAMBLER, F_RESOLVE_PENDING, F_RESOLVE_DRAWN, F_LEGAL_ACTIONS,
 F_REACHABLE, F_MOVE_DIRECTION, F_APPLY_ACTION, F_DRAW_ON_STOP, F_PLACE_TOKEN, F_PHASE_TWO,
 F_ROLL, F_VENT, F_CONSERVATION, F_PLAY_TURN, F_ROLL_DIE, F_BRAIN_UP, F_FLIP) = range(24)

_I1 = types.int64[::1]
_SIG = types.int64(types.int64, _I1, _I1, _I1, types.float64[::1], types.uint64[::1],
                   types.uint8[::1], types.int64[:, ::1], _I1, types.int64, types.int64)


@njit(cache=True)
def _answer_one(ip, s, h, rng, sp, mask, ev, evn):
    """Ask the scripted strategy the question ``s`` is stopped at and apply its answer (an
    illegal answer is replaced by the first legal choice, as the engine's driver does)."""
    R.legal_mask(ip, s, mask)
    a = scripted(s, mask, sp, rng)
    if a < 0 or a >= mask.shape[0] or mask[a] == 0:
        a = first_legal(mask)
    R.answer(ip, s, h, rng, a, ev, evn)


@njit(cache=True)
def _drive(ip, s, h, rng, sp, mask, ev, evn, asked, stop_at_action):
    """Answer questions and resume the procedures until the stack is empty or the game is
    over (``stop_at_action``: also at the turn's first D_ACTION question, after its spin)."""
    if not asked:
        asked = R.run_frames(ip, s, h, rng, ev, evn)
    while asked and s[OUTCOME] == PLAYING:
        if stop_at_action and s[DECISION] == S.D_ACTION and frame_proc(s) == S.PR_TURN:
            while s[DEPTH] > 0:
                frame_pop(s)
            return
        _answer_one(ip, s, h, rng, sp, mask, ev, evn)
        asked = R.run_frames(ip, s, h, rng, ev, evn)
    while s[DEPTH] > 0:  # a game over leaves its procedures behind
        frame_pop(s)


@njit(_SIG, cache=True)
def _call(code, st, hid, ip, sp, rng, legal, ev, evn, a0, a1):
    """Run rule ``code`` on the table; returns the rule's result (0 when it has none)."""
    if code == F_INIT:
        if SU.setup_begin(ip, st, hid, rng, ev, evn):
            frame_push(st, S.PR_SETUP)
            _drive(ip, st, hid, rng, sp, legal, ev, evn, False, False)
    elif code == F_SPIN_STEP:
        R.push_turn(st)
        _drive(ip, st, hid, rng, sp, legal, ev, evn, False, True)
    elif code == F_PLAY_TURN:
        R.push_turn(st)
        _drive(ip, st, hid, rng, sp, legal, ev, evn, False, False)
    elif code == F_ADD_ENERGY:
        TR.add_energy(st, ev, evn)
    elif code == F_ADD_TEMP:
        TR.add_temperament(st, a0, a1, ip, ev, evn)
    elif code == F_ADD_TOWN_MADNESS:
        TR.add_town_madness(st, a0, a1, ev, evn)
    elif code == F_GIVE_CHAOS:
        TR.give_chaos(st, a0, ip, ev, evn)
    elif code == F_TAKE_SHAMBLER:
        return TR.take_shambler(st, a0)
    elif code == F_PLACE_SHAMBLER:
        return TR.place_shambler(st, a0, a1, ev, evn)
    elif code == F_RESOLVE_PENDING:
        W.resolve_pending(st, rng, ip, ev, evn)
    elif code == F_RESOLVE_DRAWN:
        W.resolve_drawn(st, a0, a1, ip, ev, evn)
    elif code == F_LEGAL_ACTIONS:
        return L.bits_to_mask(L.action_bits(st, ip), legal)
    elif code == F_REACHABLE:
        return L.bits_to_mask(L.reachable_bits(st, a0, ip), legal)
    elif code == F_MOVE_DIRECTION:
        cw = L.direction_ok(st, a0, a1, 1, ip)
        ccw = L.direction_ok(st, a0, a1, -1, ip)
        if cw and ccw:
            L.clear_mask(legal)
            legal[0] = 1
            legal[1] = 1
            st[S.S_CTX] = a1
            st[DECISION] = S.D_DIRECTION
            a = scripted(st, legal, sp, rng)
            return 1 if a == 0 else -1
        return 1 if cw else (-1 if ccw else 0)
    elif code == F_APPLY_ACTION:
        AC.start_action(ip, st, a0, ev, evn)
        _drive(ip, st, hid, rng, sp, legal, ev, evn, False, False)
    elif code == F_DRAW_ON_STOP:
        W.draw_on_stop(st, a0, a1, rng, ip, ev, evn)
    elif code == F_PLACE_TOKEN:
        return PG.place_page_token(st, a0, ip, ev, evn)
    elif code == F_PHASE_TWO:
        PG.enter_phase_two(st, ip, ev, evn)
    elif code == F_ROLL:
        asked = AC.roll_start(ip, st, rng, a0, a1, ev, evn)
        _drive(ip, st, hid, rng, sp, legal, ev, evn, asked == 1, False)
    elif code == F_VENT:
        AC.push_repeat(st, S.D_VENT, a1)
        _drive(ip, st, hid, rng, sp, legal, ev, evn, False, False)
    elif code == F_CONSERVATION:
        return CK.conservation_errors(ip, st, hid)
    elif code == F_ROLL_DIE:
        return AC.roll_die(rng, ip)
    elif code == F_BRAIN_UP:
        TR.brain_up(st, a0, ev, evn)
    elif code == F_FLIP:
        PG.flip_page(st, hid, a0, ip, ev, evn)
    return 0


# ---- rules data -----------------------------------------------------------------------------
# The hand-made tables use the rules data with the assumed component values they rely on
# pinned here (Town cards, characters, Nyarlathotep, Page cards, dice, readings), so the rule
# tests do not move when rules.toml is calibrated; rulebook values are never pinned.
_TOWNS = {  # name: card, side, action, amount, Madness track, Shambler track
    "asylum": (0, 0, "vent", 2, 3, 3), "hospital": (0, 1, "pray", 1, 2, 3),
    "library": (1, 0, "study", 2, 3, 3), "museum": (1, 1, "ward", 1, 2, 2),
    "docks": (2, 0, "recruit", 1, 3, 3), "lighthouse": (2, 1, "gather", 1, 3, 2),
    "church": (3, 0, "barricade", 1, 3, 3), "cemetery": (3, 1, "purge", 2, 2, 3),
    "station": (4, 0, "travel", 1, 3, 3), "market": (4, 1, "exchange", 2, 3, 3),
}
_CHARACTERS = {  # name: ability, amount, Delirium Track
    "professor": ("scholar", 1, [1, 1, 2, 2, 3]), "drifter": ("wanderer", 1, [1, 2, 2, 3, 3]),
    "occultist": ("occultist", 1, [1, 1, 2, 3]), "detective": ("brawler", 1, [1, 1, 2, 2, 3]),
    "collector": ("collector", 1, [1, 2, 2, 3]), "medium": ("medium", 1, [1, 1, 2, 2, 3, 3]),
}
_NYARLATHOTEP = {
    "strength_1": [2, 2, 3, 3, 3, 4, 4, 4], "energy_1": 2, "powers_1": ["decay", "spawn", "drain"],
    "power_amounts_1": [2, 1, 1], "strength_2": [3, 3, 4, 4, 4, 5], "energy_2": 2,
    "powers_2": ["decay", "spawn", "madden"], "power_amounts_2": [2, 1, 1],
    "portal_colours": [0, 0, 1, 1, 2, 2], "portal_numbers": [2, 3, 2, 3, 2, 3],
}
_PAGES = {  # card 3: 1 Greed, page 5, red rune; card 20: 1 Fear 2 Greed, pages 3 5 5, blue red
    "cost_blue": [0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 2, 0, 0, 1, 0, 0, 0, 1, 1, 1, 2, 3, 1, 2, 2,
                  0, 0, 0],
    "cost_red": [0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 2, 0, 2, 0, 1, 1, 2, 0, 1, 0, 1, 0, 0, 1, 1, 1,
                 1, 2, 2],
    "cost_green": [1, 0, 1, 1, 0, 1, 0, 0, 1, 1, 0, 0, 0, 0, 2, 0, 1, 0, 2, 0, 2, 1, 1, 0, 1, 0,
                   0, 2, 1, 1],
    "token_1": [3, 4, 4, 5, 1, 3, 3, 5, 4, 2, 3, 1, 1, 4, 1, 4, 1, 4, 1, 2, 3, 1, 1, 4, 2, 1, 1, 2,
                3, 1],
    "token_2": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 4, 5, 5, 2, 5, 4, 5, 2, 3, 5, 2, 2, 4, 3, 1, 2, 3,
                3, 2],
    "token_3": [0] * 20 + [5, 5, 3, 5, 3, 5, 2, 4, 5, 2],
    "rune_1": [1, 1, 2, 1, 1, 2, 2, 0, 1, 2, 1, 2, 0, 2, 0, 1, 2, 0, 0, 1, 0, 0, 0, 1, 2, 1, 0, 2,
               2, 0],
    "rune_2": [-1] * 20 + [1, 0, 1, 2, 1, 0, 2, 2, 1, 0],
}
PINNED: dict[str, Any] = {
    **{f"town.{n}.{k}": v for n, vals in _TOWNS.items() for k, v in zip(
        ("card", "side", "action", "amount", "madness_track", "shambler_track"), vals,
        strict=True)},
    **{f"character.{n}.{k}": v for n, vals in _CHARACTERS.items() for k, v in zip(
        ("ability", "amount", "delirium"), vals, strict=True)},
    **{f"great_old_one.nyarlathotep.{k}": v for k, v in _NYARLATHOTEP.items()},
    **{f"pages.{k}": v for k, v in _PAGES.items()},
    "necronomicon.rows": 5, "necronomicon.columns": 5, "necronomicon.chaos_per_line": 1,
    "dice.faces": [0, 0, 1, 1, 2, 2], "translate_face_down": False, "move_distance": "up_to",
    "must_move_check": "turn_start",
}


def config(overrides: Mapping[str, Any] | None = None, strategy: str | None = None,
           pinned: bool = False):
    """The game's configuration: rules.toml with ``overrides`` (on top of :data:`PINNED`
    when ``pinned``)."""
    base = dict(PINNED) if pinned else {}
    return GAME.configure({**base, **dict(overrides or {})}, strategy)


def params(overrides: Mapping[str, Any] | None = None) -> np.ndarray:
    """``ip`` for the pinned rules data with ``overrides`` (rules-data keys)."""
    return config(overrides, pinned=True).params.ip.copy()


def seed_for(n: int, want: int, start: int = 0) -> int:
    """A stream seed whose first ``rng_int(rng, n)`` is ``want`` (to force a spin)."""
    for s in range(start, start + 10_000):
        if rng_int(new_rng(s, 0), n) == want:
            return s
    raise AssertionError("no seed found")


# a one-row Necronomicon (five pages) and long Strength Tracks: random games reach phase two
QUICK = {
    "components.page_tokens": 5,
    "necronomicon.rows": 1,
    "necronomicon.columns": 5,
    "pages.token_1": [1] * 30,
    "pages.token_2": [0] * 30,
    "pages.token_3": [0] * 30,
    "great_old_one.nyarlathotep.strength_1": [1] * 16,
    "great_old_one.nyarlathotep.strength_2": [1] * 16,
}


# ---- state names ------------------------------------------------------------------------
COLOURS = {"blue": 0, "fear": 0, "red": 1, "rage": 1, "green": 2, "greed": 2}
KINDS = {**COLOURS, "chaos": S.K_CHAOS, "eldritch": S.K_ELDRITCH}
_TOWN_FIELDS = {"card": S.T_CARD, "side": S.T_SIDE, "action": S.T_ACTION,
                "amount": S.T_AMOUNT, "mad_len": S.T_MAD_LEN, "sh_len": S.T_SH_LEN,
                "mad": S.T_MAD, "sh": S.T_SH, "eldritch": S.T_ELDRITCH, "page": S.T_PAGE,
                "page_state": S.T_PAGE_STATE, "pcost": S.T_PCOST, "ptok": S.T_PTOK,
                "prune": S.T_PRUNE}
_CHAR_FIELDS = {"town": S.P_TOWN, "temp": S.P_TEMP, "chaos": S.P_CHAOS, "brain": S.P_BRAIN,
                "del_len": S.P_DEL_LEN, "runes": S.P_RUNES, "pages": S.P_PAGES,
                "ability": S.P_ABILITY, "amount": S.P_AMOUNT}
_PORTAL_FIELDS = {"colour": S.Q_COLOUR, "number": S.Q_NUMBER, "sealed": S.Q_SEALED}
_PLACES = {"bag": S.S_BAG, "smat.sh": S.S_SMAT_SH, "smat.mad": S.S_SMAT_MAD,
           "disc.mad": S.S_DISC_MAD, "supply.chaos": S.S_SUP_CHAOS,
           "supply.eldritch": S.S_SUP_ELDRITCH, "disc.chaos": S.S_DISC_CHAOS,
           "disc.eldritch": S.S_DISC_ELDRITCH, "necro.row": S.S_NECRO_ROW,
           "necro.row_chaos": S.S_NECRO_ROW_CHAOS, "necro.col_chaos": S.S_NECRO_COL_CHAOS,
           "dice": S.S_DICE, "ctx": S.S_CTX}


# the engine's fixed fields at the head of every state
_HEADER = {"outcome": E.OUTCOME, "winner": E.WINNER, "seat": E.SEAT, "decision": E.DECISION,
           "turn": E.TURN, "decisions": E.DECISIONS, "depth": E.DEPTH}


def _index(part: str, names: Mapping[str, int]) -> int:
    return names[part] if part in names else int(part)


def offset(name: str) -> int:
    """The ``st`` offset of a field named like ``town2.mad.red``, ``char0.temp.fear``,
    ``portal3.sealed``, ``bag.eldritch``, ``smat.sh.green``, ``disc.chaos``, ``necro.row.4``
    or any ``S_*`` constant in lower case (``goo_town``, ``strength``, ``energy`` ...)."""
    parts = name.split(".")
    head = parts[0]
    for prefix, fields in (("town", _TOWN_FIELDS), ("char", _CHAR_FIELDS),
                           ("portal", _PORTAL_FIELDS)):
        if head.startswith(prefix) and head[len(prefix):].isdigit():
            i = int(head[len(prefix):])
            base = {"town": S.town, "char": S.char, "portal": S.portal}[prefix](i)
            off = base + fields[parts[1]]
            if len(parts) > 2:
                off += _index(parts[2], KINDS)
            return off
    for n in (2, 1):
        key = ".".join(parts[:n])
        if key in _PLACES and len(parts) <= n + 1:
            return _PLACES[key] + (_index(parts[n], KINDS) if len(parts) > n else 0)
    if name in _HEADER:
        return _HEADER[name]
    if len(parts) == 2:
        return getattr(S, "S_" + head.upper()) + _index(parts[1], KINDS)
    return getattr(S, "S_" + name.upper())


# ---- a hand-made table ----------------------------------------------------------------------
class Table:
    """One game state (``st``, ``hid``) with its parameters and scratch arrays."""

    def __init__(self, ip: np.ndarray, seed: int = 0, sp: np.ndarray | None = None):
        self.ip = ip
        self.st = np.zeros(int(ip[E.P_STATE_SIZE]), dtype=np.int64)
        self.hid = np.zeros(int(ip[E.P_HIDDEN_SIZE]), dtype=np.int64)
        self.legal = np.zeros(int(ip[E.P_MASK_SIZE]), dtype=np.uint8)
        self.ev = np.zeros((EV_ROWS, E.EV_WIDTH), dtype=np.int64)
        self.evn = np.zeros(1, dtype=np.int64)
        self.rng = new_rng(seed, 0)
        self.sp = script() if sp is None else sp

    @property
    def pending(self) -> np.ndarray:
        """The Great Old One's powers queued by colour (TEC-ACC-2): a view into the state."""
        return self.st[S.S_PENDING:S.S_PENDING + S.N_COLOURS]

    # -- fields
    def __getitem__(self, name: str) -> int:
        return int(self.st[offset(name)])

    def __setitem__(self, name: str, value: int) -> None:
        self.st[offset(name)] = value

    def put(self, values: Mapping[str, int]) -> Table:
        for k, v in values.items():
            self[k] = v
        return self

    def get(self, *names: str) -> tuple[int, ...]:
        return tuple(self[n] for n in names)

    def move(self, src: str, dst: str, n: int = 1) -> Table:
        """Move ``n`` pieces from one place to another (the box stays whole)."""
        assert self[src] >= n, f"{src} holds {self[src]} < {n}"
        self[src] -= n
        self[dst] += n
        return self

    def bag(self) -> dict[str, int]:
        return {k: self[f"bag.{k}"] for k in ("fear", "rage", "greed", "chaos", "eldritch")}

    def set_bag(self, fear=0, rage=0, greed=0, chaos=0, eldritch=0) -> Table:
        """Make the bag hold exactly these tentacles: Madness is moved to or from the Discard
        mat, Chaos and Eldritch to or from the general supply."""
        for k, want, spare in (("fear", fear, "disc.mad.fear"), ("rage", rage, "disc.mad.rage"),
                               ("greed", greed, "disc.mad.greed"),
                               ("chaos", chaos, "supply.chaos"),
                               ("eldritch", eldritch, "supply.eldritch")):
            have = self[f"bag.{k}"]
            if have > want:
                self.move(f"bag.{k}", spare, have - want)
            elif want > have:
                self.move(spare, f"bag.{k}", want - have)
        return self

    # -- running rules
    def call(self, code: int, a0: int = 0, a1: int = 0, sp: np.ndarray | None = None) -> int:
        if sp is not None:
            self.sp = sp
        return int(_call(code, self.st, self.hid, self.ip, self.sp, self.rng, self.legal,
                         self.ev, self.evn, int(a0), int(a1)))

    def act(self, a: int, sp: np.ndarray | None = None) -> None:
        """Carry out main action ``a`` (A_*) for the current character (no legality check,
        no action spent: as the turn loop does after both)."""
        self.call(F_APPLY_ACTION, a, sp=sp)

    def errors(self) -> int:
        return self.call(F_CONSERVATION)

    def legal_set(self) -> set[int]:
        return {int(k) for k in np.nonzero(self.legal)[0]}

    def legal_actions(self) -> set[int]:
        self.call(F_LEGAL_ACTIONS)
        return self.legal_set()

    def events(self, code: int | None = None) -> np.ndarray:
        ev = self.ev[:self.evn[0]]
        return ev if code is None else ev[ev[:, 0] == code]

    def clear_events(self) -> None:
        self.evn[0] = 0

    def asked(self) -> list[Asked]:
        return asked(self.sp)

    def snapshot(self) -> np.ndarray:
        return self.st.copy()

    def changed(self, before: np.ndarray, everything: bool = False) -> dict[str, int]:
        """Fields that differ from ``before`` (name -> difference), without the bookkeeping
        (spin, decision, dice, counters) unless ``everything``."""
        names = _offset_names()
        out = {}
        for k in np.nonzero(self.st != before)[0]:
            name = names.get(int(k), str(int(k)))
            if everything or not name.startswith(_BOOKKEEPING):
                out[name] = int(self.st[k] - before[k])
        return out

    def set_town_side(self, t: int, town_name: str) -> Table:
        """Make position ``t`` show the Town card side called ``town_name`` (pinned)."""
        card, side = _TOWNS[town_name][:2]
        k = card * 2 + side
        o = S.town(t)
        self.st[o + S.T_CARD] = card
        self.st[o + S.T_SIDE] = side
        self.st[o + S.T_ACTION] = self.ip[S.I_SIDE_ACTION + k]
        self.st[o + S.T_AMOUNT] = self.ip[S.I_SIDE_AMOUNT + k]
        self.st[o + S.T_MAD_LEN] = self.ip[S.I_SIDE_MAD_LEN + k]
        self.st[o + S.T_SH_LEN] = self.ip[S.I_SIDE_SH_LEN + k]
        return self

    # -- forcing the Wheel, the draws and the Page cards
    def wheel(self, icon: int = S.IC_CHAOS, town: int = 0, colour: int = 0,
              sh_town: int | None = None) -> Table:
        """Make the next spin stop with the pointer on ``icon`` beside ``town`` and the
        tentacle end on ``colour`` beside ``sh_town`` (default: ``town``): a two-segment wheel
        and a stream whose first spin picks segment 0."""
        ip = self.ip
        ip[S.I_N_SEGMENTS] = 2
        ip[S.I_SEG_ICON] = ip[S.I_SEG_ICON + 1] = icon
        ip[S.I_SEG_TOWN] = town
        ip[S.I_SEG_TOWN + 1] = town if sh_town is None else sh_town
        ip[S.I_SEG_COLOUR] = ip[S.I_SEG_COLOUR + 1] = colour
        ip[S.I_SEG_TENTACLE] = 1
        ip[S.I_SEG_TENTACLE + 1] = 0
        self.rng = new_rng(seed_for(2, 0), 0)
        return self

    def set_draws(self, n: int) -> Table:
        """Tentacles drawn from the Strength token's current space (this side)."""
        self.st[S.S_STR_DRAW + self["strength"]] = n
        return self

    def reveal(self, t: int, card: int) -> Table:
        """Put Page card ``card`` face up beside position ``t`` (swapping it with the card
        there, wherever it lies: deck or another face-down position)."""
        hid = self.hid
        assert self[f"town{t}.page_state"] == 0, "position t needs a face-down card"
        n = int(self.ip[S.I_N_PAGES])
        places = [S.H_DECK + k for k in range(int(hid[S.H_DECK_TOP]), n)]
        places += [S.H_DOWN + u for u in range(S.N_TOWNS)
                   if u != t and self[f"town{u}.page_state"] == 0]
        for h in places:
            if hid[h] == card:
                hid[h], hid[S.H_DOWN + t] = hid[S.H_DOWN + t], hid[h]
                break
        assert hid[S.H_DOWN + t] == card, f"card {card} is not face down anywhere"
        self.call(F_FLIP, t)
        return self


_BOOKKEEPING = ("spin_", "decision", "ctx", "cnt_", "dice", "ndice", "rerolls", "max_brain",
                "seat", "depth", "frame")
_NAMES: dict[int, str] = {}
_WHOLE = ("S_SIZE", "S_TOWNS", "S_CHARS", "S_PORTALS")


def _offset_names() -> dict[int, str]:
    """Offset -> a name :func:`offset` accepts."""
    if not _NAMES:
        for n, off in _HEADER.items():
            _NAMES[off] = n
        for k in range(E.FRAMES, E.HEADER):
            _NAMES[k] = f"frame.{k - E.FRAMES}"
        consts = sorted((getattr(S, n), n) for n in dir(S)
                        if n.startswith("S_") and isinstance(getattr(S, n), int))
        for i, (off, n) in enumerate(consts):
            if n in _WHOLE:
                continue
            nxt = next((o for o, _ in consts[i + 1:] if o > off), off + 1)
            width = min(nxt - off, S.N_TOWNS * S.T_SIZE)
            name = n[2:].lower()
            for k in range(width):
                _NAMES.setdefault(off + k, name if width == 1 else f"{name}.{k}")
        for place, base in _PLACES.items():
            width = {"bag": S.N_KINDS, "smat.sh": 3, "smat.mad": 3, "disc.mad": 3,
                     "necro.row": S.MAX_ROWS, "necro.row_chaos": S.MAX_ROWS,
                     "necro.col_chaos": S.MAX_COLS, "dice": S.MAX_DICE, "ctx": 1}.get(place, 1)
            for k in range(width):
                _NAMES[base + k] = place if width == 1 else f"{place}.{k}"
        for t in range(S.N_TOWNS):
            for f, o in _TOWN_FIELDS.items():
                _NAMES[S.town(t) + o] = f"town{t}.{f}"
            for k in range(3):
                for f in ("mad", "sh", "pcost", "ptok", "prune"):
                    _NAMES[S.town(t) + _TOWN_FIELDS[f] + k] = f"town{t}.{f}.{k}"
        for c in range(S.MAX_CHARS):
            for f, o in _CHAR_FIELDS.items():
                _NAMES[S.char(c) + o] = f"char{c}.{f}"
            for k in range(3):
                for f in ("temp", "runes"):
                    _NAMES[S.char(c) + _CHAR_FIELDS[f] + k] = f"char{c}.{f}.{k}"
        for q in range(S.N_PORTALS):
            for f, o in _PORTAL_FIELDS.items():
                _NAMES[S.portal(q) + o] = f"portal{q}.{f}"
    return _NAMES


def table(overrides: Mapping[str, Any] | None = None, *, ip: np.ndarray | None = None,
          seed: int = 0, goo: int = 0, chars: Iterable[int] = (2, 3),
          clear_shamblers: bool = True, phase: int = 1) -> Table:
    """A consistent table: the setup (front sides, fixed stream), then every Shambler back on
    its mat (unless ``clear_shamblers`` is false), the Great Old One on position ``goo``, the
    characters on ``chars`` and no decision pending.  ``phase=2`` flips the mat first."""
    if ip is None:
        ip = params(overrides)
    tb = Table(ip, seed)
    tb.call(F_INIT, sp=script())
    if clear_shamblers:
        for t in range(S.N_TOWNS):
            for k in range(3):
                tb.move(f"town{t}.sh.{k}", f"smat.sh.{k}", tb[f"town{t}.sh.{k}"])
    tb["goo_town"] = goo
    chars = list(chars)
    for c in range(tb["nchars"]):
        tb[f"char{c}.town"] = chars[c % len(chars)]
    tb["cur"] = 0
    tb["actions_left"] = int(ip[S.I_ACTIONS])
    if phase == 2:
        tb.call(F_PHASE_TWO)
    tb.clear_events()
    tb.sp = script()
    assert tb.errors() == 0
    return tb


R_VIOLATIONS = S.R_SIZE  # play_game's record: the game's fields, then the checker's count
NO_FLOATS = np.zeros(1, dtype=np.float64)


@njit(cache=True)
def _play(ip, fp, sp, seed, index, rec, ev):
    """One whole game on the step rules, every event logged, every question answered by the
    scripted strategy (its random answers from the strategy's own stream); the rules checker
    runs after every step and its count goes in ``rec[R_VIOLATIONS]``."""
    s = np.zeros(ip[E.P_STATE_SIZE], dtype=np.int64)
    h = np.zeros(ip[E.P_HIDDEN_SIZE], dtype=np.int64)
    mask = np.zeros(ip[E.P_MASK_SIZE], dtype=np.uint8)
    rng = np.empty(4, dtype=np.uint64)
    srng = np.empty(4, dtype=np.uint64)
    E.rng_seed(rng, seed, index)
    E.rng_seed_stream(srng, seed, index, E.STREAM_STRATEGY, 0)
    evn = np.zeros(1, dtype=np.int64)
    R.init_logged(ip, s, h, rng, ev, evn)
    errors = CK.conservation_errors(ip, s, h)
    decisions = 0
    while s[OUTCOME] == PLAYING and decisions < ip[E.P_MAX_DECISIONS]:
        R.legal_mask(ip, s, mask)
        a = scripted(s, mask, sp, srng)
        if a < 0 or a >= mask.shape[0] or mask[a] == 0:
            a = first_legal(mask)
        R.step_to_next(ip, s, h, rng, a, ev, evn)
        decisions += 1
        errors += CK.conservation_errors(ip, s, h)
    R.record(ip, fp, s, h, rec)
    rec[R_VIOLATIONS] = errors
    return evn[0]


class Game(NamedTuple):
    rec: np.ndarray  # R_* record
    events: np.ndarray  # EV_* rows


def play_game(ip: np.ndarray, sp: np.ndarray | None = None, seed: int = 0, index: int = 0,
              rows: int = 200_000) -> Game:
    """One whole game (playout ``index`` of run ``seed``) with its trace events, with the
    scripted strategy."""
    rec = np.zeros(S.R_SIZE + 1, dtype=np.int64)
    ev = np.zeros((rows, E.EV_WIDTH), dtype=np.int64)
    n = _play(ip, NO_FLOATS, script(then=RANDOM) if sp is None else sp, int(seed), int(index),
              rec, ev)
    return Game(rec, ev[:n].copy())
