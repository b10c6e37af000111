"""Sticky Cthulhu: array layouts shared by the loader, the rules, strategies and the trace.

Strategies may read only the decision view (``V_*``) and the legal mask; everything else here
is the core's own layout.
"""

MAX_SEATS = 8  # one per sticky tentacle; array sizes only, the player range is in rules data
MAX_TOKENS = 64  # workspace rows for Creatures + Investigators (checked by the loader)

# ---- float parameters (fp) --------------------------------------------------------------
F_WIDTH = 0
F_DEPTH = 1
F_TOKEN_R = 2
F_REACH = 3
F_ROLLER_ADV = 4
F_ROLL_S = 5
F_SHAKE_S = 6
F_SHAKE_DROP = 7
F_CATCH_SCALE = 8
F_RETHROW_LO = 9  # a rethrow takes rethrow_s x (F_RETHROW_LO + F_RETHROW_SPAN x uniform)
F_RETHROW_SPAN = 10
F_CENTRE = 11  # STK-T-9: side (cm) of the central square a caught Creature is put back in
F_TANGLE_WINDOW = 12  # STK-T-10: first throws this close in time (s) may tangle
F_TANGLE_P = 13  # ... with this chance
F_TANGLE_S = 14  # ... costing both players this long (s)
F_CENTRE_X0 = 15  # derived by the loader: the rectangle a token put back at the centre lies in
F_CENTRE_X1 = 16  # (F_CENTRE_X0 <= x - radius, x + radius <= F_CENTRE_X1; likewise for y)
F_CENTRE_Y0 = 17
F_CENTRE_Y1 = 18
F_SIZE = 19

# ---- integer parameters (ip) ------------------------------------------------------------
I_PLAYERS = 0
I_KINDS = 1
I_COLOURS = 2
I_INVESTIGATORS = 3
I_TO_WIN = 4
I_CURSES_ON = 5
I_SIXTH_MODE = 6  # a Colour die face beyond the colours: SIXTH_COLOUR, SIXTH_REROLL or SIXTH_ANY
I_MAX_TURNS = 7
I_MAX_THROWS = 8
I_N_CURSES = 9
I_KIND_FACES = 10
I_COLOUR_FACES = 11
I_FIRST = 12
I_PLACE_TRIES = 13
I_SUPPLY = 14
I_SIXTH_COLOUR = 15  # the colour those faces show (SIXTH_COLOUR)
I_RETURN_CENTRE = 16  # STK-T-9: 1 = put back at the centre, 0 = anywhere on the table
I_TANGLES = 17  # STK-T-10: 1 = first throws may tangle
I_PUT_BACK_CLEAR = 18  # STK-T-9: 1 = a token put back touches no other (as at setup)
# the float parameters travel to the shared runner as one array, [fp | skill | curse | phit]
# (simcore.engine.run_callback_batch hands a callback game one float array): their sizes
I_FP_SIZE = 19
I_CURSE_ROWS = 20  # rows of the curse table (at least one, a blank card without the Curses)
I_SIZE = 21

SIXTH_COLOUR = 0  # the face shows a colour (blue, by a published review: blue on two faces)
SIXTH_REROLL = 1  # the face is rolled again
SIXTH_ANY = 2  # any colour of the rolled kind counts
SIXTH_MODES = ("colour", "reroll", "any")

# ---- skill profile of a seat (skill[seat, SK_*]) ----------------------------------------
SK_REACT_MIN = 0
SK_REACT_MEAN = 1
SK_RETHROW = 2
SK_AIM = 3
SK_DETACH = 4
SK_NOTICE = 5  # chance of noticing an Investigator stuck with the target before detaching
SK_INV_TWO_VAR = 6  # derived by the loader: 1 / (2 aim_sd_cm^2) (inf for a perfect aim)
SK_SIZE = 7
SKILL_KEYS = ("reaction_min_s", "reaction_mean_s", "rethrow_s", "aim_sd_cm", "detach_s",
              "notice_p")

# ---- curse card effects (curse[card, CU_*]) ---------------------------------------------
CU_TIME = 0
CU_AIM = 1
CU_DELAY = 2
CU_EXTRA = 3
CU_CATCH = 4
CU_INV_AIM2 = 5  # derived by the loader: 1 / aim_factor^2
CU_SIZE = 6
CURSE_KEYS = ("time_factor", "aim_factor", "delay_s", "extra_creature", "catch_p")

