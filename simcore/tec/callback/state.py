"""Tiny Epic Cthulhu: array layouts shared by the loader, the rules, strategies and the trace.

The game state is one int64 vector ``st`` (public: everything the players can see, which in this
cooperative game is everything but the order of the Page deck and the face of face-down Page
cards) plus ``hid`` (those two hidden things).  Parameters are one int64 vector ``ip``.  All
offsets are plain module constants, so the jitted code and the strategies share them.

Strategies read ``st`` (with the ``S_*``, ``T_*``, ``P_*``, ``Q_*`` offsets below) and the legal
mask; they never write to it.
"""

from __future__ import annotations

from numba import njit

# ---- fixed sizes (array shapes, not game numbers: those are in rules.toml) -----------------
N_TOWNS = 5  # positions around the wheel (the rulebook's five Town cards)
MAX_CHARS = 4
N_COLOURS = 3  # blue/Fear, red/Rage, green/Greed
N_KINDS = 5  # tentacle kinds: 0-2 Madness by colour, 3 Chaos, 4 Eldritch
K_CHAOS = 3
K_ELDRITCH = 4
MAX_PAGES = 64
MAX_SEGMENTS = 32
MAX_STRENGTH = 16
MAX_DELIRIUM = 10
MAX_ROWS = 5
MAX_COLS = 5
N_PORTALS = 6
MAX_DICE = 3
COLOUR_NAMES = ("blue", "red", "green")
MADNESS_NAMES = ("Fear", "Rage", "Greed")

# ---- names the rules data uses -------------------------------------------------------------
ICONS = ("madness", "shambler", "chaos", "power_blue", "power_red", "power_green", "extra")
IC_MADNESS, IC_SHAMBLER, IC_CHAOS, IC_POWER_BLUE, IC_POWER_RED, IC_POWER_GREEN, IC_EXTRA = range(7)
TOWN_ACTIONS = ("vent", "recruit", "purge", "travel", "study", "ward", "barricade", "gather",
                "pray", "exchange")
(TA_VENT, TA_RECRUIT, TA_PURGE, TA_TRAVEL, TA_STUDY, TA_WARD, TA_BARRICADE, TA_GATHER,
 TA_PRAY, TA_EXCHANGE) = range(10)
POWERS = ("spawn", "energy", "draw", "madden", "hunt", "decay", "drain")
PW_SPAWN, PW_ENERGY, PW_DRAW, PW_MADDEN, PW_HUNT, PW_DECAY, PW_DRAIN = range(7)
ABILITIES = ("scholar", "wanderer", "occultist", "brawler", "collector", "medium")
AB_SCHOLAR, AB_WANDERER, AB_OCCULTIST, AB_BRAWLER, AB_COLLECTOR, AB_MEDIUM = range(6)
GOOS = ("nyarlathotep", "yog-sothoth", "yig", "cthulhu")
DIFFICULTIES = ("normal", "hard", "madness")


class _Layout:
    """Hands out consecutive offsets; used only at import time."""

    def __init__(self) -> None:
        self.size = 0

    def take(self, n: int = 1) -> int:
        off = self.size
        self.size += n
        return off


