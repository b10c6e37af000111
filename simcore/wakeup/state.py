"""Wake Up, Cthulhu!: array layouts shared by the loader, the rules, the strategies and the trace.

Everything is named through :class:`simcore.engine.Layout`: ``PARAMS`` (the ``ip`` vector the
loader fills), ``STATE`` (the public state ``s``: the board, the face-up Grimoire, both discard
piles, how many cards each hand and each bid holds, the Objects each player owns, which are
conjured in view of everyone), ``HIDDEN`` (``h``: each hand's Ingredients, each face-down bid,
the Ingredients deck in order and the face-down Grimoire piles in order) and ``VIEW`` (what
``observe`` gives the deciding seat: its own hand and bid, and the deck's contents while it
searches the deck with Clavicula Salomonis).

Offsets are module constants for the jitted code; tests address words by name
(``STATE.offset("reserve[2]")``) and traces print states by name.
"""

from __future__ import annotations

from simcore.engine import Layout, param_layout, state_layout

# ---- array shapes (not game numbers: those are in rules.toml) -------------------------------
MAX_SEATS = 4
N_NATURAL = 4  # Ingredient kinds (COMPONENT-NOTES: "4 kinds plus a wild")
WILD = N_NATURAL  # the Arcane Symbol
N_ING = N_NATURAL + 1
MAX_SQUARES = 63  # the Summoning Circle's squares, one bit each in a 64-bit word (+ the pit)
MAX_SLOTS = 6  # face-up Grimoire positions (6 piles; 4 B positions in solitaire)
MAX_STACK = 64  # cards a face-down Grimoire pile (or the solitaire deck F) can hold
MAX_DECK = 128  # Ingredient cards
MAX_GRIMOIRE = 64
A_POSITIONS = 4  # the solitaire A positions (one per Ingredient kind)

# ---- the Grimoire's card kinds (their names are the rulebook's; copies, costs in rules.toml) -
SPELLS = ("clavicula_salomonis", "liber_ebon", "necronomicon", "picatrix",
          "pnakotic_manuscripts", "vermis_mysteriis")
OBJECTS = ("daemonum_prestigis", "ran_tegoth", "ulthar", "rlyeh")
CURSES = ("stellaris_seminum", "cthonian", "yuggoth")
CARD_KEYS = SPELLS + OBJECTS + CURSES
CARD_NAMES = ("Clavicula Salomonis", "Liber Ebon", "Necronomicon", "Picatrix",
              "Pnakotic Manuscripts", "De Vermis Mysteriis", "Daemonum Prestigis",
              "Ran-Tegoth", "Ulthar", "R'lyeh", "Stellaris Seminum", "C'thonian", "Yuggoth")
N_SPELLS, N_OBJECTS, N_CURSES = len(SPELLS), len(OBJECTS), len(CURSES)
N_CARDS = len(CARD_KEYS)
OBJ0 = N_SPELLS  # first Object card kind
CURSE0 = N_SPELLS + N_OBJECTS  # first Curse card kind
C_CLAVICULA, C_LIBER, C_NECRONOMICON, C_PICATRIX, C_PNAKOTIC, C_VERMIS = range(N_SPELLS)
C_DAEMONUM, C_RAN_TEGOTH, C_ULTHAR, C_RLYEH = range(OBJ0, CURSE0)
C_STELLARIS, C_CTHONIAN, C_YUGGOTH = range(CURSE0, N_CARDS)
O_DAEMONUM, O_RAN_TEGOTH, O_ULTHAR, O_RLYEH = range(N_OBJECTS)  # object index = card - OBJ0
# what a Spell does (rules.toml's spells.*.effect)
EFFECTS = ("search", "draw", "swap", "discard")
EF_SEARCH, EF_DRAW, EF_SWAP, EF_DISCARD = range(len(EFFECTS))
ING_KEYS = ("mandrake", "insect", "bone", "eye", "arcane_symbol")
SEAT_COLOURS = ("Green", "Red", "Blue", "Yellow")

