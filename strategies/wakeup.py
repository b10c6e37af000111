"""Wake Up, Cthulhu! strategies: policies of the step engine.

Each is a jitted ``policy(ip, fp, s, view, mask, params, rng) -> action``
(``simcore.engine.POLICY``).  It reads the rules ``ip``, the public state ``s`` by the names of
``simcore.wakeup.state`` and its own seat's ``view`` (its hand and face-down bid, and the deck
while it searches it) - never the hidden state - and answers ``s[DECISION]`` with a legal
action.

The heuristic puts a worth on everything in one unit, a token on the board (``candle_value``):
an Ingredient card kept is worth ``card_worth`` plus a little per sacrifice value (rich cards
win auctions) and more for the wild Arcane Symbol; an action is worth what it brings (tokens,
cards drawn, an Object, a further action) less the worth of the cards it costs.  It pays with
its cheapest cards, bids while the prize is worth the cards and its total may still lead,
plays R'lyeh on the auctions that pay, answers with Ran-Tegoth and shields with R'lyeh when
that places or keeps a token and does not end a game a rival then wins, swaps its rearmost
tokens to the front near the end, never ends the game while behind, and in solitaire stakes
its best cards on a Curse.  ``racer`` and ``hoarder`` are the same plan with other weights.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simcore.engine import DECISION, DEPTH, FRAME_WIDTH, FRAMES, P_SEATS, SEAT, TURN
from simcore.kernels import popcount, rng_uniform
from simcore.wakeup.base import highest, lowest
from simcore.wakeup.state import (
    A_ADVANCE,
    A_CLEAR,
    A_CONJURE,
    A_FOLD,
    A_NO,
    A_RLYEH,
    A_STAKE_DONE,
    A_STOP,
    A_SWAP_STOP,
    A_YES,
    C_STELLARIS,
    C_YUGGOTH,
    D_ACTION,
    D_BID,
    D_DISCARD,
    D_OUT_SWAP,
    D_PAY,
    D_RAN_TEGOTH,
    D_RLYEH_LAST,
    D_RLYEH_OPEN,
    D_SEARCH,
    D_SHIELD,
    D_STAKE,
    D_SWAP_OTHER,
    D_SWAP_OWN,
    D_YUG_PLACE,
    D_YUG_REPLACE,
    EF_DISCARD,
    EF_DRAW,
    EF_SEARCH,
    EF_SWAP,
    I_ADV_ANY,
    I_ADV_SPEC,
    I_ADV_X,
    I_AMOUNT,
    I_CANDLES,
    I_COST_ANY,
    I_COST_SPEC,
    I_COST_X,
    I_DAEMONUM_COST,
    I_EFFECT,
    I_END_AT_END,
    I_EXTRA,
    I_HAND,
    I_ING_COUNT,
    I_ING_TOTAL,
    I_ING_VALUE,
    I_RLYEH_LAST,
    I_SOLO,
    I_SOLO_RAN_TEGOTH,
    I_START,
    I_YUG_PLACE,
    MAX_SLOTS,
    MODE_DAEMONUM,
    MODE_ULTHAR,
    N_ING,
    N_NATURAL,
    O_DAEMONUM,
    O_RAN_TEGOTH,
    O_RLYEH,
    O_ULTHAR,
    OBJ0,
    S_ADJ_FLAG,
    S_AUC_CURSE,
    S_BID_N,
    S_CTHULHU,
    S_HAND_N,
    S_OCC,
    S_PAY_NEED,
    S_PAY_X,
    S_PAY_XK,
    S_RED_FLAG,
    S_RESERVE,
    S_TOP,
    V_BID,
    V_HAND,
    WILD,
)
from strategies.common import first_legal, uniform_legal
from strategies.registry import Param, param_offsets, register

NEG = -1e18
PATIENT_TURNS = 60  # three times the usual four-player game
IMPATIENCE = 0.2  # worth added to digging for each turn past it
BIG = 1000.0  # ending the game while ahead (or not, while behind) outweighs everything


@njit(cache=True, _nrt=False)
def random_policy(ip, fp, s, view, mask, params, rng):
    """Uniformly among the legal choices: the baseline and fuzzer."""
    return uniform_legal(mask, rng)


HEURISTIC_PARAMS = {
    "candle_value": Param(3.0, 0.0, 20.0, "worth of one token placed on the board (the unit "
                          "of everything else)"),
    "card_worth": Param(1.0, 0.0, 10.0, "worth of one Ingredient card beyond the hand size "
                        "(spent, it is not drawn back)"),
    "refill_cost": Param(0.2, 0.0, 10.0, "worth of one card spent from a hand the next "
                         "replenishment fills back up"),
    "value_weight": Param(0.25, 0.0, 5.0, "extra worth of a card per point of sacrifice value "
                          "(rich cards win auctions)"),
    "wild_premium": Param(1.0, 0.0, 10.0, "extra worth of an Arcane Symbol, the wild"),
    "draw_value": Param(0.9, 0.0, 5.0, "worth of one card drawn (or searched, times 1.5)"),
    "extra_action": Param(0.6, 0.0, 5.0, "worth of a further action this turn"),
    "dig_value": Param(0.5, 0.0, 5.0, "worth of turning up a new Grimoire card when no face-up "
                       "card lets it advance"),
    "object_value": Param(1.0, 0.0, 5.0, "multiplier on the worth of buying an Object"),
    "bid_aggression": Param(1.0, 0.0, 5.0, "multiplier on the worth of winning an auction"),
    "bid_reserve": Param(2.0, 0.0, 10.0, "cards it never bids away (kept for its next turn)"),
    "rlyeh_on_stellaris": Param(0.0, 0.0, 1.0, "1: plays R'lyeh on Stellaris Seminum auctions "
                                "too (always on Yuggoth)"),
    "swap_front_at": Param(6.0, 0.0, 60.0, "squares left between the line and Cthulhu at which "
                           "swaps go to the front (the tie-break); earlier they stay out of a "
                           "C'thonian's reach"),
    "min_gain": Param(0.0, -10.0, 10.0, "acts only when its best action is worth more than "
                      "stopping by this"),
    "stake_limit": Param(3.0, 0.0, 20.0, "solitaire: the most cards it sets aside on a Curse"),
    "noise": Param(0.1, 0.0, 10.0, "varied play: each action's worth gets up to this much more "
                   "(a token is candle_value), drawn from the strategy's own stream, so near "
                   "ties fall either way and one deal is played in many ways; 0: one fixed "
                   "game per deal"),
}
_P = param_offsets(HEURISTIC_PARAMS)
CANDLE = _P["candle_value"]
CARD = _P["card_worth"]
REFILL = _P["refill_cost"]
VALUE_W = _P["value_weight"]
WILD_P = _P["wild_premium"]
DRAW = _P["draw_value"]
EXTRA = _P["extra_action"]
DIG = _P["dig_value"]
OBJECT = _P["object_value"]
AGGRESSION = _P["bid_aggression"]
RESERVE = _P["bid_reserve"]
RLYEH_STELLARIS = _P["rlyeh_on_stellaris"]
SWAP_FRONT = _P["swap_front_at"]
MIN_GAIN = _P["min_gain"]
STAKE_LIMIT = _P["stake_limit"]
NOISE = _P["noise"]
N_PARAMS = len(HEURISTIC_PARAMS)

# worth of each Object bought, in tokens: Ran-Tegoth copies a rival's advance (about two
# tokens), R'lyeh wins an auction (a Yuggoth is two tokens), Ulthar and Daemonum save cards
OBJECT_TOKENS = (0.8, 1.8, 0.7, 1.4)  # Daemonum, Ran-Tegoth, Ulthar, R'lyeh


# ---- what the heuristic reads from the state ------------------------------------------------
@njit(cache=True, _nrt=False, forceinline=True)
def frame_local(s, k):
    return s[FRAMES + (s[DEPTH] - 1) * FRAME_WIDTH + 1 + k]




@njit(cache=True, _nrt=False)
def all_tokens(ip, s):
    x = 0
    for p in range(ip[P_SEATS]):
        x |= s[S_OCC + p]
    return x


@njit(cache=True, _nrt=False)
def gap_to_cthulhu(ip, s):
    """Empty squares between the line's front token and Cthulhu (the game ends at 0)."""
    x = all_tokens(ip, s)
    front = highest(x) if x != 0 else -1
    return s[S_CTHULHU] - front - 1


