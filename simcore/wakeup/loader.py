"""Wake Up, Cthulhu!: validate the rules data and build the arrays the rules read.

Costs are read from their written form ("1 bone + 1 mandrake", "3X", "4"): the loader turns each
into counts of named kinds, of one same kind ("X") and of any kinds, and names the key of a cost
it cannot read.  The Starting square follows from the player count (WUC-ADV-2).
"""

from __future__ import annotations

import re
from typing import NamedTuple

import numpy as np

from simcore.engine import fill_param_header
from simcore.rules_data import Limit, RulesData, check_limits
from simcore.wakeup import state as S

# What the compiled engine can hold, whatever bounds a rules file declares: the Summoning Circle
# is one 64-bit word of squares (and the pit), hands and piles index fixed arrays.
ENGINE_LIMITS: tuple[Limit, ...] = (
    ("players", 1, S.MAX_SEATS, None, None),
    ("first_player", 0, S.MAX_SEATS - 1, None, None),
    ("max_turns", 1, 10**6, None, None),
    ("hand_size", 1, 40, None, None),
    ("tokens", 1, S.MAX_SQUARES, None, None),
    ("components.ingredients", 1, S.MAX_DECK, None, None),
    ("components.grimoire", 1, S.MAX_GRIMOIRE, None, None),
    ("components.piles", 1, S.MAX_SLOTS, None, None),
    ("components.pile_size", 1, S.MAX_STACK, None, None),
    ("ingredients.*.count", 0, S.MAX_DECK, None, None),
    ("ingredients.*.value", 0, 1000, None, None),
    ("spells.*.copies", 0, S.MAX_GRIMOIRE, None, None),
    ("objects.*.copies", 0, S.MAX_GRIMOIRE, None, None),
    ("curses.*.copies", 0, S.MAX_GRIMOIRE, None, None),
    ("spells.*.amount", 0, 16, None, None),
    ("spells.*.candles", 0, S.MAX_SQUARES, None, None),
    ("board.squares", 2, S.MAX_SQUARES - 1, None, None),
    ("board.purple_start", 0, S.MAX_SQUARES - 1, None, None),
    ("board.black_start", 0, S.MAX_SQUARES - 1, None, None),
    ("board.red_candle", 0, S.MAX_SQUARES - 1, None, None),
    ("curse_effects.*", 0, 64, None, None),
    ("solo.positions", 1, S.MAX_SLOTS, None, None),
    ("solo.path_c", 2, 10**6, None, None),
    ("solo.path_d", 2, 10**6, None, None),
    ("solo.cthulhu_draw", 1, 64, None, None),
    ("solo.small_trigger", 1, 64, None, None),
    ("solo.small_move", 0, S.MAX_SQUARES, None, None),
    ("solo.big_move", 0, S.MAX_SQUARES, None, None),
    ("solo.cthonian_move", 0, S.MAX_SQUARES, None, None),
)

NATURAL_KEYS = S.ING_KEYS[:S.N_NATURAL]
_TERM = re.compile(r"^\s*(\d+)\s*(x|any|[a-z_]+)?\s*$", re.IGNORECASE)
MAX_COST_CARDS = 20


class Cost(NamedTuple):
    kinds: tuple[int, int, int, int]  # named Ingredients, by kind
    same: int  # "3X": of one kind
    any: int  # of any kinds

    @property
    def cards(self) -> int:
        return sum(self.kinds) + self.same + self.any

    def text(self, names: tuple[str, ...]) -> str:
        parts = [f"{n} {names[k]}" for k, n in enumerate(self.kinds) if n]
        if self.same:
            parts.append(f"{self.same}X")
        if self.any:
            parts.append(f"{self.any} any")
        return " + ".join(parts) or "nothing"


def parse_cost(rules: RulesData, key: str) -> Cost:
    """A written cost (``"1 bone + 1 mandrake"``, ``"3X"``, ``"4"``) as a :class:`Cost`; a
    cost that cannot be read fails with the key and the reason."""
    text = rules[key]
    if not isinstance(text, str) or not text.strip():
        raise rules.fail(key, "a cost is terms joined by '+', e.g. \"1 bone + 1 mandrake\", "
                         "\"3X\" or \"4\"")
    kinds = [0] * S.N_NATURAL
    same = 0
    anyn = 0
    for term in text.split("+"):
        m = _TERM.match(term)
        if m is None:
            raise rules.fail(key, f"{term.strip()!r} is not a cost term; allowed: N followed by "
                             f"{', '.join(NATURAL_KEYS)}, X (N of one same kind) or nothing "
                             "(N of any kinds), joined by '+'")
        n = int(m[1])
        word = (m[2] or "any").lower()
        if word == "x":
            if same:
                raise rules.fail(key, "a cost has at most one 'X' term (N of one same kind)")
            same = n
        elif word == "any":
            anyn += n
        elif word in NATURAL_KEYS:
            kinds[NATURAL_KEYS.index(word)] += n
        else:
            raise rules.fail(key, f"{word!r} is not an Ingredient kind; allowed: "
                             f"{', '.join(NATURAL_KEYS)}, X or any")
    cost = Cost(tuple(kinds), same, anyn)
    if cost.cards > MAX_COST_CARDS:
        raise rules.fail(key, f"a cost of {cost.cards} cards is beyond what the simulator "
                         f"supports (at most {MAX_COST_CARDS})")
    return cost


