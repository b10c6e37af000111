"""Tiny Epic Cthulhu: array layouts shared by the loader, the rules, the strategies and the trace.

Everything is named through :class:`simcore.engine.Layout`: ``PARAMS`` (the ``ip`` vector the
loader fills, after the engine's own words), ``STATE`` (the public state ``s``, after the
engine's fixed fields: outcome, winner, seat, decision, turn, decisions and the frame stack) and
``HIDDEN`` (the hidden state ``h``).  In this cooperative game every player sees everything but
the order of the Page deck and the faces of the face-down Page cards, which are ``h``; nobody
sees more than the others, so there is no per-seat view.

The offsets are module constants for the jitted code; tests address words by name
(``STATE.offset("town[2].mad[1]")`` or the test helper's ``town2.mad.red``) and
``STATE.describe(s)`` prints a state by name.  Strategies read ``s`` with these offsets and never
write to it.
"""

from __future__ import annotations

from numba import njit

from simcore.engine import Layout, param_layout, state_layout
from simcore.kernels import LOG_SIG, log_event

# ---- fixed sizes (array shapes, not game numbers: those are in rules.toml) -----------------
N_TOWNS = 5  # positions around the wheel (the rulebook's five Town cards)
MAX_CHARS = 4
N_COLOURS = 3  # blue/Fear, red/Rage, green/Greed
N_KINDS = 5  # tentacle kinds: 0-2 Madness by colour, 3 Chaos, 4 Eldritch
K_CHAOS = 3
K_ELDRITCH = 4
MAX_PAGES = 64  # (the translated cards are one 64-bit word of the state)
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