# ---- parameters: ip ------------------------------------------------------------------------
_p = _Layout()
I_CHARS = _p.take()  # characters in play (2 in solo)
I_PLAYERS = _p.take()  # the players setting (1 = solo)
I_MADNESS = _p.take()  # Madness tentacles per colour
I_CHAOS = _p.take()
I_ELDRITCH = _p.take()
I_SHAMBLERS = _p.take()  # per colour
I_PAGE_TOKENS = _p.take()
I_DICE = _p.take()
I_BAG_ELDRITCH = _p.take()  # including the difficulty's extra
I_BAG_MADNESS = _p.take()
I_SMAT_MADNESS = _p.take()
I_DISC_MADNESS = _p.take()
I_TOWN_ELDRITCH = _p.take()
I_SHAMBLERS_PER_PLAYER = _p.take()
I_ACTIONS = _p.take()
I_TEMP_CAP = _p.take()
I_CHAOS_CAP = _p.take()
I_MOVE_BY_FEAR = _p.take(3)
I_COLLECT_BY_GREED = _p.take(3)
I_CLEANUP_BY_RAGE = _p.take(3)
I_N_FACES = _p.take()
I_FACES = _p.take(12)
I_N_SEGMENTS = _p.take()
I_SEG_ICON = _p.take(MAX_SEGMENTS)
I_SEG_COLOUR = _p.take(MAX_SEGMENTS)
I_SEG_TOWN = _p.take(MAX_SEGMENTS)
I_SEG_TENTACLE = _p.take(MAX_SEGMENTS)  # segment under the tentacle end, by pointer segment
I_TOWN_SIDES = _p.take()  # 0 strategy, 1 random, 2 front, 3 back
I_SIDE_ACTION = _p.take(N_TOWNS * 2)  # [card * 2 + side]
I_SIDE_AMOUNT = _p.take(N_TOWNS * 2)
I_SIDE_MAD_LEN = _p.take(N_TOWNS * 2)
I_SIDE_SH_LEN = _p.take(N_TOWNS * 2)
I_GOO = _p.take()  # index into GOOS
I_DIFFICULTY = _p.take()
I_STR_LEN = _p.take(2)  # per phase (index 0 = phase one)
I_STR_DRAW = _p.take(2 * MAX_STRENGTH)
I_ENERGY_LEN = _p.take(2)
I_POWER = _p.take(2 * N_COLOURS)  # [phase * 3 + colour]
I_POWER_N = _p.take(2 * N_COLOURS)
I_PORTAL_COLOUR = _p.take(N_PORTALS)
I_PORTAL_NUMBER = _p.take(N_PORTALS)
I_CHAR_ABILITY = _p.take(MAX_CHARS)  # per seat
I_CHAR_AMOUNT = _p.take(MAX_CHARS)
I_CHAR_DEL_LEN = _p.take(MAX_CHARS)  # spaces below the top
I_CHAR_DEL = _p.take(MAX_CHARS * MAX_DELIRIUM)  # rerolls per space
I_N_PAGES = _p.take()
I_PAGE_COST = _p.take(MAX_PAGES * N_COLOURS)  # [card * 3 + colour]
I_PAGE_TOK = _p.take(MAX_PAGES * 3)  # [card * 3 + k], 0 = none
I_PAGE_RUNE = _p.take(MAX_PAGES * N_COLOURS)  # rune counts [card * 3 + colour]
I_ROWS = _p.take()
I_COLS = _p.take()
I_LINE_CHAOS = _p.take()
I_TRANSLATE_DOWN = _p.take()
I_MOVE_EXACT = _p.take()
I_MUST_MOVE_AFTER_SPIN = _p.take()  # TEC-MV-3 reading
I_P2_ENERGY_TO_BAG = _p.take()  # TEC-TR-6 reading: the Energy Track is cleared into the bag
I_MAX_TURNS = _p.take()
I_MAX_ACTIONS = _p.take()
I_CHECK = _p.take()  # 1: assert conservation after every step
I_SIZE = _p.size