@njit(cache=True, _nrt=False)
def quality(ip, params, k):
    """What a card of kind ``k`` is worth beyond being a card: its sacrifice value (auctions)
    and, for the Arcane Symbol, standing for any kind."""
    w = params[VALUE_W] * ip[I_ING_VALUE + k]
    if k == WILD:
        w += params[WILD_P]
    return w


@njit(cache=True, _nrt=False)
def card_worth(ip, params, k):
    return params[CARD] + quality(ip, params, k)


@njit(cache=True, _nrt=False)
def hand_cards(view):
    n = 0
    for k in range(N_ING):
        n += view[V_HAND + k]
    return n


@njit(cache=True, _nrt=False)
def spend_cost(ip, view, params, n, q):
    """Giving up ``n`` cards of total quality ``q``: the cards above the hand size are lost for
    good (each worth less the more the hand holds: a hand twice the size can pay anything),
    the others come back at the next replenishment (WUC-T-1)."""
    held = hand_cards(view)
    excess = max(held - ip[I_HAND], 0)
    lost = min(n, excess)
    glut = max(1.0 - excess / max(ip[I_HAND], 1), 0.0)
    return q + params[CARD] * glut * lost + params[REFILL] * (n - lost)


@njit(cache=True, _nrt=False)
def pay_worth(ip, view, params, spec, x, a):
    """The cost of its cheapest way of paying: named kinds first (wilds only for what it
    lacks), the X set from the kind it holds most, then its cheapest cards for the rest
    (``spend_cost`` of the cards given up)."""
    h0 = view[V_HAND]
    h1 = view[V_HAND + 1]
    h2 = view[V_HAND + 2]
    h3 = view[V_HAND + 3]
    hw = view[V_HAND + 4]
    total = 0.0
    # named kinds
    for k in range(N_NATURAL):
        need = ip[spec + k]
        have = h0 if k == 0 else h1 if k == 1 else h2 if k == 2 else h3
        use = min(need, have)
        total += use * quality(ip, params, k)
        wild = need - use
        total += wild * quality(ip, params, WILD)
        hw -= wild
        have -= use
        if k == 0:
            h0 = have
        elif k == 1:
            h1 = have
        elif k == 2:
            h2 = have
        else:
            h3 = have
    if x > 0:
        best = 0
        bk = h0
        if h1 > bk:
            best = 1
            bk = h1
        if h2 > bk:
            best = 2
            bk = h2
        if h3 > bk:
            best = 3
            bk = h3
        use = min(x, bk)
        total += use * quality(ip, params, best) + (x - use) * quality(ip, params, WILD)
        hw -= x - use
        if best == 0:
            h0 -= use
        elif best == 1:
            h1 -= use
        elif best == 2:
            h2 -= use
        else:
            h3 -= use
    left = a
    while left > 0:  # the cheapest card left
        bk = -1
        bw = 1e18
        for k in range(N_ING):
            have = h0 if k == 0 else h1 if k == 1 else h2 if k == 2 else h3 if k == 3 else hw
            if have > 0 and quality(ip, params, k) < bw:
                bw = quality(ip, params, k)
                bk = k
        if bk < 0:
            break
        total += bw
        if bk == 0:
            h0 -= 1
        elif bk == 1:
            h1 -= 1
        elif bk == 2:
            h2 -= 1
        elif bk == 3:
            h3 -= 1
        else:
            hw -= 1
        left -= 1
    n = a + x
    for k in range(N_NATURAL):
        n += ip[spec + k]
    return spend_cost(ip, view, params, n, total)


