"""Wake Up, Cthulhu!: one game in plain words.

The events come from the engine's trace run (the same playout the batch plays).  ``init`` runs
without an event buffer, so the setup (the first reveals, any Curse they turn up, up to the
first question) is played again here from Python with its events logged, from the same stream:
the very same setup.  Every turn shows the Summoning Circle as a line of text, the face-up
Grimoire and the active player's hand as its owner sees it (the trace itself sees everything:
face-down bids are shown with their cards, marked face down).
"""

from __future__ import annotations

import numpy as np

from simcore import engine as E
from simcore.kernels import new_rng
from simcore.wakeup import state as S

LETTERS = "GRBY"  # token colours: Green, Red, Blue, Yellow

OUTCOME_WORDS = {
    "next_to_cthulhu": "the game ends: Cthulhu stands next to a token",
    "red_candle": "the game ends: Cthulhu has reached the Red Candle",
    "portal_player": "the player's figure reaches the Portal first: the player wins",
    "portal_cthulhu": "Cthulhu reaches the Portal first: the player loses",
    "turn_cap": "the turn cap is reached with no end",
}
HOW_RLYEH = ("before the first bid", "instead of a bid", "once all had folded",
             "against C'thonian", "in the duel")
WHY_DRAW = ("replenishes", "draws (Spell)", "searches")
WHY_PLACE = ("advance", "Yuggoth", "Ran-Tegoth")
WHY_SWAP = ("Spell", "Yuggoth", "out of tokens")
WHY_SOLO = ("advance", "swap Spell", "Curse", "Curse duel", "Ran-Tegoth")


def seat_name(p: int, solo: bool = False) -> str:
    if solo:
        return "the player" if p == 0 else "Cthulhu"
    return f"{S.SEAT_COLOURS[p]} (seat {p})" if 0 <= p < S.MAX_SEATS else "nobody"


def path_line(ip: np.ndarray, occ: tuple[int, ...], cthulhu: int) -> str:
    """The Summoning Circle from the Starting square to the pit, one mark a square: a token's
    colour letter, ``.`` empty, ``*`` the Red Candle (empty), ``C`` Cthulhu (``@`` the pit)."""
    start, squares, red = int(ip[S.I_START]), int(ip[S.I_SQUARES]), int(ip[S.I_RED])
    marks = []
    for q in range(start, squares + 1):
        m = "."
        for p, x in enumerate(occ):
            if (int(x) >> q) & 1:
                m = LETTERS[p]
        if q == cthulhu:
            m = "C" if q < squares else "@C"
        elif q == squares:
            m = "@"
        elif m == "." and q == red:
            m = "*"
        marks.append(m)
    return f"square {start} |" + "".join(marks) + f"| pit ({squares})"


def hand_words(counts, names: tuple[str, ...]) -> str:
    parts = [f"{int(n)} {names[k]}" for k, n in enumerate(counts) if int(n)]
    return ", ".join(parts) if parts else "no Ingredients"


def setup_events(config, seed: int, index: int) -> np.ndarray:
    """The setup's events: ``init`` again (setup, then play up to the first question) from
    the playout's own stream, with an event buffer."""
    from simcore.wakeup import rules
    from simcore.wakeup import setup as SU

    ip = config.params.ip
    s = np.zeros(ip[E.P_STATE_SIZE], dtype=np.int64)
    h = np.zeros(ip[E.P_HIDDEN_SIZE], dtype=np.int64)
    rng = new_rng(seed, index)
    ev = np.zeros((20_000, E.EV_WIDTH), dtype=np.int64)
    evn = np.zeros(1, dtype=np.int64)
    SU.setup(ip, s, h, rng)
    rules.run(ip, s, h, rng, ev, evn)
    return ev[:int(evn[0])].copy()


