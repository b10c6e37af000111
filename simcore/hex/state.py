"""Cthulhu Boardgame (BookRanger's hex wargame): array layouts shared by the loader, the rules,
the strategies and the trace.

Everything is named through :class:`simcore.engine.Layout`: ``PARAMS`` (the ``ip`` vector the
loader fills) and ``STATE`` (the public state ``s``; the game has no hidden state, every seat
sees the whole board).  Offsets are module constants for the jitted code; tests address words by
name (``STATE.offset("hex[12].good")``) and traces print states by name.
"""

from __future__ import annotations

from simcore.engine import param_layout, state_layout

# ---- array shapes (not game numbers: those are in rules.toml) -------------------------------
MAX_HEX = 128  # two 64-bit words per hex bitset
BIT_WORDS = 2
MAX_COUNTERS = 24  # both sides together
MAX_ARTEFACTS = 6
MAX_CRT_ROWS = 6  # defence values
MAX_CRT_COLS = 6  # attack values
N_SIDES = 2
GOOD, BAD = 0, 1
SIDE_NAMES = ("Good", "Bad")
NO_HEX = -1

# ---- decisions (s[DECISION]) and their answers -----------------------------------------------
D_NONE = 0
D_PLACE_ARTEFACT = 1  # answer: a hex
D_PLACE_UNDERGROWTH = 2  # answer: a hex
D_ENTER = 3  # answer: a counter to bring on, or A_PASS
D_ENTER_HEX = 4  # answer: a hex of the side's base line
D_MOVE_PICK = 5  # answer: a counter to move, or A_END (movement over)
D_DROP = 6  # answer: A_KEEP or A_LEAVE (a carrier leaving its own base line, or crossing it)
D_MOVE_TO = 7  # answer: a hex
D_ATTACK_PICK = 8  # answer: a counter to attack at range, or A_END (combat over)
D_ATTACK_TARGET = 9  # answer: the enemy counter attacked
D_DROP_HEX = 10  # answer: the base-line hex it leaves its Artefact in, passing (drop_in_passing)
DECISION_NAMES = ("none", "place an Artefact", "place Undergrowth", "bring on a counter",
                  "where to bring it on", "which counter moves", "leave the Artefact?",
                  "where it moves", "which counter attacks", "which enemy it attacks",
                  "where it leaves the Artefact")
A_PASS = MAX_COUNTERS  # D_ENTER: bring nothing on this turn
A_END = MAX_COUNTERS  # D_MOVE_PICK, D_ATTACK_PICK: no more moves / attacks
A_KEEP = 0  # D_DROP: move on carrying the Artefact
A_LEAVE = 1  # D_DROP: leave it on the base line

# ---- procedures on the frame stack ------------------------------------------------------------
PR_SETUP = 1  # locals: placements made
PR_TURN = 2  # locals: phase
PR_ENTER = 3  # locals: counter chosen
PR_MOVE = 4  # locals: counter chosen, leaving its Artefact (0/1), the hex it leaves it in
#              passing + 1 (0: none), the steps left after it
PR_ATTACK = 5  # locals: attacker chosen
PH_ENTER, PH_MOVE, PH_COMBAT = 0, 1, 2

# ---- outcomes and the record ------------------------------------------------------------------
OUTCOMES = ("good_win", "bad_win", "stalemate")
O_GOOD_WIN, O_BAD_WIN, O_STALEMATE = range(3)
RECORD_FIELDS = (
    "outcome", "winner", "turns",
    "good_lost", "bad_lost",  # counters killed, by side
    "good_pickups", "bad_pickups",  # times a counter of the side took up an Artefact
    "good_carriers", "bad_carriers",  # different counters of the side that carried one
    "good_home", "bad_home",  # Artefacts on the side's base line at the end
    "good_attacks", "bad_attacks",
    "good_kills", "bad_kills",
    "good_entered", "bad_entered",
    "first_pickup_turn",  # -1 when nobody took up an Artefact
    "leader_killed", "monster_killed",  # 1 when the counter that enters first / last died
)
R_SIZE = len(RECORD_FIELDS)
(R_OUTCOME, R_WINNER, R_TURNS, R_GOOD_LOST, R_BAD_LOST, R_GOOD_PICKUPS, R_BAD_PICKUPS,
 R_GOOD_CARRIERS, R_BAD_CARRIERS, R_GOOD_HOME, R_BAD_HOME, R_GOOD_ATTACKS, R_BAD_ATTACKS,
 R_GOOD_KILLS, R_BAD_KILLS, R_GOOD_ENTERED, R_BAD_ENTERED, R_FIRST_PICKUP, R_LEADER_KILLED,
 R_MONSTER_KILLED) = range(R_SIZE)