@njit(cache=True, _nrt=False)
def tokens_of(s, p):
    return np.int64(popcount(s[S_OCC + p]))


@njit(cache=True, _nrt=False)
def best_rival(ip, s, me):
    best = 0
    for p in range(ip[P_SEATS]):
        if p != me:
            best = max(best, tokens_of(s, p))
    return best


@njit(cache=True, _nrt=False)
def ending_worth(ip, s, me, placed, steps):
    """Placing ``placed`` tokens (and, out of tokens, moving Cthulhu ``steps`` squares) so that
    the line reaches Cthulhu ends the game at the end of the turn: worth a great deal when it
    then wins (ties go to the token nearest Cthulhu, the last placed: its own), as much
    against when it loses."""
    if ip[I_SOLO] == 1 or placed + steps <= 0:
        return 0.0
    if gap_to_cthulhu(ip, s) > placed + steps:
        return 0.0
    mine = tokens_of(s, me) + placed
    return BIG if mine >= best_rival(ip, s, me) else -BIG


@njit(cache=True, _nrt=False)
def effect_worth(ip, s, view, params, me, c, times):
    """What conjuring Spell ``c`` brings (``times`` 2 with Ulthar)."""
    amount = ip[I_AMOUNT + c] * times
    e = ip[I_EFFECT + c]
    v = params[EXTRA] * ip[I_EXTRA + c]
    if e == EF_DRAW:
        v += params[DRAW] * amount
    elif e == EF_SEARCH:
        v += 1.5 * params[DRAW] * amount
    elif e == EF_DISCARD:
        v += 0.2 * amount
    elif e == EF_SWAP:
        if ip[I_SOLO] == 1:  # Cthulhu back and the player on: twice the squares
            v += 2.0 * params[CANDLE] * amount
        elif gap_to_cthulhu(ip, s) <= params[SWAP_FRONT]:
            # near the end: its rearmost tokens to the front win the tie-break
            mine = tokens_of(s, me)
            if mine > 0 and mine >= best_rival(ip, s, me) - 1:
                v += 0.8 * params[CANDLE] * min(amount, mine)
    return v