# ---- parameters: ip ------------------------------------------------------------------------
PARAMS = param_layout("tec params")
I_CHARS = PARAMS.field("chars")  # characters in play (2 in solo)
I_PLAYERS = PARAMS.field("players")  # the players setting (1 = solo)
I_MADNESS = PARAMS.field("madness_per_colour")
I_CHAOS = PARAMS.field("chaos")
I_ELDRITCH = PARAMS.field("eldritch")
I_SHAMBLERS = PARAMS.field("shamblers_per_colour")
I_PAGE_TOKENS = PARAMS.field("page_tokens")
I_DICE = PARAMS.field("dice")
I_BAG_ELDRITCH = PARAMS.field("bag_eldritch")  # including the difficulty's extra
I_BAG_MADNESS = PARAMS.field("bag_madness")
I_SMAT_MADNESS = PARAMS.field("shambler_mat_madness")
I_DISC_MADNESS = PARAMS.field("discard_madness")
I_TOWN_ELDRITCH = PARAMS.field("town_eldritch")
I_SHAMBLERS_PER_PLAYER = PARAMS.field("shamblers_per_player")
I_ACTIONS = PARAMS.field("actions")
I_TEMP_CAP = PARAMS.field("temperament_capacity")
I_CHAOS_CAP = PARAMS.field("chaos_capacity")
I_MOVE_BY_FEAR = PARAMS.array("move_by_fear", 3)
I_COLLECT_BY_GREED = PARAMS.array("collect_by_greed", 3)
I_CLEANUP_BY_RAGE = PARAMS.array("cleanup_by_rage", 3)
I_N_FACES = PARAMS.field("n_faces")
I_FACES = PARAMS.array("faces", 12)
I_N_SEGMENTS = PARAMS.field("n_segments")
I_SEG_ICON = PARAMS.array("segment.icon", MAX_SEGMENTS)
I_SEG_COLOUR = PARAMS.array("segment.colour", MAX_SEGMENTS)
I_SEG_TOWN = PARAMS.array("segment.town", MAX_SEGMENTS)
I_SEG_TENTACLE = PARAMS.array("segment.tentacle", MAX_SEGMENTS)  # segment under the tentacle end
I_TOWN_SIDES = PARAMS.field("town_sides")  # 0 strategy, 1 random, 2 front, 3 back
I_SIDE_ACTION = PARAMS.array("side.action", N_TOWNS * 2)  # [card * 2 + side]
I_SIDE_AMOUNT = PARAMS.array("side.amount", N_TOWNS * 2)
I_SIDE_MAD_LEN = PARAMS.array("side.madness_track", N_TOWNS * 2)
I_SIDE_SH_LEN = PARAMS.array("side.shambler_track", N_TOWNS * 2)
I_GOO = PARAMS.field("goo")  # index into GOOS
I_DIFFICULTY = PARAMS.field("difficulty")
I_STR_LEN = PARAMS.array("strength_len", 2)  # per phase (index 0 = phase one)
I_STR_DRAW = PARAMS.array("strength_draws", 2 * MAX_STRENGTH)
I_ENERGY_LEN = PARAMS.array("energy_len", 2)
I_POWER = PARAMS.array("power", 2 * N_COLOURS)  # [phase * 3 + colour]
I_POWER_N = PARAMS.array("power_amount", 2 * N_COLOURS)
I_PORTAL_COLOUR = PARAMS.array("portal.colour", N_PORTALS)
I_PORTAL_NUMBER = PARAMS.array("portal.number", N_PORTALS)
I_CHAR_ABILITY = PARAMS.array("char.ability", MAX_CHARS)  # per seat
I_CHAR_AMOUNT = PARAMS.array("char.amount", MAX_CHARS)
I_CHAR_DEL_LEN = PARAMS.array("char.delirium_len", MAX_CHARS)  # spaces below the top
I_CHAR_DEL = PARAMS.array("char.delirium", MAX_CHARS * MAX_DELIRIUM)  # rerolls per space
I_N_PAGES = PARAMS.field("n_pages")
I_PAGE_COST = PARAMS.array("page.cost", MAX_PAGES * N_COLOURS)  # [card * 3 + colour]
I_PAGE_TOK = PARAMS.array("page.tokens", MAX_PAGES * 3)  # [card * 3 + k], 0 = none
I_PAGE_RUNE = PARAMS.array("page.runes", MAX_PAGES * N_COLOURS)  # rune counts [card * 3 + colour]
I_ROWS = PARAMS.field("necronomicon_rows")
I_COLS = PARAMS.field("necronomicon_cols")
I_LINE_CHAOS = PARAMS.field("chaos_per_line")
I_TRANSLATE_DOWN = PARAMS.field("translate_face_down")
I_MOVE_EXACT = PARAMS.field("move_exact")  # move_distance: 1 exact (the text), 0 up to
I_FLIP_AT_STOP = PARAMS.field("flip_at_stop")  # page_flip: 1 only where the move stops
I_FORCED_MOVE_P2 = PARAMS.field("forced_move_phase_two")  # forced_move_phases: 1 both phases
I_SETUP_GOO_PAGE = PARAMS.field("setup_goo_page")  # 1: the Great Old One's Page card flipped
I_FORCED_MOVE_ANY = PARAMS.field("forced_move_any_action")  # forced_move_when: any_action
I_SETUP_TENTACLES_FIRST = PARAMS.field("setup_tentacles_first")  # setup_order
I_SHAMBLER_LOSS = PARAMS.field("shambler_loss")  # 1: all Shamblers in the towns loses
I_MUST_MOVE_AFTER_SPIN = PARAMS.field("must_move_after_spin")  # TEC-MV-3 reading
I_P2_ENERGY_TO_BAG = PARAMS.field("phase_two_energy_to_bag")  # TEC-TR-6 reading
I_MAX_TURNS = PARAMS.field("max_turns")
I_MAX_ACTIONS = PARAMS.field("max_actions")
I_SIZE = PARAMS.size