class WakeupParams(NamedTuple):
    ip: np.ndarray  # int64[I_SIZE]
    fp: np.ndarray  # float64[1] (no float parameters)
    players: int
    solo: bool
    ing_names: tuple[str, ...]
    costs: tuple[Cost, ...]  # conjure cost of each card kind
    advances: tuple[Cost | None, ...]  # advance cost (None: no advance)


def _choice(rules: RulesData, key: str, second: str) -> int:
    return int(rules[key] == second)


def compile_params(rules: RulesData) -> WakeupParams:
    check_limits(rules, ENGINE_LIMITS)
    ip = np.zeros(S.I_SIZE, dtype=np.int64)
    players = int(rules["players"])
    solo = players == 1
    if rules["first_player"] >= max(players, 1):
        raise rules.fail("first_player", f"seat {rules['first_player']} does not exist with "
                         f"{players} player(s); allowed: 0 to {players - 1}")

    # ---- Ingredients
    ing_names = tuple(str(rules[f"ingredients.{k}.name"]) for k in S.ING_KEYS)
    total = 0
    for k, key in enumerate(S.ING_KEYS):
        ip[S.I_ING_COUNT + k] = rules[f"ingredients.{key}.count"]
        ip[S.I_ING_VALUE + k] = rules[f"ingredients.{key}.value"]
        total += int(rules[f"ingredients.{key}.count"])
    if total != rules["components.ingredients"]:
        raise rules.fail("components.ingredients", f"the Ingredients' counts add up to {total}, "
                         f"not {rules['components.ingredients']} (ingredients.*.count)")
    seats = max(players, 1)
    if seats * rules["hand_size"] > total:
        raise rules.fail("hand_size", f"{seats} hands of {rules['hand_size']} need more than "
                         f"the {total} Ingredients")
    ip[S.I_ING_TOTAL] = total

    # ---- the Grimoire
    groups = (("spells", S.SPELLS), ("objects", S.OBJECTS), ("curses", S.CURSES))
    card_key = {}
    for group, keys in groups:
        for k in keys:
            card_key[S.CARD_KEYS.index(k)] = f"{group}.{k}"
    grimoire = 0
    costs: list[Cost] = []
    advances: list[Cost | None] = []
    for c in range(S.N_CARDS):
        base = card_key[c]
        ip[S.I_COPIES + c] = rules[f"{base}.copies"]
        grimoire += int(rules[f"{base}.copies"])
        cost = parse_cost(rules, f"{base}.cost") if c < S.CURSE0 else Cost((0, 0, 0, 0), 0, 0)
        costs.append(cost)
        for k in range(S.N_NATURAL):
            ip[S.I_COST_SPEC + c * S.N_NATURAL + k] = cost.kinds[k]
        ip[S.I_COST_X + c] = cost.same
        ip[S.I_COST_ANY + c] = cost.any
        adv = None
        if c < S.N_SPELLS:
            ip[S.I_EFFECT + c] = S.EFFECTS.index(rules[f"{base}.effect"])
            ip[S.I_AMOUNT + c] = rules[f"{base}.amount"]
            ip[S.I_EXTRA + c] = int(rules[f"{base}.extra_action"])
            candles = int(rules[f"{base}.candles"])
            if candles > 0:
                adv = parse_cost(rules, f"{base}.advance")
                if adv.cards == 0:
                    raise rules.fail(f"{base}.advance", "an advance costs at least one card")
                for k in range(S.N_NATURAL):
                    ip[S.I_ADV_SPEC + c * S.N_NATURAL + k] = adv.kinds[k]
                ip[S.I_ADV_X + c] = adv.same
                ip[S.I_ADV_ANY + c] = adv.any
                ip[S.I_CANDLES + c] = candles
        advances.append(adv)
    if grimoire != rules["components.grimoire"]:
        raise rules.fail("components.grimoire", f"the Grimoire's copies add up to {grimoire}, "
                         f"not {rules['components.grimoire']} (spells/objects/curses.*.copies)")
    piles = int(rules["components.piles"])
    if not solo and grimoire > piles * S.MAX_STACK:
        raise rules.fail("components.piles", "too few piles for the Grimoire")
    ip[S.I_GRIMOIRE_TOTAL] = grimoire

    # ---- the board
    squares = int(rules["board.squares"])
    purple, black, red = (int(rules[f"board.{k}"]) for k in ("purple_start", "black_start",
                                                              "red_candle"))
    if not 0 <= purple <= black:
        raise rules.fail("board.purple_start", f"the first purple candle ({purple}) must come "
                         f"before the first black one (board.black_start = {black})")
    if not black < red < squares:
        raise rules.fail("board.red_candle", f"the Red Candle ({red}) must lie beyond the first "
                         f"black candle ({black}) and on the board (squares 0 to {squares - 1})")
    start = {4: 0, 3: purple, 2: black}.get(players, 0)

    ip[S.I_PLAYERS] = players
    ip[S.I_SOLO] = int(solo)
    ip[S.I_FIRST] = rules["first_player"]
    ip[S.I_MAX_TURNS] = rules["max_turns"]
    ip[S.I_HAND] = rules["hand_size"]
    ip[S.I_TOKENS] = rules["tokens"]
    ip[S.I_SQUARES] = squares
    ip[S.I_START] = start
    ip[S.I_RED] = red
    ip[S.I_SLOTS] = int(rules["solo.positions"]) if solo else piles
    ip[S.I_PILE] = rules["components.pile_size"]
    ip[S.I_CURSE_MOVES] = rules["curse_effects.cthulhu_moves"]
    ip[S.I_YUG_PLACE] = rules["curse_effects.yuggoth_place"]
    ip[S.I_YUG_SWAP] = rules["curse_effects.yuggoth_swap"]
    ip[S.I_CTH_RETURN] = rules["curse_effects.cthonian_return"]
    ip[S.I_STELLARIS_CARDS] = rules["curse_effects.stellaris_cards"]
    ip[S.I_DAEMONUM_COST] = rules["curse_effects.daemonum_cost"]
    ip[S.I_ADVANCE_EXTRA] = rules["curse_effects.advance_extra_actions"]
    ip[S.I_OBJ_PER_PLAYER] = _choice(rules, "readings.object_limit", "player")
    ip[S.I_RLYEH_LAST] = _choice(rules, "readings.rlyeh_window", "last_call")
    ip[S.I_RT_AFTER_ACTION] = _choice(rules, "readings.ran_tegoth_window", "after_action")
    ip[S.I_END_AT_END] = _choice(rules, "readings.end_check", "end_of_turn")
    ip[S.I_LINE_END_START] = _choice(rules, "readings.line_end", "start")
    ip[S.I_GAPS_TO_START] = _choice(rules, "readings.close_gaps", "toward_start")
    ip[S.I_STELLARIS_LIMIT] = _choice(rules, "readings.stellaris", "higher_limit")
    ip[S.I_ULTHAR_EXTRA] = int(rules["readings.ulthar_extra_action"])
    ip[S.I_TIE_INGREDIENTS] = _choice(rules, "readings.tie_count", "ingredients")
    ip[S.I_SOLO_CURSE_MOVE] = int(rules["readings.solo_curse_moves_cthulhu"])
    ip[S.I_PASS_FIRST] = int(rules["readings.may_pass"])
    ip[S.I_DEADLOCK_REFRESH] = _choice(rules, "readings.deadlock", "refresh")
    ip[S.I_SOLO_RAN_TEGOTH] = int(rules["readings.solo_ran_tegoth"])
    ip[S.I_YUG_OPTIONAL] = _choice(rules, "readings.yuggoth_placement", "optional")
    ip[S.I_YUG_REPLACE] = _choice(rules, "readings.yuggoth_exchange", "replace")
    ip[S.I_ORDER_TURN] = _choice(rules, "readings.object_order", "turn_order")
    ip[S.I_SOLO_PATH_C] = rules["solo.path_c"]
    ip[S.I_SOLO_PATH_D] = rules["solo.path_d"]
    ip[S.I_SOLO_DRAW] = rules["solo.cthulhu_draw"]
    ip[S.I_SOLO_SMALL] = rules["solo.small_trigger"]
    ip[S.I_SOLO_SMALL_MOVE] = rules["solo.small_move"]
    ip[S.I_SOLO_BIG] = rules["solo.big_trigger"]
    ip[S.I_SOLO_BIG_MOVE] = rules["solo.big_move"]
    ip[S.I_SOLO_CTH_MOVE] = rules["solo.cthonian_move"]
    ip[S.I_SOLO_YUG_PLACE] = rules["solo.yuggoth_place"]
    ip[S.I_SOLO_YUG_SWAP] = rules["solo.yuggoth_swap"]
    if rules["solo.big_trigger"] < rules["solo.small_trigger"]:
        raise rules.fail("solo.big_trigger", "must be at least solo.small_trigger")
    # a turn asks a bounded number of questions: its actions (each one a card, so at most the
    # Grimoire's cards and the cards a hand can pay with), each with a payment, swaps, searches
    # and auctions of at most every Ingredient; the guard is generous
    per_turn = 40 + 4 * total + 4 * grimoire
    fill_param_header(ip, state_size=S.S_SIZE, hidden_size=S.H_SIZE, view_size=S.V_SIZE,
                      mask_size=S.MASK_SIZE, record_size=S.R_SIZE, seats=seats,
                      max_decisions=int(rules["max_turns"]) * per_turn + 2000)
    return WakeupParams(ip, np.zeros(1, dtype=np.float64), players, solo, ing_names,
                        tuple(costs), tuple(advances))