@njit(cache=True, _nrt=False)
def turns_left(ip, s):
    """A rough count of the turns still to play (multiplayer), from the gap to Cthulhu."""
    if ip[I_SOLO] == 1:
        return 20.0
    return max(gap_to_cthulhu(ip, s) / 1.5, 0.0)


@njit(cache=True, _nrt=False)
def object_worth(ip, s, params, me, o):
    if ip[I_SOLO] == 1 and o == O_RAN_TEGOTH and ip[I_SOLO_RAN_TEGOTH] == 0:
        return 0.0  # the solitaire text gives Ran-Tegoth no use
    n = ip[P_SEATS]
    left = turns_left(ip, s) / max(n, 1)  # of its own turns
    scale = min(left / 3.0, 1.0)
    return params[OBJECT] * params[CANDLE] * OBJECT_TOKENS[o] * scale


@njit(cache=True, _nrt=False)
def action_worth(ip, s, view, params, me, a):
    """The worth of action code ``a`` against stopping (0)."""
    if a == A_STOP:
        return 0.0
    if a == A_CLEAR:
        return 0.5
    if a >= A_ADVANCE:
        slot = a - A_ADVANCE
        c = s[S_TOP + slot]
        k = ip[I_CANDLES + c]
        cost = pay_worth(ip, view, params, I_ADV_SPEC + c * N_NATURAL, ip[I_ADV_X + c],
                         ip[I_ADV_ANY + c])
        if ip[I_SOLO] == 1:
            return params[CANDLE] * k + params[EXTRA] - cost
        placed = min(k, s[S_RESERVE + me])
        v = params[CANDLE] * placed + params[EXTRA] - cost
        if k > placed:  # out of tokens: each missing token swaps and wakes Cthulhu
            v -= 0.5 * params[CANDLE] * (k - placed)
        return v + ending_worth(ip, s, me, placed, k - placed)
    slot = (a - A_CONJURE) // 4
    mode = (a - A_CONJURE) % 4
    c = s[S_TOP + slot]
    if mode & MODE_DAEMONUM:
        cost = spend_cost(ip, view, params, ip[I_DAEMONUM_COST], 0.0) + \
            object_worth(ip, s, params, me, O_DAEMONUM)
    else:
        cost = pay_worth(ip, view, params, I_COST_SPEC + c * N_NATURAL, ip[I_COST_X + c],
                         ip[I_COST_ANY + c])
    times = 1
    if mode & MODE_ULTHAR:
        cost += object_worth(ip, s, params, me, O_ULTHAR)
        times = 2
    if c >= OBJ0:
        return object_worth(ip, s, params, me, c - OBJ0) - cost
    return effect_worth(ip, s, view, params, me, c, times) - cost


@njit(cache=True, _nrt=False)
def pay_choice(ip, s, view, mask, params):
    """The card that costs least to give up for the next unit: a named unit takes its own kind
    before a wild, an X set the kind held most, the rest the cheapest card (among cheap ones,
    the kind held least, keeping sets together)."""
    xset = True
    for k in range(N_NATURAL):
        if s[S_PAY_NEED + k] > 0:
            xset = False
    xset = xset and s[S_PAY_X] > 0 and s[S_PAY_XK] < 0
    best = -1
    bv = 1e18
    for k in range(N_ING):
        if not mask[k]:
            continue
        w = card_worth(ip, params, k)
        if xset:
            w = -view[V_HAND + k] if k != WILD else 1e6
        else:
            w += 0.01 * view[V_HAND + k]
        if w < bv:
            bv = w
            best = k
    return best


@njit(cache=True, _nrt=False)
def curse_prize(ip, s, params, c):
    """The worth of winning the auction on Curse ``c``."""
    if c == C_YUGGOTH:
        return params[AGGRESSION] * params[CANDLE] * 2.5
    if c == C_STELLARIS:
        return params[AGGRESSION] * params[DRAW] * min(turns_left(ip, s) / ip[P_SEATS], 8.0)
    return 0.0


@njit(cache=True, _nrt=False)
def rlyeh_worth_it(ip, s, params):
    c = s[S_AUC_CURSE]
    return c == C_YUGGOTH or params[RLYEH_STELLARIS] >= 0.5


