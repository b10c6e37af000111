"""Sticky Cthulhu: one game in plain words, from the events the playout logged."""

from __future__ import annotations

import numpy as np

from simcore.sticky import state as S
from simcore.sticky.loader import StickyParams


def kind_name(k: int, p: StickyParams) -> str:
    """Creature kind ``k`` by its name in the rules data (``components.creature_names``)."""
    names = p.creature_names
    return names[k] if 0 <= k < len(names) else f"Creature kind {k + 1}"


ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
            "ninth", "tenth", "eleventh", "twelfth", "thirteenth")


def colour_name(c: int, p: StickyParams) -> str:
    """Colour ``c`` by its name in the rules data (``components.colour_names``)."""
    return p.colour_names[c] if 0 <= c < len(p.colour_names) else f"colour {c + 1}"


def special_face(p: StickyParams) -> str:
    """The Colour die's face that shows no colour: the sixth, with five colours on six faces."""
    colours = int(p.ip[S.I_COLOURS])
    if int(p.ip[S.I_COLOUR_FACES]) == colours + 1 and colours < len(ORDINALS):
        return f"the {ORDINALS[colours]} face"
    return "a face with no colour"


def token_name(j: int, p: StickyParams) -> str:
    colours = int(p.ip[S.I_COLOURS])
    n_inv = int(p.ip[S.I_INVESTIGATORS])
    if j < n_inv:
        return f"Investigator {j + 1}"
    c = j - n_inv
    return f"{colour_name(c % colours, p)} {kind_name(c // colours, p)}"