# ---- the public state: st ------------------------------------------------------------------
_s = _Layout()
S_TURN = _s.take()
S_PHASE = _s.take()  # 1 or 2
S_CUR = _s.take()  # character whose turn it is
S_NCHARS = _s.take()
S_GOO_TOWN = _s.take()
S_STRENGTH = _s.take()  # position of the Strength token on the current side
S_STR_LEN = _s.take()  # numbered spaces on the current side (position == len: full strength)
S_STR_DRAW = _s.take(MAX_STRENGTH)  # draws per position, current side
S_ENERGY = _s.take()  # Eldritch on the Energy Track
S_ENERGY_LEN = _s.take()
S_POWER = _s.take(N_COLOURS)  # current side's power per colour
S_POWER_N = _s.take(N_COLOURS)
S_OUTCOME = _s.take()  # -1 while playing, else O_*
S_ACTIONS_LEFT = _s.take()
S_ABILITY_USED = _s.take()
S_MUST_MOVE = _s.take()  # TEC-MV-3: started the turn on the Great Old One's Town card
S_SCHOLAR_USED = _s.take()
S_BRAWLER_USED = _s.take()
S_SPIN_SEG = _s.take()
S_SPIN_TOWN = _s.take()  # pointer side's Town position
S_SPIN_ICON = _s.take()
S_SPIN_SH_TOWN = _s.take()  # tentacle side's Town position
S_SPIN_COLOUR = _s.take()
# decision context
S_DECISION = _s.take()  # D_* kind of the pending decision
S_CTX = _s.take(8)  # decision-specific context (documented with each D_*)
S_NDICE = _s.take()
S_DICE = _s.take(MAX_DICE)
S_REROLLS = _s.take()
# pieces
S_BAG = _s.take(N_KINDS)
S_SUP_CHAOS = _s.take()
S_SUP_ELDRITCH = _s.take()
S_SMAT_SH = _s.take(N_COLOURS)  # Shamblers on the Shambler mat
S_SMAT_MAD = _s.take(N_COLOURS)  # Madness tentacles on the Shambler mat
S_DISC_MAD = _s.take(N_COLOURS)
S_DISC_CHAOS = _s.take()
S_DISC_ELDRITCH = _s.take()
S_NECRO_ROW = _s.take(MAX_ROWS)  # Page tokens placed in each row
S_NECRO_ROW_CHAOS = _s.take(MAX_ROWS)  # 1 while the row's Chaos tentacle is still there
S_NECRO_COL_CHAOS = _s.take(MAX_COLS)
S_PAGE_PILE = _s.take()  # Page tokens not yet on the Necronomicon
S_PAGES_PLACED = _s.take()
S_DECK_LEFT = _s.take()  # Page cards left in the deck
# copies of a few parameters the players know (so strategies need only st)
S_NECRO_ROWS = _s.take()
S_NECRO_COLS = _s.take()
S_PAGE_TOTAL = _s.take()
S_TEMP_CAP = _s.take()
S_CHAOS_CAP = _s.take()
S_DICE_MAX = _s.take()
# Town positions: block per town
T_CARD = 0
T_SIDE = 1
T_ACTION = 2
T_AMOUNT = 3
T_MAD_LEN = 4
T_SH_LEN = 5
T_MAD = 6  # + colour: Madness on each colour track
T_SH = 9  # + colour: Shamblers on the track, by colour
T_ELDRITCH = 12  # Eldritch on the black square (0/1)
T_PAGE = 13  # face-up Page card id, -1 when face-down or none
T_PAGE_STATE = 14  # 1 face-up, 0 face-down, -1 no card
T_PCOST = 15  # + colour: cost of the face-up card
T_PTOK = 18  # + k: its page numbers
T_PRUNE = 21  # + colour: its runes
T_SIZE = 24
S_TOWNS = _s.take(N_TOWNS * T_SIZE)
# characters: block per seat
P_TOWN = 0
P_TEMP = 1  # + colour: Madness on each Temperament Track
P_CHAOS = 4
P_BRAIN = 5  # -1 below the track, else the space
P_DEL_LEN = 6  # spaces below the top
P_RUNES = 7  # + colour
P_PAGES = 10  # Page cards translated
P_ABILITY = 11
P_AMOUNT = 12
P_SIZE = 13
S_CHARS = _s.take(MAX_CHARS * P_SIZE)
# portals
Q_COLOUR = 0
Q_NUMBER = 1
Q_SEALED = 2  # 0 open, 1 covered by Madness, 2 covered by Chaos
Q_SIZE = 3
S_PORTALS = _s.take(N_PORTALS * Q_SIZE)
S_SEALED = _s.take()
# counters for the record
S_CNT_BANISHED = _s.take()
S_CNT_ACC = _s.take(4)  # by A_* kind below
S_PHASE2_TURN = _s.take()
S_CNT_SEAL_TRIES = _s.take()
S_CNT_CHAOS_ACTIONS = _s.take()
S_CNT_POWERS = _s.take()
S_CNT_ACTIONS = _s.take()
S_CNT_FLIPS = _s.take()
S_MAX_BRAIN = _s.take()
S_SIZE = _s.size