# ---- trace events (code, a .. g) --------------------------------------------------------------
EV_PLACE = 1  # side, what (0 Artefact, 1 Undergrowth), hex, index
EV_TURN = 2  # turn, side
EV_ENTER = 3  # counter, hex
EV_MOVE = 4  # counter, from hex, to hex, Artefact carried + 1 (0 none)
EV_PICKUP = 5  # counter, Artefact, hex, how (0 start of turn, 1 survivor of a fight,
#               2 start of turn in a fight: its side's turn, so it carries it)
EV_DROP = 6  # counter, Artefact, hex, 1 when left in passing (drop_in_passing)
EV_ATTACK = 7  # attacker, target, attack, defence, needed, rolled, killed (0/1)
EV_WIN = 8  # side, turn
EV_CAP = 9  # turn
EV_MELEE = 10  # attacker, target (a forced melee attack follows)

# ---- parameters: ip ---------------------------------------------------------------------------
PARAMS = param_layout("hex params")
I_ROWS = PARAMS.field("rows")
I_COLS = PARAMS.field("cols")
I_N_HEX = PARAMS.field("n_hex")
I_N_COUNTERS = PARAMS.field("n_counters")
I_N_ARTEFACTS = PARAMS.field("n_artefacts")
I_N_UNDERGROWTH = PARAMS.field("n_undergrowth")
I_MAX_TURNS = PARAMS.field("max_turns")
I_FIRST_SIDE = PARAMS.field("first_side")
I_ENTERED_MOVES = PARAMS.field("entered_counter_moves")
I_ACCESS_PATH = PARAMS.field("undergrowth_access_path")  # 1: HEX-S-5 keeps paths open
I_WIN_POSSESSION = PARAMS.field("win_by_possession")  # 1: HEX-O-1 counts no enemy-held one
I_DROP_PASSING = PARAMS.field("drop_in_passing")  # 1: HEX-MV-7 also within one move
I_DIE_FACES = PARAMS.field("die_faces")
I_BASE_ROWS = PARAMS.field("base_line_rows")
I_GOOD_AT_BOTTOM = PARAMS.field("good_at_bottom")  # 1: Good's base line is the bottom row
I_CRT_ROWS = PARAMS.field("crt_rows")
I_CRT_COLS = PARAMS.field("crt_cols")
I_CRT = PARAMS.array("crt", MAX_CRT_ROWS * MAX_CRT_COLS)  # [(defence-1) * MAX_CRT_COLS + attack-1]
I_C_SIDE = PARAMS.array("counter.side", MAX_COUNTERS)
I_C_ATTACK = PARAMS.array("counter.attack", MAX_COUNTERS)
I_C_DEFENCE = PARAMS.array("counter.defence", MAX_COUNTERS)
I_C_RANGE = PARAMS.array("counter.range", MAX_COUNTERS)
I_C_MOVE = PARAMS.array("counter.move", MAX_COUNTERS)
I_C_KIND = PARAMS.array("counter.kind", MAX_COUNTERS)  # index into the loader's kind names
I_C_FIRST = PARAMS.array("counter.first", MAX_COUNTERS)  # 1: its side must bring it on first
I_C_LAST = PARAMS.array("counter.last", MAX_COUNTERS)  # 1: its side must bring it on last
I_FIRST_OF = PARAMS.array("first_of", N_SIDES)  # the counter a side must bring on first, or -1
I_LAST_OF = PARAMS.array("last_of", N_SIDES)  # the counter a side must bring on last, or -1
I_SIDE_COUNTERS = PARAMS.array("side_counters", N_SIDES)
I_BASE_BITS = PARAMS.array("base_bits", N_SIDES * BIT_WORDS)  # each side's base line
I_MIDDLE_BITS = PARAMS.array("middle_bits", BIT_WORDS)  # the Artefact area
I_BOARD_BITS = PARAMS.array("board_bits", BIT_WORDS)  # every hex of the board
I_NB_BITS = PARAMS.array("nb_bits", MAX_HEX * BIT_WORDS)  # neighbours of each hex
I_NB = PARAMS.array("nb", MAX_HEX * 6)  # neighbour hexes (-1: off the board), W E NW NE SW SE
I_ROW = PARAMS.array("row_of", MAX_HEX)
I_COL = PARAMS.array("col_of", MAX_HEX)
I_DIST = PARAMS.array("dist", MAX_HEX * MAX_HEX)  # [a * MAX_HEX + b]
# the hexes counter c can shoot into from hex h (distance 1 .. its range): [(c * MAX_HEX + h) * 2]
I_C_RANGE_BITS = PARAMS.array("counter_range_bits", MAX_COUNTERS * MAX_HEX * BIT_WORDS)
# the hexes within r steps of hex h (r = 0 .. MAX_BALL; the board's distances, as ``dist``):
# [(h * (MAX_BALL + 1) + r) * 2].  Read-only, for the strategies (how far an enemy strikes,
# where a carrier may pass); the rules do not read it.
MAX_BALL = 23  # a counter's move and range at their largest (12 + 10), and one more
I_BALL_BITS = PARAMS.array("ball_bits", MAX_HEX * (MAX_BALL + 1) * BIT_WORDS)
I_SIZE = PARAMS.size