# ---- the public state: s -------------------------------------------------------------------
# (the turn, the outcome and the decision asked are the engine's TURN, OUTCOME and DECISION)
STATE = state_layout("tec state")
S_PHASE = STATE.field("phase")  # 1 or 2
S_CUR = STATE.field("cur")  # character whose turn it is
S_NCHARS = STATE.field("nchars")
S_GOO_TOWN = STATE.field("goo_town")
S_STRENGTH = STATE.field("strength")  # position of the Strength token on the current side
S_STR_LEN = STATE.field("str_len")  # numbered spaces on the current side (len: full strength)
S_STR_DRAW = STATE.array("str_draw", MAX_STRENGTH)  # draws per position, current side
S_ENERGY = STATE.field("energy")  # Eldritch on the Energy Track
S_ENERGY_LEN = STATE.field("energy_len")
S_POWER = STATE.array("power", N_COLOURS)  # current side's power per colour
S_POWER_N = STATE.array("power_n", N_COLOURS)
S_ACTIONS_LEFT = STATE.field("actions_left")
S_ABILITY_USED = STATE.field("ability_used")
S_MUST_MOVE = STATE.field("must_move")  # TEC-MV-3: the first action must move away
S_SCHOLAR_USED = STATE.field("scholar_used")
S_BRAWLER_USED = STATE.field("brawler_used")
S_SPIN_SEG = STATE.field("spin_seg")
S_SPIN_TOWN = STATE.field("spin_town")  # pointer side's Town position
S_SPIN_ICON = STATE.field("spin_icon")
S_SPIN_SH_TOWN = STATE.field("spin_sh_town")  # tentacle side's Town position
S_SPIN_COLOUR = STATE.field("spin_colour")
# the question asked: what it is about (documented with each D_*; strategies read it)
S_CTX = STATE.array("ctx", 8)
S_NDICE = STATE.field("ndice")
S_DICE = STATE.array("dice", MAX_DICE)
S_REROLLS = STATE.field("rerolls")
# the Great Old One's powers queued by accursed Town Madness tracks (TEC-ACC-2), by colour:
# always empty at a decision (a queue is resolved right after the placement that fills it)
S_PENDING = STATE.array("pending", N_COLOURS)
# pieces
S_BAG = STATE.array("bag", N_KINDS)
S_SUP_CHAOS = STATE.field("sup_chaos")
S_SUP_ELDRITCH = STATE.field("sup_eldritch")
S_SMAT_SH = STATE.array("smat_sh", N_COLOURS)  # Shamblers on the Shambler mat
S_SMAT_MAD = STATE.array("smat_mad", N_COLOURS)  # Madness tentacles on the Shambler mat
S_DISC_MAD = STATE.array("disc_mad", N_COLOURS)
S_DISC_CHAOS = STATE.field("disc_chaos")
S_DISC_ELDRITCH = STATE.field("disc_eldritch")
S_NECRO_ROW = STATE.array("necro_row", MAX_ROWS)  # Page tokens placed in each row
S_NECRO_ROW_CHAOS = STATE.array("necro_row_chaos", MAX_ROWS)  # 1: the row's Chaos is there
S_NECRO_COL_CHAOS = STATE.array("necro_col_chaos", MAX_COLS)
S_PAGE_PILE = STATE.field("page_pile")  # Page tokens not yet on the Necronomicon
S_PAGES_PLACED = STATE.field("pages_placed")
S_DECK_LEFT = STATE.field("deck_left")  # Page cards left in the deck
S_GONE = STATE.field("gone")  # the Page cards translated (bit per card): seen by everyone
# copies of a few parameters the players know (so strategies need only s)
S_NECRO_ROWS = STATE.field("necro_rows")
S_NECRO_COLS = STATE.field("necro_cols")
S_PAGE_TOTAL = STATE.field("page_total")
S_TEMP_CAP = STATE.field("temp_cap")
S_CHAOS_CAP = STATE.field("chaos_cap")
S_DICE_MAX = STATE.field("dice_max")
# Town positions: a block per town
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
S_TOWNS = STATE.array("towns", N_TOWNS * T_SIZE)
# characters: a block per seat
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
S_CHARS = STATE.array("chars", MAX_CHARS * P_SIZE)
# portals
Q_COLOUR = 0
Q_NUMBER = 1
Q_SEALED = 2  # 0 open, 1 covered by Madness, 2 covered by Chaos
Q_SIZE = 3
S_PORTALS = STATE.array("portals", N_PORTALS * Q_SIZE)
S_SEALED = STATE.field("sealed")
# counters for the record
S_CNT_BANISHED = STATE.field("cnt_banished")
S_CNT_ACC = STATE.array("cnt_acc", 4)  # by ACC_* kind below
S_PHASE2_TURN = STATE.field("phase2_turn")
S_CNT_SEAL_TRIES = STATE.field("cnt_seal_tries")
S_CNT_CHAOS_ACTIONS = STATE.field("cnt_chaos_actions")
S_CNT_POWERS = STATE.field("cnt_powers")
S_CNT_ACTIONS = STATE.field("cnt_actions")
S_CNT_FLIPS = STATE.field("cnt_flips")
S_MAX_BRAIN = STATE.field("max_brain")
S_SHAMBLER_LOSS = STATE.field("shambler_loss")  # 1: all Shamblers in the towns loses (switch)
S_SIZE = STATE.size