@njit(cache=True, _nrt=False)
def bid_choice(ip, s, view, mask, params, me):
    c = s[S_AUC_CURSE]
    prize = curse_prize(ip, s, params, c)
    if mask[A_RLYEH] and rlyeh_worth_it(ip, s, params):
        if ip[I_RLYEH_LAST] == 0:
            return A_RLYEH
        # R'lyeh may wait for the last call: bid as little as it must, let the others spend
        if mask[A_FOLD]:
            return A_FOLD
        lo = -1
        for k in range(N_ING):
            if mask[k] and (lo < 0 or ip[I_ING_VALUE + k] < ip[I_ING_VALUE + lo]):
                lo = k
        return lo if lo >= 0 else A_RLYEH
    mine = 0
    for k in range(N_ING):
        mine += view[V_BID + k] * ip[I_ING_VALUE + k]
    rival = 0.0  # the best rival total to beat, guessed from how many cards each bid
    mean = 0.0
    for k in range(N_ING):
        mean += ip[I_ING_COUNT + k] * ip[I_ING_VALUE + k]
    mean /= max(ip[I_ING_TOTAL], 1)
    for p in range(ip[P_SEATS]):
        if p != me:
            rival = max(rival, s[S_BID_N + p] * mean)
    spent = 0.0
    for k in range(N_ING):
        spent += view[V_BID + k] * card_worth(ip, params, k)
    # the best card to bid: the highest value (fewest cards to win), the lowest when not trying
    hi = -1
    lo = -1
    for k in range(N_ING):
        if mask[k]:
            if hi < 0 or ip[I_ING_VALUE + k] > ip[I_ING_VALUE + hi]:
                hi = k
            if lo < 0 or ip[I_ING_VALUE + k] < ip[I_ING_VALUE + lo]:
                lo = k
    want = prize > spent + card_worth(ip, params, hi) if hi >= 0 else False
    can_spare = s[S_HAND_N + me] > params[RESERVE]
    if not mask[A_FOLD]:  # the first round: a bid is compulsory
        return hi if want else lo
    if want and can_spare and mine <= rival + 0.5:
        return hi
    return A_FOLD


@njit(cache=True, _nrt=False)
def swap_own_choice(ip, s, mask, params, me, optional):
    """Its rearmost token (the one a swap moves furthest forward); an optional swap stops when
    none of its tokens is behind another player's."""
    x = 0
    for q in range(mask.shape[0] - 1):
        if mask[q]:
            x |= 1 << q
    if x == 0:
        return A_SWAP_STOP
    q = lowest(x)
    if optional:
        others = all_tokens(ip, s) & ~s[S_OCC + me]
        if others == 0 or highest(others) < q:
            return A_SWAP_STOP
    return q


@njit(cache=True, _nrt=False)
def swap_other_choice(ip, s, mask, params, own):
    """Near the end the other players' frontmost token (the tie-break); before that the
    frontmost one just out of a C'thonian's reach (the two front tokens); behind ``own``
    only when nothing better is left."""
    x = 0
    for q in range(mask.shape[0] - 1):
        if mask[q]:
            x |= 1 << q
    near = gap_to_cthulhu(ip, s) <= params[SWAP_FRONT]
    line = all_tokens(ip, s)
    danger = 0
    if not near:
        t = line
        for _ in range(2):
            if t != 0:
                danger |= 1 << highest(t)
                t &= ~(1 << highest(t))
    ahead = x & ~((1 << (own + 1)) - 1) if own >= 0 else x
    pick = ahead & ~danger
    if pick == 0:
        pick = ahead if ahead != 0 else x
    return highest(pick)


@njit(cache=True, _nrt=False)
def stake_choice(ip, s, view, mask, params):
    """Solitaire: stake cards worth more than Cthulhu's average draw, up to ``stake_limit``;
    R'lyeh wins outright."""
    if mask[A_RLYEH]:
        return A_RLYEH
    mean = 0.0
    for k in range(N_ING):
        mean += ip[I_ING_COUNT + k] * ip[I_ING_VALUE + k]
    mean /= max(ip[I_ING_TOTAL], 1)
    staked = 0
    for k in range(N_ING):
        staked += view[V_BID + k]
    best = -1
    for k in range(N_ING):
        if mask[k] and (best < 0 or ip[I_ING_VALUE + k] > ip[I_ING_VALUE + best]):
            best = k
    if not mask[A_STAKE_DONE]:  # compulsory
        return best
    if best >= 0 and staked < params[STAKE_LIMIT] and ip[I_ING_VALUE + best] > mean + 0.5:
        return best
    return A_STAKE_DONE