# ---- float parameters: fp (search's valuation, not rules) -----------------------------------
F_STALEMATE_WORTH = 0  # what a stalemate is worth to each side (returns, evaluate)
F_SIZE = 1

# ---- the public state: s ----------------------------------------------------------------------
STATE = state_layout("hex state")
S_SIDE = STATE.field("side")  # the side whose turn it is
S_PLACED = STATE.field("placed")  # setup placements made
S_LOST = STATE.array("lost", N_SIDES)
S_KILLS = STATE.array("kills", N_SIDES)
S_PICKUPS = STATE.array("pickups", N_SIDES)
S_ATTACKS = STATE.array("attacks", N_SIDES)
S_ENTERED = STATE.array("entered", N_SIDES)
S_FIRST_PICKUP = STATE.field("first_pickup_turn")  # -1 until someone takes one up
S_UG_BITS = STATE.array("undergrowth_bits", BIT_WORDS)
S_OCC_BITS = STATE.array("occupied_bits", N_SIDES * BIT_WORDS)  # hexes holding a side's counter
S_ART_BITS = STATE.array("artefact_bits", BIT_WORDS)
# counters: where (-1 off the board), status, and what this turn has done
S_C_POS = STATE.array("counter.pos", MAX_COUNTERS)
S_C_STATUS = STATE.array("counter.status", MAX_COUNTERS)  # CS_*
S_C_MOVED = STATE.array("counter.moved", MAX_COUNTERS)
S_C_ATTACKED = STATE.array("counter.attacked", MAX_COUNTERS)
S_C_LOCKED = STATE.array("counter.locked", MAX_COUNTERS)  # began the turn beside an enemy
S_C_CARRY = STATE.array("counter.carrying", MAX_COUNTERS)  # Artefact + 1, 0 none
S_C_CARRIED = STATE.array("counter.has_carried", MAX_COUNTERS)  # took one up at some time
S_A_HEX = STATE.array("artefact.hex", MAX_ARTEFACTS)
S_A_CARRIER = STATE.array("artefact.carrier", MAX_ARTEFACTS)  # counter + 1, 0 none
S_H_GOOD = STATE.array("hex.good", MAX_HEX)  # Good's counter there + 1, 0 none
S_H_BAD = STATE.array("hex.bad", MAX_HEX)
S_H_ARTEFACT = STATE.array("hex.artefact", MAX_HEX)  # Artefact + 1
S_H_UNDERGROWTH = STATE.array("hex.undergrowth", MAX_HEX)  # 1: Undergrowth
# steps from each hex to each side's base line around the Undergrowth (-1: cut off), worked
# out when setup ends: the board is fixed from then on, and every player can count them
S_HOME_STEPS = STATE.array("home_steps", N_SIDES * MAX_HEX)  # [side * MAX_HEX + h]
S_SIZE = STATE.size

CS_WAITING, CS_ON_BOARD, CS_DEAD = 0, 1, 2

# the view: the game has nothing hidden, so ``observe`` writes no word of it; its words are the
# heuristic's turn memo (strategies/hex.py: a key of about 130 words, a slot of 134 words a
# counter, and the side's context, about 1,300 words)
VIEW_WORDS = 4800

MASK_SIZE = max(MAX_HEX, MAX_COUNTERS + 1)  # the loader uses max(hexes, counters + 1)