# ---- decisions (s[DECISION]) and their answers -----------------------------------------------
D_NONE = 0
D_ACTION = 1  # A_CONJURE + 4 * slot + mode, A_ADVANCE + slot, A_CLEAR, A_STOP
D_PAY = 2  # the Ingredient kind (0 .. WILD) paid for the next unit of a cost
D_SEARCH = 3  # Clavicula Salomonis: the Ingredient kind taken from the deck
D_DISCARD = 4  # Pnakotic Manuscripts: the slot whose face-up card is discarded
D_SWAP_OWN = 5  # a swap: the square of one of your tokens, or A_SWAP_STOP where optional
D_SWAP_OTHER = 6  # a swap: the square of another player's token
D_BID = 7  # an Ingredient kind bid face down, A_FOLD, or A_RLYEH
D_RLYEH_OPEN = 8  # A_NO / A_YES: play R'lyeh before the auction's first bid
D_RLYEH_LAST = 9  # A_NO / A_YES: play R'lyeh once everyone has folded (switch)
D_RAN_TEGOTH = 10  # A_NO / A_YES: place as many tokens as the active player just placed
D_SHIELD = 11  # A_NO / A_YES: R'lyeh keeps your tokens out of a C'thonian
D_OUT_SWAP = 12  # out of tokens: the square of your token that swaps to the other's
D_STAKE = 13  # solitaire Curse: an Ingredient kind added to the stake, A_STAKE_DONE, A_RLYEH
D_YUG_PLACE = 14  # A_NO / A_YES: the Yuggoth winner places its two tokens ("can place", switch)
D_YUG_REPLACE = 15  # Yuggoth, the replacement reading: the square of another player's token
#                     replaced by one from the winner's reserve, or A_SWAP_STOP
N_DECISIONS = 16
DECISION_NAMES = ("none", "action", "pay", "search the deck", "discard a face-up card",
                  "swap: your token", "swap: their token", "bid", "R'lyeh before the bids",
                  "R'lyeh after the bids", "Ran-Tegoth", "R'lyeh against C'thonian",
                  "out of tokens: your token", "solitaire stake", "Yuggoth: place the tokens",
                  "Yuggoth: replace a token")

MODE_PLAIN, MODE_ULTHAR, MODE_DAEMONUM, MODE_BOTH = range(4)  # conjure modes (bits: 1 U, 2 D)
A_CONJURE = 0  # + 4 * slot + mode
A_ADVANCE = 4 * MAX_SLOTS  # + slot
A_CLEAR = A_ADVANCE + MAX_SLOTS  # solitaire: four Objects face up, discard them all
A_STOP = A_CLEAR + 1  # end the turn (no action, or no further action)
A_FOLD = N_ING  # D_BID
A_RLYEH = N_ING + 1  # D_BID, D_STAKE
A_STAKE_DONE = N_ING  # D_STAKE
A_SWAP_STOP = MAX_SQUARES  # D_SWAP_OWN where the swaps are optional (Yuggoth), D_YUG_REPLACE
A_NO, A_YES = 0, 1
MASK_SIZE = MAX_SQUARES + 1  # 64: squares, and every other decision's codes, fit below it

# ---- procedures on the frame stack ------------------------------------------------------------
PR_GAME = 1  # locals: stage
PR_TURN = 2  # locals: stage
PR_ACTION = 3  # locals: stage, slot, mode (-1: advance), card
PR_PAY = 4  # (the cost still to pay is in s: pay_need, pay_x, pay_xk, pay_any)
PR_EFFECT = 5  # locals: effect, left, doubled
PR_ADVANCE = 6  # locals: stage, candles, placed, short (tokens with no reserve)
PR_SWAP = 7  # locals: left, optional, touched squares (bits), own square chosen (-1), seat
PR_REVEAL = 8  # locals: slots still to reveal (bits)
PR_CURSE = 9  # locals: stage, card, placed
PR_AUCTION = 10  # locals: stage, k (seat offset from the active player)
PR_CTHONIAN = 11  # locals: k, shielded seats (bits)
PR_RAN_TEGOTH = 12  # locals: amount, k
PR_SOLO_CTHULHU = 13  # locals: stage, squares moved
PR_DUEL = 14  # locals: stage, card, staked cards, staked value, compulsory
PROC_NAMES = ("", "game", "turn", "action", "pay", "spell effect", "advance", "swap",
              "replenish the Grimoire", "Curse", "auction", "C'thonian", "Ran-Tegoth",
              "Cthulhu's turn", "Curse duel")

# ---- outcomes and the record ------------------------------------------------------------------
OUTCOMES = ("next_to_cthulhu", "red_candle", "portal_player", "portal_cthulhu", "turn_cap")
O_ADJACENT, O_RED, O_PORTAL_PLAYER, O_PORTAL_CTHULHU, O_CAP = range(len(OUTCOMES))