@njit(cache=True, _nrt=False)
def discard_choice(ip, s, view, mask, params, me):
    """Pnakotic Manuscripts: the face-up card worth most to the others and least to itself:
    an Object it cannot afford first, else the card worth least to it."""
    best = -1
    bv = NEG
    for slot in range(MAX_SLOTS):
        if not mask[slot]:
            continue
        c = s[S_TOP + slot]
        v = 0.0
        if c >= OBJ0:
            v = object_worth(ip, s, params, me, c - OBJ0)
            v -= pay_worth(ip, view, params, I_COST_SPEC + c * N_NATURAL, ip[I_COST_X + c],
                           ip[I_COST_ANY + c]) * 0.1
        else:
            v = -ip[I_CANDLES + c] * 0.5
        if v > bv:
            bv = v
            best = slot
    return best


@njit(cache=True, _nrt=False)
def ends_this_turn(ip, s):
    """Whether the game ends when this turn ends as things stand (WUC-E-1): Cthulhu stood next
    to a token this turn (or, by the switch, still does), or reached the Red Candle."""
    if s[S_RED_FLAG] == 1:
        return True
    c = s[S_CTHULHU]
    if c > 0 and (all_tokens(ip, s) >> (c - 1)) & 1:
        return True
    return ip[I_END_AT_END] == 0 and s[S_ADJ_FLAG] == 1


@njit(cache=True, _nrt=False)
def free_squares(ip, s):
    """Empty squares between the Starting square and Cthulhu."""
    c = s[S_CTHULHU]
    lo = ip[I_START]
    if c <= lo:
        return 0
    span = ((1 << c) - 1) ^ ((1 << lo) - 1)
    return np.int64(popcount(span & ~all_tokens(ip, s)))


@njit(cache=True, _nrt=False)
def placing_worth(ip, s, params, me, n):
    """What placing ``n`` tokens of its own in front of the line now (Ran-Tegoth, Yuggoth) is
    worth: a token each, or, when they reach Cthulhu and end the game, the game itself (its
    tokens in front win a tie) - worth nothing or worse when the rival then wins."""
    if n <= 0:
        return 0.0
    ends = ends_this_turn(ip, s) or gap_to_cthulhu(ip, s) <= n
    if not ends:
        return params[CANDLE] * n
    if tokens_of(s, me) + n >= best_rival(ip, s, me):
        return BIG
    if ends_this_turn(ip, s):  # it ends anyway, and it is lost anyway
        return 0.0
    return -BIG


@njit(cache=True, _nrt=False)
def ran_tegoth_choice(ip, s, params, me):
    """Ran-Tegoth when a token can be placed and it does not end a game that a rival wins."""
    if ip[I_SOLO] == 1:
        return A_YES
    n = min(frame_local(s, 0), s[S_RESERVE + me], free_squares(ip, s))
    return A_YES if placing_worth(ip, s, params, me, n) > 0.0 else A_NO


@njit(cache=True, _nrt=False)
def yuggoth_place_choice(ip, s, params, me):
    """Yuggoth's tokens ("can place"): placed unless they end a game that a rival wins."""
    n = min(ip[I_YUG_PLACE], s[S_RESERVE + me], free_squares(ip, s))
    return A_NO if placing_worth(ip, s, params, me, n) < 0.0 else A_YES


@njit(cache=True, _nrt=False)
def returned(ip, s, shielded):
    """The two squares C'thonian would return with the seats in ``shielded`` passed over."""
    x = 0
    for p in range(ip[P_SEATS]):
        if not (shielded >> p) & 1:
            x |= s[S_OCC + p]
    t = 0
    for _ in range(2):
        if x != 0:
            t |= 1 << highest(x)
            x &= ~(1 << highest(x))
    return t


@njit(cache=True, _nrt=False)
def standing(ip, s, me, gone):
    """Its standing with the tokens on ``gone`` taken away: (does it win were the game to end,
    its tokens less the best rival's)."""
    mine = np.int64(popcount(s[S_OCC + me] & ~gone))
    best = -1
    best_front = -1
    for p in range(ip[P_SEATS]):
        if p == me:
            continue
        x = s[S_OCC + p] & ~gone
        n = np.int64(popcount(x))
        front = highest(x) if x != 0 else -1
        if n > best or (n == best and front > best_front):
            best = n
            best_front = front
    x = s[S_OCC + me] & ~gone
    my_front = highest(x) if x != 0 else -1
    wins = mine > 0 and (mine > best or (mine == best and my_front > best_front))
    return wins, mine - best