ACC_TOWN_MADNESS = 0
ACC_TOWN_SHAMBLER = 1
ACC_TEMPERAMENT = 2
ACC_ENERGY = 3
ACC_NAMES = ("town_madness", "town_shambler", "temperament", "energy")
GAIN_ENERGY, GAIN_TEMPERAMENT, GAIN_CHAOS, GAIN_TOWN_MADNESS = range(4)

# ---- hidden state: h -------------------------------------------------------------------------
HIDDEN = Layout("tec hidden")
H_DECK = HIDDEN.array("deck", MAX_PAGES)  # the Page deck, top first: ids H_DECK + top ..
H_DECK_TOP = HIDDEN.field("deck_top")
H_DOWN = HIDDEN.array("face_down", N_TOWNS)  # + town: the face-down card's id (-1 none)
H_SIZE = HIDDEN.size


# ---- readers of the public state, shared by the rules and the strategies -----------------
# Jitted (and inlined into their callers), and callable from Python too.
@njit(cache=True, _nrt=False, forceinline=True)
def town(t):
    """Offset of Town position ``t``'s block in ``s``."""
    return S_TOWNS + t * T_SIZE


@njit(cache=True, _nrt=False, forceinline=True)
def char(c):
    """Offset of character ``c``'s block in ``s``."""
    return S_CHARS + c * P_SIZE


@njit(cache=True, _nrt=False, forceinline=True)
def portal(q):
    """Offset of portal ``q``'s block in ``s``."""
    return S_PORTALS + q * Q_SIZE


@njit(cache=True, _nrt=False, forceinline=True)
def ring_distance(a, b):
    """Town cards between positions a and b, the shorter way round."""
    d = (b - a) % N_TOWNS
    return min(d, N_TOWNS - d)


@njit(cache=True, _nrt=False, forceinline=True)
def shamblers_at(s, t):
    """Shamblers on Town t's Shambler Track."""
    o = town(t)
    return s[o + T_SH] + s[o + T_SH + 1] + s[o + T_SH + 2]


@njit(cache=True, _nrt=False, forceinline=True)
def translate_deficit(s, c, t):
    """Tentacles character c lacks (beyond its Madness) to pay the face-up card at Town t."""
    o = char(c)
    deficit = 0
    for k in range(N_COLOURS):
        need = s[town(t) + T_PCOST + k] - s[o + P_TEMP + k]
        if need > 0:
            deficit += need
    return deficit