ACC_TOWN_MADNESS = 0
ACC_TOWN_SHAMBLER = 1
ACC_TEMPERAMENT = 2
ACC_ENERGY = 3
ACC_NAMES = ("town_madness", "town_shambler", "temperament", "energy")

# ---- hidden state: hid ------------------------------------------------------------------
H_DECK = 0  # Page deck, top first: ids in H_DECK + H_DECK_TOP ..
H_DECK_TOP = MAX_PAGES
H_DOWN = MAX_PAGES + 1  # + town: the face-down card's id (-1 none)
H_SIZE = H_DOWN + N_TOWNS


# ---- readers of the public state, shared by the rules and the strategies -----------------
# Jitted (and inlined into their callers), and callable from Python too.
@njit(cache=True, _nrt=False, inline="always")
def town(t):
    """Offset of Town position ``t``'s block in ``st``."""
    return S_TOWNS + t * T_SIZE


@njit(cache=True, _nrt=False, inline="always")
def char(c):
    """Offset of character ``c``'s block in ``st``."""
    return S_CHARS + c * P_SIZE


@njit(cache=True, _nrt=False, inline="always")
def portal(q):
    """Offset of portal ``q``'s block in ``st``."""
    return S_PORTALS + q * Q_SIZE


@njit(cache=True, _nrt=False, inline="always")
def ring_distance(a, b):
    """Town cards between positions a and b, the shorter way round."""
    d = (b - a) % N_TOWNS
    return min(d, N_TOWNS - d)


@njit(cache=True, _nrt=False, inline="always")
def shamblers_at(st, t):
    """Shamblers on Town t's Shambler Track."""
    o = town(t)
    return st[o + T_SH] + st[o + T_SH + 1] + st[o + T_SH + 2]


@njit(cache=True, _nrt=False, inline="always")
def translate_deficit(st, c, t):
    """Tentacles character c lacks (beyond its Madness) to pay the face-up card at Town t."""
    o = char(c)
    deficit = 0
    for k in range(N_COLOURS):
        need = st[town(t) + T_PCOST + k] - st[o + P_TEMP + k]
        if need > 0:
            deficit += need
    return deficit


# ---- decisions ---------------------------------------------------------------------------
# Every choice the rules give the players: S_DECISION says which, S_CTX what it is about, and
# the legal mask says which answers are allowed.
D_ACTION = 0  # main action (A_*); S_CTX[0] = actions left (0: only with a Chaos)
D_FLIP = 1  # flip a Page card passed or stopped beside: answer town, or N_TOWNS for none
D_COLLECT = 2  # take one Madness of colour c from this town, or 3 to stop; S_CTX[0] = left
D_REROLL = 3  # bit mask of dice (S_DICE) to reroll; S_CTX[0] = 0 banish, 1 seal
D_BANISH = 4  # after the banish roll: colour to banish, or 3 to give up; S_CTX[0] = cost
D_POINTER_MADNESS = 5  # Shambler mat -> Discard mat: which colour (purge also offers 3: stop)
D_TOWN_SIDE = 6  # setup: side for position S_CTX[0] (card S_CTX[1]): 0 front, 1 back;
# S_CTX[2..4] = front's action, Madness and Shambler track lengths, S_CTX[5..7] the back's
D_VENT = 7  # vent / medium: colour to move from your mat, or 3 to stop
D_TRAVEL = 8  # travel: destination town
D_GATHER = 9  # gather: town * 3 + colour to take, or 15 to stop
D_EXCHANGE = 10  # exchange: give colour a * 3 + take colour b, or 9 to stop
D_STUDY = 11  # study: town whose face-down card to flip, or N_TOWNS to stop
D_BARRICADE = 12  # barricade: Shambler colour to return, or 3 to stop
D_DIRECTION = 13  # move: 0 clockwise, 1 counter-clockwise (asked only when both are legal);
# S_CTX[0] = destination town
D_PAY = 14  # paying a cost: how many Chaos (wild) to spend instead of Madness; asked only when
# more than one split is possible; S_CTX[0] = colour, [1] = amount, [2] = 0 banish,
# 1 translate, 2 seal
D_NAMES = ("action", "flip", "collect", "reroll", "banish", "pointer_madness", "town_side",
           "vent", "travel", "gather", "exchange", "study", "barricade", "direction", "pay")