@njit(cache=True, _nrt=False)
def shield_choice(ip, s, params, me):
    """R'lyeh against C'thonian when keeping its tokens is worth the card: compared by the
    standing each way (the game itself when it ends this turn, else tokens against the best
    rival's), never to hand a rival the game."""
    shielded = frame_local(s, 1)
    gone_no = returned(ip, s, shielded)
    gone_yes = returned(ip, s, shielded | (1 << me))
    if gone_no & s[S_OCC + me] == 0:
        return A_NO  # none of its tokens would go
    win_no, lead_no = standing(ip, s, me, gone_no)
    win_yes, lead_yes = standing(ip, s, me, gone_yes)
    c = s[S_CTHULHU]
    end_no = ends_this_turn(ip, s)
    end_yes = end_no
    if ip[I_END_AT_END] == 1 and s[S_RED_FLAG] == 0 and c > 0:
        # only an adjacency at the end of the turn counts: the front after the returns
        line_no = all_tokens(ip, s) & ~gone_no
        line_yes = all_tokens(ip, s) & ~gone_yes
        end_no = line_no != 0 and highest(line_no) == c - 1
        end_yes = line_yes != 0 and highest(line_yes) == c - 1
    v_no = (BIG if win_no else -BIG) if end_no else params[CANDLE] * lead_no
    v_yes = (BIG if win_yes else -BIG) if end_yes else params[CANDLE] * lead_yes
    v_yes -= object_worth(ip, s, params, me, O_RLYEH)
    return A_YES if v_yes > v_no else A_NO


@njit(cache=True, _nrt=False)
def replace_choice(ip, s, mask, params, me):
    """Yuggoth, the replacement reading: the frontmost token of the rival with the most."""
    best = -1
    bn = -1
    for q in range(mask.shape[0] - 1, -1, -1):
        if q < 63 and mask[q]:
            p = -1
            for r in range(ip[P_SEATS]):
                if (s[S_OCC + r] >> q) & 1:
                    p = r
            n = tokens_of(s, p) if p >= 0 else -1
            if n > bn:
                bn = n
                best = q
    return best if best >= 0 else A_SWAP_STOP


@njit(cache=True, _nrt=False)
def heuristic_decide(ip, fp, s, view, mask, params, rng):
    d = s[DECISION]
    me = s[SEAT]
    if d == D_ACTION:
        best = A_STOP if mask[A_STOP] else -1
        bv = params[MIN_GAIN] if mask[A_STOP] else NEG
        stuck = True  # no face-up card it can advance with: a new card is worth digging for
        for slot in range(MAX_SLOTS):
            if mask[A_ADVANCE + slot]:
                stuck = False
        dig = 0.0
        if stuck:
            dig = params[DIG]
            # near the end a leader digs for a card to end the game with (it wins then)
            if ip[I_SOLO] == 0 and gap_to_cthulhu(ip, s) <= params[SWAP_FRONT] and \
                    tokens_of(s, me) >= best_rival(ip, s, me):
                dig += 3.0 * params[CANDLE]
        # a table far past any usual length grows impatient (nothing else changes a table
        # where every player waits): any action is worth more every turn
        dig += IMPATIENCE * max(s[TURN] - PATIENT_TURNS, 0)
        noise = params[NOISE]
        if noise > 0.0 and mask[A_STOP]:
            bv += noise * rng_uniform(rng)
        for a in range(A_STOP):
            if mask[a]:
                v = action_worth(ip, s, view, params, me, a) + dig
                if noise > 0.0:
                    v += noise * rng_uniform(rng)
                if v > bv:
                    bv = v
                    best = a
        return best if best >= 0 else first_legal(mask)
    if d == D_PAY:
        return pay_choice(ip, s, view, mask, params)
    if d == D_SEARCH:
        if mask[WILD]:
            return WILD
        best = -1
        for k in range(N_NATURAL):
            if mask[k] and (best < 0 or view[V_HAND + k] > view[V_HAND + best]):
                best = k
        return best
    if d == D_DISCARD:
        return discard_choice(ip, s, view, mask, params, me)
    if d == D_SWAP_OWN:
        return swap_own_choice(ip, s, mask, params, me, mask[A_SWAP_STOP] == 1)
    if d == D_SWAP_OTHER:
        return swap_other_choice(ip, s, mask, params, frame_local(s, 3))
    if d == D_OUT_SWAP:
        return swap_own_choice(ip, s, mask, params, me, False)
    if d == D_BID:
        return bid_choice(ip, s, view, mask, params, me)
    if d == D_RLYEH_OPEN:  # (with a last call to come, it waits for it)
        return A_YES if rlyeh_worth_it(ip, s, params) and ip[I_RLYEH_LAST] == 0 else A_NO
    if d == D_RLYEH_LAST:
        return A_YES if rlyeh_worth_it(ip, s, params) else A_NO
    if d == D_RAN_TEGOTH:
        return ran_tegoth_choice(ip, s, params, me)
    if d == D_SHIELD:
        return shield_choice(ip, s, params, me)
    if d == D_YUG_PLACE:
        return yuggoth_place_choice(ip, s, params, me)
    if d == D_YUG_REPLACE:
        return replace_choice(ip, s, mask, params, me)
    if d == D_STAKE:
        return stake_choice(ip, s, view, mask, params)
    return first_legal(mask)