def format_events(ev: np.ndarray, rec: np.ndarray, p: StickyParams, seed: int, index: int,
                  strategy: str) -> str:
    """Turn the event rows of one playout into readable lines, throws in time order."""
    players = int(p.ip[S.I_PLAYERS])
    curses = p.curse_texts
    lines = [
        f"Sticky Cthulhu - seed {seed}, playout {index}, strategy {strategy}",
        f"{players} players: "
        + ", ".join(f"seat {s} {p.seat_profiles[s]}" for s in range(players)),
    ]
    inv = [e for e in ev if e[0] == S.EV_SETUP and e[1] < p.ip[S.I_INVESTIGATORS]]
    n_setup = sum(1 for e in ev if e[0] == S.EV_SETUP)
    lines.append(f"Setup: {n_setup} tokens scattered on a {p.fp[S.F_WIDTH]:g} x "
                 f"{p.fp[S.F_DEPTH]:g} cm table; Investigators at "
                 + ", ".join(f"({e[2] / 10:.0f}, {e[3] / 10:.0f})" for e in inv))
    turn_events: list[tuple[float, str]] = []
    detach_times: list[float] = []
    target = -1  # the designated Creature of the turn (-1: any of a kind)
    n_inv = int(p.ip[S.I_INVESTIGATORS])
    colours = int(p.ip[S.I_COLOURS])

    def flush() -> None:
        # Seats are raced one after another, so a seat raced early may log throws after the
        # moment another seat ended the turn; those never happened at the table.
        end = min(detach_times) if detach_times else float("inf")
        for when, text in sorted(turn_events, key=lambda x: x[0]):
            if when <= end:
                lines.append(text)
        turn_events.clear()
        detach_times.clear()

    for e in ev:
        code = int(e[0])
        a, b, c, d, f = (int(x) for x in e[1:6])
        if code == S.EV_ROLL:  # turn, roller, kind, colour, rerolls, face
            flush()
            target = n_inv + c * colours + d if d >= 0 else -1
            # a face beyond the colours (sixth_colour_face): rolled again, another face of a
            # colour, or any colour counts
            times = "once" if f == 1 else f"{f} times"
            extra = (f" (the Colour die showed {special_face(p)} {times} and was rolled again)"
                     if f else "")
            face = int(e[6])
            if d >= 0 and face >= colours:
                extra += f" (the Colour die's {special_face(p)[4:]}, also {colour_name(d, p)})"
            if d == -1:
                lines.append(f"Turn {a}: seat {b} rolls {kind_name(c, p)} and the Colour die shows "
                             f"{special_face(p)}: any {kind_name(c, p)} counts{extra}.")
            else:
                lines.append(f"Turn {a}: seat {b} rolls the {colour_name(d, p)} "
                             f"{kind_name(c, p)}{extra}.")
        elif code == S.EV_CURSE_CHOICE:  # seat, card, ignored
            verb = "ignores" if c == 1 else "respects"
            lines.append(f"  seat {a} {verb} the Curse '{curses[b]}'.")
        elif code == S.EV_CURSE_FREE:
            lines.append(f"  seat {a} holds no token, so is not bound by '{curses[b]}'.")
        elif code == S.EV_THROW:
            aimed = int(e[6])
            what = "HITS the target" if c else "misses"
            if 0 <= target != aimed:  # the extra_creature Curse: a second Creature is needed
                what = (f"{'HITS' if c else 'misses'} the {token_name(aimed, p)} (a second "
                        "Creature, for the Curse)")
            stuck = []
            if d:
                stuck.append(f"{d} other Creature(s)")
            if f:
                stuck.append(f"{f} Investigator(s)")
            tail = f", picking up {' and '.join(stuck)}" if stuck else ""
            aboard = int(e[7])
            if aboard > f:
                tail += f" ({aboard} Investigator(s) now on the tentacle)"
            turn_events.append((b, f"  {b / 1000:6.2f}s seat {a} throws and {what}{tail}."))
        elif code == S.EV_SHAKE:
            kept = {1: "keeps the target", 0: "loses the target"}.get(c, "")
            how = "pulls back, shaking the tentacle" if int(e[6]) else "shakes the tentacle"
            turn_events.append((b, f"  {b / 1000:6.2f}s seat {a} {how}: "
                                   f"{kept + ', ' if kept else ''}{d} Investigator(s) left."))
        elif code == S.EV_NOTICE:
            seen = ("notices it and shakes it off" if c else
                    "does not notice it and throws with it")
            turn_events.append((b, f"  {b / 1000:6.2f}s seat {a} has an Investigator left on "
                                   f"the tentacle: {seen}."))
        elif code == S.EV_TANGLE:  # seat, other seat, t_ms, t_ms again
            turn_events.append((c, f"  {c / 1000:6.2f}s seats {a} and {b} tangle their "
                                   f"tentacles; both throw again at {d / 1000:.2f}s."))
        elif code == S.EV_PUT_BACK:
            lines.append(f"  The {token_name(a, p)} is put back at ({b / 10:.0f}, "
                         f"{c / 10:.0f}).")
        elif code == S.EV_DETACH:
            detach_times.append(b)
            how = "cleanly" if c else "with an Investigator still aboard"
            if d:
                how += ", not having noticed it"
            turn_events.append((b, f"  {b / 1000:6.2f}s seat {a} detaches the Creature {how} "
                                   "and puts it back: the turn ends."))
        elif code == S.EV_TIE:  # seat chosen, seats tied, t_ms
            flush()
            lines.append(f"  {b} seats finish at the same instant ({c / 1000:.2f}s): the tie "
                         f"is settled at random, for seat {a}.")
        elif code == S.EV_GIVE_UP:
            turn_events.append((b, f"  {b / 1000:6.2f}s seat {a} gives up this turn."))
        elif code == S.EV_VOID:
            flush()
            lines.append("  Nobody caught it: the turn is void.")
        elif code == S.EV_PENALTY:
            flush()
            lines.append(f"  seat {a} is caught ignoring '{curses[b]}' and drops to {c} token(s).")
        elif code == S.EV_TOKEN:
            flush()
            lines.append(f"  seat {a} gains a Deep One token ({b} now).")
        elif code == S.EV_CURSE_DRAW:
            flush()
            old = f", returning '{curses[c]}' under the pile" if c >= 0 else ""
            lines.append(f"  seat {a} draws the Curse '{curses[b]}'{old}.")
        elif code == S.EV_WIN:
            flush()
            lines.append(f"Seat {a} wins on turn {b}.")
    flush()
    tokens = ", ".join(str(int(rec[S.R_TOKENS + s])) for s in range(players))
    if rec[S.R_OUTCOME] == S.O_CAP:
        lines.append(f"The game reached the turn cap ({int(rec[S.R_TURNS])} turns).")
    lines.append(f"Result: {S.OUTCOMES[int(rec[S.R_OUTCOME])]}, winner seat "
                 f"{int(rec[S.R_WINNER])}, {int(rec[S.R_TURNS])} turns, "
                 f"{rec[S.R_GAME_MS] / 60000:.1f} minutes of play; tokens by seat: {tokens}.")
    return "\n".join(lines)