# ---- decisions (s[DECISION]) -------------------------------------------------------------
# Every choice the rules give the players: DECISION says which, S_CTX what it is about, and
# the legal mask which answers are allowed.  The seat deciding is the current character (the
# setup's Town sides: seat 0).
D_ACTION = 0  # main action (A_*); S_CTX[0] = actions left (0: only with a Chaos)
D_FLIP = 1  # flip a Page card passed or stopped beside: answer town, or N_TOWNS for none
D_COLLECT = 2  # take one Madness of colour c from this town, or STOP; S_CTX[0] = still to take
D_REROLL = 3  # bit mask of dice (S_DICE) to reroll; S_CTX[0] = 0 banish, 1 seal; for a seal
# S_CTX[1] is the portal
D_BANISH = 4  # after the banish roll: colour to banish, or STOP to give up; S_CTX[0] = cost
D_POINTER_MADNESS = 5  # Shambler mat -> Discard mat: which colour (purge also offers STOP)
D_TOWN_SIDE = 6  # setup: side for position S_CTX[0] (card S_CTX[1]): 0 front, 1 back;
# S_CTX[2..4] = front's action, Madness and Shambler track lengths, S_CTX[5..7] the back's
D_VENT = 7  # vent / medium: colour to move from your mat, or STOP
D_TRAVEL = 8  # travel: destination town
D_GATHER = 9  # gather: town * 3 + colour to take, or A_GATHER_STOP
D_EXCHANGE = 10  # exchange: give colour a * 3 + take colour b, or A_EXCHANGE_STOP
D_STUDY = 11  # study: town whose face-down card to flip, or N_TOWNS to stop
D_BARRICADE = 12  # barricade: Shambler colour to return, or STOP
D_DIRECTION = 13  # move: 0 clockwise, 1 counter-clockwise (asked only when both are legal);
# S_CTX[0] = destination town
D_PAY = 14  # paying a cost: how many Chaos (wild) to spend instead of Madness; asked only when
# more than one split is possible; S_CTX[0] = colour, [1] = amount, [2] = PAY_* (what for)
D_NAMES = ("action", "flip", "collect", "reroll", "banish", "pointer_madness", "town_side",
           "vent", "travel", "gather", "exchange", "study", "barricade", "direction", "pay")
PAY_BANISH = 0
PAY_TRANSLATE = 1
PAY_SEAL = 2
STOP = 3  # the "stop" answer of every colour-valued decision
A_GATHER_STOP = 15  # D_GATHER's stop (5 towns x 3 colours before it)
A_EXCHANGE_STOP = 9  # D_EXCHANGE's stop (3 x 3 colour pairs before it)
NO_FLIP = N_TOWNS  # D_FLIP's "none" and D_STUDY's "stop"

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
LEGAL_SIZE = 32  # the mask: every answer of every decision is below it
ACTION_NAMES = tuple(f"move to town {t}" for t in range(N_TOWNS)) + (
    "collect", "banish", "town action", "translate") + tuple(
    f"seal portal {q + 1}" for q in range(N_PORTALS)) + ("ability", "end turn")

# ---- procedures on the frame stack (engine frames: a procedure id and five locals) ---------
PR_SETUP = 1  # the Town sides (TEC-S-1): [next position]
PR_TURN = 2  # one character's turn: [stage (TS_*), on the GOO's card at turn start, actions]
PR_MOVE = 3  # a Move: [stage (MS_*), destination, from, direction, Town cards]
PR_REPEAT = 4  # a choice repeated until stop: [decision (D_*), times left, 1: the medium]
PR_ROLL = 5  # a roll and its reroll (TEC-DEL-2): [stage, dice, what for (0 banish, 1 seal)]
PR_BANISH = 6  # [stage (BS_*), Rage when it started, cost, brawler discount used, colour]
PR_PAY = 7  # a payment (TEC-BA-3/7, TEC-TR-1): [stage, colour, amount, reserve, what for]
PR_TRANSLATE = 8  # [stage (the colour being paid), Fear, Rage, Greed still to pay]
PR_SEAL = 9  # [stage, portal]
PR_TRAVEL = 10  # the travel town action: []
PR_NAMES = ("", "setup", "turn", "move", "repeat", "roll", "banish", "pay", "translate", "seal",
            "travel")