@njit(cache=True, _nrt=False)
def heuristic(ip, fp, s, view, mask, params, rng):
    """Values every action in tokens (a card kept, a card drawn, an Object, a further action)
    and plays the best; pays with its cheapest cards, bids while the prize is worth the cards,
    plays R'lyeh on Yuggoth, answers with Ran-Tegoth and shields when it pays, swaps to the
    front near the end, never ends the game while behind."""
    return heuristic_decide(ip, fp, s, view, mask, params, rng)


RACER = {**HEURISTIC_PARAMS,
         "candle_value": Param(5.0, 0.0, 20.0, HEURISTIC_PARAMS["candle_value"].help),
         "object_value": Param(0.3, 0.0, 5.0, HEURISTIC_PARAMS["object_value"].help),
         "bid_aggression": Param(0.3, 0.0, 5.0, HEURISTIC_PARAMS["bid_aggression"].help),
         "bid_reserve": Param(4.0, 0.0, 10.0, HEURISTIC_PARAMS["bid_reserve"].help)}
HOARDER = {**HEURISTIC_PARAMS,
           "candle_value": Param(2.5, 0.0, 20.0, HEURISTIC_PARAMS["candle_value"].help),
           "object_value": Param(2.0, 0.0, 5.0, HEURISTIC_PARAMS["object_value"].help),
           "bid_aggression": Param(2.0, 0.0, 5.0, HEURISTIC_PARAMS["bid_aggression"].help),
           "bid_reserve": Param(0.0, 0.0, 10.0, HEURISTIC_PARAMS["bid_reserve"].help),
           "rlyeh_on_stellaris": Param(1.0, 0.0, 1.0,
                                       HEURISTIC_PARAMS["rlyeh_on_stellaris"].help)}

# by_seat: strategy.seat_0 .. seat_3 name each seat's style; the three styles' parameters
# follow, one block each (heuristic, racer, hoarder), so every style keeps its own defaults
SEAT_STRATEGIES = ("heuristic", "racer", "hoarder", "random")
N_SEAT_PARAMS = 4
STYLE_BLOCKS = (HEURISTIC_PARAMS, RACER, HOARDER)
STYLE_PREFIX = ("", "racer.", "hoarder.")


@njit(cache=True, _nrt=False)
def by_seat(ip, fp, s, view, mask, params, rng):
    """Each seat plays its own style (strategy.seat_0 .. seat_3: heuristic, racer, hoarder or
    random), to see how styles fare at one table."""
    seat = s[SEAT]
    which = int(params[seat]) if 0 <= seat < N_SEAT_PARAMS else 0
    if which == 3:
        return uniform_legal(mask, rng)
    start = N_SEAT_PARAMS + which * N_PARAMS
    return heuristic_decide(ip, fp, s, view, mask, params[start:start + N_PARAMS], rng)


def _by_seat_params() -> dict[str, Param]:
    out: dict[str, Param] = {f"seat_{k}": Param.choice("heuristic", SEAT_STRATEGIES,
                                                       f"style of seat {k}")
                             for k in range(N_SEAT_PARAMS)}
    for prefix, block in zip(STYLE_PREFIX, STYLE_BLOCKS, strict=True):
        for name, prm in block.items():
            out[prefix + name] = prm
    return out


register("wakeup", "heuristic", heuristic, HEURISTIC_PARAMS, description=heuristic.__doc__)
register("wakeup", "random", random_policy, description=random_policy.__doc__,
         uniform=True)
register("wakeup", "racer", heuristic, RACER,
         description="The heuristic as a racer: a token is worth more (5), Objects and auctions "
                     "less (0.3), and it keeps four cards out of every auction: it advances "
                     "at every chance.")
register("wakeup", "hoarder", heuristic, HOARDER,
         description="The heuristic as a hoarder: Objects and auctions are worth twice as "
                     "much, a token less (2.5), it bids down to its last card and plays R'lyeh "
                     "on Stellaris Seminum too.")
register("wakeup", "by_seat", by_seat, _by_seat_params(), description=by_seat.__doc__)