PAY_BANISH = 0
PAY_TRANSLATE = 1
PAY_SEAL = 2

# main actions
A_MOVE = 0  # + destination town (0..4)
A_COLLECT = 5
A_BANISH = 6
A_TOWN = 7
A_TRANSLATE = 8
A_SEAL = 9  # + portal (0..5)
A_ABILITY = 15
A_END = 16
N_ACTIONS = 17
LEGAL_SIZE = 32
ACTION_NAMES = tuple(f"move to town {t}" for t in range(N_TOWNS)) + (
    "collect", "banish", "town action", "translate") + tuple(
    f"seal portal {q + 1}" for q in range(N_PORTALS)) + ("ability", "end turn")

# ---- outcomes and the record -------------------------------------------------------------
OUTCOMES = ("win", "strength", "madness", "cap")
O_WIN, O_STRENGTH, O_MADNESS, O_CAP = range(4)
O_PLAYING = -1

RECORD_FIELDS = (
    "outcome",
    "winner",
    "turns",
    "phase2_turn",
    "pages_translated",
    "page_tokens_placed",
    "portals_sealed",
    "shamblers_banished",
    "acc_town_madness",
    "acc_town_shambler",
    "acc_temperament",
    "acc_energy",
    "strength_final",
    "max_delirium",
    "seal_attempts",
    "chaos_actions",
    "goo_powers",
    "actions",
    "pages_flipped",
    "violations",
)
R_SIZE = len(RECORD_FIELDS)
(R_OUTCOME, R_WINNER, R_TURNS, R_PHASE2_TURN, R_PAGES, R_TOKENS, R_SEALED, R_BANISHED,
 R_ACC_TOWN_MADNESS, R_ACC_TOWN_SHAMBLER, R_ACC_TEMPERAMENT, R_ACC_ENERGY, R_STRENGTH,
 R_MAX_BRAIN, R_SEAL_TRIES, R_CHAOS_ACTIONS, R_POWERS, R_ACTIONS, R_FLIPS,
 R_VIOLATIONS) = range(R_SIZE)

# ---- trace events (ev[k, :]) -------------------------------------------------------------
EV_WIDTH = 8
(EV_SETUP_SIDE, EV_SETUP_GOO, EV_SETUP_SHAMBLER, EV_SETUP_PLAYER, EV_TURN, EV_SPIN, EV_POINTER,
 EV_DRAW, EV_ACCURSED, EV_SPAWN, EV_GOO_MOVE, EV_POWER, EV_ACTION, EV_MOVE, EV_FLIP,
 EV_STOP_DRAW, EV_COLLECT, EV_ROLL, EV_REROLL, EV_BANISH, EV_CLEANUP, EV_TOWN_ACTION,
 EV_TRANSLATE, EV_LINE_DONE, EV_PHASE2, EV_SEAL, EV_BRAIN, EV_STRENGTH, EV_END, EV_CHAOS_LOST,
 EV_ABILITY, EV_VIOLATION, EV_NO_SHAMBLER, EV_DRAW_SHORT, EV_PAY, EV_TURN_END, EV_STATUS,
 EV_STATUS_CHAR) = range(38)
# EV_TURN_END: character, actions left unused, Chaos on its track, 1 if the game goes on
# EV_STATUS (after every turn): turn, Strength, Strength Track length, phase, Page cards
#   translated, Page tokens placed, portals sealed
# EV_STATUS_CHAR (one per character, after EV_STATUS): character, Fear, Rage, Greed on its
#   Temperament Tracks, Chaos, Brain token space (-1: not on the Delirium Track), Delirium
#   Track spaces