TS_SPIN, TS_POINTER, TS_ACTIONS = range(3)  # PR_TURN stages
MS_START, MS_DIRECTION, MS_GO, MS_FLIP, MS_DRAW = range(5)  # PR_MOVE stages

# ---- outcomes and the record ---------------------------------------------------------------
OUTCOMES = ("win", "strength", "madness", "cap", "shamblers")
O_WIN, O_STRENGTH, O_MADNESS, O_CAP, O_SHAMBLERS = range(5)  # shamblers: switch shambler_loss
O_PLAYING = -1  # the engine's PLAYING

# the game's own fields (the engine appends decisions, searches, illegal_answers, violations)
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
)
R_SIZE = len(RECORD_FIELDS)
(R_OUTCOME, R_WINNER, R_TURNS, R_PHASE2_TURN, R_PAGES, R_TOKENS, R_SEALED, R_BANISHED,
 R_ACC_TOWN_MADNESS, R_ACC_TOWN_SHAMBLER, R_ACC_TEMPERAMENT, R_ACC_ENERGY, R_STRENGTH,
 R_MAX_BRAIN, R_SEAL_TRIES, R_CHAOS_ACTIONS, R_POWERS, R_ACTIONS, R_FLIPS) = range(R_SIZE)

# ---- trace events (ev[k, :]) -------------------------------------------------------------
(EV_SETUP_SIDE, EV_SETUP_GOO, EV_SETUP_SHAMBLER, EV_SETUP_PLAYER, EV_TURN, EV_SPIN, EV_POINTER,
 EV_DRAW, EV_ACCURSED, EV_SPAWN, EV_GOO_MOVE, EV_POWER, EV_ACTION, EV_MOVE, EV_FLIP,
 EV_STOP_DRAW, EV_COLLECT, EV_ROLL, EV_REROLL, EV_BANISH, EV_CLEANUP, EV_TOWN_ACTION,
 EV_TRANSLATE, EV_LINE_DONE, EV_PHASE2, EV_SEAL, EV_BRAIN, EV_STRENGTH, EV_END, EV_CHAOS_LOST,
 EV_ABILITY, EV_VIOLATION, EV_NO_SHAMBLER, EV_DRAW_SHORT, EV_PAY, EV_TURN_END, EV_STATUS,
 EV_STATUS_CHAR, EV_GAIN, EV_ELDRITCH_SWAP, EV_TOWN_MOVE) = range(41)
# EV_TURN_END: character, actions left unused, Chaos on its track, 1 if the game goes on
# EV_STATUS (after every turn): turn, Strength, Strength Track length, phase, Page cards
#   translated, Page tokens placed, portals sealed
# EV_STATUS_CHAR (one per character, after EV_STATUS): character, Fear, Rage, Greed on its
#   Temperament Tracks, Chaos, Brain token space (-1: not on the Delirium Track), Delirium
#   Track spaces
# EV_GAIN (a tentacle placed on a track that is not full, so nothing is accursed): GAIN_*
#   track, character or town (-1 for the Energy Track), colour (-1 for Chaos and Eldritch),
#   tentacles on the track now, its length
# EV_ELDRITCH_SWAP (a Town's Shambler Track accursed, TEC-ACC-3): town, 1 if its Eldritch went
#   to the Discard mat, 1 if a fresh one came from the supply
# EV_TOWN_MOVE (what a town action or the medium moves, one row per piece): character, TA_*
#   action (-1: the medium's ability), colour or kind moved, town it came from (-1: none),
#   colour taken in exchange (-1: none), pieces moved


@njit(LOG_SIG, cache=True, _nrt=False, forceinline=True)  # one version (kernels.LOG_SIG)
def log(ev, evn, code, a, b, c, d, e, f, g):
    """Log a trace event (``kernels.log_event``).  A batch run passes an event array of no
    rows: the test here, inlined into every rule, saves those runs the call."""
    if ev.shape[0] > 0:
        log_event(ev, evn, code, a, b, c, d, e, f, g)