def format_events(game, config, seed: int, index: int, events: np.ndarray,
                  rec: np.ndarray) -> str:
    p = config.params
    ip = p.ip
    solo = p.solo
    ing = p.ing_names
    cards = S.CARD_NAMES
    fields = {name: int(rec[k]) for k, name in enumerate(game.record_fields)}

    def who(x: int) -> str:
        return seat_name(x, solo)

    out = [f"{game.title} - seed {seed}, playout {index}, strategy {config.strategy.name}"]
    if solo:
        out.append(f"Solitaire: the player's Path C has {ip[S.I_SOLO_PATH_C]} squares, "
                   f"Cthulhu's Path D {ip[S.I_SOLO_PATH_D]}; the last square of each is the "
                   "Portal. Cthulhu plays first.")
    else:
        out.append(f"{p.players} players; the Summoning Circle has squares 0 to "
                   f"{ip[S.I_SQUARES] - 1}, the Starting square is {ip[S.I_START]}, the Red "
                   f"Candle {ip[S.I_RED]}, Cthulhu starts in the pit ({ip[S.I_SQUARES]}). "
                   "Tokens: " + ", ".join(f"{LETTERS[k]} = {S.SEAT_COLOURS[k]}"
                                          for k in range(p.players)) + ".")
    costs = []
    for c in range(S.CURSE0):
        text = f"{cards[c]} {p.costs[c].text(ing)}"
        adv = p.advances[c]
        if adv is not None:
            text += f" (advance {adv.text(ing)}: {ip[S.I_CANDLES + c]} candles)"
        costs.append(text)
    out.append("Grimoire costs: " + "; ".join(costs) + ".")
    out.append("Ingredients (sacrifice value): " + ", ".join(
        f"{ing[k]} {ip[S.I_ING_VALUE + k]}" for k in range(S.N_ING)) + ".")
    out.append("Setup:")
    last_actor = [-1]
    for part in (setup_events(config, seed, index), events):
        for e in part:
            line = _event_line(ip, solo, ing, cards, who, e, last_actor)
            if line is not None:
                out.append(line)
    outcome = game.outcomes[fields["outcome"]]
    out.append(f"Result: {OUTCOME_WORDS.get(outcome, outcome)}, after {fields['turns']} "
               "turns.")
    if not solo:
        tokens = ", ".join(f"{S.SEAT_COLOURS[k]} {fields[f'tokens_{k}']}"
                           for k in range(p.players))
        w = fields["winner"]
        how = " (tie broken by the token closest to Cthulhu)" if fields["tie_break"] else ""
        out.append(f"  Tokens on the board: {tokens}. Winner: {who(w)}{how}.")
    out.append(f"  Record: {', '.join(f'{k}={v}' for k, v in fields.items())}")
    return "\n".join(out)