RECORD_FIELDS = (
    "outcome", "winner", "turns",
    "rounds",  # full rounds of turns (multiplayer), Cthulhu's turns (solitaire)
    "end_adjacent", "end_red_candle",  # 1 when that end condition held as the game ended
    "tie_break",  # 1: the winner was decided by the token closest to Cthulhu
    "cthulhu_pos", "cthulhu_moves",
    "tokens_0", "tokens_1", "tokens_2", "tokens_3",  # on the board at the end
    "auctions", "auctions_won_0", "auctions_won_1", "auctions_won_2", "auctions_won_3",
    "rlyeh_auctions",  # auctions won at once with R'lyeh
    "curses_stellaris_seminum", "curses_cthonian", "curses_yuggoth",
    *(f"conjured_{k}" for k in SPELLS + OBJECTS),
    *(f"advanced_{k}" for k in SPELLS),
    *(f"played_{k}" for k in OBJECTS),
    "swaps", "tokens_returned", "out_of_token_swaps", "ran_tegoth_tokens",
    "grimoire_reshuffles", "ingredient_reshuffles", "cards_bid",
    "solo_player_pos", "solo_duels_won",
    "deadlock_refreshes",  # the face-up Grimoire replaced because nobody could act
)
R_SIZE = len(RECORD_FIELDS)
R = {name: k for k, name in enumerate(RECORD_FIELDS)}
R_OUTCOME, R_WINNER, R_TURNS, R_ROUNDS = 0, 1, 2, 3
R_END_ADJ, R_END_RED, R_TIE = R["end_adjacent"], R["end_red_candle"], R["tie_break"]
R_CTHULHU_POS, R_CTHULHU_MOVES = R["cthulhu_pos"], R["cthulhu_moves"]
R_TOKENS = R["tokens_0"]
R_AUCTIONS, R_AUCT_WON, R_RLYEH_AUCT = R["auctions"], R["auctions_won_0"], R["rlyeh_auctions"]
R_CURSES = R["curses_stellaris_seminum"]
R_CONJURED = R["conjured_clavicula_salomonis"]
R_ADVANCED = R["advanced_clavicula_salomonis"]
R_PLAYED = R["played_daemonum_prestigis"]
R_SWAPS, R_RETURNED, R_OUT_SWAPS = R["swaps"], R["tokens_returned"], R["out_of_token_swaps"]
R_RT_TOKENS, R_G_SHUFFLES = R["ran_tegoth_tokens"], R["grimoire_reshuffles"]
R_I_SHUFFLES, R_CARDS_BID = R["ingredient_reshuffles"], R["cards_bid"]
R_SOLO_POS, R_SOLO_DUELS = R["solo_player_pos"], R["solo_duels_won"]
R_REFRESHES = R["deadlock_refreshes"]