NO_CURSE = -1

# ---- decision view (what a strategy sees) -----------------------------------------------
D_INVESTIGATOR = 0  # the target is on my tentacle with an Investigator: shake or detach?
D_CURSE = 1  # start of a turn under a Curse: respect it or not?
D_TARGET = 2  # the Colour die's special face: which Creature of the kind to aim at?

A_SHAKE = 0
A_DETACH = 1
A_RESPECT = 0
A_IGNORE = 1

V_KIND = 0
V_SEAT = 1
V_PLAYERS = 2
V_TO_WIN = 3
V_MY_TOKENS = 4
V_LEADER_TOKENS = 5  # most tokens held by an opponent
V_CURSE = 6  # my Curse card index, or -1
V_CATCH_P = 7  # chance of being caught ignoring it this turn
V_STUCK_INVESTIGATORS = 8
V_STUCK_CREATURES = 9  # besides the target
V_SHAKE_DROP = 10
V_N_CAND = 11
V_CAND = 12  # V_CAND + c: clearance (cm) of candidate c from the nearest Investigator
V_SIZE = V_CAND + 16
LEGAL_SIZE = 16

# ---- per-playout record ---------------------------------------------------------------
OUTCOMES = ("win", "cap")
O_WIN = 0
O_CAP = 1

R_OUTCOME = 0
R_WINNER = 1
R_TURNS = 2
R_GAME_MS = 3
R_MISHAPS = 4  # turns ended with an Investigator on the winner's tentacle (no token)
R_INV_HITS = 5  # throws after which the target is on the tentacle with an Investigator: caught
#                with one there, or one joining it (STK-C-9's throw for company)
R_SHAKES = 6
R_CHEATS = 7  # player-turns played ignoring a Curse
R_PENALTIES = 8  # Deep One tokens lost for being caught
R_VOID = 9  # turns nobody finished within max_throws
R_ROLLER_WINS = 10  # turns won by the player who rolled
R_CONTACTS = 11  # throws (hits or misses) that picked up an Investigator
R_TANGLES = 12  # STK-T-10: pairs of tentacles tangled
R_TOKENS = 13  # R_TOKENS + seat: Deep One tokens at the end
R_SIZE = R_TOKENS + MAX_SEATS

RECORD_FIELDS = (
    "outcome",
    "winner",
    "turns",
    "game_ms",
    "mishaps",
    "investigator_hits",
    "shakes",
    "curse_cheats",
    "curse_penalties",
    "void_turns",
    "roller_wins",
    "investigator_contacts",
    "tangles",
) + tuple(f"tokens_{s}" for s in range(MAX_SEATS))

# ---- trace events (ev[k, :]) ------------------------------------------------------------
EV_WIDTH = 8
EV_SETUP = 0  # token, x_mm, y_mm
EV_ROLL = 1  # turn, roller, kind, colour (-1 any), rerolls, Colour die face
EV_THROW = 2  # seat, t_ms, hit, creatures, investigators picked up, aimed token, investigators
#              on the tentacle after the throw
EV_SHAKE = 3  # seat, t_ms (when it ended), target kept (-1: no target on the tentacle),
#              investigators left, creatures left, 1 = the shake that goes with a rethrow
EV_DETACH = 4  # seat, t_ms, scored, Investigator aboard unnoticed
EV_CURSE_DRAW = 5  # seat, card, returned card
EV_CURSE_CHOICE = 6  # seat, card, ignored
EV_PENALTY = 7  # seat, card, tokens after
EV_VOID = 8  # turn
EV_WIN = 9  # seat, turn
EV_TOKEN = 10  # seat, tokens after
EV_GIVE_UP = 11  # seat, t_ms
EV_CURSE_FREE = 12  # seat, card: no tokens, so not obliged
EV_TIE = 13  # seat chosen, seats tied, t_ms: finishes at the same instant, settled at random
EV_TANGLE = 14  # seat, other seat, t_ms of the later throw, t_ms both throw again
EV_PUT_BACK = 15  # token, x_mm, y_mm: STK-T-9, the caught Creature back on the table
EV_NOTICE = 16  # seat, t_ms, noticed: after a miss, an Investigator left on the tentacle