def _event_line(ip, solo, ing, cards, who, e, last_actor) -> str | None:
    code = int(e[0])
    a, b, c, d, e5, f, g = (int(x) for x in e[1:8])
    if code == E.EV_DECIDE:
        if g:
            return f"    ({who(a)}'s answer was not legal and was replaced by the first legal one)"
        if c == S.A_NO and b in (S.D_RLYEH_OPEN, S.D_RLYEH_LAST, S.D_RAN_TEGOTH, S.D_SHIELD):
            what = "Ran-Tegoth" if b == S.D_RAN_TEGOTH else "R'lyeh"
            return f"    {who(a)} keeps {what} (does not play it now)."
        if b == S.D_SWAP_OWN and c == S.A_SWAP_STOP:
            return f"    {who(a)} swaps no more."
        if b == S.D_YUG_REPLACE and c == S.A_SWAP_STOP:
            return f"    {who(a)} replaces no more."
        if b == S.D_YUG_PLACE and c == S.A_NO:
            return f"    {who(a)} places no token (Yuggoth)."
        return None
    if code == E.EV_SEARCH:
        return f"    search: value {c / 1e6:.3f} for answer {a} ({b} visits)"
    if code == E.EV_FAULT:
        return f"  FAULT: the playout was cut off after {a} decisions."
    if code == S.EV_TURN:
        if b < 0:
            return f"Cthulhu's turn {c}:"
        return f"Turn {a} ({who(b)}, round {c}):"
    if code == S.EV_BOARD:
        if solo:
            return (f"  Path C: the player on square {f} of {ip[S.I_SOLO_PATH_C] - 1}; Path D: "
                    f"Cthulhu on square {e5} of {ip[S.I_SOLO_PATH_D] - 1}; deck {g} cards.")
        return f"  {path_line(ip, (a, b, c, d), e5)}   deck {g} cards"
    if code == S.EV_TOPS:
        tops = [cards[x] if x >= 0 else "-" for x in (a, b, c, d, e5, f)][:ip[S.I_SLOTS]]
        return "  Face up: " + " | ".join(tops)
    if code == S.EV_HAND:
        return f"  {who(a)}'s hand: {hand_words((b, c, d, e5, f), ing)}"
    if code == S.EV_OBJECTS:
        owned = [f"{n} {cards[S.OBJ0 + k]}" for k, n in enumerate((b, c, d, e5)) if n]
        if f:
            owned.append(f"{f} Stellaris Seminum")
        return f"    {who(a)} owns {', '.join(owned)}." if owned else None
    if code == S.EV_SEARCH:
        return f"    {who(a)} searches the deck and takes {ing[b]}; the deck is shuffled."
    if code == S.EV_DRAW:
        return f"    {who(a)} {WHY_DRAW[c]}: {ing[b]}"
    if code == S.EV_PAY:
        return f"    {who(a)} pays {ing[b]}"
    if code == S.EV_CONJURE:
        mode = {1: " with Ulthar (doubled)", 2: " with Daemonum Prestigis (for one card)",
                3: " with Ulthar and Daemonum Prestigis"}.get(d, "")
        return f"  {who(a)} conjures {cards[b]} from slot {c}{mode}."
    if code == S.EV_ADVANCE:
        return f"  {who(a)} advances with {cards[b]} from slot {c}: {d} candles."
    if code == S.EV_PLACE:
        return f"    {who(a)} places a token on square {b} ({WHY_PLACE[c]})."
    if code == S.EV_NO_ROOM:
        return f"    {who(a)}: no empty square before Cthulhu, the token stays in the reserve."
    if code == S.EV_SWAP:
        return (f"    swap ({WHY_SWAP[e5]}): {who(a)}'s token on square {b} and {who(c)}'s on "
                f"square {d} change places.")
    if code == S.EV_CTHULHU:
        return f"    Cthulhu moves from square {a} to {b}."
    if code == S.EV_REVEAL:
        return f"    slot {a} reveals {cards[b]}."
    if code == S.EV_CURSE:
        return f"  Curse! {cards[a]} (slot {b})."
    if code == S.EV_BID:
        if solo:
            return f"    the player sets aside {ing[b]} (value {ip[S.I_ING_VALUE + b]})."
        return f"    {who(a)} bids a card face down [{ing[b]}] (round {c})."
    if code == S.EV_FOLD:
        return f"    {who(a)} folds (round {b})."
    if code == S.EV_REVEAL_BIDS:
        return f"    {who(a)}'s bid revealed: {c} {ing[b]}"
    if code == S.EV_TIE_DRAW:
        return f"    tie: {who(a)} draws {ing[b]} (value {ip[S.I_ING_VALUE + b]})"
    if code == S.EV_AUCTION:
        totals = ", ".join(f"{S.SEAT_COLOURS[k]} {t}" for k, t in enumerate((c, d, e5, f))
                           if t >= 0)
        won = f"{who(a)} wins" if a >= 0 else "nobody bid"
        return f"    auction for {cards[b]}: totals {totals or 'none'}; {won}."
    if code == S.EV_RLYEH:
        return f"    {who(a)} plays R'lyeh {HOW_RLYEH[b]}."
    if code == S.EV_RAN_TEGOTH:
        if d:  # solitaire (switch solo_ran_tegoth): the figure follows Cthulhu's move
            return f"    {who(a)} plays Ran-Tegoth: the figure moves {b} squares, as Cthulhu did."
        return f"    {who(a)} plays Ran-Tegoth: {b} of {c} tokens."
    if code == S.EV_REPLACE:
        return (f"    Yuggoth: {who(c)}'s token on square {b} goes back to the reserve, "
                f"{who(a)}'s takes its place.")
    if code == S.EV_RETURN:
        return f"    C'thonian returns {who(a)}'s token on square {b} to the reserve."
    if code == S.EV_G_SHUFFLE:
        return f"    the Grimoire discard pile ({a} cards) is shuffled into {b} new pile(s)."
    if code == S.EV_I_SHUFFLE:
        return f"    the Ingredient discard pile ({a} cards) is shuffled into a new deck."
    if code == S.EV_DISCARD:
        return f"    {who(a)} discards {cards[c]} from slot {b} (Pnakotic Manuscripts)."
    if code == S.EV_OBJECT:
        if c == 1:
            return None  # bought: the conjure line says it
        # R'lyeh's own line says how it was played (EV_RLYEH)
        return None if d in (1, 3, 4) else f"    {who(a)} plays {cards[b]}."
    if code == S.EV_SOLO_A:
        kind = ing[a]
        return f"    Cthulhu lays {kind} on A position {b + 1} ({c} there)."
    if code == S.EV_SOLO_MOVE:
        return (f"    {who(a)} moves from square {b} to {c} ({WHY_SOLO[d]}).")
    if code == S.EV_DUEL:
        if b < 0:
            return "    the player wins the duel with R'lyeh."
        return (f"    duel over {cards[a]}: the player {b} against Cthulhu's {c}: "
                f"{'the player' if d == 0 else 'Cthulhu'} wins.")
    if code == S.EV_STELLARIS:
        if a < 0:
            return "    nobody keeps Stellaris Seminum: discarded."
        holder = "Cthulhu" if a == S.MAX_SEATS else who(a)
        return f"    {holder} keeps Stellaris Seminum."
    if code == S.EV_PASS:
        return f"  {who(a)} {'stops' if b else 'can do nothing and passes'}."
    if code == S.EV_REFRESH:
        return (f"  Nobody played an action for a whole round: the {a} face-up cards are "
                "discarded and their piles reveal new ones.")
    if code == S.EV_CLEAR:
        return f"  {who(a)} discards the four face-up Objects."
    if code == S.EV_END:
        return None
    if code == S.EV_CAP:
        return f"  The turn cap ({a}) is reached."
    return None