# ---- trace events (code, a .. g) --------------------------------------------------------------
EV_TURN = 1  # turn, seat, round
EV_DRAW = 2  # seat, kind, why (0 replenish, 1 spell, 2 search)
EV_PAY = 3  # seat, kind
EV_CONJURE = 4  # seat, card, slot, mode
EV_ADVANCE = 5  # seat, card, slot, candles
EV_PLACE = 6  # seat, square, why (0 advance, 1 Yuggoth, 2 Ran-Tegoth)
EV_SWAP = 7  # seat, own square, other seat, other square, why (0 spell, 1 Yuggoth, 2 no tokens)
EV_CTHULHU = 8  # from, to
EV_REVEAL = 9  # slot, card
EV_CURSE = 10  # card, slot
EV_BID = 11  # seat, kind, round
EV_FOLD = 12  # seat, round
EV_AUCTION = 13  # winner, curse, total of seat 0 .. 3 (-1: seat absent)
EV_RLYEH = 14  # seat, how (0 opening, 1 bid, 2 last call, 3 shield, 4 duel)
EV_RAN_TEGOTH = 15  # seat, tokens placed, tokens asked for
EV_RETURN = 16  # seat, square
EV_G_SHUFFLE = 17  # cards reshuffled, piles made
EV_I_SHUFFLE = 18  # cards reshuffled
EV_END = 19  # outcome, winner, tie-break
EV_SEARCH = 20  # seat, kind
EV_DISCARD = 21  # seat, slot, card
EV_OBJECT = 22  # seat, object card, bought (1) or played (0)
EV_SOLO_A = 23  # kind, position, cards there
EV_SOLO_MOVE = 24  # who (0 player, 1 Cthulhu), from, to, why
EV_DUEL = 25  # card, player's value, Cthulhu's value, winner (0 player, 1 Cthulhu)
EV_TIE_DRAW = 26  # seat, kind
EV_REVEAL_BIDS = 27  # seat, kind, cards
EV_PASS = 28  # seat
EV_NO_ROOM = 29  # seat (a token found no empty square before Cthulhu)
EV_CAP = 30  # turn
EV_STELLARIS = 31  # seat (-1 nobody, 4 Cthulhu), copies held
EV_CLEAR = 32  # seat (solitaire: four Objects discarded)
EV_HAND = 33  # seat, then the counts of kinds 0 .. 4 (the hand as its owner sees it)
EV_BOARD = 34  # each seat's squares (bits, a .. d), Cthulhu, solitaire figure, deck cards
EV_TOPS = 35  # the face-up card of slots 0 .. 5 (-1 none)
EV_OBJECTS = 36  # seat, owned Daemonum, Ran-Tegoth, Ulthar, R'lyeh, Stellaris held
EV_REFRESH = 37  # cards discarded from the face-up Grimoire (nobody acted for a round)
EV_REPLACE = 38  # seat, square, other seat (Yuggoth, the replacement reading)

# ---- parameters: ip ---------------------------------------------------------------------------
PARAMS = param_layout("wakeup params")
I_PLAYERS = PARAMS.field("players")  # 1 = solitaire
I_SOLO = PARAMS.field("solo")
I_FIRST = PARAMS.field("first_player")
I_MAX_TURNS = PARAMS.field("max_turns")
I_HAND = PARAMS.field("hand_size")
I_TOKENS = PARAMS.field("tokens")
I_SQUARES = PARAMS.field("squares")  # the Summoning Circle: squares 0 .. squares-1, pit = squares
I_START = PARAMS.field("start_square")  # this player count's Starting square
I_RED = PARAMS.field("red_candle")
I_SLOTS = PARAMS.field("slots")  # face-up Grimoire positions
I_PILE = PARAMS.field("pile_size")
I_ING_COUNT = PARAMS.array("ingredient.count", N_ING)
I_ING_VALUE = PARAMS.array("ingredient.value", N_ING)
I_ING_TOTAL = PARAMS.field("ingredient_total")
I_COPIES = PARAMS.array("card.copies", N_CARDS)
I_COST_SPEC = PARAMS.array("card.cost_kinds", N_CARDS * N_NATURAL)  # [card * 4 + kind]
I_COST_X = PARAMS.array("card.cost_same", N_CARDS)  # "3X": three of one kind
I_COST_ANY = PARAMS.array("card.cost_any", N_CARDS)
I_ADV_SPEC = PARAMS.array("card.advance_kinds", N_CARDS * N_NATURAL)
I_ADV_X = PARAMS.array("card.advance_same", N_CARDS)
I_ADV_ANY = PARAMS.array("card.advance_any", N_CARDS)
I_CANDLES = PARAMS.array("card.candles", N_CARDS)  # 0: no advance
I_EFFECT = PARAMS.array("card.effect", N_CARDS)  # EF_* (Spells)
I_AMOUNT = PARAMS.array("card.amount", N_CARDS)  # cards drawn, swaps, ...
I_EXTRA = PARAMS.array("card.extra_actions", N_CARDS)  # 1: "You can play another action"
I_GRIMOIRE_TOTAL = PARAMS.field("grimoire_total")
I_CURSE_MOVES = PARAMS.field("curse_moves")  # Cthulhu's steps when a Curse is revealed
I_YUG_PLACE = PARAMS.field("yuggoth_place")
I_YUG_SWAP = PARAMS.field("yuggoth_swap")
I_CTH_RETURN = PARAMS.field("cthonian_return")
I_STELLARIS_CARDS = PARAMS.field("stellaris_cards")  # cards each copy adds to a replenishment
I_DAEMONUM_COST = PARAMS.field("daemonum_cost")
I_ADVANCE_EXTRA = PARAMS.field("advance_extra_actions")
# readings of unclear text (NOTES.md), 0 = the default reading
I_OBJ_PER_PLAYER = PARAMS.field("object_limit_per_player")
I_RLYEH_LAST = PARAMS.field("rlyeh_last_call")
I_RT_AFTER_ACTION = PARAMS.field("ran_tegoth_after_action")
I_END_AT_END = PARAMS.field("end_checked_at_end")
I_LINE_END_START = PARAMS.field("line_end_is_start")
I_GAPS_TO_START = PARAMS.field("gaps_close_toward_start")
I_STELLARIS_LIMIT = PARAMS.field("stellaris_raises_limit")
I_ULTHAR_EXTRA = PARAMS.field("ulthar_doubles_extra_action")
I_TIE_INGREDIENTS = PARAMS.field("tie_counts_ingredients_only")
I_SOLO_CURSE_MOVE = PARAMS.field("solo_curse_moves_cthulhu")
I_PASS_FIRST = PARAMS.field("may_pass_first_action")
I_DEADLOCK_REFRESH = PARAMS.field("deadlock_refresh")
I_SOLO_RAN_TEGOTH = PARAMS.field("solo_ran_tegoth")  # Ran-Tegoth copies Cthulhu's move
I_YUG_OPTIONAL = PARAMS.field("yuggoth_place_optional")  # "can place": the winner may decline
I_YUG_REPLACE = PARAMS.field("yuggoth_replaces")  # others' tokens replaced from the reserve
I_ORDER_TURN = PARAMS.field("object_order_turn")  # windows asked in turn order, not by distance
# solitaire
I_SOLO_PATH_C = PARAMS.field("solo.path_c")  # squares of the player's path; the last: the Portal
I_SOLO_PATH_D = PARAMS.field("solo.path_d")  # squares of Cthulhu's path
I_SOLO_DRAW = PARAMS.field("solo.cthulhu_draw")  # Ingredients Cthulhu lays out a turn
I_SOLO_SMALL = PARAMS.field("solo.small_trigger")  # cards at a position that move Cthulhu ...
I_SOLO_SMALL_MOVE = PARAMS.field("solo.small_move")  # ... this far
I_SOLO_BIG = PARAMS.field("solo.big_trigger")  # this many or more ...
I_SOLO_BIG_MOVE = PARAMS.field("solo.big_move")  # ... this far
I_SOLO_CTH_MOVE = PARAMS.field("solo.cthonian_move")  # C'thonian duel: winner on, loser back
I_SOLO_YUG_PLACE = PARAMS.field("solo.yuggoth_place")
I_SOLO_YUG_SWAP = PARAMS.field("solo.yuggoth_swap")
I_SIZE = PARAMS.size

# ---- the public state: s ----------------------------------------------------------------------
STATE = state_layout("wakeup state")
S_ACTIVE = STATE.field("active")  # the seat whose turn it is
S_ROUND = STATE.field("round")
S_CTHULHU = STATE.field("cthulhu")  # square (the pit = squares); solitaire: Path D square
S_SOLO_POS = STATE.field("solo_pos")  # solitaire: the player's figure on Path C
S_OCC = STATE.array("occupied", MAX_SEATS)  # each seat's squares, one bit each
S_RESERVE = STATE.array("reserve", MAX_SEATS)
S_HAND_N = STATE.array("hand_cards", MAX_SEATS)  # Ingredient cards in hand (Objects apart)
S_BID_N = STATE.array("bid_cards", MAX_SEATS)  # face-down cards bid in the auction under way
S_OBJ = STATE.array("objects", MAX_SEATS * N_OBJECTS)  # owned, [seat * 4 + object]
S_FRESH = STATE.array("objects_new", MAX_SEATS * N_OBJECTS)  # of those, bought this turn
S_USED = STATE.array("objects_used", MAX_SEATS)  # bits: object kinds the seat played this turn
S_USED_TABLE = STATE.field("objects_used_table")  # bits: object kinds played this turn by anyone
S_STELLARIS = STATE.array("stellaris", MAX_SEATS + 1)  # held; [4] Cthulhu's (solitaire)
S_TOP = STATE.array("slot.top", MAX_SLOTS)  # face-up card kind, -1 none
S_STACK_N = STATE.array("slot.face_down", MAX_SLOTS)  # face-down cards in the pile (solo: [0] F)
S_GDISCARD = STATE.array("grimoire_discard", N_CARDS)
S_IDISCARD = STATE.array("ingredient_discard", N_ING)
S_DECK_N = STATE.field("deck_cards")
S_IN_PLAY = STATE.field("in_play")  # the Grimoire card being resolved, -1 none
S_PAY_NEED = STATE.array("pay.kinds", N_NATURAL)  # the cost still to pay
S_PAY_X = STATE.field("pay.same")
S_PAY_XK = STATE.field("pay.same_kind")  # the kind the "X" units are paid in (-1 not yet)
S_PAY_ANY = STATE.field("pay.any")
S_EXTRA = STATE.field("extra_actions")  # further actions granted this turn
S_CURSE_SEEN = STATE.field("curse_this_turn")
S_PENDING = STATE.field("reveal_pending")  # bits: slots to replenish after the action
S_ADJ_FLAG = STATE.field("adjacent_happened")  # Cthulhu and a token side by side this turn
S_RED_FLAG = STATE.field("red_candle_reached")
S_AUC_CURSE = STATE.field("auction.curse")  # -1: no auction under way
S_AUC_ROUND = STATE.field("auction.round")
S_AUC_FOLDED = STATE.field("auction.folded")  # bits
S_AUC_WINNER = STATE.field("auction.winner")
S_A_KIND = STATE.array("solo_a.kind", A_POSITIONS)  # the Ingredient kind held there, -1 none
S_A_NAT = STATE.array("solo_a.natural", A_POSITIONS)  # cards of that kind there
S_A_WILD = STATE.array("solo_a.wild", A_POSITIONS)  # Arcane Symbols there
S_DUEL_CARD = STATE.field("duel_curse")  # solitaire: the Curse being duelled, -1 none
S_FORCED = STATE.field("forced_passes")  # turns in a row in which nobody played an action
S_REFRESHES = STATE.field("stat.deadlock_refreshes")
S_CONJURED = STATE.array("stat.conjured", N_CARDS)
S_ADVANCED = STATE.array("stat.advanced", N_SPELLS)
S_CURSES = STATE.array("stat.curses", N_CURSES)
S_AUCT_WON = STATE.array("stat.auctions_won", MAX_SEATS)
S_AUCTIONS = STATE.field("stat.auctions")
S_RLYEH_AUCT = STATE.field("stat.rlyeh_auctions")
S_PLAYED = STATE.array("stat.objects_played", N_OBJECTS)
S_CTHULHU_MOVES = STATE.field("stat.cthulhu_moves")
S_SWAPS = STATE.field("stat.swaps")
S_RETURNED = STATE.field("stat.tokens_returned")
S_OUT_SWAPS = STATE.field("stat.out_of_token_swaps")
S_RT_TOKENS = STATE.field("stat.ran_tegoth_tokens")
S_G_SHUFFLES = STATE.field("stat.grimoire_reshuffles")
S_I_SHUFFLES = STATE.field("stat.ingredient_reshuffles")
S_CARDS_BID = STATE.field("stat.cards_bid")
S_TIE = STATE.field("stat.tie_break")
S_DUELS_WON = STATE.field("stat.duels_won")
S_SIZE = STATE.size

# ---- the hidden state: h ----------------------------------------------------------------------
HIDDEN = Layout("wakeup hidden")
H_HAND = HIDDEN.array("hand", MAX_SEATS * N_ING)  # [seat * 5 + kind]
H_BID = HIDDEN.array("bid", MAX_SEATS * N_ING)  # face-down bids (solitaire: the set-aside stake)
H_DECK = HIDDEN.array("deck", MAX_DECK)  # the Ingredients deck, top card at deck_cards - 1
H_STACK = HIDDEN.array("stack", MAX_SLOTS * MAX_STACK)  # [slot * 64 + k], next card at n - 1
H_SIZE = HIDDEN.size

# ---- what observe gives the deciding seat: view ---------------------------------------------
VIEW = Layout("wakeup view")
V_SEAT = VIEW.field("seat")
V_HAND = VIEW.array("hand", N_ING)
V_BID = VIEW.array("bid", N_ING)
V_DECK_SEEN = VIEW.field("deck_seen")  # 1 while the seat searches the deck
V_DECK = VIEW.array("deck", N_ING)  # the deck's contents by kind, when deck_seen
V_SIZE = VIEW.size
